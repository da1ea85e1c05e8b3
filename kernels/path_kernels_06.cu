// path_kernels_06.cu: unit 6 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 6
#include "kernels/path_kernels_unit.cuh"
