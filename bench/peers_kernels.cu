/* peers_kernels.cu: the hand-written peers of bench/peers.
 *   asian  one thread a path in a grid-stride loop; its Philox state lives
 *          in registers and draws each step's normal as the path steps (the
 *          exact log-normal step), so no normal ever reaches memory: what a
 *          competent CUDA programmer would write for this one product
 *   heston the same for a Heston European call: two normals a step (one
 *          Box-Muller pair), the quadratic-exponential step with every
 *          constant of the step computed once on the host
 *   rng    the same streams and as many normals, only summed: the rate of
 *          cuRAND Philox normals in registers, a ceiling for any fused
 *          kernel drawing them the same way
 * Each thread keeps its sums in registers and each warp adds its own into
 * the double accumulators with one atomic, so the reduction costs nothing
 * next to the paths. */
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <math.h>
#include "bench/peers_kernels.h"

typedef curandStatePhilox4_32_10_t philox;

__device__ __forceinline__ double normal(philox *s, double) { return curand_normal_double(s); }
__device__ __forceinline__ float normal(philox *s, float) { return curand_normal(s); }
__device__ __forceinline__ double expo(double x) { return exp(x); }
__device__ __forceinline__ float expo(float x) { return expf(x); }

/* The warp's sum of v, added to *acc by its first lane. */
__device__ __forceinline__ void warp_add(double v, double *acc)
{
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(acc, v);
}

/* The thread's first path, its Philox stream started (a stream a thread),
 * and the grid's stride over the paths. */
__device__ __forceinline__ uint64_t first_path(uint64_t seed, philox *st, uint64_t *stride)
{
  const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  *stride = (uint64_t)gridDim.x * blockDim.x;
  curand_init(seed, tid, 0, st);
  return tid;
}

/* The step's coefficients in the path's precision. */
template <typename T> struct asian_coef {
  T x0, drift, sd, strike, inv_steps;
  double disc;
  int steps;
};

template <typename T>
__global__ void __launch_bounds__(PEERS_BLOCK)
asian_kernel(asian_coef<T> c, uint64_t paths, uint64_t seed, double *sums)
{
  philox st;
  uint64_t stride, tid = first_path(seed, &st, &stride);
  double sum = 0, sum2 = 0;
  for (uint64_t i = tid; i < paths; i += stride) {
    T x = c.x0, avg = 0;
    for (int k = 0; k < c.steps; k++) {
      x += c.drift + c.sd * normal(&st, T());
      avg += expo(x);
    }
    double pay = c.disc * fmax((double)(avg * c.inv_steps - c.strike), 0.0);
    sum += pay;
    sum2 += pay * pay;
  }
  warp_add(sum, &sums[0]);
  warp_add(sum2, &sums[1]);
}

template <typename T>
__global__ void __launch_bounds__(PEERS_BLOCK)
rng_kernel(uint64_t paths, int steps, uint64_t seed, double *sums)
{
  philox st;
  uint64_t stride, tid = first_path(seed, &st, &stride);
  T sum = 0;
  for (uint64_t i = tid; i < paths; i += stride)
    for (int k = 0; k < steps; k++)
      sum += normal(&st, T());
  warp_add((double)sum, &sums[0]);
}

/* The QE step's constants (Andersen 2008, gamma1 = gamma2 = 1/2, psi_c =
 * 1.5, with the martingale correction): the variance's conditional mean
 * theta + (v - theta) ekdt and variance v c1 + c2, the log-spot's
 * x += drift + k0 + k1 v + k2 v' + sqrt(k3 (v + v')) zx, k0 from A (or
 * k0_plain where the correction's moment does not exist), k13 = k1 + k3 / 2. */
struct heston_coef {
  double x0, v0, theta, ekdt, c1, c2, drift, k1, k2, k3, A, k0_plain, k13, strike, disc;
  int steps;
};

__global__ void __launch_bounds__(PEERS_BLOCK)
heston_kernel(heston_coef c, uint64_t paths, uint64_t seed, double *sums)
{
  philox st;
  uint64_t stride, tid = first_path(seed, &st, &stride);
  double sum = 0, sum2 = 0;
  for (uint64_t i = tid; i < paths; i += stride) {
    double x = c.x0, v = c.v0;
    for (int k = 0; k < c.steps; k++) {
      double2 z = curand_normal2_double(&st); /* x drives the variance, y the spot */
      double m = c.theta + (v - c.theta) * c.ekdt, psi = (v * c.c1 + c.c2) / (m * m), vn, k0;
      if (psi <= 1.5) {
        double r = 2 / psi, b2 = r - 1 + sqrt(r * (r - 1)), a = m / (1 + b2);
        double w = sqrt(b2) + z.x, q = 1 - 2 * c.A * a;
        vn = a * w * w;
        k0 = q > 0 ? -c.A * b2 * a / q + 0.5 * log(q) - c.k13 * v : c.k0_plain;
      } else {
        double p = (psi - 1) / (psi + 1), beta = (1 - p) / m;
        vn = normcdf(z.x) <= p ? 0 : log((1 - p) / normcdf(-z.x)) / beta;
        k0 = c.A < beta ? -log(p + beta * (1 - p) / (beta - c.A)) - c.k13 * v : c.k0_plain;
      }
      x += c.drift + k0 + c.k1 * v + c.k2 * vn + sqrt(c.k3 * (v + vn)) * z.y;
      v = vn;
    }
    double pay = c.disc * fmax(exp(x) - c.strike, 0.0);
    sum += pay;
    sum2 += pay * pay;
  }
  warp_add(sum, &sums[0]);
  warp_add(sum2, &sums[1]);
}

template <typename K> static int waves(K kernel, uint64_t paths)
{
  int dev, sms, per_sm;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, PEERS_BLOCK, 0) !=
          cudaSuccess)
    return 0;
  uint64_t need = (paths + PEERS_BLOCK - 1) / PEERS_BLOCK;
  uint64_t full = (uint64_t)per_sm * (uint64_t)sms;
  return (int)(need < full ? need : full);
}

extern "C" int peers_grid(int use_float, int rng, uint64_t paths)
{
  if (rng)
    return use_float ? waves(rng_kernel<float>, paths) : waves(rng_kernel<double>, paths);
  return use_float ? waves(asian_kernel<float>, paths) : waves(asian_kernel<double>, paths);
}

template <typename T>
static cudaError_t launch_asian(const peers_asian *a, uint64_t paths, uint64_t seed,
                                double *sums)
{
  double dt = a->maturity / a->steps;
  asian_coef<T> c;
  c.x0 = (T)log(a->spot);
  c.drift = (T)((a->rate - a->dividend - 0.5 * a->vol * a->vol) * dt);
  c.sd = (T)(a->vol * sqrt(dt));
  c.strike = (T)a->strike;
  c.inv_steps = (T)(1.0 / a->steps);
  c.disc = exp(-a->rate * a->maturity);
  c.steps = a->steps;
  int grid = peers_grid(sizeof(T) == sizeof(float), 0, paths);
  if (grid <= 0)
    return cudaErrorInvalidConfiguration;
  cudaError_t e = cudaMemsetAsync(sums, 0, 2 * sizeof(double), 0);
  if (e != cudaSuccess)
    return e;
  asian_kernel<T><<<grid, PEERS_BLOCK>>>(c, paths, seed, sums);
  return cudaGetLastError();
}

extern "C" cudaError_t peers_asian_launch(int use_float, const peers_asian *a, uint64_t paths,
                                          uint64_t seed, double *sums)
{
  return use_float ? launch_asian<float>(a, paths, seed, sums)
                   : launch_asian<double>(a, paths, seed, sums);
}

extern "C" cudaError_t peers_rng_launch(int use_float, uint64_t paths, int steps, uint64_t seed,
                                        double *sums)
{
  int grid = peers_grid(use_float, 1, paths);
  if (grid <= 0)
    return cudaErrorInvalidConfiguration;
  cudaError_t e = cudaMemsetAsync(sums, 0, 2 * sizeof(double), 0);
  if (e != cudaSuccess)
    return e;
  if (use_float)
    rng_kernel<float><<<grid, PEERS_BLOCK>>>(paths, steps, seed, sums);
  else
    rng_kernel<double><<<grid, PEERS_BLOCK>>>(paths, steps, seed, sums);
  return cudaGetLastError();
}

extern "C" cudaError_t peers_heston_launch(const peers_heston *h, uint64_t paths, uint64_t seed,
                                           double *sums)
{
  double dt = h->maturity / h->steps, e = exp(-h->kappa * dt), xi2 = h->xi * h->xi;
  heston_coef c;
  c.x0 = log(h->spot);
  c.v0 = h->v0;
  c.theta = h->theta;
  c.ekdt = e;
  c.c1 = xi2 * e * (1 - e) / h->kappa;
  c.c2 = h->theta * xi2 * (1 - e) * (1 - e) / (2 * h->kappa);
  c.drift = (h->rate - h->dividend) * dt;
  c.k1 = 0.5 * dt * (h->kappa * h->rho / h->xi - 0.5) - h->rho / h->xi;
  c.k2 = 0.5 * dt * (h->kappa * h->rho / h->xi - 0.5) + h->rho / h->xi;
  c.k3 = 0.5 * dt * (1 - h->rho * h->rho);
  c.A = c.k2 + 0.5 * c.k3;
  c.k0_plain = -h->rho * h->kappa * h->theta * dt / h->xi;
  c.k13 = c.k1 + 0.5 * c.k3;
  c.strike = h->strike;
  c.disc = exp(-h->rate * h->maturity);
  c.steps = h->steps;
  int grid = waves(heston_kernel, paths);
  if (grid <= 0)
    return cudaErrorInvalidConfiguration;
  cudaError_t err = cudaMemsetAsync(sums, 0, 2 * sizeof(double), 0);
  if (err != cudaSuccess)
    return err;
  heston_kernel<<<grid, PEERS_BLOCK>>>(c, paths, seed, sums);
  return cudaGetLastError();
}
