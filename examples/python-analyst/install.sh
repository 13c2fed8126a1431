#!/usr/bin/env bash
# Installs pandas, pyarrow, pymongo and DuckDB (requirements.txt, pinned) into a project-local
# venv of their own and prints the venv's python. Idempotent: a venv built from the same
# requirements.txt is reused as it is (a fresh one takes about 20 s from PyPI).
#   bash examples/python-analyst/install.sh        → .stack/tools/python-analyst-venv/bin/python
# Needs Python ≥ 3.11 (pandas 3) with venv and pip (PYTHON=… to choose one); installs only from
# PyPI (and PIP_FIND_LINKS, when set).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exec bash "$here/../install-venv.sh" "$here/requirements.txt" \
  "${TT_PYTHON_ANALYST_VENV:-$root/.stack/tools/python-analyst-venv}" 11
