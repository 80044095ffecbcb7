/* bench_bw: the bandwidth-optimal families against the textbook set, in the
   LogGOPS simulator with a bandwidth-dominated model (goal sim -G 1 -o 100 -L 1000 -g 100):
   simulated time of every bcast, reduce, allreduce and allgather algorithm at p = 8, 64,
   1024 and 8 B, 64 KiB, 4 MiB of int32 (per block for allgather; segmented algorithms in
   64 KiB segments), then the bytes each rank sends (as `goal stats` counts them) at p = 64,
   4 MiB, and the targets. Figures, not pass/fail. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include "goal_sim.h"
#include <stdio.h>
#include <string.h>
#include "../tests/harness.h"   /* th_bytes_sent */

static const int ps[] = {8, 64, 1024};
static const uint64_t sizes[] = {8, 64 << 10, 4 << 20};

/* The bcast, reduce, allreduce and allgather algorithms, except reduce_aspen (sets). */
static int wanted(const goal_algo_info *a) {
    return (a->coll == GOAL_COLL_BCAST || a->coll == GOAL_COLL_REDUCE || a->coll == GOAL_COLL_ALLREDUCE ||
            a->coll == GOAL_COLL_ALLGATHER) && strcmp(a->name, "reduce_aspen");
}
static goal_world *world(const goal_algo_info *info, int p, uint64_t bytes) {
    goal_algo_desc d;
    goal_world *w = NULL;
    goal_error err;
    memset(&d, 0, sizeof d);
    d.algo = info->name; d.count = bytes / 4; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM;
    if (info->flags & GOAL_ALGO_SEGMENTED) d.segment = 64 << 10;
    if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { printf("%s p=%d: %s\n", info->name, p, err.msg); return NULL; }
    return w;
}
/* Simulated finish time (the last rank's), 0 on failure. */
static double sim_time(const goal_algo_info *info, int p, uint64_t bytes) {
    goal_world *w = world(info, p, bytes);
    goal_sim_desc sd;
    goal_sim_run_result r;
    double t = 0;
    if (!w) return 0;
    memset(&sd, 0, sizeof sd);
    sd.L = 1000; sd.o = 100; sd.g = 100; sd.G = 1;
    if (goal_sim_run(w, &sd, &r) == GOAL_OK) t = (double)r.max;
    goal_sim_run_free(&r);
    goal_world_destroy(w);
    return t;
}
/* Largest and mean bytes sent by one rank. */
static void sent(const goal_algo_info *info, int p, uint64_t bytes, double *max, double *mean) {
    goal_world *w = world(info, p, bytes);
    int r;
    *max = *mean = 0;
    for (r = 0; w && r < p; r++) {
        double sum = (double)th_bytes_sent(w, r);
        if (sum > *max) *max = sum;
        *mean += sum / p;
    }
    goal_world_destroy(w);
}
static double find_time(const char *name, int p, uint64_t bytes) { return sim_time(goal_algo_find(name), p, bytes); }
static void target(const char *a, const char *b, double most) {
    double x = find_time(a, 64, 4 << 20), y = find_time(b, 64, 4 << 20);
    printf("  %-26s / %-18s = %.2f  (target <= %.1f: %s)\n", a, b, x / y, most, x / y <= most ? "met" : "MISSED");
}

int main(void) {
    const goal_algo_info *info;
    int i, j, k;
    printf("simulated time (goal sim -G 1 -o 100 -L 1000 -g 100), int32, segments 64 KiB\n");
    printf("%-26s", "algorithm");
    for (i = 0; i < 3; i++) for (k = 0; k < 3; k++) printf(" %5s p=%-4d", k == 0 ? "8B" : k == 1 ? "64K" : "4M", ps[i]);
    printf("\n");
    for (j = 0; (info = goal_algo_list(j)) != NULL; j++) {
        if (!wanted(info)) continue;
        printf("%-26s", info->name);
        for (i = 0; i < 3; i++) for (k = 0; k < 3; k++) printf(" %12.4g", sim_time(info, ps[i], sizes[k]));
        printf("\n");
        fflush(stdout);
    }
    printf("targets at p = 64, 4 MiB:\n");
    target("allreduce_rabenseifner", "allreduce_recdoub", 0.6);
    target("bcast_scatter_allgather", "bcast_binomial", 0.5);
    target("bcast_dbtree", "bcast_binomial", 0.5);
    target("reduce_rabenseifner", "reduce_binomial", 0.6);
    printf("bytes sent per rank at p = 64, n = 4 MiB (in n; 2(p-1)/p = %.4f)\n", 2.0 * 63 / 64);
    for (j = 0; (info = goal_algo_list(j)) != NULL; j++) {
        double mx, mean;
        if (!wanted(info) || info->coll == GOAL_COLL_ALLGATHER) continue;
        sent(info, 64, 4 << 20, &mx, &mean);
        printf("  %-26s max %.4f  mean %.4f\n", info->name, mx / (4 << 20), mean / (4 << 20));
    }
    return 0;
}
