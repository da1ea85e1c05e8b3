#include "portfolio.h"
mcp_status mcp_portfolio_load(mcp_portfolio **p, const char *path, char *err, size_t n) { *p = 0; mcpi_copy_message(err, n, "not yet"); return MCP_ERR_IO; }
