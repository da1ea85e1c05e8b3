#!/bin/sh
# mpi_scale.sh [RANKS...]: bench/mpi_scale under mpirun for each count of
# ranks (default 1 2 4), the host's cores shared out among them (at least
# one OpenMP thread a rank): the cost of cutting a CPU run into ranks.
cd "$(dirname "$0")/.." || exit 1
cores=$(nproc)
run="mpirun --oversubscribe --bind-to none"
[ "$(id -u)" = 0 ] && run="$run --allow-run-as-root"
echo "| book | ranks | OpenMP threads a rank | median (ms) | same bits as one process |"
echo "|---|---|---|---|---|"
for r in ${*:-1 2 4}; do
  t=$((cores / r))
  [ "$t" -lt 1 ] && t=1
  $run -n "$r" -x OMP_NUM_THREADS=$t ./bench/mpi_scale || exit 1
done
