/* context.c: creating a context, its backend, devices, tiles and blocks,
 * and the run options it takes. */
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "src/base/names.h"
#include "src/inputs/portfolio.h"
#include "src/inputs/wisdom.h"
#include "src/base/validate.h"

static const char *const backend_names[] = {"auto", "cpu", "cuda"};

MCPI_NAMED_ENUM(mcp_backend, mcp_backend_from_name, mcp_backend_name, backend_names, "unknown")

/* Why the cuda backend cannot be had here. */
static const char *no_cuda(void)
{
  return mcp_cuda_built() ? "no CUDA GPU was found" : "the library was built without CUDA";
}

mcp_status mcp_context_create(mcp_context **ctx, mcp_backend backend)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  *ctx = NULL;
  if (backend != MCP_BACKEND_AUTO && backend != MCP_BACKEND_CPU && backend != MCP_BACKEND_CUDA)
    return mcpi_error(MCP_ERR_ARGUMENT, "%s: unknown backend %d (expected auto, cpu or cuda)",
                      __func__, (int)backend);
  if (backend == MCP_BACKEND_CUDA && mcp_device_count() == 0)
    return mcpi_error(MCP_ERR_UNAVAILABLE, "%s: backend cuda: %s", __func__, no_cuda());
  mcp_context *c = calloc(1, sizeof *c);
  if (!c)
    return mcpi_no_memory(__func__);
  if (backend == MCP_BACKEND_AUTO)
    backend = mcp_device_count() > 0 ? MCP_BACKEND_CUDA : MCP_BACKEND_CPU;
  c->backend = backend;
  c->block = MCPI_DEFAULT_BLOCK;
  atomic_init(&c->cancel_own, 0);
  c->cancel = &c->cancel_own;
  mcpi_settings_init(&c->run);
  *ctx = c;
  return MCP_OK;
}

void mcpi_context_drop_workers(mcp_context *ctx)
{
  for (size_t i = 0; i < ctx->nworkers; i++)
    mcp_context_destroy(ctx->workers[i]);
  free(ctx->workers);
  ctx->workers = NULL;
  ctx->nworkers = 0;
}

void mcp_context_destroy(mcp_context *ctx)
{
  if (ctx) {
    mcpi_context_drop_workers(ctx);
    mcpi_cuda_release(ctx);
    free(ctx->devices);
    mcp_wisdom_destroy(ctx->wisdom);
  }
  free(ctx);
}

mcp_backend mcp_context_backend(const mcp_context *ctx)
{
  return ctx ? ctx->backend : MCP_BACKEND_AUTO;
}

mcp_status mcp_context_set_tile_paths(mcp_context *ctx, uint64_t paths)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  const char *why = mcpi_check_tile_paths(paths);
  if (why)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "tile paths: expected %s, got %llu", why,
                     (unsigned long long)paths);
  ctx->tile_paths = paths;
  ctx->run.given |= MCPI_OPT_TILE;
  return MCP_OK;
}

mcp_status mcp_context_set_block_size(mcp_context *ctx, int threads)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  const char *why = mcpi_check_block_size(threads);
  if (why)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "block size: expected %s, got %d", why, threads);
  ctx->block = threads;
  ctx->run.given |= MCPI_OPT_BLOCK;
  return MCP_OK;
}

mcp_status mcp_context_set_device(mcp_context *ctx, int device)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  int n = mcp_device_count();
  if (ctx->backend == MCP_BACKEND_CUDA && (device < 0 || device >= n))
    return mcpi_fail(ctx->err, MCP_ERR_NOT_FOUND, "device: expected 0 to %d, got %d", n - 1,
                     device);
  if (device != ctx->device)
    mcpi_cuda_release(ctx); /* the kept buffers live on the old device */
  ctx->device = device;
  mcpi_context_drop_workers(ctx); /* of the list that goes */
  free(ctx->devices); /* one device from now on */
  ctx->devices = NULL;
  ctx->ndevices = 0;
  return MCP_OK;
}

mcp_status mcp_context_set_devices(mcp_context *ctx, size_t n, const int *devices)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  if (n < 1 || n > MCP_MAX_DEVICES || !devices)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "devices: expected a list of 1 to %d, got %zu",
                     MCP_MAX_DEVICES, devices ? n : 0);
  int count = ctx->backend == MCP_BACKEND_CUDA ? mcp_device_count() : 1;
  for (size_t i = 0; i < n; i++)
    if (devices[i] < 0 || devices[i] >= count)
      return mcpi_fail(ctx->err, MCP_ERR_NOT_FOUND, "devices: expected %s, got %d",
                       ctx->backend == MCP_BACKEND_CUDA ? "GPUs numbered from 0 to the count "
                                                          "less 1"
                                                        : "0 (the CPU backend's one device)",
                       devices[i]);
  int *d = malloc(n * sizeof *d);
  if (!d)
    return mcpi_no_memory(__func__);
  memcpy(d, devices, n * sizeof *d);
  mcp_status st = mcp_context_set_device(ctx, devices[0]);
  if (st != MCP_OK) {
    free(d);
    return st;
  }
  free(ctx->devices);
  ctx->devices = d;
  ctx->ndevices = n;
  if (n > 1) /* its workers run the calls: its own buffers would lie idle */
    mcpi_cuda_release(ctx);
  return MCP_OK;
}

mcp_status mcp_context_set_progress(mcp_context *ctx, mcp_progress_fn fn, void *user)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  ctx->progress = fn;
  ctx->progress_user = user;
  return MCP_OK;
}

mcp_status mcp_context_cancel(mcp_context *ctx)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  atomic_store(ctx->cancel, 1);
  return MCP_OK;
}

mcp_status mcpi_cancel_check(mcp_context *ctx)
{
  return mcpi_cancel_asked(ctx) ? mcpi_fail(ctx->err, MCP_ERR_CANCELLED,
                                            "the pricing was cancelled (mcp_context_cancel)")
                                : MCP_OK;
}

mcp_status mcpi_call_end(mcp_context *ctx, mcp_status st)
{
  if (!ctx)
    return st;
  atomic_store(ctx->cancel, 0);
  if (st != MCP_OK && !ctx->err[0])
    mcpi_copy_message(ctx->err, sizeof ctx->err,
                      mcp_last_error()[0] ? mcp_last_error() : mcp_strerror(st));
  if (st != MCP_OK)
    mcpi_said(st, ctx->err);
  return st;
}

const char *mcp_context_last_error(const mcp_context *ctx) { return ctx ? ctx->err : "no context"; }

/* ---- run options ---------------------------------------------------------- */

mcp_status mcp_context_set_options(mcp_context *ctx, const mcp_run_options *o)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  if (!o)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_context_set_options: options is NULL");
  unsigned g = o->s.given;
  if ((g & MCPI_OPT_BACKEND) && o->backend != MCP_BACKEND_AUTO && o->backend != ctx->backend)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "backend: the options ask for %s, the context runs on %s; expected a "
                     "context made by mcp_context_create_with_options",
                     mcp_backend_name(o->backend), mcp_backend_name(ctx->backend));
  /* the devices are the one option checked here (against the context's
   * backend), first: a refused call leaves the context as it was */
  mcp_status st;
  if ((g & MCPI_OPT_DEVICES) &&
      (st = mcp_context_set_devices(ctx, o->ndevices, o->devices)) != MCP_OK)
    return st;
  if (g & MCPI_OPT_TILE)
    ctx->tile_paths = o->tile_paths;
  if (g & MCPI_OPT_BLOCK)
    ctx->block = o->block;
  /* the kernels' settings given in o replace the context's */
  mcpi_settings before = ctx->run;
  mcpi_settings_resolve(&o->s, &before, &ctx->run);
  ctx->run.given &= ~(MCPI_OPT_BACKEND | MCPI_OPT_DEVICES);
  return MCP_OK;
}

mcp_status mcp_context_set_wisdom(mcp_context *ctx, const mcp_wisdom *wisdom)
{
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  mcp_wisdom *copy;
  mcp_status st = mcpi_wisdom_copy(wisdom, &copy, ctx->err);
  if (st != MCP_OK)
    return st;
  mcp_wisdom_destroy(ctx->wisdom);
  ctx->wisdom = copy;
  ctx->wisdom_set++;
  return MCP_OK;
}

mcp_status mcp_context_create_with_options(mcp_context **ctx, const mcp_run_options *o,
                                           char *err, size_t errlen)
{
  if (!ctx || !o) {
    if (ctx)
      *ctx = NULL;
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !ctx ? "ctx" : "options");
  }
  mcp_backend b = (o->s.given & MCPI_OPT_BACKEND) ? o->backend : MCP_BACKEND_AUTO;
  mcp_status st = mcp_context_create(ctx, b);
  if (st != MCP_OK) {
    char msg[MCPI_ERRLEN];
    mcpi_fail(msg, st, "backend %s: %s", mcp_backend_name(b),
              st == MCP_ERR_UNAVAILABLE ? no_cuda() : mcp_strerror(st));
    mcpi_copy_message(err, errlen, msg);
  } else if ((st = mcp_context_set_options(*ctx, o)) != MCP_OK) {
    mcpi_copy_message(err, errlen, (*ctx)->err);
    mcp_context_destroy(*ctx);
    *ctx = NULL;
  }
  return st;
}

void mcpi_context_settings(const mcp_context *ctx, const mcp_portfolio *p, mcpi_settings *out)
{
  mcpi_settings_resolve(&ctx->run, mcpi_portfolio_settings(p), out);
}
