#!/usr/bin/env bash
# ensure-debian.sh PACKAGE DAEMON COMMAND…: installs Debian's PACKAGE with apt-get when one of the
# COMMANDs is missing, for the local stack's optional parts and the tests that drive them. Quiet
# and idempotent: nothing happens when every command is there, and only a failure prints. The
# package's own service is not wanted (the stack starts the program with its own configuration):
# a DAEMON process the install started is stopped.
set -euo pipefail
(($# >= 3)) || { echo "usage: ensure-debian.sh PACKAGE DAEMON COMMAND…" >&2; exit 2; }
package=$1 daemon=$2
shift 2

missing=0
for command in "$@"; do command -v "$command" >/dev/null || missing=1; done
((missing)) || exit 0
fail() {
  echo "ensure-debian ($package): $*" >&2
  exit 1
}
command -v apt-get >/dev/null || fail "$* missing and apt-get is not available"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || fail "$* missing; installing $package needs root (or sudo)"
  sudo=(sudo -n)
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
running_before=$(pgrep -x "$daemon" || true)
# A clean machine may have no package lists yet: on failure, refresh them once and try again.
"${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 "$package" >"$log" 2>&1 ||
  { "${sudo[@]}" apt-get update -qq >>"$log" 2>&1 &&
    "${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 "$package" >>"$log" 2>&1; } ||
  { cat "$log" >&2; fail "apt-get install $package failed"; }
for pid in $(pgrep -x "$daemon" || true); do
  [[ " $running_before " == *" $pid "* ]] || "${sudo[@]}" kill "$pid" 2>/dev/null || true
done
for command in "$@"; do
  command -v "$command" >/dev/null || fail "the $package package did not install $command"
done
