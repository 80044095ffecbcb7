/* bench_model.c - the model's figures at np = 2: the LogGOPS model against the machine, and
   COLL_auto against every fixed algorithm, measured in the same run.
   For bcast, allreduce and alltoall at 8 B ... 8 MiB (powers of 4; alltoall: bytes per
   block), every algorithm that goal_tune_best chooses among (default parameters) and
   COLL_auto are run with goal_mpi_algo_run, all measured the same way (see measure): in a
   fresh random order per repetition, short calls in batches back to back (the root taking
   turns), the median over the repetitions of each rank, then the slowest rank.
   Per (collective, size) one line: the algorithm COLL_auto picks under the params file, its
   predicted time (goal_tune_best), its measured time and measured / predicted, the fastest
   fixed algorithm measured, auto's time over it, the picked algorithm's own time (called by
   name, in the same turns) over it, its predicted time, and "twins": the largest ratio of
   two measured times among fixed candidates whose schedules are identical (same world digest;
   auto has none of its own), i.e. what the measurement's noise alone can make of one
   schedule. Last, how many rows meet the model's aims: auto/it <= 1.1 in every row,
   meas/pred within 1.25x (either way) in 10 of the 12 cells from 64 KiB, within 1.5x below.
   --all: before each line, every candidate's measured and predicted time (us).
   --csv FILE: every candidate's and auto's measured and predicted time, a line each
   (coll,bytes,algo,measured_us,predicted_us; auto's prediction is its pick's), for
   bench/mpi/spread.awk, which compares the runs of make bench-model.
   Usage: mpirun -np 2 bench_model PARAMSFILE [--all] [--csv FILE]   (PARAMSFILE: what goal-probe -o writes) */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (8u << 20)
#define MAX_CANDS 24
#define MAX_REPS 101
static int me, np, all;
static FILE *csv;
static unsigned char *in, *out;

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static void run(goal_mpi *m, const char *algo, uint64_t bytes, int root) {
    goal_algo_desc d;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM; d.root = root;
    if (goal_mpi_algo_run(m, &d, in, out) != GOAL_OK) { fprintf(stderr, "%s: %s\n", algo, goal_mpi_error(m)->msg); MPI_Abort(MPI_COMM_WORLD, 1); }
}
/* Same seed on both ranks (they must run the same algorithm at the same time). */
static uint32_t next_random(uint32_t *x) { *x ^= *x << 13; *x ^= *x >> 17; *x ^= *x << 5; return *x; }
/* Calls per sample: a sample of one short call would mostly be the barrier's exit skew
   (about 1 us: the rank that leaves it first waits for the other inside the call), so calls
   under 64 KiB are timed in batches back to back (per call: a batch's time / its calls); the
   batch depends on the size alone, the same for every candidate and auto. A batch's calls
   take turns at the root (root_of), so that each call waits for the last one's message, as
   one call's time (what the model predicts) does: with one root, the root's eager sends
   would return at once and a batch of bcasts time how fast the root can post (0.1 us at
   8 B) rather than a call (0.2). From 64 KiB, where the model's aim starts and a call
   takes >= 5 us, one call is the sample. */
static int root_of(int call) { return call % np; }
static int batch_of(uint64_t bytes) { return bytes >= 65536 ? 1 : bytes <= 8192 ? 64 : 16; }
/* Every candidate in turns, so that all see the same cache and page state, in an order
   shuffled afresh for each repetition, so that none always runs after the same one or last
   (a fixed order put auto last every time). After a warm-up of each (builds and caches the
   schedules, every root's), repetition k times a batch of each once. t[i]: algorithm i's median over this
   rank's repetitions, per call, then the slowest rank's, us. */
static void measure(goal_mpi *m, const char *const *algo, int n, uint64_t bytes, double *t) {
    static double rep[MAX_CANDS + 1][MAX_REPS];
    int i, j, k, reps = bytes <= 131072 ? MAX_REPS : bytes <= (1u << 20) ? 61 : 41, calls = batch_of(bytes), order[MAX_CANDS + 1];
    uint32_t seed = 2463534242u ^ (uint32_t)bytes ^ ((uint32_t)n << 24);
    for (i = 0; i < n; i++) {
        for (j = 0; j < np; j++) run(m, algo[i], bytes, root_of(j));
        order[i] = i;
    }
    for (k = 0; k < reps; k++) {
        for (i = n - 1; i > 0; i--) {   /* Fisher-Yates */
            int x = order[i];
            j = (int)(next_random(&seed) % (uint32_t)(i + 1));
            order[i] = order[j]; order[j] = x;
        }
        for (i = 0; i < n; i++) {
            double t0;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            for (j = 0; j < calls; j++) run(m, algo[order[i]], bytes, root_of(j));
            rep[order[i]][k] = (MPI_Wtime() - t0) * 1e6 / calls;
        }
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
    return goal_tune_algo_time(&d, np, model, &ns, &left_out, NULL) == GOAL_OK ? ns / 1000.0 : 0;
}
static int hash_write(void *user, const char *data, size_t len) {
    *(uint64_t *)user = goal__hash(*(uint64_t *)user, data, len);
    return 0;
}
/* A digest of the algorithm's whole world at np: equal digests are identical schedules,
   which should measure alike (binomial and k-nomial trees at np 2, auto and its pick). */
static uint64_t schedule_digest(const char *algo, uint64_t bytes) {
    goal_algo_desc d;
    goal_world *w = NULL;
    uint64_t h = GOAL__HASH_SEED;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = bytes; d.dtype = GOAL_UINT8; d.op = GOAL_OP_SUM;
    if (goal_algo_world(&w, &d, np, NULL) != GOAL_OK || goal_world_save(w, hash_write, &h) != GOAL_OK) h = 0;
    goal_world_destroy(w);
    return h;
}
/* The largest spread (slowest / fastest) among candidates with one schedule; 1 if none share. */
static double twins_spread(const char *const *algo, const double *t, int n, uint64_t bytes) {
    uint64_t h[MAX_CANDS + 1];
    double worst = 1;
    int i, j;
    for (i = 0; i < n; i++) h[i] = schedule_digest(algo[i], bytes);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (i != j && h[i] && h[i] == h[j] && t[i] / t[j] > worst) worst = t[i] / t[j];
    return worst;
}
static int rows, auto_ok, pick_ok, model_cells, model_ok, small_cells, small_ok;
/* One (collective, size): every candidate and auto measured alike, auto's pick and its
   prediction, the fastest fixed algorithm and its prediction, the identical schedules'
   spread (auto and its pick among them). */
static void row(goal_mpi *m, const goal_sim_desc *model, int coll, uint64_t bytes) {
    const goal_algo_info *a, *pick = NULL;
    const char *algo[MAX_CANDS + 1];
    double ns = 0, t[MAX_CANDS + 1], pred[MAX_CANDS + 1], twins, ratio;
    char name[64];
    int i, n = 0, best = 0, picked = 0;
    goal_tune_best(coll, np, bytes, model, 0, &pick, &ns, NULL);
    for (i = 0; (a = goal_algo_list(i)) != NULL && n < MAX_CANDS; i++)
        if (!(a->flags & GOAL_ALGO_VECTOR) && (int)a->coll == coll) algo[n++] = a->name;
    snprintf(name, sizeof name, "%s_auto", goal_coll_get(coll)->name);
    algo[n] = name;   /* auto measured as a call of its own, like the others */
    measure(m, algo, n + 1, bytes, t);
    for (i = 1; i < n; i++) if (t[i] < t[best]) best = i;
    for (i = 0; pick && i < n; i++) if (strcmp(algo[i], pick->name) == 0) picked = i;
    for (i = 0; i < n; i++) pred[i] = i == picked && pick ? ns / 1000.0 : all || csv || i == best ? predict(model, algo[i], bytes) : 0;
    for (i = 0; csv && me == 0 && i <= n; i++)
        fprintf(csv, "%s,%llu,%s,%.3f,%.3f\n", goal_coll_get(coll)->name, (unsigned long long)bytes, algo[i], t[i],
                i < n ? pred[i] : ns / 1000.0);
    twins = me == 0 ? twins_spread(algo, t, n + 1, bytes) : 1;
    for (i = 0; all && me == 0 && i < n; i++) printf("  %-24s %10.1f %10.1f\n", algo[i], t[i], pred[i]);
    ratio = ns > 0 ? t[n] / (ns / 1000.0) : 0;
    rows++; auto_ok += t[n] <= 1.1 * t[best]; pick_ok += t[picked] <= 1.1 * t[best];
    if (bytes >= 65536) { model_cells++; model_ok += ratio >= 1 / 1.25 && ratio <= 1.25; }
    else { small_cells++; small_ok += ratio >= 1 / 1.5 && ratio <= 1.5; }
    if (me == 0)
        printf("%-9s %8llu  %-24s %10.1f %10.1f %6.2f   %-24s %10.1f %6.2f %6.2f %10.1f %6.2f\n", goal_coll_get(coll)->name,
               (unsigned long long)bytes, pick ? pick->name : "-", ns / 1000.0, t[n], ratio, algo[best], t[best],
               t[n] / t[best], t[picked] / t[best], pred[best], twins);
}
int main(int argc, char **argv) {
    static const int colls[] = {GOAL_COLL_BCAST, GOAL_COLL_ALLREDUCE, GOAL_COLL_ALLTOALL};
    char text[4096];
    size_t len = 0;
    goal_mpi_desc md;
    goal_mpi *m;
    goal_error err;
    FILE *f;
    uint64_t bytes;
    const char *csv_path = NULL;
    int c, k, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    for (k = 2; k < argc && !bad; k++)
        if (strcmp(argv[k], "--all") == 0) all = 1;
        else if (strcmp(argv[k], "--csv") == 0 && k + 1 < argc) csv_path = argv[++k];
        else bad = 1;
    if (bad || argc < 2 || !(f = fopen(argv[1], "rb"))) {
        if (me == 0) fprintf(stderr, "usage: bench_model PARAMSFILE [--all] [--csv FILE]\n");
        MPI_Finalize();
        return 2;
    }
    if (csv_path && me == 0 && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "bench_model: cannot write %s\n", csv_path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
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
        printf("np %d, model %.*s\n%-9s %8s  %-24s %10s %10s %6s   %-24s %10s %6s %6s %10s %6s\n", np, (int)strcspn(text, "\n"), text, "coll", "bytes",
               "auto picks", "pred us", "auto us", "meas/pred", "fastest fixed", "its us", "auto/it", "pick/it", "its pred", "twins");
    for (c = 0; c < 3; c++)
        for (k = 0, bytes = 8; bytes <= MAX_BYTES; bytes *= 4, k++) {
            row(m, &md.model, colls[c], bytes);
        }
    if (me == 0)
        printf("auto/it <= 1.1 in %d of %d rows, pick/it in %d; meas/pred within 1.25x at >= 64 KiB in %d of %d cells, "
               "within 1.5x below in %d of %d (aims: all rows; 10 of 12; all)\n", auto_ok, rows, pick_ok, model_ok, model_cells, small_ok, small_cells);
    if (csv) fclose(csv);
    goal_mpi_destroy(m);
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
