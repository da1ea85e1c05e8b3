/* stats.h: fixed-order reduction of per-path values into estimates.
 * Paths are summed in chunks of MCP_CHUNK_PATHS aligned to absolute path
 * numbers, each chunk by the same pairwise tree on the CPU and the GPU, and
 * the chunk sums are added in path order: the result does not depend on how
 * the paths were tiled or which threads computed them. */
#ifndef MCP_STATS_H
#define MCP_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "mcprice.h"

typedef struct mcpi_accum {
  double sum, sumsq;
  uint64_t n;
} mcpi_accum;

/* Pairwise sums of v[0..n) and of its squares; n <= MCP_CHUNK_PATHS, the
 * missing values count as 0. */
void mcpi_chunk_sums(const double *v, size_t n, double *sum, double *sumsq);

/* Adds the chunk sums part[2c], part[2c+1] of nchunks chunks holding n paths. */
void mcpi_accum_add(mcpi_accum *a, const double *part, size_t nchunks, uint64_t n);

/* Mean, standard error of the mean and 95% interval. */
void mcpi_estimate(const mcpi_accum *a, mcp_estimate *e);
/* The same from reps independent replicates a[0], a[stride], ...: the mean
 * of their means, with the error from the spread of those means (QMC). */
void mcpi_estimate_replicates(const mcpi_accum *a, size_t stride, unsigned reps,
                              mcp_estimate *e);

#define MCPI_Z95 1.959963984540054

#endif
