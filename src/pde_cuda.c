/* pde_cuda.c: host side of the GPU finite-difference backend: the batch's
 * arrays to the device, one launch, the values around the centers back. */
#include <stdlib.h>
#include "config.h"
#include "pde.h"

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
#include "launch.h"

enum { GRID, SEG, V, W, U, EX, OUT, NBUF };

mcp_status mcpi_pde_cuda(mcp_context *ctx, const mcpi_pde_batch *b, double *out)
{
  size_t rows = b->ngrids * (size_t)b->ld, taps = 2 * (size_t)b->radius + 1;
  int theta = b->set.scheme != MCP_PDE_EXPLICIT;
  size_t bytes[NBUF] = {b->ngrids * sizeof *b->grid, b->nseg * sizeof *b->seg,
                        rows * sizeof(double), rows * sizeof(double),
                        theta ? rows * (size_t)b->radius * sizeof(double) : 0,
                        b->ex ? rows * sizeof(double) : 0, b->ngrids * taps * sizeof(double)};
  void *d[NBUF] = {NULL};
  const char *what = "selecting the device";
  cudaError_t e = cudaSetDevice(ctx->device);
  for (int i = 0; e == cudaSuccess && i < NBUF; i++)
    if (bytes[i] && (e = cudaMalloc(&d[i], bytes[i])) == cudaSuccess)
      e = cudaMemset(d[i], 0, bytes[i]);
  if (e == cudaSuccess) {
    what = "copying the grids";
    e = cudaMemcpy(d[GRID], b->grid, bytes[GRID], cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
      e = cudaMemcpy(d[SEG], b->seg, bytes[SEG], cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
      e = cudaMemcpy(d[V], b->v0, bytes[V], cudaMemcpyHostToDevice);
    if (e == cudaSuccess && b->ex)
      e = cudaMemcpy(d[EX], b->ex, bytes[EX], cudaMemcpyHostToDevice);
  } else if (e == cudaErrorMemoryAllocation) {
    what = "allocating the grids";
  }
  if (e == cudaSuccess) {
    mcpi_pde_view v = {.n = b->n, .ld = b->ld, .radius = b->radius, .ngrids = (int)b->ngrids,
                       .grid = d[GRID], .seg = d[SEG], .v = d[V], .w = d[W], .u = d[U],
                       .ex = d[EX], .out = d[OUT]};
    what = "the PDE kernel";
    e = mcpi_launch_pde(v, !theta, (int)b->set.stencil, b->set.coarsening, 0);
    if (e == cudaSuccess)
      e = cudaMemcpy(out, d[OUT], bytes[OUT], cudaMemcpyDeviceToHost);
  }
  for (int i = 0; i < NBUF; i++)
    cudaFree(d[i]);
  if (e == cudaSuccess)
    return MCP_OK;
  cudaGetLastError();
  return mcpi_fail(ctx->err, e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE,
                   "CUDA error in %s: %s", what, cudaGetErrorString(e));
}
#endif
