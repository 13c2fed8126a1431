#!/usr/bin/env bash
# The local database's volume test (docs/local-stack.md, "Volume"): starts the stack's database
# (the stand-in, or FerretDB with TT_MONGO=ferretdb), loads SOAK_SERIES × SOAK_HOURS hours of one
# tick a minute through the workers' writers (default 10,000 × 17: 10.2 million minute buckets in
# one partition), then counts, scans, aggregates, asks the seed's window and drops the partition,
# sampling the database's resident memory. Prints a Markdown table. Takes hours at full size:
# SOAK_SERIES=2000 SOAK_HOURS=2 bash scripts/soak.sh for a short run; SOAK_LEVELS=minute writes the
# minute level alone (the cheap way to many buckets), SOAK_FIELDS sizes the buckets,
# SOAK_WINDOW_CALLS bounds the window's repeats, SOAK_READ_ONLY=true measures the reads on what an
# interrupted run loaded. With --ferretdb-part it measures the optional FerretDB part beside the
# stand-in (stack.sh up ferretdb) instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
part=mongo
[[ ${1:-} == --ferretdb-part ]] && part=ferretdb
bash infra/local/stack.sh up "$part"
pnpm exec turbo run build --filter=@tickertape/bench --output-logs=errors-only >/dev/null
if [[ $part == ferretdb ]]; then
  # shellcheck disable=SC2016
  SOAK_PART=ferretdb bash infra/local/stack.sh exec -- bash -c 'MONGODB_URI=$FERRETDB_URI exec node tools/bench/dist/soak/main.js'
else
  bash infra/local/stack.sh exec -- node tools/bench/dist/soak/main.js
fi
