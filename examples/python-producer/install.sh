#!/usr/bin/env bash
# Installs the Python producer's requirements into a project-local venv and prints the venv's
# python. Idempotent: a venv built from the same requirements.txt is reused as it is.
#   bash examples/python-producer/install.sh        → .stack/tools/python-venv/bin/python
# Needs Python ≥ 3.9 with venv and pip (PYTHON=… to choose one); installs only from PyPI
# (and PIP_FIND_LINKS, when set).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${TT_PYTHON_VENV:-$root/.stack/tools/python-venv}"
requirements="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$requirements" | cut -d' ' -f1)"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  echo "$venv/bin/python"
  exit 0
fi

python="${PYTHON:-}"
if [[ -z "$python" ]]; then
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
  done
fi
if [[ -z "$python" ]] || ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  echo "install.sh: needs Python >= 3.9 (set PYTHON=/path/to/python3)" >&2
  exit 1
fi

# The stamp is written last: an interrupted install has none and is rebuilt from scratch.
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  -r "$requirements" >&2
echo "$want" >"$stamp"
echo "$venv/bin/python"
