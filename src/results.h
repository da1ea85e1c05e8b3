/* results.h: per-trade and book estimates (internal view). */
#ifndef MCP_RESULTS_H
#define MCP_RESULTS_H

#include "mcprice.h"

struct mcp_results {
  size_t n;
  char **id;
  double *quantity;
  mcp_estimate *est;
  mcp_engine *engine;
  mcp_estimate total;
  uint64_t paths, seed;
  mcp_backend backend;
  double seconds;
};

mcp_results *mcpi_results_alloc(size_t n);

#endif
