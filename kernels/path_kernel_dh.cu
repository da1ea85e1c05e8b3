// path_kernel_dh.cu: the path kernels in double, several Heston assets.
#include "kernels/path_kernel.cuh"

MCPI_MHESTON_TABLE(mcpi_path_kernels_dh, double, 4)
