/* goal_analyze.h - v0.1.0 - the cDAG analysis of a GOAL world (Hoefler and Schneider, PACT'12,
   sections 2.3 and 2.4): wait sets, dataflow in SST form, collective detection, and the world
   rebuilt with every collective found replaced by a libgoal algorithm.

   In exactly ONE .c or .cpp file:   #define GOAL_ANALYZE_IMPLEMENTATION   then   #include "goal_analyze.h"
   (GOAL_ALL_IMPLEMENTATION works as well.) It includes goal_sim.h (matching) and goal_algos.h
   (replacement) itself; their implementations and goal.h's must be in the program too.

   Sections: OVERVIEW · WAIT SETS · DATAFLOW · COLLECTIVES · REPLACEMENT · RE-PLANNING ·
             COMMAND LINE · MEMORY · ERRORS · LICENSE

   OVERVIEW
   --------
   The paper's analyses on a whole world (goal.h's goal_world: every rank's schedule):
     goal_analyze_waits     W_i of every rank i
     goal_analyze           matching (goal_sim_check), dataflow (the SST) and the collectives
     goal_analyze_sources   what went into a reduced tuple
     goal_analyze_replace   the world rebuilt from its SST, collectives as libgoal algorithms
     goal_analyze_replan    a recorded program with its collectives' calls re-generated

   WAIT SETS
   ---------
   W_i = the ranks that rank i synchronises with before it completes: every rank owning an
   action from which one of i's actions is reachable over dependencies (requires and
   irequires) and matched messages (send -> recv). i itself is left out.

   DATAFLOW
   --------
   The actions are followed in an order that respects dependencies and matches (a receive
   after its send). Every rank's memory is a map from (slot, offset) to where
   its bytes came from, initially each byte from itself. A send reads its buffer when it
   starts; its receive writes those origins, so a message that carries bytes of several
   origins splits (Algorithm 4) and a forwarded byte keeps its original source. exec copy
   moves origins like a local message; every other exec (reductions, user functions)
   combines the origins of both operands into a new value computed at that rank (a
   "reduced" tuple; goal_analyze_sources lists what went into it). calc and nop move
   nothing. The result (SST) is one tuple per range of user memory that a receive or copy
   wrote and that still holds that value at the end: (owner, slot:offset, size, source
   rank, source slot:offset). Adjacent ranges with contiguous sources are one tuple. The
   scratch slot is the executor's temporary memory, not the user's: it is left out, so
   data staged there (tree buffers, Bruck's packing) leaves no tuple.
   LogGOPSim-dialect worlds carry sizes but no buffer offsets: dataflow and detection are
   refused with a message (GOAL_ERR_ARG); wait sets and goal_sim_check work on them.

   COLLECTIVES
   -----------
   Algorithm 5 with the signatures of section 2.4.1, on the full process set.
   Tuples are grouped by size; in each group, most abstract first, and again until nothing
   more is found: allgather (every rank sends the same bytes to all others), alltoall
   (different bytes to each other rank; Algorithm 5's lines 6-8 have these two swapped),
   bcast (one rank, the same bytes to all others), scatter (one rank, different bytes to
   each), gather (all others to one rank). A pair of ranks may have several candidate
   tuples (a forwarding rank keeps a transit copy): the choice is a bipartite matching, so
   transit tuples do not hide the collective; they remain and are reported as p2p, as is
   every tuple of no collective and every reduced tuple. Tuples whose source is their
   owner (send-to-self, local copies) are in the SST but not in the detection. Barrier:
   every wait set is complete (reported unless an allgather or alltoall already implies it).
   With p = 2 the signatures coincide: a rooted collective is one message and is reported
   as bcast, an alltoall as allgather.

   REPLACEMENT
   -----------
   The world is rebuilt from its SST: every collective finding becomes the libgoal algorithm of its kind
   chosen in goal_analyze_replace_desc (each rank's part is generated with its own
   buffers, so offsets may differ between ranks), a barrier finding the chosen barrier
   algorithm, and every other tuple one direct message or local copy. gather, scatter,
   allgather and alltoall are replaced only when their tuples are in MPI's block layout
   (goal_algos.h BUFFERS), n = the finding's size: every rank's IN (sendbuf) and OUT
   (recvbuf) are contiguous in one slot each, IN holding p blocks in destination order
   (scatter at the root, alltoall) or one block, OUT p blocks in source order (gather at
   the root, allgather, alltoall) or one block. A rank that keeps a block of its own (the
   root of gather and scatter, every rank of allgather and alltoall) either copies it from
   IN to OUT (an SST tuple, taken into the algorithm) or has it in place (IN's block and
   OUT's block are one place that no tuple writes; alltoall cannot be in place). In place,
   the generator's copy of the own block lands on itself (the rebuilt SST may then hold a
   tuple from a block's own place: it moves nothing), and allgather_recdoub's ranks past
   the largest power of two receive their block back while sending it (the same bytes).
   With p = 2 an allgather finding that is not in the allgather layout is tried as an
   alltoall. Otherwise the finding stays as direct messages (desc.chosen tells which).
   Refused (GOAL_ERR_ARG, with a message) when the world reduces or computes (exec other
   than copy, calc), a rank's destinations overlap the sources it reads, or an algorithm
   is not of its finding's kind. Every piece has its own tag, so pieces never cross-match.

   RE-PLANNING
   -----------
   A recording (GOAL_MPI_RECORD, docs/record.md) brackets every collective call on every
   member rank by two nop anchors, labelled <coll>_c<C>_n<N>_b<B>_r<R>_i<I> (start) and
   <coll>_c<C>_n<N>_end: the drop-in's collective name (GOAL_MPI_ALGOS's keys), the
   communicator's number, the call's number on it, this rank's bytes, the root (-1: none)
   and this rank's rank in the communicator (R = -1 may be written m1: the text dialect's
   labels are identifiers). The call's members are the ranks holding a
   start anchor of <coll>_c<C>_n<N>, ordered by I. goal_analyze_replan takes a list of
   (collective, algorithm) and rebuilds the world with every call of those collectives
   generated by that algorithm for its members, root and size; the rest stays as recorded:
     - the actions between the anchors (those the end anchor requires, back to the start
       anchor) are dropped; the new part's first actions require the start anchor, the end
       anchor requires its last: the program's dependencies stay;
     - size: int8 elements, count = the largest B of the members (the members' B for the
       vector collectives gatherv, scatterv, allgatherv and reduce_scatter, whose counts
       are then each rank's own; alltoallv needs every pair's count, which the anchors do
       not carry: refused, naming the call);
     - every call gets its own tag, above every tag of the recording, so no message of one
       call matches another's; buffers: the generator's slots 1 (OUT) and scratch.
   The algorithm is a canonical name or its part after the collective's prefix ("ring" for
   allreduce_ring), with the plan's nway, segment and radix (0: the defaults).
   reduce_scatter_block's algorithms are reduce_scatter_*, reduce_scatter's
   reduce_scatterv_*. Refused (GOAL_ERR_ARG, with a message): an unknown collective or
   algorithm, an algorithm of another collective, a collective named twice, malformed
   anchors (a label that starts as an anchor but does not parse, a start without its end,
   members whose I are not 0..m-1 or whose roots differ, an action between the anchors
   that does not follow the start or that an action outside the call requires). A
   collective the world never calls is no error: its plan's `calls` stays 0.

   COMMAND LINE (tools/cli_analyze.c; usage: goal help analyze)
     goal analyze FILE --waits | --dataflow | --collectives | --replace [-o OUT]
                  [--bcast|--barrier|--gather|--scatter|--allgather|--alltoall ALGO]
     The output formats are in the README (goal analyze).
     goal sim FILE --coll COLL=ALGO ... and goal tune FILE re-plan a recording (docs/replan.md).

   MEMORY
   ------
   Every call takes a goal_allocator (zeroed = GOAL_MALLOC / GOAL_FREE); results are freed
   with goal_analyze_waits_free / goal_analyze_free. No global state.

   ERRORS
   ------
   goal_status from goal.h, with the details in a goal_error where the call takes one:
   GOAL_ERR_MATCH (the world does not match or deadlocks: the first finding of goal check),
   GOAL_ERR_ARG (a LogGOPSim-dialect world for dataflow, a world that computes for
   replacement, an algorithm of another kind, a plan or anchors re-planning refuses),
   GOAL_ERR_NOMEM, GOAL_ERR_LIMIT (re-planning: tags past 2^31-1).

   LICENSE: MIT, as goal.h.
*/
#include "goal.h"          /* before the guard, as the ones below: an inclusion after the macro builds theirs too */
#include "goal_algos.h"   /* replacement generates libgoal algorithms */
#include "goal_sim.h"     /* matching: goal_sim_check; its shared block: the world as numbered actions */
#ifndef GOAL_ANALYZE_H_INCLUDED
#define GOAL_ANALYZE_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

#define GOAL_ANALYZE_NONE 0xFFFFFFFFu

typedef struct goal_analyze_waits_result {
    int32_t nranks;
    size_t *start;             /* nranks + 1: W_i = ranks[start[i] .. start[i+1]) */
    int32_t *ranks;            /* ascending within each wait set */
    goal_allocator alloc_;
} goal_analyze_waits_result;

typedef struct goal_analyze_tuple {   /* size bytes at owner slot:offset came from src slot:offset */
    int32_t owner;
    uint32_t slot;
    uint64_t offset, size;
    int32_t src;               /* reduced: the rank that combined the value */
    uint32_t src_slot;
    uint64_t src_offset;
    uint32_t mix;              /* GOAL_ANALYZE_NONE, or a reduced value (goal_analyze_sources) */
} goal_analyze_tuple;

typedef enum goal_analyze_kind {
    GOAL_ANALYZE_BCAST, GOAL_ANALYZE_GATHER, GOAL_ANALYZE_SCATTER, GOAL_ANALYZE_ALLGATHER,
    GOAL_ANALYZE_ALLTOALL, GOAL_ANALYZE_BARRIER, GOAL_ANALYZE_P2P
} goal_analyze_kind;

typedef struct goal_analyze_finding {
    goal_analyze_kind kind;
    int32_t root;              /* bcast, gather, scatter; else -1 */
    uint64_t size;             /* bytes per tuple (0 for barrier) */
    size_t first, count;       /* its tuples: tuples[members[first .. first + count)] */
} goal_analyze_finding;

typedef struct goal_analyze_desc {
    int no_collectives;        /* 1: dataflow only */
    goal_allocator alloc;
} goal_analyze_desc;

typedef struct goal_analyze_source { int32_t rank; uint32_t slot; uint64_t offset; } goal_analyze_source;

typedef struct goal_analyze_result {
    int32_t nranks;
    goal_analyze_tuple *tuples; size_t ntuples;         /* the SST, by owner, slot, offset */
    goal_analyze_finding *findings; size_t nfindings;   /* collectives, barrier, then p2p */
    size_t *members; size_t nmembers;
    void *mix_; size_t nmix_;                           /* reduced values (private) */
    goal_allocator alloc_;
} goal_analyze_result;

/* The wait set of every rank (of desc only alloc applies). A world that does not match or
   deadlocks is GOAL_ERR_MATCH, message in err. */
GOAL_API goal_status goal_analyze_waits(const goal_world *w, const goal_analyze_desc *desc, goal_analyze_waits_result *out,
                                        goal_error *err);
GOAL_API void goal_analyze_waits_free(goal_analyze_waits_result *r);
/* Matches (goal_sim_check), propagates the dataflow into SST form and detects collectives.
   A world that does not match or deadlocks is GOAL_ERR_MATCH, message in err. */
GOAL_API goal_status goal_analyze(const goal_world *w, const goal_analyze_desc *desc, goal_analyze_result *out, goal_error *err);
GOAL_API void goal_analyze_free(goal_analyze_result *r);
/* The sources of a reduced tuple t (each byte of t combines the bytes at these places):
   writes at most max of them, returns how many there are. */
GOAL_API size_t goal_analyze_sources(const goal_analyze_result *r, const goal_analyze_tuple *t, goal_analyze_source *out, size_t max);
GOAL_API const char *goal_analyze_kind_name(goal_analyze_kind k);   /* "bcast", ..., "p2p" */
/* "(owner,offset,size,src,srcoffset)", offsets as SLOT:OFFSET outside slot 0; returns buf. */
GOAL_API const char *goal_analyze_tuple_text(const goal_analyze_tuple *t, char *buf, size_t len);

typedef struct goal_analyze_replace_desc {  /* algorithm names from goal_algos.h */
    const char *bcast;         /* default "bcast_binomial" */
    const char *barrier;       /* default "barrier_dissemination" */
    const char *gather;        /* default "gather_binomial" */
    const char *scatter;       /* default "scatter_binomial" */
    const char *allgather;     /* default "allgather_bruck" */
    const char *alltoall;      /* default "alltoall_bruck" */
    const char **chosen;       /* optional output, r->nfindings entries: the algorithm that
                                  replaced each finding, NULL where direct messages remain */
    goal_allocator alloc;
} goal_analyze_replace_desc;
/* The world with every finding of r (from goal_analyze on w) replaced; see REPLACEMENT. */
GOAL_API goal_status goal_analyze_replace(const goal_world *w, const goal_analyze_result *r,
                                          const goal_analyze_replace_desc *desc, goal_world **out, goal_error *err);

typedef struct goal_analyze_plan {   /* one collective to re-plan (RE-PLANNING) */
    const char *coll;          /* the recording's name: "allreduce", "reduce_scatter_block", ... */
    const char *algo;          /* an algorithm of it: "allreduce_ring", or "ring" */
    int nway, radix;           /* its parameters, as goal_algo_desc's; 0: the default */
    uint64_t segment;
    const char *used;          /* output: the canonical name of algo */
    size_t calls;              /* output: the calls re-generated; 0 when the world has none */
} goal_analyze_plan;
typedef struct goal_analyze_replan_desc {
    goal_analyze_plan *plans;  /* nplans of them, each collective once */
    size_t nplans;
    goal_allocator alloc;
} goal_analyze_replan_desc;
/* The recorded world w with every call of the planned collectives re-generated; see RE-PLANNING. */
GOAL_API goal_status goal_analyze_replan(const goal_world *w, goal_analyze_replan_desc *desc, goal_world **out, goal_error *err);
/* The k-th collective a recording names (0, 1, ...; "bcast" ... "neighbor_alltoallw"), NULL past the end. */
GOAL_API const char *goal_analyze_coll_name(int k);
/* The canonical name of algorithm `name` (canonical or short) of collective coll, or NULL. */
GOAL_API const char *goal_analyze_coll_algo(const char *coll, const char *name);
#define GOAL_ANALYZE_NCOLLS GOAL_COLL_NCALLS  /* the collectives a recording names (goal_coll_call) */
/* How many calls of each collective w records (calls[k], GOAL_ANALYZE_NCOLLS entries, for
   goal_analyze_coll_name(k)): its start anchors with I = 0. */
GOAL_API void goal_analyze_recorded(const goal_world *w, size_t *calls);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_ANALYZE_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_ANALYZE_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__ANALYZE_IMPL_DONE)
#define GOAL__ANALYZE_IMPL_DONE
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>   /* qsort */

/* ---- >>> analyze: common ------------------------------------------------------------------- */
/* Global ids of the predecessors of every action (dependencies, and a receive's matched
   send), as CSR: pred[off[g] .. off[g+1]). peer may be NULL (dependencies only). */
typedef struct goal__an_preds { uint32_t *off, *pred; } goal__an_preds;
static int goal__an_matched_recv(const goal__simw *x, const goal_schedule *s, uint32_t i, const uint32_t *peer) {
    goal_action a;
    if (!peer || peer[x->base[s->rank] + i] == GOAL__NONE) return 0;
    goal_schedule_action(s, i, &a);
    return a.kind == GOAL_RECV;
}
/* One edge src -> t of the lists: counted while pr->pred is NULL, else put in from the
   back (off[t] counts down to its list's start). */
static void goal__an_preds_edge(goal__an_preds *pr, uint32_t t, uint32_t src) {
    if (pr->pred) pr->pred[--pr->off[t]] = src;
    else pr->off[t]++;
}
/* Every edge, in one order: the counting pass and the filling pass are this same walk. */
static void goal__an_preds_walk(const goal__simw *x, const uint32_t *peer, goal__an_preds *pr) {
    int32_t r;
    for (r = 0; r < x->p; r++) {
        goal_schedule s;
        uint32_t i, k;
        goal__simw_view(x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            const uint32_t *d;
            uint32_t nd = goal_schedule_deps(&s, i, &d), g = x->base[r] + i;
            for (k = 0; k < nd; k++) goal__an_preds_edge(pr, x->base[r] + (d[k] & ~GOAL__DEP_START), g);
            if (goal__an_matched_recv(x, &s, i, peer)) goal__an_preds_edge(pr, g, peer[g]);
        }
    }
}
static goal_status goal__an_preds_build(const goal__simw *x, const uint32_t *peer, goal__an_preds *pr) {
    uint32_t g, total = 0;
    pr->pred = NULL;
    pr->off = (uint32_t *)goal__new(&x->a, (size_t)x->n + 1u, sizeof(uint32_t));
    if (!pr->off) return GOAL_ERR_NOMEM;
    memset(pr->off, 0, ((size_t)x->n + 1u) * sizeof(uint32_t));
    goal__an_preds_walk(x, peer, pr);
    for (g = 0; g < x->n; g++) { total += pr->off[g]; pr->off[g] = total; }
    pr->off[x->n] = total;
    pr->pred = (uint32_t *)goal__new(&x->a, total, sizeof(uint32_t));
    if (!pr->pred) return GOAL_ERR_NOMEM;
    goal__an_preds_walk(x, peer, pr);
    return GOAL_OK;
}
static void goal__an_preds_free(const goal__simw *x, goal__an_preds *pr) {
    goal__free(&x->a, pr->off); goal__free(&x->a, pr->pred);
    pr->off = pr->pred = NULL;
}

/* With buffering allowed a send that nobody receives completes and goes unreported, so
   every send and receive is checked for a counterpart here. */
static goal_status goal__an_unmatched(const goal__simw *x, const uint32_t *peer, goal_error *err) {
    int32_t r;
    for (r = 0; r < x->p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_view(x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal_sim_finding f;
            char line[GOAL_MSG_MAX - 64];
            goal_schedule_action(&s, i, &a);
            if ((a.kind != GOAL_SEND && a.kind != GOAL_RECV) || peer[x->base[r] + i] != GOAL__NONE) continue;
            f.kind = a.kind == GOAL_SEND ? GOAL_SIM_UNMATCHED_SEND : GOAL_SIM_UNMATCHED_RECV;
            f.at = goal__sim_ref(r, (int32_t)i); f.other = goal__sim_ref(-1, -1);
            goal_sim_finding_text(x->w, &f, line, sizeof line);
            return goal__fail(err, GOAL_ERR_MATCH, -1, "the world does not match: %s", line);
        }
    }
    return GOAL_OK;
}
/* The matched counterpart of every send and receive (GOAL__NONE for other actions);
   sends only get one when they are the matched send of a receive, which is what the
   receive's predecessor list needs: peer[recv] = send, peer[send] = recv. A world that
   does not match is refused with the first finding in err. */
static goal_status goal__an_match(const goal__simw *x, uint32_t **peer, goal_error *err) {
    goal_sim_check_desc cd;
    goal_sim_check_result cr;
    goal_status st;
    size_t k;
    memset(&cd, 0, sizeof cd);
    cd.eager_limit = (uint64_t)-1;   /* buffering allowed: what matters is who meets whom */
    cd.alloc = x->a;
    st = goal_sim_check(x->w, &cd, &cr);
    if (st == GOAL_ERR_MATCH && cr.errors) {
        char line[GOAL_MSG_MAX];
        for (k = 0; k < cr.nfindings && cr.findings[k].kind == GOAL_SIM_SIZE_WARNING; k++) {}
        goal_sim_finding_text(x->w, &cr.findings[k], line, sizeof line);
        goal_sim_check_free(&cr);
        return goal__fail(err, GOAL_ERR_MATCH, -1, "the world does not match: %s", line);
    }
    if (st != GOAL_OK && st != GOAL_ERR_MATCH) return goal__fail(err, st, -1, "matching: %s", goal_strerror(st));
    *peer = (uint32_t *)goal__new(&x->a, x->n, sizeof(uint32_t));
    if (!*peer) { goal_sim_check_free(&cr); return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory"); }
    memset(*peer, 0xFF, (size_t)x->n * sizeof(uint32_t));
    for (k = 0; k < cr.npairs; k++) {
        uint32_t s = x->base[cr.pairs[k].send.rank] + (uint32_t)cr.pairs[k].send.action;
        uint32_t r = x->base[cr.pairs[k].recv.rank] + (uint32_t)cr.pairs[k].recv.action;
        (*peer)[s] = r; (*peer)[r] = s;
    }
    goal_sim_check_free(&cr);
    return goal__an_unmatched(x, *peer, err);
}

/* ---- >>> analyze: wait sets ------------------------------------------------------------------ */
/* Marks the ranks reachable backwards from rank i's actions in rank_mark (stamp), and
   returns how many other ranks there are; seen/rank_mark hold stamps so no clearing is
   needed between ranks. stack: n entries. */
typedef struct goal__an_walk { const goal__simw *x; const goal__an_preds *pr; uint32_t *seen, *rank_mark, *stack, stamp; } goal__an_walk;
static size_t goal__an_wait_walk(goal__an_walk *wk, int32_t i) {
    const goal__simw *x = wk->x;
    uint32_t g, top = 0;
    size_t count = 0;
    wk->stamp++;
    for (g = x->base[i]; g < x->base[i + 1]; g++) { wk->seen[g] = wk->stamp; wk->stack[top++] = g; }
    while (top) {
        uint32_t v = wk->stack[--top], k;
        for (k = wk->pr->off[v]; k < wk->pr->off[v + 1]; k++) {
            uint32_t u = wk->pr->pred[k];
            int32_t r;
            if (wk->seen[u] == wk->stamp) continue;
            wk->seen[u] = wk->stamp;
            wk->stack[top++] = u;
            r = goal__simw_rank(x, u);
            if (r != i && wk->rank_mark[r] != wk->stamp) { wk->rank_mark[r] = wk->stamp; count++; }
        }
    }
    return count;
}
static goal_status goal__an_walk_init(goal__an_walk *wk, const goal__simw *x, const goal__an_preds *pr) {
    wk->x = x; wk->pr = pr; wk->stamp = 0;
    wk->seen = (uint32_t *)goal__new(&x->a, x->n, sizeof(uint32_t));
    wk->stack = (uint32_t *)goal__new(&x->a, x->n, sizeof(uint32_t));
    wk->rank_mark = (uint32_t *)goal__new(&x->a, (size_t)x->p, sizeof(uint32_t));
    if (!wk->seen || !wk->stack || !wk->rank_mark) return GOAL_ERR_NOMEM;
    memset(wk->seen, 0, (size_t)x->n * sizeof(uint32_t));
    memset(wk->rank_mark, 0, (size_t)x->p * sizeof(uint32_t));
    return GOAL_OK;
}
static void goal__an_walk_free(goal__an_walk *wk) {
    goal__free(&wk->x->a, wk->seen); goal__free(&wk->x->a, wk->stack); goal__free(&wk->x->a, wk->rank_mark);
}
/* Every rank's wait set into out (when out is NULL: only whether all are complete, which
   stops at the first incomplete one). Returns GOAL_OK, or GOAL_PENDING when out is NULL
   and some wait set is incomplete. */
static goal_status goal__an_waits(const goal__simw *x, const uint32_t *peer, goal_analyze_waits_result *out) {
    goal__an_preds pr = {NULL, NULL};
    goal__an_walk wk;
    goal_status st;
    int32_t i, r;
    size_t total = 0, cap = 0;
    memset(&wk, 0, sizeof wk);
    wk.x = x;
    st = goal__an_preds_build(x, peer, &pr);
    if (st == GOAL_OK) st = goal__an_walk_init(&wk, x, &pr);
    if (st == GOAL_OK && out && !(out->start = (size_t *)goal__new(&x->a, (size_t)x->p + 1u, sizeof(size_t)))) st = GOAL_ERR_NOMEM;
    for (i = 0; st == GOAL_OK && i < x->p; i++) {
        size_t c = goal__an_wait_walk(&wk, i);
        if (!out) { if (c + 1 < (size_t)x->p) st = GOAL_PENDING; continue; }
        out->start[i] = total;
        if (GOAL__RESERVE(&x->a, out->ranks, cap, total + c) != GOAL_OK) { st = GOAL_ERR_NOMEM; break; }
        for (r = 0; r < x->p; r++) if (wk.rank_mark[r] == wk.stamp) out->ranks[total++] = r;
    }
    if (st == GOAL_OK && out) out->start[x->p] = total;
    goal__an_walk_free(&wk);
    goal__an_preds_free(x, &pr);
    return st;
}

goal_status goal_analyze_waits(const goal_world *w, const goal_analyze_desc *desc, goal_analyze_waits_result *out,
                               goal_error *err) {
    goal__simw x;
    uint32_t *peer = NULL;
    goal_status st;
    if (!out) return goal__fail(err, GOAL_ERR_ARG, -1, "no output given");
    memset(out, 0, sizeof *out);
    st = goal__simw_init(&x, w, desc ? &desc->alloc : NULL);
    out->alloc_ = x.a;
    out->nranks = x.p;
    if (st != GOAL_OK) goal__fail(err, st, -1, "%s", goal_strerror(st));
    else if ((st = goal__an_match(&x, &peer, err)) == GOAL_OK && (st = goal__an_waits(&x, peer, out)) != GOAL_OK)
        goal__fail(err, st, -1, "%s", goal_strerror(st));   /* goal__an_match explains its own failures */
    goal__free(&x.a, peer);
    goal__simw_free(&x);
    if (st != GOAL_OK) goal_analyze_waits_free(out);
    else goal__fail(err, GOAL_OK, -1, "");
    return st;
}
void goal_analyze_waits_free(goal_analyze_waits_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__allocator(&r->alloc_);
    goal__free(&a, r->start); goal__free(&a, r->ranks);
    memset(r, 0, sizeof *r);
}
/* ---- >>> analyze: memory maps of origins ------------------------------------------------------ */
/* Where bytes came from: rank/slot/off, or (mix != NONE) a value combined at rank from the
   two origins of mix record `mix`, off being the shift into both (so slicing any origin
   is off += d). */
typedef struct goal__an_org { int32_t rank; uint32_t slot; uint64_t off; uint32_t mix; } goal__an_org;
typedef struct goal__an_mix { goal__an_org a, b; } goal__an_mix;
typedef struct goal__an_seg { uint32_t slot; uint64_t off, len; goal__an_org org; } goal__an_seg;
typedef struct goal__an_mem { goal__an_seg *s; size_t n, cap; } goal__an_mem;  /* written ranges, by (slot, off) */

typedef struct goal__an {
    goal__simw x;
    uint32_t *peer;                    /* n: matched counterpart */
    goal__an_mem *mem;                 /* p */
    goal__an_seg *snap; size_t nsnap, capsnap;   /* what each send read */
    size_t *snap_at;                   /* n: first snapshot entry of a send (count: snap_n) */
    uint32_t *snap_n;
    goal__an_seg *tmp, *tmp2, *tmp3; size_t captmp, captmp2, captmp3;   /* reads and combinations */
    goal__an_mix *mix; size_t nmix, capmix;
} goal__an;

static int goal__an_before(uint32_t slot_a, uint64_t off_a, uint32_t slot_b, uint64_t off_b) {
    return slot_a < slot_b || (slot_a == slot_b && off_a < off_b);
}
/* First segment of m that ends after (slot, off). */
static size_t goal__an_find(const goal__an_mem *m, uint32_t slot, uint64_t off) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const goal__an_seg *s = &m->s[mid];
        if (goal__an_before(s->slot, s->off + s->len, slot, off + 1)) lo = mid + 1; else hi = mid;
    }
    return lo;
}
static goal__an_org goal__an_self(int32_t rank, uint32_t slot, uint64_t off) {
    goal__an_org o;
    o.rank = rank; o.slot = slot; o.off = off; o.mix = GOAL_ANALYZE_NONE;
    return o;
}
static goal_status goal__an_push(goal__an *an, goal__an_seg **arr, size_t *n, size_t *cap, uint32_t slot, uint64_t off, uint64_t len, goal__an_org org) {
    goal__an_seg *s;
    if (!len) return GOAL_OK;
    if (goal__reserve(&an->x.a, (void **)arr, cap, *n + 1u, sizeof(goal__an_seg)) != GOAL_OK) return GOAL_ERR_NOMEM;
    s = &(*arr)[(*n)++];
    s->slot = slot; s->off = off; s->len = len; s->org = org;
    return GOAL_OK;
}
/* The origins of bytes [b.offset, +b.size) of rank r, gaps as the bytes themselves, into
   *out (n entries, offsets relative to b.offset). */
static goal_status goal__an_read(goal__an *an, int32_t r, goal_buf b, goal__an_seg **out, size_t *n, size_t *cap) {
    const goal__an_mem *m = &an->mem[r];
    size_t k = goal__an_find(m, b.slot, b.offset);
    uint64_t at = b.offset, end = b.offset + b.size;
    goal_status st = GOAL_OK;
    *n = 0;
    for (; st == GOAL_OK && at < end; k++) {
        const goal__an_seg *s = k < m->n && m->s[k].slot == b.slot && m->s[k].off < end ? &m->s[k] : NULL;
        uint64_t from = s ? (s->off > at ? s->off : at) : end, to;
        if (from > at) st = goal__an_push(an, out, n, cap, b.slot, at - b.offset, from - at, goal__an_self(r, b.slot, at));
        if (!s || st != GOAL_OK) break;
        to = s->off + s->len < end ? s->off + s->len : end;
        {
            goal__an_org o = s->org;
            o.off += from - s->off;
            st = goal__an_push(an, out, n, cap, b.slot, from - b.offset, to - from, o);
        }
        at = to;
    }
    return st;
}
static int goal__an_joins(const goal__an_seg *a, const goal__an_seg *b) {
    return a->slot == b->slot && a->off + a->len == b->off && a->org.rank == b->org.rank && a->org.slot == b->org.slot &&
           a->org.mix == b->org.mix && a->org.off + a->len == b->org.off;
}
/* Replaces bytes [off, off + len) of slot of rank r with the n segments in w (offsets
   relative to off, in order, covering the range), merging neighbours that join. */
static goal_status goal__an_write(goal__an *an, int32_t r, uint32_t slot, uint64_t off, uint64_t len, const goal__an_seg *w, size_t n) {
    goal__an_mem *m = &an->mem[r];
    size_t lo = goal__an_find(m, slot, off), hi = lo, k, add, at;
    goal__an_seg left, right;
    int has_left = 0, has_right = 0;
    if (!len) return GOAL_OK;
    while (hi < m->n && m->s[hi].slot == slot && m->s[hi].off < off + len) hi++;
    if (lo < hi && m->s[lo].off < off) { left = m->s[lo]; left.len = off - left.off; has_left = 1; }
    if (lo < hi && m->s[hi - 1].off + m->s[hi - 1].len > off + len) {
        right = m->s[hi - 1];
        right.len = right.off + right.len - (off + len);
        right.org.off += off + len - right.off;
        right.off = off + len;
        has_right = 1;
    }
    add = (size_t)has_left + n + (size_t)has_right;
    if (GOAL__RESERVE(&an->x.a, m->s, m->cap, m->n - (hi - lo) + add) != GOAL_OK) return GOAL_ERR_NOMEM;
    memmove(m->s + lo + add, m->s + hi, (m->n - hi) * sizeof(goal__an_seg));
    m->n = m->n - (hi - lo) + add;
    at = lo;
    if (has_left) m->s[at++] = left;
    for (k = 0; k < n; k++) { m->s[at] = w[k]; m->s[at].slot = slot; m->s[at++].off = off + w[k].off; }
    if (has_right) m->s[at++] = right;
    /* merge joins inside [lo - 1, at]: the only places new neighbours meet */
    k = lo ? lo - 1 : lo;
    while (k + 1 < m->n && k < at) {
        if (goal__an_joins(&m->s[k], &m->s[k + 1])) {
            m->s[k].len += m->s[k + 1].len;
            memmove(m->s + k + 1, m->s + k + 2, (m->n - k - 2) * sizeof(goal__an_seg));
            m->n--; at--;
        } else k++;
    }
    return GOAL_OK;
}

/* ---- >>> analyze: propagation (Algorithms 3 and 4) ------------------------------------------ */
static goal_status goal__an_send(goal__an *an, uint32_t g, int32_t r, const goal_action *a) {
    size_t n = 0;
    goal_status st = goal__an_read(an, r, a->buf, &an->tmp, &n, &an->captmp);
    if (st != GOAL_OK) return st;
    if (GOAL__RESERVE(&an->x.a, an->snap, an->capsnap, an->nsnap + n) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (n) memcpy(an->snap + an->nsnap, an->tmp, n * sizeof(goal__an_seg));
    an->snap_at[g] = an->nsnap; an->snap_n[g] = (uint32_t)n;
    an->nsnap += n;
    return GOAL_OK;
}
/* The receive takes what its send read, up to the smaller size (a shorter message leaves
   the rest of the receive buffer as it was). */
static goal_status goal__an_recv(goal__an *an, uint32_t g, int32_t r, const goal_action *a) {
    uint32_t s = an->peer[g], k;
    size_t m = 0;
    goal_status st = GOAL_OK;
    const goal__an_seg *src;
    if (s == GOAL__NONE) return GOAL_OK;
    src = an->snap + an->snap_at[s];
    for (k = 0; k < an->snap_n[s] && st == GOAL_OK && src[k].off < a->buf.size; k++) {
        uint64_t end = src[k].off + src[k].len;
        st = goal__an_push(an, &an->tmp, &m, &an->captmp, 0, src[k].off, (end < a->buf.size ? end : a->buf.size) - src[k].off, src[k].org);
    }
    if (st != GOAL_OK || !m) return st;
    return goal__an_write(an, r, a->buf.slot, a->buf.offset, an->tmp[m - 1].off + an->tmp[m - 1].len, an->tmp, m);
}
static goal_status goal__an_mix_new(goal__an *an, goal__an_org a, goal__an_org b, int32_t r, uint32_t slot, goal__an_org *out) {
    if (GOAL__RESERVE(&an->x.a, an->mix, an->capmix, an->nmix + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (an->nmix >= GOAL_ANALYZE_NONE) return GOAL_ERR_LIMIT;
    an->mix[an->nmix].a = a; an->mix[an->nmix].b = b;
    *out = goal__an_self(r, slot, 0);
    out->mix = (uint32_t)an->nmix++;
    return GOAL_OK;
}
/* buf1 = op(buf1, buf2): copy moves the origins of buf2; anything else combines, piece
   by piece where both operands' origins are uniform. */
static goal_status goal__an_exec(goal__an *an, int32_t r, const goal_action *a) {
    size_t n1 = 0, n2 = 0, i = 0, j = 0, m = 0;
    goal_status st = goal__an_read(an, r, a->buf2, &an->tmp2, &n2, &an->captmp2);
    if (st != GOAL_OK) return st;
    if (a->op == GOAL_OP_COPY) return goal__an_write(an, r, a->buf.slot, a->buf.offset, a->buf.size, an->tmp2, n2);
    if ((st = goal__an_read(an, r, a->buf, &an->tmp, &n1, &an->captmp)) != GOAL_OK) return st;
    while (st == GOAL_OK && i < n1 && j < n2) {   /* both cover [0, size): walk them together */
        const goal__an_seg *p = &an->tmp[i], *q = &an->tmp2[j];
        uint64_t from = p->off > q->off ? p->off : q->off, e1 = p->off + p->len, e2 = q->off + q->len, to = e1 < e2 ? e1 : e2;
        goal__an_org oa = p->org, ob = q->org, o;
        oa.off += from - p->off; ob.off += from - q->off;
        st = goal__an_mix_new(an, oa, ob, r, a->buf.slot, &o);
        if (st == GOAL_OK) st = goal__an_push(an, &an->tmp3, &m, &an->captmp3, 0, from, to - from, o);
        i += to == e1;
        j += to == e2;
    }
    return st == GOAL_OK ? goal__an_write(an, r, a->buf.slot, a->buf.offset, a->buf.size, an->tmp3, m) : st;
}
/* Follows every action once, in an order where an action comes after its dependencies and
   a receive after its matched send (Kahn's algorithm over D and M). */
static goal_status goal__an_step(goal__an *an, goal_sim_ref f, uint32_t *need, goal_sim_ref *queue, size_t *tail) {
    goal_schedule s;
    goal_action a;
    const uint32_t *d;
    uint32_t g = an->x.base[f.rank] + (uint32_t)f.action, nd, k;
    goal_status st = GOAL_OK;
    goal__simw_view(&an->x, f.rank, &s);
    goal_schedule_action(&s, (uint32_t)f.action, &a);
    if (a.kind == GOAL_SEND) st = goal__an_send(an, g, f.rank, &a);
    else if (a.kind == GOAL_RECV) st = goal__an_recv(an, g, f.rank, &a);
    else if (a.kind == GOAL_EXEC) st = goal__an_exec(an, f.rank, &a);
    if (a.kind == GOAL_SEND && an->peer[g] != GOAL__NONE && --need[an->peer[g]] == 0) {
        int32_t pr = goal__simw_rank(&an->x, an->peer[g]);
        queue[(*tail)++] = goal__sim_ref(pr, (int32_t)(an->peer[g] - an->x.base[pr]));
    }
    nd = goal_schedule_deps(&s, (uint32_t)f.action, &d);
    for (k = 0; k < nd; k++) {
        uint32_t t = d[k] & ~GOAL__DEP_START;
        if (--need[an->x.base[f.rank] + t] == 0) queue[(*tail)++] = goal__sim_ref(f.rank, (int32_t)t);
    }
    return st;
}
static goal_status goal__an_propagate(goal__an *an) {
    uint32_t *need = (uint32_t *)goal__new(&an->x.a, an->x.n, sizeof(uint32_t));
    goal_sim_ref *queue = (goal_sim_ref *)goal__new(&an->x.a, an->x.n, sizeof(goal_sim_ref));
    size_t head = 0, tail = 0;
    goal_status st = need && queue ? GOAL_OK : GOAL_ERR_NOMEM;
    int32_t r;
    for (r = 0; st == GOAL_OK && r < an->x.p; r++) {
        goal_schedule s;
        goal_action a;
        uint32_t i, b = an->x.base[r];
        goal__simw_view(&an->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_schedule_action(&s, i, &a);
            need[b + i] = goal_schedule_nsrc(&s, i) + (a.kind == GOAL_RECV && an->peer[b + i] != GOAL__NONE);
            if (!need[b + i]) queue[tail++] = goal__sim_ref(r, (int32_t)i);
        }
    }
    while (st == GOAL_OK && head < tail) st = goal__an_step(an, queue[head++], need, queue, &tail);
    if (st == GOAL_OK && head < an->x.n) st = GOAL_ERR_DEADLOCK;   /* goal_sim_check passed, so never */
    goal__free(&an->x.a, need); goal__free(&an->x.a, queue);
    return st;
}

/* The SST: every written range of user memory (the scratch slot is the executor's). */
static goal_status goal__an_sst(goal__an *an, goal_analyze_result *out) {
    size_t n = 0, k;
    int32_t r;
    for (r = 0; r < an->x.p; r++)
        for (k = 0; k < an->mem[r].n; k++) n += an->mem[r].s[k].slot != GOAL_SLOT_SCRATCH;
    out->tuples = (goal_analyze_tuple *)goal__new(&an->x.a, n, sizeof(goal_analyze_tuple));
    if (!out->tuples) return GOAL_ERR_NOMEM;
    for (r = 0; r < an->x.p; r++)
        for (k = 0; k < an->mem[r].n; k++) {
            const goal__an_seg *s = &an->mem[r].s[k];
            goal_analyze_tuple *t = &out->tuples[out->ntuples];
            if (s->slot == GOAL_SLOT_SCRATCH) continue;
            t->owner = r; t->slot = s->slot; t->offset = s->off; t->size = s->len;
            t->src = s->org.rank; t->src_slot = s->org.slot; t->src_offset = s->org.off; t->mix = s->org.mix;
            out->ntuples++;
        }
    return GOAL_OK;
}

/* ---- >>> analyze: collective detection (Algorithm 5) ------------------------------------------- */
typedef struct goal__an_key { uint64_t size, soff; int32_t src, owner; uint32_t sslot, idx; } goal__an_key;
static int goal__an_cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }
/* by size, source rank, source place, owner: a source's tuples with one place are a run */
static int goal__an_by_src(const void *pa, const void *pb) {
    const goal__an_key *a = (const goal__an_key *)pa, *b = (const goal__an_key *)pb;
    int c = goal__an_cmp_u64(a->size, b->size);
    if (!c) c = (a->src > b->src) - (a->src < b->src);
    if (!c) c = (a->sslot > b->sslot) - (a->sslot < b->sslot);
    if (!c) c = goal__an_cmp_u64(a->soff, b->soff);
    if (!c) c = (a->owner > b->owner) - (a->owner < b->owner);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}
/* by size, owner, source rank */
static int goal__an_by_owner(const void *pa, const void *pb) {
    const goal__an_key *a = (const goal__an_key *)pa, *b = (const goal__an_key *)pb;
    int c = goal__an_cmp_u64(a->size, b->size);
    if (!c) c = (a->owner > b->owner) - (a->owner < b->owner);
    if (!c) c = (a->src > b->src) - (a->src < b->src);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

typedef struct goal__det {
    goal_analyze_result *res;
    const goal_allocator *a;
    int32_t p;
    goal__an_key *ks, *ko;        /* candidates by source and by owner */
    size_t nk;
    uint8_t *used;                /* per tuple */
    uint32_t *stamp, tick;        /* per rank: seen in the current count */
    uint32_t *head, *next, *loc, *match, *vis;   /* the bipartite matching (per rank / per key) */
    size_t *pick; size_t npick;   /* members of the collective being tried */
    size_t capf, capm;
} goal__det;

static goal_status goal__det_record(goal__det *d, goal_analyze_kind kind, int32_t root, uint64_t size, const size_t *idx, size_t n) {
    goal_analyze_result *res = d->res;
    goal_analyze_finding *f;
    size_t k;
    if (GOAL__RESERVE(d->a, res->findings, d->capf, res->nfindings + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (GOAL__RESERVE(d->a, res->members, d->capm, res->nmembers + n) != GOAL_OK) return GOAL_ERR_NOMEM;
    f = &res->findings[res->nfindings++];
    f->kind = kind; f->root = root; f->size = size; f->first = res->nmembers; f->count = n;
    for (k = 0; k < n; k++) { res->members[res->nmembers++] = idx[k]; d->used[idx[k]] = 1; }
    return GOAL_OK;
}
/* Distinct other ranks in keys [a, b) (field owner or src), unused tuples only. */
static size_t goal__det_distinct(goal__det *d, const goal__an_key *k, size_t a, size_t b, int by_owner, int32_t self) {
    size_t n = 0, i;
    d->tick++;
    for (i = a; i < b; i++) {
        int32_t r = by_owner ? k[i].owner : k[i].src;
        if (d->used[k[i].idx] || r == self || d->stamp[r] == d->tick) continue;
        d->stamp[r] = d->tick;
        n++;
    }
    return n;
}
/* One unused tuple for each other owner, all from one source place, from keys [a, b) of
   one source rank (sorted by place): appended to pick. 1 when found. */
static int goal__det_same(goal__det *d, size_t a, size_t b, int32_t src) {
    size_t run, e, i;
    for (run = a; run < b; run = e) {
        for (e = run; e < b && d->ks[e].sslot == d->ks[run].sslot && d->ks[e].soff == d->ks[run].soff; e++) {}
        if (goal__det_distinct(d, d->ks, run, e, 1, src) + 1 < (size_t)d->p) continue;
        d->tick++;
        for (i = run; i < e; i++) {
            int32_t o = d->ks[i].owner;
            if (d->used[d->ks[i].idx] || d->stamp[o] == d->tick) continue;
            d->stamp[o] = d->tick;
            d->pick[d->npick++] = d->ks[i].idx;
        }
        return 1;
    }
    return 0;
}
/* Kuhn's augmenting path from owner o: key positions in head/next lists, places in loc. */
static int goal__det_augment(goal__det *d, int32_t o) {
    uint32_t k;
    for (k = d->head[o]; k != GOAL__NONE; k = d->next[k]) {
        uint32_t l = d->loc[k];
        if (d->vis[l] == d->tick) continue;
        d->vis[l] = d->tick;
        if (d->match[l] == GOAL__NONE || goal__det_augment(d, d->ks[d->match[l]].owner)) { d->match[l] = k; return 1; }
    }
    return 0;
}
/* One unused tuple for each other owner, all from different source places (a bipartite
   matching of owners to places), from keys [a, b) of source rank src. 1 when found. */
static int goal__det_distinct_places(goal__det *d, size_t a, size_t b, int32_t src) {
    size_t i;
    uint32_t nloc = 0;
    int32_t o;
    for (o = 0; o < d->p; o++) d->head[o] = GOAL__NONE;
    for (i = a; i < b; i++) {
        if (i > a && (d->ks[i].sslot != d->ks[i - 1].sslot || d->ks[i].soff != d->ks[i - 1].soff)) nloc++;
        d->loc[i] = nloc;
        if (d->used[d->ks[i].idx] || d->ks[i].owner == src) continue;
        d->next[i] = d->head[d->ks[i].owner];
        d->head[d->ks[i].owner] = (uint32_t)i;
    }
    for (i = 0; i <= nloc; i++) { d->match[i] = GOAL__NONE; d->vis[i] = 0; }
    for (o = 0; o < d->p; o++) {
        if (o == src) continue;
        d->tick++;
        if (d->head[o] == GOAL__NONE || !goal__det_augment(d, o)) return 0;
    }
    for (i = 0; i <= nloc; i++) if (d->match[i] != GOAL__NONE) d->pick[d->npick++] = d->ks[d->match[i]].idx;
    return 1;
}
/* allgather or alltoall over keys [g0, g1) of one size: every rank reaches all others. */
static goal_status goal__det_all(goal__det *d, size_t g0, size_t g1, int *found) {
    size_t a, b, unused = 0, i;
    int pass;
    for (i = g0; i < g1; i++) unused += !d->used[d->ks[i].idx];
    *found = 0;
    if (unused < (size_t)d->p * (size_t)(d->p - 1)) return GOAL_OK;
    for (pass = 0; pass < 2 && !*found; pass++) {     /* 0: the same bytes to all, 1: different */
        int ok = 1;
        d->npick = 0;
        for (a = g0; a < g1 && ok; a = b) {
            for (b = a; b < g1 && d->ks[b].src == d->ks[a].src; b++) {}
            ok = pass == 0 ? goal__det_same(d, a, b, d->ks[a].src) : goal__det_distinct_places(d, a, b, d->ks[a].src);
        }
        if (ok && d->npick == (size_t)d->p * (size_t)(d->p - 1)) *found = 1;
        if (*found) return goal__det_record(d, pass ? GOAL_ANALYZE_ALLTOALL : GOAL_ANALYZE_ALLGATHER, -1, d->ks[g0].size, d->pick, d->npick);
    }
    return GOAL_OK;
}
/* bcast or scatter from each root over keys [g0, g1). */
static goal_status goal__det_roots(goal__det *d, size_t g0, size_t g1, int *found) {
    size_t a, b;
    goal_status st = GOAL_OK;
    for (a = g0; a < g1 && st == GOAL_OK; a = b) {
        int32_t r = d->ks[a].src;
        int kind = -1;
        for (b = a; b < g1 && d->ks[b].src == r; b++) {}
        if (goal__det_distinct(d, d->ks, a, b, 1, r) + 1 < (size_t)d->p) continue;
        d->npick = 0;
        if (goal__det_same(d, a, b, r)) kind = GOAL_ANALYZE_BCAST;
        else if ((d->npick = 0, goal__det_distinct_places(d, a, b, r))) kind = GOAL_ANALYZE_SCATTER;
        if (kind < 0) continue;
        st = goal__det_record(d, (goal_analyze_kind)kind, r, d->ks[a].size, d->pick, d->npick);
        *found = 1;
    }
    return st;
}
/* gather to each root over the owner-sorted keys [g0, g1). */
static goal_status goal__det_gathers(goal__det *d, size_t g0, size_t g1, int *found) {
    size_t a, b, i;
    goal_status st = GOAL_OK;
    for (a = g0; a < g1 && st == GOAL_OK; a = b) {
        int32_t r = d->ko[a].owner;
        for (b = a; b < g1 && d->ko[b].owner == r; b++) {}
        if (goal__det_distinct(d, d->ko, a, b, 0, r) + 1 < (size_t)d->p) continue;
        d->npick = 0;
        d->tick++;
        for (i = a; i < b; i++) {
            int32_t s = d->ko[i].src;
            if (d->used[d->ko[i].idx] || d->stamp[s] == d->tick) continue;
            d->stamp[s] = d->tick;
            d->pick[d->npick++] = d->ko[i].idx;
        }
        st = goal__det_record(d, GOAL_ANALYZE_GATHER, r, d->ko[a].size, d->pick, d->npick);
        *found = 1;
    }
    return st;
}
/* Every size group, most abstract first, until nothing more is found in it. */
static goal_status goal__det_groups(goal__det *d) {
    size_t g0, g1;
    goal_status st = GOAL_OK;
    for (g0 = 0; g0 < d->nk && st == GOAL_OK; g0 = g1) {
        int found = 1, f;
        for (g1 = g0; g1 < d->nk && d->ks[g1].size == d->ks[g0].size; g1++) {}
        while (found && st == GOAL_OK) {
            found = 0;
            st = goal__det_all(d, g0, g1, &f);
            found |= f;
            if (st == GOAL_OK && !found) st = goal__det_roots(d, g0, g1, &found);
            if (st == GOAL_OK && !found) st = goal__det_gathers(d, g0, g1, &found);
        }
    }
    return st;
}
/* The rest: one p2p finding per tuple that moved data between ranks or was reduced. */
static goal_status goal__det_rest(goal__det *d) {
    size_t k;
    goal_status st = GOAL_OK;
    for (k = 0; k < d->res->ntuples && st == GOAL_OK; k++) {
        const goal_analyze_tuple *t = &d->res->tuples[k];
        if (d->used[k] || (t->src == t->owner && t->mix == GOAL_ANALYZE_NONE)) continue;
        st = goal__det_record(d, GOAL_ANALYZE_P2P, -1, t->size, &k, 1);
    }
    return st;
}
static goal_status goal__det_init(goal__det *d, goal_analyze_result *res, const goal_allocator *a) {
    size_t k, nt = res->ntuples, p = (size_t)res->nranks;
    memset(d, 0, sizeof *d);
    d->res = res; d->a = a; d->p = res->nranks;
    d->ks = (goal__an_key *)goal__new(a, nt, sizeof(goal__an_key));
    d->ko = (goal__an_key *)goal__new(a, nt, sizeof(goal__an_key));
    d->used = (uint8_t *)goal__new(a, nt, 1);
    d->stamp = (uint32_t *)goal__new(a, p, sizeof(uint32_t));
    d->head = (uint32_t *)goal__new(a, p, sizeof(uint32_t));
    d->next = (uint32_t *)goal__new(a, 4 * nt, sizeof(uint32_t));
    d->pick = (size_t *)goal__new(a, nt, sizeof(size_t));
    if (!d->ks || !d->ko || !d->used || !d->stamp || !d->head || !d->next || !d->pick) return GOAL_ERR_NOMEM;
    d->loc = d->next + nt; d->match = d->loc + nt; d->vis = d->match + nt;
    memset(d->used, 0, nt);
    memset(d->stamp, 0, p * sizeof(uint32_t));
    for (k = 0; k < nt; k++) {
        const goal_analyze_tuple *t = &res->tuples[k];
        goal__an_key *y = &d->ks[d->nk];
        if (t->src == t->owner || t->mix != GOAL_ANALYZE_NONE) continue;
        y->size = t->size; y->soff = t->src_offset; y->src = t->src; y->owner = t->owner; y->sslot = t->src_slot; y->idx = (uint32_t)k;
        d->nk++;
    }
    memcpy(d->ko, d->ks, d->nk * sizeof(goal__an_key));
    qsort(d->ks, d->nk, sizeof(goal__an_key), goal__an_by_src);
    qsort(d->ko, d->nk, sizeof(goal__an_key), goal__an_by_owner);
    return GOAL_OK;
}
static void goal__det_free(goal__det *d) {
    goal__free(d->a, d->ks); goal__free(d->a, d->ko); goal__free(d->a, d->used); goal__free(d->a, d->stamp);
    goal__free(d->a, d->head); goal__free(d->a, d->next); goal__free(d->a, d->pick);
}
/* Collectives, then barrier (complete wait sets not implied by an all-to-all), then p2p. */
static goal_status goal__an_detect(goal__an *an, goal_analyze_result *res) {
    goal__det d;
    goal_status st = goal__det_init(&d, res, &an->x.a);
    size_t k;
    int implied = 0;
    if (st == GOAL_OK && res->nranks >= 2) st = goal__det_groups(&d);
    for (k = 0; k < res->nfindings; k++)
        implied |= res->findings[k].kind == GOAL_ANALYZE_ALLGATHER || res->findings[k].kind == GOAL_ANALYZE_ALLTOALL;
    if (st == GOAL_OK && res->nranks >= 2 && !implied) {
        st = goal__an_waits(&an->x, an->peer, NULL);
        if (st == GOAL_OK) st = goal__det_record(&d, GOAL_ANALYZE_BARRIER, -1, 0, NULL, 0);
        else if (st == GOAL_PENDING) st = GOAL_OK;
    }
    if (st == GOAL_OK) st = goal__det_rest(&d);
    goal__det_free(&d);
    return st;
}
/* ---- >>> analyze: the calls ------------------------------------------------------------------ */
static void goal__an_free(goal__an *an) {
    const goal_allocator *a = &an->x.a;
    int32_t r;
    for (r = 0; an->mem && r < an->x.p; r++) goal__free(a, an->mem[r].s);
    goal__free(a, an->mem); goal__free(a, an->peer); goal__free(a, an->snap);
    goal__free(a, an->snap_at); goal__free(a, an->snap_n);
    goal__free(a, an->tmp); goal__free(a, an->tmp2); goal__free(a, an->tmp3); goal__free(a, an->mix);
    goal__simw_free(&an->x);
}
static goal_status goal__an_init(goal__an *an, goal_error *err) {
    const goal_allocator *a = &an->x.a;
    goal_status st;
    if (goal_world_dialect(an->x.w) == GOAL_DIALECT_LOGGOPSIM)
        return goal__fail(err, GOAL_ERR_ARG, -1, "LogGOPSim-dialect input carries no buffer offsets (only sizes): "
                             "dataflow and collective detection need them; wait sets and matching still work");
    if ((st = goal__an_match(&an->x, &an->peer, err)) != GOAL_OK) return st;
    an->mem = (goal__an_mem *)goal__new(a, (size_t)an->x.p, sizeof(goal__an_mem));
    an->snap_at = (size_t *)goal__new(a, an->x.n, sizeof(size_t));
    an->snap_n = (uint32_t *)goal__new(a, an->x.n, sizeof(uint32_t));
    if (an->mem) memset(an->mem, 0, (size_t)an->x.p * sizeof(goal__an_mem));   /* freed entry by entry */
    if (!an->mem || !an->snap_at || !an->snap_n) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    memset(an->snap_n, 0, (size_t)an->x.n * sizeof(uint32_t));
    return GOAL_OK;
}

goal_status goal_analyze(const goal_world *w, const goal_analyze_desc *desc, goal_analyze_result *out, goal_error *err) {
    goal__an an;
    goal_analyze_desc d;
    goal_status st;
    if (!out) return goal__fail(err, GOAL_ERR_ARG, -1, "no result");
    memset(out, 0, sizeof *out);
    memset(&an, 0, sizeof an);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    st = goal__simw_init(&an.x, w, &d.alloc);
    out->alloc_ = an.x.a;
    out->nranks = an.x.p;
    if (st != GOAL_OK) goal__fail(err, st, -1, "%s", goal_strerror(st));
    if (st == GOAL_OK) st = goal__an_init(&an, err);
    if (st == GOAL_OK && (st = goal__an_propagate(&an)) != GOAL_OK) goal__fail(err, st, -1, "dataflow: %s", goal_strerror(st));
    if (st == GOAL_OK && (st = goal__an_sst(&an, out)) != GOAL_OK) goal__fail(err, st, -1, "%s", goal_strerror(st));
    if (st == GOAL_OK && !d.no_collectives && (st = goal__an_detect(&an, out)) != GOAL_OK) goal__fail(err, st, -1, "detection: %s", goal_strerror(st));
    if (st == GOAL_OK) { out->mix_ = an.mix; out->nmix_ = an.nmix; an.mix = NULL; }
    goal__an_free(&an);
    if (st != GOAL_OK) goal_analyze_free(out);
    return st;
}
void goal_analyze_free(goal_analyze_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__allocator(&r->alloc_);
    goal__free(&a, r->tuples); goal__free(&a, r->findings); goal__free(&a, r->members); goal__free(&a, r->mix_);
    memset(r, 0, sizeof *r);
}

/* Depth-first over the combination records; shift accumulates the slicing. */
static size_t goal__an_leaves(const goal__an_mix *mix, goal__an_org o, uint64_t shift, goal_analyze_source *out, size_t n, size_t max) {
    if (n >= max) return n;
    if (o.mix == GOAL_ANALYZE_NONE) {
        out[n].rank = o.rank; out[n].slot = o.slot; out[n].offset = o.off + shift;
        return n + 1;
    }
    n = goal__an_leaves(mix, mix[o.mix].a, shift + o.off, out, n, max);
    return goal__an_leaves(mix, mix[o.mix].b, shift + o.off, out, n, max);
}
size_t goal_analyze_sources(const goal_analyze_result *r, const goal_analyze_tuple *t, goal_analyze_source *out, size_t max) {
    goal__an_org o;
    if (!r || !t || !out) return 0;
    o.rank = t->src; o.slot = t->src_slot; o.off = t->src_offset; o.mix = t->mix;
    if (o.mix != GOAL_ANALYZE_NONE && o.mix >= r->nmix_) return 0;
    return goal__an_leaves((const goal__an_mix *)r->mix_, o, 0, out, 0, max);
}
/* The collective of goal_algos.h's table that a finding of kind k is (not p2p). */
static goal_coll goal__an_coll(goal_analyze_kind k) {
    static const goal_coll colls[] = {GOAL_COLL_BCAST, GOAL_COLL_GATHER, GOAL_COLL_SCATTER, GOAL_COLL_ALLGATHER,
                                      GOAL_COLL_ALLTOALL, GOAL_COLL_BARRIER};
    return colls[k < GOAL_ANALYZE_P2P ? k : GOAL_ANALYZE_BARRIER];
}
const char *goal_analyze_kind_name(goal_analyze_kind k) {
    if ((unsigned)k < (unsigned)GOAL_ANALYZE_P2P) return goal_coll_get(goal__an_coll(k))->name;
    return k == GOAL_ANALYZE_P2P ? "p2p" : "unknown";
}
/* "OFFSET", or "SLOT:OFFSET" / "scratch:OFFSET" outside slot 0 (the paper dialect's forms). */
static void goal__an_place(char *buf, size_t len, uint32_t slot, uint64_t off) {
    if (slot == 0) snprintf(buf, len, "%llu", (unsigned long long)off);
    else if (slot == GOAL_SLOT_SCRATCH) snprintf(buf, len, "scratch:%llu", (unsigned long long)off);
    else snprintf(buf, len, "%lu:%llu", (unsigned long)slot, (unsigned long long)off);
}
const char *goal_analyze_tuple_text(const goal_analyze_tuple *t, char *buf, size_t len) {
    char a[40], b[40];
    if (!buf || !len) return buf;
    if (!t) { snprintf(buf, len, "()"); return buf; }
    goal__an_place(a, sizeof a, t->slot, t->offset);
    goal__an_place(b, sizeof b, t->src_slot, t->src_offset);
    snprintf(buf, len, "(%ld,%s,%llu,%ld,%s)%s", (long)t->owner, a, (unsigned long long)t->size, (long)t->src, b,
             t->mix != GOAL_ANALYZE_NONE ? " reduced" : "");
    return buf;
}

/* ---- >>> analyze: replacement ---------------------------------------------------------------- */
typedef struct goal__rep {
    const goal_analyze_result *r;
    goal_graph **g;                 /* one graph per rank */
    uint64_t *scratch;              /* per rank: scratch bytes used so far */
    uint8_t *done;                  /* per tuple: rebuilt by a piece already */
    goal_buf *in, *out;             /* per rank: the buffers handed to the generator */
    uint8_t *known;                 /* per rank, while fitting a layout: 1 IN placed, 2 OUT placed */
    size_t *own;                    /* per rank, while fitting: the local tuple of its own block, or ntuples */
    goal_allocator a;
    goal_error *err;
} goal__rep;

/* Why w cannot be rebuilt from its SST (GOAL_OK when it can): computation, or a rank whose
   destinations overlap what it sends (the rebuilt pieces run unordered). */
static goal_status goal__rep_computes(const goal_world *w, goal_error *err) {
    int32_t r;
    for (r = 0; r < goal_world_nranks(w); r++) {
        goal_schedule s;
        uint32_t i;
        if (goal_world_schedule(w, r, &s) != GOAL_OK) continue;
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal_schedule_action(&s, i, &a);
            if (a.kind == GOAL_CALC || (a.kind == GOAL_EXEC && a.op != GOAL_OP_COPY))
                return goal__fail(err, GOAL_ERR_ARG, -1, "rank %ld action %lu computes (%s): only data movement can be rebuilt",
                                     (long)r, (unsigned long)i, a.kind == GOAL_CALC ? "calc" : "exec");
        }
    }
    return GOAL_OK;
}
typedef struct goal__rep_iv { int32_t rank; uint32_t slot; uint64_t off, end; int dst; } goal__rep_iv;
static int goal__rep_iv_cmp(const void *pa, const void *pb) {
    const goal__rep_iv *a = (const goal__rep_iv *)pa, *b = (const goal__rep_iv *)pb;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
    return goal__an_cmp_u64(a->off, b->off);
}
static goal_status goal__rep_overlap(goal__rep *q) {
    const goal_analyze_result *r = q->r;
    goal__rep_iv *iv = (goal__rep_iv *)goal__new(&q->a, 2 * r->ntuples, sizeof(goal__rep_iv));
    size_t k, n = 0;
    uint64_t end[2] = {0, 0};
    goal_status st = GOAL_OK;
    if (!iv) return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    for (k = 0; k < r->ntuples; k++) {
        const goal_analyze_tuple *t = &r->tuples[k];
        if (t->src == t->owner && t->src_slot == t->slot && t->src_offset == t->offset) continue;   /* stays as it is */
        iv[n].rank = t->owner; iv[n].slot = t->slot; iv[n].off = t->offset; iv[n].end = t->offset + t->size; iv[n++].dst = 1;
        iv[n].rank = t->src; iv[n].slot = t->src_slot; iv[n].off = t->src_offset; iv[n].end = t->src_offset + t->size; iv[n++].dst = 0;
    }
    qsort(iv, n, sizeof *iv, goal__rep_iv_cmp);
    for (k = 0; k < n && st == GOAL_OK; k++) {
        if (k == 0 || iv[k].rank != iv[k - 1].rank || iv[k].slot != iv[k - 1].slot) end[0] = end[1] = 0;
        if (iv[k].off < end[!iv[k].dst])
            st = goal__fail(q->err, GOAL_ERR_ARG, -1, "rank %ld: slot %lu offset %llu is both a source and a destination: "
                               "the rebuilt pieces would race", (long)iv[k].rank, (unsigned long)iv[k].slot, (unsigned long long)iv[k].off);
        if (iv[k].end > end[iv[k].dst]) end[iv[k].dst] = iv[k].end;
    }
    goal__free(&q->a, iv);
    return st;
}

static goal_buf goal__rep_dst(const goal_analyze_tuple *t) { return goal_buffer(t->slot, t->offset, t->size); }
static goal_buf goal__rep_src(const goal_analyze_tuple *t) { return goal_buffer(t->src_slot, t->src_offset, t->size); }
/* Appends rank r's part of algorithm `name` (tag, root, size bytes, OUT = out[r]) to its
   graph (IN = in[r]); its scratch goes after what earlier pieces used. */
static goal_status goal__rep_algo(goal__rep *q, int32_t r, const char *name, int tag, int32_t root, uint64_t size) {
    goal_algo_desc d;
    goal_algo_part part;
    int32_t id;
    memset(&d, 0, sizeof d);
    d.algo = name; d.root = root; d.count = size; d.dtype = GOAL_INT8; d.tag = tag; d.alloc = q->a;
    d.custom_slots = 1; d.in_slot = q->in[r].slot; d.out_slot = q->out[r].slot;
    d.in_offset = q->in[r].offset; d.out_offset = q->out[r].offset;
    d.scratch_offset = q->scratch[r];
    id = goal_algo_build(q->g[r], &d, NULL, 0, &part, q->err);
    if (id < 0) return (goal_status)id;
    q->scratch[r] = part.scratch_end;
    return GOAL_OK;
}
/* A bcast by the chosen algorithm: the root's OUT is the source, every other rank's OUT is
   its destination (offsets may differ between ranks: each rank's part is built alone). */
static goal_status goal__rep_bcast(goal__rep *q, const goal_analyze_finding *f, const char *name, int tag) {
    const goal_analyze_result *r = q->r;
    goal_status st = GOAL_OK;
    int32_t i;
    size_t k;
    for (k = 0; k < f->count; k++) {
        const goal_analyze_tuple *t = &r->tuples[r->members[f->first + k]];
        q->in[t->owner] = q->out[t->owner] = goal__rep_dst(t);
        q->in[f->root] = q->out[f->root] = goal__rep_src(t);
        q->done[r->members[f->first + k]] = 1;
    }
    for (i = 0; i < r->nranks && st == GOAL_OK; i++) st = goal__rep_algo(q, i, name, tag, f->root, f->size);
    return st;
}
/* Block layout (goal_algos.h BUFFERS, the table's blocks): whether IN holds p blocks by
   destination (scatter, alltoall) and OUT p blocks by source (gather, allgather, alltoall). */
static int goal__rep_in_blocks(goal_analyze_kind k) { return goal_coll_get(goal__an_coll(k))->in_blocks == GOAL_COLL_P; }
static int goal__rep_out_blocks(goal_analyze_kind k) { return goal_coll_get(goal__an_coll(k))->out_blocks == GOAL_COLL_P; }
/* Rank r's IN (which 0) or OUT (1) is at slot:off - back: set it, or check it is already
   there. 0 when it cannot be (before offset 0, or somewhere else). */
static int goal__rep_place(goal__rep *q, int32_t r, int which, uint32_t slot, uint64_t off, uint64_t back) {
    goal_buf *b = which ? &q->out[r] : &q->in[r];
    uint8_t bit = (uint8_t)(1u << which);
    if (off < back) return 0;
    if (q->known[r] & bit) return b->slot == slot && b->offset == off - back;
    *b = goal_buffer(slot, off - back, 0);
    q->known[r] |= bit;
    return 1;
}
/* Places every rank's IN and OUT from the finding's tuples: one tuple per pair of ranks
   (p - 1 rooted, else p(p - 1)), each at its block, consistently. */
static int goal__rep_fit_tuples(goal__rep *q, const goal_analyze_finding *f) {
    const goal_analyze_result *r = q->r;
    uint64_t p = (uint64_t)r->nranks;
    int ib = goal__rep_in_blocks(f->kind), ob = goal__rep_out_blocks(f->kind);
    size_t k;
    if (f->count != (f->root >= 0 ? p - 1 : p * (p - 1)) || (f->size && p > UINT64_MAX / f->size)) return 0;
    for (k = 0; k < f->count; k++) {
        const goal_analyze_tuple *t = &r->tuples[r->members[f->first + k]];
        uint64_t iback = ib ? (uint64_t)t->owner * f->size : 0, oback = ob ? (uint64_t)t->src * f->size : 0;
        if (f->root >= 0 && (f->kind == GOAL_ANALYZE_GATHER ? t->owner : t->src) != f->root) return 0;
        if (!goal__rep_place(q, t->src, 0, t->src_slot, t->src_offset, iback) || !goal__rep_place(q, t->owner, 1, t->slot, t->offset, oback))
            return 0;
    }
    return 1;
}
/* The first tuple of owner o (tuples are sorted by owner). */
static size_t goal__rep_first_of(const goal_analyze_result *r, int32_t o) {
    size_t lo = 0, hi = r->ntuples;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->tuples[mid].owner < o) lo = mid + 1; else hi = mid;
    }
    return lo;
}
/* Whether t moves data: a tuple from its own place (sent away and back) stays as it is. */
static int goal__rep_moves(const goal_analyze_tuple *t) {
    return t->src != t->owner || t->src_slot != t->slot || t->src_offset != t->offset;
}
/* A tuple of rank o that is not yet rebuilt and that copies o's own block: from IN's block
   iback to OUT's block oback, where those are placed. ntuples when there is none. */
static size_t goal__rep_local(goal__rep *q, int32_t o, uint64_t n, uint64_t iback, uint64_t oback) {
    const goal_analyze_result *r = q->r;
    size_t k;
    for (k = goal__rep_first_of(r, o); k < r->ntuples && r->tuples[k].owner == o; k++) {
        const goal_analyze_tuple *t = &r->tuples[k];
        if (q->done[k] || t->src != o || t->size != n || t->mix != GOAL_ANALYZE_NONE) continue;
        if ((q->known[o] & 1) && (t->src_slot != q->in[o].slot || t->src_offset != q->in[o].offset + iback)) continue;
        if ((q->known[o] & 2) && (t->slot != q->out[o].slot || t->offset != q->out[o].offset + oback)) continue;
        return k;
    }
    return r->ntuples;
}
/* Whether a tuple of rank o writes into slot:[off, off + n). */
static int goal__rep_written(const goal__rep *q, int32_t o, uint32_t slot, uint64_t off, uint64_t n) {
    const goal_analyze_result *r = q->r;
    size_t k;
    for (k = goal__rep_first_of(r, o); k < r->ntuples && r->tuples[k].owner == o; k++) {
        const goal_analyze_tuple *t = &r->tuples[k];
        if (goal__rep_moves(t) && t->slot == slot && t->offset < off + n && off < t->offset + t->size) return 1;
    }
    return 0;
}
/* Rank o's own block: copied from IN to OUT by a local tuple (taken along, own[o]), or in
   place, where the generator's copy of it onto itself changes nothing. */
static int goal__rep_fit_own(goal__rep *q, const goal_analyze_finding *f, int32_t o) {
    uint64_t n = f->size, iback = goal__rep_in_blocks(f->kind) ? (uint64_t)o * n : 0;
    uint64_t oback = goal__rep_out_blocks(f->kind) ? (uint64_t)o * n : 0;
    size_t k = goal__rep_local(q, o, n, iback, oback);
    int ok;
    q->own[o] = k;
    if (k < q->r->ntuples) {
        const goal_analyze_tuple *t = &q->r->tuples[k];
        return goal__rep_place(q, o, 0, t->src_slot, t->src_offset, iback) && goal__rep_place(q, o, 1, t->slot, t->offset, oback);
    }
    if (q->known[o] & 2) ok = goal__rep_place(q, o, 0, q->out[o].slot, q->out[o].offset + oback, iback);
    else ok = goal__rep_place(q, o, 1, q->in[o].slot, q->in[o].offset + iback, oback);
    return ok && !goal__rep_written(q, o, q->out[o].slot, q->out[o].offset + oback, n);
}
/* Whether finding f is in the block layout; places in[] and out[] and own[] if so. */
static int goal__rep_fit(goal__rep *q, const goal_analyze_finding *f) {
    int32_t i;
    memset(q->known, 0, (size_t)q->r->nranks);
    for (i = 0; i < q->r->nranks; i++) q->own[i] = q->r->ntuples;
    if (!goal__rep_fit_tuples(q, f)) return 0;
    if (f->root >= 0) return goal__rep_fit_own(q, f, f->root);
    for (i = 0; i < q->r->nranks; i++)
        if (!goal__rep_fit_own(q, f, i)) return 0;
    return 1;
}
/* A fitted gather, scatter, allgather or alltoall by the chosen algorithm; a buffer a rank
   does not use (a gather's OUT off the root, a scatter's IN) is put over the other one. */
static goal_status goal__rep_blocks(goal__rep *q, const goal_analyze_finding *f, const char *name, int tag) {
    const goal_analyze_result *r = q->r;
    goal_status st = GOAL_OK;
    int32_t i;
    size_t k;
    for (k = 0; k < f->count; k++) q->done[r->members[f->first + k]] = 1;
    for (i = 0; i < r->nranks && st == GOAL_OK; i++) {
        if (q->own[i] < r->ntuples) q->done[q->own[i]] = 1;
        if (!(q->known[i] & 1)) q->in[i] = q->out[i];
        if (!(q->known[i] & 2)) q->out[i] = q->in[i];
        st = goal__rep_algo(q, i, name, tag, f->root < 0 ? 0 : f->root, f->size);
    }
    return st;
}
/* The tuples no algorithm rebuilt: a direct message (tag) or a local copy each. */
static goal_status goal__rep_direct(goal__rep *q, int tag) {
    const goal_analyze_result *r = q->r;
    size_t k;
    for (k = 0; k < r->ntuples; k++) {
        const goal_analyze_tuple *t = &r->tuples[k];
        int32_t id;
        if (q->done[k] || !goal__rep_moves(t)) continue;
        if (t->src == t->owner) id = goal_graph_exec(q->g[t->owner], GOAL_OP_COPY, GOAL_UINT8, goal__rep_dst(t), goal__rep_src(t));
        else if ((id = goal_graph_send(q->g[t->src], goal__rep_src(t), t->owner, tag)) >= 0)
            id = goal_graph_recv(q->g[t->owner], goal__rep_dst(t), t->src, tag);
        if (id < 0) return goal__fail(q->err, (goal_status)id, -1, "rebuilding: %s", goal_strerror(id));
    }
    return GOAL_OK;
}
static const char *goal__rep_name(const char *given, const char *dflt) { return given && *given ? given : dflt; }
/* The algorithm for a finding of kind k (not p2p). */
static const char *goal__rep_algo_of(const goal_analyze_replace_desc *d, goal_analyze_kind k) {
    switch (k) {
    case GOAL_ANALYZE_BCAST: return goal__rep_name(d->bcast, "bcast_binomial");
    case GOAL_ANALYZE_GATHER: return goal__rep_name(d->gather, "gather_binomial");
    case GOAL_ANALYZE_SCATTER: return goal__rep_name(d->scatter, "scatter_binomial");
    case GOAL_ANALYZE_ALLGATHER: return goal__rep_name(d->allgather, "allgather_bruck");
    case GOAL_ANALYZE_ALLTOALL: return goal__rep_name(d->alltoall, "alltoall_bruck");
    default: return goal__rep_name(d->barrier, "barrier_dissemination");
    }
}
/* Another collective's algorithm would build a world of other semantics. */
static goal_status goal__rep_check_kind(goal__rep *q, goal_analyze_kind k, const char *name) {
    if (goal_algo_coll(name) == (int)goal__an_coll(k)) return GOAL_OK;
    return goal__fail(q->err, GOAL_ERR_ARG, -1, "replace: %s is not an algorithm for %s", name, goal_analyze_kind_name(k));
}
/* Finding f by its algorithm (tag); *used = that name unless direct messages remain. */
static goal_status goal__rep_finding(goal__rep *q, const goal_analyze_finding *f, const goal_analyze_replace_desc *d, int tag,
                                     const char **used) {
    const char *name = goal__rep_algo_of(d, f->kind);
    goal_status st = goal__rep_check_kind(q, f->kind, name);
    goal_analyze_finding as_alltoall = *f;
    int32_t i;
    if (st != GOAL_OK) return st;
    *used = name;
    if (f->kind == GOAL_ANALYZE_BCAST) return goal__rep_bcast(q, f, name, tag);
    if (f->kind != GOAL_ANALYZE_BARRIER) {
        if (goal__rep_fit(q, f)) return goal__rep_blocks(q, f, name, tag);
        *used = NULL;
        if (f->kind != GOAL_ANALYZE_ALLGATHER || q->r->nranks != 2) return GOAL_OK;
        as_alltoall.kind = GOAL_ANALYZE_ALLTOALL;   /* p = 2: an alltoall is found as an allgather */
        return goal__rep_finding(q, &as_alltoall, d, tag, used);
    }
    for (i = 0; i < q->r->nranks && st == GOAL_OK; i++) {
        q->in[i] = q->out[i] = goal_buffer(0, 0, 0);
        st = goal__rep_algo(q, i, name, tag, 0, 0);
    }
    return st;
}
/* Every finding in order, each with its own tag (1, 2, ...), then the direct rest. */
static goal_status goal__rep_build(goal__rep *q, const goal_analyze_replace_desc *d) {
    const goal_analyze_result *r = q->r;
    goal_status st = GOAL_OK;
    size_t k;
    for (k = 0; k < r->nfindings && st == GOAL_OK; k++) {
        const char *used = NULL;
        if (r->findings[k].kind != GOAL_ANALYZE_P2P) st = goal__rep_finding(q, &r->findings[k], d, (int)k + 1, &used);
        if (d->chosen) d->chosen[k] = used;
    }
    return st == GOAL_OK ? goal__rep_direct(q, (int)r->nfindings + 1) : st;
}
static goal_status goal__rep_world(goal__rep *q, goal_world **out) {
    goal_world_desc wd;
    goal_status st;
    int32_t i;
    memset(&wd, 0, sizeof wd);
    wd.nranks = q->r->nranks; wd.alloc = q->a;
    st = goal_world_create(out, &wd, q->err);
    for (i = 0; st == GOAL_OK && i < q->r->nranks; i++) st = goal_world_add_graph(*out, q->g[i], q->err);
    if (st != GOAL_OK && *out) { goal_world_destroy(*out); *out = NULL; }
    return st;
}
static void goal__rep_free(goal__rep *q) {
    int32_t i;
    for (i = 0; q->g && i < q->r->nranks; i++) goal_graph_destroy(q->g[i]);
    goal__free(&q->a, (void *)q->g); goal__free(&q->a, q->scratch); goal__free(&q->a, q->done);
    goal__free(&q->a, q->in); goal__free(&q->a, q->out); goal__free(&q->a, q->known); goal__free(&q->a, q->own);
}
static goal_status goal__rep_init(goal__rep *q) {
    int32_t p = q->r->nranks, i;
    goal_status st = GOAL_OK;
    q->g = (goal_graph **)goal__new(&q->a, (size_t)p, sizeof(goal_graph *));
    if (q->g) memset((void *)q->g, 0, (size_t)p * sizeof(goal_graph *));   /* freed graph by graph, also when what follows fails */
    q->scratch = (uint64_t *)goal__new(&q->a, (size_t)p, sizeof(uint64_t));
    q->done = (uint8_t *)goal__new(&q->a, q->r->ntuples, 1);
    q->in = (goal_buf *)goal__new(&q->a, (size_t)p, sizeof(goal_buf));
    q->out = (goal_buf *)goal__new(&q->a, (size_t)p, sizeof(goal_buf));
    q->known = (uint8_t *)goal__new(&q->a, (size_t)p, 1);
    q->own = (size_t *)goal__new(&q->a, (size_t)p, sizeof(size_t));
    if (!q->g || !q->scratch || !q->done || !q->in || !q->out || !q->known || !q->own) return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    memset(q->scratch, 0, (size_t)p * sizeof(uint64_t));
    memset(q->done, 0, q->r->ntuples);
    for (i = 0; i < p && st == GOAL_OK; i++) {
        goal_graph_desc gd;
        memset(&gd, 0, sizeof gd);
        gd.rank = i; gd.nranks = p; gd.alloc = q->a;
        if ((st = goal_graph_create(&q->g[i], &gd, NULL)) != GOAL_OK) goal__fail(q->err, st, -1, "out of memory");
    }
    return st;
}

goal_status goal_analyze_replace(const goal_world *w, const goal_analyze_result *r, const goal_analyze_replace_desc *desc,
                                 goal_world **out, goal_error *err) {
    goal__rep q;
    goal_analyze_replace_desc d;
    goal_status st;
    if (!w || !r || !out || r->nranks != goal_world_nranks(w)) return goal__fail(err, GOAL_ERR_ARG, -1, "replace: needs the world and its analysis");
    *out = NULL;
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    memset(&q, 0, sizeof q);
    q.r = r; q.a = goal__allocator(&d.alloc); q.err = err;
    st = goal__rep_computes(w, err);
    if (st == GOAL_OK) st = goal__rep_overlap(&q);
    if (st == GOAL_OK) st = goal__rep_init(&q);
    if (st == GOAL_OK) st = goal__rep_build(&q, &d);
    if (st == GOAL_OK) st = goal__rep_world(&q, out);
    goal__rep_free(&q);
    return st;
}

/* ---- >>> analyze: re-planning a recording ------------------------------------------------------ */
/* A recording names its calls as goal_coll_call does; the collective table of goal_algos.h
   has rows for the first 16 (goal__rp_row), the rest are recorded as their anchors only, no
   algorithm to re-plan them with. */
const char *goal_analyze_coll_name(int k) { return goal_coll_call(k); }
/* The table row whose MPI call ("MPI_Reduce_scatter_block") recorded call k is, or -1. */
static int goal__rp_row(int k) { return goal_coll_find_call(goal_coll_call(k)); }
const char *goal_analyze_coll_algo(const char *coll, const char *name) {
    const goal_algo_info *a;
    char full[96];
    int k = goal_coll_call_find(coll), row = k < 0 ? -1 : goal__rp_row(k);
    if (row < 0 || !name) return NULL;
    if ((a = goal_algo_find(name)) == NULL) {
        if ((size_t)snprintf(full, sizeof full, "%s_%s", goal_coll_get(row)->name, name) >= sizeof full) return NULL;
        a = goal_algo_find(full);
    }
    return a && (int)a->coll == row ? a->name : NULL;
}

typedef struct goal__rp_anchor {   /* one member's anchors of one recorded call */
    uint32_t plan, comm, num;      /* the plan, C, N */
    int32_t rank, root, index;     /* world rank, R, I */
    uint64_t bytes;                /* B */
    uint32_t start, end;           /* global action ids (goal__simw) */
    uint32_t call;                 /* the call's number (its tag), set when grouped */
    size_t first;                  /* the call's members: anchors[first .. first + size) by I */
    int32_t size;
    int32_t done;                  /* the new part's last action, while its rank is rebuilt */
} goal__rp_anchor;
typedef struct goal__rp {
    goal_analyze_replan_desc *d;
    goal__simw x;
    goal__an_preds pr;             /* dependencies only */
    goal__rp_anchor *starts, *ends;
    size_t nstarts, nends, cap[2];
    uint32_t *inside;              /* per action: 0, or 1 + the start anchor whose call it is in */
    uint32_t *at;                  /* per action: 0, or 1 + the start anchor it is */
    uint32_t *stack;
    int32_t tag0;                  /* the first tag the recording does not use */
    goal_graph *part;              /* a call's part, as its member builds it */
    goal_allocator a;
    goal_error *err;
} goal__rp;

static void goal__rp_callname(const goal__rp *q, const goal__rp_anchor *c, char *buf, size_t len) {
    snprintf(buf, len, "%s_c%lu_n%lu", q->d->plans[c->plan].coll, (unsigned long)c->comm, (unsigned long)c->num);
}
static goal_status goal__rp_fail(goal__rp *q, const goal__rp_anchor *c, const char *why) {
    char name[GOAL_LABEL_MAX];
    goal__rp_callname(q, c, name, sizeof name);
    return goal__fail(q->err, GOAL_ERR_ARG, c->rank, "replan: rank %ld: %s: %s", (long)c->rank, name, why);
}
/* The plans: known collectives, each once, each with an algorithm of its own. */
static goal_status goal__rp_plans(goal__rp *q) {
    size_t i, j;
    for (i = 0; i < q->d->nplans; i++) {
        goal_analyze_plan *pl = &q->d->plans[i];
        int k = goal_coll_call_find(pl->coll);
        pl->calls = 0;
        if (k < 0) return goal__fail(q->err, GOAL_ERR_ARG, -1, "replan: unknown collective '%s'", pl->coll ? pl->coll : "");
        for (j = 0; j < i; j++)
            if (strcmp(q->d->plans[j].coll, pl->coll) == 0) return goal__fail(q->err, GOAL_ERR_ARG, -1, "replan: %s is planned twice", pl->coll);
        if (!(pl->used = goal_analyze_coll_algo(pl->coll, pl->algo)))
            return goal__fail(q->err, GOAL_ERR_ARG, -1, "replan: %s: '%s' is %s", pl->coll, pl->algo ? pl->algo : "",
                              pl->algo && goal_algo_find(pl->algo) ? "an algorithm of another collective" : "no algorithm of it");
    }
    return GOAL_OK;
}

/* An anchor label (after its collective's name, at s): 1 start, 2 end, 0 none, -1 malformed
   (it starts as an anchor, "_c" and a digit, but does not parse). R = -1 is also written
   "m1", since the text dialect's labels are identifiers. */
static int goal__rp_parse(const char *s, goal__rp_anchor *c) {
    unsigned long cm, nm;
    unsigned long long b;
    long r, i;
    int n = -1, minus;
    if (s[0] != '_' || s[1] != 'c' || s[2] < '0' || s[2] > '9') return 0;
    if (sscanf(s, "_c%lu_n%lu_end%n", &cm, &nm, &n) == 2 && n > 0 && !s[n]) {
        c->comm = (uint32_t)cm; c->num = (uint32_t)nm;
        return 2;
    }
    n = -1;
    if (sscanf(s, "_c%lu_n%lu_b%llu_r%n", &cm, &nm, &b, &n) != 3 || n <= 0) return -1;
    minus = s[n] == 'm';
    s += n + minus;
    n = -1;
    if (sscanf(s, "%ld_i%ld%n", &r, &i, &n) != 2 || n <= 0 || s[n] || (minus && r < 0)) return -1;
    if (minus) r = -r;
    if (r < -1 || i < 0 || cm > 0xFFFFFFFFul || nm > 0xFFFFFFFFul || i > 0x7FFFFFFFl || r > 0x7FFFFFFFl) return -1;
    c->comm = (uint32_t)cm; c->num = (uint32_t)nm; c->bytes = b; c->root = (int32_t)r; c->index = (int32_t)i;
    return 1;
}
static goal_status goal__rp_push(goal__rp *q, int which, const goal__rp_anchor *c) {
    goal__rp_anchor **arr = which == 1 ? &q->starts : &q->ends;
    size_t *n = which == 1 ? &q->nstarts : &q->nends;
    if (GOAL__RESERVE(&q->a, *arr, q->cap[which - 1], *n + 1) != GOAL_OK) return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    (*arr)[(*n)++] = *c;
    return GOAL_OK;
}
/* The anchor action i of rank r may be (a labelled nop), into starts or ends. */
static goal_status goal__rp_anchor_at(goal__rp *q, const goal_schedule *s, int32_t r, uint32_t i) {
    char buf[GOAL_LABEL_MAX];
    const char *l = goal_schedule_label(s, i, buf);
    size_t k, n;
    goal__rp_anchor c;
    for (k = 0; k < q->d->nplans; k++) {
        int kind;
        n = strlen(q->d->plans[k].coll);
        if (strncmp(l, q->d->plans[k].coll, n) != 0) continue;
        memset(&c, 0, sizeof c);
        c.plan = (uint32_t)k; c.rank = r; c.start = c.end = q->x.base[r] + i;
        if ((kind = goal__rp_parse(l + n, &c)) < 0)
            return goal__fail(q->err, GOAL_ERR_ARG, r, "replan: rank %ld action %lu: malformed anchor '%s'", (long)r, (unsigned long)i, l);
        if (kind) return goal__rp_push(q, kind, &c);
    }
    return GOAL_OK;
}
/* Every anchor of a planned collective, and the first free tag. */
static goal_status goal__rp_scan(goal__rp *q) {
    goal_status st = GOAL_OK;
    int32_t r, top = -1;
    for (r = 0; r < q->x.p && st == GOAL_OK; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_full(&q->x, r, &s);
        for (i = 0; i < s.nactions && st == GOAL_OK; i++) {
            goal_action a;
            goal_schedule_action(&s, i, &a);
            if ((a.kind == GOAL_SEND || a.kind == GOAL_RECV) && a.tag > top) top = a.tag;
            if (a.kind == GOAL_NOP) st = goal__rp_anchor_at(q, &s, r, i);
        }
    }
    q->tag0 = top + 1;
    return st;
}

static int goal__rp_cmp_call(const goal__rp_anchor *a, const goal__rp_anchor *b) {
    if (a->plan != b->plan) return a->plan < b->plan ? -1 : 1;
    if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
    return a->num < b->num ? -1 : a->num > b->num;
}
static int goal__rp_by_rank(const void *pa, const void *pb) {
    const goal__rp_anchor *a = (const goal__rp_anchor *)pa, *b = (const goal__rp_anchor *)pb;
    int c = goal__rp_cmp_call(a, b);
    return c ? c : a->rank < b->rank ? -1 : a->rank > b->rank;
}
static int goal__rp_by_index(const void *pa, const void *pb) {
    const goal__rp_anchor *a = (const goal__rp_anchor *)pa, *b = (const goal__rp_anchor *)pb;
    int c = goal__rp_cmp_call(a, b);
    return c ? c : a->index < b->index ? -1 : a->index > b->index;
}
/* Every start its end on the same rank (ends sorted by call and rank: one binary search). */
static goal_status goal__rp_pair(goal__rp *q) {
    size_t k;
    if (q->nends) qsort(q->ends, q->nends, sizeof *q->ends, goal__rp_by_rank);   /* NULL when none */
    for (k = 0; k < q->nstarts; k++) {
        goal__rp_anchor *c = &q->starts[k];
        size_t lo = 0, hi = q->nends;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (goal__rp_by_rank(&q->ends[mid], c) < 0) lo = mid + 1; else hi = mid;
        }
        if (lo == q->nends || goal__rp_by_rank(&q->ends[lo], c) != 0) return goal__rp_fail(q, c, "a start anchor without its end anchor");
        if (q->ends[lo].done++) return goal__rp_fail(q, c, "two start anchors of one call on one rank");
        c->end = q->ends[lo].start;
    }
    return GOAL_OK;
}
/* Calls: members by I, which are 0..m-1 with one root. */
static goal_status goal__rp_group(goal__rp *q) {
    size_t k, j, m, ncalls = 0;
    if (q->nstarts) qsort(q->starts, q->nstarts, sizeof *q->starts, goal__rp_by_index);
    for (k = 0; k < q->nstarts; k = j) {
        const goal__rp_anchor *c = &q->starts[k];
        for (j = k; j < q->nstarts && goal__rp_cmp_call(&q->starts[j], c) == 0; j++) {
            if (q->starts[j].index != (int32_t)(j - k)) return goal__rp_fail(q, &q->starts[j], "the members' ranks in the communicator (I) are not 0, 1, ... once each");
            if (q->starts[j].root != c->root) return goal__rp_fail(q, &q->starts[j], "the members name different roots");
            q->at[q->starts[j].start] = (uint32_t)j + 1u;
        }
        if (c->root >= (int32_t)(j - k)) return goal__rp_fail(q, c, "the root is not a member");
        if (ncalls + (size_t)q->tag0 > 0x7FFFFFFFu) return goal__fail(q->err, GOAL_ERR_LIMIT, -1, "replan: more calls than free tags");
        for (m = k; m < j; m++) { q->starts[m].call = (uint32_t)ncalls; q->starts[m].first = k; q->starts[m].size = (int32_t)(j - k); }
        ncalls++;
        q->d->plans[c->plan].calls++;
    }
    return GOAL_OK;
}

/* The actions of start anchor k's call on its rank: back from the end anchor to the start
   anchor, each marked in inside. Every one must follow the start anchor and be required
   only by actions of the call. */
static goal_status goal__rp_inside(goal__rp *q, uint32_t k) {
    const goal__rp_anchor *c = &q->starts[k];
    uint32_t mark = k + 1u, head = 0, tail = 0, j, t, nd;
    int found = 0;
    goal_schedule s;
    q->stack[tail++] = c->end;
    while (head < tail) {
        uint32_t g = q->stack[head++];
        if (g != c->end && q->pr.off[g] == q->pr.off[g + 1]) return goal__rp_fail(q, c, "an action between its anchors does not follow the start anchor");
        for (j = q->pr.off[g]; j < q->pr.off[g + 1]; j++) {
            uint32_t p = q->pr.pred[j];
            if (p == c->start) { found = 1; continue; }
            if (q->inside[p] == mark) continue;
            if (q->inside[p] || q->at[p]) return goal__rp_fail(q, c, "it overlaps another call of a planned collective");
            q->inside[p] = mark;
            q->stack[tail++] = p;
        }
    }
    if (!found) return goal__rp_fail(q, c, "the end anchor does not follow the start anchor");
    goal__simw_view(&q->x, c->rank, &s);
    for (head = 1; head < tail; head++) {
        const uint32_t *d;
        nd = goal_schedule_deps(&s, q->stack[head] - q->x.base[c->rank], &d);
        for (j = 0; j < nd; j++) {
            t = q->x.base[c->rank] + (d[j] & ~GOAL__DEP_START);
            if (t != c->end && q->inside[t] != mark) return goal__rp_fail(q, c, "an action outside the call requires an action between its anchors");
        }
    }
    return GOAL_OK;
}

/* The algorithm's description for call c: int8 elements, the members' sizes. */
static goal_status goal__rp_desc(goal__rp *q, const goal__rp_anchor *c, goal_algo_desc *d, int **counts) {
    const goal__rp_anchor *m = &q->starts[c->first];
    int row = goal__rp_row(goal_coll_call_find(q->d->plans[c->plan].coll));
    int32_t i;
    memset(d, 0, sizeof *d);
    d->algo = q->d->plans[c->plan].used; d->root = c->root < 0 ? 0 : c->root; d->dtype = GOAL_INT8;
    d->tag = q->tag0 + (int32_t)c->call; d->alloc = q->a;
    d->nway = q->d->plans[c->plan].nway; d->radix = q->d->plans[c->plan].radix; d->segment = q->d->plans[c->plan].segment;
    *counts = NULL;
    for (i = 0; i < c->size; i++)
        if (m[i].bytes > d->count) d->count = m[i].bytes;
    if (!(goal_coll_get(row)->flags & GOAL_COLL_VECTOR)) return GOAL_OK;
    if (row == GOAL_COLL_ALLTOALLV)
        return goal__rp_fail(q, c, "alltoallv needs every pair's count, the anchors carry each rank's own only");
    if (d->count > 0x7FFFFFFFu) return goal__rp_fail(q, c, "a member's count is past 2^31-1 bytes");
    if (!(*counts = (int *)goal__new(&q->a, (size_t)c->size, sizeof(int)))) return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    for (i = 0; i < c->size; i++) (*counts)[i] = (int)m[i].bytes;
    d->counts = *counts; d->count = 0;
    return GOAL_OK;
}
/* Copies the compiled part ts into g: its action 0 is the start anchor (at start), peers
   become the members' world ranks. */
static goal_status goal__rp_copy(goal__rp *q, const goal__rp_anchor *c, const goal_schedule *ts, goal_graph *g, int32_t start, int32_t *map) {
    const goal__rp_anchor *m = &q->starts[c->first];
    uint32_t i, j, nd;
    goal_status st = GOAL_OK;
    map[0] = start;
    for (i = 1; i < ts->nactions; i++) {
        goal_action a;
        goal_schedule_action(ts, i, &a);
        if (a.kind == GOAL_SEND || a.kind == GOAL_RECV) a.peer = m[a.peer].rank;
        map[i] = goal_graph_add(g, &a);
    }
    for (i = 0; i < ts->nactions && st == GOAL_OK; i++) {
        const uint32_t *d;
        nd = goal_schedule_deps(ts, i, &d);
        for (j = 0; j < nd && st == GOAL_OK; j++) {
            uint32_t t = d[j] & ~GOAL__DEP_START;
            st = d[j] & GOAL__DEP_START ? goal_graph_irequires(g, map[t], map[i]) : goal_graph_requires(g, map[t], map[i]);
        }
    }
    return st == GOAL_OK ? goal_graph_status(g) : st;
}
/* Member c's part of its call, appended to g after the start anchor (new id start). */
static goal_status goal__rp_part(goal__rp *q, goal__rp_anchor *c, goal_graph *g, int32_t start) {
    goal_algo_desc d;
    goal_schedule ts;
    goal_error e;
    int *counts;
    int32_t after, done, *map = NULL;
    goal_status st = goal__rp_desc(q, c, &d, &counts);
    memset(&ts, 0, sizeof ts);
    if (st == GOAL_OK && (st = goal_graph_reset(q->part, c->index, c->size)) != GOAL_OK) goal__fail(q->err, st, -1, "%s", goal_strerror(st));
    if (st == GOAL_OK) {
        after = goal_graph_nop(q->part);
        if ((done = goal_algo_build(q->part, &d, &after, 1, NULL, &e)) < 0) st = goal__rp_fail(q, c, e.msg);
    }
    if (st == GOAL_OK) st = goal_compile(q->part, &ts, q->err);
    if (st == GOAL_OK && !(map = (int32_t *)goal__new(&q->a, ts.nactions, sizeof(int32_t)))) st = goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    if (st == GOAL_OK && (st = goal__rp_copy(q, c, &ts, g, start, map)) != GOAL_OK) goal__fail(q->err, st, c->rank, "rank %ld: %s", (long)c->rank, goal_graph_message(g));
    if (st == GOAL_OK) c->done = map[done];
    goal__free(&q->a, map); goal__free(&q->a, counts);
    goal_schedule_free(&ts);
    return st;
}

/* Action i of rank r's schedule s into g (with its label, unless it is the default one). */
static int32_t goal__rp_keep(goal_graph *g, const goal_schedule *s, uint32_t i) {
    char buf[GOAL_LABEL_MAX], dflt[GOAL_LABEL_MAX];
    const char *l = goal_schedule_label(s, i, buf);
    goal_action a;
    int32_t id;
    goal_schedule_action(s, i, &a);
    id = goal_graph_add(g, &a);
    snprintf(dflt, sizeof dflt, "l%lu", (unsigned long)i + 1ul);
    if (id >= 0 && strcmp(l, dflt) != 0) goal_graph_label(g, id, l);
    return id;
}
/* Rank r rebuilt into g: its actions outside planned calls as recorded, each call's new part
   after its start anchor, the end anchor after the part. */
static goal_status goal__rp_rank(goal__rp *q, goal_graph *g, int32_t r, int32_t *nid) {
    goal_schedule s;
    uint32_t i, j, nd, b = q->x.base[r];
    goal_status st = goal_graph_reset(g, r, q->x.p);
    goal__simw_full(&q->x, r, &s);
    for (i = 0; i < s.nactions && st == GOAL_OK; i++) {
        nid[i] = -1;
        if (q->inside[b + i]) continue;
        nid[i] = goal__rp_keep(g, &s, i);
        if (q->at[b + i] && nid[i] >= 0) st = goal__rp_part(q, &q->starts[q->at[b + i] - 1u], g, nid[i]);
    }
    for (i = 0; i < s.nactions && st == GOAL_OK; i++) {
        const uint32_t *d;
        if (q->inside[b + i]) continue;
        nd = goal_schedule_deps(&s, i, &d);
        for (j = 0; j < nd && st == GOAL_OK; j++) {
            uint32_t t = d[j] & ~GOAL__DEP_START;
            if (!q->inside[b + t]) st = d[j] & GOAL__DEP_START ? goal_graph_irequires(g, nid[t], nid[i]) : goal_graph_requires(g, nid[t], nid[i]);
        }
        if (q->at[b + i]) {
            const goal__rp_anchor *c = &q->starts[q->at[b + i] - 1u];
            st = goal_graph_requires(g, nid[c->end - b], c->done);
        }
    }
    if (st == GOAL_OK) st = goal_graph_status(g);
    if (st != GOAL_OK && q->err && q->err->status == GOAL_OK) goal__fail(q->err, st, r, "rank %ld: %s", (long)r, goal_graph_message(g));
    return st;
}
static goal_status goal__rp_world(goal__rp *q, goal_world **out) {
    goal_world_desc wd;
    goal_graph_desc gd;
    goal_graph *g = NULL;
    int32_t r, *nid = NULL;
    uint32_t most = 0;
    goal_status st;
    memset(&wd, 0, sizeof wd); memset(&gd, 0, sizeof gd);
    wd.nranks = gd.nranks = q->x.p; wd.alloc = gd.alloc = q->a;
    for (r = 0; r < q->x.p; r++)
        if (q->x.base[r + 1] - q->x.base[r] > most) most = q->x.base[r + 1] - q->x.base[r];
    st = goal_world_create(out, &wd, q->err);
    if (st == GOAL_OK) st = goal_graph_create(&g, &gd, q->err);
    if (st == GOAL_OK && !(nid = (int32_t *)goal__new(&q->a, (size_t)most + 1u, sizeof(int32_t)))) st = goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    for (r = 0; r < q->x.p && st == GOAL_OK; r++)
        if ((st = goal__rp_rank(q, g, r, nid)) == GOAL_OK) st = goal_world_add_graph(*out, g, q->err);
    goal__free(&q->a, nid);
    goal_graph_destroy(g);
    if (st != GOAL_OK) { goal_world_destroy(*out); *out = NULL; }
    return st;
}

static goal_status goal__rp_init(goal__rp *q, const goal_world *w) {
    goal_graph_desc gd;
    size_t n;
    if (goal__simw_init(&q->x, w, &q->a) != GOAL_OK) return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory (or over 2^31 actions)");
    n = (size_t)q->x.n + 1u;
    q->inside = (uint32_t *)goal__new(&q->a, n, sizeof(uint32_t));
    q->at = (uint32_t *)goal__new(&q->a, n, sizeof(uint32_t));
    q->stack = (uint32_t *)goal__new(&q->a, n, sizeof(uint32_t));
    if (!q->inside || !q->at || !q->stack || goal__an_preds_build(&q->x, NULL, &q->pr) != GOAL_OK)
        return goal__fail(q->err, GOAL_ERR_NOMEM, -1, "out of memory");
    memset(q->inside, 0, n * sizeof(uint32_t));
    memset(q->at, 0, n * sizeof(uint32_t));
    memset(&gd, 0, sizeof gd);
    gd.alloc = q->a;
    return goal_graph_create(&q->part, &gd, q->err);
}
static void goal__rp_free(goal__rp *q) {
    goal__an_preds_free(&q->x, &q->pr);
    goal__free(&q->a, q->inside); goal__free(&q->a, q->at); goal__free(&q->a, q->stack);
    goal__free(&q->a, q->starts); goal__free(&q->a, q->ends);
    goal_graph_destroy(q->part);
    goal__simw_free(&q->x);
}
goal_status goal_analyze_replan(const goal_world *w, goal_analyze_replan_desc *desc, goal_world **out, goal_error *err) {
    goal__rp q;
    goal_status st;
    uint32_t k;
    goal__fail(err, GOAL_OK, -1, "");
    if (!w || !desc || !out || (desc->nplans && !desc->plans)) return goal__fail(err, GOAL_ERR_ARG, -1, "replan: needs a world, plans and an output");
    *out = NULL;
    memset(&q, 0, sizeof q);
    q.d = desc; q.a = goal__allocator(&desc->alloc); q.err = err;
    st = goal__rp_plans(&q);
    if (st == GOAL_OK) st = goal__rp_init(&q, w);
    if (st == GOAL_OK) st = goal__rp_scan(&q);
    if (st == GOAL_OK) st = goal__rp_pair(&q);
    if (st == GOAL_OK) st = goal__rp_group(&q);
    for (k = 0; st == GOAL_OK && k < q.nstarts; k++) st = goal__rp_inside(&q, k);
    if (st == GOAL_OK) st = goal__rp_world(&q, out);
    goal__rp_free(&q);
    return st;
}

void goal_analyze_recorded(const goal_world *w, size_t *calls) {
    int32_t r;
    int k;
    for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++) calls[k] = 0;
    for (r = 0; w && r < goal_world_nranks(w); r++) {
        goal_schedule s;
        uint32_t i;
        if (goal_world_schedule(w, r, &s) != GOAL_OK) continue;
        for (i = 0; i < s.nactions; i++) {
            char buf[GOAL_LABEL_MAX];
            const char *l = goal_schedule_label(&s, i, buf);
            goal__rp_anchor c;
            for (k = 0; k < GOAL_ANALYZE_NCOLLS; k++) {
                size_t n = strlen(goal_coll_call(k));
                if (strncmp(l, goal_coll_call(k), n) == 0 && goal__rp_parse(l + n, &c) == 1 && c.index == 0) calls[k]++;
            }
        }
    }
}
#endif /* GOAL_ANALYZE_IMPLEMENTATION */
