#!/usr/bin/env bash
# sdk.release: the release case. Kiln is installed into one folder, which is copied into an
# application's priv/ (as an Elixir release or a Python wheel carries it) and then removed;
# with nothing set, the copy picks its device from an ordered list with fallback, given on
# the command line, in a config file, through KILN_DEVICE and through the API:
#   null,interp -> null    interp,null -> interp    cuda,interp -> interp, saying why
# A stand-in CUDA plugin, whose probe fails as a real one does without a GPU driver, shows
# the fallback when the plugin is shipped but the machine cannot run it.
# usage: release.sh BUILD_DIR SOURCE_DIR WORK_DIR CUDA_STANDIN_PLUGIN
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 work=$3 standin=$4
rm -rf "$work"
mkdir -p "$work"

sdk_install "$build" "$work/staging"
priv=$work/release/lib/my_app-0.1.0/priv
mkdir -p "$(dirname "$priv")"
cp -a "$work/staging" "$priv"
rm -rf "$work/staging"
expect "nothing in the copy names the install folder" 1 -- grep -rl "$work/staging" "$priv"

kiln=$priv/bin/kiln
model=$src/examples/digits/digits.mlir
input=$src/examples/digits/input.npy
run() { env -i "$@"; } # nothing from the environment but what a case sets

# --device: the configured order decides.
expect "devices: both plugins found in the copy" 0 "interp +ok" "null +ok" "$priv/lib/kiln-plugins/libkiln-null.so" \
  -- run "$kiln" devices
expect "--device null,interp picks null" 0 "uses null:0" -- run "$kiln" devices --device null,interp
expect "--device null,interp runs on null" 1 "null backend: compile is not implemented" "!argmax" \
  -- run "$kiln" run "$model" --input "$input" --device null,interp
expect "--device interp,null runs on interp" 0 "argmax: 2" "!null" \
  -- run "$kiln" run "$model" --input "$input" --device interp,null
expect "--device cuda,interp without a CUDA plugin" 0 "cuda passed over: no plugin found \(no libkiln-cuda.so in $priv/lib/kiln-plugins\)" \
  "running on interp:0" "argmax: 2" -- run "$kiln" run "$model" --input "$input" --device cuda,interp

# A CUDA plugin shipped in the release's own plugin folder, on a machine without a GPU.
mkdir -p "$priv/kiln-plugins"
cp "$standin" "$priv/kiln-plugins/libkiln-cuda.so"
cat >"$priv/kiln.conf" <<CONF
# the release's configuration: its own plugin folder (relative to this file), then the list
plugin_path = kiln-plugins
devices = cuda,interp
CONF
expect "config: cuda,interp falls back to interp and says why" 0 "cuda passed over: no CUDA driver found" \
  "running on interp:0" "argmax: 2" -- run "$kiln" run "$model" --input "$input" --config "$priv/kiln.conf"
expect "config: kiln devices lists the shipped cuda plugin" 0 "cuda +no +no CUDA driver found" \
  "$priv/kiln-plugins/libkiln-cuda.so" "uses interp:0" -- run "$kiln" devices --config "$priv/kiln.conf"
sed -i 's/^devices = .*/devices = null,interp/' "$priv/kiln.conf"
expect "config: null,interp picks null" 1 "null backend: compile is not implemented" \
  -- run "$kiln" run "$model" --input "$input" --config "$priv/kiln.conf"
sed -i 's/^devices = .*/devices = interp,null/' "$priv/kiln.conf"
expect "config: interp,null picks interp" 0 "argmax: 2" "!null" \
  -- run "$kiln" run "$model" --input "$input" --config "$priv/kiln.conf"
expect "--device overrides the config file" 1 "null backend: compile is not implemented" \
  -- run "$kiln" run "$model" --input "$input" --config "$priv/kiln.conf" --device null,interp

# KILN_DEVICE overrides both (and is never required: every case above ran without it).
expect "KILN_DEVICE=null,interp overrides --device" 1 "null backend: compile is not implemented" \
  -- run KILN_DEVICE=null,interp "$kiln" run "$model" --input "$input" --device interp,null
expect "KILN_DEVICE=interp,null overrides the config" 0 "argmax: 2" "!null" \
  -- run KILN_DEVICE=interp,null "$kiln" run "$model" --input "$input" --config "$priv/kiln.conf"
expect "KILN_DEVICE=cuda,interp falls back and says why" 0 "cuda passed over: no CUDA driver found" \
  "running on interp:0" "argmax: 2" -- run KILN_DEVICE=cuda,interp "$kiln" run "$model" --input "$input" \
  --config "$priv/kiln.conf"

# Through the API, as the release's own code (a NIF's load, config/runtime.exs) does: an
# application built against the copied SDK passes the list and priv/kiln-plugins in the
# client options.
if command -v "$MAKE" >/dev/null && command -v "$PKG_CONFIG" >/dev/null; then
  cp -r "$src/examples/embed" "$work/embed"
  rm -f "$work/embed/embed"
  expect "API: build examples/embed against the copy" 0 -- env PKG_CONFIG_PATH="$priv/lib/pkgconfig" "$MAKE" -C "$work/embed" \
    CC="$SDK_CC" PKG_CONFIG="$PKG_CONFIG" CFLAGS="-O2 -Wall -Wextra -Werror $SDK_CFLAGS" LDFLAGS="$SDK_CFLAGS"
  embed=$work/embed/embed
  expect "API: null,interp runs on null" 1 "device: null:0" "null backend: compile is not implemented" \
    -- run "$embed" --device null,interp "$model" "$input"
  expect "API: interp,null runs on interp" 0 "device: interp:0" "argmax: 2" -- run "$embed" --device interp,null "$model" "$input"
  expect "API: cuda,interp with priv/kiln-plugins falls back and says why" 0 \
    "cuda passed over: no CUDA driver found" "device: interp:0" "argmax: 2" \
    -- run "$embed" --device cuda,interp --plugins "$priv/kiln-plugins" "$model" "$input"
else
  echo "skip the API cases: no make or pkg-config"
fi
sdk_done
