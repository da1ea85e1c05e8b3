/* options.c: what the commands share: reading options, error messages,
 * exit statuses. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "src/cli/cli.h"

void cli_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("mcprice: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_exit_for(mcp_status status)
{
  switch (status) {
  case MCP_OK:
    return CLI_EXIT_OK;
  case MCP_ERR_IO:
  case MCP_ERR_PARSE:
  case MCP_ERR_INPUT:
  case MCP_ERR_NOT_FOUND:
    return CLI_EXIT_INPUT;
  case MCP_ERR_ARGUMENT:
    return CLI_EXIT_USAGE;
  case MCP_ERR_CANCELLED:
    return CLI_EXIT_CANCELLED;
  default:
    return CLI_EXIT_RUNTIME;
  }
}

/* A small getopt_long: it keeps the CLI within C11 + POSIX and lets every
 * message name the command and point to its help. */
int cli_next_option(char **argv, int *next, const cli_option *opts, const char *command,
                    const char **value)
{
  const char *arg = argv[*next];
  if (!arg)
    return CLI_OPT_END;
  (*next)++;
  *value = NULL;
  const char *eq = NULL;
  int k = 0;
  if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
    eq = strchr(arg + 2, '=');
    size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    while (opts[k].name && (strlen(opts[k].name) != len || strncmp(opts[k].name, arg + 2, len)))
      k++;
  } else if (arg[0] == '-' && arg[1] && !arg[2]) {
    while (opts[k].name && opts[k].short_name != arg[1])
      k++;
  } else {
    cli_error("%s: unexpected argument '%s' (try 'mcprice help %s')", command, arg, command);
    return CLI_OPT_BAD;
  }
  if (!opts[k].name) {
    cli_error("%s: unknown option '%.*s' (try 'mcprice help %s')", command,
              eq ? (int)(eq - arg) : (int)strlen(arg), arg, command);
    return CLI_OPT_BAD;
  }
  if (!opts[k].has_arg && eq) {
    cli_error("%s: option --%s takes no value", command, opts[k].name);
    return CLI_OPT_BAD;
  }
  if (opts[k].has_arg) {
    *value = eq ? eq + 1 : argv[*next];
    if (!*value || !**value) {
      cli_error("%s: option --%s needs a value", command, opts[k].name);
      return CLI_OPT_BAD;
    }
    if (!eq)
      (*next)++;
  }
  return k;
}
