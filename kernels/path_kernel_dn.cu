// path_kernel_dn.cu: the path kernels in double, several assets.
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_dn, double, 1)
