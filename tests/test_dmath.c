/* test_dmath.c: the device's double exp, log, sincospi and Phi (mcp_dmath.h), their
 * algorithms run on the host, against long double references: within 2 ulp
 * on random arguments over each fast range and where the ranges are hard
 * (near 0 for exp, near 1 for log, near the quadrant edges for sincospi,
 * the Box-Muller uniforms), and exact at the points that must be. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "models/mcp_dmath.h"

#define N 200000
#define PI_L 3.141592653589793238462643383279502884L

/* A reproducible uniform in [0, 1) (splitmix64). */
static double uniform(uint64_t *s)
{
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

/* |got - want| in ulps of want rounded to double (ulp of the smallest normal
 * below it). */
static double ulps(double got, long double want)
{
  double w = (double)want;
  double ulp = w == 0 ? DBL_MIN * DBL_EPSILON : nextafter(fabs(w), INFINITY) - fabs(w);
  return (double)(fabsl((long double)got - want) / ulp);
}

static void expect_within(double worst, double bound, const char *what)
{
  print_message("  %s: largest error %.3f ulp\n", what, worst);
  if (!(worst <= bound))
    fail_msg("%s: %.3f ulp, more than %.1f", what, worst, bound);
}

/* The larger of worst and f's error at x against ref; names a bad point. */
static double check(double (*f)(double), long double (*ref)(long double), const char *name,
                    double x, double worst)
{
  double e = ulps(f(x), ref((long double)x));
  if (e > worst && e > 2)
    print_message("  %s(%.17g) = %.17g, %.2f ulp\n", name, x, f(x), e);
  return fmax(worst, e);
}

static double check_exp(double x, double worst)
{
  return check(mcpi_dexp_poly, expl, "exp", x, worst);
}

static void exp_within_2_ulp(void **state)
{
  uint64_t s = 1;
  double worst = 0;
  for (int i = 0; i < N; i++) {
    worst = check_exp(1398 * uniform(&s) - 699, worst);  /* the whole range */
    worst = check_exp(20 * uniform(&s) - 10, worst);     /* log-spots */
    worst = check_exp(ldexp(uniform(&s) - 0.5, -30), worst); /* near 0 */
  }
  expect_within(worst, 2, "exp");
  assert_true(mcpi_dexp_poly(0.0) == 1.0);
  assert_true(mcpi_dexp_poly(1.0) == exp(1.0) || ulps(mcpi_dexp_poly(1.0), expl(1.0L)) <= 1);
  assert_true(mcpi_dexp(800.0) == INFINITY && mcpi_dexp(-800.0) == 0.0); /* the library's */
}

static double check_log(double x, double worst)
{
  return check(mcpi_dlog_poly, logl, "log", x, worst);
}

static void log_within_2_ulp(void **state)
{
  uint64_t s = 2;
  double worst = 0;
  for (int i = 0; i < N; i++) {
    /* Box-Muller's u: 53 bits, from 2^-54 up */
    worst = check_log(uniform(&s) + 0x1p-54, worst);
    worst = check_log(1 - ldexp(uniform(&s), -20), worst); /* just below 1 */
    worst = check_log(1 + ldexp(uniform(&s), -20), worst); /* just above */
    worst = check_log(exp2(2040 * uniform(&s) - 1020), worst); /* every exponent */
    worst = check_log(0x1.6a09e667f3bccp+0 + ldexp(uniform(&s) - 0.5, -40), worst); /* sqrt 2 */
  }
  expect_within(worst, 2, "log");
  assert_true(mcpi_dlog_poly(1.0) == 0.0);
  assert_true(mcpi_dlog_poly(2.0) == log(2.0));
  /* mcpi_dlog: the polynomial's bits where x is normal, a subnormal scaled
   * into its range, the special values */
  for (int i = 0; i < 1000; i++) {
    double x = exp2(2040 * uniform(&s) - 1020), sub = ldexp(uniform(&s) + 0x1p-52, -1022);
    assert_true(mcpi_dlog(x) == mcpi_dlog_poly(x));
    worst = fmax(worst, ulps(mcpi_dlog(sub), logl((long double)sub)));
  }
  expect_within(worst, 2, "log with subnormals");
  assert_true(mcpi_dlog(0x1p-1074) == (double)logl(0x1p-1074L));
  assert_true(isnan(mcpi_dlog(-1.0)) && isnan(mcpi_dlog(NAN)) && mcpi_dlog(0.0) == -INFINITY &&
              mcpi_dlog(INFINITY) == INFINITY);
}

/* Phi(x) in long double: erfc's argument rounds to 64 bits, which moves the
 * tail by x^2 2^-64 relative at most, far below a double's ulp. */
static long double ncdf_ref(long double x) { return 0.5L * erfcl(-x / sqrtl(2.0L)); }

static double check_ncdf(double x, double worst)
{
  return check(mcpi_dncdf_poly, ncdf_ref, "Phi", x, worst);
}

/* Phi: relative to the value, the tail's accuracy included (the Heston
 * step's U takes its log, the bridge's extremes too): within 6 ulp on the
 * development machine, the rational's and the factors' roundings (CUDA
 * documents 5 for its normcdf); and the same bits from mcpi_dncdf as from
 * the algorithm. */
static void ncdf_within_8_ulp(void **state)
{
  uint64_t s = 4;
  double worst = 0;
  for (int i = 0; i < N; i++) {
    worst = check_ncdf(17 * uniform(&s) - 8.5, worst); /* the normals' range */
    worst = check_ncdf(-5 - 32.5 * uniform(&s), worst); /* the tail, normal values */
    worst = check_ncdf(ldexp(uniform(&s) - 0.5, -20), worst); /* near 0 */
    /* either side of the approximations' edges, |x| / sqrt 2 = 0.46875 and 4 */
    worst = check_ncdf(0.6629126073623883 * (1 + ldexp(uniform(&s) - 0.5, -30)), worst);
    worst = check_ncdf(-5.656854249492381 * (1 + ldexp(uniform(&s) - 0.5, -30)), worst);
  }
  expect_within(worst, 8, "Phi");
  for (int i = 0; i < 1000; i++) {
    double x = 80 * uniform(&s) - 40;
    assert_true(mcpi_dncdf(x) == mcpi_dncdf_poly(x));
  }
  /* through the subnormals to 0, as the library's; the limits and NaN */
  double sub = mcpi_dncdf_poly(-38.0);
  assert_true(sub > 0 && sub < 0x1p-1022 && fabs(sub - (double)ncdf_ref(-38.0L)) <= 0x1p-1071);
  assert_true(mcpi_dncdf_poly(-38.5) == 0.0 && mcpi_dncdf_poly(-1e300) == 0.0);
  assert_true(mcpi_dncdf_poly(-INFINITY) == 0.0 && mcpi_dncdf_poly(INFINITY) == 1.0);
  assert_true(mcpi_dncdf_poly(0.0) == 0.5 && mcpi_dncdf_poly(40.0) == 1.0);
  assert_true(isnan(mcpi_dncdf_poly(NAN)));
}

/* sin(pi v) and cos(pi v) in long double, reduced like the algorithm (v - q/2
 * is exact), so that the reference keeps its accuracy near the zeros. */
static void sincospi_ref(double v, long double *s, long double *c)
{
  double q = rint(2.0 * v);
  long double r = (long double)v - 0.5L * q, sn = sinl(PI_L * r), cs = cosl(PI_L * r);
  long long iq = (long long)q & 3;
  long double a = iq & 1 ? cs : sn, b = iq & 1 ? sn : cs;
  *s = iq & 2 ? -a : a;
  *c = (iq + 1) & 2 ? -b : b;
}

static double check_sincospi(double v, double worst)
{
  double s, c;
  long double rs, rc;
  mcpi_dsincospi_poly(v, &s, &c);
  sincospi_ref(v, &rs, &rc);
  double e = fmax(ulps(s, rs), ulps(c, rc));
  if (e > worst && e > 2)
    print_message("  sincospi(%.17g) = %.17g %.17g, %.2f ulp\n", v, s, c, e);
  return fmax(worst, e);
}

static void sincospi_within_2_ulp(void **state)
{
  uint64_t s = 3;
  double worst = 0;
  for (int i = 0; i < N; i++) {
    worst = check_sincospi(2 * uniform(&s) + 0x1p-53, worst); /* Box-Muller's v */
    worst = check_sincospi(2e6 * uniform(&s) - 1e6, worst);
    /* the quadrant edges: v near a multiple of 1/4 */
    worst = check_sincospi(floor(16 * uniform(&s)) / 4 + ldexp(uniform(&s) - 0.5, -25), worst);
  }
  expect_within(worst, 2, "sincospi");
  double sn, cs;
  mcpi_dsincospi_poly(0.5, &sn, &cs);
  assert_true(sn == 1.0 && cs == 0.0);
  mcpi_dsincospi_poly(1.0, &sn, &cs);
  assert_true(sn == 0.0 && cs == -1.0);
  mcpi_dsincospi_poly(-0.5, &sn, &cs);
  assert_true(sn == -1.0 && cs == 0.0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exp_within_2_ulp),
      cmocka_unit_test(log_within_2_ulp),
      cmocka_unit_test(sincospi_within_2_ulp),
      cmocka_unit_test(ncdf_within_8_ulp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
