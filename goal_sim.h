/* goal_sim.h - v0.1.0 - whole-world tools for GOAL: cross-rank matching and deadlock
   detection, LogGOPS simulation (as LogGOPSim computes it), and pictures (Graphviz DOT,
   Chrome trace-event JSON, a self-made SVG timeline).

   In exactly ONE .c or .cpp file:   #define GOAL_SIM_IMPLEMENTATION   then   #include "goal_sim.h"
   (GOAL_ALL_IMPLEMENTATION works as well.) goal.h's implementation must be in the program too.

   Sections: OVERVIEW · CHECK · SIMULATE · DRAW · MEMORY · ERRORS · LIMITS · LICENSE

   OVERVIEW
   --------
   A schedule is written one rank at a time but is right or wrong as a whole. These calls take
   a goal_world (goal.h: every rank's compiled schedule, from goal_parse, goal_world_load or
   goal_world_add_graph) and answer: does every send meet its receive, can everything start,
   how long does it take under LogGOPS, and what does it look like.
     goal_sim_check      matched pairs + findings (unmatched, deadlocked, size mismatches)
     goal_sim_run        finish time of every rank under LogGOPS; optional event callback
     goal_sim_write_dot  Graphviz DOT of one rank or of the whole world
     goal_sim_write_trace / goal_sim_write_svg   the simulated timeline as JSON / SVG
   A rank that was never given a schedule counts as an empty one.

   CHECK (the cDAG paper's Algorithm 1, with MPI matching)
   -----
   A fix-point over the world: the independent actions of all ranks enter a FIFO queue; a
   send that is taken out looks for the first posted, unmatched receive on its peer that
   accepts it (source = sender or -1, tag = tag or -1 on either side); a receive looks for the
   first unmatched send to its rank that it accepts; each side that finds nothing waits in
   its rank's queue, in posting order (MPI's non-overtaking rule). A match completes both
   actions; calc, exec and nop complete when they start; a completion (or a start, for
   irequires) releases dependents, which join the FIFO. By default a send completes only
   when it is matched (like MPI_Ssend: a schedule that needs buffering to progress is
   reported); goal_sim_check_desc.eager_limit makes small sends complete when posted.
   Wildcards make matching order-dependent; the check follows one order (FIFO), as the paper.
   Findings, one per problem, each naming rank and action (its label, or l<index+1> when it
   has none, which is the name `goal fmt` writes):
     GOAL_SIM_UNMATCHED_SEND / _RECV   posted, but nothing ever matches it
     GOAL_SIM_BLOCKED                  never completes: waits for `other`, which never does
     GOAL_SIM_CYCLE                    on a cycle of such waits across ranks (other = next)
     GOAL_SIM_SIZE_ERROR               send larger than its matched receive
     GOAL_SIM_SIZE_WARNING             send smaller than its matched receive
   goal_sim_finding_text formats one as "rank R LABEL (what it is): error|warning: ..." for people.

   COMMAND LINE (tools/: goal check | sim | dot | trace | svg)
     goal check FILE            one finding per line, then "ok: N ranks, M messages matched"
                                when clean; exit 0 clean, 1 findings or bad input
     goal sim FILE [-L -o -g -G -O -S N] [--loggopsim-compat]
                                "rank R T" per rank, then "max T"; exit 3 on deadlock (the
                                stuck actions on stderr), 1 when a message is never received
     goal dot FILE [--rank R] [-o OUT]         Graphviz DOT
     goal trace|svg FILE [sim options] [-o OUT]   timeline; here -o is the output, so the CPU
                                overhead is spelled --overhead N (accepted by sim too)

   SIMULATE (LogGOPS exactly as LogGOPSim 76451de computes it; tests/data/loggopsim/MODEL.md)
   --------
   Parameters (zero = LogGOPSim's default; GOAL_SIM_ZERO asks for a real 0):
     L 2500 latency · o 1500 CPU overhead per message · g 1000 gap per message · G 6 gap per
     byte · O 0 CPU overhead per byte · S 65535 eager limit (size <= S eager, else rendezvous)
   Every rank has CPU clocks (one per cpu index used), send and receive NIC gap clocks (one
   per nic index). Events run in (time, sequence number) order from a binary heap; numbers
   come from one counter in the order LogGOPSim queues things (ranks ascending, then send /
   recv / calc, then readiness order), so ties break exactly as LogGOPSim's do — except that
   libgoal's sort is stable where LogGOPSim's is not (which only changes which rank gets which
   time in large scatters, and lets allreduce_ring finish at p >= 9, where LogGOPSim hangs).
   calc of cost x takes the CPU for x; exec is simulated as calc of its buffer size and nop as
   calc 0 (what the LogGOPSim dialect writer writes for them). A rank's time is the largest
   of its CPU clocks. 0-byte messages: LogGOPSim computes (s-1)*G in unsigned arithmetic and
   charges -G; libgoal charges 0 unless loggopsim_compat is set. A world that cannot finish
   is GOAL_ERR_DEADLOCK, with the actions that never completed in the result.

   DRAW
   ----
   goal_sim_write_dot: one rank's DAG (rank >= 0) or all ranks as clusters with matched
   messages as red edges (rank = -1); colours by kind; requires solid, irequires dashed.
   goal_sim_write_trace: Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev): one
   process per rank, one thread per cpu, complete events for CPU work, flow arrows for
   messages. goal_sim_write_svg: a timeline, one lane per rank, boxes coloured by kind,
   message lines, a time axis; hover a box for its details. All take the simulation desc.

   MEMORY
   ------
   Every call takes a goal_allocator in its desc (zeroed = GOAL_MALLOC / GOAL_FREE); results
   are freed with goal_sim_check_free / goal_sim_result_free. No global state: any number of
   checks and simulations may run at once on the same (unchanged) world.
   The simulator keeps about 44 bytes per rank, 5 per action, 24 per queued event and 16 per
   waiting receive; the check about 20 per rank and 13 per action (plus 16 per kept pair).

   ERRORS
   ------
   goal_status from goal.h: GOAL_ERR_MATCH (check found problems; the result holds them),
   GOAL_ERR_DEADLOCK (simulation stuck), GOAL_ERR_NOMEM, GOAL_ERR_ARG, GOAL_ERR_LIMIT
   (2^31 actions or more in one world), GOAL_ERR_IO (a write_fn failed).

   LIMITS
   ------
   fewer than 2^31 actions in the whole world; times are unsigned 64-bit (they wrap as
   LogGOPSim's do).

   LICENSE: MIT, as goal.h.
*/
#ifndef GOAL_SIM_H_INCLUDED
#define GOAL_SIM_H_INCLUDED
#include "goal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOAL_SIM_ZERO (-1) /* a model parameter that is really 0 (0 means the default) */

typedef struct goal_sim_ref {  /* one action of the world */
    int32_t rank;
    int32_t action;            /* index in the rank's schedule; -1 = none */
} goal_sim_ref;

/* ---- check ----------------------------------------------------------------------------- */
typedef enum goal_sim_finding_kind {
    GOAL_SIM_UNMATCHED_SEND, GOAL_SIM_UNMATCHED_RECV, GOAL_SIM_BLOCKED, GOAL_SIM_CYCLE,
    GOAL_SIM_SIZE_ERROR, GOAL_SIM_SIZE_WARNING
} goal_sim_finding_kind;

typedef struct goal_sim_finding {
    goal_sim_finding_kind kind;
    goal_sim_ref at;           /* the action the finding is about */
    goal_sim_ref other;        /* BLOCKED/CYCLE: what it waits for; SIZE: the matched send */
} goal_sim_finding;

typedef struct goal_sim_pair { goal_sim_ref send, recv; } goal_sim_pair;

typedef struct goal_sim_check_desc {
    uint64_t eager_limit;      /* sends of at most this many bytes complete when posted;
                                  default 0 = none: a send completes when matched */
    int no_pairs;              /* 1: do not keep the matched pairs (saves 16 bytes a match) */
    goal_allocator alloc;
} goal_sim_check_desc;

typedef struct goal_sim_check_result {
    goal_sim_pair *pairs; size_t npairs;          /* in the order they were matched */
    goal_sim_finding *findings; size_t nfindings; /* size findings in match order, then the
                                                     rest by rank and action */
    size_t errors, warnings;
    goal_allocator alloc_;
} goal_sim_check_result;

/* Matches the world. GOAL_OK: clean; GOAL_ERR_MATCH: findings (in out); else an error. */
GOAL_API goal_status goal_sim_check(const goal_world *w, const goal_sim_check_desc *desc, goal_sim_check_result *out);
GOAL_API void goal_sim_check_free(goal_sim_check_result *r);
/* "rank R LABEL: what" for finding f, into buf (len bytes); returns buf. */
GOAL_API const char *goal_sim_finding_text(const goal_world *w, const goal_sim_finding *f, char *buf, size_t len);

/* ---- simulate -------------------------------------------------------------------------- */
typedef enum goal_sim_event_kind {
    GOAL_SIM_EV_CALC,          /* calc, exec or nop on rank's cpu: [start, end) */
    GOAL_SIM_EV_SEND,          /* send overhead on rank's cpu; peer = destination */
    GOAL_SIM_EV_RECV,          /* receive overhead on rank's cpu when a message arrives; peer =
                                  source; action = the receive it matched, -1 = none yet */
    GOAL_SIM_EV_MSG            /* a message from rank (action = the send) to peer: start = sent,
                                  end = taken by the receiver; peer_action = its receive or -1 */
} goal_sim_event_kind;

typedef struct goal_sim_event {
    goal_sim_event_kind kind;
    int32_t rank, action, peer, peer_action;
    int cpu;
    uint64_t start, end, size;
} goal_sim_event;

typedef struct goal_sim_desc {
    int64_t L, o, g, G, O, S;  /* 0 = LogGOPSim's default (see SIMULATE); GOAL_SIM_ZERO = 0 */
    int loggopsim_compat;      /* 1: charge 0-byte messages -G (LogGOPSim's wrap-around) */
    void (*event_fn)(void *user, const goal_sim_event *e); /* optional: every event, in order */
    void *user;
    goal_allocator alloc;
} goal_sim_desc;

typedef struct goal_sim_result {
    int32_t nranks;
    uint64_t *finish;          /* nranks: each rank's time */
    uint64_t max;              /* the largest finish time */
    int32_t max_rank;          /* the first rank that has it */
    uint64_t events;           /* operations + messages (LogGOPSim's "Events") */
    goal_sim_ref *stuck;       /* after GOAL_ERR_DEADLOCK: actions that never completed */
    uint8_t *stuck_started;    /* per stuck action: 1 if it started (posted, waiting to match) */
    size_t nstuck;
    goal_allocator alloc_;
} goal_sim_result;

/* Simulates w. GOAL_OK with every rank's time; GOAL_ERR_DEADLOCK with out->stuck; else an error. */
GOAL_API goal_status goal_sim_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_result *out);
GOAL_API void goal_sim_result_free(goal_sim_result *r);

/* ---- draw ------------------------------------------------------------------------------ */
/* DOT of one rank (rank >= 0) or of the whole world (rank = -1, messages from a check). */
GOAL_API goal_status goal_sim_write_dot(const goal_world *w, int rank, const goal_allocator *alloc,
                                        goal_write_fn fn, void *user);
/* The simulated timeline as Chrome trace-event JSON; desc->event_fn is not used. */
GOAL_API goal_status goal_sim_write_trace(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user);
/* The simulated timeline as an SVG picture; desc->event_fn is not used. */
GOAL_API goal_status goal_sim_write_svg(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_SIM_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_SIM_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__SIM_IMPL_DONE)
#define GOAL__SIM_IMPL_DONE

#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#if defined(GOAL_MALLOC) != defined(GOAL_FREE)
#error "define both GOAL_MALLOC and GOAL_FREE, or neither"
#endif
#ifndef GOAL_MALLOC
#include <stdlib.h>
#define GOAL_MALLOC(size) malloc(size)
#define GOAL_FREE(ptr) free(ptr)
#endif

#define GOAL__SIM_NONE 0xFFFFFFFFu
#define GOAL__SIM_START 0x80000000u   /* a dependent released on start (irequires) */

/* ---- >>> memory ------------------------------------------------------------------------ */
static void *goal__sim_dalloc(size_t size, void *user) { (void)user; return GOAL_MALLOC(size); }
static void goal__sim_dfree(void *ptr, void *user) { (void)user; GOAL_FREE(ptr); }
static goal_allocator goal__sim_allocator(const goal_allocator *a) {
    goal_allocator r;
    if (a && a->alloc_fn && a->free_fn) return *a;
    r.alloc_fn = goal__sim_dalloc; r.free_fn = goal__sim_dfree; r.user = NULL;
    return r;
}
/* n elements of `elem` bytes, NULL on overflow or failure. */
static void *goal__sim_new(const goal_allocator *a, size_t n, size_t elem) {
    if (elem && n > ((size_t)-1) / elem) return NULL;
    size_t bytes = n * elem;
    return a->alloc_fn(bytes ? bytes : 1, a->user);
}
static void goal__sim_del(const goal_allocator *a, void *p) { if (p) a->free_fn(p, a->user); }
/* Grows *ptr (holding *cap elements) to hold at least need; doubling keeps pushes O(1). */
static goal_status goal__sim_grow(const goal_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem) {
    size_t ncap = *cap ? *cap : 64;
    void *np;
    if (need <= *cap) return GOAL_OK;
    while (ncap < need) ncap *= 2;
    if (!(np = goal__sim_new(a, ncap, elem))) return GOAL_ERR_NOMEM;
    if (*ptr) { memcpy(np, *ptr, *cap * elem); goal__sim_del(a, *ptr); }
    *ptr = np; *cap = ncap;
    return GOAL_OK;
}
#define GOAL__SIM_GROW(a, arr, cap, need) goal__sim_grow((a), (void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* ---- >>> the world as one numbered set of actions --------------------------------------- */
typedef struct goal__simw {
    const goal_world *w;
    goal_allocator a;
    int32_t p;
    uint32_t n;                 /* actions in the world */
    uint32_t *base;             /* p + 1: global id of rank r's action i is base[r] + i */
    const uint32_t **recs;      /* p: where each rank's action records start */
} goal__simw;

/* The full view of rank r; a rank never set is an empty schedule. */
static void goal__simw_full(const goal__simw *x, int32_t r, goal_schedule *s) {
    if (goal_world_schedule(x->w, r, s) != GOAL_OK) memset(s, 0, sizeof *s);
}
/* A partial view of rank r for the hot paths, where parsing a header per event would cost
   more than the event: only rank, nactions, recs and body are set, which is all that
   goal_schedule_action, goal_schedule_deps and goal_schedule_nsrc read (the body follows
   the records in the binary schedule). */
static void goal__simw_view(const goal__simw *x, int32_t r, goal_schedule *s) {
    s->rank = r;
    s->nactions = x->base[r + 1] - x->base[r];
    s->recs = x->recs[r];
    s->body = s->recs + 2u * s->nactions;
}
static goal_status goal__simw_init(goal__simw *x, const goal_world *w, const goal_allocator *a) {
    int32_t r;
    uint64_t n = 0;
    memset(x, 0, sizeof *x);
    if (!w) return GOAL_ERR_ARG;
    x->w = w; x->a = goal__sim_allocator(a); x->p = (int32_t)goal_world_nranks(w);
    x->base = (uint32_t *)goal__sim_new(&x->a, (size_t)x->p + 1u, sizeof(uint32_t));
    x->recs = (const uint32_t **)goal__sim_new(&x->a, (size_t)x->p + 1u, sizeof(const uint32_t *));
    if (!x->base || !x->recs) return GOAL_ERR_NOMEM;
    for (r = 0; r < x->p; r++) {
        goal_schedule s;
        goal__simw_full(x, r, &s);
        x->base[r] = (uint32_t)n;
        x->recs[r] = s.recs;
        n += s.nactions;
        if (n >= 0x7FFFFFFFu) return GOAL_ERR_LIMIT;
    }
    x->base[x->p] = (uint32_t)n;
    x->n = (uint32_t)n;
    return GOAL_OK;
}
static void goal__simw_free(goal__simw *x) {
    goal__sim_del(&x->a, x->base); goal__sim_del(&x->a, (void *)x->recs);
    x->base = NULL; x->recs = NULL;
}
/* The rank owning global id g (binary search; only used off the hot paths). */
static int32_t goal__simw_rank(const goal__simw *x, uint32_t g) {
    int32_t lo = 0, hi = x->p - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (x->base[mid] <= g) lo = mid; else hi = mid - 1;
    }
    return lo;
}
static goal_sim_ref goal__sim_ref(int32_t rank, int32_t action) {
    goal_sim_ref f;
    f.rank = rank; f.action = action;
    return f;
}

/* ---- >>> matching queues ----------------------------------------------------------------- */
/* FIFO lists in one pool, each a circular list known by its tail (tail->next = head), so a
   rank's queue costs one word. peer and tag are the entry's own; ref says what it is. */
typedef struct goal__simq_ent { int32_t peer, tag; uint32_t ref, next; } goal__simq_ent;
typedef struct goal__simq { goal__simq_ent *e; size_t cap; uint32_t n, freel; } goal__simq;

static int goal__sim_accepts(int32_t x, int32_t y) { return x == y || x == GOAL_ANY || y == GOAL_ANY; }

static goal_status goal__simq_push(goal__simq *q, const goal_allocator *a, uint32_t *tail, int32_t peer, int32_t tag, uint32_t ref) {
    uint32_t k = q->freel;
    goal__simq_ent *e;
    if (k != GOAL__SIM_NONE) q->freel = q->e[k].next;
    else {
        if (GOAL__SIM_GROW(a, q->e, q->cap, (size_t)q->n + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
        k = q->n++;
    }
    e = &q->e[k];
    e->peer = peer; e->tag = tag; e->ref = ref;
    if (*tail == GOAL__SIM_NONE) e->next = k;
    else { e->next = q->e[*tail].next; q->e[*tail].next = k; }
    *tail = k;
    return GOAL_OK;
}
/* Removes the first entry that accepts (peer, tag) and returns it (NULL when none); the
   returned entry stays readable until the next push. */
static const goal__simq_ent *goal__simq_take(goal__simq *q, uint32_t *tail, int32_t peer, int32_t tag) {
    uint32_t prev = *tail, k;
    if (prev == GOAL__SIM_NONE) return NULL;
    do {
        goal__simq_ent *e;
        k = q->e[prev].next;
        e = &q->e[k];
        if (goal__sim_accepts(e->peer, peer) && goal__sim_accepts(e->tag, tag)) {
            if (k == prev) *tail = GOAL__SIM_NONE;
            else { q->e[prev].next = e->next; if (k == *tail) *tail = prev; }
            e->next = q->freel; q->freel = k;
            return e;
        }
        prev = k;
    } while (k != *tail);
    return NULL;
}
static void goal__simq_free(goal__simq *q, const goal_allocator *a) { goal__sim_del(a, q->e); q->e = NULL; }

/* Dependents of action i of s released on start (start = 1) or on completion (start = 0),
   handed to fn. irequires come first in a schedule, requires after. */
typedef void (*goal__sim_dep_fn)(void *ctx, int32_t rank, uint32_t action);
static void goal__sim_release(const goal_schedule *s, uint32_t i, int start, goal__sim_dep_fn fn, void *ctx) {
    const uint32_t *d;
    uint32_t k, nd = goal_schedule_deps(s, i, &d);
    for (k = 0; k < nd; k++)
        if (((d[k] & GOAL__SIM_START) != 0) == (start != 0)) fn(ctx, s->rank, d[k] & ~GOAL__SIM_START);
}

/* ---- >>> check: the matching fix-point ------------------------------------------------------ */
#define GOAL__CHK_WAIT 0u      /* not started */
#define GOAL__CHK_POSTED 1u    /* started, waiting for its match */
#define GOAL__CHK_DONE 2u

typedef struct goal__chk {
    goal__simw x;
    uint64_t eager;
    int keep_pairs;
    uint32_t *need;            /* n: sources not yet satisfied */
    uint8_t *st;               /* n: GOAL__CHK_* */
    goal_sim_ref *fifo;        /* n: the matching queue MQ; every action enters it once */
    size_t head, tail;
    uint32_t *posted, *unexp;  /* p: queue tails; posted recvs of r, unmatched sends to r */
    goal__simq q;
    goal_sim_check_result *res;
    size_t capp, capf;
    goal_status st_err;        /* first allocation failure inside callbacks */
} goal__chk;

static void goal__chk_dep(void *ctx, int32_t rank, uint32_t a) {
    goal__chk *c = (goal__chk *)ctx;
    uint32_t g = c->x.base[rank] + a;
    if (--c->need[g] == 0) c->fifo[c->tail++] = goal__sim_ref(rank, (int32_t)a);
}
static void goal__chk_start(goal__chk *c, const goal_schedule *s, uint32_t i) {
    c->st[c->x.base[s->rank] + i] = GOAL__CHK_POSTED;
    goal__sim_release(s, i, 1, goal__chk_dep, c);
}
static void goal__chk_complete(goal__chk *c, int32_t r, uint32_t i) {
    goal_schedule s;
    uint8_t *st = &c->st[c->x.base[r] + i];
    if (*st == GOAL__CHK_DONE) return;
    *st = GOAL__CHK_DONE;
    goal__simw_view(&c->x, r, &s);
    goal__sim_release(&s, i, 0, goal__chk_dep, c);
}
static goal_status goal__chk_finding(goal__chk *c, goal_sim_finding_kind k, goal_sim_ref at, goal_sim_ref other) {
    goal_sim_check_result *res = c->res;
    if (GOAL__SIM_GROW(&c->x.a, res->findings, c->capf, res->nfindings + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    res->findings[res->nfindings].kind = k;
    res->findings[res->nfindings].at = at;
    res->findings[res->nfindings++].other = other;
    if (k == GOAL_SIM_SIZE_WARNING) res->warnings++; else res->errors++;
    return GOAL_OK;
}
static uint64_t goal__chk_size(const goal__chk *c, goal_sim_ref f) {
    goal_schedule s;
    goal_action a;
    goal__simw_view(&c->x, f.rank, &s);
    goal_schedule_action(&s, (uint32_t)f.action, &a);
    return a.buf.size;
}
/* Records a match: the pair, a size finding if any, and both completions. */
static goal_status goal__chk_match(goal__chk *c, goal_sim_ref send, goal_sim_ref recv) {
    uint64_t ss = goal__chk_size(c, send), rs = goal__chk_size(c, recv);
    goal_sim_check_result *res = c->res;
    goal_status st = GOAL_OK;
    if (c->keep_pairs) {
        if (GOAL__SIM_GROW(&c->x.a, res->pairs, c->capp, res->npairs + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
        res->pairs[res->npairs].send = send;
        res->pairs[res->npairs++].recv = recv;
    }
    if (ss != rs) st = goal__chk_finding(c, ss > rs ? GOAL_SIM_SIZE_ERROR : GOAL_SIM_SIZE_WARNING, recv, send);
    goal__chk_complete(c, send.rank, (uint32_t)send.action);
    goal__chk_complete(c, recv.rank, (uint32_t)recv.action);
    return st;
}
/* One action taken from MQ: start it, then match it or let it wait. */
static goal_status goal__chk_step(goal__chk *c, goal_sim_ref f) {
    goal_schedule s;
    goal_action a;
    const goal__simq_ent *e;
    uint32_t i = (uint32_t)f.action;
    goal__simw_view(&c->x, f.rank, &s);
    goal_schedule_action(&s, i, &a);
    goal__chk_start(c, &s, i);
    if (a.kind == GOAL_SEND) {
        if (c->eager && a.buf.size <= c->eager) goal__chk_complete(c, f.rank, i);
        if ((e = goal__simq_take(&c->q, &c->posted[a.peer], f.rank, a.tag)) != NULL)
            return goal__chk_match(c, f, goal__sim_ref(a.peer, (int32_t)e->ref));
        return goal__simq_push(&c->q, &c->x.a, &c->unexp[a.peer], f.rank, a.tag, i);
    }
    if (a.kind == GOAL_RECV) {
        if ((e = goal__simq_take(&c->q, &c->unexp[f.rank], a.peer, a.tag)) != NULL)
            return goal__chk_match(c, goal__sim_ref(e->peer, (int32_t)e->ref), f);
        return goal__simq_push(&c->q, &c->x.a, &c->posted[f.rank], a.peer, a.tag, i);
    }
    goal__chk_complete(c, f.rank, i);
    return GOAL_OK;
}

/* Sets up need counts and MQ with the independent actions, ranks in order. */
static goal_status goal__chk_init(goal__chk *c) {
    const goal_allocator *a = &c->x.a;
    int32_t r;
    size_t p = (size_t)c->x.p;
    c->need = (uint32_t *)goal__sim_new(a, c->x.n, sizeof(uint32_t));
    c->st = (uint8_t *)goal__sim_new(a, c->x.n, 1);
    c->fifo = (goal_sim_ref *)goal__sim_new(a, c->x.n, sizeof(goal_sim_ref));
    c->posted = (uint32_t *)goal__sim_new(a, 2 * p, sizeof(uint32_t));
    if (!c->need || !c->st || !c->fifo || !c->posted) return GOAL_ERR_NOMEM;
    c->unexp = c->posted + p;
    memset(c->posted, 0xFF, 2 * p * sizeof(uint32_t));
    memset(c->st, GOAL__CHK_WAIT, c->x.n);
    c->q.freel = GOAL__SIM_NONE;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_full(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++) c->need[c->x.base[r] + i] = goal_schedule_nsrc(&s, i);
        for (i = 0; i < s.nindep; i++) c->fifo[c->tail++] = goal__sim_ref(r, (int32_t)s.indep[i]);
    }
    return GOAL_OK;
}

/* ---- >>> check: why the rest never completes ----------------------------------------------- */
/* After the fix-point, every action that is not done waits for something: an action that
   never started waits for a predecessor (the first one not finished); a posted send or
   receive waits for a counterpart that never started (if one would accept it). These waits
   form a graph of out-degree <= 1 over global ids (next[]), whose cycles are the deadlock
   cycles; an action with no wait at all is simply unmatched. */
static void goal__chk_blockers(goal__chk *c, uint32_t *next) {
    int32_t r;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i, k, b = c->x.base[r];
        goal__simw_view(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            const uint32_t *d;
            uint32_t nd = goal_schedule_deps(&s, i, &d);
            for (k = 0; k < nd; k++) {
                uint32_t t = b + (d[k] & ~GOAL__SIM_START);
                int unfinished = (d[k] & GOAL__SIM_START) ? c->st[b + i] == GOAL__CHK_WAIT : c->st[b + i] != GOAL__CHK_DONE;
                if (c->st[t] == GOAL__CHK_WAIT && next[t] == GOAL__SIM_NONE && unfinished) next[t] = b + i;
            }
        }
    }
}
/* Gives the first entry of queue *tail that accepts (peer, tag) and has no counterpart yet
   the never-started action g as its counterpart. owner: rank of the entries' actions, or -1
   when the entry's peer is its owner (unexpected sends). */
static void goal__chk_counterpart(goal__chk *c, uint32_t *next, uint32_t tail, int32_t owner, int32_t peer, int32_t tag, uint32_t g) {
    uint32_t k = tail;
    if (tail == GOAL__SIM_NONE) return;
    do {
        const goal__simq_ent *e;
        uint32_t id;
        k = c->q.e[k].next;
        e = &c->q.e[k];
        id = c->x.base[owner >= 0 ? owner : e->peer] + e->ref;
        if (next[id] == GOAL__SIM_NONE && goal__sim_accepts(e->peer, peer) && goal__sim_accepts(e->tag, tag)) {
            next[id] = g;
            return;
        }
    } while (k != tail);
}
static void goal__chk_counterparts(goal__chk *c, uint32_t *next) {
    int32_t r;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i, b = c->x.base[r];
        goal__simw_view(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            if (c->st[b + i] != GOAL__CHK_WAIT) continue;
            goal_schedule_action(&s, i, &a);
            if (a.kind == GOAL_SEND) goal__chk_counterpart(c, next, c->posted[a.peer], a.peer, r, a.tag, b + i);
            if (a.kind == GOAL_RECV) goal__chk_counterpart(c, next, c->unexp[r], -1, a.peer, a.tag, b + i);
        }
    }
}
/* Marks every node on a cycle of next[] with 3 (1 = on the walk now, 2 = seen). */
static void goal__chk_cycles(const goal__chk *c, const uint32_t *next, uint8_t *color) {
    uint32_t v, u;
    for (v = 0; v < c->x.n; v++) {
        if (color[v] || c->st[v] == GOAL__CHK_DONE) continue;
        for (u = v; u != GOAL__SIM_NONE && !color[u]; u = next[u]) color[u] = 1;
        if (u != GOAL__SIM_NONE && color[u] == 1)
            do { color[u] = 3; u = next[u]; } while (color[u] != 3);
        for (u = v; u != GOAL__SIM_NONE && color[u] == 1; u = next[u]) color[u] = 2;
    }
}
static goal_sim_ref goal__chk_ref(const goal__chk *c, uint32_t g) {
    int32_t r;
    if (g == GOAL__SIM_NONE) return goal__sim_ref(-1, -1);
    r = goal__simw_rank(&c->x, g);
    return goal__sim_ref(r, (int32_t)(g - c->x.base[r]));
}
static goal_status goal__chk_report(goal__chk *c, const uint32_t *next, const uint8_t *color) {
    uint32_t v;
    for (v = 0; v < c->x.n; v++) {
        goal_sim_finding_kind k = GOAL_SIM_BLOCKED;
        goal_sim_ref at;
        if (c->st[v] == GOAL__CHK_DONE) continue;
        at = goal__chk_ref(c, v);
        if (color[v] == 3) k = GOAL_SIM_CYCLE;
        else if (next[v] == GOAL__SIM_NONE && c->st[v] == GOAL__CHK_POSTED) {
            goal_schedule s;
            goal_action a;
            goal__simw_view(&c->x, at.rank, &s);
            goal_schedule_action(&s, (uint32_t)at.action, &a);
            k = a.kind == GOAL_SEND ? GOAL_SIM_UNMATCHED_SEND : GOAL_SIM_UNMATCHED_RECV;
        }
        if (goal__chk_finding(c, k, at, goal__chk_ref(c, next[v])) != GOAL_OK) return GOAL_ERR_NOMEM;
    }
    return GOAL_OK;
}
static goal_status goal__chk_explain(goal__chk *c) {
    uint32_t *next = c->need;   /* the counts are spent; their memory holds the waits */
    uint8_t *color = (uint8_t *)goal__sim_new(&c->x.a, c->x.n, 1);
    goal_status st;
    if (!color) return GOAL_ERR_NOMEM;
    memset(next, 0xFF, (size_t)c->x.n * sizeof(uint32_t));
    memset(color, 0, c->x.n);
    goal__chk_blockers(c, next);
    goal__chk_counterparts(c, next);
    goal__chk_cycles(c, next, color);
    st = goal__chk_report(c, next, color);
    goal__sim_del(&c->x.a, color);
    return st;
}

static void goal__chk_free(goal__chk *c) {
    const goal_allocator *a = &c->x.a;
    goal__sim_del(a, c->need); goal__sim_del(a, c->st); goal__sim_del(a, c->fifo); goal__sim_del(a, c->posted);
    goal__simq_free(&c->q, a);
    goal__simw_free(&c->x);
}

goal_status goal_sim_check(const goal_world *w, const goal_sim_check_desc *desc, goal_sim_check_result *out) {
    goal__chk c;
    goal_sim_check_desc d;
    goal_status st;
    size_t done = 0;
    if (!out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    st = goal__simw_init(&c.x, w, &d.alloc);
    out->alloc_ = c.x.a;
    c.eager = d.eager_limit; c.keep_pairs = !d.no_pairs; c.res = out;
    if (st == GOAL_OK) st = goal__chk_init(&c);
    while (st == GOAL_OK && c.head < c.tail) st = goal__chk_step(&c, c.fifo[c.head++]);
    for (; st == GOAL_OK && done < c.x.n && c.st[done] == GOAL__CHK_DONE; done++) {}
    if (st == GOAL_OK && done < c.x.n) st = goal__chk_explain(&c);
    goal__chk_free(&c);
    if (st != GOAL_OK) { goal_sim_check_free(out); return st; }
    return out->nfindings ? GOAL_ERR_MATCH : GOAL_OK;
}
void goal_sim_check_free(goal_sim_check_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__sim_allocator(&r->alloc_);
    goal__sim_del(&a, r->pairs); goal__sim_del(&a, r->findings);
    memset(r, 0, sizeof *r);
}

/* "send 8 bytes to 3 tag 0": what action f is, for messages. */
static void goal__sim_describe(const goal_world *w, goal_sim_ref f, char *buf, size_t len) {
    goal_schedule s;
    goal_action a;
    char lb[GOAL_LABEL_MAX];
    if (goal_world_schedule(w, f.rank, &s) != GOAL_OK || f.action < 0 || (uint32_t)f.action >= s.nactions) {
        snprintf(buf, len, "rank %ld action %ld", (long)f.rank, (long)f.action);
        return;
    }
    goal_schedule_action(&s, (uint32_t)f.action, &a);
    if (a.kind == GOAL_SEND || a.kind == GOAL_RECV)
        snprintf(buf, len, "rank %ld %s (%s %llu bytes %s %ld tag %ld)", (long)f.rank, goal_schedule_label(&s, (uint32_t)f.action, lb),
                 a.kind == GOAL_SEND ? "send" : "recv", (unsigned long long)a.buf.size, a.kind == GOAL_SEND ? "to" : "from",
                 (long)a.peer, (long)a.tag);
    else
        snprintf(buf, len, "rank %ld %s (%s)", (long)f.rank, goal_schedule_label(&s, (uint32_t)f.action, lb),
                 a.kind == GOAL_CALC ? "calc" : a.kind == GOAL_EXEC ? "exec" : "nop");
}

const char *goal_sim_finding_text(const goal_world *w, const goal_sim_finding *f, char *buf, size_t len) {
    char at[160], other[160];
    if (!buf || !len) return buf;
    if (!w || !f) { snprintf(buf, len, "(no finding)"); return buf; }
    goal__sim_describe(w, f->at, at, sizeof at);
    goal__sim_describe(w, f->other, other, sizeof other);
    switch (f->kind) {
    case GOAL_SIM_UNMATCHED_SEND: snprintf(buf, len, "%s: error: unmatched send: no receive accepts it", at); break;
    case GOAL_SIM_UNMATCHED_RECV: snprintf(buf, len, "%s: error: unmatched recv: no send matches it", at); break;
    case GOAL_SIM_BLOCKED: snprintf(buf, len, "%s: error: deadlock: never completes, waits for %s", at, other); break;
    case GOAL_SIM_CYCLE: snprintf(buf, len, "%s: error: deadlock cycle: waits for %s", at, other); break;
    case GOAL_SIM_SIZE_ERROR: snprintf(buf, len, "%s: error: matched send is larger: %s", at, other); break;
    case GOAL_SIM_SIZE_WARNING: snprintf(buf, len, "%s: warning: matched send is smaller: %s", at, other); break;
    default: snprintf(buf, len, "%s: unknown finding", at); break;
    }
    return buf;
}

/* ---- >>> simulate: state ------------------------------------------------------------------- */
typedef struct goal__sim_ev {   /* a queued event; the heap orders by (time, seq) */
    uint64_t time;
    uint32_t seq;
    int32_t rank;               /* where it happens */
    uint32_t ref;               /* action index on rank, or message id | GOAL__SIM_START */
} goal__sim_ev;

typedef struct goal__sim_msg {  /* a message in flight or waiting in an unexpected queue */
    uint64_t size, sent;        /* bytes; when its send started */
    int32_t src, tag;
    uint32_t send;              /* the send's index on src */
    uint32_t next;              /* free list */
    uint8_t cpu, nic;           /* the sender's indices: LogGOPSim charges the receiver on them */
} goal__sim_msg;

typedef struct goal__sim_ready { int32_t rank; uint32_t action; uint64_t time; int cls; } goal__sim_ready;

typedef struct goal__sim {
    goal__simw x;
    uint64_t L, o, g, G, O, S;
    int compat;
    void (*event_fn)(void *user, const goal_sim_event *e);
    void *user;
    uint32_t ncpu, nnic;
    uint64_t *cpu, *nics, *nicr;     /* p x ncpu, p x nnic, p x nnic clocks */
    uint32_t *need;                  /* n: sources not yet satisfied */
    uint8_t *done;                   /* n: 1 when completed */
    uint32_t *posted, *unexp;        /* p: queue tails (posted recvs; unexpected messages) */
    goal__simq q;
    goal__sim_msg *msg; size_t capm; uint32_t nmsg, freem;
    goal__sim_ev *heap; size_t nheap, caph;
    goal__sim_ready *ready; size_t nready, capr;
    uint32_t seq;                    /* the one counter LogGOPSim numbers events with */
    uint64_t ndone, events;
    goal_status err;                 /* first failure inside a callback */
} goal__sim;

static uint64_t goal__sim_param(int64_t v, uint64_t dflt) {
    return v == 0 ? dflt : v < 0 ? 0u : (uint64_t)v;
}
/* (s - 1) as LogGOPSim computes it: unsigned, so 0 bytes wrap to 2^64 - 1 (compat only). */
static uint64_t goal__sim_sm1(const goal__sim *m, uint64_t s) { return s || m->compat ? s - 1u : 0u; }

/* ---- >>> simulate: the event heap ---------------------------------------------------------- */
static int goal__sim_before(const goal__sim_ev *a, const goal__sim_ev *b) {
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}
/* A 4-ary heap: half the depth of a binary one, and the four children share a cache line
   or two, which matters when a million ranks keep a third of a million events queued. */
#define GOAL__SIM_ARITY 4u
static goal_status goal__sim_push(goal__sim *m, goal__sim_ev ev) {
    size_t i;
    if (GOAL__SIM_GROW(&m->x.a, m->heap, m->caph, m->nheap + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    for (i = m->nheap++; i > 0; i = (i - 1) / GOAL__SIM_ARITY) {
        goal__sim_ev *up = &m->heap[(i - 1) / GOAL__SIM_ARITY];
        if (!goal__sim_before(&ev, up)) break;
        m->heap[i] = *up;
    }
    m->heap[i] = ev;
    return GOAL_OK;
}
static goal__sim_ev goal__sim_pop(goal__sim *m) {
    goal__sim_ev top = m->heap[0], last = m->heap[--m->nheap];
    size_t i = 0, n = m->nheap;
    for (;;) {
        size_t c = GOAL__SIM_ARITY * i + 1, k, best = c;
        if (c >= n) break;
        for (k = c + 1; k < c + GOAL__SIM_ARITY && k < n; k++)
            if (goal__sim_before(&m->heap[k], &m->heap[best])) best = k;
        if (!goal__sim_before(&m->heap[best], &last)) break;
        m->heap[i] = m->heap[best];
        i = best;
    }
    if (n) m->heap[i] = last;
    return top;
}
static goal_status goal__sim_queue(goal__sim *m, uint64_t time, int32_t rank, uint32_t ref) {
    goal__sim_ev ev;
    ev.time = time; ev.seq = m->seq++; ev.rank = rank; ev.ref = ref;
    return goal__sim_push(m, ev);
}

/* ---- >>> simulate: readiness ---------------------------------------------------------------- */
/* LogGOPSim queues what became ready after an event rank by rank (ascending), each rank's
   operations ordered send, recv, then local work, keeping readiness order within a kind. */
static void goal__sim_dep(void *ctx, int32_t rank, uint32_t a) {
    goal__sim *m = (goal__sim *)ctx;
    if (--m->need[m->x.base[rank] + a]) return;
    if (GOAL__SIM_GROW(&m->x.a, m->ready, m->capr, m->nready + 1u) != GOAL_OK) { m->err = GOAL_ERR_NOMEM; return; }
    m->ready[m->nready].rank = rank;
    m->ready[m->nready++].action = a;
}
static void goal__sim_complete(goal__sim *m, const goal_schedule *s, uint32_t i) {
    m->done[m->x.base[s->rank] + i] = 1;
    m->ndone++;
    goal__sim_release(s, i, 0, goal__sim_dep, m);
}
static uint64_t goal__sim_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static int goal__sim_kind_class(goal_kind k) { return k == GOAL_SEND ? 0 : k == GOAL_RECV ? 1 : 2; }
static int goal__sim_class(const goal_schedule *s, uint32_t i) {
    goal_action a;
    goal_schedule_action(s, i, &a);
    return goal__sim_kind_class(a.kind);
}
/* The event time and kind order of a newly ready action, from the clocks now. */
static void goal__sim_classify(const goal__sim *m, const goal_schedule *s, goal__sim_ready *rd) {
    goal_action a;
    size_t r = (size_t)rd->rank;
    goal_schedule_action(s, rd->action, &a);
    rd->cls = goal__sim_kind_class(a.kind);
    rd->time = m->cpu[r * m->ncpu + a.cpu];
    if (a.kind == GOAL_SEND) rd->time = goal__sim_max(rd->time, m->nics[r * m->nnic + a.nic]);
}
static goal_status goal__sim_flush(goal__sim *m) {
    size_t k, left = m->nready;
    int cls;
    if (m->err != GOAL_OK) return m->err;
    for (k = 0; k < m->nready; k++) {
        goal_schedule s;
        goal__simw_view(&m->x, m->ready[k].rank, &s);
        goal__sim_classify(m, &s, &m->ready[k]);
    }
    while (left) {     /* at most two ranks take part in one event */
        int32_t r = 0x7FFFFFFF;
        for (k = 0; k < m->nready; k++)
            if (m->ready[k].cls >= 0 && m->ready[k].rank < r) r = m->ready[k].rank;
        for (cls = 0; cls < 3; cls++)
            for (k = 0; k < m->nready; k++) {
                goal__sim_ready *rd = &m->ready[k];
                if (rd->rank != r || rd->cls != cls) continue;
                if (goal__sim_queue(m, rd->time, rd->rank, rd->action) != GOAL_OK) return GOAL_ERR_NOMEM;
                rd->cls = -1;
                left--;
            }
    }
    m->nready = 0;
    return GOAL_OK;
}

/* ---- >>> simulate: events ------------------------------------------------------------------ */
static void goal__sim_emit(const goal__sim *m, goal_sim_event_kind k, int32_t rank, int32_t action, int32_t peer,
                           int32_t peer_action, int cpu, uint64_t start, uint64_t end, uint64_t size) {
    goal_sim_event e;
    if (!m->event_fn) return;
    e.kind = k; e.rank = rank; e.action = action; e.peer = peer; e.peer_action = peer_action;
    e.cpu = cpu; e.start = start; e.end = end; e.size = size;
    m->event_fn(m->user, &e);
}
static uint64_t *goal__sim_cpu(goal__sim *m, int32_t r, uint8_t c) { return &m->cpu[(size_t)r * m->ncpu + c]; }

/* calc, exec (costs its buffer size) and nop (costs 0): start and complete at once. */
static goal_status goal__sim_calc(goal__sim *m, const goal_schedule *s, const goal_action *a, goal__sim_ev ev) {
    uint64_t cost = a->kind == GOAL_CALC ? a->cost : a->kind == GOAL_EXEC ? a->buf.size : 0u;
    uint64_t *c = goal__sim_cpu(m, ev.rank, a->cpu);
    if (*c > ev.time) { ev.time = *c; return goal__sim_push(m, ev); }
    *c = ev.time + cost;
    goal__sim_emit(m, GOAL_SIM_EV_CALC, ev.rank, (int32_t)ev.ref, -1, -1, a->cpu, ev.time, *c, cost);
    goal__sim_release(s, ev.ref, 1, goal__sim_dep, m);
    goal__sim_complete(m, s, ev.ref);
    return GOAL_OK;
}

static goal_status goal__sim_send(goal__sim *m, const goal_schedule *s, const goal_action *a, goal__sim_ev ev) {
    uint64_t *c = goal__sim_cpu(m, ev.rank, a->cpu), *ns = &m->nics[(size_t)ev.rank * m->nnic + a->nic];
    uint64_t t = ev.time, sm1 = goal__sim_sm1(m, a->buf.size);
    goal__sim_msg *msg;
    uint32_t id = m->freem;
    if (goal__sim_max(*c, *ns) > t) { ev.time = goal__sim_max(*c, *ns); return goal__sim_push(m, ev); }
    *c = t + m->o + sm1 * m->O;
    *ns = t + m->g + sm1 * m->G;
    goal__sim_emit(m, GOAL_SIM_EV_SEND, ev.rank, (int32_t)ev.ref, a->peer, -1, a->cpu, t, *c, a->buf.size);
    if (id != GOAL__SIM_NONE) m->freem = m->msg[id].next;
    else if (GOAL__SIM_GROW(&m->x.a, m->msg, m->capm, (size_t)m->nmsg + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    else id = m->nmsg++;
    msg = &m->msg[id];
    msg->size = a->buf.size; msg->sent = t; msg->src = ev.rank; msg->tag = a->tag; msg->send = ev.ref;
    msg->cpu = a->cpu; msg->nic = a->nic;
    if (goal__sim_queue(m, t + m->o + m->L, a->peer, id | GOAL__SIM_START) != GOAL_OK) return GOAL_ERR_NOMEM;
    goal__sim_release(s, ev.ref, 1, goal__sim_dep, m);
    if (a->buf.size <= m->S) goal__sim_complete(m, s, ev.ref);
    return GOAL_OK;
}

/* A rendezvous send completes when it is matched: at t, and its rank's clocks (cpu c and
   nic n, whichever side's indices LogGOPSim happens to use) move up to t. */
static void goal__sim_rendezvous(goal__sim *m, const goal__sim_msg *msg, uint8_t c, uint8_t n, uint64_t t) {
    goal_schedule s;
    uint64_t *cp = goal__sim_cpu(m, msg->src, c), *ns = &m->nics[(size_t)msg->src * m->nnic + n];
    goal__simw_view(&m->x, msg->src, &s);
    goal__sim_complete(m, &s, msg->send);
    *cp = goal__sim_max(*cp, t);
    *ns = goal__sim_max(*ns, t);
}
static void goal__sim_msg_free(goal__sim *m, uint32_t id) { m->msg[id].next = m->freem; m->freem = id; }

/* A receive is posted at its time (no CPU needed) and matches a waiting message if any. */
static goal_status goal__sim_recv(goal__sim *m, const goal_schedule *s, const goal_action *a, goal__sim_ev ev) {
    const goal__simq_ent *e;
    goal__sim_release(s, ev.ref, 1, goal__sim_dep, m);
    if (!(e = goal__simq_take(&m->q, &m->unexp[ev.rank], a->peer, a->tag)))
        return goal__simq_push(&m->q, &m->x.a, &m->posted[ev.rank], a->peer, a->tag, ev.ref);
    if (a->buf.size > m->S) goal__sim_rendezvous(m, &m->msg[e->ref], a->cpu, a->nic, ev.time);
    goal__sim_complete(m, s, ev.ref);
    goal__sim_msg_free(m, e->ref);
    return GOAL_OK;
}

/* A message arrives: it takes the receiver's CPU and NIC, then a posted receive if one
   accepts it, else it waits in the unexpected queue. */
static goal_status goal__sim_arrive(goal__sim *m, goal__sim_ev ev) {
    uint32_t id = ev.ref & ~GOAL__SIM_START;
    goal__sim_msg msg = m->msg[id];
    uint64_t *c = goal__sim_cpu(m, ev.rank, msg.cpu), *nr = &m->nicr[(size_t)ev.rank * m->nnic + msg.nic];
    uint64_t t = ev.time, sm1 = goal__sim_sm1(m, msg.size);
    const goal__simq_ent *e;
    int32_t recv;
    if (goal__sim_max(*c, *nr) > t) { ev.time = goal__sim_max(*c, *nr); return goal__sim_push(m, ev); }
    *c = t + m->o + goal__sim_max(sm1 * m->O, sm1 * m->G);
    *nr = t + m->g + sm1 * m->G;
    e = goal__simq_take(&m->q, &m->posted[ev.rank], msg.src, msg.tag);
    recv = e ? (int32_t)e->ref : -1;
    goal__sim_emit(m, GOAL_SIM_EV_MSG, msg.src, (int32_t)msg.send, ev.rank, recv, msg.cpu, msg.sent, t, msg.size);
    goal__sim_emit(m, GOAL_SIM_EV_RECV, ev.rank, recv, msg.src, (int32_t)msg.send, msg.cpu, t, *c, msg.size);
    if (!e) return goal__simq_push(&m->q, &m->x.a, &m->unexp[ev.rank], msg.src, msg.tag, id);
    if (msg.size > m->S) goal__sim_rendezvous(m, &msg, msg.cpu, msg.nic, t);
    {
        goal_schedule s;
        goal__simw_view(&m->x, ev.rank, &s);
        goal__sim_complete(m, &s, (uint32_t)recv);
    }
    goal__sim_msg_free(m, id);
    return GOAL_OK;
}

static goal_status goal__sim_event(goal__sim *m, goal__sim_ev ev) {
    goal_schedule s;
    goal_action a;
    if (ev.ref & GOAL__SIM_START) return goal__sim_arrive(m, ev);
    goal__simw_view(&m->x, ev.rank, &s);
    goal_schedule_action(&s, ev.ref, &a);
    if (a.kind == GOAL_SEND) return goal__sim_send(m, &s, &a, ev);
    if (a.kind == GOAL_RECV) return goal__sim_recv(m, &s, &a, ev);
    return goal__sim_calc(m, &s, &a, ev);
}

/* ---- >>> simulate: set-up, run, result --------------------------------------------------- */
/* Counts sources and the cpu and nic indices in use (LogGOPSim keeps 1 + the largest). */
static void goal__sim_scan(goal__sim *m) {
    int32_t r;
    m->ncpu = m->nnic = 1;
    for (r = 0; r < m->x.p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_view(&m->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal_schedule_action(&s, i, &a);
            m->need[m->x.base[r] + i] = goal_schedule_nsrc(&s, i);
            if (a.cpu >= m->ncpu) m->ncpu = a.cpu + 1u;
            if (a.nic >= m->nnic) m->nnic = a.nic + 1u;
        }
    }
}
static uint64_t *goal__sim_zeros(goal__sim *m, size_t n) {
    uint64_t *v = (uint64_t *)goal__sim_new(&m->x.a, n, sizeof(uint64_t));
    if (v) memset(v, 0, n * sizeof(uint64_t));
    return v;
}
static goal_status goal__sim_init(goal__sim *m, const goal_world *w, const goal_sim_desc *d) {
    size_t p;
    goal_status st = goal__simw_init(&m->x, w, &d->alloc);
    if (st != GOAL_OK) return st;
    p = (size_t)m->x.p;
    m->L = goal__sim_param(d->L, 2500); m->o = goal__sim_param(d->o, 1500); m->g = goal__sim_param(d->g, 1000);
    m->G = goal__sim_param(d->G, 6); m->O = goal__sim_param(d->O, 0); m->S = goal__sim_param(d->S, 65535);
    m->compat = d->loggopsim_compat; m->event_fn = d->event_fn; m->user = d->user;
    m->q.freel = m->freem = GOAL__SIM_NONE;
    m->need = (uint32_t *)goal__sim_new(&m->x.a, m->x.n, sizeof(uint32_t));
    m->done = (uint8_t *)goal__sim_new(&m->x.a, m->x.n, 1);
    m->posted = (uint32_t *)goal__sim_new(&m->x.a, 2 * p, sizeof(uint32_t));
    if (!m->need || !m->done || !m->posted) return GOAL_ERR_NOMEM;
    m->unexp = m->posted + p;
    memset(m->posted, 0xFF, 2 * p * sizeof(uint32_t));
    memset(m->done, 0, m->x.n);
    goal__sim_scan(m);
    m->cpu = goal__sim_zeros(m, p * m->ncpu);
    m->nics = goal__sim_zeros(m, 2 * p * m->nnic);
    if (!m->cpu || !m->nics) return GOAL_ERR_NOMEM;
    m->nicr = m->nics + p * m->nnic;
    return GOAL_OK;
}
/* LogGOPSim first queues every rank's independent actions at time 0 (ranks in order, send /
   recv / local within a rank), then runs events. Those come out of the queue first and in
   that very order (time 0 is the least, and their numbers are the lowest), so they run
   straight from the schedules here: the heap never holds them (a million ranks would fill
   it with a million receives). Events they queue are numbered after all of them. */
static goal_status goal__sim_sweep(goal__sim *m) {
    int32_t r;
    uint32_t iseq = 0;
    goal_status st = GOAL_OK;
    for (r = 0; r < m->x.p; r++) {
        goal_schedule s;
        goal__simw_full(&m->x, r, &s);
        m->seq += s.nindep;
    }
    for (r = 0; r < m->x.p && st == GOAL_OK; r++) {
        goal_schedule s;
        uint32_t i;
        int cls;
        goal__simw_full(&m->x, r, &s);
        for (cls = 0; cls < 3; cls++)
            for (i = 0; i < s.nindep && st == GOAL_OK; i++) {
                goal__sim_ev ev;
                if (goal__sim_class(&s, s.indep[i]) != cls) continue;
                ev.time = 0; ev.seq = iseq++; ev.rank = r; ev.ref = s.indep[i];
                st = goal__sim_event(m, ev);
                if (st == GOAL_OK) st = goal__sim_flush(m);
            }
    }
    return st;
}
static goal_status goal__sim_loop(goal__sim *m) {
    goal_status st = goal__sim_sweep(m);
    while (st == GOAL_OK && m->nheap) {
        st = goal__sim_event(m, goal__sim_pop(m));
        if (st == GOAL_OK) st = goal__sim_flush(m);
    }
    m->events = m->seq;
    return st;
}
static void goal__sim_free(goal__sim *m) {
    const goal_allocator *a = &m->x.a;
    goal__sim_del(a, m->need); goal__sim_del(a, m->done); goal__sim_del(a, m->posted);
    goal__sim_del(a, m->cpu); goal__sim_del(a, m->nics); goal__sim_del(a, m->msg);
    goal__sim_del(a, m->heap); goal__sim_del(a, m->ready);
    goal__simq_free(&m->q, a);
    goal__simw_free(&m->x);
}

/* Every rank's time: its largest CPU clock. */
static goal_status goal__sim_times(const goal__sim *m, goal_sim_result *out) {
    int32_t r;
    uint32_t c;
    out->finish = (uint64_t *)goal__sim_new(&m->x.a, (size_t)m->x.p, sizeof(uint64_t));
    if (!out->finish) return GOAL_ERR_NOMEM;
    for (r = 0; r < m->x.p; r++) {
        uint64_t t = 0;
        for (c = 0; c < m->ncpu; c++) t = goal__sim_max(t, m->cpu[(size_t)r * m->ncpu + c]);
        out->finish[r] = t;
        if (t > out->max || r == 0) { out->max = t; out->max_rank = r; }
    }
    return GOAL_OK;
}
/* Adds (rank, action, started) to the stuck list when out is not NULL; counts either way. */
static size_t goal__sim_stuck_add(goal_sim_result *out, size_t k, int32_t r, uint32_t i, int started) {
    if (out) { out->stuck[k] = goal__sim_ref(r, (int32_t)i); out->stuck_started[k] = (uint8_t)started; }
    return k + 1;
}
/* Lists the actions that never completed and the sends whose message nobody took. */
static size_t goal__sim_stuck_walk(const goal__sim *m, goal_sim_result *out) {
    size_t k = 0;
    int32_t r;
    for (r = 0; r < m->x.p; r++) {
        uint32_t i, b = m->x.base[r], t = m->unexp[r];
        for (i = 0; i < m->x.base[r + 1] - b; i++)
            if (!m->done[b + i]) k = goal__sim_stuck_add(out, k, r, i, m->need[b + i] == 0);
        if (t == GOAL__SIM_NONE) continue;
        do {
            const goal__sim_msg *msg;
            t = m->q.e[t].next;
            msg = &m->msg[m->q.e[t].ref];
            k = goal__sim_stuck_add(out, k, msg->src, msg->send, 1);
        } while (t != m->unexp[r]);
    }
    return k;
}
static goal_status goal__sim_stuck(const goal__sim *m, goal_sim_result *out) {
    size_t n = goal__sim_stuck_walk(m, NULL);
    if (!n) return GOAL_OK;
    out->stuck = (goal_sim_ref *)goal__sim_new(&m->x.a, n, sizeof(goal_sim_ref));
    out->stuck_started = (uint8_t *)goal__sim_new(&m->x.a, n, 1);
    if (!out->stuck || !out->stuck_started) return GOAL_ERR_NOMEM;
    out->nstuck = goal__sim_stuck_walk(m, out);
    return m->ndone < m->x.n ? GOAL_ERR_DEADLOCK : GOAL_ERR_MATCH;
}

goal_status goal_sim_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_result *out) {
    goal__sim m;
    goal_sim_desc d;
    goal_status st;
    if (!out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    memset(&m, 0, sizeof m);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    st = goal__sim_init(&m, w, &d);
    out->alloc_ = m.x.a;
    out->nranks = m.x.p;
    if (st == GOAL_OK) st = goal__sim_loop(&m);
    out->events = m.events;
    if (st == GOAL_OK) st = goal__sim_stuck(&m, out);
    if (st == GOAL_OK) st = goal__sim_times(&m, out);
    goal__sim_free(&m);
    if (st != GOAL_OK && st != GOAL_ERR_DEADLOCK && st != GOAL_ERR_MATCH) goal_sim_result_free(out);
    return st;
}
void goal_sim_result_free(goal_sim_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__sim_allocator(&r->alloc_);
    goal__sim_del(&a, r->finish); goal__sim_del(&a, r->stuck); goal__sim_del(&a, r->stuck_started);
    memset(r, 0, sizeof *r);
}

/* ---- >>> draw: buffered output --------------------------------------------------------------- */
typedef struct goal__sim_out {
    goal_write_fn fn;
    void *user;
    goal_status st;             /* GOAL_ERR_IO once fn failed; later writes are dropped */
    size_t n;
    char buf[8192];
} goal__sim_out;

static void goal__sim_out_flush(goal__sim_out *o) {
    if (o->st == GOAL_OK && o->n && o->fn(o->user, o->buf, o->n)) o->st = GOAL_ERR_IO;
    o->n = 0;
}
static void goal__sim_out_printf(goal__sim_out *o, const char *fmt, ...) {
    va_list ap;
    int k;
    if (o->n > sizeof o->buf - 512) goal__sim_out_flush(o);
    va_start(ap, fmt);
    k = vsnprintf(o->buf + o->n, sizeof o->buf - o->n, fmt, ap);
    va_end(ap);
    if (k > 0) o->n += (size_t)k < sizeof o->buf - o->n ? (size_t)k : sizeof o->buf - o->n - 1;
}
static void goal__sim_out_init(goal__sim_out *o, goal_write_fn fn, void *user) { o->fn = fn; o->user = user; o->st = GOAL_OK; o->n = 0; }

static const char *goal__sim_kind_name(goal_kind k) {
    static const char *const names[] = {"nop", "send", "recv", "exec", "calc"};
    return (unsigned)k < 5u ? names[k] : "?";
}
/* "l3: send 8 B to 2" (tag when not 0): how pictures name an action. */
static void goal__sim_caption(const goal_schedule *s, uint32_t i, const char *sep, char *buf, size_t len) {
    goal_action a;
    char lb[GOAL_LABEL_MAX];
    size_t k;
    goal_schedule_action(s, i, &a);
    k = (size_t)snprintf(buf, len, "%s:%s%s", goal_schedule_label(s, i, lb), sep, goal__sim_kind_name(a.kind));
    if (k >= len) return;
    if (a.kind == GOAL_SEND || a.kind == GOAL_RECV) {
        k += (size_t)snprintf(buf + k, len - k, " %llu B %s ", (unsigned long long)a.buf.size, a.kind == GOAL_SEND ? "to" : "from");
        if (k < len) k += (size_t)(a.peer == GOAL_ANY ? snprintf(buf + k, len - k, "any") : snprintf(buf + k, len - k, "%ld", (long)a.peer));
        if (k < len && a.tag) snprintf(buf + k, len - k, " tag %ld", (long)a.tag);
    } else if (a.kind == GOAL_CALC) snprintf(buf + k, len - k, " %llu", (unsigned long long)a.cost);
    else if (a.kind == GOAL_EXEC) snprintf(buf + k, len - k, " %s %llu B", goal_op_name(a.op) ? goal_op_name(a.op) : "?", (unsigned long long)a.buf.size);
}
/* Fill colours by kind (nop send recv exec calc), shared by DOT and SVG. */
static const char *goal__sim_colour(goal_kind k) {
    static const char *const c[] = {"#d9d9d9", "#9ecae1", "#a1d99b", "#fdae6b", "#fdd0a2"};
    return (unsigned)k < 5u ? c[k] : "#ffffff";
}

/* ---- >>> draw: DOT ----------------------------------------------------------------------------- */
static void goal__dot_rank(goal__sim_out *o, const goal_schedule *s, int cluster) {
    uint32_t i, k;
    char cap[200];
    if (cluster) goal__sim_out_printf(o, "  subgraph cluster_r%ld {\n    label=\"rank %ld\"; style=rounded; color=\"#888888\";\n", (long)s->rank, (long)s->rank);
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        goal_schedule_action(s, i, &a);
        goal__sim_caption(s, i, "\\n", cap, sizeof cap);
        goal__sim_out_printf(o, "    r%ld_a%lu [label=\"%s\", fillcolor=\"%s\"];\n", (long)s->rank, (unsigned long)i, cap, goal__sim_colour(a.kind));
    }
    if (cluster) goal__sim_out_printf(o, "  }\n");
    for (i = 0; i < s->nactions; i++) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, i, &d);
        for (k = 0; k < nd; k++)
            goal__sim_out_printf(o, "  r%ld_a%lu -> r%ld_a%lu%s;\n", (long)s->rank, (unsigned long)i, (long)s->rank,
                             (unsigned long)(d[k] & ~GOAL__SIM_START), (d[k] & GOAL__SIM_START) ? " [style=dashed]" : "");
    }
}
static goal_status goal__dot_messages(goal__sim_out *o, const goal_world *w, const goal_allocator *alloc) {
    goal_sim_check_desc d;
    goal_sim_check_result r;
    goal_status st;
    size_t k;
    memset(&d, 0, sizeof d);
    if (alloc) d.alloc = *alloc;
    st = goal_sim_check(w, &d, &r);
    if (st != GOAL_OK && st != GOAL_ERR_MATCH) return st;
    for (k = 0; k < r.npairs; k++)
        goal__sim_out_printf(o, "  r%ld_a%ld -> r%ld_a%ld [color=\"#d62728\", penwidth=1.5];\n", (long)r.pairs[k].send.rank,
                         (long)r.pairs[k].send.action, (long)r.pairs[k].recv.rank, (long)r.pairs[k].recv.action);
    goal_sim_check_free(&r);
    return GOAL_OK;
}
goal_status goal_sim_write_dot(const goal_world *w, int rank, const goal_allocator *alloc, goal_write_fn fn, void *user) {
    goal__sim_out o;
    goal_schedule s;
    goal_status st = GOAL_OK;
    int r;
    if (!w || !fn || rank < -1 || rank >= goal_world_nranks(w)) return GOAL_ERR_ARG;
    goal__sim_out_init(&o, fn, user);
    goal__sim_out_printf(&o, "digraph goal {\n  rankdir=TB; newrank=true;\n"
                         "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
                         "  edge [arrowsize=0.7];\n");
    for (r = rank < 0 ? 0 : rank; r < (rank < 0 ? goal_world_nranks(w) : rank + 1); r++) {
        if (goal_world_schedule(w, r, &s) != GOAL_OK) continue;
        goal__dot_rank(&o, &s, rank < 0);
    }
    if (rank < 0) st = goal__dot_messages(&o, w, alloc);
    goal__sim_out_printf(&o, "}\n");
    goal__sim_out_flush(&o);
    return st != GOAL_OK ? st : o.st;
}

/* ---- >>> draw: timelines --------------------------------------------------------------------- */
/* The simulated events, collected for a picture. */
typedef struct goal__tl {
    const goal_world *w;
    goal_allocator a;
    goal_sim_event *ev; size_t n, cap;
    goal_status st;
} goal__tl;
static void goal__tl_add(void *user, const goal_sim_event *e) {
    goal__tl *t = (goal__tl *)user;
    if (t->st != GOAL_OK) return;
    if (GOAL__SIM_GROW(&t->a, t->ev, t->cap, t->n + 1u) != GOAL_OK) { t->st = GOAL_ERR_NOMEM; return; }
    t->ev[t->n++] = *e;
}
/* Simulates w with desc and collects every event; out gets the finish times. */
static goal_status goal__tl_run(goal__tl *t, const goal_world *w, const goal_sim_desc *desc, goal_sim_result *out) {
    goal_sim_desc d;
    goal_status st;
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    memset(t, 0, sizeof *t);
    t->w = w; t->a = goal__sim_allocator(&d.alloc);
    d.event_fn = goal__tl_add; d.user = t;
    st = goal_sim_run(w, &d, out);
    return st != GOAL_OK ? st : t->st;
}
static void goal__tl_free(goal__tl *t, goal_sim_result *r) { goal__sim_del(&t->a, t->ev); goal_sim_result_free(r); }

/* The caption of the action an event is about ("recv (unexpected)" when none yet). */
static void goal__tl_caption(const goal__tl *t, const goal_sim_event *e, char *buf, size_t len) {
    goal_schedule s;
    if (e->action < 0 || goal_world_schedule(t->w, e->rank, &s) != GOAL_OK) {
        snprintf(buf, len, "message from %ld arrives (no recv posted yet)", (long)e->peer);
        return;
    }
    goal__sim_caption(&s, (uint32_t)e->action, " ", buf, len);
}
static const char *goal__tl_cat(goal_sim_event_kind k) {
    return k == GOAL_SIM_EV_SEND ? "send" : k == GOAL_SIM_EV_RECV ? "recv" : k == GOAL_SIM_EV_CALC ? "calc" : "message";
}

/* Chrome trace events: times in microseconds with nanosecond digits. */
static void goal__trace_event(goal__sim_out *o, const goal__tl *t, const goal_sim_event *e, size_t id) {
    char cap[200];
    if (e->kind == GOAL_SIM_EV_MSG) {
        goal__sim_out_printf(o, ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":%lu,\"pid\":%ld,\"tid\":%d,\"ts\":%llu.%03u}",
                         (unsigned long)id, (long)e->rank, e->cpu, (unsigned long long)(e->start / 1000u), (unsigned)(e->start % 1000u));
        goal__sim_out_printf(o, ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%lu,\"pid\":%ld,\"tid\":%d,\"ts\":%llu.%03u}",
                         (unsigned long)id, (long)e->peer, e->cpu, (unsigned long long)(e->end / 1000u), (unsigned)(e->end % 1000u));
        return;
    }
    goal__tl_caption(t, e, cap, sizeof cap);
    goal__sim_out_printf(o, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%ld,\"tid\":%d,\"ts\":%llu.%03u,\"dur\":%llu.%03u,"
                        "\"args\":{\"bytes\":%llu,\"peer\":%ld}}",
                     cap, goal__tl_cat(e->kind), (long)e->rank, e->cpu, (unsigned long long)(e->start / 1000u), (unsigned)(e->start % 1000u),
                     (unsigned long long)((e->end - e->start) / 1000u), (unsigned)((e->end - e->start) % 1000u),
                     (unsigned long long)e->size, (long)e->peer);
}
goal_status goal_sim_write_trace(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user) {
    goal__tl t;
    goal_sim_result r;
    goal__sim_out o;
    goal_status st;
    size_t k;
    int32_t rank;
    if (!w || !fn) return GOAL_ERR_ARG;
    if ((st = goal__tl_run(&t, w, desc, &r)) == GOAL_OK) {
        goal__sim_out_init(&o, fn, user);
        goal__sim_out_printf(&o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                             "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"rank 0\"}}");
        for (rank = 1; rank < r.nranks; rank++)
            goal__sim_out_printf(&o, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%ld,\"args\":{\"name\":\"rank %ld\"}}", (long)rank, (long)rank);
        for (k = 0; k < t.n; k++) goal__trace_event(&o, &t, &t.ev[k], k);
        goal__sim_out_printf(&o, "\n]}\n");
        goal__sim_out_flush(&o);
        st = o.st;
    }
    goal__tl_free(&t, &r);
    return st;
}

/* SVG: one lane per rank, time to the right; a tick step of 1, 2 or 5 x 10^k. */
#define GOAL__SVG_LEFT 70.0
#define GOAL__SVG_WIDTH 1100.0
#define GOAL__SVG_TOP 40.0
static uint64_t goal__svg_step(uint64_t span) {
    uint64_t step = 1;
    while (step * 10u <= span / 4u + 1u) step *= 10u;
    return span / step > 20u ? step * 5u : span / step > 8u ? step * 2u : step;
}
static void goal__svg_axis(goal__sim_out *o, uint64_t end, double scale, double bottom) {
    uint64_t step = goal__svg_step(end), x;
    for (x = 0; x <= end; x += step) {
        double px = GOAL__SVG_LEFT + (double)x * scale;
        goal__sim_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", px, GOAL__SVG_TOP - 5, px, bottom);
        goal__sim_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>\n", px, GOAL__SVG_TOP - 10, (unsigned long long)x);
    }
    goal__sim_out_printf(o, "<text x=\"%.1f\" y=\"14\" text-anchor=\"end\">time (ns)</text>\n", GOAL__SVG_LEFT + GOAL__SVG_WIDTH);
}
static void goal__svg_event(goal__sim_out *o, const goal__tl *t, const goal_sim_event *e, double scale, double lane) {
    char cap[200];
    double x0 = GOAL__SVG_LEFT + (double)e->start * scale, x1 = GOAL__SVG_LEFT + (double)e->end * scale;
    double y = GOAL__SVG_TOP + (double)e->rank * lane;
    goal_kind k = e->kind == GOAL_SIM_EV_SEND ? GOAL_SEND : e->kind == GOAL_SIM_EV_RECV ? GOAL_RECV : GOAL_CALC;
    if (e->kind == GOAL_SIM_EV_MSG) {
        double y2 = GOAL__SVG_TOP + (double)e->peer * lane;
        goal__sim_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-opacity=\"0.6\" marker-end=\"url(#arrow)\"/>\n",
                         x0, y + lane * 0.5, x1, y2 + lane * 0.5);
        return;
    }
    goal__tl_caption(t, e, cap, sizeof cap);
    goal__sim_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#555555\" stroke-width=\"0.5\">"
                        "<title>rank %ld cpu %d: %s, %llu..%llu ns</title></rect>\n",
                     x0, y + lane * 0.15, x1 - x0 > 1 ? x1 - x0 : 1, lane * 0.7, goal__sim_colour(k), (long)e->rank, e->cpu, cap,
                     (unsigned long long)e->start, (unsigned long long)e->end);
    if (x1 - x0 > 7.0 * (double)strlen(cap) && lane >= 14)
        goal__sim_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x0 + 3, y + lane * 0.65, cap);
}
static void goal__svg_legend(goal__sim_out *o, double y) {
    static const char *const names[] = {"send overhead", "receive overhead", "calc / exec", "message"};
    static const goal_kind kinds[] = {GOAL_SEND, GOAL_RECV, GOAL_CALC};
    int k;
    for (k = 0; k < 3; k++)
        goal__sim_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" stroke=\"#555555\" stroke-width=\"0.5\"/>"
                            "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", GOAL__SVG_LEFT + 160.0 * k, y, goal__sim_colour(kinds[k]),
                         GOAL__SVG_LEFT + 160.0 * k + 18, y + 9, names[k]);
    goal__sim_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                     GOAL__SVG_LEFT + 480, y + 5, GOAL__SVG_LEFT + 494, y + 5, GOAL__SVG_LEFT + 498, y + 9, names[3]);
}
static void goal__svg_lanes(goal__sim_out *o, const goal_sim_result *r, double lane) {
    int32_t k;
    for (k = 0; k < r->nranks; k++) {
        double y = GOAL__SVG_TOP + (double)k * lane;
        if (k % 2) goal__sim_out_printf(o, "<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f7f7f7\"/>\n", y, GOAL__SVG_LEFT + GOAL__SVG_WIDTH + 20, lane);
        if (lane >= 9) goal__sim_out_printf(o, "<text x=\"6\" y=\"%.1f\">rank %ld</text>\n", y + lane * 0.65, (long)k);
    }
}
goal_status goal_sim_write_svg(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user) {
    goal__tl t;
    goal_sim_result r;
    goal__sim_out o;
    goal_status st;
    size_t k;
    double lane, scale, height;
    if (!w || !fn) return GOAL_ERR_ARG;
    if ((st = goal__tl_run(&t, w, desc, &r)) == GOAL_OK) {
        lane = r.nranks <= 40 ? 22.0 : r.nranks >= 900 ? 1.0 : 900.0 / r.nranks;
        scale = GOAL__SVG_WIDTH / (double)(r.max ? r.max : 1u);
        height = GOAL__SVG_TOP + lane * r.nranks + 40;
        goal__sim_out_init(&o, fn, user);
        goal__sim_out_printf(&o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
                             "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
                             "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#d62728\"/></marker></defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                         GOAL__SVG_LEFT + GOAL__SVG_WIDTH + 20, height);
        goal__svg_lanes(&o, &r, lane);
        goal__svg_axis(&o, r.max, scale, GOAL__SVG_TOP + lane * r.nranks);
        for (k = 0; k < t.n; k++) goal__svg_event(&o, &t, &t.ev[k], scale, lane);
        goal__svg_legend(&o, height - 25);
        goal__sim_out_printf(&o, "</svg>\n");
        goal__sim_out_flush(&o);
        st = o.st;
    }
    goal__tl_free(&t, &r);
    return st;
}
#endif /* GOAL_SIM_IMPLEMENTATION */
