#!/usr/bin/env bash
# Runs the scalability benchmark (docs/benchmarks.md) with the given argos
# binary and prints the BENCH lines (plus set-up time) of each run.
#   scripts/bench.sh build/argos            # the default matrix
#   RUNS=3 MATRIX="10000_e1:2" scripts/bench.sh build/argos
set -euo pipefail
argos=$(realpath "${1:-build/argos}")
dir=$(cd "$(dirname "$0")/../experiments/scalability" && pwd)
runs=${RUNS:-1}
matrix=${MATRIX:-"1000_e1:0 1000_e1:2 10000_e1:0 10000_e1:2 10000_e4:2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "machine: $(nproc) cores, $(uname -m); runs per configuration: $runs"
for cfg in $matrix; do
  file=${cfg%%:*}; threads=${cfg##*:}
  for ((r = 1; r <= runs; r++)); do
    out=$("$argos" -z -c "$dir/scalability_$file.argos" --threads "$threads" 2>&1)
    setup=$(sed -n 's/.*set-up took \([0-9.]*\) s.*/\1/p' <<<"$out")
    bench=$(grep '^BENCH' <<<"$out")
    echo "scalability_$file threads=$threads setup_s=$setup $bench"
  done
done
