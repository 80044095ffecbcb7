/* goal tune: simulate every algorithm of each collective at p ranks and each size under one
   LogGOPS model, and print the fastest (or all): the table, the GOAL_MPI_ALGOS string, a plot.

   The algorithms come from goal_algos.h's registry: an algorithm belongs to the collective
   its registry row names (reduce_scatter_ring is a reduce_scatter, reduce_aspen a reduce),
   so generators added later join through their rows.
   Tunable parameters are searched over small grids, chosen by the algorithm's flags:
   nway (GOAL_ALGO_NWAY) over 1, 2, 3; segment (GOAL_ALGO_SEGMENTED) over 1, 8, 64, 512 KiB;
   radix (GOAL_ALGO_RADIX) over 2, 4, 8. A configuration is printed as ALGO@nway=N,
   ALGO@segment=B or ALGO@radix=K, which is also how GOAL_MPI_ALGOS names it (--format env).
   A world is built straight from the generator (no text) and simulated by goal_tune.h's
   goal_tune_algo_time, which goal_mpi.h's COLL_auto uses too. Left out,
   and the output says so: worlds whose estimated size (rank 0's actions plus p-1 times rank
   1's) exceeds 2^23 actions or whose independent actions per rank squared exceed 2^27
   (linear roots, alltoall_linear, long pipelines), pipelines of more than 512 segments,
   GOAL_ALGO_SETS generators above 4096 ranks.
   Simulations run on one thread per core. Without --all and --svg only the winners matter:
   every configuration's lower bound (goal_tune_algo_bound: a few ranks alone, no world) is
   computed first, the configurations of each (collective, size) are simulated from the
   least bound up, except that the first is the one fastest at the next smaller size when
   that is known (winners change slowly with the size), and one whose bound exceeds the
   fastest time found so far is not simulated (it cannot win); one simulated is stopped as
   soon as it takes longer than that (goal_sim_desc.stop_ns), so a loser never runs to its
   end, and a job that would start without such a time while one is being found waits if
   there is other work. The output is the same: a stopped or skipped configuration is
   slower than one already found, and the order only decides how soon. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <pthread.h>
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

typedef struct tune_cfg {      /* one algorithm with one setting of its parameters */
    const char *algo;
    int coll, nway, radix;
    uint64_t segment;
    char label[96];            /* "bcast_chain@segment=8192" */
} tune_cfg;

enum { TUNE_TODO, TUNE_DONE, TUNE_SKIP, TUNE_FAIL, TUNE_SAME, TUNE_SLOWER, TUNE_RUNNING };
typedef struct tune_job {      /* one configuration at one size */
    int cfg, state, same_as, win;   /* win: the fastest of its (collective, size) */
    int group;                 /* its (collective, size): 0, 1, ... */
    uint64_t size;
    double time;               /* simulated ns */
    double bound;              /* a lower bound of time (goal_tune_algo_bound) */
    char msg[160];             /* why it failed */
} tune_job;

typedef struct tune_group {   /* one (collective, size), when pruning */
    int first, end;            /* its jobs: job[first, end); first = -1: none */
    int coll;
    int best_job;              /* its fastest finished so far (what could win), or -1 */
    int running;               /* how many of its jobs are being simulated */
    int open;                  /* how many are to do or running: its fastest may still change */
} tune_group;

typedef struct tune {
    long long p;
    goal_sim_desc model;
    uint64_t sizes[64];
    int nsizes, all, env;
    unsigned colls;            /* bit k: goal_sim_coll_name(k) asked for */
    const char *svg;
    const char *world;         /* FILE: a recording, tuned as a whole (tune_recording) */
    const char *coll_text;     /* --coll as given (a recording's collective names) */
    int sized;                 /* --sizes given (not for a recording) */
    tune_cfg *cfg;
    int ncfg;
    tune_job *job;
    int njob, next, ngroups;
    int ntodo, ndecided;       /* jobs to simulate, and those simulated or pruned (progress) */
    int prune, bounding;       /* prune: skip what cannot win; bounding: the workers compute bounds */
    int *order;                /* the jobs to simulate, by (group, bound) */
    int norder;
    tune_group *grp;           /* when pruning: per group */
    pthread_mutex_t mu;
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
#define TUNE_COLL_BAD "takes a list of bcast reduce allreduce allgather alltoall gather scatter reduce_scatter barrier scan"
/* The rows from -o on are those of the recording form too (cli_tune_rec_options, cli.h). */
const cli_option cli_tune_options[] = {
    {"-p", "N", NULL, "number of ranks (required)", cli_set_int, offsetof(tune, p), 1, 1 << 24, "takes a number of ranks from 1 to 16777216"},
    {"--sizes", "LIST", "8,32,...,8388608,16777216", "message sizes in bytes (powers of 4 from 8, and 16 MiB)", tune_set_sizes, 0, 0, 0,
     "takes up to 64 byte counts, e.g. 8,1024,65536"},
    {"--svg", "OUT", NULL, "time against size, log-log, one panel per collective", cli_set_text, offsetof(tune, svg), 0, 0, "needs a file name"},
    {"-o", "ns", "1500", "CPU overhead per message (same as --overhead)", cli_set_model, offsetof(tune, model), 0, 0, NULL},
    {"--coll", "LIST", "all ten; a recording: every one it calls",
     "bcast reduce allreduce allgather alltoall gather scatter reduce_scatter barrier scan; a recording: its names, e.g. allreduce,reduce_scatter_block",
     cli_set_text, offsetof(tune, coll_text), 0, 0, TUNE_COLL_BAD},
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
    if (rc == CLI_OK && t->coll_text && !tune_coll_list(t, t->coll_text)) return cli_usage("tune: --coll " TUNE_COLL_BAD);
    if (rc == CLI_OK && !t->p) return cli_usage("tune: -p N is missing");
    if (rc == CLI_OK) cli_model_warn("tune", &t->model);
    return rc;
}

/* ---- configurations and jobs ----------------------------------------------------------- */
static int tune_add_cfg(tune *t, const goal_algo_info *a, const goal_algo_desc *d) {
    tune_cfg *c;
    if (!(t->ncfg & (t->ncfg - 1)) || !t->cfg) {
        tune_cfg *n = (tune_cfg *)realloc(t->cfg, (size_t)(t->ncfg ? 2 * t->ncfg : 16) * sizeof *n);
        if (!n) return 0;
        t->cfg = n;
    }
    c = &t->cfg[t->ncfg++];
    c->algo = a->name; c->coll = (int)a->coll; c->nway = d->nway; c->segment = d->segment; c->radix = d->radix;
    if (a->flags & GOAL_ALGO_NWAY) snprintf(c->label, sizeof c->label, "%s@nway=%d", a->name, d->nway);
    else if (a->flags & GOAL_ALGO_SEGMENTED) snprintf(c->label, sizeof c->label, "%s@segment=%llu", a->name, (unsigned long long)d->segment);
    else if (a->flags & GOAL_ALGO_RADIX) snprintf(c->label, sizeof c->label, "%s@radix=%d", a->name, d->radix);
    else snprintf(c->label, sizeof c->label, "%s", a->name);
    return 1;
}
/* Algorithm a, once per point of its parameter grid (goal_tune_grid); 0 when out of memory. */
static int tune_algo_configs(tune *t, const goal_algo_info *a) {
    goal_algo_desc d;
    int k, ok = 1;
    for (k = 0; ok && goal_tune_grid(a, k, &d); k++) ok = tune_add_cfg(t, a, &d);
    return ok;
}
/* Every algorithm of an asked-for collective, once per point of its parameter grid. */
static int tune_configs(tune *t) {
    const goal_algo_info *a;
    int i, ok = 1;
    for (i = 0; ok && (a = goal_algo_list(i)) != NULL; i++) {
        /* vector collectives (gatherv_linear, reduce_scatterv_ring) need counts: not tuned */
        if ((a->flags & GOAL_ALGO_VECTOR) || (int)a->coll >= TUNE_NCOLLS || !(t->colls >> a->coll & 1)) continue;
        ok = tune_algo_configs(t, a);
    }
    return ok;
}
/* A segmented configuration whose segment holds the whole message is the same schedule as
   the one with the smallest such segment: simulated once. */
static int tune_same_as(const tune *t, const tune_job *j, int first) {
    const tune_cfg *c = &t->cfg[j->cfg];
    int k;
    if (!c->segment || c->segment < j->size) return -1;
    for (k = first; k < t->njob && &t->job[k] != j; k++)
        if (t->job[k].size == j->size && t->cfg[t->job[k].cfg].algo == c->algo && t->cfg[t->job[k].cfg].segment >= j->size) return k;
    return -1;
}
static int tune_jobs(tune *t) {
    int coll, s, c, first, barrier, nsizes;
    t->job = (tune_job *)calloc((size_t)t->ncfg * (size_t)t->nsizes + 1, sizeof *t->job);
    if (!t->job) return 0;
    for (coll = 0; coll < TUNE_NCOLLS; coll++) {
        barrier = goal_coll_get(coll)->out_blocks == 0;   /* a barrier has no size: once, as size 0 */
        nsizes = barrier ? 1 : t->nsizes;
        for (s = 0; s < nsizes; s++) {
            first = t->njob;
            for (c = 0; c < t->ncfg; c++) {
                tune_job *j = &t->job[t->njob];
                if (t->cfg[c].coll != coll) continue;
                j->cfg = c;
                j->size = barrier ? 0 : t->sizes[s];
                j->same_as = tune_same_as(t, j, first);
                j->state = j->same_as >= 0 ? TUNE_SAME : TUNE_TODO;
                j->group = t->ngroups;
                t->njob++;
            }
            t->ngroups++;
        }
    }
    return 1;
}

/* ---- simulation ------------------------------------------------------------------------ */
static void tune_desc(const tune *t, const tune_job *j, goal_algo_desc *d) {
    const tune_cfg *c = &t->cfg[j->cfg];
    memset(d, 0, sizeof *d);
    d->algo = c->algo;
    d->count = j->size;            /* int8: bytes */
    d->dtype = GOAL_INT8;
    d->op = GOAL_OP_SUM;
    d->nway = c->nway;
    d->segment = c->segment;
    d->radix = c->radix;
}
/* The library simulates (goal_tune_algo_time, which also leaves out worlds too big for it),
   stopping once the job takes longer than stop ns (> 0: the fastest so far, so it loses). */
static void tune_run_job(const tune *t, tune_job *j, double stop) {
    goal_algo_desc d;
    goal_sim_desc model = t->model;
    goal_error err;
    goal_status st;
    int left_out = 0;
    tune_desc(t, j, &d);
    err.msg[0] = 0;
    model.stop_ns = stop;
    st = goal_tune_algo_time(&d, (int32_t)t->p, &model, &j->time, &left_out, &err);
    j->state = st == GOAL_OK ? TUNE_DONE : st == GOAL_PENDING ? TUNE_SLOWER : left_out ? TUNE_SKIP : TUNE_FAIL;
    if (st != GOAL_OK) snprintf(j->msg, sizeof j->msg, "%.159s", err.msg[0] ? err.msg : goal_strerror(st));
}
/* The job's lower bound; a world left out is marked so here, with the message
   goal_tune_algo_time would give. */
static void tune_bound_job(const tune *t, tune_job *j) {
    goal_algo_desc d;
    goal_error err;
    int left_out = 0;
    tune_desc(t, j, &d);
    err.msg[0] = 0;
    if (goal_tune_algo_bound(&d, (int32_t)t->p, &t->model, &j->bound, &left_out, &err) == GOAL_OK || !left_out) return;
    j->state = TUNE_SKIP;
    snprintf(j->msg, sizeof j->msg, "%.159s", err.msg);
}
/* Group g's fastest time so far, or -1. */
static double tune_best_time(const tune *t, int g) {
    return t->grp[g].best_job >= 0 ? t->job[t->grp[g].best_job].time : -1;
}
/* The group of the next smaller size of g's collective, or -1. */
static int tune_prev(const tune *t, int g) {
    return g > 0 && t->grp[g - 1].first >= 0 && t->grp[g - 1].coll == t->grp[g].coll ? g - 1 : -1;
}
/* The first job of j's group to simulate, when none has finished: the configuration that
   is fastest so far at the nearest smaller size of the collective (winners change slowly
   with the size), if it is still to do; else j. Once it has finished, the group's other
   configurations stop as soon as they are slower than it, not slower than a poor first.
   The groups of one collective list the same configurations in the same order (tune_jobs),
   so that configuration is at the same offset in j's group. */
static tune_job *tune_hint(const tune *t, tune_job *j) {
    tune_job *h;
    int p;
    for (p = tune_prev(t, j->group); p >= 0 && t->grp[p].best_job < 0; p = tune_prev(t, p)) {}
    if (p < 0) return j;
    h = &t->job[t->grp[j->group].first + (t->grp[p].best_job - t->grp[p].first)];
    return h->state == TUNE_TODO ? h : j;
}
/* 1: j had better wait, as it would run without a stop while one is coming: its group has
   no time yet but a job running, or the next smaller size (tune_hint's source) is not
   decided yet. So a collective's sizes run one after another, each started by the winner
   of the size before, while other collectives fill the threads. */
static int tune_waiting(const tune *t, const tune_job *j) {
    int p = tune_prev(t, j->group);
    if (t->grp[j->group].best_job >= 0) return 0;
    return t->grp[j->group].running || (p >= 0 && t->grp[p].open);
}
/* The next job for a worker when pruning (under the lock), or -1: in t->order, the first
   that need not wait (tune_waiting; else the first that waits), by tune_hint when its
   group has no time yet, passing over those that cannot win (TUNE_SLOWER). */
static int tune_next_pruned(tune *t) {
    int i, pick = -1;
    tune_job *j;
    for (i = t->next; i < t->norder; i++) {
        j = &t->job[t->order[i]];
        if (j->state != TUNE_TODO) continue;
        if (tune_best_time(t, j->group) >= 0 && j->bound > tune_best_time(t, j->group)) {
            j->state = TUNE_SLOWER;
            t->ndecided++;
            t->grp[j->group].open--;
            continue;
        }
        if (pick < 0) pick = i;
        if (!tune_waiting(t, j)) { pick = i; break; }
    }
    while (t->next < t->norder && t->job[t->order[t->next]].state != TUNE_TODO) t->next++;
    if (pick < 0) return -1;
    j = &t->job[t->order[pick]];
    if (t->grp[j->group].best_job < 0) j = tune_hint(t, j);
    j->state = TUNE_RUNNING;
    t->grp[j->group].running++;
    return (int)(j - t->job);
}
/* The next job for a worker (under the lock), or -1: in job order, or when pruning, by
   tune_next_pruned. */
static int tune_next(tune *t) {
    if (t->prune && !t->bounding) return tune_next_pruned(t);
    while (t->next < t->njob && t->job[t->next].state != TUNE_TODO) t->next++;
    return t->next < t->njob ? t->next++ : -1;
}
/* Job k finished (under the lock): its group's fastest so far. */
static void tune_finished(tune *t, int k) {
    tune_group *g = &t->grp[t->job[k].group];
    g->running--;
    g->open--;
    if (t->job[k].state == TUNE_DONE && (g->best_job < 0 || t->job[k].time < t->job[g->best_job].time)) g->best_job = k;
}
static void *tune_worker(void *arg) {
    tune *t = (tune *)arg;
    double stop;
    int k;
    for (;;) {
        pthread_mutex_lock(&t->mu);
        k = tune_next(t);
        stop = k >= 0 && t->prune && !t->bounding && tune_best_time(t, t->job[k].group) > 0 ? tune_best_time(t, t->job[k].group) : 0;
        pthread_mutex_unlock(&t->mu);
        if (k < 0) return NULL;
        if (t->bounding) { tune_bound_job(t, &t->job[k]); continue; }
        tune_run_job(t, &t->job[k], stop);
        pthread_mutex_lock(&t->mu);
        if (t->prune) tune_finished(t, k);
        cli_progress_count((unsigned long)++t->ndecided, (unsigned long)t->ntodo, "configurations");
        pthread_mutex_unlock(&t->mu);
    }
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
/* Runs tune_worker on one thread per core. */
static void tune_workers(tune *t) {
    pthread_t th[TUNE_MAX_THREADS];
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    int k, started = 0;
    if (n < 1) n = 1;
    if (n > TUNE_MAX_THREADS) n = TUNE_MAX_THREADS;
    t->next = 0;
    for (k = 1; k < n; k++)
        if (pthread_create(&th[started], NULL, tune_worker, t) == 0) started++;
    tune_worker(t);
    for (k = 0; k < started; k++) pthread_join(th[k], NULL);
}
/* What the plan sorts jobs by: qsort has no context argument in C99, so a copy of each
   job's keys rather than its index into t->job. */
typedef struct tune_key {
    int group, wave, k;        /* wave: the job's rank by bound in its group */
    uint64_t size;
    double bound;
} tune_key;
static int tune_by_bound(const void *x, const void *y) {
    const tune_key *a = (const tune_key *)x, *b = (const tune_key *)y;
    if (a->group != b->group) return a->group < b->group ? -1 : 1;
    if (a->bound != b->bound) return a->bound < b->bound ? -1 : 1;
    return a->k < b->k ? -1 : 1;
}
static int tune_by_wave(const void *x, const void *y) {
    const tune_key *a = (const tune_key *)x, *b = (const tune_key *)y;
    if (a->wave != b->wave) return a->wave < b->wave ? -1 : 1;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    return tune_by_bound(x, y);
}
/* Bounds first; then in waves: every group's least bound, every group's second least, ...
   so that when a group's later configurations start, its fastest time so far is known
   (the other threads would otherwise take them while the first is still running). Within
   a wave by size, so that a group's smaller neighbour has likely finished when its first
   job starts, for tune_hint. */
static int tune_plan(tune *t) {
    tune_key *key;
    int k;
    t->order = (int *)malloc((size_t)t->njob * sizeof *t->order + 1);
    t->grp = (tune_group *)calloc((size_t)t->ngroups + 1, sizeof *t->grp);
    if (!t->order || !t->grp) return 0;
    for (k = 0; k < t->ngroups; k++) t->grp[k].first = t->grp[k].best_job = -1;
    for (k = 0; k < t->njob; k++) {
        tune_group *g = &t->grp[t->job[k].group];
        if (g->first < 0) g->first = k, g->coll = t->cfg[t->job[k].cfg].coll;
        g->end = k + 1;
    }
    t->bounding = 1;
    tune_workers(t);
    t->bounding = 0;
    if (!(key = (tune_key *)malloc((size_t)t->njob * sizeof *key + 1))) return 0;
    for (k = 0; k < t->njob; k++) {
        const tune_job *j = &t->job[k];
        if (j->state != TUNE_TODO) continue;
        key[t->norder].group = j->group; key[t->norder].k = k;
        key[t->norder].size = j->size; key[t->norder++].bound = j->bound;
        t->grp[j->group].open++;
    }
    qsort(key, (size_t)t->norder, sizeof *key, tune_by_bound);
    for (k = 0; k < t->norder; k++) key[k].wave = k && key[k - 1].group == key[k].group ? key[k - 1].wave + 1 : 0;
    qsort(key, (size_t)t->norder, sizeof *key, tune_by_wave);
    for (k = 0; k < t->norder; k++) t->order[k] = key[k].k;
    free(key);
    return 1;
}
static int tune_run(tune *t) {
    int k;
    pthread_mutex_init(&t->mu, NULL);
    if (t->prune && !tune_plan(t)) return pthread_mutex_destroy(&t->mu), 0;
    for (k = 0; k < t->njob; k++) t->ntodo += t->job[k].state == TUNE_TODO;
    tune_workers(t);
    pthread_mutex_destroy(&t->mu);
    for (k = 0; k < t->njob; k++) {
        tune_job *j = &t->job[k];
        if (j->state != TUNE_SAME) continue;
        j->state = t->job[j->same_as].state;
        j->time = t->job[j->same_as].time;
        memcpy(j->msg, t->job[j->same_as].msg, sizeof j->msg);
    }
    return 1;
}

/* ---- output ---------------------------------------------------------------------------- */
/* The fastest finished job among jobs[first, end) (ties: the first), or -1. */
static int tune_best(const tune *t, int first, int end) {
    int k, best = -1;
    for (k = first; k < end; k++)
        if (t->job[k].state == TUNE_DONE && (best < 0 || t->job[k].time < t->job[best].time)) best = k;
    return best;
}
/* The jobs of one (collective, size) are consecutive: the end of the group at first. */
static int tune_group_end(const tune *t, int first) {
    int k = first;
    while (k < t->njob && t->cfg[t->job[k].cfg].coll == t->cfg[t->job[first].cfg].coll && t->job[k].size == t->job[first].size) k++;
    return k;
}

static void tune_mark_winners(tune *t) {
    int k, end, best;
    for (k = 0; k < t->njob; k = end) {
        end = tune_group_end(t, k);
        if ((best = tune_best(t, k, end)) >= 0) t->job[best].win = 1;
    }
}
/* COLL SIZE ALGO TIME: the winners, or (--all) every configuration that was simulated. */
static void tune_print_table(const tune *t, FILE *f) {
    int k;
    for (k = 0; k < t->njob; k++) {
        const tune_job *j = &t->job[k];
        if (j->state == TUNE_DONE && (j->win || t->all))
            fprintf(f, "%s %llu %s %.0f\n", goal_sim_coll_name(t->cfg[j->cfg].coll), (unsigned long long)j->size, t->cfg[j->cfg].label, j->time);
    }
}

/* What was left out: one line per configuration (from its first skipped size), and failures. */
static void tune_print_notes(const tune *t, FILE *f) {
    int c, k;
    for (c = 0; c < t->ncfg; c++) {
        int skipped = 0;
        for (k = 0; k < t->njob; k++) {
            const tune_job *j = &t->job[k];
            if (j->cfg != c) continue;
            if (j->state == TUNE_SKIP && !skipped++)
                fprintf(f, "# skipped %s at p=%lld from size %llu: %s\n", t->cfg[c].label, t->p, (unsigned long long)j->size, j->msg);
            if (j->state == TUNE_FAIL) fprintf(f, "# failed %s size %llu: %s\n", t->cfg[c].label, (unsigned long long)j->size, j->msg);
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
    for (best = 0; best < t->njob; best++) {
        if (!t->job[best].win) continue;
        if (t->cfg[t->job[best].cfg].coll != coll) {
            if (prev >= 0) fprintf(f, "%s;", t->cfg[prev].label);
            coll = t->cfg[t->job[best].cfg].coll;
            tune_print_mpi_name(f, coll);
            fputc('=', f);
        } else if (t->job[best].cfg != prev) {
            fprintf(f, "%s:<=%llu,", t->cfg[prev].label, (unsigned long long)bound);
        }
        prev = t->job[best].cfg;
        bound = t->job[best].size;
    }
    if (prev >= 0) fprintf(f, "%s", t->cfg[prev].label);
    fputc('\n', f);
}

/* ---- the plot (cli_plot.c): a panel per collective, a curve per configuration ------------ */
/* A panel's curves: each configuration with a finished job in jobs[first, end), its points
   in size order. Appends to curve[*nc] and pt[*n]. */
static void tune_panel(const tune *t, int first, int end, cli_plot_curve *curve, size_t *nc, cli_plot_point *pt, size_t *n) {
    int c, k;
    for (c = 0; c < t->ncfg; c++) {
        size_t from = *n;
        int wins = 0;
        for (k = first; k < end; k++) {
            const tune_job *j = &t->job[k];
            if (j->cfg != c || j->state != TUNE_DONE) continue;
            pt[*n].size = j->size; pt[*n].time = j->time; pt[(*n)++].win = j->win;
            wins |= j->win;
        }
        if (*n == from) continue;
        curve[*nc].label = t->cfg[c].label; curve[*nc].pts = &pt[from];
        curve[*nc].n = *n - from; curve[(*nc)++].wins = wins;
    }
}
/* 0 when out of memory. */
static int tune_write_svg(const tune *t, FILE *f) {
    cli_plot_panel panel[TUNE_NCOLLS];
    cli_plot_curve *curve = (cli_plot_curve *)malloc((size_t)t->njob * sizeof *curve + 1);
    cli_plot_point *pt = (cli_plot_point *)malloc((size_t)t->njob * sizeof *pt + 1);
    size_t np = 0, nc = 0, n = 0;
    int k, end;
    for (k = 0; curve && pt && k < t->njob; k = end, np++) {
        for (end = k; end < t->njob && t->cfg[t->job[end].cfg].coll == t->cfg[t->job[k].cfg].coll; end++) {}
        panel[np].title = goal_sim_coll_name(t->cfg[t->job[k].cfg].coll);
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
    for (k = 0; k < t->njob && t->job[k].state != TUNE_DONE; k++) {}
    return k < t->njob;
}
/* The output, once every job ran: nothing but the notes (and exit 1) when no configuration
   could be simulated; the plot goes to svg (opened before the run, so that a bad path fails
   at once). */
static int tune_output(tune *t, FILE *svg) {
    int rc = CLI_OK, any = tune_any_done(t);
    tune_mark_winners(t);
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
static void rec_try(const tune *t, const goal_world *w, int k, size_t calls, const tune_cfg *c, FILE *notes, double *best, char *label) {
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
    t->ncfg = 0;
    for (i = 0; (a = goal_algo_list(i)) != NULL; i++)
        if (goal_analyze_coll_algo(coll, a->name) == a->name && !tune_algo_configs(t, a)) {
            cli_fail("tune: out of memory");
            return 0;
        }
    for (c = 0; c < t->ncfg; c++) rec_try(t, w, k, calls, &t->cfg[c], notes, &best, label);
    if (!t->ncfg) fprintf(notes, "# %s: %lu call%s, no algorithm to re-plan them with\n", coll, (unsigned long)calls, cli_s(calls));
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
    if (t.world) { rc = tune_recording(&t); free(t.cfg); return rc; }
    if (t.svg && !(svg = (FILE *)cli_open_out(t.svg))) return CLI_BAD_INPUT;
    tune_keep_memory();
    t.prune = !t.all && !t.svg;
    if (!tune_configs(&t) || !tune_jobs(&t)) rc = cli_fail("tune: out of memory");
    if (rc == CLI_OK && !tune_run(&t)) rc = cli_fail("tune: out of memory");
    if (rc == CLI_OK) rc = tune_output(&t, svg);
    else if (svg) cli_finish_out(svg, 0);
    free(t.cfg);
    free(t.job);
    free(t.order);
    free(t.grp);
    return rc;
}
