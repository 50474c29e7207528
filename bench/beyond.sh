#!/usr/bin/env bash
# Programs beyond the zoo (issue 11): JAX operations and small blocks real models use (exact
# GELU, top_k, segment_sum, pooling gradients, ...), Kiln's cpu device against XLA:CPU in
# the same rounds; what is measured and how: bench/models/beyond.py.
#
#   bench/beyond.sh [--kiln PATH] [--only NAME,...] [--rounds N]
#
# bench/run --beyond: its pinned environment (bench/.venv) and, without --kiln, its build of
# build/; the programs go to bench/models/beyond/.
for a in "$@"; do
  case "$a" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
done
exec "$(dirname "${BASH_SOURCE[0]}")/run" --beyond "$@"
