# shared_lib.sh: sourced by the tests that load the build's shared library
# from outside it (Python, a program built through pkg-config): sets $lib,
# its absolute path, or skips (77) where there is none (a static build) or
# where it is built with a sanitizer (a program or interpreter would need
# the sanitizer's runtime loaded first).
lib=${top_builddir:-.}/src/.libs/libmcprice.so
if [ ! -f "$lib" ]; then
  echo "SKIP: $lib is not built (a static build?)"
  exit 77
fi
if command -v ldd >/dev/null 2>&1 && ldd "$lib" | grep -q -e libasan -e libtsan -e libubsan; then
  echo "SKIP: the library is built with a sanitizer"
  exit 77
fi
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
