/* goal tune: simulate every algorithm of each collective at p ranks and each size under one
   LogGOPS model, and print the fastest (or all): the table, the GOAL_MPI_ALGOS string, a plot.

   The algorithms come from goal_algos.h's registry: an algorithm belongs to the collective
   its registry row names (reduce_scatter_ring is a reduce_scatter, reduce_aspen a reduce),
   so generators added later join through their rows.
   Tunable parameters are searched over small grids, chosen by the algorithm's flags:
   nway (GOAL_ALGO_NWAY) over 1, 2, 3; segment (GOAL_ALGO_SEGMENTED) over 1, 8, 64, 512 KiB;
   radix (GOAL_ALGO_RADIX) over 2, 4, 8. A configuration is printed as ALGO@nway=N,
   ALGO@segment=B or ALGO@radix=K, which is also how GOAL_MPI_ALGOS names it (--format env).
   The search is goal_tune.h's planner (goal_tune_run, PLANNER there), which COLL_auto runs
   too (goal_tune_best): worlds too big to simulate quickly are left out (LIMITS there) and
   the output says so. Simulations run on one thread per core; without --all and --svg the
   planner prunes (only the winners matter), which changes how soon, not what is printed.
   This file is the verb: its options, the output (table, env, plot, notes), the progress,
   and the recording form (tune FILE). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../goal_analyze.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define TUNE_MAX_THREADS 8

#define TUNE_NCOLLS GOAL_COLL_NTUNED

typedef struct tune {
    goal_tune_plan pl;         /* the configurations and jobs, searched by goal_tune_run */
    long long p;
    goal_sim_desc model;
    uint64_t sizes[64];
    int nsizes, all, env;
    unsigned colls;            /* bit k: goal_sim_coll_name(k) asked for */
    const char *svg;
    const char *world;         /* FILE: a recording, tuned as a whole (tune_recording) */
    const char *coll_text;     /* --coll as given (a recording's collective names) */
    int sized;                 /* --sizes given (not for a recording) */
} tune;

/* ---- options -------------------------------------------------------------------------- */
static int tune_sizes(tune *t, const char *s) {
    long long x;
    char buf[32];
    size_t n;
    t->nsizes = 0;
    while (s && *s) {
        n = strcspn(s, ",");
        if (n == 0 || n >= sizeof buf || t->nsizes == 64) return 0;
        memcpy(buf, s, n);
        buf[n] = 0;
        if (!cli_int(buf, 0, 1LL << 40, &x)) return 0;
        t->sizes[t->nsizes++] = (uint64_t)x;
        s += n + (s[n] == ',');
    }
    return t->nsizes > 0;
}
static int tune_coll_list(tune *t, const char *s) {
    int k;
    size_t n;
    t->colls = 0;
    while (s && *s) {
        n = strcspn(s, ",");
        for (k = 0; k < TUNE_NCOLLS; k++)
            if (strlen(goal_sim_coll_name(k)) == n && strncmp(s, goal_sim_coll_name(k), n) == 0) break;
        if (k == TUNE_NCOLLS) return 0;
        t->colls |= 1u << k;
        s += n + (s[n] == ',');
    }
    return t->colls != 0;
}
/* Default sizes: 8 B to 16 MiB, powers of 4 from 8 (8, 32, ... 8 MiB) and 16 MiB. */
static void tune_default_sizes(tune *t) {
    uint64_t s;
    t->nsizes = 0;
    for (s = 8; s <= (16u << 20); s *= 4) t->sizes[t->nsizes++] = s;
    t->sizes[t->nsizes++] = 16u << 20;
}

/* --sizes and --format: into the whole tune (their rows' at is 0). --coll is kept as given:
   a recording's collective names are not tune's ten, and FILE may come after it. */
static int tune_set_sizes(const char *verb, const cli_option *o, const char *v, void *t) {
    (void)verb; (void)o;
    ((tune *)t)->sized = 1;
    return tune_sizes((tune *)t, v) ? CLI_OK : -1;
}
static int tune_set_format(const char *verb, const cli_option *o, const char *v, void *t) {
    (void)verb; (void)o;
    if (!v || (strcmp(v, "env") != 0 && strcmp(v, "table") != 0)) return -1;
    ((tune *)t)->env = strcmp(v, "env") == 0;
    return CLI_OK;
}
/* --coll's help and complaint name the tuned collectives of goal_algos.h's table, written
   by cli_tune_init: "bcast reduce ... scan" (room for twice today's). */
static char tune_coll_help[320], tune_coll_bad[240];
void cli_tune_init(void) {
    size_t n = 0;
    int k;
    char names[200];
    names[0] = 0;
    for (k = 0; k < TUNE_NCOLLS && n < sizeof names; k++)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? " " : "", goal_coll_get(k)->name);
    snprintf(tune_coll_help, sizeof tune_coll_help, "%s; a recording: its names, e.g. allreduce,reduce_scatter_block", names);
    snprintf(tune_coll_bad, sizeof tune_coll_bad, "takes a list of %s", names);
}
/* The rows from -o on are those of the recording form too (cli_tune_rec_options, cli.h). */
const cli_option cli_tune_options[] = {
    {"-p", "N", NULL, "number of ranks (required)", cli_set_int, offsetof(tune, p), 1, 1 << 24, "takes a number of ranks from 1 to 16777216"},
    {"--sizes", "LIST", "8,32,...,8388608,16777216", "message sizes in bytes (powers of 4 from 8, and 16 MiB)", tune_set_sizes, 0, 0, 0,
     "takes up to 64 byte counts, e.g. 8,1024,65536"},
    {"--svg", "OUT", NULL, "time against size, log-log, one panel per collective", cli_set_text, offsetof(tune, svg), 0, 0, "needs a file name"},
    {"-o", "ns", "1500", "CPU overhead per message (same as --overhead)", cli_set_model, offsetof(tune, model), 0, 0, NULL},
    {"--coll", "LIST", "all ten; a recording: every one it calls",
     tune_coll_help, cli_set_text, offsetof(tune, coll_text), 0, 0, tune_coll_bad},
    {"--all", NULL, NULL, "every configuration, not only the fastest", cli_set_flag, offsetof(tune, all), 0, 0, NULL},
    {"--format", "F", "table", "table (COLL SIZE ALGO TIME; a recording: COLL CALLS ALGO TIME) or env (the GOAL_MPI_ALGOS string)",
     tune_set_format, 0, 0, 0, "takes table or env"},
    CLI_END};
static int tune_args(int argc, char **argv, tune *t) {
    cli_form f = {cli_tune_options, t, cli_model_options, &t->model, "FILE", 0, NULL};
    int rc = cli_parse(argc, argv, &f);
    t->world = f.value;
    if (rc == CLI_OK && t->world && (t->p || t->sized || t->svg))
        return cli_usage("tune: unknown argument '%s' (a recording, FILE, takes no -p, --sizes or --svg)", t->world);
    if (rc == CLI_OK && t->world) return CLI_OK;
    if (rc == CLI_OK && t->coll_text && !tune_coll_list(t, t->coll_text)) return cli_usage("tune: --coll %s", tune_coll_bad);
    if (rc == CLI_OK && !t->p) return cli_usage("tune: -p N is missing");
    if (rc == CLI_OK) rc = cli_model_check("tune", &t->model);
    return rc;
}
/* ---- the search (goal_tune.h's planner) ------------------------------------------------ */
/* Every algorithm of an asked-for collective, once per point of its parameter grid. */
static int tune_configs(tune *t) {
    const goal_algo_info *a;
    int i, ok = 1;
    for (i = 0; ok && (a = goal_algo_list(i)) != NULL; i++) {
        /* vector collectives (gatherv_linear, reduce_scatterv_ring) need counts: not tuned */
        if ((a->flags & GOAL_ALGO_VECTOR) || (int)a->coll >= TUNE_NCOLLS || !(t->colls >> a->coll & 1)) continue;
        ok = goal_tune_add_algo(&t->pl, a, 1) == GOAL_OK;
    }
    return ok;
}
static void tune_progress(void *arg, unsigned long done, unsigned long total) {
    (void)arg;
    cli_progress_count(done, total, "configurations");
}
/* Every job allocates and frees a world and a simulator of up to some hundred MB: glibc
   would hand blocks above its mmap threshold back to the kernel at every free, which then
   zeroes fresh pages for the next job (at p = 2^16 about 12 s of system time in 160 s).
   Blocks are kept in the heap and reused instead: up to the threshold's ceiling (32 MB)
   by the threshold, and larger ones (a world's action lines) by allowing no mmap at all
   (a thread's arena still maps a block too large for its heap). */
static void tune_keep_memory(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}
/* The jobs, run on one thread per core (at most TUNE_MAX_THREADS); 0 when out of memory. */
static int tune_run(tune *t) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    t->pl.p = (int32_t)t->p;
    t->pl.model = t->model;
    t->pl.prune = !t->all && !t->svg;
    t->pl.threads = n < 1 ? 1 : n > TUNE_MAX_THREADS ? TUNE_MAX_THREADS : (int)n;
    t->pl.progress = tune_progress;
    return tune_configs(t) && goal_tune_add_jobs(&t->pl, t->colls, t->sizes, t->nsizes) == GOAL_OK && goal_tune_run(&t->pl, NULL) == GOAL_OK;
}

/* ---- output ---------------------------------------------------------------------------- */
/* COLL SIZE ALGO TIME: the winners, or (--all) every configuration that was simulated. */
static void tune_print_table(const tune *t, FILE *f) {
    int k;
    for (k = 0; k < t->pl.njob; k++) {
        const goal_tune_job *j = &t->pl.job[k];
        if (j->state == GOAL_TUNE_DONE && (j->win || t->all))
            fprintf(f, "%s %llu %s %.0f\n", goal_sim_coll_name(t->pl.cfg[j->cfg].coll), (unsigned long long)j->size, t->pl.cfg[j->cfg].label, j->time);
    }
}

/* What was left out: one line per configuration (from its first skipped size), and failures. */
static void tune_print_notes(const tune *t, FILE *f) {
    int c, k;
    for (c = 0; c < t->pl.ncfg; c++) {
        int skipped = 0;
        for (k = 0; k < t->pl.njob; k++) {
            const goal_tune_job *j = &t->pl.job[k];
            if (j->cfg != c) continue;
            if (j->state == GOAL_TUNE_SKIP && !skipped++)
                fprintf(f, "# skipped %s at p=%lld from size %llu: %s\n", t->pl.cfg[c].label, t->p, (unsigned long long)j->size, j->msg);
            if (j->state == GOAL_TUNE_FAIL) fprintf(f, "# failed %s size %llu: %s\n", t->pl.cfg[c].label, (unsigned long long)j->size, j->msg);
        }
    }
}

/* GOAL_MPI_ALGOS: per collective the winners in size order (with their parameters:
   ALGO@segment=8192), consecutive sizes with the same winner merged, each with its largest
   size as the bound, the last without. The drop-in names a collective by its MPI call
   (goal_coll_info.mpi without MPI_, in lower case): reduce_scatter is reduce_scatter_block. */
static void tune_print_mpi_name(FILE *f, int coll) {
    const char *s;
    for (s = goal_coll_get(coll)->mpi + 4; *s; s++) fputc(tolower((unsigned char)*s), f);
}
static void tune_print_env(const tune *t, FILE *f) {
    int best, coll = -1, prev = -1;
    uint64_t bound = 0;
    for (best = 0; best < t->pl.njob; best++) {
        if (!t->pl.job[best].win) continue;
        if (t->pl.cfg[t->pl.job[best].cfg].coll != coll) {
            if (prev >= 0) fprintf(f, "%s;", t->pl.cfg[prev].label);
            coll = t->pl.cfg[t->pl.job[best].cfg].coll;
            tune_print_mpi_name(f, coll);
            fputc('=', f);
        } else if (t->pl.job[best].cfg != prev) {
            fprintf(f, "%s:<=%llu,", t->pl.cfg[prev].label, (unsigned long long)bound);
        }
        prev = t->pl.job[best].cfg;
        bound = t->pl.job[best].size;
    }
    if (prev >= 0) fprintf(f, "%s", t->pl.cfg[prev].label);
    fputc('\n', f);
}

/* ---- the plot (cli_plot.c): a panel per collective, a curve per configuration ------------ */
/* A panel's curves: each configuration with a finished job in jobs[first, end), its points
   in size order. Appends to curve[*nc] and pt[*n]. */
static void tune_panel(const tune *t, int first, int end, cli_plot_curve *curve, size_t *nc, cli_plot_point *pt, size_t *n) {
    int c, k;
    for (c = 0; c < t->pl.ncfg; c++) {
        size_t from = *n;
        int wins = 0;
        for (k = first; k < end; k++) {
            const goal_tune_job *j = &t->pl.job[k];
            if (j->cfg != c || j->state != GOAL_TUNE_DONE) continue;
            pt[*n].size = j->size; pt[*n].time = j->time; pt[(*n)++].win = j->win;
            wins |= j->win;
        }
        if (*n == from) continue;
        curve[*nc].label = t->pl.cfg[c].label; curve[*nc].pts = &pt[from];
        curve[*nc].n = *n - from; curve[(*nc)++].wins = wins;
    }
}
/* 0 when out of memory. */
static int tune_write_svg(const tune *t, FILE *f) {
    cli_plot_panel panel[TUNE_NCOLLS];
    cli_plot_curve *curve = (cli_plot_curve *)malloc((size_t)t->pl.njob * sizeof *curve + 1);
    cli_plot_point *pt = (cli_plot_point *)malloc((size_t)t->pl.njob * sizeof *pt + 1);
    size_t np = 0, nc = 0, n = 0;
    int k, end;
    for (k = 0; curve && pt && k < t->pl.njob; k = end, np++) {
        for (end = k; end < t->pl.njob && t->pl.cfg[t->pl.job[end].cfg].coll == t->pl.cfg[t->pl.job[k].cfg].coll; end++) {}
        panel[np].title = goal_sim_coll_name(t->pl.cfg[t->pl.job[k].cfg].coll);
        panel[np].curves = &curve[nc];
        tune_panel(t, k, end, curve, &nc, pt, &n);
        panel[np].n = (size_t)(&curve[nc] - panel[np].curves);
    }
    if (curve && pt) cli_plot_svg(f, panel, np, t->p);
    free(curve);
    free(pt);
    return curve && pt;
}

/* Whether some configuration was simulated to its end. */
static int tune_any_done(const tune *t) {
    int k;
    for (k = 0; k < t->pl.njob && t->pl.job[k].state != GOAL_TUNE_DONE; k++) {}
    return k < t->pl.njob;
}
/* The output, once every job ran: nothing but the notes (and exit 1) when no configuration
   could be simulated; the plot goes to svg (opened before the run, so that a bad path fails
   at once). */
static int tune_output(tune *t, FILE *svg) {
    int rc = CLI_OK, any = tune_any_done(t);
    if (any) t->env ? tune_print_env(t, stdout) : tune_print_table(t, stdout);
    tune_print_notes(t, t->env ? stderr : stdout);
    if (!any) rc = cli_fail("tune: no configuration could be simulated at p=%lld (the # lines say why)", t->p);
    if (svg && any && !tune_write_svg(t, svg)) rc = cli_fail("tune: out of memory");
    if (svg && cli_finish_out(svg, any && rc == CLI_OK)) rc = CLI_BAD_INPUT;
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
/* ---- a recording: the best algorithm per collective for the program as a whole ---------------- */
/* The whole world simulated with plan (coll NULL: as recorded), in ns; stop > 0: given up
   (GOAL_PENDING) once slower. GOAL_OK, or the status with why in msg. */
static goal_status rec_time(const tune *t, const goal_world *w, goal_analyze_plan *plan, double stop, double *ns, char *msg, size_t len) {
    goal_analyze_replan_desc d;
    goal_world *rw = NULL;
    goal_sim_run_result res;
    goal_sim_desc model = t->model;
    goal_error err;
    goal_status st = GOAL_OK;
    memset(&d, 0, sizeof d);
    d.plans = plan; d.nplans = 1;
    if (plan->coll && (st = goal_analyze_replan(w, &d, &rw, &err)) != GOAL_OK) { snprintf(msg, len, "%.200s", err.msg); return st; }
    model.stop_ns = stop;
    st = goal_sim_run(rw ? rw : w, &model, &res);
    if (st == GOAL_OK) *ns = (double)res.max_ps / 1000.0;
    else snprintf(msg, len, "%s", goal_strerror(st));
    goal_sim_run_free(&res);
    goal_world_destroy(rw);
    return st;
}
/* Whether collective coll is asked for (--coll LIST of a recording's names, or all). */
static int rec_asked(const tune *t, const char *coll) {
    const char *s = t->coll_text;
    size_t n = strlen(coll);
    while (s && *s) {
        size_t k = strcspn(s, ",");
        if (k == n && strncmp(s, coll, n) == 0) return 1;
        s += k + (s[k] == ',');
    }
    return !t->coll_text;
}
/* One configuration of collective k tried on w (tune's grids, labelled as tune labels them):
   printed with --all; *best and its label kept when fastest. */
static void rec_try(const tune *t, const goal_world *w, int k, size_t calls, const goal_tune_cfg *c, FILE *notes, double *best, char *label) {
    goal_analyze_plan plan;
    char msg[256];
    double ns;
    goal_status st;
    memset(&plan, 0, sizeof plan);
    plan.coll = goal_analyze_coll_name(k); plan.algo = c->algo;
    plan.nway = c->nway; plan.segment = c->segment; plan.radix = c->radix;
    st = rec_time(t, w, &plan, *label && !t->all ? *best : 0, &ns, msg, sizeof msg);
    if (st == GOAL_PENDING) return;
    if (st != GOAL_OK) { fprintf(notes, "# failed %s: %s\n", c->label, msg); return; }
    if (t->all && !t->env) printf("%s %lu %s %.0f\n", plan.coll, (unsigned long)calls, c->label, ns);
    if (!*label || ns < *best) { *best = ns; strcpy(label, c->label); }
}
/* Every algorithm of collective k, over its parameter grid, tried on w: its winner (or every
   one with --all) printed; with --format env its rule appended to env. 1 when one ran. */
static int rec_coll(tune *t, const goal_world *w, int k, size_t calls, FILE *notes, char *env, size_t envlen) {
    const char *coll = goal_analyze_coll_name(k);
    const goal_algo_info *a;
    double best = 0;
    char label[96] = "";
    int i, c;
    t->pl.ncfg = 0;
    for (i = 0; (a = goal_algo_list(i)) != NULL; i++)
        if (goal_analyze_coll_algo(coll, a->name) == a->name && goal_tune_add_algo(&t->pl, a, 1) != GOAL_OK) {
            cli_fail("tune: out of memory");
            return 0;
        }
    for (c = 0; c < t->pl.ncfg; c++) rec_try(t, w, k, calls, &t->pl.cfg[c], notes, &best, label);
    if (!t->pl.ncfg) fprintf(notes, "# %s: %lu call%s, no algorithm to re-plan them with\n", coll, (unsigned long)calls, cli_s(calls));
    if (!*label) return 0;
    if (!t->all && !t->env) printf("%s %lu %s %.0f\n", coll, (unsigned long)calls, label, best);
    if (t->env) snprintf(env + strlen(env), envlen - strlen(env), "%s%s=%s", *env ? ";" : "", coll, label);
    return 1;
}
/* goal tune FILE: per collective the program calls, every algorithm of it simulated in the
   whole program (its other collectives as recorded), the fastest printed as COLL CALLS ALGO
   TIME; --format env: the GOAL_MPI_ALGOS string. */
static int tune_recording(tune *t) {
    goal_world *w;
    size_t calls[GOAL_ANALYZE_NCOLLS];
    double recorded;
    char msg[256], env[1024] = "";
    FILE *notes = t->env ? stderr : stdout;
    int k, any = 0, rc;
    goal_analyze_plan none;
    memset(&none, 0, sizeof none);
    if ((rc = cli_load_world(t->world, &w)) != CLI_OK) return rc;
    if (cli_world_fits(t->world, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }
    if (rec_time(t, w, &none, 0, &recorded, msg, sizeof msg) != GOAL_OK) {
        goal_world_destroy(w);
        return cli_fail("tune: %s: %s (goal check tells why)", t->world, msg);
    }
    goal_analyze_recorded(w, calls);
    fprintf(notes, "# %s as recorded: %.0f ns\n", t->world, recorded);
    for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++)
        if (calls[k] && rec_asked(t, goal_analyze_coll_name(k))) any |= rec_coll(t, w, k, calls[k], notes, env, sizeof env);
    if (t->env && any) printf("%s\n", env);
    goal_world_destroy(w);
    if (!any) return cli_fail("tune: %s: no collective call could be re-planned (the recording names none%s)", t->world, t->coll_text ? " of --coll" : "");
    return cli_close_out(stdout) ? CLI_BAD_INPUT : CLI_OK;
}

int cli_tune(int argc, char **argv) {
    tune t;
    FILE *svg = NULL;
    int rc;
    memset(&t, 0, sizeof t);
    tune_default_sizes(&t);
    t.colls = (1u << TUNE_NCOLLS) - 1;
    if ((rc = tune_args(argc, argv, &t)) != CLI_OK) return rc;
    if (t.world) { rc = tune_recording(&t); goal_tune_plan_free(&t.pl); return rc; }
    if (t.svg && !(svg = (FILE *)cli_open_out(t.svg))) return CLI_BAD_INPUT;
    tune_keep_memory();
    if (!tune_run(&t)) rc = cli_fail("tune: out of memory");
    if (rc == CLI_OK) rc = tune_output(&t, svg);
    else if (svg) cli_finish_out(svg, 0);
    goal_tune_plan_free(&t.pl);
    return rc;
}
