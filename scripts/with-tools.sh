#!/usr/bin/env bash
# Runs one command (tsc, tsx, ...) after bootstrapping, with the project's tools first on PATH.
# Lets `npm run <script>` work on a machine that has never installed anything.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"
exec "$@"
