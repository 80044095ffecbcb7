/* bench_load: libgoal under load.
   1. 10,000 executions in flight at once on one in-process transport (2 ranks each
      exchanging with the other, wildcard receives, one context per execution).
   2. The largest schedule we build here: N actions (default 100 million; the format's own
      limit is 2^31-2 actions and 2^32 body words) built, compiled, saved, loaded (validated)
      and executed, with time and peak memory of each step; then a header claiming one
      action past the limit, rejected.
   Usage: bench_load [N] */
#define _POSIX_C_SOURCE 199309L
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "../tests/harness.h"   /* th_sink */

static int inflight(int n) {
    goal_inproc *ip;
    goal_schedule s[2];
    goal_exec **e = (goal_exec **)calloc(2 * (size_t)n, sizeof *e);
    int32_t *data = (int32_t *)calloc(4 * (size_t)n, sizeof *data);
    int r, k, busy = 1, bad = 0;
    double t0 = now();
    if (!e || !data || goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 2}, NULL) != GOAL_OK) return 1;
    for (r = 0; r < 2; r++) {
        goal_graph *g;
        goal_graph_desc gd = {0, 2, {0, 0, 0}};
        gd.rank = r;
        goal_graph_create(&g, &gd, NULL);
        goal_graph_send(g, goal_buffer(0, 0, 4), 1 - r, 0);
        goal_graph_recv(g, goal_buffer(0, 4, 4), GOAL_ANY, GOAL_ANY);
        if (goal_compile(g, &s[r], NULL) != GOAL_OK) return 1;
        goal_graph_destroy(g);
    }
    for (k = 0; k < n; k++)
        for (r = 0; r < 2; r++) {
            goal_exec_desc ed;
            goal_slot slot;
            int32_t *d = data + 4 * k + 2 * r;
            d[0] = 2 * k + r; d[1] = -1;
            slot.data = d; slot.size = 8;
            memset(&ed, 0, sizeof ed);
            ed.schedule = &s[r]; ed.transport = goal_inproc_transport(ip, r);
            ed.slots = &slot; ed.nslots = 1; ed.context = (uint32_t)k;
            if (goal_exec_create(&e[2 * k + r], &ed, NULL) != GOAL_OK) return 1;
            goal_exec_start(e[2 * k + r]);
        }
    while (busy) {
        busy = 0;
        for (k = 0; k < 2 * n; k++) busy |= goal_exec_test(e[k]) == GOAL_PENDING;
    }
    for (k = 0; k < n; k++) bad |= data[4 * k + 1] != 2 * k + 1 || data[4 * k + 3] != 2 * k;
    for (k = 0; k < 2 * n; k++) goal_exec_destroy(e[k]);
    printf("in flight: %d executions at once, all correct: %s, %.3f s\n", 2 * n, bad ? "NO" : "yes", now() - t0);
    goal_schedule_free(&s[0]); goal_schedule_free(&s[1]);
    goal_inproc_destroy(ip);
    free(e); free(data);
    return bad;
}
static int post_now(void *u, const goal_msg *m, goal_req *q) { (void)u; (void)m; (void)q; return GOAL_OK; }
static int test_none(void *u, goal_req *r, int n, int b) { (void)u; (void)r; (void)n; (void)b; return 0; }
static int largest(long n) {
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_world *w, *w2;
    goal_schedule s, v;
    goal_exec *e;
    goal_exec_desc ed;
    goal_error err;
    unsigned char buf[8];
    goal_slot slot = {buf, 8};
    th_sink out = {0};
    double t;
    long i;
    t = now();
    goal_graph_create(&g, &gd, NULL);
    for (i = 0; i < n; i++) {
        int32_t a = goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
        if (i) goal_graph_requires(g, a, a - 1);
    }
    if (goal_graph_status(g) != GOAL_OK) { printf("build: %s\n", goal_graph_message(g)); return 1; }
    printf("largest: build %ld actions %.2f s, peak %ld MB\n", n, now() - t, peak_mb());
    t = now();
    if (goal_compile(g, &s, &err) != GOAL_OK) { printf("compile: %s\n", err.msg); return 1; }
    goal_graph_destroy(g);
    printf("largest: compile %.2f s, %.1f bytes/action, peak %ld MB\n", now() - t, (double)s.size / (double)n, peak_mb());
    t = now();
    goal_world_create(&w, &(goal_world_desc){.nranks = 2}, NULL);
    if (goal_world_add_schedule(w, &s, &err) != GOAL_OK || goal_world_save(w, th_sink_put, &out) != GOAL_OK) { printf("save failed\n"); return 1; }
    goal_world_destroy(w);
    goal_schedule_free(&s);
    printf("largest: save %.2f s, %.0f MB file\n", now() - t, (double)out.n / 1048576.0);
    t = now();
    if (goal_world_load(&w2, out.p, out.n, NULL, &err) != GOAL_OK) { printf("load: %s\n", err.msg); return 1; }
    printf("largest: load (validated) %.2f s, peak %ld MB\n", now() - t, peak_mb());
    goal_world_schedule(w2, 0, &v);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &v; ed.slots = &slot; ed.nslots = 1; ed.transport.post = post_now; ed.transport.test = test_none;
    t = now();
    if (goal_exec_create(&e, &ed, &err) != GOAL_OK || goal_exec_run(e) != GOAL_OK) { printf("run failed\n"); return 1; }
    printf("largest: execute %.2f s, execution object %.0f MB, peak %ld MB\n", now() - t,
           (double)goal_exec_memory(e) / 1048576.0, peak_mb());
    goal_exec_destroy(e);
    goal_world_destroy(w2);
    /* One past the limit: a header claiming 2^31 - 1 actions is refused before anything. */
    {
        uint8_t hdr[48];
        goal_schedule bad;
        memcpy(hdr, out.p + 8 + 8 + 8 + 8 * 3, 48);   /* rank 0's schedule header */
        hdr[16] = 0xff; hdr[17] = 0xff; hdr[18] = 0xff; hdr[19] = 0x7f;
        printf("past the limit: %s\n", goal_schedule_load(&bad, hdr, sizeof hdr, NULL, &err) != GOAL_OK ? err.msg : "ACCEPTED (wrong)");
    }
    free(out.p);
    return 0;
}
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000000L;
    return inflight(10000) | largest(n);
}
