# median.awk - median(v, n): the median of v[1..n], which it sorts in place (insertion sort:
# the benchmarks' lists are short). Loaded before drift.awk and spread.awk (awk -f median.awk -f ...).
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
