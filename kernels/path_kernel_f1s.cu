// path_kernel_f1s.cu: the path kernels in float, one asset, the job-shaped state (path.h's
// MCPI_SMALL_SCHEDULES and MCPI_SMALL_MONITORS).
#include "kernels/path_kernel.cuh"

MCPI_PATH_TABLE(mcpi_path_kernels_f1s, float, 2)
