/* test_api.c: misuse of the public API gives the documented status and a
 * message naming the offending field, leaves the handles as they were and
 * never crashes. */
/* the 0.1 run setters on the portfolio, which these tests keep exercising
 * for their one deprecated release (mcprice.h) */
#define MCP_ALLOW_DEPRECATED
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "mcprice.h"
/* internal views, to blank a handle's message before each call so that a
 * stale message cannot satisfy a check */
#include "src/exec/context.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"

/* Stands for "not written by the call": output pointers start here. */
static char junk;
#define JUNK_RESULTS ((mcp_results *)(void *)&junk)
#define JUNK_CONTEXT ((mcp_context *)(void *)&junk)

static void check_status(const char *call, mcp_status got, mcp_status want)
{
  if (got != want)
    fail_msg("%s: status %d (%s), expected %d (%s)", call, (int)got, mcp_strerror(got),
             (int)want, mcp_strerror(want));
}

static void check_fail(const char *call, mcp_status got, mcp_status want, const char *msg,
                       const char *field)
{
  check_status(call, got, want);
  if (!msg || !strstr(msg, field))
    fail_msg("%s: message \"%s\" does not name \"%s\"", call, msg ? msg : "(null)", field);
  /* one channel: the thread's last error says the same */
  if (strcmp(mcp_last_error(), msg) != 0)
    fail_msg("%s: mcp_last_error() \"%s\", the handle's \"%s\"", call, mcp_last_error(), msg);
}

/* A call with no handle to hold a message (a NULL handle, a create): its
 * status, and mcp_last_error() begins with the call's name. */
static void check_named(const char *call, mcp_status got, mcp_status want)
{
  check_status(call, got, want);
  size_t n = strcspn(call, "(");
  if (want != MCP_OK && strncmp(mcp_last_error(), call, n) != 0)
    fail_msg("%s: mcp_last_error() \"%s\" does not begin with the call's name", call,
             mcp_last_error());
}

#define EXPECT_STATUS(want, call) check_named(#call, (call), (want))
/* call on handle h returns want and h's fresh message contains field */
#define EXPECT_FAIL(h, last_error, want, field, call) \
  ((h)->err[0] = '\0', check_fail(#call, (call), (want), last_error(h), (field)))
#define CONTEXT_FAILS(c, want, field, call) \
  EXPECT_FAIL(c, mcp_context_last_error, want, field, call)
#define MARKET_FAILS(m, want, field, call) \
  EXPECT_FAIL(m, mcp_market_last_error, want, field, call)
#define PORTFOLIO_FAILS(p, want, field, call) \
  EXPECT_FAIL(p, mcp_portfolio_last_error, want, field, call)

/* ---- fixtures ------------------------------------------------------------ */

static mcp_context *cpu_context(void)
{
  mcp_context *c = NULL;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  return c;
}

/* A market with underlying "X" and a portfolio with one call on it. */
static void small_book(mcp_market **m, mcp_portfolio **p)
{
  assert_int_equal(mcp_market_create(m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(*m, "X", 100, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_portfolio_create(p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(*p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(*p, "c", "X", MCP_CALL, 100, 1, 1), MCP_OK);
}

/* ---- statuses, version, backends ----------------------------------------- */

static void test_strerror(void **state)
{
  const char *s[MCP_ERR_DEVICE + 1];
  for (int i = MCP_OK; i <= MCP_ERR_DEVICE; i++) {
    s[i] = mcp_strerror((mcp_status)i);
    assert_non_null(s[i]);
    assert_true(s[i][0] != '\0');
    for (int j = 0; j < i; j++)
      if (strcmp(s[i], s[j]) == 0)
        fail_msg("statuses %d and %d share the string \"%s\"", j, i, s[i]);
  }
  const int bad[] = {-1, MCP_ERR_DEVICE + 1, 1000};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    const char *u = mcp_strerror((mcp_status)bad[k]);
    assert_non_null(u);
    assert_true(u[0] != '\0');
    for (int j = MCP_OK; j <= MCP_ERR_DEVICE; j++)
      assert_string_not_equal(u, s[j]);
  }
}

static void test_version(void **state)
{
  assert_string_equal(mcp_version(), MCP_VERSION_STRING);
  assert_int_equal(mcp_version_number(), MCP_VERSION_NUMBER);
  int major, minor, patch;
  assert_int_equal(sscanf(mcp_version(), "%d.%d.%d", &major, &minor, &patch), 3);
  assert_int_equal(major, MCP_VERSION_MAJOR);
  assert_int_equal(minor, MCP_VERSION_MINOR);
  assert_int_equal(patch, MCP_VERSION_PATCH);
  assert_int_equal(mcp_version_number(), major * 10000 + minor * 100 + patch);
  assert_non_null(strstr(mcp_build_info(), MCP_VERSION_STRING));
}

static void test_backend_names(void **state)
{
  const char *names[] = {"auto", "cpu", "cuda"};
  const mcp_backend ids[] = {MCP_BACKEND_AUTO, MCP_BACKEND_CPU, MCP_BACKEND_CUDA};
  for (int i = 0; i < 3; i++) {
    mcp_backend b = (mcp_backend)-1;
    assert_int_equal(mcp_backend_from_name(names[i], &b), MCP_OK);
    assert_int_equal(b, ids[i]);
    assert_string_equal(mcp_backend_name(ids[i]), names[i]);
  }
  /* "gpu" is not a backend name: an unknown name, *out untouched */
  mcp_backend b = MCP_BACKEND_CPU;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_backend_from_name("gpu", &b));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_backend_from_name("CPU ", &b));
  assert_int_equal(b, MCP_BACKEND_CPU);
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_backend_from_name(NULL, &b));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_backend_from_name("cpu", NULL));
  assert_non_null(mcp_backend_name((mcp_backend)42));
}

/* Precisions and prefetch strategies: names both ways, and the settings'
 * checks, whose messages list what is valid. */
static void test_kernel_options(void **state)
{
  static const char *const names[] = {"none",           "unroll",       "scalar-batch",
                                      "smem-batch",     "scalar-rolling", "smem-rolling",
                                      "smem-async"};
  for (int i = 0; i < 7; i++) {
    mcp_prefetch s = (mcp_prefetch)-1;
    assert_int_equal(mcp_prefetch_from_name(names[i], &s), MCP_OK);
    assert_int_equal(s, i);
    assert_string_equal(mcp_prefetch_name(s), names[i]);
  }
  mcp_prefetch s = MCP_PREFETCH_NONE;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_prefetch_from_name("smem", &s));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_prefetch_from_name(NULL, &s));
  mcp_precision pr = MCP_DOUBLE;
  assert_int_equal(mcp_precision_from_name("float", &pr), MCP_OK);
  assert_int_equal(pr, MCP_FLOAT);
  assert_string_equal(mcp_precision_name(MCP_DOUBLE), "double");
  assert_int_equal(mcp_precision_from_name("mixed", &pr), MCP_OK);
  assert_int_equal(pr, MCP_MIXED);
  assert_string_equal(mcp_precision_name(MCP_MIXED), "mixed");
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_precision_from_name("half", &pr));

  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  int d, pad;
  mcp_portfolio_prefetch(p, &s, &d, &pad); /* defaults */
  assert_true(s == MCP_PREFETCH_NONE && d == 4 && pad == 0);
  assert_int_equal(mcp_portfolio_precision(p), MCP_DOUBLE);
  assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_SMEM_ASYNC, 16, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_SMEM_BATCH, 6,
                                              MCP_PADDING_INTERLEAVED),
                   MCP_OK);
  mcp_portfolio_prefetch(p, &s, &d, &pad);
  assert_true(s == MCP_PREFETCH_SMEM_BATCH && d == 6 && pad == MCP_PADDING_INTERLEAVED);
  PORTFOLIO_FAILS(p, MCP_ERR_ARGUMENT, "expected one of 1, 2, 4, 6, 8, 12, 16",
                  mcp_portfolio_set_prefetch(p, MCP_PREFETCH_SCALAR_ROLLING, 3, 0));
  PORTFOLIO_FAILS(p, MCP_ERR_ARGUMENT, "expected one of none, unroll",
                  mcp_portfolio_set_prefetch(p, (mcp_prefetch)7, 4, 0));
  PORTFOLIO_FAILS(p, MCP_ERR_ARGUMENT, "padding: expected an integer from 0 to 32",
                  mcp_portfolio_set_prefetch(p, MCP_PREFETCH_SMEM_ROLLING, 4, 33));
  PORTFOLIO_FAILS(p, MCP_ERR_ARGUMENT, "precision: expected double, float or mixed",
                  mcp_portfolio_set_precision(p, (mcp_precision)3));
  /* a failed call leaves the settings as they were */
  mcp_portfolio_prefetch(p, &s, &d, &pad);
  assert_true(s == MCP_PREFETCH_SMEM_BATCH && d == 6 && pad == MCP_PADDING_INTERLEAVED);
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_portfolio_set_prefetch(NULL, MCP_PREFETCH_NONE, 4, 0));
  mcp_portfolio_destroy(p);
}

/* The normals modes: names, the default (fused), bad values refused and the
 * setting kept; the CPU backend prices a book to the same bits under both. */
static void test_normals_modes(void **state)
{
  mcp_normals n = MCP_NORMALS_STORED;
  assert_int_equal(mcp_normals_from_name("fused", &n), MCP_OK);
  assert_int_equal(n, MCP_NORMALS_FUSED);
  assert_int_equal(mcp_normals_from_name("stored", &n), MCP_OK);
  assert_int_equal(n, MCP_NORMALS_STORED);
  assert_string_equal(mcp_normals_name(MCP_NORMALS_FUSED), "fused");
  assert_string_equal(mcp_normals_name((mcp_normals)2), "unknown");
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_normals_from_name("cached", &n));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_normals_from_name(NULL, &n));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_normals_from_name("fused", NULL));

  mcp_market *m;
  mcp_portfolio *p;
  small_book(&m, &p);
  assert_int_equal(mcp_portfolio_normals(p), MCP_NORMALS_FUSED);
  PORTFOLIO_FAILS(p, MCP_ERR_ARGUMENT, "normals: expected fused or stored",
                  mcp_portfolio_set_normals(p, (mcp_normals)5));
  assert_int_equal(mcp_portfolio_normals(p), MCP_NORMALS_FUSED);
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_portfolio_set_normals(NULL, MCP_NORMALS_FUSED));
  mcp_context *ctx;
  mcp_results *r[2];
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  for (int k = 0; k < 2; k++) {
    assert_int_equal(mcp_portfolio_set_normals(p, (mcp_normals)k), MCP_OK);
    assert_int_equal(mcp_portfolio_normals(p), (mcp_normals)k);
    assert_int_equal(mcp_price(ctx, m, p, &r[k]), MCP_OK);
  }
  mcp_estimate a, b;
  for (size_t i = 0; i < mcp_results_count(r[0]); i++) {
    mcp_results_trade(r[0], i, &a);
    mcp_results_trade(r[1], i, &b);
    assert_memory_equal(&a, &b, sizeof a);
  }
  mcp_results_destroy(r[0]);
  mcp_results_destroy(r[1]);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void test_devices(void **state)
{
  mcp_device_info info;
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_device_get_info(0, NULL));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_device_get_info(-1, &info));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_device_get_info(mcp_device_count(), &info));
  if (!mcp_cuda_built())
    assert_int_equal(mcp_device_count(), 0);
}

/* ---- NULL handles and arguments ------------------------------------------ */

static void test_destroy_null(void **state)
{
  mcp_context_destroy(NULL);
  mcp_market_destroy(NULL);
  mcp_portfolio_destroy(NULL);
  mcp_results_destroy(NULL);
  /* the accessors answer for a missing handle too */
  assert_non_null(mcp_context_last_error(NULL));
  assert_non_null(mcp_market_last_error(NULL));
  assert_non_null(mcp_portfolio_last_error(NULL));
  assert_int_equal(mcp_market_size(NULL), 0);
  assert_int_equal(mcp_portfolio_size(NULL), 0);
  assert_null(mcp_portfolio_trade_id(NULL, 0));
  assert_int_equal(mcp_results_count(NULL), 0);
  assert_null(mcp_results_trade_id(NULL, 0));
  assert_true(mcp_results_quantity(NULL, 0) == 0.0);
  assert_int_equal(mcp_results_paths(NULL), 0);
  assert_int_equal(mcp_results_seed(NULL), 0);
}

static void test_null_arguments(void **state)
{
  const double fix[] = {0.5, 1.0};
  const mcp_status A = MCP_ERR_ARGUMENT;
  EXPECT_STATUS(A, mcp_context_create(NULL, MCP_BACKEND_CPU));
  EXPECT_STATUS(A, mcp_context_set_tile_paths(NULL, 256));
  EXPECT_STATUS(A, mcp_context_set_block_size(NULL, 128));
  EXPECT_STATUS(A, mcp_context_set_device(NULL, 0));
  EXPECT_STATUS(A, mcp_context_set_progress(NULL, NULL, NULL));
  EXPECT_STATUS(A, mcp_market_create(NULL));
  EXPECT_STATUS(A, mcp_market_add_black_scholes(NULL, "X", 100, 0, 0, 0.2));
  EXPECT_STATUS(A, mcp_portfolio_create(NULL));
  EXPECT_STATUS(A, mcp_portfolio_add_european(NULL, "e", "X", MCP_CALL, 100, 1, 1));
  EXPECT_STATUS(A, mcp_portfolio_add_asian(NULL, "a", "X", MCP_ARITHMETIC, MCP_CALL, 100, 2,
                                           fix, 1, 1));
  EXPECT_STATUS(A, mcp_portfolio_set_paths(NULL, 1000));
  EXPECT_STATUS(A, mcp_portfolio_set_seed(NULL, 1));
  EXPECT_STATUS(A, mcp_portfolio_set_steps_per_year(NULL, 12));
  EXPECT_STATUS(A, mcp_portfolio_set_time_grid(NULL, 2, fix));
  EXPECT_STATUS(A, mcp_portfolio_set_backend(NULL, MCP_BACKEND_CPU));

  mcp_context *ctx = cpu_context();
  mcp_market *m;
  mcp_portfolio *p;
  small_book(&m, &p);
  mcp_results *r = JUNK_RESULTS;
  EXPECT_STATUS(A, mcp_price(NULL, m, p, &r));
  assert_null(r);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, A, "market", mcp_price(ctx, NULL, p, &r));
  assert_null(r);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, A, "portfolio", mcp_price(ctx, m, NULL, &r));
  assert_null(r);
  CONTEXT_FAILS(ctx, A, "results", mcp_price(ctx, m, p, NULL));

  /* NULL strings and arrays on valid handles name the argument */
  MARKET_FAILS(m, A, "name", mcp_market_add_black_scholes(m, NULL, 100, 0, 0, 0.2));
  PORTFOLIO_FAILS(p, A, "id", mcp_portfolio_add_european(p, NULL, "X", MCP_CALL, 100, 1, 1));
  PORTFOLIO_FAILS(p, A, "underlying",
                  mcp_portfolio_add_european(p, "e", NULL, MCP_CALL, 100, 1, 1));
  PORTFOLIO_FAILS(p, A, "id", mcp_portfolio_add_asian(p, NULL, "X", MCP_ARITHMETIC, MCP_CALL,
                                                       100, 2, fix, 1, 1));
  PORTFOLIO_FAILS(p, A, "time grid", mcp_portfolio_set_time_grid(p, 2, NULL));
  assert_int_equal(mcp_market_size(m), 1);
  assert_int_equal(mcp_portfolio_size(p), 1);

  /* results calls */
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  mcp_estimate e;
  size_t i = 7;
  EXPECT_STATUS(A, mcp_results_trade(NULL, 0, &e));
  EXPECT_STATUS(A, mcp_results_trade(r, 0, NULL));
  EXPECT_STATUS(A, mcp_results_find(NULL, "c", &i));
  EXPECT_STATUS(A, mcp_results_find(r, NULL, &i));
  EXPECT_STATUS(A, mcp_results_find(r, "c", NULL));
  EXPECT_STATUS(A, mcp_results_total(NULL, &e));
  EXPECT_STATUS(A, mcp_results_total(r, NULL));
  assert_int_equal(i, 7);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

/* ---- the thread's last error --------------------------------------------- */

static void *fail_on_other_thread(void *arg)
{
  (void)arg;
  mcp_context_set_block_size(NULL, 32);
  return strstr(mcp_last_error(), "mcp_context_set_block_size") ? arg : NULL;
}

/* Every failing call says why in mcp_last_error, those without a handle
 * too; the message is the calling thread's. */
static void test_last_error(void **state)
{
  mcp_context *c = JUNK_CONTEXT;
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_context_create(&c, (mcp_backend)7));
  assert_non_null(strstr(mcp_last_error(), "unknown backend 7"));
  if (mcp_device_count() == 0) {
    EXPECT_STATUS(MCP_ERR_UNAVAILABLE, mcp_context_create(&c, MCP_BACKEND_CUDA));
    assert_non_null(strstr(mcp_last_error(), "backend cuda"));
  }
  mcp_backend b;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_backend_from_name("gpu", &b));
  assert_non_null(strstr(mcp_last_error(), "'gpu' (expected one of auto, cpu, cuda)"));
  mcp_precision pr;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_precision_from_name("half", &pr));
  mcp_device_info info;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_device_get_info(mcp_device_count(), &info));

  /* a load with no buffer for its message: the file and field there */
  mcp_market *m = NULL;
  const char *text = "{\"underlyings\": [{\"name\": \"X\", \"spot\": -1}]}";
  assert_int_not_equal(mcp_market_load_text(&m, "mem.json", text, strlen(text), NULL, 0), MCP_OK);
  assert_null(m);
  assert_non_null(strstr(mcp_last_error(), "mem.json"));
  assert_non_null(strstr(mcp_last_error(), "spot"));

  /* a pricing call's: the context's message, the same */
  mcp_context *ctx = cpu_context();
  mcp_portfolio *p;
  small_book(&m, &p);
  mcp_results *r;
  CONTEXT_FAILS(ctx, MCP_ERR_ARGUMENT, "market", mcp_price(ctx, NULL, p, &r));
  assert_non_null(strstr(mcp_last_error(), "mcp_price"));

  /* another thread's failure leaves this thread's message */
  char mine[512];
  snprintf(mine, sizeof mine, "%s", mcp_last_error());
  pthread_t t;
  int token;
  void *named = NULL;
  assert_int_equal(pthread_create(&t, NULL, fail_on_other_thread, &token), 0);
  assert_int_equal(pthread_join(t, &named), 0);
  assert_non_null(named);
  assert_string_equal(mcp_last_error(), mine);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

/* ---- context --------------------------------------------------------------- */

static void test_context(void **state)
{
  mcp_context *c = JUNK_CONTEXT;
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_context_create(&c, (mcp_backend)7));
  assert_null(c);
  c = JUNK_CONTEXT;
  if (mcp_device_count() == 0) {
    EXPECT_STATUS(MCP_ERR_UNAVAILABLE, mcp_context_create(&c, MCP_BACKEND_CUDA));
    assert_null(c);
    /* auto falls back to the CPU */
    assert_int_equal(mcp_context_create(&c, MCP_BACKEND_AUTO), MCP_OK);
    assert_int_equal(mcp_context_backend(c), MCP_BACKEND_CPU);
  } else {
    assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CUDA), MCP_OK);
    assert_int_equal(mcp_context_backend(c), MCP_BACKEND_CUDA);
  }
  mcp_context_destroy(c);

  c = cpu_context();
  assert_int_equal(mcp_context_backend(c), MCP_BACKEND_CPU);
  CONTEXT_FAILS(c, MCP_ERR_ARGUMENT, "tile paths", mcp_context_set_tile_paths(c, 100));
  CONTEXT_FAILS(c, MCP_ERR_ARGUMENT, "tile paths", mcp_context_set_tile_paths(c, 257));
  assert_int_equal(mcp_context_set_tile_paths(c, 0), MCP_OK);
  assert_int_equal(mcp_context_set_tile_paths(c, 512), MCP_OK);
  const int blocks[] = {33, 0, 2048, -32, 16};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    CONTEXT_FAILS(c, MCP_ERR_ARGUMENT, "block size", mcp_context_set_block_size(c, blocks[i]));
  assert_int_equal(mcp_context_set_block_size(c, 32), MCP_OK);
  assert_int_equal(mcp_context_set_block_size(c, 1024), MCP_OK);
  mcp_context_destroy(c);
}

/* ---- market ------------------------------------------------------------------ */

static void test_market(void **state)
{
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "X", 100, 0.02, 0.01, 0.2), MCP_OK);
  const mcp_status I = MCP_ERR_INPUT;
  MARKET_FAILS(m, I, "spot", mcp_market_add_black_scholes(m, "Y", 0, 0.02, 0, 0.2));
  MARKET_FAILS(m, I, "spot", mcp_market_add_black_scholes(m, "Y", INFINITY, 0.02, 0, 0.2));
  MARKET_FAILS(m, I, "volatility", mcp_market_add_black_scholes(m, "Y", 100, 0.02, 0, -1));
  MARKET_FAILS(m, I, "volatility", mcp_market_add_black_scholes(m, "Y", 100, 0.02, 0, 11));
  MARKET_FAILS(m, I, "rate", mcp_market_add_black_scholes(m, "Y", 100, NAN, 0, 0.2));
  MARKET_FAILS(m, I, "dividend", mcp_market_add_black_scholes(m, "Y", 100, 0.02, 2, 0.2));
  /* the message names the underlying and the problem */
  MARKET_FAILS(m, I, "'X'", mcp_market_add_black_scholes(m, "X", 90, 0.02, 0, 0.2));
  assert_non_null(strstr(mcp_market_last_error(m), "twice"));
  MARKET_FAILS(m, MCP_ERR_ARGUMENT, "name", mcp_market_add_black_scholes(m, "", 100, 0, 0, 0.2));
  assert_int_equal(mcp_market_size(m), 1);
  /* the limits themselves are valid */
  assert_int_equal(mcp_market_add_black_scholes(m, "Z", 1e-3, -1, 1, 10), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "W", 50, 0, 0, 0), MCP_OK);
  assert_int_equal(mcp_market_size(m), 3);
  mcp_market_destroy(m);
}

/* ---- portfolio ---------------------------------------------------------------- */

static void test_portfolio_trades(void **state)
{
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "e", "X", MCP_CALL, 100, 1, 1), MCP_OK);
  const mcp_status I = MCP_ERR_INPUT, A = MCP_ERR_ARGUMENT;
  PORTFOLIO_FAILS(p, I, "strike", mcp_portfolio_add_european(p, "f", "X", MCP_CALL, -1, 1, 1));
  PORTFOLIO_FAILS(p, I, "maturity", mcp_portfolio_add_european(p, "f", "X", MCP_PUT, 100, 0, 1));
  PORTFOLIO_FAILS(p, I, "maturity",
                  mcp_portfolio_add_european(p, "f", "X", MCP_PUT, 100, 101, 1));
  PORTFOLIO_FAILS(p, I, "quantity",
                  mcp_portfolio_add_european(p, "f", "X", MCP_CALL, 100, 1, NAN));
  PORTFOLIO_FAILS(p, A, "id", mcp_portfolio_add_european(p, "", "X", MCP_CALL, 100, 1, 1));
  PORTFOLIO_FAILS(p, I, "id", mcp_portfolio_add_european(p, "e", "X", MCP_CALL, 90, 1, 1));
  PORTFOLIO_FAILS(p, A, "type",
                  mcp_portfolio_add_european(p, "f", "X", (mcp_option_type)3, 100, 1, 1));
  /* every message names the trade it is about */
  PORTFOLIO_FAILS(p, I, "'f'", mcp_portfolio_add_european(p, "f", "X", MCP_CALL, -1, 1, 1));

  const double unsorted[] = {0.5, 0.25, 1.0}, late[] = {0.5, 1.5}, ok[] = {0.5, 1.0};
  PORTFOLIO_FAILS(p, I, "fixings", mcp_portfolio_add_asian(p, "a", "X", MCP_ARITHMETIC,
                                                            MCP_CALL, 100, 3, unsorted, 1, 1));
  PORTFOLIO_FAILS(p, I, "fixings", mcp_portfolio_add_asian(p, "a", "X", MCP_GEOMETRIC, MCP_PUT,
                                                            100, 2, late, 1, 1));
  PORTFOLIO_FAILS(p, I, "fixings", mcp_portfolio_add_asian(p, "a", "X", MCP_ARITHMETIC,
                                                            MCP_CALL, 100, 0, ok, 1, 1));
  PORTFOLIO_FAILS(p, A, "fixings", mcp_portfolio_add_asian(p, "a", "X", MCP_ARITHMETIC,
                                                            MCP_CALL, 100, 2, NULL, 1, 1));
  PORTFOLIO_FAILS(p, A, "average", mcp_portfolio_add_asian(p, "a", "X", (mcp_average)5,
                                                            MCP_CALL, 100, 2, ok, 1, 1));
  PORTFOLIO_FAILS(p, I, "strike", mcp_portfolio_add_asian(p, "a", "X", MCP_ARITHMETIC,
                                                           MCP_CALL, NAN, 2, ok, 1, 1));
  /* nothing was added by the failures */
  assert_int_equal(mcp_portfolio_size(p), 1);
  assert_string_equal(mcp_portfolio_trade_id(p, 0), "e");
  assert_null(mcp_portfolio_trade_id(p, 1));
  /* the valid edges: zero strike, short quantity, fixing at maturity */
  assert_int_equal(mcp_portfolio_add_asian(p, "a", "X", MCP_GEOMETRIC, MCP_CALL, 0, 2, ok, 1,
                                           -2.5),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_size(p), 2);
  mcp_portfolio_destroy(p);
}

static void test_portfolio_settings(void **state)
{
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_paths(p), 100000);
  assert_int_equal(mcp_portfolio_seed(p), 1);
  assert_int_equal(mcp_portfolio_backend(p), MCP_BACKEND_AUTO);
  const mcp_status A = MCP_ERR_ARGUMENT;
  PORTFOLIO_FAILS(p, A, "paths", mcp_portfolio_set_paths(p, 0));
  PORTFOLIO_FAILS(p, A, "paths", mcp_portfolio_set_paths(p, 1));
  PORTFOLIO_FAILS(p, A, "paths", mcp_portfolio_set_paths(p, (UINT64_C(1) << 40) + 1));
  assert_int_equal(mcp_portfolio_paths(p), 100000);
  PORTFOLIO_FAILS(p, A, "steps_per_year", mcp_portfolio_set_steps_per_year(p, 200000));
  const double flat[] = {0.5, 0.5}, down[] = {1.0, 0.5}, neg[] = {-0.5, 0.5};
  PORTFOLIO_FAILS(p, A, "time grid", mcp_portfolio_set_time_grid(p, 2, flat));
  PORTFOLIO_FAILS(p, A, "time grid", mcp_portfolio_set_time_grid(p, 2, down));
  PORTFOLIO_FAILS(p, A, "time grid", mcp_portfolio_set_time_grid(p, 2, neg));
  PORTFOLIO_FAILS(p, A, "backend", mcp_portfolio_set_backend(p, (mcp_backend)9));
  assert_int_equal(mcp_portfolio_backend(p), MCP_BACKEND_AUTO);
  /* accepted values, and an empty grid clears it */
  assert_int_equal(mcp_portfolio_set_paths(p, 2), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, INT64_MAX), MCP_OK);
  assert_int_equal(mcp_portfolio_seed(p), INT64_MAX);
  /* above 2^63-1 (what files and the command line accept) when set */
  PORTFOLIO_FAILS(p, A, "seed: expected an integer between 0 and 2^63-1",
                  mcp_portfolio_set_seed(p, (uint64_t)INT64_MAX + 1));
  assert_int_equal(mcp_portfolio_seed(p), INT64_MAX);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 100000), MCP_OK);
  assert_int_equal(mcp_portfolio_set_time_grid(p, 1, down + 1), MCP_OK);
  assert_int_equal(mcp_portfolio_set_time_grid(p, 0, NULL), MCP_OK);
  mcp_portfolio_destroy(p);
}

/* ---- pricing and results ------------------------------------------------------ */

static void test_price_errors(void **state)
{
  mcp_context *ctx = cpu_context();
  mcp_market *m;
  mcp_portfolio *p;
  small_book(&m, &p);
  mcp_results *r = JUNK_RESULTS;
  /* a trade on an underlying the market lacks: both are named */
  assert_int_equal(mcp_portfolio_add_european(p, "orphan", "NOPE", MCP_PUT, 100, 1, 1), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_NOT_FOUND, "orphan", mcp_price(ctx, m, p, &r));
  assert_non_null(strstr(mcp_context_last_error(ctx), "NOPE"));
  assert_null(r);
  mcp_portfolio_destroy(p);

  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "trades", mcp_price(ctx, m, p, &r));
  assert_null(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);

  /* results that overflow double are errors naming the trade or the book,
   * not inf or NaN in the results (issue 17) */
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "X", 100, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "BIG", 1e308, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "c", "X", MCP_CALL, 100, 1, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "huge", "BIG", MCP_CALL, 100, 1, 1), MCP_OK);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "trade 'huge'", mcp_price(ctx, m, p, &r));
  assert_non_null(strstr(mcp_context_last_error(ctx), "not a finite number"));
  assert_null(r);
  mcp_portfolio_destroy(p);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "c", "X", MCP_CALL, 100, 1, 1e308), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "d", "X", MCP_CALL, 90, 1, 1e308), MCP_OK);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "the book's value", mcp_price(ctx, m, p, &r));
  assert_null(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);

  /* sums of squares that overflow (values of 1e154, or positions of 1e160)
   * gave a standard error of 0 and a false "constant" warning; Greeks that
   * overflow (the gamma of a spot of 1e-300) gave NaN; and so may a scenario
   * point: all errors naming the trade (issue 31) */
  mcp_greeks *g = NULL;
  mcp_scenarios *sc = NULL;
  const double far[1] = {1e155};
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "X", 100, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "SQ", 1e154, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "TINY", 1e-300, 0.02, 0.0, 0.2), MCP_OK);
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_GAMMA), MCP_OK);
  assert_int_equal(mcp_scenarios_create(&sc), MCP_OK);
  assert_int_equal(mcp_scenarios_set(sc, MCP_SHIFT_SPOT, MCP_SHIFT_ABSOLUTE, 1, far), MCP_OK);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "sq", "SQ", MCP_CALL, 1e154, 1, 1), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "trade 'sq': its price", mcp_price(ctx, m, p, &r));
  assert_non_null(strstr(mcp_context_last_error(ctx), "overflow double"));
  mcp_portfolio_destroy(p);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "c", "X", MCP_CALL, 100, 1, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "q", "X", MCP_CALL, 100, 1, 1e160), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "the book's value", mcp_price(ctx, m, p, &r));
  assert_non_null(strstr(mcp_context_last_error(ctx), "trade 'q', quantity 1e+160"));
  mcp_portfolio_destroy(p);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "tiny", "TINY", MCP_CALL, 1e-300, 1, 1), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK); /* the price itself is fine */
  mcp_results_destroy(r);
  r = JUNK_RESULTS;
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "trade 'tiny': its gamma",
                mcp_price_greeks(ctx, m, p, g, &r));
  assert_null(r);
  mcp_portfolio_destroy(p);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "c", "X", MCP_CALL, 100, 1, 1), MCP_OK);
  mcp_scenario_results *sr = NULL;
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "trade 'c': its price",
                mcp_price_scenarios(ctx, m, p, sc, &sr));
  assert_null(sr);
  mcp_portfolio_destroy(p);
  mcp_scenarios_destroy(sc);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);

  /* too few paths for a standard error: 2 paths are one antithetic sample,
   * and a control variate's beta takes one more sample (issue 17) */
  small_book(&m, &p);
  assert_int_equal(mcp_portfolio_set_paths(p, 2), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "at least 4 paths", mcp_price(ctx, m, p, &r));
  /* an odd count would simulate one path more than it reports (issue 31) */
  assert_int_equal(mcp_portfolio_set_paths(p, 2001), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "paths: trade 'c' (antithetic) needs an even number",
                mcp_price(ctx, m, p, &r));
  assert_int_equal(mcp_portfolio_set_paths(p, 2), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_CONTROL_VARIATE), MCP_OK);
  CONTEXT_FAILS(ctx, MCP_ERR_INPUT, "at least 3 paths", mcp_price(ctx, m, p, &r));
  assert_non_null(strstr(mcp_context_last_error(ctx), "trade 'c' (control variate)"));
  assert_int_equal(mcp_portfolio_set_paths(p, 3), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  mcp_estimate e;
  assert_int_equal(mcp_results_trade(r, 0, &e), MCP_OK);
  assert_true(e.std_error > 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

static void test_results_access(void **state)
{
  mcp_context *ctx = cpu_context();
  mcp_market *m;
  mcp_portfolio *p;
  small_book(&m, &p);
  assert_int_equal(mcp_portfolio_add_european(p, "s", "X", MCP_PUT, 90, 0.5, -2), MCP_OK);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  assert_int_equal(mcp_results_count(r), 2);
  mcp_estimate e;
  size_t i = 99;
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_results_trade(r, 2, &e));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_results_trade(r, SIZE_MAX, &e));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_results_find(r, "nope", &i));
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_results_find(r, "", &i));
  assert_int_equal(i, 99);
  assert_null(mcp_results_trade_id(r, 2));
  assert_true(mcp_results_quantity(r, 2) == 0.0);
  /* and the valid side of each accessor */
  assert_int_equal(mcp_results_find(r, "s", &i), MCP_OK);
  assert_int_equal(i, 1);
  assert_string_equal(mcp_results_trade_id(r, 1), "s");
  assert_true(mcp_results_quantity(r, 1) == -2.0);
  assert_int_equal(mcp_results_trade(r, 1, &e), MCP_OK);
  assert_true(e.price > 0 && e.std_error > 0 && e.ci_low < e.price && e.price < e.ci_high);
  assert_int_equal(mcp_results_paths(r), 1000);
  assert_int_equal(mcp_results_seed(r), 1);
  assert_int_equal(mcp_results_backend(r), MCP_BACKEND_CPU);
  assert_true(mcp_results_seconds(r) >= 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

/* Where a loaded portfolio's trades are in its file, for errors found when
 * pricing; none for a trade added through the API. */
static void test_trade_source(void **state)
{
  mcp_portfolio *p = NULL;
  char err[256];
  assert_int_equal(mcp_portfolio_load(&p, SRCDIR "/tests/data/cli_unknown_underlying.json", err,
                                      sizeof err),
                   MCP_OK);
  int line = 0, column = 0;
  assert_int_equal(mcp_portfolio_trade_source(p, 0, &line, &column), MCP_OK);
  assert_int_equal(line, 4);
  assert_int_equal(column, 5);
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_portfolio_trade_source(p, 1, &line, &column));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_portfolio_trade_source(p, 0, NULL, &column));
  EXPECT_STATUS(MCP_ERR_ARGUMENT, mcp_portfolio_trade_source(NULL, 0, &line, &column));
  assert_int_equal(mcp_portfolio_add_european(p, "api", "X", MCP_CALL, 100, 1, 1), MCP_OK);
  EXPECT_STATUS(MCP_ERR_NOT_FOUND, mcp_portfolio_trade_source(p, 1, &line, &column));
  mcp_portfolio_destroy(p);
}

/* A trade every path pays the same (a call struck at 10 times the spot, at
 * 20% volatility: 0 on all 1000 paths) carries MCP_WARNING_CONSTANT; a
 * trade with a spread of payoffs, and a PDE price (no standard error by
 * construction), none.  Names and texts, and out-of-range values. */
static void test_results_warnings(void **state)
{
  mcp_context *ctx = cpu_context();
  mcp_market *m;
  mcp_portfolio *p;
  small_book(&m, &p);
  assert_int_equal(mcp_portfolio_add_european(p, "far", "X", MCP_CALL, 1000, 1, 1), MCP_OK);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "grid";
  t.product = MCP_PRODUCT_EUROPEAN;
  t.type = MCP_CALL;
  t.underlying = "X";
  t.strike = 100;
  t.maturity = 1;
  t.engine = MCP_ENGINE_PDE;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  size_t far, grid;
  assert_int_equal(mcp_results_find(r, "far", &far), MCP_OK);
  assert_int_equal(mcp_results_find(r, "grid", &grid), MCP_OK);
  mcp_estimate e;
  assert_int_equal(mcp_results_trade(r, far, &e), MCP_OK);
  assert_true(e.price == 0 && e.std_error == 0);
  assert_int_equal(mcp_results_warnings(r, far), MCP_WARNING_CONSTANT);
  assert_int_equal(mcp_results_warnings(r, 0), 0);
  assert_int_equal(mcp_results_engine(r, grid), MCP_ENGINE_PDE);
  assert_int_equal(mcp_results_warnings(r, grid), 0);
  assert_int_equal(mcp_results_warnings(r, mcp_results_count(r)), 0);
  assert_int_equal(mcp_results_warnings(NULL, 0), 0);
  assert_string_equal(mcp_warning_name(MCP_WARNING_CONSTANT), "constant");
  assert_non_null(strstr(mcp_warning_text(MCP_WARNING_CONSTANT), "standard error of 0"));
  assert_string_equal(mcp_warning_name((mcp_warning)0), "unknown");
  assert_string_equal(mcp_warning_name((mcp_warning)3), "unknown");
  assert_string_equal(mcp_warning_text((mcp_warning)(1 << 20)), "unknown");
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strerror),          cmocka_unit_test(test_version),
      cmocka_unit_test(test_backend_names),     cmocka_unit_test(test_kernel_options),
      cmocka_unit_test(test_normals_modes),     cmocka_unit_test(test_devices),
      cmocka_unit_test(test_destroy_null),      cmocka_unit_test(test_null_arguments),
      cmocka_unit_test(test_last_error),        cmocka_unit_test(test_context),
      cmocka_unit_test(test_market),
      cmocka_unit_test(test_portfolio_trades),  cmocka_unit_test(test_portfolio_settings),
      cmocka_unit_test(test_price_errors),      cmocka_unit_test(test_results_access),
      cmocka_unit_test(test_results_warnings),  cmocka_unit_test(test_trade_source),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
