/* coefficients.c: a job's per-element coefficients (path.h), each step's
 * from its model over the step, its fixing tags, a local-volatility job's
 * slices and the cash dividends dropped at the steps' ends. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "src/base/team.h"
#include "src/plan/plan_build.h"
#include "src/plan/slice_rms.h"
#include "models/rng.h"

/* Steps of one length on flat curves (a daily grid) get one set of
 * coefficients: the grid's times, sums of rounded fractions, make the steps
 * differ in their last bits (the more, the more steps), and with them the
 * coefficients; within 64 ulp a step of that rounding they are the same
 * step, and the GPU's plain kernels then take them as constants
 * (path_kernel.cuh, mcpi_job_view.uniform): one Black-Scholes or
 * local-volatility asset's step of one element (the surface's slices stay a
 * step's own), or one Heston asset's of two (the drift and dt, then
 * e^{-kappa dt}); the grid check's pass of such a job likewise every two
 * steps (mcpi_job_view.paired).  The drift is measured against its terms'
 * size (the step's variance, b^2, or dt times the Heston variance's scale),
 * which a drift that nearly cancels would not show. */
void mcpi_job_equal_steps(mcpi_job *j, size_t P, size_t n)
{
  size_t F = (size_t)j->nfactors;
  int heston = j->model == MCPI_MODEL_HESTON && F == 2;
  int one = (j->model == MCPI_MODEL_BLACK_SCHOLES || j->model == MCPI_MODEL_LOCAL_VOL) && F == 1;
  if (j->nassets != 1 || n < P || !(heston || one))
    return;
  const mcpi_underlying *u = j->u[0];
  const double tol = 64 * DBL_EPSILON * (double)j->nelem;
  for (size_t e = P; e < n; e++) {
    double a0 = j->ca[e % P], b0 = j->cb[e % P];
    double var = !heston ? b0 * b0 : e % F ? 0 : b0 * fmax(u->theta, u->v0);
    if (fabs(j->ca[e] - a0) > tol * (fabs(a0) + var) || fabs(j->cb[e] - b0) > tol * b0)
      return;
  }
  for (size_t e = P; e < n; e++) {
    j->ca[e] = j->ca[e % P];
    j->cb[e] = j->cb[e % P];
  }
}

/* The cash dividends paid within the job's dates: the amount dropped at the
 * end of each step (0 for most) and the steps' tags. */
static mcp_status build_cash(mcpi_job *j, char *err)
{
  const mcpi_underlying *u = j->u[0];
  size_t F = (size_t)j->nfactors, n = j->nsteps;
  double last = j->times[n - 1];
  if (!(j->cash = calloc(n, sizeof *j->cash)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the cash dividends");
  for (size_t i = 0; i < u->ncash; i++) {
    double t = u->cash_t[i] - j->origin; /* as build_grid placed it */
    if (t > 0 && t <= last + MCPI_TIME_EPS) {
      size_t s = mcpi_grid_index(j->times, n, t);
      j->cash[s] += u->cash_amount[i];
      j->tag[s * F + F - 1] |= MCPI_TAG_CASH;
    }
  }
  return MCP_OK;
}

/* A local-volatility job's surfaces, an asset's after another: its
 * log-spots, their bucket table, and a slice an element (a step's asset),
 * each node's root mean square over the step, sqrt(int sigma^2 dt / dt)
 * with sigma linear in time between the surface's times: exact for a
 * surface of time alone (local_vol.h).  The assets share the widest
 * surface's node count, lv_n: a narrower one goes on flat, nodes at its
 * mean spacing with its last value, which interpolate to that value
 * exactly (the same bits as its flat end). */
static mcp_status build_slices(mcpi_job *j, char *err)
{
  size_t n = j->nsteps, na = j->nassets, ns = 0;
  for (size_t a = 0; a < na; a++)
    ns = j->u[a]->lv.ns > ns ? j->u[a]->lv.ns : ns;
  if (n * na * ns > MCPI_MAX_SLICES)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s'%s: %zu simulation times x %zu surface spots x %zu "
                     "assets exceed the %d volatility values a job may hold; use fewer steps, "
                     "spots or assets",
                     j->u[0]->name, na > 1 ? " and the job's other assets" : "", n, ns, na,
                     MCPI_MAX_SLICES);
  j->lv_n = (int)ns;
  j->lv_nb = ns > 1 ? 4 * (int)ns : 1;
  j->lv_y = malloc(na * ns * sizeof(double));
  j->lv_y_f = malloc(na * ns * sizeof(float));
  j->lv_vol = malloc(n * na * ns * sizeof(double));
  j->lv_vol_f = malloc(n * na * ns * sizeof(float));
  j->lv_idx = malloc(na * (size_t)j->lv_nb * sizeof *j->lv_idx);
  j->lv_bin = malloc(na * sizeof *j->lv_bin);
  if (!j->lv_y || !j->lv_y_f || !j->lv_vol || !j->lv_vol_f || !j->lv_idx || !j->lv_bin)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the volatility slices");
  for (size_t a = 0; a < na; a++) {
    const mcpi_surface *s = &j->u[a]->lv;
    double *y = j->lv_y + a * ns, gap = 1; /* the flat nodes: the surface's mean spacing */
    int32_t *idx = j->lv_idx + a * (size_t)j->lv_nb;
    if (s->ns > 1)
      gap = (log(s->spots[s->ns - 1]) - log(s->spots[0])) / (double)(s->ns - 1);
    for (size_t k = 0; k < ns; k++) {
      y[k] = k < s->ns ? log(s->spots[k]) : y[k - 1] + gap;
      j->lv_y_f[a * ns + k] = (float)y[k];
    }
    j->lv_bin[a] = mcpi_local_vol_buckets(y, (int)ns, j->lv_nb, idx);
#pragma omp parallel if (n * ns >= MCPI_PARALLEL_SLICES) \
    num_threads(mcpi_team(n * ns, MCPI_PARALLEL_SLICES))
    {
      size_t r = 0; /* the row bracket of the step's start: times[r - 1] <= t0 < times[r] */
#pragma omp for schedule(static)
      for (size_t i = 0; i < n; i++)
        mcpi_job_slice(j, a, i ? j->times[i - 1] : 0, j->times[i], &r,
                       j->lv_vol + (i * na + a) * ns, j->lv_vol_f + (i * na + a) * ns);
    }
  }
  j->lv_binv = j->lv_bin[0];
  return MCP_OK;
}

/* the nodes a slice's pass holds on the stack */
#define SLICE_NODES 64

void mcpi_job_slice(const mcpi_job *j, size_t a, double t0, double t1, size_t *row, double *vol,
                    float *vol_f)
{
  const mcpi_surface *s = &j->u[a]->lv;
  size_t ns = s->ns, r = *row;
  int copy = mcpi_host_copy();
  while (r < s->nt && s->times[r] <= t0)
    r++;
  *row = r;
  /* SLICE_NODES nodes at a time, each piece's bracket weight once for them
   * (a 200 x 400 surface's 252 daily slices were half of a call's host
   * work); each node's pieces are summed in the same order as alone */
  for (size_t k = 0; k < ns; k += SLICE_NODES) {
    size_t m = ns - k < SLICE_NODES ? ns - k : SLICE_NODES;
    double first[SLICE_NODES], last[SLICE_NODES], pt = t0, *acc = vol + k;
    const double *pv = first;
    mcpi_surface_row_values(s, r, t0, k, m, first);
    for (size_t i = 0; i < m; i++)
      acc[i] = 0;
    /* pieces between t0, the surface's times inside the step, and t1 */
    for (size_t q = r;; q++) {
      int inside = q < s->nt && s->times[q] < t1;
      double qt = inside ? s->times[q] : t1;
      const double *qv = last;
      if (inside)
        qv = s->values + q * ns + k;
      else
        mcpi_surface_row_values(s, q, t1, k, m, last);
      mcpi_rms_piece(copy, acc, qt - pt, pv, qv, m);
      if (!inside)
        break;
      pt = qt;
      pv = qv;
    }
    mcpi_rms_roots(copy, acc, t1 - t0, acc, vol_f + k, m);
  }
  for (size_t k = ns; k < (size_t)j->lv_n; k++) { /* a narrower surface's flat nodes */
    vol[k] = vol[ns - 1];
    vol_f[k] = vol_f[ns - 1];
  }
}

/* The surface's value at node k and time t in the row bracket r, as
 * mcpi_surface_row_at takes it: rows row[0], row[1] with weights w. */
static void row_weights(const mcpi_surface *s, size_t r, double t, size_t row[2], double w[2])
{
  row[0] = row[1] = r == 0 ? 0 : r == s->nt ? s->nt - 1 : r - 1;
  w[0] = 1;
  w[1] = 0;
  if (r > 0 && r < s->nt) {
    row[1] = r;
    w[1] = (t - s->times[r - 1]) / (s->times[r] - s->times[r - 1]);
    w[0] = 1 - w[1];
  }
}

size_t mcpi_job_slice_jacobian(const mcpi_job *j, size_t a, double t0, double t1,
                               const double *v, double *d, size_t ld, size_t *lo)
{
  const mcpi_surface *s = &j->u[a]->lv;
  size_t ns = s->ns, r = 0, hi = s->nt, end = 0;
  while (r < hi) { /* the first row after t0 */
    size_t mid = r + (hi - r) / 2;
    if (s->times[mid] <= t0)
      r = mid + 1;
    else
      hi = mid;
  }
  size_t pr0[2];
  double pw0[2];
  row_weights(s, r, t0, pr0, pw0);
  *lo = pr0[0];
  /* d acc / d value, acc the sum of mcpi_job_slice's pieces, SLICE_NODES
   * nodes at a time */
  for (size_t k = 0; k < ns; k += SLICE_NODES) {
    size_t m = ns - k < SLICE_NODES ? ns - k : SLICE_NODES, pr[2] = {pr0[0], pr0[1]}, qr[2];
    double first[SLICE_NODES], last[SLICE_NODES], scale[SLICE_NODES], pt = t0, qw[2];
    double pw[2] = {pw0[0], pw0[1]};
    const double *pv = first;
    mcpi_surface_row_values(s, r, t0, k, m, first);
    for (size_t i = 0; i < m; i++)
      scale[i] = v[k + i] > 0 ? 1 / (2 * v[k + i] * (t1 - t0)) : 0;
    for (size_t q = r;; q++) {
      int inside = q < s->nt && s->times[q] < t1;
      double qt = inside ? s->times[q] : t1;
      const double *qv = last;
      if (inside) {
        qv = s->values + q * ns + k;
        qr[0] = qr[1] = q;
        qw[0] = 1;
        qw[1] = 0;
      } else {
        mcpi_surface_row_values(s, q, t1, k, m, last);
        row_weights(s, q, t1, qr, qw);
      }
      for (size_t i = 0; i < m; i++) {
        double dp = (qt - pt) * (2 * pv[i] + qv[i]) / 3 * scale[i];
        double dq = (qt - pt) * (pv[i] + 2 * qv[i]) / 3 * scale[i];
        double *dn = d + (k + i) * ld;
        for (int h = 0; h < 2; h++) {
          dn[pr[h]] += dp * pw[h];
          dn[qr[h]] += dq * qw[h];
        }
      }
      if (!inside) {
        end = qr[1] + 1; /* the rows rise with q */
        break;
      }
      pt = qt;
      pv = qv;
      pr[0] = qr[0], pr[1] = qr[1], pw[0] = qw[0], pw[1] = qw[1];
    }
  }
  return end;
}

/* The integral of the rate less the dividend over (t0, t1]. */
static double drift_integral(const mcpi_underlying *u, double t0, double t1)
{
  return mcpi_curve_integral(&u->rate, t0, t1) - mcpi_curve_integral(&u->dividend, t0, t1);
}

int mcpi_job_step_coefficients(const mcpi_job *j, double t0, double t1, size_t f, double *a,
                               double *b)
{
  size_t F = (size_t)j->nfactors, per = j->nassets > 1 ? F / j->nassets : F;
  /* a multi-asset job draws its assets' factors in turn */
  const mcpi_underlying *u = j->u[j->nassets > 1 ? f / per : 0];
  double dt = t1 - t0;
  if (j->extrema && f == (size_t)j->extrema) { /* reads the normal alone */
    *a = *b = 0;
    return 0;
  }
  /* the curves' integrals where the factor reads them (a large book's
   * plan makes every step's coefficients of every job: a Heston asset's
   * variance factor reads none, and its spot factor no volatility) */
  switch (j->model) {
  case MCPI_MODEL_HESTON: /* an asset's first factor drives its variance */
    *a = f % 2 == 0 ? drift_integral(u, t0, t1) : exp(-u->kappa * dt);
    *b = f % 2 == 0 ? dt : 0;
    break;
  case MCPI_MODEL_MERTON: {
    double jump_k = exp(u->jump_mean + 0.5 * u->jump_vol * u->jump_vol) - 1;
    if (u->lambda * dt > MCPI_MAX_JUMP_MEAN)
      return -1;
    double v2 = f == 0 ? mcpi_curve_integral_sq(&u->vol, t0, t1) : 0;
    *a = f == 0   ? drift_integral(u, t0, t1) - 0.5 * v2 - u->lambda * jump_k * dt
         : f == 1 ? u->lambda * dt
                  : u->jump_mean;
    *b = f == 0 ? sqrt(v2) : f == 1 ? 0 : u->jump_vol;
    break;
  }
  case MCPI_MODEL_LOCAL_VOL: /* the volatility comes from the slice */
    *a = drift_integral(u, t0, t1);
    *b = sqrt(dt);
    break;
  default: {
    double v2 = mcpi_curve_integral_sq(&u->vol, t0, t1);
    *a = drift_integral(u, t0, t1) - 0.5 * v2;
    *b = sqrt(v2);
  }
  }
  return 0;
}

mcp_status mcpi_build_coefficients(mcpi_job *j, const job_draft *d, char *err)
{
  mcp_status st;
  size_t ne = j->nelem, F = (size_t)j->nfactors;
  j->ca = malloc(ne * sizeof(double));
  j->cb = malloc(ne * sizeof(double));
  j->ca_f = malloc(ne * sizeof(float));
  j->cb_f = malloc(ne * sizeof(float));
  j->tag = calloc(ne, sizeof(uint32_t));
  j->sqrt_dt = malloc(ne * sizeof(double));
  if (!j->ca || !j->cb || !j->ca_f || !j->cb_f || !j->tag || !j->sqrt_dt)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
  const mcpi_underlying *u0 = j->u[0];
  for (size_t s = 0; s < j->nsteps; s++) {
    double t0 = s ? j->times[s - 1] : 0, t1 = j->times[s], dt = t1 - t0;
    double *a = j->ca + s * F, *b = j->cb + s * F;
    for (size_t f = 0; f < F; f++) {
      j->tag[s * F + f] = (uint32_t)f << MCPI_TAG_FACTOR_SHIFT;
      j->sqrt_dt[s * F + f] = sqrt(dt);
      if (mcpi_job_step_coefficients(j, t0, t1, f, &a[f], &b[f])) {
        const mcpi_underlying *u = j->u[0]; /* Merton: one underlying */
        return mcpi_fail(err, MCP_ERR_INPUT,
                         "underlying '%s': lambda x step = %g expected jumps in one step, "
                         "more than %g; add simulation times (steps_per_year)",
                         u->name, u->lambda * dt, MCPI_MAX_JUMP_MEAN);
      }
    }
    j->tag[s * F + F - 1] |= MCPI_TAG_LAST;
  }
  if (j->model == MCPI_MODEL_LOCAL_VOL && (st = build_slices(j, err)) != MCP_OK)
    return st;
  mcpi_job_equal_steps(j, F, ne);
  for (size_t e = 0; e < ne; e++) {
    j->ca_f[e] = (float)j->ca[e];
    j->cb_f[e] = (float)j->cb[e];
  }
  for (int k = 0; k < d->nsched; k++) {
    j->open |= (uint32_t)(d->sched[k].open == 1) << k; /* MCPI_OPEN_ANY: as 0 */
    for (size_t i = 0; i < d->sched[k].n; i++)
      j->tag[mcpi_grid_index(j->times, j->nsteps, d->sched[k].t[i]) * F + F - 1] |= 1u << k;
  }
  return j->nassets == 1 && u0->ncash ? build_cash(j, err) : MCP_OK;
}
