/* curve.c: integrals of curves piecewise constant, or piecewise linear
 * (the forwards of zero rates linear between pillars). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/inputs/curve.h"
#include "mcprice.h"

int mcpi_curve_flat(mcpi_curve *c, double v)
{
  c->slope = NULL;
  c->end = malloc(sizeof *c->end);
  c->value = malloc(sizeof *c->value);
  if (!c->end || !c->value) {
    mcpi_curve_free(c);
    return mcpi_no_memory(__func__);
  }
  c->n = 1;
  c->end[0] = 0;
  c->value[0] = v;
  return MCP_OK;
}

void mcpi_curve_free(mcpi_curve *c)
{
  free(c->end);
  free(c->value);
  free(c->slope);
  c->end = c->value = c->slope = NULL;
  c->n = 0;
}

int mcpi_curve_copy(mcpi_curve *dst, const mcpi_curve *src)
{
  *dst = (mcpi_curve){0, NULL, NULL, NULL};
  if (!src->n)
    return 1;
  dst->end = malloc(src->n * sizeof(double));
  dst->value = malloc(src->n * sizeof(double));
  dst->slope = src->slope ? malloc(src->n * sizeof(double)) : NULL;
  if (!dst->end || !dst->value || (src->slope && !dst->slope)) {
    mcpi_curve_free(dst);
    return 0;
  }
  dst->n = src->n;
  memcpy(dst->end, src->end, src->n * sizeof(double));
  memcpy(dst->value, src->value, src->n * sizeof(double));
  if (src->slope)
    memcpy(dst->slope, src->slope, src->n * sizeof(double));
  return 1;
}

int mcpi_curve_linear_zero(mcpi_curve *c, size_t n, const double *t, const double *log_df)
{
  *c = (mcpi_curve){n + 1, malloc((n + 1) * sizeof(double)), malloc((n + 1) * sizeof(double)),
                    malloc((n + 1) * sizeof(double))};
  if (!c->end || !c->value || !c->slope) {
    mcpi_curve_free(c);
    return mcpi_no_memory(__func__);
  }
  /* z t = z0 t + b (t - t0) t on (t0, t1]: its forward z0 + b (2 t - t0) */
  double z0 = -log_df[0] / t[0];
  c->end[0] = t[0];
  c->value[0] = z0;
  c->slope[0] = 0;
  for (size_t i = 1; i < n; i++) {
    double z1 = -log_df[i] / t[i], b = (z1 - z0) / (t[i] - t[i - 1]);
    c->end[i] = t[i];
    c->value[i] = z0 + b * t[i - 1];
    c->slope[i] = 2 * b;
    z0 = z1;
  }
  c->end[n] = t[n - 1] + 1; /* beyond the last pillar: its zero rate, flat */
  c->value[n] = z0;
  c->slope[n] = 0;
  return MCP_OK;
}

/* The slope of piece i (0: constant) and where it starts. */
static double slope_of(const mcpi_curve *c, size_t i) { return c->slope ? c->slope[i] : 0; }
static double start_of(const mcpi_curve *c, size_t i) { return i ? c->end[i - 1] : 0; }

void mcpi_curve_piece_ends(const mcpi_curve *c, size_t i, double t1, double *v0, double *v1)
{
  double s = slope_of(c, i), lo = start_of(c, i);
  double hi = i + 1 < c->n ? fmin(c->end[i], t1) : t1;
  *v0 = c->value[i];
  *v1 = s != 0 && hi > lo ? c->value[i] + s * (hi - lo) : c->value[i];
}

void mcpi_curve_forwards(size_t n, const double *t, const double *log_df, double *value)
{
  for (size_t i = 0; i < n; i++)
    value[i] = -(log_df[i] - (i ? log_df[i - 1] : 0)) / (t[i] - (i ? t[i - 1] : 0));
}

static double integral(const mcpi_curve *c, double a, double b, int square)
{
  double sum = 0, lo = 0;
  for (size_t i = 0; i < c->n && lo < b; i++) {
    double hi = i + 1 < c->n ? c->end[i] : b;
    double l = a > lo ? a : lo, h = b < hi ? b : hi, s = slope_of(c, i);
    if (h > l && s == 0) {
      sum += (square ? c->value[i] * c->value[i] : c->value[i]) * (h - l);
    } else if (h > l) { /* linear from v0 at l to v1 at h */
      double v0 = c->value[i] + s * (l - lo), v1 = c->value[i] + s * (h - lo);
      sum += (square ? (v0 * v0 + v0 * v1 + v1 * v1) / 3 : 0.5 * (v0 + v1)) * (h - l);
    }
    lo = hi;
  }
  return sum;
}

double mcpi_curve_integral(const mcpi_curve *c, double a, double b) { return integral(c, a, b, 0); }

double mcpi_curve_integral_sq(const mcpi_curve *c, double a, double b)
{
  return integral(c, a, b, 1);
}

/* Index of the piece holding times just after t (open) or at t. */
static size_t piece(const mcpi_curve *c, double t, int open)
{
  size_t i = 0;
  while (i + 1 < c->n && (open ? c->end[i] <= t : c->end[i] < t))
    i++;
  return i;
}

double mcpi_curve_mean(const mcpi_curve *c, double t0, double t1, int square)
{
  if (mcpi_curve_one_piece(c, t0, t1)) {
    size_t i = piece(c, t0, 1);
    return square ? c->value[i] * c->value[i] : c->value[i];
  }
  return integral(c, t0, t1, square) / (t1 - t0);
}

int mcpi_curve_one_piece(const mcpi_curve *c, double t0, double t1)
{
  size_t i = piece(c, t0, 1);
  return i == piece(c, t1, 0) && slope_of(c, i) == 0;
}

double mcpi_curve_knot_before(const mcpi_curve *c, double t)
{
  double k = -HUGE_VAL;
  for (size_t i = 0; i + 1 < c->n && c->end[i] <= t; i++)
    k = c->end[i];
  return k;
}

double mcpi_curve_min(const mcpi_curve *c, double T)
{
  double lo = c->value[0], v0, v1;
  for (size_t i = 0; i <= piece(c, T, 0); i++) {
    mcpi_curve_piece_ends(c, i, T, &v0, &v1);
    lo = fmin(lo, fmin(v0, v1));
  }
  return lo;
}

void mcpi_curve_abs_bounds(const mcpi_curve *c, double T, double *lo, double *hi)
{
  double v0, v1;
  *lo = *hi = fabs(c->value[0]);
  for (size_t i = 0; i <= piece(c, T, 0); i++) {
    mcpi_curve_piece_ends(c, i, T, &v0, &v1);
    *lo = fmin(*lo, (v0 < 0) != (v1 < 0) ? 0 : fmin(fabs(v0), fabs(v1)));
    *hi = fmax(*hi, fmax(fabs(v0), fabs(v1)));
  }
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* c's piece holding times just after t0, and its value there. */
static double value_after(const mcpi_curve *c, double t0, size_t *p)
{
  size_t i = piece(c, t0, 1);
  *p = i;
  return c->value[i] + slope_of(c, i) * (t0 - start_of(c, i));
}

int mcpi_curve_sum(mcpi_curve *dst, const mcpi_curve *a, const mcpi_curve *b)
{
  size_t nk = 0, m = 0;
  double *knot = malloc((a->n + b->n) * sizeof *knot);
  if (!knot)
    return mcpi_no_memory(__func__);
  for (size_t i = 0; i + 1 < a->n; i++)
    knot[nk++] = a->end[i];
  for (size_t i = 0; i + 1 < b->n; i++)
    knot[nk++] = b->end[i];
  qsort(knot, nk, sizeof *knot, by_value);
  for (size_t i = 0; i < nk; i++)
    if (m == 0 || knot[i] > knot[m - 1])
      knot[m++] = knot[i];
  int sloped = a->slope || b->slope;
  *dst = (mcpi_curve){m + 1, malloc((m + 1) * sizeof(double)), malloc((m + 1) * sizeof(double)),
                      sloped ? malloc((m + 1) * sizeof(double)) : NULL};
  if (!dst->end || !dst->value || (sloped && !dst->slope)) {
    free(knot);
    mcpi_curve_free(dst);
    return mcpi_no_memory(__func__);
  }
  for (size_t i = 0; i <= m; i++) {
    double t0 = i ? knot[i - 1] : 0; /* the piece (t0, end] */
    size_t pa, pb;
    dst->end[i] = i < m ? knot[i] : (m ? knot[m - 1] + 1 : 1);
    dst->value[i] = value_after(a, t0, &pa) + value_after(b, t0, &pb);
    if (sloped)
      dst->slope[i] = slope_of(a, pa) + slope_of(b, pb);
  }
  free(knot);
  return MCP_OK;
}

/* The key-rate shift's forward on (t0, t1], a piece between its knots. */
static double key_forward(const double *tenor, size_t n, size_t k, double x, double t0)
{
  double lo = k ? tenor[k - 1] : 0;
  if (t0 >= lo && t0 < tenor[k])
    return x * tenor[k] / (tenor[k] - lo);
  if (k + 1 < n && t0 >= tenor[k] && t0 < tenor[k + 1])
    return -x * tenor[k] / (tenor[k + 1] - tenor[k]);
  return k + 1 == n && t0 >= tenor[k] ? x : 0;
}

int mcpi_curve_key_shifted(mcpi_curve *dst, const mcpi_curve *src, const double *tenor,
                           size_t n, size_t k, double x)
{
  size_t cap = src->n + 2, nk = 0;
  double *knot = malloc(cap * sizeof *knot);
  if (!knot)
    return mcpi_no_memory(__func__);
  for (size_t i = 0; i + 1 < src->n; i++)
    knot[nk++] = src->end[i];
  if (k)
    knot[nk++] = tenor[k - 1];
  knot[nk++] = tenor[k];
  if (k + 1 < n)
    knot[nk++] = tenor[k + 1];
  qsort(knot, nk, sizeof *knot, by_value);
  size_t m = 0;
  for (size_t i = 0; i < nk; i++)
    if (knot[i] > 0 && (m == 0 || knot[i] > knot[m - 1]))
      knot[m++] = knot[i];
  dst->n = m + 1;
  dst->end = malloc(dst->n * sizeof *dst->end);
  dst->value = malloc(dst->n * sizeof *dst->value);
  dst->slope = src->slope ? malloc(dst->n * sizeof *dst->slope) : NULL;
  if (!dst->end || !dst->value || (src->slope && !dst->slope)) {
    free(knot);
    mcpi_curve_free(dst);
    return mcpi_no_memory(__func__);
  }
  for (size_t i = 0, p = 0; i <= m; i++) {
    double t0 = i ? knot[i - 1] : 0; /* the piece (t0, end] */
    while (p + 1 < src->n && src->end[p] <= t0)
      p++;
    dst->end[i] = i < m ? knot[i] : (m ? knot[m - 1] + 1 : 1);
    dst->value[i] = src->value[p] + slope_of(src, p) * (t0 - start_of(src, p)) +
                    key_forward(tenor, n, k, x, t0);
    if (dst->slope)
      dst->slope[i] = src->slope[p];
  }
  free(knot);
  return MCP_OK;
}
