#!/bin/sh
# test_pkgconfig.sh: C without installing.  examples/api_example.c, built
# against this build's library through the uninstalled pkg-config file
# (PKG_CONFIG_PATH=$top_builddir), runs and passes its own checks; skipped
# (77) without pkg-config or a shared library, or when the library is built
# with a sanitizer (the program would need its runtime).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
if ! command -v pkg-config >/dev/null 2>&1; then
  echo "SKIP: no pkg-config"
  exit 77
fi
. "$top_srcdir/tests/shared_lib.sh"
build=$(cd "$top_builddir" && pwd)
flags=$(PKG_CONFIG_PATH=$build pkg-config --cflags --libs mcprice) || exit 1
case $flags in
  *"$build/src/.libs"*) ;;
  *) echo "FAIL: pkg-config found another mcprice: $flags"; exit 1 ;;
esac
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# shellcheck disable=SC2086
${CC:-cc} -o "$dir/api_example" "$top_srcdir/examples/api_example.c" $flags -lm || exit 1
"$dir/api_example"
