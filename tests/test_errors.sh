#!/bin/sh
# test_errors.sh: every error the library returns says why in
# mcp_last_error (include/mcprice.h), so none is returned bare: a status
# other than MCP_OK leaves a function only through mcpi_fail, mcpi_error
# and their kin (src/base/error.h), or as the status of a call that did.
# The command line's own code (src/cli) returns to main, not to a caller.
top=${top_srcdir:-.}
cd "$top" || exit 99
bare=$(grep -rnE '(return|[?:=])[[:space:]]*MCP_ERR_[A-Z_]+[[:space:]]*[;)]' src --include='*.c' |
  grep -v '^src/cli/' | grep -vE '(==|!=)[[:space:]]*MCP_ERR_')
if [ -n "$bare" ]; then
  echo "error statuses returned without a message (use mcpi_fail, mcpi_error, mcpi_null or"
  echo "mcpi_no_memory from src/base/error.h):"
  echo "$bare"
  exit 1
fi
# the checker itself: a bare return is found
printf 'int f(void)\n{\n  return MCP_ERR_INPUT;\n}\n' | grep -qE '(return|[?:=])[[:space:]]*MCP_ERR_[A-Z_]+[[:space:]]*[;)]' ||
  { echo "the pattern no longer finds a bare return"; exit 1; }
exit 0
