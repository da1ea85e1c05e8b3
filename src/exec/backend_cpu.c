/* backend_cpu.c: the CPU backend, C11 with OpenMP.  Normals come from the
 * host's Philox of the canonical mapping (rng.h) or from the host Sobol
 * points and Brownian bridge (qmc.h), paths from the shared path body
 * (path.h), sums from the fixed-order chunk reduction (stats.h).
 *
 * Each thread draws the normals of a few paths at a time (a chunk, sized to
 * stay in its core's cache) and runs those paths at once; only payoffs take
 * memory a tile long.  A path's normals are those of its (step, path)
 * counters whoever computes them, so prices do not depend on the number of
 * threads, the chunk or the tile. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "src/exec/backend.h"
#include "src/base/clock.h"
#include "src/exec/lsm_cpu.h"
#include "models/rng.h"
#include "models/products/adjoint.h"

static int max_threads(void)
{
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

static int thread_num(void)
{
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

/* The fewest payoffs of a tile whose chunk sums the threads share. */
#define SHARED_SUMS ((size_t)1 << 21)

/* Tiles of at most 2^24 payoffs (128 MiB) and 2^20 paths, a power of two. */
static size_t auto_tile(size_t ncol)
{
  size_t cap = ((size_t)1 << 24) / ncol, t = MCP_CHUNK_PATHS;
  while (t * 2 <= cap && t < ((size_t)1 << 20))
    t *= 2;
  return t;
}

/* Paths a thread holds the normals of: about 512 KiB of them (a core's L2
 * cache), 16 to 256 paths, a multiple of 16 (whole Philox pairs). */
static size_t chunk_paths(size_t nelem)
{
  size_t k = ((size_t)1 << 16) / nelem;
  k = k < 16 ? 16 : k > 256 ? 256 : k;
  return k / 16 * 16;
}

typedef struct cpu_job {
  mcpi_run *run;
  const mcpi_job *j;
  mcpi_job_view view;
  mcpi_job_view *pass;   /* the variants' views of the job's passes */
  int32_t *off;          /* offsets of the combined estimators' terms */
  size_t tile, chunk;
  uint64_t s0;           /* the tile's first sample */
  double *pay;
  /* a thread's chunk of normals at t ne chunk: z double, zq QMC's points,
   * zf float paths (the float mapping's normals, as the GPU's; QMC's double
   * normals rounded) */
  double *z, *zq;
  float *zf;
  uint64_t *scramble; /* QMC: the replicate's scramble constants */
  const uint64_t *dirs, *consts;
  /* an adjoint job's (adjoint.h): a thread's scratch of span columns, from
   * the first trade block's column g0 to the last's end, or of a pass that
   * sweeps back (pass_adj, from column ntrades + 1), whichever is wider */
  double *blk;
  size_t span;
  int g0;
  int plain; /* the job and its passes fit the plain shape's state (path.h):
              * 1, or 2 in mixed precision (lanes.h) */
  int copy;  /* the host's vector copy (mcpi_host_copy) */
} cpu_job;

static mcp_status fill(void *self, unsigned rep, uint64_t s0, size_t n)
{
  cpu_job *c = self;
  const mcpi_job *j = c->j;
  c->s0 = s0;
  if (j->qmc)
    for (size_t d = 0; d < j->nelem; d++)
      c->scramble[d] = c->consts[d] ^ mcpi_sobol_shift(j->stream, rep, d);
  return MCP_OK;
}

/* The normals of the tile's paths i0 .. i0 + m into a thread's chunk:
 * element e of path i0 + k at [e chunk + k]. */
static void chunk_normals(const cpu_job *c, size_t i0, size_t m, double *z, double *zq, float *zf)
{
  const mcpi_job *j = c->j;
  size_t ne = j->nelem, ld = c->chunk;
  uint64_t p0 = c->s0 + i0;
  if (!j->qmc) {
    mcpi_rng_fill_host_in(z ? (int)c->run->kopt.precision : MCP_FLOAT, j->stream, 0, ne, p0, m,
                          z ? (void *)z : (void *)zf, ld);
    return;
  }
  mcpi_bridge_view bv = mcpi_bridge_host_view(&j->bridge);
  for (size_t d = 0; d < ne; d++)
    mcpi_sobol_fill(c->dirs + d * MCPI_SOBOL_BITS, c->scramble + d, 1, p0, m, zq + d * ld, ld);
  for (size_t k = 0; k < m; k++)
    for (int f = 0; f < j->nfactors; f++)
      mcpi_bridge_path(&bv, j->nfactors, f, zq + k, ld, z + k, ld);
  if (zf)
    for (size_t e = 0; e < ne; e++)
      for (size_t k = 0; k < m; k++)
        zf[e * ld + k] = (float)z[e * ld + k];
}

/* The adjoint's path k of a chunk, sample i of the tile: its trades' blocks
 * (from column g0) into the thread's scratch blk (contiguous: no stride of
 * a tile's column between its columns), then each block to its columns of
 * pay. */
static void adjoint_path(const mcpi_job_view *v, const cpu_job *c, const double *z, size_t k,
                         size_t i, double *pay, double *blk, int g0)
{
  double rows[2 * MCPI_ADJ_ROW_NODES];
  mcpi_adjoint_path(v, z + k, c->chunk, c->s0 + i, pay, c->tile, blk, 1, g0, rows, 1);
  for (int t = 0; t < v->ntrades; t++) {
    int32_t g = v->trades[t].g_adj;
    for (int q = 0; g >= 0 && q < v->adj_cols; q++)
      pay[(size_t)(g + q) * c->tile] = blk[g - g0 + q];
  }
}

/* Path k of a chunk, sample i of the tile, into column pay (tile-long, at
 * its row). */
static void one_path(const mcpi_job_view *v, const cpu_job *c, const double *z, const float *zf,
                     size_t k, double *pay)
{
  if (v->gstate && !v->lsm) /* double only (variants.c) */
    mcpi_path_g(v, z + k, c->chunk, pay, c->tile);
  else if (v->lsm && mcpi_lsm_scaled_on(c->j, v->greeks)) /* and its spot Greeks */
    zf ? mcpi_path_fxs(v, zf + k, c->chunk, pay, c->tile)
       : mcpi_path_xs(v, z + k, c->chunk, pay, c->tile);
  else if (v->lsm) /* Longstaff-Schwartz exercise */
    zf ? mcpi_path_fx(v, zf + k, c->chunk, pay, c->tile)
       : mcpi_path_x(v, z + k, c->chunk, pay, c->tile);
  else if (zf)
    mcpi_path_f(v, zf + k, c->chunk, pay, c->tile);
  else
    mcpi_path(v, z + k, c->chunk, pay, c->tile);
}

/* The pay column of pass p (a pilot writes its passes after the job's). */
static size_t column(const mcpi_job *j, size_t p, int controls, size_t ncol)
{
  return controls ? (p + 1) * ncol : mcpi_pass_column(j, p);
}

/* Within a tile, the calling thread (the team's thread 0) reports the
 * paths done so far where half of MCP_PROGRESS_SECONDS has passed since the
 * last report; a pilot's paths (controls) are not in the work counted. */
static void progress_within(cpu_job *c, int controls, atomic_size_t *done)
{
  mcpi_run *run = c->run;
  if (controls || !run->ctx->progress || thread_num() != 0 ||
      mcpi_now() - run->progress_at < MCP_PROGRESS_SECONDS / 2)
    return;
  mcpi_run_progress(run, (double)atomic_load(done) * mcpi_path_work(c->j));
}

/* The tile's paths; a cancellation (mcp_context_cancel) skips the chunks
 * not yet started. */
static mcp_status paths(void *self, size_t n, int controls)
{
  cpu_job *c = self;
  const mcpi_job *j = c->j;
  size_t tile = c->tile, chunk = c->chunk, ncol = mcpi_job_columns(j, 1);
  size_t per = j->nelem * chunk, nch = (n + chunk - 1) / chunk;
  atomic_size_t done;
  atomic_init(&done, 0);
  c->view.write_controls = controls;
  c->view.greeks = !controls && j->nin;
  c->view.gstate = controls ? 0 : j->gstate;
  size_t ji = (size_t)(j - c->run->plan->jobs);
  for (size_t p = 0; p < j->npass; p++) { /* a bumped adjoint's pass sweeps back */
    c->pass[p].write_controls = controls;
    c->pass[p].gstate = controls ? 0 : mcpi_pass_job(c->run, ji, p)->gstate;
  }
#pragma omp parallel
  {
    size_t t = (size_t)thread_num();
    double *z = c->z ? c->z + t * per : NULL, *zq = c->zq ? c->zq + t * per : NULL;
    float *zf = c->zf ? c->zf + t * per : NULL;
    /* dynamic: a thread the machine's other work holds back takes fewer
     * chunks, not the others' time at the barrier (a chunk writes its own
     * payoffs, so the bits do not depend on who runs it) */
#pragma omp for schedule(dynamic)
    for (size_t ch = 0; ch < nch; ch++) {
      size_t i0 = ch * chunk, m = n - i0 < chunk ? n - i0 : chunk;
      if (mcpi_cancel_asked(c->run->ctx))
        continue;
      progress_within(c, controls, &done);
      chunk_normals(c, i0, m, z, zq, zf);
      for (size_t p = 0; p <= j->npass && !zf; p++) { /* the job's view, then its passes */
        const mcpi_job_view *v = p ? &c->pass[p - 1] : &c->view;
        if (mcpi_path_lanes_fit(v))
          mcpi_path_lanes(c->copy, v, c->plain, z, chunk, m,
                          c->pay + (p ? column(j, p - 1, controls, ncol) : 0) * tile + i0, tile);
      }
      for (size_t k = 0; k < m; k++) {
        size_t i = i0 + k;
        /* an adjoint job's paths write its prices and blocks (not the
         * pilot's paths); an early exercise's, its blocks beside its
         * price's own path */
        int adj = (c->view.gstate & MCPI_GSTATE_ADJOINT) != 0;
        if ((zf || !mcpi_path_lanes_fit(&c->view)) && (!adj || c->view.lsm))
          one_path(&c->view, c, z, zf, k, c->pay + i);
        if (adj)
          adjoint_path(&c->view, c, z, k, i, c->pay + i, c->blk + t * c->span, c->g0);
        for (size_t p = 0; p < j->npass; p++) {
          double *pp = c->pay + column(j, p, controls, ncol) * tile + i;
          if (c->pass[p].gstate & MCPI_GSTATE_ADJOINT)
            adjoint_path(&c->pass[p], c, z, k, i, pp, c->blk + t * c->span,
                         (int)j->ntrades + 1);
          else if (zf || !mcpi_path_lanes_fit(&c->pass[p]))
            one_path(&c->pass[p], c, z, zf, k, pp);
        }
      }
      if (!controls)
        mcpi_combine(j->term, c->off, (int)(j->nest - j->nin), (int)(j->ntrades + 1 + j->nin),
                     c->pay + i0, tile, m);
      atomic_fetch_add_explicit(&done, m, memory_order_relaxed);
    }
  }
  return mcpi_cancel_check(c->run->ctx);
}

static mcp_status sums(void *self, size_t n, unsigned level, double *part)
{
  (void)level; /* 0: the tiler's */
  cpu_job *c = self;
  size_t ncol = mcpi_job_columns(c->j, 0), nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  /* a tile's sums are little work: shared only where they outweigh a
   * parallel region's start and barrier */
#pragma omp parallel for schedule(static) collapse(2) if (ncol * n >= SHARED_SUMS)
  for (size_t col = 0; col < ncol; col++)
    for (size_t ch = 0; ch < nchunks; ch++) {
      size_t i0 = ch * MCP_CHUNK_PATHS, m = n - i0 < MCP_CHUNK_PATHS ? n - i0 : MCP_CHUNK_PATHS;
      mcpi_chunk_sums(c->pay + col * c->tile + i0, m, &part[(col * nchunks + ch) * 2],
                      &part[(col * nchunks + ch) * 2 + 1]);
    }
  return MCP_OK;
}

static mcp_status read(void *self, size_t n, double *pay, size_t ld)
{
  cpu_job *c = self;
  for (size_t col = 0; col < mcpi_job_columns(c->j, 1) * (1 + c->j->npass); col++)
    memcpy(pay + col * ld, c->pay + col * c->tile, n * sizeof *pay);
  return MCP_OK;
}

static mcp_status update_specs(void *self)
{
  (void)self; /* the view reads the job's specs in place */
  return MCP_OK;
}

static mcp_status fit(void *self, size_t variant, int frozen)
{
  cpu_job *c = self;
  size_t ji = (size_t)(c->j - c->run->plan->jobs);
  mcpi_job *v = variant ? mcpi_pass_job(c->run, ji, variant - 1) : &c->run->plan->jobs[ji];
  if (frozen) { /* the views read the tables in place */
    mcpi_lsm_copy_rules(c->j, v);
    return MCP_OK;
  }
  return mcpi_lsm_fit_cpu(variant ? &c->pass[variant - 1] : &c->view, v, c->run->ctx);
}

static mcp_status price_job(mcpi_run *run, size_t ji)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  mcp_context *ctx = run->ctx;
  uint64_t samples = mcpi_job_samples(run->plan, j);
  size_t tile = ctx->tile_paths ? ctx->tile_paths : auto_tile(mcpi_job_pay_columns(j));
  if (tile > samples)
    tile = (size_t)((samples + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS);
  size_t ne = j->nelem, chunk = chunk_paths(ne), nz = (size_t)max_threads() * ne * chunk;
  cpu_job c = {.run = run,
               .j = j,
               .view = mcpi_job_host_view(j),
               .tile = tile,
               .chunk = chunk,
               .plain = mcpi_job_small(j) != MCPI_SHAPE_PLAIN ? 0
                        : run->kopt.precision == MCP_MIXED    ? 2
                                                              : 1,
               .copy = mcpi_host_copy()};
  int single = run->kopt.precision == MCP_FLOAT;
  if (!single || j->qmc) /* float draws its own normals, but rounds QMC's */
    c.z = malloc(nz * sizeof *c.z);
  c.pay = malloc(mcpi_job_pay_columns(j) * tile * sizeof *c.pay);
  if (j->gstate & MCPI_GSTATE_ADJOINT) {
    int lo = INT32_MAX, hi = 0;
    for (size_t t = 0; t < j->ntrades; t++)
      if (j->spec[t].g_adj >= 0) {
        lo = j->spec[t].g_adj < lo ? j->spec[t].g_adj : lo;
        hi = j->spec[t].g_adj + j->adj_cols > hi ? j->spec[t].g_adj + j->adj_cols : hi;
      }
    c.g0 = lo;
    c.span = (size_t)(hi - lo);
  }
  c.span = c.span > (size_t)j->pass_adj ? c.span : (size_t)j->pass_adj;
  if (c.span)
    c.blk = malloc((size_t)max_threads() * c.span * sizeof *c.blk);
  c.pass = malloc((j->npass ? j->npass : 1) * sizeof *c.pass);
  c.off = mcpi_job_term_offsets(j);
  int ok = (c.z || (single && !j->qmc)) && c.pay && c.pass && c.off &&
           (c.blk || !c.span);
  for (size_t p = 0; ok && p < j->npass; p++) {
    c.pass[p] = mcpi_job_host_view(mcpi_pass_job(run, ji, p));
    if (!mcpi_job_shape_fits(mcpi_pass_job(run, ji, p), MCPI_SHAPE_PLAIN))
      c.plain = 0;
  }
  if (single)
    ok = ok && (c.zf = malloc(nz * sizeof *c.zf));
  if (j->qmc) {
    c.dirs = mcpi_sobol_directions();
    c.consts = mcpi_sobol_scrambles();
    if (!c.dirs || !c.consts) {
      free(c.z);
      free(c.pay);
      free(c.zf);
      free(c.pass);
      free(c.off);
      free(c.blk);
      return mcpi_fail(ctx->err, MCP_ERR_DEVICE, "cuRAND has no Sobol direction vectors");
    }
    ok = ok && (c.zq = malloc(nz * sizeof *c.zq)) &&
         (c.scramble = malloc(ne * sizeof *c.scramble));
  }
  mcp_status st = ok ? MCP_OK
                     : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY,
                                 "out of host memory for a tile of %zu paths and chunks of %zu x %zu normals",
                                 tile, chunk, ne);
  mcpi_tiler t = {&c, tile, fill, paths, sums, read, update_specs, fit, NULL, NULL, 0};
  if (st == MCP_OK)
    st = mcpi_run_job(run, ji, &t);
  free(c.z);
  free(c.zq);
  free(c.zf);
  free(c.pay);
  free(c.scramble);
  free(c.pass);
  free(c.off);
  free(c.blk);
  return st;
}

mcp_status mcpi_cpu_price(mcpi_run *run)
{
  mcp_status st = MCP_OK;
  for (size_t ji = 0; st == MCP_OK && ji < run->plan->njobs; ji++)
    if (mcpi_run_has(run, ji))
      st = price_job(run, ji);
  return st;
}
