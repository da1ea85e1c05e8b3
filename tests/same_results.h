/* same_results.h: whether two results are the same bits (the tests of
 * threads, slices and mixed precision), and the example books' paths. */
#ifndef MCP_SAME_RESULTS_H
#define MCP_SAME_RESULTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mcprice.h"

/* The example books' paths: MCP_TEST_PATHS where set (CI's sanitizer
 * builds), else paths. */
static inline uint64_t mc_example_paths(uint64_t paths)
{
  const char *env = getenv("MCP_TEST_PATHS");
  return env && *env ? strtoull(env, NULL, 10) : paths;
}

/* Whether the sensitivities of two results, the trades' then the book's,
 * are the same names, Greeks, methods and bits; what differs into msg. */
static inline int same_sensitivities(const mcp_results *a, const mcp_results *b, char *msg,
                                     size_t len)
{
  for (size_t i = 0; i <= mcp_results_count(a); i++) {
    size_t n = mcp_results_sensitivities(a, i);
    if (n != mcp_results_sensitivities(b, i)) {
      snprintf(msg, len, "index %zu: %zu sensitivities against %zu", i, n,
               mcp_results_sensitivities(b, i));
      return 0;
    }
    for (size_t k = 0; k < n; k++) {
      mcp_sensitivity u, v;
      mcp_results_sensitivity(a, i, k, &u);
      mcp_results_sensitivity(b, i, k, &v);
      if (strcmp(u.name, v.name) || u.greek != v.greek || u.method != v.method ||
          memcmp(&u.value, &v.value, sizeof u.value) != 0) {
        snprintf(msg, len, "index %zu, %s: %.17g +- %.17g against %s: %.17g +- %.17g", i,
                 u.name, u.value.price, u.value.std_error, v.name, v.value.price,
                 v.value.std_error);
        return 0;
      }
    }
  }
  return 1;
}

/* Whether two results are the same bits: trade by trade, in total, their
 * warnings, sensitivities, redemption probabilities and exercise
 * boundaries; what differs into msg. */
static inline int same_results(const mcp_results *a, const mcp_results *b, char *msg,
                               size_t len)
{
  if (mcp_results_count(a) != mcp_results_count(b)) {
    snprintf(msg, len, "%zu trades against %zu", mcp_results_count(a), mcp_results_count(b));
    return 0;
  }
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_results_trade(a, i, &x);
    mcp_results_trade(b, i, &y);
    if (memcmp(&x, &y, sizeof x) != 0) {
      snprintf(msg, len, "trade %s: %.17g +- %.17g against %.17g +- %.17g",
               mcp_results_trade_id(a, i), x.price, x.std_error, y.price, y.std_error);
      return 0;
    }
  }
  mcp_results_total(a, &x);
  mcp_results_total(b, &y);
  if (memcmp(&x, &y, sizeof x) != 0) {
    snprintf(msg, len, "total %.17g against %.17g", x.price, y.price);
    return 0;
  }
  if (!same_sensitivities(a, b, msg, len))
    return 0;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    size_t n = mcp_results_redemptions(a, i);
    if (mcp_results_warnings(a, i) != mcp_results_warnings(b, i) ||
        n != mcp_results_redemptions(b, i)) {
      snprintf(msg, len, "trade %s: other warnings or redemption dates", mcp_results_trade_id(a, i));
      return 0;
    }
    size_t nb = mcp_results_exercise_boundaries(a, i);
    if (nb != mcp_results_exercise_boundaries(b, i)) {
      snprintf(msg, len, "trade %s: %zu exercise boundary points against %zu",
               mcp_results_trade_id(a, i), nb, mcp_results_exercise_boundaries(b, i));
      return 0;
    }
    for (size_t k = 0; k < nb; k++) {
      double ta, sa, tb, sb;
      mcp_results_exercise_boundary(a, i, k, &ta, &sa);
      mcp_results_exercise_boundary(b, i, k, &tb, &sb);
      if (memcmp(&ta, &tb, sizeof ta) != 0 || memcmp(&sa, &sb, sizeof sa) != 0) {
        snprintf(msg, len, "trade %s: exercise boundary point %zu: %.17g at %.17g against "
                 "%.17g at %.17g", mcp_results_trade_id(a, i), k, sa, ta, sb, tb);
        return 0;
      }
    }
    for (size_t k = 0; k < n; k++) {
      mcp_estimate u, v;
      double tu, tv;
      mcp_results_redemption(a, i, k, &tu, &u);
      mcp_results_redemption(b, i, k, &tv, &v);
      if (tu != tv || memcmp(&u, &v, sizeof u) != 0) {
        snprintf(msg, len, "trade %s: redemption %zu: %.17g against %.17g",
                 mcp_results_trade_id(a, i), k, u.price, v.price);
        return 0;
      }
    }
  }
  return 1;
}

#endif
