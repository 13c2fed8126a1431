#!/usr/bin/env bash
# The benchmark in one command: install, start the local stack, build the harness and the
# rollup workers it runs, then run it. `--profile full` (the default) prints the report and
# writes docs/benchmarks.md with its chart (docs/benchmarks.svg) and the whole report as data
# (docs/benchmarks.json, read by scripts/capacity.sh); `--profile smoke` is the tiny
# end-to-end run CI does and only prints. Other options: node tools/bench/dist/main.js --help.
# `bash scripts/bench.sh reads [--profile smoke]` runs the read load instead (seed 001's readers
# against the API, with and without its caches and the caching proxy) and writes
# docs/benchmarks-reads.md; options: node tools/bench/dist/read-load-main.js --help.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh

bash infra/local/stack.sh up
# The harness and everything it depends on, the rollup worker included (run from its dist/).
pnpm exec turbo run build --filter=@tickertape/bench... --output-logs=errors-only
if [[ ${1:-} == reads ]]; then
  shift
  bash infra/local/stack.sh exec -- node tools/bench/dist/read-load-main.js "$@"
  [[ -f docs/benchmarks-reads.md ]] && pnpm exec prettier --log-level warn --write docs/benchmarks-reads.md docs/benchmarks-reads.json
  exit 0
fi
# The report quotes the command that produced it.
bash infra/local/stack.sh exec -- node tools/bench/dist/main.js \
  --command-line "bash scripts/bench.sh${*:+ $*}" "$@"
# The report is generated; keep it in the repository's style (a no-op when unchanged).
# (benchmarks.json exists once a full run has written it.)
formatted=(docs/benchmarks.md)
[[ -f docs/benchmarks.json ]] && formatted+=(docs/benchmarks.json)
pnpm exec prettier --log-level warn --write "${formatted[@]}"
