/* goal gen: print the schedules of a collective algorithm (goal_algos.h) for all ranks.
   Here too: the gen options, which goal run ALGO (cli_run.c) takes as well. */
#include <stddef.h>
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

static int gen_set_type(const char *verb, const cli_option *o, const char *v, void *field) {
    (void)verb; (void)o;
    return v && parse_type(v, (goal_dtype *)field) ? CLI_OK : -1;
}
static int gen_set_op(const char *verb, const cli_option *o, const char *v, void *field) {
    (void)verb; (void)o;
    return v && parse_op(v, (goal_op *)field) ? CLI_OK : -1;
}
/* --participants LIST, --receivers LIST: once each. */
static int gen_set_ranks(const char *verb, const cli_option *o, const char *v, void *field) {
    cli_ranks *r = (cli_ranks *)field;
    int n = 0;
    if (r->v) return cli_usage("%s: %s given twice", verb, o->name);
    if (v && (n = parse_list(v, &r->v)) == -2) return cli_usage("%s: %s %s: a LIST holds at most %d ranks", verb, o->name, v, LIST_MAX);
    if (!v || n < 0) return cli_usage("%s: %s %s%sa LIST is ranks and ranges: 0-7,9", verb, o->name, v ? v : "", v ? ": " : "");
    r->n = n;
    return CLI_OK;
}
#define GEN_AT(field) cli_set_int, offsetof(cli_gen_opts, field)
const cli_option cli_algo_options[] = {   /* gen and run ALGO */
    {"-p", "N", NULL, "number of ranks (required)", GEN_AT(p), 1, 1 << 30, "takes a number of ranks from 1 to 1073741824"},
    {"--root", "R", "0", "root rank", GEN_AT(root), 0, 1 << 30, "takes a rank from 0 to 1073741824"},
    {"--size", "BYTES", "8", "bytes per block (a whole number of elements)", GEN_AT(size), 0, 1LL << 50, "takes bytes from 0 to 2^50"},
    {"--type", "T", "int32", "int8..int64, uint8..uint64, float32, float64", gen_set_type, offsetof(cli_gen_opts, d.dtype), 0, 0,
     "takes int8..int64, uint8..uint64, float32 or float64"},
    {"--op", "OP", "sum", "max min sum prod land lor lxor band bor bxor copy", gen_set_op, offsetof(cli_gen_opts, d.op), 0, 0,
     "takes max min sum prod land lor lxor band bor bxor copy"},
    {"--nway", "K", "1", "dissemination fan-out", GEN_AT(nway), 1, 1 << 30, "takes a number from 1 to 1073741824"},
    {"--segment", "BYTES", "1024", "pipeline segment of the chains and pipelined trees", GEN_AT(segment), 1, 1LL << 50,
     "takes bytes from 1 to 2^50"},
    {"--radix", "K", "4", "k-nomial trees: the radix (2 is the binomial tree)", GEN_AT(radix), 2, 1 << 30, "takes a number >= 2"},
    {"--participants", "LIST", "all ranks", "reduce_aspen: the ranks contributing, e.g. 0-7,9", gen_set_ranks,
     offsetof(cli_gen_opts, participants), 0, 0, NULL},
    {"--receivers", "LIST", "the root", "reduce_aspen: the ranks receiving the result", gen_set_ranks, offsetof(cli_gen_opts, receivers),
     0, 0, NULL},
    {"--counts", "LIST", "--size bytes each", "vector collectives: p element counts (alltoallv: p x p, row by row)", cli_set_text,
     offsetof(cli_gen_opts, counts), 0, 0, "takes element counts: 3,0,5"},
    {"--counts-seed", "S", NULL, "vector collectives: counts 0..7 drawn from seed S", GEN_AT(counts_seed), 0, 1LL << 62, "takes a number"},
    CLI_END};
const cli_option cli_gen_options[] = {
    {"--dialect", "D", "loggopsim", "loggopsim, or paper (keeps buffers and exec actions)", cli_set_dialect, offsetof(cli_gen_opts, dialect),
     0, 0, "takes paper or loggopsim"},
    CLI_OUT_ROW("output file", cli_gen_opts, out),
    CLI_END};

void cli_gen_free(cli_gen_opts *o) {
    free(o->participants.v);
    free(o->receivers.v);
    free((void *)o->d.counts);
}

/* The options into o->d, once parsed; 0 or a usage error. */
static int gen_desc(cli_gen_opts *o, const char *verb) {
    size_t es = goal_dtype_size(o->d.dtype);
    o->d.root = (int)o->root;
    o->d.nway = (int)o->nway;
    o->d.segment = (uint64_t)o->segment;
    o->d.radix = (int)o->radix;
    o->d.participants = o->participants.v;
    o->d.nparticipants = o->participants.n;
    o->d.receivers = o->receivers.v;
    o->d.nreceivers = o->receivers.n;
    if ((o->participants.v || o->receivers.v) && !(goal_algo_find(o->d.algo)->flags & GOAL_ALGO_SETS))
        return cli_usage("%s: %s takes no participant or receiver set (--participants, --receivers)", verb, o->d.algo);
    if (!o->p) return cli_usage("%s: -p N missing", verb);
    if ((uint64_t)o->size % es) return cli_usage("%s: --size %llu is not a whole number of %s elements", verb,
                                                 (unsigned long long)o->size, goal_dtype_name(o->d.dtype));
    o->d.count = (uint64_t)o->size / es;
    return gen_counts(o, verb);
}

int cli_gen_parse(int argc, char **argv, cli_gen_opts *o, int run) {
    const char *verb = run ? "run" : "gen";
    cli_form f = {run ? cli_run_algo_options : cli_gen_options, o, cli_algo_options, o, "ALGO", 0, NULL};
    int rc;
    memset(o, 0, sizeof o[0]);
    o->size = 8;
    o->d.dtype = GOAL_INT32;
    o->d.op = GOAL_OP_SUM;
    o->dialect = GOAL_DIALECT_LOGGOPSIM;
    o->seed = 1;
    o->counts_seed = -1;
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    if (!(o->d.algo = f.value)) return cli_usage("%s: ALGO missing (goal gen --list)", verb);
    if (!cli_algo_name(o->d.algo)) return cli_unknown_algo(verb, o->d.algo);
    o->d.algo = cli_algo_name(o->d.algo);   /* Schedgen's names too */
    return gen_desc(o, verb);
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
