#!/bin/sh
# test_layers.sh: the tree's folders are the layers of doc/architecture.md:
# no file includes a header of a layer above its own, and the library
# includes nothing of bench/ or tests/.  (Calls follow includes: a function
# is declared in its layer's headers.)
top=${top_srcdir:-.}
# bottom up; a folder may include its own and any before it
layers="models kernels src/base src/rng src/inputs src/io src/plan src/results src/slices
src/exec src/scale src/cli"
rank() {
  r=0
  for l in $layers; do
    case $1 in "$l"/*) echo $r; return ;; esac
    r=$((r + 1))
  done
  echo -1
}
status=0
cd "$top" || exit 99
for f in $(find models kernels src -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort); do
  from=$(rank "$f")
  [ "$from" -ge 0 ] || { echo "$f: in no layer"; status=1; continue; }
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
    case $inc in
    mcprice.h | mcprice_mpi.h | config.h) continue ;;
    bench/* | tests/*) echo "$f includes $inc: the library includes no benchmark or test"; status=1; continue ;;
    esac
    [ -f "$inc" ] || { echo "$f includes $inc, which is not a path from the top of the tree"; status=1; continue; }
    to=$(rank "$inc")
    if [ "$to" -gt "$from" ]; then
      echo "$f includes $inc, of a layer above its own"
      status=1
    fi
  done
done
exit $status
