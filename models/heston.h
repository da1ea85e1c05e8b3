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
/* The squared normal's case (psi <= 1.5) from s^2 and m: q = 1 + b^2, d =
 * q - 2 A m and w = b + zv; v' = a w^2 (a = m / q) and the correction's
 * terms (lc = 1/2), read where d > 0.  1 - 2 A a = d / q: a and it from one
 * division, 1 / (q d) (1 / q = d / (q d), 1 / d = q / (q d); q d below the
 * precision's largest: r is bounded; so is every product, each taking its
 * 1 / d as q (q d)^-1 first: A b2 m q overflowed float).  fast (a
 * constant): the device's division and roots without their tests
 * (mcp_dmath.h), the same bits where their operands are in range. */
typedef struct {
  MCPI_REAL q, d, w, vn, k0a, la;
} MCPI_P(mcpi_qe_square);
#if defined __CUDA_ARCH__ && !defined MCPI_FLOAT_BODY
#define MCPI_QE_DIV(a, b, fast) ((fast) ? mcpi_ddiv_fast(a, b) : (a) / (b))
#define MCPI_QE_ROOT(x, fast) ((fast) ? mcpi_dsqrt_fast(x) : MCPI_SQRT(x))
#else
#define MCPI_QE_DIV(a, b, fast) ((a) / (b))
#define MCPI_QE_ROOT(x, fast) MCPI_SQRT(x)
#endif
MCP_HD static inline MCPI_P(mcpi_qe_square)
    MCPI_P(mcpi_qe_squared)(MCPI_REAL m, MCPI_REAL m2, MCPI_REAL s2, MCPI_REAL A, MCPI_REAL zv,
                            int fast)
{
  MCPI_P(mcpi_qe_square) o;
  /* 2 / psi, bounded where r (r - 1) would overflow: v' = m to the precision */
  MCPI_REAL r = MCPI_QE_DIV(2 * m2, s2, fast);
  r = r < (MCPI_REAL)MCPI_QE_R_MAX ? r : (MCPI_REAL)MCPI_QE_R_MAX;
  MCPI_REAL b2 = r - 1 + MCPI_QE_ROOT(r * (r - 1), fast);
  o.q = 1 + b2;
  o.d = o.q - 2 * A * m;
  o.w = MCPI_QE_ROOT(b2, fast) + zv;
  MCPI_REAL inv = MCPI_QE_DIV(1, o.q * o.d, fast);
  o.vn = m * o.d * inv * o.w * o.w;
  o.k0a = -A * b2 * m * (o.q * inv);
  o.la = o.d * o.d * inv;
  return o;
}
#undef MCPI_QE_DIV
#undef MCPI_QE_ROOT

/* The QE step's cases on the host's lines: no noise (s^2 = 0, float), the
 * squared normal's (psi <= 1.5) and the exponential's; the correction's
 * terms k0a + lc log(la) - k0b, k0b given and zeroed where there is no
 * correction.  On the GPU in double, taken where the common case's fast
 * lines do not hold (mcpi_heston_step); a call where the family says so
 * (MCPI_QE_CALLED: the checked kernel, three steps a loop, which inlined
 * ran a market whose warps took both cases 1.2 times slower, waiting on
 * its instruction fetches; a call in the plain kernel, one step a loop,
 * cost it 4% there: H200, bench/RESULTS.md "heston-pairs"). */
typedef struct {
  MCPI_REAL vn, k0a, lc, la, k0b;
} MCPI_P(mcpi_qe_terms);
#if defined __CUDA_ARCH__ && !defined MCPI_FLOAT_BODY
#ifdef MCPI_QE_CALLED
#define MCPI_QE_CASES static __device__ __noinline__
#else
#define MCPI_QE_CASES MCP_HD static inline
#endif
/* an la that may not be normal: its log taken here by mcpi_dlog, whose
 * value the host's is (the step's own log, the polynomial alone, reads a
 * normal one) */
#define MCPI_QE_FOLD()                                                                        \
  if (!(t.la > 0x1p-1000 && t.la < 0x1p1000)) {                                               \
    t.k0a += t.lc * MCPI_LOG(t.la);                                                           \
    t.lc = 0;                                                                                 \
    t.la = 1;                                                                                 \
  }
#else
#define MCPI_QE_CASES MCP_HD static inline
#define MCPI_QE_FOLD()
#endif
MCPI_QE_CASES MCPI_P(mcpi_qe_terms)
    MCPI_P(mcpi_qe_cases)(MCPI_REAL m, MCPI_REAL m2, MCPI_REAL s2, MCPI_REAL A, MCPI_REAL zv,
                          MCPI_REAL k0b, MCPI_REAL rkt, MCPI_REAL dt, MCPI_REAL xi)
{
  const MCPI_REAL half = (MCPI_REAL)0.5;
  MCPI_P(mcpi_qe_terms) t = {0, 0, 0, 1, k0b};
  /* without the correction (where its moment generating function does not
   * exist), -rho kappa theta dt / xi (rkt = -rho kappa theta): computed
   * there alone */
#define MCPI_K0_PLAIN (rkt * dt / xi)
  if (!(s2 > 0)) { /* a step too short for e^{-kappa dt} < 1 (float): v' = m, no noise */
    t.vn = m;
    t.k0a = -A * m;
  } else if (s2 <= (MCPI_REAL)1.5 * m2) { /* psi <= 1.5 */
    MCPI_P(mcpi_qe_square) o = MCPI_P(mcpi_qe_squared)(m, m2, s2, A, zv, 0);
    if (o.d > 0) {
      t.vn = o.vn;
      t.k0a = o.k0a;
      t.lc = half;
      t.la = o.la;
      MCPI_QE_FOLD()
    } else {
      t.vn = m / o.q * o.w * o.w;
      t.k0a = MCPI_K0_PLAIN;
      t.k0b = 0;
    }
  } else {
    MCPI_REAL p = (s2 - m2) / (s2 + m2), beta = (1 - p) / m; /* p = (psi - 1) / (psi + 1) */
    /* U <= p as 1 - U >= 1 - p, 1 - U = Phi(-zv): accurate where U is near 1 */
    MCPI_REAL u1 = MCPI_NCDF(-zv);
    t.vn = u1 >= 1 - p ? 0 : MCPI_LOG((1 - p) / u1) / beta;
    if (A < beta) {
      t.lc = -1;
      t.la = p + beta * (1 - p) / (beta - A);
      MCPI_QE_FOLD()
    } else {
      t.k0a = MCPI_K0_PLAIN;
      t.k0b = 0;
    }
  }
#undef MCPI_K0_PLAIN
  return t;
}
#undef MCPI_QE_CASES
#undef MCPI_QE_FOLD

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
  /* the martingale correction k0 = k0a + lc log(la) - k0b: each case sets
   * its terms and the one log is taken after them, so that a warp whose
   * paths take both cases (psi straddling 1.5) takes it once */
  MCPI_REAL k0a, lc, la, k0b = (k1 + half * k3) * v0;
  int done = 0;
#if defined __CUDA_ARCH__ && !defined MCPI_FLOAT_BODY
  /* On the GPU in double the common case comes first, for every path and
   * with no branch: the squared normal's lines by the fast division and
   * roots, done where their operands are in range (then the division's and
   * roots' bits) and d > 0 (then la is normal).  Their branches (each
   * division's and square root's own test, d's, the log's) ended the basic
   * block seven times a step, so that ptxas could not interleave the step's
   * chains with the next step's normals (bench/RESULTS.md "heston-fast").
   * The other cases follow, as on the host.  The log below, the polynomial
   * alone (mcpi_dlog's where la is normal, without its branch), reads a
   * normal la; any other's is taken in its case. */
  {
    MCPI_P(mcpi_qe_square) o = MCPI_P(mcpi_qe_squared)(m, m2, s2, A, zv, 1);
    vn = o.vn;
    k0a = o.k0a;
    lc = half;
    la = o.la;
    done = s2 > 0x1p-900 && s2 <= (MCPI_REAL)1.5 * m2 && o.d > 0x1p-400 && o.q * o.d < 0x1p1000;
  }
#define MCPI_QE_LOG mcpi_dlog_poly
#define MCPI_QE_SQRT mcpi_dsqrt_any
#else
#define MCPI_QE_LOG MCPI_LOG
#define MCPI_QE_SQRT MCPI_SQRT
#endif
  if (!done) {
    MCPI_P(mcpi_qe_terms) t = MCPI_P(mcpi_qe_cases)(m, m2, s2, A, zv, k0b,
                                                    (MCPI_REAL)h->MCPI_COEF(rkt), dt, xi);
    vn = t.vn;
    k0a = t.k0a;
    lc = t.lc;
    la = t.la;
    k0b = t.k0b;
  }
  MCPI_REAL k0 = k0a + lc * MCPI_QE_LOG(la) - k0b;
  *x += drift + k0 + k1 * v0 + k2 * vn + MCPI_QE_SQRT(k3 * (v0 + vn)) * zx;
#undef MCPI_QE_LOG
#undef MCPI_QE_SQRT
  *var = half * (v0 + vn) * dt;
  *v = vn;
}
#undef MCPI_QE_R_MAX
