/* heston.c: Heston's characteristic function and the Lewis integrals
 * (heston.h) by Gauss-Legendre panels. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "src/analytic/heston.h"
#include "src/base/error.h"
#include "src/base/validate.h"

#define PI 3.14159265358979323846
#define GL_N 16           /* nodes a panel: exact for polynomials of degree 31 */
#define MAX_PANELS 20000  /* past them the distribution is too narrow to resolve */
#define TAIL_TOL 1e-14    /* the price's neglected tail, in units of the forward */
#define TAIL_TOL_D2 1e-10 /* the second derivative's, in units of 1 / forward */

/* The positive nodes and their weights of the GL_N-point Gauss-Legendre rule
 * on [-1, 1], by Newton's method on the Legendre polynomial. */
static void gauss_legendre(double x[GL_N / 2], double w[GL_N / 2])
{
  for (int i = 0; i < GL_N / 2; i++) {
    double z = cos(PI * (i + 0.75) / (GL_N + 0.5)), dp = 1;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = z;
      for (int j = 2; j <= GL_N; j++) {
        double p2 = ((2 * j - 1) * z * p1 - (j - 1) * p0) / j;
        p0 = p1;
        p1 = p2;
      }
      dp = GL_N * (z * p1 - p0) / (z * z - 1);
      double step = p1 / dp;
      z -= step;
      if (fabs(step) < 1e-16)
        break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

/* log(1 + z) / z on the principal branch, exact as z -> 0. */
static double complex log1p_over(double complex z)
{
  double x = creal(z), y = cimag(z);
  if (cabs(z) < 1e-6)
    return 1 - z / 2 + z * z / 3;
  return (0.5 * log1p(2 * x + x * x + y * y) + I * atan2(y, 1 + x)) / z;
}

/* E[e^{wX}] at w = 1/2 + iu (heston.h). */
static double complex phi(const mcpi_heston_params *h, double T, double u)
{
  double q = u * u + 0.25, xi2 = h->xi * h->xi;
  double complex beta = h->kappa - h->rho * h->xi * (0.5 + I * u);
  double complex d = csqrt(beta * beta + xi2 * q); /* Re d >= 0; beta + d never 0 */
  double complex bd = beta + d;
  double complex gh = -q / bd;      /* (beta - d) / xi^2 */
  double complex g = xi2 * gh / bd; /* (beta - d) / (beta + d) */
  double complex e = cexp(-d * T);
  double complex zq = gh * (1 - e) / (bd * (1 - g)); /* z / xi^2: 1 + z = (1 - g e) / (1 - g) */
  double complex c = h->kappa * h->theta * (gh * T - 2 * zq * log1p_over(xi2 * zq));
  double complex dv = gh * (1 - e) / (1 - g * e);
  return cexp(c + dv * h->v0);
}

/* A complex number and its derivatives in kappa, xi and rho (forward mode),
 * for phi's gradient: phi's steps again, each carrying its derivatives.
 * v0 and theta need none: ln phi = C + D v0 is linear in v0, and C in theta. */
#define NDUAL 3
typedef struct dual {
  double complex v, d[NDUAL];
} dual;

static dual constant(double complex c) { return (dual){.v = c}; }

static dual seed(double x, int k)
{
  dual r = {.v = x};
  r.d[k] = 1;
  return r;
}

static dual add(dual a, dual b)
{
  for (int k = 0; k < NDUAL; k++)
    a.d[k] += b.d[k];
  a.v += b.v;
  return a;
}

static dual scale(dual a, double complex s)
{
  for (int k = 0; k < NDUAL; k++)
    a.d[k] *= s;
  a.v *= s;
  return a;
}

static dual mul(dual a, dual b)
{
  dual r = {.v = a.v * b.v};
  for (int k = 0; k < NDUAL; k++)
    r.d[k] = a.d[k] * b.v + a.v * b.d[k];
  return r;
}

static dual quot(dual a, dual b)
{
  double complex ib = 1 / b.v;
  dual r = {.v = a.v * ib};
  for (int k = 0; k < NDUAL; k++)
    r.d[k] = (a.d[k] - r.v * b.d[k]) * ib;
  return r;
}

/* f(a) for f(a.v) = fv with f'(a.v) = df. */
static dual chain(dual a, double complex fv, double complex df)
{
  a = scale(a, df);
  a.v = fv;
  return a;
}

/* phi into *f and its derivatives in v0, kappa, theta, xi, rho into g. */
static void phi_grad(const mcpi_heston_params *h, double T, double u, double complex *f,
                     double complex g[MCPI_HESTON_PARAMS])
{
  double q = u * u + 0.25;
  dual kappa = seed(h->kappa, 0), xi = seed(h->xi, 1), rho = seed(h->rho, 2), one = constant(1);
  dual xi2 = mul(xi, xi);
  dual beta = add(kappa, scale(mul(rho, xi), -(0.5 + I * u)));
  dual dd = add(mul(beta, beta), scale(xi2, q));
  double complex sd = csqrt(dd.v);
  dual d = chain(dd, sd, 0.5 / sd);
  dual bd = add(beta, d);
  dual gh = quot(constant(-q), bd);
  dual gg = quot(mul(xi2, gh), bd);
  double complex ev = cexp(-d.v * T);
  dual e = chain(d, ev, -T * ev);
  dual one_e = add(one, scale(e, -1));
  dual zq = quot(mul(gh, one_e), mul(bd, add(one, scale(gg, -1))));
  dual z = mul(xi2, zq);
  double complex l = log1p_over(z.v), w = z.v; /* (log1p(w) / w)' = (1 / (1 + w) - l) / w */
  dual lz = chain(z, l, cabs(w) < 1e-6 ? -0.5 + 2 * w / 3 : (1 / (1 + w) - l) / w);
  dual c = scale(mul(kappa, add(scale(gh, T), scale(mul(zq, lz), -2))), h->theta);
  dual dv = quot(mul(gh, one_e), add(one, scale(mul(gg, e), -1)));
  *f = cexp(c.v + dv.v * h->v0);
  g[0] = dv.v * *f;
  g[1] = (c.d[0] + dv.d[0] * h->v0) * *f;
  g[2] = c.v / h->theta * *f;
  g[3] = (c.d[1] + dv.d[1] * h->v0) * *f;
  g[4] = (c.d[2] + dv.d[2] * h->v0) * *f;
}

/* The panels run from u = 0, each min(max(1/2, a), 2 periods) long at a:
 * the integrands' nearest singularities lie 1/2 off the real axis (the pole
 * of 1 / (u^2 + 1/4) at u = i/2, and phi's moment explosions beyond the
 * strip -1 < Im z < 0), so that the first panels are 1/2 long and later
 * ones may double; two turns of e^{iuk} and of phi's own phase together
 * are 4 pi radians, which GL_N nodes resolve to about 1e-10 of a panel's
 * integral, and much better once phi has decayed.  Against an
 * adaptive reference (tests/cf_heston.h) over 7,200 cases (v0 0.0025-0.16,
 * kappa 0.1-5, theta 0.01-0.09, xi 0.05-2, rho -0.95-0.5, T 0.01-30, K
 * 50-200 for a spot of 100) the prices agree to 3e-12.  log |phi| is
 * concave in u (its slope runs from 0 down to a constant), so that the
 * tail beyond b is at most |phi(b)| over the magnitude of the last panel's
 * secant slope; the integration stops once that bound, for the price and
 * for the second derivative, is below its tolerance twice in a row. */
mcp_status mcpi_heston_calls(const mcpi_heston_params *h, double T, double fwd, size_t n,
                             const double *strikes, mcpi_fwd_call *out, double *grad, char *err)
{
  double x[GL_N / 2], wt[GL_N / 2];
  gauss_legendre(x, wt);
  double *k = malloc((n ? n : 1) * sizeof *k);
  if (!k)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the Heston strikes");
  double kmax = 0, root = 0; /* max |k|, max sqrt(K / F) */
  for (size_t i = 0; i < n; i++) {
    k[i] = log(fwd / strikes[i]);
    kmax = fmax(kmax, fabs(k[i]));
    root = fmax(root, sqrt(strikes[i] / fwd));
    out[i] = (mcpi_fwd_call){0, 0, 0};
    for (int p = 0; grad && p < MCPI_HESTON_PARAMS; p++)
      grad[MCPI_HESTON_PARAMS * i + p] = 0;
  }
  double var = h->theta * T + (h->v0 - h->theta) * -expm1(-h->kappa * T) / h->kappa;
  /* two turns of e^{iuk} and phi's own phase: about u times the mean of X
   * near 0, u rho (v0 + kappa theta T) / xi far out */
  double spin = fmax(0.5 * var, fabs(h->rho) * (h->v0 + h->kappa * h->theta * T) / h->xi);
  double period = 4 * PI / (kmax + spin + 1e-300);
  double a = 0, env_a = 1; /* |phi(0)| = E[e^{X/2}] <= 1 */
  int quiet = 0, panels = 0;
  while (quiet < 2) {
    if (++panels > MAX_PANELS) {
      free(k);
      return mcpi_fail(err, MCP_ERR_INPUT, "the Heston integral did not converge at maturity "
                       "%g (its characteristic function decays too slowly to resolve: a "
                       "variance of %g to maturity, xi %g, rho %g); expected method mc", T, var,
                       h->xi, h->rho);
    }
    double len = fmin(fmax(0.5, a), period), mid = a + 0.5 * len, b = a + len;
    for (int j = 0; j < GL_N; j++) {
      int m = j < GL_N / 2 ? j : j - GL_N / 2;
      double u = mid + (j < GL_N / 2 ? -0.5 : 0.5) * len * x[m], q = u * u + 0.25;
      double complex f, fd[MCPI_HESTON_PARAMS];
      if (grad)
        phi_grad(h, T, u, &f, fd);
      else
        f = phi(h, T, u);
      double w = 0.5 * len * wt[m], fr = w * creal(f), fi = w * cimag(f);
      double dr[MCPI_HESTON_PARAMS], di[MCPI_HESTON_PARAMS];
      for (int p = 0; grad && p < MCPI_HESTON_PARAMS; p++) {
        dr[p] = w * creal(fd[p]) / q;
        di[p] = w * cimag(fd[p]) / q;
      }
      for (size_t i = 0; i < n; i++) { /* in reals: e^{iuk} f */
        double c = cos(u * k[i]), sn = sin(u * k[i]);
        double re = c * fr - sn * fi, im = c * fi + sn * fr;
        out[i].call += re / q;
        out[i].dfwd += (0.5 * re - u * im) / q; /* Re(v / (1/2 - iu)) */
        out[i].dfwd2 += re;
        for (int p = 0; grad && p < MCPI_HESTON_PARAMS; p++)
          grad[MCPI_HESTON_PARAMS * i + p] += c * dr[p] - sn * di[p];
      }
    }
    double complex fb, fbd[MCPI_HESTON_PARAMS];
    if (grad)
      phi_grad(h, T, b, &fb, fbd);
    else
      fb = phi(h, T, b);
    double env_b = cabs(fb), rel = 1; /* the partials' tails: |d phi| <= |phi| max |d log phi| */
    for (int p = 0; grad && env_b > 0 && p < MCPI_HESTON_PARAMS; p++)
      rel = fmax(rel, cabs(fbd[p]) / env_b);
    double slope = env_b > 0 && env_a > env_b ? log(env_a / env_b) / len : 0;
    double tail = env_b == 0 ? 0 : slope > 0 ? env_b / slope : HUGE_VAL;
    tail *= root / PI;
    quiet = tail < TAIL_TOL_D2 && rel * tail / (b * b + 0.25) < TAIL_TOL ? quiet + 1 : 0;
    a = b;
    env_a = env_b;
  }
  for (size_t i = 0; i < n; i++) {
    double K = strikes[i], sk = sqrt(K / fwd);
    /* within the no-arbitrage bounds, which rounding may cross by its error
     * (a far out-of-the-money call of 1e-12 below 0) */
    double call = fmin(fmax(fwd - sqrt(fwd * K) / PI * out[i].call, fmax(fwd - K, 0)), fwd);
    out[i] = (mcpi_fwd_call){call, 1 - sk / PI * out[i].dfwd, sk / (PI * fwd) * out[i].dfwd2};
    for (int p = 0; grad && p < MCPI_HESTON_PARAMS; p++)
      grad[MCPI_HESTON_PARAMS * i + p] *= -sqrt(fwd * K) / PI;
  }
  free(k);
  return MCP_OK;
}

mcp_status mcp_heston_european(mcp_option_type type, double spot, double strike,
                               double maturity, double rate, double dividend, double v0,
                               double kappa, double theta, double xi, double rho, double *price,
                               char *err, size_t errlen)
{
  char why[MCPI_ERRLEN] = "";
  const char *bad = NULL, *field = NULL;
  double got = 0;
  const char *name[] = {"spot", "strike", "maturity", "rate", "dividend",
                        "v0", "kappa", "theta", "xi", "rho"};
  double val[] = {spot, strike, maturity, rate, dividend, v0, kappa, theta, xi, rho};
  const char *(*check[])(double) = {mcpi_check_spot, mcpi_check_spot, mcpi_check_maturity,
                                    mcpi_check_rate, mcpi_check_rate, mcpi_check_variance,
                                    mcpi_check_positive, mcpi_check_positive,
                                    mcpi_check_positive, mcpi_check_correlation};
  for (size_t i = 0; i < sizeof val / sizeof *val && !bad; i++)
    if ((bad = check[i](val[i])))
      field = name[i], got = val[i];
  mcp_status st = MCP_OK;
  if (!price || (type != MCP_CALL && type != MCP_PUT))
    st = mcpi_fail(why, MCP_ERR_ARGUMENT, "heston european: expected a call or a put and a "
                   "place for the price");
  else if (bad)
    st = mcpi_fail(why, MCP_ERR_INPUT, "heston european: %s: expected %s, got %g", field, bad,
                   got);
  else {
    double df = exp(-rate * maturity), fwd = spot * exp((rate - dividend) * maturity);
    mcpi_heston_params h = {v0, kappa, theta, xi, rho};
    mcpi_fwd_call c;
    if ((st = mcpi_heston_calls(&h, maturity, fwd, 1, &strike, &c, NULL, why)) == MCP_OK)
      *price = df * (type == MCP_CALL ? c.call : c.call - (fwd - strike));
  }
  mcpi_copy_message(err, errlen, st == MCP_OK ? "" : why);
  return st;
}
