/* lsm_fit.h: the Longstaff-Schwartz fit's paths, shared by the CPU and GPU
 * backends (lsm.h has the rule they fit).  A fit path is the job's path in
 * double, stepped by the path body with no exercise (view->lsm NULL), that
 * records its state at each exercise date: the log-spots, and the variance
 * of one Heston asset (several: their log-spots alone),
 * mcpi_lsm_state_size of them.  Its cash flow y starts as the
 * discounted exercise value at the last date; going back a date at a time,
 * the fitted rule of the later date replaces it where the path exercises
 * there, and the path adds its terms of the earlier date's normal
 * equations. */
#ifndef MCP_LSM_FIT_H
#define MCP_LSM_FIT_H

#include "models/products/path.h"
#include "models/rng.h"

/* The fit's shape: its assets n, and heston where one Heston asset's
 * variance is recorded and in the basis; the GPU's kernels pass constants
 * for the shapes they specialise, so that the basis stays in registers. */
typedef struct {
  int n, heston;
} mcpi_lsm_dims;

MCP_HD static inline mcpi_lsm_dims mcpi_lsm_dims_of(const mcpi_job_view *j)
{
  mcpi_lsm_dims d;
  d.n = j->nassets;
  d.heston = j->nassets == 1 && j->model == MCPI_MODEL_HESTON;
  return d;
}

/* Values recorded a path and date. */
MCP_HD static inline int mcpi_lsm_state_size(mcpi_lsm_dims d)
{
  return d.n > 1 ? d.n : d.heston ? 2 : 1;
}

/* Path i's exercise value at date e from the states (value k of path i at
 * date e at st[(e ns + k) ld + i]) and its spots there s (e^x of its
 * log-spots, which the CPU computes a chunk at a time), with what the basis
 * reads: the underlying, the log-returns r (several assets) and the
 * variance v, as the path body computes them at that date. */
MCP_HD static inline double mcpi_lsm_state_spots(const mcpi_job_view *j, mcpi_lsm_dims d,
                                                 const double *st, size_t ld, size_t i, int e,
                                                 const double *s, double *under, double *r,
                                                 double *v)
{
  int ns = mcpi_lsm_state_size(d);
  for (int a = 0; a < d.n; a++)
    r[a] = st[((size_t)e * ns + a) * ld + i] - j->trades[0].log_initial[a];
  *v = d.heston ? st[((size_t)e * ns + 1) * ld + i] : 0;
  return mcpi_lsm_exercise(&j->trades[0], s, d.n, under);
}

/* The same with the spots computed here. */
MCP_HD static inline double mcpi_lsm_state_at(const mcpi_job_view *j, mcpi_lsm_dims d,
                                              const double *st, size_t ld, size_t i, int e,
                                              double *under, double *r, double *v)
{
  int ns = mcpi_lsm_state_size(d);
  double s[MCP_MAX_ASSETS];
  for (int a = 0; a < d.n; a++)
    s[a] = mcpi_dexp(st[((size_t)e * ns + a) * ld + i]);
  return mcpi_lsm_state_spots(j, d, st, ld, i, e, s, under, r, v);
}

/* Fit path i: its normals z[e ldz] (or, z NULL, the canonical ones of seed
 * computed here), its states into st (leading dimension ld) and its cash
 * flow *y at the last of the table's dates. */
MCP_HD static inline void mcpi_lsm_fit_path(const mcpi_job_view *j, const double *z, size_t ldz,
                                            uint64_t seed, uint64_t i, const double *table,
                                            int dates, double *st, size_t ld, double *y)
{
  mcpi_lsm_dims d = mcpi_lsm_dims_of(j);
  int ns = mcpi_lsm_state_size(d), e = 0;
  double pair[2];
  mcpi_path_state ps = {0}; /* one of the three is stepped */
  mcpi_multi_state ms = {0};  /* with the surfaces of local-volatility assets */
  mcpi_mheston_state hs; /* set where stepped */
  int lv = j->model == MCPI_MODEL_LOCAL_VOL, hn = j->nassets > 1 && j->model == MCPI_MODEL_HESTON;
  if (hn)
    mcpi_mheston_init(&hs, j, 0);
  else if (j->nassets > 1)
    mcpi_multi_init(&ms, j, 0);
  else
    mcpi_path_init(&ps, j, 0);
  for (int k = 0; k < j->nelem; k++) {
    double zk = z ? z[(size_t)k * ldz] : (mcpi_rng_pair(seed, (uint64_t)k, i & ~(uint64_t)1, pair),
                                         i & 1 ? pair[1] : pair[0]); /* (adjoint.h's) */
    uint32_t tag = j->tag[k];
    if (hn)
      mcpi_mheston_step(&hs, j, zk, j->ca[k], j->cb[k], tag);
    else if (j->nassets > 1)
      mcpi_multi_step_as(&ms, j, zk, j->ca[k], j->cb[k], tag, lv);
    else
      mcpi_path_step(&ps, j, zk, j->ca[k], j->cb[k], tag);
    if ((tag & j->lsm_mask) && (tag & MCPI_TAG_LAST) && e < dates) {
      for (int a = 0; a < ns; a++)
        st[((size_t)e * ns + a) * ld + i] = hn                ? hs.x[a]
                                            : j->nassets > 1 ? ms.x[a]
                                            : a              ? ps.v
                                                             : ps.x;
      e++;
    }
  }
  double under, r[MCP_MAX_ASSETS], v, value;
  double h = mcpi_lsm_state_at(j, d, st, ld, (size_t)i, dates - 1, &under, r, &v);
  *y = mcpi_lsm_exercises(table + (size_t)(dates - 1) * MCPI_LSM_ROW, h, 0, &value) ? value : 0;
}

/* Path i's basis at date e into phi and what it reads (mcpi_lsm_state_at's
 * under, r, v); returns its exercise value there. */
MCP_HD static inline double mcpi_lsm_fit_state(const mcpi_job_view *j, mcpi_lsm_dims d,
                                               const double *st, size_t ld, size_t i, int e,
                                               double *phi, double *under, double *r,
                                               double *v)
{
  double h = mcpi_lsm_state_at(j, d, st, ld, i, e, under, r, v);
  mcpi_lsm_basis(&j->trades[0], d.n, d.heston, *under, r, *v, phi, (const double *)0);
  return h;
}

/* The same, what it reads dropped; returns whether it is in the money. */
MCP_HD static inline int mcpi_lsm_fit_basis(const mcpi_job_view *j, mcpi_lsm_dims d,
                                            const double *st, size_t ld, size_t i, int e,
                                            double *phi)
{
  double under, r[MCP_MAX_ASSETS], v;
  return mcpi_lsm_fit_state(j, d, st, ld, i, e, phi, &under, r, &v) > 0;
}

/* Path i at date e < dates - 1 of the fit: the rule of date e + 1 (its
 * table row next) applied to its cash flow *y, then its basis at e into
 * phi; returns whether it is in the money at e. */
MCP_HD static inline int mcpi_lsm_fit_point(const mcpi_job_view *j, mcpi_lsm_dims d,
                                            const double *next, const double *st, size_t ld,
                                            size_t i, int e, double *y, double *phi)
{
  double under, r[MCP_MAX_ASSETS], v, value;
  double h = mcpi_lsm_state_at(j, d, st, ld, i, e + 1, &under, r, &v);
  if (mcpi_lsm_exercises(next, h,
                         mcpi_lsm_continuation(&j->trades[0], next, h, d.n, d.heston, under, r,
                                               v),
                         &value))
    *y = value;
  return mcpi_lsm_fit_basis(j, d, st, ld, i, e, phi);
}

#endif
