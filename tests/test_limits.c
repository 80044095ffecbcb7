/* Limits of the format and of the executor: values at and past each limit are handled
   without overflow or rejected with a clear error. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include "harness.h"

static int post_ok(void *u, const goal_msg *m, goal_req *q) { (void)u; (void)m; (void)q; return GOAL_OK; }
static int test_0(void *u, goal_req *r, int n, int b) { (void)u; (void)r; (void)n; (void)b; return 0; }

/* Buffers of 2^31, 2^32 and near 2^63 bytes: encoded wide, bounds checked at bind time. */
static void test_big_sizes(void) {
    static const uint64_t sizes[] = {(1ull << 31) - 1, 1ull << 31, (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, (1ull << 62) - 1};
    size_t k;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        goal_graph *g;
        goal_graph_desc gd = {0, 2, {0, 0, 0}};
        goal_schedule s, l;
        goal_exec *e = NULL;
        goal_exec_desc ed;
        goal_error err;
        unsigned char byte;
        goal_slot slot;
        goal_action a;
        goal_graph_create(&g, &gd, NULL);
        CHECK_EQ(goal_graph_send(g, goal_buffer(0, sizes[k], sizes[k]), 1, 0), 0);
        CHECK_EQ(goal_compile(g, &s, &err), GOAL_OK);
        CHECK_EQ(goal_schedule_slot_size(&s, 0), 2 * sizes[k]);
        CHECK_EQ(goal_schedule_load(&l, s.bytes, s.size, NULL, &err), GOAL_OK);
        goal_schedule_action(&l, 0, &a);
        CHECK(a.buf.size == sizes[k] && a.buf.offset == sizes[k]);
        memset(&ed, 0, sizeof ed);
        ed.schedule = &s; ed.transport.post = post_ok; ed.transport.test = test_0;
        slot.data = &byte; slot.size = 2 * sizes[k] - 1;   /* one byte short */
        ed.slots = &slot; ed.nslots = 1;
        CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_ERR_BOUNDS);
        CHECK(strstr(err.msg, "slot 0") != NULL);
        slot.size = 2 * sizes[k];                          /* declared big enough: accepted */
        CHECK_EQ(goal_exec_create(&e, &ed, &err), GOAL_OK);
        goal_exec_destroy(e);
        goal_schedule_free(&l);
        goal_schedule_free(&s);
        goal_graph_destroy(g);
    }
}
/* Offset + size past 2^63 - 1, and sums that would wrap 2^64, are refused by the builder. */
static void test_wrapping_sizes(void) {
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_graph_create(&g, &gd, NULL);
    CHECK_EQ(goal_graph_send(g, goal_buffer(0, 0, GOAL_SIZE_MAX), 1, 0), 0);
    CHECK_EQ(goal_graph_send(g, goal_buffer(0, 1, GOAL_SIZE_MAX), 1, 0), GOAL_ERR_SIZE);
    CHECK_EQ(goal_graph_send(g, goal_buffer(0, UINT64_MAX, 2), 1, 0), GOAL_ERR_SIZE);
    CHECK_EQ(goal_graph_send(g, goal_buffer(0, 2, UINT64_MAX), 1, 0), GOAL_ERR_SIZE);
    CHECK_EQ(goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 1ull << 61), goal_buffer(0, 1ull << 61, 1ull << 61)), 1);
    goal_graph_destroy(g);
}
/* A user function gets int sizes (the paper's signature): more is an error at run time. */
static int never(void *a, int b, void *c, int d) { (void)a; (void)b; (void)c; (void)d; return 1; }
static void test_user_fn_int_sizes(void) {
    goal_graph *g;
    goal_graph_desc gd = {0, 1, {0, 0, 0}};
    goal_schedule s;
    goal_exec *e;
    goal_exec_desc ed;
    goal_user_fn fns[1] = {never};
    unsigned char byte;
    goal_slot slot;
    goal_graph_create(&g, &gd, NULL);
    goal_graph_user(g, 0, goal_buffer(0, 0, 1ull << 31), goal_buffer(0, 0, 1));
    CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
    memset(&ed, 0, sizeof ed);
    ed.schedule = &s; ed.transport.post = post_ok; ed.transport.test = test_0;
    slot.data = &byte; slot.size = 1ull << 31;   /* never touched: the size check comes first */
    ed.slots = &slot; ed.nslots = 1; ed.user_fns = fns; ed.nuser_fns = 1;
    CHECK_EQ(goal_exec_create(&e, &ed, NULL), GOAL_OK);
    CHECK_EQ(goal_exec_run(e), GOAL_ERR_SIZE);
    CHECK(strstr(goal_exec_error(e)->msg, "2^31") != NULL);
    goal_exec_destroy(e);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}
/* A header claiming one action past the limit, or counts whose sizes overflow. */
static void test_header_limits(void) {
    goal_graph *g;
    goal_graph_desc gd = {0, 2, {0, 0, 0}};
    goal_schedule s, l;
    goal_error err;
    uint8_t *copy;
    static const uint32_t bad[] = {0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFu};
    size_t k;
    goal_graph_create(&g, &gd, NULL);
    goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
    CHECK_EQ(goal_compile(g, &s, NULL), GOAL_OK);
    copy = (uint8_t *)malloc(s.size);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int field;
        for (field = 16; field <= 40; field += 4) {   /* nactions .. labelbytes */
            memcpy(copy, s.bytes, s.size);
            copy[field] = (uint8_t)bad[k]; copy[field + 1] = (uint8_t)(bad[k] >> 8);
            copy[field + 2] = (uint8_t)(bad[k] >> 16); copy[field + 3] = (uint8_t)(bad[k] >> 24);
            CHECK(goal_schedule_load(&l, copy, s.size, NULL, &err) < 0);
            CHECK(err.msg[0] != 0);
        }
    }
    free(copy);
    goal_schedule_free(&s);
    goal_graph_destroy(g);
}
/* goal_graph_max_actions: the actions up to it are kept, the next fails with GOAL_ERR_LIMIT
   and says so; a reset keeps the limit; 0 is no limit. */
static void test_max_actions(void) {
    goal_graph *g;
    goal_graph_desc gd;
    int k;
    memset(&gd, 0, sizeof gd);
    gd.nranks = 2;
    CHECK_EQ(goal_graph_create(&g, &gd, NULL), GOAL_OK);
    goal_graph_max_actions(g, 3);
    for (k = 0; k < 2; k++) {
        CHECK_EQ(goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0), 0);
        CHECK_EQ(goal_graph_calc(g, 5), 1);
        CHECK_EQ(goal_graph_nop(g), 2);
        CHECK_EQ(goal_graph_nop(g), GOAL_ERR_LIMIT);
        CHECK_EQ(goal_graph_count(g), 3);
        CHECK_EQ(goal_graph_status(g), GOAL_ERR_LIMIT);
        CHECK(strstr(goal_graph_message(g), "more than 3 actions") != NULL);
        CHECK_EQ(goal_graph_reset(g, 1, 2), GOAL_OK);
        CHECK_EQ(goal_graph_status(g), GOAL_OK);
    }
    goal_graph_max_actions(g, 0);
    for (k = 0; k < 1000; k++) CHECK_EQ(goal_graph_nop(g), k);
    goal_graph_destroy(g);
}

int main(void) {
    RUN(test_max_actions);
    RUN(test_big_sizes);
    RUN(test_wrapping_sizes);
    RUN(test_user_fn_int_sizes);
    RUN(test_header_limits);
    return th_done();
}
