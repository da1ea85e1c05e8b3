/* svi.c: the raw SVI smile and its fit (svi.h). */
#include <math.h>
#include "src/analytic/svi.h"

double mcpi_svi_w(const mcpi_svi *p, double k, double *wk, double *wkk)
{
  double x = k - p->m, r = sqrt(x * x + p->s * p->s);
  *wk = p->b * (p->rho + x / r);
  *wkk = p->b * p->s * p->s / (r * r * r);
  return p->a + p->b * (p->rho * x + r);
}

/* For fixed (m, s), w = a + d y + c sqrt(y^2 + 1) with y = (k - m) / s is
 * linear in q = (a, d, c) (d = b rho s, c = b s).  The constraints are
 * G q >= h row by row: c - d >= 0, c + d >= 0 (|rho| <= 1), and
 * c + |d| <= 2 s (Lee), with w >= 0 (a + sqrt(c^2 - d^2) >= 0) checked. */
#define NCON 4
static const double G[NCON][3] = {{0, -1, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1}};

/* Solves the n x n system a x = b in place (Gaussian elimination with
 * partial pivoting), n <= MAXN; 0 when singular. */
#define MAXN 8
static int solve(int n, double a[MAXN][MAXN], double b[MAXN])
{
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(a[r][c]) > fabs(a[p][c]))
        p = r;
    if (!(fabs(a[p][c]) > 1e-13))
      return 0;
    for (int j = 0; j < n; j++) {
      double t = a[c][j];
      a[c][j] = a[p][j];
      a[p][j] = t;
    }
    double t = b[c];
    b[c] = b[p];
    b[p] = t;
    for (int r = c + 1; r < n; r++) {
      double f = a[r][c] / a[c][c];
      for (int j = c; j < n; j++)
        a[r][j] -= f * a[c][j];
      b[r] -= f * b[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    for (int j = c + 1; j < n; j++)
      b[c] -= a[c][j] * b[j];
    b[c] /= a[c][c];
  }
  return 1;
}

/* The quotes, each residual weighted by 1 / sqrt(w): an error in volatility
 * (dw = 2 sqrt(w T) dsigma, T one for the smile). */
typedef struct quotes {
  size_t n;
  const double *k, *w;
  double *weight;
} quotes;

/* The least squares of q at (m, s) under the constraints into q; its sum
 * of squares, or INFINITY where no candidate is feasible.  The problem is
 * convex: its solution solves the equality problem of its active set, so
 * the best feasible such solution over every set (none, one, two of the
 * four: at most two are independent) is it. */
static double inner(const quotes *d, double m, double s, double q[3])
{
  double xtx[3][3] = {{0}}, xtw[3] = {0}, h[NCON] = {0, 0, -2 * s, -2 * s};
  for (size_t j = 0; j < d->n; j++) {
    double y = (d->k[j] - m) / s, o = d->weight[j], x[3] = {o, o * y, o * sqrt(y * y + 1)};
    for (int r = 0; r < 3; r++) {
      xtw[r] += x[r] * o * d->w[j];
      for (int c = 0; c < 3; c++)
        xtx[r][c] += x[r] * x[c];
    }
  }
  double best = INFINITY;
  for (int set = 0; set < 1 << NCON; set++) {
    int act[NCON], na = 0;
    for (int i = 0; i < NCON; i++)
      if (set >> i & 1)
        act[na++] = i;
    if (na > 2)
      continue;
    double a[MAXN][MAXN] = {{0}}, b[MAXN] = {0};
    for (int r = 0; r < 3; r++) {
      b[r] = xtw[r];
      for (int c = 0; c < 3; c++)
        a[r][c] = xtx[r][c];
    }
    for (int i = 0; i < na; i++) {
      for (int c = 0; c < 3; c++)
        a[3 + i][c] = a[c][3 + i] = G[act[i]][c];
      b[3 + i] = h[act[i]];
    }
    if (!solve(3 + na, a, b))
      continue;
    int ok = 1;
    for (int i = 0; i < NCON && ok; i++)
      ok = G[i][1] * b[1] + G[i][2] * b[2] >= h[i] - 1e-12 * (1 + s);
    if (!ok || !(b[0] + sqrt(fmax(b[2] * b[2] - b[1] * b[1], 0)) >= 0))
      continue;
    double ss = 0;
    for (size_t j = 0; j < d->n; j++) {
      double y = (d->k[j] - m) / s, e = b[0] + b[1] * y + b[2] * sqrt(y * y + 1) - d->w[j];
      ss += e * e * d->weight[j] * d->weight[j];
    }
    if (ss < best) {
      best = ss;
      q[0] = b[0];
      q[1] = b[1];
      q[2] = b[2];
    }
  }
  return best;
}

/* The objective in (m, log s). */
static double objective(const quotes *d, const double x[2])
{
  double q[3];
  return inner(d, x[0], exp(x[1]), q);
}

/* Nelder-Mead from simplex p (3 points), values f, to its least point. */
static void nelder_mead(const quotes *d, double p[3][2], double f[3])
{
  for (int it = 0; it < 400; it++) {
    int o[3] = {0, 1, 2}; /* the points from least to greatest value */
    for (int i = 1; i < 3; i++)
      for (int j = i; j > 0 && f[o[j]] < f[o[j - 1]]; j--) {
        int t = o[j];
        o[j] = o[j - 1];
        o[j - 1] = t;
      }
    int lo = o[0], mid = o[1], hi = o[2];
    double size = fabs(p[hi][0] - p[lo][0]) + fabs(p[hi][1] - p[lo][1]);
    if (size < 1e-10 || f[hi] - f[lo] <= 1e-15 * (f[lo] + 1e-300))
      break;
    double c[2], r[2], e[2];
    for (int k = 0; k < 2; k++) {
      c[k] = 0.5 * (p[lo][k] + p[mid][k]);
      r[k] = 2 * c[k] - p[hi][k];
    }
    double fr = objective(d, r);
    if (fr < f[lo]) {
      for (int k = 0; k < 2; k++)
        e[k] = 3 * c[k] - 2 * p[hi][k];
      double fe = objective(d, e);
      int take_e = fe < fr;
      for (int k = 0; k < 2; k++)
        p[hi][k] = take_e ? e[k] : r[k];
      f[hi] = take_e ? fe : fr;
    } else if (fr < f[mid]) {
      p[hi][0] = r[0];
      p[hi][1] = r[1];
      f[hi] = fr;
    } else {
      double in[2] = {0.5 * (c[0] + p[hi][0]), 0.5 * (c[1] + p[hi][1])};
      double fi = objective(d, in);
      if (fi < f[hi]) {
        p[hi][0] = in[0];
        p[hi][1] = in[1];
        f[hi] = fi;
      } else { /* shrink toward the least */
        for (int i = 0; i < 3; i++)
          if (i != lo) {
            p[i][0] = 0.5 * (p[i][0] + p[lo][0]);
            p[i][1] = 0.5 * (p[i][1] + p[lo][1]);
            f[i] = objective(d, p[i]);
          }
      }
    }
  }
}

int mcpi_svi_fit(size_t n, const double *k, const double *w, mcpi_svi *out)
{
  double lo = INFINITY, hi = -INFINITY;
  for (size_t j = 0; j < n; j++) {
    if (!isfinite(k[j]) || !(w[j] > 0) || !isfinite(w[j]))
      return 0;
    lo = fmin(lo, k[j]);
    hi = fmax(hi, k[j]);
  }
  if (n == 1) {
    *out = (mcpi_svi){w[0], 0, 0, 0, 1};
    return 1;
  }
  double weight[MCPI_SVI_MAX_QUOTES];
  if (n > MCPI_SVI_MAX_QUOTES)
    return 0;
  for (size_t j = 0; j < n; j++)
    weight[j] = 1 / sqrt(fmax(w[j], 1e-12));
  const quotes d = {n, k, w, weight};
  /* a grid of (m, s) over and around the quotes' range, then the simplex
   * about its best point */
  double span = hi - lo, best[2] = {0, 0}, fbest = INFINITY;
  for (int i = 0; i <= 8; i++)
    for (int j = 0; j <= 8; j++) {
      double x[2] = {lo + span * (i / 8.0 * 1.5 - 0.25), log(span * 0.005) + j * log(2.5)};
      double f = objective(&d, x);
      if (f < fbest) {
        fbest = f;
        best[0] = x[0];
        best[1] = x[1];
      }
    }
  if (!isfinite(fbest))
    return 0;
  double p[3][2] = {{best[0], best[1]}, {best[0] + 0.05 * span, best[1]}, {best[0], best[1] + 0.3}};
  double f[3] = {fbest, objective(&d, p[1]), objective(&d, p[2])};
  nelder_mead(&d, p, f);
  int lo_i = f[0] <= f[1] ? (f[0] <= f[2] ? 0 : 2) : (f[1] <= f[2] ? 1 : 2);
  double m = p[lo_i][0], s = exp(p[lo_i][1]), q[3];
  if (!isfinite(inner(&d, m, s, q)))
    return 0;
  *out = (mcpi_svi){q[0], q[2] / s, q[2] > 0 ? q[1] / q[2] : 0, m, s};
  return 1;
}

/* The fit's p = (a, d, c, m, s) at quote j: y, the root R = sqrt(y^2 + 1),
 * f = a + d y + c R and f's gradient in p into g. */
static double fit_point(const double p[5], double k, double *y, double *r, double g[5])
{
  *y = (k - p[3]) / p[4];
  *r = sqrt(*y * *y + 1);
  double fy = p[1] + p[2] * *y / *r; /* df / dy */
  g[0] = 1, g[1] = *y, g[2] = *r, g[3] = -fy / p[4], g[4] = -fy * *y / p[4];
  return p[0] + p[1] * *y + p[2] * *r;
}

/* dp / dw_j for every quote into dp, H (scaled by sc) bordered by the na
 * constraints' rows con[act[i]]; flat: m and s held (where they move no
 * smile); 0 when singular. */
static int bordered(size_t n, const double *k, const double *w, const double p[5],
                    const double h[5][5], const double sc[5], const double con[][5],
                    const int *act, int na, int flat, double *dp)
{
  for (size_t j = 0; j < n; j++) {
    double y, r, g[5], e = fit_point(p, k[j], &y, &r, g) - w[j], wj = fmax(w[j], 1e-12);
    double a[MAXN][MAXN] = {{0}}, b[MAXN] = {0};
    for (int u = 0; u < 5; u++) {
      int held = flat && u >= 3;
      for (int v = 0; v < 5; v++)
        a[u][v] = held || (flat && v >= 3) ? (u == v) : sc[u] * h[u][v] * sc[v];
      b[u] = held ? 0 : -2 * sc[u] * g[u] * (-e / (wj * wj) - 1 / wj);
    }
    for (int i = 0; i < na; i++) { /* each row of unit length (its multiplier unread) */
      double len = 0;
      for (int u = 0; u < 5; u++)
        len += con[act[i]][u] * sc[u] * con[act[i]][u] * sc[u];
      for (int u = 0; u < 5; u++) {
        a[5 + i][u] = con[act[i]][u] * sc[u] / sqrt(len);
        a[u][5 + i] = flat && u >= 3 ? 0 : a[5 + i][u];
      }
    }
    if (!solve(5 + na, a, b))
      return 0;
    for (int u = 0; u < 5; u++)
      dp[5 * j + (size_t)u] = sc[u] * b[u];
  }
  return 1;
}

int mcpi_svi_fit_jacobian(size_t n, const double *k, const double *w, const mcpi_svi *fit,
                          double *dp)
{
  if (n == 1) { /* the flat smile: a is the quote */
    for (int i = 0; i < 5; i++)
      dp[i] = i == 0;
    return 1;
  }
  const double p[5] = {fit->a, fit->b * fit->rho * fit->s, fit->b * fit->s, fit->m, fit->s};
  /* F = sum_j (f_j - w_j)^2 / w_j (the fit's weights); at its least,
   * H dp = -dF_p / dw_j, H = F_pp, bordered by the constraints active
   * there: c - d, c + d, 2 s - c - d, 2 s - c + d >= 0 (at most two of
   * them) and w's least a + sqrt(c^2 - d^2) >= 0 */
  double h[5][5] = {{0}};
  for (size_t j = 0; j < n; j++) {
    double y, r, g[5], wt = 1 / fmax(w[j], 1e-12), e = fit_point(p, k[j], &y, &r, g) - w[j];
    double fy = p[1] + p[2] * y / r, fyy = p[2] / (r * r * r), s = p[4];
    double f2[5][5] = {{0}}; /* f's second derivatives in p */
    f2[1][3] = -1 / s, f2[1][4] = -y / s;
    f2[2][3] = -y / r / s, f2[2][4] = -y * y / r / s;
    f2[3][3] = fyy / (s * s), f2[3][4] = (fyy * y + fy) / (s * s);
    f2[4][4] = (fyy * y * y + 2 * fy * y) / (s * s);
    for (int a = 0; a < 5; a++)
      for (int b = a; b < 5; b++) {
        h[a][b] += 2 * wt * (g[a] * g[b] + e * f2[a][b]);
        h[b][a] = h[a][b];
      }
  }
  double root = sqrt(fmax(p[2] * p[2] - p[1] * p[1], 0)), con[NCON + 1][5] = {{0}};
  double val[NCON + 1] = {p[2] - p[1], p[2] + p[1], 2 * p[4] - p[2] - p[1],
                          2 * p[4] - p[2] + p[1], p[0] + root};
  double tol[NCON + 1] = {0, 0, 0, 0, 1e-9 * (fabs(p[0]) + fabs(p[2]))};
  for (int i = 0; i < NCON; i++) { /* G's rows, s's coefficient its h's */
    con[i][1] = G[i][1], con[i][2] = G[i][2], con[i][4] = i < 2 ? 0 : 2;
    /* the search over (m, s) stops short of a bound it presses on */
    tol[i] = 1e-5 * (fabs(p[1]) + fabs(p[2]) + 2 * p[4]);
  }
  con[NCON][0] = 1;
  con[NCON][1] = root > 0 ? -p[1] / root : 0;
  con[NCON][2] = root > 0 ? p[2] / root : 0;
  int act[NCON + 1], na = 0, flat = 0;
  for (int i = 0; i <= NCON; i++)
    if (fabs(val[i]) <= tol[i] && (na < 2 || i == NCON)) {
      flat += i < 2;
      act[na++] = i;
    }
  /* scaled by H's diagonal (its m and s rows grow as 1 / s^2; a diagonal
   * at rounding's level is none); no ridge: a smile whose coordinates its
   * quotes barely fix has eigenvalues of H far under any ridge's.  Where
   * the quotes fix no m and s (b = 0; or a hinge of s near 0 beyond them:
   * both flat over the quotes, the system singular), m and s are held */
  double sc[5], top = 0;
  for (int u = 0; u < 5; u++)
    top = fmax(top, h[u][u]);
  for (int u = 0; u < 5; u++)
    sc[u] = h[u][u] > 1e-30 * top ? 1 / sqrt(h[u][u]) : 1;
  return bordered(n, k, w, p, h, sc, con, act, na, flat == 2, dp) ||
         bordered(n, k, w, p, h, sc, con, act, na, 1, dp);
}

void mcpi_svi_grad(const mcpi_svi *fit, double k, double gw[5], double gk[5], double gkk[5])
{
  const double p[5] = {fit->a, fit->b * fit->rho * fit->s, fit->b * fit->s, fit->m, fit->s};
  double y, r, s = p[4];
  fit_point(p, k, &y, &r, gw);
  double fy = p[1] + p[2] * y / r, r3 = r * r * r, fyy = p[2] / r3;
  /* w_k = f_y / s, w_kk = f_yy / s^2 = c / (R^3 s^2) */
  gk[0] = 0, gk[1] = 1 / s, gk[2] = y / r / s, gk[3] = -fyy / (s * s);
  gk[4] = -(fyy * y + fy) / (s * s);
  gkk[0] = gkk[1] = 0, gkk[2] = 1 / (r3 * s * s), gkk[3] = 3 * p[2] * y / (r3 * r * r * s * s * s);
  gkk[4] = p[2] * (3 * y * y / (r3 * r * r) - 2 / r3) / (s * s * s);
}
