/* himalaya.c: the Himalaya option, notional x (A - K)+ or (K - A)+, A the
 * mean of the performances recorded at the fixings, each of the best asset
 * still in the basket, which then leaves it (models/products/private.h). */
#include <math.h>
#include "src/products/units.h"

static const char *const fields[] = {"assets", "fixings", "notional", "initial_fixings",
                                     "past_fixings", NULL};

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  mcp_status st = mcpi_read_notional(d, path, t, tr);
  return st ? st : mcpi_read_initial_fixings(d, path, t, tr, MCPI_OPTIONAL);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_array_terms(t, err);
  if (st == MCP_OK && t->nfixings != t->nassets)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected %zu, one for each asset, got %zu",
              t->id, t->nassets, t->nfixings);
  return st ? st : mcpi_check_seasoned_start(t, err);
}

/* A seasoned one (or one struck before today): the assets its past
 * fixings took out, as the path does
 * (mcpi_himalaya_fix: the best performance from the initial fixings, the
 * first of equals, swapped out of the list), and the sum they recorded;
 * every fixing past, its amount is known. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  size_t n = t->nassets, past = mcpi_past_fixings(t->nfixings, t->fixings);
  if (!t->initial_fixings)
    return 1;
  if (!mcpi_keep_seed(c, t))
    return 0;
  double *a = c->seed, sum = 0;
  for (size_t i = 0; i < n; i++)
    a[n + i] = (double)i;
  for (size_t k = 0; k < past; k++) {
    size_t left = n - k, at = 0;
    double best = -INFINITY;
    for (size_t q = 0; q < left; q++) {
      size_t i = (size_t)a[n + q];
      double v = t->past_fixings[k * n + i] / t->initial_fixings[i];
      if (v > best) {
        best = v;
        at = q;
      }
    }
    sum += best;
    a[n + at] = a[n + left - 1];
  }
  a[2 * n] = sum;
  a[2 * n + 1] = (double)past;
  if (past == n) {
    c->known = 1;
    c->known_amount = t->notional * mcpi_vanilla(t->type, sum / (double)n, t->strike);
  }
  return 1;
}

const mcpi_product_unit mcpi_himalaya_unit = {
    .name = "himalaya", .traits = MCPI_PT_ASSETS | MCPI_PT_ONE_ASSET | MCPI_PT_SCHEDULE |
              MCPI_PT_DATED_TERMS,
    .fields = fields, .read = read, .check = check, .keep = keep, .spec = mcpi_array_spec};
