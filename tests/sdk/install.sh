#!/usr/bin/env bash
# sdk.install: `cmake --install` lays out the SDK: exactly the expected files, the soname
# links, RPATHs relative to $ORIGIN (nothing points back at the build or install folder), a
# pkg-config file that follows the tree when it moves; the `runtime` component alone
# carries no headers.
# usage: install.sh BUILD_DIR WORK_DIR VERSION "PLUGIN..."
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 work=$2 version=$3 plugins=$4
major=${version%%.*}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
sdk_install "$build" "$prefix"

# Exactly these files (the export file of each build type aside: kilnTargets-<type>.cmake).
expected="bin/kiln
include/kiln/backend.h
include/kiln/kiln.h
include/kiln/plugin/base/arena.h
include/kiln/plugin/base/source.h
include/kiln/plugin/base/strbuf.h
include/kiln/plugin/ir/elem.def
include/kiln/plugin/ir/ir.h
include/kiln/plugin/ir/ops.def
include/kiln/plugin/ir/print.h
include/kiln/plugin/ir/scalar.h
include/kiln/plugin/runtime/element.h
include/kiln/status.h
lib/cmake/kiln/kilnConfig.cmake
lib/cmake/kiln/kilnConfigVersion.cmake
lib/cmake/kiln/kilnTargets.cmake
$(for p in $plugins; do echo "lib/kiln-plugins/libkiln-$p.so"; done | LC_ALL=C sort)
lib/libkiln.so
lib/libkiln.so.$major
lib/libkiln.so.$version
lib/libkiln_pjrt.so
lib/pkgconfig/kiln-plugin.pc
lib/pkgconfig/kiln.pc"
found=$(cd "$prefix" && find . \( -type f -o -type l \) ! -name 'kilnTargets-*.cmake' | sed 's|^\./||' | LC_ALL=C sort)
if [ "$found" = "$expected" ]; then ok "the installed files"; else
  fail "the installed files" "they differ from the expected list"
  diff <(echo "$expected") <(echo "$found") | sed 's/^/  | /' || true
fi
if ls "$prefix"/lib/cmake/kiln/kilnTargets-*.cmake >/dev/null 2>&1; then ok "kilnTargets-<type>.cmake"; else
  fail "kilnTargets-<type>.cmake" "missing"
fi

# The versioned library: soname libkiln.so.MAJOR and the two links.
expect "soname libkiln.so.$major" any "SONAME.*\[libkiln\.so\.$major\]" -- readelf -d "$prefix/lib/libkiln.so.$version"
expect "libkiln.so.$major -> libkiln.so.$version" 0 "^libkiln\.so\.$version$" -- readlink "$prefix/lib/libkiln.so.$major"
expect "libkiln.so -> libkiln.so.$major" 0 "^libkiln\.so\.$major$" -- readlink "$prefix/lib/libkiln.so"

# RPATHs: relative to each binary's own folder only, but for the system folder of the serial
# OpenBLAS in those of the plugins that use LAPACK (all but null).
expect "bin/kiln finds ../lib" 0 'RUNPATH.*\[\$ORIGIN/\.\./lib\]' -- readelf -d "$prefix/bin/kiln"
for p in $plugins; do
  rp='RUNPATH.*\[\$ORIGIN/\.\.:/usr/lib/[^]:]*/openblas-pthread\]'
  [ "$p" = null ] && rp='RUNPATH.*\[\$ORIGIN/\.\.\]'
  expect "libkiln-$p.so finds libkiln.so in .." 0 "$rp" \
    -- readelf -d "$prefix/lib/kiln-plugins/libkiln-$p.so"
done
expect "libkiln_pjrt.so finds libkiln.so beside it" 0 'RUNPATH.*\[\$ORIGIN\]' -- readelf -d "$prefix/lib/libkiln_pjrt.so"
expect "libkiln_pjrt.so exports only GetPjrtApi" 0 '^[0-9a-f]+ T GetPjrtApi$' '! [A-Za-z] [^G][^ ]*$' \
  -- nm -D --defined-only "$prefix/lib/libkiln_pjrt.so"
expect "libkiln.so has no RPATH" 0 '!R(UN)?PATH' -- readelf -d "$prefix/lib/libkiln.so.$version"
expect "no text file names the build or install folder" 1 -- grep -rIl -e "$build" -e "$prefix" "$prefix"

# Moved elsewhere, with nothing set, the CLI finds its library and its plugins.
mv "$prefix" "$work/moved"
expect "moved: kiln devices" 0 "interp +ok" "null +ok" "$work/moved/lib/kiln-plugins/libkiln-interp.so" \
  "uses ${KILN_TEST_DEFAULT_DEVICE:-interp}:0" -- env -i "$work/moved/bin/kiln" devices
expect "moved: kiln --version" 0 "$version" -- env -i "$work/moved/bin/kiln" --version
if command -v "$PKG_CONFIG" >/dev/null; then
  pc() { PKG_CONFIG_PATH=$work/moved/lib/pkgconfig "$PKG_CONFIG" "$@"; }
  expect "pkg-config --modversion kiln" 0 "^$version$" -- pc --modversion kiln
  expect "pkg-config --libs kiln" 0 "^-L$work/moved/[^ ]*lib -lkiln" -- pc --libs kiln
  expect "pkg-config: the plugin folder" 0 -- test -f "$(pc --variable=plugindir kiln)/libkiln-interp.so"
  expect "pkg-config --cflags kiln-plugin" 0 "include/kiln/plugin" -- pc --cflags kiln-plugin
else
  echo "skip pkg-config checks: no pkg-config"
fi

# What a release carries: the runtime component, without headers or build files.
sdk_install "$build" "$work/runtime" --component runtime
found=$(cd "$work/runtime" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
want="bin/kiln $(for p in $plugins; do echo "lib/kiln-plugins/libkiln-$p.so"; done | LC_ALL=C sort | tr '\n' ' ')"
if [ "$found" = "${want}lib/libkiln.so.$major lib/libkiln.so.$version lib/libkiln_pjrt.so " ]; then
  ok "the runtime component"
else
  fail "the runtime component" "it holds: $found"
fi
sdk_done
