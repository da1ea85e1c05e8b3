/* run_options.h: how a run computes, apart from what it prices (internal
 * view of mcp_run_options and of the settings a pricing call resolves). */
#ifndef MCP_RUN_OPTIONS_H
#define MCP_RUN_OPTIONS_H

#include "src/base/error.h"

#define MCPI_DEFAULT_BLOCK 128 /* threads a CUDA block */

/* Which options a caller gave; an option not given takes its default. */
enum {
  MCPI_OPT_PRECISION = 1u << 0,
  MCPI_OPT_NORMALS = 1u << 1,
  MCPI_OPT_PREFETCH = 1u << 2,
  MCPI_OPT_PLACEMENT = 1u << 3,
  MCPI_OPT_PDE = 1u << 4,
  MCPI_OPT_BACKEND = 1u << 5,
  MCPI_OPT_DEVICES = 1u << 6,
  MCPI_OPT_TILE = 1u << 7,
  MCPI_OPT_BLOCK = 1u << 8,
  MCPI_OPT_GRID_CHECK = 1u << 9,
  MCPI_OPT_EXERCISE_BOUNDARY = 1u << 10
};

/* The options a run's kernels and grids follow. */
typedef struct mcpi_settings {
  unsigned given; /* MCPI_OPT_ bits */
  mcp_precision precision;
  mcp_normals normals;
  mcp_prefetch prefetch;
  int distance, padding; /* of the prefetch strategy */
  mcp_placement placement;
  mcp_pde_settings pde; /* the grid's numerics */
  int grid_check;       /* the discretisation check (grid_check.h), on by default */
  int exercise_boundary; /* report the early-exercise trades' boundaries (boundary.h) */
} mcpi_settings;

struct mcp_run_options {
  mcpi_settings s; /* s.given holds every option's bit, the context's too */
  mcp_backend backend;
  int devices[MCP_MAX_DEVICES];
  size_t ndevices;
  uint64_t tile_paths;
  int block;
  char err[MCPI_ERRLEN];
};

/* Every setting at its default, none given. */
void mcpi_settings_init(mcpi_settings *s);

/* A run's settings: each one ctx's where given there, else book's (a
 * portfolio's deprecated ones, from its file's run object or setters),
 * else the default. */
void mcpi_settings_resolve(const mcpi_settings *ctx, const mcpi_settings *book,
                           mcpi_settings *out);

/* Checked setters, shared by the run options and the deprecated portfolio
 * setters: MCP_ERR_ARGUMENT with a message in err for a bad value. */
mcp_status mcpi_settings_precision(mcpi_settings *s, mcp_precision x, char *err);
mcp_status mcpi_settings_normals(mcpi_settings *s, mcp_normals x, char *err);
mcp_status mcpi_settings_prefetch(mcpi_settings *s, mcp_prefetch x, int distance, int padding,
                                  char *err);
mcp_status mcpi_settings_placement(mcpi_settings *s, mcp_placement x, char *err);
mcp_status mcpi_settings_pde(mcpi_settings *s, const mcp_pde_settings *x, char *err);
mcp_status mcpi_check_backend(mcp_backend b, char *err);
mcp_status mcpi_settings_grid_check(mcpi_settings *s, int on, char *err);
mcp_status mcpi_settings_exercise_boundary(mcpi_settings *s, int on, char *err);
/* s's prefetch strategy, distance and padding (the defaults for NULL). */
void mcpi_settings_get_prefetch(const mcpi_settings *s, mcp_prefetch *strategy, int *distance,
                                int *padding);

#endif
