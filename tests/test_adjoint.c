/* test_adjoint.c: bucketed sensitivities by adjoint (mcp_greeks_set_buckets)
 * on the CPU backend.
 *   A European under piecewise volatility and rate curves against the
 *   closed form, piece by piece, on one step and on many; every bucket of
 *   Black-Scholes curves and of local-volatility surfaces (of few spots and
 *   of more than the sweep holds a row of) against central
 *   differences of the price with that piece or node alone moved, on the
 *   same paths (the adjoint is the derivative of that estimator, so the two
 *   agree to the difference's own error, far inside a standard error);
 *   the buckets' sums against the forward pathwise Greeks; prices unchanged
 *   bit for bit; the book as the quantity-weighted sum; the trades that
 *   have no adjoint, warned; baskets, best-of and worst-of options on three
 *   correlated assets with curves: each asset's delta and pieces and each
 *   pair's correlation against central differences, and correlations asked
 *   alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "tests/same_results.h"
#include "src/inputs/market.h"
#include "src/plan/adjoint_plan.h"
#include "src/results/results.h"

#define NSE 3.5

static mcp_context *ctx_of(void **state) { return *state; }

static mcp_greeks *request(const char *list, int buckets)
{
  mcp_greeks *g = greeks_request(list, buckets);
  assert_int_equal(mcp_greeks_buckets(g), buckets);
  return g;
}


/* ---- the markets ----------------------------------------------------------- */

/* Black-Scholes "A" with volatility and rate curves, piece `which` of
 * curve `curve` moved by h. */
#define NV 3
#define NR 2
static const double VEND[NV] = {0.25, 0.5, 2}, VOL[NV] = {0.3, 0.2, 0.25};
static const double REND[NR] = {0.4, 2}, RATE[NR] = {0.03, 0.05};
#define NQ 2
static const double QEND[NQ] = {0.6, 2}, QV[NQ] = {0.005, 0.015};
/* the names of A's volatility and rate pieces' buckets */
static const char *const VN[NV] = {"vega@(0,0.25]", "vega@(0.25,0.5]", "vega@(0.5,inf)"};
static const char *const RN[NR] = {"rho@(0,0.4]", "rho@(0.4,inf)"};

static mcp_market *curves_market(double spot, mcp_curve curve, int which, double h)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){spot, 0.04, 0.01, 0.2});
  double v[NV], r[NR], q[NQ];
  memcpy(v, VOL, sizeof v);
  memcpy(r, RATE, sizeof r);
  memcpy(q, QV, sizeof q);
  if (which >= 0)
    (curve == MCP_CURVE_VOLATILITY ? v : curve == MCP_CURVE_RATE ? r : q)[which] += h;
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, NV, VEND, v), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, NR, REND, r), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_DIVIDEND, NQ, QEND, q), MCP_OK);
  return m;
}

/* Local-volatility "L": node `node` of its 3 x 4 surface moved by h, or its
 * rate curve's piece -2 - node. */
#define LT 3
#define LS 4
static const double LTIMES[LT] = {0.1, 0.5, 1.0}, LSPOTS[LS] = {80, 95, 105, 120};
static const double LVALS[LT * LS] = {0.30, 0.24, 0.20, 0.18, 0.28, 0.23, 0.21, 0.19,
                                      0.26, 0.22, 0.21, 0.20};

static mcp_market *lv_market(double spot, int node, double h)
{
  mcp_market *m = new_market();
  double v[LT * LS], r[NR];
  memcpy(v, LVALS, sizeof v);
  memcpy(r, RATE, sizeof r);
  if (node >= 0)
    v[node] += h;
  else if (node <= -2)
    r[-2 - node] += h;
  assert_int_equal(mcp_market_add_local_vol(m, "L", spot, 0.02, 0.01, LT, LTIMES, LS, LSPOTS, v),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "L", MCP_CURVE_RATE, NR, REND, r), MCP_OK);
  return m;
}

/* Steps a year of book_on's trades: 12, or more than the sweep keeps whole
 * (MCPI_ADJ_FULL), which it then recomputes a segment at a time. */
static unsigned book_steps = 12;
/* the book's Heston scheme */
static mcp_heston_scheme book_scheme = MCP_HESTON_QE;
/* with book_barriers, also barriers watched on the bridge: an up-and-out
 * call and a down-and-in put, each with a rebate */
static int book_barriers = 0;

/* A European, an arithmetic Asian put, a geometric floating Asian and a
 * lookback on dates of underlying u (quantities 2, -1, 1, 3), and the
 * barriers. */
static mcp_portfolio *book_on(const char *u, uint64_t paths, int methods)
{
  mcp_portfolio *p = new_portfolio(paths, 31);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, book_steps), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, book_scheme), MCP_OK);
  static const double fix[4] = {0.2, 0.45, 0.7, 0.9};
  add_european(p, "E", u, MCP_CALL, 100, 1, 2);
  add_asian(p, "A", u, MCP_ARITHMETIC, MCP_PUT, 98, 4, fix, 0.9, -1);
  mcp_trade f = trade_on("F", u, MCP_PRODUCT_ASIAN, MCP_CALL, 0, 0.9);
  f.average = MCP_GEOMETRIC;
  f.strike_kind = MCP_FLOATING_STRIKE;
  f.nfixings = 4;
  f.fixings = fix;
  add_trade(p, &f);
  mcp_trade l = trade_on("L", u, MCP_PRODUCT_LOOKBACK, MCP_CALL, 106, 0.7);
  l.nfixings = 3;
  l.fixings = fix;
  l.quantity = 3;
  add_trade(p, &l);
  for (int k = 0; k < 2 * book_barriers; k++) {
    mcp_trade b = trade_on(k ? "DI" : "UO", u, MCP_PRODUCT_BARRIER, k ? MCP_PUT : MCP_CALL, 100,
                           0.9);
    b.barrier_kind = k ? MCP_DOWN_AND_IN : MCP_UP_AND_OUT;
    b.barrier = k ? 85 : 125;
    b.rebate = k ? 1.5 : 0.5;
    b.monitoring = MCP_MONITOR_BRIDGE;
    add_trade(p, &b);
  }
  return p;
}

static const char *const IDS[6] = {"E", "A", "F", "L", "UO", "DI"};

/* Pillars closer than %g's six digits keep labels of their own: each
 * bucket a name, every name found, the buckets' sum the Greek.  A's
 * volatility pillars and B's rate pillars are that close, the others not:
 * a label's digits follow its underlying and Greek (found once for a run
 * of buckets, mcpi_adjoint_label), in whatever order they come. */
static void labels_stay_apart(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.04, 0.01, 0.2});
  add_underlying(m, "B", (bs_params){100, 0.04, 0.01, 0.2});
  static const double close[3] = {0.5, 0.5000001, 2}, apart[2] = {1, 3};
  static const double vol[3] = {0.2, 0.3, 0.25}, rate[3] = {0.03, 0.04, 0.035};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 3, close, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 2, apart, rate), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "B", MCP_CURVE_VOLATILITY, 2, apart, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "B", MCP_CURVE_RATE, 3, close, rate), MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 5);
  add_european(p, "C", "A", MCP_CALL, 100, 2, 1);
  add_european(p, "D", "B", MCP_CALL, 100, 2, 1);
  static const char *const cn[3] = {"@(0,0.5]", "@(0.5,0.5000001]", "@(0.5000001,inf)"},
                           *const an[2] = {"@(0,1]", "@(1,inf)"};
  for (int q = 0; q < 2; q++) { /* vega and rho, then rho alone: C's, then D's */
    mcp_greeks *g = request(q ? "rho" : "vega,rho", 1);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    for (int t = q; t < 4; t += 1 + q) { /* C's vega, C's rho, D's vega, D's rho */
      const char *id = t < 2 ? "C" : "D", *gk = t % 2 ? "rho" : "vega";
      int near = (t == 0 || t == 3), nb = near ? 3 : 2;
      double sum = 0;
      for (int k = 0; k < nb; k++) {
        char name[48];
        snprintf(name, sizeof name, "%s%s", gk, near ? cn[k] : an[k]);
        sum += greek(r, id, name).value.price;
      }
      double want = greek(r, id, gk).value.price;
      assert_true(fabs(sum - want) <= 1e-9 * fabs(want));
    }
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A surface's node labels from a kept memo (each coordinate formatted
 * once) are those formatted in full: two surfaces, one of spots and times
 * closer than six digits, visited in turn, with a curve's buckets between. */
static void surface_labels_kept(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  static const double t[3] = {0, 0.5, 0.5000001}, s1[4] = {80, 90, 90.0000001, 120},
                      s2[2] = {50, 150},
                      v[12] = {0.2, 0.21, 0.22, 0.23, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3};
  assert_int_equal(mcp_market_add_local_vol(m, "P", 100, 0.03, 0, 3, t, 4, s1, v), MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "Q", 100, 0.03, 0, 2, t, 2, s2, v), MCP_OK);
  mcpi_label_digits memo = {0};
  for (int round = 0; round < 3; round++)
    for (size_t a = 0; a < 2; a++) {
      const mcpi_underlying *u = &m->u[a];
      size_t nodes = u->lv.nt * u->lv.ns;
      for (size_t k = 0; k < nodes + 1; k++) {
        mcp_greek gk = k < nodes ? MCP_GREEK_VEGA : MCP_GREEK_RHO;
        long bucket = k < nodes ? (long)(round == 1 ? nodes - k : k + 1) : 1;
        char kept[96], full[96];
        int nk = mcpi_adjoint_label(u, gk, bucket, &memo, kept, sizeof kept);
        int nf = mcpi_adjoint_label(u, gk, bucket, NULL, full, sizeof full);
        assert_int_equal(nk, nf);
        assert_string_equal(kept, full);
      }
    }
  char a[96], b[96]; /* P's close spots and times keep digits of their own */
  mcpi_adjoint_label(&m->u[0], MCP_GREEK_VEGA, 2, &memo, a, sizeof a);
  mcpi_adjoint_label(&m->u[0], MCP_GREEK_VEGA, 11, &memo, b, sizeof b);
  assert_string_equal(a, "t=0,S=90");
  assert_string_equal(b, "t=0.5000001,S=90.0000001");
  mcpi_label_digits_free(&memo);
  mcp_market_destroy(m);
}

/* A list of sensitivities sorts to one order whatever its keys' order: in
 * order but for its last two (an adjoint block's totals after its
 * buckets), a few out of place in the middle, reversed, shuffled; a sorted
 * list stays as it is, and so do lists of one and none. */
static void sensitivities_sort(void **state)
{
  (void)state;
  enum { N = 300 };
  static const mcp_greek gk[4] = {MCP_GREEK_DELTA, MCP_GREEK_VEGA, MCP_GREEK_RHO,
                                  MCP_GREEK_CROSS_GAMMA};
  mcpi_sens keys[N], first[N], s[N];
  for (int i = 0; i < N; i++) /* distinct: (greek, a, b, bucket) */
    keys[i] = (mcpi_sens){.greek = gk[i % 4], .a = i % 3, .b = -1, .bucket = i / 12};
  unsigned x = 12345;
  for (int order = 0; order < 5; order++) {
    for (int i = 0; i < N; i++)
      s[i] = order == 3 ? keys[N - 1 - i] : order == 4 ? first[i] : keys[i];
    if (order == 1 || order == 4) { /* (order 0: the keys' own, shuffled) */
      mcpi_sens t = s[N - 3]; /* the last two, then one more, to the front */
      memmove(s + 1, s, (N - 3) * sizeof *s);
      s[0] = t;
    }
    for (int i = N - 1; order == 0 && i > 0; i--) {
      x = x * 1103515245u + 12345u;
      int k = (int)(x >> 8) % (i + 1);
      mcpi_sens t = s[i];
      s[i] = s[k], s[k] = t;
    }
    if (order == 2)
      for (int i = 40; i < N - 40; i += 37) {
        mcpi_sens t = s[i];
        s[i] = s[i + 29], s[i + 29] = t;
      }
    mcpi_sens_list l = {.s = s, .n = N, .cap = N, .unordered = 1};
    mcpi_sens_sort(&l);
    assert_int_equal(l.unordered, 0);
    for (int i = 0; i < N; i++) {
      if (order == 0)
        first[i] = s[i];
      else if (s[i].greek != first[i].greek || s[i].a != first[i].a ||
               s[i].bucket != first[i].bucket)
        fail_msg("order %d: entry %d differs", order, i);
    }
  }
  mcpi_sens_list l = {.s = s, .n = N, .cap = N, .unordered = 1};
  mcpi_sens_sort(&l);
  assert_memory_equal(s, first, sizeof s);
  for (size_t n = 0; n < 2; n++) {
    mcpi_sens_list few = {.s = n ? s : NULL, .n = n, .cap = n, .unordered = 1};
    mcpi_sens_sort(&few);
    assert_int_equal(few.unordered, 0);
  }
  assert_memory_equal(s, first, sizeof s);
}

/* ---- 1. closed form ------------------------------------------------------- */

/* A call of maturity 1 on A's curves: sigma_eff^2 = sum sigma_k^2 tau_k, so
 * vega_k = vega(sigma_eff) sigma_k tau_k / sigma_eff; rho_k = tau_k K e^{-R}
 * N(d2), R = sum r_k tau_k.  One step (the pieces' ends inside it: the
 * Jacobian's overlaps) and twelve. */
static void european_against_closed_form(void **state)
{
  for (int steps = 0; steps < 2; steps++) {
    mcp_market *m = curves_market(100, 0, -1, 0);
    mcp_portfolio *p = new_portfolio(200000, 5);
    assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, steps ? 12 : 0), MCP_OK);
    add_european(p, "C", "A", MCP_CALL, 105, 1, 1);
    mcp_greeks *g = request("delta,vega,rho,dividend", 1);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    double tv[NV] = {0.25, 0.25, 0.5}, tr[NR] = {0.4, 0.6}, tq[NQ] = {0.6, 0.4}, var = 0, R = 0,
           Q = 0;
    for (int k = 0; k < NV; k++)
      var += VOL[k] * VOL[k] * tv[k];
    for (int k = 0; k < NR; k++)
      R += RATE[k] * tr[k];
    for (int k = 0; k < NQ; k++)
      Q += QV[k] * tq[k];
    double se = sqrt(var), d1 = (log(100 / 105.0) + R - Q) / se + se / 2, d2 = d1 - se;
    double vega = 100 * exp(-Q) * exp(-d1 * d1 / 2) / sqrt(2 * 3.14159265358979323846);
        for (int k = 0; k < NV; k++) {
      mcp_sensitivity s = greek(r, "C", VN[k]);
      assert_int_equal(s.method, MCP_METHOD_ADJOINT);
      assert_non_null(s.bucket);
      assert_string_equal(s.bucket, VN[k] + 5);
      assert_within(VN[k], s.value, vega * VOL[k] * tv[k] / se, NSE);
    }
    for (int k = 0; k < NR; k++)
      assert_within(RN[k], greek(r, "C", RN[k]).value, tr[k] * 105 * exp(-R) * cf_norm_cdf(d2),
                    NSE);
    static const char *const qn[NQ] = {"dividend@(0,0.6]", "dividend@(0.6,inf)"};
    for (int k = 0; k < NQ; k++) /* d/dq_k = -tau_k S e^-Q N(d1) */
      assert_within(qn[k], greek(r, "C", qn[k]).value, -tq[k] * 100 * exp(-Q) * cf_norm_cdf(d1),
                    NSE);
    assert_within("dividend", greek(r, "C", "dividend").value, -100 * exp(-Q) * cf_norm_cdf(d1),
                  NSE);
    assert_within("delta", greek(r, "C", "delta").value, exp(-Q) * cf_norm_cdf(d1), NSE);
    double sum = 0;
    for (int k = 0; k < NV; k++)
      sum += VOL[k] * tv[k];
    assert_within("vega", greek(r, "C", "vega").value, vega * sum / se, NSE);
    assert_null(greek(r, "C", "delta").bucket);
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* ---- 2. against central differences on the same paths -------------------- */

/* |adjoint - (up - down) / 2h| within 1e-5 of the difference plus a
 * thousandth of a standard error: the difference's own error, from paths
 * that a payoff's kink or a surface node's separates between the two
 * (rare at h this small), and its rounding. */
static void assert_bumped(const char *what, const char *id, mcp_sensitivity s, double up,
                          double dn, double h)
{
  double fd = (up - dn) / (2 * h), tol = 1e-5 * fabs(fd) + 1e-3 * s.value.std_error;
  if (!(fabs(s.value.price - fd) <= tol))
    fail_msg("%s %s %s: adjoint %.10g, central difference %.10g (tolerance %.2e)", what, id,
             s.name, s.value.price, fd, tol);
}

typedef mcp_market *(*market_fn)(double spot, int which, double h);

static mcp_market *vol_piece(double spot, int k, double h)
{
  return curves_market(spot, MCP_CURVE_VOLATILITY, k, h);
}
static mcp_market *rate_piece(double spot, int k, double h)
{
  return curves_market(spot, MCP_CURVE_RATE, k, h);
}
static mcp_market *dividend_piece(double spot, int k, double h)
{
  return curves_market(spot, MCP_CURVE_DIVIDEND, k, h);
}
static mcp_market *lv_rate_piece(double spot, int k, double h) { return lv_market(spot, -2 - k, h); }
static mcp_market *lv_node(double spot, int k, double h) { return lv_market(spot, k, h); }

/* Each bucket (names[k] of n, moved by mk) and the delta of underlying u,
 * for each trade of the book, on the same paths; base: the market unmoved
 * at a spot, or NULL where mk's k = -1 is it. */
static void against_bumps(mcp_context *ctx, const char *u, market_fn base, market_fn mk, int n,
                          const char *const *names, int methods)
{
  const double h = 1e-7;
  base = base ? base : mk;
  mcp_market *m = base(100, -1, 0);
  mcp_portfolio *p = book_on(u, 4000, methods);
  mcp_greeks *g = request("delta,vega,rho,dividend", 1);
  mcp_results *r = price_greeks(ctx, m, p, g);
  for (int k = -1; k < n; k++) { /* -1: the spot */
    mcp_market *mu = k < 0 ? base(100 * (1 + h), -1, 0) : mk(100, k, h);
    mcp_market *md = k < 0 ? base(100 * (1 - h), -1, 0) : mk(100, k, -h);
    mcp_results *ru = price(ctx, mu, p), *rd = price(ctx, md, p);
    for (int t = 0; t < 4 + 2 * book_barriers; t++)
      assert_bumped(u, IDS[t], greek(r, IDS[t], k < 0 ? "delta" : names[k]),
                    estimate(ru, IDS[t]).price, estimate(rd, IDS[t]).price, k < 0 ? 100 * h : h);
    mcp_results_destroy(ru);
    mcp_results_destroy(rd);
    mcp_market_destroy(mu);
    mcp_market_destroy(md);
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static mcp_market *curves_base(double spot, int k, double h)
{
  (void)k, (void)h;
  return curves_market(spot, 0, -1, 0);
}
static mcp_market *lv_base(double spot, int k, double h)
{
  (void)k, (void)h;
  return lv_market(spot, -1, 0);
}

static void black_scholes_against_bumps(void **state)
{
  static const char *const qn[NQ] = {"dividend@(0,0.6]", "dividend@(0.6,inf)"};
  for (int anti = 0; anti < 2; anti++) {
    int methods = anti ? MCP_ANTITHETIC : 0;
    against_bumps(ctx_of(state), "A", curves_base, vol_piece, NV, VN, methods);
    against_bumps(ctx_of(state), "A", curves_base, rate_piece, NR, RN, methods);
    against_bumps(ctx_of(state), "A", curves_base, dividend_piece, NQ, qn, methods);
  }
}

/* The names of L's nodes' vegas, in np. */
static void node_names(char names[LT * LS][48], const char **np)
{
  for (int i = 0; i < LT; i++)
    for (int k = 0; k < LS; k++) {
      snprintf(names[i * LS + k], 48, "vega@t=%g,S=%g", LTIMES[i], LSPOTS[k]);
      np[i * LS + k] = names[i * LS + k];
    }
}

static void local_vol_against_bumps(void **state)
{
  char names[LT * LS][48];
  const char *np[LT * LS];
  node_names(names, np);
  against_bumps(ctx_of(state), "L", lv_base, lv_node, LT * LS, np, MCP_ANTITHETIC);
  against_bumps(ctx_of(state), "L", lv_base, lv_rate_piece, NR, RN, 0);
}

/* "A" paying cash dividends, set cash_set of CASH: one between the book's
 * fixings, one on its fixing at 0.45 (the fixing sees the spot after it),
 * one after the last date (no column); or amounts that wipe paths out; or
 * one after the barriers' maturity.  Dividend k's amount moved by h, or
 * with k < -1 the piece -2 - k of the volatility curve. */
#define NC 3
static const struct {
  int n;
  double t[NC], a[NC];
} CASH[3] = {{3, {0.3, 0.45, 1.5}, {2.5, 1.5, 3}}, {2, {0.3, 0.8}, {60, 40}}, {1, {0.95}, {2}}};
static int cash_set = 0;
static mcp_market *cash_market(double spot, int k, double h)
{
  mcp_market *m = k < -1 ? vol_piece(spot, -2 - k, h) : curves_market(spot, 0, -1, 0);
  double a[NC];
  memcpy(a, CASH[cash_set].a, sizeof a);
  if (k >= 0)
    a[k] += h;
  assert_int_equal(mcp_market_set_cash_dividends(m, "A", CASH[cash_set].n, CASH[cash_set].t, a),
                   MCP_OK);
  return m;
}
static mcp_market *cash_base(double spot, int k, double h)
{
  (void)k, (void)h;
  return cash_market(spot, -1, 0);
}
static mcp_market *cash_vol_piece(double spot, int k, double h)
{
  return cash_market(spot, -2 - k, h);
}

/* Cash dividends: the sweep carries the payoff's derivative through each
 * drop, and each amount paid by the last date has its bucket (d price /
 * d amount); on paths kept whole and cut in segments. */
static void cash_dividends_against_bumps(void **state)
{
  static const char *const cn[NC - 1] = {"dividend@t=0.3", "dividend@t=0.45"};
  against_bumps(ctx_of(state), "A", cash_base, cash_market, NC - 1, cn, MCP_ANTITHETIC);
  against_bumps(ctx_of(state), "A", cash_base, cash_vol_piece, NV, VN, 0);
  book_steps = 700;
  against_bumps(ctx_of(state), "A", cash_base, cash_market, NC - 1, cn, 0);
  book_steps = 12;
  /* amounts that take many paths to 0 (and those paths' sensitivities) */
  cash_set = 1;
  against_bumps(ctx_of(state), "A", cash_base, cash_market, 1, cn, MCP_ANTITHETIC);
  against_bumps(ctx_of(state), "A", cash_base, cash_vol_piece, NV, VN, 0);
  /* a dividend after the trade's maturity has none (L ends at 0.7), nor
   * one after the job's last date */
  mcp_market *m = cash_base(100, -1, 0);
  mcp_portfolio *p = book_on("A", 2000, 0);
  mcp_greeks *g = request("delta,dividend", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  mcp_sensitivity s;
  assert_int_equal(mcp_results_greek(r, "L", "dividend@t=0.8", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(greek(r, "E", "dividend@t=0.8").method, MCP_METHOD_ADJOINT);
  assert_true(greek(r, "E", "dividend@t=0.8").value.price < 0);
  cash_set = 0;
  mcp_results_destroy(r);
  mcp_market_destroy(m);
  m = cash_base(100, -1, 0);
  r = price_greeks(ctx_of(state), m, p, g);
  assert_int_equal(mcp_results_greek(r, "E", "dividend@t=1.5", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(greek(r, "E", "dividend@t=0.3").method, MCP_METHOD_ADJOINT);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Barriers watched on the bridge: each step's factor of the probability of
 * no crossing differentiated in its ends and its variance (Black-Scholes:
 * the volatility pieces'; local volatility: its slice's, so its nodes'). */
static void bridge_barriers_against_bumps(void **state)
{
  char names[LT * LS][48];
  const char *np[LT * LS];
  node_names(names, np);
  book_barriers = 1;
  against_bumps(ctx_of(state), "A", curves_base, vol_piece, NV, VN, MCP_ANTITHETIC);
  against_bumps(ctx_of(state), "A", curves_base, rate_piece, NR, RN, 0);
  against_bumps(ctx_of(state), "L", lv_base, lv_node, LT * LS, np, 0);
  against_bumps(ctx_of(state), "L", lv_base, lv_rate_piece, NR, RN, MCP_ANTITHETIC);
  book_steps = 700;
  against_bumps(ctx_of(state), "L", lv_base, lv_node, LT * LS, np, 0);
  against_bumps(ctx_of(state), "A", curves_base, vol_piece, NV, VN, 0);
  book_steps = 12;
  /* a cash dividend after the barriers' maturity (0.9), before E's: the
   * sweep takes its drop, the barriers their bridges */
  cash_set = 2;
  against_bumps(ctx_of(state), "A", cash_base, cash_vol_piece, NV, VN, MCP_ANTITHETIC);
  cash_set = 0;
  /* a cash dividend by their maturity: revalued, and warned */
  mcp_market *m = cash_base(100, -1, 0);
  mcp_portfolio *p = book_on("A", 2000, 0);
  mcp_greeks *g = request("delta,vega", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  assert_int_equal(greek(r, "UO", "vega").method, MCP_METHOD_BUMP);
  assert_int_equal(greek(r, "E", "vega").method, MCP_METHOD_ADJOINT);
  assert_int_equal(mcp_results_warnings(r, 4), (unsigned)MCP_WARNING_BUCKETS);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  book_barriers = 0;
}

/* A surface of more spots than the sweep holds rows of
 * (MCPI_ADJ_ROW_NODES): its nodes add to their columns one by one. */
#define WS 40
static mcp_market *wide_market(double spot, int node, double h)
{
  const double t[2] = {0.3, 1};
  double sp[WS], v[2 * WS];
  for (int k = 0; k < WS; k++) {
    sp[k] = 60.5 + 2.5 * k; /* no node at the spot: the surface kinks there */
    v[k] = 0.3 - 0.002 * k;
    v[WS + k] = 0.25 - 0.001 * k;
  }
  if (node >= 0)
    v[node] += h;
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_local_vol(m, "L", spot, 0.02, 0.01, 2, t, WS, sp, v), MCP_OK);
  return m;
}

static mcp_market *wide_base(double spot, int k, double h)
{
  (void)k, (void)h;
  return wide_market(spot, -1, 0);
}

/* nodes 12 .. 19 of each row: spots 90.5 to 108, where the paths are */
static mcp_market *wide_node(double spot, int k, double h)
{
  return wide_market(spot, (k / 8) * WS + 12 + k % 8, h);
}

static void wide_surface_against_bumps(void **state)
{
  char names[16][48];
  const char *np[16];
  for (int k = 0; k < 16; k++) {
    snprintf(names[k], sizeof names[0], "vega@t=%g,S=%g", k < 8 ? 0.3 : 1.0,
             60.5 + 2.5 * (12 + k % 8));
    np[k] = names[k];
  }
  against_bumps(ctx_of(state), "L", wide_base, wide_node, 16, np, 0);
}

/* Paths of about 700 elements, beyond what the sweep keeps whole: the same
 * buckets a segment at a time. */
static void long_paths_against_bumps(void **state)
{
  book_steps = 700;
  against_bumps(ctx_of(state), "A", curves_base, vol_piece, NV, VN, MCP_ANTITHETIC);
  against_bumps(ctx_of(state), "L", lv_base, lv_rate_piece, NR, RN, 0);
  book_steps = 12;
}

/* Heston "H" with rate and dividend curves: parameter `which` (v0, kappa,
 * theta, xi, rho) moved by h, or piece -2 - which of its rate curve, or
 * -2 - NR - which of its dividend yield's; heston_swing: 1, a variance of
 * larger swings (xi 1.2 and v0 0.02: most steps of QE's exponential branch,
 * psi > 1.5), 2 of small ones (xi 0.2: psi far below 1.5, v far from 0). */
static int heston_swing = 0;
static mcp_market *heston_market(double spot, int which, double h)
{
  static const double xi[3] = {0.6, 1.2, 0.2};
  double x[5] = {heston_swing == 1 ? 0.02 : 0.04, 1.5, 0.06, xi[heston_swing], -0.7};
  double r[NR], q[NQ];
  memcpy(r, RATE, sizeof r);
  memcpy(q, QV, sizeof q);
  if (which >= 0)
    x[which] += h;
  else if (which < -1)
    (-2 - which < NR ? r : q)[(-2 - which) % NR] += h;
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", spot, 0.04, 0.01, x[0], x[1], x[2], x[3], x[4]),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "H", MCP_CURVE_RATE, NR, REND, r), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "H", MCP_CURVE_DIVIDEND, NQ, QEND, q), MCP_OK);
  return m;
}
static mcp_market *heston_curve(double spot, int k, double h)
{
  return heston_market(spot, -2 - k, h);
}

/* Heston's parameters, rate and dividend pieces and delta by adjoint
 * against central differences on the same paths: both schemes, QE's
 * branches (psi about 1.5 and beyond), antithetic, and paths cut in
 * segments (700 steps a year, small swings).  Not Euler where the variance
 * reaches 0: its root at v+ near 0 has derivatives without bound (v0's
 * vega 0.79 +- 47.7 under large swings, where a difference of 1e-7 and the
 * adjoint part at 1e-3 of that error; 41.11 against 41.64 at 700 steps).
 * Nor QE at 700 steps unless the swings are small: on that many, a path
 * crosses psi = 1.5 between the bumped markets, where QE's v' jumps, which
 * the difference sees and no derivative does (theta's vega 16.39 against
 * 16.13 on a put in the money on such a path); its size in the mean is the
 * closed form's test below. */
static const char *const HPN[5] = {"vega@v0", "vega@kappa", "vega@theta", "vega@xi", "vega@rho"};
static const char *const HCN[NR + NQ] = {"rho@(0,0.4]", "rho@(0.4,inf)", "dividend@(0,0.6]",
                                         "dividend@(0.6,inf)"};

static void heston_against_bumps(void **state)
{
  for (int wild = 0; wild < 2; wild++)
    for (int scheme = 0; scheme < 2 - wild; scheme++) {
      heston_swing = wild;
      book_scheme = scheme ? MCP_HESTON_EULER : MCP_HESTON_QE;
      against_bumps(ctx_of(state), "H", NULL, heston_market, 5, HPN,
                    scheme ? 0 : MCP_ANTITHETIC);
    }
  book_scheme = MCP_HESTON_QE;
  heston_swing = 0;
  against_bumps(ctx_of(state), "H", NULL, heston_curve, NR + NQ, HCN, 0);
  book_steps = 700;
  heston_swing = 2;
  for (int scheme = 0; scheme < 2; scheme++) {
    book_scheme = scheme ? MCP_HESTON_EULER : MCP_HESTON_QE;
    against_bumps(ctx_of(state), "H", NULL, heston_market, 5, HPN, MCP_ANTITHETIC);
  }
  book_scheme = MCP_HESTON_QE;
  heston_swing = 0;
  book_steps = 12;
}

/* A Heston asset's barriers watched on the bridge: each step's factor
 * differentiated in its ends and in its variance, (v + v') dt / 2 under QE
 * and v+ dt under Euler, so through the step's variances in the parameters;
 * both schemes, the curves, and paths cut in segments. */
static void heston_bridge_barriers_against_bumps(void **state)
{
  book_barriers = 1;
  for (int scheme = 0; scheme < 2; scheme++) {
    book_scheme = scheme ? MCP_HESTON_EULER : MCP_HESTON_QE;
    against_bumps(ctx_of(state), "H", NULL, heston_market, 5, HPN, scheme ? 0 : MCP_ANTITHETIC);
  }
  book_scheme = MCP_HESTON_QE;
  against_bumps(ctx_of(state), "H", NULL, heston_curve, NR + NQ, HCN, MCP_ANTITHETIC);
  book_steps = 700;
  heston_swing = 2;
  against_bumps(ctx_of(state), "H", NULL, heston_market, 5, HPN, 0);
  heston_swing = 0;
  book_steps = 12;
  /* by adjoint, not by the revaluations of every other Heston trade */
  mcp_market *m = heston_market(100, -1, 0);
  mcp_portfolio *p = book_on("H", 2000, 0);
  mcp_greeks *g = request("delta,vega,rho", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  for (int t = 4; t < 6; t++)
    for (int k = 0; k < 3; k++)
      assert_int_equal(greek(r, IDS[t], k == 0 ? "delta" : k == 1 ? "vega@xi" : "rho").method,
                       MCP_METHOD_ADJOINT);
  book_barriers = 0;
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A European's Heston vegas by adjoint (QE, weekly steps) against the exact
 * gradient of its closed form, within their standard errors: what the
 * scheme's branches' borders leave out is within them. */
static void heston_against_closed_form(void **state)
{
  mcp_market *m = heston_market(100, -1, 0);
  mcp_portfolio *p = new_portfolio(40000, 5);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  for (int k = 0; k < 2; k++) {
    mcp_trade t = trade_on(k ? "CF" : "MC", "H", MCP_PRODUCT_EUROPEAN, MCP_CALL, 105, 1);
    t.engine = k ? MCP_ENGINE_ANALYTIC : MCP_ENGINE_MC;
    add_trade(p, &t);
  }
  mcp_greeks *g = request("delta,vega,rho", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  assert_within("price", estimate(r, "MC"), estimate(r, "CF").price, NSE);
  for (int k = 0; k < 5; k++) {
    mcp_sensitivity s = greek(r, "MC", HPN[k]);
    assert_int_equal(s.method, MCP_METHOD_ADJOINT);
    assert_within(HPN[k], s.value, greek(r, "CF", HPN[k]).value.price, NSE);
  }
  assert_within("vega", greek(r, "MC", "vega").value, greek(r, "CF", "vega").value.price, NSE);
  assert_within("delta", greek(r, "MC", "delta").value, greek(r, "CF", "delta").value.price,
                NSE);
  mcp_results_destroy(r);
  /* rho at -1: no vega@rho (sqrt(1 - rho^2) has no derivative there), the
   * others finite, both schemes */
  mcp_market *e = new_market();
  assert_int_equal(mcp_market_add_heston(e, "H", 100, 0.04, 0.01, 0.04, 1.5, 0.06, 0.6, -1),
                   MCP_OK);
  for (int scheme = 0; scheme < 2; scheme++) {
    assert_int_equal(
        mcp_portfolio_set_heston_scheme(p, scheme ? MCP_HESTON_EULER : MCP_HESTON_QE), MCP_OK);
    r = price_greeks(ctx_of(state), e, p, g);
    mcp_sensitivity x;
    assert_int_equal(mcp_results_greek(r, "MC", "vega@rho", &x), MCP_ERR_NOT_FOUND);
    for (int k = 0; k < 4; k++) {
      mcp_sensitivity s = greek(r, "MC", HPN[k]);
      assert_true(isfinite(s.value.price) && isfinite(s.value.std_error));
    }
    mcp_results_destroy(r);
  }
  mcp_market_destroy(e);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 3. sums, prices and the book ------------------------------------------ */

/* On a flat Black-Scholes market the forward pathwise Greeks exist: the
 * adjoint's delta and its buckets' sums are the same derivatives of the same
 * estimator, to rounding; the prices are the same bits, with control
 * variates too (whose pilot runs the plain paths); the book's bucket is the
 * quantity-weighted sum of the trades'. */
static void sums_prices_and_book(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.04, 0.01, 0.2});
  mcp_portfolio *pc = book_on("A", 20000, MCP_ANTITHETIC | MCP_CONTROL_VARIATE);
  mcp_greeks *gc = request("delta,vega,rho", 1);
  mcp_results *rc = price_greeks(ctx_of(state), m, pc, gc), *rc0 = price(ctx_of(state), m, pc);
  mcp_estimate c[8], c0[8];
  size_t nc = snapshot(rc, c, 8);
  snapshot(rc0, c0, 8);
  assert_same_bits("prices with control variates", c, c0, nc);
  mcp_results_destroy(rc);
  mcp_results_destroy(rc0);
  mcp_greeks_destroy(gc);
  mcp_portfolio_destroy(pc);
  mcp_portfolio *p = book_on("A", 20000, MCP_ANTITHETIC);
  mcp_greeks *ga = request("delta,vega,rho", 1), *gp = request("delta,vega,rho", 0);
  mcp_results *ra = price_greeks(ctx_of(state), m, p, ga);
  mcp_results *rp = price_greeks(ctx_of(state), m, p, gp);
  mcp_results *r0 = price(ctx_of(state), m, p);
  mcp_estimate a[8], b[8];
  size_t n = snapshot(ra, a, 8);
  snapshot(r0, b, 8);
  assert_same_bits("prices", a, b, n);
  static const char *const sums[3] = {"delta", "vega", "rho"};
  for (int t = 0; t < 4; t++)
    for (int k = 0; k < 3; k++) {
      mcp_sensitivity x = greek(ra, IDS[t], sums[k]), y = greek(rp, IDS[t], sums[k]);
      assert_int_equal(x.method, MCP_METHOD_ADJOINT);
      assert_int_equal(y.method, MCP_METHOD_PATHWISE);
      if (!(fabs(x.value.price - y.value.price) <= 1e-11 * fabs(y.value.price) + 1e-13))
        fail_msg("%s %s: adjoint %.17g, pathwise %.17g", IDS[t], sums[k], x.value.price,
                 y.value.price);
    }
  /* one piece: the bucket is the whole curve */
  mcp_sensitivity v = greek(ra, NULL, "vega:A@(0,inf)"), vt = greek(ra, NULL, "vega:A");
  static const double q[4] = {2, -1, 1, 3};
  double sum = 0;
  for (int t = 0; t < 4; t++)
    sum += q[t] * greek(ra, IDS[t], "vega@(0,inf)").value.price;
  assert_true(fabs(v.value.price - sum) <= 1e-12 * fabs(sum));
  assert_true(fabs(vt.value.price - sum) <= 1e-12 * fabs(sum));
  assert_string_equal(v.bucket, "(0,inf)");
  mcp_results_destroy(ra);
  mcp_results_destroy(rp);
  mcp_results_destroy(r0);
  mcp_greeks_destroy(ga);
  mcp_greeks_destroy(gp);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 4. what has no adjoint -------------------------------------------------- */

/* ---- 3. several assets ------------------------------------------------------ */

/* Black-Scholes "P", "Q", "R" on volatility and rate curves, correlated;
 * what = 0: nothing moved; 1 + a: asset a's spot times 1 + h; 10 (1 + a) +
 * k: piece k of a's volatility curve moved by h; 100 (1 + a) + k: of its
 * rate curve; 1000 + 10 p + q: the correlation of p and q; 2000 + 10 a +
 * k: piece k of a's dividend yield curve. */
#define NA 3
static const char *const ANAMES[NA] = {"P", "Q", "R"};
static const double ASPOT[NA] = {100, 90, 110}, ASCALE[NA] = {1, 1.2, 0.8};
static const double ACORR[NA * NA] = {1, 0.3, 0.5, 0.3, 1, -0.2, 0.5, -0.2, 1};

static mcp_market *assets_market(int what, double h)
{
  mcp_market *m = new_market();
  double c[NA * NA];
  memcpy(c, ACORR, sizeof c);
  for (int a = 0; a < NA; a++) {
    double v[NV], r[NR], q[NQ];
    for (int k = 0; k < NV; k++)
      v[k] = VOL[k] * ASCALE[a] + (what == 10 * (1 + a) + k ? h : 0);
    for (int k = 0; k < NR; k++)
      r[k] = RATE[k] * ASCALE[a] + (what == 100 * (1 + a) + k ? h : 0);
    for (int k = 0; k < NQ; k++)
      q[k] = QV[k] * ASCALE[a] + (what == 2000 + 10 * a + k ? h : 0);
    add_underlying(m, ANAMES[a], (bs_params){ASPOT[a] * (what == 1 + a ? 1 + h : 1), 0.04,
                                             0.01 * a, 0.2});
    assert_int_equal(mcp_market_set_curve(m, ANAMES[a], MCP_CURVE_VOLATILITY, NV, VEND, v),
                     MCP_OK);
    assert_int_equal(mcp_market_set_curve(m, ANAMES[a], MCP_CURVE_RATE, NR, REND, r), MCP_OK);
    assert_int_equal(mcp_market_set_curve(m, ANAMES[a], MCP_CURVE_DIVIDEND, NQ, QEND, q), MCP_OK);
  }
  if (what >= 1000 && what < 2000) {
    int p = (what - 1000) / 10, q = (what - 1000) % 10;
    c[p * NA + q] += h;
    c[q * NA + p] += h;
  }
  assert_int_equal(mcp_market_set_correlation(m, NA, ANAMES, c), MCP_OK);
  return m;
}

/* Two baskets on the three (one job), a best-of call on P and R, a
 * worst-of put on P and Q. */
#define NMULTI 4
static const char *const MIDS[NMULTI] = {"BC", "BP", "BO", "WO"};
static const unsigned MASSETS[NMULTI] = {7, 7, 5, 3};

static mcp_portfolio *multi_book_of(int methods, const char *const *names)
{
  mcp_portfolio *p = new_portfolio(4000, 17);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, book_scheme), MCP_OK);
  const char *const pr[2] = {names[0], names[2]}, *const pq[2] = {names[0], names[1]};
  static const double w1[NA] = {0.5, 1, 0.3}, w2[NA] = {0.2, 0.4, 0.4};
  mcp_trade t = trade_on("BC", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 160, 1);
  t.nassets = NA, t.assets = names, t.weights = w1, t.quantity = 2;
  add_trade(p, &t);
  t = trade_on("BP", NULL, MCP_PRODUCT_BASKET, MCP_PUT, 100, 1);
  t.nassets = NA, t.assets = names, t.weights = w2, t.quantity = -1;
  add_trade(p, &t);
  t = trade_on("BO", NULL, MCP_PRODUCT_BEST_OF, MCP_CALL, 115, 0.9);
  t.nassets = 2, t.assets = pr;
  add_trade(p, &t);
  t = trade_on("WO", NULL, MCP_PRODUCT_WORST_OF, MCP_PUT, 95, 1);
  t.nassets = 2, t.assets = pq;
  add_trade(p, &t);
  return p;
}

static mcp_portfolio *multi_book(int methods) { return multi_book_of(methods, ANAMES); }

/* Early exercise on the three (one job a trade): an American basket put
 * (12 dates), a Bermudan worst-of put on the first two (4 dates), an
 * American best-of call on the first and third (9 dates); their rules
 * fitted on 4,000 paths of their own. */
#define NAMER 3
static const char *const XIDS[NAMER] = {"AB", "BW", "AO"};
static const unsigned XASSETS[NAMER] = {7, 3, 5};

static mcp_portfolio *american_book_of(int methods, const char *const *names)
{
  mcp_portfolio *p = new_portfolio(4000, 17);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, book_scheme), MCP_OK);
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 4000), MCP_OK);
  const char *const pr[2] = {names[0], names[2]}, *const pq[2] = {names[0], names[1]};
  static const double w[NA] = {0.3, 0.5, 0.4}, fx[4] = {0.25, 0.5, 0.75, 1};
  mcp_trade t = trade_on("AB", NULL, MCP_PRODUCT_AMERICAN, MCP_PUT, 125, 1);
  t.nassets = NA, t.assets = names, t.weights = w, t.payoff = MCP_PRODUCT_BASKET;
  t.exercises = 12;
  add_trade(p, &t);
  t = trade_on("BW", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1);
  t.nassets = 2, t.assets = pq, t.payoff = MCP_PRODUCT_WORST_OF, t.quantity = -2;
  t.nfixings = 4, t.fixings = fx;
  add_trade(p, &t);
  t = trade_on("AO", NULL, MCP_PRODUCT_AMERICAN, MCP_CALL, 112, 0.75);
  t.nassets = 2, t.assets = pr, t.payoff = MCP_PRODUCT_BEST_OF, t.exercises = 9;
  add_trade(p, &t);
  return p;
}

/* A book of trades on the three assets and what each reads. */
typedef struct {
  mcp_portfolio *(*make)(int methods, const char *const *names);
  int n;
  const char *const *ids;
  const unsigned *assets;
  const double *quantity;
} assets_book;
static const double MQ[NMULTI] = {2, -1, 1, 1}, XQ[NAMER] = {1, -2, 1};
static const assets_book BASKETS = {multi_book_of, NMULTI, MIDS, MASSETS, MQ};
static const assets_book AMERICANS = {american_book_of, NAMER, XIDS, XASSETS, XQ};

typedef mcp_market *(*assets_fn)(int what, double h);

/* multi_book_of(methods, names)'s deltas, the nv volatility buckets (vl:
 * their labels) and the rate and dividend pieces of each asset and each
 * pair's correlation, of each trade that reads them, against central
 * differences of market(what, +-h) on the same paths; the book's
 * correlations and dividends the trades' sums. */
static void multi_against_bumps(void **state, assets_fn market, const assets_book *bk,
                                const char *const *names, int nv, const char *const *vl,
                                int methods, const char *what_of)
{
  const double h = 1e-7;
  static const char *const rl[NR] = {"(0,0.4]", "(0.4,inf)"};
  static const char *const ql[NQ] = {"(0,0.6]", "(0.6,inf)"};
  mcp_market *m = market(0, 0);
  mcp_greeks *g = request("delta,vega,rho,correlation,dividend", 1);
  mcp_portfolio *p = bk->make(methods, names);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  int what[64], n = 0;
  for (int a = 0; a < NA; a++) {
    what[n++] = 1 + a;
    for (int k = 0; k < nv; k++)
      what[n++] = 10 * (1 + a) + k;
    for (int k = 0; k < NR; k++)
      what[n++] = 100 * (1 + a) + k;
    for (int k = 0; k < NQ; k++)
      what[n++] = 2000 + 10 * a + k;
  }
  what[n++] = 1001, what[n++] = 1002, what[n++] = 1012;
  for (int i = 0; i < n; i++) {
    int w = what[i], a = w >= 2000  ? (w - 2000) / 10
                         : w >= 1000 ? -1
                         : w >= 100  ? w / 100 - 1
                         : w >= 10   ? w / 10 - 1
                                     : w - 1;
    int pa = (w - 1000) / 10, qa = (w - 1000) % 10, corr = w >= 1000 && w < 2000;
    char name[64];
    if (w >= 2000)
      snprintf(name, sizeof name, "dividend:%s@%s", names[a], ql[w % 10]);
    else if (corr)
      snprintf(name, sizeof name, "correlation:%s:%s", names[pa], names[qa]);
    else if (w >= 100)
      snprintf(name, sizeof name, "rho:%s@%s", names[a], rl[w % 100]);
    else if (w >= 10)
      snprintf(name, sizeof name, "vega:%s@%s", names[a], vl[w % 10]);
    else
      snprintf(name, sizeof name, "delta:%s", names[a]);
    mcp_market *mu = market(w, h), *md = market(w, -h);
    mcp_results *ru = price(ctx_of(state), mu, p), *rd = price(ctx_of(state), md, p);
    double book = 0, size = w < 10 ? ASPOT[a] * h : h;
    for (int t = 0; t < bk->n; t++) {
      const char *id = bk->ids[t];
      unsigned need = corr ? 1u << pa | 1u << qa : 1u << a;
      mcp_sensitivity s;
      if ((bk->assets[t] & need) != need) { /* an asset it does not read: none */
        assert_int_equal(mcp_results_greek(r, id, name, &s), MCP_ERR_NOT_FOUND);
        continue;
      }
      s = greek(r, id, name);
      assert_int_equal(s.method, MCP_METHOD_ADJOINT);
      assert_bumped(what_of, id, s, estimate(ru, id).price, estimate(rd, id).price, size);
      book += s.value.price * bk->quantity[t];
    }
    if (corr || w >= 2000)
      assert_true(fabs(greek(r, NULL, name).value.price - book) <= 1e-12 * fabs(book));
    mcp_results_destroy(ru);
    mcp_results_destroy(rd);
    mcp_market_destroy(mu);
    mcp_market_destroy(md);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
}

/* Each asset's delta, volatility and rate pieces and each pair's
 * correlation of each trade that reads them, against central differences
 * on the same paths; the book's correlation the trades' sum. */
static void baskets_against_bumps(void **state)
{
  static const char *const vl[NV] = {"(0,0.25]", "(0.25,0.5]", "(0.5,inf)"};
  for (int anti = 0; anti < 2; anti++) {
    multi_against_bumps(state, assets_market, &BASKETS, ANAMES, NV, vl,
                        anti ? MCP_ANTITHETIC : 0, "basket");
    /* American and Bermudan options: heston_americans_against_bumps's */
    multi_against_bumps(state, assets_market, &AMERICANS, ANAMES, NV, vl,
                        anti ? MCP_ANTITHETIC : 0, "American");
  }
}

/* Heston "U", "V", "W" on rate and dividend curves, their spots and
 * variances correlated (6 Brownian motions); what as assets_market's, but
 * 10 (1 + a) + k: a's Heston parameter k (v0, kappa, theta, xi, rho: rho
 * also the matrix's entry of a's spot and variance); small swings (xi 0.2
 * to 0.3: QE's psi far below 1.5, the variance far from 0, where the
 * adjoint is the bumps' limit: adjoint.h; Euler's a tenth of those, its
 * variance far from 0, where its root's derivative has no bound). */
static const char *const HNAMES[NA] = {"U", "V", "W"};
static double hb_xi = 1; /* the volatilities of variance scaled */
static const char *const HBMS[2 * NA] = {"U", "U:variance", "V", "V:variance", "W",
                                         "W:variance"};

static mcp_market *heston_assets_market(int what, double h)
{
  mcp_market *m = new_market();
  static const double c0[4 * NA * NA] = {
      1,    -0.7, 0.3,  -0.1, 0.4,  -0.1, /* U */
      -0.7, 1,    -0.1, 0.3,  -0.1, 0.2,  /* U:variance */
      0.3,  -0.1, 1,    -0.6, -0.2, 0.1,  /* V */
      -0.1, 0.3,  -0.6, 1,    0.1,  0.2,  /* V:variance */
      0.4,  -0.1, -0.2, 0.1,  1,    -0.5, /* W */
      -0.1, 0.2,  0.1,  0.2,  -0.5, 1};   /* W:variance */
  double c[4 * NA * NA];
  memcpy(c, c0, sizeof c);
  for (int a = 0; a < NA; a++) {
    double x[5] = {0.04 + 0.01 * a, 1.5 + 0.5 * a, 0.05, (0.2 + 0.05 * a) * hb_xi,
                   c0[2 * a * 2 * NA + 2 * a + 1]};
    double r[NR], q[NQ];
    for (int k = 0; k < 5; k++)
      x[k] += what == 10 * (1 + a) + k ? h : 0;
    c[2 * a * 2 * NA + 2 * a + 1] = c[(2 * a + 1) * 2 * NA + 2 * a] = x[4];
    for (int k = 0; k < NR; k++)
      r[k] = RATE[k] * ASCALE[a] + (what == 100 * (1 + a) + k ? h : 0);
    for (int k = 0; k < NQ; k++)
      q[k] = QV[k] * ASCALE[a] + (what == 2000 + 10 * a + k ? h : 0);
    assert_int_equal(mcp_market_add_heston(m, HNAMES[a], ASPOT[a] * (what == 1 + a ? 1 + h : 1),
                                           0.04, 0.01 * a, x[0], x[1], x[2], x[3], x[4]),
                     MCP_OK);
    assert_int_equal(mcp_market_set_curve(m, HNAMES[a], MCP_CURVE_RATE, NR, REND, r), MCP_OK);
    assert_int_equal(mcp_market_set_curve(m, HNAMES[a], MCP_CURVE_DIVIDEND, NQ, QEND, q), MCP_OK);
  }
  if (what >= 1000 && what < 2000) { /* the spots' entries */
    int p = 2 * ((what - 1000) / 10), q = 2 * ((what - 1000) % 10);
    c[p * 2 * NA + q] += h;
    c[q * 2 * NA + p] += h;
  }
  assert_int_equal(mcp_market_set_correlation(m, 2 * NA, HBMS, c), MCP_OK);
  return m;
}

/* Several Heston assets' deltas, parameters, rate and dividend pieces and
 * spot correlations by adjoint of book bk, against central differences on
 * the same paths, both schemes (what: "QE" and "Euler" after it),
 * antithetic; rho's vega through the step and the drivers' correlations. */
static void heston_book_against_bumps(void **state, const assets_book *bk, const char *what)
{
  static const char *const pn[5] = {"v0", "kappa", "theta", "xi", "rho"};
  char label[64];
  for (int scheme = 0; scheme < 2; scheme++) {
    book_scheme = scheme ? MCP_HESTON_EULER : MCP_HESTON_QE;
    hb_xi = scheme ? 0.1 : 1;
    snprintf(label, sizeof label, "%s, %s", what, scheme ? "Euler" : "QE");
    multi_against_bumps(state, heston_assets_market, bk, HNAMES, 5, pn,
                        scheme ? 0 : MCP_ANTITHETIC, label);
  }
  book_scheme = MCP_HESTON_QE;
  hb_xi = 1;
}

/* The baskets' book of baskets_against_bumps. */
static void heston_baskets_against_bumps(void **state)
{
  heston_book_against_bumps(state, &BASKETS, "Heston basket");
}

/* American and Bermudan options: the frozen rule's pathwise Greeks, each
 * path's sweep from its exercise (its discount's rates to that date), the
 * floored best-of call's its held European's, against central differences
 * of revaluations that fit their own rules (on the same paths, a bump this
 * small moves no path's exercise date). */
static void heston_americans_against_bumps(void **state)
{
  heston_book_against_bumps(state, &AMERICANS, "Heston American");
}

/* A whole call sweeps an early exercise's held European only where the
 * floor reports it, by running again (reval.c, held_later, run_again), a slice's
 * every time: the Americans' book of the bumps' tests (the best-of call
 * floored, warned `exercise`, its Greeks the European's; the others not)
 * on Black-Scholes and Heston assets gives the same bits both ways; the
 * floored call's deltas are there, not the 0 of a block never swept. */
static void held_sweeps_keep_the_bits(void **state)
{
  mcp_greeks *g = request("delta,vega,rho,correlation,dividend", 1);
  for (int heston = 0; heston < 2; heston++) {
    mcp_market *m = heston ? heston_assets_market(0, 0) : assets_market(0, 0);
    mcp_portfolio *p = american_book_of(MCP_ANTITHETIC, heston ? HNAMES : ANAMES);
    mcp_results *whole = price_greeks(ctx_of(state), m, p, g), *merged = NULL;
    mcp_partial *part = NULL;
    assert_int_equal(mcp_price_slice(ctx_of(state), m, p, g, NULL, 0, 1, &part), MCP_OK);
    assert_int_equal(mcp_partials_merge(ctx_of(state), m, p, g, NULL, &part, 1, &merged, NULL),
                     MCP_OK);
    char msg[512] = "", name[64];
    if (!same_results(whole, merged, msg, sizeof msg))
      fail_msg("%s: %s", heston ? "Heston" : "Black-Scholes", msg);
    size_t ao, ab;
    assert_int_equal(mcp_results_find(whole, "AO", &ao), MCP_OK);
    assert_int_equal(mcp_results_find(whole, "AB", &ab), MCP_OK);
    assert_true(mcp_results_warnings(whole, ao) & MCP_WARNING_EXERCISE);
    assert_false(mcp_results_warnings(whole, ab) & MCP_WARNING_EXERCISE);
    for (int a = 0; a < NA; a += 2) {
      snprintf(name, sizeof name, "delta:%s", (heston ? HNAMES : ANAMES)[a]);
      assert_true(greek(whole, "AO", name).value.price > 0.05);
    }
    mcp_results_destroy(whole);
    mcp_results_destroy(merged);
    mcp_partial_destroy(part);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
  mcp_greeks_destroy(g);
}

/* Several Heston assets' sweep keeps an asset's checkpoints and segment in
 * MCPI_ADJ_MLV_LANE values: 4,032 steps (c = 64) fit, 4,033 do not, and
 * that basket keeps its Greeks, warned (step_limit, below). */
static void step_limit(void **state, mcp_market *m, const char *const *names, int fit,
                       const char *delta);

static void heston_baskets_step_limit(void **state)
{
  step_limit(state, heston_assets_market(0, 0), HNAMES, 4032, "delta:U");
}

/* Local-volatility "L" (lv_market's surface and rate curve) and "N" (a
 * narrower surface, 2 x 3, its spot between nodes: a node is a kink of
 * the path in the spot), correlated; what = 0: nothing moved; 1 + a:
 * asset a's spot times 1 + h; 100 (1 + a) + k: node k of its surface moved
 * by h; 1000 + k: piece k of L's rate curve; 2000: the correlation; 3000,
 * 3001: N's (flat) rate, dividend yield. */
#define NT 2
#define NS 3
static const double NTIMES[NT] = {0.3, 1.2}, NSPOTS[NS] = {70, 93, 115};
static const double NVALS[NT * NS] = {0.34, 0.27, 0.22, 0.3, 0.26, 0.23};

static mcp_market *lv_assets_market(int what, double h)
{
  mcp_market *m = lv_market(100 * (what == 1 ? 1 + h : 1), what >= 100 && what < 200 ? what - 100
                                                           : what >= 1000 && what < 2000
                                                               ? -2 - (what - 1000)
                                                               : -1,
                            h);
  double v[NT * NS], c[4] = {1, 0.4, 0.4, 1};
  memcpy(v, NVALS, sizeof v);
  if (what >= 200 && what < 300)
    v[what - 200] += h;
  if (what == 2000)
    c[1] = c[2] = 0.4 + h;
  assert_int_equal(mcp_market_add_local_vol(m, "N", 90 * (what == 2 ? 1 + h : 1),
                                            0.03 + (what == 3000 ? h : 0),
                                            0.01 + (what == 3001 ? h : 0), NT, NTIMES, NS,
                                            NSPOTS, v),
                   MCP_OK);
  static const char *const ln[2] = {"L", "N"};
  assert_int_equal(mcp_market_set_correlation(m, 2, ln, c), MCP_OK);
  return m;
}

/* A basket call, a worst-of put and an American basket put (its rule held,
 * heston_americans_against_bumps) on two local-volatility assets: each
 * asset's delta, each node of both surfaces (the narrower padded in the
 * job), L's rate pieces, N's rate and dividend yield and the correlation,
 * against central differences on the same paths, with and without
 * antithetic pairs. */
static void local_vol_baskets_against_bumps(void **state)
{
  const double h = 1e-7;
  static const char *const ids[3] = {"LB", "LW", "LA"}, *const ln[2] = {"L", "N"};
  mcp_market *m = lv_assets_market(0, 0);
  mcp_greeks *g = request("delta,vega,rho,correlation,dividend", 1);
  for (int anti = 0; anti < 2; anti++) {
    mcp_portfolio *p = new_portfolio(4000, 23);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(p, anti ? MCP_ANTITHETIC : 0), MCP_OK);
    static const double w[2] = {0.5, 0.8};
    mcp_trade t = trade_on("LB", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 120, 1);
    t.nassets = 2, t.assets = ln, t.weights = w;
    add_trade(p, &t);
    t = trade_on("LW", NULL, MCP_PRODUCT_WORST_OF, MCP_PUT, 95, 0.8);
    t.nassets = 2, t.assets = ln;
    add_trade(p, &t);
    t = trade_on("LA", NULL, MCP_PRODUCT_AMERICAN, MCP_PUT, 125, 1);
    t.nassets = 2, t.assets = ln, t.weights = w, t.payoff = MCP_PRODUCT_BASKET, t.exercises = 12;
    add_trade(p, &t);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    int what[64], n = 0;
    what[n++] = 1, what[n++] = 2, what[n++] = 2000;
    for (int k = 0; k < LT * LS; k++)
      what[n++] = 100 + k;
    for (int k = 0; k < NT * NS; k++)
      what[n++] = 200 + k;
    for (int k = 0; k < NR; k++)
      what[n++] = 1000 + k;
    what[n++] = 3000, what[n++] = 3001;
    for (int i = 0; i < n; i++) {
      int x = what[i];
      char name[64];
      if (x < 10)
        snprintf(name, sizeof name, "delta:%s", ln[x - 1]);
      else if (x < 200)
        snprintf(name, sizeof name, "vega:L@t=%g,S=%g", LTIMES[(x - 100) / LS],
                 LSPOTS[(x - 100) % LS]);
      else if (x < 1000)
        snprintf(name, sizeof name, "vega:N@t=%g,S=%g", NTIMES[(x - 200) / NS],
                 NSPOTS[(x - 200) % NS]);
      else if (x < 2000)
        snprintf(name, sizeof name, "rho:L@%s", x == 1000 ? "(0,0.4]" : "(0.4,inf)");
      else if (x == 2000)
        snprintf(name, sizeof name, "correlation:L:N");
      else
        snprintf(name, sizeof name, "%s:N@(0,inf)", x == 3000 ? "rho" : "dividend");
      mcp_market *mu = lv_assets_market(x, h), *md = lv_assets_market(x, -h);
      mcp_results *ru = price(ctx_of(state), mu, p), *rd = price(ctx_of(state), md, p);
      double size = x == 1 ? 100 * h : x == 2 ? 90 * h : h;
      for (int k = 0; k < 3; k++) {
        mcp_sensitivity sn = greek(r, ids[k], name);
        assert_int_equal(sn.method, MCP_METHOD_ADJOINT);
        assert_bumped("local-volatility basket", ids[k], sn, estimate(ru, ids[k]).price,
                      estimate(rd, ids[k]).price, size);
      }
      mcp_results_destroy(ru);
      mcp_results_destroy(rd);
      mcp_market_destroy(mu);
      mcp_market_destroy(md);
    }
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
}

/* A basket of names' first two assets in market m at fit steps a year (1
 * year) takes its Greeks by adjoint, at fit + 1 not and is warned; m is
 * destroyed. */
static void step_limit(void **state, mcp_market *m, const char *const *names, int fit,
                       const char *delta)
{
  mcp_greeks *g = request("delta,vega", 1);
  for (int k = 0; k < 2; k++) {
    mcp_portfolio *p = new_portfolio(8, 5);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, fit + k), MCP_OK);
    mcp_trade t = trade_on("B", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
    t.nassets = 2, t.assets = names;
    add_trade(p, &t);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    assert_int_equal(mcp_results_warnings(r, 0), k ? (unsigned)MCP_WARNING_BUCKETS : 0u);
    assert_int_equal(greek(r, "B", delta).method == MCP_METHOD_ADJOINT, !k);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
}

/* Several local-volatility assets take buckets up to 7,225 steps (each
 * asset's checkpoints and segment in its buffer, adjoint.h); beyond, the
 * basket keeps its Greeks and is warned. */
static void local_vol_baskets_step_limit(void **state)
{
  static const char *const ln[2] = {"L", "N"};
  step_limit(state, lv_assets_market(0, 0), ln, 7225, "delta:L");
}

/* Six local-volatility assets: L and N of lv_assets_market, and P, R, T, U
 * (N's surface, other spots and dividend yields), the pairs correlated 0.3
 * but L-N's 0.4; what 1 + a: asset a's spot times 1 + h. */
#define NSIX 6
static const char *const SIX[NSIX] = {"L", "N", "P", "R", "T", "U"};
static const double SIX_S0[NSIX] = {100, 90, 110, 95, 105, 85};
static mcp_market *six_market(int what, double h)
{
  mcp_market *m = lv_assets_market(what == 1 || what == 2 ? what : 0, h);
  for (int a = 2; a < NSIX; a++)
    assert_int_equal(mcp_market_add_local_vol(m, SIX[a], SIX_S0[a] * (what == a + 1 ? 1 + h : 1),
                                              0.03, 0.005 * a, NT, NTIMES, NS, NSPOTS, NVALS),
                     MCP_OK);
  double c[NSIX * NSIX];
  for (int i = 0; i < NSIX * NSIX; i++)
    c[i] = i / NSIX == i % NSIX ? 1 : i == 1 || i == NSIX ? 0.4 : 0.3;
  assert_int_equal(mcp_market_set_correlation(m, NSIX, SIX, c), MCP_OK);
  return m;
}

static void assert_near(const char *what, const char *id, double got, double want, double tol)
{
  if (!(fabs(got - want) <= tol))
    fail_msg("%s of %s: %.12g, expected %.12g within %.2e", what, id, got, want, tol);
}

/* Gamma and cross gammas by bumping the adjoint: of a basket call and a
 * worst-of put on six local-volatility assets (MCPI_SWEEP_ASSETS or more), each
 * the central difference of the adjoint deltas that runs at each spot
 * moved up and down (by the delta's bump) give, on the same paths (the
 * same number but for rounding), by adjoint; beside the revaluations'
 * second differences within their standard errors, the gammas' smaller;
 * with and without antithetic pairs.  A basket of three of them and a
 * European keep the revaluations (fewer assets than the sweeps pay for). */
static void second_order_by_adjoint(void **state)
{
  const double hb = 0.01; /* the delta's (and gamma's) default bump */
  static const char *const ids[2] = {"B6", "W6"};
  mcp_market *m = six_market(0, 0);
  mcp_greeks *g = request("delta,gamma,cross-gamma", 1), *d = request("delta", 1);
  mcp_greeks *bumps = request("gamma,cross-gamma", 0);
  assert_int_equal(mcp_greeks_set_bump_only(bumps, 1), MCP_OK);
  for (int anti = 0; anti < 2; anti++) {
    mcp_portfolio *p = new_portfolio(4000, 29);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(p, anti ? MCP_ANTITHETIC : 0), MCP_OK);
    mcp_trade t = trade_on("B6", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 98, 1);
    t.nassets = NSIX, t.assets = SIX;
    add_trade(p, &t);
    t = trade_on("W6", NULL, MCP_PRODUCT_WORST_OF, MCP_PUT, 88, 0.8);
    t.nassets = NSIX, t.assets = SIX;
    add_trade(p, &t);
    t = trade_on("B3", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 95, 1);
    t.nassets = 3, t.assets = SIX;
    add_trade(p, &t);
    add_european(p, "LE", "L", MCP_CALL, 100, 1, 2);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    mcp_results *rb = price_greeks(ctx_of(state), m, p, bumps);
    assert_int_equal(greek(r, "B3", "gamma:L").method, MCP_METHOD_BUMP);
    assert_int_equal(greek(r, "B3", "cross-gamma:L:N").method, MCP_METHOD_BUMP);
    assert_int_equal(greek(r, "LE", "gamma").method, MCP_METHOD_BUMP);
    mcp_results *rd[NSIX][2]; /* asset, up */
    for (int a = 0; a < NSIX; a++)
      for (int up = 0; up < 2; up++) {
        mcp_market *x = six_market(1 + a, up ? hb : -hb);
        rd[a][up] = price_greeks(ctx_of(state), x, p, d);
        mcp_market_destroy(x);
      }
    char name[3][32];
    for (int k = 0; k < 2; k++)
      for (int a = 0; a < NSIX; a++) {
        snprintf(name[0], sizeof name[0], "delta:%s", SIX[a]);
        snprintf(name[1], sizeof name[1], "gamma:%s", SIX[a]);
        double fd = (greek(rd[a][1], ids[k], name[0]).value.price -
                     greek(rd[a][0], ids[k], name[0]).value.price) / (2 * hb * SIX_S0[a]);
        mcp_sensitivity s = greek(r, ids[k], name[1]), b = greek(rb, ids[k], name[1]);
        assert_int_equal(s.method, MCP_METHOD_ADJOINT);
        assert_near(name[1], ids[k], s.value.price, fd, 1e-10 * fabs(fd) + 1e-13);
        assert_near(name[1], ids[k], s.value.price, b.value.price,
                    NSE * hypot(s.value.std_error, b.value.std_error));
        assert_true(s.value.std_error < b.value.std_error);
        /* a pair's: the mean of each delta's difference in the other's spot */
        for (int c = a + 1; c < NSIX; c++) {
          double x = 0;
          for (int q = 0; q < 2; q++) {
            int i = q ? c : a, o = q ? a : c;
            snprintf(name[2], sizeof name[2], "delta:%s", SIX[o]);
            x += (greek(rd[i][1], ids[k], name[2]).value.price -
                  greek(rd[i][0], ids[k], name[2]).value.price) / (4 * hb * SIX_S0[i]);
          }
          snprintf(name[2], sizeof name[2], "cross-gamma:%s:%s", SIX[a], SIX[c]);
          s = greek(r, ids[k], name[2]), b = greek(rb, ids[k], name[2]);
          assert_int_equal(s.method, MCP_METHOD_ADJOINT);
          assert_near(name[2], ids[k], s.value.price, x, 1e-10 * fabs(x) + 1e-13);
          assert_near(name[2], ids[k], s.value.price, b.value.price,
                      NSE * hypot(s.value.std_error, b.value.std_error));
        }
      }
    for (int a = 0; a < NSIX; a++)
      for (int up = 0; up < 2; up++)
        mcp_results_destroy(rd[a][up]);
    mcp_results_destroy(rb);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_greeks_destroy(bumps);
  mcp_greeks_destroy(d);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
}

/* Correlations asked alone: the same numbers, the deltas by adjoint and no
 * bucket shown; a single-asset trade beside them is not warned; a Heston
 * basket's come by its own sweep, unwarned; correlation has no bump.  The dividend's
 * sensitivity without buckets: its sum alone, the same number; "all"
 * leaves both out; neither comes with bumps alone. */
static void correlations_alone(void **state)
{
  mcp_market *m = assets_market(0, 0);
  mcp_portfolio *p = multi_book(0);
  add_european(p, "E", "P", MCP_CALL, 100, 1, 1);
  mcp_greeks *g1 = request("delta,vega,rho,correlation", 1), *g2 = request("delta,correlation", 0);
  mcp_results *r1 = price_greeks(ctx_of(state), m, p, g1);
  mcp_results *r2 = price_greeks(ctx_of(state), m, p, g2);
  mcp_sensitivity s1 = greek(r1, "BC", "correlation:P:R"), s2 = greek(r2, "BC", "correlation:P:R");
  assert_true(s1.value.price == s2.value.price && s1.value.std_error == s2.value.std_error);
  /* the pair either way round; not a longer or shorter name */
  mcp_sensitivity sw = greek(r1, "BC", "correlation:R:P");
  assert_string_equal(sw.name, "correlation:P:R");
  assert_true(sw.value.price == s1.value.price);
  mcp_sensitivity no;
  assert_int_equal(mcp_results_greek(r1, "BC", "correlation:R:PQ", &no), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r1, "BC", "correlation:R", &no), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r1, NULL, "correlation:R:P", &no), MCP_OK);
  assert_int_equal(greek(r2, "BC", "delta:Q").method, MCP_METHOD_ADJOINT);
  assert_int_equal(greek(r2, "E", "delta").method, MCP_METHOD_PATHWISE);
  mcp_sensitivity s;
  mcp_greek k;
  assert_int_equal(mcp_results_greek(r2, "BC", "vega:P", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r2, "BC", "rho:P@(0,0.4]", &s), MCP_ERR_NOT_FOUND);
  for (size_t t = 0; t <= NMULTI; t++)
    assert_int_equal(mcp_results_warnings(r2, t), 0u);
  mcp_results_destroy(r1);
  mcp_results_destroy(r2);
  mcp_greeks *gd = request("dividend", 0), *gb = request("dividend", 1), *ga = request("all", 0);
  mcp_results *rd = price_greeks(ctx_of(state), m, p, gd);
  mcp_results *rb = price_greeks(ctx_of(state), m, p, gb);
  mcp_sensitivity qd = greek(rd, "E", "dividend"), qb = greek(rb, "E", "dividend");
  assert_int_equal(qd.method, MCP_METHOD_ADJOINT);
  assert_true(qd.value.price == qb.value.price && qd.value.price < 0);
  assert_int_equal(mcp_results_greek(rd, "E", "dividend@(0,0.6]", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(rb, "E", "dividend@(0,0.6]", &s), MCP_OK);
  assert_int_equal(mcp_results_greek(rd, "BC", "delta:P", &s), MCP_ERR_NOT_FOUND);
  mcp_results *ra = price_greeks(ctx_of(state), m, p, ga);
  assert_int_equal(mcp_results_greek(ra, "E", "dividend", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(ra, "BC", "correlation:P:Q", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(greek(ra, "BC", "delta:P").method, MCP_METHOD_PATHWISE);
  for (size_t t = 0; t <= NMULTI; t++)
    assert_int_equal(mcp_results_warnings(ra, t), 0u);
  /* by adjoint alone: not with bumps alone */
  assert_int_equal(mcp_greeks_set_bump_only(gd, 1), MCP_OK);
  mcp_results *rx = NULL;
  assert_int_equal(mcp_price_greeks(ctx_of(state), m, p, gd, &rx), MCP_ERR_ARGUMENT);
  assert_null(rx);
  assert_non_null(strstr(mcp_context_last_error(ctx_of(state)), "by adjoint"));
  mcp_results_destroy(rd);
  mcp_results_destroy(rb);
  mcp_results_destroy(ra);
  mcp_greeks_destroy(gd);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(ga);
  mcp_market *hm = new_market();
  static const char *const hn[2] = {"H1", "H2"};
  static const double hc[4] = {1, 0.4, 0.4, 1};
  for (int a = 0; a < 2; a++)
    assert_int_equal(mcp_market_add_heston(hm, hn[a], 100, 0.03, 0, 0.04, 1.5, 0.04, 0.3, -0.5),
                     MCP_OK);
  assert_int_equal(mcp_market_set_correlation(hm, 2, hn, hc), MCP_OK);
  mcp_portfolio *hp = new_portfolio(2000, 5);
  mcp_trade t = trade_on("HB", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 0.5);
  t.nassets = 2, t.assets = hn;
  add_trade(hp, &t);
  mcp_results *rh = price_greeks(ctx_of(state), hm, hp, g2);
  assert_int_equal(mcp_results_warnings(rh, 0), 0u);
  assert_int_equal(greek(rh, "HB", "correlation:H1:H2").method, MCP_METHOD_ADJOINT);
  assert_int_equal(greek(rh, "HB", "delta:H2").method, MCP_METHOD_ADJOINT);
  mcp_results_destroy(rh);
  assert_int_equal(mcp_greeks_set_bump(g2, MCP_GREEK_CORRELATION, 0.01), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_set_bump(g2, MCP_GREEK_DIVIDEND, 0.01), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greek_from_name("dividend", &k), MCP_OK);
  assert_int_equal(k, MCP_GREEK_DIVIDEND);
  assert_int_equal(mcp_greek_from_name("correlation", &k), MCP_OK);
  assert_int_equal(k, MCP_GREEK_CORRELATION);
  mcp_portfolio_destroy(hp);
  mcp_market_destroy(hm);
  mcp_greeks_destroy(g1);
  mcp_greeks_destroy(g2);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A digital's payoff jumps: it keeps its Greeks without buckets and is
 * warned, as is a European whose volatility curve reaches 0 (its vega bumped beside the European's sweep, likelihood-ratio
 * without buckets or in float, where the European has none either); the European beside it has buckets.  In float no
 * trade has them.  Without buckets asked, nobody is warned. */
static void others_are_warned(void **state)
{
  mcp_market *m = curves_market(100, 0, -1, 0);
  mcp_portfolio *p = new_portfolio(4000, 9);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 4), MCP_OK); /* on the curve's ends */
  add_european(p, "E", "A", MCP_CALL, 100, 1, 1);
  mcp_trade d = trade_on("D", "A", MCP_PRODUCT_DIGITAL, MCP_CALL, 100, 1);
  add_trade(p, &d);
  mcp_estimate dv[3];
  for (int k = 0; k < 3; k++) {
    mcp_greeks *g = request("delta,vega", k != 2);
    mcp_run_options *o = NULL;
    assert_int_equal(mcp_run_options_create(&o), MCP_OK);
    assert_int_equal(mcp_run_options_set_precision(o, k == 1 ? MCP_FLOAT : MCP_DOUBLE), MCP_OK);
    assert_int_equal(mcp_context_set_options(ctx_of(state), o), MCP_OK);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    mcp_sensitivity s;
    assert_int_equal(mcp_results_warnings(r, 1), k == 2 ? 0u : (unsigned)MCP_WARNING_BUCKETS);
    assert_int_equal(mcp_results_warnings(r, 0), k == 0 ? 0u : k == 1 ? (unsigned)MCP_WARNING_BUCKETS : 0u);
    assert_int_equal(mcp_results_greek(r, "D", "vega@(0,0.25]", &s), MCP_ERR_NOT_FOUND);
    assert_int_equal(mcp_results_greek(r, "E", "vega@(0,0.25]", &s),
                     k == 0 ? MCP_OK : MCP_ERR_NOT_FOUND);
    assert_int_equal(greek(r, "D", "vega").method,
                     k == 0 || k == 1 ? MCP_METHOD_BUMP : MCP_METHOD_LIKELIHOOD_RATIO);
    dv[k] = greek(r, "D", "vega").value;
    assert_string_equal(mcp_warning_name(MCP_WARNING_BUCKETS), "buckets");
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
    mcp_run_options_destroy(o);
  }
  assert_within("the digital's bumped vega", dv[0], dv[2].price, NSE);
  /* a volatility piece of 0 before maturity: the shift is no derivative */
  mcp_market *z = new_market();
  add_underlying(z, "A", (bs_params){100, 0.04, 0.01, 0.2});
  const double zv[NV] = {0.3, 0, 0.25};
  assert_int_equal(mcp_market_set_curve(z, "A", MCP_CURVE_VOLATILITY, NV, VEND, zv), MCP_OK);
  mcp_greeks *gz = request("vega", 1);
  mcp_results *rz = price_greeks(ctx_of(state), z, p, gz);
  assert_int_equal(mcp_results_warnings(rz, 0), (unsigned)MCP_WARNING_BUCKETS);
  mcp_results_destroy(rz);
  mcp_greeks_destroy(gz);
  mcp_market_destroy(z);
  mcp_run_options *o = NULL; /* the group's context back to its defaults */
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_context_set_options(ctx_of(state), o), MCP_OK);
  mcp_run_options_destroy(o);
  assert_int_equal(mcp_greeks_set_buckets(NULL, 1), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_buckets(NULL), 0);
  assert_string_equal(mcp_greek_method_name(MCP_METHOD_ADJOINT), "adjoint");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(european_against_closed_form),
      cmocka_unit_test(labels_stay_apart),
      cmocka_unit_test(surface_labels_kept),
      cmocka_unit_test(black_scholes_against_bumps),
      cmocka_unit_test(local_vol_against_bumps),
      cmocka_unit_test(wide_surface_against_bumps),
      cmocka_unit_test(long_paths_against_bumps),
      cmocka_unit_test(cash_dividends_against_bumps),
      cmocka_unit_test(bridge_barriers_against_bumps),
      cmocka_unit_test(heston_against_bumps),
      cmocka_unit_test(heston_against_closed_form),
      cmocka_unit_test(heston_bridge_barriers_against_bumps),
      cmocka_unit_test(sensitivities_sort),
      cmocka_unit_test(sums_prices_and_book),
      cmocka_unit_test(others_are_warned),
      cmocka_unit_test(baskets_against_bumps),
      cmocka_unit_test(heston_baskets_against_bumps),
      cmocka_unit_test(heston_americans_against_bumps),
      cmocka_unit_test(held_sweeps_keep_the_bits),
      cmocka_unit_test(heston_baskets_step_limit),
      cmocka_unit_test(local_vol_baskets_against_bumps),
      cmocka_unit_test(local_vol_baskets_step_limit),
      cmocka_unit_test(second_order_by_adjoint),
      cmocka_unit_test(correlations_alone),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
