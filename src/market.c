/* market.c: building and querying a market. */
#include <stdlib.h>
#include <string.h>
#include "market.h"
#include "validate.h"

mcp_status mcp_market_create(mcp_market **market)
{
  if (!market)
    return MCP_ERR_ARGUMENT;
  *market = calloc(1, sizeof **market);
  return *market ? MCP_OK : MCP_ERR_NO_MEMORY;
}

void mcp_market_destroy(mcp_market *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++)
    free(m->u[i].name);
  free(m->u);
  free(m);
}

const mcpi_underlying *mcpi_market_find(const mcp_market *m, const char *name)
{
  for (size_t i = 0; i < m->n; i++)
    if (strcmp(m->u[i].name, name) == 0)
      return &m->u[i];
  return NULL;
}

mcp_status mcp_market_add_black_scholes(mcp_market *m, const char *name, double spot,
                                        double rate, double dividend, double volatility)
{
  const char *why;
  if (!m)
    return MCP_ERR_ARGUMENT;
  if ((why = mcpi_check_name(name)))
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "underlying name: expected %s", why);
  if (mcpi_market_find(m, name))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s' is defined twice", name);
  if ((why = mcpi_check_spot(spot)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': spot: expected %s, got %g", name,
                     why, spot);
  if ((why = mcpi_check_rate(rate)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': rate: expected %s, got %g", name,
                     why, rate);
  if ((why = mcpi_check_rate(dividend)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': dividend: expected %s, got %g",
                     name, why, dividend);
  if ((why = mcpi_check_volatility(volatility)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': volatility: expected %s, got %g",
                     name, why, volatility);
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 8;
    mcpi_underlying *u = realloc(m->u, cap * sizeof *u);
    if (!u)
      return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", name);
    m->u = u;
    m->cap = cap;
  }
  char *copy = strdup(name);
  if (!copy)
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", name);
  m->u[m->n++] = (mcpi_underlying){copy, MCPI_MODEL_BLACK_SCHOLES, spot, rate, dividend,
                                   volatility};
  return MCP_OK;
}

size_t mcp_market_size(const mcp_market *m) { return m ? m->n : 0; }

const char *mcp_market_last_error(const mcp_market *m) { return m ? m->err : "no market"; }
