#!/usr/bin/env bash
# Installs the Python producer's requirements into a project-local venv and prints the venv's
# python. Idempotent: a venv built from the same requirements.txt is reused as it is.
#   bash examples/python-producer/install.sh        → .stack/tools/python-venv/bin/python
# Needs Python ≥ 3.9 with venv and pip (PYTHON=… to choose one); installs only from PyPI
# (and PIP_FIND_LINKS, when set).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exec bash "$here/../install-venv.sh" "$here/requirements.txt" \
  "${TT_PYTHON_VENV:-$root/.stack/tools/python-venv}" 9
