// path_kernel_d1s.cu: the path kernels in double, one asset, the job-shaped state (path.h's
// MCPI_SMALL_SCHEDULES and MCPI_SMALL_MONITORS).
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_d1s, double, 2)
