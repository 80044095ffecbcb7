/* harness.h - the test harness: a test is a function; CHECK records a failure and goes on.
   Each test program ends with th_done(), which prints "N passed, N failed". Below the
   harness, helpers the tests share (the benchmarks may use them too). */
#ifndef TH_HARNESS_H
#define TH_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "goal.h"

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
TH_MAYBE_UNUSED static int th_done(void) {
    printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed != 0;
}
/* Whether the whole matrix runs (make test-full) or a sample (make test). */
TH_MAYBE_UNUSED static int th_full(void) { const char *e = getenv("GOAL_TEST_FULL"); return e && *e == '1'; }

/* A counting allocator: every test that allocates checks that allocations equal frees. */
typedef struct th_counter { long allocs, frees; long fail_after; } th_counter;
TH_MAYBE_UNUSED static void *th_alloc(size_t size, void *user) {
    th_counter *c = (th_counter *)user;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return NULL;
    c->allocs++;
    return malloc(size);
}
TH_MAYBE_UNUSED static void th_free(void *p, void *user) { ((th_counter *)user)->frees++; free(p); }

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
/* A world from text in any dialect; NULL (and the message printed) when it does not parse. */
TH_MAYBE_UNUSED static goal_world *th_parse(const char *text) {
    goal_world *w = NULL;
    goal_parse_desc pd;
    goal_error err;
    memset(&pd, 0, sizeof pd);
    if (goal_parse(text, strlen(text), &pd, &w, &err) != GOAL_OK) printf("  parse: %s\n", err.msg);
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
#endif
