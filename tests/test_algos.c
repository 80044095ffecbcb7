/* test_algos.c - goal_algos.h: structure against theory (matching, rounds), data against a
   reference over the in-process ranks, errors, composition, Aspen's concurrent reductions.
   `make test` runs a sample; GOAL_TEST_FULL=1 (make test-full) the whole matrix. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_algos.h"
#include "harness.h"
#define GOAL_ALGO_CHECK_IMPLEMENTATION
#include "../tools/algo_check.h"

/* ---- whole-world analysis ------------------------------------------------------------------ */
/* Sends and receives match pairwise (k-th send from a to b with tag t = k-th receive at b from
   a with tag t, same size); the world with message edges is acyclic; rounds = the longest
   chain of messages, each sent after (through local dependencies) the previous arrived.
   With ports = 1 a rank also sends one message per round and receives one per round, in
   index order (the single-port model, in which a binomial tree takes ceil(log2 p) rounds). */
typedef struct an_msg { int src, dst, tag; uint32_t idx; uint64_t size; long node; } an_msg;
typedef struct analysis { int matched, acyclic, rounds; long actions, messages; char why[200]; } analysis;

static int an_cmp(const void *a, const void *b) {
    const an_msg *x = (const an_msg *)a, *y = (const an_msg *)b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void analyze(const goal_world *w, int ports, analysis *an) {
    int p = goal_world_nranks(w), r;
    goal_schedule *s = (goal_schedule *)calloc((size_t)p, sizeof *s);
    long *base = (long *)calloc((size_t)p + 1, sizeof *base), N, k, ns = 0, nr = 0, head = 0, tail = 0;
    an_msg *snd, *rcv;
    long *match, *indeg, *queue, *dist, *next;
    memset(an, 0, sizeof *an);
    for (r = 0; r < p; r++) { goal_world_schedule(w, r, &s[r]); base[r + 1] = base[r] + s[r].nactions; }
    N = base[p];
    snd = (an_msg *)calloc((size_t)N + 1, sizeof *snd); rcv = (an_msg *)calloc((size_t)N + 1, sizeof *rcv);
    match = (long *)calloc((size_t)N + 1, sizeof *match); indeg = (long *)calloc((size_t)N + 1, sizeof *indeg);
    queue = (long *)calloc((size_t)N + 1, sizeof *queue); dist = (long *)calloc((size_t)N + 1, sizeof *dist);
    next = (long *)calloc((size_t)N + 1, sizeof *next);
    for (k = 0; k < N; k++) match[k] = next[k] = -1;
    for (r = 0; r < p; r++)
        for (k = 0; k < (long)s[r].nactions; k++) {
            goal_action a;
            an_msg m;
            goal_schedule_action(&s[r], (uint32_t)k, &a);
            if (a.kind != GOAL_SEND && a.kind != GOAL_RECV) continue;
            m.src = a.kind == GOAL_SEND ? r : a.peer; m.dst = a.kind == GOAL_SEND ? a.peer : r;
            m.tag = a.tag; m.idx = (uint32_t)k; m.size = a.buf.size; m.node = base[r] + k;
            if (a.kind == GOAL_SEND) snd[ns++] = m; else rcv[nr++] = m;
        }
    if (ports) {   /* port chains: snd and rcv are still in node order here */
        long lasts = -1, lastr = -1;
        for (k = 0; k < ns; k++) { if (lasts >= 0 && snd[lasts].src == snd[k].src) next[snd[lasts].node] = snd[k].node; lasts = k; }
        for (k = 0; k < nr; k++) { if (lastr >= 0 && rcv[lastr].dst == rcv[k].dst) next[rcv[lastr].node] = rcv[k].node; lastr = k; }
    }
    qsort(snd, (size_t)ns, sizeof *snd, an_cmp);
    qsort(rcv, (size_t)nr, sizeof *rcv, an_cmp);
    an->matched = ns == nr;
    if (!an->matched) snprintf(an->why, sizeof an->why, "%ld sends, %ld receives", ns, nr);
    for (k = 0; an->matched && k < ns; k++) {
        if (snd[k].src != rcv[k].src || snd[k].dst != rcv[k].dst || snd[k].tag != rcv[k].tag || snd[k].size != rcv[k].size) {
            an->matched = 0;
            snprintf(an->why, sizeof an->why, "send %d->%d tag %d %llub vs recv %d->%d tag %d %llub", snd[k].src, snd[k].dst,
                     snd[k].tag, (unsigned long long)snd[k].size, rcv[k].src, rcv[k].dst, rcv[k].tag, (unsigned long long)rcv[k].size);
        }
        match[snd[k].node] = rcv[k].node;
    }
    an->actions = N; an->messages = ns;
    for (r = 0; r < p; r++)
        for (k = 0; k < (long)s[r].nactions; k++) {
            const uint32_t *deps;
            uint32_t nd = goal_schedule_deps(&s[r], (uint32_t)k, &deps), j;
            for (j = 0; j < nd; j++) indeg[base[r] + (deps[j] & 0x7fffffffu)]++;
            if (an->matched && match[base[r] + k] >= 0) indeg[match[base[r] + k]]++;
            if (next[base[r] + k] >= 0) indeg[next[base[r] + k]]++;
        }
    for (k = 0; k < N; k++) if (!indeg[k]) queue[tail++] = k;
    while (head < tail) {
        long u = queue[head++], v;
        const uint32_t *deps;
        uint32_t nd, j;
        for (r = 0; base[r + 1] <= u; r++) {}
        nd = goal_schedule_deps(&s[r], (uint32_t)(u - base[r]), &deps);
        for (j = 0; j <= nd + 1; j++) {
            long add = j >= nd ? 1 : 0;
            v = j == nd ? (an->matched ? match[u] : -1) : j > nd ? next[u] : base[r] + (deps[j] & 0x7fffffffu);
            if (v < 0) continue;
            if (dist[v] < dist[u] + add) dist[v] = dist[u] + add;
            if (dist[v] > an->rounds) an->rounds = (int)dist[v];
            if (--indeg[v] == 0) queue[tail++] = v;
        }
    }
    an->acyclic = tail == N;
    if (!an->acyclic && !an->why[0]) snprintf(an->why, sizeof an->why, "cycle across ranks");
    free(s); free(base); free(snd); free(rcv); free(match); free(indeg); free(queue); free(dist); free(next);
}

static int ceil_log(long long p, long long b) { int k = 0; long long x = 1; while (x < p) { x *= b; k++; } return k; }
static int floor_log2(long long p) { int k = 0; while ((2LL << k) <= p) k++; return k; }

static goal_algo_desc desc_of(const char *algo, int root, uint64_t count, goal_dtype t, goal_op op) {
    goal_algo_desc d;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.root = root; d.count = count; d.dtype = t; d.op = op;
    return d;
}

/* A zeroed desc means sum on Int32: its exec actions say so and its messages carry count * 4
   bytes (it meant max on Int8 before; the binary schedule keeps its own numbers). */
static void test_zero_desc_defaults(void) {
    goal_algo_desc d;
    goal_world *w;
    goal_error err;
    goal_schedule s;
    goal_action a;
    uint32_t i, sends = 0, execs = 0;
    memset(&d, 0, sizeof d);
    d.algo = "allreduce_recdoub"; d.count = 3;
    CHECK_EQ(goal_algo_world(&w, &d, 4, &err), GOAL_OK);
    CHECK_EQ(goal_world_schedule(w, 1, &s), GOAL_OK);
    for (i = 0; i < s.nactions; i++) {
        goal_schedule_action(&s, i, &a);
        if (a.kind == GOAL_SEND) { sends++; CHECK_EQ(a.buf.size, 12); }
        if (a.kind == GOAL_EXEC && a.op != GOAL_OP_COPY) { execs++; CHECK_EQ(a.op, GOAL_OP_SUM); CHECK_EQ(a.dtype, GOAL_INT32); }
    }
    CHECK(sends > 0 && execs > 0);
    goal_world_destroy(w);
}

/* ---- structure ---------------------------------------------------------------------------------- */
static const int sample_p[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33, 64};
#define NSAMPLE ((int)(sizeof sample_p / sizeof sample_p[0]))

static int want_ports(const char *algo) { return !strcmp(algo, "bcast_binomial") || !strcmp(algo, "reduce_binomial"); }
static int expected_rounds(const char *algo, int p, int nway) {
    if (!strcmp(algo, "bcast_binomial") || !strcmp(algo, "reduce_binomial")) return ceil_log(p, 2);
    if (!strcmp(algo, "barrier_dissemination") || !strcmp(algo, "allreduce_dissemination")) return ceil_log(p, nway + 1);
    if (!strcmp(algo, "allreduce_recdoub")) return (p & (p - 1)) ? 2 + floor_log2(p) : floor_log2(p);
    if (!strcmp(algo, "allgather_bruck") || !strcmp(algo, "alltoall_bruck")) return ceil_log(p, 2);
    return -1;
}

static void test_structure(void) {
    int a, i, nway, maxp = th_full() ? 70 : NSAMPLE;
    const goal_algo_info *info;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++)
        for (i = 0; i < maxp; i++)
            for (nway = 1; nway <= ((info->flags & GOAL_ALGO_NWAY) ? 3 : 1); nway++) {
                int p = th_full() ? (i < 64 ? i + 1 : (int[]){100, 127, 128, 255, 256, 1000}[i - 64]) : sample_p[i];
                goal_algo_desc d = desc_of(info->name, p / 2, 3, GOAL_INT32, GOAL_OP_SUM);
                goal_world *w;
                goal_error err;
                analysis an;
                int want = expected_rounds(info->name, p, nway);
                d.nway = nway;
                if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { printf("  %s p=%d: %s\n", info->name, p, err.msg); CHECK(0); continue; }
                analyze(w, want_ports(info->name), &an);
                if (!an.matched || !an.acyclic || (want >= 0 && an.rounds > want))
                    printf("  %s p=%d nway=%d: matched %d acyclic %d rounds %d (want %d) %s\n", info->name, p, nway, an.matched,
                           an.acyclic, an.rounds, want, an.why);
                CHECK(an.matched);
                CHECK(an.acyclic);
                if (want >= 0 && !strcmp(info->name, "allreduce_recdoub")) CHECK(an.rounds <= want);   /* a bound */
                else if (want >= 0) CHECK_EQ(an.rounds, want);
                goal_world_destroy(w);
            }
}

/* Aspen's bound, on a (P, R) set; returns the rounds. */
static int aspen_rounds(int p, const int *P, int np, const int *R, int nr) {
    goal_algo_desc d = desc_of("reduce_aspen", 0, 2, GOAL_INT32, GOAL_OP_SUM);
    goal_world *w;
    goal_error err;
    analysis an;
    int i, j, rnp = 0, bound;
    ac_result res;
    d.participants = P; d.nparticipants = np; d.receivers = R; d.nreceivers = nr;
    for (i = 0; i < nr; i++) {
        int in = 0;
        for (j = 0; j < np; j++) in |= P[j] == R[i];
        rnp += !in;
    }
    bound = rnp <= np ? 2 + floor_log2(np) : 2 + ceil_log(rnp, 2);
    if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { printf("  %s\n", err.msg); CHECK(0); return -1; }
    analyze(w, 0, &an);
    CHECK(an.matched && an.acyclic);
    if (an.rounds > bound) printf("  aspen p=%d |P|=%d |R|=%d |Rnp|=%d: %d rounds > %d\n", p, np, nr, rnp, an.rounds, bound);
    CHECK(an.rounds <= bound);
    goal_world_destroy(w);
    CHECK_EQ(ac_check(&d, p, 0, 7, &res, &err), GOAL_OK);
    if (res.rank >= 0) printf("  aspen p=%d |P|=%d |R|=%d: rank %d elem %llu want %s got %s\n", p, np, nr, res.rank,
                              (unsigned long long)res.offset, res.expected, res.got);
    CHECK_EQ(res.rank, -1);
    return an.rounds;
}

/* Figure 4: participants 1..8, receivers 1, 2, 9, 10, 11 (here 0-based: 0..7 and 0, 1, 8, 9, 10). */
static void test_aspen_figure4(void) {
    int P[8] = {0, 1, 2, 3, 4, 5, 6, 7}, R[5] = {0, 1, 8, 9, 10};
    CHECK_EQ(aspen_rounds(11, P, 8, R, 5), 4);    /* halve, 2 butterfly rounds, deliver */
    CHECK_EQ(aspen_rounds(8, P, 8, P, 8), 3);     /* R = P: a butterfly allreduce */
    CHECK_EQ(aspen_rounds(8, P, 8, R, 1), 3);     /* one receiver: a tree reduce */
}

/* Random (P, R): R may hold non-participants and be larger than P. */
static void test_aspen_random(void) {
    uint64_t seed = 42;
    int t, trials = th_full() ? 2000 : 200;
    for (t = 0; t < trials; t++) {
        int p = 1 + (int)(ac_rand(&seed) % 40), perm[64], P[64], R[64], np, nr, i;
        for (i = 0; i < p; i++) perm[i] = i;
        for (i = p - 1; i > 0; i--) { int j = (int)(ac_rand(&seed) % (uint64_t)(i + 1)), x = perm[i]; perm[i] = perm[j]; perm[j] = x; }
        np = 1 + (int)(ac_rand(&seed) % (uint64_t)p);
        for (i = 0; i < np; i++) P[i] = perm[i];
        for (i = p - 1; i > 0; i--) { int j = (int)(ac_rand(&seed) % (uint64_t)(i + 1)), x = perm[i]; perm[i] = perm[j]; perm[j] = x; }
        nr = 1 + (int)(ac_rand(&seed) % (uint64_t)p);
        for (i = 0; i < nr; i++) R[i] = perm[i];
        aspen_rounds(p, P, np, R, nr);
    }
}

/* ---- data ------------------------------------------------------------------------------------------- */
static const goal_op int_ops[] = {GOAL_OP_SUM, GOAL_OP_PROD, GOAL_OP_MAX, GOAL_OP_MIN, GOAL_OP_BAND, GOAL_OP_BOR,
                                  GOAL_OP_BXOR, GOAL_OP_LAND, GOAL_OP_LOR, GOAL_OP_LXOR};
static const goal_op float_ops[] = {GOAL_OP_SUM, GOAL_OP_PROD, GOAL_OP_MAX, GOAL_OP_MIN};
static long cases_run, cases_skipped;

static void one_case(const char *algo, int p, int root, uint64_t count, goal_dtype t, int threads, uint64_t seed) {
    goal_algo_desc d = desc_of(algo, root, count, t, GOAL_OP_SUM);
    ac_result res;
    goal_error err;
    goal_status st;
    uint64_t bytes = count * goal_dtype_size(t) * (uint64_t)p * (uint64_t)p;
    if (bytes > (256u << 20)) { cases_skipped++; return; }   /* p blocks in and out per rank */
    d.op = (t >> 4) == 2 ? float_ops[seed % 4] : int_ops[seed % 10];
    d.nway = 1 + (int)(seed % 3);
    d.segment = (uint64_t)(1 + seed % 5) * 12;
    if (d.segment < count * goal_dtype_size(t) / 256) d.segment = count * goal_dtype_size(t) / 256;   /* at most ~256 segments */
    d.radix = 2 + (int)(seed % 4);
    st = ac_check(&d, p, threads, seed, &res, &err);
    cases_run++;
    if (st != GOAL_OK || res.rank >= 0) {
        if (st != GOAL_OK) printf("  %s p=%d root=%d count=%llu %s: %s\n", algo, p, root, (unsigned long long)count, goal_dtype_name(t), err.msg);
        else printf("  %s p=%d root=%d count=%llu %s op %s nway %d seg %llu: rank %d %s %llu: expected %s, got %s\n", algo, p, root,
                    (unsigned long long)count, goal_dtype_name(t), goal_op_name(d.op), d.nway, (unsigned long long)d.segment,
                    res.rank, res.in_changed ? "IN changed at" : "element", (unsigned long long)res.offset, res.expected, res.got);
        CHECK(0);
    }
}

static void roots_of(const goal_algo_info *info, int p, int *roots, int *nroots) {
    int k;
    *nroots = 0;
    if (!(info->flags & GOAL_ALGO_ROOTED)) { roots[(*nroots)++] = 0; return; }
    if (p <= 16 && th_full()) { for (k = 0; k < p; k++) roots[(*nroots)++] = k; return; }
    roots[(*nroots)++] = 0;
    if (p > 1) roots[(*nroots)++] = p - 1;
    if (p > 2) roots[(*nroots)++] = p / 2;
    if (p > 4 && th_full()) roots[(*nroots)++] = 1;
}

static void test_data_sample(void) {
    static const int ps[] = {1, 2, 3, 5, 6, 8, 11, 16, 17, 31};
    static const uint64_t counts[] = {0, 1, 7};
    const goal_algo_info *info;
    int a, i, j, k, roots[300], nroots;
    uint64_t seed = 1;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++) {
        for (i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++) {
            roots_of(info, ps[i], roots, &nroots);
            for (j = 0; j < nroots; j++)
                for (k = 0; k < 3; k++) one_case(info->name, ps[i], roots[j], counts[k], k == 2 ? GOAL_FLOAT32 : GOAL_INT32, 0, seed++);
        }
        one_case(info->name, 13, 0, 1024, GOAL_INT32, 0, seed++);
        one_case(info->name, 7, 6, 33, GOAL_FLOAT64, 1, seed++);            /* threaded */
        one_case(info->name, 4, 1, 1 << 18, GOAL_INT32, 0, seed++);          /* 1 MiB blocks */
        one_case(info->name, 100, 99, 3, GOAL_UINT8, 0, seed++);
    }
    printf("  %ld runs checked\n", cases_run);
}

static void test_data_full(void) {
    static const uint64_t counts[] = {0, 1, 7, 1024};
    static const int big[] = {100, 127, 128, 255};
    const goal_algo_info *info;
    int a, i, j, k, roots[300], nroots;
    uint64_t seed = 1000;
    if (!th_full()) return;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++)
        for (i = 0; i < 68; i++) {
            int p = i < 64 ? i + 1 : big[i - 64];
            roots_of(info, p, roots, &nroots);
            for (j = 0; j < nroots; j++)
                for (k = 0; k < 8; k++) one_case(info->name, p, roots[j], counts[k % 4], k < 4 ? GOAL_INT32 : GOAL_FLOAT32, 0, seed++);
            if (p <= 8) one_case(info->name, p, p - 1, 1 << 18, GOAL_FLOAT32, 0, seed++);
        }
    printf("  %ld runs checked, %ld skipped (over 256 MiB)\n", cases_run, cases_skipped);
}

/* Non-commutative (2x2 matrix products) in rank order, every root. */
static void test_noncommutative(void) {
    static const char *const ordered[] = {"reduce_binomial", "reduce_chain", "scan_linear", "exscan_linear", "reduce_knomial",
                                          "allreduce_reduce_bcast", "reduce_scatter_reduce_scatter",
                                          "reduce_scatterv_reduce_scatterv"};
    int a, p, root;
    for (a = 0; a < 8; a++)
        for (p = 1; p <= (th_full() ? 33 : 12); p++)
            for (root = 0; root < p; root++) {
                goal_algo_desc d = desc_of(ordered[a], root, 8, GOAL_UINT32, GOAL_OP_USER);
                ac_result res;
                goal_error err;
                d.noncommutative = 1;
                d.segment = 16;
                d.radix = 2 + p % 3;
                CHECK_EQ(ac_check(&d, p, 0, (uint64_t)(p * 100 + root), &res, &err), GOAL_OK);
                if (res.rank >= 0) printf("  %s p=%d root=%d: rank %d elem %llu\n", ordered[a], p, root, res.rank, (unsigned long long)res.offset);
                CHECK_EQ(res.rank, -1);
            }
}

/* ---- the same bits on every rank -------------------------------------------------------------- */
/* Every reducing algorithm whose result lands on several ranks (allreduce_*, and reduce_aspen
   with every rank a receiver) gives all of them the same bits, on random floats of wide range
   where the order of combination changes the rounding; and keeps its rounds. The list comes
   from the registry, so algorithms added later are covered. */
static int shared_result(const goal_algo_info *info) {
    return (info->flags & GOAL_ALGO_REDUCES) && (info->coll == GOAL_COLL_ALLREDUCE || (info->flags & GOAL_ALGO_SETS));
}
/* Sum: random bits, sign and exponents 2^-20..2^20; prod: random bits in +-[0.75, 1.25). */
static double random_float(uint64_t *seed, goal_op op) {
    uint64_t r = ac_rand(seed);
    double m = (double)(r >> 11) / 9007199254740992.0, sign = (r & 1) ? -1 : 1;
    if (op == GOAL_OP_PROD) return sign * (0.75 + m / 2);
    return sign * ldexp(0.5 + m / 2, (int)((r >> 1) % 41) - 20);
}
/* Runs d on p ranks with inputs x[r][k] (double) stored as d->dtype; 0 when every rank's OUT
   equals rank 0's bit for bit and is near the exact result. */
static int identical_case(const goal_algo_desc *d, int p, const double *x, uint64_t count) {
    size_t es = goal_dtype_size(d->dtype), n = (size_t)count * es;
    unsigned char *in = (unsigned char *)calloc((size_t)p, n), *out = (unsigned char *)calloc((size_t)p, n);
    goal_slot *slot = (goal_slot *)calloc((size_t)p * 2, sizeof *slot);
    const goal_slot **slots = (const goal_slot **)calloc((size_t)p, sizeof *slots);
    goal_world *w = NULL;
    goal_world_run_desc rd;
    goal_error err;
    int r, bad = 0;
    uint64_t k;
    for (r = 0; r < p; r++) {
        for (k = 0; k < count; k++) ac_putf(d->dtype, in + (size_t)r * n + k * es, x[(size_t)r * count + k]);
        slot[2 * r].data = in + (size_t)r * n; slot[2 * r].size = n;
        slot[2 * r + 1].data = out + (size_t)r * n; slot[2 * r + 1].size = n;
        slots[r] = &slot[2 * r];
    }
    memset(&rd, 0, sizeof rd);
    rd.slots = slots; rd.nslots = 2;
    if (goal_algo_world(&w, d, p, &err) != GOAL_OK || (rd.world = w, goal_world_run(&rd, &err)) != GOAL_OK) {
        printf("  %s p=%d: %s\n", d->algo, p, err.msg);
        bad = 1;
    }
    for (r = 1; r < p && !bad; r++) bad = memcmp(out, out + (size_t)r * n, n) != 0;
    if (d->op == GOAL_OP_MAX || d->op == GOAL_OP_MIN) {   /* order-free: a fold in rank order is the value */
        for (r = 1; r < p; r++) goal_apply(d->op, d->dtype, in, in + (size_t)r * n, n);
        bad = bad || memcmp(out, in, n) != 0;
    }
    for (k = 0; k < count && !bad && (d->op == GOAL_OP_SUM || d->op == GOAL_OP_PROD); k++) {   /* near the exact value: p roundings at most */
        double exact = d->op == GOAL_OP_PROD ? 1 : 0, mag = d->op == GOAL_OP_PROD ? 1 : 0, got = ac_getf(d->dtype, out + k * es);
        double eps = d->dtype == GOAL_FLOAT32 ? 1.2e-7 : 2.3e-16;
        for (r = 0; r < p; r++) {
            double v = x[(size_t)r * count + k];
            if (d->op == GOAL_OP_PROD) exact *= v; else { exact += v; mag += fabs(v); }
        }
        if (d->op == GOAL_OP_PROD) mag = fabs(exact);
        bad = fabs(got - exact) > 2 * p * eps * mag;
    }
    goal_world_destroy(w);
    free(in); free(out); free(slot); free(slots);
    return bad;
}
static void identical_algo(const goal_algo_info *info, int p, int nway, goal_dtype t, goal_op op, uint64_t *seed) {
    enum { COUNT = 37 };
    static int everyone[64];
    double x[33 * COUNT];
    goal_algo_desc d = desc_of(info->name, 0, COUNT, t, op);
    int r, want = expected_rounds(info->name, p, nway);
    for (r = 0; r < p * COUNT; r++) x[r] = random_float(seed, op);
    for (r = 0; r < p; r++) everyone[r] = r;
    d.nway = nway;
    if (info->flags & GOAL_ALGO_SETS) { d.receivers = everyone; d.nreceivers = p; }
    if (identical_case(&d, p, x, COUNT)) {
        printf("  %s p=%d nway=%d %s %s: ranks differ or the value is off\n", info->name, p, nway, goal_dtype_name(t), goal_op_name(op));
        CHECK(0);
    }
    if (want >= 0 && strcmp(info->name, "allreduce_recdoub")) {   /* the inexact path keeps the rounds */
        goal_world *w;
        goal_error err;
        analysis an;
        if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { CHECK(0); return; }
        analyze(w, 0, &an);
        CHECK_EQ(an.rounds, want);
        goal_world_destroy(w);
    }
}
static void test_identical_ranks(void) {
    static const goal_dtype types[] = {GOAL_FLOAT32, GOAL_FLOAT64};
    static const goal_op ops[] = {GOAL_OP_SUM, GOAL_OP_PROD};
    const goal_algo_info *info;
    uint64_t seed = 17;
    int a, p, nway, t, o, tested = 0;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++) {
        if (!shared_result(info)) continue;
        tested++;
        for (p = 1; p <= 33; p++)
            for (nway = 1; nway <= ((info->flags & GOAL_ALGO_NWAY) ? 3 : 1); nway++)
                for (t = 0; t < 2; t++)
                    for (o = 0; o < 2; o++) identical_algo(info, p, nway, types[t], ops[o], &seed);
    }
    CHECK(tested >= 4);   /* allreduce_recdoub, _dissemination, _ring, reduce_aspen at least */
}
/* max and min of -0, +0, numbers and NaNs of several signs and payloads: the same bits on
   every rank (allreduce_recdoub combines op(a, b) on one side, op(b, a) on the other). */
static void test_identical_minmax(void) {
    static const uint64_t bits[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x7FF8000000000000ull,
                                    0xFFF8000000000000ull, 0x7FFC000000000000ull, 0x3FF0000000000000ull};
    enum { COUNT = 16 };
    static int everyone[16];
    double x[16 * COUNT];
    const goal_algo_info *info;
    int a, p, t, o, r;
    for (r = 0; r < 16 * COUNT; r++) memcpy(&x[r], &bits[(size_t)(r * 7 + r / 5) % 6], 8);
    for (r = 0; r < 16; r++) everyone[r] = r;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++) {
        if (!shared_result(info)) continue;
        for (p = 2; p <= 16; p++)
            for (t = 0; t < 2; t++)
                for (o = 0; o < 2; o++) {
                    goal_algo_desc d = desc_of(info->name, 0, COUNT, t ? GOAL_FLOAT64 : GOAL_FLOAT32, o ? GOAL_OP_MIN : GOAL_OP_MAX);
                    if (info->flags & GOAL_ALGO_SETS) { d.receivers = everyone; d.nreceivers = p; }
                    if (identical_case(&d, p, x, COUNT)) {
                        printf("  %s p=%d %s %s: ranks differ or the value is off\n", info->name, p, goal_dtype_name(d.dtype), goal_op_name(d.op));
                        CHECK(0);
                    }
                }
    }
}
/* The reported case: float32 sum of 1e6, -1e6, 0.01 at p = 3 (0 on two ranks, 0.01 on one). */
static void test_identical_issue17(void) {
    double x[3] = {1e6, -1e6, 0.01};
    int nway;
    for (nway = 1; nway <= 3; nway++) {
        goal_algo_desc d = desc_of("allreduce_dissemination", 0, 1, GOAL_FLOAT32, GOAL_OP_SUM);
        d.nway = nway;
        CHECK_EQ(identical_case(&d, 3, x, 1), 0);
    }
}

/* ---- errors ------------------------------------------------------------------------------------------- */
static void expect_error(goal_algo_desc d, int p, goal_status want) {
    goal_world *w = NULL;
    goal_error err;
    goal_status st = goal_algo_world(&w, &d, p, &err);
    if (st != want) printf("  %s p=%d: got %d (%s), want %d\n", d.algo ? d.algo : "(null)", p, st, st ? err.msg : "", want);
    CHECK_EQ(st, want);
    CHECK(w == NULL);
    if (st) CHECK(strlen(err.msg) > 0);
}
static void test_invalid(void) {
    int dup[3] = {0, 1, 1}, out[2] = {0, 9}, ok[2] = {0, 1};
    goal_algo_desc d = desc_of("bcast_binomial", 0, 4, GOAL_INT32, GOAL_OP_SUM);
    goal_graph *g;
    goal_error err;
    int32_t bogus = 5;
    expect_error(d, 0, GOAL_ERR_RANK);
    expect_error(d, -3, GOAL_ERR_RANK);
    d.root = 4; expect_error(d, 4, GOAL_ERR_RANK);
    d.root = -1; expect_error(d, 4, GOAL_ERR_RANK);
    d.root = 0; d.algo = "bcast_nonsense"; expect_error(d, 4, GOAL_ERR_ARG);
    {   /* the library's message names no command-line verb: the tool adds its own hint */
        goal_world *w = NULL;
        d.algo = "bcast_binomal";
        CHECK_EQ(goal_algo_world(&w, &d, 4, &err), GOAL_ERR_ARG);
        CHECK_STR(err.msg, "unknown algorithm 'bcast_binomal'");
        d.algo = "bcast_binomial";
    }
    d.algo = NULL; expect_error(d, 4, GOAL_ERR_ARG);
    d = desc_of("barrier_dissemination", 0, 0, GOAL_INT8, GOAL_OP_SUM); d.nway = -1; expect_error(d, 4, GOAL_ERR_ARG);
    d = desc_of("reduce_aspen", 0, 4, GOAL_INT32, GOAL_OP_SUM);
    d.receivers = out; d.nreceivers = 2; expect_error(d, 4, GOAL_ERR_RANK);
    d.receivers = ok; d.participants = dup; d.nparticipants = 3; expect_error(d, 4, GOAL_ERR_ARG);
    d.participants = ok; d.nparticipants = 0; expect_error(d, 4, GOAL_ERR_ARG);
    d.participants = out; d.nparticipants = 2; expect_error(d, 4, GOAL_ERR_RANK);
    d = desc_of("allreduce_recdoub", 0, 4, GOAL_FLOAT32, GOAL_OP_BXOR); expect_error(d, 4, GOAL_ERR_OP);
    d = desc_of("allreduce_recdoub", 0, 4, GOAL_FLOAT16, GOAL_OP_SUM); expect_error(d, 4, GOAL_ERR_TYPE);
    d = desc_of("allreduce_recdoub", 0, 4, GOAL_INT32, GOAL_OP_USER); d.noncommutative = 1; expect_error(d, 4, GOAL_ERR_OP);
    d = desc_of("alltoall_bruck", 0, ~(uint64_t)0 / 2, GOAL_INT32, GOAL_OP_SUM); expect_error(d, 4, GOAL_ERR_SIZE);
    d = desc_of("bcast_binomial", 0, 4, GOAL_INT32, GOAL_OP_SUM); d.tag = -2; expect_error(d, 4, GOAL_ERR_ARG);
    /* after[] naming actions that do not exist; a NULL graph */
    g = th_graph(0, 4);
    d.tag = 0;
    CHECK_EQ(goal_algo_build(g, &d, &bogus, 1, NULL, &err), GOAL_ERR_ACTION);
    CHECK_EQ(goal_algo_build(NULL, &d, NULL, 0, NULL, &err), GOAL_ERR_ARG);
    CHECK(goal_algo_build(g, &d, NULL, 0, NULL, NULL) >= 0);   /* err may be NULL */
    goal_graph_destroy(g);
}

/* ---- composition ------------------------------------------------------------------------------------------ */
/* reduce_binomial to root 3, then bcast_binomial from 3 on OUT: an allreduce. */
static void test_compose(void) {
    int p = 11, r, k;
    goal_algo_desc red = desc_of("reduce_binomial", 3, 5, GOAL_INT64, GOAL_OP_SUM), bc = red;
    goal_world *w;
    goal_graph *g;
    goal_error err;
    int64_t in[11][5], out[11][5], want[5] = {0};
    goal_slot slot[11][2];
    const goal_slot *slots[11];
    goal_world_run_desc rd;
    goal_algo_part part;
    bc.algo = "bcast_binomial";
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = p}, NULL), GOAL_OK);
    g = th_graph(0, p);
    for (r = 0; r < p; r++) {
        int32_t done;
        goal_graph_reset(g, r, p);
        done = goal_algo_build(g, &red, NULL, 0, &part, &err);
        CHECK(done >= 0);
        bc.scratch_offset = part.scratch_end;
        CHECK(goal_algo_build(g, &bc, &done, 1, NULL, &err) >= 0);
        CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_OK);
        for (k = 0; k < 5; k++) { in[r][k] = r * 1000 + k; want[k] += in[r][k]; out[r][k] = -1; }
        slot[r][0].data = in[r]; slot[r][0].size = sizeof in[r];
        slot[r][1].data = out[r]; slot[r][1].size = sizeof out[r];
        slots[r] = slot[r];
    }
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2;
    CHECK_EQ(goal_world_run(&rd, &err), GOAL_OK);
    for (r = 0; r < p; r++) for (k = 0; k < 5; k++) CHECK_EQ(out[r][k], want[k]);
    goal_graph_destroy(g);
    goal_world_destroy(w);
}

/* Aspen 3.3, Figure 5: r1 = sum over p0..p3 to p0 and p2; r2 = product over p1, p2 to p3;
   both in one schedule per rank, in flight at once, told apart by their tags. */
static void test_aspen_concurrent(void) {
    int P2[2] = {1, 2}, R1[2] = {0, 2}, R2[1] = {3}, r;
    goal_algo_desc r1 = desc_of("reduce_aspen", 0, 4, GOAL_FLOAT64, GOAL_OP_SUM), r2 = r1;
    goal_world *w;
    goal_graph *g;
    goal_error err;
    double in[4][8], out[4][8];
    goal_slot slot[4][2];
    const goal_slot *slots[4];
    goal_world_run_desc rd;
    goal_algo_part part;
    analysis an;
    r1.receivers = R1; r1.nreceivers = 2;
    r2.op = GOAL_OP_PROD; r2.participants = P2; r2.nparticipants = 2; r2.receivers = R2; r2.nreceivers = 1;
    r2.tag = 1; r2.in_offset = r2.out_offset = 32;
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = 4}, NULL), GOAL_OK);
    g = th_graph(0, 4);
    for (r = 0; r < 4; r++) {
        int k;
        goal_graph_reset(g, r, 4);
        CHECK(goal_algo_build(g, &r1, NULL, 0, &part, &err) >= 0);
        r2.scratch_offset = part.scratch_end;
        CHECK(goal_algo_build(g, &r2, NULL, 0, NULL, &err) >= 0);   /* independent: concurrent */
        CHECK_EQ(goal_world_add_graph(w, g, &err), GOAL_OK);
        for (k = 0; k < 8; k++) { in[r][k] = r + 1 + k; out[r][k] = -1; }
        slot[r][0].data = in[r]; slot[r][0].size = sizeof in[r];
        slot[r][1].data = out[r]; slot[r][1].size = sizeof out[r];
        slots[r] = slot[r];
    }
    analyze(w, 0, &an);
    CHECK(an.matched && an.acyclic);
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2;
    CHECK_EQ(goal_world_run(&rd, &err), GOAL_OK);
    for (r = 0; r < 4; r++) {
        int k;
        for (k = 0; k < 4; k++) {
            double sum = 10 + 4 * k;
            CHECK(out[r][k] == (r == 0 || r == 2 ? sum : -1));
            CHECK(out[r][4 + k] == (r == 3 ? (double)(2 + 4 + k) * (3 + 4 + k) : -1));
        }
    }
    rd.threads = 1;
    for (r = 0; r < 4; r++) { int k; for (k = 0; k < 8; k++) out[r][k] = -1; }
    CHECK_EQ(goal_world_run(&rd, &err), GOAL_OK);
    CHECK(out[0][0] == 10 && out[2][3] == 22 && out[3][4] == 42 && out[1][0] == -1);
    goal_graph_destroy(g);
    goal_world_destroy(w);
}

/* Every allocation of a build is freed, also when allocations fail. */
static void test_allocator(void) {
    int P[3] = {0, 2, 4}, R[4] = {1, 3, 5, 6}, fail;
    for (fail = -1; fail < 40; fail++) {
        th_counter cnt;
        goal_algo_desc d = desc_of("reduce_aspen", 0, 4, GOAL_INT32, GOAL_OP_SUM);
        goal_world *w = NULL;
        goal_error err;
        goal_status st;
        d.participants = P; d.nparticipants = 3; d.receivers = R; d.nreceivers = 4;
        d.alloc = th_counting(&cnt, fail);
        st = goal_algo_world(&w, &d, 7, &err);
        CHECK(st == GOAL_OK || st == GOAL_ERR_NOMEM);
        if (st == GOAL_OK) goal_world_destroy(w);
        CHECK_EQ(cnt.allocs, cnt.frees);
    }
}

/* ---- vector collectives ------------------------------------------------------------------------- */
static const char *const vec_names[] = {"gatherv_linear", "gatherv_binomial", "scatterv_linear", "allgatherv_ring",
                                        "alltoallv_pairwise", "reduce_scatterv_ring", "reduce_scatterv_reduce_scatterv"};
#define NVEC 7

/* One row of p counts (pattern 0: all `count`, as counts = NULL would; 1: random 0..7 with
   zeros; 2: random, displacements with gaps; 3: random, blocks in reverse rank order with
   gaps; 4: all zero) and its displacements (NULL for packed patterns). */
static void vec_row(int pattern, int p, uint64_t *seed, int *cnt, int *dsp, int *use_dsp) {
    int j, at = 0;
    for (j = 0; j < p; j++) cnt[j] = pattern == 0 ? 3 : pattern == 4 ? 0 : (int)(ac_rand(seed) % 8);
    *use_dsp = pattern == 2 || pattern == 3;
    for (j = 0; j < p; j++) {
        int b = pattern == 3 ? p - 1 - j : j;
        at += pattern >= 2 ? (int)(ac_rand(seed) % 4) : 0;
        dsp[b] = at;
        at += cnt[b];
    }
}
/* The column counts of a p x p matrix and displacements of the same pattern for them. */
static void vec_col(int pattern, int p, uint64_t *seed, const int *m, int col, int *cnt, int *dsp) {
    int j, at = 0;
    for (j = 0; j < p; j++) cnt[j] = m[(size_t)j * (size_t)p + (size_t)col];
    for (j = 0; j < p; j++) {
        int b = pattern == 3 ? p - 1 - j : j;
        at += pattern >= 2 ? (int)(ac_rand(seed) % 4) : 0;
        dsp[b] = at;
        at += cnt[b];
    }
}

typedef struct vec_arrays { int *counts, *displs, *rdispls, *col; } vec_arrays;

/* Fills d's arrays for the pattern (alltoallv: p x p matrices, counts_matrix). */
static void vec_setup(goal_algo_desc *d, vec_arrays *v, int p, int pattern, uint64_t seed) {
    int a2a = goal_algo_coll(d->algo) == GOAL_COLL_ALLTOALLV, rows = a2a ? p : 1, r, use = 0;
    size_t P = (size_t)p;
    v->counts = (int *)calloc(P * P, sizeof(int)); v->displs = (int *)calloc(P * P, sizeof(int));
    v->rdispls = (int *)calloc(P * P, sizeof(int)); v->col = (int *)calloc(P, sizeof(int));
    for (r = 0; r < rows; r++) vec_row(pattern, p, &seed, v->counts + (size_t)r * P, v->displs + (size_t)r * P, &use);
    for (r = 0; a2a && r < p; r++) vec_col(pattern, p, &seed, v->counts, r, v->col, v->rdispls + (size_t)r * P);
    d->counts = pattern == 0 && !a2a ? NULL : v->counts;   /* pattern 0 alone: counts NULL, count 3 */
    d->count = 3;
    d->displs = use ? v->displs : NULL;
    d->recv_displs = a2a && use ? v->rdispls : NULL;
    d->counts_matrix = a2a;
}
static void vec_free(vec_arrays *v) { free(v->counts); free(v->displs); free(v->rdispls); free(v->col); }

static void vec_case(const char *algo, int p, int root, int pattern, goal_dtype t, uint64_t seed) {
    goal_algo_desc d = desc_of(algo, root, 3, t, (t >> 4) == 2 ? float_ops[seed % 4] : int_ops[seed % 10]);
    vec_arrays v;
    ac_result res;
    goal_error err;
    goal_world *w;
    analysis an;
    vec_setup(&d, &v, p, pattern, seed);
    CHECK_EQ(ac_check(&d, p, (int)(seed % 7 == 0), seed, &res, &err), GOAL_OK);
    cases_run++;
    if (res.rank >= 0)
        printf("  %s p=%d root=%d pattern %d %s: rank %d %s %llu: expected %s, got %s\n", algo, p, root, pattern, goal_dtype_name(t),
               res.rank, res.in_changed ? "IN changed at" : "element", (unsigned long long)res.offset, res.expected, res.got);
    CHECK_EQ(res.rank, -1);
    if (goal_algo_world(&w, &d, p, &err) == GOAL_OK) {   /* structure: matched, acyclic */
        analyze(w, 0, &an);
        if (!an.matched || !an.acyclic) printf("  %s p=%d root=%d pattern %d: %s\n", algo, p, root, pattern, an.why);
        CHECK(an.matched && an.acyclic);
        goal_world_destroy(w);
    } else CHECK(0);
    vec_free(&v);
}

static void test_vector_list(void) {
    int i;
    for (i = 0; i < NVEC; i++) {
        const goal_algo_info *info = goal_algo_find(vec_names[i]);
        CHECK(info != NULL);
        if (info) CHECK(info->flags & GOAL_ALGO_VECTOR);
    }
}

/* Every p of the issue, several roots, every pattern: data against the reference. */
static void test_vector_data(void) {
    static const int ps[] = {1, 2, 3, 5, 6, 8, 11, 16, 17, 31, 100};
    int a, i, j, pattern, roots[300], nroots;
    uint64_t seed = 77;
    long before = cases_run;
    for (a = 0; a < NVEC; a++)
        for (i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++) {
            roots_of(goal_algo_find(vec_names[a]), ps[i], roots, &nroots);
            for (j = 0; j < nroots; j++)
                for (pattern = 0; pattern < 5; pattern++)
                    vec_case(vec_names[a], ps[i], roots[j], pattern, pattern == 2 ? GOAL_FLOAT64 : GOAL_INT32, seed++);
        }
    printf("  %ld vector runs checked\n", cases_run - before);
}

/* The first s1->nactions actions of both are the same. */
static int same_actions(const goal_schedule *s1, const goal_schedule *s2) {
    uint32_t i;
    for (i = 0; i < s1->nactions && i < s2->nactions; i++) {
        goal_action x, y;
        goal_schedule_action(s1, i, &x);
        goal_schedule_action(s2, i, &y);
        if (x.kind != y.kind || x.peer != y.peer || x.tag != y.tag || x.buf.slot != y.buf.slot || x.buf.offset != y.buf.offset ||
            x.buf.size != y.buf.size || x.buf2.offset != y.buf2.offset || x.buf2.size != y.buf2.size) return 0;
    }
    return 1;
}
/* Each rank with its own arrays, as an MPI binding passes them (alltoallv: this rank's
   sendcounts, sdispls, recvcounts, rdispls; gatherv_linear / scatterv_linear at a non-root:
   count only), gives the same schedules as one desc for the world. */
static void test_vector_per_rank(void) {
    static const char *const algos[] = {"alltoallv_pairwise", "gatherv_linear", "scatterv_linear"};
    int a, p = 7, r, pattern;
    for (a = 0; a < 3; a++)
        for (pattern = 1; pattern < 4; pattern++) {
            goal_algo_desc d = desc_of(algos[a], 2, 3, GOAL_INT32, GOAL_OP_SUM);
            vec_arrays v;
            goal_world *w, *w2;
            goal_graph *g;
            goal_error err;
            vec_setup(&d, &v, p, pattern, (uint64_t)(a * 10 + pattern));
            CHECK_EQ(goal_algo_world(&w, &d, p, &err), GOAL_OK);
            CHECK_EQ(goal_world_create(&w2, &(goal_world_desc){.nranks = p}, NULL), GOAL_OK);
            g = th_graph(0, p);
            for (r = 0; r < p; r++) {
                goal_algo_desc e = d;
                goal_schedule s1, s2;
                int k;
                if (a == 0) {   /* row r, column r */
                    for (k = 0; k < p; k++) v.col[k] = v.counts[(size_t)k * (size_t)p + (size_t)r];
                    e.counts_matrix = 0;
                    e.counts = v.counts + (size_t)r * (size_t)p;
                    e.recv_counts = v.col;
                    e.displs = d.displs ? d.displs + (size_t)r * (size_t)p : NULL;
                    e.recv_displs = d.recv_displs ? d.recv_displs + (size_t)r * (size_t)p : NULL;
                } else if (r != d.root) {
                    e.count = (uint64_t)v.counts[r];
                    e.counts = NULL;
                    e.displs = NULL;
                }
                goal_graph_reset(g, r, p);
                CHECK(goal_algo_build(g, &e, NULL, 0, NULL, &err) >= 0);
                CHECK_EQ(goal_world_add_graph(w2, g, &err), GOAL_OK);
                goal_world_schedule(w, r, &s1);
                goal_world_schedule(w2, r, &s2);
                CHECK(s2.nactions == s1.nactions || s2.nactions == s1.nactions + 1);   /* + the final join */
                CHECK(same_actions(&s1, &s2));
            }
            goal_graph_destroy(g);
            goal_world_destroy(w);
            goal_world_destroy(w2);
            vec_free(&v);
        }
}

static void test_vector_errors(void) {
    int neg[3] = {1, -1, 2}, ok[3] = {1, 2, 3}, m[4] = {1, 2, 3, 4}, mm[4] = {1, 2, 3, 4}, rc[2] = {1, 5};
    goal_algo_desc d = desc_of("gatherv_linear", 0, 4, GOAL_INT32, GOAL_OP_SUM);
    goal_graph *g;
    goal_error err;
    d.counts = neg; expect_error(d, 3, GOAL_ERR_ARG);
    d.counts = ok; d.displs = neg; expect_error(d, 3, GOAL_ERR_ARG);
    d.displs = NULL; d.counts_matrix = 1; expect_error(d, 3, GOAL_ERR_ARG);        /* matrix: alltoallv only */
    d.counts_matrix = 0; d.recv_counts = ok; expect_error(d, 3, GOAL_ERR_ARG);     /* recv_counts: alltoallv only */
    d = desc_of("alltoallv_pairwise", 0, 4, GOAL_INT32, GOAL_OP_SUM);
    d.counts_matrix = 1; expect_error(d, 2, GOAL_ERR_ARG);                         /* matrix without counts */
    d.counts = m; d.recv_counts = rc; expect_error(d, 2, GOAL_ERR_ARG);            /* matrix and recv_counts */
    d.recv_counts = NULL; d.recv_displs = neg; expect_error(d, 2, GOAL_ERR_ARG);
    /* per rank: rank 0 sends itself m[0] = 1 element but receives rc[0] = 1: fine; rank 1: 2 vs 5 */
    d = desc_of("alltoallv_pairwise", 0, 4, GOAL_INT32, GOAL_OP_SUM);
    d.counts = mm + 2; d.recv_counts = rc;
    g = th_graph(1, 2);
    CHECK_EQ(goal_algo_build(g, &d, NULL, 0, NULL, &err), GOAL_ERR_SIZE);
    CHECK(strstr(err.msg, "sends itself 4 elements but receives 5") != NULL);
    goal_graph_destroy(g);
    d = desc_of("reduce_scatterv_ring", 0, 4, GOAL_FLOAT32, GOAL_OP_BXOR); d.counts = ok; expect_error(d, 3, GOAL_ERR_OP);
}

/* ---- bandwidth-optimal families -------------------------------------------------------------------- */
static const char *const bw_algos[] = {"bcast_scatter_allgather", "reduce_rabenseifner", "allreduce_rabenseifner",
    "reduce_scatter_halving", "bcast_knomial", "reduce_knomial", "bcast_pipelined_tree", "reduce_pipelined_tree", "bcast_dbtree",
    "reduce_dbtree", "allreduce_dbtree", "allgather_neighbor"};
#define NBW ((int)(sizeof bw_algos / sizeof bw_algos[0]))

/* The matrix of the issue: p up to 100, several roots, 0/1/7/1024 elements and 3p+1 (which
   p does not divide), integer and float data. */
static void test_bw_data(void) {
    static const int ps[] = {1, 2, 3, 5, 6, 8, 11, 16, 17, 31, 100};
    int a, i, j, k, roots[300], nroots;
    uint64_t seed = 5000;
    for (a = 0; a < NBW; a++)
        for (i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++) {
            uint64_t counts[5] = {0, 1, 7, 1024, 0};
            counts[4] = 3 * (uint64_t)ps[i] + 1;
            roots_of(goal_algo_find(bw_algos[a]), ps[i], roots, &nroots);
            for (j = 0; j < nroots; j++)
                for (k = 0; k < 5; k++) {
                    if (ps[i] >= 31 && (j > 0 || k == 3) && !th_full()) continue;   /* keep make test cheap */
                    one_case(bw_algos[a], ps[i], roots[j], counts[k], k % 2 ? GOAL_FLOAT64 : GOAL_INT32, 0, seed++);
                }
        }
}

/* Bytes per rank: Rabenseifner's allreduce and reduce-scatter send (p-1)/p of the data per
   phase on powers of two; the fold adds n on the pairs' ranks. van de Geijn's broadcast
   sends at most 2n per rank. */
static void test_bw_bytes(void) {
    static const int ps[] = {2, 4, 12, 16, 64};
    int i, r;
    for (i = 0; i < 5; i++) {
        int p = ps[i], q = 1 << floor_log2(p), extra = p - q;
        uint64_t n = 4096 * 4, c = 64;
        goal_algo_desc ar = desc_of("allreduce_rabenseifner", 0, 4096, GOAL_INT32, GOAL_OP_SUM);
        goal_algo_desc rs = desc_of("reduce_scatter_halving", 0, c, GOAL_INT32, GOAL_OP_SUM);
        goal_algo_desc bc = desc_of("bcast_scatter_allgather", p / 2, 4096, GOAL_INT32, GOAL_OP_SUM);
        goal_world *w1, *w2, *w3;
        goal_error err;
        CHECK_EQ(goal_algo_world(&w1, &ar, p, &err), GOAL_OK);
        CHECK_EQ(goal_algo_world(&w2, &rs, p, &err), GOAL_OK);
        CHECK_EQ(goal_algo_world(&w3, &bc, p, &err), GOAL_OK);
        for (r = 0; r < p; r++) {
            uint64_t halves = 2 * (n / (uint64_t)q) * (uint64_t)(q - 1);
            int paired = r < 2 * extra, kept = paired && (r & 1);
            CHECK_EQ(th_bytes_sent(w1, r), paired ? (kept ? halves + n : n) : halves);
            if (!extra) CHECK_EQ(th_bytes_sent(w2, r), (uint64_t)(p - 1) * c * 4);
            CHECK(th_bytes_sent(w3, r) <= 2 * n);
        }
        goal_world_destroy(w1); goal_world_destroy(w2); goal_world_destroy(w3);
    }
}

/* Depth of the k-nomial tree on p positions: the most nonzero base-K digits of a v < p
   (every message of a stage is sent at once, so that is the longest chain of messages). */
static int knomial_depth(int p, int K) {
    int v, best = 0;
    for (v = 0; v < p; v++) {
        int x = v, nz = 0;
        for (; x; x /= K) nz += x % K != 0;
        if (nz > best) best = nz;
    }
    return best;
}
/* k-nomial trees: the tree's depth in message stages, at most ceil(log_K p) (exactly that
   for p = K^t), for every radix, p and root; radix 1 or negative is refused. */
static void test_knomial_depth(void) {
    static const char *const names[] = {"bcast_knomial", "reduce_knomial"};
    int a, i, K;
    for (a = 0; a < 2; a++)
        for (K = 2; K <= 9; K++)
            for (i = 0; i < NSAMPLE; i++) {
                int p = sample_p[i];
                goal_algo_desc d = desc_of(names[a], p / 3, 3, GOAL_INT32, GOAL_OP_SUM);
                goal_world *w;
                goal_error err;
                analysis an;
                d.radix = K;
                CHECK_EQ(goal_algo_world(&w, &d, p, &err), GOAL_OK);
                analyze(w, 0, &an);
                CHECK(an.matched && an.acyclic);
                if (an.rounds != knomial_depth(p, K)) printf("  %s K=%d p=%d: %d rounds\n", names[a], K, p, an.rounds);
                CHECK_EQ(an.rounds, knomial_depth(p, K));
                CHECK(an.rounds <= ceil_log(p, K));
                if (p == K * K || p == K * K * K) CHECK_EQ(an.rounds, ceil_log(p, K));
                goal_world_destroy(w);
            }
    {
        goal_algo_desc d = desc_of("bcast_knomial", 0, 4, GOAL_INT32, GOAL_OP_SUM);
        d.radix = 1; expect_error(d, 4, GOAL_ERR_ARG);
        d.radix = -2; expect_error(d, 4, GOAL_ERR_ARG);
    }
}

/* The two trees: with a 12-byte message in 8-byte segments, segment 0 (8 B) goes down tree
   0 and segment 1 (4 B) down tree 1, so a rank that sends 8-byte messages is interior in
   tree 0 and one that sends 4-byte messages in tree 1: never both (the root aside). Every
   rank sends at most n plus a segment (allreduce: up and down, 2n plus two). */
static void test_dbtree_trees(void) {
    int p, root, r;
    for (p = 1; p <= 40; p++)
        for (root = 0; root < p; root += p / 3 + 1) {
            goal_algo_desc d = desc_of("bcast_dbtree", root, 3, GOAL_INT32, GOAL_OP_SUM), a = d, big = d;
            goal_world *w, *wa, *wb;
            goal_error err;
            int interior[2] = {0, 0};
            d.segment = 8;
            a.algo = "allreduce_dbtree"; a.count = 4096; a.segment = 1024;
            big.count = 4096; big.segment = 1024;
            CHECK_EQ(goal_algo_world(&w, &d, p, &err), GOAL_OK);
            CHECK_EQ(goal_algo_world(&wa, &a, p, &err), GOAL_OK);
            CHECK_EQ(goal_algo_world(&wb, &big, p, &err), GOAL_OK);
            for (r = 0; r < p; r++) {
                goal_schedule s;
                goal_action act;
                uint32_t k;
                int sizes = 0;
                goal_world_schedule(w, r, &s);
                for (k = 0; k < s.nactions; k++) {
                    goal_schedule_action(&s, k, &act);
                    if (act.kind == GOAL_SEND) sizes |= act.buf.size == 8 ? 1 : 2;
                }
                if (r != root) CHECK(sizes != 3);
                if (r != root && (sizes & 1)) interior[0]++;
                if (r != root && (sizes & 2)) interior[1]++;
                CHECK(th_bytes_sent(wb, r) <= 4096 * 4 + 1024);
                CHECK(th_bytes_sent(wa, r) <= 2 * (4096 * 4 + 1024));
            }
            if (p > 4) CHECK(interior[0] > 0 && interior[1] > 0);
            goal_world_destroy(w); goal_world_destroy(wa); goal_world_destroy(wb);
        }
}

/* Neighbour exchange: p/2 steps for even p; one more for odd p (the hand-over to rank p-2
   overlaps the first step elsewhere, the hand-back comes last). */
static void test_neighbor_steps(void) {
    int p;
    for (p = 1; p <= 33; p++) {
        goal_algo_desc d = desc_of("allgather_neighbor", 0, 5, GOAL_INT32, GOAL_OP_SUM);
        goal_world *w;
        goal_error err;
        analysis an;
        CHECK_EQ(goal_algo_world(&w, &d, p, &err), GOAL_OK);
        analyze(w, 0, &an);
        CHECK(an.matched && an.acyclic);
        CHECK_EQ(an.rounds, p == 1 ? 0 : p / 2 + (p & 1));
        goal_world_destroy(w);
    }
}

static void test_list(void) {
    static const char *const names[] = {"bcast_binomial", "reduce_binomial", "barrier_dissemination", "allreduce_dissemination",
        "bcast_chain", "reduce_chain", "reduce_aspen", "allreduce_recdoub", "bcast_binary", "gather_linear", "gather_binomial",
        "scatter_linear", "scatter_binomial", "allgather_ring", "allgather_recdoub", "allgather_bruck", "alltoall_linear",
        "alltoall_pairwise", "alltoall_bruck", "reduce_scatter_ring", "allreduce_ring", "scan_linear", "exscan_linear",
        "barrier_linear", "bcast_doublering"};
    int i;
    for (i = 0; i < 25; i++) {
        CHECK(goal_algo_find(names[i]) != NULL);
        CHECK(goal_algo_list(i) != NULL);
    }
    for (i = 0; i < NBW; i++) CHECK(goal_algo_find(bw_algos[i]) != NULL);
    CHECK(goal_algo_find("allreduce_reduce_bcast") != NULL && goal_algo_find("reduce_scatter_reduce_scatter") != NULL);
    for (i = 0; goal_algo_list(i) != NULL && i < 100000; i++) CHECK(goal_algo_find(goal_algo_list(i)->name) == goal_algo_list(i));
    CHECK(goal_algo_list(i) == NULL);
    CHECK(goal_algo_list(-1) == NULL);
    CHECK(goal_algo_find("nope") == NULL);
    CHECK(goal_algo_coll("nope") == -1 && goal_algo_coll(NULL) == -1);
}

/* The collective table (goal_algos.h COLLECTIVES) agrees with the registry: each algorithm's
   name begins with its collective's, the longest such; a collective is rooted, reduces or is
   vector when all its algorithms are, has an in-place rule when one of them takes in_place,
   has an algorithm; the tuned rows come first; names and MPI calls are found back. */
static void test_coll_table(void) {
    unsigned all[GOAL_COLL_COUNT], any[GOAL_COLL_COUNT];
    const goal_algo_info *a;
    int c, i, k;
    memset(all, 0xFF, sizeof all);
    memset(any, 0, sizeof any);
    for (i = 0; (a = goal_algo_list(i)) != NULL; i++) {
        size_t n = strlen(goal_coll_get((int)a->coll)->name), longest = 0;
        CHECK(strncmp(a->name, goal_coll_get((int)a->coll)->name, n) == 0 && a->name[n] == '_');
        for (k = 0; k < GOAL_COLL_COUNT; k++) {
            size_t m = strlen(goal_coll_get(k)->name);
            if (strncmp(a->name, goal_coll_get(k)->name, m) == 0 && a->name[m] == '_' && m > longest) longest = m;
        }
        CHECK_EQ(longest, n);
        CHECK_EQ(goal_algo_coll(a->name), (int)a->coll);
        all[a->coll] &= a->flags;
        any[a->coll] |= a->flags | 0x80000000u;
    }
    for (c = 0; c < GOAL_COLL_COUNT; c++) {
        const goal_coll_info *k = goal_coll_get(c);
        CHECK(k != NULL && (int)k->coll == c && goal_coll_find(k->name) == c && strncmp(k->mpi, "MPI_", 4) == 0);
        CHECK(any[c] != 0);
        CHECK_EQ(!!(k->flags & GOAL_COLL_ROOTED), !!(all[c] & GOAL_ALGO_ROOTED));
        CHECK_EQ(!!(k->flags & GOAL_COLL_REDUCES), !!(all[c] & GOAL_ALGO_REDUCES));
        CHECK_EQ(!!(k->flags & GOAL_COLL_VECTOR), !!(all[c] & GOAL_ALGO_VECTOR));
        CHECK(k->in_place != GOAL_COLL_INPLACE_NONE || !(any[c] & GOAL_ALGO_INPLACE));
        CHECK_EQ(!!(k->flags & GOAL_COLL_TUNED), c < GOAL_COLL_NTUNED);
    }
    CHECK(goal_coll_get(GOAL_COLL_COUNT) == NULL && goal_coll_get(-1) == NULL && goal_coll_find("nope") == -1);
    /* every MPI call by name: each row's call among them, found back; no two alike */
    for (c = 0; c < GOAL_COLL_COUNT; c++) {
        char call[64];
        const char *m = goal_coll_get(c)->mpi + 4;
        for (k = 0; m[k] && k < 63; k++) call[k] = (char)(m[k] >= 'A' && m[k] <= 'Z' ? m[k] - 'A' + 'a' : m[k]);
        call[k] = 0;
        CHECK(goal_coll_call_find(call) >= 0 && goal_coll_find_call(call) == c);
    }
    for (k = 0; k < GOAL_COLL_NCALLS; k++) CHECK_EQ(goal_coll_call_find(goal_coll_call(k)), k);
    CHECK(goal_coll_call(GOAL_COLL_NCALLS) == NULL && goal_coll_call(-1) == NULL && goal_coll_call_find("bcastx") == -1 &&
          goal_coll_call_find(NULL) == -1);
}

/* ---- local copies ----------------------------------------------------------------------------- */
/* Bytes one rank's schedule moves with exec copy actions. */
static uint64_t copy_bytes(const goal_world *w, int rank) {
    goal_schedule s;
    uint64_t b = 0;
    uint32_t i;
    goal_world_schedule(w, rank, &s);
    for (i = 0; i < s.nactions; i++) {
        goal_action a;
        goal_schedule_action(&s, i, &a);
        if (a.kind == GOAL_EXEC && a.op == GOAL_OP_COPY) b += a.buf.size;
    }
    return b;
}
/* The copies the header's LOCAL COPIES table promises, in blocks of n, for the data-movement
   algorithms; -1 for the others. */
static long want_copy_blocks(const char *algo, int p, int root, int rank) {
    int v = (rank - root + p) % p, rho = 1, inner = v > 0 && v % 2 == 0 && v + 1 < p;
    long bits = 0, b;
    while (2 * rho <= p) rho *= 2;
    if (goal_algo_coll(algo) == GOAL_COLL_BCAST || goal_algo_coll(algo) == GOAL_COLL_BARRIER) return 0;
    if (!strcmp(algo, "gather_linear") || !strcmp(algo, "scatter_linear")) return v == 0;
    if (!strcmp(algo, "gather_binomial") || !strcmp(algo, "scatter_binomial")) return v == 0 || inner;
    if (!strcmp(algo, "allgather_ring") || !strcmp(algo, "alltoall_linear") || !strcmp(algo, "alltoall_pairwise")) return 1;
    if (!strcmp(algo, "allgather_recdoub")) return rank < rho;
    if (!strcmp(algo, "allgather_bruck")) return rank == 0 ? 1 : p + 1;
    if (!strcmp(algo, "gatherv_linear") || !strcmp(algo, "scatterv_linear")) return v == 0;
    if (!strcmp(algo, "allgatherv_ring") || !strcmp(algo, "alltoallv_pairwise")) return 1;
    if (!strcmp(algo, "reduce_scatterv_ring")) return p == 1;
    if (!strcmp(algo, "gatherv_binomial")) {   /* + at the root the subtree that wraps past p-1 */
        long w = 0, split = p - root;
        for (b = 1; v == 0 && b < p; b *= 2) if (b < split && split < (2 * b < p ? 2 * b : p)) w = (2 * b < p ? 2 * b : p) - b;
        return (v == 0 || inner) + w;
    }
    if (!strcmp(algo, "alltoall_bruck")) {
        for (b = 1; b < p; b *= 2) { int j; for (j = 0; j < p; j++) bits += (j & b) != 0; }
        return 2L * p + 2 * bits;
    }
    return -1;
}
static void test_copies(void) {
    static const int ps[] = {1, 2, 3, 5, 6, 8, 11, 16, 17};
    const goal_algo_info *info;
    int a, i, root, r;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++)
        for (i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++)
            for (root = 0; root < ps[i]; root += (info->flags & GOAL_ALGO_ROOTED) ? 1 : ps[i]) {
                goal_algo_desc d = desc_of(info->name, root, 5, GOAL_INT32, GOAL_OP_SUM);
                goal_world *w;
                goal_error err;
                if (want_copy_blocks(info->name, ps[i], root, 0) < 0) continue;
                if (goal_algo_world(&w, &d, ps[i], &err) != GOAL_OK) { CHECK(0); continue; }
                for (r = 0; r < ps[i]; r++) {
                    long want = want_copy_blocks(info->name, ps[i], root, r) * 20;
                    if ((long)copy_bytes(w, r) != want)
                        printf("  %s p=%d root=%d rank %d: copies %ld bytes, want %ld\n", info->name, ps[i], root, r, (long)copy_bytes(w, r), want);
                    CHECK_EQ((long)copy_bytes(w, r), want);
                }
                goal_world_destroy(w);
            }
}

/* ---- in place ----------------------------------------------------------------------------------- */
/* Every algorithm flagged GOAL_ALGO_INPLACE, with the input where MPI_IN_PLACE puts it in OUT,
   against the reference at several p, roots, counts (and vector patterns), on one thread and
   on one thread per rank; every other algorithm refuses in_place. */
static void inplace_case(goal_algo_desc *d, int p, int threads, uint64_t seed) {
    ac_result res;
    goal_error err;
    goal_status st = ac_check(d, p, threads, seed, &res, &err);
    cases_run++;
    if (st != GOAL_OK) printf("  %s in place p=%d root=%d count=%llu: %s\n", d->algo, p, d->root, (unsigned long long)d->count, err.msg);
    else if (res.rank >= 0)
        printf("  %s in place p=%d root=%d count=%llu threads %d: rank %d %s %llu: expected %s, got %s\n", d->algo, p, d->root,
               (unsigned long long)d->count, threads, res.rank, res.in_changed ? "IN changed at" : "element",
               (unsigned long long)res.offset, res.expected, res.got);
    CHECK(st == GOAL_OK && res.rank < 0);
}
static void test_in_place(void) {
    static const int ps[] = {1, 2, 3, 4, 5, 7, 8, 13};
    static const uint64_t counts[] = {0, 1, 7, 1000};
    const goal_algo_info *info;
    int a, i, j, k, roots[300], nroots, flagged = 0;
    uint64_t seed = 77;
    cases_run = 0;
    for (a = 0; (info = goal_algo_list(a)) != NULL; a++) {
        goal_algo_desc d = desc_of(info->name, 0, 7, GOAL_INT32, GOAL_OP_SUM);
        goal_error err;
        d.in_place = 1;
        if (!(info->flags & GOAL_ALGO_INPLACE)) { CHECK_EQ(goal_algo_check(&d, 4, &err), GOAL_ERR_ARG); continue; }
        flagged++;
        for (i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++) {
            roots_of(info, ps[i], roots, &nroots);
            for (j = 0; j < nroots; j++)
                for (k = 0; k < 8; k++) {
                    vec_arrays v;
                    d = desc_of(info->name, roots[j], counts[k % 4], k & 1 ? GOAL_FLOAT32 : GOAL_INT32,
                                k & 1 ? float_ops[seed % 4] : int_ops[seed % 10]);
                    d.in_place = 1;
                    d.segment = 8 + 4 * (seed % 5);
                    d.radix = 2 + (int)(seed % 3);
                    d.nway = 1 + (int)(seed % 2);
                    if (info->flags & GOAL_ALGO_VECTOR) vec_setup(&d, &v, ps[i], k % 5, seed);
                    inplace_case(&d, ps[i], k >= 4, seed++);
                    if (info->flags & GOAL_ALGO_VECTOR) vec_free(&v);
                }
        }
    }
    printf("  %d algorithms in place, %ld runs checked\n", flagged, cases_run);
}

int main(void) {
    RUN(test_list);
    RUN(test_coll_table);
    RUN(test_invalid);
    RUN(test_structure);
    RUN(test_aspen_figure4);
    RUN(test_aspen_random);
    RUN(test_compose);
    RUN(test_aspen_concurrent);
    RUN(test_noncommutative);
    RUN(test_identical_ranks);
    RUN(test_identical_minmax);
    RUN(test_identical_issue17);
    RUN(test_allocator);
    RUN(test_zero_desc_defaults);
    RUN(test_data_sample);
    RUN(test_data_full);
    RUN(test_copies);
    RUN(test_vector_list);
    RUN(test_vector_errors);
    RUN(test_vector_per_rank);
    RUN(test_vector_data);
    RUN(test_bw_data);
    RUN(test_bw_bytes);
    RUN(test_knomial_depth);
    RUN(test_dbtree_trees);
    RUN(test_neighbor_steps);
    RUN(test_in_place);
    return th_done();
}
