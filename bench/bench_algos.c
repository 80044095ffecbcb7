/* bench_algos.c - goal_algos.h: how fast schedules are generated and how big they are.
   Every rank's part is built into one reused graph and compiled to its binary schedule:
   binomial broadcast over all ranks of p = 2^20, dissemination allreduce over p = 2^14. */
#define _POSIX_C_SOURCE 199309L
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include <stdio.h>
#include "bench.h"


/* Builds (and, with compile, compiles) every rank of d over p ranks; prints the figures. */
static int bench(const char *algo, int p, int nway, uint64_t count) {
    goal_algo_desc d = {0};
    goal_graph *g;
    goal_graph_desc gd = {0};
    goal_error err;
    double t0, tb = 0, tc = 0;
    long long actions = 0, bytes = 0;
    int r;
    d.algo = algo; d.count = count; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM; d.nway = nway;
    gd.nranks = p;
    if (goal_graph_create(&g, &gd, NULL) != GOAL_OK) return 1;
    for (r = 0; r < p; r++) {
        goal_schedule s;
        goal_graph_reset(g, r, p);
        t0 = now();
        if (goal_algo_build(g, &d, NULL, 0, NULL, &err) < 0) { printf("%s\n", err.msg); return 1; }
        tb += now() - t0;
        actions += goal_graph_count(g);
        t0 = now();
        if (goal_compile(g, &s, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
        tc += now() - t0;
        bytes += (long long)s.size;
        goal_schedule_free(&s);
    }
    goal_graph_destroy(g);
    printf("%-24s p=%-8d nway=%d  %9lld actions  build %6.1f M actions/s  build+compile %6.1f M actions/s\n", algo, p,
           nway, actions, actions / tb / 1e6, actions / (tb + tc) / 1e6);
    printf("%-24s %12lld schedule bytes in all, %.1f bytes/action, %.1f bytes/rank\n", "", bytes,
           (double)bytes / (double)actions, (double)bytes / p);
    return 0;
}

int main(void) {
    return bench("bcast_binomial", 1 << 20, 1, 256) || bench("allreduce_dissemination", 1 << 14, 1, 256) ||
           bench("allreduce_dissemination", 1 << 14, 3, 256) || bench("reduce_binomial", 1 << 20, 1, 256) ||
           bench("allreduce_recdoub", 1 << 14, 1, 256);
}
