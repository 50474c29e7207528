#!/usr/bin/env bash
# ctest's entry to the Python tests:  run.sh PLUGIN PYTEST_ARGS...
# PLUGIN is the build's libkiln_pjrt.so. Exits 77 (ctest: skipped) when there is no Python
# environment with jax and pytest (tests/python/venv.sh makes one) or no plugin was built.
#   KILN_PYTHON   the Python to use (default: tests/python/.venv, else bench/.venv)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
plugin=${1:-}
shift || true
py=${KILN_PYTHON:-}
if [ -z "$py" ]; then
  for c in "$here/.venv/bin/python" "$root/bench/.venv/bin/python"; do
    if [ -x "$c" ] && "$c" -c "import jax, pytest" >/dev/null 2>&1; then py=$c; break; fi
  done
fi
if [ -z "$py" ]; then
  echo "skipped: no Python environment with jax and pytest (run tests/python/venv.sh)"
  exit 77
fi
if [ -z "$plugin" ] || [ ! -f "$plugin" ]; then
  echo "skipped: no libkiln_pjrt.so in this build ('$plugin')"
  exit 77
fi
export KILN_PJRT_PLUGIN=$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")
cd "$here"
exec "$py" -m pytest -p no:cacheprovider -q -rfEs "$@"
