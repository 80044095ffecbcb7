/* goal_analyze.h: the analysis (the cDAG paper): the butterfly of Figures 1-5, every libgoal data
   movement algorithm detected as its collective (also with random extra messages), p2p-only
   worlds, barriers, reductions, LogGOPSim input, replacement (linear -> binomial bcast,
   faster under LogGOPS; linear gather, scatter, allgather and alltoall -> libgoal algorithms
   with the same SST and the same bytes, or direct messages when the layout does not fit),
   and allocation failures. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include "goal_sched.h"
#include "goal_analyze.h"
#include "harness.h"

/* How many findings of kind k. */
static size_t count_kind(const goal_analyze_result *r, goal_analyze_kind k) {
    size_t i, n = 0;
    for (i = 0; i < r->nfindings; i++) n += r->findings[i].kind == k;
    return n;
}
static int has_tuple(const goal_analyze_result *r, int owner, uint64_t off, uint64_t size, int src, uint64_t soff) {
    size_t i;
    for (i = 0; i < r->ntuples; i++) {
        const goal_analyze_tuple *t = &r->tuples[i];
        if (t->owner == owner && t->offset == off && t->size == size && t->src == src && t->src_offset == soff && !t->slot) return 1;
    }
    return 0;
}

static void test_butterfly(void) {
    goal_world *w = th_load("tests/data/analyze/butterfly4.goal");
    goal_analyze_result r;
    goal_error err;
    size_t i, at0 = 0;
    if (!w) { CHECK(0); return; }
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
    for (i = 0; i < r.ntuples; i++) at0 += r.tuples[i].owner == 0;
    CHECK_EQ(at0, 4);   /* {(0,0,1,0,0), (0,1,1,1,1), (0,2,1,2,2), (0,3,1,3,3)} */
    CHECK(has_tuple(&r, 0, 0, 1, 0, 0) && has_tuple(&r, 0, 1, 1, 1, 1) && has_tuple(&r, 0, 2, 1, 2, 2) && has_tuple(&r, 0, 3, 1, 3, 3));
    CHECK_EQ(r.nfindings, 1);
    CHECK_EQ(count_kind(&r, GOAL_ANALYZE_ALLTOALL), 1);
    CHECK_EQ(r.findings[0].size, 1);
    CHECK_EQ(r.findings[0].count, 12);
    goal_analyze_free(&r);
    goal_world_destroy(w);
}

/* The kind an algorithm must be found as; at p = 2 the signatures coincide. */
static goal_analyze_kind expected_kind(const char *algo, int p) {
    switch (goal_algo_coll(algo)) {
    case GOAL_COLL_BCAST: return GOAL_ANALYZE_BCAST;
    case GOAL_COLL_GATHER: case GOAL_COLL_GATHERV: return p == 2 ? GOAL_ANALYZE_BCAST : GOAL_ANALYZE_GATHER;
    case GOAL_COLL_SCATTER: case GOAL_COLL_SCATTERV: return p == 2 ? GOAL_ANALYZE_BCAST : GOAL_ANALYZE_SCATTER;
    case GOAL_COLL_ALLGATHER: case GOAL_COLL_ALLGATHERV: return GOAL_ANALYZE_ALLGATHER;
    default: return p == 2 ? GOAL_ANALYZE_ALLGATHER : GOAL_ANALYZE_ALLTOALL;
    }
}
/* Rank r's part of algo, then (extra) random messages: message k goes from a random rank to
   another one after the sender's part is done, into slot 2, size 1000 + k (sizes differ so
   that they cannot form a collective), tag 1000 + k. */
static goal_world *algo_world(const char *algo, int p, int extra, unsigned seed) {
    goal_world *w = NULL;
    goal_algo_desc d;
    goal_error err;
    int r, k;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.root = p / 3; d.count = strncmp(algo, "bcast_chain", 11) == 0 || strstr(algo, "tree") || strstr(algo, "scatter_allgather") ? 4096 : 8;
    d.dtype = GOAL_INT8;   /* count is bytes */
    if (goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL) != GOAL_OK) return NULL;
    for (r = 0; r < p; r++) {
        goal_graph *g;
        int32_t done;
        unsigned s = seed;
        g = th_graph(r, p);
        done = goal_algo_build(g, &d, NULL, 0, NULL, &err);
        if (done < 0) printf("  %s p=%d: %s\n", algo, p, err.msg);
        for (k = 0; k < extra; k++) {
            int from, to;
            s = s * 1103515245u + 12345u; from = (int)((s >> 8) % (unsigned)p);
            s = s * 1103515245u + 12345u; to = (from + 1 + (int)((s >> 8) % (unsigned)(p - 1))) % p;
            if (from == r) goal_graph_requires(g, goal_graph_send(g, goal_buffer(2, 4096u * (unsigned)k, 1000u + (unsigned)k), to, 1000 + k), done);
            if (to == r) goal_graph_recv(g, goal_buffer(3, 4096u * (unsigned)k, 1000u + (unsigned)k), from, 1000 + k);
        }
        if (goal_world_add_graph(w, g, &err) != GOAL_OK) printf("  %s p=%d: %s\n", algo, p, err.msg);
        goal_graph_destroy(g);
    }
    return w;
}
static const char *const moving[] = {"bcast_binomial", "bcast_binary", "bcast_chain", "bcast_doublering", "gather_linear",
    "gather_binomial", "scatter_linear", "scatter_binomial", "allgather_ring", "allgather_recdoub", "allgather_bruck",
    "alltoall_linear", "alltoall_pairwise", "alltoall_bruck",
    /* the bandwidth-optimal families */
    "bcast_scatter_allgather", "bcast_knomial", "bcast_pipelined_tree", "bcast_dbtree", "allgather_neighbor", NULL};

static void check_algo(const char *algo, int p, int extra) {
    goal_world *w = algo_world(algo, p, extra, (unsigned)p * 7919u);
    goal_analyze_result r;
    goal_error err;
    goal_analyze_kind want = expected_kind(algo, p);
    size_t n = 0, k;
    if (!w) { CHECK(0); return; }
    if (goal_analyze(w, NULL, &r, &err) != GOAL_OK) { printf("  %s p=%d: %s\n", algo, p, err.msg); CHECK(0); goal_world_destroy(w); return; }
    for (k = 0; k < r.nfindings; k++) n += r.findings[k].kind != GOAL_ANALYZE_P2P && r.findings[k].kind != GOAL_ANALYZE_BARRIER;
    if (n != 1 || count_kind(&r, want) != 1 || count_kind(&r, GOAL_ANALYZE_P2P) != (size_t)extra) {
        printf("  %s p=%d extra=%d: %lu findings, %lu %s, %lu p2p\n", algo, p, extra, (unsigned long)r.nfindings,
               (unsigned long)count_kind(&r, want), goal_analyze_kind_name(want), (unsigned long)count_kind(&r, GOAL_ANALYZE_P2P));
        CHECK(0);
    }
    if (want <= GOAL_ANALYZE_SCATTER && p > 2) CHECK_EQ(r.findings[0].root, p / 3);
    goal_analyze_free(&r);
    goal_world_destroy(w);
}
static void test_algorithms(void) {
    static const int sample[] = {2, 3, 4, 5, 7, 8, 12, 16, 31, 32};
    int i, p;
    for (i = 0; moving[i]; i++) {
        if (th_full()) for (p = 2; p <= 32; p++) check_algo(moving[i], p, 0);
        else for (p = 0; p < 10; p++) check_algo(moving[i], sample[p], 0);
    }
}
static void test_algorithms_with_noise(void) {
    static const int sample[] = {3, 5, 8, 13, 32};
    int i, p;
    for (i = 0; moving[i]; i++) {
        /* from p = 3: with two ranks any single extra message is itself a bcast */
        if (th_full()) for (p = 3; p <= 32; p++) check_algo(moving[i], p, p);
        else for (p = 0; p < 5; p++) check_algo(moving[i], sample[p], sample[p]);
    }
}

static void test_p2p_only(void) {
    /* a chain 0 -> 1 -> 2 forwarding, and 3 -> 0: no collective, wait sets incomplete */
    goal_world *w = th_parse("num_ranks 4;\nrank #0 { send 0,8 to 1; recv 16,4 from 3; }\n"
                          "rank #1 { a: recv 0,8 from 0; b: send 0,8 to 2; requ b -> a; }\n"
                          "rank #2 { recv 8,8 from 1; }\nrank #3 { send 4,4 to 0; }\n");
    goal_analyze_result r;
    goal_error err;
    size_t k;
    if (!w) { CHECK(0); return; }
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
    CHECK_EQ(r.nfindings, 3);
    for (k = 0; k < r.nfindings; k++) CHECK_EQ(r.findings[k].kind, GOAL_ANALYZE_P2P);
    CHECK(has_tuple(&r, 2, 8, 8, 0, 0));    /* forwarded: the source stays rank 0 */
    CHECK(has_tuple(&r, 0, 16, 4, 3, 4));
    goal_analyze_free(&r);
    goal_world_destroy(w);
}

static void test_barrier_and_waits(void) {
    static const char *const algos[] = {"barrier_dissemination", "barrier_linear"};
    int i, p;
    for (i = 0; i < 2; i++)
        for (p = 2; p <= 9; p += 7) {
            goal_world *w = algo_world(algos[i], p, 0, 1);
            goal_analyze_result r;
            goal_analyze_waits_result ws;
            goal_error err;
            CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
            CHECK_EQ(r.nfindings, 1);
            CHECK_EQ(count_kind(&r, GOAL_ANALYZE_BARRIER), 1);
            CHECK_EQ(r.ntuples, 0);
            CHECK_EQ(goal_analyze_waits(w, NULL, &ws, NULL), GOAL_OK);
            CHECK_EQ(ws.start[ws.nranks], (size_t)p * (size_t)(p - 1));
            goal_analyze_waits_free(&ws);
            goal_analyze_free(&r);
            goal_world_destroy(w);
        }
    {   /* binomial bcast from 8/3 = 2: the root waits for nobody, rank 3 (v = 1) for the root,
           rank 2 + 7 = 1 (v = 7) for v = 6, 4, 0 */
        goal_world *w = algo_world("bcast_binomial", 8, 0, 1);
        goal_analyze_waits_result ws;
        CHECK_EQ(goal_analyze_waits(w, NULL, &ws, NULL), GOAL_OK);
        CHECK_EQ(ws.start[3] - ws.start[2], 0);
        CHECK_EQ(ws.start[4] - ws.start[3], 1);
        CHECK_EQ(ws.start[2] - ws.start[1], 3);
        goal_analyze_waits_free(&ws);
        goal_world_destroy(w);
    }
}

static void test_reduction(void) {
    goal_world *w = algo_world("allreduce_recdoub", 4, 0, 1), *nw = NULL;
    goal_analyze_result r;
    goal_analyze_source src[8];
    goal_error err;
    size_t k, reduced = 0;
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
    for (k = 0; k < r.ntuples; k++) {
        if (r.tuples[k].mix == GOAL_ANALYZE_NONE) continue;
        reduced++;
        CHECK_EQ(goal_analyze_sources(&r, &r.tuples[k], src, 8), 4);   /* all four inputs */
    }
    CHECK_EQ(reduced, 4);
    CHECK_EQ(count_kind(&r, GOAL_ANALYZE_P2P), 4);
    CHECK_EQ(goal_analyze_replace(w, &r, NULL, &nw, &err), GOAL_ERR_ARG);
    CHECK(strstr(err.msg, "computes") != NULL);
    goal_analyze_free(&r);
    goal_world_destroy(w);
}

static void test_loggopsim(void) {
    goal_world *w = th_parse("num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n");
    goal_analyze_result r;
    goal_analyze_waits_result ws;
    goal_error err;
    if (!w) { CHECK(0); return; }
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_ERR_ARG);
    CHECK(strstr(err.msg, "no buffer offsets") != NULL);
    CHECK_EQ(goal_analyze_waits(w, NULL, &ws, NULL), GOAL_OK);
    CHECK_EQ(ws.start[2] - ws.start[1], 1);
    goal_analyze_waits_free(&ws);
    goal_world_destroy(w);
}

static void test_unmatched(void) {
    goal_world *w = th_parse("num_ranks 2;\nrank #0 { send 0,8 to 1; }\n");
    goal_analyze_result r;
    goal_analyze_waits_result ws;
    goal_error err;
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_ERR_MATCH);
    CHECK(strstr(err.msg, "unmatched send") != NULL);
    memset(&err, 0, sizeof err);
    CHECK_EQ(goal_analyze_waits(w, NULL, &ws, &err), GOAL_ERR_MATCH);   /* the wait sets say why too */
    CHECK(strstr(err.msg, "the world does not match: ") == err.msg && strstr(err.msg, "unmatched send") != NULL);
    goal_world_destroy(w);
}

/* Linear bcast of size bytes from 0, built by hand (libgoal has no linear bcast). */
static goal_world *linear_bcast(int p, uint64_t size) {
    goal_world *w;
    goal_error err;
    int r, j;
    goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL);
    for (r = 0; r < p; r++) {
        goal_graph *g;
        g = th_graph(r, p);
        for (j = 1; j < p && r == 0; j++) goal_graph_send(g, goal_buffer(0, 0, size), j, 0);
        if (r) goal_graph_recv(g, goal_buffer(0, 0, size), 0, 0);
        goal_world_add_graph(w, g, &err);
        goal_graph_destroy(g);
    }
    return w;
}
static uint64_t sim_time(const goal_world *w) {
    goal_sim_run_result res;
    uint64_t t = 0;
    if (goal_sim_run(w, NULL, &res) == GOAL_OK) t = res.max;
    goal_sim_run_free(&res);
    return t;
}
static void test_replace_bcast(void) {
    int p;
    for (p = 4; p <= 64; p *= 2) {
        goal_world *w = linear_bcast(p, 1024), *nw = NULL;
        goal_analyze_result r, r2;
        goal_error err;
        uint64_t before, after;
        CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
        CHECK_EQ(count_kind(&r, GOAL_ANALYZE_BCAST), 1);
        CHECK_EQ(goal_analyze_replace(w, &r, NULL, &nw, &err), GOAL_OK);
        if (!nw) { CHECK(0); goal_analyze_free(&r); goal_world_destroy(w); continue; }
        before = sim_time(w); after = sim_time(nw);
        printf("  linear bcast p=%d: %llu -> binomial %llu\n", p, (unsigned long long)before, (unsigned long long)after);
        if (p >= 8) CHECK(after < before);
        /* same semantics: the same SST, again one bcast */
        CHECK_EQ(goal_analyze(nw, NULL, &r2, &err), GOAL_OK);
        CHECK_EQ(r2.ntuples, r.ntuples);
        CHECK_EQ(count_kind(&r2, GOAL_ANALYZE_BCAST), 1);
        CHECK_EQ(r2.nfindings, 1);
        goal_analyze_free(&r2);
        goal_analyze_free(&r);
        goal_world_destroy(nw);
        goal_world_destroy(w);
    }
}

static void test_replace_rest(void) {
    /* a gather and p2p messages become direct messages with the same SST */
    goal_world *w = algo_world("gather_binomial", 6, 6, 3), *nw = NULL;
    goal_analyze_result r, r2;
    goal_error err;
    size_t k;
    CHECK_EQ(goal_analyze(w, NULL, &r, &err), GOAL_OK);
    CHECK_EQ(goal_analyze_replace(w, &r, NULL, &nw, &err), GOAL_OK);
    CHECK_EQ(goal_analyze(nw, NULL, &r2, &err), GOAL_OK);
    CHECK_EQ(r2.ntuples, r.ntuples);
    for (k = 0; k < r.ntuples && k < r2.ntuples; k++)
        CHECK(r.tuples[k].owner == r2.tuples[k].owner && r.tuples[k].offset == r2.tuples[k].offset && r.tuples[k].src == r2.tuples[k].src &&
              r.tuples[k].src_offset == r2.tuples[k].src_offset && r.tuples[k].size == r2.tuples[k].size);
    CHECK_EQ(count_kind(&r2, GOAL_ANALYZE_GATHER), 1);
    goal_analyze_free(&r2);
    goal_analyze_free(&r);
    goal_world_destroy(nw);
    goal_world_destroy(w);
}

/* ---- replacing gather, scatter, allgather, alltoall ---------------------------------------- */
/* How a hand-written linear collective lays out its blocks: MPI's layout with the own block
   copied, the own block in place (no copy; allgather sends from OUT), or the root's OUT
   (gather) / IN (scatter) / every OUT (all*) in reverse rank order. */
enum { LAY_MPI, LAY_INPLACE, LAY_REVERSED };
#define RP_N 8u   /* bytes per block */
static int rp_in_blocks(goal_analyze_kind k) { return k == GOAL_ANALYZE_SCATTER || k == GOAL_ANALYZE_ALLTOALL; }
static int rp_out_blocks(goal_analyze_kind k) { return k != GOAL_ANALYZE_SCATTER; }
static uint64_t rp_at(int lay, int p, int i) { return (uint64_t)(lay == LAY_REVERSED ? p - 1 - i : i) * RP_N; }
/* Where s's block for o is read (IN = slot 0) and written at o (OUT = slot 1). */
static goal_buf rp_src(goal_analyze_kind k, int lay, int p, int s, int o) {
    if (lay == LAY_INPLACE && k == GOAL_ANALYZE_ALLGATHER) return goal_buffer(1, rp_at(lay, p, s), RP_N);
    return goal_buffer(0, rp_in_blocks(k) ? rp_at(k == GOAL_ANALYZE_SCATTER ? lay : LAY_MPI, p, o) : 0, RP_N);
}
static goal_buf rp_dst(goal_analyze_kind k, int lay, int p, int s) {
    return goal_buffer(1, rp_out_blocks(k) ? rp_at(k == GOAL_ANALYZE_SCATTER ? LAY_MPI : lay, p, s) : 0, RP_N);
}
/* Whether block s -> o moves in collective k at p ranks (root 1 % p when rooted). */
static int rp_moves(goal_analyze_kind k, int p, int s, int o) {
    if (k == GOAL_ANALYZE_GATHER) return o == 1 % p && s != o;
    if (k == GOAL_ANALYZE_SCATTER) return s == 1 % p && s != o;
    return s != o;
}
static goal_world *rp_linear(goal_analyze_kind k, int lay, int p) {
    goal_world *w = NULL;
    goal_error err;
    int r, j;
    if (goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL) != GOAL_OK) return NULL;
    for (r = 0; r < p; r++) {
        goal_graph *g;
        int keeps = k == GOAL_ANALYZE_ALLGATHER || k == GOAL_ANALYZE_ALLTOALL || r == 1 % p;
        g = th_graph(r, p);
        for (j = 0; j < p; j++) {
            if (j != r && rp_moves(k, p, r, j)) goal_graph_send(g, rp_src(k, lay, p, r, j), j, 0);
            if (j != r && rp_moves(k, p, j, r)) goal_graph_recv(g, rp_dst(k, lay, p, j), j, 0);
        }
        if (keeps && lay != LAY_INPLACE) goal_graph_exec(g, GOAL_OP_COPY, GOAL_UINT8, rp_dst(k, lay, p, r), rp_src(k, lay, p, r, r));
        goal_world_add_graph(w, g, &err);
        goal_graph_destroy(g);
    }
    return w;
}
/* The next tuple from k on that moves data: an in-place block that went through scratch
   (or was copied onto itself) comes back as a tuple from its own place, which moves nothing. */
static size_t rp_next_move(const goal_analyze_result *a, size_t k) {
    const goal_analyze_tuple *t = a->tuples;
    while (k < a->ntuples && t[k].src == t[k].owner && t[k].src_slot == t[k].slot && t[k].src_offset == t[k].offset) k++;
    return k;
}
static int rp_same_tuples(const goal_analyze_result *a, const goal_analyze_result *b) {
    size_t i = rp_next_move(a, 0), j = rp_next_move(b, 0);
    for (; i < a->ntuples && j < b->ntuples; i = rp_next_move(a, i + 1), j = rp_next_move(b, j + 1)) {
        const goal_analyze_tuple *x = &a->tuples[i], *y = &b->tuples[j];
        if (x->owner != y->owner || x->slot != y->slot || x->offset != y->offset || x->size != y->size || x->src != y->src ||
            x->src_slot != y->src_slot || x->src_offset != y->src_offset)
            return 0;
    }
    return i == a->ntuples && j == b->ntuples;
}
static int rp_same_findings(const goal_analyze_result *a, const goal_analyze_result *b) {
    size_t k;
    if (a->nfindings != b->nfindings) return 0;
    for (k = 0; k < a->nfindings; k++)
        if (a->findings[k].kind != b->findings[k].kind || a->findings[k].root != b->findings[k].root ||
            a->findings[k].size != b->findings[k].size || a->findings[k].count != b->findings[k].count)
            return 0;
    return 1;
}
/* Runs w in process on the same pseudo-random IN (slot 0) and 0xA5 OUT (slot 1) every time;
   mem receives both slots of every rank: p * 2 * p * RP_N bytes. */
static int rp_run(const goal_world *w, int p, unsigned char *mem) {
    goal_slot sl[32][2];
    const goal_slot *slots[32];
    goal_world_run_desc d;
    goal_error err;
    size_t half = (size_t)p * RP_N, i;
    int r;
    for (i = 0; i < 2 * half * (size_t)p; i++) mem[i] = (i / half) % 2 ? 0xA5 : (unsigned char)(i * 2654435761u >> 13);
    for (r = 0; r < p; r++) {
        sl[r][0].data = mem + 2 * half * (size_t)r; sl[r][0].size = half;
        sl[r][1].data = mem + 2 * half * (size_t)r + half; sl[r][1].size = half;
        slots[r] = sl[r];
    }
    memset(&d, 0, sizeof d);
    d.world = w; d.slots = slots; d.nslots = 2;
    if (goal_world_run(&d, &err) == GOAL_OK) return 1;
    printf("  run: %s\n", err.msg);
    return 0;
}
/* The replaced world of kind k at p ranks: the same SST and findings, clean under
   goal_sim_check, the same bytes when run; returns its simulated time (before in *before). */
static uint64_t rp_check(goal_analyze_kind k, int lay, int p, int fits, uint64_t *before) {
    static unsigned char m1[32 * 2 * 32 * RP_N], m2[sizeof m1];
    goal_world *w = rp_linear(k, lay, p), *nw = NULL;
    goal_analyze_result r, r2;
    goal_analyze_replace_desc d;
    goal_sim_check_result cr;
    const char *chosen[8] = {NULL};
    goal_error err;
    uint64_t after = 0;
    size_t i, n = 0;
    memset(&d, 0, sizeof d);
    d.chosen = chosen;
    if (!w || goal_analyze(w, NULL, &r, &err) != GOAL_OK) { CHECK(0); goal_world_destroy(w); return 0; }
    CHECK(r.nfindings <= 8);
    CHECK_EQ(goal_analyze_replace(w, &r, &d, &nw, &err), GOAL_OK);
    for (i = 0; i < r.nfindings && i < 8; i++) n += r.findings[i].kind != GOAL_ANALYZE_BARRIER && chosen[i] != NULL;
    if (n != (size_t)(fits && p > 1)) printf("  %s lay %d p=%d: %lu replaced\n", goal_analyze_kind_name(k), lay, p, (unsigned long)n);
    CHECK_EQ(n, fits && p > 1);
    if (nw && goal_analyze(nw, NULL, &r2, &err) == GOAL_OK) {
        CHECK(rp_same_tuples(&r, &r2));
        CHECK(rp_same_findings(&r, &r2));
        goal_analyze_free(&r2);
    } else CHECK(0);
    CHECK(nw && goal_sim_check(nw, NULL, &cr) == GOAL_OK);
    if (nw) goal_sim_check_free(&cr);
    CHECK(nw && rp_run(w, p, m1) && rp_run(nw, p, m2) && memcmp(m1, m2, (size_t)p * 2 * (size_t)p * RP_N) == 0);
    *before = sim_time(w);
    after = nw ? sim_time(nw) : 0;
    goal_analyze_free(&r);
    goal_world_destroy(nw);
    goal_world_destroy(w);
    return after;
}
static void test_replace_blocks(void) {
    static const goal_analyze_kind kinds[] = {GOAL_ANALYZE_GATHER, GOAL_ANALYZE_SCATTER, GOAL_ANALYZE_ALLGATHER, GOAL_ANALYZE_ALLTOALL};
    static const int ps[] = {1, 2, 3, 5, 8, 32};
    int i, j, lay;
    for (i = 0; i < 4; i++)
        for (lay = LAY_MPI; lay <= LAY_REVERSED; lay++)
            for (j = 0; j < 6; j++) {
                int p = ps[j], rooted = kinds[i] == GOAL_ANALYZE_GATHER || kinds[i] == GOAL_ANALYZE_SCATTER;
                /* p = 2: a rooted collective is found as a bcast (any layout fits) */
                int fits = lay != LAY_REVERSED || (p == 2 && rooted);
                uint64_t before = 0, after;
                if (lay == LAY_INPLACE && kinds[i] == GOAL_ANALYZE_ALLTOALL) continue;   /* alltoall has no in-place form */
                if (lay == LAY_REVERSED && p == 32) continue;
                after = rp_check(kinds[i], lay, p, fits, &before);
                if (lay == LAY_MPI && (p == 32 || (p == 8 && i >= 2))) {
                    printf("  linear %s p=%d: %llu -> %llu\n", goal_analyze_kind_name(kinds[i]), p, (unsigned long long)before, (unsigned long long)after);
                    CHECK(after < before);
                }
            }
}

/* Another collective's algorithm is refused; every allocation failure while replacing comes
   back as GOAL_ERR_NOMEM with no world and nothing leaked. */
static void test_replace_errors(void) {
    goal_world *w = rp_linear(GOAL_ANALYZE_ALLTOALL, LAY_MPI, 5), *nw = NULL;
    goal_analyze_replace_desc d;
    goal_analyze_result r;
    goal_error err;
    long k;
    if (!w || goal_analyze(w, NULL, &r, &err) != GOAL_OK) { CHECK(0); goal_world_destroy(w); return; }
    memset(&d, 0, sizeof d);
    d.alltoall = "allgather_bruck";
    CHECK_EQ(goal_analyze_replace(w, &r, &d, &nw, &err), GOAL_ERR_ARG);
    CHECK(nw == NULL && strstr(err.msg, "allgather_bruck is not an algorithm for alltoall") != NULL);
    d.alltoall = NULL;
    for (k = 0; k < 2000; k++) {
        th_counter c;
        goal_status st;
        d.alloc = th_counting(&c, k);
        st = goal_analyze_replace(w, &r, &d, &nw, &err);
        if (st != GOAL_OK) CHECK(st == GOAL_ERR_NOMEM && nw == NULL);
        goal_world_destroy(nw);
        CHECK_EQ(c.allocs, c.frees);
        if (st == GOAL_OK) break;
    }
    CHECK(k < 2000);
    goal_analyze_free(&r);
    goal_world_destroy(w);
}

/* Every allocation failure comes back as an error, and nothing leaks. */
static int analyze_with(goal_allocator a, void *w) {
    goal_analyze_desc d;
    goal_analyze_result r;
    goal_error err;
    goal_status st;
    memset(&d, 0, sizeof d);
    d.alloc = a;
    st = goal_analyze((goal_world *)w, &d, &r, &err);
    if (st == GOAL_OK) { CHECK_EQ(count_kind(&r, GOAL_ANALYZE_ALLTOALL), 1); goal_analyze_free(&r); }
    else CHECK_EQ(st, GOAL_ERR_NOMEM);
    return st == GOAL_OK;
}
static void test_alloc_failures(void) {
    goal_world *w = algo_world("alltoall_bruck", 5, 5, 9);
    CHECK(th_alloc_failures(400, analyze_with, w) < 400);
    goal_world_destroy(w);
}

/* ---- vector collectives: found as their kind where the signatures allow --- */
/* With equal counts (the signatures group tuples by size) the v-algorithms are found as
   gather, scatter, allgather, alltoall, also when the blocks lie in reverse rank order with
   gaps; with counts that differ per rank no collective of one size covers every rank. */
static size_t vector_findings(const char *algo, int p, int layout, goal_analyze_kind want) {
    int a2a = goal_algo_coll(algo) == GOAL_COLL_ALLTOALLV, i, j, n = a2a ? p * p : p;
    int *cnt = (int *)calloc((size_t)n, sizeof(int)), *dsp = (int *)calloc((size_t)n, sizeof(int));
    goal_algo_desc d;
    goal_world *w = NULL;
    goal_analyze_result r;
    goal_error err;
    size_t found = 0;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.root = p / 3; d.count = 8; d.counts = cnt; d.counts_matrix = a2a;
    for (i = 0; i < n; i++) {
        j = i % p;
        cnt[i] = layout == 2 ? 1 + j : 8;
        dsp[i] = layout == 1 ? (p - 1 - j) * 11 : 8 * j;   /* reversed, 3-byte gaps */
    }
    if (layout == 1) { d.displs = dsp; if (a2a) d.recv_displs = dsp; }
    if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { printf("  %s: %s\n", algo, err.msg); CHECK(0); }
    else if (goal_analyze(w, NULL, &r, &err) != GOAL_OK) { printf("  %s: %s\n", algo, err.msg); CHECK(0); }
    else { found = count_kind(&r, want); goal_analyze_free(&r); }
    goal_world_destroy(w);
    free(cnt); free(dsp);
    return found;
}
static void test_vector_collectives(void) {
    static const char *const v[] = {"gatherv_linear", "gatherv_binomial", "scatterv_linear", "allgatherv_ring", "alltoallv_pairwise"};
    static const int ps[] = {3, 5, 8};
    int i, k, layout;
    for (i = 0; i < 5; i++)
        for (k = 0; k < 3; k++) {
            goal_analyze_kind want = expected_kind(v[i], ps[k]);
            for (layout = 0; layout < 2; layout++) {
                size_t got = vector_findings(v[i], ps[k], layout, want);
                if (got != 1) printf("  %s p=%d layout %d: %lu %s findings\n", v[i], ps[k], layout, (unsigned long)got, goal_analyze_kind_name(want));
                CHECK_EQ(got, 1);
            }
            CHECK_EQ(vector_findings(v[i], ps[k], 2, want), 0);   /* counts 1..p: sizes differ */
        }
}

int main(void) {
    RUN(test_butterfly);
    RUN(test_algorithms);
    RUN(test_algorithms_with_noise);
    RUN(test_p2p_only);
    RUN(test_barrier_and_waits);
    RUN(test_reduction);
    RUN(test_loggopsim);
    RUN(test_unmatched);
    RUN(test_replace_bcast);
    RUN(test_replace_rest);
    RUN(test_replace_blocks);
    RUN(test_replace_errors);
    RUN(test_alloc_failures);
    RUN(test_vector_collectives);
    return th_done();
}
