/* greeks.c: the Greeks request of mcp_price_greeks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/greeks.h"
#include "src/inputs/portfolio.h"
#include "src/base/names.h"

static const char *const greek_names[] = {"delta", "gamma", "vega", "rho", "theta",
                                          "cross-gamma", "correlation", "dividend"};
static const char *const method_names[] = {"pathwise", "likelihood-ratio", "bump", "grid",
                                           "adjoint", "analytic"};

MCPI_NAMED_ENUM(mcp_greek, mcp_greek_from_name, mcp_greek_name, greek_names, "unknown")

const char *mcp_greek_method_name(mcp_greek_method m)
{
  return (unsigned)m < (unsigned)MCPI_NAMES(method_names) ? method_names[m] : "unknown";
}

mcp_status mcp_greeks_create(mcp_greeks **g)
{
  if (!g)
    return mcpi_null(__func__, "greeks");
  if (!(*g = calloc(1, sizeof **g)))
    return mcpi_no_memory(__func__);
  (*g)->bump[MCP_GREEK_DELTA] = (*g)->bump[MCP_GREEK_GAMMA] = (*g)->bump[MCP_GREEK_CROSS_GAMMA] =
      0.01;
  (*g)->bump[MCP_GREEK_VEGA] = 0.01;
  (*g)->bump[MCP_GREEK_RHO] = 1e-4;
  (*g)->bump[MCP_GREEK_THETA] = MCPI_THETA_BUMP;
  return MCP_OK;
}

void mcp_greeks_destroy(mcp_greeks *g) { free(g); }

const char *mcp_greeks_last_error(const mcp_greeks *g) { return g ? g->err : ""; }

mcp_status mcp_greeks_add(mcp_greeks *g, mcp_greek greek)
{
  if (!g)
    return mcpi_null(__func__, "greeks");
  if ((unsigned)greek >= MCP_GREEK_COUNT)
    return mcpi_fail(g->err, MCP_ERR_ARGUMENT, "greek: expected one of delta, gamma, vega, rho, "
                     "theta, cross-gamma, correlation, dividend, got %d", (int)greek);
  g->want[greek] = 1;
  return MCP_OK;
}

mcp_status mcp_greeks_parse(mcp_greeks *g, const char *list)
{
  if (!g || !list)
    return mcpi_null(__func__, "greeks or list");
  int want[MCP_GREEK_COUNT]; /* the request changes only when the whole list is good */
  memcpy(want, g->want, sizeof want);
  const char *s = list;
  do {
    size_t n = strcspn(s, ",");
    char name[32];
    if (n == 0 || n >= sizeof name)
      return mcpi_fail(g->err, MCP_ERR_ARGUMENT, "greeks '%s': expected a comma-separated list of "
                       "delta, gamma, vega, rho, theta, cross-gamma, correlation, dividend or all",
                       list);
    memcpy(name, s, n);
    name[n] = 0;
    mcp_greek k;
    if (strcmp(name, "all") == 0) /* not the adjoint's own: by name (mcprice.h) */
      for (int i = 0; i < MCP_GREEK_CORRELATION; i++)
        want[i] = 1;
    else if (mcp_greek_from_name(name, &k) == MCP_OK)
      want[k] = 1;
    else
      return mcpi_fail(g->err, MCP_ERR_NOT_FOUND,
                       "greeks '%s': unknown Greek '%s'; expected delta, gamma, vega, rho, "
                       "theta, cross-gamma, correlation, dividend or all", list, name);
    s += n;
  } while (*s++ == ',');
  memcpy(g->want, want, sizeof want);
  return MCP_OK;
}

mcp_status mcp_greeks_set_bump(mcp_greeks *g, mcp_greek greek, double size)
{
  if (!g)
    return mcpi_null(__func__, "greeks");
  if ((unsigned)greek >= MCP_GREEK_COUNT)
    return mcpi_fail(g->err, MCP_ERR_ARGUMENT, "bump: unknown Greek %d", (int)greek);
  if (greek == MCP_GREEK_CORRELATION || greek == MCP_GREEK_DIVIDEND)
    return mcpi_fail(g->err, MCP_ERR_ARGUMENT, "%s: by adjoint, with no bump to size",
                     mcp_greek_name(greek));
  if (!(size > 0 && size <= 0.5))
    return mcpi_fail(g->err, MCP_ERR_ARGUMENT, "%s bump: expected a size in (0, 0.5], got %g",
                     mcp_greek_name(greek), size);
  if (greek == MCP_GREEK_DELTA || greek == MCP_GREEK_GAMMA || greek == MCP_GREEK_CROSS_GAMMA)
    g->bump[MCP_GREEK_DELTA] = g->bump[MCP_GREEK_GAMMA] = g->bump[MCP_GREEK_CROSS_GAMMA] = size;
  else
    g->bump[greek] = size;
  return MCP_OK;
}

double mcp_greeks_bump(const mcp_greeks *g, mcp_greek greek)
{
  return g && (unsigned)greek < MCP_GREEK_COUNT ? g->bump[greek] : NAN;
}

mcp_status mcp_greeks_set_bump_only(mcp_greeks *g, int on)
{
  if (!g)
    return mcpi_null(__func__, "greeks");
  g->bump_only = !!on;
  return MCP_OK;
}

mcp_status mcp_greeks_set_buckets(mcp_greeks *g, int on)
{
  if (!g)
    return mcpi_null(__func__, "greeks");
  g->buckets = on != 0;
  return MCP_OK;
}

int mcp_greeks_buckets(const mcp_greeks *g) { return g ? g->buckets : 0; }
