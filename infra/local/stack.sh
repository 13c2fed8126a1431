#!/usr/bin/env bash
# The local stack without Docker: Apache Kafka (KRaft), Apicurio Registry (Confluent-compatible
# API), mongo-java-server (MongoDB wire protocol, H2 file backend) and Redis, each installed
# from Maven Central or Debian and run as a plain process. Downloads, data, logs and pid files
# live under .stack/ (git-ignored).
#
#   stack.sh up [part…]     install what is missing, start, wait until healthy (idempotent);
#                           without parts: the four below, not the optional prometheus
#   stack.sh down           stop every part this script started; no process or port left
#   stack.sh restart part…  stop those parts (SIGTERM, as a deploy would) and start them again,
#                           data kept; the fault suite uses it
#   stack.sh kill part…     SIGKILL those parts (a crash); `up` starts them again on their data
#   stack.sh pid part       the pids of a part's processes, one per line (to SIGSTOP one)
#   stack.sh controller     the node id of the Kafka cluster's active controller
#   stack.sh status         say which part is up, down or external, and where
#   stack.sh reset          down, then delete data and logs (downloads are kept)
#   stack.sh logs [part]    last lines of a part's log (all parts without an argument)
#   stack.sh install        download everything, start nothing (CI warms its cache with it)
#   stack.sh env            print the four addresses (and the local SASL listener) as exports
#   stack.sh exec -- CMD…   run CMD with those in its environment
#
# Parts: kafka, registry, mongo, redis, and the optional prometheus (Debian's package: scrapes the
# targets tests and developers drop into .stack/prometheus/targets/*.json, loads the rules in
# .stack/prometheus/rules/*.yml; POST /-/reload after changing them), ferretdb (a second database
# for tests), proxy (Debian's nginx caching the API's answers: infra/local/proxy, in front of
# TT_PROXY_UPSTREAM, the API's default address) and toxiproxy (built from the Go module proxy:
# network faults between the fault suite's processes and the stack). With TT_KAFKA_BROKERS=3,
# kafka is a KRaft cluster of three brokers; kafka-1, kafka-2, kafka-3 name one of them (restart,
# kill, pid, up). When KAFKA_BROKERS, SCHEMA_REGISTRY_URL, MONGODB_URI, REDIS_URL or PROMETHEUS_URL
# is set to anything but the local address, that part is external: the script uses it and does
# not start it.
#
# Each part is a file, parts/<part>.sh, defining functions <part>_<hook>, each given the name the
# caller used (kafka-2 too) first: var (the variable that holds its address), address (its local
# address), port (the port it answers on), take_ports (its ports under TT_PORTS=auto), install,
# start and healthy; and where the default does not fit: ports (every port it listens on), units
# (its processes, default the part itself), units_noun, stop_units, rows and row_address (its
# status rows), before_up (refusals before up), status_note, env (more variables for env and exec).
# common.sh holds what the parts share: pid files, launching, stopping, waiting and ports.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
STATE=${TT_STACK_DIR:-$ROOT/.stack}
# Ports this checkout's stack moved to (see choose_ports); below a variable set by the caller,
# above stack.env's defaults.
PORTS_FILE=$STATE/ports.env
# shellcheck disable=SC1090
[[ -f $PORTS_FILE ]] && source "$PORTS_FILE"
# Whether the caller chose the database (TT_MONGO) or stack.env's default does.
TT_MONGO_CHOSEN=${TT_MONGO:-}
# A stack that ran FerretDB keeps running it (restart, later ups) until TT_MONGO says otherwise.
if [[ -z $TT_MONGO_CHOSEN && -f $STATE/run/mongo.kind ]]; then TT_MONGO=$(<"$STATE/run/mongo.kind"); fi
# Likewise a stack that runs a Kafka cluster keeps running one.
TT_KAFKA_BROKERS_CHOSEN=${TT_KAFKA_BROKERS:-}
if [[ -z $TT_KAFKA_BROKERS_CHOSEN && -f $STATE/run/kafka.brokers ]]; then TT_KAFKA_BROKERS=$(<"$STATE/run/kafka.brokers"); fi
# shellcheck source-path=SCRIPTDIR source=stack.env
source "$HERE/stack.env"

# Downloads and builds; a second stack (TT_STACK_DIR, e.g. the fault suite's cluster) may share the first's.
LIB=${TT_STACK_LIB:-$STATE/lib}
DATA=$STATE/data
LOGS=$STATE/logs
RUN=$STATE/run
CONF=$STATE/conf
START_TIMEOUT_S=${TT_START_TIMEOUT_S:-180}
STOP_TIMEOUT_S=${TT_STOP_TIMEOUT_S:-30}

PARTS=(kafka registry mongo redis)
# Started only when named: most runs need no Prometheus.
OPTIONAL_PARTS=(prometheus ferretdb proxy toxiproxy)
ALL_PARTS=("${PARTS[@]}" "${OPTIONAL_PARTS[@]}")

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$HERE/common.sh"
for part in "${ALL_PARTS[@]}"; do
  # shellcheck disable=SC1090
  source "$HERE/parts/$part.sh"
done
unset part

# --- parts --------------------------------------------------------------------------------------

# The part a name belongs to, in PART (no subshell: a status runs this often): the name itself,
# or for kafka-N (a part of several processes) kafka.
part_of() {
  PART=$1
  [[ $PART == *-[0-9] ]] && declare -F "${PART%-[0-9]}_units" >/dev/null && PART=${PART%-[0-9]}
  [[ " ${ALL_PARTS[*]} " == *" $PART "* ]] || die "unknown part '$1' (parts: ${ALL_PARTS[*]})"
}
# part_hook NAME HOOK [ARGS…]: the part's function for HOOK, given NAME first.
part_hook() {
  local name=$1 hook=$2
  shift 2
  part_of "$name"
  "${PART}_$hook" "$name" "$@"
}
has_hook() {
  part_of "$1"
  declare -F "${PART}_$2" >/dev/null
}
# part_hook, or when the part has no such function, the default.
hook_or() {
  if has_hook "$1" "$2"; then part_hook "$1" "$2"; else "${@:3}"; fi
}

# Dies (in this shell, not a subshell of a caller) on a name that is no part, or a broker the
# stack does not run.
check_parts() {
  local part
  for part in "$@"; do
    part_of "$part"
    units "$part" >/dev/null
  done
}

units() { hook_or "$1" units echo "$1"; }
stop_units() { hook_or "$1" stop_units units "$1"; }
env_var() { part_hook "$1" var; }
local_address() { part_hook "$1" address; }
local_port() { part_hook "$1" port; }
part_ports() { hook_or "$1" ports local_port "$1"; }

is_external() {
  local var value
  var=$(env_var "$1")
  value=${!var:-}
  [[ -n $value && $value != "$(local_address "$1")" ]]
}

address() {
  local var
  var=$(env_var "$1")
  if is_external "$1"; then echo "${!var}"; else local_address "$1"; fi
}

# A status row's address: one broker's own for kafka-N.
row_address() { hook_or "$1" row_address address "$1"; }

install_part() {
  mkdir -p "$STATE" "$LIB"
  part_hook "$1" install
}

# The optional parts' addresses, only while they run (or are external).
optional_running() {
  local part
  for part in "${OPTIONAL_PARTS[@]}"; do
    if is_external "$part" || pid_of "$part" >/dev/null; then echo "$part"; fi
  done
}

# The variables env and exec set: each part's address, then the parts' own (NAME=value lines).
stack_vars() {
  local part
  for part in "${PARTS[@]}" $(optional_running); do echo "$(env_var "$part")=$(address "$part")"; done
  for part in "${ALL_PARTS[@]}"; do
    if has_hook "$part" env; then part_hook "$part" env; fi
  done
}

# --- commands -----------------------------------------------------------------------------------

cmd_up() {
  local parts=("$@") part pid to_wait=() began=$SECONDS
  ((${#parts[@]})) || parts=("${PARTS[@]}")
  check_parts "${parts[@]}"
  require java "apt-get install openjdk-17-jre-headless"
  require curl "apt-get install curl"
  choose_ports
  for part in "${parts[@]}"; do
    if is_external "$part"; then
      say "$part: external at $(address "$part"), not started"
      continue
    fi
    install_part "$part"
    if has_hook "$part" before_up; then part_hook "$part" before_up; fi
    if ! part_running "$part" && part_any_running "$part"; then
      # Some processes of a part run (a cluster's broker was killed or stopped): start the others.
      say "$part: starting the $(hook_or "$part" units_noun echo processes) that are down"
      part_hook "$part" start
    elif part_running "$part"; then
      pid=$(pid_of "$(units "$part" | head -n 1)")
      say "$part: already running (pid $pid)"
    else
      port_open "$(local_port "$part")" &&
        die "$part: port $(local_port "$part") is taken by another process; stop it or set TT_${part^^}_PORT"
      say "$part: starting"
      part_hook "$part" start
    fi
    to_wait+=("$part")
  done
  for part in "${to_wait[@]}"; do
    wait_healthy "$part" "$began"
    say "$part: up at $(row_address "$part")"
  done
  say "stack up (${SECONDS}s since this command started, $((SECONDS - began))s of them starting)"
}

cmd_down() {
  local part
  for part in "${ALL_PARTS[@]}"; do stop_part "$part"; done
  local strays
  strays=$(strays || true)
  if [[ -n $strays ]]; then
    say "stopping stray processes: $strays"
    # shellcheck disable=SC2086
    kill -TERM $strays 2>/dev/null || true
    sleep 2
    # shellcheck disable=SC2086
    kill -KILL $strays 2>/dev/null || true
  fi
  for part in "${PARTS[@]}"; do
    is_external "$part" && continue
    if port_open "$(local_port "$part")"; then
      say "warning: port $(local_port "$part") ($part) is still open, held by a process this script did not start"
    fi
  done
  say "stack down"
}

cmd_restart() {
  (($#)) || die "restart needs the parts to restart (${PARTS[*]})"
  check_parts "$@"
  local part
  for part in "$@"; do
    is_external "$part" && die "$part is external ($(address "$part")): this script cannot restart it"
    stop_part "$part"
  done
  cmd_up "$@"
}

# SIGKILL, as a crash: no shutdown at all. `up` starts the part again on its data.
cmd_kill() {
  (($#)) || die "kill needs the parts to kill"
  check_parts "$@"
  local part
  for part in "$@"; do
    is_external "$part" && die "$part is external ($(address "$part")): this script cannot kill it"
    kill_part "$part"
  done
}

cmd_pid() {
  (($# == 1)) || die "usage: stack.sh pid PART"
  check_parts "$1"
  local unit found=1
  for unit in $(units "$1"); do pid_of "$unit" && found=0; done
  return $found
}

cmd_status() {
  local part row pid all_up=0 rows=()
  for part in "${ALL_PARTS[@]}"; do
    while read -r row; do rows+=("$row"); done < <(hook_or "$part" rows echo "$part")
  done
  for row in "${rows[@]}"; do
    # An optional part that is not running is not a stack that is down.
    if [[ " ${OPTIONAL_PARTS[*]} " == *" $row "* ]] && ! is_external "$row" && ! pid_of "$row" >/dev/null; then
      printf '%-10s off       (optional: stack.sh up %s)\n' "$row" "$row"
      continue
    fi
    if is_external "$row"; then
      printf '%-10s external  %s\n' "$row" "$(address "$row")"
    elif pid=$(pid_of "$(units "$row")") && part_hook "$row" healthy; then
      printf '%-10s up        %s (pid %s)%s\n' "$row" "$(row_address "$row")" "$pid" \
        "$(hook_or "$row" status_note true)"
    elif pid=$(pid_of "$(units "$row")"); then
      printf '%-10s starting  %s (pid %s)\n' "$row" "$(row_address "$row")" "$pid"
      all_up=1
    else
      printf '%-10s down\n' "$row"
      all_up=1
    fi
  done
  return $all_up
}

cmd_logs() {
  local parts=("$@") part unit
  ((${#parts[@]})) || parts=("${PARTS[@]}")
  check_parts "${parts[@]}"
  for part in "${parts[@]}"; do
    for unit in $(units "$part"); do
      printf '==> %s (%s) <==\n' "$unit" "$LOGS/$unit.log"
      tail -n "${TT_LOG_LINES:-50}" "$LOGS/$unit.log" 2>/dev/null || echo "(no log yet)"
    done
  done
}

cmd_reset() {
  cmd_down
  rm -rf "$DATA" "$LOGS" "$CONF" "$PORTS_FILE" "$RUN/mongo.kind" "$RUN/kafka.brokers"
  say "data, logs and chosen ports deleted"
}

cmd_install() {
  local part
  for part in "${PARTS[@]}"; do is_external "$part" || install_part "$part"; done
}

cmd_env() {
  local line
  while read -r line; do printf 'export %s=%q\n' "${line%%=*}" "${line#*=}"; done < <(stack_vars)
}

cmd_exec() {
  [[ ${1:-} == -- ]] && shift
  (($#)) || die "usage: stack.sh exec -- COMMAND [ARGS…]"
  local line
  while read -r line; do export "${line?}"; done < <(stack_vars)
  # Which database MONGODB_URI reaches (the soak reads it).
  export TT_MONGO
  exec "$@"
}

main() {
  local cmd=${1:-}
  shift || true
  case $cmd in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    restart) cmd_restart "$@" ;;
    kill) cmd_kill "$@" ;;
    pid) cmd_pid "$@" ;;
    controller) kafka_controller ;;
    status) cmd_status ;;
    reset) cmd_reset ;;
    logs) cmd_logs "$@" ;;
    install) cmd_install ;;
    env) cmd_env ;;
    exec) cmd_exec "$@" ;;
    *) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; [[ -z $cmd || $cmd == help ]] || exit 2 ;;
  esac
}

main "$@"
