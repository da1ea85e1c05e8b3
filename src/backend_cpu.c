/* backend_cpu.c: the CPU backend, C11 with OpenMP.  Normals come from cuRAND's
 * host generator through the canonical mapping (rng.h), paths from the shared
 * path body (path.h), sums from the fixed-order chunk reduction (stats.h). */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "backend.h"
#include "rng.h"

/* Tiles of at most 2^26 normals (512 MiB) and 2^20 paths, a power of two so
 * that tiles line up with the generator's 2^18-element windows (rng.h): every
 * re-seek of the host generator then pays for a whole window. */
static size_t auto_tile(size_t nsteps)
{
  size_t cap = ((size_t)1 << 26) / (nsteps ? nsteps : 1), t = MCP_CHUNK_PATHS;
  while (t * 2 <= cap && t < ((size_t)1 << 20))
    t *= 2;
  return t;
}

static int max_threads(void)
{
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

static mcp_status price_job(mcpi_run *run, size_t ji, curandGenerator_t *gen, int ngen)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  mcp_context *ctx = run->ctx;
  uint64_t paths = run->plan->paths;
  size_t tile = ctx->tile_paths ? ctx->tile_paths : auto_tile(j->nsteps);
  if (tile > paths)
    tile = (size_t)((paths + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS);
  size_t ncol = j->ntrades + 1, nch = tile / MCP_CHUNK_PATHS;
  int single = run->kopt.precision == MCP_FLOAT;
  double *z = malloc(j->nsteps * tile * sizeof *z);
  /* float paths read the double normals rounded, as the GPU's do */
  float *zf = single ? malloc(j->nsteps * tile * sizeof *zf) : NULL;
  double *pay = malloc(ncol * tile * sizeof *pay);
  double *part = malloc(ncol * nch * 2 * sizeof *part);
  mcp_status st = MCP_OK;
  if (!z || !pay || !part || (single && !zf))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY,
                   "out of host memory for a tile of %zu paths x %zu steps", tile, j->nsteps);
  mcpi_job_view view = mcpi_job_host_view(j);
  for (uint64_t p0 = 0; st == MCP_OK && p0 < paths; p0 += tile) {
    size_t n = (size_t)(paths - p0 < tile ? paths - p0 : tile);
    size_t nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
    int bad = 0;
    /* each thread draws a contiguous range of steps with its own generator */
#pragma omp parallel for schedule(static) num_threads(ngen) reduction(| : bad)
    for (int g = 0; g < ngen; g++) {
      size_t s0 = j->nsteps * g / ngen, s1 = j->nsteps * (g + 1) / ngen;
      if (s1 > s0 && mcpi_rng_fill(gen[g], j->stream, s0, s1 - s0, p0, n, z + s0 * tile, tile)
                         != CURAND_STATUS_SUCCESS)
        bad = 1;
    }
    if (bad) {
      st = mcpi_fail(ctx->err, MCP_ERR_DEVICE, "cuRAND host generator failed");
      break;
    }
#pragma omp parallel for schedule(static)
    for (size_t c = 0; c < nchunks; c++) {
      size_t end = (c + 1) * MCP_CHUNK_PATHS < n ? (c + 1) * MCP_CHUNK_PATHS : n;
      for (size_t i = c * MCP_CHUNK_PATHS; i < end; i++)
        if (single) {
          for (size_t s = 0; s < j->nsteps; s++)
            zf[s * tile + i] = (float)z[s * tile + i];
          mcpi_path_f(&view, zf + i, tile, pay + i, tile);
        } else {
          mcpi_path(&view, z + i, tile, pay + i, tile);
        }
      for (size_t col = 0; col < ncol; col++)
        mcpi_chunk_sums(pay + col * tile + c * MCP_CHUNK_PATHS, end - c * MCP_CHUNK_PATHS,
                        &part[(col * nchunks + c) * 2], &part[(col * nchunks + c) * 2 + 1]);
    }
    for (size_t col = 0; col < ncol; col++)
      mcpi_accum_add(&run->acc[ji][col], part + col * nchunks * 2, nchunks, n);
    mcpi_run_progress(run, j, n);
  }
  free(z);
  free(zf);
  free(pay);
  free(part);
  return st;
}

mcp_status mcpi_cpu_price(mcpi_run *run)
{
  int ngen = max_threads();
  curandGenerator_t *gen = calloc((size_t)ngen, sizeof *gen);
  if (!gen)
    return mcpi_fail(run->ctx->err, MCP_ERR_NO_MEMORY, "out of host memory");
  mcp_status st = MCP_OK;
  int made = 0;
  for (; made < ngen; made++)
    if (curandCreateGeneratorHost(&gen[made], CURAND_RNG_PSEUDO_PHILOX4_32_10)
        != CURAND_STATUS_SUCCESS) {
      st = mcpi_fail(run->ctx->err, MCP_ERR_DEVICE, "cannot create a cuRAND host generator");
      break;
    }
  for (size_t ji = 0; st == MCP_OK && ji < run->plan->njobs; ji++)
    st = price_job(run, ji, gen, made);
  for (int g = 0; g < made; g++)
    curandDestroyGenerator(gen[g]);
  free(gen);
  return st;
}
