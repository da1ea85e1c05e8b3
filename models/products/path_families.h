/* path_families.h: the path body (path_body.h) once for each family of
 * path_families.def; path.h includes it.  Made by path_families.awk from
 * that table (make remakes it): edit the table, not this file. */

/* (no suffix): double */
#define MCPI_P(name) name
#define MCPI_NSCHED MCPI_MAX_SCHEDULES
#define MCPI_NMON MCPI_MAX_MONITORS
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF

/* _g: double, MCPI_GREEK_STATE */
#define MCPI_P(name) name##_g
#define MCPI_NSCHED MCPI_MAX_SCHEDULES
#define MCPI_NMON MCPI_MAX_MONITORS
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_GREEK_STATE
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_GREEK_STATE

/* _f: float */
#define MCPI_P(name) name##_f
#define MCPI_NSCHED MCPI_MAX_SCHEDULES
#define MCPI_NMON MCPI_MAX_MONITORS
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_FLOAT_BODY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY

/* _x: double, MCPI_LSM_BODY */
#define MCPI_P(name) name##_x
#define MCPI_NSCHED MCPI_LSM_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_LSM_BODY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_LSM_BODY

/* _fx: float, MCPI_LSM_BODY */
#define MCPI_P(name) name##_fx
#define MCPI_NSCHED MCPI_LSM_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_FLOAT_BODY
#define MCPI_LSM_BODY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_LSM_BODY

/* _xs: double, MCPI_LSM_BODY MCPI_LSM_SCALED */
#define MCPI_P(name) name##_xs
#define MCPI_NSCHED MCPI_LSM_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_LSM_BODY
#define MCPI_LSM_SCALED
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_LSM_BODY
#undef MCPI_LSM_SCALED

/* _fxs: float, MCPI_LSM_BODY MCPI_LSM_SCALED */
#define MCPI_P(name) name##_fxs
#define MCPI_NSCHED MCPI_LSM_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) ((j)->model)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) ((j)->extrema)
#define MCPI_CASH_OF(j) ((j)->cash != NULL)
#define MCPI_FLOAT_BODY
#define MCPI_LSM_BODY
#define MCPI_LSM_SCALED
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_LSM_BODY
#undef MCPI_LSM_SCALED

/* _s: double, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_s
#define MCPI_NSCHED MCPI_SMALL_SCHEDULES
#define MCPI_NMON MCPI_SMALL_MONITORS
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY

/* _fs: float, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_fs
#define MCPI_NSCHED MCPI_SMALL_SCHEDULES
#define MCPI_NMON MCPI_SMALL_MONITORS
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_FLOAT_BODY
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_SINGLE_ONLY

/* _gs: double, MCPI_SINGLE_ONLY MCPI_GREEK_STATE */
#define MCPI_P(name) name##_gs
#define MCPI_NSCHED MCPI_SMALL_SCHEDULES
#define MCPI_NMON MCPI_SMALL_MONITORS
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) ((j)->track)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#define MCPI_GREEK_STATE
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY
#undef MCPI_GREEK_STATE

/* _p: double, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_p
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY

/* _fp: float, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_fp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_FLOAT_BODY
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_SINGLE_ONLY

/* _mp: double, MCPI_SINGLE_ONLY MCPI_MIXED_EXP */
#define MCPI_P(name) name##_mp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_BLACK_SCHOLES)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#define MCPI_MIXED_EXP
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY
#undef MCPI_MIXED_EXP

/* _hp: double, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_hp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_HESTON)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY

/* _hc: double, MCPI_SINGLE_ONLY MCPI_QE_CALLED */
#define MCPI_P(name) name##_hc
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_HESTON)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#define MCPI_QE_CALLED
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY
#undef MCPI_QE_CALLED

/* _fhp: float, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_fhp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_HESTON)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_FLOAT_BODY
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_SINGLE_ONLY

/* _lp: double, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_lp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_LOCAL_VOL)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_SINGLE_ONLY

/* _flp: float, MCPI_SINGLE_ONLY */
#define MCPI_P(name) name##_flp
#define MCPI_NSCHED MCPI_PLAIN_SCHEDULES
#define MCPI_NMON 0
#define MCPI_MODEL_OF(j) (MCPI_MODEL_LOCAL_VOL)
#define MCPI_TRACK_OF(j) (0)
#define MCPI_EXTREMA_OF(j) (0)
#define MCPI_CASH_OF(j) (0)
#define MCPI_FLOAT_BODY
#define MCPI_SINGLE_ONLY
#include "models/products/path_body.h"
#undef MCPI_P
#undef MCPI_NSCHED
#undef MCPI_NMON
#undef MCPI_MODEL_OF
#undef MCPI_TRACK_OF
#undef MCPI_EXTREMA_OF
#undef MCPI_CASH_OF
#undef MCPI_FLOAT_BODY
#undef MCPI_SINGLE_ONLY
