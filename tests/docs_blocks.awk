# docs_blocks.awk: the checked blocks of a document (tests/test_docs.sh).
#
# A line "<!-- docs-check: KIND -->" (KIND command, output or excerpt) marks
# the block that follows it, after any blank lines: a fenced block (``` to
# ```), its content without the fence's indentation; or else an indented
# block, from its first line to the last line before one that is indented
# less (blank lines inside are kept), without the first line's indentation.
#
# extract (-v mode=extract -v dir=DIR): block N's text goes to DIR/N.text
# and "KIND FIRST LAST INDENT" (its content's line numbers, INDENT its
# indentation as a count of spaces) to DIR/N.meta; N counts from 1.
#
# replace (-v mode=replace -v dir=DIR): prints the document with every block
# N that has a DIR/N.new replaced by that file, indented as before.

function indent_of(s) { match(s, /^[ ]*/); return RLENGTH }
function strip(s, n) {
  if (substr(s, 1, n) ~ /^[ ]*$/) return substr(s, n + 1)
  sub(/^[ ]*/, "", s)
  return s
}
function close_block(last,   i, f) {
  n_blocks++
  f = dir "/" n_blocks
  printf "" > (f ".text")
  for (i = 1; i <= nlines; i++) print lines[i] > (f ".text")
  close(f ".text")
  print kind, first, last, ind > (f ".meta")
  close(f ".meta")
  if (mode == "replace" && (getline line < (f ".new")) > 0) {
    do print (line == "" ? "" : sprintf("%" ind "s", "") line)
    while ((getline line < (f ".new")) > 0)
    close(f ".new")
  } else if (mode == "replace") {
    for (i = 1; i <= nlines; i++) print raw[i]
  }
  state = 0
}
function keep(s) { nlines++; raw[nlines] = s; lines[nlines] = strip(s, ind) }

BEGIN { state = 0; n_blocks = 0 }
{
  line = $0
  sub(/\r$/, "", line)
  # an indented block: ends before a non-blank line indented less
  if (state == 3) {
    if (line ~ /^[ \t]*$/) { pending++; pend[pending] = line; next }
    if (indent_of(line) >= ind) {
      for (i = 1; i <= pending; i++) keep(pend[i])
      pending = 0
      keep(line)
      next
    }
    close_block(NR - 1 - pending)
    for (i = 1; i <= pending; i++) if (mode == "replace") print pend[i]
    pending = 0
  }
  if (state == 2) {
    if (line ~ /^[ ]*```[ \t]*$/) { close_block(NR - 1); if (mode == "replace") print $0; next }
    keep(line)
    next
  }
  if (line ~ /^[ \t]*<!-- docs-check: (command|output|excerpt) -->[ \t]*$/) {
    if (state == 1) { print FILENAME ":" NR ": a docs-check marker without its block" > "/dev/stderr"; exit 2 }
    kind = line
    sub(/^[ \t]*<!-- docs-check: /, "", kind)
    sub(/ -->.*$/, "", kind)
    state = 1
    if (mode == "replace") print $0
    next
  }
  if (state == 1 && line !~ /^[ \t]*$/) {
    nlines = 0; pending = 0
    if (line ~ /^[ ]*```/) {
      state = 2; ind = indent_of(line); first = NR + 1
      if (mode == "replace") print $0
      next
    }
    state = 3; ind = indent_of(line); first = NR
    keep(line)
    next
  }
  if (mode == "replace") print $0
}
END {
  if (state == 3) {
    close_block(NR - pending)
    for (i = 1; i <= pending; i++) if (mode == "replace") print pend[i]
  } else if (state == 1 || state == 2) {
    print FILENAME ": a docs-check block is not closed" > "/dev/stderr"
    exit 2
  }
}
