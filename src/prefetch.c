/* prefetch.c: names of precisions and prefetch strategies, and the check of a
 * strategy's distance and padding. */
#include "names.h"
#include "prefetch.h"

static const char *const precision_names[] = {"double", "float"};
static const char *const prefetch_names[MCPI_NSTRATEGIES] = {
    "none", "unroll", "scalar-batch", "smem-batch", "scalar-rolling", "smem-rolling",
    "smem-async"};

mcp_status mcp_precision_from_name(const char *name, mcp_precision *out)
{
  int i;
  mcp_status st = !out ? MCP_ERR_ARGUMENT : mcpi_name_parse(precision_names, 2, name, &i);
  if (st == MCP_OK)
    *out = (mcp_precision)i;
  return st;
}

const char *mcp_precision_name(mcp_precision p)
{
  return (unsigned)p < 2 ? precision_names[p] : "unknown";
}

mcp_status mcp_prefetch_from_name(const char *name, mcp_prefetch *out)
{
  int i;
  mcp_status st =
      !out ? MCP_ERR_ARGUMENT : mcpi_name_parse(prefetch_names, MCPI_NSTRATEGIES, name, &i);
  if (st == MCP_OK)
    *out = (mcp_prefetch)i;
  return st;
}

const char *mcp_prefetch_name(mcp_prefetch s)
{
  return (unsigned)s < MCPI_NSTRATEGIES ? prefetch_names[s] : "unknown";
}

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
