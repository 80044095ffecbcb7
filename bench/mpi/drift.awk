# drift.awk - whether the machine kept its speed while make bench-model measured: the probes'
# params lines before the runs and the last one, taken after them. Per file, a small message's
# one-way time as the model prices it (L + 2o) and the cost per byte (G): the last one, the
# range of the others, and the last over their median. A model measured at one speed cannot
# predict runs at another: where these move by more than the 1.25x the model is held to, so
# do the cells.
# Usage: awk -f bench/mpi/median.awk -f bench/mpi/drift.awk probe-LIB-1.params ... probe-LIB-after.params
FNR == 1 {
    n++; L = o = G = 0
    for (i = 1; i < NF; i++) {
        if ($i == "-L") L = $(i + 1)
        else if ($i == "-o") o = $(i + 1)
        else if ($i == "-G") G = $(i + 1)
    }
    small[n] = L + 2 * o; byte[n] = G
}
END {
    if (n < 2) { print "drift: needs the probes before and one after"; exit 1 }
    for (k = 1; k < n; k++) { s[k] = small[k]; b[k] = byte[k] }
    ms = median(s, n - 1); mb = median(b, n - 1)   # sorts s and b: their ends are the range
    printf "the probe after the runs against the %d before: a small message (L + 2o) %.0f ns, before %.0f-%.0f (%.2fx their median); " \
           "per byte (G) %.3f ns, before %.3f-%.3f (%.2fx)\n", n - 1, small[n], s[1], s[n - 1], (ms > 0 ? small[n] / ms : 0),
           byte[n], b[1], b[n - 1], (mb > 0 ? byte[n] / mb : 0)
}
