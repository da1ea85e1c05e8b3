/* backend_cpu.c: the CPU backend, C11 with OpenMP.  Normals come from cuRAND's
 * host generator through the canonical mapping (rng.h) or from the host
 * Sobol points and Brownian bridge (qmc.h), paths from the shared path body
 * (path.h), sums from the fixed-order chunk reduction (stats.h). */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "backend.h"
#include "rng.h"

/* Tiles of at most 2^26 normals and payoffs (512 MiB) and 2^20 paths, a
 * power of two so that tiles line up with the generator's 2^18-element
 * windows (rng.h): every re-seek of the host generator then pays for a whole
 * window. */
static size_t auto_tile(size_t nelem, size_t ncol)
{
  size_t cap = ((size_t)1 << 26) / (nelem + ncol), t = MCP_CHUNK_PATHS;
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

typedef struct cpu_job {
  mcpi_run *run;
  const mcpi_job *j;
  mcpi_job_view view;
  mcpi_job_view *pass;   /* the variants' views of the job's passes */
  int32_t *off;          /* offsets of the combined estimators' terms */
  curandGenerator_t *gen;
  int ngen;
  size_t tile;
  double *z, *zq, *pay;
  float *zf; /* float paths: the float transform of the canonical blocks (rng.h), as
                the GPU's; QMC's double normals rounded */
  uint64_t *scramble; /* QMC: the replicate's scramble constants */
  const uint64_t *dirs, *consts;
} cpu_job;

static mcp_status fill(void *self, unsigned rep, uint64_t s0, size_t n)
{
  cpu_job *c = self;
  const mcpi_job *j = c->j;
  size_t tile = c->tile, ne = j->nelem;
  if (j->qmc) {
    int F = j->nfactors;
    mcpi_bridge_view bv = mcpi_bridge_host_view(&j->bridge);
    for (size_t d = 0; d < ne; d++)
      c->scramble[d] = c->consts[d] ^ mcpi_sobol_shift(j->stream, rep, d);
#pragma omp parallel for schedule(static)
    for (size_t d = 0; d < ne; d++)
      mcpi_sobol_fill(c->dirs + d * MCPI_SOBOL_BITS, c->scramble + d, 1, s0, n, c->zq + d * tile,
                      tile);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
      for (int f = 0; f < F; f++)
        mcpi_bridge_path(&bv, F, f, c->zq + i, tile, c->z + i, tile);
    return MCP_OK;
  }
  if (c->zf) {
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < ne; e++)
      for (size_t i = 0; i < n; i += 2) { /* s0 is even: pairs share a block */
        float v[2];
        mcpi_rng_pair_f(j->stream, e, s0 + i, v);
        c->zf[e * tile + i] = v[0];
        if (i + 1 < n)
          c->zf[e * tile + i + 1] = v[1];
      }
    return MCP_OK;
  }
  int bad = 0;
  /* each thread draws a contiguous range of elements with its own generator */
#pragma omp parallel for schedule(static) num_threads(c->ngen) reduction(| : bad)
  for (int g = 0; g < c->ngen; g++) {
    size_t e0 = ne * g / c->ngen, e1 = ne * (g + 1) / c->ngen;
    if (e1 > e0 && mcpi_rng_fill(c->gen[g], j->stream, e0, e1 - e0, s0, n, c->z + e0 * tile,
                                 tile) != CURAND_STATUS_SUCCESS)
      bad = 1;
  }
  return bad ? mcpi_fail(c->run->ctx->err, MCP_ERR_DEVICE, "cuRAND host generator failed")
             : MCP_OK;
}

static void one_path(const mcpi_job_view *v, const cpu_job *c, size_t i, double *pay)
{
  if (v->gstate) /* double only (greek_plan.c) */
    mcpi_path_g(v, c->z + i, c->tile, pay + i, c->tile);
  else if (c->zf)
    mcpi_path_f(v, c->zf + i, c->tile, pay + i, c->tile);
  else
    mcpi_path(v, c->z + i, c->tile, pay + i, c->tile);
}

static mcp_status paths(void *self, size_t n, int controls)
{
  cpu_job *c = self;
  const mcpi_job *j = c->j;
  size_t tile = c->tile, ne = j->nelem, ncol = mcpi_job_columns(j, 1);
  c->view.write_controls = controls;
  c->view.greeks = !controls && j->nin;
  c->view.gstate = controls ? 0 : j->gstate;
  for (size_t p = 0; p < j->npass; p++)
    c->pass[p].write_controls = controls;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) {
    if (c->zf && j->qmc)
      for (size_t e = 0; e < ne; e++)
        c->zf[e * tile + i] = (float)c->z[e * tile + i];
    one_path(&c->view, c, i, c->pay);
    for (size_t p = 0; p < j->npass; p++)
      one_path(&c->pass[p], c, i,
               c->pay + (controls ? (p + 1) * ncol : mcpi_pass_column(j, p)) * tile);
    if (!controls)
      mcpi_combine(j->term, c->off, (int)(j->nest - j->nin), (int)(j->ntrades + 1 + j->nin),
                   c->pay + i, tile);
  }
  return MCP_OK;
}

static mcp_status sums(void *self, size_t n, double *part)
{
  cpu_job *c = self;
  size_t ncol = mcpi_job_columns(c->j, 0), nchunks = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
#pragma omp parallel for schedule(static) collapse(2)
  for (size_t col = 0; col < ncol; col++)
    for (size_t ch = 0; ch < nchunks; ch++) {
      size_t i0 = ch * MCP_CHUNK_PATHS, m = n - i0 < MCP_CHUNK_PATHS ? n - i0 : MCP_CHUNK_PATHS;
      mcpi_chunk_sums(c->pay + col * c->tile + i0, m, &part[(col * nchunks + ch) * 2],
                      &part[(col * nchunks + ch) * 2 + 1]);
    }
  return MCP_OK;
}

static mcp_status read(void *self, size_t n, double *pay, size_t ld)
{
  cpu_job *c = self;
  for (size_t col = 0; col < mcpi_job_columns(c->j, 1) * (1 + c->j->npass); col++)
    memcpy(pay + col * ld, c->pay + col * c->tile, n * sizeof *pay);
  return MCP_OK;
}

static mcp_status update_specs(void *self)
{
  (void)self; /* the view reads the job's specs in place */
  return MCP_OK;
}

static mcp_status price_job(mcpi_run *run, size_t ji, curandGenerator_t *gen, int ngen)
{
  const mcpi_job *j = &run->plan->jobs[ji];
  mcp_context *ctx = run->ctx;
  uint64_t samples = mcpi_job_samples(run->plan, j);
  size_t tile = ctx->tile_paths ? ctx->tile_paths : auto_tile(j->nelem, mcpi_job_pay_columns(j));
  if (tile > samples)
    tile = (size_t)((samples + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS * MCP_CHUNK_PATHS);
  size_t ne = j->nelem;
  cpu_job c = {.run = run, .j = j, .view = mcpi_job_host_view(j), .gen = gen, .ngen = ngen,
               .tile = tile};
  int single = run->kopt.precision == MCP_FLOAT;
  if (!single || j->qmc) /* float draws its own normals, but rounds QMC's */
    c.z = malloc(ne * tile * sizeof *c.z);
  c.pay = malloc(mcpi_job_pay_columns(j) * tile * sizeof *c.pay);
  c.pass = malloc((j->npass ? j->npass : 1) * sizeof *c.pass);
  c.off = mcpi_job_term_offsets(j);
  int ok = (c.z || (single && !j->qmc)) && c.pay && c.pass && c.off;
  for (size_t p = 0; ok && p < j->npass; p++)
    c.pass[p] = mcpi_job_host_view(mcpi_pass_job(run, ji, p));
  if (single)
    ok = ok && (c.zf = malloc(ne * tile * sizeof *c.zf));
  if (j->qmc) {
    c.dirs = mcpi_sobol_directions();
    c.consts = mcpi_sobol_scrambles();
    if (!c.dirs || !c.consts) {
      free(c.z);
      free(c.pay);
      free(c.zf);
      free(c.pass);
      free(c.off);
      return mcpi_fail(ctx->err, MCP_ERR_DEVICE, "cuRAND has no Sobol direction vectors");
    }
    ok = ok && (c.zq = malloc(ne * tile * sizeof *c.zq)) &&
         (c.scramble = malloc(ne * sizeof *c.scramble));
  }
  mcp_status st = ok ? MCP_OK
                     : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY,
                                 "out of host memory for a tile of %zu paths x %zu normals",
                                 tile, ne);
  mcpi_tiler t = {&c, tile, fill, paths, sums, read, update_specs};
  if (st == MCP_OK)
    st = mcpi_run_job(run, ji, &t);
  free(c.z);
  free(c.zq);
  free(c.zf);
  free(c.pay);
  free(c.scramble);
  free(c.pass);
  free(c.off);
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
