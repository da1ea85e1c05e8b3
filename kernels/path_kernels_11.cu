// path_kernels_11.cu: unit 11 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 11
#include "kernels/path_kernels_unit.cuh"
