/* load_scenarios.c: reading a scenario file (doc/input-schema.md), a grid
 *   {"spot": {"kind": "relative", "shifts": [-0.1, 0, 0.1]},
 *    "volatility": {...}, "rate": {...}}
 * each axis optional; kind defaults to relative, absolute for the rate; or
 * a set
 *   {"kinds": {"volatility": "absolute"},
 *    "scenarios": [{"name": "2020-03-16",
 *                   "shifts": {"ACME": {"spot": -0.12, "volatility": 0.08}}}]}
 * kinds optional, as the grid's. */
#include <stdlib.h>
#include "src/io/load_json.h"
#include "src/inputs/scenario.h"
#include "src/base/validate.h"

static const char *const top_keys[] = {"spot", "volatility", "rate", "kinds", "scenarios"};
static const char *const scenario_keys[] = {"name", "shifts"};
static const char *const axis_keys[] = {"kind", "shifts"};
static const mcpi_json_choice kinds[] = {
    {"relative", MCP_SHIFT_RELATIVE}, {"absolute", MCP_SHIFT_ABSOLUTE}, {NULL, 0}};

static mcp_status read_axis(const mcpi_json_doc *d, mcp_scenarios *s, int axis)
{
  const mcpi_json_path path = {NULL, top_keys[axis], 0}, list_path = {&path, "shifts", 0};
  json_t *obj, *list;
  int kind = axis == MCP_SHIFT_RATE ? MCP_SHIFT_ABSOLUTE : MCP_SHIFT_RELATIVE;
  double *x = NULL;
  size_t n = 0;
  mcp_status st = mcpi_json_member(d, NULL, d->root, top_keys[axis], MCPI_OPTIONAL,
                                   "an object {kind, shifts}", &obj);
  if (st != MCP_OK || !obj)
    return st;
  if ((st = mcpi_json_object(d, &path, obj, "an object {kind, shifts}", axis_keys,
                             MCPI_COUNT(axis_keys))) ||
      (st = mcpi_json_enum(d, &path, obj, "kind", MCPI_OPTIONAL, kinds, &kind)) ||
      (st = mcpi_json_array(d, &path, obj, "shifts", MCPI_REQUIRED, 1,
                            "a non-empty array of shifts", &list)) ||
      (st = mcpi_json_numbers(d, &list_path, list, "a shift", &x, &n)))
    return st;
  if ((st = mcp_scenarios_set(s, (mcp_shift_axis)axis, (mcp_shift_kind)kind, n, x)))
    st = mcpi_json_fail(d, &list_path, 0, MCP_ERR_INPUT, "%s", mcp_scenarios_last_error(s));
  free(x);
  return st;
}

/* Scenario k of the set, at path. */
static mcp_status read_scenario(const mcpi_json_doc *d, mcp_scenarios *s,
                                const mcpi_json_path *path, json_t *obj)
{
  const mcpi_json_path shifts_path = {path, "shifts", 0};
  const char *name;
  json_t *shifts;
  size_t index;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, obj, "an object {name, shifts}", scenario_keys,
                             MCPI_COUNT(scenario_keys))) ||
      (st = mcpi_json_string(d, path, obj, "name", MCPI_REQUIRED, mcpi_check_name, &name)) ||
      (st = mcpi_json_member(d, path, obj, "shifts", MCPI_REQUIRED,
                             "an object of underlyings' shifts", &shifts)))
    return st;
  if (!json_is_object(shifts))
    return mcpi_json_expected(d, &shifts_path, "an object of underlyings' shifts");
  if (mcp_scenarios_add(s, name, &index))
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "%s", mcp_scenarios_last_error(s));
  const char *und;
  json_t *axes;
  json_object_foreach(shifts, und, axes) {
    const mcpi_json_path und_path = {&shifts_path, und, 0};
    if ((st = mcpi_json_object(d, &und_path, axes, "an object {spot, volatility, rate}",
                               top_keys, MCPI_NAXES)))
      return st;
    for (int a = 0; a < MCPI_NAXES; a++) {
      const mcpi_json_path axis_path = {&und_path, top_keys[a], 0};
      double x;
      if (!json_object_get(axes, top_keys[a]))
        continue;
      if ((st = mcpi_json_number(d, &und_path, axes, top_keys[a], MCPI_REQUIRED, mcpi_check_finite,
                                 &x)))
        return st;
      if (mcp_scenarios_shift(s, index, und, (mcp_shift_axis)a, x))
        return mcpi_json_fail(d, &axis_path, 0, MCP_ERR_INPUT, "%s", mcp_scenarios_last_error(s));
    }
  }
  return MCP_OK;
}

/* A set: its kinds, then its scenarios. */
static mcp_status read_set(const mcpi_json_doc *d, mcp_scenarios *s, json_t *list)
{
  const mcpi_json_path kinds_path = {NULL, "kinds", 0}, list_path = {NULL, "scenarios", 0};
  json_t *kobj;
  mcp_status st = mcpi_json_member(d, NULL, d->root, "kinds", MCPI_OPTIONAL,
                                   "an object {spot, volatility, rate} of kinds", &kobj);
  if (st == MCP_OK && kobj)
    st = mcpi_json_object(d, &kinds_path, kobj, "an object {spot, volatility, rate} of kinds",
                          top_keys, MCPI_NAXES);
  for (int a = 0; st == MCP_OK && kobj && a < MCPI_NAXES; a++) {
    int kind = s->kind[a];
    if ((st = mcpi_json_enum(d, &kinds_path, kobj, top_keys[a], MCPI_OPTIONAL, kinds, &kind)) ==
        MCP_OK)
      st = mcp_scenarios_set_kind(s, (mcp_shift_axis)a, (mcp_shift_kind)kind);
  }
  if (st == MCP_OK && (!json_is_array(list) || json_array_size(list) == 0))
    return mcpi_json_expected(d, &list_path, "a non-empty array of scenarios");
  for (size_t k = 0; st == MCP_OK && k < json_array_size(list); k++) {
    const mcpi_json_path path = {&list_path, NULL, k};
    st = read_scenario(d, s, &path, json_array_get(list, k));
  }
  return st;
}

static mcp_status fill_scenarios(const mcpi_json_doc *d, void *target)
{
  mcp_status st = mcpi_json_object(d, NULL, d->root, "an object of scenario axes or a set",
                                   top_keys, MCPI_COUNT(top_keys));
  if (st != MCP_OK)
    return st;
  json_t *list = json_object_get(d->root, "scenarios");
  for (int a = 0; list && a < MCPI_NAXES; a++)
    if (json_object_get(d->root, top_keys[a])) {
      const mcpi_json_path path = {NULL, top_keys[a], 0};
      return mcpi_json_fail(d, &path, 1, MCP_ERR_INPUT,
                            "expected a grid's axes or a set's scenarios, not both");
    }
  if (list)
    return read_set(d, target, list);
  if (json_object_get(d->root, "kinds")) {
    const mcpi_json_path path = {NULL, "kinds", 0};
    return mcpi_json_fail(d, &path, 1, MCP_ERR_INPUT,
                          "expected kinds with a set's scenarios; a grid gives each axis its kind");
  }
  for (int a = 0; st == MCP_OK && a < MCPI_NAXES; a++)
    st = read_axis(d, target, a);
  return st;
}

static mcp_status load(const char *fn, mcp_scenarios **s, const char *path, const char *text,
                       size_t len, char *err, size_t errlen)
{
  if (!s)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: scenarios is NULL", fn);
  mcp_status st = mcp_scenarios_create(s);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_last_error());
  else if ((st = mcpi_json_load(path, text, len, err, errlen, fill_scenarios, *s)) != MCP_OK) {
    mcp_scenarios_destroy(*s);
    *s = NULL;
  }
  return st;
}

mcp_status mcp_scenarios_load(mcp_scenarios **s, const char *path, char *err, size_t errlen)
{
  return load(__func__, s, path, NULL, 0, err, errlen);
}

mcp_status mcp_scenarios_load_text(mcp_scenarios **s, const char *name, const char *text, size_t len,
                            char *err, size_t errlen)
{
  return load(__func__, s, name, text ? text : "", text ? len : 0, err, errlen);
}
