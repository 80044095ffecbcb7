/* The matching queue (goal.h's goal__fifo, shared by the in-process transport and the
   simulator) against a plain list that walks every entry in posting order: random pushes,
   takes by peer or from any source, and cancels, over queues that stay short (walked) and
   queues that grow past GOAL__FIFO_LINEAR (indexed by peer), with wildcard entries. The
   same entry must come out, in every step. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include "harness.h"

#define NQ 4
#define MAXE 64
#define STEPS 20000

typedef struct ref_ent { uint32_t ref; int32_t peer, tag; uint32_t at; } ref_ent;
typedef struct model {
    uint32_t head[NQ];          /* the goal__fifo queues */
    ref_ent e[NQ][MAXE];        /* the reference: each queue in posting order */
    int n[NQ];
    int32_t tag_of[STEPS];    /* ref -> tag, what the caller's function reads */
} model;

static uint32_t rnd(uint32_t *s) { *s = *s * 1103515245u + 12345u; return *s >> 8; }

typedef struct want { const model *m; int32_t tag; } want;
static int accepts(void *ctx, uint32_t ref) {
    const want *w = (const want *)ctx;
    int32_t t = w->m->tag_of[ref];
    return t == w->tag || t == GOAL_ANY || w->tag == GOAL_ANY;
}
/* The reference take: the first entry in posting order whose peer and tag fit. */
static int ref_take(const model *m, int q, int32_t peer, int32_t tag) {
    int k;
    for (k = 0; k < m->n[q]; k++) {
        const ref_ent *e = &m->e[q][k];
        if ((peer == GOAL_ANY || e->peer == peer || e->peer == GOAL_ANY) &&
            (tag == GOAL_ANY || e->tag == tag || e->tag == GOAL_ANY))
            return k;
    }
    return -1;
}
static void ref_drop(model *m, int q, int k) {
    memmove(&m->e[q][k], &m->e[q][k + 1], (size_t)(m->n[q] - k - 1) * sizeof m->e[q][0]);
    m->n[q]--;
}

/* One run: pushes are likelier while a queue is short or long (by phase), so queues cross
   the linear limit both ways and empty out. */
static void run(uint32_t seed, int npeers, int wildcards) {
    goal__fifo f;
    model *m = (model *)calloc(1, sizeof *m);
    goal_allocator a = goal__allocator(NULL);
    uint32_t s = seed, next = 0;
    int step, q, k;
    memset(&f, 0, sizeof f);
    f.freel = GOAL__NONE;
    for (q = 0; q < NQ; q++) m->head[q] = GOAL__NONE;
    for (step = 0; step < STEPS; step++) {
        int grow = (step / 500) % 2, op = (int)(rnd(&s) % 10);
        int32_t peer = (int32_t)(rnd(&s) % (uint32_t)npeers), tag = (int32_t)(rnd(&s) % 3u);
        q = (int)(rnd(&s) % NQ);
        if (wildcards && rnd(&s) % 5 == 0) peer = GOAL_ANY;
        if (wildcards && rnd(&s) % 5 == 0) tag = GOAL_ANY;
        if (m->n[q] < MAXE && op < (grow ? 7 : 4)) {
            ref_ent *e = &m->e[q][m->n[q]++];
            e->ref = next++; e->peer = peer; e->tag = tag;
            m->tag_of[e->ref] = tag;
            CHECK_EQ(goal__fifo_push(&f, &a, &m->head[q], peer, e->ref, &e->at), GOAL_OK);
        } else if (op < 9 || !m->n[q]) {
            want w;
            uint32_t got;
            w.m = m; w.tag = tag;
            k = ref_take(m, q, peer, tag);
            got = goal__fifo_take(&f, &a, &m->head[q], peer, accepts, &w);
            CHECK_EQ(got, k < 0 ? GOAL__NONE : m->e[q][k].ref);
            if (got != (k < 0 ? GOAL__NONE : m->e[q][k].ref)) break;   /* the two differ from here on */
            if (k >= 0) ref_drop(m, q, k);
        } else {   /* cancel a random entry */
            k = (int)(rnd(&s) % (uint32_t)m->n[q]);
            goal__fifo_cancel(&f, &m->head[q], m->e[q][k].at);
            ref_drop(m, q, k);
        }
    }
    for (q = 0; q < NQ && step == STEPS; q++) {   /* what is left comes out in posting order */
        want w;
        w.m = m; w.tag = GOAL_ANY;
        for (k = 0; k < m->n[q]; k++) CHECK_EQ(goal__fifo_take(&f, &a, &m->head[q], GOAL_ANY, accepts, &w), m->e[q][k].ref);
        CHECK_EQ(m->head[q], GOAL__NONE);
    }
    CHECK_EQ(step, STEPS);
    CHECK_EQ(f.nany, 0);
    CHECK_EQ(f.peers.n, 0);   /* no per-peer list outlives its entries */
    goal__fifo_free(&f, &a);
    free(m);
}

static void test_fifo_few_peers(void) { run(1, 3, 0); run(2, 3, 1); }
static void test_fifo_many_peers(void) { run(3, 40, 0); run(4, 40, 1); }
static void test_fifo_one_peer(void) { run(5, 1, 0); run(6, 1, 1); }

/* Long queues of many peers, taken from the back: each walk fails, so the queues are
   indexed with hundreds of per-peer lists at once (the index must grow for all of them). */
static void test_fifo_index_many(void) {
    goal__fifo f;
    goal_allocator a = goal__allocator(NULL);
    uint32_t head[3] = {GOAL__NONE, GOAL__NONE, GOAL__NONE};
    model m;   /* only its tag table, for accepts */
    want w;
    int q, k;
    memset(&f, 0, sizeof f);
    f.freel = GOAL__NONE;
    for (q = 0; q < 3; q++)
        for (k = 0; k < 200; k++) CHECK_EQ(goal__fifo_push(&f, &a, &head[q], k, (uint32_t)(q * 200 + k), NULL), GOAL_OK);
    memset(m.tag_of, 0, sizeof m.tag_of);
    w.m = &m; w.tag = 0;
    for (q = 0; q < 3; q++)
        for (k = 199; k >= 0; k--) CHECK_EQ(goal__fifo_take(&f, &a, &head[q], k, accepts, &w), (uint32_t)(q * 200 + k));
    for (q = 0; q < 3; q++) CHECK_EQ(head[q], GOAL__NONE);
    CHECK_EQ(f.peers.n, 0);
    goal__fifo_free(&f, &a);
}

/* Without memory for the index, a long queue is walked: the takes still find their
   entries, in order, and pushes still work. */
static int refuse;   /* the allocator below refuses while set */
static void *maybe_alloc(size_t n, void *user) { (void)user; return refuse ? NULL : malloc(n); }
static void plain_free(void *ptr, void *user) { (void)user; free(ptr); }
static void test_fifo_nomem(void) {
    goal__fifo f;
    goal_allocator a;
    uint32_t head = GOAL__NONE;
    model *m = (model *)calloc(1, sizeof *m);
    want w;
    int k;
    a.alloc_fn = maybe_alloc; a.free_fn = plain_free; a.user = NULL;
    memset(&f, 0, sizeof f);
    f.freel = GOAL__NONE;
    for (k = 0; k < 50; k++) CHECK_EQ(goal__fifo_push(&f, &a, &head, k, (uint32_t)k, NULL), GOAL_OK);
    w.m = m; w.tag = 0;
    refuse = 1;
    CHECK_EQ(goal__fifo_take(&f, &a, &head, 49, accepts, &w), 49);
    CHECK(!(f.e[head].len & GOAL__FIFO_INDEXED));
    CHECK_EQ(goal__fifo_take(&f, &a, &head, 30, accepts, &w), 30);
    CHECK_EQ(goal__fifo_push(&f, &a, &head, 30, 30, NULL), GOAL_OK);   /* reuses a freed entry */
    CHECK_EQ(goal__fifo_take(&f, &a, &head, 77, accepts, &w), GOAL__NONE);
    refuse = 0;
    for (k = 0; k < 49; k++) CHECK_EQ(goal__fifo_take(&f, &a, &head, k, accepts, &w), (uint32_t)k);
    CHECK_EQ(head, GOAL__NONE);
    goal__fifo_free(&f, &a);
    free(m);
}

int main(void) {
    RUN(test_fifo_index_many);
    RUN(test_fifo_nomem);
    RUN(test_fifo_few_peers);
    RUN(test_fifo_many_peers);
    RUN(test_fifo_one_peer);
    return th_done();
}
