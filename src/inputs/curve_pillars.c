/* curve_pillars.c: a curve from its pillars' discount factors, turned into
 * the curve of forwards the engine integrates exactly: piecewise constant
 * (log-linear discount factors) or piecewise linear (linear zero rates). */
#include <math.h>
#include <stdlib.h>
#include "src/base/validate.h"
#include "src/inputs/market.h"

mcp_status mcp_market_set_curve_pillars(mcp_market *m, const char *name, mcp_curve which,
                                        size_t n, const double *t, const double *df)
{
  return mcp_market_set_curve_interpolated(m, name, which, n, t, df, MCP_LOG_LINEAR);
}

mcp_status mcp_market_set_curve_interpolated(mcp_market *m, const char *name, mcp_curve which,
                                             size_t n, const double *t, const double *df,
                                             mcp_interpolation how)
{
  if (!m)
    return mcpi_null(__func__, "market");
  if (how != MCP_LOG_LINEAR && how != MCP_LINEAR_ZERO)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "curve pillars: interpolation: expected "
                     "MCP_LOG_LINEAR or MCP_LINEAR_ZERO, got %d", (int)how);
  if (which != MCP_CURVE_RATE && which != MCP_CURVE_DIVIDEND && which != MCP_CURVE_REPO)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "curve pillars: expected the rate, dividend or repo curve");
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
  if (how == MCP_LINEAR_ZERO) {
    mcp_status st = MCP_OK;
    for (size_t i = 0; i < n && st == MCP_OK; i++)
      if ((why = mcpi_check_rate(-l[i] / t[i])))
        st = mcpi_fail(m->err, MCP_ERR_INPUT, "curve pillars: discount factor %zu: expected "
                       "one whose zero rate is %s, got %g", i, why, -l[i] / t[i]);
    mcpi_curve c = {0};
    if (st == MCP_OK && mcpi_curve_linear_zero(&c, n, t, l) != MCP_OK)
      st = mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for a curve");
    if (st == MCP_OK)
      st = mcpi_market_set_curve_sloped(m, name, which, c.n, c.end, c.value, c.slope);
    mcpi_curve_free(&c);
    free(l);
    return st;
  }
  mcpi_curve_forwards(n, t, l, f);
  for (size_t i = 0; i < n; i++)
    if ((why = mcpi_check_rate(f[i]))) {
      /* the message before the free: f lies in l's block */
      mcp_status st = mcpi_fail(m->err, MCP_ERR_INPUT,
                                "curve pillars: discount factor %zu: expected one whose forward "
                                "rate from the pillar before is %s, got %g",
                                i, why, f[i]);
      free(l);
      return st;
    }
  mcp_status st = mcp_market_set_curve(m, name, which, n, t, f);
  free(l);
  return st;
}
