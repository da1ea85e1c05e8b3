/* stats.h: fixed-order reduction of per-path values into estimates.
 * Paths are summed in chunks of MCP_CHUNK_PATHS aligned to absolute path
 * numbers, each chunk by the same pairwise tree on the CPU and the GPU, and
 * the chunk sums by one binary tree over the chunk numbers (mcpi_tree): the
 * result depends neither on how the paths were tiled or which threads
 * computed them, nor on how the chunks were cut into slices whose trees are
 * merged afterwards. */
#ifndef MCP_STATS_H
#define MCP_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "mcprice.h"
#include "models/tree_nodes.h"

typedef struct mcpi_accum {
  double sum, sumsq;
  uint64_t n;
} mcpi_accum;

/* Pairwise sums of v[0..n) and of its squares; n <= MCP_CHUNK_PATHS, the
 * missing values count as 0. */
void mcpi_chunk_sums(const double *v, size_t n, double *sum, double *sumsq);

/* The chunk sums of ncol columns over chunks c0 .. c1 - 1 of a replicate,
 * combined by the tree whose node (level l, index i) is the sum of chunks
 * i 2^l .. (i + 1) 2^l - 1, its left child plus its right.  The chunks
 * arrive in order; the tree keeps the completed nodes that have no sibling
 * yet (a stack, the same shape for every column): the aligned blocks that
 * make up c0 .. c1 - 1.  Pushing the nodes of the trees of consecutive
 * ranges in order builds the nodes of their union, so slices merge to the
 * bits of one run; a whole range 0 .. C - 1 folds its nodes, the binary
 * digits of C, largest first. */
typedef struct mcpi_tree {
  uint64_t c0, c1, paths;
  size_t ncol, depth, cap;
  unsigned char *level; /* cap nodes, bottom first */
  uint64_t *index;
  double *val; /* column col's node k: val[2 (col cap + k)] and + 1, sum and sum of squares */
} mcpi_tree;

/* A tree of ncol columns that will hold chunks from c0 of a replicate of
 * chunks in all; 0 or MCP_ERR_NO_MEMORY. */
int mcpi_tree_init(mcpi_tree *t, size_t ncol, uint64_t c0, uint64_t chunks);
void mcpi_tree_free(mcpi_tree *t);
/* Adds the nodes of the next nchunks chunks at level (t->c1 a multiple of
 * 2^level; each node the sum of its halves, as the tree would have made it
 * of its chunks), holding n paths: column col's node c at part[2 (col nodes
 * + c)] and + 1, nodes = mcpi_tree_nodes(nchunks, level). */
void mcpi_tree_add(mcpi_tree *t, const double *part, uint64_t nchunks, unsigned level,
                   uint64_t n);
/* Adds a node of another tree (level, index; column col's values at
 * v[2 col] and + 1), which must start at t->c1: 0, or -1 when it does not;
 * the other tree's paths are the caller's to add. */
int mcpi_tree_push(mcpi_tree *t, unsigned level, uint64_t index, const double *v);
/* The ncol accumulators of a tree that holds its replicate's chunks from 0,
 * into a[col stride]. */
void mcpi_tree_finish(const mcpi_tree *t, mcpi_accum *a, size_t stride);

/* Mean, standard error of the mean and 95% interval. */
void mcpi_estimate(const mcpi_accum *a, mcp_estimate *e);
/* How many standard errors of an estimate from reps replicates (QMC's
 * scramblings) match z of a normal's: Student's t with reps - 1 degrees of
 * freedom at that tail, from t2_31 (its quantiles for 2 to 31 replicates)
 * and Cornish-Fisher beyond (within 0.01); z itself for one replicate. */
double mcpi_t_limit(double z, const double t2_31[30], unsigned reps);
/* The same from reps independent replicates a[0], a[stride], ...: the mean
 * of their means, with the error from the spread of those means (QMC). */
void mcpi_estimate_replicates(const mcpi_accum *a, size_t stride, unsigned reps,
                              mcp_estimate *e);

#define MCPI_Z95 1.959963984540054

#endif
