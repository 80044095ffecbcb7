/* goalmpi_record.c - GOAL_MPI_RECORD=PREFIX: the program's MPI communication recorded as one
   GOAL world, PREFIX.goal (docs/record.md is the manual; tools/record.h the part format and
   the assembly). Included by goalmpi.c (after its collectives, whose call it reads).

   Each rank keeps its actions in a compact array (16 bytes each, and 4 per dependency:
   tools/record.h) from MPI_Init to MPI_Finalize: the time between MPI calls as calc (ns,
   CLOCK_MONOTONIC; calls that record nothing, as an MPI_Test that finds nothing, add their
   gaps to the next calc), point-to-point messages (peers as world ranks, the wildcards'
   source and tag as they matched), every collective between its two anchors with the
   schedule libgoal ran (or, passed on to the library, would have run). A blocking call's
   action is what the next action requires; a nonblocking call's action is required by the
   next action after the completion call that finished it. At MPI_Finalize each rank writes
   PREFIX.<rank>.part, rank 0 assembles PREFIX.goal after a barrier and removes the parts; at
   exit without MPI_Finalize, or at MPI_Abort, each rank writes its part (`goal record
   PREFIX` assembles them).
   Persistent point-to-point requests are recorded at each MPI_Start(all) as a nonblocking
   send or receive; a matched probe's message as the receive of MPI_Mrecv / MPI_Imrecv.
   Not recorded (docs/record.md, LIMITS): intercommunicators, the messages of neighbourhood
   collectives and of vector collectives passed on to the library (their anchors are). Calls from Fortran come through
   goalmpi_fortran.c's entry points (Open MPI) or the library's (MPICH) to these. */
#include <time.h>
#include "../tools/record.h"

#define RECORD_MAX_DEFAULT 10000000ull   /* actions per rank: about 200 MB */
#define REC_CACHE 64                     /* schedules kept for repeated collectives */

typedef struct rec_req { MPI_Request r; uint32_t act, comm; int recv; } rec_req;
/* A persistent point-to-point request's parameters from its _init (the program may free its
   type and communicator before it starts it): peer as a world rank (-1: MPI_ANY_SOURCE), tag
   (INT32_MIN: MPI_ANY_TAG), the local communicator. */
typedef struct rec_pers { MPI_Request r; uint64_t bytes; int32_t peer, tag; uint32_t comm; int recv; } rec_pers;
/* A message a matched probe returned, until MPI_Mrecv / MPI_Imrecv takes it (they name no
   communicator): its source as a world rank, tag and bytes from the probe's status. */
typedef struct rec_msg { MPI_Message m; uint64_t bytes; int32_t peer, tag; uint32_t comm; } rec_msg;
typedef struct rec_sched {   /* a compiled schedule and each action's requirements */
    goal_algo_desc key;      /* algo, sizes and parameters: no arrays (those are never cached) */
    int p, me;
    goal_schedule s;
    uint32_t *first, *req;   /* action i requires req[first[i] .. first[i + 1]) */
    struct rec_sched *next;
} rec_sched;
static struct {
    int enabled, on, depth, stopped, finalized, me, np, keyval, in_coll;
    char prefix[3900];
    uint64_t t0, t_exit, calc, max;
    record_action *act; uint64_t nact, capact;
    uint32_t *dep; uint64_t ndep, capdep;
    uint32_t *front; uint32_t nfront, capfront;   /* what the next action requires */
    uint32_t *csize, *cfirst; uint32_t ncomm, capcomm;
    int32_t *members; uint64_t nmembers, capmembers;
    record_chan *chan; uint32_t nchan, capchan;
    record_map chanmap;
    rec_req *reqs; uint32_t nreq, capreq;
    rec_pers *pers; uint32_t npers, cappers;
    rec_msg *msgs; uint32_t nmsg, capmsg;
    int64_t coll_end;        /* a nonblocking collective's end anchor, until track names its request */
    rec_sched *cache; int ncache;
} R;

static uint64_t rec_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
/* Room for n more items of size in *a (cap *cap); 0 when out of memory. */
static int rec_grow(void **a, uint64_t *cap, uint64_t have, uint64_t n, size_t size) {
    uint64_t c = *cap ? *cap : 256;
    void *b;
    if (have + n <= *cap) return 1;
    while (c < have + n) c *= 2;
    if (!(b = realloc(*a, (size_t)c * size))) return 0;
    memset((char *)b + have * size, 0, (size_t)(c - have) * size);   /* its page faults now, at once */
    *a = b; *cap = c;
    return 1;
}
static int rec_grow32(void **a, uint32_t *cap, uint32_t have, uint32_t n, size_t size) {
    uint64_t c = *cap;
    int ok = rec_grow(a, &c, have, n, size);
    *cap = (uint32_t)c;
    return ok;
}
/* Recording stops, once, with one line: the limit, or memory. */
static void rec_stop(const char *why) {
    if (R.stopped) return;
    R.stopped = 1; R.on = 0;
    fprintf(stderr, "libgoalmpi: rank %d: %s: recording stops here (the program goes on)\n", R.me, why);
}

/* ---- actions ------------------------------------------------------------------------------- */
static int64_t rec_add(uint32_t kind, uint64_t arg, int32_t peer, uint32_t ref, const uint32_t *deps, uint32_t nd);
/* The time the program computed since the last call, as calc before the next action. */
static int rec_flush_calc(void) {
    uint64_t ns = R.calc;
    int64_t id;
    if (!ns) return 1;
    R.calc = 0;
    if ((id = rec_add(RECORD_CALC, ns, 0, 0, R.front, R.nfront)) < 0) return 0;
    R.front[0] = (uint32_t)id; R.nfront = 1;
    return 1;
}
/* Appends an action after deps; its id, or -1 when recording stopped. */
static int64_t rec_add(uint32_t kind, uint64_t arg, int32_t peer, uint32_t ref, const uint32_t *deps, uint32_t nd) {
    record_action *a;
    int front = deps == R.front;
    if (!R.on || (kind != RECORD_CALC && !rec_flush_calc()) || !R.on) return -1;
    if (front) nd = R.nfront;   /* the calc just flushed is now the frontier */
    if (R.nact >= R.max) { rec_stop("GOAL_MPI_RECORD_MAX actions recorded"); return -1; }
    if (!rec_grow((void **)&R.act, &R.capact, R.nact, 1, sizeof *R.act) ||
        !rec_grow((void **)&R.dep, &R.capdep, R.ndep, nd + 1, sizeof *R.dep)) { rec_stop("out of memory"); return -1; }
    a = &R.act[R.nact];
    a->arg = arg; a->peer = peer; a->word = RECORD_WORD(kind, nd < RECORD_MANY ? nd : RECORD_MANY, ref);
    if (nd >= RECORD_MANY) R.dep[R.ndep++] = nd;
    memcpy(R.dep + R.ndep, deps, nd * sizeof *deps);
    R.ndep += nd;
    return (int64_t)R.nact++;
}
static void rec_front_add(uint32_t id) {
    if (!rec_grow32((void **)&R.front, &R.capfront, R.nfront, 1, sizeof *R.front)) { rec_stop("out of memory"); return; }
    R.front[R.nfront++] = id;
}
static void rec_front_set(int64_t id) { if (id >= 0) { R.front[0] = (uint32_t)id; R.nfront = 1; } }

/* ---- entering and leaving a call: the calc between calls ------------------------------------ */
static void rec_start(int collective);
static int rec_enter(void) {
    if (!R.enabled && !R.finalized) rec_start(0);   /* MPI_Init reached the library directly (Fortran) */
    if (!R.on) return 0;
    if (R.depth++ == 0) R.calc += rec_now() - R.t_exit;
    return 1;
}
static void rec_leave(void) { if (--R.depth == 0) R.t_exit = rec_now(); }

/* ---- communicators and channels --------------------------------------------------------------- */
/* comm's local number (its members as world ranks kept), or -1 for an intercommunicator. */
static int64_t rec_comm(MPI_Comm comm) {
    void *v = NULL;
    int flag = 0, inter = 0, n = 0, i, *in, *out;
    MPI_Group g, wg;
    uint32_t id = R.ncomm;
    if (PMPI_Comm_get_attr(comm, R.keyval, &v, &flag) == MPI_SUCCESS && flag) return (int64_t)(uintptr_t)v - 1;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter || R.ncomm >= RECORD_MAX_COMMS) return -1;
    PMPI_Comm_size(comm, &n);
    if (!rec_grow32((void **)&R.csize, &R.capcomm, R.ncomm, 1, sizeof *R.csize) ||
        !(R.cfirst = (uint32_t *)realloc(R.cfirst, R.capcomm * sizeof *R.cfirst)) ||
        !rec_grow((void **)&R.members, &R.capmembers, R.nmembers, (uint64_t)n, sizeof *R.members) ||
        !(in = (int *)malloc((size_t)n * 2 * sizeof(int) + 1))) { rec_stop("out of memory"); return -1; }
    out = in + n;
    for (i = 0; i < n; i++) in[i] = i;
    PMPI_Comm_group(comm, &g); PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Group_translate_ranks(g, n, in, wg, out);
    PMPI_Group_free(&g); PMPI_Group_free(&wg);
    for (i = 0; i < n; i++) R.members[R.nmembers + (uint64_t)i] = out[i];
    free(in);
    R.csize[id] = (uint32_t)n; R.cfirst[id] = (uint32_t)R.nmembers;
    R.nmembers += (uint64_t)n; R.ncomm++;
    PMPI_Comm_set_attr(comm, R.keyval, (void *)(uintptr_t)(id + 1));
    return id;
}
static int32_t rec_world(uint32_t comm, int rank) { return R.members[R.cfirst[comm] + (uint32_t)rank]; }
/* The channel (communicator, tag); -1 when recording stopped. */
static int64_t rec_chan(uint32_t comm, int32_t tag) {
    record_slot *s = record_get(&R.chanmap, &(record_key){{(int32_t)comm, tag, 0, 0, 0}});
    if (!s) { rec_stop("out of memory"); return -1; }
    if (s->value) return s->value - 1;
    if (R.nchan >= RECORD_MAX_CHANS - 1 || !rec_grow32((void **)&R.chan, &R.capchan, R.nchan, 1, sizeof *R.chan)) {
        rec_stop("too many channels");
        return -1;
    }
    R.chan[R.nchan].comm = (int32_t)comm; R.chan[R.nchan].tag = tag;
    s->value = ++R.nchan;
    return s->value - 1;
}

/* ---- point to point ----------------------------------------------------------------------------- */
static uint64_t rec_bytes(int count, MPI_Datatype t) {
    int size = 0;
    PMPI_Type_size(t, &size);
    return count > 0 && size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}
/* A send's action after the frontier (blocking: the next action requires it); -1 if none. */
static int64_t rec_send(int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, int blocking) {
    int64_t c, ch, id;
    if (dest == MPI_PROC_NULL || (c = rec_comm(comm)) < 0 || (ch = rec_chan((uint32_t)c, tag)) < 0) return -1;
    id = rec_add(RECORD_SEND, rec_bytes(count, t), rec_world((uint32_t)c, dest), (uint32_t)ch, R.front, R.nfront);
    if (blocking) rec_front_set(id);
    return id;
}
/* A receive as it matched (status): source, tag and bytes; -1 if none (MPI_PROC_NULL). */
static int64_t rec_recv_in(uint32_t c, const MPI_Status *s, const uint32_t *deps, uint32_t nd) {
    int64_t ch;
    int bytes = 0;
    if (s->MPI_SOURCE == MPI_PROC_NULL || (ch = rec_chan(c, s->MPI_TAG)) < 0) return -1;
    PMPI_Get_count(s, MPI_BYTE, &bytes);
    return rec_add(RECORD_RECV, bytes > 0 ? (uint64_t)bytes : 0, rec_world(c, s->MPI_SOURCE), (uint32_t)ch, deps, nd);
}
static int64_t rec_recv(MPI_Comm comm, const MPI_Status *s, const uint32_t *deps, uint32_t nd) {
    int64_t c;
    if (s->MPI_SOURCE == MPI_PROC_NULL || (c = rec_comm(comm)) < 0) return -1;
    return rec_recv_in((uint32_t)c, s, deps, nd);
}
static void rec_req_add(MPI_Request r, int64_t act, uint32_t comm, int recv) {
    if (act < 0 || r == MPI_REQUEST_NULL) return;
    if (!rec_grow32((void **)&R.reqs, &R.capreq, R.nreq, 1, sizeof *R.reqs)) { rec_stop("out of memory"); return; }
    R.reqs[R.nreq].r = r; R.reqs[R.nreq].act = (uint32_t)act; R.reqs[R.nreq].comm = comm; R.reqs[R.nreq].recv = recv;
    R.nreq++;
}
/* A nonblocking send or receive posted as request q (peer -1 and tag INT32_MIN: the
   wildcards, until its completion says which matched): its action after the frontier. */
static void rec_post(MPI_Request q, int recv, uint64_t bytes, int32_t peer, uint32_t comm, int32_t tag) {
    int64_t ch = rec_chan(comm, tag);
    if (ch >= 0) rec_req_add(q, rec_add(recv ? RECORD_RECV : RECORD_SEND, bytes, peer, (uint32_t)ch, R.front, R.nfront), comm, recv);
}
/* Request r finished with status s: a receive takes the source, tag and bytes it matched;
   the next action requires its action. */
static void rec_done(MPI_Request r, const MPI_Status *s) {
    uint32_t i;
    int bytes = 0;
    int64_t ch;
    if (r == MPI_REQUEST_NULL) return;
    for (i = R.nreq; i-- > 0 && R.reqs[i].r != r;) {}
    if (i == (uint32_t)-1) return;
    if (R.reqs[i].recv && R.on && s && s->MPI_SOURCE != MPI_PROC_NULL && (ch = rec_chan(R.reqs[i].comm, s->MPI_TAG)) >= 0) {
        record_action *a = &R.act[R.reqs[i].act];
        PMPI_Get_count(s, MPI_BYTE, &bytes);
        a->peer = rec_world(R.reqs[i].comm, s->MPI_SOURCE);
        a->word = RECORD_WORD(RECORD_RECV, RECORD_NDEPS(a->word), (uint32_t)ch);
        a->arg = bytes > 0 ? (uint64_t)bytes : 0;
    }
    if (R.on) rec_front_add(R.reqs[i].act);
    R.reqs[i] = R.reqs[--R.nreq];
}
/* A call that failed (an erroneous argument under MPI_ERRORS_RETURN) records nothing. */
#define REC_BLOCKING_SEND(NAME, PNAME)                                                            \
    int NAME(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {            \
        int rc;                                                                                   \
        if (!rec_enter()) return PNAME(b, n, t, dest, tag, comm);                                 \
        rc = PNAME(b, n, t, dest, tag, comm);                                                     \
        if (rc == MPI_SUCCESS) rec_send(n, t, dest, tag, comm, 1);                                \
        rec_leave();                                                                              \
        return rc;                                                                                \
    }
#define REC_NONBLOCKING_SEND(NAME, PNAME)                                                           \
    int NAME(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *q) { \
        int rc;                                                                                     \
        if (!rec_enter()) return PNAME(b, n, t, dest, tag, comm, q);                                \
        rc = PNAME(b, n, t, dest, tag, comm, q);                                                    \
        if (rc == MPI_SUCCESS) rec_req_add(*q, rec_send(n, t, dest, tag, comm, 0), 0, 0);           \
        rec_leave();                                                                                \
        return rc;                                                                                  \
    }
REC_BLOCKING_SEND(MPI_Send, PMPI_Send)
REC_BLOCKING_SEND(MPI_Ssend, PMPI_Ssend)
REC_BLOCKING_SEND(MPI_Rsend, PMPI_Rsend)
REC_BLOCKING_SEND(MPI_Bsend, PMPI_Bsend)
REC_NONBLOCKING_SEND(MPI_Isend, PMPI_Isend)
REC_NONBLOCKING_SEND(MPI_Issend, PMPI_Issend)
REC_NONBLOCKING_SEND(MPI_Irsend, PMPI_Irsend)
REC_NONBLOCKING_SEND(MPI_Ibsend, PMPI_Ibsend)

int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *s) {
    MPI_Status own;
    int rc;
    if (!rec_enter()) return PMPI_Recv(b, n, t, src, tag, comm, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    rc = PMPI_Recv(b, n, t, src, tag, comm, s);
    if (rc == MPI_SUCCESS) rec_front_set(rec_recv(comm, s, R.front, R.nfront));
    rec_leave();
    return rc;
}
/* A receive posted: its action now (source and tag as given, -1 for the wildcards, until
   its completion says which matched). */
int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *q) {
    int rc;
    int64_t c;
    if (!rec_enter()) return PMPI_Irecv(b, n, t, src, tag, comm, q);
    rc = PMPI_Irecv(b, n, t, src, tag, comm, q);
    if (rc == MPI_SUCCESS && src != MPI_PROC_NULL && (c = rec_comm(comm)) >= 0)
        rec_post(*q, 1, rec_bytes(n, t), src == MPI_ANY_SOURCE ? -1 : rec_world((uint32_t)c, src), (uint32_t)c, tag == MPI_ANY_TAG ? INT32_MIN : tag);
    rec_leave();
    return rc;
}
/* Sendrecv: the send and the receive both after the frontier; the next action requires both. */
static void rec_sendrecv(int sn, MPI_Datatype st, int dest, int stag, MPI_Comm comm, const MPI_Status *s) {
    uint32_t before[2] = {0, 0}, nb = 0;
    int64_t sid = rec_send(sn, st, dest, stag, comm, 0), rid;
    uint32_t *deps = R.front, nd = R.nfront;
    if (s->MPI_SOURCE != MPI_PROC_NULL) {
        rid = rec_recv(comm, s, deps, nd);
        if (rid >= 0) before[nb++] = (uint32_t)rid;
    }
    if (sid >= 0) before[nb++] = (uint32_t)sid;
    if (nb) { memcpy(R.front, before, nb * sizeof *before); R.nfront = nb; }
}
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dest, int stag, void *rb, int rn, MPI_Datatype rt, int src,
                 int rtag, MPI_Comm comm, MPI_Status *s) {
    MPI_Status own;
    int rc;
    if (!rec_enter()) return PMPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    rc = PMPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, s);
    if (rc == MPI_SUCCESS && rec_grow32((void **)&R.front, &R.capfront, 0, 2, sizeof *R.front)) rec_sendrecv(sn, st, dest, stag, comm, s);
    rec_leave();
    return rc;
}
int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm comm, MPI_Status *s) {
    MPI_Status own;
    int rc;
    if (!rec_enter()) return PMPI_Sendrecv_replace(b, n, t, dest, stag, src, rtag, comm, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    rc = PMPI_Sendrecv_replace(b, n, t, dest, stag, src, rtag, comm, s);
    if (rc == MPI_SUCCESS && rec_grow32((void **)&R.front, &R.capfront, 0, 2, sizeof *R.front)) rec_sendrecv(n, t, dest, stag, comm, s);
    rec_leave();
    return rc;
}
/* A probe waits for a message that a receive then takes, and records that receive: the
   probe's own time is the library's, not the program's. */
int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *s) {
    int rc, on = rec_enter();
    rc = PMPI_Probe(src, tag, comm, s);
    if (on) rec_leave();
    return rc;
}
int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *s) {
    int rc, on = rec_enter();
    rc = PMPI_Iprobe(src, tag, comm, flag, s);
    if (on) rec_leave();
    return rc;
}

/* ---- persistent point to point: each start a nonblocking send or receive ------------------------ */
static void rec_pers_add(MPI_Request q, int recv, int n, MPI_Datatype t, int peer, int tag, MPI_Comm comm) {
    int64_t c;
    rec_pers *e;
    if (peer == MPI_PROC_NULL || (c = rec_comm(comm)) < 0) return;
    if (!rec_grow32((void **)&R.pers, &R.cappers, R.npers, 1, sizeof *R.pers)) { rec_stop("out of memory"); return; }
    e = &R.pers[R.npers++];
    e->r = q; e->recv = recv; e->bytes = rec_bytes(n, t); e->comm = (uint32_t)c;
    e->peer = recv && peer == MPI_ANY_SOURCE ? -1 : rec_world((uint32_t)c, peer);
    e->tag = recv && tag == MPI_ANY_TAG ? INT32_MIN : tag;
}
static rec_pers *rec_pers_of(MPI_Request r) {
    uint32_t i;
    for (i = 0; r != MPI_REQUEST_NULL && i < R.npers; i++) if (R.pers[i].r == r) return &R.pers[i];
    return NULL;
}
#define REC_SEND_INIT(NAME, PNAME)                                                                  \
    int NAME(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *q) { \
        int rc;                                                                                     \
        if (!rec_enter()) return PNAME(b, n, t, dest, tag, comm, q);                                \
        rc = PNAME(b, n, t, dest, tag, comm, q);                                                    \
        if (rc == MPI_SUCCESS) rec_pers_add(*q, 0, n, t, dest, tag, comm);                          \
        rec_leave();                                                                                \
        return rc;                                                                                  \
    }
REC_SEND_INIT(MPI_Send_init, PMPI_Send_init)
REC_SEND_INIT(MPI_Ssend_init, PMPI_Ssend_init)
REC_SEND_INIT(MPI_Rsend_init, PMPI_Rsend_init)
REC_SEND_INIT(MPI_Bsend_init, PMPI_Bsend_init)
int MPI_Recv_init(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *q) {
    int rc;
    if (!rec_enter()) return PMPI_Recv_init(b, n, t, src, tag, comm, q);
    rc = PMPI_Recv_init(b, n, t, src, tag, comm, q);
    if (rc == MPI_SUCCESS) rec_pers_add(*q, 1, n, t, src, tag, comm);
    rec_leave();
    return rc;
}
/* goalmpi.c's MPI_Start(all) (which start its persistent collectives) under the recorder:
   a started point-to-point request posts its send or receive, as MPI_Isend / MPI_Irecv do. */
static void rec_started(const MPI_Request *q, int n) {
    rec_pers *e;
    int i;
    for (i = 0; R.npers && i < n; i++)
        if ((e = rec_pers_of(q[i])) != NULL) rec_post(q[i], e->recv, e->bytes, e->peer, e->comm, e->tag);
}
int MPI_Start(MPI_Request *r) {
    int rc;
    if (!rec_enter()) return goalmpi__start(r);
    if ((rc = goalmpi__start(r)) == MPI_SUCCESS) rec_started(r, 1);
    rec_leave();
    return rc;
}
int MPI_Startall(int n, MPI_Request *q) {
    int rc;
    if (!rec_enter()) return goalmpi__startall(n, q);
    if ((rc = goalmpi__startall(n, q)) == MPI_SUCCESS) rec_started(q, n);
    rec_leave();
    return rc;
}
/* Freed, a persistent request's parameters go (its handle may come back for another). */
int MPI_Request_free(MPI_Request *r) {
    MPI_Request was = *r;
    rec_pers *e;
    int rc = goalmpi__request_free(r);
    if (rc == MPI_SUCCESS && R.npers && (e = rec_pers_of(was)) != NULL) *e = R.pers[--R.npers];
    return rc;
}

/* ---- matched probes: the receive is MPI_Mrecv's, or MPI_Imrecv's at its completion ------------- */
static void rec_msg_add(MPI_Message m, MPI_Comm comm, const MPI_Status *s) {
    int64_t c;
    int bytes = 0;
    rec_msg *e;
    if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC || s->MPI_SOURCE == MPI_PROC_NULL || (c = rec_comm(comm)) < 0) return;
    if (!rec_grow32((void **)&R.msgs, &R.capmsg, R.nmsg, 1, sizeof *R.msgs)) { rec_stop("out of memory"); return; }
    PMPI_Get_count(s, MPI_BYTE, &bytes);
    e = &R.msgs[R.nmsg++];
    e->m = m; e->bytes = bytes > 0 ? (uint64_t)bytes : 0; e->comm = (uint32_t)c;
    e->peer = rec_world((uint32_t)c, s->MPI_SOURCE); e->tag = s->MPI_TAG;
}
/* The probed message m, taken from the list into *out; 0 if unknown. */
static int rec_msg_take(MPI_Message m, rec_msg *out) {
    uint32_t i;
    for (i = 0; i < R.nmsg && R.msgs[i].m != m; i++) {}
    if (i == R.nmsg) return 0;
    *out = R.msgs[i];
    R.msgs[i] = R.msgs[--R.nmsg];
    return 1;
}
int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *m, MPI_Status *s) {
    MPI_Status own;
    int rc;
    if (!rec_enter()) return PMPI_Mprobe(src, tag, comm, m, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if ((rc = PMPI_Mprobe(src, tag, comm, m, s)) == MPI_SUCCESS) rec_msg_add(*m, comm, s);
    rec_leave();
    return rc;
}
int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *m, MPI_Status *s) {
    MPI_Status own;
    int rc;
    if (!rec_enter()) return PMPI_Improbe(src, tag, comm, flag, m, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if ((rc = PMPI_Improbe(src, tag, comm, flag, m, s)) == MPI_SUCCESS && *flag) rec_msg_add(*m, comm, s);
    rec_leave();
    return rc;
}
int MPI_Mrecv(void *b, int n, MPI_Datatype t, MPI_Message *m, MPI_Status *s) {
    MPI_Status own;
    rec_msg e;
    MPI_Message was = *m;
    int rc;
    if (!rec_enter()) return PMPI_Mrecv(b, n, t, m, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if ((rc = PMPI_Mrecv(b, n, t, m, s)) == MPI_SUCCESS && rec_msg_take(was, &e)) rec_front_set(rec_recv_in(e.comm, s, R.front, R.nfront));
    rec_leave();
    return rc;
}
int MPI_Imrecv(void *b, int n, MPI_Datatype t, MPI_Message *m, MPI_Request *q) {
    rec_msg e;
    MPI_Message was = *m;
    int rc;
    if (!rec_enter()) return PMPI_Imrecv(b, n, t, m, q);
    if ((rc = PMPI_Imrecv(b, n, t, m, q)) == MPI_SUCCESS && rec_msg_take(was, &e)) rec_post(*q, 1, e.bytes, e.peer, e.comm, e.tag);
    rec_leave();
    return rc;
}

/* ---- completions: goalmpi.c's (which progress libgoal) under the recorder ------------------- */
/* The handles before the call (the call sets finished ones to MPI_REQUEST_NULL), and
   statuses where the caller passed MPI_STATUSES_IGNORE. */
static MPI_Request *rec_saved(int n, const MPI_Request *q, MPI_Status **s, MPI_Status **own) {
    MPI_Request *was = (MPI_Request *)malloc((size_t)(n + 1) * sizeof *was);
    *own = NULL;
    if (!was) return NULL;
    memcpy(was, q, (size_t)n * sizeof *was);
    if (*s == MPI_STATUSES_IGNORE && !(*s = *own = (MPI_Status *)malloc((size_t)(n + 1) * sizeof **s))) { free(was); return NULL; }
    return was;
}
int MPI_Wait(MPI_Request *q, MPI_Status *s) {
    MPI_Status own;
    MPI_Request was = *q;
    int rc;
    if (!rec_enter()) return goalmpi__wait(q, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if ((rc = goalmpi__wait(q, s)) == MPI_SUCCESS) rec_done(was, s);
    rec_leave();
    return rc;
}
int MPI_Test(MPI_Request *q, int *flag, MPI_Status *s) {
    MPI_Status own;
    MPI_Request was = *q;
    int rc;
    if (!rec_enter()) return goalmpi__test(q, flag, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if ((rc = goalmpi__test(q, flag, s)) == MPI_SUCCESS && *flag) rec_done(was, s);
    rec_leave();
    return rc;
}
/* Waitall and Testall: every request, when all finished. */
static int rec_all(int n, MPI_Request *q, int *flag, MPI_Status *s) {
    MPI_Status *own;
    MPI_Request *was;
    int rc, i, done = 1;
    if (!rec_enter()) return flag ? goalmpi__testall(n, q, flag, s) : goalmpi__waitall(n, q, s);
    if (!(was = rec_saved(n, q, &s, &own))) { rec_leave(); return flag ? goalmpi__testall(n, q, flag, s) : goalmpi__waitall(n, q, s); }
    rc = flag ? goalmpi__testall(n, q, flag, s) : goalmpi__waitall(n, q, s);
    if (flag) done = *flag;
    for (i = 0; (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && done && i < n; i++) rec_done(was[i], &s[i]);
    free(was); free(own);
    rec_leave();
    return rc;
}
int MPI_Waitall(int n, MPI_Request *q, MPI_Status *s) { return rec_all(n, q, NULL, s); }
int MPI_Testall(int n, MPI_Request *q, int *flag, MPI_Status *s) { return rec_all(n, q, flag, s); }
/* Waitany and Testany: the one that finished. */
static int rec_any(int n, MPI_Request *q, int *idx, int *flag, MPI_Status *s) {
    MPI_Status own;
    MPI_Request *was;
    int rc;
    if (!rec_enter()) return flag ? goalmpi__testany(n, q, idx, flag, s) : goalmpi__waitany(n, q, idx, s);
    if (s == MPI_STATUS_IGNORE) s = &own;
    if (!(was = (MPI_Request *)malloc((size_t)(n + 1) * sizeof *was))) { rec_leave(); return flag ? goalmpi__testany(n, q, idx, flag, s) : goalmpi__waitany(n, q, idx, s); }
    memcpy(was, q, (size_t)n * sizeof *was);
    rc = flag ? goalmpi__testany(n, q, idx, flag, s) : goalmpi__waitany(n, q, idx, s);
    if (rc == MPI_SUCCESS && (!flag || *flag) && *idx != MPI_UNDEFINED) rec_done(was[*idx], s);
    free(was);
    rec_leave();
    return rc;
}
int MPI_Waitany(int n, MPI_Request *q, int *idx, MPI_Status *s) { return rec_any(n, q, idx, NULL, s); }
int MPI_Testany(int n, MPI_Request *q, int *idx, int *flag, MPI_Status *s) { return rec_any(n, q, idx, flag, s); }
/* Waitsome and Testsome: those that finished. */
static int rec_some(int n, MPI_Request *q, int *out, int *idx, MPI_Status *s, int test) {
    MPI_Status *own;
    MPI_Request *was;
    int rc, i;
    if (!rec_enter()) return test ? goalmpi__testsome(n, q, out, idx, s) : goalmpi__waitsome(n, q, out, idx, s);
    if (!(was = rec_saved(n, q, &s, &own))) { rec_leave(); return test ? goalmpi__testsome(n, q, out, idx, s) : goalmpi__waitsome(n, q, out, idx, s); }
    rc = test ? goalmpi__testsome(n, q, out, idx, s) : goalmpi__waitsome(n, q, out, idx, s);
    for (i = 0; (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *out != MPI_UNDEFINED && i < *out; i++) rec_done(was[idx[i]], &s[i]);
    free(was); free(own);
    rec_leave();
    return rc;
}
int MPI_Waitsome(int n, MPI_Request *q, int *out, int *idx, MPI_Status *s) { return rec_some(n, q, out, idx, s, 0); }
int MPI_Testsome(int n, MPI_Request *q, int *out, int *idx, MPI_Status *s) { return rec_some(n, q, out, idx, s, 1); }

/* ---- collectives ---------------------------------------------------------------------------------- */
/* The schedule of d at rank me of p, compiled, with its actions' requirements; cached unless
   d has arrays (vector collectives). NULL when it cannot be built. */
static rec_sched *rec_build(const goal_algo_desc *d, int p, int me) {
    rec_sched *e, **pp;
    goal_algo_desc key;
    goal_graph_desc gd;
    goal_graph *g = NULL;
    goal_error err;
    uint32_t i, k, n;
    const uint32_t *deps;
    int arrays = d->counts || d->displs || d->recv_counts || d->recv_displs;
    memset(&key, 0, sizeof key);
    key.algo = d->algo; key.root = d->root; key.count = d->count; key.dtype = d->dtype; key.op = d->op; key.fn = d->fn;
    key.noncommutative = d->noncommutative; key.nway = d->nway; key.segment = d->segment; key.radix = d->radix;
    for (e = R.cache; !arrays && e && (e->p != p || e->me != me || memcmp(&e->key, &key, sizeof key) != 0); e = e->next) {}
    if (!arrays && e) return e;
    if (!(e = (rec_sched *)calloc(1, sizeof *e))) return NULL;
    e->key = key; e->p = p; e->me = me;
    memset(&gd, 0, sizeof gd);
    gd.rank = me; gd.nranks = p;
    if (goal_graph_create(&g, &gd, &err) != GOAL_OK || goal_algo_build(g, d, NULL, 0, NULL, &err) < 0 || goal_compile(g, &e->s, &err) != GOAL_OK) {
        goal_graph_destroy(g); free(e); return NULL;
    }
    goal_graph_destroy(g);
    n = e->s.nactions;
    e->first = (uint32_t *)calloc(n + 2, sizeof(uint32_t));
    e->req = (uint32_t *)malloc((e->s.nedges + 1) * sizeof(uint32_t));
    for (i = 0; e->first && e->req && i < n; i++)   /* count, then place, each action's requirements */
        for (k = 0; k < goal_schedule_deps(&e->s, i, &deps); k++) e->first[(deps[k] & ~RECORD_IDEP) + 2]++;
    for (i = 0; e->first && e->req && i < n; i++) e->first[i + 2] += e->first[i + 1];
    for (i = 0; e->first && e->req && i < n; i++)
        for (k = 0; k < goal_schedule_deps(&e->s, i, &deps); k++) e->req[e->first[(deps[k] & ~RECORD_IDEP) + 1]++] = i | (deps[k] & RECORD_IDEP);
    if (!e->first || !e->req) { goal_schedule_free(&e->s); free(e->first); free(e->req); free(e); return NULL; }
    if (arrays) return e;
    if (R.ncache == REC_CACHE) {   /* the oldest goes */
        for (pp = &R.cache; (*pp)->next; pp = &(*pp)->next) {}
        goal_schedule_free(&(*pp)->s); free((*pp)->first); free((*pp)->req); free(*pp);
        *pp = NULL; R.ncache--;
    }
    e->next = R.cache; R.cache = e; R.ncache++;
    return e;
}
static void rec_sched_drop(rec_sched *e) {
    rec_sched *c;
    for (c = R.cache; c && c != e; c = c->next) {}
    if (c) return;
    goal_schedule_free(&e->s); free(e->first); free(e->req); free(e);
}
/* The schedule's actions between the anchors: its peers as world ranks (communicator comm),
   its tags as channels -1 - tag; the end anchor requires those without dependents. */
static void rec_schedule(const rec_sched *e, uint32_t comm, uint32_t start, uint32_t **ends, uint32_t *nends) {
    uint32_t i, base = (uint32_t)R.nact, k, *deps = NULL;
    const uint32_t *dd;
    goal_action a;
    *nends = 0;
    if (!(deps = (uint32_t *)malloc((e->s.nedges + 1) * sizeof *deps)) || !(*ends = (uint32_t *)malloc((e->s.nactions + 1) * sizeof **ends))) {
        free(deps); *ends = NULL; rec_stop("out of memory"); return;
    }
    for (i = 0; R.on && i < e->s.nactions; i++) {
        uint32_t nd = e->first[i + 1] - e->first[i], kind;
        int32_t peer = 0;
        int64_t ch = 0;
        goal_schedule_action(&e->s, i, &a);
        for (k = 0; k < nd; k++) deps[k] = (base + (e->req[e->first[i] + k] & ~RECORD_IDEP)) | (e->req[e->first[i] + k] & RECORD_IDEP);
        if (!nd) deps[nd++] = start;
        kind = a.kind == GOAL_SEND ? RECORD_SEND : a.kind == GOAL_RECV ? RECORD_RECV : a.kind == GOAL_EXEC ? RECORD_EXEC : a.kind == GOAL_CALC ? RECORD_CALC : RECORD_NOP;
        if (kind == RECORD_SEND || kind == RECORD_RECV) { peer = rec_world(comm, a.peer); ch = rec_chan(comm, -1 - a.tag); }
        if (kind == RECORD_EXEC) peer = a.op == GOAL_OP_USER ? (int32_t)GOAL_UINT8 : (int32_t)((unsigned)a.op << 8 | (unsigned)a.dtype);
        if (ch < 0 || rec_add(kind, kind == RECORD_CALC ? a.cost : a.buf.size, peer, (uint32_t)ch, deps, nd) < 0) break;
        if (!goal_schedule_deps(&e->s, i, &dd)) (*ends)[(*nends)++] = base + i;
    }
    free(deps);
}
/* What libgoal would have run for a call passed on: the algorithm chosen before it was
   passed on, else auto's pick or the default table's. NULL for a vector collective (their
   arrays are the library's). */
static const goal_algo_info *rec_would_run(const call *k) {
    const goal_algo_info *a = k->algo;
    if (!a && G.autocoll[k->c] >= 0 && goal_mpi_auto(k->m, G.autocoll[k->c], k->bytes, 0, &a) != GOAL_OK) a = NULL;
    if (!a) a = G.kind[k->c];
    return a && !(a->flags & GOAL_ALGO_VECTOR) && k->c < C_NEIGHBOR_ALLGATHER ? a : NULL;
}
/* This rank's bytes B of the anchor label: its own block (vector collectives: its own count). */
static uint64_t rec_own_bytes(const call *k, int me, int p) {
    uint64_t b = 0;
    int i;
    if (!k->d.counts) return k->c == C_GATHERV || k->c == C_SCATTERV || k->c == C_ALLGATHERV ? k->d.count : k->bytes;
    if (k->c == C_REDUCE_SCATTER) return (uint64_t)k->d.counts[me] * goal_dtype_size(k->d.dtype);
    for (i = 0; i < p; i++) b += (uint64_t)k->d.counts[i];
    return b;
}
/* The user's communicator of k (the drop-in runs on a duplicate of it). */
static MPI_Comm rec_user_comm(const call *k) {
    comm_entry *e;
    for (e = G.comms; e && e->m != k->m; e = e->next) {}
    return e ? e->comm : MPI_COMM_NULL;
}
/* record_coll while recording (or before it knows whether it records). */
static void rec_coll(const call *k, int is_served) {
    MPI_Comm comm;
    int64_t c, start, end;
    int me = 0, p = 1, rooted;
    rec_sched *e = NULL;
    uint32_t *ends = NULL, nends = 0;
    goal_algo_desc d;
    const goal_algo_info *a = is_served ? k->algo : NULL;
    comm = k->m ? rec_user_comm(k) : MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL || !rec_enter()) return;
    R.in_coll = 1;
    if ((c = rec_comm(comm)) < 0) return;
    PMPI_Comm_rank(comm, &me); PMPI_Comm_size(comm, &p);
    rooted = G.kind[k->c] && (G.kind[k->c]->flags & GOAL_ALGO_ROOTED);
    start = rec_add(RECORD_START, rec_own_bytes(k, me, p), rooted ? k->d.root : -1, RECORD_ANCHOR_REF(k->c, c), R.front, R.nfront);
    if (start < 0) return;
    d = k->d;
    if (!is_served && (a = rec_would_run(k)) != NULL) {
        memset(&d, 0, sizeof d);
        d.algo = a->name; d.count = k->bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM; d.root = k->d.root;
    }
    if (p > 1 && a && k->c < C_NEIGHBOR_ALLGATHER && (e = rec_build(&d, p, me)) != NULL) rec_schedule(e, (uint32_t)c, (uint32_t)start, &ends, &nends);
    if (e) rec_sched_drop(e);
    if (!nends && !ends) ends = (uint32_t *)malloc(sizeof *ends);
    if (ends && !nends) ends[nends++] = (uint32_t)start;
    end = ends ? rec_add(RECORD_END, 0, -1, RECORD_ANCHOR_REF(k->c, c), ends, nends) : -1;
    free(ends);
    if (!k->nb) rec_front_set(end);
    else R.coll_end = end;   /* until track or record_passed_req names its request */
}
/* A collective call (served: the schedule run; else what libgoal would have run), between
   its two anchors. Its time is the library's until record_coll_end. Not recording, it
   returns at once: every call of every program passes here. */
static void record_coll(const call *k, int is_served) {
    if (R.on || !R.finalized) rec_coll(k, is_served);   /* else rec_enter would say no */
}
/* The collective begun by record_coll returned (blocking: finished). */
static void record_coll_end(void) {
    if (!R.in_coll) return;
    R.in_coll = 0;
    rec_leave();
}
static int record_passed_end(int rc) {
    if (R.coll_end >= 0 && R.on) rec_front_add((uint32_t)R.coll_end);   /* no request named: as if finished */
    R.coll_end = -1;
    record_coll_end();
    return rc;
}
/* A nonblocking call passed on returned its request: the end anchor is released with it. */
static int record_passed_req(int rc, MPI_Request *q) {
    if (rc == MPI_SUCCESS) record_request(*q);
    return record_passed_end(rc);
}
/* A nonblocking collective's generalized request: its completion releases the end anchor. */
static void record_request(MPI_Request r) {
    if (R.coll_end >= 0 && R.on) rec_req_add(r, R.coll_end, 0, 0);
    R.coll_end = -1;
    record_coll_end();
}

/* ---- start and end -------------------------------------------------------------------------------- */
static void rec_write_part(int finalized);
/* At exit without MPI_Finalize: the part, then a wait of at most 10 s for the other ranks'
   parts (a nonblocking barrier), since a launcher may end the job when its first rank exits
   (MPICH's does) and cut a part still being written. A rank that never comes costs the wait. */
static void rec_at_exit(void) {
    MPI_Request req;
    struct timespec ms = {0, 1000000};
    int done = 0, fin = 1, k;
    if (!R.enabled || R.finalized) return;
    rec_write_part(0);
    if (PMPI_Finalized(&fin) != MPI_SUCCESS || fin || PMPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS) return;
    for (k = 0; k < 10000 && PMPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done; k++) nanosleep(&ms, NULL);
}
/* GOAL_MPI_RECORD: every rank checks that it can write its part; from MPI_Init (collective)
   all record, or none (the first rank that cannot says why, in one line); started by a
   first call instead, each rank decides alone (that call may be a send on one rank only). */
static void rec_start(int collective) {
    const char *prefix = getenv("GOAL_MPI_RECORD"), *max = getenv("GOAL_MPI_RECORD_MAX");
    char path[4000];
    FILE *f;
    int ok, first = 0, err = 0, init = 0;
    R.coll_end = -1;
    R.finalized = 1;   /* until it is on: nothing to write */
    PMPI_Initialized(&init);
    if (!prefix || !*prefix || !init) return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &R.me); PMPI_Comm_size(MPI_COMM_WORLD, &R.np);
    snprintf(R.prefix, sizeof R.prefix, "%s", prefix);
    snprintf(path, sizeof path, "%s.%d.part", prefix, R.me);
    ok = strlen(prefix) < sizeof R.prefix - 32 && (f = fopen(path, "wb")) != NULL;
    if (!ok) err = errno ? errno : ENAMETOOLONG;
    else fclose(f);
    first = ok = ok ? R.np : R.me;
    if (collective) (PMPI_Allreduce)(&ok, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < R.np) {
        if (first == R.me) fprintf(stderr, "libgoalmpi: GOAL_MPI_RECORD=%s: cannot write %s: %s; not recording\n", prefix, path, strerror(err));
        if (ok == R.np) remove(path);
        return;
    }
    R.max = max && *max ? strtoull(max, NULL, 10) : RECORD_MAX_DEFAULT;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &R.keyval, NULL) != MPI_SUCCESS) return;
    if (!rec_grow32((void **)&R.front, &R.capfront, 0, 16, sizeof *R.front)) return;
    R.enabled = R.on = 1; R.finalized = 0;
    rec_comm(MPI_COMM_WORLD);   /* local communicator 0 */
    atexit(rec_at_exit);
    R.t0 = R.t_exit = rec_now();
}
static int rec_write(FILE *f, const void *p, size_t size, uint64_t n) { return n == 0 || fwrite(p, size, (size_t)n, f) == (size_t)n; }
static void rec_write_part(int finalized) {
    record_head h;
    char path[4000], names[RECORD_NAMES][RECORD_NAME_LEN];
    FILE *f;
    int c, ok;
    memset(&h, 0, sizeof h); memset(names, 0, sizeof names);
    memcpy(h.magic, RECORD_MAGIC, 8);
    h.rank = R.me; h.nranks = R.np; h.finalized = (uint32_t)finalized; h.stopped = (uint32_t)R.stopped;
    h.ns = rec_now() - R.t0;
    h.nact = R.nact; h.ndep = R.ndep; h.nmembers = R.nmembers; h.ncomm = R.ncomm; h.nchan = R.nchan;
    for (c = 0; c < NCOLL && c < RECORD_NAMES; c++) snprintf(names[c], RECORD_NAME_LEN, "%s", goal_coll_call(c));
    snprintf(path, sizeof path, "%s.%d.part", R.prefix, R.me);
    R.finalized = 1; R.on = 0;
    ok = (f = fopen(path, "wb")) != NULL;
    ok = ok && rec_write(f, &h, sizeof h, 1) && rec_write(f, names, sizeof names, 1) && rec_write(f, R.csize, sizeof *R.csize, R.ncomm) &&
         rec_write(f, R.members, sizeof *R.members, R.nmembers) && rec_write(f, R.chan, sizeof *R.chan, R.nchan) &&
         rec_write(f, R.act, sizeof *R.act, R.nact) && rec_write(f, R.dep, sizeof *R.dep, R.ndep);
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "libgoalmpi: GOAL_MPI_RECORD: cannot write %s: %s\n", path, strerror(errno));
}
/* MPI_Finalize: every part written, then rank 0 assembles PREFIX.goal and removes the parts. */
static void record_finalize(void) {
    record_world rw;
    char why[400], path[4000];
    int r;
    if (!R.enabled || R.finalized) return;
    rec_write_part(1);
    (PMPI_Barrier)(MPI_COMM_WORLD);   /* parenthesised: not goalmpi.c's timing of a passed-on call */
    if (R.me != 0) return;
    if (!record_assemble(R.prefix, &rw, stderr, why, sizeof why)) {
        fprintf(stderr, "record: %s.goal: %s\n", R.prefix, why);
    } else {
        fprintf(stderr, "record: %s.goal: %d ranks, %llu actions, measured %llu ns\n", R.prefix, rw.nranks,
                (unsigned long long)rw.actions, (unsigned long long)rw.ns);
        for (r = 0; rw.nparts == rw.nranks && r < rw.nranks; r++) {
            snprintf(path, sizeof path, "%s.%d.part", R.prefix, r);
            remove(path);
        }
    }
    record_world_free(&rw);
}
int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) rec_start(1);
    return rc;
}
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) rec_start(1);
    return rc;
}
int MPI_Abort(MPI_Comm comm, int code) {
    if (R.enabled && !R.finalized) rec_write_part(0);
    return PMPI_Abort(comm, code);
}
