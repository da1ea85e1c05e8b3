/* backend_cuda.c: host side of the CUDA backend.  Per tile of paths, the
 * normals kernel writes the canonical normals (cuRAND's device API, rng.h), the path
 * kernel evaluates every payoff of the job, and the chunk-sum kernel reduces
 * them in the fixed order the CPU uses. */
#include <stdlib.h>
#include "config.h"
#include "backend.h"

#ifndef MCP_HAVE_CUDA
mcp_status mcpi_cuda_price(mcpi_run *run)
{
  return mcpi_fail(run->ctx->err, MCP_ERR_UNAVAILABLE,
                   "this build of mcprice has no CUDA backend (configure found no nvcc)");
}
#else
#include <cuda_runtime_api.h>
#include "launch.h"
#include "rng.h"

#define MAX_AUTO_TILE ((size_t)1 << 22)

typedef struct device_job {
  void *z;
  double *pay, *part, *drift, *vol;
  float *drift_f, *vol_f;
  uint32_t *fixmask;
  mcpi_payoff_spec *spec;
  size_t tile;
} device_job;

static mcp_status cuda_fail(mcp_context *ctx, cudaError_t e, const char *what)
{
  mcp_status st = e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE;
  cudaGetLastError();
  return mcpi_fail(ctx->err, st, "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

static void release(device_job *d)
{
  cudaFree(d->z);
  cudaFree(d->pay);
  cudaFree(d->part);
  cudaFree(d->drift);
  cudaFree(d->vol);
  cudaFree(d->drift_f);
  cudaFree(d->vol_f);
  cudaFree(d->fixmask);
  cudaFree(d->spec);
  *d = (device_job){0};
}

static cudaError_t alloc_tile(device_job *d, const mcpi_job *j, size_t tile, size_t real)
{
  size_t ncol = j->ntrades + 1;
  cudaError_t e = cudaMalloc(&d->z, j->nsteps * tile * real);
  if (e == cudaSuccess)
    e = cudaMalloc((void **)&d->pay, ncol * tile * sizeof(double));
  if (e == cudaSuccess)
    e = cudaMalloc((void **)&d->part, ncol * (tile / MCP_CHUNK_PATHS) * 2 * sizeof(double));
  d->tile = tile;
  return e;
}

/* Device copies of the job's arrays, and tiles sized to free memory (half of
 * it, at most MAX_AUTO_TILE paths), halved while an allocation fails. */
static mcp_status upload(mcp_context *ctx, const mcpi_job *j, uint64_t paths, size_t real,
                         device_job *d)
{
  cudaError_t e;
  size_t m = j->nsteps;
  if ((e = cudaMalloc((void **)&d->drift, m * sizeof(double))) != cudaSuccess ||
      (e = cudaMalloc((void **)&d->vol, m * sizeof(double))) != cudaSuccess ||
      (e = cudaMalloc((void **)&d->drift_f, m * sizeof(float))) != cudaSuccess ||
      (e = cudaMalloc((void **)&d->vol_f, m * sizeof(float))) != cudaSuccess ||
      (e = cudaMalloc((void **)&d->fixmask, m * sizeof(uint32_t))) != cudaSuccess ||
      (e = cudaMalloc((void **)&d->spec, j->ntrades * sizeof(mcpi_payoff_spec))) != cudaSuccess)
    return cuda_fail(ctx, e, "allocating the job's arrays");
  if ((e = cudaMemcpy(d->drift, j->drift, m * sizeof(double), cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(d->vol, j->vol, m * sizeof(double), cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(d->drift_f, j->drift_f, m * sizeof(float), cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(d->vol_f, j->vol_f, m * sizeof(float), cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(d->fixmask, j->fixmask, m * sizeof(uint32_t), cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(d->spec, j->spec, j->ntrades * sizeof(mcpi_payoff_spec),
                      cudaMemcpyHostToDevice)))
    return cuda_fail(ctx, e, "copying the job's arrays");

  size_t per_path = m * real + (j->ntrades + 2) * sizeof(double);
  size_t tile = ctx->tile_paths;
  if (!tile) {
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    tile = free_b / 2 / per_path;
    if (tile > MAX_AUTO_TILE)
      tile = MAX_AUTO_TILE;
    uint64_t need = (paths + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS;
    if (tile > need)
      tile = (size_t)need;
    tile -= tile % MCP_CHUNK_PATHS;
    if (tile < MCP_CHUNK_PATHS)
      tile = MCP_CHUNK_PATHS;
  }
  for (;;) {
    e = alloc_tile(d, j, tile, real);
    if (e == cudaSuccess)
      return MCP_OK;
    cudaFree(d->z);
    cudaFree(d->pay);
    cudaFree(d->part);
    d->z = d->pay = d->part = NULL;
    if (e != cudaErrorMemoryAllocation || ctx->tile_paths || tile == MCP_CHUNK_PATHS)
      return cuda_fail(ctx, e, "allocating a tile of paths");
    cudaGetLastError();
    tile = tile / 2 - (tile / 2) % MCP_CHUNK_PATHS;
    if (tile < MCP_CHUNK_PATHS)
      tile = MCP_CHUNK_PATHS;
  }
}

static mcp_status price_job(mcpi_run *run, size_t ji)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  mcp_context *ctx = run->ctx;
  uint64_t paths = run->plan->paths;
  device_job d = {0};
  const mcpi_kernel_options *o = &run->kopt;
  size_t real = o->precision == MCP_FLOAT ? sizeof(float) : sizeof(double);
  mcp_status st = upload(ctx, j, paths, real, &d);
  mcpi_job_view view = mcpi_job_host_view(j);
  view.drift = d.drift;
  view.vol = d.vol;
  view.drift_f = d.drift_f;
  view.vol_f = d.vol_f;
  view.fixmask = d.fixmask;
  view.trades = d.spec;
  size_t ncol = j->ntrades + 1;
  double *part = NULL;
  if (st == MCP_OK && !(part = malloc(ncol * (d.tile / MCP_CHUNK_PATHS) * 2 * sizeof *part)))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of host memory for chunk sums");
  cudaError_t e;
  for (uint64_t p0 = 0; st == MCP_OK && p0 < paths; p0 += d.tile) {
    size_t n = (size_t)(paths - p0 < d.tile ? paths - p0 : d.tile);
    size_t nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
    if ((e = mcpi_launch_normals(j->stream, 0, j->nsteps, p0, n, d.z, d.tile, o->precision, 0)) !=
        cudaSuccess) {
      st = cuda_fail(ctx, e, "the normals kernel");
      break;
    }
    if ((e = mcpi_launch_paths(view, d.z, d.tile, n, d.pay, o, run->grid, 0)) != cudaSuccess) {
      st = cuda_fail(ctx, e, "the path kernel");
      break;
    }
    if ((e = mcpi_launch_chunk_sums(d.pay, d.tile, n, ncol, d.part, 0)) != cudaSuccess) {
      st = cuda_fail(ctx, e, "the chunk-sum kernel");
      break;
    }
    if ((e = cudaMemcpy(part, d.part, ncol * nchunks * 2 * sizeof(double),
                        cudaMemcpyDeviceToHost)) != cudaSuccess) {
      st = cuda_fail(ctx, e, "reading the chunk sums");
      break;
    }
    for (size_t col = 0; col < ncol; col++)
      mcpi_accum_add(&run->acc[ji][col], part + col * nchunks * 2, nchunks, n);
    mcpi_run_progress(run, j, n);
  }
  free(part);
  release(&d);
  return st;
}

mcp_status mcpi_cuda_price(mcpi_run *run)
{
  mcp_context *ctx = run->ctx;
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess)
    return cuda_fail(ctx, e, "selecting the device");
  const mcpi_kernel_options *o = &run->kopt;
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
  if ((e = mcpi_path_grid(o, &run->grid)) != cudaSuccess)
    return cuda_fail(ctx, e, "sizing the path kernel's grid");
  mcp_status st = MCP_OK;
  for (size_t ji = 0; st == MCP_OK && ji < run->plan->njobs; ji++)
    st = price_job(run, ji);
  return st;
}
#endif
