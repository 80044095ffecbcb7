/* algo_check.h - runs a goal_algos.h algorithm on random data over goal_sched.h's in-process
   ranks and compares every rank's buffers with a reference computed here, independently of
   the executor's operations. Shared by `goal run ALGO --check` and tests/test_algos.c.
   Needs goal_algos.h and goal_sched.h (declarations) included first.

   Data: integers are random bits (odd for prod), so wrapping sums and products are exact in
   any order. Floats are multiples of 1/8 in [-8, 8] (for prod: +-0.5, +-1, +-2), which every
   order of summation or multiplication gives exactly; the comparison still allows a relative
   error of 1e-6 (float32) or 1e-12 (float64), the tolerance for data that is not exact.
   OUT starts as 0xA5 bytes: where a collective defines no result (reduce at a non-root,
   exscan at rank 0, gather at a non-root, ...) it must stay so. IN must stay unchanged.
   Vector collectives (gatherv_ ... reduce_scatterv_): the layout is computed here from the
   desc's MPI arrays (goal_algos.h VECTOR COLLECTIVES); gaps in OUT must stay 0xA5.
   In exactly ONE .c file:  #define GOAL_ALGO_CHECK_IMPLEMENTATION  then  #include it
   (tools/cli_run.c for the goal command); others see only the declarations. */
#ifndef GOAL_ALGO_CHECK_H
#define GOAL_ALGO_CHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ac_result {
    int rank;                 /* first wrong rank, -1 when all right */
    uint64_t offset;          /* element index in OUT (or IN when in_changed) */
    int in_changed;
    char expected[48], got[48];
} ac_result;

uint64_t ac_rand(uint64_t *s);   /* splitmix64: the next value from seed *s */
/* Builds d for p ranks, runs it (threads: one thread per rank) and checks every rank.
   Returns GOAL_OK with res->rank = -1 when all is right, res->rank >= 0 at the first wrong
   element, or a negative status (build or run failed; err says why). */
goal_status ac_check(const goal_algo_desc *d, int p, int threads, uint64_t seed, ac_result *res, goal_error *err);
#endif

#if defined(GOAL_ALGO_CHECK_IMPLEMENTATION) && !defined(GOAL_ALGO_CHECK_IMPL_DONE)
#define GOAL_ALGO_CHECK_IMPL_DONE

/* Multiplies 2x2 matrices of uint32 (4 elements each): buf1 = buf1 x buf2. Associative, not
   commutative: the user function the rank-order checks use (fn id 0). */
static int ac_matmul(void *b1, int s1, void *b2, int s2) {
    unsigned char *pa = (unsigned char *)b1, *pb = (unsigned char *)b2;
    uint32_t a[4], b[4], r[4];
    int k;
    if (s1 != s2 || s1 % 16) return 1;
    for (k = 0; k < s1; k += 16) {   /* buffers may be unaligned: copy in and out */
        memcpy(a, pa + k, 16);
        memcpy(b, pb + k, 16);
        r[0] = a[0] * b[0] + a[1] * b[2]; r[1] = a[0] * b[1] + a[1] * b[3];
        r[2] = a[2] * b[0] + a[3] * b[2]; r[3] = a[2] * b[1] + a[3] * b[3];
        memcpy(pa + k, r, 16);
    }
    return 0;
}

/* ---- elements ------------------------------------------------------------------------------- */
static int ac_is_float(goal_dtype t) { return (t >> 4) == 2; }
static int ac_is_signed(goal_dtype t) { return (t >> 4) == 0; }
static uint64_t ac_getu(goal_dtype t, const unsigned char *p) {
    size_t k, es = goal_dtype_size(t);
    uint64_t v = 0;
    for (k = 0; k < es; k++) v |= (uint64_t)p[k] << (8 * k);   /* little-endian, as the executor */
    if (ac_is_signed(t) && es < 8 && (v >> (8 * es - 1)) & 1) v |= ~(uint64_t)0 << (8 * es);
    return v;
}
static void ac_putu(goal_dtype t, unsigned char *p, uint64_t v) {
    size_t k, es = goal_dtype_size(t);
    for (k = 0; k < es; k++) p[k] = (unsigned char)(v >> (8 * k));
}
static double ac_getf(goal_dtype t, const unsigned char *p) {
    if (t == GOAL_FLOAT32) { float f; memcpy(&f, p, 4); return f; }
    { double d; memcpy(&d, p, 8); return d; }
}
static void ac_putf(goal_dtype t, unsigned char *p, double v) {
    if (t == GOAL_FLOAT32) { float f = (float)v; memcpy(p, &f, 4); }
    else memcpy(p, &v, 8);
}
/* a = op(a, b) on one element. */
static void ac_apply1(goal_op op, goal_dtype t, unsigned char *a, const unsigned char *b) {
    if (ac_is_float(t)) {
        double x = ac_getf(t, a), y = ac_getf(t, b), r = y;
        if (op == GOAL_OP_SUM) r = x + y;
        else if (op == GOAL_OP_PROD) r = x * y;
        else if (op == GOAL_OP_MAX) r = x > y ? x : y;
        else if (op == GOAL_OP_MIN) r = x < y ? x : y;
        ac_putf(t, a, r);
    } else {
        uint64_t x = ac_getu(t, a), y = ac_getu(t, b), r = y;
        int lt = ac_is_signed(t) ? (int64_t)x < (int64_t)y : x < y;
        switch (op) {
        case GOAL_OP_SUM: r = x + y; break;
        case GOAL_OP_PROD: r = x * y; break;
        case GOAL_OP_MAX: r = lt ? y : x; break;
        case GOAL_OP_MIN: r = lt ? x : y; break;
        case GOAL_OP_LAND: r = x && y; break;
        case GOAL_OP_LOR: r = x || y; break;
        case GOAL_OP_LXOR: r = !x != !y; break;
        case GOAL_OP_BAND: r = x & y; break;
        case GOAL_OP_BOR: r = x | y; break;
        case GOAL_OP_BXOR: r = x ^ y; break;
        default: break;
        }
        ac_putu(t, a, r);
    }
}
/* a = op(a, b) over n bytes, with the desc's op (user function 0 = ac_matmul). */
static void ac_apply(const goal_algo_desc *d, unsigned char *a, const unsigned char *b, uint64_t n) {
    uint64_t k, es = goal_dtype_size(d->dtype);
    if (d->op == GOAL_OP_USER) { ac_matmul(a, (int)n, (void *)(uintptr_t)b, (int)n); return; }
    for (k = 0; k + es <= n; k += es) ac_apply1(d->op, d->dtype, a + k, b + k);
}

uint64_t ac_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static void ac_fill(const goal_algo_desc *d, unsigned char *p, uint64_t n, uint64_t *seed) {
    uint64_t k, es = goal_dtype_size(d->dtype);
    for (k = 0; k + es <= n; k += es) {
        uint64_t r = ac_rand(seed);
        if (d->op == GOAL_OP_USER) ac_putu(GOAL_UINT32, p + k, r & 7);
        else if (!ac_is_float(d->dtype)) ac_putu(d->dtype, p + k, d->op == GOAL_OP_PROD ? r | 1 : r);
        else if (d->op == GOAL_OP_PROD) {
            static const double f[6] = {0.5, 1, 2, -0.5, -1, -2};
            ac_putf(d->dtype, p + k, f[r % 6]);
        } else ac_putf(d->dtype, p + k, (double)((int)(r % 129) - 64) / 8.0);
    }
}
static void ac_format(goal_dtype t, const unsigned char *p, char *out) {
    if (ac_is_float(t)) snprintf(out, 48, "%.17g", ac_getf(t, p));
    else if (ac_is_signed(t)) snprintf(out, 48, "%lld", (long long)ac_getu(t, p));
    else snprintf(out, 48, "%llu", (unsigned long long)ac_getu(t, p));
}
static int ac_equal(goal_dtype t, const unsigned char *a, const unsigned char *b) {
    double x, y, tol;
    if (!ac_is_float(t)) return ac_getu(t, a) == ac_getu(t, b);
    x = ac_getf(t, a); y = ac_getf(t, b);
    tol = t == GOAL_FLOAT32 ? 1e-6 : 1e-12;
    return x == y || fabs(x - y) <= tol * fmax(fabs(x), fabs(y));
}

/* ---- reference -------------------------------------------------------------------------------- */
/* A vector collective's blocks, in bytes: block j of rank r's IN is scnt/soff[r * rows + j]
   (rows = p for alltoallv, whose ranks differ, else 0: one layout for all), of its OUT
   rcnt/roff. A side with one block (gatherv's IN, scatterv's OUT) has block r at 0. */
typedef struct ac_layout { uint64_t *scnt, *soff, *rcnt, *roff; int rows; } ac_layout;

typedef struct ac_bufs {
    int p;
    uint64_t n, insz, outsz;
    unsigned char **in, **out, **want, **orig;   /* per rank */
    ac_layout lay;                               /* vector collectives only */
} ac_bufs;

/* dst = op over ranks lo..hi-1 (in rank order) of `size` bytes at `off` of IN. */
static void ac_fold_at(const goal_algo_desc *d, const ac_bufs *b, unsigned char *dst, const int *ranks, int nr, uint64_t off,
                       uint64_t size) {
    int i;
    memcpy(dst, b->orig[ranks[0]] + off, size);
    for (i = 1; i < nr; i++) ac_apply(d, dst, b->orig[ranks[i]] + off, size);
}
/* dst = op over ranks lo..hi-1 (in rank order) of block `blk` of IN. */
static void ac_fold(const goal_algo_desc *d, const ac_bufs *b, unsigned char *dst, const int *ranks, int nr, uint64_t blk) {
    ac_fold_at(d, b, dst, ranks, nr, blk * b->n, b->n);
}

/* ---- vector layouts ------------------------------------------------------------------------------ */
/* Entry k of an MPI array (NULL: dflt). */
static uint64_t ac_at(const int *a, size_t k, uint64_t dflt) { return a ? (uint64_t)a[k] : dflt; }
/* Fills one row: counts from a (entry base + j * step), displacements from dsp (packed if NULL). */
static void ac_row(const goal_algo_desc *d, int p, uint64_t *cnt, uint64_t *off, const int *a, size_t base, size_t step,
                   const int *dsp) {
    uint64_t es = goal_dtype_size(d->dtype), packed = 0;
    int j;
    for (j = 0; j < p; j++) {
        cnt[j] = ac_at(a, base + (size_t)j * step, d->count) * es;
        off[j] = dsp ? (uint64_t)dsp[j] * es : packed;
        packed += cnt[j];
    }
}
/* The layout of d, independently of goal_algos.h's code; the largest IN and OUT in bytes. */
static int ac_layout_make(const goal_algo_desc *d, goal_coll c, int p, ac_layout *L, uint64_t *insz, uint64_t *outsz) {
    int a2a = c == GOAL_COLL_ALLTOALLV, r, j, rows = a2a ? p : 1, single_in = c != GOAL_COLL_SCATTERV && c != GOAL_COLL_REDUCE_SCATTERV;
    size_t P = (size_t)p, n = (size_t)rows * P, m = d->counts_matrix ? P : 0;
    L->rows = a2a ? p : 0;
    L->scnt = (uint64_t *)calloc(4 * n, sizeof(uint64_t));
    if (!L->scnt) return -1;
    L->soff = L->scnt + n; L->rcnt = L->soff + n; L->roff = L->rcnt + n;
    for (r = 0; r < rows; r++) {
        ac_row(d, p, L->scnt + r * P, L->soff + r * P, d->counts, r * m, 1, d->displs ? d->displs + r * m : NULL);
        if (a2a) ac_row(d, p, L->rcnt + r * P, L->roff + r * P, d->counts_matrix ? d->counts : d->recv_counts, (size_t)r,
                        d->counts_matrix ? P : 1, d->recv_displs ? d->recv_displs + r * m : NULL);
    }
    if (!a2a) {   /* the p-block side, and the single block (offset 0, calloc'ed) */
        memcpy(L->rcnt, L->scnt, P * sizeof(uint64_t));
        if (single_in) { memcpy(L->roff, L->soff, P * sizeof(uint64_t)); memset(L->soff, 0, P * sizeof(uint64_t)); }
    }
    *insz = *outsz = 0;
    for (r = 0; r < p; r++)
        for (j = 0; j < p; j++) {
            size_t k = (size_t)L->rows * (size_t)r + (size_t)j;
            int one_in = !a2a && single_in, one_out = !a2a && !single_in;   /* one block: only j = r counts */
            if ((!one_in || j == r) && L->soff[k] + L->scnt[k] > *insz) *insz = L->soff[k] + L->scnt[k];
            if ((!one_out || j == r) && L->roff[k] + L->rcnt[k] > *outsz) *outsz = L->roff[k] + L->rcnt[k];
        }
    return 0;
}
/* Rank r's reference OUT for a vector collective. */
static void ac_vreference(const goal_algo_desc *d, goal_coll c, const ac_bufs *b, const int *ranks, int r) {
    const ac_layout *L = &b->lay;
    size_t R = (size_t)L->rows, rr = (size_t)r;
    unsigned char *w = b->want[r];
    int i;
    switch (c) {
    case GOAL_COLL_GATHERV: case GOAL_COLL_ALLGATHERV:
        if (c == GOAL_COLL_GATHERV && r != d->root) break;
        for (i = 0; i < b->p; i++) memcpy(w + L->roff[i], b->orig[i], L->rcnt[i]);
        break;
    case GOAL_COLL_SCATTERV: if (!d->in_place || r != d->root) memcpy(w, b->orig[d->root] + L->soff[r], L->scnt[r]); break;
    case GOAL_COLL_ALLTOALLV:
        for (i = 0; i < b->p; i++) {   /* block i of r's OUT: block r of i's IN */
            size_t mine = R * rr + (size_t)i, theirs = R * (size_t)i + rr;
            memcpy(w + L->roff[mine], b->orig[i] + L->soff[theirs], L->rcnt[mine]);
        }
        break;
    case GOAL_COLL_REDUCE_SCATTERV: ac_fold_at(d, b, w, ranks, b->p, L->soff[r], L->scnt[r]); break;
    default: break;
    }
}
/* dst = prefix op IN block 0 of rank r (prefix NULL: just that block). */
static void ac_extend(const goal_algo_desc *d, const ac_bufs *b, unsigned char *dst, const unsigned char *prefix, int r) {
    if (!prefix) { memcpy(dst, b->orig[r], b->n); return; }
    memcpy(dst, prefix, b->n);
    ac_apply(d, dst, b->orig[r], b->n);
}
/* The sets of reduce_aspen (NULL list: all ranks / the root) as flags. */
static void ac_set(int p, const int *list, int n, int dflt, unsigned char *flag) {
    int i;
    if (p <= 0) return;   /* also tells gcc -O3 the size is not huge */
    memset(flag, 0, (size_t)p);
    if (!list) { for (i = 0; i < p; i++) flag[i] = dflt < 0 || i == dflt; return; }
    for (i = 0; i < n; i++) flag[list[i]] = 1;
}
static void ac_reference(const goal_algo_desc *d, goal_coll c, ac_bufs *b, int *ranks, unsigned char *flag) {
    int p = b->p, r, i, aspen = strcmp(d->algo, "reduce_aspen") == 0, np = 0;
    uint64_t n = b->n;
    const unsigned char *folded = NULL;   /* the full reduction, once computed */
    for (r = 0; r < p; r++) ranks[r] = r;
    if (aspen) {
        ac_set(p, d->participants, d->nparticipants, -1, flag);
        for (r = 0; r < p; r++) if (flag[r]) ranks[np++] = r;
        ac_set(p, d->receivers, d->nreceivers, d->root, flag);
    }
    /* Each full reduction is folded once and copied, and a prefix extends the one before it
       (the same operations in the same order): O(p n), where folding per rank was O(p^2 n). */
    for (r = 0; r < p; r++) {
        unsigned char *w = b->want[r];
        switch (c) {
        case GOAL_COLL_BCAST: memcpy(w, b->orig[d->root] + b->insz, n); break;  /* root's OUT was the data */
        case GOAL_COLL_REDUCE:
            if (!(aspen ? flag[r] : r == d->root)) break;
            if (folded) memcpy(w, folded, n);
            else { ac_fold(d, b, w, ranks, aspen ? np : p, 0); folded = w; }
            break;
        case GOAL_COLL_ALLREDUCE:
            if (folded) memcpy(w, folded, n);
            else { ac_fold(d, b, w, ranks, p, 0); folded = w; }
            break;
        case GOAL_COLL_SCAN: ac_extend(d, b, w, r > 0 ? b->want[r - 1] : NULL, r); break;
        case GOAL_COLL_EXSCAN: if (r > 0) ac_extend(d, b, w, r > 1 ? b->want[r - 1] : NULL, r - 1); break;
        case GOAL_COLL_REDUCE_SCATTER: ac_fold(d, b, w, ranks, p, (uint64_t)r); break;
        case GOAL_COLL_GATHER: if (r == d->root) for (i = 0; i < p; i++) memcpy(w + i * n, b->orig[i], n); break;
        case GOAL_COLL_ALLGATHER: for (i = 0; i < p; i++) memcpy(w + i * n, b->orig[i], n); break;
        case GOAL_COLL_SCATTER: if (!d->in_place || r != d->root) memcpy(w, b->orig[d->root] + (uint64_t)r * n, n); break;
        case GOAL_COLL_ALLTOALL: for (i = 0; i < p; i++) memcpy(w + i * n, b->orig[i] + (uint64_t)r * n, n); break;
        case GOAL_COLL_BARRIER: break;
        default: ac_vreference(d, c, b, ranks, r); break;
        }
    }
}

/* First difference between the run and the reference; 0 when none. */
static int ac_compare(const goal_algo_desc *d, const ac_bufs *b, ac_result *res) {
    uint64_t es = goal_dtype_size(d->dtype), k;
    int r;
    for (r = 0; r < b->p; r++) {
        if (b->insz && memcmp(b->in[r], b->orig[r], b->insz)) {
            for (k = 0; b->in[r][k] == b->orig[r][k]; k++) {}
            res->rank = r; res->offset = k / es; res->in_changed = 1;
            ac_format(d->dtype, b->orig[r] + k / es * es, res->expected);
            ac_format(d->dtype, b->in[r] + k / es * es, res->got);
            return 1;
        }
        for (k = 0; k + es <= b->outsz; k += es)
            if (memcmp(b->out[r] + k, b->want[r] + k, es) && !ac_equal(d->dtype, b->out[r] + k, b->want[r] + k)) {
                res->rank = r; res->offset = k / es; res->in_changed = 0;
                ac_format(d->dtype, b->want[r] + k, res->expected);
                ac_format(d->dtype, b->out[r] + k, res->got);
                return 1;
            }
    }
    return 0;
}

static void ac_free(ac_bufs *b) {
    int r;
    for (r = 0; r < b->p; r++) {
        if (b->in) free(b->in[r]);
        if (b->orig) free(b->orig[r]);
    }
    /* in, out and want share one array of pointers */
    free(b->in); free(b->orig); free(b->lay.scnt);
    b->in = b->orig = NULL;
    b->lay.scnt = NULL;
}
/* in_place (goal_algos.h BUFFERS): rank r's input goes where MPI_IN_PLACE has it in OUT
   (IN stays as it was, unused); a scatter's root keeps its block in IN and OUT stays 0xA5,
   as the reference's other undefined parts. */
static void ac_in_place(const goal_algo_desc *d, goal_coll c, ac_bufs *b, int r) {
    const goal_coll_info *k = goal_coll_get(c);
    int root = r == d->root, vector = (k->flags & GOAL_COLL_VECTOR) != 0;
    uint64_t at = 0, size = b->n;
    if (!d->in_place) return;
    switch (k->in_place) {
    case GOAL_COLL_INPLACE_ROOT_OWN_BLOCK: if (!root) return; /* fall through */
    case GOAL_COLL_INPLACE_OWN_BLOCK:
        at = vector ? b->lay.roff[r] : (uint64_t)r * b->n;
        size = vector ? b->lay.rcnt[r] : b->n;
        break;
    case GOAL_COLL_INPLACE_ROOT_OUT: if (!root) return; break;
    case GOAL_COLL_INPLACE_OUT: break;
    default: return;   /* scatter's root keeps its block in IN */
    }
    memcpy(b->out[r] + at, b->in[r], (size_t)size);
}
/* Allocates every rank's IN+OUT (one block: in then out) and the reference copies. */
static int ac_alloc(const goal_algo_desc *d, goal_coll c, int p, ac_bufs *b, uint64_t seed) {
    uint64_t bin, bout, s = seed;
    int r;
    memset(b, 0, sizeof *b);
    b->p = p;
    b->n = d->count * goal_dtype_size(d->dtype);
    if (goal_coll_get(c)->flags & GOAL_COLL_VECTOR) {
        if (ac_layout_make(d, c, p, &b->lay, &b->insz, &b->outsz)) return -1;
    } else {
        goal_coll_blocks(c, p, &bin, &bout);
        b->insz = bin * b->n;
        b->outsz = bout * b->n;
    }
    b->in = (unsigned char **)calloc((size_t)p * 4, sizeof(unsigned char *));
    b->orig = (unsigned char **)calloc((size_t)p, sizeof(unsigned char *));
    if (!b->in || !b->orig) return -1;
    b->out = b->in + p; b->want = b->out + p;
    for (r = 0; r < p; r++) {
        size_t all = (size_t)(b->insz + b->outsz) + 1;
        if (!(b->in[r] = (unsigned char *)malloc(all)) || !(b->orig[r] = (unsigned char *)malloc(all * 2))) return -1;
        b->out[r] = b->in[r] + b->insz;
        b->want[r] = b->orig[r] + all + b->insz;
        ac_fill(d, b->in[r], b->insz, &s);
        memset(b->out[r], 0xA5, (size_t)b->outsz);
        if (c == GOAL_COLL_BCAST && r == d->root) ac_fill(d, b->out[r], b->outsz, &s);
        ac_in_place(d, c, b, r);
        memcpy(b->orig[r], b->in[r], all - 1);
        memcpy(b->want[r], b->out[r], (size_t)b->outsz);
    }
    return 0;
}

goal_status ac_check(const goal_algo_desc *d, int p, int threads, uint64_t seed, ac_result *res, goal_error *err) {
    goal_coll c = (goal_coll)goal_algo_coll(d->algo);
    goal_world *w = NULL;
    ac_bufs b;
    goal_slot *slot = NULL;
    const goal_slot **slots = NULL;
    goal_world_run_desc rd;
    goal_user_fn fns[1];
    goal_status st;
    int r, *ranks = NULL;
    unsigned char *flag = NULL;
    res->rank = -1;
    if ((st = goal_algo_world(&w, d, p, err)) != GOAL_OK) return st;
    slot = (goal_slot *)calloc((size_t)p * 2, sizeof *slot);
    slots = (const goal_slot **)calloc((size_t)p, sizeof *slots);
    ranks = (int *)calloc((size_t)p, sizeof *ranks);
    flag = (unsigned char *)calloc((size_t)p, 1);
    st = GOAL_ERR_NOMEM;
    if (!slot || !slots || !ranks || !flag || ac_alloc(d, c, p, &b, seed)) goto done;
    for (r = 0; r < p; r++) {
        slot[2 * r].data = b.in[r]; slot[2 * r].size = b.insz;
        slot[2 * r + 1].data = b.out[r]; slot[2 * r + 1].size = b.outsz;
        slots[r] = &slot[2 * r];
    }
    fns[0] = ac_matmul;
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2; rd.threads = threads;
    rd.user_fns = fns; rd.nuser_fns = 1;
    if ((st = goal_world_run(&rd, err)) != GOAL_OK) goto done;
    ac_reference(d, c, &b, ranks, flag);
    ac_compare(d, &b, res);
done:
    if (st == GOAL_ERR_NOMEM && err && !err->msg[0]) snprintf(err->msg, sizeof err->msg, "out of memory");
    ac_free(&b);
    free(slot); free(slots); free(ranks); free(flag);
    goal_world_destroy(w);
    return st;
}
#endif
