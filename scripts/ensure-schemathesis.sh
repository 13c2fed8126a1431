#!/usr/bin/env bash
# Prints the path of the schemathesis CLI (`st`) the API's contract test runs
# (services/api/test/integration/openapi-contract.test.ts), installing the version pinned in
# services/api/test/schemathesis/requirements.txt from PyPI into a venv of its own under .stack/tools
# the first time (~30 s) and reusing it after. Messages go to stderr; stdout is only the path.
# Needs Python >= 3.10 with venv and pip (PYTHON=… to choose one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python=$(bash "$root/examples/install-venv.sh" "$root/services/api/test/schemathesis/requirements.txt" \
  "${TT_SCHEMATHESIS_VENV:-${TT_STACK_DIR:-$root/.stack}/tools/schemathesis-venv}" 10)
echo "$(dirname "$python")/st"
