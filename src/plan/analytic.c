/* analytic.c: Black's formula and the discrete geometric average. */
#include <math.h>
#include "src/plan/analytic.h"

static double norm_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

double mcpi_black(mcp_option_type type, double forward, double strike, double s, double df)
{
  double sign = type == MCP_CALL ? 1 : -1;
  if (s <= 0 || strike <= 0)
    return df * fmax(sign * (forward - strike), 0);
  double d1 = (log(forward / strike) + 0.5 * s * s) / s, d2 = d1 - s;
  return sign * df * (forward * norm_cdf(sign * d1) - strike * norm_cdf(sign * d2));
}

/* log G = (1/n) sum log S(t_i) is normal: mean log S0 + (1/n) sum (R(t_i) -
 * V(t_i)/2), variance (1/n^2) sum_{i,j} V(min(t_i, t_j)), where R integrates
 * r - q and V the variance; for sorted times the pairs with minimum t_i number
 * 2 (n - i) - 1 (i from 1). */
double mcpi_geometric_asian(mcp_option_type type, double spot, double strike,
                            const mcpi_curve *rate, const mcpi_curve *dividend,
                            const mcpi_curve *vol, size_t n, const double *t, double df)
{
  double mean = 0, var = 0;
  for (size_t i = 0; i < n; i++) {
    double v = mcpi_curve_integral_sq(vol, 0, t[i]);
    mean += mcpi_curve_integral(rate, 0, t[i]) - mcpi_curve_integral(dividend, 0, t[i]) - 0.5 * v;
    var += (double)(2 * (n - i) - 1) * v;
  }
  double nn = (double)n, s = sqrt(var) / nn;
  mean = log(spot) + mean / nn;
  return mcpi_black(type, exp(mean + 0.5 * s * s), strike, s, df);
}
