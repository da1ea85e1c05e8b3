// path_kernel_d1.cu: the path kernels in double, one asset.
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_d1, double, 0)
