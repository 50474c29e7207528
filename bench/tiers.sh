#!/usr/bin/env bash
# Tiered execution of the cpu backend (src/backends/cpu/tier.h), measured (issue 14): time to
# first result on the model zoo (Kiln tiered, Kiln compile-first, XLA:CPU), an eager loop of
# 200 small jitted programs through the PJRT plugin against XLA:CPU, and the costs the tier
# policy is calibrated with. Every figure is the median of fresh processes; what is measured
# and how: bench/models/tiers.py.
#
#   bench/tiers.sh [--kiln PATH] [--quick] [--only NAME,...] [--rounds N]
#                  [--parts first,eager,calibrate] [--target S] [--json FILE]
#
# bench/run --tiers: its pinned environment (bench/.venv) and, without --kiln, its build of
# build/; the models are those bench/run exported into bench/models/zoo/. Exit status 1 when
# any measurement failed or XLA:CPU's results disagree with the reference.
for a in "$@"; do
  case "$a" in -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
done
exec "$(dirname "${BASH_SOURCE[0]}")/run" --tiers "$@"
