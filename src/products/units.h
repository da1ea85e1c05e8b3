/* units.h: what the product units (src/inputs/product.h, one a file of
 * this folder, the table in products.c) share. */
#ifndef MCP_UNITS_H
#define MCP_UNITS_H

#include "src/base/validate.h"
#include "src/inputs/product.h"
#include "src/io/trade_in.h"
#include "src/plan/plan.h"

#define UNIT_FAIL(st, ...) return mcpi_fail(err, st, __VA_ARGS__)

/* The Asian's average (asian.c) and the digital's pay-out (digital.c):
 * reading, checks and spec. */
mcp_status mcpi_read_average(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             mcpi_trade_in *tr);
mcp_status mcpi_check_average(const mcp_trade *t, char *err);
void mcpi_average_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s);
mcp_status mcpi_read_digital(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             mcpi_trade_in *tr);
mcp_status mcpi_check_digital(const mcp_trade *t, char *err);
void mcpi_digital_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s);

/* A barrier's kind, level and rebate (a barrier option's, a moving
 * window's), required when need. */
mcp_status mcpi_read_knock(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                           mcpi_trade_in *tr, int need);
/* A rebate: a finite amount >= 0. */
mcp_status mcpi_check_rebate(const mcp_trade *t, char *err);
/* The terms of a product with no control variate (Longstaff-Schwartz's and
 * those with per-path arrays). */
mcp_status mcpi_check_no_control(const mcp_trade *t, char *err);
/* The notional of a product with a per-path array: a finite amount. */
mcp_status mcpi_read_notional(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                              mcpi_trade_in *tr);
/* The initial fixings (the spots of the strike date): a spot, or an array
 * of one an asset; required or MCPI_OPTIONAL. */
mcp_status mcpi_read_initial_fixings(const mcpi_json_doc *d, const mcpi_json_path *path,
                                     json_t *t, mcpi_trade_in *tr, int required);
/* A seasoned cliquet's or Himalaya's start: initial fixings where a fixing
 * has passed (given before one has, it started before the valuation date),
 * each a spot > 0. */
mcp_status mcpi_check_seasoned_start(const mcp_trade *t, char *err);
/* c (a seasoned t) gets its array at 0, zeros, for its unit to fill
 * (c->seed), its fixings in all and its initial fixings (where it has
 * them); 0 when out of memory. */
int mcpi_keep_seed(mcpi_trade *c, const mcp_trade *t);
/* Its past fixings replayed on the host by the path's own functions
 * (private.h), so that its array at 0 is the one its paths would have
 * reached: c's spec p at offset 0 (a Himalaya's performances from its
 * initial fixings) and c's array (after mcpi_keep_seed); where its amount
 * is known, the path's payoff of that array (mcpi_replay_known). */
mcpi_parr mcpi_replay(const mcpi_trade *c, mcpi_payoff_spec *p);
void mcpi_replay_known(mcpi_trade *c, const mcpi_parr *a, const mcpi_payoff_spec *p);
/* Its terms: no control variate, the notional. */
mcp_status mcpi_check_array_terms(const mcp_trade *t, char *err);
/* The spec of a product with a per-path array: its part of the path's array
 * (models/products/private.h) and its terms. */
void mcpi_array_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s);

#endif
