/* test_csv_book.c: a book of trades as CSV (mcp_portfolio_load of a .csv
 * name): the same trades, to the bit, as its JSON; each kind of cell
 * (arrays, schedules by count and by frequency, JSON, quoted fields,
 * CRLF, a byte-order mark, blank lines); the run's settings from a CSV
 * book; and the errors, each naming the file, row and column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/mc_check.h"

static const char market_text[] =
    "{\"valuation_date\": \"2026-11-30\", \"rate\": 0.03, \"underlyings\": [\n"
    " {\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2},\n"
    " {\"name\": \"B\", \"spot\": 50, \"volatility\": 0.3}]}";

static mcp_market *dated_market(void)
{
  mcp_market *m = NULL;
  char err[512];
  if (mcp_market_load_text(&m, "market.json", market_text, strlen(market_text), err,
                           sizeof err) != MCP_OK)
    fail_msg("%s", err);
  return m;
}

static mcp_portfolio *load(const mcp_market *m, const char *name, const char *text)
{
  mcp_portfolio *p = NULL;
  char err[512];
  if (mcp_portfolio_load_text_for(&p, m, name, text, strlen(text), err, sizeof err) != MCP_OK)
    fail_msg("%s: %s", name, err);
  return p;
}

/* The CSV and the JSON of the same book price to the same bits. */
static void test_same_as_json(void **state)
{
  static const char csv[] =
      "\xEF\xBB\xBFid,product,type,underlying,strike,maturity,quantity,fixings,average,"
      "assets,weights,barrier_kind,barrier,monitoring,method\r\n"
      "E,european,call,A,100,1,2,,,,,,,,\r\n"
      "\r\n"
      "AS,asian,put,A,95,,,0.25..1/4,arithmetic,,,,,,\r\n"
      "AM,asian,call,A,100,,,2027-02-28..2027-11-30/quarterly,geometric,,,,,,\r\n"
      "BK,basket,call,,60,1,,,,A;B,0.25;1,,,,\r\n"
      "DO,barrier,call,B,50,0.5,-1,,,,,down-and-out,40,bridge,\r\n"
      "Q,european,put,A,90,\"0.75\",,,,,,,,,analytic\r\n"
      "J,asian,call,B,50,,,\"{\"\"first\"\": 0.5, \"\"last\"\": 1, \"\"count\"\": 2}\","
      "arithmetic,,,,,,\r\n";
  static const char json[] =
      "{\"trades\": [\n"
      " {\"id\": \"E\", \"product\": \"european\", \"type\": \"call\", \"underlying\": \"A\",\n"
      "  \"strike\": 100, \"maturity\": 1, \"quantity\": 2},\n"
      " {\"id\": \"AS\", \"product\": \"asian\", \"type\": \"put\", \"underlying\": \"A\",\n"
      "  \"strike\": 95, \"fixings\": {\"first\": 0.25, \"last\": 1, \"count\": 4},\n"
      "  \"average\": \"arithmetic\"},\n"
      " {\"id\": \"AM\", \"product\": \"asian\", \"type\": \"call\", \"underlying\": \"A\",\n"
      "  \"strike\": 100, \"fixings\": {\"first\": \"2027-02-28\", \"last\": \"2027-11-30\",\n"
      "  \"frequency\": \"quarterly\"}, \"average\": \"geometric\"},\n"
      " {\"id\": \"BK\", \"product\": \"basket\", \"type\": \"call\", \"assets\": [\"A\", \"B\"],\n"
      "  \"weights\": [0.25, 1], \"strike\": 60, \"maturity\": 1},\n"
      " {\"id\": \"DO\", \"product\": \"barrier\", \"type\": \"call\", \"underlying\": \"B\",\n"
      "  \"strike\": 50, \"maturity\": 0.5, \"quantity\": -1, \"barrier_kind\": \"down-and-out\",\n"
      "  \"barrier\": 40, \"monitoring\": \"bridge\"},\n"
      " {\"id\": \"Q\", \"product\": \"european\", \"type\": \"put\", \"underlying\": \"A\",\n"
      "  \"strike\": 90, \"maturity\": 0.75, \"method\": \"analytic\"},\n"
      " {\"id\": \"J\", \"product\": \"asian\", \"type\": \"call\", \"underlying\": \"B\",\n"
      "  \"strike\": 50, \"fixings\": {\"first\": 0.5, \"last\": 1, \"count\": 2},\n"
      "  \"average\": \"arithmetic\"}]}";
  mcp_market *m = dated_market();
  mcp_portfolio *a = load(m, "book.csv", csv), *b = load(m, "book.json", json);
  assert_int_equal(mcp_portfolio_size(a), 7);
  assert_int_equal(mcp_portfolio_set_paths(a, 4000), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(b, 4000), MCP_OK);
  mcp_results *ra = price(*state, m, a), *rb = price(*state, m, b);
  mcp_estimate x[8], y[8];
  assert_int_equal(snapshot(ra, x, 8), 8);
  assert_int_equal(snapshot(rb, y, 8), 8);
  assert_same_bits("CSV and JSON", x, y, 8);
  int line, column; /* each trade's row: the header, E, a blank line, AS, ... */
  assert_int_equal(mcp_portfolio_trade_source(a, 1, &line, &column), MCP_OK);
  assert_int_equal(line, 4);
  assert_int_equal(column, 1);
  mcp_results_destroy(ra);
  mcp_results_destroy(rb);
  mcp_portfolio_destroy(a);
  mcp_portfolio_destroy(b);
  /* a CSV book gives no run settings: the defaults */
  mcp_run_options *o = NULL;
  char err[256];
  assert_int_equal(mcp_run_options_load_text(&o, "book.csv", csv, strlen(csv), err, sizeof err),
                   MCP_OK);
  mcp_run_options_destroy(o);
  mcp_market_destroy(m);
}

/* Each error names the file, the row (its first line) and the column. */
static void test_errors(void **state)
{
  (void)state;
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"id,product,type,underlying,strike,maturity\nX,european,call,A,-5,1\n",
       "book.csv: row 2, column strike: expected a finite number >= 0, got -5"},
      {"id,product,type,underlying,strike,maturity,strik\nX,european,call,A,1,1,2\n",
       "book.csv: row 2, column strik: unknown field"},
      {"id,product,type,underlying,strike,maturity\nX,european,call,A,1,1,7\n",
       "book.csv: row 2: expected at most 6 fields (the header's), got 7"},
      {"id,product,type,underlying,strike,fixings,average\nX,asian,call,A,1,0.5;;1,arithmetic\n",
       "book.csv: row 2, column fixings: expected values between the semicolons"},
      {"id,product,type\n\"X,european,call\n", "book.csv: row 2: a quoted field that never ends"},
      {"id,,type\n", "book.csv: row 1, column 2: expected a trade field's name"},
      {"id,type,id\n", "book.csv: row 1, column 3: 'id' given twice"},
      {"id,product,type,underlying,strike,maturity,fixings\nX,asian,call,A,1,1,\"[0.5,\"\n",
       "book.csv: row 2, column fixings: expected a JSON array or object"},
      {"id,product,type,underlying,strike,maturity\nX,european,call,A,1,1\nX,european,call,A,"
       "2,1\n", "book.csv: row 3, column id: "},
      {"id,product,type,underlying,strike\n\nX,european,call,A,1\n",
       "book.csv: row 3: missing field 'maturity'"},
      {"id,product,type,underlying,strike,maturity\nX,european,call,A,\"1\"x,1\n",
       "book.csv: row 2: expected a comma or the end of the line after a quoted field"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    mcp_portfolio *p = NULL;
    char err[512];
    mcp_status st =
        mcp_portfolio_load_text(&p, "book.csv", bad[i].text, strlen(bad[i].text), err, sizeof err);
    if (st != MCP_ERR_INPUT || !strstr(err, bad[i].says))
      fail_msg("case %zu: status %d, '%s' lacks '%s'", i, st, err, bad[i].says);
    assert_null(p);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_same_as_json, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
