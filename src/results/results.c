/* results.c: reading results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/results/results.h"
#include "src/base/stats.h"
#include "src/base/validate.h"

mcp_results *mcpi_results_alloc(size_t n)
{
  mcp_results *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->n = n;
  r->id = calloc(n, sizeof *r->id);
  r->quantity = calloc(n, sizeof *r->quantity);
  r->est = calloc(n, sizeof *r->est);
  r->engine = calloc(n, sizeof *r->engine);
  r->warn = calloc(n ? n : 1, sizeof *r->warn);
  if (!r->id || !r->quantity || !r->est || !r->engine || !r->warn) {
    mcp_results_destroy(r);
    return NULL;
  }
  return r;
}

void mcp_results_destroy(mcp_results *r)
{
  if (!r)
    return;
  if (r->id)
    for (size_t i = 0; i < r->n; i++)
      free(r->id[i]);
  free(r->id);
  free(r->quantity);
  free(r->est);
  free(r->engine);
  free(r->warn);
  for (size_t i = 0; r->sens && i <= r->n; i++)
    free(r->sens[i].s);
  free(r->sens);
  for (mcpi_text *t = r->text, *next; t; t = next) {
    next = t->next;
    free(t);
  }
  free(r->red_off);
  free(r->red_time);
  free(r->grid);
  free(r->grid_on);
  free(r->red);
  mcpi_bounds_free(&r->bnd);
  free(r);
}

void mcpi_bounds_free(mcpi_bounds *b)
{
  free(b->off);
  free(b->time);
  free(b->spot);
  *b = (mcpi_bounds){0};
}

int mcpi_bounds_copy(mcpi_bounds *dst, const mcpi_bounds *src, size_t n)
{
  *dst = (mcpi_bounds){0};
  if (!src->off)
    return 1;
  size_t m = src->off[n] ? src->off[n] : 1;
  dst->off = malloc((n + 1) * sizeof *dst->off);
  dst->time = malloc(m * sizeof *dst->time);
  dst->spot = malloc(m * sizeof *dst->spot);
  if (!dst->off || !dst->time || !dst->spot) {
    mcpi_bounds_free(dst);
    return 0;
  }
  memcpy(dst->off, src->off, (n + 1) * sizeof *dst->off);
  memcpy(dst->time, src->time, src->off[n] * sizeof *dst->time);
  memcpy(dst->spot, src->spot, src->off[n] * sizeof *dst->spot);
  return 1;
}

static void set_value(mcp_estimate *e, double mean, double var)
{
  double se = isnan(var) ? var : sqrt(var > 0 ? var : 0); /* NaN: overflowed (stats.c) */
  *e = (mcp_estimate){mean, se, mean - MCPI_Z95 * se, mean + MCPI_Z95 * se};
}

/* prefix and s written at `at`, terminated; the end of s there */
static char *put(char *at, const char *prefix, const char *s)
{
  size_t p = strlen(prefix), n = strlen(s);
  memcpy(at, prefix, p);
  memcpy(at + p, s, n + 1);
  return at + p + n;
}

static int rank(mcp_greek g)
{
  static const int r[MCP_GREEK_COUNT] = {0, 1, 3, 4, 6, 2, 7, 5};
  return r[g];
}

static int cmp_sens(const void *pa, const void *pb)
{
  const mcpi_sens *a = pa, *b = pb;
  if (rank(a->greek) != rank(b->greek))
    return rank(a->greek) - rank(b->greek);
  if (a->a != b->a)
    return a->a < b->a ? -1 : 1;
  if (a->b != b->b)
    return a->b < b->b ? -1 : 1;
  return (a->bucket > b->bucket) - (a->bucket < b->bucket);
}

/* The entry of that Greek in l, or NULL: in order, by halves (a trade's
 * hundreds of buckets, each against every other, were 2.5 M instructions a
 * call, bench/RESULTS.md); else one by one. */
static mcpi_sens *sens_find(const mcpi_sens_list *l, const mcpi_sens *key)
{
  if (l->unordered) {
    for (size_t k = 0; k < l->n; k++)
      if (!cmp_sens(&l->s[k], key))
        return &l->s[k];
    return NULL;
  }
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_sens(&l->s[mid], key);
    if (!c)
      return &l->s[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

int mcpi_results_sens(mcp_results *r)
{
  if (!(r->sens = calloc(r->n + 1, sizeof *r->sens)))
    return 0;
  for (size_t i = 0; i <= r->n; i++)
    r->sens[i].text = &r->text;
  return 1;
}

/* n bytes of the text blocks at *head (a new block where the first is
 * full, each twice the last up to 64 KiB: a few names take little), or
 * NULL when out of memory. */
static char *text_take(mcpi_text **head, size_t n)
{
  enum { FIRST = 1 << 10, MOST = 1 << 16 };
  mcpi_text *t = *head;
  if (!t || t->cap - t->used < n) {
    size_t cap = !t ? FIRST : 2 * t->cap < MOST ? 2 * t->cap : MOST;
    cap = n > cap ? n : cap;
    if (!(t = malloc(sizeof *t + cap)))
      return NULL;
    *t = (mcpi_text){.next = *head, .cap = cap};
    *head = t;
  }
  t->used += n;
  return t->at + t->used - n;
}

int mcpi_sens_add_bucket(mcpi_sens_list *l, mcp_greek greek, mcp_greek_method method, long a,
                         long b, long bucket, const char *label, const char *u1, const char *u2,
                         int suffix, double mean, double var)
{
  mcpi_sens key = {.greek = greek, .a = a, .b = b, .bucket = bucket};
  mcpi_sens *x = sens_find(l, &key);
  if (x) { /* the book's terms of one Greek add up */
    double v = x->value.std_error * x->value.std_error + var;
    set_value(&x->value, x->value.price + mean, v);
    return 1;
  }
  if (l->n == l->cap) {
    size_t c = l->cap ? 2 * l->cap : 8;
    mcpi_sens *s = realloc(l->s, c * sizeof *s);
    if (!s)
      return 0;
    l->s = s;
    l->cap = c;
  }
  if (l->n && cmp_sens(&l->s[l->n - 1], &key) > 0)
    l->unordered = 1;
  x = &l->s[l->n];
  *x = key;
  x->method = method;
  set_value(&x->value, mean, var);
  /* the name, then the underlyings' names and the label, in one piece of
   * the results' text */
  const char *g = mcp_greek_name(greek);
  size_t n1 = u1 ? strlen(u1) + 1 : 0, n2 = u2 ? strlen(u2) + 1 : 0;
  size_t nl = label ? strlen(label) + 1 : 0, len = strlen(g) + 1 + n1 + n2 + nl;
  char *at = x->name = text_take(l->text, len + n1 + n2 + nl);
  if (!at)
    return 0;
  at = put(at, "", g);
  if (suffix && u1)
    at = put(at, ":", u1);
  if (suffix && u2)
    at = put(at, ":", u2);
  if (label)
    at = put(at, "@", label);
  at = x->name + len;
  x->u1 = u1 ? memcpy(at, u1, n1) : NULL;
  x->u2 = u2 ? memcpy(at + n1, u2, n2) : NULL;
  x->label = label ? memcpy(at + n1 + n2, label, nl) : NULL;
  l->n++;
  return 1;
}

int mcpi_sens_add(mcpi_sens_list *l, mcp_greek greek, mcp_greek_method method, long a, long b,
                  const char *u1, const char *u2, int suffix, double mean, double var)
{
  return mcpi_sens_add_bucket(l, greek, method, a, b, 0, NULL, u1, u2, suffix, mean, var);
}

void mcpi_sens_sort(mcpi_sens_list *l)
{
  size_t k = 1; /* most lists come in order; the keys are distinct */
  while (k < l->n && cmp_sens(&l->s[k - 1], &l->s[k]) < 0)
    k++;
  /* the rest sorted, then merged from the back with the ordered part (an
   * adjoint block's totals come after its hundreds of buckets); without
   * room for the rest, all of it sorted */
  size_t nt = k < l->n ? l->n - k : 0;
  mcpi_sens *t = nt ? malloc(nt * sizeof *t) : NULL;
  if (nt && !t)
    qsort(l->s, l->n, sizeof *l->s, cmp_sens);
  if (t) {
    qsort(l->s + k, nt, sizeof *l->s, cmp_sens);
    memcpy(t, l->s + k, nt * sizeof *t);
    for (size_t at = l->n, i = k; nt;)
      l->s[--at] = i && cmp_sens(&l->s[i - 1], &t[nt - 1]) > 0 ? l->s[--i] : t[--nt];
    free(t);
  }
  l->unordered = 0;
}

size_t mcp_results_sensitivities(const mcp_results *r, size_t index)
{
  return r && r->sens && index <= r->n ? r->sens[index].n : 0;
}

mcp_status mcp_results_sensitivity(const mcp_results *r, size_t index, size_t k,
                                   mcp_sensitivity *out)
{
  if (!out || k >= mcp_results_sensitivities(r, index))
    return mcpi_error(MCP_ERR_ARGUMENT, "%s: %s", __func__,
                      !out ? "out is NULL" : "no such index and sensitivity");
  const mcpi_sens *x = &r->sens[index].s[k];
  *out = (mcp_sensitivity){x->name, x->greek, x->method, x->u1, x->u2, x->value, x->label};
  return MCP_OK;
}

mcp_status mcp_results_greek(const mcp_results *r, const char *id, const char *name,
                             mcp_sensitivity *out)
{
  size_t index = r ? r->n : 0;
  if (!r || !name || !out)
    return mcpi_null(__func__, "results, name or out");
  if (id && mcp_results_find(r, id, &index) != MCP_OK)
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no trade '%s'", __func__, id);
  for (size_t k = 0; k < mcp_results_sensitivities(r, index); k++)
    if (strcmp(r->sens[index].s[k].name, name) == 0)
      return mcp_results_sensitivity(r, index, k, out);
  /* a pair's Greek by its underlyings the other way round */
  for (size_t k = 0; k < mcp_results_sensitivities(r, index); k++) {
    const mcpi_sens *x = &r->sens[index].s[k];
    char swapped[2 * MCPI_MAX_ID_BYTES + 32];
    if (x->u2 && !x->label &&
        (size_t)snprintf(swapped, sizeof swapped, "%s:%s:%s", mcp_greek_name(x->greek), x->u2,
                         x->u1) < sizeof swapped &&
        strcmp(swapped, name) == 0)
      return mcp_results_sensitivity(r, index, k, out);
  }
  return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no sensitivity '%s' of %s", __func__, name,
                    id ? id : "the book");
}

size_t mcp_results_count(const mcp_results *r) { return r ? r->n : 0; }

const char *mcp_results_trade_id(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->id[i] : NULL;
}

mcp_status mcp_results_trade(const mcp_results *r, size_t i, mcp_estimate *e)
{
  if (!r || !e)
    return mcpi_null(__func__, "results or estimate");
  if (i >= r->n)
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no trade %zu (%zu)", __func__, i, r->n);
  *e = r->est[i];
  return MCP_OK;
}

size_t mcp_results_redemptions(const mcp_results *r, size_t i)
{
  return r && r->red_off && i < r->n ? r->red_off[i + 1] - r->red_off[i] : 0;
}

mcp_status mcp_results_redemption(const mcp_results *r, size_t i, size_t k, double *time,
                                  mcp_estimate *probability)
{
  if (!r || !time || !probability)
    return mcpi_null(__func__, "results, time or probability");
  if (k >= mcp_results_redemptions(r, i))
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no redemption %zu of trade %zu", __func__, k, i);
  *time = r->red_time[r->red_off[i] + k];
  *probability = r->red[r->red_off[i] + k];
  return MCP_OK;
}

size_t mcp_results_exercise_boundaries(const mcp_results *r, size_t i)
{
  return r && r->bnd.off && i < r->n ? r->bnd.off[i + 1] - r->bnd.off[i] : 0;
}

mcp_status mcp_results_exercise_boundary(const mcp_results *r, size_t i, size_t k, double *time,
                                         double *spot)
{
  if (!r || !time || !spot)
    return mcpi_null(__func__, "results, time or spot");
  if (k >= mcp_results_exercise_boundaries(r, i))
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no boundary point %zu of trade %zu", __func__, k,
                      i);
  *time = r->bnd.time[r->bnd.off[i] + k];
  *spot = r->bnd.spot[r->bnd.off[i] + k];
  return MCP_OK;
}

mcp_status mcp_results_grid_move(const mcp_results *r, size_t i, mcp_estimate *e)
{
  if (!r || !e)
    return mcpi_null(__func__, "results or estimate");
  if (i >= r->n || !r->grid_on || !r->grid_on[i])
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: trade %zu has no grid check", __func__, i);
  *e = r->grid[i];
  return MCP_OK;
}

mcp_status mcp_results_find(const mcp_results *r, const char *id, size_t *index)
{
  if (!r || !id || !index)
    return mcpi_null(__func__, "results, id or index");
  for (size_t i = 0; i < r->n; i++)
    if (strcmp(r->id[i], id) == 0) {
      *index = i;
      return MCP_OK;
    }
  return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no trade '%s'", __func__, id);
}

double mcp_results_quantity(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->quantity[i] : 0.0;
}

mcp_engine mcp_results_engine(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->engine[i] : MCP_ENGINE_DEFAULT;
}

/* By bit: a name for files and a sentence for reports. */
static const char *const warning_names[MCP_WARNING_COUNT] = {"constant", "martingale",
                                                             "exercise", "grid", "buckets"};
static const char *const warning_texts[MCP_WARNING_COUNT] = {
    "every path gave the same value, so its standard error of 0 bounds nothing: the paths "
    "never reach the payoff's range, or the model's parameters make them degenerate",
    "its paths' underlying misses its forward by more than 5 standard errors: the "
    "simulation is biased (extreme model parameters, or too few steps), and so may the "
    "price be",
    "its Longstaff-Schwartz price fell below its European's on the same paths (its fitted "
    "early exercises lost: too few regression paths for its basis, or early exercise that "
    "never pays, as a max-call without dividends); the European's, a lower bound, is "
    "reported with its Greeks",
    "the time grid is too coarse for the model's scheme (raise steps_per_year): on the same "
    "paths, a grid of half the steps moves its price by more than its standard error, or, "
    "every step ending on one of its dates and some longer than a day, no coarser grid "
    "could check it",
    "buckets, correlations or dividend sensitivities were asked and it has none: its payoff, "
    "model or precision has no adjoint here, so its Greeks are the unbucketed ones"};

static int warning_bit(mcp_warning w)
{
  for (int b = 0; b < MCP_WARNING_COUNT; b++)
    if ((unsigned)w == 1u << b)
      return b;
  return -1;
}

const char *mcp_warning_name(mcp_warning w)
{
  int b = warning_bit(w);
  return b < 0 ? "unknown" : warning_names[b];
}

const char *mcp_warning_text(mcp_warning w)
{
  int b = warning_bit(w);
  return b < 0 ? "unknown" : warning_texts[b];
}

unsigned mcp_results_warnings(const mcp_results *r, size_t i)
{
  return r && i < r->n ? r->warn[i] : 0;
}

mcp_status mcp_results_total(const mcp_results *r, mcp_estimate *e)
{
  if (!r || !e)
    return mcpi_null(__func__, "results or estimate");
  *e = r->total;
  return MCP_OK;
}

uint64_t mcp_results_paths(const mcp_results *r) { return r ? r->paths : 0; }
uint64_t mcp_results_seed(const mcp_results *r) { return r ? r->seed : 0; }
mcp_backend mcp_results_backend(const mcp_results *r) { return r ? r->backend : MCP_BACKEND_AUTO; }
double mcp_results_seconds(const mcp_results *r) { return r ? r->seconds : 0.0; }
