/* tour.c - the README's tour, whole: P ranks in one process form a chain; rank r receives
   8 bytes from rank r-1 and forwards them to r+1. Build, compile, execute, free. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include <stdio.h>

enum { P = 4 };

/* Rank r of p: receive 8 bytes from rank r-1, then forward them to r+1 (a chain). */
static goal_status build(int r, int p, goal_schedule *s, goal_error *err) {
    goal_graph *g;
    goal_graph_desc gd = {0};
    gd.rank = r; gd.nranks = p;
    if (goal_graph_create(&g, &gd, NULL) != GOAL_OK) return GOAL_ERR_NOMEM;
    int32_t rv = r > 0     ? goal_graph_recv(g, goal_buffer(0, 0, 8), r - 1, 0) : -1;
    int32_t sd = r < p - 1 ? goal_graph_send(g, goal_buffer(0, 0, 8), r + 1, 0) : -1;
    if (rv >= 0 && sd >= 0) goal_graph_requires(g, sd, rv);      /* send after recv */
    goal_status st = goal_compile(g, s, err);                     /* s->bytes: the binary */
    goal_graph_destroy(g);
    return st;
}

int main(void) {
    char data[P][8] = {"chained"};         /* rank 0's data; the others receive it */
    goal_schedule s[P] = {{0}};
    goal_exec *e[P] = {0};
    goal_slot buf[P];
    goal_inproc *ip;                       /* the transport joining the ranks of one process */
    goal_error err = {0};
    int r, busy = P, bad = 0;
    if (goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = P}, NULL) != GOAL_OK) return 1;
    for (r = 0; r < P && !bad; r++) {
        goal_exec_desc ed = {0};
        buf[r].data = data[r]; buf[r].size = 8;                   /* bind slot 0 */
        ed.schedule = &s[r]; ed.transport = goal_inproc_transport(ip, r);
        ed.slots = &buf[r]; ed.nslots = 1;
        bad = build(r, P, &s[r], &err) != GOAL_OK || goal_exec_create(&e[r], &ed, &err) != GOAL_OK;
        if (!bad) goal_exec_start(e[r]);                          /* bounds were checked at create */
    }
    while (!bad && busy > 0)                /* one thread drives every rank: test them in turn */
        for (busy = 0, r = 0; r < P; r++) {
            goal_status st = goal_exec_test(e[r]);
            busy += st == GOAL_PENDING;
            if (st < 0 && !bad++) err = *goal_exec_error(e[r]);   /* names rank and action */
        }
    if (bad) printf("error: %s\n", err.msg[0] ? err.msg : "out of memory");
    for (r = 0; r < P; r++) {
        if (!bad) printf("rank %d holds \"%s\"\n", r, data[r]);
        goal_exec_destroy(e[r]);
        goal_schedule_free(&s[r]);
    }
    goal_inproc_destroy(ip);
    return bad;
}
