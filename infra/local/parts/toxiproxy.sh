# shellcheck shell=bash
# toxiproxy (optional): Toxiproxy's server, built from the Go module proxy (seconds; no release
# download is reachable), with one proxy per broker (to its FAULTY listener, whose advertised port
# is the proxy's) and one each to MongoDB, Redis and the registry at TT_TOXIPROXY_PORT + 1, 2, 3:
# the network faults between the fault suite's processes and the stack, by the names its toxics use.

TOXIPROXY_LIB=$LIB/toxiproxy-${TT_TOXIPROXY_VERSION#v}

toxiproxy_var() { echo TOXIPROXY_URL; }
toxiproxy_address() { echo "http://127.0.0.1:$TT_TOXIPROXY_PORT"; }
toxiproxy_port() { echo "$TT_TOXIPROXY_PORT"; }
# Its API and its proxies to MongoDB, Redis and the registry.
toxiproxy_take_ports() { take_port TT_TOXIPROXY_PORT 4; }

toxiproxy_install() {
  [[ -x $TOXIPROXY_LIB/toxiproxy-server && -f $TOXIPROXY_LIB/.complete ]] && return 0
  require go "apt-get install golang-go"
  say "toxiproxy: building github.com/Shopify/toxiproxy/v2/cmd/server@$TT_TOXIPROXY_VERSION from the Go module proxy"
  mkdir -p "$TOXIPROXY_LIB"
  local build
  build=$(mktemp -d "${TMPDIR:-/tmp}/toxiproxy-build.XXXXXX")
  (cd "$build" && GOBIN=$build CGO_ENABLED=0 GOFLAGS=-mod=mod go install -trimpath \
    "github.com/Shopify/toxiproxy/v2/cmd/server@$TT_TOXIPROXY_VERSION") >"$STATE/go.log" 2>&1 ||
    { cat "$STATE/go.log" >&2; rm -rf "$build"; die "building toxiproxy failed"; }
  mv "$build/server" "$TOXIPROXY_LIB/toxiproxy-server"
  rm -rf "$build"
  touch "$TOXIPROXY_LIB/.complete"
}

toxiproxy_start() {
  local id proxies=()
  for id in $(broker_ids); do
    proxies+=("{\"name\":\"kafka-$id\",\"listen\":\"127.0.0.1:$(broker_toxi_port "$id")\",\"upstream\":\"127.0.0.1:$(broker_faulty_port "$id")\",\"enabled\":true}")
  done
  proxies+=("{\"name\":\"mongo\",\"listen\":\"127.0.0.1:$((TT_TOXIPROXY_PORT + 1))\",\"upstream\":\"127.0.0.1:$TT_MONGO_PORT\",\"enabled\":true}")
  proxies+=("{\"name\":\"redis\",\"listen\":\"127.0.0.1:$((TT_TOXIPROXY_PORT + 2))\",\"upstream\":\"127.0.0.1:$TT_REDIS_PORT\",\"enabled\":true}")
  proxies+=("{\"name\":\"registry\",\"listen\":\"127.0.0.1:$((TT_TOXIPROXY_PORT + 3))\",\"upstream\":\"127.0.0.1:$TT_REGISTRY_PORT\",\"enabled\":true}")
  mkdir -p "$CONF"
  (IFS=, && echo "[${proxies[*]}]") >"$CONF/toxiproxy.json"
  launch toxiproxy "$TOXIPROXY_LIB/toxiproxy-server" -host 127.0.0.1 -port "$TT_TOXIPROXY_PORT" \
    -config "$CONF/toxiproxy.json"
}

toxiproxy_healthy() { curl -sf -o /dev/null "$(toxiproxy_address)/version"; }

# While Toxiproxy runs: the addresses that reach each local part through it (TT_TOXI_ and the
# variable a service reads), for the processes the fault suite puts behind network faults.
toxiproxy_env() {
  pid_of toxiproxy >/dev/null || return 0
  is_external kafka || echo "TT_TOXI_KAFKA_BROKERS=$(broker_list broker_toxi_port)"
  is_external mongo || echo "TT_TOXI_MONGODB_URI=mongodb://127.0.0.1:$((TT_TOXIPROXY_PORT + 1))"
  is_external redis || echo "TT_TOXI_REDIS_URL=redis://127.0.0.1:$((TT_TOXIPROXY_PORT + 2))"
  is_external registry || echo "TT_TOXI_SCHEMA_REGISTRY_URL=http://127.0.0.1:$((TT_TOXIPROXY_PORT + 3))/apis/ccompat/v7"
}
