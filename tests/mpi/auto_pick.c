/* Three MPI_Allreduce and three MPI_Bcast of 1 MiB (262144 ints): tests/test_mpi.sh runs it
   under the drop-in with GOAL_MPI_PARAMS and GOAL_MPI_STATS, whose "COLL auto: ALGO 3" lines
   must name what goal tune picks under that params file (so auto used the probed model). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    enum { N = 262144 };
    int *a = (int *)calloc(N, sizeof(int)), *b = (int *)calloc(N, sizeof(int)), k;
    MPI_Init(&argc, &argv);
    for (k = 0; a && b && k < 3; k++) {
        MPI_Allreduce(a, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Bcast(a, N, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    free(a);
    free(b);
    return a && b ? 0 : 1;
}
