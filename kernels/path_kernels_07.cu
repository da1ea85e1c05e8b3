// path_kernels_07.cu: unit 7 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 7
#include "kernels/path_kernels_unit.cuh"
