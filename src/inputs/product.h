/* product.h: a product on the host, as its unit (src/products/, one file a
 * family) describes it: its name, traits and fields, and the operations the
 * layers call on its trades.  The units sit above the planner, whose payoff
 * specs they fill; the layers below reach them through mcpi_product_unit
 * alone (src/products/products.c holds the table).  Adding a product:
 * doc/adding-a-product.md. */
#ifndef MCP_PRODUCT_H
#define MCP_PRODUCT_H

#include <jansson.h>
#include <stddef.h>
#include <string.h>
#include "models/products/payoff.h"
#include "mcprice.h"

struct mcpi_json_doc;
struct mcpi_json_path;
struct mcpi_trade_in;
struct mcpi_trade;
struct mcpi_job;

/* What the common code asks of a product instead of its name. */
enum {
  MCPI_PT_ASSETS = 1,         /* named by a list of assets, never an underlying */
  MCPI_PT_ASSETS_OR_ONE = 2,  /* by its underlying or a list of assets */
  MCPI_PT_SCHEDULE = 4,       /* reads its fixings */
  MCPI_PT_WATCHED = 8,        /* reads its fixings unless watched on the bridge */
  MCPI_PT_NO_TYPE = 16,       /* neither a call nor a put */
  MCPI_PT_OWN_STRIKE = 32,    /* the common reader reads no strike: the unit its own, if any */
  MCPI_PT_FLOATING = 64,      /* may have a floating strike */
  MCPI_PT_PDE = 128,          /* the finite-difference grid prices it too */
  MCPI_PT_PATHWISE = 256,      /* greeks.h differentiates its payoff along the path (without
                                 it: likelihood ratios, bumps or revaluations, as for a
                                 payoff that jumps) */
  MCPI_PT_ONE_ASSET = 512,     /* its list of assets may hold one */
  MCPI_PT_DATED_TERMS = 1024   /* its unit's check reads the fixings: after the schedule's */
};

typedef struct mcpi_product_unit {
  const char *name;          /* in the input files, messages and mcp_product_name */
  unsigned traits;           /* MCPI_PT_* */
  const char *const *fields; /* the trade object's fields beyond the common ones, NULL-ended
                                (read_trade.c lists every field, in the messages' order) */
  /* Reads those fields into tr, after the common ones and the fixings (its
   * defaults are mcp_trade_init's); NULL when the common reading is all. */
  mcp_status (*read)(const struct mcpi_json_doc *d, const struct mcpi_json_path *path,
                     json_t *t, struct mcpi_trade_in *tr);
  /* Checks the product's own terms of t (mcp_portfolio_add_trade), the
   * message into err (MCPI_ERRLEN), after the common terms and before the
   * schedule (after it with MCPI_PT_DATED_TERMS); NULL: none. */
  mcp_status (*check)(const mcp_trade *t, char *err);
  /* Keeps the product's own arrays of t in c (NULL: none); 0 when out of
   * memory. */
  int (*keep)(struct mcpi_trade *c, const mcp_trade *t);
  /* Sets the product's own terms of the payoff spec s of t, trade i of job
   * j, whose common terms are set (specs.c); may append columns to j (an
   * autocallable's redemption dates).  NULL: none. */
  void (*spec)(struct mcpi_job *j, const struct mcpi_trade *t, mcpi_payoff_spec *s);
  /* Result columns of t besides its price: an autocallable's redemption
   * probabilities, one an observation date.  NULL: none. */
  size_t (*dates)(const struct mcpi_trade *t);
} mcpi_product_unit;

/* The unit of product, or NULL for none. */
const mcpi_product_unit *mcpi_product_unit_of(mcp_product product);

/* Whether u has the trade field key among its own. */
static inline int mcpi_unit_has_field(const mcpi_product_unit *u, const char *key)
{
  for (const char *const *f = u->fields; f && *f; f++)
    if (strcmp(*f, key) == 0)
      return 1;
  return 0;
}

/* Result columns of trade t, of product, besides its price (its unit's
 * dates). */
static inline size_t mcpi_trade_dates(mcp_product product, const struct mcpi_trade *t)
{
  const mcpi_product_unit *u = mcpi_product_unit_of(product);
  return u->dates ? u->dates(t) : 0;
}

/* Whether product has all of the traits. */
static inline int mcpi_product_is(mcp_product product, unsigned traits)
{
  const mcpi_product_unit *u = mcpi_product_unit_of(product);
  return u && (u->traits & traits) == traits;
}

#endif
