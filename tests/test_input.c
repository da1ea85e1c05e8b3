/* test_input.c: reading market and portfolio files, the messages of bad
 * ones, and the JSON locator. */
/* the 0.1 run setters on the portfolio, which these tests keep exercising
 * for their one deprecated release (mcprice.h) */
#define MCP_ALLOW_DEPRECATED
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "src/io/json_locate.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"

#define DATA SRCDIR "/tests/data/"

static const mcpi_trade *find_trade(const mcp_portfolio *p, const char *id)
{
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->t[i].id, id) == 0)
      return &p->t[i];
  fail_msg("no trade %s", id);
  return NULL;
}

static void test_good_market(void **state)
{
  mcp_market *m = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, DATA "good_market.json", err, sizeof err), MCP_OK);
  assert_string_equal(err, "");
  assert_int_equal(mcp_market_size(m), 2);
  const mcpi_underlying *acme = mcpi_market_find(m, "ACME"), *bolt = mcpi_market_find(m, "BOLT");
  assert_non_null(acme);
  assert_non_null(bolt);
  assert_true(acme->spot == 100 && acme->dividend.value[0] == 0.01 && acme->vol.value[0] == 0.2);
  assert_true(acme->rate.value[0] == 0.02); /* the file's default */
  assert_true(bolt->rate.value[0] == -0.005 && bolt->dividend.value[0] == 0 && bolt->vol.value[0] == 0.35);
  mcp_market_destroy(m);
}

/* A local-volatility surface as read: its nodes, sigma(0, spot) as the
 * underlying's one number. */
static void test_good_local_vol(void **state)
{
  mcp_market *m = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, DATA "good_local_vol.json", err, sizeof err), MCP_OK);
  const mcpi_underlying *u = mcpi_market_find(m, "LV");
  assert_non_null(u);
  assert_int_equal(u->model, MCPI_MODEL_LOCAL_VOL);
  assert_true(u->lv.nt == 3 && u->lv.ns == 3 && u->lv.times[1] == 0.5 && u->lv.spots[2] == 125);
  assert_true(u->lv.values[3] == 0.28 && u->lv.values[8] == 0.18);
  assert_true(u->vol.value[0] == 0.2 && u->rate.value[0] == 0.02);
  /* halfway from 0.28 to 0.25 in the bracket [0.5, 2]; flat beyond the last */
  assert_true(mcpi_surface_row_at(&u->lv, 2, 1.25, 0) == 0.265);
  assert_true(mcpi_surface_row_at(&u->lv, 3, 3, 2) == 0.18);
  mcp_market_destroy(m);
}

static void test_good_cash_dividends(void **state)
{
  mcp_market *m = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, DATA "good_cash_dividends.json", err, sizeof err),
                   MCP_OK);
  const mcpi_underlying *u = mcpi_market_find(m, "D");
  assert_true(u && u->ncash == 2 && u->cash_t[1] == 0.75 && u->cash_amount[1] == 2.5);
  /* carried to 1 at the rate: 2 e^{0.05 x 0.75} + 2.5 e^{0.05 x 0.25} */
  assert_true(fabs(mcpi_cash_carried(u, 0, 1) - (2 * exp(0.0375) + 2.5 * exp(0.0125))) < 1e-13);
  /* a day later (origin 0.5): the first paid, the second at 0.25 */
  assert_true(mcpi_cash_carried(u, 0.5, 0.2) == 0);
  assert_true(fabs(mcpi_cash_carried(u, 0.5, 0.25) - 2.5) < 1e-15);
  mcp_market_destroy(m);
}

static void test_good_book(void **state)
{
  mcp_portfolio *p = NULL;
  char err[256] = "";
  assert_int_equal(mcp_portfolio_load(&p, DATA "good_book.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_portfolio_size(p), 6);
  assert_string_equal(mcp_portfolio_trade_id(p, 0), "EC");
  assert_string_equal(mcp_portfolio_trade_id(p, 3), "AGP");
  assert_string_equal(mcp_portfolio_trade_id(p, 5), "\xc3\x89t\xc3\xa9"); /* decoded escapes */
  assert_true(mcp_portfolio_paths(p) == 5000);
  assert_true(mcp_portfolio_seed(p) == INT64_MAX);
  assert_int_equal(mcp_portfolio_backend(p), MCP_BACKEND_CPU);
  assert_int_equal(mcp_portfolio_precision(p), MCP_FLOAT);
  mcp_prefetch strategy;
  int distance, padding;
  mcp_portfolio_prefetch(p, &strategy, &distance, &padding);
  assert_int_equal(strategy, MCP_PREFETCH_SMEM_ROLLING);
  assert_int_equal(distance, 12);
  assert_int_equal(padding, MCP_PADDING_INTERLEAVED);
  assert_int_equal(p->steps_per_year, 12);
  assert_int_equal(p->ngrid, 2);
  assert_true(p->grid[0] == 0.1 && p->grid[1] == 0.2);

  const mcpi_trade *ep = find_trade(p, "EP");
  assert_true(ep->type == MCP_PUT && ep->strike == 0 && ep->quantity == -2.5);
  assert_true(find_trade(p, "EC")->quantity == 1); /* default */

  const mcpi_trade *aac = find_trade(p, "AAC"); /* monthly schedule, maturity defaulted */
  assert_int_equal(aac->product, MCP_PRODUCT_ASIAN);
  assert_int_equal(aac->average, MCP_ARITHMETIC);
  assert_int_equal(aac->nfix, 12);
  assert_true(fabs(aac->fix[0] - 1.0 / 12) < 1e-15 && fabs(aac->fix[5] - 0.5) < 1e-15);
  assert_true(aac->fix[11] == 1 && aac->maturity == 1);

  const mcpi_trade *agp = find_trade(p, "AGP");
  assert_int_equal(agp->product, MCP_PRODUCT_ASIAN);
  assert_int_equal(agp->average, MCP_GEOMETRIC);
  assert_true(agp->nfix == 3 && agp->fix[2] == 1.5 && agp->maturity == 2 && agp->quantity == 3);

  const mcpi_trade *one = find_trade(p, "ONE"); /* a schedule of one time */
  assert_true(one->nfix == 1 && one->fix[0] == 0.75 && one->maturity == 0.75);
  mcp_portfolio_destroy(p);
}

static void expect_curve(const mcpi_curve *c, size_t n, const double *end, const double *value)
{
  assert_int_equal(c->n, n);
  for (size_t i = 0; i < n; i++)
    assert_true(c->end[i] == end[i] && c->value[i] == value[i]);
}

static void test_good_models(void **state)
{
  mcp_market *m = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, DATA "good_models.json", err, sizeof err), MCP_OK);
  assert_string_equal(err, "");
  assert_int_equal(mcp_market_size(m), 5);
  const mcpi_underlying *flat = mcpi_market_find(m, "FLAT"), *term = mcpi_market_find(m, "TERM");
  const mcpi_underlying *hest = mcpi_market_find(m, "HEST"), *jump = mcpi_market_find(m, "JUMP");
  assert_true(flat && term && hest && jump);

  assert_int_equal(flat->model, MCPI_MODEL_BLACK_SCHOLES);
  expect_curve(&flat->rate, 1, (double[]){0}, (double[]){0.03}); /* flat: one piece */
  expect_curve(&flat->vol, 1, (double[]){0}, (double[]){0.2});

  /* curves replace the flat values, the file's default rate included */
  assert_int_equal(term->model, MCPI_MODEL_BLACK_SCHOLES);
  assert_true(term->spot == 50);
  expect_curve(&term->rate, 2, (double[]){0.5, 1}, (double[]){0.01, 0.02});
  expect_curve(&term->dividend, 1, (double[]){1}, (double[]){0.005});
  expect_curve(&term->vol, 3, (double[]){0.25, 0.5, 2}, (double[]){0.3, 0.25, 0.2});

  assert_int_equal(hest->model, MCPI_MODEL_HESTON);
  assert_true(hest->spot == 80 && hest->dividend.value[0] == 0.01);
  assert_true(hest->v0 == 0.04 && hest->kappa == 1.5 && hest->theta == 0.05 &&
              hest->xi == 0.6 && hest->rho == -0.7);
  expect_curve(&hest->rate, 2, (double[]){1, 2}, (double[]){0.02, 0.025});

  assert_int_equal(jump->model, MCPI_MODEL_MERTON);
  assert_true(jump->rate.value[0] == 0.01 && jump->vol.value[0] == 0.15);
  assert_true(jump->lambda == 0.5 && jump->jump_mean == -0.1 && jump->jump_vol == 0.2);

  /* FLAT, TERM, HEST, JUMP, THIRD: indices 0 to 4; the second block sets
   * FLAT-THIRD again */
  assert_true(mcpi_market_correlation(m, 0, 1) == 0.5);
  assert_true(mcpi_market_correlation(m, 1, 0) == 0.5);
  assert_true(mcpi_market_correlation(m, 1, 4) == -0.3);
  assert_true(mcpi_market_correlation(m, 0, 4) == 0.1);
  assert_true(mcpi_market_correlation(m, 0, 2) == 0); /* never set */
  assert_int_equal(m->ncorr, 3);
  mcp_market_destroy(m);
}

static void test_good_products(void **state)
{
  mcp_portfolio *p = NULL;
  char err[256] = "";
  assert_int_equal(mcp_portfolio_load(&p, DATA "good_products.json", err, sizeof err), MCP_OK);
  assert_string_equal(err, "");
  assert_int_equal(mcp_portfolio_size(p), 14);
  assert_int_equal(mcp_portfolio_methods(p), MCP_ANTITHETIC | MCP_QMC);
  assert_int_equal(p->scramblings, 32);
  assert_int_equal(p->heston, MCP_HESTON_EULER);

  const mcpi_trade *t = find_trade(p, "DIG");
  assert_int_equal(t->product, MCP_PRODUCT_DIGITAL);
  assert_int_equal(t->digital, MCP_CASH_OR_NOTHING);
  assert_true(t->cash == 10 && t->strike == 100 && t->maturity == 1);
  assert_int_equal(t->methods, MCP_METHODS_DEFAULT);
  t = find_trade(p, "DAN");
  assert_int_equal(t->digital, MCP_ASSET_OR_NOTHING);
  assert_true(t->type == MCP_PUT && t->cash == 1 && t->maturity == 0.5);
  assert_int_equal(t->methods, 0); /* [] is plain Monte Carlo */

  t = find_trade(p, "AFL"); /* floating: no strike; maturity the last fixing */
  assert_int_equal(t->product, MCP_PRODUCT_ASIAN);
  assert_int_equal(t->strike_kind, MCP_FLOATING_STRIKE);
  assert_int_equal(t->average, MCP_GEOMETRIC);
  assert_true(t->strike == 0 && t->nfix == 4 && t->fix[3] == 1 && t->maturity == 1);
  assert_int_equal(t->methods, MCP_CONTROL_VARIATE);
  t = find_trade(p, "AFX");
  assert_int_equal(t->strike_kind, MCP_FIXED_STRIKE);
  assert_true(t->strike == 95 && t->nfix == 2 && t->maturity == 1.5);

  t = find_trade(p, "UAO"); /* discrete by default, maturity the last date */
  assert_int_equal(t->product, MCP_PRODUCT_BARRIER);
  assert_int_equal(t->barrier_kind, MCP_UP_AND_OUT);
  assert_int_equal(t->monitoring, MCP_MONITOR_DISCRETE);
  assert_true(t->barrier == 130 && t->rebate == 2 && t->strike == 100);
  assert_true(t->nfix == 4 && t->fix[0] == 0.25 && t->fix[3] == 1 && t->maturity == 1);
  t = find_trade(p, "UAI");
  assert_int_equal(t->barrier_kind, MCP_UP_AND_IN);
  assert_int_equal(t->monitoring, MCP_MONITOR_BGK);
  assert_true(t->barrier == 140 && t->rebate == 0 && t->nfix == 3 && t->maturity == 1.5);
  t = find_trade(p, "DAO");
  assert_int_equal(t->barrier_kind, MCP_DOWN_AND_OUT);
  assert_int_equal(t->monitoring, MCP_MONITOR_DISCRETE);
  assert_true(t->nfix == 2 && t->maturity == 1);
  t = find_trade(p, "DAI"); /* bridge: no dates, the schedule is the maturity */
  assert_int_equal(t->barrier_kind, MCP_DOWN_AND_IN);
  assert_int_equal(t->monitoring, MCP_MONITOR_BRIDGE);
  assert_true(t->barrier == 60 && t->maturity == 2 && t->nfix == 1 && t->fix[0] == 2);

  t = find_trade(p, "LBF");
  assert_int_equal(t->product, MCP_PRODUCT_LOOKBACK);
  assert_int_equal(t->strike_kind, MCP_FLOATING_STRIKE);
  assert_true(t->nfix == 10 && fabs(t->fix[1] - 0.2) < 1e-15 && t->maturity == 1);
  t = find_trade(p, "LBX");
  assert_int_equal(t->strike_kind, MCP_FIXED_STRIKE);
  assert_true(t->type == MCP_PUT && t->strike == 120 && t->maturity == 1.25 &&
              t->quantity == 2);

  t = find_trade(p, "BSK");
  assert_int_equal(t->product, MCP_PRODUCT_BASKET);
  assert_int_equal(t->nassets, 3);
  assert_string_equal(t->asset[0], "FLAT");
  assert_string_equal(t->asset[2], "THIRD");
  assert_true(t->weight[0] == 0.5 && t->weight[1] == 0.3 && t->weight[2] == 0.2);
  t = find_trade(p, "BSE"); /* equal weights by default */
  assert_true(t->nassets == 2 && t->weight[0] == 0.5 && t->weight[1] == 0.5);
  assert_true(t->quantity == -2);
  t = find_trade(p, "BST");
  assert_int_equal(t->product, MCP_PRODUCT_BEST_OF);
  assert_true(t->nassets == 2 && t->weight == NULL);
  assert_string_equal(t->asset[1], "THIRD");
  assert_int_equal(t->methods, MCP_ANTITHETIC | MCP_CONTROL_VARIATE | MCP_QMC);
  t = find_trade(p, "WST");
  assert_int_equal(t->product, MCP_PRODUCT_WORST_OF);
  assert_true(t->nassets == 2 && t->type == MCP_PUT && t->maturity == 0.5);
  mcp_portfolio_destroy(p);
}

/* A portfolio of 40,000 trades loads in time linear in its size, each
 * trade's place in the file recorded (finding them one by one took 177 s
 * here) and right: trade i's object opens on line 3 + i. */
static void test_large_portfolio(void **state)
{
  char path[] = "/tmp/mcprice-test-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  enum { N = 40000 };
  fprintf(f, "{\"run\": {\"paths\": 1000},\n \"trades\": [\n");
  for (int i = 0; i < N; i++)
    fprintf(f, "  {\"id\": \"t%d\", \"product\": \"european\", \"type\": \"call\", "
               "\"underlying\": \"ACME\", \"strike\": 100, \"maturity\": 1}%s\n",
            i, i + 1 < N ? "," : "");
  fprintf(f, "]}\n");
  assert_int_equal(fclose(f), 0);
  mcp_portfolio *p = NULL;
  char err[256];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  mcp_status st = mcp_portfolio_load(&p, path, err, sizeof err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unlink(path);
  if (st != MCP_OK)
    fail_msg("%s", err);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  print_message("  %d trades loaded in %.3f s\n", N, s);
  assert_true(s < 10);
  int line = 0, column = 0;
  for (size_t i = 0; i < N; i += N / 4 - 1) {
    assert_int_equal(mcp_portfolio_trade_source(p, i, &line, &column), MCP_OK);
    assert_int_equal(line, 3 + (int)i);
    assert_int_equal(column, 3);
  }
  mcp_portfolio_destroy(p);
}

/* The two files price together: what the readers build is what the engine
 * takes. */
static void test_good_price(void **state)
{
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *c = NULL;
  mcp_results *r = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, DATA "good_models.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_portfolio_load(&p, DATA "good_products.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  mcp_status st = mcp_price(c, m, p, &r);
#ifndef MCP_HAVE_CURAND /* the file asks for QMC, which needs cuRAND */
  assert_int_equal(st, MCP_ERR_UNAVAILABLE);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  skip();
#endif
  if (st != MCP_OK)
    fail_msg("%s", mcp_context_last_error(c));
  assert_int_equal(mcp_results_count(r), 14);
  for (size_t i = 0; i < 14; i++) {
    mcp_estimate e;
    assert_int_equal(mcp_results_trade(r, i, &e), MCP_OK);
    assert_true(isfinite(e.price) && e.price >= 0 && isfinite(e.std_error));
  }
  mcp_results_destroy(r);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void test_examples(void **state)
{
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, SRCDIR "/examples/market.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_market_size(m), 8);
  assert_int_equal(mcp_portfolio_load(&p, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  assert_true(mcp_portfolio_size(p) >= 20);
  assert_true(mcp_portfolio_paths(p) == 200000 && mcp_portfolio_seed(p) == 2026);
  for (size_t i = 0; i < p->n; i++)
    assert_non_null(mcpi_market_find(m, p->t[i].asset[0]));
  assert_int_equal(find_trade(p, "ACME-AAC-DAILY")->nfix, 252);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

typedef struct bad_case {
  const char *file;
  int market; /* else a portfolio */
  mcp_status status;
  const char *message; /* what follows the file name */
} bad_case;

static const bad_case bad_cases[] = {
    {"no_such_file.json", 0, MCP_ERR_IO, ": cannot open: No such file or directory"},
    {"bad_syntax.json", 0, MCP_ERR_PARSE, ":4:44: JSON syntax error: "},
    {"bad_nul.json", 1, MCP_ERR_PARSE, ":2:18: a NUL byte; expected JSON text (UTF-8)"},
    {"bad_root.json", 1, MCP_ERR_INPUT, ":1:1: expected a market object, got an empty array"},
    {"bad_wrong_type.json", 0, MCP_ERR_INPUT,
     ":4:39: trades[0].strike: expected a finite number >= 0, got \"100\""},
    {"bad_missing_field.json", 0, MCP_ERR_INPUT,
     ":5:5: trades[1]: missing field 'strike' (expected a finite number >= 0)"},
    {"bad_missing_rate.json", 1, MCP_ERR_INPUT,
     ":3:5: underlyings[0]: missing field 'rate' (expected a number between -1 and 1)"},
    {"bad_unknown_top.json", 0, MCP_ERR_INPUT,
     ":3:3: trade: unknown field; expected one of run, trades"},
    {"bad_unknown_run.json", 0, MCP_ERR_INPUT,
     ":2:27: run.sed: unknown field; expected one of paths, seed, steps_per_year, grid, "
     "backend"},
    {"bad_unknown_trade.json", 0, MCP_ERR_INPUT,
     ":4:29: trades[0].strik: unknown field; expected one of id, product, type, underlying, "
     "strike, maturity, quantity, average, fixings"},
    {"bad_european_fixings.json", 0, MCP_ERR_INPUT,
     ":4:37: trades[0].fixings: unknown field; expected one of id, product, type, underlying, "
     "strike, maturity, quantity"},
    {"bad_unicode.json", 0, MCP_ERR_INPUT, ":4:28: trades[0].str\xc3\xafke: unknown field"},
    {"bad_negative_spot.json", 1, MCP_ERR_INPUT,
     ":5:31: underlyings[1].spot: expected a finite number > 0, got -5"},
    {"bad_volatility.json", 1, MCP_ERR_INPUT,
     ":4:21: underlyings[0].volatility: expected a number between 0 and 10, got 11"},
    {"bad_duplicate_underlying.json", 1, MCP_ERR_INPUT,
     ":5:15: underlyings[1].name: expected a name not taken (underlyings[0] has it), "
     "got \"ACME\""},
    {"bad_unsorted_fixings.json", 0, MCP_ERR_INPUT,
     ":5:30: trades[0].fixings[2]: expected strictly increasing fixing times, got 0.45"},
    {"bad_fixing_after_maturity.json", 0, MCP_ERR_INPUT,
     ":5:29: trades[0].fixings[2]: expected fixing times not after the maturity, got 1.25"},
    {"bad_schedule_count.json", 0, MCP_ERR_INPUT,
     ":5:54: trades[0].fixings.count: expected an integer between 1 and 100000, got 0"},
    {"bad_fixings_order.json", 0, MCP_ERR_INPUT,
     ":4:64: trades[0].fixings[1]: expected strictly increasing fixing times, got 0.5"},
    {"bad_schedule_maturity.json", 0, MCP_ERR_INPUT,
     ":5:42: trades[0].fixings.last: expected fixing times not after the maturity, got 2"},
    {"bad_duplicate_id.json", 0, MCP_ERR_INPUT,
     ":5:13: trades[1].id: expected an id not taken (trades[0] has it), got \"T1\""},
    {"bad_id_total.json", 0, MCP_ERR_INPUT,
     ":3:13: trades[0].id: expected a name other than TOTAL (the book's row in the reports), "
     "got \"TOTAL\""},
    {"bad_id_formula.json", 0, MCP_ERR_INPUT,
     ":3:13: trades[0].id: expected a string that does not start with =, +, - or @ (a formula "
     "in a spreadsheet), got \"=1+1\""},
    {"bad_duplicate_key.json", 0, MCP_ERR_INPUT, ":4:44: trades[0].strike: duplicate object key"},
    {"bad_backend.json", 0, MCP_ERR_INPUT,
     ":2:38: run.backend: expected one of auto, cpu, cuda, got \"gpu\""},
    {"bad_prefetch.json", 0, MCP_ERR_INPUT,
     ":2:39: run.prefetch: expected one of none, unroll, scalar-batch, smem-batch, "
     "scalar-rolling, smem-rolling, smem-async, got \"prefetch\""},
    {"bad_prefetch_distance.json", 0, MCP_ERR_INPUT,
     ":2:74: run.prefetch_distance: expected one of 1, 2, 4, 6, 8, 12, 16, got 5"},
    {"bad_padding.json", 0, MCP_ERR_INPUT,
     ":2:64: run.padding: expected an integer from 0 to 32, or \"interleaved\", got \"wide\""},
    {"bad_precision.json", 0, MCP_ERR_INPUT,
     ":2:40: run.precision: expected one of double, float, mixed, got \"half\""},
    {"bad_paths_fraction.json", 0, MCP_ERR_INPUT,
     ":3:14: run.paths: expected an integer between 2 and 2^40, got 1.5"},
    {"bad_paths_string.json", 0, MCP_ERR_INPUT,
     ":3:14: run.paths: expected an integer between 2 and 2^40, got \"100\""},
    {"bad_seed_overflow.json", 0, MCP_ERR_INPUT, ":2:20: run.seed: too big integer"},
    {"bad_grid.json", 0, MCP_ERR_INPUT,
     ":2:26: run.grid[1]: expected strictly increasing times, got 0.25"},
    {"bad_empty_trades.json", 0, MCP_ERR_INPUT,
     ":3:13: trades: expected a non-empty array of trades, got an empty array"},
    /* models and curves */
    {"bad_model.json", 1, MCP_ERR_INPUT,
     ":4:29: underlyings[0].model: expected one of black-scholes, heston, merton, local-volatility, got \"sabr\""},
    {"bad_model_field.json", 1, MCP_ERR_INPUT,
     ":4:52: underlyings[0].v0: unknown field; expected one of name, model, spot, rate, "
     "dividend, repo, volatility, implied_volatility, dividends, curves, currency, "
     "frtb_bucket (v0 is for model heston)"},
    {"bad_cash_order.json", 1, MCP_ERR_INPUT,
     ":5:63: underlyings[0].dividends[1].time: expected a time after the previous dividend's, "
     "got 0.25"},
    {"bad_cash_heston.json", 1, MCP_ERR_INPUT,
     ":5:31: underlyings[0].dividends: unknown field; expected one of name, model, spot, rate, "
     "dividend, repo, v0, kappa, theta, xi, rho, curves, currency, frtb_bucket (dividends is "
     "for model black-scholes)"},
    {"bad_local_vol_row.json", 1, MCP_ERR_INPUT,
     ":5:58: underlyings[0].local_volatility.values[1]: expected a row of 3 values, one for "
     "each spot"},
    {"bad_local_vol_spots.json", 1, MCP_ERR_INPUT,
     ":3:5: underlyings[0]: underlying 'LV': local volatility: spots: expected strictly "
     "increasing finite spots > 0"},
    {"bad_local_vol_missing.json", 1, MCP_ERR_INPUT,
     ":3:77: underlyings[0].volatility: unknown field"},
    {"bad_heston_volatility.json", 1, MCP_ERR_INPUT,
     ":4:52: underlyings[0].volatility: unknown field; expected one of name, model, spot, "
     "rate, dividend, repo, v0, kappa, theta, xi, rho, curves, currency, frtb_bucket "
     "(volatility is for models black-scholes and merton)"},
    {"bad_heston_missing.json", 1, MCP_ERR_INPUT,
     ":4:5: underlyings[0]: missing field 'xi' (expected a number > 0 and <= 1000)"},
    {"bad_heston_rho.json", 1, MCP_ERR_INPUT,
     ":5:64: underlyings[0].rho: expected a number between -1 and 1, got 1.5"},
    {"bad_merton_lambda.json", 1, MCP_ERR_INPUT,
     ":5:17: underlyings[0].lambda: expected a number of jumps a year between 0 and 1000, "
     "got -1"},
    {"bad_curve_unsorted.json", 1, MCP_ERR_INPUT,
     ":5:42: underlyings[0].curves.rate.end[1]: expected strictly increasing times, got 0.25"},
    {"bad_curve_length.json", 1, MCP_ERR_INPUT,
     ":5:61: underlyings[0].curves.volatility.value: expected 2 values, one for each end, "
     "got 3"},
    {"bad_curve_value.json", 1, MCP_ERR_INPUT,
     ":5:55: underlyings[0].curves.dividend.value[0]: expected a number between -1 and 1, "
     "got 2"},
    {"bad_curve_and_flat.json", 1, MCP_ERR_INPUT,
     ":4:33: underlyings[0].volatility: expected either a flat volatility or "
     "curves.volatility, not both"},
    {"bad_curve_key.json", 1, MCP_ERR_INPUT,
     ":5:19: underlyings[0].curves.vol: unknown field; expected one of rate, dividend, "
     "volatility, repo"},
    {"bad_heston_vol_curve.json", 1, MCP_ERR_INPUT,
     ":6:33: underlyings[0].curves.volatility: underlying 'H': volatility curve: a Heston "
     "underlying has none"},
    /* correlations */
    {"bad_corr_not_pd.json", 1, MCP_ERR_INPUT,
     ":10:17: correlations[0].matrix: the matrix is not positive definite (its Cholesky "
     "factorisation fails at row 2, 'C')"},
    {"bad_corr_asymmetric.json", 1, MCP_ERR_INPUT,
     ":9:56: correlations[0].matrix[1][0]: expected the value at [0][1] (a symmetric "
     "matrix), got 0.4"},
    {"bad_corr_diagonal.json", 1, MCP_ERR_INPUT,
     ":9:61: correlations[0].matrix[1][1]: expected 1 on the diagonal, got 0.9"},
    {"bad_corr_range.json", 1, MCP_ERR_INPUT,
     ":9:49: correlations[0].matrix[0][1]: expected a correlation between -1 and 1, got 1.2"},
    {"bad_corr_row.json", 1, MCP_ERR_INPUT,
     ":9:55: correlations[0].matrix[1]: expected a row of 2 numbers, one for each "
     "underlying, got 3"},
    {"bad_corr_unknown.json", 1, MCP_ERR_INPUT,
     ":9:28: correlations[0].underlyings[1]: expected the name of an underlying of the "
     "market (or NAME:variance of a Heston one), got \"NOPE\""},
    {"bad_corr_heston.json", 1, MCP_ERR_INPUT,
     ":9:28: correlations[0].underlyings[1]: expected a Black-Scholes, Heston or "
     "local-volatility underlying (only those are correlated), got \"M\""},
    {"bad_corr_variance.json", 1, MCP_ERR_INPUT,
     ":9:28: correlations[0].underlyings[1]: expected NAME:variance of a Heston underlying of "
     "the market, got \"A:variance\""},
    {"bad_corr_rho.json", 1, MCP_ERR_INPUT,
     ":10:17: correlations[0].matrix: matrix[0][1]: expected -0.5, the rho of 'H' (its "
     "spot's and its variance's correlation), got 0.3"},
    /* products */
    {"bad_product.json", 0, MCP_ERR_INPUT,
     ":3:30: trades[0].product: expected one of european, digital, asian, barrier, lookback, "
     "basket, best-of, worst-of, american, himalaya, cliquet, moving-window, bermudan, "
     "autocallable, average-digital, got "
     "\"rainbow\""},
    {"bad_product_key.json", 0, MCP_ERR_INPUT,
     ":4:37: trades[0].fixings: unknown field; expected one of id, product, type, underlying, "
     "strike, maturity, quantity, digital, cash, methods, method (fixings is for products asian, "
     "barrier, lookback, himalaya, cliquet, moving-window, autocallable and average-digital)"},
    {"bad_digital.json", 0, MCP_ERR_INPUT,
     ":3:52: trades[0].digital: expected one of cash-or-nothing, asset-or-nothing, "
     "got \"binary\""},
    {"bad_asset_cash.json", 0, MCP_ERR_INPUT,
     ":4:64: trades[0].cash: expected no cash, as digital is asset-or-nothing, got 5"},
    {"bad_strike_kind.json", 0, MCP_ERR_INPUT,
     ":4:47: trades[0].strike_kind: expected one of fixed, floating, got \"float\""},
    {"bad_floating_strike.json", 0, MCP_ERR_INPUT,
     ":4:44: trades[0].strike: expected no strike, as strike_kind is floating, got 100"},
    {"bad_lookback_fixings.json", 0, MCP_ERR_INPUT,
     ":5:24: trades[0].fixings[1]: expected fixing times not after the maturity, got 1.5"},
    {"bad_barrier_kind.json", 0, MCP_ERR_INPUT,
     ":4:38: trades[0].barrier_kind: expected one of up-and-out, up-and-in, down-and-out, "
     "down-and-in, got \"up-and-away\""},
    {"bad_barrier_missing.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'barrier' (expected a finite number > 0)"},
    {"bad_barrier_rebate.json", 0, MCP_ERR_INPUT,
     ":4:78: trades[0].rebate: expected a finite amount >= 0, got -1"},
    {"bad_barrier_no_fixings.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'fixings' (expected a non-empty array of times or a schedule "
     "object {first, last, count} or {first, last, frequency})"},
    {"bad_empty_fixings.json", 0, MCP_ERR_INPUT,
     ":4:58: trades[0].fixings: expected a non-empty array of times or a schedule object "
     "{first, last, count} or {first, last, frequency}, got an empty array"},
    {"bad_monitoring.json", 0, MCP_ERR_INPUT,
     ":5:21: trades[0].monitoring: expected one of discrete, bgk, bridge, "
     "got \"continuous\""},
    {"bad_bridge_fixings.json", 0, MCP_ERR_INPUT,
     ":5:42: trades[0].fixings: expected no fixings, as bridge monitoring is continuous, "
     "got an array"},
    {"bad_lookback_bridge_fixings.json", 0, MCP_ERR_INPUT,
     ":5:42: trades[0].fixings: expected no fixings, as bridge monitoring is continuous, "
     "got an array"},
    {"bad_lookback_bgk.json", 0, MCP_ERR_INPUT,
     ":4:57: trades[0].monitoring: expected discrete or bridge for a lookback, got \"bgk\""},
    {"bad_bridge_maturity.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'maturity' (expected a time in years > 0 and <= 100)"},
    {"bad_basket_no_assets.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'assets' (expected an array of 2 to 16 underlying "
     "names)"},
    {"bad_basket_underlying.json", 0, MCP_ERR_INPUT,
     ":3:56: trades[0].underlying: unknown field; expected one of id, product, type, strike, "
     "maturity, quantity, assets, weights, methods, method (underlying is for products "
     "european, digital, asian, barrier, lookback, american, cliquet, moving-window, "
     "bermudan, autocallable and average-digital)"},
    {"bad_best_of_weights.json", 0, MCP_ERR_INPUT,
     ":4:7: trades[0].weights: unknown field; expected one of id, product, type, strike, "
     "maturity, quantity, assets, methods, method (weights is for products basket, american "
     "and bermudan)"},
    {"bad_assets_one.json", 0, MCP_ERR_INPUT,
     ":3:67: trades[0].assets: expected an array of 2 to 16 underlying names, got an array"},
    {"bad_assets_twice.json", 0, MCP_ERR_INPUT,
     ":3:76: trades[0].assets[2]: expected a name not listed before (assets[0] has it), "
     "got \"A\""},
    {"bad_weights_count.json", 0, MCP_ERR_INPUT,
     ":4:18: trades[0].weights: expected 3 weights, one for each asset, got 2"},
    /* methods and run settings */
    {"bad_method.json", 0, MCP_ERR_INPUT,
     ":4:63: trades[0].methods[1]: expected one of antithetic, control-variate, qmc, "
     "got \"sobol\""},
    {"bad_method_twice.json", 0, MCP_ERR_INPUT,
     ":2:31: run.methods[1]: expected a method not listed before, got \"qmc\""},
    {"bad_methods_string.json", 0, MCP_ERR_INPUT,
     ":2:23: run.methods: expected an array of method names (antithetic, control-variate, "
     "qmc), got \"qmc\""},
    {"bad_scramblings.json", 0, MCP_ERR_INPUT,
     ":2:47: run.scramblings: expected an integer between 2 and 1024, got 1"},
    {"bad_heston_scheme.json", 0, MCP_ERR_INPUT,
     ":2:29: run.heston_scheme: expected one of qe, euler, got \"milstein\""},
    /* finite differences */
    {"bad_placement.json", 0, MCP_ERR_INPUT,
     ":2:39: run.placement: expected one of auto, registers, local, shared, got \"stack\""},
    {"bad_normals.json", 0, MCP_ERR_INPUT,
     ":2:37: run.normals: expected one of fused, stored, got \"cached\""},
    {"bad_cliquet_best.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'C1': best: expected 0 (all) to 4 periods, got 5"},
    {"bad_cliquet_strike.json", 0, MCP_ERR_INPUT,
     ":3:81: trades[0].strike: unknown field; expected one of id, product, underlying, "
     "maturity, quantity, fixings, notional, best, local_floor, local_cap, global_floor, "
     "global_cap, initial_fixings, past_fixings, methods, method (strike is for products "
     "european, digital, asian, barrier, lookback, basket, best-of, worst-of, american, himalaya, moving-window, bermudan, "
     "autocallable and average-digital)"},
    {"bad_average_digital.json", 0, MCP_ERR_INPUT,
     ":4:22: trades[0].strike_kind: unknown field; expected one of id, product, type, "
     "underlying, strike, maturity, quantity, average, fixings, digital, cash, methods, method "
     "(strike_kind is for products asian and lookback)"},
    {"bad_autocall_initial.json", 0, MCP_ERR_INPUT,
     ":4:47: trades[0].initial_fixings: expected 2 spots, one for each asset, got 1"},
    {"bad_autocall_levels.json", 0, MCP_ERR_INPUT,
     ":4:51: trades[0].autocall_level: expected 3 levels, one for each fixing, got 2"},
    {"bad_autocall_level.json", 0, MCP_ERR_INPUT,
     ":4:50: trades[0].autocall_level[1]: expected a finite level > 0 (a fraction of the "
     "initial spot), or null (not callable), got 0"},
    {"bad_autocall_memory.json", 0, MCP_ERR_INPUT,
     ":4:59: trades[0].memory: expected true or false, got \"yes\""},
    {"bad_autocall_maturity.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'AC': fixings: expected the last observation date at the "
     "maturity, 2, got 1.5"},
    {"bad_autocall_bridge.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'AC': monitoring: bridge watches one underlying; expected "
     "discrete for a worst-of on 2 assets"},
    {"bad_autocall_type.json", 0, MCP_ERR_INPUT,
     ":3:65: trades[0].type: unknown field; expected one of id, product, underlying, strike, "
     "maturity, quantity, fixings, monitoring, assets, notional, initial_fixings, "
     "autocall_level, coupon, coupon_barrier, memory, knock_in, past_fixings, knocked, "
     "methods, method (type is for products european, digital, asian, barrier, lookback, basket, best-of, worst-of, "
     "american, himalaya, moving-window, bermudan and average-digital)"},
    {"bad_cliquet_cap.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'C1': local_cap: expected at least local_floor (0.05), got 0.01"},
    {"bad_window_missing.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'window' (expected an integer from 1 to 62)"},
    {"bad_window_barrier_kind.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'W1': barrier kind: expected up-and-out or down-and-out for a moving window"},
    /* a moving window's barrier kind or rebate, an autocallable's strike or
     * monitoring, mean nothing alone: refused, not dropped */
    {"bad_window_kind_alone.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'barrier' (expected a finite number > 0)"},
    {"bad_window_rebate_alone.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'barrier_kind' (expected one of up-and-out, up-and-in, "
     "down-and-out, down-and-in)"},
    {"bad_autocall_strike_alone.json", 0, MCP_ERR_INPUT,
     ":4:59: trades[0].strike: expected none without a knock_in > 0 (it is the knock-in's), "
     "got 0.9"},
    {"bad_autocall_monitoring_alone.json", 0, MCP_ERR_INPUT,
     ":4:63: trades[0].monitoring: expected none without a knock_in > 0 (it is the "
     "knock-in's), got \"bridge\""},
    {"bad_himalaya_fixings.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'H1': fixings: expected 3, one for each asset, got 2"},
    {"bad_pde_points.json", 0, MCP_ERR_INPUT,
     ":2:61: run.pde.stencil_points: expected 3 or 5, got 4"},
    {"bad_pde_products.json", 0, MCP_ERR_INPUT,
     ":2:46: run.pde.products[1]: expected european, barrier or american (the products the "
     "PDE prices), got \"digital\""},
    {"bad_pde_key.json", 0, MCP_ERR_INPUT,
     ":2:21: run.pde.nodes: unknown field; expected one of scheme, stencil_points, "
     "space_points, time_steps, rannacher, width, stencil, coarsening, products"},
    {"bad_engine.json", 0, MCP_ERR_INPUT,
     ":4:47: trades[0].method: expected one of mc, pde, analytic, got \"fd\""},
    {"bad_bermudan_dates.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: missing field 'exercise_dates' (expected a non-empty array of times or a "
     "schedule object {first, last, count} or {first, last, frequency})"},
    {"bad_exercise_payoff.json", 0, MCP_ERR_INPUT,
     ":4:32: trades[0].payoff: expected no payoff on one underlying (it is for assets), got "
     "\"best-of\""},
    {"bad_exercises.json", 0, MCP_ERR_INPUT,
     ":4:35: trades[0].exercises: expected an integer from 1 to 10000, got 0"},
    {"bad_regression_paths.json", 0, MCP_ERR_INPUT,
     ":2:32: run.regression_paths: expected an integer from 256 to 16777216, got 100"},
    {"bad_bermudan_maturity.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'B1': exercise dates (fixings): expected the last at the "
     "maturity, 2, got 1"},
    {"bad_american_methods.json", 0, MCP_ERR_INPUT,
     ":3:5: trades[0]: trade 'T1': methods: american has no control variate"},
};

static void test_bad_file(void **state)
{
  const bad_case *c = *state;
  char path[512], err[512] = "", expected[512];
  snprintf(path, sizeof path, DATA "%s", c->file);
  snprintf(expected, sizeof expected, "%s%s", c->file, c->message);
  if (c->market) {
    mcp_market *m = (void *)err; /* anything but NULL, to see it cleared */
    assert_int_equal(mcp_market_load(&m, path, err, sizeof err), c->status);
    assert_null(m);
    assert_int_equal(mcp_market_load(&m, path, NULL, 0), c->status);
  } else {
    mcp_portfolio *p = (void *)err;
    assert_int_equal(mcp_portfolio_load(&p, path, err, sizeof err), c->status);
    assert_null(p);
    assert_int_equal(mcp_portfolio_load(&p, path, NULL, 0), c->status);
  }
  if (!strstr(err, expected))
    fail_msg("message \"%s\" lacks \"%s\"", err, expected);
}

static void test_short_buffer(void **state)
{
  mcp_portfolio *p = NULL;
  char err[12];
  memset(err, 'x', sizeof err);
  assert_int_equal(mcp_portfolio_load(&p, DATA "bad_wrong_type.json", err, sizeof err),
                   MCP_ERR_INPUT);
  assert_int_equal(strlen(err), sizeof err - 1);
  assert_int_equal(mcp_portfolio_load(NULL, DATA "good_book.json", err, sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_load(&p, NULL, err, sizeof err), MCP_ERR_ARGUMENT);
  assert_null(p);
}

/* Line 1: {"a": [10, {"k\u0065y": "v"}],   line 2:   "b": {"c": -2.5e1}} */
static const char text[] = "{\"a\": [10, {\"k\\u0065y\": \"v\"}],\n  \"b\": {\"c\": -2.5e1}}";

static void expect_at(const mcpi_json_path *path, int at_key, int line, int column,
                      const char *value)
{
  mcpi_json_pos pos;
  assert_true(mcpi_json_locate(text, strlen(text), path, at_key, &pos));
  assert_int_equal(pos.line, line);
  assert_int_equal(pos.column, column);
  assert_int_equal(pos.end - pos.offset, strlen(value));
  assert_memory_equal(text + pos.offset, value, strlen(value));
}

static void test_locate(void **state)
{
  const mcpi_json_path a = {NULL, "a", 0}, a1 = {&a, NULL, 1}, key = {&a1, "key", 0};
  const mcpi_json_path b = {NULL, "b", 0}, c = {&b, "c", 0};
  mcpi_json_pos pos;
  expect_at(NULL, 0, 1, 1, text);
  expect_at(&a, 0, 1, 7, "[10, {\"k\\u0065y\": \"v\"}]");
  expect_at(&a, 1, 1, 2, "\"a\"");
  expect_at(&(mcpi_json_path){&a, NULL, 0}, 0, 1, 8, "10");
  expect_at(&key, 0, 1, 25, "\"v\"");  /* the name matches once decoded */
  expect_at(&key, 1, 1, 13, "\"k\\u0065y\"");
  expect_at(&c, 0, 2, 14, "-2.5e1");
  assert_false(mcpi_json_locate(text, strlen(text), &(mcpi_json_path){&a, NULL, 2}, 0, &pos));
  assert_false(mcpi_json_locate(text, strlen(text), &(mcpi_json_path){&b, "d", 0}, 0, &pos));
  assert_false(mcpi_json_locate(text, strlen(text), &(mcpi_json_path){&c, "e", 0}, 0, &pos));

  char buf[64];
  mcpi_json_path_format(&key, buf, sizeof buf);
  assert_string_equal(buf, "a[1].key");
  mcpi_json_path_format(NULL, buf, sizeof buf);
  assert_string_equal(buf, "");
  mcpi_json_path_format(&key, buf, 4);
  assert_string_equal(buf, "a[1");
}

static void test_path_at(void **state)
{
  char buf[64];
  mcpi_json_pos pos;
  size_t number_end = (size_t)(strstr(text, "-2.5e1") - text) + 6;
  assert_true(mcpi_json_path_at(text, strlen(text), number_end, buf, sizeof buf, &pos));
  assert_string_equal(buf, "b.c");
  assert_true(pos.line == 2 && pos.column == 14);
  size_t key_end = (size_t)(strstr(text, "y\"") - text) + 2;
  assert_true(mcpi_json_path_at(text, strlen(text), key_end, buf, sizeof buf, &pos));
  assert_string_equal(buf, "a[1].key");
  assert_true(pos.line == 1 && pos.column == 13);
  /* What follows the offset need not be well-formed. */
  static const char cut[] = "[0, {\"x\": 1, \"x\" ,,, [[[[";
  assert_true(mcpi_json_path_at(cut, strlen(cut), 16, buf, sizeof buf, &pos));
  assert_string_equal(buf, "[1].x");
  assert_true(pos.line == 1 && pos.column == 14);
  assert_false(mcpi_json_path_at(text, strlen(text), strlen(text) + 1, buf, sizeof buf, &pos));
}

/* Ids: no control characters of any kind (DEL, C1, the line and paragraph
 * separators too), valid UTF-8, and at most 128 characters, not bytes. */
static void test_id_characters(void **state)
{
  (void)state;
  static const struct {
    const char *id;
    int ok;
  } cases[] = {
      {"a\x7f" "b", 0},         /* DEL */
      {"a\xc2\x85" "b", 0},     /* NEL, a C1 control */
      {"a\xc2\x9f" "b", 0},     /* APC, the last C1 */
      {"a\xe2\x80\xa8" "b", 0}, /* LINE SEPARATOR */
      {"a\xe2\x80\xa9" "b", 0}, /* PARAGRAPH SEPARATOR */
      {"a\xc2\xa0" "b", 1},     /* NO-BREAK SPACE: printable */
      {"caf\xc3\xa9", 1},
  };
  char text[2048], err[512];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(text, sizeof text,
             "{\"trades\": [{\"id\": \"%s\", \"product\": \"european\", \"type\": \"call\", "
             "\"underlying\": \"ACME\", \"strike\": 100, \"maturity\": 1}]}",
             cases[i].id);
    mcp_portfolio *p = NULL;
    mcp_status st = mcp_portfolio_load_text(&p, "ids.json", text, strlen(text), err, sizeof err);
    if (cases[i].ok ? st != MCP_OK : st != MCP_ERR_INPUT || !strstr(err, "control characters"))
      fail_msg("id %zu: status %d, %s", i, st, st == MCP_OK ? "accepted" : err);
    mcp_portfolio_destroy(p);
  }
  /* 128 two-byte characters are 128 characters; 129 are too many */
  for (int n = 128; n <= 129; n++) {
    char id[600] = "";
    for (int k = 0; k < n; k++)
      strcat(id, "\xc3\xa9");
    mcp_portfolio *p = NULL;
    assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
    mcp_status st = mcp_portfolio_add_european(p, id, "ACME", MCP_CALL, 100, 1, 1);
    if (n == 128 ? st != MCP_OK : st != MCP_ERR_ARGUMENT)
      fail_msg("%d characters: status %d: %s", n, st, mcp_portfolio_last_error(p));
    if (n == 129)
      assert_non_null(strstr(mcp_portfolio_last_error(p), "at most 128 characters"));
    mcp_portfolio_destroy(p);
  }
  /* not UTF-8 (through the API, which no JSON reader checked) */
  mcp_portfolio *p = NULL;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "caf\xe9", "ACME", MCP_CALL, 100, 1, 1),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "UTF-8"));
  mcp_portfolio_destroy(p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_good_market), cmocka_unit_test(test_good_local_vol),
      cmocka_unit_test(test_good_cash_dividends),
      cmocka_unit_test(test_good_book),
      cmocka_unit_test(test_good_models), cmocka_unit_test(test_good_products),
      cmocka_unit_test(test_large_portfolio),
      cmocka_unit_test(test_good_price),  cmocka_unit_test(test_examples),
      cmocka_unit_test(test_short_buffer),
      cmocka_unit_test(test_locate),      cmocka_unit_test(test_path_at),
      cmocka_unit_test(test_id_characters),
  };
  enum { NBAD = sizeof bad_cases / sizeof *bad_cases };
  struct CMUnitTest bad[NBAD];
  for (size_t i = 0; i < NBAD; i++)
    bad[i] = (struct CMUnitTest){bad_cases[i].file, test_bad_file, NULL, NULL,
                                 (void *)&bad_cases[i]};
  int failed = cmocka_run_group_tests_name("input", tests, NULL, NULL);
  return failed + _cmocka_run_group_tests("bad input files", bad, NBAD, NULL, NULL);
}
