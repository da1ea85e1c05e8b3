/* mcp_hd.h: lets the model and payoff headers compile under gcc and nvcc. */
#ifndef MCP_HD_H
#define MCP_HD_H

/* MCP_HD_INLINE: inlined into each kernel whatever its size, where the
 * kernel's compile-time arguments must reach it (else one copy of every
 * branch, called) */
#ifdef __CUDACC__
#define MCP_HD __host__ __device__
#define MCP_HD_INLINE __host__ __device__ __forceinline__
#define MCP_UNROLL _Pragma("unroll")
#else
#define MCP_HD
#define MCP_HD_INLINE inline
#define MCP_UNROLL _Pragma("GCC unroll 16")
#endif

/* MCP_CONSTEXPR: a function nvcc may evaluate in a template's argument */
#ifdef __cplusplus
#define MCP_CONSTEXPR constexpr
#else
#define MCP_CONSTEXPR
#endif

/* MCPI_ASSUME(c): the compiler may take c as true (its value is known where
 * it holds, and the branches it decides fold) */
#ifdef __CUDA_ARCH__
#define MCPI_ASSUME(c) __builtin_assume(c)
#else
#define MCPI_ASSUME(c)                                                                      \
  do {                                                                                      \
    if (!(c))                                                                               \
      __builtin_unreachable();                                                              \
  } while (0)
#endif

#endif
