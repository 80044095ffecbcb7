/* goal_sched.h - v0.1.0 - the GOAL executor: runs a compiled schedule over any transport,
   blocking or nonblocking; the reduction operations; ranks in one process.

   In exactly ONE .c or .cpp file:   #define GOAL_SCHED_IMPLEMENTATION   then
   #include "goal_sched.h"  (this also compiles goal.h's implementation unless
   GOAL_SCHED_NO_GOAL_IMPL is defined because another file already has it).

   Sections: OVERVIEW · TRANSPORT RULES · IN-PROCESS RANKS · BOUNDED WINDOW · THREADS ·
             CONFIGURATION · LICENSE

   OVERVIEW
   --------
   The executor is Listing 1 of the GOAL paper: it starts the independent actions; when an
   action completes it decrements the counter of each dependent and starts those reaching
   zero; an irequires dependent is released when its source starts. The schedule stays
   const: counters, outstanding requests and the scratch slot live in a goal_exec, so one
   schedule runs many times, and by several executions at once.

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
   be started again (a persistent collective); goal_exec_bind rebinds its slots first.

   exec actions compute buf1 = op(buf1, buf2) elementwise (goal_apply). Integers wrap
   (two's complement, no undefined behaviour); land/lor/lxor give 0 or 1; max/min on
   floats ignore a NaN operand unless both are NaN (like fmax/fmin); sum/prod follow IEEE.
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
   between calls: keep your state behind handle/word); touch msg->data after the request
   finished. A recv's data must not be read before it finished.
   The executor calls the callbacks only from goal_exec_* calls on that execution, so a
   transport used by one thread needs no locks. examples/custom_transport.c is a complete
   transport to copy.

   IN-PROCESS RANKS
   ----------------
   goal_inproc is a transport that connects the ranks of one process: matching by peer,
   tag, posting order, wildcards, within a context. A send completes when it is matched
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
#ifndef GOAL_SCHED_H_INCLUDED
#define GOAL_SCHED_H_INCLUDED
#include "goal.h"

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

/* Theorem 4: g = s in topological order with a nop after every k actions (see above). */
GOAL_API goal_status goal_schedule_segment(const goal_schedule *s, uint32_t k, goal_graph *g);

/* ---- ranks in one process ---------------------------------------------------------------- */
typedef struct goal_inproc goal_inproc;
GOAL_API goal_status goal_inproc_create(goal_inproc **out, int nranks, const goal_allocator *alloc);
GOAL_API void goal_inproc_destroy(goal_inproc *ip);
/* The transport of one rank (its user pointer is private; copy the struct freely). */
GOAL_API goal_transport goal_inproc_transport(goal_inproc *ip, int rank);

typedef void (*goal_stuck_fn)(void *user, int rank, int32_t action);
typedef struct goal_world_run_desc {
    const goal_world *world;
    const goal_slot *const *slots;   /* slots[r]: rank r's nslots slots (NULL: none) */
    uint32_t nslots;
    int threads;                     /* 0: deterministic round-robin; 1: a thread per rank */
    uint32_t context;
    const goal_user_fn *user_fns;
    uint32_t nuser_fns;
    goal_calc_fn calc;
    void *calc_user;
    goal_trace_fn trace;             /* deterministic runs only */
    void *trace_user;
    goal_stuck_fn stuck;             /* on deadlock: called for each stuck action */
    void *stuck_user;
    uint32_t window;
    goal_allocator alloc;
} goal_world_run_desc;
GOAL_API goal_status goal_world_run(const goal_world_run_desc *desc, goal_error *err);

/* ---- the progress thread -------------------------------------------------------------- */
typedef struct goal_progress goal_progress;
GOAL_API goal_status goal_progress_create(goal_progress **out, const goal_allocator *alloc);
GOAL_API goal_status goal_progress_start(goal_progress *p, goal_exec *e); /* start e there */
GOAL_API goal_status goal_progress_wait(goal_progress *p, goal_exec *e);  /* its final status */
GOAL_API void goal_progress_destroy(goal_progress *p);  /* waits for what it holds */

#ifdef __cplusplus
}
#endif
#endif /* GOAL_SCHED_H_INCLUDED */
