/* lanes.c: what the host runs across a group of paths, in vector copies
 * (rng.h: mcpi_host_copy): e^x by mcp_dmath.h's polynomial, as on the GPU,
 * and the single-asset path body element-major over a group of paths. */
#include <stdatomic.h>
#include "src/rng/lanes.h"
#include "models/rng.h"

/* Below -746 e^x rounds to +0, which the C library's exp returns only after
 * its underflow path (errno, a trap's flags), some 40 ns a call: a barrier
 * watched on the bridge far from the path asks for it at most steps. */
static inline double dexp_one(double x)
{
  return fabs(x) < 700.0 ? mcpi_dexp_poly(x) : x < -746.0 ? 0.0 : exp(x);
}

/* mcp_dmath.h's host entries: each function built twice, with the
 * instruction and without (then fma is the library's call, the same bits),
 * the processor's FMA asked once and the copy chosen by a flag read each
 * call, not an ifunc: the sanitizers' runtimes are not up when the loader
 * runs a resolver. */
#if defined __x86_64__ && defined __GNUC__
static int has_fma(void)
{
  static _Atomic int known = -1; /* not yet asked */
  int f = atomic_load_explicit(&known, memory_order_relaxed);
  if (f < 0) {
    f = __builtin_cpu_supports("fma") ? 1 : 0;
    atomic_store_explicit(&known, f, memory_order_relaxed);
  }
  return f;
}
#define HOST_MATH(name, body)                                                                    \
  __attribute__((target("fma"))) static double name##_fma(double x) { return body(x); }         \
  double name(double x) { return has_fma() ? name##_fma(x) : body(x); }
#else
#define HOST_MATH(name, body)                                                                    \
  double name(double x) { return body(x); }
#endif
HOST_MATH(mcpi_dexp_host, dexp_one)
HOST_MATH(mcpi_dlog_host, mcpi_dlog_one)
HOST_MATH(mcpi_dncdf_host, mcpi_dncdf_poly)
#undef HOST_MATH

static inline void exp_lanes(const double *x, double *y, size_t n)
{
#pragma omp simd
  for (size_t i = 0; i < n; i++) { /* lanes out of range take 0 and are redone */
    double p = mcpi_dexp_poly(fabs(x[i]) < 700.0 ? x[i] : 0.0);
    y[i] = x[i] < -746.0 ? 0.0 : p; /* dexp_one's */
  }
  int out = 0; /* outside both: a reduction, in vectors */
  for (size_t i = 0; i < n; i++)
    out |= !(fabs(x[i]) < 700.0 || x[i] < -746.0);
  if (out)
    for (size_t i = 0; i < n; i++)
      if (!(fabs(x[i]) < 700.0 || x[i] < -746.0))
        y[i] = exp(x[i]);
}

/* The mixed precision's (mcp_dmath.h's mcpi_mexp), for its plain shape. */
static inline void mexp_lanes(const double *x, double *y, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = mcpi_mexp(x[i]);
}

/* ---- single-asset paths a group at a time -----------------------------------
 * Double paths without per-path arrays or the Greeks' state run
 * element-major over groups of LANES paths (their states stay in L1): each
 * element's model step across the group, then at a fixing the group's spots
 * through exp_lanes, then the fixings and barriers; the same body functions
 * as mcpi_path. */
enum { LANES = 32 };

/* Any single-asset job: path_body.h's state, path by path. */
static inline void group(const mcpi_job_view *v, const double *z, size_t ldz, size_t m,
                         double *pay, size_t ldp)
{
  mcpi_path_state st[LANES];
  double x[LANES], spot[LANES];
  for (size_t k0 = 0; k0 < m; k0 += LANES) {
    size_t n = m - k0 < LANES ? m - k0 : LANES;
    for (int pass = 0; pass <= (v->antithetic ? 1 : 0); pass++) {
      for (size_t k = 0; k < n; k++)
        mcpi_path_init(&st[k], v, pass);
      for (int e = 0; e < v->nelem; e++) {
        double a = v->ca[e], b = v->cb[e];
        uint32_t tag = v->tag[e], mask = tag & MCPI_TAG_MASK;
        const double *ze = z + (size_t)e * ldz + k0;
        for (size_t k = 0; k < n; k++)
          mcpi_path_advance(&st[k], v, ze[k], a, b, tag);
        if ((tag & (MCPI_TAG_LAST | MCPI_TAG_HOLD)) != MCPI_TAG_LAST) /* a held step: unobserved */
          continue;
        int cash = v->cash && (tag & MCPI_TAG_CASH); /* mcpi_path_observe's order */
        for (size_t k = 0; cash && k < n; k++) {
          mcpi_path_watch(&st[k], v);
          mcpi_path_cash(&st[k], v);
        }
        if (mask) {
          for (size_t k = 0; k < n; k++)
            x[k] = st[k].x;
          exp_lanes(x, spot, n);
          for (size_t k = 0; k < n; k++)
            mcpi_path_fix(&st[k], v, mask, spot[k]);
        }
        for (size_t k = 0; !cash && k < n; k++)
          mcpi_path_watch(&st[k], v);
      }
      for (size_t k = 0; k < n; k++)
        mcpi_path_finish(&st[k], v, pay + k0 + k, ldp, pass);
    }
  }
}

/* A job of the plain shape (path.h: Black-Scholes, sums at the fixings, no
 * monitor): the state that changes along the path, the log-spot and the
 * schedules' sums, in arrays across the group, which the compiler keeps in
 * vectors.  The lines are mcpi_path_advance_p's and mcpi_path_fix_p's for
 * that shape (the step by MCPI_GBM_STEP, the sums in the same order); the
 * lanes' states take the sums for mcpi_path_finish_p.  Not for the Greeks'
 * passes (the likelihood-ratio score, the first normal, is not kept; their
 * jobs do not have the plain shape today).  tests/test_pricing.c holds it
 * to the paths alone, bit for bit. */
static inline void group_plain(const mcpi_job_view *v, const double *z, size_t ldz, size_t m,
                               double *pay, size_t ldp, int mixed)
{
  double x[LANES], spot[LANES], sum[MCPI_PLAIN_SCHEDULES][LANES];
  for (size_t k0 = 0; k0 < m; k0 += LANES) {
    size_t n = m - k0 < LANES ? m - k0 : LANES;
    for (int pass = 0; pass <= (v->antithetic ? 1 : 0); pass++) {
      mcpi_path_state_p st;
      mcpi_path_init_p(&st, v, pass);
      double sign = st.sign;
      for (size_t k = 0; k < n; k++) {
        x[k] = st.x;
        for (int s = 0; s < MCPI_PLAIN_SCHEDULES; s++)
          sum[s][k] = st.sum[s];
      }
      int32_t step = 0;
      for (int e = 0; e < v->nelem; e++) {
        double a = v->ca[e], b = v->cb[e];
        uint32_t tag = v->tag[e], mask = tag & MCPI_TAG_MASK;
        const double *ze = z + (size_t)e * ldz + k0;
#pragma omp simd
        for (size_t k = 0; k < n; k++)
          x[k] = MCPI_GBM_STEP(x[k], a, b, ze[k] * sign);
        if (!(tag & MCPI_TAG_LAST))
          continue;
        step++;
        if (!mask)
          continue;
        if (mixed) /* the _mp family's fixings */
          mexp_lanes(x, spot, n);
        else
          exp_lanes(x, spot, n);
        for (int s = 0; s < MCPI_PLAIN_SCHEDULES; s++)
          if (mask >> s & 1u) {
#pragma omp simd
            for (size_t k = 0; k < n; k++)
              sum[s][k] += spot[k];
          }
      }
      for (size_t k = 0; k < n; k++) {
        mcpi_path_state_p sk = st;
        sk.x = x[k];
        sk.step = step;
        for (int s = 0; s < MCPI_PLAIN_SCHEDULES; s++)
          sk.sum[s] = sum[s][k];
        mcpi_path_finish_p(&sk, v, pay + k0 + k, ldp, pass);
      }
    }
  }
}

static inline void path_lanes(const mcpi_job_view *v, int plain, const double *z, size_t ldz,
                              size_t m, double *pay, size_t ldp)
{
  if (plain && !v->greeks) /* calls, not a pointer: each copy inlines its own */
    group_plain(v, z, ldz, m, pay, ldp, plain == 2);
  else
    group(v, z, ldz, m, pay, ldp);
}

/* ---- the copies ---------------------------------------------------------- */

#if defined __x86_64__ && defined __GNUC__
#define LANES_COPY(isa, suffix)                                                                  \
  __attribute__((target(isa), flatten)) static void exp_lanes##suffix(const double *x,          \
                                                                      double *y, size_t n)      \
  {                                                                                              \
    exp_lanes(x, y, n);                                                                          \
  }                                                                                              \
  __attribute__((target(isa), flatten)) static void path_lanes##suffix(                         \
      const mcpi_job_view *v, int plain, const double *z, size_t ldz, size_t m, double *pay,    \
      size_t ldp)                                                                                \
  {                                                                                              \
    path_lanes(v, plain, z, ldz, m, pay, ldp);                                                   \
  }
LANES_COPY(MCPI_ISA_AVX512, _avx512)
LANES_COPY(MCPI_ISA_AVX2, _avx2)
#endif

void mcpi_exp_lanes(int copy, const double *x, double *y, size_t n)
{
#if defined __x86_64__ && defined __GNUC__
  switch (copy) {
  case 2:
    exp_lanes_avx512(x, y, n);
    return;
  case 1:
    exp_lanes_avx2(x, y, n);
    return;
  }
#else
  (void)copy;
#endif
  exp_lanes(x, y, n);
}

static int groups_on = 1; /* mcpi_cpu_groups */

int mcpi_cpu_groups(int on)
{
  int prev = groups_on;
  groups_on = on;
  return prev;
}

int mcpi_path_lanes_fit(const mcpi_job_view *v)
{
  return groups_on && v->nassets <= 1 && !v->arr_len && !v->gstate && !v->lsm;
}

void mcpi_path_lanes(int copy, const mcpi_job_view *v, int plain, const double *z, size_t ldz,
                     size_t m, double *pay, size_t ldp)
{
#if defined __x86_64__ && defined __GNUC__
  switch (copy) {
  case 2:
    path_lanes_avx512(v, plain, z, ldz, m, pay, ldp);
    return;
  case 1:
    path_lanes_avx2(v, plain, z, ldz, m, pay, ldp);
    return;
  }
#else
  (void)copy;
#endif
  path_lanes(v, plain, z, ldz, m, pay, ldp);
}
