/* load_scenarios.c: reading a scenario file (doc/input-schema.md):
 *   {"spot": {"kind": "relative", "shifts": [-0.1, 0, 0.1]},
 *    "volatility": {...}, "rate": {...}}
 * each axis optional; kind defaults to relative, absolute for the rate. */
#include <stdlib.h>
#include "src/io/load_json.h"
#include "src/inputs/scenario.h"

static const char *const top_keys[] = {"spot", "volatility", "rate"};
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

static mcp_status fill_scenarios(const mcpi_json_doc *d, void *target)
{
  mcp_status st = mcpi_json_object(d, NULL, d->root, "an object of scenario axes", top_keys,
                                   MCPI_COUNT(top_keys));
  for (int a = 0; st == MCP_OK && a < MCPI_NAXES; a++)
    st = read_axis(d, target, a);
  return st;
}

static mcp_status load(mcp_scenarios **s, const char *path, const char *text, size_t len,
                       char *err, size_t errlen)
{
  if (!s)
    return MCP_ERR_ARGUMENT;
  mcp_status st = mcp_scenarios_create(s);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_strerror(st));
  else if ((st = mcpi_json_load(path, text, len, err, errlen, fill_scenarios, *s)) != MCP_OK) {
    mcp_scenarios_destroy(*s);
    *s = NULL;
  }
  return st;
}

mcp_status mcp_scenarios_load(mcp_scenarios **s, const char *path, char *err, size_t errlen)
{
  return load(s, path, NULL, 0, err, errlen);
}

mcp_status mcp_scenarios_load_text(mcp_scenarios **s, const char *name, const char *text, size_t len,
                            char *err, size_t errlen)
{
  return load(s, name, text ? text : "", text ? len : 0, err, errlen);
}
