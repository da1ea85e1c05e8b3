// path_kernels_03.cu: unit 3 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 3
#include "kernels/path_kernels_unit.cuh"
