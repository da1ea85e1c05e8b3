/* api_example.c: price a European and an arithmetic Asian call through the
 * C API, built against the installed library:
 *   cc api_example.c $(pkg-config --cflags --libs mcprice) -lm -o api_example
 * It exits with status 0 when the European price lies within four standard
 * errors of its Black-Scholes value, so that `make installcheck` can run it. */
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

int main(void)
{
  mcp_context *ctx = NULL;
  mcp_market *mkt = NULL;
  mcp_portfolio *book = NULL;
  mcp_results *res = NULL;
  double monthly[12];
  for (int i = 0; i < 12; i++)
    monthly[i] = (i + 1) / 12.0;
  int bad = check(mcp_context_create(&ctx, MCP_BACKEND_AUTO), "context", NULL) ||
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
          check(mcp_price(ctx, mkt, book, &res), "price", mcp_context_last_error(ctx));
  if (!bad) {
    printf("mcprice %s, %s backend\n", mcp_version(), mcp_backend_name(mcp_results_backend(res)));
    for (size_t i = 0; i < mcp_results_count(res); i++) {
      mcp_estimate e;
      mcp_results_trade(res, i, &e);
      printf("%-4s %10.6f +- %.6f  [%.6f, %.6f]\n", mcp_results_trade_id(res, i), e.price,
             e.std_error, e.ci_low, e.ci_high);
    }
    size_t i;
    mcp_estimate e;
    double exact = bs_call(100.0, 100.0, 0.03, 0.01, 0.2, 1.0);
    bad = check(mcp_results_find(res, "EC", &i), "find", NULL) ||
          check(mcp_results_trade(res, i, &e), "trade", NULL);
    if (!bad && fabs(e.price - exact) > 4.0 * e.std_error) {
      fprintf(stderr, "api_example: EC %.6f is %.1f standard errors from %.6f\n", e.price,
              (e.price - exact) / e.std_error, exact);
      bad = 1;
    }
  }
  mcp_results_destroy(res);
  mcp_portfolio_destroy(book);
  mcp_market_destroy(mkt);
  mcp_context_destroy(ctx);
  return bad;
}
