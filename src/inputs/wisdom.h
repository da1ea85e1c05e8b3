/* wisdom.h: the kernel options measured fastest for a GPU and a shape of
 * job (mcp_wisdom in mcprice.h): the entries, their checks, their lookup. */
#ifndef MCP_WISDOM_H
#define MCP_WISDOM_H

#include <string.h>
#include "src/base/error.h"

struct mcp_wisdom {
  mcp_wisdom_entry *e;
  size_t n, cap;
};

/* A GPU as wisdom knows it: its name, compute capability and driver. */
typedef struct mcpi_gpu_id {
  char device[MCP_WISDOM_NAME];
  int capability, driver;
} mcpi_gpu_id;

/* The GPU an entry is of. */
static inline mcpi_gpu_id mcpi_gpu_of(const mcp_wisdom_entry *e)
{
  mcpi_gpu_id g = {.capability = e->capability, .driver = e->driver};
  memcpy(g.device, e->device, sizeof g.device);
  return g;
}

/* NULL when e is valid, else the phrase of what was expected and, in
 * *field, the field's name as the file calls it. */
const char *mcpi_wisdom_check(const mcp_wisdom_entry *e, const char **field);
/* A device's or a shape's name: 1 to MCP_WISDOM_NAME - 1 bytes of UTF-8,
 * no control character. */
const char *mcpi_check_wisdom_name(const char *s);
/* A compute capability (10 to 999), a driver version (1000 to 999999), a
 * time (0 to 1e9 seconds). */
const char *mcpi_check_wisdom_capability(uint64_t c);
const char *mcpi_check_wisdom_driver(uint64_t d);
const char *mcpi_check_wisdom_seconds(double s);
/* The entry of gpu and shape, or NULL (w NULL too). */
const mcp_wisdom_entry *mcpi_wisdom_find(const mcp_wisdom *w, const mcpi_gpu_id *gpu,
                                         const char *shape);
/* A copy of w (NULL for NULL), or MCP_ERR_NO_MEMORY with its message. */
mcp_status mcpi_wisdom_copy(const mcp_wisdom *w, mcp_wisdom **out, char *err);

#endif
