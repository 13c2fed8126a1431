#!/usr/bin/env bash
# README's second command: every test. Starts the local stack (or uses the addresses in the
# environment), typechecks and lints every package, runs unit and integration tests in one jest
# run (JSON results in .out/jest-results.json), then, in a jest run of their own and one at a
# time (.out/jest-serial.json), the fault suite's short profile — it restarts Kafka, MongoDB and
# Redis, which would break tests running beside it — and the first-run check (scripts/first-run.sh:
# README's first command in a fresh clone with empty caches and HOME, on its own ports).
# Arguments go to the first run and skip the serial one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
# The dashboard's browser test drives Debian's chromium (installed with apt when missing).
bash scripts/ensure-chromium.sh
bash infra/local/stack.sh up
pnpm exec turbo run typecheck lint --output-logs=errors-only
mkdir -p .out
rm -f .out/jest-results.json .out/jest-serial.json
status=0
NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
  pnpm exec jest --json --outputFile=.out/jest-results.json "$@" || status=$?
if (($# == 0)); then
  NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
    pnpm exec jest -c jest.serial.config.js --runInBand --json --outputFile=.out/jest-serial.json || status=$?
fi
exit $status
