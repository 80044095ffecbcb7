/* goalmpi.c - libgoalmpi: the collectives of an unmodified MPI program on libgoal schedules,
   through MPI's profiling interface (PMPI). Built by `make mpi-lib` for each MPI library:
     mpirun -x LD_PRELOAD=$PWD/build/openmpi/libgoalmpi.so -np 4 ./app          (Open MPI)
     mpirun.mpich -env LD_PRELOAD $PWD/build/mpich/libgoalmpi.so -np 4 ./app    (MPICH)
   or link it before the MPI library. Everything an embedder needs (types and ops, the
   cache, progress) is goal_mpi.h's; this file only maps MPI's calls onto it.

   Intercepted: MPI_Bcast, Reduce, Allreduce, Gather(v), Scatter(v), Allgather(v),
   Alltoall(v,w), Reduce_scatter, Reduce_scatter_block, Scan, Exscan, Barrier,
   Neighbor_allgather(v), Neighbor_alltoall(v,w) and their nonblocking forms (which return
   generalized requests), MPI_Wait/Test/Waitall/Testall/Waitany/Testany/Waitsome/Testsome
   (which also progress libgoal), MPI_Op_create/Op_free (each op gets a twin, below),
   MPI_Finalize. The neighbourhood calls take their lists from
   the communicator's topology (Cartesian: -1, +1 per dimension, directions kept; graph,
   distributed graph: repeated pairs in order) into goal_algo_neighbor_build's schedule;
   without a topology they are passed on ("no topology"). Where mpi.h is MPI 4 (MPICH 4.0;
   not Open MPI 4.1): the persistent collectives (MPI_Bcast_init ... MPI_Reduce_scatter_init,
   the v-forms included) with MPI_Start/Startall, the completion calls and MPI_Request_free;
   each start runs the nonblocking form (counted there: ibcast ...); the first start of one
   that needs no copy prepares it (goal_mpi.h, PREPARED), the later ones run that. MPI_Alltoallw_init and MPI_Neighbor_*_init are the library's.
   MPI's handle rules: the caller may free a nonblocking call's op and datatypes once it
   returned, and MPI_Op_create hand the freed op's handle to a new op before the wait. So a
   nonblocking call holds its own references until it ends: its derived types kept past the
   call (an unpack, a reduction through MPI_Reduce_local) are MPI_Type_dup'ed, and a user op
   is replaced by its twin (PMPI_Op_create of the same function and commute flag, made by
   the first nonblocking call that needs it, freed when the op was freed and no call uses it).
   Non-contiguous datatypes of the data-movement calls are packed locally (MPI_Pack) and
   unpacked at the end, so no rank's decision depends on its types' layout.
   Fortran (goalmpi_fortran.c, included at the end): the same calls, and MPI_Alltoallw, the
   neighbourhood and MPI 4 persistent collectives, MPI_Start(all), MPI_Request_free (under
   Open MPI also the point-to-point calls the recorder sees: MPI_Send ... MPI_Iprobe, the
   persistent _init calls, MPI_Mprobe ... MPI_Imrecv), under every
   spelling the library's Fortran library exports (mpi_allreduce_, MPI_ALLREDUCE, Open MPI's
   ompi_allreduce_f, the mpi_f08 ones that bypass those), converted to C's handles and
   sentinels and passed to the C entry points (Open MPI's own Fortran layer calls PMPI_*, which
   would bypass the drop-in); GOAL_MPI_STATS counts the calls from Fortran.
   Passed on to the PMPI_ call, and counted: intercommunicators, reductions on datatypes
   with holes, sizes beyond INT_MAX bytes, collectives that GOAL_MPI_ALGOS
   sets to "mpi", nonblocking reductions with a user op made behind the drop-in (Open MPI's
   Fortran layer calls PMPI_Op_create: no twin can be made). A reduction the selected algorithm cannot serve (a non-commutative op on
   one that does not keep rank order, an element libgoal must not split on one without
   GOAL_ALGO_WHOLE) falls back (fallback_of): reduce_binomial, allreduce_recdoub, or for a
   non-commutative op allreduce_reduce_bcast, reduce_scatter_reduce_scatter,
   reduce_scatterv_reduce_scatterv (a binomial reduce to rank 0 in rank order, then out).
   The decision is local: it depends only on what MPI requires to agree across ranks (type
   signature size, count, root, op, communicator), never on extra communication.
   Repeated calls: a blocking MPI_Bcast, Reduce, Allreduce, Gather(v), Scatter(v),
   Allgather(v), Alltoall(v), Reduce_scatter(_block), Scan, Exscan, Barrier,
   Neighbor_allgather or Neighbor_alltoall made again with the arguments of one of the last
   16 that missed (buffers, counts, types, op, root, communicator; the v-forms' count and
   displacement arrays by their contents) is prepared (goal_mpi.h, PREPARED) and the next
   ones run it without translating the call
   -- where no argument can change meaning: predefined types and ops (a freed derived
   handle may name the next one), nothing packed, copied or bridged (MPI_IN_PLACE where the
   algorithm takes it without a copy), no nonblocking call in flight; a freed communicator's
   are forgotten. Up to 16 are kept.

   GOAL_MPI_ALGOS="allreduce=allreduce_recdoub:<=2048,allreduce_ring;bcast=bcast_binomial"
     per collective, rules "algorithm[@PARAM=V...][:<=BYTES]" tried in order; the first whose
     bound holds for the bytes of one block (count x type size) is used; "mpi" passes the
     collective on. PARAM is nway, segment (bytes) or radix, as goal tune prints them
     (`goal tune -p N --format env` writes this string): bcast=bcast_knomial@radix=8,
     bcast_chain@segment=65536; unset ones keep goal_algos.h's defaults (nway and radix up
     to 1024, segment up to INT_MAX). Sizes past the last rule's bound keep the default
     table's choice. A rule that is wrong (an algorithm of another collective than the
     collective's default algorithm, goal_algo_info.coll; a bound not
     "<=BYTES" up to 2^63-1; a bound not above the rule before it, or any rule after one
     without; a parameter unknown, empty, given twice, not taken by the algorithm or out of
     range), or a collective named twice, is said once on rank 0, naming the rule and what is
     wrong, and that collective keeps its default.
     The v-collectives use their first rule (no size is known to all ranks). Collectives not
     named keep the default table:
       bcast=bcast_binomial  reduce=reduce_binomial:<=2048,reduce_rabenseifner
       allreduce=allreduce_recdoub:<=2048,allreduce_rabenseifner
       gather=gather_binomial  gatherv=gatherv_linear  scatter=scatter_binomial
       scatterv=scatterv_linear  allgather=allgather_bruck:<=1024,allgather_ring
       allgatherv=allgatherv_ring  alltoall=alltoall_bruck:<=256,alltoall_pairwise
       alltoallv=alltoallv_pairwise  reduce_scatter=reduce_scatterv_ring
       reduce_scatter_block=reduce_scatter_ring  scan=scan_linear  exscan=exscan_linear
       barrier=barrier_dissemination  alltoallw=alltoallv_pairwise (on bytes: each side's
       blocks packed into one buffer by a struct type unless all are contiguous)
     Chosen by simulation (`goal tune -p 4 --format env`: Rabenseifner from 2048 bytes for
     reduce and allreduce at p = 4, from 512 at p = 8 and 16) and measured through the
     drop-in at np 2 under Open MPI on 2 shared cores (median of 90 calls): allreduce at
     256 KB 30 us against recdoub's 101, at 4 MB 3.3 ms against 17.5; reduce at 256 KB 37
     us against binomial's 70-78. bcast_scatter_allgather, which the simulation prefers
     from 2048 bytes at p >= 4, measured 3-4x slower than bcast_binomial at np 2 and 4
     there (27 against 8 us at 256 KB, np 2; 1.6 against 0.5 ms at 1 MB, np 4), and
     allgather_neighbor mixed against allgather_ring (136 against 147 us at 1 MB, np 2;
     3.6 against 1.9 ms, np 4): both stay out of the defaults (set them with
     GOAL_MPI_ALGOS on a network, where bytes per rank count more).
   GOAL_MPI_PARAMS=FILE  a LogGOPS model, one line of goal sim options (what goal probe -o
     writes): the rule name "auto" then lets the model choose (goal_mpi.h's COLL_auto, AUTO
     there) for bcast reduce allreduce allgather alltoall gather scatter reduce_scatter_block
     scan barrier, the same on every rank, cached per communicator, collective and size
     class; with GOAL_MPI_ALGOS unset, those collectives default to auto (the others keep the
     table above). For a non-commutative op auto picks among the algorithms that keep rank
     order; for elements libgoal must not split (long double, the pair types) a pick that
     splits is passed on (counted). Without GOAL_MPI_PARAMS, auto uses goal_sim.h's default
     model.
   GOAL_MPI_STATS=1  at MPI_Finalize rank 0 prints to stderr a first line naming the drop-in,
     the library it was built for and what reached it, also when nothing did:
     "libgoalmpi 0.1.0 (Open MPI 4.1.4): 40016 collective calls, 40004 libgoal, 12 passed on";
     then per collective it saw "allreduce: 40004 libgoal, 0 passed on" (with the reasons of
     those passed on; "(12 from Fortran)" after a count when calls came through the Fortran
     entry points, which set goal__mpi_from_fortran around the C call), and
     after it, when the collective served MPI_IN_PLACE calls, "allreduce in place: 12
     native, 3 copied", and when auto chose, the algorithms it ran and how often, in the
     order first used: "allreduce auto: allreduce_dissemination 4, allreduce_rabenseifner 36".
   GOAL_MPI_CHECK=1  compares (algorithm, parameters, count, type, op, root) across ranks
     before each collective starts (goal_mpi_desc.check).
   Rules: one thread calls MPI at a time (the drop-in keeps no locks: MPI_THREAD_SERIALIZED
   programs are fine, MPI_THREAD_MULTIPLE ones must not call collectives concurrently).
   MPI_IN_PLACE is native (no copy: goal_mpi_algo_start with MPI_IN_PLACE) for the algorithms
   flagged GOAL_ALGO_INPLACE in goal_algos.h, when no side is packed; otherwise (scan_linear,
   exscan_linear, the two-tree, pipelined-tree and dissemination reductions,
   alltoall, the reduce-scatters, non-contiguous types) it costs a copy of this rank's input
   (all of it for alltoall(v) and the reduce-scatters), counted as "copied"; each nonblocking call allocates its generalized request's state, and v-calls their
   scaled counts; the schedules themselves are cached (hash) and never rebuilt.
   GOAL_MPI_RECORD=PREFIX records the program's communication as a GOAL world, PREFIX.goal
   (goalmpi_record.c, docs/record.md). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime: the recorder's CLOCK_MONOTONIC */
#include <mpi.h>
/* goal_mpi.h's own MPI calls must reach the library, not the interceptors below. */
#define MPI_Test PMPI_Test
#define MPI_Testsome PMPI_Testsome
#define MPI_Isend PMPI_Isend
#define MPI_Irecv PMPI_Irecv
#define MPI_Recv PMPI_Recv
#define MPI_Waitsome PMPI_Waitsome
#define MPI_Wait PMPI_Wait
#define MPI_Allreduce PMPI_Allreduce
#define MPI_Iallreduce PMPI_Iallreduce
#define MPI_Finalize PMPI_Finalize
#define GOAL_ALL_IMPLEMENTATION
#define GOAL_SIM_NO_PICTURES   /* COLL_auto simulates; the drop-in draws nothing (goal_sim.h DRAW) */
#include "../goal_mpi.h"
#undef MPI_Test
#undef MPI_Testsome
#undef MPI_Isend
#undef MPI_Irecv
#undef MPI_Recv
#undef MPI_Waitsome
#undef MPI_Wait
#undef MPI_Allreduce
#undef MPI_Iallreduce
#undef MPI_Finalize
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(OMPI_MAJOR_VERSION)   /* the MPI library this drop-in is built for, in the stats */
#define BUILT_FOR "Open MPI " STR(OMPI_MAJOR_VERSION) "." STR(OMPI_MINOR_VERSION) "." STR(OMPI_RELEASE_VERSION)
#elif defined(MPICH_VERSION)
#define BUILT_FOR "MPICH " MPICH_VERSION
#else
#define BUILT_FOR "MPI " STR(MPI_VERSION) "." STR(MPI_SUBVERSION)
#endif

enum { C_BCAST, C_REDUCE, C_ALLREDUCE, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLGATHER, C_ALLGATHERV,
       C_ALLTOALL, C_ALLTOALLV, C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN, C_EXSCAN, C_BARRIER,
       C_ALLTOALLW, C_NEIGHBOR_ALLGATHER, C_NEIGHBOR_ALLGATHERV, C_NEIGHBOR_ALLTOALL, C_NEIGHBOR_ALLTOALLV,
       C_NEIGHBOR_ALLTOALLW, NCOLL };
/* The enum is goal_coll_call's order (the stats and a recording's names). */
typedef char coll_order_check[NCOLL == GOAL_COLL_NCALLS ? 1 : -1];
static const char *const default_algos =
    "bcast=bcast_binomial;reduce=reduce_binomial:<=2048,reduce_rabenseifner;"
    "allreduce=allreduce_recdoub:<=2048,allreduce_rabenseifner;"
    "gather=gather_binomial;gatherv=gatherv_linear;scatter=scatter_binomial;scatterv=scatterv_linear;"
    "allgather=allgather_bruck:<=1024,allgather_ring;allgatherv=allgatherv_ring;"
    "alltoall=alltoall_bruck:<=256,alltoall_pairwise;alltoallv=alltoallv_pairwise;"
    "reduce_scatter=reduce_scatterv_ring;reduce_scatter_block=reduce_scatter_ring;scan=scan_linear;"
    "exscan=exscan_linear;barrier=barrier_dissemination;alltoallw=alltoallv_pairwise";
enum { W_INTER, W_TYPE, W_OP, W_SPLIT, W_SIZE, W_CHOSEN, W_CREATE, W_AUTO, W_HANDLE, W_TOPO, NWHY };   /* W_TYPE: with holes, for a
   reduction, a v-call or in place (data movement packs them otherwise) */
static const char *const why_name[NWHY] = {
    "intercommunicator", "datatype with holes", "non-commutative op on an unordered algorithm",
    "element size the algorithm would split", "over INT_MAX bytes", "GOAL_MPI_ALGOS says mpi",
    "goal_mpi_create failed", "auto could not choose", "user op not made through MPI_Op_create", "no topology"};
/* An op of MPI_Op_create and its twin, the same function made again: nonblocking calls reduce
   with the twin, so that the caller may free the op (and MPI_Op_create hand its handle to a
   new op) before the wait. The twin is made by the first nonblocking call that needs it, so
   that a program of blocking calls gets from MPI the op handles it would get without the
   drop-in; it lives until the op was freed and no call uses it. */
typedef struct userop {
    MPI_Op op, twin;            /* twin: MPI_OP_NULL until a nonblocking call needs it */
    MPI_User_function *fn;
    int commute;
    int users, freed;           /* nonblocking calls in flight with twin; MPI_Op_free(op) ran */
    struct userop *next;
} userop;
/* What a nonblocking call holds until it ends: its op's twin, duplicates of its derived
   types (MPI_Type_dup), as MPI lets the caller free them once the call returned. */
typedef struct held { userop *op; MPI_Datatype t[2]; int nt; } held;

#define MAX_RULES 8
#define NRULES (MAX_RULES + 2)   /* and the default ones after a last rule with a bound */
#define MAX_PICKS 32   /* distinct algorithms auto picked per collective (more than any has) */
typedef struct pick { const goal_algo_info *algo; unsigned long long n; } pick;
typedef struct rule {   /* algo NULL and not autopick: "mpi"; nway, radix, segment 0: the defaults */
    unsigned long long max, segment;
    const goal_algo_info *algo;
    int autopick, nway, radix;
} rule;
static struct {
    int ready, check, stats;
    goal_sim_desc model;        /* GOAL_MPI_PARAMS, for auto */
    rule rules[NCOLL][NRULES];
    int nrules[NCOLL];
    const goal_algo_info *kind[NCOLL];   /* c's default algorithm: what c's algorithms are like (fits) */
    unsigned long long served[2][NCOLL], passed[2][NCOLL][NWHY];
    unsigned long long fortran[2][NCOLL][2];   /* of those, calls from Fortran: [0] served, [1] passed on */
    int in_fortran;             /* goal__mpi_from_fortran: the calls made now come from Fortran */
    unsigned long long inplace[2][NCOLL][2];   /* MPI_IN_PLACE calls: [0] native, [1] copied */
    pick picks[2][NCOLL][MAX_PICKS];           /* what auto ran, in the order first seen */
    int autocoll[NCOLL];        /* auto_coll(c), derived once */
    int keyval;
    struct comm_entry *comms;   /* in creation order, for MPI_Finalize */
    struct comm_entry *last;    /* comm_goal's last answer, without MPI's attribute lookup
                                   (drop_comm forgets it with its communicator) */
    struct known_type { MPI_Datatype t; long long extent; } types[8];   /* predefined types seen */
    struct known_red { MPI_Datatype t; MPI_Op op; goal_dtype dtype; goal_op gop; } reds[8];   /* native reductions seen */
    int ntypes, nreds;
    struct pending *pending;    /* nonblocking operations in flight */
    userop *userops;            /* every op of MPI_Op_create, newest first */
    held hold;                  /* what the nonblocking call being started holds (begin_reduce):
                                   run_unpack moves it into its pending, passed releases it */
} G = {0};

typedef struct comm_entry { MPI_Comm comm; goal_mpi *m; int me, p; struct comm_entry *next; } comm_entry;
struct unpack;
typedef struct pending {      /* a nonblocking collective: its generalized request's state */
    goal_mpi_request *r;
    MPI_Request greq;
    void *tmp, *tmp2;         /* MPI_IN_PLACE copies, packed inputs, scratch: freed at the end */
    struct unpack {           /* a non-contiguous receive side, laid out when it finished */
        void *packed; int bytes; void *dst; int count; MPI_Datatype t; MPI_Comm comm;
        int own_t;                    /* t was made here (alltoallw's layout): freed after */
        int nb, *counts, *at, *pat;   /* nb > 0: blocks of counts[i] elements at dst + at[i] bytes, packed at pat[i] */
    } u;
    goal_status st;
    goal_mpi *m;
    held h;
    struct pending *next;
} pending;

/* ---- selection ------------------------------------------------------------------------------ */
/* The collective of goal_algos.h's table that c is when auto can pick for it (a tuned one:
   reduce_scatter_block is, the vector reduce_scatter not), or -1. */
static int auto_coll(int c) {
    int k = goal_coll_find_call(goal_coll_call(c));
    return k < GOAL_COLL_NTUNED ? k : -1;
}
/* GOAL_MPI_PARAMS=FILE into G.model; 0 when unset or unreadable (said on rank 0). */
static int read_params(const char *path, int me) {
    char text[4096];
    size_t len = 0;
    goal_error err;
    FILE *f = fopen(path, "rb");
    int bad = 0;   /* a read error (a directory opens, then fails here) */
    if (f) { len = fread(text, 1, sizeof text, f); bad = ferror(f) ? errno : 0; fclose(f); }
    if (!f || bad || goal_sim_params(&G.model, text, len, &err) != GOAL_OK) {
        if (me == 0) fprintf(stderr, "libgoalmpi: GOAL_MPI_PARAMS=%s: %s%s\n", path, !f ? "cannot open" : bad ? "cannot read: " : err.msg,
                             f && bad ? strerror(bad) : "");
        memset(&G.model, 0, sizeof G.model);
        return 0;
    }
    return 1;
}
/* GOAL_MPI_ALGOS's parameters: the flag of goal_algos.h an algorithm takes each with, and
   their range (a wider fan-out only costs scratch: nway + 1 blocks; a segment past INT_MAX
   is one segment, as no message is larger). */
static const struct { const char *name; unsigned flag; unsigned long long min, max; } param_info[3] = {
    {"nway", GOAL_ALGO_NWAY, 1, 1024}, {"segment", GOAL_ALGO_SEGMENTED, 1, INT_MAX}, {"radix", GOAL_ALGO_RADIX, 2, 1024}};
/* Decimal digits only, at most max, into *v. */
static int parse_number(const char *s, unsigned long long max, unsigned long long *v) {
    *v = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || *v > (max - (unsigned long long)(*s - '0')) / 10) return 0;
        *v = *v * 10 + (unsigned long long)(*s - '0');
    }
    return 1;
}
/* Whether algorithm a serves collective c: it implements the collective of c's default
   algorithm (goal_algo_info.coll). */
static int fits(int c, const goal_algo_info *a) {
    return !G.kind[c] || a->coll == G.kind[c]->coll;
}
/* A rule's "@nway=N@segment=B@radix=K" (what goal tune prints), at points past the '@', for
   algo (flags: what it takes) into out; 0 with why. */
static int parse_params(char *at, const char *algo, unsigned flags, rule *out, char *why, size_t len) {
    unsigned seen = 0;
    while (at) {
        char *next = strchr(at, '@'), *eq = strchr(at, '=');
        unsigned long long v = 0;
        int k;
        if (next) *next++ = 0;
        if (eq) *eq++ = 0;
        for (k = 0; k < 3 && strcmp(param_info[k].name, at); k++) {}
        if (!*at) return snprintf(why, len, "an empty parameter after '@'"), 0;
        if (k == 3) return snprintf(why, len, "no parameter '%s' (nway, segment, radix)", at), 0;
        if (!(flags & param_info[k].flag)) return snprintf(why, len, "%s takes no %s", algo, at), 0;
        if (seen & param_info[k].flag) return snprintf(why, len, "%s given twice", at), 0;
        if (!eq || !parse_number(eq, param_info[k].max, &v) || v < param_info[k].min)
            return snprintf(why, len, "%s=%s: takes %llu to %llu", at, eq ? eq : "", param_info[k].min, param_info[k].max), 0;
        seen |= param_info[k].flag;
        if (k == 0) out->nway = (int)v;
        else if (k == 1) out->segment = v;
        else out->radix = (int)v;
        at = next;
    }
    return 1;
}
/* One rule "ALGO[@PARAM=V...][:<=BYTES]" of collective c into out (zeroed: the defaults);
   0 with why. */
static int parse_rule(char *r, int c, rule *out, char *why, size_t len) {
    char *colon = strchr(r, ':'), *at;
    const goal_algo_info *a;
    memset(out, 0, sizeof *out);
    out->max = ~0ull;
    if (colon) {
        *colon++ = 0;
        if (strncmp(colon, "<=", 2) != 0 || !parse_number(colon + 2, LLONG_MAX, &out->max))
            return snprintf(why, len, "the bound '%s' is not <=BYTES (0 to 2^63-1)", colon), 0;
    }
    if ((at = strchr(r, '@')) != NULL) *at++ = 0;
    a = goal_algo_find(r);
    out->autopick = strcmp(r, "auto") == 0;
    if (!*r) return snprintf(why, len, "no algorithm"), 0;
    if (!a && !out->autopick && strcmp(r, "mpi") != 0) return snprintf(why, len, "no algorithm '%s'", r), 0;
    if (out->autopick && G.autocoll[c] < 0) return snprintf(why, len, "no auto for %s", goal_coll_call(c)), 0;
    if (a && !fits(c, a)) return snprintf(why, len, "%s is not an algorithm of %s", r, goal_coll_call(c)), 0;
    out->algo = a;
    if (!G.kind[c]) G.kind[c] = a;   /* the default table comes first */
    return !at || parse_params(at, r, a ? a->flags : 0, out, why, len);
}
/* Whether rule r can ever be used after the n before it (bounds must grow); 0 with why. */
static int reachable(const rule *before, int n, const rule *r, char *why, size_t len) {
    if (!n || (before[n - 1].max != ~0ull && r->max > before[n - 1].max)) return 1;
    if (before[n - 1].max == ~0ull) return snprintf(why, len, "never used: the rule before it takes every size"), 0;
    return snprintf(why, len, "never used: its bound is not above the rule before it (<=%llu)", before[n - 1].max), 0;
}
/* "coll=rule,rule" into G.rules[c] (before: c's rules until now, which follow a last rule
   with a bound); 0 with why, the rule at fault in text. */
static int parse_coll(int c, char *rules, const rule *before, int nbefore, char *text, size_t tlen, char *why, size_t len) {
    rule got[NRULES];
    char *r, *next;
    int n = 0, i;
    *text = 0;
    if (!*rules) return snprintf(why, len, "no rule"), 0;
    for (r = rules; r; r = next, n++) {
        if ((next = strchr(r, ',')) != NULL) *next++ = 0;
        snprintf(text, tlen, "%s", r);
        if (n == MAX_RULES) return snprintf(why, len, "more than %d rules", MAX_RULES), 0;
        if (!parse_rule(r, c, &got[n], why, len) || !reachable(got, n, &got[n], why, len)) return 0;
    }
    for (i = 0; got[n - 1].max != ~0ull && i < nbefore; i++) got[n++] = before[i];   /* sizes past the last bound */
    memcpy(G.rules[c], got, (size_t)n * sizeof got[0]);
    G.nrules[c] = n;
    return 1;
}
/* "coll=rules;coll=rules" into the rule table. What is wrong is said once on rank 0, naming
   the rule, and that collective keeps the rules it had (the default table's). */
static void parse_rules(const char *spec, int me) {
    static rule before[NCOLL][NRULES];   /* static: 10 KB */
    char buf[2048], *item, *next, text[256], why[256];
    int named[NCOLL] = {0}, nbefore[NCOLL], c;
    memcpy(before, G.rules, sizeof before);
    memcpy(nbefore, G.nrules, sizeof nbefore);
    snprintf(buf, sizeof buf, "%s", spec);
    for (item = buf; item; item = next) {
        char *eq = strchr(item, '=');
        if ((next = strchr(item, ';')) != NULL) *next++ = 0;
        if (!*item) continue;
        if (!eq) { if (me == 0) fprintf(stderr, "libgoalmpi: GOAL_MPI_ALGOS: '%s' is not COLLECTIVE=RULES\n", item); continue; }
        *eq = 0;
        if ((c = goal_coll_call_find(item)) < 0) { if (me == 0) fprintf(stderr, "libgoalmpi: GOAL_MPI_ALGOS: no collective '%s'\n", item); continue; }
        if (named[c]++) {
            if (me == 0) fprintf(stderr, "libgoalmpi: GOAL_MPI_ALGOS: %s is named twice (%s keeps its default)\n", item, item);
        } else if (parse_coll(c, eq + 1, before[c], nbefore[c], text, sizeof text, why, sizeof why)) {
            continue;
        } else if (me == 0 && !*text) {
            fprintf(stderr, "libgoalmpi: GOAL_MPI_ALGOS: %s=: %s (%s keeps its default)\n", item, why, item);
        } else if (me == 0) {
            fprintf(stderr, "libgoalmpi: GOAL_MPI_ALGOS: %s rule '%s': %s (%s keeps its default)\n", item, text, why, item);
        }
        memcpy(G.rules[c], before[c], sizeof before[c]);
        G.nrules[c] = nbefore[c];
    }
}
static void setup(void) {
    int me = 0;
    const char *env;
    int c;
    if (G.ready) return;
    G.ready = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (c = 0; c < NCOLL; c++) G.autocoll[c] = auto_coll(c);
    parse_rules(default_algos, me);
    if ((env = getenv("GOAL_MPI_PARAMS")) != NULL && read_params(env, me) && !getenv("GOAL_MPI_ALGOS"))
        parse_rules("bcast=auto;reduce=auto;allreduce=auto;allgather=auto;alltoall=auto;gather=auto;scatter=auto;"
                    "reduce_scatter_block=auto;scan=auto;barrier=auto", me);
    if ((env = getenv("GOAL_MPI_ALGOS")) != NULL) parse_rules(env, me);
    G.stats = (env = getenv("GOAL_MPI_STATS")) != NULL && atoi(env) != 0;
    G.check = (env = getenv("GOAL_MPI_CHECK")) != NULL && atoi(env) != 0;
}
/* A collective call as the interceptors handle it; autopick: k->algo is auto's pick. */
typedef struct call {
    int c, nb, why, autopick, fortran;
    unsigned long long bytes;
    goal_mpi *m;
    const goal_algo_info *algo;
    goal_algo_desc d;
} call;
/* Repeated calls (see fast_try): a blocking call made again with the same arguments runs a
   collective prepared for them (goal_mpi.h, PREPARED). */
#define NFAST 16
typedef struct fast_key {
    int c, fortran, count, rcount, root;
    const void *s;
    void *r;
    MPI_Datatype t, rt;
    MPI_Op op;
    MPI_Comm comm;
    uint64_t h;                 /* a v-call's counts and displacements (fast_try_v), hashed; else 0 */
} fast_key;
typedef struct fast {
    fast_key key;
    goal_mpi_prepared *p;
    goal_mpi *m;
    call k;
    unsigned inplace;
    int *v, nv, vp;             /* a v-call's nv arrays of vp ints, as they were; then k.d's */
} fast;
static struct {
    fast f[NFAST];
    fast *last;                 /* the one that served last: looked at first */
    unsigned turn;              /* the slot the next one takes */
    fast_key miss[NFAST];       /* the last calls that found none (comm NULL: none) */
    unsigned mturn;
    fast_key now;               /* the call now */
    const int *va[4];           /* its arrays (fast_try_v): nva of vp ints, hashed into vh */
    int nva, vp;
    uint64_t vh;
    int want;                   /* the call now missed before: run_unpack prepares it */
    struct persist *pwant;      /* the persistent collective started now: run_unpack prepares it */
    call k;                     /* its call, as served saw it */
    unsigned long long inplace; /* G.inplace's native count of its collective before it */
    unsigned long long runs;    /* calls run prepared (goal__mpi_prepared_runs, for the tests) */
} F;
/* The recorder's hooks (goalmpi_record.c): a collective call begun (served or passed on),
   returned, and its generalized request when nonblocking; MPI_Finalize. */
static void record_coll(const call *k, int is_served);
static void record_coll_end(void);
static int record_passed_end(int rc);
static int record_passed_req(int rc, MPI_Request *q);
static void record_request(MPI_Request r);
static void record_finalize(void);
/* The algorithm for k's collective and bytes per block (auto: among GOAL_ALGO_ORDERED ones
   when ordered), its rule's parameters into k->d, or NULL with k->why set. */
static const goal_algo_info *choose(call *k, int ordered) {
    const goal_algo_info *a = NULL;
    const rule *r = G.rules[k->c];
    int i, n = G.nrules[k->c];
    for (i = 0; i < n && k->bytes > r[i].max; i++) {}
    k->autopick = i < n && r[i].autopick;
    if (k->autopick && goal_mpi_auto(k->m, G.autocoll[k->c], k->bytes, ordered ? GOAL_ALGO_ORDERED : 0, &a) != GOAL_OK) {
        k->why = ordered ? W_OP : W_AUTO;
        return NULL;
    }
    if (i == n || !(a = a ? a : r[i].algo)) { k->why = W_CHOSEN; return NULL; }
    k->d.nway = r[i].nway; k->d.radix = r[i].radix; k->d.segment = r[i].segment;
    return a;
}

/* ---- communicators ----------------------------------------------------------------------- */
/* f emptied: its prepared collective and its arrays freed. */
static void fast_drop(fast *f) {
    if (F.last == f) F.last = NULL;
    goal_mpi_prepared_free(&f->p);   /* never in flight: a blocking call's */
    free(f->v);
    f->v = NULL;
    f->nv = 0;
}
/* The prepared calls of m, whose communicator goes. */
static void fast_forget(goal_mpi *m) {
    fast *f;
    for (f = F.f; f < F.f + NFAST; f++)
        if (f->p && f->m == m) fast_drop(f);
    memset(F.miss, 0, sizeof F.miss);
}
static void persist_forget(goal_mpi *m);
static int drop_comm(MPI_Comm comm, int key, void *val, void *extra) {
    comm_entry **p, *e = (comm_entry *)val;
    (void)comm; (void)key; (void)extra;
    for (p = &G.comms; *p && *p != e; p = &(*p)->next) {}
    if (*p) *p = e->next;
    if (G.last == e) G.last = NULL;
    fast_forget(e->m);
    persist_forget(e->m);
    goal_mpi_destroy(e->m);
    free(e);
    return MPI_SUCCESS;
}
/* comm_goal for a communicator other than the last one. */
static goal_mpi *comm_goal_find(MPI_Comm comm, int *why) {
    int flag = 0, inter = 0;
    comm_entry *e = NULL, **tail;
    goal_mpi_desc md;
    goal_error err;
    setup();
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) { *why = W_INTER; return NULL; }
    if (!G.keyval && PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop_comm, &G.keyval, NULL) != MPI_SUCCESS) {
        *why = W_CREATE; return NULL;
    }
    if (PMPI_Comm_get_attr(comm, G.keyval, &e, &flag) == MPI_SUCCESS && flag) return (G.last = e)->m;
    if (!(e = (comm_entry *)calloc(1, sizeof *e))) { *why = W_CREATE; return NULL; }
    memset(&md, 0, sizeof md);
    md.comm = comm; md.check = G.check; md.model = G.model;
    if (goal_mpi_create(&e->m, &md, &err) != GOAL_OK) {
        fprintf(stderr, "libgoalmpi: %s\n", err.msg);
        free(e); *why = W_CREATE; return NULL;
    }
    e->comm = comm;
    PMPI_Comm_rank(comm, &e->me);
    PMPI_Comm_size(comm, &e->p);
    for (tail = &G.comms; *tail; tail = &(*tail)->next) {}
    *tail = e;
    PMPI_Comm_set_attr(comm, G.keyval, e);
    return (G.last = e)->m;
}
/* The goal_mpi of comm, made on its first collective (every rank makes it in the same call,
   as goal_mpi_create is collective); NULL with *why for what libgoal does not serve. */
static goal_mpi *comm_goal(MPI_Comm comm, int *why) {
    return G.last && comm == G.last->comm ? G.last->m : comm_goal_find(comm, why);
}
/* This rank's number in comm and its size (p may be NULL): kept with comm_goal's last answer. */
static void ranks(MPI_Comm comm, int *me, int *p) {
    if (G.last && comm == G.last->comm) {
        *me = G.last->me;
        if (p) *p = G.last->p;
        return;
    }
    PMPI_Comm_rank(comm, me);
    if (p) PMPI_Comm_size(comm, p);
}

/* ---- progress and requests ----------------------------------------------------------------- */
static int query_fn(void *extra, MPI_Status *s) {
    pending *p = (pending *)extra;
    MPI_Status_set_elements(s, MPI_BYTE, 0);
    MPI_Status_set_cancelled(s, 0);
    s->MPI_SOURCE = MPI_UNDEFINED; s->MPI_TAG = MPI_UNDEFINED;
    return p->st == GOAL_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
}
static int free_fn(void *extra) { free(extra); return MPI_SUCCESS; }
static int cancel_fn(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

/* ---- handles the caller may free before the wait (MPI's rule) ------------------------------ */
/* *t itself when predefined (never freed), else a duplicate of it that h holds. */
static int hold_type(held *h, MPI_Datatype *t) {
    int ni = 0, na = 0, nd = 0, combiner = 0;
    if (PMPI_Type_get_envelope(*t, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return 0;
    if (combiner == MPI_COMBINER_NAMED) return 1;
    if (h->nt == 2 || PMPI_Type_dup(*t, &h->t[h->nt]) != MPI_SUCCESS) return 0;
    *t = h->t[h->nt++];
    return 1;
}
/* The record of MPI_Op_create's op, or NULL (a predefined op, or one made behind the drop-in:
   Open MPI's Fortran layer calls PMPI_Op_create). */
static userop *userop_of(MPI_Op op) {
    userop *u;
    for (u = G.userops; u && (u->twin == MPI_OP_NULL || u->twin != op) && (u->freed || u->op != op); u = u->next) {}   /* a twin is its own */
    return u;
}
static int predefined_op(MPI_Op op) {
    MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                    MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
    int k;
    for (k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++)
        if (op == ops[k]) return 1;
    return 0;
}
/* *op itself when predefined, else its twin, held by h; 0 for an op the drop-in never saw made. */
static int hold_op(held *h, MPI_Op *op) {
    userop *u = predefined_op(*op) ? NULL : userop_of(*op);
    if (!u) return predefined_op(*op);
    if (u->twin == MPI_OP_NULL && PMPI_Op_create(u->fn, u->commute, &u->twin) != MPI_SUCCESS) {
        u->twin = MPI_OP_NULL;
        return 0;
    }
    u->users++;
    h->op = u;
    *op = u->twin;
    return 1;
}
static void userop_drop(userop *u) {
    userop **pp;
    if (!u->freed || u->users) return;
    for (pp = &G.userops; *pp != u; pp = &(*pp)->next) {}
    *pp = u->next;
    if (u->twin != MPI_OP_NULL) PMPI_Op_free(&u->twin);
    free(u);
}
static void release(held *h) {
    if (h->op) { h->op->users--; userop_drop(h->op); }
    while (h->nt) PMPI_Type_free(&h->t[--h->nt]);
    h->op = NULL;
}

static void report_failure(goal_mpi *m, goal_status st) {
    const goal_error *e = goal_mpi_error(m);
    fprintf(stderr, "libgoalmpi: %s: %s\n", goal_strerror(st), e && e->msg[0] ? e->msg : "");
}
/* A non-contiguous receive side: libgoal received packed bytes, MPI_Unpack lays them out. */
static void unpack(struct unpack *u, goal_status st) {
    int pos = 0, i;
    if (!u->packed) return;
    if (st == GOAL_OK && u->count) PMPI_Unpack(u->packed, u->bytes, &pos, u->dst, u->count, u->t, u->comm);
    for (i = 0; st == GOAL_OK && i < u->nb; i++) {
        pos = 0;
        PMPI_Unpack((char *)u->packed + u->pat[i], u->bytes - u->pat[i], &pos, (char *)u->dst + u->at[i], u->counts[i], u->t, u->comm);
    }
    free(u->packed); free(u->counts); free(u->at); free(u->pat);
    u->packed = NULL; u->counts = u->at = u->pat = NULL;
    if (u->own_t) PMPI_Type_free(&u->t);
    u->own_t = 0;
}
/* One test of every nonblocking operation in flight; finished ones complete their request. */
static void progress(void) {
    pending **pp = &G.pending, *p;
    while ((p = *pp) != NULL) {
        goal_status st = goal_mpi_test(&p->r);
        if (st == GOAL_PENDING) { pp = &p->next; continue; }
        *pp = p->next;
        if (st != GOAL_OK) report_failure(p->m, st);
        p->st = st;
        unpack(&p->u, st);
        release(&p->h);
        free(p->tmp); free(p->tmp2);
        PMPI_Grequest_complete(p->greq);   /* free_fn frees p when the request is freed */
    }
}
/* A blocking call's return code for its status st, its failure reported. */
static int blocking_rc(goal_mpi *m, goal_status st, MPI_Comm comm) {
    if (st == GOAL_OK) return MPI_SUCCESS;
    report_failure(m, st);
    return PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER), MPI_ERR_OTHER;
}
/* Blocking: waits for r while progressing the nonblocking ones (MPI's progress rule); with
   none in flight, goal_mpi_wait, which may wait inside MPI. r NULL: the call ran to its end
   (st). u may be NULL: nothing to unpack. */
static int finish_blocking(goal_mpi *m, goal_status st, goal_mpi_request *r, void *tmp, void *tmp2, struct unpack *u,
                           MPI_Comm comm) {
    if (st == GOAL_OK && r) {
        if (!G.pending) st = goal_mpi_wait(&r);
        else while ((st = goal_mpi_test(&r)) == GOAL_PENDING) progress();
    }
    record_coll_end();
    if (u && u->packed) unpack(u, st);   /* most calls: nothing packed, no call */
    free(tmp); free(tmp2);
    return blocking_rc(m, st, comm);
}
/* Starts d on m: blocking when req is NULL, else a generalized request in *req; u (may be
   NULL) unpacks the output when it finished. */
static int track(goal_mpi *m, goal_status st, goal_mpi_request *r, void *tmp, void *tmp2, struct unpack *u, MPI_Comm comm,
                 MPI_Request *req);
/* A nonblocking call's receive type, unpacked after the call returned, held (MPI lets the
   caller free it); GOAL_ERR_TYPE when it cannot be. A type made here needs no hold. */
static goal_status hold_unpack(struct unpack *u, MPI_Request *req) {
    if (!req || !u || !u->packed || !(u->count || u->nb) || u->own_t) return GOAL_OK;
    return hold_type(&G.hold, &u->t) ? GOAL_OK : GOAL_ERR_TYPE;
}
static int fast_new(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, const goal_mpi_coll *c, MPI_Comm comm);
static int persist_prepare(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, struct unpack *u, MPI_Comm comm,
                           MPI_Request *req);
static int run_unpack(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, const void *in, void *out,
                      void *tmp, void *tmp2, struct unpack *u, MPI_Comm comm, MPI_Request *req) {
    goal_mpi_request *r = NULL;
    goal_status st = hold_unpack(u, req);
    int as_given = !fns && !tmp && !tmp2 && !(u && u->packed);   /* nothing bridged, copied or packed: preparable */
    if (st == GOAL_OK && !req && !G.pending) {   /* with nothing to progress, run to the end */
        if (F.want && as_given) return fast_new(m, d, in, out, NULL, comm);
        return finish_blocking(m, goal_mpi_algo_run_fns(m, d, fns, fns ? 1 : 0, in, out), NULL, tmp, tmp2, u, comm);
    }
    if (st == GOAL_OK && F.pwant && as_given) return persist_prepare(m, d, in, out, u, comm, req);
    if (st == GOAL_OK) st = goal_mpi_algo_start_fns(m, d, fns, fns ? 1 : 0, in, out, &r);
    return track(m, st, r, tmp, tmp2, u, comm, req);
}
/* An operation started (st) as r: waited for when req is NULL, else a generalized request. */
static int track(goal_mpi *m, goal_status st, goal_mpi_request *r, void *tmp, void *tmp2, struct unpack *u, MPI_Comm comm,
                 MPI_Request *req) {
    pending *p;
    struct unpack none;
    if (!req) return finish_blocking(m, st, r, tmp, tmp2, u, comm);
    if (!u) { memset(&none, 0, sizeof none); u = &none; }
    if (st != GOAL_OK || !(p = (pending *)calloc(1, sizeof *p))) {
        unpack(u, GOAL_ERR_STATE);
        release(&G.hold);
        free(tmp); free(tmp2);
        record_request(MPI_REQUEST_NULL);
        report_failure(m, st == GOAL_OK ? GOAL_ERR_NOMEM : st);
        return PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER), MPI_ERR_OTHER;
    }
    p->r = r; p->tmp = tmp; p->tmp2 = tmp2; p->m = m; p->st = GOAL_PENDING; p->u = *u;
    p->h = G.hold;
    memset(&G.hold, 0, sizeof G.hold);
    PMPI_Grequest_start(query_fn, free_fn, cancel_fn, p, &p->greq);
    *req = p->greq;
    record_request(p->greq);
    p->next = G.pending; G.pending = p;
    return MPI_SUCCESS;
}
static int run(goal_mpi *m, const goal_algo_desc *d, const goal_user_fn *fns, const void *in, void *out, void *tmp,
               MPI_Comm comm, MPI_Request *req) {
    return run_unpack(m, d, fns, in, out, tmp, NULL, NULL, comm, req);
}
static void *copy_of(const void *src, size_t bytes) {
    void *t = malloc(bytes ? bytes : 1);
    if (t && bytes) memcpy(t, src, bytes);
    return t;
}

/* ---- the collectives ----------------------------------------------------------------------- */
/* A call passed on is the library's until it returns (the recorder times it): each PMPI_
   collective below ends through record_passed_end, a nonblocking one through
   record_passed_req with its request. */
#define PMPI_Bcast(...) record_passed_end(PMPI_Bcast(__VA_ARGS__))
#define PMPI_Ibcast(a0, a1, a2, a3, a4, q) record_passed_req(PMPI_Ibcast(a0, a1, a2, a3, a4, q), q)
#define PMPI_Allreduce(...) record_passed_end(PMPI_Allreduce(__VA_ARGS__))
#define PMPI_Iallreduce(a0, a1, a2, a3, a4, a5, q) record_passed_req(PMPI_Iallreduce(a0, a1, a2, a3, a4, a5, q), q)
#define PMPI_Reduce(...) record_passed_end(PMPI_Reduce(__VA_ARGS__))
#define PMPI_Ireduce(a0, a1, a2, a3, a4, a5, a6, q) record_passed_req(PMPI_Ireduce(a0, a1, a2, a3, a4, a5, a6, q), q)
#define PMPI_Scan(...) record_passed_end(PMPI_Scan(__VA_ARGS__))
#define PMPI_Iscan(a0, a1, a2, a3, a4, a5, q) record_passed_req(PMPI_Iscan(a0, a1, a2, a3, a4, a5, q), q)
#define PMPI_Exscan(...) record_passed_end(PMPI_Exscan(__VA_ARGS__))
#define PMPI_Iexscan(a0, a1, a2, a3, a4, a5, q) record_passed_req(PMPI_Iexscan(a0, a1, a2, a3, a4, a5, q), q)
#define PMPI_Reduce_scatter_block(...) record_passed_end(PMPI_Reduce_scatter_block(__VA_ARGS__))
#define PMPI_Ireduce_scatter_block(a0, a1, a2, a3, a4, a5, q) record_passed_req(PMPI_Ireduce_scatter_block(a0, a1, a2, a3, a4, a5, q), q)
#define PMPI_Reduce_scatter(...) record_passed_end(PMPI_Reduce_scatter(__VA_ARGS__))
#define PMPI_Ireduce_scatter(a0, a1, a2, a3, a4, a5, q) record_passed_req(PMPI_Ireduce_scatter(a0, a1, a2, a3, a4, a5, q), q)
#define PMPI_Gather(...) record_passed_end(PMPI_Gather(__VA_ARGS__))
#define PMPI_Igather(a0, a1, a2, a3, a4, a5, a6, a7, q) record_passed_req(PMPI_Igather(a0, a1, a2, a3, a4, a5, a6, a7, q), q)
#define PMPI_Scatter(...) record_passed_end(PMPI_Scatter(__VA_ARGS__))
#define PMPI_Iscatter(a0, a1, a2, a3, a4, a5, a6, a7, q) record_passed_req(PMPI_Iscatter(a0, a1, a2, a3, a4, a5, a6, a7, q), q)
#define PMPI_Allgather(...) record_passed_end(PMPI_Allgather(__VA_ARGS__))
#define PMPI_Iallgather(a0, a1, a2, a3, a4, a5, a6, q) record_passed_req(PMPI_Iallgather(a0, a1, a2, a3, a4, a5, a6, q), q)
#define PMPI_Alltoall(...) record_passed_end(PMPI_Alltoall(__VA_ARGS__))
#define PMPI_Ialltoall(a0, a1, a2, a3, a4, a5, a6, q) record_passed_req(PMPI_Ialltoall(a0, a1, a2, a3, a4, a5, a6, q), q)
#define PMPI_Gatherv(...) record_passed_end(PMPI_Gatherv(__VA_ARGS__))
#define PMPI_Igatherv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Igatherv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
#define PMPI_Scatterv(...) record_passed_end(PMPI_Scatterv(__VA_ARGS__))
#define PMPI_Iscatterv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Iscatterv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
#define PMPI_Allgatherv(...) record_passed_end(PMPI_Allgatherv(__VA_ARGS__))
#define PMPI_Iallgatherv(a0, a1, a2, a3, a4, a5, a6, a7, q) record_passed_req(PMPI_Iallgatherv(a0, a1, a2, a3, a4, a5, a6, a7, q), q)
#define PMPI_Alltoallv(...) record_passed_end(PMPI_Alltoallv(__VA_ARGS__))
#define PMPI_Ialltoallv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Ialltoallv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
#define PMPI_Alltoallw(...) record_passed_end(PMPI_Alltoallw(__VA_ARGS__))
#define PMPI_Ialltoallw(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Ialltoallw(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
#define PMPI_Barrier(...) record_passed_end(PMPI_Barrier(__VA_ARGS__))
#define PMPI_Ibarrier(a0, q) record_passed_req(PMPI_Ibarrier(a0, q), q)
#define PMPI_Neighbor_allgather(...) record_passed_end(PMPI_Neighbor_allgather(__VA_ARGS__))
#define PMPI_Ineighbor_allgather(a0, a1, a2, a3, a4, a5, a6, q) record_passed_req(PMPI_Ineighbor_allgather(a0, a1, a2, a3, a4, a5, a6, q), q)
#define PMPI_Neighbor_allgatherv(...) record_passed_end(PMPI_Neighbor_allgatherv(__VA_ARGS__))
#define PMPI_Ineighbor_allgatherv(a0, a1, a2, a3, a4, a5, a6, a7, q) record_passed_req(PMPI_Ineighbor_allgatherv(a0, a1, a2, a3, a4, a5, a6, a7, q), q)
#define PMPI_Neighbor_alltoall(...) record_passed_end(PMPI_Neighbor_alltoall(__VA_ARGS__))
#define PMPI_Ineighbor_alltoall(a0, a1, a2, a3, a4, a5, a6, q) record_passed_req(PMPI_Ineighbor_alltoall(a0, a1, a2, a3, a4, a5, a6, q), q)
#define PMPI_Neighbor_alltoallv(...) record_passed_end(PMPI_Neighbor_alltoallv(__VA_ARGS__))
#define PMPI_Ineighbor_alltoallv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Ineighbor_alltoallv(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
#define PMPI_Neighbor_alltoallw(...) record_passed_end(PMPI_Neighbor_alltoallw(__VA_ARGS__))
#define PMPI_Ineighbor_alltoallw(a0, a1, a2, a3, a4, a5, a6, a7, a8, q) record_passed_req(PMPI_Ineighbor_alltoallw(a0, a1, a2, a3, a4, a5, a6, a7, a8, q), q)
/* Every entry point: the goal_mpi and the algorithm, or 0 with the reason counted (root:
   known also to a call passed on, which the recorder records). */
/* sizeof(call) through a variable: with a constant size of this order GCC zeroes inline with
   `rep stos`, which costs some 20 ns a call on AMD processors, libc's memset 3. */
static volatile size_t call_bytes = sizeof(call);
static int begin(call *k, int c, int nb, MPI_Comm comm, long long bytes, int root) {
    memset(k, 0, call_bytes);
    k->c = c; k->nb = nb; k->d.root = root;
    k->fortran = G.in_fortran;
    if (!(k->m = comm_goal(comm, &k->why))) return 0;
    if (bytes < 0) { k->why = W_TYPE; return 0; }
    if (bytes > INT_MAX) { k->why = W_SIZE; return 0; }
    k->bytes = (unsigned long long)bytes;
    if (!(k->algo = choose(k, 0))) return 0;
    k->d.algo = k->algo->name;
    k->d.dtype = GOAL_UINT8; k->d.op = GOAL_OP_SUM;
    return 1;
}
/* Whether algo can serve the reduction: keeps rank order for a non-commutative op, never
   splits an element libgoal has no dtype for (GOAL_ALGO_WHOLE). */
static int reduces_it(const goal_algo_info *algo, const goal_mpi_reduction *red, int *why) {
    if (red->noncommutative && !(algo->flags & GOAL_ALGO_ORDERED)) { *why = W_OP; return 0; }
    if (red->whole && !(algo->flags & GOAL_ALGO_WHOLE)) { *why = W_SPLIT; return 0; }
    return 1;
}
/* The algorithm a reduction falls back to when the chosen one cannot serve it: one that
   keeps whole elements, and rank order for a non-commutative op; NULL for scan and exscan. */
static const char *fallback_of(int c, const goal_mpi_reduction *red) {
    int nc = red->noncommutative;
    if (c == C_REDUCE) return "reduce_binomial";
    if (c == C_ALLREDUCE) return nc ? "allreduce_reduce_bcast" : "allreduce_recdoub";
    if (c == C_REDUCE_SCATTER_BLOCK) return nc ? "reduce_scatter_reduce_scatter" : "reduce_scatter_ring";
    if (c == C_REDUCE_SCATTER) return nc ? "reduce_scatterv_reduce_scatterv" : "reduce_scatterv_ring";
    return NULL;
}
/* A reduction: the type and op as libgoal reduces them, if the algorithm can; else it falls
   back (fallback_of: the large-message defaults split elements and ignore rank order; the
   rule is local: type and op). */
/* goal_mpi_reduction_of, remembered for the native pairs (predefined type and op: their
   handles name them until MPI_Finalize). */
static goal_status reduction_of(MPI_Datatype t, MPI_Op op, int count, goal_mpi_reduction *red) {
    int k;
    goal_status st;
    for (k = 0; k < G.nreds; k++)
        if (G.reds[k].t == t && G.reds[k].op == op && count >= 0) {
            memset(red, 0, sizeof *red);
            red->dtype = G.reds[k].dtype; red->op = G.reds[k].gop; red->count = (uint64_t)count;
            return GOAL_OK;
        }
    st = goal_mpi_reduction_of(t, op, count, red);
    if (st == GOAL_OK && !red->fns && G.nreds < (int)(sizeof G.reds / sizeof G.reds[0])) {
        G.reds[G.nreds].t = t; G.reds[G.nreds].op = op; G.reds[G.nreds].dtype = red->dtype; G.reds[G.nreds++].gop = red->op;
    }
    return st;
}
static int begin_reduce(call *k, goal_mpi_reduction *red, MPI_Datatype t, MPI_Op op, int count) {
    const goal_algo_info *alt;
    goal_status st = reduction_of(t, op, count, red);
    if (st == GOAL_OK && red->fns && k->nb) {   /* MPI_Reduce_local runs after the call returned */
        if (!hold_op(&G.hold, &op)) { k->why = W_HANDLE; return 0; }
        if (!hold_type(&G.hold, &t)) { k->why = W_CREATE; return 0; }
        st = goal_mpi_reduction_of(t, op, count, red);
    }
    if (st != GOAL_OK) { k->why = st == GOAL_ERR_TYPE ? W_TYPE : W_OP; return 0; }
    if (red->noncommutative && !(k->algo->flags & GOAL_ALGO_ORDERED)) {   /* auto chooses again, among ordered ones */
        const goal_algo_info *again = choose(k, 1);
        if (again) { k->algo = again; k->d.algo = again->name; }
    }
    if (!reduces_it(k->algo, red, &k->why)) {
        if (!(alt = goal_algo_find(fallback_of(k->c, red))) || !reduces_it(alt, red, &k->why)) return 0;
        k->algo = alt; k->d.algo = alt->name; k->autopick = 0;
        k->d.nway = k->d.radix = 0; k->d.segment = 0;   /* the fallback's defaults */
    }
    k->d.dtype = red->dtype; k->d.op = red->op; k->d.count = red->count; k->d.noncommutative = red->noncommutative;
    return 1;
}
/* Counts a served call, and auto's pick by name (only read under GOAL_MPI_STATS). */
static int served(call *k) {
    pick *p = G.picks[k->nb][k->c];
    int i;
    G.served[k->nb][k->c]++;
    G.fortran[k->nb][k->c][0] += (unsigned)k->fortran;
    if (F.want || F.pwant) F.k = *k;
    record_coll(k, 1);
    if (!G.stats || !k->autopick) return 1;
    for (i = 0; i < MAX_PICKS && p[i].algo && p[i].algo != k->algo; i++) {}
    if (i < MAX_PICKS) { p[i].algo = k->algo; p[i].n++; }
    return 1;
}
/* Repeated calls (the doc block at the top): fast_try finds a prepared one or remembers the
   miss, fast_new prepares a call that missed before. */
/* A predefined type's extent, as type_bytes remembered it; -1 for another. */
static long long named_extent(MPI_Datatype t) {
    int k;
    for (k = 0; k < G.ntypes; k++)
        if (G.types[k].t == t) return G.types[k].extent;
    return -1;
}
/* Whether t is a predefined type (seen by type_bytes), or none. */
static int fast_named(MPI_Datatype t) { return t == MPI_DATATYPE_NULL || named_extent(t) >= 0; }
/* The end of a call run prepared (st): as finish_blocking's, with nothing to unpack or free. */
static int fast_end(goal_mpi *m, goal_status st, MPI_Comm comm) {
    record_coll_end();
    return blocking_rc(m, st, comm);
}
static int fast_run(fast *f, MPI_Comm comm) {
    F.last = f;
    F.runs++;
    G.inplace[0][f->k.c][0] += f->inplace;   /* as in_place_native counted the call it was prepared from */
    served(&f->k);
    return fast_end(f->m, goal_mpi_prepared_run(f->p), comm);
}
/* Whether x is the call with these arguments (compared field by field, the cheapest test of
   a hit). */
static inline int fast_is(const fast_key *x, int c, const void *s, void *r, int count, MPI_Datatype t, int rcount,
                          MPI_Datatype rt, MPI_Op op, int root, MPI_Comm comm) {
    return x->s == s && x->r == r && x->c == c && x->count == count && x->t == t && x->rcount == rcount &&
           x->rt == rt && x->op == op && x->root == root && x->comm == comm && x->fortran == G.in_fortran;
}
static int fast_same(const fast_key *x, const fast_key *now) {
    return fast_is(x, now->c, now->s, now->r, now->count, now->t, now->rcount, now->rt, now->op, now->root, now->comm) &&
           x->h == now->h;
}
/* Whether f's arrays are the call's (none: a call without them). */
static int fast_v_same(const fast *f) {
    int k;
    for (k = 0; k < f->nv; k++)
        if (memcmp(f->v + (size_t)k * (size_t)f->vp, F.va[k], (size_t)f->vp * sizeof(int))) return 0;
    return 1;
}
/* fast_try past the last one served: the others, then the misses. */
static int fast_look(int c, const void *s, void *r, int count, MPI_Datatype t, int rcount, MPI_Datatype rt, MPI_Op op,
                     int root, MPI_Comm comm) {
    fast_key *now = &F.now;
    fast *f;
    unsigned k;
    if (G.pending) return -1;
    now->c = c; now->fortran = G.in_fortran; now->count = count; now->rcount = rcount; now->root = root;
    now->s = s; now->r = r; now->t = t; now->rt = rt; now->op = op; now->comm = comm; now->h = F.vh;
    for (f = F.f; f < F.f + NFAST; f++)
        if (f->p && fast_same(&f->key, now) && fast_v_same(f)) return fast_run(f, comm);
    for (k = 0; k < NFAST && !fast_same(&F.miss[k], now); k++) {}
    F.want = k < NFAST && fast_named(t) && fast_named(rt) && (op == MPI_OP_NULL || predefined_op(op));
    F.inplace = G.inplace[0][c][0];
    if (k == NFAST) F.miss[F.mturn++ % NFAST] = *now;
    return -1;
}
/* The call's prepared collective run (its MPI return code), or -1: translate it. rcount, rt:
   a data-movement call's receive side (else 0, MPI_DATATYPE_NULL). The last one served is
   tested here, in the caller: a loop of one call costs no more. */
static inline int fast_try(int c, const void *s, void *r, int count, MPI_Datatype t, int rcount, MPI_Datatype rt,
                           MPI_Op op, int root, MPI_Comm comm) {
    if (F.last && !G.pending && fast_is(&F.last->key, c, s, r, count, t, rcount, rt, op, root, comm))
        return fast_run(F.last, comm);
    F.nva = 0; F.vh = 0;
    return fast_look(c, s, r, count, t, rcount, rt, op, root, comm);
}
/* comm's size and this rank's number there; 0 for a communicator libgoal does not serve. */
static int fast_ranks(MPI_Comm comm, int *me, int *p) {
    int inter = 1;
    if (!(G.last && comm == G.last->comm) && (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)) return 0;
    ranks(comm, me, p);
    return 1;
}
static uint64_t fast_hash(const int *const *a, int n, int p) {
    uint64_t h = 1469598103934665603ull;
    int k, i;
    for (k = 0; k < n; k++)
        for (i = 0; i < p; i++) h = (h ^ (uint32_t)a[k][i]) * 1099511628211ull;
    return h | 1;   /* never a call's without arrays */
}
/* fast_try for a v-call: its n arrays of comm-size ints (counts, displacements) are part of
   the call where MPI reads them (rooted: at the root alone), by a hash in the key and whole
   at a hit. */
static int fast_try_v(int c, const void *s, void *r, int count, MPI_Datatype t, int rcount, MPI_Datatype rt, MPI_Op op,
                      int root, MPI_Comm comm, const int *const *a, int n, int rooted) {
    int me = 0, p = 0, k;
    if (G.pending || !fast_ranks(comm, &me, &p)) return -1;
    if (rooted && me != root) n = 0;
    for (k = 0; k < n; k++)
        if (!(F.va[k] = a[k])) return -1;
    F.nva = n; F.vp = p; F.vh = n ? fast_hash(a, n, p) : 0;
    if (F.last && F.last->key.h == F.vh && fast_is(&F.last->key, c, s, r, count, t, rcount, rt, op, root, comm) &&
        fast_v_same(F.last))
        return fast_run(F.last, comm);
    return fast_look(c, s, r, count, t, rcount, rt, op, root, comm);
}
/* A translated call's return code; the call it prepared, if any, is done. */
static int fast_done(int rc) {
    F.want = 0;
    return rc;
}
/* A call kept past its translation, which frees its desc's arrays: one block with the nkey
   arrays of key, then copies of k->d's count and displacement arrays, k->d pointed at them,
   so that it still describes itself to the recorder (served); each of comm's size (*p).
   NULL with nothing to keep, or (*ok 0) out of memory. */
static int *call_keep(call *k, MPI_Comm comm, const int *const *key, int nkey, int *p, int *ok) {
    const int **a[4];
    int me = 0, n = 0, i, *mem;
    a[0] = &k->d.counts; a[1] = &k->d.displs; a[2] = &k->d.recv_counts; a[3] = &k->d.recv_displs;
    ranks(comm, &me, p);
    for (i = 0; i < 4; i++) n += *a[i] != NULL;
    *ok = 1;
    if (!(n + nkey)) return NULL;
    if (!(mem = (int *)malloc((size_t)(n + nkey) * (size_t)*p * sizeof(int)))) { *ok = 0; return NULL; }
    for (i = 0; i < nkey; i++) memcpy(mem + (size_t)i * (size_t)*p, key[i], (size_t)*p * sizeof(int));
    for (i = 0, n = nkey; i < 4; i++)
        if (*a[i]) {
            memcpy(mem + (size_t)n * (size_t)*p, *a[i], (size_t)*p * sizeof(int));
            *a[i] = mem + (size_t)n++ * (size_t)*p;
        }
    return mem;
}
/* The call again (F.want): d on in and out (or c, when not NULL) prepared, in the next slot,
   and run. */
static int fast_new(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, const goal_mpi_coll *c, MPI_Comm comm) {
    fast *f = &F.f[F.turn++ % NFAST];
    goal_status st;
    int ok;
    F.want = 0;
    fast_drop(f);
    if ((st = c ? goal_mpi_prepare(m, c, &f->p) : goal_mpi_algo_prepare(m, d, in, out, &f->p)) != GOAL_OK)
        return fast_end(m, st, comm);
    f->key = F.now; f->k = F.k; f->m = m;
    f->inplace = (unsigned)(G.inplace[0][F.k.c][0] - F.inplace);
    F.runs++;
    st = goal_mpi_prepared_run(f->p);
    f->v = call_keep(&f->k, comm, F.va, F.nva, &f->vp, &ok);   /* the key's arrays, compared at each hit, first */
    f->nv = F.nva;
    if (ok) F.last = f;
    else fast_drop(f);   /* without its arrays it can be neither found nor recorded again */
    return fast_end(m, st, comm);
}
/* MPI_IN_PLACE natively (goal_mpi_algo_start reads the input where MPI has it) when the
   algorithm is flagged GOAL_ALGO_INPLACE and no side is packed; else the caller copies. */
static int in_place_native(call *k, int packed) {
    int native = !packed && (k->algo->flags & GOAL_ALGO_INPLACE);
    G.inplace[k->nb][k->c][!native]++;
    return native;
}
static int passed(call *k) {
    release(&G.hold);
    record_coll(k, 0);
    G.passed[k->nb][k->c][k->why]++;
    G.fortran[k->nb][k->c][1] += (unsigned)k->fortran;
    return 0;
}
/* Calls run prepared so far (exported for test_dropin). */
unsigned long long goal__mpi_prepared_runs(void);
unsigned long long goal__mpi_prepared_runs(void) { return F.runs; }
/* Calls from Fortran: goalmpi_fortran.c's entry points set it around the C call they make
   (exported so that a test can mark calls as a Fortran wrapper does). */
void goal__mpi_from_fortran(int on);
void goal__mpi_from_fortran(int on) { G.in_fortran = on; }

/* goal_mpi_contiguous_bytes, with the extents of predefined types remembered (a predefined
   handle names its type until MPI_Finalize; a derived one's may name another once freed). */
static long long type_bytes(MPI_Datatype t, int count) {
    int ni = 0, na = 0, nd = 0, combiner = 0;
    long long b;
    if (count < 0) return -1;
    if ((b = named_extent(t)) >= 0) return b * count;
    if ((b = goal_mpi_contiguous_bytes(t, 1)) < 0) return -1;
    if (G.ntypes < (int)(sizeof G.types / sizeof G.types[0]) && PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
        combiner == MPI_COMBINER_NAMED) {
        G.types[G.ntypes].t = t; G.types[G.ntypes++].extent = b;
    }
    return b * count;
}

/* The bytes of count elements of t as libgoal moves them; *packed when they must be packed
   first (a non-contiguous type: MPI_Pack gives its type size in bytes on one machine). */
static long long side_bytes(MPI_Datatype t, int count, int *packed) {
    long long b = type_bytes(t, count);
    int size = 0;
    *packed = 0;
    if (b >= 0 || count < 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS) return b;
    *packed = 1;
    return (long long)size * count;
}
/* count elements of t at src, packed into a new buffer of `bytes`; NULL on failure. */
static void *pack(const void *src, int count, MPI_Datatype t, long long bytes, MPI_Comm comm) {
    int pos = 0;
    void *p = malloc(bytes ? (size_t)bytes : 1);
    if (p && PMPI_Pack(src, count, t, p, (int)bytes, &pos, comm) != MPI_SUCCESS) { free(p); return NULL; }
    return p;
}
static int do_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req) {
    call k;
    int packed = 0, me = 0;
    long long bytes = side_bytes(t, count, &packed);
    struct unpack u;
    void *data = buf;
    memset(&u, 0, sizeof u);
    if (!begin(&k, C_BCAST, req != NULL, comm, bytes, root)) return passed(&k) - 1;
    k.d.count = (uint64_t)bytes; k.d.root = root;
    ranks(comm, &me, NULL);
    if (packed) {   /* the root sends its packed data; the others unpack what arrives */
        data = me == root ? pack(buf, count, t, bytes, comm) : malloc(bytes ? (size_t)bytes : 1);
        if (!data) { k.why = W_CREATE; return passed(&k) - 1; }
        if (me != root) { u.packed = data; u.bytes = (int)bytes; u.dst = buf; u.count = count; u.t = t; u.comm = comm; }
    }
    served(&k);
    return run_unpack(k.m, &k.d, NULL, data, data, packed && me == root ? data : NULL, NULL, &u, comm, req);
}
int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
    int rc = fast_try(C_BCAST, NULL, buf, count, t, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root, comm);
    if (rc < 0) rc = fast_done(do_bcast(buf, count, t, root, comm, NULL));
    return rc >= 0 ? rc : PMPI_Bcast(buf, count, t, root, comm);
}
int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req) {
    int rc = do_bcast(buf, count, t, root, comm, req);
    return rc >= 0 ? rc : PMPI_Ibcast(buf, count, t, root, comm, req);
}

/* Reductions: allreduce, reduce, scan, exscan. In place: the input is a copy of recvbuf. */
static int do_reduction(int c, const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                        MPI_Comm comm, MPI_Request *req) {
    call k;
    goal_mpi_reduction red;
    int me = 0;
    void *tmp = NULL;
    long long bytes = type_bytes(t, count);
    if (!begin(&k, c, req != NULL, comm, bytes, root) || !begin_reduce(&k, &red, t, op, count)) return passed(&k) - 1;
    k.d.root = root;
    ranks(comm, &me, NULL);
    if (sbuf == MPI_IN_PLACE && !in_place_native(&k, 0)) {
        if (!(tmp = copy_of(rbuf, (size_t)bytes))) { k.why = W_CREATE; return passed(&k) - 1; }
        sbuf = tmp;
    }
    served(&k);
    return run(k.m, &k.d, red.fns, sbuf, c == C_REDUCE && me != root ? NULL : rbuf, tmp, comm, req);
}
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int rc = fast_try(C_ALLREDUCE, s, r, n, t, 0, MPI_DATATYPE_NULL, op, 0, comm);
    if (rc < 0) rc = fast_done(do_reduction(C_ALLREDUCE, s, r, n, t, op, 0, comm, NULL));
    return rc >= 0 ? rc : PMPI_Allreduce(s, r, n, t, op, comm);
}
int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *q) {
    int rc = do_reduction(C_ALLREDUCE, s, r, n, t, op, 0, comm, q);
    return rc >= 0 ? rc : PMPI_Iallreduce(s, r, n, t, op, comm, q);
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
    int rc = fast_try(C_REDUCE, s, r, n, t, 0, MPI_DATATYPE_NULL, op, root, comm);
    if (rc < 0) rc = fast_done(do_reduction(C_REDUCE, s, r, n, t, op, root, comm, NULL));
    return rc >= 0 ? rc : PMPI_Reduce(s, r, n, t, op, root, comm);
}
int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Request *q) {
    int rc = do_reduction(C_REDUCE, s, r, n, t, op, root, comm, q);
    return rc >= 0 ? rc : PMPI_Ireduce(s, r, n, t, op, root, comm, q);
}
int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int rc = fast_try(C_SCAN, s, r, n, t, 0, MPI_DATATYPE_NULL, op, 0, comm);
    if (rc < 0) rc = fast_done(do_reduction(C_SCAN, s, r, n, t, op, 0, comm, NULL));
    return rc >= 0 ? rc : PMPI_Scan(s, r, n, t, op, comm);
}
int MPI_Iscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *q) {
    int rc = do_reduction(C_SCAN, s, r, n, t, op, 0, comm, q);
    return rc >= 0 ? rc : PMPI_Iscan(s, r, n, t, op, comm, q);
}
int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int rc = fast_try(C_EXSCAN, s, r, n, t, 0, MPI_DATATYPE_NULL, op, 0, comm);
    if (rc < 0) rc = fast_done(do_reduction(C_EXSCAN, s, r, n, t, op, 0, comm, NULL));
    return rc >= 0 ? rc : PMPI_Exscan(s, r, n, t, op, comm);
}
int MPI_Iexscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *q) {
    int rc = do_reduction(C_EXSCAN, s, r, n, t, op, 0, comm, q);
    return rc >= 0 ? rc : PMPI_Iexscan(s, r, n, t, op, comm, q);
}

/* reduce_scatter_block: p blocks of n in, block `rank` out. In place: input is recvbuf. */
static int do_rsb(const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req) {
    call k;
    goal_mpi_reduction red;
    int p = 1;
    void *tmp = NULL;
    long long bytes = type_bytes(t, n);
    if (!begin(&k, C_REDUCE_SCATTER_BLOCK, req != NULL, comm, bytes, 0) || !begin_reduce(&k, &red, t, op, n)) return passed(&k) - 1;
    PMPI_Comm_size(comm, &p);
    if (sbuf == MPI_IN_PLACE && !in_place_native(&k, 0)) {
        if (!(tmp = copy_of(rbuf, (size_t)bytes * (size_t)p))) { k.why = W_CREATE; return passed(&k) - 1; }
        sbuf = tmp;
    }
    served(&k);
    return run(k.m, &k.d, red.fns, sbuf, rbuf, tmp, comm, req);
}
int MPI_Reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int rc = fast_try(C_REDUCE_SCATTER_BLOCK, s, r, n, t, 0, MPI_DATATYPE_NULL, op, 0, comm);
    if (rc < 0) rc = fast_done(do_rsb(s, r, n, t, op, comm, NULL));
    return rc >= 0 ? rc : PMPI_Reduce_scatter_block(s, r, n, t, op, comm);
}
int MPI_Ireduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *q) {
    int rc = do_rsb(s, r, n, t, op, comm, q);
    return rc >= 0 ? rc : PMPI_Ireduce_scatter_block(s, r, n, t, op, comm, q);
}
/* reduce_scatter: recvcounts are the same on every rank (MPI's rule), so is the decision.
   Counts in elements of libgoal's dtype: scaled when an MPI element spans several. */
static int scaled(const int *in, int p, long long mult, int **out) {
    int i;
    if (!in) { *out = NULL; return 1; }
    if (!(*out = (int *)malloc((size_t)p * sizeof(int)))) return 0;
    for (i = 0; i < p; i++) {
        if ((long long)in[i] * mult > INT_MAX) { free(*out); *out = NULL; return 0; }
        (*out)[i] = (int)((long long)in[i] * mult);
    }
    return 1;
}
static int do_rs(const void *sbuf, void *rbuf, const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                 MPI_Request *req) {
    call k;
    goal_mpi_reduction red;
    int p = 1, i, rc, *sc = NULL;
    long long total = 0, el = type_bytes(t, 1);
    void *tmp = NULL;
    PMPI_Comm_size(comm, &p);
    for (i = 0; i < p; i++) total += counts[i];
    if (!begin(&k, C_REDUCE_SCATTER, req != NULL, comm, el < 0 ? -1 : el * total, 0) ||
        !begin_reduce(&k, &red, t, op, 1)) return passed(&k) - 1;
    if (!scaled(counts, p, red.whole ? el : 1, &sc)) { k.why = W_SIZE; return passed(&k) - 1; }
    if (sbuf == MPI_IN_PLACE && !in_place_native(&k, 0)) {
        if (!(tmp = copy_of(rbuf, (size_t)(el * total)))) { free(sc); k.why = W_CREATE; return passed(&k) - 1; }
        sbuf = tmp;
    }
    k.d.counts = sc; k.d.count = 0;
    served(&k);
    rc = run(k.m, &k.d, red.fns, sbuf, rbuf, tmp, comm, req);
    free(sc);   /* read only while the schedule is built */
    return rc;
}
int MPI_Reduce_scatter(const void *s, void *r, const int *c, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int rc = fast_try_v(C_REDUCE_SCATTER, s, r, 0, t, 0, MPI_DATATYPE_NULL, op, 0, comm, &c, 1, 0);
    if (rc < 0) rc = fast_done(do_rs(s, r, c, t, op, comm, NULL));
    return rc >= 0 ? rc : PMPI_Reduce_scatter(s, r, c, t, op, comm);
}
int MPI_Ireduce_scatter(const void *s, void *r, const int *c, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *q) {
    int rc = do_rs(s, r, c, t, op, comm, q);
    return rc >= 0 ? rc : PMPI_Ireduce_scatter(s, r, c, t, op, comm, q);
}

/* Data movement, as bytes: gather, scatter, allgather, alltoall. A block is this rank's
   count x type: equal on every rank by MPI's signature rule (the root's recv block too). */
static int do_move(int c, const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
                   int root, MPI_Comm comm, MPI_Request *req) {
    call k;
    int me = 0, p = 1, spk = 0, rpk = 0, sends, recvs, sn, rn;
    long long sb = -1, rb = -1, block;
    void *tmp = NULL;
    const void *in = sbuf;
    void *out = rbuf;
    struct unpack u;
    memset(&u, 0, sizeof u);
    ranks(comm, &me, &p);
    /* The sides MPI defines on this rank (the others may hold anything): gather's non-roots
       only send, scatter's only receive; in place, the receive side describes the block. */
    sends = !(c == C_SCATTER && me != root) && sbuf != MPI_IN_PLACE;
    recvs = !(c == C_GATHER && me != root) && rbuf != MPI_IN_PLACE;
    if (sends) sb = side_bytes(st, scount, &spk);
    if (recvs || sbuf == MPI_IN_PLACE) rb = side_bytes(rt, rcount, &rpk);
    if (c == C_GATHER) block = me == root ? rb : sb;
    else if (c == C_SCATTER) block = me == root ? sb : rb;
    else block = sbuf == MPI_IN_PLACE ? rb : sb;
    if (!begin(&k, c, req != NULL, comm, block, root) || block * p > INT_MAX) {
        if (k.m && block * p > INT_MAX) k.why = W_SIZE;
        return passed(&k) - 1;
    }
    k.d.count = (uint64_t)block; k.d.root = root;
    sn = c == C_SCATTER || c == C_ALLTOALL ? p : 1;   /* blocks on each side */
    rn = c == C_GATHER || c == C_ALLGATHER || c == C_ALLTOALL ? p : 1;
    if (sbuf == MPI_IN_PLACE && in_place_native(&k, rpk)) {
        in = MPI_IN_PLACE;
    } else if (sbuf == MPI_IN_PLACE) {   /* this rank's block is already in recvbuf (all of it for alltoall) */
        MPI_Aint lb = 0, ext = 0;
        const char *own;
        int n = c == C_ALLTOALL ? rcount * p : rcount;
        PMPI_Type_get_extent(rt, &lb, &ext);
        own = (const char *)rbuf + (c == C_ALLTOALL ? 0 : (size_t)(c == C_GATHER ? root : me) * (size_t)rcount * (size_t)ext);
        in = tmp = rpk ? pack(own, n, rt, block * (n / (rcount ? rcount : 1)), comm) : copy_of(own, (size_t)block * (size_t)(n / (rcount ? rcount : 1)));
    } else if (spk && sends) {
        in = tmp = pack(sbuf, scount * sn, st, block * sn, comm);
    }
    if (rbuf == MPI_IN_PLACE && in_place_native(&k, spk)) {
        out = MPI_IN_PLACE;
    } else if (rbuf == MPI_IN_PLACE) {   /* scatter's root keeps its block where it is: received into scratch */
        out = u.packed = malloc((size_t)block + 1);
    } else if (rpk && recvs) {
        out = u.packed = malloc((size_t)(block * rn) + 1);
        u.bytes = (int)(block * rn); u.dst = rbuf; u.count = rcount * rn; u.t = rt; u.comm = comm;
    }
    if (((in != MPI_IN_PLACE && (sbuf == MPI_IN_PLACE || (spk && sends))) && !tmp) ||
        ((out != MPI_IN_PLACE && (rbuf == MPI_IN_PLACE || (rpk && recvs))) && !u.packed)) {
        free(tmp); free(u.packed);
        k.why = W_CREATE; return passed(&k) - 1;
    }
    if (c == C_GATHER && me != root) out = NULL;
    if (c == C_SCATTER && me != root) in = NULL;
    served(&k);
    return run_unpack(k.m, &k.d, NULL, in, out, tmp, NULL, &u, comm, req);
}
#define MOVE_PAIR(NAME, INAME, C, ROOTARG, ROOTVAL, PCALL, PICALL)                                                 \
    int NAME(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt ROOTARG, MPI_Comm comm) {     \
        int x = fast_try(C, s, r, sc, st, rc, rt, MPI_OP_NULL, ROOTVAL, comm);                                      \
        if (x < 0) x = fast_done(do_move(C, s, sc, st, r, rc, rt, ROOTVAL, comm, NULL));                            \
        return x >= 0 ? x : PCALL;                                                                                  \
    }                                                                                                               \
    int INAME(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt ROOTARG, MPI_Comm comm,      \
              MPI_Request *q) {                                                                                     \
        int x = do_move(C, s, sc, st, r, rc, rt, ROOTVAL, comm, q);                                                 \
        return x >= 0 ? x : PICALL;                                                                                 \
    }
#define COMMA ,
MOVE_PAIR(MPI_Gather, MPI_Igather, C_GATHER, COMMA int root, root, PMPI_Gather(s, sc, st, r, rc, rt, root, comm),
          PMPI_Igather(s, sc, st, r, rc, rt, root, comm, q))
MOVE_PAIR(MPI_Scatter, MPI_Iscatter, C_SCATTER, COMMA int root, root, PMPI_Scatter(s, sc, st, r, rc, rt, root, comm),
          PMPI_Iscatter(s, sc, st, r, rc, rt, root, comm, q))
MOVE_PAIR(MPI_Allgather, MPI_Iallgather, C_ALLGATHER, , 0, PMPI_Allgather(s, sc, st, r, rc, rt, comm),
          PMPI_Iallgather(s, sc, st, r, rc, rt, comm, q))
MOVE_PAIR(MPI_Alltoall, MPI_Ialltoall, C_ALLTOALL, , 0, PMPI_Alltoall(s, sc, st, r, rc, rt, comm),
          PMPI_Ialltoall(s, sc, st, r, rc, rt, comm, q))

/* The v-collectives, as bytes: counts and displacements scaled by the type's extent. */
/* One side of a v-call as libgoal sees it: counts and displacements in bytes, over the
   caller's buffer (contiguous type: scaled by the extent) or over a packed copy (blocks one
   after the other: packed now for a send side, unpacked at the end through u for a
   receive side). */
typedef struct vside { int *cnt, *dsp; void *buf; } vside;
static void vside_free(vside *v) { free(v->cnt); free(v->dsp); v->cnt = v->dsp = NULL; }
static int vside_make(vside *v, int p, const int *counts, const int *displs, MPI_Datatype t, const void *user,
                      int send, MPI_Comm comm, struct unpack *u, void **tmp) {
    int size = 0, i, contig = goal_mpi_contiguous_bytes(t, 1) >= 0, pos;
    MPI_Aint lb = 0, ext = 0;
    long long total = 0, at = 0;
    memset(v, 0, sizeof *v);
    if (PMPI_Type_size(t, &size) != MPI_SUCCESS || PMPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS) return 0;
    v->cnt = (int *)malloc((size_t)p * sizeof(int)); v->dsp = (int *)malloc((size_t)p * sizeof(int));
    if (!v->cnt || !v->dsp) { vside_free(v); return 0; }
    for (i = 0; i < p; i++) {
        long long c = (long long)counts[i] * (contig ? (long long)ext : size), d = contig ? (long long)(displs ? displs[i] : at / ext) * ext : total;
        if (c > INT_MAX || d > INT_MAX || d < 0) { vside_free(v); return 0; }
        v->cnt[i] = (int)c; v->dsp[i] = (int)d;
        total += c; at += c;
    }
    v->buf = (void *)(uintptr_t)user;
    if (contig) return 1;
    if (!(v->buf = malloc((size_t)total + 1))) { vside_free(v); return 0; }
    if (send) {
        for (i = 0, at = 0; i < p; i++) {   /* displs NULL (neighbour calls): blocks one after the other */
            pos = 0;
            PMPI_Pack((const char *)user + (displs ? (long long)displs[i] : at) * ext, counts[i], t, (char *)v->buf + v->dsp[i],
                      v->cnt[i], &pos, comm);
            at += counts[i];
        }
        *tmp = v->buf;
        return 1;
    }
    u->packed = v->buf; u->bytes = (int)total; u->dst = (void *)(uintptr_t)user; u->t = t; u->comm = comm; u->nb = p;
    u->counts = (int *)malloc((size_t)p * sizeof(int)); u->at = (int *)malloc((size_t)p * sizeof(int));
    u->pat = (int *)malloc((size_t)p * sizeof(int));
    if (!u->counts || !u->at || !u->pat) { u->nb = 0; unpack(u, GOAL_ERR_NOMEM); vside_free(v); return 0; }
    for (i = 0, at = 0; i < p; i++) {
        u->counts[i] = counts[i]; u->pat[i] = v->dsp[i];
        u->at[i] = (int)((displs ? (long long)displs[i] : at) * ext);
        at += counts[i];
    }
    return 1;
}
/* This rank's own block of a v-call: count elements of t at user, as bytes libgoal moves
   (packed into *tmp when t is not contiguous); the bytes, or -1. */
static long long own_block(const void *user, int count, MPI_Datatype t, MPI_Comm comm, const void **data, void **tmp) {
    int packed = 0;
    long long b = side_bytes(t, count, &packed);
    *data = user;
    if (b < 0 || !packed) return b;
    if (!(*tmp = pack(user, count, t, b, comm))) return -1;
    *data = *tmp;
    return b;
}
static int do_barrier(MPI_Comm comm, MPI_Request *req) {
    call k;
    if (!begin(&k, C_BARRIER, req != NULL, comm, 0, 0)) return passed(&k) - 1;
    served(&k);
    return run(k.m, &k.d, NULL, NULL, NULL, NULL, comm, req);
}
int MPI_Barrier(MPI_Comm comm) {
    int rc = fast_try(C_BARRIER, NULL, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0, comm);
    if (rc < 0) rc = fast_done(do_barrier(comm, NULL));
    return rc >= 0 ? rc : PMPI_Barrier(comm);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *q) { int rc = do_barrier(comm, q); return rc >= 0 ? rc : PMPI_Ibarrier(comm, q); }

/* gatherv / scatterv: the root's arrays (recvcounts / sendcounts); a non-root passes its
   own count. allgatherv: every rank has the arrays. Any type: a non-contiguous one is packed
   (so every rank decides alike whatever the layout of its types). */
static int do_vmove(int c, const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
                    const int *counts, const int *displs, int root, MPI_Comm comm, MPI_Request *req) {
    call k;
    vside v;
    struct unpack u;
    int me = 0, p = 1, rc, at_root, ok = 1;
    void *tmp = NULL, *tmp2 = NULL;
    const void *in = sbuf;
    void *out = rbuf;
    long long own = 0;
    memset(&u, 0, sizeof u);
    memset(&v, 0, sizeof v);
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &p);
    at_root = c == C_ALLGATHERV || me == root;
    if (!begin(&k, c, req != NULL, comm, 0, root)) return passed(&k) - 1;
    if (at_root) ok = vside_make(&v, p, counts, displs, c == C_SCATTERV ? st : rt, c == C_SCATTERV ? sbuf : rbuf,
                                 c == C_SCATTERV, comm, &u, &tmp);
    if (ok && c == C_SCATTERV && me == root && rbuf == MPI_IN_PLACE && in_place_native(&k, tmp != NULL)) {
        own = v.cnt[me];
        out = MPI_IN_PLACE;
    } else if (ok && c == C_SCATTERV && me == root && rbuf == MPI_IN_PLACE) {   /* the root's block stays: scratch */
        own = v.cnt[me];
        ok = (out = tmp2 = malloc((size_t)own + 1)) != NULL;
    } else if (ok && c == C_SCATTERV) {
        int packed = 0;
        own = side_bytes(rt, rcount, &packed);
        if (packed && own >= 0) {   /* received packed into scratch, unpacked into rbuf */
            ok = (out = tmp2 = malloc((size_t)own + 1)) != NULL;
            if (ok && !(at_root && u.packed)) { u.packed = tmp2; tmp2 = NULL; u.bytes = (int)own; u.dst = rbuf; u.count = rcount; u.t = rt; u.comm = comm; }
        }
    } else if (ok && sbuf == MPI_IN_PLACE && in_place_native(&k, u.packed != NULL)) {
        own = v.cnt[me];
        in = MPI_IN_PLACE;
    } else if (ok && sbuf == MPI_IN_PLACE) {   /* this rank's block is in recvbuf already, in the caller's layout */
        MPI_Aint lb = 0, ext = 0;
        long long at = 0;
        int i;
        PMPI_Type_get_extent(rt, &lb, &ext);
        if (displs) at = (long long)displs[me] * ext;
        else for (i = 0; i < me; i++) at += (long long)counts[i] * ext;
        own = own_block((const char *)rbuf + at, counts[me], rt, comm, &in, &tmp2);
        if (own >= 0 && !tmp2) in = tmp2 = copy_of(in, (size_t)own);
        ok = own >= 0 && tmp2;
    } else if (ok) {
        own = own_block(sbuf, scount, st, comm, &in, &tmp2);
        ok = own >= 0;
    }
    if (!ok || own < 0) {
        free(tmp); free(tmp2); unpack(&u, GOAL_ERR_STATE); vside_free(&v);
        k.why = W_SIZE; return passed(&k) - 1;
    }
    if (at_root && c == C_SCATTERV) in = v.buf;
    if (at_root && c != C_SCATTERV) out = v.buf;
    k.d.root = root; k.d.count = (uint64_t)own;
    k.d.counts = at_root ? v.cnt : NULL; k.d.displs = at_root ? v.dsp : NULL;
    if (c != C_ALLGATHERV && me != root) { if (c == C_GATHERV) out = NULL; else in = NULL; }
    served(&k);
    /* tmp (packed input) and tmp2 (own block or scratch) are freed at the end; u unpacks */
    rc = run_unpack(k.m, &k.d, NULL, in, out, tmp, tmp2, &u, comm, req);
    vside_free(&v);   /* counts and displacements are read only while the schedule is built */
    return rc;
}
int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d, MPI_Datatype rt,
                int root, MPI_Comm comm) {
    const int *a[2] = {rc, d};
    int x = fast_try_v(C_GATHERV, s, r, sc, st, 0, rt, MPI_OP_NULL, root, comm, a, 2, 1);
    if (x < 0) x = fast_done(do_vmove(C_GATHERV, s, sc, st, r, 0, rt, rc, d, root, comm, NULL));
    return x >= 0 ? x : PMPI_Gatherv(s, sc, st, r, rc, d, rt, root, comm);
}
int MPI_Igatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d, MPI_Datatype rt,
                 int root, MPI_Comm comm, MPI_Request *q) {
    int x = do_vmove(C_GATHERV, s, sc, st, r, 0, rt, rc, d, root, comm, q);
    return x >= 0 ? x : PMPI_Igatherv(s, sc, st, r, rc, d, rt, root, comm, q);
}
int MPI_Scatterv(const void *s, const int *sc, const int *d, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                 int root, MPI_Comm comm) {
    const int *a[2] = {sc, d};
    int x = fast_try_v(C_SCATTERV, s, r, 0, st, rc, rt, MPI_OP_NULL, root, comm, a, 2, 1);
    if (x < 0) x = fast_done(do_vmove(C_SCATTERV, s, 0, st, r, rc, rt, sc, d, root, comm, NULL));
    return x >= 0 ? x : PMPI_Scatterv(s, sc, d, st, r, rc, rt, root, comm);
}
int MPI_Iscatterv(const void *s, const int *sc, const int *d, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                  int root, MPI_Comm comm, MPI_Request *q) {
    int x = do_vmove(C_SCATTERV, s, 0, st, r, rc, rt, sc, d, root, comm, q);
    return x >= 0 ? x : PMPI_Iscatterv(s, sc, d, st, r, rc, rt, root, comm, q);
}
int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d, MPI_Datatype rt,
                   MPI_Comm comm) {
    const int *a[2] = {rc, d};
    int x = fast_try_v(C_ALLGATHERV, s, r, sc, st, 0, rt, MPI_OP_NULL, 0, comm, a, 2, 0);
    if (x < 0) x = fast_done(do_vmove(C_ALLGATHERV, s, sc, st, r, 0, rt, rc, d, 0, comm, NULL));
    return x >= 0 ? x : PMPI_Allgatherv(s, sc, st, r, rc, d, rt, comm);
}
int MPI_Iallgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d, MPI_Datatype rt,
                    MPI_Comm comm, MPI_Request *q) {
    int x = do_vmove(C_ALLGATHERV, s, sc, st, r, 0, rt, rc, d, 0, comm, q);
    return x >= 0 ? x : PMPI_Iallgatherv(s, sc, st, r, rc, d, rt, comm, q);
}
/* alltoallv in place: the send side is the receive side's layout in recvbuf, copied (packed
   when rt is not contiguous), since the schedule writes recvbuf while it still sends. */
static int a2av_in_place(call *k, vside *v, int p, const int *counts, const int *displs, MPI_Datatype t, const void *user,
                         MPI_Comm comm, void **tmp) {
    struct unpack none;
    long long span = 0;
    int i;
    in_place_native(k, 1);   /* counted as copied */
    if (!vside_make(v, p, counts, displs, t, user, 1, comm, &none, tmp)) return 0;
    if (*tmp) return 1;
    for (i = 0; i < p; i++) if ((long long)v->dsp[i] + v->cnt[i] > span) span = (long long)v->dsp[i] + v->cnt[i];
    if (!(v->buf = *tmp = copy_of(user, (size_t)span))) { vside_free(v); return 0; }
    return 1;
}
/* alltoallv: this rank's four arrays; the send and receive types' extents scale each side. */
/* alltoallv: this rank's four arrays, each side packed when its type is not contiguous. */
static int do_a2av(const void *sbuf, const int *sc, const int *sd, MPI_Datatype st, void *rbuf, const int *rc,
                   const int *rd, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req) {
    call k;
    vside vs, vr;
    struct unpack u;
    void *tmp = NULL;
    int p = 1, x;
    memset(&u, 0, sizeof u);
    PMPI_Comm_size(comm, &p);
    if (!begin(&k, C_ALLTOALLV, req != NULL, comm, 0, 0)) return passed(&k) - 1;
    if (sbuf == MPI_IN_PLACE ? !a2av_in_place(&k, &vs, p, rc, rd, rt, rbuf, comm, &tmp)
                             : !vside_make(&vs, p, sc, sd, st, sbuf, 1, comm, &u, &tmp)) { k.why = W_SIZE; return passed(&k) - 1; }
    if (!vside_make(&vr, p, rc, rd, rt, rbuf, 0, comm, &u, &tmp)) {
        vside_free(&vs); free(tmp); k.why = W_SIZE; return passed(&k) - 1;
    }
    k.d.counts = vs.cnt; k.d.displs = vs.dsp; k.d.recv_counts = vr.cnt; k.d.recv_displs = vr.dsp;
    served(&k);
    x = run_unpack(k.m, &k.d, NULL, vs.buf, vr.buf, tmp, NULL, &u, comm, req);
    vside_free(&vs); vside_free(&vr);
    return x;
}
int MPI_Alltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc,
                  const int *rd, MPI_Datatype rt, MPI_Comm comm) {
    const int *a[4] = {rc, rd, sc, sd};   /* in place, sendcounts and sdispls mean nothing */
    int x = fast_try_v(C_ALLTOALLV, s, r, 0, st, 0, rt, MPI_OP_NULL, 0, comm, a, s == MPI_IN_PLACE ? 2 : 4, 0);
    if (x < 0) x = fast_done(do_a2av(s, sc, sd, st, r, rc, rd, rt, comm, NULL));
    return x >= 0 ? x : PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, comm);
}
int MPI_Ialltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc,
                   const int *rd, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q) {
    int x = do_a2av(s, sc, sd, st, r, rc, rd, rt, comm, q);
    return x >= 0 ? x : PMPI_Ialltoallv(s, sc, sd, st, r, rc, rd, rt, comm, q);
}

/* ---- ops: each gets its twin (userop) --------------------------------------------------------- */
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op) {
    int rc = PMPI_Op_create(fn, commute, op);
    userop *u = rc == MPI_SUCCESS ? (userop *)calloc(1, sizeof *u) : NULL;
    if (u) {   /* without it, the op is unknown to the drop-in: its nonblocking reductions are passed on */
        u->op = *op; u->twin = MPI_OP_NULL; u->fn = fn; u->commute = commute;
        u->next = G.userops; G.userops = u;
    }
    return rc;
}
int MPI_Op_free(MPI_Op *op) {
    userop *u = userop_of(*op);
    if (u) { u->freed = 1; userop_drop(u); }
    return PMPI_Op_free(op);
}
/* alltoallw: per-peer types and byte displacements. A side whose blocks are all contiguous
   (size equal to extent) moves in place; otherwise one struct type describes its p blocks,
   packed (send) or unpacked at the end (receive) in one call: blocks one after the other. */
static int wside_make(vside *v, int p, const int *counts, const int *displs, const MPI_Datatype *types, const void *user,
                      int send, int force, MPI_Comm comm, struct unpack *u, void **tmp) {
    MPI_Datatype *ts = (MPI_Datatype *)malloc((size_t)p * sizeof *ts), w;
    MPI_Aint *at = (MPI_Aint *)malloc((size_t)p * sizeof *at);
    long long total = 0;
    int i, size, direct = !force, pos = 0, ok = ts && at;
    v->cnt = (int *)malloc((size_t)p * sizeof(int)); v->dsp = (int *)malloc((size_t)p * sizeof(int));
    for (i = 0; ok && i < p; i++) {
        ts[i] = counts[i] ? types[i] : MPI_BYTE;   /* a type of an empty block may be any handle */
        at[i] = displs[i];
        ok = v->cnt && v->dsp && PMPI_Type_size(ts[i], &size) == MPI_SUCCESS && (long long)size * counts[i] <= INT_MAX - total;
        if (!ok) break;
        direct = direct && displs[i] >= 0 && goal_mpi_contiguous_bytes(ts[i], counts[i]) == (long long)size * counts[i];
        v->cnt[i] = size * counts[i];
        v->dsp[i] = (int)total;
        total += v->cnt[i];
    }
    v->buf = (void *)(uintptr_t)user;
    if (ok && direct) for (i = 0; i < p; i++) v->dsp[i] = displs[i];
    if (ok && !direct && (ok = PMPI_Type_create_struct(p, counts, at, ts, &w) == MPI_SUCCESS) != 0) {
        ok = PMPI_Type_commit(&w) == MPI_SUCCESS && (v->buf = malloc((size_t)total + 1)) != NULL;
        if (ok && send) PMPI_Pack(user, 1, w, v->buf, (int)total, &pos, comm);
        if (ok && send) *tmp = v->buf;
        if (ok && !send) { u->packed = v->buf; u->bytes = (int)total; u->dst = (void *)(uintptr_t)user; u->count = 1; u->t = w; u->comm = comm; u->own_t = 1; }
        else PMPI_Type_free(&w);
    }
    free(ts); free(at);
    if (!ok) vside_free(v);
    return ok;
}
static int do_a2aw(const void *sbuf, const int *sc, const int *sd, const MPI_Datatype *st, void *rbuf, const int *rc,
                   const int *rd, const MPI_Datatype *rt, MPI_Comm comm, MPI_Request *req) {
    call k;
    vside vs, vr;
    struct unpack u, none;
    void *tmp = NULL;
    int p = 1, x, ip = sbuf == MPI_IN_PLACE;
    memset(&u, 0, sizeof u);
    memset(&vs, 0, sizeof vs);
    memset(&vr, 0, sizeof vr);
    PMPI_Comm_size(comm, &p);
    if (!begin(&k, C_ALLTOALLW, req != NULL, comm, 0, 0)) return passed(&k) - 1;
    if (ip) in_place_native(&k, 1);   /* recvbuf's blocks are packed first: a copy */
    if (!wside_make(&vs, p, ip ? rc : sc, ip ? rd : sd, ip ? rt : st, ip ? rbuf : sbuf, 1, ip, comm, &none, &tmp) ||
        !wside_make(&vr, p, rc, rd, rt, rbuf, 0, 0, comm, &u, &tmp)) {
        vside_free(&vs); free(tmp); k.why = W_SIZE; return passed(&k) - 1;
    }
    k.d.counts = vs.cnt; k.d.displs = vs.dsp; k.d.recv_counts = vr.cnt; k.d.recv_displs = vr.dsp;
    served(&k);
    x = run_unpack(k.m, &k.d, NULL, vs.buf, vr.buf, tmp, NULL, &u, comm, req);
    vside_free(&vs); vside_free(&vr);
    return x;
}
int MPI_Alltoallw(const void *s, const int *sc, const int *sd, const MPI_Datatype *st, void *r, const int *rc,
                  const int *rd, const MPI_Datatype *rt, MPI_Comm comm) {
    int x = do_a2aw(s, sc, sd, st, r, rc, rd, rt, comm, NULL);
    return x >= 0 ? x : PMPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, comm);
}
int MPI_Ialltoallw(const void *s, const int *sc, const int *sd, const MPI_Datatype *st, void *r, const int *rc,
                   const int *rd, const MPI_Datatype *rt, MPI_Comm comm, MPI_Request *q) {
    int x = do_a2aw(s, sc, sd, st, r, rc, rd, rt, comm, q);
    return x >= 0 ? x : PMPI_Ialltoallw(s, sc, sd, st, r, rc, rd, rt, comm, q);
}

/* ---- neighbourhood collectives --------------------------------------------------------------- */
/* One side of a neighbourhood call as MPI gives it: count (allgather, alltoall) or counts and
   displacements (v: in elements; w: in bytes, with a type per block in ts). */
typedef struct nbr_side { const void *buf; int count; const int *counts, *displs; MPI_Datatype t; const MPI_Datatype *ts; } nbr_side;
typedef struct nbr_args { goal_algo_desc d; goal_algo_neighbors nb; } nbr_args;
static int32_t nbr_build(goal_graph *g, const void *args, goal_error *err) {
    const nbr_args *a = (const nbr_args *)args;
    return goal_algo_neighbor_build(g, &a->d, &a->nb, NULL, 0, NULL, err);
}
/* The communicator's neighbours in MPI's order (Cartesian: -1 then +1 per dimension), one
   malloc'd array (sources, then destinations), MPI_PROC_NULL as -1; NULL without topology. */
static int *nbr_lists(MPI_Comm comm, int *ns, int *nd) {
    int topo = MPI_UNDEFINED, me = 0, k, w = 0, *l = NULL, *wt = NULL;
    PMPI_Topo_test(comm, &topo);
    PMPI_Comm_rank(comm, &me);
    *ns = *nd = 0;
    if (topo == MPI_CART) PMPI_Cartdim_get(comm, ns), *ns *= 2;
    if (topo == MPI_GRAPH) PMPI_Graph_neighbors_count(comm, me, ns);
    if (topo == MPI_DIST_GRAPH) PMPI_Dist_graph_neighbors_count(comm, ns, nd, &w);
    else *nd = *ns;
    if ((topo != MPI_CART && topo != MPI_GRAPH && topo != MPI_DIST_GRAPH) ||
        !(l = (int *)malloc((size_t)(*ns + *nd + 1) * sizeof(int))) || !(wt = (int *)malloc((size_t)(*ns + *nd + 1) * sizeof(int)))) {
        free(l); return NULL;
    }
    for (k = 0; topo == MPI_CART && k < *ns / 2; k++) PMPI_Cart_shift(comm, k, 1, &l[2 * k], &l[2 * k + 1]);
    if (topo == MPI_GRAPH) PMPI_Graph_neighbors(comm, me, *ns, l);
    if (topo == MPI_DIST_GRAPH) PMPI_Dist_graph_neighbors(comm, *ns, l, wt, *nd, l + *ns, wt + *ns);
    else memcpy(l + *ns, l, (size_t)*ns * sizeof(int));   /* the same list both ways */
    for (k = 0; k < *ns + *nd; k++) if (l[k] == MPI_PROC_NULL) l[k] = -1;
    free(wt);
    return l;
}
/* A side as bytes for goal_algo_neighbor_build (n blocks; one: allgather's single send block). */
static int nbr_side_bytes(const nbr_side *s, int n, int send, MPI_Comm comm, vside *v, struct unpack *u, void **tmp) {
    int *cnt = NULL, ok, i;
    if (s->ts) return wside_make(v, n, s->counts, s->displs, s->ts, s->buf, send, 0, comm, u, tmp);
    if (!s->counts && !(cnt = (int *)malloc((size_t)(n + 1) * sizeof(int)))) return 0;
    for (i = 0; cnt && i < n; i++) cnt[i] = s->count;
    ok = vside_make(v, n, s->counts ? s->counts : cnt, s->displs, s->t, s->buf, send, comm, u, tmp);
    free(cnt);
    return ok;
}
/* Bytes a side's blocks span from its buffer. */
static uint64_t nbr_span(const vside *v, int n) {
    uint64_t span = 0;
    int i;
    for (i = 0; i < n; i++) if ((uint64_t)v->dsp[i] + (uint64_t)v->cnt[i] > span) span = (uint64_t)v->dsp[i] + (uint64_t)v->cnt[i];
    return span;
}
/* The cache key: the collective (what the ranks agree on), then this rank's lists and layout. */
static int *nbr_key(int c, const nbr_args *a, size_t *len) {
    int ns = a->nb.nsources, nd = a->nb.ndests, nsd = a->nb.allgather ? 0 : nd, *k, at = 0, i;
    *len = (size_t)(4 + 3 * ns + 3 * nd + 2 * nsd) * sizeof(int);
    if (!(k = (int *)malloc(*len))) return NULL;
    k[at++] = c; k[at++] = (int)a->d.count; k[at++] = ns; k[at++] = nd + a->nb.cartesian * (1 << 30);
    for (i = 0; i < ns; i++) { k[at++] = a->nb.sources[i]; k[at++] = a->d.recv_counts[i]; k[at++] = a->d.recv_displs[i]; }
    for (i = 0; i < nd; i++) k[at++] = a->nb.dests[i];
    for (i = 0; i < nsd; i++) { k[at++] = a->d.counts[i]; k[at++] = a->d.displs[i]; }
    *len = (size_t)at * sizeof(int);
    return k;
}
static int do_neighbor(int c, const nbr_side *snd, const nbr_side *rcv, MPI_Comm comm, MPI_Request *req) {
    call k;
    vside vs, vr;
    struct unpack u, none;
    void *tmp = NULL;
    int ns = 0, nd = 0, *l, *key = NULL, *zc = NULL, ag = c == C_NEIGHBOR_ALLGATHER || c == C_NEIGHBOR_ALLGATHERV, x;
    nbr_side r2;
    nbr_args a;
    goal_mpi_coll coll;
    goal_slot slots[2];
    goal_mpi_request *r = NULL;
    goal_status st;
    size_t keylen = 0;
    memset(&k, 0, sizeof k); memset(&u, 0, sizeof u); memset(&vs, 0, sizeof vs); memset(&vr, 0, sizeof vr);
    memset(&a, 0, sizeof a); memset(&coll, 0, sizeof coll);
    k.c = c; k.nb = req != NULL; k.fortran = G.in_fortran;
    if (!(k.m = comm_goal(comm, &k.why))) return passed(&k) - 1;
    if (G.nrules[c] > 0 && !G.rules[c][0].algo) { k.why = W_CHOSEN; return passed(&k) - 1; }
    if (!(l = nbr_lists(comm, &ns, &nd))) { k.why = W_TOPO; return passed(&k) - 1; }
    r2 = *rcv;
    if (rcv->ts && (zc = (int *)malloc((size_t)(ns + 1) * sizeof(int))) != NULL)   /* MPI_PROC_NULL's blocks stay */
        for (x = 0, r2.counts = zc; x < ns; x++) zc[x] = l[x] < 0 ? 0 : rcv->counts[x];
    if ((rcv->ts && !zc) || !nbr_side_bytes(snd, ag ? 1 : nd, 1, comm, &vs, &none, &tmp) || !nbr_side_bytes(&r2, ns, 0, comm, &vr, &u, &tmp)) {
        vside_free(&vs); free(tmp); free(l); free(zc); k.why = W_SIZE; return passed(&k) - 1;
    }
    a.d.dtype = GOAL_UINT8; a.d.count = ag ? (uint64_t)vs.cnt[0] : 0;
    a.d.counts = ag ? NULL : vs.cnt; a.d.displs = ag ? NULL : vs.dsp; a.d.recv_counts = vr.cnt; a.d.recv_displs = vr.dsp;
    a.nb.nsources = ns; a.nb.sources = l; a.nb.ndests = nd; a.nb.dests = l + ns; a.nb.allgather = ag;
    PMPI_Topo_test(comm, &a.nb.cartesian);
    a.nb.cartesian = a.nb.cartesian == MPI_CART;
    for (x = 0; u.counts && x < ns; x++) if (l[x] < 0) u.counts[x] = 0;   /* MPI_PROC_NULL: its block stays */
    slots[0].data = vs.buf; slots[0].size = nbr_span(&vs, ag ? 1 : nd);
    slots[1].data = vr.buf; slots[1].size = nbr_span(&vr, ns);
    coll.build_fn = nbr_build; coll.args = &a; coll.slots = slots; coll.nslots = 2;
    coll.key = key = nbr_key(c, &a, &keylen); coll.keylen = keylen; coll.agreed = sizeof(int);
    served(&k);
    st = key ? hold_unpack(&u, req) : GOAL_ERR_NOMEM;
    if (st == GOAL_OK && F.want && !req && !G.pending && !tmp && !u.packed) x = fast_new(k.m, NULL, NULL, NULL, &coll, comm);
    else {
        if (st == GOAL_OK) st = goal_mpi_start(k.m, &coll, &r);
        x = track(k.m, st, r, tmp, NULL, &u, comm, req);
    }
    free(key); free(l); free(zc); vside_free(&vs); vside_free(&vr);
    return x;
}
/* The MPI calls: each side described, then do_neighbor. */
static nbr_side nbr_one(const void *buf, int count, MPI_Datatype t) { nbr_side s = {buf, count, NULL, NULL, t, NULL}; return s; }
static nbr_side nbr_v(const void *buf, const int *counts, const int *displs, MPI_Datatype t) {
    nbr_side s = {buf, 0, counts, displs, t, NULL};
    return s;
}
static nbr_side nbr_w(const void *buf, const int *counts, const MPI_Aint *displs, const MPI_Datatype *ts, int *idispls, int n) {
    nbr_side s = {buf, 0, counts, idispls, MPI_BYTE, ts};
    int i;
    for (i = 0; i < n; i++) idispls[i] = (int)displs[i];   /* nbr_w_call checked the range */
    return s;
}
static int nbr_call(int c, nbr_side s, nbr_side r, MPI_Comm comm, MPI_Request *req) { return do_neighbor(c, &s, &r, comm, req); }
int MPI_Neighbor_allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm) {
    int x = fast_try(C_NEIGHBOR_ALLGATHER, s, r, sc, st, rc, rt, MPI_OP_NULL, 0, comm);
    if (x < 0) x = fast_done(nbr_call(C_NEIGHBOR_ALLGATHER, nbr_one(s, sc, st), nbr_one(r, rc, rt), comm, NULL));
    return x >= 0 ? x : PMPI_Neighbor_allgather(s, sc, st, r, rc, rt, comm);
}
int MPI_Ineighbor_allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q) {
    int x = nbr_call(C_NEIGHBOR_ALLGATHER, nbr_one(s, sc, st), nbr_one(r, rc, rt), comm, q);
    return x >= 0 ? x : PMPI_Ineighbor_allgather(s, sc, st, r, rc, rt, comm, q);
}
int MPI_Neighbor_allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt,
                            MPI_Comm comm) {
    int x = nbr_call(C_NEIGHBOR_ALLGATHERV, nbr_one(s, sc, st), nbr_v(r, rc, rd, rt), comm, NULL);
    return x >= 0 ? x : PMPI_Neighbor_allgatherv(s, sc, st, r, rc, rd, rt, comm);
}
int MPI_Ineighbor_allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt,
                             MPI_Comm comm, MPI_Request *q) {
    int x = nbr_call(C_NEIGHBOR_ALLGATHERV, nbr_one(s, sc, st), nbr_v(r, rc, rd, rt), comm, q);
    return x >= 0 ? x : PMPI_Ineighbor_allgatherv(s, sc, st, r, rc, rd, rt, comm, q);
}
int MPI_Neighbor_alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm) {
    int x = fast_try(C_NEIGHBOR_ALLTOALL, s, r, sc, st, rc, rt, MPI_OP_NULL, 0, comm);
    if (x < 0) x = fast_done(nbr_call(C_NEIGHBOR_ALLTOALL, nbr_one(s, sc, st), nbr_one(r, rc, rt), comm, NULL));
    return x >= 0 ? x : PMPI_Neighbor_alltoall(s, sc, st, r, rc, rt, comm);
}
int MPI_Ineighbor_alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q) {
    int x = nbr_call(C_NEIGHBOR_ALLTOALL, nbr_one(s, sc, st), nbr_one(r, rc, rt), comm, q);
    return x >= 0 ? x : PMPI_Ineighbor_alltoall(s, sc, st, r, rc, rt, comm, q);
}
int MPI_Neighbor_alltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc, const int *rd,
                           MPI_Datatype rt, MPI_Comm comm) {
    int x = nbr_call(C_NEIGHBOR_ALLTOALLV, nbr_v(s, sc, sd, st), nbr_v(r, rc, rd, rt), comm, NULL);
    return x >= 0 ? x : PMPI_Neighbor_alltoallv(s, sc, sd, st, r, rc, rd, rt, comm);
}
int MPI_Ineighbor_alltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc, const int *rd,
                            MPI_Datatype rt, MPI_Comm comm, MPI_Request *q) {
    int x = nbr_call(C_NEIGHBOR_ALLTOALLV, nbr_v(s, sc, sd, st), nbr_v(r, rc, rd, rt), comm, q);
    return x >= 0 ? x : PMPI_Ineighbor_alltoallv(s, sc, sd, st, r, rc, rd, rt, comm, q);
}
/* alltoallw's displacements are MPI_Aint: as int (beyond int's range: passed on). */
static int nbr_w_call(const void *s, const int *sc, const MPI_Aint *sd, const MPI_Datatype *st, void *r, const int *rc,
                      const MPI_Aint *rd, const MPI_Datatype *rt, MPI_Comm comm, MPI_Request *q) {
    int ns = 0, nd = 0, *l = nbr_lists(comm, &ns, &nd), *d = (int *)malloc((size_t)(ns + nd + 1) * sizeof(int)), x = -1, i;
    for (i = 0; d && i < ns + nd; i++) if ((i < nd ? sd[i] : rd[i - nd]) > INT_MAX || (i < nd ? sd[i] : rd[i - nd]) < INT_MIN) break;
    if (d && i == ns + nd)
        x = nbr_call(C_NEIGHBOR_ALLTOALLW, nbr_w(s, sc, sd, st, d, nd), nbr_w(r, rc, rd, rt, d + nd, ns), comm, q);
    free(l); free(d);
    return x;
}
int MPI_Neighbor_alltoallw(const void *s, const int *sc, const MPI_Aint *sd, const MPI_Datatype *st, void *r, const int *rc,
                           const MPI_Aint *rd, const MPI_Datatype *rt, MPI_Comm comm) {
    int x = nbr_w_call(s, sc, sd, st, r, rc, rd, rt, comm, NULL);
    return x >= 0 ? x : PMPI_Neighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, comm);
}
int MPI_Ineighbor_alltoallw(const void *s, const int *sc, const MPI_Aint *sd, const MPI_Datatype *st, void *r, const int *rc,
                            const MPI_Aint *rd, const MPI_Datatype *rt, MPI_Comm comm, MPI_Request *q) {
    int x = nbr_w_call(s, sc, sd, st, r, rc, rd, rt, comm, q);
    return x >= 0 ? x : PMPI_Ineighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, comm, q);
}

/* ---- persistent collectives (MPI 4) ------------------------------------------------------------ */
/* The program holds a persistent receive from MPI_PROC_NULL (MPI's own persistent request:
   MPI_Start activates it, a completion leaves it inactive, MPI_Request_free frees it);
   MPI_Start runs the collective as its nonblocking form into g, and the completion calls
   finish g before they look at the handle. The first start of one that needs no copy
   prepares it (goal_mpi.h, PREPARED), and the later starts run that without translating the
   call (MPI fixes a persistent call's arguments, its arrays' contents included). */
enum { P_BCAST, P_REDUCE, P_ALLREDUCE, P_ALLGATHER, P_ALLTOALL, P_BARRIER, P_GATHER, P_SCATTER, P_RSB, P_SCAN, P_EXSCAN,
       P_GATHERV, P_SCATTERV, P_ALLGATHERV, P_ALLTOALLV, P_REDUCE_SCATTER };
typedef struct persist {
    MPI_Request h, g;
    int kind, active, n, rn, root;
    const int *sc, *sd, *rc, *rd;   /* the v-forms' arrays: MPI keeps them the caller's until freed */
    const void *s;
    void *r;
    MPI_Datatype t, rt;
    MPI_Op op;
    MPI_Comm comm;
    held hold;                      /* t, rt and op as the program may free them after _init */
    goal_mpi_prepared *prep;        /* its first start prepared (persist_prepare), on pm */
    goal_mpi *pm;
    call k;                         /* that start's call, as served saw it (its arrays in kept) */
    int *kept;
    struct persist *next;
} persist;
static persist *persists;   /* every persistent collective not yet freed */
/* Testany / Testsome's saved handles: on the stack for up to this many requests (a polling
   loop allocates nothing, and two threads polling point-to-point requests at once, which
   the rules allow, do not share a buffer), else allocated for the call. */
#define HIDDEN_STACK 64
static MPI_Request *hidden_for(int n, MPI_Request *stack) {
    return n < HIDDEN_STACK ? stack : n < 0 ? NULL : (MPI_Request *)malloc((size_t)n * sizeof *stack + sizeof *stack);
}
static void hidden_done(MPI_Request *saved, const MPI_Request *stack) { if (saved != stack) free(saved); }
static persist *persist_of(MPI_Request r) {
    persist *p;
    for (p = persists; p && r != MPI_REQUEST_NULL && p->h != r; p = p->next) {}
    return r == MPI_REQUEST_NULL ? NULL : p;
}
static int persist_prepare(goal_mpi *m, const goal_algo_desc *d, const void *in, void *out, struct unpack *u, MPI_Comm comm,
                           MPI_Request *req) {
    persist *p = F.pwant;
    goal_mpi_request *r = NULL;
    goal_status st;
    int np = 1, ok = 1;
    F.pwant = NULL;
    if ((st = goal_mpi_algo_prepare(m, d, in, out, &p->prep)) == GOAL_OK) {
        p->pm = m; p->k = F.k;
        p->kept = call_keep(&p->k, comm, NULL, 0, &np, &ok);
    }
    if (!ok) {   /* this start translated, the next ones too */
        goal_mpi_prepared_free(&p->prep);
        st = goal_mpi_algo_start(m, d, in, out, &r);
    } else if (st == GOAL_OK) {
        F.runs++;
        st = goal_mpi_prepared_start(p->prep, &r);
    }
    return track(m, st, r, NULL, NULL, u, comm, req);
}
/* A start of p prepared: counted and recorded as the translated start was. */
static int persist_again(persist *p) {
    goal_mpi_request *r = NULL;
    goal_status st;
    F.runs++;
    if (p->s == MPI_IN_PLACE || p->r == MPI_IN_PLACE) G.inplace[1][p->k.c][0]++;   /* prepared: natively */
    served(&p->k);
    st = goal_mpi_prepared_start(p->prep, &r);
    return track(p->pm, st, r, NULL, NULL, NULL, p->comm, &p->g);
}
static void persist_forget(goal_mpi *m) {
    persist *p;
    for (p = persists; p; p = p->next)
        if (p->prep && p->pm == m) p->prep = NULL;   /* goal_mpi_destroy frees it */
}
static int persist_start(persist *p) {
    int rc = MPI_SUCCESS;
    F.pwant = p->prep ? NULL : p;
    if (p->prep) rc = persist_again(p);
    else switch (p->kind) {
    case P_BCAST: rc = MPI_Ibcast(p->r, p->n, p->t, p->root, p->comm, &p->g); break;
    case P_REDUCE: rc = MPI_Ireduce(p->s, p->r, p->n, p->t, p->op, p->root, p->comm, &p->g); break;
    case P_ALLREDUCE: rc = MPI_Iallreduce(p->s, p->r, p->n, p->t, p->op, p->comm, &p->g); break;
    case P_ALLGATHER: rc = MPI_Iallgather(p->s, p->n, p->t, p->r, p->rn, p->rt, p->comm, &p->g); break;
    case P_ALLTOALL: rc = MPI_Ialltoall(p->s, p->n, p->t, p->r, p->rn, p->rt, p->comm, &p->g); break;
    case P_GATHER: rc = MPI_Igather(p->s, p->n, p->t, p->r, p->rn, p->rt, p->root, p->comm, &p->g); break;
    case P_SCATTER: rc = MPI_Iscatter(p->s, p->n, p->t, p->r, p->rn, p->rt, p->root, p->comm, &p->g); break;
    case P_RSB: rc = MPI_Ireduce_scatter_block(p->s, p->r, p->n, p->t, p->op, p->comm, &p->g); break;
    case P_SCAN: rc = MPI_Iscan(p->s, p->r, p->n, p->t, p->op, p->comm, &p->g); break;
    case P_EXSCAN: rc = MPI_Iexscan(p->s, p->r, p->n, p->t, p->op, p->comm, &p->g); break;
    case P_GATHERV: rc = MPI_Igatherv(p->s, p->n, p->t, p->r, p->rc, p->rd, p->rt, p->root, p->comm, &p->g); break;
    case P_SCATTERV: rc = MPI_Iscatterv(p->s, p->sc, p->sd, p->t, p->r, p->rn, p->rt, p->root, p->comm, &p->g); break;
    case P_ALLGATHERV: rc = MPI_Iallgatherv(p->s, p->n, p->t, p->r, p->rc, p->rd, p->rt, p->comm, &p->g); break;
    case P_ALLTOALLV: rc = MPI_Ialltoallv(p->s, p->sc, p->sd, p->t, p->r, p->rc, p->rd, p->rt, p->comm, &p->g); break;
    case P_REDUCE_SCATTER: rc = MPI_Ireduce_scatter(p->s, p->r, p->rc, p->t, p->op, p->comm, &p->g); break;
    default: rc = MPI_Ibarrier(p->comm, &p->g); break;
    }
    F.pwant = NULL;
    p->active = rc == MPI_SUCCESS;
    return rc == MPI_SUCCESS ? PMPI_Start(&p->h) : rc;
}
/* Wait-type calls: every active persistent collective among reqs is finished first. */
static void persist_finish(const MPI_Request *reqs, int n) {
    int i;
    persist *p;
    for (i = 0; persists && i < n; i++)
        if ((p = persist_of(reqs[i])) != NULL && p->active) { MPI_Wait(&p->g, MPI_STATUS_IGNORE); p->active = 0; }
}
/* Test-type calls: whether the persistent collective behind r (if any) is done. */
static int persist_done(MPI_Request r) {
    persist *p = persists ? persist_of(r) : NULL;
    int flag = 1;
    if (p && p->active) { MPI_Test(&p->g, &flag, MPI_STATUS_IGNORE); p->active = !flag; }
    return flag;
}
/* Testany / Testsome: the unfinished ones hidden from the library (MPI_REQUEST_NULL) while
   it tests; their handles go back in after. Returns how many were hidden. */
static int persist_hide(MPI_Request *reqs, int n, MPI_Request *saved) {
    int i, k = 0;
    for (i = 0; persists && i < n; i++) {
        saved[i] = MPI_REQUEST_NULL;
        if (!persist_done(reqs[i])) { saved[i] = reqs[i]; reqs[i] = MPI_REQUEST_NULL; k++; }
    }
    return k;
}
static void persist_unhide(MPI_Request *reqs, int n, const MPI_Request *saved) {
    int i;
    for (i = 0; persists && i < n; i++) if (saved[i] != MPI_REQUEST_NULL) reqs[i] = saved[i];
}
#if MPI_VERSION >= 4
static int persist_init(int kind, const void *s, void *r, int n, MPI_Datatype t, int rn, MPI_Datatype rt, MPI_Op op, int root,
                        MPI_Comm comm, MPI_Request *req) {
    persist *p = (persist *)calloc(1, sizeof *p);
    int rc;
    if (!p) return PMPI_Comm_call_errhandler(comm, MPI_ERR_NO_MEM), MPI_ERR_NO_MEM;
    p->kind = kind; p->s = s; p->r = r; p->n = n; p->t = t; p->rn = rn; p->rt = rt; p->op = op; p->root = root; p->comm = comm;
    hold_type(&p->hold, &p->t); hold_type(&p->hold, &p->rt);   /* what cannot be held is used as it is */
    hold_op(&p->hold, &p->op);
    if ((rc = PMPI_Recv_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm, &p->h)) != MPI_SUCCESS) { free(p); return rc; }
    p->next = persists; persists = p;
    *req = p->h;
    return MPI_SUCCESS;
}
int MPI_Bcast_init(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_BCAST, NULL, b, n, t, 0, t, MPI_OP_NULL, root, comm, q);
}
int MPI_Reduce_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_REDUCE, s, r, n, t, 0, t, op, root, comm, q);
}
int MPI_Allreduce_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_ALLREDUCE, s, r, n, t, 0, t, op, 0, comm, q);
}
int MPI_Allgather_init(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info,
                       MPI_Request *q) {
    (void)info;
    return persist_init(P_ALLGATHER, s, r, sc, st, rc, rt, MPI_OP_NULL, 0, comm, q);
}
int MPI_Alltoall_init(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info,
                      MPI_Request *q) {
    (void)info;
    return persist_init(P_ALLTOALL, s, r, sc, st, rc, rt, MPI_OP_NULL, 0, comm, q);
}
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_BARRIER, NULL, NULL, 0, MPI_BYTE, 0, MPI_BYTE, MPI_OP_NULL, 0, comm, q);
}
int MPI_Gather_init(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_GATHER, s, r, sc, st, rc, rt, MPI_OP_NULL, root, comm, q);
}
int MPI_Scatter_init(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_SCATTER, s, r, sc, st, rc, rt, MPI_OP_NULL, root, comm, q);
}
int MPI_Reduce_scatter_block_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *q) {
    (void)info;
    return persist_init(P_RSB, s, r, n, t, 0, t, op, 0, comm, q);
}
int MPI_Scan_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_SCAN, s, r, n, t, 0, t, op, 0, comm, q);
}
int MPI_Exscan_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_init(P_EXSCAN, s, r, n, t, 0, t, op, 0, comm, q);
}
/* The v-forms: persist_init, then the arrays. */
static int persist_v(int rc, MPI_Request *q, const int *sc, const int *sd, const int *rcs, const int *rd) {
    persist *p = rc == MPI_SUCCESS ? persist_of(*q) : NULL;
    if (p) { p->sc = sc; p->sd = sd; p->rc = rcs; p->rd = rd; }
    return rc;
}
int MPI_Gatherv_init(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_v(persist_init(P_GATHERV, s, r, sc, st, 0, rt, MPI_OP_NULL, root, comm, q), q, NULL, NULL, rc, rd);
}
int MPI_Scatterv_init(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_v(persist_init(P_SCATTERV, s, r, 0, st, rc, rt, MPI_OP_NULL, root, comm, q), q, sc, sd, NULL, NULL);
}
int MPI_Allgatherv_init(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt,
                        MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_v(persist_init(P_ALLGATHERV, s, r, sc, st, 0, rt, MPI_OP_NULL, 0, comm, q), q, NULL, NULL, rc, rd);
}
int MPI_Alltoallv_init(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc, const int *rd,
                       MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request *q) {
    (void)info;
    return persist_v(persist_init(P_ALLTOALLV, s, r, 0, st, 0, rt, MPI_OP_NULL, 0, comm, q), q, sc, sd, rc, rd);
}
int MPI_Reduce_scatter_init(const void *s, void *r, const int *rc, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *q) {
    (void)info;
    return persist_v(persist_init(P_REDUCE_SCATTER, s, r, 0, t, 0, t, op, 0, comm, q), q, NULL, NULL, rc, NULL);
}
#endif
/* Under their own names for the recorder, whose MPI_Start ... call these. */
#define MPI_Start goalmpi__start
#define MPI_Startall goalmpi__startall
#define MPI_Request_free goalmpi__request_free
int MPI_Start(MPI_Request *r);
int MPI_Startall(int n, MPI_Request *reqs);
int MPI_Request_free(MPI_Request *r);
int MPI_Start(MPI_Request *r) {
    persist *p = persists ? persist_of(*r) : NULL;
    return p ? persist_start(p) : PMPI_Start(r);
}
int MPI_Startall(int n, MPI_Request *reqs) {
    int i, rc = MPI_SUCCESS;
    if (!persists) return PMPI_Startall(n, reqs);
    for (i = 0; i < n && rc == MPI_SUCCESS; i++) rc = MPI_Start(&reqs[i]);
    return rc;
}
int MPI_Request_free(MPI_Request *r) {
    persist *p = persists ? persist_of(*r) : NULL, **pp;
    if (!p) return PMPI_Request_free(r);
    persist_finish(r, 1);
    for (pp = &persists; *pp != p; pp = &(*pp)->next) {}
    *pp = p->next;
    goal_mpi_prepared_free(&p->prep);
    free(p->kept);
    release(&p->hold);
    free(p);
    return PMPI_Request_free(r);
}
#undef MPI_Start
#undef MPI_Startall
#undef MPI_Request_free

/* ---- completion calls: they progress libgoal too --------------------------------------------- */
/* Under their own names for the recorder, whose MPI_Wait ... call these. */
#define MPI_Wait goalmpi__wait
#define MPI_Test goalmpi__test
#define MPI_Waitall goalmpi__waitall
#define MPI_Testall goalmpi__testall
#define MPI_Waitany goalmpi__waitany
#define MPI_Testany goalmpi__testany
#define MPI_Waitsome goalmpi__waitsome
#define MPI_Testsome goalmpi__testsome
int MPI_Wait(MPI_Request *req, MPI_Status *s);
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *s);
int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *s);
int MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *s);
int MPI_Waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *s);
int MPI_Testany(int n, MPI_Request *reqs, int *idx, int *flag, MPI_Status *s);
int MPI_Waitsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *s);
int MPI_Testsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *s);
int MPI_Wait(MPI_Request *req, MPI_Status *s) {
    int flag = 0, rc;
    persist_finish(req, 1);
    if (!G.pending) return PMPI_Wait(req, s);
    while ((rc = PMPI_Test(req, &flag, s)) == MPI_SUCCESS && !flag) progress();
    return rc;
}
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *s) {
    progress();
    if (!persist_done(*req)) return *flag = 0, MPI_SUCCESS;
    return PMPI_Test(req, flag, s);
}
int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *s) {
    int flag = 0, rc;
    persist_finish(reqs, n);
    if (!G.pending) return PMPI_Waitall(n, reqs, s);
    while ((rc = PMPI_Testall(n, reqs, &flag, s)) == MPI_SUCCESS && !flag) progress();
    return rc;
}
int MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *s) {
    int i;
    progress();
    for (i = 0; persists && i < n; i++) if (!persist_done(reqs[i])) return *flag = 0, MPI_SUCCESS;
    return PMPI_Testall(n, reqs, flag, s);
}
int MPI_Waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *s) {   /* "any", not all of the persistent ones */
    int flag = 0, rc;
    if (!G.pending && !persists) return PMPI_Waitany(n, reqs, idx, s);
    while ((rc = MPI_Testany(n, reqs, idx, &flag, s)) == MPI_SUCCESS && !flag) {}
    return rc;
}
int MPI_Testany(int n, MPI_Request *reqs, int *idx, int *flag, MPI_Status *s) {
    MPI_Request stack[HIDDEN_STACK], *saved = persists ? hidden_for(n, stack) : NULL;
    int hid = 0, rc, i;
    persist *p;
    progress();
    if (!saved) return PMPI_Testany(n, reqs, idx, flag, s);
    for (i = 0; i < n; i++) {   /* one that finishes now is this call's; the running ones hidden */
        saved[i] = MPI_REQUEST_NULL;
        if ((p = persist_of(reqs[i])) == NULL || !p->active) continue;
        if (persist_done(reqs[i])) {   /* reported here: MPICH's Testany skips a started receive from MPI_PROC_NULL */
            persist_unhide(reqs, i, saved);
            hidden_done(saved, stack);
            *idx = i; *flag = 1;
            return PMPI_Wait(&reqs[i], s);
        }
        saved[i] = reqs[i]; reqs[i] = MPI_REQUEST_NULL; hid++;
    }
    rc = PMPI_Testany(n, reqs, idx, flag, s);
    persist_unhide(reqs, n, saved);
    hidden_done(saved, stack);
    if (hid && *idx == MPI_UNDEFINED) *flag = 0;   /* not "all inactive": one is running */
    return rc;
}
int MPI_Waitsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *s) {
    int rc;
    if (!G.pending && !persists) return PMPI_Waitsome(n, reqs, out, idx, s);
    while ((rc = MPI_Testsome(n, reqs, out, idx, s)) == MPI_SUCCESS && *out == 0) {}
    return rc;
}
int MPI_Testsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *s) {
    MPI_Request stack[HIDDEN_STACK], *saved = persists ? hidden_for(n, stack) : NULL;
    int hid, rc;
    progress();
    if (!saved) return PMPI_Testsome(n, reqs, out, idx, s);
    hid = persist_hide(reqs, n, saved);
    rc = PMPI_Testsome(n, reqs, out, idx, s);
    persist_unhide(reqs, n, saved);
    hidden_done(saved, stack);
    if (hid && *out == MPI_UNDEFINED) *out = 0;
    return rc;
}

#undef MPI_Wait
#undef MPI_Test
#undef MPI_Waitall
#undef MPI_Testall
#undef MPI_Waitany
#undef MPI_Testany
#undef MPI_Waitsome
#undef MPI_Testsome

/* ---- the end ------------------------------------------------------------------------------- */
/* "allreduce auto: allreduce_dissemination 12, allreduce_rabenseifner 40" when auto ran any. */
static void print_picks(int nb, int c) {
    const pick *p = G.picks[nb][c];
    int i;
    if (!p[0].algo) return;
    fprintf(stderr, "%s%s auto:", nb ? "i" : "", goal_coll_call(c));
    for (i = 0; i < MAX_PICKS && p[i].algo; i++) fprintf(stderr, "%s %s %llu", i ? "," : "", p[i].algo->name, p[i].n);
    fprintf(stderr, "\n");
}
/* " (12 from Fortran)" when n is not 0, else "". */
static const char *from_fortran(unsigned long long n, char *buf, size_t len) {
    if (!n) return "";
    snprintf(buf, len, " (%llu from Fortran)", n);
    return buf;
}
/* The first line, always: what was loaded, for which library, and what reached it. */
static void print_banner(void) {
    unsigned long long n[2] = {0, 0}, f = 0;
    int nb, c, w;
    char fb[48];
    for (nb = 0; nb < 2; nb++)
        for (c = 0; c < NCOLL; c++) {
            n[0] += G.served[nb][c];
            for (w = 0; w < NWHY; w++) n[1] += G.passed[nb][c][w];
            f += G.fortran[nb][c][0] + G.fortran[nb][c][1];
        }
    fprintf(stderr, "libgoalmpi %s (%s): %llu collective calls%s, %llu libgoal, %llu passed on\n", GOAL_VERSION_STRING,
            BUILT_FOR, n[0] + n[1], from_fortran(f, fb, sizeof fb), n[0], n[1]);
}
static void print_stats(void) {
    int nb, c, w;
    char fb[48];
    print_banner();
    for (nb = 0; nb < 2; nb++)
        for (c = 0; c < NCOLL; c++) {
            unsigned long long pass = 0, fp = G.fortran[nb][c][1];
            char why[512] = "";
            size_t len = fp ? (size_t)snprintf(why, sizeof why, " (%llu from Fortran;", fp) : 0;
            for (w = 0; w < NWHY; w++)
                if (G.passed[nb][c][w]) {
                    pass += G.passed[nb][c][w];
                    len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0, "%s%llu %s",
                                            !len ? " (" : why[len - 1] == ';' ? " " : ", ", G.passed[nb][c][w], why_name[w]);
                    if (len >= sizeof why) len = sizeof why - 1;   /* cut: the next one starts at the end */
                }
            if (!G.served[nb][c] && !pass) continue;
            fprintf(stderr, "%s%s: %llu libgoal%s, %llu passed on%s%s\n", nb ? "i" : "", goal_coll_call(c), G.served[nb][c],
                    from_fortran(G.fortran[nb][c][0], fb, sizeof fb), pass, why, pass ? ")" : "");
            if (G.inplace[nb][c][0] || G.inplace[nb][c][1])
                fprintf(stderr, "%s%s in place: %llu native, %llu copied\n", nb ? "i" : "", goal_coll_call(c), G.inplace[nb][c][0],
                        G.inplace[nb][c][1]);
            print_picks(nb, c);
        }
}
int MPI_Finalize(void) {
    int me = 0;
    record_finalize();
    setup();   /* GOAL_MPI_STATS, when no collective reached the drop-in */
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    while (G.pending) progress();
    if (G.stats && me == 0) print_stats();
    while (G.comms) PMPI_Comm_delete_attr(G.comms->comm, G.keyval);   /* drop_comm unlinks it */
    if (G.keyval) PMPI_Comm_free_keyval(&G.keyval);
    while (G.userops) { userop *u = G.userops; G.userops = u->next; free(u); }   /* MPI frees the twins */
    return PMPI_Finalize();
}
#include "goalmpi_record.c"    /* GOAL_MPI_RECORD */
#include "goalmpi_fortran.c"   /* the Fortran entry points */
