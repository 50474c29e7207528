#!/usr/bin/env bash
# Sharded programs measured (issue 16): an all-reduce, a data-parallel training step and
# tensor-parallel MLPs over N devices of one process (or of each of P processes of one mpirun
# launch, with --processes), Kiln's devices against XLA:CPU's in the same processes; what is
# measured and how: bench/models/sharded.py.
#
#   bench/sharded.sh [--kiln PATH] [--devices N] [--processes P] [--rounds N] [--iterations N]
#                    [--only NAME,...]
#
# bench/run --sharded: its pinned environment (bench/.venv) and, without --kiln, its build of
# build/ (the PJRT plugin beside the kiln CLI).
for a in "$@"; do
  case "$a" in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
done
exec "$(dirname "${BASH_SOURCE[0]}")/run" --sharded "$@"
