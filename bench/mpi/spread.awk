# spread.awk - how much one algorithm's measured time moves between the runs of bench_model
# that make bench-model makes (one per probe, back to back): per library, collective and
# size, each algorithm's slowest time over its fastest, the median and the largest over the
# cell's algorithms. It is the measurement's own spread, which no model removes: one
# predicted time p for times from lo to hi is off by max(hi/p, p/lo) >= sqrt(hi/lo) in some
# run, so where hi/lo is over 1.25^2 = 1.5625 no prediction is within 1.25x of every run.
# Usage: awk -f bench/mpi/median.awk -f bench/mpi/spread.awk build/mpi/model-LIB-K.csv ...   (bench_model --csv)
BEGIN { FS = "," }
$3 ~ /_auto$/ { next }   # auto's pick may differ between the probes
{
    lib = FILENAME; sub(/.*model-/, "", lib); sub(/-[0-9]+\.csv$/, "", lib)
    cell = lib SUBSEP $1 SUBSEP $2
    if (!(cell in seen)) { seen[cell] = 1; cells[++ncells] = cell }
    if (!(lib in libseen)) { libseen[lib] = 1; libs[++nlibs] = lib }
    k = cell SUBSEP $3
    if (!(k in lo)) { lo[k] = hi[k] = $4 + 0; algos[cell] = algos[cell] SUBSEP $3; next }
    if ($4 + 0 < lo[k]) lo[k] = $4 + 0
    if ($4 + 0 > hi[k]) hi[k] = $4 + 0
    runs[k]++
}
END {
    printf "%-8s %-10s %8s %6s %7s %7s\n", "library", "coll", "bytes", "algos", "median", "largest"
    for (c = 1; c <= ncells; c++) {
        n = split(substr(algos[cells[c]], 2), a, SUBSEP)
        m = 0
        for (i = 1; i <= n; i++) {
            k = cells[c] SUBSEP a[i]
            if (runs[k] > 0 && lo[k] > 0) r[++m] = hi[k] / lo[k]
        }
        if (m == 0) continue
        med = median(r, m)   # sorts r: r[m] is the largest
        split(cells[c], f, SUBSEP)
        printf "%-8s %-10s %8d %6d %7.2f %7.2f\n", f[1], f[2], f[3], m, med, r[m]
        if (f[3] >= 65536) { big[f[1]]++; wide[f[1]] += med > 1.5625 }
    }
    for (i = 1; i <= nlibs; i++)
        printf "%s: in %d of %d cells from 64 KiB the median spread is over 1.25^2 (no prediction within 1.25x of every run)\n", libs[i], wide[libs[i]], big[libs[i]]
}
