#!/usr/bin/env bash
# README's first command: on a fresh machine, install what is missing, start the local stack,
# build, start one rollup worker per level, run the two load profiles for a while, and print
# what happened. Safe to run again (topics and consumer groups are reused; workers resume).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh

DURATION=${DEMO_DURATION:-20s}
# The three rollup levels and the segment store (raw points), each its own consumer group.
LEVELS=(minute hour day segments)
# Their /metrics and /health ports (DEMO_PORTS to move them, e.g. beside another checkout's demo).
read -r -a PORTS <<<"${DEMO_PORTS:-9401 9402 9403 9404}"
((${#PORTS[@]} == ${#LEVELS[@]})) || { echo "DEMO_PORTS needs ${#LEVELS[@]} ports" >&2; exit 2; }
LOGS=.stack/logs
# Also when every part of the stack is external (stack.sh then starts nothing and makes no logs).
mkdir -p "$LOGS"

bash infra/local/stack.sh up
echo "building (log: $LOGS/build.log)"
pnpm exec turbo run build --output-logs=errors-only >"$LOGS/build.log" 2>&1 || { cat "$LOGS/build.log"; exit 1; }
tickertape() { bash infra/local/stack.sh exec -- node services/cli/dist/main.js "$@"; }

tickertape topics create --partitions 4

pids=()
stop_workers() {
  ((${#pids[@]})) || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop_workers EXIT
# Every level holds ticks for 2 s before writing them (FRESHNESS_BUDGET_MS): the defaults — minute
# 5 s, hour and day 60 s — would keep the summary below waiting a minute for their tails.
for i in "${!LEVELS[@]}"; do
  ROLLUP_LEVEL=${LEVELS[$i]} HTTP_PORT=${PORTS[$i]} FRESHNESS_BUDGET_MS=${DEMO_FRESHNESS_BUDGET_MS:-2000} \
    bash infra/local/stack.sh exec -- node services/rollup-worker/dist/main.js \
    >"$LOGS/rollup-${LEVELS[$i]}.log" 2>&1 &
  pids+=($!)
done
for i in "${!LEVELS[@]}"; do
  for _ in $(seq 1 120); do
    curl -sf -o /dev/null "http://127.0.0.1:${PORTS[$i]}/health" && break
    kill -0 "${pids[$i]}" 2>/dev/null || { tail -n 20 "$LOGS/rollup-${LEVELS[$i]}.log"; exit 1; }
    sleep 0.5
  done
  echo "rollup worker ${LEVELS[$i]}: up, metrics on http://127.0.0.1:${PORTS[$i]}/metrics (log: $LOGS/rollup-${LEVELS[$i]}.log)"
done

echo "publishing for $DURATION: 50 traffic sensors and 10 stock symbols"
tickertape loadgen --profile stocks --series 10 --rate 300 --duration "$DURATION" --no-progress >"$LOGS/loadgen-stocks.log" &
stocks=$!
tickertape loadgen --profile traffic --series 50 --rate 700 --duration "$DURATION" >"$LOGS/loadgen-traffic.log"
wait "$stocks"
grep -h -m1 'ticks sent' "$LOGS/loadgen-traffic.log" "$LOGS/loadgen-stocks.log" || true

echo
workers=$(printf 'http://127.0.0.1:%s,' "${PORTS[@]}")
tickertape summary --workers "${workers%,}" --wait-for-groups tickertape-rollup-minute,tickertape-rollup-hour,tickertape-rollup-day,tickertape-segments

echo
echo "the seed's question, from the rollups: average speed of 50 sensors over the last 10 minutes"
tickertape query window --metric traffic --field speed --last 10m --limit 50 --format table |
  awk '{ lines[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i <= 4 || i > NR - 3) print lines[i]; else if (i == 5) print "  … (" NR - 7 " more rows)" }'
echo
echo "ground truth: the checker refolds the whole topic and compares today's buckets and segments"
tickertape verify --from "$(date -u +%F)" --limit 10
echo
echo "explore in the dashboard: bash scripts/dashboard.sh (prints its address and token)"
