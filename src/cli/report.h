/* report.h: writing pricing results as a table, CSV or JSON, to standard
 * output or to a file that is replaced only once it is complete. */
#ifndef MCPRICE_REPORT_H
#define MCPRICE_REPORT_H

#include <stdio.h>
#include "mcprice.h"

typedef enum report_format { REPORT_TABLE = 0, REPORT_CSV, REPORT_JSON, REPORT_CRIF } report_format;

#define REPORT_FORMAT_NAMES "table, csv, json, crif (with --frtb)"

/* Parses "table", "csv", "json" or "crif"; returns 0, or -1 for any other name. */
int report_format_from_name(const char *name, report_format *out);

/* Writes the results, an autocallable's redemption dates by the market's
 * valuation date where it has one (market may be NULL); returns 0, or -1
 * with errno set when a write failed. */
int report_write(FILE *f, report_format format, const mcp_results *results,
                 const mcp_market *market);

/* Writes the scenario grid: a matrix of spot by volatility shifts for each
 * trade and rate shift (table), or one row (CSV) or array entry (JSON) a
 * trade and point; the book as TOTAL, with its value.  A scenario set: the
 * book's value and loss in each scenario and VaR and ES at each of the
 * nlevels levels (table, JSON), or one row a scenario and trade (CSV). */
int report_write_scenarios(FILE *f, report_format format, const mcp_scenario_results *results,
                           const double *levels, size_t nlevels);
/* Writes the FRTB view (report_frtb.c): a record a line (table, CSV), an
 * array entry (JSON), or the trades' records as CRIF. */
int report_write_frtb(FILE *f, report_format format, const mcp_frtb *frtb);
/* A scenario grid's book values as a PNG heatmap (report_plot.c): 0, or -1
 * when out of memory or a write fails. */
int report_plot_scenarios(FILE *f, const mcp_scenario_results *results);
/* The most levels a set's report gives VaR and ES at (--levels). */
#define REPORT_MAX_LEVELS 8

/* Where the report goes: standard output, or a file under the library's
 * output rules (mcp_output_open: a regular file replaced only once complete,
 * a link followed, a device or FIFO written in place). */
typedef struct report_sink {
  FILE *f;
  const char *path;   /* NULL for standard output */
  const char *option; /* which names it in messages: "--output", "--plot" */
  mcp_output *out;
  int slot;           /* its temporary's among those a signal removes, or -1 */
} report_sink;

/* A file the run reads, which the output may not be. */
typedef struct report_input {
  const char *what; /* "market", "portfolio", "scenarios" */
  const char *path; /* or NULL */
} report_input;

/* Each returns 0, or prints the reason and returns -1 (report_open: -2 for
 * an output that is a usage error: a directory, an input file, a dangling
 * link). report_commit makes
 * the output final; report_abort removes the temporary (NULL-safe, and
 * harmless after a failed open or commit). */
int report_open(report_sink *sink, const char *option, const char *path,
                const report_input *inputs, size_t ninputs);
int report_commit(report_sink *sink);
void report_abort(report_sink *sink);

#endif /* MCPRICE_REPORT_H */
