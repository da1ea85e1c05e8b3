/* price.c: mcp_price, from a market and a portfolio to results. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "backend.h"
#include "pde.h"
#include "results.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Per-trade estimates and the book's: jobs draw independent streams, so the
 * book variance is the sum of the jobs' book-column variances. */
static mcp_status collect(const mcp_portfolio *p, const mcpi_plan *plan, mcpi_accum **acc,
                          const mcpi_pde_batch *pde, mcp_results *r)
{
  double var = 0;
  r->total.price = 0;
  for (size_t i = 0; i < pde->ntrades; i++) { /* PDE prices carry no sampling error */
    size_t t = pde->trade[i].trade;
    r->total.price += p->t[t].quantity * r->est[t].price;
  }
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0);
    for (size_t t = 0; t < j->ntrades; t++)
      mcpi_estimate_replicates(&acc[ji][t], ncol, reps, &r->est[j->trade[t]]);
    mcp_estimate book;
    mcpi_estimate_replicates(&acc[ji][j->ntrades], ncol, reps, &book);
    r->total.price += book.price;
    var += book.std_error * book.std_error;
  }
  r->total.std_error = sqrt(var);
  r->total.ci_low = r->total.price - MCPI_Z95 * r->total.std_error;
  r->total.ci_high = r->total.price + MCPI_Z95 * r->total.std_error;
  for (size_t i = 0; i < p->n; i++) {
    r->quantity[i] = p->t[i].quantity;
    r->engine[i] = mcpi_trade_engine(p, &p->t[i]);
    if (!(r->id[i] = strdup(p->t[i].id)))
      return MCP_ERR_NO_MEMORY;
  }
  return MCP_OK;
}

mcp_status mcp_price(mcp_context *ctx, const mcp_market *market, const mcp_portfolio *portfolio,
                     mcp_results **results)
{
  if (!results)
    return ctx ? mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_price: results is NULL")
               : MCP_ERR_ARGUMENT;
  *results = NULL;
  if (!ctx)
    return MCP_ERR_ARGUMENT;
  if (!market || !portfolio)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "mcp_price: %s is NULL",
                     market ? "portfolio" : "market");
  double t0 = now();
  mcpi_plan plan;
  mcpi_pde_batch pde;
  mcp_status st = mcpi_plan_build(market, portfolio, &plan, ctx->err);
  if (st != MCP_OK)
    return st;
  if ((st = mcpi_pde_plan(market, portfolio, &pde, ctx->err)) != MCP_OK) {
    mcpi_plan_free(&plan);
    return st;
  }
  mcpi_accum **acc = calloc(plan.njobs, sizeof *acc);
  mcp_results *r = mcpi_results_alloc(portfolio->n);
  mcpi_run run = {.plan = &plan, .portfolio = portfolio, .ctx = ctx, .acc = acc,
                  .kopt = {.precision = portfolio->precision, .strategy = portfolio->prefetch,
                           .distance = portfolio->distance, .padding = portfolio->padding,
                           .block = ctx->block, .placement = portfolio->placement}};
  if (!acc || !r)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
  for (size_t j = 0; st == MCP_OK && j < plan.njobs; j++) {
    const mcpi_job *job = &plan.jobs[j];
    unsigned reps = mcpi_job_replicates(&plan, job);
    if (!(acc[j] = calloc(reps * mcpi_job_columns(job, 0), sizeof **acc)))
      st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
    run.work_total += (double)reps * (double)mcpi_job_samples(&plan, job) *
                      (double)(job->nelem + 1);
  }
  if (st == MCP_OK && plan.njobs)
    st = ctx->backend == MCP_BACKEND_CUDA ? mcpi_cuda_price(&run) : mcpi_cpu_price(&run);
  if (st == MCP_OK)
    st = mcpi_pde_price(ctx, portfolio, &pde, r->est);
  if (st == MCP_OK && (st = collect(portfolio, &plan, acc, &pde, r)) != MCP_OK)
    mcpi_fail(ctx->err, st, "out of memory for results");
  if (acc)
    for (size_t j = 0; j < plan.njobs; j++)
      free(acc[j]);
  free(acc);
  mcpi_plan_free(&plan);
  mcpi_pde_free(&pde);
  if (st != MCP_OK) {
    mcp_results_destroy(r);
    return st;
  }
  r->paths = portfolio->paths;
  r->seed = portfolio->seed;
  r->backend = ctx->backend;
  r->seconds = now() - t0;
  *results = r;
  return MCP_OK;
}
