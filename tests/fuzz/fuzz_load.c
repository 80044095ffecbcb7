/* libFuzzer target: the binary loaders. A world or schedule that loads must save back to
   the identical bytes, and compile back to them from its graph (there is one encoding of
   each), and every action must decode. */
#define GOAL_IMPLEMENTATION
#include "goal.h"
#include <stdlib.h>
#include <string.h>
#include "../harness.h"   /* th_sink */

/* There is one encoding of each schedule: rebuilding the graph and compiling it gives
   back the bytes that loaded. */
static void reencode(const goal_schedule *s) {
    goal_graph *g = NULL;
    goal_schedule t;
    if (goal_graph_create(&g, NULL, NULL) != GOAL_OK || goal_schedule_to_graph(s, g) != GOAL_OK ||
        goal_compile(g, &t, NULL) != GOAL_OK)
        abort();
    if (t.size != s->size || memcmp(t.bytes, s->bytes, s->size) != 0) abort();
    goal_schedule_free(&t);
    goal_graph_destroy(g);
}
static void walk(const goal_schedule *s) {
    uint32_t i;
    reencode(s);
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        const uint32_t *d;
        char nb[GOAL_LABEL_MAX];
        goal_schedule_action(s, i, &a);
        goal_schedule_deps(s, i, &d);
        if (!goal_schedule_label(s, i, nb)) abort();
    }
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    goal_error err;
    goal_schedule s;
    goal_world *w = NULL;
    if (goal_schedule_load(&s, data, size, NULL, &err) == GOAL_OK) {
        walk(&s);
        goal_schedule_free(&s);
    }
    if (goal_world_load(&w, data, size, NULL, &err) == GOAL_OK) {
        th_sink m = {0};
        int r;
        for (r = 0; r < goal_world_nranks(w); r++) {
            if (goal_world_schedule(w, r, &s) != GOAL_OK) abort();
            walk(&s);
        }
        if (goal_world_save(w, th_sink_put, &m) != GOAL_OK || m.n != size || memcmp(m.p, data, size) != 0) abort();
        free(m.p);
        goal_world_destroy(w);
    }
    return 0;
}
