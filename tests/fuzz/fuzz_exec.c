/* libFuzzer target: parse a world (either dialect), then execute it over the in-process
   transport. Every outcome must be a status (ok, deadlock, truncation, unregistered user
   function, ...), never a crash, a hang or a leak. Caps keep each input small and fast. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include <stdlib.h>
#include <string.h>
#include "../harness.h"   /* th_parse_input */

enum { MAX_RANKS = 8, MAX_ACTIONS = 2000, MAX_SLOT = 1 << 16 };

static int copy_fn(void *b1, int s1, void *b2, int s2) { memcpy(b1, b2, (size_t)(s1 < s2 ? s1 : s2)); return 0; }

static void run(const goal_world *w, int threads, uint32_t window) {
    goal_slot slot[MAX_RANKS];
    const goal_slot *slots[MAX_RANKS];
    goal_user_fn fns[1] = {copy_fn};
    goal_world_run_desc d;
    goal_error err;
    goal_status st;
    int r, n = goal_world_nranks(w);
    for (r = 0; r < n; r++) {
        goal_schedule s;
        uint64_t size;
        slot[r].data = NULL; slots[r] = &slot[r];
        if (goal_world_schedule(w, r, &s) != GOAL_OK) goto done;
        size = goal_schedule_slot_size(&s, 0);
        if (size > MAX_SLOT || s.nactions > MAX_ACTIONS || s.scratch > MAX_SLOT) goto done;
        slot[r].data = calloc(1, size ? (size_t)size : 1);
        slot[r].size = size;
        if (!slot[r].data) goto done;
    }
    memset(&d, 0, sizeof d);
    d.world = w; d.slots = slots; d.nslots = 1; d.threads = threads; d.window = window;
    d.user_fns = fns; d.nuser_fns = 1;
    st = goal_world_run(&d, &err);
    if (st != GOAL_OK && (err.msg[0] == 0 || st >= 0)) abort();   /* every failure explains itself */
done:
    while (r-- > 0) free(slot[r].data);
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    goal_world *w = th_parse_input(data, size, 1 << 14);
    if (!w) return 0;
    if (goal_world_nranks(w) <= MAX_RANKS) {
        run(w, 0, 0);
        run(w, 0, 3);
        if (size % 7 == 0) run(w, 1, 0);   /* threads are slow to fuzz: a sample */
    }
    goal_world_destroy(w);
    return 0;
}
