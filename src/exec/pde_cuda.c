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

enum { GRID, SEG, DIV, V, W, U, EX, OUT, NBUF };

/* The device buffers for up to `chunk` grids at a time. */
typedef struct device_batch {
  void *d[NBUF];
  size_t bytes[NBUF]; /* a grid's share, the segment and dividend tables whole */
} device_batch;

static void release(device_batch *db)
{
  for (int i = 0; i < NBUF; i++) {
    cudaFree(db->d[i]);
    db->d[i] = NULL;
  }
}

static cudaError_t allocate(device_batch *db, size_t chunk)
{
  cudaError_t e = cudaSuccess;
  for (int i = 0; e == cudaSuccess && i < NBUF; i++) {
    size_t n = db->bytes[i] * (i == SEG || i == DIV ? 1 : chunk);
    if (n && (e = cudaMalloc(&db->d[i], n)) == cudaSuccess)
      e = cudaMemset(db->d[i], 0, n); /* row padding stays zero */
  }
  if (e != cudaSuccess)
    release(db);
  return e;
}

/* The grids go in chunks sized to the free device memory, halved while an
 * allocation fails; each grid's arithmetic is its own, so the prices do not
 * depend on the chunks. */
mcp_status mcpi_pde_cuda(mcp_context *ctx, const mcpi_pde_batch *b, double *out)
{
  size_t row = (size_t)b->ld * sizeof(double), taps = 2 * (size_t)b->radius + 1;
  int theta = b->set.scheme != MCP_PDE_EXPLICIT;
  device_batch db = {.bytes = {sizeof *b->grid, b->nseg * sizeof *b->seg,
                               b->ndiv * sizeof *b->div, row, row,
                               theta ? row * (size_t)MCPI_PDE_FACTOR_ROWS(b->radius) : 0,
                               b->ex ? row : 0,
                               taps * sizeof(double)}};
  const char *what = "selecting the device";
  cudaError_t e = cudaSetDevice(ctx->device);
  size_t chunk = b->ngrids, free_bytes = 0, total = 0, per = 0;
  for (int i = 0; i < NBUF; i++)
    per += i == SEG || i == DIV ? 0 : db.bytes[i];
  if (e == cudaSuccess && cudaMemGetInfo(&free_bytes, &total) == cudaSuccess &&
      free_bytes / 2 / per < chunk)
    chunk = free_bytes / 2 / per > 0 ? free_bytes / 2 / per : 1;
  if (e == cudaSuccess) {
    what = "allocating the grids";
    while ((e = allocate(&db, chunk)) == cudaErrorMemoryAllocation && chunk > 1) {
      cudaGetLastError();
      chunk = (chunk + 1) / 2;
    }
  }
  if (e == cudaSuccess) {
    what = "copying the coefficients";
    e = cudaMemcpy(db.d[SEG], b->seg, db.bytes[SEG], cudaMemcpyHostToDevice);
    if (e == cudaSuccess && b->ndiv)
      e = cudaMemcpy(db.d[DIV], b->div, db.bytes[DIV], cudaMemcpyHostToDevice);
  }
  for (size_t g0 = 0; e == cudaSuccess && g0 < b->ngrids; g0 += chunk) {
    size_t c = b->ngrids - g0 < chunk ? b->ngrids - g0 : chunk;
    what = "copying the grids";
    e = cudaMemcpy(db.d[GRID], b->grid + g0, c * db.bytes[GRID], cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
      e = cudaMemcpy(db.d[V], b->v0 + g0 * b->ld, c * row, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && b->ex)
      e = cudaMemcpy(db.d[EX], b->ex + g0 * b->ld, c * row, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
      mcpi_pde_view v = {.n = b->n, .ld = b->ld, .radius = b->radius, .ngrids = (int)c,
                         .grid = db.d[GRID], .seg = db.d[SEG], .div = db.d[DIV],
                         .v = db.d[V], .w = db.d[W],
                         .u = db.d[U], .ex = db.d[EX], .out = db.d[OUT]};
      what = "the PDE kernel";
      e = mcpi_launch_pde(v, !theta, (int)b->set.stencil, b->set.coarsening, 0);
    }
    if (e == cudaSuccess)
      e = cudaMemcpy(out + g0 * taps, db.d[OUT], c * db.bytes[OUT], cudaMemcpyDeviceToHost);
  }
  release(&db);
  if (e == cudaSuccess)
    return MCP_OK;
  cudaGetLastError();
  return mcpi_fail(ctx->err, e == cudaErrorMemoryAllocation ? MCP_ERR_NO_MEMORY : MCP_ERR_DEVICE,
                   "CUDA error in %s: %s", what, cudaGetErrorString(e));
}
#endif
