#!/usr/bin/env bash
# Prometheus with tickertape's alert rules over the processes of this machine: starts the local
# stack's optional Prometheus, points it at the demo's workers (DEMO_PORTS, 9401–9404), the
# scheduler (9410) and the API (9420, scripts/dashboard.sh), loads infra/prometheus's rules and
# prints where to look. Run the demo for longer beside it (DEMO_DURATION=10m bash scripts/demo.sh)
# to see the series move; a process that is not running shows as a down target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

read -r -a PORTS <<<"${DEMO_PORTS:-9401 9402 9403 9404}"
LEVELS=(minute hour day segments)
SCHEDULER_PORT=${SCHEDULER_PORT:-9410}
API_PORT=${API_PORT:-9420}
DIR=${TT_STACK_DIR:-.stack}/prometheus

bash infra/local/stack.sh up prometheus
mkdir -p "$DIR/targets" "$DIR/rules"
{
  echo '['
  for i in "${!LEVELS[@]}"; do
    printf '  {"targets": ["127.0.0.1:%s"], "labels": {"job": "tickertape-worker", "level": "%s"}},\n' \
      "${PORTS[$i]}" "${LEVELS[$i]}"
  done
  printf '  {"targets": ["127.0.0.1:%s"], "labels": {"job": "tickertape-scheduler"}},\n' "$SCHEDULER_PORT"
  printf '  {"targets": ["127.0.0.1:%s"], "labels": {"job": "tickertape-api"}}\n' "$API_PORT"
  echo ']'
} >"$DIR/targets/local.json"
cp infra/prometheus/tickertape-alerts.yml "$DIR/rules/tickertape-alerts.yml"
url=$(bash infra/local/stack.sh env | sed -n 's/^export PROMETHEUS_URL=//p')
curl -sf -X POST "$url/-/reload"
echo "Prometheus: $url (targets $url/targets, alerts $url/alerts)"
echo "Grafana: import infra/grafana/tickertape.json with this Prometheus as its datasource"
