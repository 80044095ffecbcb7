/* algo_aspen.c - Aspen's reduction (ICS'08, section 3.2) on the paper's Figure 4: 8
   participants (ranks 0..7) add up their values, and the result goes to 5 receivers: ranks 0
   and 1 (participants) and ranks 8, 9, 10 (not participants). The algorithm halves the
   participants while they outnumber twice the receivers, runs a butterfly on the rest with
   its last step pruned, and then delivers to the non-participants: 4 rounds here. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include <stdio.h>

enum { P = 11 };

int main(void) {
    static const int participants[8] = {0, 1, 2, 3, 4, 5, 6, 7}, receivers[5] = {0, 1, 8, 9, 10};
    goal_algo_desc d = {0};
    goal_world *w;
    goal_error err;
    double in[P], out[P];
    goal_slot slots[P][2];
    const goal_slot *per_rank[P];
    goal_world_run_desc rd = {0};
    int r;
    d.algo = "reduce_aspen"; d.count = 1; d.dtype = GOAL_FLOAT64; d.op = GOAL_OP_SUM;
    d.participants = participants; d.nparticipants = 8;
    d.receivers = receivers; d.nreceivers = 5;
    if (goal_algo_world(&w, &d, P, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    for (r = 0; r < P; r++) {
        goal_schedule s;
        in[r] = r < 8 ? r + 1 : 0;   /* participants bring 1..8: the sum is 36 */
        out[r] = -1;
        slots[r][0].data = &in[r]; slots[r][0].size = 8;
        slots[r][1].data = &out[r]; slots[r][1].size = 8;
        per_rank[r] = slots[r];
        goal_world_schedule(w, r, &s);
        printf("rank %2d: %u actions\n", r, (unsigned)s.nactions);
    }
    rd.world = w; rd.slots = per_rank; rd.nslots = 2;
    if (goal_world_run(&rd, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    for (r = 0; r < P; r++) printf("rank %2d result %g%s\n", r, out[r], out[r] < 0 ? " (not a receiver)" : "");
    goal_world_destroy(w);
    return 0;
}
