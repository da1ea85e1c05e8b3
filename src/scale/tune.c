/* tune.c: mcp_tune, the kernel options of each shape of job in a book timed
 * on the context's GPU, the fastest put into a wisdom (FFTW's planner in
 * measure mode: a search one option at a time, not the whole product). */
#include <stdlib.h>
#include <string.h>
#include "models/prefetch.h"
#include "src/base/clock.h"
#include "src/exec/backend.h"
#include "src/results/results.h"
#include "src/scale/scale.h"

#define MAX_REPEATS 15
/* A candidate replaces the best so far only if it is faster by this share:
 * one noisy median does not pick options slower than the rules. */
#define MIN_GAIN 0.01
#define COUNT(a) (sizeof(a) / sizeof *(a))

static const int blocks[] = {64, 128, 256, 512};
static const uint64_t tiles[] = {1u << 16, 1u << 18, 1u << 20};

/* A shape of the book's jobs: its name, whether its jobs may fuse their
 * normals and take a prefetch strategy, and its largest job's samples. */
typedef struct shape {
  char name[MCP_WISDOM_NAME];
  int fusable, prefetch;
  uint64_t need;
} shape;

typedef struct tuner {
  mcp_context *ctx;
  const mcp_market *m;
  const mcp_portfolio *p;
  int repeats;
  mcpi_settings set;      /* the run's: its given options are not timed */
  mcpi_gpu_id gpu;
  mcp_results *rules;     /* the rules' prices: every option must give their bits */
  mcp_wisdom trial;       /* the entries in force (the context's while tuning) */
} tuner;

/* Whether a and b hold the same prices, trade by trade and in total. */
static int same_prices(const mcp_results *a, const mcp_results *b, size_t *trade)
{
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_results_trade(a, i, &x);
    mcp_results_trade(b, i, &y);
    if (memcmp(&x, &y, sizeof x)) {
      *trade = i;
      return 0;
    }
  }
  mcp_results_total(a, &x);
  mcp_results_total(b, &y);
  *trade = mcp_results_count(a);
  return !memcmp(&x, &y, sizeof x);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* One call of the book, its seconds into *s: with entry e put into the
 * trial (the shapes tuned so far at their best), or by the rules (e NULL:
 * no wisdom).  The first call's prices are the rules' (t->rules), every
 * later one's checked against them (e names the options in the message of
 * a difference). */
static mcp_status call_book(tuner *t, const mcp_wisdom_entry *e, double *s)
{
  mcp_status st = e ? mcp_wisdom_put(&t->trial, e) : MCP_OK;
  if (st != MCP_OK)
    return st;
  t->ctx->wisdom = e ? &t->trial : NULL;
  mcp_results *x = NULL;
  double t0 = mcpi_now();
  st = mcpi_spread(t->ctx, t->m, t->p, NULL, NULL, &x, NULL);
  *s = mcpi_now() - t0;
  size_t bad;
  if (st == MCP_OK && !t->rules)
    t->rules = x, x = NULL;
  else if (st == MCP_OK && !same_prices(x, t->rules, &bad)) {
    const char *what = bad < mcp_results_count(x) ? mcp_results_trade_id(x, bad) : NULL;
    if (!e)
      st = mcpi_fail(t->ctx->err, MCP_ERR_DEVICE,
                     "tune: the rules changed the bits of %s%s from one call to the next (a "
                     "bug: please report it)",
                     what ? "trade " : "the book's total", what ? what : "");
    else
      st = mcpi_fail(t->ctx->err, MCP_ERR_DEVICE,
                     "tune: shape %s with normals %s, prefetch %s at %d, padding %d, block %d, "
                     "tile %llu changed the bits of %s%s (a bug: please report it)",
                     e->shape, mcp_normals_name(e->normals), mcp_prefetch_name(e->prefetch),
                     e->distance, e->padding, e->block, (unsigned long long)e->tile_paths,
                     what ? "trade " : "the book's total", what ? what : "");
  }
  mcp_results_destroy(x);
  return st;
}

/* The median seconds of the book's calls with a and with b (call_book's
 * entries), in alternate calls after a warm-up of each: a drift of the
 * GPU's clocks or memory over the tune (the first calls' is large) falls
 * on both alike, so that their ratio is fair. */
static mcp_status time_pair(tuner *t, const mcp_wisdom_entry *a, const mcp_wisdom_entry *b,
                            double *sa, double *sb)
{
  double x[MAX_REPEATS], y[MAX_REPEATS], s;
  mcp_status st = MCP_OK;
  for (int r = -1; st == MCP_OK && r < t->repeats; r++) {
    if ((st = call_book(t, a, &s)) == MCP_OK && r >= 0)
      x[r] = s;
    if (st == MCP_OK && (st = call_book(t, b, &s)) == MCP_OK && r >= 0)
      y[r] = s;
  }
  if (st == MCP_OK) {
    qsort(x, (size_t)t->repeats, sizeof *x, cmp_double);
    qsort(y, (size_t)t->repeats, sizeof *y, cmp_double);
    *sa = x[(t->repeats - 1) / 2];
    *sb = y[(t->repeats - 1) / 2];
  }
  return st;
}

/* Times candidate c of the shape against *best, in alternate calls; c
 * becomes the best when faster by MIN_GAIN.  A candidate the device cannot
 * run (its memory, a block its kernel refuses) is passed over. */
static mcp_status try(tuner *t, mcp_wisdom_entry *best, const mcp_wisdom_entry *c)
{
  if (c->prefetch != MCP_PREFETCH_NONE && !mcpi_cuda_prefetch_fits(t->ctx, t->set.precision, c))
    return MCP_OK;
  double sb, sc;
  mcp_status st = time_pair(t, best, c, &sb, &sc);
  if (st == MCP_OK && sc < sb * (1 - MIN_GAIN))
    *best = *c;
  if (st == MCP_ERR_NO_MEMORY || st == MCP_ERR_ARGUMENT) {
    t->ctx->err[0] = '\0';
    st = MCP_OK;
  }
  return st == MCP_OK ? mcp_wisdom_put(&t->trial, best) : st;
}

/* The shape's search from the rules' options (*rules): normals and
 * prefetch, then the block, then the tile, the shapes before at their best.
 * (An option the caller gave is recorded as given.) */
static mcp_status tune_shape(tuner *t, const shape *sh, mcp_wisdom_entry *rules,
                             mcp_wisdom_entry *best)
{
  const mcp_context *ctx = t->ctx;
  const mcpi_settings *run = &t->set;
  unsigned given = run->given;
  *best = (mcp_wisdom_entry){.capability = t->gpu.capability, .driver = t->gpu.driver,
                             .normals = sh->fusable ? run->normals : MCP_NORMALS_STORED,
                             .prefetch = run->prefetch, .distance = run->distance,
                             .padding = run->padding, .block = ctx->block,
                             .tile_paths = ctx->tile_paths};
  memcpy(best->device, t->gpu.device, sizeof best->device);
  memcpy(best->shape, sh->name, sizeof best->shape);
  *rules = *best;
  mcp_status st = MCP_OK;
  mcp_wisdom_entry c = *best;
  if (sh->fusable && !(given & MCPI_OPT_NORMALS)) {
    c.normals = best->normals == MCP_NORMALS_FUSED ? MCP_NORMALS_STORED : MCP_NORMALS_FUSED;
    c.prefetch = MCP_PREFETCH_NONE;
    st = try(t, best, &c);
  }
  /* a strategy reads stored normals; each at the distances and paddings
   * this build and the device hold */
  static const int paddings[] = {0, 1, MCP_PADDING_INTERLEAVED};
  int strategies = sh->prefetch && !(given & MCPI_OPT_PREFETCH) &&
                   (!(given & MCPI_OPT_NORMALS) || run->normals == MCP_NORMALS_STORED);
  for (int s = MCP_PREFETCH_UNROLL; st == MCP_OK && strategies && s <= MCP_PREFETCH_SMEM_ASYNC;
       s++)
    for (int d = 0; st == MCP_OK && d < MCPI_NDISTANCES; d++)
      for (int k = 0; st == MCP_OK && k < (mcpi_prefetch_uses_smem((mcp_prefetch)s) ? 3 : 1);
           k++) {
        c = *best;
        c.normals = MCP_NORMALS_STORED;
        c.prefetch = (mcp_prefetch)s;
        c.distance = mcpi_prefetch_distances[d];
        c.padding = paddings[k];
        st = try(t, best, &c);
      }
  for (size_t b = 0; st == MCP_OK && !(given & MCPI_OPT_BLOCK) && b < COUNT(blocks); b++)
    if (blocks[b] != best->block) {
      c = *best;
      c.block = blocks[b];
      st = try(t, best, &c);
    }
  for (size_t k = 0; st == MCP_OK && !(given & MCPI_OPT_TILE) && k <= COUNT(tiles); k++) {
    uint64_t tile = k ? tiles[k - 1] : 0;
    if (tile != best->tile_paths && tile < sh->need) {
      c = *best;
      c.tile_paths = tile;
      st = try(t, best, &c);
    }
  }
  return st;
}

/* The distinct shapes of the book's jobs, in the plan's order. */
static mcp_status book_shapes(tuner *t, shape **out, size_t *n)
{
  mcpi_settings *set = &t->set;
  mcpi_plan plan;
  mcpi_context_settings(t->ctx, t->p, set);
  mcp_status st = mcpi_plan_build(t->m, t->p, &set->pde, &plan, t->ctx->err);
  if (st != MCP_OK)
    return st;
  shape *s = calloc(plan.njobs + 1, sizeof *s);
  *n = 0;
  for (size_t ji = 0; s && ji < plan.njobs; ji++) {
    const mcpi_job *j = &plan.jobs[ji];
    shape x = {.fusable = !j->qmc && !mcpi_job_stored_only(j, set->precision),
               .prefetch = MCPI_ASSETS_KIND(j->nassets, j->model) < 2 && !j->arr_len &&
                           !mcpi_job_ringless(j, set->precision),
               .need = mcpi_job_samples(&plan, j)};
    if (!mcpi_job_tune_shape(j, set->precision, x.name, sizeof x.name))
      continue;
    size_t k = 0;
    while (k < *n && strcmp(s[k].name, x.name))
      k++;
    if (k == *n)
      s[(*n)++] = x;
    else if (x.need > s[k].need)
      s[k].need = x.need;
  }
  mcpi_plan_free(&plan);
  if (!s)
    return mcpi_fail(t->ctx->err, MCP_ERR_NO_MEMORY, "tune: out of memory");
  *out = s;
  return MCP_OK;
}

mcp_status mcp_tune(mcp_context *ctx, const mcp_market *market, const mcp_portfolio *portfolio,
                    int repeats, mcp_wisdom *wisdom)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  mcpi_call_begin(ctx);
  mcp_status st = MCP_OK;
  if (!market || !portfolio || !wisdom)
    st = mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_tune: %s is NULL",
                   !market ? "market" : !portfolio ? "portfolio" : "wisdom");
  else if (repeats < 1 || repeats > MAX_REPEATS)
    st = mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_tune: repeats: expected 1 to %d, got %d",
                   MAX_REPEATS, repeats);
  else if (ctx->backend != MCP_BACKEND_CUDA || ctx->ndevices > 1)
    st = mcpi_fail(ctx->err, MCP_ERR_UNAVAILABLE,
                   "tune: the kernel options are a GPU's: expected a context of the cuda "
                   "backend on one device, got %s",
                   ctx->backend != MCP_BACKEND_CUDA ? "the cpu backend" : "several devices");
  if (st != MCP_OK)
    return mcpi_call_end(ctx, st);
  tuner t = {.ctx = ctx, .m = market, .p = portfolio, .repeats = repeats};
  shape *sh = NULL;
  size_t nsh = 0;
  mcp_wisdom *own = ctx->wisdom; /* the context's, back when done */
  double s;
  if ((st = mcpi_cuda_gpu_id(ctx, &t.gpu)) == MCP_OK &&
      (st = book_shapes(&t, &sh, &nsh)) == MCP_OK)
    st = call_book(&t, NULL, &s); /* the rules' prices */
  mcp_wisdom_entry *best = calloc(2 * nsh + 1, sizeof *best), *rules = best;
  if (st == MCP_OK && !best)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "tune: out of memory");
  if (best)
    rules = best + nsh;
  for (size_t k = 0; st == MCP_OK && k < nsh; k++)
    st = tune_shape(&t, &sh[k], &rules[k], &best[k]);
  /* the book with every shape at its best against the rules, alternately:
   * the entries' times, and where the whole gains less than MIN_GAIN, the
   * rules' options recorded (one shape's gains may not add up) */
  double sr = 0, sw = 0;
  if (st == MCP_OK && nsh)
    st = time_pair(&t, NULL, &best[nsh - 1], &sr, &sw);
  for (size_t k = 0; st == MCP_OK && k < nsh; k++) {
    if (!(sw < sr * (1 - MIN_GAIN)))
      best[k] = rules[k];
    best[k].seconds = sw < sr * (1 - MIN_GAIN) ? sw : sr;
    best[k].rules_seconds = sr;
    st = mcp_wisdom_put(wisdom, &best[k]);
  }
  ctx->wisdom = own;
  free(t.trial.e);
  mcp_results_destroy(t.rules);
  free(best);
  free(sh);
  return mcpi_call_end(ctx, st);
}
