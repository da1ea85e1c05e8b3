/* main.c: mcprice command dispatch, help and version. */
#include <stdio.h>
#include <string.h>
#include "src/cli/cli.h"

static void main_help(FILE *f)
{
  fputs("Usage: mcprice COMMAND [OPTIONS]\n"
        "       mcprice --help | --version\n"
        "\n"
        "Monte Carlo pricing of equity options (European, digital, Asian, barrier,\n"
        "lookback, basket, best-of, worst-of and more) under Black-Scholes, Heston,\n"
        "Merton and local-volatility models, on a GPU or the CPU.\n"
        "\n"
        "Commands:\n"
        "  price           price a portfolio in a market: prices, standard errors,\n"
        "                  95% confidence intervals and the book total\n"
        "  merge PARTIAL...  the report of a run from the partial results of its\n"
        "                  slices (price --slice K/N --output FILE)\n"
        "  calibrate       fit a Heston or Merton model to implied volatilities\n"
        "  tune            time the GPU kernel options for a book's jobs and write\n"
        "                  the fastest to a wisdom file (price --wisdom)\n"
        "  info            list the GPUs found and the build settings\n"
        "  help [COMMAND]  show this help, or the help of COMMAND\n"
        "\n"
        "Options of price:\n",
        f);
  fputs(cli_price_options_help, f);
  fputs("\nOptions of calibrate:\n", f);
  fputs(cli_calibrate_options_help, f);
  fputs("\nOptions of tune:\n", f);
  fputs(cli_tune_options_help, f);
  fputs("\n"
        "General options:\n"
        "  -h, --help             show help and exit\n"
        "      --version          print the version and exit\n"
        "\n"
        "Exit status: 0 success, 1 bad input, 2 usage error, 3 device or run-time failure,\n"
        "130 or 143 interrupted (SIGINT or SIGTERM while pricing: nothing written).\n"
        "See mcprice(1) for the input formats.\n",
        f);
}

static int help_command(int argc, char **argv)
{
  if (argc > 1) {
    cli_error("help: expected at most one command name");
    return CLI_EXIT_USAGE;
  }
  if (argc == 0)
    main_help(stdout);
  else if (strcmp(argv[0], "price") == 0)
    cli_price_help(stdout);
  else if (strcmp(argv[0], "info") == 0)
    cli_info_help(stdout);
  else if (strcmp(argv[0], "merge") == 0)
    cli_merge_help(stdout);
  else if (strcmp(argv[0], "calibrate") == 0)
    cli_calibrate_help(stdout);
  else if (strcmp(argv[0], "tune") == 0)
    cli_tune_help(stdout);
  else if (strcmp(argv[0], "help") == 0)
    main_help(stdout);
  else {
    cli_error("help: unknown command '%s'; commands: price, merge, calibrate, tune, info, help",
              argv[0]);
    return CLI_EXIT_USAGE;
  }
  return CLI_EXIT_OK;
}

/* Help, version and info go to stdout: failing to print them is an error
 * (e.g. "mcprice info > /dev/full"). */
static int finish_stdout(int status)
{
  if (status == CLI_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
    cli_error("cannot write to standard output");
    return CLI_EXIT_RUNTIME;
  }
  return status;
}

static int dispatch(int argc, char **argv)
{
  if (argc < 2) {
    main_help(stderr);
    return CLI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "price") == 0)
    return cli_price(argc - 2, argv + 2);
  if (strcmp(cmd, "info") == 0)
    return cli_info(argc - 2, argv + 2);
  if (strcmp(cmd, "merge") == 0)
    return cli_merge(argc - 2, argv + 2);
  if (strcmp(cmd, "calibrate") == 0)
    return cli_calibrate(argc - 2, argv + 2);
  if (strcmp(cmd, "tune") == 0)
    return cli_tune(argc - 2, argv + 2);
  if (strcmp(cmd, "help") == 0)
    return help_command(argc - 2, argv + 2);
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    main_help(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("mcprice %s\n", mcp_version());
    return CLI_EXIT_OK;
  }
  if (cmd[0] == '-')
    cli_error("unknown option '%s' (try 'mcprice --help')", cmd);
  else
    cli_error("unknown command '%s'; commands: price, merge, calibrate, tune, info, help", cmd);
  return CLI_EXIT_USAGE;
}

int main(int argc, char **argv) { return finish_stdout(dispatch(argc, argv)); }
