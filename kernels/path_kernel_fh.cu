// path_kernel_fh.cu: the path kernels in float, several Heston assets.
#include "kernels/path_kernel.cuh"

MCPI_MHESTON_TABLE(mcpi_path_kernels_fh, float, 4)
