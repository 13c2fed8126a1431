# shellcheck shell=bash
# kafka: Apache Kafka (KRaft) from Maven Central (org.apache.kafka:kafka_2.13), kafka.Kafka run
# from its jars. One broker, or with TT_KAFKA_BROKERS=3 a cluster of three (each broker its own
# controller; replication factor 3, min.insync.replicas 2) named kafka-1, kafka-2, kafka-3.

KAFKA_LIB=$LIB/kafka-$TT_KAFKA_VERSION

[[ $TT_KAFKA_BROKERS == 1 || $TT_KAFKA_BROKERS == 3 ]] ||
  die "TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS: 1 (one broker) or 3 (a cluster) only"

# --- brokers ------------------------------------------------------------------------------------

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
# The broker a unit is (kafka → 1).
unit_broker() { if [[ $1 == kafka ]]; then echo 1; else echo "${1#kafka-}"; fi; }
# "host:port,host:port…" of every broker for a port function.
broker_list() {
  local id out=()
  for id in $(broker_ids); do out+=("127.0.0.1:$("$1" "$id")"); done
  local IFS=,
  echo "${out[*]}"
}
# Every port a broker listens on.
broker_ports() {
  broker_port "$1"
  broker_controller_port "$1"
  broker_sasl_port "$1"
  broker_faulty_port "$1"
}

# Whether any broker runs, of one broker or a cluster (the count asked for may differ).
kafka_any_running() {
  local unit
  for unit in $(kafka_stop_units kafka); do pid_of "$unit" >/dev/null && return 0; done
  return 1
}

# --- the part -----------------------------------------------------------------------------------

kafka_var() { echo KAFKA_BROKERS; }
kafka_address() { broker_list broker_port; }
kafka_port() { if [[ $1 == kafka ]]; then echo "$TT_KAFKA_PORT"; else broker_port "${1#kafka-}"; fi; }
kafka_ports() {
  local id
  for id in $(broker_ids); do broker_ports "$id"; done
}
# Three brokers' ports in one block: broker N's are the first's plus 10·(N−1).
kafka_take_ports() {
  take_port TT_KAFKA_PORT 30
  set_port TT_KAFKA_CONTROLLER_PORT $((TT_KAFKA_PORT + 1))
  set_port TT_KAFKA_SASL_PORT $((TT_KAFKA_PORT + 2))
}

# The processes (pid and log file names) of a part: every broker for kafka, one for kafka-N.
kafka_units() {
  if [[ $1 == kafka ]]; then
    local id
    for id in $(broker_ids); do broker_unit "$id"; done
  else
    local id=${1#kafka-}
    ((id <= TT_KAFKA_BROKERS)) || die "$1: the stack runs $TT_KAFKA_BROKERS broker(s) (TT_KAFKA_BROKERS)"
    broker_unit "$id"
  fi
}
kafka_units_noun() { echo brokers; }

# The processes to stop for kafka: every broker that has a pid file, whatever the broker count
# now asked for (switching between one broker and a cluster stops the other).
kafka_stop_units() {
  if [[ $1 == kafka ]]; then
    local file
    for file in "$RUN"/kafka.pid "$RUN"/kafka-[0-9].pid; do
      [[ -f $file ]] && basename "$file" .pid
    done
  else
    kafka_units "$1"
  fi
}

# A cluster gets a status row per broker, with the broker's own address.
kafka_rows() {
  if ((TT_KAFKA_BROKERS > 1)) && ! is_external kafka; then
    local id
    for id in $(broker_ids); do echo "kafka-$id"; done
  else
    echo kafka
  fi
}
kafka_row_address() {
  if [[ $1 == kafka ]]; then address kafka; else echo "127.0.0.1:$(broker_port "${1#kafka-}")"; fi
}

kafka_install() {
  [[ -f $KAFKA_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  say "kafka: downloading org.apache.kafka:kafka_2.13:$TT_KAFKA_VERSION from Maven Central"
  rm -rf "$KAFKA_LIB"
  mvn_quiet -f "$HERE/kafka/pom.xml" -Dkafka.version="$TT_KAFKA_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$KAFKA_LIB"
  touch "$KAFKA_LIB/.complete"
}

# Running brokers stand: a different count asked for (TT_KAFKA_BROKERS) needs a restart.
kafka_before_up() {
  kafka_any_running || return 0
  local running_brokers
  running_brokers=$(cat "$RUN/kafka.brokers" 2>/dev/null || echo 1)
  [[ -n $TT_KAFKA_BROKERS_CHOSEN && $running_brokers != "$TT_KAFKA_BROKERS_CHOSEN" ]] &&
    die "kafka runs $running_brokers broker(s), not TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS_CHOSEN: TT_KAFKA_BROKERS=$TT_KAFKA_BROKERS_CHOSEN stack.sh restart kafka to switch"
  return 0
}

# Starts the brokers of a part (kafka: every broker not running; kafka-N: that one). A cluster's
# brokers share one cluster id, kept beside their data, and vote for the controller among all three.
kafka_start() {
  local unit
  mkdir -p "$RUN"
  kafka_any_running || echo "$TT_KAFKA_BROKERS" >"$RUN/kafka.brokers"
  for unit in $(kafka_units "$1"); do
    pid_of "$unit" >/dev/null || kafka_start_broker "$(unit_broker "$unit")"
  done
}

kafka_start_broker() {
  local id=$1 unit dir properties voters="" other
  unit=$(broker_unit "$id")
  dir=$(broker_dir "$id")
  properties=$CONF/$unit.properties
  for other in $(broker_ids); do voters+="${voters:+,}$other@127.0.0.1:$(broker_controller_port "$other")"; done
  local replication=1 min_isr=1
  ((TT_KAFKA_BROKERS > 1)) && replication=3 min_isr=2
  mkdir -p "$dir" "$CONF"
  sed -e "s|@NODE_ID@|$id|g" -e "s|@VOTERS@|$voters|g" -e "s|@PORT@|$(broker_port "$id")|g" \
    -e "s|@CONTROLLER_PORT@|$(broker_controller_port "$id")|g" -e "s|@SASL_PORT@|$(broker_sasl_port "$id")|g" \
    -e "s|@FAULTY_PORT@|$(broker_faulty_port "$id")|g" -e "s|@FAULTY_ADVERTISED_PORT@|$(broker_toxi_port "$id")|g" \
    -e "s|@SASL_USERNAME@|$TT_KAFKA_SASL_USERNAME|g" -e "s|@SASL_PASSWORD@|$TT_KAFKA_SASL_PASSWORD|g" \
    -e "s|@REPLICATION@|$replication|g" -e "s|@MIN_ISR@|$min_isr|g" \
    -e "s|@DATA_DIR@|$dir|g" "$HERE/kafka/server.properties.template" >"$properties"
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
    java "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$properties" \
      >"$STATE/kafka-format.log" 2>&1 || { cat "$STATE/kafka-format.log" >&2; die "kafka storage format failed"; }
  fi
  launch "$unit" java "${java_opts[@]}" kafka.Kafka "$properties"
}

kafka_healthy() {
  local unit
  for unit in $(kafka_units "$1"); do
    port_open "$(broker_port "$(unit_broker "$unit")")" &&
      grep -q 'Kafka Server started' "$LOGS/$unit.log" 2>/dev/null || return 1
  done
}

# The local broker's SASL listener, for tests of the clients' SASL settings. TT_-prefixed so a
# service never takes them for its own KAFKA_SASL_* settings; absent when Kafka is external.
kafka_env() {
  is_external kafka && return 0
  printf '%s\n' "TT_KAFKA_SASL_BROKERS=$(broker_list broker_sasl_port)" \
    "TT_KAFKA_SASL_USERNAME=$TT_KAFKA_SASL_USERNAME" "TT_KAFKA_SASL_PASSWORD=$TT_KAFKA_SASL_PASSWORD"
}

# The active controller of the KRaft quorum: the leader of the newest epoch any broker has
# recorded in its quorum-state file (the clients' protocol does not say; kafka-metadata-quorum
# would, with a Java tool this stack does not ship).
kafka_controller() {
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
