/* test_greeks.c: Greeks of mcp_price_greeks on the CPU backend.
 *   Black-Scholes calls and puts against the closed-form Greeks, the
 *   likelihood-ratio Greeks of a digital, pathwise deltas against bumped ones
 *   on the same paths (Asian, basket) and bumped ones against mcp_price at
 *   the moved spots, Heston delta and vega against finite differences of the
 *   Fourier price, a basket with a zero weight, Greeks on the PDE grid, the
 *   book as the quantity-weighted sum of the trades, prices equal to
 *   mcp_price's bit for bit, scale-invariant products with a zero delta, a
 *   continuously monitored barrier's four Greeks against Reiner-Rubinstein
 *   (and under Heston and Merton against bump-only runs), bad
 *   requests, and where the on-path estimators give way to bumps (a
 *   volatility curve changing inside a step, BGK barriers), bumps that leave
 *   unused underlyings alone, and theta on daily steps.
 * A Monte Carlo Greek passes within NSE of its standard errors of the exact
 * value, widened by the bump's deterministic error where the estimator is a
 * finite difference (that error is computed from the closed form, as the
 * same difference of exact prices minus the exact derivative). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/cf_barrier.h"
#include "tests/cf_heston.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"

#define NSE 3.5
#define PI 3.14159265358979323846

/* The library's default bumps (mcprice.h). */
#define H_SPOT 0.01
#define H_VOL 0.01
#define H_RATE 1e-4
#define H_TIME (1.0 / 365)

static const bs_params A = {100, 0.05, 0.02, 0.25};
static const bs_params B = {50, 0.05, 0.0, 0.35};

static mcp_context *ctx_of(void **state) { return *state; }

/* Underlyings A and B of parameters a and b, correlated 0.4. */
static mcp_market *ab_market(bs_params a, bs_params b)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", a);
  add_underlying(m, "B", b);
  const char *ab[2] = {"A", "B"};
  double corr[4] = {1, 0.4, 0.4, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ab, corr), MCP_OK);
  return m;
}

/* A market of A alone, or of A and B correlated 0.4, their spots moved by
 * the relative shifts ha and hb. */
static mcp_market *bs_market_shifted(int with_b, double ha, double hb)
{
  bs_params a = A, b = B;
  a.spot *= 1 + ha;
  b.spot *= 1 + hb;
  if (with_b)
    return ab_market(a, b);
  mcp_market *m = new_market();
  add_underlying(m, "A", a);
  return m;
}

static mcp_market *bs_market(int with_b) { return bs_market_shifted(with_b, 0, 0); }

static mcp_greeks *request(const char *list, int bump_only)
{
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  if (mcp_greeks_parse(g, list) != MCP_OK)
    fail_msg("greeks '%s': %s", list, mcp_greeks_last_error(g));
  assert_int_equal(mcp_greeks_set_bump_only(g, bump_only), MCP_OK);
  return g;
}


static void assert_method(const char *what, mcp_sensitivity s, mcp_greek_method method)
{
  if (s.method != method)
    fail_msg("%s %s: method %s, expected %s", what, s.name, mcp_greek_method_name(s.method),
             mcp_greek_method_name(method));
}

/* s within NSE standard errors plus |bias| of exact, by the given method. */
static void check_mc(const char *what, mcp_sensitivity s, double exact, double bias,
                     mcp_greek_method method)
{
  double err = s.value.price - exact, z = err / s.value.std_error;
  print_message("  %-8s %-12s %-16s %12.6f +- %.2e  exact %12.6f  (%+.2f se, bias %.1e)\n",
                what, s.name, mcp_greek_method_name(s.method), s.value.price,
                s.value.std_error, exact, z, bias);
  if (!(s.value.std_error > 0 && fabs(err) <= NSE * s.value.std_error + fabs(bias)))
    fail_msg("%s %s: %.8f +- %.3e is %.2f se from %.8f (bias allowed %.2e)", what, s.name,
             s.value.price, s.value.std_error, z, exact, bias);
  assert_method(what, s, method);
}

/* ---- Black-Scholes closed forms ------------------------------------------ */

typedef struct bs_greeks {
  double delta, gamma, vega, rho, theta;
} bs_greeks;

static double norm_pdf(double x) { return exp(-0.5 * x * x) / sqrt(2 * PI); }

/* Analytic Greeks of a European option; theta is d/dt of calendar time. */
static bs_greeks bs_exact(mcp_option_type type, bs_params u, double k, double t)
{
  double sq = u.vol * sqrt(t), d1 = (log(u.spot / k) + (u.rate - u.dividend) * t) / sq + 0.5 * sq;
  double d2 = d1 - sq, w = type == MCP_CALL ? 1 : -1;
  double fq = exp(-u.dividend * t), fr = exp(-u.rate * t), pdf = norm_pdf(d1);
  bs_greeks g;
  g.delta = w * fq * cf_norm_cdf(w * d1);
  g.gamma = fq * pdf / (u.spot * sq);
  g.vega = u.spot * fq * pdf * sqrt(t);
  g.rho = w * k * t * fr * cf_norm_cdf(w * d2);
  g.theta = -u.spot * fq * pdf * u.vol / (2 * sqrt(t)) - w * u.rate * k * fr * cf_norm_cdf(w * d2) +
            w * u.dividend * u.spot * fq * cf_norm_cdf(w * d1);
  return g;
}

static double bs_at(mcp_option_type type, bs_params u, double k, double t)
{
  return cf_black_scholes(type, u.spot, k, t, u.rate, u.dividend, u.vol);
}

/* The library's finite differences applied to the exact price: their
 * expectations, since the Black-Scholes paths are exact. */
static bs_greeks bs_bumped(mcp_option_type type, bs_params u, double k, double t)
{
  bs_params su = u, sd = u, vu = u, vd = u, ru = u, rd = u;
  su.spot *= 1 + H_SPOT;
  sd.spot *= 1 - H_SPOT;
  vu.vol += H_VOL;
  vd.vol -= H_VOL;
  ru.rate += H_RATE;
  rd.rate -= H_RATE;
  double v = bs_at(type, u, k, t), hs = H_SPOT * u.spot;
  bs_greeks g;
  g.delta = (bs_at(type, su, k, t) - bs_at(type, sd, k, t)) / (2 * hs);
  g.gamma = (bs_at(type, su, k, t) - 2 * v + bs_at(type, sd, k, t)) / (hs * hs);
  g.vega = (bs_at(type, vu, k, t) - bs_at(type, vd, k, t)) / (2 * H_VOL);
  g.rho = (bs_at(type, ru, k, t) - bs_at(type, rd, k, t)) / (2 * H_RATE);
  g.theta = (bs_at(type, u, k, t - H_TIME) - v) / H_TIME;
  return g;
}

/* ---- 1. European call and put against Black-Scholes -------------------- */

/* Every Greek by default, and the delta again by spot revaluations (bump
 * only).  The call is nearly at the money forward (d2 = -0.005): an
 * antithetic pair's rho, K T e^{-rT} (1{z > -d2} + 1{-z > -d2}) / 2, varies
 * only for |z| < 0.005, so rho's standard error is small (1.4e-4 relative)
 * but genuine, and needs no floor. */
static void european_against_black_scholes(void **state)
{
  static const struct {
    const char *id;
    mcp_option_type type;
    double strike;
  } cases[] = {{"call", MCP_CALL, 100}, {"put", MCP_PUT, 95}};
  mcp_market *m = bs_market(0);
  mcp_portfolio *p = new_portfolio(400000, 11);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  for (size_t c = 0; c < 2; c++) {
    mcp_trade t = trade_on(cases[c].id, "A", MCP_PRODUCT_EUROPEAN, cases[c].type,
                           cases[c].strike, 1);
    add_trade(p, &t);
  }
  mcp_greeks *g = request("delta,gamma,vega,rho,theta", 0);
  mcp_greeks *gb = request("delta,vega,rho", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  mcp_results *rb = price_greeks(ctx_of(state), m, p, gb);
  for (size_t c = 0; c < 2; c++) {
    const char *id = cases[c].id;
    bs_greeks x = bs_exact(cases[c].type, A, cases[c].strike, 1);
    bs_greeks b = bs_bumped(cases[c].type, A, cases[c].strike, 1);
    assert_int_equal(mcp_results_sensitivities(r, c), 5);
    /* the pathwise delta, vega and rho are unbiased */
    check_mc(id, greek(r, id, "delta"), x.delta, 0, MCP_METHOD_PATHWISE);
    check_mc(id, greek(rb, id, "delta"), x.delta, b.delta - x.delta, MCP_METHOD_BUMP);
    check_mc(id, greek(r, id, "gamma"), x.gamma, b.gamma - x.gamma, MCP_METHOD_BUMP);
    check_mc(id, greek(r, id, "vega"), x.vega, 0, MCP_METHOD_PATHWISE);
    check_mc(id, greek(rb, id, "vega"), x.vega, b.vega - x.vega, MCP_METHOD_BUMP);
    check_mc(id, greek(r, id, "rho"), x.rho, 0, MCP_METHOD_PATHWISE);
    check_mc(id, greek(rb, id, "rho"), x.rho, b.rho - x.rho, MCP_METHOD_BUMP);
    check_mc(id, greek(r, id, "theta"), x.theta, b.theta - x.theta, MCP_METHOD_BUMP);
  }
  mcp_results_destroy(rb);
  mcp_results_destroy(r);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 2. digital: likelihood-ratio delta and gamma ---------------------- */

static void digital_likelihood_ratio(void **state)
{
  const double k = 105, cash = 10, t = 1;
  mcp_market *m = bs_market(0);
  mcp_portfolio *p = new_portfolio(400000, 12);
  mcp_trade tr = trade_on("dig", "A", MCP_PRODUCT_DIGITAL, MCP_CALL, k, t);
  tr.digital = MCP_CASH_OR_NOTHING;
  tr.cash = cash;
  add_trade(p, &tr);
  mcp_greeks *g = request("delta,gamma,vega,rho", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  /* cash e^{-rT} N(d2): delta = cash e^{-rT} n(d2) / (S s), gamma = -delta d1 / (S s),
   * vega = -cash e^{-rT} n(d2) d1 / sigma, rho = cash e^{-rT} (n(d2) sqrt(T) / sigma - T N(d2)) */
  double s = A.vol * sqrt(t), d1 = (log(A.spot / k) + (A.rate - A.dividend) * t) / s + 0.5 * s;
  double d2 = d1 - s, df = cash * exp(-A.rate * t), delta = df * norm_pdf(d2) / (A.spot * s);
  check_mc("digital", greek(r, "dig", "delta"), delta, 0, MCP_METHOD_LIKELIHOOD_RATIO);
  check_mc("digital", greek(r, "dig", "gamma"), -delta * d1 / (A.spot * s), 0,
           MCP_METHOD_LIKELIHOOD_RATIO);
  check_mc("digital", greek(r, "dig", "vega"), -df * norm_pdf(d2) * d1 / A.vol, 0,
           MCP_METHOD_LIKELIHOOD_RATIO);
  check_mc("digital", greek(r, "dig", "rho"),
           df * (norm_pdf(d2) * sqrt(t) / A.vol - t * cf_norm_cdf(d2)), 0,
           MCP_METHOD_LIKELIHOOD_RATIO);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 3. pathwise against bump on the same paths ------------------------ */

/* Both estimate the same derivative from the same normals, so they must agree
 * within the sampling error and closely in value (the bump's O(h^2) bias on
 * these smooth prices is far below 1%). */
static void assert_agree(const char *id, const char *name, const mcp_results *pw,
                         const mcp_results *bu)
{
  mcp_sensitivity a = greek(pw, id, name), b = greek(bu, id, name);
  double se = fmax(a.value.std_error, b.value.std_error), d = a.value.price - b.value.price;
  print_message("  %-6s %-8s pathwise %.6f +- %.1e  bump %.6f +- %.1e  (%+.2f se, %.1e rel)\n",
                id, name, a.value.price, a.value.std_error, b.value.price, b.value.std_error,
                d / se, d / fabs(b.value.price));
  assert_method(id, a, MCP_METHOD_PATHWISE);
  assert_method(id, b, MCP_METHOD_BUMP);
  if (!(se > 0 && fabs(d) <= NSE * se && fabs(d) <= 0.01 * fabs(b.value.price)))
    fail_msg("%s %s: pathwise %.8f and bump %.8f differ by %.2f se", id, name, a.value.price,
             b.value.price, d / se);
}

/* A bump delta is the central difference of revaluations on the same
 * normals, which are the normals of mcp_price in the market with that one
 * spot moved (same seed): the two agree to rounding.  This is what tells a
 * bump from a pathwise estimate, which agrees with it only statistically. */
static void assert_revalued(mcp_context *ctx, const mcp_portfolio *p, const mcp_results *bu,
                            const char *id, const char *name, int asset_b)
{
  double h = H_SPOT, s0 = asset_b ? B.spot : A.spot;
  mcp_market *up = bs_market_shifted(1, asset_b ? 0 : h, asset_b ? h : 0);
  mcp_market *dn = bs_market_shifted(1, asset_b ? 0 : -h, asset_b ? -h : 0);
  mcp_results *ru = price(ctx, up, p), *rd = price(ctx, dn, p);
  double fd = (estimate(ru, id).price - estimate(rd, id).price) / (2 * h * s0);
  double got = greek(bu, id, name).value.price;
  print_message("  %-6s %-8s bump %.15f  revalued %.15f\n", id, name, got, fd);
  if (!(fabs(got - fd) <= 1e-9 * fabs(fd)))
    fail_msg("%s %s: bump estimate %.17g, central difference of mcp_price at the moved spots "
             "%.17g", id, name, got, fd);
  mcp_results_destroy(rd);
  mcp_results_destroy(ru);
  mcp_market_destroy(dn);
  mcp_market_destroy(up);
}

static void pathwise_against_bump(void **state)
{
  const double fix[4] = {0.25, 0.5, 0.75, 1}, w[2] = {0.5, 1};
  const char *ab[2] = {"A", "B"};
  mcp_market *m = bs_market(1);
  mcp_portfolio *p = new_portfolio(100000, 13);
  mcp_trade t = trade_on("asian", "A", MCP_PRODUCT_ASIAN, MCP_CALL, 100, 1);
  t.nfixings = 4;
  t.fixings = fix;
  add_trade(p, &t);
  /* the other continuous payoffs, for their pathwise vega and rho */
  static const struct {
    const char *id;
    mcp_product product;
    mcp_option_type type;
    mcp_average average;
    mcp_strike_kind kind;
  } more[4] = {{"geo", MCP_PRODUCT_ASIAN, MCP_PUT, MCP_GEOMETRIC, MCP_FIXED_STRIKE},
               {"flt", MCP_PRODUCT_ASIAN, MCP_CALL, MCP_ARITHMETIC, MCP_FLOATING_STRIKE},
               {"lbx", MCP_PRODUCT_LOOKBACK, MCP_CALL, MCP_ARITHMETIC, MCP_FIXED_STRIKE},
               {"lbf", MCP_PRODUCT_LOOKBACK, MCP_PUT, MCP_ARITHMETIC, MCP_FLOATING_STRIKE}};
  for (int i = 0; i < 4; i++) {
    t = trade_on(more[i].id, "A", more[i].product, more[i].type,
                 more[i].kind == MCP_FLOATING_STRIKE ? 0 : 100, 1);
    t.average = more[i].average;
    t.strike_kind = more[i].kind;
    t.nfixings = 4;
    t.fixings = fix;
    add_trade(p, &t);
  }
  t = trade_on("basket", NULL, MCP_PRODUCT_BASKET, MCP_PUT, 100, 1);
  t.nassets = 2;
  t.assets = ab;
  t.weights = w;
  add_trade(p, &t);
  mcp_greeks *g = request("delta,vega,rho", 0), *gb = request("delta,vega,rho", 1);
  mcp_results *pw = price_greeks(ctx_of(state), m, p, g);
  mcp_results *bu = price_greeks(ctx_of(state), m, p, gb);
  assert_agree("asian", "delta", pw, bu);
  static const char *const ids[5] = {"asian", "geo", "flt", "lbx", "lbf"};
  for (int i = 0; i < 5; i++) {
    assert_agree(ids[i], "vega", pw, bu);
    assert_agree(ids[i], "rho", pw, bu);
  }
  assert_agree("basket", "delta:A", pw, bu);
  assert_agree("basket", "delta:B", pw, bu);
  assert_revalued(ctx_of(state), p, bu, "asian", "delta", 0);
  assert_revalued(ctx_of(state), p, bu, "basket", "delta:A", 0);
  assert_revalued(ctx_of(state), p, bu, "basket", "delta:B", 1);
  mcp_results_destroy(bu);
  mcp_results_destroy(pw);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 4. Heston: delta and vega against the Fourier price --------------- */

typedef struct heston_params {
  double spot, rate, dividend, v0, kappa, theta, xi, rho;
} heston_params;

static double heston_call(heston_params h, double k, double t)
{
  return cf_heston(MCP_CALL, h.spot, k, t, h.rate, h.dividend, h.v0, h.kappa, h.theta, h.xi,
                   h.rho);
}

/* The square roots of v0 and theta moved by dv, as the library's vega bump. */
static heston_params heston_vol_shifted(heston_params h, double dv)
{
  h.v0 = pow(sqrt(h.v0) + dv, 2);
  h.theta = pow(sqrt(h.theta) + dv, 2);
  return h;
}

static mcp_market *heston_market(heston_params h)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", h.spot, h.rate, h.dividend, h.v0, h.kappa,
                                         h.theta, h.xi, h.rho),
                   MCP_OK);
  return m;
}

/* The call "hc" on H, antithetic, 32 steps a year. */
static mcp_portfolio *heston_call_book(uint64_t paths, uint64_t seed, double k, double t)
{
  mcp_portfolio *p = new_portfolio(paths, seed);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 32), MCP_OK);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  mcp_trade tr = trade_on("hc", "H", MCP_PRODUCT_EUROPEAN, MCP_CALL, k, t);
  add_trade(p, &tr);
  return p;
}

static void heston_against_fourier(void **state)
{
  const heston_params h = {100, 0.03, 0, 0.04, 1.5, 0.04, 0.5, -0.7};
  const double k = 100, t = 1;
  mcp_market *m = heston_market(h);
  mcp_portfolio *p = heston_call_book(200000, 14, k, t);
  mcp_greeks *g = request("delta,vega", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  heston_params su = h, sd = h;
  su.spot *= 1 + H_SPOT;
  sd.spot *= 1 - H_SPOT;
  double delta = (heston_call(su, k, t) - heston_call(sd, k, t)) / (2 * H_SPOT * h.spot);
  double vega = (heston_call(heston_vol_shifted(h, H_VOL), k, t) -
                 heston_call(heston_vol_shifted(h, -H_VOL), k, t)) /
                (2 * H_VOL);
  check_mc("heston", greek(r, "hc", "delta"), delta, 0, MCP_METHOD_PATHWISE);
  check_mc("heston", greek(r, "hc", "vega"), vega, 0, MCP_METHOD_BUMP);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Parameter k of h (v0, kappa, theta, xi, rho) moved by d. */
static heston_params heston_moved(heston_params h, int k, double d)
{
  double *x[5] = {&h.v0, &h.kappa, &h.theta, &h.xi, &h.rho};
  *x[k] += d;
  return h;
}

/* With buckets, the model's vegas: a European's by adjoint, near the
 * Fourier price's own difference; a digital's (no adjoint) each
 * parameter's central difference on the same paths (the same number as the
 * prices at the moved parameter); the book's by underlying, their sum; an
 * underlying of a basket has no rho's by bumps, a European's on it by
 * adjoint has. */
static void heston_model_vegas(void **state)
{
  const heston_params h = {100, 0.03, 0.01, 0.04, 1.5, 0.05, 0.5, -0.7};
  const double k = 100, t = 1;
  static const char *const param[5] = {"v0", "kappa", "theta", "xi", "rho"};
  mcp_market *m = heston_market(h);
  mcp_portfolio *p = heston_call_book(100000, 15, k, t);
  mcp_trade dg = trade_on("hd", "H", MCP_PRODUCT_DIGITAL, MCP_CALL, k, t);
  add_trade(p, &dg);
  mcp_greeks *g = request("vega", 0);
  assert_int_equal(mcp_greeks_set_buckets(g, 1), MCP_OK);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  for (int i = 0; i < 5; i++) {
    double x[5] = {h.v0, h.kappa, h.theta, h.xi, h.rho};
    double d = i == 4 ? fmin(0.01, 0.5 * (1 - fabs(h.rho))) : 0.01 * x[i];
    mcp_market *mu = heston_market(heston_moved(h, i, d));
    mcp_market *md = heston_market(heston_moved(h, i, -d));
    mcp_results *ru = price(ctx_of(state), mu, p), *rd = price(ctx_of(state), md, p);
    double paths = (estimate(ru, "hd").price - estimate(rd, "hd").price) / (2 * d);
    double fourier = (heston_call(heston_moved(h, i, d), k, t) -
                      heston_call(heston_moved(h, i, -d), k, t)) /
                     (2 * d);
    char name[32], book[32];
    snprintf(name, sizeof name, "vega@%s", param[i]);
    snprintf(book, sizeof book, "vega:H@%s", param[i]);
    mcp_sensitivity s = greek(r, "hd", name), c = greek(r, "hc", name);
    if (!(fabs(s.value.price - paths) <= 1e-9 * fabs(paths)))
      fail_msg("%s: %.17g, the prices' difference %.17g", name, s.value.price, paths);
    assert_method("digital", s, MCP_METHOD_BUMP);
    double sum = c.value.price + s.value.price;
    assert_true(fabs(greek(r, NULL, book).value.price - sum) <= 1e-12 * fabs(sum));
    check_mc("heston", c, fourier, 0.02 * fabs(fourier), MCP_METHOD_ADJOINT);
    mcp_results_destroy(ru);
    mcp_results_destroy(rd);
    mcp_market_destroy(mu);
    mcp_market_destroy(md);
  }
  check_mc("heston", greek(r, "hc", "vega"),
           (heston_call(heston_vol_shifted(h, H_VOL), k, t) -
            heston_call(heston_vol_shifted(h, -H_VOL), k, t)) /
               (2 * H_VOL),
           0, MCP_METHOD_ADJOINT);
  mcp_results_destroy(r);
  /* an underlying of a multi-asset trade: its five too, by the
   * several-Heston sweep (rho through the drivers' correlations too) */
  assert_int_equal(mcp_market_add_heston(m, "K", 90, 0.03, 0, 0.05, 1.2, 0.04, 0.4, -0.5),
                   MCP_OK);
  static const char *const hk[2] = {"H", "K"};
  static const double c[4] = {1, 0.3, 0.3, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, hk, c), MCP_OK);
  mcp_portfolio *q = heston_call_book(2000, 16, k, t);
  mcp_trade bt = trade_on("hk", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 95, t);
  bt.nassets = 2, bt.assets = hk;
  add_trade(q, &bt);
  r = price_greeks(ctx_of(state), m, q, g);
  mcp_sensitivity x;
  assert_int_equal(greek(r, "hc", "vega@xi").method, MCP_METHOD_ADJOINT);
  assert_int_equal(greek(r, "hk", "vega:K@kappa").method, MCP_METHOD_ADJOINT);
  assert_int_equal(greek(r, "hc", "vega@rho").method, MCP_METHOD_ADJOINT); /* its own path's */
  assert_int_equal(greek(r, "hk", "vega:H@rho").method, MCP_METHOD_ADJOINT);
  assert_int_equal(greek(r, "hk", "vega:K@rho").method, MCP_METHOD_ADJOINT);
  assert_int_equal(mcp_results_greek(r, "hk", "vega:K@nu", &x), MCP_ERR_NOT_FOUND);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(q);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 5. a basket that ignores one of its assets ------------------------ */

static void basket_with_a_zero_weight(void **state)
{
  const double w[2] = {1, 0};
  const char *ab[2] = {"A", "B"};
  mcp_market *m = bs_market(1);
  mcp_portfolio *p = new_portfolio(200000, 15);
  mcp_trade t = trade_on("k10", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
  t.nassets = 2;
  t.assets = ab;
  t.weights = w;
  add_trade(p, &t);
  mcp_greeks *g = request("all", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  /* the payoff is a call on A alone */
  check_mc("k10", greek(r, "k10", "delta:A"), bs_exact(MCP_CALL, A, 100, 1).delta, 0,
           MCP_METHOD_PATHWISE);
  static const char *const zero[] = {"delta:B", "gamma:B", "cross-gamma:A:B"};
  for (size_t i = 0; i < 3; i++) {
    mcp_sensitivity s = greek(r, "k10", zero[i]);
    print_message("  k10      %-16s %g +- %g\n", zero[i], s.value.price, s.value.std_error);
    if (s.value.price != 0 || s.value.std_error != 0)
      fail_msg("k10 %s: %.17g +- %g, expected exactly 0", zero[i], s.value.price,
               s.value.std_error);
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A and B of flat local-volatility surfaces (Black-Scholes paths, stepped
 * as local volatility's), their spots moved by ha and hb. */
static mcp_market *flat_lv_market(double ha, double hb)
{
  mcp_market *m = new_market();
  const double t[1] = {1}, sa[1] = {100}, sb[1] = {50}, va[1] = {A.vol}, vb[1] = {B.vol};
  assert_int_equal(mcp_market_add_local_vol(m, "A", A.spot * (1 + ha), A.rate, A.dividend, 1, t,
                                            1, sa, va),
                   MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "B", B.spot * (1 + hb), B.rate, B.dividend, 1, t,
                                            1, sb, vb),
                   MCP_OK);
  const char *ab[2] = {"A", "B"};
  double corr[4] = {1, 0.4, 0.4, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ab, corr), MCP_OK);
  return m;
}

/* A cross gamma is (V++ - V+- - V-+ + V--) / (4 h_A h_B) of the prices at
 * both spots moved by h: on the price's own paths scaled (a Black-Scholes
 * basket) or by four revaluations (a basket on local-volatility assets, a
 * Himalaya, whose per-path array the scaling does not carry), each the
 * mcp_price of the market with the spots moved, to rounding (the Himalaya
 * reads performances: 0).  A Bermudan keeps the base run's exercise rule
 * (its scaled paths on Black-Scholes assets, its revaluations on
 * local-volatility ones): its cross gamma is a bump too, though no
 * separate run gives it (early_exercise_on_scaled_paths). */
static void cross_gammas_by_revaluation(void **state)
{
  const char *ab[2] = {"A", "B"};
  static const double fix[2] = {0.5, 1};
  mcp_portfolio *p = new_portfolio(20000, 31);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 4), MCP_OK);
  mcp_trade t = trade_on("BASKET", NULL, MCP_PRODUCT_BASKET, MCP_PUT, 80, 1);
  t.nassets = 2, t.assets = ab;
  add_trade(p, &t);
  t = trade_on("HIMALAYA", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1, 1);
  t.nassets = 2, t.assets = ab, t.nfixings = 2, t.fixings = fix, t.notional = 100;
  add_trade(p, &t);
  t = trade_on("BERMUDAN", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 80, 1);
  t.nassets = 2, t.assets = ab, t.nfixings = 2, t.fixings = fix;
  add_trade(p, &t);
  mcp_greeks *g = request("cross-gamma", 0);
  for (int lv = 0; lv < 2; lv++) {
    mcp_market *m = lv ? flat_lv_market(0, 0) : bs_market(1);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    double v[4][2];
    for (int q = 0; q < 4; q++) { /* q: 2 A up, 1 B up */
      double ha = q & 2 ? H_SPOT : -H_SPOT, hb = q & 1 ? H_SPOT : -H_SPOT;
      mcp_market *x = lv ? flat_lv_market(ha, hb) : bs_market_shifted(1, ha, hb);
      mcp_results *rx = price(ctx_of(state), x, p);
      v[q][0] = estimate(rx, "BASKET").price;
      v[q][1] = estimate(rx, "HIMALAYA").price;
      mcp_results_destroy(rx);
      mcp_market_destroy(x);
    }
    static const char *const ids[2] = {"BASKET", "HIMALAYA"};
    for (int i = 0; i < 2; i++) {
      mcp_sensitivity s = greek(r, ids[i], "cross-gamma:A:B");
      double fd = (v[3][i] - v[2][i] - v[1][i] + v[0][i]) /
                  (4 * H_SPOT * A.spot * H_SPOT * B.spot);
      print_message("  %s %-9s cross gamma %.12g +- %.3g  revalued %.12g\n", lv ? "lv" : "bs",
                    ids[i], s.value.price, s.value.std_error, fd);
      assert_method(ids[i], s, MCP_METHOD_BUMP);
      if (!(fabs(s.value.price - fd) <= 1e-7 * fabs(fd)) || (i == 0 && !(fd > 0)))
        fail_msg("%s: cross gamma %.17g, the revaluations' difference %.17g", ids[i],
                 s.value.price, fd);
    }
    mcp_sensitivity s = greek(r, "BERMUDAN", "cross-gamma:A:B");
    assert_method("BERMUDAN", s, MCP_METHOD_BUMP);
    assert_true(isfinite(s.value.price) && s.value.std_error > 0);
    mcp_results_destroy(r);
    mcp_market_destroy(m);
  }
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
}

/* Early exercise's spot Greeks come from the price's paths scaled, each
 * path carrying the fitted rule's exercise at its scaled spots
 * (lsm_greeks.h); bumps alone revalue the paths under the same rule, read
 * as the base reads it (lsm.h).  The two are the same estimator on the same
 * paths, so they agree to rounding (several assets' scenarios move the
 * base's terms, to the rounding of those sums): Bermudan basket puts on A
 * and B (Black-Scholes), on A to E and on two correlated Heston assets, a
 * worst-of on C, D and E, and American puts on A and on a Heston asset
 * alone (the Heston basis reads the variance). */
static mcp_market *exercise_market(void)
{
  mcp_market *m = new_market();
  const char *names[4] = {"H1", "H1:variance", "H2", "H2:variance"};
  assert_int_equal(mcp_market_add_heston(m, "H1", 100, 0.03, 0.01, 0.04, 1.5, 0.05, 0.5, -0.6),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "H2", 90, 0.03, 0, 0.06, 2, 0.05, 0.4, -0.5),
                   MCP_OK);
  double c[16] = {1, -0.6, 0.3, 0, -0.6, 1, 0, 0.2, 0.3, 0, 1, -0.5, 0, 0.2, -0.5, 1};
  assert_int_equal(mcp_market_set_correlation(m, 4, names, c), MCP_OK);
  /* A and B correlated 0.4, as ab_market's, and three more: 0.3 */
  const char *five[5] = {"A", "B", "C", "D", "E"};
  double corr[25];
  add_underlying(m, "A", A);
  add_underlying(m, "B", B);
  for (int i = 2; i < 5; i++)
    add_underlying(m, five[i], (bs_params){80 + 10 * i, 0.05, 0.01, 0.2 + 0.05 * i});
  for (int i = 0; i < 25; i++)
    corr[i] = i / 5 == i % 5 ? 1 : i == 1 || i == 5 ? 0.4 : 0.3;
  assert_int_equal(mcp_market_set_correlation(m, 5, five, corr), MCP_OK);
  return m;
}

static void early_exercise_on_scaled_paths(void **state)
{
  static const double fix[4] = {0.25, 0.5, 0.75, 1}, w[2] = {0.5, 0.5};
  const char *ab[2] = {"A", "B"}, *hh[2] = {"H1", "H2"}, *five[5] = {"A", "B", "C", "D", "E"};
  static const double w5[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
  mcp_portfolio *p = new_portfolio(20000, 43);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 8), MCP_OK);
  mcp_trade t = trade_on("BERM-AB", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 80, 1);
  t.nassets = 2, t.assets = ab, t.weights = w, t.nfixings = 4, t.fixings = fix;
  add_trade(p, &t);
  t = trade_on("BERM-H", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 95, 1);
  t.nassets = 2, t.assets = hh, t.weights = w, t.nfixings = 4, t.fixings = fix;
  add_trade(p, &t);
  t = trade_on("BERM-5", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 95, 1);
  t.nassets = 5, t.assets = five, t.weights = w5, t.nfixings = 4, t.fixings = fix;
  add_trade(p, &t);
  t = trade_on("BERM-WO", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 60, 1);
  t.nassets = 3, t.assets = five + 2, t.payoff = MCP_PRODUCT_WORST_OF, t.nfixings = 4;
  t.fixings = fix;
  add_trade(p, &t);
  t = trade_on("AM-A", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 105, 1);
  t.engine = MCP_ENGINE_MC, t.exercises = 8;
  add_trade(p, &t);
  t = trade_on("AM-H", "H1", MCP_PRODUCT_AMERICAN, MCP_PUT, 105, 1);
  t.engine = MCP_ENGINE_MC, t.exercises = 8;
  add_trade(p, &t);
  mcp_market *m = exercise_market();
  const char *spots = "delta,gamma,cross-gamma";
  mcp_greeks *g = request(spots, 0), *gb = request(spots, 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  mcp_results *rb = price_greeks(ctx_of(state), m, p, gb);
  static const char *const names[][5] = {
      {"BERM-AB", "delta:A", "delta:B", "gamma:A", "cross-gamma:A:B"},
      {"BERM-H", "delta:H1", "gamma:H2", "cross-gamma:H1:H2", "delta:H2"},
      {"BERM-5", "delta:A", "gamma:E", "cross-gamma:A:E", "cross-gamma:C:D"},
      {"BERM-WO", "delta:C", "gamma:D", "cross-gamma:C:E", "cross-gamma:D:E"},
      {"AM-A", "delta", "gamma", NULL, NULL},
      {"AM-H", "delta", "gamma", NULL, NULL}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    for (int k = 1; k < 5 && names[i][k]; k++) {
      mcp_sensitivity a = greek(r, names[i][0], names[i][k]);
      mcp_sensitivity b = greek(rb, names[i][0], names[i][k]);
      double d = a.value.price - b.value.price;
      print_message("  %-7s %-18s scaled %.12g +- %.3g  revalued %.12g\n", names[i][0],
                    names[i][k], a.value.price, a.value.std_error, b.value.price);
      assert_method(names[i][0], a, MCP_METHOD_BUMP);
      double tol = 1e-9 * fabs(b.value.price) + 1e-6 * b.value.std_error;
      if (!(a.value.std_error > 0 && fabs(d) <= tol))
        fail_msg("%s %s: on the scaled paths %.17g, revalued %.17g", names[i][0], names[i][k],
                 a.value.price, b.value.price);
    }
  /* a put's delta is negative, its gamma positive */
  assert_true(greek(r, "AM-A", "delta").value.price < 0);
  assert_true(greek(r, "AM-H", "gamma").value.price > 0);
  /* the basket's deltas against separate pricings at moved spots, each
   * fitting its own rule (the returns measured from a bumped start had
   * moved the rule with the bump: delta:A came out 0.001 +- 0.025 against
   * -0.27) */
  mcp_portfolio *one = new_portfolio(20000, 43);
  assert_int_equal(mcp_portfolio_set_steps_per_year(one, 8), MCP_OK);
  t = trade_on("BERM-AB", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 80, 1);
  t.nassets = 2, t.assets = ab, t.weights = w, t.nfixings = 4, t.fixings = fix;
  add_trade(one, &t);
  for (int k = 0; k < 2; k++) {
    double v[2], se[2], h = 0.02, s0 = k ? B.spot : A.spot;
    for (int q = 0; q < 2; q++) {
      double x = q ? -h : h;
      mcp_market *moved = bs_market_shifted(1, k ? 0 : x, k ? x : 0);
      mcp_results *rm = price(ctx_of(state), moved, one);
      v[q] = estimate(rm, "BERM-AB").price;
      se[q] = estimate(rm, "BERM-AB").std_error;
      mcp_results_destroy(rm);
      mcp_market_destroy(moved);
    }
    mcp_sensitivity d = greek(r, "BERM-AB", k ? "delta:B" : "delta:A");
    double fd = (v[0] - v[1]) / (2 * h * s0), fse = hypot(se[0], se[1]) / (2 * h * s0);
    print_message("  BERM-AB %s %.6f +- %.2e  refitted %.6f +- %.2e\n", d.name, d.value.price,
                  d.value.std_error, fd, fse);
    if (!(fabs(d.value.price - fd) <= NSE * (d.value.std_error + fse)))
      fail_msg("BERM-AB %s: %.6f, separate pricings' central difference %.6f +- %.2e", d.name,
               d.value.price, fd, fse);
  }
  mcp_portfolio_destroy(one);
  mcp_results_destroy(rb);
  mcp_results_destroy(r);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
  mcp_portfolio_destroy(p);
}

/* A Himalaya (its per-path array: no asset mask in its spec) has a vega of
 * each asset, the central difference of the prices at that asset's
 * volatility moved (it had none). */
static void himalaya_vegas(void **state)
{
  const char *ab[2] = {"A", "B"};
  static const double fix[2] = {0.5, 1};
  mcp_portfolio *p = new_portfolio(4000, 37);
  mcp_trade t = trade_on("HIMALAYA", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1, 1);
  t.nassets = 2, t.assets = ab, t.nfixings = 2, t.fixings = fix, t.notional = 100;
  add_trade(p, &t);
  mcp_market *m = bs_market(1);
  mcp_greeks *g = request("vega", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  for (int k = 0; k < 2; k++) {
    double v[2];
    for (int q = 0; q < 2; q++) {
      bs_params a = A, b = B;
      *(k ? &b.vol : &a.vol) += q ? -H_VOL : H_VOL;
      mcp_market *x = ab_market(a, b);
      mcp_results *rx = price(ctx_of(state), x, p);
      v[q] = estimate(rx, "HIMALAYA").price;
      mcp_results_destroy(rx);
      mcp_market_destroy(x);
    }
    mcp_sensitivity s = greek(r, "HIMALAYA", k ? "vega:B" : "vega:A");
    double fd = (v[0] - v[1]) / (2 * H_VOL);
    print_message("  himalaya %s %.12g revalued %.12g\n", s.name, s.value.price, fd);
    assert_method("HIMALAYA", s, MCP_METHOD_BUMP);
    if (!(fabs(s.value.price - fd) <= 1e-9 * fabs(fd)) || !(fd > 0))
      fail_msg("%s: %.17g, the revaluations' difference %.17g", s.name, s.value.price, fd);
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
  mcp_portfolio_destroy(p);
}

/* ---- 6. Greeks on the PDE grid ----------------------------------------- */

/* The portfolio of one trade on the grid, under the default PDE settings. */
static mcp_portfolio *one_grid_trade(mcp_trade t)
{
  mcp_portfolio *p = new_portfolio(1000, 16);
  t.engine = MCP_ENGINE_PDE;
  add_trade(p, &t);
  return p;
}

static double grid_price(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p)
{
  mcp_results *r = price(ctx, m, p);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_PDE);
  double v = estimate(r, mcp_portfolio_trade_id(p, 0)).price;
  mcp_results_destroy(r);
  return v;
}

static void check_grid(const char *what, mcp_sensitivity s, double exact, double rel)
{
  double err = (s.value.price - exact) / fabs(exact);
  print_message("  %-8s %-6s %-5s %14.8f  reference %14.8f  (%+.1e rel)\n", what, s.name,
                mcp_greek_method_name(s.method), s.value.price, exact, err);
  assert_method(what, s, MCP_METHOD_GRID);
  if (!(s.value.std_error == 0 && fabs(err) <= rel))
    fail_msg("%s %s: grid %.10f, reference %.10f (%.2e relative, allowed %.0e)", what, s.name,
             s.value.price, exact, err, rel);
}

static void pde_greeks(void **state)
{
  mcp_context *ctx = ctx_of(state);
  mcp_market *m = bs_market(0);
  mcp_greeks *g = request("delta,gamma,vega,rho,theta", 0);
  /* a European on the grid: delta and gamma against the analytic ones, the
   * re-solved vega, rho and theta against the same differences of exact
   * prices (so that theta's forward-difference bias, 6e-4 relative, is not
   * counted as error); the grid's own error (401 nodes, 400 steps) is below
   * 4e-5 relative in each */
  mcp_portfolio *p = one_grid_trade(trade_on("eu", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1));
  mcp_results *r = price_greeks(ctx, m, p, g);
  bs_greeks x = bs_exact(MCP_CALL, A, 100, 1), b = bs_bumped(MCP_CALL, A, 100, 1);
  check_grid("pde eu", greek(r, "eu", "delta"), x.delta, 2e-4);
  check_grid("pde eu", greek(r, "eu", "gamma"), x.gamma, 2e-4);
  check_grid("pde eu", greek(r, "eu", "vega"), b.vega, 2e-4);
  check_grid("pde eu", greek(r, "eu", "rho"), b.rho, 2e-4);
  check_grid("pde eu", greek(r, "eu", "theta"), b.theta, 2e-4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* an American put: vega, rho and theta are differences of re-solved
   * grids, equal to those of mcp_price in the moved market or with the
   * dates moved; delta and gamma, read off the one grid, agree with
   * re-solved grids at the moved spots to the grid's discretisation error */
  const double k = 100, t = 1;
  mcp_trade am = trade_on("am", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, k, t);
  p = one_grid_trade(am);
  r = price_greeks(ctx, m, p, g);
  double v = grid_price(ctx, m, p), moved[6];
  for (int i = 0; i < 6; i++) {
    bs_params u = A;
    double sign = i % 2 ? -1 : 1;
    if (i < 2)
      u.spot *= 1 + sign * H_SPOT;
    else if (i < 4)
      u.vol += sign * H_VOL;
    else
      u.rate += sign * H_RATE;
    mcp_market *mu = new_market();
    add_underlying(mu, "A", u);
    moved[i] = grid_price(ctx, mu, p);
    mcp_market_destroy(mu);
  }
  am.maturity = t - H_TIME;
  mcp_portfolio *dated = one_grid_trade(am);
  double hs = H_SPOT * A.spot;
  check_grid("pde am", greek(r, "am", "delta"), (moved[0] - moved[1]) / (2 * hs), 1e-3);
  check_grid("pde am", greek(r, "am", "gamma"), (moved[0] - 2 * v + moved[1]) / (hs * hs), 1e-3);
  check_grid("pde am", greek(r, "am", "vega"), (moved[2] - moved[3]) / (2 * H_VOL), 1e-12);
  check_grid("pde am", greek(r, "am", "rho"), (moved[4] - moved[5]) / (2 * H_RATE), 1e-12);
  check_grid("pde am", greek(r, "am", "theta"), (grid_price(ctx, m, dated) - v) / H_TIME, 1e-12);
  mcp_portfolio_destroy(dated);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
}

/* ---- 7. the book ---------------------------------------------------------- */

static void book_is_the_sum_of_trades(void **state)
{
  const double fix[4] = {0.25, 0.5, 0.75, 1};
  const char *ab[2] = {"A", "B"};
  /* trades on A share paths, B's and the basket's are other jobs, the
   * American is on the grid: the book adds across all of them */
  static const struct {
    const char *id, *und; /* und NULL: the basket on A and B */
    mcp_product product;
    mcp_option_type type;
    double strike, quantity;
  } trades[] = {{"eA", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 2},
                {"aA", "A", MCP_PRODUCT_ASIAN, MCP_PUT, 100, -3},
                {"dA", "A", MCP_PRODUCT_DIGITAL, MCP_CALL, 105, 1.5},
                {"eB", "B", MCP_PRODUCT_EUROPEAN, MCP_PUT, 50, -1},
                {"kAB", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 75, 0.5},
                {"mA", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 95, -2}};
  const size_t n = sizeof trades / sizeof *trades;
  mcp_market *m = bs_market(1);
  mcp_portfolio *p = new_portfolio(50000, 17);
  for (size_t i = 0; i < n; i++) {
    mcp_trade t = trade_on(trades[i].id, trades[i].und, trades[i].product, trades[i].type,
                           trades[i].strike, 1);
    t.quantity = trades[i].quantity;
    if (t.product == MCP_PRODUCT_ASIAN) {
      t.nfixings = 4;
      t.fixings = fix;
    } else if (t.product == MCP_PRODUCT_BASKET) {
      t.nassets = 2;
      t.assets = ab;
    }
    add_trade(p, &t);
  }
  /* A's trades on the path: the path body sums the book's columns of their
   * four Greeks itself (greeks.h's mcpi_greeks_book) */
  mcp_greeks *g = request("delta,gamma,vega,rho", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  /* the book's rows: the delta, gamma and vega of each underlying, the rho */
  static const char *const book_names[] = {"delta:A", "delta:B", "gamma:A", "gamma:B",
                                           "vega:A",  "vega:B",  "rho"};
  static const char *const trade_names[] = {"delta", "gamma", "vega", "rho"};
  const size_t nbook = sizeof book_names / sizeof *book_names;
  assert_int_equal(mcp_results_sensitivities(r, n), nbook);
  for (size_t k = 0; k < nbook; k++) {
    const char *und = ab[k % 2];
    double sum = 0, se_sum = 0;
    for (size_t i = 0; i < n; i++) {
      /* a single-asset trade's Greek is "delta", ..., that of its
       * underlying; a basket's "delta:A", ...; every trade's "rho" */
      const char *name = book_names[k];
      if (trades[i].und && k + 1 < nbook) {
        if (strcmp(trades[i].und, und) != 0)
          continue;
        name = trade_names[k / 2];
      }
      mcp_sensitivity s = greek(r, trades[i].id, name);
      sum += trades[i].quantity * s.value.price;
      se_sum += fabs(trades[i].quantity) * s.value.std_error;
    }
    mcp_sensitivity b = greek(r, NULL, book_names[k]);
    print_message("  book %-8s %.12f +- %.2e  sum of trades %.12f (se at most %.2e)\n",
                  book_names[k], b.value.price, b.value.std_error, sum, se_sum);
    if (!(fabs(b.value.price - sum) <= 1e-12 * fabs(sum)))
      fail_msg("book %s: %.17g, sum of quantity x trade %.17g", book_names[k], b.value.price,
               sum);
    /* the standard error of a sum is at most the sum of the standard errors */
    assert_true(b.value.std_error > 0 && b.value.std_error <= se_sum * (1 + 1e-12));
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 8. the prices are those of mcp_price --------------------------------- */

/* The estimators' extra columns and revaluation passes must leave the base
 * paths and their accumulation alone: every product, engine and model. */
static void prices_equal_mcp_price(void **state)
{
  const double fix[4] = {0.25, 0.5, 0.75, 1};
  const double him[2] = {0.5, 1};
  const char *ab[2] = {"A", "B"};
  mcp_market *m = bs_market(1);
  assert_int_equal(mcp_market_add_heston(m, "H", 80, 0.02, 0, 0.04, 1.5, 0.04, 0.5, -0.7), MCP_OK);
  mcp_portfolio *p = new_portfolio(4096, 18);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 4), MCP_OK);
  mcp_trade t[14];
  t[0] = trade_on("eu", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  t[0].methods = MCP_ANTITHETIC;
  t[1] = trade_on("dig", "A", MCP_PRODUCT_DIGITAL, MCP_PUT, 95, 1);
  t[1].digital = MCP_ASSET_OR_NOTHING;
  t[2] = trade_on("asian", "A", MCP_PRODUCT_ASIAN, MCP_CALL, 100, 1);
  t[2].nfixings = 4;
  t[2].fixings = fix;
  t[2].methods = MCP_CONTROL_VARIATE;
  t[3] = trade_on("bdisc", "A", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  t[3].barrier_kind = MCP_DOWN_AND_OUT;
  t[3].barrier = 85;
  t[3].nfixings = 4;
  t[3].fixings = fix;
  t[4] = trade_on("bbridge", "B", MCP_PRODUCT_BARRIER, MCP_PUT, 50, 1);
  t[4].barrier_kind = MCP_UP_AND_IN;
  t[4].barrier = 60;
  t[4].monitoring = MCP_MONITOR_BRIDGE;
  t[5] = trade_on("look", "B", MCP_PRODUCT_LOOKBACK, MCP_CALL, 0, 1);
  t[5].strike_kind = MCP_FLOATING_STRIKE;
  t[5].nfixings = 4;
  t[5].fixings = fix;
  t[6] = trade_on("basket", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 75, 1);
  t[7] = trade_on("best", NULL, MCP_PRODUCT_BEST_OF, MCP_PUT, 60, 1);
  t[8] = trade_on("him", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1, 1);
  t[8].nfixings = 2;
  t[8].fixings = him;
  for (int i = 6; i <= 8; i++) {
    t[i].nassets = 2;
    t[i].assets = ab;
  }
  t[9] = trade_on("cliq", "B", MCP_PRODUCT_CLIQUET, MCP_CALL, 0, 1);
  t[9].nfixings = 4;
  t[9].fixings = fix;
  t[9].local_cap = 0.05;
  t[10] = trade_on("window", "A", MCP_PRODUCT_MOVING_WINDOW, MCP_CALL, 100, 1);
  t[10].nfixings = 4;
  t[10].fixings = fix;
  t[10].window = 3;
  t[11] = trade_on("amer", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  t[12] = trade_on("eupde", "B", MCP_PRODUCT_EUROPEAN, MCP_CALL, 50, 1);
  t[12].engine = MCP_ENGINE_PDE;
  t[13] = trade_on("heston", "H", MCP_PRODUCT_EUROPEAN, MCP_PUT, 80, 1);
  for (size_t i = 0; i < 14; i++) {
    t[i].quantity = i % 3 ? 1.0 + (double)i : -2.0;
    add_trade(p, &t[i]);
  }
  mcp_estimate plain[16], greeks[16];
  mcp_results *r = price(ctx_of(state), m, p);
  size_t n = snapshot(r, plain, 16);
  mcp_results_destroy(r);
  for (int bump_only = 0; bump_only < 2; bump_only++) {
    mcp_greeks *g = request("all", bump_only);
    r = price_greeks(ctx_of(state), m, p, g);
    assert_int_equal(snapshot(r, greeks, 16), n);
    assert_same_bits(bump_only ? "bump only" : "default", plain, greeks, n);
    /* every trade got its Greeks, the book too */
    for (size_t i = 0; i <= 14; i++)
      assert_true(mcp_results_sensitivities(r, i) >= 5);
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
  }
  print_message("  14 trades and the book: equal to the bit, with and without bump only\n");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 9. scale-invariant payoffs have no delta ---------------------------- */

/* A cliquet pays on the ratios S(t_k) / S(t_k-1), a Himalaya on S(t_k) / S(0):
 * under Black-Scholes a spot bump scales the whole path and leaves them as
 * they are, so the bumped revaluations pay what the base does.  Only to
 * rounding, though: the rescaled path's ratios may differ in the last bit,
 * which leaves deltas of order 1e-18; a genuine sensitivity would be above
 * 1e-4. */
static void scale_invariant_deltas(void **state)
{
  const double fix[4] = {0.25, 0.5, 0.75, 1}, him[2] = {0.5, 1};
  const char *ab[2] = {"A", "B"};
  mcp_market *m = bs_market(1);
  mcp_portfolio *p = new_portfolio(20000, 19);
  mcp_trade t = trade_on("cliq", "A", MCP_PRODUCT_CLIQUET, MCP_CALL, 0, 1);
  t.nfixings = 4;
  t.fixings = fix;
  t.local_floor = -0.03;
  t.local_cap = 0.05;
  t.global_floor = 0;
  add_trade(p, &t);
  t = trade_on("him", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1, 1);
  t.nassets = 2;
  t.assets = ab;
  t.nfixings = 2;
  t.fixings = him;
  add_trade(p, &t);
  mcp_greeks *g = request("delta,vega", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  static const struct {
    const char *id, *name;
  } zero[] = {{"cliq", "delta"}, {"him", "delta:A"}, {"him", "delta:B"}};
  for (size_t i = 0; i < 3; i++) {
    mcp_sensitivity s = greek(r, zero[i].id, zero[i].name);
    print_message("  %-5s %-8s %-5s %g +- %g\n", zero[i].id, s.name,
                  mcp_greek_method_name(s.method), s.value.price, s.value.std_error);
    assert_method(zero[i].id, s, MCP_METHOD_BUMP);
    if (fabs(s.value.price) > 1e-14)
      fail_msg("%s %s: %.17g +- %g, expected 0 to rounding", zero[i].id, zero[i].name,
               s.value.price, s.value.std_error);
  }
  /* not so the volatility: the caps make the cliquet's vega nonzero */
  assert_true(fabs(greek(r, "cliq", "vega").value.price) > 0);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 10. a continuously monitored barrier --------------------------------- */

/* A barrier watched on the bridge, continuous in the path, gets its vega
 * and rho pathwise through the monitor's derivatives and its delta and gamma
 * from scaled paths, with no revaluation.  The bridge is exact for
 * Black-Scholes on any grid, so each estimator's expectation is the closed
 * form's derivative (vega, rho: central differences of step DX, whose error
 * is far below the standard errors) or its difference at the spot bump
 * (delta, gamma).  An up-and-out call, a down-and-out put with a rebate and
 * an up-and-in call, on 20 steps a year. */
#define DX 1e-5

typedef struct barrier_case {
  const char *id;
  mcp_option_type type;
  mcp_barrier_kind kind;
  int up, in;
  double barrier, rebate;
} barrier_case;

static double cf_case(const barrier_case *c, double s, double r, double v)
{
  return cf_barrier(c->type, c->up, c->in, s, 100, c->barrier, c->rebate, 1, r, 0.01, v);
}

/* A barrier watched on the bridge: strike 100, maturity 1. */
static void add_bridge_barrier(mcp_portfolio *p, const char *id, const char *underlying,
                               mcp_option_type type, mcp_barrier_kind kind, double barrier,
                               double rebate)
{
  mcp_trade tr = trade_on(id, underlying, MCP_PRODUCT_BARRIER, type, 100, 1);
  tr.barrier_kind = kind;
  tr.barrier = barrier;
  tr.rebate = rebate;
  tr.monitoring = MCP_MONITOR_BRIDGE;
  add_trade(p, &tr);
}

static void bridge_barrier_greeks(void **state)
{
  const bs_params u = {100, 0.02, 0.01, 0.2};
  static const barrier_case cs[] = {
      {"uo", MCP_CALL, MCP_UP_AND_OUT, 1, 0, 130, 0},
      {"do", MCP_PUT, MCP_DOWN_AND_OUT, 0, 0, 80, 3},
      {"ui", MCP_CALL, MCP_UP_AND_IN, 1, 1, 120, 0}};
  mcp_market *m = new_market();
  add_underlying(m, "U", u);
  mcp_portfolio *p = new_portfolio(400000, 20);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  for (size_t i = 0; i < 3; i++)
    add_bridge_barrier(p, cs[i].id, "U", cs[i].type, cs[i].kind, cs[i].barrier, cs[i].rebate);
  mcp_greeks *g = request("delta,gamma,vega,rho", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  double s = u.spot, q = u.rate, v = u.vol, hs = H_SPOT * s;
  for (size_t i = 0; i < 3; i++) {
    const barrier_case *c = &cs[i];
    double y = cf_case(c, s, q, v);
    double delta = (cf_case(c, s + hs, q, v) - cf_case(c, s - hs, q, v)) / (2 * hs);
    double gamma = (cf_case(c, s + hs, q, v) - 2 * y + cf_case(c, s - hs, q, v)) / (hs * hs);
    double vega = (cf_case(c, s, q, v + DX) - cf_case(c, s, q, v - DX)) / (2 * DX);
    double rho = (cf_case(c, s, q + DX, v) - cf_case(c, s, q - DX, v)) / (2 * DX);
    check_mc(c->id, greek(r, c->id, "delta"), delta, 0, MCP_METHOD_BUMP);
    check_mc(c->id, greek(r, c->id, "gamma"), gamma, 0, MCP_METHOD_BUMP);
    check_mc(c->id, greek(r, c->id, "vega"), vega, 0, MCP_METHOD_PATHWISE);
    check_mc(c->id, greek(r, c->id, "rho"), rho, 0, MCP_METHOD_PATHWISE);
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The same barriers under Heston and Merton, where no closed form is at
 * hand: the delta and gamma from scaled paths are the revaluations' at the
 * bumped spots (the bump-only run's, to rounding), and the pathwise rho (and
 * Merton's vega) agree with the bump-only run's within its sampling error. */
static void bridge_barrier_models(void **state)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0.01, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "M", 100, 0.03, 0.01, 0.2, 0.5, -0.1, 0.15), MCP_OK);
  mcp_portfolio *p = new_portfolio(100000, 21);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 24), MCP_OK);
  const char *id[2] = {"h-do", "m-uo"};
  add_bridge_barrier(p, id[0], "H", MCP_PUT, MCP_DOWN_AND_OUT, 75, 2);
  add_bridge_barrier(p, id[1], "M", MCP_CALL, MCP_UP_AND_OUT, 135, 2);
  mcp_greeks *g = request("delta,gamma,vega,rho", 0), *gb = request("delta,gamma,vega,rho", 1);
  mcp_results *pw = price_greeks(ctx_of(state), m, p, g);
  mcp_results *bu = price_greeks(ctx_of(state), m, p, gb);
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      const char *name = k ? "gamma" : "delta";
      mcp_sensitivity a = greek(pw, id[i], name), b = greek(bu, id[i], name);
      print_message("  %-6s %-6s scaled %.15f  revalued %.15f\n", id[i], name, a.value.price,
                    b.value.price);
      assert_method(id[i], a, MCP_METHOD_BUMP);
      if (!(fabs(a.value.price - b.value.price) <= 1e-8 * fabs(b.value.price)))
        fail_msg("%s %s: scaled paths %.17g, revaluations %.17g", id[i], name, a.value.price,
                 b.value.price);
    }
  assert_agree("h-do", "rho", pw, bu);
  assert_agree("m-uo", "rho", pw, bu);
  assert_agree("m-uo", "vega", pw, bu);
  assert_method("h-do", greek(pw, "h-do", "vega"), MCP_METHOD_BUMP); /* Heston's: revalued */
  mcp_results_destroy(bu);
  mcp_results_destroy(pw);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Where the volatility is 0 the bridge has no variance to differentiate:
 * the barrier's Greeks are revalued, finite, the bump-only run's (a flat 0,
 * whose drift of 20% a year crosses the barrier before maturity, and a
 * curve at 0 after half a year). */
static void bridge_barrier_without_volatility(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "Z", (bs_params){100, 0.2, 0, 0});
  add_underlying(m, "C", (bs_params){100, 0.03, 0, 0.2});
  const double end[2] = {0.5, 1}, vol[2] = {0.3, 0};
  assert_int_equal(mcp_market_set_curve(m, "C", MCP_CURVE_VOLATILITY, 2, end, vol), MCP_OK);
  mcp_portfolio *p = new_portfolio(4000, 5);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 20), MCP_OK);
  const char *id[2] = {"Z", "C"};
  for (int i = 0; i < 2; i++)
    add_bridge_barrier(p, id[i], id[i], MCP_CALL, MCP_UP_AND_OUT, 115, 1);
  mcp_greeks *g = request("delta,gamma,vega,rho", 0), *gb = request("delta,gamma,vega,rho", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  mcp_results *rb = price_greeks(ctx_of(state), m, p, gb);
  static const char *const names[4] = {"delta", "gamma", "vega", "rho"};
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 4; k++) {
      mcp_sensitivity x = greek(r, id[i], names[k]), y = greek(rb, id[i], names[k]);
      assert_method(id[i], x, MCP_METHOD_BUMP);
      assert_true(isfinite(x.value.price) && x.value.price == y.value.price);
    }
  mcp_results_destroy(rb);
  mcp_results_destroy(r);
  mcp_greeks_destroy(gb);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 11. bad requests ------------------------------------------------------ */

static void bad_requests(void **state)
{
  mcp_context *ctx = ctx_of(state);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,vanna"), MCP_ERR_NOT_FOUND);
  assert_non_null(strstr(mcp_greeks_last_error(g), "'vanna'"));
  assert_int_equal(mcp_greeks_parse(g, ",delta"), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_parse(g, "delta,"), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_parse(g, NULL), MCP_ERR_ARGUMENT);
  static const double bad[] = {0, -0.01, 0.5000001, NAN};
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_VEGA, bad[i]), MCP_ERR_ARGUMENT);
    assert_true(mcp_greeks_bump(g, MCP_GREEK_VEGA) == H_VOL);
  }
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_COUNT, 0.01), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_RHO, 0.5), MCP_OK);
  assert_true(mcp_greeks_bump(g, MCP_GREEK_RHO) == 0.5);
  mcp_greeks_destroy(g);

  mcp_market *m = bs_market(0);
  mcp_portfolio *p = new_portfolio(1000, 21);
  mcp_trade t = trade_on("short", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 0.25);
  add_trade(p, &t);
  g = request("delta,theta", 0);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price_greeks(NULL, m, p, g, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_int_equal(mcp_price_greeks(ctx, NULL, p, g, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_int_equal(mcp_price_greeks(ctx, m, NULL, g, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_int_equal(mcp_price_greeks(ctx, m, p, NULL, &r), MCP_ERR_ARGUMENT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "greeks"));
  assert_int_equal(mcp_price_greeks(ctx, m, p, g, NULL), MCP_ERR_ARGUMENT);
  /* a theta bump past the trade's maturity */
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_THETA, 0.3), MCP_OK);
  assert_int_equal(mcp_price_greeks(ctx, m, p, g, &r), MCP_ERR_INPUT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "'short'"));
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_THETA, H_TIME), MCP_OK);
  r = price_greeks(ctx, m, p, g);
  mcp_sensitivity s;
  assert_int_equal(mcp_results_greek(r, "short", "vanna", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r, "short", "vega", &s), MCP_ERR_NOT_FOUND); /* not asked */
  assert_int_equal(mcp_results_greek(r, "short", "delta:A", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r, "long", "delta", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r, NULL, "delta", &s), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_greek(r, NULL, "delta:A", &s), MCP_OK);
  assert_int_equal(mcp_results_sensitivity(r, 0, 2, &s), MCP_ERR_ARGUMENT);
  mcp_results_destroy(r);
  /* mcp_price estimates no Greeks */
  r = price(ctx, m, p);
  assert_int_equal(mcp_results_sensitivities(r, 0), 0);
  assert_int_equal(mcp_results_sensitivities(r, 1), 0);
  assert_int_equal(mcp_results_greek(r, "short", "delta", &s), MCP_ERR_NOT_FOUND);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 12. where the on-path estimators do not hold ------------------------ */

/* A volatility curve with a knot inside a step: the on-path vega assumes a
 * step's deviation moves by sqrt(dt), so such a job's vega is bumped, and
 * matches the same difference of the exact prices (Black-Scholes with the
 * curve's total variance); with the knot on a step it is pathwise again. */
static void vega_of_a_volatility_curve(void **state)
{
  const double end[2] = {0.5, 2}, vol[2] = {0.1, 0.4}, t = 1;
  for (int on_step = 0; on_step < 2; on_step++) {
    mcp_market *m = bs_market(0);
    assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 2, end, vol), MCP_OK);
    mcp_portfolio *p = new_portfolio(200000, 23);
    assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, on_step ? 2 : 0), MCP_OK);
    mcp_trade tr = trade_on("curve", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, t);
    add_trade(p, &tr);
    mcp_greeks *g = request("vega", 0);
    mcp_results *r = price_greeks(ctx_of(state), m, p, g);
    /* sigma_eff^2 = (0.5 (0.1 + h)^2 + 0.5 (0.4 + h)^2) / 1 */
    bs_params u = A, up = A, dn = A;
    u.vol = sqrt(0.5 * 0.01 + 0.5 * 0.16);
    up.vol = sqrt(0.5 * pow(0.1 + H_VOL, 2) + 0.5 * pow(0.4 + H_VOL, 2));
    dn.vol = sqrt(0.5 * pow(0.1 - H_VOL, 2) + 0.5 * pow(0.4 - H_VOL, 2));
    double exact = bs_exact(MCP_CALL, u, 100, t).vega * 0.25 / u.vol; /* d sigma_eff / dh */
    double bumped = (bs_at(MCP_CALL, up, 100, t) - bs_at(MCP_CALL, dn, 100, t)) / (2 * H_VOL);
    check_mc(on_step ? "on step" : "in step", greek(r, "curve", "vega"), exact,
             on_step ? 0 : bumped - exact, on_step ? MCP_METHOD_PATHWISE : MCP_METHOD_BUMP);
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* A BGK barrier's shift moves with the volatility, which the
 * likelihood-ratio score leaves out: its vega is bumped (its delta and rho
 * stay likelihood-ratio). */
static void bgk_vega_is_bumped(void **state)
{
  double fix[12];
  for (int i = 0; i < 12; i++)
    fix[i] = (i + 1) / 12.0;
  mcp_market *m = bs_market(0);
  mcp_portfolio *p = new_portfolio(20000, 29);
  mcp_trade tr = trade_on("bgk", "A", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  tr.barrier_kind = MCP_DOWN_AND_OUT;
  tr.barrier = 85;
  tr.monitoring = MCP_MONITOR_BGK;
  tr.nfixings = 12;
  tr.fixings = fix;
  add_trade(p, &tr);
  mcp_greeks *g = request("delta,vega,rho", 0);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  assert_method("bgk", greek(r, "bgk", "delta"), MCP_METHOD_LIKELIHOOD_RATIO);
  assert_method("bgk", greek(r, "bgk", "vega"), MCP_METHOD_BUMP);
  assert_method("bgk", greek(r, "bgk", "rho"), MCP_METHOD_LIKELIHOOD_RATIO);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Bumps move only the underlyings the trades use (an idle one with a
 * volatility below the bump does not fail the run), and a run with daily
 * steps takes a theta bump of half a step. */
static void bumps_and_the_market(void **state)
{
  mcp_market *m = bs_market(0);
  add_underlying(m, "Z", (bs_params){10, 0.01, 0, 0.005});
  mcp_portfolio *p = new_portfolio(20000, 31);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 365), MCP_OK);
  mcp_trade tr = trade_on("up", "A", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  tr.barrier_kind = MCP_UP_AND_OUT;
  tr.barrier = 140;
  tr.monitoring = MCP_MONITOR_BRIDGE;
  add_trade(p, &tr);
  mcp_greeks *g = request("vega,rho,theta", 1);
  mcp_results *r = price_greeks(ctx_of(state), m, p, g);
  mcp_sensitivity th = greek(r, "up", "theta");
  assert_method("up", greek(r, "up", "vega"), MCP_METHOD_BUMP);
  assert_true(isfinite(th.value.price) && th.value.std_error > 0);
  /* a failed list leaves the request as it was */
  mcp_greeks *none = NULL;
  assert_int_equal(mcp_greeks_create(&none), MCP_OK);
  assert_int_equal(mcp_greeks_parse(none, "delta,bogus"), MCP_ERR_NOT_FOUND);
  mcp_results *r0 = price_greeks(ctx_of(state), m, p, none);
  assert_int_equal(mcp_results_sensitivities(r0, 0), 0);
  mcp_results_destroy(r0);
  mcp_greeks_destroy(none);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The price of trade id in the market of one_sided_bumps, every volatility
 * shifted by dv and every rate by dr, on the paths of mcp_price with the
 * portfolio's seed. */
static double revalued_at(mcp_context *ctx, const mcp_portfolio *p, const char *id, double dv,
                          double dr)
{
  mcp_market *m = new_market();
  add_underlying(m, "L", (bs_params){100, 0.03 + dr, 0, 0.005 + dv});
  add_underlying(m, "R", (bs_params){100, 0.995 + dr, 0, 0.2 + dv});
  mcp_results *r = price(ctx, m, p);
  double v = estimate(r, id).price;
  mcp_results_destroy(r);
  mcp_market_destroy(m);
  return v;
}

/* A bump that would leave the market's allowed range is taken one-sided
 * (issue 17: a volatility below vega's bump, or a rate within rho's bump of
 * the bound 1, failed the run): vega forward from a volatility of 0.005,
 * rho backward from a rate of 0.995, each the difference of mcp_price
 * revaluations on the same paths, on Monte Carlo and on the grid. */
static void one_sided_bumps(void **state)
{
  mcp_context *ctx = ctx_of(state);
  mcp_market *m = new_market();
  add_underlying(m, "L", (bs_params){100, 0.03, 0, 0.005});
  add_underlying(m, "R", (bs_params){100, 0.995, 0, 0.2});
  mcp_portfolio *p = new_portfolio(4000, 3);
  add_european(p, "cL", "L", MCP_CALL, 100, 1, 1);
  add_european(p, "cR", "R", MCP_CALL, 100, 1, 1);
  mcp_trade t = trade_on("gL", "L", MCP_PRODUCT_EUROPEAN, MCP_PUT, 100, 1);
  t.engine = MCP_ENGINE_PDE;
  add_trade(p, &t);
  mcp_greeks *g = request("vega,rho", 1);
  double hv = 0.01, hr = 0.01;
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_VEGA, hv), MCP_OK);
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_RHO, hr), MCP_OK);
  mcp_results *r = price_greeks(ctx, m, p, g);
  const char *ids[3] = {"cL", "cR", "gL"};
  for (int i = 0; i < 3; i++) {
    double base = revalued_at(ctx, p, ids[i], 0, 0);
    double vega = (revalued_at(ctx, p, ids[i], hv, 0) - base) / hv;
    double rho = (base - revalued_at(ctx, p, ids[i], 0, -hr)) / hr;
    mcp_sensitivity sv = greek(r, ids[i], "vega"), sr = greek(r, ids[i], "rho");
    print_message("  %s vega %.12f (forward %.12f), rho %.12f (backward %.12f)\n", ids[i],
                  sv.value.price, vega, sr.value.price, rho);
    assert_true(fabs(sv.value.price - vega) <= 1e-9 * fmax(fabs(vega), 1e-6));
    assert_true(fabs(sr.value.price - rho) <= 1e-9 * fmax(fabs(rho), 1e-6));
  }
  /* a bump that fits neither way is refused, naming the Greek: volatilities
   * of 0.005 and 9.8 (the bound is 10) and a vega bump of 0.3 */
  add_underlying(m, "V", (bs_params){100, 0.03, 0, 9.8});
  add_european(p, "cV", "V", MCP_CALL, 100, 1, 1);
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_VEGA, 0.3), MCP_OK);
  mcp_results *bad = NULL;
  assert_int_equal(mcp_price_greeks(ctx, m, p, g, &bad), MCP_ERR_INPUT);
  assert_null(bad);
  assert_non_null(strstr(mcp_context_last_error(ctx), "vega: a bump of 0.3 leaves"));
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(european_against_black_scholes),
      cmocka_unit_test(digital_likelihood_ratio),
      cmocka_unit_test(pathwise_against_bump),
      cmocka_unit_test(heston_against_fourier),
      cmocka_unit_test(heston_model_vegas),
      cmocka_unit_test(basket_with_a_zero_weight),
      cmocka_unit_test(cross_gammas_by_revaluation),
      cmocka_unit_test(early_exercise_on_scaled_paths),
      cmocka_unit_test(himalaya_vegas),
      cmocka_unit_test(pde_greeks),
      cmocka_unit_test(book_is_the_sum_of_trades),
      cmocka_unit_test(prices_equal_mcp_price),
      cmocka_unit_test(scale_invariant_deltas),
      cmocka_unit_test(bridge_barrier_greeks),
      cmocka_unit_test(bridge_barrier_models),
      cmocka_unit_test(bridge_barrier_without_volatility),
      cmocka_unit_test(bad_requests),
      cmocka_unit_test(vega_of_a_volatility_curve),
      cmocka_unit_test(bgk_vega_is_bumped),
      cmocka_unit_test(bumps_and_the_market),
      cmocka_unit_test(one_sided_bumps),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
