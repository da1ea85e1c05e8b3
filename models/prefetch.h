/* prefetch.h: the path kernel's options (precision, prefetch strategy and
 * distance, shared-memory padding, block size) and the compiled set of
 * distances, for the host code and the kernels alike. */
#ifndef MCP_PREFETCH_H
#define MCP_PREFETCH_H

#include <stddef.h>
#include "mcprice.h"

#define MCPI_NSTRATEGIES 7
#define MCPI_NDISTANCES 7
#define MCPI_MAX_PADDING 32
#define MCPI_DEFAULT_DISTANCE 4
#define MCPI_NPLACEMENTS 4
#define MCPI_PLACEMENT_NAMES_TEXT "auto, registers, local or shared"
/* The register placement's compiled capacities (elements), smallest first;
 * the largest is MCP_MAX_REGISTER_ARRAY. */
#define MCPI_NREG_CAPACITIES 2
static const int mcpi_reg_capacities[MCPI_NREG_CAPACITIES] = {8, 16};

/* The distances (and unroll factors) compiled into the kernels; the list as
 * text is for error messages. */
static const int mcpi_prefetch_distances[MCPI_NDISTANCES] = {1, 2, 4, 6, 8, 12, 16};
#define MCPI_PREFETCH_DISTANCES_TEXT "1, 2, 4, 6, 8, 12, 16"
#define MCPI_PREFETCH_NAMES_TEXT \
  "none, unroll, scalar-batch, smem-batch, scalar-rolling, smem-rolling, smem-async"

static inline int mcpi_prefetch_distance_index(int d)
{
  for (int i = 0; i < MCPI_NDISTANCES; i++)
    if (mcpi_prefetch_distances[i] == d)
      return i;
  return -1;
}

static inline int mcpi_prefetch_uses_smem(mcp_prefetch s)
{
  return s == MCP_PREFETCH_SMEM_BATCH || s == MCP_PREFETCH_SMEM_ROLLING ||
         s == MCP_PREFETCH_SMEM_ASYNC;
}

typedef struct mcpi_kernel_options {
  mcp_precision precision;
  mcp_prefetch strategy;
  int distance; /* one of mcpi_prefetch_distances */
  int padding;  /* 0 .. MCPI_MAX_PADDING or MCP_PADDING_INTERLEAVED */
  int block;    /* threads per block */
  mcp_placement placement; /* of per-path arrays: registers, local or shared, not auto */
  int fused;    /* normals computed in the path kernel (the view's seed and p0), not read */
  int small;    /* single asset: the job-shaped state it fits (mcpi_job_small) */
  int checked;  /* the Heston plain shape's fused kernel steps its check's coarse path too */
} mcpi_kernel_options;

/* Checks a strategy, distance and padding; NULL when valid, else what was
 * expected. */
const char *mcpi_prefetch_check(mcp_prefetch s, int distance, int padding);

#endif
