#!/usr/bin/env bash
# `yarn -s e2e:perf`: the 2,000-node cluster in one browser session; prints
#   ui-perf nodes=2000 node_health_ms=<median> machines_tab_ms=<median> ratio=<node_health/machines_tab>
# on stdout (progress on stderr). Same set-up as scripts/e2e.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"
nh_require_chromium e2e:perf
unset API
exec tsx tests/e2e/perf.ts "$@"
