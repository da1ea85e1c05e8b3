/* svi.h: Gatheral's raw SVI smile of total implied variance in forward
 * moneyness k, w(k) = a + b (rho (k - m) + sqrt((k - m)^2 + s^2)), and its
 * least-squares fit to a maturity's quotes. */
#ifndef MCP_ANALYTIC_SVI_H
#define MCP_ANALYTIC_SVI_H

#include <stddef.h>

typedef struct mcpi_svi {
  double a, b, rho, m, s;
} mcpi_svi;

/* w(k), and its first and second derivatives into *wk and *wkk. */
double mcpi_svi_w(const mcpi_svi *p, double k, double *wk, double *wkk);

#define MCPI_SVI_MAX_QUOTES 1024

/* The smile nearest the 1 to MCPI_SVI_MAX_QUOTES quotes (k[j], w[j] > 0)
 * in the squares of their volatilities' errors (those of total variance
 * over sqrt(w)), among those with b >= 0, |rho| <= 1, wings no steeper than
 * Lee's bound (b (1 + |rho|) <= 2) and w >= 0 everywhere: for each (m, s)
 * the best of a, b rho s and b s is a convex least-squares problem (Zeliade
 * Systems, "Quasi-explicit calibration of Gatheral's SVI model", 2009),
 * solved exactly; (m, s) by a grid, then Nelder-Mead.  One quote: the flat
 * smile.  0 where no smile fits (quotes not finite, or too many). */
int mcpi_svi_fit(size_t n, const double *k, const double *w, mcpi_svi *out);

/* The fitted smile's coordinates p = (a, d, c, m, s), with d = b rho s
 * and c = b s (the fit's: w = a + d y + c sqrt(y^2 + 1), y = (k - m) / s),
 * differentiated in each quote's total variance w[j]: dp / dw_j into
 * dp[5 j ..], by the implicit function theorem at fit's least (the
 * constraints active there held); 0 when singular. */
int mcpi_svi_fit_jacobian(size_t n, const double *k, const double *w, const mcpi_svi *fit,
                          double *dp);
/* The gradients in p of the smile's w, w_k and w_kk at k. */
void mcpi_svi_grad(const mcpi_svi *fit, double k, double gw[5], double gk[5], double gkk[5]);

#endif
