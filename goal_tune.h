/* goal_tune.h - v0.1.0 - the tuning search: every algorithm of a collective simulated under a
   LogGOPS model, the fastest picked. What `goal tune` prints and goal_mpi.h's COLL_auto runs.

   In exactly ONE .c or .cpp file:   #define GOAL_TUNE_IMPLEMENTATION   then   #include "goal_tune.h"
   (GOAL_ALL_IMPLEMENTATION works as well.) goal.h's, goal_algos.h's and goal_sim.h's
   implementations must be in the program too.

   Sections: OVERVIEW · STEP BY STEP · LIMITS · BOUNDS · PARAMETERS · PLANNER · CONFIGURATION ·
   OLD NAMES · LICENSE

   OVERVIEW
   --------
   The collectives searched are goal_algos.h's tuned ones (GOAL_COLL_TUNED: the first
   GOAL_COLL_NTUNED rows of its table); an algorithm belongs to the collective its registry
   row names. The planner (goal_tune_plan, goal_tune_run) simulates configurations (an
   algorithm with its parameters) at p ranks and a list of sizes on some threads, and marks
   the fastest of each (collective, size). goal_tune_best is the planner on one thread for
   one collective and size, every non-vector algorithm with default parameters (nway 1,
   segment 1024, radix 4): what COLL_auto runs. `goal tune` (tools/cli_tune.c) is the
   planner over the parameter grid (goal_tune_grid) on every core. goal_tune_algo_time
   simulates one goal_algo_desc; goal_tune_algo_bound gives a lower bound of that time
   without a simulation.

   STEP BY STEP
   ------------
     goal_sim_desc model = {0};                 // LogGOPSim's defaults; goal_sim_params reads a file
     const goal_algo_info *best; double ns; goal_error err;
     if (goal_tune_best(GOAL_COLL_ALLREDUCE, 64, 65536, &model, 0, &best, &ns, &err) == GOAL_OK)
         printf("%s %.0f ns\n", best->name, ns);

   LIMITS
   ------
   goal_tune_algo_time leaves out worlds too big to simulate quickly, with GOAL_ERR_LIMIT,
   *left_out = 1 and why in err->msg: estimated above 2^23 actions (rank 0's plus p-1 times
   rank 1's, built alone), independent actions per rank squared and summed above 2^27,
   pipelines over 512 segments, GOAL_ALGO_SETS generators above 4096 ranks.

   BOUNDS
   ------
   goal_tune_algo_bound prices a few ranks' schedules built alone (ranks 0, 1, p/3, p/2, p-2,
   p-1) with goal_sim.h's costs (COSTS): each one's CPU and sending NIC are busy at least for
   the sum of their actions' costs, and along the chain of ranks each receives from (walked
   back from ranks 0 and p-1) a rank's held actions wait for its first receive. The planner,
   pruning, skips a configuration whose bound exceeds the fastest time so far, and stops
   (goal_sim_desc.stop_ns) one that turns out slower while it is simulated: neither changes
   the result, only how soon it comes.

   PARAMETERS
   ----------
   goal_tune_grid(a, i, &d) sets d's tunable parameters to the i-th point of a's grid: nway
   (GOAL_ALGO_NWAY) 1, 2, 3; segment (GOAL_ALGO_SEGMENTED) 1, 8, 64, 512 KiB; radix
   (GOAL_ALGO_RADIX) 2, 4, 8; one point for an algorithm without them.

   PLANNER
   -------
     goal_tune_plan t = {0};
     t.p = 1024; t.model = model; t.prune = 1; t.threads = 2;
     for (i = 0; (a = goal_algo_list(i)) != NULL; i++)
         if (a->coll == GOAL_COLL_BCAST && !(a->flags & GOAL_ALGO_VECTOR)) goal_tune_add_algo(&t, a, 1);
     goal_tune_add_jobs(&t, 1u << GOAL_COLL_BCAST, sizes, nsizes);
     goal_tune_run(&t, &err);      // t.job[k].win: the fastest of its (collective, size)
     goal_tune_plan_free(&t);
   A job is one configuration at one size; a segmented one whose segment holds the whole
   message is the same schedule as the smallest such segment and is simulated once. Without
   prune every job is simulated (in job order, t.threads at a time). With prune only the
   winners matter: every job's bound is computed first; the jobs of each (collective, size)
   are simulated from the least bound up, in waves (every group's least bound, then every
   group's second, ...; within a wave by size), except that a group's first is the
   configuration fastest at the next smaller size when that is known (winners change
   slowly with the size); a job whose bound exceeds its group's fastest time is not
   simulated, one simulated is stopped once slower (state GOAL_TUNE_SLOWER), and a job that
   would start without such a time while one is coming waits if there is other work. The
   winners are those of a full run: a stopped or skipped job is slower than one found, and
   the order only decides how soon. t.progress is called (under the planner's lock) after
   each simulation.

   CONFIGURATION
   -------------
   GOAL_TUNE_NO_THREADS   no pthreads: the planner runs on the calling thread only

   OLD NAMES (kept for one release, CHANGELOG.md): goal_sim_best, goal_sim_algo_time and
   goal_sim_algo_bound are these calls; GOAL_SIM_NCOLLS, goal_sim_coll_name and
   goal_sim_coll_of read goal_algos.h's table (GOAL_COLL_NTUNED, goal_coll_get, goal_algo_coll).

   LICENSE: MIT, as goal.h.
*/
#include "goal.h"         /* before the guard, as the ones below: an inclusion after the macro builds theirs too */
#include "goal_algos.h"   /* the algorithms searched and the collective table */
#include "goal_sim.h"     /* the simulation and its costs */
#ifndef GOAL_TUNE_H_INCLUDED
#define GOAL_TUNE_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

/* d simulated at p ranks under model: *ns. GOAL_ERR_LIMIT with *left_out = 1 and err->msg
   when the world is left out for its size (LIMITS); else goal_algo_world's / goal_sim_run's
   status (GOAL_PENDING: it takes longer than model->stop_ns), err->msg saying what failed. */
GOAL_API goal_status goal_tune_algo_time(const goal_algo_desc *d, int32_t p, const goal_sim_desc *model, double *ns,
                                         int *left_out, goal_error *err);
/* A lower bound of goal_tune_algo_time's *ns for d at p (BOUNDS). GOAL_ERR_LIMIT and
   *left_out as goal_tune_algo_time says for a world it leaves out; 0 when the model or the
   actions' CPU/NIC indices do not allow a bound. */
GOAL_API goal_status goal_tune_algo_bound(const goal_algo_desc *d, int32_t p, const goal_sim_desc *model, double *ns,
                                          int *left_out, goal_error *err);
/* The fastest algorithm of tuned collective coll (GOAL_COLL_*, below GOAL_COLL_NTUNED) at p
   ranks and `bytes` (d.count of int8: a block's bytes, as goal tune's sizes) under model, with
   default parameters, among the registry's non-vector algorithms of coll that have every flag
   of `require` (GOAL_ALGO_ORDERED for a non-commutative op); ties go to the first in registry
   order. GOAL_ERR_ARG for a bad coll or p < 1; when no candidate could be simulated, the last
   one's status and err. */
GOAL_API goal_status goal_tune_best(int coll, int32_t p, uint64_t bytes, const goal_sim_desc *model, uint32_t require,
                                    const goal_algo_info **best, double *ns, goal_error *err);
/* The i-th point (0, 1, ...) of a's parameter grid (PARAMETERS) into d->nway, d->segment and
   d->radix (1, 0, 0 where a takes none); 0 past the last point, d unchanged. */
GOAL_API int goal_tune_grid(const goal_algo_info *a, int i, goal_algo_desc *d);

/* ---- the planner (PLANNER) ---- */
typedef struct goal_tune_cfg {   /* one algorithm with one setting of its parameters */
    const char *algo;
    int coll, nway, radix;
    uint64_t segment;
    char label[96];              /* as GOAL_MPI_ALGOS names it: "bcast_chain@segment=8192" */
} goal_tune_cfg;
/* A job's state once goal_tune_run returns: simulated; left out (LIMITS); failed; slower
   than the fastest of its (collective, size), so not simulated to its end (pruning). */
enum { GOAL_TUNE_DONE = 1, GOAL_TUNE_SKIP, GOAL_TUNE_FAIL, GOAL_TUNE_SLOWER };
typedef struct goal_tune_job {   /* one configuration at one size */
    int cfg, state, same_as;     /* same_as: the job whose schedule this one is (or -1) */
    int group;                   /* its (collective, size): 0, 1, ... */
    int win;                     /* the fastest of its group (ties: the first) */
    goal_status status;          /* goal_tune_algo_time's, for a job not done */
    uint64_t size;
    double time;                 /* simulated ns */
    double bound;                /* a lower bound of time (goal_tune_algo_bound), when pruning */
    char msg[160];               /* why it was left out or failed */
} goal_tune_job;
typedef struct goal_tune_plan {
    /* in */
    int32_t p;
    goal_sim_desc model;
    int prune;                   /* only the winners: skip or stop what cannot win */
    int threads;                 /* simulations at once (0: 1; always 1 with GOAL_TUNE_NO_THREADS) */
    void (*progress)(void *arg, unsigned long done, unsigned long total);   /* may be NULL */
    void *progress_arg;
    /* built by goal_tune_add_algo and goal_tune_add_jobs, read after goal_tune_run */
    goal_tune_cfg *cfg;
    int ncfg;
    goal_tune_job *job;
    int njob, ngroups;
} goal_tune_plan;
/* Adds algorithm a to t's configurations: once per point of its grid (goal_tune_grid), or
   with grid 0 once with default parameters (nway 1, segment 1024, the generator's radix).
   GOAL_ERR_NOMEM. */
GOAL_API goal_status goal_tune_add_algo(goal_tune_plan *t, const goal_algo_info *a, int grid);
/* t's jobs: for each tuned collective in order whose bit is set in colls (bit k: GOAL_COLL
   k), for each of sizes (ascending) in order (a barrier once, as size 0), a group of every
   configuration of that collective. Replaces earlier jobs. GOAL_ERR_NOMEM. */
GOAL_API goal_status goal_tune_add_jobs(goal_tune_plan *t, unsigned colls, const uint64_t *sizes, int nsizes);
/* Runs t's jobs (PLANNER) and marks each group's winner. GOAL_ERR_ARG (p < 1), GOAL_ERR_NOMEM. */
GOAL_API goal_status goal_tune_run(goal_tune_plan *t, goal_error *err);
/* Frees t->cfg and t->job. */
GOAL_API void goal_tune_plan_free(goal_tune_plan *t);

/* The old names, kept for one release (CHANGELOG.md). */
#define goal_sim_best goal_tune_best
#define goal_sim_algo_time goal_tune_algo_time
#define goal_sim_algo_bound goal_tune_algo_bound
#define GOAL_SIM_NCOLLS GOAL_COLL_NTUNED
/* The k-th tuned collective's name (goal_coll_get(k)->name), NULL for k outside 0 .. GOAL_SIM_NCOLLS-1. */
GOAL_API const char *goal_sim_coll_name(int k);
/* The collective of an algorithm (goal_algo_coll) when it is a tuned one, or -1. */
GOAL_API int goal_sim_coll_of(const char *algo);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_TUNE_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_TUNE_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__TUNE_IMPL_DONE)
#define GOAL__TUNE_IMPL_DONE

#include <stdio.h>    /* snprintf */
#include <stdlib.h>   /* qsort */
#include <string.h>
#ifndef GOAL_TUNE_NO_THREADS
#include <pthread.h>
#endif

const char *goal_sim_coll_name(int k) { return k >= 0 && k < GOAL_COLL_NTUNED ? goal_coll_get(k)->name : NULL; }
int goal_sim_coll_of(const char *name) {
    int c = goal_algo_coll(name);
    return c < GOAL_COLL_NTUNED ? c : -1;
}

/* ---- >>> the grid -------------------------------------------------------------------------- */
int goal_tune_grid(const goal_algo_info *a, int i, goal_algo_desc *d) {
    static const int nways[] = {1, 2, 3}, radixes[] = {2, 4, 8};
    static const uint64_t segments[] = {1024, 8192, 65536, 524288};
    int n = (a->flags & GOAL_ALGO_NWAY) ? 3 : (a->flags & GOAL_ALGO_SEGMENTED) ? 4 : (a->flags & GOAL_ALGO_RADIX) ? 3 : 1;
    if (i < 0 || i >= n) return 0;
    d->nway = (a->flags & GOAL_ALGO_NWAY) ? nways[i] : 1;
    d->segment = (a->flags & GOAL_ALGO_NWAY) || !(a->flags & GOAL_ALGO_SEGMENTED) ? 0 : segments[i];
    d->radix = (a->flags & (GOAL_ALGO_NWAY | GOAL_ALGO_SEGMENTED)) || !(a->flags & GOAL_ALGO_RADIX) ? 0 : radixes[i];
    return 1;
}

/* ---- >>> prices ---------------------------------------------------------------------------- */
typedef struct goal__tune_m {   /* goal_sim.h's costs, and whether a sum here overflowed */
    goal_sim_costs *c;
    int compat, over;
} goal__tune_m;
/* Checked time arithmetic: a result past 2^64-1 ps sets m->over (the bound is then 0). */
static uint64_t goal__tune_add(goal__tune_m *m, uint64_t a, uint64_t b) {
    if (a > ~(uint64_t)0 - b) m->over = 1;
    return a + b;
}
static uint64_t goal__tune_cost(goal__tune_m *m, goal_sim_cost_kind k, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal_sim_cost(m->c, k, src, dst, t, s);
}
/* When local action a started at t ends: an exec of its bytes (a copy's at the copy rate), a
   calc of its cost in ns, anything else at once. */
static uint64_t goal__tune_local(goal__tune_m *m, uint64_t t, const goal_action *a) {
    if (a->kind == GOAL_EXEC)
        return goal_sim_cost(m->c, a->op == GOAL_OP_COPY ? GOAL_SIM_COST_COPY : GOAL_SIM_COST_EXEC, 0, 0, t, a->buf.size);
    return a->kind == GOAL_CALC ? goal_sim_cost(m->c, GOAL_SIM_COST_CALC, 0, 0, t, a->cost) : t;
}
/* Whether a time computed so far overflowed (sticky until cleared). */
static int goal__tune_over(goal__tune_m *m) {
    m->over |= goal_sim_costs_overflow(m->c);
    return m->over;
}

/* ---- >>> limits, bounds, the search ------------------------------------------------------------ */
#define GOAL__TUNE_MAX_ACTIONS 8388608.0   /* 2^23 actions: a few seconds and ~0.5 GB per world */
#define GOAL__TUNE_MAX_SQUARES 134217728.0 /* 2^27: the simulator's time grows with the square of one
                                              rank's independent actions: their sum of squares */
#define GOAL__TUNE_MAX_SEGMENTS 512        /* longer pipelines are left out, for the same reason */
#define GOAL__TUNE_MAX_SETS_P 4096         /* GOAL_ALGO_SETS generators take O(p) per rank to build */
/* Whether d's receives are filled by their messages, so a bound may price them by their
   buffers' bytes: the fixed-size collectives (test_recv_sizes checks every one); a vector
   collective's counts may leave room. */
static int goal__tune_fill(const goal_algo_desc *d) {
    const goal_algo_info *a = goal_algo_find(d->algo);
    return a && !(a->flags & GOAL_ALGO_VECTOR);
}
/* Builds rank r of d at p into g. */
static goal_status goal__tune_build(goal_graph *g, const goal_algo_desc *d, int32_t r, int32_t p, goal_error *err) {
    goal_status st = goal_graph_reset(g, r, p);
    int32_t done;
    if (st != GOAL_OK) return st;
    done = goal_algo_build(g, d, NULL, 0, NULL, err);
    return done < 0 ? (goal_status)done : GOAL_OK;
}
/* What rank r's schedule s costs at least under m's model, in ps (BOUNDS): its
   CPU takes its sends, its receives (of their buffers' bytes when fill, goal__tune_fill; else
   of 0), execs and calcs one after another; its sending NIC the sends' gaps one after another, and after
   the last of them (any may be last) that message still crosses the wire and takes its
   receiver's CPU. 0 when it cannot tell: LogGOPSim's 0-byte arithmetic (compat), or
   actions on CPUs or NICs other than the first. */
static uint64_t goal__tune_bound(goal__tune_m *m, const goal_schedule *s, int32_t r, int fill) {
    uint64_t cpu = 0, nic = 0, gap;
    int64_t least = INT64_MAX;   /* over the sends: what crossing and receiving add past its gap */
    goal_action a;
    uint32_t i;
    if (m->compat) return 0;
    for (i = 0; i < s->nactions; i++) {
        goal_schedule_action(s, i, &a);
        if (a.cpu || a.nic) return 0;
        if (a.kind == GOAL_SEND) {
            gap = goal__tune_cost(m, GOAL_SIM_COST_NIC_GAP, r, a.peer, 0, a.buf.size);
            nic += gap;
            cpu = goal__tune_cost(m, GOAL_SIM_COST_SEND_CPU, r, a.peer, cpu, a.buf.size);
            a.cost = goal__tune_cost(m, GOAL_SIM_COST_RECV_CPU, r, a.peer, goal__tune_cost(m, GOAL_SIM_COST_WIRE, r, a.peer, 0, a.buf.size), a.buf.size);
            if ((int64_t)a.cost - (int64_t)gap < least) least = (int64_t)a.cost - (int64_t)gap;
        } else if (a.kind == GOAL_RECV && a.peer != GOAL_ANY) {
            cpu = goal__tune_cost(m, GOAL_SIM_COST_RECV_CPU, a.peer, r, cpu, fill ? a.buf.size : 0);
        } else {
            cpu = goal__tune_local(m, cpu, &a);
        }
    }
    if (goal__tune_over(m)) return 0;
    if (least != INT64_MAX && (int64_t)nic + least > 0 && (uint64_t)((int64_t)nic + least) > cpu) return (uint64_t)((int64_t)nic + least);
    return cpu;
}
/* ---- the chain bound: how long a rank waits before its first receive completes -------------
   An action that needs a receive to complete, or any action that needs such an action, is
   held: it starts no earlier than its rank's first receive completes, at F(r). A rank
   whose sends to q are all held sends to q no earlier than F(r), else from time 0; a
   receive from q then completes no earlier than that message's crossing and receiving
   (the model's wire and recv_cpu), so F(r) is at least the least of those over r's
   receives, and the rank's time at least F(r) plus the CPU time of its held actions, one
   after another. Ranks are built one at a time (no world), walking from a rank to those it
   receives from, depth first; a rank not walked (past the budget, or still on the walk: a
   cycle) counts as sending from time 0, so every F stays a lower bound. A chain of p ranks
   is then p - 1 crossings, where the per-rank bound sees one. Like goal__tune_bound, it
   assumes every action on CPU 0 and NIC 0 (an arrival takes the CPU its send names). */
#define GOAL__TUNE_WALK 128              /* ranks built per starting rank, */
#define GOAL__TUNE_WALK_ACTIONS 65536    /* and their actions at most (then one more rank) */
#define GOAL__TUNE_WALK_BITS 10          /* the rank table: 2^10 slots for up to 2 x 129 ranks */
typedef struct goal__walk_rank {
    int32_t rank;
    uint8_t done, any;                   /* F known; receives from GOAL_ANY (F: 0) */
    uint32_t recv, nrecv;                /* in goal__walk.peers: peer << 32 | bytes it receives, by peer */
    uint32_t unheld, nunheld;            /* in goal__walk.peers: peers it sends to unheld, sorted */
    uint32_t next;                       /* the walk: its next receive peer to visit */
    uint64_t F, held;                    /* its first receive's completion; its held actions' CPU time */
} goal__walk_rank;
typedef struct goal__walk {
    goal__tune_m *m;
    goal_allocator a;
    int fill;                            /* receives cost their buffer's bytes (else 0: goal__tune_fill) */
    goal__walk_rank *rk; size_t nrk, caprk;
    uint64_t *peers; size_t npeers, cappeers;
    int32_t *stack; size_t nstack;
    uint32_t tab[1u << GOAL__TUNE_WALK_BITS];   /* rank -> index in rk + 1, open addressing */
    uint8_t *held; size_t capheld;       /* of the rank being added: which actions are held */
    uint32_t *queue; size_t capqueue;
    int unknown;                         /* a rank has actions on other CPUs or NICs: no bound */
    size_t actions;                      /* built so far */
} goal__walk;

/* Rank r's slot in the table (multiplicative hashing: the high bits). */
static size_t goal__walk_slot(int32_t r, size_t k) {
    return (((uint32_t)r * 2654435761u >> (32 - GOAL__TUNE_WALK_BITS)) + k) & ((1u << GOAL__TUNE_WALK_BITS) - 1u);
}
static goal__walk_rank *goal__walk_find(const goal__walk *w, int32_t r) {
    size_t k, s;
    for (k = 0; w->tab[s = goal__walk_slot(r, k)]; k++)
        if (w->rk[w->tab[s] - 1u].rank == r) return &w->rk[w->tab[s] - 1u];
    return NULL;
}
static void goal__walk_put(goal__walk *w, int32_t r) {
    size_t k = 0;
    while (w->tab[goal__walk_slot(r, k)]) k++;
    w->tab[goal__walk_slot(r, k)] = (uint32_t)w->nrk;
}
static goal_status goal__walk_peer(goal__walk *w, uint64_t v) {
    if (GOAL__RESERVE(&w->a, w->peers, w->cappeers, w->npeers + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    w->peers[w->npeers++] = v;
    return GOAL_OK;
}
static int goal__walk_by_value(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}
/* Sorts peers[from, npeers) and keeps the first of each peer (v >> shift): the least bytes. */
static uint32_t goal__walk_unique(goal__walk *w, size_t from, int shift) {
    size_t k, n = from;
    if (w->npeers - from > 1) qsort(w->peers + from, w->npeers - from, sizeof *w->peers, goal__walk_by_value);
    for (k = from; k < w->npeers; k++)
        if (n == from || w->peers[k] >> shift != w->peers[n - 1] >> shift) w->peers[n++] = w->peers[k];
    w->npeers = n;
    return (uint32_t)(n - from);
}
/* Whether entry f sends to rank r unheld (binary search of its sorted list). */
static int goal__walk_unheld(const goal__walk *w, const goal__walk_rank *f, int32_t r) {
    const uint64_t *lo = w->peers + f->unheld, *hi = lo + f->nunheld;
    while (lo < hi) {
        const uint64_t *mid = lo + (hi - lo) / 2;
        if (*mid < (uint64_t)(uint32_t)r) lo = mid + 1; else hi = mid;
    }
    return lo < w->peers + f->unheld + f->nunheld && *lo == (uint64_t)(uint32_t)r;
}
/* Which actions of s are held (w->held), by a walk from the receives' completions. */
static goal_status goal__walk_held(goal__walk *w, const goal_schedule *s) {
    uint32_t i, k, n, dep, head = 0, tail = 0;
    const uint32_t *d;
    goal_action a;
    if (GOAL__RESERVE(&w->a, w->held, w->capheld, s->nactions + 1u) != GOAL_OK ||   /* + 1: never NULL for memset */
        GOAL__RESERVE(&w->a, w->queue, w->capqueue, s->nactions + 1u) != GOAL_OK)
        return GOAL_ERR_NOMEM;
    memset(w->held, 0, s->nactions);
    for (i = 0; i < s->nactions; i++) {
        goal_schedule_action(s, i, &a);
        if (a.kind != GOAL_RECV) continue;
        for (n = goal_schedule_deps(s, i, &d), k = 0; k < n; k++)
            if (!((dep = GOAL__LE32(d[k])) & GOAL__DEP_START) && !w->held[dep]) w->held[w->queue[tail++] = dep] = 1;
    }
    while (head < tail)
        for (i = w->queue[head++], n = goal_schedule_deps(s, i, &d), k = 0; k < n; k++)
            if (!w->held[dep = GOAL__LE32(d[k]) & ~GOAL__DEP_START]) w->held[w->queue[tail++] = dep] = 1;
    return GOAL_OK;
}
/* Entry e of schedule s: what it receives from whom, whom it sends to unheld, its held CPU
   time; w->unknown when the walk cannot tell (actions on other CPUs or NICs). */
static goal_status goal__walk_fill(goal__walk *w, goal__walk_rank *e, const goal_schedule *s) {
    goal__tune_m *m = w->m;
    goal_action a;
    goal_status st = GOAL_OK;
    uint32_t i;
    e->recv = (uint32_t)w->npeers;
    for (i = 0; i < s->nactions && st == GOAL_OK; i++) {
        goal_schedule_action(s, i, &a);
        if (a.cpu || a.nic) w->unknown = 1;
        else if (a.kind == GOAL_RECV && a.peer == GOAL_ANY) e->any = 1;
        else if (a.kind == GOAL_RECV)
            st = goal__walk_peer(w, (uint64_t)(uint32_t)a.peer << 32 | (w->fill ? (a.buf.size < 0xFFFFFFFFu ? a.buf.size : 0xFFFFFFFFu) : 0u));
    }
    if (st != GOAL_OK) return st;
    e->nrecv = goal__walk_unique(w, e->recv, 32);
    e->unheld = (uint32_t)w->npeers;
    for (i = 0; i < s->nactions && st == GOAL_OK; i++) {
        goal_schedule_action(s, i, &a);
        if (a.kind == GOAL_SEND && !w->held[i]) st = goal__walk_peer(w, (uint32_t)a.peer);
        else if (w->held[i] && a.kind != GOAL_RECV)
            e->held = goal__tune_add(m, e->held, a.kind == GOAL_SEND ? goal__tune_cost(m, GOAL_SIM_COST_SEND_CPU, s->rank, a.peer, 0, a.buf.size)
                                                : goal__tune_local(m, 0, &a));
    }
    if (st == GOAL_OK) e->nunheld = goal__walk_unique(w, e->unheld, 0);
    return st;
}
/* Builds rank r and adds its entry. */
static goal_status goal__walk_add(goal__walk *w, const goal_algo_desc *d, goal_graph *g, int32_t r, int32_t p, goal_error *err) {
    goal__walk_rank *e;
    goal_schedule s;
    goal_status st;
    if ((st = goal__tune_build(g, d, r, p, err)) != GOAL_OK || (st = goal_compile(g, &s, err)) != GOAL_OK) return st;
    w->actions += s.nactions;
    st = GOAL__RESERVE(&w->a, w->rk, w->caprk, w->nrk + 1u) != GOAL_OK ? GOAL_ERR_NOMEM : goal__walk_held(w, &s);
    if (st == GOAL_OK) {
        e = &w->rk[w->nrk];
        memset(e, 0, sizeof *e);
        e->rank = r;
        st = goal__walk_fill(w, e, &s);
    }
    goal_schedule_free(&s);
    if (st != GOAL_OK) return st;
    w->nrk++;
    goal__walk_put(w, r);
    return GOAL_OK;
}
/* F of entry e, from the entries of the ranks it receives from (walked or not). */
static uint64_t goal__walk_first(goal__walk *w, const goal__walk_rank *e) {
    goal__tune_m *m = w->m;
    uint64_t F = ~(uint64_t)0, t;
    uint32_t k;
    if (e->any || !e->nrecv) return 0;
    for (k = e->recv; k < e->recv + e->nrecv; k++) {
        int32_t q = (int32_t)(w->peers[k] >> 32);
        uint64_t bytes = w->peers[k] & 0xFFFFFFFFu;
        const goal__walk_rank *f = goal__walk_find(w, q);
        t = f && f->done && !goal__walk_unheld(w, f, e->rank) ? f->F : 0;   /* q's sends to e are all held */
        t = goal__tune_cost(m, GOAL_SIM_COST_RECV_CPU, q, e->rank, goal__tune_cost(m, GOAL_SIM_COST_WIRE, q, e->rank, t, bytes), bytes);
        if (t < F) F = t;
    }
    return F;
}
/* The walk from rank `start`, at most GOAL__TUNE_WALK new ranks. */
static goal_status goal__walk_from(goal__walk *w, const goal_algo_desc *d, goal_graph *g, int32_t start, int32_t p, goal_error *err) {
    size_t budget = w->nrk + GOAL__TUNE_WALK, actions = w->actions + GOAL__TUNE_WALK_ACTIONS;
    goal_status st;
    if (goal__walk_find(w, start)) return GOAL_OK;
    if ((st = goal__walk_add(w, d, g, start, p, err)) != GOAL_OK || w->unknown) return st;
    w->nstack = 0;
    w->stack[w->nstack++] = (int32_t)(w->nrk - 1u);
    while (w->nstack) {
        goal__walk_rank *e = &w->rk[w->stack[w->nstack - 1]];
        if (e->next < e->nrecv) {
            int32_t q = (int32_t)(w->peers[e->recv + e->next++] >> 32);
            if (w->nrk >= budget || w->actions >= actions || goal__walk_find(w, q)) continue;
            if ((st = goal__walk_add(w, d, g, q, p, err)) != GOAL_OK || w->unknown) return st;
            w->stack[w->nstack++] = (int32_t)(w->nrk - 1u);
        } else {
            e->F = goal__walk_first(w, e);
            e->done = 1;
            w->nstack--;
        }
    }
    return GOAL_OK;
}
/* The chain bound of d at p (0 when it cannot tell), walking from ranks 0 and p - 1, the ends
   of chains, with g as the graph to build in. */
static goal_status goal__tune_chain(const goal_algo_desc *d, int32_t p, goal__tune_m *m, int fill, goal_graph *g, uint64_t *bound,
                                    goal_error *err) {
    goal__walk *w;
    goal_allocator a = goal__allocator(&d->alloc);
    goal_status st = GOAL_OK;
    const int32_t start[2] = {0, p - 1};
    size_t k;
    *bound = 0;
    if (m->compat) return GOAL_OK;
    if (!(w = (goal__walk *)goal__new(&a, 1, sizeof *w))) return GOAL_ERR_NOMEM;
    memset(w, 0, sizeof *w);
    w->m = m; w->a = a; w->fill = fill;
    if (!(w->stack = (int32_t *)goal__new(&a, 2u * GOAL__TUNE_WALK + 2u, sizeof(int32_t)))) st = GOAL_ERR_NOMEM;
    for (k = 0; k < 2 && st == GOAL_OK && !w->unknown; k++) st = goal__walk_from(w, d, g, start[k], p, err);
    for (k = 0; k < w->nrk && st == GOAL_OK; k++) {
        uint64_t b = goal__tune_add(m, w->rk[k].F, w->rk[k].held);
        if (w->rk[k].done && w->rk[k].nrecv && b > *bound) *bound = b;
    }
    if (goal__tune_over(m) || w->unknown) { *bound = 0; m->over = 0; }
    goal__free(&a, w->rk); goal__free(&a, w->peers); goal__free(&a, w->stack);
    goal__free(&a, w->held); goal__free(&a, w->queue); goal__free(&a, w);
    return st;
}

/* Rank r's compiled schedule into the estimate: *squares (when not NULL: its independent
   actions squared, times p-1 for rank 1) and *bound (when m is not NULL: the larger of
   goal__tune_bound). */
static goal_status goal__tune_compiled(const goal_graph *g, int32_t r, int32_t p, goal__tune_m *m, int fill, double *squares,
                                       uint64_t *bound, goal_error *err) {
    goal_schedule s;
    uint64_t b;
    goal_status st = goal_compile(g, &s, err);
    if (st != GOAL_OK) return st;
    if (squares) *squares += (double)s.nindep * (double)s.nindep * (r == 0 ? 1.0 : (double)(p - 1));
    if (m && (b = goal__tune_bound(m, &s, r, fill)) > *bound) *bound = b;
    goal_schedule_free(&s);
    return GOAL_OK;
}
/* Rank 0's actions plus p-1 times rank 1's: the world's size without building it; *squares
   the same sum for the squares of the ranks' independent actions; *bound (when m is not
   NULL) the larger goal__tune_bound of rank 0 and rank 1. Rank 1 is built first, and a
   rank stops being built once it holds more actions than fit the limit (*actions is then
   GOAL__TUNE_MAX_ACTIONS + 1: alltoall_bruck at p = 2^16 holds 1.1 M actions per rank,
   and building it at each of tune's sizes was most of the planning); a world with too
   many actions is not compiled (squares and bound stay 0: it is left out for its actions). */
static goal_status goal__tune_estimate(const goal_algo_desc *d, int32_t p, goal__tune_m *m, int fill, double *actions,
                                       double *squares, uint64_t *bound, goal_error *err) {
    goal_graph_desc gd;
    goal_graph *g[2] = {NULL, NULL};
    goal_status st = GOAL_OK;
    int32_t r;
    *actions = *squares = 0;
    *bound = 0;
    memset(&gd, 0, sizeof gd);
    gd.nranks = p;
    gd.alloc = d->alloc;
    for (r = p > 1; r >= 0 && st == GOAL_OK && *actions <= GOAL__TUNE_MAX_ACTIONS; r--) {
        double times = r == 0 ? 1.0 : (double)(p - 1);
        uint32_t most = (uint32_t)((GOAL__TUNE_MAX_ACTIONS - *actions) / times) + 1u;
        if ((st = goal_graph_create(&g[r], &gd, NULL)) != GOAL_OK) break;
        goal_graph_max_actions(g[r], most);
        st = goal__tune_build(g[r], d, r, p, err);
        if (st == GOAL_ERR_LIMIT && goal_graph_count(g[r]) == (int32_t)most) { *actions = GOAL__TUNE_MAX_ACTIONS + 1; st = GOAL_OK; }
        else if (st == GOAL_OK) *actions += (double)goal_graph_count(g[r]) * times;
    }
    for (r = 0; r < 2 && r < p && st == GOAL_OK && *actions <= GOAL__TUNE_MAX_ACTIONS; r++)
        st = goal__tune_compiled(g[r], r, p, m, fill, squares, bound, err);
    goal_graph_destroy(g[0]);
    goal_graph_destroy(g[1]);
    return st;
}
/* Raises *bound (of ranks 0 and 1) by a sample of other ranks (the last ones, the middle:
   where roles differ; allgather_bruck's rotations cost little on ranks 0 and 1) and by the
   chain bound, for a world that is not left out. */
static goal_status goal__tune_more(const goal_algo_desc *d, int32_t p, goal__tune_m *m, int fill, uint64_t *bound, goal_error *err) {
    const int32_t sample[4] = {p / 3, p / 2, p - 2, p - 1};
    goal_graph_desc gd;
    goal_graph *g;
    goal_status st;
    uint64_t chain;
    int k;
    memset(&gd, 0, sizeof gd);
    gd.nranks = p;
    gd.alloc = d->alloc;
    if ((st = goal_graph_create(&g, &gd, NULL)) != GOAL_OK) return st;
    for (k = 0; k < 4 && st == GOAL_OK; k++) {
        if (sample[k] < 2 || (k && sample[k] <= sample[k - 1])) continue;   /* ranks 0 and 1 are done; no rank twice */
        if ((st = goal__tune_build(g, d, sample[k], p, err)) == GOAL_OK)
            st = goal__tune_compiled(g, sample[k], p, m, fill, NULL, bound, err);
    }
    if (st == GOAL_OK && (st = goal__tune_chain(d, p, m, fill, g, &chain, err)) == GOAL_OK && chain > *bound) *bound = chain;
    goal_graph_destroy(g);
    return st;
}
/* Why d at p is left out (into err), or 0: LIMITS. */
static int goal__tune_too_big(const goal_algo_desc *d, int32_t p, double actions, double squares, goal_error *err) {
    const goal_algo_info *a = goal_algo_find(d->algo);
    uint64_t bytes = d->count * goal_dtype_size(d->dtype);
    if (d->segment && bytes / d->segment > GOAL__TUNE_MAX_SEGMENTS)
        goal__fail(err, GOAL_ERR_LIMIT, -1, "more than %d segments", GOAL__TUNE_MAX_SEGMENTS);
    else if (p > GOAL__TUNE_MAX_SETS_P && a && (a->flags & GOAL_ALGO_SETS))
        goal__fail(err, GOAL_ERR_LIMIT, -1, "its generator takes O(p) per rank (limit p = %d)", GOAL__TUNE_MAX_SETS_P);
    else if (actions > GOAL__TUNE_MAX_ACTIONS)
        goal__fail(err, GOAL_ERR_LIMIT, -1, "more than %.0f actions", GOAL__TUNE_MAX_ACTIONS);
    else if (squares > GOAL__TUNE_MAX_SQUARES)
        goal__fail(err, GOAL_ERR_LIMIT, -1, "independent actions per rank squared sum to about %.3g (limit %.3g)", squares,
                      GOAL__TUNE_MAX_SQUARES);
    else return 0;
    return 1;
}
/* The estimate and the limits (with the bound when m is not NULL): GOAL_OK when d at p is
   simulated, GOAL_ERR_LIMIT and *left_out when it is left out. */
static goal_status goal__tune_check(const goal_algo_desc *d, int32_t p, const goal_sim_desc *model, goal__tune_m *m, uint64_t *bound,
                                    int *left_out, goal_error *err) {
    double actions = 0, squares = 0;
    goal_status st;
    int fill;
    *left_out = 0;
    *bound = 0;
    if (!d || !d->algo || p < 1 || !model) return goal__fail(err, GOAL_ERR_ARG, -1, "no desc, no model or p < 1");
    if (err) err->msg[0] = 0;
    if (m && (st = goal_sim_costs_create(&m->c, model, err)) != GOAL_OK) return st;
    if (m) m->compat = model->loggopsim_compat;
    if ((*left_out = goal__tune_too_big(d, p, 0, 0, err)) != 0) return GOAL_ERR_LIMIT;
    fill = goal__tune_fill(d);
    if ((st = goal__tune_estimate(d, p, m, fill, &actions, &squares, bound, err)) != GOAL_OK) return st;
    if ((*left_out = goal__tune_too_big(d, p, actions, squares, err)) != 0) return GOAL_ERR_LIMIT;
    return m && p > 2 ? goal__tune_more(d, p, m, fill, bound, err) : GOAL_OK;
}
goal_status goal_tune_algo_bound(const goal_algo_desc *d, int32_t p, const goal_sim_desc *model, double *ns, int *left_out,
                                 goal_error *err) {
    goal__tune_m m;
    uint64_t bound;
    goal_status st;
    memset(&m, 0, sizeof m);
    st = goal__tune_check(d, p, model, &m, &bound, left_out, err);
    goal_sim_costs_destroy(m.c);
    *ns = st == GOAL_OK ? (double)bound / 1000.0 : 0;
    return st;
}
goal_status goal_tune_algo_time(const goal_algo_desc *d, int32_t p, const goal_sim_desc *model, double *ns, int *left_out,
                                goal_error *err) {
    goal_world *w;
    goal_sim_run_result res;
    goal_status st;
    uint64_t none;
    *ns = 0;
    if ((st = goal__tune_check(d, p, model, NULL, &none, left_out, err)) != GOAL_OK) return st;
    if ((st = goal_algo_world(&w, d, p, err)) != GOAL_OK) return st;
    st = goal_sim_run(w, model, &res);
    if (st == GOAL_OK) *ns = (double)res.max_ps / 1000.0;
    else goal__fail(err, st, -1, "simulation: %s", goal_strerror(st));
    goal_sim_run_free(&res);
    goal_world_destroy(w);
    return st;
}
/* ---- >>> the planner -------------------------------------------------------------------- */
#ifndef GOAL_TUNE_NO_THREADS
#define GOAL__TUNE_LOCK(r) pthread_mutex_lock(&(r)->mu)
#define GOAL__TUNE_UNLOCK(r) pthread_mutex_unlock(&(r)->mu)
#else
#define GOAL__TUNE_LOCK(r) ((void)0)
#define GOAL__TUNE_UNLOCK(r) ((void)0)
#endif
#define GOAL__TUNE_TODO 0
#define GOAL__TUNE_SAME (-1)
#define GOAL__TUNE_RUNNING (-2)

goal_status goal_tune_add_algo(goal_tune_plan *t, const goal_algo_info *a, int grid) {
    goal_tune_cfg *c;
    goal_algo_desc d;
    int k;
    for (k = 0; grid ? goal_tune_grid(a, k, &d) : k == 0; k++) {
        if (!grid) { d.nway = 1; d.segment = (a->flags & GOAL_ALGO_SEGMENTED) ? 1024 : 0; d.radix = 0; }
        if (!(t->ncfg & (t->ncfg - 1)) || !t->cfg) {
            goal_tune_cfg *n = (goal_tune_cfg *)realloc(t->cfg, (size_t)(t->ncfg ? 2 * t->ncfg : 16) * sizeof *n);
            if (!n) return GOAL_ERR_NOMEM;
            t->cfg = n;
        }
        c = &t->cfg[t->ncfg++];
        c->algo = a->name; c->coll = (int)a->coll; c->nway = d.nway; c->segment = d.segment; c->radix = d.radix;
        if (a->flags & GOAL_ALGO_NWAY) snprintf(c->label, sizeof c->label, "%s@nway=%d", a->name, d.nway);
        else if ((a->flags & GOAL_ALGO_SEGMENTED) && d.segment) snprintf(c->label, sizeof c->label, "%s@segment=%llu", a->name, (unsigned long long)d.segment);
        else if ((a->flags & GOAL_ALGO_RADIX) && d.radix) snprintf(c->label, sizeof c->label, "%s@radix=%d", a->name, d.radix);
        else snprintf(c->label, sizeof c->label, "%s", a->name);
    }
    return GOAL_OK;
}
/* A segmented configuration whose segment holds the whole message is the same schedule as
   the one with the smallest such segment: simulated once. */
static int goal__tune_same_as(const goal_tune_plan *t, const goal_tune_job *j, int first) {
    const goal_tune_cfg *c = &t->cfg[j->cfg];
    int k;
    if (!c->segment || c->segment < j->size) return -1;
    for (k = first; k < t->njob && &t->job[k] != j; k++)
        if (t->job[k].size == j->size && t->cfg[t->job[k].cfg].algo == c->algo && t->cfg[t->job[k].cfg].segment >= j->size) return k;
    return -1;
}
goal_status goal_tune_add_jobs(goal_tune_plan *t, unsigned colls, const uint64_t *sizes, int nsizes) {
    int coll, s, c, first, barrier, n;
    free(t->job);
    t->njob = t->ngroups = 0;
    t->job = (goal_tune_job *)calloc((size_t)t->ncfg * (size_t)nsizes + 1, sizeof *t->job);
    if (!t->job) return GOAL_ERR_NOMEM;
    for (coll = 0; coll < GOAL_COLL_NTUNED; coll++) {
        if (!(colls >> coll & 1)) continue;
        barrier = goal_coll_get(coll)->out_blocks == 0;   /* a barrier has no size: once, as size 0 */
        n = barrier && nsizes ? 1 : nsizes;
        for (s = 0; s < n; s++) {
            first = t->njob;
            for (c = 0; c < t->ncfg; c++) {
                goal_tune_job *j = &t->job[t->njob];
                if (t->cfg[c].coll != coll) continue;
                j->cfg = c;
                j->size = barrier ? 0 : sizes[s];
                j->same_as = goal__tune_same_as(t, j, first);
                j->state = j->same_as >= 0 ? GOAL__TUNE_SAME : GOAL__TUNE_TODO;
                j->group = t->ngroups;
                t->njob++;
            }
            t->ngroups++;
        }
    }
    return GOAL_OK;
}
void goal_tune_plan_free(goal_tune_plan *t) {
    free(t->cfg);
    free(t->job);
    t->cfg = NULL; t->job = NULL;
    t->ncfg = t->njob = t->ngroups = 0;
}

typedef struct goal__tune_group {   /* one (collective, size), when pruning */
    int first, end;            /* its jobs: job[first, end); first = -1: none */
    int coll;
    int best_job;              /* its fastest finished so far (what could win), or -1 */
    int running;               /* how many of its jobs are being simulated */
    int open;                  /* how many are to do or running: its fastest may still change */
} goal__tune_group;
typedef struct goal__tune_run {
    goal_tune_plan *t;
    int next, bounding;        /* bounding: the workers compute bounds */
    int ntodo, ndecided;       /* jobs to simulate, and those simulated or pruned (progress) */
    int *order;                /* the jobs to simulate, by (group, bound) */
    int norder;
    goal__tune_group *grp;     /* when pruning: per group */
#ifndef GOAL_TUNE_NO_THREADS
    pthread_mutex_t mu;
#endif
} goal__tune_run;

static void goal__tune_desc(const goal_tune_plan *t, const goal_tune_job *j, goal_algo_desc *d) {
    const goal_tune_cfg *c = &t->cfg[j->cfg];
    memset(d, 0, sizeof *d);
    d->algo = c->algo;
    d->count = j->size;            /* int8: bytes */
    d->dtype = GOAL_INT8;
    d->op = GOAL_OP_SUM;
    d->nway = c->nway;
    d->segment = c->segment;
    d->radix = c->radix;
}
/* Simulates j, stopping once it takes longer than stop ns (> 0: the fastest so far, so it loses). */
static void goal__tune_run_job(const goal_tune_plan *t, goal_tune_job *j, double stop) {
    goal_algo_desc d;
    goal_sim_desc model = t->model;
    goal_error err;
    int left_out = 0;
    goal__tune_desc(t, j, &d);
    err.msg[0] = 0;
    model.stop_ns = stop;
    j->status = goal_tune_algo_time(&d, t->p, &model, &j->time, &left_out, &err);
    j->state = j->status == GOAL_OK ? GOAL_TUNE_DONE : j->status == GOAL_PENDING ? GOAL_TUNE_SLOWER : left_out ? GOAL_TUNE_SKIP : GOAL_TUNE_FAIL;
    if (j->status != GOAL_OK) snprintf(j->msg, sizeof j->msg, "%.159s", err.msg[0] ? err.msg : goal_strerror(j->status));
}
/* The job's lower bound; a world left out is marked so here, with the message
   goal_tune_algo_time would give. */
static void goal__tune_bound_job(const goal_tune_plan *t, goal_tune_job *j) {
    goal_algo_desc d;
    goal_error err;
    int left_out = 0;
    goal__tune_desc(t, j, &d);
    err.msg[0] = 0;
    if (goal_tune_algo_bound(&d, t->p, &t->model, &j->bound, &left_out, &err) == GOAL_OK || !left_out) return;
    j->state = GOAL_TUNE_SKIP;
    j->status = GOAL_ERR_LIMIT;
    snprintf(j->msg, sizeof j->msg, "%.159s", err.msg);
}
/* Group g's fastest time so far, or -1. */
static double goal__tune_best_time(const goal__tune_run *r, int g) {
    return r->grp[g].best_job >= 0 ? r->t->job[r->grp[g].best_job].time : -1;
}
/* The group of the next smaller size of g's collective, or -1. */
static int goal__tune_prev(const goal__tune_run *r, int g) {
    return g > 0 && r->grp[g - 1].first >= 0 && r->grp[g - 1].coll == r->grp[g].coll ? g - 1 : -1;
}
/* The first job of j's group to simulate, when none has finished: the configuration that
   is fastest so far at the nearest smaller size of the collective (winners change slowly
   with the size), if it is still to do; else j. Once it has finished, the group's other
   configurations stop as soon as they are slower than it, not slower than a poor first.
   The groups of one collective list the same configurations in the same order
   (goal_tune_add_jobs), so that configuration is at the same offset in j's group. */
static goal_tune_job *goal__tune_hint(const goal__tune_run *r, goal_tune_job *j) {
    goal_tune_job *h;
    int p;
    for (p = goal__tune_prev(r, j->group); p >= 0 && r->grp[p].best_job < 0; p = goal__tune_prev(r, p)) {}
    if (p < 0) return j;
    h = &r->t->job[r->grp[j->group].first + (r->grp[p].best_job - r->grp[p].first)];
    return h->state == GOAL__TUNE_TODO ? h : j;
}
/* 1: j had better wait, as it would run without a stop while one is coming: its group has
   no time yet but a job running, or the next smaller size (goal__tune_hint's source) is not
   decided yet. So a collective's sizes run one after another, each started by the winner
   of the size before, while other collectives fill the threads. */
static int goal__tune_waiting(const goal__tune_run *r, const goal_tune_job *j) {
    int p = goal__tune_prev(r, j->group);
    if (r->grp[j->group].best_job >= 0) return 0;
    return r->grp[j->group].running || (p >= 0 && r->grp[p].open);
}
/* The next job for a worker when pruning (under the lock), or -1: in r->order, the first
   that need not wait (goal__tune_waiting; else the first that waits), by goal__tune_hint
   when its group has no time yet, passing over those that cannot win (GOAL_TUNE_SLOWER). */
static int goal__tune_next_pruned(goal__tune_run *r) {
    goal_tune_plan *t = r->t;
    int i, pick = -1;
    goal_tune_job *j;
    for (i = r->next; i < r->norder; i++) {
        j = &t->job[r->order[i]];
        if (j->state != GOAL__TUNE_TODO) continue;
        if (goal__tune_best_time(r, j->group) >= 0 && j->bound > goal__tune_best_time(r, j->group)) {
            j->state = GOAL_TUNE_SLOWER;
            j->status = GOAL_PENDING;
            r->ndecided++;
            r->grp[j->group].open--;
            continue;
        }
        if (pick < 0) pick = i;
        if (!goal__tune_waiting(r, j)) { pick = i; break; }
    }
    while (r->next < r->norder && t->job[r->order[r->next]].state != GOAL__TUNE_TODO) r->next++;
    if (pick < 0) return -1;
    j = &t->job[r->order[pick]];
    if (r->grp[j->group].best_job < 0) j = goal__tune_hint(r, j);
    j->state = GOAL__TUNE_RUNNING;
    r->grp[j->group].running++;
    return (int)(j - t->job);
}
/* The next job for a worker (under the lock), or -1: in job order, or when pruning, by
   goal__tune_next_pruned. */
static int goal__tune_next(goal__tune_run *r) {
    if (r->t->prune && !r->bounding) return goal__tune_next_pruned(r);
    while (r->next < r->t->njob && r->t->job[r->next].state != GOAL__TUNE_TODO) r->next++;
    return r->next < r->t->njob ? r->next++ : -1;
}
/* Job k finished (under the lock): its group's fastest so far. */
static void goal__tune_finished(goal__tune_run *r, int k) {
    goal__tune_group *g = &r->grp[r->t->job[k].group];
    g->running--;
    g->open--;
    if (r->t->job[k].state == GOAL_TUNE_DONE && (g->best_job < 0 || r->t->job[k].time < r->t->job[g->best_job].time)) g->best_job = k;
}
static void *goal__tune_worker(void *arg) {
    goal__tune_run *r = (goal__tune_run *)arg;
    goal_tune_plan *t = r->t;
    double stop;
    int k;
    for (;;) {
        GOAL__TUNE_LOCK(r);
        k = goal__tune_next(r);
        stop = k >= 0 && t->prune && !r->bounding && goal__tune_best_time(r, t->job[k].group) > 0 ? goal__tune_best_time(r, t->job[k].group) : 0;
        GOAL__TUNE_UNLOCK(r);
        if (k < 0) return NULL;
        if (r->bounding) { goal__tune_bound_job(t, &t->job[k]); continue; }
        goal__tune_run_job(t, &t->job[k], stop);
        GOAL__TUNE_LOCK(r);
        if (t->prune) goal__tune_finished(r, k);
        ++r->ndecided;
        if (t->progress) t->progress(t->progress_arg, (unsigned long)r->ndecided, (unsigned long)r->ntodo);
        GOAL__TUNE_UNLOCK(r);
    }
}
/* Runs goal__tune_worker on t->threads threads (this one among them). */
static void goal__tune_workers(goal__tune_run *r) {
#ifndef GOAL_TUNE_NO_THREADS
    pthread_t th[64];
    int k, started = 0, n = r->t->threads < 64 ? r->t->threads : 64;
    r->next = 0;
    for (k = 1; k < n; k++)
        if (pthread_create(&th[started], NULL, goal__tune_worker, r) == 0) started++;
    goal__tune_worker(r);
    for (k = 0; k < started; k++) pthread_join(th[k], NULL);
#else
    r->next = 0;
    goal__tune_worker(r);
#endif
}
/* What the plan sorts jobs by: qsort has no context argument in C99, so a copy of each
   job's keys rather than its index into t->job. */
typedef struct goal__tune_key {
    int group, wave, k;        /* wave: the job's rank by bound in its group */
    uint64_t size;
    double bound;
} goal__tune_key;
static int goal__tune_by_bound(const void *x, const void *y) {
    const goal__tune_key *a = (const goal__tune_key *)x, *b = (const goal__tune_key *)y;
    if (a->group != b->group) return a->group < b->group ? -1 : 1;
    if (a->bound != b->bound) return a->bound < b->bound ? -1 : 1;
    return a->k < b->k ? -1 : 1;
}
static int goal__tune_by_wave(const void *x, const void *y) {
    const goal__tune_key *a = (const goal__tune_key *)x, *b = (const goal__tune_key *)y;
    if (a->wave != b->wave) return a->wave < b->wave ? -1 : 1;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    return goal__tune_by_bound(x, y);
}
/* Bounds first; then in waves: every group's least bound, every group's second least, ...
   so that when a group's later configurations start, its fastest time so far is known
   (the other threads would otherwise take them while the first is still running). Within
   a wave by size, so that a group's smaller neighbour has likely finished when its first
   job starts, for goal__tune_hint. */
static goal_status goal__tune_plan(goal__tune_run *r) {
    goal_tune_plan *t = r->t;
    goal__tune_key *key;
    int k;
    r->order = (int *)malloc((size_t)t->njob * sizeof *r->order + 1);
    r->grp = (goal__tune_group *)calloc((size_t)t->ngroups + 1, sizeof *r->grp);
    if (!r->order || !r->grp) return GOAL_ERR_NOMEM;
    for (k = 0; k < t->ngroups; k++) r->grp[k].first = r->grp[k].best_job = -1;
    for (k = 0; k < t->njob; k++) {
        goal__tune_group *g = &r->grp[t->job[k].group];
        if (g->first < 0) g->first = k, g->coll = t->cfg[t->job[k].cfg].coll;
        g->end = k + 1;
    }
    r->bounding = 1;
    goal__tune_workers(r);
    r->bounding = 0;
    if (!(key = (goal__tune_key *)malloc((size_t)t->njob * sizeof *key + 1))) return GOAL_ERR_NOMEM;
    for (k = 0; k < t->njob; k++) {
        const goal_tune_job *j = &t->job[k];
        if (j->state != GOAL__TUNE_TODO) continue;
        key[r->norder].group = j->group; key[r->norder].k = k;
        key[r->norder].size = j->size; key[r->norder++].bound = j->bound;
        r->grp[j->group].open++;
    }
    qsort(key, (size_t)r->norder, sizeof *key, goal__tune_by_bound);
    for (k = 0; k < r->norder; k++) key[k].wave = k && key[k - 1].group == key[k].group ? key[k - 1].wave + 1 : 0;
    qsort(key, (size_t)r->norder, sizeof *key, goal__tune_by_wave);
    for (k = 0; k < r->norder; k++) r->order[k] = key[k].k;
    free(key);
    return GOAL_OK;
}
/* Each group's fastest finished job (ties: the first) is its winner. */
static void goal__tune_mark_winners(goal_tune_plan *t) {
    int k, first = 0;
    for (k = 0; k <= t->njob; k++) {
        int b = -1, i;
        if (k < t->njob && t->job[k].group == t->job[first].group) continue;
        for (i = first; i < k; i++)
            if (t->job[i].state == GOAL_TUNE_DONE && (b < 0 || t->job[i].time < t->job[b].time)) b = i;
        if (b >= 0) t->job[b].win = 1;
        first = k;
    }
}
goal_status goal_tune_run(goal_tune_plan *t, goal_error *err) {
    goal__tune_run r;
    goal_status st = GOAL_OK;
    int k;
    if (!t || t->p < 1) return goal__fail(err, GOAL_ERR_ARG, -1, "no plan or p < 1");
    memset(&r, 0, sizeof r);
    r.t = t;
    if (t->threads < 1) t->threads = 1;
#ifdef GOAL_TUNE_NO_THREADS
    t->threads = 1;
#else
    pthread_mutex_init(&r.mu, NULL);
#endif
    if (t->prune) st = goal__tune_plan(&r);
    for (k = 0; k < t->njob; k++) r.ntodo += t->job[k].state == GOAL__TUNE_TODO;
    if (st == GOAL_OK) goal__tune_workers(&r);
#ifndef GOAL_TUNE_NO_THREADS
    pthread_mutex_destroy(&r.mu);
#endif
    free(r.order);
    free(r.grp);
    if (st != GOAL_OK) return goal__fail(err, st, -1, "out of memory");
    for (k = 0; k < t->njob; k++) {
        goal_tune_job *j = &t->job[k];
        if (j->state != GOAL__TUNE_SAME) continue;
        j->state = t->job[j->same_as].state;
        j->status = t->job[j->same_as].status;
        j->time = t->job[j->same_as].time;
        memcpy(j->msg, t->job[j->same_as].msg, sizeof j->msg);
    }
    goal__tune_mark_winners(t);
    return GOAL_OK;
}
/* The planner with pruning on one thread for one (collective, size), with default
   parameters. */
goal_status goal_tune_best(int coll, int32_t p, uint64_t bytes, const goal_sim_desc *model, uint32_t require,
                           const goal_algo_info **best, double *ns, goal_error *err) {
    goal_tune_plan t;
    const goal_algo_info *a;
    goal_status st = GOAL_OK;
    int i, last = -1;
    *best = NULL;
    *ns = 0;
    if (coll < 0 || coll >= GOAL_COLL_NTUNED || p < 1 || !model) return goal__fail(err, GOAL_ERR_ARG, -1, "no collective %d, p < 1 or no model", coll);
    memset(&t, 0, sizeof t);
    t.p = p; t.model = *model; t.prune = 1; t.threads = 1;
    for (i = 0; st == GOAL_OK && (a = goal_algo_list(i)) != NULL; i++)
        if (!(a->flags & GOAL_ALGO_VECTOR) && (a->flags & require) == require && (int)a->coll == coll) st = goal_tune_add_algo(&t, a, 0);
    if (st == GOAL_OK) st = goal_tune_add_jobs(&t, 1u << coll, &bytes, 1);
    if (st == GOAL_OK) st = goal_tune_run(&t, err);
    else goal__fail(err, st, -1, "out of memory");
    for (i = 0; st == GOAL_OK && i < t.njob; i++) {
        if (t.job[i].win) { *best = goal_algo_find(t.cfg[t.job[i].cfg].algo); *ns = t.job[i].time; }
        if (t.job[i].state == GOAL_TUNE_SKIP || t.job[i].state == GOAL_TUNE_FAIL) last = i;
    }
    if (st == GOAL_OK && !*best && last >= 0) st = goal__fail(err, t.job[last].status, -1, "%s", t.job[last].msg);
    else if (st == GOAL_OK && !*best) st = goal__fail(err, GOAL_ERR_ARG, -1, "%s has no algorithm with the flags asked for", goal_coll_get(coll)->name);
    goal_tune_plan_free(&t);
    return st;
}

#endif /* GOAL_TUNE_IMPLEMENTATION */
