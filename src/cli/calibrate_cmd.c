/* calibrate_cmd.c: "mcprice calibrate": a Heston or Merton model fitted to a
 * surface of implied volatilities, reported, and the market file that
 * prices with it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "src/cli/cli.h"

const char cli_calibrate_options_help[] =
    "  -m, --market FILE      the market (JSON)\n"
    "  -q, --quotes FILE      the implied volatilities (JSON, doc/input-schema.md)\n"
    "      --model NAME       heston (default) or merton\n"
    "      --fitted FILE      also write the market with the underlying made the\n"
    "                         fitted model, the rest of the file kept; replaced only\n"
    "                         once complete\n"
    "      --format NAME      report format: table (default) or json\n";

void cli_calibrate_help(FILE *f)
{
  fputs("Usage: mcprice calibrate --market FILE --quotes FILE [OPTIONS]\n"
        "\n"
        "Fits a model to the implied volatilities of the quotes file (an underlying\n"
        "of the market, its maturities by strikes) by Levenberg-Marquardt, on the\n"
        "market's spot, rate and dividend curves; prints the parameters, the fit's\n"
        "root-mean-square and largest error in volatility points, and each quote's\n"
        "fitted volatility.\n"
        "\n"
        "Options:\n",
        f);
  fputs(cli_calibrate_options_help, f);
  fputs("  -h, --help             show this help and exit\n", f);
}

enum { C_MARKET, C_QUOTES, C_MODEL, C_FITTED, C_FORMAT, C_HELP };
static const cli_option options[] = {[C_MARKET] = {"market", 'm', 1},
                                     [C_QUOTES] = {"quotes", 'q', 1},
                                     [C_MODEL] = {"model", 0, 1},
                                     [C_FITTED] = {"fitted", 0, 1},
                                     [C_FORMAT] = {"format", 0, 1},
                                     [C_HELP] = {"help", 'h', 0},
                                     {NULL, 0, 0}};

typedef struct args {
  const char *market, *quotes, *fitted;
  mcp_fit_model model;
  int json;
} args;

/* The command line into a; -1 to go on, else the exit status. */
static int parse(char **argv, args *a)
{
  int next = 0, k;
  const char *v;
  while ((k = cli_next_option(argv, &next, options, "calibrate", &v)) >= 0) {
    switch (k) {
    case C_MARKET: a->market = v; break;
    case C_QUOTES: a->quotes = v; break;
    case C_FITTED: a->fitted = v; break;
    case C_MODEL:
      if (mcp_fit_model_from_name(v, &a->model) != MCP_OK) {
        cli_error("calibrate: --model: expected heston or merton, got '%s'", v);
        return CLI_EXIT_USAGE;
      }
      break;
    case C_FORMAT:
      if (strcmp(v, "table") && strcmp(v, "json")) {
        cli_error("calibrate: --format: expected table or json, got '%s'", v);
        return CLI_EXIT_USAGE;
      }
      a->json = strcmp(v, "json") == 0;
      break;
    default: cli_calibrate_help(stdout); return CLI_EXIT_OK;
    }
  }
  if (k == CLI_OPT_BAD)
    return CLI_EXIT_USAGE;
  if (argv[next]) {
    cli_error("calibrate: unexpected argument '%s'", argv[next]);
    return CLI_EXIT_USAGE;
  }
  if (!a->market || !a->quotes) {
    cli_error("calibrate: expected --market FILE and --quotes FILE");
    return CLI_EXIT_USAGE;
  }
  return -1;
}

/* s as a JSON string's contents (names hold no quotes or controls: only a
 * backslash needs its escape). */
static void json_text(FILE *f, const char *s)
{
  for (; *s; s++) {
    if (*s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
}

/* What the fit says of itself: converged or not, parameters at their
 * ranges' ends, and Heston's Feller condition 2 kappa theta >= xi^2. */
static void fit_notes(const mcp_fit *fit, char *buf, size_t n)
{
  int w = snprintf(buf, n, "%s", fit->converged ? "converged" : "not converged");
  for (size_t k = 0; k < fit->nparams && w >= 0 && (size_t)w < n; k++)
    if (fit->at_bound >> k & 1u)
      w += snprintf(buf + w, n - (size_t)w, "; %s at its range's end",
                    mcp_fit_param_name(fit->model, k));
  if (fit->model == MCP_FIT_HESTON && w >= 0 && (size_t)w < n)
    snprintf(buf + w, n - (size_t)w, "; Feller 2 kappa theta - xi^2 = %.6g (%s)",
             2 * fit->params[1] * fit->params[2] - fit->params[3] * fit->params[3],
             2 * fit->params[1] * fit->params[2] >= fit->params[3] * fit->params[3]
                 ? "met: the variance stays above 0"
                 : "not met: the variance reaches 0");
}

static void report(FILE *f, const args *a, const mcp_quotes *q, const mcp_fit *fit,
                   const double *mv, double ms)
{
  const char *model = mcp_fit_model_name(fit->model);
  size_t nk = q->nstrikes;
  char notes[512];
  fit_notes(fit, notes, sizeof notes);
  if (a->json) {
    fputs("{\"underlying\": \"", f);
    json_text(f, q->underlying);
    fprintf(f, "\", \"model\": \"%s\", \"parameters\": {", model);
    for (size_t k = 0; k < fit->nparams; k++)
      fprintf(f, "%s\"%s\": %.17g", k ? ", " : "", mcp_fit_param_name(fit->model, k),
              fit->params[k]);
    fprintf(f, "},\n \"quotes\": %zu, \"rmse\": %.6g, \"max_error\": %.6g, "
            "\"iterations\": %u, \"converged\": %s, \"notes\": \"%s\",\n \"fits\": [",
            fit->quotes, fit->rmse, fit->max_error, fit->iterations,
            fit->converged ? "true" : "false", notes);
    int first = 1;
    for (size_t i = 0; i < q->nmaturities; i++)
      for (size_t k = 0; k < nk; k++) {
        double v = q->vols[i * nk + k];
        if (isnan(v))
          continue;
        fprintf(f, "%s\n  {\"maturity\": %.10g, \"strike\": %.10g, \"quote\": %.10g, "
                "\"fitted\": %.10g}", first ? "" : ",", q->maturities[i], q->strikes[k], v,
                mv[i * nk + k]);
        first = 0;
      }
    fputs("]}\n", f);
    return;
  }
  fprintf(f, "# underlying %s\n# model      %s\n# quotes     %zu\n# rmse       %.6f vol "
          "points\n# max error  %.6f vol points\n# iterations %u\n# fit        %s\n"
          "# time       %.1f ms\n",
          q->underlying, model, fit->quotes, fit->rmse, fit->max_error, fit->iterations, notes,
          ms);
  fprintf(f, "%-12s %20s\n", "parameter", "value");
  for (size_t k = 0; k < fit->nparams; k++)
    fprintf(f, "%-12s %20.12f\n", mcp_fit_param_name(fit->model, k), fit->params[k]);
  fprintf(f, "\n%10s %12s %10s %10s %10s\n", "maturity", "strike", "quote", "fitted",
          "error_bp");
  for (size_t i = 0; i < q->nmaturities; i++)
    for (size_t k = 0; k < nk; k++) {
      double v = q->vols[i * nk + k], m = mv[i * nk + k];
      if (!isnan(v))
        fprintf(f, "%10.6f %12.6f %10.6f %10.6f %10.3f\n", q->maturities[i], q->strikes[k], v,
                m, 1e4 * (m - v));
    }
}

/* The fitted market into out (committed, or aborted), from the market
 * file's text. */
static int write_fitted(const args *a, const char *text, size_t len, const mcp_quotes *q,
                        const mcp_fit *fit, mcp_output *out)
{
  char err[1024], *json = NULL;
  size_t n = 0;
  mcp_status st = mcp_market_text_fitted(a->market, text, len, q->underlying, fit, &json, &n,
                                         err, sizeof err);
  if (st == MCP_OK)
    st = mcp_output_write(out, json, n, err, sizeof err);
  if (st == MCP_OK && (!n || json[n - 1] != '\n'))
    st = mcp_output_write(out, "\n", 1, err, sizeof err);
  mcp_free(json);
  if (st == MCP_OK)
    st = mcp_output_commit(out, err, sizeof err);
  else
    mcp_output_abort(out);
  if (st != MCP_OK)
    cli_error("calibrate: --fitted: %s", err);
  return st == MCP_OK ? CLI_EXIT_OK : cli_exit_for(st);
}

int cli_calibrate(int argc, char **argv)
{
  (void)argc; /* argv is NULL-terminated */
  args a = {.model = MCP_FIT_HESTON};
  int rc = parse(argv, &a);
  if (rc >= 0)
    return rc;
  char err[1024], *text = NULL;
  size_t len = 0;
  mcp_market *m = NULL;
  mcp_quotes q = {0};
  mcp_output *out = NULL;
  double *mv = NULL;
  mcp_status st;
  const char *inputs[] = {a.market, a.quotes};
  /* the output opened first: a fit never ends in a refused file */
  if ((a.fitted && (st = mcp_output_open(&out, a.fitted, inputs, 2, err, sizeof err))) ||
      (st = mcp_input_read(a.market, &text, &len, err, sizeof err)) ||
      (st = mcp_market_load_text(&m, a.market, text, len, err, sizeof err)) ||
      (st = mcp_quotes_load(a.quotes, m, &q, err, sizeof err))) {
    cli_error("calibrate: %s", err);
    rc = cli_exit_for(st);
    goto done;
  }
  if (!(mv = malloc(q.nmaturities * q.nstrikes * sizeof *mv))) {
    cli_error("calibrate: out of memory");
    rc = CLI_EXIT_RUNTIME;
    goto done;
  }
  mcp_fit fit;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  st = mcp_calibrate(m, &q, a.model, &fit, mv, err, sizeof err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (st != MCP_OK) {
    cli_error("calibrate: %s: %s", a.quotes, err);
    rc = cli_exit_for(st);
    goto done;
  }
  report(stdout, &a, &q, &fit, mv,
         1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec));
  rc = CLI_EXIT_OK;
  if (out) {
    rc = write_fitted(&a, text, len, &q, &fit, out);
    out = NULL;
  }
done:
  mcp_output_abort(out);
  free(mv);
  mcp_quotes_free(&q);
  mcp_market_destroy(m);
  mcp_free(text);
  return rc;
}
