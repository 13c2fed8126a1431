#!/usr/bin/env bash
# Debian's Chromium for the dashboard's browser test (services/api/test/browser), which drives
# it through playwright-core; no browser is ever downloaded from anywhere but apt. Idempotent and
# quiet: when the binary is there it does nothing; otherwise it installs `chromium` (and a font
# family, so screenshots have text) with apt-get, printing only on failure.
# CHROMIUM_PATH overrides the binary the test launches (default /usr/bin/chromium).
set -euo pipefail

chromium_path=${CHROMIUM_PATH:-/usr/bin/chromium}
[[ -x $chromium_path ]] && exit 0

fail() {
  echo "ensure-chromium: $*" >&2
  exit 1
}

if [[ $chromium_path != /usr/bin/chromium ]]; then
  fail "CHROMIUM_PATH=$chromium_path is not an executable; install Chromium there or unset it"
fi
command -v apt-get >/dev/null || fail "$chromium_path is missing and apt-get is not available"

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || fail "$chromium_path is missing; installing it needs root (or sudo)"
  sudo=(sudo -n)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
# A clean machine may have no package lists yet: refresh them only when apt knows no chromium.
if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  "${sudo[@]}" apt-get update -qq >"$log" 2>&1 || {
    cat "$log" >&2
    fail 'apt-get update failed'
  }
fi
"${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-liberation \
  >"$log" 2>&1 || {
  cat "$log" >&2
  fail 'apt-get install chromium failed'
}
[[ -x $chromium_path ]] || fail "apt-get installed chromium but $chromium_path is still missing"
