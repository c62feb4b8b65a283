#!/usr/bin/env bash
# `yarn e2e`: the browser tests (tests/e2e). Starts the embedded Rancher API and the dashboard dev server
# (one compile for the whole run), drives Debian's Chromium with playwright-core, saves screenshots and
# results.json under test-output/e2e/. Prints "browser tests: N passed, N failed, N skipped".
#   scripts/e2e.sh [--results FILE] [--grep TEXT[|TEXT…]]   (the tests whose names hold any of the texts)
# CHROMIUM_PATH overrides /usr/bin/chromium; as root it is installed with apt-get when missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
nh_bootstrap
cd "$NH_ROOT"

nh_require_chromium e2e
# Screenshots of the 简体中文 state need a CJK font (the tests read the page's text either way).
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1 && command -v fc-list >/dev/null 2>&1 \
  && [ -z "$(fc-list :lang=zh 2>/dev/null | head -1)" ]; then
  echo "[e2e] installing a CJK font for the screenshots (apt-get install fonts-wqy-zenhei)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-zenhei >/dev/null 2>&1 \
    || echo "[e2e] no CJK font: Chinese text shows as boxes in screenshots" >&2
fi
if [ ! -d node_modules/playwright-core ]; then
  echo "[e2e] playwright-core is not installed (it is a devDependency: run yarn install)" >&2
  exit 2
fi

# vue-cli-service needs yarn 1 on PATH (bootstrap put .tools first); the dev server must not reuse
# a developer's API setting.
unset API
exec tsx tests/e2e/run.ts "$@"
