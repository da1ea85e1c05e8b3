#!/bin/sh
# test_python.sh: the Python binding's tests (python/tests) with pytest,
# against this build's library, its types and the examples' under mypy
# --strict where mypy is installed, and the examples of its docstrings
# (python/mcprice/*.py) and of README.md's "Python" as doctests, run from
# the top of the source tree (make update-docs rewrites their outputs:
# tests/update_doctests.py); skipped (77) without Python 3 and pytest, or
# when the library is built with a sanitizer (it would need its runtime
# preloaded into Python).  The interpreter: $PYTHON if set, else the first
# of python3 on PATH and /usr/bin/python3 that has pytest (a pyenv python3
# first on PATH lacks the Debian packages the tests use).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
py=
for c in ${PYTHON:-python3 /usr/bin/python3}; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "import pytest" 2>/dev/null; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with pytest"
  exit 77
fi
echo "Python: $py ($("$py" --version 2>&1))"
. "$top_srcdir/tests/shared_lib.sh"
src=$(cd "$top_srcdir" && pwd)
# the package and the examples under mypy --strict (python/pyproject.toml's
# settings), where mypy is installed; no cache written
cd "$src" || exit 1
if "$py" -m mypy --version >/dev/null 2>&1; then
  MYPYPATH=$src/python "$py" -m mypy --config-file python/pyproject.toml --cache-dir=/dev/null \
    python/mcprice python/mcprice_build.py examples/python_example.py examples/closed_forms.py ||
    exit 1
else
  echo "mypy is not installed: the types are not checked"
fi
# no bytecode written into the source tree (read-only in make distcheck)
MCPRICE_LIBRARY=$lib MPLBACKEND=Agg PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH} \
  PYTHONDONTWRITEBYTECODE=1 top_srcdir=$src exec "$py" -m pytest -q -p no:cacheprovider -rs \
  --doctest-modules --doctest-glob=README.md python/tests python/mcprice README.md
