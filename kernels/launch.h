/* launch.h: the CUDA kernels as C functions for the host code in src/. */
#ifndef MCP_LAUNCH_H
#define MCP_LAUNCH_H

#include <cuda_runtime_api.h>
#include "path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One thread a path: paths i < n of a tile whose normals are z[s ld + i];
 * writes the payoff columns pay[col ld + i]. job points to device arrays. */
cudaError_t mcpi_launch_paths(mcpi_job_view job, const double *z, size_t ld, size_t n,
                              double *pay, int block, cudaStream_t stream);

/* The canonical normals (rng.h) of steps step0 <= s < step0 + nsteps and
 * paths p0 + i, i < n, into z[(s - step0) ld + i]; p0 a multiple of 4. */
cudaError_t mcpi_launch_normals(uint64_t seed, size_t step0, size_t nsteps, uint64_t p0,
                                size_t n, double *z, size_t ld, cudaStream_t stream);

/* Chunk sums of ncol columns of n values (stride ld): part[(col nch + c) 2 + {0,1}]
 * = sum and sum of squares of chunk c, nch = ceil(n / MCP_CHUNK_PATHS), computed
 * by the same pairwise tree as mcpi_chunk_sums. */
cudaError_t mcpi_launch_chunk_sums(const double *pay, size_t ld, size_t n, size_t ncol,
                                   double *part, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
