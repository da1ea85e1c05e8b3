/* pde_terminal.h: a grid's values at maturity and its exercise values, node
 * by node (gcc and nvcc): each backend fills its own grids where it marches
 * them, so no batch of rows is computed on the host and copied.
 *
 * The payoff scale (phi (S - K))+ + add is smoothed to the scheme's order
 * (Kreiss et al.; Pooley, Vetzal and Forsyth 2003): a cell average for the
 * 3-point stencil, the fourth-order kernel (the cubic B-spline times
 * 4/3 - cos(w)/3 in Fourier space) for the 5-point one. */
#ifndef MCP_PDE_TERMINAL_H
#define MCP_PDE_TERMINAL_H

#include <math.h>
#include "models/mcp_hd.h"

/* log_strike and moment are the host's (pde_plan.c), so that both backends
 * start from the same bits: log K (K > 0), and sinh(h/2) / (h/2), the box
 * kernel's moment int e^(h y) dy over [-1/2, 1/2]. */
typedef struct mcpi_pde_payoff {
  double phi, strike, scale, add;
  double log_strike, moment;
} mcpi_pde_payoff;

MCP_HD static inline double mcpi_pde_payoff_at(const mcpi_pde_payoff *f, double x)
{
  double v = f->phi * (exp(x) - f->strike);
  return f->scale * (v > 0 ? v : 0) + f->add;
}

/* The cubic B-spline on [-2, 2]. */
MCP_HD static inline double mcpi_bspline3(double y)
{
  y = fabs(y);
  return y < 1 ? 2.0 / 3 - y * y + 0.5 * y * y * y : y < 2 ? (2 - y) * (2 - y) * (2 - y) / 6 : 0;
}

/* int_lo^hi kernel(y) f(x + h y) dy, the kernel the box on [-1/2, 1/2] or
 * the cubic B-spline on [-2, 2].  Away from the kink f is affine in S and
 * the integral exact: the kernel's moment is f->moment for the box and its
 * fourth power for the spline.  Across the kink, 6-point Gauss-Legendre on
 * pieces split at the kernel's knots (the integers) and at the kink. */
MCP_HD static inline double mcpi_pde_smooth_integral(const mcpi_pde_payoff *f, double x, double h,
                                                     double lo, double hi, int spline)
{
  const double gx[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                        0.2386191860831969,  0.6612093864662645,  0.9324695142031521};
  const double gw[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                        0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
  double kink = f->strike > 0 ? (f->log_strike - x) / h : -HUGE_VAL;
  if (!(kink > lo && kink < hi)) {
    double v = f->phi * (exp(x) - f->strike);
    if (v <= 0) /* all of the support on one side of the kink */
      return f->add;
    double m = f->moment;
    if (spline)
      m = m * m * m * m;
    return f->scale * f->phi * (exp(x) * m - f->strike) + f->add;
  }
  double cut[8];
  int nc = 0;
  cut[nc++] = lo;
  for (double k = ceil(lo); k < hi; k += 1)
    if (k > lo)
      cut[nc++] = k;
  cut[nc++] = hi;
  double sum = 0;
  for (int i = 0; i + 1 < nc; i++) {
    double a = cut[i], b = cut[i + 1];
    double pieces[3] = {a, b, b};
    int np = 1;
    if (kink > a && kink < b) {
      pieces[1] = kink;
      np = 2;
    }
    for (int q = 0; q < np; q++) {
      double pa = pieces[q], pb = pieces[q + 1], mid = 0.5 * (pa + pb), half = 0.5 * (pb - pa);
      for (int k = 0; k < 6; k++) {
        double y = mid + half * gx[k];
        sum += half * gw[k] * (spline ? mcpi_bspline3(y) : 1.0) * mcpi_pde_payoff_at(f, x + h * y);
      }
    }
  }
  return sum;
}

/* The payoff smoothed for radius R at log-spot x, node spacing h. */
MCP_HD static inline double mcpi_pde_smoothed(const mcpi_pde_payoff *f, double x, double h, int R)
{
  if (R == 1)
    return mcpi_pde_smooth_integral(f, x, h, -0.5, 0.5, 0);
  return 4.0 / 3 * mcpi_pde_smooth_integral(f, x, h, -2, 2, 1) -
         (mcpi_pde_smooth_integral(f, x - h, h, -2, 2, 1) +
          mcpi_pde_smooth_integral(f, x + h, h, -2, 2, 1)) / 6;
}

/* The exercise value at x: the intrinsic value (phi (S - K))+. */
MCP_HD static inline double mcpi_pde_intrinsic(const mcpi_pde_payoff *f, double x)
{
  double v = f->phi * (exp(x) - f->strike);
  return v > 0 ? v : 0;
}

#endif
