#!/usr/bin/env bash
# Runs `kiln check` over a folder and fails when fewer cases pass than the figure recorded
# in tests/CMakeLists.txt (so a regression in the interpreter cannot go unnoticed).
# usage: check_min_passed.sh KILN FOLDER MIN_PASSED [DEVICE]
set -u
kiln=$1 folder=$2 min=$3 device=${4:-interp}
if [ ! -d "$folder" ]; then
  echo "conformance folder $folder not found: skipped"
  exit 77
fi
out=$("$kiln" check --device "$device" "$folder" 2>&1)
summary=$(printf '%s\n' "$out" | tail -n 1)
printf '%s\n' "$out" | tail -n 40
passed=$(printf '%s\n' "$summary" | sed -n 's/^\([0-9][0-9]*\) passed.*/\1/p')
if [ -z "$passed" ]; then
  echo "no summary line from kiln check"
  exit 1
fi
if [ "$passed" -lt "$min" ]; then
  echo "only $passed cases passed in $folder; the recorded figure is $min"
  exit 1
fi
echo "$passed passed (recorded minimum $min)"
