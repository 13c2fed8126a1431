# shellcheck shell=bash
# proxy (optional): Debian's nginx with the proxy's configuration (infra/local/proxy) caching the
# API's answers, in front of the API at TT_PROXY_UPSTREAM (the API's default address); its cache
# lives under $DATA/proxy (stack.sh reset empties it).

proxy_var() { echo PROXY_URL; }
proxy_address() { echo "http://127.0.0.1:$TT_PROXY_PORT"; }
proxy_port() { echo "$TT_PROXY_PORT"; }
proxy_take_ports() { take_port TT_PROXY_PORT; }

proxy_install() { bash "$HERE/proxy/ensure-nginx.sh"; }

proxy_start() {
  local conf
  conf=$(bash "$HERE/proxy/render.sh" "$DATA/proxy" "127.0.0.1:$TT_PROXY_PORT" "$TT_PROXY_UPSTREAM")
  launch proxy nginx -e "$DATA/proxy/error.log" -p "$DATA/proxy" -c "$conf"
}

proxy_healthy() { port_open "$TT_PROXY_PORT"; }
