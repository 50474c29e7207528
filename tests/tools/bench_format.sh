#!/usr/bin/env bash
# Runs `kiln bench` and checks its report: exit status 0 and exactly the four lines of
# tools/bench.c, in order, with min <= median <= max and the number of runs expected.
# usage: bench_format.sh KILN RUNS ARGS...   (RUNS: a number, or "auto" for at least 10)
set -u
kiln=$1 runs=$2
shift 2
out=$("$kiln" bench "$@") || { echo "kiln bench $* exited with $?"; exit 1; }
printf '%s\n' "$out"
num='[0-9]+\.[0-9]{2}'
patterns=(
  "^compile: $num ms\$"
  "^run: median $num us \\(min $num, max $num\\) over [0-9]+ runs\$"
  "^temporaries: ([0-9]+ bytes|not reported)\$"
  "^peak memory: [0-9]+ bytes \\(([0-9]+ above the resident size before the runs|the whole process's: its high-water mark could not be reset)\\)\$"
)
mapfile -t lines <<<"$out"
if [ "${#lines[@]}" -ne 4 ]; then
  echo "expected 4 lines, got ${#lines[@]}"
  exit 1
fi
for i in 0 1 2 3; do
  if ! printf '%s\n' "${lines[$i]}" | grep -Eq "${patterns[$i]}"; then
    echo "line $((i + 1)) does not match ${patterns[$i]}"
    exit 1
  fi
done
read -r median min max n < <(printf '%s\n' "${lines[1]}" |
  sed -E 's/^run: median ([0-9.]+) us \(min ([0-9.]+), max ([0-9.]+)\) over ([0-9]+) runs$/\1 \2 \3 \4/')
if ! awk -v a="$min" -v b="$median" -v c="$max" 'BEGIN { exit !(a <= b && b <= c) }'; then
  echo "min $min <= median $median <= max $max does not hold"
  exit 1
fi
if [ "$runs" = auto ]; then
  [ "$n" -ge 10 ] || { echo "$n runs: at least 10 expected"; exit 1; }
elif [ "$n" -ne "$runs" ]; then
  echo "$n runs: $runs expected"
  exit 1
fi
read -r peak above < <(printf '%s\n' "${lines[3]}" | sed -E 's/^peak memory: ([0-9]+) bytes \(([0-9]*).*/\1 \2/')
if [ "$peak" -le 0 ] || { [ -n "$above" ] && [ "$above" -gt "$peak" ]; }; then
  echo "peak $peak, $above above it before: not plausible"
  exit 1
fi
echo "ok"
