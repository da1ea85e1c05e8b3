/* analytic.c: Black's formula, Merton's sum of them, the discrete geometric
 * average and Black's implied volatility. */
#include <math.h>
#include "src/analytic/analytic.h"

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

/* 2.5066... is sqrt(2 pi), of the normal density. */
mcpi_fwd_call mcpi_black_call(double f, double strike, double s)
{
  if (s <= 0)
    return (mcpi_fwd_call){fmax(f - strike, 0), f > strike, 0};
  double d1 = (log(f / strike) + 0.5 * s * s) / s;
  double n1 = 0.5 * erfc(-d1 / sqrt(2.0)), n2 = 0.5 * erfc(-(d1 - s) / sqrt(2.0));
  return (mcpi_fwd_call){f * n1 - strike * n2, n1,
                           exp(-0.5 * d1 * d1) / (2.5066282746310002 * f * s)};
}

/* Given n jumps the log-spot is normal, of forward F e^{-lambda k T}
 * (1 + k)^n and variance V + n jump_vol^2 (k = E[J] - 1), weighted by
 * Poisson(lambda T).  The strike's terms carry those weights, the
 * forward's the weights of Poisson(lambda T (1 + k)) (formed in logs, so
 * that no factor overflows); the sum runs over both weights' bulk, from 12
 * standard deviations and 40 terms below it to where the rest is below
 * 1e-17 of F + K (a geometric bound), or to as far above it.  NAN where
 * that would take more than 4e6 terms. */
mcpi_fwd_call mcpi_merton_call(double lambda_t, double jump_mean, double jump_vol, double f,
                               double strike, double var)
{
  double lt = lambda_t, gam = jump_mean + 0.5 * jump_vol * jump_vol;
  if (!(lt > 0))
    return mcpi_black_call(f, strike, sqrt(var));
  double k = expm1(gam), lf0 = log(f) - lt * k, lk = log(strike);
  double m1 = lt, m2 = exp(log(lt) + gam), top = fmax(m1, m2);
  double lo = fmax(0, floor(fmin(m1, m2) - 12 * sqrt(top) - 40));
  double hi = ceil(top + 12 * sqrt(top) + 40);
  if (!(hi - lo <= 4e6))
    return (mcpi_fwd_call){NAN, NAN, NAN};
  mcpi_fwd_call sum = {0, 0, 0};
  for (double n = lo; n <= hi; n++) {
    double logp = -lt + n * log(lt) - lgamma(n + 1), lfn = lf0 + n * gam;
    double wf = exp(logp + lfn), wk = exp(logp); /* weight x its forward, weight */
    double s = sqrt(var + n * jump_vol * jump_vol);
    if (!(s > 0)) { /* no variance: the forward's intrinsic value */
      if (lfn > lk) {
        sum.call += wf - strike * wk;
        sum.dfwd += wf / f;
      }
      continue;
    }
    double d1 = (lfn - lk + 0.5 * s * s) / s;
    double n1 = 0.5 * erfc(-d1 / sqrt(2.0)), n2 = 0.5 * erfc(-(d1 - s) / sqrt(2.0));
    sum.call += wf * n1 - strike * wk * n2;
    sum.dfwd += wf * n1 / f;
    sum.dfwd2 += wf * exp(-0.5 * d1 * d1) / (2.5066282746310002 * s * f * f);
    /* past both means, each weight shrinks by top / (n + 1) a term: stop
     * once the geometric bound of the rest is below 1e-17 of F + K */
    double ratio = top / (n + 1);
    if (n > top && ratio < 0.5 && (wf + strike * wk) / (1 - ratio) < 1e-17 * (f + strike))
      break;
  }
  return sum;
}

double mcpi_black_implied(mcp_option_type type, double f, double strike, double value)
{
  double c = type == MCP_CALL ? value : value + (f - strike), intrinsic = fmax(f - strike, 0);
  if (!(c >= intrinsic && c < f) || !(strike > 0))
    return NAN;
  if (c == intrinsic)
    return 0;
  double lo = 0, hi = 1;
  while (mcpi_black_call(f, strike, hi).call < c)
    if ((hi *= 2) > 1e3)
      return NAN;
  /* Brenner and Subrahmanyam's at-the-money start, kept in the bracket */
  double s = fmin(fmax(2.5066282746310002 * c / f, 0.25 * hi), 0.75 * hi);
  for (int it = 0; it < 200; it++) {
    double diff = mcpi_black_call(f, strike, s).call - c;
    if (diff == 0)
      break;
    if (diff > 0)
      hi = s;
    else
      lo = s;
    double d1 = (log(f / strike) + 0.5 * s * s) / s;
    double next = s - diff / (f * exp(-0.5 * d1 * d1) / 2.5066282746310002);
    if (!(next > lo && next < hi))
      next = 0.5 * (lo + hi);
    if (fabs(next - s) <= 1e-15 * s)
      return next;
    s = next;
  }
  return s;
}
