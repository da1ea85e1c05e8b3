/* test_boundary.c: the exercise boundaries (mcp_results_exercise_boundary)
 * on the CPU: the grid's and the Longstaff-Schwartz rule's against a
 * binomial tree's (Cox-Ross-Rubinstein, written here), their layout (times
 * from today to maturity, the strike at maturity), the trades that have
 * none, prices unchanged by asking, and bad options. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "tests/mc_check.h"

/* A CRR tree of N steps for a put or call of strike K to T, exercised at
 * every step (dates NULL) or at the steps nearest the times dates[0..nd):
 * the boundary at each time want[q] (a step nearest it) into bound[q],
 * half-way (in log-spot) between the last node exercised and the next one
 * held, within half a node (sigma sqrt(T / N)) of the tree's own; none: 0
 * (put) or inf (call). */
static void tree_boundary(bs_params u, mcp_option_type type, double K, double T, int N,
                          const double *dates, int nd, const double *want, int nw,
                          double *bound)
{
  double dt = T / N, up = exp(u.vol * sqrt(dt)), down2 = 1 / (up * up), df = exp(-u.rate * dt);
  double p = (exp((u.rate - u.dividend) * dt) - 1 / up) / (up - 1 / up);
  double *v = malloc((size_t)(N + 1) * sizeof *v), phi = type == MCP_CALL ? 1 : -1;
  assert_non_null(v);
  double s = u.spot * pow(up, N);
  for (int j = 0; j <= N; j++, s *= down2)
    v[j] = fmax(phi * (s - K), 0);
  for (int q = 0; q < nw; q++)
    bound[q] = type == MCP_CALL ? INFINITY : 0;
  for (int n = N - 1; n >= 0; n--) {
    int exercisable = !dates;
    for (int k = 0; k < nd; k++)
      exercisable |= (int)lround(dates[k] / dt) == n;
    double edge = type == MCP_CALL ? INFINITY : 0;
    s = u.spot * pow(up, n);
    for (int j = 0; j <= n; j++, s *= down2) {
      double ex = fmax(phi * (s - K), 0);
      v[j] = df * (p * v[j] + (1 - p) * v[j + 1]);
      if (exercisable && ex > 0 && ex >= v[j]) {
        v[j] = ex;
        edge = type == MCP_CALL ? fmin(edge, s / up) : fmax(edge, s * up);
      }
    }
    for (int q = 0; q < nw; q++)
      if ((int)lround(want[q] / dt) == n)
        bound[q] = edge;
  }
  free(v);
}

/* A context on the CPU with the boundaries asked (or not), and the grid's
 * settings pde (NULL: the defaults). */
static mcp_context *context(int on, const mcp_pde_settings *pde)
{
  mcp_context *ctx;
  mcp_run_options *o;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_exercise_boundary(o, on), MCP_OK);
  assert_int_equal(mcp_run_options_exercise_boundary(o), on);
  if (pde)
    assert_int_equal(mcp_run_options_set_pde(o, pde), MCP_OK);
  assert_int_equal(mcp_context_set_options(ctx, o), MCP_OK);
  mcp_run_options_destroy(o);
  return ctx;
}

/* Trade id's boundary: its points' layout checked (times increasing from
 * first, the last at maturity T and the strike K), the spot of the point
 * nearest each time want[q] into got[q]. */
static size_t boundary_at(const mcp_results *r, const char *id, double first, double T,
                          double K, const double *want, int nw, double *got)
{
  size_t i, n;
  double t, s, last = -1, best[16];
  assert_int_equal(mcp_results_find(r, id, &i), MCP_OK);
  n = mcp_results_exercise_boundaries(r, i);
  assert_true(n >= 2);
  for (int q = 0; q < nw; q++)
    best[q] = INFINITY;
  for (size_t k = 0; k < n; k++) {
    assert_int_equal(mcp_results_exercise_boundary(r, i, k, &t, &s), MCP_OK);
    assert_true(t > last);
    if (k == 0)
      assert_true(fabs(t - first) < 1e-12);
    last = t;
    for (int q = 0; q < nw; q++)
      if (fabs(t - want[q]) < best[q]) {
        best[q] = fabs(t - want[q]);
        got[q] = s;
      }
  }
  assert_true(fabs(t - T) < 1e-12);
  assert_true(s == K);
  assert_int_equal(mcp_results_exercise_boundary(r, i, n, &t, &s), MCP_ERR_NOT_FOUND);
  return n;
}

static void assert_boundary(const char *what, const double *want, const double *got,
                            const double *ref, int nw, double rel)
{
  for (int q = 0; q < nw; q++) {
    print_message("  %-28s t %.3f  boundary %9.4f  tree %9.4f\n", what, want[q], got[q],
                  ref[q]);
    if (!(fabs(got[q] - ref[q]) <= rel * ref[q]))
      fail_msg("%s at %g: %.6f misses the tree's %.6f by more than %g", what, want[q], got[q],
               ref[q], rel);
  }
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A grid's boundary, spot S0 on its center node, lies half-way between
 * nodes: every point before maturity at log(s / S0) = (m + 1/2) h, h the
 * nodes' spacing (the least gap between two of the points' logs). */
static void assert_half_nodes(const mcp_results *r, const char *id, double S0)
{
  size_t i, n, m = 0;
  double t, s;
  assert_int_equal(mcp_results_find(r, id, &i), MCP_OK);
  n = mcp_results_exercise_boundaries(r, i);
  double *x = malloc(n * sizeof *x), h = INFINITY;
  assert_non_null(x);
  for (size_t k = 0; k + 1 < n; k++) {
    assert_int_equal(mcp_results_exercise_boundary(r, i, k, &t, &s), MCP_OK);
    if (s > 0 && isfinite(s))
      x[m++] = log(s / S0);
  }
  qsort(x, m, sizeof *x, by_value);
  for (size_t k = 1; k < m; k++)
    if (x[k] - x[k - 1] > 1e-12 && x[k] - x[k - 1] < h)
      h = x[k] - x[k - 1];
  assert_true(m > 2 && isfinite(h));
  for (size_t k = 0; k < m; k++) {
    double q = x[k] / h - 0.5;
    if (fabs(q - round(q)) > 1e-6)
      fail_msg("%s: boundary %g is %.3f nodes from the spot, not half-way between two",
               id, S0 * exp(x[k]), x[k] / h);
  }
  free(x);
}

/* An American put and a call that pays to exercise early (a dividend yield
 * above the rate) on a grid of 1601 nodes and steps: within half a node
 * (0.1%) and the march's error (0.1%) of the tree's boundary, beside the
 * tree's own error (sigma sqrt(T / N), half its nodes' spacing); the first
 * point today. */
static void test_grid_vs_tree(void **state)
{
  (void)state;
  static const struct {
    bs_params u;
    mcp_option_type type;
    double K, T;
  } cases[] = {{{100, 0.05, 0.00, 0.20}, MCP_PUT, 100, 1.0},
               {{100, 0.03, 0.07, 0.25}, MCP_CALL, 100, 1.0},
               {{90, 0.04, 0.01, 0.35}, MCP_PUT, 100, 2.0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const double want[4] = {0.1 * cases[c].T, 0.25 * cases[c].T, 0.5 * cases[c].T,
                            0.9 * cases[c].T};
    double got[4], ref[4];
    mcp_market *m = new_market();
    add_underlying(m, "A", cases[c].u);
    mcp_portfolio *p = new_portfolio(1000, 1);
    mcp_trade t = trade_on("AM", "A", MCP_PRODUCT_AMERICAN, cases[c].type, cases[c].K,
                           cases[c].T);
    t.engine = MCP_ENGINE_PDE;
    add_trade(p, &t);
    mcp_pde_settings s;
    mcp_pde_settings_init(&s);
    s.space_points = s.time_steps = 1601;
    mcp_context *ctx = context(1, &s);
    mcp_results *r = price(ctx, m, p);
    size_t n = boundary_at(r, "AM", 0, cases[c].T, cases[c].K, want, 4, got);
    assert_true(n > 800 && n <= 1001); /* every other step of 1601 and more, and maturity */
    assert_half_nodes(r, "AM", cases[c].u.spot);
    tree_boundary(cases[c].u, cases[c].type, cases[c].K, cases[c].T, 10000, NULL, 0, want, 4,
                  ref);
    assert_boundary(cases[c].type == MCP_PUT ? "American put, grid" : "American call, grid",
                    want, got, ref, 4, 0.002 + cases[c].u.vol * sqrt(cases[c].T / 10000));
    mcp_results_destroy(r);
    mcp_context_destroy(ctx);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* A Bermudan put of 4 dates and an American one of 10 by Longstaff-Schwartz:
 * the fitted rule's boundary at each date within 1.5% of the tree's
 * Bermudan (the regression's error), the last date the strike; the prices
 * the same bits as without the boundary. */
static void test_rule_vs_tree(void **state)
{
  (void)state;
  const bs_params u = {100, 0.05, 0.0, 0.2};
  const double four[4] = {0.25, 0.5, 0.75, 1.0}, ten[10] = {0.1, 0.2, 0.3, 0.4, 0.5,
                                                             0.6, 0.7, 0.8, 0.9, 1.0};
  mcp_market *m = new_market();
  add_underlying(m, "A", u);
  mcp_portfolio *p = new_portfolio_exact(200000, 5);
  mcp_trade b = trade_on("BP", "A", MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1.0);
  b.nfixings = 4;
  b.fixings = four;
  add_trade(p, &b);
  mcp_trade a = trade_on("AP", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1.0);
  a.engine = MCP_ENGINE_MC;
  a.exercises = 10;
  add_trade(p, &a);
  mcp_context *on = context(1, NULL), *off = context(0, NULL);
  mcp_results *r = price(on, m, p), *plain = price(off, m, p);
  double got[10], ref[10];
  assert_int_equal(boundary_at(r, "BP", 0.25, 1.0, 100, four, 3, got), 4);
  tree_boundary(u, MCP_PUT, 100, 1.0, 8000, four, 4, four, 3, ref);
  assert_boundary("Bermudan put, 4 dates", four, got, ref, 3, 0.015);
  assert_int_equal(boundary_at(r, "AP", 0.1, 1.0, 100, ten, 9, got), 10);
  tree_boundary(u, MCP_PUT, 100, 1.0, 8000, ten, 10, ten, 9, ref);
  assert_boundary("American put, 10 dates", ten, got, ref, 9, 0.015);
  mcp_estimate x, y;
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(mcp_results_exercise_boundaries(plain, i), 0);
    assert_int_equal(mcp_results_trade(r, i, &x), MCP_OK);
    assert_int_equal(mcp_results_trade(plain, i, &y), MCP_OK);
    assert_memory_equal(&x, &y, sizeof x);
  }
  mcp_results_destroy(r);
  mcp_results_destroy(plain);
  mcp_context_destroy(on);
  mcp_context_destroy(off);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* No boundary: a European, an American call never exercised early (no
 * dividends: the European's grid), a Heston American (its rule reads the
 * variance), a basket's Bermudan; bad indices and arguments. */
static void test_none(void **state)
{
  (void)state;
  static const char *const ab[2] = {"A", "B"};
  const double dates[2] = {0.5, 1.0};
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  add_underlying(m, "B", (bs_params){100, 0.05, 0.0, 0.3});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0.0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 2);
  add_european(p, "EU", "A", MCP_PUT, 100, 1.0, 1);
  mcp_trade t = trade_on("AC", "A", MCP_PRODUCT_AMERICAN, MCP_CALL, 100, 1.0);
  add_trade(p, &t);
  t = trade_on("HP", "H", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1.0);
  t.exercises = 10;
  add_trade(p, &t);
  t = trade_on("BB", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1.0);
  t.nassets = 2;
  t.assets = ab;
  t.nfixings = 2;
  t.fixings = dates;
  add_trade(p, &t);
  mcp_context *ctx = context(1, NULL);
  mcp_results *r = price(ctx, m, p);
  double x, y;
  for (size_t i = 0; i <= mcp_results_count(r); i++) {
    assert_int_equal(mcp_results_exercise_boundaries(r, i), 0);
    assert_int_equal(mcp_results_exercise_boundary(r, i, 0, &x, &y), MCP_ERR_NOT_FOUND);
  }
  assert_int_equal(mcp_results_exercise_boundary(r, 0, 0, NULL, &y), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_results_exercise_boundaries(NULL, 0), 0);
  mcp_run_options *o;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_exercise_boundary(o), 0);
  assert_int_equal(mcp_run_options_set_exercise_boundary(o, 2), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_run_options_last_error(o), "exercise boundary: expected 0"));
  assert_int_equal(mcp_run_options_exercise_boundary(o), 0);
  assert_int_equal(mcp_run_options_set_exercise_boundary(NULL, 1), MCP_ERR_ARGUMENT);
  mcp_run_options_destroy(o);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A Monte Carlo American call without dividends floored to its European
 * (its fitted rule lost to holding: the same price as its last date
 * alone): its boundary is the European's, nothing exercised before
 * maturity (+infinity), the strike at maturity; before, the rule's. */
static void test_floored(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_context *ctx = context(1, NULL);
  mcp_results *r[2];
  for (int one = 0; one < 2; one++) { /* 1000 dates, then one */
    mcp_portfolio *p = american_call_book("A", one ? 1 : 1000, 1);
    r[one] = price(ctx, m, p);
    mcp_portfolio_destroy(p);
  }
  mcp_estimate e = estimate(r[0], "T"), h = estimate(r[1], "T");
  assert_true(memcmp(&e, &h, sizeof e) == 0); /* floored */
  size_t n = mcp_results_exercise_boundaries(r[0], 0);
  assert_int_equal(n, 1000);
  double t, s;
  for (size_t k = 0; k < n; k++) {
    assert_int_equal(mcp_results_exercise_boundary(r[0], 0, k, &t, &s), MCP_OK);
    if (k + 1 < n && !(isinf(s) && s > 0))
      fail_msg("date %zu (t = %g): %g, not +infinity", k, t, s);
  }
  assert_true(t == 1 && s == 100);
  for (int k = 0; k < 2; k++)
    mcp_results_destroy(r[k]);
  mcp_context_destroy(ctx);
  mcp_market_destroy(m);
}

/* A call of strike 0 on an asset paying a dividend yield of 8%, exercised
 * early by Longstaff-Schwartz: in the money at every spot, so its rule's
 * boundary is scanned about the spot; a finite one at the first date, 0 at
 * maturity. */
static void test_zero_strike(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  add_underlying(m, "D", (bs_params){100, 0.01, 0.08, 0.2});
  mcp_portfolio *p = new_portfolio(20000, 1);
  mcp_trade t = trade_on("C0", "D", MCP_PRODUCT_AMERICAN, MCP_CALL, 0, 1.0);
  t.engine = MCP_ENGINE_MC;
  t.exercises = 4;
  add_trade(p, &t);
  mcp_context *ctx = context(1, NULL);
  mcp_results *r = price(ctx, m, p);
  const double want[1] = {0.25};
  double got[1];
  assert_int_equal(boundary_at(r, "C0", 0.25, 1.0, 0, want, 1, got), 4);
  print_message("  call of strike 0, first date: boundary %g\n", got[0]);
  assert_true(got[0] >= 0 && got[0] < 100);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A march of more time steps than MCPI_BOUND_POINTS records every few of
 * them: at most 1000 points and maturity, today first. */
static void test_long_march(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  s.time_steps = 4000;
  mcp_trade t = trade_on("AM", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1.0);
  add_trade(p, &t);
  mcp_context *ctx = context(1, &s);
  mcp_results *r = price(ctx, m, p);
  const double want[1] = {0.5};
  double got[1], ref[1];
  size_t n = boundary_at(r, "AM", 0, 1.0, 100, want, 1, got);
  assert_true(n > 500 && n <= 1001);
  tree_boundary((bs_params){100, 0.05, 0.0, 0.2}, MCP_PUT, 100, 1.0, 10000, NULL, 0, want, 1,
                ref);
  assert_boundary("American put, 4000 steps", want, got, ref, 1, 0.005);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grid_vs_tree),
      cmocka_unit_test(test_rule_vs_tree),
      cmocka_unit_test(test_none),
      cmocka_unit_test(test_floored),
      cmocka_unit_test(test_zero_strike),
      cmocka_unit_test(test_long_march),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
