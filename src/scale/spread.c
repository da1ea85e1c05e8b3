/* spread.c: a pricing over the context's devices: planned once by the
 * calling thread, then slices taken by one worker a device as each becomes
 * free (dynamic balancing), then merged; the same bits as one device's
 * run, whatever finished first. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "src/exec/setup.h"
#include "src/scale/scale.h"
#include "src/base/clock.h"
#include "src/base/team.h"

/* MCP_SLICES_PER_DEVICE: enough that a fast device takes more slices than
 * a slow one, few enough that the cost of a slice (the pilot, the fit, a
 * launch a job) stays small. */

typedef struct pool {
  mcp_context *base;
  const mcp_market *m;
  const mcp_portfolio *p;
  const mcp_greeks *g;
  const mcp_scenarios *s;
  unsigned nslices;
  mcp_partial **parts;
  /* a price or Greeks run's setup, built once by the calling thread, a
   * share of it for each worker; NULL for a scenario grid, whose groups of
   * points each build their own */
  mcpi_setup *shared;
  atomic_uint next, done;
  atomic_int stop;
  pthread_mutex_t lock;
  mcp_status st; /* the failure of the lowest slice that failed */
  unsigned failed;
  char err[MCPI_ERRLEN];
} pool;

typedef struct worker {
  pool *pool;
  mcp_context *ctx;
  mcpi_setup *keep; /* its share of the pool's setup */
  int main;         /* the calling thread: it reports progress */
  int threads;      /* the OpenMP team of its host work */
} worker;

/* The partials never leave the call: no digest of its inputs guards them. */
static const uint64_t in_process = 0;

/* A worker's failure at slice k: the pool's, unless a lower slice failed;
 * k = nslices, its share of the setup, stops no one: the others take its
 * slices, and the call fails only where none took them all. */
static void failed(worker *w, mcp_status st, unsigned k)
{
  pool *x = w->pool;
  pthread_mutex_lock(&x->lock);
  if (x->st == MCP_OK || k < x->failed) {
    x->st = st;
    x->failed = k;
    memcpy(x->err, w->ctx->err[0] ? w->ctx->err : mcp_last_error(), sizeof x->err);
  }
  pthread_mutex_unlock(&x->lock);
  if (k < x->nslices)
    atomic_store(&x->stop, 1);
}

static void *work(void *arg)
{
  worker *w = arg;
  pool *x = w->pool;
  int was = mcpi_team_set(w->threads); /* its share of the host's: the caller's given back */
  mcp_status st = x->shared ? mcpi_setup_share(x->shared, &w->keep, w->ctx->err) : MCP_OK;
  if (st != MCP_OK)
    failed(w, st, x->nslices);
  while (st == MCP_OK && !atomic_load(&x->stop)) {
    unsigned k = atomic_fetch_add(&x->next, 1);
    if (k >= x->nslices)
      break;
    st = mcpi_price_slice(w->ctx, x->m, x->p, x->g, x->s, k, x->nslices,
                          &(mcpi_shared){.keep = &w->keep, .digest = &in_process},
                          &x->parts[k]);
    if (st != MCP_OK) {
      failed(w, st, k);
      break;
    }
    unsigned done = atomic_fetch_add(&x->done, 1) + 1;
    if (w->main && x->base->progress)
      x->base->progress((double)done / x->nslices, x->base->progress_user);
  }
  mcpi_team_set(was);
  return NULL;
}

/* The devices' contexts, made by the first call and kept in ctx (their
 * streams, buffers and the device's limits are a call's fixed cost: a
 * context's first run makes them); each call gives them ctx's settings. */
static mcp_status kept_workers(mcp_context *ctx)
{
  if (ctx->workers)
    return MCP_OK;
  if (!(ctx->workers = calloc(ctx->ndevices, sizeof *ctx->workers)))
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the devices");
  ctx->nworkers = ctx->ndevices;
  for (size_t i = 0; i < ctx->ndevices; i++) {
    mcp_status st = mcp_context_create(&ctx->workers[i], ctx->backend);
    if (st == MCP_OK && (st = mcp_context_set_device(ctx->workers[i], ctx->devices[i])))
      memcpy(ctx->err, ctx->workers[i]->err, sizeof ctx->err);
    else if (st != MCP_OK)
      mcpi_fail(ctx->err, st, "cannot make a context for device %d", ctx->devices[i]);
    if (st != MCP_OK) {
      mcpi_context_drop_workers(ctx);
      return st;
    }
  }
  return MCP_OK;
}

/* The call's workers on ctx's kept contexts, each given ctx's settings
 * (its wisdom copied where new or changed since), an empty message and its
 * share of the calling thread's OpenMP threads. */
static mcp_status make_workers(mcp_context *ctx, worker *w, pool *x)
{
  int copy = !ctx->workers || ctx->workers_wisdom != ctx->wisdom_set;
  mcp_status st = kept_workers(ctx);
  for (size_t i = 0; st == MCP_OK && i < ctx->ndevices; i++) {
    mcp_context *c = w[i].ctx = ctx->workers[i];
    c->tile_paths = ctx->tile_paths;
    c->block = ctx->block;
    c->run = ctx->run;
    c->cancel = ctx->cancel; /* one request stops every device */
    c->err[0] = '\0';
    if (copy && (st = mcp_context_set_wisdom(c, ctx->wisdom)) != MCP_OK)
      memcpy(ctx->err, c->err, sizeof ctx->err);
    w[i].pool = x;
    w[i].main = i == 0;
    w[i].threads = mcpi_team_share(ctx->ndevices);
  }
  if (st == MCP_OK)
    ctx->workers_wisdom = ctx->wisdom_set;
  return st;
}

static mcp_status spread(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, const mcp_scenarios *s, mcp_results **results,
                         mcp_scenario_results **sresults)
{
  double t0 = mcpi_now();
  size_t nw = ctx->ndevices;
  pool x = {.base = ctx, .m = m, .p = p, .g = g, .s = s,
            .nslices = (unsigned)(nw * MCP_SLICES_PER_DEVICE)};
  atomic_init(&x.next, 0);
  atomic_init(&x.done, 0);
  atomic_init(&x.stop, 0);
  worker *w = calloc(nw, sizeof *w);
  pthread_t *th = calloc(nw, sizeof *th);
  x.parts = calloc(x.nslices, sizeof *x.parts);
  mcp_status st = w && th && x.parts ? MCP_OK
                  : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the devices");
  /* the plan on worker 0's share of the threads: a team of all of them
   * would spin on after it (libgomp's idle threads), beside the workers that
   * then take every thread (bench/RESULTS.md, "One plan for every worker") */
  if (st == MCP_OK && (st = make_workers(ctx, w, &x)) == MCP_OK && !s) {
    int was = mcpi_team_set(w[0].threads);
    st = mcpi_setup_build(ctx, m, p, g, NULL, 0, 0, &x.shared);
    mcpi_team_set(was);
  }
  size_t started = 0;
  if (st == MCP_OK && pthread_mutex_init(&x.lock, NULL) != 0)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "cannot make a lock for the devices");
  else if (st == MCP_OK) {
    for (started = 1; started < nw; started++)
      if (pthread_create(&th[started], NULL, work, &w[started]) != 0)
        break; /* the others take its slices */
    work(&w[0]);
    for (size_t i = 1; i < started; i++)
      pthread_join(th[i], NULL);
    pthread_mutex_destroy(&x.lock);
    if (x.st != MCP_OK && !(x.failed == x.nslices && atomic_load(&x.done) == x.nslices)) {
      st = x.st;
      memcpy(ctx->err, x.err, sizeof ctx->err);
    }
  }
  /* the merge on the setup itself, which its inputs match (reval.c's
   * find_setup takes it, never replaces it: its shares read it) */
  if (st == MCP_OK)
    st = mcpi_partials_merge(ctx, m, p, g, s, x.parts, x.nslices,
                             &(mcpi_shared){.keep = &x.shared, .digest = &in_process},
                             results, sresults);
  if (st == MCP_OK) /* the call's time, not the sum of its slices' */
    mcpi_set_seconds(results ? *results : NULL, sresults ? *sresults : NULL, mcpi_now() - t0);
  for (unsigned k = 0; x.parts && k < x.nslices; k++)
    mcp_partial_destroy(x.parts[k]);
  for (size_t i = 0; w && i < nw; i++)
    mcpi_setup_free(w[i].keep);
  mcpi_setup_free(x.shared); /* after its shares */
  /* a device's failure, or its memory's: the next call starts afresh (a
   * refused input or a cancelled call leaves the devices as they were) */
  if (st == MCP_ERR_DEVICE || st == MCP_ERR_NO_MEMORY)
    mcpi_context_drop_workers(ctx);
  free(x.parts);
  free(w);
  free(th);
  return st;
}

mcp_status mcpi_spread(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                       const mcp_greeks *g, const mcp_scenarios *s, mcp_results **results,
                       mcp_scenario_results **sresults)
{
  mcp_status st = mcpi_cancel_check(ctx); /* a request before the call: books of no tile too */
  if (st != MCP_OK)
    return st;
  if (ctx->ndevices > 1)
    return spread(ctx, m, p, g, s, results, sresults);
  return s ? mcpi_scenarios_run(ctx, m, p, s, sresults, NULL)
           : mcpi_reval_run(ctx, m, p, &(mcpi_reval){.greeks = g}, results, NULL);
}
