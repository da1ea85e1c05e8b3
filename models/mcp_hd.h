/* mcp_hd.h: lets the model and payoff headers compile under gcc and nvcc. */
#ifndef MCP_HD_H
#define MCP_HD_H

#ifdef __CUDACC__
#define MCP_HD __host__ __device__
#define MCP_UNROLL _Pragma("unroll")
#else
#define MCP_HD
#define MCP_UNROLL _Pragma("GCC unroll 16")
#endif

#endif
