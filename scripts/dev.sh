#!/usr/bin/env bash
# `npm run dev` / `yarn dev`: the Rancher dashboard dev server with this extension built in, on
# https://localhost:8005 (self-signed certificate). The shell proxies its API calls to $API
# (e.g. API=https://rancher.example.com npm run dev). Extra arguments go to vue-cli-service serve.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

# package.json's "dev" runs this script, so it must never start `yarn dev` / `npm run dev` itself
# (directly or through a child); the marker turns such a loop into an immediate error.
if [ -n "${NODE_HEALTH_DEV_SCRIPT:-}" ]; then
  echo "scripts/dev.sh is already running (pid $NODE_HEALTH_DEV_SCRIPT); refusing to start it again from inside itself" >&2
  exit 1
fi
export NODE_HEALTH_DEV_SCRIPT=$$

nh_bootstrap
cd "$NH_ROOT"

# >>> Embedded Rancher API >>>
# With no API given, start the embedded stand-in for Rancher (mock-rancher/) on a loopback port,
# export API=http://127.0.0.1:<port>, and stop it in stop_embedded_rancher.
# Until it exists, the dev server proxies to shell's default API, http://localhost:8989.
start_embedded_rancher_if_no_api() {
  :
}
stop_embedded_rancher() {
  :
}
# <<< Embedded Rancher API <<<

trap stop_embedded_rancher EXIT
start_embedded_rancher_if_no_api

echo "Dev server: https://localhost:8005   API: ${API:-http://localhost:8989 (shell default)}" >&2
# vue-cli-service exits after compiling when a project has a yarn.lock and `yarn` is not on PATH;
# bootstrap put .tools/node_modules/.bin (yarn 1) first on PATH.
NODE_ENV=dev vue-cli-service serve "$@"
