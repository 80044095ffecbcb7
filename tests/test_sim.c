/* goal_sim.h: the LogGOPS simulator against LogGOPSim's own results (expected.tsv and
   summary.tsv), LogGOPSim's failures done right, errors, and the event callback; TUNE's
   lower bound against the simulated times. */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sim.h"
#include "goal_tune.h"
#include "harness.h"

#define DATA "tests/data/loggopsim/"

static goal_world *load_case(const char *file) {
    char path[512];
    snprintf(path, sizeof path, DATA "cases/%s", file);
    return th_load(path);
}

/* Splits a TSV line in place into at most max fields (empty fields kept). */
static int split(char *line, char **f, int max) {
    int n = 0;
    f[n++] = line;
    for (; *line && *line != '\n' && *line != '\r'; line++)
        if (*line == '\t' && n < max) { *line = 0; f[n++] = line + 1; }
    *line = 0;
    return n;
}

/* One simulation of a file with the parameters of a TSV row. */
typedef struct run { char file[200]; long long L, o, g, G, O, S; int compat; goal_sim_run_result res; goal_status st; } run;
static void run_row(run *r, char **f, int compat) {
    goal_sim_desc d;
    goal_world *w;
    long long *p[6];
    int k;
    p[0] = &r->L; p[1] = &r->o; p[2] = &r->g; p[3] = &r->G; p[4] = &r->O; p[5] = &r->S;
    for (k = 0; k < 6; k++) *p[k] = atoll(f[5 + k]);
    memset(&d, 0, sizeof d);
    d.L = r->L ? r->L : GOAL_SIM_ZERO; d.o = r->o ? r->o : GOAL_SIM_ZERO; d.g = r->g ? r->g : GOAL_SIM_ZERO;
    d.G = r->G ? r->G : GOAL_SIM_ZERO; d.O = r->O ? r->O : GOAL_SIM_ZERO; d.S = r->S ? r->S : GOAL_SIM_ZERO;
    d.loggopsim_compat = compat;
    goal_sim_run_free(&r->res);
    snprintf(r->file, sizeof r->file, "%s", f[0]);
    r->compat = compat;
    r->st = GOAL_ERR_IO;
    if ((w = load_case(f[0])) != NULL) r->st = goal_sim_run(w, &d, &r->res);
    goal_world_destroy(w);
}
/* Is the run r (same file and parameters as row f) current? */
static int same_run(const run *r, char **f, int compat) {
    return strcmp(r->file, f[0]) == 0 && r->compat == compat && r->L == atoll(f[5]) && r->o == atoll(f[6]) &&
           r->g == atoll(f[7]) && r->G == atoll(f[8]) && r->O == atoll(f[9]) && r->S == atoll(f[10]);
}

/* The simulation of row f, reused when the row before had the same file and parameters;
   0 (after a failed check) when it failed. */
static int row_run(run *r, char **f, int compat) {
    if (!same_run(r, f, compat)) run_row(r, f, compat);
    CHECK_EQ(r->st, GOAL_OK);
    if (r->st != GOAL_OK) printf("  %s: %s\n", f[0], goal_strerror(r->st));
    return r->st == GOAL_OK;
}
/* check(r, f, compat) on every data row of a TSV file with at least `fields` fields; returns
   the rows it checked (it returns 1 for those). */
static int each_row(const char *tsv, int fields, int compat, int (*check)(run *r, char **f, int compat)) {
    size_t len;
    char *text = th_read_file(tsv, &len), *line, *next, *f[20];
    run r;
    int rows = 0;
    memset(&r, 0, sizeof r);
    CHECK(text != NULL);
    for (line = text ? th_next_line(text) : NULL; line; line = next) {
        next = th_next_line(line);   /* before split cuts the line */
        if (split(line, f, 20) >= fields) rows += check(&r, f, compat);
    }
    goal_sim_run_free(&r.res);
    free(text);
    return rows;
}

/* A row of expected.tsv: the rank's time, or for order-sensitive rows the maximum. With
   compat every row matches; without, rows of worlds with 0-byte messages are skipped here
   (test_zero_bytes checks them). */
static int expected_row(run *r, char **f, int compat) {
    if (!compat && ((strstr(f[0], "_d1.goal") && strstr(f[0], "allreduce")) || strstr(f[0], "zero_byte"))) return 0;
    if (!row_run(r, f, compat)) return 0;
    if (atoi(f[13])) CHECK_EQ(r->res.max >= (uint64_t)atoll(f[12]), 1);
    else if (atoi(f[11]) < r->res.nranks) {
        if ((uint64_t)atoll(f[12]) != r->res.finish[atoi(f[11])]) printf("  %s L=%s host %s\n", f[0], f[5], f[11]);
        CHECK_EQ(r->res.finish[atoi(f[11])], atoll(f[12]));
    }
    return 1;
}
static void test_expected_compat(void) { CHECK_EQ(each_row(DATA "expected.tsv", 14, 1, expected_row), 2582); }
static void test_expected_default(void) { CHECK(each_row(DATA "expected.tsv", 14, 0, expected_row) > 2400); }

/* A row of summary.tsv: the maximum (and the rank that has it) and LogGOPSim's event count;
   for the allreduce_ring runs LogGOPSim could not finish, the maximum its notes give for a
   stable order. */
static int summary_row(run *r, char **f, int compat) {
    const char *stable = strstr(f[16], "max time would be ");
    if (!row_run(r, f, compat)) return 0;
    if (stable) CHECK_EQ(r->res.max, atoll(stable + 18));   /* LogGOPSim stopped: its count is partial */
    else { CHECK_EQ(r->res.max, atoll(f[13])); CHECK_EQ(r->res.events, atoll(f[14])); }
    if (!atoi(f[15]) && !stable) CHECK_EQ(r->res.max_rank, atoi(f[12]));
    return 1;
}
static void test_summary(void) { CHECK_EQ(each_row(DATA "summary.tsv", 16, 1, summary_row), 201); }

static goal_sim_run_result sim_text(const char *text, int compat, goal_status *st) {
    goal_world *w = th_parse(text);
    goal_sim_desc d;
    goal_sim_run_result res;
    memset(&d, 0, sizeof d);
    d.loggopsim_compat = compat;
    memset(&res, 0, sizeof res);
    *st = w ? goal_sim_run(w, &d, &res) : GOAL_ERR_SYNTAX;
    goal_world_destroy(w);
    return res;
}

/* A 0-byte ping costs nothing per byte by default, and -G (the wrap) in compat mode. */
static void test_zero_bytes(void) {
    const char *ping = "num_ranks 2\nrank 0 {\nl1: send 0b to 1\n}\nrank 1 {\nl1: recv 0b from 0\n}\n";
    goal_status st;
    goal_sim_run_result r = sim_text(ping, 0, &st);
    CHECK_EQ(st, GOAL_OK);
    if (st == GOAL_OK) CHECK_EQ(r.finish[1], 5500);
    goal_sim_run_free(&r);
    r = sim_text(ping, 1, &st);
    if (st == GOAL_OK) CHECK_EQ(r.finish[1], 5494);
    goal_sim_run_free(&r);
}

/* LogGOPSim crashes on these; libgoal reports them. */
static void test_deadlock(void) {
    const char *cyc = "num_ranks 2\nrank 0 {\nl1: recv 1b from 1\nl2: send 1b to 1\nl2 requires l1\n}\n"
                      "rank 1 {\nl1: recv 1b from 0\nl2: send 1b to 0\nl2 requires l1\n}\n";
    const char *lost = "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 4\n}\nrank 1 {\n}\n";
    goal_status st;
    goal_sim_run_result r = sim_text(cyc, 0, &st);
    CHECK_EQ(st, GOAL_ERR_DEADLOCK);
    CHECK_EQ(r.nstuck, 4);
    if (r.nstuck == 4) { CHECK_EQ(r.stuck[0].rank, 0); CHECK_EQ(r.stuck[0].action, 0); CHECK_EQ(r.stuck_started[0], 1); CHECK_EQ(r.stuck_started[1], 0); }
    goal_sim_run_free(&r);
    r = sim_text(lost, 0, &st);
    CHECK_EQ(st, GOAL_ERR_MATCH);
    CHECK_EQ(r.nstuck, 1);
    goal_sim_run_free(&r);
}

/* A world whose ranks have no actions finishes at 0; no world is an argument error. */
static void test_empty(void) {
    goal_world *w;
    goal_sim_run_result r;
    th_counter cnt;
    goal_sim_desc d;
    memset(&d, 0, sizeof d);
    d.alloc = th_counting(&cnt, -1);
    CHECK_EQ(goal_world_create(&w, &(goal_world_desc){.nranks = 3}, NULL), GOAL_OK);
    CHECK_EQ(goal_sim_run(w, &d, &r), GOAL_OK);
    CHECK_EQ(r.nranks, 3);
    CHECK_EQ(r.max, 0);
    CHECK_EQ(r.events, 0);
    goal_sim_run_free(&r);
    CHECK_EQ(goal_sim_run(NULL, &d, &r), GOAL_ERR_ARG);
    CHECK_EQ(cnt.allocs, cnt.frees);
    goal_world_destroy(w);
}

/* The counting allocator sees every allocation freed, also when one fails. */
static int sim_with(goal_allocator a, void *w) {
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    memset(&d, 0, sizeof d);
    d.alloc = a;
    st = goal_sim_run((goal_world *)w, &d, &r);
    CHECK(st == GOAL_OK || st == GOAL_ERR_NOMEM);
    if (st == GOAL_OK) CHECK_EQ(r.max, 34914);
    goal_sim_run_free(&r);
    return st == GOAL_OK;
}
static void test_alloc_failures(void) {
    goal_world *w = load_case("binomialtreebcast_p8_d1024.goal");
    CHECK(th_alloc_failures(1000, sim_with, w) < 1000);
    goal_world_destroy(w);
}

/* The event callback: every CPU interval and message, in time order per CPU. */
typedef struct evlog { int calc, send, recv, msg, bad; uint64_t last_end; } evlog;
static void log_event(void *user, const goal_sim_event *e) {
    evlog *l = (evlog *)user;
    if (e->end < e->start) l->bad++;
    switch (e->kind) {
    case GOAL_SIM_EV_CALC: l->calc++; break;
    case GOAL_SIM_EV_SEND: l->send++; break;
    case GOAL_SIM_EV_RECV: l->recv++; if (e->action < 0) l->bad++; break;
    case GOAL_SIM_EV_MSG: l->msg++; break;
    }
    if (e->end > l->last_end) l->last_end = e->end;
}
static void test_events(void) {
    goal_world *w = load_case("handwritten/readme_reduce8.goal");
    goal_sim_desc d;
    goal_sim_run_result r;
    evlog l;
    memset(&l, 0, sizeof l);
    memset(&d, 0, sizeof d);
    d.event_fn = log_event; d.user = &l;
    CHECK_EQ(goal_sim_run(w, &d, &r), GOAL_OK);
    CHECK_EQ(l.send, 7); CHECK_EQ(l.msg, 7); CHECK_EQ(l.recv, 7); CHECK_EQ(l.bad, 0);
    CHECK_EQ(r.max, 34914);
    CHECK_EQ(l.last_end, 34914);
    goal_sim_run_free(&r);
    goal_world_destroy(w);
}

/* Simulated time past 2^64-1 ps is an error naming the action, not a
   wrapped time: chained calcs, a huge message, an arrival after a long calc. */
static goal_sim_run_result sim_desc(const char *text, const goal_sim_desc *d, goal_status *st) {
    goal_world *w = th_parse(text);
    goal_sim_run_result res;
    memset(&res, 0, sizeof res);
    *st = w ? goal_sim_run(w, d, &res) : GOAL_ERR_SYNTAX;
    goal_world_destroy(w);
    return res;
}
/* text under the model line `model`, stopping at stop_ns (0: never): its status, and the
   first n ranks' finish times in ps into t (0 where the run gives none). */
static goal_status sim_line(const char *text, const char *model, double stop_ns, uint64_t *t, int n) {
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    int k;
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, model, strlen(model), NULL) == GOAL_OK);
    d.stop_ns = stop_ns;
    r = sim_desc(text, &d, &st);
    for (k = 0; k < n; k++) t[k] = r.finish_ps ? r.finish_ps[k] : 0;
    goal_sim_run_free(&r);
    return st;
}
static void expect_overflow(const char *text, int32_t rank, int32_t action) {
    goal_status st;
    goal_sim_run_result r = sim_desc(text, NULL, &st);
    CHECK_EQ(st, GOAL_ERR_LIMIT);
    CHECK_EQ(r.overflow.rank, rank);
    CHECK_EQ(r.overflow.action, action);
    CHECK(r.finish == NULL);
    goal_sim_run_free(&r);
}
static void test_time_overflow(void) {
    goal_status st;
    goal_sim_run_result r;
    expect_overflow("num_ranks 1\nrank 0 {\nl1: calc 9223372036854775807\nl2: calc 9223372036854775807\n"
                    "l3: calc 9223372036854775807\nl2 requires l1\nl3 requires l2\n}\n", 0, 0);
    expect_overflow("num_ranks 1\nrank 0 {\nl1: calc 7000000000000000\nl2: calc 7000000000000000\n"
                    "l3: calc 7000000000000000\nl2 requires l1\nl3 requires l2\n}\n", 0, 2);
    expect_overflow("num_ranks 2\nrank 0 {\nl1: send 9223372036854775807b to 1\n}\nrank 1 {\nl1: recv 9223372036854775807b from 0\n}\n", 0, 0);
    /* the send itself fits; its arrival (o + L later) does not */
    expect_overflow("num_ranks 2\nrank 0 {\nl1: calc 18446744073709000\nl2: send 1b to 1\nl2 requires l1\n}\n"
                    "rank 1 {\nl1: recv 1b from 0\n}\n", 0, 1);
    /* the largest time that fits is fine */
    r = sim_desc("num_ranks 1\nrank 0 {\nl1: calc 18446744073709551\n}\n", NULL, &st);
    CHECK_EQ(st, GOAL_OK);
    if (st == GOAL_OK) { CHECK(r.max_ps == 18446744073709551000ull); CHECK(r.max == 18446744073709551ull); CHECK_EQ(r.overflow.rank, -1); }
    goal_sim_run_free(&r);
}

/* Fractional parameters, against times computed by hand: two 1001-byte
   sends from 0 to 1 with L 480.5, o 160.25, g 210.5, G 0.08, O 0.02 (ns, ns per byte).
   Rank 0: send 1 takes the CPU for o + 1000 O = 180.25 and the NIC for g + 1000 G = 290.5;
   send 2 starts at 290.5 and ends at 470.75. Rank 1: message 1 arrives at o + L = 640.75,
   costs o + 1000 max(O, G) = 240.25 of CPU (881) and g + 1000 G of NIC (931.25); message 2
   arrives at 290.5 + 640.75 = 931.25 and ends at 1171.5. */
static void test_fractional(void) {
    const char *two = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: send 1001b to 1\n}\n"
                      "rank 1 {\nl1: recv 1001b from 0\nl2: recv 1001b from 0\n}\n";
    static const double bad[] = {-2, -0.5, 0.0005, 1e300, 9007199254741.0};
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    size_t k;
    memset(&d, 0, sizeof d);
    d.L = 480.5; d.o = 160.25; d.g = 210.5; d.G = 0.08; d.O = 0.02;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_OK);
    if (st == GOAL_OK) {
        CHECK(r.finish_ps[0] == 470750 && r.finish_ps[1] == 1171500 && r.max_ps == 1171500);
        CHECK(r.finish[0] == 470 && r.finish[1] == 1171 && r.max == 1171);   /* whole ns, rounded down */
    }
    goal_sim_run_free(&r);
    /* integer parameters: message 1 arrives at 4000 and takes rank 1's CPU until 11500;
       message 2 (sent at 7000 after the NIC gap) arrives at 11000, waits, ends at 19000 */
    d.L = 2500; d.o = 1500; d.g = 1000; d.G = 6; d.O = GOAL_SIM_ZERO;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_OK);
    if (st == GOAL_OK) CHECK(r.finish_ps[1] == r.finish[1] * 1000 && r.finish[1] == 19000);
    goal_sim_run_free(&r);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {   /* negative, finer than 1 ps, too large */
        d.G = bad[k];
        r = sim_desc(two, &d, &st);
        CHECK_EQ(st, GOAL_ERR_ARG);
        goal_sim_run_free(&r);
    }
    d.G = 6; d.S = -7;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    goal_sim_run_free(&r);
}

/* A bad model parameter is named in the result's message (goal_sim_run) and in the error of
   goal_tune_algo_bound, by its goal_sim_desc field; a run that works leaves it empty. */
static void test_param_messages(void) {
    const char *two = "num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n";
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    goal_algo_desc ad;
    goal_error err;
    double ns;
    int left_out;
    memset(&d, 0, sizeof d);
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_OK && r.msg[0] == 0);
    goal_sim_run_free(&r);
    d.G = -1.5;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    CHECK_STR(r.msg, "goal_sim_desc.G = -1.5: a time in ns is >= 0 (GOAL_SIM_ZERO: a real 0), has at most 3 decimals and is at most 2^53 ps");
    goal_sim_run_free(&r);
    d.G = 0; d.intra_o = 0.0001;
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_ERR_ARG && strncmp(r.msg, "goal_sim_desc.intra_o = 0.0001: ", 32) == 0);
    goal_sim_run_free(&r);
    d.intra_o = 0; d.S = -7;
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_ERR_ARG && strcmp(r.msg, "goal_sim_desc.S = -7: bytes are >= 0 (GOAL_SIM_ZERO: a real 0)") == 0);
    goal_sim_run_free(&r);
    d.S = 0; d.stop_ns = -2;
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_ERR_ARG && strcmp(r.msg, "goal_sim_desc.stop_ns = -2: ns are >= 0") == 0);
    goal_sim_run_free(&r);
    d.stop_ns = 0; d.L = -3;
    memset(&ad, 0, sizeof ad);
    ad.algo = "bcast_binomial";
    ad.count = 8;
    CHECK_EQ(goal_tune_algo_bound(&ad, 4, &d, &ns, &left_out, &err), GOAL_ERR_ARG);
    CHECK(strncmp(err.msg, "goal_sim_desc.L = -3: ", 22) == 0);
}

/* -C: CPU time per byte of a local exec, against times computed by hand with the default
   L 2500, o 1500, g 1000, G 6 and C 0.25. Rank 0: exec copy of 1000 B 0..250, the send of
   1000 B takes the CPU until 250 + o = 1750, calc 100 then until 1850 (calc is not scaled).
   Rank 1: the message arrives at 250 + o + L = 4250, takes the CPU for o + 999 G = 7494
   (11744), the exec sum of 1000 B until 11994. C 1 (the default) is 750 ns more on each
   rank's exec; C 0 (GOAL_SIM_ZERO) makes both execs free. */
static void test_exec_cost(void) {
    const char *text = "num_ranks 2;\nrank #0 {\n l1: exec copyUInt8 with 1:0,1000 0,1000;\n l2: send 1:0,1000 to 1;\n"
                       " l3: calc 100;\n requ l2 -> l1;\n requ l3 -> l2;\n}\nrank #1 {\n l1: recv 0,1000 from 0;\n"
                       " l2: exec sumInt32 with 0,1000 1:0,1000;\n requ l2 -> l1;\n}\n";
    static const struct { double C; uint64_t r0, r1; } cases[] = {
        {0.25, 1850000, 11994000}, {0, 2600000, 13494000}, {1, 2600000, 13494000}, {GOAL_SIM_ZERO, 1600000, 11494000}};
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    size_t k;
    memset(&d, 0, sizeof d);
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        d.C = cases[k].C;
        r = sim_desc(text, &d, &st);
        CHECK_EQ(st, GOAL_OK);
        if (st == GOAL_OK) CHECK(r.finish_ps[0] == cases[k].r0 && r.finish_ps[1] == cases[k].r1);
        goal_sim_run_free(&r);
    }
    d.C = 0.0001;   /* finer than 1 ps */
    r = sim_desc(text, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    goal_sim_run_free(&r);
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-C 0.25 -L 7", 12, NULL) == GOAL_OK && d.C == 0.25 && d.L == 7);
    CHECK(goal_sim_param_arity("-C") == 1 && goal_sim_param_arity("--loggopsim-compat") == 0 && goal_sim_param_arity("-x") == -1);
}

/* -R: a rendezvous message (over S bytes) arrives R later, against times computed by hand
   with L 100, o 10, g 20, G 1, O 0, S 500. Rank 0 sends 1001 B to rank 1: CPU 0..10, it
   arrives at o + L + R = 110 + R and takes rank 1's CPU for o + 1000 G = 1010 (1120 + R);
   rank 1 then sends 8 B back (eager: no R), CPU until 1130 + R, arriving at 1230 + R, taken
   by rank 0 until 1247 + R. Rank 0's send completes when matched, at 110 + R, so its calc 5
   ends at 115 + R. R 250.5: every time 250.5 later; R 0 or GOAL_SIM_ZERO: LogGOPSim's
   times; a message of S bytes or fewer never pays R; both models charge it. */
/* Worlds a and b under d: a's ranks 0 and 1 finish at want[0], want[1], b's first nb ranks
   at want[2] ... (ps). */
static void check_finish_pair(const char *a, const char *b, const goal_sim_desc *d, const uint64_t *want, int nb) {
    goal_status st, sq;
    goal_sim_run_result r = sim_desc(a, d, &st), q = sim_desc(b, d, &sq);
    int i, ok;
    CHECK(st == GOAL_OK && sq == GOAL_OK);
    if (st == GOAL_OK && sq == GOAL_OK) {
        ok = r.finish_ps[0] == want[0] && r.finish_ps[1] == want[1];
        for (i = 0; i < nb; i++) ok = ok && q.finish_ps[i] == want[2 + i];
        CHECK(ok);
    }
    goal_sim_run_free(&r); goal_sim_run_free(&q);
}
static void test_rendezvous(void) {
    const char *back = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: calc 5\nl3: recv 8b from 1\nl2 requires l1\n}\n"
                       "rank 1 {\nl1: recv 1001b from 0\nl2: send 8b to 0\nl2 requires l1\n}\n";
    const char *one = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: calc 5\nl2 requires l1\n}\nrank 1 {\nl1: recv 1001b from 0\n}\n";
    static const struct { double R; int64_t S; int32_t node_size; uint64_t want[3]; } cases[] = {   /* back 0, 1; one 0 */
        {0, 500, 0, {1247000, 1130000, 115000}}, {GOAL_SIM_ZERO, 500, 0, {1247000, 1130000, 115000}},
        {250.5, 500, 0, {1497500, 1380500, 365500}}, {250.5, 500, 1, {1497500, 1380500, 365500}},
        {250.5, 1001, 0, {1247000, 1130000, 15000}}, {250.5, 0, 0, {1247000, 1130000, 15000}}};
    goal_sim_desc d, out;
    goal_sim_run_result r;
    goal_status st;
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memset(&d, 0, sizeof d);
        CHECK(goal_sim_params(&d, "-L 100 -o 10 -g 20 -G 1 -O 0", 28, NULL) == GOAL_OK);
        d.R = cases[k].R; d.S = cases[k].S; d.node_size = cases[k].node_size;
        check_finish_pair(back, one, &d, cases[k].want, 1);
    }
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-S 833 -R 950.25", 16, NULL) == GOAL_OK && d.R == 950.25 && d.S == 833);
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.R == 950.25);
    CHECK(goal_sim_defaults(NULL, &out) == GOAL_OK && out.R == GOAL_SIM_ZERO);
    CHECK(goal_sim_param_arity("-R") == 1 && goal_sim_param(&d, "-R", "-1", NULL) == GOAL_ERR_ARG);
    d.R = 0.0001;   /* finer than 1 ps */
    r = sim_desc(one, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    goal_sim_run_free(&r);
}

/* -T, -H: a second cost per byte, against times computed by hand with L 100, o 10, g 20,
   G 1, O 0, S 100000 (all eager), T 400, H 3. Rank 0 sends 1001 B to rank 1: CPU 0..10,
   NIC g + 399 G + 601 H = 2222; it arrives at o + L = 110 and takes rank 1's CPU for o +
   399 max(O, G) + 601 max(O, H) = 2212 (2322); rank 1 then sends 8 B back (CPU until 2332,
   arriving at 2432), taken by rank 0 until 2449. Two sends in a row: the second starts
   when rank 0's NIC is free (2222, CPU until 2232), arrives at 2332 and is taken at once
   (2349). Without -T (or -H), LogGOPSim's 1247/1130 and 1030/1147; H 0.5 (cheaper beyond
   T): NIC 719.5, rank 1's CPU 709.5, its second receive waits for its NIC (829.5); T 1001 (the whole message at G) or H alone: unchanged;
   T 1000: one byte at H (+2). Both models charge it. */
static void test_big_bytes(void) {
    const char *back = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl3: recv 8b from 1\n}\n"
                       "rank 1 {\nl1: recv 1001b from 0\nl2: send 8b to 0\nl2 requires l1\n}\n";
    const char *two = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: send 8b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\nl2: recv 8b from 0\n}\n";
    static const struct { int64_t T; double H; int32_t node_size; uint64_t want[4]; } cases[] = {   /* back 0, 1; two 0, 1 */
        {0, 0, 0, {1247000, 1130000, 1030000, 1147000}}, {400, 0, 0, {1247000, 1130000, 1030000, 1147000}},
        {0, 3, 0, {1247000, 1130000, 1030000, 1147000}}, {400, 3, 0, {2449000, 2332000, 2232000, 2349000}},
        {400, 3, 1, {2449000, 2332000, 2232000, 2349000}}, {400, 0.5, 0, {946500, 829500, 729500, 846500}},
        {1001, 3, 0, {1247000, 1130000, 1030000, 1147000}}, {1000, 3, 0, {1249000, 1132000, 1032000, 1149000}}};
    goal_sim_desc d, out;
    goal_sim_run_result r;
    goal_status st;
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memset(&d, 0, sizeof d);
        CHECK(goal_sim_params(&d, "-L 100 -o 10 -g 20 -G 1 -O 0 -S 100000", 38, NULL) == GOAL_OK);
        d.T = cases[k].T; d.H = cases[k].H; d.node_size = cases[k].node_size;
        check_finish_pair(back, two, &d, cases[k].want, 2);
    }
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-T 4194304 -H 0.095", 19, NULL) == GOAL_OK && d.T == 4194304 && d.H == 0.095);
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.T == 4194304 && out.H == 0.095);
    d.H = 0;   /* T alone is off */
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.T == 0 && out.H == 0);
    CHECK(goal_sim_defaults(NULL, &out) == GOAL_OK && out.T == 0 && out.H == 0);
    CHECK(goal_sim_param_arity("-T") == 1 && goal_sim_param_arity("-H") == 1 && goal_sim_param(&d, "-T", "-5", NULL) == GOAL_ERR_ARG &&
          goal_sim_param(&d, "-H", "x", NULL) == GOAL_ERR_ARG);
    d.T = -7;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    goal_sim_run_free(&r);
}

/* -K: a copy's cost per byte apart from a reduction's (-C). Rank 0 copies 1000 B, then sums
   1000 B: -C 2 alone 2000 + 2000 = 4000 ns; -K 0.5 500 + 2000 = 2500; -K 0 (a real 0) 2000.
   Unset, K is C (goal_sim_defaults says so); goal_sim_cost prices a copy at K; a run that
   may stop (stop_ns) stops exactly when the copy at K makes it longer. */
static void test_copy_cost(void) {
    const char *w = "num_ranks 1;\nrank #0 {\n  l1: exec copyInt8 with 1:0,1000 0,1000;\n  l2: exec sumInt8 with 1:0,1000 0,1000;\n"
                    "  requ l2 -> l1;\n}\n";
    static const struct { const char *model; uint64_t want; } cases[] = {
        {"-C 2", 4000000}, {"-C 2 -K 0.5", 2500000}, {"-C 2 -K 0", 2000000}, {"-K 0.5", 1500000}};
    goal_sim_desc d, out;
    goal_sim_costs *c = NULL;
    uint64_t t[1];
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
        CHECK(sim_line(w, cases[k].model, 0, t, 1) == GOAL_OK && t[0] == cases[k].want);
    memset(&d, 0, sizeof d);
    d.C = 2;
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.K == 2 && out.C == 2);
    d.K = 0.5;
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.K == 0.5);
    CHECK(goal_sim_costs_create(&c, &d, NULL) == GOAL_OK);
    if (c) {
        CHECK_EQ(goal_sim_cost(c, GOAL_SIM_COST_COPY, 0, 0, 10, 1000), 500010);
        CHECK_EQ(goal_sim_cost(c, GOAL_SIM_COST_EXEC, 0, 0, 10, 1000), 2000010);
    }
    goal_sim_costs_destroy(c);
    CHECK(goal_sim_param(&d, "-K", "-1", NULL) == GOAL_ERR_ARG && goal_sim_param_arity("-K") == 1);
    CHECK_EQ(sim_line(w, "-C 2 -K 0.5", 2501, t, 1), GOAL_OK);   /* a run that may stop counts a copy at K too: it stops exactly when over */
    CHECK_EQ(sim_line(w, "-C 2 -K 0.5", 2499, t, 1), GOAL_PENDING);
}

/* Under the table, a rendezvous message pays the rate of everything its ranks touch: L 100,
   o 10, g 20, G 1, O 0, S 100, T 1000, H 3. Rank 1 receives 1000 B at 110 and its CPU
   takes o + the bytes: 999 G alone (1119). When rank 0 also copies 1000 B into a second
   slot, it touches 2000 B, whose bytes cost 999 G + 1000 H = 3999, so the message's 999
   cost 3999 x 999 / 1999 = 1998.4997, 1998.5 to the ps (2118.5). Eager (S 100000), or with no table: its own
   999. Rank 0: o, then the copy's 1000 C (C 1), 1010. Never below its own price: with H
   0.5 the 2000 B would cost 1499 (749.125 for the message), so it pays its 999. A run that
   may stop (stop_ns) counts each rank's CPU time before it starts, a send's at its peer's
   span: it ends as the run does when the stop is later, and stops when it is earlier. */
static void test_cost_span(void) {
    const char *alone = "num_ranks 2;\nrank #0 {\n  send 0,1000 to 1;\n}\nrank #1 {\n  recv 0,1000 from 0;\n}\n";
    const char *copy = "num_ranks 2;\nrank #0 {\n  send 0,1000 to 1;\n  exec copyInt8 with 1:0,1000 0,1000;\n}\n"
                       "rank #1 {\n  recv 0,1000 from 0;\n}\n";
    static const struct { const char *model; uint64_t alone, copy; } cases[] = {
        {"-L 100 -o 10 -g 20 -G 1 -O 0 -S 100 -T 1000 -H 3", 1119000, 2118500},
        {"-L 100 -o 10 -g 20 -G 1 -O 0 -S 100000 -T 1000 -H 3", 1119000, 1119000},
        {"-L 100 -o 10 -g 20 -G 1 -O 0 -S 100", 1119000, 1119000},
        {"-L 100 -o 10 -g 20 -G 1 -O 0 -S 100 -T 1000 -H 0.5", 1119000, 1119000}};
    uint64_t t[2];
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK(sim_line(alone, cases[k].model, 0, t, 2) == GOAL_OK && t[1] == cases[k].alone);
        CHECK(sim_line(copy, cases[k].model, 0, t, 2) == GOAL_OK && t[1] == cases[k].copy && t[0] == 1010000);
        /* a run that may stop counts each rank's CPU time first, its sends at their peer's span */
        CHECK(sim_line(copy, cases[k].model, 1e6, t, 2) == GOAL_OK && t[1] == cases[k].copy && t[0] == 1010000);
        /* and stops before rank 1's receive ends (2118.5 with the span, 1119 without) */
        CHECK_EQ(sim_line(copy, cases[k].model, 1500, t, 2), cases[k].copy > 1500000 ? GOAL_PENDING : GOAL_OK);
    }
}

/* The table of costs per byte (-T 400,600,800 -H 3,2,0.5), test_big_bytes's model (L 100,
   o 10, g 20, G 1, O 0, all eager). A 1001-byte message: NIC g + 399 G + 200 x 3 + 200 x 2
   + 201 x 0.5 = 1519.5; the receive o + the same bytes = 1509.5. back: it arrives at 110,
   rank 1's CPU until 1619.5, its 8-byte reply CPU until 1629.5, arriving at 1729.5, taken
   by rank 0 until 1746.5. two: the second send when the NIC is free (1519.5, CPU until
   1529.5), arriving at 1629.5 when rank 1's receiving NIC is (110 + 1519.5), taken until
   1646.5. A burst of three: the third send at 3039 (CPU until 3049); rank 1 takes them at
   110, 1629.5 and 3149 (each when its NIC is free), until 4658.5. 700 bytes, within the
   second range: 10 + 399 + 600 + 100 x 2 = 1209, finished at 1319. O 2.5: the receive's
   bytes cost max(O, G) and max(O, H[i]): 10 + 997.5 + 600 + 500 + 502.5 = 2610 (2720), the
   send's CPU 10 + 1000 O = 2510. One entry is test_big_bytes's -T 400 -H 3. */
static void test_cost_table(void) {
    const char *back = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl3: recv 8b from 1\n}\n"
                       "rank 1 {\nl1: recv 1001b from 0\nl2: send 8b to 0\nl2 requires l1\n}\n";
    const char *two = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: send 8b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\nl2: recv 8b from 0\n}\n";
    const char *burst = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: send 1001b to 1\nl3: send 1001b to 1\n}\n"
                        "rank 1 {\nl1: recv 1001b from 0\nl2: recv 1001b from 0\nl3: recv 1001b from 0\n}\n";
    const char *one = "num_ranks 2\nrank 0 {\nl1: send 700b to 1\n}\nrank 1 {\nl1: recv 700b from 0\n}\n";
    const char *big = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\n}\n";
    const char *model = "-L 100 -o 10 -g 20 -G 1 -O 0 -S 100000 -T 400,600,800 -H 3,2,0.5";
    const uint64_t want[4] = {1746500, 1629500, 1529500, 1646500}, want_burst[4] = {10000, 1319000, 3049000, 4658500};
    const uint64_t want_O[4] = {2510000, 2720000, 2510000, 2720000};
    goal_sim_desc d, out;
    goal_sim_costs *c = NULL;
    goal_sim_run_result r;
    goal_status st;
    goal_error err;
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, model, strlen(model), NULL) == GOAL_OK);
    CHECK(d.T == 400 && d.T_more[0] == 600 && d.T_more[1] == 800 && d.T_more[2] == 0);
    CHECK(d.H == 3 && d.H_more[0] == 2 && d.H_more[1] == 0.5 && d.H_more[2] == 0);
    check_finish_pair(back, two, &d, want, 2);
    check_finish_pair(one, burst, &d, want_burst, 2);
    d.node_size = 1;   /* the two-level model prices with it too */
    check_finish_pair(back, two, &d, want, 2);
    d.node_size = 0;
    CHECK(goal_sim_costs_create(&c, &d, NULL) == GOAL_OK);
    if (c) {
        CHECK_EQ(goal_sim_cost(c, GOAL_SIM_COST_NIC_GAP, 0, 1, 0, 1001), 1519500);
        CHECK_EQ(goal_sim_cost(c, GOAL_SIM_COST_RECV_CPU, 0, 1, 0, 700), 1209000);
        CHECK_EQ(goal_sim_cost(c, GOAL_SIM_COST_NIC_GAP, 0, 1, 0, 400), 419000);   /* not over T: G alone */
    }
    goal_sim_costs_destroy(c);
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.T == 400 && out.T_more[1] == 800 && out.H_more[1] == 0.5 && out.T_more[2] == 0);
    d.O = 2.5;
    check_finish_pair(big, big, &d, want_O, 2);
    /* a list replaces the one before; one value is one entry */
    CHECK(goal_sim_param(&d, "-T", "4194304", NULL) == GOAL_OK && d.T == 4194304 && d.T_more[0] == 0);
    CHECK(goal_sim_param(&d, "-H", "0,0.1", NULL) == GOAL_OK && d.H == GOAL_SIM_ZERO && d.H_more[0] == 0.1 && d.H_more[1] == 0);
    /* the errors: not increasing, more than 8, negative, garbage, counts differ */
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_param(&d, "-T", "600,400", &err) == GOAL_ERR_ARG && strstr(err.msg, "increase strictly") && d.T == 0);
    CHECK(goal_sim_param(&d, "-T", "0,400", &err) == GOAL_ERR_ARG && strstr(err.msg, "increase strictly"));
    CHECK(goal_sim_param(&d, "-T", "1,2,3,4,5,6,7,8,9", &err) == GOAL_ERR_ARG && strstr(err.msg, "at most 8"));
    CHECK(goal_sim_param(&d, "-T", "1,2,3,4,5,6,7,8", NULL) == GOAL_OK && d.T_more[6] == 8);
    CHECK(goal_sim_param(&d, "-H", "1,2,3,4,5,6,7,8,9", &err) == GOAL_ERR_ARG && strstr(err.msg, "at most 8") && d.H == 0);
    CHECK(goal_sim_param(&d, "-T", "100,-200", &err) == GOAL_ERR_ARG && strstr(err.msg, "bytes >= 0"));
    CHECK(goal_sim_param(&d, "-H", "0.5,-1", &err) == GOAL_ERR_ARG && strstr(err.msg, ">= 0"));
    CHECK(goal_sim_param(&d, "-T", "100,,200", &err) == GOAL_ERR_ARG && strstr(err.msg, "bytes >= 0"));
    CHECK(goal_sim_param(&d, "-T", "100,200,", &err) == GOAL_ERR_ARG && goal_sim_param(&d, "-H", "0.5;1", &err) == GOAL_ERR_ARG &&
          strstr(err.msg, "takes a number"));
    CHECK(goal_sim_params(&d, "-T 100,200 -H 3", 15, &err) == GOAL_ERR_SYNTAX && strstr(err.msg, "-T has 2 sizes and -H 1"));
    memset(&d, 0, sizeof d);
    d.T = 100; d.T_more[0] = 200; d.H = 3;   /* the same in a desc */
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_ERR_ARG && strstr(r.msg, "2 sizes (-T; goal_sim_desc.T, T_more) and 1 costs"));
    goal_sim_run_free(&r);
    d.H_more[0] = 2; d.T_more[0] = 100;   /* not increasing */
    r = sim_desc(two, &d, &st);
    CHECK(st == GOAL_ERR_ARG && strstr(r.msg, "T_more[0] = 100"));
    goal_sim_run_free(&r);
    d.T_more[0] = 200; d.H_more[2] = 1;   /* a cost after the costs' end */
    CHECK(goal_sim_costs_create(&c, &d, &err) == GOAL_ERR_ARG && strstr(err.msg, "H_more[2] = 1"));
}

/* --shared-memory, test_big_bytes's model (L 100, o 10, g 20, G 1, O 0, all eager): one
   1001-byte message alone costs what it costs without it (rank 1 done at 110 + 10 + 1000 G
   = 1120). An exchange (both ranks send 1001 B at once): both arrive at 110; rank 1's
   arrival is numbered first and copies its 1000 G bytes through the memory 110..1110;
   rank 0's finds it busy and waits 1000: done at 2120, not 1120. Four ranks in two pairs:
   under LogGOPS one memory, four copies in a row (rank 1, 0, 3, 2: 1120, 2120, 3120,
   4120); --node-size 2: a memory per pair (2120, 1120 twice); pairs across nodes (0-2,
   1-3) or --node-size 1: no wait. --intra-G 0.5: the node's copies cost 500 (620, 1120).
   With the table (-T 400,600,800 -H 3,2,0.5) a copy is 1499.5: 1619.5 and 3119. */
static void test_shared_memory(void) {
    const char *one = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\n}\n";
    const char *x2 = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: recv 1001b from 1\n}\nrank 1 {\nl1: send 1001b to 0\nl2: recv 1001b from 0\n}\n";
    const char *x4 = "num_ranks 4\nrank 0 {\nl1: send 1001b to 1\nl2: recv 1001b from 1\n}\nrank 1 {\nl1: send 1001b to 0\nl2: recv 1001b from 0\n}\n"
                     "rank 2 {\nl1: send 1001b to 3\nl2: recv 1001b from 3\n}\nrank 3 {\nl1: send 1001b to 2\nl2: recv 1001b from 2\n}\n";
    const char *across = "num_ranks 4\nrank 0 {\nl1: send 1001b to 2\nl2: recv 1001b from 2\n}\nrank 1 {\nl1: send 1001b to 3\nl2: recv 1001b from 3\n}\n"
                         "rank 2 {\nl1: send 1001b to 0\nl2: recv 1001b from 0\n}\nrank 3 {\nl1: send 1001b to 1\nl2: recv 1001b from 1\n}\n";
    static const struct { const char *opts, *world; int p; uint64_t want[4]; } cases[] = {
        {"", "one", 2, {10000, 1120000}}, {"--shared-memory", "one", 2, {10000, 1120000}},
        {"", "x2", 2, {1120000, 1120000}}, {"--shared-memory", "x2", 2, {2120000, 1120000}},
        {"--shared-memory", "x4", 4, {2120000, 1120000, 4120000, 3120000}},
        {"--shared-memory --node-size 2", "x4", 4, {2120000, 1120000, 2120000, 1120000}},
        {"--shared-memory --node-size 1", "x4", 4, {1120000, 1120000, 1120000, 1120000}},
        {"--shared-memory --node-size 2", "across", 4, {1120000, 1120000, 1120000, 1120000}},
        {"--shared-memory --node-size 2 --intra-G 0.5", "x2", 2, {1120000, 620000}},
        {"--shared-memory -T 400,600,800 -H 3,2,0.5", "x2", 2, {3119000, 1619500}},
        {"--shared-memory -T 400,600,800 -H 3,2,0.5", "one", 2, {10000, 1619500}}};
    char line[200];
    size_t k;
    int i, ok;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *w = !strcmp(cases[k].world, "one") ? one : !strcmp(cases[k].world, "x2") ? x2 : !strcmp(cases[k].world, "x4") ? x4 : across;
        goal_sim_desc d;
        goal_sim_run_result r;
        goal_status st;
        memset(&d, 0, sizeof d);
        snprintf(line, sizeof line, "-L 100 -o 10 -g 20 -G 1 -O 0 -S 100000 %s", cases[k].opts);
        CHECK(goal_sim_params(&d, line, strlen(line), NULL) == GOAL_OK);
        CHECK_EQ(d.shared_memory, strstr(line, "--shared-memory") != NULL);
        r = sim_desc(w, &d, &st);
        CHECK_EQ(st, GOAL_OK);
        for (i = 0, ok = st == GOAL_OK; ok && i < cases[k].p; i++) ok = r.finish_ps[i] == cases[k].want[i];
        if (!ok) printf("  case %d (%s, %s)\n", (int)k, cases[k].opts, cases[k].world);
        CHECK(ok);
        goal_sim_run_free(&r);
    }
}

/* -E, -F: the executor's cost per message and a call's fixed cost, against times computed
   by hand with test_big_bytes's model (L 100, o 10, g 20, G 1, O 0, all eager). E 5: rank
   0's send takes its CPU for o + E = 15 and arrives at 115; rank 1 takes it until 115 + 15
   + 1000 G = 1130, its reply's CPU until 1145, arriving at 1245, taken by rank 0 until 1245
   + 15 + 7 G = 1267. Two sends in a row: the second when the NIC is free (1020), CPU until
   1035, arriving at 1135 when rank 1's receiving NIC is free (115 + 20 + 1000 G), taken
   until 1157. F 1000: every CPU starts at 1000, so every time is 1000 later, the idle
   rank's too; E = F = 0 (or GOAL_SIM_ZERO) is plain LogGOPS. Both models charge them. */
static void test_executor_costs(void) {
    const char *back = "num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl3: recv 8b from 1\n}\n"
                       "rank 1 {\nl1: recv 1001b from 0\nl2: send 8b to 0\nl2 requires l1\n}\n";
    const char *two = "num_ranks 3\nrank 0 {\nl1: send 1001b to 1\nl2: send 8b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\nl2: recv 8b from 0\n}\n"
                      "rank 2 {\n}\n";
    static const struct { double E, F; int32_t node_size; uint64_t want[5]; } cases[] = {   /* back 0, 1; two 0, 1, 2 */
        {0, 0, 0, {1247000, 1130000, 1030000, 1147000, 0}}, {GOAL_SIM_ZERO, GOAL_SIM_ZERO, 0, {1247000, 1130000, 1030000, 1147000, 0}},
        {5, 0, 0, {1267000, 1145000, 1035000, 1157000, 0}}, {0, 1000, 0, {2247000, 2130000, 2030000, 2147000, 1000000}},
        {5, 1000, 0, {2267000, 2145000, 2035000, 2157000, 1000000}}, {5, 1000, 1, {2267000, 2145000, 2035000, 2157000, 1000000}},
        {0.125, 0, 0, {1247500, 1130375, 1030125, 1147250, 0}}};
    goal_sim_desc d, out;
    goal_sim_run_result r;
    goal_status st;
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memset(&d, 0, sizeof d);
        CHECK(goal_sim_params(&d, "-L 100 -o 10 -g 20 -G 1 -O 0 -S 100000", 38, NULL) == GOAL_OK);
        d.E = cases[k].E; d.F = cases[k].F; d.node_size = cases[k].node_size;
        check_finish_pair(back, two, &d, cases[k].want, 3);
    }
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-E 41.5 -F 650", 14, NULL) == GOAL_OK && d.E == 41.5 && d.F == 650);
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.E == 41.5 && out.F == 650);
    CHECK(goal_sim_defaults(NULL, &out) == GOAL_OK && out.E == GOAL_SIM_ZERO && out.F == GOAL_SIM_ZERO);
    CHECK(goal_sim_param_arity("-E") == 1 && goal_sim_param_arity("-F") == 1);
    CHECK(goal_sim_param(&d, "-E", "-1", NULL) == GOAL_ERR_ARG && goal_sim_param(&d, "-F", "1.0001", NULL) == GOAL_ERR_ARG);
    d.F = -3;
    r = sim_desc(two, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    CHECK(strstr(r.msg, "goal_sim_desc.F = -3") != NULL);
    goal_sim_run_free(&r);
}

/* -A -D: an eager send over A bytes completes D after its receive took it (what requires
   it waits), its bytes leaving at once; A unset changes nothing, -A 0 takes every eager send. */
static void test_acknowledged(void) {
    const char *chain = "num_ranks 2\nrank 0 {\nl1: send 200b to 1\nl2: send 200b to 1\nl3: send 100b to 1\nl2 requires l1\nl3 requires l2\n}\n"
                        "rank 1 {\nl1: recv 200b from 0\nl2: recv 200b from 0\nl3: recv 100b from 0\n}\n";
    const char *late = "num_ranks 2\nrank 0 {\nl1: send 200b to 1\nl2: calc 7\nl2 requires l1\n}\nrank 1 {\nl1: calc 500\nl2: recv 200b from 0\nl2 requires l1\n}\n";
    static const struct { const char *opts; uint64_t want[4]; } cases[] = {   /* chain 0, 1; late 0, 1 */
        {"", {30000, 140000, 17000, 510000}}, {"-A 200 -D 50", {30000, 140000, 17000, 510000}},
        {"-A 100 -D 50", {330000, 440000, 557000, 510000}}, {"-A 0 -D 50", {480000, 440000, 557000, 510000}},
        {"-A 100", {230000, 340000, 507000, 510000}}, {"-A 100 -D 0.125", {230250, 340250, 507125, 510000}}};
    goal_sim_desc d, out;
    char line[96];
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(line, sizeof line, "-L 100 -o 10 -g 5 -G 0 -O 0 -S 100000 %s", cases[k].opts);
        memset(&d, 0, sizeof d);
        CHECK(goal_sim_params(&d, line, strlen(line), NULL) == GOAL_OK);
        check_finish_pair(chain, late, &d, cases[k].want, 2);
    }
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-A 512 -D 300", 13, NULL) == GOAL_OK && d.A == 512 && d.D == 300);
    CHECK(goal_sim_defaults(&d, &out) == GOAL_OK && out.A == 512 && out.D == 300);
    CHECK(goal_sim_defaults(NULL, &out) == GOAL_OK && out.A == 0 && out.D == GOAL_SIM_ZERO);
    CHECK(goal_sim_param(&d, "-A", "-1", NULL) == GOAL_ERR_ARG && goal_sim_param(&d, "-D", "0.0001", NULL) == GOAL_ERR_ARG);
}

/* goal_sim_param_info is the one table: every row's name is a model option of its arity,
   its field is where goal_sim_param puts the value, NULL past the end. */
static void test_param_info(void) {
    const goal_sim_param_row *row;
    goal_sim_desc d;
    size_t i;
    int seen_E = 0;
    for (i = 0; (row = goal_sim_param_info(i)) != NULL; i++) {
        const char *v = row->kind == GOAL_SIM_PARAM_RANKS ? "3" : row->kind == GOAL_SIM_PARAM_BYTES ? "1234" : "2.5";
        const char *field;
        memset(&d, 0, sizeof d);
        field = (const char *)&d + row->offset;
        CHECK_EQ(goal_sim_param_arity(row->name), row->arity);
        CHECK(row->help && *row->help && (row->arity == 0) == (row->unit == NULL));
        CHECK_EQ(goal_sim_param(&d, row->name, row->arity ? v : NULL, NULL), GOAL_OK);
        if (row->kind == GOAL_SIM_PARAM_NS) CHECK(*(const double *)(const void *)field == 2.5);
        if (row->kind == GOAL_SIM_PARAM_BYTES) CHECK(*(const int64_t *)(const void *)field == 1234);
        if (row->kind == GOAL_SIM_PARAM_RANKS) CHECK(*(const int32_t *)(const void *)field == 3);
        if (row->kind == GOAL_SIM_PARAM_FLAG) CHECK(*(const int *)(const void *)field == 1);
        seen_E += strcmp(row->name, "-E") == 0 || strcmp(row->name, "-F") == 0;
    }
    CHECK(i >= 20 && seen_E == 2);
    CHECK(goal_sim_param_info(i) == NULL && goal_sim_param_info((size_t)-1) == NULL);
}

/* The two-level model (--node-size), against times computed by hand: 4 ranks in nodes of 2,
   inter-node L 1000, o 100, g 200, G 1, O 0; intra-node L 10, o 20, g 30, G 0.1, O 0.05; all
   messages 1001 B. Rank 0 sends to 1 (same node): CPU 0..20 + 1000 O = 70, NIC 0..30 + 1000 G
   = 130, arrives at o + L = 30; then to 2 (other node) when its NIC is free at 130: CPU until
   130 + 100 = 230, arrives at 130 + 100 + 1000 = 1230. Rank 1 takes it at 30 for 20 + 1000
   max(O, G) = 120: 150. Rank 3 sends to 2 (same node): 70, arriving at 30, taken until 150;
   rank 0's message takes rank 2's CPU from 1230 for 100 + 1000 G = 1100: 2330. Node size 1
   (every pair between nodes) gives plain LogGOPS, and a node holding every rank gives
   LogGOPS with the intra-node parameters. */
static void test_two_level(void) {
    const char *text = "num_ranks 4\nrank 0 {\nl1: send 1001b to 1\nl2: send 1001b to 2\n}\nrank 1 {\nl1: recv 1001b from 0\n}\n"
                       "rank 2 {\nl1: recv 1001b from 0\nl2: recv 1001b from 3\n}\nrank 3 {\nl1: send 1001b to 2\n}\n";
    const char *params = "-L 1000 -o 100 -g 200 -G 1 -O 0 --node-size 2 --intra-L 10 --intra-o 20 --intra-g 30 --intra-G 0.1 --intra-O 0.05";
    static const uint64_t want[4] = {230000, 150000, 2330000, 70000};
    goal_sim_desc d, one, intra;
    goal_sim_run_result r, a, b;
    goal_status st, sa, sb;
    goal_error err;
    int k;
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, params, strlen(params), NULL) == GOAL_OK);
    CHECK_EQ(d.node_size, 2);
    r = sim_desc(text, &d, &st);
    CHECK_EQ(st, GOAL_OK);
    for (k = 0; st == GOAL_OK && k < 4; k++) CHECK(r.finish_ps[k] == want[k]);
    goal_sim_run_free(&r);
    one = d; one.node_size = 1;                 /* every pair between nodes */
    intra = d; intra.node_size = 0; intra.L = 10; intra.o = 20; intra.g = 30; intra.G = 0.1; intra.O = 0.05;
    d.node_size = 4;                             /* every pair inside the node */
    r = sim_desc(text, &one, &st);
    one.node_size = 0;
    a = sim_desc(text, &one, &sa);
    CHECK(st == GOAL_OK && sa == GOAL_OK && r.max_ps == a.max_ps && r.finish_ps[2] == a.finish_ps[2]);
    goal_sim_run_free(&r); goal_sim_run_free(&a);
    r = sim_desc(text, &d, &st);
    b = sim_desc(text, &intra, &sb);
    CHECK(st == GOAL_OK && sb == GOAL_OK && r.max_ps == b.max_ps && r.finish_ps[0] == b.finish_ps[0]);
    goal_sim_run_free(&r); goal_sim_run_free(&b);
    d.node_size = -3;
    r = sim_desc(text, &d, &st);
    CHECK_EQ(st, GOAL_ERR_ARG);
    goal_sim_run_free(&r);
    CHECK_EQ(goal_sim_param(&d, "--node-size", "0", NULL), GOAL_ERR_ARG);
    CHECK_EQ(goal_sim_param(&d, "--intra-G", "0.0001", &err), GOAL_ERR_ARG);
    CHECK(err.msg[0] != 0);
    CHECK_EQ(goal_sim_param(&d, "--intra-G", "0.5", &err), GOAL_OK);
    CHECK_EQ(err.status, GOAL_OK);
}

/* goal_sim_defaults: LogGOPSim's defaults for zero fields, a real 0 kept, the intra-node
   ones from the inter-node ones; simulating with its output is simulating with the input. */
static void test_defaults(void) {
    const char *text = "num_ranks 4\nrank 0 {\nl1: send 70000b to 1\nl2: send 8b to 2\n}\nrank 1 {\nl1: recv 70000b from 0\n}\n"
                       "rank 2 {\nl1: recv 8b from 0\nl2: calc 5\n}\nrank 3 {\n}\n";
    goal_sim_desc d, out;
    goal_sim_run_result a, b;
    goal_status sa, sb;
    CHECK_EQ(goal_sim_defaults(NULL, &out), GOAL_OK);
    CHECK(out.L == 2500 && out.o == 1500 && out.g == 1000 && out.G == 6 && out.O == GOAL_SIM_ZERO);
    CHECK(out.S == 65535 && out.C == 1 && out.node_size == 0);
    CHECK(out.intra_L == 2500 && out.intra_o == 1500 && out.intra_g == 1000 && out.intra_G == 6 && out.intra_O == GOAL_SIM_ZERO);
    memset(&d, 0, sizeof d);
    CHECK(goal_sim_params(&d, "-L 7.125 -G 0 -S 0 --node-size 2 --intra-g 0.08", 47, NULL) == GOAL_OK);
    CHECK_EQ(goal_sim_defaults(&d, &out), GOAL_OK);
    CHECK(out.L == 7.125 && out.G == GOAL_SIM_ZERO && out.S == GOAL_SIM_ZERO && out.node_size == 2);
    CHECK(out.intra_L == 7.125 && out.intra_g == 0.08 && out.intra_G == GOAL_SIM_ZERO && out.intra_o == 1500);
    a = sim_desc(text, &d, &sa);
    b = sim_desc(text, &out, &sb);
    CHECK(sa == GOAL_OK && sb == GOAL_OK && a.max_ps == b.max_ps && a.finish_ps[1] == b.finish_ps[1]);
    goal_sim_run_free(&a); goal_sim_run_free(&b);
    d.G = -5;
    CHECK_EQ(goal_sim_defaults(&d, &out), GOAL_ERR_ARG);
    CHECK_EQ(goal_sim_defaults(NULL, NULL), GOAL_ERR_ARG);
}

/* goal_tune_algo_bound never exceeds goal_tune_algo_time (goal tune and goal_tune_best skip
   configurations by it, so an over-estimate would change their picks), for every algorithm
   and parameter grid point tune tries, at several p and sizes, under twelve models (shared memory only adds waits: its bound is the same; copies apart from reductions, -K, both ways). */
static void test_tune_bound(void) {
    static const char *const models[] = {"", "-L 100000 -o 0 -g 0 -G 0 -O 0", "-L 0 -o 0 -g 0 -G 1 -O 0",
                                         "-L 12 -o 96 -g 80 -G 0.042 -O 0.008 -S 1024 -C 0.05",
                                         "-L 1000 -o 100 -g 200 -G 1 --node-size 2 --intra-L 10 --intra-o 20 --intra-G 0.1",
                                         "-L 12 -o 96 -g 80 -G 0.042 -S 1000 -R 900.5",
                                         "-L 12 -o 96 -g 80 -G 0.042 -O 0.05 -S 1000 -T 600 -H 0.1",
                                         "-L 12 -o 96 -g 80 -G 0.042 -S 1000 -E 40.5 -F 700",
                                         "-L 12 -o 96 -g 80 -G 0.042 -O 0.05 -S 1000 -T 600,4000,30000 -H 0.1,0.02,0.3",
                                         "-L 12 -o 96 -g 80 -G 0.042 -S 1000 -T 600 -H 0.1 --shared-memory",
                                         "-L 12 -o 96 -g 80 -G 0.042 -C 3 -K 0.01", "-L 12 -o 96 -g 80 -G 0.042 -C 0.01 -K 3"};
    static const int32_t ps[] = {1, 2, 3, 5, 8, 13, 24};
    static const uint64_t sizes[] = {0, 8, 1000, 65536};
    const goal_algo_info *a;
    goal_algo_desc d;
    goal_sim_desc md;
    double t, b;
    int i, m, k, n, lo, lo2, tight = 0, runs = 0;
    for (m = 0; m < (int)(sizeof models / sizeof models[0]); m++) {
        memset(&md, 0, sizeof md);
        CHECK(!*models[m] || goal_sim_params(&md, models[m], strlen(models[m]), NULL) == GOAL_OK);
        for (i = 0; (a = goal_algo_list(i)) != NULL; i++)
            for (k = 0; !(a->flags & GOAL_ALGO_VECTOR) && k < (int)(sizeof ps / sizeof ps[0]); k++)
                for (n = 0; n < (int)(sizeof sizes / sizeof sizes[0]) * 3; n++) {
                    memset(&d, 0, sizeof d);
                    d.algo = a->name; d.count = sizes[n / 3]; d.dtype = GOAL_INT8;
                    d.nway = 1 + n % 3; d.radix = 2 + n % 3; d.segment = (a->flags & GOAL_ALGO_SEGMENTED) ? 1024u << (3 * (n % 3)) : 0;
                    if (goal_tune_algo_time(&d, ps[k], &md, &t, &lo, NULL) != GOAL_OK) continue;
                    CHECK(goal_tune_algo_bound(&d, ps[k], &md, &b, &lo2, NULL) == GOAL_OK && lo2 == 0);
                    if (b > t) printf("  bound %.3f > time %.3f: %s p %d size %llu model %d\n", b, t, a->name, ps[k], (unsigned long long)d.count, m);
                    CHECK(b <= t);
                    tight += b > 0.5 * t;
                    runs++;
                }
    }
    CHECK(runs > 2000 && tight > runs / 10);   /* and it bounds something */
}

/* The tune bound where the chain walk runs out of budget (128 ranks from each end): still
   a bound, and along a chain it grows with the ranks walked (bcast_chain at p = 300: 128 of
   299 crossings). */
static void test_tune_bound_walk(void) {
    static const char *const algos[] = {"bcast_chain", "reduce_chain", "bcast_binomial", "bcast_pipelined_tree", "reduce_dbtree",
                                        "allreduce_ring", "allgather_ring", "bcast_knomial", "scan_linear", "allreduce_recdoub"};
    static const char *const models[] = {"", "-L 100000 -o 10 -g 10 -G 0.1"};
    static const int32_t ps[] = {300, 700};
    goal_algo_desc d;
    goal_sim_desc md;
    double t, b;
    int i, k, m, lo;
    for (m = 0; m < 2; m++)
        for (i = 0; i < (int)(sizeof algos / sizeof algos[0]); i++)
            for (k = 0; k < 2 && (k == 0 || !strstr(algos[i], "ring")); k++) {   /* rings: p^2 actions */
                memset(&md, 0, sizeof md);
                CHECK(!*models[m] || goal_sim_params(&md, models[m], strlen(models[m]), NULL) == GOAL_OK);
                memset(&d, 0, sizeof d);
                d.algo = algos[i]; d.count = 8000; d.dtype = GOAL_INT8; d.op = GOAL_OP_SUM; d.nway = 1; d.radix = 4;
                d.segment = strstr(algos[i], "chain") || strstr(algos[i], "tree") ? 1024 : 0;
                CHECK_EQ(goal_tune_algo_time(&d, ps[k], &md, &t, &lo, NULL), GOAL_OK);
                CHECK_EQ(goal_tune_algo_bound(&d, ps[k], &md, &b, &lo, NULL), GOAL_OK);
                if (b > t) printf("  bound %.3f > time %.3f: %s p %d model %d\n", b, t, algos[i], ps[k], m);
                CHECK(b <= t);
                if (i == 0 && k == 0) CHECK(b > 0.3 * t);   /* the per-rank bound alone: about 0.02 */
            }
}

/* Every message a generator sends fills the receive it matches (no size finding): the
   tune bound prices a receive by its buffer's bytes. Every algorithm tune tries, at its
   grid's parameters, at several p, roots and sizes (with the odd counts that leave blocks
   uneven). */
static void test_recv_sizes(void) {
    static const int32_t ps[] = {1, 2, 3, 5, 8, 13, 24};
    static const uint64_t counts[] = {0, 1, 7, 1000, 65537};
    const goal_algo_info *a;
    goal_algo_desc d;
    int i, k, n, checked = 0;
    for (i = 0; (a = goal_algo_list(i)) != NULL; i++)
        for (k = 0; !(a->flags & GOAL_ALGO_VECTOR) && k < (int)(sizeof ps / sizeof ps[0]); k++)
            for (n = 0; n < (int)(sizeof counts / sizeof counts[0]) * 3; n++) {
                goal_world *w;
                goal_sim_check_result r;
                goal_sim_check_desc cd;
                memset(&d, 0, sizeof d);
                d.algo = a->name; d.count = counts[n / 3]; d.dtype = n % 2 ? GOAL_INT32 : GOAL_INT8; d.op = GOAL_OP_SUM;
                d.root = ps[k] - 1 - n % ps[k];
                d.nway = 1 + n % 3; d.radix = 2 + n % 3; d.segment = (a->flags & GOAL_ALGO_SEGMENTED) ? 1024u << (3 * (n % 3)) : 0;
                if (goal_algo_world(&w, &d, ps[k], NULL) != GOAL_OK) continue;
                memset(&cd, 0, sizeof cd);
                cd.no_pairs = 1;
                CHECK_EQ(goal_sim_check(w, &cd, &r), GOAL_OK);
                if (r.nfindings) printf("  %s p %d count %llu: %zu findings\n", a->name, ps[k], (unsigned long long)d.count, r.nfindings);
                CHECK_EQ(r.nfindings, 0);
                goal_sim_check_free(&r);
                goal_world_destroy(w);
                checked++;
            }
    CHECK(checked > 1000);
}

/* stop_ns: a world that takes longer than it stops with GOAL_PENDING; one that takes exactly
   as long (or less) runs to the end with its time unchanged. */
static void test_stop(void) {
    static const char *const algos[] = {"bcast_binomial", "allreduce_ring", "alltoall_pairwise", "reduce_scatter_ring", "barrier_dissemination"};
    const goal_algo_info *a;
    goal_algo_desc d;
    goal_sim_desc md;
    double t, t2;
    int i, k, lo, stopped = 0;
    for (i = 0; i < (int)(sizeof algos / sizeof algos[0]); i++)
        for (k = 1; k <= 33; k += 8) {
            CHECK((a = goal_algo_find(algos[i])) != NULL);
            memset(&d, 0, sizeof d);
            memset(&md, 0, sizeof md);
            d.algo = a->name; d.count = 1000; d.dtype = GOAL_INT8; d.nway = 1;
            CHECK(goal_tune_algo_time(&d, k, &md, &t, &lo, NULL) == GOAL_OK);
            md.stop_ns = t;
            CHECK(t == 0 || (goal_tune_algo_time(&d, k, &md, &t2, &lo, NULL) == GOAL_OK && t2 == t));
            md.stop_ns = t - 0.001;
            if (t > 0.001) { CHECK(goal_tune_algo_time(&d, k, &md, &t2, &lo, NULL) == GOAL_PENDING && !lo); stopped++; }
        }
    CHECK(stopped > 10);
    md.stop_ns = -1;
    CHECK(goal_tune_algo_time(&d, 8, &md, &t2, &lo, NULL) == GOAL_ERR_ARG);
}

/* A run stops before its first event once a rank's CPU work alone (its sends, the arrivals
   of the messages sent to it, its calcs) is longer than stop_ns: rank 1 below receives
   1000 B (o + 999 G = 7494 ns) and calcs 100 ns, so 7594 ns of work, and ends at 11594. */
static void test_stop_work(void) {
    const char *text = "num_ranks 2\nrank 0 {\nl1: calc 500\nl2: calc 700\nl3: send 1000b to 1\n}\n"
                       "rank 1 {\nl1: recv 1000b from 0\nl2: calc 100\nl2 requires l1\n}\n";
    static const double stops[] = {7593.999, 7594, 11593.999, 11594};
    static const goal_status want[] = {GOAL_PENDING, GOAL_PENDING, GOAL_PENDING, GOAL_OK};
    goal_sim_desc d;
    goal_sim_run_result r;
    goal_status st;
    evlog l;
    int k;
    for (k = 0; k < 4; k++) {
        memset(&l, 0, sizeof l);
        memset(&d, 0, sizeof d);
        d.event_fn = log_event; d.user = &l; d.stop_ns = stops[k];
        r = sim_desc(text, &d, &st);
        CHECK_EQ(st, want[k]);
        CHECK_EQ(l.calc + l.send + l.recv + l.msg == 0, k == 0);   /* only work alone over stop_ns stops at once */
        if (st == GOAL_OK) CHECK_EQ(r.max_ps, 11594000);
        goal_sim_run_free(&r);
    }
}

int main(void) {
    RUN(test_expected_compat);
    RUN(test_expected_default);
    RUN(test_summary);
    RUN(test_zero_bytes);
    RUN(test_deadlock);
    RUN(test_empty);
    RUN(test_alloc_failures);
    RUN(test_events);
    RUN(test_time_overflow);
    RUN(test_fractional);
    RUN(test_param_messages);
    RUN(test_exec_cost);
    RUN(test_two_level);
    RUN(test_rendezvous);
    RUN(test_big_bytes);
    RUN(test_cost_table);
    RUN(test_cost_span);
    RUN(test_copy_cost);
    RUN(test_shared_memory);
    RUN(test_executor_costs);
    RUN(test_acknowledged);
    RUN(test_param_info);
    RUN(test_defaults);
    RUN(test_tune_bound);
    RUN(test_tune_bound_walk);
    RUN(test_recv_sizes);
    RUN(test_stop);
    RUN(test_stop_work);
    return th_done();
}
