/* test_lang.c - goal.h: the builder, op x type, compiler, binary schedule, loader, worlds,
   and allocation failure at every allocation. The text reader and writers: test_text.c. */
#define GOAL_IMPLEMENTATION
#include "goal.h"
#include "harness.h"

/* ---- helpers --------------------------------------------------------------------------- */
static int contains(const char *s, const char *part) { return s && strstr(s, part) != NULL; }

/* The paper's Example 2, rank 0, built by calls (Example 3). */
static goal_graph *example2_rank0(void) {
    goal_graph *g = th_graph(0, 3);
    int32_t r1 = goal_graph_recv(g, goal_buffer(0, 503, 1), 1, 0);
    int32_t r2 = goal_graph_recv(g, goal_buffer(0, 504, 1), 2, 0);
    int32_t e1 = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT8, goal_buffer(0, 501, 1), goal_buffer(0, 503, 1));
    int32_t e2 = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT8, goal_buffer(0, 502, 1), goal_buffer(0, 504, 1));
    CHECK_EQ(goal_graph_label(g, r1, "r1"), GOAL_OK); CHECK_EQ(goal_graph_label(g, r2, "r2"), GOAL_OK);
    CHECK_EQ(goal_graph_label(g, e1, "e1"), GOAL_OK); CHECK_EQ(goal_graph_label(g, e2, "e2"), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, e1, r1), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, e2, r2), GOAL_OK);
    return g;
}
/* Every kind, flag and width: tags, any-source, cpu/nic, slots, scratch, wide sizes and
   offsets, user functions, calc, nop, irequires, and labels that need a table. */
static goal_graph *everything(void) {
    goal_graph *g = th_graph(2, 5);
    goal_action a;
    int32_t s = goal_graph_send(g, goal_buffer(3, 1ull << 40, 16), 4, 77);
    int32_t r = goal_graph_recv(g, goal_buffer(GOAL_SLOT_SCRATCH, 8, 1ull << 33), GOAL_ANY, GOAL_ANY);
    int32_t x = goal_graph_exec(g, GOAL_OP_MAX, GOAL_FLOAT64, goal_buffer(0, 0, 64), goal_buffer(GOAL_SLOT_SCRATCH, 64, 64));
    int32_t u = goal_graph_user(g, 123456, goal_buffer(1, 4, 12), goal_buffer(2, 0, 7));
    int32_t c = goal_graph_calc(g, 5000000000ull);
    int32_t n = goal_graph_nop(g);
    memset(&a, 0, sizeof a);
    a.kind = GOAL_SEND; a.peer = 0; a.cpu = 3; a.nic = 250; a.buf = goal_buffer(0, 0, 0);
    CHECK_EQ(goal_graph_add(g, &a), 6);
    memset(&a, 0, sizeof a);
    a.kind = GOAL_CALC; a.cost = 9; a.cpu = 2;
    CHECK_EQ(goal_graph_add(g, &a), 7);
    CHECK_EQ(goal_graph_label(g, s, "first"), GOAL_OK);
    CHECK_EQ(goal_graph_label(g, c, "l2"), GOAL_OK);      /* another action's default name */
    CHECK_EQ(goal_graph_requires(g, r, s), GOAL_OK);
    CHECK_EQ(goal_graph_irequires(g, x, s), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, x, r), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, u, x), GOAL_OK);
    CHECK_EQ(goal_graph_irequires(g, n, u), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, c, n), GOAL_OK);
    return g;
}
/* A fan: action 0 releases k actions, and one action waits for k: escaped counts. */
static goal_graph *fan(uint32_t k) {
    goal_graph *g = th_graph(0, 2);
    int32_t root = goal_graph_nop(g), sink_id, i;
    for (i = 0; i < (int32_t)k; i++) CHECK_EQ(goal_graph_requires(g, goal_graph_calc(g, (uint64_t)i), root), GOAL_OK);
    sink_id = goal_graph_send(g, goal_buffer(0, 0, 4), 1, 0);
    for (i = 1; i <= (int32_t)k; i++) CHECK_EQ(goal_graph_requires(g, sink_id, i), GOAL_OK);
    return g;
}
static void compile_ok(const goal_graph *g, goal_schedule *s) {
    goal_error err;
    goal_status st = goal_compile(g, s, &err);
    CHECK_EQ(st, GOAL_OK);
    if (st != GOAL_OK) printf("  compile: %s\n", err.msg);
}
/* Loads b, rebuilds a graph from it and compiles that: the same bytes come back. */
static int reencodes(const goal_schedule *s) {
    goal_graph *g = th_graph(0, 1);
    goal_schedule t;
    int same;
    if (goal_schedule_to_graph(s, g) != GOAL_OK || goal_compile(g, &t, NULL) != GOAL_OK) { goal_graph_destroy(g); return 0; }
    same = t.size == s->size && memcmp(t.bytes, s->bytes, s->size) == 0;
    goal_schedule_free(&t);
    goal_graph_destroy(g);
    return same;
}

/* ---- the builder ----------------------------------------------------------------------- */
/* One failing call on a graph holding one send: it returns want, adds nothing, and is the
   graph's first error, with msg in its message. */
#define FAILS(call, want, msg) do {                                                        \
    goal_graph *g_ = th_graph(1, 4);                                                          \
    goal_graph *g = g_;                                                                    \
    int32_t s0 = goal_graph_send(g, goal_buffer(0, 0, 8), 2, 0);                           \
    long r_;                                                                               \
    (void)s0;                                                                              \
    r_ = (long)(call);                                                                     \
    CHECK_EQ(r_, want);                                                                    \
    CHECK_EQ(goal_graph_count(g_), 1);                                                     \
    CHECK_EQ(g_->ne, 0);                                                                   \
    CHECK_EQ(goal_graph_status(g_), want);                                                 \
    if (!contains(goal_graph_message(g_), msg)) CHECK_STR(goal_graph_message(g_), msg);    \
    goal_graph_destroy(g_);                                                                \
} while (0)

static void test_builder_errors(void) {
    goal_action a;
    FAILS(goal_graph_send(g, goal_buffer(0, 0, 1), 4, 0), GOAL_ERR_PEER, "rank 1: send: peer 4 is out of range (4 ranks)");
    FAILS(goal_graph_recv(g, goal_buffer(0, 0, 1), -2, 0), GOAL_ERR_PEER, "recv: peer -2 is out of range");
    FAILS(goal_graph_send(g, goal_buffer(0, 0, 1), GOAL_ANY, 0), GOAL_ERR_PEER, "send: a send needs a peer");
    FAILS(goal_graph_send(g, goal_buffer(0, 0, 1), 0, -2), GOAL_ERR_ARG, "send: tag -2 is negative");
    FAILS(goal_graph_send(g, goal_buffer(0, GOAL_SIZE_MAX, 1), 0, 0), GOAL_ERR_SIZE, "send: offset + size overflows");
    FAILS(goal_graph_recv(g, goal_buffer(0, 0, GOAL_SIZE_MAX + 1), 0, 0), GOAL_ERR_SIZE, "recv: offset + size overflows");
    FAILS(goal_graph_send(g, goal_buffer(0, UINT64_MAX, UINT64_MAX), 0, 0), GOAL_ERR_SIZE, "overflows");
    FAILS(goal_graph_send(g, goal_buffer(0x10000, 0, 1), 0, 0), GOAL_ERR_ARG, "send: slot 65536 does not exist (0..65534 or scratch)");
    FAILS(goal_graph_exec(g, (goal_op)99, GOAL_INT32, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_OP, "unknown operation 99");
    FAILS(goal_graph_exec(g, GOAL_OP_USER, GOAL_INT32, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_OP, "goal_graph_user");
    FAILS(goal_graph_exec(g, GOAL_OP_SUM, (goal_dtype)0x05, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_TYPE, "unknown datatype 0x5");
    FAILS(goal_graph_exec(g, GOAL_OP_SUM, (goal_dtype)0x30, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_TYPE, "unknown datatype 0x30");
    FAILS(goal_graph_exec(g, GOAL_OP_SUM, GOAL_FLOAT8, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_TYPE,
          "Float8 is not supported: Float is 32 or 64 bits");
    FAILS(goal_graph_exec(g, GOAL_OP_MAX, GOAL_FLOAT16, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_TYPE,
          "Float16 is not supported: Float is 32 or 64 bits");
    FAILS(goal_graph_exec(g, GOAL_OP_BAND, GOAL_FLOAT32, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4)), GOAL_ERR_OP,
          "band is not defined on Float32 (bitwise and logical ops take Int or UInt)");
    FAILS(goal_graph_exec(g, GOAL_OP_LXOR, GOAL_FLOAT64, goal_buffer(0, 0, 8), goal_buffer(0, 8, 8)), GOAL_ERR_OP, "lxor is not defined on Float64");
    FAILS(goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 8), goal_buffer(0, 8, 4)), GOAL_ERR_SIZE,
          "exec sumInt32: both buffers must hold the same number of elements");
    FAILS(goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 6), goal_buffer(0, 8, 6)), GOAL_ERR_SIZE,
          "exec sumInt32: 6 bytes is not a whole number of 4-byte elements");
    FAILS(goal_graph_user(g, 1, goal_buffer(0, 0, 1), goal_buffer(0x10000, 0, 1)), GOAL_ERR_ARG, "exec buffer 2: slot 65536");
    FAILS(goal_graph_requires(g, s0, 1), GOAL_ERR_ACTION, "requires: action 1 does not exist (1 actions)");
    FAILS(goal_graph_irequires(g, 7, s0), GOAL_ERR_ACTION, "irequires: action 7 does not exist");
    FAILS(goal_graph_requires(g, s0, -100), GOAL_ERR_ACTION, "requires: action -100 does not exist");
    FAILS(goal_graph_requires(g, s0, s0), GOAL_ERR_SELFDEP, "requires: action 0 cannot depend on itself");
    FAILS(goal_graph_irequires(g, s0, s0), GOAL_ERR_SELFDEP, "irequires: action 0 cannot depend on itself");
    FAILS(goal_graph_label(g, 3, "x"), GOAL_ERR_ACTION, "label: action 3 does not exist");
    FAILS(goal_graph_label(g, s0, "1x"), GOAL_ERR_ARG, "label '1x': a label starts with a letter");
    FAILS(goal_graph_label(g, s0, ""), GOAL_ERR_ARG, "a label cannot be empty");
    FAILS(goal_graph_label(g, s0, "a-b"), GOAL_ERR_ARG, "a label holds only letters, digits and '_'");
    FAILS(goal_graph_label(g, s0, "send"), GOAL_ERR_ARG, "a keyword cannot be a label");
    FAILS(goal_graph_label(g, s0, "a234567890123456789012345678901234567890123456789012345678901234"), GOAL_ERR_ARG,
          "a label is at most 63 characters");
    memset(&a, 0, sizeof a);
    a.kind = GOAL_CALC; a.nic = 1;
    FAILS(goal_graph_add(g, &a), GOAL_ERR_ARG, "calc takes a cpu, not a nic");
    a.kind = GOAL_NOP; a.nic = 0; a.cpu = 1;
    FAILS(goal_graph_add(g, &a), GOAL_ERR_ARG, "nop takes no cpu or nic");
    a.kind = GOAL_EXEC; a.op = GOAL_OP_COPY; a.dtype = GOAL_UINT8;
    FAILS(goal_graph_add(g, &a), GOAL_ERR_ARG, "exec takes no cpu or nic");
    a.kind = (goal_kind)7; a.cpu = 0;
    FAILS(goal_graph_add(g, &a), GOAL_ERR_ARG, "unknown action kind 7");
}

static void test_builder_labels_and_null(void) {
    goal_graph *g = th_graph(0, 2), *none = NULL;
    goal_graph_desc d;
    goal_error err;
    int32_t a = goal_graph_nop(g), b = goal_graph_nop(g);
    goal_action out;
    memset(&out, 0, sizeof out);   /* goal_graph_add(NULL, &out) must not read it; gcc -O1 cannot tell */
    CHECK_EQ(goal_graph_label(g, a, "x"), GOAL_OK);
    CHECK_EQ(goal_graph_label(g, b, "x"), GOAL_ERR_DUPLABEL);
    CHECK_STR(goal_graph_message(g), "rank 0: label 'x' is already defined");
    CHECK_EQ(goal_graph_label(g, a, "y"), GOAL_ERR_DUPLABEL);         /* a second error is returned, not kept */
    CHECK_STR(goal_graph_message(g), "rank 0: label 'x' is already defined");
    CHECK_EQ(goal_graph_label(g, b, "y"), GOAL_OK);                   /* the failed calls changed nothing */
    CHECK_EQ(goal_graph_status(NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_add(NULL, &out), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_add(g, NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_exec(NULL, GOAL_OP_SUM, GOAL_INT8, goal_buffer(0, 0, 1), goal_buffer(0, 1, 1)), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_requires(NULL, 0, 1), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_label(g, a, NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_graph_get(g, 2, &out), GOAL_ERR_ACTION);
    CHECK_EQ(goal_graph_get(g, -1, &out), GOAL_ERR_ACTION);
    CHECK_EQ(goal_graph_create(NULL, NULL, NULL), GOAL_ERR_ARG);
    memset(&d, 0, sizeof d);
    d.rank = 2; d.nranks = 2;
    CHECK_EQ(goal_graph_create(&none, &d, &err), GOAL_ERR_RANK);
    CHECK(none == NULL);
    CHECK_STR(err.msg, "rank 2 of 2 ranks (0 <= rank < nranks)");
    CHECK_EQ(err.rank, 2);
    d.rank = -1; d.nranks = 0;
    CHECK_EQ(goal_graph_create(&none, &d, NULL), GOAL_ERR_RANK);
    CHECK_EQ(goal_graph_reset(g, 0, 0), GOAL_ERR_RANK);
    CHECK_EQ(goal_graph_reset(g, 3, 4), GOAL_OK);
    CHECK_EQ(goal_graph_count(g), 0);
    CHECK_EQ(goal_graph_status(g), GOAL_OK);                          /* reset clears the first error */
    CHECK_EQ(goal_graph_rank(g), 3); CHECK_EQ(goal_graph_nranks(g), 4);
    CHECK_EQ(goal_graph_nop(g), 0);
    CHECK_EQ(goal_graph_label(g, 0, "x"), GOAL_OK);                   /* labels were forgotten */
    goal_graph_destroy(g);
    goal_graph_destroy(NULL);
}

static void test_builder_defaults_and_get(void) {
    goal_graph *g = NULL;
    goal_action a;
    CHECK_EQ(goal_graph_create(&g, NULL, NULL), GOAL_OK);                   /* rank 0 of 1 */
    CHECK_EQ(goal_graph_rank(g), 0); CHECK_EQ(goal_graph_nranks(g), 1);
    CHECK_EQ(goal_graph_send(g, goal_buffer(0, 0, 1), 1, 0), GOAL_ERR_PEER);
    goal_graph_destroy(g);
    g = everything();
    CHECK_EQ(goal_graph_status(g), GOAL_OK);
    CHECK_EQ(goal_graph_count(g), 8);
    CHECK_EQ(goal_graph_get(g, 0, &a), GOAL_OK);
    CHECK_EQ(a.kind, GOAL_SEND); CHECK_EQ(a.peer, 4); CHECK_EQ(a.tag, 77);
    CHECK_EQ(a.buf.slot, 3); CHECK(a.buf.offset == 1ull << 40); CHECK_EQ(a.buf.size, 16);
    CHECK_EQ(goal_graph_get(g, 1, &a), GOAL_OK);
    CHECK_EQ(a.kind, GOAL_RECV); CHECK_EQ(a.peer, -1); CHECK_EQ(a.tag, -1);
    CHECK_EQ(a.buf.slot, GOAL_SLOT_SCRATCH); CHECK(a.buf.size == 1ull << 33);
    CHECK_EQ(goal_graph_get(g, 3, &a), GOAL_OK);
    CHECK_EQ(a.kind, GOAL_EXEC); CHECK_EQ(a.op, GOAL_OP_USER); CHECK_EQ(a.fn, 123456);
    CHECK_EQ(a.buf2.slot, 2); CHECK_EQ(a.buf2.size, 7);
    CHECK_EQ(goal_graph_get(g, 4, &a), GOAL_OK);
    CHECK(a.kind == GOAL_CALC && a.cost == 5000000000ull);
    CHECK_EQ(goal_graph_get(g, 6, &a), GOAL_OK);
    CHECK(a.kind == GOAL_SEND && a.cpu == 3 && a.nic == 250 && a.buf.size == 0);
    goal_graph_destroy(g);
}

static void test_sticky_first_error(void) {
    goal_graph *g = th_graph(0, 2);
    goal_schedule s;
    goal_error err;
    int32_t bad = goal_graph_send(g, goal_buffer(0, 0, 1), 9, 0);
    int32_t ok = goal_graph_nop(g);
    CHECK_EQ(bad, GOAL_ERR_PEER);
    CHECK_EQ(ok, 0);                                                  /* later calls still work */
    /* a negative id is passed on as the status of the call that made it */
    CHECK_EQ(goal_graph_requires(g, bad, ok), GOAL_ERR_PEER);
    CHECK_EQ(goal_graph_irequires(g, ok, bad), GOAL_ERR_PEER);
    CHECK_EQ(goal_graph_label(g, bad, "x"), GOAL_ERR_PEER);
    CHECK_EQ(goal_graph_requires(g, ok, 5), GOAL_ERR_ACTION);         /* returned, first error kept */
    CHECK_EQ(goal_graph_status(g), GOAL_ERR_PEER);
    CHECK_EQ(goal_compile(g, &s, &err), GOAL_ERR_PEER);
    CHECK_EQ(err.status, GOAL_ERR_PEER);
    CHECK_STR(err.msg, "rank 0: send: peer 9 is out of range (2 ranks)");
    CHECK(s.bytes == NULL && s.size == 0);
    CHECK_EQ(goal_compile(g, NULL, &err), GOAL_ERR_ARG);
    CHECK_EQ(goal_compile(NULL, &s, NULL), GOAL_ERR_ARG);
    goal_graph_destroy(g);
}

static void test_dependencies(void) {
    goal_graph *g = th_graph(0, 1);
    goal_schedule s;
    const uint32_t *d;
    int32_t a = goal_graph_nop(g), b = goal_graph_nop(g), c = goal_graph_nop(g);
    CHECK_EQ(goal_graph_requires(g, b, a), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, b, a), GOAL_OK);                  /* repeated: accepted, kept once */
    CHECK_EQ(goal_graph_requires(g, c, a), GOAL_OK);
    CHECK_EQ(goal_graph_irequires(g, c, a), GOAL_OK);                 /* both kinds from a to c */
    CHECK_EQ(goal_graph_irequires(g, b, a), GOAL_OK);
    CHECK_EQ(goal_graph_irequires(g, b, a), GOAL_OK);
    compile_ok(g, &s);
    CHECK_EQ(s.nactions, 3); CHECK_EQ(s.nedges, 4); CHECK_EQ(s.nindep, 1);
    CHECK_EQ(s.indep[0], 0);
    /* a's dependents: irequires first (c then b, in the order added), then requires (b, c) */
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 4);
    CHECK_EQ(d[0], 2u | 0x80000000u); CHECK_EQ(d[1], 1u | 0x80000000u);
    CHECK_EQ(d[2], 1); CHECK_EQ(d[3], 2);
    CHECK_EQ(goal_schedule_nsrc(&s, 1), 2); CHECK_EQ(goal_schedule_nsrc(&s, 2), 2);
    CHECK_EQ(goal_schedule_nsrc(&s, 0), 0);
    CHECK_EQ(goal_schedule_deps(&s, 1, NULL), 0);
    goal_schedule_free(&s);
    goal_schedule_free(&s);                                           /* safe twice */
    goal_graph_destroy(g);
}

static void test_cycle(void) {
    goal_graph *g = th_graph(1, 2);
    goal_schedule s;
    goal_error err;
    int32_t a = goal_graph_nop(g), b = goal_graph_nop(g), c = goal_graph_nop(g), x = goal_graph_nop(g);
    CHECK_EQ(goal_graph_label(g, b, "middle"), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, b, a), GOAL_OK);
    CHECK_EQ(goal_graph_requires(g, c, b), GOAL_OK);
    CHECK_EQ(goal_graph_irequires(g, a, c), GOAL_OK);                 /* irequires edges close cycles too */
    CHECK_EQ(goal_graph_requires(g, a, x), GOAL_OK);
    CHECK_EQ(goal_compile(g, &s, &err), GOAL_ERR_CYCLE);
    CHECK_EQ(err.rank, 1);
    CHECK(err.action >= 0 && err.action <= 2);
    CHECK(contains(err.msg, "rank 1: dependency cycle: "));
    CHECK(contains(err.msg, "middle"));                               /* names a label on the cycle */
    CHECK(!contains(err.msg, "l4"));                                  /* x is not on it */
    CHECK(s.bytes == NULL);
    goal_graph_destroy(g);
}

/* ---- op x type, every pair ----------------------------------------------------------- */
static int expected_ok(goal_op op, unsigned t) {
    unsigned cls = t >> 4, lg = (t & 15u) ^ 2u;   /* log2 width, bit 1 flipped (goal_dtype) */
    int valid_type = lg <= 3 && (cls <= 1 || (cls == 2 && lg >= 2));
    if ((unsigned)op >= GOAL_OP_USER || !valid_type) return 0;
    return cls != 2 || !(op >= GOAL_OP_LAND && op <= GOAL_OP_BXOR);
}
static void test_op_type_matrix(void) {
    static const unsigned types[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23,
                                     0x04, 0x14, 0x24, 0x30, 0xFF};
    int op, k, accepted = 0;
    for (op = 0; op <= GOAL_OP_COUNT + 1; op++)
        for (k = 0; k < (int)(sizeof types / sizeof types[0]); k++) {
            goal_dtype t = (goal_dtype)types[k];
            size_t es = goal_dtype_size(t) ? goal_dtype_size(t) : 1;
            goal_graph *g = th_graph(0, 1);
            int want = expected_ok((goal_op)op, types[k]);
            goal_status chk = goal_op_check((goal_op)op, t);
            int32_t id;
            CHECK_EQ(chk == GOAL_OK, want);
            if (op != GOAL_OP_USER) {
                id = goal_graph_exec(g, (goal_op)op, t, goal_buffer(0, 0, 2 * es), goal_buffer(1, 0, 2 * es));
                CHECK_EQ(id >= 0, want);
                if (!want) {
                    CHECK_EQ(id, chk == GOAL_ERR_TYPE || ((goal_op)op < GOAL_OP_USER && !goal_dtype_size(t)) ? GOAL_ERR_TYPE : GOAL_ERR_OP);
                    CHECK(goal_graph_message(g)[0] != 0);
                } else {
                    goal_schedule s;
                    goal_action a;
                    accepted++;
                    compile_ok(g, &s);
                    goal_schedule_action(&s, 0, &a);
                    CHECK_EQ(a.op, op); CHECK_EQ(a.dtype, t); CHECK_EQ(a.buf2.slot, 1);
                    goal_schedule_free(&s);
                }
            }
            goal_graph_destroy(g);
        }
    /* 5 ops on 10 types + 6 ops on 8 types */
    CHECK_EQ(accepted, 5 * 10 + 6 * 8);
    CHECK_STR(goal_op_name(GOAL_OP_BXOR), "bxor"); CHECK_STR(goal_op_name(GOAL_OP_USER), "user");
    CHECK(goal_op_name(GOAL_OP_COUNT) == NULL);
    CHECK_STR(goal_dtype_name(GOAL_UINT16), "UInt16"); CHECK_STR(goal_dtype_name(GOAL_FLOAT8), "Float8");
    CHECK(goal_dtype_name((goal_dtype)0x04) == NULL);
    CHECK_EQ(goal_dtype_size(GOAL_INT64), 8); CHECK_EQ(goal_dtype_size((goal_dtype)0x30), 0);
    CHECK_STR(goal_strerror(GOAL_ERR_CYCLE), "dependency cycle");
    CHECK_STR(goal_strerror(-999), "unknown status");
    CHECK_STR(goal_version(), GOAL_VERSION_STRING);
}

/* ---- compile, load, the binary format ---------------------------------------------------- */
static void test_example2_binary(void) {
    goal_graph *g = example2_rank0();
    goal_schedule s, t;
    goal_action a;
    const uint32_t *d;
    char nb[GOAL_LABEL_MAX];
    compile_ok(g, &s);
    CHECK_EQ(s.rank, 0); CHECK_EQ(s.nranks, 3);
    CHECK_EQ(s.nactions, 4); CHECK_EQ(s.nedges, 2); CHECK_EQ(s.nindep, 2);
    CHECK_EQ(s.indep[0], 0); CHECK_EQ(s.indep[1], 1);
    CHECK_EQ(s.nslots, 1); CHECK_EQ(goal_schedule_slot_size(&s, 0), 505);
    CHECK_EQ(goal_schedule_slot_size(&s, 1), 0); CHECK_EQ(goal_schedule_slot_size(&s, GOAL_SLOT_SCRATCH), 0);
    CHECK(memcmp(s.bytes, "GOAL", 4) == 0);
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 1); CHECK_EQ(d[0], 2);
    CHECK_EQ(goal_schedule_deps(&s, 1, &d), 1); CHECK_EQ(d[0], 3);
    goal_schedule_action(&s, 2, &a);
    CHECK(a.kind == GOAL_EXEC && a.op == GOAL_OP_SUM && a.dtype == GOAL_INT8);
    CHECK(a.buf.offset == 501 && a.buf.size == 1 && a.buf2.offset == 503 && a.buf2.size == 1);
    CHECK_STR(goal_schedule_label(&s, 0, nb), "r1"); CHECK_STR(goal_schedule_label(&s, 3, nb), "e2");
    /* a simple recv with one dependent: 8 record + 4 dependent + 8 parameter bytes */
    CHECK_EQ(goal_schedule_load(&t, s.bytes, s.size, NULL, NULL), GOAL_OK);
    CHECK(t.bytes == s.bytes && t.owned_ == NULL);                    /* aligned: read in place */
    CHECK(reencodes(&t));
    goal_schedule_free(&t);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

static void test_roundtrips(void) {
    goal_graph *gs[4];
    int k;
    gs[0] = example2_rank0(); gs[1] = everything(); gs[2] = fan(5000); gs[3] = th_graph(0, 1);
    for (k = 0; k < 4; k++) {
        goal_schedule s, t, u;
        goal_error err;
        uint8_t *odd;
        compile_ok(gs[k], &s);
        odd = (uint8_t *)malloc(s.size + 1);
        CHECK_EQ(goal_schedule_load(&t, s.bytes, s.size, NULL, &err), GOAL_OK);
        CHECK_EQ(t.size, s.size);
        CHECK(memcmp(t.bytes, s.bytes, s.size) == 0);
        CHECK(reencodes(&t));
        memcpy(odd + 1, s.bytes, s.size);                             /* unaligned: copied */
        CHECK_EQ(goal_schedule_load(&u, odd + 1, s.size, NULL, &err), GOAL_OK);
        CHECK(u.owned_ != NULL && u.bytes != odd + 1);
        CHECK(memcmp(u.bytes, s.bytes, s.size) == 0);
        CHECK_EQ(u.nactions, s.nactions); CHECK_EQ(u.nedges, s.nedges);
        goal_schedule_free(&u);
        goal_schedule_free(&t);
        goal_schedule_free(&s);
        free(odd);
        goal_graph_destroy(gs[k]);
    }
}

static void test_escaped_counts(void) {
    goal_graph *g = fan(5000);
    goal_schedule s;
    const uint32_t *d;
    compile_ok(g, &s);
    CHECK_EQ(s.nactions, 5002); CHECK_EQ(s.nedges, 10000);
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 5000);
    CHECK_EQ(d[4999], 5000);
    CHECK_EQ(goal_schedule_nsrc(&s, 5001), 5000);
    CHECK_EQ(goal_schedule_deps(&s, 3, &d), 1); CHECK_EQ(d[0], 5001);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

/* Label modes: none stored, AUTO (every action "l<i+1>"), TABLE. */
static void test_label_modes(void) {
    goal_graph *g = th_graph(0, 1);
    goal_schedule s;
    char nb[GOAL_LABEL_MAX];
    int32_t a = goal_graph_nop(g), b = goal_graph_nop(g), c = goal_graph_nop(g);
    CHECK_EQ(goal_graph_requires(g, b, a), GOAL_OK);
    compile_ok(g, &s);
    CHECK_EQ(s.label_mode, 0); CHECK(s.labels == NULL);
    CHECK_STR(goal_schedule_label(&s, 2, nb), "l3");
    goal_schedule_free(&s);
    CHECK_EQ(goal_graph_label(g, c, "l3"), GOAL_OK);                  /* a default name on an unlinked action */
    compile_ok(g, &s);
    CHECK_EQ(s.label_mode, 1); CHECK_EQ(s.labelbytes, 0);
    CHECK(reencodes(&s));
    goal_schedule_free(&s);
    CHECK_EQ(goal_graph_label(g, a, "start"), GOAL_OK);
    compile_ok(g, &s);
    CHECK_EQ(s.label_mode, 2);
    CHECK_STR(goal_schedule_label(&s, 0, nb), "start");
    CHECK_STR(goal_schedule_label(&s, 1, nb), "l2");                  /* generated: b is linked */
    CHECK_STR(goal_schedule_label(&s, 2, nb), "l3");
    CHECK(reencodes(&s));
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

/* Loads bytes, which must fail with a status among the allowed ones and a message. */
static void load_fails(const void *bytes, size_t size, goal_status want, const char *msg) {
    goal_schedule s;
    goal_error err;
    goal_status st = goal_schedule_load(&s, bytes, size, NULL, &err);
    CHECK_EQ(st, want);
    CHECK_EQ(err.status, want);
    if (!contains(err.msg, msg)) CHECK_STR(err.msg, msg);
    CHECK(s.bytes == NULL && s.size == 0);
}
static uint8_t *copy_of(const goal_schedule *s) {
    uint8_t *p = (uint8_t *)malloc(s->size);
    memcpy(p, s->bytes, s->size);
    return p;
}
static void put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static void test_loader_fields(void) {
    goal_graph *g = th_graph(0, 2);
    goal_schedule s;
    uint8_t *b;
    size_t rec, body;
    int32_t a = goal_graph_nop(g), x = goal_graph_nop(g), y = goal_graph_nop(g);
    goal_graph_requires(g, x, a); goal_graph_requires(g, y, x); goal_graph_requires(g, y, a);
    compile_ok(g, &s);
    /* layout: header 48, no slots, indep [0], records 3 x 8, body: a:[1,2] x:[2] */
    rec = 48 + 4; body = rec + 24;
    CHECK_EQ(s.size, body + 12);
    load_fails(NULL, 0, GOAL_ERR_FORMAT, "the header alone is 48");
    b = copy_of(&s); b[0] = 'X'; load_fails(b, s.size, GOAL_ERR_FORMAT, "bad magic number"); free(b);
    b = copy_of(&s); b[4] = 2; load_fails(b, s.size, GOAL_ERR_VERSION, "schedule format version 2, this library reads 1"); free(b);
    b = copy_of(&s); b[6] = 3; load_fails(b, s.size, GOAL_ERR_FORMAT, "unknown flags 0x3"); free(b);
    b = copy_of(&s); put32(b + 8, 2); load_fails(b, s.size, GOAL_ERR_FORMAT, "rank 2 of 2"); free(b);
    b = copy_of(&s); put32(b + 12, 0); load_fails(b, s.size, GOAL_ERR_FORMAT, "rank 0 of 0"); free(b);
    b = copy_of(&s); put32(b + 12, 0x80000000u); load_fails(b, s.size, GOAL_ERR_FORMAT, "rank 0 of 2147483648"); free(b);
    b = copy_of(&s); put32(b + 16, 0x7FFFFFFFu); load_fails(b, s.size, GOAL_ERR_FORMAT, "header field out of range"); free(b);
    b = copy_of(&s); put32(b + 16, 4); load_fails(b, s.size, GOAL_ERR_FORMAT, "its header describes"); free(b);
    b = copy_of(&s); put32(b + 24, 4); load_fails(b, s.size, GOAL_ERR_FORMAT, "header field out of range"); free(b);
    b = copy_of(&s); put32(b + 32, 65536); load_fails(b, s.size, GOAL_ERR_FORMAT, "header field out of range"); free(b);
    b = copy_of(&s); put32(b + 36, 4); load_fails(b, s.size, GOAL_ERR_FORMAT, "header field out of range"); free(b);
    b = copy_of(&s); b[47] = 0x80; load_fails(b, s.size, GOAL_ERR_FORMAT, "header field out of range"); free(b);
    b = copy_of(&s); put32(b + 28, 0xFFFFFFFFu); load_fails(b, s.size, GOAL_ERR_FORMAT, "its header describes"); free(b);
    b = copy_of(&s); put32(b + 20, 2); load_fails(b, s.size, GOAL_ERR_FORMAT, "3 edges, the header says 2"); free(b);
    b = copy_of(&s); put32(b + 48, 1); load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: independent list is wrong"); free(b);
    b = copy_of(&s); b[rec] = 7; load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: unknown kind 7"); free(b);
    b = copy_of(&s); put32(b + rec + 12, 3); load_fails(b, s.size, GOAL_ERR_FORMAT, "action 1: body offset out of sequence"); free(b);
    b = copy_of(&s); put32(b + body, 7); load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: dependent 7 out of range"); free(b);
    b = copy_of(&s); put32(b + body, 0); load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: depends on itself"); free(b);
    b = copy_of(&s); put32(b + body, 2); load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: dependent 2 listed twice"); free(b);
    b = copy_of(&s); put32(b + body, 0x80000001u); load_fails(b, s.size, GOAL_ERR_FORMAT, "irequires flag does not match"); free(b);
    b = copy_of(&s); b[rec + 16] |= 0x80; load_fails(b, s.size, GOAL_ERR_FORMAT, "irequires flag does not match"); free(b);
    b = copy_of(&s); b[6] = 1; load_fails(b, s.size, GOAL_ERR_FORMAT, "label mode AUTO where none is needed"); free(b);
    /* wrong in-degree: x claims two sources */
    b = copy_of(&s); b[rec + 9] = 2; load_fails(b, s.size, GOAL_ERR_FORMAT, "action 1: source count does not match the edges"); free(b);
    /* a cycle with consistent counts: a->x, x->y, y->x (a stays the only independent) */
    b = copy_of(&s);
    put32(b + rec, 0x00100000u);                 /* a: nop, 0 sources, 1 dependent, body 0 */
    put32(b + rec + 8, 0x00100200u); put32(b + rec + 12, 1);   /* x: 2 sources, 1 dependent */
    put32(b + rec + 16, 0x00100100u); put32(b + rec + 20, 2);  /* y: 1 source, 1 dependent */
    put32(b + body, 1); put32(b + body + 4, 2); put32(b + body + 8, 1);
    load_fails(b, s.size, GOAL_ERR_CYCLE, "schedule of rank 0 has a dependency cycle");
    free(b);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

static void test_loader_params(void) {
    goal_graph *g = th_graph(0, 2);
    goal_schedule s;
    uint8_t *b;
    size_t p;
    goal_graph_send(g, goal_buffer(0, 8, 16), 1, 0);
    compile_ok(g, &s);
    /* header 48, slot 8, indep 4, record 8, body: peer, size, offset */
    p = 48 + 8 + 4 + 8;
    CHECK_EQ(s.size, p + 12);
    b = copy_of(&s); put32(b + p, 2); load_fails(b, s.size, GOAL_ERR_FORMAT, "send: peer 2 is out of range (2 ranks)"); free(b);
    b = copy_of(&s); put32(b + p + 8, 0); load_fails(b, s.size, GOAL_ERR_FORMAT, "parameters are not in canonical form"); free(b);
    b = copy_of(&s); b[p - 8] |= 0x08; load_fails(b, s.size, GOAL_ERR_FORMAT, "parameters beyond the body"); free(b);
    b = copy_of(&s); b[48] = 23; load_fails(b, s.size, GOAL_ERR_FORMAT, "slot 0 size does not match the actions"); free(b);
    b = copy_of(&s); b[55] = 0x80; load_fails(b, s.size, GOAL_ERR_FORMAT, "slot 0 size out of range"); free(b);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

/* The label table: packed, terminated, padded to 4 bytes and no more. */
static void test_loader_label_table(void) {
    goal_graph *g = example2_rank0();
    goal_schedule s;
    uint8_t *b;
    size_t names;
    compile_ok(g, &s);
    CHECK_EQ(s.label_mode, 2); CHECK_EQ(s.labelbytes, 12);         /* "r1 r2 e1 e2" */
    names = s.size - 12;
    b = (uint8_t *)calloc(1, s.size + 4);
    memcpy(b, s.bytes, s.size);
    put32(b + 36, 16);                                            /* 4 more zero bytes: valid, not canonical */
    load_fails(b, s.size + 4, GOAL_ERR_FORMAT, "label table padded beyond the next multiple of 4");
    put32(b + 36, 12);
    b[names + 2] = 'x';                                           /* "r1x..." runs into the next name */
    load_fails(b, s.size, GOAL_ERR_FORMAT, "action 1: label offset out of sequence or unterminated");
    memcpy(b, s.bytes, s.size);
    b[names + 3] = 'r'; b[names + 4] = '1';                       /* "r1" twice */
    load_fails(b, s.size, GOAL_ERR_FORMAT, "action 1: label used twice");
    memcpy(b, s.bytes, s.size);
    b[names] = '1';                                               /* "11" is no label */
    load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: invalid label");
    memcpy(b, s.bytes, s.size);
    put32(b + names - 16, 0xFFFFFFFFu);                          /* e1 (linked) without a name */
    load_fails(b, s.size, GOAL_ERR_FORMAT, "action 0: has dependencies but no label");
    free(b);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}

/* Bytes worth flipping: all of a small schedule; of a large one the header, the first and
   last 2 KB, the start of the body (where escaped counts are), and every 61st byte. */
static int flip_here(const goal_schedule *s, size_t i) {
    size_t body = (size_t)((const uint8_t *)s->body - s->bytes);
    return s->size <= 8192 || i < 2048 || i + 2048 >= s->size || (i + 16 >= body && i < body + 64) || i % 61 == 0;
}
/* Every prefix fails; every bit flip fails cleanly or gives a canonical schedule. */
static void test_loader_corruption(void) {
    goal_graph *gs[3];
    long flips = 0, loaded = 0;
    int k;
    gs[0] = example2_rank0(); gs[1] = everything(); gs[2] = fan(th_full() ? 4100 : 40);
    for (k = 0; k < 3; k++) {
        goal_schedule s, t;
        goal_error err;
        uint8_t *b;
        size_t n, i;
        int bit;
        compile_ok(gs[k], &s);
        b = (uint8_t *)malloc(s.size + 8);
        memcpy(b, s.bytes, s.size);
        memset(b + s.size, 0, 8);
        for (n = 0; n < s.size + 8; n += (n < s.size ? 1 : 4))
            if (n != s.size) {
                goal_status st = goal_schedule_load(&t, b, n, NULL, &err);
                CHECK_EQ(st, GOAL_ERR_FORMAT);
                CHECK(err.msg[0] != 0);
            }
        for (i = 0; i < s.size; i++)
            for (bit = 0; bit < 8 && flip_here(&s, i); bit++) {
                goal_status st;
                b[i] ^= (uint8_t)(1u << bit);
                st = goal_schedule_load(&t, b, s.size, NULL, &err);
                flips++;
                if (st == GOAL_OK) {
                    loaded++;
                    if (!reencodes(&t)) printf("  schedule %d: flip of byte %lu bit %d loads but does not re-encode\n", k, (unsigned long)i, bit);
                    CHECK(reencodes(&t));
                    goal_schedule_free(&t);
                } else {
                    CHECK(st == GOAL_ERR_FORMAT || st == GOAL_ERR_VERSION || st == GOAL_ERR_CYCLE);
                    CHECK_EQ(err.status, st);
                    CHECK(err.msg[0] != 0);
                }
                b[i] ^= (uint8_t)(1u << bit);
            }
        free(b);
        goal_schedule_free(&s);
        goal_graph_destroy(gs[k]);
    }
    CHECK(flips > 1000);
    CHECK(loaded > 0 && loaded < flips / 2);
}

static void test_to_graph(void) {
    goal_graph *g = everything(), *h = th_graph(0, 1);
    goal_schedule s, t;
    goal_action a, b;
    int32_t i;
    compile_ok(g, &s);
    CHECK_EQ(goal_schedule_to_graph(&s, h), GOAL_OK);
    CHECK_EQ(goal_graph_rank(h), 2); CHECK_EQ(goal_graph_nranks(h), 5);
    CHECK_EQ(goal_graph_count(h), goal_graph_count(g));
    for (i = 0; i < goal_graph_count(g); i++) {
        goal_graph_get(g, i, &a); goal_graph_get(h, i, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
    }
    compile_ok(h, &t);
    CHECK_EQ(t.size, s.size);
    CHECK(memcmp(t.bytes, s.bytes, s.size) == 0);
    CHECK_EQ(goal_schedule_to_graph(NULL, h), GOAL_ERR_ARG);
    goal_schedule_free(&t); goal_schedule_free(&s);
    goal_graph_destroy(g); goal_graph_destroy(h);
}

/* ---- worlds ---------------------------------------------------------------------------------- */
static goal_world *world_of(int nranks, const int *ranks, int n) {
    goal_world *w = NULL;
    int k;
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = nranks}, NULL), GOAL_OK);
    for (k = 0; k < n; k++) {
        goal_graph *g = th_graph(ranks[k], nranks);
        goal_graph_send(g, goal_buffer(0, 0, (uint64_t)ranks[k] + 1), (ranks[k] + 1) % nranks, ranks[k]);
        CHECK_EQ(goal_world_add_graph(w, g, NULL), GOAL_OK);
        goal_graph_destroy(g);
    }
    return w;
}

static void test_world(void) {
    static const int order[] = {3, 1}, fwd[] = {1, 3};
    goal_world *w = world_of(4, order, 2), *v = world_of(4, fwd, 2), *l = NULL;
    goal_schedule s;
    goal_graph *g;
    goal_error err;
    th_sink a = {0}, b = {0}, c = {0};
    goal_action act;
    CHECK_EQ(goal_world_nranks(w), 4);
    CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, 2, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, -1, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, 4, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, 3, &s), GOAL_OK);
    CHECK_EQ(s.rank, 3); CHECK_EQ(s.nactions, 1);
    goal_schedule_action(&s, 0, &act);
    CHECK(act.peer == 0 && act.tag == 3 && act.buf.size == 4);
    CHECK_EQ(goal_world_schedule(w, 1, &s), GOAL_OK);
    goal_schedule_action(&s, 0, &act);
    CHECK(act.peer == 2 && act.tag == 1 && act.buf.size == 2);
    /* a rank is set once; the schedule must fit the world */
    g = th_graph(1, 4);
    CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_ERR_STATE);
    CHECK_STR(err.msg, "rank 1 is set twice");
    goal_graph_reset(g, 1, 5);
    CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_ERR_RANK);
    CHECK_STR(err.msg, "rank 1 of 5 does not fit a world of 4 ranks");
    goal_graph_send(g, goal_buffer(0, 0, 1), 9, 0);
    CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_ERR_PEER);        /* the compile error */
    goal_graph_destroy(g);
    CHECK_EQ(goal_world_add_schedule(w, NULL, &err), GOAL_ERR_ARG);
    /* the order of adding does not show in the file */
    CHECK_EQ(goal_world_save(w, th_sink_put, &a), GOAL_OK);
    CHECK_EQ(goal_world_save(v, th_sink_put, &b), GOAL_OK);
    CHECK_EQ(a.n, b.n);
    CHECK(a.n == b.n && memcmp(a.p, b.p, a.n) == 0);
    CHECK(memcmp(a.p, "GOALWRLD", 8) == 0);
    /* 24 header + 5 x 8 table + ranks 0, 2 empty (48) + ranks 1, 3 (48 + 8 slot + 4 indep + 8 rec + 12 body = 80) */
    CHECK_EQ(a.n, 24 + 40 + 48 * 2 + 80 * 2);
    CHECK_EQ(goal_world_load(&l, a.p, a.n, NULL, &err), GOAL_OK);
    CHECK_EQ(goal_world_nranks(l), 4);
    CHECK_EQ(goal_world_schedule(l, 0, &s), GOAL_OK);                 /* unset ranks come back empty */
    CHECK_EQ(s.nactions, 0); CHECK_EQ(s.rank, 0); CHECK_EQ(s.nranks, 4);
    CHECK_EQ(goal_world_schedule(l, 3, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 1);
    CHECK_EQ(goal_world_save(l, th_sink_put, &c), GOAL_OK);
    CHECK(c.n == a.n && memcmp(c.p, a.p, a.n) == 0);
    /* the writer's errors stop the save */
    c.n = 0; c.calls = 0; c.fail_at = 2;
    CHECK_EQ(goal_world_save(l, th_sink_put, &c), GOAL_ERR_IO);
    CHECK_EQ(goal_world_save(NULL, th_sink_put, &c), GOAL_ERR_ARG);
    goal_world_destroy(l);
    CHECK_EQ(goal_world_create(&l, &(goal_world_desc){.nranks = -1}, &err), GOAL_ERR_RANK);
    CHECK(l == NULL);
    CHECK_STR(err.msg, "-1 ranks in a world (nranks >= 1, or 0 for 1)");
    CHECK_EQ(goal_world_create(NULL, NULL, &err), GOAL_ERR_ARG);
    CHECK_EQ(err.status, GOAL_ERR_ARG);
    CHECK_EQ(goal_world_create(&l, NULL, &err), GOAL_OK);   /* zeroed: one rank */
    CHECK_EQ(goal_world_nranks(l), 1);
    CHECK_EQ(err.status, GOAL_OK);
    goal_world_destroy(l);
    CHECK_EQ(goal_world_nranks(NULL), 0);
    CHECK_EQ(goal_world_dialect(w), GOAL_DIALECT_AUTO);
    free(a.p); free(b.p); free(c.p);
    goal_world_destroy(w); goal_world_destroy(v);
    goal_world_destroy(NULL);
}

/* A world of 2^31-1 ranks with two set costs memory for two. */
static void test_world_sparse(void) {
    th_counter bc;
    goal_allocator a;
    goal_world *w = NULL;
    goal_schedule s;
    th_sink out = {0};
    int r;
    a = th_counting(&bc, -1);
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = 0x7FFFFFFF, .alloc = a}, NULL), GOAL_OK);
    for (r = 0x7FFFFFFE; r > 0x7FFFFFF0; r -= 7) {
        goal_graph *g = th_graph(r, 0x7FFFFFFF);
        goal_graph_send(g, goal_buffer(0, 0, 8), 0, 0);
        CHECK_EQ(goal_world_add_graph(w, g, NULL), GOAL_OK);
        goal_graph_destroy(g);
    }
    CHECK(bc.bytes < 4096);
    CHECK_EQ(goal_world_schedule(w, 0x7FFFFFFE, &s), GOAL_OK);
    CHECK_EQ(s.rank, 0x7FFFFFFE);
    CHECK_EQ(goal_world_schedule(w, 0x7FFFFFF7, &s), GOAL_OK);
    CHECK_EQ(goal_world_schedule(w, 0x7FFFFFF8, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, 5, &s), GOAL_ERR_RANK);
    out.fail_at = 3;                                                  /* the file would be 120 GB */
    CHECK_EQ(goal_world_save(w, th_sink_put, &out), GOAL_ERR_IO);
    CHECK_EQ(out.n, 24 + 512);                                        /* header, then table 64 entries at a time */
    free(out.p);
    goal_world_destroy(w);
}

/* Ranks 0, 1 in order keep no rank table; rank 5 starts one (0, 1, 5), rank 3 goes between. */
static void test_world_dense_then_not(void) {
    static const int order[] = {0, 1, 5, 3, 2};
    goal_world *w = world_of(6, order, 5);
    goal_schedule s;
    goal_action act;
    int r;
    for (r = 0; r < 6; r++) {
        goal_status st = goal_world_schedule(w, r, &s);
        CHECK_EQ(st, r == 4 ? GOAL_ERR_RANK : GOAL_OK);
        if (st != GOAL_OK) continue;
        CHECK_EQ(s.rank, r);
        goal_schedule_action(&s, 0, &act);
        CHECK(act.tag == r && act.buf.size == (uint64_t)r + 1);
    }
    goal_world_destroy(w);
}

static void test_world_load_corruption(void) {
    static const int ranks[] = {0, 2};
    goal_world *w = world_of(3, ranks, 2), *l = NULL;
    goal_error err;
    th_sink f = {0};
    uint8_t *b;
    size_t n, i;
    int bit;
    CHECK_EQ(goal_world_save(w, th_sink_put, &f), GOAL_OK);
    b = (uint8_t *)malloc(f.n);
    memcpy(b, f.p, f.n);
    for (n = 0; n < f.n; n++) {
        CHECK(goal_world_load(&l, b, n, NULL, &err) < 0);
        CHECK(l == NULL);
    }
    for (i = 0; i < f.n; i++)
        for (bit = 0; bit < 8; bit++) {
            goal_status st;
            b[i] ^= (uint8_t)(1u << bit);
            st = goal_world_load(&l, b, f.n, NULL, &err);
            if (st == GOAL_OK) {
                th_sink again = {0};
                CHECK_EQ(goal_world_save(l, th_sink_put, &again), GOAL_OK);
                CHECK(again.n == f.n && memcmp(again.p, b, f.n) == 0);
                free(again.p);
                goal_world_destroy(l);
            } else {
                CHECK(st == GOAL_ERR_FORMAT || st == GOAL_ERR_VERSION || st == GOAL_ERR_CYCLE);
                CHECK(err.msg[0] != 0 && l == NULL);
            }
            b[i] ^= (uint8_t)(1u << bit);
        }
    /* the places of two ranks swapped (the fuzz_load crash) */
    memcpy(b, f.p, f.n);
    b[24 + 32 + 8] = 2;                              /* rank 0's header says rank 2 */
    CHECK_EQ(goal_world_load(&l, b, f.n, NULL, &err), GOAL_ERR_FORMAT);
    CHECK_STR(err.msg, "corrupt world file: the schedule in the place of rank 0 is rank 2 of 3");
    memcpy(b, f.p, f.n);
    b[9] = 1;
    CHECK_EQ(goal_world_load(&l, b, f.n, NULL, &err), GOAL_ERR_VERSION);
    memcpy(b, f.p, f.n);
    b[0] = 'g';
    CHECK_EQ(goal_world_load(&l, b, f.n, NULL, &err), GOAL_ERR_FORMAT);
    CHECK_STR(err.msg, "not a GOAL world file (bad magic number)");
    CHECK_EQ(goal_world_load(NULL, b, f.n, NULL, &err), GOAL_ERR_ARG);
    free(b); free(f.p);
    goal_world_destroy(w);
}

/* ---- allocation failure at every allocation -------------------------------------------------- */
static void test_nomem_builder(void) {
    th_counter c;
    goal_graph_desc d;
    goal_graph *g = NULL;
    long k, done = 0;
    memset(&d, 0, sizeof d);
    d.alloc = th_counting(&c, -1);
    for (k = 0; k < 2; k++) {                                         /* create itself */
        c.fail_after = k;
        CHECK_EQ(goal_graph_create(&g, &d, NULL), GOAL_ERR_NOMEM);
        CHECK(g == NULL);
        CHECK_EQ(c.allocs, c.frees);
        c.allocs = c.frees = 0;
    }
    c.fail_after = -1;
    d.nranks = 2;
    CHECK_EQ(goal_graph_create(&g, &d, NULL), GOAL_OK);
    /* each call in turn meets a failing allocator: NOMEM, and nothing changes */
    for (k = 0; k < 200 && !done; k++) {
        int32_t n0 = goal_graph_count(g), id;
        size_t ne = g->ne;
        c.fail_after = c.allocs;
        switch (k % 4) {
        case 0: id = goal_graph_send(g, goal_buffer((uint32_t)k, 0, 8), 1, 0); break;
        case 1: id = goal_graph_nop(g); break;
        case 2: id = n0 ? goal_graph_requires(g, n0 - 1, 0) : goal_graph_nop(g); break;
        default: { char name[32]; snprintf(name, sizeof name, "x%ld", k); id = n0 ? goal_graph_label(g, n0 - 1, name) : goal_graph_nop(g); }
        }
        c.fail_after = -1;
        if (id == GOAL_ERR_NOMEM) {
            CHECK_EQ(goal_graph_count(g), n0);
            CHECK_EQ(g->ne, ne);
            CHECK_EQ(goal_graph_status(g), GOAL_ERR_NOMEM);
            done = 1;
        }
    }
    CHECK(done);
    goal_graph_destroy(g);
    CHECK_EQ(c.allocs, c.frees);
}

static void test_nomem_compile_load_world(void) {
    th_counter c;
    goal_graph_desc d;
    goal_graph *g = NULL;
    goal_schedule ref, s;
    goal_world *w = NULL, *l = NULL;
    goal_error err;
    th_sink f = {0};
    long k, base;
    goal_status st;
    goal_allocator a;
    uint8_t *odd;
    memset(&d, 0, sizeof d);
    d.alloc = a = th_counting(&c, -1);
    d.rank = 1; d.nranks = 2;
    CHECK_EQ(goal_graph_create(&g, &d, NULL), GOAL_OK);
    {   /* labelled, so the compiler allocates generated names too */
        int32_t x = goal_graph_recv(g, goal_buffer(0, 0, 4), 0, 0), y = goal_graph_nop(g), z = goal_graph_nop(g);
        goal_graph_label(g, x, "in"); goal_graph_requires(g, y, x); goal_graph_requires(g, z, y);
    }
    compile_ok(g, &ref);
    for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
        base = c.allocs - c.frees;
        c.fail_after = c.allocs + k;
        st = goal_compile(g, &s, &err);
        c.fail_after = -1;
        if (st == GOAL_ERR_NOMEM) { CHECK(s.bytes == NULL); CHECK_EQ(c.allocs - c.frees, base); CHECK_STR(err.msg, "rank 1: out of memory"); }
    }
    CHECK_EQ(st, GOAL_OK);
    CHECK(k >= 3);
    CHECK(s.size == ref.size && memcmp(s.bytes, ref.bytes, s.size) == 0);
    goal_schedule_free(&s);
    /* load: unaligned bytes are copied; the label table needs a name set */
    odd = (uint8_t *)malloc(ref.size + 1);
    memcpy(odd + 1, ref.bytes, ref.size);
    for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
        base = c.allocs - c.frees;
        c.fail_after = c.allocs + k;
        st = goal_schedule_load(&s, odd + 1, ref.size, &a, &err);
        c.fail_after = -1;
        if (st == GOAL_ERR_NOMEM) { CHECK(s.bytes == NULL); CHECK_EQ(c.allocs - c.frees, base); }
    }
    CHECK_EQ(st, GOAL_OK);
    CHECK(k >= 3);
    goal_schedule_free(&s);
    /* to_graph into a graph whose allocator fails */
    for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
        goal_graph *h = NULL;
        CHECK_EQ(goal_graph_create(&h, &d, NULL), GOAL_OK);
        c.fail_after = c.allocs + k;
        st = goal_schedule_to_graph(&ref, h);
        c.fail_after = -1;
        goal_graph_destroy(h);
    }
    CHECK_EQ(st, GOAL_OK);
    /* world: add, save, load */
    for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
        base = c.allocs - c.frees;
        c.fail_after = c.allocs + k;
        st = goal_world_create(&w, &(goal_world_desc){.nranks = 2, .alloc = a}, NULL);
        if (st == GOAL_OK && (st = goal_world_add_schedule(w, &ref, &err)) != GOAL_OK) { goal_world_destroy(w); w = NULL; }
        c.fail_after = -1;
        if (st == GOAL_ERR_NOMEM) CHECK_EQ(c.allocs - c.frees, base);
    }
    CHECK_EQ(st, GOAL_OK);
    c.fail_after = c.allocs;                                          /* saving allocates nothing */
    CHECK_EQ(goal_world_save(w, th_sink_put, &f), GOAL_OK);
    c.fail_after = -1;
    for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
        base = c.allocs - c.frees;
        c.fail_after = c.allocs + k;
        st = goal_world_load(&l, f.p + 0, f.n, &a, &err);
        c.fail_after = -1;
        if (st == GOAL_ERR_NOMEM) { CHECK(l == NULL); CHECK_EQ(c.allocs - c.frees, base); }
    }
    CHECK_EQ(st, GOAL_OK);
    CHECK(k >= 4);
    goal_world_destroy(l); goal_world_destroy(w);
    goal_schedule_free(&ref);
    goal_graph_destroy(g);
    free(odd); free(f.p);
    CHECK_EQ(c.allocs, c.frees);
}

int main(void) {
    RUN(test_builder_errors);
    RUN(test_builder_labels_and_null);
    RUN(test_builder_defaults_and_get);
    RUN(test_sticky_first_error);
    RUN(test_dependencies);
    RUN(test_cycle);
    RUN(test_op_type_matrix);
    RUN(test_example2_binary);
    RUN(test_roundtrips);
    RUN(test_escaped_counts);
    RUN(test_label_modes);
    RUN(test_loader_fields);
    RUN(test_loader_params);
    RUN(test_loader_label_table);
    RUN(test_loader_corruption);
    RUN(test_to_graph);
    RUN(test_world);
    RUN(test_world_sparse);
    RUN(test_world_dense_then_not);
    RUN(test_world_load_corruption);
    RUN(test_nomem_builder);
    RUN(test_nomem_compile_load_world);
    return th_done();
}
