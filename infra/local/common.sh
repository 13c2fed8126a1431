# shellcheck shell=bash
# What every part of the local stack shares (sourced by stack.sh, which sets the paths: $STATE,
# $LIB, $DATA, $LOGS, $RUN, $CONF, $PORTS_FILE): messages, installs, pid files, starting and
# stopping processes, waiting for health, and choosing ports.

say() { printf '[stack] %s\n' "$*" >&2; }
die() { printf '[stack] error: %s\n' "$*" >&2; exit 1; }

require() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is not installed ($2)"
}

mvn_quiet() { mvn -q -B -ntp "$@" >"$STATE/mvn.log" 2>&1 || { cat "$STATE/mvn.log" >&2; die "maven failed: $*"; }; }

# --- processes ----------------------------------------------------------------------------------

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pid_of() {
  local file=$RUN/$1.pid pid
  [[ -f $file ]] || return 1
  pid=$(<"$file")
  # A killed part can linger as a zombie until its reaper gets to it: that is not running.
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' "/proc/$pid/status"; then
    echo "$pid"
  else
    return 1
  fi
}

# Starts a command in its own session so it outlives this script and the shell that ran it;
# the pid file holds the pid of the exec'd program itself.
launch() {
  local unit=$1
  shift
  mkdir -p "$RUN" "$LOGS"
  [[ -f $LOGS/$unit.log ]] && mv -f "$LOGS/$unit.log" "$LOGS/$unit.log.1"
  # A killed part leaves its pid file: read before the new process writes its own, it would name
  # the dead one and the start would be reported as failed.
  rm -f "$RUN/$unit.pid"
  # shellcheck disable=SC2016 # $$ and $@ belong to the inner shell
  setsid bash -c 'echo $$ > "$0"; exec "$@"' "$RUN/$unit.pid" "$@" \
    >"$LOGS/$unit.log" 2>&1 </dev/null &
  # setsid may fork; wait until the pid file names the real process.
  local i
  for i in $(seq 1 50); do
    [[ -s $RUN/$unit.pid ]] && return 0
    sleep 0.1
  done
  die "$unit did not start (no pid file)"
}

# Whether every process of a part runs, and whether any does.
part_running() {
  local unit
  for unit in $(units "$1"); do pid_of "$unit" >/dev/null || return 1; done
}
part_any_running() {
  local unit
  for unit in $(units "$1"); do pid_of "$unit" >/dev/null && return 0; done
  return 1
}

# Stragglers whose pid file was lost (e.g. a deleted .stack/run): every process we start names a
# file of its own under $DATA or $CONF (not $LIB: a second stack, TT_STACK_DIR, may share it).
strays() { pgrep -f -- "$DATA/|$CONF/"; }

wait_healthy() {
  local part=$1 started=$2 unit
  while ! part_hook "$part" healthy; do
    for unit in $(units "$part"); do
      if ! pid_of "$unit" >/dev/null; then
        tail -n 40 "$LOGS/$unit.log" >&2 || true
        die "$unit exited during start (log: $LOGS/$unit.log)"
      fi
    done
    if ((SECONDS - started > START_TIMEOUT_S)); then
      tail -n 40 "$LOGS/$part.log" >&2 || true
      die "$part not healthy after ${START_TIMEOUT_S}s (log: $LOGS/$part.log)"
    fi
    sleep 0.5
  done
}

# SIGTERM to every process of the part at once (a cluster's brokers shut down together, so none
# waits on a controller quorum that is leaving), then SIGKILL to any still up after the timeout.
stop_part() {
  local part=$1 unit pid pids=() units_up=()
  for unit in $(stop_units "$part"); do
    if pid=$(pid_of "$unit"); then
      say "$unit: stopping (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
      units_up+=("$unit")
    fi
  done
  local waited=0 i
  for i in "${!pids[@]}"; do
    while kill -0 "${pids[$i]}" 2>/dev/null; do
      if ((waited >= STOP_TIMEOUT_S * 10)); then
        say "${units_up[$i]}: did not stop in ${STOP_TIMEOUT_S}s, killing"
        kill -KILL "${pids[$i]}" 2>/dev/null || true
        break
      fi
      sleep 0.1
      waited=$((waited + 1))
    done
  done
  for unit in $(stop_units "$part"); do rm -f "$RUN/$unit.pid"; done
}

# SIGKILL, as a crash: no shutdown at all; returns once the process is gone (or a zombie).
kill_part() {
  local unit pid
  for unit in $(units "$1"); do
    if pid=$(pid_of "$unit"); then
      say "$unit: killing (pid $pid)"
      kill -KILL "$pid" 2>/dev/null || true
      while kill -0 "$pid" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' "/proc/$pid/status"; do sleep 0.05; done
    fi
  done
}

# --- ports --------------------------------------------------------------------------------------

# A second checkout, or CI on a machine where a developer's stack runs, must not fight over the
# default ports. With TT_PORTS=auto (what .ci/run sets) a stack that is not running takes free
# ports; by default it keeps the fixed ones unless another process holds one of them. Either way
# the choice is written to .stack/ports.env, so env/exec/status/restart and later `up`s of this
# checkout keep using it, until `reset`.
port_taken() {
  local part port
  for part in "${PARTS[@]}"; do
    is_external "$part" && continue
    for port in $(part_ports "$part"); do port_open "$port" && return 0; done
  done
  return 1
}

any_running() {
  local part
  for part in "${PARTS[@]}"; do part_any_running "$part" && return 0; done
  return 1
}

# take_port VAR [WIDTH]: sets VAR to a free port, or with a width to the first of that many free
# ports in a row (aligned to ten), none taken by an earlier call of this choice. Each part's
# take_ports calls it (or set_port, for a port derived from another) for its port variables.
take_port() {
  local var=$1 width=${2:-1} port i clear
  while :; do
    port=$((20000 + RANDOM % 10000))
    ((width > 1)) && port=$((port / 10 * 10))
    clear=1
    for ((i = port; i < port + width; i++)); do
      if port_open "$i" || [[ " ${taken_ports[*]} " == *" $i "* ]]; then clear=0 && break; fi
    done
    ((clear)) && break
  done
  for ((i = port; i < port + width; i++)); do taken_ports+=("$i"); done
  set_port "$var" "$port"
}
set_port() {
  printf -v "$1" '%s' "$2"
  chosen_vars+=("$1")
}

choose_ports() {
  [[ -f $PORTS_FILE ]] && return 0
  any_running && return 0
  case ${TT_PORTS:-fixed} in
    auto) ;;
    fixed) port_taken || return 0 ;;
    *) die "TT_PORTS=${TT_PORTS} is not 'fixed' or 'auto'" ;;
  esac
  # Processes of this checkout's stack without pid files would hold the ports themselves.
  strays >/dev/null && die "processes of this checkout's stack run without pid files; run: stack.sh down"
  local part var taken_ports=() chosen_vars=() where=""
  for part in "${ALL_PARTS[@]}"; do part_hook "$part" take_ports; done
  mkdir -p "$STATE"
  {
    echo "# Written by stack.sh up: this checkout's stack ports (deleted by stack.sh reset)."
    for var in "${chosen_vars[@]}"; do echo ": \"\${$var:=${!var}}\""; done
  } >"$PORTS_FILE"
  for part in "${PARTS[@]}"; do where+="${where:+, }$part $(local_port "$part")"; done
  local why="TT_PORTS=auto"
  [[ ${TT_PORTS:-fixed} == auto ]] || why="another process holds a default port"
  say "ports: $why, so this checkout's stack takes free ones: $where (kept in ${PORTS_FILE#"$ROOT"/})"
}
