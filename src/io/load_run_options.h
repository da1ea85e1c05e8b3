/* load_run_options.h: the run object of a portfolio file, shared by the
 * run options' loader and the portfolio's (doc/input-schema.md). */
#ifndef MCP_LOAD_RUN_OPTIONS_H
#define MCP_LOAD_RUN_OPTIONS_H

#include "src/io/load_json.h"
#include "src/inputs/run_options.h"

/* Every key of a run object: the book's (paths, seed, ...) and the run
 * options'. */
extern const char *const mcpi_run_keys[];
extern const size_t mcpi_nrun_keys;
extern const char *const mcpi_pde_keys[];
extern const size_t mcpi_npde_keys;

/* The names of the normals' modes and of the prefetch strategies. */
extern const mcpi_json_choice mcpi_normals_choices[];
extern const mcpi_json_choice mcpi_strategy_choices[];
/* A prefetch distance of obj (key "prefetch_distance") into *out, where
 * given or required. */
mcp_status mcpi_json_distance(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                              int required, int *out);
/* The padding of obj (key "padding": an integer of 0 to 32, or
 * "interleaved") into *out, where given or required. */
mcp_status mcpi_json_padding(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             int required, int *out);

/* The options that the run object of the book d gives, into the
 * mcp_run_options target (a loader's fill, load_json.h). */
mcp_status mcpi_run_options_fill(const mcpi_json_doc *d, void *target);
/* The options that the run object run (at run_path, checked to be an object
 * of known keys) gives, into o. */
mcp_status mcpi_read_run_options(const mcpi_json_doc *d, const mcpi_json_path *run_path,
                                 json_t *run, mcp_run_options *o);

#endif
