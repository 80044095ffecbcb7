/* bench_mpi.c - libgoal over MPI against the MPI library's own collectives.
   For every collective with an MPI counterpart and every block size (8 B, 64 KiB, 1 MiB,
   8 MiB of int32, sum; root 0; the vector ones with every count equal, packed), every
   algorithm of goal_algos.h's registry for that collective (goal_algo_list: nothing is
   listed here, so a new algorithm is measured as soon as it exists; segmented ones at
   64 KiB and 512 KiB segments, as far as the message has that many bytes, labelled as goal
   tune labels them: NAME@segment=S) and the library's blocking call, run in turns (one run
   of each, again and again, so that load from other processes hits them alike).
     time       median latency of this rank's runs, then the slowest rank (8 B and the
                barrier: a run is BATCH calls back to back, per call)
     overhead   (NBCBench, LibNBC paper section 4; for the best algorithm and the library
                only) CPU time outside a simulated computation as long as one blocking
                latency, with 10 tests along the way (goal_mpi_test vs MPI_Test on MPI_I*)
     overlap    1 - overhead / time: the share of the collective hidden
     prepared   (8 B and the barrier, a line of its own after the cell's) the best algorithm
                prepared once (goal_mpi_algo_prepare, goal_mpi_prepared_run) against the
                library's call, in turns: its time, the library's, the ratio
   Prints one line per (collective, size): the best libgoal algorithm, its time, the
   library's, the ratio, how many algorithms were tried; the CSV has every algorithm
   (the best one's row carries the overhead columns).
   Usage: mpirun -np N bench_mpi LIBNAME [CSVFILE [COLLECTIVE...]]   (COLLECTIVE: only those,
   e.g. to measure a suspicious cell again; "-" for no CSV) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSIZES = 4, MAXVAR = 32, MAXREPS = 41 };
static const int sizes[NSIZES] = {8, 65536, 1 << 20, 8 << 20};
static const int reps_of[NSIZES] = {41, 21, 9, 5};
static const uint64_t segments[] = {65536, 524288};
/* Seconds a cell may take before it stops repeating (after 3 runs of each): a loaded machine
   (MPICH spins without yielding when ranks share a core) then costs fewer runs, not hours. */
static const double budget = 1.5;

static int me, np;
static unsigned char *sbuf, *rbuf;
static int *counts, *displs;   /* np entries: every block n elements, packed */

/* Whether the command line asks for collective c (all when it names none). */
static int wanted(int c, int argc, char **argv) {
    int k;
    for (k = 3; k < argc; k++)
        if (!strcmp(argv[k], goal_coll_get(c)->name)) return 1;
    return argc <= 3;
}
/* A variant: the library (algo NULL) or an algorithm with its segment (0: not segmented). */
typedef struct variant { const goal_algo_info *algo; uint64_t segment; char label[64]; } variant;

/* The library's collective c on n int32 per block: blocking when r is NULL, else MPI_I*. */
#define MPI_CALL(B, I, ...) (r ? MPI_##I(__VA_ARGS__, r) : MPI_##B(__VA_ARGS__))
static void mpi_call(int c, int n, MPI_Request *r) {
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype t = MPI_INT32_T;
    switch (c) {
    case GOAL_COLL_BCAST: MPI_CALL(Bcast, Ibcast, rbuf, n, t, 0, w); break;
    case GOAL_COLL_REDUCE: MPI_CALL(Reduce, Ireduce, sbuf, rbuf, n, t, MPI_SUM, 0, w); break;
    case GOAL_COLL_ALLREDUCE: MPI_CALL(Allreduce, Iallreduce, sbuf, rbuf, n, t, MPI_SUM, w); break;
    case GOAL_COLL_ALLGATHER: MPI_CALL(Allgather, Iallgather, sbuf, n, t, rbuf, n, t, w); break;
    case GOAL_COLL_ALLGATHERV: MPI_CALL(Allgatherv, Iallgatherv, sbuf, n, t, rbuf, counts, displs, t, w); break;
    case GOAL_COLL_ALLTOALL: MPI_CALL(Alltoall, Ialltoall, sbuf, n, t, rbuf, n, t, w); break;
    case GOAL_COLL_ALLTOALLV: MPI_CALL(Alltoallv, Ialltoallv, sbuf, counts, displs, t, rbuf, counts, displs, t, w); break;
    case GOAL_COLL_GATHER: MPI_CALL(Gather, Igather, sbuf, n, t, rbuf, n, t, 0, w); break;
    case GOAL_COLL_GATHERV: MPI_CALL(Gatherv, Igatherv, sbuf, n, t, rbuf, counts, displs, t, 0, w); break;
    case GOAL_COLL_SCATTER: MPI_CALL(Scatter, Iscatter, sbuf, n, t, rbuf, n, t, 0, w); break;
    case GOAL_COLL_SCATTERV: MPI_CALL(Scatterv, Iscatterv, sbuf, counts, displs, t, rbuf, n, t, 0, w); break;
    case GOAL_COLL_REDUCE_SCATTER: MPI_CALL(Reduce_scatter_block, Ireduce_scatter_block, sbuf, rbuf, n, t, MPI_SUM, w); break;
    case GOAL_COLL_REDUCE_SCATTERV: MPI_CALL(Reduce_scatter, Ireduce_scatter, sbuf, rbuf, counts, t, MPI_SUM, w); break;
    case GOAL_COLL_SCAN: MPI_CALL(Scan, Iscan, sbuf, rbuf, n, t, MPI_SUM, w); break;
    case GOAL_COLL_EXSCAN: MPI_CALL(Exscan, Iexscan, sbuf, rbuf, n, t, MPI_SUM, w); break;
    default: if (r) MPI_Ibarrier(w, r); else MPI_Barrier(w); break;
    }
}
static void goal_desc(goal_algo_desc *d, const variant *v, int n) {
    memset(d, 0, sizeof *d);
    d->algo = v->algo->name; d->dtype = GOAL_INT32; d->op = GOAL_OP_SUM; d->count = (uint64_t)n; d->segment = v->segment;
    if (v->algo->flags & GOAL_ALGO_VECTOR) { d->counts = counts; d->recv_counts = goal_algo_coll(d->algo) == GOAL_COLL_ALLTOALLV ? counts : NULL; }
}
static void check(goal_status st, goal_mpi *m) {
    if (st != GOAL_OK) { fprintf(stderr, "rank %d: %s\n", me, goal_mpi_error(m)->msg); MPI_Abort(MPI_COMM_WORLD, 1); }
}

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
/* The median of this rank's samples, then the largest over the ranks. */
static double median_max(double *t, int n) {
    double med, mx;
    qsort(t, (size_t)n, sizeof *t, cmp);
    med = t[n / 2];
    MPI_Allreduce(&med, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

/* Blocking calls per sample: one 8-byte call would time mostly the barrier's exit skew
   (the rank that leaves it first waits for the other inside the call, 0.3-1 us), so
   those are timed BATCH back to back, per call; from 64 KiB one call is the sample. */
enum { BATCH = 64 };
/* One run: blocking (compute < 0), or start, compute in 10 slices with a test after each,
   wait; returns the time not spent computing (blocking: per call). With p, blocking runs of
   that prepared collective (v's algorithm prepared once). */
static double sample(goal_mpi *m, int c, int n, const variant *v, double compute, goal_mpi_prepared *p) {
    goal_algo_desc d;
    goal_mpi_request *gr = NULL;
    MPI_Request mr;
    double t0, busy = 0;
    int k, flag, calls = n * 4 <= 8 ? BATCH : 1;
    if (v->algo) goal_desc(&d, v, n);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (compute < 0) {
        for (k = 0; k < calls; k++)
            if (p) check(goal_mpi_prepared_run(p), m);
            else if (v->algo) check(goal_mpi_algo_run(m, &d, sbuf, rbuf), m);
            else mpi_call(c, n, NULL);
        return (MPI_Wtime() - t0) / calls;
    }
    if (v->algo) check(goal_mpi_algo_start(m, &d, sbuf, rbuf, &gr), m);
    else mpi_call(c, n, &mr);
    for (k = 0; k < 10; k++) {
        double c0 = MPI_Wtime();
        while (MPI_Wtime() - c0 < compute / 10) {}   /* the simulated computation */
        busy += MPI_Wtime() - c0;
        if (v->algo && gr) { goal_status st = goal_mpi_test(&gr); if (st < 0) check(st, m); }
        else if (!v->algo) MPI_Test(&mr, &flag, MPI_STATUS_IGNORE);
    }
    if (v->algo && gr) check(goal_mpi_wait(&gr), m);
    else if (!v->algo) MPI_Wait(&mr, MPI_STATUS_IGNORE);
    return MPI_Wtime() - t0 - busy;
}

/* The variants of collective c at `bytes`: the library first, then every algorithm of c
   (segmented ones once per segment that does not exceed the message, at least once). */
static int variants(int c, int bytes, variant *v) {
    int i, s, nv = 1;
    memset(v, 0, sizeof *v);
    snprintf(v[0].label, sizeof v[0].label, "%s", goal_coll_get(c)->mpi);
    for (i = 0; goal_algo_list(i) && nv < MAXVAR; i++) {
        const goal_algo_info *a = goal_algo_list(i);
        if ((int)a->coll != c) continue;
        for (s = 0; s < (int)(sizeof segments / sizeof segments[0]) && nv < MAXVAR; s++) {
            int seg = (a->flags & GOAL_ALGO_SEGMENTED) != 0;
            if (seg && s > 0 && segments[s] > (uint64_t)bytes) break;
            v[nv].algo = a; v[nv].segment = seg ? segments[s] : 0;
            if (seg) snprintf(v[nv].label, sizeof v[nv].label, "%s@segment=%lu", a->name, (unsigned long)segments[s]);
            else snprintf(v[nv].label, sizeof v[nv].label, "%s", a->name);
            nv++;
            if (!seg) break;
        }
    }
    return nv;
}

/* Whether to run again: fewer than 3 runs, or fewer than `reps` within the budget since t0
   (rank 0 decides for all: every rank must run as often). */
static int again(int r, int reps, double t0, double share) {
    int go = r < 3 || (r < reps && MPI_Wtime() - t0 < budget * share);
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return go;
}
/* At 8 B: the best algorithm prepared once (goal_mpi_algo_prepare) against the library, in
   turns; the line "prepared" after the cell's. */
static void prepared(goal_mpi *m, int c, int n, const variant *lib, const variant *best, int reps) {
    static double t[2][MAXREPS];
    goal_mpi_prepared *p;
    goal_algo_desc d;
    double t0 = MPI_Wtime(), tl, tp;
    int r;
    goal_desc(&d, best, n);
    check(goal_mpi_algo_prepare(m, &d, sbuf, rbuf, &p), m);
    sample(m, c, n, best, -1, p);   /* warm-up */
    for (r = 0; again(r, reps, t0, 0.5); r++) {
        t[0][r] = sample(m, c, n, lib, -1, NULL);
        t[1][r] = sample(m, c, n, best, -1, p);
    }
    tl = median_max(t[0], r);
    tp = median_max(t[1], r);
    if (me == 0) {
        printf("  prepared %15s %-34s %10.2f %10.2f %6.2f\n", "", best->label, tp * 1e6, tl * 1e6, tp / tl);
        fflush(stdout);
    }
    check(goal_mpi_prepared_free(&p), m);
}
/* One cell: every variant up to `reps` times in turns; then the best algorithm's and the
   library's overhead. Prints the line and the CSV rows. */
static void cell(const char *lib, FILE *csv, int c, int si) {
    static double t[MAXVAR][MAXREPS];
    variant v[MAXVAR];
    double med[MAXVAR], og, om;
    int bytes = c == GOAL_COLL_BARRIER ? 0 : sizes[si], n = bytes / 4, reps = reps_of[si], nv = variants(c, bytes, v), k, r, best = 1;
    double t0 = MPI_Wtime();
    goal_mpi *m;
    goal_mpi_desc md;
    goal_error err;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;   /* one per cell: the schedules and scratch of a size go with it */
    if (goal_mpi_create(&m, &md, &err) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    for (k = 0; k < np; k++) { counts[k] = n; displs[k] = k * n; }
    for (k = 0; k < nv; k++) sample(m, c, n, &v[k], -1, NULL);   /* warm-up: builds and caches the schedules */
    for (r = 0; again(r, reps, t0, 0.75); r++)
        for (k = 0; k < nv; k++) t[k][r] = sample(m, c, n, &v[k], -1, NULL);
    for (k = 0; k < nv; k++) med[k] = median_max(t[k], r);
    for (k = 2; k < nv; k++) if (med[k] < med[best]) best = k;
    for (t0 = MPI_Wtime(), r = 0; again(r, reps, t0, 0.25); r++) {
        t[0][r] = sample(m, c, n, &v[0], med[0], NULL);
        t[1][r] = sample(m, c, n, &v[best], med[best], NULL);
    }
    om = median_max(t[0], r);
    og = median_max(t[1], r);
    if (me == 0) {
        printf("%-15s %8d  %-34s %10.1f %10.1f %6.2f | %9.1f %9.1f %6.0f%% %6.0f%% | %d\n", goal_coll_get(c)->name, bytes,
               v[best].label, med[best] * 1e6, med[0] * 1e6, med[best] / med[0], og * 1e6, om * 1e6,
               100 * (1 - og / med[best]), 100 * (1 - om / med[0]), nv - 1);
        fflush(stdout);
    }
    for (k = 1; csv && k < nv; k++) {
        fprintf(csv, "%s,%d,%s,%s,%d,%.2f,%.2f,%.3f", lib, np, goal_coll_get(c)->name, v[k].label, bytes, med[k] * 1e6,
                med[0] * 1e6, med[k] / med[0]);
        if (k == best) fprintf(csv, ",%.2f,%.2f,%.3f,%.3f\n", og * 1e6, om * 1e6, 1 - og / med[best], 1 - om / med[0]);
        else fprintf(csv, ",,,,\n");
    }
    if (csv) fflush(csv);   /* a run stopped by a timeout keeps what it measured */
    if (si == 0) prepared(m, c, n, &v[0], &v[best], reps);
    goal_mpi_destroy(m);
}

/* Progress that scales: bcast_chain over 10^4 and 10^5 segments of 7 bytes (one run each);
   the time per segment must stay flat as the segments grow. */
static void bench_segments(const char *lib, FILE *csv) {
    static const int segs[] = {10000, 100000};
    goal_algo_desc d;
    goal_mpi *m;
    goal_mpi_desc md;
    goal_error err;
    int s;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    if (goal_mpi_create(&m, &md, &err) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    for (s = 0; s < 2; s++) {
        double t[1];
        memset(&d, 0, sizeof d);
        d.algo = "bcast_chain"; d.dtype = GOAL_UINT8; d.count = (uint64_t)segs[s] * 7; d.segment = 7;
        MPI_Barrier(MPI_COMM_WORLD);
        t[0] = MPI_Wtime();
        check(goal_mpi_algo_run(m, &d, rbuf, rbuf), m);
        t[0] = MPI_Wtime() - t[0];
        t[0] = median_max(t, 1);
        if (me == 0) printf("segments: bcast_chain at np %d, %d segments of 7 bytes: %.3f s, %.2f us per segment\n", np,
                            segs[s], t[0], t[0] * 1e6 / segs[s]);
        if (csv) fprintf(csv, "%s,%d,segments,bcast_chain,%d,%.2f,,,,,,\n", lib, np, segs[s] * 7, t[0] * 1e6);
    }
    goal_mpi_destroy(m);
}

int main(int argc, char **argv) {
    const char *lib = argc > 1 ? argv[1] : "mpi";
    FILE *csv = NULL;
    size_t big = (size_t)sizes[NSIZES - 1];
    int k, s;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    sbuf = (unsigned char *)calloc((size_t)np * big, 1);
    rbuf = (unsigned char *)calloc((size_t)np * big, 1);
    counts = (int *)calloc((size_t)np, sizeof *counts);
    displs = (int *)calloc((size_t)np, sizeof *displs);
    if (!sbuf || !rbuf || !counts || !displs) MPI_Abort(MPI_COMM_WORLD, 1);
    if (me == 0 && argc > 2 && strcmp(argv[2], "-") && !(csv = fopen(argv[2], "w"))) fprintf(stderr, "cannot write %s\n", argv[2]);
    if (csv) fprintf(csv, "library,np,operation,algorithm,bytes,goal_us,mpi_us,ratio,goal_overhead_us,mpi_overhead_us,goal_overlap,mpi_overlap\n");
    if (me == 0)
        printf("%s, np %d: per collective and block size, the fastest libgoal algorithm (median of 41/21/9/5 runs at\n"
               "8 B/64 KiB/1 MiB/8 MiB, fewer when a cell exceeds %.1f s, at least 3; slowest rank) against the\n"
               "library's call; ratio = libgoal / library;\n"
               "ovh = NBCBench overhead (CPU time outside a computation as long as the collective), ov = overlap\n"
               "%-15s %8s  %-34s %10s %10s %6s | %9s %9s %7s %7s | %s\n", lib, np, budget, "collective", "bytes",
               "best libgoal algorithm", "goal us", "mpi us", "ratio", "goal ovh", "mpi ovh", "goal ov", "mpi ov", "tried");
    for (k = 0; k < GOAL_COLL_COUNT; k++)   /* goal_algos.h's table order */
        for (s = 0; s < NSIZES && wanted(k, argc, argv); s++) {
            cell(lib, csv, k, s);
            if (k == GOAL_COLL_BARRIER) break;
        }
    if (argc <= 3) bench_segments(lib, csv);
    if (csv) fclose(csv);
    free(sbuf); free(rbuf); free(counts); free(displs);
    MPI_Finalize();
    return 0;
}
