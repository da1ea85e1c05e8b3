/* lsm_cpu.c: the Longstaff-Schwartz fit on the CPU (lsm_fit.h), the
 * reference of the GPU's (kernels/lsm_kernel.cu): the same paths, the same
 * chunk sums of the normal equations (stats.h's tree, the chunks in
 * mcpi_lsm_lane_sum's order) and the same solution. */
#include <stdlib.h>
#include "src/exec/lsm_cpu.h"
#include "models/products/lsm_fit.h"
#include "models/rng.h"
#include "src/base/stats.h"

/* Fit paths a thread draws the normals of at once. */
#define FIT_CHUNK 64

mcp_status mcpi_lsm_fit_cpu(const mcpi_job_view *view, mcpi_job *j, char *err)
{
  mcpi_job_view v = *view;
  v.lsm = NULL; /* the fit's paths do not exercise */
  size_t n = (size_t)j->lsm_paths, ne = j->nelem, dates = (size_t)j->lsm_dates;
  size_t ns = (size_t)mcpi_lsm_state_size(&v), nb = (size_t)j->lsm_nb;
  size_t ncol = MCPI_LSM_COLUMNS(nb), nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  double *st = malloc(dates * ns * n * sizeof *st), *y = malloc(n * sizeof *y);
  double *part = malloc(ncol * nch * sizeof *part);
  if (!st || !y || !part) {
    free(st);
    free(y);
    free(part);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY,
                     "out of host memory for the regression's %zu paths x %zu dates",
                     n, dates);
  }
  int ok = 1;
#pragma omp parallel
  {
    double *z = malloc(ne * FIT_CHUNK * sizeof *z);
    if (!z) {
#pragma omp atomic write
      ok = 0;
    }
#pragma omp for schedule(static)
    for (size_t c = 0; c < (n + FIT_CHUNK - 1) / FIT_CHUNK; c++) {
      size_t i0 = c * FIT_CHUNK, m = n - i0 < FIT_CHUNK ? n - i0 : FIT_CHUNK;
      if (!z)
        continue;
      mcpi_rng_fill_host(j->lsm_stream, 0, ne, i0, m, z, NULL, FIT_CHUNK);
      for (size_t k = 0; k < m; k++)
        mcpi_lsm_fit_path(&v, z + k, FIT_CHUNK, j->lsm_stream, i0 + k, j->lsm_table,
                          (int)dates, st, n, y + i0 + k);
    }
    free(z);
  }
  for (int e = (int)dates - 2; ok && e >= 0; e--) {
#pragma omp parallel for schedule(static)
    for (size_t c = 0; c < nch; c++) {
      double phi[MCP_CHUNK_PATHS][MCPI_LSM_MAX_BASIS], col[MCP_CHUNK_PATHS], sq;
      int itm[MCP_CHUNK_PATHS];
      size_t i0 = c * MCP_CHUNK_PATHS, m = n - i0 < MCP_CHUNK_PATHS ? n - i0 : MCP_CHUNK_PATHS;
      for (size_t k = 0; k < m; k++)
        itm[k] = mcpi_lsm_fit_point(&v, j->lsm_table + (size_t)(e + 1) * MCPI_LSM_ROW, st, n,
                                    i0 + k, e, y + i0 + k, phi[k]);
      for (size_t q = 0; q < ncol; q++) {
        for (size_t k = 0; k < m; k++)
          col[k] = mcpi_lsm_term(phi[k], (int)nb, y[i0 + k], itm[k], (int)q);
        mcpi_chunk_sums(col, m, &part[q * nch + c], &sq);
      }
    }
    double sums[MCPI_LSM_COLUMNS(MCPI_LSM_MAX_BASIS)];
    for (size_t q = 0; q < ncol; q++) {
      sums[q] = mcpi_lsm_lane_sum(part + q * nch, nch, 0);
      for (int l = 1; l < MCPI_LSM_LANES; l++)
        sums[q] += mcpi_lsm_lane_sum(part + q * nch, nch, l);
    }
    mcpi_lsm_solve((int)nb, sums, j->lsm_table + (size_t)e * MCPI_LSM_ROW);
  }
  free(st);
  free(y);
  free(part);
  return ok ? MCP_OK
            : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of host memory for the regression's normals");
}
