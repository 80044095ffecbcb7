/* bench_model.c - issue 14's figures at np = 2: the LogGOPS model against the machine, and
   COLL_auto against every fixed algorithm, measured in the same run.
   For bcast, allreduce and alltoall at 8 B ... 8 MiB (powers of 4; alltoall: bytes per
   block), every algorithm that goal_sim_best chooses among (default parameters) and
   COLL_auto are run with goal_mpi_algo_run, in turns (see measure): the median over the
   repetitions of each rank, then the slowest rank.
   Per (collective, size) one line: the algorithm COLL_auto picks under the params file, its
   predicted time (goal_sim_best), its measured time and measured / predicted, the fastest
   fixed algorithm measured, auto's time over it, the picked algorithm's own time (called by
   name, in the same turns) over it, and its predicted time. auto/it above pick/it is auto's
   own cost per call, or noise: the two run the same schedule.
   --all: before each line, every candidate's measured and predicted time (us).
   Usage: mpirun -np 2 bench_model PARAMSFILE [--all]   (PARAMSFILE: what goal-probe -o writes) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (8u << 20)
#define MAX_CANDS 24
#define MAX_REPS 41
static int me, np, all;
static unsigned char *in, *out;

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static void run(goal_mpi *m, const char *algo, uint64_t bytes) {
    goal_algo_desc d;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM;
    if (goal_mpi_algo_run(m, &d, in, out) != GOAL_OK) { fprintf(stderr, "%s: %s\n", algo, goal_mpi_error(m)->msg); MPI_Abort(MPI_COMM_WORLD, 1); }
}
/* Each of the n algorithms in turns, so that all see the same cache and page state (two
   identical schedules measured one after the other differed up to 1.8x at 2-8 MiB): after
   a warm-up of each (builds and caches the schedules), repetition k runs every algorithm
   once. t[i]: algorithm i's median over this rank's repetitions, then the slowest rank's, us. */
static void measure(goal_mpi *m, const char *const *algo, int n, uint64_t bytes, double *t) {
    static double rep[MAX_CANDS + 1][MAX_REPS];
    int i, k, reps = bytes <= 65536 ? MAX_REPS : bytes <= (1u << 20) ? 21 : 11;
    for (i = 0; i < n; i++) run(m, algo[i], bytes);
    for (k = 0; k < reps; k++)
        for (i = 0; i < n; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            rep[i][k] = MPI_Wtime();
            run(m, algo[i], bytes);
            rep[i][k] = (MPI_Wtime() - rep[i][k]) * 1e6;
        }
    for (i = 0; i < n; i++) {
        qsort(rep[i], (size_t)reps, sizeof rep[i][0], cmp);
        t[i] = rep[i][reps / 2];
    }
    MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
/* The model's time for one algorithm (default parameters), us; 0 when it cannot say. */
static double predict(const goal_sim_desc *model, const char *algo, uint64_t bytes) {
    goal_algo_desc d;
    double ns = 0;
    int left_out = 0;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_INT8;
    return goal_sim_algo_time(&d, np, model, &ns, &left_out, NULL) == GOAL_OK ? ns / 1000.0 : 0;
}
/* One (collective, size): every candidate and auto (the last) measured, auto's pick and
   prediction, the fastest fixed algorithm and its prediction. */
static void row(goal_mpi *m, const goal_sim_desc *model, int coll, uint64_t bytes) {
    const goal_algo_info *a, *pick = NULL;
    const char *algo[MAX_CANDS + 1];
    double ns = 0, t[MAX_CANDS + 1];
    char name[64];
    int i, n = 0, best = 0, picked = 0;
    goal_sim_best(coll, np, bytes, model, 0, &pick, &ns, NULL);
    for (i = 0; (a = goal_algo_list(i)) != NULL && n < MAX_CANDS; i++)
        if (!(a->flags & GOAL_ALGO_VECTOR) && goal_sim_coll_of(a->name) == coll) algo[n++] = a->name;
    snprintf(name, sizeof name, "%s_auto", goal_sim_coll_name(coll));
    algo[n] = name;   /* auto measured as a call of its own, like the others */
    measure(m, algo, n + 1, bytes, t);
    for (i = 1; i < n; i++) if (t[i] < t[best]) best = i;
    for (i = 0; pick && i < n; i++) if (strcmp(algo[i], pick->name) == 0) picked = i;
    for (i = 0; all && me == 0 && i < n; i++) printf("  %-24s %10.1f %10.1f\n", algo[i], t[i], predict(model, algo[i], bytes));
    if (me == 0)
        printf("%-9s %8llu  %-24s %10.1f %10.1f %6.2f   %-24s %10.1f %6.2f %6.2f %10.1f\n", goal_sim_coll_name(coll),
               (unsigned long long)bytes, pick ? pick->name : "-", ns / 1000.0, t[n], ns > 0 ? t[n] / (ns / 1000.0) : 0, algo[best], t[best],
               t[n] / t[best], t[picked] / t[best], predict(model, algo[best], bytes));
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
    all = argc > 2 && strcmp(argv[2], "--all") == 0;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) { if (me == 0) fprintf(stderr, "usage: bench_model PARAMSFILE [--all]\n"); MPI_Finalize(); return 2; }
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
        printf("np %d, model %.*s\n%-9s %8s  %-24s %10s %10s %6s   %-24s %10s %6s %6s %10s\n", np, (int)strcspn(text, "\n"), text, "coll", "bytes",
               "auto picks", "pred us", "auto us", "meas/pred", "fastest fixed", "its us", "auto/it", "pick/it", "its pred");
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
