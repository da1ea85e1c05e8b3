/* test_threads.c: the threading contract of mcprice.h.  One market and one
 * portfolio, built once, priced from 8 threads at once, each with its own
 * context, twice over: every result equals a serial run's to the bit, and the
 * serial run's results are read by all the threads meanwhile.  On the CPU
 * backend always; on the CUDA backend where a GPU is present (the 8 contexts
 * share the device).  CI runs it under ThreadSanitizer in the CPU build. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "mcprice.h"
#include "tests/same_results.h"

enum { THREADS = 8, ROUNDS = 2 };

typedef struct shared {
  mcp_backend backend;
  const mcp_market *market;
  const mcp_portfolio *book;
  const mcp_greeks *greeks;      /* one request, shared too */
  const mcp_results *serial;     /* read by every thread while they run */
  const mcp_results *serial_g;   /* the same with the Greeks */
  char failure[THREADS][256];    /* what a thread saw, empty when all was equal */
} shared;

typedef struct worker {
  shared *s;
  int id;
} worker;

static mcp_market *market(void)
{
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.25), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 50, 0.02, 0.0, 0.35), MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0.0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  return m;
}

/* Europeans, an Asian, a basket on A and B, and a Heston call: a job a
 * model and shape, so that the contexts run several kernels each. */
static mcp_portfolio *book(void)
{
  mcp_portfolio *p;
  double fix[12];
  for (int i = 0; i < 12; i++)
    fix[i] = (i + 1) / 12.0;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 2026), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eA", "A", MCP_CALL, 105, 1.0, 2), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "pB", "B", MCP_PUT, 45, 0.5, -1), MCP_OK);
  assert_int_equal(mcp_portfolio_add_asian(p, "asA", "A", MCP_ARITHMETIC, MCP_CALL, 100, 12, fix,
                                           1.0, 1),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "hH", "H", MCP_CALL, 100, 1.0, 1), MCP_OK);
  mcp_trade t;
  mcp_trade_init(&t);
  const char *names[2] = {"A", "B"};
  const double weights[2] = {0.5, 1.0};
  t.id = "bAB";
  t.product = MCP_PRODUCT_BASKET;
  t.type = MCP_CALL;
  t.strike = 100;
  t.maturity = 1.0;
  t.nassets = 2;
  t.assets = names;
  t.weights = weights;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  return p;
}

static mcp_status price(mcp_context *ctx, const shared *s, int greeks, mcp_results **r)
{
  return greeks ? mcp_price_greeks(ctx, s->market, s->book, s->greeks, r)
                : mcp_price(ctx, s->market, s->book, r);
}

static void *work(void *arg)
{
  worker *w = arg;
  shared *s = w->s;
  char *msg = s->failure[w->id];
  mcp_context *ctx;
  if (mcp_context_create(&ctx, s->backend) != MCP_OK) {
    snprintf(msg, 256, "thread %d: no context", w->id);
    return NULL;
  }
  for (int round = 0; round < ROUNDS && !msg[0]; round++)
    for (int greeks = 0; greeks < 2 && !msg[0]; greeks++) {
      mcp_results *r = NULL;
      if (price(ctx, s, greeks, &r) != MCP_OK)
        snprintf(msg, 256, "thread %d: %s", w->id, mcp_context_last_error(ctx));
      else
        same_results(r, greeks ? s->serial_g : s->serial, msg, 256);
      mcp_results_destroy(r);
    }
  mcp_context_destroy(ctx);
  return NULL;
}

static void concurrent_contexts(mcp_backend backend)
{
  shared s = {.backend = backend};
  mcp_market *m = market();
  mcp_portfolio *p = book();
  mcp_greeks *g;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,gamma,vega"), MCP_OK);
  s.market = m;
  s.book = p;
  s.greeks = g;
  mcp_context *ctx;
  assert_int_equal(mcp_context_create(&ctx, backend), MCP_OK);
  mcp_results *serial = NULL, *serial_g = NULL;
  if (price(ctx, &s, 0, &serial) != MCP_OK || price(ctx, &s, 1, &serial_g) != MCP_OK)
    fail_msg("serial run: %s", mcp_context_last_error(ctx));
  mcp_context_destroy(ctx);
  s.serial = serial;
  s.serial_g = serial_g;
  pthread_t tid[THREADS];
  worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (worker){&s, i};
    assert_int_equal(pthread_create(&tid[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++)
    assert_int_equal(pthread_join(tid[i], NULL), 0);
  for (int i = 0; i < THREADS; i++)
    if (s.failure[i][0])
      fail_msg("%s", s.failure[i]);
  print_message("  %s: %d threads x %d rounds, prices and Greeks equal to the serial run's\n",
                backend == MCP_BACKEND_CPU ? "cpu" : "cuda", THREADS, ROUNDS);
  mcp_results_destroy(serial);
  mcp_results_destroy(serial_g);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void cpu_contexts(void **state)
{
  (void)state;
  concurrent_contexts(MCP_BACKEND_CPU);
}

static void cuda_contexts(void **state)
{
  (void)state;
  mcp_context *ctx;
  if (mcp_device_count() < 1 || mcp_context_create(&ctx, MCP_BACKEND_CUDA) != MCP_OK)
    skip();
  mcp_context_destroy(ctx);
  concurrent_contexts(MCP_BACKEND_CUDA);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cpu_contexts),
      cmocka_unit_test(cuda_contexts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
