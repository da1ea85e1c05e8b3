/* test_cancel.c: mcp_context_cancel and the progress callback.  A request
 * made from the callback stops the call within its tile (no report after
 * it), with MCP_ERR_CANCELLED, no results and the context as it was (its
 * next call gives a fresh context's bits); one made between calls stops the
 * next call, once; one made from another thread stops a long run at once;
 * the CPU reports within a tile, at most MCP_PROGRESS_SECONDS apart, give or
 * take its scheduling.  On the CPU backend, and on the CUDA backend where a
 * GPU is present; the Greeks' and scenarios' passes, several devices'
 * slices and the grids stop too. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "mcprice.h"
#include "src/base/clock.h"
#include "src/exec/context.h"
#include "tests/same_results.h"

/* What the callback saw; it cancels at its report number at (0: never),
 * and counts its reports for other threads too (seen).  It asserts nothing
 * itself: it may run inside the CPU's OpenMP region, which a failed
 * assertion's longjmp must not leave. */
typedef struct watch {
  mcp_context *ctx;
  int calls, at, after; /* reports, the one that cancels, reports after it */
  mcp_status cancelled; /* what mcp_context_cancel returned */
  double first, last, gap, fraction[8], final;
  atomic_int seen;
} watch;

static void on_progress(double fraction, void *user)
{
  watch *w = user;
  double t = mcpi_now();
  if (w->at && w->calls >= w->at)
    w->after++;
  if (w->calls < 8)
    w->fraction[w->calls] = fraction;
  if (w->calls && t - w->last > w->gap)
    w->gap = t - w->last;
  w->first = w->calls ? w->first : t;
  w->final = fraction;
  w->last = t;
  if (++w->calls == w->at)
    w->cancelled = mcp_context_cancel(w->ctx);
  atomic_fetch_add(&w->seen, 1);
}

static mcp_market *market(void)
{
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.25), MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0.0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  return m;
}

/* A European and an Asian on A, a Heston call: three jobs of paths paths. */
static mcp_portfolio *book(uint64_t paths)
{
  mcp_portfolio *p;
  double fix[12];
  for (int i = 0; i < 12; i++)
    fix[i] = (i + 1) / 12.0;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 7), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eA", "A", MCP_CALL, 105, 1.0, 1), MCP_OK);
  assert_int_equal(
      mcp_portfolio_add_asian(p, "asA", "A", MCP_ARITHMETIC, MCP_CALL, 100, 12, fix, 1.0, 1),
      MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eH", "H", MCP_CALL, 100, 1.0, 1), MCP_OK);
  return p;
}

static mcp_context *context(mcp_backend b, uint64_t tile)
{
  mcp_context *c;
  assert_int_equal(mcp_context_create(&c, b), MCP_OK);
  if (tile)
    assert_int_equal(mcp_context_set_tile_paths(c, tile), MCP_OK);
  return c;
}

/* The backends to run: the CPU, and CUDA where a GPU is present. */
static int backends(mcp_backend *b)
{
  b[0] = MCP_BACKEND_CPU;
  b[1] = MCP_BACKEND_CUDA;
  return mcp_device_count() > 0 ? 2 : 1;
}

static void assert_cancelled(mcp_status st, const mcp_context *c, const void *results)
{
  assert_int_equal(st, MCP_ERR_CANCELLED);
  assert_null(results);
  assert_non_null(strstr(mcp_context_last_error(c), "cancelled"));
}
/* The same of a call, its results read after it returns. */
#define assert_cancelled_call(call, c, results)                                                \
  do {                                                                                         \
    mcp_status st_ = (call);                                                                   \
    assert_cancelled(st_, c, results);                                                         \
  } while (0)

static void statuses(void **state)
{
  (void)state;
  assert_int_equal(mcp_context_cancel(NULL), MCP_ERR_ARGUMENT);
  assert_string_equal(mcp_strerror(MCP_ERR_CANCELLED), "cancelled");
}

/* Cancelled from the callback after the second tile: no tile after it;
 * then the same context prices the book as a fresh one does. */
static void from_the_callback(void **state)
{
  (void)state;
  mcp_backend b[2];
  mcp_market *m = market();
  mcp_portfolio *p = book(65536);
  for (int k = 0; k < backends(b); k++) {
    mcp_context *c = context(b[k], 4096), *fresh = context(b[k], 4096);
    watch w = {.ctx = c, .at = 2};
    assert_int_equal(mcp_context_set_progress(c, on_progress, &w), MCP_OK);
    mcp_results *r = (mcp_results *)&w, *again = NULL, *ref = NULL;
    assert_cancelled_call(mcp_price(c, m, p, &r), c, r);
    assert_int_equal(w.calls, 2);
    assert_int_equal(w.cancelled, MCP_OK);
    assert_int_equal(w.after, 0);
    assert_true(w.fraction[1] < 0.5);
    w = (watch){.ctx = c};
    assert_int_equal(mcp_price(c, m, p, &again), MCP_OK);
    assert_true(w.calls > 2); /* a report a tile, the last of all the work */
    assert_true(fabs(w.final - 1) < 1e-12);
    assert_int_equal(mcp_price(fresh, m, p, &ref), MCP_OK);
    char msg[256];
    if (!same_results(again, ref, msg, sizeof msg))
      fail_msg("%s: after a cancelled call: %s", mcp_backend_name(b[k]), msg);
    mcp_results_destroy(again);
    mcp_results_destroy(ref);
    mcp_context_destroy(c);
    mcp_context_destroy(fresh);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A request between calls stops the next call at its first check, once;
 * so do the Greeks', the scenarios' and the grids' calls. */
static void between_calls(void **state)
{
  (void)state;
  mcp_backend b[2];
  mcp_market *m = market();
  mcp_portfolio *p = book(8192), *grid;
  mcp_greeks *g;
  mcp_scenarios *s;
  static const double shifts[3] = {-0.1, 0, 0.1};
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_DELTA), MCP_OK);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, shifts), MCP_OK);
  assert_int_equal(mcp_portfolio_create(&grid), MCP_OK);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "amA";
  t.product = MCP_PRODUCT_AMERICAN;
  t.engine = MCP_ENGINE_PDE;
  t.type = MCP_PUT;
  t.underlying = "A";
  t.strike = 100;
  t.maturity = 1;
  assert_int_equal(mcp_portfolio_add_trade(grid, &t), MCP_OK);
  for (int k = 0; k < backends(b); k++) {
    mcp_context *c = context(b[k], 0);
    mcp_results *r = NULL;
    mcp_scenario_results *sr = NULL;
    assert_int_equal(mcp_context_cancel(c), MCP_OK);
    assert_cancelled_call(mcp_price(c, m, p, &r), c, r);
    assert_int_equal(mcp_price(c, m, p, &r), MCP_OK); /* the request was spent */
    mcp_results_destroy(r);
    r = NULL;
    assert_int_equal(mcp_context_cancel(c), MCP_OK);
    assert_cancelled_call(mcp_price_greeks(c, m, p, g, &r), c, r);
    assert_int_equal(mcp_context_cancel(c), MCP_OK);
    assert_cancelled_call(mcp_price_scenarios(c, m, p, s, &sr), c, sr);
    assert_int_equal(mcp_context_cancel(c), MCP_OK);
    assert_cancelled_call(mcp_price(c, m, grid, &r), c, r);
    assert_int_equal(mcp_price(c, m, grid, &r), MCP_OK);
    mcp_results_destroy(r);
    mcp_context_destroy(c);
  }
  mcp_portfolio_destroy(grid);
  mcp_scenarios_destroy(s);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Slices over several devices (the CPU's one listed three times): one
 * request stops them all, and leaves their workers for the next call. */
static void over_devices(void **state)
{
  (void)state;
  static const int list[3] = {0, 0, 0};
  mcp_market *m = market();
  mcp_portfolio *p = book(262144); /* 12 slices of 16 tiles: none done before the first */
  mcp_context *c = context(MCP_BACKEND_CPU, 4096);
  assert_int_equal(mcp_context_set_devices(c, 3, list), MCP_OK);
  watch w = {.ctx = c, .at = 1};
  assert_int_equal(mcp_context_set_progress(c, on_progress, &w), MCP_OK);
  mcp_results *r = NULL;
  assert_cancelled_call(mcp_price(c, m, p, &r), c, r);
  assert_int_equal(w.calls, 1);
  struct mcp_context **kept = c->workers;
  assert_non_null(kept);
  assert_int_equal(c->nworkers, 3);
  assert_int_equal(mcp_context_cancel(c), MCP_OK);
  assert_cancelled_call(mcp_price(c, m, p, &r), c, r);
  assert_ptr_equal(c->workers, kept);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

typedef struct canceller {
  mcp_context *ctx;
  watch *w;
  int reports; /* cancels once the callback has made them (0: after 0.3 s) */
  atomic_int over; /* the call returned first: no request */
  double at;
} canceller;

static void *cancel_later(void *arg)
{
  canceller *x = arg;
  struct timespec d = {0, 1000000};
  double t0 = mcpi_now();
  while (!atomic_load(&x->over) &&
         (x->reports ? atomic_load(&x->w->seen) < x->reports : mcpi_now() - t0 < 0.3))
    nanosleep(&d, NULL);
  x->at = mcpi_now();
  mcp_context_cancel(x->ctx);
  return NULL;
}

/* A run of many seconds in one tile, cancelled from another thread: on the
 * CPU after its third report within the tile, when it returns at once; on
 * the GPU after 0.3 s, when it returns once its tile ends (reported whole). */
static void from_another_thread(void **state)
{
  (void)state;
  mcp_backend b[2];
  mcp_market *m = market();
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  uint64_t paths = (uint64_t)1 << 22;
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 2000), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eH", "H", MCP_CALL, 100, 1.0, 1), MCP_OK);
  for (int k = 0; k < backends(b); k++) {
    int cpu = b[k] == MCP_BACKEND_CPU;
    mcp_context *c = context(b[k], cpu ? paths : 0);
    watch w = {.ctx = c};
    assert_int_equal(mcp_context_set_progress(c, on_progress, &w), MCP_OK);
    canceller x = {.ctx = c, .w = &w, .reports = cpu ? 3 : 0};
    pthread_t th;
    mcp_results *r = NULL;
    double t0 = mcpi_now();
    assert_int_equal(pthread_create(&th, NULL, cancel_later, &x), 0);
    mcp_status st = mcp_price(c, m, p, &r);
    double t1 = mcpi_now();
    atomic_store(&x.over, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    print_message("  %s: returned %.3f s after the request (%.3f s in all); %d reports, "
                  "%.3f s apart at most\n", mcp_backend_name(b[k]), t1 - x.at, t1 - t0,
                  w.calls, w.gap);
    if (st == MCP_OK) { /* a GPU may finish 2^22 paths of 2,000 steps in 0.3 s */
      assert_false(cpu);
      mcp_results_destroy(r);
    } else {
      assert_cancelled(st, c, r);
      assert_true(t1 - x.at < 1.0);
      if (cpu) /* reports within the tile, at most MCP_PROGRESS_SECONDS apart, give or
                  take a loaded machine's scheduling */
        assert_true(w.calls >= 3 && w.gap < 10 * MCP_PROGRESS_SECONDS);
    }
    mcp_context_destroy(c);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(statuses),          cmocka_unit_test(from_the_callback),
      cmocka_unit_test(between_calls),     cmocka_unit_test(over_devices),
      cmocka_unit_test(from_another_thread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
