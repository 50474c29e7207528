#!/usr/bin/env bash
# kiln bench on a device with tiers times the final tier only: with one warm-up run or none
# (the cpu device's auto policy queues the optimising compile at a program's second run;
# without a warm-up, kiln bench's settling runs make it), every timed run is an optimised
# one; the tier line gives the first run of each tier, the fast-start one being the run
# line's first run (the first execution, not the first timed one). usage: bench_tier.sh
# KILN PROGRAM
set -u
kiln=$1 program=$2 runs=20
for warmup in 1 0; do
out=$(KILN_CPU_TIER=auto "$kiln" bench "$program" --device cpu --warmup $warmup --iterations $runs) ||
  { echo "kiln bench exited with $?"; exit 1; }
printf '%s\n' "$out"
line=$(printf '%s\n' "$out" | grep '^tier: ') || { echo "no tier line"; exit 1; }
optimised=$(printf '%s\n' "$line" | sed -nE 's/^tier: optimised; runs: [0-9]+ fast-start, ([0-9]+) optimised.*/\1/p')
if [ -z "$optimised" ] || [ "$optimised" -lt $runs ]; then
  echo "expected the $runs timed runs on the optimised tier: $line"
  exit 1
fi
first=$(printf '%s\n' "$out" | sed -nE 's/^run: .*; first run ([0-9.]+) us$/\1/p')
firsts=$(printf '%s\n' "$line" | sed -nE 's/.*; first run ([0-9.]+) us fast-start, ([0-9.]+) us optimised$/\1 \2/p')
if [ -z "$firsts" ] || [ "${firsts%% *}" != "$first" ]; then
  echo "expected the first run of each tier, the fast-start one the run line's first run ($first us): $line"
  exit 1
fi
echo "ok (--warmup $warmup): the $runs timed runs used the optimised tier; first runs: ${firsts% *} us fast-start, ${firsts#* } us optimised"
done
