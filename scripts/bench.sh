#!/usr/bin/env bash
# The benchmark in one command: install, start the local stack, build the harness and the
# rollup workers it runs, then run it. `--profile full` (the default) prints the report and
# writes docs/benchmarks.md with its chart (docs/benchmarks.svg) and the whole report as data
# (docs/benchmarks.json, read by scripts/capacity.sh); `--profile smoke` is the tiny
# end-to-end run CI does and only prints. Other options: node services/bench/dist/main.js --help.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh

bash infra/local/stack.sh up
# The harness and everything it depends on, the rollup worker included (run from its dist/).
pnpm exec turbo run build --filter=@tickertape/bench... --output-logs=errors-only
# The report quotes the command that produced it.
bash infra/local/stack.sh exec -- node services/bench/dist/main.js \
  --command-line "bash scripts/bench.sh${*:+ $*}" "$@"
# The report is generated; keep it in the repository's style (a no-op when unchanged).
# (benchmarks.json exists once a full run has written it.)
formatted=(docs/benchmarks.md)
[[ -f docs/benchmarks.json ]] && formatted+=(docs/benchmarks.json)
pnpm exec prettier --log-level warn --write "${formatted[@]}"
