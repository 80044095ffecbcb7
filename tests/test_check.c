/* goal_sim.h: goal_sim_check on generated worlds: clean ones pass, seeded defects are found
   and named by rank and label; DOT of the same worlds. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sim.h"
#include "harness.h"

enum defect { CLEAN, DROP_SEND, WRONG_TAG, BIG_SEND, SMALL_SEND, WRONG_PEER, CYCLE };

/* Rank r of a binomial broadcast of p ranks from 0, with one defect seeded. The receive is
   labelled "parent", the sends "child<k>". */
static void bcast_rank(goal_graph *g, int r, int p, enum defect d) {
    int32_t rv = -1;
    int m = 1, k = 0;
    while (m < p) m <<= 1;
    if (r) {
        int parent = r - (r & -r);
        if (d == WRONG_PEER && r == 5) parent = 2;
        rv = goal_graph_recv(g, goal_buffer(0, 0, 8), parent, 0);
        goal_graph_label(g, rv, "parent");
        m = r & -r;
    }
    for (m >>= 1; m > 0; m >>= 1, k++) {
        int32_t s;
        uint64_t size = (d == BIG_SEND && r == 0 && m == 4) ? 16 : (d == SMALL_SEND && r == 0 && m == 4) ? 4 : 8;
        char name[16];
        if (r + m >= p || (d == DROP_SEND && r == 4 && r + m == 6)) continue;
        s = goal_graph_send(g, goal_buffer(0, 0, size), r + m, d == WRONG_TAG && r == 2 ? 1 : 0);
        snprintf(name, sizeof name, "child%d", k);
        goal_graph_label(g, s, name);
        if (rv >= 0) goal_graph_requires(g, s, rv);
    }
}
/* Ranks 0 and 1 each wait for the other before sending: a cycle across ranks. */
static void cycle_rank(goal_graph *g, int r) {
    int32_t rv = goal_graph_recv(g, goal_buffer(0, 0, 8), 1 - r, 0);
    int32_t s = goal_graph_send(g, goal_buffer(0, 0, 8), 1 - r, 0);
    goal_graph_label(g, rv, "wait");
    goal_graph_label(g, s, "answer");
    goal_graph_requires(g, s, rv);
}
static goal_world *world(int p, enum defect d) {
    goal_world *w;
    goal_graph *g;
    goal_graph_desc gd;
    int r;
    memset(&gd, 0, sizeof gd);
    gd.nranks = p;
    if (goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL) != GOAL_OK || goal_graph_create(&g, &gd, NULL) != GOAL_OK) return NULL;
    for (r = 0; r < p; r++) {
        goal_graph_reset(g, r, p);
        if (d == CYCLE && r < 2) cycle_rank(g, r);
        else bcast_rank(g, r, p, d);
        CHECK_EQ(goal_world_add_graph(w, g, NULL), GOAL_OK);
    }
    goal_graph_destroy(g);
    return w;
}

/* All finding lines of a check with allocator a, joined; returns the status. */
static goal_status check(goal_world *w, goal_allocator a, char *text, size_t len) {
    goal_sim_check_desc d;
    goal_sim_check_result res;
    goal_status st;
    size_t k, n = 0;
    memset(&d, 0, sizeof d);
    d.alloc = a;
    st = goal_sim_check(w, &d, &res);
    text[0] = 0;
    for (k = 0; k < res.nfindings && n < len; k++) {
        char line[400];
        n += (size_t)snprintf(text + n, len - n, "%s\n", goal_sim_finding_text(w, &res.findings[k], line, sizeof line));
    }
    goal_sim_check_free(&res);
    return st;
}
static int has(const char *text, const char *what) {
    if (strstr(text, what)) return 1;
    printf("  missing \"%s\" in:\n%s", what, text);
    return 0;
}

static void test_clean(void) {
    int p;
    for (p = 1; p <= (th_full() ? 200 : 40); p++) {
        goal_world *w = world(p, CLEAN);
        goal_sim_check_result res;
        goal_sim_check_desc d;
        memset(&d, 0, sizeof d);
        CHECK_EQ(goal_sim_check(w, &d, &res), GOAL_OK);
        CHECK_EQ(res.npairs, p - 1);
        CHECK_EQ(res.nfindings, 0);
        goal_sim_check_free(&res);
        goal_world_destroy(w);
    }
}
/* The seeded defects: the world, the status, and lines the findings must hold. */
typedef struct defect_case { const char *name; int p; enum defect d; const char *want[3]; } defect_case;
static const defect_case defects[] = {
    {"test_dropped_send", 8, DROP_SEND,
     {"rank 6 parent (recv 8 bytes from 4 tag 0): error: unmatched recv",
      "rank 6 child0 (send 8 bytes to 7 tag 0): error: deadlock: never completes, waits for rank 6 parent",
      "rank 7 parent (recv 8 bytes from 6 tag 0): error: deadlock: never completes, waits for rank 6 child0"}},
    {"test_wrong_tag", 8, WRONG_TAG,
     {"rank 2 child0 (send 8 bytes to 3 tag 1): error: unmatched send", "rank 3 parent (recv 8 bytes from 2 tag 0): error: unmatched recv"}},
    {"test_big_send", 8, BIG_SEND,
     {"rank 4 parent (recv 8 bytes from 0 tag 0): error: matched send is larger: rank 0 child0 (send 16 bytes"}},
    {"test_small_send", 8, SMALL_SEND,
     {"rank 4 parent (recv 8 bytes from 0 tag 0): warning: matched send is smaller: rank 0 child0 (send 4 bytes"}},
    {"test_wrong_peer", 8, WRONG_PEER,
     {"rank 4 child1 (send 8 bytes to 5 tag 0): error: unmatched send", "rank 5 parent (recv 8 bytes from 2 tag 0): error: unmatched recv"}},
    {"test_cycle", 4, CYCLE,
     {"rank 0 wait (recv 8 bytes from 1 tag 0): error: deadlock cycle: waits for rank 1 answer",
      "rank 1 answer (send 8 bytes to 0 tag 0): error: deadlock cycle: waits for rank 1 wait"}},
};
static void test_defect(const void *arg) {
    const defect_case *c = (const defect_case *)arg;
    goal_world *w = world(c->p, c->d);
    th_counter cnt;
    char t[4000];
    size_t k;
    CHECK_EQ(check(w, th_counting(&cnt, -1), t, sizeof t), GOAL_ERR_MATCH);
    CHECK_EQ(cnt.allocs, cnt.frees);
    for (k = 0; k < 3 && c->want[k]; k++) CHECK(has(t, c->want[k]));
    goal_world_destroy(w);
}
/* Eager sends complete when posted, so a head-to-head exchange passes with eager_limit. */
static void test_eager(void) {
    const char *text = "num_ranks 2\nrank 0 {\nl1: send 8b to 1\nl2: recv 8b from 1\nl2 requires l1\n}\n"
                       "rank 1 {\nl1: send 8b to 0\nl2: recv 8b from 0\nl2 requires l1\n}\n";
    goal_world *w;
    goal_parse_desc pd;
    goal_sim_check_desc d;
    goal_sim_check_result res;
    memset(&pd, 0, sizeof pd);
    memset(&d, 0, sizeof d);
    CHECK_EQ(goal_parse(text, strlen(text), &pd, &w, NULL), GOAL_OK);
    CHECK_EQ(goal_sim_check(w, &d, &res), GOAL_ERR_MATCH);
    goal_sim_check_free(&res);
    d.eager_limit = 8;
    CHECK_EQ(goal_sim_check(w, &d, &res), GOAL_OK);
    CHECK_EQ(res.npairs, 2);
    goal_sim_check_free(&res);
    goal_world_destroy(w);
}
/* The world of text checks clean, with two pairs: the first is rank 1's send and rank 0's
   first recv. */
static void first_pair(const char *text) {
    goal_world *w;
    goal_parse_desc pd;
    goal_sim_check_result res;
    memset(&pd, 0, sizeof pd);
    CHECK_EQ(goal_parse(text, strlen(text), &pd, &w, NULL), GOAL_OK);
    CHECK_EQ(goal_sim_check(w, NULL, &res), GOAL_OK);
    CHECK_EQ(res.nfindings, 0);
    CHECK_EQ(res.npairs, 2);
    if (res.npairs == 2) { CHECK_EQ(res.pairs[0].send.rank, 1); CHECK_EQ(res.pairs[0].recv.action, 0); }
    goal_sim_check_free(&res);
    goal_world_destroy(w);
}
/* Wildcards: any source and any tag take the first message posted to the rank. */
static void test_wildcards(void) {
    first_pair("num_ranks 3\nrank 0 {\nl1: recv 8b from -1 tag -1\nl2: recv 8b from -1 tag 5\nl2 requires l1\n}\n"
               "rank 1 {\nl1: send 8b to 0 tag 5\n}\nrank 2 {\nl1: send 8b to 0 tag 5\n}\n");
}
/* A message from rank 1 meets rank 0's recv from 1 (8 bytes) and a later recv from any
   source (4 bytes): the earlier takes it, and the sizes compared are that recv's (the
   wildcard recv, looked at last, must not lend its own); rank 2's 4 bytes take the other. */
static void test_wildcard_sizes(void) {
    first_pair("num_ranks 3\nrank 0 {\nl1: recv 8b from 1 tag 5\nl2: recv 4b from -1 tag 5\n}\n"
               "rank 1 {\nl1: send 8b to 0 tag 5\n}\nrank 2 {\nl1: send 4b to 0 tag 5\n}\n");
}
static int check_with(goal_allocator a, void *w) {
    char t[4000];
    goal_status st = check((goal_world *)w, a, t, sizeof t);
    CHECK(st == GOAL_ERR_MATCH || st == GOAL_ERR_NOMEM);
    return st != GOAL_ERR_NOMEM;
}
static void test_alloc_failures(void) {
    goal_world *w = world(16, DROP_SEND);
    CHECK(th_alloc_failures(1000, check_with, w) < 1000);
    goal_world_destroy(w);
}

static int count_out(void *user, const char *data, size_t len) {
    size_t *n = (size_t *)user, k;
    for (k = 0; k < len; k++) n[0] += data[k] == '\n', n[1] += data[k] == '-' && k + 1 < len && data[k + 1] == '>';
    return 0;
}
static void test_dot(void) {
    goal_world *w = world(8, CLEAN);
    size_t n[2] = {0, 0};
    CHECK_EQ(goal_sim_write_dot(w, -1, NULL, count_out, n), GOAL_OK);
    CHECK_EQ(n[1], 4 + 7);          /* 4 dependencies, 7 messages */
    n[0] = n[1] = 0;
    CHECK_EQ(goal_sim_write_dot(w, 4, NULL, count_out, n), GOAL_OK);
    CHECK_EQ(n[1], 2);
    CHECK_EQ(goal_sim_write_dot(w, 8, NULL, count_out, n), GOAL_ERR_ARG);
    goal_world_destroy(w);
}

int main(void) {
    RUN(test_clean);
    th_run_cases(test_defect, defects, sizeof defects[0], sizeof defects / sizeof defects[0]);
    RUN(test_eager);
    RUN(test_wildcards);
    RUN(test_wildcard_sizes);
    RUN(test_alloc_failures);
    RUN(test_dot);
    return th_done();
}
