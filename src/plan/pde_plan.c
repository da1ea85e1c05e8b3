/* pde_plan.c: from the portfolio's grid trades to a batch of grids (pde.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/analytic/engine.h"
#include "src/base/grow.h"
#include "src/plan/pde.h"
#include "src/base/validate.h"

/* The terminal payoff of a grid: scale (phi (S - K))+ + add. */
typedef struct payoff {
  double phi, strike, scale, add;
} payoff;

typedef struct draft {
  mcpi_pde_batch *b;
  size_t grid_cap, seg_cap, frac_cap, div_cap;
  double origin; /* the portfolio's (theta): the dividends come closer */
  const mcp_market *base; /* the run's own market, which shapes the grids */
  char *err;
} draft;

/* Where a grid ends: at a knock-out barrier, or free. */
typedef struct edge {
  int barrier;    /* -1 the low end is the barrier, +1 the high end, 0 none */
  double level;   /* the barrier */
  double rebate;  /* the barrier's boundary value, paid at maturity */
} edge;

/* The half width W of a grid to maturity T in log-spot: width standard
 * deviations and the drift, which dominates at low volatility. */
static double half_width(const mcp_pde_settings *s, const mcpi_underlying *u, double T)
{
  double var = mcpi_curve_integral_sq(&u->vol, 0, T);
  double drift = mcpi_curve_integral(&u->rate, 0, T) - mcpi_curve_integral(&u->dividend, 0, T);
  double cash = 0; /* and the cash dividends' fall, as a fraction of the spot (at most 0.9) */
  for (size_t i = 0; i < u->ncash; i++)
    cash += u->cash_amount[i];
  return s->width * sqrt(var) + fabs(drift - 0.5 * var) - log1p(-fmin(cash / u->spot, 0.9));
}

/* A call whose upper end is free takes its value from the spot's far upper
 * tail, where the central differences of e^x err by a h^2 / 12 of it a
 * year (a = vol^2 / 2); the price errs by about a h^2 T / 4 of itself
 * (measured on down-and-out calls against their closed form, vol 1 to 5:
 * 0.21 to 0.26 of a h^2 T), h = 2 W / (n - 1) whether a barrier ends the
 * grid or not.  The estimate for such a grid of trade t. */
static double tail_error(const mcp_pde_settings *s, const mcpi_underlying *u, double T)
{
  double vlo, vhi;
  mcpi_curve_abs_bounds(&u->vol, T, &vlo, &vhi);
  double h = 2 * half_width(s, u, T) / (s->space_points - 1);
  return 0.25 * (0.5 * vhi * vhi) * h * h * T;
}

/* Whether an American call may be exercised early: a dividend (a yield, or
 * cash), or a negative rate, before maturity (otherwise it is the
 * European). */
static int early_call(const mcpi_trade *t, const mcpi_underlying *u)
{
  double qlo, qhi;
  mcpi_curve_abs_bounds(&u->dividend, t->maturity, &qlo, &qhi);
  return t->product == MCP_PRODUCT_AMERICAN && t->type == MCP_CALL &&
         (qhi > 0 || u->ncash || mcpi_curve_min(&u->rate, t->maturity) < 0);
}

/* Whether trade t has a call grid whose upper end is free (plan_trade): an
 * American call exercised early, a down-and-out call, the knock-out leg of
 * a down-and-in call (a barrier crossed already leaves none). */
static int tail_grid(const mcpi_trade *t, const mcpi_underlying *u)
{
  if (t->product == MCP_PRODUCT_BARRIER)
    return t->type == MCP_CALL &&
           (t->barrier_kind == MCP_DOWN_AND_OUT || t->barrier_kind == MCP_DOWN_AND_IN) &&
           u->spot > t->barrier;
  return early_call(t, u);
}

/* A grid's value at spot 0 (absorbed: the spot stays there), dr the
 * discount factor to maturity: a low barrier's rebate, else the payoff at 0;
 * an American exercises there at once. */
static double absorbed(payoff f, edge e, int american, double dr)
{
  if (e.barrier < 0)
    return e.rebate * dr;
  double intrinsic = f.phi < 0 ? f.strike : 0;
  double v = (f.scale * intrinsic + f.add) * dr;
  return american && intrinsic > v ? intrinsic : v;
}

/* Whether u pays a cash dividend before T (valuation date moved by origin). */
static int cash_before(const mcpi_underlying *u, double origin, double T)
{
  for (size_t i = 0; i < u->ncash; i++)
    if (u->cash_t[i] - origin > 0 && u->cash_t[i] - origin < T)
      return 1;
  return 0;
}

/* The calendar times [t0, t1] of time step k of grid G to maturity T
 * (marching back from it): Rannacher's half steps first. */
static void step_span(const mcpi_pde_grid *G, double T, int k, double *t0, double *t1)
{
  int half = k < G->half_steps;
  double tau0 = half ? k * 0.5 * G->dt : (k - G->half_steps / 2) * G->dt;
  double tau1 = tau0 + (half ? 0.5 * G->dt : G->dt);
  *t1 = T - tau0;
  *t0 = T - tau1;
  if (*t0 < 0)
    *t0 = 0;
  if (*t1 <= *t0)
    *t1 = *t0 + 1e-300;
}

double mcpi_pde_step_time(const mcpi_pde_grid *G, double T, int s)
{
  double t0, t1;
  step_span(G, T, s, &t0, &t1);
  return t0;
}

static mcp_status add_grid(draft *d, const mcpi_trade *t, const mcpi_underlying *u, payoff f,
                           edge e, int american)
{
  mcpi_pde_batch *b = d->b;
  const mcp_pde_settings *s = &b->set;
  int n = b->n, R = b->radius;
  double T = t->maturity, x0 = log(u->spot);
  double var = mcpi_curve_integral_sq(&u->vol, 0, T);
  double W = half_width(s, u, T), ht = 2 * W / (n - 1);
  int c = (n - 1) / 2;
  double h = W / c, xlo = x0 - c * h, frac = 0;
  if (e.barrier && fabs(log(e.level) - x0) >= W)
    e.barrier = 0;
  if (e.barrier) { /* node 0 or n - 1 on the barrier, the spot between nodes */
    h = ht;
    xlo = e.barrier < 0 ? log(e.level) : log(e.level) - (n - 1) * h;
    double p = (x0 - xlo) / h;
    c = (int)floor(p + 0.5);
    if (c < R)
      c = R;
    if (c > n - 1 - R)
      c = n - 1 - R;
    frac = p - c;
  }
  /* pde.h: European calls go by parity; other call grids with a free upper
   * end are refused where too coarse for their tail (tail_error) */
  if (f.phi > 0 && e.barrier <= 0) {
    double err = tail_error(s, u, T);
    if (err > MCPI_PDE_CALL_TOLERANCE) {
      double vlo, vhi;
      mcpi_curve_abs_bounds(&u->vol, T, &vlo, &vhi);
      double need = (n - 1) * sqrt(err / MCPI_PDE_CALL_TOLERANCE) + 1;
      return need <= MCPI_PDE_MAX_POINTS
                 ? mcpi_fail(d->err, MCP_ERR_INPUT,
                             "trade '%s': pde.space_points: at volatility %g a call's value "
                             "lies in the far upper tail of the spot, where %d nodes err by "
                             "about %.1e of it; expected at least %.0f space_points, or "
                             "method mc", t->id, vhi, n, err, ceil(need))
                 : mcpi_fail(d->err, MCP_ERR_INPUT,
                             "trade '%s': method: at volatility %g a call's value lies in the "
                             "far upper tail of the spot, beyond what a grid of %d nodes "
                             "resolves to %g; expected method mc",
                             t->id, vhi, MCPI_PDE_MAX_POINTS, MCPI_PDE_CALL_TOLERANCE);
    }
  }
  if (!isfinite(exp(xlo)) || exp(xlo) <= 0 || !isfinite(exp(xlo + (n - 1) * h)))
    return mcpi_fail(d->err, MCP_ERR_INPUT,
                     "trade '%s': pde.width: the grid spans spots from %g to %g, beyond "
                     "doubles; expected a smaller width (got %g standard deviations of %g)",
                     t->id, exp(xlo), exp(xlo + (n - 1) * h), s->width, sqrt(var));
  size_t g = b->ngrids;
  if (!mcpi_grow((void **)&b->grid, &d->grid_cap, g + 1, sizeof *b->grid) ||
      !mcpi_grow((void **)&b->frac, &d->frac_cap, g + 1, sizeof *b->frac))
    return mcpi_fail(d->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE grids");
  b->frac[g] = frac;
  mcpi_pde_grid *G = &b->grid[g];
  memset(G, 0, sizeof *G);
  G->center = c;
  G->x0 = xlo;
  G->h = h;
  G->pay = (mcpi_pde_payoff){f.phi, f.strike, f.scale, f.add, f.strike > 0 ? log(f.strike) : 0,
                             h < 1e-4 ? 1 + h * h / 24 : sinh(0.5 * h) / (0.5 * h)};
  G->exercise = american ? (f.phi > 0 ? MCPI_EXERCISE_HIGH : MCPI_EXERCISE_LOW) : 0;
  G->bound0 = -1; /* none recorded (boundary.c sets those the run reports) */
  G->bound_every = 1;
  for (int i = 0; i < 2 * R; i++)
    G->spot[i] = exp(xlo + mcpi_pde_boundary_node(R, n, i) * h);
  /* boundaries: the vanilla's asymptote, phi (S Dq - K Dr), at an end in
   * the money, zero at an end out of it, scaled; or the barrier's rebate */
  for (int side = 0; side < 2; side++) {
    double end = G->spot[side ? 2 * R - 1 : 0];
    int itm = f.phi * (end - f.strike) > 0;
    G->alpha[side] = itm ? f.scale * f.phi : 0;
    G->beta[side] = (itm ? -f.scale * f.phi * f.strike : 0) + f.add;
    if ((side == 0 && e.barrier < 0) || (side == 1 && e.barrier > 0)) {
      G->alpha[side] = 0;
      G->beta[side] = e.rebate;
    }
  }
  /* time steps */
  const mcpi_curve *vol = &u->vol, *rate = &u->rate, *div = &u->dividend;
  int M = (int)s->time_steps;
  if (s->scheme == MCP_PDE_EXPLICIT) {
    double vlo, vhi, rlo, rhi, qlo, qhi;
    mcpi_curve_abs_bounds(vol, T, &vlo, &vhi);
    mcpi_curve_abs_bounds(rate, T, &rlo, &rhi);
    mcpi_curve_abs_bounds(div, T, &qlo, &qhi);
    double amax = 0.5 * vhi * vhi, amin = 0.5 * vlo * vlo, cmax = rhi;
    double mumax = cmax + qhi + amax;
    double dtmax = mcpi_explicit_dt_max(R, amax, 0, cmax, h);
    if (mumax > 0 && amin / (mumax * mumax) < dtmax)
      dtmax = amin / (mumax * mumax);
    double need = ceil(T / dtmax);
    if (need > MCPI_PDE_MAX_EXPLICIT_STEPS)
      return mcpi_fail(d->err, MCP_ERR_INPUT,
                       "trade '%s': pde.scheme: explicit needs %.0f steps on this grid (at "
                       "most %d); expected crank-nicolson, or fewer space_points",
                       t->id, need, MCPI_PDE_MAX_EXPLICIT_STEPS);
    if (need > M)
      M = (int)need;
    G->steps = M;
    G->theta = 0;
  } else {
    int rannacher = (int)s->rannacher < M ? (int)s->rannacher : M;
    G->half_steps = 2 * rannacher;
    G->steps = M + rannacher;
    G->theta = 0.5;
  }
  G->dt = T / M;
  /* per-step coefficients, run-length encoded; a run of steps inside the
   * same pieces of the three curves shares them, found without evaluating
   * each step (10,000 grids of 400 steps cost 80 ms that way) */
  G->seg = (int)b->nseg;
  const mcpi_curve *cv[3] = {vol, rate, div};
  for (int k = 0; k < G->steps; k++) {
    double t0, t1;
    step_span(G, T, k, &t0, &t1);
    double a = 0.5 * mcpi_curve_mean(vol, t0, t1, 1), r = mcpi_curve_mean(rate, t0, t1, 0);
    double mu = r - mcpi_curve_mean(div, t0, t1, 0) - a;
    mcpi_pde_segment *last = b->nseg > (size_t)G->seg ? &b->seg[b->nseg - 1] : NULL;
    if (!last || last->a != a || last->mu != mu || last->c != r) {
      if (!mcpi_grow((void **)&b->seg, &d->seg_cap, b->nseg + 1, sizeof *b->seg))
        return mcpi_fail(d->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE coefficients");
      last = &b->seg[b->nseg++];
      *last = (mcpi_pde_segment){.a = a, .mu = mu, .c = r};
    }
    last->end = k + 1;
    double lo = -HUGE_VAL; /* the later steps with t0 >= lo are in the same pieces */
    int one = 1;
    for (int q = 0; q < 3; q++) {
      one &= mcpi_curve_one_piece(cv[q], t0, t1);
      lo = fmax(lo, mcpi_curve_knot_before(cv[q], t0));
    }
    for (; one && k + 1 < G->steps; k++) {
      step_span(G, T, k + 1, &t0, &t1);
      if (!(t0 >= lo))
        break;
      last->end = k + 2;
    }
  }
  /* cash dividends: each after the step that ends nearest its date */
  G->div0 = (int)b->ndiv;
  for (size_t i = 0; i < u->ncash; i++) {
    double td = u->cash_t[i] - d->origin;
    if (!(td > 0 && td < T))
      continue;
    int best = 0;
    double gap = INFINITY, at = 0;
    for (int k = 0; k < G->steps; k++) {
      int half = k < G->half_steps;
      double tau1 = half ? (k + 1) * 0.5 * G->dt : (k + 1 - G->half_steps / 2) * G->dt;
      if (fabs(tau1 - (T - td)) < gap) {
        gap = fabs(tau1 - (T - td));
        best = k;
        at = tau1;
      }
    }
    if (!mcpi_grow((void **)&b->div, &d->div_cap, b->ndiv + 1, sizeof *b->div))
      return mcpi_fail(d->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE dividends");
    double dr = exp(-mcpi_curve_integral(&u->rate, T - at, T));
    b->div[b->ndiv++] = (mcpi_pde_dividend){best, u->cash_amount[i], absorbed(f, e, american, dr)};
    G->ndiv++;
  }
  b->ngrids++;
  return MCP_OK;
}

static mcp_status check_trade(const mcp_market *m, const mcp_pde_settings *grid, const mcpi_trade *t,
                              const mcpi_underlying **u, char *err)
{
  /* the product fits: mcp_portfolio_add_trade and mcp_portfolio_set_engine
   * refuse the grid for any other (mcpi_engine_misfit) */
  if (!(*u = mcpi_market_find(m, t->asset[0])))
    return mcpi_fail(err, MCP_ERR_NOT_FOUND, "trade '%s': underlying: '%s' is not in the market",
                     t->id, t->asset[0]);
  if ((*u)->model != MCPI_MODEL_BLACK_SCHOLES)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: pde needs a Black-Scholes "
                     "underlying; '%s' is not one%s", t->id, (*u)->name,
                     (*u)->iv.n ? " (its implied surface makes it a local-volatility one)" : "");
  double vlo, vhi;
  mcpi_curve_abs_bounds(&(*u)->vol, t->maturity, &vlo, &vhi);
  if (vlo <= 0)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: pde needs a volatility > 0 up "
                     "to maturity; '%s' has a zero volatility", t->id, (*u)->name);
  if (t->product == MCP_PRODUCT_BARRIER) {
    if (t->monitoring != MCP_MONITOR_BRIDGE)
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': monitoring: the PDE watches the "
                       "barrier continuously; expected \"bridge\"", t->id);
    if (grid->stencil_points != 3)
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': pde.stencil_points: a barrier grid "
                       "needs the 3-point stencil, got %d; expected 3, or method mc for this "
                       "trade", t->id, grid->stencil_points);
  }
  return MCP_OK;
}

mcp_engine mcpi_trade_off_paths(const mcp_market *m, const mcp_portfolio *p,
                                const mcp_pde_settings *grid, const mcpi_trade *t)
{
  if (!grid)
    grid = &mcpi_portfolio_settings(p)->pde;
  mcp_engine engine = mcpi_trade_engine(p, t);
  const mcp_market *base = m->base ? m->base : m;
  const mcpi_underlying *u = t->nassets == 1 ? mcpi_market_find(base, t->asset[0]) : NULL;
  /* a payoff already fixed, or linear in the forwards: exactly, whatever
   * the trade's method */
  if (t->known || (u && mcpi_analytic_linear(t, u, p->origin)))
    return MCP_ENGINE_ANALYTIC;
  char scratch[MCPI_ERRLEN];
  double price, delta, gamma;
  /* a European on an implied surface: its quote's price, whatever the
   * portfolio's default, unless the trade names its method */
  if (t->engine == MCP_ENGINE_DEFAULT && u && u->iv.n && t->product == MCP_PRODUCT_EUROPEAN)
    engine = MCP_ENGINE_ANALYTIC;
  if (engine != MCP_ENGINE_PDE && engine != MCP_ENGINE_ANALYTIC)
    return MCP_ENGINE_MC;
  /* named by the trade: the engine's errors are the trade's; by a default
   * (American options, run.pde.products, --pde, an implied surface), only
   * where the engine fits, Monte Carlo (Longstaff-Schwartz for American
   * options) elsewhere, as decided in the run's own market for every
   * shifted copy of it (a variant that no longer fits is the engine's
   * error, not another one) */
  if (t->engine == engine)
    return engine;
  if (t->nassets > 1)
    return MCP_ENGINE_MC;
  if (engine == MCP_ENGINE_ANALYTIC) /* its closed form exists and is finite */
    return u && mcpi_analytic_price(t, u, p->origin, &price, &delta, &gamma, scratch) == MCP_OK
               ? engine
               : MCP_ENGINE_MC;
  return check_trade(base, grid, t, &u, scratch) == MCP_OK &&
                 !(tail_grid(t, u) && tail_error(grid, u, t->maturity) >
                                          MCPI_PDE_CALL_TOLERANCE)
             ? engine
             : MCP_ENGINE_MC;
}

/* Trade t's closed form as a known amount. */
static mcp_status plan_closed(draft *d, const mcp_market *m, const mcpi_trade *t)
{
  const mcpi_underlying *u = mcpi_market_find(m, t->asset[0]);
  if (!u)
    return mcpi_fail(d->err, MCP_ERR_NOT_FOUND, "trade '%s': underlying: '%s' is not in the "
                     "market", t->id, t->asset[0]);
  mcpi_pde_trade *pt = &d->b->trade[d->b->ntrades++];
  *pt = (mcpi_pde_trade){.engine = MCP_ENGINE_ANALYTIC};
  return mcpi_analytic_price(t, u, d->origin, &pt->constant, &pt->delta, &pt->gamma, d->err);
}

/* The grids (and known amount) of trade t. */
static mcp_status plan_trade(draft *d, const mcpi_trade *t, const mcpi_underlying *u)
{
  mcpi_pde_batch *b = d->b;
  mcpi_pde_trade *pt = &b->trade[b->ntrades++];
  *pt = (mcpi_pde_trade){.trade = 0, .engine = MCP_ENGINE_PDE, .grid = (int)b->ngrids};
  payoff vanilla = {t->type == MCP_CALL ? 1 : -1, t->strike, 1, 0};
  edge none = {0, 0, 0};
  payoff grids[2];
  edge edges[2];
  int ng = 0;
  if (t->product != MCP_PRODUCT_BARRIER) {
    grids[ng] = vanilla;
    edges[ng++] = none;
  } else {
    int up = mcpi_barrier_up(t);
    int in = t->barrier_kind == MCP_UP_AND_IN || t->barrier_kind == MCP_DOWN_AND_IN;
    int crossed = up ? u->spot >= t->barrier : u->spot <= t->barrier;
    double df = exp(-mcpi_curve_integral(&u->rate, 0, t->maturity));
    edge at = {up ? 1 : -1, t->barrier, 0};
    if (crossed && !in)
      pt->constant = t->rebate * df;
    else if (crossed || !in) {
      grids[ng] = vanilla;
      at.rebate = t->rebate;
      edges[ng++] = crossed ? none : at;
    } else { /* in = vanilla + E[(rebate - vanilla) 1{never hit}] */
      grids[ng] = vanilla;
      edges[ng++] = none;
      grids[ng] = (payoff){vanilla.phi, t->strike, -1, t->rebate};
      edges[ng++] = at;
    }
  }
  /* an American call without dividends or negative rates is never
   * exercised early: the European's grid, by parity; not with cash
   * dividends, whose floor at 0 parity does not see (the grid's jumps do).
   * Decided in the run's own market: a shifted copy (a key rate's forward
   * a few basis points below 0) keeps its base's grid, not another one */
  const mcpi_underlying *bu = mcpi_market_find(d->base, u->name);
  int american = t->product == MCP_PRODUCT_AMERICAN &&
                 (t->type == MCP_PUT || early_call(t, bu ? bu : u));
  for (int i = 0; i < ng; i++) {
    if (!american && grids[i].phi > 0 && grids[i].scale == 1 && grids[i].add == 0 &&
        !edges[i].barrier && !cash_before(u, d->origin, t->maturity)) {
      /* call = put + S Dq - K Dr (pde.h) */
      double dq = exp(-mcpi_curve_integral(&u->dividend, 0, t->maturity));
      grids[i].phi = -1;
      pt->delta += dq;
      double dr = exp(-mcpi_curve_integral(&u->rate, 0, t->maturity));
      pt->constant += u->spot * dq - t->strike * dr -
                      dr * mcpi_cash_carried(u, d->origin, t->maturity); /* their value */
    }
    mcp_status st = add_grid(d, t, u, grids[i], edges[i], american);
    if (st != MCP_OK)
      return st;
    pt->ngrids++;
  }
  return MCP_OK;
}

mcp_status mcpi_pde_plan(const mcp_market *m, const mcp_portfolio *p, const mcp_pde_settings *grid,
                         mcpi_pde_batch *b, char *err)
{
  if (!grid)
    grid = &mcpi_portfolio_settings(p)->pde;
  memset(b, 0, sizeof *b);
  b->set = *grid;
  b->n = (int)grid->space_points;
  b->ld = (b->n + 1) & ~1; /* even: 16-byte aligned rows */
  b->radius = grid->stencil_points == 5 ? 2 : 1;
  draft d = {.b = b, .origin = p->origin, .base = m->base ? m->base : m, .err = err};
  size_t count = 0;
  mcp_status st = MCP_OK;
  for (size_t i = 0; i < p->n; i++) /* American options always (mcpi_engine_misfit) */
    count += mcpi_trade_off_paths(m, p, grid, &p->t[i]) != MCP_ENGINE_MC;
  if (!count)
    return MCP_OK;
  if (!(b->trade = calloc(count, sizeof *b->trade)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the PDE trades");
  for (size_t i = 0; i < p->n && st == MCP_OK; i++) {
    const mcpi_trade *t = &p->t[i];
    const mcpi_underlying *u = NULL;
    mcp_engine engine = mcpi_trade_off_paths(m, p, grid, t);
    if (engine == MCP_ENGINE_MC)
      continue;
    if (engine == MCP_ENGINE_ANALYTIC) {
      if ((st = plan_closed(&d, m, t)) == MCP_OK)
        b->trade[b->ntrades - 1].trade = i;
    } else if ((st = check_trade(m, grid, t, &u, err)) == MCP_OK) {
      st = plan_trade(&d, t, u);
      b->trade[b->ntrades - 1].trade = i;
    }
  }
  if (st != MCP_OK)
    mcpi_pde_free(b);
  return st;
}

void mcpi_pde_free(mcpi_pde_batch *b)
{
  free(b->grid);
  free(b->frac);
  free(b->seg);
  free(b->div);
  free(b->trade);
  memset(b, 0, sizeof *b);
}

/* Appends n values of size sz from src to the array *dst of m values (NULL
 * src: zeros); 0 when out of memory. */
static int append(void **dst, size_t m, const void *src, size_t n, size_t sz)
{
  void *a = realloc(*dst, (m + n ? m + n : 1) * sz);
  if (!a)
    return 0;
  *dst = a;
  if (src)
    memcpy((char *)a + m * sz, src, n * sz);
  else
    memset((char *)a + m * sz, 0, n * sz);
  return 1;
}

mcp_status mcpi_pde_append(mcpi_pde_batch *dst, const mcpi_pde_batch *src, char *err)
{
  size_t ng = dst->ngrids, ns = dst->nseg, nt = dst->ntrades;
  int ok = append((void **)&dst->grid, ng, src->grid, src->ngrids, sizeof *dst->grid) &&
           append((void **)&dst->seg, ns, src->seg, src->nseg, sizeof *dst->seg) &&
           append((void **)&dst->div, dst->ndiv, src->div, src->ndiv, sizeof *dst->div) &&
           append((void **)&dst->frac, ng, src->frac, src->ngrids, sizeof *dst->frac) &&
           append((void **)&dst->trade, nt, src->trade, src->ntrades, sizeof *dst->trade);
  if (!ok)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the PDE grids");
  for (size_t g = ng; g < ng + src->ngrids; g++) {
    dst->grid[g].seg += (int)ns;
    dst->grid[g].div0 += (int)dst->ndiv;
    if (dst->grid[g].bound0 >= 0)
      dst->grid[g].bound0 += (int)dst->nbound;
  }
  for (size_t t = nt; t < nt + src->ntrades; t++)
    dst->trade[t].grid += (int)ng;
  dst->ngrids += src->ngrids;
  dst->nseg += src->nseg;
  dst->ndiv += src->ndiv;
  dst->ntrades += src->ntrades;
  dst->nbound += src->nbound;
  return MCP_OK;
}

mcp_status mcpi_pde_values(const mcp_portfolio *p, const mcpi_pde_batch *b, const double *out,
                           size_t t0, size_t t1, mcp_estimate *est, double *dg, char *err)
{
  size_t taps = 2 * (size_t)b->radius + 1;
  for (size_t i = t0; i < t1; i++) {
    const mcpi_pde_trade *t = &b->trade[i];
    double v = t->constant, delta = t->delta, gamma = t->gamma;
    for (int g = 0; g < t->ngrids; g++) {
      const mcpi_pde_grid *gr = &b->grid[t->grid + g];
      const double *o = out + (size_t)(t->grid + g) * taps + (size_t)b->radius;
      double f = b->frac[t->grid + g];
      /* the quadratic through the center and its neighbours, at the spot; its
       * slope and curvature in log-spot give delta and gamma */
      v += f == 0 ? o[0] : 0.5 * f * (f - 1) * o[-1] + (1 - f * f) * o[0] + 0.5 * f * (f + 1) * o[1];
      double vx = ((f - 0.5) * o[-1] - 2 * f * o[0] + (f + 0.5) * o[1]) / gr->h;
      double vxx = (o[-1] - 2 * o[0] + o[1]) / (gr->h * gr->h);
      double s = exp(gr->x0 + (gr->center + f) * gr->h);
      delta += vx / s;
      gamma += (vxx - vx) / (s * s);
    }
    if (dg) {
      dg[2 * t->trade] = delta;
      dg[2 * t->trade + 1] = gamma;
    }
    if (!isfinite(v))
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': the PDE grid gave a non-finite "
                       "price; expected finer pde.time_steps or a smaller pde.width",
                       p->t[t->trade].id);
    est[t->trade] = (mcp_estimate){.price = v, .std_error = 0, .ci_low = v, .ci_high = v};
  }
  return MCP_OK;
}
