/* info_cmd.c: "mcprice info": the GPUs found and the build settings. */
#include <stdio.h>
#include "src/cli/cli.h"

void cli_info_help(FILE *f)
{
  fputs("Usage: mcprice info\n"
        "\n"
        "Prints the version and build settings, then the CUDA GPUs found: name,\n"
        "compute capability, multiprocessors and memory.\n"
        "\n"
        "Options:\n"
        "  -h, --help             show this help and exit\n",
        f);
}

int cli_info(int argc, char **argv)
{
  (void)argc; /* argv is NULL-terminated */
  static const cli_option options[] = {{"help", 'h', 0}, {NULL, 0, 0}};
  int next = 0;
  const char *value;
  int k = cli_next_option(argv, &next, options, "info", &value);
  if (k == CLI_OPT_BAD)
    return CLI_EXIT_USAGE;
  if (k == 0) {
    cli_info_help(stdout);
    return CLI_EXIT_OK;
  }
  int n = mcp_device_count();
  printf("version:      %s\n"
         "build:        %s\n"
         "CUDA backend: %s\n"
         "auto backend: %s\n"
         "devices:      %d\n",
         mcp_version(), mcp_build_info(), mcp_cuda_built() ? "built in" : "not built",
         n > 0 ? "cuda" : "cpu", n);
  int rc = CLI_EXIT_OK;
  for (int d = 0; d < n; d++) {
    mcp_device_info info;
    mcp_status st = mcp_device_get_info(d, &info);
    if (st != MCP_OK) { /* list the others all the same */
      cli_error("device %d: %s", d, mcp_strerror(st));
      rc = CLI_EXIT_RUNTIME;
      continue;
    }
    printf("device %d:     %s, compute capability %d.%d, %d multiprocessors, %.1f GiB\n", d,
           info.name, info.compute_major, info.compute_minor, info.multiprocessors,
           (double)info.global_memory / (1024.0 * 1024.0 * 1024.0));
  }
  return rc;
}
