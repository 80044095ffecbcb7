/* test_dropin.c - libgoalmpi under an unmodified program: every intercepted call, per
   datatype class and op class, in place and not, blocking and nonblocking, checked against
   the PMPI_ call on the same data (PMPI_ bypasses the drop-in). Then many nonblocking
   collectives on several communicators completed in scrambled order by each completion
   call, mixed with point-to-point traffic; and float allreduces bit-identical on all ranks.
   Run with the drop-in preloaded; rank 0 prints "ok NAME" / "FAIL NAME" and the count line. */
#define _GNU_SOURCE   /* RTLD_DEFAULT */
#include <mpi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <complex.h>

static int me, np, passed, failed, local_ok;
#define CHECK(c) do { if (!(c)) { printf("  check failed: rank %d: line %d: %s\n", me, __LINE__, #c); local_ok = 0; } } while (0)
static void report(const char *name) {
    int all = 0;
    fflush(stdout);
    PMPI_Allreduce(&local_ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all) passed++; else failed++;
    if (me == 0) printf("%s %s np%d\n", all ? "ok" : "FAIL", name, np);
    local_ok = 1;
}

/* ---- types and ops ------------------------------------------------------------------------ */
typedef struct { double v; int i; } dint;
typedef struct { int v, i; } iint;
static MPI_Datatype mat_t, tri_t, vec_t;   /* 2x2 int matrices (4 ints); 3 contiguous ints; ints 0 and 2 of 3 */
static MPI_Op mat_mul, user_sum;
/* 2x2 integer matrix product, wrapping: associative, not commutative. inout = in x inout. */
static void mat_fn(void *in, void *inout, int *len, MPI_Datatype *t) {
    unsigned *a = (unsigned *)in, *b = (unsigned *)inout;
    int k;
    (void)t;
    for (k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}
static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *t) {
    int k, *a = (int *)in, *b = (int *)inout;
    (void)t;
    for (k = 0; k < *len; k++) b[k] += a[k];
}

typedef struct tcase { const char *name; MPI_Datatype *t; size_t ext; int reduce; } tcase;
enum { T_INT, T_DOUBLE, T_LDOUBLE, T_COMPLEX, T_DINT, T_IINT, T_MAT, T_TRI, T_VEC, NT };
static tcase types[NT] = {
    {"int", NULL, sizeof(int), 1}, {"double", NULL, sizeof(double), 1}, {"long double", NULL, sizeof(long double), 1},
    {"double complex", NULL, sizeof(double _Complex), 1}, {"double_int", NULL, sizeof(dint), 1},
    {"2int", NULL, sizeof(iint), 1}, {"matrix (user, non-commutative)", &mat_t, 16, 1}, {"3 ints (derived)", &tri_t, 12, 0},
    {"2 of 3 ints (derived, non-contiguous: packed)", &vec_t, 12, 0}};
static MPI_Datatype int_t = MPI_INT, dbl_t = MPI_DOUBLE, ld_t = MPI_LONG_DOUBLE, cx_t = MPI_C_DOUBLE_COMPLEX,
                    dint_t = MPI_DOUBLE_INT, iint_t = MPI_2INT;
/* The ops tried on each type (op classes: arithmetic, bitwise, logical, max/min, loc, user). */
static MPI_Op *ops_of(int t, int *n) {
    static MPI_Op o[NT][5];
    static int k[NT];
    static int made;
    if (!made) {
        made = 1;
        o[T_INT][0] = MPI_SUM; o[T_INT][1] = MPI_BAND; o[T_INT][2] = MPI_LXOR; o[T_INT][3] = MPI_MAX; o[T_INT][4] = user_sum; k[T_INT] = 5;
        o[T_DOUBLE][0] = MPI_SUM; o[T_DOUBLE][1] = MPI_MIN; k[T_DOUBLE] = 2;
        o[T_LDOUBLE][0] = MPI_SUM; o[T_LDOUBLE][1] = MPI_MAX; k[T_LDOUBLE] = 2;
        o[T_COMPLEX][0] = MPI_SUM; o[T_COMPLEX][1] = MPI_PROD; k[T_COMPLEX] = 2;
        o[T_DINT][0] = MPI_MINLOC; o[T_DINT][1] = MPI_MAXLOC; k[T_DINT] = 2;
        o[T_IINT][0] = MPI_MAXLOC; k[T_IINT] = 1;
        o[T_MAT][0] = mat_mul; k[T_MAT] = 1;
    }
    *n = k[t];
    return o[t];
}
/* Element e of rank r's data of type t into p (values exact in every type, products small). */
static void put(int t, unsigned char *p, int r, int e) {
    int v = (r * 7 + e * 3) % 11 + 1;
    switch (t) {
    case T_INT: { int x = v + (e % 5 == 0 ? 1024 * r : 0); memcpy(p, &x, sizeof x); break; }
    case T_DOUBLE: { double x = v; memcpy(p, &x, sizeof x); break; }
    case T_LDOUBLE: { long double x = v; memcpy(p, &x, sizeof x); break; }
    case T_COMPLEX: { double x[2] = {v % 3 + 1, (v + r) % 2}; memcpy(p, x, sizeof x); break; }
    case T_DINT: { dint x; memset(&x, 0, sizeof x); x.v = v % 4; x.i = r; memcpy(p, &x, sizeof x); break; }
    case T_IINT: { iint x = {v % 4, r}; memcpy(p, &x, sizeof x); break; }
    case T_MAT: { unsigned x[4] = {(unsigned)v, 1u, (unsigned)r, 2u}; memcpy(p, x, sizeof x); break; }
    default: { int x[3] = {v, r, e}; memcpy(p, x, sizeof x); break; }
    }
}
static void fill(int t, unsigned char *p, int r, int n) { int e; memset(p, 0, (size_t)n * types[t].ext); for (e = 0; e < n; e++) put(t, p + (size_t)e * types[t].ext, r, e); }

/* ---- one call against PMPI ---------------------------------------------------------------- */
enum { K_ALLREDUCE, K_REDUCE, K_SCAN, K_EXSCAN, K_RSB, K_RS, K_BCAST, K_GATHER, K_SCATTER, K_ALLGATHER, K_ALLTOALL,
       K_GATHERV, K_SCATTERV, K_ALLGATHERV, K_ALLTOALLV, NK };
static const char *kname[NK] = {"allreduce", "reduce", "scan", "exscan", "reduce_scatter_block", "reduce_scatter",
                                "bcast", "gather", "scatter", "allgather", "alltoall", "gatherv", "scatterv",
                                "allgatherv", "alltoallv"};
enum { N = 5 };
static unsigned char *in, *a, *b;   /* input; the drop-in's output; PMPI's output */
static int counts[64], displs[64];

/* Runs call k on (in -> out): drop-in when lib is 0, else PMPI; nonblocking when nb. */
static void call(int k, int lib, int nb, int inplace, MPI_Datatype t, MPI_Op op, unsigned char *out, int root, size_t ext) {
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Request *qp = nb ? &q : NULL;
    const void *s = inplace ? MPI_IN_PLACE : in;
    int rc = MPI_SUCCESS;
#define C2(F, IF, ...) (lib ? (qp ? PMPI_##IF(__VA_ARGS__, qp) : PMPI_##F(__VA_ARGS__)) : (qp ? MPI_##IF(__VA_ARGS__, qp) : MPI_##F(__VA_ARGS__)))
    switch (k) {
    case K_ALLREDUCE: rc = C2(Allreduce, Iallreduce, s, out, N, t, op, MPI_COMM_WORLD); break;
    case K_REDUCE: rc = C2(Reduce, Ireduce, inplace && me != root ? (const void *)in : s, out, N, t, op, root, MPI_COMM_WORLD); break;
    case K_SCAN: rc = C2(Scan, Iscan, s, out, N, t, op, MPI_COMM_WORLD); break;
    case K_EXSCAN: rc = C2(Exscan, Iexscan, s, out, N, t, op, MPI_COMM_WORLD); break;
    case K_RSB: rc = C2(Reduce_scatter_block, Ireduce_scatter_block, s, out, N, t, op, MPI_COMM_WORLD); break;
    case K_RS: rc = C2(Reduce_scatter, Ireduce_scatter, s, out, counts, t, op, MPI_COMM_WORLD); break;
    case K_BCAST: rc = C2(Bcast, Ibcast, out, N, t, root, MPI_COMM_WORLD); break;
    case K_GATHER: rc = C2(Gather, Igather, inplace && me == root ? MPI_IN_PLACE : (const void *)in, N, t, out, N, t, root, MPI_COMM_WORLD); break;
    case K_SCATTER: rc = C2(Scatter, Iscatter, in, N, t, inplace && me == root ? MPI_IN_PLACE : (void *)(out), N, t, root, MPI_COMM_WORLD); break;
    case K_ALLGATHER: rc = C2(Allgather, Iallgather, s, N, t, out, N, t, MPI_COMM_WORLD); break;
    case K_ALLTOALL: rc = C2(Alltoall, Ialltoall, s, N, t, out, N, t, MPI_COMM_WORLD); break;
    case K_GATHERV: rc = C2(Gatherv, Igatherv, inplace && me == root ? MPI_IN_PLACE : (const void *)in, counts[me], t, out, counts, displs, t, root, MPI_COMM_WORLD); break;
    case K_SCATTERV: rc = C2(Scatterv, Iscatterv, in, counts, displs, t, inplace && me == root ? MPI_IN_PLACE : (void *)out, counts[me], t, root, MPI_COMM_WORLD); break;
    case K_ALLGATHERV: rc = C2(Allgatherv, Iallgatherv, s, counts[me], t, out, counts, displs, t, MPI_COMM_WORLD); break;
    default: rc = C2(Alltoallv, Ialltoallv, s, counts, displs, t, out, counts, displs, t, MPI_COMM_WORLD); break;
    }
    (void)ext;
    CHECK(rc == MPI_SUCCESS);
    if (nb) { if (lib) PMPI_Wait(&q, MPI_STATUS_IGNORE); else MPI_Wait(&q, MPI_STATUS_IGNORE); }
}
/* Whether call k takes op, and in place for it (MPI's rules). */
static int reduces(int k) { return k <= K_RS; }
static int has_inplace(int k) { return k != K_BCAST && k != K_EXSCAN; }

/* The bytes of the result to compare on this rank. */
static size_t result_bytes(int k, int root, size_t ext) {
    size_t blk = N * ext, all = (size_t)np * blk, v = 0;
    int i;
    for (i = 0; i < np; i++) v += (size_t)counts[i];
    switch (k) {
    case K_REDUCE: return me == root ? blk : 0;
    case K_EXSCAN: return me == 0 ? 0 : blk;
    case K_RSB: return blk;
    case K_RS: return (size_t)counts[me] * ext;
    case K_GATHER: return me == root ? all : 0;
    case K_ALLGATHER: case K_ALLTOALL: return all;
    case K_GATHERV: return me == root ? (size_t)(displs[np - 1] + counts[np - 1]) * ext : 0;
    case K_SCATTERV: return (size_t)counts[me] * ext;
    case K_ALLGATHERV: return (size_t)(displs[np - 1] + counts[np - 1]) * ext;
    case K_ALLTOALLV: return (size_t)(displs[np - 1] + counts[np - 1]) * ext;
    default: (void)v; return blk;
    }
}
static void one(int k, int t, MPI_Op op, int inplace, int nb) {
    size_t ext = types[t].ext, big = (size_t)np * N * ext * 2 + 64;
    int root = np > 1 ? 1 : 0, pass;
    for (pass = 0; pass < 2; pass++) {
        unsigned char *out = pass ? b : a;
        fill(t, in, me, 2 * np * N);
        memset(out, 0xA5, big);
        /* In place, the input lives in the output buffer (MPI's layout for each call). */
        if (inplace) {
            size_t at = k == K_GATHER || k == K_ALLGATHER ? (size_t)(k == K_GATHER ? root : me) * N * ext
                      : k == K_GATHERV || k == K_ALLGATHERV ? (size_t)displs[k == K_GATHERV ? root : me] * ext : 0;
            size_t len = k == K_RSB || k == K_RS || k == K_ALLTOALL ? (size_t)np * N * ext
                       : k == K_GATHERV || k == K_ALLGATHERV ? (size_t)counts[me] * ext
                       : k == K_ALLTOALLV ? (size_t)(displs[np - 1] + counts[np - 1]) * ext : N * ext;
            if (k != K_SCATTER && k != K_SCATTERV) memcpy(out + at, in, len);
            if (k == K_SCATTER && me == root) memcpy(out, in + (size_t)root * N * ext, N * ext);
            if (k == K_SCATTERV && me == root) memcpy(out, in + (size_t)displs[root] * ext, (size_t)counts[root] * ext);
        }
        if (k == K_BCAST && me != root) memset(out, 0, N * ext);
        if (k == K_BCAST && me == root) memcpy(out, in, N * ext);
        call(k, pass, nb, inplace, *types[t].t, op, out, root, ext);
    }
    if (t == T_DINT || t == T_LDOUBLE) {   /* padding: MPI leaves it or not, libgoal moves it; compare values */
        size_t e, used = t == T_DINT ? sizeof(double) + sizeof(int) : 10;   /* x87: 10 bytes of 16 */
        for (e = 0; e + ext <= big; e += ext) { memset(a + e + used, 0, ext - used); memset(b + e + used, 0, ext - used); }
    }
    {
        size_t n = result_bytes(k, root, ext);
        if (k == K_SCATTER && inplace && me == root) n = 0;      /* root's block stays in sendbuf */
        if (k == K_SCATTERV && inplace && me == root) n = 0;
        CHECK(memcmp(a, b, n) == 0);
        if (memcmp(a, b, n)) printf("  rank %d: %s on %s, op %d, %s%s differs from PMPI\n", me, kname[k], types[t].name,
                                    (int)(op == MPI_SUM), inplace ? "in place, " : "", nb ? "nonblocking" : "blocking");
    }
}

static void test_calls(void) {
    int k, t, ip, nb, o, nops, i;
    char name[160];
    for (i = 0; i < np; i++) { counts[i] = (i * 3) % 4 + 1; displs[i] = i ? displs[i - 1] + counts[i - 1] + 1 : 0; }
    for (k = 0; k < NK; k++)
        for (t = 0; t < NT; t++) {
            MPI_Op *ops = ops_of(t, &nops);
            if (reduces(k) && !types[t].reduce) continue;
            if (!reduces(k)) nops = 1;
            if (k == K_RS || k == K_ALLTOALLV || k >= K_GATHERV) { /* v-calls: counts vary */ }
            for (o = 0; o < nops; o++)
                for (ip = 0; ip <= has_inplace(k); ip++)
                    for (nb = 0; nb < 2; nb++) {
                        if (k == K_ALLTOALLV) { int j; for (j = 0; j < np; j++) { counts[j] = 2; displs[j] = 3 * j; } }
                        one(k, t, reduces(k) ? ops[o] : MPI_SUM, ip, nb);
                        if (k == K_ALLTOALLV) for (i = 0; i < np; i++) { counts[i] = (i * 3) % 4 + 1; displs[i] = i ? displs[i - 1] + counts[i - 1] + 1 : 0; }
                        snprintf(name, sizeof name, "%s %s op%d%s%s", kname[k], types[t].name, o, ip ? " in place" : "", nb ? " nonblocking" : "");
                        report(name);
                    }
        }
}

/* ---- nonblocking in flight, scrambled completion, point-to-point between ------------------ */
static void test_scrambled(void) {
    enum { M = 12 };
    MPI_Comm comms[3];
    MPI_Request q[M + 2];
    MPI_Status sts[M + 2];
    int x[M][8], y[M][8], ref[M][8], i, j, way, token = me, got = -1;
    for (i = 0; i < 3; i++) PMPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    for (way = 0; way < 6; way++) {
        for (i = 0; i < M; i++) {
            for (j = 0; j < 8; j++) { x[i][j] = me * 100 + i * 10 + j + way; y[i][j] = -1; }
            MPI_Iallreduce(x[i], y[i], 8, MPI_INT, MPI_SUM, comms[i % 3], &q[i]);
        }
        /* the program's own traffic, in the middle of it */
        MPI_Irecv(&got, 1, MPI_INT, (me + np - 1) % np, 99, MPI_COMM_WORLD, &q[M]);
        MPI_Isend(&token, 1, MPI_INT, (me + 1) % np, 99, MPI_COMM_WORLD, &q[M + 1]);
        switch (way) {
        case 0: for (i = M + 1; i >= 0; i--) MPI_Wait(&q[(i * 5) % (M + 2)], MPI_STATUS_IGNORE); break;
        case 1: { int f = 0; while (!f) MPI_Testall(M + 2, q, &f, sts); break; }
        case 2: MPI_Waitall(M + 2, q, sts); break;
        case 3: for (i = 0; i < M + 2; i++) { int idx; MPI_Waitany(M + 2, q, &idx, MPI_STATUS_IGNORE); } break;
        case 4: { int left = M + 2, out, idx[M + 2]; while (left > 0) { MPI_Waitsome(M + 2, q, &out, idx, sts); if (out != MPI_UNDEFINED) left -= out; } break; }
        default: { int left = M + 2; while (left > 0) { int out = 0, idx[M + 2], f = 0, w;
                     MPI_Testsome(M + 2, q, &out, idx, sts); if (out != MPI_UNDEFINED) left -= out;
                     MPI_Testany(M + 2, q, &w, &f, MPI_STATUS_IGNORE); if (f && w != MPI_UNDEFINED) left--;
                     for (i = 0; i < M + 2 && left > 0; i++) { int f1 = 0; if (q[i] != MPI_REQUEST_NULL) { MPI_Test(&q[i], &f1, MPI_STATUS_IGNORE); if (f1) left--; } } }
                   break; }
        }
        for (i = 0; i < M; i++) { PMPI_Allreduce(x[i], ref[i], 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD); CHECK(!memcmp(y[i], ref[i], sizeof ref[i])); }
        CHECK(got == (me + np - 1) % np);
        report(way == 0 ? "scrambled MPI_Wait" : way == 1 ? "scrambled MPI_Testall" : way == 2 ? "scrambled MPI_Waitall"
               : way == 3 ? "scrambled MPI_Waitany" : way == 4 ? "scrambled MPI_Waitsome" : "scrambled MPI_Testsome/Testany/Test");
    }
    for (i = 0; i < 3; i++) MPI_Comm_free(&comms[i]);
}

/* ---- large messages: the default table's bandwidth-optimal reductions, and the fallbacks ---- */
/* Past 2048 bytes reduce and allreduce run Rabenseifner's algorithm; types libgoal cannot
   split (long double, DOUBLE_INT) and non-commutative ops fall back to reduce_binomial /
   allreduce_recdoub. Each against PMPI on the same data, in place and not. */
static void test_large(void) {
    enum { L = 4096 };
    static const int tk[4] = {T_DOUBLE, T_LDOUBLE, T_DINT, T_MAT};
    int i, ip, k, root;
    char name[96];
    for (i = 0; i < 4; i++)
        for (k = 0; k < 2; k++)
            for (ip = 0; ip < 2; ip++) {
                root = np > 1 && !ip ? 1 : 0;   /* MPICH 4.0's own MPI_Reduce crashes in place at a root
                                                   other than 0 from 2048 bytes (np 2) */
                int t = tk[i], n = L / (int)types[t].ext * 8, pass, nops;   /* 32 KB */
                MPI_Op op = ops_of(t, &nops)[0];
                size_t bytes = (size_t)n * types[t].ext;
                for (pass = 0; pass < 2; pass++) {
                    unsigned char *out = pass ? b : a;
                    const void *s = ip && (k == 0 || me == root) ? MPI_IN_PLACE : in;
                    fill(t, in, me, n);
                    memset(out, 0, bytes);
                    if (s == MPI_IN_PLACE) memcpy(out, in, bytes);
                    if (k == 0) CHECK((pass ? PMPI_Allreduce : MPI_Allreduce)(s, out, n, *types[t].t, op, MPI_COMM_WORLD) == MPI_SUCCESS);
                    else CHECK((pass ? PMPI_Reduce : MPI_Reduce)(s, out, n, *types[t].t, op, root, MPI_COMM_WORLD) == MPI_SUCCESS);
                }
                if (t == T_DINT || t == T_LDOUBLE) {   /* padding, as in one() */
                    size_t e, used = t == T_DINT ? sizeof(double) + sizeof(int) : 10;
                    for (e = 0; e + types[t].ext <= bytes; e += types[t].ext) { memset(a + e + used, 0, types[t].ext - used); memset(b + e + used, 0, types[t].ext - used); }
                }
                CHECK((k == 1 && me != root) || !memcmp(a, b, bytes));
                snprintf(name, sizeof name, "%s %s 32 KB%s", k ? "reduce" : "allreduce", types[t].name, ip ? " in place" : "");
                report(name);
            }
}

/* ---- handles freed while a nonblocking collective is in flight ------------------------------ */
/* MPI lets the caller free a datatype or op once a nonblocking call returned, and
   MPI_Op_create hand the freed op's handle to a new op before the wait: the call must
   complete as started. Each against PMPI on the same data; tests/test_mpi.sh checks in the
   stats that the drop-in served them (nothing passed on). */
static void max_fn(void *in, void *inout, int *len, MPI_Datatype *t) {
    int k, *x = (int *)in, *y = (int *)inout;
    (void)t;
    for (k = 0; k < *len; k++) y[k] = x[k] > y[k] ? x[k] : y[k];
}
static void pair_sum_fn(void *in, void *inout, int *len, MPI_Datatype *t) {   /* elements of 2 ints */
    int k, *x = (int *)in, *y = (int *)inout;
    (void)t;
    for (k = 0; k < 2 * *len; k++) y[k] += x[k];
}
static void test_handles(void) {
    enum { H = 6 };
    int x[2 * H], got[2 * H], ref[2 * H], i, k, root = np - 1;
    static int gin[2 * H], gout[3 * H * 64], gref[3 * H * 64];
    MPI_Request q;
    MPI_Op op, other;
    MPI_Datatype t, t2;
    for (i = 0; i < 2 * H; i++) x[i] = me * 10 + i + 1;
    for (k = 0; k < 3; k++) {   /* Iallreduce, Ireduce, then Iallreduce with a new max op made before the wait */
        MPI_Op_create(sum_fn, 1, &op);
        memset(got, 0, sizeof got);
        if (k == 1) MPI_Ireduce(x, got, H, MPI_INT, op, root, MPI_COMM_WORLD, &q);
        else MPI_Iallreduce(x, got, H, MPI_INT, op, MPI_COMM_WORLD, &q);
        MPI_Op_free(&op);
        CHECK(op == MPI_OP_NULL);
        if (k == 2) MPI_Op_create(max_fn, 1, &other);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        if (k == 2) MPI_Op_free(&other);
        PMPI_Allreduce(x, ref, H, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK((k == 1 && me != root) || !memcmp(got, ref, H * sizeof(int)));
        report(k == 0 ? "handles: user op freed after Iallreduce" : k == 1 ? "handles: user op freed after Ireduce"
               : "handles: user op freed after Iallreduce, a max op made before the wait: the sum");
    }
    /* a derived type and a user op on it, both freed, a new type and op made before the wait */
    MPI_Type_contiguous(2, MPI_INT, &t); MPI_Type_commit(&t);
    MPI_Op_create(pair_sum_fn, 1, &op);
    memset(got, 0, sizeof got);
    MPI_Iallreduce(x, got, H, t, op, MPI_COMM_WORLD, &q);
    MPI_Op_free(&op); MPI_Type_free(&t);
    MPI_Type_contiguous(3, MPI_INT, &t2); MPI_Type_commit(&t2);
    MPI_Op_create(max_fn, 1, &other);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Op_free(&other); MPI_Type_free(&t2);
    PMPI_Allreduce(x, ref, 2 * H, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(!memcmp(got, ref, sizeof ref));
    report("handles: derived type and user op freed after Iallreduce, new ones made before the wait");
    /* a non-contiguous receive type (ints 0 and 2 of 3), freed after Igather, another made */
    for (i = 0; i < 2 * H; i++) gin[i] = me * 100 + i;
    memset(gout, 0, sizeof gout); memset(gref, 0, sizeof gref);
    MPI_Type_vector(2, 1, 2, MPI_INT, &t); MPI_Type_commit(&t);
    MPI_Igather(gin, 2 * H, MPI_INT, gout, H, t, root, MPI_COMM_WORLD, &q);
    MPI_Type_free(&t);
    CHECK(t == MPI_DATATYPE_NULL);
    MPI_Type_vector(3, 1, 3, MPI_INT, &t2); MPI_Type_commit(&t2);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Type_free(&t2);
    PMPI_Gather(gin, 2 * H, MPI_INT, gref, H, vec_t, root, MPI_COMM_WORLD);
    CHECK(me != root || !memcmp(gout, gref, sizeof gout));
    report("handles: non-contiguous receive type freed after Igather");
}

/* ---- a few bcasts and allreduces, for tests/test_mpi.sh's bad GOAL_MPI_ALGOS -------------- */
/* Each size class of the default table (8 bytes, 4 KB, 64 KB) against PMPI, root 0 and last. */
static void test_algos(void) {
    static int x[16384], y[16384], ref[16384];
    static const int sizes[3] = {2, 1024, 16384};
    int s, i, root;
    for (s = 0; s < 3; s++)
        for (root = 0; root < np; root += np > 1 ? np - 1 : 1) {
            int n = sizes[s];
            for (i = 0; i < n; i++) { x[i] = me * 1000 + i; y[i] = me == root ? x[i] : -1; }
            MPI_Bcast(y, n, MPI_INT, root, MPI_COMM_WORLD);
            for (i = 0; i < n; i++) CHECK(y[i] == root * 1000 + i);
            MPI_Allreduce(x, y, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            PMPI_Allreduce(x, ref, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            CHECK(!memcmp(y, ref, (size_t)n * sizeof(int)));
        }
    report("bcast and allreduce at 8 B, 4 KB, 64 KB");
}

/* ---- the stats' Fortran counts --------------------------------------------------------------- */
/* Three allreduces, the first and the last marked as from Fortran through the drop-in's hook
   (what its Fortran entry points set around their calls): tests/test_mpi.sh reads
   "allreduce: 3 libgoal (2 from Fortran)" in the stats. */
static void test_fortran_hook(void) {
    void (*mark)(int) = NULL;
    void *sym = dlsym(RTLD_DEFAULT, "goal__mpi_from_fortran");
    int x = me + 1, y = 0, k;
    CHECK(sym != NULL);
    if (sym) memcpy(&mark, &sym, sizeof mark);
    for (k = 0; k < 3; k++) {
        if (mark && k != 1) mark(1);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (mark) mark(0);
        CHECK(y == np * (np + 1) / 2);
    }
    report("the drop-in's Fortran hook");
}

/* ---- alltoallw: a type per peer, byte displacements ------------------------------------------ */
/* The pair (i, j) exchanges c = (i + j) % 4 elements of kind (i + j) % kinds both ways: ints,
   3-int blocks, 2 of 3 ints (holes), or 3c ints sent and c 3-int blocks received. Blocks lie
   in reverse peer order on the receive side, with gaps; compared with PMPI_Alltoallw. */
static void test_alltoallw(void) {
    static unsigned char src[4096], got[4096], want[4096];
    MPI_Datatype st[64], rt[64];
    int sc[64], sd[64], rc[64], rd[64], j, kinds, ip, nb, pass;
    char name[96];
    for (kinds = 2; kinds <= 4; kinds += 2)
        for (ip = 0; ip < 2; ip++)
            for (nb = 0; nb < 2; nb++) {
                for (j = 0; j < np; j++) {
                    int c = (me + j) % 4, kind = (me + j) % kinds;
                    MPI_Datatype t[3] = {MPI_INT, tri_t, vec_t};
                    st[j] = kind == 3 ? MPI_INT : t[kind]; sc[j] = kind == 3 ? 3 * c : c; sd[j] = 40 * j + 4;
                    rt[j] = kind == 3 ? tri_t : t[kind]; rc[j] = c; rd[j] = 48 * (np - 1 - j) + 8;
                }
                for (pass = 0; pass < 2; pass++) {
                    unsigned char *out = pass ? want : got;
                    MPI_Request q = MPI_REQUEST_NULL;
                    fill(T_INT, src, me, 1000);
                    memset(out, 0xA5, sizeof got);
                    if (ip) fill(T_INT, out, me + 7, 1000);
                    /* in place, MPICH 4.0's own PMPI_Ialltoallw gives other data than its
                       PMPI_Alltoallw (with gaps between blocks): the blocking one is the reference */
                    if (!nb || (pass && ip)) CHECK((pass ? PMPI_Alltoallw : MPI_Alltoallw)(ip ? MPI_IN_PLACE : src, sc, sd, st, out, rc, rd, rt, MPI_COMM_WORLD) == MPI_SUCCESS);
                    else CHECK((pass ? PMPI_Ialltoallw : MPI_Ialltoallw)(ip ? MPI_IN_PLACE : src, sc, sd, st, out, rc, rd, rt, MPI_COMM_WORLD, &q) == MPI_SUCCESS);
                    if (pass) PMPI_Wait(&q, MPI_STATUS_IGNORE); else MPI_Wait(&q, MPI_STATUS_IGNORE);
                }
                CHECK(!memcmp(got, want, sizeof got));
                snprintf(name, sizeof name, "alltoallw %s%s%s", kinds == 2 ? "contiguous types" : "any types (holes: packed)",
                         ip ? " in place" : "", nb ? " nonblocking" : "");
                report(name);
            }
}

/* ---- neighbourhood collectives ----------------------------------------------------------------- */
/* Each call on comm, blocking and not, ints and 2-of-3-int blocks (holes), against PMPI_. The
   pair (a, b) exchanges (a + b) % 3 + 1 elements (v) of kind (a + b) % 3 (w: int, 3 ints,
   2 of 3 ints), the same both ways, so repeated pairs agree on every message. */
static void nbr_calls(MPI_Comm comm, const char *topo) {
    static unsigned char src[4096], got[4096], want[4096];
    int ns = 0, nd = 0, sl[64], dl[64], sc[64], sd[64], rc[64], rd[64], two[64], i, k, t, nb, pass, topo_kind = 0, repeated = 0;
    MPI_Aint swd[64], rwd[64];
    MPI_Datatype stw[64], rtw[64], kinds[3] = {MPI_INT, tri_t, vec_t};
    char name[128];
    MPI_Topo_test(comm, &topo_kind);
    if (topo_kind == MPI_CART) {
        int nd_ = 0, j;
        MPI_Cartdim_get(comm, &nd_);
        for (j = 0; j < nd_; j++) MPI_Cart_shift(comm, j, 1, &sl[2 * j], &sl[2 * j + 1]);
        ns = nd = 2 * nd_;
        memcpy(dl, sl, sizeof sl);
    } else if (topo_kind == MPI_GRAPH) {
        MPI_Graph_neighbors_count(comm, me, &ns);
        MPI_Graph_neighbors(comm, me, ns, sl);
        nd = ns;
        memcpy(dl, sl, sizeof sl);
    } else {
        int w, sw[64], dw[64];
        MPI_Dist_graph_neighbors_count(comm, &ns, &nd, &w);
        MPI_Dist_graph_neighbors(comm, ns, sl, sw, nd, dl, dw);
    }
    for (i = 0; i < nd; i++) {
        int b = dl[i] < 0 ? me : dl[i];
        sc[i] = (me + b) % 3 + 1; sd[i] = 5 * (nd - 1 - i); stw[i] = kinds[(me + b) % 3]; swd[i] = 48 * (nd - 1 - i) + 4;
    }
    for (i = 0; i < ns; i++) {
        int a = sl[i] < 0 ? me : sl[i];
        rc[i] = (me + a) % 3 + 1; rd[i] = 5 * i + 1; rtw[i] = kinds[(me + a) % 3]; rwd[i] = 48 * i + 8; two[i] = 2;
    }
    for (i = 0; i < ns * ns; i++) repeated |= i / ns != i % ns && sl[i / ns] >= 0 && sl[i / ns] == sl[i % ns];
    for (i = 0; i < nd * nd; i++) repeated |= i / nd != i % nd && dl[i / nd] >= 0 && dl[i / nd] == dl[i % nd];
    for (k = 0; k < 5; k++)
        for (t = 0; t < (k == 4 ? 1 : 2); t++)
            for (nb = 0; nb < 2; nb++) {
                MPI_Datatype ty = t ? vec_t : MPI_INT;
                for (pass = 0; pass < 2; pass++) {
                    unsigned char *out = pass ? want : got;
                    MPI_Request q = MPI_REQUEST_NULL, *qp = nb ? &q : NULL;
                    int rc_ = 0;
                    fill(T_INT, src, me, 1000);
                    memset(out, 0xA5, sizeof got);
                    if (pass) qp = NULL;   /* Open MPI 4.1's own MPI_Ineighbor_* lose the direction
                                              of a Cartesian neighbour listed twice: the blocking
                                              call is the reference */
#define NB(F, ...) (pass ? (qp ? PMPI_Ineighbor_##F(__VA_ARGS__, qp) : PMPI_Neighbor_##F(__VA_ARGS__)) \
                        : (qp ? MPI_Ineighbor_##F(__VA_ARGS__, qp) : MPI_Neighbor_##F(__VA_ARGS__)))
                    if (k == 0) rc_ = NB(allgather, src, 3, ty, out, 3, ty, comm);
                    if (k == 1) rc_ = NB(allgatherv, src, 2, ty, out, two, rd, ty, comm);
                    if (k == 2) rc_ = NB(alltoall, src, 3, ty, out, 3, ty, comm);
                    if (k == 3) rc_ = NB(alltoallv, src, sc, sd, ty, out, rc, rd, ty, comm);
                    if (k == 4) rc_ = NB(alltoallw, src, sc, swd, stw, out, rc, rwd, rtw, comm);
#undef NB
                    CHECK(rc_ == MPI_SUCCESS);
                    if (pass) PMPI_Wait(&q, MPI_STATUS_IGNORE); else MPI_Wait(&q, MPI_STATUS_IGNORE);
                }
#ifdef MPICH_VERSION
                /* MPICH 4.0 disagrees with itself where a rank is listed twice (its alltoall
                   reverses a multigraph's repeated pairs, its alltoallv keeps their order; on a
                   ring of 1 its alltoall keeps directions, its alltoallv not): no reference
                   there; tests/test_neighbor.c checks those semantics */
                if (repeated) continue;
#endif
                CHECK(!memcmp(got, want, sizeof got));
                snprintf(name, sizeof name, "neighbor_%s on %s, %s%s", k == 0 ? "allgather" : k == 1 ? "allgatherv" : k == 2 ? "alltoall" : k == 3 ? "alltoallv" : "alltoallw",
                         topo, k == 4 ? "per-neighbour types" : t ? "2 of 3 ints" : "int", nb ? " nonblocking" : "");
                report(name);
            }
}
static void test_neighbors(void) {
    MPI_Comm c;
    int dims[2] = {0, 0}, periods[2] = {1, 0}, ring = np, per = 1, s[3], d[3], ws[3] = {1, 1, 1};
    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    nbr_calls(c, "a 2-d Cartesian grid (periodic, not periodic)");
    MPI_Comm_free(&c);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &ring, &per, 0, &c);
    nbr_calls(c, "a periodic ring (np 1, 2: one rank twice)");
    MPI_Comm_free(&c);
    {   /* a ring as MPI_Graph_create takes it */
        int *index = (int *)malloc((size_t)np * sizeof(int)), *edges = (int *)malloc((size_t)np * 2 * sizeof(int)), i;
        for (i = 0; i < np; i++) { index[i] = 2 * (i + 1); edges[2 * i] = (i + np - 1) % np; edges[2 * i + 1] = (i + 1) % np; }
        MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &c);
        nbr_calls(c, "a graph ring");
        MPI_Comm_free(&c);
        free(index); free(edges);
    }
    s[0] = s[2] = (me + np - 1) % np; s[1] = (me + 1) % np;   /* a multigraph: two edges from the left */
    d[0] = d[2] = (me + 1) % np; d[1] = (me + np - 1) % np;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, s, ws, 3, d, ws, MPI_INFO_NULL, 0, &c);   /* weights: Open MPI's
                                                                     MPI_UNWEIGHTED trips gcc's bounds check */
    nbr_calls(c, "a distributed multigraph");
    MPI_Comm_free(&c);
}

/* ---- persistent collectives (MPI 4: MPICH 4.0 has them, Open MPI 4.1 not) ---------------------- */
#if MPI_VERSION >= 4
/* Six persistent collectives made once, started four times with new data each time (started
   one by one or by MPI_Startall; completed by MPI_Wait, MPI_Waitall, MPI_Test, MPI_Testall),
   each result against the blocking PMPI_ call on the same data, each start run prepared;
   then freed. */
static void test_persistent(void) {
    enum { M = 6, L = 7 };
    static int x[M][64 * L], y[M][64 * L], ref[M][64 * L];
    unsigned long long (*runs)(void) = (unsigned long long (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "goal__mpi_prepared_runs");
    unsigned long long before = runs ? runs() : 0;
    MPI_Request q[M];
    MPI_Status sts[M];   /* MPI_STATUSES_IGNORE trips gcc's bounds check */
    int round, i, j, flag;
    CHECK(runs != NULL);
    MPI_Bcast_init(y[0], L, MPI_INT, np - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
    MPI_Reduce_init(x[1], y[1], L, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    MPI_Allreduce_init(x[2], y[2], L, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
    MPI_Allgather_init(x[3], L, MPI_INT, y[3], L, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]);
    MPI_Alltoall_init(x[4], L, MPI_INT, y[4], L, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[4]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[5]);
    for (round = 0; round < 4; round++) {
        for (i = 0; i < M; i++)
            for (j = 0; j < 64 * L; j++) { x[i][j] = me * 1000 + round * 100 + i * 10 + j; y[i][j] = ref[i][j] = i == 0 && me == np - 1 ? x[i][j] : -1; }
        if (round == 1) MPI_Startall(M, q);
        else for (i = 0; i < M; i++) MPI_Start(&q[i]);
        if (round == 0) for (i = 0; i < M; i++) MPI_Wait(&q[i], MPI_STATUS_IGNORE);
        if (round == 1) MPI_Waitall(M, q, sts);
        if (round == 2) for (i = 0; i < M; i++) do MPI_Test(&q[i], &flag, MPI_STATUS_IGNORE); while (!flag);
        if (round == 3) do MPI_Testall(M, q, &flag, sts); while (!flag);
        for (i = 0; i < M; i++) CHECK(q[i] != MPI_REQUEST_NULL);   /* inactive, not freed */
        PMPI_Bcast(ref[0], L, MPI_INT, np - 1, MPI_COMM_WORLD);
        PMPI_Reduce(x[1], ref[1], L, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        PMPI_Allreduce(x[2], ref[2], L, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        PMPI_Allgather(x[3], L, MPI_INT, ref[3], L, MPI_INT, MPI_COMM_WORLD);
        PMPI_Alltoall(x[4], L, MPI_INT, ref[4], L, MPI_INT, MPI_COMM_WORLD);
        for (i = 0; i < M - 1; i++) CHECK(!memcmp(y[i], ref[i], sizeof ref[i]));
    }
    CHECK(runs && runs() - before == M * 4);
    for (i = 0; i < M; i++) { MPI_Request_free(&q[i]); CHECK(q[i] == MPI_REQUEST_NULL); }
    report("persistent bcast, reduce, allreduce, allgather, alltoall, barrier: 4 starts each, run prepared");
}
/* The other collectives' _init, each started 3 times (Startall) with new data, against PMPI;
   the v-forms with counts 1 + (rank % 3) per block (alltoallv: 1 + (i + j) % 3 between i and j). */
static void test_persistent_more(void) {
    enum { M = 10, L = 5 };
    static int x[M][64 * L * 3], y[M][64 * L * 3], ref[M][64 * L * 3];
    unsigned long long (*runs)(void) = (unsigned long long (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "goal__mpi_prepared_runs");
    unsigned long long before = runs ? runs() : 0;
    int cnt[64], dsp[64], pc[64], pd[64], round, i, j, root = np / 2, total = 0;
    MPI_Request q[M];
    MPI_Status sts[M];   /* MPI_STATUSES_IGNORE trips gcc's bounds check */
    for (i = 0; i < np; i++) { cnt[i] = 1 + i % 3; dsp[i] = total; total += cnt[i]; }
    for (i = 0, j = 0; i < np; i++) { pc[i] = 1 + (me + i) % 3; pd[i] = j; j += pc[i]; }   /* alltoallv: i's to me = mine to i */
    MPI_Gather_init(x[0], L, MPI_INT, y[0], L, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
    MPI_Scatter_init(x[1], L, MPI_INT, y[1], L, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    MPI_Reduce_scatter_block_init(x[2], y[2], L, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
    MPI_Scan_init(x[3], y[3], L, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]);
    MPI_Exscan_init(x[4], y[4], L, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &q[4]);
    MPI_Gatherv_init(x[5], cnt[me], MPI_INT, y[5], cnt, dsp, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &q[5]);
    MPI_Scatterv_init(x[6], cnt, dsp, MPI_INT, y[6], cnt[me], MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &q[6]);
    MPI_Allgatherv_init(x[7], cnt[me], MPI_INT, y[7], cnt, dsp, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[7]);
    MPI_Alltoallv_init(x[8], pc, pd, MPI_INT, y[8], pc, pd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[8]);
    MPI_Reduce_scatter_init(x[9], y[9], cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[9]);
    for (round = 0; round < 3; round++) {
        for (i = 0; i < M; i++)
            for (j = 0; j < 64 * L * 3; j++) { x[i][j] = me * 1000 + round * 100 + i * 10 + j % 7; y[i][j] = ref[i][j] = -1; }
        MPI_Startall(M, q);
        MPI_Waitall(M, q, sts);
        PMPI_Gather(x[0], L, MPI_INT, ref[0], L, MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Scatter(x[1], L, MPI_INT, ref[1], L, MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Reduce_scatter_block(x[2], ref[2], L, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Scan(x[3], ref[3], L, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Exscan(x[4], ref[4], L, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (me == 0) memcpy(ref[4], y[4], sizeof ref[4]);   /* rank 0's exscan output is undefined */
        PMPI_Gatherv(x[5], cnt[me], MPI_INT, ref[5], cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Scatterv(x[6], cnt, dsp, MPI_INT, ref[6], cnt[me], MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Allgatherv(x[7], cnt[me], MPI_INT, ref[7], cnt, dsp, MPI_INT, MPI_COMM_WORLD);
        PMPI_Alltoallv(x[8], pc, pd, MPI_INT, ref[8], pc, pd, MPI_INT, MPI_COMM_WORLD);
        PMPI_Reduce_scatter(x[9], ref[9], cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        for (i = 0; i < M; i++) CHECK(!memcmp(y[i], ref[i], sizeof ref[i]));
    }
    CHECK(runs && runs() - before == M * 3);
    for (i = 0; i < M; i++) MPI_Request_free(&q[i]);
    report("persistent gather, scatter, reduce_scatter_block, scan, exscan and the v-forms: 3 starts each, run prepared");
}
/* A persistent allreduce whose user op and derived type are freed after _init, a max op
   made in their place, then started twice and completed by MPI_Waitany: the sum each time. */
static void test_persistent_handles(void) {
    int x[8], y[8], ref[8], i, k, idx;
    MPI_Op op, other;
    MPI_Datatype pair, t2;
    MPI_Request q;
    MPI_Type_contiguous(2, MPI_INT, &pair); MPI_Type_commit(&pair);
    MPI_Op_create(pair_sum_fn, 1, &op);
    MPI_Allreduce_init(x, y, 4, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    MPI_Op_free(&op); MPI_Type_free(&pair);
    MPI_Op_create(max_fn, 1, &other);
    MPI_Type_contiguous(3, MPI_INT, &t2); MPI_Type_commit(&t2);
    for (k = 0; k < 2; k++) {
        for (i = 0; i < 8; i++) { x[i] = me * 10 + i + k; y[i] = -1; }
        MPI_Start(&q);
        MPI_Waitany(1, &q, &idx, MPI_STATUS_IGNORE);
        PMPI_Allreduce(x, ref, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(idx == 0 && !memcmp(y, ref, sizeof ref));
    }
    MPI_Request_free(&q);
    MPI_Op_free(&other); MPI_Type_free(&t2);
    {   /* on a communicator freed before the request (its prepared schedule goes with it) */
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Allreduce_init(x, y, 8, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &q);
        for (k = 0; k < 2; k++) {
            for (i = 0; i < 8; i++) { x[i] = me + i * k; y[i] = -1; }
            MPI_Start(&q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            for (i = 0; i < 8; i++) CHECK(y[i] == np * (np - 1) / 2 + np * i * k);
        }
        MPI_Comm_free(&c);
        MPI_Request_free(&q);
        CHECK(q == MPI_REQUEST_NULL);
    }
    report("persistent allreduce: user op and type freed after _init, a new op made: the sum; a communicator freed first");
}
#else
static void test_persistent(void) {}
static void test_persistent_more(void) {}
static void test_persistent_handles(void) {}
#endif

/* ---- non-commutative ops: MPI's rank-order fold, computed here -------------------------------- */
/* x_0 op x_1 op ... op x_{p-1} of n matrices, every rank's input made locally (mat_fn: inout =
   in x inout, in from the lower rank). */
static void fold(unsigned char *acc, int n) {
    unsigned char *x = (unsigned char *)malloc((size_t)n * 16);
    int r;
    fill(T_MAT, acc, np - 1, n);
    for (r = np - 2; r >= 0; r--) { fill(T_MAT, x, r, n); mat_fn(x, acc, &n, &mat_t); }
    free(x);
}
/* allreduce, reduce_scatter_block and reduce_scatter with the matrix product, small and past
   the size where the defaults turn bandwidth-optimal, blocking or not, in place or not. */
static void test_noncommutative(void) {
    static const int sizes[2] = {5, 2048};
    int k, z, ip, nb, i, n, rc[64], off;
    char name[96];
    for (k = 0; k < 3; k++)
        for (z = 0; z < 2; z++)
            for (ip = 0; ip < 2; ip++)
                for (nb = 0; nb < 2; nb++) {
                    MPI_Request q = MPI_REQUEST_NULL;
                    size_t all = 0;
                    unsigned char *src, *got, *want;
                    n = sizes[z];
                    for (i = 0, off = 0; i < np; i++) { rc[i] = k == 2 ? (i % 3) * n / 2 + 1 : n; off += i < me ? rc[i] : 0; }
                    for (i = 0; i < np; i++) all += (size_t)(k == 0 ? (i == 0 ? n : 0) : rc[i]) * 16;
                    src = (unsigned char *)malloc(all); got = (unsigned char *)malloc(all); want = (unsigned char *)malloc(all);
                    fill(T_MAT, src, me, (int)(all / 16));
                    memset(got, 0xA5, all);
                    if (ip) memcpy(got, src, all);
                    if (k == 0 && !nb) CHECK(MPI_Allreduce(ip ? MPI_IN_PLACE : src, got, n, mat_t, mat_mul, MPI_COMM_WORLD) == MPI_SUCCESS);
                    if (k == 0 && nb) CHECK(MPI_Iallreduce(ip ? MPI_IN_PLACE : src, got, n, mat_t, mat_mul, MPI_COMM_WORLD, &q) == MPI_SUCCESS);
                    if (k == 1 && !nb) CHECK(MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : src, got, n, mat_t, mat_mul, MPI_COMM_WORLD) == MPI_SUCCESS);
                    if (k == 1 && nb) CHECK(MPI_Ireduce_scatter_block(ip ? MPI_IN_PLACE : src, got, n, mat_t, mat_mul, MPI_COMM_WORLD, &q) == MPI_SUCCESS);
                    if (k == 2 && !nb) CHECK(MPI_Reduce_scatter(ip ? MPI_IN_PLACE : src, got, rc, mat_t, mat_mul, MPI_COMM_WORLD) == MPI_SUCCESS);
                    if (k == 2 && nb) CHECK(MPI_Ireduce_scatter(ip ? MPI_IN_PLACE : src, got, rc, mat_t, mat_mul, MPI_COMM_WORLD, &q) == MPI_SUCCESS);
                    MPI_Wait(&q, MPI_STATUS_IGNORE);
                    fold(want, (int)(all / 16));
                    if (k == 0) CHECK(!memcmp(got, want, all));
                    else CHECK(!memcmp(got, want + (size_t)(k == 1 ? me * n : off) * 16, (size_t)rc[me] * 16));
                    free(src); free(got); free(want);
                    snprintf(name, sizeof name, "%s matrix product (rank order) %d%s%s", k == 0 ? "allreduce" : k == 1 ? "reduce_scatter_block" : "reduce_scatter",
                             n, ip ? " in place" : "", nb ? " nonblocking" : "");
                    report(name);
                }
}

/* ---- every rank the same bits --------------------------------------------------------------- */
static void test_identical(void) {
    static float x[1024], y[1024], lo[1024], hi[1024];
    int i, round, n;
    for (round = 0; round < 20; round++) {
        n = round % 2 ? 1024 : 64;   /* 4 KB: Rabenseifner's algorithm (the default past 2048 bytes) */
        srand((unsigned)(round * 977 + me * 131));
        for (i = 0; i < n; i++) x[i] = (float)((rand() % 2000001 - 1000000) * 1e-3 * (i % 7 ? 1 : 1e6));
        MPI_Allreduce(x, y, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Allreduce(y, lo, n, MPI_FLOAT, MPI_MIN, MPI_COMM_WORLD);
        PMPI_Allreduce(y, hi, n, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(!memcmp(lo, hi, (size_t)n * sizeof lo[0]));
    }
    report("allreduce: float sums bit-identical on every rank");
}

/* ---- repeated calls (prepared by the drop-in) --------------------------------------------- */
/* Blocking calls repeated with the same arguments, in turns and alone, with new data each
   time; a derived type freed and another made (the handle may come back); a communicator
   freed and another made; a repeated call while a nonblocking one is in flight; in place. */
static void test_repeated(void) {
    unsigned long long (*runs)(void) = (unsigned long long (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "goal__mpi_prepared_runs");
    unsigned long long before;
    int x[4], y[4], ref[4], b[4], rb[4], i, round, root = np - 1;
    int *g = (int *)calloc((size_t)np * 4, sizeof(int)), *gr = (int *)calloc((size_t)np * 4, sizeof(int));
    MPI_Datatype t;
    MPI_Comm c;
    MPI_Request q;
    CHECK(runs != NULL);
    if (!runs) { report("repeated calls: the drop-in's goal__mpi_prepared_runs"); return; }
    before = runs();
    for (round = 0; round < 6; round++) {   /* bcast, allreduce, reduce and barrier in turns */
        for (i = 0; i < 4; i++) { x[i] = me * 7 + round * 3 + i; b[i] = rb[i] = me == root ? round * 11 + i : -1; }
        MPI_Bcast(b, 4, MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Bcast(rb, 4, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(!memcmp(b, rb, sizeof b));
        MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Allreduce(x, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(!memcmp(y, ref, sizeof y));
        memset(y, 0, sizeof y);
        MPI_Reduce(x, me == 0 ? y : NULL, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        PMPI_Reduce(x, ref, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        CHECK(me != 0 || !memcmp(y, ref, sizeof y));
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Scan(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Scan(x, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(!memcmp(y, ref, sizeof y));
        MPI_Exscan(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Exscan(x, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(me == 0 || !memcmp(y, ref, sizeof y));
        MPI_Gather(x, 4, MPI_INT, g, 4, MPI_INT, root, MPI_COMM_WORLD);
        PMPI_Gather(x, 4, MPI_INT, gr, 4, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(me != root || !memcmp(g, gr, (size_t)np * 4 * sizeof(int)));
        for (i = 0; i < 4 * np; i++) g[i] = me == root ? round * 100 + i : -1;
        MPI_Scatter(g, 4, MPI_INT, y, 4, MPI_INT, root, MPI_COMM_WORLD);
        for (i = 0; i < 4; i++) CHECK(y[i] == round * 100 + me * 4 + i);
        MPI_Allgather(x, 4, MPI_INT, g, 4, MPI_INT, MPI_COMM_WORLD);
        PMPI_Allgather(x, 4, MPI_INT, gr, 4, MPI_INT, MPI_COMM_WORLD);
        CHECK(!memcmp(g, gr, (size_t)np * 4 * sizeof(int)));
        for (i = 0; i < 4 * np; i++) gr[i] = me * 1000 + round * 10 + i;
        MPI_Alltoall(gr, 4, MPI_INT, g, 4, MPI_INT, MPI_COMM_WORLD);
        for (i = 0; i < 4 * np; i++) CHECK(g[i] == (i / 4) * 1000 + round * 10 + me * 4 + i % 4);
        MPI_Reduce_scatter_block(gr, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Reduce_scatter_block(gr, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(!memcmp(y, ref, sizeof y));
    }
    CHECK(runs() - before == 11 * 5);   /* each from its second call on */
    free(g); free(gr);
    report("repeated calls in turns: bcast, allreduce, reduce, barrier, scan, exscan, gather, scatter, allgather, alltoall, "
           "reduce_scatter_block run prepared, reading each call's data");
    {   /* neighbour calls on a line (not periodic: MPI_PROC_NULL at its ends) */
        int line = np, open_ends = 0, nr[2], nref[2];
        MPI_Cart_create(MPI_COMM_WORLD, 1, &line, &open_ends, 0, &c);
        before = runs();
        for (round = 0; round < 4; round++) {
            x[0] = me * 10 + round; x[1] = me * 10 + round + 5;
            nr[0] = nr[1] = nref[0] = nref[1] = -1;
            MPI_Neighbor_alltoall(x, 1, MPI_INT, nr, 1, MPI_INT, c);
            PMPI_Neighbor_alltoall(x, 1, MPI_INT, nref, 1, MPI_INT, c);
            CHECK(!memcmp(nr, nref, sizeof nr));
            nr[0] = nr[1] = nref[0] = nref[1] = -1;
            MPI_Neighbor_allgather(x, 1, MPI_INT, nr, 1, MPI_INT, c);
            PMPI_Neighbor_allgather(x, 1, MPI_INT, nref, 1, MPI_INT, c);
            CHECK(!memcmp(nr, nref, sizeof nr));
        }
        CHECK(runs() - before == 2 * 3);
        MPI_Comm_free(&c);
        report("repeated neighbour calls: neighbor_alltoall, neighbor_allgather run prepared");
    }
    {   /* v-calls on the same count and displacement arrays: their counts change at round 3,
           their displacements (only) at round 6 */
        int *cnt = (int *)malloc((size_t)np * sizeof(int)), *dsp = (int *)malloc((size_t)np * sizeof(int));
        int *pair = (int *)malloc((size_t)np * sizeof(int)), *gs = (int *)malloc((size_t)np * 2 * sizeof(int));
        int *gv = (int *)malloc((size_t)np * 2 * sizeof(int));
        int bad = 0, j, shift;
        CHECK(cnt && dsp && pair && gs && gv);
        before = runs();
        for (round = 0; cnt && dsp && pair && gs && gv && round < 9; round++) {
            shift = round >= 3;
            for (i = 0; i < np; i++) {
                cnt[i] = 1 + (i + shift) % 2; pair[i] = 1 + (me + i + shift) % 2;
                dsp[i] = round < 6 ? 2 * i : 2 * (np - 1 - i);
            }
            for (j = 0; j < 2; j++) x[j] = 100 * me + 10 * round + j;
            for (i = 0; i < 2 * np; i++) gv[i] = -1;
            MPI_Gatherv(x, cnt[me], MPI_INT, gv, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
            for (i = 0; me == root && i < np; i++)
                for (j = 0; j < 2; j++) bad += gv[dsp[i] + j] != (j < cnt[i] ? 100 * i + 10 * round + j : -1);
            for (i = 0; i < np; i++)
                for (j = 0; j < 2; j++) gs[dsp[i] + j] = me == root ? 100 * i + 10 * round + j : -1;
            y[0] = y[1] = -1;
            MPI_Scatterv(gs, cnt, dsp, MPI_INT, y, cnt[me], MPI_INT, root, MPI_COMM_WORLD);
            for (j = 0; j < 2; j++) bad += y[j] != (j < cnt[me] ? 100 * me + 10 * round + j : -1);
            for (i = 0; i < 2 * np; i++) gv[i] = -1;
            MPI_Allgatherv(x, cnt[me], MPI_INT, gv, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
            for (i = 0; i < np; i++)
                for (j = 0; j < 2; j++) bad += gv[dsp[i] + j] != (j < cnt[i] ? 100 * i + 10 * round + j : -1);
            for (i = 0; i < np; i++)
                for (j = 0; j < 2; j++) { gs[dsp[i] + j] = 1000 * me + 100 * i + 10 * round + j; gv[dsp[i] + j] = -1; }
            MPI_Alltoallv(gs, pair, dsp, MPI_INT, gv, pair, dsp, MPI_INT, MPI_COMM_WORLD);
            for (i = 0; i < np; i++)
                for (j = 0; j < 2; j++) bad += gv[dsp[i] + j] != (j < pair[i] ? 1000 * i + 100 * me + 10 * round + j : -1);
            for (i = 0; i < 2 * np; i++) gs[i] = me * 7 + i + round;
            MPI_Reduce_scatter(gs, y, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            PMPI_Reduce_scatter(gs, ref, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            bad += memcmp(y, ref, (size_t)cnt[me] * sizeof(int)) != 0;
        }
        CHECK(bad == 0);
        /* each prepared at its second round of a phase: 2 runs a phase; where the displacements
           mean nothing (gatherv and scatterv off the root) or are none (reduce_scatter), the
           phase before goes on: 3 in the last (on one rank the displacements stay 0) */
        CHECK(runs() - before == (unsigned long long)(np == 1 ? 5 * 7 : 6 + 6 + 6 + 6 + 7 + (me != root ? 2 : 0)));
        free(cnt); free(dsp); free(pair); free(gs); free(gv);
        report("repeated v-calls: gatherv, scatterv, allgatherv, alltoallv, reduce_scatter run prepared, again after "
               "their counts changed, and after their displacements did");
    }
    for (round = 0; round < 3; round++) {   /* a derived type, freed: its handle may name the next */
        MPI_Type_contiguous(round + 1, MPI_INT, &t); MPI_Type_commit(&t);
        for (i = 0; i < 3; i++) {
            int k;
            for (k = 0; k < 4; k++) b[k] = me == root ? 100 * round + 10 * i + k : -1;
            MPI_Bcast(b, 1, t, root, MPI_COMM_WORLD);
            for (k = 0; k < 4; k++) CHECK(b[k] == (k <= round ? 100 * round + 10 * i + k : me == root ? 100 * round + 10 * i + k : -1));
        }
        MPI_Type_free(&t);
    }
    report("repeated calls on a derived type freed and made again");
    for (round = 0; round < 3; round++) {   /* a communicator freed: its handle may name the next */
        MPI_Comm_split(MPI_COMM_WORLD, round == 1 ? me % 2 : 0, me, &c);
        for (i = 0; i < 3; i++) {
            x[0] = me + i;
            MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, c);
            PMPI_Allreduce(x, ref, 1, MPI_INT, MPI_SUM, c);
            CHECK(y[0] == ref[0]);
        }
        MPI_Comm_free(&c);
    }
    report("repeated calls on a communicator freed and made again");
    for (i = 0; i < 8; i++) {   /* prepared, then with a nonblocking call in flight: the way that progresses it */
        x[1] = me * i;
        if (i == 4) { x[0] = me; MPI_Iallreduce(x, rb, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q); before = runs(); }
        MPI_Allreduce(x + 1, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(y[0] == i * np * (np - 1) / 2);
        if (i == 4) CHECK(runs() == before);
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(rb[0] == np * (np - 1) / 2);
    report("repeated calls with a nonblocking one in flight");
    g = (int *)calloc((size_t)np * 2, sizeof(int));
    for (i = 0; i < 4; i++) {   /* in place: gather and scatter at the root, allgather (each run prepared from its
                                   second call on), allreduce (where its algorithm takes it in place) */
        int k;
        unsigned long long at;
        for (k = 0; k < 2 * np; k++) g[k] = me == root ? 1000 * i + k : -1;
        if (me != root) { x[0] = 2 * me + 10 * i; x[1] = x[0] + 1; }
        at = runs();
        MPI_Gather(me == root ? MPI_IN_PLACE : x, 2, MPI_INT, g, 2, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(runs() - at == (i > 0));
        for (k = 0; me == root && k < 2 * np; k++) CHECK(g[k] == (k / 2 == root ? 1000 * i + k : k + 10 * i));
        for (k = 0; k < 2 * np; k++) g[k] = me == root ? 100 * i + k : -1;
        y[0] = y[1] = -1;
        at = runs();
        MPI_Scatter(g, 2, MPI_INT, me == root ? MPI_IN_PLACE : y, 2, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(runs() - at == (i > 0));
        CHECK(me == root ? g[2 * me] == 100 * i + 2 * me : y[0] == 100 * i + 2 * me && y[1] == y[0] + 1);
        for (k = 0; k < 2 * np; k++) g[k] = k / 2 == me ? 7 * i + k : -1;
        at = runs();
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 2, MPI_INT, MPI_COMM_WORLD);
        CHECK(runs() - at == (i > 0));
        for (k = 0; k < 2 * np; k++) CHECK(g[k] == 7 * i + k);
        y[0] = me + i;
        MPI_Allreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(y[0] == np * (np - 1) / 2 + np * i);
    }
    free(g);
    report("repeated calls in place: gather, scatter (at the root), allgather, allreduce run prepared");
}

int main(int argc, char **argv) {
    int tot[2], all[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    local_ok = 1;
    types[T_INT].t = &int_t; types[T_DOUBLE].t = &dbl_t; types[T_LDOUBLE].t = &ld_t; types[T_COMPLEX].t = &cx_t;
    types[T_DINT].t = &dint_t; types[T_IINT].t = &iint_t;
    MPI_Type_contiguous(4, MPI_INT, &mat_t); MPI_Type_commit(&mat_t);
    MPI_Type_contiguous(3, MPI_INT, &tri_t); MPI_Type_commit(&tri_t);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec_t); MPI_Type_commit(&vec_t);
    MPI_Op_create(mat_fn, 0, &mat_mul);
    MPI_Op_create(sum_fn, 1, &user_sum);
    in = (unsigned char *)calloc((size_t)np * 64 * 32 + 32768 + 64, 1);
    a = (unsigned char *)calloc((size_t)np * 64 * 32 + 32768 + 64, 1);
    b = (unsigned char *)calloc((size_t)np * 64 * 32 + 32768 + 64, 1);
    if (argc > 1 && !strcmp(argv[1], "handles")) test_handles();   /* alone: their stats are read */
    else if (argc > 1 && !strcmp(argv[1], "algos")) test_algos();
    else if (argc > 1 && !strcmp(argv[1], "fortran")) test_fortran_hook();
    else if (argc > 1 && !strcmp(argv[1], "none")) local_ok = 1;   /* no collective through the drop-in */
    else {
        test_calls();
        test_scrambled();
        test_large();
        test_noncommutative();
        test_alltoallw();
        test_neighbors();
        test_persistent();
        test_persistent_more();
        test_persistent_handles();
        test_identical();
        test_repeated();
        test_handles();
    }
    (argc > 1 && !strcmp(argv[1], "none") ? PMPI_Barrier : MPI_Barrier)(MPI_COMM_WORLD);
    tot[0] = passed; tot[1] = failed;
    PMPI_Reduce(tot, all, 2, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0) printf("%d passed, %d failed\n", all[0], all[1]);
    fflush(stdout);   /* before MPI_Finalize's stats on stderr, so mpirun cannot cut the line in two */
    MPI_Op_free(&mat_mul); MPI_Op_free(&user_sum);
    MPI_Type_free(&mat_t); MPI_Type_free(&tri_t); MPI_Type_free(&vec_t);
    free(in); free(a); free(b);
    MPI_Finalize();
    return 0;
}
