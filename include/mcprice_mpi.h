/* mcprice_mpi.h: one pricing over the ranks of an MPI communicator (a
 * build configured --with-mpi).  Include it after mpi.h is available (the
 * pkg-config file's Cflags give its path); link libmcprice. */
#ifndef MCPRICE_MPI_H
#define MCPRICE_MPI_H

#include <mpi.h>
#include "mcprice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: every rank calls it with the same inputs (market,
 * portfolio, Greeks or scenarios as for mcp_price_slice) and a context of
 * the same backend (each on its own device where it has one: the caller
 * chooses, for example by the rank's index on its host).  Rank r computes
 * slice r of the communicator's size; the partials travel to root in rank
 * order, and root merges them into *results (a scenario grid: into
 * *scenario_results), the same bits as one process's mcp_price; the other
 * ranks get NULL; their seconds are the call's on root.  Every rank returns
 * the same status, and a failure's
 * message (the lowest failing rank's, "rank R: ...") is in every rank's
 * context.  Ranks on different backends are MCP_ERR_ARGUMENT: their last
 * bits would differ. */
mcp_status mcp_mpi_price(mcp_context *ctx, MPI_Comm comm, int root, const mcp_market *market,
                         const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                         const mcp_scenarios *scenarios, mcp_results **results,
                         mcp_scenario_results **scenario_results);

#ifdef __cplusplus
}
#endif
#endif /* MCPRICE_MPI_H */
