/* run_job.c: one job through a backend's tiles: the Longstaff-Schwartz
 * fit or the control-variate pilot, then every replicate's samples. */
#include <stdlib.h>
#include "src/exec/backend.h"
#include "src/base/clock.h"

/* The job's and its passes' control coefficients to 0: the pilot's paths
 * emit the payoffs less beta times the control, so it reads the raw payoffs
 * only when beta is 0 (a setup kept from another slice holds that slice's,
 * reval.c). */
static void zero_betas(mcpi_run *run, size_t ji)
{
  mcpi_job *j = &run->plan->jobs[ji];
  for (size_t v = 0; v <= j->npass; v++) {
    mcpi_job *x = v ? mcpi_pass_job(run, ji, v - 1) : j;
    for (size_t t = 0; t < x->ntrades; t++)
      x->spec[t].beta = 0;
  }
}

/* Estimates the control coefficients of the job and of each of its passes
 * (every variant its own, as a run of its own would) on the first samples of
 * replicate 0, which the run then prices again among all the others. */
static mcp_status pilot(mcpi_run *run, mcpi_job *j, const mcpi_tiler *t)
{
  uint64_t samples = mcpi_job_samples(run->plan, j);
  size_t np = (size_t)(samples < MCPI_PILOT_SAMPLES ? samples : MCPI_PILOT_SAMPLES);
  size_t ncol = mcpi_job_columns(j, 1), nblk = 1 + j->npass;
  double *pay = malloc(np * ncol * nblk * sizeof *pay);
  mcp_status st = pay ? MCP_OK
                      : mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY,
                                  "out of host memory for the control-variate pilot");
  zero_betas(run, (size_t)(j - run->plan->jobs));
  if (st == MCP_OK)
    st = t->update_specs(t->self);
  for (size_t s0 = 0; st == MCP_OK && s0 < np; s0 += t->tile) {
    size_t n = np - s0 < t->tile ? np - s0 : t->tile;
    if ((st = mcpi_cancel_check(run->ctx)) || (st = t->fill(t->self, 0, s0, n)) ||
        (st = t->paths(t->self, n, 1)))
      break;
    st = t->read(t->self, n, pay + s0, np);
  }
  if (st == MCP_OK) {
    mcpi_job_set_betas(j, pay, np, np);
    for (size_t p = 0; p < j->npass; p++)
      mcpi_job_set_betas(mcpi_pass_job(run, (size_t)(j - run->plan->jobs), p),
                         pay + (p + 1) * ncol * np, np, np);
    st = t->update_specs(t->self);
  }
  free(pay);
  return st;
}

void mcpi_run_progress(mcpi_run *run, double ahead)
{
  if (run->ctx->progress) {
    run->progress_at = mcpi_now();
    double f = (run->work_done + ahead) / run->work_total;
    run->ctx->progress(f < 1 ? f : 1, run->ctx->progress_user); /* (a run made again: 1) */
  }
}

/* Adds a tile's chunk sums to its replicate's tree, and its work done. */
static void add_tile(mcpi_run *run, const mcpi_job *j, const mcpi_tile_sums *x)
{
  mcpi_tree_add(x->tree, x->part, x->nchunks, x->level, x->n);
  run->work_done += (double)x->n * mcpi_path_work(j);
  mcpi_run_progress(run, 0);
}

/* A host buffer for chunk sums: the tiler's, or one of the run's (*own). */
static double *part_of(const mcpi_tiler *t, size_t bytes, int *own)
{
  double *p = t->part ? t->part(t->self, bytes) : NULL;
  *own = p == NULL;
  return p ? p : malloc(bytes);
}

/* The tile's sums, to add now (a tiler without wait: into part, kept by the
 * caller) or, in js, once the tiler's wait returns (into a part of its own). */
static mcp_status tile_sums(mcpi_run *run, const mcpi_job *j, const mcpi_tiler *t,
                            mcpi_job_sums *js, mcpi_tile_sums x, size_t bytes)
{
  if (!t->wait) {
    mcp_status st = t->sums(t->self, (size_t)x.n, x.level, x.part);
    if (st == MCP_OK)
      add_tile(run, j, &x);
    return st;
  }
  if (js->n == js->cap) {
    size_t cap = js->cap ? 2 * js->cap : 4;
    mcpi_tile_sums *grown = realloc(js->tile, cap * sizeof *grown);
    if (!grown)
      return mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory for chunk sums");
    js->tile = grown;
    js->cap = cap;
  }
  if (!(x.part = part_of(t, bytes, &x.own)))
    return mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory for chunk sums");
  js->tile[js->n++] = x;
  return t->sums(t->self, (size_t)x.n, x.level, x.part);
}

mcp_status mcpi_run_job_start(mcpi_run *run, size_t ji, const mcpi_tiler *t, mcpi_job_sums *js)
{
  mcpi_job *j = &run->plan->jobs[ji];
  uint64_t samples = mcpi_job_samples(run->plan, j), chunks = mcpi_job_chunks(run->plan, j);
  uint64_t u0 = run->range[2 * ji], u1 = run->range[2 * ji + 1];
  size_t ncol = mcpi_job_columns(j, 0), nch = t->tile / MCP_CHUNK_PATHS;
  size_t bytes = ncol * nch * 2 * sizeof(double);
  *js = (mcpi_job_sums){0};
  if (u0 >= u1)
    return MCP_OK;
  mcp_status st = j->controls ? pilot(run, j, t) : MCP_OK;
  /* a scenario point fits its own exercise rule, as a run of its own would;
   * a Greek's bump revalues under the job's (a frozen rule: the bumped price
   * moves with the paths, not with the fit's noise) */
  for (size_t v = 0; j->lsm_dates > 1 && st == MCP_OK && v <= j->npass; v++)
    if ((st = mcpi_cancel_check(run->ctx)) == MCP_OK)
      st = t->fit(t->self, v, v && run->greeks->var[j->pass[v - 1]].kind != MCPI_VAR_POINT);
  int own = 0;
  double *part = t->wait ? NULL : part_of(t, bytes, &own);
  if (st == MCP_OK && !t->wait && !part)
    st = mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory for chunk sums");
  for (uint64_t r = u0 / chunks; st == MCP_OK && r <= (u1 - 1) / chunks; r++) {
    /* the slice's chunks of replicate r */
    uint64_t c0 = (u0 > r * chunks ? u0 : r * chunks) - r * chunks;
    uint64_t c1 = (u1 < (r + 1) * chunks ? u1 : (r + 1) * chunks) - r * chunks;
    uint64_t end = c1 * MCP_CHUNK_PATHS < samples ? c1 * MCP_CHUNK_PATHS : samples;
    mcpi_tree *tree = &run->trees[ji][r];
    if (mcpi_tree_init(tree, ncol, c0, chunks)) {
      st = mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory for chunk sums");
      break;
    }
    for (uint64_t s0 = c0 * MCP_CHUNK_PATHS; s0 < end; s0 += t->tile) {
      size_t n = (size_t)(end - s0 < t->tile ? end - s0 : t->tile);
      size_t nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
      /* nodes of the tree from the tile's first chunk (mcpi_tree_nodes) */
      unsigned lv = t->level;
      while (lv && (s0 / MCP_CHUNK_PATHS & (((uint64_t)1 << lv) - 1)))
        lv--;
      if ((st = mcpi_cancel_check(run->ctx)) || (st = t->fill(t->self, (unsigned)r, s0, n)) ||
          (st = t->paths(t->self, n, 0)) ||
          (st = tile_sums(run, j, t, js, (mcpi_tile_sums){tree, part, 0, nchunks, lv, n},
                          bytes)))
        break;
    }
  }
  if (own)
    free(part);
  return st;
}

mcp_status mcpi_run_job_finish(mcpi_run *run, size_t ji, const mcpi_tiler *t,
                               mcpi_job_sums *js, mcp_status st)
{
  if (st == MCP_OK && t->wait)
    st = t->wait(t->self);
  for (size_t i = 0; i < js->n; i++) {
    if (st == MCP_OK)
      add_tile(run, &run->plan->jobs[ji], &js->tile[i]);
    if (js->tile[i].own)
      free(js->tile[i].part);
  }
  free(js->tile);
  *js = (mcpi_job_sums){0};
  return st;
}

mcp_status mcpi_run_job(mcpi_run *run, size_t ji, const mcpi_tiler *t)
{
  mcpi_job_sums js;
  return mcpi_run_job_finish(run, ji, t, &js, mcpi_run_job_start(run, ji, t, &js));
}
