/* algo_reduce.c - two ways to add up one number per rank: the binomial-tree reduce (the
   receive-reduce-send tree of the GOAL paper, result at the root only) and the n-way
   dissemination allreduce (Listing 3, result everywhere), on 7 ranks: not a power of two.
   Rank r contributes r + 1, so the sum is 28. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include <stdio.h>

enum { P = 7 };

/* Builds `algo` for P ranks, runs it, prints every rank's OUT (-1: not written). */
static int run(const char *algo, int nway) {
    goal_algo_desc d = {0};
    goal_world *w;
    goal_error err;
    int32_t in[P], out[P];
    goal_slot slots[P][2];
    const goal_slot *per_rank[P];
    goal_world_run_desc rd = {0};
    int r;
    d.algo = algo; d.count = 1; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM; d.root = 0; d.nway = nway;
    if (goal_algo_world(&w, &d, P, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    for (r = 0; r < P; r++) {
        in[r] = r + 1; out[r] = -1;
        slots[r][0].data = &in[r]; slots[r][0].size = 4;    /* slot 0: what rank r adds */
        slots[r][1].data = &out[r]; slots[r][1].size = 4;   /* slot 1: the result */
        per_rank[r] = slots[r];
    }
    rd.world = w; rd.slots = per_rank; rd.nslots = 2;
    if (goal_world_run(&rd, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    printf("%s (nway %d):", algo, nway);
    for (r = 0; r < P; r++) printf(" %d", (int)out[r]);
    printf("\n");
    goal_world_destroy(w);
    return 0;
}

int main(void) {
    /* Only rank 0 gets 28. Each inner rank waits for its children, adds, passes up. */
    if (run("reduce_binomial", 1)) return 1;
    /* Everyone gets 28: in round k rank i hears from i - 2^k (n = 1: Hensgen's original). */
    if (run("allreduce_dissemination", 1)) return 1;
    /* n = 2: three ranks per round instead of two, so 2 rounds instead of 3. */
    return run("allreduce_dissemination", 2);
}
