/* wisdom.c: a wisdom's entries (mcp_wisdom), checked as they are put. */
#include <stdlib.h>
#include <string.h>
#include "models/prefetch.h"
#include "src/inputs/wisdom.h"
#include "src/base/validate.h"

mcp_status mcp_wisdom_create(mcp_wisdom **wisdom)
{
  if (!wisdom)
    return mcpi_null(__func__, "wisdom");
  if (!(*wisdom = calloc(1, sizeof **wisdom)))
    return mcpi_no_memory(__func__);
  return MCP_OK;
}

void mcp_wisdom_destroy(mcp_wisdom *wisdom)
{
  if (!wisdom)
    return;
  free(wisdom->e);
  free(wisdom);
}

size_t mcp_wisdom_count(const mcp_wisdom *wisdom) { return wisdom ? wisdom->n : 0; }

mcp_status mcp_wisdom_get(const mcp_wisdom *wisdom, size_t i, mcp_wisdom_entry *out)
{
  if (!wisdom || !out)
    return mcpi_null(__func__, !wisdom ? "wisdom" : "out");
  if (i >= wisdom->n)
    return mcpi_error(MCP_ERR_ARGUMENT, "mcp_wisdom_get: entry %zu of %zu", i, wisdom->n);
  *out = wisdom->e[i];
  return MCP_OK;
}

const char *mcpi_check_wisdom_name(const char *s)
{
  static const char what[] =
      "a name of 1 to 63 bytes (UTF-8, without control characters, commas or quotes)";
  return !s || strnlen(s, MCP_WISDOM_NAME) == MCP_WISDOM_NAME || mcpi_check_name(s) ? what
                                                                                    : NULL;
}

const char *mcpi_check_wisdom_capability(uint64_t c)
{
  return c >= 10 && c <= 999 ? NULL : "a compute capability, major x 10 + minor, 10 to 999";
}

const char *mcpi_check_wisdom_driver(uint64_t d)
{
  return d >= 1000 && d <= 999999 ? NULL : "a CUDA driver version, 1000 to 999999 (12080: 12.8)";
}

const char *mcpi_check_wisdom_seconds(double s)
{
  return s >= 0 && s <= 1e9 ? NULL : "a number of seconds, 0 or more";
}

const char *mcpi_wisdom_check(const mcp_wisdom_entry *e, const char **field)
{
  const char *why;
#define CHECK(name, phrase)                                                                  \
  if ((why = (phrase))) {                                                                    \
    *field = name;                                                                           \
    return why;                                                                              \
  }
  CHECK("device", mcpi_check_wisdom_name(e->device));
  CHECK("capability", mcpi_check_wisdom_capability((uint64_t)(int64_t)e->capability));
  CHECK("driver", mcpi_check_wisdom_driver((uint64_t)(int64_t)e->driver));
  CHECK("shape", mcpi_check_wisdom_name(e->shape));
  CHECK("normals", e->normals != MCP_NORMALS_FUSED && e->normals != MCP_NORMALS_STORED
                       ? "fused or stored"
                       : NULL);
  CHECK("prefetch", (unsigned)e->prefetch > MCP_PREFETCH_SMEM_ASYNC ? "a prefetch strategy" : NULL);
  CHECK("prefetch_distance",
        mcpi_prefetch_distance_index(e->distance) < 0 ? "one of " MCPI_PREFETCH_DISTANCES_TEXT
                                                      : NULL);
  CHECK("padding", (e->padding < 0 || e->padding > MCPI_MAX_PADDING) &&
                           e->padding != MCP_PADDING_INTERLEAVED
                       ? "an integer from 0 to 32, or \"interleaved\""
                       : NULL);
  CHECK("block_size", mcpi_check_block_size(e->block));
  CHECK("tile_paths", mcpi_check_tile_paths(e->tile_paths));
  CHECK("seconds", mcpi_check_wisdom_seconds(e->seconds));
  CHECK("rules_seconds", mcpi_check_wisdom_seconds(e->rules_seconds));
#undef CHECK
  return NULL;
}

static int same_key(const mcp_wisdom_entry *a, const mcpi_gpu_id *gpu, const char *shape)
{
  return a->capability == gpu->capability && a->driver == gpu->driver &&
         strcmp(a->device, gpu->device) == 0 && strcmp(a->shape, shape) == 0;
}

const mcp_wisdom_entry *mcpi_wisdom_find(const mcp_wisdom *w, const mcpi_gpu_id *gpu,
                                         const char *shape)
{
  for (size_t i = 0; w && i < w->n; i++)
    if (same_key(&w->e[i], gpu, shape))
      return &w->e[i];
  return NULL;
}

mcp_status mcp_wisdom_put(mcp_wisdom *wisdom, const mcp_wisdom_entry *entry)
{
  if (!wisdom || !entry)
    return mcpi_null(__func__, !wisdom ? "wisdom" : "entry");
  const char *field = NULL, *why = mcpi_wisdom_check(entry, &field);
  if (why)
    return mcpi_error(MCP_ERR_ARGUMENT, "mcp_wisdom_put: %s: expected %s", field, why);
  mcpi_gpu_id gpu = mcpi_gpu_of(entry);
  mcp_wisdom_entry *old = (mcp_wisdom_entry *)mcpi_wisdom_find(wisdom, &gpu, entry->shape);
  if (old) {
    *old = *entry;
    return MCP_OK;
  }
  if (wisdom->n == wisdom->cap) {
    size_t cap = wisdom->cap ? 2 * wisdom->cap : 8;
    mcp_wisdom_entry *e = realloc(wisdom->e, cap * sizeof *e);
    if (!e)
      return mcpi_no_memory(__func__);
    wisdom->e = e;
    wisdom->cap = cap;
  }
  wisdom->e[wisdom->n++] = *entry;
  return MCP_OK;
}

mcp_status mcpi_wisdom_copy(const mcp_wisdom *w, mcp_wisdom **out, char *err)
{
  *out = NULL;
  if (!w)
    return MCP_OK;
  mcp_wisdom *c = calloc(1, sizeof *c);
  if (c && w->n && (c->e = malloc(w->n * sizeof *c->e))) {
    memcpy(c->e, w->e, w->n * sizeof *c->e);
    c->n = c->cap = w->n;
  }
  if (!c || (w->n && !c->e)) {
    mcp_wisdom_destroy(c);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory copying the wisdom");
  }
  *out = c;
  return MCP_OK;
}
