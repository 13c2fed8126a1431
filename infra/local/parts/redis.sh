# shellcheck shell=bash
# redis: Debian's redis-server, append-only file under $DATA/redis, no snapshots.

redis_var() { echo REDIS_URL; }
redis_address() { echo "redis://127.0.0.1:$TT_REDIS_PORT"; }
redis_port() { echo "$TT_REDIS_PORT"; }
redis_take_ports() { take_port TT_REDIS_PORT; }

redis_install() {
  command -v redis-server >/dev/null 2>&1 && return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "redis: installing redis-server from Debian"
    apt-get update -qq >"$STATE/apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >>"$STATE/apt.log" 2>&1 ||
      { cat "$STATE/apt.log" >&2; die "apt-get install redis-server failed"; }
  else
    die "redis-server is not installed; run: sudo apt-get install redis-server"
  fi
}

redis_start() {
  mkdir -p "$DATA/redis"
  launch redis redis-server --bind 127.0.0.1 --port "$TT_REDIS_PORT" --dir "$DATA/redis" \
    --appendonly yes --save '' --daemonize no --protected-mode yes
}

redis_healthy() { [[ $(redis-cli -p "$TT_REDIS_PORT" ping 2>/dev/null) == PONG ]]; }
