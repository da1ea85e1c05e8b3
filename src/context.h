/* context.h: backend, device and kernel options (internal view). */
#ifndef MCP_CONTEXT_H
#define MCP_CONTEXT_H

#include "error.h"

#define MCPI_DEFAULT_BLOCK 128

struct mcp_context {
  mcp_backend backend; /* resolved: cpu or cuda */
  uint64_t tile_paths; /* 0: sized to memory */
  int block;
  int device;
  mcp_progress_fn progress;
  void *progress_user;
  char err[MCPI_ERRLEN];
};

#endif
