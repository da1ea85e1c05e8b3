/* error.c: status strings and per-handle messages. */
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "src/base/error.h"

const char *mcp_strerror(mcp_status status)
{
  switch (status) {
  case MCP_OK: return "success";
  case MCP_ERR_ARGUMENT: return "invalid argument";
  case MCP_ERR_IO: return "input/output error";
  case MCP_ERR_PARSE: return "malformed input file";
  case MCP_ERR_INPUT: return "invalid input";
  case MCP_ERR_NOT_FOUND: return "not found";
  case MCP_ERR_UNAVAILABLE: return "backend unavailable";
  case MCP_ERR_NO_MEMORY: return "out of memory";
  case MCP_ERR_DEVICE: return "device error";
  case MCP_ERR_CANCELLED: return "cancelled";
  }
  return "unknown status";
}

/* errno's contract: set by a failing call, left as it was by a successful
 * one, one a thread (so that no lock is taken and threads do not mix). */
static _Thread_local char last_error[MCPI_ERRLEN];

const char *mcp_last_error(void) { return last_error; }

mcp_status mcpi_said(mcp_status status, const char *msg)
{
  if (msg != last_error)
    mcpi_copy_message(last_error, sizeof last_error,
                      status == MCP_OK ? "" : msg && *msg ? msg : mcp_strerror(status));
  return status;
}

mcp_status mcpi_fail(char *buf, mcp_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, MCPI_ERRLEN, fmt, ap);
  va_end(ap);
  return mcpi_said(status, buf);
}

mcp_status mcpi_error(mcp_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

mcp_status mcpi_null(const char *func, const char *names)
{
  return mcpi_error(MCP_ERR_ARGUMENT, "%s: %s is NULL", func, names);
}

mcp_status mcpi_no_memory(const char *func)
{
  return mcpi_error(MCP_ERR_NO_MEMORY, "%s: out of memory", func);
}

mcp_status mcpi_fail_to(char *err, size_t errlen, mcp_status status, const char *fmt, ...)
{
  char msg[MCPI_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mcpi_copy_message(err, errlen, msg);
  return mcpi_said(status, msg);
}

void mcpi_copy_message(char *dst, size_t n, const char *src)
{
  if (!dst || n == 0)
    return;
  snprintf(dst, n, "%s", src ? src : "");
}

void mcp_free(void *p) { free(p); }
