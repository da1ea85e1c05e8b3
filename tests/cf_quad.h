/* cf_quad.h: adaptive Gauss-Kronrod quadrature for the semi-analytic
 * reference prices (Heston's Fourier integral, the bivariate normal).
 *   The 7-point Gauss rule embedded in the 15-point Kronrod rule (nodes and
 *   weights as tabulated by Piessens, de Doncker, Ueberhuber & Kahaner 1983,
 *   QUADPACK); |K15 - G7| bounds the error of an interval, and the interval
 *   with the largest bound is bisected until the bounds sum below the
 *   tolerance (global adaptivity). */
#ifndef MCP_TESTS_CF_QUAD_H
#define MCP_TESTS_CF_QUAD_H

#include <math.h>

#ifndef CF_PI
#define CF_PI 3.14159265358979323846264338327950288
#endif

typedef double (*cf_integrand)(double x, void *ctx);

/* Kronrod 15 on [a, b]; *err gets |K15 - G7|. */
static inline double cf_gk15(cf_integrand f, void *ctx, double a, double b, double *err)
{
  static const double xk[8] = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0};
  static const double wk[8] = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
  /* Gauss 7 weights at xk[1], xk[3], xk[5], xk[7]. */
  static const double wg[4] = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327};
  double c = 0.5 * (a + b), h = 0.5 * (b - a);
  double fc = f(c, ctx);
  double k = wk[7] * fc, g = wg[3] * fc;
  for (int i = 0; i < 7; i++) {
    double s = f(c - h * xk[i], ctx) + f(c + h * xk[i], ctx);
    k += wk[i] * s;
    if (i & 1)
      g += wg[i / 2] * s;
  }
  *err = fabs((k - g) * h);
  return k * h;
}

/* Integral of f over [a, b] to max(abs_tol, rel_tol |I|), at most
 * CF_QUAD_MAX intervals (then the best estimate so far is returned). */
#define CF_QUAD_MAX 400
static inline double cf_integrate(cf_integrand f, void *ctx, double a, double b, double abs_tol,
                                  double rel_tol)
{
  double lo[CF_QUAD_MAX], hi[CF_QUAD_MAX], val[CF_QUAD_MAX], err[CF_QUAD_MAX];
  int n = 1;
  lo[0] = a;
  hi[0] = b;
  val[0] = cf_gk15(f, ctx, a, b, &err[0]);
  for (;;) {
    double total = 0, total_err = 0;
    int worst = 0;
    for (int i = 0; i < n; i++) {
      total += val[i];
      total_err += err[i];
      if (err[i] > err[worst])
        worst = i;
    }
    if (total_err <= fmax(abs_tol, rel_tol * fabs(total)) || n == CF_QUAD_MAX)
      return total;
    double mid = 0.5 * (lo[worst] + hi[worst]);
    lo[n] = mid;
    hi[n] = hi[worst];
    hi[worst] = mid;
    val[worst] = cf_gk15(f, ctx, lo[worst], mid, &err[worst]);
    val[n] = cf_gk15(f, ctx, mid, hi[n], &err[n]);
    n++;
  }
}

#endif
