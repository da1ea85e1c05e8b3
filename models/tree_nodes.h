/* tree_nodes.h: the nodes of the fixed summation tree (src/base/stats.h's
 * mcpi_tree) that a tile of chunks makes, for the host's tree and the GPU's
 * chunk sums alike (gcc and nvcc). */
#ifndef MCP_TREE_NODES_H
#define MCP_TREE_NODES_H

#include <stdint.h>
#include "models/mcp_hd.h"

/* The nodes of a tile of nchunks chunks from a multiple of 2^level: its
 * whole nodes of 2^level chunks, then a node for each binary digit of the
 * chunks left, largest first (each starts at a multiple of its size; a
 * tile of 391 chunks at level 8 is 5 nodes, not 391 chunks). */
MCP_HD static inline uint64_t mcpi_tree_nodes(uint64_t nchunks, unsigned level)
{
  uint64_t n = nchunks >> level;
  for (unsigned b = 0; b < level; b++)
    n += nchunks >> b & 1u;
  return n;
}

/* Node g of those: its level, its first chunk (from the tile's) in *first. */
MCP_HD static inline unsigned mcpi_tree_node(uint64_t nchunks, unsigned level, uint64_t g,
                                             uint64_t *first)
{
  uint64_t whole = nchunks >> level, at = whole << level;
  if (g < whole) {
    *first = g << level;
    return level;
  }
  g -= whole;
  unsigned b = level;
  while (b-- > 0)
    if (nchunks >> b & 1u) {
      if (g-- == 0)
        break;
      at += (uint64_t)1 << b;
    }
  *first = at;
  return b < level ? b : 0;
}

#endif
