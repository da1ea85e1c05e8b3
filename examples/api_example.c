/* api_example.c: price a European and an arithmetic Asian call through the
 * C API, with their deltas and vegas on the same paths, built against the
 * installed library:
 *   cc api_example.c $(pkg-config --cflags --libs mcprice) -lm -o api_example
 * It exits with status 0 when the European's price and delta lie within four
 * standard errors of their Black-Scholes values, so that `make installcheck`
 * can run it. */
#include <math.h>
#include <stdio.h>
#include <mcprice.h>

static int check(mcp_status st, const char *what, const char *detail)
{
  if (st != MCP_OK)
    fprintf(stderr, "api_example: %s: %s (%s)\n", what, mcp_strerror(st),
            detail ? detail : "");
  return st != MCP_OK;
}

/* Black-Scholes call, the reference for the Monte Carlo price */
static double bs_call(double s, double k, double r, double q, double v, double t)
{
  double sd = v * sqrt(t), d1 = (log(s / k) + (r - q) * t) / sd + 0.5 * sd, d2 = d1 - sd;
  return s * exp(-q * t) * 0.5 * erfc(-d1 / sqrt(2.0)) - k * exp(-r * t) * 0.5 * erfc(-d2 / sqrt(2.0));
}

/* its delta, d/dS */
static double bs_call_delta(double s, double k, double r, double q, double v, double t)
{
  double sd = v * sqrt(t), d1 = (log(s / k) + (r - q) * t) / sd + 0.5 * sd;
  return exp(-q * t) * 0.5 * erfc(-d1 / sqrt(2.0));
}

int main(void)
{
  mcp_context *ctx = NULL;
  mcp_run_options *how = NULL;
  char err[512] = "";
  mcp_market *mkt = NULL;
  mcp_portfolio *book = NULL;
  mcp_greeks *greeks = NULL;
  mcp_results *res = NULL;
  double monthly[12];
  for (int i = 0; i < 12; i++)
    monthly[i] = (i + 1) / 12.0;
  /* how to run, apart from the book: a GPU if there is one, double paths */
  int bad = check(mcp_run_options_create(&how), "run options", NULL) ||
            check(mcp_run_options_set_precision(how, MCP_DOUBLE), "precision",
                  mcp_run_options_last_error(how)) ||
            check(mcp_context_create_with_options(&ctx, how, err, sizeof err), "context", err) ||
            check(mcp_market_create(&mkt), "market", NULL) ||
            check(mcp_market_add_black_scholes(mkt, "ACME", 100.0, 0.03, 0.01, 0.2), "underlying",
                  mcp_market_last_error(mkt)) ||
            check(mcp_portfolio_create(&book), "portfolio", NULL);
  if (!bad)
    bad = check(mcp_portfolio_add_european(book, "EC", "ACME", MCP_CALL, 100.0, 1.0, 1.0),
                "european", mcp_portfolio_last_error(book)) ||
          check(mcp_portfolio_add_asian(book, "AAC", "ACME", MCP_ARITHMETIC, MCP_CALL, 100.0, 12,
                                        monthly, 1.0, 1.0),
                "asian", mcp_portfolio_last_error(book)) ||
          check(mcp_portfolio_set_paths(book, 200000), "paths", NULL) ||
          check(mcp_portfolio_set_seed(book, 42), "seed", NULL) ||
          check(mcp_greeks_create(&greeks), "greeks", NULL) ||
          check(mcp_greeks_parse(greeks, "delta,vega"), "greeks", mcp_greeks_last_error(greeks)) ||
          check(mcp_price_greeks(ctx, mkt, book, greeks, &res), "price",
                mcp_context_last_error(ctx));
  if (!bad) {
    printf("mcprice %s, %s backend\n", mcp_version(), mcp_backend_name(mcp_results_backend(res)));
    for (size_t i = 0; i < mcp_results_count(res); i++) {
      mcp_estimate e;
      mcp_results_trade(res, i, &e);
      printf("%-4s %10.6f +- %.6f  [%.6f, %.6f]\n", mcp_results_trade_id(res, i), e.price,
             e.std_error, e.ci_low, e.ci_high);
      /* the Greeks of one unit, each with the method that estimated it */
      mcp_sensitivity s;
      for (size_t k = 0; mcp_results_sensitivity(res, i, k, &s) == MCP_OK; k++)
        printf("     %-5s %10.6f +- %.6f  (%s)\n", s.name, s.value.price, s.value.std_error,
               mcp_greek_method_name(s.method));
    }
    size_t i;
    mcp_estimate e;
    mcp_sensitivity d;
    double exact = bs_call(100.0, 100.0, 0.03, 0.01, 0.2, 1.0);
    double delta = bs_call_delta(100.0, 100.0, 0.03, 0.01, 0.2, 1.0);
    bad = check(mcp_results_find(res, "EC", &i), "find", NULL) ||
          check(mcp_results_trade(res, i, &e), "trade", NULL) ||
          check(mcp_results_greek(res, "EC", "delta", &d), "delta", NULL);
    if (!bad && fabs(e.price - exact) > 4.0 * e.std_error) {
      fprintf(stderr, "api_example: EC %.6f is %.1f standard errors from %.6f\n", e.price,
              (e.price - exact) / e.std_error, exact);
      bad = 1;
    }
    if (!bad && fabs(d.value.price - delta) > 4.0 * d.value.std_error) {
      fprintf(stderr, "api_example: EC delta %.6f is %.1f standard errors from %.6f\n",
              d.value.price, (d.value.price - delta) / d.value.std_error, delta);
      bad = 1;
    }
    /* the book's delta to ACME: quantity x delta, summed over the trades */
    if (!bad && mcp_results_greek(res, NULL, "delta:ACME", &d) == MCP_OK)
      printf("book delta:ACME %.6f +- %.6f\n", d.value.price, d.value.std_error);
  }
  mcp_results_destroy(res);
  mcp_greeks_destroy(greeks);
  mcp_portfolio_destroy(book);
  mcp_market_destroy(mkt);
  mcp_context_destroy(ctx);
  mcp_run_options_destroy(how);
  return bad;
}
