#!/usr/bin/env bash
# Debian's nginx for the local stack's optional caching proxy (stack.sh up proxy), its test and the
# read-load benchmark (infra/local/ensure-debian.sh: quiet, idempotent, and the package's own
# server stopped).
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../ensure-debian.sh" nginx nginx nginx
