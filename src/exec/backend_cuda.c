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

/* Every device allocation of a job: slots of the context's kept buffers. */
enum { Z, ZQ, W, PAY, PART, CA, CB, CA_F, CB_F, TAG, CHOL, CHOL_F, SPEC, DIRS, SCRAMBLE,
       BR_M, BR_L, BR_R, BR_WL, BR_WR, BR_SD, BR_IDT, TERM, OFF, PASSES, SQRT_DT, LV_Y, LV_VOL,
       LV_Y_F, LV_VOL_F, LV_IDX, CASH, LSM, LSM_ST, LSM_Y, LSM_PART, ACALL, NBUF };
_Static_assert(NBUF <= MCPI_DEV_SLOT_PDE, "the context keeps a buffer a slot");
/* A pass's own arrays, the variant's coefficients, specs, volatility
 * slices, tables of dates and tags (the grid check's coarse pass holds and
 * merges steps, grid_check.c; the others' are the job's), at these offsets
 * of its part of the PASSES buffer. */
enum { P_CA, P_CB, P_SPEC, P_CA_F, P_CB_F, P_LV, P_LV_F, P_LSM, P_ACALL, P_TAG, NPBUF };

typedef struct gpu_job {
  mcpi_run *run;
  const mcpi_job *j;
  mcpi_kernel_options kopt; /* the run's, with the block the job's kernel allows */
  int grid;                 /* blocks of a wave */
  int grid_g;               /* of the kernel with on-path vega and rho (gstate) */
  mcpi_job_view view;      /* device pointers */
  mcpi_job_view *pass;     /* the passes' views, device pointers */
  mcpi_bridge_view bridge; /* device pointers */
  void *buf[NBUF];
  size_t tile;
  uint64_t s0;             /* the tile's first sample (fused normals) */
  uint64_t *scramble;      /* host copy of the replicate's scramble constants */
  const uint64_t *consts;
  int nside;                          /* side streams made, 0 without passes */
  cudaStream_t side[SIDE_STREAMS];
  cudaEvent_t ready, done[SIDE_STREAMS]; /* the tile's normals, each side's passes */
} gpu_job;

static mcp_status cuda_fail(mcp_context *ctx, cudaError_t e, const char *what)
{
  mcp_status st = e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE;
  cudaGetLastError();
  return mcpi_fail(ctx->err, st, "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

void mcpi_cuda_release(mcp_context *ctx)
{
  for (int b = 0; b < MCPI_DEV_SLOTS; b++)
    if (ctx->dev[b]) { /* a CPU context never touches the CUDA runtime */
      cudaFree(ctx->dev[b]);
      ctx->dev[b] = NULL;
      ctx->dev_bytes[b] = 0;
    }
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

static void release(gpu_job *g)
{
  for (int s = 0; s < g->nside; s++) {
    cudaStreamDestroy(g->side[s]);
    cudaEventDestroy(g->done[s]);
  }
  if (g->nside)
    cudaEventDestroy(g->ready);
  free(g->pass);
  free(g->scramble);
}

/* The side streams of a job with passes, and their events. */
static cudaError_t make_sides(gpu_job *g)
{
  cudaError_t e = cudaSuccess;
  size_t want = g->j->npass < SIDE_STREAMS ? g->j->npass : SIDE_STREAMS;
  if (want && (e = cudaEventCreateWithFlags(&g->ready, cudaEventDisableTiming)))
    return e;
  for (size_t s = 0; s < want && e == cudaSuccess; s++) {
    if ((e = cudaStreamCreateWithFlags(&g->side[s], cudaStreamNonBlocking)))
      break;
    if ((e = cudaEventCreateWithFlags(&g->done[s], cudaEventDisableTiming))) {
      cudaStreamDestroy(g->side[s]);
      break;
    }
    g->nside = (int)s + 1;
  }
  if (want && !g->nside) /* nothing made: the ready event goes too */
    cudaEventDestroy(g->ready);
  return e;
}

/* Slot b holding a device copy of bytes at src. */
static cudaError_t upload(gpu_job *g, int b, const void *src, size_t bytes)
{
  cudaError_t e = take(g, b, bytes);
  return e == cudaSuccess && bytes ? cudaMemcpy(g->buf[b], src, bytes, cudaMemcpyHostToDevice)
                                   : e;
}

/* Byte offsets of a pass's arrays in its part of PASSES, and the part's
 * size (each array 16-byte aligned). */
static size_t pass_layout(const mcpi_job *j, size_t off[NPBUF])
{
  size_t ne = j->nelem, nlv = j->nsteps * (size_t)j->lv_n;
  size_t bytes[NPBUF] = {ne * sizeof(double), ne * sizeof(double),
                         j->ntrades * sizeof(mcpi_payoff_spec), ne * sizeof(float),
                         ne * sizeof(float), nlv * sizeof(double), nlv * sizeof(float),
                         (size_t)j->lsm_dates * MCPI_LSM_ROW * sizeof(double),
                         j->nacall * MCPI_AC_ROW * sizeof(double), ne * sizeof(uint32_t)};
  size_t at = 0;
  for (int k = 0; k < NPBUF; k++) {
    off[k] = at;
    at += (bytes[k] + 15) & ~(size_t)15;
  }
  return at;
}

/* The passes' coefficients and specs, staged on the host and copied in one
 * transfer, and the estimators' terms. */
static cudaError_t upload_passes(gpu_job *g)
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem, off[NPBUF], part = pass_layout(j, off);
  size_t nlv = j->nsteps * (size_t)j->lv_n;
  int32_t *terms = mcpi_job_term_offsets(j);
  unsigned char *host = malloc(j->npass * part + 1);
  cudaError_t e = terms && host ? cudaSuccess : cudaErrorMemoryAllocation;
  if (e == cudaSuccess && !(e = upload(g, TERM, j->term, j->nterm * sizeof *j->term)))
    e = upload(g, OFF, terms, (j->nest - j->nin + 1) * sizeof *terms);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++) {
    const mcpi_job *v = mcpi_pass_job(g->run, (size_t)(j - g->run->plan->jobs), p);
    unsigned char *h = host + p * part;
    memcpy(h + off[P_CA], v->ca, ne * sizeof(double));
    memcpy(h + off[P_CB], v->cb, ne * sizeof(double));
    memcpy(h + off[P_SPEC], v->spec, v->ntrades * sizeof(mcpi_payoff_spec));
    memcpy(h + off[P_CA_F], v->ca_f, ne * sizeof(float));
    memcpy(h + off[P_CB_F], v->cb_f, ne * sizeof(float));
    if (nlv) {
      memcpy(h + off[P_LV], v->lv_vol, nlv * sizeof(double));
      memcpy(h + off[P_LV_F], v->lv_vol_f, nlv * sizeof(float));
    }
    if (j->lsm_dates) /* the discount factors: the fit fills in the rest */
      memcpy(h + off[P_LSM], v->lsm_table, (size_t)j->lsm_dates * MCPI_LSM_ROW * sizeof(double));
    if (j->nacall) /* the discount factors move with the rates and the dates */
      memcpy(h + off[P_ACALL], v->acall, j->nacall * MCPI_AC_ROW * sizeof(double));
    memcpy(h + off[P_TAG], v->tag, ne * sizeof(uint32_t));
  }
  if (e == cudaSuccess)
    e = upload(g, PASSES, host, j->npass * part);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++) {
    unsigned char *d = (unsigned char *)g->buf[PASSES] + p * part;
    mcpi_job_view *w = &g->pass[p];
    *w = mcpi_job_host_view(mcpi_pass_job(g->run, (size_t)(j - g->run->plan->jobs), p));
    w->ca = (const double *)(d + off[P_CA]);
    w->cb = (const double *)(d + off[P_CB]);
    w->trades = (const mcpi_payoff_spec *)(d + off[P_SPEC]);
    w->ca_f = (const float *)(d + off[P_CA_F]);
    w->cb_f = (const float *)(d + off[P_CB_F]);
    w->lv_vol = (const double *)(d + off[P_LV]);
    w->lv_vol_f = (const float *)(d + off[P_LV_F]);
    w->lsm = j->lsm_dates ? (const double *)(d + off[P_LSM]) : NULL;
    w->acall = j->nacall ? (const double *)(d + off[P_ACALL]) : NULL;
    w->lv_y = g->view.lv_y; /* the surface's spots: no shift moves them */
    w->lv_y_f = g->view.lv_y_f;
    w->lv_idx = g->view.lv_idx;
    w->cash = g->view.cash; /* no shift moves the amounts, and the steps are the job's */
    w->tag = (const uint32_t *)(d + off[P_TAG]); /* the job's, but the grid check's */
    w->uniform = w->uniform && g->view.uniform; /* (which is never uniform) */
    w->utag = g->view.utag;
    w->utag_last = g->view.utag_last;
    w->sqrt_dt = g->view.sqrt_dt;
    w->chol = g->view.chol;
    w->chol_f = g->view.chol_f;
    w->seed = g->view.seed; /* a pass revalues the job's own normals */
  }
  free(terms);
  free(host);
  return e;
}

static cudaError_t upload_job(gpu_job *g)
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem, n = j->nsteps, ns = (size_t)j->lv_n;
  cudaError_t e;
  if ((e = upload(g, CA, j->ca, ne * sizeof(double))) ||
      (e = upload(g, CB, j->cb, ne * sizeof(double))) ||
      (e = upload(g, CA_F, j->ca_f, ne * sizeof(float))) ||
      (e = upload(g, CB_F, j->cb_f, ne * sizeof(float))) ||
      (e = upload(g, TAG, j->tag, ne * sizeof(uint32_t))) ||
      (e = upload(g, SQRT_DT, j->sqrt_dt, ne * sizeof(double))) ||
      (j->chol && ((e = upload(g, CHOL, j->chol, MCPI_CHOL_SIZE * sizeof(double))) ||
                   (e = upload(g, CHOL_F, j->chol_f, MCPI_CHOL_SIZE * sizeof(float))))) ||
      (e = upload(g, SPEC, j->spec, j->ntrades * sizeof(mcpi_payoff_spec))) ||
      (ns && ((e = upload(g, LV_Y, j->lv_y, ns * sizeof(double))) ||
              (e = upload(g, LV_VOL, j->lv_vol, n * ns * sizeof(double))) ||
              (e = upload(g, LV_Y_F, j->lv_y_f, ns * sizeof(float))) ||
              (e = upload(g, LV_VOL_F, j->lv_vol_f, n * ns * sizeof(float))) ||
              (e = upload(g, LV_IDX, j->lv_idx, (size_t)j->lv_nb * sizeof(int32_t))))) ||
      (j->cash && (e = upload(g, CASH, j->cash, n * sizeof(double)))) ||
      (j->lsm_dates && (e = upload(g, LSM, j->lsm_table, (size_t)j->lsm_dates *
                                                            MCPI_LSM_ROW * sizeof(double)))) ||
      (j->nacall &&
       (e = upload(g, ACALL, j->acall, j->nacall * MCPI_AC_ROW * sizeof(double)))))
    return e;
  if (j->qmc) {
    const mcpi_bridge *b = &j->bridge;
    const uint64_t *dirs = mcpi_sobol_directions();
    g->consts = mcpi_sobol_scrambles();
    if (!dirs || !g->consts)
      return cudaErrorInvalidValue;
    if ((e = upload(g, DIRS, dirs, ne * MCPI_SOBOL_BITS * sizeof(uint64_t))) ||
        (e = take(g, SCRAMBLE, ne * sizeof(uint64_t))) ||
        (e = upload(g, BR_M, b->m, n * sizeof(int32_t))) ||
        (e = upload(g, BR_L, b->l, n * sizeof(int32_t))) ||
        (e = upload(g, BR_R, b->r, n * sizeof(int32_t))) ||
        (e = upload(g, BR_WL, b->wl, n * sizeof(double))) ||
        (e = upload(g, BR_WR, b->wr, n * sizeof(double))) ||
        (e = upload(g, BR_SD, b->sd, n * sizeof(double))) ||
        (e = upload(g, BR_IDT, b->inv_sqrt_dt, n * sizeof(double))))
      return e;
    g->bridge = (mcpi_bridge_view){b->n, g->buf[BR_M], g->buf[BR_L], g->buf[BR_R],
                                   g->buf[BR_WL], g->buf[BR_WR], g->buf[BR_SD], g->buf[BR_IDT]};
  }
  g->view = mcpi_job_host_view(j);
  g->view.ca = g->buf[CA];
  g->view.cb = g->buf[CB];
  g->view.ca_f = g->buf[CA_F];
  g->view.cb_f = g->buf[CB_F];
  g->view.tag = g->buf[TAG];
  g->view.sqrt_dt = g->buf[SQRT_DT];
  g->view.chol = j->chol ? g->buf[CHOL] : NULL;
  g->view.chol_f = j->chol ? g->buf[CHOL_F] : NULL;
  g->view.trades = g->buf[SPEC];
  if (ns) {
    g->view.lv_y = g->buf[LV_Y];
    g->view.lv_vol = g->buf[LV_VOL];
    g->view.lv_y_f = g->buf[LV_Y_F];
    g->view.lv_vol_f = g->buf[LV_VOL_F];
    g->view.lv_idx = g->buf[LV_IDX];
  }
  if (j->cash)
    g->view.cash = g->buf[CASH];
  g->view.lsm = j->lsm_dates ? g->buf[LSM] : NULL;
  g->view.acall = j->nacall ? g->buf[ACALL] : NULL;
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
      (e = mcpi_launch_sobol(g->buf[DIRS], g->buf[SCRAMBLE], j->nelem, s0, n, g->buf[ZQ],
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
  cudaError_t e = g->nside ? cudaEventRecord(g->ready, 0) : cudaSuccess;
  int used = 0;
  for (; e == cudaSuccess && used < g->nside; used++)
    e = cudaStreamWaitEvent(g->side[used], g->ready, 0);
  if (e == cudaSuccess)
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->view, g->buf[Z], g->tile, n, pay, prec, 0)
                     : mcpi_launch_paths(g->view, g->buf[Z], g->tile, n, pay, &g->kopt,
                                         g->view.gstate ? g->grid_g : g->grid, 0);
  size_t ncol = mcpi_job_columns(j, 1);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++) {
    double *col = pay + (controls ? (p + 1) * ncol : mcpi_pass_column(j, p)) * g->tile;
    cudaStream_t s = g->side[p % (size_t)g->nside];
    g->pass[p].write_controls = controls;
    g->pass[p].p0 = g->s0;
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->pass[p], g->buf[Z], g->tile, n, col, prec, s)
                     : mcpi_launch_paths(g->pass[p], g->buf[Z], g->tile, n, col, &g->kopt,
                                         g->grid, s);
  }
  for (int s = 0; s < used; s++) {
    cudaError_t w = cudaEventRecord(g->done[s], g->side[s]);
    if (w == cudaSuccess)
      w = cudaStreamWaitEvent(0, g->done[s], 0);
    e = e ? e : w;
  }
  if (e)
    return cuda_fail(g->run->ctx, e, "the path kernel");
  if (!controls && j->nest > j->nin &&
      (e = mcpi_launch_combine(g->buf[TERM], g->buf[OFF], (int)(j->nest - j->nin),
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
  cudaError_t e = cudaMemcpy(g->buf[SPEC], j->spec, bytes, cudaMemcpyHostToDevice);
  size_t off[NPBUF], part = pass_layout(j, off);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++)
    e = cudaMemcpy((unsigned char *)g->buf[PASSES] + p * part + off[P_SPEC],
                   mcpi_pass_job(g->run, (size_t)(j - g->run->plan->jobs), p)->spec, bytes,
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
  size_t ji = (size_t)(g->j - run->plan->jobs);
  mcpi_job *v = variant ? mcpi_pass_job(run, ji, variant - 1) : &run->plan->jobs[ji];
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
  int max_smem = 0, sm_smem = 0;
  cudaError_t e = cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                         ctx->device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sm_smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                               ctx->device);
  if (e != cudaSuccess)
    return cuda_fail(ctx, e, "reading the device's shared memory");
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
  gpu_job g = {.run = run, .j = j, .kopt = run->kopt};
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
  if ((j->gstate && (e = mcpi_path_grid_greeks(&g.kopt, &g.grid_g))) ||
      (e = mcpi_path_grid(&g.kopt, MCPI_ASSETS_KIND(j->nassets, j->model), j->arr_len,
                          &g.grid)))
    return cuda_fail(run->ctx, e, "sizing the path kernel's grid");
  g.pass = calloc(j->npass + 1, sizeof *g.pass);
  if ((j->qmc && !(g.scramble = malloc(j->nelem * sizeof *g.scramble))) || !g.pass)
    st = mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  else if ((e = upload_job(&g)) || (e = upload_passes(&g)))
    st = cuda_fail(run->ctx, e, "copying the job's arrays");
  else if ((e = make_sides(&g)))
    st = cuda_fail(run->ctx, e, "making the passes' streams");
  if (st == MCP_OK)
    st = size_tiles(&g, mcpi_job_samples(run->plan, j), real);
  mcpi_tiler t = {&g, g.tile, fill, paths, sums, read, update_specs, fit};
  if (st == MCP_OK)
    st = mcpi_run_job(run, ji, &t);
  release(&g);
  return st;
}

mcp_status mcpi_cuda_price(mcpi_run *run)
{
  mcp_context *ctx = run->ctx;
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess)
    return cuda_fail(ctx, e, "selecting the device");
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
  int max_smem = 0;
  cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx->device);
  if (smem > (size_t)max_smem)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "prefetch %s, distance %d, padding %d: %zu bytes of shared memory a block "
                     "of %d threads, more than the device's %d; lower the distance, the "
                     "padding or the block size",
                     mcp_prefetch_name(o->strategy), o->distance, o->padding, smem, o->block,
                     max_smem);
  mcp_status st = MCP_OK;
  for (size_t ji = 0; st == MCP_OK && ji < run->plan->njobs; ji++)
    if (mcpi_run_has(run, ji))
      st = price_job(run, ji);
  return st;
}
#endif
