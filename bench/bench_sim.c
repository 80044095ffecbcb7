/* bench_sim: generate, verify and simulate big worlds (goal_sim.h). Figures, not pass/fail:
   wall time and peak memory (ru_maxrss) after each step, and simulation events per second.
   Each world runs in its own process, so its peak memory is its own. */
#define _POSIX_C_SOURCE 200809L
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"


/* Rank r of a binomial broadcast from 0: receive from the parent, then send to the children,
   largest subtree first (what Schedgen writes). */
static void binomial(goal_graph *g, int r, int p) {
    int32_t rv = -1;
    int m = p;
    if (r) { rv = goal_graph_recv(g, goal_buffer(0, 0, 1), r - (r & -r), 0); m = r & -r; }
    else while (m & (m - 1)) m &= m - 1, m <<= 1;
    for (m >>= 1; m > 0; m >>= 1)
        if (r + m < p) {
            int32_t s = goal_graph_send(g, goal_buffer(0, 0, 1), r + m, 0);
            if (rv >= 0) goal_graph_requires(g, s, rv);
        }
}
/* Rank r of a dissemination barrier: round k sends to r + 2^k and receives from r - 2^k,
   after the receive of round k - 1. */
static void dissemination(goal_graph *g, int r, int p) {
    int32_t prev = -1;
    int k;
    for (k = 1; k < p; k <<= 1) {
        int32_t s = goal_graph_send(g, goal_buffer(0, 0, 1), (r + k) % p, 0);
        int32_t v = goal_graph_recv(g, goal_buffer(0, 0, 1), (r - k + p) % p, 0);
        if (prev >= 0) { goal_graph_requires(g, s, prev); goal_graph_requires(g, v, prev); }
        prev = v;
    }
}

static int bench(const char *name, void (*gen)(goal_graph *, int, int), int p) {
    goal_world *w;
    goal_graph *g;
    goal_graph_desc gd;
    goal_sim_check_result cr;
    goal_sim_run_result sr;
    goal_status st;
    double t0 = now(), t1, t2, t3;
    int r;
    memset(&gd, 0, sizeof gd);
    gd.nranks = p;
    if (goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL) != GOAL_OK || goal_graph_create(&g, &gd, NULL) != GOAL_OK) return 1;
    for (r = 0; r < p; r++) {
        goal_graph_reset(g, r, p);
        gen(g, r, p);
        if (goal_world_add_graph(w, g, NULL) != GOAL_OK) return 1;
    }
    goal_graph_destroy(g);
    t1 = now();
    printf("%s p=%d: generate %.3f s (peak %ld MB)", name, p, t1 - t0, peak_mb());
    st = goal_sim_check(w, NULL, &cr);
    t2 = now();
    printf(", verify %.3f s (%s, %lu pairs, peak %ld MB)", t2 - t1, goal_strerror(st), (unsigned long)cr.npairs, peak_mb());
    goal_sim_check_free(&cr);
    st = goal_sim_run(w, NULL, &sr);
    t3 = now();
    printf(", simulate %.3f s (%s, %llu events, %.2f M events/s, max %llu, peak %ld MB); total %.3f s\n", t3 - t2,
           goal_strerror(st), (unsigned long long)sr.events, (double)sr.events / (t3 - t2) / 1e6,
           (unsigned long long)sr.max, peak_mb(), t3 - t0);
    goal_sim_run_free(&sr);
    goal_world_destroy(w);
    return 0;
}

static int in_child(const char *name, void (*gen)(goal_graph *, int, int), int p) {
    int status = 1;
    pid_t pid;
    fflush(stdout);
    if ((pid = fork()) == 0) { int rc = bench(name, gen, p); fflush(stdout); _exit(rc); }
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return 1;
    return status != 0;
}

int main(void) {
    int bad = in_child("binomial bcast 1 byte", binomial, 1 << 20);
    bad |= in_child("dissemination 1 byte", dissemination, 1 << 14);
    return bad;
}
