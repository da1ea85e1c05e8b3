/* local_vol.h: the local-volatility model (Dupire 1994), by log-Euler on the
 * run's grid with the volatility of the path's own spot at the step's start:
 *   log S(t + dt) = log S(t) + (r - q) dt - sigma^2 dt / 2 + sigma sqrt(dt) Z,
 *   sigma = sigma(t, S(t)).
 * The surface is given on a grid of times and spots, linear in time between
 * them; the host gives each step a slice, at each spot node the root mean
 * square of sigma over the step (coefficients.c), and the path interpolates the
 * step's slice linearly in log-spot, flat beyond the grid's first and last
 * spots. */
#ifndef MCP_LOCAL_VOL_H
#define MCP_LOCAL_VOL_H

#include <stdint.h>
#include "models/mcp_hd.h"

/* The slice v[0 .. n) at log-spots y[0 .. n) (increasing) at log-spot x.
 * The interval y[i] <= x < y[i + 1] comes from a bucket table: nb buckets of
 * width 1 / binv from y[0], each holding the interval of its left end, then
 * a step or two to x's own (the table has 4 buckets a node: the search is
 * two or three loads, not log2 n dependent ones; the bucket's interval and
 * the next two nodes' loads are issued together, then selected, where a
 * loop waited on each in turn); the interpolation is the one formula, so
 * the table changes no bit.  name_at gives the interval: -1 at or below
 * y[0] (and for a NaN), n - 1 at or above y[n - 1] (the flat ends); name_in
 * the value in it (the adjoint reads both: adjoint.h), and name_between the
 * same from its two values lo = v[max(i, 0)] and hi (the next, read where i
 * is inside), loaded ahead by the adjoint's sweep.  name_together is name
 * with the bucket's interval's and the next one's nodes and values loaded
 * at once, before the search selects among them (the same value): the
 * adjoint's forward step, whose values' loads waited on the search; in the
 * price kernels its registers cost more than the wait (6% on the plain
 * shape's local-volatility Asian, bench/RESULTS.md).  Its first lines are
 * name_at's written again, not shared: a helper for them changed 11 price
 * kernels' machine code. */
#define MCPI_LOCAL_VOL_LOOKUP(name, real)                                                    \
  MCP_HD static inline int name##_at(const real *y, int n, const int32_t *idx, int nb,         \
                                     real binv, real x)                                       \
  {                                                                                          \
    real y0 = y[0], yl = y[n - 1], f = (x - y0) * binv;                                      \
    int b = !(f > 0) ? 0 : f < (real)nb ? (int)f : nb - 1;                                   \
    int i = idx[b];                                                                          \
    if (!(x > y0))                                                                           \
      return -1;                                                                             \
    if (x >= yl)                                                                             \
      return n - 1;                                                                          \
    real ya = y[i], y1 = y[i + 1 < n ? i + 1 : n - 1], y2 = y[i + 2 < n ? i + 2 : n - 1];   \
    if (i + 2 < n && y1 <= x) {                                                              \
      i++;                                                                                   \
      if (i + 2 < n && y2 <= x)                                                              \
        for (i++; i + 2 < n && y[i + 1] <= x;)                                               \
          i++;                                                                               \
      return i; /* y[i] <= x: no step down */                                                \
    }                                                                                        \
    while (i > 0 && ya > x)                                                                  \
      ya = y[--i];                                                                           \
    return i;                                                                                \
  }                                                                                          \
  MCP_HD static inline real name##_lerp(real ya, real yb, real lo, real hi, real x)          \
  {                                                                                          \
    return lo + (x - ya) / (yb - ya) * (hi - lo);                                            \
  }                                                                                          \
  MCP_HD static inline real name##_between(const real *y, real lo, real hi, int n, int i,      \
                                          real x)                                            \
  {                                                                                          \
    if (i < 0 || i >= n - 1)                                                                 \
      return lo;                                                                             \
    return name##_lerp(y[i], y[i + 1], lo, hi, x);                                           \
  }                                                                                          \
  MCP_HD static inline real name##_in(const real *y, const real *v, int n, int i, real x)     \
  {                                                                                          \
    if (i < 0)                                                                               \
      return v[0];                                                                           \
    if (i >= n - 1)                                                                          \
      return v[n - 1];                                                                       \
    return name##_between(y, v[i], v[i + 1], n, i, x);                                       \
  }                                                                                          \
  MCP_HD static inline real name(const real *y, const real *v, int n, const int32_t *idx,      \
                                 int nb, real binv, real x)                                   \
  {                                                                                          \
    return name##_in(y, v, n, name##_at(y, n, idx, nb, binv, x), x);                          \
  }                                                                                          \
  MCP_HD static inline real name##_together(const real *y, const real *v, int n,              \
                                            const int32_t *idx, int nb, real binv, real x)    \
  {                                                                                          \
    real y0 = y[0], yl = y[n - 1], f = (x - y0) * binv;                                      \
    int b = !(f > 0) ? 0 : f < (real)nb ? (int)f : nb - 1;                                   \
    int i = idx[b];                                                                          \
    if (!(x > y0))                                                                           \
      return v[0];                                                                           \
    if (x >= yl)                                                                             \
      return v[n - 1];                                                                       \
    int i1 = i + 1 < n ? i + 1 : n - 1, i2 = i + 2 < n ? i + 2 : n - 1;                      \
    real ya = y[i], y1 = y[i1], y2 = y[i2], va = v[i], v1 = v[i1], v2 = v[i2];               \
    if (i + 2 < n && y1 <= x) {                                                              \
      if (!(i + 3 < n && y2 <= x))                                                           \
        return name##_lerp(y1, y2, v1, v2, x);                                               \
    } else if (!(i > 0 && ya > x)) {                                                         \
      return name##_lerp(ya, y1, va, v1, x);                                                 \
    }                                                                                        \
    return name##_in(y, v, n, name##_at(y, n, idx, nb, binv, x), x);                          \
  }
/* A step's diffusion variance at volatility s and b = sqrt(dt); the step is
 * then MCPI_GBM_STEP(x, a - var / 2, s b, z) (path_body.h, adjoint.h). */
#define MCPI_LOCAL_VOL_VAR(s, b) ((s) * (s) * ((b) * (b)))

MCPI_LOCAL_VOL_LOOKUP(mcpi_local_vol, double)
MCPI_LOCAL_VOL_LOOKUP(mcpi_local_vol_f, float)

/* The bucket table of the n nodes y (the planner's, coefficients.c): idx[b]
 * the interval of bucket b's left end, for nb buckets, at most n - 2 where
 * n > 1 (name_together's first cases take its next node as in range);
 * returns binv. */
static inline double mcpi_local_vol_buckets(const double *y, int n, int nb, int32_t *idx)
{
  double binv = nb / (n > 1 ? y[n - 1] - y[0] : 1);
  for (int b = 0, i = 0; b < nb; b++) {
    double left = y[0] + b / binv;
    while (i + 2 < n && y[i + 1] <= left)
      i++;
    idx[b] = i;
  }
  return binv;
}

/* The double steps' lookup (path_body.h, adjoint.h): a unit may choose
 * mcpi_local_vol_together before it includes this (adjoint_kernel.cu). */
#ifndef MCPI_LOCAL_VOL_D
#define MCPI_LOCAL_VOL_D mcpi_local_vol
#endif

#endif
