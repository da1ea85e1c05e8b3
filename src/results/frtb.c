/* frtb.c: the standardised approach's sensitivities (mcp_price_frtb in
 * mcprice.h): the scenario set that moves each risk factor alone, and the
 * records derived from its results, a trade's and the book's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/base/grow.h"
#include "src/base/validate.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"
#include "src/inputs/scenario.h"

/* MAR21.77: the spot risk weight of equity buckets 1 to 13, which is also
 * the curvature shock (MAR21.98). */
static const double risk_weight[MCP_FRTB_EQ_BUCKETS] = {0.55, 0.60, 0.45, 0.55, 0.30, 0.35, 0.40,
                                                        0.50, 0.70, 0.50, 0.70, 0.15, 0.25};
/* MAR21.8 and MAR21.11: GIRR's tenors, the vega's option maturities. */
#define NTENORS 10
#define NVERTICES 5
static const double tenors[NTENORS] = {0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30};
static const double vertices[NVERTICES] = {0.5, 1, 3, 5, 10};
#define SPOT_SHIFT 0.01   /* the delta's relative spot shift */
#define VOL_SHIFT 0.01    /* the vega's relative volatility shifts, up and down */
#define RATE_SHIFT 0.0001 /* GIRR's 1 bp */

/* An underlying's scenarios in the set, in this order. */
enum { S_DELTA, S_CURV_UP, S_CURV_DOWN, S_VEGA_UP, S_VEGA_DOWN, S_PER_UNDERLYING };

static const char *const risk_names[MCP_FRTB_RISK_COUNT] = {"EQ_DELTA", "EQ_VEGA", "EQ_CURV",
                                                            "GIRR_DELTA"};

const char *mcp_frtb_risk_name(mcp_frtb_risk risk)
{
  return (unsigned)risk < MCP_FRTB_RISK_COUNT ? risk_names[risk] : "unknown";
}

/* What the set moves: the underlyings the trades use (market indices, in
 * market order) and their currencies (in that order, each once). */
typedef struct view {
  size_t nu, nc;
  size_t *und;      /* nu */
  size_t *ccy_of;   /* market index -> currency index */
  char (*ccy)[4];   /* nc */
} view;

static void view_free(view *v)
{
  free(v->und);
  free(v->ccy_of);
  free(v->ccy);
}

static mcp_status view_make(const mcp_market *m, const mcp_portfolio *p, view *v, char *err,
                            size_t errlen)
{
  *v = (view){0};
  unsigned char *used = calloc(m->n ? m->n : 1, 1);
  v->und = malloc((m->n ? m->n : 1) * sizeof *v->und);
  v->ccy_of = malloc((m->n ? m->n : 1) * sizeof *v->ccy_of);
  v->ccy = malloc((m->n ? m->n : 1) * sizeof *v->ccy);
  if (!used || !v->und || !v->ccy_of || !v->ccy) {
    free(used);
    view_free(v);
    return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "out of memory for the FRTB view");
  }
  for (size_t t = 0; t < p->n; t++)
    for (size_t a = 0; a < p->t[t].nassets; a++) {
      const mcpi_underlying *u = mcpi_market_find(m, p->t[t].asset[a]);
      if (u) /* one the market lacks fails the pricing, which names it */
        used[u - m->u] = 1;
    }
  mcp_status st = MCP_OK;
  for (size_t i = 0; i < m->n && st == MCP_OK; i++) {
    const mcpi_underlying *u = &m->u[i];
    if (!used[i])
      continue;
    if (!u->currency[0] || !u->frtb_bucket) {
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT,
                        "underlying '%s': the FRTB view needs its %s in the market (fields "
                        "currency and frtb_bucket, or mcp_market_set_classification)",
                        u->name, !u->currency[0] ? "currency" : "frtb_bucket (1 to 13)");
      break;
    }
    v->und[v->nu++] = i;
    size_t c = 0;
    while (c < v->nc && strcmp(v->ccy[c], u->currency) != 0)
      c++;
    if (c == v->nc)
      memcpy(v->ccy[v->nc++], u->currency, 4);
    v->ccy_of[i] = c;
  }
  free(used);
  size_t n = v->nu * S_PER_UNDERLYING + v->nc * NTENORS;
  if (st == MCP_OK && !v->nu)
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT,
                      "the FRTB view: no trade uses an underlying of the market");
  if (st == MCP_OK && (n == 0 || n > MCP_MAX_SCENARIOS))
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT,
                      "the FRTB view: expected 1 to %d scenarios (5 an underlying, 10 a "
                      "currency), got %zu",
                      MCP_MAX_SCENARIOS, n);
  if (st != MCP_OK)
    view_free(v);
  return st;
}

/* The set's scenario of underlying j's shift s, and of currency c's tenor k. */
static size_t eq_scenario(size_t j, int s) { return j * S_PER_UNDERLYING + (size_t)s; }
static size_t ir_scenario(const view *v, size_t c, size_t k)
{
  return v->nu * S_PER_UNDERLYING + c * NTENORS + k;
}

/* The name of the set's scenario of what ("eq", "ir") i's shift k, which
 * mcp_frtb_from_results checks its results by. */
#define NAME_LEN 64
static void scenario_name(char *name, const char *what, size_t i, size_t k)
{
  snprintf(name, NAME_LEN, "frtb-%s-%zu-%zu", what, i, k);
}

static mcp_status add_scenario(mcp_scenarios *s, const char *what, size_t i, size_t k,
                               size_t *index)
{
  char name[NAME_LEN];
  scenario_name(name, what, i, k);
  return mcp_scenarios_add(s, name, index);
}

mcp_status mcp_frtb_scenarios(const mcp_market *m, const mcp_portfolio *p, mcp_scenarios **out,
                              char *err, size_t errlen)
{
  if (!out)
    return mcpi_null(__func__, "scenarios");
  *out = NULL;
  if (!m || !p)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "the FRTB view: %s is NULL",
                        !m ? "market" : "portfolio");
  view v;
  mcp_status st = view_make(m, p, &v, err, errlen);
  if (st != MCP_OK)
    return st;
  mcp_scenarios *s = NULL;
  if ((st = mcp_scenarios_create(&s)) == MCP_OK &&
      (st = mcpi_scenarios_set_tenors(s, NTENORS, tenors)) == MCP_OK) {
    /* spot and volatility relative, rates absolute (the defaults) */
    for (size_t j = 0; j < v.nu && st == MCP_OK; j++) {
      const mcpi_underlying *u = &m->u[v.und[j]];
      double rw = risk_weight[u->frtb_bucket - 1];
      const struct { int axis; double x; } shift[S_PER_UNDERLYING] = {
          {MCP_SHIFT_SPOT, SPOT_SHIFT}, {MCP_SHIFT_SPOT, rw}, {MCP_SHIFT_SPOT, -rw},
          {MCP_SHIFT_VOLATILITY, VOL_SHIFT}, {MCP_SHIFT_VOLATILITY, -VOL_SHIFT}};
      for (int k = 0; k < S_PER_UNDERLYING && st == MCP_OK; k++) {
        size_t q;
        if ((st = add_scenario(s, "eq", v.und[j], (size_t)k, &q)) == MCP_OK)
          st = mcp_scenarios_shift(s, q, u->name, (mcp_shift_axis)shift[k].axis, shift[k].x);
      }
    }
    for (size_t c = 0; c < v.nc && st == MCP_OK; c++)
      for (size_t k = 0; k < NTENORS && st == MCP_OK; k++) {
        size_t q;
        st = add_scenario(s, "ir", c, k, &q);
        for (size_t j = 0; j < v.nu && st == MCP_OK; j++)
          if (v.ccy_of[v.und[j]] == c)
            st = mcpi_scenarios_shift_tenor(s, q, m->u[v.und[j]].name, k, RATE_SHIFT);
      }
    if (st != MCP_OK)
      mcpi_fail_to(err, errlen, st, "the FRTB view: %s", mcp_scenarios_last_error(s));
  } else {
    mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "out of memory for the FRTB view");
  }
  view_free(&v);
  if (st != MCP_OK) {
    mcp_scenarios_destroy(s);
    return st;
  }
  *out = s;
  return MCP_OK;
}

/* ---- the records --------------------------------------------------------- */

typedef struct record {
  size_t trade; /* SIZE_MAX: the book */
  mcp_frtb_risk risk;
  size_t qualifier; /* into names */
  int bucket;
  double tenor, amount;
  char currency[4];
} record;

struct mcp_frtb {
  record *r;
  size_t n, cap;
  char **ids;   /* the trades' */
  size_t nids;
  char **names; /* qualifiers: the underlyings', then the currencies' */
  size_t nnames;
};

static int put(mcp_frtb *f, size_t trade, mcp_frtb_risk risk, size_t qualifier, int bucket,
               double tenor, double amount, const char *ccy)
{
  if (!mcpi_grow((void **)&f->r, &f->cap, f->n + 1, sizeof *f->r))
    return 0;
  record *r = &f->r[f->n++];
  *r = (record){trade, risk, qualifier, bucket, tenor, amount + 0.0, {0}}; /* no -0 */
  memcpy(r->currency, ccy, 4);
  return 1;
}

void mcp_frtb_destroy(mcp_frtb *f)
{
  if (!f)
    return;
  for (size_t i = 0; i < f->nids; i++)
    free(f->ids[i]);
  for (size_t i = 0; i < f->nnames; i++)
    free(f->names[i]);
  free(f->ids);
  free(f->names);
  free(f->r);
  free(f);
}

/* Weights of maturity T on the vega's vertices (linear between them). */
static void vertex_weights(double T, double *w)
{
  for (int k = 0; k < NVERTICES; k++)
    w[k] = 0;
  if (T <= vertices[0]) {
    w[0] = 1;
    return;
  }
  for (int k = 0; k + 1 < NVERTICES; k++)
    if (T <= vertices[k + 1]) {
      w[k + 1] = (T - vertices[k]) / (vertices[k + 1] - vertices[k]);
      w[k] = 1 - w[k + 1];
      return;
    }
  w[NVERTICES - 1] = 1;
}

/* A trade's value (per unit) in scenario s (SIZE_MAX: the base). */
static double value(const mcp_scenario_results *r, size_t t, size_t s)
{
  mcp_estimate e;
  mcp_status st = s == SIZE_MAX ? mcp_scenario_results_base_trade(r, t, &e)
                                : mcp_scenario_results_set_trade(r, t, s, &e);
  return st == MCP_OK ? e.price : NAN;
}

/* Sums of the book's records, by underlying j and by currency c. */
typedef struct book {
  double *delta, *vega, *up, *down, *girr; /* nu, nu x NVERTICES, nu, nu, nc x NTENORS */
} book;

/* Trade t's records, added to the book's. */
static int trade_records(mcp_frtb *f, const mcp_market *m, const mcpi_trade *tr, const view *v,
                         const mcp_scenario_results *r, size_t t, book *b)
{
  double q = mcp_scenario_results_quantity(r, t), base = value(r, t, SIZE_MAX), w[NVERTICES];
  unsigned char *mine = calloc(v->nu + v->nc + 1, 1); /* the trade's underlyings, currencies */
  if (!mine)
    return 0;
  for (size_t j = 0; j < v->nu; j++)
    for (size_t a = 0; a < tr->nassets; a++)
      if (strcmp(tr->asset[a], m->u[v->und[j]].name) == 0) {
        mine[j] = 1;
        mine[v->nu + v->ccy_of[v->und[j]]] = 1;
      }
  vertex_weights(tr->maturity, w);
  int ok = 1;
  for (size_t j = 0; j < v->nu && ok; j++) {
    if (!mine[j])
      continue;
    const mcpi_underlying *u = &m->u[v->und[j]];
    double rw = risk_weight[u->frtb_bucket - 1];
#define AT(s) value(r, t, eq_scenario(j, s))
    double delta = q * (AT(S_DELTA) - base) / SPOT_SHIFT;
    double vega = q * (AT(S_VEGA_UP) - AT(S_VEGA_DOWN)) / (2 * VOL_SHIFT);
    double up = -(q * (AT(S_CURV_UP) - base) - rw * delta);
    double down = -(q * (AT(S_CURV_DOWN) - base) + rw * delta);
#undef AT
    ok = put(f, t, MCP_FRTB_EQ_DELTA, j, u->frtb_bucket, 0, delta, u->currency);
    for (int k = 0; k < NVERTICES && ok; k++)
      if (w[k] > 0) {
        ok = put(f, t, MCP_FRTB_EQ_VEGA, j, u->frtb_bucket, vertices[k], w[k] * vega,
                 u->currency);
        b->vega[j * NVERTICES + k] += w[k] * vega;
      }
    ok = ok && put(f, t, MCP_FRTB_EQ_CURVATURE, j, u->frtb_bucket, rw, up, u->currency) &&
         put(f, t, MCP_FRTB_EQ_CURVATURE, j, u->frtb_bucket, -rw, down, u->currency);
    b->delta[j] += delta;
    b->up[j] += up;
    b->down[j] += down;
  }
  for (size_t c = 0; c < v->nc && ok; c++)
    for (size_t k = 0; k < NTENORS && mine[v->nu + c] && ok; k++) {
      double g = q * (value(r, t, ir_scenario(v, c, k)) - base) / RATE_SHIFT;
      ok = put(f, t, MCP_FRTB_GIRR_DELTA, v->nu + c, 0, tenors[k], g, v->ccy[c]);
      b->girr[c * NTENORS + k] += g;
    }
  free(mine);
  return ok;
}

static int book_records(mcp_frtb *f, const mcp_market *m, const view *v, const book *b)
{
  int ok = 1;
  for (size_t j = 0; j < v->nu && ok; j++) {
    const mcpi_underlying *u = &m->u[v->und[j]];
    double rw = risk_weight[u->frtb_bucket - 1];
    ok = put(f, SIZE_MAX, MCP_FRTB_EQ_DELTA, j, u->frtb_bucket, 0, b->delta[j], u->currency);
    for (int k = 0; k < NVERTICES && ok; k++)
      ok = put(f, SIZE_MAX, MCP_FRTB_EQ_VEGA, j, u->frtb_bucket, vertices[k],
               b->vega[j * NVERTICES + k], u->currency);
    ok = ok &&
         put(f, SIZE_MAX, MCP_FRTB_EQ_CURVATURE, j, u->frtb_bucket, rw, b->up[j], u->currency) &&
         put(f, SIZE_MAX, MCP_FRTB_EQ_CURVATURE, j, u->frtb_bucket, -rw, b->down[j], u->currency);
  }
  for (size_t c = 0; c < v->nc && ok; c++)
    for (size_t k = 0; k < NTENORS && ok; k++)
      ok = put(f, SIZE_MAX, MCP_FRTB_GIRR_DELTA, v->nu + c, 0, tenors[k],
               b->girr[c * NTENORS + k], v->ccy[c]);
  return ok;
}

/* Whether r holds the results of v's set: its scenarios, by name. */
static int of_view(const mcp_scenario_results *r, const mcp_portfolio *p, const view *v)
{
  size_t n = v->nu * S_PER_UNDERLYING + v->nc * NTENORS;
  if (mcp_scenario_results_scenarios(r) != n || mcp_scenario_results_count(r) != p->n)
    return 0;
  for (size_t t = 0; t < p->n; t++)
    if (strcmp(mcp_scenario_results_trade_id(r, t), p->t[t].id) != 0)
      return 0;
  for (size_t j = 0; j < v->nu; j++)
    for (int s = 0; s < S_PER_UNDERLYING; s++) {
      char name[NAME_LEN];
      scenario_name(name, "eq", v->und[j], (size_t)s);
      if (strcmp(mcp_scenario_results_name(r, eq_scenario(j, s)), name) != 0)
        return 0;
    }
  return 1;
}

mcp_status mcp_frtb_from_results(const mcp_market *m, const mcp_portfolio *p,
                                 const mcp_scenario_results *r, mcp_frtb **out, char *err,
                                 size_t errlen)
{
  if (!out)
    return mcpi_null(__func__, "frtb");
  *out = NULL;
  if (!m || !p || !r)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "the FRTB view: %s is NULL",
                        !m ? "market" : !p ? "portfolio" : "results");
  view v;
  mcp_status st = view_make(m, p, &v, err, errlen);
  if (st != MCP_OK)
    return st;
  if (!of_view(r, p, &v)) {
    view_free(&v);
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT,
                        "the FRTB view: expected the results of mcp_frtb_scenarios of this "
                        "market and portfolio");
  }
  mcp_frtb *f = calloc(1, sizeof *f);
  book b = {calloc(v.nu + 1, sizeof(double)), calloc(v.nu * NVERTICES + 1, sizeof(double)),
            calloc(v.nu + 1, sizeof(double)), calloc(v.nu + 1, sizeof(double)),
            calloc(v.nc * NTENORS + 1, sizeof(double))};
  int ok = f && b.delta && b.vega && b.up && b.down && b.girr &&
           (f->ids = calloc(p->n + 1, sizeof *f->ids)) &&
           (f->names = calloc(v.nu + v.nc, sizeof *f->names));
  for (size_t j = 0; ok && j < v.nu; j++)
    ok = (f->names[f->nnames++] = strdup(m->u[v.und[j]].name)) != NULL;
  for (size_t c = 0; ok && c < v.nc; c++)
    ok = (f->names[f->nnames++] = strdup(v.ccy[c])) != NULL;
  for (size_t t = 0; ok && t < p->n; t++)
    ok = (f->ids[f->nids++] = strdup(mcp_scenario_results_trade_id(r, t))) != NULL &&
         trade_records(f, m, &p->t[t], &v, r, t, &b);
  ok = ok && book_records(f, m, &v, &b);
  free(b.delta);
  free(b.vega);
  free(b.up);
  free(b.down);
  free(b.girr);
  view_free(&v);
  if (!ok) {
    mcp_frtb_destroy(f);
    return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "out of memory for the FRTB view");
  }
  *out = f;
  return MCP_OK;
}

size_t mcp_frtb_count(const mcp_frtb *f) { return f ? f->n : 0; }

mcp_status mcp_frtb_record_at(const mcp_frtb *f, size_t i, mcp_frtb_record *out)
{
  if (!f || !out || i >= f->n)
    return mcpi_error(MCP_ERR_ARGUMENT, "%s: %s", __func__,
                      !f || !out ? "frtb or out is NULL" : "no such record");
  const record *r = &f->r[i];
  *out = (mcp_frtb_record){r->trade == SIZE_MAX ? NULL : f->ids[r->trade], r->risk,
                           f->names[r->qualifier], r->bucket, r->tenor, r->amount, r->currency};
  return MCP_OK;
}

/* Appends to a growing text; 0 when out of memory. */
static int append(char **text, size_t *len, size_t *cap, const char *line)
{
  size_t n = strlen(line);
  if (!mcpi_grow((void **)text, cap, *len + n + 1, 1))
    return 0;
  memcpy(*text + *len, line, n + 1);
  *len += n;
  return 1;
}

mcp_status mcp_frtb_crif(const mcp_frtb *f, char **text, size_t *len)
{
  if (!f || !text || !len)
    return mcpi_null(__func__, "frtb, text or len");
  size_t cap = 0;
  *text = NULL;
  *len = 0;
  int ok = append(text, len, &cap,
                  "TradeID,RiskType,Qualifier,Bucket,Label1,Label2,Amount,AmountCurrency\n");
  for (size_t i = 0; i < f->n && ok; i++) {
    const record *r = &f->r[i];
    if (r->trade == SIZE_MAX || r->amount == 0)
      continue; /* a trade's risk, and only where it has some */
    char bucket[16] = "", label1[32] = "", line[4 * MCPI_MAX_ID_BYTES];
    if (r->bucket)
      snprintf(bucket, sizeof bucket, "%d", r->bucket);
    if (r->risk != MCP_FRTB_EQ_DELTA)
      snprintf(label1, sizeof label1, "%g", r->tenor);
    snprintf(line, sizeof line, "%s,%s,%s,%s,%s,%s,%.17g,%s\n", f->ids[r->trade],
             risk_names[r->risk], f->names[r->qualifier], bucket, label1,
             r->risk == MCP_FRTB_EQ_DELTA ? "SPOT" : "", r->amount, r->currency);
    ok = append(text, len, &cap, line);
  }
  if (!ok) {
    free(*text);
    *text = NULL;
    *len = 0;
    return mcpi_no_memory(__func__);
  }
  return MCP_OK;
}
