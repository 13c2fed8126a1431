#!/usr/bin/env bash
# Builds a project-local venv from a pinned requirements.txt and prints the venv's python: the
# examples' install.sh scripts call it. Idempotent: a venv built from the same requirements.txt
# (its SHA-256 is stamped inside) is reused as it is.
#   bash examples/install-venv.sh REQUIREMENTS VENV MIN_MINOR   (MIN_MINOR 9: Python ≥ 3.9)
# Needs Python 3 with venv and pip (PYTHON=… to choose one); installs only from PyPI (and
# PIP_FIND_LINKS, when set).
set -euo pipefail

(($# == 3)) || { echo "usage: install-venv.sh REQUIREMENTS VENV MIN_MINOR" >&2; exit 2; }
requirements=$1 venv=$2 min_minor=$3
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
if [[ -z "$python" ]] ||
  ! "$python" -c "import sys; sys.exit(sys.version_info < (3, $min_minor))" 2>/dev/null; then
  echo "install.sh: needs Python >= 3.$min_minor (set PYTHON=/path/to/python3)" >&2
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
