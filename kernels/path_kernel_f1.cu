// path_kernel_f1.cu: the path kernels in float, one asset.
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_f1, float, 0)
