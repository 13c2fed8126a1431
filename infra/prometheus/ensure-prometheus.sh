#!/usr/bin/env bash
# Debian's prometheus package (prometheus and promtool) for the alert rules' unit tests and the
# local stack's optional Prometheus (infra/local/ensure-debian.sh: quiet, idempotent, and the
# package's own daemon stopped).
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../local/ensure-debian.sh" prometheus prometheus promtool prometheus
