/* lsm_cpu.c: the Longstaff-Schwartz fit on the CPU (lsm_fit.h), the
 * reference of the GPU's (kernels/lsm_kernel.cu): the same paths, the same
 * chunk sums of the normal equations (stats.h's tree, the chunks in
 * mcpi_lsm_lane_sum's order) and the same solution.
 *
 * Shaped for the CPU (issue 31): a parallel region for the paths and one
 * for all the dates (none for a few chunks' dates), a barrier a date (each
 * thread then factors and solves the date itself, the same sums to the
 * same coefficients, so no second barrier hands them out; the GPU factors
 * every date before the walk, which would cost the CPU a second evaluation
 * of each path's basis a date, 13% of an American put's fit); a path's
 * state is read once a date, its basis kept, column by column (structure
 * of arrays), for the next date's continuation value; each column's terms
 * are products of those columns, summed by the tree alone.  The terms and
 * their order are those of mcpi_lsm_fit_point and mcpi_lsm_term, so the
 * table's bits do not change, whatever the threads. */
#include <stdlib.h>
#include <string.h>
#include "src/exec/lsm_cpu.h"
#include "models/products/lsm_fit.h"
#include "models/rng.h"
#include "src/base/stats.h"

/* Fit paths a thread draws the normals of at once. */
#define FIT_CHUNK 64
/* The fewest chunks of paths whose dates the threads share: a date of
 * fewer is a few milliseconds' work or less, which a barrier a date costs
 * as much as on a loaded machine (a thread held back holds all). */
#define MIN_SHARED_CHUNKS 128

/* mcpi_chunk_sums's sum of a[0..256) (the tail past the paths 0), in place. */
static double tree_sum(double *a)
{
  for (size_t h = MCP_CHUNK_PATHS / 2; h >= 1; h /= 2)
#pragma omp simd
    for (size_t i = 0; i < h; i++)
      a[i] += a[i + h];
  return a[0];
}

/* What the fit keeps between dates: the paths' cash flows y, and at the
 * date just done and the one being done (by parity) their exercise values
 * h and basis values phi (function k of path i at phi[k n + i]), and the
 * chunks' sums of the date's columns (column q of chunk c at part[q nch + c]). */
typedef struct {
  size_t n, nb, ncol, nch;
  double *y, *h[2], *phi[2], *part[2];
  int copy; /* the host's vector copy (mcpi_host_copy) */
} fit_state;

/* The continuation value of row at path i from its kept basis, the sum
 * mcpi_lsm_continuation computes from the state, in the same order. */
static double continuation(const double *row, double h, const double *phi, size_t nb,
                           size_t n)
{
  double c = 0;
  if (h > 0 && row[1] == MCPI_LSM_FIT)
    for (size_t k = 0; k < nb; k++)
      c += row[2 + k] * phi[k * n];
  return c;
}

/* Chunk c at date e: the rule of date e + 1 (next; none at the last date)
 * applied to the cash flows, the state at e read into h and phi, and the
 * chunk's sums of the normal equations' columns (mcpi_lsm_term's), from a
 * tile of its basis and cash flows padded to a whole chunk with +0, as are
 * the paths out of the money, whose terms are then +0 as mcpi_lsm_term's
 * (y >= 0). */
static void fit_chunk(const mcpi_job_view *v, const double *st, const fit_state *f, int e,
                      const double *next, size_t c)
{
  size_t n = f->n, nb = f->nb, i0 = c * MCP_CHUNK_PATHS;
  size_t m = n - i0 < MCP_CHUNK_PATHS ? n - i0 : MCP_CHUNK_PATHS;
  const mcpi_payoff_spec *p = &v->trades[0];
  mcpi_lsm_dims d = mcpi_lsm_dims_of(v);
  double *h = f->h[e & 1], *phi = f->phi[e & 1], *part = f->part[e & 1];
  const double *hn = f->h[(e + 1) & 1], *phin = f->phi[(e + 1) & 1];
  double tile[MCPI_LSM_MAX_BASIS][MCP_CHUNK_PATHS], yy[MCP_CHUNK_PATHS], one[MCP_CHUNK_PATHS];
  double col[MCP_CHUNK_PATHS], spot[MCP_MAX_ASSETS][MCP_CHUNK_PATHS];
  size_t ns = (size_t)mcpi_lsm_state_size(d);
  for (int a = 0; a < v->nassets; a++) /* the chunk's spots at e, in vectors */
    mcpi_exp_lanes(f->copy, st + ((size_t)e * ns + (size_t)a) * n + i0, spot[a], m);
  for (size_t k = 0; k < MCP_CHUNK_PATHS; k++) {
    size_t i = i0 + k;
    double under, r[MCP_MAX_ASSETS], var, value, b[MCPI_LSM_MAX_BASIS], s[MCP_MAX_ASSETS];
    int itm = 0;
    if (k < m) {
      if (next && mcpi_lsm_exercises(next, hn[i], continuation(next, hn[i], phin + i, nb, n),
                                     &value))
        f->y[i] = value;
      for (int a = 0; a < v->nassets; a++)
        s[a] = spot[a][k];
      h[i] = mcpi_lsm_state_spots(v, d, st, n, i, e, s, &under, r, &var);
      mcpi_lsm_basis(p, d.n, d.heston, under, r, var, b, (const double *)0);
      for (size_t a = 0; a < nb; a++)
        phi[a * n + i] = b[a];
      itm = h[i] > 0;
    }
    for (size_t a = 0; a < nb; a++)
      tile[a][k] = itm ? b[a] : 0;
    yy[k] = itm ? f->y[i] : 0;
    one[k] = itm ? 1 : 0;
  }
  if (!next)
    return; /* the last date: its state only */
  size_t q = 0;
  for (size_t a = 0; a < nb; a++) /* phi_a phi_b, a <= b */
    for (size_t bb = a; bb < nb; bb++, q++) {
#pragma omp simd
      for (size_t k = 0; k < MCP_CHUNK_PATHS; k++)
        col[k] = tile[a][k] * tile[bb][k];
      part[q * f->nch + c] = tree_sum(col);
    }
  for (size_t a = 0; a < nb; a++, q++) { /* phi_a y */
#pragma omp simd
    for (size_t k = 0; k < MCP_CHUNK_PATHS; k++)
      col[k] = tile[a][k] * yy[k];
    part[q * f->nch + c] = tree_sum(col);
  }
  part[q * f->nch + c] = tree_sum(one); /* the count */
}

/* Date e's rule and coefficients into row (its discount factor already
 * there) from the chunks' sums, in mcpi_lsm_lane_sum's order. */
static void solve_date(const fit_state *f, int e, double *row)
{
  double sums[MCPI_LSM_COLUMNS(MCPI_LSM_MAX_BASIS)];
  const double *part = f->part[e & 1];
  double fac[MCPI_LSM_FACTOR];
  for (size_t q = 0; q < f->ncol; q++) {
    sums[q] = mcpi_lsm_lane_sum(part + q * f->nch, f->nch, 0);
    for (int l = 1; l < MCPI_LSM_LANES; l++)
      sums[q] += mcpi_lsm_lane_sum(part + q * f->nch, f->nch, l);
  }
  size_t ntri = f->nb * (f->nb + 1) / 2;
  double rhs[MCPI_LSM_MAX_BASIS];
  memcpy(rhs, sums + ntri, f->nb * sizeof *rhs);
  sums[ntri] = sums[ntri + f->nb]; /* the Gram's: the triangle, then the count */
  mcpi_lsm_factor((int)f->nb, sums, fac);
  for (int k = 0; fac[0] != 0 && k < 2 * (int)f->nb; k++)
    mcpi_lsm_operator_column((int)f->nb, fac, k);
  mcpi_lsm_solve((int)f->nb, fac, rhs, row);
}

mcp_status mcpi_lsm_fit_cpu(const mcpi_job_view *view, mcpi_job *j, mcp_context *ctx)
{
  char *err = ctx->err;
  mcpi_job_view v = *view;
  v.lsm = NULL; /* the fit's paths do not exercise */
  size_t n = (size_t)j->lsm_paths, ne = j->nelem, dates = (size_t)j->lsm_dates;
  size_t ns = (size_t)mcpi_lsm_state_size(mcpi_lsm_dims_of(&v)), nb = (size_t)j->lsm_nb;
  fit_state f = {.n = n, .nb = nb, .ncol = MCPI_LSM_COLUMNS(nb),
                 .nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS,
                 .copy = mcpi_host_copy()};
  double *st = malloc(dates * ns * n * sizeof *st), *all;
  size_t per = 2 * n + 2 * nb * n + 2 * f.ncol * f.nch; /* h, phi, part */
  f.y = malloc(n * sizeof *f.y);
  all = malloc(per * sizeof *all);
  if (!st || !f.y || !all) {
    free(st);
    free(f.y);
    free(all);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY,
                     "out of host memory for the regression's %zu paths x %zu dates",
                     n, dates);
  }
  for (int b = 0; b < 2; b++) {
    f.h[b] = all + b * n;
    f.phi[b] = all + 2 * n + b * nb * n;
    f.part[b] = all + 2 * n + 2 * nb * n + b * f.ncol * f.nch;
  }
  int ok = 1;
#pragma omp parallel
  {
    double *z = malloc(ne * FIT_CHUNK * sizeof *z);
    if (!z) {
#pragma omp atomic write
      ok = 0;
    }
#pragma omp for schedule(dynamic) /* each path its own: any thread */
    for (size_t c = 0; c < (n + FIT_CHUNK - 1) / FIT_CHUNK; c++) {
      size_t i0 = c * FIT_CHUNK, m = n - i0 < FIT_CHUNK ? n - i0 : FIT_CHUNK;
      if (!z || mcpi_cancel_asked(ctx))
        continue;
      mcpi_rng_fill_host(j->lsm_stream, 0, ne, i0, m, z, NULL, FIT_CHUNK);
      for (size_t k = 0; k < m; k++)
        mcpi_lsm_fit_path(&v, z + k, FIT_CHUNK, j->lsm_stream, i0 + k, j->lsm_table,
                          (int)dates, st, n, f.y + i0 + k);
    }
    free(z);
  }
  mcp_status cancel = ok ? mcpi_cancel_check(ctx) : MCP_OK; /* the dates take no request */
  ok = ok && cancel == MCP_OK;
  /* the states of the last date, then the dates back from it; each thread
   * keeps the rule of the date after (the same in every thread).  A date of
   * few chunks is too little work to share: its barrier would cost more. */
#pragma omp parallel if (f.nch >= MIN_SHARED_CHUNKS)
  {
    double next[MCPI_LSM_ROW];
    memcpy(next, j->lsm_table + (dates - 1) * MCPI_LSM_ROW, sizeof next);
#pragma omp for schedule(static)
    for (size_t c = 0; c < f.nch; c++)
      if (ok && dates > 1)
        fit_chunk(&v, st, &f, (int)dates - 1, NULL, c);
    for (int e = (int)dates - 2; ok && e >= 0; e--) {
#pragma omp for schedule(static) nowait
      for (size_t c = 0; c < f.nch; c++)
        fit_chunk(&v, st, &f, e, next, c);
#pragma omp barrier
      /* part is double-buffered by date: a thread past this solve writes
       * the other half, which no thread still reads */
      next[0] = j->lsm_table[(size_t)e * MCPI_LSM_ROW]; /* the discount factor */
      solve_date(&f, e, next);
#pragma omp master
      memcpy(j->lsm_table + (size_t)e * MCPI_LSM_ROW + 1, next + 1,
             (MCPI_LSM_ROW - 1) * sizeof *next);
    }
  }
  free(st);
  free(f.y);
  free(all);
  return ok || cancel != MCP_OK
             ? cancel
             : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of host memory for the regression's normals");
}
