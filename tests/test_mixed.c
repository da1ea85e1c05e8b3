/* test_mixed.c: mixed precision (mcp_precision MCP_MIXED): the double paths
 * on the double mapping's normals transformed in float.  Its normals are
 * double's to the float transform's error; every trade of the examples'
 * books (each model and product family they hold) prices within 0.2 of its
 * standard error of double, on the CPU and on the GPU where there is one;
 * the GPU's fused and stored normals give the same bits, and its prices are
 * the CPU's to float rounding. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "mcprice.h"
#include "models/rng.h"
#include "tests/same_results.h"

/* The books: the examples' (every model of its market, every product family
 * of its book) and the dated one (curves, seasoned trades). */
static const char *const books[][2] = {
    {SRCDIR "/examples/market.json", SRCDIR "/examples/book.json"},
    {SRCDIR "/examples/dated_market.json", SRCDIR "/examples/dated_book.json"}};
#define NBOOKS (sizeof books / sizeof *books)
#define PATHS 20000

/* The book priced (with the Greeks of list, or none) on a context of those
 * options. */
static mcp_results *price_list(mcp_backend b, mcp_precision prec, mcp_normals normals,
                               const mcp_market *m, const mcp_portfolio *p, const char *list)
{
  mcp_run_options *o;
  mcp_context *c;
  char err[512];
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_backend(o, b), MCP_OK);
  assert_int_equal(mcp_run_options_set_precision(o, prec), MCP_OK);
  assert_int_equal(mcp_run_options_set_normals(o, normals), MCP_OK);
  if (mcp_context_create_with_options(&c, o, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  mcp_results *r = NULL;
  mcp_greeks *g = NULL;
  if (list) {
    assert_int_equal(mcp_greeks_create(&g), MCP_OK);
    assert_int_equal(mcp_greeks_parse(g, list), MCP_OK);
  }
  if ((list ? mcp_price_greeks(c, m, p, g, &r) : mcp_price(c, m, p, &r)) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(c));
  mcp_greeks_destroy(g);
  mcp_context_destroy(c);
  mcp_run_options_destroy(o);
  return r;
}

static mcp_results *price(mcp_backend b, mcp_precision prec, mcp_normals normals,
                          const mcp_market *m, const mcp_portfolio *p)
{
  return price_list(b, prec, normals, m, p, NULL);
}

static void load(size_t k, mcp_market **m, mcp_portfolio **p)
{
  char err[512];
  if (mcp_market_load(m, books[k][0], err, sizeof err) != MCP_OK ||
      mcp_portfolio_load_for(p, *m, books[k][1], err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  /* MCP_TEST_PATHS, where set: CI's sanitizer build prices the books at
   * those (the claims hold at any count; the plain build runs PATHS) */
  assert_int_equal(mcp_portfolio_set_paths(*p, mc_example_paths(PATHS)), MCP_OK);
}

/* The largest |a - b| / se over the trades of two runs of one book, se the
 * larger standard error of the two, at least 1e-9 of the price (an exact
 * trade's, a grid's or a closed form's, rounds differently on the CPU and
 * the GPU); moved counts the trades whose prices differ at all. */
static double largest_in_errors(const mcp_results *a, const mcp_results *b, size_t *moved)
{
  double worst = 0;
  assert_int_equal(mcp_results_count(a), mcp_results_count(b));
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_estimate x, y;
    mcp_results_trade(a, i, &x);
    mcp_results_trade(b, i, &y);
    double d = fabs(x.price - y.price),
           se = fmax(fmax(x.std_error, y.std_error), 1e-9 * fmax(fabs(x.price), fabs(y.price)));
    if (d > 0)
      (*moved)++;
    double z = d == 0 ? 0 : se > 0 ? d / se : INFINITY;
    if (z > worst)
      worst = z;
  }
  return worst;
}

/* Each normal of the mixed transform is the double one's within the float
 * transform's error, and the fills in either precision are the per-block
 * transforms. */
static void normals_track_double(void **state)
{
  (void)state;
  enum { STEPS = 6, N = 4098 };
  uint64_t seed = mcpi_rng_job_seed(9, "A", 0);
  double *zd = malloc(sizeof(double) * STEPS * N), *zm = malloc(sizeof(double) * STEPS * N);
  assert_non_null(zd);
  assert_non_null(zm);
  mcpi_rng_fill_host_in(MCP_DOUBLE, seed, 3, STEPS, 2, N, zd, N);
  mcpi_rng_fill_host_in(MCP_MIXED, seed, 3, STEPS, 2, N, zm, N);
  double worst = 0;
  size_t equal = 0;
  for (size_t s = 0; s < STEPS; s++)
    for (size_t i = 0; i < N; i++) {
      double d = zd[s * N + i], x = zm[s * N + i];
      worst = fmax(worst, fabs(x - d) / (1 + fabs(d)));
      equal += x == d;
      if (i % 2 == 0) { /* the pair's block, transformed alone */
        uint32_t c[4];
        double pair[2];
        mcpi_rng_pair_block(seed, 3 + s, 2 + i, c);
        mcpi_rng_box_muller_mixed(c, pair);
        assert_true(pair[0] == x && pair[1] == zm[s * N + i + 1]);
      }
    }
  print_message("  largest |mixed - double| / (1 + |z|): %.2e; %zu of %d equal\n", worst, equal,
                STEPS * N);
  assert_true(worst < 4e-6);
  assert_true(equal < STEPS * N / 2); /* the float transform really ran */
  free(zd);
  free(zm);
}

/* Every trade's mixed price within 0.2 of its standard error of double
 * (issue 36's bound; float rounding moves them far less), and not the same
 * bits throughout; on each backend present. */
static void prices_track_double(void **state)
{
  (void)state;
  mcp_backend backends[2] = {MCP_BACKEND_CPU, MCP_BACKEND_CUDA};
  int nb = mcp_device_count() > 0 ? 2 : 1;
  for (int b = 0; b < nb; b++)
    for (size_t k = 0; k < NBOOKS; k++) {
      mcp_market *m;
      mcp_portfolio *p;
      load(k, &m, &p);
      mcp_results *d = price(backends[b], MCP_DOUBLE, MCP_NORMALS_FUSED, m, p);
      mcp_results *x = price(backends[b], MCP_MIXED, MCP_NORMALS_FUSED, m, p);
      size_t moved = 0;
      double worst = largest_in_errors(d, x, &moved);
      print_message("  %s, %s: %zu trades, %zu moved, largest |mixed - double| %.2e "
                    "standard errors\n",
                    b ? "GPU" : "CPU", books[k][1] + sizeof SRCDIR, mcp_results_count(d), moved,
                    worst);
      assert_true(worst <= 0.2);
      assert_true(moved > 0);
      mcp_results_destroy(d);
      mcp_results_destroy(x);
      mcp_portfolio_destroy(p);
      mcp_market_destroy(m);
    }
}

/* The Greeks on mixed paths: the same sensitivities by the same methods
 * (on-path vega and rho included: mixed paths are double paths), each
 * within 0.2 of its standard error of double's, plus 1e-8 relative and
 * 1e-12 absolute (zero but for rounding); on each backend present. */
static void greeks_track_double(void **state)
{
  (void)state;
  mcp_backend backends[2] = {MCP_BACKEND_CPU, MCP_BACKEND_CUDA};
  int nb = mcp_device_count() > 0 ? 2 : 1;
  mcp_market *m;
  mcp_portfolio *p;
  load(0, &m, &p);
  for (int b = 0; b < nb; b++) {
    mcp_results *d = price_list(backends[b], MCP_DOUBLE, MCP_NORMALS_FUSED, m, p, "all");
    mcp_results *x = price_list(backends[b], MCP_MIXED, MCP_NORMALS_FUSED, m, p, "all");
    double worst = 0;
    size_t n = 0, moved = 0;
    for (size_t i = 0; i <= mcp_results_count(d); i++) {
      assert_int_equal(mcp_results_sensitivities(d, i), mcp_results_sensitivities(x, i));
      mcp_sensitivity u, v;
      for (size_t k = 0; mcp_results_sensitivity(d, i, k, &u) == MCP_OK; k++, n++) {
        assert_int_equal(mcp_results_sensitivity(x, i, k, &v), MCP_OK);
        assert_string_equal(u.name, v.name);
        assert_int_equal(u.method, v.method);
        double dv = fabs(u.value.price - v.value.price),
               se = fmax(u.value.std_error, v.value.std_error),
               rel = 1e-8 * fmax(fabs(u.value.price), fabs(v.value.price)) + 1e-12;
        moved += dv > 0;
        if (dv > 0.2 * se + rel)
          fail_msg("%s %s: double %.17g mixed %.17g (se %.3g)",
                   i < mcp_results_count(d) ? mcp_results_trade_id(d, i) : "the book", u.name,
                   u.value.price, v.value.price, se);
        worst = fmax(worst, dv / (0.2 * se + rel));
      }
    }
    print_message("  %s: %zu sensitivities, %zu moved, largest |mixed - double| %.2e of the "
                  "bound\n",
                  b ? "GPU" : "CPU", n, moved, worst);
    assert_true(moved > n / 2);
    mcp_results_destroy(d);
    mcp_results_destroy(x);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* On the GPU, fused and stored mixed normals give the same bits (the same
 * transform in the path kernel and in the normals kernel), and the prices
 * are the CPU's to float rounding: each side's logarithm, sine and cosine
 * (rng.h) move a normal by about 1e-6, a price far less than its error. */
static void gpu_matches_cpu(void **state)
{
  (void)state;
  if (mcp_device_count() <= 0) {
    print_message("  no GPU: skipped\n");
    return;
  }
  for (size_t k = 0; k < NBOOKS; k++) {
    mcp_market *m;
    mcp_portfolio *p;
    load(k, &m, &p);
    mcp_results *f = price(MCP_BACKEND_CUDA, MCP_MIXED, MCP_NORMALS_FUSED, m, p);
    mcp_results *s = price(MCP_BACKEND_CUDA, MCP_MIXED, MCP_NORMALS_STORED, m, p);
    mcp_results *c = price(MCP_BACKEND_CPU, MCP_MIXED, MCP_NORMALS_FUSED, m, p);
    char msg[512];
    if (!same_results(f, s, msg, sizeof msg))
      fail_msg("fused against stored: %s", msg);
    size_t moved = 0;
    double worst = largest_in_errors(f, c, &moved);
    print_message("  %s: GPU against CPU, largest %.2e standard errors (%zu moved)\n",
                  books[k][1] + sizeof SRCDIR, worst, moved);
    assert_true(worst <= 0.05);
    mcp_results_destroy(f);
    mcp_results_destroy(s);
    mcp_results_destroy(c);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* Log-spots beyond the mixed exp's range (|x| >= 700: the C library's exp,
 * taken after the fast path on the GPU, mcp_dmath.h): an Asian on a spot of
 * e^-712, whose fixings' exps are subnormal and whose fast path would carry
 * 2^n below the exponent field, and one on e^-700.5, whose fixings straddle
 * the bound within a warp.  Mixed prices positive and double's to 1e-4,
 * the GPU's fused and stored the same bits, and the CPU's to 1e-4. */
static void far_log_spots(void **state)
{
  (void)state;
  mcp_market *m;
  mcp_portfolio *p;
  static const double logs[] = {-712.0, -700.5};
  double fix[252];
  for (int k = 0; k < 252; k++)
    fix[k] = (k + 1) / 252.0;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  for (int a = 0; a < 2; a++) {
    char name[16];
    snprintf(name, sizeof name, "FAR%d", a);
    assert_int_equal(mcp_market_add_black_scholes(m, name, exp(logs[a]), 0.03, 0.01, 0.25),
                     MCP_OK);
    assert_int_equal(mcp_portfolio_add_asian(p, name, name, MCP_ARITHMETIC, MCP_CALL,
                                             0.9 * exp(logs[a]), 252, fix, 1.0, 1),
                     MCP_OK);
  }
  assert_int_equal(mcp_portfolio_set_paths(p, mc_example_paths(PATHS)), MCP_OK);
  int gpu = mcp_device_count() > 0;
  mcp_results *d = price(MCP_BACKEND_CPU, MCP_DOUBLE, MCP_NORMALS_FUSED, m, p);
  mcp_results *r[3] = {price(MCP_BACKEND_CPU, MCP_MIXED, MCP_NORMALS_FUSED, m, p),
                       gpu ? price(MCP_BACKEND_CUDA, MCP_MIXED, MCP_NORMALS_FUSED, m, p) : NULL,
                       gpu ? price(MCP_BACKEND_CUDA, MCP_MIXED, MCP_NORMALS_STORED, m, p) : NULL};
  for (int k = 0; k < 3 && r[k]; k++)
    for (size_t i = 0; i < 2; i++) {
      mcp_estimate x, y;
      mcp_results_trade(d, i, &x);
      mcp_results_trade(r[k], i, &y);
      print_message("  %s, e^%g: double %.6e, mixed %.6e\n",
                    k == 0 ? "CPU" : k == 1 ? "GPU fused" : "GPU stored", logs[i], x.price,
                    y.price);
      assert_true(y.price > 0 && fabs(y.price - x.price) <= 1e-4 * x.price);
    }
  if (gpu) {
    char msg[512];
    if (!same_results(r[1], r[2], msg, sizeof msg))
      fail_msg("fused against stored: %s", msg);
  }
  for (int k = 0; k < 3; k++)
    mcp_results_destroy(r[k]);
  mcp_results_destroy(d);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {cmocka_unit_test(normals_track_double),
                                     cmocka_unit_test(prices_track_double),
                                     cmocka_unit_test(greeks_track_double),
                                     cmocka_unit_test(gpu_matches_cpu),
                                     cmocka_unit_test(far_log_spots)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
