/* heston.h: one step of the Heston model in log-spot, in precision MCPI_REAL;
 * included once per precision by path_body.h (no include guard).
 *   dS/S = (r - q) dt + sqrt(v) dW_x,  dv = kappa (theta - v) dt + xi sqrt(v) dW_v,
 *   d<W_x, W_v> = rho dt.
 * Two schemes:
 *   full-truncation Euler (Lord, Koekkoek and van Dijk 2010): v+ = max(v, 0)
 *     in the drift and diffusion, v itself may go negative;
 *   quadratic-exponential (Andersen 2008): v(t + dt) drawn from a squared
 *     normal (psi <= 1.5) or a mass at 0 plus an exponential (psi > 1.5),
 *     matching its conditional mean m and variance s^2; the log-spot by the
 *     central discretisation (gamma1 = gamma2 = 1/2) with the martingale
 *     correction K0*, so that E[S(t + dt) | S(t), v(t)] = S(t) e^{(r-q) dt}.
 * zv drives the variance, zx (independent) the log-spot; h holds the
 * parameters (path.h), scheme the mcp_heston_scheme. */

/* The largest 2 / psi the QE step takes (past it v' is m to the precision);
 * the double's is also its adjoint's (heston_adjoint.h) */
#ifndef MCPI_QE_R_MAX_D
#define MCPI_QE_R_MAX_D 1e150
#endif
#ifdef MCPI_FLOAT_BODY
#define MCPI_QE_R_MAX 1e18
#else
#define MCPI_QE_R_MAX MCPI_QE_R_MAX_D
#endif
MCP_HD static inline void MCPI_P(mcpi_heston_step)(MCPI_REAL *x, MCPI_REAL *v, MCPI_REAL *var,
                                                   const mcpi_heston *h, int scheme,
                                                   MCPI_REAL drift, MCPI_REAL dt, MCPI_REAL ekdt,
                                                   MCPI_REAL zv, MCPI_REAL zx)
{
  const MCPI_REAL kappa = (MCPI_REAL)h->kappa, theta = (MCPI_REAL)h->theta,
                  xi = (MCPI_REAL)h->xi, rho = (MCPI_REAL)h->rho, half = (MCPI_REAL)0.5;
  MCPI_REAL v0 = *v;
  if (scheme == MCP_HESTON_EULER) {
    MCPI_REAL vp = v0 > 0 ? v0 : 0, sq = MCPI_SQRT(vp * dt);
    *x += drift - half * vp * dt + sq * (rho * zv + MCPI_SQRT(1 - rho * rho) * zx);
    *v = v0 + kappa * (theta - vp) * dt + xi * sq * zv;
    *var = vp * dt;
    return;
  }
  /* m and s^2, the next variance's conditional mean and variance:
   * s^2 = xi^2 / kappa (1 - E) (v E + theta (1 - E) / 2), E = e^{-kappa dt};
   * psi = s^2 / m^2 is compared, and 2 / psi taken, without dividing twice */
  MCPI_REAL e1 = 1 - ekdt, m = theta + (v0 - theta) * ekdt, m2 = m * m;
  MCPI_REAL s2 = (MCPI_REAL)h->MCPI_COEF(xk) * e1 * (v0 * ekdt + half * theta * e1);
  /* k1 and k2 from kappa rho / xi - 1/2 and rho / xi, h's (mcpi_heston_view) */
  const MCPI_REAL rx = (MCPI_REAL)h->MCPI_COEF(rx), krx = (MCPI_REAL)h->MCPI_COEF(krx);
  MCPI_REAL k1 = half * dt * krx - rx;
  MCPI_REAL k2 = half * dt * krx + rx;
  MCPI_REAL k3 = half * dt * (1 - rho * rho);
  MCPI_REAL A = k2 + half * k3, vn;
  /* the martingale correction k0 = k0a + lc log(la) - k0b: each branch sets
   * its terms and the one log is taken after them, so that a warp whose
   * paths take both branches (psi straddling 1.5) takes it once */
  MCPI_REAL k0a, lc, la, k0b = (k1 + half * k3) * v0;
  /* without the correction (where its moment generating function does not
   * exist), -rho kappa theta dt / xi: computed there alone */
#define MCPI_K0_PLAIN ((MCPI_REAL)h->MCPI_COEF(rkt) * dt / xi)
  int done = 0;
#if defined __CUDA_ARCH__ && !defined MCPI_FLOAT_BODY
  /* On the GPU in double the common case comes first, for every path and
   * with no branch: the squared normal's lines below by mcpi_ddiv_fast and
   * mcpi_dsqrt_fast, done where their operands are in range (then the
   * division's and roots' bits) and d > 0 (then la is normal).  Their
   * branches (each division's and square root's own test, d's, the log's)
   * ended the basic block seven times a step, so that ptxas could not
   * interleave the step's chains with the next step's normals
   * (bench/RESULTS.md "heston-fast").  The other cases follow, as on the
   * host.  The log below, the device's polynomial (not CUDA's log, whose
   * own branch it avoids: an ulp apart on a tenth of its arguments, so a
   * few paths' log-spots move by an ulp), reads a normal la; any other's
   * is taken in its case (MCPI_QE_FOLD). */
  {
    MCPI_REAL r = mcpi_ddiv_fast(2 * m2, s2);
    r = r < (MCPI_REAL)MCPI_QE_R_MAX ? r : (MCPI_REAL)MCPI_QE_R_MAX;
    MCPI_REAL b2 = r - 1 + mcpi_dsqrt_fast(r * (r - 1));
    MCPI_REAL q = 1 + b2, d = q - 2 * A * m, w = mcpi_dsqrt_fast(b2) + zv;
    MCPI_REAL inv = mcpi_ddiv_fast(1, q * d);
    vn = m * d * inv * w * w;
    k0a = -A * b2 * m * (q * inv);
    lc = half;
    la = d * d * inv;
    done = s2 > 0x1p-900 && s2 <= (MCPI_REAL)1.5 * m2 && d > 0x1p-400 && q * d < 0x1p1000;
  }
#define MCPI_QE_LOG mcpi_dlog_poly
#define MCPI_QE_SQRT mcpi_dsqrt_any
  /* an la that may not be normal: its log taken here, as the host would */
#define MCPI_QE_FOLD()                                                                        \
  if (!(la > 0x1p-1000 && la < 0x1p1000)) {                                                   \
    k0a += lc * MCPI_LOG(la);                                                                 \
    lc = 0;                                                                                   \
    la = 1;                                                                                   \
  }
#else
#define MCPI_QE_LOG MCPI_LOG
#define MCPI_QE_SQRT MCPI_SQRT
#define MCPI_QE_FOLD()
#endif
  if (!done) {
    lc = 0;
    la = 1;
    if (!(s2 > 0)) { /* a step too short for e^{-kappa dt} < 1 (float): v' = m, no noise */
      vn = m;
      k0a = -A * m;
    } else if (s2 <= (MCPI_REAL)1.5 * m2) { /* psi <= 1.5 */
      /* 2 / psi, bounded where r (r - 1) would overflow: v' = m to the precision */
      MCPI_REAL r = 2 * m2 / s2;
      r = r < (MCPI_REAL)MCPI_QE_R_MAX ? r : (MCPI_REAL)MCPI_QE_R_MAX;
      MCPI_REAL b2 = r - 1 + MCPI_SQRT(r * (r - 1));
      MCPI_REAL q = 1 + b2, d = q - 2 * A * m, w = MCPI_SQRT(b2) + zv;
      /* a = m / q; the correction's 1 - 2 A a = d / q: both from one
       * division, 1 / (q d) (1 / q = d / (q d), 1 / d = q / (q d); q d below
       * the precision's largest: r is bounded; so is every product, each
       * taking its 1 / d as q (q d)^-1 first: A b2 m q overflowed float) */
      if (d > 0) {
        MCPI_REAL inv = 1 / (q * d);
        vn = m * d * inv * w * w;
        k0a = -A * b2 * m * (q * inv);
        lc = half;
        la = d * d * inv;
        MCPI_QE_FOLD()
      } else {
        vn = m / q * w * w;
        k0a = MCPI_K0_PLAIN;
        k0b = 0;
      }
    } else {
      MCPI_REAL p = (s2 - m2) / (s2 + m2), beta = (1 - p) / m; /* p = (psi - 1) / (psi + 1) */
      /* U <= p as 1 - U >= 1 - p, 1 - U = Phi(-zv): accurate where U is near 1 */
      MCPI_REAL u1 = MCPI_NCDF(-zv);
      vn = u1 >= 1 - p ? 0 : MCPI_LOG((1 - p) / u1) / beta;
      if (A < beta) {
        k0a = 0;
        lc = -1;
        la = p + beta * (1 - p) / (beta - A);
        MCPI_QE_FOLD()
      } else {
        k0a = MCPI_K0_PLAIN;
        k0b = 0;
      }
    }
  }
  MCPI_REAL k0 = k0a + lc * MCPI_QE_LOG(la) - k0b;
#undef MCPI_K0_PLAIN
  *x += drift + k0 + k1 * v0 + k2 * vn + MCPI_QE_SQRT(k3 * (v0 + vn)) * zx;
#undef MCPI_QE_LOG
#undef MCPI_QE_SQRT
#undef MCPI_QE_FOLD
  *var = half * (v0 + vn) * dt;
  *v = vn;
}
#undef MCPI_QE_R_MAX
