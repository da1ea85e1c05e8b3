/* stencil_smem.cu: the benchmark's smem stencil kernels. */
#include "bench/stencil_bench.cuh"

BENCH_LAUNCHER(bench_sweep_smem, MCPI_ST_SMEM)
