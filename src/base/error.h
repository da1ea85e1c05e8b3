/* error.h: detailed error messages, kept on each handle and in the calling
 * thread's last error (mcp_last_error). */
#ifndef MCP_ERROR_H
#define MCP_ERROR_H

#include <stddef.h>
#include "mcprice.h"

#define MCPI_ERRLEN 512

/* Every error return of the library goes through one of these, so that
 * mcp_last_error says why on the thread that made the call (test_errors.sh
 * refuses a bare `return MCP_ERR_...`). */

/* Formats a message into buf (printf-style), records it as the thread's
 * last error and returns status, so that a failing call can end with
 * `return mcpi_fail(h->err, MCP_ERR_INPUT, ...)`. */
mcp_status mcpi_fail(char *buf, mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same into a caller's buffer of errlen bytes (NULL or 0: none). */
mcp_status mcpi_fail_to(char *err, size_t errlen, mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same with no handle: the thread's last error only. */
mcp_status mcpi_error(mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* MCP_ERR_ARGUMENT for func's NULL argument(s), "func: names is NULL". */
mcp_status mcpi_null(const char *func, const char *names);

/* MCP_ERR_NO_MEMORY, "func: out of memory". */
mcp_status mcpi_no_memory(const char *func);

/* Records msg as the thread's last error (a status that a call on another
 * thread produced, e.g. a device's worker, reaching the caller; MCP_OK
 * empties it) and returns status. */
mcp_status mcpi_said(mcp_status status, const char *msg);

/* Copies src into dst of size n (n may be 0), always terminated. */
void mcpi_copy_message(char *dst, size_t n, const char *src);

#endif
