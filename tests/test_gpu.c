/* test_gpu.c: the CUDA backend against the CPU reference, for every model,
 * product and method, and its own invariance under block size, tile size,
 * prefetch strategy and repetition.  Exits 77 (skipped)
 * where no CUDA device is present. */
/* the 0.1 run setters on the portfolio, which these tests keep exercising
 * for their one deprecated release (mcprice.h) */
#define MCP_ALLOW_DEPRECATED
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "config.h"
#include "mcprice.h"
#include "models/qmc.h"
#include "models/rng.h"
#ifdef MCP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "kernels/launch.h"
#endif

/* A book that exercises every product, several underlyings and job
 * splitting (ten Asian schedules on one underlying). */
static mcp_market *market(void)
{
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.25), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 50, -0.005, 0.0, 0.45), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "C", 1200, 0.05, 0.02, 0.12), MCP_OK);
  return m;
}

static mcp_portfolio *book(uint64_t paths)
{
  mcp_portfolio *p;
  char id[32];
  double fix[64];
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eA", "A", MCP_CALL, 105, 1.0, 3), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "pB", "B", MCP_PUT, 45, 0.25, -2), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "eC", "C", MCP_CALL, 1150, 2.0, 1), MCP_OK);
  for (int k = 0; k < 10; k++) {
    int n = 4 + 6 * k;
    for (int i = 0; i < n; i++)
      fix[i] = (i + 1) * 1.5 / n;
    snprintf(id, sizeof id, "asA%d", k);
    assert_int_equal(mcp_portfolio_add_asian(p, id, "A", k % 2 ? MCP_GEOMETRIC : MCP_ARITHMETIC,
                                             k % 3 ? MCP_CALL : MCP_PUT, 90 + 3 * k, n, fix,
                                             1.5, 1 + k),
                     MCP_OK);
  }
  for (int i = 0; i < 52; i++)
    fix[i] = (i + 1) / 52.0;
  assert_int_equal(mcp_portfolio_add_asian(p, "asB", "B", MCP_ARITHMETIC, MCP_PUT, 52, 52, fix,
                                           1.0, 5),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 20261122), MCP_OK);
  return p;
}

/* Every early-exercise trade's boundary too, on ctx's runs. */
static void boundaries_on(mcp_context *ctx)
{
  mcp_run_options *o;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_exercise_boundary(o, 1), MCP_OK);
  assert_int_equal(mcp_context_set_options(ctx, o), MCP_OK);
  mcp_run_options_destroy(o);
}

static mcp_results *price(mcp_backend b, int block, uint64_t tile, const mcp_market *m,
                          const mcp_portfolio *p)
{
  mcp_context *ctx;
  mcp_results *r = NULL;
  assert_int_equal(mcp_context_create(&ctx, b), MCP_OK);
  assert_int_equal(mcp_context_set_block_size(ctx, block), MCP_OK);
  assert_int_equal(mcp_context_set_tile_paths(ctx, tile), MCP_OK);
  boundaries_on(ctx);
  mcp_status st = mcp_price(ctx, m, p, &r);
  if (st != MCP_OK)
    fail_msg("mcp_price: %s", mcp_context_last_error(ctx));
  mcp_context_destroy(ctx);
  return r;
}

static void assert_identical(const mcp_results *a, const mcp_results *b)
{
  assert_int_equal(mcp_results_count(a), mcp_results_count(b));
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_results_trade(a, i, &x);
    mcp_results_trade(b, i, &y);
    if (memcmp(&x, &y, sizeof x) != 0)
      fail_msg("trade %s: %.17g +- %.17g vs %.17g +- %.17g", mcp_results_trade_id(a, i),
               x.price, x.std_error, y.price, y.std_error);
  }
  mcp_results_total(a, &x);
  mcp_results_total(b, &y);
  assert_memory_equal(&x, &y, sizeof x);
  for (size_t i = 0; i < mcp_results_count(a); i++) { /* the discretisation check's moves */
    mcp_status sa = mcp_results_grid_move(a, i, &x), sb = mcp_results_grid_move(b, i, &y);
    assert_int_equal(sa, sb);
    if (sa == MCP_OK && memcmp(&x, &y, sizeof x) != 0)
      fail_msg("grid move of %s: %.17g +- %.17g vs %.17g +- %.17g",
               mcp_results_trade_id(a, i), x.price, x.std_error, y.price, y.std_error);
  }
  for (size_t i = 0; i < mcp_results_count(a); i++) { /* autocallables' redemptions */
    double s, t, u, v;
    assert_int_equal(mcp_results_redemptions(a, i), mcp_results_redemptions(b, i));
    for (size_t k = 0; mcp_results_redemption(a, i, k, &s, &x) == MCP_OK; k++) {
      assert_int_equal(mcp_results_redemption(b, i, k, &t, &y), MCP_OK);
      assert_memory_equal(&x, &y, sizeof x);
    }
    /* and the exercise boundaries */
    assert_int_equal(mcp_results_exercise_boundaries(a, i), mcp_results_exercise_boundaries(b, i));
    for (size_t k = 0; mcp_results_exercise_boundary(a, i, k, &s, &u) == MCP_OK; k++) {
      assert_int_equal(mcp_results_exercise_boundary(b, i, k, &t, &v), MCP_OK);
      assert_memory_equal(&s, &t, sizeof s);
      assert_memory_equal(&u, &v, sizeof u);
    }
  }
}

static void assert_close(double a, double b, double rel, const char *what, const char *id)
{
  if (fabs(a - b) > rel * fmax(fabs(a), fabs(b)))
    fail_msg("%s of %s: GPU %.17g CPU %.17g (relative %.3g)", what, id, a, b,
             fabs(a - b) / fmax(fabs(a), fabs(b)));
}

/* The exercise boundaries of the GPU's run g against the CPU's c: the same
 * points at the same times; a Longstaff-Schwartz rule's spots to rel (the
 * same rule to rounding), a grid's the same node but where the GPU's fused
 * multiply-adds put a value on the other side of its exercise value (a
 * node away, a few percent at most).  Returns the points of grids that
 * differ. */
static size_t boundary_difference(const mcp_results *g, const mcp_results *c, double rel)
{
  size_t moved = 0, points = 0;
  for (size_t i = 0; i < mcp_results_count(g); i++) {
    double s, t, u, v;
    const char *id = mcp_results_trade_id(g, i);
    int grid = mcp_results_engine(g, i) == MCP_ENGINE_PDE;
    assert_int_equal(mcp_results_exercise_boundaries(g, i), mcp_results_exercise_boundaries(c, i));
    for (size_t k = 0; mcp_results_exercise_boundary(g, i, k, &s, &u) == MCP_OK; k++, points++) {
      assert_int_equal(mcp_results_exercise_boundary(c, i, k, &t, &v), MCP_OK);
      assert_memory_equal(&s, &t, sizeof s);
      if (u == v)
        continue;
      assert_close(u, v, grid ? 0.05 : rel, "exercise boundary", id);
      moved += grid;
    }
  }
  print_message("  exercise boundaries: %zu points, %zu of grids a node away\n", points, moved);
  return moved;
}

static void gpu_matches_cpu(void **state)
{
  mcp_market *m = market();
  mcp_portfolio *p = book(100003);
  mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(g); i++) {
    mcp_results_trade(g, i, &x);
    mcp_results_trade(c, i, &y);
    assert_true(x.price > 0);
    assert_close(x.price, y.price, 1e-12, "price", mcp_results_trade_id(g, i));
    assert_close(x.std_error, y.std_error, 1e-10, "std error", mcp_results_trade_id(g, i));
  }
  mcp_results_total(g, &x);
  mcp_results_total(c, &y);
  assert_close(x.price, y.price, 1e-12, "price", "the book");
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* mcp_tune on this GPU: what it writes names the device and keeps the
 * rules' bits (it checks every option it times), and a wisdom of other
 * options for each shape it found (stored normals and strategies, small
 * and large blocks and tiles) keeps them too. */
static void gpu_wisdom_keeps_bits(void **state)
{
  (void)state;
  mcp_market *m = market();
  mcp_portfolio *p = book(100003);
  mcp_context *c;
  mcp_wisdom *w, *odd;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  assert_int_equal(mcp_wisdom_create(&odd), MCP_OK);
  mcp_results *ref, *r;
  assert_int_equal(mcp_price(c, m, p, &ref), MCP_OK);
  assert_int_equal(mcp_tune(c, m, p, 1, w), MCP_OK);
  assert_true(mcp_wisdom_count(w) >= 1);
  mcp_device_info info;
  assert_int_equal(mcp_device_get_info(0, &info), MCP_OK);
  static const mcp_wisdom_entry variant[] = {
      {.normals = MCP_NORMALS_STORED, .prefetch = MCP_PREFETCH_SMEM_ROLLING, .distance = 4,
       .padding = MCP_PADDING_INTERLEAVED, .block = 64, .tile_paths = 256},
      {.normals = MCP_NORMALS_STORED, .prefetch = MCP_PREFETCH_SCALAR_BATCH, .distance = 4,
       .block = 512, .tile_paths = 4096},
      {.normals = MCP_NORMALS_FUSED, .prefetch = MCP_PREFETCH_NONE, .distance = 4,
       .block = 1024, .tile_paths = 0}};
  for (size_t v = 0; v <= sizeof variant / sizeof *variant; v++) {
    for (size_t k = 0; v && k < mcp_wisdom_count(w); k++) {
      mcp_wisdom_entry e, x = variant[v - 1];
      assert_int_equal(mcp_wisdom_get(w, k, &e), MCP_OK);
      assert_string_equal(e.device, info.name);
      assert_int_equal(e.capability, 10 * info.compute_major + info.compute_minor);
      assert_true(e.seconds > 0 && e.rules_seconds > 0);
      memcpy(x.device, e.device, sizeof x.device);
      memcpy(x.shape, e.shape, sizeof x.shape);
      x.capability = e.capability;
      x.driver = e.driver;
      assert_int_equal(mcp_wisdom_put(odd, &x), MCP_OK);
    }
    assert_int_equal(mcp_context_set_wisdom(c, v ? odd : w), MCP_OK);
    assert_int_equal(mcp_price(c, m, p, &r), MCP_OK);
    assert_identical(ref, r);
    mcp_results_destroy(r);
  }
  mcp_results_destroy(ref);
  mcp_wisdom_destroy(odd);
  mcp_wisdom_destroy(w);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void gpu_invariant_under_block_and_tile(void **state)
{
  mcp_market *m = market();
  mcp_portfolio *p = book(300001);
  mcp_results *ref = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  static const int blocks[] = {32, 64, 256, 1024};
  static const uint64_t tiles[] = {256, 4096, 65536, 1 << 20};
  for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
    mcp_results *r = price(MCP_BACKEND_CUDA, blocks[i], 0, m, p);
    assert_identical(ref, r);
    mcp_results_destroy(r);
  }
  for (size_t i = 0; i < sizeof tiles / sizeof *tiles; i++) {
    mcp_results *r = price(MCP_BACKEND_CUDA, 96, tiles[i], m, p);
    assert_identical(ref, r);
    mcp_results_destroy(r);
  }
  mcp_results *again = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  assert_identical(ref, again);
  mcp_results_destroy(again);
  mcp_results_destroy(ref);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A prefetch distance d where the build has it (--enable-tuning-kernels),
 * else the default distance, which every build has. */
#ifdef MCP_TUNING_KERNELS
#define BUILT_DISTANCE(d) (d)
#else
#define BUILT_DISTANCE(d) 4
#endif

/* Whether the stored kernels of strategy s at distance d are built: the
 * default distance always, the others with --enable-tuning-kernels alone;
 * pricing with one that is not is MCP_ERR_UNAVAILABLE, naming the option. */
static int strategy_built(mcp_prefetch s, int d, const mcp_market *m, mcp_portfolio *p)
{
#ifdef MCP_TUNING_KERNELS
  int expect = 1;
#else
  int expect = d == 4;
#endif
#ifdef MCP_HAVE_CUDA
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
    mcpi_kernel_options o = {.precision = (mcp_precision)prec, .strategy = s, .distance = d,
                             .block = 128};
    assert_int_equal(mcpi_path_kernel_built(&o, 0, 0), expect);
  }
#endif
  if (expect)
    return 1;
  mcp_context *ctx;
  mcp_results *r = NULL;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_ERR_UNAVAILABLE);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "--enable-tuning-kernels"));
  mcp_context_destroy(ctx);
  return 0;
}

/* Every prefetch strategy, distance and padding of the stored normals that
 * the build has prices
 * the book to the same bits as the fused kernel, in double, float and mixed, with a block size
 * that is not a power of two and a path count that leaves a ragged last wave; float
 * agrees with the CPU's float paths to float rounding. */
static void strategies_identical(void **state)
{
  static const int dists[] = {1, 2, 4, 6, 8, 12, 16};
  static const int pads[] = {0, 1, 3, MCP_PADDING_INTERLEAVED};
  mcp_market *m = market();
  mcp_portfolio *p = book(20011);
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
    assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
    assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_NONE, 4, 0), MCP_OK);
    mcp_results *ref = price(MCP_BACKEND_CUDA, 96, 0, m, p);
    int runs = 0;
    for (int s = MCP_PREFETCH_UNROLL; s <= MCP_PREFETCH_SMEM_ASYNC; s++)
      for (size_t d = 0; d < sizeof dists / sizeof *dists; d++) {
        int smem = s == MCP_PREFETCH_SMEM_BATCH || s == MCP_PREFETCH_SMEM_ROLLING ||
                   s == MCP_PREFETCH_SMEM_ASYNC;
        for (size_t k = 0; k < (smem ? sizeof pads / sizeof *pads : 1); k++) {
          assert_int_equal(mcp_portfolio_set_prefetch(p, (mcp_prefetch)s, dists[d], pads[k]),
                           MCP_OK);
          assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
          if (!strategy_built((mcp_prefetch)s, dists[d], m, p)) {
            assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_FUSED), MCP_OK);
            continue;
          }
          mcp_results *r = price(MCP_BACKEND_CUDA, 96, 0, m, p);
          assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_FUSED), MCP_OK);
          assert_identical(ref, r);
          mcp_results_destroy(r);
          runs++;
        }
      }
    print_message("  %s: %d stored strategy settings identical to fused\n",
                  mcp_precision_name((mcp_precision)prec), runs);
    if (prec == MCP_FLOAT) {
      mcp_results *c = price(MCP_BACKEND_CPU, 96, 0, m, p);
      mcp_estimate x, y;
      for (size_t i = 0; i < mcp_results_count(c); i++) {
        mcp_results_trade(ref, i, &x);
        mcp_results_trade(c, i, &y);
        assert_close(x.price, y.price, 1e-5, "float price", mcp_results_trade_id(c, i));
      }
      mcp_results_destroy(c);
    }
    mcp_results_destroy(ref);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}


/* ---- the models, products and methods of issue 4 ----------------------- */

/* Black-Scholes with term structures, three correlated assets, Heston,
 * Merton, local volatility and Black-Scholes with cash dividends. */
static mcp_market *models_market(void)
{
  mcp_market *m = market();
  double end[3] = {0.25, 1, 2}, rate[3] = {0.01, 0.03, 0.02}, vol[3] = {0.35, 0.2, 0.3};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 3, end, rate), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 3, end, vol), MCP_OK);
  const char *abc[3] = {"A", "B", "C"};
  double corr[9] = {1, 0.5, -0.3, 0.5, 1, 0.2, -0.3, 0.2, 1};
  assert_int_equal(mcp_market_set_correlation(m, 3, abc, corr), MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0.0, 0.05, 1.2, 0.04, 0.9, -0.9),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "M", 80, 0.03, 0.01, 0.2, 1.5, -0.1, 0.15), MCP_OK);
  /* a skewed local-volatility surface, its times between the steps */
  const double lt[3] = {0.1, 0.55, 1.5}, ls[4] = {70, 90, 110, 140};
  const double lv[12] = {0.4, 0.3, 0.22, 0.2, 0.35, 0.28, 0.21, 0.19, 0.3, 0.25, 0.2, 0.2};
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0.02, 0.01, 3, lt, 4, ls, lv), MCP_OK);
  /* a second, narrower one, correlated with L: the multi-asset
   * local-volatility products' */
  const double nt[2] = {0.3, 1.2}, ns[3] = {70, 93, 115}, nv[6] = {0.34, 0.27, 0.22, 0.3, 0.26,
                                                                   0.23};
  assert_int_equal(mcp_market_add_local_vol(m, "N", 90, 0.03, 0, 2, nt, 3, ns, nv), MCP_OK);
  const char *ln[2] = {"L", "N"};
  const double cln[4] = {1, 0.35, 0.35, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ln, cln), MCP_OK);
  /* a second Heston underlying, correlated with H through every Brownian
   * motion: the multi-asset Heston products' */
  assert_int_equal(mcp_market_add_heston(m, "K", 60, 0.02, 0.01, 0.06, 1.0, 0.05, 0.6, -0.5),
                   MCP_OK);
  const char *hk[4] = {"H", "H:variance", "K", "K:variance"};
  const double chk[16] = {1, -0.9, 0.4, -0.2, -0.9, 1, -0.2, 0.3,
                          0.4, -0.2, 1, -0.5, -0.2, 0.3, -0.5, 1};
  assert_int_equal(mcp_market_set_correlation(m, 4, hk, chk), MCP_OK);
  /* cash dividends, one between the steps and one on a fixing */
  const double dt[2] = {0.3, 0.5}, da[2] = {1.5, 2};
  assert_int_equal(mcp_market_add_black_scholes(m, "D", 90, 0.03, 0.005, 0.3), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "D", 2, dt, da), MCP_OK);
  return m;
}

static void add(mcp_portfolio *p, const mcp_trade *t)
{
  if (mcp_portfolio_add_trade(p, t) != MCP_OK)
    fail_msg("%s", mcp_portfolio_last_error(p));
}

/* Every single-asset product on A, H, M, L and D, and the three multi-asset
 * ones on A, B and C, on the Heston pair H, K and on the local-volatility
 * pair L, N; trade k of each underlying takes its own methods when
 * mixed is set. */
static mcp_portfolio *models_book(uint64_t paths, int methods, int mixed)
{
  static const char *und[5] = {"A", "H", "M", "L", "D"}, *abc[3] = {"A", "B", "C"};
  static const double spot[5] = {100, 100, 80, 100, 90}, w[3] = {0.5, 1, 0.05};
  double fix[26];
  for (int i = 0; i < 26; i++)
    fix[i] = (i + 1) / 26.0;
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  char id[24];
  int k = 0;
  for (int u = 0; u < 5; u++)
    for (int prod = MCP_PRODUCT_EUROPEAN; prod <= MCP_PRODUCT_LOOKBACK; prod++)
      for (int variant = 0; variant < 3; variant++, k++) {
        mcp_trade t;
        mcp_trade_init(&t);
        snprintf(id, sizeof id, "%s-%d-%d", und[u], prod, variant);
        t.id = id;
        t.underlying = und[u];
        t.product = (mcp_product)prod;
        t.type = variant == 1 ? MCP_PUT : MCP_CALL;
        t.strike = spot[u] * (0.9 + 0.1 * variant);
        t.maturity = 1;
        t.quantity = 1 + variant;
        t.digital = (mcp_digital)(variant % 2);
        t.average = variant == 2 ? MCP_GEOMETRIC : MCP_ARITHMETIC;
        t.strike_kind = prod == MCP_PRODUCT_LOOKBACK && variant == 1 ? MCP_FLOATING_STRIKE
                                                                     : MCP_FIXED_STRIKE;
        if (t.strike_kind == MCP_FLOATING_STRIKE)
          t.strike = 0;
        t.barrier_kind = (mcp_barrier_kind)((variant + u) % 4);
        t.barrier = spot[u] * (t.barrier_kind <= MCP_UP_AND_IN ? 1.2 : 0.85);
        t.rebate = variant;
        /* barriers on dates, BGK's and the bridge; lookbacks on dates and
         * (the third) on the bridge, a job of its own each underlying */
        t.monitoring = prod == MCP_PRODUCT_LOOKBACK && variant == 1 ? MCP_MONITOR_DISCRETE
                                                                    : (mcp_monitoring)variant;
        if (prod == MCP_PRODUCT_ASIAN ||
            ((prod == MCP_PRODUCT_BARRIER || prod == MCP_PRODUCT_LOOKBACK) &&
             t.monitoring != MCP_MONITOR_BRIDGE)) {
          t.nfixings = prod == MCP_PRODUCT_ASIAN ? 12 : 26;
          t.fixings = fix + 26 - t.nfixings; /* ends at maturity: 12 of 26 is not monthly */
        }
        if (mixed)
          t.methods = k % 8 == 7 ? MCP_METHODS_DEFAULT : k % 8;
        add(p, &t);
      }
  /* digitals on the average: arithmetic cash calls, geometric asset puts */
  for (int u = 0; u < 5; u++)
    for (int variant = 0; variant < 2; variant++, k++) {
      mcp_trade t;
      mcp_trade_init(&t);
      snprintf(id, sizeof id, "%s-avgdig-%d", und[u], variant);
      t.id = id;
      t.underlying = und[u];
      t.product = MCP_PRODUCT_AVERAGE_DIGITAL;
      t.type = variant ? MCP_PUT : MCP_CALL;
      t.average = variant ? MCP_GEOMETRIC : MCP_ARITHMETIC;
      t.digital = (mcp_digital)variant;
      t.strike = spot[u] * (1 + 0.05 * variant);
      t.maturity = 1;
      t.nfixings = 12;
      t.fixings = fix + 14;
      if (mixed)
        t.methods = k % 8 == 7 ? MCP_METHODS_DEFAULT : k % 8;
      add(p, &t);
    }
  for (int prod = MCP_PRODUCT_BASKET; prod <= MCP_PRODUCT_WORST_OF; prod++)
    for (int variant = 0; variant < 2; variant++, k++) {
      mcp_trade t;
      mcp_trade_init(&t);
      snprintf(id, sizeof id, "ABC-%d-%d", prod, variant);
      t.id = id;
      t.product = (mcp_product)prod;
      t.type = variant ? MCP_PUT : MCP_CALL;
      t.nassets = 3;
      t.assets = abc;
      t.weights = prod == MCP_PRODUCT_BASKET ? w : NULL;
      t.strike = prod == MCP_PRODUCT_BASKET ? 130 : 60;
      t.maturity = 0.5 + variant;
      if (mixed)
        t.methods = k % 8 == 7 ? MCP_METHODS_DEFAULT : k % 8;
      add(p, &t);
      /* the same on the Heston pair H, K */
      static const char *const hk[2] = {"H", "K"};
      static const double whk[2] = {0.5, 0.8};
      snprintf(id, sizeof id, "HK-%d-%d", prod, variant);
      t.assets = hk;
      t.nassets = 2;
      t.weights = prod == MCP_PRODUCT_BASKET ? whk : NULL;
      t.strike = prod == MCP_PRODUCT_BASKET ? 98 : 60;
      add(p, &t);
      /* and on the local-volatility pair L, N */
      static const char *const ln[2] = {"L", "N"};
      snprintf(id, sizeof id, "LN-%d-%d", prod, variant);
      t.assets = ln;
      t.strike = prod == MCP_PRODUCT_BASKET ? 115 : 85;
      add(p, &t);
    }
  /* Longstaff-Schwartz: an American put on each underlying, a Bermudan
   * basket put and an American worst-of call (no control variate), and a
   * Bermudan basket put on the local-volatility pair and on the Heston
   * pair */
  static const double dates[4] = {0.25, 0.5, 0.75, 1};
  for (int u = 0; u < 9; u++, k++) {
    mcp_trade t;
    mcp_trade_init(&t);
    snprintf(id, sizeof id, "LSM-%d", u);
    t.id = id;
    t.type = u == 6 ? MCP_CALL : MCP_PUT;
    t.maturity = 1;
    t.engine = MCP_ENGINE_MC;
    if (u < 5) {
      t.product = MCP_PRODUCT_AMERICAN;
      t.underlying = und[u];
      t.strike = spot[u];
      t.exercises = 12;
    } else {
      static const char *const ln[2] = {"L", "N"}, *const hk[2] = {"H", "K"};
      static const double wln[2] = {0.6, 0.4};
      t.product = u == 6 ? MCP_PRODUCT_AMERICAN : MCP_PRODUCT_BERMUDAN;
      t.nassets = u >= 7 ? 2 : 3;
      t.assets = u == 7 ? ln : u == 8 ? hk : abc;
      t.weights = u == 5 ? w : u >= 7 ? wln : NULL;
      t.payoff = u == 6 ? MCP_PRODUCT_WORST_OF : MCP_PRODUCT_BASKET;
      t.strike = u == 5 ? 130 : u == 7 ? 96 : u == 8 ? 90 : 40;
      t.nfixings = u == 6 ? 0 : 4;
      t.fixings = u == 6 ? NULL : dates;
      t.exercises = u == 6 ? 6 : 0;
    }
    if (mixed)
      t.methods = k % 8 == 7 ? MCP_METHODS_DEFAULT : (k % 8) & ~MCP_CONTROL_VARIATE;
    add(p, &t);
  }
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 24), MCP_OK);
  assert_int_equal(mcp_portfolio_set_scramblings(p, 4), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 42), MCP_OK);
  return p;
}

/* The largest relative price difference of two runs of one book, which must
 * agree to rel in price and 100 rel in standard error. */
static double largest_difference(const mcp_results *g, const mcp_results *c, double rel)
{
  double worst = 0;
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(g); i++) {
    mcp_results_trade(g, i, &x);
    mcp_results_trade(c, i, &y);
    assert_close(x.price, y.price, rel, "price", mcp_results_trade_id(g, i));
    assert_close(x.std_error, y.std_error, 100 * rel, "std error", mcp_results_trade_id(g, i));
    worst = fmax(worst, fabs(x.price - y.price) / fmax(fabs(y.price), 1e-300));
    double s, t;
    assert_int_equal(mcp_results_redemptions(g, i), mcp_results_redemptions(c, i));
    for (size_t k = 0; mcp_results_redemption(g, i, k, &s, &x) == MCP_OK; k++) {
      assert_int_equal(mcp_results_redemption(c, i, k, &t, &y), MCP_OK);
      assert_close(x.price, y.price, rel, "redemption probability", mcp_results_trade_id(g, i));
    }
  }
  boundary_difference(g, c, 100 * rel);
  return worst;
}

/* The GPU computes what the CPU does, for every model, product and method:
 * the normals agree to rounding (cuRAND's host and device generators, the
 * quantile shared) and the paths' exp, log and Phi are mcp_dmath.h's on
 * both, so a path's numbers are the same bits (a knock-out, a jump count,
 * a Heston variance at 0 decided alike) and prices agree to the sums'
 * order, 1e-12 (7.6e-16 on an H100); the test reports the largest
 * difference. */
static void gpu_models_match_cpu(void **state)
{
  static const int methods[] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC, 7, -2};
  mcp_market *m = models_market();
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
    for (int scheme = 0; scheme < 2; scheme++) {
      int mixed = methods[k] == -2;
      mcp_portfolio *p = models_book(50002, mixed ? 0 : methods[k], mixed);
      assert_int_equal(mcp_portfolio_set_heston_scheme(p, (mcp_heston_scheme)scheme), MCP_OK);
      mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
      mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
      double worst = largest_difference(g, c, 1e-12);
      print_message("  methods %d%s, %s: %zu trades, largest relative difference %.2e\n",
                    mixed ? 0 : methods[k], mixed ? " (mixed per trade)" : "",
                    scheme ? "Euler" : "QE", mcp_results_count(g), worst);
      mcp_results_destroy(g);
      mcp_results_destroy(c);
      mcp_portfolio_destroy(p);
    }
  mcp_market_destroy(m);
}

/* Longstaff-Schwartz at the benchmark's shape (an American put, 50 dates)
 * and on Heston and a basket: the fit's normal equations are the CPU's to
 * rounding, so its rules and the prices agree to 1e-10; the GPU's own bits
 * do not depend on the block or the tile. */
static void gpu_lsm_matches_cpu(void **state)
{
  (void)state;
  static const char *const ab[2] = {"A", "B"};
  mcp_market *m = models_market();
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "AP";
  t.product = MCP_PRODUCT_AMERICAN;
  t.engine = MCP_ENGINE_MC;
  t.type = MCP_PUT;
  t.underlying = "A";
  t.strike = 100;
  t.maturity = 1;
  t.exercises = 50;
  add(p, &t);
  t.id = "HP";
  t.underlying = "H";
  add(p, &t);
  t.id = "ABX";
  t.underlying = NULL;
  t.nassets = 2;
  t.assets = ab;
  t.payoff = MCP_PRODUCT_BEST_OF;
  t.type = MCP_CALL;
  t.exercises = 10;
  add(p, &t);
  assert_int_equal(mcp_portfolio_set_paths(p, 200000), MCP_OK);
  mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
  print_message("  largest relative difference %.2e\n", largest_difference(g, c, 1e-10));
  mcp_results *b = price(MCP_BACKEND_CUDA, 96, 8192, m, p);
  assert_identical(g, b);
  mcp_results_destroy(b);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  /* a regression on more chunks than the cooperative launch's blocks add
   * themselves (the grid's sums), and on more than the device holds at
   * once (a launch a date, not the cooperative one: lsm_kernel.cu), the
   * same numbers; for one asset (two paths a thread) and for a basket of
   * two (the several-asset walk, a path a thread) */
  static const uint64_t regression[2][2] = {{100000, 1 << 22}, {100000, 1 << 20}};
  for (int two = 0; two < 2; two++)
    for (int k = 0; k < 2; k++) {
      mcp_trade a = t;
      a.id = two ? "ABP" : "AP";
      a.underlying = two ? NULL : "A";
      a.nassets = two ? 2 : 0;
      a.assets = two ? ab : NULL;
      a.payoff = MCP_PRODUCT_BASKET;
      a.type = MCP_PUT;
      a.strike = two ? 90 : t.strike;
      a.exercises = 20;
      mcp_portfolio *q;
      assert_int_equal(mcp_portfolio_create(&q), MCP_OK);
      add(q, &a);
      assert_int_equal(mcp_portfolio_set_paths(q, 50000), MCP_OK);
      assert_int_equal(mcp_portfolio_set_regression_paths(q, regression[two][k]), MCP_OK);
      g = price(MCP_BACKEND_CUDA, 128, 0, m, q);
      c = price(MCP_BACKEND_CPU, 128, 0, m, q);
      print_message("  %s, %llu regression paths: largest relative difference %.2e\n",
                    two ? "basket of two" : "one asset", (unsigned long long)regression[two][k],
                    largest_difference(g, c, 1e-10));
      mcp_results_destroy(g);
      mcp_results_destroy(c);
      mcp_portfolio_destroy(q);
    }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  /* baskets of 4 assets (18 basis functions: the fit's general kernels), 5
   * and 9 (14 and 13: the fit's shapes, the basis in registers): the same
   * rules and prices as the CPU's, and over blocks and tiles */
  static const char *const nine[9] = {"S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"};
  double rho[81];
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  for (int i = 0; i < 9; i++) {
    assert_int_equal(mcp_market_add_black_scholes(m, nine[i], 90 + 5 * i, 0.03, 0.01 * (i % 2),
                                                  0.2 + 0.02 * i),
                     MCP_OK);
    for (int k = 0; k < 9; k++)
      rho[i * 9 + k] = i == k ? 1 : 0.3;
  }
  assert_int_equal(mcp_market_set_correlation(m, 9, nine, rho), MCP_OK);
  static const int sizes[3] = {4, 5, 9};
  for (int s = 0; s < 3; s++) {
    mcp_trade a = t; /* an American of a year, 10 dates */
    a.id = "BASKET-AM";
    a.payoff = MCP_PRODUCT_BASKET;
    a.type = MCP_PUT;
    a.nassets = sizes[s];
    a.assets = nine;
    a.strike = 110;
    assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
    add(p, &a);
    assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
    g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
    c = price(MCP_BACKEND_CPU, 128, 0, m, p);
    print_message("  basket of %d: largest relative difference %.2e\n", sizes[s],
                  largest_difference(g, c, 1e-10));
    b = price(MCP_BACKEND_CUDA, 96, 8192, m, p);
    assert_identical(g, b);
    mcp_results_destroy(b);
    mcp_results_destroy(g);
    mcp_results_destroy(c);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* Jobs of constant steps (an Asian fixing every step, a European, on a
 * daily grid; tests/test_pricing.c checks that the view says so) run the
 * plain kernels' rounds with their coefficients and tags as constants
 * (path_kernel.cuh), a Black-Scholes, a Heston and a local-volatility
 * asset's: fused equals stored to the bit and the CPU to 1e-12 (float and
 * mixed 1e-5), for step counts that end inside a round and paths that end
 * inside a warp; the Heston European's check (its coarse path's pairs of
 * steps as constants too, an odd count's last step alone, antithetic; two
 * steps: no pair but the last, from the arrays) likewise. */
static void gpu_constant_steps(void **state)
{
  (void)state;
  mcp_market *m = market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0.01, 0.05, 1.2, 0.04, 0.6, -0.7),
                   MCP_OK);
  const double lt[2] = {0.5, 3}, ls[3] = {80, 100, 120}, lv[6] = {0.3, 0.25, 0.2, 0.28, 0.24, 0.2};
  assert_int_equal(mcp_market_add_local_vol(m, "V", 100, 0.03, 0.01, 2, lt, 3, ls, lv), MCP_OK);
  static const int counts[] = {13, 252, 255, 2, 3};
  static const char *const under[] = {"A", "A", "H", "H", "V", "V"};
  double fix[255];
  for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
    for (int kind = 0; kind < 6; kind++)
      for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
        int n = counts[c];
        const char *u = under[kind];
        mcp_portfolio *p;
        assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
        int anti = kind == 3 && n % 2; /* the coarse pairs beside antithetic passes */
        /* paths that end inside a warp; even where each sample is a pair */
        assert_int_equal(mcp_portfolio_set_paths(p, anti ? 10006 : 10007), MCP_OK);
        assert_int_equal(mcp_portfolio_set_seed(p, 77 + c), MCP_OK);
        assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
        assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
        for (int i = 0; i < n; i++)
          fix[i] = (i + 1) / 252.0;
        if (anti)
          assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
        if (kind % 2)
          assert_int_equal(mcp_portfolio_add_european(p, "e", u, MCP_PUT, 95, n / 252.0, 1),
                           MCP_OK);
        else
          assert_int_equal(mcp_portfolio_add_asian(p, "a", u, MCP_ARITHMETIC, MCP_CALL, 100,
                                                   (size_t)n, fix, n / 252.0, 1),
                           MCP_OK);
        mcp_results *f = price(MCP_BACKEND_CUDA, 128, 0, m, p);
        assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
        mcp_results *st = price(MCP_BACKEND_CUDA, 128, 0, m, p);
        assert_identical(f, st);
        mcp_results *cpu = price(MCP_BACKEND_CPU, 128, 0, m, p);
        mcp_estimate x, y;
        mcp_results_trade(f, 0, &x);
        mcp_results_trade(cpu, 0, &y);
        /* float: each side's library log and exp; double: mcp_dmath.h's */
        double tol = prec ? 1e-5 : 1e-12;
        assert_close(x.price, y.price, tol, "constant steps", mcp_results_trade_id(f, 0));
        if (kind == 3) { /* the check's coarse path, its constants (coarse_twin) */
          mcp_estimate gx, gy;
          assert_int_equal(mcp_results_grid_move(f, 0, &gx), MCP_OK);
          assert_int_equal(mcp_results_grid_move(cpu, 0, &gy), MCP_OK);
          if (fabs(gx.price - gy.price) > tol * fabs(y.price))
            fail_msg("%d steps, precision %d: grid move GPU %.17g CPU %.17g", n, prec,
                     gx.price, gy.price);
        }
        mcp_results_destroy(f);
        mcp_results_destroy(st);
        mcp_results_destroy(cpu);
        mcp_portfolio_destroy(p);
      }
  mcp_market_destroy(m);
}

/* Block size, tile size, repetition and every prefetch strategy of the
 * stored normals leave the bits of the models book (fused) unchanged, with
 * all methods on. */
static void gpu_models_invariant(void **state)
{
  mcp_market *m = models_market();
  mcp_portfolio *p = models_book(40010, 7, 1);
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
    assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
    assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_NONE, 4, 0), MCP_OK);
    mcp_results *ref = price(MCP_BACKEND_CUDA, 128, 0, m, p);
    static const int blocks[] = {32, 96, 1024};
    static const uint64_t tiles[] = {256, 8192};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
      mcp_results *r = price(MCP_BACKEND_CUDA, blocks[i], 0, m, p);
      assert_identical(ref, r);
      mcp_results_destroy(r);
    }
    for (size_t i = 0; i < sizeof tiles / sizeof *tiles; i++) {
      mcp_results *r = price(MCP_BACKEND_CUDA, 128, tiles[i], m, p);
      assert_identical(ref, r);
      mcp_results_destroy(r);
    }
    int runs = 0;
    for (int s = MCP_PREFETCH_UNROLL; s <= MCP_PREFETCH_SMEM_ASYNC; s++)
      for (int d = 2; d <= 12; d *= 6 /* 2, 12 */) {
        int smem = s == MCP_PREFETCH_SMEM_BATCH || s == MCP_PREFETCH_SMEM_ROLLING ||
                   s == MCP_PREFETCH_SMEM_ASYNC;
        assert_int_equal(mcp_portfolio_set_prefetch(p, (mcp_prefetch)s, BUILT_DISTANCE(d),
                                                    smem && d == 12 ? MCP_PADDING_INTERLEAVED
                                                                    : 1),
                         MCP_OK);
        assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
        mcp_results *r = price(MCP_BACKEND_CUDA, 96, 0, m, p);
        assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_FUSED), MCP_OK);
        assert_identical(ref, r);
        mcp_results_destroy(r);
        runs++;
      }
    print_message("  %s: %d stored strategy settings, 3 block and 2 tile sizes identical\n",
                  mcp_precision_name((mcp_precision)prec), runs);
    mcp_results_destroy(ref);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}


/* The discretisation check (issue 31, src/plan/grid_check.c): the coarse
 * pass runs the shared path body on the job's normals on both backends, so
 * every trade's grid move (fine - coarse, path by path) agrees with the CPU's
 * to rounding relative to its price, the same trades carry one and the same
 * warnings; on the GPU the moves are the same bits across block and tile
 * sizes and fused or stored normals (every prefetch strategy), in double,
 * float and mixed.  The models book has Heston (QE and Euler), local volatility,
 * Merton watched on the bridge and several Heston assets; the coarse grid
 * of 12 steps a year makes the Euler moves large. */
static void assert_same_moves(const mcp_results *a, const mcp_results *b)
{
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_estimate x, y;
    mcp_status sa = mcp_results_grid_move(a, i, &x), sb = mcp_results_grid_move(b, i, &y);
    assert_int_equal(sa, sb);
    if (sa == MCP_OK && memcmp(&x, &y, sizeof x) != 0)
      fail_msg("grid move of %s: %.17g +- %.17g vs %.17g +- %.17g", mcp_results_trade_id(a, i),
               x.price, x.std_error, y.price, y.std_error);
    assert_int_equal(mcp_results_warnings(a, i), mcp_results_warnings(b, i));
  }
}

static void gpu_grid_check_matches_cpu(void **state)
{
  (void)state;
  static const int methods[] = {0, MCP_ANTITHETIC, 7};
  mcp_market *m = models_market();
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
    for (int scheme = 0; scheme < 2; scheme++)
      for (int spy = 0; spy < 2; spy++) {
        mcp_portfolio *p = models_book(30012, methods[k], 0);
        assert_int_equal(mcp_portfolio_set_heston_scheme(p, (mcp_heston_scheme)scheme), MCP_OK);
        if (spy)
          assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
        mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
        mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
        double worst = largest_difference(g, c, 1e-12), worst_move = 0;
        int checked = 0, flagged = 0;
        for (size_t i = 0; i < mcp_results_count(g); i++) {
          mcp_estimate x, y, e;
          mcp_status sg = mcp_results_grid_move(g, i, &x), sc = mcp_results_grid_move(c, i, &y);
          assert_int_equal(sg, sc);
          assert_int_equal(mcp_results_warnings(g, i), mcp_results_warnings(c, i));
          if (sg != MCP_OK)
            continue;
          mcp_results_trade(c, i, &e);
          double scale = fmax(fabs(e.price), 1e-300), d = fabs(x.price - y.price) / scale;
          if (d > 1e-12 || fabs(x.std_error - y.std_error) > 1e-7 * scale)
            fail_msg("grid move of %s: GPU %.17g +- %.3g CPU %.17g +- %.3g (price %.6g)",
                     mcp_results_trade_id(g, i), x.price, x.std_error, y.price, y.std_error,
                     e.price);
          worst_move = fmax(worst_move, d);
          checked++;
          flagged += !!(mcp_results_warnings(c, i) & MCP_WARNING_GRID);
        }
        assert_true(checked > 0);
        print_message("  methods %d, %s, %s: %d trades checked, %d flagged; largest relative "
                      "difference %.2e (prices %.2e)\n",
                      methods[k], scheme ? "Euler" : "QE", spy ? "12 a year" : "24 a year",
                      checked, flagged, worst_move, worst);
        mcp_results_destroy(g);
        mcp_results_destroy(c);
        mcp_portfolio_destroy(p);
      }
  mcp_market_destroy(m);
}

static void gpu_grid_check_invariant(void **state)
{
  (void)state;
  mcp_market *m = models_market();
  mcp_portfolio *p = models_book(20012, 7, 1);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, MCP_HESTON_EULER), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
    assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
    assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_NONE, 4, 0), MCP_OK);
    mcp_results *ref = price(MCP_BACKEND_CUDA, 128, 0, m, p);
    static const int blocks[] = {32, 1024};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
      mcp_results *r = price(MCP_BACKEND_CUDA, blocks[i], 4096, m, p);
      assert_identical(ref, r);
      assert_same_moves(ref, r);
      mcp_results_destroy(r);
    }
    for (int s = MCP_PREFETCH_NONE; s <= MCP_PREFETCH_SMEM_ASYNC; s++) {
      assert_int_equal(mcp_portfolio_set_prefetch(p, (mcp_prefetch)s, 4, 0), MCP_OK);
      assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
      mcp_results *r = price(MCP_BACKEND_CUDA, 96, 0, m, p);
      assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_FUSED), MCP_OK);
      assert_identical(ref, r);
      assert_same_moves(ref, r);
      mcp_results_destroy(r);
    }
    print_message("  %s: grid moves identical across blocks, tiles and strategies\n",
                  mcp_precision_name((mcp_precision)prec));
    mcp_results_destroy(ref);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Black-Scholes call and put on the GPU at 4 million paths. */
static double bs(int call, double s, double k, double r, double q, double v, double t)
{
  double d1 = (log(s / k) + (r - q + 0.5 * v * v) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
  double n1 = 0.5 * erfc(-d1 / sqrt(2)), n2 = 0.5 * erfc(-d2 / sqrt(2));
  return call ? s * exp(-q * t) * n1 - k * exp(-r * t) * n2
              : k * exp(-r * t) * (1 - n2) - s * exp(-q * t) * (1 - n1);
}

static void gpu_black_scholes(void **state)
{
  mcp_market *m = market();
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "c", "A", MCP_CALL, 100, 1.0, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "p", "A", MCP_PUT, 100, 1.0, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 4000000), MCP_OK);
  mcp_results *r = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  for (int i = 0; i < 2; i++) {
    mcp_estimate e;
    mcp_results_trade(r, (size_t)i, &e);
    double exact = bs(i == 0, 100, 100, 0.03, 0.01, 0.25, 1.0);
    if (fabs(e.price - exact) > 3 * e.std_error || fabs(e.price / exact - 1) > 2e-3)
      fail_msg("%s: GPU %.6f +- %.6f, closed form %.6f", i ? "put" : "call", e.price,
               e.std_error, exact);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

#ifdef MCP_HAVE_CUDA
/* The normals kernel computes what cuRAND's device generator returns through
 * the canonical mapping, to the rounding of its own logarithm, sine and
 * cosine (mcp_dmath.h: a few ulp), and so, within rounding, what the host
 * generator (the CPU backend) returns; for a tile that starts inside one
 * window, ends in the next, and has a count that is not a multiple of 4. */
static void normals_kernel_follows_canonical_mapping(void **state)
{
  enum { STEPS = 3 };
  const size_t p0 = MCPI_RNG_WINDOW - 1024, n = 2051, len = STEPS * (n + 1);
  double *host = malloc(sizeof(double) * len), *gen = malloc(sizeof(double) * len);
  double *ker = malloc(sizeof(double) * len), *d_z;
  assert_true(host && gen && ker);
  curandGenerator_t hg, dg;
  assert_int_equal(cudaMalloc((void **)&d_z, sizeof(double) * len), cudaSuccess);
  assert_int_equal(curandCreateGeneratorHost(&hg, CURAND_RNG_PSEUDO_PHILOX4_32_10), 0);
  assert_int_equal(curandCreateGenerator(&dg, CURAND_RNG_PSEUDO_PHILOX4_32_10), 0);
  uint64_t seed = mcpi_rng_job_seed(7, "A", 0);
  /* the device generator wants an even count: one normal more */
  assert_int_equal(mcpi_rng_fill(dg, seed, 4, STEPS, p0, n + 1, d_z, n + 1), 0);
  assert_int_equal(cudaMemcpy(gen, d_z, sizeof(double) * len, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  assert_int_equal(cudaMemset(d_z, 0, sizeof(double) * len), cudaSuccess);
  assert_int_equal(mcpi_launch_normals(seed, 4, STEPS, p0, n, d_z, n + 1, MCP_DOUBLE, 0), cudaSuccess);
  assert_int_equal(cudaMemcpy(ker, d_z, sizeof(double) * len, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  assert_int_equal(mcpi_rng_fill(hg, seed, 4, STEPS, p0, n, host, n + 1), 0);
  for (size_t s = 0; s < STEPS; s++) {
    for (size_t i = 0; i < n; i++) {
      size_t k = s * (n + 1) + i;
      if (fabs(ker[k] - gen[k]) > 4e-15 * (1 + fabs(gen[k])))
        fail_msg("step %zu path %zu: kernel %.17g generator %.17g", s, p0 + i, ker[k], gen[k]);
      if (fabs(host[k] - ker[k]) > 1e-13)
        fail_msg("step %zu path %zu: host %.17g device %.17g", s, p0 + i, host[k], ker[k]);
    }
    assert_true(ker[s * (n + 1) + n] == 0.0); /* nothing written past n */
  }
  /* float: the float mapping, from a step inside a group of four, against
   * the host's (the device's hardware logarithm, sine and cosine: 1e-6) */
  float *hf = (float *)host, *kf = (float *)ker;
  assert_int_equal(cudaMemset(d_z, 0, sizeof(float) * len), cudaSuccess);
  assert_int_equal(mcpi_launch_normals(seed, 5, STEPS, p0, n, d_z, n + 1, MCP_FLOAT, 0),
                   cudaSuccess);
  assert_int_equal(cudaMemcpy(kf, d_z, sizeof(float) * len, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  mcpi_rng_fill_host(seed, 5, STEPS, p0, n, NULL, hf, n + 1);
  for (size_t s = 0; s < STEPS; s++) {
    for (size_t i = 0; i < n; i++) {
      size_t k = s * (n + 1) + i;
      if (fabs(hf[k] - kf[k]) > 1e-6 * (1 + fabs(hf[k])))
        fail_msg("float step %zu path %zu: host %.9g device %.9g", 5 + s, p0 + i, hf[k], kf[k]);
    }
    assert_true(kf[s * (n + 1) + n] == 0.0f);
  }
  curandDestroyGenerator(hg);
  curandDestroyGenerator(dg);
  cudaFree(d_z);
  free(host);
  free(gen);
  free(ker);
}

/* The Sobol kernel draws cuRAND's device points: the normals agree with the
 * host's to the rounding of the quantile's erfc and exp, for a start that is
 * not a power of two and a replicate's shifted scrambles. */
static void sobol_kernel_matches_host(void **state)
{
  enum { NDIM = 33 };
  const size_t p0 = 1000003, n = 4099;
  const uint64_t *dirs = mcpi_sobol_directions(), *consts = mcpi_sobol_scrambles();
  assert_non_null(dirs);
  uint64_t scr[NDIM];
  for (size_t d = 0; d < NDIM; d++)
    scr[d] = consts[d] ^ mcpi_sobol_shift(99, 3, d);
  double *host = malloc(sizeof(double) * NDIM * n), *dev = malloc(sizeof(double) * NDIM * n);
  double *d_z;
  uint64_t *d_dirs, *d_scr;
  assert_true(host && dev);
  assert_int_equal(cudaMalloc((void **)&d_z, sizeof(double) * NDIM * n), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&d_dirs, sizeof(uint64_t) * NDIM * MCPI_SOBOL_BITS),
                   cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&d_scr, sizeof scr), cudaSuccess);
  assert_int_equal(cudaMemcpy(d_dirs, dirs, sizeof(uint64_t) * NDIM * MCPI_SOBOL_BITS,
                              cudaMemcpyHostToDevice),
                   cudaSuccess);
  assert_int_equal(cudaMemcpy(d_scr, scr, sizeof scr, cudaMemcpyHostToDevice), cudaSuccess);
  assert_int_equal(mcpi_launch_sobol(d_dirs, d_scr, NDIM, p0, n, d_z, n, 0), cudaSuccess);
  assert_int_equal(cudaMemcpy(dev, d_z, sizeof(double) * NDIM * n, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  mcpi_sobol_fill(dirs, scr, NDIM, p0, n, host, n);
  size_t same = 0;
  for (size_t k = 0; k < NDIM * n; k++) {
    if (fabs(host[k] - dev[k]) > 1e-14 * fmax(1, fabs(host[k])))
      fail_msg("dimension %zu point %zu: host %.17g device %.17g", k / n, p0 + k % n, host[k],
               dev[k]);
    same += host[k] == dev[k];
  }
  print_message("  %zu of %zu normals bitwise equal, the rest within 1e-14\n", same,
                (size_t)NDIM * n);
  cudaFree(d_z);
  cudaFree(d_dirs);
  cudaFree(d_scr);
  free(host);
  free(dev);
}
#endif

/* A book of grid trades: Europeans, Americans and (3-point) barriers of
 * every kind on three underlyings, with n extra American puts; grids of
 * nodes each (0: 301, or 64 with extra puts). */
static mcp_portfolio *pde_book(int points, mcp_pde_scheme scheme, int extra, unsigned nodes)
{
  mcp_portfolio *p;
  char id[32];
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  s.scheme = scheme;
  s.stencil_points = points;
  s.space_points = nodes ? nodes : extra ? 64 : 301;
  s.time_steps = extra ? 20 : nodes ? 60 : 150;
  assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
  const char *und[3] = {"A", "B", "C"};
  const double spot[3] = {100, 50, 1200};
  for (int k = 0; k < (extra ? extra : 60); k++) {
    mcp_trade t;
    mcp_trade_init(&t);
    snprintf(id, sizeof id, "g%d", k);
    t.id = id;
    t.underlying = und[k % 3];
    t.type = extra || k % 2 ? MCP_PUT : MCP_CALL;
    t.strike = spot[k % 3] * (0.8 + 0.01 * (k % 40));
    t.maturity = 0.25 + 0.1 * (k % 17);
    t.engine = MCP_ENGINE_PDE;
    t.product = extra || k % 5 == 1 ? MCP_PRODUCT_AMERICAN : MCP_PRODUCT_EUROPEAN;
    if (!extra && points == 3 && k % 5 >= 3) {
      t.product = MCP_PRODUCT_BARRIER;
      t.barrier_kind = (mcp_barrier_kind)(k % 4);
      int up = t.barrier_kind == MCP_UP_AND_OUT || t.barrier_kind == MCP_UP_AND_IN;
      t.barrier = spot[k % 3] * (up ? 1.1 + 0.01 * (k % 7) : 0.9 - 0.01 * (k % 7));
      t.rebate = k % 3;
      t.monitoring = MCP_MONITOR_BRIDGE;
    }
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  }
  return p;
}

/* Every grid of p in m on the GPU equals the CPU's, and every stencil
 * implementation and coarsening gives the same bits; the count of trades. */
static size_t pde_compare(const mcp_market *m, mcp_portfolio *p)
{
  mcp_results *cpu = price(MCP_BACKEND_CPU, 128, 0, m, p), *first = NULL;
  static const int coarsening[4] = {1, 2, 4, 8};
  for (int st = 0; st < 3; st++)
    for (int c = 0; c < 4; c++) {
      mcp_pde_settings s;
      mcp_portfolio_pde(p, &s);
      s.stencil = (mcp_stencil)st;
      s.coarsening = coarsening[c];
      assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
      mcp_results *gpu = price(MCP_BACKEND_CUDA, 128, 0, m, p);
      if (!first) {
        mcp_estimate x, y;
        for (size_t i = 0; i < mcp_results_count(gpu); i++) {
          mcp_results_trade(gpu, i, &x);
          mcp_results_trade(cpu, i, &y);
          assert_int_equal(mcp_results_engine(gpu, i), MCP_ENGINE_PDE);
          if (fabs(x.price - y.price) > 1e-12 * fmax(1.0, fabs(y.price)))
            assert_close(x.price, y.price, 1e-12, "pde price", mcp_results_trade_id(gpu, i));
        }
        assert_true(boundary_difference(gpu, cpu, 0) <= 5);
        first = gpu;
      } else {
        assert_identical(first, gpu);
        mcp_results_destroy(gpu);
      }
    }
  size_t n = mcp_results_count(cpu);
  mcp_results_destroy(first);
  mcp_results_destroy(cpu);
  return n;
}

/* pde_compare on pde_book; B pays cash dividends (the grids' jumps), C one
 * that its spot may not cover (an absorbed spot's values). */
static void pde_check(int points, mcp_pde_scheme scheme, int extra, unsigned nodes)
{
  mcp_market *m = market();
  const double dt[2] = {0.3, 0.9}, da[2] = {1, 1.5}, ct[1] = {0.5}, ca[1] = {1000};
  assert_int_equal(mcp_market_set_cash_dividends(m, "B", 2, dt, da), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "C", 1, ct, ca), MCP_OK);
  mcp_portfolio *p = pde_book(points, scheme, extra, nodes);
  size_t n = pde_compare(m, p);
  printf("# pde %d-point %s, %zu trades, %u nodes: GPU = CPU, 12 stencil variants identical\n",
         points, mcp_pde_scheme_name(scheme), n, nodes ? nodes : 301);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Bands that are not monotone (the drift beats the diffusion on a coarse
 * grid: volatility 5%, rate 20%, 40 and 64 nodes): an American's floored
 * solve falls back to one lane, from registers and back, with a cash
 * dividend's jump on the same grids. */
static void gpu_pde_not_monotone(void **state)
{
  (void)state;
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "L", 100, 0.2, 0.0, 0.05), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "D", 100, 0.2, 0.0, 0.05), MCP_OK);
  const double dt[1] = {0.4}, da[1] = {3};
  assert_int_equal(mcp_market_set_cash_dividends(m, "D", 1, dt, da), MCP_OK);
  static const unsigned nodes[2] = {40, 64};
  for (int g = 0; g < 2; g++) {
    mcp_portfolio *p;
    assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
    mcp_pde_settings s;
    mcp_pde_settings_init(&s);
    s.space_points = nodes[g];
    s.time_steps = 50;
    assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
    for (int k = 0; k < 12; k++) {
      mcp_trade t;
      char id[16];
      mcp_trade_init(&t);
      snprintf(id, sizeof id, "n%d", k);
      t.id = id;
      t.underlying = k % 2 ? "D" : "L";
      t.product = k % 3 ? MCP_PRODUCT_AMERICAN : MCP_PRODUCT_EUROPEAN;
      t.type = MCP_PUT;
      t.strike = 96 + 3.0 * k;
      t.maturity = 0.5 + 0.1 * k;
      t.engine = MCP_ENGINE_PDE;
      assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    }
    size_t n = pde_compare(m, p);
    printf("# pde, bands not monotone, %zu trades, %u nodes: GPU = CPU, 12 variants identical\n",
           n, nodes[g]);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

static void gpu_pde_matches_cpu(void **state)
{
  for (int points = 3; points <= 5; points += 2)
    for (int scheme = 0; scheme < 2; scheme++)
      pde_check(points, (mcp_pde_scheme)scheme, 0, 0);
  /* more grids (a warp each) than the device holds at once */
  pde_check(3, MCP_PDE_CRANK_NICOLSON, 9000, 0);
}

/* The grids kept in registers (regcache, 3 points, Crank-Nicolson): a
 * kernel for each chunk length, with the chunks' spare positions before
 * node 0 (at 16 nodes most lanes have none), against the staged march
 * (smem, global) and the CPU; 1100 nodes are past them.  Under 200 nodes
 * American puts alone: coarser grids refuse the calls' far tails. */
static void gpu_pde_every_chunk_length(void **state)
{
  (void)state;
  static const unsigned nodes[] = {16, 40, 97, 150, 200, 280, 385, 401, 520, 790, 801, 1056, 1100};
  for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++)
    pde_check(3, MCP_PDE_CRANK_NICOLSON, nodes[i] < 200 ? 40 : 0, nodes[i]);
}

/* ---- per-path arrays ------------------------------------------------------ */

/* Himalayas (3 and 16 assets), cliquets and moving windows (with and without
 * a barrier) on A, H and M and the correlated assets; every job's array fits
 * the register kernels unless big is set. */
static mcp_portfolio *array_book(uint64_t paths, int big, int methods)
{
  static const char *und[3] = {"A", "H", "M"};
  static const char *many[16] = {"A", "B", "C", "D0", "D1", "D2", "D3", "D4",
                                 "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12"};
  double fix[64];
  mcp_portfolio *p;
  char id[24];
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  for (int u = 0; u < 3; u++) {
    for (int k = 0; k < 3; k++) {
      int n = big ? 30 : 6;
      for (int i = 0; i < 52; i++)
        fix[i] = (i + 1) / 52.0;
      mcp_trade t;
      mcp_trade_init(&t);
      snprintf(id, sizeof id, "%s-cliquet-%d", und[u], k);
      t.id = id;
      t.underlying = und[u];
      t.product = MCP_PRODUCT_CLIQUET;
      t.maturity = 1;
      t.nfixings = (size_t)n;
      t.fixings = fix + 52 - n;
      t.best = (size_t)(k == 0 ? 0 : n / 2);
      t.local_floor = k == 2 ? 0 : -0.05;
      t.local_cap = 0.04 + 0.02 * k;
      t.global_floor = k == 1 ? 0.01 : -HUGE_VAL;
      t.notional = 100;
      add(p, &t);
      mcp_trade_init(&t);
      snprintf(id, sizeof id, "%s-window-%d", und[u], k);
      t.id = id;
      t.underlying = und[u];
      t.product = MCP_PRODUCT_MOVING_WINDOW;
      t.type = k == 1 ? MCP_PUT : MCP_CALL;
      t.strike = u == 2 ? 80 : 100;
      t.maturity = 1;
      t.nfixings = big ? 52 : 12;
      t.fixings = fix + 52 - t.nfixings;
      t.window = big ? 40 : 4 + k;
      t.barrier_kind = k == 2 ? MCP_DOWN_AND_OUT : MCP_UP_AND_OUT;
      t.barrier = k == 0 ? 0 : k == 1 ? 1.15 * t.strike : 0.9 * t.strike;
      t.rebate = k;
      add(p, &t);
    }
    /* an autocallable a day (quarterly dates), memory on A, the knock-in on
     * the bridge on H, a level a date on M */
    static const double spot[3] = {100, 100, 80}, levels[4] = {1.1, 1.05, 1.0, 0.95};
    mcp_trade t;
    mcp_trade_init(&t);
    snprintf(id, sizeof id, "%s-autocall", und[u]);
    t.id = id;
    t.underlying = und[u];
    t.product = MCP_PRODUCT_AUTOCALLABLE;
    t.strike = 1;
    t.maturity = 1;
    t.nfixings = 4;
    for (int i = 0; i < 4; i++)
      fix[i] = 0.25 * (i + 1);
    t.fixings = fix;
    t.initial_fixings = &spot[u];
    t.notional = 100;
    t.coupon = 0.02;
    t.coupon_barrier = 0.8;
    t.autocall_level = 1.0;
    t.autocall_levels = u == 2 ? levels : NULL;
    t.memory = u == 0;
    t.knock_in = 0.7;
    t.monitoring = u == 1 ? MCP_MONITOR_BRIDGE : MCP_MONITOR_DISCRETE;
    add(p, &t);
  }
  {
    static const double initial[3] = {95, 52, 1190};
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = "worst-autocall";
    t.product = MCP_PRODUCT_AUTOCALLABLE;
    t.nassets = 3;
    t.assets = many;
    t.strike = 0.9;
    t.maturity = 1.5;
    t.nfixings = 3;
    for (int i = 0; i < 3; i++)
      fix[i] = 0.5 * (i + 1);
    t.fixings = fix;
    t.initial_fixings = initial;
    t.notional = 100;
    t.coupon = 0.05;
    t.autocall_level = 1.0;
    t.memory = 1;
    t.knock_in = 0.6;
    add(p, &t);
  }
  for (int k = 0; k < 2; k++) {
    mcp_trade t;
    mcp_trade_init(&t);
    snprintf(id, sizeof id, "himalaya-%d", k);
    t.id = id;
    t.product = MCP_PRODUCT_HIMALAYA;
    t.type = k ? MCP_PUT : MCP_CALL;
    t.nassets = big ? 16 : 3;
    t.assets = many;
    t.nfixings = t.nassets;
    for (size_t i = 0; i < t.nassets; i++)
      fix[i] = (double)(i + 1) / (double)t.nassets;
    t.fixings = fix;
    t.strike = 1.0 + 0.05 * k;
    t.maturity = 1;
    t.notional = 100;
    add(p, &t);
  }
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
  assert_int_equal(mcp_portfolio_set_scramblings(p, 4), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 66), MCP_OK);
  return p;
}

static mcp_market *array_market(void)
{
  mcp_market *m = models_market();
  char name[8];
  for (int i = 0; i < 13; i++) {
    snprintf(name, sizeof name, "D%d", i);
    assert_int_equal(mcp_market_add_black_scholes(m, name, 20 + 10 * i, 0.03, 0.01,
                                                  0.15 + 0.02 * i),
                     MCP_OK);
  }
  return m;
}

static mcp_results *price_placed(mcp_portfolio *p, mcp_placement place, int block,
                                 const mcp_market *m)
{
  assert_int_equal(mcp_portfolio_set_placement(p, place), MCP_OK);
  return price(MCP_BACKEND_CUDA, block, 0, m, p);
}

/* GPU against CPU for the array products (to the rounding of the normals, as
 * gpu_models_match_cpu), and the GPU's bits unchanged by the placement and
 * the block size, with plain, antithetic and QMC sampling. */
static void gpu_arrays_match_cpu(void **state)
{
  static const int methods[] = {0, MCP_ANTITHETIC, MCP_QMC};
  mcp_market *m = array_market();
  for (int big = 0; big < 2; big++)
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
      mcp_portfolio *p = array_book(20002, big, methods[k]);
      mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
      mcp_results *g = price_placed(p, MCP_PLACEMENT_AUTO, 128, m);
      double worst = largest_difference(g, c, 1e-12);
      print_message("  arrays %s, methods %d: %zu trades, largest relative difference %.2e\n",
                    big ? "up to 64" : "up to 16", methods[k], mcp_results_count(g), worst);
      static const mcp_placement places[3] = {MCP_PLACEMENT_REGISTERS, MCP_PLACEMENT_LOCAL,
                                              MCP_PLACEMENT_SHARED};
      for (int q = big; q < 3; q++) /* the big arrays do not fit the registers */
        for (int block = 64; block <= 256; block *= 4) {
          mcp_results *o = price_placed(p, places[q], block, m);
          assert_identical(g, o);
          mcp_results_destroy(o);
        }
      mcp_results_destroy(g);
      mcp_results_destroy(c);
      mcp_portfolio_destroy(p);
    }
  mcp_market_destroy(m);
}

/* Float paths: the placements agree with each other bit for bit. */
static void gpu_arrays_float_invariant(void **state)
{
  mcp_market *m = array_market();
  mcp_portfolio *p = array_book(20001, 0, 0);
  assert_int_equal(mcp_portfolio_set_precision(p, MCP_FLOAT), MCP_OK);
  mcp_results *a = price_placed(p, MCP_PLACEMENT_REGISTERS, 128, m);
  for (int q = MCP_PLACEMENT_LOCAL; q <= MCP_PLACEMENT_SHARED; q++) {
    mcp_results *b = price_placed(p, (mcp_placement)q, 128, m);
    assert_identical(a, b);
    mcp_results_destroy(b);
  }
  mcp_results_destroy(a);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Arrays that a placement cannot hold are refused with a message that says
 * why, and nothing is priced. */
static void gpu_arrays_refused(void **state)
{
  mcp_market *m = array_market();
  mcp_portfolio *p = array_book(1000, 1, 0);
  mcp_context *ctx;
  mcp_results *r = NULL;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_portfolio_set_placement(p, MCP_PLACEMENT_REGISTERS), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "placement registers"));
  /* 64 doubles x 1024 threads is 512 KiB, beyond any device's shared memory */
  assert_int_equal(mcp_context_set_block_size(ctx, 1024), MCP_OK);
  assert_int_equal(mcp_portfolio_set_placement(p, MCP_PLACEMENT_SHARED), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "placement shared"));
  /* auto falls back to local memory there; the refused runs (each stopped
     with the jobs before it under way on their streams) left the context as
     a fresh one */
  assert_int_equal(mcp_portfolio_set_placement(p, MCP_PLACEMENT_AUTO), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  mcp_results *fresh = price(MCP_BACKEND_CUDA, 1024, 0, m, p);
  assert_identical(fresh, r);
  mcp_results_destroy(fresh);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

#ifdef MCP_HAVE_CUDA /* reads the kernels' attributes through the CUDA runtime */
/* The register placement leaves the array in registers: its kernels use no
 * more local memory than the same loop without an array (none at all, but
 * for the double single-asset state, which a call of the step keeps in a
 * frame), while the local placement's frame holds the whole array. */
static void gpu_register_arrays_stay_in_registers(void **state)
{
  for (int prec = 0; prec < 2; prec++)
    for (int multi = 0; multi < 2; multi++) {
      mcpi_kernel_options o = {.precision = (mcp_precision)prec, .strategy = MCP_PREFETCH_NONE,
                               .distance = 1, .block = 128};
      struct cudaFuncAttributes base, reg, loc;
      assert_int_equal(mcpi_path_kernel_attributes(&o, multi, 0, &base), cudaSuccess);
      o.placement = MCP_PLACEMENT_LOCAL;
      assert_int_equal(mcpi_path_kernel_attributes(&o, multi, 1, &loc), cudaSuccess);
      assert_true(loc.localSizeBytes >= MCP_MAX_PRIVATE_ARRAY * sizeof(double));
      o.placement = MCP_PLACEMENT_REGISTERS;
      for (int c = 0; c < MCPI_NREG_CAPACITIES; c++) {
        assert_int_equal(mcpi_path_kernel_attributes(&o, multi, mcpi_reg_capacities[c], &reg),
                         cudaSuccess);
        print_message("  %s %s, registers %2d: %3d registers, %4zu bytes local (no array "
                      "%zu, local array %zu)\n", prec ? "float" : "double",
                      multi ? "multi-asset" : "one asset", mcpi_reg_capacities[c], reg.numRegs,
                      reg.localSizeBytes, base.localSizeBytes, loc.localSizeBytes);
        assert_true(reg.localSizeBytes <= base.localSizeBytes);
        if (prec == MCP_FLOAT || multi)
          assert_int_equal(reg.localSizeBytes, 0);
      }
    }
}
#endif

/* ---- Greeks ---------------------------------------------------------------- */

/* The Greeks of list, bumped only or with buckets, on a context of backend
 * b, block and tile. */
static mcp_results *price_request(mcp_backend b, int block, uint64_t tile, const mcp_market *m,
                                  const mcp_portfolio *p, const char *list, int bump_only,
                                  int buckets)
{
  mcp_context *ctx;
  mcp_greeks *g;
  mcp_results *r = NULL;
  assert_int_equal(mcp_context_create(&ctx, b), MCP_OK);
  assert_int_equal(mcp_context_set_block_size(ctx, block), MCP_OK);
  assert_int_equal(mcp_context_set_tile_paths(ctx, tile), MCP_OK);
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, list), MCP_OK);
  assert_int_equal(mcp_greeks_set_bump_only(g, bump_only), MCP_OK);
  assert_int_equal(mcp_greeks_set_buckets(g, buckets), MCP_OK);
  mcp_status st = mcp_price_greeks(ctx, m, p, g, &r);
  if (st != MCP_OK)
    fail_msg("mcp_price_greeks: %s", mcp_context_last_error(ctx));
  mcp_greeks_destroy(g);
  mcp_context_destroy(ctx);
  return r;
}

static mcp_results *price_greeks(mcp_backend b, int block, uint64_t tile, const mcp_market *m,
                                 const mcp_portfolio *p, int bump_only)
{
  return price_request(b, block, tile, m, p, "all", bump_only, 0);
}

/* Every sensitivity of a and b, trades and book, side by side: bitwise equal
 * (tol < 0), or within tol standard errors plus 1e-8 relative (the normals'
 * rounding moves paths across kinks and knock-outs, which bump differences
 * divide by small bumps; 1e-12 absolute for sensitivities that are zero but
 * for rounding); returns the largest relative difference. */
static double compare_greeks(const mcp_results *a, const mcp_results *b, double tol)
{
  double worst = 0;
  for (size_t i = 0; i <= mcp_results_count(a); i++) {
    const char *id = i < mcp_results_count(a) ? mcp_results_trade_id(a, i) : "the book";
    assert_int_equal(mcp_results_sensitivities(a, i), mcp_results_sensitivities(b, i));
    mcp_sensitivity x, y;
    for (size_t k = 0; mcp_results_sensitivity(a, i, k, &x) == MCP_OK; k++) {
      assert_int_equal(mcp_results_sensitivity(b, i, k, &y), MCP_OK);
      assert_string_equal(x.name, y.name);
      assert_int_equal(x.method, y.method);
      if (tol < 0) {
        if (memcmp(&x.value, &y.value, sizeof x.value) != 0)
          fail_msg("%s %s: %.17g vs %.17g", id, x.name, x.value.price, y.value.price);
        continue;
      }
      double d = fabs(x.value.price - y.value.price);
      double se = fmax(x.value.std_error, y.value.std_error);
      if (d > tol * se + 1e-8 * fmax(fabs(x.value.price), fabs(y.value.price)) + 1e-12)
        fail_msg("%s %s: GPU %.17g CPU %.17g (se %.3g)", id, x.name, x.value.price,
                 y.value.price, se);
      double scale = fmax(fabs(x.value.price), fabs(y.value.price));
      if (scale > 1e-10)
        worst = fmax(worst, d / scale);
    }
  }
  return worst;
}

/* A price floored to its European (reval.c) has that European's Greeks on
 * the same paths (tests/test_lsm.c, test_floored_greeks), written by the
 * kernels as the held trade's scaled paths: an American call without
 * dividends and a Bermudan max-call of 1000 dates on few paths, whose rules
 * exercise on noise.  The GPU's are the CPU's, and the same trade's with
 * its last date alone (holding) to the bit. */
static void gpu_floored_greeks(void **state)
{
  (void)state;
  static const char *const xy[2] = {"X", "Y"};
  const double corr[4] = {1, 0, 0, 1};
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.05, 0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "X", 100, 0.05, 0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "Y", 100, 0.05, 0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_set_correlation(m, 2, xy, corr), MCP_OK);
  double dates[1000], last = 1;
  for (int k = 0; k < 1000; k++)
    dates[k] = (k + 1) / 1000.0;
  for (int two = 0; two < 2; two++) {
    mcp_results *r[2][2]; /* [one date][GPU] */
    for (int one = 0; one < 2; one++) {
      mcp_portfolio *p;
      assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
      mcp_trade t;
      mcp_trade_init(&t);
      t.id = "T";
      t.engine = MCP_ENGINE_MC;
      t.type = MCP_CALL;
      t.strike = 100;
      t.maturity = 1;
      t.quantity = 2;
      if (two) {
        t.product = MCP_PRODUCT_BERMUDAN;
        t.payoff = MCP_PRODUCT_BEST_OF;
        t.nassets = 2;
        t.assets = xy;
        t.nfixings = one ? 1 : 1000;
        t.fixings = one ? &last : dates;
      } else {
        t.product = MCP_PRODUCT_AMERICAN;
        t.underlying = "A";
        t.exercises = one ? 1 : 1000;
      }
      add(p, &t);
      assert_int_equal(mcp_portfolio_set_paths(p, 4000), MCP_OK);
      assert_int_equal(mcp_portfolio_set_seed(p, 2), MCP_OK); /* a seed whose rules lose */
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 1000), MCP_OK);
      const char *list = two ? "delta,gamma,cross-gamma" : "all";
      r[one][1] = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, list, 0, 0);
      r[one][0] = price_request(MCP_BACKEND_CPU, 128, 0, m, p, list, 0, 0);
      mcp_portfolio_destroy(p);
    }
    mcp_estimate e, h;
    assert_int_equal(mcp_results_trade(r[0][1], 0, &e), MCP_OK);
    assert_int_equal(mcp_results_trade(r[1][1], 0, &h), MCP_OK);
    print_message("  %s: floored %.6f, held %.6f; GPU against CPU: largest relative "
                  "difference %.2e\n", two ? "max-call" : "call", e.price, h.price,
                  compare_greeks(r[0][1], r[0][0], 0.05));
    assert_true(memcmp(&e, &h, sizeof e) == 0);
    compare_greeks(r[0][1], r[1][1], -1);
    for (int k = 0; k < 4; k++)
      mcp_results_destroy(r[k / 2][k % 2]);
  }
  mcp_market_destroy(m);
}

/* The Greeks of every model, product and method (pathwise, likelihood
 * ratio, in-path and revalued bumps) agree with the CPU's. */
static void gpu_greeks_match_cpu(void **state)
{
  static const int methods[] = {0, MCP_ANTITHETIC | MCP_CONTROL_VARIATE, MCP_QMC};
  mcp_market *m = array_market();
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
    for (int bump = 0; bump < 2; bump++)
      for (int arrays = 0; arrays < 2; arrays++) {
        mcp_portfolio *p = arrays ? array_book(20002, 0, methods[k])
                                  : models_book(20002, methods[k], 0);
        mcp_results *g = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, bump);
        mcp_results *c = price_greeks(MCP_BACKEND_CPU, 128, 0, m, p, bump);
        double worst = compare_greeks(g, c, 0.05);
        print_message("  %s book, methods %d, %s: largest relative difference %.2e\n",
                      arrays ? "arrays" : "models", methods[k], bump ? "bump" : "auto", worst);
        mcp_results_destroy(g);
        mcp_results_destroy(c);
        mcp_portfolio_destroy(p);
      }
  mcp_market_destroy(m);
}

/* Closed forms beside a grid and paths on the same underlyings: on either
 * backend the host computes them, so that their prices and Greeks are the
 * CPU's to the bit; the grid's and the paths' as everywhere else. */
static void gpu_analytic_beside_grids_and_paths(void **state)
{
  (void)state;
  mcp_market *m = market();
  assert_int_equal(mcp_market_add_heston(m, "H", 80, 0.02, 0.01, 0.05, 1.2, 0.06, 0.7, -0.6),
                   MCP_OK);
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
  static const struct {
    const char *id, *und;
    mcp_product product;
    mcp_engine engine;
  } trades[] = {{"closed-h", "H", MCP_PRODUCT_EUROPEAN, MCP_ENGINE_ANALYTIC},
                {"closed-a", "A", MCP_PRODUCT_EUROPEAN, MCP_ENGINE_ANALYTIC},
                {"grid-a", "A", MCP_PRODUCT_AMERICAN, MCP_ENGINE_PDE},
                {"paths-h", "H", MCP_PRODUCT_EUROPEAN, MCP_ENGINE_MC}};
  for (size_t k = 0; k < sizeof trades / sizeof *trades; k++) {
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = trades[k].id;
    t.underlying = trades[k].und;
    t.product = trades[k].product;
    t.engine = trades[k].engine;
    t.type = MCP_PUT;
    t.strike = trades[k].und[0] == 'H' ? 85 : 105;
    t.maturity = 1.5;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  }
  mcp_results *g = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, 0);
  mcp_results *c = price_greeks(MCP_BACKEND_CPU, 128, 0, m, p, 0);
  for (size_t i = 0; i < 2; i++) {
    mcp_estimate x, y;
    assert_int_equal(mcp_results_engine(g, i), MCP_ENGINE_ANALYTIC);
    mcp_results_trade(g, i, &x);
    mcp_results_trade(c, i, &y);
    assert_memory_equal(&x, &y, sizeof x);
  }
  assert_int_equal(mcp_results_engine(g, 2), MCP_ENGINE_PDE);
  assert_int_equal(mcp_results_engine(g, 3), MCP_ENGINE_MC);
  double worst = compare_greeks(g, c, 0.05);
  print_message("  closed forms, grid and paths: largest relative difference %.2e\n", worst);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Book p on market m, all Greeks, on the GPU and the CPU: each trade priced
 * by its engine, above 0, the CPU's price to 1e-12, every Greek within 0.05
 * standard errors; destroys m and p. */
static void gpu_against_cpu(mcp_market *m, mcp_portfolio *p, const char *what,
                            const mcp_engine *engines)
{
  mcp_results *g = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, 0);
  mcp_results *c = price_greeks(MCP_BACKEND_CPU, 128, 0, m, p, 0);
  for (size_t i = 0; i < mcp_results_count(g); i++) {
    mcp_estimate x, y;
    assert_int_equal(mcp_results_engine(g, i), engines[i]);
    mcp_results_trade(g, i, &x);
    mcp_results_trade(c, i, &y);
    assert_true(x.price > 0);
    assert_close(x.price, y.price, 1e-12, "price", mcp_results_trade_id(g, i));
  }
  double worst = compare_greeks(g, c, 0.05);
  print_message("  %s: largest relative difference %.2e\n", what, worst);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* An implied surface's paths (Dupire's local volatility of its smiles) and
 * closed forms: the CPU's prices to 1e-12, their Greeks within 0.05
 * standard errors. */
static void gpu_implied_surface(void **state)
{
  (void)state;
  static const double t[3] = {0.5, 1, 2}, k[7] = {70, 80, 90, 100, 110, 120, 130};
  static const double v[21] = {0.29, 0.26, 0.23, 0.205, 0.19, 0.185, 0.188,
                               0.28, 0.255, 0.232, 0.212, 0.198, 0.19, 0.189,
                               0.27, 0.252, 0.235, 0.22, 0.208, 0.2, 0.196};
  const mcp_quotes q = {NULL, 3, 7, (double *)t, (double *)k, (double *)v};
  mcp_market *m = market();
  assert_int_equal(mcp_market_add_black_scholes(m, "I", 100, 0.02, 0.01, 0), MCP_OK);
  if (mcp_market_set_implied_volatility(m, "I", &q) != MCP_OK)
    fail_msg("%s", mcp_market_last_error(m));
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
  static const struct {
    const char *id;
    mcp_product product;
    mcp_engine engine;
  } trades[] = {{"closed", MCP_PRODUCT_EUROPEAN, MCP_ENGINE_DEFAULT},
                {"paths", MCP_PRODUCT_EUROPEAN, MCP_ENGINE_MC},
                {"barrier", MCP_PRODUCT_BARRIER, MCP_ENGINE_MC}};
  for (size_t i = 0; i < sizeof trades / sizeof *trades; i++) {
    mcp_trade tr;
    mcp_trade_init(&tr);
    tr.id = trades[i].id;
    tr.underlying = "I";
    tr.product = trades[i].product;
    tr.engine = trades[i].engine;
    tr.type = MCP_PUT;
    tr.strike = 95;
    tr.maturity = 1.5;
    tr.barrier = 75;
    tr.barrier_kind = MCP_DOWN_AND_OUT;
    tr.monitoring = MCP_MONITOR_BRIDGE;
    if (mcp_portfolio_add_trade(p, &tr) != MCP_OK)
      fail_msg("%s", mcp_portfolio_last_error(p));
  }
  static const mcp_engine engines[] = {MCP_ENGINE_ANALYTIC, MCP_ENGINE_MC, MCP_ENGINE_MC};
  gpu_against_cpu(m, p, "implied surface", engines);
}

/* Seasoned trades (past fixings): the CPU's prices to 1e-12, their Greeks
 * within 0.05 standard errors. */
static void gpu_seasoned(void **state)
{
  (void)state;
  static const double fix[5] = {-0.5, -0.25, 0.25, 0.5, 1}, past[2] = {96, 104}, hit[1] = {97};
  mcp_market *m = market();
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
  static const char *const ids[3] = {"arithmetic", "geometric", "barrier"};
  for (size_t i = 0; i < 3; i++) {
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = ids[i];
    t.underlying = "A";
    t.product = i < 2 ? MCP_PRODUCT_ASIAN : MCP_PRODUCT_BARRIER;
    t.average = i == 1 ? MCP_GEOMETRIC : MCP_ARITHMETIC;
    t.type = i == 1 ? MCP_PUT : MCP_CALL;
    t.strike = 101;
    t.maturity = 1;
    t.nfixings = i < 2 ? 5 : 4;
    t.fixings = i < 2 ? fix : fix + 1;
    t.npast = i < 2 ? 2 : 1;
    t.past_fixings = i < 2 ? past : hit;
    t.barrier = 90;
    t.barrier_kind = MCP_DOWN_AND_OUT;
    t.methods = i == 0 ? MCP_CONTROL_VARIATE : MCP_METHODS_DEFAULT;
    if (mcp_portfolio_add_trade(p, &t) != MCP_OK)
      fail_msg("%s", mcp_portfolio_last_error(p));
  }
  /* a lookback on dates and one on the bridge, a note and a worst-of note
   * past two of their dates (coupons due, knocked in) */
  static const double note_fix[4] = {-0.5, -0.25, 0.5, 1}, spots[2] = {85, 75};
  static const double rows[4] = {95, 45, 90, 40}, initial[2] = {110, 50};
  static const char *const two[2] = {"A", "B"};
  mcp_trade t[4];
  for (int i = 0; i < 4; i++) {
    mcp_trade_init(&t[i]);
    t[i].underlying = "A";
    t[i].strike = 100;
    t[i].maturity = 1;
  }
  t[0].id = "lookback";
  t[0].product = t[1].product = MCP_PRODUCT_LOOKBACK;
  t[0].nfixings = 5;
  t[0].fixings = fix;
  t[0].npast = 2;
  t[0].past_fixings = past;
  t[1].id = "bridge-lookback";
  t[1].type = MCP_PUT;
  t[1].strike = 0;
  t[1].strike_kind = MCP_FLOATING_STRIKE;
  t[1].monitoring = MCP_MONITOR_BRIDGE;
  t[1].extremum = 112;
  for (int i = 2; i < 4; i++) {
    t[i].product = MCP_PRODUCT_AUTOCALLABLE;
    t[i].strike = 1;
    t[i].nfixings = 4;
    t[i].fixings = note_fix;
    t[i].npast = 2;
    t[i].past_fixings = spots;
    t[i].initial_fixings = initial;
    t[i].autocall_level = 1;
    t[i].coupon = 0.05;
    t[i].coupon_barrier = 0.8;
    t[i].memory = 1;
    t[i].knock_in = 0.7;
    t[i].notional = 100;
  }
  t[2].id = "note";
  t[3].id = "worst-note";
  t[3].underlying = NULL;
  t[3].nassets = 2;
  t[3].assets = two;
  t[3].npast = 4;
  t[3].past_fixings = rows;
  for (int i = 0; i < 4; i++)
    if (mcp_portfolio_add_trade(p, &t[i]) != MCP_OK)
      fail_msg("%s", mcp_portfolio_last_error(p));
  /* a cliquet, a Himalaya and a moving window past some fixings: their
   * arrays seeded */
  static const char *const abc[3] = {"A", "B", "C"};
  static const double him_fix[3] = {-0.5, -0.25, 1}, starts[3] = {100, 50, 1200};
  static const double him_rows[6] = {104, 51, 1260, 99, 53, 1210};
  for (int i = 0; i < 2; i++) {
    mcp_trade_init(&t[i]);
    t[i].maturity = 1;
    t[i].notional = 100;
  }
  t[0].id = "cliquet";
  t[0].product = MCP_PRODUCT_CLIQUET;
  t[0].underlying = "A";
  t[0].nfixings = 4;
  t[0].fixings = note_fix;
  t[0].npast = 2;
  t[0].past_fixings = spots;
  t[0].initial_fixings = initial;
  t[0].local_floor = -0.05;
  t[0].local_cap = 0.2;
  t[0].global_floor = 0;
  t[1].id = "himalaya";
  t[1].product = MCP_PRODUCT_HIMALAYA;
  t[1].strike = 1;
  t[1].nassets = 3;
  t[1].assets = abc;
  t[1].nfixings = 3;
  t[1].fixings = him_fix;
  t[1].npast = 6;
  t[1].past_fixings = him_rows;
  t[1].initial_fixings = starts;
  mcp_trade_init(&t[2]);
  t[2].id = "window";
  t[2].product = MCP_PRODUCT_MOVING_WINDOW;
  t[2].underlying = "A";
  t[2].strike = 95;
  t[2].maturity = 1;
  t[2].nfixings = 4;
  t[2].fixings = note_fix;
  t[2].npast = 2;
  t[2].past_fixings = spots;
  t[2].window = 3;
  for (int i = 0; i < 3; i++)
    if (mcp_portfolio_add_trade(p, &t[i]) != MCP_OK)
      fail_msg("%s", mcp_portfolio_last_error(p));
  static const mcp_engine engines[] = {MCP_ENGINE_MC, MCP_ENGINE_MC, MCP_ENGINE_MC,
                                       MCP_ENGINE_MC, MCP_ENGINE_MC, MCP_ENGINE_MC,
                                       MCP_ENGINE_MC, MCP_ENGINE_MC, MCP_ENGINE_MC,
                                       MCP_ENGINE_MC};
  gpu_against_cpu(m, p, "seasoned trades", engines);
}

/* The GPU's Greeks keep their bits under block size, tile size, normals mode
 * and prefetch strategy. */
static void gpu_greeks_invariant(void **state)
{
  mcp_market *m = array_market();
  mcp_portfolio *p = models_book(30010, MCP_ANTITHETIC, 1);
  mcp_results *ref = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, 0);
  mcp_results *r = price_greeks(MCP_BACKEND_CUDA, 64, 4096, m, p, 0);
  compare_greeks(ref, r, -1);
  mcp_results_destroy(r);
  assert_int_equal(mcp_portfolio_set_prefetch(p, MCP_PREFETCH_SMEM_ROLLING, BUILT_DISTANCE(8), 1),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
  r = price_greeks(MCP_BACKEND_CUDA, 256, 0, m, p, 0);
  compare_greeks(ref, r, -1);
  mcp_results_destroy(r);
  mcp_results_destroy(ref);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Fused normals price every family to the bits of stored normals: the plain
 * book (job-shaped state), every model, product and method (QMC runs stored
 * either way), the per-path arrays in each placement, and the Greeks (greeks
 * 1: as the request chooses, compared; 2: bumped alone, their prices and
 * grid moves too), in double, float and mixed; the fused runs use another block
 * size and tiles of a size that is not a power of two. */
static void expect_fused_equals_stored(const mcp_market *m, mcp_portfolio *p, int greeks,
                                       const char *what)
{
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++) {
    assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
    assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
    mcp_results *s = greeks ? price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, greeks - 1)
                            : price(MCP_BACKEND_CUDA, 128, 0, m, p);
    assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_FUSED), MCP_OK);
    mcp_results *f = greeks ? price_greeks(MCP_BACKEND_CUDA, 96, 12288, m, p, greeks - 1)
                            : price(MCP_BACKEND_CUDA, 96, 12288, m, p);
    if (greeks)
      compare_greeks(s, f, -1);
    if (greeks != 1) /* (bumped Greeks: the prices and grid moves too) */
      assert_identical(s, f);
    print_message("  %s, %s: fused = stored, %zu trades\n", what,
                  mcp_precision_name((mcp_precision)prec), mcp_results_count(f));
    mcp_results_destroy(s);
    mcp_results_destroy(f);
  }
  assert_int_equal(mcp_portfolio_set_precision(p, MCP_DOUBLE), MCP_OK);
}

/* The plain book's Greeks, whose jobs on B and C run the job-shaped state
 * with on-path vega and rho (_gs) and whose job on A the general one, agree
 * with the CPU's, and fused normals give the bits of stored ones. */
static void gpu_shaped_greeks_match_cpu(void **state)
{
  mcp_market *m = market();
  mcp_portfolio *p = book(20001);
  mcp_results *g = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, 0);
  mcp_results *c = price_greeks(MCP_BACKEND_CPU, 128, 0, m, p, 0);
  double worst = compare_greeks(g, c, 0.05);
  print_message("  plain book: largest relative difference %.2e\n", worst);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  expect_fused_equals_stored(m, p, 1, "plain book, Greeks");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- bucketed sensitivities by adjoint (adjoint.h) -------------------------- */

/* Every bucket of a and b within rel of each other (0: the same bits),
 * relative to the larger of the values and the standard error: a value
 * near 0 for its error is a sum of terms of that error's size, whose last
 * bits the backends' exp and log move (the Heston buckets' book, a vega
 * of -0.30 +- 0.55, 1.2e-12 of itself apart). */
static void compare_buckets(const mcp_results *a, const mcp_results *b, double rel)
{
  size_t n = 0;
  for (size_t i = 0; i <= mcp_results_count(a); i++) {
    assert_int_equal(mcp_results_sensitivities(a, i), mcp_results_sensitivities(b, i));
    mcp_sensitivity x, y;
    for (size_t k = 0; mcp_results_sensitivity(a, i, k, &x) == MCP_OK; k++, n++) {
      assert_int_equal(mcp_results_sensitivity(b, i, k, &y), MCP_OK);
      assert_string_equal(x.name, y.name);
      double d = fabs(x.value.price - y.value.price), sd = fabs(x.value.std_error -
                                                                 y.value.std_error);
      double scale = fmax(fmax(fabs(x.value.price), fabs(y.value.price)), x.value.std_error);
      if (rel == 0 ? memcmp(&x.value, &y.value, sizeof x.value) != 0
                   : d > rel * scale + 1e-14 || sd > 1e-8 * x.value.std_error + 1e-14)
        fail_msg("%zu %s: %.17g +- %.17g vs %.17g +- %.17g", i, x.name, x.value.price,
                 x.value.std_error, y.value.price, y.value.std_error);
    }
  }
  print_message("  %zu sensitivities %s\n", n, rel == 0 ? "bit for bit" : "within 1e-12");
}

/* Each sensitivity of b (its Greeks by adjoint alone) the same bits in a. */
static void compare_by_adjoint(const mcp_results *a, const mcp_results *b)
{
  size_t n = 0;
  for (size_t i = 0; i <= mcp_results_count(b); i++) {
    mcp_sensitivity x, y;
    for (size_t k = 0; mcp_results_sensitivity(b, i, k, &y) == MCP_OK; k++) {
      size_t at = 0;
      while (mcp_results_sensitivity(a, i, at, &x) == MCP_OK && strcmp(x.name, y.name) != 0)
        at++;
      assert_int_equal(mcp_results_sensitivity(a, i, at, &x), MCP_OK);
      if (memcmp(&x.value, &y.value, sizeof x.value) != 0)
        fail_msg("%zu %s: %.17g vs %.17g", i, y.name, x.value.price, y.value.price);
      n++;
    }
  }
  assert_true(n > 0);
  print_message("  %zu sensitivities by adjoint bit for bit\n", n);
}

/* A Black-Scholes underlying with volatility and rate curves, a
 * local-volatility one, one of implied volatilities' quotes, one paying
 * cash dividends and a Heston one, each with a European (the third's in
 * closed form), an Asian, a lookback on dates and a barrier watched on the
 * bridge (the cash payer's revalued), and a basket and a best-of on the first and
 * a correlated second (their correlations and dividend yields' pieces too),
 * and a basket and a worst-of on the local-volatility one and a second of a
 * narrower surface, whose own European and Asian fit the plain shape (the
 * adjoint's forward in its state), a basket of the implied one and the
 * first local one, and a best-of of three (the multi-asset local-volatility
 * sweep: a path's assets on lanes, 16 and 10 paths a warp) and a basket of
 * six local ones, with gammas and cross gammas (the last's by passes that
 * sweep back), a basket, a worst-of and a best-of of three on Heston
 * assets whose spots and variances are correlated, and American and
 * Bermudan options on those, on three local ones and on the pair: the GPU's buckets
 * are the CPU's to 1e-12 (the GPU's exponentials round otherwise), and keep
 * their bits under fused or stored normals, block and tile sizes, and
 * antithetic pairs. */
static void gpu_buckets_match_cpu(void **state)
{
  (void)state;
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.2), MCP_OK);
  const double ve[3] = {0.25, 0.5, 2}, vv[3] = {0.3, 0.2, 0.25}, re[2] = {0.4, 2},
               rv[2] = {0.03, 0.05};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 3, ve, vv), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 2, re, rv), MCP_OK);
  const double lt[3] = {0.1, 0.5, 1}, ls[4] = {80, 95, 105, 120};
  const double lv[12] = {0.30, 0.24, 0.20, 0.18, 0.28, 0.23, 0.21, 0.19, 0.26, 0.22, 0.21, 0.20};
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0.02, 0.01, 3, lt, 4, ls, lv), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 90, 0.02, 0, 0.3), MCP_OK);
  static const char *const ab[2] = {"A", "B"};
  static const double corr[4] = {1, 0.4, 0.4, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ab, corr), MCP_OK);
  const double qe[2] = {0.6, 2}, qv[2] = {0.005, 0.015};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_DIVIDEND, 2, qe, qv), MCP_OK);
  const double mt[2] = {0.3, 1.2}, ms[3] = {70, 93, 115}, mv[6] = {0.34, 0.27, 0.22, 0.3, 0.26,
                                                                   0.23};
  assert_int_equal(mcp_market_add_local_vol(m, "M", 90, 0.03, 0, 2, mt, 3, ms, mv), MCP_OK);
  const double kt[2] = {0.5, 1}, ks[2] = {90, 110}, kv[4] = {0.25, 0.2, 0.24, 0.21};
  assert_int_equal(mcp_market_add_local_vol(m, "K", 105, 0.025, 0.02, 2, kt, 2, ks, kv), MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "N", 95, 0.025, 0.01, 2, kt, 2, ks, kv), MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "P", 110, 0.025, 0, 2, mt, 3, ms, mv), MCP_OK);
  static const char *const lm[3] = {"L", "M", "K"};
  static const double lcorr[9] = {1, -0.3, 0.4, -0.3, 1, 0.1, 0.4, 0.1, 1};
  assert_int_equal(mcp_market_set_correlation(m, 3, lm, lcorr), MCP_OK);
  /* an implied surface's: its buckets its quotes */
  double qt[3] = {0.4, 0.8, 1.5}, qk[7], iv[21];
  for (int j = 0; j < 7; j++) {
    qk[j] = 70 + 10 * j;
    for (int i = 0; i < 3; i++) {
      double x = log(qk[j] / 100);
      iv[i * 7 + j] = 0.21 + 0.005 * i - 0.12 * x + 0.25 * x * x;
    }
  }
  const mcp_quotes quotes = {NULL, 3, 7, qt, qk, iv};
  assert_int_equal(mcp_market_add_black_scholes(m, "Q", 100, 0.02, 0.01, 0.2), MCP_OK);
  assert_int_equal(mcp_market_set_implied_volatility(m, "Q", &quotes), MCP_OK);
  /* cash dividends, one on a fixing: the sweep through the drops */
  const double dt[2] = {0.3, 0.5}, da[2] = {2, 1.5};
  assert_int_equal(mcp_market_add_black_scholes(m, "D", 95, 0.03, 0, 0.25), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "D", 2, dt, da), MCP_OK);
  /* a Heston asset: its parameters' sweep, its barrier's bridges too */
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0.01, 0.04, 1.5, 0.06, 0.6, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "H", MCP_CURVE_DIVIDEND, 2, qe, qv), MCP_OK);
  /* two more, their spots and variances correlated with H's: several
   * Heston assets' sweep (on lanes, 16 and 10 paths a warp) */
  assert_int_equal(mcp_market_add_heston(m, "G", 95, 0.03, 0, 0.05, 2, 0.05, 0.5, -0.6), MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "J", 105, 0.03, 0.02, 0.03, 1, 0.04, 0.4, -0.5),
                   MCP_OK);
  static const char *const hg[6] = {"H", "H:variance", "G", "G:variance", "J", "J:variance"};
  static const double hcorr[36] = {1,    -0.7, 0.4,  -0.1, 0.3,  0,   -0.7, 1,    -0.1, 0.3,
                                   0,    0.2,  0.4,  -0.1, 1,    -0.6, 0.2,  0.1, -0.1, 0.3,
                                   -0.6, 1,    0,    0.2,  0.3,  0,    0.2,  0,   1,    -0.5,
                                   0,    0.2,  0.1,  0.2,  -0.5, 1};
  assert_int_equal(mcp_market_set_correlation(m, 6, hg, hcorr), MCP_OK);
  const char *list = "delta,gamma,cross-gamma,vega,rho,correlation,dividend";
  for (int anti = 0; anti < 2; anti++) {
    mcp_portfolio *p = NULL;
    assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
    assert_int_equal(mcp_portfolio_set_paths(p, 20012), MCP_OK);
    assert_int_equal(mcp_portfolio_set_seed(p, 17), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 24), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(p, anti ? MCP_ANTITHETIC : 0), MCP_OK);
    static const double fix[3] = {0.3, 0.6, 0.9};
    const char *und[5] = {"A", "L", "Q", "D", "H"};
    for (int u = 0; u < 5; u++) {
      char id[4][8];
      snprintf(id[0], 8, "%s-E", und[u]);
      snprintf(id[1], 8, "%s-A", und[u]);
      snprintf(id[2], 8, "%s-L", und[u]);
      snprintf(id[3], 8, "%s-B", und[u]);
      assert_int_equal(mcp_portfolio_add_european(p, id[0], und[u], MCP_CALL, 100, 1, 1), MCP_OK);
      assert_int_equal(mcp_portfolio_add_asian(p, id[1], und[u], MCP_ARITHMETIC, MCP_PUT, 98, 3,
                                               fix, 0.9, -2),
                       MCP_OK);
      mcp_trade t;
      mcp_trade_init(&t);
      t.id = id[2];
      t.underlying = und[u];
      t.product = MCP_PRODUCT_LOOKBACK;
      t.strike = 104;
      t.maturity = 0.9;
      t.nfixings = 3;
      t.fixings = fix;
      assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
      mcp_trade_init(&t); /* a barrier watched on the bridge (the cash payer's revalued) */
      t.id = id[3];
      t.underlying = und[u];
      t.product = MCP_PRODUCT_BARRIER;
      t.type = MCP_PUT;
      t.strike = 102;
      t.maturity = 0.8;
      t.barrier_kind = MCP_DOWN_AND_OUT;
      t.barrier = 82;
      t.rebate = 1;
      t.monitoring = MCP_MONITOR_BRIDGE;
      assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    }
    /* K's own job, a European and an Asian: the plain shape's forward */
    assert_int_equal(mcp_portfolio_add_european(p, "K-E", "K", MCP_PUT, 100, 0.9, 1), MCP_OK);
    assert_int_equal(
        mcp_portfolio_add_asian(p, "K-A", "K", MCP_ARITHMETIC, MCP_CALL, 104, 3, fix, 0.9, 3),
        MCP_OK);
    mcp_trade t; /* a basket and a best-of on the correlated pair */
    mcp_trade_init(&t);
    t.id = "AB-BASKET";
    t.product = MCP_PRODUCT_BASKET;
    t.nassets = 2, t.assets = ab, t.strike = 95, t.maturity = 0.9;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "AB-BEST", t.product = MCP_PRODUCT_BEST_OF, t.strike = 105;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "LM-BASKET", t.product = MCP_PRODUCT_BASKET, t.assets = lm, t.strike = 95;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "LM-WORST", t.product = MCP_PRODUCT_WORST_OF, t.type = MCP_PUT, t.maturity = 0.7;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "LMK-BEST", t.product = MCP_PRODUCT_BEST_OF, t.nassets = 3, t.strike = 100;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    /* the quotes' chain of several assets; of six, the second order by
     * bumping the adjoint */
    static const char *const ql[6] = {"Q", "L", "M", "K", "N", "P"};
    t.id = "QL-BASKET", t.product = MCP_PRODUCT_BASKET, t.nassets = 2, t.assets = ql;
    t.type = MCP_CALL, t.maturity = 0.9;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "Q6-BASKET", t.nassets = 6;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    static const char *const hgj[3] = {"H", "G", "J"};
    t.id = "HG-BASKET", t.nassets = 2, t.assets = hgj;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "HG-WORST", t.product = MCP_PRODUCT_WORST_OF, t.type = MCP_PUT, t.maturity = 0.7;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "HGJ-BEST", t.product = MCP_PRODUCT_BEST_OF, t.type = MCP_CALL, t.nassets = 3;
    t.maturity = 0.9, t.strike = 100;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    /* early exercise on three Heston and three local-volatility assets:
     * each path's sweep from its exercise, its held European's from the
     * last date */
    t.id = "HGJ-AM", t.product = MCP_PRODUCT_AMERICAN, t.payoff = MCP_PRODUCT_BASKET;
    t.type = MCP_PUT, t.strike = 110, t.exercises = 12;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "HG-BERM", t.product = MCP_PRODUCT_BERMUDAN, t.payoff = MCP_PRODUCT_WORST_OF;
    t.nassets = 2, t.strike = 98, t.exercises = 0, t.nfixings = 3, t.fixings = fix;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "LMK-AM", t.product = MCP_PRODUCT_AMERICAN, t.payoff = MCP_PRODUCT_BEST_OF;
    t.assets = lm, t.nassets = 3, t.type = MCP_CALL, t.strike = 104, t.nfixings = 0;
    t.fixings = NULL, t.exercises = 12;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    t.id = "AB-BERM", t.product = MCP_PRODUCT_BERMUDAN, t.payoff = MCP_PRODUCT_BASKET;
    t.assets = ab, t.nassets = 2, t.type = MCP_PUT, t.strike = 98, t.exercises = 0;
    t.nfixings = 3, t.fixings = fix;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
    mcp_results *c = price_request(MCP_BACKEND_CPU, 128, 0, m, p, list, 0, 1);
    mcp_results *g = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, list, 0, 1);
    compare_buckets(g, c, 1e-12);
    /* which come by adjoint: the cash payer's barrier's vega not; the
     * second order of six local-volatility assets by bumping the adjoint
     * (passes that sweep back), of three not */
    static const struct {
      const char *id, *name;
      int adjoint;
    } how[] = {{"D-A", "dividend@t=0.3", 1},    {"L-B", "vega@t=0.5,S=95", 1},
               {"D-B", "vega", 0},              {"H-A", "vega@xi", 1},
               {"H-B", "vega@kappa", 1},        {"Q6-BASKET", "gamma:L", 1},
               {"Q6-BASKET", "cross-gamma:L:K", 1}, {"LMK-BEST", "cross-gamma:L:K", 0},
               {"HG-BASKET", "vega:G@rho", 1},      {"HGJ-BEST", "correlation:G:J", 1},
               {"HG-WORST", "vega:H@kappa", 1},     {"HGJ-AM", "correlation:G:J", 1},
               {"HGJ-AM", "vega:J@xi", 1},          {"HG-BERM", "rho:H@(0,inf)", 1},
               {"LMK-AM", "correlation:L:K", 1},    {"AB-BERM", "correlation:A:B", 1}};
    for (size_t k = 0; k < sizeof how / sizeof *how; k++) {
      mcp_sensitivity s;
      assert_int_equal(mcp_results_greek(g, how[k].id, how[k].name, &s), MCP_OK);
      assert_int_equal(s.method == MCP_METHOD_ADJOINT, how[k].adjoint);
    }
    mcp_results *h = price_request(MCP_BACKEND_CUDA, 64, 4096, m, p, list, 0, 1);
    compare_buckets(g, h, 0);
    mcp_results_destroy(h);
    assert_int_equal(mcp_portfolio_set_normals(p, MCP_NORMALS_STORED), MCP_OK);
    h = price_request(MCP_BACKEND_CUDA, 96, 12288, m, p, list, 0, 1);
    compare_buckets(g, h, 0);
    mcp_results_destroy(h);
    mcp_results_destroy(g);
    mcp_results_destroy(c);
    mcp_portfolio_destroy(p);
  }
  /* paths beyond what the sweep keeps whole (600 steps a year): segments
   * computed again, through the cash dividends' drops and the barriers'
   * bridges (the first order: a second difference of 600 steps' scaled
   * paths, the Heston gamma's, rounds past 1e-12 of its error) */
  list = "delta,vega,rho,correlation,dividend";
  mcp_portfolio *p = NULL;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 2048), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 5), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 600), MCP_OK);
  static const char *const lu[4] = {"D", "A", "L", "H"};
  for (int u = 0; u < 4; u++) {
    char id[2][8];
    snprintf(id[0], 8, "%s-E", lu[u]);
    snprintf(id[1], 8, "%s-B", lu[u]);
    assert_int_equal(mcp_portfolio_add_european(p, id[0], lu[u], MCP_CALL, 97, 1, 1), MCP_OK);
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = id[1], t.underlying = lu[u], t.product = MCP_PRODUCT_BARRIER, t.type = MCP_CALL;
    t.strike = 98, t.maturity = 0.95, t.barrier_kind = MCP_UP_AND_OUT, t.barrier = 130;
    t.monitoring = MCP_MONITOR_BRIDGE;
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  }
  mcp_results *c = price_request(MCP_BACKEND_CPU, 128, 0, m, p, list, 0, 1);
  mcp_results *g = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, list, 0, 1);
  compare_buckets(g, c, 1e-12);
  mcp_results *h = price_request(MCP_BACKEND_CUDA, 64, 1024, m, p, list, 0, 1);
  compare_buckets(g, h, 0);
  mcp_results_destroy(h);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A job of many columns (an adjoint's buckets) has its chunks summed on the
 * GPU in nodes of up to 256 (launch.h MCPI_GPU_TREE_WIDE), others of up to
 * 16, in the host tree's order: the prices beside buckets are the bits of
 * the price alone, and the buckets keep their bits whatever the tile (of
 * 256 chunks, a node of 256, and one of 44 samples; of 16 chunks; of 3;
 * and the whole run of 131,160 antithetic paths, 65,580 samples, in one),
 * CPU = GPU to 1e-12.  Local volatility on surfaces
 * of 20 and 30 spots (the adjoint kernel's rows in shared memory) whose
 * rows after 1.2 no step reads (their nodes' sums the GPU's zeros, not
 * read: backend_cuda.c column_sums), and a Black-Scholes asset with
 * volatility pieces (a job of few columns). */
static void gpu_buckets_keep_prices(void **state)
{
  (void)state;
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  double t[6], s[30], v[6 * 30];
  for (int i = 0; i < 6; i++)
    t[i] = 0.4 * (i + 1);
  for (int k = 0; k < 30; k++)
    s[k] = 60 + 3 * k;
  for (int n = 20; n <= 30; n += 10) {
    int nt = n == 20 ? 6 : 4;
    for (int i = 0; i < nt; i++)
      for (int k = 0; k < n; k++)
        v[i * n + k] = 0.18 + 0.02 * i / nt + 0.1 * pow(log(s[k] / 100), 2);
    assert_int_equal(mcp_market_add_local_vol(m, n == 20 ? "L" : "W", 100, 0.03, 0.01, nt, t, n,
                                              s, v),
                     MCP_OK);
  }
  const double ve[3] = {0.25, 0.5, 2}, vv[3] = {0.3, 0.2, 0.25};
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.2), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 3, ve, vv), MCP_OK);
  mcp_portfolio *p = NULL;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 131160), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 29), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  static const double fix[4] = {0.25, 0.5, 0.75, 1};
  const char *und[3] = {"L", "W", "A"};
  for (int u = 0; u < 3; u++) {
    char id[2][8];
    snprintf(id[0], 8, "%s-E", und[u]);
    snprintf(id[1], 8, "%s-A", und[u]);
    assert_int_equal(mcp_portfolio_add_european(p, id[0], und[u], MCP_PUT, 95, 1, 1), MCP_OK);
    assert_int_equal(
        mcp_portfolio_add_asian(p, id[1], und[u], MCP_ARITHMETIC, MCP_CALL, 102, 4, fix, 1, 2),
        MCP_OK);
  }
  const char *list = "delta,vega,rho";
  mcp_results *alone = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  mcp_results *g = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, list, 0, 1);
  assert_identical(alone, g);
  static const uint64_t tiles[3] = {65536, 4096, 768};
  for (int i = 0; i < 3; i++) {
    mcp_results *h = price_request(MCP_BACKEND_CUDA, 128, tiles[i], m, p, list, 0, 1);
    assert_identical(g, h);
    compare_buckets(g, h, 0);
    mcp_results_destroy(h);
  }
  mcp_results *c = price_request(MCP_BACKEND_CPU, 128, 0, m, p, list, 0, 1);
  compare_buckets(g, c, 1e-12);
  mcp_sensitivity x;
  assert_int_equal(mcp_results_greek(g, "W-A", "vega@t=0.4,S=141", &x), MCP_OK);
  assert_int_equal(x.method, MCP_METHOD_ADJOINT);
  mcp_results_destroy(c);
  mcp_results_destroy(g);
  mcp_results_destroy(alone);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* One Heston (one local-volatility) asset's Europeans and Asian, its plain
 * shape's kernels (path.h MCPI_SHAPE_HESTON_PLAIN, MCPI_SHAPE_LV_PLAIN):
 * the GPU against the CPU, its grid move too (the check's coarse pass holds
 * steps: the general kernel, or beside the Heston fused kernel's own path),
 * by every method and both Heston schemes (Euler's in the general kernel),
 * and its Greeks (bumped: their passes in the shape); fused normals give
 * the bits of stored ones, in double and float. */
static void plain_shape_matches_cpu(const mcp_market *m, const char *u, const char *shape,
                                    int method, int scheme)
{
  double fix[12];
  for (int i = 0; i < 12; i++)
    fix[i] = (i + 1) / 12.0;
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "call", u, MCP_CALL, 100, 1, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "put", u, MCP_PUT, 90, 1, 2), MCP_OK);
  assert_int_equal(
      mcp_portfolio_add_asian(p, "asian", u, MCP_ARITHMETIC, MCP_CALL, 95, 12, fix, 1, 1),
      MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 30012), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, method), MCP_OK);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, (mcp_heston_scheme)scheme), MCP_OK);
  mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
  mcp_results *c = price(MCP_BACKEND_CPU, 128, 0, m, p);
  double worst = largest_difference(g, c, 1e-12);
  for (size_t i = 0; i < mcp_results_count(g); i++) {
    mcp_estimate x, y, e;
    assert_int_equal(mcp_results_grid_move(g, i, &x), MCP_OK);
    assert_int_equal(mcp_results_grid_move(c, i, &y), MCP_OK);
    mcp_results_trade(c, i, &e);
    if (fabs(x.price - y.price) > 1e-12 * fmax(fabs(e.price), 1e-300))
      fail_msg("grid move of %s: GPU %.17g CPU %.17g (price %.6g)", mcp_results_trade_id(g, i),
               x.price, y.price, e.price);
  }
  print_message("  %s plain shape, methods %d, scheme %d: largest relative difference %.2e\n",
                shape, method, scheme, worst);
  if (method != MCP_QMC) /* Heston fused: the check's coarse path in the fine kernel */
    expect_fused_equals_stored(m, p, 0, shape);
  if (method == MCP_ANTITHETIC && scheme == 0) /* Heston: the twin beside bumped passes */
    expect_fused_equals_stored(m, p, 2, shape);
  mcp_results_destroy(g);
  mcp_results_destroy(c);
  /* bumped Greeks: their passes in the shape too (in-path ones: general) */
  for (int bump = 0; bump < 2 && scheme == 0; bump++) {
    g = price_greeks(MCP_BACKEND_CUDA, 128, 0, m, p, bump);
    c = price_greeks(MCP_BACKEND_CPU, 128, 0, m, p, bump);
    print_message("  %s plain shape, methods %d, Greeks %s: largest relative difference %.2e\n",
                  shape, method, bump ? "bumped" : "auto", compare_greeks(g, c, 0.05));
    mcp_results_destroy(g);
    mcp_results_destroy(c);
  }
  mcp_portfolio_destroy(p);
}

static void gpu_plain_shapes_match_cpu(void **state)
{
  (void)state;
  static const int methods[] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC, 7};
  mcp_market *m = models_market();
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
    for (int scheme = 0; scheme < 2; scheme++)
      plain_shape_matches_cpu(m, "H", "Heston", methods[k], scheme);
    plain_shape_matches_cpu(m, "L", "local-volatility", methods[k], 0);
  }
  mcp_market_destroy(m);
  /* The QE step's edges on the GPU (heston.h: its branchless lines where
   * their operands are in range, the host's lines elsewhere): a variance of
   * variance so small that s^2 is subnormal and 2 / psi past the bound (rho
   * 0: float refuses |rho| / xi past 1000); a
   * variance near zero, whose steps take the exponential branch; a market
   * whose paths straddle psi = 1.5 within a warp. */
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "X", 100, 0.02, 0.0, 0.05, 1.2, 0.04, 1e-155, 0.0),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "Z", 100, 0.02, 0.0, 1e-6, 1.2, 1e-6, 0.3, -0.5),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "S", 100, 0.03, 0.01, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  plain_shape_matches_cpu(m, "X", "Heston, xi 1e-155", 0, 0);
  plain_shape_matches_cpu(m, "Z", "Heston, v near 0", MCP_ANTITHETIC, 0);
  plain_shape_matches_cpu(m, "S", "Heston, psi about 1.5", 0, 0);
  mcp_market_destroy(m);
}

static void fused_equals_stored(void **state)
{
  static const int methods[] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC, 7};
  mcp_market *m = market();
  mcp_portfolio *p = book(30011);
  expect_fused_equals_stored(m, p, 0, "plain book");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  m = models_market();
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
    p = models_book(20012, methods[k], 0);
    expect_fused_equals_stored(m, p, 0, "models book");
    mcp_portfolio_destroy(p);
  }
  p = models_book(20012, 0, 1);
  expect_fused_equals_stored(m, p, 0, "models book, methods per trade");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  m = array_market();
  for (int big = 0; big < 2; big++) {
    p = array_book(20012, big, MCP_ANTITHETIC);
    for (int q = MCP_PLACEMENT_AUTO; q <= MCP_PLACEMENT_SHARED; q++) {
      if (big && q == MCP_PLACEMENT_REGISTERS) /* too large for the registers */
        continue;
      assert_int_equal(mcp_portfolio_set_placement(p, (mcp_placement)q), MCP_OK);
      expect_fused_equals_stored(m, p, 0, big ? "arrays up to 64" : "arrays up to 16");
    }
    mcp_portfolio_destroy(p);
  }
  p = models_book(20012, MCP_ANTITHETIC | MCP_CONTROL_VARIATE, 1);
  expect_fused_equals_stored(m, p, 1, "Greeks of the models book");
  mcp_portfolio_destroy(p);
  p = array_book(20011, 0, 0);
  expect_fused_equals_stored(m, p, 1, "Greeks of the arrays book");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* One context prices books of every shape in turn, with the device buffers
 * it keeps from run to run (grown, reused, fused and stored, float and
 * double): each result equals a fresh context's to the bit. */
static void context_reuse_identical(void **state)
{
  mcp_market *m = array_market();
  mcp_portfolio *books[4] = {models_book(20012, 7, 1), book(30011), array_book(10007, 1, 0),
                             models_book(5003, MCP_QMC, 0)};
  assert_int_equal(mcp_portfolio_set_normals(books[2], MCP_NORMALS_STORED), MCP_OK);
  assert_int_equal(mcp_portfolio_set_precision(books[1], MCP_FLOAT), MCP_OK);
  mcp_context *ctx;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CUDA), MCP_OK);
  boundaries_on(ctx);
  for (int round = 0; round < 2; round++)
    for (int k = 0; k < 4; k++) {
      mcp_results *kept = NULL, *fresh = price(MCP_BACKEND_CUDA, 128, 0, m, books[k]);
      if (mcp_price(ctx, m, books[k], &kept) != MCP_OK)
        fail_msg("mcp_price: %s", mcp_context_last_error(ctx));
      assert_identical(fresh, kept);
      mcp_results_destroy(kept);
      mcp_results_destroy(fresh);
    }
  mcp_context_destroy(ctx);
  for (int k = 0; k < 4; k++)
    mcp_portfolio_destroy(books[k]);
  mcp_market_destroy(m);
}

/* A scenario grid on the GPU: every point (a revaluation pass with its own
 * control-variate pilot) equals the GPU's separate run on its market to the
 * bit, for every model, product and method. */
static void gpu_scenarios_equal_separate_runs(void **state)
{
  static const double spot[2] = {-0.02, 0.03}, vol[2] = {0, 0.01};
  mcp_market *m = models_market();
  mcp_portfolio *p = models_book(20002, 7, 1);
  mcp_context *ctx;
  mcp_scenarios *s;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 2, spot), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, vol),
                   MCP_OK);
  if (mcp_price_scenarios(ctx, m, p, s, &r) != MCP_OK)
    fail_msg("mcp_price_scenarios: %s", mcp_context_last_error(ctx));
  for (size_t i = 0; i < 2; i++)
    for (size_t j = 0; j < 2; j++) {
      mcp_scenarios *one;
      mcp_scenario_results *q = NULL;
      assert_int_equal(mcp_scenarios_create(&one), MCP_OK);
      assert_int_equal(mcp_scenarios_set(one, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 1, &spot[i]),
                       MCP_OK);
      assert_int_equal(mcp_scenarios_set(one, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 1,
                                         &vol[j]),
                       MCP_OK);
      assert_int_equal(mcp_price_scenarios(ctx, m, p, one, &q), MCP_OK); /* a run of its own */
      mcp_estimate x, y;
      for (size_t t = 0; t < mcp_scenario_results_count(r); t++) {
        assert_int_equal(mcp_scenario_results_trade(r, t, i, j, 0, &x), MCP_OK);
        assert_int_equal(mcp_scenario_results_trade(q, t, 0, 0, 0, &y), MCP_OK);
        if (memcmp(&x, &y, sizeof x) != 0)
          fail_msg("point (%zu, %zu) %s: grid %.17g, separate %.17g", i, j,
                   mcp_scenario_results_trade_id(r, t), x.price, y.price);
      }
      mcp_scenario_results_destroy(q);
      mcp_scenarios_destroy(one);
    }
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The FRTB view's records on the GPU against the CPU's: revaluations at
 * spot, volatility and key-rate shifts of continuous payoffs (no barrier or
 * jump count that a path's last bit could cross) under Black-Scholes with
 * curves, Heston, local volatility and a basket: differences of prices
 * equal to 1e-12, divided by shifts down to 1e-4. */
static void gpu_frtb_matches_cpu(void **state)
{
  (void)state;
  static const char *const names[9] = {"A", "B", "C", "H", "M", "L", "K", "D", NULL};
  mcp_market *m = models_market();
  for (int i = 0; names[i]; i++)
    assert_int_equal(mcp_market_set_classification(m, names[i], i % 2 ? "EUR" : "USD", 1 + i),
                     MCP_OK);
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 20000), MCP_OK);
  static const char *const und[3] = {"A", "H", "L"}, *abc[3] = {"A", "B", "C"};
  static const double fix[4] = {0.25, 0.5, 0.75, 1};
  for (int u = 0; u < 3; u++) {
    char id[2][16];
    snprintf(id[0], sizeof id[0], "e-%s", und[u]);
    snprintf(id[1], sizeof id[1], "a-%s", und[u]);
    assert_int_equal(mcp_portfolio_add_european(p, id[0], und[u], MCP_CALL, 95, 1.5, 2), MCP_OK);
    assert_int_equal(mcp_portfolio_add_asian(p, id[1], und[u], MCP_ARITHMETIC, MCP_PUT, 100, 4,
                                             fix, 1, -1),
                     MCP_OK);
  }
  mcp_trade b;
  mcp_trade_init(&b);
  b.id = "basket";
  b.product = MCP_PRODUCT_BASKET;
  b.type = MCP_CALL;
  b.strike = 90;
  b.maturity = 2;
  b.nassets = 3;
  b.assets = abc;
  assert_int_equal(mcp_portfolio_add_trade(p, &b), MCP_OK);
  mcp_frtb *f[2] = {NULL, NULL};
  for (int b = 0; b < 2; b++) {
    mcp_context *ctx;
    assert_int_equal(mcp_context_create(&ctx, b ? MCP_BACKEND_CUDA : MCP_BACKEND_CPU), MCP_OK);
    if (mcp_price_frtb(ctx, m, p, &f[b]) != MCP_OK)
      fail_msg("mcp_price_frtb: %s", mcp_context_last_error(ctx));
    mcp_context_destroy(ctx);
  }
  assert_int_equal(mcp_frtb_count(f[0]), mcp_frtb_count(f[1]));
  for (size_t i = 0; i < mcp_frtb_count(f[0]); i++) {
    mcp_frtb_record x, y;
    assert_int_equal(mcp_frtb_record_at(f[0], i, &x), MCP_OK);
    assert_int_equal(mcp_frtb_record_at(f[1], i, &y), MCP_OK);
    assert_true(x.risk == y.risk && x.tenor == y.tenor);
    assert_string_equal(x.qualifier, y.qualifier);
    /* a difference of prices near 1e2, to 1e-12 of them, over 1e-4 */
    if (!(fabs(x.amount - y.amount) <= 1e-6 + 1e-9 * fabs(x.amount)))
      fail_msg("%s %s %s %g: CPU %.17g, GPU %.17g", x.trade_id ? x.trade_id : "TOTAL",
               mcp_frtb_risk_name(x.risk), x.qualifier, x.tenor, x.amount, y.amount);
  }
  mcp_frtb_destroy(f[0]);
  mcp_frtb_destroy(f[1]);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A scenario set on the GPU: its base equals the GPU's mcp_price of the
 * market, and each scenario (a pass beside others) its run alone in a set
 * of one, to the bit, for every model, product and method. */
static void gpu_set_equals_separate_runs(void **state)
{
  static const struct {
    const char *name, *und[2];
    mcp_shift_axis axis[2];
    double x[2];
  } sc[3] = {{"s0", {"H", "D"}, {MCP_SHIFT_SPOT, MCP_SHIFT_VOLATILITY}, {-0.03, 0.02}},
             {"s1", {"M", "L"}, {MCP_SHIFT_SPOT, MCP_SHIFT_VOLATILITY}, {0.02, -0.05}},
             {"s2", {"K", "K"}, {MCP_SHIFT_RATE, MCP_SHIFT_SPOT}, {0.005, 0.01}}};
  mcp_market *m = models_market();
  mcp_portfolio *p = models_book(20002, 7, 1);
  mcp_context *ctx;
  mcp_scenarios *s;
  mcp_scenario_results *r = NULL;
  mcp_results *plain = NULL;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CUDA), MCP_OK);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  for (size_t k = 0; k < 3; k++) {
    assert_int_equal(mcp_scenarios_add(s, sc[k].name, NULL), MCP_OK);
    for (int i = 0; i < 2; i++)
      assert_int_equal(mcp_scenarios_shift(s, k, sc[k].und[i], sc[k].axis[i], sc[k].x[i]), MCP_OK);
  }
  if (mcp_price_scenarios(ctx, m, p, s, &r) != MCP_OK)
    fail_msg("mcp_price_scenarios: %s", mcp_context_last_error(ctx));
  assert_int_equal(mcp_price(ctx, m, p, &plain), MCP_OK);
  mcp_estimate x, y;
  for (size_t t = 0; t < mcp_results_count(plain); t++) {
    assert_int_equal(mcp_scenario_results_base_trade(r, t, &x), MCP_OK);
    mcp_results_trade(plain, t, &y);
    if (memcmp(&x, &y, sizeof x) != 0)
      fail_msg("base %s: set %.17g +- %.17g, mcp_price %.17g +- %.17g",
               mcp_results_trade_id(plain, t), x.price, x.std_error, y.price, y.std_error);
  }
  for (size_t k = 0; k < 3; k++) {
    mcp_scenarios *one;
    mcp_scenario_results *q = NULL;
    assert_int_equal(mcp_scenarios_create(&one), MCP_OK);
    assert_int_equal(mcp_scenarios_add(one, sc[k].name, NULL), MCP_OK);
    for (int i = 0; i < 2; i++)
      assert_int_equal(mcp_scenarios_shift(one, 0, sc[k].und[i], sc[k].axis[i], sc[k].x[i]),
                       MCP_OK);
    assert_int_equal(mcp_price_scenarios(ctx, m, p, one, &q), MCP_OK);
    for (size_t t = 0; t < mcp_scenario_results_count(r); t++) {
      assert_int_equal(mcp_scenario_results_set_trade(r, t, k, &x), MCP_OK);
      assert_int_equal(mcp_scenario_results_set_trade(q, t, 0, &y), MCP_OK);
      if (memcmp(&x, &y, sizeof x) != 0)
        fail_msg("scenario %s %s: in the set %.17g, alone %.17g", sc[k].name,
                 mcp_scenario_results_trade_id(r, t), x.price, y.price);
    }
    assert_int_equal(mcp_scenario_results_loss(r, k, &x), MCP_OK);
    assert_int_equal(mcp_scenario_results_loss(q, 0, &y), MCP_OK);
    assert_memory_equal(&x, &y, sizeof x);
    mcp_scenario_results_destroy(q);
    mcp_scenarios_destroy(one);
  }
  mcp_results_destroy(plain);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* 16 Heston assets, H0 .. H15, their spots correlated 0.4. */
static const char *const heston_names[16] = {"H0", "H1", "H2",  "H3",  "H4",  "H5",  "H6",  "H7",
                                             "H8", "H9", "H10", "H11", "H12", "H13", "H14", "H15"};
static mcp_market *heston_basket_market(void)
{
  double rho[256];
  mcp_market *m;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  for (int i = 0; i < 16; i++) {
    assert_int_equal(mcp_market_add_heston(m, heston_names[i], 95 + i, 0.03, 0.01 * (i % 2),
                                           0.04 + 0.005 * (i % 6), 1.5, 0.05, 0.5, -0.6),
                     MCP_OK);
    for (int k = 0; k < 16; k++)
      rho[i * 16 + k] = i == k ? 1 : 0.4;
  }
  assert_int_equal(mcp_market_set_correlation(m, 16, heston_names, rho), MCP_OK);
  return m;
}

/* An American basket put (and a worst-of) of n Heston assets, a year, the
 * given exercise dates, paths and methods. */
static mcp_portfolio *heston_american(int n, int exercises, int paths, int methods)
{
  mcp_portfolio *p;
  mcp_trade t;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  mcp_trade_init(&t);
  t.id = "HB-AM";
  t.product = MCP_PRODUCT_AMERICAN;
  t.payoff = MCP_PRODUCT_BASKET;
  t.engine = MCP_ENGINE_MC;
  t.type = MCP_PUT;
  t.strike = 101;
  t.maturity = 1;
  t.nassets = (size_t)n;
  t.assets = heston_names;
  t.exercises = (size_t)exercises;
  add(p, &t);
  t.id = "HW-AM";
  t.payoff = MCP_PRODUCT_WORST_OF;
  add(p, &t);
  assert_int_equal(mcp_portfolio_set_paths(p, (uint64_t)paths), MCP_OK);
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 8192), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  if (exercises > 252)
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, (unsigned)exercises), MCP_OK);
  return p;
}

/* Several Heston assets' American prices on the lanes (lsm_kernel.cu; 3, 6,
 * 9, 13 and 16 assets: each of the lanes kernels' sizes, 13 with dead
 * lanes), split: the paths' log-spots stored, then every date's exercise
 * tested at once; theta's revaluation and rho's two (each on a side
 * stream, a part of the work each) too.  The same bits as the record's
 * (with the gammas; past 15 assets the scaled paths' kernel, the price's
 * own step and exercise), over tiles of a quarter of the paths
 * and of 768, and the CPU's to 1e-12.  Where a tile's log-spots pass the
 * cap (1 GiB: 252 dates of 184,320 paths of 3 assets, 92,160 of 6, 61,440
 * of 9, 40,960 of 16), the lanes test each date as they step
 * (mcpi_lsm_lanes_price_kernel, each of its sizes): the same bits as the
 * split's, of a quarter's tiles.  And the fit's paths paired on the lanes
 * at an odd count of regression paths, against the CPU. */
static void gpu_lsm_lanes_price_keeps_bits(void **state)
{
  (void)state;
  mcp_market *m = heston_basket_market();
  static const struct {
    int assets, exercises, paths, methods;
  } cases[] = {{3, 50, 4096, 0},
               {6, 252, 3072, MCP_ANTITHETIC},
               {9, 20, 2048, 0},
               {13, 20, 1024, 0},
               {16, 20, 1024, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mcp_portfolio *p =
        heston_american(cases[c].assets, cases[c].exercises, cases[c].paths, cases[c].methods);
    mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
    mcp_results *h = price(MCP_BACKEND_CUDA, 64, (uint64_t)cases[c].paths / 4, m, p);
    mcp_results *r = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, "gamma", 0, 0);
    mcp_results *t = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, "theta,rho", 1, 0);
    mcp_results *tc = price_request(MCP_BACKEND_CPU, 128, 0, m, p, "theta,rho", 1, 0);
    mcp_results *u = price(MCP_BACKEND_CUDA, 128, 768, m, p);
    assert_identical(g, h);
    assert_identical(g, u);
    assert_identical(g, r);
    assert_identical(g, t);
    compare_buckets(t, tc, 1e-12);
    print_message("  %d assets: largest relative difference %.2e\n", cases[c].assets,
                  largest_difference(g, tc, 1e-12));
    mcp_results_destroy(g);
    mcp_results_destroy(h);
    mcp_results_destroy(u);
    mcp_results_destroy(r);
    mcp_results_destroy(t);
    mcp_results_destroy(tc);
    mcp_portfolio_destroy(p);
  }
  /* the fit's normals drawn by pairs of paths on the lanes (3 and 5
   * assets: 32 / n even) at an odd count of regression paths, the last
   * path's partner lane past them: the CPU's to 1e-12 */
  static const int paired[] = {3, 5};
  for (size_t c = 0; c < sizeof paired / sizeof *paired; c++) {
    mcp_portfolio *p = heston_american(paired[c], 50, 1024, 0);
    assert_int_equal(mcp_portfolio_set_regression_paths(p, 8191), MCP_OK);
    mcp_results *g = price(MCP_BACKEND_CUDA, 128, 0, m, p);
    mcp_results *tc = price(MCP_BACKEND_CPU, 128, 0, m, p);
    print_message("  %d assets, 8,191 regression paths: largest relative difference %.2e\n",
                  paired[c], largest_difference(g, tc, 1e-12));
    mcp_results_destroy(g);
    mcp_results_destroy(tc);
    mcp_portfolio_destroy(p);
  }
  static const int over[][2] = {{3, 184320}, {6, 92160}, {9, 61440}, {16, 40960}};
  for (size_t c = 0; c < sizeof over / sizeof *over; c++) {
    mcp_portfolio *p = heston_american(over[c][0], 252, over[c][1], 0);
    mcp_results *whole = price(MCP_BACKEND_CUDA, 128, (uint64_t)over[c][1], m, p);
    mcp_results *quarter = price(MCP_BACKEND_CUDA, 128, (uint64_t)over[c][1] / 4, m, p);
    assert_identical(whole, quarter);
    mcp_results_destroy(whole);
    mcp_results_destroy(quarter);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* Several Heston assets' early exercise with its spot Greeks on scaled
 * paths: where a tile's record of what the scenarios read fits (1 GiB:
 * backend_cuda.c), the paths step on the lanes, a thread a date and path
 * tests and records, a warp a path walks the record (lsm_kernel.cu);
 * where it does not, windows of dates, each path's state, exercises and
 * scenarios carried from one to the next; past 15 assets, the path a
 * thread evaluates them.  With model vegas and correlations by adjoint too
 * (their sweep from the record's start).  The same bits either way and
 * over tiles, and the CPU's within 1e-12. */
static void gpu_lsm_record_keeps_bits(void **state)
{
  (void)state;
  mcp_market *m = heston_basket_market();
  /* 6 assets, 72 scenarios, 1,000 dates: 32,768 paths' record 5.3 GB
   * (6 windows), 8,192 paths' 1.3 (2); 16,384 antithetic paths' 2.7 (3),
   * 4,096's 0.66 (one); 3 and 16 assets against the CPU, 3 also at 67,584 paths (where a
   * scenario's exercise on an ulp's side of the rule moved a gamma by 4e-5
   * while the Heston step's log and Phi were each side's library's).  With
   * Greeks by adjoint beside,
   * the record leaves their sweep's start (adjoint.h, MCPI_ADJ_START):
   * without the gammas (no record) the lanes step their own forward, the
   * same bits.  The scenario kernel's sizes (a lane's scenarios: 1, 2, 4
   * and 7 of 32): 3 assets' 18 scenarios, 5's 50 (against the CPU, and
   * 16,384 paths' record of 2.2 GB in 3 windows), 6's 72, 10's 200 (16
   * assets past 15: no record).  The sweep's kernels of 4, 5 and 6 (an
   * early exercise's, adjoint_kernel.cu): 3, 5 and 6 assets with adj. */
  static const char *const adj = "delta,gamma,cross-gamma,vega,rho,correlation";
  static const struct {
    int assets, exercises, paths, cpu, buckets, methods;
    const char *list;
  } cases[] = {{6, 1000, 32768, 0, 0, 0, "delta,gamma,cross-gamma"},
               {3, 50, 2048, 1, 0, 0, "delta,gamma,cross-gamma"},
               {3, 50, 67584, 1, 0, 0, "delta,gamma,cross-gamma"},
               {16, 20, 1024, 1, 0, 0, "delta,gamma"},
               {5, 50, 2048, 1, 0, 0, "delta,gamma,cross-gamma"},
               {5, 1000, 16384, 0, 0, 0, "delta,gamma,cross-gamma"},
               {10, 20, 1024, 1, 0, 0, "delta,gamma,cross-gamma"},
               {6, 1000, 16384, 0, 1, MCP_ANTITHETIC, adj},
               {3, 50, 2048, 1, 1, 0, adj},
               {5, 50, 2048, 1, 1, 0, adj}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mcp_portfolio *p =
        heston_american(cases[c].assets, cases[c].exercises, cases[c].paths, cases[c].methods);
    const char *list = cases[c].list;
    int b = cases[c].buckets;
    mcp_results *g = price_request(MCP_BACKEND_CUDA, 128, 0, m, p, list, 0, b);
    mcp_results *h = price_request(MCP_BACKEND_CUDA, 64, (uint64_t)cases[c].paths / 4, m, p,
                                   list, 0, b);
    compare_buckets(g, h, 0);
    if (cases[c].cpu) {
      mcp_results *cpu = price_request(MCP_BACKEND_CPU, 128, 0, m, p, list, 0, b);
      compare_buckets(g, cpu, 1e-12);
      mcp_results_destroy(cpu);
    }
    if (b) {
      mcp_results *own =
          price_request(MCP_BACKEND_CUDA, 128, 0, m, p, "vega,rho,correlation", 0, b);
      compare_by_adjoint(g, own);
      mcp_results_destroy(own);
    }
    mcp_results_destroy(g);
    mcp_results_destroy(h);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

int main(void)
{
  if (mcp_device_count() == 0) {
    printf("SKIP: no CUDA device (%s)\n", mcp_build_info());
    return 77;
  }
  mcp_device_info info;
  if (mcp_device_get_info(0, &info) == MCP_OK)
    printf("# device 0: %s, sm_%d%d, %d SMs\n", info.name, info.compute_major,
           info.compute_minor, info.multiprocessors);
  const struct CMUnitTest tests[] = {
#ifdef MCP_HAVE_CUDA
      cmocka_unit_test(normals_kernel_follows_canonical_mapping),
      cmocka_unit_test(sobol_kernel_matches_host),
#endif
      cmocka_unit_test(gpu_matches_cpu),
      cmocka_unit_test(gpu_invariant_under_block_and_tile),
      cmocka_unit_test(strategies_identical),
      cmocka_unit_test(gpu_black_scholes),
      cmocka_unit_test(gpu_models_match_cpu),
      cmocka_unit_test(gpu_models_invariant),
      cmocka_unit_test(gpu_grid_check_matches_cpu),
      cmocka_unit_test(gpu_grid_check_invariant),
      cmocka_unit_test(gpu_plain_shapes_match_cpu),
      cmocka_unit_test(gpu_lsm_matches_cpu),
      cmocka_unit_test(gpu_floored_greeks),
      cmocka_unit_test(gpu_constant_steps),
      cmocka_unit_test(gpu_pde_matches_cpu),
      cmocka_unit_test(gpu_pde_every_chunk_length),
      cmocka_unit_test(gpu_pde_not_monotone),
      cmocka_unit_test(gpu_analytic_beside_grids_and_paths),
      cmocka_unit_test(gpu_implied_surface),
      cmocka_unit_test(gpu_seasoned),
      cmocka_unit_test(gpu_arrays_match_cpu),
      cmocka_unit_test(gpu_arrays_float_invariant),
      cmocka_unit_test(gpu_arrays_refused),
#ifdef MCP_HAVE_CUDA
      cmocka_unit_test(gpu_register_arrays_stay_in_registers),
#endif
      cmocka_unit_test(gpu_greeks_match_cpu),
      cmocka_unit_test(gpu_greeks_invariant),
      cmocka_unit_test(gpu_shaped_greeks_match_cpu),
      cmocka_unit_test(gpu_buckets_match_cpu),
      cmocka_unit_test(gpu_buckets_keep_prices),
      cmocka_unit_test(gpu_scenarios_equal_separate_runs),
      cmocka_unit_test(gpu_set_equals_separate_runs),
      cmocka_unit_test(gpu_frtb_matches_cpu),
      cmocka_unit_test(gpu_lsm_record_keeps_bits),
      cmocka_unit_test(gpu_lsm_lanes_price_keeps_bits),
      cmocka_unit_test(fused_equals_stored),
      cmocka_unit_test(context_reuse_identical),
      cmocka_unit_test(gpu_wisdom_keeps_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
