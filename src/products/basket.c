/* basket.c: the options on several assets' terminal spots: the basket sum
 * w_i S_i(T), the best max_i S_i(T), the worst min_i S_i(T). */
#include "src/products/units.h"

static const char *const basket_fields[] = {"assets", "weights", NULL};
static const char *const fields[] = {"assets", NULL};

const mcpi_product_unit mcpi_basket_unit = {.name = "basket", .traits = MCPI_PT_ASSETS,
                                            .fields = basket_fields};
const mcpi_product_unit mcpi_best_of_unit = {.name = "best-of", .traits = MCPI_PT_ASSETS,
                                             .fields = fields};
const mcpi_product_unit mcpi_worst_of_unit = {.name = "worst-of", .traits = MCPI_PT_ASSETS,
                                              .fields = fields};
