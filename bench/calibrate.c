/* calibrate.c: mcp_calibrate on 10 x 10 surfaces (maturities 36 days to 5
 * years, strikes 60 to 141 on a spot of 100) made from known Heston and
 * Merton models, exact and with half a volatility point of noise, on one
 * thread and on all; and QuantLib's Heston calibration of the same exact
 * surface from the same start (bench/calibrate_quantlib.py, --py), each
 * timed as the median of its runs after warm-up.
 *   bench/calibrate [--py bench/calibrate_quantlib.py] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench/common.h"
#include "src/analytic/analytic.h"

#define NT 10
#define NK 10
#define REPEATS 21
static const double days[NT] = {36, 91, 182, 273, 365, 547, 730, 1095, 1460, 1825};
static const double S = 100, R = 0.02, Q = 0.01;
static const double HESTON[5] = {0.03, 1.8, 0.06, 0.7, -0.65};
static const double MERTON[4] = {0.18, 0.4, -0.15, 0.2};

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The surface of a model (heston or not) at p into vols, noisy by sd. */
static void surface(int heston, const double *p, const double *t, const double *k, double sd,
                    double *vols)
{
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < NT; i++) {
    double f = S * exp((R - Q) * t[i]);
    for (int j = 0; j < NK; j++) {
      mcp_option_type type = k[j] >= f ? MCP_CALL : MCP_PUT;
      double value;
      if (heston) {
        mcp_heston_european(type, S, k[j], t[i], R, Q, p[0], p[1], p[2], p[3], p[4], &value,
                            NULL, 0);
        value *= exp(R * t[i]);
      } else {
        mcpi_fwd_call c = mcpi_merton_call(p[1] * t[i], p[2], p[3], f, k[j], p[0] * p[0] * t[i]);
        value = type == MCP_CALL ? c.call : c.call - (f - k[j]);
      }
      double u[2];
      for (int h = 0; h < 2; h++) { /* xorshift64, Box-Muller */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        u[h] = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
      }
      vols[i * NK + j] = mcpi_black_implied(type, f, k[j], value) / sqrt(t[i]) +
                         sd * sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
    }
  }
}

typedef struct row {
  const char *name;
  int threads;
  unsigned iterations;
  double param_error, rmse, ms;
} row;

static row time_fit(const char *name, mcp_market *m, mcp_fit_model model, const double *truth,
                    const double *t, const double *k, const double *vols, int threads)
{
  mcp_quotes q = {"A", NT, NK, (double *)t, (double *)k, (double *)vols};
  int before = bench_cpu_threads(threads);
  double ms[REPEATS];
  mcp_fit fit;
  char err[512];
  for (int r = -2; r < REPEATS; r++) {
    double t0 = now();
    if (mcp_calibrate(m, &q, model, &fit, NULL, err, sizeof err) != MCP_OK) {
      fprintf(stderr, "calibrate: %s\n", err);
      exit(1);
    }
    if (r >= 0)
      ms[r] = 1e3 * (now() - t0);
  }
  bench_cpu_threads(before);
  row out = {name, threads, fit.iterations, 0, fit.rmse, bench_median(ms, REPEATS)};
  for (size_t j = 0; j < fit.nparams; j++)
    out.param_error = fmax(out.param_error, fabs(fit.params[j] - truth[j]));
  return out;
}

/* The exact Heston surface as a quotes file, and QuantLib's lines on it,
 * with their times over one_thread ms, mcprice's on one thread. */
static void quantlib(const char *py, const double *t, const double *k, const double *vols,
                     double one_thread)
{
  char path[] = "/tmp/mcprice_quotes_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    printf("QuantLib: no temporary file\n");
    return;
  }
  fputs("{\"maturities\": [", f);
  for (int i = 0; i < NT; i++)
    fprintf(f, "%s%.17g", i ? ", " : "", t[i]);
  fputs("], \"strikes\": [", f);
  for (int j = 0; j < NK; j++)
    fprintf(f, "%s%.17g", j ? ", " : "", k[j]);
  fputs("], \"volatilities\": [", f);
  for (int i = 0; i < NT; i++) {
    fputs(i ? ", [" : "[", f);
    for (int j = 0; j < NK; j++)
      fprintf(f, "%s%.17g", j ? ", " : "", vols[i * NK + j]);
    fputs("]", f);
  }
  fputs("]}\n", f);
  fclose(f);
  /* mcp_calibrate's start: the first and last maturities' volatilities
   * nearest the forward, squared; kappa 1.5, xi 0.5, rho -0.5 (a put skew) */
  double atm[2];
  for (int e = 0; e < 2; e++) {
    int i = e ? NT - 1 : 0, best = 0;
    double fwd = S * exp((R - Q) * t[i]);
    for (int j = 1; j < NK; j++)
      if (fabs(log(k[j] / fwd)) < fabs(log(k[best] / fwd)))
        best = j;
    atm[e] = vols[i * NK + best];
  }
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "python3 '%s' '%s' %g %g %g %.17g 1.5 %.17g 0.5 -0.5", py, path, S,
           R, Q, atm[0] * atm[0], atm[1] * atm[1]);
  FILE *p = popen(cmd, "r");
  char line[512];
  while (p && fgets(line, sizeof line, p)) {
    char name[64], it[16];
    double ms, v[5], rmse;
    if (sscanf(line, "%63s %lf %15s %lf %lf %lf %lf %lf %lf", name, &ms, it, &v[0], &v[1],
               &v[2], &v[3], &v[4], &rmse) != 9) {
      printf("QuantLib: %s", line);
      continue;
    }
    double e = 0;
    for (int j = 0; j < 5; j++)
      e = fmax(e, fabs(v[j] - HESTON[j]));
    printf("| QuantLib %-22s | %7s | %10s | %14.2e | %10.2e | %9.2f |\n", name, "1", "-", e,
           rmse, ms);
    if (one_thread > 0)
      printf("|   its time over mcprice's (exact, 1 thread) | | | | | %9.1f |\n", ms / one_thread);
  }
  if (p)
    pclose(p);
  unlink(path);
}

int main(int argc, char **argv)
{
  const char *py = argc == 3 && strcmp(argv[1], "--py") == 0 ? argv[2] : NULL;
  double t[NT], k[NK], exact[NT * NK], noisy[NT * NK], merton[NT * NK];
  for (int i = 0; i < NT; i++)
    t[i] = days[i] / 365;
  for (int j = 0; j < NK; j++)
    k[j] = 60 + 9 * j;
  surface(1, HESTON, t, k, 0, exact);
  surface(1, HESTON, t, k, 0.005, noisy);
  surface(0, MERTON, t, k, 0, merton);
  mcp_market *m = NULL;
  if (mcp_market_create(&m) != MCP_OK ||
      mcp_market_add_black_scholes(m, "A", S, R, Q, 0.2) != MCP_OK)
    return 1;
  int all = bench_cpu_threads(1);
  bench_cpu_threads(all);
  printf("calibration of a 10 x 10 surface, median of %d runs after 2 (ms)\n\n", REPEATS);
  printf("| %-31s | %7s | %10s | %14s | %10s | %9s |\n", "fit", "threads", "iterations",
         "max |p - true|", "rmse (vp)", "ms");
  printf("|---|---:|---:|---:|---:|---:|\n");
  row rows[6];
  int n = 0;
  for (int th = 0; th < 2; th++) {
    int threads = th ? all : 1;
    if (th && all == 1)
      break;
    rows[n++] = time_fit("Heston, exact", m, MCP_FIT_HESTON, HESTON, t, k, exact, threads);
    rows[n++] = time_fit("Heston, noise 0.5 vp", m, MCP_FIT_HESTON, HESTON, t, k, noisy,
                         threads);
    rows[n++] = time_fit("Merton, exact", m, MCP_FIT_MERTON, MERTON, t, k, merton, threads);
  }
  for (int i = 0; i < n; i++)
    printf("| mcprice %-23s | %7d | %10u | %14.2e | %10.2e | %9.2f |\n", rows[i].name,
           rows[i].threads, rows[i].iterations, rows[i].param_error, rows[i].rmse, rows[i].ms);
  if (py)
    quantlib(py, t, k, exact, rows[0].ms);
  mcp_market_destroy(m);
  return 0;
}
