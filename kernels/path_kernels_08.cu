// path_kernels_08.cu: unit 8 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 8
#include "kernels/path_kernels_unit.cuh"
