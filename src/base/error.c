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

mcp_status mcpi_fail(char *buf, mcp_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, MCPI_ERRLEN, fmt, ap);
  va_end(ap);
  return status;
}

mcp_status mcpi_fail_to(char *err, size_t errlen, mcp_status status, const char *fmt, ...)
{
  char msg[MCPI_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mcpi_copy_message(err, errlen, msg);
  return status;
}

void mcpi_copy_message(char *dst, size_t n, const char *src)
{
  if (!dst || n == 0)
    return;
  snprintf(dst, n, "%s", src ? src : "");
}

void mcp_free(void *p) { free(p); }
