/* mpi_bcast.c - switch an MPI_Ibcast to libgoal in a few lines.

   goal_mpi wraps a communicator; goal_mpi_algo_start builds this rank's schedule of the
   named algorithm (once: it is cached), and starts it; goal_mpi_test/goal_mpi_wait finish
   it, as MPI_Test/MPI_Wait do. Any algorithm of goal_algos.h works the same way.

   Build: mpicc -std=c99 -I.. mpi_bcast.c -o mpi_bcast -lm -lpthread
   Run:   mpirun -np 4 ./mpi_bcast */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>

int main(int argc, char **argv) {
    enum { N = 1000 };
    int data[N], rank, k, round, errors = 0;
    goal_mpi *m;
    goal_mpi_desc md = {0};
    goal_algo_desc d = {0};
    goal_error err;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    md.comm = MPI_COMM_WORLD;                       /* duplicated: no clash with our messages */
    if (goal_mpi_create(&m, &md, &err) != GOAL_OK) { fprintf(stderr, "%s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 1); }

    d.algo = "bcast_binomial";                      /* MPI_Ibcast(data, N, MPI_INT, 0, comm) */
    d.count = N; d.dtype = GOAL_INT32; d.root = 0;
    for (round = 0; round < 3; round++) {           /* rounds 2 and 3 reuse the cached schedule */
        goal_mpi_request *req;
        goal_status st;
        long spins = 0;
        for (k = 0; k < N; k++) data[k] = rank == 0 ? k * (round + 1) : -1;
        st = goal_mpi_algo_start(m, &d, NULL, data, &req);          /* a bcast has only OUT */
        if (st == GOAL_OK)
            while ((st = goal_mpi_test(&req)) == GOAL_PENDING) spins++;   /* overlap: compute here */
        if (st != GOAL_OK) { fprintf(stderr, "%s\n", goal_mpi_error(m)->msg); errors++; }
        for (k = 0; k < N; k++) errors += data[k] != k * (round + 1);
        if (rank == 1) printf("round %d: rank 1 got data[%d] = %d after %ld tests\n", round, N - 1, data[N - 1], spins);
    }
    if (errors) fprintf(stderr, "rank %d: %d errors\n", rank, errors);
    goal_mpi_destroy(m);                            /* collective, like MPI_Comm_free */
    MPI_Finalize();
    return errors != 0;
}
