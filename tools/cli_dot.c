/* goal dot: Graphviz DOT of one rank's DAG, or of all ranks and their messages (goal_sim.h). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_dot(int argc, char **argv) {
    const char *file = NULL, *out = NULL, *v;
    long long rank = -1;
    goal_world *w;
    void *f;
    goal_status st;
    int i, rc;
    char **rest = argv;
    int nrest = 1;
    goal_sim_dot_desc dd;
    memset(&dd, 0, sizeof dd);
    for (i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--rank", &v)) {
            if (!cli_int(v, 0, 0x7FFFFFFF, &rank)) return cli_usage("dot: --rank takes a rank number");
        } else if (strcmp(argv[i], "--fold") == 0) dd.fold = 1;
        else rest[nrest++] = argv[i];
    }
    if ((rc = cli_sim_args(nrest, rest, &file, NULL, &out)) || (rc = cli_load_world(file, &w))) return rc;
    if (rank < 0 && cli_world_fits(file, w)) rc = CLI_BAD_INPUT;
    else if (rank >= goal_world_nranks(w)) rc = cli_fail("dot: rank %lld is out of range (%d ranks)", rank, goal_world_nranks(w));
    else if (!(f = cli_open_out(out))) rc = CLI_BAD_INPUT;
    else {
        st = goal_sim_write_dot(w, (int)rank, &dd, cli_write_file, f);
        rc = cli_finish_out(f, st == GOAL_OK);
        if (st != GOAL_OK) rc = cli_fail("dot: %s", goal_strerror(st));
    }
    goal_world_destroy(w);
    return rc;
}
