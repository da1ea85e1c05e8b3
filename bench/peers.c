/* peers.c: mcprice beside its peers on the benchmark Asian (bench/common.c:
 * arithmetic Asian call, S = K = 100, r 3%, q 1%, vol 25%, T = 1, 252 daily
 * fixings, a step each) at 2^20, 2^22 and 2^24 paths in double and float:
 *   mcprice fused / stored  mcp_price, normals in registers or through
 *                           memory; mcp_results_seconds, the whole call
 *   hand-written kernel     bench/peers_kernels.cu, one product, Philox in
 *                           registers; CUDA events, the kernel alone
 *   RNG limit               the same Philox normals, only summed: the
 *                           fastest a kernel drawing them can step
 *   JAX, PyTorch            bench/peers.py, wall time of a whole pricing
 * Medians of 5 after a warm-up.  Then the speed-ups of mcprice fused over
 * each peer and its fraction of the RNG limit; a Heston (QE) European at
 * 252 steps beside its hand-written fused kernel (mcprice with its
 * default discretisation check, and without it, as the kernel has none);
 * and a mixed book of 10,000 trades on 50 underlyings, which only mcprice
 * prices.  Prices come with standard errors: the
 * engines draw different normals, so they agree statistically only.
 *
 *   peers [--py PATH | --no-py]     PATH default: peers.py beside the program
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("peers: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include "bench/peers_kernels.h"

#define REPEATS 5
#define NSIZES 3
#define SEED 1
#define HESTON_PATHS (1u << 20)
#define MAX_NOTES 16

static const uint64_t sizes[NSIZES] = {1u << 20, 1u << 22, 1u << 24};
enum { FUSED, STORED, HAND, RNG, JAX, TORCH, NENGINES };
static const char *const engine_names[NENGINES] = {
    "mcprice fused", "mcprice stored", "hand-written fused kernel",
    "RNG limit (Philox generate-and-sum)", "JAX", "PyTorch"};
static const char *const py_names[NENGINES] = {NULL, NULL, NULL, NULL, "jax", "torch"};
/* mcprice runs the three; its peers double and float */
#define NPREC 3
static const char *const precision_names[NPREC] = {"double", "float", "mixed"};
static const mcp_precision precisions[NPREC] = {MCP_DOUBLE, MCP_FLOAT, MCP_MIXED};

/* One measurement: ms < 0 when not measured; se < 0 when it has no price. */
typedef struct cell {
  double ms, price, se;
} cell;
static const cell NA = {-1, 0, -1};

static cell cells[NENGINES][NPREC][NSIZES];
static char notes[MAX_NOTES][256];
static int nnotes;

static void note(const char *text)
{
  if (nnotes < MAX_NOTES)
    snprintf(notes[nnotes++], sizeof notes[0], "%s", text);
}

/* Median of mcp_price over REPEATS calls after a warm-up, and the book's
 * value (one trade of quantity 1: its price). */
static cell time_book(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p)
{
  double t[REPEATS];
  mcp_estimate e = {0};
  for (int r = -1; r < REPEATS; r++) {
    mcp_results *res;
    if (mcp_price(ctx, m, p, &res) != MCP_OK) {
      fprintf(stderr, "peers: %s\n", mcp_context_last_error(ctx));
      return NA;
    }
    if (r >= 0)
      t[r] = mcp_results_seconds(res);
    mcp_results_total(res, &e);
    mcp_results_destroy(res);
  }
  return (cell){bench_median(t, REPEATS) * 1e3, e.price, e.std_error};
}

/* ctx's normals and precision from now on. */
static void kernel_options(mcp_context *ctx, mcp_normals normals, mcp_precision prec,
                           int grid_check)
{
  mcp_run_options *o = NULL;
  mcp_status st = mcp_run_options_create(&o);
  st = st ? st : mcp_run_options_set_normals(o, normals);
  st = st ? st : mcp_run_options_set_precision(o, prec);
  st = st ? st : mcp_run_options_set_grid_check(o, grid_check);
  bench_use_options(ctx, o, st);
}

static cell time_mcprice(mcp_context *ctx, mcp_normals normals, mcp_precision prec,
                         uint64_t paths)
{
  mcp_market *m;
  mcp_portfolio *p;
  bench_asian_book(&m, &p, paths);
  kernel_options(ctx, normals, prec, 1);
  cell c = time_book(ctx, m, p);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return c;
}

/* The Heston European of both heston_book and the hand-written kernel. */
static const peers_heston heston_terms = {100, 100, 0.03, 0.01, 0.0625, 1.5, 0.0625, 0.5,
                                          -0.7, 1.0, BENCH_FIXINGS};

/* The hand kernels, by kind: the Asian's (HAND_ASIAN), the
 * generate-and-sum kernel (HAND_RNG), the Heston European's (HAND_HESTON,
 * double, HESTON_PATHS); timed by CUDA events; sums is 2 doubles on the
 * device. */
enum { HAND_ASIAN, HAND_RNG, HAND_HESTON };
static cell time_hand(int kind, int use_float, uint64_t paths, double *sums)
{
  static const peers_asian asian = {100, 100, 0.03, 0.01, 0.25, 1.0, BENCH_FIXINGS};
  int rng = kind == HAND_RNG;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double t[REPEATS], h[2] = {0, 0};
  cell c = NA;
  cudaError_t err = cudaSuccess;
  for (int r = -1; r < REPEATS && err == cudaSuccess; r++) {
    cudaEventRecord(e0, 0);
    err = rng                    ? peers_rng_launch(use_float, paths, BENCH_FIXINGS, SEED, sums)
          : kind == HAND_HESTON ? peers_heston_launch(&heston_terms, paths, SEED, sums)
                                : peers_asian_launch(use_float, &asian, paths, SEED, sums);
    cudaEventRecord(e1, 0);
    if (err == cudaSuccess)
      err = cudaEventSynchronize(e1);
    if (err == cudaSuccess && r >= 0)
      t[r] = bench_event_ms(e0, e1);
  }
  if (err == cudaSuccess)
    err = cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    fprintf(stderr, "peers: %s%s: %s\n", engine_names[rng ? RNG : HAND],
            kind == HAND_HESTON ? " (Heston)" : "", cudaGetErrorString(err));
  } else {
    c.ms = bench_median(t, REPEATS);
    if (!rng) { /* the same seed every run: the last run's sums are every run's */
      double n = (double)paths, mean = h[0] / n, var = h[1] / n - mean * mean;
      c.price = mean;
      c.se = sqrt((var > 0 ? var : 0) / (n - 1));
    }
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return c;
}

/* ---- JAX and PyTorch through bench/peers.py ---------------------------- */
static int find(const char *const *names, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], name) == 0)
      return i;
  return -1;
}

/* One line of peers.py: "engine precision paths ms [price se]" or a note. */
static void parse_py_line(char *line)
{
  line[strcspn(line, "\n")] = 0;
  if (line[0] == '#') {
    note(line + (line[1] == ' ' ? 2 : 1));
    return;
  }
  char eng[32], prec[16], ms[32];
  unsigned long long paths;
  double price, se;
  int got = sscanf(line, "%31s %15s %llu %31s %lf %lf", eng, prec, &paths, ms, &price, &se);
  int e = got >= 4 ? find(py_names, NENGINES, eng) : -1;
  int p = e >= 0 ? find(precision_names, 2, prec) : -1;
  for (int s = 0; p >= 0 && s < NSIZES; s++)
    if (sizes[s] == paths && strcmp(ms, "n/a") != 0)
      cells[e][p][s] = (cell){atof(ms), got == 6 ? price : 0, got == 6 ? se : -1};
}

/* Runs the script through the shell (single quotes around its path), where
 * python3 exists; any failure leaves the rows n/a, with a note. */
static void run_python(const char *script)
{
  FILE *f = fopen(script, "r");
  if (!f) {
    char why[300];
    snprintf(why, sizeof why, "JAX and PyTorch: %s not found", script);
    note(why);
    return;
  }
  fclose(f);
  char quoted[2048], cmd[4096], *q = quoted;
  *q++ = '\'';
  for (const char *s = script; *s && q < quoted + sizeof quoted - 6; s++)
    if (*s == '\'') {
      memcpy(q, "'\\''", 4);
      q += 4;
    } else {
      *q++ = *s;
    }
  *q++ = '\'';
  *q = 0;
  snprintf(cmd, sizeof cmd,
           "if command -v python3 >/dev/null 2>&1; then python3 %s --precisions double,float "
           "--paths %llu,%llu,%llu --repeats %d; else echo '# python3 not found: JAX and "
           "PyTorch not run'; fi",
           quoted, (unsigned long long)sizes[0], (unsigned long long)sizes[1],
           (unsigned long long)sizes[2], REPEATS);
  fflush(stdout);
  FILE *py = popen(cmd, "r");
  if (!py) {
    note("JAX and PyTorch: popen failed");
    return;
  }
  char line[512];
  while (fgets(line, sizeof line, py))
    parse_py_line(line);
  if (pclose(py) != 0)
    note("peers.py exited with an error; its rows missing are n/a");
}

/* ---- the two books only mcprice prices --------------------------------- */
static void heston_book(mcp_market **m, mcp_portfolio **p)
{
  const peers_heston *h = &heston_terms;
  mcp_market_create(m);
  mcp_market_add_heston(*m, "HEST", h->spot, h->rate, h->dividend, h->v0, h->kappa, h->theta,
                        h->xi, h->rho);
  mcp_portfolio_create(p);
  mcp_portfolio_add_european(*p, "heston-call", "HEST", MCP_CALL, h->strike, h->maturity, 1);
  mcp_portfolio_set_heston_scheme(*p, MCP_HESTON_QE);
  mcp_portfolio_set_steps_per_year(*p, BENCH_FIXINGS);
  mcp_portfolio_set_paths(*p, HESTON_PATHS);
}

/* ---- output ------------------------------------------------------------ */
static void print_row(const char *engine, const char *prec, uint64_t paths, cell c,
                      double steps_per_path, const char *price_note)
{
  printf("| %s | %s | %llu | ", engine, prec, (unsigned long long)paths);
  if (c.ms < 0) {
    printf("n/a | n/a | n/a |\n");
    return;
  }
  printf("%.2f | ", c.ms);
  if (steps_per_path > 0)
    printf("%.3e | ", (double)paths * steps_per_path / (c.ms * 1e-3));
  else
    printf("- | ");
  if (c.se >= 0)
    printf("%.4f ± %.4f%s |\n", c.price, c.se, price_note);
  else
    printf("- |\n");
}

static void print_ratio(double peer_ms, double ms)
{
  if (peer_ms < 0 || ms <= 0)
    printf(" n/a |");
  else
    printf(" %.2f |", peer_ms / ms);
}

int main(int argc, char **argv)
{
  char script[1024] = "";
  int use_py = 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--no-py") == 0) {
      use_py = 0;
    } else if (strcmp(argv[i], "--py") == 0 && i + 1 < argc) {
      snprintf(script, sizeof script, "%s", argv[++i]);
    } else {
      fprintf(stderr, "usage: peers [--py PATH | --no-py]\n");
      return 2;
    }
  int ngpu = 0;
  if (cudaGetDeviceCount(&ngpu) != cudaSuccess || ngpu == 0) {
    printf("peers: no CUDA device; nothing to measure\n");
    return 0;
  }
  if (!script[0]) { /* peers.py beside the program, as in the source tree */
    const char *slash = strrchr(argv[0], '/');
    int dir = slash ? (int)(slash - argv[0]) + 1 : 0;
    snprintf(script, sizeof script, "%.*speers.py", dir, argv[0]);
  }
  for (int e = 0; e < NENGINES; e++)
    for (int p = 0; p < NPREC; p++)
      for (int s = 0; s < NSIZES; s++)
        cells[e][p][s] = NA;
  /* Python first: its processes are gone, memory and all, before ours start */
  if (use_py)
    run_python(script);
  else
    note("JAX and PyTorch not run (--no-py)");

  mcp_context *ctx;
  double *sums;
  if (mcp_context_create(&ctx, MCP_BACKEND_CUDA) != MCP_OK ||
      cudaMalloc((void **)&sums, 2 * sizeof *sums) != cudaSuccess) {
    fprintf(stderr, "peers: no CUDA context\n");
    return 1;
  }
  for (int p = 0; p < NPREC; p++)
    for (int s = 0; s < NSIZES; s++) {
      cells[FUSED][p][s] = time_mcprice(ctx, MCP_NORMALS_FUSED, precisions[p], sizes[s]);
      cells[STORED][p][s] = time_mcprice(ctx, MCP_NORMALS_STORED, precisions[p], sizes[s]);
      if (precisions[p] != MCP_MIXED) {
        cells[HAND][p][s] = time_hand(HAND_ASIAN, p, sizes[s], sums);
        cells[RNG][p][s] = time_hand(HAND_RNG, p, sizes[s], sums);
      }
    }
  /* Heston: mcprice fused and stored with the discretisation check, fused
   * without it; the hand-written kernel */
  cell heston[3], heston_hand = time_hand(HAND_HESTON, 0, HESTON_PATHS, sums),
                  mixed[2] = {NA, NA};
  mcp_market *m;
  mcp_portfolio *pf;
  heston_book(&m, &pf);
  for (int n = 0; n < 3; n++) {
    kernel_options(ctx, n == 1 ? MCP_NORMALS_STORED : MCP_NORMALS_FUSED, MCP_DOUBLE, n < 2);
    heston[n] = time_book(ctx, m, pf);
  }
  mcp_portfolio_destroy(pf);
  mcp_market_destroy(m);
  if (bench_mixed_book(&m, &pf, BENCH_MIXED_PATHS) == MCP_OK)
    for (int n = 0; n < 2; n++) {
      kernel_options(ctx, n ? MCP_NORMALS_STORED : MCP_NORMALS_FUSED, MCP_DOUBLE, 1);
      mixed[n] = time_book(ctx, m, pf);
    }
  mcp_portfolio_destroy(pf);
  mcp_market_destroy(m);

  mcp_device_info info;
  mcp_device_get_info(0, &info);
  printf("# peers: the benchmark Asian (arithmetic call, S = K = 100, r 3%%, q 1%%, vol 25%%, "
         "T = 1, %d daily fixings, a step each); medians of %d after a warm-up\n",
         BENCH_FIXINGS, REPEATS);
  printf("# GPU: %s, %d SMs; %s\n", info.name, info.multiprocessors, mcp_build_info());
  printf("# ms: mcprice, the whole mcp_price call; hand-written and RNG-limit kernels, CUDA "
         "events on the kernel; JAX and PyTorch, wall time of a synchronised pricing. "
         "RNG limit: normals/s in the path-steps/s column\n\n");
  printf("| engine | precision | paths | ms | path-steps/s | price ± s.e. |\n");
  printf("|---|---|---:|---:|---:|---:|\n");
  for (int p = 0; p < NPREC; p++)
    for (int s = 0; s < NSIZES; s++)
      for (int e = 0; e < NENGINES; e++)
        if (precisions[p] != MCP_MIXED || e <= STORED)
          print_row(engine_names[e], precision_names[p], sizes[s], cells[e][p][s], BENCH_FIXINGS,
                  "");
  static const char *const normals_names[2] = {"fused", "stored"};
  char label[96];
  for (int n = 0; n < 3; n++) {
    snprintf(label, sizeof label, "mcprice %s, Heston QE European, 252 steps%s",
             normals_names[n == 1], n == 2 ? ", discretisation check off" : "");
    print_row(label, "double", HESTON_PATHS, heston[n], BENCH_FIXINGS, "");
  }
  print_row("hand-written fused kernel, Heston QE European, 252 steps", "double", HESTON_PATHS,
            heston_hand, BENCH_FIXINGS, "");
  for (int n = 0; n < 2; n++) {
    snprintf(label, sizeof label, "mcprice %s, mixed book (%d trades, %d underlyings)",
             normals_names[n], BENCH_MIXED_TRADES, BENCH_MIXED_UNDERLYINGS);
    print_row(label, "double", BENCH_MIXED_PATHS, mixed[n], 0, " (book)");
  }

  printf("\n| precision | paths | stored / fused | hand-written / fused | JAX / fused "
         "| PyTorch / fused | fused / RNG limit |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (int p = 0; p < NPREC; p++)
    for (int s = 0; s < NSIZES; s++) {
      double ms = cells[FUSED][p][s].ms, rng = cells[RNG][p][s].ms;
      printf("| %s | %llu |", precision_names[p], (unsigned long long)sizes[s]);
      for (int e = STORED; e <= TORCH; e++)
        if (e != RNG)
          print_ratio(cells[e][p][s].ms, ms);
      /* path-steps/s over normals/s, one normal a path-step: a time ratio */
      if (ms > 0 && rng > 0)
        printf(" %.0f%% |\n", 100 * rng / ms);
      else
        printf(" n/a |\n");
    }
  printf("\n# ratios: peer ms / mcprice fused ms (above 1: mcprice faster); the RNG-limit "
         "column: mcprice fused path-steps/s over the generate-and-sum normals/s\n");
  for (int s = 0; s < NSIZES; s++) /* issue 36 part 5's target: twice double's speed */
    if (cells[FUSED][0][s].ms > 0 && cells[FUSED][2][s].ms > 0)
      printf("# mixed, %llu paths: double fused / mixed fused %.2f, mixed - double %.2e "
             "(%.3f standard errors)\n",
             (unsigned long long)sizes[s], cells[FUSED][0][s].ms / cells[FUSED][2][s].ms,
             cells[FUSED][2][s].price - cells[FUSED][0][s].price,
             (cells[FUSED][2][s].price - cells[FUSED][0][s].price) / cells[FUSED][0][s].se);
  double exact = 0;
  const peers_heston *h = &heston_terms;
  if (heston[0].ms > 0 && heston[2].ms > 0 && heston_hand.ms > 0)
    printf("# Heston QE European: hand-written / mcprice fused %.2f (with its discretisation "
           "check %.2f)\n", heston_hand.ms / heston[2].ms, heston_hand.ms / heston[0].ms);
  if (mcp_heston_european(MCP_CALL, h->spot, h->strike, h->maturity, h->rate, h->dividend,
                          h->v0, h->kappa, h->theta, h->xi, h->rho, &exact, NULL, 0) == MCP_OK)
    printf("# Heston European's closed form (mcp_heston_european): %.4f\n", exact);
  for (int n = 0; n < 2; n++)
    if (mixed[n].ms > 0)
      printf("# mixed book, %s: %.3e trade-paths/s\n", normals_names[n],
             (double)BENCH_MIXED_TRADES * BENCH_MIXED_PATHS / (mixed[n].ms * 1e-3));
  for (int i = 0; i < nnotes; i++)
    printf("# %s\n", notes[i]);
  cudaFree(sums);
  mcp_context_destroy(ctx);
  int bad = 0;
  for (int p = 0; p < NPREC; p++)
    for (int s = 0; s < NSIZES; s++)
      for (int e = FUSED; e <= (precisions[p] == MCP_MIXED ? STORED : RNG); e++)
        bad |= cells[e][p][s].ms < 0;
  for (int n = 0; n < 3; n++)
    bad |= heston[n].ms < 0 || (n < 2 && mixed[n].ms < 0);
  bad |= heston_hand.ms < 0;
  return bad;
}
#endif
