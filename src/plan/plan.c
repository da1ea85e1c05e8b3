/* plan.c: grouping trades into path jobs: each trade's key (what it must
 * share with others to share their paths), the jobs of one key formed in
 * order of their first trades as their drafts fill, the names that seed
 * their streams, and each job built in turn (plan_build.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/plan_build.h"
#include "src/plan/pde.h"
#include "src/plan/grid_check.h"
#include "models/rng.h"
#include "src/base/validate.h"
#include "src/base/grow.h"
#include "src/base/groups.h"

/* the canonical RNG mapping has room for every element and path allowed */
_Static_assert(MCPI_MAX_PATHS <= MCPI_RNG_MAX_PATHS, "paths beyond the RNG mapping");

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

static int same_key(const job_key *a, const job_key *b)
{
  if (a->n != b->n || a->antithetic != b->antithetic || a->qmc != b->qmc ||
      a->array != b->array || a->extrema != b->extrema || a->lsm != b->lsm ||
      fabs(a->maturity - b->maturity) > MCPI_TIME_EPS)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->asset[i] != b->asset[i])
      return 0;
  return 1;
}

/* A lookback on the continuous path: its job samples each step's extremes
 * (path_body.h, mcpi_path_extrema) and it reads them at its maturity. */
static int extrema_sampled(const mcpi_trade *t)
{
  return t->product == MCP_PRODUCT_LOOKBACK && t->monitoring == MCP_MONITOR_BRIDGE;
}

static const char *const model_name[] = {"Black-Scholes", "Heston", "Merton",
                                         "local-volatility"};

/* Resolves the trade's assets in the market and its job key. */
static mcp_status trade_key(const mcp_market *m, const mcp_portfolio *p, const mcpi_trade *t,
                            job_key *k, char *err)
{
  int methods = mcpi_trade_methods(p, t);
  *k = (job_key){.n = t->nassets, .antithetic = !!(methods & MCP_ANTITHETIC),
                 .qmc = !!(methods & MCP_QMC), .array = mcpi_private_product(t->product),
                 .extrema = extrema_sampled(t),
                 .lsm = mcpi_lsm_product(t->product) ? (size_t)(t - p->t) + 1 : 0,
                 .maturity = mcpi_multi_asset(t) || extrema_sampled(t) ? t->maturity : 0};
  for (size_t a = 0; a < t->nassets; a++) {
    const mcpi_underlying *u = mcpi_market_find(m, t->asset[a]);
    if (!u)
      return mcpi_fail(err, MCP_ERR_NOT_FOUND, "trade '%s': %s: '%s' is not in the market",
                       t->id, mcpi_multi_asset(t) ? "assets" : "underlying", t->asset[a]);
    const mcpi_underlying *u0 = mcpi_market_find(m, t->asset[0]);
    if (mcpi_multi_asset(t) && u->model == MCPI_MODEL_MERTON)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' follows Merton's model, which multi-asset "
                       "products do not take; expected Black-Scholes, Heston or "
                       "local-volatility underlyings, one model throughout",
                       t->id, u->name);
    if (mcpi_multi_asset(t) && u0 && u->model != u0->model)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' is not a %s underlying; multi-asset "
                       "products need Black-Scholes, Heston or local-volatility underlyings, "
                       "one model throughout",
                       t->id, u->name, model_name[u0->model]);
    if (mcpi_multi_asset(t) && u->ncash)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' pays cash dividends, which multi-asset "
                       "products do not take; expected underlyings without them",
                       t->id, u->name);
    k->asset[a] = (size_t)(u - m->u);
  }
  qsort(k->asset, k->n, sizeof *k->asset, cmp_size);
  return MCP_OK;
}

static mcp_status build_job(mcpi_job *j, const mcp_market *m, const mcp_portfolio *p,
                            const job_key *k, const job_draft *d, char *err)
{
  const mcpi_trade *first = &p->t[j->trade[0]];
  j->nassets = k->n;
  for (size_t a = 0; a < k->n; a++)
    j->u[a] = &m->u[k->asset[a]];
  /* several assets: one model throughout (trade_key) */
  j->model = j->u[0]->model;
  j->nfactors = k->n > 1 ? (int)k->n * (j->model == MCPI_MODEL_HESTON ? 2 : 1)
                : j->model == MCPI_MODEL_HESTON ? MCPI_FACTORS_HESTON
                : j->model == MCPI_MODEL_MERTON ? MCPI_FACTORS_MERTON
                                                : MCPI_FACTORS_BLACK_SCHOLES;
  if (k->extrema) /* the model's factors, then the extremes' */
    j->extrema = j->nfactors++;
  j->antithetic = k->antithetic;
  j->qmc = k->qmc;
  j->origin = p->origin;
  j->scheme = p->heston;
  mcp_status st;
  if ((st = mcpi_build_grid(j, m, p, d, err)) || (st = mcpi_build_coefficients(j, d, err)) ||
      (k->n > 1 && (st = mcpi_build_correlation(j, m, k, first, err))) ||
      (st = mcpi_build_specs(j, p, d, err)) || (k->lsm && (st = mcpi_lsm_table(j, p, d, err))))
    return st;
  for (size_t k = 0; k < sizeof j->g_book / sizeof *j->g_book; k++)
    j->g_book[k] = -1;
  j->nmon = d->nmon;
  for (int i = 0; i < d->nmon; i++) {
    j->mon_log_barrier[i] = log(d->mon[i].barrier);
    j->mon_up[i] = d->mon[i].up;
    j->mon_maturity[i] = d->mon[i].maturity;
    j->mon_end[i] = (int)mcpi_grid_index(j->times, j->nsteps, d->mon[i].maturity);
  }
  /* steps_per_year 0 on a model whose step is not exact: its event dates
   * alone (a European in one step) price wrongly, and with no step to merge
   * the discretisation check cannot see it (grid_check.c) */
  if (j->steps_per_year == 0 && mcpi_job_grid_unchecked(j))
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': run.steps_per_year: 0 leaves underlying '%s' (%s%s) steps "
                     "only from one of the trades' dates to the next (longest step: %.4g "
                     "years), over which its model is not exact, and no grid coarser to "
                     "check them against; expected steps_per_year that puts steps between "
                     "the dates (not given: %u a year), or run.grid times between them",
                     first->id, j->u[0]->name, model_name[j->model],
                     j->model == MCPI_MODEL_MERTON ? ", watched on the bridge" : "",
                     mcpi_job_longest_step(j), MCPI_MODEL_STEPS_PER_YEAR);
  if (j->qmc && mcpi_bridge_build(&j->bridge, j->nsteps, j->times))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the Brownian bridge");
  return MCP_OK;
}

/* The name that seeds a job's stream: its assets, and its sampling (control
 * characters, which names cannot hold, keep the suffixes apart). */
static void stream_name(const mcp_market *m, const job_key *k, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = 0;
  for (size_t a = 0; a < k->n && used < len; a++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", a ? "," : "", m->u[k->asset[a]].name);
  if (used < len)
    snprintf(buf + used, len - used, "%s%s%s%s", k->antithetic ? "\001a" : "",
             k->qmc ? "\001q" : "", k->extrema ? "\001x" : "", k->lsm ? "\001l" : "");
}

/* Trades by key, so that forming a job reads its key's trades alone (a
 * book of 10^5 trades forms thousands of jobs): the trades of one hash of
 * their key together (its maturity aside: keys equal within MCPI_TIME_EPS
 * hash alike), by index; at[i] is trade i's place. */
typedef struct key_entry {
  uint64_t hash;
  size_t trade;
} key_entry;

static uint64_t key_hash(const job_key *k)
{
  uint64_t h = 0xcbf29ce484222325u;
  const uint64_t v[] = {k->n, (uint64_t)k->antithetic, (uint64_t)k->qmc, (uint64_t)k->array,
                        (uint64_t)k->extrema, k->lsm};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    h = (h ^ v[i]) * 0x100000001b3u;
  for (size_t a = 0; a < k->n; a++)
    h = (h ^ k->asset[a]) * 0x100000001b3u;
  return h;
}

static uint64_t entry_hash(const void *items, size_t i)
{
  return ((const key_entry *)items)[i].hash;
}

static int same_entry(const void *items, size_t i, size_t j)
{
  return ((const key_entry *)items)[i].hash == ((const key_entry *)items)[j].hash;
}

/* The n entries (trade i's at i) gathered by hash, the hashes in the order
 * of their first trade, each one's trades in order, and at[i] set: a
 * counting sort by the hashes' groups (groups.h).  0, or -1 when out of
 * memory. */
static int group_entries(key_entry *e, size_t n, size_t *at)
{
  size_t *ord = malloc(n * sizeof *ord), *first = malloc(n * sizeof *first);
  size_t *off = calloc(n + 1, sizeof *off); /* a group's count, then place */
  key_entry *by = malloc(n * sizeof *by);
  size_t nh = ord && first && off && by
                  ? mcpi_group(n, &(mcpi_keys){entry_hash, same_entry, e}, ord, first)
                  : SIZE_MAX;
  int ok = nh != SIZE_MAX;
  for (size_t i = 0; ok && i < n; i++)
    off[ord[i] + 1]++;
  for (size_t k = 1; ok && k <= nh; k++)
    off[k] += off[k - 1];
  for (size_t i = 0; ok && i < n; i++) {
    size_t q = off[ord[i]]++;
    by[q] = e[i];
    at[e[i].trade] = q;
  }
  if (ok)
    memcpy(e, by, n * sizeof *e);
  free(ord);
  free(first);
  free(off);
  free(by);
  return ok ? 0 : -1;
}

/* Jobs a stream name has had so far, by name: a job's ordinal among them
 * seeds its stream. */
typedef struct name_counts {
  char **name;
  unsigned *count;
  size_t n, cap;
  mcpi_name_table index;
} name_counts;

static const char *counted_name(const void *owner, size_t i)
{
  return ((const name_counts *)owner)->name[i];
}

/* The count of name's jobs (a new name at 0), or NULL when out of memory. */
static unsigned *name_count(name_counts *c, const char *name)
{
  long i = mcpi_name_find(&c->index, name, counted_name, c);
  if (i >= 0)
    return &c->count[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    char **nm = realloc(c->name, cap * sizeof *nm);
    if (nm)
      c->name = nm;
    unsigned *ct = realloc(c->count, cap * sizeof *ct);
    if (ct)
      c->count = ct;
    if (!nm || !ct)
      return NULL;
    c->cap = cap;
  }
  if (!mcpi_name_reserve(&c->index, c->n, counted_name, c) || !(c->name[c->n] = strdup(name)))
    return NULL;
  c->count[c->n] = 0;
  mcpi_name_insert(&c->index, c->n, counted_name, c);
  return &c->count[c->n++];
}

static void name_counts_free(name_counts *c)
{
  for (size_t i = 0; i < c->n; i++)
    free(c->name[i]);
  free(c->name);
  free(c->count);
  mcpi_name_table_free(&c->index);
}

/* A job grouped, not yet built: its draft, its first trade (its key's) and
 * an American by Monte Carlo's dates, which the draft holds. */
typedef struct pending {
  job_draft d;
  size_t first;
  double *ex;
} pending;

/* Job k built from its draft; its error into why, and its index and
 * status into *failed and *st where it is the first to fail so far. */
static void build_one(const mcp_market *m, const mcp_portfolio *p, const job_key *keys,
                      const pending *pend, mcpi_plan *plan, size_t k, size_t *failed,
                      mcp_status *st, char *err)
{
  char why[MCPI_ERRLEN];
  mcp_status s = build_job(&plan->jobs[k], m, p, &keys[pend[k].first], &pend[k].d, why);
  if (s != MCP_OK)
#pragma omp critical(mcpi_build_jobs)
    if (k < *failed) {
      *failed = k;
      *st = s;
      mcpi_copy_message(err, MCPI_ERRLEN, why);
    }
}

/* Whether job k of the plan is a local-volatility job's. */
static int lv_job(const mcp_market *m, const job_key *keys, const pending *pend, size_t k)
{
  return m->u[keys[pend[k].first].asset[0]].model == MCPI_MODEL_LOCAL_VOL;
}

/* The plan's jobs built from their drafts, on the host's threads where
 * there are many (each job its own: the same plan in any order), but for
 * the local-volatility jobs, built after them one at a time so that their
 * slices take the threads (coefficients.c); the first failing job's error.
 * Those are built outside any parallel region: one nested in another, even
 * in a team of one, starts its threads afresh (libgomp keeps its pool for
 * the outermost), which took a fifth of the call of the benchmark Asian
 * under a 200 x 400 surface. */
static mcp_status build_jobs(const mcp_market *m, const mcp_portfolio *p, const job_key *keys,
                             const pending *pend, mcpi_plan *plan, char *err)
{
  size_t failed = plan->njobs;
  mcp_status st = MCP_OK;
#pragma omp parallel for schedule(dynamic) if (plan->njobs >= MCPI_PARALLEL_JOBS)
  for (size_t k = 0; k < plan->njobs; k++)
    if (!lv_job(m, keys, pend, k))
      build_one(m, p, keys, pend, plan, k, &failed, &st, err);
  for (size_t k = 0; k < plan->njobs; k++)
    if (lv_job(m, keys, pend, k))
      build_one(m, p, keys, pend, plan, k, &failed, &st, err);
  return st == MCP_OK ? st : mcpi_said(st, err);
}

static mcp_status plan_build(const mcp_market *m, const mcp_portfolio *p,
                             const mcp_pde_settings *grid, mcpi_plan *plan, char *err)
{
  memset(plan, 0, sizeof *plan);
  plan->paths = p->paths;
  plan->scramblings = p->scramblings;
  if (p->n == 0)
    return mcpi_fail(err, MCP_ERR_INPUT, "the portfolio has no trades");
  job_key *keys = calloc(p->n, sizeof *keys);
  size_t *assigned = calloc(p->n, sizeof *assigned);
  size_t *members = malloc(p->n * sizeof *members), *at = malloc(p->n * sizeof *at);
  key_entry *byk = malloc(p->n * sizeof *byk);
  name_counts names = {0};
  /* the jobs grow as they open (most books have far fewer than trades),
   * each grouped before any is built */
  size_t jcap = 0, pcap = 0;
  pending *pend = NULL;
  mcp_status st = MCP_OK;
  if (!keys || !assigned || !members || !at || !byk) {
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
    goto done;
  }
  /* each trade's engine (the grid's and closed forms' are assigned), and
   * its key where it takes paths, on the host's threads for a large book;
   * the first failing trade's error, found again into err */
  size_t bad = p->n;
#pragma omp parallel for schedule(static) reduction(min : bad) if (p->n >= MCPI_PARALLEL_TRADES)
  for (size_t i = 0; i < p->n; i++) {
    char why[MCPI_ERRLEN];
    if (!(assigned[i] = mcpi_trade_off_paths(m, p, grid, &p->t[i]) != MCP_ENGINE_MC) &&
        trade_key(m, p, &p->t[i], &keys[i], why) != MCP_OK)
      bad = i < bad ? i : bad;
  }
  if (bad < p->n)
    st = trade_key(m, p, &p->t[bad], &keys[bad], err);
  for (size_t i = 0; i < p->n; i++) /* keys[i] of a failed trade_key: zeros */
    byk[i] = (key_entry){assigned[i] ? 0 : key_hash(&keys[i]), i};
  if (st == MCP_OK && group_entries(byk, p->n, at))
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  /* Jobs in order of their first trade; a job of the same key opens when the
   * schedules or monitors are full.  ordinal counts jobs of one stream name. */
  for (size_t first = 0; first < p->n && st == MCP_OK; first++) {
    if (assigned[first])
      continue;
    char name[MCP_MAX_ASSETS * (MCPI_MAX_ID_BYTES + 1) + 8];
    stream_name(m, &keys[first], name, sizeof name);
    unsigned *count = name_count(&names, name);
    if (!count) {
      st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
      break;
    }
    unsigned ordinal = *count; /* jobs already drawing from this name */
    for (size_t start = first; start < p->n && st == MCP_OK;) {
      job_draft d = {.nsched = 0};
      const mcpi_trade *lead = &p->t[first];
      double *ex = NULL; /* an American by Monte Carlo's dates */
      if (keys[first].lsm && lead->product == MCP_PRODUCT_AMERICAN) {
        if (!(ex = malloc(lead->exercises * sizeof *ex))) {
          st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
          break;
        }
        mcpi_american_dates(lead->exercises, lead->maturity, p->origin, ex);
        d.ex = (schedule){lead->exercises, ex, 0};
      }
      size_t nm = 0, next = p->n;
      /* the trades from start on of first's key: those of its hash */
      for (size_t q = at[start]; q < p->n && byk[q].hash == byk[at[start]].hash; q++) {
        size_t i = byk[q].trade;
        if (assigned[i] || !same_key(&keys[i], &keys[first]))
          continue;
        if (!mcpi_draft_add(&d, &p->t[i])) {
          if (next == p->n)
            next = i;
          continue;
        }
        members[nm++] = i;
        assigned[i] = 1;
      }
      if (!mcpi_grow((void **)&plan->jobs, &jcap, plan->njobs + 1, sizeof *plan->jobs) ||
          !mcpi_grow((void **)&pend, &pcap, plan->njobs + 1, sizeof *pend)) {
        st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
        free(ex);
        break;
      }
      pend[plan->njobs] = (pending){d, first, ex};
      mcpi_job *j = &plan->jobs[plan->njobs++];
      memset(j, 0, sizeof *j);
      j->lsm_stream = mcpi_rng_job_seed(p->seed, name, ordinal | 1u << 31); /* the fit's */
      j->stream = mcpi_rng_job_seed(p->seed, name, ordinal++);
      j->ntrades = j->nreal = nm;
      if (!(j->trade = malloc(nm * sizeof *j->trade))) {
        st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
        break;
      }
      memcpy(j->trade, members, nm * sizeof *members);
      start = next;
    }
    *count = ordinal;
  }
  if (st == MCP_OK)
    st = build_jobs(m, p, keys, pend, plan, err);
  /* a standard error needs two samples, and a control variate's fitted
   * beta one more; fewer would report 0 +- 0 */
  for (size_t i = 0; st == MCP_OK && i < plan->njobs; i++) {
    const mcpi_job *j = &plan->jobs[i];
    uint64_t samples = mcpi_job_samples(plan, j);
    size_t ctl = j->ntrades; /* the first trade with a control variate */
    for (size_t t = 0; t < j->ntrades && ctl == j->ntrades; t++)
      if (j->spec[t].control)
        ctl = t;
    int control = ctl < j->ntrades;
    unsigned per = j->antithetic ? 2 : 1, need = control ? 3 : 2;
    if (j->antithetic && plan->paths % 2)
      /* the last pair would be half reported, or its extra path unreported */
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: trade '%s' (antithetic) needs an even number of paths, each "
                     "sample a pair, got %llu",
                     p->t[j->trade[0]].id, (unsigned long long)plan->paths);
    else if (j->qmc && samples < 2)
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: QMC with %u scramblings needs at least %u paths%s, got %llu",
                     plan->scramblings, 2 * plan->scramblings * per,
                     j->antithetic ? " (antithetic)" : "", (unsigned long long)plan->paths);
    else if (!j->qmc && samples < need)
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: trade '%s'%s%s needs at least %u paths for a standard error, "
                     "got %llu",
                     p->t[j->trade[control ? ctl : 0]].id, control ? " (control variate)" : "",
                     j->antithetic ? " (antithetic)" : "", need * per,
                     (unsigned long long)plan->paths);
  }
done:
  for (size_t k = 0; pend && k < plan->njobs; k++)
    free(pend[k].ex);
  free(pend);
  free(keys);
  free(assigned);
  free(members);
  free(at);
  free(byk);
  name_counts_free(&names);
  if (st != MCP_OK)
    mcpi_plan_free(plan);
  return st;
}

double mcpi_plan_theta_bump(const mcpi_plan *plan, double bump)
{
  /* a bump that outgrew the uniform grid's first step would remove it */
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    unsigned spy = plan->jobs[ji].steps_per_year;
    if (spy && bump > 0.5 / spy)
      bump = 0.5 / spy;
  }
  return bump;
}

mcp_status mcpi_plan_build(const mcp_market *m, const mcp_portfolio *p,
                           const mcp_pde_settings *grid, mcpi_plan *plan, char *err)
{
  mcp_status st = plan_build(m, p, grid, plan, err);
  int knotted = 0;
  for (size_t ji = 0; st == MCP_OK && ji < plan->njobs; ji++)
    knotted |= plan->jobs[ji].knotted;
  if (!knotted)
    return st;
  /* its knots pair at the bump theta takes by default (time_grid.c), so
   * that a run with theta has the price's steps: planned again at it where
   * the jobs' uniform steps make it less than a day */
  double h = mcpi_plan_theta_bump(plan, MCPI_THETA_BUMP);
  if (!(p->knot_pair > 0) && h != mcpi_knot_pair(p)) {
    mcp_portfolio q = *p;
    q.knot_pair = h;
    mcpi_plan_free(plan);
    st = plan_build(m, &q, grid, plan, err);
  } else
    h = mcpi_knot_pair(p);
  plan->knot_pair = h;
  return st;
}

void mcpi_plan_free(mcpi_plan *plan)
{
  for (size_t i = 0; i < plan->njobs; i++) {
    mcpi_job *j = &plan->jobs[i];
#define MCPI_JOB_ARRAY(field, type, count) free(j->field);
#include "models/products/job_arrays.def"
    mcpi_bridge_free(&j->bridge);
  }
  free(plan->jobs);
  memset(plan, 0, sizeof *plan);
}

/* Whether variant var (-1: none) runs a pass of job b. */
static int passes(const mcpi_job *b, long var)
{
  for (size_t p = 0; var >= 0 && p < b->npass; p++)
    if (b->pass[p] == (size_t)var)
      return 1;
  return var < 0;
}

mcp_status mcpi_plan_share(const mcpi_plan *base, const mcpi_plan *by, long var, mcpi_plan *out,
                           char *err)
{
  *out = *base;
  out->jobs = base->njobs ? malloc(base->njobs * sizeof *out->jobs) : NULL;
  if (base->njobs && !out->jobs) {
    out->njobs = 0; /* nothing to unshare */
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a device's plan");
  }
  if (base->njobs)
    memcpy(out->jobs, base->jobs, base->njobs * sizeof *out->jobs);
  int ok = 1;
  for (size_t ji = 0; ji < base->njobs && ji < by->njobs; ji++) {
    const mcpi_job *j = &base->jobs[ji], *b = &by->jobs[ji];
    mcpi_job *x = &out->jobs[ji];
    if (!passes(b, var))
      continue;
#define MCPI_JOB_ARRAY(field, type, count)
#define MCPI_RUN_ARRAY(field, type, count, view, written)                                      \
  if ((written) && j->field && (x->field = malloc((count) * sizeof *j->field)))                \
    memcpy(x->field, j->field, (count) * sizeof *j->field);                                    \
  ok = ok && (x->field || !j->field);
#include "models/products/job_arrays.def"
  }
  return ok ? MCP_OK : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a device's plan");
}

void mcpi_plan_unshare(mcpi_plan *p, const mcpi_plan *base)
{
  for (size_t ji = 0; ji < p->njobs; ji++) {
    const mcpi_job *j = &base->jobs[ji];
    mcpi_job *x = &p->jobs[ji];
#define MCPI_JOB_ARRAY(field, type, count)
#define MCPI_RUN_ARRAY(field, type, count, view, written)                                      \
  if (x->field != j->field)                                                                    \
    free(x->field);
#include "models/products/job_arrays.def"
  }
  free(p->jobs);
  memset(p, 0, sizeof *p);
}

mcp_status mcpi_plan_precision_check(const mcpi_plan *plan, mcp_precision precision, char *err)
{
  if (precision != MCP_FLOAT)
    return MCP_OK;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    for (size_t a = 0; j->model == MCPI_MODEL_HESTON && a < j->nassets; a++) {
      const mcpi_underlying *u = j->u[a];
      if (fabs(u->rho) > MCPI_FLOAT_HESTON_RHO_XI * u->xi)
        return mcpi_fail(err, MCP_ERR_INPUT,
                         "underlying '%s': float precision needs |rho| / xi at most %g under "
                         "Heston, got %g (the log-spot's rho / xi (v' - v) would be lost to "
                         "float's rounding); price it in double",
                         u->name, MCPI_FLOAT_HESTON_RHO_XI, fabs(u->rho) / u->xi);
    }
  }
  return MCP_OK;
}
