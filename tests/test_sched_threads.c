/* test_sched_threads.c - goal_world_run with a thread per rank when a thread cannot be
   started: the run reports it and joins the threads that did start,
   instead of waiting forever for the ranks that never ran. pthread_create is wrapped here,
   for this translation unit only: the k-th call fails with EAGAIN. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static int calls, fail_at = -1, finished;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
typedef struct counted { void *(*fn)(void *); void *arg; } counted;
static counted jobs[64];

static void *counted_main(void *p) {   /* runs the rank, then counts it as finished */
    counted *c = (counted *)p;
    void *res = c->fn(c->arg);
    pthread_mutex_lock(&mu);
    finished++;
    pthread_mutex_unlock(&mu);
    return res;
}
static int failing_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    int k = calls++;
    if (k == fail_at || k >= 64) return EAGAIN;
    jobs[k].fn = fn; jobs[k].arg = arg;
    return pthread_create(t, attr, counted_main, &jobs[k]);
}
#define pthread_create failing_create
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include "goal_algos.h"
#undef pthread_create
#include "harness.h"

/* An allreduce over p ranks, started with thread creation failing at call k (-1: never). */
static goal_status run_failing(int p, int k, const char *algo, goal_error *err) {
    goal_algo_desc d;
    goal_world *w = NULL;
    goal_world_run_desc rd;
    goal_status st;
    int32_t in[16], out[16];
    goal_slot slot[16][2];
    const goal_slot *slots[16];
    int r;
    memset(&d, 0, sizeof d);
    d.algo = algo; d.count = 1; d.dtype = GOAL_INT32; d.op = GOAL_OP_SUM;
    if (goal_algo_world(&w, &d, p, err) != GOAL_OK) return GOAL_ERR_ARG;
    for (r = 0; r < p; r++) {
        in[r] = r + 1; out[r] = -1;
        slot[r][0].data = &in[r]; slot[r][0].size = 4;
        slot[r][1].data = &out[r]; slot[r][1].size = 4;
        slots[r] = slot[r];
    }
    memset(&rd, 0, sizeof rd);
    rd.world = w; rd.slots = slots; rd.nslots = 2; rd.threads = 1;
    calls = 0; fail_at = k; finished = 0;
    st = goal_world_run(&rd, err);
    if (st == GOAL_OK) for (r = 0; r < p; r++) CHECK_EQ(out[r], p * (p + 1) / 2);
    goal_world_destroy(w);
    return st;
}

/* Every index of failure, on a world where every rank waits for every other (allreduce)
   and on one where some ranks finish on their own (barrier_linear: leaves end early). */
static void test_fail_at_every_rank(void) {
    static const char *const algos[] = {"allreduce_recdoub", "barrier_linear"};
    int a, p = 8, k;
    for (a = 0; a < 2; a++)
        for (k = 0; k < p; k++) {
            goal_error err;
            char want[64];
            goal_status st = run_failing(p, k, algos[a], &err);
            CHECK_EQ(st, GOAL_ERR_NOMEM);
            snprintf(want, sizeof want, "cannot start the thread of rank %d", k);
            if (!strstr(err.msg, want)) printf("  %s k=%d: %s\n", algos[a], k, err.msg);
            CHECK(strstr(err.msg, want) != NULL);
            CHECK_EQ(err.rank, k);
            CHECK_EQ(finished, k);   /* every thread that started was joined */
        }
}
static void test_no_failure(void) {
    goal_error err;
    CHECK_EQ(run_failing(8, -1, "allreduce_recdoub", &err), GOAL_OK);
    CHECK_EQ(calls, 8);
    CHECK_EQ(finished, 8);
}

int main(void) {
    alarm(1800);   /* the defect was a hang: fail instead of waiting forever (generous: a loaded machine is slow) */
    RUN(test_no_failure);
    RUN(test_fail_at_every_rank);
    return th_done();
}
