/* algo_chain.c - the pipelined chain broadcast (GOAL paper, section IV.C): the root cuts its
   message into segments and each rank forwards segment k to the next rank as soon as it has
   it, while segment k+1 is still on its way. Here 4 ranks, 40 bytes in 16-byte segments
   (16 + 16 + 8). The schedule of each rank is printed in the paper's textual GOAL. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include <stdio.h>
#include <string.h>

enum { P = 4, BYTES = 40 };

static int print(void *user, const char *text, size_t len) { (void)user; fwrite(text, 1, len, stdout); return 0; }

int main(void) {
    goal_algo_desc d = {0};
    goal_world *w;
    goal_error err;
    char buf[P][BYTES];
    goal_slot slots[P][2];
    const goal_slot *per_rank[P];
    goal_world_run_desc rd = {0};
    int r;
    d.algo = "bcast_chain"; d.count = BYTES; d.segment = 16; d.dtype = GOAL_UINT8;   /* count is bytes */
    if (goal_algo_world(&w, &d, P, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    goal_world_write(w, GOAL_DIALECT_PAPER, print, NULL);        /* "1:16,16" = slot 1, offset 16, 16 bytes */

    memset(buf, '.', sizeof buf);
    memcpy(buf[0], "pipelines keep every link of chain busy!", BYTES);
    for (r = 0; r < P; r++) {
        slots[r][0].data = NULL; slots[r][0].size = 0;
        slots[r][1].data = buf[r]; slots[r][1].size = BYTES;
        per_rank[r] = slots[r];
    }
    rd.world = w; rd.slots = per_rank; rd.nslots = 2; rd.threads = 1;   /* one thread per rank */
    if (goal_world_run(&rd, &err) != GOAL_OK) { printf("%s\n", err.msg); return 1; }
    for (r = 0; r < P; r++) printf("rank %d: %.*s\n", r, BYTES, buf[r]);
    goal_world_destroy(w);
    return 0;
}
