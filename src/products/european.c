/* european.c: the European option, (S_T - K)+ or (K - S_T)+: the common
 * terms are all it has. */
#include "src/products/units.h"

const mcpi_product_unit mcpi_european_unit = {.name = "european",
                                              .traits = MCPI_PT_PDE | MCPI_PT_PATHWISE};
