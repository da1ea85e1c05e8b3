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
#include "models/mcp_dmath.h"
#include "models/mcp_hd.h"

#define MCPI_QMC_MAX_DIMENSIONS 20000 /* cuRAND's direction vectors */
#define MCPI_SOBOL_BITS 64

/* A polynomial's value at x by Horner's rule, its coefficients from the
 * constant term up. */
MCP_HD static inline double mcpi_horner8(const double *c, double x)
{
  double p = c[7];
  MCP_UNROLL
  for (int k = 6; k >= 0; k--)
    p = p * x + c[k];
  return p;
}

/* The standard normal quantile of u, given as q = u - 1/2 and t = min(u,
 * 1 - u) > 0, each exact: Wichura's AS 241 (PPND16), rational functions of q
 * in the centre and of sqrt(-log t) in the tails, relative error about
 * 1e-16.  Its operations are IEEE's own (+, *, /, sqrt, correctly rounded on
 * both sides; no contraction: Makefile.am) and the log is mcp_dmath.h's
 * polynomial, so that the host and the device give the same bits: the QMC
 * paths of a model whose step amplifies rounding (full truncation Euler
 * near a zero variance) then agree too. */
MCP_HD static inline double mcpi_normal_quantile_qt(double q, double t)
{
  const double a[8] = {3.3871328727963666080e0,   1.3314166789178437745e+2,
                       1.9715909503065514427e+3,  1.3731693765509461125e+4,
                       4.5921953931549871457e+4,  6.7265770927008700853e+4,
                       3.3430575583588128105e+4,  2.5090809287301226727e+3};
  const double b[8] = {1.0,                       4.2313330701600911252e+1,
                       6.8718700749205790830e+2,  5.3941960214247511077e+3,
                       2.1213794301586595867e+4,  3.9307895800092710610e+4,
                       2.8729085735721942674e+4,  5.2264952788528545610e+3};
  const double c[8] = {1.42343711074968357734e0,  4.63033784615654529590e0,
                       5.76949722146069140550e0,  3.64784832476320460504e0,
                       1.27045825245236838258e0,  2.41780725177450611770e-1,
                       2.27238449892691845833e-2, 7.74545014278341407640e-4};
  const double d[8] = {1.0,                       2.05319162663775882187e0,
                       1.67638483018380384940e0,  6.89767334985100004550e-1,
                       1.48103976427480074590e-1, 1.51986665636164571966e-2,
                       5.47593808499534494600e-4, 1.05075007164441684324e-9};
  const double e[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,
                       1.78482653991729133580e0,  2.96560571828504891230e-1,
                       2.65321895265761230930e-2, 1.24266094738807843860e-3,
                       2.71155556874348757815e-5, 2.01033439929228813265e-7};
  const double f[8] = {1.0,                       5.99832206555887937690e-1,
                       1.36929880922735805310e-1, 1.48753612908506148525e-2,
                       7.86869131145613259100e-4, 1.84631831751005468180e-5,
                       1.42151175831644588870e-7, 2.04426310338993978564e-15};
  if (fabs(q) <= 0.425) {
    double r = 0.180625 - q * q;
    return q * mcpi_horner8(a, r) / mcpi_horner8(b, r);
  }
  double r = sqrt(-mcpi_dlog_poly(t)), x; /* t a normal double */
  if (r <= 5.0) {
    r -= 1.6;
    x = mcpi_horner8(c, r) / mcpi_horner8(d, r);
  } else {
    r -= 5.0;
    x = mcpi_horner8(e, r) / mcpi_horner8(f, r);
  }
  return q < 0 ? -x : x;
}

/* The quantile of u in (0, 1), where u - 1/2 and, for u >= 1/2, 1 - u are
 * exact. */
MCP_HD static inline double mcpi_normal_quantile(double u)
{
  return mcpi_normal_quantile_qt(u - 0.5, u < 0.5 ? u : 1 - u);
}

/* The normal of a 64-bit Sobol value x: the quantile of u = (k + 1/2) 2^-53,
 * k its top 53 bits.  Past 2^52, k + 1/2 has 54 bits and u would round (k =
 * 2^53 - 1 to u = 1), so u - 1/2 and min(u, 1 - u) are formed from k,
 * exactly: the normal of ~x is that of x negated. */
MCP_HD static inline double mcpi_sobol_normal(uint64_t x)
{
  const int64_t half = INT64_C(1) << 52;
  int64_t k = (int64_t)(x >> 11), m = k < half ? k : 2 * half - 1 - k;
  return mcpi_normal_quantile_qt(((double)(k - half) + 0.5) * 0x1p-53,
                                 ((double)m + 0.5) * 0x1p-53);
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
