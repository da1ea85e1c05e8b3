#!/bin/sh
# test_python.sh: the Python binding's tests (python/tests) with pytest,
# against this build's library; skipped (77) without Python 3 and pytest, or
# when the library is built with a sanitizer (it would need its runtime
# preloaded into Python).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lib=$top_builddir/src/.libs/libmcprice.so
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import pytest" 2>/dev/null; then
  echo "SKIP: no python3 with pytest"
  exit 77
fi
if [ ! -f "$lib" ]; then
  echo "SKIP: $lib is not built (a static build?)"
  exit 77
fi
if command -v ldd >/dev/null 2>&1 && ldd "$lib" | grep -q -e libasan -e libtsan -e libubsan; then
  echo "SKIP: the library is built with a sanitizer"
  exit 77
fi
MCPRICE_LIBRARY=$lib PYTHONPATH=$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH} \
  top_srcdir=$top_srcdir exec python3 -m pytest -q -p no:cacheprovider "$top_srcdir/python/tests"
