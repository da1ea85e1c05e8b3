/* test_implied.c: implied-volatility surfaces (mcp_market_set_implied_volatility):
 * surfaces made from Black-Scholes (flat), from a local volatility of time
 * (whose implied total variance is its integral), from a local volatility
 * of the spot (its calls by Dupire's forward equation) and from Heston (the
 * closed form), their Europeans repriced in closed form and by Monte Carlo
 * through the Dupire surface; the SVI fit; the quotes and markets refused
 * (butterfly and calendar arbitrage named by maturity and strike); a
 * volatility shift; and the same surface from JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "src/analytic/analytic.h"
#include "src/analytic/implied.h"
#include "src/analytic/svi.h"

#define NT_MAX 8
#define NK_MAX 24

/* Quotes on caller arrays. */
typedef struct surface {
  double t[NT_MAX], k[NK_MAX], v[NT_MAX * NK_MAX];
  mcp_quotes q;
} surface;

static void make_quotes(surface *s, size_t nt, const double *t, size_t nk, double klo,
                        double khi)
{
  for (size_t i = 0; i < nt; i++)
    s->t[i] = t[i];
  for (size_t j = 0; j < nk; j++)
    s->k[j] = klo + (khi - klo) * (double)j / (double)(nk - 1);
  s->q = (mcp_quotes){NULL, nt, nk, s->t, s->k, s->v};
}

/* A market of one underlying "A" (spot 100, rate r, dividend q) with the
 * surface; the status of setting it, the market's message into err. */
static mcp_status implied_market(const surface *s, double r, double q, mcp_market **out,
                                 char *err, size_t len)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, r, q, 0.3), MCP_OK);
  mcp_status st = mcp_market_set_implied_volatility(m, "A", &s->q);
  snprintf(err, len, "%s", st == MCP_OK ? "" : mcp_market_last_error(m));
  *out = m;
  return st;
}

static mcp_market *good_market(const surface *s, double r, double q)
{
  mcp_market *m;
  char err[512];
  if (implied_market(s, r, q, &m, err, sizeof err) != MCP_OK)
    fail_msg("implied surface refused: %s", err);
  return m;
}

static void close_to(double got, double want, double tol, const char *what)
{
  if (!(fabs(got - want) <= tol))
    fail_msg("%s: %.15g, expected %.15g (error %.3g > %.3g)", what, got, want,
             fabs(got - want), tol);
}

/* A European priced on paths (method mc) within 0.5% + 4 standard errors
 * of exact, the bar. */
static void assert_repriced(const char *what, mcp_estimate e, double exact)
{
  print_message("  %-22s MC %10.5f +- %.1e  exact %10.5f  (%+.2f%%)\n", what, e.price,
                e.std_error, exact, 100 * (e.price - exact) / exact);
  if (!(fabs(e.price - exact) <= 0.005 * exact + 4 * e.std_error))
    fail_msg("%s: %.6f +- %.2e, expected %.6f within 0.5%% + 4 se", what, e.price,
             e.std_error, exact);
}

/* Europeans at the strikes and maturities on paths through the Dupire
 * surface of m, each against exact(strike, maturity). */
static void reprice_on_paths(mcp_context *ctx, const mcp_market *m, size_t nk,
                             const double *strikes, size_t nt, const double *mats,
                             double (*exact)(mcp_option_type, double, double), uint64_t paths)
{
  mcp_portfolio *p = new_portfolio(paths, 7);
  char ids[64][32];
  size_t n = 0;
  for (size_t i = 0; i < nt; i++)
    for (size_t j = 0; j < nk; j++, n++) {
      snprintf(ids[n], sizeof ids[n], "K%g T%g", strikes[j], mats[i]);
      mcp_trade t = trade_on(ids[n], "A", MCP_PRODUCT_EUROPEAN,
                             strikes[j] < 100 ? MCP_PUT : MCP_CALL, strikes[j], mats[i]);
      t.engine = MCP_ENGINE_MC;
      add_trade(p, &t);
    }
  mcp_results *r = price(ctx, m, p);
  n = 0;
  for (size_t i = 0; i < nt; i++)
    for (size_t j = 0; j < nk; j++, n++)
      assert_repriced(ids[n], estimate(r, ids[n]),
                      exact(strikes[j] < 100 ? MCP_PUT : MCP_CALL, strikes[j], mats[i]));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
}

/* ---- Black-Scholes: a flat surface --------------------------------------- */

static double flat_exact(mcp_option_type type, double strike, double maturity)
{
  return cf_black_scholes(type, 100, strike, maturity, 0.03, 0.01, 0.2);
}

static void test_flat(void **state)
{
  static const double t[] = {0.25, 0.5, 1, 2};
  surface s;
  make_quotes(&s, 4, t, 9, 60, 160);
  for (size_t i = 0; i < 4 * 9; i++)
    s.v[i] = 0.2;
  mcp_market *m = good_market(&s, 0.03, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  assert_int_equal(u->model, MCPI_MODEL_LOCAL_VOL);
  for (size_t k = 0; k < u->lv.nt * u->lv.ns; k++)
    close_to(u->lv.values[k], 0.2, 1e-9, "flat local volatility");
  close_to(mcpi_implied_vol(&u->iv, 77, 3), 0.2, 1e-12, "flat beyond the last maturity");
  close_to(mcpi_implied_vol(&u->iv, 130, 0.1), 0.2, 1e-12, "flat before the first maturity");
  /* a European by default: Black at the implied volatility */
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_european(p, "call", "A", MCP_CALL, 105, 0.7, 1);
  add_european(p, "put", "A", MCP_PUT, 90, 1.5, 1);
  mcp_results *r = price(*state, m, p);
  close_to(estimate(r, "call").price, flat_exact(MCP_CALL, 105, 0.7), 1e-12, "flat call");
  close_to(estimate(r, "put").price, flat_exact(MCP_PUT, 90, 1.5), 1e-12, "flat put");
  assert_true(estimate(r, "call").std_error == 0);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_ANALYTIC);
  mcp_results_destroy(r);
  /* whatever the book's default engine for Europeans */
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_PDE), MCP_OK);
  r = price(*state, m, p);
  assert_int_equal(mcp_results_engine(r, 1), MCP_ENGINE_ANALYTIC);
  close_to(estimate(r, "put").price, flat_exact(MCP_PUT, 90, 1.5), 1e-12, "flat put, pde book");
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  static const double ks[] = {85, 100, 120}, ts[] = {0.5, 1.5};
  reprice_on_paths(*state, m, 3, ks, 2, ts, flat_exact, 100000);
  mcp_market_destroy(m);
}

/* ---- a local volatility of time -------------------------------------------
 * sigma(t) = 0.15 + 0.1 t: the implied total variance is its square's
 * integral, flat in strike; the Dupire surface between two maturities is
 * the root of its mean square there. */

static double ts_var(double t) /* int_0^t (0.15 + 0.1 u)^2 du */
{
  return 0.0225 * t + 0.015 * t * t + 0.01 * t * t * t / 3;
}

static double ts_exact(mcp_option_type type, double strike, double maturity)
{
  /* between quoted maturities the surface's variance is linear in time */
  static const double t[] = {0.25, 0.5, 1, 2};
  double w = ts_var(maturity);
  for (int i = 1; i < 4; i++)
    if (maturity > t[i - 1] && maturity < t[i])
      w = ts_var(t[i - 1]) +
          (maturity - t[i - 1]) / (t[i] - t[i - 1]) * (ts_var(t[i]) - ts_var(t[i - 1]));
  return cf_black(type, 100 * exp(0.02 * maturity), strike, sqrt(w), exp(-0.03 * maturity));
}

static void test_time_local_vol(void **state)
{
  static const double t[] = {0.25, 0.5, 1, 2};
  surface s;
  make_quotes(&s, 4, t, 7, 70, 140);
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 7; j++)
      s.v[i * 7 + j] = sqrt(ts_var(t[i]) / t[i]);
  mcp_market *m = good_market(&s, 0.03, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  for (size_t r = 1; r < u->lv.nt; r++) { /* each interval's root mean square */
    double tm = u->lv.times[r], a = 0, b = 0.25;
    for (int i = 1; i < 4 && tm > b; i++) {
      a = t[i - 1];
      b = t[i];
    }
    if (tm > 2)
      continue;
    double want = sqrt((ts_var(b) - ts_var(a)) / (b - a));
    for (size_t k = 0; k < u->lv.ns; k++)
      close_to(u->lv.values[r * u->lv.ns + k], want, 1e-9, "local volatility of time");
  }
  static const double ks[] = {90, 110}, ts[] = {0.75, 2};
  reprice_on_paths(*state, m, 2, ks, 2, ts, ts_exact, 100000);
  mcp_market_destroy(m);
}

/* ---- Heston ---------------------------------------------------------------- */

static double heston_exact(mcp_option_type type, double strike, double maturity)
{
  double p = NAN;
  char err[256];
  if (mcp_heston_european(type, 100, strike, maturity, 0.02, 0.01, 0.04, 2, 0.04, 0.4,
                          -0.6, &p, err, sizeof err) != MCP_OK)
    fail_msg("mcp_heston_european: %s", err);
  return p;
}

static void heston_surface(surface *s)
{
  static const double t[] = {0.25, 0.5, 1, 1.5, 2};
  make_quotes(s, 5, t, 19, 55, 160);
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 19; j++) {
      double K = s->k[j], T = t[i], f = 100 * exp(0.01 * T);
      mcp_option_type ty = K >= f ? MCP_CALL : MCP_PUT;
      double undiscounted = heston_exact(ty, K, T) * exp(0.02 * T);
      s->v[i * 19 + j] = mcpi_black_implied(ty, f, K, undiscounted) / sqrt(T);
    }
}

static void test_heston(void **state)
{
  surface s;
  heston_surface(&s);
  mcp_market *m = good_market(&s, 0.02, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  /* the smiles pass near every quote; a European's closed form is Black at
   * the smile's volatility */
  double worst = 0;
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 19; j++)
      worst = fmax(worst, fabs(mcpi_implied_vol(&u->iv, s.k[j], s.t[i]) - s.v[i * 19 + j]));
  print_message("  SVI's worst miss of a Heston quote: %.3g volatility points\n", 100 * worst);
  assert_true(worst < 0.002);
  static const double ks[] = {80, 90, 100, 110, 120}, ts[] = {0.5, 0.75, 1.5};
  reprice_on_paths(*state, m, 5, ks, 3, ts, heston_exact, 200000);
  mcp_market_destroy(m);
}

/* ---- a local volatility of the spot ---------------------------------------
 * sigma(S) = 0.25 (S / 100)^-0.4 (kept in [0.1, 0.6]): its calls at every
 * strike and maturity by Dupire's forward equation in log-strike y,
 *   C_T = sigma^2 / 2 (C_yy - C_y) - (r - q) C_y - q C,  C(0) = (S - K)+,
 * by Crank-Nicolson (two implicit steps first) on 1201 nodes and 2000
 * steps a year: a reference of its own for the surface made from it. */

#define CEV_R 0.02
#define CEV_Q 0.01

static double cev_vol(double s)
{
  return fmin(0.6, fmax(0.1, 0.25 * pow(s / 100, -0.4)));
}

/* Solves the tridiagonal system (a below, b on, c above the diagonal) for
 * d in place; w is scratch. */
static void tridiag(int n, const double *a, const double *b, const double *c, double *d,
                    double *w)
{
  w[0] = c[0] / b[0];
  d[0] /= b[0];
  for (int i = 1; i < n; i++) {
    double m = b[i] - a[i] * w[i - 1];
    w[i] = c[i] / m;
    d[i] = (d[i] - a[i] * d[i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; i--)
    d[i] -= w[i] * d[i + 1];
}

#define CEV_N 1201
/* The calls of strikes k[0..nk) at the maturities t[0..nt) (increasing)
 * into c[i nk + j]. */
static void cev_calls(size_t nt, const double *t, size_t nk, const double *k, double *c)
{
  static double y[CEV_N], v[CEV_N], lo[CEV_N], di[CEV_N], up[CEV_N], rhs[CEV_N], w[CEV_N];
  double y0 = log(20.0), y1 = log(500.0), h = (y1 - y0) / (CEV_N - 1), now = 0;
  for (int i = 0; i < CEV_N; i++) {
    y[i] = y0 + h * i;
    v[i] = fmax(100 - exp(y[i]), 0);
  }
  int step = 0;
  for (size_t m = 0; m < nt; m++) {
    int steps = (int)ceil((t[m] - now) * 2000);
    double dt = (t[m] - now) / steps;
    for (int s = 0; s < steps; s++, step++) {
      double th = step < 2 ? 1 : 0.5; /* implicit, then Crank-Nicolson */
      for (int i = 1; i < CEV_N - 1; i++) {
        double s2 = 0.5 * cev_vol(exp(y[i])) * cev_vol(exp(y[i]));
        double al = s2 / (h * h), be = (-s2 - (CEV_R - CEV_Q)) / (2 * h);
        /* L v = al (v+ - 2v + v-) + be (v+ - v-) - q v */
        double l_lo = al - be, l_di = -2 * al - CEV_Q, l_up = al + be;
        rhs[i] = v[i] + (1 - th) * dt * (l_lo * v[i - 1] + l_di * v[i] + l_up * v[i + 1]);
        lo[i] = -th * dt * l_lo;
        di[i] = 1 - th * dt * l_di;
        up[i] = -th * dt * l_up;
      }
      /* deep in the money: the discounted forward less the strike; far out: 0 */
      double T = now + (s + 1) * dt;
      lo[0] = up[0] = 0, di[0] = 1,
      rhs[0] = 100 * exp(-CEV_Q * T) - exp(y[0]) * exp(-CEV_R * T);
      lo[CEV_N - 1] = up[CEV_N - 1] = 0, di[CEV_N - 1] = 1, rhs[CEV_N - 1] = 0;
      tridiag(CEV_N, lo, di, up, rhs, w);
      memcpy(v, rhs, sizeof v);
    }
    now = t[m];
    for (size_t j = 0; j < nk; j++) { /* cubic in log-strike between nodes */
      double x = (log(k[j]) - y0) / h;
      int i = (int)floor(x) - 1;
      double f = x - floor(x), p0 = v[i], p1 = v[i + 1], p2 = v[i + 2], p3 = v[i + 3];
      c[m * nk + j] = p1 + 0.5 * f *
                               (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 +
                                               f * (3 * (p1 - p2) + p3 - p0)));
    }
  }
}

static double cev_exact(mcp_option_type type, double strike, double maturity)
{
  double c;
  cev_calls(1, &maturity, 1, &strike, &c);
  /* a put by parity */
  return type == MCP_CALL ? c
                          : c - 100 * exp(-CEV_Q * maturity) + strike * exp(-CEV_R * maturity);
}

static void test_spot_local_vol(void **state)
{
  static const double t[] = {0.5, 1, 2};
  surface s;
  make_quotes(&s, 3, t, 15, 70, 140);
  double c[3 * 15];
  cev_calls(3, t, 15, s.k, c);
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 15; j++) {
      double f = 100 * exp((CEV_R - CEV_Q) * t[i]), K = s.k[j];
      double call = c[i * 15 + j] * exp(CEV_R * t[i]);
      s.v[i * 15 + j] = K >= f ? mcpi_black_implied(MCP_CALL, f, K, call) / sqrt(t[i])
                               : mcpi_black_implied(MCP_PUT, f, K, call - (f - K)) / sqrt(t[i]);
    }
  mcp_market *m = good_market(&s, CEV_R, CEV_Q);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  /* the surface's local volatility near the money is the one it was made of */
  double worst = 0;
  for (size_t r = 0; r < u->lv.nt; r++)
    for (size_t k = 0; k < u->lv.ns; k++) {
      double tm = u->lv.times[r], sp = u->lv.spots[k];
      if (tm >= 0.25 && tm <= 2 && sp >= 85 && sp <= 120)
        worst = fmax(worst, fabs(u->lv.values[r * u->lv.ns + k] / cev_vol(sp) - 1));
    }
  print_message("  local volatility from its own implied surface: worst %.2f%% near the "
                "money\n", 100 * worst);
  assert_true(worst < 0.01);
  static const double ks[] = {80, 100, 120}, ts[] = {0.5, 1, 2};
  reprice_on_paths(*state, m, 3, ks, 3, ts, cev_exact, 200000);
  mcp_market_destroy(m);
}

/* ---- the SVI fit ---------------------------------------------------------- */

static void test_svi_fit(void **state)
{
  (void)state;
  /* a smile SVI holds is found again */
  const mcpi_svi want = {0.02, 0.1, -0.4, 0.05, 0.2};
  double k[15], w[15], d, dd;
  for (int j = 0; j < 15; j++) {
    k[j] = -0.7 + 0.1 * j;
    w[j] = mcpi_svi_w(&want, k[j], &d, &dd);
  }
  mcpi_svi got;
  assert_true(mcpi_svi_fit(15, k, w, &got));
  for (int j = 0; j < 15; j++)
    close_to(mcpi_svi_w(&got, k[j], &d, &dd), w[j], 1e-8, "SVI smile refitted");
  close_to(got.rho, want.rho, 1e-4, "rho");
  close_to(got.m, want.m, 1e-4, "m");
  /* wings steeper than Lee's bound are held to it */
  for (int j = 0; j < 15; j++)
    w[j] = 0.04 + 3 * fabs(k[j]);
  assert_true(mcpi_svi_fit(15, k, w, &got));
  assert_true(got.b * (1 + fabs(got.rho)) <= 2 + 1e-9);
  /* one quote: flat */
  assert_true(mcpi_svi_fit(1, k, w, &got));
  close_to(mcpi_svi_w(&got, 0.3, &d, &dd), w[0], 0, "one quote, flat");
  w[3] = NAN;
  assert_false(mcpi_svi_fit(15, k, w, &got));
}

/* The fits again with quote j's total variance moved by h each way. */
static void fits_moved(size_t n, const double *k, double *w, size_t j, double h, mcpi_svi *up,
                       mcpi_svi *dn)
{
  double x = w[j];
  w[j] = x + h;
  assert_true(mcpi_svi_fit(n, k, w, up));
  w[j] = x - h;
  assert_true(mcpi_svi_fit(n, k, w, dn));
  w[j] = x;
}

/* The fit's coordinates p = (a, b rho s, b s, m, s) moved by quote j's
 * total variance: central differences of the fit again, into fd. */
static void fit_moved(size_t n, const double *k, double *w, size_t j, double fd[5])
{
  mcpi_svi up, dn;
  fits_moved(n, k, w, j, 1e-6, &up, &dn);
  const double u[5] = {up.a, up.b * up.rho * up.s, up.b * up.s, up.m, up.s};
  const double d[5] = {dn.a, dn.b * dn.rho * dn.s, dn.b * dn.s, dn.m, dn.s};
  for (int c = 0; c < 5; c++)
    fd[c] = (u[c] - d[c]) / 2e-6;
}

/* The fitted smile's move at x by quote j's total variance, likewise. */
static double smile_moved(size_t n, const double *k, double *w, size_t j, double x)
{
  mcpi_svi up, dn;
  double d, dd;
  fits_moved(n, k, w, j, 1e-5, &up, &dn);
  return (mcpi_svi_w(&up, x, &d, &dd) - mcpi_svi_w(&dn, x, &d, &dd)) / 2e-5;
}

/* The fit's move at log-strike k for its coordinates' derivatives dpq in
 * one quote (5 of them). */
static double move_at(const mcpi_svi *fit, double k, const double *dpq)
{
  double gw[5], gk[5], gkk[5], move = 0;
  mcpi_svi_grad(fit, k, gw, gk, gkk);
  for (int c = 0; c < 5; c++)
    move += gw[c] * dpq[c];
  return move;
}

/* The fit's derivatives in its quotes (mcpi_svi_fit_jacobian): against the
 * fit again with one quote moved; and a parallel move of every total
 * variance moves the smile by as much at each quote (exactly where it holds
 * the quotes, nearly where it misses them a little), for a smile SVI holds,
 * a nearly flat one and one of a few days over a narrow range of strikes
 * (fits of s near 0, the Hessian's m and s rows as 1 / s^2, their
 * coordinates not all fixed by the smile).  Such smiles are not refused
 * (a fit without derivatives would leave its surface no quote vegas, never
 * its prices). */
static void test_svi_jacobian(void **state)
{
  (void)state;
  const mcpi_svi want = {0.02, 0.1, -0.4, 0.05, 0.2};
  double k[15], w[15], d, dd, dp[5 * 15], kn[9], wn[9], kt[9], wt[9];
  for (int j = 0; j < 15; j++) {
    k[j] = -0.7 + 0.1 * j;
    w[j] = mcpi_svi_w(&want, k[j], &d, &dd);
  }
  for (int j = 0; j < 9; j++) {
    kn[j] = -0.4 + 0.1 * j;
    wn[j] = 0.04 * (1 + 0.002 * sin(3.0 * j));
    kt[j] = -0.028 + 0.007 * j;
    wt[j] = 0.02 * pow(0.2 + 0.5 * fabs(kt[j]) + 0.001 * sin(2.0 * j), 2);
  }
  mcpi_svi got;
  assert_true(mcpi_svi_fit(15, k, w, &got));
  assert_true(mcpi_svi_fit_jacobian(15, k, w, &got, dp));
  for (int j = 3; j < 12; j += 4) {
    double fd[5];
    fit_moved(15, k, w, j, fd);
    for (int c = 0; c < 5; c++)
      close_to(dp[5 * j + c], fd[c], 1e-3 * (1 + fabs(dp[5 * j + c])),
               "the fit's derivative against the fit again");
  }
  /* five quotes for five coordinates, Lee's bound binding: H's least
   * eigenvalue is far under 1e-12 of its diagonal (a ridge there was 20%
   * off) */
  static const double K5[5] = {80, 90, 100, 110, 120};
  static const double v5[5] = {0.25, 0.225, 0.21, 0.2, 0.198};
  double k5[5], w5[5], dp5[25];
  for (int j = 0; j < 5; j++) {
    k5[j] = log(K5[j] / 100) - 0.02;
    w5[j] = v5[j] * v5[j];
  }
  assert_true(mcpi_svi_fit(5, k5, w5, &got));
  assert_true(mcpi_svi_fit_jacobian(5, k5, w5, &got, dp5));
  assert_true(fabs(2 * got.s - got.b * got.s * (1 - got.rho)) < 1e-9);
  for (int j = 0; j < 5; j += 2) {
    double fd[5];
    fit_moved(5, k5, w5, j, fd);
    close_to(dp5[5 * j], fd[0], 0.03 * fabs(dp5[5 * j]),
             "a binding smile's derivative against the fit again");
  }
  /* a 10-day smile whose search stops just short of Lee's bound (a ridge
   * there was far off): its moves at each quote against the fit again */
  static const double w10[5] = {0.003055573075500027, 0.0023336008782128001,
                                0.0020037663140450475, 0.0019145674439566191,
                                0.0020473117269881533};
  double wt10[5];
  for (int j = 0; j < 5; j++)
    wt10[j] = w10[j];
  assert_true(mcpi_svi_fit(5, k5, wt10, &got));
  assert_true(mcpi_svi_fit_jacobian(5, k5, wt10, &got, dp5));
  for (int i = 0; i < 5; i++)
    close_to(move_at(&got, k5[i], dp5 + 5), smile_moved(5, k5, wt10, 1, k5[i]), 0.02,
             "a 10-day smile's move against the fit again");
  /* quotes all at one volatility: the fit's b is 0 or rounding's, m and s
   * move nothing; a quote moves the flat smile by its weight's share (a
   * fit there is not differentiable: moved up, a quote tilts it) */
  for (int j = 0; j < 7; j++) {
    kn[j] = -0.3 + 0.1 * j;
    wn[j] = 0.04;
  }
  assert_true(mcpi_svi_fit(7, kn, wn, &got));
  assert_true(mcpi_svi_fit_jacobian(7, kn, wn, &got, dp));
  for (int i = 0; i < 7; i++)
    close_to(move_at(&got, kn[i], dp + 5 * 2), 1.0 / 7, 1e-9, "a flat smile's move");
  for (int j = 0; j < 9; j++) { /* the nearly flat smile again */
    kn[j] = -0.4 + 0.1 * j;
    wn[j] = 0.04 * (1 + 0.002 * sin(3.0 * j));
  }
  const struct {
    size_t n;
    const double *k, *w;
    double tol;
  } smiles[3] = {{15, k, w, 1e-6}, {9, kn, wn, 1e-2}, {9, kt, wt, 1e-2}};
  for (int x = 0; x < 3; x++) {
    assert_true(mcpi_svi_fit(smiles[x].n, smiles[x].k, smiles[x].w, &got));
    assert_true(mcpi_svi_fit_jacobian(smiles[x].n, smiles[x].k, smiles[x].w, &got, dp));
    double worst = 0;
    for (size_t i = 0; i < smiles[x].n; i++) { /* the smile's move at each quote */
      double move = 0;
      for (size_t j = 0; j < smiles[x].n; j++)
        move += move_at(&got, smiles[x].k[i], dp + 5 * j);
      worst = fmax(worst, fabs(move - 1));
    }
    print_message("  smile %d (b %.3g, s %.3g): a parallel move of its quotes moves it by 1 "
                  "within %.2g\n", x, got.b, got.s, worst);
    assert_true(worst <= smiles[x].tol);
  }
  /* the nearly flat smile's surface is kept, its quote vegas with it */
  surface s;
  static const double t[2] = {0.5, 1};
  make_quotes(&s, 2, t, 9, 70, 130);
  for (size_t i = 0; i < 18; i++)
    s.v[i] = 0.2 * (1 + 0.002 * sin(3.0 * (double)i));
  mcp_market *m = good_market(&s, 0.02, 0.01);
  assert_true(mcpi_market_find(m, "A")->iv.qvegas);
  mcp_market_destroy(m);
}

/* ---- refusals ------------------------------------------------------------- */

static void refused(const surface *s, const char *needle)
{
  mcp_market *m;
  char err[512];
  assert_int_equal(implied_market(s, 0.02, 0.01, &m, err, sizeof err), MCP_ERR_INPUT);
  if (!strstr(err, needle))
    fail_msg("expected '%s' in: %s", needle, err);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  assert_int_equal(u->model, MCPI_MODEL_BLACK_SCHOLES); /* left as it was */
  assert_int_equal(u->iv.n, 0);
  mcp_market_destroy(m);
}

static void test_refusals(void **state)
{
  (void)state;
  static const double t[] = {0.5, 1};
  surface s;
  make_quotes(&s, 2, t, 7, 70, 130);
  for (size_t i = 0; i < 14; i++)
    s.v[i] = 0.2;
  /* calendar: the later maturity's total variance below the earlier's */
  for (size_t j = 0; j < 7; j++)
    s.v[7 + j] = 0.12;
  refused(&s, "maturities 0.5 and 1 (volatilities[0] and [1]): the total variance falls");
  /* butterfly: a spike at strike 100 */
  for (size_t j = 0; j < 7; j++)
    s.v[7 + j] = 0.2;
  s.v[3] = 0.4;
  refused(&s, "maturity 0.5: the quotes at strikes 90, 100 and 110 (volatilities[0][2], [0][3] "
              "and [0][4]) give calls not convex in strike (butterfly arbitrage)");
  /* too few quotes for a smile */
  s.v[3] = 0.2;
  s.v[0] = s.v[1] = s.v[2] = NAN;
  refused(&s, "expected 5 or more volatilities");
  s.v[0] = s.v[1] = s.v[2] = 0.2;
  s.v[8] = 0;
  refused(&s, "volatilities[1][1]: expected a volatility in (0, 10]");
  s.v[8] = 0.2;
  s.t[1] = 0.5;
  refused(&s, "maturities[1]: expected a maturity after the one before");
  s.t[1] = 1;
  /* calls convex between the quotes but not with the forward, C(0) = F:
   * 1.2 at strike 50, then a call 0.9 lower at 60 */
  static const double t1[] = {1};
  surface a;
  make_quotes(&a, 1, t1, 5, 50, 90);
  double f = 100 * exp(0.01), c50 = mcpi_black_call(f, 50, 1.2).call;
  a.v[0] = 1.2;
  a.v[1] = mcpi_black_implied(MCP_CALL, f, 60, c50 - 9);
  a.v[2] = a.v[3] = a.v[4] = 0.3;
  assert_true(a.v[1] > 0 && a.v[1] < 1.2);
  refused(&a, "maturity 1: the quotes at strikes 0 (the forward), 50 and 60 (volatilities[0][0] "
              "and [0][1]) give calls not convex in strike");
  /* a smile SVI cannot hold, though its calls stay convex */
  static const double wild[] = {0.212, 0.411, 0.381, 0.380, 0.178, 0.199, 0.214};
  surface z;
  make_quotes(&z, 2, t, 7, 40, 160);
  for (size_t j = 0; j < 7; j++)
    z.v[j] = (z.v[7 + j] = wild[j] + 0.05) - 0.05;
  refused(&z, "volatility points from the quote at strike 40 (volatilities[0][0]); expected "
              "quotes that an arbitrage-free SVI smile holds within 2 points");
  /* the market's own refusals */
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0, 0.04, 1, 0.04, 0.5, -0.5),
                   MCP_OK);
  assert_int_equal(mcp_market_set_implied_volatility(m, "H", &s.q), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "expected a Black-Scholes underlying"));
  assert_int_equal(mcp_market_set_implied_volatility(m, "nobody", &s.q), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_market_set_implied_volatility(m, "H", NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_market_add_black_scholes(m, "C", 100, 0.02, 0, 0.2), MCP_OK);
  static const double dt[] = {0.3}, da[] = {1};
  assert_int_equal(mcp_market_set_cash_dividends(m, "C", 1, dt, da), MCP_OK);
  assert_int_equal(mcp_market_set_implied_volatility(m, "C", &s.q), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "cash dividends"));
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.02, 0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_set_implied_volatility(m, "A", &s.q), MCP_OK);
  static const double e[] = {1}, v[] = {0.01};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 1, e, v), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "set before the implied volatilities"));
  mcp_market_destroy(m);
}

/* ---- shifts --------------------------------------------------------------- */

/* A European's vega on an implied surface: the surface moved in parallel,
 * so Black's vega at the strike's implied volatility; its delta Black's
 * at a fixed volatility (sticky strike). */
static void test_greeks(void **state)
{
  surface s;
  heston_surface(&s);
  mcp_market *m = good_market(&s, 0.02, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_european(p, "c", "A", MCP_CALL, 110, 0.8, 1);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,vega"), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, g);
  mcp_greeks_destroy(g);
  double v = mcpi_implied_vol(&u->iv, 110, 0.8), f = 100 * exp(0.01 * 0.8), h = 0.01;
  double df = exp(-0.02 * 0.8);
  double vega = (cf_black(MCP_CALL, f, 110, (v + h) * sqrt(0.8), df) -
                 cf_black(MCP_CALL, f, 110, (v - h) * sqrt(0.8), df)) / (2 * h);
  double delta = (cf_black(MCP_CALL, f * (1 + 1e-5), 110, v * sqrt(0.8), df) -
                  cf_black(MCP_CALL, f * (1 - 1e-5), 110, v * sqrt(0.8), df)) / (2e-5 * 100);
  close_to(estimate(r, "c").price, cf_black(MCP_CALL, f, 110, v * sqrt(0.8), df), 1e-12,
           "price");
  close_to(greek(r, "c", "vega").value.price, vega, 1e-4 * vega, "vega");
  close_to(greek(r, "c", "delta").value.price, delta, 1e-6, "delta");
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- quote vegas ------------------------------------------------------------
 * The local volatility's derivatives in the quotes (mcpi_implied_row_grad and
 * mcpi_implied_chain)
 * against the surface built again with one quote moved each way (the grid
 * stays: the quotes below are not the greatest variance, which sets its
 * spots); then a trade's vega by quote (buckets, by adjoint) against its
 * price at those surfaces on the same paths, and its total vega against
 * the same grid given as a local-volatility surface. */

static const size_t moved[3][2] = {{1, 9}, {2, 8}, {2, 12}};

static mcp_market *moved_market(const surface *base, size_t i, size_t j, double h)
{
  surface s = *base;
  s.q.maturities = s.t, s.q.strikes = s.k, s.q.vols = s.v;
  s.v[i * s.q.nstrikes + j] += h;
  return good_market(&s, 0.02, 0.01);
}

/* The portfolio priced at make's markets with quote (i, j) moved by h
 * each way, into *up and *dn. */
static void price_moved(void **state, mcp_market *(*make)(const surface *, size_t, size_t, double),
                        const surface *s, size_t i, size_t j, double h, const mcp_portfolio *p,
                        mcp_results **up, mcp_results **dn)
{
  mcp_market *mu = make(s, i, j, h), *md = make(s, i, j, -h);
  *up = price(*state, mu, p);
  *dn = price(*state, md, p);
  mcp_market_destroy(mu);
  mcp_market_destroy(md);
}

static void test_quote_jacobian(void **state)
{
  (void)state;
  surface s;
  heston_surface(&s);
  mcp_market *m = good_market(&s, 0.02, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  assert_int_equal(u->iv.nq, 5 * 19);
  static double jac[201 * 2 * 19], grad[201 * 10];
  double h = 1e-5, worst = 0;
  size_t checked = 0;
  for (int x = 0; x < 3; x++) {
    size_t i = moved[x][0], j = moved[x][1], q = u->iv.qoff[i] + j;
    mcp_market *up = moved_market(&s, i, j, h), *dn = moved_market(&s, i, j, -h);
    const mcpi_surface *a = &mcpi_market_find(up, "A")->lv, *b = &mcpi_market_find(dn, "A")->lv;
    assert_int_equal(a->ns, u->lv.ns);
    assert_memory_equal(a->spots, u->lv.spots, u->lv.ns * sizeof(double));
    assert_memory_equal(b->spots, u->lv.spots, u->lv.ns * sizeof(double));
    for (size_t r = 0; r < u->lv.nt; r++) {
      size_t first = 0, q0 = 0, n = 0;
      assert_true(mcpi_implied_row_grad(&u->iv, &u->lv, r, &first, grad));
      for (size_t c = 0; c < u->lv.ns; c++)
        n = mcpi_implied_chain(&u->iv, grad + 10 * c, first, 1, &q0, jac + c * n);
      assert_true(n > 0 && n <= 2 * 19);
      /* a row reads the smiles about its time: the rest of the quotes none */
      int reads = q >= q0 && q < q0 + n;
      for (size_t c = 0; c < u->lv.ns; c++) {
        double fd = (a->values[r * a->ns + c] - b->values[r * b->ns + c]) / (2 * h);
        double got = reads ? jac[c * n + q - q0] : 0;
        if (u->lv.values[r * u->lv.ns + c] > 1) /* Dupire's far wings: steep */
          continue;
        worst = fmax(worst, fabs(fd - got) / (0.1 + fabs(got)));
        checked++;
      }
    }
    mcp_market_destroy(up);
    mcp_market_destroy(dn);
  }
  print_message("  %zu nodes, worst |difference| / (0.1 + |derivative|) %.3g\n", checked, worst);
  assert_true(checked > 3 * 30 * 150);
  assert_true(worst < 1e-3);
  mcp_market_destroy(m);
}

static void test_quote_vegas(void **state)
{
  surface s;
  heston_surface(&s);
  mcp_market *m = good_market(&s, 0.02, 0.01);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  static const double fix[4] = {0.25, 0.5, 0.75, 0.9};
  mcp_portfolio *p = new_portfolio(20000, 11);
  add_asian(p, "asian", "A", MCP_ARITHMETIC, MCP_CALL, 100, 4, fix, 0.9, 1);
  add_european(p, "put", "A", MCP_PUT, 105, 0.75, 1); /* in closed form */
  mcp_greeks *g = greeks_request("vega", 1);
  mcp_results *r = price_greeks(*state, m, p, g);
  double h = 1e-4, sum = 0;
  for (int x = 0; x < 3; x++) {
    size_t i = moved[x][0], j = moved[x][1];
    char name[64];
    snprintf(name, sizeof name, "vega@T=%g,K=%g", s.t[i], s.k[j]);
    mcp_sensitivity v = greek(r, "asian", name), e = greek(r, "put", name);
    assert_int_equal(v.method, MCP_METHOD_ADJOINT);
    assert_int_equal(e.method, MCP_METHOD_ANALYTIC);
    mcp_results *ru, *rd;
    price_moved(state, moved_market, &s, i, j, h, p, &ru, &rd);
    double fd = (estimate(ru, "asian").price - estimate(rd, "asian").price) / (2 * h);
    double fe = (estimate(ru, "put").price - estimate(rd, "put").price) / (2 * h);
    print_message("  %s: Asian by adjoint %.6f, bumps %.6f; European %.6f, bumps %.6f\n", name,
                  v.value.price, fd, e.value.price, fe);
    close_to(v.value.price, fd, 0.01 * fabs(fd) + 1e-3, name);
    close_to(e.value.price, fe, 1e-3 * fabs(fe) + 1e-5, name);
    mcp_results_destroy(ru);
    mcp_results_destroy(rd);
  }
  /* every quote a bucket; those after the trade's last date none */
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 19; j++) {
      char name[64];
      snprintf(name, sizeof name, "vega@T=%g,K=%g", s.t[i], s.k[j]);
      double v = greek(r, "asian", name).value.price, e = greek(r, "put", name).value.price;
      sum += v;
      if (s.t[i] > 1)
        assert_true(v == 0 && e == 0);
      if (s.t[i] > 1 || (s.t[i] < 0.5 && i == 0))
        assert_true(e == 0); /* the European at 0.75 reads the smiles at 0.5 and 1 */
    }
  /* the total is the grid's (a parallel move of the local volatility, as
   * the bumps' vega), not the quotes' sum: the grid as a surface of its own
   * (too many nodes for buckets; the dividend's sensitivity keeps the
   * adjoint) */
  mcp_market *lv = new_market();
  assert_int_equal(mcp_market_add_local_vol(lv, "A", 100, 0.02, 0.01, u->lv.nt, u->lv.times,
                                            u->lv.ns, u->lv.spots, u->lv.values),
                   MCP_OK);
  mcp_greeks *gd = greeks_request("vega,dividend", 0);
  mcp_results *rl = price_greeks(*state, lv, p, gd);
  mcp_greeks_destroy(gd);
  double total = greek(r, "asian", "vega").value.price;
  assert_int_equal(greek(rl, "asian", "vega").method, MCP_METHOD_ADJOINT);
  close_to(total, greek(rl, "asian", "vega").value.price, 1e-9 * fabs(total), "total vega");
  print_message("  vega %.6f; the quotes' sum %.6f\n", total, sum);
  assert_true(fabs(sum - total) > 1e-6);
  assert_int_equal(mcp_results_warnings(r, 1) & MCP_WARNING_BUCKETS, 0);
  mcp_results_destroy(rl);
  mcp_market_destroy(lv);
  mcp_greeks_destroy(g);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A basket of A and B, both given the surface (A's quotes moved by h at
 * (i, j)), correlated 0.5: its quote vegas chain each slice node to the
 * quotes (several assets' sweep) where one asset's hold its smiles. */
static mcp_market *basket_market(const surface *base, size_t i, size_t j, double h)
{
  mcp_market *m = moved_market(base, i, j, h);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 100, 0.02, 0.01, 0.3), MCP_OK);
  assert_int_equal(mcp_market_set_implied_volatility(m, "B", &base->q), MCP_OK);
  static const char *const ab[2] = {"A", "B"};
  static const double corr[4] = {1, 0.5, 0.5, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ab, corr), MCP_OK);
  return m;
}

static void test_basket_quote_vegas(void **state)
{
  surface s;
  heston_surface(&s);
  s.q.maturities = s.t, s.q.strikes = s.k, s.q.vols = s.v;
  mcp_market *m = basket_market(&s, 0, 0, 0);
  mcp_portfolio *p = new_portfolio(20000, 5);
  static const char *const ab[2] = {"A", "B"};
  mcp_trade t = trade_on("basket", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 0.9);
  t.nassets = 2, t.assets = ab;
  add_trade(p, &t);
  mcp_greeks *g = greeks_request("vega", 1);
  mcp_results *r = price_greeks(*state, m, p, g);
  double h = 1e-4;
  for (int x = 0; x < 3; x++) {
    size_t i = moved[x][0], j = moved[x][1];
    char name[64];
    snprintf(name, sizeof name, "vega:A@T=%g,K=%g", s.t[i], s.k[j]);
    mcp_sensitivity v = greek(r, "basket", name);
    assert_int_equal(v.method, MCP_METHOD_ADJOINT);
    assert_string_equal(v.underlying, "A");
    mcp_results *ru, *rd;
    price_moved(state, basket_market, &s, i, j, h, p, &ru, &rd);
    double fd = (estimate(ru, "basket").price - estimate(rd, "basket").price) / (2 * h);
    print_message("  basket, A's %s: adjoint %.6f, bumps %.6f\n", name, v.value.price, fd);
    close_to(v.value.price, fd, 0.01 * fabs(fd) + 1e-3, name);
    mcp_results_destroy(ru);
    mcp_results_destroy(rd);
  }
  mcp_greeks_destroy(g);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- JSON ------------------------------------------------------------------ */

static void test_json(void **state)
{
  (void)state;
  static const char text[] =
      "{\"rate\": 0.02, \"underlyings\": [{\"name\": \"A\", \"model\": \"local-volatility\", "
      "\"spot\": 100, \"dividend\": 0.01, \"implied_volatility\": {\"maturities\": [0.5, 1], "
      "\"moneyness\": [0.8, 0.9, 1, 1.1, 1.2], \"volatilities\": [[0.26, 0.23, 0.21, 0.2, "
      "0.2], [0.25, 0.23, 0.215, 0.205, 0.2]]}}]}";
  mcp_market *m = NULL;
  char err[512];
  if (mcp_market_load_text(&m, "m.json", text, strlen(text), err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  assert_int_equal(u->iv.n, 2);
  close_to(u->iv.spot, 100, 0, "spot");
  close_to(mcpi_implied_vol(&u->iv, 90, 0.5), 0.23, MCPI_SVI_MAX_MISS, "a quote");
  mcp_market_destroy(m);
  /* a model fitted to it replaces the surface in the market's text */
  mcp_fit fit = {.model = MCP_FIT_HESTON, .nparams = 5, .params = {0.04, 1.5, 0.05, 0.6, -0.7}};
  char *out = NULL;
  size_t n = 0;
  if (mcp_market_text_fitted("m.json", text, strlen(text), "A", &fit, &out, &n, err,
                             sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_null(strstr(out, "implied_volatility"));
  if (mcp_market_load_text(&m, "fitted.json", out, n, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_int_equal(mcpi_market_find(m, "A")->model, MCPI_MODEL_HESTON);
  mcp_market_destroy(m);
  mcp_free(out);
  /* both surfaces, or a volatility beside one, are refused at the field */
  static const char both[] =
      "{\"rate\": 0.02, \"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": "
      "0.2,\n \"implied_volatility\": {\"maturities\": [1], \"strikes\": [100], "
      "\"volatilities\": [[0.2]]}}]}";
  assert_int_equal(mcp_market_load_text(&m, "m.json", both, strlen(both), err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "m.json:2:"));
  assert_non_null(strstr(err, "underlyings[0].implied_volatility: expected either"));
  static const char bad[] =
      "{\"rate\": 0.02, \"underlyings\": [{\"name\": \"A\", \"spot\": 100,\n "
      "\"implied_volatility\": {\"maturities\": [1, 2], \"strikes\": [100], "
      "\"volatilities\": [[0.2], [0.1]]}}]}";
  assert_int_equal(mcp_market_load_text(&m, "m.json", bad, strlen(bad), err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "calendar arbitrage"));
  assert_non_null(strstr(err, "m.json:2:"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_flat, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_time_local_vol, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_heston, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_spot_local_vol, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_svi_fit),
      cmocka_unit_test(test_svi_jacobian),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test_setup_teardown(test_greeks, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_quote_jacobian),
      cmocka_unit_test_setup_teardown(test_quote_vegas, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_basket_quote_vegas, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
