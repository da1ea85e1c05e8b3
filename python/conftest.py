# pytest over python/ (tests/test_python.sh): mcprice.plot's doctests need
# matplotlib, an optional dependency; without it they are not collected
# (python/tests/test_plot.py skips itself).
import importlib.util

collect_ignore = [] if importlib.util.find_spec("matplotlib") else ["mcprice/plot.py"]
