/* tune_cmd.c: "mcprice tune": the kernel options of each shape of job in a
 * book timed on a GPU (mcp_tune), the fastest written to a wisdom file that
 * "mcprice price --wisdom" reads. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "src/cli/cli.h"

const char cli_tune_options_help[] =
    "  -m, --market FILE      the market (JSON)\n"
    "  -p, --portfolio FILE   the book (JSON or CSV); its run object's options\n"
    "                         are kept and not timed\n"
    "  -w, --wisdom FILE      the wisdom file: read where it exists (its entries\n"
    "                         of other GPUs, drivers and shapes kept), written\n"
    "                         with this GPU's, replaced only once complete\n"
    "      --paths N          paths of the timed runs (default: the book's)\n"
    "      --repeats N        timed calls of each option compared, medians: 1 to 15\n"
    "                         (default 3), after one warm-up\n"
    "      --device N         the GPU (default 0)\n";

void cli_tune_help(FILE *f)
{
  fputs("Usage: mcprice tune --market FILE --portfolio FILE --wisdom FILE [OPTIONS]\n"
        "\n"
        "Times, on the GPU, the kernel options that the build offers for each shape\n"
        "of job in the book (normals fused or stored, prefetch strategy, distance\n"
        "and padding, block size, tile size), one option at a time, each on the\n"
        "whole book's price, and writes each shape's fastest to the wisdom file.\n"
        "'mcprice price --wisdom FILE' then runs every job of a known GPU, driver\n"
        "and shape with them, and the others by the rules.  None of the options\n"
        "changes a price's bits (each timed run is checked against the rules'\n"
        "prices); an option given on the command line or in the book's run object\n"
        "is never replaced.  Prints each shape's choice with the book's time then\n"
        "and by the rules.\n"
        "\n"
        "Options:\n",
        f);
  fputs(cli_tune_options_help, f);
  fputs("  -h, --help             show this help and exit\n", f);
}

enum { T_MARKET, T_PORTFOLIO, T_WISDOM, T_PATHS, T_REPEATS, T_DEVICE, T_HELP };
static const cli_option options[] = {[T_MARKET] = {"market", 'm', 1},
                                     [T_PORTFOLIO] = {"portfolio", 'p', 1},
                                     [T_WISDOM] = {"wisdom", 'w', 1},
                                     [T_PATHS] = {"paths", 0, 1},
                                     [T_REPEATS] = {"repeats", 0, 1},
                                     [T_DEVICE] = {"device", 0, 1},
                                     [T_HELP] = {"help", 'h', 0},
                                     {NULL, 0, 0}};

typedef struct args {
  const char *market, *portfolio, *wisdom;
  uint64_t paths; /* 0: the book's */
  int repeats, device;
} args;

/* v as an integer of lo to hi into *out; 0, or 1 after saying why. */
static int integer(const char *flag, const char *v, long long lo, long long hi,
                   long long *out)
{
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (errno || end == v || *end || x < lo || x > hi) {
    cli_error("tune: --%s: expected an integer from %lld to %lld, got '%s'", flag, lo, hi, v);
    return 1;
  }
  *out = x;
  return 0;
}

/* The command line into a; -1 to go on, else the exit status. */
static int parse(char **argv, args *a)
{
  int next = 0, k;
  const char *v;
  long long x;
  while ((k = cli_next_option(argv, &next, options, "tune", &v)) >= 0) {
    switch (k) {
    case T_MARKET: a->market = v; break;
    case T_PORTFOLIO: a->portfolio = v; break;
    case T_WISDOM: a->wisdom = v; break;
    case T_PATHS:
      if (integer("paths", v, 2, (long long)1 << 40, &x))
        return CLI_EXIT_USAGE;
      a->paths = (uint64_t)x;
      break;
    case T_REPEATS:
      if (integer("repeats", v, 1, 15, &x))
        return CLI_EXIT_USAGE;
      a->repeats = (int)x;
      break;
    case T_DEVICE:
      if (integer("device", v, 0, INT_MAX, &x))
        return CLI_EXIT_USAGE;
      a->device = (int)x;
      break;
    default: cli_tune_help(stdout); return CLI_EXIT_OK;
    }
  }
  if (k == CLI_OPT_BAD)
    return CLI_EXIT_USAGE;
  if (argv[next]) {
    cli_error("tune: unexpected argument '%s'", argv[next]);
    return CLI_EXIT_USAGE;
  }
  if (!a->market || !a->portfolio || !a->wisdom) {
    cli_error("tune: expected --market FILE, --portfolio FILE and --wisdom FILE");
    return CLI_EXIT_USAGE;
  }
  return -1;
}

/* The wisdom file's entries where it exists, else none; its path checked
 * for writing before the work (mcp_output_open's rules). */
static int open_wisdom(const args *a, mcp_wisdom **w)
{
  char err[1024] = "";
  const char *inputs[2] = {a->market, a->portfolio};
  mcp_output *o = NULL;
  mcp_status st = mcp_output_open(&o, a->wisdom, inputs, 2, err, sizeof err);
  mcp_output_abort(o);
  struct stat sb;
  if (st == MCP_OK)
    st = stat(a->wisdom, &sb) == 0 && S_ISREG(sb.st_mode)
             ? mcp_wisdom_load(w, a->wisdom, err, sizeof err)
             : mcp_wisdom_create(w);
  if (st == MCP_OK)
    return CLI_EXIT_OK;
  cli_error("%s", err[0] ? err : mcp_last_error());
  return cli_exit_for(st);
}

static int load(const args *a, mcp_market **m, mcp_portfolio **p, mcp_run_options **r)
{
  char err[1024] = "";
  mcp_status st = mcp_market_load(m, a->market, err, sizeof err);
  if (st == MCP_OK)
    st = mcp_portfolio_load_for(p, *m, a->portfolio, err, sizeof err);
  if (st == MCP_OK)
    st = mcp_run_options_load(r, a->portfolio, err, sizeof err);
  if (st == MCP_OK && a->paths && (st = mcp_portfolio_set_paths(*p, a->paths)) != MCP_OK)
    snprintf(err, sizeof err, "bad --paths value: %s", mcp_portfolio_last_error(*p));
  if (st == MCP_OK)
    return CLI_EXIT_OK;
  cli_error("%s", err);
  return cli_exit_for(st);
}

/* The entries tuned now (this GPU's), and the file's count. */
static void report(const mcp_wisdom *tuned, const mcp_wisdom *w, size_t before)
{
  for (size_t i = 0; i < mcp_wisdom_count(tuned); i++) {
    mcp_wisdom_entry e;
    mcp_wisdom_get(tuned, i, &e);
    if (i == 0) {
      printf("GPU: %s, compute capability %d.%d, driver %d.%d\n", e.device, e.capability / 10,
             e.capability % 10, e.driver / 1000, e.driver % 1000 / 10);
      printf("%-34s %-7s %-15s %8s %6s %9s %11s %12s %7s\n", "shape", "normals", "prefetch",
             "distance", "block", "tile", "padding", "book (ms)", "rules (ms)");
    }
    char tile[24], pad[16];
    snprintf(tile, sizeof tile, e.tile_paths ? "%llu" : "auto",
             (unsigned long long)e.tile_paths);
    snprintf(pad, sizeof pad, e.padding == MCP_PADDING_INTERLEAVED ? "interleaved" : "%d",
             e.padding);
    printf("%-34s %-7s %-15s %8d %6d %9s %11s %12.3f %7.3f\n", e.shape,
           mcp_normals_name(e.normals), mcp_prefetch_name(e.prefetch), e.distance, e.block,
           tile, pad, 1e3 * e.seconds, 1e3 * e.rules_seconds);
  }
  if (!mcp_wisdom_count(tuned))
    printf("no job of the book has kernel options to tune\n");
  printf("wisdom: %zu entries (%zu before)\n", mcp_wisdom_count(w), before);
}

/* The entries of tuned into w (each replacing its GPU's and shape's). */
static mcp_status merge(mcp_wisdom *w, const mcp_wisdom *tuned)
{
  mcp_status st = MCP_OK;
  for (size_t i = 0; st == MCP_OK && i < mcp_wisdom_count(tuned); i++) {
    mcp_wisdom_entry e;
    if ((st = mcp_wisdom_get(tuned, i, &e)) == MCP_OK)
      st = mcp_wisdom_put(w, &e);
  }
  return st;
}

int cli_tune(int argc, char **argv)
{
  (void)argc; /* argv is NULL-terminated */
  args a = {.repeats = 3};
  int rc = parse(argv, &a);
  if (rc >= 0)
    return rc;
  mcp_wisdom *w = NULL, *tuned = NULL;
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_run_options *r = NULL;
  mcp_context *c = NULL;
  char err[1024] = "";
  if ((rc = open_wisdom(&a, &w)) == CLI_EXIT_OK && (rc = load(&a, &m, &p, &r)) == CLI_EXIT_OK) {
    size_t before = mcp_wisdom_count(w);
    mcp_status st = MCP_OK;
    if (mcp_device_count() == 0) {
      cli_error("tune: the kernel options are a GPU's, and %s",
                mcp_cuda_built() ? "no CUDA GPU was found" : "mcprice was built without CUDA");
      rc = CLI_EXIT_RUNTIME;
    } else if ((st = mcp_wisdom_create(&tuned)) != MCP_OK ||
               (st = mcp_run_options_set_backend(r, MCP_BACKEND_CUDA)) != MCP_OK ||
               (st = mcp_context_create_with_options(&c, r, err, sizeof err)) != MCP_OK)
      ; /* err or the last error says why */
    else if (mcp_context_set_device(c, a.device) != MCP_OK) {
      cli_error("bad --device value: %s", mcp_context_last_error(c));
      rc = CLI_EXIT_USAGE;
    } else if ((st = mcp_tune(c, m, p, a.repeats, tuned)) != MCP_OK)
      snprintf(err, sizeof err, "tune: %s", mcp_context_last_error(c));
    else if ((st = merge(w, tuned)) == MCP_OK &&
             (st = mcp_wisdom_save(w, a.wisdom, err, sizeof err)) == MCP_OK)
      report(tuned, w, before);
    if (st != MCP_OK) {
      cli_error("%s", err[0] ? err : mcp_last_error());
      rc = cli_exit_for(st);
    }
  }
  mcp_context_destroy(c);
  mcp_run_options_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_wisdom_destroy(tuned);
  mcp_wisdom_destroy(w);
  return rc;
}
