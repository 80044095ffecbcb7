/* test_mpi.c - goal_mpi.h under mpirun: every algorithm of goal_algos.h checked on every rank
   against the MPI library's own collective on the same data; several operations in flight
   with the application's own traffic; wildcards, tag limits, truncation; a failure on one
   rank ends the operation everywhere; a one-round schedule's local steps around its
   messages. A test passes when it passed on every rank: rank 0 prints "ok NAME"/"FAIL
   NAME" and the count line. Run: mpirun -np N ./test_mpi */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_mpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, passed, failed, local_ok;

/* A check on this rank: a failure prints where and on which rank, and fails the test. */
#define CHECK(c) do { if (!(c)) { printf("  check failed: rank %d: %s:%d: %s\n", me, __FILE__, __LINE__, #c); local_ok = 0; } } while (0)
#define CHECK_OK(st, m) do { goal_status st_ = (st); if (st_ != GOAL_OK) { printf("  check failed: rank %d: line %d: %s: %s\n", \
    me, __LINE__, goal_strerror(st_), error_of(m)); local_ok = 0; } } while (0)

/* m's last error message ("" without m: goal_mpi_error(NULL) is NULL). */
static const char *error_of(const goal_mpi *m) {
    const goal_error *e = goal_mpi_error(m);
    return e ? e->msg : "";
}

static void report(const char *name) {
    int all = 0;
    fflush(stdout);
    MPI_Allreduce(&local_ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all) passed++; else failed++;
    if (me == 0) { printf("%s %s np%d\n", all ? "ok" : "FAIL", name, np); fflush(stdout); }
    local_ok = 1;
}

static goal_mpi *open_mpi(void) {
    goal_mpi *m = NULL;
    goal_mpi_desc d;
    goal_error err;
    memset(&d, 0, sizeof d);
    d.comm = MPI_COMM_WORLD;
    if (goal_mpi_create(&m, &d, &err) != GOAL_OK) { printf("goal_mpi_create: %s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 2); }
    return m;
}

/* ---- every algorithm against MPI ----------------------------------------------------- */
typedef struct buffers { int32_t *in, *out, *ref; int n; } buffers;

static void fill(buffers *b, int n) {
    int k;
    b->n = n;
    for (k = 0; k < np * n; k++) { b->in[k] = me * 1000 + k * 7 + 1; b->out[k] = b->ref[k] = -7; }
}
static int same(const int32_t *a, const int32_t *b, int n) { return !memcmp(a, b, (size_t)n * sizeof *a); }
static int has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Runs MPI's collective for algorithm `name` on b and compares; 0 when there is none. */
static int reference(const char *name, int root, buffers *b) {
    int n = b->n;
    if (has_prefix(name, "bcast_")) {
        memcpy(b->ref, b->in, (size_t)n * 4);
        MPI_Bcast(b->ref, n, MPI_INT32_T, root, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, n));
    } else if (has_prefix(name, "reduce_scatter_")) {
        MPI_Reduce_scatter_block(b->in, b->ref, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, n));
    } else if (has_prefix(name, "reduce_")) {
        MPI_Reduce(b->in, b->ref, n, MPI_INT32_T, MPI_SUM, root, MPI_COMM_WORLD);
        CHECK(me != root || same(b->out, b->ref, n));
    } else if (has_prefix(name, "allreduce_")) {
        MPI_Allreduce(b->in, b->ref, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, n));
    } else if (has_prefix(name, "barrier_")) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (has_prefix(name, "gather_")) {
        MPI_Gather(b->in, n, MPI_INT32_T, b->ref, n, MPI_INT32_T, root, MPI_COMM_WORLD);
        CHECK(me != root || same(b->out, b->ref, np * n));
    } else if (has_prefix(name, "scatter_")) {
        MPI_Scatter(b->in, n, MPI_INT32_T, b->ref, n, MPI_INT32_T, root, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, n));
    } else if (has_prefix(name, "allgather_")) {
        MPI_Allgather(b->in, n, MPI_INT32_T, b->ref, n, MPI_INT32_T, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, np * n));
    } else if (has_prefix(name, "alltoall_")) {
        MPI_Alltoall(b->in, n, MPI_INT32_T, b->ref, n, MPI_INT32_T, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, np * n));
    } else if (has_prefix(name, "scan_")) {
        MPI_Scan(b->in, b->ref, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        CHECK(same(b->out, b->ref, n));
    } else if (has_prefix(name, "exscan_")) {
        MPI_Exscan(b->in, b->ref, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        CHECK(me == 0 || same(b->out, b->ref, n));   /* MPI leaves rank 0's undefined */
    } else {
        return 0;
    }
    return 1;
}
static void algo_desc(goal_algo_desc *d, const char *name, int n, int root) {
    memset(d, 0, sizeof *d);
    d->algo = name; d->count = (uint64_t)n; d->dtype = GOAL_INT32; d->op = GOAL_OP_SUM; d->root = root;
}
/* One algorithm, one size: blocking, then again from the cache (nonblocking, tested). */
static void test_algorithm(goal_mpi *m, const char *name, int n, int root, buffers *b) {
    goal_algo_desc d;
    goal_mpi_request *r = NULL;
    char label[96];
    int round;
    algo_desc(&d, name, n, root);
    for (round = 0; round < 2; round++) {
        goal_status st;
        fill(b, n);
        if (has_prefix(name, "bcast_") && me == root) memcpy(b->out, b->in, (size_t)n * 4);   /* bcast works in OUT */
        if (round == 0) st = goal_mpi_algo_run(m, &d, b->in, b->out);
        else if ((st = goal_mpi_algo_start(m, &d, b->in, b->out, &r)) == GOAL_OK)
            while ((st = goal_mpi_test(&r)) == GOAL_PENDING) {}
        CHECK_OK(st, m);
        if (!reference(name, root, b)) { printf("  check failed: no MPI reference for %s\n", name); local_ok = 0; }
    }
    snprintf(label, sizeof label, "%s count %d root %d", name, n, root);
    report(label);
}
static void test_all_algorithms(void) {
    enum { BIG = 1000 };
    goal_mpi *m = open_mpi();
    buffers b;
    int i;
    b.in = (int32_t *)malloc((size_t)np * BIG * 4);
    b.out = (int32_t *)malloc((size_t)np * BIG * 4);
    b.ref = (int32_t *)malloc((size_t)np * BIG * 4);
    for (i = 0; goal_algo_list(i); i++) {
        if (goal_algo_list(i)->flags & GOAL_ALGO_VECTOR) continue;   /* test_vector_algorithms */
        test_algorithm(m, goal_algo_list(i)->name, 5, np - 1, &b);
        test_algorithm(m, goal_algo_list(i)->name, BIG, np / 2, &b);
    }
    goal_mpi_destroy(m);
    free(b.in); free(b.out); free(b.ref);
}

/* ---- COLL_auto (goal_mpi.h AUTO): one pick on every rank, goal_tune_best's, right results ---- */
static const char auto_model[] = "-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536";
static int algo_index(const goal_algo_info *a) {
    int i;
    for (i = 0; a && goal_algo_list(i) && goal_algo_list(i) != a; i++) {}
    return a && goal_algo_list(i) ? i : -1;
}
/* One (collective, bytes, required flags): every rank the same pick, cached, what
   goal_tune_best says for the size class, with the flags; rank 0 prints "auto COLL CLASS ALGO"
   for no flags (test_mpi.sh compares goal tune). */
static void test_auto_pick(goal_mpi *m, const goal_sim_desc *model, int coll, uint64_t bytes, uint32_t require) {
    const goal_algo_info *a = NULL, *again = NULL, *best = NULL;
    uint64_t cls = 0;
    int idx[2];
    double ns;
    goal_status st = goal_mpi_auto(m, coll, bytes, require, &a);
    while (cls < bytes) cls = cls ? 2 * cls : 1;
    if (require && st == GOAL_ERR_ARG) return;   /* no ordered (in place) algorithm of this collective */
    CHECK_OK(st, m);
    idx[0] = algo_index(a); idx[1] = -idx[0];
    MPI_Allreduce(MPI_IN_PLACE, idx, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(idx[0] == algo_index(a) && -idx[1] == algo_index(a) && a != NULL);
    CHECK(goal_mpi_auto(m, coll, bytes, require, &again) == GOAL_OK && again == a);
    CHECK(goal_tune_best(coll, np, cls, model, require, &best, &ns, NULL) == GOAL_OK && best == a);
    CHECK(!a || (a->flags & require) == require);
    if (me == 0 && !require && a) printf("auto %s %llu %s\n", goal_coll_get(coll)->name, (unsigned long long)cls, a->name);
}
/* A goal_mpi whose COLL_auto uses auto_model. */
static goal_mpi *open_auto_mpi(goal_mpi_desc *md) {
    goal_mpi *m = NULL;
    goal_error err;
    memset(md, 0, sizeof *md);
    md->comm = MPI_COMM_WORLD;
    CHECK(goal_sim_params(&md->model, auto_model, strlen(auto_model), &err) == GOAL_OK && md->model.G == 0.09);
    if (goal_mpi_create(&m, md, &err) != GOAL_OK) { printf("goal_mpi_create: %s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 2); }
    return m;
}
static void test_auto(void) {
    static const uint64_t sizes[] = {0, 8, 100, 2048, 65536, 1u << 20};
    const goal_algo_info *none;
    goal_mpi_desc md;
    goal_mpi *m = open_auto_mpi(&md);
    buffers b;
    int k, s;
    char name[64];
    for (k = 0; k < GOAL_COLL_NTUNED; k++)
        for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            test_auto_pick(m, &md.model, k, sizes[s], 0);
            test_auto_pick(m, &md.model, k, sizes[s], GOAL_ALGO_ORDERED);
            test_auto_pick(m, &md.model, k, sizes[s], GOAL_ALGO_INPLACE);
            test_auto_pick(m, &md.model, k, sizes[s], GOAL_ALGO_ORDERED | GOAL_ALGO_INPLACE);
        }
    CHECK(goal_mpi_auto(m, 0, 8, GOAL_ALGO_ROOTED, &none) == GOAL_ERR_ARG);
    report("auto: the same pick on every rank, cached, goal_tune_best's");
    b.in = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.out = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.ref = (int32_t *)malloc((size_t)np * 1000 * 4);
    for (k = 0; k < GOAL_COLL_NTUNED; k++) {   /* COLL_auto runs its pick: MPI's results */
        snprintf(name, sizeof name, "%s_auto", goal_coll_get(k)->name);
        test_algorithm(m, name, 5, np - 1, &b);
        test_algorithm(m, name, 1000, np / 2, &b);
    }
    goal_mpi_destroy(m);
    free(b.in); free(b.out); free(b.ref);
}

/* ---- MPI_IN_PLACE: every algorithm flagged GOAL_ALGO_INPLACE, the input where MPI has it --- */
static void test_in_place_algorithm(goal_mpi *m, const char *name, int n, int root, buffers *b) {
    goal_algo_desc d;
    goal_mpi_request *r = NULL;
    char label[96];
    int round, scatter = has_prefix(name, "scatter_"), blocks = has_prefix(name, "gather_") || has_prefix(name, "allgather_");
    int here = me == root || !(has_prefix(name, "reduce_") || has_prefix(name, "gather_") || scatter);   /* MPI's rule */
    algo_desc(&d, name, n, root);
    d.in_place = strstr(name, "_auto") != NULL;   /* COLL_auto: every rank picks an in-place algorithm */
    for (round = 0; round < 2; round++) {
        const void *in = b->in;
        void *out = b->out;
        goal_status st;
        fill(b, n);
        if (here && scatter) out = MPI_IN_PLACE;   /* the root's block stays in IN */
        else if (here) { memcpy(b->out + (blocks ? me * n : 0), b->in, (size_t)n * 4); in = MPI_IN_PLACE; }
        if (round == 0) st = goal_mpi_algo_run(m, &d, in, out);
        else if ((st = goal_mpi_algo_start(m, &d, in, out, &r)) == GOAL_OK)
            while ((st = goal_mpi_test(&r)) == GOAL_PENDING) {}
        CHECK_OK(st, m);
        if (here && scatter) memcpy(b->out, b->in + root * n, (size_t)n * 4);   /* must be untouched */
        reference(name, root, b);
    }
    snprintf(label, sizeof label, "%s in place count %d root %d", name, n, root);
    report(label);
}
static void test_in_place_algorithms(void) {
    goal_mpi *m = open_mpi();
    buffers b;
    int i;
    b.in = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.out = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.ref = (int32_t *)malloc((size_t)np * 1000 * 4);
    for (i = 0; goal_algo_list(i); i++) {
        const goal_algo_info *a = goal_algo_list(i);
        if ((a->flags & GOAL_ALGO_VECTOR) || !(a->flags & GOAL_ALGO_INPLACE)) continue;
        test_in_place_algorithm(m, a->name, 5, np - 1, &b);
        test_in_place_algorithm(m, a->name, 1000, np / 2, &b);
    }
    goal_mpi_destroy(m);
    free(b.in); free(b.out); free(b.ref);
}

/* COLL_auto in place picks among the GOAL_ALGO_INPLACE algorithms (e.g. allreduce at 5 ints:
   allreduce_dissemination without it, allreduce_recdoub with) and gives MPI's result. */
static void test_auto_in_place(void) {
    goal_mpi_desc md;
    goal_mpi *m = open_auto_mpi(&md);
    const goal_algo_info *a;
    goal_algo_desc d;
    buffers b;
    char name[64];
    int k, root = np / 2, fails;
    goal_status st;
    b.in = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.out = (int32_t *)malloc((size_t)np * 1000 * 4);
    b.ref = (int32_t *)malloc((size_t)np * 1000 * 4);
    for (k = 0; k < GOAL_COLL_NTUNED; k++) {
        if (goal_mpi_auto(m, k, 20, GOAL_ALGO_INPLACE, &a) != GOAL_OK) continue;   /* no in-place algorithm */
        snprintf(name, sizeof name, "%s_auto", goal_coll_get(k)->name);
        test_in_place_algorithm(m, name, 5, np - 1, &b);
        test_in_place_algorithm(m, name, 1000, np / 2, &b);
    }
    /* only the root in place, d.in_place unset: the root cannot tell the others, so when the
       common pick lacks GOAL_ALGO_INPLACE the root fails and revokes instead of two algorithms
       meeting; another rank fails too, or finished first (its part needs nothing of the
       root's: at np 5 reduce_dbtree's sends finish eagerly), as FAILURES says */
    CHECK(goal_mpi_auto(m, 1, 4000, 0, &a) == GOAL_OK);
    fails = !(a->flags & GOAL_ALGO_INPLACE);
    algo_desc(&d, "reduce_auto", 1000, root);
    fill(&b, 1000);
    if (me == root) memcpy(b.out, b.in, 4000);
    st = goal_mpi_algo_run(m, &d, me == root ? MPI_IN_PLACE : b.in, b.out);
    if (!fails) CHECK_OK(st, m);
    else if (me == root) CHECK(st == GOAL_ERR_ARG && strstr(error_of(m), "set d->in_place on every rank"));
    else CHECK(st == GOAL_OK || (st == GOAL_ERR_TRANSPORT && strstr(error_of(m), "revoked")));
    if (!fails) reference("reduce_auto", root, &b);
    report(fails ? "reduce_auto: MPI_IN_PLACE at the root alone, pick without in place: the root fails and revokes"
                 : "reduce_auto: MPI_IN_PLACE at the root alone, in-place pick");
    goal_mpi_destroy(m);
    free(b.in); free(b.out); free(b.ref);
}

/* ---- vector collectives against MPI's own (each rank passes MPI's arrays as it has them) --- */
/* Counts 0..4 that differ per rank (zeros included), times scale; displacements in reverse
   rank order with gaps of 0..2 elements (none on one rank: MPICH 4.0.2's MPI_Allgatherv on
   one rank ignores displs and copies to offset 0). Returns the extent in elements. */
static int vec_layout(int *cnt, int *dsp, int seed, int scale) {
    int j, at = 0;
    for (j = 0; j < np; j++) cnt[j] = ((j * 3 + seed) % 5) * scale;
    for (j = np - 1; j >= 0; j--) { at += np > 1 ? (j + seed) % 3 : 0; dsp[j] = at; at += cnt[j]; }
    return at;
}
static void vec_fill(int32_t *in, int32_t *out, int32_t *ref, int n) {
    int k;
    for (k = 0; k < n; k++) { in[k] = me * 100000 + k * 7 + 1; out[k] = ref[k] = -7; }
}
/* One vector algorithm at one scale: goal_mpi_algo_run with MPI's arrays, then MPI's call on
   the same input; OUT must equal MPI's result everywhere (gaps untouched in both). */
static void test_vector_algorithm(goal_mpi *m, const char *name, int root, int scale) {
    int *sc = (int *)malloc(4 * (size_t)np * sizeof(int)), *sd = sc + np, *rc = sd + np, *rd = rc + np, j;
    int ext = vec_layout(sc, sd, 1, scale), n = ext + 5 * scale * np + 8;
    int32_t *in = (int32_t *)malloc((size_t)n * 4), *out = (int32_t *)malloc((size_t)n * 4), *ref = (int32_t *)malloc((size_t)n * 4);
    goal_algo_desc d;
    char label[96];
    algo_desc(&d, name, 0, root);
    d.counts = sc; d.displs = sd;
    vec_fill(in, out, ref, n);
    if (has_prefix(name, "gatherv_")) {
        if (me != root && has_prefix(name, "gatherv_linear")) { d.count = (uint64_t)sc[me]; d.counts = NULL; d.displs = NULL; }
        CHECK_OK(goal_mpi_algo_run(m, &d, in, out), m);
        MPI_Gatherv(in, sc[me], MPI_INT32_T, ref, sc, sd, MPI_INT32_T, root, MPI_COMM_WORLD);
    } else if (has_prefix(name, "scatterv_")) {
        if (me != root) { d.count = (uint64_t)sc[me]; d.counts = NULL; d.displs = NULL; }
        CHECK_OK(goal_mpi_algo_run(m, &d, in, out), m);
        MPI_Scatterv(in, sc, sd, MPI_INT32_T, ref, sc[me], MPI_INT32_T, root, MPI_COMM_WORLD);
    } else if (has_prefix(name, "allgatherv_")) {
        CHECK_OK(goal_mpi_algo_run(m, &d, in, out), m);
        MPI_Allgatherv(in, sc[me], MPI_INT32_T, ref, sc, sd, MPI_INT32_T, MPI_COMM_WORLD);
    } else if (has_prefix(name, "alltoallv_")) {   /* rank i sends ((i + 2j) % 4) * scale to j */
        int at = 0;
        for (j = 0; j < np; j++) { sc[j] = ((me + 2 * j) % 4) * scale; rc[j] = ((j + 2 * me) % 4) * scale; }
        for (j = np - 1; j >= 0; j--) { sd[j] = at; at += sc[j] + 1; }
        for (j = 0, at = 0; j < np; j++) { rd[j] = at; at += rc[j] + (j % 2); }
        d.recv_counts = rc; d.recv_displs = rd;
        CHECK_OK(goal_mpi_algo_run(m, &d, in, out), m);
        MPI_Alltoallv(in, sc, sd, MPI_INT32_T, ref, rc, rd, MPI_INT32_T, MPI_COMM_WORLD);
    } else if (has_prefix(name, "reduce_scatterv_")) {   /* MPI_Reduce_scatter: IN packed */
        d.displs = NULL;
        CHECK_OK(goal_mpi_algo_run(m, &d, in, out), m);
        MPI_Reduce_scatter(in, ref, sc, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
    } else { printf("  check failed: no MPI reference for %s\n", name); local_ok = 0; }
    CHECK((has_prefix(name, "gatherv_") && me != root) || same(out, ref, n));
    snprintf(label, sizeof label, "%s counts x%d root %d", name, scale, root);
    report(label);
    free(sc); free(in); free(out); free(ref);
}
static void test_vector_algorithms(void) {
    goal_mpi *m = open_mpi();
    int i;
    for (i = 0; goal_algo_list(i); i++) {
        const goal_algo_info *a = goal_algo_list(i);
        if (!(a->flags & GOAL_ALGO_VECTOR)) continue;
        test_vector_algorithm(m, a->name, np - 1, 1);
        test_vector_algorithm(m, a->name, np / 2, 300);
        test_vector_algorithm(m, a->name, np / 2, 300);   /* again: from the cache */
    }
    goal_mpi_destroy(m);
}

/* ---- several in flight, with the application's traffic -------------------------------- */
/* Four operations, two of them the same cached bcast from different roots (same tags, so
   only the contexts keep them apart), and the application's ring on MPI_COMM_WORLD with
   tag 0 like the schedules'. Even ranks wait in start order, odd ranks in reverse. */
static void test_in_flight(void) {
    enum { N = 300, K = 4 };
    goal_mpi *m = open_mpi();
    goal_algo_desc d[K];
    goal_mpi_request *r[K];
    static int32_t in[K][8 * N], out[K][8 * N], ref[8 * N];
    int32_t app_out = me * 11, app_in = -1;
    MPI_Request app[2];
    int i, k;
    const char *algos[K] = {"bcast_binomial", "allreduce_recdoub", "bcast_binomial", "alltoall_pairwise"};
    for (k = 0; k < K; k++) {
        algo_desc(&d[k], algos[k], N, k == 2 ? np - 1 : 0);
        for (i = 0; i < np * N; i++) { in[k][i] = out[k][i] = me * 100 + i + k; }
    }
    MPI_Irecv(&app_in, 1, MPI_INT32_T, (me + np - 1) % np, 0, MPI_COMM_WORLD, &app[0]);
    for (k = 0; k < K; k++) CHECK_OK(goal_mpi_algo_start(m, &d[k], in[k], out[k], &r[k]), m);
    MPI_Isend(&app_out, 1, MPI_INT32_T, (me + 1) % np, 0, MPI_COMM_WORLD, &app[1]);
    for (k = 0; k < K; k++) {
        int j = me % 2 ? K - 1 - k : k;
        if (r[j]) CHECK_OK(goal_mpi_wait(&r[j]), m);
    }
    MPI_Wait(&app[0], MPI_STATUS_IGNORE);   /* not MPI_Waitall with MPI_STATUSES_IGNORE: gcc warns on MPICH's prototype */
    MPI_Wait(&app[1], MPI_STATUS_IGNORE);
    CHECK(app_in == ((me + np - 1) % np) * 11);
    for (k = 0; k < K; k++) {
        for (i = 0; i < np * N; i++) in[k][i] = me * 100 + i + k;
        if (k != 1 && k != 3) {
            memcpy(ref, in[k], N * 4);
            MPI_Bcast(ref, N, MPI_INT32_T, d[k].root, MPI_COMM_WORLD);
        } else if (k == 1) MPI_Allreduce(in[k], ref, N, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        else MPI_Alltoall(in[k], N, MPI_INT32_T, ref, N, MPI_INT32_T, MPI_COMM_WORLD);
        CHECK(same(out[k], ref, k == 3 ? np * N : N));
    }
    goal_mpi_destroy(m);
    report("in_flight four operations and application traffic");
}

/* A blocking call alone on its goal_mpi (a flat plan: the short path) and beside one in
   flight, in turns: the even ranks (root 0 among them) finish their allreduce before a
   gather and a reduce, the odd ones run those while theirs is in flight (waiting progresses
   both). The reduce's root adds what it received after its wait (at 2 ranks; further, the
   leaves' plans are flat). All give MPI's results, round after round, so every rank's
   starts keep finding the same contexts. */
static void test_flat_mixed(void) {
    enum { N = 40 };
    goal_mpi *m = open_mpi();
    goal_algo_desc a, g, r0;
    goal_mpi_request *r = NULL;
    static int32_t in[N], out[N], gin[N], gout[8 * N], rout[N], ref[8 * N];
    int i, round;
    algo_desc(&a, "allreduce_recdoub", N, 0);
    algo_desc(&g, "gather_linear", N, 0);
    algo_desc(&r0, "reduce_binomial", N, 0);
    for (round = 0; round < 3; round++) {
        for (i = 0; i < N; i++) { in[i] = me * 7 + i + round; gin[i] = me * 1000 + i + round; rout[i] = -1; }
        for (i = 0; i < np * N; i++) gout[i] = -1;
        CHECK_OK(goal_mpi_algo_start(m, &a, in, out, &r), m);
        if (me % 2 == 0 && r) CHECK_OK(goal_mpi_wait(&r), m);
        CHECK_OK(goal_mpi_algo_run(m, &g, gin, gout), m);
        CHECK_OK(goal_mpi_algo_run(m, &r0, gin, rout), m);
        if (r) CHECK_OK(goal_mpi_wait(&r), m);
        MPI_Allreduce(in, ref, N, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
        CHECK(same(out, ref, N));
        MPI_Reduce(gin, ref, N, MPI_INT32_T, MPI_SUM, 0, MPI_COMM_WORLD);
        CHECK(me != 0 || same(rout, ref, N));
        MPI_Gather(gin, N, MPI_INT32_T, ref, N, MPI_INT32_T, 0, MPI_COMM_WORLD);
        CHECK(me != 0 || same(gout, ref, np * N));
    }
    goal_mpi_destroy(m);
    report("blocking calls alone (the short path) and beside one in flight, in turns");
}

/* ---- reuse: a repeated collective allocates nothing --------------------------------- */
static long allocs;
static void *count_alloc(size_t n, void *u) { (void)u; allocs++; return malloc(n); }
static void count_free(void *p, void *u) { (void)u; free(p); }
/* Two of the same allreduce in flight (two executions of one cached schedule), then the
   same again on fresh buffers: the later starts reuse those executions and allocate nothing,
   and every result is right. A slot too small is refused on reuse as on creation. */
static int32_t build_allreduce(goal_graph *g, const void *args, goal_error *err) {
    goal_algo_desc d;
    (void)args;
    algo_desc(&d, "allreduce_recdoub", 64, 0);
    d.custom_slots = 1; d.in_slot = 0; d.out_slot = 1;
    return goal_algo_build(g, &d, NULL, 0, NULL, err);
}
static void test_reuse(void) {
    enum { N = 64 };
    goal_mpi *m = NULL;
    goal_mpi_desc md;
    goal_error err;
    goal_algo_desc d;
    goal_mpi_request *r[2];
    static int32_t in[2][N], out[2][N], ref[N];
    long before = 0;
    int round, k, i;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD; md.alloc.alloc_fn = count_alloc; md.alloc.free_fn = count_free;
    CHECK(goal_mpi_create(&m, &md, &err) == GOAL_OK);
    if (!m) { report("reuse"); return; }
    algo_desc(&d, "allreduce_recdoub", N, 0);
    for (round = 0; round < 4; round++) {
        if (round == 1) before = allocs;
        for (k = 0; k < 2; k++) {   /* each idle execution gets the other buffers every round */
            int b = (k + round) % 2;
            for (i = 0; i < N; i++) { in[b][i] = me * 31 + i * (b + 1) + round; out[b][i] = -1; }
            CHECK_OK(goal_mpi_algo_start(m, &d, in[b], out[b], &r[k]), m);
        }
        for (k = 1; k >= 0; k--) if (r[k]) CHECK_OK(goal_mpi_wait(&r[k]), m);
        for (k = 0; k < 2; k++) {
            MPI_Allreduce(in[k], ref, N, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
            CHECK(same(out[k], ref, N));
        }
    }
    CHECK(allocs == before);
    {   /* the same schedule through goal_mpi_start: an idle execution, bound to a short OUT */
        goal_mpi_coll c;
        goal_slot slots[2];
        memset(&c, 0, sizeof c);
        c.build_fn = build_allreduce; c.slots = slots; c.nslots = 2;
        slots[0].data = in[0]; slots[0].size = sizeof in[0]; slots[1].data = out[0]; slots[1].size = sizeof out[0];
        CHECK_OK(goal_mpi_run(m, &c), m);
        MPI_Barrier(MPI_COMM_WORLD);   /* the failure below revokes: nobody may still be in the run above */
        slots[1].size = sizeof out[0] - 1;
        CHECK(goal_mpi_run(m, &c) == GOAL_ERR_BOUNDS && strstr(error_of(m), "slot 1") != NULL);
    }
    goal_mpi_destroy(m);
    report("reuse repeated collective allocates nothing after its first start");
}

/* ---- the raw transport --------------------------------------------------------------- */
static goal_status run_graph(goal_graph *g, goal_transport t, uint32_t context, void *data, uint64_t size) {
    goal_schedule s;
    goal_exec_desc d;
    goal_exec *e = NULL;
    goal_slot slot;
    goal_status st = goal_compile(g, &s, NULL);
    goal_graph_destroy(g);
    if (st != GOAL_OK) return st;
    memset(&d, 0, sizeof d);
    slot.data = data; slot.size = size;
    d.schedule = &s; d.transport = t; d.slots = &slot; d.nslots = 1; d.context = context;
    st = goal_exec_create(&e, &d, NULL);
    if (st == GOAL_OK) st = goal_exec_run(e);
    goal_exec_destroy(e);
    goal_schedule_free(&s);
    return st;
}
static goal_graph *new_graph(void) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.rank = me; gd.nranks = np;
    goal_graph_create(&g, &gd, NULL);
    return g;
}
/* Rank 0 sums one value from each rank, received from any source. */
static void test_any_source(void) {
    goal_mpi *m = open_mpi();
    goal_graph *g = new_graph();
    int32_t v[64] = {0};
    int k;
    v[0] = me + 1;
    if (me != 0) goal_graph_send(g, goal_buffer(0, 0, 4), 0, 3);
    for (k = 1; me == 0 && k < np; k++) {
        int32_t rv = goal_graph_recv(g, goal_buffer(0, 4u * (unsigned)k, 4), GOAL_ANY, 3);
        int32_t ex = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 4), goal_buffer(0, 4u * (unsigned)k, 4));
        goal_graph_requires(g, ex, rv);
        if (k > 1) goal_graph_requires(g, ex, ex - 2);
    }
    CHECK_OK(run_graph(g, goal_mpi_transport(m), 5, v, sizeof v), m);
    CHECK(me != 0 || v[0] == np * (np + 1) / 2);
    goal_mpi_destroy(m);
    report("any_source recv within its context");
}
/* With a window of 1, recv(any), recv(any), recv(1) of one tag take rank 1's three messages
   in MPI's order: an any-source receive is never held back behind the window. */
static void test_any_source_window(void) {
    goal_mpi *m = NULL;
    goal_mpi_desc md;
    goal_error err;
    goal_graph *g = new_graph();
    int32_t v[3] = {10, 20, 30};
    int k;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD; md.window = 1;
    if (goal_mpi_create(&m, &md, &err) != GOAL_OK) { printf("goal_mpi_create: %s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 2); }
    if (np > 1 && me == 1) {
        int32_t prev = -1;
        for (k = 0; k < 3; k++) {
            int32_t sd = goal_graph_send(g, goal_buffer(0, 4u * (unsigned)k, 4), 0, 3);
            if (prev >= 0) goal_graph_requires(g, sd, prev);
            prev = sd;
        }
    }
    if (np > 1 && me == 0) {
        memset(v, 0, sizeof v);
        for (k = 0; k < 3; k++) goal_graph_recv(g, goal_buffer(0, 4u * (unsigned)k, 4), k < 2 ? GOAL_ANY : 1, 3);
    }
    CHECK_OK(run_graph(g, goal_mpi_transport(m), 6, v, sizeof v), m);
    CHECK(v[0] == 10 && v[1] == 20 && v[2] == 30);
    goal_mpi_destroy(m);
    report("any_source recvs keep MPI's order with a window of 1");
}
/* A recv from any tag, a tag over T, a context over C: refused at post, on this rank. */
static void test_limits(void) {
    goal_mpi *m = open_mpi();
    goal_mpi_desc md;
    goal_error err;
    goal_mpi *none = NULL;
    int32_t v = 0;
    goal_graph *g = new_graph();
    goal_graph_recv(g, goal_buffer(0, 0, 4), me, GOAL_ANY);
    CHECK(run_graph(g, goal_mpi_transport(m), 0, &v, 4) == GOAL_ERR_MATCH);
    CHECK(strstr(error_of(m), "any tag") != NULL);
    g = new_graph();
    goal_graph_send(g, goal_buffer(0, 0, 4), me, 64);
    CHECK(run_graph(g, goal_mpi_transport(m), 0, &v, 4) == GOAL_ERR_LIMIT);
    g = new_graph();
    goal_graph_send(g, goal_buffer(0, 0, 4), me, 0);
    CHECK(run_graph(g, goal_mpi_transport(m), goal_mpi_contexts(m), &v, 4) == GOAL_ERR_LIMIT);
    CHECK(strstr(error_of(m), "MPI_TAG_UB") != NULL);
    goal_mpi_destroy(m);
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD; md.tags = 0xFFFFFFFFu;
    CHECK(goal_mpi_create(&none, &md, &err) == GOAL_ERR_LIMIT && none == NULL);
    report("limits any tag, tag and context over MPI_TAG_UB");
}
/* 8 bytes into a 4-byte recv: GOAL_ERR_TRUNCATE, with MPI's words. */
static void test_truncate(void) {
    goal_mpi *m = open_mpi();
    goal_graph *g = new_graph();
    int32_t v[2] = {1, 2};
    goal_status st;
    if (me == 0) goal_graph_send(g, goal_buffer(0, 0, 8), 1, 0);
    if (me == 1) goal_graph_recv(g, goal_buffer(0, 0, 4), 0, 0);
    st = run_graph(g, goal_mpi_transport(m), 1, v, 8);
    CHECK(me == 1 ? st == GOAL_ERR_TRUNCATE : st == GOAL_OK);
    if (me == 1) CHECK(strstr(error_of(m), "MPI") != NULL || strstr(error_of(m), "trunc") != NULL);
    goal_mpi_destroy(m);
    report("truncate larger message than the recv");
}

/* ---- a failing rank ---------------------------------------------------------------------- */
typedef struct faulty { goal_transport inner; int posts, fail_at; } faulty;
static int faulty_post(void *user, const goal_msg *msg, goal_req *req) {
    faulty *f = (faulty *)user;
    if (++f->posts == f->fail_at) return GOAL_ERR_TRANSPORT;
    return f->inner.post(f->inner.user, msg, req);
}
static int faulty_test(void *user, goal_req *reqs, int n, int block) {
    faulty *f = (faulty *)user;
    return f->inner.test(f->inner.user, reqs, n, block);
}
static void faulty_cancel(void *user, goal_req *req) { faulty *f = (faulty *)user; f->inner.cancel(f->inner.user, req); }

/* The last rank's transport fails its second post, in a ring allreduce that needs every
   rank's data everywhere; it revokes, as a user of the raw transport must. Every rank must
   return: the failing one with its error, the others with the notice. */
static void test_fault_transport(void) {
    enum { N = 64 };
    goal_mpi *m = open_mpi();
    goal_algo_desc d;
    goal_graph *g = new_graph();
    goal_schedule s;
    goal_exec_desc ed;
    goal_exec *e = NULL;
    goal_slot slots[2];
    faulty f;
    int32_t in[N], out[N];
    goal_status st;
    int k;
    for (k = 0; k < N; k++) in[k] = k;
    algo_desc(&d, "allreduce_ring", N, 0);
    goal_algo_build(g, &d, NULL, 0, NULL, NULL);
    CHECK(goal_compile(g, &s, NULL) == GOAL_OK);
    goal_graph_destroy(g);
    f.inner = goal_mpi_transport(m); f.posts = 0; f.fail_at = me == np - 1 ? 2 : -1;
    memset(&ed, 0, sizeof ed);
    slots[0].data = in; slots[0].size = sizeof in; slots[1].data = out; slots[1].size = sizeof out;
    ed.schedule = &s; ed.slots = slots; ed.nslots = 2; ed.context = 9;
    ed.transport.user = &f; ed.transport.post = faulty_post; ed.transport.test = faulty_test; ed.transport.cancel = faulty_cancel;
    CHECK(goal_exec_create(&e, &ed, NULL) == GOAL_OK);
    st = goal_exec_run(e);
    if (st < 0) goal_mpi_revoke(m, st);
    if (np == 1) CHECK(st == GOAL_OK);   /* one rank: a ring without messages */
    else if (me == np - 1) CHECK(st == GOAL_ERR_TRANSPORT && strstr(goal_exec_error(e)->msg, "post") != NULL);
    else CHECK(st == GOAL_ERR_TRANSPORT && strstr(error_of(m), "revoked") != NULL);
    goal_exec_destroy(e);
    goal_schedule_free(&s);
    MPI_Barrier(MPI_COMM_WORLD);   /* reached by every rank: nobody hangs */
    goal_mpi_destroy(m);
    report("fault injected transport error ends the operation on every rank");
}
/* A user function failing on rank 0 inside a collective of goal_mpi_start: the collective
   revokes by itself; later starts on that goal_mpi fail at once. */
static int32_t fail_here;
static int user_fn(void *a, int na, void *b, int nb) { (void)a; (void)na; (void)b; (void)nb; return fail_here; }
static int32_t build_reduce_user(goal_graph *g, const void *args, goal_error *err) {
    goal_algo_desc d;
    int32_t done, u;
    (void)args;
    algo_desc(&d, "allreduce_recdoub", 4, 0);
    u = goal_graph_user(g, 0, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4));
    d.custom_slots = 1; d.in_slot = 0; d.out_slot = 1;
    done = goal_algo_build(g, &d, &u, 1, NULL, err);
    return done;
}
static void test_fault_userfn(void) {
    goal_mpi *m = open_mpi();
    goal_mpi_coll c;
    goal_user_fn fns[1] = {user_fn};
    goal_slot slots[2];
    int32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4];
    goal_status st;
    fail_here = me == 0;
    memset(&c, 0, sizeof c);
    c.build_fn = build_reduce_user; c.slots = slots; c.nslots = 2; c.user_fns = fns; c.nuser_fns = 1;
    slots[0].data = in; slots[0].size = sizeof in; slots[1].data = out; slots[1].size = sizeof out;
    st = goal_mpi_run(m, &c);
    if (me == 0) CHECK(st == GOAL_ERR_USERFN && strstr(error_of(m), "user function") != NULL);
    else CHECK(st == GOAL_ERR_TRANSPORT && strstr(error_of(m), "rank 0 revoked") != NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(goal_mpi_run(m, &c) == GOAL_ERR_TRANSPORT);   /* revoked: fails at once, everywhere */
    goal_mpi_destroy(m);
    report("fault user function failure revokes the communicator");
}

/* A one-round schedule (DIRECT: run from its plan, without the executor) with local steps
   before its messages (a sum, a copy into scratch, a user function) and after them (a user
   function, a copy), each needing the one before: every rank sends 2 * (a + b) of its
   input {a, b} to the next and gets out = {x + b, x + b} from the one before (x what it
   sent). Run with two pairs of buffers in turn, so that each start must take the addresses
   of the slots bound then. */
static int add_fn(void *a, int na, void *b, int nb) {
    int32_t x, y;
    if (na != 4 || nb != 4) return 1;
    memcpy(&x, a, 4); memcpy(&y, b, 4); x += y; memcpy(a, &x, 4);
    return 0;
}
static int32_t build_plan(goal_graph *g, const void *args, goal_error *err) {
    int p = goal_graph_nranks(g), r = goal_graph_rank(g);
    int32_t sum, copy, twice, send, recv, post, last;
    (void)args; (void)err;
    sum = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 4), goal_buffer(0, 4, 4));
    copy = goal_graph_exec(g, GOAL_OP_COPY, GOAL_INT32, goal_buffer(GOAL_SLOT_SCRATCH, 0, 4), goal_buffer(0, 0, 4));
    twice = goal_graph_user(g, 0, goal_buffer(GOAL_SLOT_SCRATCH, 0, 4), goal_buffer(0, 0, 4));
    send = goal_graph_send(g, goal_buffer(GOAL_SLOT_SCRATCH, 0, 4), (r + 1) % p, 3);
    recv = goal_graph_recv(g, goal_buffer(1, 0, 4), (r + p - 1) % p, 3);
    post = goal_graph_user(g, 0, goal_buffer(1, 0, 4), goal_buffer(0, 4, 4));
    last = goal_graph_exec(g, GOAL_OP_COPY, GOAL_INT32, goal_buffer(1, 4, 4), goal_buffer(1, 0, 4));
    goal_graph_requires(g, copy, sum); goal_graph_requires(g, twice, copy); goal_graph_requires(g, send, twice);
    goal_graph_requires(g, post, recv); goal_graph_requires(g, last, post);
    return last;
}
static void test_direct_plan(void) {
    goal_mpi *m = open_mpi();
    goal_mpi_coll c;
    goal_user_fn fns[1] = {add_fn};
    goal_slot slots[2];
    int32_t in[2][2], out[2][2];
    int k, left = (me + np - 1) % np;
    memset(&c, 0, sizeof c);
    c.build_fn = build_plan; c.slots = slots; c.nslots = 2; c.user_fns = fns; c.nuser_fns = 1;
    for (k = 0; k < 4; k++) {
        int32_t *i = in[k % 2], *o = out[k % 2], want = 2 * ((left + 1 + k) + 10 * (left + 1)) + 10 * (me + 1);
        i[0] = me + 1 + k; i[1] = 10 * (me + 1); o[0] = o[1] = -1;
        slots[0].data = i; slots[0].size = sizeof in[0]; slots[1].data = o; slots[1].size = sizeof out[0];
        CHECK_OK(goal_mpi_run(m, &c), m);
        CHECK(o[0] == want && o[1] == want);
    }
    goal_mpi_destroy(m);
    report("one round with local steps before and after its messages (DIRECT's plan)");
}

/* Rounds on a ring: rank r sends slot 0 to r+1 and receives r-1's into slot 1 (round 1),
   adds slot 0 into it and passes the sum on (each further round: received into slot 1's
   next int), so slot 1 ends with r-1's + r's, then r-2's + r-1's + r's, ... The shapes:
   0 every round's messages wait for the whole round before; 3 for its receive alone, the
   send before still with MPI (a dissemination's rounds); 1 a receive waits for nothing, so
   a round's sends wait for different receives (a pipeline: its receives, all from one peer
   with one tag, must count as finished in order, else a later segment is sent first, and
   MPICH at 4 ranks finishes them out of order now and then); 2 as 0, and the next send may
   start once the one before started (irequires). Each runs from a plan (DIRECT) up to 32
   messages (16 rounds), on the channels beyond. */
typedef struct ring_rounds { int rounds, shape; } ring_rounds;
static int32_t build_rounds(goal_graph *g, const void *args, goal_error *err) {
    const ring_rounds *a = (const ring_rounds *)args;
    int p = goal_graph_nranks(g), r = goal_graph_rank(g), k;
    int32_t send = goal_graph_send(g, goal_buffer(0, 0, 4), (r + 1) % p, 1), recv, add = -1;
    (void)err;
    for (k = 0; k < a->rounds; k++) {
        recv = goal_graph_recv(g, goal_buffer(1, 4 * (uint64_t)k, 4), (r + p - 1) % p, 1);
        if (add >= 0 && a->shape != 1) goal_graph_requires(g, recv, add);
        add = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(1, 4 * (uint64_t)k, 4), goal_buffer(0, 0, 4));
        goal_graph_requires(g, add, recv);
        if (a->shape == 0 || a->shape == 2) goal_graph_requires(g, add, send);
        if (k + 1 == a->rounds) break;
        {
            int32_t next = goal_graph_send(g, goal_buffer(1, 4 * (uint64_t)k, 4), (r + 1) % p, 1);
            goal_graph_requires(g, next, add);
            if (a->shape == 2) goal_graph_irequires(g, next, send);
            send = next;
        }
    }
    return goal_graph_status(g) == GOAL_OK ? add : goal_graph_status(g);
}
static void test_rounds(void) {
    static const ring_rounds cases[] = {{2, 0}, {3, 0}, {16, 0}, {17, 0}, {3, 1}, {16, 1}, {17, 1}, {3, 2}, {16, 2}, {2, 3}, {5, 3}};
    int c, k, run;
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        goal_mpi *m = open_mpi();
        goal_mpi_coll coll;
        goal_slot slots[2];
        int32_t in = me + 1, out[17], want = 0;
        memset(&coll, 0, sizeof coll);
        coll.build_fn = build_rounds; coll.args = &cases[c]; coll.key = &cases[c]; coll.keylen = sizeof cases[c];
        slots[0].data = &in; slots[0].size = 4; slots[1].data = out; slots[1].size = sizeof out;
        coll.slots = slots; coll.nslots = 2;
        for (run = 0; run < 8; run++) {   /* again, from the cache: a pipeline's segments must keep their order each time */
            for (k = 0; k < 17; k++) out[k] = -1;
            CHECK_OK(goal_mpi_run(m, &coll), m);
            for (want = 0, k = 0; k < cases[c].rounds; k++) {   /* want: the sum of in over ranks r-k-1 .. r */
                want += (me - k - 1 + 2 * np * 20) % np + 1 + (k == 0 ? me + 1 : 0);
                CHECK(out[k] == want);
            }
        }
        CHECK(m->cache && !m->cache->next);
        if (m->cache && 2 * cases[c].rounds <= GOAL__MPI_DIRECT)
            CHECK(m->cache->direct && m->cache->direct->nmsgs == 2 * (uint32_t)cases[c].rounds);
        else if (m->cache)
            CHECK(!m->cache->direct);
        goal_mpi_destroy(m);
    }
    report("schedules of rounds, pipelines, loose sends and irequires run from a plan (DIRECT) up to 32 messages");
}

/* A channel's messages count as finished in the order they were posted, not in plan order
   (DIRECT): rank 0's receives A and B from rank 1 (one tag) are A, B in plan order, but B
   is posted first (A waits for X, which rank 2 sends only after W, which goes with B), so
   rank 1's first message m1 lands in B. Z, after B, frees m2 for A. Counted in plan order,
   B would wait for A, which waits for m2, which waits for Z: every rank stuck. Run with
   timeout_ms (tests in turns; a regression fails) and without (a wait in MPI; a regression
   hangs, which the script's watchdog reports). */
static int32_t build_channel_order(goal_graph *g, const void *args, goal_error *err) {
    int r = goal_graph_rank(g);
    int32_t last;
    (void)args; (void)err;
    if (r == 0) {
        int32_t x = goal_graph_recv(g, goal_buffer(0, 0, 4), 2, 3), y = goal_graph_recv(g, goal_buffer(0, 4, 4), 2, 1);
        int32_t a = goal_graph_recv(g, goal_buffer(0, 8, 4), 1, 0), b = goal_graph_recv(g, goal_buffer(0, 12, 4), 1, 0);
        int32_t w = goal_graph_send(g, goal_buffer(0, 16, 4), 2, 2), z = goal_graph_send(g, goal_buffer(0, 20, 4), 1, 4);
        goal_graph_requires(g, a, x); goal_graph_requires(g, b, y); goal_graph_requires(g, w, y); goal_graph_requires(g, z, b);
        last = z;
    } else if (r == 1) {
        int32_t zr = goal_graph_recv(g, goal_buffer(0, 4, 4), 0, 4), m2;
        goal_graph_send(g, goal_buffer(0, 0, 4), 0, 0);
        m2 = goal_graph_send(g, goal_buffer(0, 8, 4), 0, 0);
        goal_graph_requires(g, m2, zr);
        last = m2;
    } else if (r == 2) {
        int32_t wr = goal_graph_recv(g, goal_buffer(0, 4, 4), 0, 2), xs = goal_graph_send(g, goal_buffer(0, 8, 4), 0, 3);
        goal_graph_send(g, goal_buffer(0, 0, 4), 0, 1);
        goal_graph_requires(g, xs, wr);
        last = xs;
    } else {
        last = goal_graph_nop(g);
    }
    return goal_graph_status(g) == GOAL_OK ? last : goal_graph_status(g);
}
static void test_channel_order(void) {
    goal_mpi *m = NULL;
    goal_mpi_desc d;
    goal_error err;
    goal_mpi_coll c;
    goal_slot s;
    int32_t buf[8];
    int k, run, timed;
    memset(&c, 0, sizeof c);
    c.build_fn = build_channel_order; s.data = buf; s.size = sizeof buf; c.slots = &s; c.nslots = 1;
    for (timed = 0; timed < 2; timed++) {
        memset(&d, 0, sizeof d);
        d.comm = MPI_COMM_WORLD; d.timeout_ms = timed ? 20000 : 0;
        if (goal_mpi_create(&m, &d, &err) != GOAL_OK) { printf("goal_mpi_create: %s\n", err.msg); MPI_Abort(MPI_COMM_WORLD, 2); }
        for (run = 0; run < 4; run++) {
            for (k = 0; k < 8; k++) buf[k] = 100 * me + k;
            CHECK_OK(goal_mpi_run(m, &c), m);
            if (me == 0) CHECK(buf[2] == 102 && buf[3] == 100);
        }
        CHECK(m->cache && (m->cache->direct != NULL) == (me < 3));   /* ranks 3 and on: a nop, no message */
        goal_mpi_destroy(m);
    }
    report("a channel's messages count as finished in the order they were posted (DIRECT)");
}

/* A one-round schedule (DIRECT) that fails cancels its other messages, as the executor does
   (FAILURES): rank 1 receives 4 bytes from rank 0, which sends 8 (truncated), and 4 from
   rank 2, which starts later; once rank 1's wait returned the failure, rank 2's message
   must not land in rank 1's buffer. */
static int32_t build_direct_fail(goal_graph *g, const void *args, goal_error *err) {
    (void)args; (void)err;
    if (me == 0) return goal_graph_send(g, goal_buffer(0, 0, 8), 1, 1);
    if (me == 2) return goal_graph_send(g, goal_buffer(0, 0, 4), 1, 2);
    if (me != 1) return goal_graph_nop(g);
    goal_graph_recv(g, goal_buffer(0, 0, 4), 0, 1);
    return goal_graph_recv(g, goal_buffer(0, 4, 4), 2, 2);
}
static void spin(double s) {
    double t0 = MPI_Wtime();
    int flag;
    while (MPI_Wtime() - t0 < s) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}
static void test_direct_fail_cancels(void) {
    goal_mpi *m = open_mpi();
    goal_mpi_coll c;
    goal_slot s;
    int32_t buf[2], then;
    goal_status st;
    buf[0] = buf[1] = me == 1 ? -1 : 77;
    s.data = buf; s.size = sizeof buf;
    memset(&c, 0, sizeof c);
    c.build_fn = build_direct_fail; c.slots = &s; c.nslots = 1;
    if (me == 2) spin(0.3);
    st = goal_mpi_run(m, &c);
    if (me == 1) CHECK(st == GOAL_ERR_TRUNCATE);
    then = buf[1];   /* -1, unless rank 2's message came first after all (a slow rank 1) */
    MPI_Barrier(MPI_COMM_WORLD);
    spin(0.2);
    if (me == 1) CHECK(buf[1] == then);
    goal_mpi_destroy(m);
    report("a failed one-round schedule cancels its other messages (DIRECT)");
}

/* A revoked goal_mpi's unmatched messages never reach a later one: the other ranks' gather
   blocks (64 ints, sent eagerly, finished there) wait unmatched at rank 0, which revoked
   instead of joining; the next goal_mpi's first gather (the same context and tag, 16 ints)
   gives MPI's result. MPI hands a freed communicator's context to a later duplicate, stray
   messages and all (MPICH at once): a truncated recv at rank 0 before destroy kept it. */
static void test_revoked_strays(void) {
    int32_t in[64], out[64 * 8], ref[16 * 8];
    goal_algo_desc d;
    goal_mpi *m = open_mpi();
    goal_status st = GOAL_OK;
    int k, round;
    if (np > 8) { goal_mpi_destroy(m); return; }   /* out and ref hold 8 ranks' blocks */
    for (k = 0; k < 64; k++) in[k] = me * 1000 + k;
    for (round = 0; round < 2; round++) {
        algo_desc(&d, "gather_linear", round ? 16 : 64, 0);
        if (round) m = open_mpi();
        if (round || me != 0) st = goal_mpi_algo_run(m, &d, in, out);
        if (!round) {   /* rank 0 revokes once the others' blocks are sent */
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 0) CHECK(goal_mpi_revoke(m, GOAL_ERR_ARG) == GOAL_OK);
        }
        if (round || me != 0) CHECK_OK(st, m);
        goal_mpi_destroy(m);
    }
    MPI_Gather(in, 16, MPI_INT32_T, ref, 16, MPI_INT32_T, 0, MPI_COMM_WORLD);
    CHECK(me != 0 || same(out, ref, 16 * np));
    report("revoke: a revoked goal_mpi's unmatched messages never reach a later goal_mpi");
}

/* ---- goal_mpi.h: one sweep per pass, bridges, GOAL_ALGO_WHOLE --------- */
/* MPI's profiling interface counts goal_mpi.h's MPI_Testsome calls. */
static long testsome_calls;
static int testsome_widest;   /* the largest incount: one progress pass's work */
int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) {
    testsome_calls++;
    if (incount > testsome_widest) testsome_widest = incount;
    return PMPI_Testsome(incount, reqs, outcount, indices, statuses);
}
/* Eight operations in flight: one goal_mpi_test tests MPI's requests once for all of them
   (it was once per operation in flight), and every result is right. */
static void test_one_sweep(void) {
    enum { K = 8, N = 4096 };
    goal_mpi *m = open_mpi();
    goal_algo_desc d;
    goal_mpi_request *r[K];
    static int32_t buf[K][N], ref[N];
    long before;
    int i, k;
    algo_desc(&d, "bcast_chain", N, 0);
    d.segment = 64;   /* many segments: they stay in flight */
    for (k = 0; k < K; k++) {
        for (i = 0; i < N; i++) buf[k][i] = me == 0 ? i * 3 + k : -1;
        CHECK_OK(goal_mpi_algo_start(m, &d, NULL, buf[k], &r[k]), m);
    }
    before = testsome_calls;
    if (r[0]) CHECK(goal_mpi_test(&r[0]) >= 0);
    CHECK(testsome_calls - before == (np > 1));   /* np 1: nothing to test */
    for (k = 0; k < K; k++) if (r[k]) CHECK_OK(goal_mpi_wait(&r[k]), m);
    for (k = 0; k < K; k++) {
        for (i = 0; i < N; i++) ref[i] = i * 3 + k;
        CHECK(same(buf[k], ref, N));
    }
    goal_mpi_destroy(m);
    report("progress: one MPI_Testsome per pass for every operation in flight");
}

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *t) {
    int size = 0, k;
    MPI_Type_size(*t, &size);
    for (k = 0; k < *len * size / 4; k++) ((int32_t *)inout)[k] += ((const int32_t *)in)[k];
}
static void keep_first(void *in, void *inout, int *len, MPI_Datatype *t) {   /* a op b = a: not commutative */
    int size = 0;
    MPI_Type_size(*t, &size);
    memcpy(inout, in, (size_t)*len * (size_t)size);
}
/* 3 * GOAL_MPI_BRIDGES (op, type) pairs, each created, used and freed (MPI may give the next
   the freed handles, with another element size and commutativity): each reduces as itself
   (started and waited for, or run by goal_mpi_algo_run_fns, in turns), against MPI_Reduce
   with the same op and type, and bridges never run out. */
static void test_bridges_follow_handles(void) {
    enum { N = 5, MAXW = 3 };
    goal_mpi *m = open_mpi();
    int32_t in[N * MAXW], out[N * MAXW], ref[N * MAXW];
    int i, k;
    for (i = 0; i < 3 * GOAL_MPI_BRIDGES; i++) {
        int width = 1 + i % MAXW, commute = (i / MAXW) % 2;
        MPI_Datatype t;
        MPI_Op op;
        goal_mpi_reduction red;
        goal_algo_desc d;
        goal_mpi_request *r = NULL;
        MPI_Type_contiguous(width, MPI_INT32_T, &t);
        MPI_Type_commit(&t);
        MPI_Op_create(commute ? sum_ints : keep_first, commute, &op);
        for (k = 0; k < N * width; k++) { in[k] = me * 100 + k + i; out[k] = ref[k] = -1; }
        if (goal_mpi_reduction_of(t, op, N, &red) != GOAL_OK) { CHECK(!"goal_mpi_reduction_of"); break; }
        CHECK(red.noncommutative == !commute && red.fns != NULL);
        algo_desc(&d, "reduce_binomial", 0, 0);
        d.dtype = red.dtype; d.op = red.op; d.count = red.count; d.noncommutative = red.noncommutative;
        if (i % 2) CHECK_OK(goal_mpi_algo_run_fns(m, &d, red.fns, 1, in, out), m);
        else {
            CHECK_OK(goal_mpi_algo_start_fns(m, &d, red.fns, 1, in, out, &r), m);
            if (r) CHECK_OK(goal_mpi_wait(&r), m);
        }
        MPI_Reduce(in, ref, N, t, op, 0, MPI_COMM_WORLD);
        CHECK(me != 0 || same(out, ref, N * width));
        MPI_Op_free(&op);
        MPI_Type_free(&t);
    }
    goal_mpi_destroy(m);
    report("bridges: freed and reused MPI handles reduce as the new op and type, never run out");
}

/* GOAL_ALGO_WHOLE is true: a flagged reduction on bytes whose count is a multiple of 12
   never sends, receives, copies or reduces part of a 12-byte group in IN or OUT (and an
   unflagged one, allreduce_ring, does: the check sees splits). */
static int splits_groups(const char *algo, int p, int rank) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    goal_algo_desc d;
    goal_schedule s;
    goal_action a;
    uint32_t i;
    int bad = 0;
    memset(&gd, 0, sizeof gd);
    gd.rank = rank; gd.nranks = p;
    algo_desc(&d, algo, 12 * 7, 0);
    d.dtype = GOAL_UINT8; d.op = GOAL_OP_USER;
    if (goal_graph_create(&g, &gd, NULL) != GOAL_OK) return -1;
    if (goal_algo_build(g, &d, NULL, 0, NULL, NULL) < 0 || goal_compile(g, &s, NULL) != GOAL_OK) { goal_graph_destroy(g); return -1; }
    goal_graph_destroy(g);
    for (i = 0; i < s.nactions; i++) {
        goal_schedule_action(&s, i, &a);
        if (a.kind != GOAL_SEND && a.kind != GOAL_RECV && a.kind != GOAL_EXEC) continue;
        bad |= a.buf.size % 12 != 0 || (a.buf.slot <= GOAL_ALGO_SLOT_OUT && a.buf.offset % 12 != 0);
        if (a.kind == GOAL_EXEC) bad |= a.buf2.size % 12 != 0 || (a.buf2.slot <= GOAL_ALGO_SLOT_OUT && a.buf2.offset % 12 != 0);
    }
    goal_schedule_free(&s);
    return bad;
}
static void test_whole_flag(void) {
    static const int ps[] = {1, 2, 3, 5, 6, 8, 11};
    int i, k, r, flagged = 0;
    for (i = 0; goal_algo_list(i); i++) {
        const goal_algo_info *a = goal_algo_list(i);
        if (!(a->flags & GOAL_ALGO_WHOLE)) continue;
        flagged++;
        CHECK(a->flags & GOAL_ALGO_REDUCES);
        for (k = 0; k < (int)(sizeof ps / sizeof ps[0]); k++)
            for (r = 0; r < ps[k]; r++)
                if (splits_groups(a->name, ps[k], r) != 0) { printf("  %s splits at p %d rank %d\n", a->name, ps[k], r); local_ok = 0; }
    }
    CHECK(flagged >= 7 && splits_groups("allreduce_ring", 5, 1) == 1);
    report("GOAL_ALGO_WHOLE: flagged reductions never split an element");
}

/* ---- progress that scales ------------------------------------------------------------ */
/* A pipelined chain of 2*10^5 7-byte segments: 1-2 s when each segment costs O(1), minutes
   when progress tests every request in flight. The bound is on work, not
   time (a loaded machine only slows it): each progress pass tests at most one request per
   channel, a chain rank's two (from its predecessor, to its successor) and the failure
   notice, however many of the segments are in flight; figures are bench_mpi's. */
static void test_many_segments(void) {
    enum { SEGS = 200000, SEG = 7 };
    goal_mpi *m = open_mpi();
    goal_algo_desc d;
    unsigned char *buf = (unsigned char *)malloc((size_t)SEGS * SEG);
    size_t k, bad = 0;
    testsome_widest = 0;
    CHECK(buf != NULL);
    if (buf) {
        for (k = 0; k < (size_t)SEGS * SEG; k++) buf[k] = me == 0 ? (unsigned char)(k * 13 + k / 251) : 0;
        memset(&d, 0, sizeof d);
        d.algo = "bcast_chain"; d.count = (uint64_t)SEGS * SEG; d.dtype = GOAL_UINT8; d.segment = SEG;
        CHECK_OK(goal_mpi_algo_run(m, &d, buf, buf), m);
        for (k = 0; k < (size_t)SEGS * SEG; k++) bad += buf[k] != (unsigned char)(k * 13 + k / 251);
        CHECK(bad == 0);
    }
    if (testsome_widest > 3) { printf("  rank %d: an MPI_Testsome of %d requests\n", me, testsome_widest); local_ok = 0; }
    free(buf);
    goal_mpi_destroy(m);
    report("progress: bcast_chain of 200000 segments, linear");
}

/* ---- prepared collectives ------------------------------------------------------------ */
/* A prepared collective reads its buffers afresh at every run; a plain call of the same desc
   (its cache entry) does not take the prepared one's execution; blocking and nonblocking,
   in place, a schedule beyond the small plans (on the channels), COLL_auto; the misuses. */
static void test_prepared(void) {
    enum { BIG = 70000 };   /* a pipelined bcast of 512-byte segments: more than 32 messages */
    goal_mpi *m = open_mpi();
    goal_mpi_prepared *pb = NULL, *pa = NULL, *pi = NULL, *pc = NULL, *pu = NULL, *pf = NULL;
    goal_mpi_request *r = NULL, *r2 = NULL, *r3 = NULL;
    goal_mpi_desc md;
    goal_error err;
    goal_user_fn fns[1] = {add_fn};
    goal_algo_desc b, a, c, u, f;
    int32_t bbuf[2], ain[2], aout[2], acc[2], uin = 0, uout = 0, fin = 0, fout = 0, *big = (int32_t *)malloc(BIG * sizeof(int32_t));
    int round, k, root = np - 1, sum = np * (np - 1) / 2;
    long bad = 0;
    algo_desc(&b, "bcast_binomial", 2, root);
    algo_desc(&a, "allreduce_recdoub", 2, 0);
    algo_desc(&c, "bcast_chain", BIG, 0);
    c.segment = 128;
    algo_desc(&u, "allreduce_auto", 1, 0);
    algo_desc(&f, "allreduce_recdoub", 1, 0);
    f.op = GOAL_OP_USER; f.fn = 0;
    CHECK(big != NULL);
    CHECK_OK(goal_mpi_algo_prepare_fns(m, &f, fns, 1, &fin, &fout, &pf), m);
    CHECK_OK(goal_mpi_algo_prepare(m, &b, bbuf, bbuf, &pb), m);
    CHECK_OK(goal_mpi_algo_prepare(m, &a, ain, aout, &pa), m);
    CHECK_OK(goal_mpi_algo_prepare(m, &a, MPI_IN_PLACE, acc, &pi), m);
    CHECK_OK(goal_mpi_algo_prepare(m, &u, &uin, &uout, &pu), m);
    if (big) CHECK_OK(goal_mpi_algo_prepare(m, &c, big, big, &pc), m);
    b.root = 0; a.count = 99;   /* the prepared ones keep what they were given */
    for (round = 0; round < 5 && pb && pa && pi && pu; round++) {
        bbuf[0] = me == root ? 100 + round : -1; bbuf[1] = me == root ? round : -1;
        CHECK_OK(goal_mpi_prepared_run(pb), m);
        CHECK(bbuf[0] == 100 + round && bbuf[1] == round);
        ain[0] = me + round; ain[1] = 1;
        CHECK_OK(goal_mpi_prepared_run(pa), m);
        CHECK(aout[0] == sum + np * round && aout[1] == np);
        acc[0] = 2 * me; acc[1] = round;
        CHECK_OK(goal_mpi_prepared_run(pi), m);
        CHECK(acc[0] == 2 * sum && acc[1] == np * round);
        uin = round + me;
        CHECK_OK(goal_mpi_prepared_run(pu), m);
        CHECK(uout == np * round + sum);
        fin = 3 * me - round;
        CHECK_OK(goal_mpi_prepared_run(pf), m);
        CHECK(fout == 3 * sum - np * round);
        a.count = 2;   /* a plain call of the same desc, other buffers, between the runs */
        ain[0] = -5; acc[0] = me; acc[1] = 0;
        CHECK_OK(goal_mpi_algo_run(m, &a, acc, bbuf), m);
        CHECK(bbuf[0] == sum && bbuf[1] == 0);
        a.count = 99;
    }
    if (pb && pa) {   /* nonblocking, two in flight; a second start of one is refused */
        bbuf[0] = bbuf[1] = me == root ? 7 : 0;
        ain[0] = 1; ain[1] = me;
        CHECK_OK(goal_mpi_prepared_start(pb, &r), m);
        CHECK_OK(goal_mpi_prepared_start(pa, &r2), m);
        CHECK(goal_mpi_prepared_start(pb, &r3) == GOAL_ERR_STATE && r3 == NULL);
        CHECK(goal_mpi_prepared_run(pb) == GOAL_ERR_STATE);
        CHECK(goal_mpi_prepared_free(&pb) == GOAL_ERR_STATE && pb != NULL);
        CHECK_OK(goal_mpi_wait(&r), m);
        CHECK(r == NULL && bbuf[0] == 7 && bbuf[1] == 7);
    }
    if (pb && pa) {
        goal_mpi_request *rb = NULL;
        CHECK_OK(goal_mpi_wait(&r2), m);
        CHECK(aout[0] == np && aout[1] == sum);
        bbuf[0] = bbuf[1] = me == root ? 7 : 0;
        CHECK_OK(goal_mpi_prepared_start(pb, &rb), m);
        CHECK_OK(goal_mpi_wait(&rb), m);
        CHECK(bbuf[0] == 7 && bbuf[1] == 7);
    }
    for (round = 0; round < 2 && pc; round++) {   /* on the channels */
        for (k = 0; k < BIG; k++) big[k] = me == 0 ? k * 3 + round : 0;
        CHECK_OK(round ? goal_mpi_prepared_run(pc) : (goal_mpi_prepared_start(pc, &r), goal_mpi_wait(&r)), m);
        for (k = 0; k < BIG; k++) bad += big[k] != k * 3 + round;
    }
    CHECK(bad == 0);
    CHECK(goal_mpi_prepared_free(&pb) == GOAL_OK && pb == NULL);
    CHECK(goal_mpi_prepared_free(&pb) == GOAL_OK);
    CHECK(goal_mpi_prepared_free(NULL) == GOAL_ERR_ARG);
    CHECK(goal_mpi_prepared_run(NULL) == GOAL_ERR_ARG && goal_mpi_prepared_start(pa, NULL) == GOAL_ERR_ARG);
    CHECK(goal_mpi_algo_prepare(m, &a, ain, aout, NULL) == GOAL_ERR_ARG);
    algo_desc(&b, "bcast_binomial", 2, root);
    bbuf[0] = bbuf[1] = me == root ? 3 : 0;   /* the freed one's execution serves a plain call */
    CHECK_OK(goal_mpi_algo_run(m, &b, bbuf, bbuf), m);
    CHECK(bbuf[0] == 3 && bbuf[1] == 3);
    CHECK_OK(goal_mpi_prepared_free(&pa), m);
    goal_mpi_destroy(m);   /* frees pi, pu, pf and pc */
    memset(&md, 0, sizeof md);   /* CHECKS: every run compares the digests first */
    md.comm = MPI_COMM_WORLD; md.check = 1;
    CHECK(goal_mpi_create(&m, &md, &err) == GOAL_OK);
    algo_desc(&b, "bcast_binomial", 2, root);
    CHECK_OK(goal_mpi_algo_prepare(m, &b, bbuf, bbuf, &pb), m);
    for (round = 0; round < 3 && pb; round++) {
        bbuf[0] = bbuf[1] = me == root ? 40 + round : -1;
        CHECK_OK(round == 1 ? (goal_mpi_prepared_start(pb, &r), goal_mpi_wait(&r)) : goal_mpi_prepared_run(pb), m);
        CHECK(bbuf[0] == 40 + round && bbuf[1] == 40 + round);
    }
    CHECK_OK(goal_mpi_prepared_free(&pb), m);
    goal_mpi_destroy(m);
    m = open_mpi();   /* a desc no algorithm has: refused on every rank, m revoked */
    algo_desc(&b, "bcast_nosuch", 2, 0);
    CHECK(goal_mpi_algo_prepare(m, &b, bbuf, bbuf, &pb) != GOAL_OK && pb == NULL);
    CHECK(goal_mpi_algo_run(m, &a, ain, aout) != GOAL_OK);
    goal_mpi_destroy(m);
    free(big);
    report("prepared collectives: runs read their buffers afresh, nonblocking, on the channels, a user function, checks, misuse refused");
}

/* goal_mpi_prepare: a schedule of one's own prepared, from a plan (DIRECT: build_plan, a
   user function on each side of its messages) and on the channels (40 messages of
   build_rounds); the slots array is read at the prepare only, the data at each run. */
static void test_prepared_coll(void) {
    static const ring_rounds many = {20, 0};
    goal_mpi *m = open_mpi();
    goal_mpi_prepared *pd = NULL, *pr = NULL;
    goal_mpi_coll c, cr;
    goal_user_fn fns[1] = {add_fn};
    goal_slot slots[2], rslots[2];
    int32_t in[2], out[2], rin = me + 1, rout[20];
    int k, run, left = (me + np - 1) % np;
    memset(&c, 0, sizeof c);
    memset(&cr, 0, sizeof cr);
    c.build_fn = build_plan; c.slots = slots; c.nslots = 2; c.user_fns = fns; c.nuser_fns = 1;
    slots[0].data = in; slots[0].size = sizeof in; slots[1].data = out; slots[1].size = sizeof out;
    cr.build_fn = build_rounds; cr.args = &many; cr.key = &many; cr.keylen = sizeof many; cr.slots = rslots; cr.nslots = 2;
    rslots[0].data = &rin; rslots[0].size = 4; rslots[1].data = rout; rslots[1].size = sizeof rout;
    CHECK_OK(goal_mpi_prepare(m, &c, &pd), m);
    CHECK_OK(goal_mpi_prepare(m, &cr, &pr), m);
    slots[0].data = slots[1].data = NULL; rslots[1].size = 0;
    for (k = 0; pd && pr && k < 4; k++) {
        int32_t want = 2 * ((left + 1 + k) + 10 * (left + 1)) + 10 * (me + 1), sum = 0;
        in[0] = me + 1 + k; in[1] = 10 * (me + 1); out[0] = out[1] = -1;
        CHECK_OK(goal_mpi_prepared_run(pd), m);
        CHECK(out[0] == want && out[1] == want);
        for (run = 0; run < 20; run++) rout[run] = -1;
        CHECK_OK(goal_mpi_prepared_run(pr), m);
        for (run = 0; run < 20; run++) {
            sum += (me - run - 1 + 2 * np * 20) % np + 1 + (run == 0 ? me + 1 : 0);
            CHECK(rout[run] == sum);
        }
    }
    CHECK_OK(goal_mpi_prepared_free(&pd), m);
    CHECK(goal_mpi_prepare(m, NULL, &pd) == GOAL_ERR_ARG && pd == NULL);
    CHECK(goal_mpi_prepare(m, &c, NULL) == GOAL_ERR_ARG);
    c.build_fn = NULL;
    CHECK(goal_mpi_prepare(m, &c, &pd) == GOAL_ERR_ARG && pd == NULL);
    goal_mpi_destroy(m);   /* frees pr */
    report("prepared schedules of one's own (goal_mpi_prepare): from a plan and on the channels, the data read at each run");
}

/* ---- checks: parameters that disagree, and a rank that never comes -------------------- */
/* Calls that take turns each find their start again in the memo, none evicting another, so
   that a loop over them does not rebuild its key every call: one call at every root (up to
   16), and 4 descs in a goal_mpi that holds no others (here two ops on two types). */
static void test_memo_turns(void) {
    static const goal_op ops[2] = {GOAL_OP_SUM, GOAL_OP_MAX};
    static const goal_dtype types[2] = {GOAL_INT32, GOAL_FLOAT64};
    goal_algo_desc d[16];
    double in[4] = {1, 2, 3, 4}, out[4];
    int k, n, round, set;
    for (set = 0; set < 2; set++) {
        goal_mpi *m = open_mpi();
        for (k = n = 0; set == 0 && k < np && k < 16; k++, n++) algo_desc(&d[n], "bcast_binomial", 4, k);
        for (k = 0; set == 1 && k < 4; k++, n++) { algo_desc(&d[n], "allreduce_recdoub", 4, 0); d[n].op = ops[k & 1]; d[n].dtype = types[k >> 1]; }
        for (round = 0; round < 2; round++)
            for (k = 0; k < n; k++) CHECK_OK(goal_mpi_algo_run(m, &d[k], in, out), m);
        for (k = 0; k < n; k++) CHECK(goal__mpi_memo_find(m, &d[k], 0) != NULL);
        goal_mpi_destroy(m);
    }
    report("the memo keeps calls that take turns at the root, op and type");
}
/* A repeated call whose buffers change between calls: the reused request is bound again and
   its plan's addresses follow (gather into two outputs in turns; allreduce from its input
   and in place in turns, the same desc). */
static void test_rebind(void) {
    goal_mpi *m = open_mpi();
    goal_algo_desc g, a;
    int32_t in[2][2], out[2][2 * 64], acc[2], sum;
    int round, k, ok = 1;
    algo_desc(&g, "gather_binomial", 2, 0);
    algo_desc(&a, "allreduce_recdoub", 2, 0);
    for (round = 0; round < 6 && np <= 64; round++) {
        int t = round & 1;
        in[t][0] = me * 10 + round; in[t][1] = -me;
        memset(out[t], 0, sizeof out[t]);
        CHECK_OK(goal_mpi_algo_run(m, &g, in[t], out[t]), m);
        for (k = 0; me == 0 && k < np; k++) ok &= out[t][2 * k] == k * 10 + round && out[t][2 * k + 1] == -k;
        acc[0] = me + round; acc[1] = 1;
        if (t) CHECK_OK(goal_mpi_algo_run(m, &a, MPI_IN_PLACE, acc), m);
        else { in[0][0] = acc[0]; in[0][1] = 1; CHECK_OK(goal_mpi_algo_run(m, &a, in[0], acc), m); }
        sum = np * (np - 1) / 2 + np * round;
        ok &= acc[0] == sum && acc[1] == np;
    }
    CHECK(ok);
    goal_mpi_destroy(m);
    report("a repeated call with other buffers (and in place in turns) reads and writes the new ones");
}
static void test_check(void) {
    goal_mpi *m = NULL;
    goal_mpi_desc md;
    goal_error err;
    goal_algo_desc d;
    int32_t buf[16];
    goal_status st;
    int k;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD; md.check = 1;
    CHECK(goal_mpi_create(&m, &md, &err) == GOAL_OK);
    if (!m) { report("check"); return; }
    memset(buf, 0, sizeof buf);
    algo_desc(&d, "bcast_binomial", 16, 0);
    CHECK_OK(goal_mpi_algo_run(m, &d, buf, buf), m);   /* agreeing ranks pass the check */
    algo_desc(&d, "bcast_binomial", 8, 0);   /* offsets are each rank's own: not compared */
    d.in_offset = d.out_offset = me % 2 ? 32 : 0;
    for (k = 0; k < 16; k++) buf[k] = me == 0 ? k + 1 : 0;
    CHECK_OK(goal_mpi_algo_run(m, &d, buf, buf), m);
    for (k = 0; k < 8; k++) CHECK(buf[(me % 2 ? 8 : 0) + k] == k + 1);
    algo_desc(&d, "bcast_binomial", 16, 0);
    d.count = me == 0 ? 8 : 16;   /* the root says 8, the others 16 */
    st = goal_mpi_algo_run(m, &d, buf, buf);
    CHECK(np == 1 ? st == GOAL_OK : st == GOAL_ERR_MATCH && strstr(error_of(m), "disagree") != NULL);
    goal_mpi_destroy(m);
    report("check: a count that differs between ranks fails on every rank, offsets are not compared");
}
static void test_timeout(void) {
    goal_mpi *m = NULL;
    goal_mpi_desc md;
    goal_error err;
    goal_algo_desc d;
    int32_t buf[16];
    goal_status st = GOAL_OK;
    int said, any = 0;
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD; md.timeout_ms = 200;
    CHECK(goal_mpi_create(&m, &md, &err) == GOAL_OK);
    if (!m) { report("timeout"); return; }
    algo_desc(&d, "bcast_binomial", 16, 0);
    if (me != 0) st = goal_mpi_algo_run(m, &d, buf, buf);   /* the root never comes */
    /* the first to time out says so; the others may learn it from its revoke first */
    CHECK(me == 0 || (st == GOAL_ERR_TRANSPORT && (strstr(error_of(m), "200 ms") != NULL ||
                                                   strstr(error_of(m), "revoked") != NULL)));
    said = me != 0 && strstr(error_of(m), "200 ms") != NULL;
    MPI_Allreduce(&said, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    CHECK(any);
    goal_mpi_destroy(m);
    report("timeout: waits for a rank that never comes fail after timeout_ms");
}

/* Integer and floating types with a predefined op reduce natively (no MPI_Reduce_local
   bridge), as the libgoal type of their width. */
static void test_native_types(void) {
    static const struct { MPI_Datatype t; goal_dtype want; } c[] = {
        {MPI_SIGNED_CHAR, GOAL_INT8}, {MPI_SHORT, GOAL_INT16}, {MPI_INT, GOAL_INT32}, {MPI_LONG_LONG, GOAL_INT64},
        {MPI_UNSIGNED_CHAR, GOAL_UINT8}, {MPI_UNSIGNED_SHORT, GOAL_UINT16}, {MPI_UNSIGNED, GOAL_UINT32},
        {MPI_UINT64_T, GOAL_UINT64}, {MPI_FLOAT, GOAL_FLOAT32}, {MPI_DOUBLE, GOAL_FLOAT64}};
    size_t k;
    for (k = 0; k < sizeof c / sizeof c[0]; k++) {
        goal_mpi_reduction red;
        CHECK(goal_mpi_reduction_of(c[k].t, MPI_SUM, 3, &red) == GOAL_OK);
        CHECK(red.fns == NULL && red.op == GOAL_OP_SUM && red.dtype == c[k].want && red.count == 3);
    }
    report("predefined integer and floating types reduce natively");
}

int main(int argc, char **argv) {
    int counts[2], total[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    local_ok = 1;
    test_native_types();
    test_all_algorithms();
    test_in_place_algorithms();
    test_vector_algorithms();
    test_auto();
    test_auto_in_place();
    test_in_flight();
    test_flat_mixed();
    test_one_sweep();
    test_bridges_follow_handles();
    test_whole_flag();
    test_reuse();
    if (np <= 4) test_many_segments();   /* further oversubscribed it checks nothing more, only slower */
    test_check();
    test_memo_turns();
    test_rebind();
    test_prepared();
    test_prepared_coll();
    test_any_source();
    test_any_source_window();
    test_limits();
    if (np >= 2) test_truncate();
    test_fault_transport();
    test_fault_userfn();
    if (np >= 2) test_direct_plan();
    if (np >= 2) test_rounds();
    if (np >= 3) test_channel_order();
    if (np >= 3) test_direct_fail_cancels();
    if (np >= 2) test_revoked_strays();
    if (np >= 2) test_timeout();
    counts[0] = passed; counts[1] = failed;
    MPI_Reduce(counts, total, 2, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);   /* equal on all ranks */
    if (me == 0) printf("%d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return failed != 0;
}
