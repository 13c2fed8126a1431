#!/usr/bin/env bash
# A newcomer's first run, repeated on purpose: README's first command (scripts/demo.sh) in a
# fresh clone of this repository's HEAD, with an empty HOME — so empty corepack, npm, pnpm and
# Maven caches, and no pnpm but the one the setup installs — none of this checkout's .stack/, its
# own free ports for the stack and the demo's workers, and an environment holding only what a
# machine of this kind has (PATH without this checkout's tools, proxy, CA and pip settings).
# A step that only a warm machine has fails here instead of on the newcomer's machine.
#
# Exit 0 only when the demo exits 0, its ground-truth check reports 0 differences, and nothing it
# printed or logged (the workers' and load generators' logs included) is an error-level line.
# The demo's output is kept in .out/first-run.log; FIRST_RUN_KEEP=1 also keeps the clone.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$root/.out
mkdir -p "$out"
log=$out/first-run.log
work=$(mktemp -d "${TMPDIR:-/tmp}/tickertape-first-run.XXXXXX")

say() { printf '[first-run] %s\n' "$*" >&2; }

# 10000-15999: below Linux's ephemeral range (32768+), where a client's outgoing connection can
# take a port between choosing it and the worker binding it (seen: EADDRINUSE), and clear of
# the stack's default ports (16379 and up) and of the free ones stack.sh picks (20000-29999).
free_port() {
  local port
  while :; do
    port=$((10000 + RANDOM % 6000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
  done
  echo "$port"
}

# Machine settings a fresh machine of this kind has in HOME (registries, certificates): copied.
# Caches and tools: not.
mkdir -p "$work/home"
for file in .npmrc .m2/settings.xml .config/pip/pip.conf .pip/pip.conf; do
  if [[ -f $HOME/$file ]]; then
    mkdir -p "$(dirname "$work/home/$file")"
    cp "$HOME/$file" "$work/home/$file"
  fi
done

# PATH as the machine has it: without the pnpm bootstrap.sh installed into this checkout, without
# node_modules/.bin directories that `pnpm exec` adds.
clean_path=
IFS=: read -r -a entries <<<"$PATH"
for entry in "${entries[@]}"; do
  [[ -z $entry || $entry == *"/.stack/"* || $entry == *node_modules* ]] && continue
  clean_path=${clean_path:+$clean_path:}$entry
done
passed=(HOME="$work/home" PATH="$clean_path" LANG=C.UTF-8 TMPDIR="$work/tmp")
while IFS='=' read -r name _; do
  case $name in
    http_proxy | https_proxy | no_proxy | HTTP_PROXY | HTTPS_PROXY | NO_PROXY | SSL_CERT_FILE | \
      NODE_EXTRA_CA_CERTS | PIP_*) passed+=("$name=${!name}") ;;
  esac
done < <(env)
mkdir -p "$work/tmp"

cleanup() {
  local status=$?
  if [[ -d $work/repo ]]; then
    (cd "$work/repo" && env -i "${passed[@]}" bash infra/local/stack.sh down >/dev/null 2>&1) || true
  fi
  if [[ ${FIRST_RUN_KEEP:-0} == 1 ]]; then say "kept $work"; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$root" "$work/repo"
say "fresh clone of $(git -C "$work/repo" rev-parse --short HEAD) in $work/repo, HOME=$work/home; running scripts/demo.sh"
demo_ports="$(free_port) $(free_port) $(free_port) $(free_port)"
status=0
(cd "$work/repo" && env -i "${passed[@]}" TT_PORTS=auto DEMO_PORTS="$demo_ports" \
  DEMO_DURATION="${FIRST_RUN_DURATION:-10s}" bash scripts/demo.sh) >"$log" 2>&1 || status=$?

if ((status != 0)); then
  tail -n 40 "$log" >&2
  say "FAILED: scripts/demo.sh exited $status on its first run (whole output: ${log#"$root"/})"
  exit 1
fi
if ! grep -q '^0 differences' "$log"; then
  tail -n 40 "$log" >&2
  say "FAILED: the demo's ground-truth check did not report 0 differences (${log#"$root"/})"
  exit 1
fi
# pino writes JSON with "level":"error" (or numeric 50/60); the CLI's human lines say ERROR/FATAL.
error_lines='"level":("error"|"fatal"|50|60)[,}]|(^|[] ])(ERROR|FATAL)[ :(]'
found=$(grep -E -H "$error_lines" "$log" "$work/repo/.stack/logs"/{rollup,loadgen}-*.log 2>/dev/null || true)
if [[ -n $found ]]; then
  printf '%s\n' "$found" | cut -c1-400 >&2
  say "FAILED: error-level lines in the demo's output or logs on a healthy stack"
  exit 1
fi
say "passed: demo exit 0, 0 differences, no error-level line (output: ${log#"$root"/})"
