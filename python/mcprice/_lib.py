"""_lib.py: finding libmcprice and declaring the calls the binding makes."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
from typing import Any, Dict, List, Optional, Tuple

_c = ctypes
P = _c.c_void_p
PP = _c.POINTER(_c.c_void_p)
ERRLEN = 1024
# mcp_progress_fn: the fraction done, the user pointer
PROGRESS = _c.CFUNCTYPE(None, _c.c_double, _c.c_void_p)


class Estimate_(_c.Structure):
    _fields_ = [("price", _c.c_double), ("std_error", _c.c_double),
                ("ci_low", _c.c_double), ("ci_high", _c.c_double)]


class Sensitivity_(_c.Structure):
    _fields_ = [("name", _c.c_char_p), ("greek", _c.c_int), ("method", _c.c_int),
                ("underlying", _c.c_char_p), ("underlying2", _c.c_char_p),
                ("value", Estimate_), ("bucket", _c.c_char_p)]


class Quotes_(_c.Structure):
    _fields_ = [("underlying", _c.c_char_p), ("nmaturities", _c.c_size_t),
                ("nstrikes", _c.c_size_t), ("maturities", _c.POINTER(_c.c_double)),
                ("strikes", _c.POINTER(_c.c_double)), ("vols", _c.POINTER(_c.c_double))]


class Fit_(_c.Structure):
    _fields_ = [("model", _c.c_int), ("nparams", _c.c_size_t), ("params", _c.c_double * 5),
                ("quotes", _c.c_size_t), ("rmse", _c.c_double), ("max_error", _c.c_double),
                ("iterations", _c.c_uint), ("converged", _c.c_int), ("at_bound", _c.c_uint)]


class FrtbRecord_(_c.Structure):
    _fields_ = [("trade_id", _c.c_char_p), ("risk", _c.c_int), ("qualifier", _c.c_char_p),
                ("bucket", _c.c_int), ("tenor", _c.c_double), ("amount", _c.c_double),
                ("currency", _c.c_char_p)]


_HERE = os.path.dirname(os.path.abspath(__file__))


def _carried() -> Optional[str]:
    """A wheel's own library (mcprice_build.py), the libraries it needs
    beyond the C runtime (_libs) loaded first: the loader then finds them
    by their names, loaded, wherever the system's are."""
    own = os.path.join(_HERE, "libmcprice.so")
    if not os.path.isfile(own):
        return None
    carried = os.path.join(_HERE, "_libs")
    left = sorted(os.listdir(carried)) if os.path.isdir(carried) else []
    while left:  # one that needs another carried one loads once that one has
        failed = []
        for n in left:
            try:
                ctypes.CDLL(os.path.join(carried, n), mode=ctypes.RTLD_GLOBAL)
            except OSError:
                failed.append(n)
        if len(failed) == len(left):
            raise ImportError(f"mcprice: cannot load {', '.join(failed)} from {carried}")
        left = failed
    return own


def _candidates() -> List[str]:
    """Where the library may be: MCPRICE_LIBRARY, the wheel's own, the
    loader, pkg-config."""
    env = os.environ.get("MCPRICE_LIBRARY")
    if env:
        return [env]
    own = _carried()
    if own:
        return [own]
    found = [ctypes.util.find_library("mcprice")]
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "mcprice"],
                                capture_output=True, text=True, check=True).stdout.strip()
        found.append(os.path.join(libdir, "libmcprice.so"))
    except (OSError, subprocess.CalledProcessError):
        pass
    return [f for f in found if f] + ["libmcprice.so.0", "libmcprice.so"]


def load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            _declare(lib)
        except (OSError, AttributeError) as e:  # not there, or an older library
            tried.append(f"{path}: {e}")
            continue
        return lib
    raise ImportError("mcprice: cannot load libmcprice (set MCPRICE_LIBRARY to its path, or "
                      "install it where the loader or pkg-config finds it); tried: " +
                      "; ".join(tried))


# name: (return type, argument types)
_CALLS: Dict[str, Tuple[Optional[Any], List[Any]]] = {
    "mcp_strerror": (_c.c_char_p, [_c.c_int]),
    "mcp_version": (_c.c_char_p, []),
    "mcp_heston_european": (_c.c_int, [_c.c_int] + [_c.c_double] * 10 +
                            [_c.POINTER(_c.c_double), _c.c_char_p, _c.c_size_t]),
    "mcp_quotes_load": (_c.c_int, [_c.c_char_p, P, _c.POINTER(Quotes_), _c.c_char_p,
                                   _c.c_size_t]),
    "mcp_quotes_load_text": (_c.c_int, [_c.c_char_p, _c.c_char_p, _c.c_size_t, P,
                                        _c.POINTER(Quotes_), _c.c_char_p, _c.c_size_t]),
    "mcp_quotes_free": (None, [_c.POINTER(Quotes_)]),
    "mcp_fit_model_from_name": (_c.c_int, [_c.c_char_p, _c.POINTER(_c.c_int)]),
    "mcp_fit_param_name": (_c.c_char_p, [_c.c_int, _c.c_size_t]),
    "mcp_calibrate": (_c.c_int, [P, _c.POINTER(Quotes_), _c.c_int, _c.POINTER(Fit_),
                                 _c.POINTER(_c.c_double), _c.c_char_p, _c.c_size_t]),
    "mcp_market_text_fitted": (_c.c_int, [_c.c_char_p, _c.c_char_p, _c.c_size_t, _c.c_char_p,
                                          _c.POINTER(Fit_), _c.POINTER(_c.c_void_p),
                                          _c.POINTER(_c.c_size_t), _c.c_char_p, _c.c_size_t]),
    "mcp_context_create": (_c.c_int, [PP, _c.c_int]),
    "mcp_context_destroy": (None, [P]),
    "mcp_context_last_error": (_c.c_char_p, [P]),
    "mcp_context_create_with_options": (_c.c_int, [PP, P, _c.c_char_p, _c.c_size_t]),
    "mcp_context_set_device": (_c.c_int, [P, _c.c_int]),
    "mcp_context_set_devices": (_c.c_int, [P, _c.c_size_t, _c.POINTER(_c.c_int)]),
    "mcp_wisdom_load": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_context_set_wisdom": (_c.c_int, [P, P]),
    "mcp_wisdom_destroy": (None, [P]),
    "mcp_run_options_load": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_run_options_load_text": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t,
                                             _c.c_char_p, _c.c_size_t]),
    "mcp_run_options_destroy": (None, [P]),
    "mcp_run_options_last_error": (_c.c_char_p, [P]),
    "mcp_run_options_set_backend": (_c.c_int, [P, _c.c_int]),
    "mcp_run_options_backend": (_c.c_int, [P]),
    "mcp_run_options_set_tile_paths": (_c.c_int, [P, _c.c_uint64]),
    "mcp_run_options_set_block_size": (_c.c_int, [P, _c.c_int]),
    "mcp_run_options_set_precision": (_c.c_int, [P, _c.c_int]),
    "mcp_run_options_set_normals": (_c.c_int, [P, _c.c_int]),
    "mcp_run_options_set_placement": (_c.c_int, [P, _c.c_int]),
    "mcp_backend_from_name": (_c.c_int, [_c.c_char_p, _c.POINTER(_c.c_int)]),
    "mcp_backend_name": (_c.c_char_p, [_c.c_int]),
    "mcp_precision_from_name": (_c.c_int, [_c.c_char_p, _c.POINTER(_c.c_int)]),
    "mcp_normals_from_name": (_c.c_int, [_c.c_char_p, _c.POINTER(_c.c_int)]),
    "mcp_placement_from_name": (_c.c_int, [_c.c_char_p, _c.POINTER(_c.c_int)]),
    "mcp_market_load": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_market_load_text": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t,
                                        _c.c_char_p, _c.c_size_t]),
    "mcp_market_destroy": (None, [P]),
    "mcp_portfolio_load": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_portfolio_load_text": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t,
                                           _c.c_char_p, _c.c_size_t]),
    "mcp_portfolio_load_for": (_c.c_int, [PP, P, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_portfolio_load_text_for": (_c.c_int, [PP, P, _c.c_char_p, _c.c_char_p, _c.c_size_t,
                                               _c.c_char_p, _c.c_size_t]),
    "mcp_portfolio_load_with_options": (_c.c_int, [PP, PP, P, _c.c_char_p, _c.c_char_p,
                                                   _c.c_size_t]),
    "mcp_portfolio_load_text_with_options": (_c.c_int, [PP, PP, P, _c.c_char_p, _c.c_char_p,
                                                        _c.c_size_t, _c.c_char_p, _c.c_size_t]),
    "mcp_portfolio_destroy": (None, [P]),
    "mcp_portfolio_last_error": (_c.c_char_p, [P]),
    "mcp_portfolio_set_paths": (_c.c_int, [P, _c.c_uint64]),
    "mcp_portfolio_set_seed": (_c.c_int, [P, _c.c_uint64]),
    "mcp_portfolio_set_steps_per_year": (_c.c_int, [P, _c.c_uint]),
    "mcp_portfolio_set_methods": (_c.c_int, [P, _c.c_int]),
    "mcp_portfolio_set_scramblings": (_c.c_int, [P, _c.c_uint]),
    "mcp_portfolio_set_regression_paths": (_c.c_int, [P, _c.c_uint64]),
    "mcp_portfolio_set_heston_scheme": (_c.c_int, [P, _c.c_int]),
    "mcp_scenarios_load": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "mcp_scenarios_load_text": (_c.c_int, [PP, _c.c_char_p, _c.c_char_p, _c.c_size_t,
                                           _c.c_char_p, _c.c_size_t]),
    "mcp_scenarios_destroy": (None, [P]),
    "mcp_greeks_create": (_c.c_int, [PP]),
    "mcp_greeks_destroy": (None, [P]),
    "mcp_greeks_parse": (_c.c_int, [P, _c.c_char_p]),
    "mcp_greeks_set_bump_only": (_c.c_int, [P, _c.c_int]),
    "mcp_greeks_set_buckets": (_c.c_int, [P, _c.c_int]),
    "mcp_greeks_last_error": (_c.c_char_p, [P]),
    "mcp_context_set_progress": (_c.c_int, [P, PROGRESS, P]),
    "mcp_context_cancel": (_c.c_int, [P]),
    "mcp_price": (_c.c_int, [P, P, P, PP]),
    "mcp_price_greeks": (_c.c_int, [P, P, P, P, PP]),
    "mcp_price_scenarios": (_c.c_int, [P, P, P, P, PP]),
    "mcp_results_count": (_c.c_size_t, [P]),
    "mcp_results_trade_id": (_c.c_char_p, [P, _c.c_size_t]),
    "mcp_results_trade": (_c.c_int, [P, _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_results_quantity": (_c.c_double, [P, _c.c_size_t]),
    "mcp_results_engine": (_c.c_int, [P, _c.c_size_t]),
    "mcp_engine_name": (_c.c_char_p, [_c.c_int]),
    "mcp_results_total": (_c.c_int, [P, _c.POINTER(Estimate_)]),
    "mcp_results_paths": (_c.c_uint64, [P]),
    "mcp_results_seed": (_c.c_uint64, [P]),
    "mcp_results_backend": (_c.c_int, [P]),
    "mcp_results_seconds": (_c.c_double, [P]),
    "mcp_results_destroy": (None, [P]),
    "mcp_results_warnings": (_c.c_uint, [P, _c.c_size_t]),
    "mcp_warning_name": (_c.c_char_p, [_c.c_int]),
    "mcp_warning_text": (_c.c_char_p, [_c.c_int]),
    "mcp_results_redemptions": (_c.c_size_t, [P, _c.c_size_t]),
    "mcp_results_redemption": (_c.c_int, [P, _c.c_size_t, _c.c_size_t,
                                          _c.POINTER(_c.c_double), _c.POINTER(Estimate_)]),
    "mcp_results_grid_move": (_c.c_int, [P, _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_run_options_set_grid_check": (_c.c_int, [P, _c.c_int]),
    "mcp_run_options_set_exercise_boundary": (_c.c_int, [P, _c.c_int]),
    "mcp_results_exercise_boundaries": (_c.c_size_t, [P, _c.c_size_t]),
    "mcp_results_exercise_boundary": (_c.c_int, [P, _c.c_size_t, _c.c_size_t,
                                                 _c.POINTER(_c.c_double),
                                                 _c.POINTER(_c.c_double)]),
    "mcp_results_sensitivities": (_c.c_size_t, [P, _c.c_size_t]),
    "mcp_results_sensitivity": (_c.c_int, [P, _c.c_size_t, _c.c_size_t,
                                           _c.POINTER(Sensitivity_)]),
    "mcp_greek_name": (_c.c_char_p, [_c.c_int]),
    "mcp_greek_method_name": (_c.c_char_p, [_c.c_int]),
    "mcp_scenario_results_shifts": (_c.c_size_t, [P, _c.c_int]),
    "mcp_scenario_results_shift": (_c.c_double, [P, _c.c_int, _c.c_size_t]),
    "mcp_scenario_results_kind": (_c.c_int, [P, _c.c_int]),
    "mcp_scenario_results_count": (_c.c_size_t, [P]),
    "mcp_scenario_results_trade_id": (_c.c_char_p, [P, _c.c_size_t]),
    "mcp_scenario_results_quantity": (_c.c_double, [P, _c.c_size_t]),
    "mcp_scenario_results_trade": (_c.c_int, [P, _c.c_size_t, _c.c_size_t, _c.c_size_t,
                                              _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_scenario_results_total": (_c.c_int, [P, _c.c_size_t, _c.c_size_t, _c.c_size_t,
                                              _c.POINTER(Estimate_)]),
    "mcp_scenario_results_destroy": (None, [P]),
    "mcp_scenario_results_scenarios": (_c.c_size_t, [P]),
    "mcp_scenario_results_name": (_c.c_char_p, [P, _c.c_size_t]),
    "mcp_scenario_results_set_trade": (_c.c_int, [P, _c.c_size_t, _c.c_size_t,
                                                  _c.POINTER(Estimate_)]),
    "mcp_scenario_results_set_total": (_c.c_int, [P, _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_scenario_results_base": (_c.c_int, [P, _c.POINTER(Estimate_)]),
    "mcp_scenario_results_base_trade": (_c.c_int, [P, _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_scenario_results_loss": (_c.c_int, [P, _c.c_size_t, _c.POINTER(Estimate_)]),
    "mcp_scenario_results_var": (_c.c_int, [P, _c.c_double, _c.POINTER(_c.c_double),
                                            _c.POINTER(_c.c_double)]),
    "mcp_price_frtb": (_c.c_int, [P, P, P, PP]),
    "mcp_frtb_count": (_c.c_size_t, [P]),
    "mcp_frtb_record_at": (_c.c_int, [P, _c.c_size_t, _c.POINTER(FrtbRecord_)]),
    "mcp_frtb_risk_name": (_c.c_char_p, [_c.c_int]),
    "mcp_frtb_crif": (_c.c_int, [P, _c.POINTER(_c.c_void_p), _c.POINTER(_c.c_size_t)]),
    "mcp_frtb_destroy": (None, [P]),
    "mcp_free": (None, [P]),
}


def _declare(lib: ctypes.CDLL) -> None:
    for name, (res, args) in _CALLS.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
