/* goal_mpi.h - v0.1.0 - run GOAL schedules over MPI: a transport on MPI point-to-point, and
   collectives in the shape of MPI_Ibcast / MPI_Wait that build and cache their schedules.

   In exactly ONE .c or .cpp file:   #define GOAL_MPI_IMPLEMENTATION   then
   #include "goal_mpi.h"   builds its implementation only; goal.h's, goal_sched.h's,
   goal_algos.h's, goal_sim.h's and goal_tune.h's must be in the program too: GOAL_ALL_IMPLEMENTATION
   instead builds all of them in that file. goal_mpi.h includes goal_tune.h, whose search picks COLL_auto's algorithm.
   Compile with your MPI's wrapper: mpicc (C99 and later) or mpicxx.

   Sections: OVERVIEW · STEP BY STEP · TAGS AND CONTEXTS · PROGRESS · FAILURES · CHECKS ·
             CACHE · PREPARED · AUTO · DATATYPES AND OPS · CONFIGURATION · LICENSE

   OVERVIEW
   --------
   goal_mpi_create duplicates the communicator you give it (MPI_Comm_dup, collective), so
   schedules never match the application's own messages, and sets MPI_ERRORS_RETURN on the
   duplicate so that MPI errors come back as libgoal statuses. goal_mpi_transport is a
   goal_transport for goal_exec (goal_sched.h): post = MPI_Isend / MPI_Irecv, test =
   MPI_Testsome, never blocking (both libraries spin in a wait anyway), cancel = MPI_Cancel.
   On top of it, a collective is an algorithm of goal_algos.h with its parameters (or your
   own builder callback): goal_mpi_start builds this rank's schedule once,
   caches it, and starts it; goal_mpi_test / goal_mpi_wait finish it; goal_mpi_run does both.
   The LibNBC design (Hoefler et al., SC07): schedule caching, a fresh tag space per
   operation on a duplicated communicator, progress inside test and wait.

   STEP BY STEP
   ------------
     goal_mpi *m; goal_error err;
     goal_mpi_desc md = {0};  md.comm = MPI_COMM_WORLD;
     if (goal_mpi_create(&m, &md, &err) != GOAL_OK) puts(err.msg);   // collective
     goal_algo_desc d = {0};
     d.algo = "bcast_binomial"; d.count = n; d.dtype = GOAL_INT32; d.root = 0;
     goal_mpi_request *r;
     goal_mpi_algo_start(m, &d, NULL, buf, &r);       // like MPI_Ibcast(buf, n, MPI_INT, 0, ..)
     while (goal_mpi_test(&r) == GOAL_PENDING) compute();   // or goal_mpi_wait(&r)
     goal_mpi_destroy(m);                             // collective (MPI_Comm_free)
   For schedules of your own, goal_mpi_start takes a goal_mpi_coll: a build_fn that appends this
   rank's part to a goal_graph (rank and size are the graph's), a key naming its parameters
   for the cache, and the slots. Slots are goal_sched.h's: for the algorithms slot 0 is the
   input (MPI's sendbuf) and slot 1 the output (recvbuf); goal_mpi_algo_* size them from the
   schedule, so they take plain pointers as MPI does. A finished request (done or failed)
   is freed and *req set to NULL; its status is the return value, and goal_mpi_error tells
   the details, with MPI's own error string when MPI failed.

   TAGS AND CONTEXTS
   -----------------
   An execution's context (goal_exec_desc.context) and a message's tag share MPI's tag
   space on the duplicate:  MPI tag = context * T + tag,  T = goal_mpi_desc.tags (tags per
   context, default 64). Contexts 0 .. C-1 are usable, C = floor(MPI_TAG_UB / T); the tag
   C * T is the failure notice (FAILURES). MPI_TAG_UB is at least 32767 (MPI standard), so
   with T = 64 there are at least 511 contexts; Open MPI gives 2^31-1, MPICH 2^28-1 (ch4).
   A post with tag >= T or context >= C fails with GOAL_ERR_LIMIT and says which.
   Wildcards: a recv from GOAL_ANY peer becomes MPI_ANY_SOURCE with the exact MPI tag, so it
   stays within its context. A recv with GOAL_ANY tag is refused (GOAL_ERR_MATCH): MPI has
   no tag ranges, and MPI_ANY_TAG would also match other contexts' messages and the
   failure notice. Use explicit tags (every goal_algos.h algorithm does).
   The collectives number their operations: the k-th goal_mpi_start (or _run) on a goal_mpi
   uses context k mod C. As with MPI collectives, every rank must start the collectives of
   one goal_mpi in the same order. At most C operations may be in flight at once; starting
   one whose context is still in use on this rank fails with GOAL_ERR_LIMIT. A raw
   goal_exec on goal_mpi_transport picks its own context: then do not mix it with
   goal_mpi_start on the same goal_mpi, or use contexts the counter will not reach.
   Messages are limited to INT_MAX bytes (MPI's int count); larger is GOAL_ERR_SIZE.

   PROGRESS
   --------
   MPI only moves messages inside MPI calls. goal_mpi_test progresses every operation in
   flight on its goal_mpi (not just its own), once, without blocking, with one
   MPI_Testsome for all of them (not one per operation); goal_mpi_wait
   repeats that until its operation finished (MPI's rule: waiting on one operation
   progresses the others, so ranks that wait in different orders do not deadlock).
   The application's own traffic on the original communicator is unaffected.
   Cost per message is constant however many are in flight (a pipelined chain of 10^5
   segments costs 10^5 times one, not 10^10): requests wait in channels, one per (kind,
   peer, MPI tag), which MPI matches in posting order, so only a channel's oldest request
   can finish next and only those are tested (one MPI_Testsome over the channels, then the
   ones behind a finished head while they are done). At most goal_mpi_desc.window (64) of
   a channel are with MPI at once; the rest are posted, in order, as earlier ones finish
   (a recv from any source first posts every waiting recv of its tag, so matching order
   is MPI's). Finished requests go to the executor in batches (when they are 1/16 of the
   execution's, or after 1/64 of its count of its own tests in a row in which none of its
   requests finished: another operation's news does not hold it back), so the
   executor's scan of its requests is paid once per batch. Memory for records and
   channels is provisioned when an operation starts (sends + recvs of its schedule), so a
   repeated collective still allocates nothing.
   The window relies on the schedule being correct under synchronous sends (as goal_inproc
   checks): a send may wait for its recv to be posted.
   Small messages: a schedule of at most 64 actions and 32 messages -- every algorithm at a
   few ranks, the exchanges' rounds (recursive doubling, Rabenseifner, dissemination, the
   trees' levels) and the pipelines of a few segments -- skips the channels and the
   executor's start and tests. When it is cached, a plan is decoded from it: its local steps
   and messages (slot, offset, size, peer, tag), by round (the messages on the longest chain
   before them), a round's receives first (those that wait for none of its local steps),
   each with the actions it must wait for. A start runs what waits for nothing (local steps
   through the executor's own code: goal_exec_local, so user functions and the
   MPI_Reduce_local bridges as always) and hands those messages to MPI at the addresses of
   the slots bound now, a message finding its receive posted; a test is an MPI_Testsome of
   them and the failure notice (a wait: MPI_Test of them in order while they are done, else
   MPI_Waitsome), and whenever some finished (each once those posted before it on its
   channel (kind, peer, tag) have, as the channels report them), what they held back goes.
   So no message waits for one it would not wait for on the channels (a pipeline's segments
   each go as theirs arrive, a message that may start once another started goes with it): a
   plan cannot deadlock where the schedule does not. goal_mpi_wait on the only operation in
   flight on its goal_mpi (without timeout_ms) lets MPI wait: MPI_Waitsome on those requests
   until they finished (or on the channels' heads, for a schedule of at most 64 messages)
   instead of a loop of tests.
   A blocking call (goal_mpi_run, goal_mpi_algo_run, goal_mpi_algo_run_fns) whose plan is
   flat -- no message waits for another, as in a one-round schedule: every algorithm at 2
   ranks, the linear ones, a tree's leaves -- with nothing else in flight on its goal_mpi, no
   check and no timeout_ms, never becomes an operation in flight: it runs its steps and
   posts its messages in plan order, MPI_Tests them in turn while they are done (else
   MPI_Waitsome with the failure notice, as above), then runs the steps they held back. The
   executor could start nothing sooner, and the call costs about half the instructions
   (make bench-calls).
   A message MPI cannot take as the schedule has it (a tag beyond the context, a bad peer,
   more than INT_MAX bytes) keeps the schedule on the channels, whose post says why.

   FAILURES
   --------
   When an operation fails on one rank (an MPI error, a user function, a failing wrapped
   transport), the other ranks would wait forever for its messages. So the failing rank
   calls goal_mpi_revoke, which sends a small notice to every other rank (the reserved tag
   C * T); each rank keeps a recv for it posted, and the transport tests it together with
   every batch of requests. On a revoked goal_mpi every operation in flight and every later
   one fails: GOAL_ERR_TRANSPORT, with "rank R revoked: ..." in goal_mpi_error. That is
   sound: a rank either finishes its part without the failed rank's messages, or learns of
   the failure; nothing depends on timing. The collectives revoke on any local failure;
   users of the raw transport call goal_mpi_revoke themselves. After a revoke, destroy the
   goal_mpi (its tag space may hold unmatched messages) and create another. destroy receives
   every notice sent to this rank (one MPI_Allreduce counts them) and then, when any rank
   revoked, does not free the duplicate: MPI hands a freed communicator's context to a later
   duplicate, unmatched messages and all (MPICH to the next one), where a stray message of
   the failed operation would meet a recv of the same context and tag (a truncated recv, or
   wrong data). So each revoked goal_mpi keeps one MPI communicator until MPI_Finalize.
   In-flight requests of a failed execution are cancelled: a recv with MPI_Cancel and
   completed; a send with MPI_Cancel and then released (MPI_Request_free), since some
   libraries cannot cancel sends and would make a wait hang. Such a send may still read its
   buffer: keep user buffers valid until goal_mpi_destroy after a failure (the collectives
   keep a failed operation's scratch memory until then).

   CHECKS
   ------
   goal_mpi_desc.check = 1 (the drop-in: GOAL_MPI_CHECK=1), as MPICH's collective checking:
   before an operation starts, its ranks compare a digest of its cache key (for the
   algorithms: algorithm, parameters, count, type, op, root; not a vector collective's
   counts, displacements or own count, which each rank passes its own) with one nonblocking
   MPI_Iallreduce on the duplicate; if any rank differs, the operation fails on every rank
   with GOAL_ERR_MATCH ("the ranks disagree on ..."), instead of delivering wrong data. It
   costs one small allreduce per operation, on every start (ranks may have cached
   different schedules, so a check only on first use could leave one rank waiting).
   goal_mpi_desc.timeout_ms > 0: an operation not finished that long after its start fails
   (GOAL_ERR_TRANSPORT, "did not finish within T ms") and revokes the goal_mpi (FAILURES),
   so survivors of a dead rank end instead of spinning; 0 waits forever.

   CACHE
   -----
   Key: (build_fn, the key bytes), within one goal_mpi, which stands for one communicator
   (its duplicate): rank and size are fixed by it. goal_mpi_algo_* make the key from every
   field of goal_algo_desc that shapes the schedule: the name, root, count, dtype, op, fn, in_place,
   noncommutative, nway, segment, radix, tag, participants, receivers, slots and offsets, and for
   the vector collectives the counts and displacements (not the allocator). Entries live
   until goal_mpi_destroy: one schedule per distinct key, with the executions that finished
   on it (as many as were once in flight together), which later starts reuse: a repeated
   collective allocates nothing. The last starts of goal_mpi_algo_* are remembered (8, by
   the name's address and the count): a desc equal to one of them byte for byte (a vector
   collective's arrays by content, up to 16 ranks) finds its entry without building the
   key (nor picking COLL_auto's algorithm again).

   PREPARED
   --------
   A collective called again and again on the same buffers (a solver's dot product, a time
   step's barrier) can be prepared once, as MPI 4's persistent collectives are:
     goal_mpi_prepared *p;
     goal_mpi_algo_prepare(m, &d, in, out, &p);   // local: the schedule found or built, bound
     for (...) goal_mpi_prepared_run(p);           // or goal_mpi_prepared_start(p, &r) + wait
     goal_mpi_prepared_free(&p);
   A run reads and writes in and out as they are then, with d as it was at the prepare
   (later changes to *d do not reach it). It skips what every goal_mpi_algo_* call does
   before its messages -- the comparison of d with the remembered starts (CACHE), the
   request's reuse and bind -- so a small flat plan's call costs about 210-260 of libgoal's
   own instructions instead of 320-370 (make bench-calls, prepared:ALGO). Each run is a
   collective start on m like any other (the same order on every rank, contexts, checks,
   FAILURES); one run of p at a time: a start while the last one is in flight, or a free,
   is GOAL_ERR_STATE, a local misuse that does not revoke m. After a failure m is revoked,
   and p's runs say so. in, out and the user functions (_fns keeps the array, not a copy)
   must stay valid while p is. goal_mpi_destroy frees the prepared collectives left: their
   handles are gone with m. goal_mpi_prepare does the same for a goal_mpi_coll (a schedule
   of your own, as goal_mpi_start takes it): its slots' data and user functions must stay
   valid; its key, args and the slots array itself are read at the prepare only.

   AUTO
   ----
   The algorithm name COLL_auto (bcast_auto, allreduce_auto, ... for goal_algos.h's tuned
   collectives: bcast reduce allreduce allgather alltoall gather scatter reduce_scatter
   barrier scan) lets the LogGOPS model choose: goal_tune_best simulates every algorithm of
   COLL with default parameters at the communicator's size under goal_mpi_desc.model (zero:
   goal_sim.h's defaults; the drop-in reads GOAL_MPI_PARAMS, what goal probe writes) and
   takes the fastest, for the block's bytes (count x dtype size) rounded up to a power of two
   (the size class), among the algorithms with GOAL_ALGO_ORDERED when d->noncommutative and
   among those with GOAL_ALGO_INPLACE when the call is in place (an algorithm without it
   would refuse the call): MPI_IN_PLACE on allreduce, allgather and the other unrooted
   collectives (every rank passes it); for reduce, gather and scatter, where only the root
   passes it, set d->in_place = 1 on every rank (the non-roots use it only for the pick;
   without it an in-place root whose pick lacks GOAL_ALGO_INPLACE fails with GOAL_ERR_ARG,
   as the ranks must run one algorithm). That is the fastest configuration with default
   parameters in `goal tune -p SIZE --all` for that size (tune also searches parameters). The pick is computed once per (collective, size class, required flags)
   and cached in the goal_mpi; it depends only on
   the communicator's size, the model and the class, so every rank picks the same without
   communicating (the simulator is deterministic). The first call of a class costs the
   simulations (milliseconds at small sizes; the worlds goal tune leaves out are left out).
   goal_mpi_auto gives the pick without starting anything.

   RULES
   -----
   One goal_mpi is used by one thread at a time (MPI_THREAD_FUNNELED is enough).
   Must: call goal_mpi_create / goal_mpi_destroy collectively, after MPI_Init and before
   MPI_Finalize; keep buffers valid until their request finished; start collectives in the
   same order on every rank.
   Note: MPICH raises a failed request's error on MPI_COMM_WORLD, whose default handler
   aborts; so while the transport tests requests MPI_COMM_WORLD has MPI_ERRORS_RETURN, and
   its own handler is put back before the call returns.
   Must not: free the original communicator before goal_mpi_destroy (MPI would not mind,
   but the application's error handler stays the application's: only the duplicate's is
   changed); free an op or datatype while an operation reducing with it through a bridge
   (DATATYPES AND OPS) is in flight (MPI allows it for its own operations; the bridge
   calls MPI_Reduce_local with the handle); call goal_mpi_reduction_of from two threads at
   once (the bridges are process-wide).

   DATATYPES AND OPS
   -----------------
   goal_mpi_contiguous_bytes(type, count): the bytes libgoal moves for count elements when
   they lie contiguously (derived types with size = extent; the predefined pair types and
   long double with their padding), else -1 (the caller packs, or uses MPI). Every
   predefined type then moves as bytes. goal_mpi_reduction_of(type, op, count): how libgoal
   reduces: natively for MAX MIN SUM PROD LAND LOR LXOR BAND BOR BXOR on the C integer types
   and float/double; everything else (long double, complex, MINLOC/MAXLOC on the pair types,
   user ops of MPI_Op_create, MPI_C_BOOL ...) through MPI_Reduce_local, called from one of
   GOAL_MPI_BRIDGES (32) user functions, one per (op, type) pair (the paper's user-function
   signature has no context, so each pair gets a function of its own). A non-commutative op
   sets noncommutative (only algorithms with GOAL_ALGO_ORDERED); an element of a size
   libgoal has no dtype for (16, 12, 32 bytes) sets `whole`: only algorithms flagged
   GOAL_ALGO_WHOLE in goal_algos.h's registry (they never split a buffer mid-element). Pass the
   reduction's fns to goal_mpi_algo_start_fns (or goal_mpi_algo_run_fns). MPI_IN_PLACE: pass it as in (scatter's root:
   as out) to goal_mpi_algo_start; algorithms flagged GOAL_ALGO_INPLACE then read the input
   where MPI has it, without a copy; for the others the caller copies the input first
   (mpi/goalmpi.c does, and counts it).

   CONFIGURATION
   -------------
   GOAL_MPI_BRIDGES        (op, type) pairs bridged to MPI_Reduce_local, at most 32
   (and goal.h's GOAL_MALLOC, GOAL_FREE, GOAL_ASSERT, GOAL_API)

   LICENSE: MIT, as goal.h.
*/
#include "goal_sched.h"   /* before the guard, as the ones below: an inclusion after the macro builds theirs too */
#include "goal_algos.h"
#include "goal_tune.h"    /* goal_tune_best picks COLL_auto (and brings goal_sim.h's model options) */
#ifndef GOAL_MPI_H_INCLUDED
#define GOAL_MPI_H_INCLUDED
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goal_mpi goal_mpi;
typedef struct goal_mpi_desc {   /* zero-initialise, then set comm */
    MPI_Comm comm;               /* required: duplicated by goal_mpi_create */
    uint32_t tags;               /* tags per context (T above); default 64 */
    uint32_t window;             /* requests of one channel with MPI at once (PROGRESS); default 64 */
    int check;                   /* 1: compare each collective's parameters across ranks (CHECKS) */
    uint32_t timeout_ms;         /* 0: wait forever; else fail and revoke an operation not
                                    finished this long after its start (CHECKS) */
    goal_sim_desc model;         /* the LogGOPS model of COLL_auto (AUTO); zero: goal_sim.h's defaults */
    goal_allocator alloc;
} goal_mpi_desc;

/* Duplicates desc->comm (collective over it) and posts the failure-notice recv. */
GOAL_API goal_status goal_mpi_create(goal_mpi **out, const goal_mpi_desc *desc, goal_error *err);
/* Frees the cache and the duplicate (collective; a revoked one's is kept: FAILURES); cancels
   what is still in flight. */
GOAL_API void goal_mpi_destroy(goal_mpi *m);
/* The transport for goal_exec_desc.transport (its user pointer is m). */
GOAL_API goal_transport goal_mpi_transport(goal_mpi *m);
GOAL_API MPI_Comm goal_mpi_comm(const goal_mpi *m);      /* the duplicate */
GOAL_API uint32_t goal_mpi_contexts(const goal_mpi *m);  /* C: contexts 0 .. C-1 */
/* The last failure: status, "what failed: why" and MPI's error string when MPI failed. */
GOAL_API const goal_error *goal_mpi_error(const goal_mpi *m);
/* Tells every rank that this one gave up: operations on m fail everywhere (FAILURES). */
GOAL_API goal_status goal_mpi_revoke(goal_mpi *m, goal_status why);

/* ---- collectives ---------------------------------------------------------------------- */
/* Appends this rank's part to g (goal_graph_rank / _nranks); returns an action id >= 0 or
   a negative goal_status, and may explain it in err. */
typedef int32_t (*goal_mpi_build_fn)(goal_graph *g, const void *args, goal_error *err);
typedef struct goal_mpi_coll {   /* zero-initialise, then set what differs */
    goal_mpi_build_fn build_fn;  /* required */
    const void *args;            /* handed to build_fn */
    const void *key;             /* keylen bytes naming args for the cache (see CACHE); */
    size_t keylen;               /*   0: build_fn has one schedule */
    const goal_slot *slots;      /* bound to the schedule's slots, as in goal_exec_desc */
    uint32_t nslots;
    const goal_user_fn *user_fns;
    uint32_t nuser_fns;
    size_t agreed;               /* CHECKS compares the first `agreed` bytes of key (the rest
                                    is each rank's own, as neighbour lists); 0: all of it */
} goal_mpi_coll;
typedef struct goal_mpi_request goal_mpi_request;
/* Builds (or finds) this rank's schedule and starts it; *req is NULL when it failed. */
GOAL_API goal_status goal_mpi_start(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_request **req);
/* Progresses everything in flight on the request's goal_mpi; GOAL_PENDING or the final
   status, when the request is freed and *req set to NULL. */
GOAL_API goal_status goal_mpi_test(goal_mpi_request **req);
GOAL_API goal_status goal_mpi_wait(goal_mpi_request **req);   /* test until finished */
GOAL_API goal_status goal_mpi_run(goal_mpi *m, const goal_mpi_coll *c);   /* start, wait */

/* An algorithm of goal_algos.h on m's communicator: in = MPI's sendbuf (slot IN), out =
   recvbuf (slot OUT), sized from the schedule; NULL where this rank uses none. in and out
   must not overlap, except as MPI_IN_PLACE: in (scatter's root: out) = MPI_IN_PLACE sets
   d->in_place (goal_algos.h BUFFERS), for the algorithms flagged GOAL_ALGO_INPLACE (the
   others fail with GOAL_ERR_ARG: copy the input first). op GOAL_OP_USER needs goal_mpi_start. */
GOAL_API goal_status goal_mpi_algo_start(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out,
                                         goal_mpi_request **req);
GOAL_API goal_status goal_mpi_algo_run(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out);

/* Like goal_mpi_algo_start, with the user functions that d's GOAL_OP_USER ids name (d->fn). */
GOAL_API goal_status goal_mpi_algo_start_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns,
                                             uint32_t nfns, const void *in, void *out, goal_mpi_request **req);
GOAL_API goal_status goal_mpi_algo_run_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, uint32_t nfns,
                                           const void *in, void *out);   /* start, wait */

/* A prepared collective (PREPARED), as MPI 4's persistent ones (MPI_Bcast_init, MPI_Start):
   d's schedule found or built once and bound to in and out (as goal_mpi_algo_start takes
   them, MPI_IN_PLACE too), so that a run neither compares d with the remembered starts nor
   binds. Local, no communication; a failure revokes m, as a failed start does. */
typedef struct goal_mpi_prepared goal_mpi_prepared;
GOAL_API goal_status goal_mpi_algo_prepare(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out,
                                           goal_mpi_prepared **p);
GOAL_API goal_status goal_mpi_algo_prepare_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns,
                                               uint32_t nfns, const void *in, void *out, goal_mpi_prepared **p);
/* goal_mpi_start's prepared form: c's schedule found or built once and bound to its slots. */
GOAL_API goal_status goal_mpi_prepare(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_prepared **p);
/* A start of p (a collective start on its goal_mpi, as goal_mpi_algo_start's); finish it with
   goal_mpi_test or goal_mpi_wait. GOAL_ERR_STATE while its last start is in flight. */
GOAL_API goal_status goal_mpi_prepared_start(goal_mpi_prepared *p, goal_mpi_request **req);
GOAL_API goal_status goal_mpi_prepared_run(goal_mpi_prepared *p);   /* start, wait */
/* Frees *p and sets it to NULL (NULL: nothing); GOAL_ERR_STATE, nothing freed, while a start
   of it is in flight. goal_mpi_destroy frees the prepared collectives left. */
GOAL_API goal_status goal_mpi_prepared_free(goal_mpi_prepared **p);

/* COLL_auto's pick (AUTO) for tuned collective coll (GOAL_COLL_*, below GOAL_COLL_NTUNED) at `bytes` per block, among
   algorithms with every flag of `require` (0, GOAL_ALGO_ORDERED, GOAL_ALGO_INPLACE or both):
   computed once per size class and flags and cached; the same on every rank. GOAL_ERR_ARG
   for a bad coll or other flags; else what goal_tune_best says. */
GOAL_API goal_status goal_mpi_auto(goal_mpi *m, int coll, uint64_t bytes, uint32_t require, const goal_algo_info **out);

/* ---- MPI datatypes and ops (DATATYPES AND OPS) ---------------------------------------- */
typedef struct goal_mpi_reduction {
    goal_dtype dtype;            /* the element libgoal moves and splits at */
    uint64_t count;              /* elements of dtype */
    goal_op op;                  /* native op, or GOAL_OP_USER with fns[0] */
    const goal_user_fn *fns;     /* the bridge to MPI_Reduce_local (one function, static:
                                    pass it to goal_mpi_algo_start_fns or _run_fns), or NULL */
    int noncommutative;          /* 1: only algorithms that apply op in rank order */
    int whole;                   /* 1: an MPI element spans several dtype elements: only
                                    algorithms flagged GOAL_ALGO_WHOLE */
} goal_mpi_reduction;
/* How libgoal reduces count elements of t with op: natively when libgoal has the op on the
   type, else through MPI_Reduce_local (any MPI op, MPI_Op_create's too, on any type whose
   elements are contiguous). GOAL_ERR_TYPE for a type with holes (size != extent, or lb != 0)
   other than the predefined pair types and long double;
   GOAL_ERR_LIMIT when every bridge has an operation in flight (GOAL_MPI_BRIDGES (op, type)
   pairs at once; bridges of finished operations are given to new pairs as needed). */
GOAL_API goal_status goal_mpi_reduction_of(MPI_Datatype t, MPI_Op op, int count, goal_mpi_reduction *out);
/* The bytes of count elements of t when they lie contiguously from the buffer's address
   (so libgoal moves them as bytes; padding of the predefined pair types included), or -1. */
GOAL_API long long goal_mpi_contiguous_bytes(MPI_Datatype t, int count);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_MPI_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_MPI_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__MPI_IMPL_DONE)
#define GOAL__MPI_IMPL_DONE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* DIRECT (PROGRESS, small messages, in the doc block above): a schedule of at most
   GOAL__MPI_ITEMS actions and GOAL__MPI_DIRECT messages runs from a plan, without channels
   and without the executor's start and tests. */
#define GOAL__MPI_ITEMS 64        /* the bits of an item mask */
#define GOAL__MPI_DIRECT 32       /* the bits of a message mask */
typedef struct goal__mpi_pmsg { uint32_t slot; uint64_t offset; int count, peer, tag, recv; } goal__mpi_pmsg;
typedef struct goal__mpi_step {   /* a local action, decoded */
    goal_action a;
    uint32_t id;
    int native;                   /* a native op within its slots: goal_apply at once (goal__mpi_native); */
    int copy;                     /*   a copy goal_apply would take: memmove at once */
} goal__mpi_step;
typedef struct goal__mpi_item {   /* an action of the plan */
    uint64_t need;                /* the items (bit i: item[i]) that must have finished before it starts */
    uint64_t need_start;          /* ... that must have started (irequires) */
    int msg, step;                /* its message (msg[]) or local step (step[]); -1: not one */
} goal__mpi_item;
typedef struct goal__mpi_plan {
    uint32_t nitems, nmsgs, nsteps;
    uint32_t first;               /* flat (goal__mpi_plan_flat): the items before the wait; else 0 */
    uint64_t all;                 /* every item's bit */
    uint32_t mitem[GOAL__MPI_DIRECT];        /* message k's item */
    unsigned char chan[GOAL__MPI_DIRECT];    /* message k's channel: (kind, peer, tag), numbered */
    uint32_t nchan;               /* nchan < nmsgs: a channel has more than one message */
    uint64_t ready;               /* the items that need nothing */
    uint64_t freed[GOAL__MPI_ITEMS];         /* the items that need item i (finished or started): all after it */
    goal__mpi_pmsg msg[GOAL__MPI_DIRECT];    /* tag within the context */
    goal__mpi_item item[GOAL__MPI_ITEMS];    /* by round (messages on the longest chain before): a dependency order */
    goal__mpi_step step[1];       /* (allocated with the plan) */
} goal__mpi_plan;
typedef struct goal__mpi_entry {  /* one cached schedule */
    struct goal__mpi_entry *next; /* every entry, for destroy */
    struct goal__mpi_entry *hnext;/* in its hash bucket */
    uint64_t hash;
    uint64_t digest;              /* of the key alone: equal on every rank that agrees */
    struct goal_mpi_request *idle; /* finished requests of this schedule, kept for reuse */
    goal_mpi_build_fn build_fn;
    size_t nmsgs;                 /* sends and recvs: the most an execution has in flight */
    goal__mpi_plan *direct;       /* the plan of a small schedule (DIRECT), or NULL */
    size_t keylen;
    goal_schedule sched;
    unsigned char key[1];         /* keylen bytes (allocated with the entry) */
} goal__mpi_entry;

struct goal_mpi_request {
    goal_mpi *m;
    goal_mpi_request *next;       /* m's list of operations in flight, or the entry's idle list */
    goal__mpi_entry *entry;
    goal_exec *e;
    const goal_user_fn *fns;      /* what e was created with: reused only for the same */
    uint32_t nfns;
    int bound;                    /* e was bound by a goal_mpi_algo_* start to in, out (and no other slot) */
    const void *in, *out;
    struct goal_mpi_prepared *owner;   /* the prepared collective that keeps it (not reused), or NULL */
    uint32_t context;
    goal_status st;               /* GOAL_PENDING until it finished */
    int checking;                 /* the digests are being compared: not started yet */
    MPI_Request chk;
    uint64_t dig[4];              /* this rank's digest and its complement, then their maxima */
    double t0;                    /* MPI_Wtime at the start (timeout_ms) */
    int bridge;                   /* the MPI_Reduce_local bridge it holds (DATATYPES), or -1 */
    uint64_t dstarted, ddone;     /* DIRECT: the items started, finished */
    uint64_t dcand;               /* DIRECT: the items whose needs may have been met since the last pass */
    uint32_t dfin;                /* DIRECT: the messages MPI finished before one ahead of them on their channel */
    signed char dlast[GOAL__MPI_DIRECT];     /* DIRECT: the message posted last on each channel, or -1 */
    signed char dprev[GOAL__MPI_DIRECT], dnext[GOAL__MPI_DIRECT];   /* ... before and after message k on it */
    uint32_t dopen;               /* DIRECT: the messages MPI has */
    MPI_Request dreq[GOAL__MPI_DIRECT + 1];      /* the plan's messages handed to MPI, then the failure notice's recv */
    int didx[GOAL__MPI_DIRECT + 1];
    MPI_Status dst[GOAL__MPI_DIRECT + 1];
    void *dat[1];                 /* DIRECT: message k's address, then step j's two (goal__mpi_direct_bind; allocated with r) */
};
struct goal_mpi_prepared {
    goal_mpi *m;
    struct goal_mpi_prepared *next;   /* m's prepared collectives */
    goal_mpi_request *r;          /* its execution, bound once; NULL once one failed (m->failed holds it) */
    int busy;                     /* r is an operation in flight (goal_mpi_prepared_start) */
};

typedef struct goal__mpi_rec {    /* a request in flight, behind goal_req.handle */
    struct goal__mpi_rec *next, *prev;   /* in its channel (next: on the spare list) */
    struct goal__mpi_chan *chan;  /* NULL once finished */
    MPI_Request req;
    int32_t status;               /* GOAL_PENDING until finished */
    uint32_t context;
    int recv;                     /* cancel completes a recv, releases a send */
    void *data;                   /* what to post when it enters the window */
    int count;
} goal__mpi_rec;
typedef struct goal__mpi_chan {   /* pending requests MPI matches in order (see channels) */
    struct goal__mpi_chan *next;  /* in its hash bucket */
    goal__mpi_rec *head, *tail;
    goal__mpi_rec *waiting;       /* the first not yet posted (beyond the window), or NULL */
    uint32_t posted;              /* requests with MPI */
    int kind, peer, tag;          /* peer may be MPI_ANY_SOURCE; the MPI tag */
    uint32_t slot;                /* place in the live list */
} goal__mpi_chan;
#define GOAL__MPI_UNREP_MASK 255u /* finished, not handed over: counted per context mod 256 */
/* The starts of goal_mpi_algo_* remembered (CACHE): a desc seen before, compared as it is
   (its arrays by content), finds its entry without building, hashing or walking the key. */
#define GOAL__MPI_MEMO 16         /* remembered descs: a desc's home slot is a hash of its name, count, type and op */
#define GOAL__MPI_MEMO_WAYS 4     /*   plus its root, and it may sit there or in the next 3: so calls that take turns
                                       (up to 16 roots, or 4 descs in a memo that holds no others) keep a slot each */
#define GOAL__MPI_MEMO_P 16       /* a vector collective's arrays are kept up to this many ranks */
typedef struct goal__mpi_memo {
    goal__mpi_entry *e;           /* NULL: empty */
    uint64_t tag;                 /* the desc's hash: most misses end here */
    goal_algo_desc d;             /* the caller's desc (its arrays are compared by content) */
    int shape;                    /* 1, 2: in, out were MPI_IN_PLACE; 4 << k: array k was given */
    char name[48];                /* d.algo's text: the pointer alone could name other text later, */
    int fixed;                    /*   unless it is the registry's (goal_algo_find's name): 1 */
    int arr[4][GOAL__MPI_MEMO_P]; /* counts, displs, recv_counts, recv_displs */
} goal__mpi_memo;

struct goal_mpi {
    MPI_Comm comm;                /* the duplicate */
    int rank, size;
    uint32_t tags, contexts;
    uint64_t seq;                 /* operations started */
    uint32_t next;                /* the next one's context: seq mod contexts (kept, not divided) */
    goal_allocator a;
    goal_error err;
    goal__mpi_entry *cache;
    goal__mpi_entry **ctab;       /* the cache by hash of (build_fn, key) */
    goal__mpi_memo memo[GOAL__MPI_MEMO];
    uint32_t memo_turn;           /* which of a full window's slots the next desc takes */
    goal__mpi_memo *memo_last;    /* the slot found or filled last: looked at first */
    size_t nctab, nentries;
    goal_mpi_request *active;     /* in flight */
    goal_mpi_request *failed;     /* finished with an error: kept until destroy (FAILURES) */
    struct goal_mpi_prepared *prepared;   /* not freed yet, for destroy */
    int revoked;                  /* 1 once a notice was sent or received */
    int created;                  /* goal_mpi_create finished: destroy may talk to the others */
    int notice_in[2];             /* rank, status of a notice received */
    int notice_out[2];            /* of the notice this rank sent */
    MPI_Request notice_recv;
    MPI_Request *notice_sends;    /* size entries, once revoked */
    goal__mpi_chan **buckets;     /* channels by (kind, peer, MPI tag) */
    uint32_t nbuckets, nchans;
    goal__mpi_chan **live;        /* every channel (each has a head) */
    size_t nlive, livecap;
    goal__mpi_rec *spare;         /* finished records, for the next posts */
    goal__mpi_chan *spare_chans;  /* empty channels, likewise */
    size_t nrecs;                 /* records (and channels) provisioned */
    size_t msgs;                  /* messages of the operations in flight */
    uint32_t unrep[GOAL__MPI_UNREP_MASK + 1];
    uint32_t seen[GOAL__MPI_UNREP_MASK + 1];   /* unrep after the context's last test */
    uint32_t idle[GOAL__MPI_UNREP_MASK + 1];   /* the context's tests in a row in which none of its finished */
    int swept;                    /* 1 within a progress pass: its one MPI_Testsome is done */
    uint32_t window;              /* requests per channel with MPI at once */
    int check;
    goal_sim_desc model;          /* COLL_auto's (AUTO) */
    const goal_algo_info *autos[4][GOAL_COLL_NTUNED][66];   /* its picks by (required flags: 1
                                     ordered, 2 in place; coll; size class: 0 for 0 bytes, else
                                     1 + log2 of the bytes rounded up) */
    uint32_t timeout_ms;
    MPI_Request *mreq;            /* test's scratch: cap + 1 requests, indices, statuses, channels */
    int *idx;
    MPI_Status *mst;
    goal__mpi_chan **snap;
    int cap;
};

/* ---- >>> memory and errors -------------------------------------------------------------- */
static void *goal__mpi_alloc(goal_mpi *m, size_t bytes) { return goal__alloc(&m->a, bytes); }
static void goal__mpi_free(goal_mpi *m, void *p) { goal__free(&m->a, p); }

/* Records a failed MPI call with MPI's own words; truncation has its own status. */
static goal_status goal__mpi_mpi_failed(goal_mpi *m, int code, const char *call) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", code);
    MPI_Error_class(code, &cls);
    return goal__fail(&m->err, cls == MPI_ERR_TRUNCATE ? GOAL_ERR_TRUNCATE : GOAL_ERR_TRANSPORT, m->rank,
                         "rank %d: %s: %s", m->rank, call, text);
}

/* ---- >>> the transport ------------------------------------------------------------------ */

static goal_status goal__mpi_revoked(goal_mpi *m) {
    return goal__fail(&m->err, GOAL_ERR_TRANSPORT, m->rank, "rank %d revoked this communicator: %s",
                         m->notice_in[0], goal_strerror(m->notice_in[1]));
}
/* The MPI tag of (context, tag), or a negative status when it does not fit (see TAGS). */
static int goal__mpi_tag(goal_mpi *m, const goal_msg *msg) {
    if (msg->tag < 0)
        return goal__fail(&m->err, GOAL_ERR_MATCH, m->rank, "rank %d, action %d: a recv from any tag cannot be kept "
                             "within its context over MPI: give it a tag", m->rank, (int)msg->action);
    if ((uint32_t)msg->tag >= m->tags || msg->context >= m->contexts)
        return goal__fail(&m->err, GOAL_ERR_LIMIT, m->rank, "rank %d, action %d: tag %d, context %lu: MPI_TAG_UB allows "
                             "tags 0..%lu and contexts 0..%lu (goal_mpi_desc.tags sets the split)", m->rank,
                             (int)msg->action, (int)msg->tag, (unsigned long)msg->context,
                             (unsigned long)m->tags - 1, (unsigned long)m->contexts - 1);
    return (int)(msg->context * m->tags + (uint32_t)msg->tag);
}
/* ---- >>> channels: what MPI matches in order ---------------------------------------------
   MPI matches the sends (or the recvs) of one kind, peer, tag and communicator in posting
   order: of a channel's pending requests, only the oldest can be the next to finish. So
   test looks only at each channel's head (one Testsome over the live channels, then the
   heads behind a finished one while they are done), and hands finished requests to the
   executor in batches: an execution's n requests are scanned only when its finished ones are
   n/16, or after n/64 tests in a row in which nothing finished (so that the scan costs no
   more than the waiting it ends). A pipelined chain of s segments then costs O(1) per
   segment, not O(s). */
static goal_status goal__mpi_nomem(goal_mpi *m, const char *what) {
    return goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: %s: out of memory", m->rank, what);
}
static uint32_t goal__mpi_hash(int kind, int peer, int tag) {
    uint32_t h = (uint32_t)tag * 2654435761u ^ (uint32_t)peer * 40503u ^ (uint32_t)kind;
    return h ^ (h >> 15);
}
static goal__mpi_chan **goal__mpi_bucket(goal_mpi *m, int kind, int peer, int tag) {
    return &m->buckets[goal__mpi_hash(kind, peer, tag) & (m->nbuckets - 1)];
}
static int goal__mpi_rehash(goal_mpi *m) {
    uint32_t nb = m->nbuckets ? 2 * m->nbuckets : 64, i;
    goal__mpi_chan **old = m->buckets, *c;
    uint32_t onb = m->nbuckets;
    if (!(m->buckets = (goal__mpi_chan **)goal__calloc(&m->a, nb, sizeof *m->buckets))) { m->buckets = old; return 0; }
    m->nbuckets = nb;
    for (i = 0; i < onb; i++)
        while ((c = old[i]) != NULL) {
            goal__mpi_chan **b = goal__mpi_bucket(m, c->kind, c->peer, c->tag);
            old[i] = c->next; c->next = *b; *b = c;
        }
    goal__mpi_free(m, old);
    return 1;
}
/* The channel of (kind, peer, tag), made live (on the list test looks at) if it was not. */
static goal__mpi_chan *goal__mpi_channel(goal_mpi *m, int kind, int peer, int tag) {
    goal__mpi_chan *c, **b;
    if (m->nchans >= m->nbuckets && !goal__mpi_rehash(m)) return NULL;
    for (c = *(b = goal__mpi_bucket(m, kind, peer, tag)); c; c = c->next)
        if (c->kind == kind && c->peer == peer && c->tag == tag) return c;
    if (goal__reserve(&m->a, (void **)&m->live, &m->livecap, m->nlive + 1, sizeof *m->live) != GOAL_OK) return NULL;
    if ((c = m->spare_chans) != NULL) m->spare_chans = c->next;
    else if (!(c = (goal__mpi_chan *)goal__mpi_alloc(m, sizeof *c))) return NULL;
    memset(c, 0, sizeof *c);
    c->kind = kind; c->peer = peer; c->tag = tag;
    c->next = *b; *b = c;
    c->slot = m->nlive;
    m->live[m->nlive++] = c;
    m->nchans++;
    return c;
}
/* An empty channel leaves the live list and the table (channels live as long as their requests). */
static void goal__mpi_chan_drop(goal_mpi *m, goal__mpi_chan *c) {
    goal__mpi_chan **b = goal__mpi_bucket(m, c->kind, c->peer, c->tag);
    while (*b != c) b = &(*b)->next;
    *b = c->next;
    m->live[c->slot] = m->live[--m->nlive];
    m->live[c->slot]->slot = c->slot;
    m->nchans--;
    c->next = m->spare_chans;   /* kept: the next collective reuses it without allocating */
    m->spare_chans = c;
}
static void goal__mpi_unlink(goal_mpi *m, goal__mpi_rec *r) {
    goal__mpi_chan *c = r->chan;
    if (c->waiting == r) c->waiting = r->next;
    if (r->prev) r->prev->next = r->next; else c->head = r->next;
    if (r->next) r->next->prev = r->prev; else c->tail = r->prev;
    r->chan = NULL;
    if (!c->head) goal__mpi_chan_drop(m, c);
}
static goal__mpi_rec *goal__mpi_rec_new(goal_mpi *m) {
    goal__mpi_rec *r = m->spare;
    if (r) { m->spare = r->next; return r; }
    return (goal__mpi_rec *)goal__mpi_alloc(m, sizeof *r);
}
static void goal__mpi_rec_free(goal_mpi *m, goal__mpi_rec *r) { r->next = m->spare; m->spare = r; }

/* Hands r to MPI; a failure finishes r with MPI's words. */
static goal_status goal__mpi_issue(goal_mpi *m, goal__mpi_rec *r) {
    int rc = r->recv ? MPI_Irecv(r->data, r->count, MPI_BYTE, r->chan->peer, r->chan->tag, m->comm, &r->req)
                     : MPI_Isend(r->data, r->count, MPI_BYTE, r->chan->peer, r->chan->tag, m->comm, &r->req);
    if (rc != MPI_SUCCESS) { r->req = MPI_REQUEST_NULL; return goal__mpi_mpi_failed(m, rc, r->recv ? "MPI_Irecv" : "MPI_Isend"); }
    r->chan->posted++;
    return GOAL_OK;
}
/* Posts c's waiting requests while fewer than the window are with MPI. */
static goal_status goal__mpi_fill(goal_mpi *m, goal__mpi_chan *c, uint32_t window) {
    while (c->waiting && c->posted < window) {
        goal__mpi_rec *r = c->waiting;
        goal_status st = goal__mpi_issue(m, r);
        if (st != GOAL_OK) return st;
        c->waiting = r->next;
    }
    return GOAL_OK;
}
/* A recv from any source must come after every recv of its tag posted before it, or it could
   take their messages: those waiting behind a window are posted now. */
static goal_status goal__mpi_fill_tag(goal_mpi *m, int tag) {
    size_t k;
    goal_status st = GOAL_OK;
    for (k = 0; k < m->nlive && st == GOAL_OK; k++)
        if (m->live[k]->kind == GOAL_RECV && m->live[k]->tag == tag) st = goal__mpi_fill(m, m->live[k], UINT32_MAX);
    return st;
}
/* Whether MPI takes peer for a message of this kind on m: a rank of its communicator, or any
   source for a receive. */
static int goal__mpi_peer_ok(const goal_mpi *m, goal_kind kind, int32_t peer) {
    return peer < m->size && (peer >= 0 || (kind == GOAL_RECV && peer == GOAL_ANY));
}
/* The MPI tag of a message the transport can post, or a negative status saying why not. */
static int goal__mpi_msg_tag(goal_mpi *m, const goal_msg *msg) {
    int tag = goal__mpi_tag(m, msg);
    if (m->revoked) return goal__mpi_revoked(m);
    if (tag < 0) return tag;
    if (msg->size > INT_MAX)
        return goal__fail(&m->err, GOAL_ERR_SIZE, m->rank, "rank %d, action %d: %llu bytes: MPI counts stop at INT_MAX",
                             m->rank, (int)msg->action, (unsigned long long)msg->size);
    if (!goal__mpi_peer_ok(m, msg->kind, msg->peer))
        return goal__fail(&m->err, GOAL_ERR_PEER, m->rank, "rank %d, action %d: peer %d of %d ranks", m->rank,
                             (int)msg->action, (int)msg->peer, m->size);
    return tag;
}
static int goal__mpi_post(void *user, const goal_msg *msg, goal_req *req) {
    goal_mpi *m = (goal_mpi *)user;
    goal__mpi_rec *r;
    goal__mpi_chan *c;
    int tag = goal__mpi_msg_tag(m, msg), peer = msg->peer == GOAL_ANY ? MPI_ANY_SOURCE : msg->peer;
    goal_status st = GOAL_OK;
    if (tag < 0) return tag;
    if (msg->kind == GOAL_RECV && peer == MPI_ANY_SOURCE && (st = goal__mpi_fill_tag(m, tag)) != GOAL_OK) return st;
    if (!(r = goal__mpi_rec_new(m))) return goal__mpi_nomem(m, "post");
    if (!(c = goal__mpi_channel(m, (int)msg->kind, peer, tag))) { goal__mpi_rec_free(m, r); return goal__mpi_nomem(m, "post"); }
    memset(r, 0, sizeof *r);
    r->req = MPI_REQUEST_NULL; r->status = GOAL_PENDING; r->context = msg->context; r->recv = msg->kind == GOAL_RECV;
    r->data = msg->data; r->count = (int)msg->size;
    r->chan = c; r->prev = c->tail;
    if (c->tail) c->tail->next = r; else c->head = r;
    c->tail = r;
    /* An any-source receive is never held back: a specific one posted after it would
       otherwise overtake it in MPI's matching order. */
    if (!c->waiting && (c->posted < m->window || (r->recv && peer == MPI_ANY_SOURCE))) st = goal__mpi_issue(m, r);
    else if (!c->waiting) c->waiting = r;
    if (st != GOAL_OK) { goal__mpi_unlink(m, r); goal__mpi_rec_free(m, r); return st; }
    req->handle = r;
    return GOAL_PENDING;
}
static int goal__mpi_reserve(goal_mpi *m, int n) {
    int cap = m->cap ? m->cap : 16;
    if (n <= m->cap && m->mreq) return 1;   /* a sweep needs room for the notice even with no message */
    while (cap < n) cap *= 2;
    goal__mpi_free(m, m->mreq); goal__mpi_free(m, m->idx); goal__mpi_free(m, m->mst); goal__mpi_free(m, m->snap);
    m->mreq = (MPI_Request *)goal__mpi_alloc(m, ((size_t)cap + 1) * sizeof(MPI_Request));
    m->idx = (int *)goal__mpi_alloc(m, ((size_t)cap + 1) * sizeof(int));
    m->mst = (MPI_Status *)goal__mpi_alloc(m, ((size_t)cap + 1) * sizeof(MPI_Status));
    m->snap = (goal__mpi_chan **)goal__mpi_alloc(m, ((size_t)cap + 1) * sizeof(goal__mpi_chan *));
    m->cap = m->mreq && m->idx && m->mst && m->snap ? cap : 0;
    return m->cap != 0;
}
/* A post behind the window failed: every request still waiting in c fails with it (the
   execution fails at the first; they are the rest of its channel). */
static void goal__mpi_refuse(goal_mpi *m, goal__mpi_chan *c) {
    goal__mpi_rec *r = c->waiting, *next;
    c->tail = r->prev;
    if (c->tail) c->tail->next = NULL; else c->head = NULL;
    c->waiting = NULL;
    for (; r; r = next) {
        next = r->next;
        r->chan = NULL;
        r->status = (int32_t)m->err.status;
        m->unrep[r->context & GOAL__MPI_UNREP_MASK]++;
    }
}
/* The head of c finished with MPI error code e: it leaves the channel, waiting to be handed over. */
static void goal__mpi_finished(goal_mpi *m, goal__mpi_chan *c, int e) {
    goal__mpi_rec *r = c->head;
    r->req = MPI_REQUEST_NULL;   /* completed, or failed: gone either way */
    r->status = e == MPI_SUCCESS ? GOAL_OK : goal__mpi_mpi_failed(m, e, "MPI_Testsome");
    c->head = r->next;
    if (c->head) c->head->prev = NULL; else c->tail = NULL;
    r->chan = NULL;
    c->posted--;
    m->unrep[r->context & GOAL__MPI_UNREP_MASK]++;
    if (goal__mpi_fill(m, c, m->window) != GOAL_OK) goal__mpi_refuse(m, c);
}
/* Heads behind a finished one are often done too (a burst of segments): take them now. */
static void goal__mpi_follow(goal_mpi *m, goal__mpi_chan *c) {
    int flag = 0, rc;
    MPI_Status s;
    while (c->head) {
        rc = MPI_Test(&c->head->req, &flag, &s);
        if (rc == MPI_SUCCESS && !flag) return;
        goal__mpi_finished(m, c, rc);
    }
}
/* One MPI_Testsome over the live channels' heads and the failure-notice recv (one progress
   call of the library, not one per request); with block, MPI_Waitsome: MPI waits until one
   of them finished (goal_mpi_wait, PROGRESS). */
static goal_status goal__mpi_test_heads(goal_mpi *m, int block) {
    int k, got = 0, rc, n = (int)m->nlive;
    if (!goal__mpi_reserve(m, n)) return goal__mpi_nomem(m, "test");
    for (k = 0; k < n; k++) { m->snap[k] = m->live[k]; m->mreq[k] = m->live[k]->head->req; }
    m->mreq[n] = m->notice_recv;
    rc = block ? MPI_Waitsome(n + 1, m->mreq, &got, m->idx, m->mst) : MPI_Testsome(n + 1, m->mreq, &got, m->idx, m->mst);
    m->notice_recv = m->mreq[n];
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) return goal__mpi_mpi_failed(m, rc, "MPI_Testsome");
    for (k = 0; got != MPI_UNDEFINED && k < got; k++) {
        int i = m->idx[k];
        if (i == n) { m->revoked = 1; continue; }   /* the notice */
        goal__mpi_finished(m, m->snap[i], rc == MPI_ERR_IN_STATUS ? m->mst[k].MPI_ERROR : MPI_SUCCESS);
        goal__mpi_follow(m, m->snap[i]);
    }
    for (k = 0; got != MPI_UNDEFINED && k < got; k++)   /* after: dropping reorders the live list */
        if (m->idx[k] < n && !m->snap[m->idx[k]]->head) goal__mpi_chan_drop(m, m->snap[m->idx[k]]);
    return m->revoked ? goal__mpi_revoked(m) : GOAL_OK;
}
/* Hands the finished requests among reqs (one execution's, one context) to the executor. */
static int goal__mpi_hand_over(goal_mpi *m, goal_req *reqs, int n) {
    int k, done = 0;
    uint32_t *left = &m->unrep[((goal__mpi_rec *)reqs[0].handle)->context & GOAL__MPI_UNREP_MASK];
    for (k = 0; k < n; k++) {
        goal__mpi_rec *r = (goal__mpi_rec *)reqs[k].handle;
        if (r->status == GOAL_PENDING) continue;
        reqs[k].status = r->status;
        reqs[k].handle = NULL;
        goal__mpi_rec_free(m, r);
        done++;
    }
    *left -= (uint32_t)done < *left ? (uint32_t)done : *left;
    return done;
}
/* The batching rule (channels, above) for one execution's reqs, all of one context: hands
   them over when the finished are 1/16 of them, or after n/64 of its tests in a row in which
   none of its requests finished (others' news does not count: it would hold this one back). */
static int goal__mpi_batch(goal_mpi *m, goal_req *reqs, int n) {
    uint32_t c, ready;
    int done;
    if (n == 0) return 0;
    c = ((goal__mpi_rec *)reqs[0].handle)->context & GOAL__MPI_UNREP_MASK;
    ready = m->unrep[c];
    m->idle[c] = ready > m->seen[c] ? 0 : m->idle[c] + 1;
    m->seen[c] = ready;
    if (ready == 0 || (n > 64 && (uint64_t)ready * 16 < (uint64_t)n && (uint64_t)m->idle[c] * 64 < (uint64_t)n)) return 0;
    done = goal__mpi_hand_over(m, reqs, n);
    m->seen[c] = m->unrep[c];
    return done;
}
/* MPICH raises a request's error (a truncated recv) on MPI_COMM_WORLD's handler, not on the
   request's communicator, and the default handler aborts: so under MPICH, MPI_COMM_WORLD
   returns errors while we test, and gets its own handler back after (four calls per sweep,
   and per wait of a DIRECT schedule however many MPI_Waitsome it takes; other libraries
   are spared them). */
#ifdef MPICH_VERSION
#define GOAL__MPI_WORLD_RAISES 1
#else
#define GOAL__MPI_WORLD_RAISES 0
#endif
/* MPI_COMM_WORLD returns errors from goal__mpi_world_quiet to goal__mpi_world_back, under
   MPICH (above); elsewhere both do nothing. */
static void goal__mpi_world_quiet(MPI_Errhandler *app) {
    if (!GOAL__MPI_WORLD_RAISES) return;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, app);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}
static void goal__mpi_world_back(MPI_Errhandler *app) {
    if (!GOAL__MPI_WORLD_RAISES) return;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, *app);
    MPI_Errhandler_free(app);
}
static goal_status goal__mpi_direct_test(goal_mpi *m, goal_mpi_request *r, int block);
/* The one MPI_Testsome of a progress pass (goal__mpi_test_heads), or with block the
   MPI_Waitsome of a wait; with r, of r's messages alone (DIRECT: with block, until they
   finished). */
static goal_status goal__mpi_sweep(goal_mpi *m, goal_mpi_request *r, int block) {
    MPI_Errhandler app;
    goal_status st;
    goal__mpi_world_quiet(&app);
    st = r ? goal__mpi_direct_test(m, r, block) : goal__mpi_test_heads(m, block);
    goal__mpi_world_back(&app);
    return st;
}
/* Within goal__mpi_progress's pass the sweep is done once for every execution; a raw
   goal_exec on the transport sweeps on each test. block is ignored (both libraries spin in
   a blocking wait anyway): the executor simply asks again. */
static int goal__mpi_test(void *user, goal_req *reqs, int n, int block) {
    goal_mpi *m = (goal_mpi *)user;
    goal_status st;
    (void)block;
    if (m->revoked) return goal__mpi_revoked(m);
    if (!m->swept && (st = goal__mpi_sweep(m, NULL, 0)) != GOAL_OK) return st;
    return goal__mpi_batch(m, reqs, n);
}
static void goal__mpi_cancel(void *user, goal_req *req) {
    goal_mpi *m = (goal_mpi *)user;
    goal__mpi_rec *r = (goal__mpi_rec *)req->handle;
    if (!r) return;
    req->handle = NULL;
    if (r->status != GOAL_PENDING) m->unrep[r->context & GOAL__MPI_UNREP_MASK]--;   /* finished, not handed over */
    else {
        if (r->req != MPI_REQUEST_NULL) {
            MPI_Cancel(&r->req);
            if (r->recv) MPI_Wait(&r->req, MPI_STATUS_IGNORE);   /* a recv: its cancel completes locally */
            else MPI_Request_free(&r->req);                       /* a send may never complete (FAILURES) */
            r->chan->posted--;
        }
        goal__mpi_unlink(m, r);
    }
    goal__mpi_rec_free(m, r);
}

/* ---- >>> DIRECT: a plan's actions, each started once what it needs finished ------------------ */
/* Runs the plan's local step k: a native reduction or copy as goal_exec_local would after its
   checks (made when the plan was decoded; a copy's by goal__mpi_plan_new, a NULL address
   left to goal_apply's), the others through it. */
static goal_status goal__mpi_direct_local(goal_mpi_request *r, int k) {
    const goal__mpi_plan *p = r->entry->direct;
    const goal__mpi_step *x = &p->step[k];
    const goal_action *a = &x->a;
    void *to, *from;
    if (!x->native) return goal_exec_local(r->e, x->id, a);
    to = r->dat[p->nmsgs + 2 * (uint32_t)k];
    from = r->dat[p->nmsgs + 2 * (uint32_t)k + 1];
    if (!x->copy || !to || !from) return goal_apply(a->op, a->dtype, to, from, a->buf.size);
    memmove(to, from, (size_t)a->buf.size);
    return GOAL_OK;
}
/* Hands message k to MPI at its address (goal__mpi_direct_bind). */
static goal_status goal__mpi_direct_send(goal_mpi *m, goal_mpi_request *r, int k) {
    const goal__mpi_plan *p = r->entry->direct;
    const goal__mpi_pmsg *x = &p->msg[k];
    int tag = (int)(r->context * m->tags) + x->tag, c = p->chan[k];
    int rc = x->recv ? MPI_Irecv(r->dat[k], x->count, MPI_BYTE, x->peer, tag, m->comm, &r->dreq[k])
                     : MPI_Isend(r->dat[k], x->count, MPI_BYTE, x->peer, tag, m->comm, &r->dreq[k]);
    if (rc != MPI_SUCCESS) { r->dreq[k] = MPI_REQUEST_NULL; return goal__mpi_mpi_failed(m, rc, x->recv ? "MPI_Irecv" : "MPI_Isend"); }
    r->dopen |= 1u << k;
    if (p->nchan == p->nmsgs) return GOAL_OK;   /* a message per channel: nothing to order */
    r->dprev[k] = r->dlast[c];
    r->dnext[k] = -1;
    if (r->dlast[c] >= 0) r->dnext[r->dlast[c]] = (signed char)k;
    r->dlast[c] = (signed char)k;
    return GOAL_OK;
}
/* The number of x's lowest set bit (x != 0): de Bruijn's multiply, in portable C. */
static uint32_t goal__mpi_low_bit(uint64_t x) {
    static const unsigned char at[64] = {
        0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
        63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
    return at[((x & (~x + 1)) * 0x022FDD63CC95386Dull) >> 58];
}
/* Starts, in plan order, every candidate item whose needs are met: a local step runs (and is
   finished), a message goes to MPI; what either frees comes after it in plan order (a
   dependency order), so one pass starts all it can. */
static goal_status goal__mpi_direct_pass(goal_mpi *m, goal_mpi_request *r) {
    const goal__mpi_plan *p = r->entry->direct;
    uint64_t left = r->dcand & ~r->dstarted;
    goal_status st;
    if (m->revoked) return goal__mpi_revoked(m);
    for (r->dcand = 0; left; left &= left - 1) {
        uint32_t i = goal__mpi_low_bit(left);
        const goal__mpi_item *x = &p->item[i];
        if ((x->need & ~r->ddone) || (x->need_start & ~r->dstarted)) continue;   /* a candidate again when they are */
        r->dstarted |= (uint64_t)1 << i;
        if (x->msg >= 0) st = goal__mpi_direct_send(m, r, x->msg);
        else if ((st = goal__mpi_direct_local(r, x->step)) == GOAL_OK) r->ddone |= (uint64_t)1 << i;
        if (st != GOAL_OK) return st;
        left |= p->freed[i];
    }
    return GOAL_OK;
}
/* r's state before a run of its plan: nothing started. */
static void goal__mpi_direct_reset(goal_mpi_request *r) {
    const goal__mpi_plan *p = r->entry->direct;
    uint32_t c;
    r->dstarted = r->ddone = 0;
    r->dcand = p->ready;
    r->dfin = 0;
    r->dopen = 0;
    for (c = 0; p->nchan < p->nmsgs && c < p->nchan; c++) r->dlast[c] = -1;
}
static goal_status goal__mpi_direct_start(goal_mpi *m, goal_mpi_request *r) {
    goal_status st;
    goal__mpi_direct_reset(r);
    st = goal__mpi_direct_pass(m, r);
    return st != GOAL_OK ? st : GOAL_PENDING;   /* a plan has a message */
}
/* r's message k counts as finished: the items that need it may start. */
static void goal__mpi_direct_count(goal_mpi_request *r, int k) {
    const goal__mpi_plan *p = r->entry->direct;
    r->ddone |= (uint64_t)1 << p->mitem[k];
    r->dcand |= p->freed[p->mitem[k]];
}
/* r's message k finished (or failed: gone either way). It counts once the messages posted
   before it on its channel have, as the channels report them: MPI may finish a later
   receive of a channel first, and what that frees could then send before what the earlier
   one frees. */
static void goal__mpi_direct_finished(goal_mpi_request *r, int k) {
    const goal__mpi_plan *p = r->entry->direct;
    r->dreq[k] = MPI_REQUEST_NULL;
    r->dopen &= ~(1u << k);
    if (p->nchan == p->nmsgs) { goal__mpi_direct_count(r, k); return; }   /* a message per channel */
    r->dfin |= 1u << k;
    if (r->dprev[k] >= 0 && !(r->ddone >> p->mitem[r->dprev[k]] & 1u)) return;
    for (; k >= 0 && (r->dfin >> k & 1u); k = r->dnext[k]) {
        r->dfin &= ~(1u << k);
        goal__mpi_direct_count(r, k);
    }
}
/* Before a wait: MPI_Test of the messages with MPI in order while they are done, as a small
   one's mostly are (a send finished as it was posted, a receive whose message came first).
   That costs less than a wait over them and the failure notice, which only a message that
   must wait needs: one whose messages all finished has finished, notice or not (FAILURES). */
static goal_status goal__mpi_direct_done(goal_mpi *m, goal_mpi_request *r) {
    int k, flag = 0, rc;
    for (k = 0; k < GOAL__MPI_DIRECT && r->dopen >> k; k++) {
        if (!(r->dopen >> k & 1u)) continue;
        rc = MPI_Test(&r->dreq[k], &flag, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !flag) break;
        goal__mpi_direct_finished(r, k);
        if (rc != MPI_SUCCESS) return goal__mpi_mpi_failed(m, rc, "MPI_Test");
    }
    return GOAL_OK;
}
/* MPI_Testsome of r's messages with MPI and the failure notice; with block, when
   goal__mpi_direct_done found none finished, MPI_Waitsome until one finished (or failed, or
   the notice came). */
static goal_status goal__mpi_direct_test(goal_mpi *m, goal_mpi_request *r, int block) {
    int got = 0, k, n = (int)r->entry->direct->nmsgs, rc;
    uint64_t before = r->ddone;
    goal_status st = block ? goal__mpi_direct_done(m, r) : GOAL_OK;
    if (st != GOAL_OK || r->ddone != before || !r->dopen) return st;
    r->dreq[n] = m->notice_recv;
    rc = block ? MPI_Waitsome(n + 1, r->dreq, &got, r->didx, r->dst) : MPI_Testsome(n + 1, r->dreq, &got, r->didx, r->dst);
    m->notice_recv = r->dreq[n];
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) return goal__mpi_mpi_failed(m, rc, block ? "MPI_Waitsome" : "MPI_Testsome");
    for (k = 0; got != MPI_UNDEFINED && k < got; k++) {
        int i = r->didx[k], e = rc == MPI_ERR_IN_STATUS ? r->dst[k].MPI_ERROR : MPI_SUCCESS;
        if (i == n) { m->revoked = 1; continue; }
        goal__mpi_direct_finished(r, i);
        if (e != MPI_SUCCESS && st == GOAL_OK) st = goal__mpi_mpi_failed(m, e, block ? "MPI_Waitsome" : "MPI_Testsome");
    }
    return m->revoked ? goal__mpi_revoked(m) : st;
}
/* A test of r (with block, a wait in MPI until it finished); whenever messages finished,
   the items they free start. */
static goal_status goal__mpi_direct_step(goal_mpi *m, goal_mpi_request *r, int block) {
    const goal__mpi_plan *p = r->entry->direct;
    goal_status st;
    for (;;) {
        uint64_t before = r->ddone;
        if ((st = goal__mpi_sweep(m, r, block)) != GOAL_OK) return st;
        if (r->ddone == p->all) return GOAL_OK;
        if (r->ddone == before) return GOAL_PENDING;
        if ((st = goal__mpi_direct_pass(m, r)) != GOAL_OK) return st;
    }
}
/* Waits until r's messages all finished: MPI_Test of each in turn while they are done, as a
   small one's mostly are; at one that is not, MPI_Waitsome over them and the failure notice
   (goal__mpi_direct_test). Nothing waits on their order: the messages of a channel need no
   counting in turn. */
static goal_status goal__mpi_direct_all(goal_mpi *m, goal_mpi_request *r) {
    MPI_Errhandler app;
    goal_status st = GOAL_OK;
    int flag = 0, rc = MPI_SUCCESS;
    uint32_t k;
    goal__mpi_world_quiet(&app);
    while (st == GOAL_OK && r->dopen) {
        k = goal__mpi_low_bit(r->dopen);
        rc = MPI_Test(&r->dreq[k], &flag, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !flag) { st = goal__mpi_direct_test(m, r, 1); continue; }
        r->dreq[k] = MPI_REQUEST_NULL;   /* finished, or failed: gone either way */
        r->dopen &= ~(1u << k);
        if (rc != MPI_SUCCESS) st = goal__mpi_mpi_failed(m, rc, "MPI_Test");
    }
    goal__mpi_world_back(&app);
    return st;
}
/* A flat plan (goal__mpi_plan_flat) run to its end: its items before the wait in plan order,
   a wait in MPI until all its messages finished, then its other local steps. As nothing else
   is in flight and no message needs another, the executor could start nothing sooner. */
static goal_status goal__mpi_direct_flat(goal_mpi *m, goal_mpi_request *r) {
    const goal__mpi_plan *p = r->entry->direct;
    const goal__mpi_item *x = p->item, *wait = p->item + p->first, *end = p->item + p->nitems;
    goal_status st = GOAL_OK;
    goal__mpi_direct_reset(r);
    for (; st == GOAL_OK && x < wait; x++)
        st = x->msg >= 0 ? goal__mpi_direct_send(m, r, x->msg) : goal__mpi_direct_local(r, x->step);
    if (st == GOAL_OK) st = goal__mpi_direct_all(m, r);
    for (; st == GOAL_OK && x < end; x++) st = goal__mpi_direct_local(r, x->step);
    return st;
}
/* A failed request's messages still with MPI (as goal__mpi_cancel: FAILURES). A recv that
   matched a longer message before its cancel fails its wait: under MPICH on MPI_COMM_WORLD's
   handler, which returns errors meanwhile (GOAL__MPI_WORLD_RAISES). */
static void goal__mpi_direct_cancel(goal_mpi_request *r) {
    MPI_Errhandler app;
    int k;
    if (!r->dopen) return;
    goal__mpi_world_quiet(&app);
    for (k = 0; k < GOAL__MPI_DIRECT && r->dopen >> k; k++) {
        if (!(r->dopen >> k & 1u)) continue;
        MPI_Cancel(&r->dreq[k]);
        if (r->entry->direct->msg[k].recv) MPI_Wait(&r->dreq[k], MPI_STATUS_IGNORE);
        else MPI_Request_free(&r->dreq[k]);
        goal__mpi_direct_finished(r, k);
    }
    goal__mpi_world_back(&app);
}
/* Message j of s for the plan, or 0 when MPI cannot take it as it is (the channels' post
   then reports why, as for any schedule). */
static int goal__mpi_plan_msg(const goal_mpi *m, const goal_schedule *s, uint32_t j, goal__mpi_pmsg *x) {
    goal_action a;
    goal_schedule_action(s, j, &a);
    if (a.tag < 0 || (uint32_t)a.tag >= m->tags || a.buf.size > INT_MAX || !goal__mpi_peer_ok(m, a.kind, a.peer))
        return 0;
    x->slot = a.buf.slot; x->offset = a.buf.offset; x->count = (int)a.buf.size; x->tag = a.tag;
    x->recv = a.kind == GOAL_RECV;
    x->peer = a.peer == GOAL_ANY ? MPI_ANY_SOURCE : a.peer;
    return 1;
}
/* Whether a's step may skip goal_exec_local: a native op (reduction or copy) whose buffers
   pass its checks, which depend on the schedule alone. */
static int goal__mpi_native(const goal_schedule *s, const goal_action *a) {
    return a->kind == GOAL_EXEC && a->op != GOAL_OP_USER && goal__schedule_within(s, a->buf.slot, a->buf.offset, a->buf.size) &&
           goal__schedule_within(s, a->buf2.slot, a->buf2.offset, a->buf.size);
}
/* A plan is flat when no message needs another: it runs in plan order up to its first item
   that needs a message finished, then waits for all its messages, then runs the rest in plan
   order, every item's needs met where it stands. The number of items before the wait, or 0
   (not flat). */
static uint32_t goal__mpi_plan_flat(const goal__mpi_plan *p) {
    uint64_t started = 0, done = 0, msgs = 0;
    uint32_t i, first = 0;
    for (i = 0; i < p->nitems; i++) {
        const goal__mpi_item *x = &p->item[i];
        if (!first && (x->need & msgs)) { first = i; done |= msgs; }
        if ((x->need & ~done) || (x->need_start & ~started) || (first && x->msg >= 0)) return 0;
        started |= (uint64_t)1 << i;
        if (x->msg >= 0) msgs |= (uint64_t)1 << i;
        else done |= (uint64_t)1 << i;
    }
    return first ? first : p->nitems;
}
/* The plan of s when it is small enough (DIRECT), else NULL. Kahn's walk over its actions
   gives a dependency order (the executor's: first come first served) and each action's
   round (lvl: messages on its longest chain before it). The plan lists the actions by
   round: first the receives that need nothing of their round, then its local steps and
   other receives, then its sends (a message then finds its receive posted), each group in
   dependency order (a send may need a step of its round, nothing of a round needs its
   sends). It keeps for each item the items it needs finished (requires) or started
   (irequires), a nop passing on what it needs, the items that need it, and each message's
   channel (kind, peer, tag). A run counts a channel's messages as finished in the order it
   posted them, as the channels report them: then a message waits for nothing it would not
   wait for on the channels, and a plan cannot deadlock where the schedule does not. */
static goal__mpi_plan *goal__mpi_plan_new(goal_mpi *m, const goal_schedule *s, size_t nmsgs) {
    uint32_t cnt[GOAL__MPI_ITEMS], order[GOAL__MPI_ITEMS], pos[GOAL__MPI_ITEMS], i, j, k, head = 0, tail = 0, n = s->nactions,
             nsteps = 0, top = 0, pass;
    unsigned char lvl[GOAL__MPI_ITEMS], kind[GOAL__MPI_ITEMS], msg[GOAL__MPI_ITEMS], inner[GOAL__MPI_ITEMS];
    uint64_t need[GOAL__MPI_ITEMS], need_start[GOAL__MPI_ITEMS];
    goal__mpi_plan *p;
    if (nmsgs == 0 || nmsgs > GOAL__MPI_DIRECT || n > GOAL__MPI_ITEMS) return NULL;
    for (i = 0; i < n; i++) { cnt[i] = goal_schedule_nsrc(s, i); lvl[i] = inner[i] = 0; need[i] = need_start[i] = 0; }
    for (i = 0; i < s->nindep; i++) order[tail++] = GOAL__LE32(s->indep[i]);
    while (head < tail) {
        const uint32_t *deps;
        uint32_t nd;
        j = order[head++];
        nd = goal_schedule_deps(s, j, &deps);
        kind[j] = (unsigned char)GOAL__KIND(GOAL__LE32(s->recs[2 * j]));
        msg[j] = kind[j] == GOAL_SEND || kind[j] == GOAL_RECV;
        nsteps += !msg[j] && kind[j] != GOAL_NOP;
        if (lvl[j] > top) top = lvl[j];
        for (k = 0; k < nd; k++) {
            uint32_t d = GOAL__LE32(deps[k]) & ~GOAL__DEP_START;
            if (lvl[d] < lvl[j] + msg[j]) lvl[d] = (unsigned char)(lvl[j] + msg[j]);
            if (--cnt[d] == 0) order[tail++] = d;
        }
    }
    if (tail != n || !(p = (goal__mpi_plan *)goal__mpi_alloc(m, sizeof *p + nsteps * sizeof p->step[0]))) return NULL;
    memset(p, 0, sizeof *p);
    for (j = 0; j < n; j++) {   /* inner: after an action of its round (a local one) */
        const uint32_t *deps;
        uint32_t nd = goal_schedule_deps(s, j, &deps);
        for (k = 0; k < nd; k++) inner[GOAL__LE32(deps[k]) & ~GOAL__DEP_START] |= lvl[GOAL__LE32(deps[k]) & ~GOAL__DEP_START] == lvl[j];
    }
    for (nsteps = 0, k = 0; k <= top; k++)
        for (pass = 0; pass < 3; pass++)
            for (i = 0; i < n; i++) {
                goal__mpi_item *x;
                j = order[i];
                if (kind[j] == GOAL_NOP || lvl[j] != k ||
                    pass != (kind[j] == GOAL_RECV && !inner[j] ? 0u : kind[j] == GOAL_SEND ? 2u : 1u))
                    continue;
                x = &p->item[pos[j] = p->nitems++];
                x->msg = x->step = -1;
                if (msg[j]) {
                    if (!goal__mpi_plan_msg(m, s, j, &p->msg[p->nmsgs])) { goal__mpi_free(m, p); return NULL; }
                    p->mitem[p->nmsgs] = pos[j];
                    x->msg = (int)p->nmsgs++;
                } else {
                    goal__mpi_step *y = &p->step[nsteps];
                    goal_schedule_action(s, j, &y->a);
                    y->native = goal__mpi_native(s, &y->a);
                    y->copy = y->native && y->a.op == GOAL_OP_COPY && goal_op_check(y->a.op, y->a.dtype) == GOAL_OK &&
                              y->a.buf.size % goal_dtype_size(y->a.dtype) == 0;
                    y->id = j;
                    x->step = (int)nsteps++;
                }
            }
    p->nsteps = nsteps;
    for (k = 0; k < p->nmsgs; k++) {   /* channels: (kind, peer, tag) */
        for (i = 0; i < k && !(p->msg[i].recv == p->msg[k].recv && p->msg[i].peer == p->msg[k].peer && p->msg[i].tag == p->msg[k].tag); i++) {}
        p->chan[k] = (unsigned char)(i < k ? p->chan[i] : p->nchan++);
    }
    for (i = 0; i < n; i++) {   /* what each item needs; a nop passes on what it needs */
        const uint32_t *deps;
        uint32_t nd;
        j = order[i];
        nd = goal_schedule_deps(s, j, &deps);
        for (k = 0; k < nd; k++) {
            uint32_t d = GOAL__LE32(deps[k]) & ~GOAL__DEP_START;
            if (kind[j] == GOAL_NOP) need[d] |= need[j], need_start[d] |= need_start[j];
            else if (GOAL__LE32(deps[k]) & GOAL__DEP_START) need_start[d] |= (uint64_t)1 << pos[j];
            else need[d] |= (uint64_t)1 << pos[j];
        }
        if (kind[j] != GOAL_NOP) p->item[pos[j]].need = need[j], p->item[pos[j]].need_start = need_start[j];
    }
    for (i = 0; i < p->nitems; i++) {
        uint64_t both = p->item[i].need | p->item[i].need_start;
        if (!both) p->ready |= (uint64_t)1 << i;
        for (; both; both &= both - 1) p->freed[goal__mpi_low_bit(both)] |= (uint64_t)1 << i;
    }
    p->all = p->nitems == GOAL__MPI_ITEMS ? ~(uint64_t)0 : ((uint64_t)1 << p->nitems) - 1;
    p->first = goal__mpi_plan_flat(p);
    return p;
}

/* ---- >>> the communicator --------------------------------------------------------------- */
static goal_status goal__mpi_open(goal_mpi *m, MPI_Comm comm, goal_error *err) {
    int *ub = NULL, flag = 0, rc = MPI_Comm_dup(comm, &m->comm);
    if (rc != MPI_SUCCESS) { m->comm = MPI_COMM_NULL; return goal__mpi_mpi_failed(m, rc, "MPI_Comm_dup"); }
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &m->rank);
    MPI_Comm_size(m->comm, &m->size);
    /* MPI_TAG_UB is attached to MPI_COMM_WORLD; other communicators need not carry it. */
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    m->contexts = flag && ub && *ub > 0 ? (uint32_t)*ub / m->tags : 0;
    if (m->contexts == 0)
        return goal__fail(err, GOAL_ERR_LIMIT, m->rank, "goal_mpi_create: %lu tags per context leave no context "
                             "below MPI_TAG_UB %d", (unsigned long)m->tags, flag && ub ? *ub : 0);
    rc = MPI_Irecv(m->notice_in, 2, MPI_INT, MPI_ANY_SOURCE, (int)(m->contexts * m->tags), m->comm, &m->notice_recv);
    return rc == MPI_SUCCESS ? GOAL_OK : goal__mpi_mpi_failed(m, rc, "MPI_Irecv (failure notice)");
}
goal_status goal_mpi_create(goal_mpi **out, const goal_mpi_desc *desc, goal_error *err) {
    goal_mpi *m;
    goal_allocator a;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!out) return GOAL_ERR_ARG;
    *out = NULL;
    if (!desc || desc->comm == MPI_COMM_NULL)
        return goal__fail(err, GOAL_ERR_ARG, -1, "goal_mpi_create: needs a communicator");
    a = goal__allocator(&desc->alloc);
    m = (goal_mpi *)a.alloc_fn(sizeof *m, a.user);
    if (!m) return goal__fail(err, GOAL_ERR_NOMEM, -1, "goal_mpi_create: out of memory");
    memset(m, 0, sizeof *m);
    m->a = a;
    m->tags = desc->tags ? desc->tags : 64;
    m->window = desc->window ? desc->window : 64;
    m->check = desc->check != 0;
    m->model = desc->model;
    m->timeout_ms = desc->timeout_ms;
    m->notice_recv = MPI_REQUEST_NULL;
    m->err.rank = m->err.action = -1;
    st = goal__mpi_open(m, desc->comm, err);
    if (st != GOAL_OK) {
        if (err && err->status == GOAL_OK) *err = m->err;
        goal_mpi_destroy(m);
        return st;
    }
    m->created = 1;
    *out = m;
    return GOAL_OK;
}
goal_transport goal_mpi_transport(goal_mpi *m) {
    goal_transport t;
    t.user = m; t.post = goal__mpi_post; t.test = goal__mpi_test; t.cancel = goal__mpi_cancel;
    return t;
}
MPI_Comm goal_mpi_comm(const goal_mpi *m) { return m ? m->comm : MPI_COMM_NULL; }
uint32_t goal_mpi_contexts(const goal_mpi *m) { return m ? m->contexts : 0; }
const goal_error *goal_mpi_error(const goal_mpi *m) { return m ? &m->err : NULL; }

goal_status goal_mpi_revoke(goal_mpi *m, goal_status why) {
    int r, rc;
    if (!m) return GOAL_ERR_ARG;
    if (m->revoked) return GOAL_OK;   /* every rank has been told already, or tells us */
    m->revoked = 1;
    m->notice_out[0] = m->notice_in[0] = m->rank;
    m->notice_out[1] = m->notice_in[1] = why;
    m->notice_sends = (MPI_Request *)goal__mpi_alloc(m, (size_t)m->size * sizeof(MPI_Request));
    if (!m->notice_sends) return goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: revoke: out of memory", m->rank);
    for (r = 0; r < m->size; r++) {
        m->notice_sends[r] = MPI_REQUEST_NULL;
        if (r == m->rank) continue;
        rc = MPI_Isend(m->notice_out, 2, MPI_INT, r, (int)(m->contexts * m->tags), m->comm, &m->notice_sends[r]);
        if (rc != MPI_SUCCESS) return goal__mpi_mpi_failed(m, rc, "MPI_Isend (failure notice)");
    }
    return GOAL_OK;
}

/* ---- >>> collectives -------------------------------------------------------------------- */
static int goal__mpi_bridge_index(const goal_user_fn *fns);
static void goal__mpi_bridge_hold(int k, int delta);
static void goal__mpi_drop(goal_mpi_request *r) {
    if (r->checking) {   /* every rank takes part in the check's allreduce, unless one failed */
        int done = 0;
        if (!r->m->revoked) MPI_Wait(&r->chk, MPI_STATUS_IGNORE);
        else if (MPI_Test(&r->chk, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || !done)
            return;   /* MPI may still write r->dig, and a collective cannot be freed: r is left */
    }
    if (r->entry->direct) goal__mpi_direct_cancel(r);
    goal_exec_destroy(r->e);
    goal__mpi_free(r->m, r);
}
static size_t goal__mpi_messages(const goal_schedule *s) {
    size_t n = 0;
    uint32_t i;
    goal_action a;
    for (i = 0; i < s->nactions; i++) {
        goal_schedule_action(s, i, &a);
        n += a.kind == GOAL_SEND || a.kind == GOAL_RECV;
    }
    return n;
}
static goal__mpi_entry *goal__mpi_build(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    int32_t id;
    goal__mpi_entry *e = (goal__mpi_entry *)goal__mpi_alloc(m, sizeof *e + c->keylen);
    memset(&gd, 0, sizeof gd);
    gd.rank = m->rank; gd.nranks = m->size; gd.alloc = m->a;
    if (!e || (*st = goal_graph_create(&g, &gd, NULL)) != GOAL_OK) {
        goal__mpi_free(m, e);
        *st = goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: building a schedule: out of memory", m->rank);
        return NULL;
    }
    m->err.status = GOAL_OK;
    id = c->build_fn(g, c->args, &m->err);
    if (id < 0 && m->err.status == GOAL_OK)
        goal__fail(&m->err, (goal_status)id, m->rank, "rank %d: build_fn: %s", m->rank, goal_strerror(id));
    *st = id < 0 ? (goal_status)id : goal_compile(g, &e->sched, &m->err);
    goal_graph_destroy(g);
    if (*st != GOAL_OK) { goal__mpi_free(m, e); return NULL; }
    e->build_fn = c->build_fn;
    e->idle = NULL;
    e->nmsgs = goal__mpi_messages(&e->sched);
    e->direct = goal__mpi_plan_new(m, &e->sched, e->nmsgs);
    e->keylen = c->keylen;
    if (c->keylen) memcpy(e->key, c->key, c->keylen);
    return e;
}
static int32_t goal__mpi_algo_build(goal_graph *g, const void *args, goal_error *err);
static size_t goal__mpi_algo_key(const goal_algo_desc *d, int p, int vec, unsigned char *key, size_t *agreed);
static int goal__mpi_vector(const char *algo);
/* What the ranks compare (function addresses differ between them): for an algorithm the
   part of its key they must agree on, for one's own builder the key. */
static uint64_t goal__mpi_digest(const goal_mpi_coll *c, int p) {
    const goal_algo_desc *d = (const goal_algo_desc *)c->args;
    size_t agreed[2];
    agreed[0] = 0; agreed[1] = c->agreed && c->agreed < c->keylen ? c->agreed : c->keylen;
    if (c->build_fn == goal__mpi_algo_build) goal__mpi_algo_key(d, p, goal__mpi_vector(d->algo), NULL, agreed);
    if (agreed[1] == agreed[0]) return goal__hash(GOAL__HASH_SEED, "", 0);   /* a NULL key plus 0 is undefined in C */
    return goal__hash(GOAL__HASH_SEED, (const unsigned char *)c->key + agreed[0], agreed[1] - agreed[0]);
}
/* The hash of the build function's address and the key. */
static uint64_t goal__mpi_key_hash(const goal_mpi_coll *c) {
    goal_mpi_build_fn f = c->build_fn;
    unsigned char fb[sizeof f];
    memcpy(fb, &f, sizeof f);
    return goal__hash(goal__hash(GOAL__HASH_SEED, fb, sizeof fb), c->key, c->keylen);
}
/* Puts e in the table, which doubles when it holds as many entries as buckets. */
static int goal__mpi_cache_add(goal_mpi *m, goal__mpi_entry *e) {
    if (m->nentries >= m->nctab) {
        size_t n = m->nctab ? 2 * m->nctab : 64;
        goal__mpi_entry **t = (goal__mpi_entry **)goal__calloc(&m->a, n, sizeof *t), *x;
        if (!t) return 0;
        for (x = m->cache; x; x = x->next) { x->hnext = t[x->hash & (n - 1)]; t[x->hash & (n - 1)] = x; }
        goal__mpi_free(m, m->ctab);
        m->ctab = t; m->nctab = n;
    }
    e->next = m->cache; m->cache = e;
    e->hnext = m->ctab[e->hash & (m->nctab - 1)]; m->ctab[e->hash & (m->nctab - 1)] = e;
    m->nentries++;
    return 1;
}
static goal__mpi_entry *goal__mpi_lookup(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    goal__mpi_entry *e;
    uint64_t h = goal__mpi_key_hash(c);
    for (e = m->nctab ? m->ctab[h & (m->nctab - 1)] : NULL; e; e = e->hnext)
        if (e->hash == h && e->build_fn == c->build_fn && e->keylen == c->keylen &&
            (!c->keylen || !memcmp(e->key, c->key, c->keylen)))
            return e;
    e = goal__mpi_build(m, c, st);
    if (!e) return NULL;
    e->hash = h;
    e->digest = goal__mpi_digest(c, m->size);
    if (goal__mpi_cache_add(m, e)) return e;
    goal_schedule_free(&e->sched);
    goal__mpi_free(m, e->direct);
    goal__mpi_free(m, e);
    *st = goal__mpi_nomem(m, "building a schedule");
    return NULL;
}
/* Records why r failed, with the transport's words (MPI's string) when it said something,
   and tells the other ranks unless they told us. */
static void goal__mpi_failed(goal_mpi_request *r, goal_status st) {
    goal_mpi *m = r->m;
    const goal_error *x = goal_exec_error(r->e);
    char why[GOAL_MSG_MAX];
    if (r->entry->direct) goal__mpi_direct_cancel(r);   /* as the executor's failure cancels (FAILURES) */
    snprintf(why, sizeof why, "%s", m->err.status != GOAL_OK ? m->err.msg : "");
    if (x && x->status != GOAL_OK) {
        goal__fail(&m->err, st, m->rank, "%s%s%s", x->msg, why[0] ? " -- " : "", why);
        m->err.action = x->action;
    }
    goal_mpi_revoke(m, st);
}
/* r's status after a start or a test (the failure's record apart: the common path is short). */
static void goal__mpi_settle(goal_mpi_request *r, goal_status st) {
    r->st = st;
    if (st < 0) goal__mpi_failed(r, st);
}
/* Starts r's execution: DIRECT, or on the channels. */
static goal_status goal__mpi_begin(goal_mpi *m, goal_mpi_request *r) {
    return r->entry->direct ? goal__mpi_direct_start(m, r) : goal_exec_start(r->e);
}
/* CHECKS: the digests agree (every rank learns the same from the maxima), then it starts. */
static goal_status goal__mpi_check_test(goal_mpi *m, goal_mpi_request *r) {
    int flag = 0, rc = MPI_Test(&r->chk, &flag, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return goal__mpi_mpi_failed(m, rc, "MPI_Iallreduce (check)");
    if (!flag) return GOAL_PENDING;
    r->checking = 0;
    if (r->dig[2] != r->dig[0] || ~r->dig[3] != r->dig[0])
        return goal__fail(&m->err, GOAL_ERR_MATCH, m->rank, "rank %d: collective %lu (context %lu): the ranks "
                             "disagree on (algorithm, parameters, count, type, op, root) (goal_mpi_desc.check)",
                             m->rank, (unsigned long)(m->seq - 1), (unsigned long)r->context);
    return goal__mpi_begin(m, r);
}
static goal_status goal__mpi_timed_out(goal_mpi *m, goal_mpi_request *r) {
    return goal__fail(&m->err, GOAL_ERR_TRANSPORT, m->rank, "rank %d: an operation (context %lu) did not finish "
                         "within %lu ms (goal_mpi_desc.timeout_ms): revoked", m->rank, (unsigned long)r->context,
                         (unsigned long)m->timeout_ms);
}
/* Whether an operation in flight on the channels has started executing (passed its check). */
static int goal__mpi_executing(const goal_mpi *m) {
    const goal_mpi_request *r;
    for (r = m->active; r; r = r->next)
        if (r->st == GOAL_PENDING && !r->checking && !r->entry->direct) return 1;
    return 0;
}
/* Whether r's execution has nothing to learn from a test: none of its requests finished
   since the last one, and it is small enough that goal__mpi_batch would not count the test
   (its idle count only holds back executions of more than 64 requests). */
static int goal__mpi_unchanged(const goal_mpi *m, const goal_mpi_request *r) {
    return !r->checking && !r->entry->direct && m->unrep[r->context & GOAL__MPI_UNREP_MASK] == 0 && r->entry->nmsgs <= 64 &&
           !(m->timeout_ms || m->revoked);
}
/* One pass over m's operations in flight: one sweep of MPI's requests for all of them when
   one executes (a failed sweep is left to each execution's own test, which reports it; a
   check in progress learns of the others' verdict from its own allreduce, not from a
   notice); a revoked communicator fails them at once. */
static void goal__mpi_progress(goal_mpi *m) {
    goal_mpi_request *r;
    double now = m->timeout_ms ? MPI_Wtime() : 0;
    m->err.status = GOAL_OK;
    m->swept = !m->revoked && goal__mpi_executing(m) && goal__mpi_sweep(m, NULL, 0) == GOAL_OK;
    for (r = m->active; r; r = r->next) {
        if (r->st != GOAL_PENDING || (m->swept && goal__mpi_unchanged(m, r))) continue;
        if (m->revoked) goal__mpi_settle(r, goal__mpi_revoked(m));
        else if (m->timeout_ms && (now - r->t0) * 1000 > m->timeout_ms) goal__mpi_settle(r, goal__mpi_timed_out(m, r));
        else if (r->checking) goal__mpi_settle(r, goal__mpi_check_test(m, r));
        else goal__mpi_settle(r, r->entry->direct ? goal__mpi_direct_step(m, r, 0) : goal_exec_test(r->e));
    }
    m->swept = 0;
}
/* r, bound to its slots now, with its plan's addresses (a slot not bound: NULL, which
   MPI and goal_apply report); r. */
static goal_mpi_request *goal__mpi_direct_bind(goal_mpi_request *r) {
    const goal__mpi_plan *p = r->entry->direct;
    void **at = r->dat;
    uint32_t k;
    if (!p) return r;
    for (k = 0; k < p->nmsgs; k++) *at++ = goal_exec_addr(r->e, p->msg[k].slot, p->msg[k].offset);
    for (k = 0; k < p->nsteps; k++, at += 2)   /* the others go through goal_exec_local */
        if (p->step[k].native) {
            at[0] = goal_exec_addr(r->e, p->step[k].a.buf.slot, p->step[k].a.buf.offset);
            at[1] = goal_exec_addr(r->e, p->step[k].a.buf2.slot, p->step[k].a.buf2.offset);
        }
    return r;
}
/* A finished request of e made with these user functions, taken off e's idle list, or NULL. */
static goal_mpi_request *goal__mpi_reuse(goal__mpi_entry *e, const goal_user_fn *fns, uint32_t nfns) {
    goal_mpi_request *r, **p;
    for (p = &e->idle; (r = *p) != NULL; p = &r->next)
        if (r->fns == fns && r->nfns == nfns) { *p = r->next; return r; }
    return NULL;
}
/* An execution of e's schedule bound to slots: r (goal__mpi_reuse) when not NULL (no
   allocation for the repeated collective), else new. */
static goal_mpi_request *goal__mpi_request(goal_mpi *m, goal__mpi_entry *e, goal_mpi_request *r, const goal_slot *slots,
                                           uint32_t nslots, const goal_user_fn *fns, uint32_t nfns, goal_status *st) {
    goal_exec_desc d;
    uint32_t k, ndat = e->direct ? e->direct->nmsgs + 2 * e->direct->nsteps : 1;
    if (r) {
        r->bound = 0;
        if ((*st = goal_exec_bind(r->e, slots, nslots)) == GOAL_OK) return goal__mpi_direct_bind(r);
        m->err = *goal_exec_error(r->e);
        goal__mpi_drop(r);   /* its error would outlive the bind (a DIRECT start never clears it) */
        return NULL;
    }
    if (!(r = (goal_mpi_request *)goal__mpi_alloc(m, sizeof *r + (ndat - 1) * sizeof r->dat[0]))) {
        *st = goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
        return NULL;
    }
    memset(r, 0, sizeof *r);
    memset(&d, 0, sizeof d);
    for (k = 0; k <= GOAL__MPI_DIRECT; k++) r->dreq[k] = MPI_REQUEST_NULL;
    d.schedule = &e->sched; d.transport = goal_mpi_transport(m);   /* DIRECT runs never start it */
    d.slots = slots; d.nslots = nslots; d.user_fns = fns; d.nuser_fns = nfns;
    d.alloc = m->a;
    r->m = m; r->entry = e; r->fns = fns; r->nfns = nfns;
    if ((*st = goal_exec_create(&r->e, &d, &m->err)) != GOAL_OK) { goal__mpi_free(m, r); return NULL; }
    return goal__mpi_direct_bind(r);
}
/* The messages of an execution of e that the channels hold (DIRECT ones bypass them). */
static size_t goal__mpi_held(const goal__mpi_entry *e) { return e->direct ? 0 : e->nmsgs; }
/* Records, channels and test scratch for `more` messages beyond those of the operations in
   flight, allocated now so that posts and tests of a repeated collective never allocate. */
static goal_status goal__mpi_provision(goal_mpi *m, size_t more) {
    size_t need = m->msgs + more;
    while (m->nrecs < need) {
        goal__mpi_rec *r = (goal__mpi_rec *)goal__mpi_alloc(m, sizeof *r);
        goal__mpi_chan *c = (goal__mpi_chan *)goal__mpi_alloc(m, sizeof *c);
        if (!r || !c) { goal__mpi_free(m, r); goal__mpi_free(m, c); return goal__mpi_nomem(m, "start"); }
        goal__mpi_rec_free(m, r);
        c->next = m->spare_chans; m->spare_chans = c;
        m->nrecs++;
    }
    while (m->nbuckets <= need)
        if (!goal__mpi_rehash(m)) return goal__mpi_nomem(m, "start");
    if (goal__reserve(&m->a, (void **)&m->live, &m->livecap, need, sizeof *m->live) != GOAL_OK ||
        need > INT_MAX - 1 || !goal__mpi_reserve(m, (int)need))
        return goal__mpi_nomem(m, "start");
    m->msgs = need;
    return GOAL_OK;
}
/* r, an operation starting, takes the next context (seq mod contexts, kept, not divided). */
static void goal__mpi_take_context(goal_mpi *m, goal_mpi_request *r) {
    r->context = m->next;
    m->next = m->next + 1 == m->contexts ? 0 : m->next + 1;
    m->seq++;
}
/* Where finished r goes: a failed one's memory stays until destroy; else to its prepared
   collective, which keeps it, or to its entry's idle list for reuse. */
static goal_status goal__mpi_park(goal_mpi_request *r) {
    goal_mpi *m = r->m;
    if (r->owner) r->owner->busy = 0;
    if (r->st < 0) {
        r->next = m->failed; m->failed = r;
        if (r->owner) r->owner->r = NULL;
        r->owner = NULL;
    } else if (!r->owner) {
        r->next = r->entry->idle; r->entry->idle = r;
    }
    return r->st;
}
/* Starts r, an execution of e bound to its slots (NULL: st says why not), in the next context. */
static goal_status goal__mpi_launch(goal_mpi *m, goal__mpi_entry *e, goal_mpi_request *r, goal_status st,
                                    goal_mpi_request **req) {
    int rc;
    if (r && goal__mpi_held(e) && (st = goal__mpi_provision(m, goal__mpi_held(e))) != GOAL_OK) {
        goal__mpi_park(r);   /* not started: as it was */
        r = NULL;
    }
    if (!r) { goal_mpi_revoke(m, st); return st; }
    goal__mpi_take_context(m, r);
    m->seen[r->context & GOAL__MPI_UNREP_MASK] = m->idle[r->context & GOAL__MPI_UNREP_MASK] = 0;
    goal_exec_set_context(r->e, r->context);
    r->st = GOAL_PENDING;
    if (r->owner) r->owner->busy = 1;
    r->next = m->active;
    m->active = r;
    m->err.status = GOAL_OK;
    r->t0 = m->timeout_ms ? MPI_Wtime() : 0;
    goal__mpi_bridge_hold(r->bridge = goal__mpi_bridge_index(r->fns), 1);
    *req = r;
    if (!m->check) { goal__mpi_settle(r, goal__mpi_begin(m, r)); return GOAL_OK; }
    r->dig[0] = e->digest; r->dig[1] = ~e->digest;
    rc = MPI_Iallreduce(r->dig, r->dig + 2, 2, MPI_UINT64_T, MPI_MAX, m->comm, &r->chk);
    r->checking = rc == MPI_SUCCESS;
    goal__mpi_settle(r, rc == MPI_SUCCESS ? goal__mpi_check_test(m, r) : goal__mpi_mpi_failed(m, rc, "MPI_Iallreduce (check)"));
    return GOAL_OK;
}
/* The checks every start makes: 0 with *st when m cannot start another operation. */
static int goal__mpi_admit(goal_mpi *m, goal_status *st) {
    goal_mpi_request *r;
    uint32_t next = m->next;
    if (m->revoked) { *st = goal__mpi_revoked(m); return 0; }
    for (r = m->active; r; r = r->next)
        if (r->context == next) {
            *st = goal__fail(&m->err, GOAL_ERR_LIMIT, m->rank, "rank %d: more than %lu collectives in flight on one "
                                "goal_mpi (context %lu is still in use)", m->rank, (unsigned long)m->contexts,
                                (unsigned long)next);
            return 0;
        }
    return 1;
}
/* The checks every start makes; then the cache entry for c. */
static goal__mpi_entry *goal__mpi_prepare(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    return goal__mpi_admit(m, st) ? goal__mpi_lookup(m, c, st) : NULL;
}
static int goal__mpi_flat_now(const goal_mpi *m, const goal__mpi_entry *e);
static goal_status goal__mpi_run_flat(goal_mpi *m, goal_mpi_request *r);
/* What a start that launched r (st) gives: r in *req, or with req NULL, r waited for. */
static goal_status goal__mpi_give(goal_mpi_request *r, goal_status st, goal_mpi_request **req) {
    if (req) { *req = st == GOAL_OK ? r : NULL; return st; }
    return st == GOAL_OK ? goal_mpi_wait(&r) : st;
}
/* Starts r, an execution of e bound to its slots (NULL: st says why not); with req NULL,
   runs it to its end: a flat plan on the short path (goal__mpi_run_flat), else launched and
   waited for. */
static goal_status goal__mpi_proceed(goal_mpi *m, goal__mpi_entry *e, goal_mpi_request *r, goal_status st,
                                     goal_mpi_request **req) {
    if (r && !req && goal__mpi_flat_now(m, e)) return goal__mpi_run_flat(m, r);
    st = goal__mpi_launch(m, e, r, st, &r);
    return goal__mpi_give(r, st, req);
}
/* A start of c; with req NULL, run to its end (a blocking call of a flat plan takes the short
   path, goal__mpi_run_flat). */
static goal_status goal__mpi_go(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_request **req) {
    goal__mpi_entry *e;
    goal_mpi_request *r;
    goal_status st = GOAL_OK;
    if (!m || !c || !c->build_fn || (c->keylen && !c->key)) return GOAL_ERR_ARG;
    if (!(e = goal__mpi_prepare(m, c, &st))) {
        goal_mpi_revoke(m, st);   /* the other ranks started theirs: tell them */
        return st;
    }
    r = goal__mpi_request(m, e, goal__mpi_reuse(e, c->user_fns, c->nuser_fns), c->slots, c->nslots, c->user_fns,
                          c->nuser_fns, &st);
    return goal__mpi_proceed(m, e, r, st, req);
}
goal_status goal_mpi_start(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_request **req) {
    if (req) *req = NULL;
    return req ? goal__mpi_go(m, c, req) : GOAL_ERR_ARG;
}
/* Takes a finished request off the list. */
static goal_status goal__mpi_finish_request(goal_mpi_request **req) {
    goal_mpi_request *r = *req, **p;
    goal_mpi *m = r->m;
    m->msgs -= goal__mpi_held(r->entry);
    goal__mpi_bridge_hold(r->bridge, -1);
    for (p = &m->active; *p != r; p = &(*p)->next) {}
    *p = r->next;
    *req = NULL;
    return goal__mpi_park(r);
}
goal_status goal_mpi_test(goal_mpi_request **req) {
    if (!req || !*req) return GOAL_ERR_ARG;
    goal__mpi_progress((*req)->m);
    return (*req)->st == GOAL_PENDING ? GOAL_PENDING : goal__mpi_finish_request(req);
}
/* Whether r, executing, is all that is in flight on its goal_mpi, with no timeout to watch:
   then a wait for it may block in MPI (PROGRESS). */
static int goal__mpi_alone(const goal_mpi_request *r) {
    const goal_mpi *m = r->m;
    return m->active == r && !r->next && r->st == GOAL_PENDING && !r->checking && !(m->timeout_ms || m->revoked);
}
goal_status goal_mpi_wait(goal_mpi_request **req) {
    goal_mpi_request *r;
    if (!req || !*req) return GOAL_ERR_ARG;
    r = *req;
    while (r->st == GOAL_PENDING) {
        if (r->entry->direct && goal__mpi_alone(r)) {   /* MPI waits for its messages */
            r->m->err.status = GOAL_OK;
            goal__mpi_settle(r, goal__mpi_direct_step(r->m, r, 1));
            continue;
        }
        goal__mpi_progress(r->m);
        /* Small enough that every finished request reaches the execution at the next test,
           with requests on the channels: MPI may wait for one (a failure is that test's). */
        if (goal__mpi_alone(r) && goal__mpi_unchanged(r->m, r) && r->m->nlive > 0) goal__mpi_sweep(r->m, NULL, 1);
    }
    return goal__mpi_finish_request(req);
}
goal_status goal_mpi_run(goal_mpi *m, const goal_mpi_coll *c) { return goal__mpi_go(m, c, NULL); }
/* Whether a blocking call may run e at once (goal__mpi_run_flat): a flat plan, nothing in
   flight, no check and no timeout to watch. */
static int goal__mpi_flat_now(const goal_mpi *m, const goal__mpi_entry *e) {
    return e->direct && e->direct->first && !m->active && !m->check && !m->timeout_ms;
}
/* A blocking call's short path (PROGRESS): r, an execution of e bound to its slots, runs its
   flat plan to the end in the next context without joining the operations in flight; as
   goal__mpi_launch and goal_mpi_wait would, but with none of their bookkeeping. */
static goal_status goal__mpi_run_flat(goal_mpi *m, goal_mpi_request *r) {
    goal_status st;
    goal__mpi_take_context(m, r);   /* not the executor's: it posts none of a plan's messages */
    m->err.status = GOAL_OK;
    goal__mpi_bridge_hold(r->bridge = goal__mpi_bridge_index(r->fns), 1);
    r->st = st = goal__mpi_direct_flat(m, r);
    goal__mpi_bridge_hold(r->bridge, -1);
    if (st != GOAL_OK) goal__mpi_failed(r, st);
    return goal__mpi_park(r);
}

/* Receives every notice sent to this rank, so that every notice send completes (MPI may hold
   a send until its recv is posted). Each rank that revoked sent one notice to every other
   rank. Returns how many ranks revoked: the same on every rank. */
static int goal__mpi_drain_notices(goal_mpi *m) {
    int sent = m->notice_sends != NULL, revokers = 0, left;
    MPI_Allreduce(&sent, &revokers, 1, MPI_INT, MPI_SUM, m->comm);
    left = revokers - sent - (m->notice_recv == MPI_REQUEST_NULL);   /* a completed notice_recv took one */
    if (left > 0 && m->notice_recv != MPI_REQUEST_NULL) { MPI_Wait(&m->notice_recv, MPI_STATUS_IGNORE); left--; }
    for (; left > 0; left--)
        MPI_Recv(m->notice_in, 2, MPI_INT, MPI_ANY_SOURCE, (int)(m->contexts * m->tags), m->comm, MPI_STATUS_IGNORE);
    return revokers;
}
/* Channels left by requests that were released without a test (a send after a failure). */
static void goal__mpi_release_channels(goal_mpi *m) {
    goal__mpi_rec *r;
    while (m->nlive) {
        goal__mpi_chan *c = m->live[m->nlive - 1];
        while ((r = c->head) != NULL) { c->head = r->next; goal__mpi_free(m, r); }
        goal__mpi_chan_drop(m, c);
    }
    while ((r = m->spare) != NULL) { m->spare = r->next; goal__mpi_free(m, r); }
    while (m->spare_chans) { goal__mpi_chan *c = m->spare_chans; m->spare_chans = c->next; goal__mpi_free(m, c); }
    goal__mpi_free(m, m->live);
    goal__mpi_free(m, m->buckets);
}
static void goal__mpi_prepared_drop(goal_mpi_prepared *p);
void goal_mpi_destroy(goal_mpi *m) {
    goal_mpi_request *r;
    int i, revokers = 0;
    if (!m) return;
    while (m->prepared) {   /* an execution in flight goes with the operations in flight */
        if (m->prepared->busy) { m->prepared->r->owner = NULL; m->prepared->r = NULL; }
        goal__mpi_prepared_drop(m->prepared);
    }
    if (m->active) goal_mpi_revoke(m, GOAL_ERR_STATE);   /* abandoned operations: peers must not wait */
    while ((r = m->active) != NULL) { m->active = r->next; goal__mpi_bridge_hold(r->bridge, -1); goal__mpi_drop(r); }
    while ((r = m->failed) != NULL) { m->failed = r->next; goal__mpi_drop(r); }
    while (m->cache) {
        goal__mpi_entry *e = m->cache;
        m->cache = e->next;
        while ((r = e->idle) != NULL) { e->idle = r->next; goal__mpi_drop(r); }
        goal_schedule_free(&e->sched);
        goal__mpi_free(m, e->direct);
        goal__mpi_free(m, e);
    }
    goal__mpi_free(m, m->ctab);
    if (m->created) revokers = goal__mpi_drain_notices(m);
    if (m->notice_recv != MPI_REQUEST_NULL) { MPI_Cancel(&m->notice_recv); MPI_Wait(&m->notice_recv, MPI_STATUS_IGNORE); }
    for (i = 0; m->notice_sends && i < m->size; i++) MPI_Wait(&m->notice_sends[i], MPI_STATUS_IGNORE);
    /* A revoked duplicate may hold unmatched messages (sends that finished on ranks that did
       not wait for the failed one), which nothing can count: freed, its context would go to a
       later duplicate (MPICH: the next one), where they would match that one's recvs. So it is
       kept, on every rank (revokers is the same everywhere), until MPI_Finalize. */
    if (m->comm != MPI_COMM_NULL && revokers == 0) MPI_Comm_free(&m->comm);
    goal__mpi_free(m, m->notice_sends);
    goal__mpi_free(m, m->mreq);
    goal__mpi_free(m, m->idx);
    goal__mpi_free(m, m->mst);
    goal__mpi_free(m, m->snap);
    goal__mpi_release_channels(m);
    goal__mpi_free(m, m);
}

/* ---- >>> algorithms of goal_algos.h ------------------------------------------------------ */
static int32_t goal__mpi_algo_build(goal_graph *g, const void *args, goal_error *err) {
    return goal_algo_build(g, (const goal_algo_desc *)args, NULL, 0, NULL, err);
}
static void goal__mpi_key_add(unsigned char *key, size_t *len, const void *p, size_t n) {
    if (key && n) memcpy(key + *len, p, n);
    *len += n;
}
/* A vector collective's own count and arrays (p entries, p x p with counts_matrix) for the
   key; a NULL array adds a marker, so that it differs from any given one. */
static void goal__mpi_key_vector(const goal_algo_desc *d, int p, unsigned char *key, size_t *len) {
    const int *arr[4];
    size_t n = (size_t)p * (d->counts_matrix ? (size_t)p : 1), i;
    int marker = -1;
    if (p <= 0) return;
    arr[0] = d->counts; arr[1] = d->displs; arr[2] = d->recv_counts; arr[3] = d->recv_displs;
    goal__mpi_key_add(key, len, &d->count, sizeof d->count);
    goal__mpi_key_add(key, len, &d->counts_matrix, sizeof d->counts_matrix);
    for (i = 0; i < 4; i++) {
        size_t k = i == 2 ? (size_t)p : n;
        if (arr[i]) goal__mpi_key_add(key, len, arr[i], k * sizeof(int));
        else goal__mpi_key_add(key, len, &marker, sizeof marker);
    }
}
/* Whether algo takes per-rank counts: looked up once per start (a walk of the algorithm table). */
static int goal__mpi_vector(const char *algo) {
    const goal_algo_info *info = goal_algo_find(algo);
    return info && (info->flags & GOAL_ALGO_VECTOR);
}
/* The cache key of d (see CACHE): its length, and the bytes when key is not NULL. Its bytes
   agreed[0] .. agreed[1] - 1 (CHECKS' digest) are what the ranks must agree on by MPI's
   rules: not the slots and offsets (first), not in_place (a rooted collective's root alone
   passes MPI_IN_PLACE), and for a vector collective not the counts, displacements or a
   rank's own count (each rank passes its own), which come after. */
static size_t goal__mpi_algo_key(const goal_algo_desc *d, int p, int vec, unsigned char *key, size_t *agreed) {
    size_t len = 0;
    int np = d->participants ? d->nparticipants : -1, nr = d->receivers ? d->nreceivers : -1;
    int ints[9];
    uint64_t words[7];
    words[0] = (uint64_t)(d->custom_slots ? d->in_slot : GOAL_ALGO_SLOT_IN) << 32 |   /* the slots used */
               (d->custom_slots ? d->out_slot : GOAL_ALGO_SLOT_OUT);
    words[1] = d->in_offset; words[2] = d->out_offset; words[3] = d->scratch_offset;
    words[4] = vec ? 0 : d->count; words[5] = d->fn; words[6] = d->segment;   /* agreed from here */
    ints[0] = d->root; ints[1] = (int)d->dtype; ints[2] = (int)d->op; ints[3] = d->noncommutative;
    ints[4] = d->nway; ints[5] = d->tag; ints[6] = d->radix; ints[7] = np; ints[8] = nr;
    goal__mpi_key_add(key, &len, words, sizeof words);
    goal__mpi_key_add(key, &len, ints, sizeof ints);
    goal__mpi_key_add(key, &len, d->algo, strlen(d->algo) + 1);
    if (np > 0) goal__mpi_key_add(key, &len, d->participants, (size_t)np * sizeof(int));
    if (nr > 0) goal__mpi_key_add(key, &len, d->receivers, (size_t)nr * sizeof(int));
    if (agreed) { agreed[0] = 4 * sizeof words[0]; agreed[1] = len; }
    if (vec) goal__mpi_key_vector(d, p, key, &len);
    goal__mpi_key_add(key, &len, &d->in_place, sizeof d->in_place);
    return len;
}
/* r (goal__mpi_reuse, or NULL: a new request) bound to in and out at the schedule's IN and
   OUT slots, sized as the schedule needs; NULL with *st when it cannot be. */
static goal_mpi_request *goal__mpi_algo_bind(goal_mpi *m, goal__mpi_entry *e, goal_mpi_request *r, const goal_algo_desc *d,
                                             const goal_user_fn *fns, uint32_t nfns, const void *in, void *out,
                                             goal_status *st) {
    goal_slot fixed[4], *slots = fixed;
    uint32_t n = e->sched.nslots, i, in_slot = d->custom_slots ? d->in_slot : GOAL_ALGO_SLOT_IN;
    uint32_t out_slot = d->custom_slots ? d->out_slot : GOAL_ALGO_SLOT_OUT;
    if (n > 4 && !(slots = (goal_slot *)goal__mpi_alloc(m, n * sizeof(goal_slot)))) {
        if (r) { r->next = e->idle; e->idle = r; }
        *st = goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
        return NULL;
    }
    for (i = 0; i < n; i++) { slots[i].data = NULL; slots[i].size = 0; }
    /* The algorithms never write IN (goal_algos.h, BUFFERS): casting const away is safe. */
    if (in_slot < n) { slots[in_slot].data = (void *)(uintptr_t)in; slots[in_slot].size = goal_schedule_slot_size(&e->sched, in_slot); }
    if (out_slot < n) { slots[out_slot].data = out; slots[out_slot].size = goal_schedule_slot_size(&e->sched, out_slot); }
    if ((r = goal__mpi_request(m, e, r, slots, n, fns, nfns, st)) != NULL) {
        r->bound = 1; r->in = in; r->out = out;
    }
    if (slots != fixed) goal__mpi_free(m, slots);
    return r;
}
/* An execution of e's schedule on in and out (NULL: *st says why not). A reused request that
   was bound to the same in and out is not bound again (its slots are e's, which are the
   desc's). */
static goal_mpi_request *goal__mpi_algo_exec(goal_mpi *m, goal__mpi_entry *e, const goal_algo_desc *d,
                                             const goal_user_fn *fns, uint32_t nfns, const void *in, void *out,
                                             goal_status *st) {
    goal_mpi_request *r = goal__mpi_reuse(e, fns, nfns);
    return r && r->bound && r->in == in && r->out == out ? r : goal__mpi_algo_bind(m, e, r, d, fns, nfns, in, out, st);
}
/* ---- >>> auto -------------------------------------------------------------------------------- */
/* The collective of a name COLL_auto, or -1. Every start asks, so the suffix is tested
   first (other names cost a strlen), then COLL exactly: mostly one character per collective. */
static int goal__mpi_auto_coll(const char *algo) {
    size_t n = strlen(algo);
    int k;
    if (n <= 5 || memcmp(algo + n - 5, "_auto", 5) != 0) return -1;
    n -= 5;
    for (k = 0; k < GOAL_COLL_NTUNED; k++) {
        const char *c = goal_coll_get(k)->name;
        if (c[0] == algo[0] && strncmp(c, algo, n) == 0 && c[n] == 0) return k;
    }
    return -1;
}
/* A failed pick, cached too: the search is not run again on every call. */
static const goal_algo_info goal__mpi_no_pick = {"", "", 0, GOAL_COLL_BCAST};
goal_status goal_mpi_auto(goal_mpi *m, int coll, uint64_t bytes, uint32_t require, const goal_algo_info **out) {
    int cls = 0, slot = ((require & GOAL_ALGO_ORDERED) ? 1 : 0) | ((require & GOAL_ALGO_INPLACE) ? 2 : 0);
    const goal_algo_info **cache;
    double ns;
    goal_status st;
    goal_error why;
    if (!m || !out || coll < 0 || coll >= GOAL_COLL_NTUNED || (require & ~(GOAL_ALGO_ORDERED | GOAL_ALGO_INPLACE))) return GOAL_ERR_ARG;
    while (cls < 64 && bytes > (cls ? 1ull << (cls - 1) : 0)) cls++;
    if (bytes > 1ull << 63) return goal__fail(&m->err, GOAL_ERR_SIZE, m->rank, "rank %d: auto: %llu bytes", m->rank,
                                                (unsigned long long)bytes);
    cache = &m->autos[slot][coll][cls];
    if ((*out = *cache) == &goal__mpi_no_pick) *out = NULL;
    if (*out || *cache)
        return *out ? GOAL_OK : goal__fail(&m->err, GOAL_ERR_ARG, m->rank, "rank %d: %s_auto: no algorithm",
                                               m->rank, goal_coll_get(coll)->name);
    st = goal_tune_best(coll, m->size, cls ? 1ull << (cls - 1) : 0, &m->model, require, out, &ns, &why);
    if (st != GOAL_OK) {
        *cache = &goal__mpi_no_pick;
        return goal__fail(&m->err, st, m->rank, "rank %d: %s_auto: %s", m->rank, goal_coll_get(coll)->name, why.msg);
    }
    *cache = *out;
    return GOAL_OK;
}
/* d with COLL_auto replaced by the pick: an in-place one when every rank knows the call is in
   place (MPI_IN_PLACE on an unrooted collective, or d->in_place, which a rooted one's other
   ranks then only use for the pick). */
static goal_status goal__mpi_auto_desc(goal_mpi *m, const goal_algo_desc *d, int coll, int in_place, goal_algo_desc *out) {
    const goal_algo_info *a;
    int rooted = (goal_coll_get(coll)->flags & GOAL_COLL_ROOTED) != 0;   /* only the root passes MPI_IN_PLACE there,
                                                                             which the other ranks cannot see */
    uint32_t require = (d->noncommutative ? GOAL_ALGO_ORDERED : 0) | ((in_place && !rooted) || d->in_place ? GOAL_ALGO_INPLACE : 0);
    goal_status st = goal_mpi_auto(m, coll, d->count * goal_dtype_size(d->dtype), require, &a);
    if (st != GOAL_OK) return st;
    if (in_place && !(a->flags & GOAL_ALGO_INPLACE))
        return goal__fail(&m->err, GOAL_ERR_ARG, m->rank, "rank %d: %s: MPI_IN_PLACE at the root: set d->in_place on every rank",
                             m->rank, d->algo);
    *out = *d;
    out->algo = a->name;
    if (rooted && !in_place) out->in_place = 0;
    return GOAL_OK;
}

/* ---- >>> remembered starts (CACHE) ------------------------------------------------------ */
static uint64_t goal__mpi_memo_tag(const goal_algo_desc *d) {
    return ((uint64_t)(uintptr_t)d->algo >> 4 ^ d->count ^ (uint64_t)d->dtype << 40 ^ (uint64_t)d->op << 48) * 0x9E3779B97F4A7C15ull ^
           (uint32_t)d->root;
}
/* Slot w of the window of the desc with tag t and root r: home is the top bits (every input
   bit moves them) plus the root, so that roots sit side by side. */
static goal__mpi_memo *goal__mpi_memo_at(goal_mpi *m, uint64_t t, int r, uint32_t w) {
    return &m->memo[((uint32_t)(t >> 60) + (uint32_t)r + w) & (GOAL__MPI_MEMO - 1)];
}
/* d's arrays in memo order; the shape bits they add to ip. */
static int goal__mpi_memo_arrays(const goal_algo_desc *d, int ip, const int **arr) {
    int k;
    arr[0] = d->counts; arr[1] = d->displs; arr[2] = d->recv_counts; arr[3] = d->recv_displs;
    for (k = 0; k < 4; k++) ip |= arr[k] ? 4 << k : 0;
    return ip;
}
/* d copied byte for byte (padding too, so that memcmp compares like with like), its array
   pointers cleared: what two descs with the same arrays elsewhere have in common. */
static void goal__mpi_memo_desc(const goal_algo_desc *d, goal_algo_desc *out) {
    memcpy(out, d, sizeof *out);
    out->counts = out->displs = out->recv_counts = out->recv_displs = NULL;
}
/* Whether n ints are equal (a memo's arrays are short: a call to memcmp costs more). */
static int goal__mpi_ints_same(const int *a, const int *b, int n) {
    int k;
    for (k = 0; k < n && a[k] == b[k]; k++) {}
    return k == n;
}
/* Whether x, remembered with arrays, remembers d (ip): d's arrays by content, and when they
   are not the ones x saw, d without its array pointers. */
static int goal__mpi_memo_arrays_same(const goal_mpi *m, const goal__mpi_memo *x, const goal_algo_desc *d, int ip,
                                      int same_bytes) {
    const int *arr[4];
    goal_algo_desc y, z;
    int k;
    if (goal__mpi_memo_arrays(d, ip, arr) != x->shape) return 0;
    if (!same_bytes) {
        goal__mpi_memo_desc(d, &y);
        goal__mpi_memo_desc(&x->d, &z);
        if (memcmp(&y, &z, sizeof y) != 0) return 0;
    }
    for (k = 0; k < 4; k++)
        if (arr[k] && !goal__mpi_ints_same(arr[k], x->arr[k], m->size)) return 0;
    return 1;
}
/* Whether x remembers a start of d (ip: which of in, out was MPI_IN_PLACE). A desc equal in
   every byte, name and arrays names the same key: the same schedule. */
static int goal__mpi_memo_same(const goal_mpi *m, const goal__mpi_memo *x, const goal_algo_desc *d, int ip) {
    int same;
    if (!x->e || (x->shape & 3) != ip) return 0;
    same = memcmp(d, &x->d, sizeof *d) == 0;
    if (x->shape < 4 ? !same : !goal__mpi_memo_arrays_same(m, x, d, ip, same)) return 0;
    return x->fixed || strcmp(x->name, d->algo) == 0;
}
/* The entry a start of d (ip) found before, or NULL: the last one found first (a loop of one
   collective needs no hash), then d's slots. */
static goal__mpi_entry *goal__mpi_memo_find(goal_mpi *m, const goal_algo_desc *d, int ip) {
    uint64_t t;
    uint32_t w;
    if (m->memo_last && goal__mpi_memo_same(m, m->memo_last, d, ip)) return m->memo_last->e;
    for (t = goal__mpi_memo_tag(d), w = 0; w < GOAL__MPI_MEMO_WAYS; w++) {
        goal__mpi_memo *x = goal__mpi_memo_at(m, t, d->root, w);
        if (x->tag == t && x != m->memo_last && goal__mpi_memo_same(m, x, d, ip)) return (m->memo_last = x)->e;
    }
    return NULL;
}
/* Remembers that d (ip) found e; not for descs with lists, a p x p matrix, arrays of more
   than GOAL__MPI_MEMO_P ranks or a long name (those take the key every time). */
static void goal__mpi_memo_keep(goal_mpi *m, const goal_algo_desc *d, int ip, goal__mpi_entry *e) {
    uint64_t t = goal__mpi_memo_tag(d);
    uint32_t w = 0;
    goal__mpi_memo *x;
    const goal_algo_info *info;
    const int *arr[4];
    int k, shape = goal__mpi_memo_arrays(d, ip, arr);
    if (d->participants || d->receivers || d->counts_matrix || strlen(d->algo) >= sizeof x->name ||
        (shape >= 4 && m->size > GOAL__MPI_MEMO_P))
        return;
    while (w < GOAL__MPI_MEMO_WAYS && goal__mpi_memo_at(m, t, d->root, w)->e) w++;
    x = goal__mpi_memo_at(m, t, d->root, w < GOAL__MPI_MEMO_WAYS ? w : m->memo_turn++ % GOAL__MPI_MEMO_WAYS);
    x->tag = t;
    memcpy(&x->d, d, sizeof x->d);   /* byte for byte, padding too: memcmp compares like with like */
    x->shape = shape;
    for (k = 0; k < 4; k++)
        if (arr[k]) memcpy(x->arr[k], arr[k], (size_t)m->size * sizeof(int));
    strcpy(x->name, d->algo);
    x->fixed = (info = goal_algo_find(d->algo)) != NULL && info->name == d->algo;
    x->e = e;
    m->memo_last = x;
}

goal_status goal_mpi_algo_start(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, goal_mpi_request **req) {
    return goal_mpi_algo_start_fns(m, d, NULL, 0, in, out, req);
}
/* The cache entry of d, which no remembered start matched (place: which of in, out was
   MPI_IN_PLACE): COLL_auto's pick, the key, the cache; remembered now. NULL with *st. */
static goal__mpi_entry *goal__mpi_algo_entry(goal_mpi *m, const goal_algo_desc *d, int place, goal_status *st) {
    unsigned char fixed[256], *key = fixed;
    goal_mpi_coll c;
    goal__mpi_entry *e = NULL;
    goal_algo_desc ip, picked;
    const goal_algo_desc *asked = d;
    int coll, vec;
    if ((coll = goal__mpi_auto_coll(d->algo)) >= 0) {
        if ((*st = goal__mpi_auto_desc(m, d, coll, place != 0, &picked)) != GOAL_OK) return NULL;
        d = &picked;
    }
    if (place) { ip = *d; ip.in_place = 1; d = &ip; }   /* the algorithm reads (scatter: keeps) it in the other */
    memset(&c, 0, sizeof c);
    c.build_fn = goal__mpi_algo_build;
    c.args = d;
    vec = goal__mpi_vector(d->algo);
    c.keylen = goal__mpi_algo_key(d, m->size, vec, NULL, NULL);
    if (c.keylen > sizeof fixed && !(key = (unsigned char *)goal__mpi_alloc(m, c.keylen))) {
        *st = goal__fail(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
        return NULL;
    }
    goal__mpi_algo_key(d, m->size, vec, key, NULL);
    c.key = key;
    if ((e = goal__mpi_lookup(m, &c, st)) != NULL) goal__mpi_memo_keep(m, asked, place, e);
    if (key != fixed) goal__mpi_free(m, key);
    return e;
}
/* A start of d; with req NULL, run to its end (a blocking call of a flat plan takes the short
   path, goal__mpi_run_flat). */
static goal_status goal__mpi_algo_go(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, uint32_t nfns,
                                     const void *in, void *out, goal_mpi_request **req) {
    goal__mpi_entry *e;
    goal_mpi_request *r = NULL;
    goal_status st = GOAL_OK;
    int place = (in == MPI_IN_PLACE) | (out == MPI_IN_PLACE) << 1;
    if (!m || !d || !d->algo) return GOAL_ERR_ARG;
    if (!goal__mpi_admit(m, &st) || (!(e = goal__mpi_memo_find(m, d, place)) && !(e = goal__mpi_algo_entry(m, d, place, &st))))
        return goal_mpi_revoke(m, st), st;
    if (in == MPI_IN_PLACE) in = NULL; else if (out == MPI_IN_PLACE) out = NULL;
    r = goal__mpi_algo_exec(m, e, d, fns, nfns, in, out, &st);
    return goal__mpi_proceed(m, e, r, st, req);
}
goal_status goal_mpi_algo_start_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, uint32_t nfns,
                                    const void *in, void *out, goal_mpi_request **req) {
    if (req) *req = NULL;
    return req ? goal__mpi_algo_go(m, d, fns, nfns, in, out, req) : GOAL_ERR_ARG;
}
goal_status goal_mpi_algo_run_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, uint32_t nfns,
                                  const void *in, void *out) {
    return goal__mpi_algo_go(m, d, fns, nfns, in, out, NULL);
}
goal_status goal_mpi_algo_run(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out) {
    return goal__mpi_algo_go(m, d, NULL, 0, in, out, NULL);
}

/* ---- >>> prepared collectives (PREPARED) ------------------------------------------------- */
/* *p made around r, an execution bound for good (NULL: st says why not; m is revoked). */
static goal_status goal__mpi_prepared_new(goal_mpi *m, goal_mpi_request *r, goal_status st, goal_mpi_prepared **p) {
    if (r && !(*p = (goal_mpi_prepared *)goal__mpi_alloc(m, sizeof **p))) {
        goal__mpi_park(r);
        st = goal__mpi_nomem(m, "prepare");
    }
    if (!*p) return goal_mpi_revoke(m, st), st;
    (*p)->m = m; (*p)->r = r; (*p)->busy = 0; r->owner = *p;
    (*p)->next = m->prepared; m->prepared = *p;
    return GOAL_OK;
}
goal_status goal_mpi_algo_prepare_fns(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, uint32_t nfns,
                                      const void *in, void *out, goal_mpi_prepared **p) {
    goal__mpi_entry *e;
    goal_mpi_request *r = NULL;
    goal_status st = GOAL_OK;
    int place = (in == MPI_IN_PLACE) | (out == MPI_IN_PLACE) << 1;
    if (p) *p = NULL;
    if (!m || !d || !d->algo || !p) return GOAL_ERR_ARG;
    if (m->revoked) return goal__mpi_revoked(m);
    if (in == MPI_IN_PLACE) in = NULL; else if (out == MPI_IN_PLACE) out = NULL;
    if ((e = goal__mpi_algo_entry(m, d, place, &st)) != NULL) r = goal__mpi_algo_bind(m, e, NULL, d, fns, nfns, in, out, &st);
    return goal__mpi_prepared_new(m, r, st, p);
}
goal_status goal_mpi_prepare(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_prepared **p) {
    goal__mpi_entry *e;
    goal_mpi_request *r = NULL;
    goal_status st = GOAL_OK;
    if (p) *p = NULL;
    if (!m || !c || !c->build_fn || (c->keylen && !c->key) || !p) return GOAL_ERR_ARG;
    if (m->revoked) return goal__mpi_revoked(m);
    if ((e = goal__mpi_lookup(m, c, &st)) != NULL)
        r = goal__mpi_request(m, e, NULL, c->slots, c->nslots, c->user_fns, c->nuser_fns, &st);
    return goal__mpi_prepared_new(m, r, st, p);
}
goal_status goal_mpi_algo_prepare(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, goal_mpi_prepared **p) {
    return goal_mpi_algo_prepare_fns(m, d, NULL, 0, in, out, p);
}
/* A start of p; with req NULL, run to its end. A flat plan with nothing else in flight goes
   at once (goal__mpi_run_flat): the call's whole cost is its messages'. */
static goal_status goal__mpi_prepared_go(goal_mpi_prepared *p, goal_mpi_request **req) {
    goal_mpi_request *r;
    goal_mpi *m;
    goal_status st = GOAL_OK;
    if (!p) return GOAL_ERR_ARG;
    m = p->m; r = p->r;
    if (m->revoked || !r) return goal__mpi_revoked(m);   /* a failed run revoked m */
    if (p->busy)
        return goal__fail(&m->err, GOAL_ERR_STATE, m->rank, "rank %d: a prepared collective started again before "
                          "its last start finished", m->rank);
    if (!goal__mpi_admit(m, &st)) return goal_mpi_revoke(m, st), st;
    return goal__mpi_proceed(m, r->entry, r, GOAL_OK, req);
}
goal_status goal_mpi_prepared_start(goal_mpi_prepared *p, goal_mpi_request **req) {
    if (req) *req = NULL;
    return req ? goal__mpi_prepared_go(p, req) : GOAL_ERR_ARG;
}
goal_status goal_mpi_prepared_run(goal_mpi_prepared *p) { return goal__mpi_prepared_go(p, NULL); }
/* p taken off its goal_mpi's list; its execution (not in flight) goes to the entry's idle
   ones, which later starts reuse. */
static void goal__mpi_prepared_drop(goal_mpi_prepared *p) {
    goal_mpi *m = p->m;
    goal_mpi_prepared **at;
    for (at = &m->prepared; *at != p; at = &(*at)->next) {}
    *at = p->next;
    if (p->r) {
        p->r->owner = NULL;
        goal__mpi_park(p->r);
    }
    goal__mpi_free(m, p);
}
goal_status goal_mpi_prepared_free(goal_mpi_prepared **p) {
    if (!p) return GOAL_ERR_ARG;
    if (!*p) return GOAL_OK;
    if ((*p)->busy)
        return goal__fail(&(*p)->m->err, GOAL_ERR_STATE, (*p)->m->rank, "rank %d: a prepared collective freed while "
                          "a start of it is in flight", (*p)->m->rank);
    goal__mpi_prepared_drop(*p);
    *p = NULL;
    return GOAL_OK;
}

/* ---- >>> datatypes and ops ---------------------------------------------------------------- */
/* Predefined types whose extent holds padding (the pair types, long double): moving the
   padding too is harmless, as no one keeps data there. */
static int goal__mpi_padded(MPI_Datatype t) {
    MPI_Datatype p[] = {MPI_2INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
                        MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX};
    int k;
    for (k = 0; k < (int)(sizeof p / sizeof p[0]); k++)
        if (t == p[k]) return 1;
    return 0;
}
long long goal_mpi_contiguous_bytes(MPI_Datatype t, int count) {
    int size = 0;
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    if (count < 0 || MPI_Type_size(t, &size) != MPI_SUCCESS || MPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(t, &tlb, &textent) != MPI_SUCCESS)
        return -1;
    if (lb != 0 || tlb != 0 || textent > extent || ((MPI_Aint)size != extent && !goal__mpi_padded(t))) return -1;
    return (long long)extent * count;
}
/* The native (type, op) pairs: the C types libgoal has, and the ops it defines on them. */
static int goal__mpi_native_type(MPI_Datatype t, goal_dtype *out) {
    MPI_Datatype ints[] = {MPI_CHAR, MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG, MPI_INT8_T,
                           MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT};
    MPI_Datatype uints[] = {MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
                            MPI_UNSIGNED_LONG_LONG, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_WCHAR};
    static const goal_dtype sints[] = {GOAL_INT8, GOAL_INT16, GOAL_INT32, GOAL_INT64};
    static const goal_dtype suints[] = {GOAL_UINT8, GOAL_UINT16, GOAL_UINT32, GOAL_UINT64};
    int size = 0, k, lg;
    if (t == MPI_FLOAT) { *out = GOAL_FLOAT32; return 1; }
    if (t == MPI_DOUBLE) { *out = GOAL_FLOAT64; return 1; }
    if (MPI_Type_size(t, &size) != MPI_SUCCESS || (size != 1 && size != 2 && size != 4 && size != 8)) return 0;
    lg = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;   /* by name: the enum's order is not the width's */
    for (k = 0; k < (int)(sizeof ints / sizeof ints[0]); k++)
        if (t == ints[k]) { *out = sints[lg]; return 1; }
    for (k = 0; k < (int)(sizeof uints / sizeof uints[0]); k++)
        if (t == uints[k]) { *out = suints[lg]; return 1; }
    return 0;
}
static int goal__mpi_native_op(MPI_Op op, goal_op *out) {
    MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    goal_op gops[] = {GOAL_OP_MAX, GOAL_OP_MIN, GOAL_OP_SUM, GOAL_OP_PROD, GOAL_OP_LAND, GOAL_OP_LOR, GOAL_OP_LXOR,
                      GOAL_OP_BAND, GOAL_OP_BOR, GOAL_OP_BXOR};
    int k;
    for (k = 0; k < 10; k++)
        if (op == ops[k]) { *out = gops[k]; return 1; }
    return 0;
}

/* The bridge. A libgoal user function has the paper's signature, without a context: so each
   (op, type) pair gets one of GOAL_MPI_BRIDGES fixed functions, which finds its pair in a
   table by its own number. buf1 holds lower ranks than buf2 (goal_algos.h, ORDER OF
   REDUCTIONS) and MPI_Reduce_local(in, inout) computes inout = in op inout: a commutative
   op reduces straight into buf1; a non-commutative one into a copy of buf2, then back. */
#ifndef GOAL_MPI_BRIDGES
#define GOAL_MPI_BRIDGES 32
#endif
/* A bridge is keyed by MPI's handles, which MPI reuses once the user freed the op or type:
   so a lookup refreshes what it keeps of them (extent, commutativity) from MPI, and a bridge
   no operation has in flight (`inflight`, counted from goal__mpi_launch to the request's
   end) may be given to another pair, the least recently looked-up first: the table never
   fills up with the pairs of freed handles. */
typedef struct goal__mpi_bridge {
    MPI_Op op; MPI_Datatype t; int extent, commutative, used;
    unsigned inflight;            /* operations in flight with this bridge */
    uint64_t last;                /* goal__mpi_bridge_clock at its last lookup */
} goal__mpi_bridge;
static goal__mpi_bridge goal__mpi_bridges[GOAL_MPI_BRIDGES];
static uint64_t goal__mpi_bridge_clock;
static int goal__mpi_bridge_apply(int k, void *buf1, int size1, void *buf2, int size2) {
    const goal__mpi_bridge *b = &goal__mpi_bridges[k];
    int n, bad;
    goal_allocator a = goal__allocator(NULL);
    unsigned char *tmp;
    if (!b->used || size1 != size2 || (n = size1 / b->extent) * b->extent != size1) return 1;
    if (b->commutative) return MPI_Reduce_local(buf2, buf1, n, b->t, b->op) != MPI_SUCCESS;
    /* buf1 = buf1 op buf2 needs the result in a third buffer: one per call, so that no
       buffer is shared between threads or left over */
    if (!(tmp = (unsigned char *)goal__alloc(&a, (size_t)size1 + 1u))) return 1;
    memcpy(tmp, buf2, (size_t)size1);
    bad = MPI_Reduce_local(buf1, tmp, n, b->t, b->op) != MPI_SUCCESS;
    if (!bad) memcpy(buf1, tmp, (size_t)size1);
    goal__free(&a, tmp);
    return bad;
}
#define GOAL__MPI_BRIDGE(k) static int goal__mpi_bridge##k(void *a, int na, void *b, int nb) { return goal__mpi_bridge_apply(k, a, na, b, nb); }
GOAL__MPI_BRIDGE(0) GOAL__MPI_BRIDGE(1) GOAL__MPI_BRIDGE(2) GOAL__MPI_BRIDGE(3) GOAL__MPI_BRIDGE(4) GOAL__MPI_BRIDGE(5)
GOAL__MPI_BRIDGE(6) GOAL__MPI_BRIDGE(7) GOAL__MPI_BRIDGE(8) GOAL__MPI_BRIDGE(9) GOAL__MPI_BRIDGE(10) GOAL__MPI_BRIDGE(11)
GOAL__MPI_BRIDGE(12) GOAL__MPI_BRIDGE(13) GOAL__MPI_BRIDGE(14) GOAL__MPI_BRIDGE(15) GOAL__MPI_BRIDGE(16)
GOAL__MPI_BRIDGE(17) GOAL__MPI_BRIDGE(18) GOAL__MPI_BRIDGE(19) GOAL__MPI_BRIDGE(20) GOAL__MPI_BRIDGE(21)
GOAL__MPI_BRIDGE(22) GOAL__MPI_BRIDGE(23) GOAL__MPI_BRIDGE(24) GOAL__MPI_BRIDGE(25) GOAL__MPI_BRIDGE(26)
GOAL__MPI_BRIDGE(27) GOAL__MPI_BRIDGE(28) GOAL__MPI_BRIDGE(29) GOAL__MPI_BRIDGE(30) GOAL__MPI_BRIDGE(31)
static const goal_user_fn goal__mpi_bridge_fns[32] = {
    goal__mpi_bridge0, goal__mpi_bridge1, goal__mpi_bridge2, goal__mpi_bridge3, goal__mpi_bridge4, goal__mpi_bridge5,
    goal__mpi_bridge6, goal__mpi_bridge7, goal__mpi_bridge8, goal__mpi_bridge9, goal__mpi_bridge10, goal__mpi_bridge11,
    goal__mpi_bridge12, goal__mpi_bridge13, goal__mpi_bridge14, goal__mpi_bridge15, goal__mpi_bridge16,
    goal__mpi_bridge17, goal__mpi_bridge18, goal__mpi_bridge19, goal__mpi_bridge20, goal__mpi_bridge21,
    goal__mpi_bridge22, goal__mpi_bridge23, goal__mpi_bridge24, goal__mpi_bridge25, goal__mpi_bridge26,
    goal__mpi_bridge27, goal__mpi_bridge28, goal__mpi_bridge29, goal__mpi_bridge30, goal__mpi_bridge31};
typedef char goal__mpi_bridges_fit[GOAL_MPI_BRIDGES <= 32 ? 1 : -1];
/* The bridge whose function fns points at, or -1 (fns are no bridge). */
static int goal__mpi_bridge_index(const goal_user_fn *fns) {
    int k;
    for (k = 0; fns && k < GOAL_MPI_BRIDGES; k++)
        if (fns == &goal__mpi_bridge_fns[k]) return k;
    return -1;
}
/* An operation with bridge k (-1: none) starts (+1) or ends (-1). */
static void goal__mpi_bridge_hold(int k, int delta) {
    if (k >= 0) goal__mpi_bridges[k].inflight = (unsigned)((int)goal__mpi_bridges[k].inflight + delta);
}
/* The bridge of (op, t) made before, else the least recently used one with no operation in
   flight (never used ones first), else -1. */
static int goal__mpi_bridge_find(MPI_Op op, MPI_Datatype t) {
    int k, lru = -1;
    for (k = 0; k < GOAL_MPI_BRIDGES; k++) {
        const goal__mpi_bridge *b = &goal__mpi_bridges[k];
        if (b->used && b->op == op && b->t == t) return k;
        if (!b->inflight && (lru < 0 || b->last < goal__mpi_bridges[lru].last)) lru = k;
    }
    return lru;
}
/* The bridge of (op, t), with what MPI says of them now (a reused handle is a new op or
   type); NULL when every bridge has an operation in flight. */
static const goal_user_fn *goal__mpi_bridge_of(MPI_Op op, MPI_Datatype t, int extent) {
    int k = goal__mpi_bridge_find(op, t), commutative = 1;
    goal__mpi_bridge *b;
    if (k < 0 || MPI_Op_commutative(op, &commutative) != MPI_SUCCESS) return NULL;
    b = &goal__mpi_bridges[k];
    b->op = op; b->t = t; b->extent = extent; b->commutative = commutative; b->used = 1;
    b->last = ++goal__mpi_bridge_clock;
    return &goal__mpi_bridge_fns[k];
}

goal_status goal_mpi_reduction_of(MPI_Datatype t, MPI_Op op, int count, goal_mpi_reduction *out) {
    long long bytes = goal_mpi_contiguous_bytes(t, 1);
    if (!out || count < 0) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    if (bytes <= 0) return GOAL_ERR_TYPE;
    if (goal__mpi_native_type(t, &out->dtype) && goal__mpi_native_op(op, &out->op) &&
        goal_op_check(out->op, out->dtype) == GOAL_OK) {
        out->count = (uint64_t)count;
        return GOAL_OK;
    }
    if (!(out->fns = goal__mpi_bridge_of(op, t, (int)bytes))) return GOAL_ERR_LIMIT;
    out->op = GOAL_OP_USER;
    out->noncommutative = !goal__mpi_bridges[out->fns - goal__mpi_bridge_fns].commutative;
    /* The element libgoal splits at is the MPI element when its size is one libgoal has. */
    out->dtype = bytes == 1 ? GOAL_UINT8 : bytes == 2 ? GOAL_UINT16 : bytes == 4 ? GOAL_UINT32 : bytes == 8 ? GOAL_UINT64 : GOAL_UINT8;
    out->whole = bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8;
    out->count = out->whole ? (uint64_t)bytes * (uint64_t)count : (uint64_t)count;
    return GOAL_OK;
}
#endif /* GOAL_MPI_IMPLEMENTATION */
