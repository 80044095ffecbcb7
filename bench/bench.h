/* bench.h: what the benchmarks share (not a benchmark: make bench builds the .c files here).
   Define _POSIX_C_SOURCE (199309L or later) before any include, for clock_gettime. */
#ifndef GOAL_BENCH_H
#define GOAL_BENCH_H
#include <time.h>
#include <sys/resource.h>

/* Wall-clock seconds (monotonic). */
static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
/* Peak resident memory of this process so far, in MB. */
static inline long peak_mb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}
#endif
