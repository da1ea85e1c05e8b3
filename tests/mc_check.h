/* mc_check.h: building, pricing and checking portfolios in the CMocka tests
 * (include after cmocka.h). */
#ifndef MCP_TESTS_MC_CHECK_H
#define MCP_TESTS_MC_CHECK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mcprice.h"

/* Black-Scholes parameters of one underlying. */
typedef struct bs_params {
  double spot, rate, dividend, vol;
} bs_params;

/* ---- a CPU context as the group state ------------------------------------ */

static inline int mc_setup_cpu(void **state)
{
  mcp_context *ctx = NULL;
  if (mcp_context_create(&ctx, MCP_BACKEND_CPU) != MCP_OK)
    return -1;
  *state = ctx;
  return 0;
}

static inline int mc_teardown(void **state)
{
  mcp_context_destroy(*state);
  return 0;
}

/* ---- building and pricing ---------------------------------------------- */

/* A trade of the product with the defaults of mcp_trade_init otherwise. */
static inline mcp_trade trade_on(const char *id, const char *underlying, mcp_product product,
                                 mcp_option_type type, double strike, double maturity)
{
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = id;
  t.underlying = underlying;
  t.product = product;
  t.type = type;
  t.strike = strike;
  t.maturity = maturity;
  return t;
}


static inline mcp_market *new_market(void)
{
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  return m;
}

static inline void add_underlying(mcp_market *m, const char *name, bs_params u)
{
  mcp_status st = mcp_market_add_black_scholes(m, name, u.spot, u.rate, u.dividend, u.vol);
  if (st != MCP_OK)
    fail_msg("adding '%s': %s", name, mcp_market_last_error(m));
}

/* A statistical test's paths.  MCP_TEST_DIVIDE, where set (CI's sanitizer
 * build, 5 to 10 times slower), divides a count of 40,000 or more by it, to
 * no fewer than 20,000 and keeping its parity (antithetic pairs): the
 * tolerances are in standard errors, and the plain build runs the whole. */
static inline uint64_t mc_paths(uint64_t paths)
{
  const char *env = getenv("MCP_TEST_DIVIDE");
  uint64_t d = env ? strtoull(env, NULL, 10) : 0, least = 20000;
  if (d < 2 || paths < 2 * least)
    return paths;
  uint64_t n = paths / d < least ? least : paths / d;
  return n + ((n ^ paths) & 1);
}

/* A portfolio of those paths whatever the build: for a tolerance not in
 * standard errors (a boundary, a bump's difference, the grid check's flag). */
static inline mcp_portfolio *new_portfolio_exact(uint64_t paths, uint64_t seed)
{
  mcp_portfolio *p = NULL;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, seed), MCP_OK);
  return p;
}

/* A portfolio of a statistical test's paths (mc_paths). */
static inline mcp_portfolio *new_portfolio(uint64_t paths, uint64_t seed)
{
  return new_portfolio_exact(mc_paths(paths), seed);
}

/* A book of 4000 paths (seed 2) at 1000 steps a year, holding trade "T": a
 * Monte Carlo American call on asset at the money (100) for a year, with
 * exercises dates, its last date alone (1) or more (its fitted rule worth
 * less than holding, and so floored to its European, where the call pays no
 * dividend: the floored tests). */
static inline mcp_portfolio *american_call_book(const char *asset, unsigned exercises,
                                                double quantity)
{
  mcp_portfolio *p = new_portfolio(4000, 2);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 1000), MCP_OK);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "T", t.underlying = asset, t.product = MCP_PRODUCT_AMERICAN, t.type = MCP_CALL;
  t.strike = 100, t.maturity = 1, t.engine = MCP_ENGINE_MC, t.exercises = exercises;
  t.quantity = quantity;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  return p;
}

static inline void check_added(mcp_portfolio *p, const char *id, mcp_status st)
{
  if (st != MCP_OK)
    fail_msg("adding '%s': %s", id, mcp_portfolio_last_error(p));
}

static inline void add_european(mcp_portfolio *p, const char *id, const char *und, mcp_option_type type,
                         double strike, double maturity, double quantity)
{
  check_added(p, id, mcp_portfolio_add_european(p, id, und, type, strike, maturity, quantity));
}

static inline void add_asian(mcp_portfolio *p, const char *id, const char *und, mcp_average avg,
                      mcp_option_type type, double strike, size_t n, const double *fix,
                      double maturity, double quantity)
{
  check_added(p, id, mcp_portfolio_add_asian(p, id, und, avg, type, strike, n, fix, maturity,
                                             quantity));
}

static inline void add_trade(mcp_portfolio *p, const mcp_trade *t)
{
  check_added(p, t->id, mcp_portfolio_add_trade(p, t));
}

static inline mcp_results *price(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p)
{
  mcp_results *r = NULL;
  mcp_status st = mcp_price(ctx, m, p, &r);
  if (st != MCP_OK)
    fail_msg("mcp_price: %s: %s", mcp_strerror(st), mcp_context_last_error(ctx));
  assert_non_null(r);
  assert_int_equal(mcp_results_count(r), mcp_portfolio_size(p));
  return r;
}

static inline mcp_results *price_greeks(mcp_context *ctx, const mcp_market *m,
                                        const mcp_portfolio *p, const mcp_greeks *g)
{
  mcp_results *r = NULL;
  mcp_status st = mcp_price_greeks(ctx, m, p, g, &r);
  if (st != MCP_OK)
    fail_msg("mcp_price_greeks: %s: %s", mcp_strerror(st), mcp_context_last_error(ctx));
  assert_non_null(r);
  return r;
}

/* A request of the Greeks in list, with buckets or not. */
static inline mcp_greeks *greeks_request(const char *list, int buckets)
{
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, list), MCP_OK);
  assert_int_equal(mcp_greeks_set_buckets(g, buckets), MCP_OK);
  return g;
}

/* Sensitivity `name` of trade id (NULL: the book). */
static inline mcp_sensitivity greek(const mcp_results *r, const char *id, const char *name)
{
  mcp_sensitivity s;
  if (mcp_results_greek(r, id, name, &s) != MCP_OK)
    fail_msg("no '%s' for %s", name, id ? id : "the book");
  return s;
}

static inline mcp_estimate estimate(const mcp_results *r, const char *id)
{
  size_t i = 0;
  mcp_estimate e;
  if (mcp_results_find(r, id, &i) != MCP_OK)
    fail_msg("no result for trade '%s'", id);
  assert_int_equal(mcp_results_trade(r, i, &e), MCP_OK);
  return e;
}

static inline mcp_estimate total(const mcp_results *r)
{
  mcp_estimate e;
  assert_int_equal(mcp_results_total(r, &e), MCP_OK);
  return e;
}

/* Fails unless e is within k of its own standard errors from the exact value. */
static inline void assert_within(const char *what, mcp_estimate e, double exact, double k)
{
  double z = (e.price - exact) / e.std_error;
  print_message("  %-14s MC %12.6f +- %.2e  exact %12.6f  (%+.2f se)\n", what, e.price,
                e.std_error, exact, z);
  if (!(e.std_error > 0 && fabs(e.price - exact) <= k * e.std_error))
    fail_msg("%s: MC %.8f +- %.3e is %.2f se from the closed form %.8f", what, e.price,
             e.std_error, z, exact);
}

/* Every trade estimate and the book, in trade order, so that two runs can
 * be compared bit for bit; returns the number of estimates written. */
static inline size_t snapshot(const mcp_results *r, mcp_estimate *out, size_t cap)
{
  size_t n = mcp_results_count(r);
  assert_true(n + 1 <= cap);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(mcp_results_trade(r, i, &out[i]), MCP_OK);
  out[n] = total(r);
  return n + 1;
}

/* The same portfolio priced twice gives bitwise-equal estimates. */
static inline void assert_same_bits(const char *what, const mcp_estimate *a, const mcp_estimate *b,
                             size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
      fail_msg("%s: estimate %zu differs: %.17g +- %.17g vs %.17g +- %.17g", what, i,
               a[i].price, a[i].std_error, b[i].price, b[i].std_error);
}

#endif
