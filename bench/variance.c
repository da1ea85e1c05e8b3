/* variance.c: what the sampling methods buy, measured through the public API.
 *
 * Table 1 prices one option of each product family with plain Monte Carlo,
 * antithetic pairs, a control variate, QMC and all three together, at the
 * same number of paths, and reports each method's variance-reduction factor
 * (plain std_error / method std_error)^2: how many times fewer paths it needs
 * for the error of plain Monte Carlo.  One standard error is itself an
 * estimate (QMC's rests on 16 scramblings only), so the factor is the median
 * over several seeds when asked.
 *
 * Table 2 follows plain Monte Carlo and QMC from 2^12 to 2^20 paths on two
 * smooth payoffs with closed forms (a discrete geometric Asian call and the
 * European call under Black-Scholes): the standard error, the actual error
 * against the closed form and their least-squares slopes in log-log, about
 * -1/2 for Monte Carlo and nearer -1 for QMC.
 *
 *   variance [--paths N] [--repeats R] [--backend auto|cpu|cuda] [--csv FILE]
 *
 * N (default 2^18; "2^k" is accepted) is Table 1's paths a run, R (default 1)
 * the seeds 1..R; the CSV holds every run. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mcprice.h"

/* The Black-Scholes market of the single-asset products. */
#define SPOT 100.0
#define RATE 0.03
#define DIVIDEND 0.01
#define VOL 0.25
#define STRIKE 100.0
#define MATURITY 1.0
#define MAX_FIXINGS 252

#define NMETHODS 5
static const int methods[NMETHODS] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC,
                                      MCP_ANTITHETIC | MCP_CONTROL_VARIATE | MCP_QMC};
static const char *const method_names[NMETHODS] = {"plain", "antithetic", "control variate",
                                                   "QMC", "all three"};
#define QMC_METHOD 3
#define MAX_REPEATS 1000

/* Correlated Black-Scholes assets of the basket (all four) and the best-of
 * (the first two). */
#define NBASKET 4
static const char *const basket[NBASKET] = {"B1", "B2", "B3", "B4"};
static const double basket_vol[NBASKET] = {0.20, 0.25, 0.30, 0.35};
#define BASKET_CORRELATION 0.5

/* A product family: one trade, strike STRIKE, maturity MATURITY, its nfix
 * fixings (or monitoring dates) evenly spread up to the maturity.  Names
 * hold no commas: they go into the CSV as they are. */
typedef struct family {
  const char *name;
  mcp_product product;
  const char *underlying; /* NULL: the first nassets of the basket's assets */
  size_t nassets, nfix;
  mcp_average average;
  mcp_strike_kind strike_kind;
  mcp_barrier_kind barrier_kind;
  double barrier;
  mcp_monitoring monitoring;
  unsigned steps_per_year; /* extra simulation steps (Heston's scheme) */
} family;

static const family families[] = {
    {.name = "European call", .product = MCP_PRODUCT_EUROPEAN, .underlying = "BS"},
    {.name = "digital cash call", .product = MCP_PRODUCT_DIGITAL, .underlying = "BS"},
    {.name = "arithmetic Asian call (12 fixings)", .product = MCP_PRODUCT_ASIAN,
     .underlying = "BS", .nfix = 12},
    {.name = "geometric Asian call (12 fixings)", .product = MCP_PRODUCT_ASIAN,
     .underlying = "BS", .nfix = 12, .average = MCP_GEOMETRIC},
    {.name = "up-and-out call 130 (bridge)", .product = MCP_PRODUCT_BARRIER, .underlying = "BS",
     .barrier_kind = MCP_UP_AND_OUT, .barrier = 130, .monitoring = MCP_MONITOR_BRIDGE},
    {.name = "down-and-out call 85 (daily)", .product = MCP_PRODUCT_BARRIER, .underlying = "BS",
     .nfix = 252, .barrier_kind = MCP_DOWN_AND_OUT, .barrier = 85,
     .monitoring = MCP_MONITOR_DISCRETE},
    {.name = "lookback floating call (52 fixings)", .product = MCP_PRODUCT_LOOKBACK,
     .underlying = "BS", .nfix = 52, .strike_kind = MCP_FLOATING_STRIKE},
    {.name = "basket call (4 assets)", .product = MCP_PRODUCT_BASKET, .nassets = NBASKET},
    {.name = "best-of call (2 assets)", .product = MCP_PRODUCT_BEST_OF, .nassets = 2},
    {.name = "Heston European call (QE 32/y)", .product = MCP_PRODUCT_EUROPEAN,
     .underlying = "HESTON", .steps_per_year = 32},
    {.name = "Heston down-and-out call 85 (bridge; QE 32/y)", .product = MCP_PRODUCT_BARRIER,
     .underlying = "HESTON", .barrier_kind = MCP_DOWN_AND_OUT, .barrier = 85,
     .monitoring = MCP_MONITOR_BRIDGE, .steps_per_year = 32},
    {.name = "Heston lookback fixed call (52 fixings; QE 32/y)", .product = MCP_PRODUCT_LOOKBACK,
     .underlying = "HESTON", .nfix = 52, .steps_per_year = 32},
    {.name = "Merton European call", .product = MCP_PRODUCT_EUROPEAN, .underlying = "MERTON"},
};
#define NFAMILIES (sizeof families / sizeof *families)

/* Table 2's payoffs: both have the closed form of geometric_asian_call. */
static const family smooth[] = {
    {.name = "geometric Asian call (16 fixings)", .product = MCP_PRODUCT_ASIAN,
     .underlying = "BS", .nfix = 16, .average = MCP_GEOMETRIC},
    {.name = "European call", .product = MCP_PRODUCT_EUROPEAN, .underlying = "BS"},
};
#define NSMOOTH (sizeof smooth / sizeof *smooth)
#define NSIZES 5 /* 2^12, 2^14, ..., 2^20 paths */
#define FIRST_SIZE 4096u

typedef struct options {
  uint64_t paths;
  int repeats;
  mcp_backend backend;
  const char *csv;
} options;

/* What every run needs. */
typedef struct bench {
  mcp_context *ctx;
  mcp_market *market;
  FILE *csv; /* or NULL */
  int repeats;
} bench;

static int market_ok(const mcp_market *m, mcp_status st)
{
  if (st != MCP_OK)
    fprintf(stderr, "variance: market: %s\n", mcp_market_last_error(m));
  return st == MCP_OK;
}

static int portfolio_ok(const mcp_portfolio *p, mcp_status st)
{
  if (st != MCP_OK)
    fprintf(stderr, "variance: portfolio: %s\n", mcp_portfolio_last_error(p));
  return st == MCP_OK;
}

static mcp_market *build_market(void)
{
  mcp_market *m;
  mcp_status st = mcp_market_create(&m);
  if (st != MCP_OK) {
    fprintf(stderr, "variance: cannot create a market: %s\n", mcp_strerror(st));
    return NULL;
  }
  double corr[NBASKET * NBASKET];
  for (int i = 0; i < NBASKET * NBASKET; i++)
    corr[i] = i % (NBASKET + 1) == 0 ? 1 : BASKET_CORRELATION;
  int ok = market_ok(m, mcp_market_add_black_scholes(m, "BS", SPOT, RATE, DIVIDEND, VOL)) &&
           market_ok(m, mcp_market_add_heston(m, "HESTON", SPOT, RATE, DIVIDEND, 0.04, 1.5, 0.04,
                                              0.6, -0.7)) &&
           market_ok(m, mcp_market_add_merton(m, "MERTON", SPOT, RATE, DIVIDEND, 0.2, 0.5, -0.1,
                                              0.15));
  for (int a = 0; ok && a < NBASKET; a++)
    ok = market_ok(m, mcp_market_add_black_scholes(m, basket[a], SPOT, RATE, DIVIDEND,
                                                   basket_vol[a]));
  if (!ok || !market_ok(m, mcp_market_set_correlation(m, NBASKET, basket, corr))) {
    mcp_market_destroy(m);
    return NULL;
  }
  return m;
}

/* A portfolio of the family's one trade, or NULL after a message. */
static mcp_portfolio *family_portfolio(const family *f)
{
  mcp_portfolio *p;
  mcp_status st = mcp_portfolio_create(&p);
  if (st != MCP_OK) {
    fprintf(stderr, "variance: cannot create a portfolio: %s\n", mcp_strerror(st));
    return NULL;
  }
  double fix[MAX_FIXINGS];
  for (size_t i = 0; i < f->nfix; i++)
    fix[i] = MATURITY * (double)(i + 1) / (double)f->nfix;
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = f->name;
  t.product = f->product;
  t.strike = f->strike_kind == MCP_FLOATING_STRIKE ? 0 : STRIKE;
  t.maturity = MATURITY;
  t.underlying = f->underlying;
  t.nassets = f->underlying ? 0 : f->nassets;
  t.assets = f->underlying ? NULL : basket;
  t.nfixings = f->nfix;
  t.fixings = f->nfix ? fix : NULL;
  t.average = f->average;
  t.strike_kind = f->strike_kind;
  t.barrier_kind = f->barrier_kind;
  t.barrier = f->barrier;
  t.monitoring = f->monitoring;
  if (!portfolio_ok(p, mcp_portfolio_add_trade(p, &t)) ||
      !portfolio_ok(p, mcp_portfolio_set_steps_per_year(p, f->steps_per_year))) {
    mcp_portfolio_destroy(p);
    return NULL;
  }
  return p;
}

/* Prices p's one trade with methods[method] at paths and seed; 0 on success. */
static int price(const bench *b, mcp_portfolio *p, int method, uint64_t paths, uint64_t seed,
                 mcp_estimate *e)
{
  if (!portfolio_ok(p, mcp_portfolio_set_methods(p, methods[method])) ||
      !portfolio_ok(p, mcp_portfolio_set_paths(p, paths)) ||
      !portfolio_ok(p, mcp_portfolio_set_seed(p, seed)))
    return -1;
  mcp_results *r;
  if (mcp_price(b->ctx, b->market, p, &r) != MCP_OK) {
    fprintf(stderr, "variance: %s, %s, %llu paths, seed %llu: %s\n",
            mcp_portfolio_trade_id(p, 0), method_names[method], (unsigned long long)paths,
            (unsigned long long)seed, mcp_context_last_error(b->ctx));
    return -1;
  }
  mcp_status st = mcp_results_trade(r, 0, e);
  mcp_results_destroy(r);
  if (st != MCP_OK)
    fprintf(stderr, "variance: reading the results: %s\n", mcp_strerror(st));
  return st == MCP_OK ? 0 : -1;
}

/* One CSV line; NAN factor or exact leaves the field empty. */
static void csv_row(const bench *b, int table, const char *product, int method, uint64_t paths,
                    uint64_t seed, const mcp_estimate *e, double factor, double exact)
{
  if (!b->csv)
    return;
  fprintf(b->csv, "%d,%s,%s,%llu,%llu,%.10g,%.6g,", table, product, method_names[method],
          (unsigned long long)paths, (unsigned long long)seed, e->price, e->std_error);
  if (!isnan(factor))
    fprintf(b->csv, "%.6g", factor);
  fputc(',', b->csv);
  if (!isnan(exact))
    fprintf(b->csv, "%.10g", exact);
  fputc('\n', b->csv);
}

static double seconds_since(const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* ---- Table 1 -------------------------------------------------------------- */

/* Factors keep about three significant digits without an exponent. */
static void print_factor(double x)
{
  printf(" %.*f |", x < 10 ? 2 : x < 100 ? 1 : 0, x);
}

/* Runs family f under every method and seed: est[m * repeats + r]. */
static int run_family(const bench *b, const family *f, uint64_t paths, mcp_estimate *est)
{
  mcp_portfolio *p = family_portfolio(f);
  if (!p)
    return -1;
  int rc = 0;
  for (int m = 0; m < NMETHODS && rc == 0; m++)
    for (int r = 0; r < b->repeats && rc == 0; r++)
      rc = price(b, p, m, paths, (uint64_t)r + 1, &est[m * b->repeats + r]);
  mcp_portfolio_destroy(p);
  for (int m = 0; m < NMETHODS && rc == 0; m++)
    for (int r = 0; r < b->repeats; r++) {
      const mcp_estimate *e = &est[m * b->repeats + r], *plain = &est[r];
      csv_row(b, 1, f->name, m, paths, (uint64_t)r + 1, e,
              pow(plain->std_error / e->std_error, 2), NAN);
    }
  return rc;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median over seeds of (plain se / method se)^2. */
static double median_factor(const mcp_estimate *est, int method, int repeats)
{
  double f[MAX_REPEATS];
  for (int r = 0; r < repeats; r++)
    f[r] = pow(est[r].std_error / est[method * repeats + r].std_error, 2);
  qsort(f, (size_t)repeats, sizeof *f, cmp_double);
  return repeats % 2 ? f[repeats / 2] : 0.5 * (f[repeats / 2 - 1] + f[repeats / 2]);
}

/* Seed 1's price (std error) under every method; "!" where a method's price
 * is more than 4 combined standard errors from plain Monte Carlo's, a bias
 * the factor alone would hide. */
static void print_prices(const family *f, const mcp_estimate *est, int repeats)
{
  const mcp_estimate *plain = &est[0];
  printf("| %s |", f->name);
  for (int m = 0; m < NMETHODS; m++) {
    const mcp_estimate *e = &est[m * repeats];
    double z = (e->price - plain->price) / hypot(e->std_error, plain->std_error);
    printf(" %.5f (%.1e)%s |", e->price, e->std_error, fabs(z) > 4 ? " !" : "");
  }
  printf("\n");
}

static void print_columns(const char *first, int from)
{
  printf("| %s |", first);
  for (int m = from; m < NMETHODS; m++)
    printf(" %s |", method_names[m]);
  printf("\n|---|");
  for (int m = from; m < NMETHODS; m++)
    printf("---:|");
  printf("\n");
}

static int table_factors(const bench *b, uint64_t paths)
{
  int R = b->repeats;
  mcp_estimate *est = malloc(NFAMILIES * NMETHODS * (size_t)R * sizeof *est);
  if (!est) {
    fprintf(stderr, "variance: out of memory\n");
    return -1;
  }
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = 0;
  for (size_t i = 0; i < NFAMILIES && rc == 0; i++)
    rc = run_family(b, &families[i], paths, est + i * NMETHODS * R);
  if (rc == 0) {
    printf("\n## Variance-reduction factors at %llu paths: (plain se / method se)^2, "
           "median of %d seed%s (%.1f s)\n\n",
           (unsigned long long)paths, R, R > 1 ? "s" : "", seconds_since(&t0));
    print_columns("product", 1);
    for (size_t i = 0; i < NFAMILIES; i++) {
      printf("| %s |", families[i].name);
      for (int m = 1; m < NMETHODS; m++)
        print_factor(median_factor(est + i * NMETHODS * R, m, R));
      printf("\n");
    }
    printf("\n## Prices (std error), seed 1; ! more than 4 std errors from plain\n\n");
    print_columns("product", 0);
    for (size_t i = 0; i < NFAMILIES; i++)
      print_prices(&families[i], est + i * NMETHODS * R, R);
  }
  free(est);
  return rc;
}

/* ---- Table 2 -------------------------------------------------------------- */

static double norm_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The call on the geometric mean of n fixings i T / n under flat
 * Black-Scholes, paid at T: log G is normal with mean log S + (r - q -
 * vol^2/2) mean(t_i) and variance vol^2 / n^2 sum_{i,j} min(t_i, t_j), where
 * fixing i (from 1) is the earlier of 2 (n - i) + 1 pairs.  n = 1 is the
 * European call. */
static double geometric_asian_call(size_t n)
{
  double mean_t = 0, var = 0;
  for (size_t i = 1; i <= n; i++) {
    double t = MATURITY * (double)i / (double)n;
    mean_t += t / (double)n;
    var += (double)(2 * (n - i) + 1) * t;
  }
  var *= VOL * VOL / ((double)n * (double)n);
  double fwd = SPOT * exp((RATE - DIVIDEND - 0.5 * VOL * VOL) * mean_t + 0.5 * var);
  double s = sqrt(var), d1 = (log(fwd / STRIKE) + 0.5 * var) / s;
  return exp(-RATE * MATURITY) * (fwd * norm_cdf(d1) - STRIKE * norm_cdf(d1 - s));
}

/* Least-squares slope of log y against log x. */
static double loglog_slope(const double *x, const double *y, int n)
{
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (int i = 0; i < n; i++) {
    mx += log(x[i]) / n;
    my += log(y[i]) / n;
  }
  for (int i = 0; i < n; i++) {
    sxy += (log(x[i]) - mx) * (log(y[i]) - my);
    sxx += (log(x[i]) - mx) * (log(x[i]) - mx);
  }
  return sxy / sxx;
}

static void print_series(const char *product, const char *what, const double *n,
                         const double *v)
{
  printf("| %s | %s |", product, what);
  for (int k = 0; k < NSIZES; k++)
    printf(" %.2e |", v[k]);
  printf(" %.2f |\n", loglog_slope(n, v, NSIZES));
}

/* One payoff under one method at every size: the root mean square over the
 * seeds of the std error and of the error against exact. */
static int run_series(const bench *b, const family *f, int method, double exact, double *n,
                      double *se, double *err)
{
  mcp_portfolio *p = family_portfolio(f);
  if (!p)
    return -1;
  int rc = 0;
  for (int k = 0; k < NSIZES && rc == 0; k++) {
    uint64_t paths = (uint64_t)FIRST_SIZE << 2 * k;
    double ss = 0, se2 = 0;
    for (int r = 0; r < b->repeats && rc == 0; r++) {
      mcp_estimate e;
      if ((rc = price(b, p, method, paths, (uint64_t)r + 1, &e)) == 0) {
        csv_row(b, 2, f->name, method, paths, (uint64_t)r + 1, &e, NAN, exact);
        ss += (e.price - exact) * (e.price - exact);
        se2 += e.std_error * e.std_error;
      }
    }
    n[k] = (double)paths;
    se[k] = sqrt(se2 / b->repeats);
    err[k] = sqrt(ss / b->repeats);
  }
  mcp_portfolio_destroy(p);
  return rc;
}

static int table_convergence(const bench *b)
{
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double n[NSIZES], se[NSMOOTH][2][NSIZES], err[NSMOOTH][2][NSIZES], exact[NSMOOTH];
  for (size_t i = 0; i < NSMOOTH; i++) {
    exact[i] = geometric_asian_call(smooth[i].nfix ? smooth[i].nfix : 1);
    for (int q = 0; q < 2; q++) /* plain, QMC */
      if (run_series(b, &smooth[i], q ? QMC_METHOD : 0, exact[i], n, se[i][q], err[i][q]))
        return -1;
  }
  printf("\n## Convergence of plain Monte Carlo and QMC: std error and |price - exact|, "
         "root mean square over %d seed%s (%.1f s)\n\n",
         b->repeats, b->repeats > 1 ? "s" : "", seconds_since(&t0));
  printf("| product | series |");
  for (int k = 0; k < NSIZES; k++)
    printf(" 2^%d |", 12 + 2 * k);
  printf(" slope |\n|---|---|");
  for (int k = 0; k < NSIZES; k++)
    printf("---:|");
  printf("---:|\n");
  for (size_t i = 0; i < NSMOOTH; i++) {
    char label[96];
    snprintf(label, sizeof label, "%s, exact %.6f", smooth[i].name, exact[i]);
    for (int q = 0; q < 2; q++) {
      const char *m = method_names[q ? QMC_METHOD : 0];
      char what[32];
      snprintf(what, sizeof what, "%s se", m);
      print_series(q ? "" : label, what, n, se[i][q]);
      snprintf(what, sizeof what, "%s error", m);
      print_series("", what, n, err[i][q]);
    }
  }
  return 0;
}

/* ---- driver --------------------------------------------------------------- */

static int usage(void)
{
  fprintf(stderr, "usage: variance [--paths N|2^k] [--repeats R] [--backend auto|cpu|cuda] "
                  "[--csv FILE]\n");
  return 2;
}

/* A path count, decimal or 2^k. */
static int parse_paths(const char *s, uint64_t *out)
{
  int pow2 = strncmp(s, "2^", 2) == 0;
  const char *digits = pow2 ? s + 2 : s;
  char *end;
  unsigned long long v = strtoull(digits, &end, 10);
  if (!isdigit((unsigned char)*digits) || *end || (pow2 && v > 40))
    return -1;
  *out = pow2 ? UINT64_C(1) << v : v;
  return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
  *o = (options){.paths = UINT64_C(1) << 18, .repeats = 1, .backend = MCP_BACKEND_AUTO};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!val)
      return -1;
    if (strcmp(arg, "--paths") == 0) {
      if (parse_paths(val, &o->paths)) {
        fprintf(stderr, "variance: --paths: expected a count or 2^k, got '%s'\n", val);
        return -1;
      }
    } else if (strcmp(arg, "--repeats") == 0) {
      char *end;
      long r = strtol(val, &end, 10);
      if (*end || r < 1 || r > MAX_REPEATS) {
        fprintf(stderr, "variance: --repeats: expected 1 to %d, got '%s'\n", MAX_REPEATS, val);
        return -1;
      }
      o->repeats = (int)r;
    } else if (strcmp(arg, "--backend") == 0) {
      if (mcp_backend_from_name(val, &o->backend) != MCP_OK) {
        fprintf(stderr, "variance: --backend: expected auto, cpu or cuda, got '%s'\n", val);
        return -1;
      }
    } else if (strcmp(arg, "--csv") == 0) {
      o->csv = val;
    } else {
      return -1;
    }
    i++;
  }
  return 0;
}

/* The backend, and the GPU's name where it is the GPU. */
static int print_header(const bench *b)
{
  mcp_backend be = mcp_context_backend(b->ctx);
  printf("# variance: variance reduction of antithetic, control variate and QMC sampling\n");
  printf("# %s\n", mcp_build_info());
  if (be != MCP_BACKEND_CUDA) {
    printf("# backend %s\n", mcp_backend_name(be));
    return 0;
  }
  mcp_device_info info;
  mcp_status st = mcp_device_get_info(0, &info);
  if (st != MCP_OK) {
    fprintf(stderr, "variance: device 0: %s\n", mcp_strerror(st));
    return -1;
  }
  printf("# backend cuda: %s, %d SMs, %.0f GiB\n", info.name, info.multiprocessors,
         (double)info.global_memory / (1 << 30));
  return 0;
}

int main(int argc, char **argv)
{
  options o;
  if (parse_options(argc, argv, &o))
    return usage();
  bench b = {.repeats = o.repeats};
  mcp_status st = mcp_context_create(&b.ctx, o.backend);
  if (st != MCP_OK) {
    fprintf(stderr, "variance: cannot use backend %s: %s%s\n", mcp_backend_name(o.backend),
            mcp_strerror(st),
            st == MCP_ERR_UNAVAILABLE ? " (no GPU, or the CUDA backend not built)" : "");
    return 1;
  }
  int rc = 1;
  if (!(b.market = build_market()))
    goto done;
  if (o.csv && !(b.csv = fopen(o.csv, "w"))) {
    perror(o.csv);
    goto done;
  }
  if (b.csv)
    fprintf(b.csv, "table,product,method,paths,seed,price,std_error,factor,exact\n");
  if (print_header(&b) == 0 && table_factors(&b, o.paths) == 0 && table_convergence(&b) == 0)
    rc = 0;
done:
  if (b.csv && fclose(b.csv) != 0) {
    perror(o.csv);
    rc = 1;
  }
  mcp_market_destroy(b.market);
  mcp_context_destroy(b.ctx);
  return rc;
}
