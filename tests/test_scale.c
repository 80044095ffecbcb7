/* Scaling regressions: check, sim and the in-process run are linear in
   actions + messages. Each world here took seconds to hours when they were quadratic or
   cubic (10^5 independent calcs on one rank: each waiting calc was put back once per calc
   ahead of it; alltoall_linear: every message walked its peer's whole queue); linear, each
   takes well under a second. The checks are results the old code computed too. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include "goal_sim.h"
#include "harness.h"

enum { N = 100000 };

/* One rank of n independent calcs of cost 7: they run one after the other. */
static void test_independent_calcs(void) {
    goal_graph *g;
    goal_world *w;
    goal_sim_run_result r;
    goal_graph_desc gd;
    goal_error err;
    int k;
    memset(&gd, 0, sizeof gd);
    CHECK_EQ(goal_graph_create(&g, &gd, NULL), GOAL_OK);
    for (k = 0; k < N; k++) goal_graph_calc(g, 7);
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = 1}, NULL), GOAL_OK);
    CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_OK);
    CHECK_EQ(goal_sim_run(w, NULL, &r), GOAL_OK);
    CHECK_EQ(r.max, 7LL * N);
    CHECK_EQ(r.events, N);
    goal_sim_run_free(&r);
    goal_world_destroy(w);
    goal_graph_destroy(g);
}

/* Rank 0 posts n independent 1-byte sends to rank 1, which posts n receives: the sends go
   out every max(o, g) = 1500 ns, the last arrives at 1500 (n-1) + o + L and costs o. */
static void test_independent_sends(void) {
    goal_graph *g[2];
    goal_world *w;
    goal_sim_run_result r;
    goal_sim_check_result cr;
    goal_graph_desc gd;
    goal_error err;
    int k, rank;
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = 2}, NULL), GOAL_OK);
    for (rank = 0; rank < 2; rank++) {
        memset(&gd, 0, sizeof gd);
        gd.rank = rank; gd.nranks = 2;
        CHECK_EQ(goal_graph_create(&g[rank], &gd, NULL), GOAL_OK);
        for (k = 0; k < N; k++) {
            if (rank == 0) goal_graph_send(g[0], goal_buffer(0, 0, 1), 1, 0);
            else goal_graph_recv(g[1], goal_buffer(0, 0, 1), 0, 0);
        }
        CHECK_EQ(goal_world_add_graph(w, g[rank], &err), GOAL_OK);
        goal_graph_destroy(g[rank]);
    }
    CHECK_EQ(goal_sim_check(w, NULL, &cr), GOAL_OK);
    CHECK_EQ(cr.npairs, N);
    CHECK_EQ(cr.pairs[N - 1].send.action, N - 1);   /* in order: non-overtaking */
    CHECK_EQ(cr.pairs[N - 1].recv.action, N - 1);
    goal_sim_check_free(&cr);
    CHECK_EQ(goal_sim_run(w, NULL, &r), GOAL_OK);
    CHECK_EQ(r.finish[0], 1500LL * N);
    CHECK_EQ(r.finish[1], 1500LL * (N - 1) + 1500 + 2500 + 1500);
    goal_sim_run_free(&r);
    goal_world_destroy(w);
}

/* alltoall_linear: p (p-1) messages, each rank's p-1 receives posted at once. */
static void test_alltoall_linear(void) {
    goal_algo_desc d;
    goal_world *w = NULL;
    goal_error err;
    goal_sim_check_result cr;
    goal_sim_run_result r;
    goal_world_run_desc rd;
    goal_slot *slot;
    const goal_slot **slots;
    int p = 512, k;
    memset(&d, 0, sizeof d);
    d.algo = "alltoall_linear"; d.count = 1; d.dtype = GOAL_INT8; d.op = GOAL_OP_SUM;
    CHECK_EQ(goal_algo_world(&w, &d, p, &err), GOAL_OK);
    CHECK_EQ(goal_sim_check(w, NULL, &cr), GOAL_OK);
    CHECK_EQ(cr.npairs, (long long)p * (p - 1));
    goal_sim_check_free(&cr);
    CHECK_EQ(goal_sim_run(w, NULL, &r), GOAL_OK);
    CHECK_EQ(r.events, (long long)p * (p - 1) * 3 + p);   /* sends, recvs, messages, own copies */
    CHECK_EQ(r.max, 1533001);                             /* as the O(p^3) code computed it (5 s) */
    goal_sim_run_free(&r);
    slot = (goal_slot *)calloc((size_t)p * 2, sizeof *slot);
    slots = (const goal_slot **)calloc((size_t)p, sizeof *slots);
    for (k = 0; k < p; k++) {
        slot[2 * k].size = slot[2 * k + 1].size = (uint64_t)p;
        slot[2 * k].data = calloc((size_t)p, 1);
        slot[2 * k + 1].data = calloc((size_t)p, 1);
        ((unsigned char *)slot[2 * k].data)[(k + 1) % p] = (unsigned char)(k + 1);
        slots[k] = &slot[2 * k];
    }
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2;
    CHECK_EQ(goal_world_run(&rd, &err), GOAL_OK);
    for (k = 0; k < p; k++) {   /* rank k's block of rank k-1 holds what k-1 sent it */
        int from = (k + p - 1) % p;
        CHECK_EQ(((unsigned char *)slot[2 * k + 1].data)[from], (unsigned char)(from + 1));
    }
    for (k = 0; k < 2 * p; k++) free(slot[k].data);
    free(slot); free((void *)slots);
    goal_world_destroy(w);
}

/* A receive from any source posted before one from rank 0 takes rank 0's first message
   (posting order across the peer index and the wildcards). */
static void test_wildcard_order(void) {
    static const char text[] = "rank #0 { send 0,1 to 1; send 0,2 to 1; }\n"
                               "rank #1 { a: recv 0,1 from -1; b: recv 0,2 from 0; }\n";
    goal_world *w = NULL;
    goal_parse_desc pd;
    goal_error err;
    goal_sim_check_result cr;
    memset(&pd, 0, sizeof pd);
    CHECK_EQ(goal_parse(text, sizeof text - 1, &pd, &w, &err), GOAL_OK);
    CHECK_EQ(goal_sim_check(w, NULL, &cr), GOAL_OK);
    CHECK_EQ(cr.npairs, 2);
    CHECK_EQ(cr.nfindings, 0);   /* sizes 1 -> 1 and 2 -> 2: no size finding */
    goal_sim_check_free(&cr);
    goal_world_destroy(w);
}

int main(void) {
    RUN(test_independent_calcs);
    RUN(test_independent_sends);
    RUN(test_alltoall_linear);
    RUN(test_wildcard_order);
    return th_done();
}
