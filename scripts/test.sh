#!/usr/bin/env bash
# README's second command: every test. Starts the local stack (or uses the addresses in the
# environment), typechecks and lints every package, then runs unit and integration tests in one
# jest run whose JSON results land in .out/jest-results.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
# The dashboard's browser test drives Debian's chromium (installed with apt when missing).
bash scripts/ensure-chromium.sh
bash infra/local/stack.sh up
pnpm exec turbo run typecheck lint --output-logs=errors-only
mkdir -p .out
NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
  pnpm exec jest --json --outputFile=.out/jest-results.json "$@"
