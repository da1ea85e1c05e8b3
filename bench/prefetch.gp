# prefetch.gp: speed-up over "none" against prefetch distance, one line per
# strategy (shared-memory variants with slots padded to 2^k + 1), for double
# and float at the smallest and largest path counts of bench/prefetch.
#   gnuplot -e "csv='prefetch.csv'; out='prefetch.png'" bench/prefetch.gp
if (!exists("csv")) csv = 'prefetch.csv'
if (!exists("out")) out = 'prefetch.png'
set terminal pngcairo size 1400,1000 font ",11"
set output out
set datafile separator ","
set key top left font ",9"
set xlabel "prefetch distance (steps)"
set ylabel "speed-up over none"
set xrange [0:17]
set xtics (1, 2, 4, 6, 8, 12, 16)
set grid
strategies = "unroll scalar-batch smem-batch scalar-rolling smem-rolling smem-async"
pick(prec, n, s) = (strcol(1) eq prec && column(2) == n && strcol(3) eq s && \
                    (strcol(5) eq "-" || strcol(5) eq "pad2k+1")) ? column(8) : 1/0
set multiplot layout 2,2 title "mcprice path kernel: prefetch strategies (arithmetic Asian, 252 steps)"
do for [prec in "double float"] {
  do for [n in "65536 4194304"] {
    set title sprintf("%s, %s paths", prec, n)
    plot for [s in strategies] csv using 4:(pick(prec, int(n), s)) with linespoints title s, \
         1 with lines dashtype 2 lc "black" title "none"
  }
}
unset multiplot
