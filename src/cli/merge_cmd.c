/* merge_cmd.c: "mcprice merge": the report of a run from the partial
 * results of its slices ("mcprice price --slice K/N --output FILE"), which
 * carry the command and its input files. */
#include <stdlib.h>
#include <string.h>
#include "src/cli/annex.h"
#include "src/cli/cli.h"
#include "src/cli/report.h"

void cli_merge_help(FILE *f)
{
  fputs("Usage: mcprice merge [OPTIONS] PARTIAL...\n"
        "\n"
        "Merges the partial results that 'mcprice price --slice K/N --output FILE'\n"
        "wrote, one for each K of the N slices, in any order, and prints the report\n"
        "of the whole run, the same to the bit as 'mcprice price' without --slice on\n"
        "the same backend.  The partials carry the price command and its input\n"
        "files; a slice missing or given twice, or of another run, is an error.\n"
        "\n"
        "Options:\n"
        "      --format NAME      report format: table, csv or json (default: the price\n"
        "                         command's)\n"
        "      --output FILE      write the report to FILE, which is replaced only once\n"
        "                         the report is complete (default: standard output);\n"
        "                         a device or FIFO is written in place, a link\n"
        "                         followed; a directory, an input file (by inode)\n"
        "                         or a file this user cannot replace is refused\n"
        "                         before the run\n"
        "  -h, --help             show this help and exit\n",
        f);
}

enum { M_FORMAT, M_OUTPUT, M_HELP };
static const cli_option options[] = {[M_FORMAT] = {"format", 0, 1},
                                     [M_OUTPUT] = {"output", 0, 1},
                                     [M_HELP] = {"help", 'h', 0},
                                     {NULL, 0, 0}};

/* Reads the partials; returns 0, or the exit status after a message. */
static int read_parts(char **files, size_t n, mcp_partial **parts, cli_annex *annex)
{
  char err[1024];
  for (size_t i = 0; i < n; i++) {
    mcp_status st = mcp_partial_read(&parts[i], files[i], err, sizeof err);
    if (st != MCP_OK) {
      cli_error("merge: %s", err);
      return cli_exit_for(st);
    }
  }
  size_t len;
  const char *b = mcp_partial_annex(parts[0], &len);
  if (!b) {
    cli_error("merge: %s: carries no price command (a partial of the library's "
              "mcp_price_slice: merge it with mcp_partials_merge)", files[0]);
    return CLI_EXIT_INPUT;
  }
  if (cli_annex_decode(b, len, annex) != 0) {
    cli_error("merge: %s: its price command is damaged", files[0]);
    return CLI_EXIT_INPUT;
  }
  return CLI_EXIT_OK;
}

int cli_merge(int argc, char **argv)
{
  cli_merge_opts mo = {0};
  char **files = calloc((size_t)argc + 1, sizeof *files);
  size_t nfiles = 0;
  int next = 0, k, rc = -1;
  const char *v;
  if (!files) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  while (rc < 0 && argv[next]) {
    if (argv[next][0] != '-' || !argv[next][1]) { /* a partial */
      files[nfiles++] = argv[next++];
      continue;
    }
    if ((k = cli_next_option(argv, &next, options, "merge", &v)) < 0)
      rc = CLI_EXIT_USAGE;
    else if ((k == M_OUTPUT && mo.output) || (k == M_FORMAT && mo.format_given)) {
      cli_error("--%s: given twice", options[k].name);
      rc = CLI_EXIT_USAGE;
    } else if (k == M_HELP) {
      cli_merge_help(stdout);
      rc = CLI_EXIT_OK;
    } else if (k == M_OUTPUT)
      mo.output = v;
    else {
      report_format f;
      if (report_format_from_name(v, &f) != 0) {
        cli_error("--format: expected one of " REPORT_FORMAT_NAMES "; got '%s'", v);
        rc = CLI_EXIT_USAGE;
      }
      mo.format = f;
      mo.format_given = 1;
    }
  }
  if (rc < 0 && nfiles == 0) {
    cli_error("merge: expected the partial results to merge (try 'mcprice help merge')");
    rc = CLI_EXIT_USAGE;
  }
  mcp_partial **parts = rc < 0 ? calloc(nfiles, sizeof *parts) : NULL;
  cli_annex annex = {0};
  if (rc < 0 && !parts) {
    cli_error("out of memory");
    rc = CLI_EXIT_RUNTIME;
  }
  if (rc < 0 && (rc = read_parts(files, nfiles, parts, &annex)) == CLI_EXIT_OK)
    rc = cli_price_merge(&annex, files, parts, nfiles, &mo);
  for (size_t i = 0; parts && i < nfiles; i++)
    mcp_partial_destroy(parts[i]);
  cli_annex_free(&annex);
  free(parts);
  free(files);
  return rc;
}
