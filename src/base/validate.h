/* validate.h: the one definition of what a valid input value is, shared by the
 * builder calls and the file readers.  Each check returns NULL when the value
 * is valid and otherwise a phrase saying what was expected. */
#ifndef MCP_VALIDATE_H
#define MCP_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#define MCPI_MAX_MATURITY 100.0   /* years */
#define MCPI_MAX_VOLATILITY 10.0  /* 1000% a year */
#define MCPI_MAX_RATE 1.0         /* |rate| and |dividend| */
#define MCPI_MAX_FIXINGS 100000
#define MCPI_MAX_PATHS (UINT64_C(1) << 40)
#define MCPI_MAX_STEPS_PER_YEAR 100000u
#define MCPI_MAX_ID 128        /* characters */
#define MCPI_MAX_ID_BYTES 512  /* of UTF-8: a name's buffer */
#define MCPI_MAX_SURFACE 1024     /* times, and spots, of a local-volatility surface */
#define MCPI_MAX_CASH_DIVIDENDS 1000
#define MCPI_PDE_MIN_POINTS 16u
#define MCPI_PDE_MAX_POINTS 65536u
#define MCPI_PDE_MAX_STEPS 100000u

const char *mcpi_check_name(const char *s);
/* The UTF-8 character at *p (not NUL), *p moved past it; UINT32_MAX, *p
 * left, for a byte sequence that is not one (overlong, a surrogate). */
uint32_t mcpi_utf8_next(const unsigned char **p);
const char *mcpi_check_spot(double x);
const char *mcpi_check_rate(double x);
const char *mcpi_check_volatility(double x);
const char *mcpi_check_strike(double x);
const char *mcpi_check_maturity(double x);
const char *mcpi_check_finite(double x);
const char *mcpi_check_quantity(double x);
const char *mcpi_check_variance(double x);    /* Heston v0, theta */
const char *mcpi_check_positive(double x);    /* Heston kappa, xi */
const char *mcpi_check_correlation(double x);
const char *mcpi_check_intensity(double x);   /* Merton lambda */
const char *mcpi_check_jump_mean(double x);
const char *mcpi_check_cash(double x);
/* A currency: three capital letters (ISO 4217); an FRTB equity bucket. */
const char *mcpi_check_currency(const char *s);
const char *mcpi_check_frtb_bucket(uint64_t b);
/* Fixing times: 1..MCPI_MAX_FIXINGS strictly increasing times in (0, maturity]. */
const char *mcpi_check_fixings(size_t n, const double *t, double maturity);
const char *mcpi_check_paths(uint64_t n);
const char *mcpi_check_steps_per_year(uint64_t n);
/* Explicit grid: strictly increasing times in (0, MCPI_MAX_MATURITY]. */
const char *mcpi_check_grid(size_t n, const double *t);
/* The finite-difference settings (mcp_pde_settings). */
const char *mcpi_check_stencil_points(uint64_t n);
const char *mcpi_check_space_points(uint64_t n);
const char *mcpi_check_time_steps(uint64_t n);
const char *mcpi_check_rannacher(uint64_t n);
const char *mcpi_check_width(double w);
const char *mcpi_check_coarsening(uint64_t c);
/* The run's tiles and blocks (mcp_run_options, mcp_context). */
const char *mcpi_check_tile_paths(uint64_t n);
const char *mcpi_check_block_size(int threads);

#endif
