// path_kernels_10.cu: unit 10 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 10
#include "kernels/path_kernels_unit.cuh"
