/* bench_record.c - what GOAL_MPI_RECORD costs per call: an 8-byte ping-pong (MPI_Send +
   MPI_Recv; at np 1: MPI_Isend, MPI_Recv and MPI_Wait to itself, the calls' own cost) and an
   8-byte MPI_Allreduce through the drop-in, median of 15 batches of 1000 calls (after one
   of warm-up), us per call on rank 0. Run it with and without
   GOAL_MPI_RECORD (docs/record.md, Overhead):
     mpirun ... -x LD_PRELOAD=build/openmpi/libgoalmpi.so [-x GOAL_MPI_RECORD=/tmp/b] -np 2 bench_record */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BATCH = 1000, REPS = 15 };
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* One batch of k (0 ping-pong: per message, 1 allreduce): us per call. */
static double batch(int k, int me, int np) {
    double in = 1, out = 0, t;
    int i;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (i = 0; i < BATCH; i++) {
        if (k == 1) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else if (np == 1) {   /* to itself: the calls' own cost, no peer to wait for */
            MPI_Request q;
            MPI_Isend(&in, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q);
            MPI_Recv(&out, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        } else if (me == 0) { MPI_Send(&in, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); MPI_Recv(&out, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
        else if (me == 1) { MPI_Recv(&out, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(&in, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); }
    }
    return (MPI_Wtime() - t) * 1e6 / BATCH / (k == 0 && np > 1 ? 2 : 1);
}
int main(int argc, char **argv) {
    const char *name[2] = {"ping-pong (per message)", "allreduce"};
    double t[REPS];
    int me, np, k, r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (k = 0; k < 2; k++) {
        batch(k, me, np);
        for (r = 0; r < REPS; r++) t[r] = batch(k, me, np);
        qsort(t, REPS, sizeof t[0], cmp);
        if (me == 0) printf("%s, 8 bytes: %.3f us\n", k == 0 && np == 1 ? "Isend + Recv + Wait to itself" : name[k], t[REPS / 2]);
    }
    MPI_Finalize();
    return 0;
}
