/* test_input.c: reading market and portfolio files, the messages of bad
 * ones, and the JSON locator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json_locate.h"
#include "market.h"
#include "portfolio.h"

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

static void test_examples(void **state)
{
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  char err[256] = "";
  assert_int_equal(mcp_market_load(&m, SRCDIR "/examples/market.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_market_size(m), 3);
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
    {"bad_schedule_maturity.json", 0, MCP_ERR_INPUT,
     ":5:42: trades[0].fixings.last: expected fixing times not after the maturity, got 2"},
    {"bad_duplicate_id.json", 0, MCP_ERR_INPUT,
     ":5:13: trades[1].id: expected an id not taken (trades[0] has it), got \"T1\""},
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
     ":2:40: run.precision: expected one of double, float, got \"half\""},
    {"bad_paths_fraction.json", 0, MCP_ERR_INPUT,
     ":3:14: run.paths: expected an integer between 2 and 2^40, got 1.5"},
    {"bad_paths_string.json", 0, MCP_ERR_INPUT,
     ":3:14: run.paths: expected an integer between 2 and 2^40, got \"100\""},
    {"bad_seed_overflow.json", 0, MCP_ERR_INPUT, ":2:20: run.seed: too big integer"},
    {"bad_grid.json", 0, MCP_ERR_INPUT,
     ":2:26: run.grid[1]: expected strictly increasing times, got 0.25"},
    {"bad_empty_trades.json", 0, MCP_ERR_INPUT,
     ":3:13: trades: expected a non-empty array of trades, got an empty array"},
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

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_good_market), cmocka_unit_test(test_good_book),
      cmocka_unit_test(test_examples),    cmocka_unit_test(test_short_buffer),
      cmocka_unit_test(test_locate),      cmocka_unit_test(test_path_at),
  };
  enum { NBAD = sizeof bad_cases / sizeof *bad_cases };
  struct CMUnitTest bad[NBAD];
  for (size_t i = 0; i < NBAD; i++)
    bad[i] = (struct CMUnitTest){bad_cases[i].file, test_bad_file, NULL, NULL,
                                 (void *)&bad_cases[i]};
  int failed = cmocka_run_group_tests_name("input", tests, NULL, NULL);
  return failed + _cmocka_run_group_tests("bad input files", bad, NBAD, NULL, NULL);
}
