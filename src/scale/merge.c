/* merge.c: mcp_price_slice and mcp_partials_merge: a pricing computed in
 * slices, and their partial results merged into the pricing's results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "src/results/results.h"
#include "src/inputs/scenario.h"
#include "src/scale/scale.h"

static mcpi_part_kind kind_of(const mcp_greeks *g, const mcp_scenarios *s)
{
  return s ? MCPI_PART_SCENARIOS : g ? MCPI_PART_GREEKS : MCPI_PART_PRICES;
}

static const char *const kind_names[] = {"prices", "prices and Greeks", "a scenario grid"};

/* The arguments both calls share: MCP_OK, or a message naming the bad one. */
static mcp_status check(mcp_context *ctx, const char *fn, const mcp_market *m,
                        const mcp_portfolio *p, const mcp_greeks *g, const mcp_scenarios *s)
{
  if (!m || !p)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "%s: %s is NULL", fn, !m ? "market" : "portfolio");
  if (g && s)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "%s: Greeks and scenarios are separate runs; give one of them", fn);
  return MCP_OK;
}

mcp_status mcp_price_slice(mcp_context *ctx, const mcp_market *market,
                           const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                           const mcp_scenarios *scenarios, unsigned k, unsigned n,
                           mcp_partial **partial)
{
  mcpi_call_begin(ctx);
  return mcpi_call_end(ctx, mcpi_price_slice(ctx, market, portfolio, greeks, scenarios, k,
                                                 n, NULL, partial));
}

/* The digest the slices share, else the pricing's own (its run settings
 * over the portfolio's). */
static uint64_t digest_of(const mcpi_shared *sh, const mcp_context *ctx, const mcp_market *m,
                          const mcp_portfolio *p, const mcp_greeks *g, const mcp_scenarios *s)
{
  if (sh && sh->digest)
    return *sh->digest;
  mcpi_settings set;
  mcpi_context_settings(ctx, p, &set);
  return mcpi_digest(m, p, &set, g, s);
}

mcp_status mcpi_price_slice(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                            const mcp_scenarios *scenarios, unsigned k, unsigned n,
                            const mcpi_shared *sh, mcp_partial **partial)
{
  if (!ctx || !partial)
    return ctx ? mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_price_slice: partial is NULL")
               : mcpi_null("mcp_price_slice", "ctx");
  *partial = NULL;
  mcp_status st = check(ctx, "mcp_price_slice", market, portfolio, greeks, scenarios);
  if (st != MCP_OK || (st = mcpi_cancel_check(ctx)) != MCP_OK)
    return st;
  if (n == 0 || n > MCP_MAX_SLICES || k >= n)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT,
                     "mcp_price_slice: expected slice k of n with 1 <= n <= %u and k < n, got "
                     "%u of %u", MCP_MAX_SLICES, k, n);
  mcp_partial *p =
      mcpi_partial_new(k, n, kind_of(greeks, scenarios),
                       digest_of(sh, ctx, market, portfolio, greeks, scenarios), ctx->backend);
  if (!p)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for a partial result");
  mcpi_slicing sl = {.k = k, .n = n, .out = p, .keep = sh ? sh->keep : NULL};
  mcp_results *none = NULL;
  mcp_scenario_results *snone = NULL;
  st = scenarios ? mcpi_scenarios_run(ctx, market, portfolio, scenarios, &snone, &sl)
                 : mcpi_reval_run(ctx, market, portfolio, &(mcpi_reval){.greeks = greeks},
                                  &none, &sl);
  if (st != MCP_OK) {
    mcp_partial_destroy(p);
    return st;
  }
  *partial = p;
  return MCP_OK;
}

/* The partials as slices 0 .. n - 1 into in: MCP_ERR_INPUT naming a partial
 * of other inputs, a slice given twice or a missing one. */
static mcp_status order(mcp_context *ctx, mcp_partial *const *parts, size_t count,
                        mcpi_part_kind kind, uint64_t digest, const mcp_partial **in)
{
  const mcp_partial *a = parts[0];
  for (size_t i = 0; i < count; i++) {
    const mcp_partial *p = parts[i];
    if (!p)
      return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_partials_merge: partial %zu is NULL", i);
    if (p->kind != kind)
      return mcpi_fail(ctx->err, MCP_ERR_INPUT,
                       "%s: holds %s, the merge was asked for %s (give the same Greeks or "
                       "scenarios as the slices)", mcpi_partial_name(p), kind_names[p->kind],
                       kind_names[kind]);
    if (p->digest != digest)
      return mcpi_fail(ctx->err, MCP_ERR_INPUT,
                       "%s: was computed from other inputs (the market, the trades, the "
                       "paths, seed or run settings, or the Greeks or scenarios differ)",
                       mcpi_partial_name(p));
    if (p->n != a->n)
      return mcpi_fail(ctx->err, MCP_ERR_INPUT, "%s is one of %u slices, %s one of %u",
                       mcpi_partial_name(p), p->n, mcpi_partial_name(a), a->n);
    if (p->backend != a->backend)
      return mcpi_fail(ctx->err, MCP_ERR_INPUT,
                       "%s was computed on the %s backend, %s on the %s one (their last bits "
                       "differ: compute every slice on one)", mcpi_partial_name(p),
                       mcp_backend_name(p->backend), mcpi_partial_name(a),
                       mcp_backend_name(a->backend));
    if (in[p->k])
      return mcpi_fail(ctx->err, MCP_ERR_INPUT, "slice %u of %u is given twice: %s and %s",
                       p->k, p->n, mcpi_partial_name(in[p->k]), mcpi_partial_name(p));
    in[p->k] = p;
  }
  for (unsigned k = 0; k < a->n; k++)
    if (!in[k])
      return mcpi_fail(ctx->err, MCP_ERR_INPUT,
                       "slice %u of %u is missing (%zu of the %u given)", k, a->n, count, a->n);
  return MCP_OK;
}

mcp_status mcp_partials_merge(mcp_context *ctx, const mcp_market *market,
                              const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                              const mcp_scenarios *scenarios, mcp_partial *const *partials,
                              size_t count, mcp_results **results,
                              mcp_scenario_results **scenario_results)
{
  mcpi_call_begin(ctx);
  return mcpi_call_end(ctx, mcpi_partials_merge(ctx, market, portfolio, greeks, scenarios,
                                                    partials, count, NULL, results,
                                                    scenario_results));
}

mcp_status mcpi_partials_merge(mcp_context *ctx, const mcp_market *market,
                               const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                               const mcp_scenarios *scenarios, mcp_partial *const *partials,
                               size_t count, const mcpi_shared *sh, mcp_results **results,
                               mcp_scenario_results **scenario_results)
{
  if (!ctx)
    return mcpi_null("mcp_partials_merge", "ctx");
  if (results)
    *results = NULL;
  if (scenario_results)
    *scenario_results = NULL;
  mcp_status st = check(ctx, "mcp_partials_merge", market, portfolio, greeks, scenarios);
  if (st != MCP_OK || (st = mcpi_cancel_check(ctx)) != MCP_OK)
    return st;
  if (scenarios ? !scenario_results : !results)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_partials_merge: %s is NULL",
                     scenarios ? "scenario_results" : "results");
  if (!partials || count == 0)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_partials_merge: no partial results");
  if (count > MCP_MAX_SLICES)
    return mcpi_fail(ctx->err, MCP_ERR_INPUT, "mcp_partials_merge: %zu partials, more than "
                     "the %u slices a pricing has at most", count, MCP_MAX_SLICES);
  const mcp_partial **in = partials[0] ? calloc(partials[0]->n, sizeof *in) : NULL;
  if (!partials[0])
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_partials_merge: partial 0 is NULL");
  if (!in)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory merging the partial results");
  st = order(ctx, partials, count, kind_of(greeks, scenarios),
             digest_of(sh, ctx, market, portfolio, greeks, scenarios), in);
  size_t ntrees = 0, used = 0;
  for (size_t i = 0; st == MCP_OK && i < count; i++)
    ntrees += partials[i]->ntree;
  const mcpi_part_tree **sorted = malloc((ntrees ? ntrees : 1) * sizeof *sorted);
  if (st == MCP_OK && !sorted)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory merging the partial results");
  if (st == MCP_OK) {
    size_t m = 0;
    for (size_t i = 0; i < count; i++)
      for (size_t t = 0; t < partials[i]->ntree; t++)
        sorted[m++] = &partials[i]->tree[t];
    mcpi_sort_trees(sorted, ntrees);
    mcpi_slicing sl = {.n = in[0]->n, .in = in, .sorted = sorted, .nsorted = ntrees,
                       .used = &used, .keep = sh ? sh->keep : NULL};
    st = scenarios ? mcpi_scenarios_run(ctx, market, portfolio, scenarios, scenario_results, &sl)
                   : mcpi_reval_run(ctx, market, portfolio, &(mcpi_reval){.greeks = greeks},
                                    results, &sl);
  }
  if (st == MCP_OK && used != ntrees)
    st = mcpi_fail(ctx->err, MCP_ERR_INPUT,
                   "the partial results hold sums of %zu blocks of paths the inputs do not "
                   "have (corrupted, or written by another build?)", ntrees - used);
  if (st != MCP_OK) {
    if (results) {
      mcp_results_destroy(*results);
      *results = NULL;
    }
    if (scenario_results) {
      mcp_scenario_results_destroy(*scenario_results);
      *scenario_results = NULL;
    }
  }
  free(sorted);
  free(in);
  return st;
}
