/* goal dot / trace / svg: pictures of a world and of its simulated timeline (goal_sim.h). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Writes with draw(w, ...) to OUT; a simulation that cannot finish exits 3. */
static int draw_out(const goal_world *w, const char *out, goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *),
                    const goal_sim_desc *d) {
    void *f = cli_open_out(out);
    goal_status st;
    int rc;
    if (!f) return CLI_BAD_INPUT;
    st = draw(w, d, cli_write_file, f);
    rc = cli_close_out(f);
    if (st == GOAL_ERR_DEADLOCK) { cli_fail("%s (run goal sim FILE for the stuck actions)", goal_strerror(st)); return CLI_DEADLOCK; }
    if (st == GOAL_ERR_LIMIT) return cli_fail("simulated time overflows (past 2^64-1 ps) or 2^31 actions (goal sim FILE says which)");
    if (st != GOAL_OK) return cli_fail("%s", goal_strerror(st));
    return rc;
}
static int timeline(int argc, char **argv, goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *)) {
    const char *file, *out = NULL;
    goal_world *w;
    goal_sim_desc d;
    int rc;
    memset(&d, 0, sizeof d);
    rc = cli_sim_args(argc, argv, &file, &d, &out);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    rc = draw_out(w, out, draw, &d);
    goal_world_destroy(w);
    return rc;
}
int cli_trace(int argc, char **argv) { return timeline(argc, argv, goal_sim_write_trace); }
int cli_svg(int argc, char **argv) { return timeline(argc, argv, goal_sim_write_svg); }

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
    if (rank >= goal_world_nranks(w)) rc = cli_fail("dot: rank %lld is out of range (%d ranks)", rank, goal_world_nranks(w));
    else if (!(f = cli_open_out(out))) rc = CLI_BAD_INPUT;
    else {
        st = goal_sim_write_dot_with(w, (int)rank, &dd, cli_write_file, f);
        rc = cli_close_out(f);
        if (st != GOAL_OK) rc = cli_fail("dot: %s", goal_strerror(st));
    }
    goal_world_destroy(w);
    return rc;
}
