/* goal gen: print the schedules of a collective algorithm (goal_algos.h) for all ranks.
   Here too: the gen options, which goal run ALGO (cli_run.c) takes as well. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../goal_sched.h"
#include "../goal_algos.h"
#include "algo_check.h"

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
/* "0-7,9" -> ranks; returns the count, -1 when malformed, -2 when longer than LIST_MAX. */
#define LIST_MAX (1 << 30)     /* as many entries as ranks (-p) */
static int parse_list(const char *s, int **out) {
    size_t n = 0, cap = 16;
    int *v = (int *)malloc(cap * sizeof(int));
    while (v && *s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0 || a > LIST_MAX) break;
        if (*end == '-') { s = end + 1; b = strtol(s, &end, 10); if (end == s || b < a || b > LIST_MAX) break; }
        if ((size_t)(b - a) >= LIST_MAX - n) { free(v); return -2; }
        for (; a <= b; a++) {
            if (n == cap) { int *nv = (int *)realloc(v, (cap *= 2) * sizeof(int)); if (!nv) { free(v); return -1; } v = nv; }
            v[n++] = (int)a;
        }
        s = end;
        if (*s == ',' && s[1]) s++;
        else if (*s) break;
    }
    if (!v || *s || n == 0) { free(v); return -1; }
    *out = v;
    return (int)n;
}

/* "3,0,5" -> counts (each 0..2^31-1); returns how many, or -1 when malformed. */
static int parse_counts(const char *s, int **out) {
    int n = 0, cap = 16, *v = (int *)malloc(cap * sizeof(int));
    while (v && *s) {
        char *end;
        long long x = strtoll(s, &end, 10);
        if (end == s || x < 0 || x > 0x7fffffff || *s == '-' || *s == '+') break;
        if (n == cap) { int *nv = (int *)realloc(v, (size_t)(cap *= 2) * sizeof(int)); if (!nv) { free(v); return -1; } v = nv; }
        v[n++] = (int)x;
        s = end;
        if (*s == ',' && s[1]) s++;
        else if (*s) break;
    }
    if (!v || *s || n == 0) { free(v); return -1; }
    *out = v;
    return n;
}
/* The per-rank counts of a vector collective from --counts or --counts-seed: p of them, p x p
   (row by row) for alltoallv. 0 or a usage error. */
static int gen_counts(cli_gen_opts *o, const char *verb) {
    int a2a = goal_algo_coll(o->d.algo) == GOAL_COLL_ALLTOALLV, *v = NULL, n;
    long long want = a2a ? o->p * o->p : o->p, k;
    uint64_t s = (uint64_t)o->counts_seed;
    const goal_algo_info *info = goal_algo_find(o->d.algo);
    if (!o->counts && o->counts_seed < 0) return 0;
    if (!(info->flags & GOAL_ALGO_VECTOR))
        return cli_usage("%s: --counts and --counts-seed are for the vector collectives (gatherv_ ...)", verb);
    if (o->counts && o->counts_seed >= 0) return cli_usage("%s: --counts or --counts-seed, not both", verb);
    if (want > (1LL << 24)) return cli_usage("%s: too many ranks for per-rank counts (%lld)", verb, want);
    if (o->counts) {
        if ((n = parse_counts(o->counts, &v)) < 0) return cli_usage("%s: --counts takes element counts: 3,0,5", verb);
        if (n != want) {
            free(v);
            return cli_usage("%s: --counts gives %d counts, %s needs %lld (%s)", verb, n, o->d.algo, want,
                             a2a ? "p x p, row by row" : "one per rank");
        }
    } else {
        if (!(v = (int *)malloc((size_t)want * sizeof(int)))) return cli_fail("%s: out of memory", verb);
        for (k = 0; k < want; k++) v[k] = (int)(ac_rand(&s) % 8);
    }
    o->d.counts = v;
    o->d.counts_matrix = a2a;
    return 0;
}

/* One option of gen / run at argv[*i]: 0 handled, 2 usage error, -1 not an option of ours. */
static int gen_option(int argc, char **argv, int *i, cli_gen_opts *o, const char *verb) {
    const char *v = NULL;
    long long x;
    int **slot = NULL, *list, n, *count = NULL;
    if (cli_opt(argc, argv, i, "-p", &v)) {
        if (!cli_int(v, 1, 1 << 30, &o->p)) return cli_usage("%s: -p takes a number of ranks from 1 to %d", verb, 1 << 30);
    } else if (cli_opt(argc, argv, i, "--root", &v)) {
        if (!cli_int(v, 0, 1 << 30, &x)) return cli_usage("%s: --root takes a rank from 0 to %d", verb, 1 << 30);
        o->d.root = (int)x;
    } else if (cli_opt(argc, argv, i, "--size", &v)) {
        if (!cli_int(v, 0, 1LL << 50, &x)) return cli_usage("%s: --size takes bytes from 0 to 2^50", verb);
        o->d.count = (uint64_t)x;   /* bytes for now: divided by the type size at the end */
    } else if (cli_opt(argc, argv, i, "--type", &v)) {
        if (!v || !parse_type(v, &o->d.dtype)) return cli_usage("%s: --type takes int8..int64, uint8..uint64, float32 or float64", verb);
    } else if (cli_opt(argc, argv, i, "--op", &v)) {
        if (!v || !parse_op(v, &o->d.op)) return cli_usage("%s: --op takes max min sum prod land lor lxor band bor bxor copy", verb);
    } else if (cli_opt(argc, argv, i, "--nway", &v)) {
        if (!cli_int(v, 1, 1 << 30, &x)) return cli_usage("%s: --nway takes a number from 1 to %d", verb, 1 << 30);
        o->d.nway = (int)x;
    } else if (cli_opt(argc, argv, i, "--segment", &v)) {
        if (!cli_int(v, 1, 1LL << 50, &x)) return cli_usage("%s: --segment takes bytes from 1 to 2^50", verb);
        o->d.segment = (uint64_t)x;
    } else if (cli_opt(argc, argv, i, "--counts", &v)) {
        if (!v) return cli_usage("%s: --counts takes element counts: 3,0,5", verb);
        o->counts = v;
    } else if (cli_opt(argc, argv, i, "--counts-seed", &v)) {
        if (!cli_int(v, 0, 1LL << 62, &o->counts_seed)) return cli_usage("%s: --counts-seed takes a number", verb);
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
    if (v && (n = parse_list(v, &list)) == -2) return cli_usage("%s: a LIST holds at most %d ranks", verb, LIST_MAX);
    if (!v || n < 0) return cli_usage("%s: a LIST is ranks and ranges: 0-7,9", verb);
    *slot = list;
    *count = n;
    return 0;
}

void cli_gen_free(cli_gen_opts *o) {
    free((void *)o->d.participants);
    free((void *)o->d.receivers);
    free((void *)o->d.counts);
}

int cli_gen_parse(int argc, char **argv, cli_gen_opts *o, int run) {
    const char *verb = run ? "run" : "gen", *v;
    size_t es;
    int i, rc;
    memset(o, 0, sizeof o[0]);
    o->d.count = 8;
    o->d.dtype = GOAL_INT32;
    o->d.op = GOAL_OP_SUM;
    o->dialect = GOAL_DIALECT_LOGGOPSIM;
    o->seed = 1;
    o->counts_seed = -1;
    for (i = 1; i < argc; i++) {
        if ((rc = gen_option(argc, argv, &i, o, verb)) > 0) return rc;
        if (rc == 0) continue;
        if (run && strcmp(argv[i], "--check") == 0) o->check = 1;
        else if (run && strcmp(argv[i], "--threads") == 0) o->threads = 1;
        else if (run && cli_opt(argc, argv, &i, "--seed", &v)) {
            if (!cli_int(v, 0, 1LL << 62, &o->seed)) return cli_usage("run: --seed takes a number");
        } else if (!run && cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) return cli_usage("gen: -o needs a file name");
            o->out = v;
        }
        else if (argv[i][0] == '-') return cli_unknown_option(verb, argv[i]);
        else if (o->d.algo) return cli_usage("%s: one algorithm only ('%s' and '%s')", verb, o->d.algo, argv[i]);
        else o->d.algo = argv[i];
    }
    if (!o->d.algo) return cli_usage("%s: ALGO missing (goal gen --list)", verb);
    if (!cli_algo_name(o->d.algo)) return cli_unknown_algo(verb, o->d.algo);
    o->d.algo = cli_algo_name(o->d.algo);   /* Schedgen's names too */
    if ((o->d.participants || o->d.receivers) && !(goal_algo_find(o->d.algo)->flags & GOAL_ALGO_SETS))
        return cli_usage("%s: %s takes no participant or receiver set (--participants, --receivers)", verb, o->d.algo);
    if (!o->p) return cli_usage("%s: -p N missing", verb);
    es = goal_dtype_size(o->d.dtype);
    if (o->d.count % es) return cli_usage("%s: --size %llu is not a whole number of %s elements", verb,
                                          (unsigned long long)o->d.count, goal_dtype_name(o->d.dtype));
    o->d.count /= es;
    return gen_counts(o, verb);
}

/* Sizes checked before anything is built: segments make actions (a world holds fewer than
   2^31, each costing about GEN_ACTION_BYTES while built), and `run` holds every rank's
   buffers three times over (input, output, the reference copies). 0, or 1 after a message. */
#define GEN_ACTION_BYTES 64u
static uint64_t gen_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }
int cli_gen_fits(const cli_gen_opts *o, int run) {
    uint64_t bytes = o->d.count * goal_dtype_size(o->d.dtype), seg = o->d.segment ? o->d.segment : 1024u, nseg = 1, bin, bout, need;
    if (goal_algo_find(o->d.algo)->flags & GOAL_ALGO_SEGMENTED) nseg = bytes / seg + 1u;   /* goal_algos.h's default 1024 */
    if (nseg > 0x7FFFFFFFull / (uint64_t)o->p)
        return cli_fail("%s: --size %llu in --segment %llu pieces on %lld ranks makes %llu segments per rank: more than a world "
                        "holds (fewer than 2^31 actions)", run ? "run" : "gen", (unsigned long long)bytes, (unsigned long long)seg,
                        o->p, (unsigned long long)nseg);
    need = nseg * (uint64_t)o->p * GEN_ACTION_BYTES;
    if (run) {
        goal_coll_blocks(goal_algo_coll(o->d.algo), (int)o->p, &bin, &bout);
        need = gen_mul(gen_mul(gen_mul(3u * (bin + bout), bytes), (uint64_t)o->p), 1u) + need;
    }
    return cli_fits(run ? "run" : "gen", need);
}

/* Paper-dialect text starts with "num_ranks N;" (the writer leaves it out where the ranks
   named imply it), so that a file cut after a rank block keeps its size and its missing
   ranks show up as unmatched messages. */
typedef struct gen_paper { void *f; long long p; int started; } gen_paper;
static int gen_write_paper(void *user, const char *data, size_t len) {
    gen_paper *g = (gen_paper *)user;
    if (!g->started++ && (len < 9 || memcmp(data, "num_ranks", 9) != 0) && fprintf((FILE *)g->f, "num_ranks %lld;\n", g->p) < 0)
        return -1;
    return cli_write_file(g->f, data, len);
}

int cli_gen(int argc, char **argv) {
    cli_gen_opts o;
    goal_world *w = NULL;
    goal_error err;
    gen_paper paper;
    void *f;
    int rc, i;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        const goal_algo_info *a;
        for (i = 0; (a = goal_algo_list(i)) != NULL; i++) printf("%-24s %s\n", a->name, a->description);
        return cli_close_out(stdout);
    }
    if ((rc = cli_gen_parse(argc, argv, &o, 0)) != 0 || (rc = cli_gen_fits(&o, 0)) != 0) { cli_gen_free(&o); return rc; }
    if (goal_algo_world(&w, &o.d, (int)o.p, &err) != GOAL_OK) { cli_gen_free(&o); return cli_fail("gen: %s", err.msg); }
    rc = (f = cli_open_out(o.out)) ? CLI_OK : CLI_BAD_INPUT;
    paper.f = f; paper.p = o.p; paper.started = 0;
    if (f && goal_world_write(w, o.dialect, o.dialect == GOAL_DIALECT_PAPER ? gen_write_paper : cli_write_file,
                              o.dialect == GOAL_DIALECT_PAPER ? (void *)&paper : f) != GOAL_OK)
        rc = cli_fail("gen: write error");
    if (f && cli_finish_out(f, rc == CLI_OK) != CLI_OK) rc = CLI_BAD_INPUT;
    goal_world_destroy(w);
    cli_gen_free(&o);
    return rc;
}
