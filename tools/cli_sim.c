/* goal sim: simulate a whole world (goal_sim.h). Here too: the model options and FILE and
   -o OUT, which check, dot, trace, svg, html and tune parse with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int model_params(const char *verb, const char *path, goal_sim_desc *d);

/* One model option at argv[*i] into d (goal_sim_param_arity: the library's one list, the
   same letters as LogGOPSim; --overhead is -o for the verbs where -o names the output;
   --params FILE reads them from a file). Returns 1 when it was one (and *rc = 2 after a
   usage message if its value is bad; 1 for a bad params file). */
int cli_model_opt(int argc, char **argv, int *i, goal_sim_desc *d, int *rc) {
    const char *v = NULL, *name = argv[*i];
    int arity = goal_sim_param_arity(name);
    goal_error err;
    if (strcmp(name, "--params") == 0 && cli_opt(argc, argv, i, "--params", &v)) {
        if (!v) *rc = cli_usage("%s: --params needs a file name", argv[0]);
        else if (model_params(argv[0], v, d)) *rc = CLI_BAD_INPUT;
        return 1;
    }
    if (arity < 0 || (arity && !cli_opt(argc, argv, i, name, &v))) return 0;
    if (goal_sim_param(d, name, v, &err) == GOAL_OK) return 1;
    if (strcmp(name, "-S") == 0) *rc = cli_usage("%s: -S %s", argv[0], err.msg);
    else *rc = cli_usage("%s: %s %s%s%s%s", argv[0], name, v ? v : "", v ? ": " : "", err.msg,
                         strcmp(name, "-o") == 0 ? "; -o is the CPU overhead here, not an output file" : "");
    return 1;
}

/* Options that change nothing alone: -T and -H go together, --intra-* need --node-size.
   Said on standard error; the run goes on. */
void cli_model_warn(const char *verb, const goal_sim_desc *d) {
    static const char *const intra[] = {"--intra-L", "--intra-o", "--intra-g", "--intra-G", "--intra-O"};
    const double v[] = {d->intra_L, d->intra_o, d->intra_g, d->intra_G, d->intra_O};
    int k;
    if ((d->T > 0) != (d->H != 0))
        fprintf(stderr, "goal: %s: warning: %s without %s changes nothing (-T B -H ns/B go together)\n", verb, d->T > 0 ? "-T" : "-H",
                d->T > 0 ? "-H" : "-T");
    for (k = 0; k < 5 && !d->node_size; k++)
        if (v[k] != 0) fprintf(stderr, "goal: %s: warning: %s without --node-size changes nothing\n", verb, intra[k]);
}

/* --params FILE: one line of model options as `goal sim` takes them (what `goal probe`
   prints), e.g. "-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536"; -o is the overhead here on
   every verb. The library parses it (goal_sim_params). Returns 0, or 1 after a message. */
static int model_params(const char *verb, const char *path, goal_sim_desc *d) {
    char *text;
    size_t len;
    goal_error err;
    goal_status st;
    if (cli_read_params(path, &text, &len)) return CLI_BAD_INPUT;
    st = goal_sim_params(d, text, len, &err);
    free(text);
    return st == GOAL_OK ? CLI_OK : cli_fail("%s: --params %s: %s", verb, path, err.msg);
}

/* FILE, the model options (when d) and -o OUT (when out). Returns 0 or 2. */
int cli_sim_args(int argc, char **argv, const char **file, goal_sim_desc *d, const char **out) {
    int i, rc = CLI_OK;
    const char *v;
    *file = NULL;
    for (i = 1; i < argc && rc == CLI_OK; i++) {
        if (out && cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) return cli_usage("%s: -o needs a file name", argv[0]);
            *out = v;
        } else if (d && cli_model_opt(argc, argv, &i, d, &rc)) {
            continue;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option(argv[0], argv[i]);
        } else if (*file) {
            return cli_usage("%s: one FILE only", argv[0]);
        } else {
            *file = argv[i];
        }
    }
    if (rc == CLI_OK && !*file) return cli_usage("%s: FILE is missing", argv[0]);
    if (rc == CLI_OK && d) cli_model_warn(argv[0], d);
    return rc;
}

/* A simulated time (ps) in ns: an integer when whole, else up to 3 decimals. */
const char *cli_time(uint64_t ps, char *buf) {
    size_t n;
    if (ps % 1000u == 0) { snprintf(buf, 32, "%llu", (unsigned long long)(ps / 1000u)); return buf; }
    n = (size_t)snprintf(buf, 32, "%llu.%03u", (unsigned long long)(ps / 1000u), (unsigned)(ps % 1000u));
    while (buf[n - 1] == '0') buf[--n] = 0;
    return buf;
}

/* "rank R LABEL (what it is)" for action at. */
static const char *sim_action(const goal_world *w, goal_sim_ref at, char *what, size_t len) {
    goal_sim_finding f;
    memset(&f, 0, sizeof f);
    f.kind = GOAL_SIM_BLOCKED; f.at = at; f.other.rank = -1; f.other.action = -1;
    goal_sim_finding_text(w, &f, what, len);
    *strchr(what, ':') = 0;
    return what;
}
int cli_sim_failed(const char *verb, const goal_world *w, const goal_sim_run_result *res, goal_status st) {
    size_t k;
    char what[200];
    if (st == GOAL_ERR_LIMIT && res->overflow.rank >= 0)
        return cli_fail("%s: simulated time overflows (past 2^64-1 ps, about 213 days) at %s", verb,
                        sim_action(w, res->overflow, what, sizeof what));
    if (st != GOAL_ERR_DEADLOCK && st != GOAL_ERR_MATCH) return cli_fail("%s: %s", verb, goal_strerror(st));
    for (k = 0; k < res->nstuck; k++) {
        fprintf(stderr, "goal: %s: %s\n", sim_action(w, res->stuck[k], what, sizeof what),
                st == GOAL_ERR_MATCH ? "its message is never received" : res->stuck_started[k] ? "started, never matched" : "never starts");
    }
    if (st == GOAL_ERR_MATCH)
        return cli_fail("%s: %lu message%s never received", verb, (unsigned long)res->nstuck, res->nstuck == 1 ? " was" : "s were");
    cli_fail("%s: deadlock: %lu action%s never complete%s", verb, (unsigned long)res->nstuck, cli_s(res->nstuck), res->nstuck == 1 ? "s" : "");
    return CLI_DEADLOCK;
}

/* --verbose: the model parameters used, the simulator's defaults (goal_sim_defaults) filled in. */
static double sim_param_used(double v) { return v == GOAL_SIM_ZERO ? 0 : v; }
static void sim_params(const goal_sim_desc *desc) {
    static const char *const names[] = {"-L", "--overhead", "-g", "-G", "-O", "-S", "-C"};
    static const char *const intra_names[] = {"--intra-L", "--intra-o", "--intra-g", "--intra-G", "--intra-O"};
    goal_sim_desc d;
    int k;
    if (goal_sim_defaults(desc, &d) != GOAL_OK) return;   /* the run says why */
    const double v[] = {d.L, d.o, d.g, d.G, d.O, (double)d.S, d.C};
    const double intra[] = {d.intra_L, d.intra_o, d.intra_g, d.intra_G, d.intra_O};
    fprintf(stderr, "goal sim: parameters");
    for (k = 0; k < 7; k++) fprintf(stderr, " %s %.15g", names[k], sim_param_used(v[k]));
    if (sim_param_used(d.R) > 0) fprintf(stderr, " -R %.15g", d.R);   /* only when set: LogGOPSim's line otherwise */
    if (d.T > 0) fprintf(stderr, " -T %lld -H %.15g", (long long)d.T, sim_param_used(d.H));
    if (d.node_size > 0) fprintf(stderr, " --node-size %ld", (long)d.node_size);
    for (k = 0; d.node_size > 0 && k < 5; k++) fprintf(stderr, " %s %.15g", intra_names[k], sim_param_used(intra[k]));
    fprintf(stderr, "%s\n", d.loggopsim_compat ? " --loggopsim-compat" : "");
}

/* --critical: the critical path, one event a line, earliest first. */
static void sim_critical(const goal_world *w, const goal_sim_timeline *t) {
    size_t k;
    for (k = 0; k < t->ncritical; k++) {
        const goal_sim_event *e = &t->events[t->critical[k]];
        char what[200] = "-";
        if (e->kind == GOAL_SIM_EV_MSG)
            printf("critical message %ld -> %ld round %lu %llu..%llu\n", (long)e->rank, (long)e->peer,
                   (unsigned long)t->round[t->critical[k]], (unsigned long long)e->start, (unsigned long long)e->end);
        else {
            if (e->action >= 0) goal_sim_action_text(w, e->rank, e->action, what, sizeof what);
            printf("critical rank %ld %s %llu..%llu\n", (long)e->rank, what, (unsigned long long)e->start, (unsigned long long)e->end);
        }
    }
}
int cli_sim(int argc, char **argv) {
    const char *file;
    goal_world *w;
    goal_sim_desc d;
    goal_sim_timeline t;
    goal_sim_run_result *res = &t.result;
    goal_status st;
    int32_t r;
    int rc, i, n = 1, critical = 0, verbose = 0, ncoll = 0;
    char tb[32], **coll = (char **)calloc((size_t)argc, sizeof *coll);
    memset(&d, 0, sizeof d);
    if (!coll) return cli_fail("sim: out of memory");
    for (i = 1; i < argc; i++) {   /* --critical, --verbose and --coll out, the rest to the shared parser */
        if (strcmp(argv[i], "--critical") == 0) critical = 1;
        else if (strcmp(argv[i], "--verbose") == 0) verbose = 1;
        else if (strcmp(argv[i], "--coll") == 0 && i + 1 < argc) coll[ncoll++] = argv[++i];
        else if (strcmp(argv[i], "--coll") == 0) { free(coll); return cli_usage("sim: --coll needs COLL=ALGO"); }
        else argv[n++] = argv[i];
    }
    rc = cli_sim_args(n, argv, &file, &d, NULL);
    if (rc || (rc = cli_load_world(file, &w))) { free(coll); return rc; }
    if (ncoll && (rc = cli_replan("sim", &w, coll, ncoll)) != CLI_OK) { free(coll); goal_world_destroy(w); return rc; }
    free(coll);
    if (cli_world_fits(file, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }
    if (verbose) sim_params(&d);
    st = critical ? goal_sim_timeline_run(w, &d, &t) : goal_sim_run(w, &d, res);
    if (!critical) t.ncritical = 0;
    if (st != GOAL_OK) rc = cli_sim_failed("sim", w, res, st);
    for (r = 0; st == GOAL_OK && r < res->nranks; r++) printf("rank %ld %s\n", (long)r, cli_time(res->finish_ps[r], tb));
    if (st == GOAL_OK) printf("max %s\n", cli_time(res->max_ps, tb));
    if (st == GOAL_OK && critical) sim_critical(w, &t);
    if (critical) goal_sim_timeline_free(&t); else goal_sim_run_free(res);
    goal_world_destroy(w);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
