/* mpi_run.c: the MPI calls of "mcprice price" (mpi_run.h). */
#include <stdlib.h>
#include "config.h"
#include "src/cli/cli.h"
#include "src/cli/mpi_run.h"
#ifdef MCP_HAVE_MPI
#include "mcprice_mpi.h"

/* The count of ranks a launcher's variable names, 0 when unset. */
static long ranks(const char *var)
{
  const char *v = getenv(var);
  return v ? strtol(v, NULL, 10) : 0;
}

int cli_mpi_launched(void)
{
  /* Open MPI's and MPICH/Hydra's sizes; PMIx (srun) gives a rank alone */
  long n = ranks("OMPI_COMM_WORLD_SIZE") ? ranks("OMPI_COMM_WORLD_SIZE") : ranks("PMI_SIZE");
  return n > 1 || (n == 0 && getenv("PMIX_RANK") && ranks("SLURM_NTASKS") > 1);
}

int cli_mpi_init(void)
{
  int rank;
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS || MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) {
    cli_error("cannot start MPI");
    return -1;
  }
  return rank;
}

void cli_mpi_finalize(void) { MPI_Finalize(); }

int cli_mpi_agree(int rc)
{
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

int cli_mpi_local_rank(void)
{
  MPI_Comm local;
  int rank = 0;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(local, &rank);
    MPI_Comm_free(&local);
  }
  return rank;
}

mcp_status cli_mpi_price(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, const mcp_scenarios *s, mcp_results **r,
                         mcp_scenario_results **sr)
{
  return mcp_mpi_price(c, MPI_COMM_WORLD, 0, m, p, g, s, r, sr);
}
#else
int cli_mpi_launched(void) { return 0; }
int cli_mpi_init(void) { return -1; }
void cli_mpi_finalize(void) {}
int cli_mpi_agree(int rc) { return rc; }
int cli_mpi_local_rank(void) { return 0; }
mcp_status cli_mpi_price(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, const mcp_scenarios *s, mcp_results **r,
                         mcp_scenario_results **sr)
{
  return MCP_ERR_UNAVAILABLE;
}
#endif
