/* goal sim: simulate a whole world (goal_sim.h). Here too: how every simulating verb says why
   a simulation stopped, and a simulated time (cli_sim_failed, cli_time). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../goal_analyze.h"

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
/* The table of costs per byte, as -T and -H take it: " -T 131072,524288 -H 0.06,0.1". */
static void sim_table(const goal_sim_desc *d) {
    int k;
    fprintf(stderr, " -T %lld", (long long)d->T);
    for (k = 0; k < GOAL_SIM_TABLE_MAX - 1 && d->T_more[k] > 0; k++) fprintf(stderr, ",%lld", (long long)d->T_more[k]);
    fprintf(stderr, " -H %.15g", sim_param_used(d->H));
    for (k = 0; k < GOAL_SIM_TABLE_MAX - 1 && d->T_more[k] > 0; k++) fprintf(stderr, ",%.15g", sim_param_used(d->H_more[k]));
}
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
    if (d.K != d.C) fprintf(stderr, " -K %.15g", sim_param_used(d.K));   /* only when apart from -C */
    if (sim_param_used(d.R) > 0) fprintf(stderr, " -R %.15g", d.R);   /* only when set: LogGOPSim's line otherwise */
    if (d.T > 0) sim_table(&d);
    if (sim_param_used(d.E) > 0) fprintf(stderr, " -E %.15g", d.E);
    if (sim_param_used(d.F) > 0) fprintf(stderr, " -F %.15g", d.F);
    if (d.node_size > 0) fprintf(stderr, " --node-size %ld", (long)d.node_size);
    for (k = 0; d.node_size > 0 && k < 5; k++) fprintf(stderr, " %s %.15g", intra_names[k], sim_param_used(intra[k]));
    fprintf(stderr, "%s%s\n", d.shared_memory ? " --shared-memory" : "", d.loggopsim_compat ? " --loggopsim-compat" : "");
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
typedef struct sim_args {
    goal_sim_desc model;
    int verbose, critical;
    const char *coll[GOAL_ANALYZE_NCOLLS];   /* --coll COLL=ALGO, as given (cli_replan reads them) */
    int ncoll;
} sim_args;
/* --coll: appended to the list (one per collective at most). */
static int sim_set_coll(const char *verb, const cli_option *o, const char *v, void *field) {
    sim_args *a = (sim_args *)field;
    if (!v) return -1;
    if (a->ncoll == GOAL_ANALYZE_NCOLLS) return cli_usage("%s: %s at most %d times", verb, o->name, GOAL_ANALYZE_NCOLLS);
    a->coll[a->ncoll++] = v;
    return CLI_OK;
}
const cli_option cli_sim_options[] = {
    {"-o", "ns", "1500", "CPU overhead per message (same as --overhead)", cli_set_model, offsetof(sim_args, model), 0, 0, NULL},
    {"--verbose", NULL, NULL, "print the parameters used on standard error", cli_set_flag, offsetof(sim_args, verbose), 0, 0, NULL},
    {"--critical", NULL, NULL, "then the critical path, one event a line (critical rank R ... / critical message S -> R round K ...)",
     cli_set_flag, offsetof(sim_args, critical), 0, 0, NULL},
    {"--coll", "COLL=ALGO", NULL, "a recording: its calls of COLL re-generated with ALGO (allreduce=ring, allreduce=dissemination@nway=3); repeatable",
     sim_set_coll, 0, 0, 0, "needs COLL=ALGO"},
    CLI_END};

int cli_sim(int argc, char **argv) {
    const char *file;
    goal_world *w;
    sim_args a;
    cli_form f = {cli_sim_options, &a, cli_model_options, &a.model, "FILE", 1, NULL};
    goal_sim_timeline t;
    goal_sim_run_result *res = &t.result;
    goal_status st;
    int32_t r;
    int rc;
    char tb[32];
    memset(&a, 0, sizeof a);
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    if ((rc = cli_model_check("sim", &a.model))) return rc;
    file = f.value;
    if ((rc = cli_load_world(file, &w))) return rc;
    if (a.ncoll && (rc = cli_replan("sim", &w, a.coll, a.ncoll)) != CLI_OK) { goal_world_destroy(w); return rc; }
    if (cli_world_fits(file, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }
    if (a.verbose) sim_params(&a.model);
    st = a.critical ? goal_sim_timeline_run(w, &a.model, &t) : goal_sim_run(w, &a.model, res);
    if (!a.critical) t.ncritical = 0;
    if (st != GOAL_OK) rc = cli_sim_failed("sim", w, res, st);
    for (r = 0; st == GOAL_OK && r < res->nranks; r++) printf("rank %ld %s\n", (long)r, cli_time(res->finish_ps[r], tb));
    if (st == GOAL_OK) printf("max %s\n", cli_time(res->max_ps, tb));
    if (st == GOAL_OK && a.critical) sim_critical(w, &t);
    if (a.critical) goal_sim_timeline_free(&t); else goal_sim_run_free(res);
    goal_world_destroy(w);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
