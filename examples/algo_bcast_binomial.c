/* algo_bcast_binomial.c - the binomial-tree broadcast of the GOAL paper (Listing 2).
   Builds the schedules of all 6 ranks, runs them in this process step by step, and
   prints every message as it completes, then what each rank ends up with.
   Build: make (then ./build/examples/algo_bcast_binomial). */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include <stdio.h>

enum { P = 6, ROOT = 2 };
static goal_world *world;

/* Called by the in-process runner whenever an action of some rank starts (0) or ends (1). */
static void show(void *user, int rank, int32_t action, int event) {
    goal_schedule s;
    goal_action a;
    (void)user;
    if (event != 1) return;
    goal_world_schedule(world, rank, &s);
    goal_schedule_action(&s, (uint32_t)action, &a);
    if (a.kind == GOAL_SEND) printf("rank %d sent its %d bytes to rank %d\n", rank, (int)a.buf.size, a.peer);
    if (a.kind == GOAL_RECV) printf("rank %d received %d bytes from rank %d\n", rank, (int)a.buf.size, a.peer);
}

int main(void) {
    goal_algo_desc d = {0};
    goal_error err;
    int32_t data[P][2] = {{0}};          /* every rank's buffer: 2 ints (the OUT slot) */
    goal_slot slots[P][2];
    const goal_slot *per_rank[P];
    goal_world_run_desc run = {0};
    int r;

    d.algo = "bcast_binomial";           /* see goal gen --list for the others */
    d.root = ROOT;
    d.count = 2;
    d.dtype = GOAL_INT32;
    if (goal_algo_world(&world, &d, P, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }

    data[ROOT][0] = 42; data[ROOT][1] = 7;   /* only the root has the data to begin with */
    for (r = 0; r < P; r++) {
        slots[r][0].data = NULL; slots[r][0].size = 0;             /* slot 0, IN: unused */
        slots[r][1].data = data[r]; slots[r][1].size = sizeof data[r]; /* slot 1, OUT */
        per_rank[r] = slots[r];
    }
    run.world = world; run.slots = per_rank; run.nslots = 2;
    run.trace = show;                    /* deterministic run: ranks take turns */
    if (goal_world_run(&run, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    for (r = 0; r < P; r++) printf("rank %d holds %d %d\n", r, (int)data[r][0], (int)data[r][1]);
    goal_world_destroy(world);
    return 0;
}
