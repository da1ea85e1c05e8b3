/* version.c: run-time version and build description. */
#include "config.h"
#include "mcprice.h"

const char *mcp_version(void) { return MCP_VERSION_STRING; }

int mcp_version_number(void) { return MCP_VERSION_NUMBER; }

const char *mcp_build_info(void)
{
  return "mcprice " MCP_VERSION_STRING
#ifdef MCP_HAVE_CUDA
         "; CUDA backend: yes (sm " MCP_CUDA_ARCH ")"
#else
         "; CUDA backend: no"
#endif
#ifdef _OPENMP
         "; OpenMP: yes"
#else
         "; OpenMP: no"
#endif
#ifdef MCP_HAVE_CURAND
         "; QMC: yes (cuRAND Sobol)"
#else
         "; QMC: no (no cuRAND)"
#endif
#ifdef MCP_HAVE_MPI
         "; MPI: yes"
#else
         "; MPI: no"
#endif
         "; RNG: Philox4x32-10 in cuRAND's sequence";
}
