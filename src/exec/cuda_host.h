/* cuda_host.h: what the CUDA backend's host files share (backend_cuda.c,
 * pde_cuda.c; CUDA builds only): the context's kept device buffers and the
 * report of a failed CUDA call. */
#ifndef MCP_CUDA_HOST_H
#define MCP_CUDA_HOST_H

#include <cuda_runtime_api.h>
#include "src/exec/context.h"

/* Device memory that a run may take without asking how much is free (the
 * query costs about 20 us where the library runs sandboxed); an allocation
 * that fails still shrinks the request. */
#define MCPI_SMALL_DEVICE_BYTES ((size_t)256 << 20)

/* The context's kept buffer of slot, of at least bytes, into *out: the one
 * earlier runs left where it is large enough (a warm call allocates
 * nothing; cudaMalloc and cudaFree each synchronise), else a new one. */
cudaError_t mcpi_cuda_slot(mcp_context *ctx, int slot, size_t bytes, void **out);

/* e into ctx->err, naming what failed; the runtime's error cleared. */
mcp_status mcpi_cuda_fail(mcp_context *ctx, cudaError_t e, const char *what);

#endif
