#!/usr/bin/env bash
# Symbolic shapes measured (issue 13): shape-polymorphic JAX programs compiled once by Kiln and
# run at several sizes, against Kiln's static compile per size and XLA:CPU per size; what is
# measured and how: bench/models/dynamic.py.
#
#   bench/dynamic.sh [--kiln PATH] [--only NAME,...] [--sizes 1,7,64,1000] [--rounds N] [--iterations N]
#
# bench/run --dynamic: its pinned environment (bench/.venv) and, without --kiln, its build of
# build/; the exports go to bench/models/dynamic/.
for a in "$@"; do
  case "$a" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
done
exec "$(dirname "${BASH_SOURCE[0]}")/run" --dynamic "$@"
