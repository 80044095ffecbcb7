/* Tests of goal_sched.h: the executor, the operations, the in-process transport, the world
   runner, faults, many executions at once, the bounded window and the progress thread. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include "harness.h"
#include <math.h>
#include <stdint.h>

/* ---- helpers ----------------------------------------------------------------------------- */
static uint64_t rng_state;
static uint32_t rnd(void) {   /* xorshift64*: reproducible everywhere */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

/* ---- the paper's Example 2 ------------------------------------------------------------- */
static const char *example2 =
    "rank #0 {\n  r1: recv 503,1 from 1;\n  r2: recv 504,1 from 2;\n"
    "  e1: exec sumInt8 with 501,1 503,1;\n  e2: exec sumInt8 with 502,1 504,1;\n"
    "  requ e1 -> r1;\n  requ e2 -> r2;\n}\nrank #1, #2 {\n  send 501,1 to 0;\n}\n";

static void run_example2(int threads) {
    goal_world *w = th_parse(example2);
    unsigned char mem[3][505];
    goal_slot slot[3];
    const goal_slot *slots[3];
    goal_world_run_desc d;
    goal_error err;
    int r, i;
    CHECK(w != NULL);
    if (!w) return;
    for (r = 0; r < 3; r++) {
        for (i = 0; i < 505; i++) mem[r][i] = (unsigned char)(r * 40 + i);
        slot[r].data = mem[r]; slot[r].size = sizeof mem[r]; slots[r] = &slot[r];
    }
    memset(&d, 0, sizeof d);
    d.world = w; d.slots = slots; d.nslots = 1; d.threads = threads;
    CHECK_EQ(goal_world_run(&d, &err), GOAL_OK);
    /* Example 1: D0 = {d00 + d01, d10 + d02}, with the items at 501 and 502. */
    CHECK_EQ(mem[0][501], (unsigned char)((0 * 40 + 501) + (1 * 40 + 501)));
    CHECK_EQ(mem[0][502], (unsigned char)((0 * 40 + 502) + (2 * 40 + 501)));
    CHECK_EQ(mem[0][503], (unsigned char)(1 * 40 + 501));
    CHECK_EQ(mem[0][504], (unsigned char)(2 * 40 + 501));
    CHECK_EQ(mem[1][501], (unsigned char)(1 * 40 + 501));   /* senders unchanged */
    CHECK_EQ(mem[2][500], (unsigned char)(2 * 40 + 500));
    goal_world_destroy(w);
}
static void test_example2(void) { run_example2(0); }
static void test_example2_threads(void) { run_example2(1); }

/* ---- every op x datatype against a plain loop -------------------------------------------- */
#define REF_INT(T, U)                                                                    \
    static void ref_##T(goal_op op, T *a, const T *b, size_t n) {                       \
        size_t k;                                                                        \
        for (k = 0; k < n; k++) {                                                        \
            U x = (U)a[k], y = (U)b[k];                                                  \
            switch (op) {                                                                \
            case GOAL_OP_MAX: a[k] = a[k] > b[k] ? a[k] : b[k]; break;                  \
            case GOAL_OP_MIN: a[k] = a[k] < b[k] ? a[k] : b[k]; break;                  \
            case GOAL_OP_SUM: a[k] = (T)(U)(x + y); break;                               \
            case GOAL_OP_PROD: a[k] = (T)(U)((uint64_t)x * (uint64_t)y); break;          \
            case GOAL_OP_LAND: a[k] = (T)(a[k] != 0 && b[k] != 0); break;                \
            case GOAL_OP_LOR: a[k] = (T)(a[k] != 0 || b[k] != 0); break;                 \
            case GOAL_OP_LXOR: a[k] = (T)((a[k] != 0) != (b[k] != 0)); break;            \
            case GOAL_OP_BAND: a[k] = (T)(U)(x & y); break;                              \
            case GOAL_OP_BOR: a[k] = (T)(U)(x | y); break;                               \
            case GOAL_OP_BXOR: a[k] = (T)(U)(x ^ y); break;                              \
            default: a[k] = b[k]; break;                                                 \
            }                                                                            \
        }                                                                                \
    }
REF_INT(int8_t, uint8_t) REF_INT(int16_t, uint16_t) REF_INT(int32_t, uint32_t) REF_INT(int64_t, uint64_t)
REF_INT(uint8_t, uint8_t) REF_INT(uint16_t, uint16_t) REF_INT(uint32_t, uint32_t) REF_INT(uint64_t, uint64_t)
#define REF_FLOAT(T)                                                                     \
    static void ref_##T(goal_op op, T *a, const T *b, size_t n) {                       \
        size_t k;                                                                        \
        for (k = 0; k < n; k++) {                                                        \
            switch (op) {                                                                \
            case GOAL_OP_MAX: a[k] = (T)fmax(a[k], b[k]); break;                         \
            case GOAL_OP_MIN: a[k] = (T)fmin(a[k], b[k]); break;                         \
            case GOAL_OP_SUM: a[k] = a[k] + b[k]; break;                                 \
            case GOAL_OP_PROD: a[k] = a[k] * b[k]; break;                                \
            default: a[k] = b[k]; break;                                                 \
            }                                                                            \
        }                                                                                \
    }
REF_FLOAT(float) REF_FLOAT(double)

static void ref_apply(goal_op op, goal_dtype t, void *a, const void *b, size_t bytes) {
    switch (t) {
    case GOAL_INT8: ref_int8_t(op, (int8_t *)a, (const int8_t *)b, bytes); break;
    case GOAL_INT16: ref_int16_t(op, (int16_t *)a, (const int16_t *)b, bytes / 2); break;
    case GOAL_INT32: ref_int32_t(op, (int32_t *)a, (const int32_t *)b, bytes / 4); break;
    case GOAL_INT64: ref_int64_t(op, (int64_t *)a, (const int64_t *)b, bytes / 8); break;
    case GOAL_UINT8: ref_uint8_t(op, (uint8_t *)a, (const uint8_t *)b, bytes); break;
    case GOAL_UINT16: ref_uint16_t(op, (uint16_t *)a, (const uint16_t *)b, bytes / 2); break;
    case GOAL_UINT32: ref_uint32_t(op, (uint32_t *)a, (const uint32_t *)b, bytes / 4); break;
    case GOAL_UINT64: ref_uint64_t(op, (uint64_t *)a, (const uint64_t *)b, bytes / 8); break;
    case GOAL_FLOAT32: ref_float(op, (float *)a, (const float *)b, bytes / 4); break;
    default: ref_double(op, (double *)a, (const double *)b, bytes / 8); break;
    }
}
/* Random bytes, with the values that break things mixed in: extremes, zero, NaN, inf. */
static void fill_special(goal_dtype t, unsigned char *p, size_t bytes) {
    size_t k, w = goal_dtype_size(t);
    for (k = 0; k < bytes; k++) p[k] = (unsigned char)rnd();
    for (k = 0; k + w <= bytes; k += w) {
        unsigned pick = rnd() % 8;
        if (t == GOAL_FLOAT32 || t == GOAL_FLOAT64) {
            double v = pick == 0 ? NAN : pick == 1 ? INFINITY : pick == 2 ? -INFINITY : pick == 3 ? 0.0 : (double)(int)(rnd() % 2001) - 1000.0;
            if (t == GOAL_FLOAT32) { float f = (float)v; memcpy(p + k, &f, 4); } else memcpy(p + k, &v, 8);
        } else if (pick == 0) memset(p + k, 0, w);
        else if (pick == 1) memset(p + k, 0xff, w);
        else if (pick == 2) { memset(p + k, 0xff, w); p[k + w - 1] = 0x7f; }
        else if (pick == 3) { memset(p + k, 0, w); p[k + w - 1] = 0x80; }
    }
}
static int same_bytes_or_nan(goal_dtype t, const unsigned char *a, const unsigned char *b, size_t bytes) {
    size_t k;
    if (t != GOAL_FLOAT32 && t != GOAL_FLOAT64) return memcmp(a, b, bytes) == 0;
    for (k = 0; k < bytes; k += goal_dtype_size(t)) {
        double x, y;
        if (t == GOAL_FLOAT32) { float f, g; memcpy(&f, a + k, 4); memcpy(&g, b + k, 4); x = f; y = g; }
        else { memcpy(&x, a + k, 8); memcpy(&y, b + k, 8); }
        if (!(x == y || (x != x && y != y))) return 0;
    }
    return 1;
}
static void test_ops(void) {
    static const goal_dtype types[] = {GOAL_INT8, GOAL_INT16, GOAL_INT32, GOAL_INT64, GOAL_UINT8, GOAL_UINT16,
                                       GOAL_UINT32, GOAL_UINT64, GOAL_FLOAT32, GOAL_FLOAT64, GOAL_FLOAT8, GOAL_FLOAT16};
    size_t ti;
    int op;
    rng_state = 42;
    for (ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (op = 0; op < GOAL_OP_COUNT; op++) {
            goal_dtype t = types[ti];
            unsigned char a[256 + 1], b[256 + 1], r[256 + 1];
            size_t bytes;
            goal_status want = goal_op_check((goal_op)op, t);
            CHECK_EQ(goal_apply((goal_op)op, t, a + 1, b + 1, 0), want);   /* zero length too */
            if (want != GOAL_OK) continue;
            for (bytes = goal_dtype_size(t); bytes <= 256; bytes *= 4) {
                fill_special(t, a + 1, bytes);   /* + 1: unaligned on purpose */
                fill_special(t, b + 1, bytes);
                {   /* the reference loop works on aligned copies */
                    uint64_t ra[32], rb[32];
                    memcpy(ra, a + 1, bytes);
                    memcpy(rb, b + 1, bytes);
                    ref_apply((goal_op)op, t, ra, rb, bytes);
                    memcpy(r + 1, ra, bytes);
                }
                CHECK_EQ(goal_apply((goal_op)op, t, a + 1, b + 1, bytes), GOAL_OK);
                if (!same_bytes_or_nan(t, a + 1, r + 1, bytes)) {
                    printf("  op %s on %s, %lu bytes differs\n", goal_op_name((goal_op)op), goal_dtype_name(t), (unsigned long)bytes);
                    CHECK(0);
                }
            }
        }
    {
        unsigned char x[8] = {0};
        CHECK_EQ(goal_apply(GOAL_OP_SUM, GOAL_INT32, x, x, 3), GOAL_ERR_SIZE);   /* not whole elements */
    }
}

/* goal_apply on many elements (whole blocks, then a remainder) is goal_apply on each element
   in turn, bit for bit: with separate buffers, with the same one twice, and with buffers
   that overlap (one element or one byte apart, either way), where the order matters. (Copy
   is memmove, not an element loop.) */
static void test_ops_blocks(void) {
    static const goal_dtype types[] = {GOAL_INT8, GOAL_INT16, GOAL_INT32, GOAL_INT64, GOAL_UINT8, GOAL_UINT16,
                                       GOAL_UINT32, GOAL_UINT64, GOAL_FLOAT32, GOAL_FLOAT64};
    size_t ti, k;
    int op, layout;
    rng_state = 7;
    for (ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (op = 0; op < GOAL_OP_USER; op++)
            for (layout = 0; layout < 6; layout++) {
                goal_dtype t = types[ti];
                size_t w = goal_dtype_size(t), bytes = 37 * w;
                static const int shift[6] = {0, 0, 1, -1, 2, -2};   /* x w, or bytes for 2 and -2 */
                unsigned char m[2][1024], *p1, *p2;
                long d = layout >= 4 ? shift[layout] / 2 : shift[layout] * (long)w;
                if (op == GOAL_OP_COPY || goal_op_check((goal_op)op, t) != GOAL_OK) continue;
                fill_special(t, m[0], sizeof m[0]);
                memcpy(m[1], m[0], sizeof m[0]);
                for (k = 0; k < 2; k++) {
                    p1 = m[k] + 64 + 1;   /* unaligned on purpose */
                    p2 = layout == 0 ? m[k] + 512 : p1 + d;
                    if (k == 0) CHECK_EQ(goal_apply((goal_op)op, t, p1, p2, bytes), GOAL_OK);
                    else for (size_t e = 0; e < bytes; e += w) CHECK_EQ(goal_apply((goal_op)op, t, p1 + e, p2 + e, w), GOAL_OK);
                }
                if (memcmp(m[0], m[1], sizeof m[0]) != 0) {
                    printf("  op %s on %s, layout %d differs from its element loop\n", goal_op_name((goal_op)op), goal_dtype_name(t), layout);
                    CHECK(0);
                }
            }
}

/* Float sum and prod of two NaNs give buf1's NaN, quieted (IEEE leaves the choice open; the
   compiler's choice would differ between builds and between blocks and the remainder). */
static void test_nan_payload(void) {
    uint32_t a[37], b[37];
    uint64_t c[37], d[37];
    size_t k;
    int op;
    for (op = GOAL_OP_SUM; op <= GOAL_OP_PROD; op++) {
        for (k = 0; k < 37; k++) {
            a[k] = 0x7F800001u + (uint32_t)k; b[k] = 0xFFC00100u + (uint32_t)k;   /* a: signalling */
            c[k] = 0x7FF0000000000001ull + k; d[k] = 0xFFF8000000000100ull + k;
        }
        CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT32, a, b, sizeof a), GOAL_OK);
        CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT64, c, d, sizeof c), GOAL_OK);
        for (k = 0; k < 37; k++) {
            CHECK(a[k] == (0x7FC00001u + (uint32_t)k));
            CHECK(c[k] == 0x7FF8000000000001ull + k);
        }
    }
}

/* Float max/min are the same bits in either argument order (-0 and +0, NaNs of other signs
   and payloads), pick +0 / -0 and the larger / smaller NaN by totalOrder, and skip a NaN
   beside a number: what makes allreduce_recdoub's op(a, b) on one rank and op(b, a) on
   the other agree. */
static void test_minmax_symmetric(void) {
    static const uint64_t bits[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x3FF0000000000000ull,
                                    0x7FF8000000000000ull, 0x7FF8000000000001ull, 0xFFF8000000000000ull,
                                    0x7FF4000000000000ull, 0xFFF0000000000000ull, 0x7FF0000000000000ull};
    enum { N = sizeof bits / sizeof bits[0] };
    size_t i, j;
    int op;
    for (op = GOAL_OP_MAX; op <= GOAL_OP_MIN; op++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++) {
                double a, b, ab, ba;
                float fa, fb, fab, fba;
                memcpy(&a, &bits[i], 8); memcpy(&b, &bits[j], 8);
                ab = a; ba = b; fa = fab = (float)a; fb = fba = (float)b;
                CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT64, &ab, &b, 8), GOAL_OK);
                CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT64, &ba, &a, 8), GOAL_OK);
                CHECK(memcmp(&ab, &ba, 8) == 0);
                CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT32, &fab, &fb, 4), GOAL_OK);
                CHECK_EQ(goal_apply((goal_op)op, GOAL_FLOAT32, &fba, &fa, 4), GOAL_OK);
                CHECK(memcmp(&fab, &fba, 4) == 0);
                if (a == a && b != b) CHECK(memcmp(&ab, &a, 8) == 0);   /* a NaN beside a number is skipped */
            }
    {
        double pz = 0.0, nz = -0.0, r = pz;
        CHECK_EQ(goal_apply(GOAL_OP_MIN, GOAL_FLOAT64, &r, &nz, 8), GOAL_OK);
        CHECK(signbit(r));                                  /* min(+0, -0) = -0 */
        r = nz;
        CHECK_EQ(goal_apply(GOAL_OP_MAX, GOAL_FLOAT64, &r, &pz, 8), GOAL_OK);
        CHECK(!signbit(r));                                 /* max(-0, +0) = +0 */
    }
}

/* ---- random DAGs over the deterministic and threaded runs -------------------------------- */
/* A random world: messages are created in one global order with unique tags, and every
   dependency points from an earlier action to a later one, so the world cannot deadlock.
   Each action owns an 8-byte region of slot 0 that only it writes; sends and execs read
   the region of an action they depend on, so the final bytes are fully determined. */
#define RW_MAXR 6
#define RW_MAXA 48
typedef struct rworld {
    int p, na[RW_MAXR];
    goal_graph *g[RW_MAXR];
    int nsrc[RW_MAXR][RW_MAXA];
    int src[RW_MAXR][RW_MAXA][RW_MAXA];   /* sources of each action */
    int irq[RW_MAXR][RW_MAXA][RW_MAXA];
    int selfsend[RW_MAXR][RW_MAXA];       /* a self-recv's send, plus one (0: none) */
} rworld;
static goal_buf region(int a) { return goal_buffer(0, 8u * (unsigned)a + 8u, 8); }   /* region 0 = input */
static void rw_dep(rworld *w, int r, int a, int b, int irq) {
    int k;
    for (k = 0; k < w->nsrc[r][a]; k++) if (w->src[r][a][k] == b) return;
    w->irq[r][a][w->nsrc[r][a]] = irq;
    w->src[r][a][w->nsrc[r][a]++] = b;
    CHECK_EQ(irq ? goal_graph_irequires(w->g[r], a, b) : goal_graph_requires(w->g[r], a, b), GOAL_OK);
}
/* A random earlier action of rank r that a reader can take data from, or -1 (the input). */
static int rw_pick(rworld *w, int r) { return w->na[r] && rnd() % 4 ? (int)(rnd() % (unsigned)w->na[r]) : -1; }
static void rw_local(rworld *w, int r) {
    int a, from = rw_pick(w, r);
    goal_buf in = from < 0 ? goal_buffer(0, 0, 8) : region(from);
    /* copy the input in, then add: exec copy with a source, or a calc/nop join */
    switch (rnd() % 3) {
    case 0: a = goal_graph_exec(w->g[r], GOAL_OP_COPY, GOAL_UINT64, region(w->na[r]), in); break;
    case 1: a = goal_graph_calc(w->g[r], rnd() % 100); break;
    default: a = goal_graph_nop(w->g[r]); break;
    }
    CHECK_EQ(a, w->na[r]);
    w->na[r]++;
    if (from >= 0) rw_dep(w, r, a, from, 0);
}
static void rw_message(rworld *w, int tag) {
    int s = (int)(rnd() % (unsigned)w->p), d = (int)(rnd() % (unsigned)w->p);
    int from = rw_pick(w, s), a, b;
    a = goal_graph_send(w->g[s], from < 0 ? goal_buffer(0, 0, 8) : region(from), d, tag);
    CHECK_EQ(a, w->na[s]);
    w->na[s]++;
    if (from >= 0) rw_dep(w, s, a, from, 0);
    b = goal_graph_recv(w->g[d], region(w->na[d]), s, tag);
    CHECK_EQ(b, w->na[d]);
    w->na[d]++;
    /* Self-messages: the recv must not wait for its own send, or neither could finish. */
    if (s == d) { rw_dep(w, d, b, a, 1); w->selfsend[d][b] = a + 1; }
}
static goal_world *rw_build(rworld *w, unsigned seed) {
    goal_world *world = NULL;
    int r, k, tag = 0;
    goal_error err;
    memset(w, 0, sizeof *w);
    rng_state = seed * 7919u + 1u;
    w->p = 1 + (int)(rnd() % RW_MAXR);
    for (r = 0; r < w->p; r++) {
        w->g[r] = th_graph(r, w->p);
    }
    for (k = 0; k < 60; k++) {
        int full = 0;
        for (r = 0; r < w->p; r++) full |= w->na[r] >= RW_MAXA - 2;
        if (full) break;
        if (rnd() % 2) rw_message(w, tag++);
        else rw_local(w, (int)(rnd() % (unsigned)w->p));
    }
    for (r = 0; r < w->p; r++)   /* extra forward dependencies */
        for (k = 0; k < w->na[r]; k++)
            if (k > 0 && rnd() % 3 == 0) {
                int j = (int)(rnd() % (unsigned)k);
                if (w->selfsend[r][k] != j + 1) rw_dep(w, r, k, j, 0);
            }
    CHECK_EQ(goal_world_create(&world, &(goal_world_desc){.nranks = w->p}, NULL), GOAL_OK);
    for (r = 0; r < w->p; r++) {
        CHECK_EQ(goal_world_add_graph(world, w->g[r], &err), GOAL_OK);
        goal_graph_destroy(w->g[r]);
    }
    return world;
}
typedef struct rtrace {
    rworld *w;
    int started[RW_MAXR][RW_MAXA], completed[RW_MAXR][RW_MAXA], order_ok;
    int clock[RW_MAXR];   /* per rank: each rank's thread writes only its own row */
} rtrace;
static void rt_event(void *user, int rank, int32_t a, int ev) {
    rtrace *t = (rtrace *)user;
    int k;
    if (ev == 0) {
        t->started[rank][a] = ++t->clock[rank];
        for (k = 0; k < t->w->nsrc[rank][a]; k++) {
            int b = t->w->src[rank][a][k];
            if (t->w->irq[rank][a][k] ? !t->started[rank][b] : !t->completed[rank][b]) t->order_ok = 0;
        }
    } else t->completed[rank][a] = ++t->clock[rank];
}
static void rw_run(goal_world *world, rworld *w, int threads, int traced, unsigned char mem[RW_MAXR][8 * RW_MAXA + 8], rtrace *t) {
    goal_slot slot[RW_MAXR];
    const goal_slot *slots[RW_MAXR];
    goal_world_run_desc d;
    goal_error err;
    int r, k;
    memset(t, 0, sizeof *t);
    t->w = traced ? w : NULL; t->order_ok = 1;
    for (r = 0; r < w->p; r++) {
        memset(mem[r], 0, 8 * RW_MAXA + 8);
        for (k = 0; k < 8; k++) mem[r][k] = (unsigned char)(r * 16 + k + 1);
        slot[r].data = mem[r]; slot[r].size = 8 * RW_MAXA + 8; slots[r] = &slot[r];
    }
    memset(&d, 0, sizeof d);
    d.world = world; d.slots = slots; d.nslots = 1; d.threads = threads;
    if (t->w) { d.trace = rt_event; d.trace_user = t; }   /* without: the executor form's loop */
    if (goal_world_run(&d, &err) != GOAL_OK) { printf("  run: %s\n", err.msg); CHECK(0); }
}
static void test_random_dags(void) {
    static unsigned char m1[RW_MAXR][8 * RW_MAXA + 8], m2[RW_MAXR][8 * RW_MAXA + 8], m3[RW_MAXR][8 * RW_MAXA + 8];
    static rworld w;
    static rtrace t1, t2, t3;
    unsigned seed, nseeds = th_full() ? 2000 : 300;
    for (seed = 0; seed < nseeds; seed++) {
        goal_world *world = rw_build(&w, seed);
        int r, a;
        rw_run(world, &w, 0, 1, m1, &t1);
        rw_run(world, &w, 1, 1, m2, &t2);
        rw_run(world, &w, seed % 2, 0, m3, &t3);   /* untraced: the executor form */
        CHECK(t1.order_ok && t2.order_ok);
        for (r = 0; r < w.p; r++) {
            CHECK(memcmp(m1[r], m2[r], sizeof m1[r]) == 0);
            CHECK(memcmp(m1[r], m3[r], sizeof m1[r]) == 0);
            for (a = 0; a < w.na[r]; a++) {   /* each exactly once: the clock counts events */
                CHECK(t1.started[r][a] > 0 && t1.completed[r][a] >= t1.started[r][a]);
                CHECK(t2.started[r][a] > 0 && t2.completed[r][a] >= t2.started[r][a]);
            }
            CHECK_EQ(t1.clock[r], 2 * w.na[r]);
            CHECK_EQ(t2.clock[r], 2 * w.na[r]);
        }
        goal_world_destroy(world);
        if (th_checks_failed) { printf("  seed %u\n", seed); break; }
    }
}

/* ---- deadlocks are reported, never hung on ------------------------------------------------ */
typedef struct stuck_log { int n, posted, rank[16], action[16]; } stuck_log;
static void on_stuck(void *user, int rank, int32_t action, int posted) {
    stuck_log *l = (stuck_log *)user;
    if (l->n < 16) { l->rank[l->n] = rank; l->action[l->n] = action; }
    l->n++;
    l->posted += posted;
}
static void check_deadlock(int threads) {
    /* Both ranks receive first and send only after: a classic deadlock. */
    goal_world *w = th_parse("num_ranks 2\nrank 0 {\nl1: recv 4b from 1\nl2: send 4b to 1\nl2 requires l1\n}\n"
                          "rank 1 {\nl1: recv 4b from 0\nl2: send 4b to 0\nl2 requires l1\n}\n");
    unsigned char m0[4], m1[4];
    goal_slot s0 = {m0, 4}, s1 = {m1, 4};
    const goal_slot *slots[2] = {&s0, &s1};
    goal_world_run_desc d;
    goal_error err;
    stuck_log log;
    memset(&log, 0, sizeof log);
    memset(&d, 0, sizeof d);
    d.world = w; d.slots = slots; d.nslots = 1; d.threads = threads;
    d.stuck = on_stuck; d.stuck_user = &log;
    CHECK_EQ(goal_world_run(&d, &err), GOAL_ERR_DEADLOCK);
    CHECK(strstr(err.msg, "deadlock") != NULL);
    CHECK(strstr(err.msg, "rank 0 l1") != NULL);
    CHECK(strstr(err.msg, "rank 1 l1") != NULL);
    CHECK_EQ(log.n, 4);        /* two recvs in flight, two sends never started */
    CHECK_EQ(log.posted, 2);
    goal_world_destroy(w);
}
static void test_deadlock(void) { check_deadlock(0); }
static void test_deadlock_threads(void) { check_deadlock(1); }

/* ---- faults: harness.h's fault-injecting transport over the in-process one ------------- */
/* Runs a ring exchange on p ranks by hand (one execution per rank, stepped round-robin),
   with rank `bad` behind a faulty transport. Returns that rank's final status. */
static int run_faulty(int p, int bad, th_faulty proto, th_counter *cnt, char *msg) {
    goal_inproc *ip;
    goal_allocator al = {th_alloc, th_free, NULL};
    goal_schedule s[8];
    goal_exec *e[8];
    th_faulty f[8];
    int32_t data[8][4];
    int r, busy = 1, result = GOAL_OK, rounds = 0;
    goal_status st[8];
    al.user = cnt;
    CHECK_EQ(goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = p, .alloc = al}, NULL), GOAL_OK);
    for (r = 0; r < p; r++) {
        goal_graph *g;
        goal_graph_desc gd;
        goal_exec_desc ed;
        goal_slot slot = {data[r], sizeof data[r]};
        goal_error err;
        int32_t a, b, c;
        memset(&gd, 0, sizeof gd);
        gd.rank = r; gd.nranks = p; gd.alloc = al;
        goal_graph_create(&g, &gd, NULL);
        a = goal_graph_send(g, goal_buffer(0, 0, 4), (r + 1) % p, 3);
        b = goal_graph_recv(g, goal_buffer(0, 4, 4), (r + p - 1) % p, 3);
        c = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 8, 4), goal_buffer(0, 4, 4));
        goal_graph_requires(g, c, b);
        goal_graph_requires(g, c, a);
        CHECK_EQ(goal_compile(g, &s[r], NULL), GOAL_OK);
        goal_graph_destroy(g);
        data[r][0] = r + 1; data[r][1] = -1; data[r][2] = 100; data[r][3] = 0;
        f[r] = proto;
        if (r != bad) { f[r].fail_post_at = f[r].fail_done_at = -1; f[r].delay = f[r].reverse = 0; }
        memset(&ed, 0, sizeof ed);
        ed.schedule = &s[r]; ed.slots = &slot; ed.nslots = 1; ed.alloc = al;
        ed.transport = th_faulty_transport(&f[r], goal_inproc_transport(ip, r));
        CHECK_EQ(goal_exec_create(&e[r], &ed, &err), GOAL_OK);
    }
    for (r = 0; r < p; r++) st[r] = goal_exec_start(e[r]);
    while (busy && rounds++ < 1000) {
        busy = 0;
        for (r = 0; r < p; r++) {
            if (st[r] == GOAL_PENDING) st[r] = goal_exec_test(e[r]);
            busy |= st[r] == GOAL_PENDING;
        }
    }
    CHECK(rounds < 1000 || bad >= 0);   /* a healthy ring never needs that many */
    result = st[bad >= 0 ? bad : 0];
    if (msg) snprintf(msg, GOAL_MSG_MAX, "%s", goal_exec_error(e[bad >= 0 ? bad : 0])->msg);
    for (r = 0; r < p; r++) {
        if (st[r] == GOAL_OK) CHECK_EQ(data[r][2], 100 + (r + p - 1) % p + 1);
        goal_exec_destroy(e[r]);
        goal_schedule_free(&s[r]);
    }
    goal_inproc_destroy(ip);
    return result;
}
static void test_faults(void) {
    th_counter cnt = {0, 0, -1, 0};
    th_faulty proto;
    char msg[GOAL_MSG_MAX];
    int p;
    memset(&proto, 0, sizeof proto);
    proto.fail_post_at = proto.fail_done_at = -1;
    for (p = 1; p <= 5; p++) {
        CHECK_EQ(run_faulty(p, -1, proto, &cnt, NULL), GOAL_OK);   /* healthy */
        proto.delay = 3;
        CHECK_EQ(run_faulty(p, 0, proto, &cnt, NULL), GOAL_OK);    /* delayed: tolerated */
        proto.delay = 0; proto.reverse = 1;
        CHECK_EQ(run_faulty(p, p - 1, proto, &cnt, NULL), GOAL_OK); /* reordered: tolerated */
        proto.reverse = 0;
        proto.fail_post_at = 1;                                    /* the recv's post fails */
        CHECK_EQ(run_faulty(p, p / 2, proto, &cnt, msg), GOAL_ERR_TRANSPORT);
        CHECK(strstr(msg, "action l2 (recv from") != NULL);
        proto.fail_post_at = -1; proto.fail_done_at = 0;           /* a completion fails */
        CHECK_EQ(run_faulty(p, 0, proto, &cnt, msg), GOAL_ERR_TRANSPORT);   /* rank 0's complete via test */
        CHECK(strstr(msg, "completion") != NULL);
        proto.fail_done_at = -1;
    }
    CHECK_EQ(cnt.allocs, cnt.frees);
}

/* ---- two-rank exchanges: many executions of one schedule ------------------------------- */
/* Rank r of 2: sends the int32 at 0 to the other rank with tag, receives one at 4 from src
   with tag rtag (GOAL_ANY for either). */
static void exchange(int r, int32_t tag, int32_t src, int32_t rtag, goal_schedule *s) {
    goal_graph *g;
    g = th_graph(r, 2);
    goal_graph_send(g, goal_buffer(0, 0, 4), 1 - r, tag);
    goal_graph_recv(g, goal_buffer(0, 4, 4), src, rtag);
    CHECK_EQ(goal_compile(g, s, NULL), GOAL_OK);
    goal_graph_destroy(g);
}
/* An execution of s for rank r on the in-process transport, over the 8 bytes at data. */
static goal_exec *exchange_exec(const goal_schedule *s, goal_inproc *ip, int r, int32_t *data, uint32_t context) {
    goal_exec *e = NULL;
    goal_exec_desc ed;
    goal_slot slot;
    slot.data = data; slot.size = 8;
    memset(&ed, 0, sizeof ed);
    ed.schedule = s; ed.transport = goal_inproc_transport(ip, r);
    ed.slots = &slot; ed.nslots = 1; ed.context = context;
    CHECK_EQ(goal_exec_create(&e, &ed, NULL), GOAL_OK);
    return e;
}

/* ---- many executions in flight on one transport ------------------------------------------- */
/* Every execution is a 2-rank exchange with wildcards (any source, any tag): only the
   context keeps the executions apart. */
static void test_many_inflight(void) {
    enum { N = 1000 };
    static goal_exec *e[2][N];
    static int32_t data[2][N][2];
    goal_schedule s[2];
    goal_inproc *ip;
    int r, k, busy = 1, rounds = 0;
    CHECK_EQ(goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 2}, NULL), GOAL_OK);
    for (r = 0; r < 2; r++) exchange(r, 5, GOAL_ANY, GOAL_ANY, &s[r]);
    for (k = 0; k < N; k++)
        for (r = 0; r < 2; r++) {
            data[r][k][0] = k * 2 + r; data[r][k][1] = -1;
            e[r][k] = exchange_exec(&s[r], ip, r, data[r][k], (uint32_t)k);
        }
    /* Start rank 0's in order and rank 1's in reverse, so posting orders disagree. */
    for (k = 0; k < N; k++) CHECK_EQ(goal_exec_start(e[0][k]), GOAL_PENDING);
    for (k = N - 1; k >= 0; k--) goal_exec_start(e[1][k]);
    while (busy && rounds++ < 100) {
        busy = 0;
        for (k = 0; k < N; k++)
            for (r = 0; r < 2; r++) {
                goal_status st = goal_exec_test(e[r][k]);
                CHECK(st == GOAL_OK || st == GOAL_PENDING);
                busy |= st == GOAL_PENDING;
            }
    }
    CHECK(!busy);
    for (k = 0; k < N; k++)
        for (r = 0; r < 2; r++) {
            CHECK_EQ(data[r][k][1], k * 2 + (1 - r));
            goal_exec_destroy(e[r][k]);
        }
    goal_schedule_free(&s[0]); goal_schedule_free(&s[1]);
    goal_inproc_destroy(ip);
}

/* ---- bounded window and Theorem 4 --------------------------------------------------------- */
/* One rank: a random DAG of execs over 8-byte regions, run unbounded, through windows, and
   after the segment transform; the bytes must agree. */
static goal_graph *local_dag(unsigned seed, int n) {
    goal_graph *g;
    int a;
    g = th_graph(0, 0);
    rng_state = seed + 99u;
    for (a = 0; a < n; a++) {
        int from = a ? (int)(rnd() % (unsigned)a) : -1;
        goal_buf src = from < 0 ? goal_buffer(0, 0, 8) : region(from);
        goal_graph_exec(g, rnd() % 2 ? GOAL_OP_COPY : GOAL_OP_SUM, GOAL_UINT64, region(a), src);
        if (from >= 0) goal_graph_requires(g, a, from);
        if (a > 1 && rnd() % 2) goal_graph_requires(g, a, (int)(rnd() % (unsigned)a));
        if (a > 1 && rnd() % 4 == 0) goal_graph_irequires(g, a, a - 1);
    }
    return g;
}
static int run_local(const goal_schedule *s, uint32_t window, unsigned char *mem, size_t size, size_t *bytes) {
    goal_exec *e;
    goal_exec_desc ed;
    goal_slot slot;
    goal_inproc *ip;
    goal_status st;
    goal_error err;
    size_t k;
    for (k = 0; k < size; k++) mem[k] = (unsigned char)(k * 7 + 1);
    goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 1}, NULL);
    slot.data = mem; slot.size = size;
    memset(&ed, 0, sizeof ed);
    ed.schedule = s; ed.transport = goal_inproc_transport(ip, 0); ed.slots = &slot; ed.nslots = 1; ed.window = window;
    st = goal_exec_create(&e, &ed, &err);
    if (st == GOAL_OK) {
        st = goal_exec_run(e);
        if (bytes) *bytes = goal_exec_memory(e);
        goal_exec_destroy(e);
    }
    goal_inproc_destroy(ip);
    return st;
}
static void test_window(void) {
    enum { N = 400 };
    static unsigned char ref[8 * N + 8], got[8 * N + 8];
    unsigned seed;
    for (seed = 0; seed < 20; seed++) {
        goal_graph *g = local_dag(seed, N), *seg;
        goal_schedule s, t;
        uint32_t w, k;
        size_t small = 0, big = 0;
        CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
        CHECK_EQ(run_local(&s, 0, ref, sizeof ref, &big), GOAL_OK);
        for (w = 1; w <= 64; w *= 4) {   /* Theorem 3: counters table, small queue */
            CHECK_EQ(run_local(&s, w, got, sizeof got, NULL), GOAL_OK);
            CHECK(memcmp(ref, got, sizeof ref) == 0);
        }
        seg = th_graph(0, 0);
        for (k = 1; k <= 16; k *= 2) {   /* Theorem 4: nops every k, window k: O(k) memory */
            CHECK_EQ(goal_schedule_segment(&s, k, seg), GOAL_OK);
            CHECK_EQ(goal_graph_count(seg), N + (N - 1) / (int)k);
            CHECK_EQ(goal_compile(seg, &t, NULL), GOAL_OK);
            CHECK_EQ(run_local(&t, 0, got, sizeof got, NULL), GOAL_OK);
            CHECK(memcmp(ref, got, sizeof ref) == 0);
            CHECK_EQ(run_local(&t, k, got, sizeof got, &small), GOAL_OK);
            CHECK(memcmp(ref, got, sizeof ref) == 0);
            if (!(small < 2048 + 16 * k)) printf("  window %u: %lu bytes\n", (unsigned)k, (unsigned long)small);
            CHECK(small < 2048 + 16 * k);   /* independent of N */
            goal_schedule_free(&t);
        }
        CHECK(big > 8 * N);
        goal_graph_destroy(seg);
        goal_schedule_free(&s);
        goal_graph_destroy(g);
    }
}
static void test_window_needs_order(void) {
    goal_graph *g;
    goal_schedule s;
    unsigned char mem[64];
    int a, b;
    g = th_graph(0, 0);
    a = goal_graph_nop(g);
    b = goal_graph_nop(g);
    goal_graph_requires(g, a, b);   /* points backwards */
    CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
    CHECK_EQ(run_local(&s, 4, mem, sizeof mem, NULL), GOAL_ERR_ARG);
    CHECK_EQ(run_local(&s, 0, mem, sizeof mem, NULL), GOAL_OK);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

/* ---- the progress thread ---------------------------------------------------------------- */
static void test_progress_thread(void) {
    enum { N = 50 };
    goal_progress *pg;
    goal_inproc *ip;
    goal_schedule s[2];
    goal_exec *e[2][N];
    int32_t data[2][N][2];
    int r, k;
    CHECK_EQ(goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 2}, NULL), GOAL_OK);
    CHECK_EQ(goal_progress_create(&pg, NULL, NULL), GOAL_OK);
    for (r = 0; r < 2; r++) {
        exchange(r, 0, 1 - r, 0, &s[r]);
        for (k = 0; k < N; k++) {
            data[r][k][0] = 1000 * r + k; data[r][k][1] = -1;
            e[r][k] = exchange_exec(&s[r], ip, r, data[r][k], (uint32_t)k);
        }
    }
    /* Hand everything to the thread; it completes them while this thread waits. */
    for (k = 0; k < N; k++)
        for (r = 0; r < 2; r++) {
            goal_status st = goal_progress_start(pg, e[r][k]);
            CHECK(st == GOAL_OK || st == GOAL_PENDING);
        }
    for (k = N - 1; k >= 0; k--)
        for (r = 0; r < 2; r++) {
            CHECK_EQ(goal_progress_wait(pg, e[r][k]), GOAL_OK);
            CHECK_EQ(data[r][k][1], 1000 * (1 - r) + k);
            goal_exec_destroy(e[r][k]);
        }
    CHECK_EQ(goal_progress_wait(pg, e[0][0]), GOAL_ERR_ARG);   /* not held any more */
    goal_progress_destroy(pg);
    goal_inproc_destroy(ip);
    goal_schedule_free(&s[0]); goal_schedule_free(&s[1]);
}

/* ---- binding, user functions, calc, reuse ------------------------------------------------- */
static int user_concat_calls;
static int user_add_sizes(void *b1, int s1, void *b2, int s2) {
    (void)b2;
    user_concat_calls++;
    ((unsigned char *)b1)[0] = (unsigned char)(s1 + s2);
    return 0;
}
static int user_fails(void *b1, int s1, void *b2, int s2) { (void)b1; (void)s1; (void)b2; (void)s2; return 7; }
static uint64_t calc_total;
static int on_calc(void *user, uint64_t cost, int cpu, int32_t action) {
    (void)user; (void)action;
    calc_total += cost * 10 + (uint64_t)cpu;
    return 0;
}
static void test_local_actions(void) {
    goal_graph *g;
    goal_schedule s;
    goal_exec *e;
    goal_exec_desc ed;
    goal_inproc *ip;
    goal_user_fn fns[2] = {user_add_sizes, user_fails};
    unsigned char mem[16] = {0}, scratch_user[4] = {0};
    goal_slot slots[2];
    goal_error err;
    int32_t u, c, x, y;
    goal_action ca;
    g = th_graph(0, 0);
    u = goal_graph_user(g, 0, goal_buffer(0, 0, 3), goal_buffer(1, 0, 4));
    memset(&ca, 0, sizeof ca);
    ca.kind = GOAL_CALC; ca.cost = 5; ca.cpu = 2;
    c = goal_graph_add(g, &ca);
    x = goal_graph_exec(g, GOAL_OP_COPY, GOAL_UINT8, goal_buffer(GOAL_SLOT_SCRATCH, 0, 1), goal_buffer(0, 0, 1));
    y = goal_graph_exec(g, GOAL_OP_SUM, GOAL_UINT8, goal_buffer(0, 8, 1), goal_buffer(GOAL_SLOT_SCRATCH, 0, 1));
    goal_graph_requires(g, x, u);
    goal_graph_requires(g, y, x);
    goal_graph_requires(g, y, c);
    CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
    CHECK_EQ(s.scratch, 1);
    goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 1}, NULL);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &s; ed.transport = goal_inproc_transport(ip, 0);
    slots[0].data = mem; slots[0].size = 8;   /* too small: the schedule touches 9 bytes */
    slots[1].data = scratch_user; slots[1].size = 4;
    ed.slots = slots; ed.nslots = 2;
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_ERR_BOUNDS);
    CHECK(strstr(err.msg, "slot 0") != NULL && strstr(err.msg, "9 bytes") != NULL);
    slots[0].size = 16;
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_ERR_NOUSERFN);   /* nothing registered */
    CHECK(strstr(goal_exec_error(e)->msg, "user function 0 is not registered") != NULL);
    goal_exec_destroy(e);
    ed.user_fns = fns; ed.nuser_fns = 2; ed.calc = on_calc;
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_OK);
    calc_total = 0; user_concat_calls = 0;
    CHECK_EQ(goal_exec_run(e), GOAL_OK);
    CHECK_EQ(mem[0], 7);             /* 3 + 4 */
    CHECK_EQ(mem[8], 7);             /* 0 + copy of mem[0] through the scratch slot */
    CHECK_EQ(calc_total, 52);
    CHECK_EQ(goal_exec_run(e), GOAL_OK);   /* persistent: run again */
    CHECK_EQ(mem[8], 14);
    CHECK_EQ(user_concat_calls, 2);
    goal_schedule_action(&s, (uint32_t)y, &ca);   /* one decoded action outside a run, on the same slots */
    CHECK_EQ(goal_exec_local(e, (uint32_t)y, &ca), GOAL_OK);
    CHECK_EQ(mem[8], 21);            /* + the scratch's 7 */
    CHECK(goal_exec_addr(e, 0, 8) == (void *)&mem[8]);
    CHECK_EQ(*(unsigned char *)goal_exec_addr(e, GOAL_SLOT_SCRATCH, 0), 7);
    CHECK(goal_exec_addr(e, 2, 0) == NULL && goal_exec_addr(NULL, 0, 0) == NULL);   /* no slot 2, no execution */
    CHECK_EQ(goal_exec_local(e, s.nactions, &ca), GOAL_ERR_ARG);   /* no action s.nactions */
    ca.buf.offset += goal_schedule_slot_size(&s, ca.buf.slot);           /* beyond its slot */
    CHECK_EQ(goal_exec_local(e, (uint32_t)y, &ca), GOAL_ERR_ARG);
    goal_schedule_action(&s, (uint32_t)y, &ca);
    ca.buf2.slot = 77;                                                    /* no such slot */
    CHECK_EQ(goal_exec_local(e, (uint32_t)y, &ca), GOAL_ERR_ARG);
    ca.kind = (goal_kind)7;
    CHECK_EQ(goal_exec_local(e, (uint32_t)y, &ca), GOAL_ERR_ARG);
    CHECK_EQ(mem[8], 21);                                                 /* none of them ran */
    ca.kind = GOAL_SEND;
    CHECK_EQ(goal_exec_local(e, (uint32_t)y, &ca), GOAL_ERR_ARG);
    goal_exec_destroy(e);
    fns[0] = user_fails;
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_OK);
    goal_schedule_action(&s, (uint32_t)u, &ca);
    CHECK_EQ(goal_exec_local(e, (uint32_t)u, &ca), GOAL_ERR_USERFN);   /* told as a run tells it */
    CHECK_EQ(goal_exec_error(e)->action, u);
    goal_exec_destroy(e);
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_ERR_USERFN);
    CHECK_EQ(goal_exec_error(e)->action, u);
    CHECK_EQ(goal_exec_test(e), GOAL_ERR_USERFN);   /* stays failed */
    goal_exec_destroy(e);
    goal_inproc_destroy(ip);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}
/* A slot the schedule names but never touches (0 bytes) may be left unbound. */
static void test_unbound_empty_slot(void) {
    goal_graph *g;
    goal_schedule s;
    goal_exec *e;
    goal_exec_desc ed;
    goal_inproc *ip;
    unsigned char byte = 0;
    goal_slot slot = {&byte, 1};
    g = th_graph(0, 0);
    goal_graph_exec(g, GOAL_OP_COPY, GOAL_UINT8, goal_buffer(2, 0, 0), goal_buffer(0, 0, 0));
    CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
    CHECK_EQ(s.nslots, 3);
    goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 1}, NULL);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &s; ed.transport = goal_inproc_transport(ip, 0); ed.slots = &slot; ed.nslots = 1;
    CHECK_EQ(goal_exec_create(&e, &ed, NULL), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_OK);
    goal_exec_destroy(e);
    goal_inproc_destroy(ip);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}
static void test_bad_calls(void) {
    goal_exec *e = NULL;
    goal_exec_desc ed;
    goal_error err;
    memset(&ed, 0, sizeof ed);
    CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_ERR_ARG);
    CHECK(e == NULL && err.msg[0] != 0);
    CHECK_EQ(goal_exec_create(NULL, &ed, NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_exec_start(NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_exec_test(NULL), GOAL_ERR_ARG);
    goal_exec_destroy(NULL);
    CHECK_EQ(goal_inproc_create(NULL, &(goal_inproc_desc){.nranks = 2}, NULL), GOAL_ERR_ARG);
    CHECK(goal_inproc_transport(NULL, 0).post == NULL);
}
/* goal_exec_set_context: the next run's messages carry the new context; not while running. */
static uint32_t seen_context;
static int post_note_context(void *user, const goal_msg *m, goal_req *req) {
    (void)req;
    seen_context = m->context;
    return *(int *)user;
}
static int test_nothing(void *user, goal_req *reqs, int n, int block) { (void)user; (void)reqs; (void)n; (void)block; return 0; }
static void test_set_context(void) {
    goal_world *w = th_parse("rank #0 { send 0,4 to 1; }\nrank #1 { recv 0,4 from 0; }");
    goal_schedule s;
    goal_exec *e = NULL;
    goal_exec_desc ed;
    unsigned char buf[4] = {0};
    goal_slot slot = {buf, sizeof buf};
    int answer = GOAL_OK;
    goal_world_schedule(w, 0, &s);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &s; ed.slots = &slot; ed.nslots = 1; ed.context = 3;
    ed.transport.user = &answer; ed.transport.post = post_note_context; ed.transport.test = test_nothing;
    CHECK_EQ(goal_exec_create(&e, &ed, NULL), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_OK);
    CHECK_EQ(seen_context, 3);
    CHECK_EQ(goal_exec_set_context(e, 8), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_OK);
    CHECK_EQ(seen_context, 8);
    answer = GOAL_PENDING;
    CHECK_EQ(goal_exec_start(e), GOAL_PENDING);
    CHECK_EQ(goal_exec_set_context(e, 9), GOAL_ERR_STATE);
    CHECK_EQ(goal_exec_set_context(NULL, 9), GOAL_ERR_ARG);
    goal_exec_destroy(e);
    goal_world_destroy(w);
}
/* goal_exec_bind between runs: the next run reads and writes the new buffers (the executor
   form follows them), in a new context too; the old buffers stay untouched. */
static void test_rebind(void) {
    goal_schedule s[2];
    goal_inproc *ip;
    goal_exec *e[2];
    int32_t old[2][2], now[2][2];
    int r, round, busy, polls;
    CHECK_EQ(goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 2}, NULL), GOAL_OK);
    for (r = 0; r < 2; r++) {
        exchange(r, 5, 1 - r, 5, &s[r]);
        old[r][0] = 10 + r; old[r][1] = -1;
        now[r][0] = 20 + r; now[r][1] = -1;
        e[r] = exchange_exec(&s[r], ip, r, old[r], 1);
    }
    for (round = 0; round < 3; round++) {
        if (round) {   /* rounds 1 and 2: the new buffers; round 2 binds the same ones again */
            for (r = 0; r < 2; r++) {
                goal_slot slot;
                slot.data = now[r]; slot.size = 8;
                CHECK_EQ(goal_exec_bind(e[r], &slot, 1), GOAL_OK);
                CHECK_EQ(goal_exec_set_context(e[r], 2 + (uint32_t)round), GOAL_OK);
                now[r][0] += 100; now[r][1] = -1;
            }
        }
        for (r = 0; r < 2; r++) CHECK(goal_exec_start(e[r]) >= 0);
        for (busy = 1, polls = 0; busy && polls++ < 100;) {
            busy = 0;
            for (r = 0; r < 2; r++) {
                goal_status st = goal_exec_test(e[r]);
                CHECK(st >= 0);
                busy |= st == GOAL_PENDING;
            }
        }
        CHECK(!busy);
        for (r = 0; r < 2; r++) CHECK_EQ((round ? now : old)[r][1], (round ? now : old)[1 - r][0]);
    }
    for (r = 0; r < 2; r++) {
        CHECK_EQ(old[r][0], 10 + r);
        CHECK_EQ(old[r][1], 10 + (1 - r));
        CHECK_EQ(now[r][1], 220 + (1 - r));
        goal_exec_destroy(e[r]);
        goal_schedule_free(&s[r]);
    }
    goal_inproc_destroy(ip);
}
/* Out of memory at every allocation: an error, and nothing leaks. */
typedef struct world_slots { goal_world *w; const goal_slot *slots[3]; } world_slots;
static int run_with(goal_allocator a, void *user) {
    world_slots *ws = (world_slots *)user;
    goal_world_run_desc d;
    goal_error err;
    goal_status st;
    memset(&d, 0, sizeof d);
    d.world = ws->w; d.slots = ws->slots; d.nslots = 1; d.alloc = a;
    st = goal_world_run(&d, &err);
    CHECK(st == GOAL_OK || st == GOAL_ERR_NOMEM);
    return st == GOAL_OK;
}
static void test_alloc_failures(void) {
    unsigned char mem[3][505];
    goal_slot slot[3];
    world_slots ws;
    int r;
    ws.w = th_parse(example2);
    for (r = 0; r < 3; r++) { slot[r].data = mem[r]; slot[r].size = 505; ws.slots[r] = &slot[r]; }
    CHECK(th_alloc_failures(200, run_with, &ws) < 200);
    goal_world_destroy(ws.w);
}
/* One schedule, several executions at once, and a restart after a failure. */
static void test_shared_schedule(void) {
    goal_world *w = th_parse(example2);
    goal_schedule s[3];
    goal_inproc *ip;
    goal_exec *e[2][3];
    unsigned char mem[2][3][505];
    int r, k, busy = 1;
    goal_inproc_create(&ip, &(goal_inproc_desc){.nranks = 3}, NULL);
    for (r = 0; r < 3; r++) goal_world_schedule(w, r, &s[r]);
    for (k = 0; k < 2; k++)
        for (r = 0; r < 3; r++) {
            goal_exec_desc ed;
            goal_slot slot;
            memset(mem[k][r], k * 10 + r, 505);
            slot.data = mem[k][r]; slot.size = 505;
            memset(&ed, 0, sizeof ed);
            ed.schedule = &s[r]; ed.transport = goal_inproc_transport(ip, r);
            ed.slots = &slot; ed.nslots = 1; ed.context = (uint32_t)k;
            CHECK_EQ(goal_exec_create(&e[k][r], &ed, NULL), GOAL_OK);
            goal_exec_start(e[k][r]);
        }
    CHECK_EQ(goal_exec_start(e[0][0]), GOAL_ERR_STATE);   /* already running */
    while (busy) {
        busy = 0;
        for (k = 0; k < 2; k++)
            for (r = 0; r < 3; r++) busy |= goal_exec_test(e[k][r]) == GOAL_PENDING;
    }
    for (k = 0; k < 2; k++) {
        CHECK_EQ(mem[k][0][501], (unsigned char)(k * 10 + k * 10 + 1));
        CHECK_EQ(mem[k][0][502], (unsigned char)(k * 10 + k * 10 + 2));
        for (r = 0; r < 3; r++) goal_exec_destroy(e[k][r]);
    }
    goal_inproc_destroy(ip);
    goal_world_destroy(w);
}

int main(void) {
    RUN(test_example2);
    RUN(test_example2_threads);
    RUN(test_ops);
    RUN(test_ops_blocks);
    RUN(test_nan_payload);
    RUN(test_minmax_symmetric);
    RUN(test_random_dags);
    RUN(test_deadlock);
    RUN(test_deadlock_threads);
    RUN(test_faults);
    RUN(test_many_inflight);
    RUN(test_window);
    RUN(test_window_needs_order);
    RUN(test_progress_thread);
    RUN(test_local_actions);
    RUN(test_unbound_empty_slot);
    RUN(test_set_context);
    RUN(test_rebind);
    RUN(test_bad_calls);
    RUN(test_alloc_failures);
    RUN(test_shared_schedule);
    return th_done();
}
