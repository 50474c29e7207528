#!/usr/bin/env bash
# sdk.sizes: the stripped size of libkiln.so and of each plugin (what `cmake --install
# --strip` ships); fails when libkiln.so is above LIMIT bytes. With a sanitizer build the
# sizes are only reported (the test is skipped).
# usage: sizes.sh STRIP LIMIT report|check LIBKILN OTHER... (plugins, the CLI)
set -euo pipefail
strip=$1 limit=$2 mode=$3 lib=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stripped() {
  "$strip" -o "$tmp/s" "$1"
  stat -c %s "$tmp/s"
}
printf '%-24s %12s %12s\n' file bytes stripped
libsize=$(stripped "$lib")
printf '%-24s %12d %12d\n' "$(basename "$lib")" "$(stat -c %s "$lib")" "$libsize"
for f in "$@"; do
  printf '%-24s %12d %12d\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(stripped "$f")"
done
if [ "$mode" = report ]; then
  echo "skipped: a sanitizer build; the limit is checked on normal builds"
  exit 77
fi
if [ "$libsize" -gt "$limit" ]; then
  echo "FAIL: stripped $(basename "$lib") is $libsize bytes, above the limit of $limit"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "ok: stripped $(basename "$lib") is $libsize bytes (limit $limit)"
echo "1 passed, 0 failed"
