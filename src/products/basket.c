/* basket.c: the options on several assets' terminal spots: the basket sum
 * w_i S_i(T), the best max_i S_i(T), the worst min_i S_i(T). */
#include "src/products/units.h"

static const char *const basket_fields[] = {"assets", "weights", NULL};
static const char *const fields[] = {"assets", NULL};

#define TRAITS (MCPI_PT_ASSETS | MCPI_PT_PATHWISE)
const mcpi_product_unit mcpi_basket_unit = {.name = "basket", .traits = TRAITS,
                                            .fields = basket_fields};
const mcpi_product_unit mcpi_best_of_unit = {.name = "best-of", .traits = TRAITS,
                                             .fields = fields};
const mcpi_product_unit mcpi_worst_of_unit = {.name = "worst-of", .traits = TRAITS,
                                              .fields = fields};
