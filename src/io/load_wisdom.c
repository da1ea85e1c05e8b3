/* load_wisdom.c: a wisdom's file (doc/wisdom-format.md), read and written:
 *   {"mcprice_wisdom": 1,
 *    "entries": [{"device": "NVIDIA H200", "capability": 90, "driver": 12080,
 *                 "shape": "double black-scholes plain", "normals": "fused",
 *                 "prefetch": "none", "prefetch_distance": 4, "padding": 0,
 *                 "block_size": 128, "tile_paths": 0,
 *                 "seconds": 0.0031, "rules_seconds": 0.0033}]} */
#include <stdlib.h>
#include <string.h>
#include "models/prefetch.h"
#include "src/io/load_run_options.h"
#include "src/inputs/wisdom.h"
#include "src/base/validate.h"

#define WISDOM_VERSION 1

static const char *const top_keys[] = {"mcprice_wisdom", "entries"};
static const char *const entry_keys[] = {"device",     "capability", "driver",
                                         "shape",      "normals",    "prefetch",
                                         "prefetch_distance", "padding", "block_size",
                                         "tile_paths", "seconds",    "rules_seconds"};
static const char *check_version(uint64_t v)
{
  return v == WISDOM_VERSION ? NULL : "1 (this build's wisdom format)";
}
static const char *check_block(uint64_t b)
{
  return b <= 1024 ? mcpi_check_block_size((int)b) : mcpi_check_block_size(0);
}

/* Entry k, at path, into e. */
static mcp_status read_entry(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             mcp_wisdom_entry *e)
{
  const char *device, *shape;
  uint64_t cap, drv, block = 128, tile = 0;
  int normals = MCP_NORMALS_FUSED, strategy = MCP_PREFETCH_NONE;
  int dist = MCPI_DEFAULT_DISTANCE, pad = 0;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, obj, "an object of a GPU's options for a shape",
                             entry_keys, MCPI_COUNT(entry_keys))) ||
      (st = mcpi_json_string(d, path, obj, "device", MCPI_REQUIRED, mcpi_check_wisdom_name,
                             &device)) ||
      (st = mcpi_json_uint(d, path, obj, "capability", MCPI_REQUIRED, mcpi_check_wisdom_capability,
                           &cap)) ||
      (st = mcpi_json_uint(d, path, obj, "driver", MCPI_REQUIRED, mcpi_check_wisdom_driver, &drv)) ||
      (st = mcpi_json_string(d, path, obj, "shape", MCPI_REQUIRED, mcpi_check_wisdom_name,
                             &shape)) ||
      (st = mcpi_json_enum(d, path, obj, "normals", MCPI_REQUIRED, mcpi_normals_choices,
                           &normals)) ||
      (st = mcpi_json_enum(d, path, obj, "prefetch", MCPI_REQUIRED, mcpi_strategy_choices,
                           &strategy)) ||
      (st = mcpi_json_distance(d, path, obj, MCPI_REQUIRED, &dist)) ||
      (st = mcpi_json_padding(d, path, obj, MCPI_REQUIRED, &pad)) ||
      (st = mcpi_json_uint(d, path, obj, "block_size", MCPI_REQUIRED, check_block, &block)) ||
      (st = mcpi_json_uint(d, path, obj, "tile_paths", MCPI_REQUIRED, mcpi_check_tile_paths,
                           &tile)))
    return st;
  *e = (mcp_wisdom_entry){.capability = (int)cap, .driver = (int)drv,
                          .normals = (mcp_normals)normals, .prefetch = (mcp_prefetch)strategy,
                          .distance = dist, .padding = pad, .block = (int)block,
                          .tile_paths = tile};
  strcpy(e->device, device); /* checked: shorter than the field */
  strcpy(e->shape, shape);
  if ((st = mcpi_json_number(d, path, obj, "seconds", MCPI_OPTIONAL, mcpi_check_wisdom_seconds,
                             &e->seconds)) ||
      (st = mcpi_json_number(d, path, obj, "rules_seconds", MCPI_OPTIONAL, mcpi_check_wisdom_seconds,
                             &e->rules_seconds)))
    return st;
  return MCP_OK;
}

static mcp_status fill_wisdom(const mcpi_json_doc *d, void *target)
{
  mcp_wisdom *w = target;
  const mcpi_json_path list_path = {NULL, "entries", 0};
  uint64_t version;
  json_t *list;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a wisdom object {mcprice_wisdom, entries}",
                             top_keys, MCPI_COUNT(top_keys))) ||
      (st = mcpi_json_uint(d, NULL, d->root, "mcprice_wisdom", MCPI_REQUIRED, check_version,
                           &version)) ||
      (st = mcpi_json_array(d, NULL, d->root, "entries", MCPI_REQUIRED, 0,
                            "an array of entries", &list)))
    return st;
  for (size_t k = 0; k < json_array_size(list); k++) {
    const mcpi_json_path path = {&list_path, NULL, k};
    mcp_wisdom_entry e;
    if ((st = read_entry(d, &path, json_array_get(list, k), &e)))
      return st;
    mcpi_gpu_id gpu = mcpi_gpu_of(&e);
    const mcp_wisdom_entry *old = mcpi_wisdom_find(w, &gpu, e.shape);
    if (old)
      return mcpi_json_fail(d, &path, 0, MCP_ERR_INPUT,
                            "the same device, capability, driver and shape as entries[%zu]; "
                            "expected one entry each",
                            (size_t)(old - w->e));
    if ((st = mcp_wisdom_put(w, &e)))
      return mcpi_json_fail(d, &path, 0, st, "%s", mcp_last_error());
  }
  return MCP_OK;
}

mcp_status mcp_wisdom_load(mcp_wisdom **wisdom, const char *path, char *err, size_t errlen)
{
  if (!wisdom || !path)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !wisdom ? "wisdom" : "path");
  mcp_status st = mcp_wisdom_create(wisdom);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_last_error());
  else if ((st = mcpi_json_load(path, NULL, 0, err, errlen, fill_wisdom, *wisdom))) {
    mcp_wisdom_destroy(*wisdom);
    *wisdom = NULL;
  }
  return st;
}

static json_t *entry_json(const mcp_wisdom_entry *e)
{
  json_t *o = json_object();
  int ok = o && !json_object_set_new(o, "device", json_string(e->device)) &&
           !json_object_set_new(o, "capability", json_integer(e->capability)) &&
           !json_object_set_new(o, "driver", json_integer(e->driver)) &&
           !json_object_set_new(o, "shape", json_string(e->shape)) &&
           !json_object_set_new(o, "normals", json_string(mcp_normals_name(e->normals))) &&
           !json_object_set_new(o, "prefetch", json_string(mcp_prefetch_name(e->prefetch))) &&
           !json_object_set_new(o, "prefetch_distance", json_integer(e->distance)) &&
           !json_object_set_new(o, "padding", e->padding == MCP_PADDING_INTERLEAVED
                                                  ? json_string("interleaved")
                                                  : json_integer(e->padding)) &&
           !json_object_set_new(o, "block_size", json_integer(e->block)) &&
           !json_object_set_new(o, "tile_paths", json_integer((json_int_t)e->tile_paths)) &&
           !json_object_set_new(o, "seconds", json_real(e->seconds)) &&
           !json_object_set_new(o, "rules_seconds", json_real(e->rules_seconds));
  if (!ok) {
    json_decref(o);
    return NULL;
  }
  return o;
}

mcp_status mcp_wisdom_save(const mcp_wisdom *wisdom, const char *path, char *err, size_t errlen)
{
  if (!wisdom || !path)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !wisdom ? "wisdom" : "path");
  mcp_output *o = NULL;
  mcp_status st = mcp_output_open(&o, path, NULL, 0, err, errlen);
  if (st != MCP_OK)
    return st;
  json_t *doc = json_object(), *list = json_array();
  int ok = doc && list && !json_object_set_new(doc, "mcprice_wisdom", json_integer(WISDOM_VERSION));
  for (size_t i = 0; ok && i < wisdom->n; i++)
    ok = !json_array_append_new(list, entry_json(&wisdom->e[i]));
  ok = ok && !json_object_set(doc, "entries", list);
  char *text = ok ? json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) : NULL;
  json_decref(list);
  json_decref(doc);
  if (!text)
    st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory writing the wisdom",
                      path);
  else if ((st = mcp_output_write(o, text, strlen(text), err, errlen)) == MCP_OK &&
           (st = mcp_output_write(o, "\n", 1, err, errlen)) == MCP_OK) {
    st = mcp_output_commit(o, err, errlen);
    o = NULL;
  }
  mcp_output_abort(o);
  free(text);
  return st;
}
