# Shared by the Elixir tests (sourced): the SDK tests' checks (tests/sdk/lib.sh), a copy of
# the package outside the source tree, and Mix with nothing from the caller's set-up.
# usage in a test: . lib.sh; elixir_copy SOURCE_DIR WORK_DIR  (then $clone is the copy)
. "$(dirname "${BASH_SOURCE[0]}")/../sdk/lib.sh"

if ! command -v mix >/dev/null || ! command -v elixir >/dev/null; then
  echo "skipped: Elixir is not installed (apt-get install elixir erlang-nox erlang-dev)"
  exit "$SKIP"
fi

# elixir_copy SOURCE WORK: copies the package and the digits example (what the release
# example reads) to WORK/clone, with the source tree's relative layout and no _build.
elixir_copy() {
  local src=$1 work=$2
  rm -rf "$work"
  mkdir -p "$work/clone"
  tar -C "$src" --exclude=_build --exclude=deps -cf - bindings/elixir examples/digits | tar -C "$work/clone" -xf -
  clone=$work/clone
  export MIX_HOME=$work/mix-home HEX_OFFLINE=1
}
