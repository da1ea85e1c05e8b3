/* mpi_run.h: "mcprice price" under mpirun (a build configured --with-mpi):
 * every rank reads the inputs, computes its slice on its own device (by its
 * index on its host) or its CPU cores, and rank 0 merges and reports.
 * Without MPI the calls say so and do nothing. */
#ifndef MCPRICE_MPI_RUN_H
#define MCPRICE_MPI_RUN_H

#include "mcprice.h"

/* Whether the process is one of several that an MPI launcher started (and
 * the build has MPI): its environment says so.  One alone runs as a process
 * of its own. */
int cli_mpi_launched(void);
/* MPI_Init; the rank, or -1 after a message when it failed. */
int cli_mpi_init(void);
void cli_mpi_finalize(void);
/* The worst (largest) exit status of all ranks: a rank that failed to read
 * its inputs stops the others before the collective run. */
int cli_mpi_agree(int rc);
/* The rank's index among the ranks of its host. */
int cli_mpi_local_rank(void);
/* mcp_mpi_price over every rank, root 0. */
mcp_status cli_mpi_price(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, const mcp_scenarios *s, mcp_results **r,
                         mcp_scenario_results **sr);

#endif
