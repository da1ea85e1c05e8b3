/* pde_cuda.c: host side of the GPU finite-difference backend: the batch's
 * arrays to the device, one launch, the values around the centers back. */
#include <stdlib.h>
#include "config.h"
#include "src/exec/backend.h"

#ifndef MCP_HAVE_CUDA
mcp_status mcpi_pde_cuda(mcp_context *ctx, const mcpi_pde_batch *b, double *out)
{
  (void)b;
  (void)out;
  return mcpi_fail(ctx->err, MCP_ERR_UNAVAILABLE,
                   "this build of mcprice has no CUDA backend (configure found no nvcc)");
}
#else
#include <cuda_runtime_api.h>
#include "kernels/launch.h"
#include "src/exec/context.h"

/* The batch's device arrays, in one buffer: the tables, then a grid's
 * share for each of `chunk` grids (its rows only where the march is not
 * staged in shared memory). */
enum { GRID, OUT, SEG, DIV, V, W, U, EX, NBUF };

static size_t layout(const size_t per[NBUF], const size_t whole[NBUF], size_t chunk,
                     size_t off[NBUF])
{
  size_t at = 0;
  for (int i = 0; i < NBUF; i++) {
    off[i] = at;
    at += (whole[i] + per[i] * chunk + 255) & ~(size_t)255;
  }
  return at;
}

/* The context's kept PDE buffer of at least bytes (a warm call allocates
 * nothing). */
static cudaError_t keep(mcp_context *ctx, size_t bytes, unsigned char **d)
{
  int k = MCPI_DEV_SLOT_PDE;
  if (ctx->dev_bytes[k] < bytes || !ctx->dev[k]) {
    cudaFree(ctx->dev[k]);
    ctx->dev_bytes[k] = 0;
    if (cudaMalloc(&ctx->dev[k], bytes) != cudaSuccess) {
      ctx->dev[k] = NULL;
      return cudaErrorMemoryAllocation;
    }
    ctx->dev_bytes[k] = bytes;
  }
  *d = ctx->dev[k];
  return cudaSuccess;
}

/* The grids go in chunks sized to the free device memory where they need
 * much of it, halved while an allocation fails; each grid's arithmetic is
 * its own, so the prices do not depend on the chunks. */
mcp_status mcpi_pde_cuda(mcp_context *ctx, const mcpi_pde_batch *b, double *out)
{
  int theta = b->set.scheme != MCP_PDE_EXPLICIT, american = 0;
  for (size_t g = 0; g < b->ngrids; g++)
    american |= b->grid[g].exercise != 0;
  mcpi_pde_view v = {.n = b->n, .ld = b->ld, .radius = b->radius, .american = american};
  const char *what = "selecting the device";
  cudaError_t e = cudaSetDevice(ctx->device);
  int staged = e == cudaSuccess &&
               mcpi_pde_staged(v, !theta, (int)b->set.stencil, b->set.coarsening);
  size_t row = staged ? 0 : (size_t)b->ld * sizeof(double), taps = 2 * (size_t)b->radius + 1;
  size_t per[NBUF] = {sizeof *b->grid, taps * sizeof(double), 0, 0, row, row,
                      theta ? row * (size_t)MCPI_PDE_FACTOR_ROWS(b->radius) : 0,
                      american ? row : 0};
  size_t whole[NBUF] = {0, 0, b->nseg * sizeof *b->seg, b->ndiv * sizeof *b->div};
  size_t off[NBUF], chunk = b->ngrids, free_bytes = 0, total = 0, each = 0;
  for (int i = 0; i < NBUF; i++)
    each += per[i];
  if (e == cudaSuccess && (double)each * (double)chunk > (double)(256 << 20) &&
      cudaMemGetInfo(&free_bytes, &total) == cudaSuccess && free_bytes / 2 / each < chunk)
    chunk = free_bytes / 2 / each > 0 ? free_bytes / 2 / each : 1;
  unsigned char *d = NULL;
  if (e == cudaSuccess) {
    what = "allocating the grids";
    while ((e = keep(ctx, layout(per, whole, chunk, off), &d)) == cudaErrorMemoryAllocation &&
           chunk > 1) {
      cudaGetLastError();
      chunk = (chunk + 1) / 2;
    }
  }
  if (e == cudaSuccess) {
    what = "copying the coefficients";
    e = cudaMemcpy(d + off[SEG], b->seg, whole[SEG], cudaMemcpyHostToDevice);
    if (e == cudaSuccess && b->ndiv)
      e = cudaMemcpy(d + off[DIV], b->div, whole[DIV], cudaMemcpyHostToDevice);
    if (e == cudaSuccess && !staged) /* row padding stays zero */
      e = cudaMemsetAsync(d + off[V], 0, off[NBUF - 1] + per[EX] * chunk - off[V], 0);
  }
  for (size_t g0 = 0; e == cudaSuccess && g0 < b->ngrids; g0 += chunk) {
    size_t c = b->ngrids - g0 < chunk ? b->ngrids - g0 : chunk;
    what = "copying the grids";
    e = cudaMemcpy(d + off[GRID], b->grid + g0, c * per[GRID], cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
      v.ngrids = (int)c;
      v.grid = (const mcpi_pde_grid *)(d + off[GRID]);
      v.seg = (const mcpi_pde_segment *)(d + off[SEG]);
      v.div = (const mcpi_pde_dividend *)(d + off[DIV]);
      v.out = (double *)(d + off[OUT]);
      v.v = staged ? NULL : (double *)(d + off[V]);
      v.w = staged ? NULL : (double *)(d + off[W]);
      v.u = staged ? NULL : (double *)(d + off[U]);
      v.ex = staged ? NULL : (double *)(d + off[EX]);
      what = "the PDE kernel";
      e = mcpi_launch_pde(v, !theta, (int)b->set.stencil, b->set.coarsening, 0);
    }
    if (e == cudaSuccess)
      e = cudaMemcpy(out + g0 * taps, d + off[OUT], c * per[OUT], cudaMemcpyDeviceToHost);
  }
  if (e == cudaSuccess)
    return MCP_OK;
  cudaGetLastError();
  return mcpi_fail(ctx->err, e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE,
                   "CUDA error in %s: %s", what, cudaGetErrorString(e));
}
#endif
