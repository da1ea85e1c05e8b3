/* mcprice.h: public interface of libmcprice, a Monte Carlo pricing engine for
 * equity derivatives with a CUDA and a CPU backend.
 *
 * Conventions (as in GSL and cuRAND): every call that can fail returns an
 * mcp_status; objects are opaque handles created by *_create or *_load and
 * released by *_destroy (which accept NULL); a failing call on a handle keeps
 * a detailed message readable through that handle's *_last_error().  Every
 * call that returns a status other than MCP_OK, with a handle or without
 * (mcp_context_create, a NULL argument), also leaves its message in
 * mcp_last_error(), one for each thread.  The library never prints, exits or
 * aborts.
 *
 * Threads.  No call changes global state (mcp_last_error's is the calling
 * thread's own), so:
 *   - a context is used by one thread at a time; separate contexts price at
 *     once, on the CPU backend or on one GPU (tests/test_threads.c: 8 threads,
 *     8 contexts, one book, every result equal to a serial run's);
 *   - the pricing calls read markets, portfolios, scenario sets and Greek
 *     requests, and the context calls read run options (copying them), and
 *     never change them: once built, one may be passed to any number of
 *     concurrent calls; changing one (a *_set or *_add call, or a
 *     failing call that records its error) while another thread reads it is
 *     a data race;
 *   - results are immutable: read them from any thread, destroy them once;
 *   - the progress callback runs on the thread that called mcp_price, after
 *     each tile (and on the CPU within one, inside the OpenMP team's region,
 *     so it must return, never longjmp), never twice at once for one
 *     context;
 *   - mcp_context_cancel is the one call that may be made on a context that
 *     another thread is using (or from a signal handler), and the one a
 *     progress callback may make on the context whose call runs it.
 * The CPU backend runs an OpenMP team inside each call (OMP_NUM_THREADS sets
 * its size); with several contexts on the CPU, give each fewer threads.
 *
 * Lifetimes.  A string from a *_last_error() lives until the next call on its
 * handle or the handle's destruction; the names of enums, mcp_strerror and
 * mcp_build_info are static; trade ids and sensitivity names read from
 * results live as long as the results.  The library keeps no pointer to the
 * caller's arrays or strings after a call returns (it copies them), but for
 * the progress callback's user pointer.
 *
 * ABI.  Only mcp_ symbols are exported.  Public structs that may grow (a
 * trade, the PDE settings) come with an *_init function: call it first, so
 * that fields added later take their defaults.  The shared library's
 * libtool version (configure.ac) follows libtool's rules: a release that
 * adds interfaces increments current and age, one that removes or changes
 * any sets age to 0. */
#ifndef MCPRICE_H
#define MCPRICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MCP_VERSION_MAJOR 0
#define MCP_VERSION_MINOR 1
#define MCP_VERSION_PATCH 0
#define MCP_VERSION_STRING "0.1.0"
/* Encoded as 10000*major + 100*minor + patch, for compile-time comparisons. */
#define MCP_VERSION_NUMBER \
  (MCP_VERSION_MAJOR * 10000 + MCP_VERSION_MINOR * 100 + MCP_VERSION_PATCH)

/* Calls kept for one release after their replacement; the compiler warns
 * at each use unless MCP_ALLOW_DEPRECATED is defined before this header. */
#if defined(MCP_ALLOW_DEPRECATED) || !(defined(__GNUC__) || defined(__clang__))
#define MCP_DEPRECATED(replacement)
#else
#define MCP_DEPRECATED(replacement) __attribute__((deprecated("use " replacement)))
#endif

typedef enum mcp_status {
  MCP_OK = 0,
  MCP_ERR_ARGUMENT,    /* an API argument is NULL, out of range or unknown */
  MCP_ERR_IO,          /* a file cannot be opened, read or written */
  MCP_ERR_PARSE,       /* a file is not well-formed JSON */
  MCP_ERR_INPUT,       /* well-formed input with a missing, unknown or impossible field */
  MCP_ERR_NOT_FOUND,   /* a named trade, underlying, backend or device does not exist */
  MCP_ERR_UNAVAILABLE, /* the backend was not built in, or no GPU is present */
  MCP_ERR_NO_MEMORY,   /* host or device memory exhausted */
  MCP_ERR_DEVICE,      /* a CUDA or cuRAND call failed */
  MCP_ERR_CANCELLED    /* the call was cancelled (mcp_context_cancel) */
} mcp_status;

/* A fixed, static description of a status code. */
const char *mcp_strerror(mcp_status status);
/* Why the calling thread's last failing call failed, naming the call or the
 * file and field, and what was expected ("mcp_context_create: backend
 * cuda: no CUDA GPU was found"), as errno: every failing call sets it; read
 * it right after one (a call that succeeds may have changed it); "" before
 * any failure.  The string is the thread's own and lives as long as it. */
const char *mcp_last_error(void);
/* Frees memory a call handed over (mcp_frtb_crif, mcp_partial_encode):
 * the library's allocator, whatever the caller's runtime.  NULL is a no-op. */
void mcp_free(void *p);

/* Run-time version of the library, e.g. "0.1.0". */
const char *mcp_version(void);
int mcp_version_number(void);

/* ---- opaque handles ---------------------------------------------------- */
typedef struct mcp_context mcp_context;
typedef struct mcp_market mcp_market;
typedef struct mcp_portfolio mcp_portfolio;
typedef struct mcp_results mcp_results;
typedef struct mcp_run_options mcp_run_options;

/* ---- enumerations ------------------------------------------------------ */
typedef enum mcp_backend {
  MCP_BACKEND_AUTO = 0, /* the GPU when one is present, else the CPU */
  MCP_BACKEND_CPU,
  MCP_BACKEND_CUDA
} mcp_backend;

typedef enum mcp_option_type { MCP_CALL = 0, MCP_PUT } mcp_option_type;

typedef enum mcp_average { MCP_ARITHMETIC = 0, MCP_GEOMETRIC } mcp_average;

/* Arithmetic of the paths.  Float halves the memory traffic, uses the GPU's
 * single-precision units and draws its own normals (four from each Philox
 * block, half the double paths' generator work): its prices agree with the
 * double ones within their standard errors, and carry float rounding (about
 * 1e-6 relative); payoffs and statistics stay in double.  Mixed steps the
 * double paths (state, sums, payoffs) on the double paths' own normals, each
 * transformed in float from the same Philox block (the top 32 bits of each
 * uniform; the GPU's hardware logarithm, sine and cosine), and a job of
 * Black-Scholes sums alone takes its fixings' exp to float's accuracy: the
 * normals are double's within about 1e-6 (1 + |z|), so mixed prices are
 * double's to about 1e-6 relative, far inside their standard errors, at
 * less of the double transform's cost.  Its CPU and GPU prices agree to
 * float rounding, as float's do, not to the bit; so do, on one backend,
 * such a job's prices with on-path or in-path Greeks and without (their
 * kernels take double's exp); it has no adjoint (as float). */
typedef enum mcp_precision { MCP_DOUBLE = 0, MCP_FLOAT, MCP_MIXED } mcp_precision;

/* How the GPU path kernel brings each step's inputs (the path's normal and
 * the step's coefficients) into registers.  Every strategy computes the same
 * numbers, bit for bit; they differ in speed only.  The CPU backend ignores
 * them.
 *   none            the plain loop
 *   unroll          the step loop unrolled by a compile-time factor (the distance)
 *   scalar-batch    every D steps, the next D steps' inputs loaded into registers
 *   smem-batch      the same, the normals in shared memory
 *   scalar-rolling  a ring of D registers, refilled one step at a time
 *   smem-rolling    the ring of normals in shared memory
 *   smem-async      the shared ring refilled by asynchronous copies (cp.async)
 * D, the prefetch distance, is one of 1, 2, 4, 6, 8, 12, 16.  Shared-memory
 * variants give each thread a slot of D + padding values (padding 0 to 32;
 * D + padding odd avoids bank conflicts) or, with MCP_PADDING_INTERLEAVED,
 * store slot element u of thread t at u x block + t, conflict-free without
 * padding. */
typedef enum mcp_prefetch {
  MCP_PREFETCH_NONE = 0,
  MCP_PREFETCH_UNROLL,
  MCP_PREFETCH_SCALAR_BATCH,
  MCP_PREFETCH_SMEM_BATCH,
  MCP_PREFETCH_SCALAR_ROLLING,
  MCP_PREFETCH_SMEM_ROLLING,
  MCP_PREFETCH_SMEM_ASYNC
} mcp_prefetch;
#define MCP_PADDING_INTERLEAVED (-1)

/* Parses "double", "float" or "mixed"; MCP_ERR_NOT_FOUND for any other name. */
mcp_status mcp_precision_from_name(const char *name, mcp_precision *out);
const char *mcp_precision_name(mcp_precision precision);
/* Parses a strategy name above; MCP_ERR_NOT_FOUND for any other name. */
mcp_status mcp_prefetch_from_name(const char *name, mcp_prefetch *out);
const char *mcp_prefetch_name(mcp_prefetch strategy);

/* Parses "auto", "cpu" or "cuda"; MCP_ERR_NOT_FOUND for any other name,
 * MCP_ERR_ARGUMENT for NULL. */
mcp_status mcp_backend_from_name(const char *name, mcp_backend *out);
const char *mcp_backend_name(mcp_backend backend);

/* ---- devices and build ------------------------------------------------- */
typedef struct mcp_device_info {
  char name[256];
  int compute_major, compute_minor;
  int multiprocessors;
  size_t global_memory; /* bytes */
} mcp_device_info;

/* Whether the CUDA backend was compiled in. */
int mcp_cuda_built(void);
/* Number of usable CUDA devices; 0 when none is present or the backend is not built. */
int mcp_device_count(void);
mcp_status mcp_device_get_info(int device, mcp_device_info *info);
/* One line describing the build: version, CUDA architectures, OpenMP. */
const char *mcp_build_info(void);

/* ---- context: backend, device and kernel options ----------------------- */
mcp_status mcp_context_create(mcp_context **ctx, mcp_backend backend);
void mcp_context_destroy(mcp_context *ctx);
/* The backend actually used (never MCP_BACKEND_AUTO). */
mcp_backend mcp_context_backend(const mcp_context *ctx);
/* Paths per tile (a multiple of MCP_CHUNK_PATHS; 0 = sized to memory). Prices
 * do not depend on it. */
#define MCP_CHUNK_PATHS 256
mcp_status mcp_context_set_tile_paths(mcp_context *ctx, uint64_t paths);
/* Threads per CUDA block (a multiple of 32 from 32 to 1024; default 128).
 * Prices do not depend on it. */
mcp_status mcp_context_set_block_size(mcp_context *ctx, int threads);
/* CUDA device ordinal (default 0); the context's one device from then on. */
mcp_status mcp_context_set_device(mcp_context *ctx, int device);
/* Runs every pricing call of the context on the n devices listed (CUDA
 * ordinals; a device may be listed more than once, and the CPU backend's
 * one device is 0, each listing a worker): the work is cut into
 * MCP_SLICES_PER_DEVICE slices a device (mcp_price_slice), which the
 * devices take one after another as each becomes free, on threads of their
 * own, and which are merged (mcp_partials_merge): the results are those of
 * one device to the bit.  The progress callback runs on the calling thread.
 * Each listing's worker keeps its streams and device buffers from call to
 * call, as a context does its own, until the devices are set again, a
 * device fails or runs out of memory (MCP_ERR_DEVICE, MCP_ERR_NO_MEMORY) or
 * the context is destroyed; the context's own buffers go when n > 1.
 * n = 1 is mcp_context_set_device(ctx, devices[0]). */
#define MCP_MAX_DEVICES 64
#define MCP_SLICES_PER_DEVICE 4
mcp_status mcp_context_set_devices(mcp_context *ctx, size_t n, const int *devices);
/* Called with the fraction of the work done: after each tile, and on the
 * CPU within a tile too, at least every MCP_PROGRESS_SECONDS while it runs
 * paths (a GPU's tile, sized to its memory, is reported whole; several
 * devices report a slice at a time).  Never more than 1: a call whose
 * early exercise is floored to its European, with Greeks by adjoint,
 * prices again for that European's sweep (README) and reports 1 meanwhile. */
#define MCP_PROGRESS_SECONDS 0.1
typedef void (*mcp_progress_fn)(double fraction, void *user);
mcp_status mcp_context_set_progress(mcp_context *ctx, mcp_progress_fn fn, void *user);
/* Asks the pricing call running on ctx to stop.  The call checks before
 * each tile (the CPU also before each chunk of a tile's paths and each
 * grid), so it stops within one tile: it returns MCP_ERR_CANCELLED with
 * its results NULL, nothing written, and the context as it was (its next
 * call prices as a fresh context would).  Safe from any thread, from the
 * progress callback and from a signal handler (one lock-free atomic
 * store).  Every pricing call also checks as it starts, so a request made
 * while no call runs stops the next call on ctx; every pricing call clears
 * the request as it returns, so one that comes after a call's last check
 * is dropped, and the call returns its results.  MCP_ERR_ARGUMENT for
 * NULL. */
mcp_status mcp_context_cancel(mcp_context *ctx);
const char *mcp_context_last_error(const mcp_context *ctx);

/* ---- market: underlyings and their models ------------------------------ */
mcp_status mcp_market_create(mcp_market **market);
/* Loads a market file (JSON, schema in the README); on failure *market is
 * NULL and, when err is not NULL, a message naming the file, line, column
 * and field is copied into err (at most errlen bytes). */
mcp_status mcp_market_load(mcp_market **market, const char *path, char *err, size_t errlen);
/* The same from len bytes of text in memory, which messages call name. */
mcp_status mcp_market_load_text(mcp_market **market, const char *name, const char *text,
                                size_t len, char *err, size_t errlen);
void mcp_market_destroy(mcp_market *market);
/* Black-Scholes underlying: spot > 0, continuously compounded rate and
 * dividend yield, volatility >= 0 (all annualised). */
mcp_status mcp_market_add_black_scholes(mcp_market *market, const char *name, double spot,
                                        double rate, double dividend, double volatility);
/* Heston (1993) stochastic volatility: initial variance v0 >= 0, mean
 * reversion kappa > 0 to the long-run variance theta > 0, volatility of
 * variance xi > 0, correlation rho in [-1, 1].  The Feller condition
 * 2 kappa theta >= xi^2 is not required.  The scheme is a run setting
 * (mcp_portfolio_set_heston_scheme). */
mcp_status mcp_market_add_heston(mcp_market *market, const char *name, double spot, double rate,
                                 double dividend, double v0, double kappa, double theta,
                                 double xi, double rho);
/* Merton (1976) jump-diffusion: Black-Scholes with Poisson jumps of
 * intensity lambda >= 0 (a year) whose log sizes are normal (jump_mean,
 * jump_vol^2); the drift is compensated so that the discounted spot is a
 * martingale. */
mcp_status mcp_market_add_merton(mcp_market *market, const char *name, double spot, double rate,
                                 double dividend, double volatility, double lambda,
                                 double jump_mean, double jump_vol);
/* Local volatility (Dupire 1994): dS/S = (r - q) dt + sigma(t, S) dW with
 * sigma given at ntimes times (strictly increasing, 0 to 100 years) and
 * nspots spots (strictly increasing, > 0), 1 to 1024 of each:
 * values[i * nspots + k] = sigma(times[i], spots[k]), each in [0, 10].
 * Between the nodes sigma is linear in time and in log-spot, and flat beyond
 * the grid.  Paths follow log-Euler on the run's grid, each step with the
 * volatility of the path's spot at the step's start (at each spot node, the
 * root mean square over the step: exact for a surface of time alone): the
 * discretisation
 * error shrinks with steps_per_year.  Rate and dividend curves may be set
 * (mcp_market_set_curve); a volatility curve may not.  Monte Carlo only; the
 * Greeks by revaluation (vega: the whole surface shifted). */
mcp_status mcp_market_add_local_vol(mcp_market *market, const char *name, double spot,
                                    double rate, double dividend, size_t ntimes,
                                    const double *times, size_t nspots, const double *spots,
                                    const double *values);
/* Discrete cash dividends of a Black-Scholes underlying (replacing any set
 * before; n = 0 removes them): amounts[i] >= 0 paid at times[i] (strictly
 * increasing, in (0, 100]).  At each time the spot drops by the amount,
 * floored at 0; fixings at that time see the spot after the drop.  With the
 * continuous yield (dividend) both apply.  Multi-asset products refuse
 * underlyings with cash dividends.  The Monte Carlo Greeks of such an
 * underlying's trades are estimated by revaluation, or by adjoint where
 * buckets or dividend sensitivities are asked and the trade has one
 * (mcp_greeks_set_buckets; with both, each amount's sensitivity,
 * "dividend@t=0.3"); the finite-difference grid (Europeans,
 * Americans, barriers) jumps across each dividend at the end of its nearest
 * time step. */
mcp_status mcp_market_set_cash_dividends(mcp_market *market, const char *name, size_t n,
                                        const double *times, const double *amounts);
/* A Black-Scholes implied volatility sigma(strike, maturity), smooth in both
 * (the helper below differentiates it), for maturities > 0. */
typedef double (*mcp_implied_fn)(double strike, double maturity, void *arg);
/* Fills values[i * nspots + k] with the local volatility at (times[i],
 * spots[k]) that reprices the Europeans of the implied surface, for spot and
 * flat rate and dividend: Dupire's formula in total implied variance, by
 * central differences (steps 1e-3 in log-moneyness and 1e-3 x t in time;
 * times below 1/365 are taken at 1/365).  The result feeds
 * mcp_market_add_local_vol.  MCP_ERR_INPUT, with the node named in err
 * (errlen bytes, may be NULL), where the implied surface admits arbitrage
 * (no local volatility there); MCP_ERR_ARGUMENT for NULL arrays. */
mcp_status mcp_local_vol_from_implied(double spot, double rate, double dividend,
                                      mcp_implied_fn implied, void *arg, size_t ntimes,
                                      const double *times, size_t nspots, const double *spots,
                                      double *values, char *err, size_t errlen);

/* A European option under Heston (the model of mcp_market_add_heston, with
 * flat rate and dividend yield) into *price: Lewis's (2001) single integral
 * along Im z = -1/2 of the characteristic function in the "little trap" form
 * of Albrecher, Mayer, Schoutens and Tistaert (2007), stable at every
 * maturity, by Gauss-Legendre panels to a tail below 1e-14 of the forward;
 * the put by parity.  MCP_ERR_INPUT, with the field named in err (errlen
 * bytes, may be NULL), for a value outside mcp_market_add_heston's ranges
 * (and a strike > 0, a maturity in (0, 100]) or an integral that does not
 * converge; MCP_ERR_ARGUMENT for a bad type or a NULL price. */
mcp_status mcp_heston_european(mcp_option_type type, double spot, double strike,
                               double maturity, double rate, double dividend, double v0,
                               double kappa, double theta, double xi, double rho, double *price,
                               char *err, size_t errlen);

/* ---- calibration ---------------------------------------------------------
 * A surface of Black implied volatilities as a desk quotes it: maturities
 * by strikes, a volatility for each point or NAN where none is quoted, on
 * an underlying of a market whose spot, rate and dividend curves give the
 * forwards (its own model plays no part).  mcp_quotes_load reads it from a
 * JSON file: {"underlying": NAME, "maturities": [...] (years, or dates by
 * the market's valuation date), "strikes": [...] or "moneyness": [...]
 * (strike over spot), "volatilities": [[...], ...] (a row a maturity, null
 * where not quoted)}; errors name the file, line, column and field.  A file
 * named .csv holds one quote a row instead (columns underlying, maturity,
 * strike or moneyness, volatility; any order; a point quoted twice is an
 * error), its errors naming the row and column. */
typedef struct mcp_quotes {
  char *underlying;
  size_t nmaturities, nstrikes;
  double *maturities; /* strictly increasing, in (0, 100] */
  double *strikes;    /* strictly increasing, > 0 */
  double *vols;       /* vols[i * nstrikes + k] in (0, 10], or NAN */
} mcp_quotes;
mcp_status mcp_quotes_load(const char *path, const mcp_market *market, mcp_quotes *out,
                           char *err, size_t errlen);
mcp_status mcp_quotes_load_text(const char *name, const char *text, size_t len,
                                const mcp_market *market, mcp_quotes *out, char *err,
                                size_t errlen);
/* Frees what mcp_quotes_load allocated (not a caller's own arrays). */
void mcp_quotes_free(mcp_quotes *quotes);

/* Gives Black-Scholes underlying name the implied volatilities of quotes
 * (absolute strikes; quotes->underlying is not read), making it a
 * local-volatility one: each maturity's quotes get Gatheral's SVI smile
 * in forward moneyness log(K / F(T)) (least squares in the volatilities,
 * wings within Lee's bound), total variance is linear in maturity between
 * the smiles at fixed forward moneyness (before the first maturity, its
 * smile's implied volatilities; after the last, its smile plus its
 * at-the-money variance rate times the time beyond), and the paths follow
 * Dupire's local volatility of that surface on a grid of 201 spots by 8
 * times an interval between maturities (beyond the quotes, in moneyness or
 * after the last maturity, where Dupire has none, the nearest node's).  A
 * European on the underlying is priced in closed form at its strike's and
 * maturity's implied volatility, whatever the portfolio's default engine,
 * unless the trade names its method.  The forwards are those of the spot and of
 * the rate and dividend curves set before (set them first: later ones are
 * refused), and stay under the Greeks' and scenarios' shifts (sticky
 * strike); a volatility shift moves every implied and local volatility
 * alike.  1 to 100 maturities, each with 5 or more volatilities in
 * (0, 10] (or one, a flat smile; NAN where none).  MCP_ERR_INPUT, the
 * maturity and strikes named, where the quotes admit arbitrage (calls on
 * the forward, from C(0) = F, rising, falling faster than 1:1 or not convex
 * in strike; total variance falling in maturity), where the smile passes more than 2
 * volatility points from a quote, or where the surface has no local
 * volatility inside the quotes; cash dividends are refused. */
mcp_status mcp_market_set_implied_volatility(mcp_market *market, const char *name,
                                             const mcp_quotes *quotes);

/* The models a fit gives, and their parameters in order:
 *   MCP_FIT_HESTON  v0, kappa, theta, xi, rho (mcp_market_add_heston), kept
 *                   in [1e-6, 4], [1e-3, 50], [1e-6, 4], [1e-3, 5],
 *                   [-0.999, 0.999];
 *   MCP_FIT_MERTON  volatility, lambda, jump_mean, jump_vol
 *                   (mcp_market_add_merton), kept in [1e-3, 3], [0, 20],
 *                   [-2, 2], [1e-3, 2]. */
typedef enum mcp_fit_model { MCP_FIT_HESTON = 0, MCP_FIT_MERTON } mcp_fit_model;
/* "heston", "merton"; MCP_ERR_NOT_FOUND for any other name. */
mcp_status mcp_fit_model_from_name(const char *name, mcp_fit_model *out);
const char *mcp_fit_model_name(mcp_fit_model model);
/* The name of parameter k of model ("v0", ...), or NULL past the last. */
const char *mcp_fit_param_name(mcp_fit_model model, size_t k);

typedef struct mcp_fit {
  mcp_fit_model model;
  size_t nparams;
  double params[5];
  size_t quotes;       /* the quoted points fitted */
  double rmse;         /* root mean square of fitted less quoted volatility, in
                          volatility points (0.01) */
  double max_error;    /* the largest such difference, in volatility points */
  unsigned iterations; /* Levenberg-Marquardt's */
  int converged;       /* 1: the linear model found nothing more to gain, or the
                          residuals fell below 1e-8 in volatility; 0: the fit
                          stopped at 500 iterations or after 10 refused steps */
  unsigned at_bound;   /* bit k: parameter k ended at an end of its range */
} mcp_fit;

/* Fits model to quotes by Levenberg-Marquardt on the quotes' out-of-the-money
 * prices, each difference weighted by the quote's Black vega (volatility
 * errors to first order), from a start read off the surface (its short and
 * long at-the-money variances, the skew's sign); Heston by the analytic
 * gradient of mcp_heston_european's integral, Merton by differences of its
 * closed form; a parameter that reaches an end of its range stays there
 * while the step would push it further.  Each quoted point's fitted
 * volatility goes to model_vols[i * nstrikes + k] (NAN where not quoted)
 * when it is not NULL.  MCP_ERR_INPUT naming the field for quotes out of
 * their ranges, an underlying not in the market or with cash dividends,
 * fewer quotes than parameters, a model that cannot price the quotes from
 * its start, or a fitted price without a Black volatility (naming the
 * quote); MCP_ERR_ARGUMENT for NULL arguments. */
mcp_status mcp_calibrate(const mcp_market *market, const mcp_quotes *quotes,
                         mcp_fit_model model, mcp_fit *fit, double *model_vols, char *err,
                         size_t errlen);

/* The market file text (len bytes, named name in errors) with the quotes'
 * underlying made the fitted model: "model" and its parameters set, every
 * other model's field and its volatility curve removed, its spot, rate and
 * dividend curves kept, and the rest of the file byte for byte; into *out
 * (NUL-terminated, *outlen bytes; free with mcp_free).  MCP_ERR_INPUT where
 * the text is not a market with that underlying or the result is no market
 * (a Merton underlying that the market correlates); MCP_ERR_ARGUMENT for a
 * fit whose count or values are not the model's. */
mcp_status mcp_market_text_fitted(const char *name, const char *text, size_t len,
                                  const char *underlying, const mcp_fit *fit, char **out,
                                  size_t *outlen, char *err, size_t errlen);

/* Piecewise-constant term structures.  value[i] applies on (end[i-1], end[i]]
 * (end[-1] = 0) and the last value beyond end[n-1]; ends strictly increase.
 * The curve replaces the underlying's flat value.  The volatility curve is
 * that of the diffusion (Black-Scholes and Merton; not Heston).  The repo
 * rate's (each value in [-1, 1]) adds to the dividend yield in the
 * forward's carry, S exp(int r - q - repo): set once, after the dividend's
 * curve (MCP_ERR_INPUT otherwise); the dividend's Greeks move both. */
typedef enum mcp_curve {
  MCP_CURVE_RATE = 0, MCP_CURVE_DIVIDEND, MCP_CURVE_VOLATILITY, MCP_CURVE_REPO
} mcp_curve;
mcp_status mcp_market_set_curve(mcp_market *market, const char *underlying, mcp_curve which,
                                size_t n, const double *end, const double *value);

/* The same from a curve's pillars, as a desk quotes it: discount factors
 * df[i] > 0 at the n strictly increasing times t[i] in (0, 100],
 * interpolated log-linearly (so that the forward rate is constant between
 * pillars, and beyond the last one as on the last interval).  which:
 * MCP_CURVE_RATE (the discount curve), or MCP_CURVE_DIVIDEND, whose "discount
 * factors" are exp(-integral of the yield): the forward price F(t) over
 * spot times the rate's discount factor.  Each forward must be a rate in
 * [-1, 1] (MCP_ERR_INPUT naming the pillar). */
mcp_status mcp_market_set_curve_pillars(mcp_market *market, const char *underlying,
                                        mcp_curve which, size_t n, const double *t,
                                        const double *df);
/* The same interpolated as how says: MCP_LOG_LINEAR (the above), or
 * MCP_LINEAR_ZERO: the zero rates z[i] = -log(df[i]) / t[i] (each in [-1,
 * 1]) linear in time between pillars, flat before the first and beyond the
 * last; the forward rate is then linear between pillars, each in [-1, 1] at
 * their ends (MCP_ERR_INPUT otherwise), and the engine integrates it
 * exactly. */
typedef enum mcp_interpolation { MCP_LOG_LINEAR = 0, MCP_LINEAR_ZERO } mcp_interpolation;
mcp_status mcp_market_set_curve_interpolated(mcp_market *market, const char *underlying,
                                             mcp_curve which, size_t n, const double *t,
                                             const double *df, mcp_interpolation how);

/* Correlations of n Brownian motions (2 <= n <= 2 MCP_MAX_ASSETS), each
 * named by a Black-Scholes, Heston or local-volatility underlying (its
 * spot's) or by
 * "NAME:variance" (a Heston underlying's variance's): matrix is n x n,
 * row-major, symmetric with a unit diagonal, positive definite (checked by
 * its Cholesky factorisation; MCP_ERR_INPUT naming the first failing row
 * otherwise), and a Heston underlying's own spot and variance correlate by
 * its rho.  Pairs never set are uncorrelated.  Basket, best-of, worst-of,
 * Himalaya and autocallable trades on several assets simulate Black-Scholes,
 * local-volatility (each asset on its own surface) or Heston underlyings, one
 * model throughout (Heston: each asset's QE or Euler step on drivers
 * correlated as its Brownian motions are, the 2 n Brownian motions jointly
 * positive definite: MCP_ERR_INPUT when pricing otherwise); American and
 * Bermudan baskets, best-of and worst-of options too, under each model. */
#define MCP_MAX_ASSETS 16
mcp_status mcp_market_set_correlation(mcp_market *market, size_t n, const char *const *names,
                                      const double *matrix);
/* What the regulatory view (mcp_price_frtb) needs of an underlying: the
 * currency of its prices and rate curve (three capital letters, ISO 4217)
 * and its FRTB equity bucket (1 to 13, MAR21.72: by market cap, economy and
 * sector; 12 and 13 the indices), which gives its risk weight.  currency
 * NULL or bucket 0 leaves that one as it is.  Pricing does not read them. */
#define MCP_FRTB_EQ_BUCKETS 13
mcp_status mcp_market_set_classification(mcp_market *market, const char *underlying,
                                         const char *currency, int frtb_bucket);
/* Dates (doc/input-schema.md "Dates").  The valuation date (YYYY-MM-DD,
 * 1900 to 2199) and the day count (ACT/365F, ACT/360, ACT/ACT ISDA, 30/360
 * or BUS/252; NULL: the market's, or ACT/365F where it has none) by which a
 * date becomes a time in years from it; BUS/252 counts the business days of
 * [valuation, date) of the market's calendar (a market file's "calendar",
 * else Saturdays and Sundays alone are holidays), whose business day the
 * valuation date must then be.  A portfolio loaded with
 * the market (mcp_portfolio_load_for) may then give dates wherever it gives
 * times. */
mcp_status mcp_market_set_valuation_date(mcp_market *market, const char *date,
                                         const char *day_count);
/* The date (YYYY-MM-DD, into date: 11 bytes) whose time from the market's
 * valuation date is years by its day count, as mcp_market_year_fraction
 * gives it (within 1e-9 years), where several dates share it (a weekend's
 * under BUS/252, a 31st's under 30/360) the first business day of them;
 * MCP_ERR_INPUT, date "", where the market has no valuation date or no
 * date is at that time. */
mcp_status mcp_market_date_of(const mcp_market *market, double years, char *date);
/* The time in years from the market's valuation date to date, by day_count
 * or, where NULL, the market's: what a trade built by the calls below takes
 * (MCP_ERR_INPUT where the market has no valuation date; a message in err,
 * errlen bytes, may be NULL: the market is not written to). */
mcp_status mcp_market_year_fraction(const mcp_market *market, const char *date,
                                    const char *day_count, double *years, char *err,
                                    size_t errlen);
size_t mcp_market_size(const mcp_market *market);
const char *mcp_market_last_error(const mcp_market *market);

/* ---- portfolio: trades and what their prices mean ----------------------- */
mcp_status mcp_portfolio_create(mcp_portfolio **portfolio);
/* A book from a JSON file (doc/input-schema.md) or, where the name ends in
 * .csv, a CSV file of trades: a header of trade fields, one trade a row,
 * its cells the JSON fields' values (empty: left out; A;B;C an array;
 * FIRST..LAST/N or FIRST..LAST/FREQUENCY a schedule; [...] or {...} JSON),
 * its errors naming the row (its line) and the column; the run's settings
 * then the defaults (mcp_run_options_load reads none from it). */
mcp_status mcp_portfolio_load(mcp_portfolio **portfolio, const char *path, char *err,
                              size_t errlen);
/* The same from len bytes of text in memory, which messages call name. */
mcp_status mcp_portfolio_load_text(mcp_portfolio **portfolio, const char *name,
                                   const char *text, size_t len, char *err, size_t errlen);
/* The same, the file's dates turned into times by market's valuation date,
 * day count and calendars (mcp_market_set_valuation_date); market NULL, or
 * without a valuation date, as mcp_portfolio_load, where a date is an
 * error.  The portfolio keeps the times alone: it does not refer to market. */
mcp_status mcp_portfolio_load_for(mcp_portfolio **portfolio, const mcp_market *market,
                                  const char *path, char *err, size_t errlen);
mcp_status mcp_portfolio_load_text_for(mcp_portfolio **portfolio, const mcp_market *market,
                                       const char *name, const char *text, size_t len,
                                       char *err, size_t errlen);
void mcp_portfolio_destroy(mcp_portfolio *portfolio);
/* European option paying at maturity (years). quantity may be negative (short). */
mcp_status mcp_portfolio_add_european(mcp_portfolio *portfolio, const char *id,
                                      const char *underlying, mcp_option_type type,
                                      double strike, double maturity, double quantity);
/* Asian option on the average of the spot at nfixings strictly increasing
 * times (years); it pays at maturity, which is not before the last fixing. */
mcp_status mcp_portfolio_add_asian(mcp_portfolio *portfolio, const char *id,
                                   const char *underlying, mcp_average average,
                                   mcp_option_type type, double strike, size_t nfixings,
                                   const double *fixings, double maturity, double quantity);

/* ---- general trades ---------------------------------------------------- */
typedef enum mcp_product {
  MCP_PRODUCT_EUROPEAN = 0, /* (S_T - K)+ or (K - S_T)+ */
  MCP_PRODUCT_DIGITAL,      /* cash or asset if S_T ends in the money */
  MCP_PRODUCT_ASIAN,        /* on the average of the fixings, fixed or floating strike */
  MCP_PRODUCT_BARRIER,      /* European knocked in or out by a barrier */
  MCP_PRODUCT_LOOKBACK,     /* on the extremum of the fixings and the spot at 0 */
  MCP_PRODUCT_BASKET,       /* on sum w_i S_i(T) of several assets */
  MCP_PRODUCT_BEST_OF,      /* on max_i S_i(T) */
  MCP_PRODUCT_WORST_OF,     /* on min_i S_i(T) */
  MCP_PRODUCT_AMERICAN,     /* (S - K)+ or (K - S)+ at any time up to maturity: on the grid,
                               or by Monte Carlo at `exercises` equally spaced dates */
  /* Path-dependent products that keep a small array per path (Monte Carlo only): */
  MCP_PRODUCT_HIMALAYA,     /* notional x (A - K)+ or (K - A)+, A the mean of the performances
                               S_i(t_k) / S_i(0) of the best remaining asset at each fixing,
                               that asset then set aside; one fixing an asset */
  MCP_PRODUCT_CLIQUET,      /* notional x min(global_cap, max(global_floor, sum of the best
                               `best` period returns S(t_k) / S(t_k-1) - 1, each clamped
                               to [local_floor, local_cap])); t_0 = 0 */
  MCP_PRODUCT_MOVING_WINDOW, /* on the average of the last `window` fixings at the last
                               fixing; knocked out (paying the rebate) when that moving
                               average crosses the barrier at a fixing, if one is set */
  MCP_PRODUCT_BERMUDAN,     /* (S - K)+ or (K - S)+ when exercised, at one of the fixings
                               (the exercise dates, the last one the maturity); Monte Carlo */
  MCP_PRODUCT_AUTOCALLABLE, /* a note on one underlying or the worst of its assets: below */
  MCP_PRODUCT_AVERAGE_DIGITAL /* cash, or the average A itself (asset-or-nothing), if the
                               average of the fixings (arithmetic or geometric) ends in the
                               money: A > K for a call, A < K for a put */
} mcp_product;
#define MCP_PRODUCT_COUNT (MCP_PRODUCT_AVERAGE_DIGITAL + 1)

/* How a trade is priced: Monte Carlo paths, a finite-difference grid (the
 * Black-Scholes PDE; European, American and continuously monitored barrier
 * options on one Black-Scholes underlying) or a closed form (European
 * options under Black-Scholes with term structures and no cash dividend
 * up to maturity, Merton and Heston: mcp_heston_european's integrals; the
 * price exact to about 1e-13 of the forward, its delta and gamma in closed
 * form, vega, rho and theta by central differences of the closed form
 * repriced in the shifted markets).  MCP_ENGINE_DEFAULT follows the
 * portfolio's default for the product (mcp_portfolio_set_engine: Monte Carlo,
 * except American options, which take the grid where it fits them and Monte
 * Carlo elsewhere).
 * American and Bermudan options by Monte Carlo follow Longstaff and Schwartz
 * (2001): the continuation value at each exercise date is regressed, on the
 * in-the-money paths only, on the basis 1, x, x^2, x^3 of x = S / K (S / S0
 * for a strike of 0), with v and x v added under Heston; on n assets
 * 1, y, y^2, y^3 of y = the payoff's underlying (basket, best or worst) / K,
 * the log-returns r_i = log(S_i / S_i(0)), their squares (n <= 8) and their
 * products r_i r_j (n <= 4).  (The payoff itself, K - y or y - K on those
 * paths, is in that span.)  The regression is fitted on
 * mcp_portfolio_set_regression_paths paths of a stream of their own and then
 * applied on the run's paths, independent of them: the price is a low-biased
 * estimate (the fitted rule is one rule, no better than the optimal one),
 * its standard error that of those paths alone.  A date fits on at least 16
 * in-the-money paths a basis function (else it holds), so that the fitted
 * continuation value errs by at most about a quarter of the cash flows'
 * spread.  The same paths price the trade held to its last date (its
 * European, another lower bound); where the fitted rule's estimate is below
 * it, the European's is the price, flagged MCP_WARNING_EXERCISE, and its
 * Greeks are the European's on the same paths.  An American by Monte Carlo
 * is a Bermudan on its exercise dates, a further O(1 / exercises) below. */
typedef enum mcp_engine {
  MCP_ENGINE_DEFAULT = -1, MCP_ENGINE_MC = 0, MCP_ENGINE_PDE, MCP_ENGINE_ANALYTIC
} mcp_engine;
/* Parses "mc", "pde" or "analytic"; MCP_ERR_NOT_FOUND for any other name. */
mcp_status mcp_engine_from_name(const char *name, mcp_engine *out);
const char *mcp_engine_name(mcp_engine engine);
/* Parses a product name of the input files ("european", ..., "american"). */
mcp_status mcp_product_from_name(const char *name, mcp_product *out);
const char *mcp_product_name(mcp_product product);

typedef enum mcp_digital { MCP_CASH_OR_NOTHING = 0, MCP_ASSET_OR_NOTHING } mcp_digital;
/* Floating strike: a call pays S_T - A (Asian) or S_T - min (lookback), a
 * put A - S_T or max - S_T. */
typedef enum mcp_strike_kind { MCP_FIXED_STRIKE = 0, MCP_FLOATING_STRIKE } mcp_strike_kind;
typedef enum mcp_barrier_kind {
  MCP_UP_AND_OUT = 0, MCP_UP_AND_IN, MCP_DOWN_AND_OUT, MCP_DOWN_AND_IN
} mcp_barrier_kind;
/* How a barrier, or a lookback's extremum, is watched:
 *   discrete  at the monitoring dates (the fixings) only (the spot today is
 *             no barrier's fixing; a lookback's extremum takes it too, but a
 *             seasoned one's);
 *   bgk       the same, with the barrier moved towards the spot by the factor
 *             exp(0.5826 sigma sqrt(dt)), dt the mean spacing of the dates,
 *             (t_n - t_1) / (n - 1) (one date: t_1) (Broadie, Glasserman and
 *             Kou 1997), to price a continuous barrier;
 *   bridge    continuously from today: on every simulation step the probability
 *             that a Brownian bridge between the step's end points crossed the
 *             barrier (exact for Black-Scholes on any grid: the job steps on
 *             its curves' knots); a lookback's maximum or
 *             minimum drawn from that bridge, from one more normal a step.
 * Lookbacks take discrete or bridge (bgk is MCP_ERR_INPUT). */
typedef enum mcp_monitoring {
  MCP_MONITOR_DISCRETE = 0, MCP_MONITOR_BGK, MCP_MONITOR_BRIDGE
} mcp_monitoring;

/* Variance reduction and sampling, combined as flags:
 *   MCP_ANTITHETIC       paths in pairs (z, -z), one sample the pair's mean
 *                        (an odd number of paths is MCP_ERR_INPUT when pricing);
 *   MCP_CONTROL_VARIATE  the price regressed on a control of known mean (the
 *                        geometric Asian for arithmetic Asians under
 *                        Black-Scholes, the average of the fixings under the
 *                        other models; under Heston, the European of the
 *                        same strike for barriers and fixed-strike
 *                        lookbacks, its mean by mcp_heston_european's
 *                        integral; the discounted terminal asset or basket
 *                        otherwise), its coefficient estimated on the run's
 *                        first paths;
 *   MCP_QMC              scrambled Sobol points (cuRAND's direction vectors)
 *                        with a Brownian-bridge path construction; the error
 *                        is the spread of independent scramblings. */
enum { MCP_ANTITHETIC = 1, MCP_CONTROL_VARIATE = 2, MCP_QMC = 4 };
#define MCP_METHODS_DEFAULT (-1) /* a trade follows the run's methods */

/* A trade's terms; mcp_trade_init sets the defaults (call, quantity 1, cash 1,
 * notional 1, floors -HUGE_VAL, caps HUGE_VAL, autocall level and coupon
 * barrier HUGE_VAL, methods MCP_METHODS_DEFAULT, everything else 0 or NULL).  Fields a product
 * does not use must keep their defaults.  Arrays are copied by
 * mcp_portfolio_add_trade. */
typedef struct mcp_trade {
  const char *id;
  mcp_product product;
  mcp_option_type type;
  double strike, maturity, quantity;
  const char *underlying;     /* single-asset products */
  size_t nassets;             /* basket, best-of, worst-of, autocallable on several:
                                 2 .. MCP_MAX_ASSETS; Himalaya 1 .. */
  const char *const *assets;
  const double *weights;      /* basket only; NULL: equal weights 1/n */
  size_t nfixings;            /* Asian, average-digital, lookback, Himalaya (one an asset),
                                 cliquet (period ends) and moving-window fixings, barrier
                                 monitoring dates,
                                 Bermudan exercise dates and autocallable observation dates
                                 (the last at maturity) */
  const double *fixings;      /* strictly increasing, in (0, maturity] (a seasoned
                                 trade's first npast: at or before the valuation date) */
  /* A seasoned trade, an Asian with a fixed strike, a barrier or a
   * lookback watched on dates, an autocallable, a cliquet, a Himalaya, a
   * moving window: its fixings at times <= 0 (on or before the valuation
   * date) have happened, past_fixings[i] the spot fixed at the i-th (npast
   * of them, each > 0; an
   * autocallable on n assets and a Himalaya: n a date, date by date, its
   * assets in their order; a cliquet and a Himalaya give initial_fixings,
   * the spots they started from: past a fixing they must, struck before
   * today they may, else they start from today's spots).  A barrier
   * may say it is knocked instead (one watched on the bridge must, having no
   * dates), and so may an autocallable's knock-in; their past fixings knock
   * them too.  A lookback watched on the bridge gives instead the extremum
   * its payoff reads, observed from its start to today (the maximum for a
   * fixed-strike call or a floating put, the minimum otherwise; 0: it starts
   * today). */
  size_t npast;
  const double *past_fixings;
  int knocked;
  double extremum;
  mcp_average average;        /* Asian, average digital */
  mcp_strike_kind strike_kind;/* Asian, lookback (a floating one has no strike) */
  mcp_digital digital;
  double cash;                /* cash-or-nothing amount */
  mcp_barrier_kind barrier_kind;
  double barrier, rebate;     /* rebate paid at maturity when knocked out / never knocked in;
                                 moving window: up- or down-and-out, barrier 0 for none
                                 (then the default kind and no rebate: MCP_ERR_INPUT) */
  mcp_monitoring monitoring;  /* bridge monitoring needs no fixings */
  int methods;                /* MCP_METHODS_DEFAULT or MCP_ANTITHETIC | ... */
  mcp_engine engine;          /* MCP_ENGINE_DEFAULT, _MC, _PDE or _ANALYTIC */
  double notional;            /* Himalaya, cliquet, autocallable */
  size_t best;                /* cliquet: periods summed, the best ones (0: all) */
  double local_floor, local_cap;   /* cliquet: bounds of each period's return */
  double global_floor, global_cap; /* cliquet: bounds of the sum */
  size_t window;              /* moving window: fixings averaged, 1 .. nfixings */
  /* American and Bermudan options by Monte Carlo (Longstaff-Schwartz): */
  size_t exercises;           /* American: equally spaced exercise dates up to maturity,
                                 1 .. 10000 (0: MCP_DEFAULT_EXERCISES) */
  mcp_product payoff;         /* on several assets (nassets >= 2, no underlying): what is
                                 exercised, 0 (the default) or MCP_PRODUCT_BASKET: the
                                 basket sum w_i S_i; MCP_PRODUCT_BEST_OF (max S_i) or
                                 MCP_PRODUCT_WORST_OF (min S_i) */
  /* Autocallable: levels are fractions of the initial fixings S_i(0) (the
   * spots of the strike date, terms of the note: a spot bump or scenario
   * moves the market, not them), compared with the performance
   * P = S(t) / S(0) (on several assets the worst, min_i S_i(t) / S_i(0)).  At each observation date (the fixings, the
   * last the maturity), while the note lives, in this order: the date's
   * coupon is due; if P >= the date's autocall level the note redeems, paying
   * notional x (1 + coupon x the coupons due); else if P >= coupon_barrier it
   * pays notional x coupon x the coupons due; coupons not paid stay due
   * (memory) or lapse.  At maturity, if not called there, it pays the
   * notional less notional x (strike - P)+ if knocked in: P below knock_in
   * at an observation date (monitoring discrete) or at any time (bridge:
   * the Brownian bridge's crossing probability between simulation times,
   * one underlying).  Every amount is discounted from its date. */
  const double *initial_fixings; /* one an asset (or the underlying's), each > 0 (a seasoned
                                    cliquet's and Himalaya's too) */
  const double *autocall_levels; /* one a fixing, or NULL: autocall_level at every date;
                                    HUGE_VAL: not callable at that date */
  double autocall_level;
  double coupon;                 /* a date's coupon, a fraction of the notional (>= 0) */
  double coupon_barrier;         /* default HUGE_VAL: coupons only when called */
  int memory;                    /* nonzero: coupons not paid stay due */
  double knock_in;               /* the level below which the put is knocked in; 0: none
                                    (with one, strike > 0: 1 is the initial fixing; without,
                                    strike 0 or 1 and discrete monitoring) */
} mcp_trade;
#define MCP_DEFAULT_EXERCISES 100

void mcp_trade_init(mcp_trade *trade);
mcp_status mcp_portfolio_add_trade(mcp_portfolio *portfolio, const mcp_trade *trade);
/* The run's methods for trades that keep MCP_METHODS_DEFAULT (default 0:
 * plain Monte Carlo), and the number of independent scramblings of QMC
 * (2 to 1024, default 16; paths are shared out among them). */
mcp_status mcp_portfolio_set_methods(mcp_portfolio *portfolio, int methods);
int mcp_portfolio_methods(const mcp_portfolio *portfolio);
mcp_status mcp_portfolio_set_scramblings(mcp_portfolio *portfolio, unsigned scramblings);
/* Paths the Longstaff-Schwartz regression is fitted on, 256 to 2^24 (0, the
 * default: the run's paths, at most MCP_DEFAULT_REGRESSION_PATHS and 2^27
 * values over the dates, 2^27 / (dates x values a date) paths, and at least
 * 64 a basis function of the trade).  A trade whose fit would keep more than
 * 2^27 values (1 GiB), or that a set number gives fewer than 64 paths a basis
 * function (256 for one asset, 384 under Heston, 576 for two assets), is
 * MCP_ERR_INPUT at pricing, naming the trade. */
mcp_status mcp_portfolio_set_regression_paths(mcp_portfolio *portfolio, uint64_t paths);
uint64_t mcp_portfolio_regression_paths(const mcp_portfolio *portfolio);
#define MCP_DEFAULT_REGRESSION_PATHS 131072
/* Heston discretisation: Andersen's quadratic-exponential scheme with
 * martingale correction (default) or full-truncation Euler in log-spot. */
typedef enum mcp_heston_scheme { MCP_HESTON_QE = 0, MCP_HESTON_EULER } mcp_heston_scheme;
mcp_status mcp_portfolio_set_heston_scheme(mcp_portfolio *portfolio, mcp_heston_scheme scheme);

/* ---- finite differences ----------------------------------------------- */
/* The engine of the product's trades that keep MCP_ENGINE_DEFAULT;
 * MCP_ERR_ARGUMENT for one the product cannot use (the grid for a product
 * other than european, american and barrier; Monte Carlo for none),
 * as mcp_portfolio_add_trade refuses a trade's (MCP_ERR_INPUT). */
mcp_status mcp_portfolio_set_engine(mcp_portfolio *portfolio, mcp_product product,
                                    mcp_engine engine);
mcp_engine mcp_portfolio_engine(const mcp_portfolio *portfolio, mcp_product product);

/* Time stepping: Crank-Nicolson with Rannacher's start (the first
 * `rannacher` steps each replaced by two fully implicit half steps), or the
 * explicit Euler scheme, whose step count is raised to what stability needs. */
typedef enum mcp_pde_scheme { MCP_PDE_CRANK_NICOLSON = 0, MCP_PDE_EXPLICIT } mcp_pde_scheme;
/* How the GPU applies the stencil (the same bits every way; the CPU ignores it):
 *   regcache  each warp holds its tile in registers and swaps neighbours by
 *             warp shuffles (no shared memory); a 3-point Crank-Nicolson
 *             grid of up to 1056 nodes stays in registers from step to
 *             step, coarsening aside;
 *   smem      the tile and its halo in shared memory;
 *   global    every tap loaded from global memory (through the caches). */
typedef enum mcp_stencil { MCP_STENCIL_REGCACHE = 0, MCP_STENCIL_SMEM, MCP_STENCIL_GLOBAL } mcp_stencil;
typedef struct mcp_pde_settings {
  mcp_pde_scheme scheme;
  int stencil_points;     /* 3 (second order) or 5 (fourth order in space) */
  unsigned space_points;  /* nodes of log-spot, 16 to 65536 (default 401) */
  unsigned time_steps;    /* 1 to 100000 (default 400; explicit: at least) */
  unsigned rannacher;     /* 0 to 16 (default 2), capped at time_steps */
  double width;           /* half-width of the grid, in standard deviations of log-spot (1 to 20, default 6) */
  mcp_stencil stencil;    /* GPU stencil implementation (default regcache) */
  int coarsening;         /* outputs a thread: 1, 2, 4 or 8 (default 2) */
} mcp_pde_settings;
void mcp_pde_settings_init(mcp_pde_settings *settings);
/* "crank-nicolson" or "explicit"; "regcache", "smem" or "global". */
mcp_status mcp_pde_scheme_from_name(const char *name, mcp_pde_scheme *out);
const char *mcp_pde_scheme_name(mcp_pde_scheme scheme);
mcp_status mcp_stencil_from_name(const char *name, mcp_stencil *out);
const char *mcp_stencil_name(mcp_stencil stencil);

size_t mcp_portfolio_size(const mcp_portfolio *portfolio);
const char *mcp_portfolio_trade_id(const mcp_portfolio *portfolio, size_t index);
/* Where mcp_portfolio_load read trade index: the line and column (1-based,
 * columns in UTF-8 characters) of its object in the file (of a CSV book,
 * its row's first line and column 1), so that errors found later, when
 * pricing, can point there.  MCP_ERR_NOT_FOUND for a trade added through
 * the API or a bad index. */
mcp_status mcp_portfolio_trade_source(const mcp_portfolio *portfolio, size_t index, int *line,
                                      int *column);
/* Run settings; defaults: 100000 paths, seed 1, time grid of the event dates only. */
mcp_status mcp_portfolio_set_paths(mcp_portfolio *portfolio, uint64_t paths);
/* 0 to 2^63-1, as files and the command line take it (MCP_ERR_ARGUMENT above). */
mcp_status mcp_portfolio_set_seed(mcp_portfolio *portfolio, uint64_t seed);
/* Adds uniform steps of 1/steps_per_year to the event dates (0: none).
 * Unset, each job takes its model's: none for Black-Scholes and Merton,
 * whose steps are exact in law from date to date; 252 a year for Heston,
 * local volatility, and Merton trades watched on the bridge, whose steps are
 * not (a Heston European in one step would ignore kappa, theta, xi and rho).
 * 0 on such a trade, with no run grid times between its dates (nothing for
 * the discretisation check to merge), makes pricing fail with MCP_ERR_INPUT
 * naming the trade. */
mcp_status mcp_portfolio_set_steps_per_year(mcp_portfolio *portfolio, unsigned steps_per_year);
/* Adds explicit simulation times (strictly increasing, > 0) to the event dates. */
mcp_status mcp_portfolio_set_time_grid(mcp_portfolio *portfolio, size_t n, const double *times);
/* Where the GPU keeps the per-path arrays of Himalaya, cliquet,
 * moving-window and autocallable trades (the same bits every way; the CPU
 * ignores it):
 *   auto       shared memory where it fits the block and leaves room for 512
 *              threads an SM (on an H100, arrays of up to 57 doubles), else
 *              local memory
 *   registers  registers, every dynamic index resolved by a scan of
 *              compile-time indices (a select for each element an access);
 *              jobs whose arrays exceed MCP_MAX_REGISTER_ARRAY elements are
 *              refused
 *   local      local memory (the stack frame, cached in L1)
 *   shared     shared memory, element i of thread t at i x block + t, so that
 *              the threads of a warp never share a bank; refused where the
 *              block's arrays exceed the device's shared memory
 * A job's array holds, per trade: Himalaya 2 n + 2 elements (n assets),
 * cliquet n + 2 (n periods), moving window W + 2, autocallable 7.  Trades on the same assets
 * share a job's paths up to MCP_MAX_REGISTER_ARRAY elements, or, when the
 * first trade's array alone is larger, up to MCP_MAX_PRIVATE_ARRAY; the jobs,
 * and so the prices, do not depend on the placement. */
typedef enum mcp_placement {
  MCP_PLACEMENT_AUTO = 0, MCP_PLACEMENT_REGISTERS, MCP_PLACEMENT_LOCAL, MCP_PLACEMENT_SHARED
} mcp_placement;
#define MCP_MAX_PRIVATE_ARRAY 64
#define MCP_MAX_REGISTER_ARRAY 16
mcp_status mcp_placement_from_name(const char *name, mcp_placement *out);
const char *mcp_placement_name(mcp_placement placement);
/* How the GPU path kernel gets its normals (the same bits either way; the CPU
 * accepts both and computes the same numbers under each):
 *   fused   (default) each thread computes its paths' normals of the canonical
 *           Philox mapping in registers as it steps: no normals in memory
 *   stored  a kernel writes a tile of normals to device memory and the path
 *           kernel reads them back, through the prefetch strategy
 * Jobs sampled by QMC with the Brownian bridge always run stored. */
typedef enum mcp_normals { MCP_NORMALS_FUSED = 0, MCP_NORMALS_STORED } mcp_normals;
mcp_status mcp_normals_from_name(const char *name, mcp_normals *out);
const char *mcp_normals_name(mcp_normals normals);
uint64_t mcp_portfolio_paths(const mcp_portfolio *portfolio);
uint64_t mcp_portfolio_seed(const mcp_portfolio *portfolio);
const char *mcp_portfolio_last_error(const mcp_portfolio *portfolio);

/* ---- run options: how to run, apart from what to price ----------------- */
/* A portfolio says what to price and what its numbers mean: the trades, and
 * the estimator that defines each trade's Monte Carlo price to the bit (paths,
 * seed, methods, scramblings, the regression's paths, the simulation times,
 * the Heston scheme, the products' engines), so that a book file with its
 * seed gives the same numbers on any machine.  The run options say how a
 * machine computes them: backend, devices, tiles, blocks, the paths'
 * precision, the normals' mode, the kernel's prefetch strategy, where the
 * GPU keeps per-path arrays, the finite-difference grid's numerics.  Of
 * these only precision (float paths' rounding) and the grid's numerics
 * change prices; the rest change speed alone.  The Greeks' settings (which
 * Greeks, bumps, methods) are a request of their own (mcp_greeks), passed
 * with each call.
 *
 * An options object starts with every option unset (its default); a setter
 * gives one.  A context takes the options given (mcp_context_set_options,
 * mcp_context_create_with_options) and keeps them for every later call.
 * Until the portfolio's deprecated run setters go (the next release), a
 * pricing call takes an option its context leaves unset from the
 * portfolio's (its file's run object or those setters). */
mcp_status mcp_run_options_create(mcp_run_options **options);
void mcp_run_options_destroy(mcp_run_options *options);
/* The run object of a portfolio file (doc/input-schema.md: a book's file,
 * or a file holding only {"run": {...}}): the options it gives.  The
 * book's keys (paths, seed, ..., the trades) are skipped unchecked:
 * mcp_portfolio_load checks them.  Errors as mcp_portfolio_load's. */
mcp_status mcp_run_options_load(mcp_run_options **options, const char *path, char *err,
                                size_t errlen);
mcp_status mcp_run_options_load_text(mcp_run_options **options, const char *name,
                                     const char *text, size_t len, char *err, size_t errlen);
/* mcp_portfolio_load_for and mcp_run_options_load of one file in one parse
 * (the parse is most of a large book's load): the portfolio, then its run
 * object's options, checked as those calls check them; on an error, its
 * message (the first's), and neither made.  options may not be NULL. */
mcp_status mcp_portfolio_load_with_options(mcp_portfolio **portfolio, mcp_run_options **options,
                                           const mcp_market *market, const char *path,
                                           char *err, size_t errlen);
mcp_status mcp_portfolio_load_text_with_options(mcp_portfolio **portfolio,
                                                mcp_run_options **options,
                                                const mcp_market *market, const char *name,
                                                const char *text, size_t len, char *err,
                                                size_t errlen);
/* Each setter: MCP_ERR_ARGUMENT, with a message naming the option and the
 * values expected, for a bad value (the options unchanged). */
mcp_status mcp_run_options_set_backend(mcp_run_options *options, mcp_backend backend);
mcp_backend mcp_run_options_backend(const mcp_run_options *options);
/* As mcp_context_set_devices (ordinals checked against the context's
 * backend when the context takes them). */
mcp_status mcp_run_options_set_devices(mcp_run_options *options, size_t n, const int *devices);
/* The devices given (0 if none), the first max of them copied to devices. */
size_t mcp_run_options_devices(const mcp_run_options *options, int *devices, size_t max);
/* As mcp_context_set_tile_paths and mcp_context_set_block_size. */
mcp_status mcp_run_options_set_tile_paths(mcp_run_options *options, uint64_t paths);
uint64_t mcp_run_options_tile_paths(const mcp_run_options *options);
mcp_status mcp_run_options_set_block_size(mcp_run_options *options, int threads);
int mcp_run_options_block_size(const mcp_run_options *options);
/* Precision of the paths (default MCP_DOUBLE). */
mcp_status mcp_run_options_set_precision(mcp_run_options *options, mcp_precision precision);
mcp_precision mcp_run_options_precision(const mcp_run_options *options);
/* Normals fused or stored (default fused), at mcp_normals. */
mcp_status mcp_run_options_set_normals(mcp_run_options *options, mcp_normals normals);
mcp_normals mcp_run_options_normals(const mcp_run_options *options);
/* The GPU path kernel's prefetch strategy (default none, distance 4,
 * padding 0), distance and padding as described at mcp_prefetch. */
mcp_status mcp_run_options_set_prefetch(mcp_run_options *options, mcp_prefetch strategy,
                                        int distance, int padding);
void mcp_run_options_prefetch(const mcp_run_options *options, mcp_prefetch *strategy,
                              int *distance, int *padding);
/* Where the GPU keeps per-path arrays (default auto), at mcp_placement. */
mcp_status mcp_run_options_set_placement(mcp_run_options *options, mcp_placement placement);
mcp_placement mcp_run_options_placement(const mcp_run_options *options);
/* The finite-difference grid's numerics (defaults at mcp_pde_settings);
 * which products take the grid is the portfolio's (mcp_portfolio_set_engine). */
mcp_status mcp_run_options_set_pde(mcp_run_options *options, const mcp_pde_settings *settings);
void mcp_run_options_pde(const mcp_run_options *options, mcp_pde_settings *settings);
/* The discretisation check (mcp_results_grid_move): 1, the default, on; 0
 * off, which saves its coarse revaluation of the trades of Heston, local
 * volatility and bridge-watched Merton underlyings (on the CPU about 40% of
 * their paths' cost; prices do not depend on it). */
mcp_status mcp_run_options_set_grid_check(mcp_run_options *options, int on);
int mcp_run_options_grid_check(const mcp_run_options *options);
/* The early-exercise trades' boundaries (mcp_results_exercise_boundary): 0,
 * the default, off; 1 on, which records each American grid's boundary at
 * its time steps (every few of them beyond 1000; prices do not depend on
 * it). */
mcp_status mcp_run_options_set_exercise_boundary(mcp_run_options *options, int on);
int mcp_run_options_exercise_boundary(const mcp_run_options *options);
const char *mcp_run_options_last_error(const mcp_run_options *options);

/* A context on the options' backend (auto if unset) with the options given;
 * on failure *ctx is NULL and, when err is not NULL, why (at most errlen
 * bytes): MCP_ERR_UNAVAILABLE for a backend not built in or without a GPU,
 * or mcp_context_set_options's refusal. */
mcp_status mcp_context_create_with_options(mcp_context **ctx, const mcp_run_options *options,
                                           char *err, size_t errlen);
/* The options given replace the context's; the others stay.  The backend,
 * if given, must be auto or the context's (MCP_ERR_ARGUMENT otherwise: a
 * context's backend is chosen when it is made).  A refused call changes
 * nothing. */
mcp_status mcp_context_set_options(mcp_context *ctx, const mcp_run_options *options);

/* ---- wisdom: the kernel options measured fastest on a GPU -------------- */
/* Which kernel options run a shape of job fastest depends on the GPU, its
 * driver and the job; the defaults (the rules) are good, not best.
 * mcp_tune times the options the build's kernel catalogue offers for each
 * shape of job in a book (normals fused or stored, prefetch strategy and
 * distance, block size, tile size) and puts the fastest into a wisdom; a
 * context given that wisdom (mcp_context_set_wisdom) runs each job whose
 * GPU, compute capability, driver and shape match an entry with its
 * options, and any other job, or a GPU the wisdom does not know, by the
 * rules.  An option the caller gave (mcp_context_set_block_size, the run
 * options, the portfolio's run object) is never replaced.  None of these
 * options changes a price's bits, only its speed: mcp_tune checks that
 * every option it times gives the rules' bits.  The CPU backend has none
 * of them: it reads a wisdom and uses nothing of it.  A wisdom is saved as
 * a JSON file (doc/wisdom-format.md) and loaded again, FFTW-like. */
typedef struct mcp_wisdom mcp_wisdom;

#define MCP_WISDOM_NAME 64 /* bytes of a device's or a shape's name, its NUL included */

typedef struct mcp_wisdom_entry {
  char device[MCP_WISDOM_NAME]; /* the GPU's name, as mcp_device_info's */
  int capability;               /* compute capability, major x 10 + minor: 90 */
  int driver;                   /* CUDA driver version (12080 for 12.8) */
  char shape[MCP_WISDOM_NAME];  /* the job's shape: mcp_tune names them */
  mcp_normals normals;
  mcp_prefetch prefetch;
  int distance, padding; /* of the prefetch strategy (mcp_prefetch) */
  int block;             /* threads a block: 32 to 1024, a multiple of 32 */
  uint64_t tile_paths;   /* 0 (sized to memory) or a multiple of MCP_CHUNK_PATHS */
  double seconds;        /* the book's median call with these options (0: not timed) */
  double rules_seconds;  /* and with the rules' */
} mcp_wisdom_entry;

mcp_status mcp_wisdom_create(mcp_wisdom **wisdom);
void mcp_wisdom_destroy(mcp_wisdom *wisdom);
/* The wisdom of a file mcp_wisdom_save wrote.  Errors as
 * mcp_market_load's: "FILE:LINE:COL: FIELD: what was expected" in err. */
mcp_status mcp_wisdom_load(mcp_wisdom **wisdom, const char *path, char *err, size_t errlen);
/* Writes the wisdom to path as mcp_output_open does (a regular file
 * replaced only once whole). */
mcp_status mcp_wisdom_save(const mcp_wisdom *wisdom, const char *path, char *err,
                           size_t errlen);
size_t mcp_wisdom_count(const mcp_wisdom *wisdom);
/* Entry i (in the order put) into *out; MCP_ERR_ARGUMENT beyond the count. */
mcp_status mcp_wisdom_get(const mcp_wisdom *wisdom, size_t i, mcp_wisdom_entry *out);
/* Adds the entry, or replaces the one of the same device, capability,
 * driver and shape; MCP_ERR_ARGUMENT, with a message naming the field, for
 * a value out of range (the wisdom unchanged). */
mcp_status mcp_wisdom_put(mcp_wisdom *wisdom, const mcp_wisdom_entry *entry);
/* The context's later pricing calls follow a copy of wisdom (NULL: the
 * rules alone). */
mcp_status mcp_context_set_wisdom(mcp_context *ctx, const mcp_wisdom *wisdom);
/* Times each shape of job of the portfolio (a price run, at its paths) on
 * the context's GPU, one option at a time (normals and prefetch, then the
 * block, then the tile), each candidate against the best so far in
 * alternate calls (repeats of each, 1 to 15, after a warm-up of each; the
 * medians compared), the other shapes at their best so far; a candidate
 * replaces the best only if 1% faster, and one the device cannot run, for
 * memory or a block its kernel refuses, is passed over.  Then the book with
 * every shape's best is timed against the rules the same way (the entries'
 * seconds and rules_seconds); where it gains under 1%, each shape's entry
 * holds the rules' options.  The entries replace that GPU's earlier ones
 * in wisdom.  The options the context or the portfolio gave are not timed,
 * and are recorded as given.  MCP_ERR_UNAVAILABLE on a context that is not
 * a CUDA one of one device; MCP_ERR_DEVICE (a bug) if an option changed a
 * price's bits. */
mcp_status mcp_tune(mcp_context *ctx, const mcp_market *market, const mcp_portfolio *portfolio,
                    int repeats, mcp_wisdom *wisdom);

/* ---- pricing and results ----------------------------------------------- */
/* Prices every trade of the portfolio in the market. On failure *results is
 * NULL and mcp_context_last_error(ctx) says why.  A price, standard error or
 * Greek (mcp_price_greeks), of a trade, the book or a scenario point, that
 * is not a finite number or whose sums of squares overflow double (values
 * beyond about 1e154) is MCP_ERR_INPUT naming the trade (the book's: its
 * largest position). */
mcp_status mcp_price(mcp_context *ctx, const mcp_market *market,
                     const mcp_portfolio *portfolio, mcp_results **results);

typedef struct mcp_estimate {
  double price;     /* Monte Carlo mean of the discounted payoff, or the PDE price (per unit for a trade) */
  double std_error; /* standard error of the mean (0 for a PDE price) */
  double ci_low;    /* 95% confidence interval: price -+ 1.96 std_error */
  double ci_high;
} mcp_estimate;

size_t mcp_results_count(const mcp_results *results);
const char *mcp_results_trade_id(const mcp_results *results, size_t index);
/* Per-unit estimate of trade index; multiply by the quantity for the position. */
mcp_status mcp_results_trade(const mcp_results *results, size_t index, mcp_estimate *estimate);
mcp_status mcp_results_find(const mcp_results *results, const char *id, size_t *index);
double mcp_results_quantity(const mcp_results *results, size_t index);
/* The engine that priced trade index (MCP_ENGINE_DEFAULT for a bad index). */
mcp_engine mcp_results_engine(const mcp_results *results, size_t index);
/* The book: sum of quantity x price, with the standard error of that sum
 * (trades on one underlying share paths, so their covariance is included). */
mcp_status mcp_results_total(const mcp_results *results, mcp_estimate *estimate);
uint64_t mcp_results_paths(const mcp_results *results);
uint64_t mcp_results_seed(const mcp_results *results);
mcp_backend mcp_results_backend(const mcp_results *results);
double mcp_results_seconds(const mcp_results *results);
void mcp_results_destroy(mcp_results *results);
/* An autocallable's probabilities of redemption at each of its observation
 * dates (the last: at maturity, called there or not), estimated on the
 * run's paths like its price, with their standard errors; they sum to 1.
 * mcp_results_redemptions gives the number of dates, 0 for other trades or a
 * bad index; mcp_results_redemption date k's time (years) and estimate,
 * MCP_ERR_NOT_FOUND beyond them. */
size_t mcp_results_redemptions(const mcp_results *results, size_t index);
mcp_status mcp_results_redemption(const mcp_results *results, size_t index, size_t k,
                                  double *time, mcp_estimate *probability);
/* An early-exercise trade's exercise boundary, with the run option on
 * (mcp_run_options_set_exercise_boundary): the critical spot at each of
 * its times, in increasing order, the last its maturity (the strike:
 * there a put is exercised strictly below it, a call above).  A put is
 * exercised at spots at or below it, a call at or above it; where nothing
 * is exercised at that time, 0 for a put and +infinity for a call.  On a
 * grid (the PDE engine) a point a time step (every few steps beyond 1000
 * of them), from today to maturity: the spot half-way between the last
 * node exercised and the first one held (within half a node of the grid's
 * boundary); an American call never exercised early, priced on the
 * European's grid, has none.  By Longstaff-Schwartz a
 * point an exercise date: the highest spot (put; call: lowest) at which
 * the fitted rule exercises, solved to double precision on the rule the
 * paths ran (the same on every backend); where the price is the held
 * European's (MCP_WARNING_EXERCISE, or a call whose early exercise never
 * pays), that European's: nothing exercised before maturity.  Only
 * one-asset trades whose rule reads the spot alone have one (not a
 * Heston trade, whose rule reads its variance too, nor a basket).
 * mcp_results_exercise_boundaries gives the
 * number of points, 0 for other trades, without the option, or for a bad
 * index; mcp_results_exercise_boundary point k's time (years) and spot,
 * MCP_ERR_NOT_FOUND beyond them. */
size_t mcp_results_exercise_boundaries(const mcp_results *results, size_t index);
mcp_status mcp_results_exercise_boundary(const mcp_results *results, size_t index, size_t k,
                                         double *time, double *spot);

/* The discretisation check (on by default; mcp_run_options_set_grid_check).
 * A Monte Carlo trade whose model's step is not exact (Heston, local
 * volatility, Merton watched on the bridge; not Black-Scholes, exact on any
 * grid) is priced again on its paths' grid made twice as coarse: every
 * event date kept (fixings, maturities, exercise and dividend dates) and
 * each pair of consecutive steps whose first ends on none of them merged
 * into one step, on the same Brownian paths (a merged step's normal is the
 * exact increment of the two).  mcp_results_grid_move gives the move of
 * the trade's price, the fine grid's less the coarse one's, estimated path
 * by path (its own standard error and interval); the trade's price is the
 * fine grid's, unchanged.  The trade is warned MCP_WARNING_GRID where
 * |move| > std_error + 3 x the move's standard error: with confidence
 * 99.87%, the grid moves the price by more than its standard error.  A
 * Longstaff-Schwartz trade priced at its European (flagged
 * MCP_WARNING_EXERCISE, or a call whose early exercise never pays) has that
 * European's move; an American exercised now a move of 0 +- 0.
 * MCP_ERR_NOT_FOUND where no check ran (a bad index, an exact model, the
 * check off, a grid with no steps to merge, a PDE trade). */
mcp_status mcp_results_grid_move(const mcp_results *results, size_t index,
                                 mcp_estimate *estimate);

/* What a trade's estimate may not say by itself, as bits of
 * mcp_results_warnings (Monte Carlo prices only).  MCP_WARNING_CONSTANT:
 * every path gave the trade the same value, so its standard error is 0 and
 * bounds nothing (the paths never reach the payoff's range, or the model's
 * parameters make the paths degenerate).  MCP_WARNING_MARTINGALE: on the
 * trade's paths, the mean discounted spot of an underlying at their last
 * date misses the forward by more than 5 standard errors: the simulation is
 * biased (extreme parameters, too few steps for the scheme), so the price
 * may be too.  MCP_WARNING_EXERCISE: an early-exercise trade's
 * Longstaff-Schwartz price fell below its European's on the same paths (its
 * fitted early exercises lost: too few regression paths for its basis, or
 * early exercise that never pays, as a max-call without dividends); the
 * European's, a lower bound, is reported with its Greeks (not flagged: a
 * call on one asset without dividends at rates >= 0, whose European is its
 * price).  MCP_WARNING_GRID: on the same
 * paths, a grid of half the steps moves the trade's price by more than its
 * standard error (mcp_results_grid_move), or its grid cannot be checked
 * (every step ends on one of its dates, so none merges) and has a step
 * longer than a day: the time grid is too coarse for the model's scheme.  MCP_WARNING_BUCKETS: buckets were asked
 * (mcp_greeks_set_buckets), or a multi-asset trade's correlations, or
 * dividend sensitivities, and the trade has none: its payoff, model or
 * precision has no adjoint here (its Greeks are those without buckets). */
typedef enum mcp_warning {
  MCP_WARNING_CONSTANT = 1 << 0,
  MCP_WARNING_MARTINGALE = 1 << 1,
  MCP_WARNING_EXERCISE = 1 << 2,
  MCP_WARNING_GRID = 1 << 3,
  MCP_WARNING_BUCKETS = 1 << 4
} mcp_warning;
#define MCP_WARNING_COUNT 5
/* The warnings of trade index, or 0 (none, or a bad index). */
unsigned mcp_results_warnings(const mcp_results *results, size_t index);
/* "constant", "martingale", "exercise", "grid", "buckets"; "unknown" for
 * anything else. */
const char *mcp_warning_name(mcp_warning warning);
/* One sentence that says what warning means for a trade's estimate, for a
 * report; "unknown" for anything else. */
const char *mcp_warning_text(mcp_warning warning);

/* ---- scenarios --------------------------------------------------------- */
/* A grid of market shifts, revalued on the same paths: every scenario is
 * priced with the portfolio's seed, so it draws the same normals as an
 * mcp_price of the shifted market (the prices are equal to the bit), and
 * the differences between scenarios carry common random numbers.  Up to 64
 * points share one run: its normals are generated once and each point is a
 * revaluation pass of the path kernel over them.  The axes:
 *   MCP_SHIFT_SPOT        every underlying's spot: S (1 + x), or S + x;
 *   MCP_SHIFT_VOLATILITY  every volatility curve (Heston: the square roots
 *                         of v0 and theta): sigma (1 + x), or sigma + x;
 *   MCP_SHIFT_RATE        every rate curve: r (1 + x), or r + x.
 * An axis left unset is the one shift 0. */
typedef enum mcp_shift_axis {
  MCP_SHIFT_SPOT = 0, MCP_SHIFT_VOLATILITY, MCP_SHIFT_RATE
} mcp_shift_axis;
typedef enum mcp_shift_kind { MCP_SHIFT_RELATIVE = 0, MCP_SHIFT_ABSOLUTE } mcp_shift_kind;
#define MCP_MAX_SCENARIOS 4096 /* points of the grid */
typedef struct mcp_scenarios mcp_scenarios;
typedef struct mcp_scenario_results mcp_scenario_results;

mcp_status mcp_scenarios_create(mcp_scenarios **scenarios);
void mcp_scenarios_destroy(mcp_scenarios *scenarios);
/* The n (1 to MCP_MAX_SCENARIOS) finite shifts of an axis, copied; a
 * relative shift is above -1.  MCP_ERR_ARGUMENT, with a message, otherwise. */
mcp_status mcp_scenarios_set(mcp_scenarios *scenarios, mcp_shift_axis axis,
                             mcp_shift_kind kind, size_t n, const double *shifts);
/* Reads a scenario file (doc/input-schema.md); errors as mcp_portfolio_load. */
mcp_status mcp_scenarios_load(mcp_scenarios **scenarios, const char *path, char *err,
                              size_t errlen);
/* The same from len bytes of text in memory, which messages call name. */
mcp_status mcp_scenarios_load_text(mcp_scenarios **scenarios, const char *name,
                                   const char *text, size_t len, char *err, size_t errlen);
const char *mcp_scenarios_last_error(const mcp_scenarios *scenarios);

/* A scenario set instead of a grid: a list of named scenarios (historical
 * days, stresses), each shifting the spot, volatility and rate of the
 * underlyings it names and leaving the others as they are.  Priced by
 * mcp_price_scenarios with the unshifted market, the base, on the same
 * paths; the book's loss in a scenario is the base's value less its own.
 * A scenarios object is a grid (mcp_scenarios_set) or a set, not both.
 * Adds scenario name (unique, a trade id's characters, not "base"; at
 * most MCP_MAX_SCENARIOS) with no shift, its index into *index (may be
 * NULL). */
mcp_status mcp_scenarios_add(mcp_scenarios *scenarios, const char *name, size_t *index);
/* Sets the shift of axis for underlying (a name the market will be asked
 * for at pricing) in scenario index, of the set's kind for that axis;
 * finite, and above -1 when relative. */
mcp_status mcp_scenarios_shift(mcp_scenarios *scenarios, size_t index, const char *underlying,
                               mcp_shift_axis axis, double shift);
/* The kind of a set's shifts along axis (before its first scenario): spot
 * and volatility relative, rate absolute unless set. */
mcp_status mcp_scenarios_set_kind(mcp_scenarios *scenarios, mcp_shift_axis axis,
                                  mcp_shift_kind kind);
/* The set's scenarios (0 for a grid). */
size_t mcp_scenarios_count(const mcp_scenarios *scenarios);

/* Prices the portfolio at every point of the grid, or at the base and every
 * scenario of the set.  A shift that leaves a
 * spot at or below 0, or a volatility or a Heston variance below 0, is
 * MCP_ERR_INPUT naming the underlying and the shift. */
mcp_status mcp_price_scenarios(mcp_context *ctx, const mcp_market *market,
                               const mcp_portfolio *portfolio, const mcp_scenarios *scenarios,
                               mcp_scenario_results **results);
/* Shifts of an axis: their number, and shift i. */
size_t mcp_scenario_results_shifts(const mcp_scenario_results *results, mcp_shift_axis axis);
double mcp_scenario_results_shift(const mcp_scenario_results *results, mcp_shift_axis axis,
                                  size_t i);
mcp_shift_kind mcp_scenario_results_kind(const mcp_scenario_results *results,
                                         mcp_shift_axis axis);
size_t mcp_scenario_results_count(const mcp_scenario_results *results);
const char *mcp_scenario_results_trade_id(const mcp_scenario_results *results, size_t index);
mcp_status mcp_scenario_results_find(const mcp_scenario_results *results, const char *id,
                                     size_t *index);
double mcp_scenario_results_quantity(const mcp_scenario_results *results, size_t index);
/* The per-unit estimate of trade index at spot shift i, volatility shift j
 * and rate shift k; the book's total value there. */
mcp_status mcp_scenario_results_trade(const mcp_scenario_results *results, size_t index,
                                      size_t i, size_t j, size_t k, mcp_estimate *estimate);
mcp_status mcp_scenario_results_total(const mcp_scenario_results *results, size_t i, size_t j,
                                      size_t k, mcp_estimate *estimate);
/* A set's results: its scenarios (0 for a grid) and the name of scenario s;
 * trade index's per-unit estimate and the book's value in scenario s, and
 * at the base (the unshifted market). */
size_t mcp_scenario_results_scenarios(const mcp_scenario_results *results);
const char *mcp_scenario_results_name(const mcp_scenario_results *results, size_t s);
mcp_status mcp_scenario_results_set_trade(const mcp_scenario_results *results, size_t index,
                                          size_t s, mcp_estimate *estimate);
mcp_status mcp_scenario_results_set_total(const mcp_scenario_results *results, size_t s,
                                          mcp_estimate *estimate);
mcp_status mcp_scenario_results_base(const mcp_scenario_results *results, mcp_estimate *estimate);
mcp_status mcp_scenario_results_base_trade(const mcp_scenario_results *results, size_t index,
                                           mcp_estimate *estimate);
/* The book's loss in scenario s: the base's value less the scenario's, on
 * the same paths, with the standard error of that difference path by path
 * (far below either value's where the scenario moves the book little). */
mcp_status mcp_scenario_results_loss(const mcp_scenario_results *results, size_t s,
                                     mcp_estimate *loss);
/* Historical value at risk and expected shortfall of the book at level
 * (0.5 <= level < 1) over the set's n scenarios.  With the losses sorted
 * from the largest, L(1) >= ... >= L(n), m = n (1 - level) and k = floor(m):
 * VaR = L(k + 1), the least loss that at most m scenarios exceed, and
 * ES = (L(1) + ... + L(k) + (m - k) L(k + 1)) / m, the mean loss of the
 * worst fraction 1 - level of the scenarios (the last one weighted by its
 * share); m within 1e-9 n of a whole number is that number (0.9 of 10
 * scenarios is 1, not 0.99999999999999978).  var or es may be NULL. */
mcp_status mcp_scenario_results_var(const mcp_scenario_results *results, double level,
                                    double *var, double *es);
void mcp_scenario_results_destroy(mcp_scenario_results *results);

/* ---- Greeks ------------------------------------------------------------ */
/* Sensitivities of every trade and of the book, estimated on the paths of
 * one pricing (the same seed, so the prices are those of mcp_price):
 *   delta, gamma   d/dS and d2/dS2 of the per-unit price, by underlying
 *                  (multi-asset trades: one an asset, and the cross gammas
 *                  d2/dSi dSj of pairs when asked: on the scaled paths,
 *                  or where the paths do not scale with the spots by four
 *                  revaluations a pair, both spots moved); a trade of at
 *                  least four local-volatility assets swept back by
 *                  adjoint (buckets, correlations or dividend
 *                  sensitivities asked: mcp_greeks_set_buckets), its
 *                  cross gammas asked: its gammas and cross gammas by
 *                  adjoint, the central differences of its adjoint deltas
 *                  at each spot moved up and down, on the same normals
 *                  (two sweeps an asset, of the deltas alone, where the
 *                  revaluations take 2 n^2 passes; a cross gamma the mean
 *                  of dDj/dSi and dDi/dSj);
 *   vega           d/dsigma: every volatility curve shifted together (Heston:
 *                  the square roots of v0 and theta);
 *   rho            d/dr: every rate curve shifted together;
 *   theta          d/dt per year of the market's times (its day count's
 *                  year; calendar years under ACT/365F or without
 *                  dates): the trades' dates and the market's cash
 *                  dividends one bump closer, its curves as they are;
 *   correlation    d/drho of a pair of a multi-asset trade's underlyings
 *                  (the market's correlation of their spots, both entries
 *                  of the symmetric matrix moved; named in the market's
 *                  order), by adjoint alone (see mcp_greeks_set_buckets):
 *                  "correlation:ACME:BOLT";
 *   dividend       d/dq of an underlying's dividend yield (its curve's
 *                  pieces together; by piece with buckets, "dividend@(0,1]"),
 *                  by adjoint alone; with buckets also d/dD of each cash
 *                  dividend D that a trade's path pays ("dividend@t=0.3",
 *                  not part of the yield's sum).
 * The last two are asked by name ("all" leaves them out: many trades have
 * no adjoint, and each would be warned), not with bumps alone.
 * Volatility and rate shifts move the underlyings that some trade uses.
 * Each is estimated by a method, reported beside it:
 *   pathwise          the derivative of the payoff along the path: delta of
 *                     continuous payoffs (European, Asian, lookback, basket,
 *                     best-of, worst-of), and the rho (every model but local
 *                     volatility, whose trades are revalued) and vega
 *                     (Black-Scholes, Merton, a volatility constant within
 *                     each simulation step) of the single-asset ones, in
 *                     double or mixed precision;
 *   likelihood-ratio  the payoff times the score of the path's density
 *                     (delta, gamma, vega and rho of digitals and
 *                     date-monitored barriers on Black-Scholes underlyings;
 *                     not the vega of BGK barriers);
 *   bump              central differences of revaluations on the same
 *                     normals (forward for theta), or of the price's own
 *                     paths scaled where a spot bump scales them (an
 *                     American's or Bermudan's spot Greeks: its fitted rule
 *                     at the scaled spots); the reference, and the method
 *                     for everything else;
 *   grid              finite differences on the PDE grid (delta, gamma), and
 *                     re-solved grids for vega, rho and theta;
 *   analytic          the closed form's delta and gamma, and its central
 *                     differences in shifted markets for vega, rho and theta
 *                     (forward for theta); with buckets, a Heston trade's
 *                     model vegas, the exact gradient of its integral.
 * Every Monte Carlo estimate comes with its standard error. */
typedef enum mcp_greek {
  MCP_GREEK_DELTA = 0, MCP_GREEK_GAMMA, MCP_GREEK_VEGA, MCP_GREEK_RHO, MCP_GREEK_THETA,
  MCP_GREEK_CROSS_GAMMA, MCP_GREEK_CORRELATION, MCP_GREEK_DIVIDEND, MCP_GREEK_COUNT
} mcp_greek;
typedef enum mcp_greek_method {
  MCP_METHOD_PATHWISE = 0, MCP_METHOD_LIKELIHOOD_RATIO, MCP_METHOD_BUMP, MCP_METHOD_GRID,
  MCP_METHOD_ADJOINT, MCP_METHOD_ANALYTIC
} mcp_greek_method;
typedef struct mcp_greeks mcp_greeks;

/* "delta", "gamma", "vega", "rho", "theta", "cross-gamma", "correlation",
 * "dividend". */
const char *mcp_greek_name(mcp_greek greek);
mcp_status mcp_greek_from_name(const char *name, mcp_greek *out);
/* "pathwise", "likelihood-ratio", "bump", "grid", "adjoint", "analytic". */
const char *mcp_greek_method_name(mcp_greek_method method);

/* A request: no Greeks until some are added. */
mcp_status mcp_greeks_create(mcp_greeks **greeks);
void mcp_greeks_destroy(mcp_greeks *greeks);
mcp_status mcp_greeks_add(mcp_greeks *greeks, mcp_greek greek);
/* Adds a comma-separated list of names, or "all" (the five and the cross
 * gammas). */
mcp_status mcp_greeks_parse(mcp_greeks *greeks, const char *list);
/* The bump of a Greek: delta and gamma (one size), relative spot shift,
 * default 0.01; vega absolute volatility, 0.01; rho absolute rate, 1e-4;
 * theta years of the market's times, 1/365 (a run takes at most half a step of its
 * steps_per_year grid).  Each in (0, 0.5]. */
mcp_status mcp_greeks_set_bump(mcp_greeks *greeks, mcp_greek greek, double size);
double mcp_greeks_bump(const mcp_greeks *greeks, mcp_greek greek);
/* Nonzero: every Monte Carlo Greek by bumping spots, volatilities and rates
 * (the reference), not by pathwise or likelihood-ratio estimators. */
mcp_status mcp_greeks_set_bump_only(mcp_greeks *greeks, int on);
/* Nonzero: vega and rho also by bucket, each with its standard error, by
 * adjoint (reverse-mode pathwise) sensitivities computed on the price's own
 * paths, at a small multiple of the price whatever the number of buckets:
 *   vega  a Black-Scholes underlying's: one a piece of its volatility curve
 *         ("vega@(0.5,1]", d/dsigma of that piece alone); a local-volatility
 *         underlying's: one a node of its surface ("vega@t=0.5,S=100",
 *         d/dsigma(t, S) of that node alone); an underlying given implied
 *         volatilities (mcp_market_set_implied_volatility): one a quote
 *         ("vega@T=1,K=90", d/dsigma of that quote alone, the smiles fitted
 *         again and the local volatility built again on the same grid; a
 *         European in closed form too, by Black's vega through its smile,
 *         and not warned where rho and dividend are not asked), the
 *         trade's vega still that of a parallel move of the local
 *         volatility; under a relative volatility shift, in the quotes as
 *         given (before the shift);
 *   rho   one a piece of the underlying's rate curve ("rho@(0,1]"), through
 *         the drift and the discount.
 * The pieces are those that start before the trade's job's last date.  The
 * trade's delta, vega and rho (the buckets' sums, path by path) then come
 * by adjoint too.  Applies to single-asset European, Asian,
 * date-monitored lookback and bridge-monitored barrier trades (no cash
 * dividend paid by a barrier's maturity) on Black-Scholes or local-volatility
 * underlyings (Heston: below), and to baskets, best-of and worst-of options
 * on correlated Black-Scholes, local-volatility or Heston underlyings (a
 * delta, a vega and vega buckets (pieces, nodes or Heston's parameters) an
 * asset, rho buckets of each
 * asset's curve, the first in the market's order also discounting, and the
 * correlations of the pairs when asked), and American and Bermudan
 * options (Longstaff-Schwartz) on several correlated underlyings of those
 * models, the same, under the run's fitted exercise rule held
 * fixed (each path's derivatives from the date it exercises, the rate
 * buckets discounting to that date: the pathwise Greeks of that rule, as
 * its revaluations keep it; a price floored to the European held to the
 * last date has that European's), whose volatility stays above 0
 * (at 0 a shift is no derivative), in double precision (at most 16384
 * steps of one asset, and 4096 buckets where buckets are asked); other
 * trades keep their Greeks as
 * without buckets and are warned
 * MCP_WARNING_BUCKETS.  A job (the trades of one underlying, or one set of
 * underlyings, and time grid) with bucketed trades estimates its other
 * trades' vega and rho by bumps.  Correlations (MCP_GREEK_CORRELATION) and
 * dividend sensitivities (MCP_GREEK_DIVIDEND) come by adjoint with or
 * without buckets; a trade that has no adjoint has none and is warned
 * MCP_WARNING_BUCKETS.  Buckets, correlations and dividend sensitivities
 * with bumps alone (mcp_greeks_set_bump_only) are MCP_ERR_ARGUMENT.  A
 * Heston underlying's vega, with buckets, comes also a parameter of its
 * model ("vega@v0", "vega@kappa", "vega@theta", "vega@xi", "vega@rho":
 * d price / d parameter): by adjoint for the trades above on one Heston
 * underlying (at most 8192 steps; each step of the scheme reversed, and a
 * barrier's bridge over it in the step's variance: QE's v' jumps where psi
 * crosses 1.5, which no derivative sees, and Euler's variance root has no
 * derivative at 0) and on several (at most 4032 steps; a rho also through
 * the drivers' correlations, which it moves), with rho and dividend
 * buckets; else by central differences on the price's paths, each
 * parameter moved by 1% of itself (rho by 0.01, at most half its distance to
 * -1 or 1; a parameter at 0 or rho at -1 or 1 has none, nor the rho of an
 * underlying of some multi-asset trade, which would move its correlation
 * matrix): 10 revaluations an underlying, each a plan of the whole book;
 * those trades are still warned MCP_WARNING_BUCKETS (no rho buckets).  A
 * Heston rho at -1 or 1 has no vega@rho either way; an underlying of a
 * multi-asset trade has it by adjoint only (its trades' own paths'), so
 * its book's "vega:H@rho" sums those alone. */
mcp_status mcp_greeks_set_buckets(mcp_greeks *greeks, int on);
int mcp_greeks_buckets(const mcp_greeks *greeks);
const char *mcp_greeks_last_error(const mcp_greeks *greeks);

/* Prices the portfolio and estimates the requested Greeks of every trade and
 * of the book.  A theta bump that reaches a trade's first date is
 * MCP_ERR_INPUT naming the trade. */
mcp_status mcp_price_greeks(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                            mcp_results **results);

/* One sensitivity.  name is the Greek's name, followed for the deltas,
 * gammas and vegas of multi-asset trades and of the book by ':' and the
 * underlying ("delta:ACME"; a multi-asset trade's vega of an underlying
 * shifts that underlying's volatility alone), for a cross gamma by both
 * ("cross-gamma:ACME:BOLT"); a bucket's by '@' and the bucket
 * ("vega:ACME@(0.5,1]" in the book). */
typedef struct mcp_sensitivity {
  const char *name;
  mcp_greek greek;
  mcp_greek_method method; /* the book's: that of its first term */
  const char *underlying, *underlying2; /* or NULL */
  mcp_estimate value;
  const char *bucket; /* a bucketed vega or rho's bucket (mcp_greeks_set_buckets), or NULL */
} mcp_sensitivity;
/* Sensitivities of trade index, or of the book for index ==
 * mcp_results_count (none from mcp_price). */
size_t mcp_results_sensitivities(const mcp_results *results, size_t index);
mcp_status mcp_results_sensitivity(const mcp_results *results, size_t index, size_t k,
                                   mcp_sensitivity *out);
/* By trade id (NULL for the book) and name: MCP_ERR_NOT_FOUND when absent.
 * A pair's Greek (cross gamma, correlation) is found by its underlyings in
 * either order ("correlation:BOLT:ACME" finds "correlation:ACME:BOLT"). */
mcp_status mcp_results_greek(const mcp_results *results, const char *id, const char *name,
                             mcp_sensitivity *out);

/* ---- FRTB: the standardised approach's sensitivities -------------------
 * The inputs of the sensitivities-based method (BCBS MAR21) of every trade
 * and of the book, each revalued on the same paths as the price (a scenario
 * set: the differences carry common random numbers):
 *   MCP_FRTB_EQ_DELTA      (V(1.01 S) - V(S)) / 0.01, an underlying's spot
 *                          moved alone (MAR21.22);
 *   MCP_FRTB_EQ_VEGA       vega times volatility, (V(1.01 sigma) -
 *                          V(0.99 sigma)) / 0.02, every volatility input of
 *                          the underlying scaled (a curve, a local-volatility
 *                          surface; Heston: the roots of v0 and theta, as the
 *                          vega of mcp_price_greeks), at the trade's maturity
 *                          split linearly between the vertices 0.5, 1, 3, 5
 *                          and 10 years (all at the nearer end outside them);
 *   MCP_FRTB_EQ_CURVATURE  CVR up and down (MAR21.5): -(V(S (1 + RW)) - V(S)
 *                          - RW delta) and -(V(S (1 - RW)) - V(S) + RW
 *                          delta), RW the spot risk weight of the
 *                          underlying's bucket (MAR21.77); tenor +RW or -RW;
 *   MCP_FRTB_GIRR_DELTA    (V(z + 0.0001) - V(z)) / 0.0001, the zero rate z
 *                          at one tenor of 0.25, 0.5, 1, 2, 3, 5, 10, 15, 20
 *                          and 30 years moved, the others kept (log-discount
 *                          factors linear between tenors, zero rates flat
 *                          beyond), on the rate curves of every underlying of
 *                          that currency at once.
 * Amounts are of positions (quantity times per unit), in the underlying's
 * currency; each underlying a trade uses needs its currency and bucket
 * (mcp_market_set_classification), else MCP_ERR_INPUT naming it.  The
 * set has 5 scenarios an underlying and 10 a currency (at most
 * MCP_MAX_SCENARIOS in all). */
typedef enum mcp_frtb_risk {
  MCP_FRTB_EQ_DELTA = 0, MCP_FRTB_EQ_VEGA, MCP_FRTB_EQ_CURVATURE, MCP_FRTB_GIRR_DELTA,
  MCP_FRTB_RISK_COUNT
} mcp_frtb_risk;
/* The risk's CRIF RiskType: "EQ_DELTA", "EQ_VEGA", "EQ_CURV", "GIRR_DELTA". */
const char *mcp_frtb_risk_name(mcp_frtb_risk risk);
typedef struct mcp_frtb mcp_frtb;
typedef struct mcp_frtb_record {
  const char *trade_id;  /* NULL: the book's, the sum over its trades */
  mcp_frtb_risk risk;
  const char *qualifier; /* the underlying, or GIRR's currency */
  int bucket;            /* the underlying's equity bucket; 0 for GIRR */
  double tenor;          /* years: vega's vertex, GIRR's tenor; curvature: +RW or -RW; else 0 */
  double amount;
  const char *currency;
} mcp_frtb_record;
/* The view's scenario set for market and portfolio (a run in slices prices
 * it with mcp_price_slice), and the view from its results. */
mcp_status mcp_frtb_scenarios(const mcp_market *market, const mcp_portfolio *portfolio,
                              mcp_scenarios **scenarios, char *err, size_t errlen);
mcp_status mcp_frtb_from_results(const mcp_market *market, const mcp_portfolio *portfolio,
                                 const mcp_scenario_results *results, mcp_frtb **frtb,
                                 char *err, size_t errlen);
/* Both: the set priced on ctx (its devices, its backend). */
mcp_status mcp_price_frtb(mcp_context *ctx, const mcp_market *market,
                          const mcp_portfolio *portfolio, mcp_frtb **frtb);
/* The records: every trade's in portfolio order (by underlying in market
 * order, then by currency), then the book's. */
size_t mcp_frtb_count(const mcp_frtb *frtb);
mcp_status mcp_frtb_record_at(const mcp_frtb *frtb, size_t i, mcp_frtb_record *record);
/* The trades' records with an amount as a CRIF file (ISDA's columns, the
 * FRTB risk types), in memory the caller frees with mcp_free: a header, then a
 * line a record,
 *   TradeID,RiskType,Qualifier,Bucket,Label1,Label2,Amount,AmountCurrency
 * RiskType from mcp_frtb_risk_name; Label1 the vega's option maturity, the
 * GIRR tenor or the curvature's signed risk weight, in years or as a
 * fraction ("0.5", "-0.3"); Label2 "SPOT" for delta; GIRR's bucket blank
 * (its bucket is its currency). */
mcp_status mcp_frtb_crif(const mcp_frtb *frtb, char **text, size_t *len);
void mcp_frtb_destroy(mcp_frtb *frtb);

/* ---- Files: reading inputs, writing outputs -----------------------------
 * Every reader of the library (the mcp_*_load functions, mcp_partial_read)
 * reads through one bounded reader, and every writer (mcp_partial_write)
 * through one output; the command-line tool uses both, for its inputs and
 * its --output.  Messages in err (errlen bytes) name the file first. */

/* The largest input file read (a portfolio of a million trades fits). */
#define MCP_INPUT_MAX_BYTES (256u << 20)

/* A market, portfolio, scenario or run options file's text, as the loaders
 * read it, into *text (malloc'd, NUL-terminated: the caller frees it) and
 * *len, for the mcp_*_load_text functions: at most MCP_INPUT_MAX_BYTES
 * (larger is MCP_ERR_INPUT, found without reading a regular file), no NUL
 * byte (MCP_ERR_PARSE at its line and column, as soon as it is read: a
 * device such as /dev/zero is refused at once), and not a directory
 * (MCP_ERR_IO, as any file that cannot be opened or read). */
mcp_status mcp_input_read(const char *path, char **text, size_t *len, char *err,
                          size_t errlen);

/* An output being written: opened before any work, so that a long run never
 * ends in a refusal.  The rules are the shell's > with a file replaced only
 * once complete:
 * - a name of an open descriptor (/dev/stdout, /dev/stderr, /dev/fd/N,
 *   /proc/self/fd/N) is written through that descriptor as it was opened
 *   (appending, say);
 * - a device or a FIFO is written in place, never replaced;
 * - a symbolic link is followed: its target is written, the link stays;
 * - a regular file, or a new one, is written to a temporary file beside it
 *   (its name with 6 characters added, shortened to fit the folder's longest
 *   name), which mcp_output_commit renames over it with the old file's mode
 *   (and owner, where allowed), so that readers see the old file or the
 *   whole new one.
 * Refused before anything is written: a directory, one of the ninputs files
 * inputs (the same device and inode, whatever the name or descriptor) and a
 * link that leads nowhere, MCP_ERR_ARGUMENT; a file the caller may not
 * write, one the rename could not replace (another user's, in a sticky
 * folder such as /tmp), a descriptor open for reading only, or a folder the
 * temporary cannot be made in, MCP_ERR_IO. */
typedef struct mcp_output mcp_output;
mcp_status mcp_output_open(mcp_output **out, const char *path, const char *const *inputs,
                           size_t ninputs, char *err, size_t errlen);
/* The descriptor to write to (the output keeps it: write a dup of it through
 * stdio, say), and the temporary file's name (NULL when written in place),
 * for a signal handler to remove. */
int mcp_output_fd(const mcp_output *out);
const char *mcp_output_temporary(const mcp_output *out);
/* Writes len bytes to the output. */
mcp_status mcp_output_write(mcp_output *out, const void *bytes, size_t len, char *err,
                            size_t errlen);
/* Makes the output final (syncs and renames a temporary); abort removes the
 * temporary instead.  Either frees out (abort is NULL-safe). */
mcp_status mcp_output_commit(mcp_output *out, char *err, size_t errlen);
void mcp_output_abort(mcp_output *out);

/* ---- Scale-out: slices and partial results -------------------------------
 * One pricing (mcp_price, mcp_price_greeks or mcp_price_scenarios: greeks
 * and scenarios NULL, greeks given, or scenarios given) is cut into n
 * slices of whole chunks of MCP_CHUNK_PATHS paths (and, in a book of many
 * jobs, of whole jobs), each computed anywhere by mcp_price_slice into a
 * partial result; mcp_partials_merge combines the n partials of one pricing,
 * in any order, into results equal to the unsliced call's to the last bit
 * (computed on the same backend).  A partial keeps a digest of its inputs
 * (the market, the trades, paths, seed and the run settings that change
 * prices, the Greeks or scenarios), so a merge refuses slices of another
 * pricing, and slices given twice or missing.  Partials are written to and
 * read from a versioned, endian-neutral format (doc/partial-format.md).
 * A partial is immutable once made and may be read by several threads. */
#define MCP_MAX_SLICES (1u << 20)
typedef struct mcp_partial mcp_partial;

/* Slice k (0 to n - 1) of the pricing, n from 1 to MCP_MAX_SLICES, on the
 * context's device (not spread over its devices); errors as the pricing's. */
mcp_status mcp_price_slice(mcp_context *ctx, const mcp_market *market,
                           const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                           const mcp_scenarios *scenarios, unsigned k, unsigned n,
                           mcp_partial **partial);
/* The results of the pricing from its n partials (count of them, any
 * order), with the pricing's inputs: into *results, or for a scenario grid
 * into *scenario_results (the other may be NULL).  The inputs include the
 * run options that change prices (precision, the grid's numerics): the
 * merging context, on whatever backend, must hold the slices'.  MCP_ERR_INPUT
 * names a partial of other inputs, of another backend than the other
 * partials' or another slice count, a
 * slice given twice or missing.  The results' seconds are the slices' and
 * the merge's. */
mcp_status mcp_partials_merge(mcp_context *ctx, const mcp_market *market,
                              const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                              const mcp_scenarios *scenarios, mcp_partial *const *partials,
                              size_t count, mcp_results **results,
                              mcp_scenario_results **scenario_results);
void mcp_partial_destroy(mcp_partial *partial);
/* Which slice the partial holds (and of how many, into *n). */
unsigned mcp_partial_slice(const mcp_partial *partial, unsigned *n);
/* The partial as bytes (the caller frees them, mcp_free), and back; name
 * is what messages call the bytes.  A damaged, truncated or foreign
 * sequence is MCP_ERR_PARSE with a message in err (errlen bytes). */
mcp_status mcp_partial_encode(const mcp_partial *partial, void **bytes, size_t *len);
mcp_status mcp_partial_decode(mcp_partial **partial, const void *bytes, size_t len,
                              const char *name, char *err, size_t errlen);
/* The same through a file.  A write follows mcp_output_open's rules
 * (checked before the partial is encoded): a regular file is replaced only
 * when complete, a device or FIFO written in place, a link followed.  A read
 * reads at most 64 GiB, and checks the magic, the version and the library
 * version on the first 24 bytes before it reads further. */
mcp_status mcp_partial_write(const mcp_partial *partial, const char *path, char *err,
                             size_t errlen);
mcp_status mcp_partial_read(mcp_partial **partial, const char *path, char *err,
                            size_t errlen);
/* Bytes of the caller's carried with the partial (the command-line tool
 * keeps its command and input files there, for "mcprice merge"): copied;
 * NULL and 0 when none. */
mcp_status mcp_partial_set_annex(mcp_partial *partial, const void *data, size_t len);
const void *mcp_partial_annex(const mcp_partial *partial, size_t *len);

/* ---- deprecated: how to run, on the portfolio (0.1) -------------------- */
/* These set and read the portfolio's own run settings, which a pricing call
 * takes where its context leaves an option unset; they go in the next
 * release.  Each has its mcp_run_options counterpart. */
MCP_DEPRECATED("mcp_run_options_backend")
mcp_backend mcp_portfolio_backend(const mcp_portfolio *portfolio);
MCP_DEPRECATED("mcp_run_options_set_backend")
mcp_status mcp_portfolio_set_backend(mcp_portfolio *portfolio, mcp_backend backend);
MCP_DEPRECATED("mcp_run_options_set_precision")
mcp_status mcp_portfolio_set_precision(mcp_portfolio *portfolio, mcp_precision precision);
MCP_DEPRECATED("mcp_run_options_precision")
mcp_precision mcp_portfolio_precision(const mcp_portfolio *portfolio);
MCP_DEPRECATED("mcp_run_options_set_prefetch")
mcp_status mcp_portfolio_set_prefetch(mcp_portfolio *portfolio, mcp_prefetch strategy,
                                      int distance, int padding);
MCP_DEPRECATED("mcp_run_options_prefetch")
void mcp_portfolio_prefetch(const mcp_portfolio *portfolio, mcp_prefetch *strategy,
                            int *distance, int *padding);
MCP_DEPRECATED("mcp_run_options_set_placement")
mcp_status mcp_portfolio_set_placement(mcp_portfolio *portfolio, mcp_placement placement);
MCP_DEPRECATED("mcp_run_options_placement")
mcp_placement mcp_portfolio_placement(const mcp_portfolio *portfolio);
MCP_DEPRECATED("mcp_run_options_set_normals")
mcp_status mcp_portfolio_set_normals(mcp_portfolio *portfolio, mcp_normals normals);
MCP_DEPRECATED("mcp_run_options_normals")
mcp_normals mcp_portfolio_normals(const mcp_portfolio *portfolio);
MCP_DEPRECATED("mcp_run_options_set_pde")
mcp_status mcp_portfolio_set_pde(mcp_portfolio *portfolio, const mcp_pde_settings *settings);
MCP_DEPRECATED("mcp_run_options_pde")
void mcp_portfolio_pde(const mcp_portfolio *portfolio, mcp_pde_settings *settings);

#ifdef __cplusplus
}
#endif
#endif /* MCPRICE_H */
