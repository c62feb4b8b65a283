#!/usr/bin/env bash
# Brings a fresh machine (Node 20 + npm, nothing else) to a working tree:
#   1. yarn 1 (what Rancher's extension scripts and dev server expect) installed privately into .tools/
#   2. node_modules installed from yarn.lock, again only when the lock file or package.json changed
#      since the last successful install (fingerprint stamp inside node_modules).
# Other scripts source this file and call nh_bootstrap; running it directly does the same.
# Messages go to stderr so that commands run after it (the CLI, the bench) keep a clean stdout.

NH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NH_TOOLS="$NH_ROOT/.tools"
NH_YARN_VERSION="1.22.22"
NH_INSTALL_STAMP="$NH_ROOT/node_modules/.node-health-install-stamp"

nh_log() {
  echo "[bootstrap] $*" >&2
}

nh_use_tools_path() {
  # .tools first: shell's dependencies also drop an older yarn into node_modules/.bin.
  case ":$PATH:" in
    *":$NH_TOOLS/node_modules/.bin:"*) ;;
    *) PATH="$NH_TOOLS/node_modules/.bin:$NH_ROOT/node_modules/.bin:$PATH" ;;
  esac
  export PATH
}

nh_ensure_yarn() {
  local yarn_bin="$NH_TOOLS/node_modules/.bin/yarn"

  if [ -x "$yarn_bin" ] && [ "$("$yarn_bin" --version 2>/dev/null)" = "$NH_YARN_VERSION" ]; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    nh_log "npm not found: install Node.js 20 (it ships npm) and retry"
    return 1
  fi
  nh_log "installing yarn $NH_YARN_VERSION into .tools/"
  mkdir -p "$NH_TOOLS"
  npm install --prefix "$NH_TOOLS" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "yarn@$NH_YARN_VERSION" >&2 || return 1
  [ "$("$yarn_bin" --version 2>/dev/null)" = "$NH_YARN_VERSION" ]
}

nh_install_fingerprint() {
  # The Node major is part of it because a few dependencies build native code at install time.
  {
    cat "$NH_ROOT/package.json" "$NH_ROOT/yarn.lock" 2>/dev/null
    node -p 'process.versions.node.split(".")[0]'
  } | sha256sum | cut -d' ' -f1
}

nh_ensure_node_modules() {
  local wanted
  wanted="$(nh_install_fingerprint)"

  if [ -d "$NH_ROOT/node_modules" ] && [ -f "$NH_INSTALL_STAMP" ] && [ "$(cat "$NH_INSTALL_STAMP")" = "$wanted" ]; then
    return 0
  fi

  local frozen="--frozen-lockfile"
  # Only the very first install of a new dependency set has no lock file to honour.
  [ -f "$NH_ROOT/yarn.lock" ] || frozen=""

  nh_log "installing dependencies with yarn $frozen (a cold install takes a few minutes)"
  local started=$SECONDS
  # Cypress (pulled in by @rancher/shell) would download its browser binary from outside the registry.
  if ! (cd "$NH_ROOT" && CYPRESS_INSTALL_BINARY=0 yarn install $frozen --non-interactive --network-timeout 600000 >&2); then
    nh_log "yarn install failed"
    return 1
  fi
  nh_install_fingerprint >"$NH_INSTALL_STAMP"
  nh_log "dependencies ready in $((SECONDS - started))s"
}

nh_bootstrap() {
  if ! command -v node >/dev/null 2>&1; then
    nh_log "node not found: install Node.js 20"
    return 1
  fi
  nh_use_tools_path
  mkdir -p "$NH_TOOLS"
  # Serialise concurrent bootstraps (e.g. `npm test` and `npm run dev` started together).
  if command -v flock >/dev/null 2>&1; then
    (
      flock 9
      nh_ensure_yarn && nh_ensure_node_modules
    ) 9>"$NH_TOOLS/.bootstrap.lock"
  else
    nh_ensure_yarn && nh_ensure_node_modules
  fi
}

# The browser tests' Chromium: Debian's package, installed with apt-get when running as root; sets
# chromium_path, or stops with how to get it. $1 labels the messages.
nh_require_chromium() {
  chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
  if [ ! -x "$chromium_path" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "[$1] installing chromium (apt-get)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if [ ! -x "$chromium_path" ]; then
    echo "[$1] $chromium_path not found: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH" >&2
    exit 2
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  nh_bootstrap
fi
