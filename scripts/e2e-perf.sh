#!/usr/bin/env bash
# `yarn -s e2e:perf`: the 2,000- and 10,000-node clusters, one browser session per run; prints (see tests/e2e/perf.ts)
#   ui-perf nodes=<n> node_health_ms=… machines_tab_ms=… ratio=… bytes=… verdicts_ms=…,
#   ui-open nodes=<n> first_rows_ms=… machines_tab_ms=… ratio=… blocked_open_ms=… heap_mb=… heap_machines_tab_mb=… heap_after_tries_mb=… bytes=… verdicts_ms=… and
#   ui-refresh nodes=<n> blocked_ms=… blocked_changed_ms=… spikes_max_ms=… bytes_changed=… bytes_unchanged=…
# on stdout (progress on stderr). Same set-up as scripts/e2e.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"
nh_require_chromium e2e:perf
unset API
exec tsx tests/e2e/perf.ts "$@"
