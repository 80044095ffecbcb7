# summary.awk - the bench-mpi CSVs (bench_mpi.c) in one table: per collective and block size,
# libgoal's best algorithm over the library's time, for every library and process count.
# Usage: awk -f bench/mpi/summary.awk build/mpi/bench-openmpi-np2.csv ...
# A '*' marks a cell at or above 64 KiB slower than 1.1x the library (issue 12's target).
FNR == 1 || $3 == "segments" { next }
BEGIN { FS = "," }
{
    run = $1 " np" $2; cell = $3 SUBSEP $5
    if (!(run in seen)) { seen[run] = 1; runs[++nruns] = run }
    if (!(cell in order)) { order[cell] = ++ncells; cells[ncells] = cell }
    k = run SUBSEP cell
    if (!(k in best) || $6 + 0 < best[k]) { best[k] = $6 + 0; lib[k] = $7 + 0 }
}
END {
    printf "%-16s %8s", "collective", "bytes"
    for (r = 1; r <= nruns; r++) printf " %13s", runs[r]
    printf "\n"
    for (c = 1; c <= ncells; c++) {
        split(cells[c], f, SUBSEP)
        printf "%-16s %8d", f[1], f[2]
        for (r = 1; r <= nruns; r++) {
            k = runs[r] SUBSEP cells[c]
            if (!(k in best) || lib[k] <= 0) { printf " %13s", "-"; continue }
            ratio = best[k] / lib[k]
            miss = f[2] >= 65536 && ratio > 1.1
            printf " %12.2f%s", ratio, miss ? "*" : " "
            if (miss) misses[runs[r]]++
        }
        printf "\n"
    }
    printf "%-25s", "cells >= 64 KiB over 1.1x"
    for (r = 1; r <= nruns; r++) printf " %13d", misses[runs[r]]
    printf "\n"
}
