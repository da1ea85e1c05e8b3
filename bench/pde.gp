# pde.gp: speed-up of the register-cache stencil over the shared-memory one
# against the stencil radius, one line per coarsening, for the L2-resident
# and the DRAM-sized grids of bench/pde.
#   gnuplot -e "csv='pde_stencil.csv'; out='pde_stencil.png'" bench/pde.gp
if (!exists("csv")) csv = 'pde_stencil.csv'
if (!exists("out")) out = 'pde_stencil.png'
set terminal pngcairo size 1400,600 font ",11"
set output out
set datafile separator ","
set key top left
set xlabel "stencil radius K"
set ylabel "speed-up of regcache over smem"
set xrange [0.5:12.5]
set yrange [0:*]
set xtics 1
set grid
pick(n, c) = (column(1) == n && column(3) == c && strcol(4) eq "regcache") ? column(7) : 1/0
set multiplot layout 1,2 title "mcprice: (2K+1)-point stencil sweeps in double, regcache over smem"
do for [n in "512 2048"] {
  set title sprintf("4224 grids of %s nodes", n)
  plot for [c in "1 2 4 8"] csv using 2:(pick(int(n), int(c))) with linespoints \
       title sprintf("C = %s", c), 1 with lines dashtype 2 lc "black" title "smem"
}
unset multiplot
