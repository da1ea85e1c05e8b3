/* results.c: reading results. */
#include <stdlib.h>
#include <string.h>
#include "results.h"

mcp_results *mcpi_results_alloc(size_t n)
{
  mcp_results *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->n = n;
  r->id = calloc(n, sizeof *r->id);
  r->quantity = calloc(n, sizeof *r->quantity);
  r->est = calloc(n, sizeof *r->est);
  r->engine = calloc(n, sizeof *r->engine);
  if (!r->id || !r->quantity || !r->est || !r->engine) {
    mcp_results_destroy(r);
    return NULL;
  }
  return r;
}

void mcp_results_destroy(mcp_results *r)
{
  if (!r)
    return;
  if (r->id)
    for (size_t i = 0; i < r->n; i++)
      free(r->id[i]);
  free(r->id);
  free(r->quantity);
  free(r->est);
  free(r->engine);
  free(r);
}

size_t mcp_results_count(const mcp_results *r) { return r ? r->n : 0; }

const char *mcp_results_trade_id(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->id[i] : NULL;
}

mcp_status mcp_results_trade(const mcp_results *r, size_t i, mcp_estimate *e)
{
  if (!r || !e)
    return MCP_ERR_ARGUMENT;
  if (i >= r->n)
    return MCP_ERR_NOT_FOUND;
  *e = r->est[i];
  return MCP_OK;
}

mcp_status mcp_results_find(const mcp_results *r, const char *id, size_t *index)
{
  if (!r || !id || !index)
    return MCP_ERR_ARGUMENT;
  for (size_t i = 0; i < r->n; i++)
    if (strcmp(r->id[i], id) == 0) {
      *index = i;
      return MCP_OK;
    }
  return MCP_ERR_NOT_FOUND;
}

double mcp_results_quantity(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->quantity[i] : 0.0;
}

mcp_engine mcp_results_engine(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->engine[i] : MCP_ENGINE_DEFAULT;
}

mcp_status mcp_results_total(const mcp_results *r, mcp_estimate *e)
{
  if (!r || !e)
    return MCP_ERR_ARGUMENT;
  *e = r->total;
  return MCP_OK;
}

uint64_t mcp_results_paths(const mcp_results *r) { return r ? r->paths : 0; }
uint64_t mcp_results_seed(const mcp_results *r) { return r ? r->seed : 0; }
mcp_backend mcp_results_backend(const mcp_results *r) { return r ? r->backend : MCP_BACKEND_AUTO; }
double mcp_results_seconds(const mcp_results *r) { return r ? r->seconds : 0.0; }
