# path_families.awk: the headers made of path_families.def (Makefile.am):
#   awk -v out=c -f path_families.awk path_families.def > path_families.h
#   awk -v out=cuda -f path_families.awk path_families.def > kernels/path_families.cuh
# A row's fields are C, written out as they stand; POSIX awk.

{ text = text " " $0 }

function trim(s) {
  gsub(/[ \t]+/, " ", s)
  sub(/^ /, "", s)
  sub(/ $/, "", s)
  return s
}

# The fields of the row at the start of text (just after "MCPI_FAMILY(")
# into f[1..11]; text keeps what follows the row.
function row(  k, c, depth, n, cur) {
  n = 0
  depth = 0
  cur = ""
  for (k = 1; k <= length(text); k++) {
    c = substr(text, k, 1)
    if (c == "(")
      depth++
    else if (c == ")" && depth-- == 0)
      break
    if (c == "," && depth == 0) {
      f[++n] = trim(cur)
      cur = ""
    } else {
      cur = cur c
    }
  }
  f[++n] = trim(cur)
  text = substr(text, k + 1)
  if (n != 11) {
    printf "path_families.def: a row of %d fields, not 11: %s\n", n, f[1] > "/dev/stderr"
    exit 1
  }
}

function c_row(  nsw, sw, i) {
  printf "\n/* %s: %s%s */\n", f[1] == "" ? "(no suffix)" : f[1], f[2],
         f[9] == "0" ? "" : ", " f[9]
  print "#define MCPI_P(name) name" (f[1] == "" ? "" : "##" f[1])
  print "#define MCPI_NSCHED " f[3]
  print "#define MCPI_NMON " f[4]
  print "#define MCPI_MODEL_OF(j) (" f[5] ")"
  print "#define MCPI_TRACK_OF(j) (" f[6] ")"
  print "#define MCPI_EXTREMA_OF(j) (" f[7] ")"
  print "#define MCPI_CASH_OF(j) (" f[8] ")"
  if (f[2] == "float")
    print "#define MCPI_FLOAT_BODY"
  nsw = f[9] == "0" ? 0 : split(f[9], sw, " ")
  for (i = 1; i <= nsw; i++)
    print "#define " sw[i]
  print "#include \"models/products/path_body.h\""
  print "#undef MCPI_P"
  print "#undef MCPI_NSCHED"
  print "#undef MCPI_NMON"
  print "#undef MCPI_MODEL_OF"
  print "#undef MCPI_TRACK_OF"
  print "#undef MCPI_EXTREMA_OF"
  print "#undef MCPI_CASH_OF"
  if (f[2] == "float")
    print "#undef MCPI_FLOAT_BODY"
  for (i = 1; i <= nsw; i++)
    print "#undef " sw[i]
}

# The overloads of one state of the row (stem mcpi_path, mcpi_multi,
# mcpi_mlv or mcpi_mheston), unless an earlier state of the row had that
# stem, and its entry in the kernels' choice of state.
function cuda_state(stem, state, chooser,  s, step) {
  s = f[1]
  step = stem == "mcpi_path" ? f[11] : "__forceinline__"
  if (!(stem in stems)) {
    printf "MCPI_BODY_OVERLOADS(%s_state%s, %s, %s_init%s, %s_step%s,\n", stem, s, f[2], stem,
           s, stem, s
    printf "                    %s_finish%s, %s_log_spots%s, %s_survival%s,\n", stem, s, stem,
           s, stem, s
    printf "                    %s)\n", step
    stems[stem] = 1
  }
  printf "template <> struct %s<%s, %s> { typedef %s_state%s type; };\n", chooser, f[2], state,
         stem, s
}

function cuda_row(  chooser, n, st, i) {
  delete stems
  chooser = f[9] ~ /MCPI_GREEK_STATE/ ? "greek_state_of" \
          : f[9] ~ /MCPI_LSM_SCALED/ ? "lsm_scaled_state_of" \
          : f[9] ~ /MCPI_LSM_BODY/ ? "lsm_state_of" : "state_of"
  printf "\n// %s: %s%s\n", f[1] == "" ? "(no suffix)" : f[1], f[2],
         f[9] == "0" ? "" : ", " f[9]
  n = split(f[10], st, " ")
  for (i = 1; i <= n; i++)
    cuda_state(st[i] == "MCPI_STATE_MULTI" ? "mcpi_multi" \
               : st[i] == "MCPI_STATE_MLV" ? "mcpi_mlv" \
               : st[i] == "MCPI_STATE_MHESTON" ? "mcpi_mheston" : "mcpi_path", st[i], chooser)
}

END {
  while ((i = index(text, "/*")) > 0) { # comments out
    j = index(substr(text, i + 2), "*/")
    text = substr(text, 1, i - 1) " " substr(text, i + j + 3)
  }
  if (out == "c") {
    print "/* path_families.h: the path body (path_body.h) once for each family of"
    print " * path_families.def; path.h includes it.  Made by path_families.awk from"
    print " * that table (make remakes it): edit the table, not this file. */"
  } else if (out == "cuda") {
    print "// path_families.cuh: the states of each family of"
    print "// models/products/path_families.def as the path kernels' overloads"
    print "// (path_kernel.cuh, MCPI_BODY_OVERLOADS), and the state a kernel of a"
    print "// catalogue state takes (state_of, greek_state_of, lsm_state_of,"
    print "// lsm_scaled_state_of).  Made by"
    print "// models/products/path_families.awk from that table (make remakes it):"
    print "// edit the table, not this file."
  } else {
    print "path_families.awk: -v out=c or -v out=cuda" > "/dev/stderr"
    exit 1
  }
  while ((i = index(text, "MCPI_FAMILY(")) > 0) {
    text = substr(text, i + length("MCPI_FAMILY("))
    row()
    if (out == "c")
      c_row()
    else
      cuda_row()
  }
}
