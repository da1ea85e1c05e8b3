#!/bin/sh
# test_layers.sh: the tree's folders are the layers of doc/architecture.md:
# no file includes a header of a layer above its own, every include of the
# tree is a path from its top, and the library and the public headers
# include nothing of bench/ or tests/.  (Functions are declared in their
# layer's headers, but for the host functions that models/ declares for both
# compilers: doc/architecture.md.)
top=${top_srcdir:-.}
# bottom up; a folder may include its own and any before it
layers="models kernels src/base src/rng src/inputs src/io src/analytic src/plan src/products
src/results src/slices src/exec src/scale src/cli include"
rank() {
  r=0
  for l in $layers; do
    case $1 in "$l"/*) echo $r; return ;; esac
    r=$((r + 1))
  done
  echo -1
}
status=0
tmp=$(mktemp) || exit 99
cd "$top" || exit 99
for f in $(find models kernels src include -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' |
  sort); do
  from=$(rank "$f")
  [ "$from" -ge 0 ] || { echo "$f: in no layer"; status=1; continue; }
  # every include directive, however indented or spaced
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//p' "$f" > "$tmp"
  while read -r inc rest; do
    case $inc in
    \<*\>) continue ;; # a system header
    \"*\") inc=${inc#\"}; inc=${inc%\"} ;;
    *) echo "$f: #include $inc: expected a quoted path or a system header"; status=1; continue ;;
    esac
    case $inc in
    mcprice.h | mcprice_mpi.h | config.h) continue ;;
    bench/* | tests/*) echo "$f includes $inc: the library includes no benchmark or test"; status=1; continue ;;
    esac
    [ -f "$inc" ] || { echo "$f includes $inc, which is not a path from the top of the tree"; status=1; continue; }
    to=$(rank "$inc")
    if [ "$to" -gt "$from" ] || { [ "$from" = "$(rank include/x)" ] && [ "$to" -ge 0 ]; }; then
      echo "$f includes $inc, of a layer above its own"
      status=1
    fi
  done < "$tmp"
done
rm -f "$tmp"
exit $status
