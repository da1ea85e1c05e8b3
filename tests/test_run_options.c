/* test_run_options.c: how to run apart from what to price.  The run
 * options' defaults and refusals; a file's run object read into them; a
 * context made with them prices a book without run settings to the bits of
 * the 0.1 path (the same settings on the portfolio), its options win over
 * the portfolio's, and they reach slices, merges and workers; the options
 * that change speed alone leave every bit.  On the CPU, and on the GPU
 * where there is one. */
#define MCP_ALLOW_DEPRECATED /* the 0.1 path, compared against */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "mcprice.h"
#include "tests/same_results.h"

#define TRADES                                                                              \
  "\"trades\": ["                                                                           \
  "{\"id\": \"EC\", \"product\": \"european\", \"type\": \"call\", \"underlying\": \"ACME\", " \
  "\"strike\": 100, \"maturity\": 1.0},"                                                    \
  "{\"id\": \"EP\", \"product\": \"european\", \"type\": \"put\", \"underlying\": \"ACME\", " \
  "\"strike\": 95, \"maturity\": 0.5, \"method\": \"pde\"},"                                \
  "{\"id\": \"AS\", \"product\": \"asian\", \"type\": \"call\", \"underlying\": \"ACME\", "  \
  "\"average\": \"arithmetic\", \"strike\": 100, \"fixings\": {\"first\": 0.25, "           \
  "\"last\": 1.0, \"count\": 4}},"                                                          \
  "{\"id\": \"CL\", \"product\": \"cliquet\", \"underlying\": \"ACME\", \"maturity\": 1.0, "  \
  "\"notional\": 100, \"local_floor\": -0.05, \"local_cap\": 0.05, "                        \
  "\"fixings\": {\"first\": 0.25, \"last\": 1.0, \"count\": 4}},"                           \
  "{\"id\": \"AP\", \"product\": \"american\", \"type\": \"put\", \"underlying\": \"ACME\", " \
  "\"strike\": 100, \"maturity\": 1.0}]"
/* the book with how to run in its run object, and without */
#define HOW                                                                                 \
  "\"precision\": \"float\", \"pde\": {\"space_points\": 201, \"time_steps\": 100, "        \
  "\"coarsening\": 4}"
static const char book_how[] = "{\"run\": {\"paths\": 8192, \"seed\": 11, " HOW "}, " TRADES "}";
static const char book_plain[] = "{\"run\": {\"paths\": 8192, \"seed\": 11}, " TRADES "}";
static const char market_text[] =
    "{\"rate\": 0.03, \"underlyings\": [{\"name\": \"ACME\", \"model\": \"black-scholes\", "
    "\"spot\": 100, \"dividend\": 0.01, \"volatility\": 0.2}]}";

static mcp_backend backends[2] = {MCP_BACKEND_CPU, MCP_BACKEND_CUDA};

static int nbackends(void) { return mcp_device_count() > 0 ? 2 : 1; }

static mcp_portfolio *book(const char *text)
{
  mcp_portfolio *p = NULL;
  char err[512];
  assert_int_equal(mcp_portfolio_load_text(&p, "book", text, strlen(text), err, sizeof err),
                   MCP_OK);
  return p;
}

static mcp_run_options *options_of(const char *text)
{
  mcp_run_options *o = NULL;
  char err[512];
  mcp_status st = mcp_run_options_load_text(&o, "book", text, strlen(text), err, sizeof err);
  if (st != MCP_OK)
    fail_msg("%s", err);
  return o;
}

static mcp_market *market(void)
{
  mcp_market *m = NULL;
  char err[512];
  assert_int_equal(mcp_market_load_text(&m, "market", market_text, strlen(market_text), err,
                                        sizeof err),
                   MCP_OK);
  return m;
}

static mcp_results *price(mcp_context *c, const mcp_market *m, const mcp_portfolio *p)
{
  mcp_results *r = NULL;
  if (mcp_price(c, m, p, &r) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(c));
  return r;
}

static void assert_same(const mcp_results *a, const mcp_results *b)
{
  char msg[512];
  if (!same_results(a, b, msg, sizeof msg))
    fail_msg("%s", msg);
}

static void assert_differ(const mcp_results *a, const mcp_results *b)
{
  char msg[512];
  assert_false(same_results(a, b, msg, sizeof msg));
}

static void defaults(void **state)
{
  (void)state;
  mcp_run_options *o;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_backend(o), MCP_BACKEND_AUTO);
  assert_int_equal(mcp_run_options_precision(o), MCP_DOUBLE);
  assert_int_equal(mcp_run_options_normals(o), MCP_NORMALS_FUSED);
  assert_int_equal(mcp_run_options_placement(o), MCP_PLACEMENT_AUTO);
  assert_int_equal(mcp_run_options_devices(o, NULL, 0), 0);
  assert_int_equal(mcp_run_options_tile_paths(o), 0);
  assert_int_equal(mcp_run_options_block_size(o), 128);
  mcp_prefetch s;
  int d, pad;
  mcp_run_options_prefetch(o, &s, &d, &pad);
  assert_int_equal(s, MCP_PREFETCH_NONE);
  assert_int_equal(d, 4);
  assert_int_equal(pad, 0);
  mcp_pde_settings a, b;
  mcp_run_options_pde(o, &a);
  mcp_pde_settings_init(&b);
  assert_true(a.scheme == b.scheme && a.stencil_points == b.stencil_points &&
              a.space_points == b.space_points && a.time_steps == b.time_steps &&
              a.rannacher == b.rannacher && a.width == b.width && a.stencil == b.stencil &&
              a.coarsening == b.coarsening);
  mcp_run_options_destroy(o);
  mcp_run_options_destroy(NULL);
}

/* Each bad value refused with the option's name, the options unchanged. */
static void refusals(void **state)
{
  (void)state;
  mcp_run_options *o;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_precision(o, MCP_FLOAT), MCP_OK);
  assert_int_equal(mcp_run_options_set_precision(o, (mcp_precision)7), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "precision"));
  assert_int_equal(mcp_run_options_precision(o), MCP_FLOAT);
  assert_int_equal(mcp_run_options_set_backend(o, (mcp_backend)9), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "backend"));
  assert_int_equal(mcp_run_options_set_normals(o, (mcp_normals)5), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "normals"));
  assert_int_equal(mcp_run_options_set_placement(o, (mcp_placement)-1), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "placement"));
  assert_int_equal(mcp_run_options_set_prefetch(o, MCP_PREFETCH_SMEM_ROLLING, 3, 0),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "distance"));
  assert_int_equal(mcp_run_options_set_tile_paths(o, 1000), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "tile"));
  assert_int_equal(mcp_run_options_set_block_size(o, 100), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "block"));
  int negative[1] = {-1};
  assert_int_equal(mcp_run_options_set_devices(o, 1, negative), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_run_options_set_devices(o, 0, negative), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_run_options_devices(o, NULL, 0), 0);
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  s.space_points = 3;
  assert_int_equal(mcp_run_options_set_pde(o, &s), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "pde.space_points"));
  assert_int_equal(mcp_run_options_set_pde(o, NULL), MCP_ERR_ARGUMENT);
  mcp_run_options_pde(o, &s);
  assert_int_equal(s.space_points, 401);
  /* NULL handles */
  assert_int_equal(mcp_run_options_create(NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_run_options_set_precision(NULL, MCP_FLOAT), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_context_set_options(NULL, o), MCP_ERR_ARGUMENT);
  mcp_context *c, *none = (mcp_context *)1;
  char err[512] = "";
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_context_set_options(c, NULL), MCP_ERR_ARGUMENT);
  mcp_context_destroy(c);
  assert_int_equal(mcp_context_create_with_options(&none, NULL, err, sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_null(none);
  assert_non_null(strstr(err, "options is NULL"));
  assert_int_equal(mcp_context_create_with_options(NULL, o, NULL, 0), MCP_ERR_ARGUMENT);
  mcp_run_options_destroy(o);
}

static void from_files(void **state)
{
  (void)state;
  mcp_run_options *o = NULL;
  char err[512];
  /* the example book's run object: its backend and grid */
  assert_int_equal(mcp_run_options_load(&o, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  mcp_pde_settings s;
  mcp_run_options_pde(o, &s);
  assert_int_equal(s.space_points, 801);
  assert_int_equal(s.time_steps, 800);
  assert_int_equal(mcp_run_options_precision(o), MCP_DOUBLE);
  mcp_run_options_destroy(o);
  /* a file of run options alone */
  o = options_of("{\"run\": {\"precision\": \"float\", \"prefetch\": \"smem-rolling\", "
                 "\"prefetch_distance\": 8, \"padding\": \"interleaved\", \"placement\": "
                 "\"local\", \"normals\": \"stored\", \"backend\": \"cpu\", \"paths\": 1000}}");
  assert_int_equal(mcp_run_options_precision(o), MCP_FLOAT);
  assert_int_equal(mcp_run_options_placement(o), MCP_PLACEMENT_LOCAL);
  assert_int_equal(mcp_run_options_normals(o), MCP_NORMALS_STORED);
  assert_int_equal(mcp_run_options_backend(o), MCP_BACKEND_CPU);
  mcp_prefetch st;
  int d, pad;
  mcp_run_options_prefetch(o, &st, &d, &pad);
  assert_int_equal(st, MCP_PREFETCH_SMEM_ROLLING);
  assert_int_equal(d, 8);
  assert_int_equal(pad, MCP_PADDING_INTERLEAVED);
  mcp_run_options_destroy(o);
  /* no run object: nothing given */
  o = options_of("{\"trades\": []}");
  assert_int_equal(mcp_run_options_precision(o), MCP_DOUBLE);
  mcp_run_options_destroy(o);
  /* bad files: the file, the field and what was expected */
  static const struct { const char *text, *want; mcp_status st; } bad[] = {
      {"{\"run\": {\"precision\": \"half\"}}", "book:1:23: run.precision", MCP_ERR_INPUT},
      {"{\"run\": {\"colour\": 1}}", "run.colour: unknown field", MCP_ERR_INPUT},
      {"{\"run\": {\"pde\": {\"space_points\": 2}}}", "run.pde.space_points", MCP_ERR_INPUT},
      {"{\"run\": 3}", "expected an object of run settings", MCP_ERR_INPUT},
      {"{\"runs\": {}}", "runs: unknown field", MCP_ERR_INPUT},
      {"[1, 2]", "expected a portfolio object", MCP_ERR_INPUT},
      {"{\"run\": ", "book", MCP_ERR_PARSE}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    o = (mcp_run_options *)1;
    err[0] = '\0';
    assert_int_equal(mcp_run_options_load_text(&o, "book", bad[i].text, strlen(bad[i].text),
                                               err, sizeof err),
                     bad[i].st);
    assert_null(o);
    if (!strstr(err, bad[i].want))
      fail_msg("%s: message \"%s\" lacks \"%s\"", bad[i].text, err, bad[i].want);
  }
  assert_int_equal(mcp_run_options_load(&o, SRCDIR "/no/such/file.json", err, sizeof err),
                   MCP_ERR_IO);
  assert_non_null(strstr(err, "no/such/file.json"));
  assert_int_equal(mcp_run_options_load(NULL, "x", err, sizeof err), MCP_ERR_ARGUMENT);
}

/* A book and its run object's options from one parse: the separate loads'
 * portfolio and options; an error of either kind, the separate loads'
 * message and neither made. */
static void with_the_book(void **state)
{
  (void)state;
  char err[512], err2[512];
  mcp_portfolio *p = NULL, *q = NULL;
  mcp_run_options *o = NULL, *r = NULL;
  mcp_market *m = market();
  assert_int_equal(mcp_portfolio_load_with_options(&p, &o, m, SRCDIR "/examples/book.json", err,
                                                   sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_load_for(&q, m, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_run_options_load(&r, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_size(p), mcp_portfolio_size(q));
  assert_true(mcp_portfolio_size(p) > 10);
  for (size_t i = 0; i < mcp_portfolio_size(p); i++)
    assert_string_equal(mcp_portfolio_trade_id(p, i), mcp_portfolio_trade_id(q, i));
  assert_int_equal(mcp_portfolio_paths(p), mcp_portfolio_paths(q));
  mcp_pde_settings a, b;
  mcp_run_options_pde(o, &a);
  mcp_run_options_pde(r, &b);
  assert_int_equal(a.space_points, 801);
  assert_memory_equal(&a, &b, sizeof a);
  mcp_portfolio_destroy(p);
  mcp_run_options_destroy(o);
  /* the same prices from either pair (the book of run options here) */
  assert_int_equal(mcp_portfolio_load_text_with_options(&p, &o, m, "book", book_how,
                                                        strlen(book_how), err, sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_run_options_precision(o), MCP_FLOAT);
  mcp_context *c, *d;
  assert_int_equal(mcp_context_create_with_options(&c, o, err, sizeof err), MCP_OK);
  mcp_run_options_destroy(r);
  r = options_of(book_how);
  assert_int_equal(mcp_context_create_with_options(&d, r, err, sizeof err), MCP_OK);
  mcp_portfolio_destroy(q);
  q = book(book_how);
  mcp_results *x = price(c, m, p), *y = price(d, m, q);
  assert_same(x, y);
  mcp_results_destroy(x);
  mcp_results_destroy(y);
  mcp_context_destroy(c);
  mcp_context_destroy(d);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
  mcp_run_options_destroy(o);
  mcp_run_options_destroy(r);
  /* a bad trade, a bad run option, bad JSON, no file: the separate loads'
   * messages, nothing made */
  static const char *const bad[] = {
      "{\"trades\": [{\"id\": \"x\", \"product\": \"european\"}]}",
      "{\"run\": {\"precision\": \"half\"}, \"trades\": [{\"id\": \"e\", \"product\": "
      "\"european\", \"underlying\": \"A\", \"type\": \"call\", \"strike\": 100, "
      "\"maturity\": 1}]}",
      "{\"run\": "};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    p = (mcp_portfolio *)1;
    o = (mcp_run_options *)1;
    mcp_status st = mcp_portfolio_load_text_with_options(&p, &o, m, "book", bad[i],
                                                         strlen(bad[i]), err, sizeof err);
    assert_true(st == MCP_ERR_INPUT || st == MCP_ERR_PARSE);
    assert_null(p);
    assert_null(o);
    mcp_status want = mcp_portfolio_load_text_for(&q, m, "book", bad[i], strlen(bad[i]), err2,
                                                  sizeof err2);
    if (want == MCP_OK) {
      mcp_portfolio_destroy(q);
      want = mcp_run_options_load_text(&r, "book", bad[i], strlen(bad[i]), err2, sizeof err2);
    }
    assert_int_equal(st, want);
    assert_string_equal(err, err2);
  }
  assert_int_equal(mcp_portfolio_load_with_options(&p, &o, m, SRCDIR "/no/such.json", err,
                                                   sizeof err),
                   MCP_ERR_IO);
  assert_null(o);
  assert_int_equal(mcp_portfolio_load_with_options(&p, NULL, m, SRCDIR "/examples/book.json",
                                                   err, sizeof err),
                   MCP_ERR_ARGUMENT);
  mcp_market_destroy(m);
}

/* The options on the context price a book without run settings to the bits
 * of the 0.1 path (the same settings in the portfolio's file), and change its
 * prices (float paths, a coarser grid); the context's win over the file's. */
static void context_path(void **state)
{
  (void)state;
  mcp_market *m = market();
  mcp_portfolio *how = book(book_how), *plain = book(book_plain);
  for (int b = 0; b < nbackends(); b++) {
    mcp_context *c0, *c1, *c2;
    assert_int_equal(mcp_context_create(&c0, backends[b]), MCP_OK);
    mcp_run_options *o = options_of(book_how);
    assert_int_equal(mcp_run_options_set_backend(o, backends[b]), MCP_OK);
    assert_int_equal(mcp_context_create_with_options(&c1, o, NULL, 0), MCP_OK);
    assert_int_equal(mcp_context_backend(c1), backends[b]);
    mcp_results *legacy = price(c0, m, how), *opts = price(c1, m, plain),
                *base = price(c0, m, plain);
    assert_same(legacy, opts);
    assert_differ(opts, base);
    /* given on the context, double and the default grid win over the file's */
    mcp_run_options *back;
    mcp_pde_settings s;
    mcp_pde_settings_init(&s);
    assert_int_equal(mcp_run_options_create(&back), MCP_OK);
    assert_int_equal(mcp_run_options_set_precision(back, MCP_DOUBLE), MCP_OK);
    assert_int_equal(mcp_run_options_set_pde(back, &s), MCP_OK);
    assert_int_equal(mcp_context_create(&c2, backends[b]), MCP_OK);
    assert_int_equal(mcp_context_set_options(c2, back), MCP_OK);
    mcp_results *over = price(c2, m, how);
    assert_same(over, base);
    /* options given later replace those given before, the others stay */
    assert_int_equal(mcp_context_set_options(c2, o), MCP_OK);
    mcp_results *again = price(c2, m, plain);
    assert_same(again, opts);
    mcp_results_destroy(again);
    mcp_results_destroy(over);
    mcp_results_destroy(legacy);
    mcp_results_destroy(opts);
    mcp_results_destroy(base);
    mcp_run_options_destroy(back);
    mcp_run_options_destroy(o);
    mcp_context_destroy(c0);
    mcp_context_destroy(c1);
    mcp_context_destroy(c2);
  }
  mcp_portfolio_destroy(how);
  mcp_portfolio_destroy(plain);
  mcp_market_destroy(m);
}

/* The options that change speed alone (prefetch, normals, placement, tiles,
 * blocks) leave every bit. */
static void speed_alone(void **state)
{
  (void)state;
  mcp_market *m = market();
  mcp_portfolio *p = book(book_plain);
  for (int b = 0; b < nbackends(); b++) {
    mcp_context *c0, *c1;
    mcp_run_options *o;
    assert_int_equal(mcp_context_create(&c0, backends[b]), MCP_OK);
    assert_int_equal(mcp_run_options_create(&o), MCP_OK);
    assert_int_equal(mcp_run_options_set_backend(o, backends[b]), MCP_OK);
    /* the default distance: a build without --enable-tuning-kernels has no other */
    assert_int_equal(mcp_run_options_set_prefetch(o, MCP_PREFETCH_SMEM_ROLLING, 4, 1), MCP_OK);
    assert_int_equal(mcp_run_options_set_normals(o, MCP_NORMALS_STORED), MCP_OK);
    assert_int_equal(mcp_run_options_set_placement(o, MCP_PLACEMENT_SHARED), MCP_OK);
    assert_int_equal(mcp_run_options_set_tile_paths(o, 2048), MCP_OK);
    assert_int_equal(mcp_run_options_set_block_size(o, 64), MCP_OK);
    assert_int_equal(mcp_context_create_with_options(&c1, o, NULL, 0), MCP_OK);
    mcp_results *a = price(c0, m, p), *x = price(c1, m, p);
    assert_same(a, x);
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    mcp_run_options_destroy(o);
    mcp_context_destroy(c0);
    mcp_context_destroy(c1);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A context refuses options it cannot take, and stays as it was. */
static void context_refusals(void **state)
{
  (void)state;
  mcp_market *m = market();
  mcp_portfolio *p = book(book_plain);
  mcp_context *c;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  mcp_results *before = price(c, m, p);
  mcp_run_options *o;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_precision(o, MCP_FLOAT), MCP_OK);
  assert_int_equal(mcp_run_options_set_backend(o, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_context_set_options(c, o), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_context_last_error(c), "cuda"));
  assert_non_null(strstr(mcp_context_last_error(c), "cpu"));
  if (mcp_device_count() == 0) {
    mcp_context *g = (mcp_context *)1;
    char err[512] = "";
    assert_int_equal(mcp_context_create_with_options(&g, o, err, sizeof err),
                     MCP_ERR_UNAVAILABLE);
    assert_null(g);
    assert_non_null(strstr(err, "backend cuda"));
  }
  mcp_run_options_destroy(o);
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_precision(o, MCP_FLOAT), MCP_OK);
  int one[1] = {1}; /* the CPU backend has device 0 alone */
  assert_int_equal(mcp_run_options_set_devices(o, 1, one), MCP_OK);
  assert_int_equal(mcp_context_set_options(c, o), MCP_ERR_NOT_FOUND);
  assert_non_null(strstr(mcp_context_last_error(c), "devices"));
  /* made with them, the context's refusal reaches the caller */
  mcp_context *made = (mcp_context *)1;
  char err[512] = "";
  assert_int_equal(mcp_run_options_set_backend(o, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_context_create_with_options(&made, o, err, sizeof err),
                   MCP_ERR_NOT_FOUND);
  assert_null(made);
  assert_non_null(strstr(err, "devices: expected 0"));
  mcp_results *after = price(c, m, p);
  assert_same(before, after);
  mcp_results_destroy(before);
  mcp_results_destroy(after);
  mcp_run_options_destroy(o);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Slices priced with the options merge to the whole run's bits on a
 * context of the same options, and are refused by one without them (their
 * precision and grid decide the prices); workers take the options too. */
static void slices_and_workers(void **state)
{
  (void)state;
  mcp_market *m = market();
  mcp_portfolio *p = book(book_plain);
  mcp_run_options *o = options_of(book_how);
  mcp_context *c, *plain;
  assert_int_equal(mcp_run_options_set_backend(o, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_context_create_with_options(&c, o, NULL, 0), MCP_OK);
  assert_int_equal(mcp_context_create(&plain, MCP_BACKEND_CPU), MCP_OK);
  mcp_results *whole = price(c, m, p), *merged = NULL;
  mcp_partial *part[3];
  for (unsigned k = 0; k < 3; k++)
    assert_int_equal(mcp_price_slice(c, m, p, NULL, NULL, k, 3, &part[k]), MCP_OK);
  assert_int_equal(mcp_partials_merge(c, m, p, NULL, NULL, part, 3,
                                      &merged, NULL),
                   MCP_OK);
  assert_same(whole, merged);
  mcp_results_destroy(merged);
  merged = NULL;
  assert_int_equal(mcp_partials_merge(plain, m, p, NULL, NULL, part,
                                      3, &merged, NULL),
                   MCP_ERR_INPUT);
  assert_null(merged);
  for (unsigned k = 0; k < 3; k++)
    mcp_partial_destroy(part[k]);
  int twice[2] = {0, 0};
  mcp_results *spread;
  assert_int_equal(mcp_run_options_set_devices(o, 2, twice), MCP_OK);
  assert_int_equal(mcp_context_set_options(c, o), MCP_OK);
  spread = price(c, m, p);
  assert_same(whole, spread);
  mcp_results_destroy(spread);
  mcp_results_destroy(whole);
  mcp_context_destroy(plain);
  mcp_context_destroy(c);
  mcp_run_options_destroy(o);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(defaults),         cmocka_unit_test(refusals),
      cmocka_unit_test(from_files),       cmocka_unit_test(context_path),
      cmocka_unit_test(speed_alone),      cmocka_unit_test(context_refusals),
      cmocka_unit_test(slices_and_workers), cmocka_unit_test(with_the_book)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
