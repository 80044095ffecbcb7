/* bench_mpi.c - NBCBench-style figures (LibNBC paper, section 4): per operation and size,
   the libgoal algorithm over goal_mpi against the MPI library's own collective.
     blocking   median latency of run (goal_mpi_algo_run vs MPI_Bcast, ...)
     overhead   CPU time outside the simulated computation: start + tests + wait, when
                the computation between start and wait lasts one blocking latency and
                tests 10 times along the way (goal_mpi_test vs MPI_Test on MPI_I*)
     overlap    1 - overhead / blocking latency: the share of the collective hidden
   Times are medians over the repetitions of each rank, then the slowest rank.
   Usage: mpirun -np 4 bench_mpi LIBNAME [CSVFILE] */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_BARRIER, OP_ALLGATHER, OP_ALLTOALL, NOPS };
static const char *op_name[NOPS] = {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"};
/* The rows: an operation and the libgoal algorithm measured for it. */
static const struct { int op; const char *algo; } rows[] = {
    {OP_BCAST, "bcast_binomial"}, {OP_REDUCE, "reduce_binomial"}, {OP_ALLREDUCE, "allreduce_recdoub"},
    {OP_BARRIER, "barrier_dissemination"}, {OP_ALLGATHER, "allgather_ring"}, {OP_ALLTOALL, "alltoall_pairwise"},
    /* bandwidth-optimal families (issue 12) */
    {OP_BCAST, "bcast_scatter_allgather"}, {OP_BCAST, "bcast_dbtree"}, {OP_BCAST, "bcast_pipelined_tree"},
    {OP_REDUCE, "reduce_rabenseifner"}, {OP_ALLREDUCE, "allreduce_rabenseifner"}, {OP_ALLREDUCE, "allreduce_dbtree"},
    {OP_ALLGATHER, "allgather_neighbor"}};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))
static const char *row_algo;   /* the algorithm of the row being measured */
static int me, np;
static unsigned char *sbuf, *rbuf;

/* MPI's nonblocking collective for op on `bytes` per block (bytes is a multiple of 4). */
static void mpi_start(int op, int bytes, MPI_Request *r) {
    int n = bytes / 4;
    switch (op) {
    case OP_BCAST: MPI_Ibcast(rbuf, n, MPI_INT, 0, MPI_COMM_WORLD, r); break;
    case OP_REDUCE: MPI_Ireduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, r); break;
    case OP_ALLREDUCE: MPI_Iallreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r); break;
    case OP_BARRIER: MPI_Ibarrier(MPI_COMM_WORLD, r); break;
    case OP_ALLGATHER: MPI_Iallgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD, r); break;
    default: MPI_Ialltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD, r); break;
    }
}
static void mpi_blocking(int op, int bytes) {
    int n = bytes / 4;
    switch (op) {
    case OP_BCAST: MPI_Bcast(rbuf, n, MPI_INT, 0, MPI_COMM_WORLD); break;
    case OP_REDUCE: MPI_Reduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case OP_ALLREDUCE: MPI_Allreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case OP_BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case OP_ALLGATHER: MPI_Allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD); break;
    default: MPI_Alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD); break;
    }
}
static void goal_desc(goal_algo_desc *d, int op, int bytes) {
    memset(d, 0, sizeof *d);
    d->algo = row_algo; d->dtype = GOAL_INT32; d->op = GOAL_OP_SUM;
    d->count = op == OP_BARRIER ? 0 : (uint64_t)bytes / 4;
    if (goal_algo_find(row_algo)->flags & GOAL_ALGO_SEGMENTED) d->segment = 65536;   /* as bench_bw */
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

/* One sample: blocking (compute < 0) or start, compute in 10 slices with a test after
   each, wait; returns the time not spent computing. */
static double sample(goal_mpi *m, int op, int bytes, int use_goal, double compute) {
    goal_algo_desc d;
    goal_mpi_request *gr = NULL;
    MPI_Request mr;
    double t0, busy = 0;
    int k, flag;
    goal_desc(&d, op, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (compute < 0) {
        if (use_goal) check(goal_mpi_algo_run(m, &d, sbuf, rbuf), m);
        else mpi_blocking(op, bytes);
        return MPI_Wtime() - t0;
    }
    if (use_goal) check(goal_mpi_algo_start(m, &d, sbuf, rbuf, &gr), m);
    else mpi_start(op, bytes, &mr);
    for (k = 0; k < 10; k++) {
        double c0 = MPI_Wtime();
        while (MPI_Wtime() - c0 < compute / 10) {}   /* the simulated computation */
        busy += MPI_Wtime() - c0;
        if (use_goal && gr) { goal_status st = goal_mpi_test(&gr); if (st < 0) check(st, m); }
        else if (!use_goal) MPI_Test(&mr, &flag, MPI_STATUS_IGNORE);
    }
    if (use_goal && gr) check(goal_mpi_wait(&gr), m);
    else if (!use_goal) MPI_Wait(&mr, MPI_STATUS_IGNORE);
    return MPI_Wtime() - t0 - busy;
}
static double measure(goal_mpi *m, int op, int bytes, int use_goal, double compute, int reps) {
    double t[64];
    int k;
    sample(m, op, bytes, use_goal, compute);   /* warm-up: builds and caches the schedule */
    for (k = 0; k < reps; k++) t[k] = sample(m, op, bytes, use_goal, compute);
    return median_max(t, reps);
}

/* Progress that scales: bcast_chain over 10^4 and 10^5 segments of 7 bytes (one run each);
   the time per segment must stay flat as the segments grow (issue 17, item 2). */
static void bench_segments(goal_mpi *m, const char *lib, FILE *csv) {
    static const int segs[] = {10000, 100000};
    goal_algo_desc d;
    int s;
    for (s = 0; s < 2; s++) {
        double t[1];
        memset(&d, 0, sizeof d);
        d.algo = "bcast_chain"; d.dtype = GOAL_UINT8; d.count = (uint64_t)segs[s] * 7; d.segment = 7;
        MPI_Barrier(MPI_COMM_WORLD);
        t[0] = MPI_Wtime();
        check(goal_mpi_algo_run(m, &d, rbuf, rbuf), m);
        t[0] = MPI_Wtime() - t[0];
        t[0] = median_max(t, 1);
        if (me == 0) printf("%-9s %-9d %8d | bcast_chain, %d segments of 7 bytes: %.3f s, %.2f us per segment\n", "segments",
                            np, segs[s] * 7, segs[s], t[0], t[0] * 1e6 / segs[s]);
        if (csv) fprintf(csv, "%s,%d,segments,bcast_chain,%d,%.2f,,,,,,\n", lib, np, segs[s] * 7, t[0] * 1e6);
    }
}

int main(int argc, char **argv) {
    static const int sizes[] = {8, 1024, 65536, 1 << 20};
    const char *lib = argc > 1 ? argv[1] : "mpi";
    FILE *csv = NULL;
    goal_mpi *m;
    goal_mpi_desc md;
    goal_error err;
    int op, s, row;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    sbuf = (unsigned char *)calloc((size_t)np << 20, 1);
    rbuf = (unsigned char *)calloc((size_t)np << 20, 1);
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    if (!sbuf || !rbuf || goal_mpi_create(&m, &md, &err) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    if (me == 0 && argc > 2 && !(csv = fopen(argv[2], "w"))) fprintf(stderr, "cannot write %s\n", argv[2]);
    if (csv) fprintf(csv, "library,np,operation,algorithm,bytes,goal_us,mpi_us,ratio,goal_overhead_us,mpi_overhead_us,goal_overlap,mpi_overlap\n");
    if (me == 0) printf("%-9s %-9s %8s | %10s %10s %6s | %10s %10s | %7s %7s  %s\n", lib, "np", "bytes", "goal us", "mpi us",
                        "ratio", "goal ovh", "mpi ovh", "goal ov", "mpi ov", "algorithm");
    for (row = 0; row < NROWS; row++)
        for (op = rows[row].op, row_algo = rows[row].algo, s = 0; s < 4; s++) {
            int bytes = sizes[s], reps = bytes >= 65536 ? 5 : 15;
            double tg, tm, og, om;
            if (op == OP_BARRIER && s > 0) break;
            tg = measure(m, op, bytes, 1, -1, reps);
            tm = measure(m, op, bytes, 0, -1, reps);
            og = measure(m, op, bytes, 1, tg, reps);
            om = measure(m, op, bytes, 0, tm, reps);
            if (me == 0) {
                printf("%-9s %-9d %8d | %10.1f %10.1f %6.2f | %10.1f %10.1f | %6.0f%% %6.0f%%  %s\n", op_name[op], np,
                       op == OP_BARRIER ? 0 : bytes, tg * 1e6, tm * 1e6, tg / tm, og * 1e6, om * 1e6,
                       100 * (1 - og / tg), 100 * (1 - om / tm), row_algo);
                fflush(stdout);
            }
            if (csv) fprintf(csv, "%s,%d,%s,%s,%d,%.2f,%.2f,%.3f,%.2f,%.2f,%.3f,%.3f\n", lib, np, op_name[op], row_algo,
                             op == OP_BARRIER ? 0 : bytes, tg * 1e6, tm * 1e6, tg / tm, og * 1e6, om * 1e6,
                             1 - og / tg, 1 - om / tm);
        }
    bench_segments(m, lib, csv);
    if (csv) fclose(csv);
    goal_mpi_destroy(m);
    free(sbuf); free(rbuf);
    MPI_Finalize();
    return 0;
}
