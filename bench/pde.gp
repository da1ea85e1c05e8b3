# pde.gp: speed-up of the register-cache stencil over the shared-memory one
# against the stencil radius, one line per coarsening, for the L2-resident
# and the DRAM-sized grids of bench/pde.
#   gnuplot -e "csv='pde_stencil.csv'; out='pde_stencil.png'" bench/pde.gp
if (!exists("csv")) csv = 'pde_stencil.csv'
if (!exists("out")) out = 'pde_stencil.png'
set terminal pngcairo size 1400,600 font ",11"
set output out
set datafile separator ","
set key top right
set xlabel "stencil radius K"
set ylabel "speed-up of regcache over smem"
set xrange [0.5:12.5]
set yrange [0:2]
set xtics 1
set grid
# the rows of one size and coarsening, regcache only: K and the speed-up
rows(n, c) = sprintf("< awk -F, '$1 == %d && $3 == %d && $4 == \"regcache\" { print $2 \",\" $7 }' %s", n, c, csv)
set multiplot layout 1,2 title "mcprice: (2K+1)-point stencil sweeps in double, regcache over smem"
do for [n in "512 2048"] {
  set title sprintf("4224 grids of %s nodes", n)
  plot for [c in "1 2 4 8"] rows(int(n), int(c)) using 1:2 with linespoints title sprintf("C = %s", c), \
       1 with lines dashtype 2 lc "black" title "smem", 1.5 with lines dashtype 3 lc "red" title "target 1.5"
}
unset multiplot
