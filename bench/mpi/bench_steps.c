/* bench_steps.c - why large calls cost more than their steps: Rabenseifner's allreduce at np 2
   (exchange half the vector, reduce it, exchange the halves back) as its three steps timed
   alone (each again and again, reading what no other step wrote) and one after the other
   (each step reading what the one before wrote, as in the call), in bare MPI calls, and
   libgoal's allreduce_rabenseifner. Per size and step: the median of REPS runs, the
   slowest rank.
   Usage: mpirun -np 2 bench_steps [BYTES...]   (default 1 MiB and 8 MiB) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 21 };
static int me;
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
/* The slowest rank's median of t, us. */
static double median(double *t) {
    double v;
    qsort(t, REPS, sizeof *t, cmp);
    v = t[REPS / 2] * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return v;
}
static void exchange(unsigned char *send, unsigned char *recv, int bytes) {
    MPI_Request r[2];
    MPI_Status st[2];   /* not MPI_STATUSES_IGNORE: MPICH's header makes gcc see a 0-byte array */
    MPI_Irecv(recv, bytes, MPI_BYTE, 1 - me, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(send, bytes, MPI_BYTE, 1 - me, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
}
/* Step s of the allreduce: 0 the exchange of the halves the other rank reduces, 1 the
   reduction of this rank's half, 2 the exchange of the reduced halves; alone (seq 0) step 2
   sends IN's half (what nothing writes), one after the other OUT's, which step 1 wrote. */
static void step(int s, int seq, unsigned char *in, unsigned char *out, int h) {
    int mine = me ? h : 0, other = me ? 0 : h;
    if (s == 0) exchange(in + other, out + mine, h);
    else if (s == 1) goal_apply(GOAL_OP_SUM, GOAL_UINT8, out + mine, in + mine, (uint64_t)h);
    else exchange((seq ? out : in) + mine, out + other, h);
}
static void row(goal_mpi *m, unsigned char *in, unsigned char *out, int bytes) {
    double alone[3][REPS], seq[3][REPS], call[REPS], t[4], a[3], q[3], c;
    int k, s;
    goal_algo_desc d;
    memset(&d, 0, sizeof d);
    d.algo = "allreduce_rabenseifner"; d.count = (uint64_t)bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM;
    for (s = 0; s < 3; s++)   /* each step again and again */
        for (k = 0; k < REPS; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t[0] = MPI_Wtime(); step(s, 0, in, out, bytes / 2); alone[s][k] = MPI_Wtime() - t[0];
        }
    for (k = 0; k < REPS; k++) {   /* the three one after the other */
        MPI_Barrier(MPI_COMM_WORLD);
        for (s = 0, t[0] = MPI_Wtime(); s < 3; s++) { step(s, 1, in, out, bytes / 2); t[s + 1] = MPI_Wtime(); }
        for (s = 0; s < 3; s++) seq[s][k] = t[s + 1] - t[s];
    }
    for (k = 0; k < REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t[0] = MPI_Wtime();
        if (goal_mpi_algo_run(m, &d, in, out) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
        call[k] = MPI_Wtime() - t[0];
    }
    for (s = 0; s < 3; s++) { a[s] = median(alone[s]); q[s] = median(seq[s]); }
    c = median(call);
    if (me == 0)
        printf("%9d B  alone: exchange %7.1f reduce %7.1f exchange %7.1f = %7.1f | one after the other: %7.1f %7.1f %7.1f = %7.1f"
               " | allreduce_rabenseifner %7.1f us\n", bytes, a[0], a[1], a[2], a[0] + a[1] + a[2], q[0], q[1], q[2], q[0] + q[1] + q[2], c);
}
int main(int argc, char **argv) {
    goal_mpi_desc md;
    goal_mpi *m;
    goal_error err;
    unsigned char *in, *out;
    int k, n = argc > 1 ? argc - 1 : 2, np, bytes[16] = {1 << 20, 8 << 20}, most = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (k = 0; k < n && k < 16; k++) {
        if (argc > 1) bytes[k] = atoi(argv[k + 1]) / 2 * 2;
        most = bytes[k] > most ? bytes[k] : most;
    }
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    if (np != 2 || most <= 0 || goal_mpi_create(&m, &md, &err) != GOAL_OK) {
        if (me == 0) fprintf(stderr, "usage: mpirun -np 2 bench_steps [BYTES...] (even, > 0)\n");
        MPI_Finalize();
        return 2;
    }
    in = (unsigned char *)calloc((size_t)most, 1);
    out = (unsigned char *)calloc((size_t)most, 1);
    if (me == 0) printf("np 2: Rabenseifner's steps, us (medians of %d runs)\n", REPS);
    for (k = 0; k < n && k < 16; k++) row(m, in, out, bytes[k]);
    goal_mpi_destroy(m);
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
