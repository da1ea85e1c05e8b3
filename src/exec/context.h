/* context.h: backend, device and kernel options (internal view). */
#ifndef MCP_CONTEXT_H
#define MCP_CONTEXT_H

#include <stdatomic.h>
#include "src/base/error.h"
#include "src/inputs/run_options.h"

#define MCPI_DEV_SLOTS 15 /* device buffers a context keeps (backend_cuda.c) */
#define MCPI_DEV_SLOT_PDE (MCPI_DEV_SLOTS - 1) /* the last: the grids' (pde_cuda.c) */

struct mcp_context {
  mcp_backend backend; /* resolved: cpu or cuda */
  uint64_t tile_paths; /* 0: sized to memory */
  int block;
  mcpi_settings run; /* the kernels' and grids' options (mcp_context_set_options); its
                        given bits say which the caller set, tile and block too */
  mcp_wisdom *wisdom; /* mcp_context_set_wisdom's copy, or NULL: the rules */
  unsigned wisdom_set; /* how many times it was set: its workers copy it once a change */
  int device;
  int *devices; /* mcp_context_set_devices: ndevices > 1 spreads slices over them */
  size_t ndevices;
  /* their workers' contexts (spread.c), one a listing, made by the first
   * call and kept, with their streams and buffers, until the devices are
   * set again or a device fails or runs out of memory; NULL before */
  struct mcp_context **workers;
  size_t nworkers;
  unsigned workers_wisdom; /* the wisdom_set whose wisdom the workers hold */
  mcp_progress_fn progress;
  void *progress_user;
  /* mcp_context_cancel's request: its own, or (a device's worker, spread.c)
   * the calling context's */
  atomic_int cancel_own;
  atomic_int *cancel;
  char err[MCPI_ERRLEN];
  /* device buffers of ctx->device kept from run to run, so that a run
   * allocates only what outgrows them (backend_cuda.c) */
  void *dev[MCPI_DEV_SLOTS];
  size_t dev_bytes[MCPI_DEV_SLOTS];
  /* the rest the CUDA backend keeps (its streams, the jobs' host staging,
   * the device's limits), or NULL (backend_cuda.c) */
  struct mcpi_cuda_kept *cuda;
  /* the grids' solve, under way beside the Monte Carlo jobs (pde_cuda.c):
   * its stream (a cudaStream_t, made once), and where its values go */
  void *grid_stream;
  double *grid_out;
  const void *grid_dev;
  size_t grid_bytes;
  int *grid_bound; /* and its exercise boundaries' nodes, where recorded */
  const void *grid_bound_dev;
  size_t grid_bound_bytes;
};

/* Whether mcp_context_cancel asked the running call to stop. */
static inline int mcpi_cancel_asked(const mcp_context *ctx)
{
  return atomic_load_explicit(ctx->cancel, memory_order_relaxed) != 0;
}
/* MCP_ERR_CANCELLED with its message where it did, else MCP_OK. */
mcp_status mcpi_cancel_check(mcp_context *ctx);
/* A pricing call's bounds.  Begin: the context's message and the thread's
 * emptied, so that end knows which this call wrote.  End: the call's
 * status, the cancel request cleared, and the message of a failure in both
 * the context and the calling thread's last error (a device's worker
 * thread writes only the context's; a check without the context only the
 * thread's; neither: the status's text). */
static inline void mcpi_call_begin(mcp_context *ctx)
{
  mcpi_said(MCP_OK, "");
  if (ctx)
    ctx->err[0] = '\0';
}
mcp_status mcpi_call_end(mcp_context *ctx, mcp_status st);

/* The settings of a run of p on ctx (mcpi_settings_resolve). */
void mcpi_context_settings(const mcp_context *ctx, const mcp_portfolio *p, mcpi_settings *out);

/* Destroys the devices' workers that ctx keeps (spread.c), if any. */
void mcpi_context_drop_workers(mcp_context *ctx);
/* Frees the device buffers and the rest a context keeps (nothing without
 * CUDA). */
void mcpi_cuda_release(mcp_context *ctx);

#endif
