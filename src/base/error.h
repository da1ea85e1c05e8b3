/* error.h: detailed error messages kept on each handle. */
#ifndef MCP_ERROR_H
#define MCP_ERROR_H

#include <stddef.h>
#include "mcprice.h"

#define MCPI_ERRLEN 512

/* Formats a message into buf (printf-style) and returns status, so that a
 * failing call can end with `return mcpi_fail(h->err, MCP_ERR_INPUT, ...)`. */
mcp_status mcpi_fail(char *buf, mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same into a caller's buffer of errlen bytes (NULL or 0: none). */
mcp_status mcpi_fail_to(char *err, size_t errlen, mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies src into dst of size n (n may be 0), always terminated. */
void mcpi_copy_message(char *dst, size_t n, const char *src);

#endif
