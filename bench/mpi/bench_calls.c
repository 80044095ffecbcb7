/* bench_calls.c - libgoal's own work per small collective call, for callgrind.
   Calls goal_mpi_algo_run(ALGO) ITERS times on COUNT int32 (sum; root 0) after 10 warm-up
   calls; bench/mpi/calls.sh runs it under callgrind at two ITERS and divides the
   difference of libgoal's instructions (the goal_*.h functions, MPI's excluded) by theirs.
   ALGO MPI_Bcast, MPI_Allreduce or MPI_Barrier calls that MPI function instead, for the
   drop-in's count (calls.sh preloads libgoalmpi.so for them); prepared:ALGO runs ALGO
   prepared once (goal_mpi_algo_prepare, goal_mpi_prepared_run).
   Usage: mpirun -np N bench_calls ALGO [COUNT [ITERS]]   (COUNT default 2: 8 bytes) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>

/* n calls of MPI function `name` on count int32 (root 0, sum). */
static void mpi_calls(const char *name, int count, long n, int32_t *in, int32_t *out) {
    long k;
    for (k = 0; k < n; k++)
        if (!strcmp(name, "MPI_Bcast")) MPI_Bcast(in, count, MPI_INT32_T, 0, MPI_COMM_WORLD);
        else if (!strcmp(name, "MPI_Allreduce")) MPI_Allreduce(in, out, count, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        else MPI_Barrier(MPI_COMM_WORLD);
}
/* n runs of d prepared once (goal_mpi_algo_prepare). */
static void prepared_calls(goal_mpi *m, const goal_algo_desc *d, long n, int32_t *in, int32_t *out) {
    goal_mpi_prepared *p;
    long k;
    if (goal_mpi_algo_prepare(m, d, in, out, &p) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    for (k = 0; k < n; k++)
        if (goal_mpi_prepared_run(p) != GOAL_OK) {
            fprintf(stderr, "%s: %s\n", d->algo, goal_mpi_error(m)->msg);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    goal_mpi_prepared_free(&p);
}
int main(int argc, char **argv) {
    goal_mpi *m;
    goal_mpi_desc md;
    goal_algo_desc d;
    goal_error err;
    int32_t in[1024] = {0}, out[1024] = {0};
    long n = argc > 3 ? atol(argv[3]) : 1000, k;
    MPI_Init(&argc, &argv);
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    memset(&d, 0, sizeof d);
    d.algo = argc > 1 ? argv[1] : "allreduce_recdoub";
    d.count = argc > 2 ? (uint64_t)atol(argv[2]) : 2;
    d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM;
    if (d.count > 1024 || goal_mpi_create(&m, &md, &err) != GOAL_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    if (strncmp(d.algo, "MPI_", 4) == 0) mpi_calls(d.algo, (int)d.count, n + 10, in, out);
    else if (strncmp(d.algo, "prepared:", 9) == 0) {
        d.algo += 9;
        prepared_calls(m, &d, n + 10, in, out);
    } else for (k = 0; k < n + 10; k++)
        if (goal_mpi_algo_run(m, &d, in, out) != GOAL_OK) {
            fprintf(stderr, "%s: %s\n", d.algo, goal_mpi_error(m)->msg);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    goal_mpi_destroy(m);
    MPI_Finalize();
    return 0;
}
