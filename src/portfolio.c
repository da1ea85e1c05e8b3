/* portfolio.c: building a portfolio and its run settings through API calls. */
#include <stdlib.h>
#include <string.h>
#include "portfolio.h"
#include "prefetch.h"
#include "validate.h"

mcp_status mcp_portfolio_create(mcp_portfolio **portfolio)
{
  if (!portfolio)
    return MCP_ERR_ARGUMENT;
  mcp_portfolio *p = calloc(1, sizeof *p);
  if (!p)
    return MCP_ERR_NO_MEMORY;
  p->paths = 100000;
  p->seed = 1;
  p->distance = MCPI_DEFAULT_DISTANCE;
  *portfolio = p;
  return MCP_OK;
}

void mcp_portfolio_destroy(mcp_portfolio *p)
{
  if (!p)
    return;
  for (size_t i = 0; i < p->n; i++) {
    free(p->t[i].id);
    free(p->t[i].underlying);
    free(p->t[i].fix);
  }
  free(p->t);
  free(p->grid);
  free(p);
}

static mcp_status add_trade(mcp_portfolio *p, const char *id, const char *underlying,
                            mcpi_product product, mcp_option_type type, double strike,
                            size_t nfix, const double *fix, double maturity, double quantity)
{
  const char *why;
  if ((why = mcpi_check_name(id)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "trade id: expected %s", why);
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->t[i].id, id) == 0)
      return mcpi_fail(p->err, MCP_ERR_INPUT, "trade '%s': id: expected a unique id", id);
  if ((why = mcpi_check_name(underlying)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "trade '%s': underlying: expected %s", id, why);
  if (type != MCP_CALL && type != MCP_PUT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "trade '%s': type: expected call or put", id);
  if ((why = mcpi_check_strike(strike)))
    return mcpi_fail(p->err, MCP_ERR_INPUT, "trade '%s': strike: expected %s, got %g", id, why,
                     strike);
  if ((why = mcpi_check_maturity(maturity)))
    return mcpi_fail(p->err, MCP_ERR_INPUT, "trade '%s': maturity: expected %s, got %g", id,
                     why, maturity);
  if ((why = mcpi_check_quantity(quantity)))
    return mcpi_fail(p->err, MCP_ERR_INPUT, "trade '%s': quantity: expected %s, got %g", id,
                     why, quantity);
  if (!fix && nfix)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "trade '%s': fixings: NULL array", id);
  if ((why = mcpi_check_fixings(nfix, fix, maturity)))
    return mcpi_fail(p->err, MCP_ERR_INPUT, "trade '%s': fixings: expected %s", id, why);

  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 16;
    mcpi_trade *t = realloc(p->t, cap * sizeof *t);
    if (!t)
      return mcpi_fail(p->err, MCP_ERR_NO_MEMORY, "out of memory adding trade '%s'", id);
    p->t = t;
    p->cap = cap;
  }
  mcpi_trade t = {strdup(id), strdup(underlying), product, type, strike, maturity, quantity,
                  nfix, malloc(nfix * sizeof(double))};
  if (!t.id || !t.underlying || !t.fix) {
    free(t.id);
    free(t.underlying);
    free(t.fix);
    return mcpi_fail(p->err, MCP_ERR_NO_MEMORY, "out of memory adding trade '%s'", id);
  }
  memcpy(t.fix, fix, nfix * sizeof(double));
  p->t[p->n++] = t;
  return MCP_OK;
}

mcp_status mcp_portfolio_add_european(mcp_portfolio *p, const char *id, const char *underlying,
                                      mcp_option_type type, double strike, double maturity,
                                      double quantity)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  return add_trade(p, id, underlying, MCPI_EUROPEAN, type, strike, 1, &maturity, maturity,
                   quantity);
}

mcp_status mcp_portfolio_add_asian(mcp_portfolio *p, const char *id, const char *underlying,
                                   mcp_average average, mcp_option_type type, double strike,
                                   size_t nfixings, const double *fixings, double maturity,
                                   double quantity)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if (average != MCP_ARITHMETIC && average != MCP_GEOMETRIC)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "trade '%s': average: expected arithmetic or geometric", id ? id : "");
  return add_trade(p, id, underlying,
                   average == MCP_ARITHMETIC ? MCPI_ASIAN_ARITHMETIC : MCPI_ASIAN_GEOMETRIC,
                   type, strike, nfixings, fixings, maturity, quantity);
}

size_t mcp_portfolio_size(const mcp_portfolio *p) { return p ? p->n : 0; }

const char *mcp_portfolio_trade_id(const mcp_portfolio *p, size_t i)
{
  return p && i < p->n ? p->t[i].id : NULL;
}

mcp_status mcp_portfolio_set_paths(mcp_portfolio *p, uint64_t paths)
{
  const char *why;
  if (!p)
    return MCP_ERR_ARGUMENT;
  if ((why = mcpi_check_paths(paths)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "paths: expected %s, got %llu", why,
                     (unsigned long long)paths);
  p->paths = paths;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_seed(mcp_portfolio *p, uint64_t seed)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  p->seed = seed;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_steps_per_year(mcp_portfolio *p, unsigned n)
{
  const char *why;
  if (!p)
    return MCP_ERR_ARGUMENT;
  if ((why = mcpi_check_steps_per_year(n)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "steps_per_year: expected %s, got %u", why, n);
  p->steps_per_year = n;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_time_grid(mcp_portfolio *p, size_t n, const double *times)
{
  const char *why;
  if (!p)
    return MCP_ERR_ARGUMENT;
  if (n && !times)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "time grid: NULL array of %zu times", n);
  if ((why = mcpi_check_grid(n, times)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "time grid: expected %s", why);
  double *g = NULL;
  if (n) {
    if (!(g = malloc(n * sizeof *g)))
      return mcpi_fail(p->err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
    memcpy(g, times, n * sizeof *g);
  }
  free(p->grid);
  p->grid = g;
  p->ngrid = n;
  return MCP_OK;
}

mcp_backend mcp_portfolio_backend(const mcp_portfolio *p)
{
  return p ? p->backend : MCP_BACKEND_AUTO;
}

mcp_status mcp_portfolio_set_backend(mcp_portfolio *p, mcp_backend b)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if (b != MCP_BACKEND_AUTO && b != MCP_BACKEND_CPU && b != MCP_BACKEND_CUDA)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "backend: expected auto, cpu or cuda");
  p->backend = b;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_precision(mcp_portfolio *p, mcp_precision precision)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if (precision != MCP_DOUBLE && precision != MCP_FLOAT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "precision: expected double or float");
  p->precision = precision;
  return MCP_OK;
}

mcp_precision mcp_portfolio_precision(const mcp_portfolio *p)
{
  return p ? p->precision : MCP_DOUBLE;
}

mcp_status mcp_portfolio_set_prefetch(mcp_portfolio *p, mcp_prefetch strategy, int distance,
                                      int padding)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  const char *why = mcpi_prefetch_check(strategy, distance, padding);
  if (why)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "%s", why);
  p->prefetch = strategy;
  p->distance = distance;
  p->padding = padding;
  return MCP_OK;
}

void mcp_portfolio_prefetch(const mcp_portfolio *p, mcp_prefetch *strategy, int *distance,
                            int *padding)
{
  if (strategy)
    *strategy = p ? p->prefetch : MCP_PREFETCH_NONE;
  if (distance)
    *distance = p ? p->distance : MCPI_DEFAULT_DISTANCE;
  if (padding)
    *padding = p ? p->padding : 0;
}

uint64_t mcp_portfolio_paths(const mcp_portfolio *p) { return p ? p->paths : 0; }
uint64_t mcp_portfolio_seed(const mcp_portfolio *p) { return p ? p->seed : 0; }

const char *mcp_portfolio_last_error(const mcp_portfolio *p)
{
  return p ? p->err : "no portfolio";
}
