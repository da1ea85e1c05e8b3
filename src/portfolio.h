/* portfolio.h: trades and run settings (internal view). */
#ifndef MCP_PORTFOLIO_H
#define MCP_PORTFOLIO_H

#include "error.h"
#include "payoff.h"

typedef struct mcpi_trade {
  char *id, *underlying;
  mcpi_product product;
  mcp_option_type type;
  double strike, maturity, quantity;
  size_t nfix;   /* fixing times; a European has one, its maturity */
  double *fix;
} mcpi_trade;

struct mcp_portfolio {
  mcpi_trade *t;
  size_t n, cap;
  uint64_t paths, seed;
  unsigned steps_per_year;
  double *grid; /* explicit simulation times, or NULL */
  size_t ngrid;
  mcp_backend backend;
  mcp_precision precision;
  mcp_prefetch prefetch;
  int distance, padding; /* of the prefetch strategy */
  char err[MCPI_ERRLEN];
};

#endif
