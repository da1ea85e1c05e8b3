/* path_body.h: the path body in one precision, MCPI_REAL (double or float);
 * included twice by path.h, which defines MCPI_REAL, MCPI_EXP, MCPI_P (the
 * function name suffix) and MCPI_COEF (the view's coefficient arrays).  No
 * include guard on purpose. */

typedef struct MCPI_P(mcpi_path_state) {
  MCPI_REAL log_spot;
  MCPI_REAL spot_sum[MCPI_MAX_SCHEDULES], log_sum[MCPI_MAX_SCHEDULES];
} MCPI_P(mcpi_path_state);

MCP_HD static inline void MCPI_P(mcpi_path_init)(MCPI_P(mcpi_path_state) *st,
                                                 const mcpi_job_view *j)
{
  st->log_spot = (MCPI_REAL)j->log_spot;
  MCP_UNROLL
  for (int k = 0; k < MCPI_MAX_SCHEDULES; k++)
    st->spot_sum[k] = st->log_sum[k] = 0;
}

/* One simulation date: the model step, then the fixings made there. */
MCP_HD static inline void MCPI_P(mcpi_path_step)(MCPI_P(mcpi_path_state) *st, MCPI_REAL z,
                                                 MCPI_REAL drift, MCPI_REAL vol,
                                                 uint32_t mask)
{
  st->log_spot = MCPI_GBM_STEP(st->log_spot, drift, vol, z);
  if (mask) {
    MCPI_REAL spot = MCPI_EXP(st->log_spot);
    MCP_UNROLL
    for (int k = 0; k < MCPI_MAX_SCHEDULES; k++)
      if (mask >> k & 1u) {
        st->spot_sum[k] += spot;
        st->log_sum[k] += st->log_spot;
      }
  }
}

MCP_HD static inline void MCPI_P(mcpi_path_finish)(const MCPI_P(mcpi_path_state) *st,
                                                   const mcpi_job_view *j, double *pay,
                                                   size_t ldp)
{
  double a[MCPI_MAX_SCHEDULES], l[MCPI_MAX_SCHEDULES];
  MCP_UNROLL
  for (int k = 0; k < MCPI_MAX_SCHEDULES; k++) {
    a[k] = st->spot_sum[k];
    l[k] = st->log_sum[k];
  }
  mcpi_path_payoffs(j, a, l, pay, ldp);
}

/* The plain loop: the CPU backend, and the GPU's "none" strategy. */
MCP_HD static inline void MCPI_P(mcpi_path)(const mcpi_job_view *j, const MCPI_REAL *z,
                                            size_t ldz, double *pay, size_t ldp)
{
  MCPI_P(mcpi_path_state) st;
  MCPI_P(mcpi_path_init)(&st, j);
  for (int s = 0; s < j->nsteps; s++)
    MCPI_P(mcpi_path_step)(&st, z[(size_t)s * ldz], j->MCPI_COEF(drift)[s],
                           j->MCPI_COEF(vol)[s], j->fixmask[s]);
  MCPI_P(mcpi_path_finish)(&st, j, pay, ldp);
}
