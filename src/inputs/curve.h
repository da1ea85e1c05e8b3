/* curve.h: piecewise-constant term structures of rate, dividend and
 * volatility.  value[i] holds on (end[i-1], end[i]], the last value beyond;
 * a flat curve is one piece.  A rate or dividend curve of zero rates
 * linear between pillars has slopes: on (end[i-1], end[i]] it is
 * value[i] + slope[i] (t - end[i-1]) (end[-1] = 0), its last piece flat. */
#ifndef MCP_CURVE_H
#define MCP_CURVE_H

#include <stddef.h>

typedef struct mcpi_curve {
  size_t n;
  double *end, *value; /* n of each */
  double *slope;       /* n, or NULL: every piece constant */
} mcpi_curve;

/* A one-piece curve holding v; 0 or MCP_ERR_NO_MEMORY as an int. */
int mcpi_curve_flat(mcpi_curve *c, double v);
void mcpi_curve_free(mcpi_curve *c);
/* dst a copy of src; 0 when out of memory. */
int mcpi_curve_copy(mcpi_curve *dst, const mcpi_curve *src);
/* The curve of zero rates -log_df[i] / t[i] at the n increasing times t >
 * 0, linear between them and flat before the first and beyond the last:
 * n + 1 pieces, their forwards linear.  0 or MCP_ERR_NO_MEMORY as an int. */
int mcpi_curve_linear_zero(mcpi_curve *c, size_t n, const double *t, const double *log_df);
/* The values of piece i at its start and at its end or t1, the sooner. */
void mcpi_curve_piece_ends(const mcpi_curve *c, size_t i, double t1, double *v0, double *v1);
/* Integral of the curve over [a, b], 0 <= a <= b. */
double mcpi_curve_integral(const mcpi_curve *c, double a, double b);
/* Whether [t0, t1] lies in one constant piece of c (its mean there is the
 * piece's value), and c's last knot at or before t (-HUGE_VAL: none): every [t0',
 * t1'] with that knot <= t0' < t1' <= t1 lies in the piece of [t0, t1]. */
int mcpi_curve_one_piece(const mcpi_curve *c, double t0, double t1);
double mcpi_curve_knot_before(const mcpi_curve *c, double t);
/* The least value the curve takes on [0, T] (its pieces' ends up to T). */
double mcpi_curve_min(const mcpi_curve *c, double T);
/* Integral of the squared curve over [a, b]. */
double mcpi_curve_integral_sq(const mcpi_curve *c, double a, double b);
/* Mean of the curve (of its square when square) over (t0, t1]: the piece's
 * value, exactly, when one piece holds the interval. */
double mcpi_curve_mean(const mcpi_curve *c, double t0, double t1, int square);
/* The least and greatest |value| of the pieces in force on [0, T]. */
void mcpi_curve_abs_bounds(const mcpi_curve *c, double T, double *lo, double *hi);

/* value[i]: the forward rate on (t[i-1], t[i]] (t[-1] = 0) of a curve of
 * log discount factors log_df at the n increasing times t > 0, log-linear
 * between them and from 0 at 0: the piecewise-constant curve whose
 * integral from 0 to each t[i] is -log_df[i] (within rounding). */
void mcpi_curve_forwards(size_t n, const double *t, const double *log_df, double *value);

/* dst = a + b, on the knots of both.  0 or MCP_ERR_NO_MEMORY as an int. */
int mcpi_curve_sum(mcpi_curve *dst, const mcpi_curve *a, const mcpi_curve *b);

/* dst: src with its zero rate at tenor[k] of a key-rate grid (n tenors,
 * increasing, above 0) moved by x and its zero rates at the other tenors
 * kept: the log-discount factor moves linearly between tenors, the zero rate
 * flat before the first and beyond the last (MAR21's vertices, and the sum
 * over k is a parallel shift by x).  The shift's forward is a constant on
 * each interval of the grid, so dst is piecewise constant too, on src's
 * knots and the grid's.  0 or MCP_ERR_NO_MEMORY as an int. */
int mcpi_curve_key_shifted(mcpi_curve *dst, const mcpi_curve *src, const double *tenor,
                           size_t n, size_t k, double x);

#endif
