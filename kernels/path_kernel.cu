// path_kernel.cu: the Monte Carlo path kernels, one thread a path, one kernel
// a (precision, prefetch strategy, distance).  Every variant makes the same
// calls of the shared path body (path.h) in the same order, so per-path values
// are identical bit for bit; they differ only in how a step's inputs (the
// path's normal, from the tile in global memory, and the step's coefficients,
// the same for every thread) reach registers.  The shared-memory variants
// stage the normals, which come from DRAM; the coefficients, which every
// thread of the block reads alike, ride in registers on the same schedule.
#include <cuda_pipeline.h>
#include "launch.h"
#include "prefetch.h"

// The path body in precision R, as C++ overloads of the C functions.
__device__ __forceinline__ void body_init(mcpi_path_state *s, const mcpi_job_view *j)
{
  mcpi_path_init(s, j);
}
__device__ __forceinline__ void body_init(mcpi_path_state_f *s, const mcpi_job_view *j)
{
  mcpi_path_init_f(s, j);
}
__device__ __forceinline__ void body_step(mcpi_path_state *s, double z, double d, double v,
                                          uint32_t m)
{
  mcpi_path_step(s, z, d, v, m);
}
__device__ __forceinline__ void body_step(mcpi_path_state_f *s, float z, float d, float v,
                                          uint32_t m)
{
  mcpi_path_step_f(s, z, d, v, m);
}
__device__ __forceinline__ void body_finish(const mcpi_path_state *s, const mcpi_job_view *j,
                                            double *pay, size_t ld)
{
  mcpi_path_finish(s, j, pay, ld);
}
__device__ __forceinline__ void body_finish(const mcpi_path_state_f *s,
                                            const mcpi_job_view *j, double *pay, size_t ld)
{
  mcpi_path_finish_f(s, j, pay, ld);
}

template <typename R> struct real_traits;
template <> struct real_traits<double> {
  typedef mcpi_path_state state;
  static __device__ const double *drift(const mcpi_job_view &j) { return j.drift; }
  static __device__ const double *vol(const mcpi_job_view &j) { return j.vol; }
};
template <> struct real_traits<float> {
  typedef mcpi_path_state_f state;
  static __device__ const float *drift(const mcpi_job_view &j) { return j.drift_f; }
  static __device__ const float *vol(const mcpi_job_view &j) { return j.vol_f; }
};

// A step's coefficients, the same for every thread.
template <typename R> struct coef {
  R drift, vol;
  uint32_t mask;
};

// The streams of one path: its normals z[s ld] and the step coefficients.
template <typename R> struct streams {
  const R *__restrict__ z;
  size_t ld;
  const R *__restrict__ drift, *__restrict__ vol;
  const uint32_t *__restrict__ mask;
  __device__ R normal(int s) const { return z[(size_t)s * ld]; }
  __device__ coef<R> step(int s) const
  {
    return coef<R>{__ldg(drift + s), __ldg(vol + s), __ldg(mask + s)};
  }
  // The inputs of steps b .. b + D - 1 that lie below n, into registers.
  template <int D> __device__ void load(int b, int n, R (&z)[D], coef<R> (&c)[D]) const
  {
#pragma unroll
    for (int u = 0; u < D; u++)
      if (b + u < n) {
        z[u] = normal(b + u);
        c[u] = step(b + u);
      }
  }
};

// Where a thread's slot u of the shared ring lives: base + u * stride, with
// base = tid (PDIST + padding), stride 1 (padded slots), or base = tid,
// stride blockDim (interleaved: no two threads of a warp on one bank).
struct slots {
  unsigned base, stride;
};

// The shared ring's first fill: the normals of steps 0 .. D - 1 into the
// thread's slot, their coefficients into c.
template <typename R, int D>
__device__ __forceinline__ void fill_ring(const streams<R> &in, int n, R *sm, slots q,
                                          coef<R> (&c)[D])
{
  R z[D];
  in.load(0, n, z, c);
#pragma unroll
  for (int u = 0; u < D; u++)
    if (u < n)
      sm[q.base + u * q.stride] = z[u];
}

template <typename R, int S, int D> struct strategy;

template <typename R, int D> struct strategy<R, MCP_PREFETCH_NONE, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *, slots)
  {
    for (int s = 0; s < n; s++) {
      coef<R> c = in.step(s);
      body_step(&st, in.normal(s), c.drift, c.vol, c.mask);
    }
  }
};

template <typename R, int D> struct strategy<R, MCP_PREFETCH_UNROLL, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *, slots)
  {
#pragma unroll D
    for (int s = 0; s < n; s++) {
      coef<R> c = in.step(s);
      body_step(&st, in.normal(s), c.drift, c.vol, c.mask);
    }
  }
};

// Every D steps, the next D steps' inputs are loaded into registers while the
// current D are computed.
template <typename R, int D> struct strategy<R, MCP_PREFETCH_SCALAR_BATCH, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *, slots)
  {
    R z[D], zn[D];
    coef<R> c[D], cn[D];
    in.load(0, n, z, c);
    for (int b = 0; b < n; b += D) {
      in.load(b + D, n, zn, cn);
#pragma unroll
      for (int u = 0; u < D; u++)
        if (b + u < n)
          body_step(&st, z[u], c[u].drift, c[u].vol, c[u].mask);
#pragma unroll
      for (int u = 0; u < D; u++) {
        z[u] = zn[u];
        c[u] = cn[u];
      }
    }
  }
};

// The same with the normals of the current batch in shared memory; the next
// batch's loads land in registers and are stored once the batch is computed.
template <typename R, int D> struct strategy<R, MCP_PREFETCH_SMEM_BATCH, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *sm, slots q)
  {
    R zn[D];
    coef<R> c[D], cn[D];
    fill_ring(in, n, sm, q, c);
    for (int b = 0; b < n; b += D) {
      in.load(b + D, n, zn, cn);
#pragma unroll
      for (int u = 0; u < D; u++)
        if (b + u < n)
          body_step(&st, sm[q.base + u * q.stride], c[u].drift, c[u].vol, c[u].mask);
#pragma unroll
      for (int u = 0; u < D; u++) {
        if (b + D + u < n)
          sm[q.base + u * q.stride] = zn[u];
        c[u] = cn[u];
      }
    }
  }
};

// A ring of D registers: step s reads slot s mod D and refills it with step
// s + D.  The loop is unrolled by D so that every slot index is a constant.
template <typename R, int D> struct strategy<R, MCP_PREFETCH_SCALAR_ROLLING, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *, slots)
  {
    R z[D];
    coef<R> c[D];
    in.load(0, n, z, c);
    for (int b = 0; b < n; b += D) {
#pragma unroll
      for (int u = 0; u < D; u++) {
        int s = b + u;
        if (s < n) {
          R x = z[u];
          coef<R> k = c[u];
          if (s + D < n) {
            z[u] = in.normal(s + D);
            c[u] = in.step(s + D);
          }
          body_step(&st, x, k.drift, k.vol, k.mask);
        }
      }
    }
  }
};

// The ring of normals in shared memory; the refill is stored after the step,
// so that the store does not wait on the load before the step's work.
template <typename R, int D> struct strategy<R, MCP_PREFETCH_SMEM_ROLLING, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *sm, slots q)
  {
    coef<R> c[D];
    fill_ring(in, n, sm, q, c);
    for (int b = 0; b < n; b += D) {
#pragma unroll
      for (int u = 0; u < D; u++) {
        int s = b + u;
        if (s < n) {
          R x = sm[q.base + u * q.stride], t = 0;
          coef<R> k = c[u];
          if (s + D < n) {
            t = in.normal(s + D);
            c[u] = in.step(s + D);
          }
          body_step(&st, x, k.drift, k.vol, k.mask);
          if (s + D < n)
            sm[q.base + u * q.stride] = t;
        }
      }
    }
  }
};

// The shared ring refilled by asynchronous copies (cp.async), one commit group
// a step: step s waits only until group s has landed.  The refill of a slot
// is issued after the step has used the slot's value.
template <typename R, int D> struct strategy<R, MCP_PREFETCH_SMEM_ASYNC, D> {
  template <typename St>
  static __device__ void run(St &st, const streams<R> &in, int n, R *sm, slots q)
  {
    coef<R> c[D];
#pragma unroll
    for (int u = 0; u < D; u++) {
      if (u < n) {
        __pipeline_memcpy_async(&sm[q.base + u * q.stride], in.z + (size_t)u * in.ld,
                                sizeof(R));
        c[u] = in.step(u);
      }
      __pipeline_commit(); // D groups whatever n, so that the waits count right
    }
    for (int b = 0; b < n; b += D) {
#pragma unroll
      for (int u = 0; u < D; u++) {
        int s = b + u;
        if (s < n) {
          __pipeline_wait_prior(D - 1);
          R x = sm[q.base + u * q.stride];
          coef<R> k = c[u];
          body_step(&st, x, k.drift, k.vol, k.mask);
          if (s + D < n) {
            __pipeline_memcpy_async(&sm[q.base + u * q.stride], in.z + (size_t)(s + D) * in.ld,
                                    sizeof(R));
            c[u] = in.step(s + D);
          }
          __pipeline_commit();
        }
      }
    }
    __pipeline_wait_prior(0);
  }
};

// Grid-stride over the tile's paths: the grid is whole waves of the GPU.
template <typename R, int S, int D>
__global__ void mcpi_path_kernel(mcpi_job_view job, const R *__restrict__ z, size_t ld,
                                 size_t n, double *__restrict__ pay, int padding)
{
  extern __shared__ unsigned char smem_raw[];
  R *sm = reinterpret_cast<R *>(smem_raw);
  slots q = padding == MCP_PADDING_INTERLEAVED
                ? slots{threadIdx.x, blockDim.x}
                : slots{threadIdx.x * (unsigned)(D + padding), 1u};
  streams<R> in{z, ld, real_traits<R>::drift(job), real_traits<R>::vol(job), job.fixmask};
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    typename real_traits<R>::state st;
    body_init(&st, &job);
    in.z = z + i;
    strategy<R, S, D>::run(st, in, job.nsteps, sm, q);
    body_finish(&st, &job, pay + i, ld);
  }
}

// ---- dispatch: (precision, strategy, distance) -> kernel -------------------

template <typename R, int S, int D> static const void *kernel_ptr()
{
  return reinterpret_cast<const void *>(&mcpi_path_kernel<R, S, D>);
}

#define MCPI_DISTANCE_ROW(R, S)                                                              \
  {                                                                                          \
    kernel_ptr<R, S, 1>(), kernel_ptr<R, S, 2>(), kernel_ptr<R, S, 4>(),                     \
        kernel_ptr<R, S, 6>(), kernel_ptr<R, S, 8>(), kernel_ptr<R, S, 12>(),                \
        kernel_ptr<R, S, 16>()                                                               \
  }
#define MCPI_STRATEGY_TABLE(R)                                                               \
  {                                                                                          \
    MCPI_DISTANCE_ROW(R, MCP_PREFETCH_NONE), MCPI_DISTANCE_ROW(R, MCP_PREFETCH_UNROLL),      \
        MCPI_DISTANCE_ROW(R, MCP_PREFETCH_SCALAR_BATCH),                                     \
        MCPI_DISTANCE_ROW(R, MCP_PREFETCH_SMEM_BATCH),                                       \
        MCPI_DISTANCE_ROW(R, MCP_PREFETCH_SCALAR_ROLLING),                                   \
        MCPI_DISTANCE_ROW(R, MCP_PREFETCH_SMEM_ROLLING),                                     \
        MCPI_DISTANCE_ROW(R, MCP_PREFETCH_SMEM_ASYNC)                                        \
  }

static const void *kernel_for(mcp_precision prec, mcp_prefetch s, int d)
{
  static const void *const table[2][MCPI_NSTRATEGIES][MCPI_NDISTANCES] = {
      MCPI_STRATEGY_TABLE(double), MCPI_STRATEGY_TABLE(float)};
  int di = mcpi_prefetch_distance_index(d);
  // "none" has one kernel: every distance maps to it
  return table[prec][s][s == MCP_PREFETCH_NONE || di < 0 ? 0 : di];
}

extern "C" size_t mcpi_prefetch_smem_bytes(mcp_precision prec, mcp_prefetch s, int d,
                                           int padding, int block)
{
  if (!mcpi_prefetch_uses_smem(s))
    return 0;
  size_t slot = padding == MCP_PADDING_INTERLEAVED ? (size_t)d : (size_t)(d + padding);
  return slot * (size_t)block * (prec == MCP_FLOAT ? sizeof(float) : sizeof(double));
}

extern "C" cudaError_t mcpi_path_grid(const mcpi_kernel_options *o, int *grid)
{
  const void *k = kernel_for(o->precision, o->strategy, o->distance);
  size_t smem = mcpi_prefetch_smem_bytes(o->precision, o->strategy, o->distance, o->padding,
                                         o->block);
  cudaError_t e = cudaSuccess;
  if (smem > 48 * 1024)
    e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  int dev, sms, per_sm = 0;
  if (e == cudaSuccess)
    e = cudaGetDevice(&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, o->block, smem);
  if (e == cudaSuccess && per_sm == 0)
    e = cudaErrorInvalidConfiguration;
  *grid = per_sm * sms;
  return e;
}

extern "C" cudaError_t mcpi_launch_paths(mcpi_job_view job, const void *z, size_t ld, size_t n,
                                         double *pay, const mcpi_kernel_options *o, int grid,
                                         cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  size_t need = (n + o->block - 1) / o->block;
  unsigned g = (unsigned)(need < (size_t)grid ? need : (size_t)grid);
  size_t smem = mcpi_prefetch_smem_bytes(o->precision, o->strategy, o->distance, o->padding,
                                         o->block);
  int padding = o->padding;
  void *args[] = {&job, const_cast<void **>(&z), &ld, &n, &pay, &padding};
  return cudaLaunchKernel(kernel_for(o->precision, o->strategy, o->distance), dim3(g),
                          dim3((unsigned)o->block), args, smem, stream);
}
