/* prefetch.c: names of precisions, prefetch strategies, normals modes and
 * private-array placements, and the check of a strategy's distance and padding. */
#include "src/base/names.h"
#include "models/prefetch.h"

static const char *const precision_names[] = {"double", "float", "mixed"};
static const char *const prefetch_names[MCPI_NSTRATEGIES] = {
    "none", "unroll", "scalar-batch", "smem-batch", "scalar-rolling", "smem-rolling",
    "smem-async"};
static const char *const placement_names[MCPI_NPLACEMENTS] = {"auto", "registers", "local",
                                                                "shared"};
static const char *const normals_names[] = {"fused", "stored"};

MCPI_NAMED_ENUM(mcp_precision, mcp_precision_from_name, mcp_precision_name, precision_names,
                "unknown")
MCPI_NAMED_ENUM(mcp_prefetch, mcp_prefetch_from_name, mcp_prefetch_name, prefetch_names,
                "unknown")
MCPI_NAMED_ENUM(mcp_placement, mcp_placement_from_name, mcp_placement_name, placement_names,
                "unknown")
MCPI_NAMED_ENUM(mcp_normals, mcp_normals_from_name, mcp_normals_name, normals_names, "unknown")

const char *mcpi_prefetch_check(mcp_prefetch s, int distance, int padding)
{
  if ((unsigned)s >= MCPI_NSTRATEGIES)
    return "strategy: expected one of " MCPI_PREFETCH_NAMES_TEXT;
  if (mcpi_prefetch_distance_index(distance) < 0)
    return "prefetch distance: expected one of " MCPI_PREFETCH_DISTANCES_TEXT;
  if (padding != MCP_PADDING_INTERLEAVED && (padding < 0 || padding > MCPI_MAX_PADDING))
    return "padding: expected an integer from 0 to 32, or interleaved";
  return NULL;
}
