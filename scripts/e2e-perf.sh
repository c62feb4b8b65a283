#!/usr/bin/env bash
# `yarn -s e2e:perf`: the 2,000-node cluster in one browser session; prints
#   ui-perf nodes=2000 node_health_ms=<median> machines_tab_ms=<median> ratio=<node_health/machines_tab>
# on stdout (progress on stderr). Same set-up as scripts/e2e.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  echo "[e2e:perf] $chromium_path not found: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 2
fi
unset API
exec tsx tests/e2e/perf.ts "$@"
