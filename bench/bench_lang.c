/* bench_lang: the language's figures.
   1. Bytes per action and per edge of compiled schedules (a chain of sends; a dense DAG).
   2. Build + compile rate for a 10-million-action graph.
   3. Text parse rate: a binomial broadcast of 2^20 ranks written in LogGOPSim's dialect
      (the 94 MB file Schedgen writes), parsed back. */
#define _POSIX_C_SOURCE 199309L
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "../tests/harness.h"   /* th_sink */

/* n sends, each with `fan` dependents among the next actions. */
static double compiled_size(long n, int fan, long *edges) {
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_schedule s;
    long i;
    int k;
    double size;
    *edges = 0;
    goal_graph_create(&g, &gd, NULL);
    for (i = 0; i < n; i++) goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
    for (i = 0; i < n; i++)
        for (k = 1; k <= fan && i + k < n; k++) { goal_graph_requires(g, (int32_t)(i + k), (int32_t)i); ++*edges; }
    if (goal_compile(g, &s, NULL) != GOAL_OK) return -1;
    size = (double)s.size;
    goal_schedule_free(&s);
    goal_graph_destroy(g);
    return size;
}
int main(void) {
    long n = 10000000L, i, e0, e1, e4;
    double t, a0 = compiled_size(100000, 0, &e0), a1 = compiled_size(100000, 1, &e1), a4 = compiled_size(100000, 4, &e4);
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_schedule s;
    goal_world *w;
    goal_algo_desc ad;
    goal_error err;
    goal_parse_desc pd;
    th_sink text = {0};
    printf("size: send, no edges %.1f B/action; chain %.1f B/action; 4 dependents each: %.2f B per extra edge\n",
           a0 / 1e5, a1 / 1e5, (a4 - a0) / (double)e4);
    t = now();
    goal_graph_create(&g, &gd, NULL);
    for (i = 0; i < n; i++) {
        int32_t a = goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
        if (i) goal_graph_requires(g, a, a - 1);
    }
    if (goal_compile(g, &s, &err) != GOAL_OK) { puts(err.msg); return 1; }
    t = now() - t;
    printf("build + compile: %ld actions in %.2f s = %.1f M actions/s\n", n, t, (double)n / t / 1e6);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
    memset(&ad, 0, sizeof ad);
    ad.algo = "bcast_binomial"; ad.count = 1; ad.dtype = GOAL_INT8;
    if (goal_algo_world(&w, &ad, 1 << 20, &err) != GOAL_OK) { puts(err.msg); return 1; }
    goal_world_write(w, GOAL_DIALECT_LOGGOPSIM, th_sink_put, &text);
    goal_world_destroy(w);
    memset(&pd, 0, sizeof pd);
    t = now();
    if (goal_parse(text.p, text.n, &pd, &w, &err) != GOAL_OK) { puts(err.msg); return 1; }
    t = now() - t;
    printf("parse: binomial bcast p = 2^20, LogGOPSim dialect, %.1f MB in %.2f s = %.0f MB/s\n",
           (double)text.n / 1e6, t, (double)text.n / 1e6 / t);
    goal_world_destroy(w);
    free(text.p);
    return 0;
}
