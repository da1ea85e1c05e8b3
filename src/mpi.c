/* mpi.c: mcp_mpi_price, the slices of one pricing over the ranks of a
 * communicator, merged on the root. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "mcprice_mpi.h"

/* Each rank's outcome: a status and the length of what it sends (its
 * partial's bytes, or its message). */
typedef struct outcome {
  long long status, len;
} outcome;

/* The ranks' partials, decoded and merged on root: the first failure's
 * status into *st and message into msg. */
static void merge_on_root(mcp_context *ctx, const outcome *all, const char *buf,
                          const int *displ, int size, const mcp_market *m, const mcp_portfolio *p,
                          const mcp_greeks *g, const mcp_scenarios *s, mcp_results **r,
                          mcp_scenario_results **sr, mcp_status *st, char *msg)
{
  for (int k = 0; k < size; k++)
    if (all[k].status != MCP_OK) {
      *st = (mcp_status)all[k].status;
      snprintf(msg, MCPI_ERRLEN, "rank %d: %.*s", k, (int)all[k].len, buf + displ[k]);
      return;
    }
  mcp_partial **parts = size > 0 ? calloc((size_t)size, sizeof *parts) : NULL;
  *st = parts ? MCP_OK : MCP_ERR_NO_MEMORY;
  if (!parts)
    snprintf(msg, MCPI_ERRLEN, "out of memory merging the ranks' partial results");
  for (int k = 0; *st == MCP_OK && k < size; k++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", k);
    *st = mcp_partial_decode(&parts[k], buf + displ[k], (size_t)all[k].len, name, msg,
                             MCPI_ERRLEN);
  }
  if (*st == MCP_OK &&
      (*st = mcp_partials_merge(ctx, m, p, g, s, parts, (size_t)size, r, sr)) != MCP_OK)
    snprintf(msg, MCPI_ERRLEN, "%s", ctx->err);
  for (int k = 0; parts && k < size; k++)
    mcp_partial_destroy(parts[k]);
  free(parts);
}

mcp_status mcp_mpi_price(mcp_context *ctx, MPI_Comm comm, int root, const mcp_market *market,
                         const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                         const mcp_scenarios *scenarios, mcp_results **results,
                         mcp_scenario_results **scenario_results)
{
  int rank, size;
  if (!ctx)
    return MCP_ERR_ARGUMENT;
  if (results)
    *results = NULL;
  if (scenario_results)
    *scenario_results = NULL;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS ||
      size < 1 || root < 0 || root >= size)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_mpi_price: a bad communicator or root");
  /* one backend throughout, or no run */
  int b = (int)ctx->backend, lo, hi;
  MPI_Allreduce(&b, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&b, &hi, 1, MPI_INT, MPI_MAX, comm);
  if (lo != hi)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "mcp_mpi_price: the ranks run on the %s and %s backends, whose last bits "
                     "differ; give every rank one", mcp_backend_name((mcp_backend)lo),
                     mcp_backend_name((mcp_backend)hi));
  mcp_partial *part = NULL;
  void *bytes = NULL;
  size_t len = 0;
  mcp_status st = mcp_price_slice(ctx, market, portfolio, greeks, scenarios, (unsigned)rank,
                                  (unsigned)size, &part);
  if (st == MCP_OK && (st = mcp_partial_encode(part, &bytes, &len)) != MCP_OK)
    mcpi_fail(ctx->err, st, "out of memory encoding the partial result");
  if (st == MCP_OK && len > INT_MAX)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY,
                   "a partial result of %zu bytes, more than one MPI message holds", len);
  mcp_partial_destroy(part);
  const char *send = st == MCP_OK ? bytes : ctx->err;
  outcome mine = {st, st == MCP_OK ? (long long)len : (long long)strlen(ctx->err)};
  outcome *all = rank == root ? calloc((size_t)size, sizeof *all) : NULL;
  int *count = rank == root ? calloc((size_t)size, sizeof *count) : NULL;
  int *displ = rank == root ? calloc((size_t)size, sizeof *displ) : NULL;
  int ok = rank != root || (all && count && displ);
  /* root needs its buffers; a root without them still takes part */
  MPI_Gather(&mine, 2, MPI_LONG_LONG, ok ? (void *)all : NULL, 2, MPI_LONG_LONG, root, comm);
  long long total = 0;
  for (int k = 0; rank == root && ok && k < size; k++) {
    count[k] = (int)all[k].len;
    displ[k] = (int)total;
    total += all[k].len;
  }
  char *buf = rank == root && ok && total <= INT_MAX ? malloc(total ? (size_t)total : 1) : NULL;
  if (rank == root && !buf)
    ok = 0;
  MPI_Gatherv(send, (int)mine.len, MPI_BYTE, buf, count, displ, MPI_BYTE, root, comm);
  char msg[MCPI_ERRLEN] = "";
  mcp_status final = MCP_OK;
  if (rank == root) {
    if (!ok) {
      final = MCP_ERR_NO_MEMORY;
      snprintf(msg, sizeof msg, "out of memory gathering the ranks' partial results");
    } else
      merge_on_root(ctx, all, buf, displ, size, market, portfolio, greeks, scenarios, results,
                    scenario_results, &final, msg);
  }
  int f = (int)final;
  MPI_Bcast(&f, 1, MPI_INT, root, comm);
  MPI_Bcast(msg, sizeof msg, MPI_CHAR, root, comm);
  if (f != MCP_OK)
    snprintf(ctx->err, sizeof ctx->err, "%s", msg);
  free(bytes);
  free(all);
  free(count);
  free(displ);
  free(buf);
  return (mcp_status)f;
}
