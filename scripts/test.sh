#!/usr/bin/env bash
# README's second command: every test. Starts the local stack (or uses the addresses in the
# environment), typechecks and lints every package, runs unit and integration tests in one jest
# run (JSON results in .out/jest-results.json), then the fault suite's short profile in a jest
# run of its own (.out/jest-faults.json): it restarts Kafka, MongoDB and Redis, which would
# break tests running beside it. Arguments go to the first run and skip the fault suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
# The dashboard's browser test drives Debian's chromium (installed with apt when missing).
bash scripts/ensure-chromium.sh
bash infra/local/stack.sh up
pnpm exec turbo run typecheck lint --output-logs=errors-only
mkdir -p .out
rm -f .out/jest-results.json .out/jest-faults.json
status=0
NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
  pnpm exec jest --json --outputFile=.out/jest-results.json "$@" || status=$?
if (($# == 0)); then
  NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
    pnpm exec jest -c jest.faults.config.js --json --outputFile=.out/jest-faults.json || status=$?
fi
exit $status
