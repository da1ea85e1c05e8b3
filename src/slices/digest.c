/* digest.c: the inputs of a pricing as one number (slice.h), so that a
 * merge refuses partials of another seed, book, market or request. */
#include <string.h>
#include "src/plan/variants.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"
#include "src/inputs/scenario.h"
#include "src/slices/slice.h"

typedef struct hash {
  uint64_t h;
} hash;

/* A 64-bit word into the hash: multiply and fold (a word at a time, not
 * a byte: the digest of a book of 10^5 trades stays a small part of a
 * slice). */
static void u64(hash *x, uint64_t v)
{
  x->h = (x->h ^ v) * 0x9e3779b97f4a7c15u;
  x->h ^= x->h >> 29;
}

/* Bytes as little-endian words, the last one padded with zeros: the same
 * digest on any host. */
static void bytes(hash *x, const void *v, size_t n)
{
  const unsigned char *b = v;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    for (size_t k = 0; k < 8 && i + k < n; k++)
      w |= (uint64_t)b[i + k] << (8 * k);
    u64(x, w);
  }
}

static void f64(hash *x, double v)
{
  uint64_t u;
  memcpy(&u, &v, 8);
  u64(x, u);
}

static void f64s(hash *x, const double *v, size_t n)
{
  u64(x, v ? n : 0);
  for (size_t i = 0; v && i < n; i++)
    f64(x, v[i]);
}

static void str(hash *x, const char *s)
{
  size_t n = s ? strlen(s) : 0;
  u64(x, n);
  bytes(x, s, n);
}

static void curve(hash *x, const mcpi_curve *c)
{
  f64s(x, c->end, c->n);
  f64s(x, c->value, c->n);
  if (c->slope) /* none: the digest of before slopes */
    f64s(x, c->slope, c->n);
}

static void market(hash *x, const mcp_market *m)
{
  u64(x, m->n);
  for (size_t i = 0; i < m->n; i++) {
    const mcpi_underlying *u = &m->u[i];
    str(x, u->name);
    u64(x, u->model);
    f64(x, u->spot);
    curve(x, &u->rate);
    curve(x, &u->dividend);
    curve(x, &u->vol);
    const double p[] = {u->v0, u->kappa, u->theta, u->xi, u->rho,
                        u->lambda, u->jump_mean, u->jump_vol};
    f64s(x, p, sizeof p / sizeof *p);
    f64s(x, u->lv.times, u->lv.nt);
    f64s(x, u->lv.spots, u->lv.ns);
    f64s(x, u->lv.values, u->lv.nt * u->lv.ns);
    f64s(x, u->cash_t, u->ncash);
    f64s(x, u->cash_amount, u->ncash);
    /* an implied surface's smiles price its Europeans; its quotes name
     * and move its vega buckets */
    u64(x, u->iv.n);
    f64s(x, u->iv.t, u->iv.n);
    f64s(x, u->iv.svi, 5 * u->iv.n);
    u64(x, u->iv.nq);
    u64(x, (uint64_t)u->iv.qvegas);
    for (size_t i = 0; u->iv.n && i <= u->iv.n; i++)
      u64(x, u->iv.qoff[i]);
    f64s(x, u->iv.qk, u->iv.nq);
    f64s(x, u->iv.dsvi, 5 * u->iv.nq);
  }
  u64(x, m->ncorr);
  for (size_t i = 0; i < m->ncorr; i++) {
    u64(x, m->corr[i].a);
    u64(x, m->corr[i].b);
    f64(x, m->corr[i].rho);
  }
}

static void trade(hash *x, const mcpi_trade *t)
{
  str(x, t->id);
  const uint64_t e[] = {t->product, t->type, t->nassets, t->average, t->strike_kind,
                        t->digital, t->barrier_kind, t->monitoring, (uint64_t)t->methods,
                        (uint64_t)t->engine, t->best, t->window, t->payoff, t->exercises,
                        (uint64_t)t->memory, t->nfix_all, (uint64_t)t->known,
                        (uint64_t)t->linear, (uint64_t)t->extremes, (uint64_t)t->ac_due,
                        (uint64_t)t->ac_knocked};
  for (size_t i = 0; i < sizeof e / sizeof *e; i++)
    u64(x, e[i]);
  const double d[] = {t->strike, t->maturity, t->quantity, t->cash, t->barrier, t->rebate,
                      t->notional, t->local_floor, t->local_cap, t->global_floor,
                      t->global_cap, t->coupon, t->coupon_barrier, t->knock_in,
                      t->pay_scale, t->known_amount, t->known_max, t->known_min};
  f64s(x, d, sizeof d / sizeof *d);
  for (size_t a = 0; a < t->nassets; a++)
    str(x, t->asset[a]);
  f64s(x, t->weight, t->nassets);
  f64s(x, t->fix, t->nfix);
  f64s(x, t->autocall, t->nfix);
  f64s(x, t->initial, t->nassets);
  if (t->seed) /* a seasoned array's history (nfix_all its fixings); none: as before */
    f64s(x, t->seed, (size_t)mcpi_private_len(t->product, (int)t->nfix_all, (int)t->window));
}

static void portfolio(hash *x, const mcp_portfolio *p, const mcpi_settings *set)
{
  u64(x, p->n);
  for (size_t i = 0; i < p->n; i++)
    trade(x, &p->t[i]);
  /* what changes prices, the run options' precision and grid numerics
   * among them; not the backend (the partial keeps its own), the prefetch
   * strategy, placement or normals, which do not */
  const mcp_pde_settings *pde = &set->pde;
  const uint64_t e[] = {p->paths, p->seed, p->steps_given ? p->steps_per_year : UINT64_MAX,
                        p->regression_paths,
                        set->precision, (uint64_t)p->methods, p->scramblings, p->heston,
                        pde->scheme, (uint64_t)pde->stencil_points, pde->space_points,
                        pde->time_steps, pde->rannacher};
  for (size_t i = 0; i < sizeof e / sizeof *e; i++)
    u64(x, e[i]);
  for (int k = 0; k < MCP_PRODUCT_COUNT; k++)
    u64(x, (uint64_t)p->engine[k]);
  f64s(x, p->grid, p->ngrid);
  f64(x, pde->width);
  f64(x, p->origin);
  /* the grid check changes no price but the columns a partial sums: a
   * slice and its merge must agree on it (hashed when off, so that the
   * default's digests stay as they were) */
  if (!set->grid_check)
    u64(x, UINT64_C(0x6772696420636b)); /* "grid ck" */
  /* so do the exercise boundaries (slice 0's values and ranges; hashed
   * when on) */
  if (set->exercise_boundary)
    u64(x, UINT64_C(0x6578206264)); /* "ex bd" */
}

uint64_t mcpi_digest(const mcp_market *m, const mcp_portfolio *p, const mcpi_settings *set,
                     const mcp_greeks *g, const mcp_scenarios *s)
{
  hash x = {0x243f6a8885a308d3u};
  u64(&x, (uint64_t)mcp_version_number());
  market(&x, m);
  portfolio(&x, p, set);
  u64(&x, g != NULL);
  for (int k = 0; g && k < MCP_GREEK_COUNT; k++) {
    u64(&x, (uint64_t)g->want[k]);
    f64(&x, g->bump[k]);
  }
  if (g) {
    u64(&x, (uint64_t)g->bump_only);
    if (g->buckets) /* the digests of runs without stay as they were */
      u64(&x, 1);
  }
  u64(&x, s != NULL);
  for (int a = 0; s && a < MCPI_NAXES; a++) {
    u64(&x, s->kind[a]);
    f64s(&x, s->shift[a], s->n[a]);
  }
  /* a set's scenarios (a grid's digest as it was) */
  for (size_t k = 0; s && k < s->nset; k++) {
    str(&x, s->set[k].name);
    u64(&x, s->set[k].n);
    for (size_t i = 0; i < s->set[k].n; i++) {
      str(&x, s->set[k].shift[i].underlying);
      u64(&x, (uint64_t)s->set[k].shift[i].axis);
      f64(&x, s->set[k].shift[i].x);
      if (s->set[k].shift[i].tenor) /* key rates (the regulatory view's) */
        u64(&x, s->set[k].shift[i].tenor);
    }
  }
  if (s && s->ntenor)
    f64s(&x, s->tenor, s->ntenor);
  return x.h;
}
