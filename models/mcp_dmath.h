/* mcp_dmath.h: exp, log, sincospi and the normal distribution in double for
 * the path loops.
 *
 * CUDA's own functions cost about twice the instructions there: ptxas
 * (sm_90, CUDA 13.0) builds each 64-bit coefficient of their polynomials
 * with two uniform moves, some 70 a fused path step (bench/RESULTS.md).
 * These keep their coefficients in one table, in constant memory on the
 * device, which the multiply-adds read as operands or hoist out of the loop.
 * Each _poly function is the algorithm alone, within 2 ulp of the exact
 * value on its range (tests/test_dmath.c; Phi within a few ulp).  On the
 * device mcpi_dexp and mcpi_dsincospi run it where it applies and CUDA's
 * function elsewhere; mcpi_dlog and mcpi_dncdf run it everywhere.  On the
 * host mcpi_dexp, mcpi_dlog and mcpi_dncdf run it too (the paths' spots,
 * the Heston step's logs and uniforms, the bridges' extremes, the jumps'
 * counts), and the Box-Muller calls the _poly functions themselves, in
 * copies built for FMA hardware (rng.h, src/rng/rng.c, src/rng/lanes.c;
 * without the instruction fma is a slow call), so that host and device
 * compute the same bits; mcpi_dsincospi is the C library's there.
 *
 *   exp(x), |x| < 700:  2^n e^r, n = rint(x / ln 2), |r| <= ln 2 / 2 in two
 *     parts of ln 2; e^r by its Taylor series to r^13 (truncation < 0.1 ulp).
 *   log(x), x normal:   x = m 2^e, m in [sqrt(1/2), sqrt(2)), f = m - 1,
 *     s = f / (2 + f); log m = f - s (f - R), R = sum 2 s^2k / (2k + 1) to
 *     k = 10 (the atanh series of s, as in fdlibm's log, Taylor coefficients).
 *   sincospi(v), |v| < 2^30:  v = q / 2 + r exactly, |r| <= 1/4; sin(pi r)
 *     and cos(pi r) by their Taylor series to r^17 and r^16; the quadrant
 *     q mod 4 swaps and negates them.
 *   Phi(x): mcpi_dncdf_poly's comment. */
#ifndef MCP_DMATH_H
#define MCP_DMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "models/mcp_hd.h"

/* The table: exp's Taylor coefficients 1/k!, k = 0..13; log's 2 / (2k + 1),
 * k = 1..10; sin(pi r) / r's (-1)^k pi^(2k+1) / (2k+1)!, k = 0..8;
 * cos(pi r)'s (-1)^k pi^2k / (2k)!, k = 1..8; then 1 / ln 2, ln 2 in a high
 * part with 32 low zero bits and the rest; Cody's erf, erfc and erfc tail
 * numerators and denominators, highest power first; 1 / sqrt(2) and
 * 1 / sqrt(pi). */
#define MCPI_DMATH_TABLE                                                                        \
  {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,         \
   1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,            \
   2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13, 2.0 / 15, 2.0 / 17, 2.0 / 19,        \
   2.0 / 21,                                                                                    \
   3.1415926535897931, -5.1677127800499703, 2.5501640398773455, -0.59926452932079211,           \
   0.082145886611128233, -0.0073704309457143504, 0.00046630280576761255,                        \
   -2.1915353447830217e-05, 7.9520540014755126e-07,                                             \
   -4.934802200544679, 4.0587121264167685, -1.3352627688545895, 0.23533063035889321,            \
   -0.025806891390014061, 0.0019295743094039231, -0.0001046381049248457,                        \
   4.3030695870329473e-06,                                                                      \
   1.4426950408889634, 0x1.62e42fee00000p-1, 0x1.a39ef35793c76p-33,                             \
   1.85777706184603153e-1, 3.16112374387056560e0, 1.13864154151050156e2,                        \
   3.77485237685302021e2, 3.20937758913846947e3,                                                \
   1.0, 2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3,                    \
   2.84423683343917062e3,                                                                       \
   2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e0,                       \
   6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,                         \
   1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3,                         \
   1.0, 1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2,                    \
   1.62138957456669019e3, 3.29079923573345963e3, 4.36261909014324716e3,                         \
   3.43936767414372164e3, 1.23033935480374942e3,                                                \
   1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,                      \
   1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4,                      \
   1.0, 2.56852019228982242e0, 1.87295284992346047e0, 5.27905102951428412e-1,                   \
   6.05183413124413191e-2, 2.33520497626869185e-3,                                              \
   0.70710678118654752440, 0.56418958354775628695}
enum {
  MCPI_DM_EXP = 0,      /* 14 */
  MCPI_DM_LOG = 14,     /* 10 */
  MCPI_DM_SIN = 24,     /* 9 */
  MCPI_DM_COS = 33,     /* 8 */
  MCPI_DM_LOG2E = 41,
  MCPI_DM_LN2_HI = 42,
  MCPI_DM_LN2_LO = 43,
  MCPI_DM_ERF_P = 44,   /* 5, then its denominator's 5 */
  MCPI_DM_ERFC_P = 54,  /* 9, then 9 */
  MCPI_DM_TAIL_P = 72,  /* 6, then 6 */
  MCPI_DM_RSQRT2 = 84,
  MCPI_DM_RSQRTPI = 85
};

#ifdef __CUDACC__
static __constant__ double mcpi_dmath_device[] = MCPI_DMATH_TABLE;
#endif
static const double mcpi_dmath_host[] = MCPI_DMATH_TABLE;
#ifdef __CUDA_ARCH__
#define MCPI_DM(i) mcpi_dmath_device[i]
#else
#define MCPI_DM(i) mcpi_dmath_host[i]
#endif

MCP_HD static inline uint64_t mcpi_dbits(double x)
{
#ifdef __CUDA_ARCH__
  return (uint64_t)__double_as_longlong(x);
#else
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return b;
#endif
}

MCP_HD static inline double mcpi_dfrom_bits(uint64_t b)
{
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)b);
#else
  double x;
  memcpy(&x, &b, sizeof x);
  return x;
#endif
}

/* A small integer (|e| < 2^51) as a double, and the low two bits of an
 * integral double (|q| < 2^51), exactly: on the host by the 1.5 2^52 trick,
 * integer and floating-point operations that AVX2 has in vectors (it has no
 * 64-bit integer conversion); on the device by its conversions. */
MCP_HD static inline double mcpi_dint(int64_t e)
{
#ifdef __CUDA_ARCH__
  return (double)e;
#else
  return mcpi_dfrom_bits(mcpi_dbits(0x1.8p52) + (uint64_t)e) - 0x1.8p52;
#endif
}

MCP_HD static inline unsigned mcpi_dlow2(double q)
{
#ifdef __CUDA_ARCH__
  return (unsigned)(int64_t)q & 3u; /* two's complement: -1 -> 3 */
#else
  return (unsigned)(mcpi_dbits(q + 0x1.8p52) & 3u);
#endif
}

/* rint(t) for |t| < 2^51 as t + 1.5 2^52 rounds it (ties to even, as rint
 * in the default rounding), in k, and that integer's low 32 bits, which k's
 * low word holds: on the device two adds and a move where rint and a 64-bit
 * conversion take the narrow conversion pipe (mcpi_mexp's; in the double
 * exp they gained nothing measurable, bench/RESULTS.md "mixed"). */
#ifdef __CUDA_ARCH__
MCP_HD static inline double mcpi_dround(double t, double *k)
{
  *k = __dadd_rn(t, 0x1.8p52);
  return __dadd_rn(*k, -0x1.8p52);
}
/* y times 2^n, n the low word of k, in y's exponent field (right where y is
 * normal and the sum's exponent inside the normal range; a caller discards
 * the others: the sum is unsigned, so that those wrap, defined) */
MCP_HD static inline double mcpi_dscale(double y, double k)
{
  return __hiloint2double(
      (int)((uint32_t)__double2hiint(y) + ((uint32_t)__double2loint(k) << 20)),
      __double2loint(y));
}
#endif

#ifdef __CUDACC__ /* (nvcc's host pass parses the device functions that call them) */
/* a / b and sqrt(x) as the device's correctly rounded division and square
 * root compute them, the same operations on the same first approximation
 * (the 64-bit reciprocal's and reciprocal square root's high words), without
 * their test and call for operands out of range: so the same bits where
 * that test passes, and no branch, which would end the basic block and keep
 * ptxas from interleaving a path step's chains (a Heston QE step took six;
 * bench/RESULTS.md "heston-fast").  mcpi_ddiv_fast: |a| >= 2^-960, b
 * normal with |b| < 2^1000 and a / b normal (inside the test's), or a = +0
 * (-0 gives +0); mcpi_dsqrt_fast: finite x >= 2^-960; mcpi_dsqrt_any: any
 * finite x >= 0 (below 2^-900 x scaled by 2^200 first and the root by
 * 2^-100 after, exactly), a few instructions more. */
__device__ static inline double mcpi_drcp_fast(double b)
{
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(b));
  r = __hiloint2double(__double2hiint(r), 1);
  double e = fma(-b, r, 1.0);
  e = fma(e, e, e);
  r = fma(r, e, r);
  e = fma(-b, r, 1.0);
  return fma(r, e, r);
}
/* the division's last steps, given b's reciprocal r by mcpi_drcp_fast: a
 * divisor's reciprocal computed once serves every division by it */
__device__ static inline double mcpi_ddiv_rcp(double a, double b, double r)
{
  double q = __dmul_rn(a, r);
  return fma(r, fma(-b, q, a), q);
}
__device__ static inline double mcpi_ddiv_fast(double a, double b)
{
  return mcpi_ddiv_rcp(a, b, mcpi_drcp_fast(b));
}
__device__ static inline double mcpi_dsqrt_fast(double x)
{
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  y = __hiloint2double(__double2hiint(y), __double2hiint(x) - 0x03500000);
  double e = fma(-x, __dmul_rn(y, y), 1.0);
  y = fma(fma(e, 0.375, 0.5), __dmul_rn(y, e), y);
  double s = __dmul_rn(x, y);
  return fma(fma(-s, s, x), __dmul_rn(y, 0.5), s);
}
__device__ static inline double mcpi_dsqrt_any(double x)
{
  int tiny = x < 0x1p-900;
  double s = mcpi_dsqrt_fast(tiny ? __dmul_rn(x, 0x1p200) : x);
  s = tiny ? __dmul_rn(s, 0x1p-100) : s;
  return x == 0 ? x : s;
}
#endif

MCP_HD static inline double mcpi_dexp_poly(double x)
{
  double n = rint(x * MCPI_DM(MCPI_DM_LOG2E));
  double r = fma(-n, MCPI_DM(MCPI_DM_LN2_HI), x); /* exact: n has at most 11 bits */
  r = fma(-n, MCPI_DM(MCPI_DM_LN2_LO), r);
  double p = MCPI_DM(MCPI_DM_EXP + 13);
  MCP_UNROLL
  for (int k = 12; k >= 0; k--)
    p = fma(p, r, MCPI_DM(MCPI_DM_EXP + k));
  /* times 2^n in the exponent field: p in [0.7, 1.5], |n| <= 1010 */
  return mcpi_dfrom_bits(mcpi_dbits(p) + ((uint64_t)(int64_t)n << 52));
}

MCP_HD static inline double mcpi_dlog_poly(double x)
{
  uint64_t b = mcpi_dbits(x);
  int64_t e = (int64_t)(b >> 52) - 1023;
  uint64_t mb = (b & UINT64_C(0x000fffffffffffff)) | UINT64_C(0x3ff0000000000000);
  if (mb > UINT64_C(0x3ff6a09e667f3bcd)) { /* m > sqrt(2): m / 2, e + 1 */
    mb -= UINT64_C(0x0010000000000000);
    e++;
  }
  double f = mcpi_dfrom_bits(mb) - 1.0; /* exact */
#ifdef __CUDA_ARCH__
  double s = mcpi_ddiv_fast(f, 2.0 + f), z = s * s; /* in its range: |f| < 1/2 */
#else
  double s = f / (2.0 + f), z = s * s;
#endif
  double R = MCPI_DM(MCPI_DM_LOG + 9);
  MCP_UNROLL
  for (int k = 8; k >= 0; k--)
    R = fma(R, z, MCPI_DM(MCPI_DM_LOG + k));
  R *= z;
  double dk = mcpi_dint(e), t = fma(-s, f - R, f);
  return fma(dk, MCPI_DM(MCPI_DM_LN2_HI), fma(dk, MCPI_DM(MCPI_DM_LN2_LO), t));
}

MCP_HD static inline void mcpi_dsincospi_poly(double v, double *sp, double *cp)
{
  double q = rint(2.0 * v);
  double r = fma(-0.5, q, v), z = r * r; /* exact */
  double s = MCPI_DM(MCPI_DM_SIN + 8), c = MCPI_DM(MCPI_DM_COS + 7);
  MCP_UNROLL
  for (int k = 7; k >= 0; k--)
    s = fma(s, z, MCPI_DM(MCPI_DM_SIN + k));
  MCP_UNROLL
  for (int k = 6; k >= 0; k--)
    c = fma(c, z, MCPI_DM(MCPI_DM_COS + k));
  s *= r;
  c = fma(c, z, 1.0);
  unsigned iq = mcpi_dlow2(q);
  double sn = iq & 1u ? c : s, cs = iq & 1u ? s : c;
  *sp = iq & 2u ? -sn : sn;
  *cp = (iq + 1u) & 2u ? -cs : cs;
}

#ifndef __CUDA_ARCH__
/* The same on the host (src/rng/lanes.c): the polynomial, built for FMA where
 * the processor has it, so that the host's spots are the device's bits. */
double mcpi_dexp_host(double x);
#endif

MCP_HD static inline double mcpi_dexp(double x)
{
#ifdef __CUDA_ARCH__
  if (fabs(x) < 700.0)
    return mcpi_dexp_poly(x);
  return exp(x);
#else
  return mcpi_dexp_host(x);
#endif
}

/* e^x to float's accuracy, for the mixed precision's fixings: x = (n + f)
 * ln 2 in double, |f| <= 1/2, 2^f by the float exp2 (on the GPU its
 * hardware approximation, on the host the C library's: they agree to a few
 * float ulp), 2^n in the exponent field; |x| >= 700 by exp.  On the device
 * the same numbers with no 64-bit conversion: n as mcpi_dround gives it,
 * 2^f's float made a double in its bits (2^f in [0.7, 1.5] is normal), and
 * the range's test after the fast path, not around it, so that the path
 * loop's block holds it (ptxas then interleaves a round's elements: the
 * mixed Asian 5% faster, bench/RESULTS.md "mixed"; the double exp, tried
 * so, was slower). */
MCP_HD static inline double mcpi_mexp(double x)
{
#ifdef __CUDA_ARCH__
  double k, t = __dmul_rn(x, MCPI_DM(MCPI_DM_LOG2E));
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(__double2float_rn(t - mcpi_dround(t, &k))));
  uint32_t b = __float_as_uint(e);
  double y = mcpi_dscale(__hiloint2double((int)((b >> 3) + (896u << 20)), (int)(b << 29)), k);
  if (!(fabs(x) < 700.0))
    y = exp(x);
  return y;
#else
  if (!(fabs(x) < 700.0))
    return exp(x);
  double t = x * MCPI_DM(MCPI_DM_LOG2E), n = rint(t);
  double e = (double)exp2f((float)(t - n));
  return mcpi_dfrom_bits(mcpi_dbits(e) + ((uint64_t)(int64_t)n << 52));
#endif
}

/* log(x) for any x: the polynomial where x is positive and normal, a
 * subnormal scaled into its range first, the library's special values
 * (log of 0, of a negative, of infinity or NaN) elsewhere: the same bits
 * wherever it runs (a NaN's payload aside). */
MCP_HD static inline double mcpi_dlog_one(double x)
{
  if ((mcpi_dbits(x) >> 52) - 1u < 0x7feu) /* positive and normal */
    return mcpi_dlog_poly(x);
  if (x > 0 && x < 0x1p-1022)
    return fma(-54.0, MCPI_DM(MCPI_DM_LN2_HI),
               fma(-54.0, MCPI_DM(MCPI_DM_LN2_LO), mcpi_dlog_poly(x * 0x1p54)));
  return log(x);
}

/* p(x) by Horner from the table's n coefficients at first, highest first. */
MCP_HD static inline double mcpi_dpoly(double x, int first, int n)
{
  double p = MCPI_DM(first);
  MCP_UNROLL
  for (int k = 1; k < n; k++)
    p = fma(p, x, MCPI_DM(first + k));
  return p;
}

/* The standard normal's distribution Phi(x) by Cody's rational
 * approximations of erf and erfc (Math. Comp. 23, 1969) in y = |x| / sqrt 2:
 * erf(y) = y P(y^2) / Q(y^2) below 0.46875; above, erfc(y) = e^{-y^2}
 * R(y), R = P(y) / Q(y) to 4 and (1 / sqrt(pi) - w P(w) / Q(w)) / y past it,
 * w = 1 / y^2.  The factor e^{-x^2 / 2} from x itself, its square in two
 * parts (hi + lo exactly, by fma), as e^{-hi} (1 - lo): the tail keeps its
 * relative accuracy (y's rounding moves R alone, by an ulp or so).  Past
 * x^2 / 2 = 700 the exponential is taken in halves, so that the tail goes
 * through the subnormals to 0 (near x = -38.5) as the library's does. */
MCP_HD static inline double mcpi_dncdf_poly(double x)
{
  double a = fabs(x), y = a * MCPI_DM(MCPI_DM_RSQRT2);
  if (!(y >= 0.46875)) { /* NaN too */
    double z = y * y;
    double e = y * mcpi_dpoly(z, MCPI_DM_ERF_P, 5) / mcpi_dpoly(z, MCPI_DM_ERF_P + 5, 5);
    return 0.5 + (x < 0 ? -0.5 : 0.5) * e;
  }
  double r;
  if (y <= 4.0) {
    r = mcpi_dpoly(y, MCPI_DM_ERFC_P, 9) / mcpi_dpoly(y, MCPI_DM_ERFC_P + 9, 9);
  } else {
    double w = 1.0 / (y * y);
    r = (MCPI_DM(MCPI_DM_RSQRTPI) -
         w * mcpi_dpoly(w, MCPI_DM_TAIL_P, 6) / mcpi_dpoly(w, MCPI_DM_TAIL_P + 6, 6)) /
        y;
  }
  double s = a * a, hi = 0.5 * s, lo = 0.5 * fma(a, a, -s);
  double h = hi < 700.0 ? hi : hi < 1400.0 ? 0.5 * hi : 0.0;
  double e = mcpi_dexp_poly(-h), tail = 0.5 * r * (1.0 - lo) * e;
  if (!(hi < 700.0))
    tail = hi < 1400.0 ? tail * e : 0.0;
  return x < 0 ? tail : 1.0 - tail;
}

/* log and Phi in double for the paths: on the device the algorithm, on the
 * host its entry in src/rng/lanes.c (the same, built for FMA where the
 * processor has it): the same bits. */
#ifdef __CUDA_ARCH__
#define MCPI_DMATH_ENTRY(name, algorithm)                                                        \
  MCP_HD static inline double name(double x) { return algorithm(x); }
#else
#define MCPI_DMATH_ENTRY(name, algorithm)                                                        \
  double name##_host(double x);                                                                  \
  static inline double name(double x) { return name##_host(x); }
#endif
MCPI_DMATH_ENTRY(mcpi_dlog, mcpi_dlog_one)
MCPI_DMATH_ENTRY(mcpi_dncdf, mcpi_dncdf_poly)
#undef MCPI_DMATH_ENTRY

/* On the host sin and cos of pi v, as cuRAND's host generator takes them. */
MCP_HD static inline void mcpi_dsincospi(double v, double *sp, double *cp)
{
#ifdef __CUDA_ARCH__
  if (fabs(v) < 1073741824.0) { /* 2^30 */
    mcpi_dsincospi_poly(v, sp, cp);
    return;
  }
  sincospi(v, sp, cp);
#else
  *sp = sin(v * 3.1415926535897932);
  *cp = cos(v * 3.1415926535897932);
#endif
}

#endif
