/* test_slices.c: a pricing cut into slices merges to the bits of the whole
 * (prices, Greeks, scenario grids; every sampling method, Longstaff-Schwartz,
 * the PDE, per-path arrays), whatever the number of slices and the order of
 * the merge, through memory, bytes and files; the devices of a context
 * (workers on the CPU) give the same bits; bad partials are refused with
 * messages.  On the CPU, and on the GPU where there is one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "mcprice.h"
#include "src/exec/context.h"
#include "src/exec/setup.h"
#include "tests/same_results.h"

#ifdef MCP_HAVE_CURAND
#define HAVE_QMC 1
#else
#define HAVE_QMC 0 /* QMC takes cuRAND's Sobol directions */
#endif

static mcp_market *load_market(void)
{
  mcp_market *m = NULL;
  char err[512];
  assert_int_equal(mcp_market_load(&m, SRCDIR "/examples/market.json", err, sizeof err), MCP_OK);
  return m;
}

/* The example book (every product family, antithetic, a control variate,
 * PDE Americans, a Longstaff-Schwartz Bermudan, autocallables) at few paths;
 * methods >= 0 replaces its methods.  MCP_TEST_PATHS, where set, replaces the
 * paths: CI's sanitizer builds, 5 to 10 times slower, run 1024 (4 chunks a
 * job, still cut among three workers). */
static mcp_portfolio *load_book(uint64_t paths, int methods)
{
  mcp_portfolio *p = NULL;
  char err[512];
  assert_int_equal(mcp_portfolio_load(&p, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, mc_example_paths(paths)), MCP_OK);
  if (methods >= 0)
    assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  return p;
}

static mcp_greeks *all_greeks(void)
{
  mcp_greeks *g;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "all"), MCP_OK);
  return g;
}

static mcp_scenarios *grid(void)
{
  mcp_scenarios *s;
  const double spot[3] = {-0.1, 0, 0.1}, vol[2] = {0, 0.05};
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, spot), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, vol),
                   MCP_OK);
  return s;
}

/* A scenario set of three, shifting some of the example market's
 * underlyings. */
static mcp_scenarios *scenario_set(void)
{
  mcp_scenarios *s;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "crash", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 0, "ACME", MCP_SHIFT_SPOT, -0.15), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 0, "HELIX", MCP_SHIFT_VOLATILITY, 0.3), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "rates", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 1, "ACME", MCP_SHIFT_RATE, 0.01), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "none", NULL), MCP_OK);
  return s;
}

/* A set's base and scenarios, every trade and the book, to the bit. */
static void expect_same_set(const mcp_scenario_results *a, const mcp_scenario_results *b,
                            const char *what)
{
  size_t n = mcp_scenario_results_scenarios(a);
  assert_int_equal(n, mcp_scenario_results_scenarios(b));
  mcp_estimate u, v;
  for (size_t q = 0; q <= n; q++)
    for (size_t t = 0; t <= mcp_scenario_results_count(a); t++) {
      int book = t == mcp_scenario_results_count(a);
      if (q == 0) {
        assert_int_equal(book ? mcp_scenario_results_base(a, &u)
                              : mcp_scenario_results_base_trade(a, t, &u), MCP_OK);
        assert_int_equal(book ? mcp_scenario_results_base(b, &v)
                              : mcp_scenario_results_base_trade(b, t, &v), MCP_OK);
      } else {
        assert_int_equal(book ? mcp_scenario_results_set_total(a, q - 1, &u)
                              : mcp_scenario_results_set_trade(a, t, q - 1, &u), MCP_OK);
        assert_int_equal(book ? mcp_scenario_results_set_total(b, q - 1, &v)
                              : mcp_scenario_results_set_trade(b, t, q - 1, &v), MCP_OK);
      }
      if (memcmp(&u, &v, sizeof u) != 0)
        fail_msg("%s: point %zu, %s: %.17g against %.17g", what, q,
                 book ? "the book" : mcp_scenario_results_trade_id(a, t), u.price, v.price);
    }
}

static void expect_same(const mcp_results *a, const mcp_results *b, const char *what)
{
  char msg[512] = "";
  if (!same_results(a, b, msg, sizeof msg))
    fail_msg("%s: %s", what, msg);
}

static void expect_same_grid(const mcp_scenario_results *a, const mcp_scenario_results *b,
                             const char *what)
{
  size_t n[3];
  for (int x = 0; x < 3; x++) {
    n[x] = mcp_scenario_results_shifts(a, (mcp_shift_axis)x);
    assert_int_equal(n[x], mcp_scenario_results_shifts(b, (mcp_shift_axis)x));
  }
  for (size_t i = 0; i < n[0]; i++)
    for (size_t j = 0; j < n[1]; j++)
      for (size_t k = 0; k < n[2]; k++) {
        mcp_estimate u, v;
        for (size_t t = 0; t <= mcp_scenario_results_count(a); t++) {
          if (t < mcp_scenario_results_count(a)) {
            assert_int_equal(mcp_scenario_results_trade(a, t, i, j, k, &u), MCP_OK);
            assert_int_equal(mcp_scenario_results_trade(b, t, i, j, k, &v), MCP_OK);
          } else {
            assert_int_equal(mcp_scenario_results_total(a, i, j, k, &u), MCP_OK);
            assert_int_equal(mcp_scenario_results_total(b, i, j, k, &v), MCP_OK);
          }
          if (memcmp(&u, &v, sizeof u) != 0)
            fail_msg("%s: point (%zu, %zu, %zu), %s: %.17g against %.17g", what, i, j, k,
                     t < mcp_scenario_results_count(a) ? mcp_scenario_results_trade_id(a, t)
                                                       : "the book",
                     u.price, v.price);
        }
      }
}

/* The n slices of a pricing. */
static mcp_partial **slices(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                            const mcp_greeks *g, const mcp_scenarios *s, unsigned n)
{
  mcp_partial **parts = calloc(n, sizeof *parts);
  assert_non_null(parts);
  for (unsigned k = 0; k < n; k++) {
    mcp_status st = mcp_price_slice(c, m, p, g, s, k, n, &parts[k]);
    if (st != MCP_OK)
      fail_msg("slice %u of %u: %s", k, n, mcp_context_last_error(c));
    unsigned nn;
    assert_int_equal(mcp_partial_slice(parts[k], &nn), k);
    assert_int_equal(nn, n);
  }
  return parts;
}

static void destroy(mcp_partial **parts, unsigned n)
{
  for (unsigned k = 0; k < n; k++)
    mcp_partial_destroy(parts[k]);
  free(parts);
}

/* The slices in orders 0..n-1, n-1..0 and every third from 1 (a shuffle). */
static void reorder(mcp_partial **parts, unsigned n, int order, mcp_partial **out)
{
  for (unsigned i = 0; i < n; i++)
    out[i] = order == 0 ? parts[i] : order == 1 ? parts[n - 1 - i] : parts[(1 + 3 * i) % n];
  if (order == 2 && n % 3 == 0) /* 3 shares a factor with n: rotate instead */
    for (unsigned i = 0; i < n; i++)
      out[i] = parts[(i + 1) % n];
}

static const mcp_backend backends[2] = {MCP_BACKEND_CPU, MCP_BACKEND_CUDA};

static int make_context(int b, mcp_context **c)
{
  if (backends[b] == MCP_BACKEND_CUDA && mcp_device_count() == 0)
    return 0;
  assert_int_equal(mcp_context_create(c, backends[b]), MCP_OK);
  return 1;
}

static void prices_merge_to_the_bits(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(8192, -1);
  static const unsigned counts[4] = {1, 2, 3, 7};
  for (int b = 0; b < 2; b++) {
    mcp_context *c;
    if (!make_context(b, &c))
      continue;
    mcp_results *whole = NULL;
    assert_int_equal(mcp_price(c, m, p, &whole), MCP_OK);
    for (int i = 0; i < 4; i++) {
      unsigned n = counts[i];
      mcp_partial **parts = slices(c, m, p, NULL, NULL, n), *order[7];
      for (int o = 0; o < 3; o++) {
        char what[64];
        mcp_results *r = NULL;
        reorder(parts, n, o, order);
        snprintf(what, sizeof what, "%s, %u slices, order %d", mcp_backend_name(backends[b]),
                 n, o);
        if (mcp_partials_merge(c, m, p, NULL, NULL, order, n, &r, NULL) != MCP_OK)
          fail_msg("%s: %s", what, mcp_context_last_error(c));
        expect_same(r, whole, what);
        assert_int_equal(mcp_results_backend(r), backends[b]);
        mcp_results_destroy(r);
      }
      destroy(parts, n);
    }
    mcp_results_destroy(whole);
    mcp_context_destroy(c);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* QMC's replicates (a slice's range crosses scramblings; antithetic alone
 * in a build without cuRAND), antithetic pairs and every Greek: through
 * bytes and through files. */
static void greeks_and_qmc_through_files(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(8192, HAVE_QMC ? MCP_QMC | MCP_ANTITHETIC : MCP_ANTITHETIC);
  mcp_greeks *g = all_greeks();
  char dir[] = "/tmp/mcp-slices-XXXXXX";
  assert_non_null(mkdtemp(dir));
  for (int b = 0; b < 2; b++) {
    mcp_context *c;
    if (!make_context(b, &c))
      continue;
    mcp_results *whole = NULL, *r = NULL;
    assert_int_equal(mcp_price_greeks(c, m, p, g, &whole), MCP_OK);
    unsigned n = 3;
    mcp_partial **parts = slices(c, m, p, g, NULL, n), *back[3];
    char err[512], path[64];
    for (unsigned k = 0; k < n; k++) {
      void *bytes;
      size_t len;
      mcp_partial *d;
      assert_int_equal(mcp_partial_encode(parts[k], &bytes, &len), MCP_OK);
      assert_int_equal(mcp_partial_decode(&d, bytes, len, "bytes", err, sizeof err), MCP_OK);
      free(bytes);
      snprintf(path, sizeof path, "%s/part-%u.mcpart", dir, k);
      assert_int_equal(mcp_partial_write(d, path, err, sizeof err), MCP_OK);
      mcp_partial_destroy(d);
      if (mcp_partial_read(&back[n - 1 - k], path, err, sizeof err) != MCP_OK)
        fail_msg("%s", err);
      remove(path);
    }
    if (mcp_partials_merge(c, m, p, g, NULL, back, n, &r, NULL) != MCP_OK)
      fail_msg("%s", mcp_context_last_error(c));
    expect_same(r, whole, "Greeks of QMC slices through files");
    mcp_results_destroy(r);
    for (unsigned k = 0; k < n; k++)
      mcp_partial_destroy(back[k]);
    destroy(parts, n);
    mcp_results_destroy(whole);
    mcp_context_destroy(c);
  }
  rmdir(dir);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void scenarios_merge_to_the_bits(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(8192, -1);
  mcp_scenarios *sets[2] = {grid(), scenario_set()};
  for (int b = 0; b < 2; b++) {
    mcp_context *c;
    if (!make_context(b, &c))
      continue;
    for (int k = 0; k < 2; k++) {
      mcp_scenarios *s = sets[k];
      mcp_scenario_results *whole = NULL, *r = NULL;
      assert_int_equal(mcp_price_scenarios(c, m, p, s, &whole), MCP_OK);
      for (unsigned n = 2; n <= 3u - (unsigned)k; n++) { /* a set in two: slicing is the grid's */
        mcp_partial **parts = slices(c, m, p, NULL, s, n), *order[3];
        reorder(parts, n, 1, order);
        if (mcp_partials_merge(c, m, p, NULL, s, order, n, NULL, &r) != MCP_OK)
          fail_msg("%s", mcp_context_last_error(c));
        if (k)
          expect_same_set(r, whole, "scenario set slices");
        else
          expect_same_grid(r, whole, "scenario slices");
        mcp_scenario_results_destroy(r);
        r = NULL;
        /* a set's slices are not a grid's */
        if (k)
          assert_int_equal(mcp_partials_merge(c, m, p, NULL, sets[0], parts, n, NULL, &r),
                           MCP_ERR_INPUT);
        destroy(parts, n);
      }
      mcp_scenario_results_destroy(whole);
    }
    mcp_context_destroy(c);
  }
  mcp_scenarios_destroy(sets[0]);
  mcp_scenarios_destroy(sets[1]);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A context's devices (the CPU's one device listed three times: three
 * workers) price, estimate Greeks and scenario grids to one device's bits. */
static void devices_give_the_same_bits(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(8192, -1);
  mcp_greeks *g = all_greeks();
  mcp_scenarios *s = grid();
  for (int b = 0; b < 2; b++) {
    mcp_context *one, *many;
    if (!make_context(b, &one) || !make_context(b, &many))
      continue;
    const int list[3] = {0, 0, 0};
    assert_int_equal(mcp_context_set_devices(many, 3, list), MCP_OK);
    mcp_results *a = NULL, *x = NULL;
    assert_int_equal(mcp_price(one, m, p, &a), MCP_OK);
#ifdef _OPENMP
    int threads = omp_get_max_threads();
#endif
    assert_int_equal(mcp_price(many, m, p, &x), MCP_OK);
#ifdef _OPENMP
    /* each worker took a share of the threads; the caller has its own back */
    assert_int_equal(omp_get_max_threads(), threads);
#endif
    expect_same(x, a, "prices on three workers");
    /* the workers' contexts (their streams and buffers) are kept for the
     * next call, which gives the same bits on them */
    mcp_context **kept = many->workers;
    assert_non_null(kept);
    mcp_results_destroy(x);
    assert_int_equal(mcp_price(many, m, p, &x), MCP_OK);
    assert_ptr_equal(many->workers, kept);
    expect_same(x, a, "prices on three kept workers");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    assert_int_equal(mcp_price_greeks(one, m, p, g, &a), MCP_OK);
    assert_int_equal(mcp_price_greeks(many, m, p, g, &x), MCP_OK);
    expect_same(x, a, "Greeks on three workers");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    mcp_scenario_results *sa = NULL, *sx = NULL;
    assert_int_equal(mcp_price_scenarios(one, m, p, s, &sa), MCP_OK);
    assert_int_equal(mcp_price_scenarios(many, m, p, s, &sx), MCP_OK);
    expect_same_grid(sx, sa, "scenarios on three workers");
    mcp_scenario_results_destroy(sa);
    mcp_scenario_results_destroy(sx);
    /* control variates everywhere: a worker's second slice of a job on its
     * kept plan fits the coefficients from the raw payoffs again; a grid of
     * one point (a group of its own markets) on the workers */
    mcp_portfolio *cv = load_book(8192, MCP_CONTROL_VARIATE);
    assert_int_equal(mcp_price(one, m, cv, &a), MCP_OK);
    assert_int_equal(mcp_price(many, m, cv, &x), MCP_OK);
    expect_same(x, a, "control variates on three workers");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    assert_int_equal(mcp_price_greeks(one, m, cv, g, &a), MCP_OK);
    assert_int_equal(mcp_price_greeks(many, m, cv, g, &x), MCP_OK);
    expect_same(x, a, "Greeks with control variates on three workers");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    /* the exercise boundaries, which the worker of slice 0 writes into the
     * setup its workers share (then off again) */
    mcp_run_options *o;
    assert_int_equal(mcp_run_options_create(&o), MCP_OK);
    assert_int_equal(mcp_run_options_set_exercise_boundary(o, 1), MCP_OK);
    assert_int_equal(mcp_context_set_options(one, o), MCP_OK);
    assert_int_equal(mcp_context_set_options(many, o), MCP_OK);
    mcp_run_options_destroy(o);
    assert_int_equal(mcp_price_greeks(one, m, cv, g, &a), MCP_OK);
    assert_int_equal(mcp_price_greeks(many, m, cv, g, &x), MCP_OK);
    size_t bounded = 0;
    for (size_t i = 0; i < mcp_results_count(a); i++)
      bounded += mcp_results_exercise_boundaries(a, i) > 0;
    assert_true(bounded >= 2); /* the Bermudan's rule, the Americans' grids */
    expect_same(x, a, "exercise boundaries on three workers");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    assert_int_equal(mcp_run_options_create(&o), MCP_OK);
    assert_int_equal(mcp_run_options_set_exercise_boundary(o, 0), MCP_OK);
    assert_int_equal(mcp_context_set_options(one, o), MCP_OK);
    assert_int_equal(mcp_context_set_options(many, o), MCP_OK);
    mcp_run_options_destroy(o);
    mcp_scenarios *point;
    const double up[1] = {0.05};
    assert_int_equal(mcp_scenarios_create(&point), MCP_OK);
    assert_int_equal(mcp_scenarios_set(point, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 1, up), MCP_OK);
    assert_int_equal(mcp_price_scenarios(one, m, cv, point, &sa), MCP_OK);
    assert_int_equal(mcp_price_scenarios(many, m, cv, point, &sx), MCP_OK);
    expect_same_grid(sx, sa, "a one-point grid with control variates on three workers");
    mcp_scenario_results_destroy(sa);
    mcp_scenario_results_destroy(sx);
    mcp_scenarios_destroy(point);
    mcp_portfolio_destroy(cv);
    /* an input error is the call's, with one device's message: too few
     * paths for a control variate (found as the calling thread plans; a
     * worker's failure, a cancellation: test_cancel's over_devices) */
    mcp_portfolio *bad = load_book(8192, -1);
    assert_int_equal(mcp_portfolio_set_paths(bad, 2), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(bad, MCP_CONTROL_VARIATE), MCP_OK);
    kept = many->workers;
    assert_non_null(kept);
    assert_int_equal(mcp_price(one, m, bad, &a), MCP_ERR_INPUT);
    assert_int_equal(mcp_price(many, m, bad, &x), MCP_ERR_INPUT);
    assert_null(x);
    assert_string_equal(mcp_context_last_error(many), mcp_context_last_error(one));
    mcp_portfolio_destroy(bad);
    /* a refused input leaves the workers as they were (a device's
     * failure drops them), and the next call on them has the same bits */
    assert_ptr_equal(many->workers, kept);
    assert_int_equal(mcp_price(one, m, p, &a), MCP_OK);
    assert_int_equal(mcp_price(many, m, p, &x), MCP_OK);
    expect_same(x, a, "prices after a failed call");
    mcp_results_destroy(a);
    mcp_results_destroy(x);
    /* another list of devices takes workers of its own */
    assert_non_null(many->workers);
    assert_int_equal(mcp_context_set_devices(many, 2, list), MCP_OK);
    assert_null(many->workers);
    /* a device that is not there */
    const int missing[2] = {0, 99};
    assert_int_equal(mcp_context_set_devices(many, 2, missing), MCP_ERR_NOT_FOUND);
    assert_non_null(strstr(mcp_context_last_error(many), "99"));
    assert_int_equal(mcp_context_set_devices(many, 0, list), MCP_ERR_ARGUMENT);
    mcp_context_destroy(one);
    mcp_context_destroy(many);
  }
  mcp_scenarios_destroy(s);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Whether x's row of job ji is its own, and x's copy of base's (the same
 * values). */
#define OWN_ROW(x, base, field, n) ((x)->field != (base)->field && (x)->field &&                \
                                    memcmp((x)->field, (base)->field, n) == 0)

/* A worker's share of a setup (setup.c) has its own copy of exactly the
 * rows a run writes: the specs of the jobs with control variates and the
 * exercise rules of the jobs that fit them, in the plan and in the
 * variants of which those jobs run a pass; it reads every other array of
 * the setup's in place. */
static void shares_copy_what_runs_write(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(8192, MCP_CONTROL_VARIATE);
  mcp_greeks *g = all_greeks();
  mcp_context *c;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  mcpi_setup *base, *share;
  assert_int_equal(mcpi_setup_build(c, m, p, g, NULL, 0, 0, &base), MCP_OK);
  assert_int_equal(mcpi_setup_share(base, &share, c->err), MCP_OK);
  assert_int_equal(share->greeks.nvar, base->greeks.nvar);
  size_t controls = 0, fits = 0, passes = 0;
  for (size_t v = 0; v <= base->greeks.nvar; v++) {
    const mcpi_plan *x = v ? &share->greeks.var[v - 1].plan : &share->plan;
    const mcpi_plan *b = v ? &base->greeks.var[v - 1].plan : &base->plan;
    assert_int_equal(x->njobs, b->njobs);
    for (size_t ji = 0; ji < b->njobs; ji++) {
      const mcpi_job *xj = &x->jobs[ji], *bj = &b->jobs[ji], *lead = &base->plan.jobs[ji];
      int runs = !v;
      for (size_t k = 0; v && k < lead->npass; k++)
        runs |= lead->pass[k] == v - 1;
      passes += v && runs;
      int spec = runs && lead->controls && bj->spec;
      int rules = runs && lead->lsm_dates > 1 && bj->lsm_table;
      controls += spec;
      fits += rules;
      if (spec)
        assert_true(OWN_ROW(xj, bj, spec, bj->ntrades * sizeof *bj->spec));
      else
        assert_ptr_equal(xj->spec, bj->spec);
      if (rules)
        assert_true(OWN_ROW(xj, bj, lsm_table,
                            (size_t)bj->lsm_dates * MCPI_LSM_ROW * sizeof *bj->lsm_table));
      else
        assert_ptr_equal(xj->lsm_table, bj->lsm_table);
      assert_ptr_equal(xj->times, bj->times);
      assert_ptr_equal(xj->ca, bj->ca);
    }
  }
  /* the book has both kinds, and variants that run passes of them */
  assert_true(controls > 1 && fits > 1 && passes > 0);
  mcpi_setup_free(share);
  mcpi_setup_free(base);
  mcp_context_destroy(c);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void expect_merge_error(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                               const mcp_greeks *g, mcp_partial *const *parts, size_t n,
                               const char *words)
{
  mcp_results *r = (mcp_results *)1;
  assert_int_equal(mcp_partials_merge(c, m, p, g, NULL, parts, n, &r, NULL), MCP_ERR_INPUT);
  assert_null(r);
  if (!strstr(mcp_context_last_error(c), words))
    fail_msg("expected '%s' in: %s", words, mcp_context_last_error(c));
}

static void bad_partials_are_refused(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  mcp_portfolio *p = load_book(4096, -1), *other = load_book(4096, -1);
  assert_int_equal(mcp_portfolio_set_seed(other, 7), MCP_OK);
  mcp_greeks *g = all_greeks();
  mcp_context *c;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  mcp_partial **parts = slices(c, m, p, NULL, NULL, 3), *set[3];
  /* missing, twice, another seed, another kind, another count */
  expect_merge_error(c, m, p, NULL, parts, 2, "slice 2 of 3 is missing");
  set[0] = parts[0];
  set[1] = parts[1];
  set[2] = parts[1];
  expect_merge_error(c, m, p, NULL, set, 3, "slice 1 of 3 is given twice");
  expect_merge_error(c, m, other, NULL, parts, 3, "was computed from other inputs");
  expect_merge_error(c, m, p, g, parts, 3, "holds prices, the merge was asked for prices and Greeks");
  mcp_partial *two = NULL;
  assert_int_equal(mcp_price_slice(c, m, p, NULL, NULL, 1, 2, &two), MCP_OK);
  set[2] = two;
  expect_merge_error(c, m, p, NULL, set, 3, "one of 2 slices");
  mcp_partial_destroy(two);
  /* bad arguments */
  mcp_partial *x = NULL;
  assert_int_equal(mcp_price_slice(c, m, p, NULL, NULL, 3, 3, &x), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_price_slice(c, m, p, NULL, NULL, 0, 0, &x), MCP_ERR_ARGUMENT);
  assert_null(x);
  mcp_results *r = NULL;
  assert_int_equal(mcp_partials_merge(c, m, p, NULL, NULL, parts, 0, &r, NULL), MCP_ERR_ARGUMENT);
  /* damaged bytes: truncated, a bit flipped, not a partial at all */
  void *bytes;
  size_t len;
  char err[512];
  assert_int_equal(mcp_partial_encode(parts[1], &bytes, &len), MCP_OK);
  unsigned char *b = bytes;
  assert_int_equal(mcp_partial_decode(&x, b, len - 9, "cut", err, sizeof err), MCP_ERR_PARSE);
  assert_non_null(strstr(err, "cut: checksum mismatch"));
  b[len / 2] ^= 4;
  assert_int_equal(mcp_partial_decode(&x, b, len, "flipped", err, sizeof err), MCP_ERR_PARSE);
  assert_non_null(strstr(err, "flipped: checksum mismatch"));
  assert_int_equal(mcp_partial_decode(&x, "{\"trades\": []}", 14, "book.json", err, sizeof err),
                   MCP_ERR_PARSE);
  assert_non_null(strstr(err, "book.json: not a partial result"));
  assert_null(x);
  free(bytes);
  assert_int_equal(mcp_partial_read(&x, "/nonexistent/part.mcpart", err, sizeof err), MCP_ERR_IO);
  assert_non_null(strstr(err, "/nonexistent/part.mcpart: cannot open"));
  assert_int_equal(mcp_partial_write(parts[0], "/nonexistent/part.mcpart", err, sizeof err),
                   MCP_ERR_IO);
  assert_non_null(strstr(err, "cannot write"));
  /* a partial that lies about its paths, its checksum recomputed (FNV-1a,
   * doc/partial-format.md): slice 1 holds no PDE values (runs = 0 at byte
   * 72), so its first tree's paths are at byte 128 */
  assert_int_equal(mcp_partial_encode(parts[1], &bytes, &len), MCP_OK);
  b = bytes;
  uint64_t paths = 0;
  for (int i = 0; i < 8; i++)
    paths |= (uint64_t)b[128 + i] << (8 * i);
  paths -= 1; /* a whole chunk's 256 samples less one */
  for (int i = 0; i < 8; i++)
    b[128 + i] = (unsigned char)(paths >> (8 * i));
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < len - 8; i++)
    h = (h ^ b[i]) * 0x100000001b3u;
  for (int i = 0; i < 8; i++)
    b[len - 8 + i] = (unsigned char)(h >> (8 * i));
  assert_int_equal(mcp_partial_decode(&x, b, len, "lying", err, sizeof err), MCP_OK);
  set[0] = parts[0];
  set[1] = x;
  set[2] = parts[2];
  expect_merge_error(c, m, p, NULL, set, 3, "another number of paths");
  mcp_partial_destroy(x);
  free(bytes);
  /* the annex travels with the bytes */
  assert_int_equal(mcp_partial_set_annex(parts[0], "abc", 3), MCP_OK);
  assert_int_equal(mcp_partial_encode(parts[0], &bytes, &len), MCP_OK);
  assert_int_equal(mcp_partial_decode(&x, bytes, len, "annex", err, sizeof err), MCP_OK);
  size_t na;
  const char *a = mcp_partial_annex(x, &na);
  assert_int_equal(na, 3);
  assert_memory_equal(a, "abc", 3);
  mcp_partial_destroy(x);
  free(bytes);
  destroy(parts, 3);
  mcp_context_destroy(c);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(other);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prices_merge_to_the_bits),
      cmocka_unit_test(greeks_and_qmc_through_files),
      cmocka_unit_test(scenarios_merge_to_the_bits),
      cmocka_unit_test(devices_give_the_same_bits),
      cmocka_unit_test(shares_copy_what_runs_write),
      cmocka_unit_test(bad_partials_are_refused),
  };
  /* MCP_TEST_FILTER (a cmocka pattern): CI's ThreadSanitizer build runs the
   * one test of threads, the devices', alone; the others run one thread */
  const char *only = getenv("MCP_TEST_FILTER");
  if (only && *only)
    cmocka_set_test_filter(only);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
