#!/usr/bin/env bash
# ESLint over the project's code with Rancher's rules; any warning fails, as in the dashboard's `yarn lint`.
# Extra arguments go to eslint (e.g. `yarn lint --fix`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"

targets=()
for dir in pkg cli scenarios bench mock-rancher tests; do
  [ -d "$dir" ] && targets+=("$dir")
done
targets+=(eslint-rules .eslintrc.js babel.config.js vue.config.js jest.config.js)

# eslint 7's bin loads v8-compile-cache, which compiles get-intrinsic's newer .mjs dependencies
# as CommonJS and crashes; eslint works normally without it.
export DISABLE_V8_COMPILE_CACHE=1
# @vue/eslint-config-standard's import resolver loads shell's vue.config.js, which prints two banner
# lines; they are not lint findings.
set +e
# The project's own rules (eslint-rules/) are enabled in .eslintrc.js.
eslint --rulesdir eslint-rules --max-warnings 0 --no-error-on-unmatched-pattern --ext .js,.ts,.vue "$@" "${targets[@]}" 2>&1 \
  | grep -v -e '^Build: ' -e "^API: '"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && echo "eslint: no problems in ${targets[*]}"

# The Linux host check is POSIX sh: shellcheck reads it where it is installed (Debian: apt-get install
# shellcheck); it is a developer's check, not a dependency.
if command -v shellcheck >/dev/null 2>&1; then
  if shellcheck -s sh pkg/node-health/host-check/linux.sh; then
    echo "shellcheck: no problems in pkg/node-health/host-check/linux.sh"
  else
    status=1
  fi
fi
exit "$status"
