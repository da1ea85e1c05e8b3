/* correlation.c: a multi-asset job's correlated factors, the Cholesky
 * factor that the path draws them through (path.h, chol), or why the
 * market's correlations give none. */
#include <math.h>
#include <stdlib.h>
#include "src/base/validate.h"
#include "src/plan/plan_build.h"

/* The Cholesky factor of the correlations of the job's factors.
 * Black-Scholes: one an asset, its Brownian motion.  Heston: two an asset,
 * in the order the one-asset step reads them (heston.h), z_v = W_v, the
 * variance's Brownian motion, and z_x = (W_x - rho W_v) / sqrt(1 - rho^2),
 * the spot's part independent of it; their correlations follow from those
 * of the 2 n Brownian motions (mcpi_market_bm_correlation), which must be
 * positive definite, and each asset's own pair is exactly uncorrelated and
 * of unit variance, so that an asset's step is the one-asset step. */
mcp_status mcpi_build_correlation(mcpi_job *j, const mcp_market *m, const job_key *k,
                                  const mcpi_trade *t, char *err)
{
  size_t per = j->model == MCPI_MODEL_HESTON ? 2 : 1, n = j->nassets * per;
  for (size_t a = 0; per == 2 && a < j->nassets; a++)
    if (fabs(j->u[a]->rho) >= 1)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' has rho %g, its spot and variance one "
                       "Brownian motion; several Heston assets need |rho| < 1",
                       t->id, j->u[a]->name, j->u[a]->rho);
  size_t bm[MCPI_MAX_FACTORS];
  double c[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS], l[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS];
  for (size_t a = 0; a < j->nassets; a++) {
    bm[a * per] = per == 2 ? MCPI_VARIANCE_BM(k->asset[a]) : MCPI_SPOT_BM(k->asset[a]);
    if (per == 2)
      bm[a * per + 1] = MCPI_SPOT_BM(k->asset[a]);
  }
  for (size_t p = 0; p < n; p++)
    for (size_t q = 0; q < n; q++)
      c[p * n + q] = mcpi_market_bm_correlation(m, bm[p], bm[q]);
  size_t row = mcpi_cholesky(n, c, l);
  if (row) {
    char name[MCPI_MAX_ID_BYTES + 16];
    mcpi_market_bm_name(m, bm[row - 1], name, sizeof name);
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': the correlation matrix of its assets%s is not positive "
                     "definite (Cholesky fails at '%s')",
                     t->id, per == 2 ? "' spots and variances" : "", name);
  }
  if (per == 2) { /* the drivers' correlations, T c T' */
    double d[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS], w[MCPI_MAX_FACTORS][2];
    size_t col[MCPI_MAX_FACTORS][2];
    for (size_t a = 0; a < j->nassets; a++) {
      double rho = j->u[a]->rho, s = sqrt(1 - rho * rho);
      size_t v = 2 * a, x = 2 * a + 1;
      col[v][0] = col[v][1] = v;
      w[v][0] = 1, w[v][1] = 0;
      col[x][0] = x, col[x][1] = v;
      w[x][0] = 1 / s, w[x][1] = -rho / s;
    }
    for (size_t p = 0; p < n; p++)
      for (size_t q = 0; q < n; q++) {
        double sum = 0;
        for (int r = 0; r < 2; r++)
          for (int u = 0; u < 2; u++)
            sum += w[p][r] * w[q][u] * c[col[p][r] * n + col[q][u]];
        d[p * n + q] = p == q ? 1 : p / 2 == q / 2 ? 0 : sum;
      }
    if ((row = mcpi_cholesky(n, d, l)))
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': the correlations of its assets' "
                       "Heston drivers are not positive definite (row %zu)", t->id, row - 1);
  }
  j->chol = calloc(MCPI_CHOL_SIZE, sizeof *j->chol);
  j->chol_f = calloc(MCPI_CHOL_SIZE, sizeof *j->chol_f);
  if (!j->chol || !j->chol_f)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  for (size_t p = 0; p < n; p++)
    for (size_t q = 0; q <= p; q++) {
      j->chol[p * MCPI_MAX_FACTORS + q] = l[p * n + q];
      j->chol_f[p * MCPI_MAX_FACTORS + q] = (float)l[p * n + q];
    }
  return MCP_OK;
}
