/* mpi_prepared.c - a collective called in a loop, prepared once (MPI 4's persistent form).

   A solver's loop computes a global sum every step on the same buffers. Prepared once,
   each goal_mpi_prepared_run goes straight to its messages: no comparison of the desc with
   the last calls, no bind (goal_mpi.h, PREPARED). The buffers are read afresh every run.

   Build: mpicc -std=c99 -I.. mpi_prepared.c -o mpi_prepared -lm -lpthread
   Run:   mpirun -np 4 ./mpi_prepared */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, step, errors = 0;
    double local, global;
    goal_mpi *m;
    goal_mpi_prepared *sum;
    goal_mpi_desc md = {0};
    goal_algo_desc d = {0};
    goal_error err;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    md.comm = MPI_COMM_WORLD;
    if (goal_mpi_create(&m, &md, &err) != GOAL_OK) { fprintf(stderr, "%s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 1); }

    d.algo = "allreduce_auto";                      /* MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM) */
    d.count = 1; d.dtype = GOAL_FLOAT64; d.op = GOAL_OP_SUM;
    if (goal_mpi_algo_prepare(m, &d, &local, &global, &sum) != GOAL_OK) {   /* local: no messages yet */
        fprintf(stderr, "%s\n", goal_mpi_error(m)->msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (step = 0; step < 1000; step++) {
        local = rank + step;                        /* this step's contribution */
        if (goal_mpi_prepared_run(sum) != GOAL_OK) { fprintf(stderr, "%s\n", goal_mpi_error(m)->msg); errors++; break; }
        errors += global != size * (size - 1) / 2.0 + (double)size * step;
    }
    if (rank == 0) printf("1000 prepared allreduces, last sum %.0f, %d wrong\n", global, errors);
    goal_mpi_prepared_free(&sum);
    goal_mpi_destroy(m);
    MPI_Finalize();
    return errors != 0;
}
