// path_kernel.cu: choosing, sizing and launching the path kernels
// (path_kernel.cuh) by precision, strategy, distance and asset count.
#include <pthread.h>
#include <stdint.h>
#include "kernels/catalogue.h"
#include "kernels/launch.h"
#include "models/products/path.h"
#include "models/prefetch.h"

typedef const void *(*kernel_unit)(size_t i);
#define MCPI_UNIT(tu) extern "C" const void *mcpi_path_kernels_##tu(size_t i);
MCPI_UNIT(0) MCPI_UNIT(1) MCPI_UNIT(2) MCPI_UNIT(3) MCPI_UNIT(4) MCPI_UNIT(5)
MCPI_UNIT(6) MCPI_UNIT(7) MCPI_UNIT(8) MCPI_UNIT(9) MCPI_UNIT(10) MCPI_UNIT(11)
static const kernel_unit units[MCPI_KERNEL_TUS] = {
    mcpi_path_kernels_0, mcpi_path_kernels_1, mcpi_path_kernels_2,  mcpi_path_kernels_3,
    mcpi_path_kernels_4, mcpi_path_kernels_5, mcpi_path_kernels_6,  mcpi_path_kernels_7,
    mcpi_path_kernels_8, mcpi_path_kernels_9, mcpi_path_kernels_10, mcpi_path_kernels_11};

// The kernel of the options for a job (mcpi_kernel_key_for), or NULL where
// the build has none (a tuning distance of a default build).
static const void *kernel_for(const mcpi_kernel_options *o, int multi, int arr_len, int gstate)
{
  mcpi_kernel_key key = mcpi_kernel_key_for(o, multi, arr_len, gstate);
  long i = mcpi_kernel_find(&key);
  return i < 0 ? NULL : units[mcpi_kernel_catalogue[i].tu]((size_t)i);
}

extern "C" int mcpi_path_kernel_built(const mcpi_kernel_options *o, int multi, int arr_len)
{
  return kernel_for(o, multi, arr_len, 0) != NULL;
}

extern "C" size_t mcpi_prefetch_smem_bytes(mcp_precision prec, mcp_prefetch s, int d,
                                           int padding, int block)
{
  if (!mcpi_prefetch_uses_smem(s))
    return 0;
  size_t slot = padding == MCP_PADDING_INTERLEAVED ? (size_t)d : (size_t)(d + padding);
  return slot * (size_t)block * (prec == MCP_FLOAT ? sizeof(float) : sizeof(double));
}

extern "C" size_t mcpi_path_smem_bytes(const mcpi_kernel_options *o, int arr_len)
{
  if (arr_len)
    return o->placement == MCP_PLACEMENT_SHARED
               ? (size_t)arr_len * (size_t)o->block * sizeof(double)
               : 0;
  return o->fused ? 0
                  : mcpi_prefetch_smem_bytes(o->precision, o->strategy, o->distance, o->padding,
                                             o->block);
}

static cudaError_t attributes(const void *k, cudaFuncAttributes *attr);

extern "C" cudaError_t mcpi_path_kernel_attributes(const mcpi_kernel_options *o, int multi,
                                                  int arr_len, struct cudaFuncAttributes *attr)
{
  return attributes(kernel_for(o, multi, arr_len, 0), attr);
}

// Kernel k's compiled attributes, asked of the runtime once (20 us a query,
// a job's launch a few): a table by kernel, filled under a lock, as the
// threads of several contexts read it.
static cudaError_t attributes(const void *k, cudaFuncAttributes *attr)
{
  enum { SLOTS = 1024 };
  static struct {
    const void *k;
    cudaFuncAttributes attr;
  } seen[SLOTS];
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  size_t h = ((uintptr_t)k >> 4) % SLOTS;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < SLOTS; i++) {
    size_t s = (h + i) % SLOTS;
    if (seen[s].k == k) {
      *attr = seen[s].attr;
      pthread_mutex_unlock(&lock);
      return cudaSuccess;
    }
    if (!seen[s].k) {
      cudaError_t e = cudaFuncGetAttributes(attr, k);
      if (e == cudaSuccess) {
        seen[s].k = k;
        seen[s].attr = *attr;
      }
      pthread_mutex_unlock(&lock);
      return e;
    }
  }
  pthread_mutex_unlock(&lock);
  return cudaFuncGetAttributes(attr, k);
}

// Blocks of kernel k in a wave (mcpi_path_grid).
static cudaError_t wave(mcpi_kernel_options *o, const void *k, int arr_len, int *grid)
{
  cudaFuncAttributes attr;
  cudaError_t e = attributes(k, &attr);
  if (e != cudaSuccess)
    return e;
  /* the kernel's registers may not allow the block asked for; paths do not
     depend on the block size, so a smaller one is taken */
  if (o->block > attr.maxThreadsPerBlock)
    o->block = attr.maxThreadsPerBlock / 32 * 32;
  size_t smem = mcpi_path_smem_bytes(o, arr_len);
  int dev, sms, per_sm = 0, most = 0;
  e = cudaGetDevice(&dev);
  /* the device's most, not this launch's: contexts on other threads set the
     same kernel's attribute, and none may lower it under another's launch */
  if (e == cudaSuccess && smem > 48 * 1024 &&
      (e = cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) ==
          cudaSuccess)
    e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             most - (int)attr.sharedSizeBytes);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, o->block, smem);
  if (e == cudaSuccess && per_sm == 0)
    e = cudaErrorInvalidConfiguration;
  *grid = per_sm * sms;
  return e;
}

extern "C" cudaError_t mcpi_path_grid(mcpi_kernel_options *o, int multi, int arr_len, int *grid)
{
  return wave(o, kernel_for(o, multi, arr_len, 0), arr_len, grid);
}

extern "C" cudaError_t mcpi_path_grid_greeks(mcpi_kernel_options *o, int *grid)
{
  return wave(o, kernel_for(o, 0, 0, 1), 0, grid);
}

/* A launch's blocks: enough for n paths, at most the wave's grid. */
static unsigned blocks_for(size_t n, const mcpi_kernel_options *o, int grid)
{
  size_t need = (n + o->block - 1) / o->block;
  return (unsigned)(need < (size_t)grid ? need : (size_t)grid);
}

extern "C" cudaError_t mcpi_launch_paths(mcpi_job_view job, const void *z, size_t ld, size_t n,
                                         double *pay, const mcpi_kernel_options *o, int grid,
                                         cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  unsigned g = blocks_for(n, o, grid);
  size_t smem = mcpi_path_smem_bytes(o, job.arr_len);
  int padding = o->padding;
  void *args[] = {&job, const_cast<void **>(&z), &ld, &n, &pay, &padding};
  return cudaLaunchKernel(kernel_for(o, MCPI_ASSETS_KIND(job.nassets, job.model), job.arr_len,
                                     job.gstate),
                          dim3(g), dim3((unsigned)o->block), args, smem, stream);
}

extern "C" cudaError_t mcpi_launch_paths_checked(mcpi_job_view job, mcpi_job_view coarse,
                                                 size_t ld, size_t n, double *pay, double *pay_c,
                                                 const mcpi_kernel_options *o, int grid,
                                                 cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  unsigned g = blocks_for(n, o, grid);
  void *args[] = {&job, &coarse, &ld, &n, &pay, &pay_c};
  return cudaLaunchKernel(kernel_for(o, 0, 0, 0), dim3(g), dim3((unsigned)o->block), args, 0,
                          stream);
}
