// path_families.cuh: the states of each family of
// models/products/path_families.def as the path kernels' overloads
// (path_kernel.cuh, MCPI_BODY_OVERLOADS), and the state a kernel of a
// catalogue state takes (state_of, greek_state_of, lsm_state_of,
// lsm_scaled_state_of).  Made by
// models/products/path_families.awk from that table (make remakes it):
// edit the table, not this file.

// (no suffix): double
MCPI_BODY_OVERLOADS(mcpi_path_state, double, mcpi_path_init, mcpi_path_step,
                    mcpi_path_finish, mcpi_path_log_spots, mcpi_path_survival,
                    MCPI_DOUBLE_STEP_INLINE)
template <> struct state_of<double, MCPI_STATE_ONE> { typedef mcpi_path_state type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state, double, mcpi_multi_init, mcpi_multi_step,
                    mcpi_multi_finish, mcpi_multi_log_spots, mcpi_multi_survival,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_MULTI> { typedef mcpi_multi_state type; };
MCPI_BODY_OVERLOADS(mcpi_mlv_state, double, mcpi_mlv_init, mcpi_mlv_step,
                    mcpi_mlv_finish, mcpi_mlv_log_spots, mcpi_mlv_survival,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_MLV> { typedef mcpi_mlv_state type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state, double, mcpi_mheston_init, mcpi_mheston_step,
                    mcpi_mheston_finish, mcpi_mheston_log_spots, mcpi_mheston_survival,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state type; };

// _g: double, MCPI_GREEK_STATE
MCPI_BODY_OVERLOADS(mcpi_path_state_g, double, mcpi_path_init_g, mcpi_path_step_g,
                    mcpi_path_finish_g, mcpi_path_log_spots_g, mcpi_path_survival_g,
                    MCPI_DOUBLE_STEP_INLINE)
template <> struct greek_state_of<double, MCPI_STATE_ONE> { typedef mcpi_path_state_g type; };

// _f: float
MCPI_BODY_OVERLOADS(mcpi_path_state_f, float, mcpi_path_init_f, mcpi_path_step_f,
                    mcpi_path_finish_f, mcpi_path_log_spots_f, mcpi_path_survival_f,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_ONE> { typedef mcpi_path_state_f type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state_f, float, mcpi_multi_init_f, mcpi_multi_step_f,
                    mcpi_multi_finish_f, mcpi_multi_log_spots_f, mcpi_multi_survival_f,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_MULTI> { typedef mcpi_multi_state_f type; };
MCPI_BODY_OVERLOADS(mcpi_mlv_state_f, float, mcpi_mlv_init_f, mcpi_mlv_step_f,
                    mcpi_mlv_finish_f, mcpi_mlv_log_spots_f, mcpi_mlv_survival_f,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_MLV> { typedef mcpi_mlv_state_f type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state_f, float, mcpi_mheston_init_f, mcpi_mheston_step_f,
                    mcpi_mheston_finish_f, mcpi_mheston_log_spots_f, mcpi_mheston_survival_f,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state_f type; };

// _x: double, MCPI_LSM_BODY
MCPI_BODY_OVERLOADS(mcpi_path_state_x, double, mcpi_path_init_x, mcpi_path_step_x,
                    mcpi_path_finish_x, mcpi_path_log_spots_x, mcpi_path_survival_x,
                    MCPI_DOUBLE_STEP_INLINE)
template <> struct lsm_state_of<double, MCPI_STATE_ONE> { typedef mcpi_path_state_x type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state_x, double, mcpi_multi_init_x, mcpi_multi_step_x,
                    mcpi_multi_finish_x, mcpi_multi_log_spots_x, mcpi_multi_survival_x,
                    __forceinline__)
template <> struct lsm_state_of<double, MCPI_STATE_MULTI> { typedef mcpi_multi_state_x type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state_x, double, mcpi_mheston_init_x, mcpi_mheston_step_x,
                    mcpi_mheston_finish_x, mcpi_mheston_log_spots_x, mcpi_mheston_survival_x,
                    __forceinline__)
template <> struct lsm_state_of<double, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state_x type; };

// _fx: float, MCPI_LSM_BODY
MCPI_BODY_OVERLOADS(mcpi_path_state_fx, float, mcpi_path_init_fx, mcpi_path_step_fx,
                    mcpi_path_finish_fx, mcpi_path_log_spots_fx, mcpi_path_survival_fx,
                    __forceinline__)
template <> struct lsm_state_of<float, MCPI_STATE_ONE> { typedef mcpi_path_state_fx type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state_fx, float, mcpi_multi_init_fx, mcpi_multi_step_fx,
                    mcpi_multi_finish_fx, mcpi_multi_log_spots_fx, mcpi_multi_survival_fx,
                    __forceinline__)
template <> struct lsm_state_of<float, MCPI_STATE_MULTI> { typedef mcpi_multi_state_fx type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state_fx, float, mcpi_mheston_init_fx, mcpi_mheston_step_fx,
                    mcpi_mheston_finish_fx, mcpi_mheston_log_spots_fx, mcpi_mheston_survival_fx,
                    __forceinline__)
template <> struct lsm_state_of<float, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state_fx type; };

// _xs: double, MCPI_LSM_BODY MCPI_LSM_SCALED
MCPI_BODY_OVERLOADS(mcpi_path_state_xs, double, mcpi_path_init_xs, mcpi_path_step_xs,
                    mcpi_path_finish_xs, mcpi_path_log_spots_xs, mcpi_path_survival_xs,
                    MCPI_DOUBLE_STEP_INLINE)
template <> struct lsm_scaled_state_of<double, MCPI_STATE_ONE> { typedef mcpi_path_state_xs type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state_xs, double, mcpi_multi_init_xs, mcpi_multi_step_xs,
                    mcpi_multi_finish_xs, mcpi_multi_log_spots_xs, mcpi_multi_survival_xs,
                    __forceinline__)
template <> struct lsm_scaled_state_of<double, MCPI_STATE_MULTI> { typedef mcpi_multi_state_xs type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state_xs, double, mcpi_mheston_init_xs, mcpi_mheston_step_xs,
                    mcpi_mheston_finish_xs, mcpi_mheston_log_spots_xs, mcpi_mheston_survival_xs,
                    __forceinline__)
template <> struct lsm_scaled_state_of<double, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state_xs type; };

// _fxs: float, MCPI_LSM_BODY MCPI_LSM_SCALED
MCPI_BODY_OVERLOADS(mcpi_path_state_fxs, float, mcpi_path_init_fxs, mcpi_path_step_fxs,
                    mcpi_path_finish_fxs, mcpi_path_log_spots_fxs, mcpi_path_survival_fxs,
                    __forceinline__)
template <> struct lsm_scaled_state_of<float, MCPI_STATE_ONE> { typedef mcpi_path_state_fxs type; };
MCPI_BODY_OVERLOADS(mcpi_multi_state_fxs, float, mcpi_multi_init_fxs, mcpi_multi_step_fxs,
                    mcpi_multi_finish_fxs, mcpi_multi_log_spots_fxs, mcpi_multi_survival_fxs,
                    __forceinline__)
template <> struct lsm_scaled_state_of<float, MCPI_STATE_MULTI> { typedef mcpi_multi_state_fxs type; };
MCPI_BODY_OVERLOADS(mcpi_mheston_state_fxs, float, mcpi_mheston_init_fxs, mcpi_mheston_step_fxs,
                    mcpi_mheston_finish_fxs, mcpi_mheston_log_spots_fxs, mcpi_mheston_survival_fxs,
                    __forceinline__)
template <> struct lsm_scaled_state_of<float, MCPI_STATE_MHESTON> { typedef mcpi_mheston_state_fxs type; };

// _s: double, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_s, double, mcpi_path_init_s, mcpi_path_step_s,
                    mcpi_path_finish_s, mcpi_path_log_spots_s, mcpi_path_survival_s,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_SHAPED> { typedef mcpi_path_state_s type; };

// _fs: float, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_fs, float, mcpi_path_init_fs, mcpi_path_step_fs,
                    mcpi_path_finish_fs, mcpi_path_log_spots_fs, mcpi_path_survival_fs,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_SHAPED> { typedef mcpi_path_state_fs type; };

// _gs: double, MCPI_SINGLE_ONLY MCPI_GREEK_STATE
MCPI_BODY_OVERLOADS(mcpi_path_state_gs, double, mcpi_path_init_gs, mcpi_path_step_gs,
                    mcpi_path_finish_gs, mcpi_path_log_spots_gs, mcpi_path_survival_gs,
                    __forceinline__)
template <> struct greek_state_of<double, MCPI_STATE_SHAPED> { typedef mcpi_path_state_gs type; };

// _p: double, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_p, double, mcpi_path_init_p, mcpi_path_step_p,
                    mcpi_path_finish_p, mcpi_path_log_spots_p, mcpi_path_survival_p,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_PLAIN> { typedef mcpi_path_state_p type; };

// _fp: float, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_fp, float, mcpi_path_init_fp, mcpi_path_step_fp,
                    mcpi_path_finish_fp, mcpi_path_log_spots_fp, mcpi_path_survival_fp,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_PLAIN> { typedef mcpi_path_state_fp type; };

// _mp: double, MCPI_SINGLE_ONLY MCPI_MIXED_EXP
MCPI_BODY_OVERLOADS(mcpi_path_state_mp, double, mcpi_path_init_mp, mcpi_path_step_mp,
                    mcpi_path_finish_mp, mcpi_path_log_spots_mp, mcpi_path_survival_mp,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_PLAIN_MIXED> { typedef mcpi_path_state_mp type; };

// _hp: double, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_hp, double, mcpi_path_init_hp, mcpi_path_step_hp,
                    mcpi_path_finish_hp, mcpi_path_log_spots_hp, mcpi_path_survival_hp,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_HESTON_PLAIN> { typedef mcpi_path_state_hp type; };

// _hc: double, MCPI_SINGLE_ONLY MCPI_QE_CALLED
MCPI_BODY_OVERLOADS(mcpi_path_state_hc, double, mcpi_path_init_hc, mcpi_path_step_hc,
                    mcpi_path_finish_hc, mcpi_path_log_spots_hc, mcpi_path_survival_hc,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_HESTON_CHECKED> { typedef mcpi_path_state_hc type; };

// _fhp: float, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_fhp, float, mcpi_path_init_fhp, mcpi_path_step_fhp,
                    mcpi_path_finish_fhp, mcpi_path_log_spots_fhp, mcpi_path_survival_fhp,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_HESTON_PLAIN> { typedef mcpi_path_state_fhp type; };
template <> struct state_of<float, MCPI_STATE_HESTON_CHECKED> { typedef mcpi_path_state_fhp type; };

// _lp: double, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_lp, double, mcpi_path_init_lp, mcpi_path_step_lp,
                    mcpi_path_finish_lp, mcpi_path_log_spots_lp, mcpi_path_survival_lp,
                    __forceinline__)
template <> struct state_of<double, MCPI_STATE_LV_PLAIN> { typedef mcpi_path_state_lp type; };

// _flp: float, MCPI_SINGLE_ONLY
MCPI_BODY_OVERLOADS(mcpi_path_state_flp, float, mcpi_path_init_flp, mcpi_path_step_flp,
                    mcpi_path_finish_flp, mcpi_path_log_spots_flp, mcpi_path_survival_flp,
                    __forceinline__)
template <> struct state_of<float, MCPI_STATE_LV_PLAIN> { typedef mcpi_path_state_flp type; };
