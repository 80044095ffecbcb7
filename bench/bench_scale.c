/* bench_scale: the worlds that were quadratic or cubic, now linear in
   actions + messages: 10^6 independent calcs on one rank (sim), and alltoall_linear at
   p = 4096 (16.8 M messages: check, sim, and run in-process). Figures, not pass/fail: wall
   time per step and peak memory. */
#define _POSIX_C_SOURCE 200809L
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include "goal_sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"


static int calcs(int n) {
    goal_graph *g;
    goal_world *w;
    goal_sim_run_result r;
    goal_graph_desc gd;
    goal_error err;
    double t;
    int k, bad;
    memset(&gd, 0, sizeof gd);
    if (goal_graph_create(&g, &gd, NULL) != GOAL_OK || goal_world_create(&w, &(goal_world_desc){.nranks = 1}, NULL) != GOAL_OK) return 1;
    for (k = 0; k < n; k++) goal_graph_calc(g, 7);
    if (goal_world_add_graph(w, g, &err) != GOAL_OK) return 1;
    t = now();
    bad = goal_sim_run(w, NULL, &r) != GOAL_OK || r.max != 7ull * (uint64_t)n;
    printf("%d independent calcs on one rank: sim %.2f s (max %llu)\n", n, now() - t, (unsigned long long)r.max);
    goal_sim_run_free(&r);
    goal_world_destroy(w);
    goal_graph_destroy(g);
    return bad;
}

static int alltoall(int p) {
    goal_algo_desc d;
    goal_world *w = NULL;
    goal_error err;
    goal_sim_check_result cr;
    goal_sim_run_result r;
    goal_sim_check_desc cd;
    goal_world_run_desc rd;
    goal_slot *slot;
    const goal_slot **slots;
    double t;
    int k, bad = 0;
    memset(&d, 0, sizeof d);
    d.algo = "alltoall_linear"; d.count = 1; d.dtype = GOAL_INT8; d.op = GOAL_OP_SUM;
    t = now();
    if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { printf("gen: %s\n", err.msg); return 1; }
    printf("alltoall_linear p = %d: gen %.2f s", p, now() - t);
    memset(&cd, 0, sizeof cd);
    cd.no_pairs = 1;
    t = now();
    bad |= goal_sim_check(w, &cd, &cr) != GOAL_OK;
    goal_sim_check_free(&cr);
    printf(", check %.2f s", now() - t);
    t = now();
    bad |= goal_sim_run(w, NULL, &r) != GOAL_OK;
    printf(", sim %.2f s (max %llu, %llu events)", now() - t, (unsigned long long)r.max, (unsigned long long)r.events);
    goal_sim_run_free(&r);
    slot = (goal_slot *)calloc((size_t)p * 2, sizeof *slot);
    slots = (const goal_slot **)calloc((size_t)p, sizeof *slots);
    if (!slot || !slots) return 1;
    for (k = 0; k < p; k++) {
        slot[2 * k].size = slot[2 * k + 1].size = (uint64_t)p;
        if (!(slot[2 * k].data = calloc((size_t)p, 1)) || !(slot[2 * k + 1].data = calloc((size_t)p, 1))) return 1;
        slots[k] = &slot[2 * k];
    }
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2;
    t = now();
    bad |= goal_world_run(&rd, &err) != GOAL_OK;
    printf(", run %.2f s, peak %ld MB\n", now() - t, peak_mb());
    for (k = 0; k < 2 * p; k++) free(slot[k].data);
    free(slot); free((void *)slots);
    goal_world_destroy(w);
    return bad;
}

int main(int argc, char **argv) {
    int p = argc > 1 ? atoi(argv[1]) : 4096, bad;
    bad = calcs(1000000);
    bad |= alltoall(p);
    if (bad) printf("FAILED\n");
    return bad;
}
