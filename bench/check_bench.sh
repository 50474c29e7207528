#!/usr/bin/env bash
# Times `kiln check` over a conformance folder (default: testdata/) against a reference
# measured in the same run: `kiln print` over the same files (parse, verify and print,
# no execution), so the ratio is what running the cases costs on top of reading them.
#   bench/check_bench.sh [KILN] [FOLDER] [DEVICE]   (DEVICE: interp by default)
set -u
kiln=${1:-./build/kiln}
folder=${2:-../shared/conformance/testdata}
device=${3:-interp}
files=$(find "$folder" -name '*.mlir' | sort)
t0=$(date +%s.%N)
for f in $files; do "$kiln" print "$f" >/dev/null 2>&1; done
t1=$(date +%s.%N)
summary=$("$kiln" check --device "$device" "$folder" | tail -n 1)
t2=$(date +%s.%N)
ref=$(echo "$t1 - $t0" | bc)
run=$(echo "$t2 - $t1" | bc)
echo "cores: $(nproc)"
echo "kiln print over $(echo "$files" | wc -l) files (reference): ${ref} s"
echo "kiln check --device $device: ${run} s  ($summary)"
echo "ratio check / print: $(echo "scale=2; $run / $ref" | bc)"
