#!/usr/bin/env bash
# Runs `kiln bench` and checks its report: exit status 0 and exactly the four lines of
# tools/bench.c (and the tier line of a device with tiers), in order, with min <= median <= p99 <= max, p99 the greatest when there are
# fewer than 100 runs (nearest rank), a first run above 0 and the number of runs expected.
# usage: bench_format.sh KILN RUNS ARGS...   (RUNS: a number, or "auto" for at least 10)
set -u
kiln=$1 runs=$2
shift 2
out=$("$kiln" bench "$@") || { echo "kiln bench $* exited with $?"; exit 1; }
printf '%s\n' "$out"
num='[0-9]+\.[0-9]{2}'
patterns=(
  "^compile: $num ms( \\(code cache (hit|miss)\\)| \\(code cache: [0-9]+ of [0-9]+ modules hit\\))?; first result $num ms\$"
  "^run: median $num us \\(min $num, p99 $num, max $num\\) over [0-9]+ runs; first run $num us\$"
  "^temporaries: ([0-9]+ bytes; interpreted ops: [0-9]+; prepared by runs: [0-9]+|not reported)\$"
  "^peak memory: [0-9]+ bytes \\(([0-9]+ above the resident size before the runs|the whole process's: its high-water mark could not be reset)\\)\$"
)
mapfile -t lines <<<"$out"
tier="^tier: (optimised|fast-start|quick code); runs: [0-9]+ (fast-start|on quick code), [0-9]+ optimised(; optimised code ready $num ms after the compile)?"
tier+="; first run ($num us (fast-start|on quick code)(, $num us optimised)?|$num us optimised)\$"
if [ "${#lines[@]}" -eq 5 ] && printf '%s\n' "${lines[4]}" | grep -Eq "$tier"; then
  unset 'lines[4]'
elif [ "${#lines[@]}" -ne 4 ]; then
  echo "expected 4 lines (and a tier line), got ${#lines[@]}"
  exit 1
fi
for i in 0 1 2 3; do
  if ! printf '%s\n' "${lines[$i]}" | grep -Eq "${patterns[$i]}"; then
    echo "line $((i + 1)) does not match ${patterns[$i]}"
    exit 1
  fi
done
read -r median min p99 max n first < <(printf '%s\n' "${lines[1]}" |
  sed -E 's/^run: median ([0-9.]+) us \(min ([0-9.]+), p99 ([0-9.]+), max ([0-9.]+)\) over ([0-9]+) runs; first run ([0-9.]+) us$/\1 \2 \3 \4 \5 \6/')
if ! awk -v a="$min" -v b="$median" -v p="$p99" -v c="$max" 'BEGIN { exit !(a <= b && b <= p && p <= c) }'; then
  echo "min $min <= median $median <= p99 $p99 <= max $max does not hold"
  exit 1
fi
if [ "$n" -lt 100 ] && [ "$p99" != "$max" ]; then
  echo "p99 $p99 over $n runs: the greatest ($max) expected (nearest rank)"
  exit 1
fi
if ! awk -v f="$first" 'BEGIN { exit !(f > 0) }'; then
  echo "first run $first us: above 0 expected"
  exit 1
fi
case " $* " in
  *" --warmup 0 "*) # no warm-up: the first run is the first timed run
    if ! awk -v a="$min" -v f="$first" -v c="$max" 'BEGIN { exit !(a <= f && f <= c) }'; then
      echo "--warmup 0: first run $first us not within min $min and max $max"
      exit 1
    fi ;;
esac
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
