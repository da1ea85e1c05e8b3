/* pde_cuda.c: host side of the GPU finite-difference backend: the batch's
 * arrays to the device, one launch, the values around the centers back,
 * on a stream of the grids' own so that the Monte Carlo jobs run beside
 * them (a batch of a few grids keeps a few multiprocessors busy for
 * milliseconds). */
#include <stdlib.h>
#include "config.h"
#include "src/exec/backend.h"

#ifndef MCP_HAVE_CUDA
mcp_status mcpi_pde_cuda_start(mcp_context *ctx, const mcpi_pde_batch *b, double *out,
                               int *bound)
{
  (void)b;
  (void)out;
  (void)bound;
  return mcpi_fail(ctx->err, MCP_ERR_UNAVAILABLE,
                   "this build of mcprice has no CUDA backend (configure found no nvcc)");
}

mcp_status mcpi_pde_cuda_finish(mcp_context *ctx)
{
  (void)ctx;
  return MCP_OK;
}
#else
#include "src/exec/cuda_host.h"
#include "kernels/launch.h"

/* The batch's device arrays, in one buffer: the tables (the exercise
 * boundaries' nodes: every chunk's), then a grid's share for each of
 * `chunk` grids (its rows only where the march is not staged in shared
 * memory). */
enum { GRID, OUT, SEG, DIV, BND, V, W, U, EX, NBUF };

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

/* The grids go in chunks sized to the free device memory where they need
 * much of it, halved while an allocation fails; each grid's arithmetic is
 * its own, so the prices do not depend on the chunks.  One chunk (a book's
 * batch) is left running, its values read by mcpi_pde_cuda_finish; more
 * are solved here, one after the other. */
mcp_status mcpi_pde_cuda_start(mcp_context *ctx, const mcpi_pde_batch *b, double *out,
                               int *bound)
{
  int theta = b->set.scheme != MCP_PDE_EXPLICIT, american = 0;
  for (size_t g = 0; g < b->ngrids; g++)
    american |= b->grid[g].exercise != 0;
  mcpi_pde_view v = {.n = b->n, .ld = b->ld, .radius = b->radius, .american = american};
  const char *what = "selecting the device";
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e == cudaSuccess && !ctx->grid_stream) {
    what = "making the grids' stream";
    cudaStream_t s;
    if ((e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) == cudaSuccess)
      ctx->grid_stream = s;
  }
  cudaStream_t stream = (cudaStream_t)ctx->grid_stream;
  int staged = e == cudaSuccess &&
               mcpi_pde_staged(v, !theta, (int)b->set.stencil, b->set.coarsening);
  size_t row = staged ? 0 : (size_t)b->ld * sizeof(double), taps = 2 * (size_t)b->radius + 1;
  size_t per[NBUF] = {[GRID] = sizeof *b->grid, [OUT] = taps * sizeof(double), [V] = row,
                      [W] = row,
                      [U] = theta ? row * (size_t)MCPI_PDE_FACTOR_ROWS(b->radius) : 0,
                      [EX] = american ? row : 0};
  size_t whole[NBUF] = {[SEG] = b->nseg * sizeof *b->seg, [DIV] = b->ndiv * sizeof *b->div,
                        [BND] = bound ? b->nbound * sizeof *bound : 0};
  size_t off[NBUF], chunk = b->ngrids, free_bytes = 0, total = 0, each = 0;
  for (int i = 0; i < NBUF; i++)
    each += per[i];
  if (e == cudaSuccess && (double)each * (double)chunk > (double)MCPI_SMALL_DEVICE_BYTES &&
      cudaMemGetInfo(&free_bytes, &total) == cudaSuccess && free_bytes / 2 / each < chunk)
    chunk = free_bytes / 2 / each > 0 ? free_bytes / 2 / each : 1;
  void *kept = NULL;
  if (e == cudaSuccess) {
    what = "allocating the grids";
    while ((e = mcpi_cuda_slot(ctx, MCPI_DEV_SLOT_PDE, layout(per, whole, chunk, off), &kept)) ==
               cudaErrorMemoryAllocation &&
           chunk > 1) {
      cudaGetLastError();
      chunk = (chunk + 1) / 2;
    }
  }
  unsigned char *d = kept;
  /* every copy on the grids' stream: one from pageable memory may return
     before its transfer ends, and only the stream orders the kernel after */
  if (e == cudaSuccess) {
    what = "copying the coefficients";
    e = cudaMemcpyAsync(d + off[SEG], b->seg, whole[SEG], cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess && b->ndiv)
      e = cudaMemcpyAsync(d + off[DIV], b->div, whole[DIV], cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess && !staged) /* row padding stays zero */
      e = cudaMemsetAsync(d + off[V], 0, off[NBUF - 1] + per[EX] * chunk - off[V], stream);
  }
  for (size_t g0 = 0; e == cudaSuccess && g0 < b->ngrids; g0 += chunk) {
    size_t c = b->ngrids - g0 < chunk ? b->ngrids - g0 : chunk;
    what = "copying the grids";
    e = cudaMemcpyAsync(d + off[GRID], b->grid + g0, c * per[GRID], cudaMemcpyHostToDevice,
                        stream);
    if (e == cudaSuccess) {
      v.ngrids = (int)c;
      v.grid = (const mcpi_pde_grid *)(d + off[GRID]);
      v.seg = (const mcpi_pde_segment *)(d + off[SEG]);
      v.div = (const mcpi_pde_dividend *)(d + off[DIV]);
      v.out = (double *)(d + off[OUT]);
      v.bound = bound ? (int *)(d + off[BND]) : NULL;
      v.v = staged ? NULL : (double *)(d + off[V]);
      v.w = staged ? NULL : (double *)(d + off[W]);
      v.u = staged ? NULL : (double *)(d + off[U]);
      v.ex = staged ? NULL : (double *)(d + off[EX]);
      what = "the PDE kernel";
      e = mcpi_launch_pde(v, !theta, (int)b->set.stencil, b->set.coarsening, stream);
    }
    ctx->grid_out = out + g0 * taps;
    ctx->grid_dev = d + off[OUT];
    ctx->grid_bytes = c * per[OUT];
    ctx->grid_bound = bound;
    ctx->grid_bound_dev = d + off[BND];
    ctx->grid_bound_bytes = whole[BND];
    if (e == cudaSuccess && g0 + c < b->ngrids) {
      mcp_status st = mcpi_pde_cuda_finish(ctx);
      if (st != MCP_OK)
        return st;
    }
  }
  if (e == cudaSuccess)
    return MCP_OK;
  cudaStreamSynchronize(stream); /* nothing left running on what the caller frees */
  ctx->grid_bytes = ctx->grid_bound_bytes = 0;
  return mcpi_cuda_fail(ctx, e, what);
}

mcp_status mcpi_pde_cuda_finish(mcp_context *ctx)
{
  if (!ctx->grid_bytes)
    return MCP_OK;
  cudaStream_t stream = (cudaStream_t)ctx->grid_stream;
  cudaError_t e = cudaMemcpyAsync(ctx->grid_out, ctx->grid_dev, ctx->grid_bytes,
                                  cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess && ctx->grid_bound_bytes) /* the chunks' so far */
    e = cudaMemcpyAsync(ctx->grid_bound, ctx->grid_bound_dev, ctx->grid_bound_bytes,
                        cudaMemcpyDeviceToHost, stream);
  cudaError_t w = cudaStreamSynchronize(stream);
  ctx->grid_bytes = ctx->grid_bound_bytes = 0;
  e = e ? e : w;
  return e == cudaSuccess ? MCP_OK : mcpi_cuda_fail(ctx, e, "reading the grids' values");
}
#endif
