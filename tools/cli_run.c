/* goal run: execute every rank of a world in this process (goal_sched.h's world runner);
   goal run ALGO: run an algorithm over the in-process ranks on random data and check it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../goal_sched.h"
#define GOAL_ALGO_CHECK_IMPLEMENTATION
#include "algo_check.h"

typedef struct run_ctx {
    goal_world *w;
    goal_schedule *s;       /* one view per rank, for labels */
    unsigned long step;
} run_ctx;

/* "send 8b to 3 tag 0", "exec sum Int32", ... into buf (64 bytes). */
static const char *describe(const goal_schedule *s, int32_t i, char *buf) {
    goal_action a;
    goal_schedule_action(s, (uint32_t)i, &a);
    switch (a.kind) {
    case GOAL_SEND: case GOAL_RECV:
        snprintf(buf, 64, "%s %llub %s %d tag %d", a.kind == GOAL_SEND ? "send" : "recv", (unsigned long long)a.buf.size,
                 a.kind == GOAL_SEND ? "to" : "from", (int)a.peer, (int)a.tag);
        break;
    case GOAL_EXEC:
        if (a.op == GOAL_OP_USER) snprintf(buf, 64, "exec user %lu", (unsigned long)a.fn);
        else snprintf(buf, 64, "exec %s%s %llub", goal_op_name(a.op), goal_dtype_name(a.dtype), (unsigned long long)a.buf.size);
        break;
    case GOAL_CALC: snprintf(buf, 64, "calc %llu", (unsigned long long)a.cost); break;
    default: snprintf(buf, 64, "nop"); break;
    }
    return buf;
}
static void on_trace(void *user, int rank, int32_t action, int event) {
    run_ctx *c = (run_ctx *)user;
    char lb[GOAL_LABEL_MAX], d[64];
    printf("step %lu rank %d %s %s %s\n", ++c->step, rank, event ? "done " : "start",
           goal_schedule_label(&c->s[rank], (uint32_t)action, lb), describe(&c->s[rank], action, d));
}
static void on_stuck(void *user, int rank, int32_t action, int posted) {
    run_ctx *c = (run_ctx *)user;
    char lb[GOAL_LABEL_MAX], d[64];
    fprintf(stderr, "goal: deadlock: rank %d %s (%s) %s\n", rank, goal_schedule_label(&c->s[rank], (uint32_t)action, lb),
            describe(&c->s[rank], action, d), posted ? "posted, never matched" : "never started");
}
/* 32-bit FNV-1a: a short fingerprint of a rank's memory after the run. */
static unsigned long digest(unsigned long start, const unsigned char *p, uint64_t n) {
    uint32_t h = (uint32_t)start;
    uint64_t k;
    for (k = 0; k < n; k++) h = (h ^ p[k]) * 16777619u;
    return (unsigned long)h;
}

/* Is argv[1] meant as an algorithm? Not a file, and either given -p or --check, or a bare
   name (no '.' or '/') — then "unknown algorithm" says more than "unknown option '-p'". */
static int names_algo(int argc, char **argv) {
    FILE *f = argv[1][0] == '-' ? NULL : fopen(argv[1], "rb");
    int i;
    if (f) fclose(f);
    if (f || argv[1][0] == '-') return 0;
    for (i = 2; i < argc; i++)
        if (strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "--check") == 0) return 1;
    return strpbrk(argv[1], "./") == NULL;
}

/* Every slot of every rank is allocated and filled: their sum must fit the memory limit. */
static int run_slots_fit(const char *path, const goal_schedule *s, int n, uint32_t nslots) {
    uint64_t total = 0, size;
    char what[300];
    int i;
    uint32_t j;
    for (i = 0; i < n; i++)
        for (j = 0; j < nslots; j++) {
            size = goal_schedule_slot_size(&s[i], j);
            total = size > UINT64_MAX - total ? UINT64_MAX : total + size;
        }
    snprintf(what, sizeof what, "%s: the slots of %d rank%s (%llu bytes)", path, n, cli_s((unsigned long long)n), (unsigned long long)total);
    return cli_fits(what, total);
}

const cli_option cli_run_algo_options[] = {
    {"--check", NULL, NULL, "compare every rank's result with a reference (required)", cli_set_flag, offsetof(cli_gen_opts, check), 0, 0,
     NULL},
    {"--threads", NULL, NULL, "one thread per rank", cli_set_flag, offsetof(cli_gen_opts, threads), 0, 0, NULL},
    {"--seed", "S", "1", "seed of the random input", cli_set_int, offsetof(cli_gen_opts, seed), 0, 1LL << 62, "takes a number"},
    CLI_END};
static int run_algo(int argc, char **argv) {
    cli_gen_opts o;
    goal_error err;
    ac_result res;
    goal_status st;
    int rc;
    if ((rc = cli_gen_parse(argc, argv, &o, 1)) != 0 || (rc = cli_gen_fits(&o, 1)) != 0) { cli_gen_free(&o); return rc; }
    memset(&err, 0, sizeof err);
    st = ac_check(&o.d, (int)o.p, o.threads, (uint64_t)o.seed, &res, &err);
    cli_gen_free(&o);
    if (st == GOAL_ERR_DEADLOCK) { fprintf(stderr, "goal: run: %s\n", err.msg); return CLI_DEADLOCK; }
    if (st != GOAL_OK) return cli_fail("run: %s", err.msg);
    if (res.rank >= 0) {
        printf("rank %d %s %llu (element): expected %s, got %s\n", res.rank, res.in_changed ? "input changed at offset" : "offset",
               (unsigned long long)res.offset, res.expected, res.got);
        return CLI_BAD_INPUT;
    }
    printf("ok\n");
    return cli_close_out(stdout);
}

int cli_algo_verify(const goal_algo_desc *d, int p, char *msg, size_t len) {
    goal_error err;
    ac_result res;
    goal_status st;
    memset(&err, 0, sizeof err);
    st = ac_check(d, p, 0, 1, &res, &err);
    if (st != GOAL_OK) snprintf(msg, len, "%s", err.msg);
    else if (res.rank >= 0)
        snprintf(msg, len, "rank %d offset %llu: expected %s, got %s", res.rank, (unsigned long long)res.offset, res.expected, res.got);
    else snprintf(msg, len, "every rank holds the reference result");
    return st != GOAL_OK || res.rank >= 0;
}

typedef struct run_args { int threads, trace; } run_args;
const cli_option cli_run_options[] = {
    {"--threads", NULL, NULL, "one thread per rank (default: the ranks in turn, in one thread)", cli_set_flag, offsetof(run_args, threads),
     0, 0, NULL},
    {"--trace", NULL, NULL, "print every step: step N rank R start|done LABEL description", cli_set_flag, offsetof(run_args, trace), 0, 0,
     NULL},
    CLI_END};

int cli_run(int argc, char **argv) {
    const char *path;
    run_args a = {0, 0};
    cli_form f = {cli_run_options, &a, NULL, NULL, "FILE", 1, NULL};
    int threads, trace, i, n, rc = CLI_OK;
    run_ctx c;
    goal_slot *slot = NULL;               /* nslots per rank */
    const goal_slot **slots = NULL;
    uint32_t nslots = 1, j;
    goal_world_run_desc d;
    goal_error err;
    goal_status st;
    /* A known algorithm name runs that algorithm on random data, checked (goal_algos.h). */
    if (argc > 1 && cli_algo_name(argv[1])) return run_algo(argc, argv);
    if (argc > 1 && names_algo(argc, argv)) return cli_unknown_algo("run", argv[1]);
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    path = f.value;
    threads = a.threads;
    trace = a.trace;
    if (trace && threads) return cli_usage("run: --trace steps ranks deterministically; drop --threads");
    memset(&c, 0, sizeof c);
    if (cli_load_world(path, &c.w)) return CLI_BAD_INPUT;
    if (cli_world_fits(path, c.w)) { goal_world_destroy(c.w); return CLI_BAD_INPUT; }
    n = goal_world_nranks(c.w);
    c.s = (goal_schedule *)calloc((size_t)n, sizeof *c.s);
    if (!c.s) { rc = cli_fail("out of memory"); goto done; }
    for (i = 0; i < n; i++) {
        if (goal_world_schedule(c.w, i, &c.s[i]) != GOAL_OK) { rc = cli_fail("%s: rank %d has no schedule", path, i); goto done; }
        if (c.s[i].nslots > nslots) nslots = c.s[i].nslots;
    }
    if ((rc = run_slots_fit(path, c.s, n, nslots)) != CLI_OK) goto done;
    slot = (goal_slot *)calloc((size_t)n * nslots, sizeof *slot);
    slots = (const goal_slot **)calloc((size_t)n, sizeof *slots);
    if (!slot || !slots) { rc = cli_fail("out of memory"); goto done; }
    /* Each slot as large as the rank's schedule touches; byte k of slot j of rank r holds
       (7 r + 13 j + k) mod 256. */
    for (i = 0; i < n; i++) {
        slots[i] = &slot[(size_t)i * nslots];
        for (j = 0; j < nslots; j++) {
            goal_slot *sl = &slot[(size_t)i * nslots + j];
            uint64_t k, size = goal_schedule_slot_size(&c.s[i], j);
            if (size > ((size_t)-1) / 2 || !(sl->data = malloc(size ? (size_t)size : 1))) {
                rc = cli_fail("%s: rank %d: cannot allocate %llu bytes for slot %lu", path, i, (unsigned long long)size, (unsigned long)j);
                goto done;
            }
            for (k = 0; k < size; k++) ((unsigned char *)sl->data)[k] = (unsigned char)(7u * (unsigned)i + 13u * j + k);
            sl->size = size;
        }
    }
    memset(&d, 0, sizeof d);
    d.world = c.w; d.slots = slots; d.nslots = nslots; d.threads = threads;
    if (trace) { d.trace = on_trace; d.trace_user = &c; }
    d.stuck = on_stuck; d.stuck_user = &c;
    st = goal_world_run(&d, &err);
    if (st == GOAL_ERR_DEADLOCK) { fprintf(stderr, "goal: %s: %s\n", path, err.msg); rc = CLI_DEADLOCK; }
    else if (st != GOAL_OK) rc = cli_fail("%s: %s", path, err.msg);
    else {
        for (i = 0; i < n; i++) {
            unsigned long h = 2166136261ul;
            for (j = 0; j < nslots; j++) h = digest(h, (const unsigned char *)slot[(size_t)i * nslots + j].data, slot[(size_t)i * nslots + j].size);
            printf("rank %d done %lu actions digest %08lx\n", i, (unsigned long)c.s[i].nactions, h);
        }
        printf("ok\n");
    }
done:
    for (i = 0; slot && (size_t)i < (size_t)n * nslots; i++) free(slot[i].data);
    free(slot);
    free(slots);
    free(c.s);
    goal_world_destroy(c.w);
    return cli_close_out(stdout) && rc == CLI_OK ? CLI_BAD_INPUT : rc;
}
