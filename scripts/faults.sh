#!/usr/bin/env bash
# The fault suite: runs the load generator, the four kinds of workers and the scheduler on the
# local stack while killing workers, restarting Kafka, MongoDB and Redis, replaying and rescaling
# levels and publishing every kind of bad input; then the ground-truth checker compares every
# bucket and segment with the topic. Exit 0 only when it finds no difference, every acknowledged
# tick is in the topic and every bad record is in the DLQ with its reason. Summary on stdout, JSON
# in .out/faults-<profile>.json.
#
#   bash scripts/faults.sh                          short profile (about 2 minutes)
#   bash scripts/faults.sh --profile long           ten minutes of load (docs/reliability.md)
#   bash scripts/faults.sh --profile cluster        seven minutes on a three-broker cluster: leader
#                                                   and controller kills and restarts, a rolling
#                                                   restart, a paused broker, network faults
#                                                   (Toxiproxy), a worker's clock stepped (libfaketime)
#   bash scripts/faults.sh --profile cluster-short  the same kinds in about three minutes
#
# The cluster profiles run on a stack of their own (.stack/cluster: three brokers, the registry,
# MongoDB, Redis and Toxiproxy on free ports, sharing .stack/lib's downloads), stopped afterwards,
# so the developer's stack is left alone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
profile=short
while (($#)); do
  case $1 in
    --profile) profile=${2:?--profile needs short, long, cluster or cluster-short}; shift 2 ;;
    *) echo "usage: scripts/faults.sh [--profile short|long|cluster|cluster-short]" >&2; exit 2 ;;
  esac
done
source scripts/bootstrap.sh
case $profile in
  cluster | cluster-short)
    export TT_STACK_DIR=$PWD/.stack/cluster TT_STACK_LIB=$PWD/.stack/lib TT_PORTS=auto TT_KAFKA_BROKERS=3
    # Debian's libfaketime steps one worker's wall clock (the multithreaded variant: node has threads).
    bash infra/local/ensure-debian.sh faketime faketime faketime
    FAULT_FAKETIME_LIB=$(dpkg -L libfaketime | grep '/libfaketimeMT\.so\.1$' | head -n 1)
    export FAULT_FAKETIME_LIB
    trap 'bash infra/local/stack.sh down' EXIT
    bash infra/local/stack.sh up
    bash infra/local/stack.sh up toxiproxy
    ;;
  *) bash infra/local/stack.sh up ;;
esac
# Paths in the summary are relative to the repository root.
FAULT_OUT_DIR=${FAULT_OUT_DIR:-$PWD/.out} FAULT_PROFILE=$profile bash infra/local/stack.sh exec -- \
  bash -c 'cd tools/faults && exec node --import tsx --conditions=source src/main.ts'
