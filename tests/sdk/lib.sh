# Shared by the SDK tests (sourced): the tools CMake found, a fresh install, and checks that
# count "N passed, N failed". Nothing from the caller's environment may help a test pass.
unset LD_LIBRARY_PATH KILN_DEVICE
CMAKE=${KILN_SDK_CMAKE:-cmake}
MAKE=${KILN_SDK_MAKE:-make}
PKG_CONFIG=${KILN_SDK_PKG_CONFIG:-pkg-config}
SDK_CC=${KILN_SDK_CC:-cc}
SDK_CFLAGS=${KILN_SDK_CFLAGS:-}
SKIP=77

sdk_passed=0
sdk_failed=0

# sdk_install BUILD PREFIX [cmake --install options...]: a fresh install into PREFIX.
sdk_install() {
  local build=$1 prefix=$2
  shift 2
  rm -rf "$prefix"
  "$CMAKE" --install "$build" --prefix "$prefix" "$@" >/dev/null
}

# ok NAME / fail NAME WHY: one check's result.
ok() {
  sdk_passed=$((sdk_passed + 1))
  echo "ok   $1"
}
fail() {
  sdk_failed=$((sdk_failed + 1))
  echo "FAIL $1: $2"
}

# expect NAME RC PATTERN... -- COMMAND...: runs COMMAND and checks its exit status (RC, or
# "any") and that its output (stdout and stderr together) matches every extended regular
# expression PATTERN; a PATTERN starting with '!' must not match.
expect() {
  local name=$1 want=$2
  shift 2
  local patterns=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    patterns+=("$1")
    shift
  done
  shift
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  local why=""
  if [ "$want" != any ] && [ "$rc" != "$want" ]; then why="exit status $rc, wanted $want"; fi
  for p in "${patterns[@]}"; do
    if [ "${p:0:1}" = "!" ]; then
      if grep -Eq -- "${p:1}" <<<"$out"; then why="${why:+$why; }output matches '${p:1}'"; fi
    elif ! grep -Eq -- "$p" <<<"$out"; then
      why="${why:+$why; }output lacks '$p'"
    fi
  done
  if [ -z "$why" ]; then
    ok "$name"
  else
    fail "$name" "$why"
    echo "  \$ $*"
    sed 's/^/  | /' <<<"$out"
  fi
}

# sdk_done: prints the tally and exits 1 if any check failed.
sdk_done() {
  echo "$sdk_passed passed, $sdk_failed failed"
  [ "$sdk_failed" -eq 0 ]
}
