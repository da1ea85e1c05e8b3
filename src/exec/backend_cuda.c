/* backend_cuda.c: host side of the CUDA backend.  Per tile of samples, the
 * path kernel evaluates every payoff of the job, and the chunk-sum kernel
 * reduces them in the fixed order the CPU uses.  Its normals: with fused
 * normals (pseudo-random jobs, by default) the path kernel computes them
 * itself; else the normals kernel writes the canonical ones (rng.h), or the
 * Sobol and bridge kernels the QMC ones (qmc.h), to a tile in memory. */
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "src/exec/backend.h"

#ifndef MCP_HAVE_CUDA
mcp_status mcpi_cuda_price(mcpi_run *run)
{
  return mcpi_fail(run->ctx->err, MCP_ERR_UNAVAILABLE,
                   "this build of mcprice has no CUDA backend (configure found no nvcc)");
}

void mcpi_cuda_release(mcp_context *ctx) { (void)ctx; }
#else
#include <cuda_runtime_api.h>
#include "kernels/launch.h"
#include "models/products/lsm_fit.h"
#include "models/rng.h"

#define MAX_AUTO_TILE ((size_t)1 << 22)
/* A job whose whole run needs at most this much device memory takes it as
 * one tile without asking how much is free (an allocation that fails still
 * halves the tile). */
#define SMALL_JOB_BYTES ((size_t)256 << 20)
/* Streams the revaluation passes of a job's tile run on beside the base's:
 * a tile of few paths fills a small part of the GPU, one launch at a time
 * (the STAC-A2 shape's vegas, bench/RESULTS.md "stac_a2"). */
#define SIDE_STREAMS 8

/* Every device allocation of a job: slots of the context's kept buffers
 * (BLOB: the job's arrays, upload_job). */
enum { Z, ZQ, W, PAY, PART, BLOB, SCRAMBLE, LSM_ST, LSM_Y, LSM_PART, NBUF };
_Static_assert(NBUF <= MCPI_DEV_SLOT_PDE, "the context keeps a buffer a slot");

/* Path kernels' waves a context has sized (mcpi_path_grid): the options
 * asked with (shape: multi, or -1 for the greeks kernel; arr_len), those
 * returned and the grid.  Options compare as bytes: they have no padding. */
#define GRIDS_KEPT 16
typedef struct grid_kept {
  mcpi_kernel_options in, out;
  int shape, arr_len, grid;
} grid_kept;
_Static_assert(sizeof(mcpi_kernel_options) == 8 * sizeof(int), "kernel options of ints alone");

/* What a context keeps of the CUDA backend beside its buffers, made by its
 * first run (each CUDA call costs about 20 us where the library runs
 * sandboxed, and a small book's job only a few more). */
typedef struct mcpi_cuda_kept {
  int max_smem, sm_smem;  /* the device's shared memory: a block's (opt-in), an SM's */
  int ngrids;
  grid_kept grids[GRIDS_KEPT];
  int nside;              /* side streams made, as jobs first needed them */
  cudaStream_t side[SIDE_STREAMS];
  cudaEvent_t ready, done[SIDE_STREAMS]; /* a tile's normals, each side's passes */
  void *stage;            /* the host staging of a job's blob */
  size_t stage_bytes;
  int pinned;             /* stage is page-locked (cudaMallocHost), else malloc's */
} mcpi_cuda_kept;

typedef struct gpu_job {
  mcpi_run *run;
  const mcpi_job *j;        /* job ji of the run's plan */
  size_t ji;
  mcpi_cuda_kept *k;        /* the context's */
  mcpi_kernel_options kopt; /* the run's, with the block the job's kernel allows */
  int grid;                 /* blocks of a wave */
  int grid_g;               /* of the kernel with on-path vega and rho (gstate) */
  mcpi_job_view view;      /* device pointers */
  mcpi_job_view *pass;     /* the passes' views, device pointers */
  mcpi_bridge_view bridge; /* device pointers */
  const mcpi_term *term;   /* the estimators' terms and offsets (device) */
  const int32_t *off;
  const uint64_t *dirs;    /* the Sobol directions (device) */
  void *buf[NBUF];
  size_t tile;
  uint64_t s0;             /* the tile's first sample (fused normals) */
  uint64_t *scramble;      /* host copy of the replicate's scramble constants */
  const uint64_t *consts;
  int nside;               /* side streams the job's passes use */
} gpu_job;

static mcp_status cuda_fail(mcp_context *ctx, cudaError_t e, const char *what)
{
  mcp_status st = e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE;
  cudaGetLastError();
  return mcpi_fail(ctx->err, st, "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

static void free_stage(mcpi_cuda_kept *k)
{
  if (k->pinned)
    cudaFreeHost(k->stage);
  else
    free(k->stage);
  k->stage = NULL;
  k->stage_bytes = 0;
}

void mcpi_cuda_release(mcp_context *ctx)
{
  mcpi_cuda_kept *k = ctx->cuda;
  if (k) { /* a CPU context never touches the CUDA runtime */
    for (int s = 0; s < k->nside; s++) {
      cudaStreamDestroy(k->side[s]);
      cudaEventDestroy(k->done[s]);
    }
    if (k->ready)
      cudaEventDestroy(k->ready);
    free_stage(k);
    free(k);
    ctx->cuda = NULL;
  }
  if (ctx->grid_stream) {
    cudaStreamDestroy((cudaStream_t)ctx->grid_stream);
    ctx->grid_stream = NULL;
  }
  for (int b = 0; b < MCPI_DEV_SLOTS; b++)
    if (ctx->dev[b]) {
      cudaFree(ctx->dev[b]);
      ctx->dev[b] = NULL;
      ctx->dev_bytes[b] = 0;
    }
}

/* The context's kept state, made on its first run on its device: the
 * device's shared memory asked once, not by every job with arrays. */
static mcp_status keep(mcp_context *ctx)
{
  if (ctx->cuda)
    return MCP_OK;
  mcpi_cuda_kept *k = calloc(1, sizeof *k);
  if (!k)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  cudaError_t e = cudaDeviceGetAttribute(&k->max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                         ctx->device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&k->sm_smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                               ctx->device);
  if (e != cudaSuccess) {
    free(k);
    return cuda_fail(ctx, e, "reading the device's shared memory");
  }
  ctx->cuda = k;
  return MCP_OK;
}

/* Slot b's buffer of at least bytes: the context's, where it is large
 * enough (a run pays for cudaMalloc and cudaFree, each a synchronisation,
 * only when a job outgrows what earlier runs left), else a new one. */
static cudaError_t take(gpu_job *g, int b, size_t bytes)
{
  mcp_context *ctx = g->run->ctx;
  if (ctx->dev_bytes[b] < bytes || !ctx->dev[b]) {
    cudaFree(ctx->dev[b]);
    ctx->dev[b] = NULL;
    ctx->dev_bytes[b] = 0;
    cudaError_t e = cudaMalloc(&ctx->dev[b], bytes ? bytes : 1);
    if (e != cudaSuccess) {
      ctx->dev[b] = NULL;
      return e;
    }
    ctx->dev_bytes[b] = bytes;
  }
  g->buf[b] = ctx->dev[b];
  return cudaSuccess;
}

/* Frees slot b (a tile that did not fit). */
static void drop(gpu_job *g, int b)
{
  mcp_context *ctx = g->run->ctx;
  cudaFree(ctx->dev[b]);
  ctx->dev[b] = g->buf[b] = NULL;
  ctx->dev_bytes[b] = 0;
}

/* mcpi_path_grid (shape >= 0) or mcpi_path_grid_greeks (-1), which ask the
 * runtime three times, once a context for the same options and shape (the
 * device, its kernels and their attributes stay). */
static cudaError_t path_grid(mcpi_cuda_kept *k, mcpi_kernel_options *o, int shape, int arr_len,
                             int *grid)
{
  for (int i = 0; i < k->ngrids; i++) {
    const grid_kept *s = &k->grids[i];
    if (s->shape == shape && s->arr_len == arr_len && !memcmp(&s->in, o, sizeof *o)) {
      *o = s->out;
      *grid = s->grid;
      return cudaSuccess;
    }
  }
  mcpi_kernel_options in = *o;
  cudaError_t e = shape < 0 ? mcpi_path_grid_greeks(o, grid)
                            : mcpi_path_grid(o, shape, arr_len, grid);
  if (e == cudaSuccess && k->ngrids < GRIDS_KEPT)
    k->grids[k->ngrids++] = (grid_kept){in, *o, shape, arr_len, *grid};
  return e;
}

/* At least want side streams and their events, kept by the context. */
static cudaError_t make_sides(mcpi_cuda_kept *k, int want)
{
  cudaError_t e = cudaSuccess;
  if (want && !k->ready && (e = cudaEventCreateWithFlags(&k->ready, cudaEventDisableTiming)))
    return e;
  while (k->nside < want) {
    if ((e = cudaStreamCreateWithFlags(&k->side[k->nside], cudaStreamNonBlocking)))
      break;
    if ((e = cudaEventCreateWithFlags(&k->done[k->nside], cudaEventDisableTiming))) {
      cudaStreamDestroy(k->side[k->nside]);
      break;
    }
    k->nside++;
  }
  return e;
}

/* The context's host staging, of at least bytes: page-locked, so that a
 * job's upload is one transfer at the link's speed, else (the runtime will
 * lock no more) pageable, which the copy stages through the driver's. */
static cudaError_t stage(mcpi_cuda_kept *k, size_t bytes)
{
  if (k->stage_bytes >= bytes)
    return cudaSuccess;
  free_stage(k);
  k->pinned = cudaMallocHost(&k->stage, bytes) == cudaSuccess;
  if (!k->pinned) {
    cudaGetLastError(); /* not a later launch's error */
    k->stage = malloc(bytes);
  }
  if (!k->stage)
    return cudaErrorMemoryAllocation;
  k->stage_bytes = bytes;
  return cudaSuccess;
}

/* A job's device arrays as one blob, each at the next 16-byte boundary:
 * sized (host NULL), or packed into host, each array's device address in
 * dev given to its reader (a pointer of a view). */
typedef struct blob {
  unsigned char *host, *dev;
  size_t at;
} blob;

/* The device address of the next array, of bytes at src (NULL while sizing
 * and for an empty array). */
static void *put(blob *b, const void *src, size_t bytes)
{
  void *at = b->host && bytes ? b->dev + b->at : NULL;
  if (at)
    memcpy(b->host + b->at, src, bytes);
  b->at += (bytes + 15) & ~(size_t)15;
  return at;
}

/* ptr reads the device copy of n elements at src; the unevaluated
 * assignment checks that their types agree. */
#define PUT(b, ptr, src, n)                                                                    \
  ((void)sizeof((ptr) = (src)), (ptr) = put(b, src, (n) * sizeof *(src)))

/* The arrays that each variant, the job (v = j) or a pass's copy v, has of
 * its own: coefficients, specs, volatility slices, tables of dates (for a
 * Longstaff-Schwartz pass its discount factors: the fit fills in the rest;
 * an autocallable's move with the rates and dates) and tags (the job's, but
 * the grid check's coarse pass's, grid_check.c). */
static void put_variant(blob *b, const mcpi_job *j, const mcpi_job *v, mcpi_job_view *w)
{
  size_t ne = j->nelem, nlv = j->nsteps * (size_t)j->lv_n;
  PUT(b, w->ca, v->ca, ne);
  PUT(b, w->cb, v->cb, ne);
  PUT(b, w->ca_f, v->ca_f, ne);
  PUT(b, w->cb_f, v->cb_f, ne);
  PUT(b, w->tag, v->tag, ne);
  PUT(b, w->trades, v->spec, j->ntrades);
  PUT(b, w->lv_vol, v->lv_vol, nlv);
  PUT(b, w->lv_vol_f, v->lv_vol_f, nlv);
  PUT(b, w->lsm, v->lsm_table, (size_t)j->lsm_dates * MCPI_LSM_ROW);
  PUT(b, w->acall, v->acall, j->nacall * MCPI_AC_ROW);
}

/* Every device array of a job: its variants', the rest of its view (which
 * its passes share), the estimators' terms (offsets off), and the QMC
 * directions dirs and bridge. */
static void put_job(blob *b, gpu_job *g, const int32_t *off, const uint64_t *dirs)
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem, n = j->nsteps, ns = (size_t)j->lv_n;
  mcpi_job_view *w = &g->view;
  put_variant(b, j, j, w);
  for (size_t p = 0; p < j->npass; p++)
    put_variant(b, j, mcpi_pass_job(g->run, g->ji, p), &g->pass[p]);
  PUT(b, w->sqrt_dt, j->sqrt_dt, ne);
  PUT(b, w->chol, j->chol, j->chol ? MCPI_CHOL_SIZE : 0);
  PUT(b, w->chol_f, j->chol_f, j->chol ? MCPI_CHOL_SIZE : 0);
  PUT(b, w->lv_y, j->lv_y, ns);
  PUT(b, w->lv_y_f, j->lv_y_f, ns);
  PUT(b, w->lv_idx, j->lv_idx, ns ? (size_t)j->lv_nb : 0);
  PUT(b, w->cash, j->cash, j->cash ? n : 0);
  PUT(b, g->term, j->term, j->nterm);
  PUT(b, g->off, off, j->nest - j->nin + 1);
  if (j->qmc) {
    const mcpi_bridge *br = &j->bridge;
    PUT(b, g->dirs, dirs, ne * MCPI_SOBOL_BITS);
    PUT(b, g->bridge.m, br->m, n);
    PUT(b, g->bridge.l, br->l, n);
    PUT(b, g->bridge.r, br->r, n);
    PUT(b, g->bridge.wl, br->wl, n);
    PUT(b, g->bridge.wr, br->wr, n);
    PUT(b, g->bridge.sd, br->sd, n);
    PUT(b, g->bridge.inv_sqrt_dt, br->inv_sqrt_dt, n);
  }
}

/* The job's and its passes' views, their arrays packed into the context's
 * staging and copied by one transfer into BLOB.  The copy is asynchronous
 * on stream 0 (the legacy stream), ahead of all the job's work; the staging
 * is packed again only by the next job, and this one has ended the copy
 * before: a job that succeeds last reads its sums by a synchronous copy on
 * stream 0 (run_job.c), which waits for it; for one that fails, price_job
 * waits for stream 0. */
static cudaError_t upload_job(gpu_job *g)
{
  const mcpi_job *j = g->j;
  const uint64_t *dirs = NULL;
  if (j->qmc && (!(dirs = mcpi_sobol_directions()) || !(g->consts = mcpi_sobol_scrambles())))
    return cudaErrorInvalidValue;
  int32_t *off = mcpi_job_term_offsets(j);
  if (!off)
    return cudaErrorMemoryAllocation;
  blob b = {0};
  put_job(&b, g, off, dirs);
  cudaError_t e = stage(g->k, b.at);
  if (e == cudaSuccess)
    e = take(g, BLOB, b.at);
  if (e == cudaSuccess) {
    g->view = mcpi_job_host_view(j);
    for (size_t p = 0; p < j->npass; p++)
      g->pass[p] = mcpi_job_host_view(mcpi_pass_job(g->run, g->ji, p));
    g->bridge.n = j->bridge.n;
    b = (blob){g->k->stage, g->buf[BLOB], 0};
    put_job(&b, g, off, dirs);
    e = cudaMemcpyAsync(b.dev, b.host, b.at, cudaMemcpyHostToDevice, 0);
  }
  free(off);
  if (e)
    return e;
  for (size_t p = 0; p < j->npass; p++) {
    mcpi_job_view *w = &g->pass[p];
    w->lv_y = g->view.lv_y; /* the surface's spots: no shift moves them */
    w->lv_y_f = g->view.lv_y_f;
    w->lv_idx = g->view.lv_idx;
    w->cash = g->view.cash; /* no shift moves the amounts, and the steps are the job's */
    w->uniform = w->uniform && g->view.uniform; /* (the grid check's pass never is) */
    w->utag = g->view.utag;
    w->utag_last = g->view.utag_last;
    w->sqrt_dt = g->view.sqrt_dt;
    w->chol = g->view.chol;
    w->chol_f = g->view.chol_f;
    w->seed = g->view.seed; /* a pass revalues the job's own normals */
  }
  return cudaSuccess;
}

static cudaError_t alloc_tile(gpu_job *g, size_t tile, size_t real)
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem;
  cudaError_t e = g->kopt.fused ? cudaSuccess : take(g, Z, ne * tile * real);
  if (e == cudaSuccess)
    e = take(g, PAY, mcpi_job_pay_columns(j) * tile * sizeof(double));
  if (e == cudaSuccess)
    e = take(g, PART, mcpi_job_columns(j, 0) * (tile / MCP_CHUNK_PATHS) * 2 * sizeof(double));
  if (e == cudaSuccess && j->qmc)
    e = take(g, ZQ, ne * tile * sizeof(double));
  if (e == cudaSuccess && j->qmc) /* the replicate's scrambles (fill) */
    e = take(g, SCRAMBLE, ne * sizeof(uint64_t));
  /* the bridge builds in double: in place in z, or beside a float z */
  if (e == cudaSuccess && j->qmc && real != sizeof(double))
    e = take(g, W, ne * tile * sizeof(double));
  g->tile = tile;
  return e;
}

/* Tiles sized to free memory (half of it, at most MAX_AUTO_TILE samples),
 * halved while an allocation fails. */
static mcp_status size_tiles(gpu_job *g, uint64_t samples, size_t real)
{
  mcp_context *ctx = g->run->ctx;
  const mcpi_job *j = g->j;
  size_t per = j->nelem * ((g->kopt.fused ? 0 : real) + (j->qmc ? 2 * sizeof(double) : 0)) +
               (mcpi_job_pay_columns(j) + 2) * sizeof(double);
  size_t tile = ctx->tile_paths;
  if (!tile) {
    uint64_t need = (samples + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS;
    tile = MAX_AUTO_TILE;
    /* the free memory only where the job could want much of it: the query
       costs 20 us, a small book's job a few more */
    if ((double)need * (double)per > (double)SMALL_JOB_BYTES) {
      size_t free_b = 0, total_b = 0;
      cudaMemGetInfo(&free_b, &total_b);
      if (free_b / 2 / per < tile)
        tile = free_b / 2 / per;
    }
    if (tile > need)
      tile = (size_t)need;
    tile -= tile % MCP_CHUNK_PATHS;
    if (tile < MCP_CHUNK_PATHS)
      tile = MCP_CHUNK_PATHS;
  }
  for (;;) {
    cudaError_t e = alloc_tile(g, tile, real);
    if (e == cudaSuccess)
      return MCP_OK;
    for (int b = Z; b <= PART; b++)
      drop(g, b);
    if (e != cudaErrorMemoryAllocation || ctx->tile_paths || tile == MCP_CHUNK_PATHS)
      return cuda_fail(ctx, e, "allocating a tile of paths");
    cudaGetLastError();
    tile = tile / 2 - (tile / 2) % MCP_CHUNK_PATHS;
    if (tile < MCP_CHUNK_PATHS)
      tile = MCP_CHUNK_PATHS;
  }
}

static mcp_status fill(void *self, unsigned rep, uint64_t s0, size_t n)
{
  gpu_job *g = self;
  const mcpi_job *j = g->j;
  mcp_precision prec = g->run->kopt.precision;
  cudaError_t e;
  g->s0 = s0;
  if (g->kopt.fused)
    return MCP_OK;
  if (!j->qmc) {
    if ((e = mcpi_launch_normals(j->stream, 0, j->nelem, s0, n, g->buf[Z], g->tile, prec, 0)))
      return cuda_fail(g->run->ctx, e, "the normals kernel");
    return MCP_OK;
  }
  for (size_t d = 0; d < j->nelem; d++)
    g->scramble[d] = g->consts[d] ^ mcpi_sobol_shift(j->stream, rep, d);
  if ((e = cudaMemcpy(g->buf[SCRAMBLE], g->scramble, j->nelem * sizeof(uint64_t),
                      cudaMemcpyHostToDevice)) ||
      (e = mcpi_launch_sobol(g->dirs, g->buf[SCRAMBLE], j->nelem, s0, n, g->buf[ZQ],
                             g->tile, 0)) ||
      (e = mcpi_launch_bridge(g->bridge, j->nfactors, g->buf[ZQ],
                              g->buf[W] ? g->buf[W] : g->buf[Z], g->tile, n, g->buf[Z], prec,
                              0)))
    return cuda_fail(g->run->ctx, e, "the QMC kernels");
  return MCP_OK;
}

static mcp_status paths(void *self, size_t n, int controls)
{
  gpu_job *g = self;
  const mcpi_job *j = g->j;
  double *pay = g->buf[PAY];
  g->view.write_controls = controls;
  g->view.greeks = !controls && j->nin;
  g->view.gstate = controls ? 0 : j->gstate;
  g->view.p0 = g->s0;
  mcp_precision prec = g->kopt.precision;
  /* the passes on the side streams, after the tile's normals (stream 0's
   * work so far), beside the base's launch; stream 0 then waits for them,
   * for every side used, whatever failed */
  mcpi_cuda_kept *k = g->k;
  cudaError_t e = g->nside ? cudaEventRecord(k->ready, 0) : cudaSuccess;
  int used = 0;
  for (; e == cudaSuccess && used < g->nside; used++)
    e = cudaStreamWaitEvent(k->side[used], k->ready, 0);
  if (e == cudaSuccess)
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->view, g->buf[Z], g->tile, n, pay, prec, 0)
                     : mcpi_launch_paths(g->view, g->buf[Z], g->tile, n, pay, &g->kopt,
                                         g->view.gstate ? g->grid_g : g->grid, 0);
  size_t ncol = mcpi_job_columns(j, 1);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++) {
    double *col = pay + (controls ? (p + 1) * ncol : mcpi_pass_column(j, p)) * g->tile;
    cudaStream_t s = k->side[p % (size_t)g->nside];
    g->pass[p].write_controls = controls;
    g->pass[p].p0 = g->s0;
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->pass[p], g->buf[Z], g->tile, n, col, prec, s)
                     : mcpi_launch_paths(g->pass[p], g->buf[Z], g->tile, n, col, &g->kopt,
                                         g->grid, s);
  }
  for (int s = 0; s < used; s++) {
    cudaError_t w = cudaEventRecord(k->done[s], k->side[s]);
    if (w == cudaSuccess)
      w = cudaStreamWaitEvent(0, k->done[s], 0);
    e = e ? e : w;
  }
  if (e)
    return cuda_fail(g->run->ctx, e, "the path kernel");
  if (!controls && j->nest > j->nin &&
      (e = mcpi_launch_combine(g->term, g->off, (int)(j->nest - j->nin),
                               (int)(j->ntrades + 1 + j->nin), pay, g->tile, n, 0)))
    return cuda_fail(g->run->ctx, e, "the estimator kernel");
  return MCP_OK;
}

static mcp_status sums(void *self, size_t n, double *part)
{
  gpu_job *g = self;
  size_t ncol = mcpi_job_columns(g->j, 0), nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  cudaError_t e;
  if ((e = mcpi_launch_chunk_sums(g->buf[PAY], g->tile, n, ncol, g->buf[PART], 0)))
    return cuda_fail(g->run->ctx, e, "the chunk-sum kernel");
  if ((e = cudaMemcpy(part, g->buf[PART], ncol * nchunks * 2 * sizeof(double),
                      cudaMemcpyDeviceToHost)))
    return cuda_fail(g->run->ctx, e, "reading the chunk sums");
  return MCP_OK;
}

static mcp_status read(void *self, size_t n, double *pay, size_t ld)
{
  gpu_job *g = self;
  cudaError_t e = cudaMemcpy2D(pay, ld * sizeof(double), g->buf[PAY], g->tile * sizeof(double),
                               n * sizeof(double),
                               mcpi_job_columns(g->j, 1) * (1 + g->j->npass),
                               cudaMemcpyDeviceToHost);
  return e ? cuda_fail(g->run->ctx, e, "reading the pilot's payoffs") : MCP_OK;
}

static mcp_status update_specs(void *self)
{
  gpu_job *g = self;
  const mcpi_job *j = g->j;
  size_t bytes = j->ntrades * sizeof(mcpi_payoff_spec);
  cudaError_t e = cudaSuccess;
  for (size_t v = 0; e == cudaSuccess && v <= j->npass; v++)
    e = cudaMemcpy((void *)(v ? g->pass[v - 1] : g->view).trades,
                   (v ? mcpi_pass_job(g->run, g->ji, v - 1) : j)->spec, bytes,
                   cudaMemcpyHostToDevice);
  return e ? cuda_fail(g->run->ctx, e, "copying the control coefficients") : MCP_OK;
}

/* The Longstaff-Schwartz fit of the job or of a pass's variant (run_job.c):
 * lsm_kernel.cu's kernels write the table in place where the paths read
 * it; the host's copy follows. */
static mcp_status fit(void *self, size_t variant, int frozen)
{
  gpu_job *g = self;
  mcpi_run *run = g->run;
  mcpi_job *v = variant ? mcpi_pass_job(run, g->ji, variant - 1) : &run->plan->jobs[g->ji];
  mcpi_job_view w = variant ? g->pass[variant - 1] : g->view;
  double *table = (double *)w.lsm;
  w.lsm = NULL; /* the fit's paths do not exercise */
  cudaError_t e;
  if (frozen) {
    mcpi_lsm_copy_rules(g->j, v);
    if ((e = cudaMemcpy(table, v->lsm_table, (size_t)v->lsm_dates * MCPI_LSM_ROW * sizeof(double),
                        cudaMemcpyHostToDevice)))
      return cuda_fail(run->ctx, e, "copying the exercise rules");
    return MCP_OK;
  }
  size_t n = (size_t)v->lsm_paths, dates = (size_t)v->lsm_dates;
  size_t ns = (size_t)mcpi_lsm_state_size(&w), nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  size_t bytes = dates * MCPI_LSM_ROW * sizeof(double);
  if ((e = take(g, LSM_ST, dates * ns * n * sizeof(double))) ||
      (e = take(g, LSM_Y, n * sizeof(double))) ||
      (e = take(g, LSM_PART, (MCPI_LSM_COLUMNS(w.lsm_nb) * nch + 1) * sizeof(double))) ||
      (e = mcpi_launch_lsm_paths(w, v->lsm_stream, table, (int)dates, g->buf[LSM_ST], n,
                                 g->buf[LSM_Y], 0)))
    return cuda_fail(run->ctx, e, "the regression's paths");
  /* the dates' block counter after the sums */
  double *part = g->buf[LSM_PART];
  unsigned *done = (unsigned *)(part + MCPI_LSM_COLUMNS(w.lsm_nb) * nch);
  if ((e = cudaMemsetAsync(done, 0, sizeof *done, 0)))
    return cuda_fail(run->ctx, e, "the regression's counter");
  if ((e = mcpi_launch_lsm_dates(w, table, g->buf[LSM_ST], n, (int)dates, g->buf[LSM_Y], part,
                                 done, 0)))
    return cuda_fail(run->ctx, e, "the regression's kernels");
  if ((e = cudaMemcpy(v->lsm_table, table, bytes, cudaMemcpyDeviceToHost)))
    return cuda_fail(run->ctx, e, "reading the regression's rules");
  return MCP_OK;
}

/* Threads an SM that the shared placement must leave room for to be chosen
 * by auto: with fewer, the lost occupancy costs more than local memory's
 * cache traffic (bench/RESULTS.md, issue 6). */
#define MCPI_AUTO_SHARED_THREADS 512

/* The placement of a job's per-path arrays: auto becomes shared where the
 * block's arrays fit the device's shared memory and leave room for
 * MCPI_AUTO_SHARED_THREADS an SM, else local; registers and shared that
 * cannot hold them are refused. */
static mcp_status resolve_placement(mcpi_run *run, const mcpi_job *j, mcpi_kernel_options *o)
{
  mcp_context *ctx = run->ctx;
  const char *id = run->portfolio->t[j->trade[0]].id;
  int max_smem = ctx->cuda->max_smem, sm_smem = ctx->cuda->sm_smem;
  size_t thread = (size_t)j->arr_len * sizeof(double), bytes = thread * (size_t)o->block;
  if (o->placement == MCP_PLACEMENT_AUTO)
    o->placement = bytes <= (size_t)max_smem &&
                           thread * MCPI_AUTO_SHARED_THREADS <= (size_t)sm_smem
                       ? MCP_PLACEMENT_SHARED
                       : MCP_PLACEMENT_LOCAL;
  if (o->placement == MCP_PLACEMENT_REGISTERS && mcpi_array_kernel_index(o->placement, j->arr_len) < 0)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "placement registers: the job of trade '%s' (and %zu more) keeps %d "
                     "elements a path, more than the %d the register kernels hold; choose "
                     "local, shared or auto",
                     id, j->nreal - 1, j->arr_len, MCP_MAX_REGISTER_ARRAY);
  if (o->placement == MCP_PLACEMENT_SHARED && bytes > (size_t)max_smem)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "placement shared: the job of trade '%s' (and %zu more) keeps %d doubles "
                     "a path, %zu bytes for a block of %d threads, more than the device's %d; "
                     "lower the block size or choose local or auto",
                     id, j->nreal - 1, j->arr_len, bytes, o->block, max_smem);
  return MCP_OK;
}

static mcp_status price_job(mcpi_run *run, size_t ji)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  size_t real = run->kopt.precision == MCP_FLOAT ? sizeof(float) : sizeof(double);
  gpu_job g = {.run = run, .j = j, .ji = ji, .k = run->ctx->cuda, .kopt = run->kopt};
  /* Longstaff-Schwartz jobs run their own kernel, on stored normals */
  g.kopt.fused = run->normals == MCP_NORMALS_FUSED && !j->qmc && !j->lsm_dates;
  g.kopt.small = mcpi_job_small(j);
  if (MCPI_ASSETS_KIND(j->nassets, j->model) == 2) /* its kernels read no ring (path_kernel.cuh) */
    g.kopt.strategy = MCP_PREFETCH_NONE;
  cudaError_t e;
  mcp_status st = MCP_OK;
  if (j->arr_len && (st = resolve_placement(run, j, &g.kopt)))
    return st;
  /* the greeks kernel first: a block it lowers is the block of both */
  if ((j->gstate && (e = path_grid(g.k, &g.kopt, -1, 0, &g.grid_g))) ||
      (e = path_grid(g.k, &g.kopt, MCPI_ASSETS_KIND(j->nassets, j->model), j->arr_len,
                     &g.grid)))
    return cuda_fail(run->ctx, e, "sizing the path kernel's grid");
  g.nside = j->npass < SIDE_STREAMS ? (int)j->npass : SIDE_STREAMS;
  g.pass = calloc(j->npass + 1, sizeof *g.pass);
  if ((j->qmc && !(g.scramble = malloc(j->nelem * sizeof *g.scramble))) || !g.pass)
    st = mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  else if ((e = upload_job(&g)))
    st = cuda_fail(run->ctx, e, "copying the job's arrays");
  else if ((e = make_sides(g.k, g.nside)))
    st = cuda_fail(run->ctx, e, "making the passes' streams");
  if (st == MCP_OK)
    st = size_tiles(&g, mcpi_job_samples(run->plan, j), real);
  mcpi_tiler t = {&g, g.tile, fill, paths, sums, read, update_specs, fit};
  if (st == MCP_OK)
    st = mcpi_run_job(run, ji, &t);
  free(g.pass);
  free(g.scramble);
  /* a job that failed may have left its upload running, from the staging
     that the next job packs (upload_job) */
  if (st != MCP_OK && cudaStreamSynchronize(0))
    cudaGetLastError();
  return st;
}

mcp_status mcpi_cuda_price(mcpi_run *run)
{
  mcp_context *ctx = run->ctx;
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess)
    return cuda_fail(ctx, e, "selecting the device");
  mcp_status st = keep(ctx);
  if (st != MCP_OK)
    return st;
  const mcpi_kernel_options *o = &run->kopt;
  /* before any job runs: the single-asset stored table has every strategy
     and distance that any table has */
  mcpi_kernel_options stored = *o;
  stored.fused = 0;
  stored.small = 0;
  if (!mcpi_path_kernel_built(&stored, 0, 0))
    return mcpi_fail(ctx->err, MCP_ERR_UNAVAILABLE,
                     "prefetch %s at distance %d: this build has each strategy at distance %d "
                     "alone (configure --enable-tuning-kernels builds every distance)",
                     mcp_prefetch_name(o->strategy), o->distance, MCPI_DEFAULT_DISTANCE);
  size_t smem = mcpi_prefetch_smem_bytes(o->precision, o->strategy, o->distance, o->padding,
                                         o->block);
  int max_smem = ctx->cuda->max_smem;
  if (smem > (size_t)max_smem)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "prefetch %s, distance %d, padding %d: %zu bytes of shared memory a block "
                     "of %d threads, more than the device's %d; lower the distance, the "
                     "padding or the block size",
                     mcp_prefetch_name(o->strategy), o->distance, o->padding, smem, o->block,
                     max_smem);
  for (size_t ji = 0; st == MCP_OK && ji < run->plan->njobs; ji++)
    if (mcpi_run_has(run, ji))
      st = price_job(run, ji);
  return st;
}
#endif
