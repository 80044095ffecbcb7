/* bench_model.c - issue 14's figures at np = 2: the LogGOPS model against the machine, and
   COLL_auto against every fixed algorithm, measured in the same run.
   For bcast, allreduce and alltoall at 8 B ... 8 MiB (powers of 4; alltoall: bytes per
   block), every algorithm that goal_sim_best chooses among (default parameters) is run with
   goal_mpi_algo_run: the median over the repetitions of each rank, then the slowest rank.
   Per (collective, size) one line: the algorithm COLL_auto picks under the params file, its
   predicted time (goal_sim_best), its measured time and measured / predicted, the fastest
   fixed algorithm measured and auto's time over it.
   Usage: mpirun -np 2 bench_model PARAMSFILE   (what goal-probe -o writes) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (8u << 20)
static int me, np;
static unsigned char *in, *out;

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
/* Median of this rank's repetitions, then the slowest rank's, in us. */
static double measure(goal_mpi *m, const char *algo, uint64_t bytes) {
    double t[41], med;
    int k, reps = bytes <= 65536 ? 41 : bytes <= (1u << 20) ? 11 : 5;
    goal_algo_desc d;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM;
    goal_mpi_algo_run(m, &d, in, out);   /* warm-up: builds and caches the schedule */
    for (k = 0; k < reps; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t[k] = MPI_Wtime();
        if (goal_mpi_algo_run(m, &d, in, out) != GOAL_OK) { fprintf(stderr, "%s: %s\n", algo, goal_mpi_error(m)->msg); MPI_Abort(MPI_COMM_WORLD, 1); }
        t[k] = (MPI_Wtime() - t[k]) * 1e6;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    med = t[reps / 2];
    MPI_Allreduce(MPI_IN_PLACE, &med, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return med;
}
/* One (collective, size): every candidate measured, auto's pick and prediction. */
static void row(goal_mpi *m, const goal_sim_desc *model, int coll, uint64_t bytes) {
    const goal_algo_info *a, *pick = NULL;
    const char *best = NULL;
    double ns = 0, t, tbest = 0, tauto = 0;
    char name[64];
    int i;
    goal_sim_best(coll, np, bytes, model, 0, &pick, &ns, NULL);
    for (i = 0; (a = goal_algo_list(i)) != NULL; i++) {
        if ((a->flags & GOAL_ALGO_VECTOR) || goal_sim_coll_of(a->name) != coll) continue;
        t = measure(m, a->name, bytes);
        if (!best || t < tbest) { best = a->name; tbest = t; }
    }
    snprintf(name, sizeof name, "%s_auto", goal_sim_coll_name(coll));
    tauto = measure(m, name, bytes);   /* auto measured as a call of its own, like the others */
    if (me == 0)
        printf("%-9s %8llu  %-24s %10.1f %10.1f %6.2f   %-24s %10.1f %6.2f\n", goal_sim_coll_name(coll), (unsigned long long)bytes,
               pick ? pick->name : "-", ns / 1000.0, tauto, ns > 0 ? tauto / (ns / 1000.0) : 0, best, tbest, tauto / tbest);
}
int main(int argc, char **argv) {
    static const char *const colls[] = {"bcast", "allreduce", "alltoall"};
    char text[4096];
    size_t len = 0;
    goal_mpi_desc md;
    goal_mpi *m;
    goal_error err;
    FILE *f;
    uint64_t bytes;
    int c, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) { if (me == 0) fprintf(stderr, "usage: bench_model PARAMSFILE\n"); MPI_Finalize(); return 2; }
    len = fread(text, 1, sizeof text, f);
    fclose(f);
    if (goal_sim_params(&md.model, text, len, &err) != GOAL_OK || goal_mpi_create(&m, &md, &err) != GOAL_OK) {
        if (me == 0) fprintf(stderr, "bench_model: %s\n", err.msg);
        MPI_Finalize();
        return 1;
    }
    in = (unsigned char *)calloc((size_t)np * MAX_BYTES, 1);
    out = (unsigned char *)calloc((size_t)np * MAX_BYTES, 1);
    if (me == 0)
        printf("np %d, model %.*s\n%-9s %8s  %-24s %10s %10s %6s   %-24s %10s %6s\n", np, (int)strcspn(text, "\n"), text, "coll", "bytes",
               "auto picks", "pred us", "auto us", "meas/pred", "fastest fixed", "its us", "auto/it");
    for (c = 0; c < 3; c++)
        for (k = 0, bytes = 8; bytes <= MAX_BYTES; bytes *= 4, k++) {
            int i;
            for (i = 0; i < GOAL_SIM_NCOLLS && strcmp(goal_sim_coll_name(i), colls[c]) != 0; i++) {}
            row(m, &md.model, i, bytes);
        }
    goal_mpi_destroy(m);
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
