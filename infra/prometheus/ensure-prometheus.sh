#!/usr/bin/env bash
# Debian's prometheus package (prometheus and promtool) for the alert rules' unit tests and the
# local stack's optional Prometheus. Idempotent and quiet: nothing happens when promtool is
# there. The package's own service is not wanted (the stack starts Prometheus with its own
# configuration): without systemd nothing starts it, and a daemon the install started anyway is
# stopped.
set -euo pipefail

command -v promtool >/dev/null && command -v prometheus >/dev/null && exit 0
fail() {
  echo "ensure-prometheus: $*" >&2
  exit 1
}
command -v apt-get >/dev/null || fail "promtool is missing and apt-get is not available"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || fail "promtool is missing; installing it needs root (or sudo)"
  sudo=(sudo -n)
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
running_before=$(pgrep -x prometheus || true)
"${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 prometheus >"$log" 2>&1 ||
  { "${sudo[@]}" apt-get update -qq >>"$log" 2>&1 &&
    "${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 prometheus >>"$log" 2>&1; } ||
  { cat "$log" >&2; fail "apt-get install prometheus failed"; }
for pid in $(pgrep -x prometheus || true); do
  [[ " $running_before " == *" $pid "* ]] || "${sudo[@]}" kill "$pid" 2>/dev/null || true
done
command -v promtool >/dev/null || fail "the prometheus package did not install promtool"
