/* slice_rms.h: a local-volatility slice's root mean square over a step
 * (coefficients.c, mcpi_job_slice), node by node, in the host's vector
 * copies (rng.h: mcpi_host_copy).  slice_rms.c is built without errno, so
 * that the square roots vectorise: a 200 x 400 surface's daily slices were
 * half of a call's host work, most of it the scalar division and root. */
#ifndef MCP_SLICE_RMS_H
#define MCP_SLICE_RMS_H

#include <stddef.h>

/* acc[i] += dt (p[i]^2 + p[i] q[i] + q[i]^2) / 3, i < m: the integral over
 * dt of the square of a value linear from p[i] to q[i]. */
void mcpi_rms_piece(int copy, double *acc, double dt, const double *p, const double *q, size_t m);
/* vol[i] = sqrt(acc[i] / dt) and vol_f[i] its float, i < m; vol may be acc
 * (mcpi_job_slice writes the roots over the sums). */
void mcpi_rms_roots(int copy, const double *acc, double dt, double *vol, float *vol_f, size_t m);

#endif
