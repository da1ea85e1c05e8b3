/* variants.c: which estimator each trade's Greeks get, the variants that
 * bump estimators revalue, and the columns both leave in a job's pay matrix
 * (plan.h, variants.h; the estimators on the path: models/products/greeks.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/curve.h"
#include "src/inputs/product.h"
#include "src/plan/adjoint_plan.h"
#include "src/plan/variants.h"
#include "src/base/grow.h"
#include "src/base/groups.h"

/* A job's estimators as they are laid out.  A term on column c of a pass
 * is kept as -(1 + p mcpi_pass_width + c) until the number of estimators,
 * which places the passes, is known.  sweep_at: where the job's passes
 * sweep back (pass_adj), each trade's block's column in them after the
 * trades and book, or -1. */
typedef struct builder {
  mcpi_job *j;
  mcpi_est *est;
  size_t nest, ecap;
  mcpi_term *term;
  size_t nterm, tcap;
  size_t *pass;
  size_t npass, pcap;
  int32_t *sweep_at;
  int oom;
} builder;

static int push_est(builder *b, mcpi_est e)
{
  if (!mcpi_grow((void **)&b->est, &b->ecap, b->nest + 1, sizeof *b->est))
    return 0;
  e.term0 = b->nterm;
  e.nterm = 0;
  b->est[b->nest++] = e;
  return 1;
}

static int add_est(builder *b, long trade, mcp_greek greek, mcp_greek_method method, long a,
                   long c)
{
  return push_est(b, (mcpi_est){.trade = trade, .point = -1, .greek = greek, .method = method,
                                .a = a, .b = c});
}

/* The value of trade (-1: the book) at scenario point k. */
static int add_point(builder *b, long trade, long k)
{
  return push_est(b, (mcpi_est){.trade = trade, .point = k, .a = -1, .b = -1});
}

static int add_term(builder *b, int32_t col, double coef)
{
  if (!mcpi_grow((void **)&b->term, &b->tcap, b->nterm + 1, sizeof *b->term))
    return 0;
  b->term[b->nterm++] = (mcpi_term){col, coef};
  b->est[b->nest - 1].nterm++;
  return 1;
}

/* The run's variant of that kind (asset and Heston parameter), added when
 * new. */
static long variant_of(mcpi_greek_run *g, mcpi_var_kind kind, long asset, int param)
{
  for (size_t v = 0; v < g->nvar; v++)
    if (g->var[v].kind == kind && g->var[v].asset == asset && g->var[v].param == param)
      return (long)v;
  g->var[g->nvar] = (mcpi_variant){.kind = kind, .asset = asset, .param = param};
  return (long)g->nvar++;
}

static long variant(mcpi_greek_run *g, mcpi_var_kind kind, long asset)
{
  return variant_of(g, kind, asset, 0);
}

static double *heston_param(mcpi_underlying *u, int k)
{
  double *p[MCPI_HESTON_PARAMS] = {&u->v0, &u->kappa, &u->theta, &u->xi, &u->rho};
  return p[k];
}

double mcpi_heston_bump(const mcpi_underlying *u, int k)
{
  double x[MCPI_HESTON_PARAMS] = {u->v0, u->kappa, u->theta, u->xi, u->rho};
  return k == 4 ? fmin(MCPI_HESTON_BUMP, 0.5 * (1 - fabs(u->rho))) : MCPI_HESTON_BUMP * x[k];
}

/* The job's pass of variant v, added when new. */
static size_t pass_of(builder *b, mcpi_greek_run *g, size_t v)
{
  size_t p = 0;
  while (p < b->npass && b->pass[p] != v)
    p++;
  if (p == b->npass) {
    if (!mcpi_grow((void **)&b->pass, &b->pcap, b->npass + 1, sizeof *b->pass)) {
      b->oom = 1;
      return 0;
    }
    b->pass[b->npass++] = v;
  }
  g->var[v].mc = 1;
  return p;
}

/* The column of trade t in the job's pass of variant v (encoded). */
static int32_t pass_col(builder *b, mcpi_greek_run *g, size_t v, size_t t)
{
  size_t p = pass_of(b, g, v);
  return -(int32_t)(1 + p * mcpi_pass_width(b->j) + t);
}

/* Column q of trade t's adjoint block in the job's pass of variant v
 * (encoded), that pass's job then sweeping its paths back
 * (mcpi_greeks_layout's sweep_job). */
static int32_t sweep_col(builder *b, mcpi_greek_run *g, size_t v, size_t t, size_t q)
{
  size_t p = pass_of(b, g, v), k = 0;
  while (k < g->nsweep && !(g->sweep[k].job == b->j && g->sweep[k].var == v))
    k++;
  if (k == g->nsweep) {
    if (!mcpi_grow((void **)&g->sweep, &g->scap, g->nsweep + 1, sizeof *g->sweep))
      b->oom = 1;
    else
      g->sweep[g->nsweep++] = (mcpi_sweep){b->j, v};
  }
  return -(int32_t)(1 + p * mcpi_pass_width(b->j) + b->j->ntrades + 1 +
                    (size_t)b->sweep_at[t] + q);
}

static mcp_greek_method method_of(int gm)
{
  return gm == MCPI_GM_PATHWISE ? MCP_METHOD_PATHWISE
         : gm == MCPI_GM_LR     ? MCP_METHOD_LIKELIHOOD_RATIO
                                : MCP_METHOD_BUMP;
}

static long market_index(const mcp_market *m, const mcpi_underlying *u) { return (long)(u - m->u); }

/* Whether the job's volatility is constant within each of its steps (every
 * knot of the curve before the last step's end is a simulation time): the
 * on-path vega takes a step's deviation to move by sqrt(dt), which only then
 * holds. */
static int flat_within_steps(const mcpi_job *j)
{
  const mcpi_curve *c = &j->u[0]->vol;
  double last = j->times[j->nsteps - 1];
  for (size_t i = 0; i + 1 < c->n; i++) {
    double k = c->end[i];
    int on = k >= last - MCPI_TIME_EPS;
    for (size_t s = 0; !on && s < j->nsteps; s++)
      on = fabs(j->times[s] - k) <= MCPI_TIME_EPS;
    if (!on)
      return 0;
  }
  return 1;
}

/* What the path body estimates of trade t (in_pass's and adjoint_block's
 * result bits). */
enum { IN_PASS = 1, IN_PASS_VEGA = 2, IN_PASS_RHO = 4, IN_PASS_DELTA = 8 };

/* Whether trade tr of job j takes an adjoint block. */
static int adjoint_fits(const mcpi_greek_run *g, const mcpi_job *j, const mcpi_trade *tr)
{
  return mcpi_adjoint_asked(g->req, tr->nassets) && !g->req->bump_only &&
         mcpi_adjoint_job_fits(j, g->req, g->set->precision) && mcpi_adjoint_trade_fits(j, tr);
}

/* Trade t's block of columns by adjoint (adjoint_plan.c), where its job and
 * payoff have one and it is asked something only that gives: its
 * deltas, its vegas and rhos (by bucket and in all), and of several
 * assets its Cholesky factor's adjoint, each column an estimator (hidden
 * where not asked, or of an asset it does not read); its IN_PASS_* bits, 0
 * where it has none, -1 on failure. */
static int adjoint_block(builder *b, const mcp_market *m, const mcpi_greek_run *g, size_t t,
                         const mcpi_trade *tr, char *err)
{
  mcpi_job *j = b->j;
  const mcp_greeks *req = g->req;
  if (!adjoint_fits(g, j, tr))
    return 0;
  if (mcpi_adjoint_jacobians(j, req, err) != MCP_OK)
    return -1;
  mcpi_payoff_spec *s = &j->spec[t];
  s->g_adj = (int32_t)(j->ntrades + 1 + b->nest);
  j->gstate |= MCPI_GSTATE_ADJOINT;
  j->adj_bridge |= tr->product == MCP_PRODUCT_BARRIER;
  int ok = 1;
  for (int k = 0; k < j->adj_cols && ok; k++) {
    mcpi_adj_col c = j->adj_col[k];
    int reads = c.asset < 0 || j->nassets == 1 || (s->assets >> c.asset & 1u);
    int shown = c.greek >= 0 && req->want[c.greek] && (!c.bucket || req->buckets) && reads;
    /* a Heston rho at -1 or 1 has no derivative (sqrt(1 - rho^2)'s is
     * unbounded there): none, as the bumps have none; several assets'
     * rhos also move their drivers' correlations: heston_rhos shows them */
    if (j->model == MCPI_MODEL_HESTON && c.greek == MCP_GREEK_VEGA && c.bucket == 5 &&
        (j->nassets > 1 || fabs(j->u[0]->rho) >= 1))
      shown = 0;
    if (k >= j->adj_cash && k < j->adj_cash + j->adj_ncash) /* a cash dividend after the
                                                              * trade's maturity: none */
      shown = shown && j->times[j->adj_cstep[k - j->adj_cash]] <= s->g_time + MCPI_TIME_EPS;
    ok = push_est(b, (mcpi_est){.trade = (long)t, .point = shown ? -1 : MCPI_EST_HIDDEN,
                                .greek = c.greek >= 0 ? (mcp_greek)c.greek : MCP_GREEK_CORRELATION,
                                .method = MCP_METHOD_ADJOINT,
                                .a = c.greek >= 0 && c.asset >= 0 ? market_index(m, j->u[c.asset])
                                                                  : -1,
                                .b = -1, .bucket = c.greek >= 0 ? c.bucket : 0});
  }
  /* an early exercise's European held (plan.h's nheld): its block beside,
   * swept from the last date, the twins of the trade's (held_twins) */
  size_t h = j->nreal + j->nred, first = b->nest - (size_t)j->adj_cols;
  if (ok && j->nheld && t == 0)
    j->spec[h].g_adj = (int32_t)(j->ntrades + 1 + b->nest);
  for (int k = 0; ok && j->nheld && t == 0 && k < j->adj_cols; k++) {
    mcpi_est e = b->est[first + (size_t)k];
    e.trade = (long)h;
    e.point = MCPI_EST_HELD;
    ok = push_est(b, e);
  }
  if (!ok)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the Greeks"), -1;
  return IN_PASS_DELTA | IN_PASS_VEGA | IN_PASS_RHO;
}

/* Adds to the last estimator the columns of trade t's block that hold the
 * Cholesky factor's adjoint, each times the factor's derivative in the
 * correlation of p and q (mcpi_adjoint_correlation: where p == q, several
 * Heston assets' rho of p), path by path; 0 when out of memory. */
static int factor_terms(builder *b, const mcp_market *m, size_t t, size_t p, size_t q)
{
  mcpi_job *j = b->j;
  size_t f = (size_t)j->nfactors, first = 0;
  while (j->adj_col[first].greek != -1)
    first++;
  int32_t col = j->spec[t].g_adj + (int32_t)first; /* element (0, 0) of the factor's adjoint */
  double dl[MCPI_MAX_FACTORS * (MCPI_MAX_FACTORS + 1) / 2];
  mcpi_adjoint_correlation(j, m, p, q, dl);
  int ok = 1;
  for (size_t k = 0; k < f * (f + 1) / 2 && ok; k++)
    if (dl[k] != 0)
      ok = add_term(b, col + (int32_t)k, dl[k]);
  return ok;
}

/* A multi-asset trade's correlations, from its adjoint block: for each pair
 * of its assets, factor_terms. */
static int correlations(builder *b, const mcp_market *m, size_t t)
{
  mcpi_job *j = b->j;
  const mcpi_payoff_spec *s = &j->spec[t];
  size_t n = j->nassets;
  int ok = 1;
  for (size_t p = 0; p < n; p++)
    for (size_t q = p + 1; q < n && ok; q++) {
      if (!(s->assets >> p & s->assets >> q & 1u))
        continue;
      long a = market_index(m, j->u[p]), c = market_index(m, j->u[q]);
      ok = add_est(b, (long)t, MCP_GREEK_CORRELATION, MCP_METHOD_ADJOINT, a < c ? a : c,
                   a < c ? c : a) &&
           factor_terms(b, m, t, p, q);
    }
  return ok;
}

/* Several Heston assets' rhos (their vega buckets 5, where buckets are
 * asked): each the step's part, its block's column, plus its part through
 * the drivers' correlations (factor_terms). */
static int heston_rhos(builder *b, const mcp_market *m, size_t t)
{
  mcpi_job *j = b->j;
  const mcpi_payoff_spec *s = &j->spec[t];
  size_t n = j->nassets;
  int ok = 1;
  for (size_t a = 0; a < n && ok; a++)
    if (s->assets >> a & 1u)
      ok = push_est(b, (mcpi_est){.trade = (long)t, .point = -1, .greek = MCP_GREEK_VEGA,
                                  .method = MCP_METHOD_ADJOINT, .a = market_index(m, j->u[a]),
                                  .b = -1, .bucket = 5}) &&
           add_term(b, s->g_adj + (int32_t)(n + 5 * a + 4), 1) && factor_terms(b, m, t, a, a);
  return ok;
}

/* The estimators a path writes for trade t: pathwise and likelihood-ratio
 * where they apply, spot bumps as scaled paths where the payoff can be
 * evaluated on those (models/products/greeks.h); 0 when every Greek of the trade needs
 * revaluations, -1 when out of memory. */
static int in_pass(builder *b, const mcp_market *m, mcp_precision precision,
                   const mcp_greeks *req, size_t t, const mcpi_trade *tr, int rates_ok)
{
  mcpi_job *j = b->j;
  mcpi_payoff_spec *s = &j->spec[t];
  int multi = j->nassets > 1;
  /* vega and rho on the path: double (or mixed) single-asset paths (the _g body) of
   * jobs without adjoint blocks (rates_ok; adjoint.h); vega where the
   * volatility is constant within steps, and not through a BGK barrier,
   * whose shift moves with the volatility */
  int rates = rates_ok && !multi && !req->bump_only && precision != MCP_FLOAT;
  double vlo = 0, vhi = 0; /* the volatility curve's bounds (not Heston's) */
  if (!multi && j->model != MCPI_MODEL_HESTON && j->model != MCPI_MODEL_LOCAL_VOL)
    mcpi_curve_abs_bounds(&j->u[0]->vol, j->times[j->nsteps - 1], &vlo, &vhi);
  /* a barrier watched on the bridge is continuous in the path: pathwise
   * through its monitor's derivatives, which the _g body carries; not where
   * a step's volatility may be 0 (a bridge of no variance: no derivative in
   * it), whose Greeks are revalued */
  int watched = tr->product == MCP_PRODUCT_BARRIER && tr->monitoring == MCP_MONITOR_BRIDGE;
  int bridge = watched && rates && (j->model == MCPI_MODEL_HESTON || vlo > 0);
  /* early exercise: its spots' Greeks on the scaled paths under the fitted
   * rule, as its revaluations would have them (lsm_greeks.h), where a path
   * carries its scenarios; bumps alone, or more scenarios, revalue */
  int lsm = mcpi_lsm_product(tr->product);
  if (lsm && (req->bump_only ||
              mcpi_lsm_scaled_count(mcpi_lsm_mine(s, (int)j->nassets),
                                    req->want[MCP_GREEK_CROSS_GAMMA] && multi) >
                  MCPI_LSM_MAX_SCALED))
    return 0;
  rates = rates && !lsm;
  if (mcpi_private_product(tr->product) || j->model == MCPI_MODEL_LOCAL_VOL || j->cash ||
      (watched && !bridge) ||
      (tr->product == MCP_PRODUCT_LOOKBACK && tr->monitoring == MCP_MONITOR_BRIDGE) ||
      (req->bump_only && !multi))
    return 0;
  int d = req->want[MCP_GREEK_DELTA], gm = req->want[MCP_GREEK_GAMMA];
  int x = req->want[MCP_GREEK_CROSS_GAMMA] && multi;
  int discontinuous = !mcpi_product_is(tr->product, MCPI_PT_PATHWISE) && !bridge;
  int bs = !multi && j->model == MCPI_MODEL_BLACK_SCHOLES;
  int lr = discontinuous && bs && vlo > 0 && !lsm;
  int bgk = tr->product == MCP_PRODUCT_BARRIER && tr->monitoring == MCP_MONITOR_BGK;
  int vega = rates && req->want[MCP_GREEK_VEGA] && j->model != MCPI_MODEL_HESTON &&
             flat_within_steps(j) && !bgk;
  s->g_vega = !vega ? MCPI_GM_NONE : lr ? MCPI_GM_LR : !discontinuous ? MCPI_GM_PATHWISE
                                                                      : MCPI_GM_NONE;
  s->g_rho = !(rates && req->want[MCP_GREEK_RHO]) ? MCPI_GM_NONE
             : lr                                   ? MCPI_GM_LR
             : !discontinuous                       ? MCPI_GM_PATHWISE
                                                    : MCPI_GM_NONE;
  int done = IN_PASS | (s->g_vega ? IN_PASS_VEGA : 0) | (s->g_rho ? IN_PASS_RHO : 0);
  if (!(d || gm || x || s->g_vega || s->g_rho))
    return done;
  s->g_col = (int32_t)(j->ntrades + 1 + b->nest);
  s->g_h = req->bump[MCP_GREEK_DELTA];
  s->g_s0 = exp(log(j->u[0]->spot)); /* e^(the path's start), as the estimators had it */
  for (int k = 0; k < 2; k++) {
    j->g_l[k] = s->g_l[k] = log1p(k ? -s->g_h : s->g_h); /* every trade's */
    s->g_e[k] = exp(s->g_l[k]);
    /* the log-sum of the fixings to come, as a path would divide */
    s->g_lsum[k] = tr->nfix_all ? s->g_l[k] * (double)tr->nfix : s->g_l[k] / s->inv_nfix;
  }
  s->g_delta = !d ? MCPI_GM_NONE
               /* a seasoned geometric average: a power of the path's */
               : req->bump_only || (discontinuous && !lr) || bridge || tr->nfix_all
                   ? MCPI_GM_SCALED
               : lr                                       ? MCPI_GM_LR
                                                          : MCPI_GM_PATHWISE;
  s->g_gamma = !gm ? MCPI_GM_NONE : lr ? MCPI_GM_LR : MCPI_GM_SCALED;
  double hs = s->g_h * s->g_s0;
  s->g_rd = s->g_delta == MCPI_GM_PATHWISE ? 1 / s->g_s0 : 1 / (2 * hs);
  s->g_rg = 1 / (hs * hs);
  s->g_cross = x ? MCPI_GM_SCALED : MCPI_GM_NONE;
  s->g_time = tr->maturity;
  s->g_fix_time = 0;
  for (size_t k = 0; k < tr->nfix; k++)
    s->g_fix_time += tr->fix[k];
  if (s->g_vega || s->g_rho)
    j->gstate |= MCPI_GSTATE_ON |
                 (s->g_vega == MCPI_GM_LR || s->g_rho == MCPI_GM_LR ? MCPI_GSTATE_LR : 0);
  if (bridge)
    j->gstate |= MCPI_GSTATE_ON | MCPI_GSTATE_MONITORS | (d || gm ? MCPI_GSTATE_SCALED : 0);
  int ok = 1;
  if (!multi) {
    long a = market_index(m, j->u[0]);
    if (d)
      ok = add_est(b, (long)t, MCP_GREEK_DELTA, method_of(s->g_delta), a, -1);
    if (gm)
      ok = ok && add_est(b, (long)t, MCP_GREEK_GAMMA, method_of(s->g_gamma), a, -1);
    if (s->g_vega)
      ok = ok && add_est(b, (long)t, MCP_GREEK_VEGA, method_of(s->g_vega), a, -1);
    if (s->g_rho)
      ok = ok && add_est(b, (long)t, MCP_GREEK_RHO, method_of(s->g_rho), -1, -1);
    return ok ? done : -1;
  }
  for (int k = 0; k < 2; k++)
    if (k == 0 ? d : gm)
      for (size_t i = 0; i < j->nassets; i++)
        if (s->assets >> i & 1u)
          ok = ok && add_est(b, (long)t, k ? MCP_GREEK_GAMMA : MCP_GREEK_DELTA,
                             method_of(k ? s->g_gamma : s->g_delta), market_index(m, j->u[i]),
                             -1);
  if (x)
    for (size_t i = 0; i < j->nassets; i++)
      for (size_t k = i + 1; k < j->nassets; k++)
        if (s->assets >> i & s->assets >> k & 1u)
          ok = ok && add_est(b, (long)t, MCP_GREEK_CROSS_GAMMA, MCP_METHOD_BUMP,
                             market_index(m, j->u[i]), market_index(m, j->u[k]));
  return ok ? done : -1;
}

/* Central (or, for theta, forward) differences of trade t's revaluations,
 * for the Greeks the path body does not estimate (done: in_pass's bits). */
static int bumped(builder *b, mcpi_greek_run *g, const mcp_market *m, size_t t, int done)
{
  int spots = !(done & IN_PASS);
  const mcp_greeks *req = g->req;
  mcpi_job *j = b->j;
  const mcpi_payoff_spec *s = &j->spec[t];
  /* a trade swept back: its gamma and cross gammas are central differences
   * of its adjoint deltas at the spots moved (mcpi_greeks_layout) */
  int swept = spots && s->g_adj >= 0 && j->pass_adj > 0;
  int ok = 1, delta = req->want[MCP_GREEK_DELTA] && !(done & IN_PASS_DELTA);
  if (spots && (delta || req->want[MCP_GREEK_GAMMA]))
    for (size_t i = 0; i < j->nassets && ok; i++) {
      long a = market_index(m, j->u[i]);
      size_t up = (size_t)variant(g, MCPI_VAR_SPOT_UP, a), dn = (size_t)variant(g, MCPI_VAR_SPOT_DOWN, a);
      double hs = req->bump[MCP_GREEK_DELTA] * j->u[i]->spot;
      int32_t cu = pass_col(b, g, up, t), cd = pass_col(b, g, dn, t);
      if (delta)
        ok = add_est(b, (long)t, MCP_GREEK_DELTA, MCP_METHOD_BUMP, a, -1) &&
             add_term(b, cu, 0.5 / hs) && add_term(b, cd, -0.5 / hs);
      if (ok && req->want[MCP_GREEK_GAMMA] && swept)
        ok = add_est(b, (long)t, MCP_GREEK_GAMMA, MCP_METHOD_ADJOINT, a, -1) &&
             add_term(b, sweep_col(b, g, up, t, i), 0.5 / hs) &&
             add_term(b, sweep_col(b, g, dn, t, i), -0.5 / hs);
      else if (ok && req->want[MCP_GREEK_GAMMA])
        ok = add_est(b, (long)t, MCP_GREEK_GAMMA, MCP_METHOD_BUMP, a, -1) &&
             add_term(b, cu, 1 / (hs * hs)) && add_term(b, (int32_t)t, -2 / (hs * hs)) &&
             add_term(b, cd, 1 / (hs * hs));
    }
  /* the trade's assets (those of a product with a per-path array carry no
   * mask: the job's) */
  uint32_t mine = s->assets ? s->assets : (uint32_t)((1ull << j->nassets) - 1);
  /* a pair's cross gamma: the four corners of both spots moved,
   * (V++ - V+- - V-+ + V--) / (4 h_i h_k); swept back, the mean of the two
   * differences of a delta, (D_k(S_i+) - D_k(S_i-)) / (4 h_i) and its
   * mirror */
  for (size_t i = 0; spots && req->want[MCP_GREEK_CROSS_GAMMA] && i < j->nassets && ok; i++)
    for (size_t k = i + 1; k < j->nassets && ok; k++) {
      if (!(mine >> i & mine >> k & 1u))
        continue;
      long a = market_index(m, j->u[i]), c = market_index(m, j->u[k]);
      if (swept) {
        double hi = req->bump[MCP_GREEK_DELTA] * j->u[i]->spot;
        double hk = req->bump[MCP_GREEK_DELTA] * j->u[k]->spot;
        size_t ui = (size_t)variant(g, MCPI_VAR_SPOT_UP, a);
        size_t di = (size_t)variant(g, MCPI_VAR_SPOT_DOWN, a);
        size_t uk = (size_t)variant(g, MCPI_VAR_SPOT_UP, c);
        size_t dk = (size_t)variant(g, MCPI_VAR_SPOT_DOWN, c);
        ok = add_est(b, (long)t, MCP_GREEK_CROSS_GAMMA, MCP_METHOD_ADJOINT, a, c) &&
             add_term(b, sweep_col(b, g, ui, t, k), 0.25 / hi) &&
             add_term(b, sweep_col(b, g, di, t, k), -0.25 / hi) &&
             add_term(b, sweep_col(b, g, uk, t, i), 0.25 / hk) &&
             add_term(b, sweep_col(b, g, dk, t, i), -0.25 / hk);
        continue;
      }
      double w = 0.25 / (req->bump[MCP_GREEK_DELTA] * j->u[i]->spot *
                         req->bump[MCP_GREEK_DELTA] * j->u[k]->spot);
      ok = add_est(b, (long)t, MCP_GREEK_CROSS_GAMMA, MCP_METHOD_BUMP, a, c);
      for (int q = 0; q < 4 && ok; q++) /* q: 2 the first up, 1 the second */
        ok = add_term(b, pass_col(b, g, (size_t)variant_of(g, MCPI_VAR_SPOT_PAIR, a, (int)(4 * c + q)),
                                  t),
                      q == 0 || q == 3 ? w : -w);
    }
  static const mcp_greek pairs[] = {MCP_GREEK_VEGA, MCP_GREEK_RHO};
  static const mcpi_var_kind up_kind[] = {MCPI_VAR_VOL_UP, MCPI_VAR_RATE_UP};
  static const int on_path[] = {IN_PASS_VEGA, IN_PASS_RHO};
  /* a trade of several assets has a vega for each (its volatility alone
   * shifted), one asset's the shift of every volatility; each is the vega
   * of an underlying (the book's sum by underlying) */
  for (int k = 0; k < 2 && ok; k++)
    for (size_t i = 0; i < (k == 0 && j->nassets > 1 ? j->nassets : 1) && ok; i++)
      if (req->want[pairs[k]] && !(done & on_path[k]) &&
          (k || j->nassets == 1 || (mine >> i & 1u))) {
        long a = k == 0 ? market_index(m, j->u[i]) : -1;
        double h = req->bump[pairs[k]], w = g->side[k] ? 1 / h : 0.5 / h;
        /* central, or one-sided from the unshifted paths (column t) */
        long only = j->nassets > 1 ? a : -1;
        int32_t hi = g->side[k] >= 0 ? pass_col(b, g, (size_t)variant(g, up_kind[k], only), t)
                                     : (int32_t)t;
        int32_t lo = g->side[k] <= 0
                         ? pass_col(b, g, (size_t)variant(g, up_kind[k] + 1, only), t)
                         : (int32_t)t;
        ok = add_est(b, (long)t, pairs[k], MCP_METHOD_BUMP, a, -1) && add_term(b, hi, w) &&
             add_term(b, lo, -w);
      }
  /* with buckets, a Heston asset's vega a parameter (the model's vegas),
   * where no adjoint block has them */
  for (size_t i = 0; i < j->nassets && ok && j->model == MCPI_MODEL_HESTON && req->buckets &&
                     req->want[MCP_GREEK_VEGA] && !(done & IN_PASS_VEGA);
       i++) {
    long a = market_index(m, j->u[i]);
    for (int k = 0; k < MCPI_HESTON_PARAMS && ok && (j->nassets == 1 || (mine >> i & 1u));
         k++) {
      double h = mcpi_heston_bump(j->u[i], k);
      if (!(h > 0) || (k == 4 && g->joint[a])) /* a parameter at 0, rho at -1 or 1 */
        continue;
      int32_t hi = pass_col(b, g, (size_t)variant_of(g, MCPI_VAR_HESTON_UP, a, k), t);
      int32_t lo = pass_col(b, g, (size_t)variant_of(g, MCPI_VAR_HESTON_DOWN, a, k), t);
      ok = push_est(b, (mcpi_est){.trade = (long)t, .point = -1, .greek = MCP_GREEK_VEGA,
                                  .method = MCP_METHOD_BUMP, .a = a, .b = -1, .bucket = 1 + k}) &&
           add_term(b, hi, 0.5 / h) && add_term(b, lo, -0.5 / h);
    }
  }
  if (ok && req->want[MCP_GREEK_THETA]) {
    size_t v = (size_t)variant(g, MCPI_VAR_THETA, -1);
    double dt = g->theta_h;
    ok = add_est(b, (long)t, MCP_GREEK_THETA, MCP_METHOD_BUMP, -1, -1) &&
         add_term(b, pass_col(b, g, v, t), 1 / dt) && add_term(b, (int32_t)t, -1 / dt);
  }
  return ok;
}

/* An estimator's Greek, its key: Greek, underlyings, bucket and point (a
 * hidden column, or a twin, is only the same Greek as another of its
 * kind); equal keys are one Greek of the book. */
static uint64_t hash_greek(const void *items, size_t i)
{
  const mcpi_est *e = &((const mcpi_est *)items)[i];
  const long v[5] = {(long)e->greek, e->a, e->b, e->bucket, e->point};
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (int t = 0; t < 5; t++) {
    h = (h ^ (uint64_t)v[t]) * 0xbf58476d1ce4e5b9u;
    h ^= h >> 31;
  }
  return h;
}

static int same_greek(const void *items, size_t i, size_t j)
{
  const mcpi_est *x = &((const mcpi_est *)items)[i], *y = &((const mcpi_est *)items)[j];
  return x->greek == y->greek && x->a == y->a && x->b == y->b && x->bucket == y->bucket &&
         x->point == y->point;
}

/* Each estimator's Greek's first estimator (lead) and the next estimator
 * of its Greek after it (next; n past the last), in the estimators' order:
 * the Greeks found by their groups (groups.h; each estimator against every
 * other took 2.8 M instructions of a 423-bucket trade's call,
 * bench/RESULTS.md).  0 when out of memory. */
static int group_greeks(const builder *b, size_t *lead, size_t *next)
{
  size_t n = b->nest;
  size_t *grp = malloc((n ? n : 1) * sizeof *grp), *first = malloc((n ? n : 1) * sizeof *first);
  size_t *last = malloc((n ? n : 1) * sizeof *last); /* a group's last estimator so far */
  int ok = grp && first && last &&
           mcpi_group(n, &(mcpi_keys){hash_greek, same_greek, b->est}, grp, first) !=
               SIZE_MAX;
  for (size_t i = 0; ok && i < n; i++) {
    size_t g = grp[i];
    lead[i] = first[g];
    next[i] = n;
    if (first[g] != i)
      next[last[g]] = i;
    last[g] = i;
  }
  free(grp);
  free(first);
  free(last);
  return ok;
}

/* The path body's sum (greeks.h's MCPI_BOOK_*) for the book's estimator of
 * k's Greek, or -1: a single-asset delta, gamma, vega or rho whose every
 * trade's column the body writes (in-pass, not by adjoint), in the order of
 * the trades, as the combined estimator's terms would be added; next[i] the
 * next estimator of i's Greek (book), or past the last. */
static int path_book(const builder *b, size_t k, const size_t *next, size_t n)
{
  static const mcp_greek slot[] = {MCP_GREEK_DELTA, MCP_GREEK_GAMMA, MCP_GREEK_VEGA,
                                   MCP_GREEK_RHO};
  const mcpi_est *e = &b->est[k];
  int at = -1;
  for (int i = 0; i < (int)(sizeof slot / sizeof *slot); i++)
    if (e->greek == slot[i])
      at = i;
  if (b->j->nassets != 1 || b->j->arr_len || e->bucket || at < 0) /* arrays: private.h's */
    return -1;
  for (size_t i = k; i < n; i = next[i])
    if (i >= b->j->nin || b->est[i].method == MCP_METHOD_ADJOINT)
      return -1;
  return at;
}

/* The book's estimators: each (Greek, underlyings, bucket) of the job's
 * trades, summed with the trades' quantities (by the path body where it
 * writes every term, path_book); where one trade has it, that trade's
 * estimator marked instead (its quantity times it is the book's, path by
 * path: a bucketed trade alone in its job would double the columns); the
 * Greeks found by group_greeks. */
static int book(builder *b)
{
  size_t n = b->nest, nt = b->j->ntrades;
  size_t *next = malloc(n * sizeof *next), *lead = malloc(n * sizeof *lead);
  int ok = !n || (next && lead && group_greeks(b, lead, next));
  for (size_t k = 0; k < n && ok; k++) {
    mcpi_est e = b->est[k]; /* add_est moves the array */
    if (lead[k] != k || e.point != -1)
      continue;
    if (next[k] == n) { /* the trade's column, scaled: no column of its own */
      b->est[k].book = 1;
      continue;
    }
    int body = path_book(b, k, next, n);
    ok = push_est(b, (mcpi_est){.trade = -1, .point = -1, .greek = e.greek, .method = e.method,
                                .a = e.a, .b = e.b, .bucket = e.bucket});
    if (ok && body >= 0) { /* no terms: the combination skips it */
      b->j->g_book[body] = (int32_t)(nt + b->nest);
      continue;
    }
    for (size_t i = k; i < n && ok; i = next[i])
      ok = add_term(b, (int32_t)(nt + 1 + i), b->j->spec[b->est[i].trade].quantity);
  }
  free(next);
  free(lead);
  return ok;
}

/* The job takes the builder's arrays, the passes' columns resolved. */
static void finish_job(builder *b)
{
  mcpi_job *j = b->j;
  for (size_t k = 0; k < b->nterm; k++)
    if (b->term[k].col < 0)
      b->term[k].col = (int32_t)(j->ntrades + b->nest) - b->term[k].col;
  j->est = b->est;
  j->nest = b->nest;
  j->term = b->term;
  j->nterm = b->nterm;
  j->pass = b->pass;
  j->npass = b->npass;
}

/* Twins (mcpi_est.held) of the Longstaff-Schwartz trade's estimators from
 * `from` on, for its European held (plan.h's nheld; the trade is the job's
 * first): the same Greeks of that spec, which the trade's are where its price
 * is floored to the European's (reval.c).  Those the body writes (below
 * nin) are the held spec's columns, written as the trade's scaled paths'
 * are (lsm_greeks.h); the others the same terms on its columns. */
static int held_twins(builder *b, size_t from)
{
  mcpi_job *j = b->j;
  size_t h = j->nreal + j->nred, to = b->nest, first = b->nest;
  /* trade 0's adjoint block and the held's (adjoint_block) */
  int32_t a0 = j->spec[0].g_adj, ah = j->spec[h].g_adj;
#define IN_BLOCK(c) (a0 >= 0 && (c) >= a0 && (c) < a0 + j->adj_cols)
  int ok = 1;
  for (size_t k = from; k < to && ok; k++) {
    mcpi_est e = b->est[k];
    if (e.trade == 0 && IN_BLOCK((int32_t)(j->ntrades + 1 + k))) { /* the block's twin */
      b->est[k].held = k - (size_t)a0 + (size_t)ah + 1;
      continue;
    }
    /* with terms on trade 0's columns alone: its own, its block's, a pass's */
    int own = e.trade == 0 && e.point == -1;
    for (size_t i = 0; i < e.nterm && own; i++) {
      int32_t c = b->term[e.term0 + i].col;
      own = c >= 0 ? c == 0 || IN_BLOCK(c) : (-c - 1) % (int32_t)mcpi_pass_width(j) == 0;
    }
    if (!own)
      continue;
    b->est[k].held = b->nest + 1;
    ok = push_est(b, (mcpi_est){.trade = (long)h, .point = MCPI_EST_HELD, .greek = e.greek,
                                .method = e.method, .a = e.a, .b = e.b, .bucket = e.bucket});
    for (size_t i = 0; i < e.nterm && ok; i++) { /* trade 0's columns: the base's, a pass's */
      mcpi_term t = b->term[e.term0 + i];
      ok = add_term(b, IN_BLOCK(t.col) ? t.col - a0 + ah
                       : t.col >= 0      ? t.col + (int32_t)h
                                         : t.col - (int32_t)h,
                    t.coef);
    }
  }
#undef IN_BLOCK
  mcpi_payoff_spec *s = &j->spec[0], *held = &j->spec[h];
  if (ok && from == 0 && s->g_col >= 0) {
    held->g_col = (int32_t)(j->ntrades + 1 + first);
    held->g_delta = s->g_delta;
    held->g_gamma = s->g_gamma;
    held->g_cross = s->g_cross;
    held->g_h = s->g_h;
    held->g_s0 = s->g_s0;
    memcpy(held->g_e, s->g_e, sizeof held->g_e);
    /* its scenarios' discount, the last date's as the held value's */
    held->discount = j->lsm_table[(size_t)(j->lsm_dates - 1) * MCPI_LSM_ROW];
  }
  return ok;
}

/* The fewest assets of a job whose cross gammas come by bumping the
 * adjoint.  The revaluations take 2 n^2 passes (two a spot, four a pair),
 * the sweeps of the deltas alone 2n; the sweeps' gammas have about 0.75
 * times the revaluations' variance, their cross gammas 1.5 times the
 * corners'.  On the H200 (bench/RESULTS.md "second-order": du Toit's basket
 * on n of its assets) the sweeps were 1.06 times faster at 2 assets, 1.28
 * at 3 (the cross gammas' variance to the same time 1.17 times the
 * corners'), 1.68 at 4 (0.89), 2.3 at 6 and 3.2 at 10: from 4 on, no
 * Greek costs more to the same error. */
#define MCPI_SWEEP_ASSETS 4

/* Where the job's cross gammas are asked, of at least MCPI_SWEEP_ASSETS
 * local-volatility assets (whose paths do not scale with the spots), and
 * some trade of it takes an adjoint block, its passes' columns for the
 * blocks of deltas (every block trade's, in order, mcpi_adjoint_deltas),
 * and where each trade's starts (b->sweep_at); 0 when out of memory. */
static int sweep_layout(builder *b, const mcp_greeks *req, const int *done)
{
  mcpi_job *j = b->j;
  int need = 0;
  for (size_t t = 0; t < j->nreal; t++)
    need = need || (j->spec[t].g_adj >= 0 && !(done[t] & IN_PASS));
  if (!need || !req->want[MCP_GREEK_CROSS_GAMMA] || j->model != MCPI_MODEL_LOCAL_VOL ||
      j->nassets < MCPI_SWEEP_ASSETS || j->lsm_dates) /* (an exercise's: revalued) */
    return 1;
  int32_t w = (int32_t)j->nassets, at = 0;
  if (!(b->sweep_at = malloc(j->ntrades * sizeof *b->sweep_at)))
    return 0;
  for (size_t t = 0; t < j->ntrades; t++) {
    b->sweep_at[t] = j->spec[t].g_adj >= 0 ? at : -1;
    at += j->spec[t].g_adj >= 0 ? w : 0;
  }
  j->pass_adj = at;
  return 1;
}

/* A pass's job that sweeps back (a mcpi_sweep: v, the variant's of base):
 * each block trade's block of deltas after the trades and book, in order,
 * as sweep_layout placed them. */
static mcp_status sweep_job(const mcpi_job *base, mcpi_job *v, char *err)
{
  int32_t at = (int32_t)base->ntrades + 1;
  for (size_t t = 0; t < base->ntrades; t++) {
    v->spec[t].g_adj = base->spec[t].g_adj >= 0 ? at : -1;
    at += base->spec[t].g_adj >= 0 ? (int32_t)base->nassets : 0;
  }
  v->gstate = MCPI_GSTATE_ADJOINT;
  return mcpi_adjoint_deltas(v, err);
}

static mcp_status layout_job(mcpi_greek_run *g, const mcp_market *m, const mcp_portfolio *p,
                             mcpi_job *j, char *err)
{
  builder b = {.j = j};
  int ok = 1, *done = calloc(j->nreal + 1, sizeof *done);
  ok = done != NULL;
  mcp_greeks rest = *g->req; /* what an adjoint block leaves to the other estimators */
  rest.want[MCP_GREEK_DELTA] = rest.want[MCP_GREEK_VEGA] = rest.want[MCP_GREEK_RHO] = 0;
  for (size_t t = 0; t < j->nreal; t++) /* the payment times (the discounts' rho) */
    j->spec[t].g_time = p->t[j->trade[t]].maturity;
  int blocks = 0; /* some trade takes an adjoint block: the others' vega and rho bumped */
  for (size_t t = 0; t < j->nreal; t++)
    blocks = blocks || adjoint_fits(g, j, &p->t[j->trade[t]]);
  for (size_t t = 0; t < j->nreal && ok; t++) { /* the portfolio's trades (plan.h) */
    const mcpi_trade *tr = &p->t[j->trade[t]];
    int adj = adjoint_block(&b, m, g, t, tr, err);
    if (adj < 0) {
      free(done);
      free(b.sweep_at);
      free(b.est);
      free(b.term);
      return mcpi_no_memory(__func__);
    }
    ok = (done[t] = in_pass(&b, m, g->set->precision, adj ? &rest : g->req, t, tr, !blocks)) >= 0;
    done[t] |= adj;
  }
  ok = ok && (!j->nheld || held_twins(&b, 0));
  ok = ok && sweep_layout(&b, g->req, done);
  b.j->nin = b.nest;
  for (size_t t = 0; t < j->nreal && ok; t++)
    ok = bumped(&b, g, m, t, done[t]) &&
         (j->spec[t].g_adj < 0 || j->nassets == 1 || !g->req->want[MCP_GREEK_CORRELATION] ||
          correlations(&b, m, t)) &&
         (j->spec[t].g_adj < 0 || j->nassets == 1 || j->model != MCPI_MODEL_HESTON ||
          !g->req->want[MCP_GREEK_VEGA] || !g->req->buckets || heston_rhos(&b, m, t));
  ok = ok && (!j->nheld || held_twins(&b, b.j->nin));
  ok = ok && book(&b) && !b.oom;
  free(done);
  free(b.sweep_at);
  if (!ok) {
    free(b.est);
    free(b.term);
    free(b.pass);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the Greeks");
  }
  finish_job(&b);
  return MCP_OK;
}

static int same_jobs(const mcpi_plan *a, const mcpi_plan *b)
{
  if (a->njobs != b->njobs)
    return 0;
  for (size_t i = 0; i < a->njobs; i++) {
    const mcpi_job *x = &a->jobs[i], *y = &b->jobs[i];
    if (x->nelem != y->nelem || x->ntrades != y->ntrades || x->stream != y->stream ||
        x->arr_len != y->arr_len || x->nassets != y->nassets ||
        memcmp(x->tag, y->tag, x->nelem * sizeof *x->tag) != 0) /* a pass steps x's elements */
      return 0;
  }
  return 1;
}

/* m with the spots of a pair variant's two assets moved (MCPI_VAR_SPOT_PAIR) */
static mcp_status pair_shifted(const mcp_market *m, const mcpi_greek_run *g, const mcpi_variant *v,
                               double h, mcp_market **out, char *err)
{
  mcp_shift_kind kind[3] = {MCP_SHIFT_RELATIVE, MCP_SHIFT_ABSOLUTE, MCP_SHIFT_ABSOLUTE};
  double x[3] = {v->param & 2 ? h : -h, 0, 0}, y[3] = {v->param & 1 ? h : -h, 0, 0};
  mcp_market *first = NULL;
  mcp_status st = mcpi_market_shifted(m, kind, x, v->asset, g->used, &first, err);
  if (st == MCP_OK)
    st = mcpi_market_shifted(first, kind, y, v->param / 4, g->used, out, err);
  mcp_market_destroy(first);
  return st;
}

static mcp_status build_variant(const mcp_market *m, const mcp_portfolio *p,
                                const mcpi_greek_run *g, const mcpi_plan *base, mcpi_variant *v,
                                char *err)
{
  const mcp_greeks *req = g->req;
  static const int axis[MCPI_VAR_KINDS] = {MCP_SHIFT_SPOT, MCP_SHIFT_SPOT, MCP_SHIFT_VOLATILITY,
                                           MCP_SHIFT_VOLATILITY, MCP_SHIFT_RATE, MCP_SHIFT_RATE, 0};
  static const mcp_greek greek[MCPI_VAR_KINDS] = {MCP_GREEK_DELTA, MCP_GREEK_DELTA,
                                                  MCP_GREEK_VEGA, MCP_GREEK_VEGA, MCP_GREEK_RHO,
                                                  MCP_GREEK_RHO, MCP_GREEK_THETA};
  mcp_shift_kind kind[3] = {MCP_SHIFT_RELATIVE, MCP_SHIFT_ABSOLUTE, MCP_SHIFT_ABSOLUTE};
  double x[3] = {0, 0, 0};
  int heston = v->kind == MCPI_VAR_HESTON_UP || v->kind == MCPI_VAR_HESTON_DOWN;
  double h = v->kind == MCPI_VAR_POINT || heston || v->kind == MCPI_VAR_SPOT_PAIR ? 0
             : v->kind == MCPI_VAR_THETA         ? g->theta_h
                                                 : req->bump[greek[v->kind]];
  mcp_status st = MCP_OK;
  if (v->kind == MCPI_VAR_THETA) {
    st = mcpi_portfolio_dated(p, h, &v->portfolio, err);
  } else if (v->kind == MCPI_VAR_SPOT_PAIR) {
    st = pair_shifted(m, g, v, req->bump[MCP_GREEK_DELTA], &v->market, err);
  } else if (heston) { /* a copy (no shift), its parameter moved */
    st = mcpi_market_shifted(m, kind, x, -1, g->used, &v->market, err);
    if (st == MCP_OK) {
      double hp = mcpi_heston_bump(&m->u[v->asset], v->param);
      *heston_param(&v->market->u[v->asset], v->param) +=
          v->kind == MCPI_VAR_HESTON_UP ? hp : -hp;
    }
  } else if (v->kind != MCPI_VAR_POINT) {
    x[axis[v->kind]] = v->kind % 2 ? -h : h; /* up kinds are even */
    st = mcpi_market_shifted(m, kind, x, v->asset, g->used, &v->market, err);
  }
  const mcp_market *vm = v->market ? v->market : m;
  const mcp_portfolio *vp = v->portfolio ? v->portfolio : p;
  if (st == MCP_OK && v->mc && (st = mcpi_plan_build(vm, vp, &g->set->pde, &v->plan, err)) == MCP_OK &&
      !same_jobs(base, &v->plan))
    st = v->kind == MCPI_VAR_THETA
             ? mcpi_fail(err, MCP_ERR_INPUT, "theta: a bump of %g years changes the simulation "
                         "times of some trade's paths; expected a smaller bump", h)
             : mcpi_fail(err, MCP_ERR_INPUT, "a shifted market changes how some trade's paths "
                         "are simulated; expected smaller shifts");
  /* a Greek's revaluation keeps the base's rule (run_job.c), read as the
   * base reads it; a scenario point fits its own */
  for (size_t ji = 0; st == MCP_OK && v->mc && v->kind != MCPI_VAR_POINT && ji < base->njobs; ji++)
    mcpi_lsm_keep_basis(&base->jobs[ji], &v->plan.jobs[ji]);
  if (st == MCP_OK && v->pde)
    st = mcpi_pde_plan(vm, vp, &g->set->pde, &v->grid, err);
  return st;
}

/* Whether a used underlying's volatility curve (not Heston's) touches 0
 * anywhere: a grid cannot price it, and the shift is no derivative there. */
static int vol_reaches_zero(const mcp_market *m, const unsigned char *used)
{
  for (size_t i = 0; i < m->n; i++) {
    double lo, hi;
    if (!used[i] || m->u[i].model == MCPI_MODEL_HESTON)
      continue;
    mcpi_curve_abs_bounds(&m->u[i].vol, INFINITY, &lo, &hi);
    for (size_t k = 0; k < m->u[i].lv.nt * m->u[i].lv.ns; k++)
      lo = fmin(lo, m->u[i].lv.values[k]);
    if (lo <= 0)
      return 1;
  }
  return 0;
}

mcp_status mcpi_greeks_layout(const mcp_market *m, const mcp_portfolio *p,
                              const mcpi_settings *set, const mcp_greeks *req, mcpi_plan *plan,
                              const mcpi_pde_batch *grid, mcpi_greek_run *g, char *err)
{
  memset(g, 0, sizeof *g);
  g->set = set;
  g->req = req;
  if (req->bump_only && (req->buckets || req->want[MCP_GREEK_CORRELATION] ||
                         req->want[MCP_GREEK_DIVIDEND]))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "buckets, correlations and dividend sensitivities "
                     "come by adjoint; a request of bumps alone has none");
  g->used = calloc(m->n + 1, 1);
  g->joint = calloc(m->n + 1, 1);
  if (!g->used || !g->joint)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the Greeks");
  size_t pairs = 0, joint = 0; /* the trades' pairs of assets, at most the joint ones' */
  for (size_t i = 0; i < p->n; i++) {
    pairs += p->t[i].nassets * (p->t[i].nassets - 1) / 2;
    for (size_t a = 0; a < p->t[i].nassets; a++) {
      const mcpi_underlying *u = mcpi_market_find(m, p->t[i].asset[a]);
      if (u) {
        g->used[u - m->u] = 1;
        joint += p->t[i].nassets > 1 && !g->joint[u - m->u];
        g->joint[u - m->u] |= p->t[i].nassets > 1;
      }
    }
  }
  if (joint > 1 && pairs > joint * (joint - 1) / 2)
    pairs = joint * (joint - 1) / 2;
  /* spots and volatilities by asset, Heston's parameters, the corners of
   * each pair of assets */
  g->var = calloc((4 + 2 * MCPI_HESTON_PARAMS) * m->n + MCPI_VAR_KINDS +
                      (req->want[MCP_GREEK_CROSS_GAMMA] ? 4 * pairs : 0),
                  sizeof *g->var);
  g->pg = calloc(grid->ntrades * 3 + 1, sizeof *g->pg);
  if (!g->var || !g->pg)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the Greeks");
  /* vega and rho: one-sided where a shift would leave the allowed range
   * (a volatility below the bump, a rate near the bound) */
  static const int side_axis[2] = {MCP_SHIFT_VOLATILITY, MCP_SHIFT_RATE};
  static const mcp_greek side_greek[2] = {MCP_GREEK_VEGA, MCP_GREEK_RHO};
  for (int k = 0; k < 2; k++) {
    if (!req->want[side_greek[k]])
      continue;
    int fits[2];
    for (int s = 0; s < 2; s++) { /* up, down */
      mcp_shift_kind kind[3] = {MCP_SHIFT_RELATIVE, MCP_SHIFT_ABSOLUTE, MCP_SHIFT_ABSOLUTE};
      double x[3] = {0, 0, 0};
      x[side_axis[k]] = s ? -req->bump[side_greek[k]] : req->bump[side_greek[k]];
      mcp_market *shifted = NULL;
      char scratch[MCPI_ERRLEN] = "";
      mcp_status st = mcpi_market_shifted(m, kind, x, -1, g->used, &shifted, scratch);
      if (st == MCP_ERR_NO_MEMORY) /* not a bump out of range: the same choice on every slice */
        return mcpi_fail(err, st, "%s", scratch[0] ? scratch : mcp_last_error());
      fits[s] = st == MCP_OK && (k || !vol_reaches_zero(shifted, g->used));
      mcp_market_destroy(shifted);
    }
    if (!fits[0] && !fits[1])
      return mcpi_fail(err, MCP_ERR_INPUT, "%s: a bump of %g leaves the market's allowed "
                       "range both up and down; expected a smaller bump",
                       mcp_greek_name(side_greek[k]), req->bump[side_greek[k]]);
    g->side[k] = fits[0] && fits[1] ? 0 : fits[0] ? 1 : -1;
  }
  g->theta_h = mcpi_plan_theta_bump(plan, req->bump[MCP_GREEK_THETA]);
  mcp_status st = MCP_OK;
  for (size_t ji = 0; ji < plan->njobs && st == MCP_OK; ji++)
    st = layout_job(g, m, p, &plan->jobs[ji], err);
  static const mcp_greek revalued[] = {MCP_GREEK_VEGA, MCP_GREEK_RHO, MCP_GREEK_THETA};
  static const mcpi_var_kind up_kind[] = {MCPI_VAR_VOL_UP, MCPI_VAR_RATE_UP, MCPI_VAR_THETA};
  for (size_t i = 0; i < grid->ntrades; i++)
    for (int k = 0; k < 3; k++)
      if (req->want[revalued[k]]) {
        int side = k < 2 ? g->side[k] : 1; /* theta: forward in time */
        long up = side >= 0 ? variant(g, up_kind[k], -1) : -1;
        long dn = side <= 0 ? variant(g, up_kind[k] + 1, -1) : -1;
        double h = k < 2 ? req->bump[revalued[k]] : g->theta_h;
        if (up >= 0)
          g->var[up].pde = 1;
        if (dn >= 0)
          g->var[dn].pde = 1;
        g->pg[g->npg++] = (mcpi_pde_greek){grid->trade[i].trade, revalued[k], {up, dn},
                                           side ? h : 2 * h};
      }
  for (size_t v = 0; v < g->nvar && st == MCP_OK; v++)
    st = build_variant(m, p, g, plan, &g->var[v], err);
  for (size_t k = 0; k < g->nsweep && st == MCP_OK; k++) {
    const mcpi_job *base = g->sweep[k].job;
    st = sweep_job(base, &g->var[g->sweep[k].var].plan.jobs[base - plan->jobs], err);
  }
  return st;
}

mcp_status mcpi_points_layout(mcp_market **markets, size_t n, int losses, const mcp_market *m,
                              const mcp_portfolio *p, const mcpi_settings *set, mcpi_plan *plan,
                              const mcpi_pde_batch *grid, mcpi_greek_run *g, char *err)
{
  memset(g, 0, sizeof *g);
  g->set = set;
  if (!(g->var = calloc(n ? n : 1, sizeof *g->var))) {
    for (size_t k = 0; k < n; k++)
      mcp_market_destroy(markets[k]);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  }
  for (size_t k = 0; k < n; k++)
    g->var[g->nvar++] = (mcpi_variant){.kind = MCPI_VAR_POINT, .asset = -1, .market = markets[k],
                                       .mc = plan->njobs > 0, .pde = grid->ntrades > 0};
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    builder b = {.j = &plan->jobs[ji]};
    size_t nt = b.j->ntrades; /* with the forwards (plan.h): collect reads (k + 1) (nt + 1) on */
    int ok = 1;
    for (size_t k = 0; k < n && ok; k++)
      for (size_t t = 0; t <= nt && ok; t++) /* the trades, then the book */
        ok = add_point(&b, t < nt ? (long)t : -1, (long)k) &&
             add_term(&b, pass_col(&b, g, k, t), 1.0);
    for (size_t k = 0; losses && k < n && ok; k++) /* the base's book column is nt */
      ok = add_point(&b, -1, (long)k) && add_term(&b, (int32_t)nt, 1.0) &&
           add_term(&b, pass_col(&b, g, k, nt), -1.0);
    /* a Longstaff-Schwartz trade priced at its held European in the base,
     * the point or both (reval.c's exercise_floor): the pairs with that
     * column, its quantity times it for the book's (reval.c's collect_loss) */
    size_t h = b.j->nreal + b.j->nred;
    double q = b.j->nheld ? p->t[b.j->trade[0]].quantity : 0;
    for (size_t k = 0; losses && b.j->nheld && k < n && ok; k++)
      for (int held = 1; held < 4 && ok; held++)
        ok = add_point(&b, -1, (long)k) &&
             add_term(&b, (int32_t)(held & 1 ? h : nt), held & 1 ? q : 1.0) &&
             add_term(&b, pass_col(&b, g, k, held & 2 ? h : nt), held & 2 ? -q : -1.0);
    if (!ok || b.oom) {
      free(b.est);
      free(b.term);
      free(b.pass);
      return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
    }
    finish_job(&b);
  }
  mcp_status st = MCP_OK;
  for (size_t v = 0; v < g->nvar && st == MCP_OK; v++)
    st = build_variant(m, p, g, plan, &g->var[v], err);
  return st;
}

void mcpi_greeks_free(mcpi_greek_run *g)
{
  for (size_t v = 0; v < g->nvar; v++) {
    mcpi_variant *x = &g->var[v];
    mcp_market_destroy(x->market);
    mcp_portfolio_destroy(x->portfolio);
    mcpi_plan_free(&x->plan);
    mcpi_pde_free(&x->grid);
    free(x->pde_est);
  }
  free(g->var);
  free(g->pg);
  free(g->sweep);
  free(g->used);
  free(g->joint);
  memset(g, 0, sizeof *g);
}
