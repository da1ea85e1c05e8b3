/* portfolio.c: building a portfolio, its trades and the settings that say
 * what their prices mean, through API calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/portfolio.h"
#include "src/inputs/product.h"
#include "models/prefetch.h"
#include "models/products/payoff.h"
#include "src/base/validate.h"

mcp_status mcp_portfolio_create(mcp_portfolio **portfolio)
{
  if (!portfolio)
    return mcpi_null(__func__, "portfolio");
  mcp_portfolio *p = calloc(1, sizeof *p);
  if (!p)
    return mcpi_no_memory(__func__);
  p->paths = 100000;
  p->seed = 1;
  p->scramblings = MCPI_DEFAULT_SCRAMBLINGS;
  p->engine[MCP_PRODUCT_AMERICAN] = MCP_ENGINE_PDE;
  mcpi_settings_init(&p->legacy);
  *portfolio = p;
  return MCP_OK;
}

static void free_trade(mcpi_trade *t)
{
  free(t->id);
  if (t->asset)
    for (size_t a = 0; a < t->nassets; a++)
      free(t->asset[a]);
  free(t->asset);
  free(t->weight);
  free(t->fix);
  free(t->autocall);
  free(t->initial);
  free(t->seed);
}

void mcp_portfolio_destroy(mcp_portfolio *p)
{
  if (!p)
    return;
  for (size_t i = 0; i < p->n; i++)
    if (p->dated)
      free(p->t[i].fix);
    else
      free_trade(&p->t[i]);
  free(p->t);
  if (!p->dated)
    mcpi_name_table_free(&p->ids);
  free(p->grid);
  free(p);
}

mcp_status mcpi_portfolio_dated(const mcp_portfolio *p, double dt, mcp_portfolio **out,
                                char *err)
{
  mcp_portfolio *c = malloc(sizeof *c);
  if (!c)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the theta portfolio");
  *c = *p;
  c->dated = 1;
  c->origin = p->origin + dt;
  c->n = 0;
  c->grid = NULL;
  c->t = calloc(p->n ? p->n : 1, sizeof *c->t);
  mcp_status st = c->t ? MCP_OK
                       : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the theta portfolio");
  if (st == MCP_OK && p->steps_per_year && 1.0 / p->steps_per_year - c->origin <= MCPI_TIME_EPS)
    st = mcpi_fail(err, MCP_ERR_INPUT, "theta: a bump of %g years reaches the end of the first "
                   "of the run's %u steps a year; expected a bump below one step (%g years)",
                   dt, p->steps_per_year, 1.0 / p->steps_per_year);
  for (size_t i = 0; st == MCP_OK && i < p->n; i++) {
    const mcpi_trade *t = &p->t[i];
    mcpi_trade *d = &c->t[i];
    *d = *t;
    c->n = i + 1;
    if (!(d->fix = malloc(t->nfix * sizeof *d->fix))) {
      st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the theta portfolio");
      break;
    }
    d->maturity = t->maturity - dt;
    for (size_t k = 0; k < t->nfix; k++)
      d->fix[k] = t->fix[k] - dt;
    if (d->fix[0] <= MCPI_TIME_EPS || d->maturity <= MCPI_TIME_EPS)
      st = mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': theta: its first date, at %g years, is "
                     "within the theta bump of %g years; expected a smaller bump", t->id,
                     fmin(t->fix[0], t->maturity), dt);
  }
  if (st == MCP_OK && p->ngrid && !(c->grid = malloc(p->ngrid * sizeof *c->grid)))
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the theta portfolio");
  for (size_t i = 0; st == MCP_OK && i < p->ngrid; i++)
    if ((c->grid[i] = p->grid[i] - dt) <= MCPI_TIME_EPS)
      st = mcpi_fail(err, MCP_ERR_INPUT, "run.grid[%zu]: theta: %g years is within the theta "
                     "bump of %g years; expected a smaller bump", i, p->grid[i], dt);
  if (st != MCP_OK) {
    mcp_portfolio_destroy(c);
    return st;
  }
  *out = c;
  return MCP_OK;
}

static const char *trade_id(const void *owner, size_t i)
{
  return ((const mcp_portfolio *)owner)->t[i].id;
}

long mcpi_portfolio_find(const mcp_portfolio *p, const char *id)
{
  return mcpi_name_find(&p->ids, id, trade_id, p);
}

void mcp_trade_init(mcp_trade *t)
{
  if (t)
    *t = (mcp_trade){.type = MCP_CALL, .quantity = 1, .cash = 1,
                     .methods = MCP_METHODS_DEFAULT, .engine = MCP_ENGINE_DEFAULT,
                     .notional = 1, .local_floor = -HUGE_VAL, .local_cap = HUGE_VAL,
                     .global_floor = -HUGE_VAL, .global_cap = HUGE_VAL,
                     .autocall_level = HUGE_VAL, .coupon_barrier = HUGE_VAL};
}

void mcpi_american_dates(size_t n, double maturity, double origin, double *fix)
{
  double t0 = maturity + origin;
  for (size_t k = 0; k + 1 < n; k++) {
    double t = t0 * (double)(k + 1) / (double)n - origin, least = 4 * MCPI_TIME_EPS * (double)(k + 1);
    fix[k] = t > least ? t : least;
  }
  fix[n - 1] = maturity; /* exactly */
}

/* Whether an American's or a Bermudan's payoff field means the basket (0,
 * a fresh mcp_trade's, is the default). */
static int mcpi_payoff_basket(mcp_product payoff)
{
  return payoff == 0 || payoff == MCP_PRODUCT_BASKET;
}

/* Trades named by a list of assets: the multi-asset products, and those
 * that may give one underlying or assets and give assets. */
static int multi_asset(const mcp_trade *t)
{
  return mcpi_product_is(t->product, MCPI_PT_ASSETS) ||
         (mcpi_product_is(t->product, MCPI_PT_ASSETS_OR_ONE) && (t->nassets || t->assets));
}

/* Whether the product reads the trade's fixings (a schedule of its own):
 * barriers and lookbacks on the bridge watch the continuous path instead. */
static int has_schedule(const mcp_trade *t)
{
  return mcpi_product_is(t->product, MCPI_PT_SCHEDULE) ||
         (mcpi_product_is(t->product, MCPI_PT_WATCHED) && t->monitoring != MCP_MONITOR_BRIDGE);
}

/* The names of the products with one of the traits (all: 0), as "a, b and
 * c" (the last separator last), into buf. */
static const char *product_list(char *buf, size_t len, unsigned traits, const char *last_sep)
{
  int has[MCP_PRODUCT_COUNT], n = 0, k = 0;
  for (int p = 0; p < MCP_PRODUCT_COUNT; p++)
    n += has[p] = !traits || (mcpi_product_unit_of((mcp_product)p)->traits & traits) != 0;
  buf[0] = '\0';
  for (int p = 0; p < MCP_PRODUCT_COUNT; p++)
    if (has[p])
      mcpi_list_add(buf, len, mcp_product_name((mcp_product)p), ++k == n ? last_sep : ", ");
  return buf;
}

#define TRADE_FAIL(st, ...) return mcpi_fail(p->err, st, __VA_ARGS__)

size_t mcpi_past_fixings(size_t n, const double *t)
{
  size_t k = 0;
  while (k < n && t[k] <= 0)
    k++;
  return k;
}

/* Whether one of barrier t's past fixings (those it has spots for) reaches
 * it: it lives while below an up barrier, above a down one. */
static int touched(const mcp_trade *t, size_t past)
{
  int up = t->barrier_kind == MCP_UP_AND_OUT || t->barrier_kind == MCP_UP_AND_IN, hit = 0;
  for (size_t i = 0; t->past_fixings && i < past && i < t->npast; i++)
    hit |= up ? t->past_fixings[i] >= t->barrier : t->past_fixings[i] <= t->barrier;
  return hit;
}

/* Whether t may be seasoned: an Asian with a fixed strike, a barrier, a
 * lookback, an autocallable, a cliquet, a Himalaya, a moving window (their
 * units read the history), a Bermudan (whose exercise dates passed go,
 * unexercised). */
static int seasons(const mcp_trade *t)
{
  return (t->product == MCP_PRODUCT_ASIAN && t->strike_kind == MCP_FIXED_STRIKE) ||
         t->product == MCP_PRODUCT_BARRIER || t->product == MCP_PRODUCT_LOOKBACK ||
         t->product == MCP_PRODUCT_AUTOCALLABLE || t->product == MCP_PRODUCT_CLIQUET ||
         t->product == MCP_PRODUCT_HIMALAYA || t->product == MCP_PRODUCT_MOVING_WINDOW ||
         t->product == MCP_PRODUCT_BERMUDAN;
}

/* A seasoned trade's history: past fixings (times in [-100, 0], increasing)
 * each with its spot, or a barrier's knocked state. */
static mcp_status check_past(mcp_portfolio *p, const mcp_trade *t, size_t past)
{
  const char *id = t->id;
  if (t->knocked && t->product != MCP_PRODUCT_BARRIER &&
      !(t->product == MCP_PRODUCT_AUTOCALLABLE && t->knock_in > 0))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': knocked: only a barrier or an autocallable's "
               "knock-in has one", id);
  if (t->extremum != 0 && t->product != MCP_PRODUCT_LOOKBACK)
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': extremum: only a lookback watched on the bridge "
               "has one", id);
  if (t->knocked != 0 && t->knocked != 1)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': knocked: expected 0 or 1, got %d", id,
               t->knocked);
  /* a barrier watched on dates alone is knocked by a past one only */
  int dates = t->product == MCP_PRODUCT_BARRIER && t->monitoring == MCP_MONITOR_DISCRETE;
  if (dates && t->knocked && !touched(t, past))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': knocked: a barrier watched on its dates alone is "
               "knocked by a past fixing at or beyond it, and none of its past_fixings is; "
               "expected knocked false, or the spot that touched it", id);
  if (!past) {
    if (t->npast || t->past_fixings)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': past_fixings: expected none, as no fixing is at "
                 "or before the valuation date%s", id,
                 t->product == MCP_PRODUCT_BARRIER && t->monitoring == MCP_MONITOR_BRIDGE
                     ? " (a barrier on the bridge says knocked instead)"
                     : "");
    return MCP_OK;
  }
  if (!seasons(t))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': fixings[0]: %g is at or before the valuation date; "
               "expected times > 0 (of the products, only Asians with a fixed strike, "
               "barriers and lookbacks watched on dates, autocallables, cliquets, "
               "Himalayas, moving windows and Bermudans take past fixings)", id,
               t->fixings[0]);
  for (size_t i = 0; i < past; i++)
    if (!(t->fixings[i] >= -MCPI_MAX_MATURITY) || (i && !(t->fixings[i] > t->fixings[i - 1])))
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': fixings[%zu]: expected strictly increasing times "
                 "in [-100, 0] before the fixings to come, got %g", id, i, t->fixings[i]);
  if (t->product == MCP_PRODUCT_BERMUDAN) { /* not exercised then: nothing to give */
    if (t->npast || t->past_fixings)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': past_fixings: expected none: a Bermudan's exercise "
                 "dates passed, unexercised, need no spots", id);
    return MCP_OK;
  }
  /* an autocallable on several assets, a Himalaya: theirs at each date */
  size_t per = (t->product == MCP_PRODUCT_AUTOCALLABLE || t->product == MCP_PRODUCT_HIMALAYA) &&
                       t->nassets > 1
                   ? t->nassets
                   : 1;
  if (t->npast != past * per)
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': past_fixings: expected %zu, one for each fixing at "
               "or before the valuation date%s, got %zu", id, past * per,
               per > 1 ? " and asset" : "", t->npast);
  if (!t->past_fixings)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': past_fixings: NULL for %zu fixings", id, past);
  for (size_t i = 0; i < past * per; i++)
    if (!(t->past_fixings[i] > 0 && isfinite(t->past_fixings[i])))
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': past_fixings[%zu]: expected a spot > 0, got %g",
                 id, i, t->past_fixings[i]);
  return MCP_OK;
}

/* c (a copy of t, its fixings those to come, m of the n) as priced: see
 * mcpi_trade's nfix_all. */
static void season(mcpi_trade *c, const mcp_trade *t, size_t past)
{
  size_t n = t->nfixings, m = n - past;
  if (t->product == MCP_PRODUCT_ASIAN && past) {
    int geo = t->average == MCP_GEOMETRIC;
    double s = 0;
    for (size_t i = 0; i < past; i++)
      s += geo ? log(t->past_fixings[i]) : t->past_fixings[i];
    double nn = (double)n, g = exp(s / nn);
    if (!m) {
      c->known = 1;
      c->known_amount = mcpi_vanilla(t->type, geo ? g : s / nn, t->strike);
    } else if (geo) {
      c->strike = t->strike / g;
      c->pay_scale = g;
      c->nfix_all = n;
    } else {
      c->strike = (nn * t->strike - s) / (double)m;
      c->pay_scale = (double)m / nn;
      /* a put that can no longer end in the money; a call that can no
       * longer end out of it is its forward (the analytic engine's) */
      c->known = c->strike <= 0 && t->type == MCP_PUT;
    }
  } else if (t->product == MCP_PRODUCT_LOOKBACK && past) {
    double mx = 0, mn = HUGE_VAL;
    for (size_t i = 0; i < past; i++) {
      mx = fmax(mx, t->past_fixings[i]);
      mn = fmin(mn, t->past_fixings[i]);
    }
    int floating = t->strike_kind == MCP_FLOATING_STRIKE, call = t->type == MCP_CALL;
    if (m) {
      c->extremes = 1;
      c->known_max = mx;
      c->known_min = mn;
    } else if (!floating) {
      c->known = 1;
      c->known_amount = mcpi_vanilla(t->type, call ? mx : mn, t->strike);
    } else { /* S(T) - min, or max - S(T), its fixings done: a forward */
      c->linear = 1;
      c->pay_scale = call ? 1 : -1;
      c->strike = call ? mn : mx;
    }
  } else if (t->product == MCP_PRODUCT_BARRIER) {
    int in = t->barrier_kind == MCP_UP_AND_IN || t->barrier_kind == MCP_DOWN_AND_IN;
    int hit = t->knocked || touched(t, past);
    int over = has_schedule(t) && !m; /* watched no more */
    if (hit ? !in : over && in) { /* out, or never in: the rebate */
      c->known = 1;
      c->known_amount = t->rebate;
    } else if (hit || over) { /* in, or never out: the European */
      c->product = MCP_PRODUCT_EUROPEAN;
      c->monitoring = MCP_MONITOR_DISCRETE;
    }
  }
  if (c->known || c->linear || c->product == MCP_PRODUCT_EUROPEAN) { /* the maturity alone */
    c->nfix = 1;
    c->fix[0] = t->maturity;
  }
}

/* Checks the trade's terms (its product's own: its unit); id is valid. */
static mcp_status check_terms(mcp_portfolio *p, const mcp_trade *t)
{
  const char *id = t->id, *why;
  char names[MCPI_ERRLEN / 2];
  const mcpi_product_unit *u = mcpi_product_unit_of(t->product);
  if (!u)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': product: expected %s", id,
               product_list(names, sizeof names, 0, " or "));
  if (t->engine != MCP_ENGINE_DEFAULT && t->engine != MCP_ENGINE_MC &&
      t->engine != MCP_ENGINE_PDE && t->engine != MCP_ENGINE_ANALYTIC)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': engine: expected MCP_ENGINE_DEFAULT, "
               "MCP_ENGINE_MC, MCP_ENGINE_PDE or MCP_ENGINE_ANALYTIC", id);
  if ((why = mcpi_engine_misfit(t->product, t->engine)))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': method: %s", id, why);
  if (t->type != MCP_CALL && t->type != MCP_PUT)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': type: expected call or put", id);
  int floating = (u->traits & MCPI_PT_FLOATING) && t->strike_kind == MCP_FLOATING_STRIKE;
  if ((unsigned)t->strike_kind > MCP_FLOATING_STRIKE)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': strike kind: expected fixed or floating", id);
  if (t->strike_kind == MCP_FLOATING_STRIKE && !floating) /* not silently fixed */
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': strike kind: expected fixed: only %s have a "
               "floating strike", id, product_list(names, sizeof names, MCPI_PT_FLOATING, " and "));
  if (floating ? t->strike != 0 : (why = mcpi_check_strike(t->strike)) != NULL)
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': strike: expected %s, got %g", id,
               floating ? "none (0) for a floating strike" : why, t->strike);
  if ((why = mcpi_check_maturity(t->maturity)))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': maturity: expected %s, got %g", id, why,
               t->maturity);
  if ((why = mcpi_check_quantity(t->quantity)))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': quantity: expected %s, got %g", id, why,
               t->quantity);
  if (t->methods != MCP_METHODS_DEFAULT &&
      (t->methods < 0 || t->methods > (MCP_ANTITHETIC | MCP_CONTROL_VARIATE | MCP_QMC)))
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': methods: expected MCP_METHODS_DEFAULT or a "
               "combination of MCP_ANTITHETIC, MCP_CONTROL_VARIATE and MCP_QMC, got %d",
               id, t->methods);
  if (multi_asset(t)) {
    size_t least = u->traits & MCPI_PT_ONE_ASSET ? 1 : 2;
    if (t->nassets < least || t->nassets > MCP_MAX_ASSETS || !t->assets)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': assets: expected %zu to %d underlyings, got %zu",
                 id, least, MCP_MAX_ASSETS, t->nassets);
    for (size_t a = 0; a < t->nassets; a++) {
      if ((why = mcpi_check_name(t->assets[a])))
        TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': assets[%zu]: expected %s", id, a, why);
      for (size_t b = 0; b < a; b++)
        if (strcmp(t->assets[a], t->assets[b]) == 0)
          TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': assets[%zu]: '%s' is named twice", id, a,
                     t->assets[a]);
      if (t->weights && !isfinite(t->weights[a]))
        TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': weights[%zu]: expected a finite number", id, a);
    }
    if (t->weights && !mcpi_unit_has_field(u, "weights"))
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': weights: only a basket has weights", id);
    if (t->underlying)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': underlying: a multi-asset product names its "
                 "assets instead", id);
  } else {
    if ((why = mcpi_check_name(t->underlying)))
      TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': underlying: expected %s", id, why);
    if (t->nassets || t->assets || t->weights)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': assets: only %s have several", id,
                 product_list(names, sizeof names, MCPI_PT_ASSETS | MCPI_PT_ASSETS_OR_ONE,
                              " and "));
  }
  /* Terms of a product the trade is not: refused rather than dropped. */
  if (t->initial_fixings && !mcpi_unit_has_field(u, "initial_fixings"))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': initial_fixings: only an autocallable, or a "
               "seasoned cliquet or Himalaya, has them", id);
  if (t->product != MCP_PRODUCT_AUTOCALLABLE) {
    const char *field = t->autocall_levels ? "autocall_levels"
                        : t->coupon != 0     ? "coupon"
                        : t->knock_in != 0   ? "knock_in"
                        : t->memory != 0     ? "memory"
                                             : NULL;
    if (field)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': %s: only an autocallable has one", id, field);
  }
  if (t->exercises && !mcpi_unit_has_field(u, "exercises"))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': exercises: expected none (0): only an American "
               "has them, got %zu", id, t->exercises);
  if (t->payoff != 0 && t->payoff != MCP_PRODUCT_BASKET && !mcpi_unit_has_field(u, "payoff"))
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': payoff: expected the default (basket): only an "
               "American or a Bermudan on several assets has one", id);
  mcp_status st;
  if (u->check && !(u->traits & MCPI_PT_DATED_TERMS) && (st = u->check(t, p->err)))
    return st;
  int watched = (u->traits & MCPI_PT_WATCHED) != 0;
  if (has_schedule(t)) {
    if (!t->nfixings)
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected at least one time%s", id,
                 watched ? " (the monitoring dates; or bridge monitoring, which needs none)"
                         : "");
    if (!t->fixings)
      TRADE_FAIL(MCP_ERR_ARGUMENT, "trade '%s': fixings: NULL for %zu times", id, t->nfixings);
    size_t past = mcpi_past_fixings(t->nfixings, t->fixings);
    if ((st = check_past(p, t, past)))
      return st;
    if (past < t->nfixings &&
        (why = mcpi_check_fixings(t->nfixings - past, t->fixings + past, t->maturity)))
      TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected %s", id, why);
  } else if (t->nfixings || t->fixings) {
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected none for this product%s", id,
               watched ? " (bridge monitoring is continuous)" : "");
  } else if ((st = check_past(p, t, 0))) {
    return st;
  }
  return u->check && (u->traits & MCPI_PT_DATED_TERMS) ? u->check(t, p->err) : MCP_OK;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

mcp_status mcp_portfolio_add_trade(mcp_portfolio *p, const mcp_trade *t)
{
  const char *why;
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (!t)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "mcp_portfolio_add_trade: trade is NULL");
  if ((why = mcpi_check_name(t->id)))
    TRADE_FAIL(MCP_ERR_ARGUMENT, "trade id: expected %s", why);
  if (!mcpi_name_reserve(&p->ids, p->n, trade_id, p))
    TRADE_FAIL(MCP_ERR_NO_MEMORY, "out of memory adding trade '%s'", t->id);
  if (mcpi_portfolio_find(p, t->id) >= 0)
    TRADE_FAIL(MCP_ERR_INPUT, "trade '%s': id: expected a unique id", t->id);
  mcp_status st = check_terms(p, t);
  if (st != MCP_OK)
    return st;
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 16;
    mcpi_trade *nt = realloc(p->t, cap * sizeof *nt);
    if (!nt)
      TRADE_FAIL(MCP_ERR_NO_MEMORY, "out of memory adding trade '%s'", t->id);
    p->t = nt;
    p->cap = cap;
  }
  const mcpi_product_unit *u = mcpi_product_unit_of(t->product);
  int sched = has_schedule(t), multi = multi_asset(t);
  int basket = multi && mcpi_unit_has_field(u, "weights") && mcpi_payoff_basket(t->payoff);
  size_t na = multi ? t->nassets : 1, nfix = sched ? t->nfixings : 1;
  mcpi_trade c = {.id = strdup(t->id), .product = t->product, .type = t->type,
                  .strike = t->strike, .maturity = t->maturity, .quantity = t->quantity,
                  .nassets = na, .asset = calloc(na, sizeof(char *)),
                  .weight = basket ? malloc(na * sizeof(double)) : NULL,
                  .nfix = nfix, .fix = malloc(nfix * sizeof(double)),
                  .average = t->average, .strike_kind = t->strike_kind,
                  .digital = t->digital, .cash = t->cash, .barrier_kind = t->barrier_kind,
                  .barrier = t->barrier, .rebate = t->rebate, .monitoring = t->monitoring,
                  .methods = t->methods, .engine = t->engine, .notional = t->notional,
                  .best = t->best, .local_floor = t->local_floor, .local_cap = t->local_cap,
                  .global_floor = t->global_floor, .global_cap = t->global_cap,
                  .window = t->window,
                  .payoff = mcpi_payoff_basket(t->payoff) ? MCP_PRODUCT_BASKET : t->payoff,
                  .pay_scale = 1,
                  .exercises = !mcpi_unit_has_field(u, "exercises") ? 0
                               : t->exercises                       ? t->exercises
                                                                    : MCP_DEFAULT_EXERCISES};
  int ok = c.id && c.asset && c.fix && (!basket || c.weight) && (!u->keep || u->keep(&c, t));
  for (size_t a = 0; ok && a < na; a++)
    ok = (c.asset[a] = dup_or_null(multi ? t->assets[a] : t->underlying)) != NULL;
  if (!ok) {
    free_trade(&c);
    TRADE_FAIL(MCP_ERR_NO_MEMORY, "out of memory adding trade '%s'", t->id);
  }
  for (size_t a = 0; basket && a < na; a++) /* equal weights by default */
    c.weight[a] = t->weights ? t->weights[a] : 1.0 / (double)na;
  size_t past = sched ? mcpi_past_fixings(t->nfixings, t->fixings) : 0;
  if (sched) {
    c.nfix = nfix - past;
    memcpy(c.fix, t->fixings + past, c.nfix * sizeof(double));
  } else {
    c.fix[0] = t->maturity;
  }
  season(&c, t, past);
  p->t[p->n] = c;
  mcpi_name_insert(&p->ids, p->n++, trade_id, p);
  return MCP_OK;
}

mcp_status mcp_portfolio_add_european(mcp_portfolio *p, const char *id, const char *underlying,
                                      mcp_option_type type, double strike, double maturity,
                                      double quantity)
{
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = id;
  t.underlying = underlying;
  t.type = type;
  t.strike = strike;
  t.maturity = maturity;
  t.quantity = quantity;
  return p ? mcp_portfolio_add_trade(p, &t) : mcpi_null(__func__, "portfolio");
}

mcp_status mcp_portfolio_add_asian(mcp_portfolio *p, const char *id, const char *underlying,
                                   mcp_average average, mcp_option_type type, double strike,
                                   size_t nfixings, const double *fixings, double maturity,
                                   double quantity)
{
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = id;
  t.product = MCP_PRODUCT_ASIAN;
  t.underlying = underlying;
  t.average = average;
  t.type = type;
  t.strike = strike;
  t.nfixings = nfixings;
  t.fixings = fixings;
  t.maturity = maturity;
  t.quantity = quantity;
  return p ? mcp_portfolio_add_trade(p, &t) : mcpi_null(__func__, "portfolio");
}

mcp_status mcp_portfolio_set_methods(mcp_portfolio *p, int methods)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (methods < 0 || methods > (MCP_ANTITHETIC | MCP_CONTROL_VARIATE | MCP_QMC))
    TRADE_FAIL(MCP_ERR_ARGUMENT, "methods: expected a combination of MCP_ANTITHETIC, "
               "MCP_CONTROL_VARIATE and MCP_QMC, got %d", methods);
  p->methods = methods;
  return MCP_OK;
}

int mcp_portfolio_methods(const mcp_portfolio *p) { return p ? p->methods : 0; }

mcp_status mcp_portfolio_set_scramblings(mcp_portfolio *p, unsigned n)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (n < 2 || n > MCPI_MAX_SCRAMBLINGS)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "scramblings: expected an integer between 2 and 1024, got %u",
               n);
  p->scramblings = n;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_regression_paths(mcp_portfolio *p, uint64_t paths)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (paths && (paths < MCP_CHUNK_PATHS || paths > ((uint64_t)1 << 24)))
    TRADE_FAIL(MCP_ERR_ARGUMENT, "regression_paths: expected 256 to 16777216 paths, or 0 for "
               "the default, got %llu", (unsigned long long)paths);
  p->regression_paths = paths;
  return MCP_OK;
}

uint64_t mcp_portfolio_regression_paths(const mcp_portfolio *p)
{
  return p ? p->regression_paths : 0;
}

mcp_status mcp_portfolio_set_heston_scheme(mcp_portfolio *p, mcp_heston_scheme scheme)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (scheme != MCP_HESTON_QE && scheme != MCP_HESTON_EULER)
    TRADE_FAIL(MCP_ERR_ARGUMENT, "heston scheme: expected qe or euler");
  p->heston = scheme;
  return MCP_OK;
}

size_t mcp_portfolio_size(const mcp_portfolio *p) { return p ? p->n : 0; }

const char *mcp_portfolio_trade_id(const mcp_portfolio *p, size_t i)
{
  return p && i < p->n ? p->t[i].id : NULL;
}

mcp_status mcp_portfolio_trade_source(const mcp_portfolio *p, size_t i, int *line, int *column)
{
  if (!p || !line || !column)
    return mcpi_null(__func__, "portfolio, line or column");
  if (i >= p->n || p->t[i].line <= 0)
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: trade %zu was not read from a file", __func__, i);
  *line = p->t[i].line;
  *column = p->t[i].column;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_paths(mcp_portfolio *p, uint64_t paths)
{
  const char *why;
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if ((why = mcpi_check_paths(paths)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "paths: expected %s, got %llu", why,
                     (unsigned long long)paths);
  p->paths = paths;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_seed(mcp_portfolio *p, uint64_t seed)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (seed > INT64_MAX) /* what files and the command line accept, and JSON writes back */
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "seed: expected an integer between 0 and 2^63-1, got %llu",
                     (unsigned long long)seed);
  p->seed = seed;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_steps_per_year(mcp_portfolio *p, unsigned n)
{
  const char *why;
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if ((why = mcpi_check_steps_per_year(n)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "steps_per_year: expected %s, got %u", why, n);
  p->steps_per_year = n;
  p->steps_given = 1;
  return MCP_OK;
}

mcp_status mcp_portfolio_set_time_grid(mcp_portfolio *p, size_t n, const double *times)
{
  const char *why;
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if (n && !times)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "time grid: NULL array of %zu times", n);
  if ((why = mcpi_check_grid(n, times)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "time grid: expected %s", why);
  double *g = NULL;
  if (n) {
    if (!(g = malloc(n * sizeof *g)))
      return mcpi_fail(p->err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
    memcpy(g, times, n * sizeof *g);
  }
  free(p->grid);
  p->grid = g;
  p->ngrid = n;
  return MCP_OK;
}


uint64_t mcp_portfolio_paths(const mcp_portfolio *p) { return p ? p->paths : 0; }
uint64_t mcp_portfolio_seed(const mcp_portfolio *p) { return p ? p->seed : 0; }

const char *mcp_portfolio_last_error(const mcp_portfolio *p)
{
  return p ? p->err : "no portfolio";
}
