/* test_neighbor.c - goal_algos.h's neighbourhood generator (goal_algo_neighbor_build /
   _world) on the in-process ranks: rings as MPI_Cart builds them (periods of size 1 and 2
   list one rank twice; with `cartesian`, blocks keep their direction), random multigraphs with repeated pairs and MPI_PROC_NULL (-1)
   entries, allgather and alltoall(v) modes, packed and displaced blocks. Every block of OUT
   is checked against the reference computed here: the k-th receive at b from a holds a's
   block of its k-th send to b; blocks of -1 and gaps keep their 0xA5 bytes. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include "harness.h"

enum { MAXP = 9, MAXN = 24 };
typedef struct graph {
    int p, ns[MAXP], nd[MAXP], src[MAXP][MAXN], dst[MAXP][MAXN];
    int cartesian;   /* MPI_Cart's semantics: block 2k+1 arrives in block 2k, 2k in 2k+1 */
} graph;

/* The occurrence index of the i-th entry of list among entries equal to it. */
static int occurrence(const int *list, int i) {
    int j, k = 0;
    for (j = 0; j < i; j++) k += list[j] == list[i];
    return k;
}
/* Elements of the k-th message from a to b (both lists agree on it). */
static int size_of(int a, int b, int k, int mode) { return mode == 0 ? 3 : (a * 7 + b * 3 + k * 5) % 4; }
static unsigned char value(int a, int j, int e) { return (unsigned char)(a * 31 + j * 7 + e + 1); }

/* Runs g in mode 0 (allgather, 3 elements), 1 (alltoallv, packed) or 2 (alltoallv, blocks
   in reverse order with a gap of one element) and checks every rank's OUT. */
static void run_graph(const graph *g, int mode) {
    static unsigned char in[MAXP][512], out[MAXP][512];
    static int sc[MAXP][MAXN], sd[MAXP][MAXN], rc[MAXP][MAXN], rd[MAXP][MAXN];
    goal_algo_neighbors nb[MAXP];
    goal_algo_desc d[MAXP];
    goal_slot slots[MAXP][2];
    const goal_slot *sp[MAXP];
    goal_world *w = NULL;
    goal_world_run_desc rd_;
    goal_error err;
    int r, i, e, at;
    for (r = 0; r < g->p; r++) {
        for (i = 0, at = 0; i < g->nd[r]; i++) {
            sc[r][i] = g->dst[r][i] < 0 ? 2 : size_of(r, g->dst[r][i], g->cartesian ? 0 : occurrence(g->dst[r], i), mode);
            at += sc[r][i] + 1;
        }
        for (i = 0; i < g->nd[r]; i++) { at -= sc[r][i] + 1; sd[r][i] = at; }   /* reverse order, gaps */
        for (i = 0, at = 0; i < g->ns[r]; i++) {
            rc[r][i] = g->src[r][i] < 0 ? 2 : size_of(g->src[r][i], r, g->cartesian ? 0 : occurrence(g->src[r], i), mode);
            at += rc[r][i] + 1;
        }
        for (i = 0; i < g->ns[r]; i++) { at -= rc[r][i] + 1; rd[r][i] = at; }
        memset(&d[r], 0, sizeof d[r]);
        d[r].dtype = GOAL_UINT8; d[r].count = 3;
        if (mode) { d[r].counts = sc[r]; d[r].recv_counts = rc[r]; }
        if (mode == 2) { d[r].displs = sd[r]; d[r].recv_displs = rd[r]; }
        nb[r].nsources = g->ns[r]; nb[r].sources = g->src[r]; nb[r].ndests = g->nd[r]; nb[r].dests = g->dst[r];
        nb[r].allgather = mode == 0; nb[r].cartesian = g->cartesian;
        memset(in[r], 0, sizeof in[r]);
        for (i = 0, at = 0; i < (mode ? g->nd[r] : 1); i++) {
            int off = mode == 2 ? sd[r][i] : at;
            for (e = 0; e < (mode ? sc[r][i] : 3); e++) in[r][off + e] = value(r, mode ? i : 0, e);
            at += mode ? sc[r][i] : 3;
        }
        memset(out[r], 0xA5, sizeof out[r]);
        slots[r][0].data = in[r]; slots[r][0].size = sizeof in[r];
        slots[r][1].data = out[r]; slots[r][1].size = sizeof out[r];
        sp[r] = slots[r];
    }
    CHECK_EQ(goal_algo_neighbor_world(&w, d, nb, g->p, &err), GOAL_OK);
    if (!w) { printf("  %s\n", err.msg); return; }
    memset(&rd_, 0, sizeof rd_);
    rd_.world = w; rd_.slots = sp; rd_.nslots = 2;
    CHECK_EQ(goal_world_run(&rd_, &err), GOAL_OK);
    goal_world_destroy(w);
    for (r = 0; r < g->p; r++) {
        unsigned char want[512];
        memset(want, 0xA5, sizeof want);
        for (i = 0, at = 0; i < g->ns[r]; i++) {
            int a = g->src[r][i], k = a < 0 ? 0 : occurrence(g->src[r], i), j, off = mode == 2 ? rd[r][i] : at;
            at += mode ? rc[r][i] : 3;
            if (a < 0) continue;
            for (j = 0; j < g->nd[a] && !(g->dst[a][j] == r && occurrence(g->dst[a], j) == k); j++) {}
            if (g->cartesian) j = i ^ 1;   /* what a sent in the other direction */
            CHECK(j < g->nd[a]);
            for (e = 0; e < (mode ? rc[r][i] : 3); e++) want[off + e] = value(a, mode ? j : 0, e);
        }
        if (memcmp(want, out[r], sizeof want)) printf("  p=%d mode %d: rank %d differs\n", g->p, mode, r);
        CHECK(!memcmp(want, out[r], sizeof want));
    }
}

/* A ring of p ranks as MPI_Cart_shift lists it: (left, right); periodic or with -1 at the ends.
   As a graph (repeated pairs in order) and with `cartesian` (directions kept: at p 1 and 2
   the two differ). */
static void ring(graph *g, int p, int periodic) {
    int r;
    memset(g, 0, sizeof *g);
    g->p = p;
    for (r = 0; r < p; r++) {
        int left = r > 0 ? r - 1 : periodic ? p - 1 : -1, right = r < p - 1 ? r + 1 : periodic ? 0 : -1;
        g->ns[r] = g->nd[r] = 2;
        g->src[r][0] = g->dst[r][0] = left;
        g->src[r][1] = g->dst[r][1] = right;
    }
}
static void test_rings(void) {
    graph g;
    int p, periodic, mode;
    for (p = 1; p <= 5; p++)
        for (periodic = 0; periodic < 4; periodic++)
            for (mode = 0; mode < 3; mode++) {
                ring(&g, p, periodic % 2);
                g.cartesian = periodic / 2;
                run_graph(&g, mode);
            }
}

static unsigned next(uint64_t *s) { *s = *s * 6364136223846793005ull + 1442695040888963407ull; return (unsigned)(*s >> 33); }
/* Random multigraphs: each rank lists up to 8 destinations (repeats, itself, -1); the
   sources are what the others list, shuffled, with -1 entries added. */
static void test_multigraphs(void) {
    uint64_t seed = 11;
    int t, mode;
    for (t = 0; t < 300; t++) {
        graph g;
        int a, i, n;
        memset(&g, 0, sizeof g);
        g.p = 1 + (int)(next(&seed) % MAXP);
        for (a = 0; a < g.p; a++) {
            n = (int)(next(&seed) % 9);
            for (i = 0; i < n; i++) {
                int b = (int)(next(&seed) % (unsigned)(g.p + 1)) - 1;
                g.dst[a][g.nd[a]++] = b;
                if (b >= 0) g.src[b][g.ns[b]++] = a;
            }
        }
        for (a = 0; a < g.p; a++) {
            if (g.ns[a] < MAXN && next(&seed) % 2) g.src[a][g.ns[a]++] = -1;
            for (i = g.ns[a] - 1; i > 0; i--) {
                int j = (int)(next(&seed) % (unsigned)(i + 1)), x = g.src[a][i];
                g.src[a][i] = g.src[a][j]; g.src[a][j] = x;
            }
        }
        for (mode = 0; mode < 3; mode++) run_graph(&g, mode);
    }
}

static void test_errors(void) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    goal_algo_desc d;
    goal_algo_neighbors nb;
    goal_error err;
    int bad[1] = {4}, neg[1] = {-3};
    memset(&gd, 0, sizeof gd); gd.nranks = 4;
    memset(&d, 0, sizeof d);
    memset(&nb, 0, sizeof nb);
    CHECK_EQ(goal_graph_create(&g, &gd, &err), GOAL_OK);
    nb.ndests = 1; nb.dests = bad;
    CHECK_EQ(goal_algo_neighbor_build(g, &d, &nb, NULL, 0, NULL, &err), GOAL_ERR_RANK);
    CHECK(strstr(err.msg, "dests[0] = 4 is out of range") != NULL);
    nb.dests = NULL;
    CHECK_EQ(goal_algo_neighbor_build(g, &d, &nb, NULL, 0, NULL, &err), GOAL_ERR_ARG);
    nb.ndests = 1; nb.dests = bad; bad[0] = 1; d.counts = neg;
    CHECK_EQ(goal_algo_neighbor_build(g, &d, &nb, NULL, 0, NULL, &err), GOAL_ERR_ARG);
    CHECK(strstr(err.msg, "counts[0] = -3 is negative") != NULL);
    CHECK_EQ(goal_algo_neighbor_build(g, NULL, &nb, NULL, 0, NULL, &err), GOAL_ERR_ARG);
    goal_graph_destroy(g);
}

int main(void) {
    RUN(test_rings);
    RUN(test_multigraphs);
    RUN(test_errors);
    return th_done();
}
