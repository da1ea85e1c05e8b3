// path_kernel_d1p.cu: the path kernels in double, one asset, the plain shape (path.h's
// MCPI_PLAIN_SCHEDULES schedules, no monitor, sums alone): fused, and stored without prefetching.
#include "kernels/path_kernel.cuh"

MCPI_PLAIN_TABLE(mcpi_path_kernels_d1p, double, 3)
