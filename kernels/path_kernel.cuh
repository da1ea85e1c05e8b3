// path_kernel.cuh: the Monte Carlo path kernels, one thread a sample, one kernel
// a (precision, normals mode, prefetch strategy, distance, single or
// multi-asset); each path_kernel_*.cu instantiates the table of one precision
// and state (one asset, several, or the job-shaped one), so that nvcc compiles
// the six in parallel.  Every variant makes the same
// calls of the shared path body (path.h) in the same order, so per-path values
// are identical bit for bit; they differ only in how a step's inputs (the
// path's normal, from the tile in global memory, and the step's coefficients,
// the same for every thread) reach registers.  The shared-memory variants
// stage the normals, which come from DRAM; the coefficients, which every
// thread of the block reads alike, ride in registers on the same schedule.
// The fused kernels compute the normals in registers instead (fused_rng):
// the same numbers, with no tile of normals in memory at all.
#ifndef MCP_PATH_KERNEL_CUH
#define MCP_PATH_KERNEL_CUH

#include <cuda_pipeline.h>
#include "kernels/catalogue.h"
#include "kernels/launch.h"
#include "models/products/path.h"
#include "models/prefetch.h"
#include "models/rng.h"

// The path body as C++ overloads of the C functions, one per state type
// (single or multi-asset, double or float).
#define MCPI_BODY_OVERLOADS(State, R, init, step, finish, spots, survival, step_inline)      \
  static __device__ __forceinline__ void body_init(State *s, const mcpi_job_view *j, int pass) \
  {                                                                                          \
    init(s, j, pass);                                                                        \
  }                                                                                          \
  static __device__ step_inline void body_step(State *s, const mcpi_job_view *j, R z, R a,   \
                                               R b, uint32_t tag)                            \
  {                                                                                          \
    step(s, j, z, a, b, tag);                                                                \
  }                                                                                          \
  static __device__ __forceinline__ void body_finish(const State *s, const mcpi_job_view *j, \
                                              double *pay, size_t ld, int pass)              \
  {                                                                                          \
    finish(s, j, pay, ld, pass);                                                             \
  }                                                                                          \
  static __device__ __forceinline__ void body_log_spots(const State *s, double *x)           \
  {                                                                                          \
    spots(s, x);                                                                             \
  }                                                                                          \
  static __device__ __forceinline__ void body_survival(const State *s, double *sv)           \
  {                                                                                          \
    survival(s, sv);                                                                         \
  }
// nvcc 13.0 at -O3 miscompiled the double single-asset step inlined into
// these loops: a fixing read the log-spot of the path's start instead of the
// current one (dbg: GPU 0 against CPU 23.79 on a 5-step path; right with
// -Xcicc -O1, or with the step not inlined).  The step of the general state
// stays a call (its families' rows in path_families.def say so);
// NVCCFLAGS=-DMCPI_INLINE_DOUBLE_STEP inlines it, to test a compiler again
// with tests/test_gpu (GPU = CPU on every model and product).
#ifdef MCPI_INLINE_DOUBLE_STEP
#define MCPI_DOUBLE_STEP_INLINE __forceinline__
#else
#define MCPI_DOUBLE_STEP_INLINE __noinline__
#endif
// The state a kernel of precision R and catalogue state M (catalogue.h:
// one asset, several, job-shaped, plain, several Heston assets) steps: the
// path kernels' (state_of), those of on-path vega and rho (greek_state_of)
// and Longstaff-Schwartz exercise's (lsm_state_of, lsm_kernel.cu; with the
// spot Greeks on scaled paths, lsm_scaled_state_of).
// path_families.cuh specialises them, and defines the overloads, for each
// family of models/products/path_families.def.
template <typename R, int M> struct state_of;
template <typename R, int M> struct greek_state_of;
template <typename R, int M> struct lsm_state_of;
template <typename R, int M> struct lsm_scaled_state_of;
#include "kernels/path_families.cuh"

// A path with a per-path array (private.h): the model's state, which stays a
// variable of its own (the double single-asset step, a call, takes its
// address; the array must not share its frame), and the array, which records
// the fixings at the end of each step that has some.
template <typename St, typename A> struct with_array {
  St *s;
  A a;
};

template <typename St, typename A>
static __device__ __forceinline__ void body_init(with_array<St, A> *x, const mcpi_job_view *j,
                                                 int pass)
{
  body_init(x->s, j, pass);
  mcpi_private_init(&x->a, j);
}

template <typename St, typename A, typename R>
static __device__ __forceinline__ void body_step(with_array<St, A> *x, const mcpi_job_view *j,
                                                 R z, R a, R b, uint32_t tag)
{
  body_step(x->s, j, z, a, b, tag);
  if (mcpi_private_fixes(tag)) {
    double lx[MCP_MAX_ASSETS];
    body_log_spots(x->s, lx);
    mcpi_private_fix(&x->a, j, tag, lx);
  }
}

template <typename St, typename A>
static __device__ __forceinline__ void body_finish(const with_array<St, A> *x,
                                                   const mcpi_job_view *j, double *pay,
                                                   size_t ld, int pass)
{
  double sv[MCPI_MAX_MONITORS];
  body_survival(x->s, sv);
  mcpi_private_finish(&x->a, j, sv, pay, ld, pass);
}

// The state of a path by placement of its array: P = 0 (none; the job has no
// array), or an mcp_placement: registers (capacity L), local memory (a frame
// of MCP_MAX_PRIVATE_ARRAY) or shared memory (element i at i blockDim + thread,
// from the start of the dynamic shared memory: such jobs run without a ring).
// pick gives what the loop steps: the model's state, or it with the array.
template <typename R, int M, int P, int L> struct path_state {
  typedef typename state_of<R, M>::type base;
  typedef with_array<base, mcpi_parr> type;
  static __device__ type make(base *b, double *sm, double *frame)
  {
    type x;
    x.s = b;
    x.a = P == MCP_PLACEMENT_SHARED ? mcpi_parr{sm + threadIdx.x, blockDim.x}
                                    : mcpi_parr{frame, 1u};
    return x;
  }
  typedef type stepped;
  static __device__ type &pick(base &, type &x) { return x; }
};
template <typename R, int M, int L> struct path_state<R, M, MCP_PLACEMENT_REGISTERS, L> {
  typedef typename state_of<R, M>::type base;
  typedef with_array<base, mcpi_rarr<L> > type;
  static __device__ type make(base *b, double *, double *)
  {
    type x;
    x.s = b;
    return x;
  }
  typedef type stepped;
  static __device__ type &pick(base &, type &x) { return x; }
};
struct no_array {};
template <typename R, int M> struct path_state<R, M, 0, 0> {
  typedef typename state_of<R, M>::type base;
  typedef no_array type;
  static __device__ type make(base *, double *, double *) { return type(); }
  typedef base stepped;
  static __device__ base &pick(base &b, type &) { return b; }
};

// A job whose vega or rho is estimated on the path (P = MCPI_PATH_GREEKS):
// the state that carries their derivatives (greeks.h).
template <typename R, int M> struct path_state<R, M, MCPI_PATH_GREEKS, 0> {
  typedef typename greek_state_of<R, M>::type base;
  typedef no_array type;
  static __device__ type make(base *, double *, double *) { return type(); }
  typedef base stepped;
  static __device__ base &pick(base &b, type &) { return b; }
};

template <typename R> struct real_traits;
template <> struct real_traits<double> {
  static __device__ const double *ca(const mcpi_job_view &j) { return j.ca; }
  static __device__ const double *cb(const mcpi_job_view &j) { return j.cb; }
  static __device__ double ua(const mcpi_job_view &j, int f) { return j.u[f].a; }
  static __device__ double ub(const mcpi_job_view &j, int f) { return j.u[f].b; }
};
template <> struct real_traits<float> {
  static __device__ const float *ca(const mcpi_job_view &j) { return j.ca_f; }
  static __device__ const float *cb(const mcpi_job_view &j) { return j.cb_f; }
  static __device__ float ua(const mcpi_job_view &j, int f) { return j.u[f].a_f; }
  static __device__ float ub(const mcpi_job_view &j, int f) { return j.u[f].b_f; }
};

// An element's coefficients, the same for every thread.
template <typename R> struct coef {
  R a, b;
  uint32_t tag;
};

// The streams of one path: its normals z[e ld] and the element coefficients.
template <typename R> struct streams {
  const mcpi_job_view *job;
  const R *__restrict__ z;
  size_t ld;
  const R *__restrict__ ca, *__restrict__ cb;
  const uint32_t *__restrict__ tag;
  __device__ R normal(int s) const { return z[(size_t)s * ld]; }
  __device__ coef<R> step(int s) const
  {
    return coef<R>{__ldg(ca + s), __ldg(cb + s), __ldg(tag + s)};
  }
  // The same for a job of constant steps (job->uniform) of F factors, from
  // the view: f = s mod F.
  __device__ coef<R> step_uniform(int s, int f) const
  {
    return coef<R>{real_traits<R>::ua(*job, f), real_traits<R>::ub(*job, f),
                   s + 1 == job->nelem ? job->utag_last : job->u[f].tag};
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
      body_step(&st, in.job, in.normal(s), c.a, c.b, c.tag);
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
      body_step(&st, in.job, in.normal(s), c.a, c.b, c.tag);
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
          body_step(&st, in.job, z[u], c[u].a, c[u].b, c[u].tag);
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
          body_step(&st, in.job, sm[q.base + u * q.stride], c[u].a, c[u].b, c[u].tag);
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
          body_step(&st, in.job, x, k.a, k.b, k.tag);
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
          body_step(&st, in.job, x, k.a, k.b, k.tag);
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
          body_step(&st, in.job, x, k.a, k.b, k.tag);
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

// The canonical normals of one path (rng.h), computed in registers.  Double:
// a Philox block gives the normals of paths p and p + 1 (p even) at one
// element, so the two lanes of such a pair share the work of two elements:
// the even lane computes element e's block, the odd lane element e + 1's, and
// each hands the other the normal it needs by one shuffle.  So every normal is
// computed once, as in the stored mode's normals kernel, and the numbers are
// the same.  This needs the whole warp at every call, and lane parity equal to
// path parity (tiles start at multiples of 4 paths; blocks are whole warps).
// Float: a block gives four consecutive elements of one path (the float
// mapping), the block of double step 2 r + (p & 1) at round r: the same
// counters, and each lane computes its own.
struct fused_rng {
  uint64_t seed, ctr; // the job's seed; the counter of this lane's first block
  uint32_t sub;       // the pair's subsequence
  unsigned odd;       // this lane is the pair's odd path
  __device__ fused_rng(uint64_t seed_, uint64_t pair, unsigned odd_) : seed(seed_), odd(odd_)
  {
    mcpi_rng_block_at(odd, pair, &ctr, &sub);
  }
  fused_rng() = default;
  // The next block; the counter moves on by two double steps (a loop-carried
  // counter: recomputed from the thread index each round, it cost ~20
  // instructions a round in the shaped kernels' SASS).
  __device__ __forceinline__ void next(uint32_t c[4])
  {
    mcpi_rng_block(seed, ctr, sub, c);
    ctr += 2 * MCPI_RNG_STEP_COUNTER;
  }
  // Double: the normals of the next two elements, by the double transform
  // (N = 1) or the mixed precision's (N = 2, rng.h).
  template <int N> __device__ __forceinline__ void two(double &z0, double &z1)
  {
    uint32_t c[4];
    next(c);
    if constexpr (N == 2) { // the floats handed over: one 32-bit shuffle, not two
      float f[2];
      mcpi_rng_mixed_f(c, f);
      float got = __shfl_xor_sync(0xffffffffu, odd ? f[0] : f[1], 1);
      z0 = odd ? got : f[0];
      z1 = odd ? f[1] : got;
    } else {
      double r[2];
      mcpi_rng_box_muller(c, r);
      double got = __shfl_xor_sync(0xffffffffu, odd ? r[0] : r[1], 1);
      z0 = odd ? got : r[0];
      z1 = odd ? r[1] : got;
    }
  }
};

// The element loop of the fused kernels: rounds of two elements a block in
// double, four in float; the coefficients, the same for every thread, come
// through the read-only cache.  Full rounds run unchecked, the last one checks
// each element against n.  (Loading a round's coefficients ahead of its
// normals, to hide their latency, costs the plain kernels spills under their
// register cap: ptxas, sm_90.)  A job of constant steps in a plain shape
// (job->uniform: one Black-Scholes, Heston or local-volatility asset) takes
// them from the view instead; when every element but the last has one of
// the common tags T (a fixing of schedule 0 every step, or none), the rounds
// before the last element run with T a constant, so that the step's tests
// of its tag compile away and a round is one basic block; the checked
// kernel's, where its coarse path's pass is paired too (coarse_twin).
// Where a round's coefficients come from: the arrays, the view, or the view
// with the tags constants, T0 a step's first element's and T1 its second's
// (a step of F = 2 elements, a Heston asset's; of one, T0 alone).
enum { MCPI_COEF_ARRAYS, MCPI_COEF_UNIFORM, MCPI_COEF_CONST_TAG };
// A round of constant tags at offset O of its twin's period (coarse_twin)
// hands the twin its elements' places in it, constants as the tags are.
template <int N, int K, int C, int F, uint32_t T0, uint32_t T1, typename R, typename St,
          typename Tw, int O = 0>
struct fused_round {
  static __device__ __forceinline__ void draw(fused_rng &nm, R z[K])
  {
    if constexpr (K == 2) {
      nm.template two<N>(z[0], z[1]);
    } else {
      uint32_t b[4];
      nm.next(b);
      mcpi_rng_transform_f(b, z);
    }
  }
  static __device__ __forceinline__ void run(St &st, const streams<R> &in, int e, int m,
                                             fused_rng &nm, Tw &tw)
  {
    R z[K];
    draw(nm, z);
    steps(st, in, e, m, z, tw);
  }
  // The round's elements on its normals z.
  static __device__ __forceinline__ void steps(St &st, const streams<R> &in, int e, int m,
                                               const R z[K], Tw &tw)
  {
    static_assert(C != MCPI_COEF_CONST_TAG || Tw::period == 0 || O + K <= Tw::period,
                  "a round of constant tags within its twin's period");
#pragma unroll
    for (int k = 0; k < K; k++) // constant indices: z stays in registers
      if (k < m) {
        // e is a multiple of K, and K of F: element e + k is factor k % F
        coef<R> c = C == MCPI_COEF_ARRAYS ? in.step(e + k) : in.step_uniform(e + k, k % F);
        uint32_t tag = C != MCPI_COEF_CONST_TAG ? c.tag : k % F ? T1 : T0;
        body_step(&st, in.job, z[k], c.a, c.b, tag);
        tw.step(z[k], e + k, k, C == MCPI_COEF_CONST_TAG ? O + k : -1, tag);
      }
  }
};

template <int N, int U, int C, int F, uint32_t T0, uint32_t T1, typename R, typename St,
          typename Tw>
__device__ __forceinline__ void fused_loop(St &st, const streams<R> &in, fused_rng &nm, int n,
                                           Tw &tw)
{
  constexpr int K = sizeof(R) == sizeof(double) ? 2 : 4;
  int e = 0;
  if constexpr (C == MCPI_COEF_CONST_TAG && F == 2) {
    // A Heston step's rounds draw the next round's normals at their end, in
    // the basic block of the step's last lines (the loop's head begins a
    // block), so that ptxas interleaves them: with the QE step's branches
    // gone, the European 5% faster than drawn at the round's start (H200,
    // bench/RESULTS.md "heston-fast"); the same draws.  The loop's body is
    // a period of the twin's (S elements: the checked kernel's two steps,
    // held and merged), the rest rounds of the view's tags.
    constexpr int S = Tw::period > U * K ? Tw::period : U * K;
    static_assert(S == K || S == 2 * K, "a period of one round or two");
    typedef fused_round<N, K, C, F, T0, T1, R, St, Tw> round;
    typedef fused_round<N, K, MCPI_COEF_UNIFORM, F, 0, 0, R, St, Tw> tail;
    R z[K];
    round::draw(nm, z);
    for (; e + S < n; e += S) {
      round::steps(st, in, e, K, z, tw);
      round::draw(nm, z);
      if constexpr (S > K) {
        fused_round<N, K, C, F, T0, T1, R, St, Tw, K>::steps(st, in, e + K, K, z, tw);
        round::draw(nm, z);
      }
    }
    if constexpr (S > K)
      for (; e + K < n; e += K) {
        tail::steps(st, in, e, K, z, tw);
        round::draw(nm, z);
      }
    tail::steps(st, in, e, n - e, z, tw);
  } else if constexpr (C == MCPI_COEF_CONST_TAG) {
    if constexpr (U > 1) {
#pragma unroll U
      for (; e + K < n; e += K)
        fused_round<N, K, C, F, T0, T1, R, St, Tw>::run(st, in, e, K, nm, tw);
    } else { // no pragma, ptxas's choice: "nounroll" changed the checked kernel's code
      for (; e + K < n; e += K)
        fused_round<N, K, C, F, T0, T1, R, St, Tw>::run(st, in, e, K, nm, tw);
    }
    // the round of the last element (n >= 1: a uniform job has elements)
    fused_round<N, K, MCPI_COEF_UNIFORM, F, 0, 0, R, St, Tw>::run(st, in, e, n - e, nm, tw);
  } else {
    for (; e + K <= n; e += K)
      fused_round<N, K, C, F, 0, 0, R, St, Tw>::run(st, in, e, K, nm, tw);
    if (e < n)
      fused_round<N, K, C, F, 0, 0, R, St, Tw>::run(st, in, e, n - e, nm, tw);
  }
}

// The plain kernels' (F > 0: a step's elements, catalogue state M) jobs of
// constant steps run a European's steps or an Asian's daily fixings with
// their tags constants; a step of two elements fixes on its second.  Those
// rounds' loop is unrolled U times: the Black-Scholes plain shape's (double
// and float) by 2 (double 0.7% faster), the mixed one's by 4 (by 2 3%, by 4
// 1% more; H200, bench/RESULTS.md "mixed"); the Heston plain shape's not
// (MCPI_HESTON_UNROLL 2: two steps a turn, as the checked kernel's; built,
// not yet timed).
// NVCCFLAGS=-DMCPI_PLAIN_UNROLL=N (-DMCPI_MIXED_UNROLL=N,
// -DMCPI_HESTON_UNROLL=2) builds another.
#ifndef MCPI_MIXED_UNROLL
#define MCPI_MIXED_UNROLL 4
#endif
#ifndef MCPI_PLAIN_UNROLL
#define MCPI_PLAIN_UNROLL 2
#endif
#ifndef MCPI_HESTON_UNROLL
#define MCPI_HESTON_UNROLL 1
#endif
template <int M> struct plain_period {
  static constexpr int F =
      M == MCPI_STATE_PLAIN || M == MCPI_STATE_PLAIN_MIXED || M == MCPI_STATE_LV_PLAIN ? 1
      : M == MCPI_STATE_HESTON_PLAIN || M == MCPI_STATE_HESTON_CHECKED                 ? 2
                                                                                       : 0;
  static constexpr int U = M == MCPI_STATE_PLAIN_MIXED ? MCPI_MIXED_UNROLL
                           : M == MCPI_STATE_PLAIN     ? MCPI_PLAIN_UNROLL
                           : M == MCPI_STATE_HESTON_PLAIN ? MCPI_HESTON_UNROLL
                                                       : 1;
};
template <int F, int U, int N, typename R, typename St, typename Tw>
__device__ __forceinline__ void fused_run(St &st, const streams<R> &in, fused_rng nm, int n,
                                          Tw &tw)
{
  if constexpr (F > 0) {
    if (in.job->uniform) {
      constexpr uint32_t last = MCPI_TAG_LAST | (uint32_t)(F - 1) << MCPI_TAG_FACTOR_SHIFT;
      const mcpi_uniform_element *u = in.job->u;
      int first = F == 1 || u[0].tag == 0; // a step's first element of two observes nothing
      if constexpr (Tw::period == 0) // (daily fixings merge no steps: no checked job)
        if (first && u[F - 1].tag == (last | 1u)) { // an Asian's daily fixings
          fused_loop<N, U, MCPI_COEF_CONST_TAG, F, F == 1 ? last | 1u : 0, last | 1u>(st, in, nm,
                                                                                      n, tw);
          return;
        }
      // a European's steps; the checked kernel's where its pass is paired (a
      // pass of two steps is not: the view's tags then)
      if (first && u[F - 1].tag == last && tw.template paired<F == 1 ? last : 0, last>())
        fused_loop<N, U, MCPI_COEF_CONST_TAG, F, F == 1 ? last : 0, last>(st, in, nm, n, tw);
      else
        fused_loop<N, 1, MCPI_COEF_UNIFORM, F, 0, 0>(st, in, nm, n, tw);
      return;
    }
  }
  fused_loop<N, 1, MCPI_COEF_ARRAYS, 1, 0, 0>(st, in, nm, n, tw);
}

// What a fused path steps beside its own on its normals: nothing, or the
// discretisation check's coarse path (MCPI_STATE_HESTON_CHECKED): its pass's
// elements (path.h, MCPI_TAG_HOLD; view job) from the view where the pass is
// paired, else from their arrays, a held step's normals times a kept a
// factor, the merging step's own times the weight b added to them, in
// path_body.h's operations, so that the payoffs are those of the pass's own
// kernel to the bit.  It counts no held step (the general state does): the
// Heston plain state reads no step index; a local-volatility twin would have
// to, for its slices.
struct no_twin {
  static constexpr int period = 0;
  template <uint32_t T0, uint32_t T1> __device__ __forceinline__ bool paired() const
  {
    return true;
  }
  template <typename R> __device__ __forceinline__ void step(R, int, int, int, uint32_t) {}
};
template <typename R, typename St> struct coarse_twin {
  static constexpr int period = MCPI_UNIFORM_PERIOD; // a merged pair's two steps
  St st;
  const mcpi_job_view *job;
  R hz0, hz1, hw;
  // Whether the pass's elements repeat every two steps, held then merged,
  // the tags those of the job's constant steps (T0, T1) with the pass's
  // bits (job_view.c): then the rounds of constant tags hand each element
  // its place i in the period.
  template <uint32_t T0, uint32_t T1> __device__ __forceinline__ bool paired() const
  {
    return job->paired && job->u[0].tag == (T0 | MCPI_TAG_HOLD) &&
           job->u[1].tag == (T1 | MCPI_TAG_HOLD) && job->u[2].tag == (T0 | MCPI_TAG_MERGE) &&
           job->u[3].tag == (T1 | MCPI_TAG_MERGE);
  }
  // Element e is the round's k-th, a round holding whole steps of the plain
  // shape's Heston asset, two elements each (variance, then spot; no extremes'
  // factor: mcpi_job_shape_fits): its factor is k's parity, a constant once
  // the round is unrolled, so that each element compiles to its factor's code
  // alone.  Read from the tag, both elements carried both factors' code, the
  // QE step three times a round: the kernel 607 KB of code against 492, and
  // 3% slower (H200, bench/RESULTS.md "icache").  At place i >= 0 of the
  // period (a constant, as the job's tag is), the pass's element is u[i],
  // held or merged by i: the merged step one basic block, as the job's is.
  __device__ __forceinline__ void step(R z, int e, int k, int i, uint32_t tag)
  {
    R a, b;
    uint32_t f;
    if (i >= 0) {
      a = real_traits<R>::ua(*job, i);
      b = real_traits<R>::ub(*job, i);
      f = (uint32_t)i & 1u;
      tag |= i < 2 ? MCPI_TAG_HOLD : MCPI_TAG_MERGE;
    } else {
      a = __ldg(real_traits<R>::ca(*job) + e);
      b = __ldg(real_traits<R>::cb(*job) + e);
      f = (uint32_t)k & 1u;
      tag = (__ldg(job->tag + e) & ~(0xffu << MCPI_TAG_FACTOR_SHIFT)) | f << MCPI_TAG_FACTOR_SHIFT;
    }
    if (tag & MCPI_TAG_HOLD) {
      if (f == 0)
        hz0 = a * z;
      else
        hz1 = a * z;
      hw = b;
      return;
    }
    if (tag & MCPI_TAG_MERGE)
      z = (f == 0 ? hz0 : hz1) + hw * z;
    body_step(&st, job, z, a, b, tag);
  }
};

// One sample i (both passes of an antithetic one): the stored kernels step it
// through the strategy over its normals z[e ld]; the fused ones (N = 1, or 2 on
// the mixed transform) through fused_run.  Lanes past the tile (i >= n, fused
// only) step along for their partners but write nothing.
template <typename R, int S, int D, int M, int P, int L, int N>
__device__ __forceinline__ void sample(const mcpi_job_view &job, streams<R> &in, size_t i,
                                       size_t n, double *pay, size_t ld, R *sm, slots q,
                                       double *frame, const fused_rng &nm,
                                       const mcpi_job_view *coarse, double *pay_c)
{
  for (int pass = 0; pass <= job.antithetic; pass++) {
    typedef path_state<R, M, P, L> ps;
    typename ps::base b;
    typename ps::type x = ps::make(&b, reinterpret_cast<double *>(sm), frame);
    typename ps::stepped &st = ps::pick(b, x);
    body_init(&st, &job, pass);
    if constexpr (M == MCPI_STATE_HESTON_CHECKED) {
      coarse_twin<R, typename ps::base> tw;
      tw.job = coarse;
      tw.hz0 = tw.hz1 = tw.hw = 0;
      body_init(&tw.st, coarse, pass);
      fused_run<plain_period<M>::F, plain_period<M>::U, N>(st, in, nm, job.nelem, tw);
      if (i < n)
        body_finish(&tw.st, coarse, pay_c + i, ld, pass);
    } else if constexpr (N) {
      no_twin tw;
      fused_run<plain_period<M>::F, plain_period<M>::U, N>(st, in, nm, job.nelem, tw);
    } else {
      strategy<R, S, D>::run(st, in, job.nelem, sm, q);
    }
    if (i < n)
      body_finish(&st, &job, pay + i, ld, pass);
  }
}

// Grid-stride over the tile's samples: the grid is whole waves of the GPU.  An
// antithetic sample is two passes over the same normals.  Stored (N = 0): the
// tile's normals are z[e ld + i]; fused (N = 1, 2): z is unused, the normals
// are those of paths job.p0 + i of job.seed, and the loop runs whole warps.  A
// checked kernel's coarse path (view coarse) writes its payoffs to pay_c.
template <typename R, int S, int D, int M, int P, int L, int N>
__device__ __forceinline__ void path_kernel_body(const mcpi_job_view &job,
                                                 const R *__restrict__ z, size_t ld, size_t n,
                                                 double *__restrict__ pay, int padding,
                                                 const mcpi_job_view *coarse = NULL,
                                                 double *pay_c = NULL)
{
  extern __shared__ unsigned char smem_raw[];
  R *sm = reinterpret_cast<R *>(smem_raw);
  double frame[P == MCP_PLACEMENT_LOCAL ? MCP_MAX_PRIVATE_ARRAY : 1];
  slots q = padding == MCP_PADDING_INTERLEAVED
                ? slots{threadIdx.x, blockDim.x}
                : slots{threadIdx.x * (unsigned)(D + padding), 1u};
  streams<R> in{&job, z, ld, real_traits<R>::ca(job), real_traits<R>::cb(job), job.tag};
  size_t stride = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x;
  if constexpr (N) {
    unsigned lane = threadIdx.x & 31u;
    for (size_t w = first + threadIdx.x - lane; w < n; w += stride) {
      size_t i = w + lane;
      sample<R, S, D, M, P, L, N>(job, in, i, n, pay, ld, sm, q, frame,
                                  fused_rng(job.seed, job.p0 + (i & ~(size_t)1), lane & 1u),
                                  coarse, pay_c);
    }
  } else {
    for (size_t i = first + threadIdx.x; i < n; i += stride) {
      in.z = z + i;
      sample<R, S, D, M, P, L, N>(job, in, i, n, pay, ld, sm, q, frame, fused_rng(), NULL,
                                  NULL);
    }
  }
}

// The job's view is read in place, from the kernel's parameters
// (__grid_constant__): the body takes its address, a call's argument where
// the step is a call (the general double families), and a by-value
// parameter whose address is taken is copied to each thread's stack first.
// That copy was 1,224 of the general kernel's 1,632 bytes of frame, and its
// reads missed L1 at every step: the big book's price kernels moved 25.0 GB
// of DRAM with it, 10.3 GB without (ncu, bench/RESULTS.md).
template <typename R, int S, int D, int M, int P = 0, int L = 0, int N = 0>
__global__ void mcpi_path_kernel(const __grid_constant__ mcpi_job_view job,
                                 const R *__restrict__ z, size_t ld, size_t n,
                                 double *__restrict__ pay, int padding)
{
  path_kernel_body<R, S, D, M, P, L, N>(job, z, ld, n, pay, padding);
}

// The fused Heston plain kernel with its discretisation check's coarse path
// beside (M = MCPI_STATE_HESTON_CHECKED): the job's paths into pay and the
// coarse pass's (its view, coarse) into pay_c, on one draw of the normals.
// Capped at 128 registers (130 uncapped: 3 blocks of 128 an SM, 4 capped;
// ptxas then spills 44 bytes of stores and 64 of loads, double): 11 to 12%
// faster in diverged and undiverged markets alike (H200, bench/RESULTS.md
// "heston-call").  NVCCFLAGS=-DMCPI_CHECKED_REGISTERS=N builds another cap,
// to compare in one benchmark run.
#ifndef MCPI_CHECKED_REGISTERS
#define MCPI_CHECKED_REGISTERS 128
#endif
template <typename R, int S, int D, int M, int P = 0, int L = 0, int N = 0>
__global__ void __maxnreg__(MCPI_CHECKED_REGISTERS)
    mcpi_path_kernel_checked(const __grid_constant__ mcpi_job_view job,
                             const __grid_constant__ mcpi_job_view coarse, size_t ld, size_t n,
                             double *__restrict__ pay, double *__restrict__ pay_c)
{
  path_kernel_body<R, S, D, M, P, L, N>(job, NULL, ld, n, pay, 0, &coarse, pay_c);
}

// The job-shaped states' kernels (M = 2, 3, 8, 9) without a register ring
// (fused, or stored with none and unroll), capped at MCPI_SHAPED_REGISTERS a thread:
// ptxas fits them without spilling in the loop, and an SM then holds 6 blocks
// of 128 threads rather than 4 (uncapped, the fused kernel takes 108).  The
// prefetch rings need their registers: capped, they spilled (bench/RESULTS.md).
// The local-volatility plain shape's (M = 8) waits on its surface's loads:
// 11% faster capped (88 registers uncapped, 5 blocks an SM) despite a few
// spills (H200, bench/RESULTS.md).
#define MCPI_SHAPED_REGISTERS 80
// The plain shape's (M = 3) cap: 8 blocks an SM,
// one spill reload a round in double (ptxas); 1 to 2% faster fused and 9%
// stored than at 80 (H100, bench/RESULTS.md).
// NVCCFLAGS=-DMCPI_PLAIN_REGISTERS=N builds another, to compare in one
// benchmark run.
#ifndef MCPI_PLAIN_REGISTERS
#define MCPI_PLAIN_REGISTERS 64
#endif
// The Heston plain shape's (M = 6) stays uncapped: capped at 96 registers (5
// blocks an SM, 4 at its 116) its fused kernel took the same time, with
// spills (H200, bench/RESULTS.md).
// The mixed plain shape's (M = 9) cap: at 56 registers (a few spills outside
// its loop) an SM holds 9 blocks, not 8; 0.5 to 1.5% faster (H200,
// bench/RESULTS.md "mixed").
#ifndef MCPI_MIXED_REGISTERS
#define MCPI_MIXED_REGISTERS 56
#endif
template <typename R, int S, int D, int M, int P = 0, int L = 0, int N = 0>
__global__ void __maxnreg__(M == MCPI_STATE_PLAIN         ? MCPI_PLAIN_REGISTERS
                            : M == MCPI_STATE_PLAIN_MIXED ? MCPI_MIXED_REGISTERS
                                                          : MCPI_SHAPED_REGISTERS)
    mcpi_path_kernel_shaped(const __grid_constant__ mcpi_job_view job,
                            const R *__restrict__ z, size_t ld, size_t n,
                            double *__restrict__ pay, int padding)
{
  path_kernel_body<R, S, D, M, P, L, N>(job, z, ld, n, pay, padding);
}

// ---- the kernels of one (precision, asset count), by strategy and distance --

template <typename R, int S, int D, int M, int P = 0, int L = 0, int N = 0>
static const void *kernel_ptr()
{
  if constexpr (M == MCPI_STATE_HESTON_CHECKED)
    return reinterpret_cast<const void *>(&mcpi_path_kernel_checked<R, S, D, M, P, L, N>);
  else if constexpr ((M == 2 || M == 3 || M == 8 || M == 9) && P != MCPI_PATH_GREEKS &&
                     (S == MCP_PREFETCH_NONE || S == MCP_PREFETCH_UNROLL))
    return reinterpret_cast<const void *>(&mcpi_path_kernel_shaped<R, S, D, M, P, L, N>);
  else
    return reinterpret_cast<const void *>(&mcpi_path_kernel<R, S, D, M, P, L, N>);
}

// ---- a translation unit of the catalogue (catalogue.def) -------------------

template <int P> struct real_of {
  typedef double type;
};
template <> struct real_of<MCP_FLOAT> {
  typedef float type;
};

// The kernel of a catalogue entry where this unit builds it (B), else NULL:
// the other units' kernels are not instantiated here.  A mixed entry is the
// double kernel, fused on the mixed transform's normals (N = 2), or stored
// (N = 0: the mixed plain state's, MCPI_STATE_PLAIN_MIXED).
template <bool B, int Prec, int M, int S, int D, int P, int L, int N>
static const void *built_here()
{
  if constexpr (B)
    return kernel_ptr<typename real_of<Prec>::type, S, D, M, P, L,
                      Prec == MCP_MIXED && N ? 2 : N>();
  else
    return NULL;
}

#ifndef MCPI_TUNING_KERNELS
#define MCPI_TUNING_KERNELS 0
#endif
#endif
