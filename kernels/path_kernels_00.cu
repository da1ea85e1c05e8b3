// path_kernels_00.cu: unit 0 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 0
#include "kernels/path_kernels_unit.cuh"
