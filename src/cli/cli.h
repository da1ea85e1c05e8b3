/* cli.h: pieces shared by the mcprice commands. */
#ifndef MCPRICE_CLI_H
#define MCPRICE_CLI_H

#include <stdio.h>
#include "mcprice.h"

/* Exit statuses, documented in mcprice(1). */
enum {
  CLI_EXIT_OK = 0,
  CLI_EXIT_INPUT = 1,  /* unreadable or invalid market or portfolio */
  CLI_EXIT_USAGE = 2,  /* bad command line */
  CLI_EXIT_RUNTIME = 3,  /* device, memory or output failure */
  CLI_EXIT_CANCELLED = 130 /* cancelled; a signal's end is the signal's own (price_cmd.c) */
};

/* One long option of a command; short is 0 when it has no one-letter form. */
typedef struct cli_option {
  const char *name;
  char short_name;
  int has_arg;
} cli_option;

enum { CLI_OPT_END = -1, CLI_OPT_BAD = -2 };

/* Reads the option at argv[*next] (argv is NULL-terminated) and advances
 * *next past it and its value. Returns its index in opts (terminated by a
 * NULL name), CLI_OPT_END when the arguments are used up, or CLI_OPT_BAD
 * after printing why. Accepts "--name value", "--name=value" and "-x". */
int cli_next_option(char **argv, int *next, const cli_option *opts, const char *command,
                    const char **value);

/* Prints "mcprice: " and the formatted message to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The exit status for a library status: 1 for input, 2 for argument, 3 else. */
int cli_exit_for(mcp_status status);

int cli_price(int argc, char **argv);
void cli_price_help(FILE *f);
/* The price options, shared by "mcprice --help" and "mcprice price --help". */
extern const char cli_price_options_help[];

/* "mcprice merge": what it overrides of the carried command. */
typedef struct cli_merge_opts {
  int format_given;
  int format; /* report_format */
  const char *output;
} cli_merge_opts;
struct cli_annex;
/* The report of the price command that annex carries, from its n slices'
 * partials. */
int cli_price_merge(const struct cli_annex *annex, char *const *files, mcp_partial *const *parts,
                    size_t n, const cli_merge_opts *mo);
int cli_merge(int argc, char **argv);
void cli_merge_help(FILE *f);

int cli_calibrate(int argc, char **argv);
void cli_calibrate_help(FILE *f);
extern const char cli_calibrate_options_help[];

int cli_tune(int argc, char **argv);
void cli_tune_help(FILE *f);
extern const char cli_tune_options_help[];

int cli_info(int argc, char **argv);
void cli_info_help(FILE *f);

#endif /* MCPRICE_CLI_H */
