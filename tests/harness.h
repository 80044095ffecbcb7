/* harness.h - the test harness: a test is a function; CHECK records a failure and goes on.
   Each test program ends with th_done(), which prints "N passed, N failed". Below the
   harness, helpers the tests share (the benchmarks may use them too). */
#ifndef TH_HARNESS_H
#define TH_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "goal.h"
#include "goal_sched.h"   /* declarations only: the fault transport wraps a goal_transport */

#if defined(__GNUC__) || defined(__clang__)
#define TH_MAYBE_UNUSED __attribute__((unused))   /* not every test uses every helper */
#else
#define TH_MAYBE_UNUSED
#endif
static int th_checks_failed, th_passed, th_failed;
static const char *th_current = "";

TH_MAYBE_UNUSED static void th_check_failed(const char *file, int line, const char *what) {
    if (th_checks_failed++ < 1000) printf("  check failed: %s:%d: %s  [%s]\n", file, line, what, th_current);
}
#define CHECK(c) do { if (!(c)) th_check_failed(__FILE__, __LINE__, #c); } while (0)
#define CHECK_EQ(a, b) do { long long th_a = (long long)(a), th_b = (long long)(b); \
    if (th_a != th_b) { char th_m[256]; snprintf(th_m, sizeof th_m, "%s == %s (%lld vs %lld)", #a, #b, th_a, th_b); \
    th_check_failed(__FILE__, __LINE__, th_m); } } while (0)
#define CHECK_STR(a, b) do { const char *th_a = (a), *th_b = (b); \
    if (!th_a || !th_b || strcmp(th_a, th_b)) { char th_m[600]; snprintf(th_m, sizeof th_m, "%s == %s (\"%.250s\" vs \"%.250s\")", #a, #b, \
    th_a ? th_a : "(null)", th_b ? th_b : "(null)"); th_check_failed(__FILE__, __LINE__, th_m); } } while (0)

TH_MAYBE_UNUSED static void th_run(const char *name, void (*fn)(void)) {
    int before = th_checks_failed;
    th_current = name;
    fn();
    if (th_checks_failed == before) { th_passed++; printf("ok %s\n", name); }
    else { th_failed++; printf("FAIL %s\n", name); }
    fflush(stdout);
}
#define RUN(fn) th_run(#fn, fn)
/* A table-driven test: fn once per case, each case a test of its own named by the case's first
   field (a const char *), so the pass count counts cases. */
static const void *th_case;
static void (*th_case_fn)(const void *);
TH_MAYBE_UNUSED static void th_case_run(void) { th_case_fn(th_case); }
TH_MAYBE_UNUSED static void th_run_cases(void (*fn)(const void *), const void *cases, size_t size, size_t n) {
    size_t k;
    th_case_fn = fn;
    for (k = 0; k < n; k++) {
        th_case = (const char *)cases + k * size;
        th_run(*(const char *const *)th_case, th_case_run);
    }
}
TH_MAYBE_UNUSED static int th_done(void) {
    printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed != 0;
}
/* Whether the whole matrix runs (make test-full) or a sample (make test). */
TH_MAYBE_UNUSED static int th_full(void) { const char *e = getenv("GOAL_TEST_FULL"); return e && *e == '1'; }

/* A counting allocator: every test that allocates checks that allocations equal frees;
   bytes sums what was asked for. fail_after >= 0: that many allocations succeed, then NULL. */
typedef struct th_counter { long allocs, frees; long fail_after; size_t bytes; } th_counter;
TH_MAYBE_UNUSED static void *th_alloc(size_t size, void *user) {
    th_counter *c = (th_counter *)user;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return NULL;
    c->allocs++;
    c->bytes += size;
    return malloc(size);
}
TH_MAYBE_UNUSED static void th_free(void *p, void *user) { ((th_counter *)user)->frees++; free(p); }
/* c reset (failing after fail_after allocations; -1: never) and an allocator counting into it. */
TH_MAYBE_UNUSED static goal_allocator th_counting(th_counter *c, long fail_after) {
    goal_allocator a;
    memset(c, 0, sizeof *c);
    c->fail_after = fail_after;
    a.alloc_fn = th_alloc; a.free_fn = th_free; a.user = c;
    return a;
}

/* Allocation failure at every allocation: fn(alloc, user) with an allocator that fails after
   0, 1, 2, ... allocations, until fn returns 1 (it ran to the end) or max calls; each call
   must free all it allocated. fn checks its own status. Returns the calls (max: never ended). */
TH_MAYBE_UNUSED static long th_alloc_failures(long max, int (*fn)(goal_allocator a, void *user), void *user) {
    long k;
    for (k = 0; k < max; k++) {
        th_counter c;
        int done = fn(th_counting(&c, k), user);
        CHECK_EQ(c.allocs, c.frees);
        if (done) return k + 1;
    }
    return max;
}

/* A goal_write_fn target: what is written, NUL-terminated, in p (free() it). fail_at > 0:
   that call and every later one fails. Zero-initialise it. */
typedef struct th_sink { char *p; size_t n, cap; long calls, fail_at; } th_sink;
TH_MAYBE_UNUSED static int th_sink_put(void *user, const char *d, size_t n) {
    th_sink *s = (th_sink *)user;
    if (s->fail_at && ++s->calls >= s->fail_at) return -1;
    if (s->n + n + 1 > s->cap) {
        size_t cap = (s->n + n + 1) * 3 / 2 + 4096;   /* bench_load saves 100s of MB: not 2x */
        char *np = (char *)realloc(s->p, cap);
        if (!np) return -1;
        s->p = np; s->cap = cap;
    }
    memcpy(s->p + s->n, d, n);
    s->n += n;
    s->p[s->n] = 0;
    return 0;
}

/* The whole file, NUL-terminated, in memory to free(); its length in *len. NULL when unreadable. */
TH_MAYBE_UNUSED static char *th_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = (char *)malloc((size_t)n + 1))) {
        *len = fread(buf, 1, (size_t)n, f);
        buf[*len] = 0;
    }
    fclose(f);
    return buf;
}
/* The line after line (in text from th_read_file), NULL after the last. */
TH_MAYBE_UNUSED static char *th_next_line(char *line) {
    char *end = strchr(line, '\n');
    return end && end[1] ? end + 1 : NULL;
}
/* A graph for rank of nranks (0, 0: a zeroed desc); NULL after a failed check. */
TH_MAYBE_UNUSED static goal_graph *th_graph(int rank, int nranks) {
    goal_graph *g = NULL;
    goal_graph_desc d;
    memset(&d, 0, sizeof d);
    d.rank = rank; d.nranks = nranks;
    CHECK_EQ(goal_graph_create(&g, &d, NULL), GOAL_OK);
    return g;
}
/* A world from text in any dialect; NULL (and the message printed) when it does not parse. */
TH_MAYBE_UNUSED static goal_world *th_parse(const char *text) {
    goal_world *w = NULL;
    goal_parse_desc pd;
    goal_error err;
    memset(&pd, 0, sizeof pd);
    if (goal_parse(text, strlen(text), &pd, &w, &err) != GOAL_OK) printf("  parse: %s\n", err.msg);
    return w;
}
/* A world from a text file; NULL (and the message printed) when unreadable or malformed. */
TH_MAYBE_UNUSED static goal_world *th_load(const char *path) {
    size_t len;
    char *text = th_read_file(path, &len);
    goal_world *w;
    if (!text) { printf("  cannot read %s\n", path); return NULL; }
    w = th_parse(text);
    free(text);
    return w;
}
/* A fuzzer's input as a world: NULL when longer than max bytes or when it does not parse. */
TH_MAYBE_UNUSED static goal_world *th_parse_input(const uint8_t *data, size_t size, size_t max) {
    goal_world *w = NULL;
    goal_parse_desc pd;
    goal_error err;
    memset(&pd, 0, sizeof pd);
    if (size > max || goal_parse((const char *)data, size, &pd, &w, &err) != GOAL_OK) return NULL;
    return w;
}
/* Bytes rank r sends in w (its send actions' sizes; also used by bench/bench_bw.c). */
TH_MAYBE_UNUSED static uint64_t th_bytes_sent(const goal_world *w, int r) {
    goal_schedule s;
    goal_action a;
    uint64_t sum = 0;
    uint32_t k;
    goal_world_schedule(w, r, &s);
    for (k = 0; k < s.nactions; k++) {
        goal_schedule_action(&s, k, &a);
        if (a.kind == GOAL_SEND) sum += a.buf.size;
    }
    return sum;
}
/* A fault-injecting transport over another one (usually the in-process transport): wrap
   inner with th_faulty_transport. Zeroed it passes everything through, except that
   fail_post_at and fail_done_at must be set (-1: never). The counts say what it saw. */
typedef struct th_faulty {
    goal_transport inner;
    int fail_post_at;   /* the post with this index (0: the first) fails */
    int fail_done_at;   /* the completion with this index is reported failed */
    int delay;          /* report completions only on every delay-th test */
    int reverse;        /* test only the last request: completions come back reordered */
    int hold;           /* hold back one completion on every other test, until the next */
    int truncate;       /* non-empty receives are posted one byte short */
    int posts, dones, tests, recvs;   /* seen: posts, completions, tests, non-empty recvs */
} th_faulty;
TH_MAYBE_UNUSED static int th_faulty_post(void *user, const goal_msg *m, goal_req *req) {
    th_faulty *f = (th_faulty *)user;
    goal_msg mm = *m;
    if (f->posts++ == f->fail_post_at) return GOAL_ERR_TRANSPORT;
    if (m->kind == GOAL_RECV && m->size > 0) {
        f->recvs++;
        if (f->truncate) mm.size = m->size - 1;
    }
    return f->inner.post(f->inner.user, &mm, req);
}
/* hold: the first completion of every other call waits until the next call, so completions
   arrive in another order than they happened. A held request has no handle left (the inner
   transport let it go); its status waits in word. */
TH_MAYBE_UNUSED static int th_faulty_hold(th_faulty *f, goal_req *reqs, int n, int block) {
    int k, got = 0, held = 0;
    for (k = 0; k < n; k++)
        if (reqs[k].word) { reqs[k].status = (int32_t)(reqs[k].word - 100); reqs[k].word = 0; got++; }
    if (f->inner.test(f->inner.user, reqs, n, got ? 0 : block) < 0) return GOAL_ERR_TRANSPORT;
    got = 0;
    f->tests++;
    for (k = 0; k < n; k++) {
        if (reqs[k].status == GOAL_PENDING) continue;
        if (!held && (f->tests & 1) && !reqs[k].handle) {
            held = 1;
            reqs[k].word = (uint64_t)(reqs[k].status + 100);
            reqs[k].status = GOAL_PENDING;
            continue;
        }
        got++;
    }
    return got;
}
TH_MAYBE_UNUSED static int th_faulty_test(void *user, goal_req *reqs, int n, int block) {
    th_faulty *f = (th_faulty *)user;
    int got, k, last = f->reverse && n > 1;
    if (f->delay && ++f->tests % f->delay) return 0;
    if (f->hold) return th_faulty_hold(f, reqs, n, block);
    got = f->inner.test(f->inner.user, last ? reqs + n - 1 : reqs, last ? 1 : n, block);
    for (k = 0; got > 0 && k < n; k++)
        if (reqs[k].status != GOAL_PENDING && f->dones++ == f->fail_done_at) reqs[k].status = GOAL_ERR_TRANSPORT;
    return got;
}
TH_MAYBE_UNUSED static void th_faulty_cancel(void *user, goal_req *req) {
    th_faulty *f = (th_faulty *)user;
    f->inner.cancel(f->inner.user, req);
}
/* f in front of inner: the transport to hand to the executor. */
TH_MAYBE_UNUSED static goal_transport th_faulty_transport(th_faulty *f, goal_transport inner) {
    goal_transport t;
    f->inner = inner;
    t.user = f; t.post = th_faulty_post; t.test = th_faulty_test; t.cancel = th_faulty_cancel;
    return t;
}
#endif
