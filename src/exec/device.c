/* device.c: which CUDA devices are present. */
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "mcprice.h"
#include "src/base/error.h"
#ifdef MCP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

int mcp_cuda_built(void)
{
#ifdef MCP_HAVE_CUDA
  return 1;
#else
  return 0;
#endif
}

int mcp_device_count(void)
{
#ifdef MCP_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* no driver or no device: clear the sticky error */
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

mcp_status mcp_device_get_info(int device, mcp_device_info *info)
{
  if (!info)
    return mcpi_null(__func__, "info");
  if (device < 0 || device >= mcp_device_count())
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no device %d (%d found)", __func__, device,
                      mcp_device_count());
#ifdef MCP_HAVE_CUDA
  struct cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess)
    return mcpi_error(MCP_ERR_DEVICE, "%s: device %d: %s", __func__, device,
                      cudaGetErrorString(e));
  memset(info, 0, sizeof *info);
  snprintf(info->name, sizeof info->name, "%s", p.name);
  info->compute_major = p.major;
  info->compute_minor = p.minor;
  info->multiprocessors = p.multiProcessorCount;
  info->global_memory = p.totalGlobalMem;
  return MCP_OK;
#else
  return mcpi_error(MCP_ERR_UNAVAILABLE, "%s: built without CUDA", __func__);
#endif
}
