/* goal dot: Graphviz DOT of one rank's DAG, or of all ranks and their messages (goal_sim.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

typedef struct dot_args {
    long long rank;            /* -1: all ranks */
    int fold;
    const char *out;
} dot_args;
const cli_option cli_dot_options[] = {
    {"--rank", "R", "all ranks", "draw one rank's DAG", cli_set_int, offsetof(dot_args, rank), 0, 0x7FFFFFFF, "takes a rank number"},
    {"--fold", NULL, NULL, "leave out nops and local copies, joining their edges", cli_set_flag, offsetof(dot_args, fold), 0, 0, NULL},
    CLI_OUT_ROW("output file", dot_args, out),
    CLI_END};

int cli_dot(int argc, char **argv) {
    dot_args a = {-1, 0, NULL};
    cli_form form = {cli_dot_options, &a, NULL, NULL, "FILE", 1, NULL};
    const char *file, *out;
    long long rank;
    goal_world *w;
    void *f;
    goal_status st;
    int rc;
    goal_sim_dot_desc dd;
    memset(&dd, 0, sizeof dd);
    if ((rc = cli_parse(argc, argv, &form)) || (rc = cli_load_world(form.value, &w))) return rc;
    file = form.value;
    out = a.out;
    rank = a.rank;
    dd.fold = a.fold;
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
