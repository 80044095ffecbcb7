/* goal trace: the simulated timeline as Chrome trace-event JSON (goal_sim.h). Here too: what
   goal svg shares with it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Why the drawing's simulation stopped with st, as goal sim says it (the drawing keeps no
   result: simulated again to find the action). */
static int draw_failed(const char *verb, const goal_world *w, const goal_sim_desc *d, goal_status st) {
    goal_sim_run_result res;
    int rc;
    if (st != GOAL_ERR_DEADLOCK && st != GOAL_ERR_MATCH && st != GOAL_ERR_LIMIT) return cli_fail("%s: %s", verb, goal_strerror(st));
    goal_sim_run(w, d, &res);
    rc = cli_sim_failed(verb, w, &res, st);
    goal_sim_run_free(&res);
    return rc;
}
/* Writes with draw(w, ...) to OUT; a simulation that cannot finish exits 3. */
static int draw_out(const char *verb, const goal_world *w, const char *out,
                    goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *), const goal_sim_desc *d) {
    void *f = cli_open_out(out);
    goal_status st;
    int rc;
    if (!f) return CLI_BAD_INPUT;
    st = draw(w, d, cli_write_file, f);
    rc = cli_finish_out(f, st == GOAL_OK);
    return st != GOAL_OK && st != GOAL_ERR_IO ? draw_failed(verb, w, d, st) : rc;
}
typedef struct draw_args {
    goal_sim_desc model;
    const char *out;
} draw_args;
const cli_option cli_trace_options[] = {CLI_OUT_ROW("output file", draw_args, out), CLI_END};   /* trace and svg */
int cli_timeline(int argc, char **argv, goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *)) {
    draw_args a;
    cli_form f = {cli_trace_options, &a, cli_model_options, &a.model, "FILE", 1, NULL};
    goal_world *w;
    int rc;
    memset(&a, 0, sizeof a);
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    if ((rc = cli_model_check(argv[0], &a.model))) return rc;
    if ((rc = cli_load_world(f.value, &w))) return rc;
    rc = cli_world_fits(f.value, w) ? CLI_BAD_INPUT : draw_out(argv[0], w, a.out, draw, &a.model);
    goal_world_destroy(w);
    return rc;
}
int cli_trace(int argc, char **argv) { return cli_timeline(argc, argv, goal_sim_write_trace); }
