/* qmc.h: quasi-Monte Carlo sampling.  Points come from cuRAND's 64-bit
 * scrambled Sobol sequence (Joe-Kuo direction vectors): dimension d of point n
 * is c_d XOR the direction vectors of the bits of the Gray code of n.  Each
 * scrambling replicate r XORs its own random 64-bit shift into c_d (a random
 * digital shift), so that replicates are independent and unbiased and their
 * spread is the error estimate.  The uniform (x + 1/2) 2^-64 (53 bits) goes
 * through the normal quantile.  Dimensions are Brownian-bridge levels:
 * dimension k F + f drives level k of factor f, so that the first, best
 * spread, dimensions set the paths' large moves. */
#ifndef MCP_QMC_H
#define MCP_QMC_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "models/mcp_hd.h"

#define MCPI_QMC_MAX_DIMENSIONS 20000 /* cuRAND's direction vectors */
#define MCPI_SOBOL_BITS 64

/* The standard normal quantile: Acklam's rational approximation (relative
 * error 1.15e-9) refined by one Halley step on erfc, to about 1e-15. */
MCP_HD static inline double mcpi_normal_quantile(double u)
{
  const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                       1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                       6.680131188771972e+01,  -1.328068155288572e+01};
  const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                       -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                       3.754408661907416e+00};
  double x;
  if (u < 0.02425) {
    double q = sqrt(-2 * log(u));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (u > 1 - 0.02425) {
    double q = sqrt(-2 * log1p(-u));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    double q = u - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  double e = 0.5 * erfc(-x / 1.4142135623730951) - u;
  double g = e * 2.5066282746310002 * exp(0.5 * x * x);
  return x - g / (1 + 0.5 * x * g);
}

MCP_HD static inline double mcpi_sobol_normal(uint64_t x)
{
  return mcpi_normal_quantile(((double)(x >> 11) + 0.5) * 0x1p-53);
}

/* A Brownian bridge over the grid t_1 < ... < t_N (t_0 = 0): level k sets
 * W(t_m[k]) = wl[k] W(t_l[k]) + wr[k] W(t_r[k]) + sd[k] Z_k, W(t_0) = 0;
 * the step normals are then (W(t_s) - W(t_{s-1})) / sqrt(t_s - t_{s-1}). */
typedef struct mcpi_bridge_view {
  int32_t n;
  const int32_t *m, *l, *r; /* indices 0..N into W */
  const double *wl, *wr, *sd, *inv_sqrt_dt;
} mcpi_bridge_view;

/* Builds factor f of one path: z_in[(k F + f) ld_in] are the level normals,
 * w[(s F + f) ld] receives W(t_{s+1}) and then, in place, the step normal of
 * step s. */
MCP_HD static inline void mcpi_bridge_path(const mcpi_bridge_view *b, int nf, int f,
                                           const double *z_in, size_t ld_in, double *w,
                                           size_t ld)
{
#define MCPI_W(i) w[((size_t)((i) - 1) * nf + f) * ld] /* W(t_i), i >= 1 */
  for (int k = 0; k < b->n; k++) {
    double left = b->l[k] ? MCPI_W(b->l[k]) : 0, right = b->r[k] ? MCPI_W(b->r[k]) : 0;
    MCPI_W(b->m[k]) = b->wl[k] * left + b->wr[k] * right +
                      b->sd[k] * z_in[((size_t)k * nf + f) * ld_in];
  }
  for (int s = b->n; s >= 1; s--)
    MCPI_W(s) = (MCPI_W(s) - (s > 1 ? MCPI_W(s - 1) : 0)) * b->inv_sqrt_dt[s - 1];
#undef MCPI_W
}

/* Host side (qmc.c). */
typedef struct mcpi_bridge {
  int32_t n, *m, *l, *r;
  double *wl, *wr, *sd, *inv_sqrt_dt;
} mcpi_bridge;

/* 0, or MCP_ERR_NO_MEMORY. */
int mcpi_bridge_build(mcpi_bridge *b, size_t n, const double *t);
void mcpi_bridge_free(mcpi_bridge *b);
mcpi_bridge_view mcpi_bridge_host_view(const mcpi_bridge *b);

/* cuRAND's 64-bit direction vectors (MCPI_SOBOL_BITS a dimension) and
 * scramble constants, or NULL when cuRAND cannot give them. */
const uint64_t *mcpi_sobol_directions(void);
const uint64_t *mcpi_sobol_scrambles(void);
/* The shift of replicate r in dimension d for a job's stream. */
uint64_t mcpi_sobol_shift(uint64_t stream, unsigned replicate, size_t d);
/* z[d ld + i] = the normal of dimension d < ndim, point p0 + i (i < n), with
 * scramble constants scr[d] (host, from the direction vectors dirs). */
void mcpi_sobol_fill(const uint64_t *dirs, const uint64_t *scr, size_t ndim, uint64_t p0,
                     size_t n, double *z, size_t ld);

#endif
