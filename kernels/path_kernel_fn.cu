// path_kernel_fn.cu: the path kernels in float, several assets.
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_fn, float, 1)
