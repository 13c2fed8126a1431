# shellcheck shell=bash
# prometheus (optional): Debian's Prometheus (infra/prometheus/ensure-prometheus.sh), scraping the
# targets tests and developers drop into .stack/prometheus/targets/*.json and loading the rules in
# .stack/prometheus/rules/*.yml (POST /-/reload after changing them).

PROMETHEUS_DIR=$STATE/prometheus

prometheus_var() { echo PROMETHEUS_URL; }
prometheus_address() { echo "http://127.0.0.1:$TT_PROMETHEUS_PORT"; }
prometheus_port() { echo "$TT_PROMETHEUS_PORT"; }
prometheus_take_ports() { take_port TT_PROMETHEUS_PORT; }

prometheus_install() {
  command -v prometheus >/dev/null 2>&1 && return 0
  bash "$ROOT/infra/prometheus/ensure-prometheus.sh"
}

# Local runs want answers in seconds: scrape and evaluate every second. Targets and rules are
# files the caller drops in, so a test scrapes exactly the processes it started.
prometheus_start() {
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

prometheus_healthy() { curl -sf -o /dev/null "$(prometheus_address)/-/ready"; }
