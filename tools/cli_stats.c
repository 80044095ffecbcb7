/* goal stats: actions, edges, bytes and local copies per rank. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Bytes moved by the local copies (exec copy actions) of one rank's schedule. */
static unsigned long long copy_bytes(const goal_schedule *s) {
    unsigned long long b = 0;
    uint32_t i;
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        goal_schedule_action(s, i, &a);
        if (a.kind == GOAL_EXEC && a.op == GOAL_OP_COPY) b += a.buf.size;
    }
    return b;
}

int cli_stats(int argc, char **argv) {
    goal_world *w;
    unsigned long long ta = 0, te = 0, tb = 0, tc = 0;
    int r, rc;
    const char *file = cli_file_only(argc, argv, &rc);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    if (cli_world_fits(file, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }   /* a line per rank, unset ones too */
    for (r = 0; r < goal_world_nranks(w); r++) {
        goal_schedule s;
        unsigned long long cb;
        goal_world_schedule(w, r, &s);
        cb = copy_bytes(&s);
        printf("rank %d actions %lu edges %lu bytes %lu copy %llu\n", r, (unsigned long)s.nactions, (unsigned long)s.nedges,
               (unsigned long)s.size, cb);
        ta += s.nactions; te += s.nedges; tb += s.size; tc += cb;
    }
    printf("total actions %llu edges %llu bytes %llu copy %llu\n", ta, te, tb, tc);
    goal_world_destroy(w);
    return cli_close_out(stdout);
}
