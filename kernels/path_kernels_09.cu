// path_kernels_09.cu: unit 9 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 9
#include "kernels/path_kernels_unit.cuh"
