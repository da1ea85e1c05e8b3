// path_kernels_04.cu: unit 4 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 4
#include "kernels/path_kernels_unit.cuh"
