/* test_replan.c - goal_analyze_replan on recordings made here with the recorder's
   conventions (goal_analyze.h RE-PLANNING): every call between its two anchors, generated
   with goal_algos.h. The re-planned world matches, holds the new algorithm's part between
   the anchors and the rest as recorded, and simulates exactly as a recording made with that
   algorithm; bad plans and bad anchors are refused with their reason. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include "goal_sim.h"
#include "goal_analyze.h"
#include "harness.h"

/* One call of every rank (the world communicator) after `after`, between its anchors:
   algo's part (none when algo is NULL). Returns the end anchor. */
static int32_t rec_call(goal_graph *g, const char *coll, const char *algo, int num, uint64_t bytes, int root, int tag, int32_t after,
                        const int *counts) {
    char l[GOAL_LABEL_MAX];
    int r = goal_graph_rank(g);
    int32_t s = goal_graph_nop(g), e, done = s;
    goal_algo_desc d;
    if (root < 0) snprintf(l, sizeof l, "%s_c0_n%d_b%llu_rm1_i%d", coll, num, (unsigned long long)bytes, r);
    else snprintf(l, sizeof l, "%s_c0_n%d_b%llu_r%d_i%d", coll, num, (unsigned long long)bytes, root, r);
    CHECK_EQ(goal_graph_label(g, s, l), GOAL_OK);
    if (after >= 0) goal_graph_requires(g, s, after);
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_INT8; d.root = root < 0 ? 0 : root; d.tag = tag; d.counts = counts;
    if (algo) CHECK((done = goal_algo_build(g, &d, &s, 1, NULL, NULL)) >= 0);
    e = goal_graph_nop(g);
    snprintf(l, sizeof l, "%s_c0_n%d_end", coll, num);
    goal_graph_label(g, e, l);
    goal_graph_requires(g, e, done);
    return e;
}
/* The program: calc, allreduce 1 KiB, a ring exchange, calc, bcast 2 KiB from rank 1,
   allreduce 1 KiB, gatherv of 8 (r + 1) bytes to rank 0, calc. allreduce with algo. */
static goal_world *rec_world(int p, const char *algo) {
    goal_world *w = NULL;
    goal_world_desc wd;
    goal_graph_desc gd;
    goal_graph *g = NULL;
    int counts[16], r, i;
    for (i = 0; i < p; i++) counts[i] = 8 * (i + 1);
    memset(&wd, 0, sizeof wd); memset(&gd, 0, sizeof gd);
    wd.nranks = gd.nranks = p;
    CHECK_EQ(goal_world_create(&w, &wd, NULL), GOAL_OK);
    CHECK_EQ(goal_graph_create(&g, &gd, NULL), GOAL_OK);
    for (r = 0; r < p; r++) {
        int32_t a, e, s, v, j;
        goal_graph_reset(g, r, p);
        a = goal_graph_calc(g, 2000);
        e = rec_call(g, "allreduce", algo, 0, 1024, -1, 10, a, NULL);
        s = goal_graph_send(g, goal_buffer(0, 0, 512), (r + 1) % p, 1);
        v = goal_graph_recv(g, goal_buffer(0, 0, 512), (r + p - 1) % p, 1);
        j = goal_graph_nop(g);
        goal_graph_requires(g, s, e); goal_graph_requires(g, v, e);
        goal_graph_requires(g, j, s); goal_graph_requires(g, j, v);
        a = goal_graph_calc(g, 5000);
        goal_graph_requires(g, a, j);
        e = rec_call(g, "bcast", "bcast_binomial", 1, 2048, 1 % p, 11, a, NULL);
        e = rec_call(g, "allreduce", algo, 2, 1024, -1, 12, e, NULL);
        e = rec_call(g, "gatherv", "gatherv_linear", 3, (uint64_t)counts[r], 0, 13, e, counts);
        a = goal_graph_calc(g, 1000);
        goal_graph_requires(g, a, e);
        CHECK_EQ(goal_world_add_graph(w, g, NULL), GOAL_OK);
    }
    goal_graph_destroy(g);
    return w;
}

static goal_status replan1(const goal_world *w, const char *coll, const char *algo, goal_world **out, goal_analyze_plan *plan, goal_error *err) {
    goal_analyze_replan_desc d;
    memset(plan, 0, sizeof *plan);
    memset(&d, 0, sizeof d);
    plan->coll = coll; plan->algo = algo;
    d.plans = plan; d.nplans = 1;
    return goal_analyze_replan(w, &d, out, err);
}
static int matches(const goal_world *w) {
    goal_sim_check_result c;
    int ok = goal_sim_check(w, NULL, &c) == GOAL_OK && c.errors == 0;
    goal_sim_check_free(&c);
    return ok;
}
/* Every rank's finish time, simulated with the default model, into fin (p entries). */
static void finish(const goal_world *w, uint64_t *fin) {
    goal_sim_run_result res;
    int32_t r;
    CHECK_EQ(goal_sim_run(w, NULL, &res), GOAL_OK);
    for (r = 0; r < res.nranks; r++) fin[r] = res.finish_ps[r];
    goal_sim_run_free(&res);
}
/* The actions between the anchors labelled START and END on rank r (-1 if not found): the
   re-planned part lies right after its start anchor. */
static long between(const goal_world *w, int r, const char *start, const char *end) {
    goal_schedule s;
    uint32_t i;
    long a = -1, b = -1;
    char buf[GOAL_LABEL_MAX];
    if (goal_world_schedule(w, r, &s) != GOAL_OK) return -1;
    for (i = 0; i < s.nactions; i++) {
        const char *l = goal_schedule_label(&s, i, buf);
        if (strcmp(l, start) == 0) a = (long)i;
        if (strcmp(l, end) == 0) b = (long)i;
    }
    return a < 0 || b < 0 ? -1 : b - a - 1;
}
static long part_size(const char *algo, int r, int p, uint64_t bytes) {
    goal_graph_desc gd;
    goal_graph *g = NULL;
    goal_algo_desc d;
    int32_t after;
    long n;
    memset(&gd, 0, sizeof gd);
    gd.rank = r; gd.nranks = p;
    goal_graph_create(&g, &gd, NULL);
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_INT8;
    after = goal_graph_nop(g);
    goal_algo_build(g, &d, &after, 1, NULL, NULL);
    n = goal_graph_count(g) - 1;
    goal_graph_destroy(g);
    return n;
}
static size_t total_actions(const goal_world *w) {
    size_t n = 0;
    int r;
    for (r = 0; r < goal_world_nranks(w); r++) {
        goal_schedule s;
        if (goal_world_schedule(w, r, &s) == GOAL_OK) n += s.nactions;
    }
    return n;
}

/* p = 1..7: allreduce re-planned with the ring matches, and simulates rank by rank as the
   recording made with the ring. */
static void test_same_as_recorded_with_it(void) {
    int p, r;
    for (p = 1; p <= 7; p++) {
        goal_world *w = rec_world(p, "allreduce_recdoub"), *direct = rec_world(p, "allreduce_ring"), *out = NULL;
        goal_analyze_plan plan;
        goal_error err;
        uint64_t a[16], b[16];
        CHECK(matches(w));
        CHECK_EQ(replan1(w, "allreduce", "allreduce_ring", &out, &plan, &err), GOAL_OK);
        CHECK_EQ(plan.calls, 2);
        CHECK_STR(plan.used, "allreduce_ring");
        if (out) {
            CHECK(matches(out));
            finish(out, a); finish(direct, b);
            for (r = 0; r < p; r++) CHECK_EQ(a[r], b[r]);
        }
        goal_world_destroy(w); goal_world_destroy(direct); goal_world_destroy(out);
    }
}
/* Only the named collective's calls change: the ring's part between each allreduce's
   anchors, the bcast's and gatherv's as recorded, the totals add up. */
static void test_only_the_named_calls(void) {
    const int p = 5;
    goal_world *w = rec_world(p, "allreduce_recdoub"), *out = NULL;
    goal_analyze_plan plan;
    goal_error err;
    char s0[64], s2[64];
    long old_parts = 0, new_parts = 0;
    int r;
    CHECK_EQ(replan1(w, "allreduce", "ring", &out, &plan, &err), GOAL_OK);
    CHECK_STR(plan.used, "allreduce_ring");
    for (r = 0; out && r < p; r++) {
        long ring = part_size("allreduce_ring", r, p, 1024), rd = part_size("allreduce_recdoub", r, p, 1024);
        snprintf(s0, sizeof s0, "allreduce_c0_n0_b1024_rm1_i%d", r);
        snprintf(s2, sizeof s2, "allreduce_c0_n2_b1024_rm1_i%d", r);
        CHECK_EQ(between(w, r, s0, "allreduce_c0_n0_end"), rd);
        CHECK_EQ(between(out, r, s0, "allreduce_c0_n0_end"), ring);
        CHECK_EQ(between(out, r, s2, "allreduce_c0_n2_end"), ring);
        snprintf(s0, sizeof s0, "bcast_c0_n1_b2048_r1_i%d", r);
        CHECK_EQ(between(out, r, s0, "bcast_c0_n1_end"), between(w, r, s0, "bcast_c0_n1_end"));
        snprintf(s0, sizeof s0, "gatherv_c0_n3_b%d_r0_i%d", 8 * (r + 1), r);
        CHECK(between(out, r, s0, "gatherv_c0_n3_end") > 0);
        CHECK_EQ(between(out, r, s0, "gatherv_c0_n3_end"), between(w, r, s0, "gatherv_c0_n3_end"));
        old_parts += 2 * rd; new_parts += 2 * ring;
    }
    if (out) CHECK_EQ(total_actions(out), total_actions(w) - (size_t)old_parts + (size_t)new_parts);
    goal_world_destroy(w); goal_world_destroy(out);
}
/* A vector collective from the members' own counts, two collectives at once. */
static void test_vector_and_two_plans(void) {
    goal_world *w = rec_world(6, "allreduce_recdoub"), *out = NULL;
    goal_analyze_plan plans[2];
    goal_analyze_replan_desc d;
    goal_error err;
    memset(plans, 0, sizeof plans); memset(&d, 0, sizeof d);
    plans[0].coll = "gatherv"; plans[0].algo = "binomial";
    plans[1].coll = "bcast"; plans[1].algo = "bcast_chain";
    d.plans = plans; d.nplans = 2;
    CHECK_EQ(goal_analyze_replan(w, &d, &out, &err), GOAL_OK);
    CHECK_EQ(plans[0].calls, 1); CHECK_EQ(plans[1].calls, 1);
    CHECK_STR(plans[0].used, "gatherv_binomial");
    if (out) CHECK(matches(out));
    goal_world_destroy(w); goal_world_destroy(out);
}
/* A collective the world never calls: no error, calls 0, the same program. */
static void test_no_call(void) {
    goal_world *w = rec_world(4, "allreduce_recdoub"), *out = NULL;
    goal_analyze_plan plan;
    goal_error err;
    uint64_t a[4], b[4];
    int r;
    CHECK_EQ(replan1(w, "reduce", "reduce_binomial", &out, &plan, &err), GOAL_OK);
    CHECK_EQ(plan.calls, 0);
    if (out) {
        CHECK_EQ(total_actions(out), total_actions(w));
        finish(out, a); finish(w, b);
        for (r = 0; r < 4; r++) CHECK_EQ(a[r], b[r]);
    }
    goal_world_destroy(w); goal_world_destroy(out);
}

typedef struct bad_plan { const char *name, *coll, *algo, *msg; } bad_plan;
static const bad_plan bad_plans[] = {
    {"unknown_collective", "allreduc", "allreduce_ring", "unknown collective 'allreduc'"},
    {"algorithm_of_another", "allreduce", "bcast_binomial", "another collective"},
    {"no_such_algorithm", "allreduce", "nosuch", "no algorithm of it"},
    {"neighbourhood_not_replanned", "neighbor_alltoall", "alltoall_linear", "another collective"},
    {"alltoallw_no_algorithm", "alltoallw", "pairwise", "no algorithm of it"},
};
static void test_bad_plan(const void *arg) {
    const bad_plan *c = (const bad_plan *)arg;
    goal_world *w = rec_world(3, "allreduce_recdoub"), *out = (goal_world *)&out;
    goal_analyze_plan plan;
    goal_error err;
    CHECK_EQ(replan1(w, c->coll, c->algo, &out, &plan, &err), GOAL_ERR_ARG);
    CHECK(out == NULL);
    CHECK(strstr(err.msg, c->msg) != NULL);
    goal_world_destroy(w);
}
static void test_planned_twice(void) {
    goal_world *w = rec_world(3, "allreduce_recdoub"), *out = NULL;
    goal_analyze_plan plans[2];
    goal_analyze_replan_desc d;
    goal_error err;
    memset(plans, 0, sizeof plans); memset(&d, 0, sizeof d);
    plans[0].coll = plans[1].coll = "allreduce";
    plans[0].algo = "ring"; plans[1].algo = "recdoub";
    d.plans = plans; d.nplans = 2;
    CHECK_EQ(goal_analyze_replan(w, &d, &out, &err), GOAL_ERR_ARG);
    CHECK(strstr(err.msg, "allreduce is planned twice") != NULL);
    goal_world_destroy(w);
}

/* Worlds of two ranks with one call whose anchors are as given (algo NULL: nothing between). */
typedef struct bad_rec { const char *name, *coll, *start0, *end0, *msg; int outside; } bad_rec;
static const bad_rec bad_recs[] = {
    {"malformed_anchor", "allreduce", "allreduce_c0_n0_bx_rm1_i0", "allreduce_c0_n0_end", "malformed anchor 'allreduce_c0_n0_bx_rm1_i0'", 0},
    {"start_without_end", "allreduce", "allreduce_c0_n0_b8_rm1_i0", "allreduce_done", "allreduce_c0_n0: a start anchor without its end", 0},
    {"members_not_0_to_m", "allreduce", "allreduce_c0_n0_b8_rm1_i2", "allreduce_c0_n0_end", "are not 0, 1", 0},
    {"roots_differ", "bcast", "bcast_c0_n0_b8_r1_i0", "bcast_c0_n0_end", "different roots", 0},
    {"alltoallv_counts", "alltoallv", "alltoallv_c0_n0_b8_rm1_i0", "alltoallv_c0_n0_end", "alltoallv_c0_n0: alltoallv needs every pair's count", 0},
    {"outside_requires_inside", "allreduce", "allreduce_c0_n0_b8_rm1_i0", "allreduce_c0_n0_end", "an action outside the call requires", 1},
};
static goal_world *bad_world(const bad_rec *c) {
    goal_world *w = NULL;
    goal_world_desc wd;
    goal_graph_desc gd;
    goal_graph *g = NULL;
    char l[64], e[64];
    int r;
    memset(&wd, 0, sizeof wd); memset(&gd, 0, sizeof gd);
    wd.nranks = gd.nranks = 2;
    goal_world_create(&w, &wd, NULL);
    goal_graph_create(&g, &gd, NULL);
    for (r = 0; r < 2; r++) {
        int32_t s, m, x, end;
        goal_graph_reset(g, r, 2);
        snprintf(l, sizeof l, "%s_c0_n0_b8_r%s_i1", c->coll, strcmp(c->coll, "bcast") == 0 ? "0" : "m1");
        snprintf(e, sizeof e, "%s_c0_n0_end", c->coll);
        s = goal_graph_nop(g);
        goal_graph_label(g, s, r == 0 ? c->start0 : l);
        m = r == 0 ? goal_graph_send(g, goal_buffer(0, 0, 8), 1, 3) : goal_graph_recv(g, goal_buffer(0, 0, 8), 0, 3);
        goal_graph_requires(g, m, s);
        end = goal_graph_nop(g);
        goal_graph_label(g, end, r == 0 ? c->end0 : e);
        goal_graph_requires(g, end, m);
        x = goal_graph_calc(g, 10);
        goal_graph_requires(g, x, c->outside ? m : end);
        CHECK_EQ(goal_world_add_graph(w, g, NULL), GOAL_OK);
    }
    goal_graph_destroy(g);
    return w;
}
static void test_bad_recording(const void *arg) {
    const bad_rec *c = (const bad_rec *)arg;
    goal_world *w = bad_world(c), *out = NULL;
    goal_analyze_plan plan;
    goal_error err;
    const char *algo = strcmp(c->coll, "alltoallv") == 0 ? "pairwise" : strcmp(c->coll, "bcast") == 0 ? "binomial" : "ring";
    CHECK(matches(w));
    CHECK_EQ(replan1(w, c->coll, algo, &out, &plan, &err), GOAL_ERR_ARG);
    CHECK(out == NULL);
    if (!strstr(err.msg, c->msg)) printf("  message: %s\n", err.msg);
    CHECK(strstr(err.msg, c->msg) != NULL);
    goal_world_destroy(w);
}
/* The helpers the verbs use: names, short forms, counts of calls. */
static void test_names_and_counts(void) {
    goal_world *w = rec_world(4, "allreduce_recdoub");
    size_t calls[GOAL_ANALYZE_NCOLLS];
    int k, n = 0;
    CHECK_STR(goal_analyze_coll_algo("reduce_scatter_block", "ring"), "reduce_scatter_ring");
    CHECK_STR(goal_analyze_coll_algo("reduce_scatter", "ring"), "reduce_scatterv_ring");
    CHECK(goal_analyze_coll_algo("reduce", "reduce_scatter_ring") == NULL);
    CHECK(goal_analyze_coll_algo("scatter", "scatterv_linear") == NULL);
    CHECK_STR(goal_analyze_coll_algo("allreduce", "allreduce_ring"), "allreduce_ring");
    CHECK(goal_analyze_coll_name(GOAL_ANALYZE_NCOLLS) == NULL);
    goal_analyze_recorded(w, calls);
    for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++) {
        const char *c = goal_analyze_coll_name(k);
        n += (int)calls[k];
        if (strcmp(c, "allreduce") == 0) CHECK_EQ(calls[k], 2);
        if (strcmp(c, "bcast") == 0 || strcmp(c, "gatherv") == 0) CHECK_EQ(calls[k], 1);
    }
    CHECK_EQ(n, 4);
    goal_world_destroy(w);
}

int main(void) {
    RUN(test_same_as_recorded_with_it);
    RUN(test_only_the_named_calls);
    RUN(test_vector_and_two_plans);
    RUN(test_no_call);
    th_run_cases(test_bad_plan, bad_plans, sizeof bad_plans[0], sizeof bad_plans / sizeof bad_plans[0]);
    RUN(test_planned_twice);
    th_run_cases(test_bad_recording, bad_recs, sizeof bad_recs[0], sizeof bad_recs / sizeof bad_recs[0]);
    RUN(test_names_and_counts);
    return th_done();
}
