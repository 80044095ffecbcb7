/* goal tune: simulate every algorithm of each collective at p ranks and each size under one
   LogGOPS model, and print the fastest (or all): the table, the GOAL_MPI_ALGOS string, a plot.

   The algorithms come from goal_algos.h's registry: an algorithm belongs to the collective
   whose name is the longest prefix of its own followed by '_' (reduce_scatter_ring is a
   reduce_scatter, reduce_aspen a reduce), so generators added later join by their names.
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
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
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

static int tune_args(int argc, char **argv, tune *t) {
    const char *v;
    int i, rc = CLI_OK;
    for (i = 1; i < argc && rc == CLI_OK; i++) {
        if (cli_opt(argc, argv, &i, "-p", &v)) {
            if (!cli_int(v, 1, 1 << 24, &t->p)) return cli_usage("tune: -p takes a number of ranks from 1 to 16777216");
        } else if (cli_opt(argc, argv, &i, "--sizes", &v)) {
            if (!tune_sizes(t, v)) return cli_usage("tune: --sizes takes up to 64 byte counts, e.g. 8,1024,65536");
        } else if (cli_opt(argc, argv, &i, "--coll", &v)) {
            if (!tune_coll_list(t, v))
                return cli_usage("tune: --coll takes a list of bcast reduce allreduce allgather alltoall gather scatter reduce_scatter barrier scan");
        } else if (cli_opt(argc, argv, &i, "--format", &v)) {
            if (!v || (strcmp(v, "env") != 0 && strcmp(v, "table") != 0)) return cli_usage("tune: --format takes table or env");
            t->env = strcmp(v, "env") == 0;
        } else if (cli_opt(argc, argv, &i, "--svg", &v)) {
            if (!v) return cli_usage("tune: --svg needs a file name");
            t->svg = v;
        } else if (strcmp(argv[i], "--all") == 0) {
            t->all = 1;
        } else if (!cli_model_opt(argc, argv, &i, &t->model, &rc)) {
            return argv[i][0] == '-' ? cli_unknown_option("tune", argv[i]) : cli_usage("tune: unknown argument '%s'", argv[i]);
        }
    }
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
/* Every algorithm of an asked-for collective, once per point of its parameter grid
   (goal_tune_grid). */
static int tune_configs(tune *t) {
    const goal_algo_info *a;
    goal_algo_desc d;
    int i, k, ok = 1;
    for (i = 0; ok && (a = goal_algo_list(i)) != NULL; i++) {
        /* vector collectives (gatherv_linear, reduce_scatterv_ring) need counts: not tuned */
        if ((a->flags & GOAL_ALGO_VECTOR) || (int)a->coll >= TUNE_NCOLLS || !(t->colls >> a->coll & 1)) continue;
        for (k = 0; ok && goal_tune_grid(a, k, &d); k++) ok = tune_add_cfg(t, a, &d);
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

/* ---- the plot: one panel per collective, log-log, one curve per configuration ------------- */
#define SVG_W 760.0
#define SVG_H 300.0
#define SVG_X0 70.0
#define SVG_X1 520.0
static const char *const svg_colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

typedef struct svg_frame { double y0, lx0, lx1, ly0, ly1; } svg_frame;
static double svg_x(const svg_frame *fr, uint64_t size) {
    double lx = log2((double)(size ? size : 1));
    return fr->lx1 > fr->lx0 ? SVG_X0 + (lx - fr->lx0) / (fr->lx1 - fr->lx0) * (SVG_X1 - SVG_X0) : (SVG_X0 + SVG_X1) / 2;
}
static double svg_y(const svg_frame *fr, double time) {
    double ly = log10(time > 1 ? time : 1);
    return fr->ly1 > fr->ly0 ? fr->y0 + SVG_H - 40 - (ly - fr->ly0) / (fr->ly1 - fr->ly0) * (SVG_H - 70) : fr->y0 + SVG_H / 2;
}
/* The ranges of one collective's jobs [first, end). */
static void svg_frame_of(const tune *t, int first, int end, double y0, svg_frame *fr) {
    int k, any = 0;
    memset(fr, 0, sizeof *fr);
    fr->y0 = y0;
    for (k = first; k < end; k++) {
        const tune_job *j = &t->job[k];
        double lx = log2((double)(j->size ? j->size : 1)), ly = log10(j->time > 1 ? j->time : 1);
        if (j->state != TUNE_DONE) continue;
        if (!any++) { fr->lx0 = fr->lx1 = lx; fr->ly0 = fr->ly1 = ly; }
        fr->lx0 = lx < fr->lx0 ? lx : fr->lx0; fr->lx1 = lx > fr->lx1 ? lx : fr->lx1;
        fr->ly0 = ly < fr->ly0 ? ly : fr->ly0; fr->ly1 = ly > fr->ly1 ? ly : fr->ly1;
    }
    fr->ly0 = floor(fr->ly0);
    fr->ly1 = ceil(fr->ly1 > fr->ly0 ? fr->ly1 : fr->ly0 + 1);
}
static void svg_axes(FILE *f, const svg_frame *fr, const char *coll, long long p) {
    double e;
    fprintf(f, "<text x='%g' y='%g' font-weight='bold'>%s, p = %lld</text>\n", SVG_X0, fr->y0 + 20, coll, p);
    fprintf(f, "<path d='M%g %g V%g H%g' stroke='black' fill='none'/>\n", SVG_X0, fr->y0 + 30, fr->y0 + SVG_H - 40, SVG_X1);
    for (e = fr->ly0; e <= fr->ly1; e++)
        fprintf(f, "<text x='%g' y='%g' text-anchor='end' font-size='11'>1e%g ns</text>\n", SVG_X0 - 4, svg_y(fr, pow(10, e)) + 4, e);
    for (e = ceil(fr->lx0); e <= fr->lx1; e += 2)
        fprintf(f, "<text x='%g' y='%g' text-anchor='middle' font-size='11'>2^%g</text>\n", svg_x(fr, (uint64_t)pow(2, e)), fr->y0 + SVG_H - 24, e);
    fprintf(f, "<text x='%g' y='%g' text-anchor='middle' font-size='11'>message size (bytes)</text>\n", (SVG_X0 + SVG_X1) / 2, fr->y0 + SVG_H - 8);
}
/* One configuration's curve; thick when it wins at some size. */
static void svg_curve(FILE *f, const tune *t, const svg_frame *fr, int first, int end, int cfg, int wins, int colour, int row) {
    int k, n = 0;
    const char *col = svg_colours[colour % 10];
    fprintf(f, "<g><title>%s</title><path fill='none' stroke='%s' stroke-width='%d' opacity='%s' d='", t->cfg[cfg].label, col,
            wins ? 3 : 1, wins ? "1" : "0.55");
    for (k = first; k < end; k++)
        if (t->job[k].cfg == cfg && t->job[k].state == TUNE_DONE)
            fprintf(f, "%s%.1f %.1f", n++ ? " L" : "M", svg_x(fr, t->job[k].size), svg_y(fr, t->job[k].time));
    fprintf(f, "'/>");
    for (k = first; k < end; k++)
        if (t->job[k].cfg == cfg && t->job[k].win)
            fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>", svg_x(fr, t->job[k].size), svg_y(fr, t->job[k].time), col);
    fprintf(f, "</g>\n<text x='%g' y='%g' font-size='11' fill='%s'%s>%s</text>\n", SVG_X1 + 16, fr->y0 + 40 + 13.0 * row, col,
            wins ? " font-weight='bold'" : "", t->cfg[cfg].label);
}
/* One panel: the jobs of one collective are jobs[first, end). */
static void svg_panel(FILE *f, const tune *t, int first, int end, double y0) {
    svg_frame fr;
    int c, k, row = 0;
    svg_frame_of(t, first, end, y0, &fr);
    svg_axes(f, &fr, goal_sim_coll_name(t->cfg[t->job[first].cfg].coll), t->p);
    for (c = 0; c < t->ncfg; c++) {
        int has = 0, wins = 0;
        for (k = first; k < end; k++)
            if (t->job[k].cfg == c && t->job[k].state == TUNE_DONE) { has = 1; wins |= t->job[k].win; }
        if (has) svg_curve(f, t, &fr, first, end, c, wins, row, row), row++;
    }
}
static void tune_write_svg(const tune *t, FILE *f) {
    int k, end, npanels = 0;
    for (k = 0; k < t->njob; k = end, npanels++)
        for (end = k; end < t->njob && t->cfg[t->job[end].cfg].coll == t->cfg[t->job[k].cfg].coll; end++) {}
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%g' height='%g' font-family='sans-serif' font-size='13'>\n", SVG_W,
            SVG_H * npanels + 10);
    fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
    for (k = 0, npanels = 0; k < t->njob; k = end, npanels++) {
        for (end = k; end < t->njob && t->cfg[t->job[end].cfg].coll == t->cfg[t->job[k].cfg].coll; end++) {}
        svg_panel(f, t, k, end, SVG_H * npanels);
    }
    fprintf(f, "</svg>\n");
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
    if (svg && any) tune_write_svg(t, svg);
    if (svg && cli_finish_out(svg, any)) rc = CLI_BAD_INPUT;
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
int cli_tune(int argc, char **argv) {
    tune t;
    FILE *svg = NULL;
    int rc;
    memset(&t, 0, sizeof t);
    tune_default_sizes(&t);
    t.colls = (1u << TUNE_NCOLLS) - 1;
    if ((rc = tune_args(argc, argv, &t)) != CLI_OK) return rc;
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
