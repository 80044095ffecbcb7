/* goal_sched.h - v0.1.0 - the GOAL executor: runs a compiled schedule over any transport,
   blocking or nonblocking; the reduction operations; ranks in one process.

   In exactly ONE .c or .cpp file:   #define GOAL_SCHED_IMPLEMENTATION   then
   #include "goal_sched.h"   (GOAL_ALL_IMPLEMENTATION works as well). Each header builds only
   its own implementation: goal.h's must be in the program too (GOAL_IMPLEMENTATION, or
   GOAL_ALL_IMPLEMENTATION in the file that includes both).

   Sections: OVERVIEW · TRANSPORT RULES · IN-PROCESS RANKS · BOUNDED WINDOW · THREADS ·
             CONFIGURATION · LICENSE

   OVERVIEW
   --------
   The executor is Listing 1 of the GOAL paper: it starts the independent actions; when an
   action completes it decrements the counter of each dependent and starts those reaching
   zero; an irequires dependent is released when its source starts. The schedule stays
   const: counters, outstanding requests and the scratch slot live in a goal_exec, so one
   schedule runs many times, and by several executions at once.
   Without a window or a trace hook, goal_exec_create decodes the schedule once into an
   executor form: per action its message ready to post and its dependents (64 bytes; 76
   per action with counters and queue, where the schedule itself is 16 + 4 per edge). A step
   is then a post and a decrement per dependent (39 instructions per action with a
   transport that completes at once, bench/instructions.sh). goal_exec_bind and
   goal_exec_set_context refresh the form at the next start, and only if an address or
   the context changed.

     goal_exec_desc d = {0};
     goal_slot slot0 = { buffer, buffer_bytes };
     d.schedule = &sched;  d.transport = my_transport;  d.slots = &slot0;  d.nslots = 1;
     d.context = 7;                       // same value on every rank for this collective
     goal_exec *e;  goal_error err;
     if (goal_exec_create(&e, &d, &err) != GOAL_OK) puts(err.msg);   // bounds checked here
     goal_exec_run(e);                    // blocking; or:
     goal_exec_start(e); while (goal_exec_test(e) == GOAL_PENDING) compute();
     goal_exec_destroy(e);                // at any point: cancels what is in flight

   start / test / wait return GOAL_OK (finished), GOAL_PENDING, or a negative status;
   goal_exec_error tells which action failed and why. A finished or failed execution can
   be started again (a persistent collective); goal_exec_bind rebinds its slots first,
   goal_exec_set_context moves it to another tag space.

   exec actions compute buf1 = op(buf1, buf2) elementwise (goal_apply). Integers wrap
   (two's complement, no undefined behaviour); land/lor/lxor give 0 or 1; max/min on
   floats ignore a NaN operand unless both are NaN (like fmax/fmin), and where the operands
   compare equal (-0, +0) or are both NaN pick by IEEE totalOrder (max +0, min -0; NaN
   payloads in order), so max(a, b) and max(b, a) are the same bits; sum/prod follow IEEE,
   and of two NaNs give buf1's (quieted), whatever the compiler and its options.
   A user function has the paper's signature int fn(void *buf1, int size1, void *buf2,
   int size2) and returns 0, or nonzero for failure (GOAL_ERR_USERFN). calc actions call
   the optional calc hook, and are no-ops without it. nop actions complete at once.

   TRANSPORT RULES
   ---------------
   A transport is goal_transport: a user pointer and three callbacks.
   post(user, msg, req)   start the send or recv described by msg. Return GOAL_OK if it
                          completed already (the executor will not ask about it again),
                          GOAL_PENDING if it is in flight (keep what you need in req->handle
                          and req->word), or a negative status (the execution fails).
   test(user, reqs, n, block)  look at n in-flight requests; for each finished one set
                          reqs[i].status to GOAL_OK or a negative status (the failed
                          action's error); return how many finished, or a negative status
                          for a failure of the transport itself. With block nonzero you
                          may wait until at least one finishes; you may also return 0.
   cancel(user, req)      forget an in-flight request (the execution is being destroyed
                          or has failed). Must not fail; may be NULL if nothing to free.
   Must: deliver messages between the same two ranks with equal context in posting order
   (MPI's non-overtaking rule), and match a recv by peer (or GOAL_ANY), tag (or GOAL_ANY)
   and context. Recv data larger than msg->size is GOAL_ERR_TRUNCATE.
   Must not: call back into the executor; keep the address of a goal_req (requests move
   between calls: keep your state behind handle/word) or of msg (it may change once post
   returns: copy the fields you need); touch msg->data after the request finished. A recv's data must not be read before it finished.
   The executor calls the callbacks only from goal_exec_* calls on that execution, so a
   transport used by one thread needs no locks. examples/custom_transport.c is a complete
   transport to copy.

   IN-PROCESS RANKS
   ----------------
   goal_inproc is a transport that connects the ranks of one process: matching by peer,
   tag, posting order, wildcards, within a context (a message looks only at the entries of
   its peer and the any-source ones, through goal.h's per-peer FIFO, the simulator's too, so
   matching costs do not grow with the queue: alltoall_linear is linear in messages). A send completes when it is matched
   (synchronous mode: no hidden buffering, so an unsafe schedule shows as a deadlock
   rather than depending on buffer space). goal_world_run runs every rank of a goal_world:
   deterministically (ranks stepped round-robin in one thread; a trace hook sees each
   action start and complete) or with one thread per rank. A world that can make no
   progress is GOAL_ERR_DEADLOCK, with every stuck action reported — never a hang.

   BOUNDED WINDOW
   --------------
   goal_exec_desc.window = W executes the actions in index order through a window of W
   (the paper's Theorem 3): an action starts only once every action W or more places
   before it has completed; queue memory is O(W). Counters stay a table of n (the H table
   of the proof) unless every dependency spans at most W places, when they become a ring
   of 2W: O(W) in all. goal_schedule_segment (Theorem 4) rewrites a schedule in
   topological order with a nop after every k actions that all of the segment depends on
   and on which all of the next segment depends; each dependency then spans at most k+1
   places, so window = k+1 runs it in O(k) memory. The inserted order is a restriction:
   across ranks it can deadlock a schedule whose ranks rely on overlap (a send and a recv
   that must be in flight together); goal_world_run reports that as a deadlock.

   THREADS
   -------
   One execution is used by one thread at a time. Executions are independent of each
   other. goal_inproc is thread-safe (one lock). goal_progress runs a thread that
   progresses the executions handed to it (the paper's offloaded scheduler): hand over
   with goal_progress_start, take back with goal_progress_wait; in between, do not touch
   that execution. Its transport must allow test calls from the progress thread.

   CONFIGURATION
   -------------
   GOAL_SCHED_NO_THREADS   no pthreads: no threaded world run, no goal_progress
   (and goal.h's GOAL_MALLOC, GOAL_FREE, GOAL_ASSERT, GOAL_API)

   LICENSE: MIT, as goal.h.
*/
#include "goal.h"   /* before the guard: an inclusion after the macro builds its implementation too */
#ifndef GOAL_SCHED_H_INCLUDED
#define GOAL_SCHED_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

/* ---- memory bound to a slot ---------------------------------------------------------- */
typedef struct goal_slot { void *data; uint64_t size; } goal_slot;

/* ---- the transport --------------------------------------------------------------------- */
typedef struct goal_msg {
    goal_kind kind;          /* GOAL_SEND or GOAL_RECV */
    int32_t rank;            /* the posting rank */
    int32_t peer, tag;       /* recv: either may be GOAL_ANY */
    uint32_t context;        /* match only messages of the same context */
    void *data;              /* size bytes */
    uint64_t size;
    uint8_t cpu, nic;
    int32_t action;          /* index of the action in its schedule */
} goal_msg;
typedef struct goal_req {    /* one in-flight request: the transport's to fill */
    void *handle;
    uint64_t word;
    int32_t status;          /* GOAL_PENDING until test reports it finished */
    int32_t action;          /* the executor's */
} goal_req;
typedef struct goal_transport {
    void *user;
    int (*post)(void *user, const goal_msg *msg, goal_req *req);
    int (*test)(void *user, goal_req *reqs, int n, int block);
    void (*cancel)(void *user, goal_req *req);
} goal_transport;

/* ---- operations ------------------------------------------------------------------------ */
/* buf1 = op(buf1, buf2) over bytes/size(t) elements; buffers may be unaligned. */
GOAL_API goal_status goal_apply(goal_op op, goal_dtype t, void *buf1, const void *buf2, uint64_t bytes);
typedef int (*goal_user_fn)(void *buf1, int size1, void *buf2, int size2);
typedef int (*goal_calc_fn)(void *user, uint64_t cost, int cpu, int32_t action);
/* Called as an action starts (event 0) and completes (event 1). */
typedef void (*goal_trace_fn)(void *user, int rank, int32_t action, int event);

/* ---- the execution --------------------------------------------------------------------- */
typedef struct goal_exec goal_exec;
typedef struct goal_exec_desc {
    const goal_schedule *schedule;   /* must outlive the execution */
    goal_transport transport;
    const goal_slot *slots;          /* slot i for i < nslots; the schedule's slots must fit */
    uint32_t nslots;
    uint32_t context;                /* tag space: equal on all ranks of one collective */
    const goal_user_fn *user_fns;    /* user function id -> function */
    uint32_t nuser_fns;
    goal_calc_fn calc;               /* optional */
    void *calc_user;
    goal_trace_fn trace;             /* optional */
    void *trace_user;
    uint32_t window;                 /* 0: unbounded; else see BOUNDED WINDOW */
    goal_allocator alloc;
} goal_exec_desc;
GOAL_API goal_status goal_exec_create(goal_exec **out, const goal_exec_desc *desc, goal_error *err);
GOAL_API goal_status goal_exec_bind(goal_exec *e, const goal_slot *slots, uint32_t nslots);
GOAL_API goal_status goal_exec_set_context(goal_exec *e, uint32_t context);  /* between runs */
GOAL_API goal_status goal_exec_start(goal_exec *e);
GOAL_API goal_status goal_exec_test(goal_exec *e);
GOAL_API goal_status goal_exec_wait(goal_exec *e);
GOAL_API goal_status goal_exec_run(goal_exec *e);      /* start, then wait */
GOAL_API void goal_exec_destroy(goal_exec *e);
GOAL_API const goal_error *goal_exec_error(const goal_exec *e);  /* the failure, if any */
GOAL_API uint64_t goal_exec_progress(const goal_exec *e);  /* starts + completions so far */
/* The actions posted to the transport and not finished; returns their count. */
GOAL_API uint32_t goal_exec_inflight(const goal_exec *e, int32_t *out, uint32_t max);
GOAL_API size_t goal_exec_memory(const goal_exec *e);      /* bytes the execution holds */
/* Runs local action i (calc, a reduction, a copy or a user function), decoded into *a by
   goal_schedule_action, on e's bound slots and user functions, outside a run: for a caller
   that orders a schedule's actions itself (goal_mpi.h runs one-round schedules so). GOAL_OK,
   or the failure, told as a run tells it (goal_exec_error). A NOP does nothing; a send or
   recv is GOAL_ERR_ARG. */
GOAL_API goal_status goal_exec_local(goal_exec *e, uint32_t i, const goal_action *a);
/* The address of byte `offset` of slot (GOAL_SLOT_SCRATCH: the execution's scratch) as bound;
   NULL for no execution or no such slot. */
GOAL_API void *goal_exec_addr(const goal_exec *e, uint32_t slot, uint64_t offset);

/* Theorem 4: g = s in topological order with a nop after every k actions (see above). */
GOAL_API goal_status goal_schedule_segment(const goal_schedule *s, uint32_t k, goal_graph *g);

/* ---- ranks in one process ---------------------------------------------------------------- */
typedef struct goal_inproc goal_inproc;
typedef struct goal_inproc_desc {   /* zeroed (or NULL): one rank, GOAL_MALLOC / GOAL_FREE */
    int nranks;                     /* ranks 0 .. nranks-1; 0: 1 */
    goal_allocator alloc;
} goal_inproc_desc;
GOAL_API goal_status goal_inproc_create(goal_inproc **out, const goal_inproc_desc *desc, goal_error *err);
GOAL_API void goal_inproc_destroy(goal_inproc *ip);
/* The transport of one rank (its user pointer is private; copy the struct freely). */
GOAL_API goal_transport goal_inproc_transport(goal_inproc *ip, int rank);

/* On deadlock, for each action that will never complete: posted = 1 when it is in flight
   (a send or recv never matched), 0 when it never started. */
typedef void (*goal_stuck_fn)(void *user, int rank, int32_t action, int posted);
typedef struct goal_world_run_desc {
    const goal_world *world;
    const goal_slot *const *slots;   /* slots[r]: rank r's nslots slots (NULL: none) */
    uint32_t nslots;
    int threads;                     /* 0: deterministic round-robin; 1: a thread per rank (a thread that
                                        cannot start: GOAL_ERR_NOMEM naming its rank, the others joined) */
    uint32_t context;
    const goal_user_fn *user_fns;
    uint32_t nuser_fns;
    goal_calc_fn calc;
    void *calc_user;
    goal_trace_fn trace;             /* threaded runs: called from each rank's thread */
    void *trace_user;
    goal_stuck_fn stuck;             /* on deadlock: called for each stuck action */
    void *stuck_user;
    uint32_t window;
    /* Optional: may replace rank r's in-process transport *t by one that wraps it (to
       inject faults, count or log messages); the wrapper must outlive the run. */
    void (*wrap)(void *user, int rank, goal_transport *t);
    void *wrap_user;
    goal_allocator alloc;
} goal_world_run_desc;
GOAL_API goal_status goal_world_run(const goal_world_run_desc *desc, goal_error *err);

/* ---- the progress thread -------------------------------------------------------------- */
typedef struct goal_progress goal_progress;
typedef struct goal_progress_desc {   /* zeroed (or NULL): GOAL_MALLOC / GOAL_FREE */
    goal_allocator alloc;
} goal_progress_desc;
/* Starts the thread; one that cannot start is GOAL_ERR_NOMEM. */
GOAL_API goal_status goal_progress_create(goal_progress **out, const goal_progress_desc *desc, goal_error *err);
GOAL_API goal_status goal_progress_start(goal_progress *p, goal_exec *e); /* start e there */
GOAL_API goal_status goal_progress_wait(goal_progress *p, goal_exec *e);  /* its final status */
GOAL_API void goal_progress_destroy(goal_progress *p);  /* waits for what it holds */

#ifdef __cplusplus
}
#endif
#endif /* GOAL_SCHED_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_SCHED_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__SCHED_IMPL_DONE)
#define GOAL__SCHED_IMPL_DONE
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#ifndef GOAL_SCHED_NO_THREADS
#include <pthread.h>
#include <sched.h>
#endif

/* ---- >>> operations --------------------------------------------------------------------- */
/* Elements are read and written with memcpy: buffers are byte offsets, so may be unaligned.
   Integer arithmetic runs on the unsigned type of the same width: it wraps, without UB.
   Whole blocks of GOAL__SCHED_BLOCK bytes run as a loop of a fixed count that GCC is told
   has no dependence between iterations (ivdep), so it vectorises at -O2 too: GCC's very
   cheap cost model takes no loop that needs an alias check or a remainder. Each element
   gets the same operation, so the same bits. Buffers that overlap without being the same
   take the element loop alone: their order matters. So do float max and min, whose
   branches do not vectorise (unrolled in blocks, they ran 15% slower). */
#if defined(__GNUC__) && !defined(__clang__)
#define GOAL__SCHED_IVDEP _Pragma("GCC ivdep")
#else
#define GOAL__SCHED_IVDEP
#endif
#define GOAL__SCHED_BLOCK 32u
#define GOAL__SCHED_ELEM(T, EXPR, i)                                                  \
    {                                                                                 \
        T a, b;                                                                       \
        memcpy(&a, p1 + (i) * sizeof(T), sizeof(T));                                  \
        memcpy(&b, p2 + (i) * sizeof(T), sizeof(T));                                  \
        a = (T)(EXPR);                                                                \
        memcpy(p1 + (i) * sizeof(T), &a, sizeof(T));                                  \
    }
#define GOAL__SCHED_LOOP(T, EXPR)                                                     \
    for (k = 0; blocks && n - k >= GOAL__SCHED_BLOCK / sizeof(T); k += GOAL__SCHED_BLOCK / sizeof(T)) { \
        size_t j;                                                                     \
        GOAL__SCHED_IVDEP                                                             \
        for (j = 0; j < GOAL__SCHED_BLOCK / sizeof(T); j++) GOAL__SCHED_ELEM(T, EXPR, k + j) \
    }                                                                                 \
    for (; k < n; k++) GOAL__SCHED_ELEM(T, EXPR, k)
#define GOAL__SCHED_EACH(T, EXPR) for (k = 0; k < n; k++) GOAL__SCHED_ELEM(T, EXPR, k)
#define GOAL__SCHED_INT_OPS(S, U)                                                     \
    n = bytes / sizeof(U);   /* a shift: a division by goal_dtype_size costs tens of cycles */ \
    switch (op) {                                                                     \
    case GOAL_OP_MAX: GOAL__SCHED_LOOP(S, a > b ? a : b) break;                       \
    case GOAL_OP_MIN: GOAL__SCHED_LOOP(S, a < b ? a : b) break;                       \
    case GOAL_OP_SUM: GOAL__SCHED_LOOP(U, a + b) break;                               \
    case GOAL_OP_PROD: GOAL__SCHED_LOOP(U, 1u * a * b) break;                         \
    case GOAL_OP_LAND: GOAL__SCHED_LOOP(U, a && b) break;                             \
    case GOAL_OP_LOR: GOAL__SCHED_LOOP(U, a || b) break;                              \
    case GOAL_OP_LXOR: GOAL__SCHED_LOOP(U, !a != !b) break;                           \
    case GOAL_OP_BAND: GOAL__SCHED_LOOP(U, a & b) break;                              \
    case GOAL_OP_BOR: GOAL__SCHED_LOOP(U, a | b) break;                               \
    case GOAL_OP_BXOR: GOAL__SCHED_LOOP(U, a ^ b) break;                              \
    default: break; /* copy: goal_apply's memmove */                                  \
    }
/* Float sum and prod add buf1's NaN to itself: of two NaNs, which one x + y keeps is the
   compiler's choice (its operand order), and it differed between -O0, -O2 and the vector code. */
/* Float max/min skip a NaN operand (a != a is true only for NaN), as fmax/fmin do. Where
   the operands compare equal (-0 and +0) or are both NaN, IEEE 754's totalOrder on their bits
   picks (-NaN < -inf < -0 < +0 < +inf < +NaN, payloads in order): so op(a, b) and op(b, a)
   are the same bits, and a butterfly that combines them in both orders (allreduce_recdoub)
   gives every rank the same result. The key is the bits as an unsigned number in that order. */
#define GOAL__SCHED_MINMAX(NAME, F, U)                                                \
    static U NAME##_key(F x) {                                                        \
        U u, sign = (U)((U)1 << (8 * sizeof(U) - 1));                                 \
        memcpy(&u, &x, sizeof u);                                                     \
        return (u & sign) ? (U)~u : (U)(u | sign);                                    \
    }                                                                                 \
    static F NAME##_pick(F a, F b, int hi) { /* hi: max, else min */                  \
        if (a == a && b == b && a != b) return (hi ? b > a : b < a) ? b : a;          \
        if (a == a && b != b) return a;                                               \
        if (a != a && b == b) return b;                                               \
        return (hi ? NAME##_key(b) > NAME##_key(a) : NAME##_key(b) < NAME##_key(a)) ? b : a; \
    }
GOAL__SCHED_MINMAX(goal__sched_f32, float, uint32_t)
GOAL__SCHED_MINMAX(goal__sched_f64, double, uint64_t)
#define GOAL__SCHED_FLOAT_OPS(F, PICK)                                                \
    n = bytes / sizeof(F);                                                            \
    switch (op) {                                                                     \
    case GOAL_OP_MAX: GOAL__SCHED_EACH(F, PICK(a, b, 1)) break;                       \
    case GOAL_OP_MIN: GOAL__SCHED_EACH(F, PICK(a, b, 0)) break;                       \
    case GOAL_OP_SUM: GOAL__SCHED_LOOP(F, a + (a != a ? a : b)) break;                 \
    case GOAL_OP_PROD: GOAL__SCHED_LOOP(F, a * (a != a ? a : b)) break;                \
    default: break; /* copy: goal_apply's memmove */                                  \
    }

goal_status goal_apply(goal_op op, goal_dtype t, void *buf1, const void *buf2, uint64_t bytes) {
    unsigned char *p1 = (unsigned char *)buf1;
    const unsigned char *p2 = (const unsigned char *)buf2;
    goal_status st = goal_op_check(op, t);
    uint64_t k, n;
    int blocks;
    if (st != GOAL_OK) return st;
    if (bytes & (goal_dtype_size(t) - 1)) return GOAL_ERR_SIZE;   /* the size is a power of two */
    if (bytes && (!p1 || !p2)) return GOAL_ERR_ARG;
    if (op == GOAL_OP_COPY) {   /* the algorithms' local copies: the element loop is many times slower */
        if (bytes) memmove(p1, p2, (size_t)bytes);
        return GOAL_OK;
    }
    blocks = p1 == p2 || (uintptr_t)p1 + bytes <= (uintptr_t)p2 || (uintptr_t)p2 + bytes <= (uintptr_t)p1;
    switch (t) {
    case GOAL_INT8: GOAL__SCHED_INT_OPS(int8_t, uint8_t) break;
    case GOAL_INT16: GOAL__SCHED_INT_OPS(int16_t, uint16_t) break;
    case GOAL_INT32: GOAL__SCHED_INT_OPS(int32_t, uint32_t) break;
    case GOAL_INT64: GOAL__SCHED_INT_OPS(int64_t, uint64_t) break;
    case GOAL_UINT8: GOAL__SCHED_INT_OPS(uint8_t, uint8_t) break;
    case GOAL_UINT16: GOAL__SCHED_INT_OPS(uint16_t, uint16_t) break;
    case GOAL_UINT32: GOAL__SCHED_INT_OPS(uint32_t, uint32_t) break;
    case GOAL_UINT64: GOAL__SCHED_INT_OPS(uint64_t, uint64_t) break;
    case GOAL_FLOAT32: GOAL__SCHED_FLOAT_OPS(float, goal__sched_f32_pick) break;
    default: GOAL__SCHED_FLOAT_OPS(double, goal__sched_f64_pick) break;
    }
    return GOAL_OK;
}

/* ---- >>> reading the binary schedule ---------------------------------------------------- */
/* The general steps (window runs, trace hooks, what the executor form leaves aside) and the
   form's decoding read send and recv parameters straight from the format with goal.h's reader
   (its shared block), where goal_schedule_action would decode everything. */
#define GOAL__SCHED_RUN 0x80000000u   /* counter value of a started, unfinished action */
#define GOAL__SCHED_DONE 0xC0000000u  /* counter value of a completed action */

typedef struct goal__sched_rec {   /* an action's place in the body */
    uint32_t head, ndeps;
    const uint32_t *deps;          /* then the parameters */
} goal__sched_rec;
/* The source count is needed only to set counters, so the hot path merely steps over it. */
GOAL__HOT void goal__sched_read(const goal_schedule *s, uint32_t i, goal__sched_rec *r) {
    r->head = goal__record(s, i, &r->deps, &r->ndeps, NULL);
}

/* ---- >>> the execution ------------------------------------------------------------------ */
enum { GOAL__SCHED_IDLE, GOAL__SCHED_RUNNING, GOAL__SCHED_FINISHED, GOAL__SCHED_FAILED };
#if defined(__GNUC__) || defined(__clang__)
#define GOAL__SCHED_APART static __attribute__((noinline, cold))   /* out of the loop that calls it, laid out after it */
#else
#define GOAL__SCHED_APART static
#endif
/* The executor form: unbounded runs without a trace hook decode the schedule once into a
   record per action, so that a step of Listing 1 is a post of a message built already and
   the decrements of its dependents' counters (64 bytes per action; a window run keeps its
   O(W) memory and reads the format as it goes). */
typedef struct goal__sched_act {
    goal_msg m;                 /* a send or recv, ready to post */
    const uint32_t *deps, *end; /* the dependents released when it completes; deps is NULL
                                   for another kind or irequires dependents: the general steps run it */
} goal__sched_act;
enum { GOAL__SCHED_STALE_DATA = 1, GOAL__SCHED_STALE_CONTEXT = 2 };
struct goal_exec {
    const goal_schedule *s;
    goal_transport t;
    goal_allocator a;
    uint8_t **base;             /* nslots + 1: the bound slots, then the scratch slot */
    uint32_t *cnt;              /* counters; index & cmask; 0 from start (the form's loop leaves a
                                   completed action there), DONE once the general steps complete it */
    uint32_t *init;             /* initial counters (NULL in ring mode) */
    uint32_t *queue;            /* ready actions, a ring of qmask + 1 */
    goal__sched_act *act;       /* the executor form, n (NULL with a window or a trace hook) */
    int stale;                  /* GOAL__SCHED_STALE_*: what of act to refresh at start */
    goal_req *req;              /* in flight */
    goal_req post;              /* the form's loop posts with this request */
    uint32_t n, cmask, qmask, qhead, qtail, ndone;
    size_t nreq, reqcap;        /* requests in flight, room for them */
    uint32_t window, lo, hi;    /* actions [lo, hi) may start; hi = n when unbounded */
    int state;
    goal_msg msg;               /* the fields every message of this execution shares */
    goal_exec_desc d;
    goal_error err;
    size_t bytes;               /* memory held */
};

static uint32_t goal__sched_pow2(uint32_t x) { uint32_t p = 1; while (p < x) p <<= 1; return p; }

/* Names the action in err: "rank R, action L (send to P tag T): what". */
static goal_status goal__sched_fail(goal_exec *e, goal_status st, int32_t i, const char *what) {
    char lb[GOAL_LABEL_MAX];
    uint32_t k;
    if (e->state == GOAL__SCHED_FAILED) return (goal_status)e->err.status;
    if (i < 0) goal__fail(&e->err, st, e->s->rank, "rank %d: %s: %s", (int)e->s->rank, what, goal_strerror(st));
    else {
        goal_action a;
        char desc[96] = "";
        goal_schedule_action(e->s, (uint32_t)i, &a);
        if (a.kind == GOAL_SEND || a.kind == GOAL_RECV)
            snprintf(desc, sizeof desc, " (%s %s %d tag %d)", a.kind == GOAL_SEND ? "send" : "recv",
                     a.kind == GOAL_SEND ? "to" : "from", (int)a.peer, (int)a.tag);
        /* "user function 3 is not registered" says it all; other causes get the status text. */
        goal__fail(&e->err, st, e->s->rank, "rank %d, action %s%s: %s%s%s", (int)e->s->rank,
                   goal_schedule_label(e->s, (uint32_t)i, lb), desc, what, st == GOAL_ERR_NOUSERFN ? "" : ": ",
                   st == GOAL_ERR_NOUSERFN ? "" : goal_strerror(st));
        e->err.action = i;
    }
    /* Keep the in-flight list (goal_exec_inflight reports it), but let the transport go. */
    for (k = 0; k < e->nreq; k++)
        if (e->t.cancel) e->t.cancel(e->t.user, &e->req[k]);
    e->state = GOAL__SCHED_FAILED;
    return st;
}

static void goal__sched_push(goal_exec *e, uint32_t i) { e->queue[e->qtail++ & e->qmask] = i; }
GOAL__HOT void goal__sched_release(goal_exec *e, uint32_t d) {
    if (--e->cnt[d & e->cmask] == 0 && d < e->hi) goal__sched_push(e, d);
}
static uint32_t goal__sched_nsrc(const goal_exec *e, uint32_t i) {
    uint32_t nd, ns;
    const uint32_t *w;
    goal__record(e->s, i, &w, &nd, &ns);
    return ns;
}
/* Window mode: moves lo past completed actions, lets actions enter the window, and in ring
   mode gives the counters that come into the ring their initial values. */
static void goal__sched_slide(goal_exec *e) {
    uint32_t old = e->lo, j, hi;
    while (e->lo < e->n && e->cnt[e->lo & e->cmask] == GOAL__SCHED_DONE) e->lo++;
    if (!e->init)
        for (j = old + e->cmask + 1; j < e->lo + e->cmask + 1 && j < e->n; j++) e->cnt[j & e->cmask] = goal__sched_nsrc(e, j);
    hi = e->n - e->lo < e->window ? e->n : e->lo + e->window;
    for (j = e->hi; j < hi; j++)
        if (e->cnt[j & e->cmask] == 0) goal__sched_push(e, j);
    e->hi = hi;
}
/* `general` is a constant at every call site: 0 compiles the common case (no trace hook, no
   window, so counters and queue never wrap and every action may start) without its tests. */
GOAL__HOT void goal__sched_complete(goal_exec *e, uint32_t i, const goal__sched_rec *r, int general) {
    /* Locals: stores through cnt and queue could alias e's fields and force reloads. */
    uint32_t *cnt = e->cnt, *queue = e->queue, qtail = e->qtail;
    uint32_t cmask = general ? e->cmask : 0xFFFFFFFFu, qmask = general ? e->qmask : 0xFFFFFFFFu, hi = e->hi;
    const uint32_t *deps = r->deps, *end = deps + r->ndeps;
    if (r->head & GOAL__F_IRQ)
        while (deps < end && (GOAL__LE32(*deps) & GOAL__DEP_START)) deps++;
    for (; deps < end; deps++) {
        uint32_t d = GOAL__LE32(*deps);
        if (--cnt[d & cmask] == 0 && (!general || d < hi)) queue[qtail++ & qmask] = d;
    }
    e->qtail = qtail;
    cnt[i & cmask] = GOAL__SCHED_DONE;
    e->ndone++;
    if (!general) return;
    if (e->d.trace) e->d.trace(e->d.trace_user, e->s->rank, (int32_t)i, 1);
    if (e->window && i == e->lo) goal__sched_slide(e);
}
/* NULL for a slot left unbound (the schedule touches no byte of it). */
static uint8_t *goal__sched_addr(const goal_exec *e, uint32_t slot, uint64_t offset) {
    uint8_t *base = e->base[slot == GOAL_SLOT_SCRATCH ? e->s->nslots : slot];
    return base ? base + offset : NULL;
}
static int goal__sched_grow(goal_exec *e) {
    size_t old = e->reqcap;
    if (GOAL__RESERVE(&e->a, e->req, e->reqcap, old + 1u) != GOAL_OK) return 0;
    e->bytes += (e->reqcap - old) * sizeof(goal_req);
    return 1;
}
/* Fills m's per-message fields with send or recv i (rank and context are the execution's). */
GOAL__HOT void goal__sched_msg(const goal_exec *e, uint32_t i, const goal__sched_rec *r, goal_msg *m) {
    uint64_t offset;
    uint32_t loc;
    m->kind = (goal_kind)GOAL__KIND(r->head);
    goal__msg_params(r->head, r->deps + r->ndeps, &m->peer, &m->size, &offset, &m->tag, &loc);
    m->cpu = (uint8_t)(loc >> 16); m->nic = (uint8_t)(loc >> 24);
    m->data = goal__sched_addr(e, loc & 0xFFFFu, offset);
    m->action = (int32_t)i;
}
GOAL__HOT void goal__sched_req(goal_req *q, uint32_t i) {
    q->handle = NULL; q->word = 0; q->status = GOAL_PENDING; q->action = (int32_t)i;
}
/* What the transport's post of action i returned: done, in flight (q is kept), or failed. */
static goal_status goal__sched_posted(goal_exec *e, uint32_t i, int st, const goal_req *q) {
    /* Only what stays in flight is stored: requests grow with use, not with n. */
    if (st == GOAL_PENDING) return e->nreq < e->reqcap || goal__sched_grow(e) ? (e->req[e->nreq++] = *q, GOAL_PENDING)
                                                                              : goal__sched_fail(e, GOAL_ERR_NOMEM, (int32_t)i, "post");
    return st == GOAL_OK ? GOAL_OK : goal__sched_fail(e, st < 0 ? (goal_status)st : GOAL_ERR_TRANSPORT, (int32_t)i, "post");
}
GOAL__HOT goal_status goal__sched_post(goal_exec *e, uint32_t i, const goal__sched_rec *r) {
    goal_req q;
    goal__sched_msg(e, i, r, &e->msg);   /* rank and context are filled in once */
    goal__sched_req(&q, i);
    return goal__sched_posted(e, i, e->t.post(e->t.user, &e->msg, &q), &q);
}
/* Whether bytes [offset, offset + size) of slot lie within what the schedule sizes it
   (what goal_exec_bind checked the bound slots against). */
static goal_status goal__sched_run_local(goal_exec *e, uint32_t i, const goal_action *a);
goal_status goal_exec_local(goal_exec *e, uint32_t i, const goal_action *a) {
    if (!e || !a || i >= e->n || (a->kind != GOAL_NOP && a->kind != GOAL_EXEC && a->kind != GOAL_CALC)) return GOAL_ERR_ARG;
    if (a->kind == GOAL_EXEC &&
        (!goal__schedule_within(e->s, a->buf.slot, a->buf.offset, a->buf.size) ||
         !goal__schedule_within(e->s, a->buf2.slot, a->buf2.offset, a->op == GOAL_OP_USER ? a->buf2.size : a->buf.size)))
        return GOAL_ERR_ARG;
    return goal__sched_run_local(e, i, a);
}
/* goal_exec_local without its checks: the executor's own actions, read from the schedule. */
static goal_status goal__sched_run_local(goal_exec *e, uint32_t i, const goal_action *a) {
    int rc;
    if (a->kind == GOAL_CALC)
        return e->d.calc && e->d.calc(e->d.calc_user, a->cost, a->cpu, (int32_t)i) ? goal__sched_fail(e, GOAL_ERR_USERFN, (int32_t)i, "calc hook") : GOAL_OK;
    if (a->kind == GOAL_NOP) return GOAL_OK;
    if (a->op != GOAL_OP_USER)
        return goal_apply(a->op, a->dtype, goal__sched_addr(e, a->buf.slot, a->buf.offset),
                          goal__sched_addr(e, a->buf2.slot, a->buf2.offset), a->buf.size);
    if (a->fn >= e->d.nuser_fns || !e->d.user_fns[a->fn]) {
        char what[64];
        snprintf(what, sizeof what, "user function %lu is not registered", (unsigned long)a->fn);
        return goal__sched_fail(e, GOAL_ERR_NOUSERFN, (int32_t)i, what);
    }
    if (a->buf.size > 0x7FFFFFFF || a->buf2.size > 0x7FFFFFFF) return goal__sched_fail(e, GOAL_ERR_SIZE, (int32_t)i, "user function buffers over 2^31-1 bytes");
    rc = e->d.user_fns[a->fn](goal__sched_addr(e, a->buf.slot, a->buf.offset), (int)a->buf.size,
                              goal__sched_addr(e, a->buf2.slot, a->buf2.offset), (int)a->buf2.size);
    return rc ? goal__sched_fail(e, GOAL_ERR_USERFN, (int32_t)i, "user function") : GOAL_OK;
}
void *goal_exec_addr(const goal_exec *e, uint32_t slot, uint64_t offset) {
    return e && goal__schedule_has_slot(e->s, slot) ? goal__sched_addr(e, slot, offset) : NULL;
}
static goal_status goal__sched_local(goal_exec *e, uint32_t i) {
    goal_action a;
    goal_schedule_action(e->s, i, &a);
    return goal__sched_run_local(e, i, &a);
}
/* Starts action i (Listing 1's inner step); completes it when it finished at once. */
GOAL__HOT goal_status goal__sched_start(goal_exec *e, uint32_t i, int general) {
    goal__sched_rec r;
    uint32_t k, kind;
    goal_status st = GOAL_OK;
    goal__sched_read(e->s, i, &r);
    kind = r.head & 7u;
    if (general && e->d.trace) e->d.trace(e->d.trace_user, e->s->rank, (int32_t)i, 0);
    if (r.head & GOAL__F_IRQ)
        for (k = 0; k < r.ndeps && (GOAL__LE32(r.deps[k]) & GOAL__DEP_START); k++)
            goal__sched_release(e, GOAL__LE32(r.deps[k]) & ~GOAL__DEP_START);
    if (kind == GOAL_SEND || kind == GOAL_RECV) st = goal__sched_post(e, i, &r);
    else if (kind != GOAL_NOP) st = goal__sched_local(e, i);
    if (st == GOAL_OK) goal__sched_complete(e, i, &r, general);
    return st;
}
static goal_status goal__sched_drained(goal_exec *e) {
    if (e->ndone < e->n) return GOAL_PENDING;
    e->state = GOAL__SCHED_FINISHED;
    return GOAL_OK;
}
/* Runs of a window or a trace hook: each action read from the format as it starts. */
static goal_status goal__sched_drain_general(goal_exec *e) {
    while (e->qhead != e->qtail) {
        goal_status st = goal__sched_start(e, e->queue[e->qhead++ & e->qmask], 1);
        if (st < 0) return st;
    }
    return goal__sched_drained(e);
}
/* What the form's loop leaves to the general steps: the action of record a, of another kind
   or with irequires dependents, or posted (e->post, returning rc) and not completed at once.
   Out of line, and told a rather than the action's index, so that the loop keeps its locals
   in registers. */
GOAL__SCHED_APART goal_status goal__sched_aside(goal_exec *e, const goal__sched_act *a, int rc) {
    uint32_t i = (uint32_t)(a - e->act);
    return a->deps ? goal__sched_posted(e, i, rc, &e->post) : goal__sched_start(e, i, 0);
}
/* The loop of the other runs, over the executor form: a send or recv that completes at once
   releases its dependents here; the rest go aside. Queue ends are pointers in locals, written
   back around those steps; a step here dequeues one action and completes one, so ndone -
   qhead holds between them. */
GOAL__HOT goal_status goal__sched_drain_form(goal_exec *e) {
    const goal__sched_act *act = e->act;
    uint32_t *cnt = e->cnt, *head = e->queue + e->qhead, *tail = e->queue + e->qtail;
    goal_status st;
    while (head != tail) {
        uint32_t i = *head++;
        const goal__sched_act *a = &act[i];
        int rc = GOAL_OK;
        if (a->deps) {
            goal__sched_req(&e->post, i);   /* in e, not on the stack: its address needs no register */
            if ((rc = e->t.post(e->t.user, &a->m, &e->post)) == GOAL_OK) {
                const uint32_t *d = a->deps, *end = a->end;
                for (; d < end; d++) {
                    uint32_t x = GOAL__LE32(*d);
                    if (--cnt[x] == 0) *tail++ = x;
                }
                continue;
            }
        }
        e->ndone += (uint32_t)(head - e->queue) - 1u - e->qhead;
        e->qhead = (uint32_t)(head - e->queue); e->qtail = (uint32_t)(tail - e->queue);
        if ((st = goal__sched_aside(e, a, rc)) < 0) return st;
        tail = e->queue + e->qtail;
    }
    e->ndone += (uint32_t)(head - e->queue) - e->qhead;
    e->qhead = e->qtail = (uint32_t)(head - e->queue);
    return goal__sched_drained(e);
}
/* Fills action i's record: its dependents, and its message with the bound slots. */
static void goal__sched_form_one(goal_exec *e, uint32_t i) {
    goal__sched_act *a = &e->act[i];
    goal__sched_rec r;
    uint32_t kind;
    goal__sched_read(e->s, i, &r);
    kind = GOAL__KIND(r.head);
    memset(a, 0, sizeof *a);
    if ((r.head & GOAL__F_IRQ) || (kind != GOAL_SEND && kind != GOAL_RECV)) return;   /* for the general steps */
    a->deps = r.deps; a->end = r.deps + r.ndeps;
    a->m.rank = e->msg.rank; a->m.context = e->msg.context;
    goal__sched_msg(e, i, &r, &a->m);
}
/* Brings the form up to date with goal_exec_bind and goal_exec_set_context, at start: a
   repeated collective with the same buffers rebuilds nothing. */
static void goal__sched_form(goal_exec *e) {
    uint32_t i;
    if (!e->act || !e->stale) return;
    for (i = 0; i < e->n; i++)
        if (e->stale & GOAL__SCHED_STALE_DATA) goal__sched_form_one(e, i);
        else e->act[i].m.context = e->msg.context;   /* unused by the general ones */
    e->stale = 0;
}
static goal_status goal__sched_drain(goal_exec *e) {
    return e->act ? goal__sched_drain_form(e) : goal__sched_drain_general(e);
}
/* Asks the transport about what is in flight and completes what finished. */
static goal_status goal__sched_poll(goal_exec *e, int block) {
    uint32_t k, j = 0;
    int got = e->t.test(e->t.user, e->req, (int)e->nreq, block);
    if (got < 0) return goal__sched_fail(e, (goal_status)got, -1, "transport test");
    if (got == 0) return GOAL_PENDING;
    int32_t bad = -1;
    goal_status why = GOAL_OK;
    for (k = 0; k < e->nreq; k++) {
        goal_req q = e->req[k];
        goal__sched_rec r;
        if (q.status == GOAL_PENDING) { e->req[j++] = q; continue; }
        if (q.status != GOAL_OK) {
            if (bad < 0) { bad = q.action; why = q.status < 0 ? (goal_status)q.status : GOAL_ERR_TRANSPORT; }
            continue;
        }
        goal__sched_read(e->s, (uint32_t)q.action, &r);
        goal__sched_complete(e, (uint32_t)q.action, &r, 1);
    }
    e->nreq = j;
    return bad >= 0 ? goal__sched_fail(e, why, bad, "completion") : GOAL_PENDING;
}

/* Window mode needs every dependency to point forward; in ring mode each must also span at
   most window places. Returns GOAL_OK and sets *span to the longest, or GOAL_ERR_ARG. */
static goal_status goal__sched_spans(const goal_schedule *s, uint32_t *span) {
    uint32_t i, k;
    *span = 0;
    for (i = 0; i < s->nactions; i++) {
        goal__sched_rec r;
        goal__sched_read(s, i, &r);
        for (k = 0; k < r.ndeps; k++) {
            uint32_t d = GOAL__LE32(r.deps[k]) & ~GOAL__DEP_START;
            if (d <= i) return GOAL_ERR_ARG;
            if (d - i > *span) *span = d - i;
        }
    }
    return GOAL_OK;
}
static goal_status goal__sched_alloc_state(goal_exec *e, goal_error *err) {
    const goal_schedule *s = e->s;
    uint32_t span = 0, qcap = e->n, ccap = e->n, i;
    if (e->window) {
        if (goal__sched_spans(s, &span) != GOAL_OK)
            return goal__fail(err, GOAL_ERR_ARG, s->rank, "rank %d: window execution needs every dependency to point "
                                      "to a later action (goal_schedule_segment reorders)", (int)s->rank);
        qcap = e->window < e->n ? e->window : e->n;
        if (span <= e->window && e->window <= 0x3FFFFFFFu && 2u * e->window < e->n) ccap = 2u * e->window;
    }
    if (e->window) { qcap = goal__sched_pow2(qcap ? qcap : 1); e->qmask = qcap - 1; }
    else e->qmask = 0xFFFFFFFFu;   /* each action enters the queue once per run: no wrap */
    if (ccap < e->n) { ccap = goal__sched_pow2(ccap); e->cmask = ccap - 1; }
    else e->cmask = 0xFFFFFFFFu;
    e->base = (uint8_t **)goal__calloc(&e->a, (size_t)s->nslots + 1, sizeof(uint8_t *));
    e->cnt = (uint32_t *)goal__calloc(&e->a, ccap ? ccap : 1, sizeof(uint32_t));
    e->queue = (uint32_t *)goal__calloc(&e->a, qcap ? qcap : 1, sizeof(uint32_t));
    e->reqcap = 16;
    e->req = (goal_req *)goal__calloc(&e->a, e->reqcap, sizeof(goal_req));
    if (e->cmask == 0xFFFFFFFFu) e->init = (uint32_t *)goal__calloc(&e->a, e->n ? e->n : 1, sizeof(uint32_t));
    if (!e->window && !e->d.trace) e->act = (goal__sched_act *)goal__calloc(&e->a, e->n ? e->n : 1, sizeof *e->act);
    if (s->scratch > (uint64_t)((size_t)-1)) return GOAL_ERR_NOMEM;
    if (s->scratch) e->base[s->nslots] = (uint8_t *)goal__calloc(&e->a, (size_t)s->scratch, 1);
    if (!e->base || !e->cnt || !e->queue || !e->req || (e->cmask == 0xFFFFFFFFu && !e->init) || (s->scratch && !e->base[s->nslots]) ||
        (!e->window && !e->d.trace && !e->act))
        return GOAL_ERR_NOMEM;
    if (e->init)
        for (i = 0; i < e->n; i++) e->init[i] = goal__sched_nsrc(e, i);
    e->stale = GOAL__SCHED_STALE_DATA;
    e->bytes = sizeof *e + ((size_t)s->nslots + 1) * sizeof(uint8_t *) + (size_t)ccap * 4 + (size_t)qcap * 4 +
               e->reqcap * sizeof(goal_req) + (e->init ? (size_t)e->n * 4 : 0) + (size_t)s->scratch +
               (e->act ? (size_t)e->n * sizeof *e->act : 0);
    return GOAL_OK;
}
goal_status goal_exec_bind(goal_exec *e, const goal_slot *slots, uint32_t nslots) {
    const goal_schedule *s;
    uint8_t *data;
    uint32_t i;
    if (!e) return GOAL_ERR_ARG;
    if (e->state == GOAL__SCHED_RUNNING) return GOAL_ERR_STATE;
    s = e->s;
    for (i = 0; i < s->nslots; i++) {
        uint64_t need = goal_schedule_slot_size(s, i);
        uint64_t have = i < nslots && slots ? slots[i].size : 0;
        if (need > have || (need && !slots[i].data))
            return goal__fail(&e->err, GOAL_ERR_BOUNDS, s->rank, "rank %d: slot %lu: the schedule touches %llu bytes, %llu bound%s",
                                      (int)s->rank, (unsigned long)i, (unsigned long long)need, (unsigned long long)have,
                                      need <= have ? " at NULL" : "");
        data = i < nslots && slots ? (uint8_t *)slots[i].data : NULL;   /* untouched slots may be unbound */
        if (e->base[i] != data) e->stale |= GOAL__SCHED_STALE_DATA;
        e->base[i] = data;
    }
    return GOAL_OK;
}
goal_status goal_exec_set_context(goal_exec *e, uint32_t context) {
    if (!e) return GOAL_ERR_ARG;
    if (e->state == GOAL__SCHED_RUNNING) return GOAL_ERR_STATE;
    if (context != e->msg.context) e->stale |= GOAL__SCHED_STALE_CONTEXT;
    e->msg.context = context;
    return GOAL_OK;
}
goal_status goal_exec_create(goal_exec **out, const goal_exec_desc *desc, goal_error *err) {
    goal_allocator a;
    goal_exec *e;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!out) return GOAL_ERR_ARG;
    *out = NULL;
    if (!desc || !desc->schedule || !desc->schedule->recs || !desc->transport.post || !desc->transport.test ||
        (desc->nuser_fns && !desc->user_fns))
        return goal__fail(err, GOAL_ERR_ARG, -1, "goal_exec_create: needs a schedule and a transport with post and test");
    a = goal__allocator(&desc->alloc);
    e = (goal_exec *)goal__calloc(&a, 1, sizeof *e);
    if (!e) return GOAL_ERR_NOMEM;
    e->a = a; e->d = *desc; e->s = desc->schedule; e->t = desc->transport;
    e->n = e->s->nactions; e->window = desc->window; e->hi = e->n;
    e->msg.rank = e->s->rank; e->msg.context = desc->context;
    goal__fail(&e->err, GOAL_OK, -1, "");
    st = goal__sched_alloc_state(e, err);
    if (st == GOAL_OK) {
        st = goal_exec_bind(e, desc->slots, desc->nslots);
        if (st != GOAL_OK && err) *err = e->err;
    } else if (err && err->status == GOAL_OK) {
        goal__fail(err, st, e->s->rank, "goal_exec_create: %s", goal_strerror(st));
    }
    if (st != GOAL_OK) { goal_exec_destroy(e); return st; }
    goal__sched_form(e);   /* decoded once here, not in the first run */
    *out = e;
    return GOAL_OK;
}
void goal_exec_destroy(goal_exec *e) {
    uint32_t k;
    goal_allocator a;
    if (!e) return;
    if (e->state == GOAL__SCHED_RUNNING && e->t.cancel)
        for (k = 0; k < e->nreq; k++) e->t.cancel(e->t.user, &e->req[k]);
    a = e->a;
    if (e->base) goal__free(&a, e->base[e->s->nslots]);
    goal__free(&a, e->base);
    goal__free(&a, e->cnt);
    goal__free(&a, e->init);
    goal__free(&a, e->queue);
    goal__free(&a, e->act);
    goal__free(&a, e->req);
    goal__free(&a, e);
}
goal_status goal_exec_start(goal_exec *e) {
    uint32_t i;
    if (!e) return GOAL_ERR_ARG;
    if (e->state == GOAL__SCHED_RUNNING) return GOAL_ERR_STATE;
    e->state = GOAL__SCHED_RUNNING;
    goal__fail(&e->err, GOAL_OK, -1, "");
    e->qhead = e->qtail = e->nreq = e->ndone = 0;
    if (e->init) memcpy(e->cnt, e->init, (size_t)e->n * sizeof(uint32_t));
    else
        for (i = 0; i <= e->cmask && i < e->n; i++) e->cnt[i] = goal__sched_nsrc(e, i);
    goal__sched_form(e);
    if (!e->window)
        for (i = 0; i < e->s->nindep; i++) goal__sched_push(e, GOAL__LE32(e->s->indep[i]));
    else {
        e->lo = e->hi = 0;
        goal__sched_slide(e);
    }
    return goal__sched_drain(e);
}
static goal_status goal__sched_step(goal_exec *e, int block) {
    goal_status st;
    if (!e) return GOAL_ERR_ARG;
    if (e->state == GOAL__SCHED_FINISHED) return GOAL_OK;
    if (e->state == GOAL__SCHED_FAILED) return (goal_status)e->err.status;
    if (e->state != GOAL__SCHED_RUNNING) return GOAL_ERR_STATE;
    st = e->nreq ? goal__sched_poll(e, block) : GOAL_PENDING;
    return st < 0 ? st : goal__sched_drain(e);
}
goal_status goal_exec_test(goal_exec *e) { return goal__sched_step(e, 0); }
goal_status goal_exec_wait(goal_exec *e) {
    goal_status st;
    while ((st = goal__sched_step(e, 1)) == GOAL_PENDING) {}
    return st;
}
goal_status goal_exec_run(goal_exec *e) {
    goal_status st = goal_exec_start(e);
    return st == GOAL_PENDING ? goal_exec_wait(e) : st;
}
const goal_error *goal_exec_error(const goal_exec *e) { return e ? &e->err : NULL; }
/* Every start takes an action off the queue, so starts + completions = qhead + ndone. */
uint64_t goal_exec_progress(const goal_exec *e) { return e ? (uint64_t)e->qhead + e->ndone : 0; }
uint32_t goal_exec_inflight(const goal_exec *e, int32_t *out, uint32_t max) {
    uint32_t k;
    if (!e) return 0;
    for (k = 0; out && k < e->nreq && k < max; k++) out[k] = e->req[k].action;
    return (uint32_t)e->nreq;
}
size_t goal_exec_memory(const goal_exec *e) { return e ? e->bytes : 0; }

/* ---- >>> Theorem 4: segments joined by nops ---------------------------------------------- */
/* Kahn's order, first come first served, so independent actions keep their relative order. */
static goal_status goal__sched_topo(const goal_schedule *s, uint32_t *order, uint32_t *left) {
    uint32_t i, head = 0, tail = 0, k;
    for (i = 0; i < s->nactions; i++) left[i] = goal_schedule_nsrc(s, i);
    for (i = 0; i < s->nindep; i++) order[tail++] = GOAL__LE32(s->indep[i]);
    while (head < tail) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, order[head++], &d);
        for (k = 0; k < nd; k++) {
            uint32_t j = GOAL__LE32(d[k]) & ~GOAL__DEP_START;
            if (--left[j] == 0) order[tail++] = j;
        }
    }
    return tail == s->nactions ? GOAL_OK : GOAL_ERR_CYCLE;
}
/* The actions in Kahn's order (pos[x]: the new id of old action x), a dummy after every k
   that requires the k before it. */
static goal_status goal__sched_segment_actions(const goal_schedule *s, uint32_t k, goal_graph *g, const uint32_t *order,
                                               uint32_t *pos) {
    uint32_t n = s->nactions, i, j, seg0 = 0;
    int32_t dummy = -1;
    goal_status st = GOAL_OK;
    for (i = 0; st == GOAL_OK && i < n; i++) {
        goal_action act;
        int32_t id;
        goal_schedule_action(s, order[i], &act);
        if ((id = goal_graph_add(g, &act)) < 0) return (goal_status)id;
        pos[order[i]] = (uint32_t)id;
        if (dummy >= 0) st = goal_graph_requires(g, id, dummy);
        if (st == GOAL_OK && (i + 1) % k == 0 && i + 1 < n) {
            int32_t nd = goal_graph_nop(g);
            for (j = seg0; nd >= 0 && j <= i; j++) goal_graph_requires(g, nd, (int32_t)pos[order[j]]);
            dummy = nd; seg0 = i + 1;
            st = goal_graph_status(g);
        }
    }
    return st;
}
/* Dependencies inside a segment stay; those across are implied by the dummies. */
static goal_status goal__sched_segment_deps(const goal_schedule *s, uint32_t k, goal_graph *g, const uint32_t *order,
                                            const uint32_t *pos) {
    uint32_t i, j;
    goal_status st = GOAL_OK;
    for (i = 0; st == GOAL_OK && i < s->nactions; i++) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, order[i], &d), seg = (uint32_t)(i / k);
        for (j = 0; j < nd; j++) {
            uint32_t to = GOAL__LE32(d[j]) & ~GOAL__DEP_START;
            int32_t b = (int32_t)pos[order[i]], c = (int32_t)pos[to];
            if (pos[to] / ((uint64_t)k + 1) != seg) continue;
            st = GOAL__LE32(d[j]) & GOAL__DEP_START ? goal_graph_irequires(g, c, b) : goal_graph_requires(g, c, b);
        }
    }
    return st;
}
goal_status goal_schedule_segment(const goal_schedule *s, uint32_t k, goal_graph *g) {
    goal_allocator a = goal__allocator(NULL);
    uint32_t n, *order, *pos;
    goal_status st;
    if (!s || !g || !k) return GOAL_ERR_ARG;
    if ((st = goal_graph_reset(g, s->rank, s->nranks)) != GOAL_OK) return st;
    n = s->nactions;
    order = (uint32_t *)goal__calloc(&a, n ? n : 1, sizeof(uint32_t));
    pos = (uint32_t *)goal__calloc(&a, n ? n : 1, sizeof(uint32_t));
    st = order && pos ? goal__sched_topo(s, order, pos) : GOAL_ERR_NOMEM;
    if (st == GOAL_OK) st = goal__sched_segment_actions(s, k, g, order, pos);
    if (st == GOAL_OK) st = goal__sched_segment_deps(s, k, g, order, pos);
    goal__free(&a, order);
    goal__free(&a, pos);
    return st;
}

/* ---- >>> ranks in one process ------------------------------------------------------------- */
#ifndef GOAL_SCHED_NO_THREADS
#define GOAL__SCHED_LOCK(ip) pthread_mutex_lock(&(ip)->mu)
#define GOAL__SCHED_UNLOCK(ip) pthread_mutex_unlock(&(ip)->mu)
#else
#define GOAL__SCHED_LOCK(ip) ((void)0)
#define GOAL__SCHED_UNLOCK(ip) ((void)0)
#endif
typedef struct goal__sched_ipreq {   /* a posted message, behind goal_req.handle */
    goal_msg m;
    uint32_t id;                     /* its number (goal__sched_ip_at), the goal__fifo ref */
    uint32_t ent;                    /* its goal__fifo entry while queued; the next spare id when spare */
    int status;
} goal__sched_ipreq;
typedef struct goal__sched_iprank {
    struct goal_inproc *ip;
    int rank, blocked;
    uint32_t recvs;                  /* queue (goal__fifo head) of recvs posted here */
    uint32_t sends;                  /* queue of sends to here not matched yet */
#ifndef GOAL_SCHED_NO_THREADS
    pthread_cond_t cv;
#endif
} goal__sched_iprank;
struct goal_inproc {
    int n;
    goal_allocator a;
    goal__sched_iprank *r;
    goal__sched_ipreq **chunk;       /* every request made, GOAL__SCHED_CHUNK to a chunk: they do
                                        not move, so handle is the request (a wrapping transport
                                        may use goal_req.word) */
    size_t capchunk;
    uint32_t nreq, spare;            /* made; the first finished one's id, for reuse */
    goal__fifo q;                    /* every rank's queues */
    int managed, nlive, nblocked, deadlock;   /* deadlock detection of threaded world runs */
    uint64_t unreported;             /* matched, not yet reported by a test: progress to come */
#ifndef GOAL_SCHED_NO_THREADS
    pthread_mutex_t mu;
#endif
};
#define GOAL__SCHED_CHUNK 64u
static goal__sched_ipreq *goal__sched_ip_at(const goal_inproc *ip, uint32_t id) {
    return &ip->chunk[id / GOAL__SCHED_CHUNK][id % GOAL__SCHED_CHUNK];
}
static int goal__sched_matches(const goal_msg *recv, const goal_msg *send) {
    return recv->context == send->context && (recv->peer == GOAL_ANY || recv->peer == send->rank) &&
           (recv->tag == GOAL_ANY || recv->tag == send->tag);
}
typedef struct goal__sched_want { const goal_inproc *ip; const goal_msg *m; } goal__sched_want;
/* goal__fifo_fn of a send posted now: whether the recv ref takes it. */
static int goal__sched_ip_recv_takes(void *want, uint32_t ref) {
    const goal__sched_want *w = (const goal__sched_want *)want;
    const goal__sched_ipreq *x = goal__sched_ip_at(w->ip, ref);
    return goal__sched_matches(&x->m, w->m);
}
/* goal__fifo_fn of a recv posted now: whether it takes the send ref. */
static int goal__sched_ip_send_taken(void *want, uint32_t ref) {
    const goal__sched_want *w = (const goal__sched_want *)want;
    const goal__sched_ipreq *x = goal__sched_ip_at(w->ip, ref);
    return goal__sched_matches(w->m, &x->m);
}
/* Moves the data and returns the recv's status. */
static int goal__sched_deliver(const goal_msg *recv, const goal_msg *send) {
    uint64_t n = send->size < recv->size ? send->size : recv->size;
    if (n) memcpy(recv->data, send->data, (size_t)n);
    return send->size > recv->size ? GOAL_ERR_TRUNCATE : GOAL_OK;
}
/* The waiting side of a match finished: tell its rank (caller holds the lock). */
static void goal__sched_finish(goal_inproc *ip, goal__sched_ipreq *x, int status) {
    goal__sched_iprank *o = &ip->r[x->m.rank];
    x->status = status;
    ip->unreported++;
    if (o->blocked) { o->blocked = 0; ip->nblocked--; }
#ifndef GOAL_SCHED_NO_THREADS
    pthread_cond_signal(&o->cv);
#endif
}
static void goal__sched_ip_spare(goal_inproc *ip, goal__sched_ipreq *x) { x->ent = ip->spare; ip->spare = x->id; }
/* A request to fill: a spare one, else a new one; NULL when out of memory. */
static goal__sched_ipreq *goal__sched_ip_request(goal_inproc *ip) {
    goal__sched_ipreq *x;
    size_t c = ip->nreq / GOAL__SCHED_CHUNK;
    if (ip->spare != GOAL__NONE) { x = goal__sched_ip_at(ip, ip->spare); ip->spare = x->ent; return x; }
    if (ip->nreq % GOAL__SCHED_CHUNK == 0) {
        if (ip->nreq > GOAL__NONE - GOAL__SCHED_CHUNK || GOAL__RESERVE(&ip->a, ip->chunk, ip->capchunk, c + 1u) != GOAL_OK ||
            !(ip->chunk[c] = (goal__sched_ipreq *)goal__calloc(&ip->a, GOAL__SCHED_CHUNK, sizeof *x)))
            return NULL;
    }
    x = goal__sched_ip_at(ip, ip->nreq);
    x->id = ip->nreq++;
    return x;
}
/* Queues m on *mine as a new request, behind req->handle. */
static int goal__sched_ip_queue(goal_inproc *ip, uint32_t *mine, const goal_msg *m, int32_t key, goal_req *req) {
    goal__sched_ipreq *x = goal__sched_ip_request(ip);
    if (!x) return GOAL_ERR_NOMEM;
    if (goal__fifo_push(&ip->q, &ip->a, mine, key, x->id, &x->ent) != GOAL_OK) {
        goal__sched_ip_spare(ip, x);
        return GOAL_ERR_NOMEM;
    }
    x->m = *m; x->status = GOAL_PENDING;
    req->handle = x;
    return GOAL_PENDING;
}
/* The counterpart of m (key: its peer) that fn finds first in queue *theirs, taken off it;
   else NULL and m queued on *mine, with *st its status (GOAL_PENDING, or out of memory). */
GOAL__HOT goal__sched_ipreq *goal__sched_ip_meet(goal_inproc *ip, uint32_t *theirs, uint32_t *mine, int32_t key,
                                                 goal__fifo_fn fn, const goal_msg *m, goal_req *req, int *st) {
    goal__sched_want want;
    uint32_t i;
    want.ip = ip; want.m = m;
    if ((i = goal__fifo_take(&ip->q, &ip->a, theirs, key, fn, &want)) != GOAL__NONE) return goal__sched_ip_at(ip, i);
    *st = goal__sched_ip_queue(ip, mine, m, key, req);
    return NULL;
}
/* A send looks among the recvs posted at its peer, and waits among the sends to it. */
static int goal__sched_ip_send(goal_inproc *ip, const goal_msg *m, goal_req *req) {
    goal__sched_iprank *to = &ip->r[m->peer];
    int st = GOAL_OK;
    goal__sched_ipreq *x = goal__sched_ip_meet(ip, &to->recvs, &to->sends, m->rank, goal__sched_ip_recv_takes, m, req, &st);
    if (x) goal__sched_finish(ip, x, goal__sched_deliver(&x->m, m));
    return st;
}
/* A recv looks among the sends to its rank, and waits among the recvs posted there. */
static int goal__sched_ip_recv(goal__sched_iprank *me, const goal_msg *m, goal_req *req) {
    int st = GOAL_OK;
    goal__sched_ipreq *x = goal__sched_ip_meet(me->ip, &me->sends, &me->recvs, m->peer, goal__sched_ip_send_taken, m, req, &st);
    if (x) { st = goal__sched_deliver(m, &x->m); goal__sched_finish(me->ip, x, GOAL_OK); }
    return st;
}
static int goal__sched_ip_post(void *user, const goal_msg *m, goal_req *req) {
    goal__sched_iprank *me = (goal__sched_iprank *)user;
    goal_inproc *ip = me->ip;
    int st, send = m->kind == GOAL_SEND;
    if (m->peer >= ip->n || m->peer < (send ? 0 : GOAL_ANY)) return GOAL_ERR_PEER;
    GOAL__SCHED_LOCK(ip);
    st = send ? goal__sched_ip_send(ip, m, req) : goal__sched_ip_recv(me, m, req);
    GOAL__SCHED_UNLOCK(ip);
    return st;
}
/* Threaded world runs: block until something for this rank finished, or every live rank
   is blocked (a deadlock). Caller holds the lock. */
static int goal__sched_ip_block(goal__sched_iprank *me) {
#ifndef GOAL_SCHED_NO_THREADS
    goal_inproc *ip = me->ip;
    if (!ip->managed) { pthread_cond_wait(&me->cv, &ip->mu); return 0; }
    me->blocked = 1;
    if (++ip->nblocked == ip->nlive) {
        int k;
        ip->deadlock = 1;
        for (k = 0; k < ip->n; k++) pthread_cond_signal(&ip->r[k].cv);
    }
    while (me->blocked && !ip->deadlock) pthread_cond_wait(&me->cv, &ip->mu);
    if (me->blocked) { me->blocked = 0; ip->nblocked--; }
    return ip->deadlock ? GOAL_ERR_DEADLOCK : 0;
#else
    (void)me;
    return 0;
#endif
}
static int goal__sched_ip_test(void *user, goal_req *reqs, int n, int block) {
    goal__sched_iprank *me = (goal__sched_iprank *)user;
    goal_inproc *ip = me->ip;
    int k, done = 0;
    GOAL__SCHED_LOCK(ip);
    for (;;) {
        for (k = 0; k < n; k++) {
            goal__sched_ipreq *x = (goal__sched_ipreq *)reqs[k].handle;
            if (!x || x->status == GOAL_PENDING) continue;
            reqs[k].status = x->status;
            reqs[k].handle = NULL;
            ip->unreported--;
            goal__sched_ip_spare(ip, x);
            done++;
        }
        if (done || !block) break;
        if ((done = goal__sched_ip_block(me)) != 0) break;
    }
    GOAL__SCHED_UNLOCK(ip);
    return done;
}
static void goal__sched_ip_cancel(void *user, goal_req *req) {
    goal__sched_iprank *me = (goal__sched_iprank *)user;
    goal_inproc *ip = me->ip;
    goal__sched_ipreq *x = (goal__sched_ipreq *)req->handle;
    if (!x) return;
    GOAL__SCHED_LOCK(ip);
    if (x->status == GOAL_PENDING)
        goal__fifo_cancel(&ip->q, x->m.kind == GOAL_SEND ? &ip->r[x->m.peer].sends : &me->recvs, x->ent);
    else ip->unreported--;
    goal__sched_ip_spare(ip, x);
    req->handle = NULL;
    GOAL__SCHED_UNLOCK(ip);
}
static goal_status goal__inproc_new(goal_inproc **out, int nranks, const goal_allocator *alloc) {
    goal_allocator a = goal__allocator(alloc);
    goal_inproc *ip;
    int k;
    if (!out || nranks < 1) return GOAL_ERR_ARG;
    *out = NULL;
    ip = (goal_inproc *)goal__calloc(&a, 1, sizeof *ip);
    if (!ip) return GOAL_ERR_NOMEM;
    ip->a = a; ip->n = nranks;
    ip->spare = ip->q.freel = GOAL__NONE;
    ip->r = (goal__sched_iprank *)goal__calloc(&a, (size_t)nranks, sizeof *ip->r);
    if (!ip->r) { goal__free(&a, ip); return GOAL_ERR_NOMEM; }
#ifndef GOAL_SCHED_NO_THREADS
    pthread_mutex_init(&ip->mu, NULL);
#endif
    for (k = 0; k < nranks; k++) {
        ip->r[k].ip = ip; ip->r[k].rank = k;
        ip->r[k].recvs = ip->r[k].sends = GOAL__NONE;
#ifndef GOAL_SCHED_NO_THREADS
        pthread_cond_init(&ip->r[k].cv, NULL);
#endif
    }
    *out = ip;
    return GOAL_OK;
}
goal_status goal_inproc_create(goal_inproc **out, const goal_inproc_desc *desc, goal_error *err) {
    int n = goal__desc_ranks(desc ? desc->nranks : 0, "in-process ranks", err);
    if (out) *out = NULL;
    return n < 0 ? GOAL_ERR_RANK : goal__created(goal__inproc_new(out, n, desc ? &desc->alloc : NULL), "transport", err);
}
void goal_inproc_destroy(goal_inproc *ip) {
    size_t c;
    if (!ip) return;
#ifndef GOAL_SCHED_NO_THREADS
    {
        int k;
        for (k = 0; k < ip->n; k++) pthread_cond_destroy(&ip->r[k].cv);
        pthread_mutex_destroy(&ip->mu);
    }
#endif
    for (c = 0; c * GOAL__SCHED_CHUNK < ip->nreq; c++) goal__free(&ip->a, ip->chunk[c]);
    goal__free(&ip->a, ip->chunk);
    goal__fifo_free(&ip->q, &ip->a);
    goal__free(&ip->a, ip->r);
    goal__free(&ip->a, ip);
}
goal_transport goal_inproc_transport(goal_inproc *ip, int rank) {
    goal_transport t;
    memset(&t, 0, sizeof t);
    if (!ip || rank < 0 || rank >= ip->n) return t;
    t.user = &ip->r[rank];
    t.post = goal__sched_ip_post;
    t.test = goal__sched_ip_test;
    t.cancel = goal__sched_ip_cancel;
    return t;
}

/* ---- >>> running a whole world ------------------------------------------------------------- */
typedef struct goal__sched_run {
    const goal_world_run_desc *d;
    goal_inproc *ip;
    goal_schedule *s;                /* n views */
    goal_exec **e;                   /* n */
    goal_status *st;                 /* n: each rank's result */
    int n;
} goal__sched_run;
static void goal__sched_run_free(goal__sched_run *r, const goal_allocator *a) {
    int k;
    for (k = 0; r->e && k < r->n; k++) goal_exec_destroy(r->e[k]);
    goal_inproc_destroy(r->ip);
    goal__free(a, r->e);
    goal__free(a, r->s);
    goal__free(a, r->st);
}
static goal_status goal__sched_run_setup(goal__sched_run *r, const goal_allocator *a, goal_error *err) {
    const goal_world_run_desc *d = r->d;
    goal_status st;
    int k;
    r->s = (goal_schedule *)goal__calloc(a, (size_t)r->n, sizeof *r->s);
    r->e = (goal_exec **)goal__calloc(a, (size_t)r->n, sizeof *r->e);
    r->st = (goal_status *)goal__calloc(a, (size_t)r->n, sizeof *r->st);
    if (!r->s || !r->e || !r->st) return goal__fail(err, GOAL_ERR_NOMEM, -1, "goal_world_run: out of memory");
    if ((st = goal__inproc_new(&r->ip, r->n, a)) != GOAL_OK) return goal__fail(err, st, -1, "goal_world_run: %s", goal_strerror(st));
    for (k = 0; k < r->n; k++) {
        goal_exec_desc ed;
        if ((st = goal_world_schedule(d->world, k, &r->s[k])) != GOAL_OK)
            return goal__fail(err, st, k, "rank %d has no schedule", k);
        memset(&ed, 0, sizeof ed);
        ed.schedule = &r->s[k];
        ed.transport = goal_inproc_transport(r->ip, k);
        if (d->wrap) d->wrap(d->wrap_user, k, &ed.transport);
        ed.slots = d->slots ? d->slots[k] : NULL;
        ed.nslots = d->slots && d->slots[k] ? d->nslots : 0;
        ed.context = d->context;
        ed.user_fns = d->user_fns; ed.nuser_fns = d->nuser_fns;
        ed.calc = d->calc; ed.calc_user = d->calc_user;
        ed.trace = d->trace; ed.trace_user = d->trace_user;
        ed.window = d->window;
        ed.alloc = *a;
        if ((st = goal_exec_create(&r->e[k], &ed, err)) != GOAL_OK) return st;
    }
    return GOAL_OK;
}
/* Deterministic: start the ranks in order, then test them round-robin. Matching happens
   when a message is posted, so a round in which no rank starts or completes anything, with
   no match waiting to be reported, means nothing ever will. A transport wrapper may hold
   reports back for a while (a round or two before it looks like a deadlock; up to
   GOAL__SCHED_QUIET_MAX rounds when the in-process transport knows more is coming). */
#define GOAL__SCHED_QUIET_MAX 1000000
static goal_status goal__sched_run_rr(goal__sched_run *r, goal_error *err) {
    int k, busy = 1;
    long quiet = 0;
    for (k = 0; k < r->n; k++)
        if ((r->st[k] = goal_exec_start(r->e[k])) < 0) return r->st[k];
    while (busy) {
        uint64_t before = 0, after = 0;
        busy = 0;
        for (k = 0; k < r->n; k++) before += goal_exec_progress(r->e[k]);
        for (k = 0; k < r->n; k++) {
            if (r->st[k] != GOAL_PENDING) continue;
            if ((r->st[k] = goal_exec_test(r->e[k])) < 0) return r->st[k];
            busy |= r->st[k] == GOAL_PENDING;
        }
        for (k = 0; k < r->n; k++) after += goal_exec_progress(r->e[k]);
        quiet = after == before ? quiet + 1 : 0;
        /* Three quiet rounds: a wrapper may hold a report back for a call or two. */
        if (busy && quiet >= 3 && r->ip->unreported == 0) return GOAL_ERR_DEADLOCK;
        if (quiet > GOAL__SCHED_QUIET_MAX)
            return goal__fail(err, GOAL_ERR_TRANSPORT, -1, "goal_world_run: matched messages were never reported "
                                      "complete by the transport (%d quiet rounds)", GOAL__SCHED_QUIET_MAX);
    }
    return GOAL_OK;
}
#ifndef GOAL_SCHED_NO_THREADS
/* The ranks never started count as finished; when those that run now all wait, nothing
   can wake them but the deadlock report. */
static void goal__sched_run_abandon(goal_inproc *ip, int never) {
    int k;
    GOAL__SCHED_LOCK(ip);
    ip->nlive -= never;
    if (ip->nlive > 0 && ip->nblocked == ip->nlive) {
        ip->deadlock = 1;
        for (k = 0; k < ip->n; k++) pthread_cond_signal(&ip->r[k].cv);
    }
    GOAL__SCHED_UNLOCK(ip);
}
typedef struct goal__sched_arg { goal__sched_run *r; int rank; } goal__sched_arg;
static void *goal__sched_rank_main(void *p) {
    goal__sched_arg *ar = (goal__sched_arg *)p;
    goal__sched_run *r = ar->r;
    goal_inproc *ip = r->ip;
    r->st[ar->rank] = goal_exec_run(r->e[ar->rank]);
    goal__sched_run_abandon(ip, 1);   /* one rank fewer that could unblock the others */
    return NULL;
}
static goal_status goal__sched_run_threads(goal__sched_run *r, const goal_allocator *a, goal_error *err) {
    pthread_t *th = (pthread_t *)goal__calloc(a, (size_t)r->n, sizeof *th);
    goal__sched_arg *arg = (goal__sched_arg *)goal__calloc(a, (size_t)r->n, sizeof *arg);
    goal_status st = GOAL_OK;
    int k, started = 0, rc = 0;
    if (!th || !arg) st = goal__fail(err, GOAL_ERR_NOMEM, -1, "goal_world_run: out of memory");
    r->ip->managed = 1;
    r->ip->nlive = r->n;
    for (k = 0; st == GOAL_OK && k < r->n; k++) {
        arg[k].r = r; arg[k].rank = k;
        if ((rc = pthread_create(&th[k], NULL, goal__sched_rank_main, &arg[k])) != 0)
            st = goal__fail(err, GOAL_ERR_NOMEM, k, "goal_world_run: cannot start the thread of rank %d (%s); "
                                    "%d of %d ranks had started", k, strerror(rc), started, r->n);
        else started++;
    }
    if (started < r->n) goal__sched_run_abandon(r->ip, r->n - started);
    for (k = 0; k < started; k++) pthread_join(th[k], NULL);
    goal__free(a, th);
    goal__free(a, arg);
    if (st != GOAL_OK) return st;
    /* A real failure explains the deadlock it leaves behind: report it first. */
    for (k = 0; k < r->n; k++)
        if (r->st[k] < 0 && r->st[k] != GOAL_ERR_DEADLOCK) return r->st[k];
    for (k = 0; k < r->n; k++)
        if (r->st[k] < 0) return r->st[k];
    return GOAL_OK;
}
#endif
/* Reports every action that will never complete: in flight first, then never started. */
static void goal__sched_stuck(goal__sched_run *r, goal_error *err) {
    char lb[GOAL_LABEL_MAX];
    size_t len;
    uint32_t total = 0, i;
    int k;
    goal__fail(err, GOAL_ERR_DEADLOCK, -1, "deadlock: stuck:");
    for (k = 0; k < r->n; k++) {
        goal_exec *e = r->e[k];
        for (i = 0; i < e->nreq; i++, total++) {
            e->cnt[(uint32_t)e->req[i].action & e->cmask] = GOAL__SCHED_RUN;   /* not "never started" */
            if (r->d->stuck) r->d->stuck(r->d->stuck_user, k, e->req[i].action, 1);
            if (err && (len = strlen(err->msg)) + 40 < sizeof err->msg)
                snprintf(err->msg + len, sizeof err->msg - len, " rank %d %s", k, goal_schedule_label(e->s, (uint32_t)e->req[i].action, lb));
        }
        /* A counter at 0 started (the queue is empty): the executor form leaves it there. */
        for (i = 0; i < e->n && e->cmask == 0xFFFFFFFFu; i++)
            if (e->cnt[i] != GOAL__SCHED_DONE && e->cnt[i] != GOAL__SCHED_RUN && e->cnt[i] != 0) {
                total++;
                if (r->d->stuck) r->d->stuck(r->d->stuck_user, k, (int32_t)i, 0);
            }
    }
    if (err && (len = strlen(err->msg)) + 48 < sizeof err->msg)
        snprintf(err->msg + len, sizeof err->msg - len, " (%lu actions in all)", (unsigned long)total);
}
goal_status goal_world_run(const goal_world_run_desc *d, goal_error *err) {
    goal__sched_run r;
    goal_allocator a;
    goal_status st;
    int k;
    goal__fail(err, GOAL_OK, -1, "");
    if (!d || !d->world) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_world_run: needs a world");
    a = goal__allocator(&d->alloc);
    memset(&r, 0, sizeof r);
    r.d = d;
    r.n = goal_world_nranks(d->world);
    if (r.n < 1) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_world_run: the world has no ranks");
    st = goal__sched_run_setup(&r, &a, err);
#ifndef GOAL_SCHED_NO_THREADS
    if (st == GOAL_OK) st = d->threads ? goal__sched_run_threads(&r, &a, err) : goal__sched_run_rr(&r, err);
#else
    if (st == GOAL_OK) st = d->threads ? goal__fail(err, GOAL_ERR_ARG, -1, "built without threads") : goal__sched_run_rr(&r, err);
#endif
    if (st == GOAL_ERR_DEADLOCK) goal__sched_stuck(&r, err);
    else if (st < 0 && r.e)
        for (k = 0; k < r.n; k++)
            if (r.e[k] && r.e[k]->state == GOAL__SCHED_FAILED && r.e[k]->err.status != GOAL_ERR_DEADLOCK) {
                if (err) *err = r.e[k]->err;
                break;
            }
    goal__sched_run_free(&r, &a);
    return st;
}

/* ---- >>> the progress thread -------------------------------------------------------------- */
#ifndef GOAL_SCHED_NO_THREADS
typedef struct goal__sched_held { goal_exec *e; goal_status st; } goal__sched_held;
struct goal_progress {
    goal_allocator a;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    goal__sched_held *h;
    uint32_t n, pending;
    size_t cap;
    int stop;
};
static void *goal__sched_progress_main(void *p) {
    goal_progress *pg = (goal_progress *)p;
    uint32_t k;
    pthread_mutex_lock(&pg->mu);
    while (!pg->stop || pg->pending) {
        if (!pg->pending) { pthread_cond_wait(&pg->work, &pg->mu); continue; }
        for (k = 0; k < pg->n; k++)
            if (pg->h[k].st == GOAL_PENDING && (pg->h[k].st = goal_exec_test(pg->h[k].e)) != GOAL_PENDING) {
                pg->pending--;
                pthread_cond_broadcast(&pg->done);
            }
        /* Let the owners in between sweeps: they hand over and take back executions. */
        pthread_mutex_unlock(&pg->mu);
        sched_yield();
        pthread_mutex_lock(&pg->mu);
    }
    pthread_mutex_unlock(&pg->mu);
    return NULL;
}
goal_status goal_progress_create(goal_progress **out, const goal_progress_desc *desc, goal_error *err) {
    goal_allocator a = goal__allocator(desc ? &desc->alloc : NULL);
    goal_progress *pg;
    if (!out) return goal__fail(err, GOAL_ERR_ARG, -1, "no place for the progress thread (out is NULL)");
    *out = NULL;
    pg = (goal_progress *)goal__calloc(&a, 1, sizeof *pg);
    if (!pg) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    pg->a = a;
    pthread_mutex_init(&pg->mu, NULL);
    pthread_cond_init(&pg->work, NULL);
    pthread_cond_init(&pg->done, NULL);
    if (pthread_create(&pg->th, NULL, goal__sched_progress_main, pg) != 0) {
        pthread_mutex_destroy(&pg->mu);
        pthread_cond_destroy(&pg->work);
        pthread_cond_destroy(&pg->done);
        goal__free(&a, pg);
        return goal__fail(err, GOAL_ERR_NOMEM, -1, "cannot start the progress thread");
    }
    *out = pg;
    return goal__fail(err, GOAL_OK, -1, "");
}
goal_status goal_progress_start(goal_progress *pg, goal_exec *e) {
    goal_status st;
    if (!pg || !e) return GOAL_ERR_ARG;
    pthread_mutex_lock(&pg->mu);
    if (GOAL__RESERVE(&pg->a, pg->h, pg->cap, (size_t)pg->n + 1u) != GOAL_OK) {
        pthread_mutex_unlock(&pg->mu);
        return GOAL_ERR_NOMEM;
    }
    st = goal_exec_start(e);
    pg->h[pg->n].e = e; pg->h[pg->n].st = st;
    pg->n++;
    if (st == GOAL_PENDING) { pg->pending++; pthread_cond_signal(&pg->work); }
    pthread_mutex_unlock(&pg->mu);
    return st;
}
goal_status goal_progress_wait(goal_progress *pg, goal_exec *e) {
    goal_status st = GOAL_ERR_ARG;
    uint32_t k;
    if (!pg || !e) return GOAL_ERR_ARG;
    pthread_mutex_lock(&pg->mu);
    for (k = 0; k < pg->n && pg->h[k].e != e; k++) {}
    if (k < pg->n) {
        while (pg->h[k].st == GOAL_PENDING) pthread_cond_wait(&pg->done, &pg->mu);
        st = pg->h[k].st;
        pg->h[k] = pg->h[--pg->n];
    }
    pthread_mutex_unlock(&pg->mu);
    return st;
}
void goal_progress_destroy(goal_progress *pg) {
    if (!pg) return;
    pthread_mutex_lock(&pg->mu);
    pg->stop = 1;
    pthread_cond_signal(&pg->work);
    pthread_mutex_unlock(&pg->mu);
    pthread_join(pg->th, NULL);
    pthread_mutex_destroy(&pg->mu);
    pthread_cond_destroy(&pg->work);
    pthread_cond_destroy(&pg->done);
    goal__free(&pg->a, pg->h);
    goal__free(&pg->a, pg);
}
#endif /* GOAL_SCHED_NO_THREADS */
#endif /* GOAL_SCHED_IMPLEMENTATION */
