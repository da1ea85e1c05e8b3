/* calibrate.c: a Heston or Merton model fitted to a surface of implied
 * volatilities by Levenberg-Marquardt (mcp_calibrate).
 * Each quote's residual is its out-of-the-money option's model price less
 * its quoted price, over the quote's Black vega: to first order the error in
 * volatility, without inverting Black's formula at every step.  Heston's
 * Jacobian is its prices' gradient (heston.h), Merton's central
 * differences of its closed form.  The parameters stay in their ranges by
 * projection; the steps follow Nielsen's update of the damping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/analytic/analytic.h"
#include "src/analytic/calibrate.h"
#include "src/analytic/engine.h"
#include "src/analytic/heston.h"
#include "src/base/error.h"
#include "src/base/names.h"
#include "src/base/validate.h"

#define MAX_PARAMS 5
#define MAX_ITERATIONS 500

typedef struct range {
  double lo, hi;
} range;

/* The models' parameters: names and the ranges a fit keeps them in. */
static const char *const names[2][MAX_PARAMS] = {{"v0", "kappa", "theta", "xi", "rho"},
                                                 {"volatility", "lambda", "jump_mean",
                                                  "jump_vol", NULL}};
static const range ranges[2][MAX_PARAMS] = {
    {{1e-6, 4}, {1e-3, 50}, {1e-6, 4}, {1e-3, 5}, {-0.999, 0.999}},
    {{1e-3, 3}, {0, 20}, {-2, 2}, {1e-3, 2}, {0, 0}}};
static const size_t counts[2] = {5, 4};

/* One maturity's quotes. */
typedef struct slice {
  double T, fwd;
  size_t n, q0;                  /* its quotes, the first one's index among all */
  double *strike, *price, *vega; /* the quoted out-of-the-money prices, undiscounted */
  size_t *at;                    /* their index in the surface */
} slice;

typedef struct problem {
  mcp_fit_model model;
  size_t np, nq, ns;
  slice *s;
  double *scratch;      /* each quote's price and gradient: (np + 1) nq */
  mcpi_fwd_call *calls; /* each quote's call */
} problem;

/* The out-of-the-money option's undiscounted value from the call's. */
static double otm(double call, double f, double k) { return k >= f ? call : call - (f - k); }

/* Slice s's model prices at p into price[0..n) and, when jac is not NULL,
 * their derivatives into jac[i np + j]; 0 where the model fails there. */
static int slice_prices(const problem *pr, const slice *s, const double *p, double *price,
                        double *jac)
{
  if (pr->model == MCP_FIT_HESTON) {
    mcpi_heston_params h = {p[0], p[1], p[2], p[3], p[4]};
    char scratch[MCPI_ERRLEN];
    mcpi_fwd_call *calls = pr->calls + s->q0;
    if (mcpi_heston_calls(&h, s->T, s->fwd, s->n, s->strike, calls, jac, scratch) != MCP_OK)
      return 0;
    for (size_t i = 0; i < s->n; i++)
      price[i] = otm(calls[i].call, s->fwd, s->strike[i]);
    return 1;
  }
  for (size_t i = 0; i < s->n; i++) {
    double q[MAX_PARAMS];
    memcpy(q, p, sizeof q);
    price[i] = otm(mcpi_merton_call(q[1] * s->T, q[2], q[3], s->fwd, s->strike[i],
                                    q[0] * q[0] * s->T).call,
                   s->fwd, s->strike[i]);
    for (size_t j = 0; jac && j < pr->np; j++) { /* the call's and the put's are the same */
      /* central differences, one-sided at a range's end (lambda 0 has no
       * lambda below it) */
      const range *rg = &ranges[MCP_FIT_MERTON][j];
      double h = 1e-6 * fmax(fabs(p[j]), 0.1), x[2], v[2];
      x[0] = fmin(p[j] + h, rg->hi);
      x[1] = fmax(p[j] - h, rg->lo);
      for (int side = 0; side < 2; side++) {
        q[j] = x[side];
        v[side] = mcpi_merton_call(q[1] * s->T, q[2], q[3], s->fwd, s->strike[i],
                                   q[0] * q[0] * s->T).call;
      }
      q[j] = p[j];
      jac[i * pr->np + j] = (v[0] - v[1]) / (x[0] - x[1]);
    }
  }
  return 1;
}

/* The residuals r[0..nq) at p and, when jac is not NULL, their Jacobian
 * (nq x np); 0 where the model fails at p.  The maturities are priced in
 * parallel, each into its own rows. */
static int residuals(const problem *pr, const double *p, double *r, double *jac)
{
  int ok = 1;
#pragma omp parallel for schedule(dynamic) reduction(& : ok) if (pr->ns > 1)
  for (size_t k = 0; k < pr->ns; k++) {
    const slice *s = &pr->s[k];
    double *price = pr->scratch + s->q0 * (pr->np + 1), *sj = jac ? price + s->n : NULL;
    if (!slice_prices(pr, s, p, price, sj)) {
      ok = 0;
      continue;
    }
    for (size_t i = 0; i < s->n; i++) {
      size_t q = s->q0 + i;
      r[q] = (price[i] - s->price[i]) / s->vega[i];
      for (size_t j = 0; jac && j < pr->np; j++)
        jac[q * pr->np + j] = sj[i * pr->np + j] / s->vega[i];
    }
  }
  return ok;
}

static double half_norm2(const double *r, size_t n)
{
  double c = 0;
  for (size_t i = 0; i < n; i++)
    c += r[i] * r[i];
  return 0.5 * c;
}

/* Solves the n x n system a x = b (a positive definite) by Cholesky; 0 if
 * it is not. */
static int solve(size_t n, double *a, double *x, const double *b)
{
  for (size_t j = 0; j < n; j++) {
    for (size_t k = 0; k < j; k++)
      for (size_t i = j; i < n; i++)
        a[i * n + j] -= a[i * n + k] * a[j * n + k];
    if (!(a[j * n + j] > 0))
      return 0;
    double d = sqrt(a[j * n + j]);
    for (size_t i = j; i < n; i++)
      a[i * n + j] /= d;
  }
  for (size_t i = 0; i < n; i++) {
    x[i] = b[i];
    for (size_t k = 0; k < i; k++)
      x[i] -= a[i * n + k] * x[k];
    x[i] /= a[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {
    for (size_t k = i + 1; k < n; k++)
      x[i] -= a[k * n + i] * x[k];
    x[i] /= a[i * n + i];
  }
  return 1;
}

/* How a fit ended. */
enum { FIT_CONVERGED, FIT_STALLED, FIT_UNPRICED, FIT_NOT_FINITE };

/* Whether every element of x[0..n) is finite. */
static int finite(const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}

/* Levenberg-Marquardt from p, its iterations into *its; how it ended.  A
 * parameter at a range's end that the step would push past is held there
 * (its row and column of the system dropped), so that the projected step
 * is the step of the others; a step that the linear model says gains
 * nothing (clipped by another end) is refused, as one that the prices say
 * gains nothing. */
static int fit(problem *pr, double *p, double *r, double *jac, double *rt, double *jt,
               unsigned *its)
{
  size_t np = pr->np, nq = pr->nq;
  const range *rg = ranges[pr->model];
  *its = 0;
  if (!residuals(pr, p, r, jac))
    return FIT_UNPRICED;
  if (!finite(r, nq) || !finite(jac, nq * np))
    return FIT_NOT_FINITE;
  double cost = half_norm2(r, nq), lambda = 1e-3, nu = 2;
  /* residuals of 1e-8 in volatility (1e-6 points) are as exact a fit as
   * the prices allow (about 1e-13 of the forward over a wing's vega);
   * ten steps refused in a row are the noise of the prices */
  int refused = 0, end = FIT_STALLED;
  while (++*its < MAX_ITERATIONS && refused < 10) {
    if (cost <= 0.5 * (double)nq * 1e-16) {
      end = FIT_CONVERGED;
      break;
    }
    double a[MAX_PARAMS * MAX_PARAMS], g[MAX_PARAMS], d[MAX_PARAMS], step[MAX_PARAMS];
    double gmax = 0;
    int held[MAX_PARAMS];
    for (size_t i = 0; i < np; i++) {
      g[i] = 0;
      for (size_t q = 0; q < nq; q++)
        g[i] += jac[q * np + i] * r[q];
      for (size_t j = 0; j <= i; j++) {
        double s = 0;
        for (size_t q = 0; q < nq; q++)
          s += jac[q * np + i] * jac[q * np + j];
        a[i * np + j] = a[j * np + i] = s;
      }
      d[i] = fmax(a[i * np + i], 1e-300);
      held[i] = (p[i] <= rg[i].lo && g[i] > 0) || (p[i] >= rg[i].hi && g[i] < 0);
      if (!held[i])
        gmax = fmax(gmax, fabs(g[i]) / sqrt(d[i]));
    }
    if (gmax <= 1e-15 * sqrt(2 * cost)) { /* stationary: the residuals orthogonal to J */
      end = FIT_CONVERGED;
      break;
    }
    double m[MAX_PARAMS * MAX_PARAMS], pn[MAX_PARAMS], neg[MAX_PARAMS];
    for (size_t i = 0; i < np; i++) {
      for (size_t j = 0; j < np; j++)
        m[i * np + j] = held[i] || held[j] ? (double)(i == j) : a[i * np + j];
      m[i * np + i] += held[i] ? 0 : lambda * d[i];
      neg[i] = held[i] ? 0 : -g[i];
    }
    double moved = 0, pred = 0;
    int solved = solve(np, m, step, neg);
    for (size_t i = 0; solved && i < np; i++) {
      pn[i] = fmin(fmax(p[i] + step[i], rg[i].lo), rg[i].hi);
      step[i] = pn[i] - p[i];
      moved = fmax(moved, fabs(step[i]) / (fabs(p[i]) + 1e-8));
    }
    if (solved && moved < 1e-13) {
      end = FIT_CONVERGED;
      break;
    }
    for (size_t i = 0; solved && i < np; i++) { /* the linear model's decrease */
      double as = 0;
      for (size_t j = 0; j < np; j++)
        as += a[i * np + j] * step[j];
      pred -= step[i] * (g[i] + 0.5 * as);
    }
    if (solved && pred > 0 && pred <= 1e-8 * cost) { /* no step would gain more */
      end = FIT_CONVERGED;
      break;
    }
    double trial = HUGE_VAL;
    if (solved && pred > 0 && residuals(pr, pn, rt, jt) && finite(jt, nq * np))
      trial = half_norm2(rt, nq);
    if (trial < cost) {
      double t = 2 * ((cost - trial) / pred) - 1;
      memcpy(p, pn, np * sizeof *p);
      memcpy(r, rt, nq * sizeof *r);
      memcpy(jac, jt, nq * np * sizeof *jac);
      cost = trial;
      lambda *= fmax(1.0 / 3, 1 - t * t * t);
      nu = 2;
      refused = 0;
    } else {
      lambda *= nu;
      nu *= 2;
      refused++;
    }
  }
  return end;
}

/* A start: v0 the square of the shortest maturity's volatility nearest the
 * money, theta the longest's; rho of the sign of the skew. */
static void start(const problem *pr, const mcp_quotes *qt, double *p)
{
  double atm[2] = {0.2, 0.2}, skew = 0;
  for (int end = 0; end < 2; end++) {
    const slice *s = &pr->s[end ? pr->ns - 1 : 0];
    double best = HUGE_VAL;
    for (size_t i = 0; i < s->n; i++) {
      double v = qt->vols[s->at[i]], dist = fabs(log(s->strike[i] / s->fwd));
      if (dist < best) {
        best = dist;
        atm[end] = v;
      }
    }
    if (s->n > 1)
      skew += qt->vols[s->at[0]] - qt->vols[s->at[s->n - 1]];
  }
  if (pr->model == MCP_FIT_HESTON) {
    double init[] = {atm[0] * atm[0], 1.5, atm[1] * atm[1], 0.5, skew >= 0 ? -0.5 : 0.3};
    memcpy(p, init, sizeof init);
  } else {
    double init[] = {atm[1], 0.5, skew >= 0 ? -0.1 : 0.1, 0.15};
    memcpy(p, init, sizeof init);
  }
}

static void free_problem(problem *pr)
{
  for (size_t k = 0; k < pr->ns; k++) {
    free(pr->s[k].strike);
    free(pr->s[k].price);
    free(pr->s[k].vega);
    free(pr->s[k].at);
  }
  free(pr->s);
  free(pr->scratch);
  free(pr->calls);
}

/* The slices of the quoted points: each quote's out-of-the-money price and
 * vega from its volatility. */
static mcp_status build(problem *pr, const mcpi_underlying *u, const mcp_quotes *qt, char *err)
{
  size_t nk = qt->nstrikes;
  if (!(pr->s = calloc(qt->nmaturities, sizeof *pr->s)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
  for (size_t m = 0; m < qt->nmaturities; m++) {
    double T = qt->maturities[m];
    slice *s = &pr->s[pr->ns];
    s->T = T;
    s->fwd = mcpi_analytic_forward(u, T, NULL);
    pr->ns++; /* before its arrays: free_problem frees what was allocated */
    if (!(s->strike = malloc(nk * sizeof *s->strike)) ||
        !(s->price = malloc(nk * sizeof *s->price)) ||
        !(s->vega = malloc(nk * sizeof *s->vega)) || !(s->at = malloc(nk * sizeof *s->at)))
      return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
    s->q0 = pr->nq;
    for (size_t k = 0; k < nk; k++) {
      double v = qt->vols[m * nk + k], K = qt->strikes[k];
      if (isnan(v))
        continue;
      double sd = v * sqrt(T), d1 = (log(s->fwd / K) + 0.5 * sd * sd) / sd;
      s->strike[s->n] = K;
      s->price[s->n] = otm(mcpi_black_call(s->fwd, K, sd).call, s->fwd, K);
      /* a floor keeps far wings from dominating by a vanishing vega */
      s->vega[s->n] = fmax(s->fwd * sqrt(T) * exp(-0.5 * d1 * d1) / 2.5066282746310002,
                           1e-6 * s->fwd * sqrt(T));
      s->at[s->n++] = m * nk + k;
    }
    pr->nq += s->n;
    if (!s->n) { /* a maturity without quotes */
      free(s->strike);
      free(s->price);
      free(s->vega);
      free(s->at);
      pr->ns--;
    }
  }
  if (pr->nq < pr->np)
    return mcpi_fail(err, MCP_ERR_INPUT, "quotes: %zu quoted volatilities fit no %zu "
                     "parameters; expected at least %zu", pr->nq, pr->np, pr->np);
  if (!(pr->scratch = malloc(pr->nq * (pr->np + 1) * sizeof *pr->scratch)) ||
      !(pr->calls = malloc(pr->nq * sizeof *pr->calls)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
  return MCP_OK;
}

mcp_status mcpi_calibrate(const mcpi_underlying *u, const mcp_quotes *qt, mcp_fit_model model,
                          mcp_fit *out, double *model_vols, char *err)
{
  problem pr = {.model = model, .np = counts[model]};
  mcp_status st = build(&pr, u, qt, err);
  double *r = NULL, *jac = NULL, *rt = NULL, *jt = NULL;
  if (st == MCP_OK && (!(r = malloc(pr.nq * sizeof *r)) || !(rt = malloc(pr.nq * sizeof *rt)) ||
                       !(jac = malloc(pr.nq * pr.np * sizeof *jac)) ||
                       !(jt = malloc(pr.nq * pr.np * sizeof *jt))))
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the fit");
  double p[MAX_PARAMS] = {0};
  unsigned it = 0;
  int end = FIT_STALLED;
  if (st == MCP_OK) {
    start(&pr, qt, p);
    end = fit(&pr, p, r, jac, rt, jt, &it);
    if (end == FIT_UNPRICED || end == FIT_NOT_FINITE)
      st = mcpi_fail(err, MCP_ERR_INPUT, "quotes: the %s model %s from its start; expected "
                     "maturities and strikes it resolves", mcp_fit_model_name(model),
                     end == FIT_UNPRICED ? "cannot price them" : "has no finite prices");
  }
  if (st == MCP_OK) { /* the fitted model's implied volatilities, quote by quote */
    *out = (mcp_fit){.model = model, .nparams = pr.np, .quotes = pr.nq, .iterations = it,
                     .converged = end == FIT_CONVERGED};
    memcpy(out->params, p, sizeof p);
    for (size_t j = 0; j < pr.np; j++)
      if (p[j] <= ranges[model][j].lo || p[j] >= ranges[model][j].hi)
        out->at_bound |= 1u << j;
    size_t nk = qt->nstrikes;
    for (size_t i = 0; model_vols && i < qt->nmaturities * nk; i++)
      model_vols[i] = NAN;
    double sum = 0;
    for (size_t k = 0; k < pr.ns && st == MCP_OK; k++) {
      const slice *s = &pr.s[k];
      double *price = pr.scratch + s->q0 * (pr.np + 1);
      if (!slice_prices(&pr, s, p, price, NULL)) {
        st = mcpi_fail(err, MCP_ERR_INPUT, "quotes: the fitted model fails at maturity %g",
                       s->T);
        break;
      }
      for (size_t i = 0; i < s->n && st == MCP_OK; i++) {
        double K = s->strike[i];
        double v = mcpi_black_implied(K >= s->fwd ? MCP_CALL : MCP_PUT, s->fwd, K, price[i]) /
                   sqrt(s->T);
        double e = 100 * (v - qt->vols[s->at[i]]); /* volatility points */
        if (!isfinite(v))
          st = mcpi_fail(err, MCP_ERR_INPUT, "quotes: the fitted %s model's price at maturity "
                         "%g, strike %g has no Black volatility (%g, beyond the no-arbitrage "
                         "bounds or too small to invert)", mcp_fit_model_name(model), s->T, K,
                         price[i]);
        if (model_vols)
          model_vols[s->at[i]] = v;
        sum += e * e;
        out->max_error = fmax(out->max_error, fabs(e));
      }
    }
    out->rmse = sqrt(sum / (double)pr.nq);
  }
  free(r);
  free(rt);
  free(jac);
  free(jt);
  free_problem(&pr);
  return st;
}

static const char *const model_names[] = {"heston", "merton"};
MCPI_NAMED_ENUM(mcp_fit_model, mcp_fit_model_from_name, mcp_fit_model_name, model_names,
                "unknown")

const char *mcp_fit_param_name(mcp_fit_model model, size_t k)
{
  return (unsigned)model <= MCP_FIT_MERTON && k < counts[model] ? names[model][k] : NULL;
}

/* What is wrong with quotes, into err, or MCP_OK. */
static mcp_status check_quotes(const mcp_quotes *q, char *err)
{
  const char *why;
  if (!q->nmaturities || !q->nstrikes || !q->maturities || !q->strikes || !q->vols)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "quotes: expected maturities, strikes and "
                     "volatilities");
  for (size_t i = 0; i < q->nmaturities; i++)
    if ((why = mcpi_check_maturity(q->maturities[i])) ||
        (i && !(q->maturities[i] > q->maturities[i - 1])))
      return mcpi_fail(err, MCP_ERR_INPUT, "quotes: maturities[%zu]: expected %s, got %g", i,
                       why ? why : "times that increase", q->maturities[i]);
  for (size_t k = 0; k < q->nstrikes; k++)
    if ((why = mcpi_check_spot(q->strikes[k])) || (k && !(q->strikes[k] > q->strikes[k - 1])))
      return mcpi_fail(err, MCP_ERR_INPUT, "quotes: strikes[%zu]: expected %s, got %g", k,
                       why ? why : "strikes that increase", q->strikes[k]);
  for (size_t i = 0; i < q->nmaturities; i++)
    for (size_t k = 0; k < q->nstrikes; k++) {
      double v = q->vols[i * q->nstrikes + k];
      if (!isnan(v) && !(v > 0 && v <= 10))
        return mcpi_fail(err, MCP_ERR_INPUT, "quotes: volatilities[%zu][%zu]: expected a "
                         "volatility in (0, 10] or none, got %g", i, k, v);
    }
  return MCP_OK;
}

mcp_status mcp_calibrate(const mcp_market *market, const mcp_quotes *quotes,
                         mcp_fit_model model, mcp_fit *fit, double *model_vols, char *err,
                         size_t errlen)
{
  char why[MCPI_ERRLEN] = "";
  mcp_status st = MCP_OK;
  const mcpi_underlying *u = NULL;
  if (!market || !quotes || !fit || (unsigned)model > MCP_FIT_MERTON)
    st = mcpi_fail(why, MCP_ERR_ARGUMENT, "calibrate: expected a market, quotes, a model and "
                   "a place for the fit");
  else if (!quotes->underlying || !(u = mcpi_market_find(market, quotes->underlying)))
    st = mcpi_fail(why, MCP_ERR_INPUT, "quotes: underlying: '%s' is not in the market",
                   quotes->underlying ? quotes->underlying : "(null)");
  else if (u->ncash)
    st = mcpi_fail(why, MCP_ERR_INPUT, "quotes: underlying: '%s' pays cash dividends, whose "
                   "forwards the fitted models do not have; expected yields", u->name);
  else if ((st = check_quotes(quotes, why)) == MCP_OK)
    st = mcpi_calibrate(u, quotes, model, fit, model_vols, why);
  mcpi_copy_message(err, errlen, st == MCP_OK ? "" : why);
  return st;
}
