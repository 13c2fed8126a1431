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
# network faults between the fault suite's processes and the stack). With TT_KAFKA_BROKERS=3, kafka is a
# KRaft cluster of three brokers; kafka-1, kafka-2, kafka-3 name one of them (restart, kill, pid,
# up). When KAFKA_BROKERS,
# SCHEMA_REGISTRY_URL, MONGODB_URI, REDIS_URL or PROMETHEUS_URL is set to anything but the local
# address, that part is external: the script uses it and does not start it.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
STATE=${TT_STACK_DIR:-$ROOT/.stack}
PORT_VARS=(TT_KAFKA_PORT TT_KAFKA_CONTROLLER_PORT TT_KAFKA_SASL_PORT TT_REGISTRY_PORT TT_MONGO_PORT TT_REDIS_PORT TT_PROMETHEUS_PORT TT_FERRETDB_PORT TT_PROXY_PORT TT_TOXIPROXY_PORT)
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
# shellcheck source=stack.env
source "$HERE/stack.env"

# Downloads and builds; a second stack (TT_STACK_DIR, e.g. the fault suite's cluster) may share the first's.
LIB=${TT_STACK_LIB:-$STATE/lib}
DATA=$STATE/data
LOGS=$STATE/logs
RUN=$STATE/run
CONF=$STATE/conf

PARTS=(kafka registry mongo redis)
# Started only when named: most runs need no Prometheus.
OPTIONAL_PARTS=(prometheus ferretdb proxy toxiproxy)
ALL_PARTS=("${PARTS[@]}" "${OPTIONAL_PARTS[@]}")
PROMETHEUS_DIR=$STATE/prometheus
START_TIMEOUT_S=${TT_START_TIMEOUT_S:-180}
STOP_TIMEOUT_S=${TT_STOP_TIMEOUT_S:-30}

KAFKA_LIB=$LIB/kafka-$TT_KAFKA_VERSION
REGISTRY_LIB=$LIB/apicurio-registry-$TT_APICURIO_VERSION
MONGO_LIB=$LIB/mongo-java-server-$TT_MONGO_JAVA_SERVER_VERSION
FERRETDB_LIB=$LIB/ferretdb-${TT_FERRETDB_VERSION#v}
TOXIPROXY_LIB=$LIB/toxiproxy-${TT_TOXIPROXY_VERSION#v}

say() { printf '[stack] %s\n' "$*" >&2; }
die() { printf '[stack] error: %s\n' "$*" >&2; exit 1; }

[[ $TT_KAFKA_BROKERS == 1 || $TT_KAFKA_BROKERS == 3 ]] ||
  die "TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS: 1 (one broker) or 3 (a cluster) only"

# --- kafka brokers ------------------------------------------------------------------------------

# Broker N (1-based) takes its ports 10·(N−1) above the first broker's.
broker_offset() { echo $((10 * ($1 - 1))); }
broker_port() { echo $((TT_KAFKA_PORT + $(broker_offset "$1"))); }
broker_controller_port() { echo $((TT_KAFKA_CONTROLLER_PORT + $(broker_offset "$1"))); }
broker_sasl_port() { echo $((TT_KAFKA_SASL_PORT + $(broker_offset "$1"))); }
# The listener Toxiproxy forwards to, and the proxy's own port that listener advertises.
broker_faulty_port() { echo $(($(broker_port "$1") + 5)); }
broker_toxi_port() { echo $(($(broker_port "$1") + 6)); }
broker_ids() { seq 1 "$TT_KAFKA_BROKERS"; }
# One broker keeps the names it always had (kafka.pid, kafka.log, data/kafka).
broker_unit() { if ((TT_KAFKA_BROKERS == 1)); then echo kafka; else echo "kafka-$1"; fi; }
broker_dir() { if ((TT_KAFKA_BROKERS == 1)); then echo "$DATA/kafka"; else echo "$DATA/kafka-cluster/broker-$1"; fi; }
# "host:port,host:port…" of every broker for a port function.
broker_list() {
  local id out=()
  for id in $(broker_ids); do out+=("127.0.0.1:$("$1" "$id")"); done
  local IFS=,
  echo "${out[*]}"
}

# The processes (pid and log file names) of a part: every broker for kafka, one for kafka-N.
units() {
  case $1 in
    kafka) local id; for id in $(broker_ids); do broker_unit "$id"; done ;;
    kafka-[0-9])
      local id=${1#kafka-}
      ((id <= TT_KAFKA_BROKERS)) || die "$1: the stack runs $TT_KAFKA_BROKERS broker(s) (TT_KAFKA_BROKERS)"
      broker_unit "$id"
      ;;
    *) echo "$1" ;;
  esac
}
# The broker a unit is (kafka → 1).
unit_broker() { if [[ $1 == kafka ]]; then echo 1; else echo "${1#kafka-}"; fi; }

# --- addresses ----------------------------------------------------------------------------------

env_var() {
  case $1 in
    kafka | kafka-[0-9]) echo KAFKA_BROKERS ;;
    registry) echo SCHEMA_REGISTRY_URL ;;
    mongo) echo MONGODB_URI ;;
    redis) echo REDIS_URL ;;
    prometheus) echo PROMETHEUS_URL ;;
    ferretdb) echo FERRETDB_URI ;;
    proxy) echo PROXY_URL ;;
    toxiproxy) echo TOXIPROXY_URL ;;
    *) die "unknown part '$1' (parts: ${ALL_PARTS[*]})" ;;
  esac
}

local_address() {
  case $1 in
    kafka | kafka-[0-9]) broker_list broker_port ;;
    registry) echo "http://127.0.0.1:$TT_REGISTRY_PORT/apis/ccompat/v7" ;;
    mongo) echo "mongodb://127.0.0.1:$TT_MONGO_PORT" ;;
    redis) echo "redis://127.0.0.1:$TT_REDIS_PORT" ;;
    prometheus) echo "http://127.0.0.1:$TT_PROMETHEUS_PORT" ;;
    ferretdb) echo "mongodb://127.0.0.1:$TT_FERRETDB_PORT" ;;
    proxy) echo "http://127.0.0.1:$TT_PROXY_PORT" ;;
    toxiproxy) echo "http://127.0.0.1:$TT_TOXIPROXY_PORT" ;;
  esac
}

local_port() {
  case $1 in
    kafka) echo "$TT_KAFKA_PORT" ;;
    kafka-[0-9]) broker_port "${1#kafka-}" ;;
    registry) echo "$TT_REGISTRY_PORT" ;;
    mongo) echo "$TT_MONGO_PORT" ;;
    redis) echo "$TT_REDIS_PORT" ;;
    prometheus) echo "$TT_PROMETHEUS_PORT" ;;
    ferretdb) echo "$TT_FERRETDB_PORT" ;;
    proxy) echo "$TT_PROXY_PORT" ;;
    toxiproxy) echo "$TT_TOXIPROXY_PORT" ;;
  esac
}

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

# --- process helpers ----------------------------------------------------------------------------

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
  local part=$1
  shift
  mkdir -p "$RUN" "$LOGS"
  [[ -f $LOGS/$part.log ]] && mv -f "$LOGS/$part.log" "$LOGS/$part.log.1"
  # A killed part leaves its pid file: read before the new process writes its own, it would name
  # the dead one and the start would be reported as failed.
  rm -f "$RUN/$part.pid"
  setsid bash -c 'echo $$ > "$0"; exec "$@"' "$RUN/$part.pid" "$@" \
    >"$LOGS/$part.log" 2>&1 </dev/null &
  # setsid may fork; wait until the pid file names the real process.
  local i
  for i in $(seq 1 50); do
    [[ -s $RUN/$part.pid ]] && return 0
    sleep 0.1
  done
  die "$part did not start (no pid file)"
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

require() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is not installed ($2)"
}

# --- install ------------------------------------------------------------------------------------

mvn_quiet() { mvn -q -B -ntp "$@" >"$STATE/mvn.log" 2>&1 || { cat "$STATE/mvn.log" >&2; die "maven failed: $*"; }; }

install_kafka() {
  [[ -f $KAFKA_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  say "kafka: downloading org.apache.kafka:kafka_2.13:$TT_KAFKA_VERSION from Maven Central"
  rm -rf "$KAFKA_LIB"
  mvn_quiet -f "$HERE/kafka/pom.xml" -Dkafka.version="$TT_KAFKA_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$KAFKA_LIB"
  touch "$KAFKA_LIB/.complete"
}

install_registry() {
  [[ -f $REGISTRY_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  say "registry: downloading io.apicurio:apicurio-registry-app:$TT_APICURIO_VERSION (all) from Maven Central"
  rm -rf "$REGISTRY_LIB"
  mkdir -p "$REGISTRY_LIB"
  mvn_quiet dependency:copy \
    -Dartifact="io.apicurio:apicurio-registry-app:$TT_APICURIO_VERSION:tar.gz:all" \
    -DoutputDirectory="$REGISTRY_LIB"
  tar -xzf "$REGISTRY_LIB"/apicurio-registry-app-*-all.tar.gz -C "$REGISTRY_LIB"
  rm -f "$REGISTRY_LIB"/apicurio-registry-app-*-all.tar.gz
  touch "$REGISTRY_LIB/.complete"
}

# The mongo part runs the stand-in (default) or FerretDB (TT_MONGO=ferretdb): docs/local-stack.md.
install_mongo() {
  case $TT_MONGO in
    stand-in) install_standin ;;
    ferretdb) install_ferretdb ;;
    *) die "TT_MONGO=$TT_MONGO is not stand-in or ferretdb" ;;
  esac
}

# FerretDB, built from the Go module proxy with the patches in patches/ferretdb; install.sh returns
# at once when the binary matches the version, Go and patches.
install_ferretdb() {
  require go "apt-get install golang-go (FerretDB needs Go >= 1.24, which Go fetches from its proxy)"
  TT_FERRETDB_VERSION=$TT_FERRETDB_VERSION bash "$HERE/ferretdb/install.sh" "$FERRETDB_LIB"
}

install_standin() {
  [[ -f $MONGO_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  require javac "apt-get install openjdk-17-jdk-headless"
  say "mongo: downloading de.bwaldvogel:mongo-java-server-h2-backend:$TT_MONGO_JAVA_SERVER_VERSION from Maven Central"
  rm -rf "$MONGO_LIB"
  mvn_quiet -f "$HERE/mongo/pom.xml" -Dmongo-java-server.version="$TT_MONGO_JAVA_SERVER_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$MONGO_LIB"
  build_mongo_launcher
  touch "$MONGO_LIB/.complete"
}

# The launcher is ours (infra/local/mongo/*.java), and so are the library's classes we patch
# (patches/mongo-java-server/*.patch, applied to the library's sources jar from Maven Central):
# built at install, rebuilt when a source or a patch changed; first on the classpath.
build_mongo_launcher() {
  local sources=$MONGO_LIB/sources patched=$MONGO_LIB/patched-src patch_file
  require patch "apt-get install patch"
  if ! compgen -G "$sources/mongo-java-server-core-*-sources.jar" >/dev/null; then
    mvn_quiet -f "$HERE/mongo/pom.xml" -Dmongo-java-server.version="$TT_MONGO_JAVA_SERVER_VERSION" \
      dependency:copy-dependencies -Dclassifier=sources -DincludeArtifactIds=mongo-java-server-core \
      -DoutputDirectory="$sources"
  fi
  rm -rf "$MONGO_LIB/launcher" "$patched"
  mkdir -p "$patched"
  # The library's sources each patch changes (its "+++ b/<path>" lines), taken from the jar.
  local -a patched_files
  mapfile -t patched_files < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$ROOT"/patches/mongo-java-server/*.patch | sort -u)
  (cd "$patched" && jar xf "$sources"/mongo-java-server-core-*-sources.jar "${patched_files[@]}")
  for patch_file in "$ROOT"/patches/mongo-java-server/*.patch; do
    patch -s -p1 -d "$patched" <"$patch_file" || die "mongo: $patch_file does not apply"
  done
  # The library's own sources use raw types: javac's "unchecked" note about them is not ours.
  javac -nowarn -XDsuppressNotes -cp "$MONGO_LIB/*" -d "$MONGO_LIB/launcher" "$HERE"/mongo/*.java \
    "${patched_files[@]/#/$patched/}"
  touch "$MONGO_LIB/launcher/.built"
}

install_redis() {
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

install_prometheus() {
  command -v prometheus >/dev/null 2>&1 && return 0
  bash "$ROOT/infra/prometheus/ensure-prometheus.sh"
}

install_proxy() {
  bash "$HERE/proxy/ensure-nginx.sh"
}

# Toxiproxy's server, built from the Go module proxy (seconds; no release download is reachable).
install_toxiproxy() {
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

install_part() {
  mkdir -p "$STATE" "$LIB"
  "install_$1"
}

# --- start --------------------------------------------------------------------------------------

registry_runner() {
  local jar
  for jar in "$REGISTRY_LIB"/quarkus-run.jar "$REGISTRY_LIB"/*-runner.jar; do
    [[ -f $jar ]] && { echo "$jar"; return 0; }
  done
  die "no runnable jar in $REGISTRY_LIB"
}

# Starts the brokers of a part (kafka: every broker not running; kafka-N: that one). A cluster's
# brokers share one cluster id, kept beside their data, and vote for the controller among all three.
start_kafka() {
  local unit
  mkdir -p "$RUN"
  kafka_any_running || echo "$TT_KAFKA_BROKERS" >"$RUN/kafka.brokers"
  for unit in $(units "${1:-kafka}"); do
    pid_of "$unit" >/dev/null || start_broker "$(unit_broker "$unit")"
  done
}

start_broker() {
  local id=$1 unit dir conf voters="" other
  unit=$(broker_unit "$id")
  dir=$(broker_dir "$id")
  conf=$CONF/$unit.properties
  for other in $(broker_ids); do voters+="${voters:+,}$other@127.0.0.1:$(broker_controller_port "$other")"; done
  local replication=1 min_isr=1
  ((TT_KAFKA_BROKERS > 1)) && replication=3 min_isr=2
  mkdir -p "$dir" "$CONF"
  sed -e "s|@NODE_ID@|$id|g" -e "s|@VOTERS@|$voters|g" -e "s|@PORT@|$(broker_port "$id")|g" \
    -e "s|@CONTROLLER_PORT@|$(broker_controller_port "$id")|g" -e "s|@SASL_PORT@|$(broker_sasl_port "$id")|g" \
    -e "s|@FAULTY_PORT@|$(broker_faulty_port "$id")|g" -e "s|@FAULTY_ADVERTISED_PORT@|$(broker_toxi_port "$id")|g" \
    -e "s|@SASL_USERNAME@|$TT_KAFKA_SASL_USERNAME|g" -e "s|@SASL_PASSWORD@|$TT_KAFKA_SASL_PASSWORD|g" \
    -e "s|@REPLICATION@|$replication|g" -e "s|@MIN_ISR@|$min_isr|g" \
    -e "s|@DATA_DIR@|$dir|g" "$HERE/kafka/server.properties.template" >"$conf"
  local java_opts=(-Xms256m "-Xmx$TT_KAFKA_HEAP" -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
    "-Dlog4j.configuration=file:$HERE/kafka/log4j.properties" -cp "$KAFKA_LIB/*")
  if [[ ! -f $dir/meta.properties ]]; then
    local cluster_id id_file=$DATA/kafka-cluster/cluster-id
    if ((TT_KAFKA_BROKERS > 1)) && [[ -s $id_file ]]; then
      cluster_id=$(<"$id_file")
    else
      cluster_id=$(java "${java_opts[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)
      if ((TT_KAFKA_BROKERS > 1)); then mkdir -p "${id_file%/*}" && echo "$cluster_id" >"$id_file"; fi
    fi
    java "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$conf" \
      >"$STATE/kafka-format.log" 2>&1 || { cat "$STATE/kafka-format.log" >&2; die "kafka storage format failed"; }
  fi
  launch "$unit" java "${java_opts[@]}" kafka.Kafka "$conf"
}

start_registry() {
  mkdir -p "$DATA/registry"
  launch registry java "-Xmx$TT_REGISTRY_HEAP" -XX:+ExitOnOutOfMemoryError \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$TT_REGISTRY_PORT" \
    -Dapicurio.storage.kind=sql -Dapicurio.storage.sql.kind=h2 \
    "-Dapicurio.datasource.url=jdbc:h2:file:$DATA/registry/registry" \
    -Dapicurio.datasource.username=sa -Dapicurio.datasource.password=sa \
    -jar "$(registry_runner)"
}

start_mongo() {
  case $TT_MONGO in
    stand-in) start_standin ;;
    ferretdb) start_ferretdb_as mongo "$TT_MONGO_PORT" "$DATA/ferretdb" ;;
    *) die "TT_MONGO=$TT_MONGO is not stand-in or ferretdb" ;;
  esac
  echo "$TT_MONGO" >"$RUN/mongo.kind"
}

# A second database beside the stand-in, for running tests against FerretDB (scripts/test.sh).
start_ferretdb() {
  start_ferretdb_as ferretdb "$TT_FERRETDB_PORT" "$DATA/ferretdb-part"
}

# FerretDB with its SQLite backend (one file per database under DIR); no telemetry, no debug port.
start_ferretdb_as() {
  local part=$1 port=$2 dir=$3
  mkdir -p "$dir/data"
  launch "$part" "$FERRETDB_LIB/ferretdb" --handler=sqlite "--sqlite-url=file:$dir/data/" \
    "--listen-addr=127.0.0.1:$port" --debug-addr=- --telemetry=disable "--state-dir=$dir" --log-level=warn
}

start_standin() {
  local source
  for source in "$HERE"/mongo/*.java "$ROOT"/patches/mongo-java-server/*.patch; do
    if [[ $source -nt $MONGO_LIB/launcher/.built ]]; then
      build_mongo_launcher
      break
    fi
  done
  mkdir -p "$DATA/mongo"
  # Files of the stand-in before it stored BSON (Java-serialised documents) are not read.
  [[ -f $DATA/mongo/mongo.mv ]] &&
    say "mongo: $DATA/mongo/mongo.mv is an older stand-in's data file, not read by this one (delete it, or stack.sh reset)"
  local heap_mb cache_mb
  heap_mb=$(mongo_heap_mb)
  # H2's page cache: an eighth of the heap (the rest holds requests, cursors and the server).
  cache_mb=$((heap_mb / 8))
  # Resident memory stays under the heap plus 512 MiB: metaspace, netty's direct
  # buffers and the code cache are capped too (docs/local-stack.md, "Memory"). Exceptions keep
  # their messages however often they are thrown: the JIT's preallocated ones have none, and a
  # stand-in up for hours would answer "Unknown error: null" where a fresh one names the problem.
  # (Incoming messages are read into heap buffers: patches/mongo-java-server/0005-….)
  launch mongo java "-Xmx${heap_mb}m" -Xms64m -XX:+ExitOnOutOfMemoryError -XX:MaxMetaspaceSize=64m \
    -XX:MaxDirectMemorySize=128m -XX:ReservedCodeCacheSize=48m -XX:-OmitStackTraceInFastThrow \
    -cp "$MONGO_LIB/launcher:$MONGO_LIB/*" MongoStandIn 127.0.0.1 "$TT_MONGO_PORT" \
    "$DATA/mongo/standin.mv" "$cache_mb"
}

# TT_MONGO_HEAP: a size (768m, 2g) or auto, a sixteenth of the machine's memory within 768 MiB–2 GiB.
mongo_heap_mb() {
  local heap=${TT_MONGO_HEAP:-auto} total_kb mb
  case $heap in
    auto)
      total_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || echo 8388608)
      mb=$((total_kb / 1024 / 16))
      ((mb < 768)) && mb=768
      ((mb > 2048)) && mb=2048
      echo "$mb"
      ;;
    *[gG]) echo $((${heap%[gG]} * 1024)) ;;
    *[mM]) echo "${heap%[mM]}" ;;
    *) die "TT_MONGO_HEAP=$heap is not auto or a size like 768m or 2g" ;;
  esac
}

start_redis() {
  mkdir -p "$DATA/redis"
  launch redis redis-server --bind 127.0.0.1 --port "$TT_REDIS_PORT" --dir "$DATA/redis" \
    --appendonly yes --save '' --daemonize no --protected-mode yes
}

# Local runs want answers in seconds: scrape and evaluate every second. Targets and rules are
# files the caller drops in, so a test scrapes exactly the processes it started.
start_prometheus() {
  mkdir -p "$DATA/prometheus" "$CONF" "$PROMETHEUS_DIR/targets" "$PROMETHEUS_DIR/rules"
  cat >"$CONF/prometheus.yml" <<YAML
# Written by stack.sh up prometheus.
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $PROMETHEUS_DIR/rules/*.yml
scrape_configs:
  # Each target group names its own job (tickertape-worker, tickertape-scheduler, …) in its labels.
  - job_name: local
    file_sd_configs:
      - files: ['$PROMETHEUS_DIR/targets/*.json']
        refresh_interval: 1s
YAML
  launch prometheus prometheus "--config.file=$CONF/prometheus.yml" \
    "--storage.tsdb.path=$DATA/prometheus" --storage.tsdb.retention.time=1d \
    "--web.listen-address=127.0.0.1:$TT_PROMETHEUS_PORT" --web.enable-lifecycle
}

# Debian's nginx with the proxy's configuration (infra/local/proxy/nginx.conf.template) in front of
# the API at TT_PROXY_UPSTREAM; its cache lives under $DATA/proxy (stack.sh reset empties it).
start_proxy() {
  local conf
  conf=$(bash "$HERE/proxy/render.sh" "$DATA/proxy" "127.0.0.1:$TT_PROXY_PORT" "$TT_PROXY_UPSTREAM")
  launch proxy nginx -e "$DATA/proxy/error.log" -p "$DATA/proxy" -c "$conf"
}

healthy() {
  case $1 in
    kafka | kafka-[0-9])
      local unit
      for unit in $(units "$1"); do
        port_open "$(broker_port "$(unit_broker "$unit")")" &&
          grep -q 'Kafka Server started' "$LOGS/$unit.log" 2>/dev/null || return 1
      done
      ;;
    registry) curl -sf -o /dev/null "$(local_address registry)/subjects" ;;
    mongo) port_open "$TT_MONGO_PORT" ;;
    redis) [[ $(redis-cli -p "$TT_REDIS_PORT" ping 2>/dev/null) == PONG ]] ;;
    prometheus) curl -sf -o /dev/null "$(local_address prometheus)/-/ready" ;;
    ferretdb) port_open "$TT_FERRETDB_PORT" ;;
    proxy) port_open "$TT_PROXY_PORT" ;;
    toxiproxy) curl -sf -o /dev/null "$(local_address toxiproxy)/version" ;;
  esac
}

wait_healthy() {
  local part=$1 started=$2 unit
  while ! healthy "$part"; do
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

# --- ports --------------------------------------------------------------------------------------

# A second checkout, or CI on a machine where a developer's stack runs, must not fight over the
# default ports. With TT_PORTS=auto (what .ci/run sets) a stack that is not running takes free
# ports; by default it keeps the fixed ones unless another process holds one of them. Either way
# the choice is written to .stack/ports.env, so env/exec/status/restart and later `up`s of this
# checkout keep using it, until `reset`.
# Every port a broker listens on.
broker_ports() {
  broker_port "$1"
  broker_controller_port "$1"
  broker_sasl_port "$1"
  broker_faulty_port "$1"
}

port_taken() {
  local part id port
  for part in "${PARTS[@]}"; do
    is_external "$part" || ! port_open "$(local_port "$part")" || return 0
  done
  is_external kafka && return 1
  for id in $(broker_ids); do
    for port in $(broker_ports "$id"); do port_open "$port" && return 0; done
  done
  return 1
}

any_running() {
  local part
  for part in "${PARTS[@]}"; do part_any_running "$part" && return 0; done
  return 1
}

# A free port, or with a width the first of that many free ports in a row (aligned to ten).
free_port() {
  local port width=${1:-1} i clear
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
  echo "$port"
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
  local var taken_ports=()
  mkdir -p "$STATE"
  {
    echo "# Written by stack.sh up: this checkout's stack ports (deleted by stack.sh reset)."
    # Three brokers' ports in one block: broker N's are the first's plus 10·(N−1).
    local kafka_block
    kafka_block=$(free_port 30)
    for var in "${PORT_VARS[@]}"; do
      case $var in
        TT_KAFKA_PORT) printf -v "$var" '%s' "$kafka_block" ;;
        TT_KAFKA_CONTROLLER_PORT) printf -v "$var" '%s' "$((kafka_block + 1))" ;;
        TT_KAFKA_SASL_PORT) printf -v "$var" '%s' "$((kafka_block + 2))" ;;
        # Toxiproxy's API and its proxies to MongoDB, Redis and the registry.
        TT_TOXIPROXY_PORT) printf -v "$var" '%s' "$(free_port 4)" ;;
        *) printf -v "$var" '%s' "$(free_port)" ;;
      esac
      echo ": \"\${$var:=${!var}}\""
    done
  } >"$PORTS_FILE"
  local why="TT_PORTS=auto"
  [[ ${TT_PORTS:-fixed} == auto ]] || why="another process holds a default port"
  say "ports: $why, so this checkout's stack takes free ones: kafka $TT_KAFKA_PORT, registry $TT_REGISTRY_PORT, mongo $TT_MONGO_PORT, redis $TT_REDIS_PORT (kept in ${PORTS_FILE#"$ROOT"/})"
}

cmd_up() {
  local parts=("$@") part pid to_wait=() began=$SECONDS
  ((${#parts[@]})) || parts=("${PARTS[@]}")
  require java "apt-get install openjdk-17-jre-headless"
  require curl "apt-get install curl"
  choose_ports
  for part in "${parts[@]}"; do
    if is_external "$part"; then
      say "$part: external at $(address "$part"), not started"
      continue
    fi
    install_part "${part%%-[0-9]}"
    if [[ $part == kafka* ]] && kafka_any_running; then
      local running_brokers
      running_brokers=$(cat "$RUN/kafka.brokers" 2>/dev/null || echo 1)
      [[ -n $TT_KAFKA_BROKERS_CHOSEN && $running_brokers != "$TT_KAFKA_BROKERS_CHOSEN" ]] &&
        die "kafka runs $running_brokers broker(s), not TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS_CHOSEN: TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS_CHOSEN stack.sh restart kafka to switch"
    fi
    if [[ $part == kafka* ]] && ! part_running "$part" && part_any_running "$part"; then
      # Some brokers of a cluster run (one was killed or stopped): start the others.
      say "$part: starting the brokers that are down"
      start_kafka "$part"
    elif part_running "$part"; then
      pid=$(pid_of "$(units "$part" | head -n 1)")
      # The running database stands unless the caller asked for the other one.
      local running_kind
      running_kind=$(cat "$RUN/mongo.kind" 2>/dev/null || echo stand-in)
      if [[ $part == mongo && -n $TT_MONGO_CHOSEN && $running_kind != "$TT_MONGO_CHOSEN" ]]; then
        die "mongo runs $running_kind, not TT_MONGO=$TT_MONGO_CHOSEN: TT_MONGO=$TT_MONGO_CHOSEN stack.sh restart mongo to switch"
      fi
      say "$part: already running (pid $pid)"
    else
      port_open "$(local_port "$part")" &&
        die "$part: port $(local_port "$part") is taken by another process; stop it or set TT_${part^^}_PORT"
      say "$part: starting"
      case $part in
        kafka*) start_kafka "$part" ;;
        *) "start_$part" ;;
      esac
    fi
    to_wait+=("$part")
  done
  for part in "${to_wait[@]}"; do
    wait_healthy "$part" "$began"
    say "$part: up at $(row_address "$part")"
  done
  say "stack up (${SECONDS}s since this command started, $((SECONDS - began))s of them starting)"
}

# --- stop ---------------------------------------------------------------------------------------

# The processes to stop for a part: for kafka every broker that has a pid file, whatever the
# broker count now asked for (switching between one broker and a cluster stops the other).
stop_units() {
  if [[ $1 == kafka ]]; then
    local file
    for file in "$RUN"/kafka.pid "$RUN"/kafka-[0-9].pid; do
      [[ -f $file ]] && basename "$file" .pid
    done
  else
    units "$1"
  fi
}

# Whether any broker runs, of one broker or a cluster (the count asked for may differ).
kafka_any_running() {
  local unit
  for unit in $(stop_units kafka); do pid_of "$unit" >/dev/null && return 0; done
  return 1
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

# SIGKILL, as a crash: no shutdown at all. `up` starts the part again on its data.
cmd_kill() {
  (($#)) || die "kill needs the parts to kill"
  local part unit pid
  for part in "$@"; do
    env_var "$part" >/dev/null
    is_external "$part" && die "$part is external ($(address "$part")): this script cannot kill it"
    for unit in $(units "$part"); do
      if pid=$(pid_of "$unit"); then
        say "$unit: killing (pid $pid)"
        kill -KILL "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' "/proc/$pid/status"; do sleep 0.05; done
      fi
    done
  done
}

cmd_pid() {
  (($# == 1)) || die "usage: stack.sh pid PART"
  local unit found=1
  for unit in $(units "$1"); do pid_of "$unit" && found=0; done
  return $found
}

# The active controller of the KRaft quorum: the leader of the newest epoch any broker has
# recorded in its quorum-state file (the clients' protocol does not say; kafka-metadata-quorum
# would, with a Java tool this stack does not ship).
cmd_controller() {
  local id file best_epoch=-1 leader="" epoch current
  for id in $(broker_ids); do
    file=$(broker_dir "$id")/__cluster_metadata-0/quorum-state
    [[ -f $file ]] || continue
    epoch=$(sed -n 's/.*"leaderEpoch":\([0-9-]*\).*/\1/p' "$file")
    current=$(sed -n 's/.*"leaderId":\([0-9-]*\).*/\1/p' "$file")
    if [[ -n $epoch && -n $current && $current != -1 ]] && ((epoch > best_epoch)); then
      best_epoch=$epoch leader=$current
    fi
  done
  [[ -n $leader ]] || die "no broker has recorded a controller yet"
  echo "$leader"
}

cmd_restart() {
  (($#)) || die "restart needs the parts to restart (${PARTS[*]})"
  local part
  for part in "$@"; do
    env_var "$part" >/dev/null
    is_external "$part" && die "$part is external ($(address "$part")): this script cannot restart it"
    stop_part "$part"
  done
  cmd_up "$@"
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

# --- status, logs, env --------------------------------------------------------------------------

cmd_status() {
  local part pid all_up=0 rows=()
  # A cluster gets a row per broker.
  for part in "${ALL_PARTS[@]}"; do
    if [[ $part == kafka ]] && ((TT_KAFKA_BROKERS > 1)) && ! is_external kafka; then
      for pid in $(broker_ids); do rows+=("kafka-$pid"); done
    else
      rows+=("$part")
    fi
  done
  for part in "${rows[@]}"; do
    # An optional part that is not running is not a stack that is down.
    if [[ " ${OPTIONAL_PARTS[*]} " == *" $part "* ]] && ! is_external "$part" && ! pid_of "$part" >/dev/null; then
      printf '%-10s off       (optional: stack.sh up %s)\n' "$part" "$part"
      continue
    fi
    if is_external "$part"; then
      printf '%-10s external  %s\n' "$part" "$(address "$part")"
    elif pid=$(pid_of "$(units "$part")") && healthy "$part"; then
      printf '%-10s up        %s (pid %s)%s\n' "$part" "$(row_address "$part")" "$pid" \
        "$([[ $part == mongo ]] && echo ", $(cat "$RUN/mongo.kind" 2>/dev/null || echo stand-in)")"
    elif pid=$(pid_of "$(units "$part")"); then
      printf '%-10s starting  %s (pid %s)\n' "$part" "$(row_address "$part")" "$pid"
      all_up=1
    else
      printf '%-10s down\n' "$part"
      all_up=1
    fi
  done
  return $all_up
}

# A status row's address: one broker's own for kafka-N.
row_address() {
  case $1 in
    kafka-[0-9]) echo "127.0.0.1:$(broker_port "${1#kafka-}")" ;;
    *) address "$1" ;;
  esac
}

cmd_logs() {
  local parts=("$@") part unit
  ((${#parts[@]})) || parts=("${PARTS[@]}")
  for part in "${parts[@]}"; do
    env_var "$part" >/dev/null
    for unit in $(units "$part"); do
      printf '==> %s (%s) <==\n' "$unit" "$LOGS/$unit.log"
      tail -n "${TT_LOG_LINES:-50}" "$LOGS/$unit.log" 2>/dev/null || echo "(no log yet)"
    done
  done
}

# The local broker's SASL listener, for tests of the clients' SASL settings. TT_-prefixed so a
# service never takes them for its own KAFKA_SASL_* settings; absent when Kafka is external.
sasl_vars() {
  is_external kafka && return 0
  printf '%s\n' "TT_KAFKA_SASL_BROKERS=$(broker_list broker_sasl_port)" \
    "TT_KAFKA_SASL_USERNAME=$TT_KAFKA_SASL_USERNAME" "TT_KAFKA_SASL_PASSWORD=$TT_KAFKA_SASL_PASSWORD"
}

# While Toxiproxy runs: the addresses that reach each local part through it (TT_TOXI_ and the
# variable a service reads), for the processes the fault suite puts behind network faults.
toxi_vars() {
  pid_of toxiproxy >/dev/null || return 0
  is_external kafka || echo "TT_TOXI_KAFKA_BROKERS=$(broker_list broker_toxi_port)"
  is_external mongo || echo "TT_TOXI_MONGODB_URI=mongodb://127.0.0.1:$((TT_TOXIPROXY_PORT + 1))"
  is_external redis || echo "TT_TOXI_REDIS_URL=redis://127.0.0.1:$((TT_TOXIPROXY_PORT + 2))"
  is_external registry || echo "TT_TOXI_SCHEMA_REGISTRY_URL=http://127.0.0.1:$((TT_TOXIPROXY_PORT + 3))/apis/ccompat/v7"
}

# Toxiproxy with one proxy per broker (to its FAULTY listener, whose advertised port is the
# proxy's) and one each to MongoDB, Redis and the registry: names the fault suite's toxics use.
start_toxiproxy() {
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

# The optional parts' addresses, only while they run (or are external).
optional_running() {
  local part
  for part in "${OPTIONAL_PARTS[@]}"; do
    if is_external "$part" || pid_of "$part" >/dev/null; then echo "$part"; fi
  done
}

cmd_env() {
  local part line
  for part in "${PARTS[@]}" $(optional_running); do
    printf 'export %s=%q\n' "$(env_var "$part")" "$(address "$part")"
  done
  while read -r line; do printf 'export %s=%q\n' "${line%%=*}" "${line#*=}"; done < <(sasl_vars; toxi_vars)
}

cmd_exec() {
  [[ ${1:-} == -- ]] && shift
  (($#)) || die "usage: stack.sh exec -- COMMAND [ARGS…]"
  local part line
  for part in "${PARTS[@]}" $(optional_running); do export "$(env_var "$part")=$(address "$part")"; done
  # Which database MONGODB_URI reaches (the soak reads it).
  export TT_MONGO
  while read -r line; do export "${line?}"; done < <(sasl_vars; toxi_vars)
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
    controller) cmd_controller ;;
    status) cmd_status ;;
    reset) cmd_down && rm -rf "$DATA" "$LOGS" "$CONF" "$PORTS_FILE" "$RUN/mongo.kind" "$RUN/kafka.brokers" && say "data, logs and chosen ports deleted" ;;
    logs) cmd_logs "$@" ;;
    install) for part in "${PARTS[@]}"; do is_external "$part" || install_part "$part"; done ;;
    env) cmd_env ;;
    exec) cmd_exec "$@" ;;
    *) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; [[ -z $cmd || $cmd == help ]] || exit 2 ;;
  esac
}

main "$@"
