# pde.gp: speed-up of the register-cache stencil over the shared-memory one
# against the stencil radius, one line per coarsening (bench/pde).
#   gnuplot -e "csv='pde_stencil.csv'; out='pde_stencil.png'" bench/pde.gp
if (!exists("csv")) csv = 'pde_stencil.csv'
if (!exists("out")) out = 'pde_stencil.png'
set terminal pngcairo size 1000,650 font ",11"
set output out
set datafile separator ","
set key top left
set title "mcprice: regcache over smem, (2K+1)-point stencil sweeps in double"
set xlabel "stencil radius K"
set ylabel "speed-up of regcache over smem"
set xrange [0.5:12.5]
set xtics 1
set grid
pick(c) = (column(2) == c && strcol(3) eq "regcache") ? column(6) : 1/0
plot for [c in "1 2 4 8"] csv using 1:(pick(int(c))) with linespoints title sprintf("C = %s", c), \
     1 with lines dashtype 2 lc "black" title "smem"
