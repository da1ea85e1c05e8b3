/* load_run_options.c: reading the run options from a portfolio file's run
 * object (doc/input-schema.md). */
#include <string.h>
#include "src/io/load_run_options.h"
#include "models/prefetch.h"
#include "src/base/validate.h"

/* in the order messages list them (the book's keys are paths, seed,
 * steps_per_year, grid, methods, scramblings, heston_scheme,
 * regression_paths and pde's products) */
const char *const mcpi_run_keys[] = {"paths", "seed", "steps_per_year", "grid", "backend",
                                     "precision", "prefetch", "prefetch_distance", "padding",
                                     "methods", "scramblings", "heston_scheme", "pde",
                                     "placement", "normals", "regression_paths", "grid_check",
                                     "exercise_boundary"};
const size_t mcpi_nrun_keys = MCPI_COUNT(mcpi_run_keys);
const char *const mcpi_pde_keys[] = {"scheme", "stencil_points", "space_points", "time_steps",
                                     "rannacher", "width", "stencil", "coarsening", "products"};
const size_t mcpi_npde_keys = MCPI_COUNT(mcpi_pde_keys);
static const char *const top_keys[] = {"run", "trades"};

static const mcpi_json_choice pde_schemes[] = {{"crank-nicolson", MCP_PDE_CRANK_NICOLSON},
                                               {"explicit", MCP_PDE_EXPLICIT},
                                               {NULL, 0}};
static const mcpi_json_choice stencils[] = {{"regcache", MCP_STENCIL_REGCACHE},
                                            {"smem", MCP_STENCIL_SMEM},
                                            {"global", MCP_STENCIL_GLOBAL},
                                            {NULL, 0}};
static const mcpi_json_choice backends[] = {
    {"auto", MCP_BACKEND_AUTO}, {"cpu", MCP_BACKEND_CPU}, {"cuda", MCP_BACKEND_CUDA}, {NULL, 0}};
static const mcpi_json_choice placements[] = {{"auto", MCP_PLACEMENT_AUTO},
                                              {"registers", MCP_PLACEMENT_REGISTERS},
                                              {"local", MCP_PLACEMENT_LOCAL},
                                              {"shared", MCP_PLACEMENT_SHARED},
                                              {NULL, 0}};
const mcpi_json_choice mcpi_normals_choices[] = {
    {"fused", MCP_NORMALS_FUSED}, {"stored", MCP_NORMALS_STORED}, {NULL, 0}};
static const mcpi_json_choice precisions[] = {
    {"double", MCP_DOUBLE}, {"float", MCP_FLOAT}, {"mixed", MCP_MIXED}, {NULL, 0}};
const mcpi_json_choice mcpi_strategy_choices[] = {
    {"none", MCP_PREFETCH_NONE},
    {"unroll", MCP_PREFETCH_UNROLL},
    {"scalar-batch", MCP_PREFETCH_SCALAR_BATCH},
    {"smem-batch", MCP_PREFETCH_SMEM_BATCH},
    {"scalar-rolling", MCP_PREFETCH_SCALAR_ROLLING},
    {"smem-rolling", MCP_PREFETCH_SMEM_ROLLING},
    {"smem-async", MCP_PREFETCH_SMEM_ASYNC},
    {NULL, 0}};

static const char *check_distance(uint64_t d)
{
  return d <= 16 && mcpi_prefetch_distance_index((int)d) >= 0
             ? NULL
             : "one of " MCPI_PREFETCH_DISTANCES_TEXT;
}

static const char *check_padding(uint64_t p)
{
  return p <= MCPI_MAX_PADDING ? NULL : "an integer from 0 to 32, or \"interleaved\"";
}

mcp_status mcpi_json_distance(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                              int required, int *out)
{
  uint64_t x = (uint64_t)*out;
  mcp_status st = mcpi_json_uint(d, path, obj, "prefetch_distance", required, check_distance, &x);
  *out = (int)x;
  return st;
}

mcp_status mcpi_json_padding(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             int required, int *out)
{
  json_t *v = json_object_get(obj, "padding");
  if (v && json_is_string(v) && strcmp(json_string_value(v), "interleaved") == 0) {
    *out = MCP_PADDING_INTERLEAVED;
    return MCP_OK;
  }
  uint64_t x = *out < 0 ? 0 : (uint64_t)*out;
  mcp_status st = mcpi_json_uint(d, path, obj, "padding", required, check_padding, &x);
  *out = (int)x;
  return st;
}

static int has(json_t *obj, const char *key) { return json_object_get(obj, key) != NULL; }

/* The grid's numerics of the pde object, if it gives any. */
static mcp_status read_pde(const mcpi_json_doc *d, const mcpi_json_path *run_path, json_t *run,
                           mcp_run_options *o)
{
  const mcpi_json_path path = {run_path, "pde", 0};
  const char *what = "an object of finite-difference settings";
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  uint64_t points = (uint64_t)s.stencil_points, nodes = s.space_points, steps = s.time_steps,
           rannacher = s.rannacher, coarsening = (uint64_t)s.coarsening;
  int scheme = s.scheme, stencil = s.stencil;
  json_t *pde;
  mcp_status st = mcpi_json_member(d, run_path, run, "pde", MCPI_OPTIONAL, what, &pde);
  if (st != MCP_OK || !pde)
    return st;
  if ((st = mcpi_json_object(d, &path, pde, what, mcpi_pde_keys, mcpi_npde_keys)) ||
      (st = mcpi_json_enum(d, &path, pde, "scheme", MCPI_OPTIONAL, pde_schemes, &scheme)) ||
      (st = mcpi_json_uint(d, &path, pde, "stencil_points", MCPI_OPTIONAL,
                           mcpi_check_stencil_points, &points)) ||
      (st = mcpi_json_uint(d, &path, pde, "space_points", MCPI_OPTIONAL, mcpi_check_space_points,
                           &nodes)) ||
      (st = mcpi_json_uint(d, &path, pde, "time_steps", MCPI_OPTIONAL, mcpi_check_time_steps,
                           &steps)) ||
      (st = mcpi_json_uint(d, &path, pde, "rannacher", MCPI_OPTIONAL, mcpi_check_rannacher,
                           &rannacher)) ||
      (st = mcpi_json_number(d, &path, pde, "width", MCPI_OPTIONAL, mcpi_check_width, &s.width)) ||
      (st = mcpi_json_enum(d, &path, pde, "stencil", MCPI_OPTIONAL, stencils, &stencil)) ||
      (st = mcpi_json_uint(d, &path, pde, "coarsening", MCPI_OPTIONAL, mcpi_check_coarsening,
                           &coarsening)))
    return st;
  if (json_object_size(pde) == (size_t)has(pde, "products"))
    return MCP_OK; /* no numerics: the book's products alone */
  s.scheme = (mcp_pde_scheme)scheme;
  s.stencil_points = (int)points;
  s.space_points = (unsigned)nodes;
  s.time_steps = (unsigned)steps;
  s.rannacher = (unsigned)rannacher;
  s.stencil = (mcp_stencil)stencil;
  s.coarsening = (int)coarsening;
  if ((st = mcp_run_options_set_pde(o, &s)) != MCP_OK)
    return mcpi_json_fail(d, &path, 0, st, "%s", o->err);
  return MCP_OK;
}

mcp_status mcpi_read_run_options(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *run,
                                 mcp_run_options *o)
{
  int backend = MCP_BACKEND_AUTO, precision = MCP_DOUBLE, strategy = MCP_PREFETCH_NONE;
  int placement = MCP_PLACEMENT_AUTO, normals = MCP_NORMALS_FUSED, padding = 0;
  int dist = MCPI_DEFAULT_DISTANCE;
  mcp_status st;
  if ((st = mcpi_json_enum(d, path, run, "backend", MCPI_OPTIONAL, backends, &backend)) ||
      (st = mcpi_json_enum(d, path, run, "precision", MCPI_OPTIONAL, precisions, &precision)) ||
      (st = mcpi_json_enum(d, path, run, "prefetch", MCPI_OPTIONAL, mcpi_strategy_choices,
                           &strategy)) ||
      (st = mcpi_json_distance(d, path, run, MCPI_OPTIONAL, &dist)) ||
      (st = mcpi_json_enum(d, path, run, "placement", MCPI_OPTIONAL, placements, &placement)) ||
      (st = mcpi_json_enum(d, path, run, "normals", MCPI_OPTIONAL, mcpi_normals_choices,
                           &normals)) ||
      (st = mcpi_json_padding(d, path, run, MCPI_OPTIONAL, &padding)) ||
      (st = read_pde(d, path, run, o)))
    return st;
  json_t *check = json_object_get(run, "grid_check");
  if (check && !json_is_boolean(check))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "grid_check", 0}, "true or false");
  json_t *bound = json_object_get(run, "exercise_boundary");
  if (bound && !json_is_boolean(bound))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "exercise_boundary", 0},
                              "true or false");
  int prefetch = has(run, "prefetch") || has(run, "prefetch_distance") || has(run, "padding");
  if ((has(run, "backend") && (st = mcp_run_options_set_backend(o, (mcp_backend)backend))) ||
      (has(run, "precision") &&
       (st = mcp_run_options_set_precision(o, (mcp_precision)precision))) ||
      (prefetch &&
       (st = mcp_run_options_set_prefetch(o, (mcp_prefetch)strategy, dist, padding))) ||
      (has(run, "placement") &&
       (st = mcp_run_options_set_placement(o, (mcp_placement)placement))) ||
      (has(run, "normals") && (st = mcp_run_options_set_normals(o, (mcp_normals)normals))) ||
      (check && (st = mcp_run_options_set_grid_check(o, json_is_true(check)))) ||
      (bound && (st = mcp_run_options_set_exercise_boundary(o, json_is_true(bound)))))
    return mcpi_json_fail(d, path, 0, st, "%s", o->err);
  return MCP_OK;
}

mcp_status mcpi_run_options_fill(const mcpi_json_doc *d, void *target)
{
  const mcpi_json_path path = {NULL, "run", 0};
  const char *what = "an object of run settings";
  json_t *run;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a portfolio object", top_keys,
                             MCPI_COUNT(top_keys))) ||
      (st = mcpi_json_member(d, NULL, d->root, "run", MCPI_OPTIONAL, what, &run)) || !run)
    return st;
  if ((st = mcpi_json_object(d, &path, run, what, mcpi_run_keys, mcpi_nrun_keys)))
    return st;
  return mcpi_read_run_options(d, &path, run, target);
}

static mcp_status load(const char *fn, mcp_run_options **options, const char *path,
                       const char *text, size_t len, char *err, size_t errlen)
{
  if (!options)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: options is NULL", fn);
  mcp_status st = mcp_run_options_create(options);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_last_error());
  else if ((st = mcpi_json_load_book(path, text, len, err, errlen, mcpi_run_options_fill,
                                     *options))) {
    mcp_run_options_destroy(*options);
    *options = NULL;
  }
  return st;
}

mcp_status mcp_run_options_load(mcp_run_options **options, const char *path, char *err,
                                size_t errlen)
{
  return load(__func__, options, path, NULL, 0, err, errlen);
}

mcp_status mcp_run_options_load_text(mcp_run_options **options, const char *name,
                                     const char *text, size_t len, char *err, size_t errlen)
{
  return load(__func__, options, name, text ? text : "", text ? len : 0, err, errlen);
}
