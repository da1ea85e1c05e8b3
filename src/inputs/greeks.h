/* greeks.h: a Greeks request (internal view of mcp_greeks). */
#ifndef MCP_GREEK_REQUEST_H
#define MCP_GREEK_REQUEST_H

#include "src/base/error.h"

struct mcp_greeks {
  int want[MCP_GREEK_COUNT];
  double bump[MCP_GREEK_COUNT]; /* gamma and cross gamma use delta's */
  int bump_only;
  int buckets; /* vega and rho by bucket, by adjoint where it applies */
  char err[MCPI_ERRLEN];
};

#endif
