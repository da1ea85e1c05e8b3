// path_kernels_02.cu: unit 2 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 2
#include "kernels/path_kernels_unit.cuh"
