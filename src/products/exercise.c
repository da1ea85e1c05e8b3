/* exercise.c: the options exercised by their holder, (S - K)+ or (K - S)+
 * (on several assets, of their basket, best or worst) at any time up to
 * maturity (American) or at its exercise dates (Bermudan): on Monte Carlo by
 * Longstaff-Schwartz (models/products/lsm.h), an American on one underlying
 * also on the finite-difference grid. */
#include <math.h>
#include "src/products/units.h"

static const char *const american_fields[] = {"assets", "weights", "payoff", "exercises", NULL};
static const char *const bermudan_fields[] = {"assets", "weights", "payoff", "exercise_dates",
                                              NULL};
static const mcpi_json_choice payoffs[] = {{"basket", MCP_PRODUCT_BASKET},
                                           {"best-of", MCP_PRODUCT_BEST_OF},
                                           {"worst-of", MCP_PRODUCT_WORST_OF},
                                           {NULL, 0}};

static const char *check_exercises(uint64_t n)
{
  return n >= 1 && n <= 10000 ? NULL : "an integer from 1 to 10000";
}

/* What is exercised, on several assets. */
static mcp_status read_payoff(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                              mcpi_trade_in *tr)
{
  mcp_status st;
  if (!tr->nassets && json_object_get(t, "weights"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "weights", 0},
                              "no weights on one underlying (they are for assets)");
  if (json_object_get(t, "payoff") && !tr->nassets)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "payoff", 0},
                              "no payoff on one underlying (it is for assets)");
  if ((st = mcpi_json_enum(d, path, t, "payoff", MCPI_OPTIONAL, payoffs, &tr->payoff)))
    return st;
  if (tr->has_weights && tr->payoff != MCP_PRODUCT_BASKET)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "weights", 0},
                              "no weights, as the payoff is not a basket");
  return MCP_OK;
}

static mcp_status read_american(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                                mcpi_trade_in *tr)
{
  mcp_status st = mcpi_json_uint(d, path, t, "exercises", MCPI_OPTIONAL, check_exercises,
                                 &tr->exercises);
  return st ? st : read_payoff(d, path, t, tr);
}

/* The terms both share: the payoff, the engine, the methods. */
static mcp_status check_exercised(const mcp_trade *t, char *err)
{
  int multi = t->nassets || t->assets;
  if (t->payoff != 0 && t->payoff != MCP_PRODUCT_BASKET &&
      (!multi || (t->payoff != MCP_PRODUCT_BEST_OF && t->payoff != MCP_PRODUCT_WORST_OF)))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': payoff: expected %s", t->id,
              multi ? "basket, best-of or worst-of"
                    : "the default (basket): only an American or a Bermudan on several "
                      "assets has one");
  if (t->weights && t->payoff != 0 && t->payoff != MCP_PRODUCT_BASKET)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': weights: only a basket has weights", t->id);
  if (multi && t->engine == MCP_ENGINE_PDE)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': method: the grid prices one underlying; expected mc "
              "for an option on several assets", t->id);
  return mcpi_check_no_control(t, err);
}

/* The exercise dates, if given (the schedule's checks follow): distinct. */
static mcp_status check_dates(const mcp_trade *t, char *err)
{
  for (size_t k = 1; t->fixings && k < t->nfixings; k++)
    if (t->fixings[k] - t->fixings[k - 1] <= MCPI_TIME_EPS)
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': exercise dates (fixings)[%zu]: expected a time "
                "more than %g years after the one before, got %.17g after %.17g", t->id, k,
                MCPI_TIME_EPS, t->fixings[k], t->fixings[k - 1]);
  return MCP_OK;
}

static mcp_status check_american(const mcp_trade *t, char *err)
{
  if (t->exercises > 10000)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': exercises: expected 1 to 10000 dates (0: the "
              "default), got %zu", t->id, t->exercises);
  size_t n = t->exercises ? t->exercises : MCP_DEFAULT_EXERCISES;
  if (isfinite(t->maturity) && t->maturity / (double)n <= 16 * MCPI_TIME_EPS)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': exercises: expected dates more than %g years "
              "apart, got %zu over %g years", t->id, 16 * MCPI_TIME_EPS, n, t->maturity);
  return check_exercised(t, err);
}

static mcp_status check_bermudan(const mcp_trade *t, char *err)
{
  mcp_status st;
  if ((st = check_dates(t, err)) || (st = check_exercised(t, err)))
    return st;
  if (t->nfixings && t->fixings &&
      fabs(t->fixings[t->nfixings - 1] - t->maturity) > MCPI_TIME_EPS)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': exercise dates (fixings): expected the last at the "
              "maturity, %g, got %g", t->id, t->maturity, t->fixings[t->nfixings - 1]);
  return MCP_OK;
}

static void spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  mcpi_lsm_spec(j, t, s);
}

const mcpi_product_unit mcpi_american_unit = {
    .name = "american", .traits = MCPI_PT_ASSETS_OR_ONE | MCPI_PT_PDE,
    .fields = american_fields, .read = read_american, .check = check_american, .spec = spec};
const mcpi_product_unit mcpi_bermudan_unit = {
    .name = "bermudan", .traits = MCPI_PT_ASSETS_OR_ONE | MCPI_PT_SCHEDULE,
    .fields = bermudan_fields, .read = read_payoff, .check = check_bermudan, .spec = spec};
