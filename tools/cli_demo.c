/* goal demo: the story of libgoal in one run, on an embedded default — generate two
   algorithms for a small p, verify them, simulate them, run them in-process with the data
   checked, and draw them, printing where the pictures are. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "../goal_algos.h"
#include "../goal_sim.h"

enum { DEMO_P = 8 };

/* Opens DIR/NAME.EXT for writing (cli_open_out: renamed into place when complete); NULL
   after a message. */
static FILE *demo_open(const char *dir, const char *name, const char *ext, char *path, size_t len) {
    snprintf(path, len, "%s/%s.%s", dir, name, ext);
    return (FILE *)cli_open_out(path);
}
/* mkdir -p DIR: every missing parent too. 0, or 1 after a message. */
static int demo_mkdir(const char *dir) {
    char path[1024];
    size_t k, n = strlen(dir);
    if (n >= sizeof path) return cli_fail("demo: %s: name too long", dir);
    memcpy(path, dir, n + 1);
    for (k = 1; k <= n; k++) {
        if (path[k] != '/' && path[k] != 0) continue;
        path[k] = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return cli_fail("demo: cannot create %s: %s", path, strerror(errno));
        path[k] = k < n ? '/' : 0;
    }
    return CLI_OK;
}
static int demo_pictures(const char *dir, const char *name, const goal_world *w, const goal_sim_desc *sd) {
    char path[1024];
    FILE *f;
    int bad = 0;
    if ((f = demo_open(dir, name, "goal", path, sizeof path))) {
        bad |= goal_world_write(w, GOAL_DIALECT_PAPER, cli_write_file, f) != GOAL_OK;
        bad |= cli_close_out(f) != CLI_OK;
        printf("    text     %s\n", path);
    }
    if ((f = demo_open(dir, name, "dot", path, sizeof path))) {
        bad |= goal_sim_write_dot(w, -1, NULL, cli_write_file, f) != GOAL_OK;
        bad |= cli_close_out(f) != CLI_OK;
        printf("    graph    %s   (dot -Tsvg %s > %s/%s-graph.svg)\n", path, path, dir, name);
    }
    if ((f = demo_open(dir, name, "svg", path, sizeof path))) {
        bad |= goal_sim_write_svg(w, sd, cli_write_file, f) != GOAL_OK;
        bad |= cli_close_out(f) != CLI_OK;
        printf("    timeline %s   (open in a browser)\n", path);
    }
    snprintf(path, sizeof path, "%s/%s.html", dir, name);
    bad |= cli_html_write(w, sd, name, path) != CLI_OK;
    printf("    page     %s   (open in a browser: step through the run, click an action)\n", path);
    if ((f = demo_open(dir, name, "json", path, sizeof path))) {
        bad |= goal_sim_write_trace(w, sd, cli_write_file, f) != GOAL_OK;
        bad |= cli_close_out(f) != CLI_OK;
        printf("    trace    %s   (open in https://ui.perfetto.dev)\n", path);
    }
    return bad || !f;
}
static int demo_one(const char *dir, goal_algo_desc *d, const char *story) {
    goal_world *w = NULL;
    goal_error err;
    goal_sim_check_result cr;
    goal_sim_run_result sr;
    goal_sim_desc sd;
    goal_status st;
    char msg[GOAL_MSG_MAX];
    int bad = 0, r;
    printf("\n== %s on %d ranks: %s\n", d->algo, DEMO_P, story);
    if (goal_algo_world(&w, d, DEMO_P, &err) != GOAL_OK) return cli_fail("demo: %s", err.msg);
    printf("  generate: %d ranks", DEMO_P);
    for (r = 0; r < DEMO_P; r++) {
        goal_schedule s;
        goal_world_schedule(w, r, &s);
        printf("%s%u", r ? " " : ", actions per rank ", (unsigned)s.nactions);
    }
    printf("\n");
    st = goal_sim_check(w, NULL, &cr);
    printf("  verify:   %s, %lu messages matched\n", st == GOAL_OK ? "every send meets its receive, no deadlock" : "FINDINGS",
           (unsigned long)cr.npairs);
    bad |= st != GOAL_OK;
    goal_sim_check_free(&cr);
    memset(&sd, 0, sizeof sd);
    st = goal_sim_run(w, &sd, &sr);
    if (st == GOAL_OK) printf("  simulate: LogGOPS (LogGOPSim's defaults): done at %llu ns, last rank %d\n",
                              (unsigned long long)sr.max, (int)sr.max_rank);
    bad |= st != GOAL_OK;
    goal_sim_run_free(&sr);
    bad |= cli_algo_verify(d, DEMO_P, msg, sizeof msg);
    printf("  run:      in-process ranks on random data: %s\n", msg);
    printf("  draw:\n");
    bad |= demo_pictures(dir, d->algo, w, &sd);
    goal_world_destroy(w);
    return bad;
}
typedef struct demo_args { const char *dir; } demo_args;
const cli_option cli_demo_options[] = {
    {"-o", "DIR", "build/demo", "where the pictures go", cli_set_text, offsetof(demo_args, dir), 0, 0, "needs a directory name"},
    CLI_END};
int cli_demo(int argc, char **argv) {
    demo_args a = {"build/demo"};
    cli_form f = {cli_demo_options, &a, NULL, NULL, NULL, 0, NULL};
    const char *dir;
    int bad = 0, rc;
    static const int receivers[] = {0, 5};
    goal_algo_desc d;
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    dir = a.dir;
    if (demo_mkdir(dir)) return CLI_BAD_INPUT;
    printf("libgoal %s: one rank's part of a collective is a DAG of send, recv and exec actions.\n", goal_version());
    memset(&d, 0, sizeof d);
    d.algo = "bcast_binomial"; d.count = 4; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM;
    bad |= demo_one(dir, &d, "the GOAL paper's Listing 2, 4 int32 from rank 0");
    memset(&d, 0, sizeof d);
    d.algo = "reduce_aspen"; d.count = 4; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM;
    d.receivers = receivers; d.nreceivers = 2;
    bad |= demo_one(dir, &d, "Aspen's reduce, sum of 4 int32 delivered to ranks 0 and 5");
    printf("\n%s\n", bad ? "demo: something above FAILED" : "demo: all ok. Next: build/goal --help, and README.md");
    return bad ? CLI_BAD_INPUT : CLI_OK;
}
