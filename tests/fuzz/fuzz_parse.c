/* libFuzzer target: the text parser, both dialects. Whatever parses must write, and what
   was written must parse again to the same text (the fixed point) and, where the dialect
   keeps everything, to the same binary world. */
#define GOAL_IMPLEMENTATION
#include "goal.h"
#include <stdlib.h>
#include <string.h>
#include "../harness.h"   /* th_sink, th_parse_input */

static void check_fixed_point(goal_world *w, goal_dialect d) {
    th_sink a = {0}, b = {0};
    goal_world *w2 = NULL;
    goal_error err;
    goal_parse_desc pd;
    memset(&pd, 0, sizeof pd);
    if (goal_world_write(w, d, th_sink_put, &a) != GOAL_OK) abort();
    if (goal_parse(a.p ? a.p : "", a.n, &pd, &w2, &err) != GOAL_OK) abort();
    if (goal_world_write(w2, d, th_sink_put, &b) != GOAL_OK) abort();
    if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n) != 0)) abort();
    if (d == GOAL_DIALECT_PAPER || goal_world_dialect(w) == GOAL_DIALECT_LOGGOPSIM) {   /* lossless: same binary */
        th_sink x = {0}, y = {0};
        if (goal_world_save(w, th_sink_put, &x) != GOAL_OK || goal_world_save(w2, th_sink_put, &y) != GOAL_OK) abort();
        if (x.n != y.n || memcmp(x.p, y.p, x.n) != 0) abort();
        free(x.p); free(y.p);
    }
    goal_world_destroy(w2);
    free(a.p); free(b.p);
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    goal_world *w = th_parse_input(data, size, 1 << 16);
    if (!w) return 0;
    if (goal_world_nranks(w) <= 4096) {
        check_fixed_point(w, GOAL_DIALECT_PAPER);
        if (goal_world_dialect(w) == GOAL_DIALECT_LOGGOPSIM) check_fixed_point(w, GOAL_DIALECT_LOGGOPSIM);
    }
    goal_world_destroy(w);
    return 0;
}
