/* price_cmd.c: "mcprice price": options, loading, pricing with a progress
 * line, and the report. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "src/base/clock.h"
#include "src/cli/annex.h"
#include "src/cli/cli.h"
#include "src/cli/mpi_run.h"
#include "src/cli/report.h"

const char cli_price_options_help[] =
    "      --market FILE      market file (JSON): rate and underlyings; required\n"
    "      --portfolio FILE   portfolio file (JSON): trades and run settings; required\n"
    "      --paths N          number of Monte Carlo paths, 2 to 2^40, even with\n"
    "                         antithetic trades (overrides the portfolio's run.paths)\n"
    "      --seed S           random seed, 0 to 2^63-1 (overrides run.seed)\n"
    "      --backend NAME     auto, cpu or cuda (overrides run.backend; default auto:\n"
    "                         the GPU when one is present, else the CPU)\n"
    "      --format NAME      report format: table, csv or json (default table)\n"
    "      --scenarios FILE   revalue the book on the same paths at every point of\n"
    "                         the grid of spot, volatility and rate shifts in FILE,\n"
    "                         and report a matrix a trade (and the book); or, for a\n"
    "                         set of named scenarios (each shifting the underlyings\n"
    "                         it names), the book's value and loss in each against\n"
    "                         the unshifted market (the loss's error that of the\n"
    "                         difference path by path), with historical value at\n"
    "                         risk and expected shortfall at each level of --levels\n"
    "      --levels LIST      a scenario set's VaR and ES levels, comma-separated,\n"
    "                         each from 0.5 to below 1 (default 0.99,0.975)\n"
    "      --plot FILE        also draw a scenario grid's book values as a PNG\n"
    "                         heatmap in FILE: the spot shifts across, the\n"
    "                         volatility shifts up, at the rate shift 0 (else the\n"
    "                         first), white at the unshifted book (else the\n"
    "                         mean); written as --output is\n"
    "      --greeks LIST      also estimate these Greeks of every trade and of the\n"
    "                         book on the same paths: a comma-separated list of\n"
    "                         delta, gamma, vega, rho, theta, cross-gamma,\n"
    "                         correlation (a multi-asset trade's pairs, by\n"
    "                         adjoint), dividend (d/dq, by adjoint), or all (but\n"
    "                         these two); each is reported with its method\n"
    "                         (pathwise, likelihood-ratio, bump, grid or adjoint)\n"
    "                         and standard error\n"
    "      --greek-method NAME  auto (the default: pathwise and likelihood-ratio\n"
    "                         where they apply) or bump (every Greek by\n"
    "                         revaluation at bumped inputs, the reference)\n"
    "      --buckets          also vega and rho by bucket, by adjoint on the same\n"
    "                         paths: a Black-Scholes vega a piece of the volatility\n"
    "                         curve, a local-volatility vega a node of the surface\n"
    "                         or a quote of its implied volatilities (vega@T=1,K=90,\n"
    "                         a closed-form European's too), a rho a piece of the\n"
    "                         rate curve, a dividend a piece of the yield's curve\n"
    "                         or a cash dividend's amount (dividend@t=0.3)\n"
    "                         (European, Asian, date-watched lookback and\n"
    "                         bridge-watched barrier trades (no cash dividend by\n"
    "                         their maturity),\n"
    "                         and baskets, best-of\n"
    "                         and worst-of options on Black-Scholes, local-\n"
    "                         volatility or Heston assets, double precision; the\n"
    "                         others are warned 'buckets'); a Heston vega also a\n"
    "                         parameter of the model (vega@kappa, ...), by adjoint\n"
    "                         for those trades, else by bumps; with\n"
    "                         cross-gamma, a trade of four local-volatility\n"
    "                         assets or more swept back (here, or by\n"
    "                         correlation or dividend) takes its gammas and\n"
    "                         cross gammas by adjoint too (its adjoint deltas\n"
    "                         at each spot moved up and down)\n"
    "      --frtb             report the sensitivities of FRTB's standardised\n"
    "                         approach instead of prices: every trade's and the\n"
    "                         book's equity delta, vega by option maturity (0.5,\n"
    "                         1, 3, 5, 10 years) and curvature by underlying, and\n"
    "                         rate delta by currency and tenor (0.25 to 30 years),\n"
    "                         each revalued on the same paths; the market gives\n"
    "                         each underlying's currency and frtb_bucket;\n"
    "                         --format crif writes the trades' records as a CRIF\n"
    "                         file\n"
    "      --output FILE      write the report to FILE, which is replaced only once\n"
    "                         the report is complete (default: standard output);\n"
    "                         a device or FIFO is written in place, a link\n"
    "                         followed; a directory, an input file (by inode)\n"
    "                         or a file this user cannot replace is refused\n"
    "                         before the run\n"
    "      --tile-paths N     paths per tile: 0 (sized to memory, the default) or a\n"
    "                         multiple of 256; prices do not depend on it\n"
    "      --block-size N     CUDA threads per block: a multiple of 32 from 32 to 1024\n"
    "                         (default 128); prices do not depend on it\n"
    "      --precision NAME   double, float or mixed (overrides run.precision; default\n"
    "                         double; float refuses a Heston |rho| / xi above 1000;\n"
    "                         mixed: double paths on double's normals transformed in\n"
    "                         float, prices double's to about 1e-6 relative)\n"
    "      --normals NAME     fused (the default: the GPU path kernel computes its\n"
    "                         normals in registers) or stored (a tile of normals in\n"
    "                         device memory, read through --prefetch; QMC, and a\n"
    "                         mixed trade with a per-path array, always run\n"
    "                         stored); overrides run.normals; prices do not depend\n"
    "                         on it\n"
    "      --prefetch NAME    how the GPU path kernel fetches each step's inputs: none,\n"
    "                         unroll, scalar-batch, smem-batch, scalar-rolling,\n"
    "                         smem-rolling or smem-async (overrides run.prefetch;\n"
    "                         default none); prices do not depend on it\n"
    "      --prefetch-distance N  steps fetched ahead (the unroll factor for unroll):\n"
    "                         1, 2, 4, 6, 8, 12 or 16 (default 4; a GPU build has\n"
    "                         the others with configure --enable-tuning-kernels)\n"
    "      --padding P        shared-memory variants: 0 to 32 values of padding per\n"
    "                         thread slot, or interleaved (default 0)\n"
    "      --placement NAME   where the GPU keeps the per-path arrays of himalaya,\n"
    "                         cliquet, moving-window and autocallable trades: auto\n"
    "                         (shared memory where it leaves room for 512 threads\n"
    "                         an SM, else local; the default), registers, local or\n"
    "                         shared (overrides run.placement); prices do not\n"
    "                         depend on it\n"
    "      --methods LIST     variance reduction and sampling of the trades that name\n"
    "                         none of their own: a comma-separated list of\n"
    "                         antithetic, control-variate and qmc, or none for plain\n"
    "                         Monte Carlo (overrides run.methods; default none)\n"
    "      --scramblings N    independent scramblings of QMC, 2 to 1024 (overrides\n"
    "                         run.scramblings; default 16)\n"
    "      --regression-paths N  paths the Longstaff-Schwartz regression of American\n"
    "                         and Bermudan options by Monte Carlo is fitted on, 256\n"
    "                         to 16777216, at least 64 a basis function (overrides\n"
    "                         run.regression_paths; default the run's paths, at\n"
    "                         most 131072, at least 64 a basis function)\n"
    "      --heston-scheme NAME  qe (quadratic-exponential, the default) or euler\n"
    "                         (full truncation) for Heston underlyings (overrides\n"
    "                         run.heston_scheme)\n"
    "      --grid-check on|off  the discretisation check (default on): the trades of\n"
    "                         Heston, local-volatility and bridge-watched Merton\n"
    "                         underlyings are priced again on the same paths on a\n"
    "                         grid twice as coarse, and warned 'grid' where that\n"
    "                         moves the price by more than its standard error;\n"
    "                         off saves that revaluation (overrides\n"
    "                         run.grid_check); prices do not depend on it\n"
    "      --exercise-boundary  report each early-exercise trade's exercise\n"
    "                         boundary: the critical spot at each exercise date\n"
    "                         (Longstaff-Schwartz) or grid time step (PDE), with\n"
    "                         its date where the market has one (overrides\n"
    "                         run.exercise_boundary); prices do not depend on it\n"
    "      --pde LIST         products priced on the finite-difference grid unless a\n"
    "                         trade names its method: a comma-separated list of\n"
    "                         european, barrier and american (American options are\n"
    "                         priced there by default); trades the grid does not\n"
    "                         fit (not Black-Scholes, a barrier it cannot watch,\n"
    "                         several assets) stay on Monte Carlo (American ones by\n"
    "                         Longstaff-Schwartz regression)\n"
    "      --pde-scheme NAME  crank-nicolson (the default) or explicit\n"
    "      --pde-nodes N      nodes of the log-spot grid, 16 to 65536 (default 401)\n"
    "      --pde-steps N      time steps, 1 to 100000 (default 400; the explicit\n"
    "                         scheme takes at least what stability needs)\n"
    "      --stencil-points N 3 (second order) or 5 (fourth order in space)\n"
    "      --stencil NAME     how the GPU applies the stencil: regcache (default;\n"
    "                         a 3-point Crank-Nicolson grid of up to 1056 nodes\n"
    "                         then stays in registers), smem or global; prices do\n"
    "                         not depend on it\n"
    "      --coarsening N     grid nodes a GPU thread computes: 1, 2 (default), 4, 8\n"
    "      --devices LIST     spread the run over these GPUs: all, or a comma-\n"
    "                         separated list of device numbers (one may repeat);\n"
    "                         the work is cut into slices that each device takes\n"
    "                         when free, and merged: the same prices to the bit as\n"
    "                         on one device (with --backend cpu: 0 repeated, each\n"
    "                         a worker)\n"
    "      --slice K/N        compute slice K (0 to N-1) of N of the run and write\n"
    "                         it as a partial result to --output (required), for\n"
    "                         'mcprice merge', which prints the report of the\n"
    "                         whole run, the same to the bit; a batch system runs\n"
    "                         the N slices anywhere, each with the same inputs\n"
    "      --wisdom FILE      run each GPU job whose GPU, driver and shape the\n"
    "                         wisdom file of 'mcprice tune' knows with the kernel\n"
    "                         options it found fastest (those not given here or in\n"
    "                         the book's run object), the others by the rules;\n"
    "                         prices do not depend on it\n"
    "  -q, --quiet            no progress line, even when stderr is a terminal\n";

void cli_price_help(FILE *f)
{
  fputs("Usage: mcprice price --market FILE --portfolio FILE [OPTIONS]\n"
        "\n"
        "Prices every trade of the portfolio in the market by Monte Carlo or on a\n"
        "finite-difference grid and reports per-unit prices with standard errors and\n"
        "95% confidence intervals (none for grid prices), position values\n"
        "(quantity x price) and the book total.\n"
        "\n"
        "Options:\n",
        f);
  fputs(cli_price_options_help, f);
  fputs("  -h, --help             show this help and exit\n", f);
}

enum {
  O_MARKET,
  O_PORTFOLIO,
  O_PATHS,
  O_SEED,
  O_BACKEND,
  O_FORMAT,
  O_OUTPUT,
  O_TILE,
  O_BLOCK,
  O_PRECISION,
  O_PREFETCH,
  O_DISTANCE,
  O_PADDING,
  O_METHODS,
  O_SCRAMBLINGS,
  O_REGRESSION,
  O_HESTON,
  O_PDE,
  O_PDE_SCHEME,
  O_PDE_NODES,
  O_PDE_STEPS,
  O_STENCIL_POINTS,
  O_STENCIL,
  O_COARSENING,
  O_PLACEMENT,
  O_NORMALS,
  O_GRID_CHECK,
  O_BOUNDARY,
  O_SCENARIOS,
  O_LEVELS,
  O_PLOT,
  O_GREEKS,
  O_GREEK_METHOD,
  O_BUCKETS,
  O_FRTB,
  O_SLICE,
  O_DEVICES,
  O_WISDOM,
  O_QUIET,
  O_HELP
};
#define GIVEN(o, opt) ((o)->given & (UINT64_C(1) << (opt)))

static const cli_option options[] = {
    [O_MARKET] = {"market", 0, 1},    [O_PORTFOLIO] = {"portfolio", 0, 1},
    [O_PATHS] = {"paths", 0, 1},      [O_SEED] = {"seed", 0, 1},
    [O_BACKEND] = {"backend", 0, 1},  [O_FORMAT] = {"format", 0, 1},
    [O_OUTPUT] = {"output", 0, 1},    [O_TILE] = {"tile-paths", 0, 1},
    [O_BLOCK] = {"block-size", 0, 1}, [O_PRECISION] = {"precision", 0, 1},
    [O_PREFETCH] = {"prefetch", 0, 1}, [O_DISTANCE] = {"prefetch-distance", 0, 1},
    [O_PADDING] = {"padding", 0, 1},  [O_METHODS] = {"methods", 0, 1},
    [O_SCRAMBLINGS] = {"scramblings", 0, 1}, [O_HESTON] = {"heston-scheme", 0, 1},
    [O_REGRESSION] = {"regression-paths", 0, 1},
    [O_PDE] = {"pde", 0, 1},          [O_PDE_SCHEME] = {"pde-scheme", 0, 1},
    [O_PDE_NODES] = {"pde-nodes", 0, 1}, [O_PDE_STEPS] = {"pde-steps", 0, 1},
    [O_STENCIL_POINTS] = {"stencil-points", 0, 1}, [O_STENCIL] = {"stencil", 0, 1},
    [O_COARSENING] = {"coarsening", 0, 1}, [O_PLACEMENT] = {"placement", 0, 1},
    [O_NORMALS] = {"normals", 0, 1}, [O_GRID_CHECK] = {"grid-check", 0, 1},
    [O_BOUNDARY] = {"exercise-boundary", 0, 0},
    [O_SCENARIOS] = {"scenarios", 0, 1}, [O_LEVELS] = {"levels", 0, 1},
    [O_PLOT] = {"plot", 0, 1},
    [O_GREEKS] = {"greeks", 0, 1},
    [O_GREEK_METHOD] = {"greek-method", 0, 1}, [O_BUCKETS] = {"buckets", 0, 0},
    [O_FRTB] = {"frtb", 0, 0},
    [O_SLICE] = {"slice", 0, 1},      [O_DEVICES] = {"devices", 0, 1},
    [O_WISDOM] = {"wisdom", 0, 1},    [O_QUIET] = {"quiet", 'q', 0},
    [O_HELP] = {"help", 'h', 0},      {NULL, 0, 0}};

typedef struct price_opts {
  uint64_t given; /* bit O_x: the option was on the command line */
  int carried[3][2]; /* the arguments of --slice, --output and --wisdom, argv[a] ..
                        argv[b - 1], which a slice's partial does not carry */
  unsigned slice_k, slice_n;
  int devices[MCP_MAX_DEVICES], all_devices;
  size_t ndevices;
  const char *market, *portfolio, *output, *scenarios, *greeks;
  const char *plot; /* --plot: a scenario grid's heatmap (PNG) */
  const char *wisdom;
  int bump_only; /* --greek-method bump */
  uint64_t paths, seed, tile_paths, block_size, distance, padding, scramblings, regression;
  int methods; /* MCP_ANTITHETIC | ... */
  unsigned pde_products; /* bit 1 << mcp_product */
  uint64_t pde_nodes, pde_steps, stencil_points, coarsening;
  mcp_pde_scheme pde_scheme;
  mcp_stencil stencil;
  mcp_heston_scheme heston;
  mcp_backend backend;
  mcp_precision precision;
  mcp_prefetch prefetch;
  mcp_placement placement;
  mcp_normals normals;
  int grid_check; /* --grid-check: 1 on, 0 off */
  double levels[REPORT_MAX_LEVELS]; /* --levels: a scenario set's VaR and ES */
  size_t nlevels;
  report_format format;
} price_opts;

/* Decimal digits only: strtoull alone would take "-1", " 5" and "0x10". */
static int parse_count(const char *option, const char *s, uint64_t max, uint64_t *out)
{
  char *end = (char *)s;
  errno = 0;
  unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
  if (end == s || *end) {
    cli_error("--%s: expected a whole number, got '%s'", option, s);
    return -1;
  }
  if (errno == ERANGE || v > max) {
    cli_error("--%s: %s is too large", option, s);
    return -1;
  }
  *out = v;
  return 0;
}

/* --levels: a comma-separated list of 1 to REPORT_MAX_LEVELS levels, each a
 * decimal number from 0.5 to below 1. */
static int parse_levels(const char *s, price_opts *o)
{
  o->nlevels = 0;
  for (const char *p = s;; p++) {
    char *end;
    errno = 0;
    double x = *p >= '0' && *p <= '9' ? strtod(p, &end) : NAN;
    if (!(x >= 0.5 && x < 1) || errno || (*end && *end != ',') ||
        o->nlevels == REPORT_MAX_LEVELS) {
      cli_error("--levels: expected 1 to %d comma-separated levels from 0.5 to below 1 "
                "(0.99,0.975), got '%s'",
                REPORT_MAX_LEVELS, s);
      return -1;
    }
    o->levels[o->nlevels++] = x;
    p = end;
    if (!*p)
      return 0;
  }
}

#define METHOD_NAMES "antithetic, control-variate, qmc"

/* A comma-separated list of method names, each at most once, or "none". */
static int parse_methods(const char *s, int *out)
{
  static const struct {
    const char *name;
    int flag;
  } names[] = {{"antithetic", MCP_ANTITHETIC},
               {"control-variate", MCP_CONTROL_VARIATE},
               {"qmc", MCP_QMC}};
  int flags = 0;
  if (strcmp(s, "none") == 0) {
    *out = 0;
    return 0;
  }
  for (const char *p = s;; p++) {
    size_t len = strcspn(p, ","), k = 0;
    while (k < sizeof names / sizeof *names &&
           (strlen(names[k].name) != len || strncmp(names[k].name, p, len) != 0))
      k++;
    if (k == sizeof names / sizeof *names) {
      if (len)
        cli_error("--methods: expected none or a comma-separated list of " METHOD_NAMES
                  "; got '%.*s' in '%s'", (int)len, p, s);
      else
        cli_error("--methods: expected none or a comma-separated list of " METHOD_NAMES
                  "; got an empty name in '%s'", s);
      return -1;
    }
    if (flags & names[k].flag) {
      cli_error("--methods: %s is listed twice in '%s'", names[k].name, s);
      return -1;
    }
    flags |= names[k].flag;
    p += len;
    if (!*p)
      break;
  }
  *out = flags;
  return 0;
}

/* A comma-separated list of the products the PDE prices. */
static int parse_pde_products(const char *s, unsigned *out)
{
  unsigned set = 0;
  for (const char *p = s;; p++) {
    size_t len = strcspn(p, ",");
    char name[32];
    mcp_product product;
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
    if (len >= sizeof name || mcp_product_from_name(name, &product) != MCP_OK ||
        (product != MCP_PRODUCT_EUROPEAN && product != MCP_PRODUCT_BARRIER &&
         product != MCP_PRODUCT_AMERICAN)) {
      cli_error("--pde: expected a comma-separated list of european, barrier, american; "
                "got '%.*s' in '%s'", (int)len, p, s);
      return -1;
    }
    set |= 1u << product;
    p += len;
    if (!*p)
      break;
  }
  *out = set;
  return 0;
}

/* --slice K/N. */
static int parse_slice(const char *s, price_opts *o)
{
  char k[24], n[24];
  uint64_t vk, vn;
  const char *slash = strchr(s, '/');
  if (!slash || slash - s >= (long)sizeof k || strlen(slash + 1) >= sizeof n) {
    cli_error("--slice: expected K/N, slice K (0 to N-1) of N; got '%s'", s);
    return -1;
  }
  snprintf(k, sizeof k, "%.*s", (int)(slash - s), s);
  snprintf(n, sizeof n, "%s", slash + 1);
  if (parse_count("slice", k, UINT_MAX, &vk) || parse_count("slice", n, UINT_MAX, &vn))
    return -1;
  if (vn < 1 || vn > MCP_MAX_SLICES || vk >= vn) {
    cli_error("--slice: expected K/N with 1 <= N <= %u and 0 <= K < N; got '%s'",
              MCP_MAX_SLICES, s);
    return -1;
  }
  o->slice_k = (unsigned)vk;
  o->slice_n = (unsigned)vn;
  return 0;
}

/* --devices all, or a list of device numbers. */
static int parse_devices(const char *s, price_opts *o)
{
  if (strcmp(s, "all") == 0) {
    o->all_devices = 1;
    return 0;
  }
  for (const char *p = s;; p++) {
    size_t len = strcspn(p, ",");
    char num[24];
    uint64_t v;
    if (o->ndevices == MCP_MAX_DEVICES) {
      cli_error("--devices: more than %d devices in '%s'", MCP_MAX_DEVICES, s);
      return -1;
    }
    snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), p);
    if (len >= sizeof num || parse_count("devices", num, INT_MAX, &v))
      return -1;
    o->devices[o->ndevices++] = (int)v;
    p += len;
    if (!*p)
      break;
  }
  return 0;
}

/* Returns -1 to go on, else the exit status.  partial names the file whose
 * carried command argv is (a merge's), or is NULL. */
/* Where a written path lands: the file it resolves to where it exists
 * (links followed, as the output rules do), else its resolved folder and
 * name; into out (PATH_MAX bytes), 0, or -1 when its folder resolves to
 * nothing (the open then says why). */
static int destination(const char *path, char *out)
{
  if (realpath(path, out))
    return 0;
  char dir[PATH_MAX];
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (n >= sizeof dir)
    return -1;
  memcpy(dir, slash ? path : ".", slash ? n : 1);
  dir[slash ? n : 1] = '\0';
  char real[PATH_MAX];
  if (!realpath(slash && n == 0 ? "/" : dir, real))
    return -1;
  return snprintf(out, PATH_MAX, "%s/%s", real, slash ? slash + 1 : path) < PATH_MAX ? 0 : -1;
}

/* --plot's file is neither the report's (two temporaries renamed onto one
 * name would leave one of them) nor, with the report on standard output,
 * that stream. */
static int plot_apart(const price_opts *o)
{
  char a[PATH_MAX], b[PATH_MAX];
  struct stat p, out;
  if (o->output ? destination(o->plot, a) == 0 && destination(o->output, b) == 0 &&
                      strcmp(a, b) == 0
                : stat(o->plot, &p) == 0 && fstat(STDOUT_FILENO, &out) == 0 &&
                      p.st_dev == out.st_dev && p.st_ino == out.st_ino) {
    cli_error("price: --plot %s: the report is written there; give another file", o->plot);
    return -1;
  }
  return 0;
}

static int parse_args(char **argv, price_opts *o, const char *partial)
{
  int next = 0, k, before = 0;
  const char *v;
  while ((k = cli_next_option(argv, &next, options, "price", &v)) >= 0) {
    /* a slice carries what to price, never where to write, which slice or
     * how fast: a partial's command may not name other files */
    int apart = k == O_SLICE ? 0 : k == O_OUTPUT ? 1 : k == O_WISDOM ? 2 : -1;
    if (partial && (apart >= 0 || k == O_HELP)) {
      cli_error("merge: %s: its price command gives --%s, which no slice carries; expected "
                "a partial written by 'mcprice price --slice'", partial, options[k].name);
      return CLI_EXIT_INPUT;
    }
    if (apart >= 0) {
      o->carried[apart][0] = before;
      o->carried[apart][1] = next;
    }
    before = next;
    if (GIVEN(o, k) && k != O_HELP) { /* which one would win is a guess */
      cli_error("--%s: given twice", options[k].name);
      return CLI_EXIT_USAGE;
    }
    o->given |= UINT64_C(1) << k;
    int bad = 0;
    switch (k) {
    case O_MARKET:
      o->market = v;
      break;
    case O_PORTFOLIO:
      o->portfolio = v;
      break;
    case O_SCENARIOS:
      o->scenarios = v;
      break;
    case O_LEVELS:
      bad = parse_levels(v, o) != 0;
      break;
    case O_PLOT:
      o->plot = v;
      break;
    case O_GREEKS:
      o->greeks = v;
      break;
    case O_GREEK_METHOD:
      bad = strcmp(v, "bump") != 0 && strcmp(v, "auto") != 0;
      o->bump_only = strcmp(v, "bump") == 0;
      if (bad)
        cli_error("--greek-method: expected auto or bump; got '%s'", v);
      break;
    case O_OUTPUT:
      o->output = v;
      break;
    case O_WISDOM:
      o->wisdom = v;
      break;
    case O_SLICE:
      bad = parse_slice(v, o);
      break;
    case O_DEVICES:
      bad = parse_devices(v, o);
      break;
    case O_PATHS:
      bad = parse_count("paths", v, UINT64_MAX, &o->paths);
      break;
    case O_SEED:
      bad = parse_count("seed", v, INT64_MAX, &o->seed);
      break;
    case O_TILE:
      bad = parse_count("tile-paths", v, UINT64_MAX, &o->tile_paths);
      break;
    case O_BLOCK:
      bad = parse_count("block-size", v, INT_MAX, &o->block_size);
      break;
    case O_BACKEND:
      bad = mcp_backend_from_name(v, &o->backend) != MCP_OK;
      if (bad)
        cli_error("--backend: expected one of auto, cpu, cuda; got '%s'", v);
      break;
    case O_PRECISION:
      bad = mcp_precision_from_name(v, &o->precision) != MCP_OK;
      if (bad)
        cli_error("--precision: expected double, float or mixed; got '%s'", v);
      break;
    case O_PREFETCH:
      bad = mcp_prefetch_from_name(v, &o->prefetch) != MCP_OK;
      if (bad)
        cli_error("--prefetch: expected one of none, unroll, scalar-batch, smem-batch, "
                  "scalar-rolling, smem-rolling, smem-async; got '%s'",
                  v);
      break;
    case O_DISTANCE:
      bad = parse_count("prefetch-distance", v, INT_MAX, &o->distance);
      break;
    case O_PLACEMENT:
      bad = mcp_placement_from_name(v, &o->placement) != MCP_OK;
      if (bad)
        cli_error("--placement: expected one of auto, registers, local, shared; got '%s'", v);
      break;
    case O_NORMALS:
      bad = mcp_normals_from_name(v, &o->normals) != MCP_OK;
      if (bad)
        cli_error("--normals: expected fused or stored; got '%s'", v);
      break;
    case O_GRID_CHECK:
      o->grid_check = strcmp(v, "on") == 0;
      bad = !o->grid_check && strcmp(v, "off") != 0;
      if (bad)
        cli_error("--grid-check: expected on or off; got '%s'", v);
      break;
    case O_PADDING:
      if (strcmp(v, "interleaved") == 0)
        o->padding = UINT64_MAX; /* MCP_PADDING_INTERLEAVED */
      else
        bad = parse_count("padding", v, INT_MAX, &o->padding);
      break;
    case O_METHODS:
      bad = parse_methods(v, &o->methods);
      break;
    case O_SCRAMBLINGS:
      bad = parse_count("scramblings", v, UINT_MAX, &o->scramblings);
      break;
    case O_REGRESSION:
      bad = parse_count("regression-paths", v, UINT64_MAX, &o->regression);
      break;
    case O_HESTON:
      if (strcmp(v, "qe") == 0)
        o->heston = MCP_HESTON_QE;
      else if (strcmp(v, "euler") == 0)
        o->heston = MCP_HESTON_EULER;
      else {
        cli_error("--heston-scheme: expected qe or euler; got '%s'", v);
        bad = 1;
      }
      break;
    case O_PDE:
      bad = parse_pde_products(v, &o->pde_products);
      break;
    case O_PDE_SCHEME:
      bad = mcp_pde_scheme_from_name(v, &o->pde_scheme) != MCP_OK;
      if (bad)
        cli_error("--pde-scheme: expected crank-nicolson or explicit; got '%s'", v);
      break;
    case O_PDE_NODES:
      bad = parse_count("pde-nodes", v, UINT_MAX, &o->pde_nodes);
      break;
    case O_PDE_STEPS:
      bad = parse_count("pde-steps", v, UINT_MAX, &o->pde_steps);
      break;
    case O_STENCIL_POINTS:
      bad = parse_count("stencil-points", v, INT_MAX, &o->stencil_points);
      break;
    case O_STENCIL:
      bad = mcp_stencil_from_name(v, &o->stencil) != MCP_OK;
      if (bad)
        cli_error("--stencil: expected regcache, smem or global; got '%s'", v);
      break;
    case O_COARSENING:
      bad = parse_count("coarsening", v, INT_MAX, &o->coarsening);
      break;
    case O_FORMAT:
      bad = report_format_from_name(v, &o->format) != 0;
      if (bad)
        cli_error("--format: expected one of " REPORT_FORMAT_NAMES "; got '%s'", v);
      break;
    case O_HELP:
      cli_price_help(stdout);
      return CLI_EXIT_OK;
    }
    if (bad)
      return CLI_EXIT_USAGE;
  }
  if (k == CLI_OPT_BAD)
    return CLI_EXIT_USAGE;
  if (!o->market || !o->portfolio) {
    cli_error("price: missing --%s (try 'mcprice help price')", o->market ? "portfolio" : "market");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_LEVELS) && !o->scenarios) {
    cli_error("price: --levels needs --scenarios with a scenario set");
    return CLI_EXIT_USAGE;
  }
  if (o->greeks && o->scenarios) {
    cli_error("price: --greeks and --scenarios are separate runs; give one of them");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_GREEK_METHOD) && !o->greeks) {
    cli_error("price: --greek-method needs --greeks");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_BUCKETS) && !o->greeks) {
    cli_error("price: --buckets needs --greeks (delta, vega or rho)");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_BUCKETS) && o->bump_only) {
    cli_error("price: --buckets come by adjoint; --greek-method bump has none");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_FRTB) && (o->greeks || o->scenarios)) {
    cli_error("price: --frtb is a run of its own; give it without --%s",
              o->greeks ? "greeks" : "scenarios");
    return CLI_EXIT_USAGE;
  }
  if (o->format == REPORT_CRIF && !GIVEN(o, O_FRTB)) {
    cli_error("price: --format crif is the FRTB view's; give --frtb");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_SLICE) && !o->output) {
    cli_error("price: --slice writes a partial result, not a report: give --output FILE");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_PLOT) && (GIVEN(o, O_SLICE) || GIVEN(o, O_FRTB) || o->greeks)) {
    cli_error("price: --plot draws a scenario grid's report, not %s",
              GIVEN(o, O_SLICE) ? "a slice's partial" : GIVEN(o, O_FRTB) ? "--frtb's" : "Greeks");
    return CLI_EXIT_USAGE;
  }
  if (GIVEN(o, O_PLOT) && plot_apart(o) != 0)
    return CLI_EXIT_USAGE;
  if (GIVEN(o, O_SLICE) && GIVEN(o, O_DEVICES)) {
    cli_error("price: --slice runs on one device; --devices spreads a whole run");
    return CLI_EXIT_USAGE;
  }
  return -1;
}

/* ---- settings: the flags override the files' ------------------------------- */

/* The flags that say what the book's prices mean, onto the portfolio. */
static int apply_book_settings(const price_opts *o, mcp_portfolio *p)
{
  mcp_status st = MCP_OK;
  const char *option = NULL;
  if (GIVEN(o, O_PATHS) && (st = mcp_portfolio_set_paths(p, o->paths)) != MCP_OK)
    option = "--paths";
  else if (GIVEN(o, O_SEED) && (st = mcp_portfolio_set_seed(p, o->seed)) != MCP_OK)
    option = "--seed";
  else if (GIVEN(o, O_METHODS) && (st = mcp_portfolio_set_methods(p, o->methods)) != MCP_OK)
    option = "--methods";
  else if (GIVEN(o, O_SCRAMBLINGS) &&
           (st = mcp_portfolio_set_scramblings(p, (unsigned)o->scramblings)) != MCP_OK)
    option = "--scramblings";
  else if (GIVEN(o, O_REGRESSION) &&
           (st = mcp_portfolio_set_regression_paths(p, o->regression)) != MCP_OK)
    option = "--regression-paths";
  else if (GIVEN(o, O_HESTON) &&
           (st = mcp_portfolio_set_heston_scheme(p, o->heston)) != MCP_OK)
    option = "--heston-scheme";
  for (int k = 0; !option && k < MCP_PRODUCT_COUNT; k++)
    if (o->pde_products & (1u << k))
      mcp_portfolio_set_engine(p, (mcp_product)k, MCP_ENGINE_PDE);
  if (option)
    cli_error("bad %s value: %s", option, mcp_portfolio_last_error(p));
  return cli_exit_for(st);
}

/* The flags that say how to run, onto the run options (the devices apart:
 * "all" depends on the context's backend). */
static int apply_run_options(const price_opts *o, mcp_run_options *r)
{
  mcp_status st = MCP_OK;
  const char *option = NULL;
  if (GIVEN(o, O_BACKEND) && (st = mcp_run_options_set_backend(r, o->backend)) != MCP_OK)
    option = "--backend";
  else if (GIVEN(o, O_PRECISION) &&
           (st = mcp_run_options_set_precision(r, o->precision)) != MCP_OK)
    option = "--precision";
  else if (GIVEN(o, O_PLACEMENT) &&
           (st = mcp_run_options_set_placement(r, o->placement)) != MCP_OK)
    option = "--placement";
  else if (GIVEN(o, O_NORMALS) && (st = mcp_run_options_set_normals(r, o->normals)) != MCP_OK)
    option = "--normals";
  else if (GIVEN(o, O_GRID_CHECK) &&
           (st = mcp_run_options_set_grid_check(r, o->grid_check)) != MCP_OK)
    option = "--grid-check";
  else if (GIVEN(o, O_BOUNDARY) &&
           (st = mcp_run_options_set_exercise_boundary(r, 1)) != MCP_OK)
    option = "--exercise-boundary";
  else if (GIVEN(o, O_TILE) && (st = mcp_run_options_set_tile_paths(r, o->tile_paths)) != MCP_OK)
    option = "--tile-paths";
  else if (GIVEN(o, O_BLOCK) &&
           (st = mcp_run_options_set_block_size(r, (int)o->block_size)) != MCP_OK)
    option = "--block-size";
  else if (GIVEN(o, O_PREFETCH) || GIVEN(o, O_DISTANCE) || GIVEN(o, O_PADDING)) {
    mcp_prefetch s;
    int d, pad;
    mcp_run_options_prefetch(r, &s, &d, &pad);
    if (GIVEN(o, O_PREFETCH))
      s = o->prefetch;
    if (GIVEN(o, O_DISTANCE))
      d = (int)o->distance;
    if (GIVEN(o, O_PADDING))
      pad = o->padding == UINT64_MAX ? MCP_PADDING_INTERLEAVED : (int)o->padding;
    if ((st = mcp_run_options_set_prefetch(r, s, d, pad)) != MCP_OK)
      option = GIVEN(o, O_DISTANCE) ? "--prefetch-distance" : "--padding";
  }
  /* the grid flags one at a time, so that a refusal names its flag */
  static const struct { int opt; const char *name; } pde_flags[] = {
      {O_PDE_SCHEME, "--pde-scheme"},         {O_PDE_NODES, "--pde-nodes"},
      {O_PDE_STEPS, "--pde-steps"},           {O_STENCIL_POINTS, "--stencil-points"},
      {O_STENCIL, "--stencil"},               {O_COARSENING, "--coarsening"}};
  for (size_t f = 0; !option && f < sizeof pde_flags / sizeof *pde_flags; f++) {
    if (!GIVEN(o, pde_flags[f].opt))
      continue;
    mcp_pde_settings s;
    mcp_run_options_pde(r, &s);
    switch (pde_flags[f].opt) {
    case O_PDE_SCHEME: s.scheme = o->pde_scheme; break;
    case O_PDE_NODES: s.space_points = o->pde_nodes > UINT_MAX ? UINT_MAX : (unsigned)o->pde_nodes; break;
    case O_PDE_STEPS: s.time_steps = o->pde_steps > UINT_MAX ? UINT_MAX : (unsigned)o->pde_steps; break;
    case O_STENCIL_POINTS: s.stencil_points = (int)o->stencil_points; break;
    case O_STENCIL: s.stencil = o->stencil; break;
    default: s.coarsening = (int)o->coarsening; break;
    }
    if ((st = mcp_run_options_set_pde(r, &s)) != MCP_OK)
      option = pde_flags[f].name;
  }
  if (option)
    cli_error("bad %s value: %s", option, mcp_run_options_last_error(r));
  return cli_exit_for(st);
}

/* Runs the library's own checks on scratch objects before any file is read,
 * so a bad flag is a usage error (2) whatever the inputs hold. */
static int check_settings(const price_opts *o)
{
  mcp_portfolio *p = NULL;
  mcp_run_options *r = NULL;
  int rc = CLI_EXIT_RUNTIME;
  if (mcp_portfolio_create(&p) != MCP_OK || mcp_run_options_create(&r) != MCP_OK)
    cli_error("out of memory");
  else if ((rc = apply_book_settings(o, p)) == CLI_EXIT_OK)
    rc = apply_run_options(o, r);
  mcp_run_options_destroy(r);
  mcp_portfolio_destroy(p);
  return rc;
}

/* The --greeks request, if given: a bad list is a usage error. */
static int make_greeks(const price_opts *o, mcp_greeks **g)
{
  if (!o->greeks)
    return CLI_EXIT_OK;
  if (mcp_greeks_create(g) != MCP_OK) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  if (mcp_greeks_parse(*g, o->greeks) != MCP_OK) {
    cli_error("--%s", mcp_greeks_last_error(*g));
    return CLI_EXIT_USAGE;
  }
  mcp_greeks_set_bump_only(*g, o->bump_only);
  mcp_greeks_set_buckets(*g, GIVEN(o, O_BUCKETS) != 0);
  return CLI_EXIT_OK;
}

/* ---- inputs and context ---------------------------------------------------- */

static int load_failed(mcp_status st, const char *path, const char *err)
{
  if (st == MCP_OK)
    return 0;
  if (!err[0])
    err = mcp_strerror(st);
  /* the loaders name the file, line and column; add the name if missing */
  if (strstr(err, path))
    cli_error("%s", err);
  else
    cli_error("%s: %s", path, err);
  return cli_exit_for(st);
}

/* The book, its dates turned into times by the market m, and the run
 * options of its run object, from one reading of the file (text, or path
 * when text is NULL). */
static mcp_status load_book(const char *path, const char *text, size_t len, const mcp_market *m,
                            mcp_portfolio **p, mcp_run_options **r, char *err, size_t errlen)
{
  char *own = NULL;
  if (!text) {
    mcp_status st = mcp_input_read(path, &own, &len, err, errlen);
    if (st != MCP_OK)
      return st;
    text = own;
  }
  mcp_status st = mcp_portfolio_load_text_with_options(p, r, m, path, text, len, err, errlen);
  free(own);
  return st;
}

/* The inputs: the files, or a merge's copies of them (annex.h) by their
 * names; a slice also keeps the files' contents in *keep. */
static int load_inputs(const price_opts *o, const cli_annex *from, cli_annex *keep,
                       mcp_market **m, mcp_portfolio **p, mcp_run_options **r,
                       mcp_scenarios **s)
{
  const char *path[ANNEX_FILES] = {o->market, o->portfolio, o->scenarios};
  for (int f = 0; f < ANNEX_FILES; f++) {
    char err[1024] = "";
    mcp_status st;
    if (!path[f])
      continue;
    if (from && !from->text[f]) {
      cli_error("%s: the partial result carries no %s file", path[f],
                f == ANNEX_MARKET ? "market" : f == ANNEX_PORTFOLIO ? "portfolio" : "scenario");
      return CLI_EXIT_INPUT;
    }
    /* a slice reads each file once, the bytes it loads and carries */
    st = keep ? mcp_input_read(path[f], &keep->text[f], &keep->len[f], err, sizeof err)
              : MCP_OK;
    if (st != MCP_OK)
      return load_failed(st, path[f], err);
    const cli_annex *text = keep ? keep : from;
    if (f == ANNEX_MARKET)
      st = text ? mcp_market_load_text(m, path[f], text->text[f], text->len[f], err, sizeof err)
                : mcp_market_load(m, path[f], err, sizeof err);
    else if (f == ANNEX_PORTFOLIO)
      st = load_book(path[f], text ? text->text[f] : NULL, text ? text->len[f] : 0, *m, p, r,
                     err, sizeof err);
    else
      st = text ? mcp_scenarios_load_text(s, path[f], text->text[f], text->len[f], err,
                                          sizeof err)
                : mcp_scenarios_load(s, path[f], err, sizeof err);
    int rc = load_failed(st, path[f], err);
    if (rc)
      return rc;
  }
  return CLI_EXIT_OK;
}

/* On the run options (the flags over the portfolio file's run object). */
static int make_context(const price_opts *o, const mcp_run_options *r, mcp_context **c)
{
  mcp_backend b = mcp_run_options_backend(r);
  char err[1024];
  mcp_status st = mcp_context_create_with_options(c, r, err, sizeof err);
  if (st == MCP_ERR_UNAVAILABLE) {
    cli_error("backend %s (asked for by %s) is unavailable: %s", mcp_backend_name(b),
              GIVEN(o, O_BACKEND) ? "--backend" : o->portfolio,
              mcp_cuda_built() ? "no CUDA GPU was found" : "mcprice was built without CUDA");
    return CLI_EXIT_RUNTIME;
  }
  if (st != MCP_OK) {
    cli_error("cannot create a %s context: %s", mcp_backend_name(b), err);
    return cli_exit_for(st) == CLI_EXIT_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
  }
  if (GIVEN(o, O_WISDOM)) {
    mcp_wisdom *w = NULL;
    st = mcp_wisdom_load(&w, o->wisdom, err, sizeof err);
    if (st == MCP_OK && (st = mcp_context_set_wisdom(*c, w)) != MCP_OK)
      snprintf(err, sizeof err, "%s", mcp_context_last_error(*c));
    mcp_wisdom_destroy(w);
    if (st != MCP_OK) {
      cli_error("%s", err);
      return cli_exit_for(st);
    }
  }
  if (!GIVEN(o, O_DEVICES))
    return CLI_EXIT_OK;
  int all[MCP_MAX_DEVICES];
  size_t n = o->ndevices;
  const int *list = o->devices;
  if (o->all_devices) {
    int count = mcp_context_backend(*c) == MCP_BACKEND_CUDA ? mcp_device_count() : 1;
    n = count < MCP_MAX_DEVICES ? (size_t)count : MCP_MAX_DEVICES;
    for (size_t i = 0; i < n; i++)
      all[i] = (int)i;
    list = all;
  }
  if (mcp_context_set_devices(*c, n, list) != MCP_OK) {
    cli_error("bad --devices value: %s", mcp_context_last_error(*c));
    return CLI_EXIT_USAGE;
  }
  return CLI_EXIT_OK;
}

/* ---- progress ---------------------------------------------------------------- */

typedef struct progress {
  double start, last;
  int shown;
} progress;

static void on_progress(double fraction, void *user)
{
  progress *pr = user;
  double t = mcpi_now();
  /* silent for short runs, then at most ten updates a second */
  if (t - pr->start <= 1.0 || (t - pr->last < 0.1 && fraction < 1.0))
    return;
  pr->last = t;
  pr->shown = 1;
  int percent = fraction >= 1.0 ? 100 : fraction > 0 ? (int)(100.0 * fraction) : 0;
  fprintf(stderr, "\rpricing: %3d%%  elapsed %.1f s", percent, t - pr->start);
}

/* ---- interruption -------------------------------------------------------------- */

/* SIGINT or SIGTERM while pricing asks the context to stop
 * (mcp_context_cancel: one atomic store, safe in a handler) and is noted:
 * the call returns within a tile, and, even after its last check, nothing
 * is written.  Then the signal is raised again, so that the program ends
 * by it, as a shell's loop expects (status 130 or 143 there).  A signal
 * ignored when the tool started stays ignored (a background job's SIGINT);
 * the handler puts the one before it back (report.c's, which removes the
 * output's temporary), so a second signal ends the program at once. */
static const int interrupts[2] = {SIGINT, SIGTERM};
static struct sigaction before[2];
static mcp_context *volatile interrupted;
static volatile sig_atomic_t caught;

static void on_interrupt(int sig)
{
  caught = sig;
  mcp_context_cancel(interrupted);
  for (int i = 0; i < 2; i++)
    if (interrupts[i] == sig)
      sigaction(sig, &before[i], NULL);
}

/* The handlers on (c) while pricing; the ones before them back (c NULL). */
static void catch_interrupts(mcp_context *c)
{
  struct sigaction sa = {0};
  sa.sa_handler = on_interrupt;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  interrupted = c;
  for (int i = 0; i < 2; i++)
    if (!c)
      sigaction(interrupts[i], &before[i], NULL);
    else if (sigaction(interrupts[i], NULL, &before[i]) == 0 &&
             before[i].sa_handler != SIG_IGN)
      sigaction(interrupts[i], &sa, NULL);
}

/* The signal that stopped the pricing, raised again under its default
 * action: the program ends by it. */
static void end_by_signal(void)
{
  int sig = (int)caught;
  signal(sig, SIG_DFL);
  raise(sig);
}

/* ---- the command --------------------------------------------------------------- */

/* ":line:column" of the trade a pricing error names first ("trade 'ID': ..."),
 * where the portfolio file gave it, or "". */
static void error_where(const mcp_portfolio *p, const char *msg, char *buf, size_t len)
{
  buf[0] = '\0';
  if (strncmp(msg, "trade '", 7) != 0)
    return;
  for (size_t i = 0; i < mcp_portfolio_size(p); i++) {
    const char *id = mcp_portfolio_trade_id(p, i);
    size_t n = strlen(id);
    int line, column;
    if (strncmp(msg + 7, id, n) == 0 && msg[7 + n] == '\'' &&
        mcp_portfolio_trade_source(p, i, &line, &column) == MCP_OK) {
      snprintf(buf, len, ":%d:%d", line, column);
      return;
    }
  }
}

/* How a price command runs: on its own, as a slice whose partial carries
 * annex, as the merge of nparts partials, or as rank (>= 0) of an MPI
 * run. */
typedef struct run_kind {
  const cli_annex *annex;
  mcp_partial *const *parts;
  size_t nparts;
  char *const *files; /* the merge's partial files, which --output may not be */
  int rank, local;    /* MPI: the rank, and its index on its host */
} run_kind;

/* The slice's partial, with the command and its inputs, to f. */
static mcp_status write_slice(const price_opts *o, const run_kind *k, mcp_context *c,
                              const mcp_market *m, const mcp_portfolio *p,
                              const mcp_scenarios *s, const mcp_greeks *g, FILE *f)
{
  mcp_partial *part = NULL;
  char *annex = NULL;
  void *bytes = NULL;
  size_t alen = 0, len = 0;
  mcp_status st = mcp_price_slice(c, m, p, g, s, o->slice_k, o->slice_n, &part);
  if (st == MCP_OK && (cli_annex_encode(k->annex, &annex, &alen) != 0 ||
                       mcp_partial_set_annex(part, annex, alen) != MCP_OK ||
                       mcp_partial_encode(part, &bytes, &len) != MCP_OK)) {
    cli_error("out of memory writing the partial result");
    st = MCP_ERR_NO_MEMORY;
  }
  if (st == MCP_OK && fwrite(bytes, 1, len, f) != len) {
    cli_error("cannot write %s: %s", o->output, strerror(errno));
    st = MCP_ERR_IO;
  }
  free(bytes);
  free(annex);
  mcp_partial_destroy(part);
  return st;
}

static int price_and_report(const price_opts *o, const run_kind *k, mcp_context *c,
                            const mcp_market *m, const mcp_portfolio *p, const mcp_scenarios *s,
                            const mcp_greeks *g)
{
  report_sink sink = {0};
  /* open the output first: an unwritable --output fails before a long run
   * (under MPI, rank 0's: the others write nothing) */
  report_input inputs[4] = {{"market", o->market},
                            {"portfolio", o->portfolio},
                            {"scenarios", o->scenarios},
                            {"wisdom", o->wisdom}};
  size_t ninputs = 4;
  report_input *merged = NULL;
  if (k->parts) { /* a merge reads its partials, not the carried files */
    if (!(merged = calloc(k->nparts, sizeof *merged))) {
      cli_error("out of memory");
      return CLI_EXIT_RUNTIME;
    }
    for (size_t i = 0; i < k->nparts; i++)
      merged[i] = (report_input){"partial", k->files[i]};
    ninputs = k->nparts;
  }
  int opened = k->rank > 0 ? 0 : report_open(&sink, "--output", o->output,
                                             merged ? merged : inputs, ninputs);
  free(merged);
  /* --plot's file, neither an input nor the report's */
  report_sink plot = {0};
  report_input others[5] = {inputs[0], inputs[1], inputs[2], inputs[3], {"output", o->output}};
  if (opened == 0 && o->plot && k->rank <= 0 &&
      (opened = report_open(&plot, "--plot", o->plot, others, 5)) != 0)
    report_abort(&sink);
  int refused = opened == 0 ? CLI_EXIT_OK : opened == -2 ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
  if (k->rank >= 0) /* rank 0's refusal stops every rank, with its status */
    refused = cli_mpi_agree(refused);
  if (refused != CLI_EXIT_OK) {
    report_abort(&sink);
    report_abort(&plot);
    return refused;
  }
  progress pr = {mcpi_now(), 0, 0};
  if (!GIVEN(o, O_QUIET) && isatty(STDERR_FILENO) && !k->parts && k->rank <= 0)
    mcp_context_set_progress(c, on_progress, &pr);
  mcp_results *r = NULL;
  mcp_scenario_results *sr = NULL;
  mcp_frtb *fr = NULL;
  char ferr[512] = "";
  if (k->rank < 0) /* under MPI, mpirun's own signals */
    catch_interrupts(c);
  mcp_status st = k->parts    ? mcp_partials_merge(c, m, p, g, s, k->parts, k->nparts, &r, &sr)
                  : k->annex ? write_slice(o, k, c, m, p, s, g, sink.f)
                  : k->rank >= 0 ? cli_mpi_price(c, m, p, g, s, &r, &sr)
                  : s        ? mcp_price_scenarios(c, m, p, s, &sr)
                  : g        ? mcp_price_greeks(c, m, p, g, &r)
                             : mcp_price(c, m, p, &r);
  if (k->rank < 0)
    catch_interrupts(NULL);
  if (caught && st == MCP_OK) /* after the call's last check: still nothing written */
    st = MCP_ERR_CANCELLED;
  if (pr.shown)
    fputc('\n', stderr);
  if (st == MCP_OK && sr && GIVEN(o, O_FRTB) && k->rank <= 0 &&
      mcp_frtb_from_results(m, p, sr, &fr, ferr, sizeof ferr) != MCP_OK) {
    cli_error("%s", ferr);
    report_abort(&sink);
    report_abort(&plot);
    mcp_scenario_results_destroy(sr);
    return CLI_EXIT_RUNTIME;
  }
  if (k->rank > 0) { /* rank 0 reports, failures included */
    mcp_results_destroy(r);
    mcp_scenario_results_destroy(sr);
    return cli_exit_for(st);
  }
  int rc = CLI_EXIT_OK;
  char where[48];
  if (st != MCP_OK)
    error_where(p, mcp_context_last_error(c), where, sizeof where);
  const char *msg = mcp_context_last_error(c);
  if (k->parts && st == MCP_ERR_INPUT) {
    cli_error("merge: %s", msg);
    rc = CLI_EXIT_INPUT;
  } else if (k->annex && (st == MCP_ERR_IO || st == MCP_ERR_NO_MEMORY) && !mcp_context_last_error(c)[0]) {
    rc = CLI_EXIT_RUNTIME; /* said by write_slice */
  } else if (st == MCP_ERR_INPUT && GIVEN(o, O_PATHS) && strncmp(msg, "paths: ", 7) == 0) {
    /* too few paths for the methods, and the count came from the command line */
    cli_error("--paths %llu: %s", (unsigned long long)o->paths, msg + 7);
    rc = CLI_EXIT_USAGE;
  } else if (st == MCP_ERR_INPUT && s && strncmp(msg, "scenario '", 10) == 0) {
    cli_error("%s: %s (market %s)", o->scenarios, msg, o->market); /* a set's */
    rc = CLI_EXIT_INPUT;
  } else if (st == MCP_ERR_INPUT || st == MCP_ERR_NOT_FOUND) {
    cli_error("%s%s: %s (market %s)", o->portfolio, where, msg, o->market);
    rc = CLI_EXIT_INPUT;
  } else if (st == MCP_ERR_CANCELLED) {
    cli_error("interrupted: the pricing stopped, nothing written");
    rc = CLI_EXIT_CANCELLED;
  } else if (st != MCP_OK) {
    cli_error("pricing failed: %s%s%s%s", where[0] ? o->portfolio : "", where,
              where[0] ? ": " : "", mcp_context_last_error(c));
    rc = CLI_EXIT_RUNTIME;
  } else if (!k->annex && (fr  ? report_write_frtb(sink.f, o->format, fr)
                           : s ? report_write_scenarios(sink.f, o->format, sr, o->levels,
                                                        o->nlevels)
                               : report_write(sink.f, o->format, r, m)) != 0) {
    cli_error("cannot write %s: %s", o->output ? o->output : "standard output",
              strerror(errno));
    rc = CLI_EXIT_RUNTIME;
  } else if (o->plot && (errno = 0, report_plot_scenarios(plot.f, sr)) != 0) {
    cli_error("--plot %s: cannot write it: %s", o->plot,
              errno ? strerror(errno) : "the grid has no values to draw");
    rc = CLI_EXIT_RUNTIME;
  } else if ((o->plot && report_commit(&plot) != 0) || report_commit(&sink) != 0)
    rc = CLI_EXIT_RUNTIME; /* the plot first: a plot that fails leaves the report as it was */
  if (rc != CLI_EXIT_OK) {
    report_abort(&sink);
    report_abort(&plot);
  }
  /* the estimates' warnings also on standard error, whatever the format */
  for (size_t i = 0; rc == CLI_EXIT_OK && r && i < mcp_results_count(r); i++)
    for (int b = 0; b < MCP_WARNING_COUNT; b++)
      if (mcp_results_warnings(r, i) >> b & 1u)
        fprintf(stderr, "mcprice: warning: trade '%s': %s\n", mcp_results_trade_id(r, i),
                mcp_warning_text((mcp_warning)(1u << b)));
  mcp_results_destroy(r);
  mcp_scenario_results_destroy(sr);
  mcp_frtb_destroy(fr);
  if (caught) /* whatever else failed meanwhile */
    end_by_signal();
  return rc;
}

/* The price command, from argv; or a merge of the partials whose command
 * and inputs the annex holds, reported as merge says. */
static int price_command(char **argv, const cli_annex *from, const run_kind *kind,
                         const cli_merge_opts *mo)
{
  price_opts o = {.format = REPORT_TABLE, .levels = {0.99, 0.975}, .nlevels = 2};
  int rc = parse_args(argv, &o, from ? kind->files[0] : NULL);
  if (rc >= 0)
    return from ? CLI_EXIT_INPUT : rc; /* a carried command parsed when it was run */
  int merge = kind->parts != NULL;
  if (kind->rank >= 0 && GIVEN(&o, O_DEVICES)) {
    if (kind->rank == 0)
      cli_error("price: under MPI every rank computes a slice on its own device; --devices "
                "spreads a run of one process");
    return CLI_EXIT_USAGE;
  }
  if (mo) {
    if (mo->format_given)
      o.format = mo->format;
    o.output = mo->output;
    o.given &= ~(UINT64_C(1) << O_DEVICES);
  }
  mcp_greeks *g = NULL;
  if ((rc = check_settings(&o)) != CLI_EXIT_OK || (rc = make_greeks(&o, &g)) != CLI_EXIT_OK) {
    mcp_greeks_destroy(g);
    return rc;
  }
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *c = NULL;
  mcp_run_options *r = NULL;
  mcp_scenarios *s = NULL;
  /* a slice carries the command without --slice, --output and --wisdom,
   * and its inputs */
  char *carried[256];
  cli_annex keep = {.argv = carried};
  run_kind k = *kind;
  if (GIVEN(&o, O_SLICE)) {
    size_t n = 0;
    for (int i = 0; argv[i]; i++) {
      int apart = 0;
      for (int a = 0; a < 3; a++)
        apart |= i >= o.carried[a][0] && i < o.carried[a][1];
      if (!apart && n < 255)
        carried[n++] = argv[i];
    }
    carried[n] = NULL;
    k.annex = &keep;
  }
  if ((rc = load_inputs(&o, from, k.annex ? &keep : NULL, &m, &p, &r, &s)) == CLI_EXIT_OK &&
      GIVEN(&o, O_LEVELS) && !mcp_scenarios_count(s)) {
    cli_error("price: --levels needs a scenario set; %s is a grid", o.scenarios);
    rc = CLI_EXIT_USAGE;
  }
  if (rc == CLI_EXIT_OK && GIVEN(&o, O_PLOT) && (!s || mcp_scenarios_count(s))) {
    if (s)
      cli_error("price: --plot draws a scenario grid; %s is a set of scenarios", o.scenarios);
    else
      cli_error("price: --plot draws a scenario grid: give --scenarios FILE");
    rc = CLI_EXIT_USAGE;
  }
  if (rc == CLI_EXIT_OK && o.format == REPORT_CRIF && !GIVEN(&o, O_FRTB)) {
    cli_error("merge: --format crif is the FRTB view's; the partials' run has no --frtb");
    rc = CLI_EXIT_USAGE;
  }
  char ferr[512];
  if (rc == CLI_EXIT_OK && GIVEN(&o, O_FRTB) &&
      mcp_frtb_scenarios(m, p, &s, ferr, sizeof ferr) != MCP_OK) {
    cli_error("%s: %s (portfolio %s)", o.market, ferr, o.portfolio);
    rc = CLI_EXIT_INPUT;
  }
  if (rc == CLI_EXIT_OK && (rc = apply_book_settings(&o, p)) == CLI_EXIT_OK &&
      (rc = apply_run_options(&o, r)) == CLI_EXIT_OK) {
    if (!merge)
      rc = make_context(&o, r, &c);
    /* a merge computes little: on the CPU, with the slices' options, whose
     * precision and grid decide the prices it checks the partials against */
    else if (mcp_run_options_set_backend(r, MCP_BACKEND_AUTO) != MCP_OK ||
             mcp_context_create(&c, MCP_BACKEND_CPU) != MCP_OK ||
             mcp_context_set_options(c, r) != MCP_OK) {
      cli_error("cannot make the merge's context: %s",
                c ? mcp_context_last_error(c) : "out of memory");
      rc = CLI_EXIT_RUNTIME;
    }
  }
  /* under MPI, a rank's GPU by its index on its host */
  if (rc == CLI_EXIT_OK && k.rank >= 0 && mcp_context_backend(c) == MCP_BACKEND_CUDA &&
      mcp_context_set_device(c, k.local % mcp_device_count()) != MCP_OK) {
    cli_error("%s", mcp_context_last_error(c));
    rc = CLI_EXIT_RUNTIME;
  }
  if (k.rank >= 0) /* every rank ready, or none runs */
    rc = cli_mpi_agree(rc);
  if (rc == CLI_EXIT_OK)
    rc = price_and_report(&o, &k, c, m, p, s, g);
  for (int f = 0; f < ANNEX_FILES; f++)
    free(keep.text[f]);
  mcp_scenarios_destroy(s);
  mcp_greeks_destroy(g);
  mcp_context_destroy(c);
  mcp_run_options_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return rc;
}

/* Whether argv asks for one slice: a task of a batch system, which runs as
 * a process of its own even when a launcher started it. */
static int wants_slice(char **argv)
{
  for (int i = 0; argv[i]; i++)
    if (strcmp(argv[i], "--slice") == 0 || strncmp(argv[i], "--slice=", 8) == 0)
      return 1;
  return 0;
}

int cli_price(int argc, char **argv)
{
  (void)argc; /* argv is NULL-terminated */
  run_kind k = {.rank = -1};
  if (!cli_mpi_launched() || wants_slice(argv))
    return price_command(argv, NULL, &k, NULL);
  if ((k.rank = cli_mpi_init()) < 0)
    return CLI_EXIT_RUNTIME;
  k.local = cli_mpi_local_rank(); /* collective: every rank, first */
  int rc = price_command(argv, NULL, &k, NULL);
  cli_mpi_finalize();
  return rc;
}

int cli_price_merge(const cli_annex *annex, char *const *files, mcp_partial *const *parts,
                    size_t n, const cli_merge_opts *mo)
{
  run_kind k = {.parts = parts, .nparts = n, .files = files, .rank = -1};
  return price_command(annex->argv, annex, &k, mo);
}
