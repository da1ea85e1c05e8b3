// path_kernels_unit.cuh: translation unit MCPI_TU of the path kernels'
// catalogue (catalogue.def): mcpi_path_kernels_<MCPI_TU>(i), the kernel of
// catalogue entry i where this unit builds it, else NULL (path_kernel.cu
// asks each entry's own unit).  Each kernels/path_kernels_NN.cu is one.
#include "kernels/path_kernel.cuh"

#define MCPI_UNIT_NAME2(tu) mcpi_path_kernels_##tu
#define MCPI_UNIT_NAME(tu) MCPI_UNIT_NAME2(tu)

extern "C" const void *MCPI_UNIT_NAME(MCPI_TU)(size_t i)
{
  static const void *const table[] = {
#define MCPI_KERNEL(tu, prec, state, s, d, place, cap, fused)                                 \
  built_here<(tu) == MCPI_TU, prec, state, s, d, place, cap, fused>(),
#define MCPI_TUNED_KERNEL(tu, prec, state, s, d)                                               \
  built_here<(tu) == MCPI_TU && MCPI_TUNING_KERNELS, prec, state, s, d, 0, 0, 0>(),
#include "kernels/catalogue.def"
  };
  return table[i];
}
