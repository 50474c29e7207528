#!/usr/bin/env bash
# Set-up and build entry points for a fresh Debian 12 machine.
#   ./tools/dev.sh example   install what is missing, build, run the digits classifier example
#   ./tools/dev.sh test      install what is missing (with Elixir), build (warnings as errors), run all tests
set -euo pipefail
cd "$(dirname "$0")/.."

install_missing() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v cc >/dev/null || missing+=(gcc)
  command -v make >/dev/null || missing+=(make)
  command -v pkg-config >/dev/null || missing+=(pkgconf) # the SDK tests build against the install
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  fi
}

case "${1:-}" in
  example)
    install_missing llvm-14-dev libdnnl-dev libopenblas-pthread-dev
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j"$(nproc)" --target kiln
    # A digits classifier trained with scikit-learn's data and exported from JAX
    # (examples/digits/export.py), on a held-out image of a 2.
    ./build/kiln run examples/digits/digits.mlir --input examples/digits/input.npy
    ;;
  test)
    # Elixir and Erlang's NIF headers: the Elixir package's tests (tests/elixir).
    # Open MPI's mpirun: the tests of sharded programs run as several processes (spmd.processes*).
    install_missing llvm-14-dev libdnnl-dev libopenblas-pthread-dev elixir erlang-nox erlang-dev openmpi-bin
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKILN_WERROR=ON >/dev/null
    cmake --build build -j"$(nproc)"
    # The Python tests' environment (jax and pytest, pinned, from PyPI): without it the
    # python.* tests (Kiln as a JAX device, tests/python) are reported as skipped.
    tests/python/venv.sh || echo "warning: no Python test environment: python.* tests skipped" >&2
    # every core: the tests are independent (each its own temporary folders), timing-free
    ctest --test-dir build --output-on-failure -j"$(nproc)"
    ;;
  *)
    echo "usage: ./tools/dev.sh example|test" >&2
    exit 1
    ;;
esac
