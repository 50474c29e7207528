# Sourced by the .npy tests: npy_write FILE DESCR FORTRAN_ORDER SHAPE BYTES writes a version
# 1.0 .npy file (BYTES: its data as printf escapes, e.g. '\x00\x3c').
npy_write() {
  local dict="{'descr': '$2', 'fortran_order': $3, 'shape': $4, }"
  local pad=$((64 - (10 + ${#dict} + 1) % 64))
  dict="$dict$(printf '%*s' $((pad % 64)) '')"
  local len=$((${#dict} + 1))
  { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $((len & 255)))\\x$(printf %02x $((len >> 8)))"
    printf '%s\n' "$dict"; printf "$5"; } >"$1"
}
