#define _POSIX_C_SOURCE 199309L
/* bench_sched: executor cost per action, and memory of an execution per action.
   A schedule of N sends (each waiting for the previous one) runs over a transport that
   completes every post at once, so what is measured is the executor itself.
   Usage: bench_sched [N]   (default 10 million) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"

static int post_now(void *user, const goal_msg *m, goal_req *req) {
    (void)req;
    ++*(uint64_t *)user;
    return m->size == 8 ? GOAL_OK : GOAL_ERR_ARG;
}
static int test_none(void *user, goal_req *reqs, int n, int block) { (void)user; (void)reqs; (void)n; (void)block; return 0; }
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000000L, i;
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_schedule s;
    goal_exec *e;
    goal_exec_desc ed;
    goal_error err;
    unsigned char buf[8] = {0};
    goal_slot slot = {buf, sizeof buf};
    uint64_t posts = 0;
    double t0, t1, best = 1e30;
    int rep;
    goal_graph_create(&g, &gd, NULL);
    for (i = 0; i < n; i++) {
        int32_t a = goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
        if (i) goal_graph_requires(g, a, a - 1);
    }
    if (goal_compile(g, &s, &err) != GOAL_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
    goal_graph_destroy(g);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &s; ed.slots = &slot; ed.nslots = 1;
    ed.transport.user = &posts; ed.transport.post = post_now; ed.transport.test = test_none;
    if (goal_exec_create(&e, &ed, &err) != GOAL_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
    for (rep = 0; rep < 3; rep++) {
        t0 = now();
        if (goal_exec_run(e) != GOAL_OK) return 1;
        t1 = now();
        if (t1 - t0 < best) best = t1 - t0;
    }
    if (posts != 3 * (uint64_t)n) return 1;
    printf("executor: %ld actions, %.2f ns/action (best of 3), schedule %.1f bytes/action, "
           "execution object %.1f bytes/action\n", n, 1e9 * best / (double)n, (double)s.size / (double)n,
           (double)goal_exec_memory(e) / (double)n);
    goal_exec_destroy(e);
    goal_schedule_free(&s);
    return 0;
}
