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
# With no API given, start the embedded stand-in for Rancher (mock-rancher/) on a free loopback port,
# export API=http://127.0.0.1:<port>, and stop it in stop_embedded_rancher.
# MOCK_RANCHER_SCENARIOS, MOCK_RANCHER_BUNDLE (a node-health-bundle/v1 file to open as a cluster) and
# MOCK_RANCHER_USER (admin, read-only, no-secrets) pass through to it; see mock-rancher/README.md.
NH_MOCK_PID=""
start_embedded_rancher_if_no_api() {
  if [ -n "${API:-}" ]; then
    return 0
  fi
  local port_file log_file waited=0
  port_file="$(mktemp "${TMPDIR:-/tmp}/node-health-mock-port.XXXXXX")"
  log_file="$(mktemp "${TMPDIR:-/tmp}/node-health-mock-log.XXXXXX")"
  rm -f "$port_file"
  # Its own process group, so that stopping it also stops tsx's child.
  setsid tsx mock-rancher/main.ts --port 0 --port-file "$port_file" >"$log_file" 2>&1 &
  NH_MOCK_PID=$!
  while [ ! -s "$port_file" ]; do
    if ! kill -0 "$NH_MOCK_PID" 2>/dev/null; then
      echo "The embedded Rancher API did not start:" >&2
      cat "$log_file" >&2
      NH_MOCK_PID=""
      return 1
    fi
    if [ "$waited" -ge 120 ]; then
      echo "The embedded Rancher API did not start within 60 s:" >&2
      cat "$log_file" >&2
      return 1
    fi
    sleep 0.5
    waited=$((waited + 1))
  done
  export API="http://127.0.0.1:$(cat "$port_file")"
  rm -f "$port_file"
  grep '^\[mock-rancher\] cluster' "$log_file" >&2 || true
  # From here on its messages (404s and 5xx it answered) go to the terminal.
  tail -n 0 -f "$log_file" --pid "$NH_MOCK_PID" >&2 &
  cat >&2 <<INFO

  Embedded Rancher API on $API (no API was set). Once the dashboard has compiled, open
      https://localhost:8005        (self-signed certificate: accept it in the browser)
  Logged in as admin. Other users: read-only (no write links), no-secrets (secrets answer 403).
  Switch with Log Out and log in as one of them (any password), or start with MOCK_RANCHER_USER=<user>.
  Clusters: see the list above (Cluster Management); big-rke2 has 2,000 nodes.

INFO
}
stop_embedded_rancher() {
  if [ -n "$NH_MOCK_PID" ]; then
    kill -TERM -- "-$NH_MOCK_PID" 2>/dev/null || kill -TERM "$NH_MOCK_PID" 2>/dev/null || true
    NH_MOCK_PID=""
  fi
}
# <<< Embedded Rancher API <<<

trap stop_embedded_rancher EXIT
start_embedded_rancher_if_no_api

echo "Dev server: https://localhost:8005   API: ${API:-http://localhost:8989 (shell default)}" >&2
# vue-cli-service exits after compiling when a project has a yarn.lock and `yarn` is not on PATH;
# bootstrap put .tools/node_modules/.bin (yarn 1) first on PATH.
NODE_ENV=dev vue-cli-service serve "$@"
