#!/usr/bin/env bash
# README's first command: on a fresh machine, install what is missing, start the local stack,
# build, and run the demo against it. Safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
bash infra/local/stack.sh up
pnpm exec turbo run build --output-logs=errors-only
bash infra/local/stack.sh exec -- node services/cli/dist/main.js roundtrip
