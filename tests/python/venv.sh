#!/usr/bin/env bash
# Makes the Python tests' environment, tests/python/.venv, from requirements.txt (pinned, from
# PyPI; downloaded here only, never while the tests run). Does nothing when it is up to date.
#   KILN_PY_VENV   where to make it (default tests/python/.venv)
#   KILN_BENCH_PYTHON   the python3 to make it with (default python3.11, else python3)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv=${KILN_PY_VENV:-$here/.venv}
req=$here/requirements.txt
if [ -x "$venv/bin/python" ] && cmp -s "$req" "$venv/.requirements"; then exit 0; fi
py=${KILN_BENCH_PYTHON:-}
if [ -z "$py" ]; then
  for c in python3.11 python3; do
    if command -v "$c" >/dev/null 2>&1; then py=$c; break; fi
  done
fi
[ -n "$py" ] || { echo "tests/python/venv.sh: no python3 found" >&2; exit 2; }
echo "tests/python/venv.sh: setting up $venv" >&2
if ! "$py" -m venv "$venv" 2>/dev/null; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    "$py" -m venv "$venv"
  else
    echo "tests/python/venv.sh: '$py -m venv' failed (install python3-venv)" >&2; exit 2
  fi
fi
"$venv/bin/python" -m pip install -q --upgrade pip >&2
"$venv/bin/python" -m pip install -q -r "$req" >&2
cp "$req" "$venv/.requirements"
