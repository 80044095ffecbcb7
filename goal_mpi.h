/* goal_mpi.h - v0.1.0 - run GOAL schedules over MPI: a transport on MPI point-to-point, and
   collectives in the shape of MPI_Ibcast / MPI_Wait that build and cache their schedules.

   In exactly ONE .c or .cpp file:   #define GOAL_MPI_IMPLEMENTATION   then
   #include "goal_mpi.h"   (this also compiles goal.h's, goal_sched.h's and goal_algos.h's
   implementations unless GOAL_MPI_NO_BASE_IMPL is defined because another file has them).
   Compile with your MPI's wrapper: mpicc (C99 and later) or mpicxx.

   Sections: OVERVIEW · STEP BY STEP · TAGS AND CONTEXTS · PROGRESS · FAILURES · CACHE ·
             CONFIGURATION · LICENSE

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
   flight on its goal_mpi (not just its own), once, without blocking; goal_mpi_wait
   repeats that until its operation finished (MPI's rule: waiting on one operation
   progresses the others, so ranks that wait in different orders do not deadlock).
   The application's own traffic on the original communicator is unaffected.

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
   goal_mpi (its tag space may hold unmatched messages) and create another; destroy first
   receives every notice sent to this rank (one MPI_Allreduce counts them), because MPICH
   hands a freed communicator's context to the next duplicate, unmatched messages and all.
   In-flight requests of a failed execution are cancelled: a recv with MPI_Cancel and
   completed; a send with MPI_Cancel and then released (MPI_Request_free), since some
   libraries cannot cancel sends and would make a wait hang. Such a send may still read its
   buffer: keep user buffers valid until goal_mpi_destroy after a failure (the collectives
   keep a failed operation's scratch memory until then).

   CACHE
   -----
   Key: (build_fn, the key bytes), within one goal_mpi, which stands for one communicator
   (its duplicate): rank and size are fixed by it. goal_mpi_algo_* make the key from every
   field of goal_algo_desc that shapes the schedule: the name, root, count, dtype, op, fn,
   noncommutative, nway, segment, tag, participants, receivers, slots and offsets, and for
   the vector collectives the counts and displacements (not the allocator). Entries live
   until goal_mpi_destroy: one schedule per distinct key, with the executions that finished
   on it (as many as were once in flight together), which later starts reuse: a repeated
   collective allocates nothing.

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
   changed).

   CONFIGURATION
   -------------
   GOAL_MPI_NO_BASE_IMPL   goal.h's, goal_sched.h's, goal_algos.h's implementations are elsewhere
   (and goal.h's GOAL_MALLOC, GOAL_FREE, GOAL_ASSERT, GOAL_API)

   LICENSE: MIT, as goal.h.
*/
#ifndef GOAL_MPI_H_INCLUDED
#define GOAL_MPI_H_INCLUDED
#include <mpi.h>
#include "goal_sched.h"
#include "goal_algos.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goal_mpi goal_mpi;
typedef struct goal_mpi_desc {   /* zero-initialise, then set comm */
    MPI_Comm comm;               /* required: duplicated by goal_mpi_create */
    uint32_t tags;               /* tags per context (T above); default 64 */
    goal_allocator alloc;
} goal_mpi_desc;

/* Duplicates desc->comm (collective over it) and posts the failure-notice recv. */
GOAL_API goal_status goal_mpi_create(goal_mpi **out, const goal_mpi_desc *desc, goal_error *err);
/* Frees the cache and the duplicate (collective); cancels what is still in flight. */
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
   must not overlap (there is no MPI_IN_PLACE); op GOAL_OP_USER needs goal_mpi_start. */
GOAL_API goal_status goal_mpi_algo_start(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out,
                                         goal_mpi_request **req);
GOAL_API goal_status goal_mpi_algo_run(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_MPI_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_MPI_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL_MPI__IMPL_DONE)
#define GOAL_MPI__IMPL_DONE
#if !defined(GOAL_MPI_NO_BASE_IMPL) && !defined(GOAL_SCHED_IMPLEMENTATION)
#define GOAL_SCHED_IMPLEMENTATION
#endif
#if !defined(GOAL_MPI_NO_BASE_IMPL) && !defined(GOAL_ALGOS_IMPLEMENTATION)
#define GOAL_ALGOS_IMPLEMENTATION
#endif
#include "goal_sched.h"
#include "goal_algos.h"
#include "goal.h"   /* its memory helpers */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* An MPI_Request lives in goal_req.word: an int in MPICH, a pointer in Open MPI. */
typedef char goal_mpi__request_fits[sizeof(MPI_Request) <= sizeof(uint64_t) ? 1 : -1];

typedef struct goal_mpi__entry {  /* one cached schedule */
    struct goal_mpi__entry *next;
    struct goal_mpi_request *idle; /* finished requests of this schedule, kept for reuse */
    goal_mpi_build_fn build_fn;
    size_t keylen;
    goal_schedule sched;
    unsigned char key[1];         /* keylen bytes (allocated with the entry) */
} goal_mpi__entry;

struct goal_mpi_request {
    goal_mpi *m;
    goal_mpi_request *next;       /* m's list of operations in flight, or the entry's idle list */
    goal_mpi__entry *entry;
    goal_exec *e;
    const goal_user_fn *fns;      /* what e was created with: reused only for the same */
    uint32_t nfns;
    uint32_t context;
    goal_status st;               /* GOAL_PENDING until it finished */
};

struct goal_mpi {
    MPI_Comm comm;                /* the duplicate */
    int rank, size;
    uint32_t tags, contexts;
    uint64_t seq;                 /* operations started: context = seq mod contexts */
    goal_allocator a;
    goal_error err;
    goal_mpi__entry *cache;
    goal_mpi_request *active;     /* in flight */
    goal_mpi_request *failed;     /* finished with an error: kept until destroy (FAILURES) */
    int revoked;                  /* 1 once a notice was sent or received */
    int created;                  /* goal_mpi_create finished: destroy may talk to the others */
    int notice_in[2];             /* rank, status of a notice received */
    int notice_out[2];            /* of the notice this rank sent */
    MPI_Request notice_recv;
    MPI_Request *notice_sends;    /* size entries, once revoked */
    MPI_Request *mreq;            /* test's scratch: cap + 1 requests, indices, statuses */
    int *idx;
    MPI_Status *mst;
    int cap;
};

/* ---- >>> memory and errors -------------------------------------------------------------- */
static void *goal_mpi__alloc(goal_mpi *m, size_t bytes) { return goal__alloc(&m->a, bytes); }
static void goal_mpi__free(goal_mpi *m, void *p) { goal__free(&m->a, p); }

static goal_status goal_mpi__say(goal_error *err, goal_status st, int rank, const char *fmt, ...) {
    va_list ap;
    if (!err) return st;
    err->status = st; err->line = err->col = 0; err->rank = rank; err->action = -1;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return st;
}
/* Records a failed MPI call with MPI's own words; truncation has its own status. */
static goal_status goal_mpi__mpi_failed(goal_mpi *m, int code, const char *call) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", code);
    MPI_Error_class(code, &cls);
    return goal_mpi__say(&m->err, cls == MPI_ERR_TRUNCATE ? GOAL_ERR_TRUNCATE : GOAL_ERR_TRANSPORT, m->rank,
                         "rank %d: %s: %s", m->rank, call, text);
}

/* ---- >>> the transport ------------------------------------------------------------------ */
static MPI_Request goal_mpi__get(const goal_req *q) { MPI_Request r; memcpy(&r, &q->word, sizeof r); return r; }
static void goal_mpi__put(goal_req *q, MPI_Request r) { q->word = 0; memcpy(&q->word, &r, sizeof r); }

static goal_status goal_mpi__revoked(goal_mpi *m) {
    return goal_mpi__say(&m->err, GOAL_ERR_TRANSPORT, m->rank, "rank %d revoked this communicator: %s",
                         m->notice_in[0], goal_strerror(m->notice_in[1]));
}
/* The MPI tag of (context, tag), or a negative status when it does not fit (see TAGS). */
static int goal_mpi__tag(goal_mpi *m, const goal_msg *msg) {
    if (msg->tag < 0)
        return goal_mpi__say(&m->err, GOAL_ERR_MATCH, m->rank, "rank %d, action %d: a recv from any tag cannot be kept "
                             "within its context over MPI: give it a tag", m->rank, (int)msg->action);
    if ((uint32_t)msg->tag >= m->tags || msg->context >= m->contexts)
        return goal_mpi__say(&m->err, GOAL_ERR_LIMIT, m->rank, "rank %d, action %d: tag %d, context %lu: MPI_TAG_UB allows "
                             "tags 0..%lu and contexts 0..%lu (goal_mpi_desc.tags sets the split)", m->rank,
                             (int)msg->action, (int)msg->tag, (unsigned long)msg->context,
                             (unsigned long)m->tags - 1, (unsigned long)m->contexts - 1);
    return (int)(msg->context * m->tags + (uint32_t)msg->tag);
}
static int goal_mpi__post(void *user, const goal_msg *msg, goal_req *req) {
    goal_mpi *m = (goal_mpi *)user;
    MPI_Request r = MPI_REQUEST_NULL;
    int tag = goal_mpi__tag(m, msg), rc;
    if (m->revoked) return goal_mpi__revoked(m);
    if (tag < 0) return tag;
    if (msg->size > INT_MAX)
        return goal_mpi__say(&m->err, GOAL_ERR_SIZE, m->rank, "rank %d, action %d: %llu bytes: MPI counts stop at INT_MAX",
                             m->rank, (int)msg->action, (unsigned long long)msg->size);
    if (msg->peer >= m->size || (msg->peer < 0 && (msg->kind == GOAL_SEND || msg->peer != GOAL_ANY)))
        return goal_mpi__say(&m->err, GOAL_ERR_PEER, m->rank, "rank %d, action %d: peer %d of %d ranks", m->rank,
                             (int)msg->action, (int)msg->peer, m->size);
    if (msg->kind == GOAL_SEND)
        rc = MPI_Isend(msg->data, (int)msg->size, MPI_BYTE, msg->peer, tag, m->comm, &r);
    else
        rc = MPI_Irecv(msg->data, (int)msg->size, MPI_BYTE, msg->peer == GOAL_ANY ? MPI_ANY_SOURCE : msg->peer, tag, m->comm, &r);
    if (rc != MPI_SUCCESS) return goal_mpi__mpi_failed(m, rc, msg->kind == GOAL_SEND ? "MPI_Isend" : "MPI_Irecv");
    goal_mpi__put(req, r);
    req->handle = msg->kind == GOAL_RECV ? m : NULL;   /* cancel treats the two kinds differently */
    return GOAL_PENDING;
}
static int goal_mpi__reserve(goal_mpi *m, int n) {
    int cap = m->cap ? m->cap : 16;
    if (n <= m->cap) return 1;
    while (cap < n) cap *= 2;
    goal_mpi__free(m, m->mreq); goal_mpi__free(m, m->idx); goal_mpi__free(m, m->mst);
    m->mreq = (MPI_Request *)goal_mpi__alloc(m, ((size_t)cap + 1) * sizeof(MPI_Request));
    m->idx = (int *)goal_mpi__alloc(m, ((size_t)cap + 1) * sizeof(int));
    m->mst = (MPI_Status *)goal_mpi__alloc(m, ((size_t)cap + 1) * sizeof(MPI_Status));
    m->cap = m->mreq && m->idx && m->mst ? cap : 0;
    return m->cap != 0;
}
/* One MPI_Testsome over the n requests and the failure-notice recv (one progress call of
   the library, not n + 1); how many finished. */
static int goal_mpi__test_all(goal_mpi *m, goal_req *reqs, int n) {
    int k, got = 0, done = 0, rc;
    if (!goal_mpi__reserve(m, n)) return goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: test: out of memory", m->rank);
    for (k = 0; k < n; k++) m->mreq[k] = goal_mpi__get(&reqs[k]);
    m->mreq[n] = m->notice_recv;
    rc = MPI_Testsome(n + 1, m->mreq, &got, m->idx, m->mst);
    m->notice_recv = m->mreq[n];
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) return goal_mpi__mpi_failed(m, rc, "MPI_Testsome");
    for (k = 0; got != MPI_UNDEFINED && k < got; k++) {
        int i = m->idx[k], e = rc == MPI_ERR_IN_STATUS ? m->mst[k].MPI_ERROR : MPI_SUCCESS;
        if (i == n) { m->revoked = 1; continue; }   /* the notice */
        goal_mpi__put(&reqs[i], MPI_REQUEST_NULL);   /* completed, or failed: gone either way */
        reqs[i].status = e == MPI_SUCCESS ? GOAL_OK : goal_mpi__mpi_failed(m, e, "MPI_Testsome");
        done++;
    }
    return m->revoked ? goal_mpi__revoked(m) : done;
}
/* MPICH raises a request's error (a truncated recv) on MPI_COMM_WORLD's handler, not on the
   request's communicator, and the default handler aborts: so under MPICH, MPI_COMM_WORLD
   returns errors while we test, and gets its own handler back after (four calls per test,
   which other libraries are spared). block is ignored (both libraries spin in a blocking
   wait anyway): the executor simply asks again. */
#ifdef MPICH_VERSION
#define GOAL_MPI__WORLD_RAISES 1
#else
#define GOAL_MPI__WORLD_RAISES 0
#endif
static int goal_mpi__test(void *user, goal_req *reqs, int n, int block) {
    goal_mpi *m = (goal_mpi *)user;
    MPI_Errhandler app;
    int done;
    (void)block;
    if (m->revoked) return goal_mpi__revoked(m);
    if (!GOAL_MPI__WORLD_RAISES) return goal_mpi__test_all(m, reqs, n);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &app);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    done = goal_mpi__test_all(m, reqs, n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, app);
    MPI_Errhandler_free(&app);
    return done;
}
static void goal_mpi__cancel(void *user, goal_req *req) {
    MPI_Request r = goal_mpi__get(req);
    (void)user;
    if (r == MPI_REQUEST_NULL) return;
    MPI_Cancel(&r);
    if (req->handle) MPI_Wait(&r, MPI_STATUS_IGNORE);   /* a recv: its cancel completes locally */
    else MPI_Request_free(&r);                           /* a send may never complete (FAILURES) */
    goal_mpi__put(req, MPI_REQUEST_NULL);
}

/* ---- >>> the communicator --------------------------------------------------------------- */
static goal_status goal_mpi__open(goal_mpi *m, MPI_Comm comm, goal_error *err) {
    int *ub = NULL, flag = 0, rc = MPI_Comm_dup(comm, &m->comm);
    if (rc != MPI_SUCCESS) { m->comm = MPI_COMM_NULL; return goal_mpi__mpi_failed(m, rc, "MPI_Comm_dup"); }
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &m->rank);
    MPI_Comm_size(m->comm, &m->size);
    /* MPI_TAG_UB is attached to MPI_COMM_WORLD; other communicators need not carry it. */
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    m->contexts = flag && ub && *ub > 0 ? (uint32_t)*ub / m->tags : 0;
    if (m->contexts == 0)
        return goal_mpi__say(err, GOAL_ERR_LIMIT, m->rank, "goal_mpi_create: %lu tags per context leave no context "
                             "below MPI_TAG_UB %d", (unsigned long)m->tags, flag && ub ? *ub : 0);
    rc = MPI_Irecv(m->notice_in, 2, MPI_INT, MPI_ANY_SOURCE, (int)(m->contexts * m->tags), m->comm, &m->notice_recv);
    return rc == MPI_SUCCESS ? GOAL_OK : goal_mpi__mpi_failed(m, rc, "MPI_Irecv (failure notice)");
}
goal_status goal_mpi_create(goal_mpi **out, const goal_mpi_desc *desc, goal_error *err) {
    goal_mpi *m;
    goal_allocator a;
    goal_status st;
    goal_mpi__say(err, GOAL_OK, -1, "");
    if (!out) return GOAL_ERR_ARG;
    *out = NULL;
    if (!desc || desc->comm == MPI_COMM_NULL)
        return goal_mpi__say(err, GOAL_ERR_ARG, -1, "goal_mpi_create: needs a communicator");
    a = goal__allocator(&desc->alloc);
    m = (goal_mpi *)a.alloc_fn(sizeof *m, a.user);
    if (!m) return goal_mpi__say(err, GOAL_ERR_NOMEM, -1, "goal_mpi_create: out of memory");
    memset(m, 0, sizeof *m);
    m->a = a;
    m->tags = desc->tags ? desc->tags : 64;
    m->notice_recv = MPI_REQUEST_NULL;
    m->err.rank = m->err.action = -1;
    st = goal_mpi__open(m, desc->comm, err);
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
    t.user = m; t.post = goal_mpi__post; t.test = goal_mpi__test; t.cancel = goal_mpi__cancel;
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
    m->notice_sends = (MPI_Request *)goal_mpi__alloc(m, (size_t)m->size * sizeof(MPI_Request));
    if (!m->notice_sends) return goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: revoke: out of memory", m->rank);
    for (r = 0; r < m->size; r++) {
        m->notice_sends[r] = MPI_REQUEST_NULL;
        if (r == m->rank) continue;
        rc = MPI_Isend(m->notice_out, 2, MPI_INT, r, (int)(m->contexts * m->tags), m->comm, &m->notice_sends[r]);
        if (rc != MPI_SUCCESS) return goal_mpi__mpi_failed(m, rc, "MPI_Isend (failure notice)");
    }
    return GOAL_OK;
}

/* ---- >>> collectives -------------------------------------------------------------------- */
static void goal_mpi__drop(goal_mpi_request *r) {
    goal_exec_destroy(r->e);
    goal_mpi__free(r->m, r);
}
static goal_mpi__entry *goal_mpi__build(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    int32_t id;
    goal_mpi__entry *e = (goal_mpi__entry *)goal_mpi__alloc(m, sizeof *e + c->keylen);
    memset(&gd, 0, sizeof gd);
    gd.rank = m->rank; gd.nranks = m->size; gd.alloc = m->a;
    if (!e || (*st = goal_graph_create(&g, &gd)) != GOAL_OK) {
        goal_mpi__free(m, e);
        *st = goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: building a schedule: out of memory", m->rank);
        return NULL;
    }
    m->err.status = GOAL_OK;
    id = c->build_fn(g, c->args, &m->err);
    if (id < 0 && m->err.status == GOAL_OK)
        goal_mpi__say(&m->err, (goal_status)id, m->rank, "rank %d: build_fn: %s", m->rank, goal_strerror(id));
    *st = id < 0 ? (goal_status)id : goal_compile(g, &e->sched, &m->err);
    goal_graph_destroy(g);
    if (*st != GOAL_OK) { goal_mpi__free(m, e); return NULL; }
    e->build_fn = c->build_fn;
    e->idle = NULL;
    e->keylen = c->keylen;
    if (c->keylen) memcpy(e->key, c->key, c->keylen);
    e->next = m->cache;
    m->cache = e;
    return e;
}
static goal_mpi__entry *goal_mpi__lookup(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    goal_mpi__entry *e;
    for (e = m->cache; e; e = e->next)
        if (e->build_fn == c->build_fn && e->keylen == c->keylen && (!c->keylen || !memcmp(e->key, c->key, c->keylen)))
            return e;
    return goal_mpi__build(m, c, st);
}
/* Records why r failed, with the transport's words (MPI's string) when it said something,
   and tells the other ranks unless they told us. */
static void goal_mpi__settle(goal_mpi_request *r, goal_status st) {
    goal_mpi *m = r->m;
    const goal_error *x;
    char why[GOAL_MSG_MAX];
    r->st = st;
    if (st >= 0) return;
    x = goal_exec_error(r->e);
    snprintf(why, sizeof why, "%s", m->err.status != GOAL_OK ? m->err.msg : "");
    if (x && x->status != GOAL_OK) {
        goal_mpi__say(&m->err, st, m->rank, "%s%s%s", x->msg, why[0] ? " -- " : "", why);
        m->err.action = x->action;
    }
    goal_mpi_revoke(m, st);
}
/* One pass over m's operations in flight; a revoked communicator fails them at once. */
static void goal_mpi__progress(goal_mpi *m) {
    goal_mpi_request *r;
    for (r = m->active; r; r = r->next) {
        if (r->st != GOAL_PENDING) continue;
        m->err.status = GOAL_OK;
        goal_mpi__settle(r, m->revoked ? goal_mpi__revoked(m) : goal_exec_test(r->e));
    }
}
/* An execution of e's schedule bound to slots: a finished one of e's idle list when it was
   made with the same user functions (no allocation for the repeated collective), else new. */
static goal_mpi_request *goal_mpi__request(goal_mpi *m, goal_mpi__entry *e, const goal_slot *slots, uint32_t nslots,
                                           const goal_user_fn *fns, uint32_t nfns, goal_status *st) {
    goal_exec_desc d;
    goal_mpi_request *r, **p;
    for (p = &e->idle; (r = *p) != NULL; p = &r->next)
        if (r->fns == fns && r->nfns == nfns) {
            if ((*st = goal_exec_bind(r->e, slots, nslots)) != GOAL_OK) { m->err = *goal_exec_error(r->e); return NULL; }
            *p = r->next;
            return r;
        }
    if (!(r = (goal_mpi_request *)goal_mpi__alloc(m, sizeof *r))) {
        *st = goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
        return NULL;
    }
    memset(r, 0, sizeof *r);
    memset(&d, 0, sizeof d);
    d.schedule = &e->sched; d.transport = goal_mpi_transport(m);
    d.slots = slots; d.nslots = nslots; d.user_fns = fns; d.nuser_fns = nfns;
    d.alloc = m->a;
    r->m = m; r->entry = e; r->fns = fns; r->nfns = nfns;
    if ((*st = goal_exec_create(&r->e, &d, &m->err)) != GOAL_OK) { goal_mpi__free(m, r); return NULL; }
    return r;
}
/* Starts e's schedule with these slots in the next context. */
static goal_status goal_mpi__launch(goal_mpi *m, goal_mpi__entry *e, const goal_slot *slots, uint32_t nslots,
                                    const goal_user_fn *fns, uint32_t nfns, goal_mpi_request **req) {
    goal_status st = GOAL_OK;
    goal_mpi_request *r = goal_mpi__request(m, e, slots, nslots, fns, nfns, &st);
    if (!r) { goal_mpi_revoke(m, st); return st; }
    r->context = (uint32_t)(m->seq++ % m->contexts);
    goal_exec_set_context(r->e, r->context);
    r->st = GOAL_PENDING;
    r->next = m->active;
    m->active = r;
    m->err.status = GOAL_OK;
    goal_mpi__settle(r, goal_exec_start(r->e));
    *req = r;
    return GOAL_OK;
}
/* The checks every start makes; then the cache entry for c. */
static goal_mpi__entry *goal_mpi__prepare(goal_mpi *m, const goal_mpi_coll *c, goal_status *st) {
    goal_mpi_request *r;
    uint32_t next = (uint32_t)(m->seq % m->contexts);
    if (m->revoked) { *st = goal_mpi__revoked(m); return NULL; }
    for (r = m->active; r; r = r->next)
        if (r->context == next) {
            *st = goal_mpi__say(&m->err, GOAL_ERR_LIMIT, m->rank, "rank %d: more than %lu collectives in flight on one "
                                "goal_mpi (context %lu is still in use)", m->rank, (unsigned long)m->contexts,
                                (unsigned long)next);
            return NULL;
        }
    return goal_mpi__lookup(m, c, st);
}
goal_status goal_mpi_start(goal_mpi *m, const goal_mpi_coll *c, goal_mpi_request **req) {
    goal_mpi__entry *e;
    goal_status st = GOAL_OK;
    if (req) *req = NULL;
    if (!m || !c || !c->build_fn || !req || (c->keylen && !c->key)) return GOAL_ERR_ARG;
    e = goal_mpi__prepare(m, c, &st);
    if (e) return goal_mpi__launch(m, e, c->slots, c->nslots, c->user_fns, c->nuser_fns, req);
    goal_mpi_revoke(m, st);   /* the other ranks started theirs: tell them */
    return st;
}
/* Takes a finished request off the list; a failed one's memory stays until destroy. */
static goal_status goal_mpi__finish_request(goal_mpi_request **req) {
    goal_mpi_request *r = *req, **p;
    goal_mpi *m = r->m;
    goal_status st = r->st;
    for (p = &m->active; *p != r; p = &(*p)->next) {}
    *p = r->next;
    if (st < 0) { r->next = m->failed; m->failed = r; }
    else { r->next = r->entry->idle; r->entry->idle = r; }
    *req = NULL;
    return st;
}
goal_status goal_mpi_test(goal_mpi_request **req) {
    if (!req || !*req) return GOAL_ERR_ARG;
    goal_mpi__progress((*req)->m);
    return (*req)->st == GOAL_PENDING ? GOAL_PENDING : goal_mpi__finish_request(req);
}
goal_status goal_mpi_wait(goal_mpi_request **req) {
    goal_mpi_request *r;
    if (!req || !*req) return GOAL_ERR_ARG;
    r = *req;
    while (r->st == GOAL_PENDING) goal_mpi__progress(r->m);
    return goal_mpi__finish_request(req);
}
goal_status goal_mpi_run(goal_mpi *m, const goal_mpi_coll *c) {
    goal_mpi_request *r;
    goal_status st = goal_mpi_start(m, c, &r);
    return st == GOAL_OK ? goal_mpi_wait(&r) : st;
}

/* Receives every notice sent to this rank. Unmatched, they would outlive the duplicate, and
   MPICH gives a freed communicator's context to the next MPI_Comm_dup: a later goal_mpi would
   find itself revoked. Each rank that revoked sent one notice to every other rank. */
static void goal_mpi__drain_notices(goal_mpi *m) {
    int sent = m->notice_sends != NULL, revokers = 0, left;
    MPI_Allreduce(&sent, &revokers, 1, MPI_INT, MPI_SUM, m->comm);
    left = revokers - sent - (m->notice_recv == MPI_REQUEST_NULL);   /* a completed notice_recv took one */
    if (left > 0 && m->notice_recv != MPI_REQUEST_NULL) { MPI_Wait(&m->notice_recv, MPI_STATUS_IGNORE); left--; }
    for (; left > 0; left--)
        MPI_Recv(m->notice_in, 2, MPI_INT, MPI_ANY_SOURCE, (int)(m->contexts * m->tags), m->comm, MPI_STATUS_IGNORE);
}
void goal_mpi_destroy(goal_mpi *m) {
    goal_mpi_request *r;
    int i;
    if (!m) return;
    if (m->active) goal_mpi_revoke(m, GOAL_ERR_STATE);   /* abandoned operations: peers must not wait */
    while ((r = m->active) != NULL) { m->active = r->next; goal_mpi__drop(r); }
    while ((r = m->failed) != NULL) { m->failed = r->next; goal_mpi__drop(r); }
    while (m->cache) {
        goal_mpi__entry *e = m->cache;
        m->cache = e->next;
        while ((r = e->idle) != NULL) { e->idle = r->next; goal_mpi__drop(r); }
        goal_schedule_free(&e->sched);
        goal_mpi__free(m, e);
    }
    if (m->created) goal_mpi__drain_notices(m);
    if (m->notice_recv != MPI_REQUEST_NULL) { MPI_Cancel(&m->notice_recv); MPI_Wait(&m->notice_recv, MPI_STATUS_IGNORE); }
    for (i = 0; m->notice_sends && i < m->size; i++) MPI_Wait(&m->notice_sends[i], MPI_STATUS_IGNORE);
    if (m->comm != MPI_COMM_NULL) MPI_Comm_free(&m->comm);
    goal_mpi__free(m, m->notice_sends);
    goal_mpi__free(m, m->mreq);
    goal_mpi__free(m, m->idx);
    goal_mpi__free(m, m->mst);
    goal_mpi__free(m, m);
}

/* ---- >>> algorithms of goal_algos.h ------------------------------------------------------ */
static int32_t goal_mpi__algo_build(goal_graph *g, const void *args, goal_error *err) {
    return goal_algo_build(g, (const goal_algo_desc *)args, NULL, 0, NULL, err);
}
static void goal_mpi__key_add(unsigned char *key, size_t *len, const void *p, size_t n) {
    if (key && n) memcpy(key + *len, p, n);
    *len += n;
}
/* A vector collective's arrays (p entries, p x p with counts_matrix) for the key; a NULL
   array adds a marker, so that it differs from any given one. */
static void goal_mpi__key_vector(const goal_algo_desc *d, int p, unsigned char *key, size_t *len) {
    const goal_algo_info *info = goal_algo_find(d->algo);
    const int *arr[4];
    size_t n = (size_t)p * (d->counts_matrix ? (size_t)p : 1), i;
    int marker = -1;
    if (!info || !(info->flags & GOAL_ALGO_VECTOR) || p <= 0) return;
    arr[0] = d->counts; arr[1] = d->displs; arr[2] = d->recv_counts; arr[3] = d->recv_displs;
    goal_mpi__key_add(key, len, &d->counts_matrix, sizeof d->counts_matrix);
    for (i = 0; i < 4; i++) {
        size_t k = i == 2 ? (size_t)p : n;
        if (arr[i]) goal_mpi__key_add(key, len, arr[i], k * sizeof(int));
        else goal_mpi__key_add(key, len, &marker, sizeof marker);
    }
}
/* The cache key of d (see CACHE): its length, and the bytes when key is not NULL. */
static size_t goal_mpi__algo_key(const goal_algo_desc *d, int p, unsigned char *key) {
    size_t len = 0;
    int np = d->participants ? d->nparticipants : -1, nr = d->receivers ? d->nreceivers : -1;
    int ints[9];
    uint64_t words[8];
    ints[0] = d->root; ints[1] = (int)d->dtype; ints[2] = (int)d->op; ints[3] = d->noncommutative;
    ints[4] = d->nway; ints[5] = d->tag; ints[6] = np; ints[7] = nr; ints[8] = d->custom_slots;
    words[0] = d->count; words[1] = d->fn; words[2] = d->segment; words[3] = d->in_slot;
    words[4] = d->out_slot; words[5] = d->in_offset; words[6] = d->out_offset; words[7] = d->scratch_offset;
    goal_mpi__key_add(key, &len, d->algo, strlen(d->algo) + 1);
    goal_mpi__key_add(key, &len, ints, sizeof ints);
    goal_mpi__key_add(key, &len, words, sizeof words);
    if (np > 0) goal_mpi__key_add(key, &len, d->participants, (size_t)np * sizeof(int));
    if (nr > 0) goal_mpi__key_add(key, &len, d->receivers, (size_t)nr * sizeof(int));
    goal_mpi__key_vector(d, p, key, &len);
    return len;
}
/* Binds in and out to the schedule's IN and OUT slots, sized as the schedule needs. */
static goal_status goal_mpi__algo_launch(goal_mpi *m, goal_mpi__entry *e, const goal_algo_desc *d, const void *in,
                                         void *out, goal_mpi_request **req) {
    goal_slot fixed[4], *slots = fixed;
    uint32_t n = e->sched.nslots, i, in_slot = d->custom_slots ? d->in_slot : GOAL_ALGO_SLOT_IN;
    uint32_t out_slot = d->custom_slots ? d->out_slot : GOAL_ALGO_SLOT_OUT;
    goal_status st;
    if (n > 4 && !(slots = (goal_slot *)goal_mpi__alloc(m, n * sizeof(goal_slot))))
        return goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
    for (i = 0; i < n; i++) { slots[i].data = NULL; slots[i].size = 0; }
    /* The algorithms never write IN (goal_algos.h, BUFFERS): casting const away is safe. */
    if (in_slot < n) { slots[in_slot].data = (void *)(uintptr_t)in; slots[in_slot].size = goal_schedule_slot_size(&e->sched, in_slot); }
    if (out_slot < n) { slots[out_slot].data = out; slots[out_slot].size = goal_schedule_slot_size(&e->sched, out_slot); }
    st = goal_mpi__launch(m, e, slots, n, NULL, 0, req);
    if (slots != fixed) goal_mpi__free(m, slots);
    return st;
}
goal_status goal_mpi_algo_start(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, goal_mpi_request **req) {
    unsigned char fixed[256], *key = fixed;
    goal_mpi_coll c;
    goal_mpi__entry *e;
    goal_status st = GOAL_OK;
    if (req) *req = NULL;
    if (!m || !d || !d->algo || !req) return GOAL_ERR_ARG;
    memset(&c, 0, sizeof c);
    c.build_fn = goal_mpi__algo_build;
    c.args = d;
    c.keylen = goal_mpi__algo_key(d, m->size, NULL);
    if (c.keylen > sizeof fixed && !(key = (unsigned char *)goal_mpi__alloc(m, c.keylen)))
        st = goal_mpi__say(&m->err, GOAL_ERR_NOMEM, m->rank, "rank %d: start: out of memory", m->rank);
    else {
        goal_mpi__algo_key(d, m->size, key);
        c.key = key;
        e = goal_mpi__prepare(m, &c, &st);
        if (e) st = goal_mpi__algo_launch(m, e, d, in, out, req);
        else goal_mpi_revoke(m, st);
    }
    if (key != fixed) goal_mpi__free(m, key);
    return st;
}
goal_status goal_mpi_algo_run(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out) {
    goal_mpi_request *r;
    goal_status st = goal_mpi_algo_start(m, d, in, out, &r);
    return st == GOAL_OK ? goal_mpi_wait(&r) : st;
}
#endif /* GOAL_MPI_IMPLEMENTATION */
