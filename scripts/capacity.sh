#!/usr/bin/env bash
# docs/capacity.md from the benchmark's JSON (docs/benchmarks.json, written by
# `bash scripts/bench.sh`): workers, cores, partitions, database operations, documents and bytes
# per day and read costs at 10k–1M ticks/s, each number traced to the measured figure it comes
# from, and the read side from docs/benchmarks-reads.json when present. Needs no running stack.
# Usage: bash scripts/capacity.sh [JSON] [DOC] [READS_JSON]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh

json="${1:-docs/benchmarks.json}"
doc="${2:-docs/capacity.md}"
if [[ ! -f "$json" ]]; then
  echo "capacity: $json not found; run bash scripts/bench.sh first" >&2
  exit 1
fi
# The model (@tickertape/capacity) and its command: build them when anything changed.
pnpm exec turbo run build --filter=@tickertape/bench... --output-logs=errors-only
# The read side comes from the read load's JSON (bash scripts/bench.sh reads), when there is one.
reads="${3:-docs/benchmarks-reads.json}"
if [[ -f "$reads" ]]; then
  node tools/bench/dist/capacity-main.js "$json" "$doc" "$reads"
else
  node tools/bench/dist/capacity-main.js "$json" "$doc"
fi
