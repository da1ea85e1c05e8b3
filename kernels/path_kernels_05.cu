// path_kernels_05.cu: unit 5 of the path kernels (kernels/catalogue.def).
#define MCPI_TU 5
#include "kernels/path_kernels_unit.cuh"
