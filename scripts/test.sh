#!/usr/bin/env bash
# `npm test` / `yarn test`: every check the project has, on a fresh machine too (bootstraps first).
#   1. type check   tsc --noEmit -p .            counts as 1 passed or 1 failed
#   2. lint         scripts/lint.sh              counts as 1 passed or 1 failed
#   3. jest         all projects (unit, components); counts each test, plus each suite that could not run
#   4. browser      tests/e2e (hook below)
# The last line printed is always "N passed, N failed"; the exit status is non-zero if anything failed.
# Extra arguments go to jest (e.g. `npm test -- tests/unit`).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

passed=0
failed=0
failed_steps=()
# One line per failed test, repeated at the end so that the last lines of a long run name them.
failed_tests="$(mktemp "${TMPDIR:-/tmp}/node-health-failed.XXXXXX")"
# Browser tests that passed only on another try (CI gives a failed one a second try): named, never hidden.
flaky_tests="$(mktemp "${TMPDIR:-/tmp}/node-health-flaky.XXXXXX")"
trap 'rm -f "$failed_tests" "$flaky_tests"' EXIT

record() { # record <passed> <failed> <step name>
  passed=$((passed + $1))
  failed=$((failed + $2))
  if [ "$2" -gt 0 ]; then
    failed_steps+=("$3 ($2)")
  fi
}

section() {
  printf '\n==== %s ====\n' "$*"
}

if ! nh_bootstrap; then
  echo "Could not install the project's tools and dependencies (see above)."
  echo "0 passed, 1 failed"
  exit 1
fi
cd "$NH_ROOT"

# ---------------------------------------------------------------------------
section "Type check: tsc --noEmit -p ."
started=$SECONDS
if tsc --noEmit -p .; then
  echo "tsc: 0 errors ($((SECONDS - started))s)"
  record 1 0 "type check"
else
  echo "tsc: type errors above ($((SECONDS - started))s)"
  record 0 1 "type check"
fi

# ---------------------------------------------------------------------------
section "Lint: eslint"
started=$SECONDS
if bash scripts/lint.sh; then
  record 1 0 "lint"
else
  record 0 1 "lint"
fi
echo "($((SECONDS - started))s)"

# ---------------------------------------------------------------------------
section "Unit and component tests: jest"
jest_json="$(mktemp "${TMPDIR:-/tmp}/node-health-jest.XXXXXX")"
jest --ci --json --outputFile="$jest_json" "$@"
jest_status=$?
# Failed tests, plus suites that failed before any test ran (syntax or import errors report no test).
jest_counts="$(node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const lines = [];
  for (const suite of r.testResults || []) {
    const file = require("path").relative(process.cwd(), suite.name || "");
    if (suite.status === "failed" && !(suite.assertionResults || []).some((a) => a.status === "failed")) {
      lines.push(`jest: ${ file }: ${ String(suite.message || "").split("\n").map((l) => l.trim()).find((l) => l && !l.includes("Test suite failed to run")) || "the suite could not run" }`);
    }
    for (const a of suite.assertionResults || []) {
      if (a.status === "failed") {
        lines.push(`jest: ${ file }: ${ a.fullName }`);
      }
    }
  }
  fs.appendFileSync(process.argv[2], lines.map((l) => `${ l.slice(0, 400) }\n`).join(""));
  console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites);
' "$jest_json" "$failed_tests" 2>/dev/null)" || jest_counts="0 1"
rm -f "$jest_json"
read -r jest_passed jest_failed <<<"$jest_counts"
if [ "$jest_status" -ne 0 ] && [ "$jest_failed" -eq 0 ]; then
  # jest failed without a failing test to show for it (no tests found, bad configuration, ...).
  jest_failed=1
fi
record "$jest_passed" "$jest_failed" "jest"

# ---------------------------------------------------------------------------
# >>> Browser tests (tests/e2e) >>>
# Runs the end-to-end suite in headless Chromium (scripts/e2e.sh: embedded Rancher API, one dashboard
# dev-server compile, Debian's chromium) and reports its counts with
#   record <passed> <failed> "browser tests"
# from the results file it writes. Skipped tests count neither way; they are listed in its output.
# NODE_HEALTH_SKIP_E2E=1 leaves the suite out (and says so).
run_browser_tests() {
  section "Browser tests: tests/e2e (headless Chromium)"
  if [ -n "${NODE_HEALTH_SKIP_E2E:-}" ]; then
    echo "browser tests: not run (NODE_HEALTH_SKIP_E2E is set)"
    return 0
  fi
  local started=$SECONDS results counts
  results="$(mktemp "${TMPDIR:-/tmp}/node-health-e2e.XXXXXX")"
  bash scripts/e2e.sh --results "$results"
  counts="$(node -e '
    const fs = require("fs");
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const lines = (r.tests || []).filter((t) => t.status === "failed")
      .map((t) => `browser: ${ t.name }: ${ String(t.error || "").split("\n")[0] }`.slice(0, 400));
    const flaky = (r.tests || []).filter((t) => t.flaky)
      .map((t) => `browser, passed only on another try: ${ t.name }: ${ String(t.flaky).split("\n")[0] }`.slice(0, 400));
    fs.appendFileSync(process.argv[2], lines.map((l) => `${ l }\n`).join(""));
    fs.appendFileSync(process.argv[3], flaky.map((l) => `${ l }\n`).join(""));
    console.log(r.passed, r.failed);
  ' "$results" "$failed_tests" "$flaky_tests" 2>/dev/null)" || counts="0 1"
  rm -f "$results"
  read -r e2e_passed e2e_failed <<<"$counts"
  echo "($((SECONDS - started))s)"
  record "$e2e_passed" "$e2e_failed" "browser tests"
}
# <<< Browser tests <<<
run_browser_tests

# ---------------------------------------------------------------------------
section "Summary"
cat "$flaky_tests"
if [ "$failed" -gt 0 ]; then
  echo "Failed: ${failed_steps[*]}"
  cat "$failed_tests"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
