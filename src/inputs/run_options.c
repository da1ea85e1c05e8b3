/* run_options.c: the run options (mcp_run_options), and the settings a
 * pricing call resolves from its context's and its portfolio's deprecated
 * ones. */
#include <stdlib.h>
#include <string.h>
#include "models/prefetch.h"
#include "src/inputs/run_options.h"
#include "src/base/validate.h"

void mcpi_settings_init(mcpi_settings *s)
{
  *s = (mcpi_settings){.precision = MCP_DOUBLE, .normals = MCP_NORMALS_FUSED,
                       .prefetch = MCP_PREFETCH_NONE, .distance = MCPI_DEFAULT_DISTANCE,
                       .placement = MCP_PLACEMENT_AUTO, .grid_check = 1};
  mcp_pde_settings_init(&s->pde);
}

void mcpi_settings_resolve(const mcpi_settings *ctx, const mcpi_settings *book,
                           mcpi_settings *out)
{
  mcpi_settings_init(out);
  const mcpi_settings *from[2] = {book, ctx}; /* the context's last: it wins */
  for (int k = 0; k < 2; k++) {
    const mcpi_settings *f = from[k];
    if (!f)
      continue;
    if (f->given & MCPI_OPT_PRECISION)
      out->precision = f->precision;
    if (f->given & MCPI_OPT_NORMALS)
      out->normals = f->normals;
    if (f->given & MCPI_OPT_PREFETCH) {
      out->prefetch = f->prefetch;
      out->distance = f->distance;
      out->padding = f->padding;
    }
    if (f->given & MCPI_OPT_PLACEMENT)
      out->placement = f->placement;
    if (f->given & MCPI_OPT_PDE)
      out->pde = f->pde;
    if (f->given & MCPI_OPT_GRID_CHECK)
      out->grid_check = f->grid_check;
    if (f->given & MCPI_OPT_EXERCISE_BOUNDARY)
      out->exercise_boundary = f->exercise_boundary;
    out->given |= f->given;
  }
}

mcp_status mcpi_settings_grid_check(mcpi_settings *s, int on, char *err)
{
  if (on != 0 && on != 1)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "grid check: expected 0 (off) or 1 (on), got %d", on);
  s->grid_check = on;
  s->given |= MCPI_OPT_GRID_CHECK;
  return MCP_OK;
}

mcp_status mcpi_settings_exercise_boundary(mcpi_settings *s, int on, char *err)
{
  if (on != 0 && on != 1)
    return mcpi_fail(err, MCP_ERR_ARGUMENT,
                     "exercise boundary: expected 0 (off) or 1 (on), got %d", on);
  s->exercise_boundary = on;
  s->given |= MCPI_OPT_EXERCISE_BOUNDARY;
  return MCP_OK;
}

mcp_status mcpi_settings_precision(mcpi_settings *s, mcp_precision x, char *err)
{
  if (x != MCP_DOUBLE && x != MCP_FLOAT && x != MCP_MIXED)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "precision: expected double, float or mixed, got %d",
                     (int)x);
  s->precision = x;
  s->given |= MCPI_OPT_PRECISION;
  return MCP_OK;
}

mcp_status mcpi_settings_normals(mcpi_settings *s, mcp_normals x, char *err)
{
  if (x != MCP_NORMALS_FUSED && x != MCP_NORMALS_STORED)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "normals: expected fused or stored, got %d", (int)x);
  s->normals = x;
  s->given |= MCPI_OPT_NORMALS;
  return MCP_OK;
}

mcp_status mcpi_settings_prefetch(mcpi_settings *s, mcp_prefetch x, int distance, int padding,
                                  char *err)
{
  const char *why = mcpi_prefetch_check(x, distance, padding);
  if (why)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "%s", why);
  s->prefetch = x;
  s->distance = distance;
  s->padding = padding;
  s->given |= MCPI_OPT_PREFETCH;
  return MCP_OK;
}

mcp_status mcpi_settings_placement(mcpi_settings *s, mcp_placement x, char *err)
{
  if ((unsigned)x >= MCPI_NPLACEMENTS)
    return mcpi_fail(err, MCP_ERR_ARGUMENT,
                     "placement: expected " MCPI_PLACEMENT_NAMES_TEXT ", got %d", (int)x);
  s->placement = x;
  s->given |= MCPI_OPT_PLACEMENT;
  return MCP_OK;
}

mcp_status mcpi_settings_pde(mcpi_settings *s, const mcp_pde_settings *x, char *err)
{
  if (!x)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde: the settings are NULL");
  if (x->scheme != MCP_PDE_CRANK_NICOLSON && x->scheme != MCP_PDE_EXPLICIT)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.scheme: expected crank-nicolson or explicit");
  const char *why;
  if ((why = mcpi_check_stencil_points(x->stencil_points < 0 ? UINT64_MAX
                                                             : (uint64_t)x->stencil_points)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.stencil_points: expected %s, got %d", why,
                     x->stencil_points);
  if ((why = mcpi_check_space_points(x->space_points)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.space_points: expected %s, got %u", why,
                     x->space_points);
  if ((why = mcpi_check_time_steps(x->time_steps)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.time_steps: expected %s, got %u", why,
                     x->time_steps);
  if ((why = mcpi_check_rannacher(x->rannacher)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.rannacher: expected %s, got %u", why,
                     x->rannacher);
  if ((why = mcpi_check_width(x->width)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.width: expected %s, got %g", why, x->width);
  if ((unsigned)x->stencil > MCP_STENCIL_GLOBAL)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.stencil: expected regcache, smem or global");
  if ((why = mcpi_check_coarsening(x->coarsening < 0 ? UINT64_MAX : (uint64_t)x->coarsening)))
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "pde.coarsening: expected %s, got %d", why,
                     x->coarsening);
  s->pde = *x;
  s->given |= MCPI_OPT_PDE;
  return MCP_OK;
}

mcp_status mcpi_check_backend(mcp_backend b, char *err)
{
  if (b != MCP_BACKEND_AUTO && b != MCP_BACKEND_CPU && b != MCP_BACKEND_CUDA)
    return mcpi_fail(err, MCP_ERR_ARGUMENT, "backend: expected auto, cpu or cuda, got %d",
                     (int)b);
  return MCP_OK;
}

/* ---- the handle ---------------------------------------------------------- */

mcp_status mcp_run_options_create(mcp_run_options **options)
{
  if (!options)
    return mcpi_null(__func__, "options");
  mcp_run_options *o = calloc(1, sizeof *o);
  *options = o;
  if (!o)
    return mcpi_no_memory(__func__);
  mcpi_settings_init(&o->s);
  o->block = MCPI_DEFAULT_BLOCK;
  return MCP_OK;
}

void mcp_run_options_destroy(mcp_run_options *options) { free(options); }

const char *mcp_run_options_last_error(const mcp_run_options *o)
{
  return o ? o->err : "no run options";
}

mcp_status mcp_run_options_set_backend(mcp_run_options *o, mcp_backend backend)
{
  mcp_status st = !o ? mcpi_null(__func__, "options") : mcpi_check_backend(backend, o->err);
  if (st == MCP_OK) {
    o->backend = backend;
    o->s.given |= MCPI_OPT_BACKEND;
  }
  return st;
}

mcp_backend mcp_run_options_backend(const mcp_run_options *o)
{
  return o ? o->backend : MCP_BACKEND_AUTO;
}

mcp_status mcp_run_options_set_devices(mcp_run_options *o, size_t n, const int *devices)
{
  if (!o)
    return mcpi_null(__func__, "options");
  if (n < 1 || n > MCP_MAX_DEVICES || !devices)
    return mcpi_fail(o->err, MCP_ERR_ARGUMENT, "devices: expected a list of 1 to %d, got %zu",
                     MCP_MAX_DEVICES, devices ? n : 0);
  for (size_t i = 0; i < n; i++)
    if (devices[i] < 0)
      return mcpi_fail(o->err, MCP_ERR_ARGUMENT, "devices: expected ordinals from 0, got %d",
                       devices[i]);
  memcpy(o->devices, devices, n * sizeof *devices);
  o->ndevices = n;
  o->s.given |= MCPI_OPT_DEVICES;
  return MCP_OK;
}

size_t mcp_run_options_devices(const mcp_run_options *o, int *devices, size_t max)
{
  size_t n = o && (o->s.given & MCPI_OPT_DEVICES) ? o->ndevices : 0;
  for (size_t i = 0; devices && i < n && i < max; i++)
    devices[i] = o->devices[i];
  return n;
}

mcp_status mcp_run_options_set_tile_paths(mcp_run_options *o, uint64_t paths)
{
  if (!o)
    return mcpi_null(__func__, "options");
  const char *why = mcpi_check_tile_paths(paths);
  if (why)
    return mcpi_fail(o->err, MCP_ERR_ARGUMENT, "tile paths: expected %s, got %llu", why,
                     (unsigned long long)paths);
  o->tile_paths = paths;
  o->s.given |= MCPI_OPT_TILE;
  return MCP_OK;
}

uint64_t mcp_run_options_tile_paths(const mcp_run_options *o) { return o ? o->tile_paths : 0; }

mcp_status mcp_run_options_set_block_size(mcp_run_options *o, int threads)
{
  if (!o)
    return mcpi_null(__func__, "options");
  const char *why = mcpi_check_block_size(threads);
  if (why)
    return mcpi_fail(o->err, MCP_ERR_ARGUMENT, "block size: expected %s, got %d", why, threads);
  o->block = threads;
  o->s.given |= MCPI_OPT_BLOCK;
  return MCP_OK;
}

int mcp_run_options_block_size(const mcp_run_options *o)
{
  return o ? o->block : MCPI_DEFAULT_BLOCK;
}

mcp_status mcp_run_options_set_precision(mcp_run_options *o, mcp_precision precision)
{
  return o ? mcpi_settings_precision(&o->s, precision, o->err) : mcpi_null(__func__, "options");
}

mcp_precision mcp_run_options_precision(const mcp_run_options *o)
{
  return o ? o->s.precision : MCP_DOUBLE;
}

mcp_status mcp_run_options_set_normals(mcp_run_options *o, mcp_normals normals)
{
  return o ? mcpi_settings_normals(&o->s, normals, o->err) : mcpi_null(__func__, "options");
}

mcp_normals mcp_run_options_normals(const mcp_run_options *o)
{
  return o ? o->s.normals : MCP_NORMALS_FUSED;
}

mcp_status mcp_run_options_set_prefetch(mcp_run_options *o, mcp_prefetch strategy, int distance,
                                        int padding)
{
  return o ? mcpi_settings_prefetch(&o->s, strategy, distance, padding, o->err)
           : mcpi_null(__func__, "options");
}

void mcpi_settings_get_prefetch(const mcpi_settings *s, mcp_prefetch *strategy, int *distance,
                                int *padding)
{
  mcpi_settings d;
  mcpi_settings_init(&d);
  if (!s)
    s = &d;
  if (strategy)
    *strategy = s->prefetch;
  if (distance)
    *distance = s->distance;
  if (padding)
    *padding = s->padding;
}

void mcp_run_options_prefetch(const mcp_run_options *o, mcp_prefetch *strategy, int *distance,
                              int *padding)
{
  mcpi_settings_get_prefetch(o ? &o->s : NULL, strategy, distance, padding);
}

mcp_status mcp_run_options_set_placement(mcp_run_options *o, mcp_placement placement)
{
  return o ? mcpi_settings_placement(&o->s, placement, o->err) : mcpi_null(__func__, "options");
}

mcp_placement mcp_run_options_placement(const mcp_run_options *o)
{
  return o ? o->s.placement : MCP_PLACEMENT_AUTO;
}

mcp_status mcp_run_options_set_pde(mcp_run_options *o, const mcp_pde_settings *settings)
{
  return o ? mcpi_settings_pde(&o->s, settings, o->err) : mcpi_null(__func__, "options");
}

void mcp_run_options_pde(const mcp_run_options *o, mcp_pde_settings *settings)
{
  if (!settings)
    return;
  if (o)
    *settings = o->s.pde;
  else
    mcp_pde_settings_init(settings);
}

mcp_status mcp_run_options_set_grid_check(mcp_run_options *o, int on)
{
  return o ? mcpi_settings_grid_check(&o->s, on, o->err) : mcpi_null(__func__, "options");
}

int mcp_run_options_grid_check(const mcp_run_options *o) { return o ? o->s.grid_check : 1; }

mcp_status mcp_run_options_set_exercise_boundary(mcp_run_options *o, int on)
{
  return o ? mcpi_settings_exercise_boundary(&o->s, on, o->err) : mcpi_null(__func__, "options");
}

int mcp_run_options_exercise_boundary(const mcp_run_options *o)
{
  return o ? o->s.exercise_boundary : 0;
}
