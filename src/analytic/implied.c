/* implied.c: implied-volatility surfaces (implied.h) and
 * mcp_market_set_implied_volatility.  Dupire's formula in total implied
 * variance w(k, t) (Gatheral, "The Volatility Surface", 2006, eq. 1.10):
 *   sigma_loc^2 = w_t / g,
 *   g = 1 - k w_k / w + (-1/4 - 1/w + k^2 / w^2) w_k^2 / 4 + w_kk / 2,
 * g being the density's factor that butterfly arbitrage makes negative
 * (mcpi_dupire_density). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "src/analytic/analytic.h"
#include "src/analytic/implied.h"
#include "src/analytic/svi.h"
#include "src/base/validate.h"

/* The local-volatility grid: NT times in each interval between maturities
 * (and one just after each maturity, where w_t jumps), then a few beyond
 * the last; NS spots, log-spaced over the quotes' moneyness widened by
 * WIDEN standard deviations. */
#define NT 8
#define NS 201
#define WIDEN 2.5
#define JUST_AFTER 1e-6
static const double beyond[] = {1.5, 2, 3, 5, 10};

static mcpi_svi slice(const mcpi_implied *s, size_t i)
{
  const double *p = s->svi + 5 * i;
  return (mcpi_svi){p[0], p[1], p[2], p[3], p[4]};
}

double mcpi_implied_log_forward(const mcpi_implied *s, double t)
{
  return log(s->spot) + mcpi_curve_integral(&s->rate, 0, t) -
         mcpi_curve_integral(&s->dividend, 0, t);
}

mcpi_total_var mcpi_implied_total_var(const mcpi_implied *s, double k, double t)
{
  size_t i = 0, n = s->n;
  while (i < n && t > s->t[i])
    i++;
  mcpi_total_var v;
  if (i == 0) { /* the first smile's implied volatilities */
    mcpi_svi p = slice(s, 0);
    double f = t / s->t[0], w = mcpi_svi_w(&p, k, &v.wk, &v.wkk);
    return (mcpi_total_var){f * w, f * v.wk, f * v.wkk, w / s->t[0]};
  }
  if (i == n) { /* the last smile, its at-the-money variance rate added */
    mcpi_svi p = slice(s, n - 1);
    double d, dd, rate = mcpi_svi_w(&p, 0, &d, &dd) / s->t[n - 1];
    v.w = mcpi_svi_w(&p, k, &v.wk, &v.wkk) + rate * (t - s->t[n - 1]);
    v.wt = rate;
    return v;
  }
  mcpi_svi p0 = slice(s, i - 1), p1 = slice(s, i);
  double k0, kk0, k1, kk1, w0 = mcpi_svi_w(&p0, k, &k0, &kk0), w1 = mcpi_svi_w(&p1, k, &k1, &kk1);
  double dt = s->t[i] - s->t[i - 1], l = (t - s->t[i - 1]) / dt;
  return (mcpi_total_var){w0 + l * (w1 - w0), k0 + l * (k1 - k0), kk0 + l * (kk1 - kk0),
                          (w1 - w0) / dt};
}

double mcpi_implied_vol(const mcpi_implied *s, double strike, double t)
{
  double k = log(strike) - mcpi_implied_log_forward(s, t);
  double v = s->scale * sqrt(mcpi_implied_total_var(s, k, t).w / t) + s->shift;
  return v > 0 ? v : NAN;
}

typedef struct building {
  const mcp_quotes *q;
  mcpi_implied *s;
  char *err;
} building;

/* The quotes of maturity i that bracket moneyness k: their strikes into
 * *a and *b (equal beyond the quotes). */
static void bracket(const building *bd, size_t i, double k, double *a, double *b)
{
  const mcp_quotes *q = bd->q;
  double lf = mcpi_implied_log_forward(bd->s, q->maturities[i]);
  *a = *b = NAN;
  for (size_t j = 0; j < q->nstrikes; j++) {
    if (isnan(q->vols[i * q->nstrikes + j]))
      continue;
    double kj = log(q->strikes[j]) - lf;
    if (kj <= k || isnan(*a))
      *a = q->strikes[j];
    if (kj >= k) {
      *b = q->strikes[j];
      break;
    }
  }
  if (isnan(*b))
    *b = *a;
}

static mcp_status check_quotes(const building *bd)
{
  const mcp_quotes *q = bd->q;
  const char *why = NULL;
  if (q->nmaturities < 1 || q->nmaturities > MCPI_IMPLIED_MAX_MATURITIES || q->nstrikes < 1 ||
      q->nstrikes > MCPI_MAX_SURFACE)
    return mcpi_fail(bd->err, MCP_ERR_INPUT, "expected 1 to %d maturities and 1 to %d strikes, "
                     "got %zu and %zu", MCPI_IMPLIED_MAX_MATURITIES, MCPI_MAX_SURFACE,
                     q->nmaturities, q->nstrikes);
  for (size_t i = 0; i < q->nmaturities; i++)
    if ((why = mcpi_check_maturity(q->maturities[i])) ||
        (i && !(q->maturities[i] > q->maturities[i - 1]) && (why = "a maturity after the one "
                                                                   "before")))
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturities[%zu]: expected %s, got %g", i, why,
                       q->maturities[i]);
  for (size_t j = 0; j < q->nstrikes; j++)
    if (!(q->strikes[j] > 0 && isfinite(q->strikes[j])) ||
        (j && !(q->strikes[j] > q->strikes[j - 1])))
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "strikes[%zu]: expected a finite strike > 0 "
                       "above the one before, got %g", j, q->strikes[j]);
  for (size_t i = 0; i < q->nmaturities; i++) {
    size_t n = 0;
    for (size_t j = 0; j < q->nstrikes; j++) {
      double v = q->vols[i * q->nstrikes + j];
      if (!isnan(v) && (!(v > 0) || mcpi_check_volatility(v)))
        return mcpi_fail(bd->err, MCP_ERR_INPUT, "volatilities[%zu][%zu]: expected a "
                         "volatility in (0, 10], or NAN where none is quoted, got %g", i, j, v);
      n += !isnan(v);
    }
    if (n != 1 && n < MCPI_SVI_MIN_QUOTES)
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturity %g (volatilities[%zu]): expected %d "
                       "or more volatilities (an SVI smile) or one (a flat smile), got %zu",
                       q->maturities[i], i, MCPI_SVI_MIN_QUOTES, n);
  }
  return MCP_OK;
}

/* Maturity i's quotes: their calls on the forward C(K) convex and falling
 * in strike from C(0) = F, none falling faster than 1:1 (no butterfly or
 * vertical arbitrage); then its smile, which must pass within
 * MCPI_SVI_MAX_MISS of each quote and keep a density >= 0 over them. */
static mcp_status fit_slice(const building *bd, size_t i, double *k, double *w, size_t *col)
{
  const mcp_quotes *q = bd->q;
  mcpi_implied *s = bd->s;
  double T = q->maturities[i], lf = mcpi_implied_log_forward(s, T), f = exp(lf);
  double prev_c = f, prev_slope = -1, prev_k = 0; /* the forward: the call of strike 0 */
  size_t n = 0;
  for (size_t j = 0; j < q->nstrikes; j++) {
    double v = q->vols[i * q->nstrikes + j], K = q->strikes[j];
    if (isnan(v))
      continue;
    double c = mcpi_black_call(f, K, v * sqrt(T)).call;
    double slope = (c - prev_c) / (K - prev_k), tol = 1e-10 * f / (K - prev_k);
    if (slope > tol || slope < -1 - tol)
      return mcpi_fail(bd->err, MCP_ERR_INPUT,
                       "maturity %g: the quote at strike %g (volatilities[%zu][%zu]) gives a "
                       "call %s in strike from %s (arbitrage); expected an arbitrage-free "
                       "smile", T, K, i, j, slope > tol ? "rising" : "falling faster than 1:1",
                       n ? "the quote before" : "the forward's");
    if (slope < prev_slope - tol) { /* n >= 1: the first slope is >= -1 */
      char three[256];
      if (n > 1)
        snprintf(three, sizeof three, "strikes %g, %g and %g (volatilities[%zu][%zu], "
                 "[%zu][%zu] and [%zu][%zu])", q->strikes[col[n - 2]], prev_k, K, i,
                 col[n - 2], i, col[n - 1], i, j);
      else
        snprintf(three, sizeof three, "strikes 0 (the forward), %g and %g "
                 "(volatilities[%zu][%zu] and [%zu][%zu])", prev_k, K, i, col[0], i, j);
      return mcpi_fail(bd->err, MCP_ERR_INPUT,
                       "maturity %g: the quotes at %s give calls not convex in strike "
                       "(butterfly arbitrage); expected an arbitrage-free smile", T, three);
    }
    prev_slope = slope;
    prev_c = c;
    prev_k = K;
    k[n] = log(K) - lf;
    w[n] = v * v * T;
    col[n++] = j;
  }
  mcpi_svi p;
  if (!mcpi_svi_fit(n, k, w, &p))
    return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturity %g (volatilities[%zu]): no SVI smile "
                     "fits the quotes", T, i);
  double *out = s->svi + 5 * i, wk, wkk, *dp = s->dsvi + 5 * s->nq;
  out[0] = p.a, out[1] = p.b, out[2] = p.rho, out[3] = p.m, out[4] = p.s;
  if (!mcpi_svi_fit_jacobian(n, k, w, &p, dp)) { /* no quote vegas; prices as ever */
    s->qvegas = 0;
    for (size_t j = 0; j < 5 * n; j++)
      dp[j] = NAN;
  }
  for (size_t j = 0; j < n; j++) { /* dw / dvol = 2 sqrt(w T) */
    s->qk[s->nq + j] = q->strikes[col[j]];
    for (int c = 0; c < 5; c++)
      dp[5 * j + (size_t)c] *= 2 * sqrt(w[j] * T);
  }
  s->qoff[i] = s->nq;
  s->nq += n;
  s->qoff[i + 1] = s->nq;
  s->kmin[i] = k[0];
  s->kmax[i] = k[n - 1];
  for (size_t j = 0; j < n; j++) {
    double miss = sqrt(mcpi_svi_w(&p, k[j], &wk, &wkk) / T) - sqrt(w[j] / T);
    if (!(fabs(miss) <= MCPI_SVI_MAX_MISS))
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturity %g: the SVI smile passes %.2g "
                       "volatility points from the quote at strike %g (volatilities[%zu][%zu]); "
                       "expected quotes that an arbitrage-free SVI smile holds within %g "
                       "points", T, 100 * fabs(miss),
                       q->strikes[col[j]], i, col[j], 100 * MCPI_SVI_MAX_MISS);
  }
  for (int j = 0; j <= 200; j++) {
    double x = k[0] + (k[n - 1] - k[0]) * j / 200, wx = mcpi_svi_w(&p, x, &wk, &wkk);
    if (!(wx > 0) || !(mcpi_dupire_density(x, wx, wk, wkk) >= 0)) {
      double a, b;
      bracket(bd, i, x, &a, &b);
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturity %g (volatilities[%zu]): the SVI "
                       "smile of the quotes has a negative density between strikes %g and %g "
                       "(butterfly arbitrage); expected an arbitrage-free smile", T, i, a, b);
    }
  }
  return MCP_OK;
}

/* Total variance rising in time at every moneyness the two maturities
 * quote between them (no calendar arbitrage). */
static mcp_status check_calendar(const building *bd, size_t i)
{
  const mcpi_implied *s = bd->s;
  mcpi_svi p0 = slice(s, i - 1), p1 = slice(s, i);
  double lo = fmin(s->kmin[i - 1], s->kmin[i]), hi = fmax(s->kmax[i - 1], s->kmax[i]), d, dd;
  for (int j = 0; j <= 200; j++) {
    double x = lo + (hi - lo) * j / 200;
    double w0 = mcpi_svi_w(&p0, x, &d, &dd), w1 = mcpi_svi_w(&p1, x, &d, &dd);
    if (w1 < w0 - 1e-12 * w0) {
      double a, b;
      bracket(bd, i, x, &a, &b);
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "maturities %g and %g (volatilities[%zu] and "
                       "[%zu]): the total variance falls from %.6g to %.6g near strike %g of "
                       "the later (calendar arbitrage); expected it rising in maturity",
                       s->t[i - 1], s->t[i], i - 1, i, w0, w1, a);
    }
  }
  return MCP_OK;
}

/* The grid's times into t (at most MCPI_MAX_SURFACE); their number. */
static size_t grid_times(const mcpi_implied *s, double *t)
{
  size_t n = 0;
  t[n++] = 0;
  for (size_t i = 0; i < s->n; i++) {
    double a = i ? s->t[i - 1] : 0, b = s->t[i];
    if (i)
      t[n++] = a + JUST_AFTER * (b - a);
    for (int j = 1; j <= NT; j++)
      t[n++] = j == NT ? b : a + (b - a) * j / NT;
  }
  double last = s->t[s->n - 1];
  if (last < MCPI_MAX_MATURITY)
    t[n++] = last * (1 + JUST_AFTER);
  for (size_t j = 0; j < sizeof beyond / sizeof *beyond && last * beyond[j] < MCPI_MAX_MATURITY;
       j++)
    t[n++] = last * beyond[j];
  return n;
}

/* Row r of the grid lv: its time (the first maturity's JUST_AFTER at the
 * least) and Dupire's local variance at each node into var, NAN where it
 * has none (or one above 100); the good nodes' number. */
static size_t row_variances(const mcpi_implied *s, const mcpi_surface *lv, size_t r, double *t,
                            double *var)
{
  double tr = fmax(lv->times[r], JUST_AFTER * s->t[0]), lf = mcpi_implied_log_forward(s, tr);
  size_t ok = 0;
  for (size_t c = 0; c < lv->ns; c++) {
    double k = log(lv->spots[c]) - lf;
    mcpi_total_var v = mcpi_implied_total_var(s, k, tr);
    double x = v.wt / mcpi_dupire_density(k, v.w, v.wk, v.wkk);
    int good = v.w > 0 && v.wt >= 0 && x >= 0 && x <= 100;
    var[c] = good ? x : NAN;
    ok += (size_t)good;
  }
  *t = tr;
  return ok;
}

/* The node whose value each node of a row with a good one takes into
 * src: its own, or where it has none the good node's before it (at the
 * row's start, the first good one's): outward from the quotes at both
 * edges. */
static void row_sources(const double *var, size_t ns, size_t *src)
{
  size_t first = 0;
  while (first + 1 < ns && isnan(var[first]))
    first++;
  for (size_t c = 0; c < ns; c++)
    src[c] = !isnan(var[c]) ? c : c ? src[c - 1] : first;
}

/* Dupire's local volatility at the grid's nodes into lv; at a node beyond
 * the quotes (in moneyness, or after the last maturity) where it has none
 * (or one above 10), another's of its time (row_sources). */
static mcp_status local_vol(const building *bd, mcpi_surface *lv)
{
  const mcpi_implied *s = bd->s;
  size_t nt = lv->nt, ns = lv->ns, src[NS];
  for (size_t r = 0; r < nt; r++) {
    double t, *row = lv->values + r * ns;
    size_t ok = row_variances(s, lv, r, &t, row), e = 0;
    while (e + 1 < s->n && t > s->t[e])
      e++;
    double lf = mcpi_implied_log_forward(s, t);
    for (size_t c = 0; c < ns; c++) {
      double k = log(lv->spots[c]) - lf;
      if (isnan(row[c]) && t <= s->t[s->n - 1] && k >= s->kmin[e] && k <= s->kmax[e])
        return mcpi_fail(bd->err, MCP_ERR_INPUT, "at time %g and spot %g (inside the quotes "
                         "of maturity %g) the surface has no local volatility (the total "
                         "variance falls in time, or a density is negative, between "
                         "maturities); expected an arbitrage-free surface", t, lv->spots[c],
                         s->t[e]);
    }
    if (!ok)
      return mcpi_fail(bd->err, MCP_ERR_INPUT, "at time %g the surface has no local volatility "
                       "at any spot; expected an arbitrage-free surface", t);
    for (size_t c = 0; c < ns; c++)
      row[c] = isnan(row[c]) ? NAN : sqrt(row[c]);
    row_sources(row, ns, src);
    for (size_t c = 0; c < ns; c++)
      row[c] = row[src[c]];
  }
  return MCP_OK;
}

/* The smiles at or before t: time t reads smile i - 1 and i (i = 0: the
 * first alone, i = n: the last). */
static size_t smiles_after(const mcpi_implied *s, double t)
{
  size_t i = 0;
  while (i < s->n && t > s->t[i])
    i++;
  return i;
}

/* The gradients of (w, w_k, w_kk, w_t) at (k, t) (mcpi_implied_total_var)
 * in the coordinates p of the smiles it reads, *first's at g[.][0 .. 4]
 * and the next's at g[.][5 .. 9] (zero where it reads one). */
static void total_var_grad(const mcpi_implied *s, double k, double t, double g[4][10],
                           size_t *first)
{
  size_t i = smiles_after(s, t), n = s->n;
  double a[3][5], b[3][5], z[3][5];
  for (int q = 0; q < 4; q++)
    for (int c = 0; c < 10; c++)
      g[q][c] = 0;
  if (i == 0 || i == n) {
    size_t at = i ? n - 1 : 0;
    mcpi_svi p = slice(s, at);
    double T = s->t[at], f = i ? 1 : t / T;
    mcpi_svi_grad(&p, k, a[0], a[1], a[2]);
    mcpi_svi_grad(&p, 0, z[0], z[1], z[2]);
    for (int c = 0; c < 5; c++) {
      g[0][c] = f * a[0][c] + (i ? (t - T) / T * z[0][c] : 0);
      g[1][c] = f * a[1][c];
      g[2][c] = f * a[2][c];
      g[3][c] = (i ? z[0][c] : a[0][c]) / T;
    }
    *first = at;
    return;
  }
  mcpi_svi p0 = slice(s, i - 1), p1 = slice(s, i);
  double dt = s->t[i] - s->t[i - 1], l = (t - s->t[i - 1]) / dt;
  mcpi_svi_grad(&p0, k, a[0], a[1], a[2]);
  mcpi_svi_grad(&p1, k, b[0], b[1], b[2]);
  for (int c = 0; c < 5; c++) {
    for (int q = 0; q < 3; q++) {
      g[q][c] = (1 - l) * a[q][c];
      g[q][5 + c] = l * b[q][c];
    }
    g[3][c] = -a[0][c] / dt;
    g[3][5 + c] = b[0][c] / dt;
  }
  *first = i - 1;
}

size_t mcpi_implied_chain(const mcpi_implied *s, const double *g, size_t first, double scale,
                           size_t *q0, double *out)
{
  size_t last = first + 1 < s->n ? first + 1 : first, n;
  *q0 = s->qoff[first];
  n = s->qoff[last + 1] - *q0;
  for (size_t q = 0; q < n; q++) {
    size_t at = *q0 + q, x = at < s->qoff[first + 1] ? 0 : 5;
    double acc = 0;
    for (size_t u = 0; u < 5; u++)
      acc += g[x + u] * s->dsvi[5 * at + u];
    out[q] = scale * acc;
  }
  return n;
}

size_t mcpi_implied_vol_grad(const mcpi_implied *s, double strike, double t, size_t *q0,
                             double *out)
{
  double k = log(strike) - mcpi_implied_log_forward(s, t), g[4][10];
  size_t first = 0;
  mcpi_total_var v = mcpi_implied_total_var(s, k, t);
  total_var_grad(s, k, t, g, &first);
  /* sigma = scale sqrt(w / t) + shift */
  return mcpi_implied_chain(s, g[0], first, s->scale / (2 * sqrt(v.w * t)), q0, out);
}

int mcpi_implied_row_grad(const mcpi_implied *s, const mcpi_surface *lv, size_t r,
                          size_t *first, double *out)
{
  double var[NS], t;
  size_t ns = lv->ns, src[NS];
  if (ns > NS || !row_variances(s, lv, r, &t, var))
    return 0;
  row_sources(var, ns, src);
  double lf = mcpi_implied_log_forward(s, t);
  for (size_t c = 0; c < ns; c++) {
    if (src[c] != c) /* a filled node: its source's, below */
      continue;
    double k = log(lv->spots[c]) - lf, g[4][10], *ds = out + 10 * c;
    mcpi_total_var v = mcpi_implied_total_var(s, k, t);
    total_var_grad(s, k, t, g, first);
    /* sigma = scale sqrt(w_t / G), G Dupire's denominator (mcpi_dupire_density) */
    double G = mcpi_dupire_density(k, v.w, v.wk, v.wkk), sig = sqrt(var[c]);
    double gw = k * v.wk / (v.w * v.w) + 0.25 * (1 / (v.w * v.w) - 2 * k * k / (v.w * v.w * v.w)) *
                                             v.wk * v.wk;
    double gk = -k / v.w + 0.5 * (-0.25 - 1 / v.w + k * k / (v.w * v.w)) * v.wk;
    for (int x = 0; x < 10; x++) {
      double dG = gw * g[0][x] + gk * g[1][x] + 0.5 * g[2][x];
      ds[x] = s->scale * (g[3][x] - var[c] * dG) / (2 * sig * G);
    }
  }
  for (size_t c = 0; c < ns; c++) /* the filled nodes move as their sources */
    for (size_t x = 0; x < 10 && src[c] != c; x++)
      out[10 * c + x] = out[10 * src[c] + x];
  return 1;
}


/* The grid's spots: log-spaced over every forward's moneyness the quotes
 * span, widened by WIDEN of the greatest total variance's root. */
static void grid_spots(const mcpi_implied *s, const mcpi_surface *lv, double wmax)
{
  double klo = INFINITY, khi = -INFINITY, flo = INFINITY, fhi = -INFINITY;
  for (size_t i = 0; i < s->n; i++) {
    klo = fmin(klo, s->kmin[i]);
    khi = fmax(khi, s->kmax[i]);
  }
  for (size_t r = 0; r < lv->nt; r++) {
    double lf = mcpi_implied_log_forward(s, lv->times[r]);
    flo = fmin(flo, lf);
    fhi = fmax(fhi, lf);
  }
  double lo = flo + klo - WIDEN * sqrt(wmax), hi = fhi + khi + WIDEN * sqrt(wmax);
  for (size_t c = 0; c < lv->ns; c++)
    lv->spots[c] = exp(lo + (hi - lo) * (double)c / (double)(lv->ns - 1));
}

mcp_status mcpi_implied_build(const mcp_quotes *q, double spot, const mcpi_curve *rate,
                              const mcpi_curve *dividend, mcpi_implied *out, mcpi_surface *lv,
                              char *err)
{
  mcpi_implied s = {.spot = spot, .scale = 1, .shift = 0, .qvegas = 1};
  building bd = {q, &s, err};
  *out = (mcpi_implied){0};
  *lv = (mcpi_surface){0, 0, NULL, NULL, NULL};
  mcp_status st = check_quotes(&bd);
  if (st != MCP_OK)
    return st;
  size_t n = q->nmaturities, m = q->nstrikes;
  size_t cap = 1 + n * (NT + 1) + 1 + sizeof beyond / sizeof *beyond;
  double *k = malloc(m * sizeof *k), *w = malloc(m * sizeof *w), wmax = 0;
  size_t *col = malloc(m * sizeof *col);
  s.n = n;
  lv->times = malloc(cap * sizeof(double));
  lv->spots = malloc(NS * sizeof(double));
  lv->values = malloc(cap * NS * sizeof(double));
  if (!k || !w || !col || !lv->times || !lv->spots || !lv->values ||
      !(s.t = malloc(n * sizeof(double))) || !(s.svi = malloc(5 * n * sizeof(double))) ||
      !(s.kmin = malloc(n * sizeof(double))) || !(s.kmax = malloc(n * sizeof(double))) ||
      !(s.qoff = calloc(n + 1, sizeof(size_t))) || !(s.qk = malloc(n * m * sizeof(double))) ||
      !(s.dsvi = malloc(5 * n * m * sizeof(double))) ||
      !mcpi_curve_copy(&s.rate, rate) || !mcpi_curve_copy(&s.dividend, dividend))
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for an implied surface");
  for (size_t i = 0; st == MCP_OK && i < n; i++) {
    s.t[i] = q->maturities[i];
    for (size_t j = 0; j < m; j++) {
      double v = q->vols[i * m + j];
      wmax = v > 0 ? fmax(wmax, v * v * s.t[i]) : wmax;
    }
    if ((st = fit_slice(&bd, i, k, w, col)) == MCP_OK && i)
      st = check_calendar(&bd, i);
  }
  if (st == MCP_OK) {
    lv->nt = grid_times(&s, lv->times);
    lv->ns = NS;
    grid_spots(&s, lv, wmax);
    st = local_vol(&bd, lv);
  }
  free(k);
  free(w);
  free(col);
  if (st != MCP_OK) {
    mcpi_implied_free(&s);
    mcpi_surface_free(lv);
    return st;
  }
  *out = s;
  return MCP_OK;
}

mcp_status mcp_market_set_implied_volatility(mcp_market *m, const char *name,
                                             const mcp_quotes *quotes)
{
  if (!m)
    return mcpi_null(__func__, "market");
  if (!name || !quotes || !quotes->maturities || !quotes->strikes || !quotes->vols)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "implied volatility: NULL name or quotes");
  mcpi_underlying *u = (mcpi_underlying *)mcpi_market_find(m, name);
  if (!u)
    return mcpi_fail(m->err, MCP_ERR_NOT_FOUND,
                     "implied volatility: underlying '%s' is not in the market", name);
  if (u->model != MCPI_MODEL_BLACK_SCHOLES && !u->iv.n)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': implied volatility: expected a "
                     "Black-Scholes underlying", name);
  if (u->ncash)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': implied volatility: its cash "
                     "dividends have no place in the surface's forwards; expected a dividend "
                     "yield or curve", name);
  char why[MCPI_ERRLEN];
  mcpi_implied iv;
  mcpi_surface lv;
  mcp_status st = mcpi_implied_build(quotes, u->spot, &u->rate, &u->dividend, &iv, &lv, why);
  if (st != MCP_OK)
    return mcpi_fail(m->err, st, "underlying '%s': implied volatility: %s", name, why);
  double at = mcpi_surface_vol_at(&lv, u->spot);
  if (at < 0) {
    mcpi_implied_free(&iv);
    mcpi_surface_free(&lv);
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for an implied surface");
  }
  mcpi_implied_free(&u->iv);
  mcpi_surface_free(&u->lv);
  u->iv = iv;
  u->lv = lv;
  u->vol.value[0] = at;
  u->vol.end[0] = 0;
  u->vol.n = 1;
  u->model = MCPI_MODEL_LOCAL_VOL;
  return MCP_OK;
}
