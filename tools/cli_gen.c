/* goal gen: print the schedules of a collective algorithm (goal_algos.h) for all ranks;
   goal run ALGO: run one over the in-process ranks on random data and check the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../goal_sched.h"
#include "../goal_algos.h"
#include "algo_check.h"

typedef struct gen_opts {
    goal_algo_desc d;
    long long p;
    goal_dialect dialect;
    const char *out;
    int *lists;              /* participants then receivers, freed at the end */
    int check, threads;
    long long seed;
} gen_opts;

/* Type names as the issue spells them (int32, uint8, float64), or goal.h's (Int32). */
static int parse_type(const char *s, goal_dtype *t) {
    static const goal_dtype all[] = {GOAL_INT8, GOAL_INT16, GOAL_INT32, GOAL_INT64, GOAL_UINT8, GOAL_UINT16,
                                     GOAL_UINT32, GOAL_UINT64, GOAL_FLOAT32, GOAL_FLOAT64};
    size_t i, k;
    for (i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *n = goal_dtype_name(all[i]);
        for (k = 0; n[k] && s[k] && (n[k] | 0x20) == (s[k] | 0x20); k++) {}
        if (!n[k] && !s[k]) { *t = all[i]; return 1; }
    }
    return 0;
}
static int parse_op(const char *s, goal_op *op) {
    int i;
    for (i = 0; i < GOAL_OP_USER; i++)
        if (strcmp(goal_op_name((goal_op)i), s) == 0) { *op = (goal_op)i; return 1; }
    return 0;
}
/* "0-7,9" -> ranks; returns the count, or -1 when malformed. */
static int parse_list(const char *s, int **out) {
    int n = 0, cap = 16, *v = (int *)malloc(cap * sizeof(int));
    while (v && *s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0 || a > 1 << 30) break;
        if (*end == '-') { s = end + 1; b = strtol(s, &end, 10); if (end == s || b < a || b > 1 << 30) break; }
        for (; a <= b; a++) {
            if (n == cap) { int *nv = (int *)realloc(v, (size_t)(cap *= 2) * sizeof(int)); if (!nv) { free(v); return -1; } v = nv; }
            v[n++] = (int)a;
        }
        s = end;
        if (*s == ',' && s[1]) s++;
        else if (*s) break;
    }
    if (!v || *s || n == 0) { free(v); return -1; }
    *out = v;
    return n;
}

/* One option of gen / run at argv[*i]: 0 handled, 2 usage error, -1 not an option of ours. */
static int gen_option(int argc, char **argv, int *i, gen_opts *o, const char *verb) {
    const char *v = NULL;
    long long x;
    int **slot = NULL, *list, n, *count = NULL;
    if (cli_opt(argc, argv, i, "-p", &v)) {
        if (!cli_int(v, 1, 1 << 30, &o->p)) return cli_usage("%s: -p takes a number of ranks >= 1", verb);
    } else if (cli_opt(argc, argv, i, "--root", &v)) {
        if (!cli_int(v, 0, 1 << 30, &x)) return cli_usage("%s: --root takes a rank", verb);
        o->d.root = (int)x;
    } else if (cli_opt(argc, argv, i, "--size", &v)) {
        if (!cli_int(v, 0, 1LL << 50, &x)) return cli_usage("%s: --size takes bytes", verb);
        o->d.count = (uint64_t)x;   /* bytes for now: divided by the type size at the end */
    } else if (cli_opt(argc, argv, i, "--type", &v)) {
        if (!v || !parse_type(v, &o->d.dtype)) return cli_usage("%s: --type takes int8..int64, uint8..uint64, float32 or float64", verb);
    } else if (cli_opt(argc, argv, i, "--op", &v)) {
        if (!v || !parse_op(v, &o->d.op)) return cli_usage("%s: --op takes max min sum prod land lor lxor band bor bxor copy", verb);
    } else if (cli_opt(argc, argv, i, "--nway", &v)) {
        if (!cli_int(v, 1, 1 << 30, &x)) return cli_usage("%s: --nway takes a number >= 1", verb);
        o->d.nway = (int)x;
    } else if (cli_opt(argc, argv, i, "--segment", &v)) {
        if (!cli_int(v, 1, 1LL << 50, &x)) return cli_usage("%s: --segment takes bytes >= 1", verb);
        o->d.segment = (uint64_t)x;
    } else if (cli_opt(argc, argv, i, "--radix", &v)) {
        if (!cli_int(v, 2, 1 << 30, &x)) return cli_usage("%s: --radix takes a number >= 2", verb);
        o->d.radix = (int)x;
    } else if (cli_opt(argc, argv, i, "--participants", &v)) {
        slot = (int **)&o->d.participants; count = &o->d.nparticipants;
    } else if (cli_opt(argc, argv, i, "--receivers", &v)) {
        slot = (int **)&o->d.receivers; count = &o->d.nreceivers;
    } else if (cli_opt(argc, argv, i, "--dialect", &v)) {
        if (v && strcmp(v, "paper") == 0) o->dialect = GOAL_DIALECT_PAPER;
        else if (v && strcmp(v, "loggopsim") == 0) o->dialect = GOAL_DIALECT_LOGGOPSIM;
        else return cli_usage("%s: --dialect takes paper or loggopsim", verb);
    } else return -1;
    if (!slot) return 0;
    if (*slot) return cli_usage("%s: %s given twice", verb, argv[*i - 1]);
    if (!v || (n = parse_list(v, &list)) < 0) return cli_usage("%s: a LIST is ranks and ranges: 0-7,9", verb);
    *slot = list;
    *count = n;
    return 0;
}

static void gen_free(gen_opts *o) {
    free((void *)o->d.participants);
    free((void *)o->d.receivers);
}

/* Parses ALGO and the options; `run` also takes --check, --threads, --seed. 0 or exit status. */
static int gen_parse(int argc, char **argv, gen_opts *o, int run) {
    const char *verb = run ? "run" : "gen", *v;
    size_t es;
    int i, rc;
    memset(o, 0, sizeof o[0]);
    o->d.count = 8;
    o->d.dtype = GOAL_INT32;
    o->d.op = GOAL_OP_SUM;
    o->dialect = GOAL_DIALECT_LOGGOPSIM;
    o->seed = 1;
    for (i = 1; i < argc; i++) {
        if ((rc = gen_option(argc, argv, &i, o, verb)) > 0) return rc;
        if (rc == 0) continue;
        if (run && strcmp(argv[i], "--check") == 0) o->check = 1;
        else if (run && strcmp(argv[i], "--threads") == 0) o->threads = 1;
        else if (run && cli_opt(argc, argv, &i, "--seed", &v)) {
            if (!cli_int(v, 0, 1LL << 62, &o->seed)) return cli_usage("run: --seed takes a number");
        } else if (!run && cli_opt(argc, argv, &i, "-o", &v)) o->out = v;
        else if (argv[i][0] == '-') return cli_usage("%s: unknown option '%s'", verb, argv[i]);
        else if (o->d.algo) return cli_usage("%s: one algorithm only ('%s' and '%s')", verb, o->d.algo, argv[i]);
        else o->d.algo = argv[i];
    }
    if (!o->d.algo) return cli_usage("%s: ALGO missing (goal gen --list)", verb);
    if (!goal_algo_find(o->d.algo)) return cli_usage("%s: unknown algorithm '%s' (goal gen --list)", verb, o->d.algo);
    if (!o->p) return cli_usage("%s: -p N missing", verb);
    es = goal_dtype_size(o->d.dtype);
    if (o->d.count % es) return cli_usage("%s: --size %llu is not a whole number of %s elements", verb,
                                          (unsigned long long)o->d.count, goal_dtype_name(o->d.dtype));
    o->d.count /= es;
    return 0;
}

int cli_is_algo(const char *name) { return goal_algo_find(name) != NULL; }

int cli_gen(int argc, char **argv) {
    gen_opts o;
    goal_world *w = NULL;
    goal_error err;
    void *f;
    int rc, i;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        const goal_algo_info *a;
        for (i = 0; (a = goal_algo_list(i)) != NULL; i++) printf("%-24s %s\n", a->name, a->description);
        return CLI_OK;
    }
    if ((rc = gen_parse(argc, argv, &o, 0)) != 0) { gen_free(&o); return rc; }
    if (goal_algo_world(&w, &o.d, (int)o.p, &err) != GOAL_OK) { gen_free(&o); return cli_fail("gen: %s", err.msg); }
    rc = (f = cli_open_out(o.out)) ? CLI_OK : CLI_BAD_INPUT;
    if (f && goal_world_write(w, o.dialect, cli_write_file, f) != GOAL_OK) rc = cli_fail("gen: write error");
    if (f && cli_close_out(f) != CLI_OK) rc = CLI_BAD_INPUT;
    goal_world_destroy(w);
    gen_free(&o);
    return rc;
}

int cli_run_algo(int argc, char **argv) {
    gen_opts o;
    goal_error err;
    ac_result res;
    goal_status st;
    int rc;
    if ((rc = gen_parse(argc, argv, &o, 1)) != 0) { gen_free(&o); return rc; }
    memset(&err, 0, sizeof err);
    st = ac_check(&o.d, (int)o.p, o.threads, (uint64_t)o.seed, &res, &err);
    gen_free(&o);
    if (st == GOAL_ERR_DEADLOCK) { fprintf(stderr, "goal: run: %s\n", err.msg); return CLI_DEADLOCK; }
    if (st != GOAL_OK) return cli_fail("run: %s", err.msg);
    if (res.rank >= 0) {
        printf("rank %d %s %llu (element): expected %s, got %s\n", res.rank, res.in_changed ? "input changed at offset" : "offset",
               (unsigned long long)res.offset, res.expected, res.got);
        return CLI_BAD_INPUT;
    }
    printf("ok\n");
    return CLI_OK;
}

int cli_algo_verify(const struct goal_algo_desc *d, int p, char *msg, size_t len) {
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
