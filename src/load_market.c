#include "market.h"
mcp_status mcp_market_load(mcp_market **m, const char *path, char *err, size_t n) { *m = 0; mcpi_copy_message(err, n, "not yet"); return MCP_ERR_IO; }
