#!/usr/bin/env bash
# README's second command: every test. Starts the local stack (or uses the addresses in the
# environment), typechecks and lints every package, runs unit and integration tests in one jest
# run (JSON results in .out/jest-results.json), then, in a jest run of their own and one at a
# time (.out/jest-serial.json), the fault suite's short profile — it restarts Kafka, MongoDB and
# Redis, which would break tests running beside it — and the first-run check (scripts/first-run.sh:
# README's first command in a fresh clone with empty caches and HOME, on its own ports).
# Arguments go to the first run and skip the serial one. Besides the stack it needs Debian's
# chromium and prometheus (installed with apt when missing) and helm (scripts/ensure-helm.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
# The dashboard's browser test drives Debian's chromium (installed with apt when missing).
bash scripts/ensure-chromium.sh
# The Helm chart's test renders it with helm, built from the Go module proxy once and cached
# outside the checkout (~3 min the first time).
bash scripts/ensure-helm.sh >/dev/null
bash infra/local/stack.sh up
# The optional Prometheus (Debian's package): the alert and dashboard tests run on it.
bash infra/local/stack.sh up prometheus
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
