/* stencil_regcache.cu: the benchmark's regcache stencil kernels. */
#include "bench/stencil_bench.cuh"

BENCH_LAUNCHER(bench_sweep_regcache, MCPI_ST_REGCACHE)
