/* goal analyze: wait sets, dataflow in SST form, collective detection and replacement
   (goal_analyze.h, the cDAG paper). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../goal_analyze.h"

enum { AN_WAITS = 1, AN_DATAFLOW, AN_COLLECTIVES, AN_REPLACE };

static int an_waits(const goal_world *w) {
    goal_analyze_waits_result r;
    goal_status st = goal_analyze_waits(w, NULL, &r, NULL);
    int32_t i;
    size_t k;
    if (st != GOAL_OK) return cli_fail("analyze: %s (goal check tells why)", goal_strerror(st));
    for (i = 0; i < r.nranks; i++) {
        size_t n = r.start[i + 1] - r.start[i];
        printf("rank %ld waits for %lu%s", (long)i, (unsigned long)n, n + 1 == (size_t)r.nranks ? " (all)" : "");
        for (k = r.start[i]; k < r.start[i + 1]; k++) printf(" %ld", (long)r.ranks[k]);
        putchar('\n');
    }
    goal_analyze_waits_free(&r);
    return CLI_OK;
}

/* A reduced tuple's sources after it: " from (rank,offset) ...". */
static void an_sources(const goal_analyze_result *r, const goal_analyze_tuple *t) {
    goal_analyze_source src[64];
    size_t n = goal_analyze_sources(r, t, src, 64), k;
    printf(" from");
    for (k = 0; k < n; k++) {
        if (src[k].slot) printf(" (%ld,%s%lu:%llu)", (long)src[k].rank, src[k].slot == GOAL_SLOT_SCRATCH ? "scratch" : "",
                                src[k].slot == GOAL_SLOT_SCRATCH ? 0ul : (unsigned long)src[k].slot, (unsigned long long)src[k].offset);
        else printf(" (%ld,%llu)", (long)src[k].rank, (unsigned long long)src[k].offset);
    }
    if (n == 64) printf(" ...");
}
static void an_dataflow(const goal_analyze_result *r) {
    size_t k;
    char buf[200];
    for (k = 0; k < r->ntuples; k++) {
        printf("%s", goal_analyze_tuple_text(&r->tuples[k], buf, sizeof buf));
        if (r->tuples[k].mix != GOAL_ANALYZE_NONE) an_sources(r, &r->tuples[k]);
        putchar('\n');
    }
}
/* One line per finding: KIND, then root, size and tuple count, or the tuple (p2p). */
static void an_collectives(const goal_analyze_result *r) {
    size_t k;
    char buf[200];
    for (k = 0; k < r->nfindings; k++) {
        const goal_analyze_finding *f = &r->findings[k];
        printf("%s", goal_analyze_kind_name(f->kind));
        if (f->kind == GOAL_ANALYZE_P2P) printf(" %s", goal_analyze_tuple_text(&r->tuples[r->members[f->first]], buf, sizeof buf));
        else if (f->kind == GOAL_ANALYZE_BARRIER) printf(" ranks %ld", (long)r->nranks);
        else {
            if (f->root >= 0) printf(" root %ld", (long)f->root);
            printf(" size %llu tuples %lu", (unsigned long long)f->size, (unsigned long)f->count);
        }
        putchar('\n');
    }
}

/* A recording's calls, named by its anchors (goal_analyze.h RE-PLANNING): "recorded COLL calls N". */
static void an_recorded(const goal_world *w) {
    size_t calls[GOAL_ANALYZE_NCOLLS];
    int k;
    goal_analyze_recorded(w, calls);
    for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++)
        if (calls[k]) printf("recorded %s calls %lu\n", goal_analyze_coll_name(k), (unsigned long)calls[k]);
}

typedef struct an_args {
    int mode;
    const char *out;
    goal_analyze_replace_desc rd;
} an_args;
/* --waits etc.: one of them, its mode in the row's lo. */
static int an_set_mode(const char *verb, const cli_option *o, const char *v, void *field) {
    (void)verb; (void)v;
    if (*(int *)field) return cli_usage("analyze: one of --waits, --dataflow, --collectives, --replace");
    *(int *)field = (int)o->lo;
    return CLI_OK;
}
/* --bcast ALGO etc.: an algorithm of goal_algos.h, else the closest one named. */
static int an_set_algo(const char *verb, const cli_option *o, const char *v, void *field) {
    const char *near = v && !goal_algo_find(v) ? cli_algo_suggest(v) : NULL;
    (void)verb;
    if (v && goal_algo_find(v)) { *(const char **)field = v; return CLI_OK; }
    return cli_usage("analyze: %s needs an algorithm name (goal_algos.h), not '%s'%s%s%s", o->name, v ? v : "",
                     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}
#define AN_MODE(name, m, help) {name, NULL, NULL, help, an_set_mode, offsetof(an_args, mode), m, 0, NULL}
#define AN_ALGO(coll, def, help) {"--" #coll, "ALGO", def, help, an_set_algo, offsetof(an_args, rd.coll), 0, 0, NULL}
const cli_option cli_analyze_options[] = {
    AN_MODE("--waits", AN_WAITS, "the ranks each rank synchronises with"),
    AN_MODE("--dataflow", AN_DATAFLOW, "where every range of user memory comes from (the SST)"),
    AN_MODE("--collectives", AN_COLLECTIVES, "the collectives found, one per line (a recording: first recorded COLL calls N)"),
    AN_MODE("--replace", AN_REPLACE, "the world with every collective replaced by a libgoal algorithm"),
    CLI_OUT_ROW("output file of --replace", an_args, out),
    AN_ALGO(bcast, "bcast_binomial", "--replace: algorithm for broadcasts"),
    AN_ALGO(barrier, "barrier_dissemination", "--replace: algorithm for barriers"),
    AN_ALGO(gather, "gather_binomial", "--replace: algorithm for gathers"),
    AN_ALGO(scatter, "scatter_binomial", "--replace: algorithm for scatters"),
    AN_ALGO(allgather, "allgather_bruck", "--replace: algorithm for allgathers"),
    AN_ALGO(alltoall, "alltoall_bruck", "--replace: algorithm for alltoalls"),
    CLI_END};
static int an_args_parse(int argc, char **argv, an_args *a, const char **file) {
    cli_form f = {cli_analyze_options, a, NULL, NULL, "FILE", 1, NULL};
    int rc = cli_parse(argc, argv, &f);
    *file = f.value;
    if (rc != CLI_OK) return rc;
    if (!a->mode) return cli_usage("analyze: say what: --waits, --dataflow, --collectives or --replace -o OUT");
    if ((a->mode == AN_REPLACE) != (a->out != NULL)) return cli_usage("analyze: -o OUT goes with --replace (and only with it)");
    return CLI_OK;
}
/* The replaced world as paper-dialect text into OUT; what replaced what on stdout. */
static int an_replace(const goal_world *w, const goal_analyze_result *r, goal_analyze_replace_desc *d, const char *path) {
    goal_world *nw;
    goal_error err;
    void *f;
    size_t k;
    int rc;
    if (!(d->chosen = (const char **)calloc(r->nfindings + 1, sizeof *d->chosen))) return cli_fail("analyze: out of memory");
    rc = goal_analyze_replace(w, r, d, &nw, &err) != GOAL_OK;
    for (k = 0; k < r->nfindings && !rc; k++) {
        const goal_analyze_finding *fi = &r->findings[k];
        const char *by = d->chosen[k] ? d->chosen[k] : "direct messages";
        if (fi->kind != GOAL_ANALYZE_P2P) printf("%s size %llu: %s\n", goal_analyze_kind_name(fi->kind), (unsigned long long)fi->size, by);
    }
    free((void *)d->chosen);
    if (rc) return cli_fail("analyze: %s", err.msg);
    if (!(f = cli_open_out(path))) { goal_world_destroy(nw); return CLI_BAD_INPUT; }
    rc = goal_world_write(nw, GOAL_DIALECT_PAPER, cli_write_file, f) != GOAL_OK;
    rc |= cli_finish_out(f, !rc);
    goal_world_destroy(nw);
    return rc ? cli_fail("analyze: cannot write %s", path) : CLI_OK;
}

int cli_analyze(int argc, char **argv) {
    const char *file;
    int mode, rc;
    goal_world *w;
    an_args a;
    goal_analyze_desc d;
    goal_analyze_result r;
    goal_error err;
    memset(&a, 0, sizeof a);
    memset(&d, 0, sizeof d);
    if ((rc = an_args_parse(argc, argv, &a, &file)) || (rc = cli_load_world(file, &w))) return rc;
    mode = a.mode;
    if (cli_world_fits(file, w)) rc = CLI_BAD_INPUT;
    else if (mode == AN_WAITS) rc = an_waits(w);
    else if (mode == AN_COLLECTIVES) an_recorded(w);
    if (rc == CLI_OK && mode != AN_WAITS) {
        if (goal_analyze(w, &d, &r, &err) != GOAL_OK)
            rc = cli_fail("%s: %s%s", file, err.msg, err.status == GOAL_ERR_MATCH ? " (goal check FILE lists every finding)" : "");
        else {
            if (mode == AN_DATAFLOW) an_dataflow(&r);
            if (mode == AN_COLLECTIVES) an_collectives(&r);
            if (mode == AN_REPLACE) rc = an_replace(w, &r, &a.rd, a.out);
            goal_analyze_free(&r);
        }
    }
    goal_world_destroy(w);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}

/* ---- re-planning a recording (sim --coll, tune on a recording) -------------------------------- */
/* ALGO's "@nway=N", "@segment=B", "@radix=K" (as goal tune and GOAL_MPI_ALGOS write them),
   cut off at at, into plan: 0, or 2 after a usage message. */
static int replan_params(const char *verb, char *at, goal_analyze_plan *plan) {
    long long v;
    while (at && *at == '@') {
        char *next = strchr(at + 1, '@'), *eq = strchr(at + 1, '=');
        if (next) *next = 0;
        if (!eq || !cli_int(eq + 1, 1, 1LL << 40, &v)) return cli_usage("%s: --coll: '@%s' is not @nway=N, @segment=B or @radix=K", verb, at + 1);
        *eq = 0;
        if (strcmp(at + 1, "nway") == 0 && v < 1000) plan->nway = (int)v;
        else if (strcmp(at + 1, "radix") == 0 && v < 1000) plan->radix = (int)v;
        else if (strcmp(at + 1, "segment") == 0) plan->segment = (uint64_t)v;
        else return cli_usage("%s: --coll: '@%s' is not @nway=N, @segment=B or @radix=K", verb, at + 1);
        at = next ? next : NULL;
        if (at) *at = '@';
    }
    return CLI_OK;
}
/* COLL=ALGO[@PARAM=V...] into plan (coll and algo: len bytes each, kept by the caller): 0,
   or 2 after a usage message (an unknown collective or algorithm, a bad parameter). */
static int replan_spec(const char *verb, const char *spec, goal_analyze_plan *plan, char *coll, char *algo, size_t len) {
    const char *eq = strchr(spec, '='), *names[GOAL_ANALYZE_NCOLLS + 1];
    size_t n = eq ? (size_t)(eq - spec) : 0;
    char *at;
    int k, rc;
    if (!eq || n == 0 || n >= len || !eq[1] || strlen(eq + 1) >= len)
        return cli_usage("%s: --coll takes COLL=ALGO, e.g. allreduce=allreduce_ring (or allreduce=ring)", verb);
    memcpy(coll, spec, n);
    coll[n] = 0;
    strcpy(algo, eq + 1);
    if ((at = strchr(algo, '@')) != NULL && (rc = replan_params(verb, at, plan)) != CLI_OK) return rc;
    if (at) *at = 0;
    for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++) names[k] = goal_analyze_coll_name(k);
    names[k] = NULL;
    for (k = 0; k < GOAL_ANALYZE_NCOLLS && strcmp(names[k], coll) != 0; k++) {}
    if (k == GOAL_ANALYZE_NCOLLS) {
        const char *near = cli_suggest(coll, names, -1);
        return cli_usage("%s: --coll: unknown collective '%s'%s%s%s", verb, coll, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    plan->coll = names[k];
    plan->algo = algo;
    if (goal_analyze_coll_algo(coll, algo)) return CLI_OK;
    if (!goal_algo_find(algo) && !cli_algo_name(algo)) return cli_unknown_algo(verb, algo);
    return cli_usage("%s: --coll %s: '%s' is not an algorithm of %s (goal help gen lists them)", verb, spec, algo, coll);
}
int cli_replan(const char *verb, goal_world **w, const char *const *specs, int n) {
    goal_analyze_plan plans[GOAL_ANALYZE_NCOLLS];
    char colls[GOAL_ANALYZE_NCOLLS][96], algos[GOAL_ANALYZE_NCOLLS][96];
    goal_analyze_replan_desc d;
    goal_world *out;
    goal_error err;
    int k, rc;
    memset(plans, 0, sizeof plans);
    for (k = 0; k < n; k++)
        if ((rc = replan_spec(verb, specs[k], &plans[k], colls[k], algos[k], sizeof colls[k])) != CLI_OK) return rc;
    memset(&d, 0, sizeof d);
    d.plans = plans; d.nplans = (size_t)n;
    if (goal_analyze_replan(*w, &d, &out, &err) != GOAL_OK) return cli_fail("%s: --coll: %s", verb, err.msg);
    for (k = 0; k < n; k++)
        if (!plans[k].calls) fprintf(stderr, "goal: %s: warning: the world calls no %s (no anchor %s_c...): nothing re-planned\n", verb, plans[k].coll, plans[k].coll);
    goal_world_destroy(*w);
    *w = out;
    return CLI_OK;
}
