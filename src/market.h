/* market.h: underlyings and their model parameters (internal view). */
#ifndef MCP_MARKET_H
#define MCP_MARKET_H

#include "error.h"

typedef enum mcpi_model { MCPI_MODEL_BLACK_SCHOLES = 0 } mcpi_model;

typedef struct mcpi_underlying {
  char *name;
  mcpi_model model;
  double spot, rate, dividend, volatility;
} mcpi_underlying;

struct mcp_market {
  mcpi_underlying *u;
  size_t n, cap;
  char err[MCPI_ERRLEN];
};

/* The underlying called name, or NULL. */
const mcpi_underlying *mcpi_market_find(const mcp_market *m, const char *name);

#endif
