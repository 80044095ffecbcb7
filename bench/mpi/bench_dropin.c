/* bench_dropin.c - the drop-in's per-call cost: an unmodified program's 8-byte collectives
   through libgoalmpi (MPI_*, intercepted) against the library's own (PMPI_*), alternating
   in one run (bcast_turns: a bcast whose root takes turns, so that each call waits for the
   last one's message). Median of 15 batches of 200 calls, then the slowest rank.
   Usage: mpirun ... -x LD_PRELOAD=build/openmpi/libgoalmpi.so -np 4 bench_dropin LIBNAME */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BATCH = 200, REPS = 15 };
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* One batch of call k (0 bcast, 1 allreduce, 2 barrier, 3 bcast_turns) by libgoal (lib 0) or PMPI (1): us per call. */
static double batch(int k, int lib, int np) {
    double in = 1, out = 0, t;
    int i, root;
    PMPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (i = 0; i < BATCH; i++) {
        root = k == 3 ? i % np : 0;
        if (k == 0 || k == 3) { if (lib) PMPI_Bcast(&in, 1, MPI_DOUBLE, root, MPI_COMM_WORLD); else MPI_Bcast(&in, 1, MPI_DOUBLE, root, MPI_COMM_WORLD); }
        else if (k == 1) { if (lib) PMPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); else MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
        else { if (lib) PMPI_Barrier(MPI_COMM_WORLD); else MPI_Barrier(MPI_COMM_WORLD); }
    }
    return (MPI_Wtime() - t) * 1e6 / BATCH;
}
int main(int argc, char **argv) {
    static const char *name[4] = {"bcast", "allreduce", "barrier", "bcast_turns"};
    int me, np, k, r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (me == 0) printf("%-9s %-4s %-10s %5s | %10s %10s %6s\n", argc > 1 ? argv[1] : "mpi", "np", "call", "bytes",
                        "libgoal us", "mpi us", "ratio");
    for (k = 0; k < 4; k++) {
        double g[REPS], m[REPS], gm, mm;
        batch(k, 0, np); batch(k, 1, np);   /* warm-up: the schedule is built and cached here */
        for (r = 0; r < REPS; r++) { g[r] = batch(k, 0, np); m[r] = batch(k, 1, np); }
        qsort(g, REPS, sizeof *g, cmp); qsort(m, REPS, sizeof *m, cmp);
        PMPI_Allreduce(&g[REPS / 2], &gm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        PMPI_Allreduce(&m[REPS / 2], &mm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (me == 0) printf("%-9s %-4d %-10s %5d | %10.2f %10.2f %6.2f\n", argc > 1 ? argv[1] : "mpi", np, name[k],
                            k == 2 ? 0 : 8, gm, mm, gm / mm);
    }
    MPI_Finalize();
    return 0;
}
