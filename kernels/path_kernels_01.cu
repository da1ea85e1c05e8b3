// path_kernels_01.cu: unit 1 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 1
#include "kernels/path_kernels_unit.cuh"
