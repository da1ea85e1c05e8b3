/* local_vol.h: the local-volatility model (Dupire 1994), by log-Euler on the
 * run's grid with the volatility of the path's own spot at the step's start:
 *   log S(t + dt) = log S(t) + (r - q) dt - sigma^2 dt / 2 + sigma sqrt(dt) Z,
 *   sigma = sigma(t, S(t)).
 * The surface is given on a grid of times and spots, linear in time between
 * them; the host gives each step a slice, at each spot node the root mean
 * square of sigma over the step (plan.c), and the path interpolates the
 * step's slice linearly in log-spot, flat beyond the grid's first and last
 * spots. */
#ifndef MCP_LOCAL_VOL_H
#define MCP_LOCAL_VOL_H

#include "mcp_hd.h"

/* The slice v[0 .. n) at log-spots y[0 .. n) (increasing) at log-spot x. */
#define MCPI_LOCAL_VOL_LOOKUP(name, real)                                                    \
  MCP_HD static inline real name(const real *y, const real *v, int n, real x)                \
  {                                                                                          \
    if (!(x > y[0])) /* and a NaN: the first value */                                        \
      return v[0];                                                                           \
    if (x >= y[n - 1])                                                                       \
      return v[n - 1];                                                                       \
    int lo = 0, hi = n - 1; /* y[lo] < x < y[hi] */                                          \
    while (hi - lo > 1) {                                                                    \
      int mid = (lo + hi) / 2;                                                               \
      if (y[mid] <= x)                                                                       \
        lo = mid;                                                                            \
      else                                                                                   \
        hi = mid;                                                                            \
    }                                                                                        \
    return v[lo] + (x - y[lo]) / (y[hi] - y[lo]) * (v[hi] - v[lo]);                          \
  }
MCPI_LOCAL_VOL_LOOKUP(mcpi_local_vol, double)
MCPI_LOCAL_VOL_LOOKUP(mcpi_local_vol_f, float)

#endif
