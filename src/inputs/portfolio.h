/* portfolio.h: trades and what they mean (internal view). */
#ifndef MCP_PORTFOLIO_H
#define MCP_PORTFOLIO_H

#include "src/base/error.h"
#include "src/base/names.h"
#include "src/inputs/run_options.h"

typedef struct mcpi_trade {
  char *id;
  mcp_product product;
  mcp_option_type type;
  double strike, maturity, quantity;
  size_t nassets;   /* 1 for single-asset products */
  char **asset;     /* asset[0] is the underlying of a single-asset product */
  double *weight;   /* basket weights, or NULL */
  size_t nfix;      /* the observation schedule (Bermudan: the exercise dates);
                       {maturity} when the product has none; a seasoned trade's
                       fixings to come */
  double *fix;
  /* A seasoned trade as priced (mcp_trade's npast): an Asian's fixings to
   * come with its strike and payoff factor made those of the whole average
   * (arithmetic: K' = (n K - past sum) / m, factor m / n; geometric:
   * averaged over all n fixings, K' = K / G, factor G, G the past fixings'
   * product to the power 1 / n); a barrier knocked in, a European; a payoff
   * already fixed, known, its amount paid at maturity; a lookback's
   * extremes so far, its path's extremes those of the fixings to come
   * alone (on dates) and the payoff reading the greater or lesser of the
   * two; a floating lookback whose every fixing has passed, linear: it pays
   * pay_scale (S(maturity) - strike), unfloored (its forward); an
   * autocallable's coupons due (memory) and its knock-in. */
  size_t nfix_all;  /* the geometric average's n, or 0 */
  double pay_scale; /* 1 but for a seasoned Asian (and linear: +-1) */
  int known, linear, extremes; /* extremes: a seasoned lookback's known_max, known_min */
  double known_amount;
  double known_max, known_min; /* spots (one not read: 0, or HUGE_VAL) */
  int ac_due, ac_knocked;
  /* a seasoned cliquet's or Himalaya's per-path array at 0 (private.h's
   * layout, nfix_all its periods or assets; a Himalaya's remaining assets
   * as indices of its own), or NULL */
  double *seed;
  mcp_average average;
  mcp_strike_kind strike_kind;
  mcp_digital digital;
  double cash;
  mcp_barrier_kind barrier_kind;
  double barrier, rebate;
  mcp_monitoring monitoring;
  int methods; /* MCP_METHODS_DEFAULT or flags */
  mcp_engine engine;
  double notional;                  /* Himalaya, cliquet, autocallable */
  size_t best;                      /* cliquet */
  double local_floor, local_cap, global_floor, global_cap;
  size_t window;                    /* moving window */
  mcp_product payoff;               /* American, Bermudan on several assets: 0 the basket */
  size_t exercises;                 /* American by Monte Carlo: its equally spaced dates */
  double *autocall;                 /* autocallable: the autocall level at each fixing, */
  double *initial;                  /* and its assets' initial fixings (a seasoned cliquet's
                                       and Himalaya's too, else NULL) */
  double coupon, coupon_barrier, knock_in;
  int memory;
  int line, column;                 /* where mcp_portfolio_load read it, or 0 */
} mcpi_trade;

struct mcp_portfolio {
  mcpi_trade *t;
  size_t n, cap;
  mcpi_name_table ids; /* the trades by id */
  uint64_t paths, seed;
  unsigned steps_per_year;
  int steps_given; /* steps_per_year set; else each job's model decides (plan.h) */
  uint64_t regression_paths; /* Longstaff-Schwartz's fit, 0: the default */
  double *grid; /* explicit simulation times, or NULL */
  size_t ngrid;
  int methods;           /* the run's default methods */
  unsigned scramblings;  /* QMC */
  mcp_heston_scheme heston;
  mcp_engine engine[MCP_PRODUCT_COUNT]; /* the products' default engines */
  /* how to run, as the deprecated setters and the file's run object give
   * it: a pricing call takes what its context leaves unset from here */
  mcp_backend backend;
  mcpi_settings legacy;
  double origin;           /* years the valuation date has moved (theta), 0 */
  double knot_pair;        /* theta's bump, a knot's pair (time_grid.c); 0: a day */
  int dated;               /* a copy from mcpi_portfolio_dated: shares ids and assets */
  char err[MCPI_ERRLEN];
};

/* Theta's default bump, a day (years; mcp_greeks), and a curve knot's
 * pair's unless the portfolio's knot_pair says otherwise (time_grid.c). */
#define MCPI_THETA_BUMP (1.0 / 365)

/* The bump a curve knot of p pairs at (time_grid.c). */
static inline double mcpi_knot_pair(const mcp_portfolio *p)
{
  return p->knot_pair > 0 ? p->knot_pair : MCPI_THETA_BUMP;
}

/* Two event times closer than this (years) are the same grid point. */
#define MCPI_TIME_EPS 1e-10
#define MCPI_DEFAULT_SCRAMBLINGS 16u
#define MCPI_MAX_SCRAMBLINGS 1024u

/* A copy of p seen dt years later: every trade's dates, and the run's
 * simulation times, dt closer.  MCP_ERR_INPUT naming the trade when a date
 * falls within dt.  Freed by mcp_portfolio_destroy. */
mcp_status mcpi_portfolio_dated(const mcp_portfolio *p, double dt, mcp_portfolio **out,
                                char *err);

/* Whether a trade of this product is priced by Longstaff-Schwartz when on
 * Monte Carlo (lsm.h). */
static inline int mcpi_lsm_product(mcp_product product)
{
  return product == MCP_PRODUCT_AMERICAN || product == MCP_PRODUCT_BERMUDAN;
}

/* The first of n fixing times t that are at or before the valuation date
 * (<= 0): a seasoned trade's past ones. */
size_t mcpi_past_fixings(size_t n, const double *t);

/* Whether a barrier's kind watches it from below. */
static inline int mcpi_barrier_up(const mcpi_trade *t)
{
  return t->barrier_kind == MCP_UP_AND_OUT || t->barrier_kind == MCP_UP_AND_IN;
}

/* The n exercise dates of an American by Monte Carlo of maturity T, into
 * fix: k T0 / n - origin, k = 1 .. n, T0 = T + origin the maturity at origin
 * 0, so that a theta bump (origin, mcpi_portfolio_dated) moves every date a
 * day closer; a date the bump reaches is taken just after 0 (the option may
 * be exercised now), the dates still distinct. */
void mcpi_american_dates(size_t n, double maturity, double origin, double *fix);

/* p's deprecated run settings (mcpi_settings_resolve's book). */
static inline const mcpi_settings *mcpi_portfolio_settings(const mcp_portfolio *p)
{
  return &p->legacy;
}

/* Index of the trade called id, or -1. */
long mcpi_portfolio_find(const mcp_portfolio *p, const char *id);

/* Why a product cannot be priced by engine (MCP_ENGINE_DEFAULT fits all),
 * as what was expected; NULL when it can. */
const char *mcpi_engine_misfit(mcp_product product, mcp_engine engine);

/* The engine trade t is priced with. */
static inline mcp_engine mcpi_trade_engine(const mcp_portfolio *p, const mcpi_trade *t)
{
  return t->engine == MCP_ENGINE_DEFAULT ? p->engine[t->product] : t->engine;
}

/* The methods trade t is priced with. */
static inline int mcpi_trade_methods(const mcp_portfolio *p, const mcpi_trade *t)
{
  return t->methods == MCP_METHODS_DEFAULT ? p->methods : t->methods;
}

#endif
