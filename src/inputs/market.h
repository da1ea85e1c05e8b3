/* market.h: underlyings, their models and correlations (internal view). */
#ifndef MCP_MARKET_H
#define MCP_MARKET_H

#include "src/base/dates.h"
#include "src/inputs/curve.h"
#include "src/base/error.h"
#include "models/model.h"
#include "src/base/names.h"


/* A local-volatility surface as given: sigma(times[i], spots[k]) at
 * values[i ns + k], both axes strictly increasing (local_vol.h). */
typedef struct mcpi_surface {
  size_t nt, ns;
  double *times, *spots, *values;
} mcpi_surface;

/* An implied-volatility surface (src/analytic/implied.h): n smiles, the
 * one at maturity t[i] the SVI total variance
 *   w_i(k) = a + b (rho (k - m) + sqrt((k - m)^2 + s^2)),
 * {a, b, rho, m, s} at svi[5 i], in k = log(strike / forward(t[i])),
 * quoted on [kmin[i], kmax[i]]; the forwards those of spot and the rate
 * and dividend curves as set with it, kept under shifts (sticky strike).
 * A volatility shift moves each implied volatility v to scale v + shift.
 * Its nq quotes, maturity i's qoff[i] .. qoff[i + 1] - 1 in rising strike
 * qk[q], and the derivatives of their smile's coordinates (svi.h's p) in
 * each quote's volatility, dsvi[5 q ..] (the quote vegas' first link),
 * known where qvegas (a smile whose fit is singular has none: NAN).
 * n = 0: none. */
typedef struct mcpi_implied {
  size_t n, nq;
  int qvegas;
  double *t, *svi, *kmin, *kmax;
  size_t *qoff;
  double *qk, *dsvi;
  double spot;
  mcpi_curve rate, dividend;
  double scale, shift;
} mcpi_implied;

typedef struct mcpi_underlying {
  char *name;
  mcpi_model model;
  double spot;
  /* vol: the diffusion's (not Heston); a local-volatility underlying's is
   * flat at sigma(0, spot), for the approximations that need one number
   * (the BGK barrier shift) */
  mcpi_curve rate, dividend, vol;
  int repo; /* a repo curve was added to dividend, the forward's carry */
  double v0, kappa, theta, xi, rho;       /* Heston */
  double lambda, jump_mean, jump_vol;     /* Merton */
  mcpi_surface lv;                        /* local volatility */
  mcpi_implied iv; /* the implied surface that lv is Dupire's of, or none */
  /* discrete cash dividends (Black-Scholes): amount[i] paid at time t[i] */
  size_t ncash;
  double *cash_t, *cash_amount;
  /* the regulatory view's: "" and 0 where not given */
  char currency[4];
  int frtb_bucket;
} mcpi_underlying;

/* The Brownian motions of the market: underlying i's spot is 2 i, a Heston
 * underlying's variance 2 i + 1. */
#define MCPI_SPOT_BM(i) (2 * (i))
#define MCPI_VARIANCE_BM(i) (2 * (i) + 1)

typedef struct mcpi_correlation {
  size_t a, b; /* Brownian motions of two underlyings, a < b */
  double rho;
} mcpi_correlation;

struct mcp_market {
  mcpi_underlying *u;
  size_t n, cap;
  mcpi_name_table names; /* the underlyings by name */
  mcpi_correlation *corr;
  size_t ncorr, corr_cap;
  /* a shifted copy's (shift.c) unshifted market, which decides the
   * engines of its trades (pde_plan.c: every variant of a run prices a
   * trade as its base market does); NULL for a market of its own */
  const struct mcp_market *base;
  /* its dates (a valuation date, a day count, calendars), which turn a
   * portfolio's dates into times (mcp_portfolio_load_for), or NULL; a
   * shifted copy has none */
  mcpi_dates *dates;
  char err[MCPI_ERRLEN];
};

/* The surface's value at spot node k at time t in its row bracket r:
 * times[r - 1] <= t <= times[r], linear between them; r = 0 or nt: flat
 * before the first time or beyond the last. */
double mcpi_surface_row_at(const mcpi_surface *s, size_t r, double t, size_t k);
/* The same at the m nodes from k, into out: the bracket's weight once (the
 * same bits as a node at a time). */
void mcpi_surface_row_values(const mcpi_surface *s, size_t r, double t, size_t k, size_t m,
                             double *out);
/* The surface's volatility at spot at time 0, by the paths' lookup; -1
 * when out of memory. */
double mcpi_surface_vol_at(const mcpi_surface *s, double spot);
/* A copy of src; 0 when out of memory. */
int mcpi_surface_copy(mcpi_surface *dst, const mcpi_surface *src);
void mcpi_surface_free(mcpi_surface *s);
/* The denominator of Dupire's formula in total implied variance w at
 * log-moneyness y, with w's derivatives dy, dyy in y (local_vol.c): a
 * density's factor, negative where the smile admits butterfly arbitrage. */
double mcpi_dupire_density(double y, double w, double dy, double dyy);
/* A copy of src (its shift too); 0 when out of memory. */
int mcpi_implied_copy(mcpi_implied *dst, const mcpi_implied *src);
void mcpi_implied_free(mcpi_implied *s);
/* dst's cash dividends a copy of src's; 0 when out of memory. */
int mcpi_cash_copy(mcpi_underlying *dst, const mcpi_underlying *src);
/* The dividends of u paid in (0, t] seen from a valuation date moved by
 * origin (theta: each dividend origin closer, at t_i - origin), each carried
 * to t at the underlying's rate less its yield:
 * sum D_i exp(int_{t_i - origin}^{t} (r - q)). */
double mcpi_cash_carried(const mcpi_underlying *u, double origin, double t);

/* The underlying called name, or NULL. */
const mcpi_underlying *mcpi_market_find(const mcp_market *m, const char *name);
/* mcp_market_set_curve with slopes (curve.h; NULL: none): those of zero
 * rates linear between pillars, on a rate or dividend curve. */
mcp_status mcpi_market_set_curve_sloped(mcp_market *m, const char *name, mcp_curve which,
                                        size_t n, const double *end, const double *value,
                                        const double *slope);
/* Indexes the names of m's n underlyings (a copy's); 0 when out of memory. */
int mcpi_market_index(mcp_market *m);
/* Correlation of underlyings a and b (1 when a == b, 0 when never set). */
double mcpi_market_correlation(const mcp_market *m, size_t a, size_t b);
/* Correlation of Brownian motions x and y (MCPI_SPOT_BM, MCPI_VARIANCE_BM):
 * 1 when x == y, a Heston underlying's rho between its own two, else as
 * set (0 when never set). */
double mcpi_market_bm_correlation(const mcp_market *m, size_t x, size_t y);
/* Brownian motions a correlation matrix may name: two an underlying. */
#define MCPI_MAX_BMS (2 * MCP_MAX_ASSETS)
/* The Brownian motion a correlation names into *bm: an underlying's spot (a
 * Black-Scholes or Heston underlying), or "NAME:variance", a Heston
 * underlying's variance.  NULL, or what was expected, and *found whether
 * the underlying is in the market at all. */
const char *mcpi_market_bm(const mcp_market *m, const char *name, size_t *bm, int *found);
/* The name of Brownian motion x ("NAME" or "NAME:variance") into buf. */
void mcpi_market_bm_name(const mcp_market *m, size_t x, char *buf, size_t len);
/* Lower Cholesky factor l (n x n, row-major) of the n x n matrix c; returns
 * 0, or 1 + the row where it is not positive definite. */
size_t mcpi_cholesky(size_t n, const double *c, double *l);

#define MCPI_NAXES 3 /* the shifts' axes: spot, volatility, rate */
/* "spot", "volatility" or "rate" (shift.c). */
const char *mcpi_axis_name(mcp_shift_axis axis);
/* A copy of market m with shift x[a] of kind[a] along each axis a (the spot
 * and volatility shifts on every underlying, or on underlying only alone when
 * only >= 0; the volatility and rate shifts where used[i] when used is not
 * NULL); MCP_ERR_INPUT naming the underlying when a value leaves its range
 * (shift.c). */
mcp_status mcpi_market_shifted(const mcp_market *m, const mcp_shift_kind *kind, const double *x,
                               long only, const unsigned char *used, mcp_market **out,
                               char *err);
/* The same with shifts of each underlying: underlying i's along axis a at
 * xs[i MCPI_NAXES + a] (a scenario set's point). */
mcp_status mcpi_market_shifted_each(const mcp_market *m, const mcp_shift_kind *kind,
                                    const double *xs, mcp_market **out, char *err);

#endif
