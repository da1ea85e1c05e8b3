/* mpi.c: mcp_mpi_price, the slices of one pricing over the ranks of a
 * communicator, merged on the root. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "mcprice_mpi.h"
#include "src/scale/scale.h"

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
  *st = parts ? MCP_OK : mcpi_no_memory(__func__);
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
  double t0 = MPI_Wtime();
  if (!ctx)
    return mcpi_null(__func__, "ctx");
  mcpi_call_begin(ctx);
  if (results)
    *results = NULL;
  if (scenario_results)
    *scenario_results = NULL;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS ||
      size < 1 || root < 0 || root >= size)
    return mcpi_call_end(ctx, mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                                            "mcp_mpi_price: a bad communicator or root"));
  /* one backend throughout, or no run */
  int b = (int)ctx->backend, lo, hi;
  MPI_Allreduce(&b, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&b, &hi, 1, MPI_INT, MPI_MAX, comm);
  if (lo != hi)
    return mcpi_call_end(
        ctx, mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                       "mcp_mpi_price: the ranks run on the %s and %s backends, whose last "
                       "bits differ; give every rank one", mcp_backend_name((mcp_backend)lo),
                       mcp_backend_name((mcp_backend)hi)));
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
  outcome *all = NULL;
  int *count = NULL, *displ = NULL;
  char *buf = NULL, msg[MCPI_ERRLEN] = "";
  mcp_status final = MCP_OK;
  /* root's buffers: every rank learns whether they are there before each
   * gather, so that none waits on a gather root cannot take */
  long long room[2] = {1, 0}; /* root can receive; the bytes in all */
  if (rank == root) {
    all = calloc((size_t)size, sizeof *all);
    count = calloc((size_t)size, sizeof *count);
    displ = calloc((size_t)size, sizeof *displ);
    room[0] = all && count && displ;
  }
  MPI_Bcast(room, 2, MPI_LONG_LONG, root, comm);
  if (room[0]) {
    MPI_Gather(&mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, root, comm);
    for (int k = 0; rank == root && k < size; k++) {
      count[k] = (int)all[k].len;
      displ[k] = (int)(room[1] <= INT_MAX ? room[1] : 0);
      room[1] += all[k].len;
    }
    if (rank == root)
      room[0] = room[1] <= INT_MAX && (buf = malloc(room[1] ? (size_t)room[1] : 1)) != NULL;
    MPI_Bcast(room, 2, MPI_LONG_LONG, root, comm);
  }
  if (room[0]) {
    MPI_Gatherv(send, (int)mine.len, MPI_BYTE, buf, count, displ, MPI_BYTE, root, comm);
    if (rank == root)
      merge_on_root(ctx, all, buf, displ, size, market, portfolio, greeks, scenarios, results,
                    scenario_results, &final, msg);
  } else {
    if (room[1] > INT_MAX)
      final = mcpi_fail(msg, MCP_ERR_NO_MEMORY,
                        "the ranks' partial results, %lld bytes in all, exceed one MPI message "
                        "(2 GiB): price the scenario grid in parts, or over fewer ranks",
                        room[1]);
    else
      final = mcpi_fail(msg, MCP_ERR_NO_MEMORY,
                        "out of memory on rank %d gathering the partial results", root);
  }
  int f = (int)final;
  MPI_Bcast(&f, 1, MPI_INT, root, comm);
  MPI_Bcast(msg, sizeof msg, MPI_CHAR, root, comm);
  if (f != MCP_OK)
    mcpi_fail(ctx->err, (mcp_status)f, "%s", msg);
  else if (rank == root) /* the call's time, not the sum of the ranks' */
    mcpi_set_seconds(results ? *results : NULL, scenario_results ? *scenario_results : NULL,
                     MPI_Wtime() - t0);
  free(bytes);
  free(all);
  free(count);
  free(displ);
  free(buf);
  return mcpi_call_end(ctx, (mcp_status)f);
}
