#!/usr/bin/env bash
# README's second command: every test. Starts the local stack (or uses the addresses in the
# environment), typechecks and lints every package, runs unit and integration tests in one jest
# run (JSON results in .out/jest-results.json), then, in a jest run of their own and one at a
# time (.out/jest-serial.json), the fault suite's short profile — it restarts Kafka, MongoDB and
# Redis, which would break tests running beside it — and the first-run check (scripts/first-run.sh:
# README's first command in a fresh clone with empty caches and HOME, on its own ports).
# Arguments go to the first run and skip the others. Then the write path, the workers and replay on
# FerretDB (.out/jest-ferretdb.json), the second local database. Besides the stack it needs Debian's
# chromium, prometheus and nginx (installed with apt when missing), helm (scripts/ensure-helm.sh),
# kubeconform (scripts/ensure-kubeconform.sh) and schemathesis (scripts/ensure-schemathesis.sh,
# from PyPI).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh
# The dashboard's browser test drives Debian's chromium (installed with apt when missing).
bash scripts/ensure-chromium.sh
# The caching proxy's test runs Debian's nginx with the stack's proxy configuration.
bash infra/local/proxy/ensure-nginx.sh
# The Helm chart's test renders it with helm, built from the Go module proxy once and cached
# outside the checkout (~3 min the first time).
bash scripts/ensure-helm.sh >/dev/null
# Its rendered manifests are checked with kubeconform (Go module proxy) against Kubernetes' JSON
# schemas from PyPI (kubernetes-validate), both cached the same way (~1 min the first time).
bash scripts/ensure-kubeconform.sh >/dev/null
# The API's contract test runs schemathesis (pinned, from PyPI) against /openapi.json, from a venv
# under .stack/tools made once (~15 s).
bash scripts/ensure-schemathesis.sh >/dev/null
bash infra/local/stack.sh up
# The optional Prometheus (Debian's package): the alert and dashboard tests run on it.
bash infra/local/stack.sh up prometheus
# The second implementation of the wire protocol beside the stand-in (docs/local-stack.md, "FerretDB"):
# FerretDB over SQLite, built from the Go module proxy once (a few minutes cold), on its own port.
bash infra/local/stack.sh up ferretdb
# The dashboard's page is built (tsc, into services/api/dist/dashboard): the API serves it from
# there, also when run from source as the browser test does.
pnpm exec turbo run typecheck lint build:dashboard --output-logs=errors-only
mkdir -p .out
rm -f .out/jest-results.json .out/jest-serial.json .out/jest-ferretdb.json
status=0
NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
  pnpm exec jest --json --outputFile=.out/jest-results.json "$@" || status=$?
if (($# == 0)); then
  # The write path, the workers (a replay from offset 0 included) and the CLI's replay again, on
  # FerretDB: what it supports of ours, the store contract whole (the store takes FerretDB's way
  # where it differs, and refuses shells: no ±Infinity). Segments and verify ($group's $first) it
  # does not run: docs/local-stack.md, "FerretDB".
  # shellcheck disable=SC2016
  NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- bash -c \
    'MONGODB_URI=$FERRETDB_URI exec pnpm exec jest --selectProjects integration --json --outputFile=.out/jest-ferretdb.json \
      packages/store/test/integration/rollup-writer.test.ts packages/store/test/integration/schedule-ops.test.ts \
      packages/store/test/integration/mongo-store.contract.test.ts \
      services/rollup-worker/test/integration/rollup-worker.test.ts services/cli/test/integration/replay.test.ts' ||
    status=$?
  NODE_OPTIONS=--experimental-vm-modules bash infra/local/stack.sh exec -- \
    pnpm exec jest -c jest.serial.config.js --runInBand --json --outputFile=.out/jest-serial.json || status=$?
fi
exit $status
