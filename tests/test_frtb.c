/* test_frtb.c: the FRTB view (mcp_price_frtb): its records against the
 * regulation's finite differences of Black-Scholes closed forms (a European
 * on the grid, to 1e-4), against the same shifts priced as the user's own scenario
 * set and markets (to the bit), the book as the trades' sum, the key-rate
 * shift's shape, the CRIF text, and bad inputs.  CPU backend. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/mc_check.h"
#include "tests/closed_form.h"
#include "src/inputs/curve.h"

static const double tenors[10] = {0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30};

/* B's rate curve, and the market: A flat Black-Scholes in USD (bucket 5,
 * risk weight 0.30), B with a rate curve in EUR (bucket 12, 0.15), H Heston
 * in USD (bucket 1, 0.55).  rate_b replaces B's curve when given. */
static const double b_end[2] = {0.5, 2}, b_rate[2] = {0.01, 0.02};

static mcp_market *market(const mcpi_curve *rate_b, const mcpi_curve *rate_a,
                          const mcpi_curve *rate_h)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.25});
  add_underlying(m, "B", (bs_params){50, 0.01, 0, 0.4});
  assert_int_equal(mcp_market_add_heston(m, "H", 80, 0.02, 0, 0.04, 1.5, 0.05, 0.6, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "B", MCP_CURVE_RATE, rate_b ? rate_b->n : 2,
                                        rate_b ? rate_b->end : b_end,
                                        rate_b ? rate_b->value : b_rate),
                   MCP_OK);
  if (rate_a)
    assert_int_equal(
        mcp_market_set_curve(m, "A", MCP_CURVE_RATE, rate_a->n, rate_a->end, rate_a->value),
        MCP_OK);
  if (rate_h)
    assert_int_equal(
        mcp_market_set_curve(m, "H", MCP_CURVE_RATE, rate_h->n, rate_h->end, rate_h->value),
        MCP_OK);
  assert_int_equal(mcp_market_set_classification(m, "A", "USD", 5), MCP_OK);
  assert_int_equal(mcp_market_set_classification(m, "B", "EUR", 12), MCP_OK);
  assert_int_equal(mcp_market_set_classification(m, "H", "USD", 1), MCP_OK);
  return m;
}

static mcp_frtb *frtb(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p)
{
  mcp_frtb *f = NULL;
  if (mcp_price_frtb(ctx, m, p, &f) != MCP_OK)
    fail_msg("mcp_price_frtb: %s", mcp_context_last_error(ctx));
  return f;
}

/* The amount of the record of trade id (NULL: the book), risk, qualifier and
 * tenor; fails when there is none. */
static double amount(const mcp_frtb *f, const char *id, mcp_frtb_risk risk, const char *q,
                     double tenor)
{
  mcp_frtb_record r;
  for (size_t i = 0; i < mcp_frtb_count(f); i++) {
    assert_int_equal(mcp_frtb_record_at(f, i, &r), MCP_OK);
    if (((!id && !r.trade_id) || (id && r.trade_id && strcmp(id, r.trade_id) == 0)) &&
        r.risk == risk && strcmp(r.qualifier, q) == 0 && r.tenor == tenor)
      return r.amount;
  }
  fail_msg("no record %s %s %s %g", id ? id : "book", mcp_frtb_risk_name(risk), q, tenor);
  return 0;
}

static void near(const char *what, double got, double want, double tol)
{
  if (!(fabs(got - want) <= tol))
    fail_msg("%s: got %.12g, want %.12g (tolerance %.3g)", what, got, want, tol);
}

/* ---- the closed form: a European call on the grid ------------------------ */

static double bs(double s, double r, double vol)
{
  return cf_black_scholes(MCP_CALL, s, 105, 1.5, r, 0.01, vol);
}

static void european_closed_form(void **state)
{
  mcp_market *m = market(NULL, NULL, NULL);
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_trade t = trade_on("eA", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 105, 1.5);
  t.quantity = 3;
  t.engine = MCP_ENGINE_PDE;
  add_trade(p, &t);
  mcp_run_options *o = NULL;
  mcp_pde_settings ps;
  mcp_pde_settings_init(&ps);
  ps.space_points = 801;
  ps.time_steps = 800;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_pde(o, &ps), MCP_OK);
  assert_int_equal(mcp_context_set_options(*state, o), MCP_OK);
  mcp_frtb *f = frtb(*state, m, p);
  double v = bs(100, 0.03, 0.25), q = 3;
  double delta = q * (bs(101, 0.03, 0.25) - v) / 0.01;
  double vega = q * (bs(100, 0.03, 0.25 * 1.01) - bs(100, 0.03, 0.25 * 0.99)) / 0.02;
  near("delta", amount(f, "eA", MCP_FRTB_EQ_DELTA, "A", 0), delta, 1e-4 * fabs(delta));
  /* 1.5 years: a quarter of the way from the 1-year vertex to the 3-year */
  near("vega 1y", amount(f, "eA", MCP_FRTB_EQ_VEGA, "A", 1), 0.75 * vega, 1e-4 * vega);
  near("vega 3y", amount(f, "eA", MCP_FRTB_EQ_VEGA, "A", 3), 0.25 * vega, 1e-4 * vega);
  double up = -(q * (bs(130, 0.03, 0.25) - v) - 0.3 * delta);
  double down = -(q * (bs(70, 0.03, 0.25) - v) + 0.3 * delta);
  near("curvature up", amount(f, "eA", MCP_FRTB_EQ_CURVATURE, "A", 0.3), up, 1e-4 * fabs(up));
  near("curvature down", amount(f, "eA", MCP_FRTB_EQ_CURVATURE, "A", -0.3), down,
       1e-4 * fabs(down));
  /* the European reads the rate's integral to 1.5 alone: the 1-year zero
   * rate moves it by 1.5 z = 0.5 x, the 2-year one by x */
  double g1 = q * (bs(100, 0.03 + 0.5e-4 / 1.5, 0.25) - v) / 1e-4;
  double g2 = q * (bs(100, 0.03 + 1e-4 / 1.5, 0.25) - v) / 1e-4;
  near("GIRR 1y", amount(f, "eA", MCP_FRTB_GIRR_DELTA, "USD", 1), g1, 1e-4 * g1);
  near("GIRR 2y", amount(f, "eA", MCP_FRTB_GIRR_DELTA, "USD", 2), g2, 1e-4 * g2);
  for (int k = 0; k < 10; k++)
    if (tenors[k] != 1 && tenors[k] != 2)
      near("GIRR elsewhere", amount(f, "eA", MCP_FRTB_GIRR_DELTA, "USD", tenors[k]), 0,
           1e-4 * g2);
  /* the book, of this one trade, is its records; B and EUR, which no trade
   * uses, have none (and need no scenarios) */
  near("book delta", amount(f, NULL, MCP_FRTB_EQ_DELTA, "A", 0),
       amount(f, "eA", MCP_FRTB_EQ_DELTA, "A", 0), 0);
  mcp_frtb_record r;
  for (size_t i = 0; i < mcp_frtb_count(f); i++) {
    assert_int_equal(mcp_frtb_record_at(f, i, &r), MCP_OK);
    assert_true(strcmp(r.qualifier, "B") != 0 && strcmp(r.qualifier, "EUR") != 0);
  }
  mcp_frtb_destroy(f);
  mcp_run_options_destroy(o);
  assert_int_equal(mcp_run_options_create(&o), MCP_OK); /* the group's context as it was */
  assert_int_equal(mcp_context_set_options(*state, o), MCP_OK);
  mcp_run_options_destroy(o);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- the same shifts as the user would price them ------------------------ */

static mcp_portfolio *mc_book(void)
{
  mcp_portfolio *p = new_portfolio(4000, 7);
  double fix[4] = {0.25, 0.5, 0.75, 1};
  add_asian(p, "aB", "B", MCP_ARITHMETIC, MCP_PUT, 52, 4, fix, 1, -2);
  add_european(p, "eH", "H", MCP_CALL, 80, 0.75, 1);
  const char *ab[2] = {"A", "B"};
  mcp_trade t = trade_on("bAB", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 75, 2);
  t.nassets = 2;
  t.assets = ab;
  add_trade(p, &t);
  return p;
}

static const char *const names[3] = {"A", "B", "H"};
static const double weight[3] = {0.30, 0.15, 0.55};

static void same_as_user_shifts(void **state)
{
  mcp_market *m = market(NULL, NULL, NULL);
  mcp_portfolio *p = mc_book();
  mcp_frtb *f = frtb(*state, m, p);
  /* the equity shifts as a scenario set of the public API */
  mcp_scenarios *s = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  for (int u = 0; u < 3; u++) {
    const double x[5] = {0.01, weight[u], -weight[u], 0.01, -0.01};
    for (int k = 0; k < 5; k++) {
      char name[16];
      size_t at;
      snprintf(name, sizeof name, "%s%d", names[u], k);
      assert_int_equal(mcp_scenarios_add(s, name, &at), MCP_OK);
      assert_int_equal(mcp_scenarios_shift(s, at, names[u],
                                           k < 3 ? MCP_SHIFT_SPOT : MCP_SHIFT_VOLATILITY, x[k]),
                       MCP_OK);
    }
  }
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK);
  const char *ids[3] = {"aB", "eH", "bAB"};
  const double qty[3] = {-2, 1, 1}, mat[3] = {1, 0.75, 2};
  for (size_t t = 0; t < 3; t++) {
    mcp_estimate e;
    double v[16];
    assert_int_equal(mcp_scenario_results_base_trade(r, t, &e), MCP_OK);
    double base = e.price, q = qty[t];
    for (int u = 0; u < 3; u++) {
      int uses = (t == 0 && u == 1) || (t == 1 && u == 2) || (t == 2 && u < 2);
      if (!uses)
        continue;
      for (int k = 0; k < 5; k++) {
        assert_int_equal(mcp_scenario_results_set_trade(r, t, (size_t)(5 * u + k), &e), MCP_OK);
        v[k] = e.price;
      }
      double delta = q * (v[0] - base) / 0.01, vega = q * (v[3] - v[4]) / (2 * 0.01);
      assert_true(amount(f, ids[t], MCP_FRTB_EQ_DELTA, names[u], 0) == delta);
      assert_true(amount(f, ids[t], MCP_FRTB_EQ_CURVATURE, names[u], weight[u]) ==
                  -(q * (v[1] - base) - weight[u] * delta));
      assert_true(amount(f, ids[t], MCP_FRTB_EQ_CURVATURE, names[u], -weight[u]) ==
                  -(q * (v[2] - base) + weight[u] * delta));
      /* maturities 1, 0.75 (half-way between 0.5 and 1) and 2 (between 1 and 3) */
      if (mat[t] == 1) {
        assert_true(amount(f, ids[t], MCP_FRTB_EQ_VEGA, names[u], 1) == vega);
      } else if (mat[t] == 0.75) {
        assert_true(amount(f, ids[t], MCP_FRTB_EQ_VEGA, names[u], 0.5) == 0.5 * vega);
        assert_true(amount(f, ids[t], MCP_FRTB_EQ_VEGA, names[u], 1) == 0.5 * vega);
      } else {
        assert_true(amount(f, ids[t], MCP_FRTB_EQ_VEGA, names[u], 1) == 0.5 * vega);
        assert_true(amount(f, ids[t], MCP_FRTB_EQ_VEGA, names[u], 3) == 0.5 * vega);
      }
    }
  }
  /* each key rate as a market of the user's, priced alone: EUR moves B's
   * curve, USD A's and H's at once */
  mcp_results *base = price(*state, m, p);
  mcpi_curve flat_a = {.n = 1, .end = (double[]){0}, .value = (double[]){0.03}};
  mcpi_curve flat_h = {.n = 1, .end = (double[]){0}, .value = (double[]){0.02}};
  mcpi_curve curve_b = {.n = 2, .end = (double *)b_end, .value = (double *)b_rate};
  for (size_t k = 0; k < 10; k += 3) {
    for (int ccy = 0; ccy < 2; ccy++) {
      mcpi_curve a = {0}, b = {0}, h = {0};
      if (ccy) {
        assert_int_equal(mcpi_curve_key_shifted(&a, &flat_a, tenors, 10, k, 1e-4), MCP_OK);
        assert_int_equal(mcpi_curve_key_shifted(&h, &flat_h, tenors, 10, k, 1e-4), MCP_OK);
      } else {
        assert_int_equal(mcpi_curve_key_shifted(&b, &curve_b, tenors, 10, k, 1e-4), MCP_OK);
      }
      mcp_market *moved = market(ccy ? NULL : &b, ccy ? &a : NULL, ccy ? &h : NULL);
      mcp_results *pr = price(*state, moved, p);
      for (size_t t = 0; t < 3; t++) {
        int uses = ccy ? t != 0 : t != 1; /* USD: eH and bAB; EUR: aB and bAB */
        mcp_estimate e0, e1;
        assert_int_equal(mcp_results_trade(base, t, &e0), MCP_OK);
        assert_int_equal(mcp_results_trade(pr, t, &e1), MCP_OK);
        if (uses)
          assert_true(amount(f, ids[t], MCP_FRTB_GIRR_DELTA, ccy ? "USD" : "EUR", tenors[k]) ==
                      qty[t] * (e1.price - e0.price) / 1e-4);
      }
      mcp_results_destroy(pr);
      mcp_market_destroy(moved);
      mcpi_curve_free(&a);
      mcpi_curve_free(&b);
      mcpi_curve_free(&h);
    }
  }
  /* the book: the trades' sums, in their order */
  mcp_frtb_record rec;
  for (size_t i = 0; i < mcp_frtb_count(f); i++) {
    assert_int_equal(mcp_frtb_record_at(f, i, &rec), MCP_OK);
    if (rec.trade_id)
      continue;
    double sum = 0;
    for (size_t t = 0; t < 3; t++) {
      mcp_frtb_record x;
      for (size_t j = 0; j < mcp_frtb_count(f); j++)
        if (mcp_frtb_record_at(f, j, &x) == MCP_OK && x.trade_id &&
            strcmp(x.trade_id, ids[t]) == 0 && x.risk == rec.risk &&
            strcmp(x.qualifier, rec.qualifier) == 0 && x.tenor == rec.tenor)
          sum += x.amount;
    }
    assert_true(rec.amount == sum);
  }
  mcp_results_destroy(base);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_frtb_destroy(f);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- the key-rate shift's shape ----------------------------------------- */

static void key_rate_shape(void **state)
{
  (void)state;
  mcpi_curve c = {2, (double *)b_end, (double *)b_rate, NULL}; /* constant pieces */
  double x = 1e-4;
  for (size_t k = 0; k < 10; k++) {
    mcpi_curve s = {0};
    assert_int_equal(mcpi_curve_key_shifted(&s, &c, tenors, 10, k, x), MCP_OK);
    /* the zero rate moves by x at tenor k, not at the others, linearly in
     * t z between tenors, and flat beyond the last */
    for (size_t j = 0; j < 10; j++) {
      double t = tenors[j];
      double dz = (mcpi_curve_integral(&s, 0, t) - mcpi_curve_integral(&c, 0, t)) / t;
      near("zero rate at a tenor", dz, j == k ? x : 0, 1e-15);
      double lo = j ? tenors[j - 1] : 0, mid = 0.5 * (lo + t);
      double dmid = mcpi_curve_integral(&s, 0, mid) - mcpi_curve_integral(&c, 0, mid);
      double want = 0.5 * ((j == k ? x * t : 0) + (j && j - 1 == k ? x * lo : 0));
      near("between tenors", dmid, want, 1e-15);
    }
    double beyond = (mcpi_curve_integral(&s, 0, 40) - mcpi_curve_integral(&c, 0, 40)) / 40;
    near("beyond the last", beyond, k == 9 ? x : 0, 1e-15);
    mcpi_curve_free(&s);
  }
}

/* ---- CRIF ------------------------------------------------------------------ */

static void crif_text(void **state)
{
  mcp_market *m = market(NULL, NULL, NULL);
  mcp_portfolio *p = mc_book();
  mcp_frtb *f = frtb(*state, m, p);
  char *text = NULL;
  size_t len = 0;
  assert_int_equal(mcp_frtb_crif(f, &text, &len), MCP_OK);
  assert_int_equal(strlen(text), len);
  const char *header = "TradeID,RiskType,Qualifier,Bucket,Label1,Label2,Amount,"
                       "AmountCurrency\n";
  assert_true(strncmp(text, header, strlen(header)) == 0);
  size_t lines = 0, want = 0;
  for (const char *c = text; *c; c++)
    lines += *c == '\n';
  mcp_frtb_record r;
  for (size_t i = 0; i < mcp_frtb_count(f); i++)
    if (mcp_frtb_record_at(f, i, &r) == MCP_OK && r.trade_id && r.amount != 0)
      want++;
  assert_int_equal(lines, want + 1);
  /* a line reads back to the record's bits */
  const char *line = strstr(text, "\naB,EQ_DELTA,B,12,,SPOT,");
  assert_non_null(line);
  double a = strtod(line + strlen("\naB,EQ_DELTA,B,12,,SPOT,"), NULL);
  assert_true(a == amount(f, "aB", MCP_FRTB_EQ_DELTA, "B", 0));
  assert_non_null(strstr(text, "\nbAB,EQ_CURV,A,5,-0.3,,"));
  assert_non_null(strstr(text, "\neH,GIRR_DELTA,USD,,0.5,,"));
  mcp_free(text);
  mcp_frtb_destroy(f);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- bad inputs ------------------------------------------------------------ */

static void bad_inputs(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.25});
  add_underlying(m, "Z", (bs_params){10, 0.03, 0.0, 0.25}); /* no trade: not needed */
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_european(p, "eA", "A", MCP_CALL, 100, 1, 1);
  mcp_frtb *f = NULL;
  assert_int_equal(mcp_price_frtb(*state, m, p, &f), MCP_ERR_INPUT);
  assert_null(f);
  assert_non_null(strstr(mcp_context_last_error(*state), "underlying 'A'"));
  assert_non_null(strstr(mcp_context_last_error(*state), "currency"));
  assert_int_equal(mcp_market_set_classification(m, "A", "USD", 0), MCP_OK);
  assert_int_equal(mcp_price_frtb(*state, m, p, &f), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_context_last_error(*state), "frtb_bucket"));
  assert_int_equal(mcp_market_set_classification(m, "A", "usd", 3), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "ISO 4217"));
  assert_int_equal(mcp_market_set_classification(m, "A", NULL, 14), MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_classification(m, "A", NULL, -1), MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_classification(m, "Q", "USD", 3), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_market_set_classification(m, NULL, "USD", 3), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_market_set_classification(m, "A", NULL, 13), MCP_OK);
  assert_int_equal(mcp_price_frtb(*state, m, p, &f), MCP_OK);
  /* records and calls out of range */
  mcp_frtb_record r;
  assert_int_equal(mcp_frtb_record_at(f, mcp_frtb_count(f), &r), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_frtb_record_at(NULL, 0, &r), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_price_frtb(*state, m, p, NULL), MCP_ERR_ARGUMENT);
  assert_string_equal(mcp_frtb_risk_name(MCP_FRTB_RISK_COUNT), "unknown");
  /* results of another set are refused */
  mcp_scenarios *s = NULL;
  mcp_scenario_results *sr = NULL;
  mcp_frtb *g = NULL;
  char err[256];
  size_t at;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "up", &at), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, at, "A", MCP_SHIFT_SPOT, 0.1), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &sr), MCP_OK);
  assert_int_equal(mcp_frtb_from_results(m, p, sr, &g, err, sizeof err), MCP_ERR_ARGUMENT);
  assert_null(g);
  assert_non_null(strstr(err, "mcp_frtb_scenarios"));
  mcp_scenario_results_destroy(sr);
  mcp_scenarios_destroy(s);
  mcp_frtb_destroy(f);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void market_file_fields(void **state)
{
  (void)state;
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"{\"rate\": 0.01, \"currency\": \"us\", \"underlyings\": [{\"name\": \"A\", \"spot\": 1, "
       "\"volatility\": 0.2}]}",
       "m.json:1:28: currency: expected a currency code of three capital letters"},
      {"{\"rate\": 0.01, \"underlyings\": [{\"name\": \"A\", \"spot\": 1, \"volatility\": 0.2, "
       "\"frtb_bucket\": 14}]}",
       "frtb_bucket: expected an FRTB equity bucket from 1 to 13"},
      {"{\"rate\": 0.01, \"underlyings\": [{\"name\": \"A\", \"spot\": 1, \"volatility\": 0.2, "
       "\"frtb_bucket\": 2.5}]}",
       "frtb_bucket: expected"},
      {"{\"rate\": 0.01, \"underlyings\": [{\"name\": \"A\", \"spot\": 1, \"volatility\": 0.2, "
       "\"currency\": 840}]}",
       "currency: expected a currency code"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    mcp_market *m = NULL;
    char err[512];
    assert_int_equal(mcp_market_load_text(&m, "m.json", bad[i].text, strlen(bad[i].text), err,
                                          sizeof err),
                     MCP_ERR_INPUT);
    if (!strstr(err, bad[i].says))
      fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].says);
    assert_null(m);
  }
  /* the market's currency is every underlying's unless one gives its own */
  const char *good = "{\"rate\": 0.01, \"currency\": \"EUR\", \"underlyings\": ["
                     "{\"name\": \"A\", \"spot\": 1, \"volatility\": 0.2, \"frtb_bucket\": 2},"
                     "{\"name\": \"B\", \"spot\": 1, \"volatility\": 0.2, \"frtb_bucket\": 3, "
                     "\"currency\": \"JPY\"}]}";
  mcp_market *m = NULL;
  char err[512];
  assert_int_equal(mcp_market_load_text(&m, "m.json", good, strlen(good), err, sizeof err),
                   MCP_OK);
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_european(p, "a", "A", MCP_CALL, 1, 1, 1);
  add_european(p, "b", "B", MCP_CALL, 1, 1, 1);
  mcp_scenarios *s = NULL;
  assert_int_equal(mcp_frtb_scenarios(m, p, &s, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_scenarios_count(s), 2 * 5 + 2 * 10); /* two currencies */
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(european_closed_form), cmocka_unit_test(same_as_user_shifts),
      cmocka_unit_test(key_rate_shape),       cmocka_unit_test(crif_text),
      cmocka_unit_test(bad_inputs),           cmocka_unit_test(market_file_fields),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
