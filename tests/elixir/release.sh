#!/usr/bin/env bash
# elixir.release: one `mix release` of bindings/elixir/examples/digits_server carries
# libkiln.so, every backend plugin and the NIF in priv/; the tarball is unpacked into
# another folder, the build is removed, and the same release boots three times:
#   config/runtime.exs as built (cpu,interp)     -> the default device
#   runtime.exs edited in the unpacked release   -> interp
#   KILN_DEVICES=cuda,DEFAULT, a CUDA plugin in priv/kiln-plugins whose probe fails as a
#   real one does without a driver              -> DEFAULT, logging why cuda was passed over
# Each boot prints the digits answer (class 2, JAX's logits) and the device used.
# usage: release.sh BUILD_DIR SOURCE_DIR WORK_DIR CUDA_STANDIN_PLUGIN DEFAULT_DEVICE
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 work=$3 standin=$4 default=$5
elixir_copy "$src" "$work"
app=$clone/bindings/elixir/examples/digits_server

expect "mix release" 0 -- env -C "$app" KILN_BUILD_DIR="$build" KILN_BUILD_JOBS=2 MIX_ENV=prod mix release
tarball=$app/_build/prod/digits_server-0.1.0.tar.gz
rel=$work/unpacked
mkdir -p "$rel"
expect "the tarball unpacks elsewhere" 0 -- tar -C "$rel" -xzf "$tarball"
rm -rf "$clone"
priv=$(echo "$rel"/lib/kiln-*/priv)
for f in lib/libkiln.so.0 lib/libkiln_nif.so lib/kiln-plugins/libkiln-interp.so "lib/kiln-plugins/libkiln-$default.so"; do
  expect "priv/ carries $f" 0 -- test -f "$priv/$f"
done
expect "the NIF finds libkiln.so beside it" 0 'RUNPATH.*\[\$ORIGIN\]' -- readelf -d "$priv/lib/libkiln_nif.so"
expect "nothing in priv/ names the build folder" 1 -- grep -rl "$build" "$priv"

# Each boot's output is also kept in boots.log, shown at the end.
boot() {
  echo "== boot: runtime.exs $(grep -o 'devices: .*' "$rel"/releases/0.1.0/runtime.exs) $*" >>"$work/boots.log"
  env -i HOME="$work" PATH=/usr/bin:/bin "$@" "$rel/bin/digits_server" eval "DigitsServer.main()" 2>&1 |
    tee -a "$work/boots.log"
}
answer="digits: class 2 on %s:0 \(matches JAX's logits\)"
# shellcheck disable=SC2059
expect "runtime.exs as built runs on $default" 0 "kiln: using $default:0" "$(printf "$answer" "$default")" \
  "!passed over" -- boot
sed -i 's/System.get_env("KILN_DEVICES", "cpu,interp")/"interp"/' "$rel"/releases/0.1.0/runtime.exs
# shellcheck disable=SC2059
expect "runtime.exs changed to interp runs on interp" 0 'kiln: using interp:0 \(devices "interp"\)' \
  "$(printf "$answer" interp)" -- boot
sed -i 's/devices: "interp"/devices: System.get_env("KILN_DEVICES", "cpu,interp")/' "$rel"/releases/0.1.0/runtime.exs
mkdir -p "$priv/kiln-plugins"
cp "$standin" "$priv/kiln-plugins/libkiln-cuda.so"
# shellcheck disable=SC2059
expect "cuda,$default falls back to $default and logs why" 0 "\[warning\] kiln: cuda passed over: no CUDA driver found" \
  "kiln: using $default:0 \(devices \"cuda,$default\"\)" "$(printf "$answer" "$default")" \
  -- boot KILN_DEVICES="cuda,$default"
cat "$work/boots.log"
sdk_done
