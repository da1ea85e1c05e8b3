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
#define NO_CUDA "this build of mcprice has no CUDA backend (configure found no nvcc)"
mcp_status mcpi_cuda_price(mcpi_run *run)
{
  return mcpi_fail(run->ctx->err, MCP_ERR_UNAVAILABLE, NO_CUDA);
}

mcp_status mcpi_cuda_gpu_id(mcp_context *ctx, mcpi_gpu_id *out)
{
  (void)out;
  return mcpi_fail(ctx->err, MCP_ERR_UNAVAILABLE, NO_CUDA);
}

int mcpi_cuda_prefetch_fits(const mcp_context *ctx, mcp_precision prec,
                            const mcp_wisdom_entry *w)
{
  (void)ctx, (void)prec, (void)w;
  return 0;
}

void mcpi_cuda_release(mcp_context *ctx) { (void)ctx; }
#else
#include "src/exec/cuda_host.h"
#include "kernels/catalogue.h"
#include "kernels/launch.h"
#include "models/products/adjoint.h"
#include "models/products/lsm_fit.h"
#include "models/rng.h"

/* A job's tile: at most MAX_AUTO_TILE samples; its whole run where that
 * needs at most MCPI_SMALL_DEVICE_BYTES (an allocation that fails halves
 * the tile of a job alone).  Jobs of a tile a replicate run in batches,
 * each batch's jobs at once, of at most MCPI_SMALL_DEVICE_BYTES together,
 * or where they need more, of GROUP_BYTES and at most a quarter of the
 * memory then free (mcpi_cuda_price). */
#define MAX_AUTO_TILE ((size_t)1 << 22)
#define GROUP_BYTES ((size_t)2 << 30)

/* The streams a context keeps: each job of a batch has one, and the
 * revaluation passes of a job's tile run on up to SIDE_STREAMS others beside
 * it: a tile of few paths fills a small part of the GPU, one launch at a
 * time (the STAC-A2 shape's vegas, bench/RESULTS.md "stac_a2"; the example
 * book's 24 jobs, "latency"). */
#define STREAMS 16
#define SIDE_STREAMS 8

/* Every device allocation of a job: slots of the context's kept buffers
 * (BLOB: the job's arrays, upload_job), or, in a batch, parts of its ARENA
 * slot. */
enum {
  Z, ZQ, W, PAY, PART, BLOB, SCRAMBLE, LSM_ST, LSM_Y, LSM_PART, LSM_REC, LSM_SIDE, ADJ_START,
  NBUF, ARENA = NBUF
};
_Static_assert(ARENA < MCPI_DEV_SLOT_PDE, "the context keeps a buffer a slot");

/* Path kernels' waves a context has sized (mcpi_path_grid): the options
 * asked with (shape: multi, or -1 for the greeks kernel; arr_len), those
 * returned and the grid.  Options compare as bytes: they have no padding. */
#define GRIDS_KEPT 16
typedef struct grid_kept {
  mcpi_kernel_options in, out;
  int shape, arr_len, grid;
} grid_kept;
_Static_assert(sizeof(mcpi_kernel_options) == 9 * sizeof(int), "kernel options of ints alone");

/* What a context keeps of the CUDA backend beside its buffers, made by its
 * first run (each CUDA call costs about 20 us where the library runs
 * sandboxed, and a small book's job only a few more). */
typedef struct mcpi_cuda_kept {
  int max_smem, sm_smem;  /* the device's shared memory: a block's (opt-in), an SM's */
  mcpi_gpu_id gpu;        /* the device as a wisdom knows it */
  int ngrids;
  grid_kept grids[GRIDS_KEPT];
  cudaStream_t stream[STREAMS]; /* made by the first run, non-blocking */
  cudaEvent_t ready, done[STREAMS]; /* a tile's normals, each side's passes */
  /* the Longstaff-Schwartz fits' stream, of the device's greatest priority
   * (fit), its walk's start and its rules ready */
  cudaStream_t fit;
  cudaEvent_t walking, ruled;
  int fitting; /* the fit stream given work since the group's start */
  /* the host staging of the jobs' blobs (page-locked where the runtime
   * lets it, else malloc's), and the device arena of a batch's buffers:
   * each taken from its start by the jobs of a group (a batch, or one job
   * alone), which outgrow it by buffers of their own (extra) that the
   * group's end frees and the next group's start adds to the kept one */
  void *stage;
  size_t stage_bytes, stage_used, stage_want;
  int pinned;
  size_t arena_used, arena_want;
  void **extra;
  size_t nextra, extra_cap;
} mcpi_cuda_kept;

typedef struct gpu_job {
  mcpi_run *run;
  const mcpi_job *j;        /* job ji of the run's plan */
  size_t ji;
  mcpi_cuda_kept *k;        /* the context's */
  int batch;                /* its buffers from the arena, its sums read by wait */
  cudaStream_t s;           /* the job's stream, and its passes' */
  cudaStream_t fs;          /* its fits': the context's fit stream, a batch's s (fit) */
  int nside;
  int side[SIDE_STREAMS];   /* indices in k->stream */
  mcpi_kernel_options kopt; /* job_options', with the block the job's kernel allows */
  uint64_t tile_paths;      /* job_options': 0, sized to memory (halved while an
                               allocation fails, unless the caller's) */
  int grid;                 /* blocks of a wave */
  int grid_g;               /* of the kernel with on-path vega and rho (gstate) */
  mcpi_kernel_options kopt_general; /* the general state's, and its grid: for a pass */
  int grid_general;                 /* whose job does not fit the job's shape */
  int adj_shape;                    /* mcpi_job_adjoint_shape's */
  int lanes;                        /* lsm_lanes' of the job */
  int twin;                         /* the pass that the job's kernel steps beside its
                                     * paths (the check's coarse one), or -1 */
  mcpi_kernel_options kopt_checked; /* that kernel's, and its grid */
  int grid_checked;
  mcpi_job_view view;      /* device pointers */
  mcpi_job_view *pass;     /* the passes' views, device pointers */
  unsigned char *general;  /* pass p runs the general state */
  mcpi_bridge_view bridge; /* device pointers */
  const mcpi_term *term;   /* the estimators' terms and offsets (device) */
  const int32_t *off;
  const uint64_t *dirs;    /* the Sobol directions (device) */
  void *buf[NBUF];
  size_t bytes[NBUF];      /* a batch's: what buf[b] holds */
  size_t tile;
  uint64_t s0;             /* the tile's first sample (fused normals) */
  uint64_t *scramble;      /* host copy of the replicate's scramble constants */
  const uint64_t *consts;
  size_t ntiles;           /* a batch's: tiles summed, each to a PART of its own */
  int zeros;               /* the tile's adjoint blocks hold zeros (j->adj_zlo ..) */
  unsigned char *fitted;   /* variant v's rule on the device: 1 its fit's, 2 the job's */
  mcpi_tiler t;
  mcpi_job_sums js;
} gpu_job;

mcp_status mcpi_cuda_fail(mcp_context *ctx, cudaError_t e, const char *what)
{
  cudaGetLastError();
  return mcpi_fail(ctx->err, e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE,
                   "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

cudaError_t mcpi_cuda_slot(mcp_context *ctx, int slot, size_t bytes, void **out)
{
  if (ctx->dev_bytes[slot] < bytes || !ctx->dev[slot]) {
    cudaFree(ctx->dev[slot]);
    ctx->dev[slot] = NULL;
    ctx->dev_bytes[slot] = 0;
    cudaError_t e = cudaMalloc(&ctx->dev[slot], bytes ? bytes : 1);
    if (e != cudaSuccess) {
      ctx->dev[slot] = NULL;
      return e;
    }
    ctx->dev_bytes[slot] = bytes;
  }
  *out = ctx->dev[slot];
  return cudaSuccess;
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
  int held = k || ctx->grid_stream, was = -1;
  for (int b = 0; b < MCPI_DEV_SLOTS; b++)
    held |= ctx->dev[b] != NULL;
  /* its streams, events and buffers go on its device, whichever the thread
   * has (a worker's context is destroyed on its caller's thread), which is
   * given back; a CPU context never touches the CUDA runtime */
  if (held && cudaGetDevice(&was) == cudaSuccess && was != ctx->device)
    cudaSetDevice(ctx->device);
  if (k) {
    for (int s = 0; s < STREAMS && k->stream[s]; s++) {
      cudaStreamDestroy(k->stream[s]);
      cudaEventDestroy(k->done[s]);
    }
    if (k->ready)
      cudaEventDestroy(k->ready);
    if (k->fit)
      cudaStreamDestroy(k->fit);
    if (k->walking)
      cudaEventDestroy(k->walking);
    if (k->ruled)
      cudaEventDestroy(k->ruled);
    free_stage(k);
    free(k->extra);
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
  if (was >= 0 && was != ctx->device)
    cudaSetDevice(was);
}

/* The context's kept state, made on its first run on its device: the
 * device's shared memory asked once, not by every job with arrays; the
 * streams and their events. */
static mcp_status keep(mcp_context *ctx)
{
  if (ctx->cuda)
    return MCP_OK;
  mcpi_cuda_kept *k = calloc(1, sizeof *k);
  if (!k)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  ctx->cuda = k; /* mcpi_cuda_release frees what is made, whatever fails */
  cudaError_t e = cudaDeviceGetAttribute(&k->max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                         ctx->device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&k->sm_smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                               ctx->device);
  mcp_device_info info;
  if (e == cudaSuccess && mcp_device_get_info(ctx->device, &info) == MCP_OK) {
    size_t len = strnlen(info.name, sizeof k->gpu.device - 1); /* (ASCII) */
    memcpy(k->gpu.device, info.name, len);
    k->gpu.capability = 10 * info.compute_major + info.compute_minor;
    e = cudaDriverGetVersion(&k->gpu.driver);
  }
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags(&k->ready, cudaEventDisableTiming);
  int least = 0, greatest = 0;
  if (e == cudaSuccess &&
      (e = cudaDeviceGetStreamPriorityRange(&least, &greatest)) == cudaSuccess &&
      (e = cudaStreamCreateWithPriority(&k->fit, cudaStreamNonBlocking, greatest)) != cudaSuccess)
    k->fit = NULL;
  if (e == cudaSuccess && (e = cudaEventCreateWithFlags(&k->walking, cudaEventDisableTiming)))
    k->walking = NULL;
  if (e == cudaSuccess && (e = cudaEventCreateWithFlags(&k->ruled, cudaEventDisableTiming)))
    k->ruled = NULL;
  for (int s = 0; e == cudaSuccess && s < STREAMS; s++)
    if ((e = cudaStreamCreateWithFlags(&k->stream[s], cudaStreamNonBlocking)) == cudaSuccess &&
        (e = cudaEventCreateWithFlags(&k->done[s], cudaEventDisableTiming)) != cudaSuccess) {
      cudaStreamDestroy(k->stream[s]);
      k->stream[s] = NULL;
    }
  if (e != cudaSuccess) {
    mcp_status st = mcpi_cuda_fail(ctx, e, "setting up the device's streams");
    mcpi_cuda_release(ctx);
    return st;
  }
  return MCP_OK;
}

/* Slot b's buffer of at least bytes.  A job alone takes the context's slot
 * (mcpi_cuda_slot); a job of a batch takes a part of the arena, or of a buffer of
 * its own where the arena is full (the group's end frees it). */
static cudaError_t take(gpu_job *g, int b, size_t bytes)
{
  mcp_context *ctx = g->run->ctx;
  mcpi_cuda_kept *k = g->k;
  if (g->batch) {
    size_t size = (bytes + 255) & ~(size_t)255;
    if (g->buf[b] && g->bytes[b] >= bytes)
      return cudaSuccess;
    k->arena_want += size;
    if (ctx->dev[ARENA] && k->arena_used + size <= ctx->dev_bytes[ARENA]) {
      g->buf[b] = (unsigned char *)ctx->dev[ARENA] + k->arena_used;
      k->arena_used += size;
    } else {
      if (k->nextra == k->extra_cap) {
        size_t cap = k->extra_cap ? 2 * k->extra_cap : 16;
        void **grown = realloc(k->extra, cap * sizeof *grown);
        if (!grown)
          return cudaErrorMemoryAllocation;
        k->extra = grown;
        k->extra_cap = cap;
      }
      cudaError_t e = cudaMalloc(&g->buf[b], size ? size : 256);
      if (e != cudaSuccess) {
        g->buf[b] = NULL;
        return e;
      }
      k->extra[k->nextra++] = g->buf[b];
    }
    g->bytes[b] = bytes;
    return cudaSuccess;
  }
  return mcpi_cuda_slot(ctx, b, bytes, &g->buf[b]);
}

/* Frees slot b (a tile that did not fit; a job alone). */
static void drop(gpu_job *g, int b)
{
  mcp_context *ctx = g->run->ctx;
  cudaFree(ctx->dev[b]);
  ctx->dev[b] = g->buf[b] = NULL;
  ctx->dev_bytes[b] = 0;
}

/* The start of a group of jobs: the staging, and for a batch the arena,
 * grown to what the last group wanted (a warm call of the same book
 * allocates nothing; a job alone takes the context's slots, not the
 * arena). */
static void group_start(mcp_context *ctx, int batch)
{
  mcpi_cuda_kept *k = ctx->cuda;
  if (k->stage_want > k->stage_bytes) {
    free_stage(k);
    k->pinned = cudaMallocHost(&k->stage, k->stage_want) == cudaSuccess;
    if (!k->pinned) {
      cudaGetLastError(); /* not a later launch's error */
      k->stage = malloc(k->stage_want);
    }
    k->stage_bytes = k->stage ? k->stage_want : 0;
  }
  void *arena;
  if (batch && k->arena_want > ctx->dev_bytes[ARENA] &&
      mcpi_cuda_slot(ctx, ARENA, k->arena_want, &arena) != cudaSuccess)
    cudaGetLastError(); /* none: the jobs take buffers of their own */
  k->stage_used = k->stage_want = k->arena_used = k->arena_want = 0;
}

/* The end of a group, after its streams have ended. */
static void group_end(mcpi_cuda_kept *k)
{
  for (size_t i = 0; i < k->nextra; i++)
    cudaFree(k->extra[i]);
  k->nextra = 0;
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

/* A job's device arrays as one blob, each at the next 128-byte boundary (a
 * cache line: a trade's spec, 640 bytes, then starts a line, its path
 * body's fields in the first two: payoff.h): sized (host NULL), or packed
 * into host, each array's device address in dev given to its reader (a
 * pointer of a view). */
typedef struct blob {
  unsigned char *host, *dev;
  size_t at;
} blob;

/* The device address of the next array, of bytes at src (NULL while sizing
 * and for an empty array; a NULL src is one). */
static void *put(blob *b, const void *src, size_t bytes)
{
  bytes = src ? bytes : 0;
  void *at = b->host && bytes ? b->dev + b->at : NULL;
  if (at)
    memcpy(b->host + b->at, src, bytes);
  b->at += (bytes + 127) & ~(size_t)127;
  return at;
}

/* ptr reads the device copy of n elements at src; the unevaluated
 * assignment checks that their types agree. */
#define PUT(b, ptr, src, n)                                                                    \
  ((void)sizeof((ptr) = (src)), (ptr) = put(b, src, (n) * sizeof *(src)))

/* The array of a row of element type `type` at src, or NULL for a float row
 * (job_arrays.def: the float kernels' copy of a double row) where the run
 * is not in float: no kernel of a double or mixed run reads one (the
 * slices of a 200 x 400 surface's daily steps: 400 KB to pack and copy). */
#define TWIN(type, src, floats)                                                                \
  ((floats) || !_Generic((type *)0, float *: 1, default: 0) ? (src) : NULL)

/* The arrays that each variant, the job (v = j) or a pass's copy v, has of
 * its own (job_arrays.def), of the job's counts; the float rows' where
 * floats. */
static void put_variant(blob *b, const mcpi_job *j, const mcpi_job *v, mcpi_job_view *w,
                        int floats)
{
#define MCPI_OWN_ARRAY(field, type, count, view)                                                \
  PUT(b, w->view, TWIN(type, v->field, floats), count);
#include "models/products/job_arrays.def"
}

/* Every device array of a job: its variants', the rest of its view (which
 * its passes share), and, written out here as the gpu_job reads them beside
 * the view, the estimators' terms and their offsets off (made for the
 * upload), and the QMC directions dirs (the run's) and bridge (the job's
 * mcpi_bridge). */
static void put_job(blob *b, gpu_job *g, const int32_t *off, const uint64_t *dirs)
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem, n = j->nsteps;
  mcpi_job_view *w = &g->view;
  int floats = g->kopt.precision == MCP_FLOAT;
  put_variant(b, j, j, w, floats);
  for (size_t p = 0; p < j->npass; p++)
    put_variant(b, j, mcpi_pass_job(g->run, g->ji, p), &g->pass[p], floats);
#define MCPI_SHARED_ARRAY(field, type, count, view)                                             \
  PUT(b, w->view, TWIN(type, j->field, floats), count);
#include "models/products/job_arrays.def"
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
 * staging and copied by one transfer into BLOB, on the job's stream ahead
 * of all its work.  The staging is the group's (group_start): packed again
 * only by the next group, which starts after this one's streams end.  A
 * blob that outgrows it goes from memory of its own, freed once the copy
 * has ended. */
static cudaError_t upload_job(gpu_job *g)
{
  const mcpi_job *j = g->j;
  mcpi_cuda_kept *k = g->k;
  const uint64_t *dirs = NULL;
  if (j->qmc && (!(dirs = mcpi_sobol_directions()) || !(g->consts = mcpi_sobol_scrambles())))
    return cudaErrorInvalidValue;
  int32_t *off = mcpi_job_term_offsets(j);
  if (!off)
    return cudaErrorMemoryAllocation;
  blob b = {0};
  put_job(&b, g, off, dirs);
  size_t bytes = b.at;
  unsigned char *host = NULL, *own = NULL;
  k->stage_want += bytes;
  if (k->stage && k->stage_used + bytes <= k->stage_bytes) {
    host = (unsigned char *)k->stage + k->stage_used;
    k->stage_used += bytes;
  } else
    host = own = malloc(bytes ? bytes : 1);
  cudaError_t e = host ? take(g, BLOB, bytes) : cudaErrorMemoryAllocation;
  if (e == cudaSuccess) {
    g->view = mcpi_job_host_view(j);
    for (size_t p = 0; p < j->npass; p++)
      g->pass[p] = mcpi_job_host_view(mcpi_pass_job(g->run, g->ji, p));
    g->bridge.n = j->bridge.n;
    b = (blob){host, g->buf[BLOB], 0};
    put_job(&b, g, off, dirs);
    e = cudaMemcpyAsync(b.dev, b.host, b.at, cudaMemcpyHostToDevice, g->s);
    /* the runtime does not promise that a copy from pageable memory has
       taken its source when it returns */
    if (e == cudaSuccess && own)
      e = cudaStreamSynchronize(g->s);
  }
  free(own);
  free(off);
  if (e)
    return e;
  for (size_t p = 0; p < j->npass; p++) {
    mcpi_job_view *w = &g->pass[p];
#define MCPI_SHARED_ARRAY(field, type, count, member) w->member = g->view.member;
#include "models/products/job_arrays.def"
    w->uniform = w->uniform && g->view.uniform; /* (the grid check's pass never is) */
    w->seed = g->view.seed; /* a pass revalues the job's own normals */
  }
  return cudaSuccess;
}

/* The device memory of a tile's samples, a sample at a time (size_tiles),
 * beside a chunk's sums. */
static size_t sample_bytes(const mcpi_job *j, int fused, size_t real)
{
  return j->nelem * ((fused ? 0 : real) + (j->qmc ? 2 * sizeof(double) : 0)) +
         mcpi_job_pay_columns(j) * sizeof(double);
}

/* The doubles of a tile's chunk sums (PART). */
static size_t part_doubles(const mcpi_job *j, size_t tile)
{
  return mcpi_job_columns(j, 0) * (tile / MCP_CHUNK_PATHS) * 2;
}

/* The bytes of each buffer that a tile of tile samples takes (0: none), in
 * tiles of chunk sums: alloc_tile's, and what a warm call's slots hold. */
static void tile_bytes(const gpu_job *g, size_t tile, size_t real, size_t tiles,
                       size_t bytes[NBUF])
{
  const mcpi_job *j = g->j;
  size_t ne = j->nelem;
  memset(bytes, 0, NBUF * sizeof *bytes);
  bytes[Z] = g->kopt.fused ? 0 : ne * tile * real;
  bytes[PAY] = mcpi_job_pay_columns(j) * tile * sizeof(double);
  bytes[PART] = part_doubles(j, tile) * tiles * sizeof(double);
  if (j->qmc) {
    bytes[ZQ] = ne * tile * sizeof(double);
    bytes[SCRAMBLE] = ne * sizeof(uint64_t); /* the replicate's scrambles (fill) */
    /* the bridge builds in double: in place in z, or beside a float z */
    bytes[W] = real != sizeof(double) ? ne * tile * sizeof(double) : 0;
  }
}

/* A tile's buffers; a batch's job has tiles parts of PART of their own, one
 * a replicate of its slice. */
static cudaError_t alloc_tile(gpu_job *g, size_t tile, size_t real, size_t tiles)
{
  static const int order[] = {Z, PAY, PART, ZQ, SCRAMBLE, W};
  size_t bytes[NBUF];
  tile_bytes(g, tile, real, tiles, bytes);
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; e == cudaSuccess && i < sizeof order / sizeof *order; i++)
    if (bytes[order[i]])
      e = take(g, order[i], bytes[order[i]]);
  g->tile = tile;
  return e;
}

/* Whether the context's slots already hold a tile of tile samples (a warm
 * call of the same job's, or a larger one's). */
static int tile_held(const gpu_job *g, size_t tile, size_t real)
{
  const mcp_context *ctx = g->run->ctx;
  size_t bytes[NBUF];
  tile_bytes(g, tile, real, 1, bytes);
  for (int b = 0; b < NBUF; b++)
    if (bytes[b] && (!ctx->dev[b] || ctx->dev_bytes[b] < bytes[b]))
      return 0;
  return 1;
}

int mcpi_cuda_prefetch_fits(const mcp_context *ctx, mcp_precision prec,
                            const mcp_wisdom_entry *w)
{
  mcpi_kernel_options o = {.precision = prec, .strategy = w->prefetch, .distance = w->distance,
                           .padding = w->padding, .block = w->block};
  return ctx->cuda && mcpi_path_kernel_built(&o, 0, 0) &&
         mcpi_prefetch_smem_bytes(o.precision, o.strategy, o.distance, o.padding, o.block) <=
             (size_t)ctx->cuda->max_smem;
}

/* The samples of a replicate of job j, in whole chunks. */
static uint64_t job_need(const mcpi_run *run, const mcpi_job *j)
{
  uint64_t samples = mcpi_job_samples(run->plan, j);
  return (samples + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS;
}

/* Job j's kernel options and tile (0: sized to memory): the run's, and
 * whether its path kernel draws its normals itself (QMC and Longstaff-
 * Schwartz jobs run on stored ones, and mixed jobs with per-path arrays,
 * which have no mixed fused kernel); then, where the context's wisdom has
 * an entry for the device and the job's shape, its options in place of
 * those the caller did not give (mcp_wisdom: the same bits): its strategy
 * and block where the build has the strategy and the device's shared
 * memory holds its ring and the job's shared arrays, its tile at most the
 * job's samples. */
static mcpi_kernel_options stored_if_mixed_arrays(mcpi_kernel_options o, const mcpi_job *j)
{
  if (mcpi_job_stored_only(j, o.precision))
    o.fused = 0;
  return o;
}

static mcpi_kernel_options job_options(const mcpi_run *run, const mcpi_job *j, uint64_t *tile)
{
  mcp_context *ctx = run->ctx;
  mcpi_kernel_options o = run->kopt;
  o.fused = run->normals == MCP_NORMALS_FUSED && !j->qmc && !j->lsm_dates;
  *tile = ctx->tile_paths;
  char shape[MCP_WISDOM_NAME];
  const mcp_wisdom_entry *w;
  if (!ctx->wisdom || !mcpi_job_tune_shape(j, o.precision, shape, sizeof shape) ||
      !(w = mcpi_wisdom_find(ctx->wisdom, &ctx->cuda->gpu, shape)))
    return stored_if_mixed_arrays(o, j);
  mcp_wisdom_entry x = *w; /* less what the caller gave */
  if (run->given & MCPI_OPT_PREFETCH) {
    x.prefetch = o.strategy;
    x.distance = o.distance;
    x.padding = o.padding;
  }
  if (run->given & MCPI_OPT_BLOCK ||
      (j->arr_len && o.placement == MCP_PLACEMENT_SHARED &&
       (size_t)j->arr_len * sizeof(double) * (size_t)x.block > (size_t)ctx->cuda->max_smem))
    x.block = o.block;
  if (!(run->given & MCPI_OPT_NORMALS) && !j->qmc)
    o.fused = x.normals == MCP_NORMALS_FUSED;
  if (mcpi_cuda_prefetch_fits(ctx, o.precision, &x)) {
    o.strategy = x.prefetch;
    o.distance = x.distance;
    o.padding = x.padding;
    o.block = x.block;
  }
  uint64_t need = job_need(run, j);
  if (!(run->given & MCPI_OPT_TILE) && x.tile_paths)
    *tile = x.tile_paths < need ? x.tile_paths : need;
  return stored_if_mixed_arrays(o, j);
}

/* The replicates of job ji that the run's slice holds paths of. */
static size_t slice_replicates(const mcpi_run *run, size_t ji)
{
  uint64_t chunks = mcpi_job_chunks(run->plan, &run->plan->jobs[ji]);
  return (size_t)((run->range[2 * ji + 1] - 1) / chunks - run->range[2 * ji] / chunks + 1);
}

/* Tiles sized to free memory (half of it, at most MAX_AUTO_TILE samples),
 * halved while an allocation fails; a batch's job has one a replicate. */
static mcp_status size_tiles(gpu_job *g, size_t real)
{
  mcp_context *ctx = g->run->ctx;
  const mcpi_job *j = g->j;
  size_t per = sample_bytes(j, g->kopt.fused, real) + 2 * sizeof(double);
  uint64_t need = job_need(g->run, j);
  size_t tile = g->tile_paths;
  if (g->batch) {
    cudaError_t e = alloc_tile(g, tile > need ? tile : (size_t)need, real,
                               slice_replicates(g->run, g->ji));
    return e ? mcpi_cuda_fail(ctx, e, "allocating a batch's tiles of paths") : MCP_OK;
  }
  if (!tile) {
    tile = MAX_AUTO_TILE;
    /* the free memory only where the job could want much of it and the
       slots do not already hold its whole tile: the query costs 20 to 70
       us (an H200's sandboxed host), a small book's job a few more */
    size_t whole = need < tile ? (size_t)need : tile;
    if ((double)need * (double)per > (double)MCPI_SMALL_DEVICE_BYTES &&
        !tile_held(g, whole, real)) {
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
    cudaError_t e = alloc_tile(g, tile, real, 1);
    if (e == cudaSuccess)
      return MCP_OK;
    for (int b = Z; b <= PART; b++)
      drop(g, b);
    if (e != cudaErrorMemoryAllocation || ctx->tile_paths || tile == MCP_CHUNK_PATHS)
      return mcpi_cuda_fail(ctx, e, "allocating a tile of paths");
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
    if ((e = mcpi_launch_normals(j->stream, 0, j->nelem, s0, n, g->buf[Z], g->tile, prec, g->s)))
      return mcpi_cuda_fail(g->run->ctx, e, "the normals kernel");
    return MCP_OK;
  }
  for (size_t d = 0; d < j->nelem; d++)
    g->scramble[d] = g->consts[d] ^ mcpi_sobol_shift(j->stream, rep, d);
  /* from pageable memory, which the next replicate rewrites: the copy ends
     first (the runtime does not promise it has taken its source on return) */
  if ((e = cudaMemcpyAsync(g->buf[SCRAMBLE], g->scramble, j->nelem * sizeof(uint64_t),
                           cudaMemcpyHostToDevice, g->s)) ||
      (e = cudaStreamSynchronize(g->s)) ||
      (e = mcpi_launch_sobol(g->dirs, g->buf[SCRAMBLE], j->nelem, s0, n, g->buf[ZQ],
                             g->tile, g->s)) ||
      (e = mcpi_launch_bridge(g->bridge, j->nfactors, g->buf[ZQ],
                              g->buf[W] ? g->buf[W] : g->buf[Z], g->tile, n, g->buf[Z], prec,
                              g->s)))
    return mcpi_cuda_fail(g->run->ctx, e, "the QMC kernels");
  return MCP_OK;
}

/* Whether job v's Longstaff-Schwartz paths may take the lanes' steps
 * (launch.h: the fit's, the price's and the scaled price's record on
 * lanes): each step's elements its factors, none of them held or
 * merged (the grid check's). */
static int lsm_lanes(const mcpi_job *v)
{
  if (v->nelem != v->nsteps * (size_t)v->nfactors)
    return 0;
  for (size_t k = 0; k < v->nelem; k++)
    if (v->tag[k] & (MCPI_TAG_HOLD | MCPI_TAG_MERGE))
      return 0;
  return 1;
}

/* Pass p's view readied for this tile (its controls, its first path), and
 * its pay columns in pay. */
static double *pass_ready(gpu_job *g, double *pay, size_t p, int controls)
{
  g->pass[p].write_controls = controls;
  g->pass[p].p0 = g->s0;
  return pay +
         (controls ? (p + 1) * mcpi_job_columns(g->j, 1) : mcpi_pass_column(g->j, p)) * g->tile;
}

/* The most bytes that a tile's record of its scaled scenarios may take
 * (launch.h, mcpi_launch_lsm_scaled): STAC-A2's American, 5 assets, 25,000
 * paths and 252 dates, takes 0.88 GB; its large shape, 10 assets, 100,000
 * paths and 1,260 dates, would take 32 GB, so it records 34 dates at a
 * time, 38 windows (bench/RESULTS.md, "record-windows", "record-split").
 * Where not even one date fits, or the allocation fails, the path a thread
 * evaluates them (the same bits). */
#define LSM_RECORD_MAX ((size_t)1 << 30)

/* The first step of each window of `dates` exercise dates of job j (the
 * steps whose last element bears the exercise's schedule) in first[w], the
 * steps' count after the last. */
static void record_windows(const mcpi_job *j, int dates, int *first)
{
  size_t nf = 2 * j->nassets, steps = j->nelem / nf;
  int d = 0, w = 0;
  first[w++] = 0;
  for (size_t s = 0; s < steps; s++)
    if ((j->tag[(s + 1) * nf - 1] & 1u << j->lsm_sched) && ++d % dates == 0 && d < j->lsm_dates)
      first[w++] = (int)s + 1;
  first[w] = (int)steps;
}

/* Whether the tile's scaled scenarios of job j (n paths) go through a
 * record (mcpi_launch_lsm_scaled): 0, or the dates of its windows, the
 * record's bytes then held, their first steps in *first (to free); its
 * scenarios a path into *nsc.  Up to 15 assets: a date's record, 2 n + 2
 * numbers, is read a number a lane of a warp (16 assets' 34 a lane or two
 * took the scenario kernel 2.44 -> 3.38 ms on STAC-A2's American: 120
 * registers, not 96). */
static int lsm_record(gpu_job *g, int scaled, int *nsc, int **first)
{
  const mcpi_job *j = g->j;
  const mcpi_payoff_spec *p = &j->spec[0];
  int na = (int)j->nassets, all = j->lsm_dates, anti = g->view.antithetic;
  if (!scaled || !g->lanes || g->kopt.precision != MCP_DOUBLE || na < 2 || na > 15 ||
      g->view.model != MCPI_MODEL_HESTON)
    return 0;
  *nsc = mcpi_lsm_scaled_count(mcpi_lsm_mine(p, na), p->g_cross);
  size_t fixed = mcpi_lsm_record_bytes(na, 0, anti, *nsc, g->tile);
  size_t per = mcpi_lsm_record_bytes(na, 1, anti, *nsc, g->tile) - fixed;
  size_t fit = fixed < LSM_RECORD_MAX ? (LSM_RECORD_MAX - fixed) / per : 0;
  int dates = fit < (size_t)all ? (int)fit : all;
  if (dates < 1 || !(*first = malloc(((size_t)(all + dates - 1) / dates + 1) * sizeof **first)))
    return 0;
  if (take(g, LSM_REC, mcpi_lsm_record_bytes(na, dates, anti, *nsc, g->tile)) != cudaSuccess) {
    (void)cudaGetLastError(); /* (not sticky: the path a thread instead) */
    free(*first);
    *first = NULL;
    return 0;
  }
  record_windows(j, dates, *first);
  return dates;
}

/* A tile's split price of job v, a pass's or the job's own (launch.h,
 * mcpi_launch_lsm_price: the paths' log-spots at every date stored, then
 * every date's exercise tested at once): its bytes, or 0 where it does not
 * split: not on the lanes (lanes: lsm_lanes'), scaled, or where its last
 * step is not an exercise date (the stored paths end there).  Parts of them
 * (a pass a side stream) at most the record's cap.  Where it does not, or
 * its allocation fails, the lanes test each date as they step (the same
 * bits). */
static size_t split_bytes(const gpu_job *g, const mcpi_job *v, int lanes, int scaled, int parts)
{
  size_t bytes = mcpi_lsm_split_bytes((int)v->nassets, v->lsm_dates, g->view.antithetic, g->tile);
  bytes = (bytes + 255) & ~(size_t)255; /* (a part's doubles aligned) */
  if (scaled || !lanes || g->kopt.precision != MCP_DOUBLE || v->nassets < 2 ||
      g->view.model != MCPI_MODEL_HESTON || v->lsm_dates != g->j->lsm_dates ||
      !(v->tag[v->nelem - 1] & 1u << v->lsm_sched) || bytes > LSM_RECORD_MAX / (size_t)parts)
    return 0;
  return bytes;
}

/* The work of the tile's split price in slot b, parts of bytes each
 * (bytes: a multiple of 256, 0: none), or NULL. */
static void *split_work(gpu_job *g, int b, size_t bytes, size_t parts)
{
  if (!bytes)
    return NULL;
  if (take(g, b, bytes * parts) != cudaSuccess) {
    (void)cudaGetLastError(); /* (not sticky) */
    return NULL;
  }
  return g->buf[b];
}

/* Where the tile's record (window: its dates, or 0) leaves the sweep's
 * start of its Greeks by adjoint (adjoint.h, MCPI_ADJ_START), so that the
 * adjoint's lanes step no forward of their own: its bytes held, or NULL.
 * STAC-A2's American with its list: 0.814 -> 0.568 s at the large shape,
 * 22.6 -> 21.0 ms at the small, where the lanes' forward had run beside
 * the record (bench/RESULTS.md, "adjoint-start"). */
static double *adj_start(gpu_job *g, int window)
{
  const mcpi_job *j = g->j;
  int na = (int)j->nassets;
  int ncp = mcpi_adj_mheston_checkpoints((int)(j->nelem / (2 * j->nassets)));
  if (!window || !(g->view.gstate & MCPI_GSTATE_ADJOINT) ||
      mcpi_adjoint_kind(&g->view) != MCPI_ADJ_MHESTON || !ncp)
    return NULL;
  size_t bytes = MCPI_ADJ_START(MCPI_ADJ_START_FIELDS(na, ncp), g->tile,
                                g->view.antithetic ? 2 : 1, 0) * sizeof(double);
  if (take(g, ADJ_START, bytes) != cudaSuccess) {
    (void)cudaGetLastError(); /* (not sticky: the lanes' forward instead) */
    return NULL;
  }
  return g->buf[ADJ_START];
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
  /* the passes on the side streams, after the tile's normals (the job
   * stream's work so far), beside the base's launch; the job's stream then
   * waits for them, for every side used, whatever failed */
  mcpi_cuda_kept *k = g->k;
  cudaEvent_t ruled = g->fs != g->s ? k->ruled : NULL; /* (the fits': fit) */
  g->zeros = !j->lsm_dates && g->view.gstate & MCPI_GSTATE_ADJOINT;
  cudaError_t e = g->nside ? cudaEventRecord(k->ready, g->s) : cudaSuccess;
  int used = 0;
  for (; e == cudaSuccess && used < g->nside; used++)
    e = cudaStreamWaitEvent(k->stream[g->side[used]], k->ready, 0);
  /* the check's coarse pass in the job's kernel (not beside on-path Greeks) */
  int twin = g->view.gstate ? -1 : g->twin;
  double *twin_pay = twin >= 0 ? pass_ready(g, pay, (size_t)twin, controls) : NULL;
  int scaled = j->lsm_dates && mcpi_lsm_scaled_on(j, g->view.greeks), nsc = 0, window = 0;
  int *first = NULL;
  double *start = NULL;
  if (e == cudaSuccess && (window = lsm_record(g, scaled, &nsc, &first))) {
    start = adj_start(g, window);
    e = mcpi_launch_lsm_scaled(g->view, g->buf[Z], g->tile, n, j->lsm_dates, window, first, nsc,
                               pay, g->buf[LSM_REC], start, start ? k->ready : NULL, ruled, g->s);
  } else if (e == cudaSuccess) {
    void *work = j->lsm_dates ? split_work(g, LSM_REC, split_bytes(g, j, g->lanes, scaled, 1), 1)
                              : NULL;
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->view, g->buf[Z], g->tile, n, pay, prec, scaled,
                                             g->lanes, j->lsm_dates, work, ruled, g->s)
        : g->view.gstate & MCPI_GSTATE_ADJOINT
            ? mcpi_launch_adjoint(g->view, g->adj_shape, g->kopt.fused ? NULL : g->buf[Z], g->tile,
                                  n, pay, NULL, g->s)
        : twin >= 0 ? mcpi_launch_paths_checked(g->view, g->pass[twin], g->tile, n, pay, twin_pay,
                                                &g->kopt_checked, g->grid_checked, g->s)
                    : mcpi_launch_paths(g->view, g->buf[Z], g->tile, n, pay, &g->kopt,
                                        g->view.gstate ? g->grid_g : g->grid, g->s);
  }
  free(first);
  /* an early exercise's blocks by adjoint beside its price's kernel (the
   * rule it reads, fitted before; their columns apart), on their side
   * stream (job_start reserves it); where the record leaves their start,
   * after its last window (k->ready recorded again there), beside the
   * last scenarios */
  if (e == cudaSuccess && j->lsm_dates && g->view.gstate & MCPI_GSTATE_ADJOINT) {
    cudaStream_t as = k->stream[g->side[j->npass % (size_t)g->nside]];
    e = start ? cudaStreamWaitEvent(as, k->ready, 0) : cudaSuccess;
    if (e == cudaSuccess && ruled)
      e = cudaStreamWaitEvent(as, ruled, 0);
    if (e == cudaSuccess)
      e = mcpi_launch_adjoint(g->view, g->adj_shape, g->kopt.fused ? NULL : g->buf[Z], g->tile,
                              n, pay, start, as);
  }
  /* the passes' split prices, a part of the work a side stream (theta's,
   * beside the record of STAC-A2's list): the parts' bytes, any pass's
   * (their jobs' steps and dates are the job's: same_jobs) */
  size_t parts = j->npass < (size_t)g->nside ? j->npass : (size_t)g->nside, part = 0;
  for (size_t p = 0; j->lsm_dates && !part && p < j->npass; p++) {
    const mcpi_job *v = mcpi_pass_job(g->run, g->ji, p);
    part = (int)p == twin ? 0 : split_bytes(g, v, lsm_lanes(v), 0, (int)parts);
  }
  unsigned char *side = split_work(g, LSM_SIDE, part, parts);
  for (size_t p = 0; e == cudaSuccess && p < j->npass; p++) {
    if ((int)p == twin)
      continue;
    double *col = pass_ready(g, pay, p, controls);
    cudaStream_t s = k->stream[g->side[p % (size_t)g->nside]];
    const mcpi_job *v = mcpi_pass_job(g->run, g->ji, p); /* a bumped adjoint's sweeps back */
    int lanes = j->lsm_dates && lsm_lanes(v);
    void *work = side && split_bytes(g, v, lanes, 0, (int)parts) == part
                     ? side + p % (size_t)g->nside * part
                     : NULL;
    g->pass[p].gstate = controls ? 0 : v->gstate;
    e = j->lsm_dates ? mcpi_launch_lsm_price(g->pass[p], g->buf[Z], g->tile, n, col, prec, 0, lanes,
                                             v->lsm_dates, work, ruled, s)
        : g->pass[p].gstate & MCPI_GSTATE_ADJOINT
            ? mcpi_launch_adjoint(g->pass[p], mcpi_job_adjoint_shape(v),
                                  g->kopt.fused ? NULL : g->buf[Z], g->tile, n, col, NULL, s)
        : g->general[p]
            ? mcpi_launch_paths(g->pass[p], g->buf[Z], g->tile, n, col, &g->kopt_general,
                                g->grid_general, s)
            : mcpi_launch_paths(g->pass[p], g->buf[Z], g->tile, n, col, &g->kopt, g->grid, s);
  }
  for (int s = 0; s < used; s++) {
    int x = g->side[s];
    cudaError_t w = cudaEventRecord(k->done[x], k->stream[x]);
    if (w == cudaSuccess)
      w = cudaStreamWaitEvent(g->s, k->done[x], 0);
    e = e ? e : w;
  }
  if (e)
    return mcpi_cuda_fail(g->run->ctx, e, "the path kernel");
  if (!controls && j->nest > j->nin && j->nterm &&
      (e = mcpi_launch_combine(g->term, g->off, (int)(j->nest - j->nin),
                               (int)(j->ntrades + 1 + j->nin), pay, g->tile, n, g->s)))
    return mcpi_cuda_fail(g->run->ctx, e, "the estimator kernel");
  return MCP_OK;
}

/* Device to host on the job's stream, the host's copy there on return. */
static cudaError_t get(gpu_job *g, void *host, const void *dev, size_t bytes)
{
  cudaError_t e = cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, g->s);
  return e ? e : cudaStreamSynchronize(g->s);
}

/* The chunk sums of a tile's columns into dev, its nodes at level
 * (mcpi_tree_nodes):
 * those of the columns that hold zeros on every path (each adjoint block's
 * adj_zlo .. adj_zhi, a surface's rows after the job's last step: 180 of
 * the benchmark's 426 columns) as the zeros they sum to, not read, where
 * the blocks are few (a launch a run of columns). */
#define ZERO_RUNS 8
static cudaError_t column_sums(gpu_job *g, size_t n, size_t ncol, unsigned level, double *dev)
{
  const mcpi_job *j = g->j;
  size_t nodes = (size_t)mcpi_tree_nodes((n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS, level);
  size_t at = 0, runs = 0;
  int zeros = g->zeros && j->adj_zhi > j->adj_zlo;
  for (size_t t = 0; zeros && t < j->ntrades; t++) { /* blocks in order, few */
    int32_t b = j->spec[t].g_adj;
    zeros = b < 0 || ((size_t)b + (size_t)j->adj_zlo >= at && ++runs <= ZERO_RUNS);
    at = b < 0 ? at : (size_t)b + (size_t)j->adj_zhi;
  }
  cudaError_t e = cudaSuccess;
  at = 0;
  for (size_t t = 0; zeros && e == cudaSuccess && t < j->ntrades; t++) {
    if (j->spec[t].g_adj < 0)
      continue;
    size_t z0 = (size_t)j->spec[t].g_adj + (size_t)j->adj_zlo;
    size_t z1 = (size_t)j->spec[t].g_adj + (size_t)j->adj_zhi;
    if (z0 > at)
      e = mcpi_launch_chunk_sums((double *)g->buf[PAY] + at * g->tile, g->tile, n, z0 - at,
                                 level, dev + at * nodes * 2, g->s);
    if (e == cudaSuccess)
      e = cudaMemsetAsync(dev + z0 * nodes * 2, 0, (z1 - z0) * nodes * 2 * sizeof(double), g->s);
    at = z1;
  }
  if (e == cudaSuccess && ncol > at)
    e = mcpi_launch_chunk_sums((double *)g->buf[PAY] + at * g->tile, g->tile, n, ncol - at,
                               level, dev + at * nodes * 2, g->s);
  return e;
}

/* A tile's chunk sums: read now, or, in a batch, into a part of PART of
 * the tile's own that wait reads (into the part the job's sums list,
 * g->js, holds for it). */
static mcp_status sums(void *self, size_t n, unsigned level, double *part)
{
  gpu_job *g = self;
  size_t ncol = mcpi_job_columns(g->j, 0), nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  size_t bytes = ncol * (size_t)mcpi_tree_nodes(nchunks, level) * 2 * sizeof(double);
  double *dev = (double *)g->buf[PART] + (g->batch ? g->ntiles++ * part_doubles(g->j, g->tile) : 0);
  cudaError_t e;
  if ((e = column_sums(g, n, ncol, level, dev)))
    return mcpi_cuda_fail(g->run->ctx, e, "the chunk-sum kernel");
  if (g->batch)
    return MCP_OK;
  return (e = get(g, part, dev, bytes)) ? mcpi_cuda_fail(g->run->ctx, e, "reading the chunk sums")
                                        : MCP_OK;
}

/* A part of chunk sums in the group's staging, pinned (group_start grows it
 * to what the last group wanted: a warm call's copies of its sums run at
 * the bus's speed into pages already there), or NULL where it has no room. */
static double *host_part(void *self, size_t bytes)
{
  gpu_job *g = self;
  mcpi_cuda_kept *k = g->k;
  size_t at = (k->stage_used + 63) & ~(size_t)63, size = (bytes + 63) & ~(size_t)63;
  k->stage_want += size + 64;
  if (!k->stage || at + size > k->stage_bytes)
    return NULL;
  k->stage_used = at + size;
  return (double *)((unsigned char *)k->stage + at);
}

/* A batch's job: every tile's sums to its part, once its stream gets there. */
static mcp_status wait(void *self)
{
  gpu_job *g = self;
  size_t ncol = mcpi_job_columns(g->j, 0), stride = part_doubles(g->j, g->tile);
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; e == cudaSuccess && i < g->ntiles; i++)
    e = cudaMemcpyAsync(g->js.tile[i].part, (double *)g->buf[PART] + i * stride,
                        (size_t)mcpi_tree_nodes(g->js.tile[i].nchunks, g->js.tile[i].level) *
                            ncol * 2 * sizeof(double),
                        cudaMemcpyDeviceToHost, g->s);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(g->s);
  return e ? mcpi_cuda_fail(g->run->ctx, e, "reading the chunk sums") : MCP_OK;
}

static mcp_status read(void *self, size_t n, double *pay, size_t ld)
{
  gpu_job *g = self;
  cudaError_t e = cudaMemcpy2DAsync(pay, ld * sizeof(double), g->buf[PAY],
                                    g->tile * sizeof(double), n * sizeof(double),
                                    mcpi_job_columns(g->j, 1) * (1 + g->j->npass),
                                    cudaMemcpyDeviceToHost, g->s);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(g->s);
  return e ? mcpi_cuda_fail(g->run->ctx, e, "reading the pilot's payoffs") : MCP_OK;
}

/* From the variants' specs, which change again only after the pilot's read
 * has ended the job's stream (run_job.c). */
static mcp_status update_specs(void *self)
{
  gpu_job *g = self;
  const mcpi_job *j = g->j;
  size_t bytes = j->ntrades * sizeof(mcpi_payoff_spec);
  cudaError_t e = cudaSuccess;
  for (size_t v = 0; e == cudaSuccess && v <= j->npass; v++)
    e = cudaMemcpyAsync((void *)(v ? g->pass[v - 1] : g->view).trades,
                        (v ? mcpi_pass_job(g->run, g->ji, v - 1) : j)->spec, bytes,
                        cudaMemcpyHostToDevice, g->s);
  return e ? mcpi_cuda_fail(g->run->ctx, e, "copying the control coefficients") : MCP_OK;
}

/* The Longstaff-Schwartz fit of the job or of a pass's variant (run_job.c):
 * lsm_kernel.cu's kernels write the table in place where the paths read
 * it, on the job's fit stream (g->fs), after the job's stream's work so far;
 * a frozen variant's rules copied there from the job's.  Where that is the
 * fit stream of the context, the job's stream waits for the walk's start,
 * then for the rules only where a kernel reads them (k->ruled, recorded
 * after each fit): the tile's normals and stored paths run beside the
 * walk, a grid of a block an SM, which the stream's priority makes
 * resident first (STAC-A2's small American: 7.8 -> 6.65 ms, its list 17.0
 * -> 15.5, bench/RESULTS.md, "fit-beside").  The host's copies follow at
 * the job's end (rules_back). */
static mcp_status fit(void *self, size_t variant, int frozen)
{
  gpu_job *g = self;
  mcpi_run *run = g->run;
  mcpi_cuda_kept *k = g->k;
  mcpi_job *v = variant ? mcpi_pass_job(run, g->ji, variant - 1) : &run->plan->jobs[g->ji];
  mcpi_job_view w = variant ? g->pass[variant - 1] : g->view;
  double *table = (double *)w.lsm;
  w.lsm = NULL; /* the fit's paths do not exercise */
  size_t row = MCPI_LSM_ROW * sizeof(double);
  cudaStream_t fs = g->fs;
  int apart = fs != g->s;
  cudaError_t e;
  k->fitting |= apart;
  if (apart &&
      ((e = cudaEventRecord(k->ready, g->s)) || (e = cudaStreamWaitEvent(fs, k->ready, 0))))
    return mcpi_cuda_fail(run->ctx, e, "ordering the regression after the job's arrays");
  g->fitted[variant] = frozen ? 2 : 1;
  if (frozen) { /* (each row's rule, not its discount factor: mcpi_lsm_copy_rules) */
    if ((e = cudaMemcpy2DAsync(table + 1, row, g->view.lsm + 1, row, row - sizeof(double),
                               (size_t)v->lsm_dates, cudaMemcpyDeviceToDevice, fs)) ||
        (apart && (e = cudaEventRecord(k->ruled, fs))))
      return mcpi_cuda_fail(run->ctx, e, "copying the exercise rules");
    return MCP_OK;
  }
  size_t n = (size_t)v->lsm_paths, dates = (size_t)v->lsm_dates;
  size_t ns = (size_t)mcpi_lsm_state_size(mcpi_lsm_dims_of(&w));
  if ((e = take(g, LSM_ST, dates * ns * n * sizeof(double))) ||
      (e = take(g, LSM_Y, n * sizeof(double))) ||
      (e = take(g, LSM_PART,
                (mcpi_lsm_work_doubles(w.lsm_nb, n, (int)dates) + 1) * sizeof(double))) ||
      (e = mcpi_launch_lsm_paths(w, v->lsm_stream, table, (int)dates, g->buf[LSM_ST], n,
                                 g->buf[LSM_Y], lsm_lanes(v), fs)))
    return mcpi_cuda_fail(run->ctx, e, "the regression's paths");
  /* the dates' work, then their block counter */
  double *work = g->buf[LSM_PART];
  unsigned *done = (unsigned *)(work + mcpi_lsm_work_doubles(w.lsm_nb, n, (int)dates));
  if ((e = cudaMemsetAsync(done, 0, sizeof *done, fs)))
    return mcpi_cuda_fail(run->ctx, e, "the regression's counter");
  int go = apart && !variant; /* (the job's own fit is the first) */
  if ((e = mcpi_launch_lsm_dates(w, table, g->buf[LSM_ST], n, (int)dates, g->buf[LSM_Y], work, done,
                                 go ? k->walking : NULL, fs)) ||
      (apart && (e = cudaEventRecord(k->ruled, fs))) ||
      (go && (e = cudaStreamWaitEvent(g->s, k->walking, 0))))
    return mcpi_cuda_fail(run->ctx, e, "the regression's kernels");
  return MCP_OK;
}

/* The rules of the job's fits (fit) into the host's tables, the job's and
 * each variant's, once the fit stream has them (a job without: no call).
 * A fault of the fit's kernels is reported here or at an earlier read of
 * the job's stream, as any kernel's. */
static cudaError_t rules_back(gpu_job *g)
{
  mcpi_run *run = g->run;
  mcpi_job *j = &run->plan->jobs[g->ji];
  int any = 0;
  for (size_t v = 0; g->fitted && v <= j->npass; v++)
    any |= g->fitted[v];
  if (!any)
    return cudaSuccess;
  cudaError_t e = g->fs != g->s ? cudaStreamWaitEvent(g->s, g->k->ruled, 0) : cudaSuccess;
  for (size_t v = 0; e == cudaSuccess && v <= j->npass; v++) {
    mcpi_job *x = v ? mcpi_pass_job(run, g->ji, v - 1) : j;
    if (g->fitted[v] == 1)
      e = get(g, x->lsm_table, (v ? g->pass[v - 1] : g->view).lsm,
              (size_t)x->lsm_dates * MCPI_LSM_ROW * sizeof(double));
  }
  for (size_t v = 1; e == cudaSuccess && v <= j->npass; v++)
    if (g->fitted[v] == 2)
      mcpi_lsm_copy_rules(j, mcpi_pass_job(run, g->ji, v - 1));
  return e;
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
  if (o->placement == MCP_PLACEMENT_REGISTERS && !mcpi_register_capacity(j->arr_len))
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

/* Job ji, the q-th of its group (on the group's q-th stream, its passes
 * on the streams after it), made ready and started: its kernels, its
 * arrays and tiles, then mcpi_run_job_start.  job_finish follows. */
static mcp_status job_start(mcpi_run *run, size_t ji, size_t q, int batch, gpu_job *g)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  size_t real = run->kopt.precision == MCP_FLOAT ? sizeof(float) : sizeof(double);
  *g = (gpu_job){.run = run, .j = j, .ji = ji, .k = run->ctx->cuda, .batch = batch};
  g->kopt = job_options(run, j, &g->tile_paths);
  g->s = g->k->stream[q % STREAMS];
  /* a side stream a pass, and an early exercise's adjoint one (paths) */
  size_t sides = j->npass + (j->lsm_dates && j->gstate & MCPI_GSTATE_ADJOINT);
  g->nside = sides < SIDE_STREAMS ? (int)sides : SIDE_STREAMS;
  for (int i = 0; i < g->nside; i++)
    g->side[i] = (int)((q + 1 + (size_t)i) % STREAMS);
  g->kopt.small = mcpi_job_small(j);
  g->adj_shape = mcpi_job_adjoint_shape(j);
  g->lanes = j->lsm_dates && lsm_lanes(j);
  /* (a batch's jobs run beside each other, each fitting on its own stream) */
  g->fs = batch ? g->s : g->k->fit;
  int kind = MCPI_ASSETS_KIND(j->nassets, j->model);
  /* their kernels read no ring (path_kernel.cuh, catalogue.def): several
   * Heston or local-volatility assets, and the mixed plain shape */
  if (kind >= 2 || mcpi_job_ringless(j, g->kopt.precision))
    g->kopt.strategy = MCP_PREFETCH_NONE;
  cudaError_t e;
  mcp_status st = MCP_OK;
  if (j->arr_len && kind == 3) /* several local-volatility assets' kernels: local memory */
    g->kopt.placement = MCP_PLACEMENT_LOCAL;
  else if (j->arr_len && (st = resolve_placement(run, j, &g->kopt)))
    return st;
  /* the greeks kernel first: a block it lowers is the block of both */
  if ((j->gstate & MCPI_GSTATE_ON && (e = path_grid(g->k, &g->kopt, -1, 0, &g->grid_g))) ||
      (e = path_grid(g->k, &g->kopt, kind, j->arr_len, &g->grid)))
    return mcpi_cuda_fail(run->ctx, e, "sizing the path kernel's grid");
  g->pass = calloc(j->npass + 1, sizeof *g->pass);
  g->general = calloc(j->npass + 1, 1);
  g->fitted = calloc(j->npass + 1, 1);
  if ((j->qmc && !(g->scramble = malloc(j->nelem * sizeof *g->scramble))) || !g->pass ||
      !g->general || !g->fitted)
    return mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  int general = 0;
  for (size_t p = 0; p < j->npass; p++)
    general |= g->general[p] = !mcpi_job_shape_fits(mcpi_pass_job(run, ji, p), g->kopt.small);
  /* the check's coarse pass (a general one) stepped in the Heston plain
   * shape's fused kernel, on its normals: one draw for both (the kernel
   * takes an element's factor from its place in a step of two) */
  g->twin = -1;
  for (size_t p = 0; p < j->npass; p++)
    if (g->kopt.fused && g->kopt.small == MCPI_SHAPE_HESTON_PLAIN && j->nfactors == 2 &&
        g->general[p] &&
        run->greeks->var[j->pass[p]].kind == MCPI_VAR_GRID)
      g->twin = (int)p;
  g->kopt_checked = g->kopt;
  g->kopt_checked.checked = 1;
  if (g->twin >= 0 && (e = path_grid(g->k, &g->kopt_checked, kind, 0, &g->grid_checked)))
    return mcpi_cuda_fail(run->ctx, e, "sizing the path kernel's grid");
  g->kopt_general = g->kopt;
  g->kopt_general.small = 0;
  if (general && (e = path_grid(g->k, &g->kopt_general, kind, j->arr_len, &g->grid_general)))
    return mcpi_cuda_fail(run->ctx, e, "sizing the path kernel's grid");
  if ((e = upload_job(g)))
    st = mcpi_cuda_fail(run->ctx, e, "copying the job's arrays");
  if (st == MCP_OK)
    st = size_tiles(g, real);
  g->t = (mcpi_tiler){g, g->tile, fill, paths, sums, read, update_specs, fit,
                      batch ? wait : NULL, host_part,
                      mcpi_job_columns(j, 0) >= MCPI_GPU_WIDE ? MCPI_GPU_TREE_WIDE
                                                              : MCPI_GPU_TREE_LEVEL};
  return st == MCP_OK ? mcpi_run_job_start(run, ji, &g->t, &g->js) : st;
}

/* After job_start (st: how it went, or a later error, which stands): the
 * job's sums added, its host memory freed. */
static mcp_status job_finish(gpu_job *g, mcp_status st)
{
  cudaError_t e;
  if (st == MCP_OK && (e = rules_back(g)))
    st = mcpi_cuda_fail(g->run->ctx, e, "reading the regression's rules");
  st = mcpi_run_job_finish(g->run, g->ji, &g->t, &g->js, st);
  free(g->pass);
  free(g->general);
  free(g->fitted);
  free(g->scramble);
  return st;
}

/* A group's first n streams and the fit stream, where it had work, ended
 * (before its arena and staging are used again, whatever failed); st, or
 * the first error. */
static mcp_status end_streams(mcp_context *ctx, int n, mcp_status st)
{
  mcpi_cuda_kept *k = ctx->cuda;
  for (int s = k->fitting ? -1 : 0; s < n; s++) {
    cudaError_t e = cudaStreamSynchronize(s < 0 ? k->fit : k->stream[s]);
    if (e && st == MCP_OK)
      st = mcpi_cuda_fail(ctx, e, "ending the jobs' streams");
  }
  k->fitting = 0;
  return st;
}

/* Whether job ji joins the run's batch: a tile a replicate (tile: the
 * context's, 0 for auto) and its device memory then, bytes. */
static int batchable(const mcpi_run *run, size_t ji, size_t real, size_t *bytes)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  uint64_t need = job_need(run, j), tile;
  int fused = job_options(run, j, &tile).fused;
  if (tile ? tile < need : need > MAX_AUTO_TILE)
    return 0;
  mcpi_job_view w = mcpi_job_host_view(j);
  double reps = (double)slice_replicates(run, ji);
  size_t t = tile > need ? tile : need;
  double b = (double)t * ((double)sample_bytes(j, fused, real) + 2 * sizeof(double) * reps) +
             (double)j->lsm_dates * (double)j->lsm_paths *
                 mcpi_lsm_state_size(mcpi_lsm_dims_of(&w)) * sizeof(double);
  if (j->lsm_dates && j->nassets > 1 && w.model == MCPI_MODEL_HESTON) { /* (split_bytes) */
    double split = (double)mcpi_lsm_split_bytes((int)j->nassets, j->lsm_dates, j->antithetic, t);
    double parts = (double)(j->npass < SIDE_STREAMS ? j->npass : SIDE_STREAMS);
    b += (split <= (double)LSM_RECORD_MAX ? split : 0) +
         (parts * split <= (double)LSM_RECORD_MAX ? parts * split : 0);
  }
  *bytes = b < (double)MCPI_SMALL_DEVICE_BYTES ? (size_t)b : MCPI_SMALL_DEVICE_BYTES;
  return b < (double)MCPI_SMALL_DEVICE_BYTES;
}

mcp_status mcpi_cuda_gpu_id(mcp_context *ctx, mcpi_gpu_id *out)
{
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess)
    return mcpi_cuda_fail(ctx, e, "selecting the device");
  mcp_status st = keep(ctx);
  if (st == MCP_OK && !ctx->cuda->gpu.device[0])
    st = mcpi_fail(ctx->err, MCP_ERR_DEVICE, "the GPU's name and driver could not be read");
  if (st == MCP_OK)
    *out = ctx->cuda->gpu;
  return st;
}

mcp_status mcpi_cuda_price(mcpi_run *run)
{
  mcp_context *ctx = run->ctx;
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess)
    return mcpi_cuda_fail(ctx, e, "selecting the device");
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
  /* The batches: the jobs of a tile a replicate, in groups of at most
   * budget bytes of device memory; a group's jobs all started before any is
   * read, each on a stream of its own, so that their kernels (a small
   * book's: a few blocks each, for the latency of their steps) run at once
   * and the host adds one job's sums while the others' kernels run.  Those
   * that wait on the host between kernels (a pilot) go last, in the last
   * groups, the others of a group running meanwhile, and so do those with
   * a fit (which waited too until "fit-beside"; not measured since).  A
   * group of one job runs alone. */
  size_t nj = run->plan->njobs, nb = 0, bytes, all = 0, budget = MCPI_SMALL_DEVICE_BYTES;
  size_t real = o->precision == MCP_FLOAT ? sizeof(float) : sizeof(double);
  size_t *order = malloc((nj + 1) * sizeof *order), *need = malloc((nj + 1) * sizeof *need);
  gpu_job *g = calloc(nj + 1, sizeof *g);
  char *in = calloc(nj + 1, 1);
  if (!order || !need || !g || !in)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  for (int late = 0; st == MCP_OK && late < 2; late++)
    for (size_t ji = 0; ji < nj; ji++) {
      const mcpi_job *j = &run->plan->jobs[ji];
      if (mcpi_run_has(run, ji) && (j->controls || j->lsm_dates > 1) == late &&
          batchable(run, ji, real, &bytes)) {
        in[ji] = 1;
        need[nb] = bytes;
        all += bytes;
        order[nb++] = ji;
      }
    }
  /* the free memory only where the batches need more than the small
   * amount (the query costs 20 us, a small book's job a few more); the
   * arena, kept, is the batches' already */
  if (all > budget) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
      cudaGetLastError(); /* free_b 0: the small amount */
    size_t quarter = (free_b + ctx->dev_bytes[ARENA]) / 4;
    if (quarter > budget)
      budget = quarter < GROUP_BYTES ? quarter : GROUP_BYTES;
  }
  for (size_t first = 0, end; st == MCP_OK && first < nb; first = end) {
    size_t total = need[first], n, started = 0;
    for (end = first + 1; end < nb && total + need[end] <= budget; end++)
      total += need[end];
    if ((n = end - first) == 1) {
      in[order[first]] = 0;
      continue;
    }
    group_start(ctx, 1);
    for (; st == MCP_OK && started < n; started++)
      st = job_start(run, order[first + started], started, 1, &g[started]);
    for (size_t q = 0; q < started; q++)
      st = job_finish(&g[q], st);
    st = end_streams(ctx, (int)(n + SIDE_STREAMS < STREAMS ? n + SIDE_STREAMS : STREAMS), st);
    group_end(ctx->cuda);
  }
  /* the others one at a time (each a group of its own) */
  for (size_t ji = 0; st == MCP_OK && ji < nj; ji++)
    if (mcpi_run_has(run, ji) && !in[ji]) {
      group_start(ctx, 0);
      st = job_finish(&g[0], job_start(run, ji, 0, 0, &g[0]));
      st = end_streams(ctx, 1 + g[0].nside, st);
      group_end(ctx->cuda);
    }
  free(order);
  free(need);
  free(g);
  free(in);
  return st;
}
#endif
