#!/usr/bin/env bash
# The fault suite: runs the load generator, the four kinds of workers and the scheduler on the
# local stack while killing workers, restarting Kafka, MongoDB and Redis, replaying and rescaling
# levels and publishing every kind of bad input; then the ground-truth checker compares every
# bucket and segment with the topic. Exit 0 only when it finds no difference and every bad record
# is in the DLQ with its reason. Summary on stdout, JSON in .out/faults-<profile>.json.
#
#   bash scripts/faults.sh                  short profile (about 2 minutes; what CI runs)
#   bash scripts/faults.sh --profile long   ten minutes of load (docs/reliability.md)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
profile=short
while (($#)); do
  case $1 in
    --profile) profile=${2:?--profile needs short or long}; shift 2 ;;
    *) echo "usage: scripts/faults.sh [--profile short|long]" >&2; exit 2 ;;
  esac
done
source scripts/bootstrap.sh
bash infra/local/stack.sh up
# Paths in the summary are relative to the repository root.
FAULT_OUT_DIR=${FAULT_OUT_DIR:-$PWD/.out} FAULT_PROFILE=$profile bash infra/local/stack.sh exec -- \
  bash -c 'cd services/faults && exec node --import tsx --conditions=source src/main.ts'
