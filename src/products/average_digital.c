/* average_digital.c: the digital on the average: cash, or the average A
 * itself (asset-or-nothing), when the average of the fixings, arithmetic or
 * geometric, ends in the money (A > K for a call, A < K for a put).  The
 * Asian's average and the digital's pay-out, combined. */
#include "src/products/units.h"

static const char *const fields[] = {"average", "fixings", "digital", "cash", NULL};

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  mcp_status st = mcpi_read_average(d, path, t, tr);
  return st ? st : mcpi_read_digital(d, path, t, tr);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_average(t, err);
  return st ? st : mcpi_check_digital(t, err);
}

static void spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  mcpi_average_spec(j, t, s);
  mcpi_digital_spec(j, t, s);
}

const mcpi_product_unit mcpi_average_digital_unit = {
    .name = "average-digital", .traits = MCPI_PT_SCHEDULE,
    .fields = fields, .read = read, .check = check, .spec = spec};
