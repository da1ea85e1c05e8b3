/* local_vol.c: a local-volatility surface from an implied-volatility one, by
 * Dupire's formula in total implied variance (Gatheral, "The Volatility
 * Surface", 2006, eq. 1.10): with w(y, T) = sigma_imp(K, T)^2 T and
 * y = log(K / F(T)),
 *   sigma_loc^2(K, T) = (dw/dT) / (1 - (y / w) dw/dy
 *                       + (-1/4 - 1/w + y^2 / w^2) (dw/dy)^2 / 4 + d2w/dy2 / 2),
 * dw/dT at fixed y.  The derivatives are central differences of the caller's
 * function, which must be smooth across the steps below. */
#include <math.h>
#include <stdio.h>
#include "src/base/error.h"
#include "src/inputs/market.h"
#include "mcprice.h"
#include "src/base/validate.h"

/* Difference steps: in log-moneyness, and in time (relative, at least a
 * day's hundredth); times below MIN_T are evaluated at MIN_T, where the
 * surface starts. */
#define H_Y 1e-3
#define H_T 1e-3
#define MIN_T (1.0 / 365)

static double total_variance(mcp_implied_fn f, void *arg, double fwd_rate, double spot, double y,
                             double t)
{
  double s = f(spot * exp(fwd_rate * t + y), t, arg);
  return s * s * t;
}

double mcpi_dupire_density(double y, double w, double dy, double dyy)
{
  return 1 - y / w * dy + 0.25 * (-0.25 - 1 / w + y * y / (w * w)) * dy * dy + 0.5 * dyy;
}

/* sigma_loc at (t, S): 0 with *bad set when the implied surface admits
 * arbitrage there (a negative numerator or denominator) or gives a value that
 * is not a volatility. */
static double dupire(mcp_implied_fn f, void *arg, double spot, double b, double t, double s,
                     int *bad)
{
  t = t < MIN_T ? MIN_T : t;
  double y = log(s / spot) - b * t, ht = H_T * t;
  double w = total_variance(f, arg, b, spot, y, t);
  double wp = total_variance(f, arg, b, spot, y + H_Y, t);
  double wm = total_variance(f, arg, b, spot, y - H_Y, t);
  double wtp = total_variance(f, arg, b, spot, y, t + ht);
  double wtm = total_variance(f, arg, b, spot, y, t - ht);
  double dy = (wp - wm) / (2 * H_Y), dyy = (wp - 2 * w + wm) / (H_Y * H_Y);
  double dt = (wtp - wtm) / (2 * ht);
  double den = mcpi_dupire_density(y, w, dy, dyy);
  double v = dt / den;
  *bad = !(w > 0) || !(dt >= 0) || !(den > 0) || !isfinite(v);
  return *bad ? 0 : sqrt(v);
}

mcp_status mcp_local_vol_from_implied(double spot, double rate, double dividend,
                                      mcp_implied_fn implied, void *arg, size_t ntimes,
                                      const double *times, size_t nspots, const double *spots,
                                      double *values, char *err, size_t errlen)
{
  char msg[MCPI_ERRLEN];
  mcp_status st = MCP_OK;
  const char *why;
  if (!implied || !times || !spots || !values)
    st = mcpi_fail(msg, MCP_ERR_ARGUMENT, "local volatility from implied: NULL argument");
  else if ((why = mcpi_check_spot(spot)) || (why = mcpi_check_rate(rate)) ||
           (why = mcpi_check_rate(dividend)))
    st = mcpi_fail(msg, MCP_ERR_INPUT,
                   "local volatility from implied: spot, rate and dividend: expected %s", why);
  else if (ntimes < 1 || ntimes > MCPI_MAX_SURFACE || nspots < 1 || nspots > MCPI_MAX_SURFACE)
    st = mcpi_fail(msg, MCP_ERR_INPUT,
                   "local volatility from implied: expected 1 to %d times and spots, got %zu "
                   "and %zu",
                   MCPI_MAX_SURFACE, ntimes, nspots);
  for (size_t i = 0; st == MCP_OK && i < ntimes; i++)
    for (size_t k = 0; st == MCP_OK && k < nspots; k++) {
      int bad;
      if (!(times[i] >= 0 && times[i] <= MCPI_MAX_MATURITY) || !(spots[k] > 0) ||
          !isfinite(spots[k]))
        st = mcpi_fail(msg, MCP_ERR_INPUT,
                       "local volatility from implied: times[%zu] %g or spots[%zu] %g: "
                       "expected a time in [0, 100] and a finite spot > 0",
                       i, times[i], k, spots[k]);
      else if ((values[i * nspots + k] =
                    dupire(implied, arg, spot, rate - dividend, times[i], spots[k], &bad)),
               bad)
        st = mcpi_fail(msg, MCP_ERR_INPUT,
                       "local volatility from implied: at time %g, spot %g the implied "
                       "surface has no local volatility (calendar or butterfly arbitrage, or "
                       "an implied volatility that is not > 0)",
                       times[i], spots[k]);
    }
  if (st != MCP_OK && err && errlen)
    snprintf(err, errlen, "%s", msg);
  return st;
}
