/* curve_pillars.c: a curve from its pillars' discount factors, turned into
 * the piecewise-constant curve the engine integrates exactly. */
#include <math.h>
#include <stdlib.h>
#include "src/base/validate.h"
#include "src/inputs/market.h"

mcp_status mcp_market_set_curve_pillars(mcp_market *m, const char *name, mcp_curve which,
                                        size_t n, const double *t, const double *df)
{
  if (!m)
    return MCP_ERR_ARGUMENT;
  if (which != MCP_CURVE_RATE && which != MCP_CURVE_DIVIDEND)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "curve pillars: expected the rate or the dividend curve");
  if (n == 0 || !t || !df)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "curve pillars: expected n >= 1 and the time and discount factor arrays");
  const char *why = mcpi_check_grid(n, t);
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "curve pillars: times: expected %s", why);
  double *l = malloc(2 * n * sizeof *l), *f = l + n;
  if (!l)
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for a curve");
  for (size_t i = 0; i < n; i++) {
    if (!(isfinite(df[i]) && df[i] > 0)) {
      free(l);
      return mcpi_fail(m->err, MCP_ERR_INPUT,
                       "curve pillars: discount factor %zu: expected a number > 0, got %g", i,
                       df[i]);
    }
    l[i] = log(df[i]);
  }
  mcpi_curve_forwards(n, t, l, f);
  for (size_t i = 0; i < n; i++)
    if ((why = mcpi_check_rate(f[i]))) {
      free(l);
      return mcpi_fail(m->err, MCP_ERR_INPUT,
                       "curve pillars: discount factor %zu: expected one whose forward rate "
                       "from the pillar before is %s, got %g",
                       i, why, f[i]);
    }
  mcp_status st = mcp_market_set_curve(m, name, which, n, t, f);
  free(l);
  return st;
}
