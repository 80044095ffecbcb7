/* goal - the command-line tool of libgoal. See README.md for every verb. */
#define _XOPEN_SOURCE 700   /* sysconf (_SC_PHYS_PAGES) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli.h"

/* ---- the usage text: every verb, printed by cli_help.c ---------------------------------------
   To add a verb: a row in cli_verbs, its options in a cli_option table in its file (cli.h);
   then paste the row `goal help --markdown` prints into the README's verb table (a test compares). */
/* One row per form of a verb; dispatch takes the first row of a name. */
const cli_verb cli_verbs[] = {
    {"fmt", cli_fmt, "FILE [--dialect paper|loggopsim]", "parse, check, print canonically (or convert)", cli_fmt_options, NULL},
    {"asm", cli_asm, "FILE -o OUT", "compile every rank into a world file", cli_asm_options, NULL},
    {"dis", cli_dis, "FILE", "print a world file as text", NULL, NULL},
    {"stats", cli_stats, "FILE", "rank R actions A edges E bytes B copy C per rank (B: schedule size; C: bytes moved by local exec copy actions), then total ...", NULL, NULL},
    {"demo", cli_demo, "[-o DIR]", "what make run shows: generate, verify, simulate, run and draw two algorithms", cli_demo_options, NULL},
    {"run", cli_run, "FILE [--threads] [--trace]", "execute every rank in this process", cli_run_options, NULL},
    {"run", cli_run, "ALGO -p N [gen options] [--threads] [--seed S] --check",
     "run an algorithm on random data, compare every rank with a reference", cli_run_algo_options, cli_algo_options},
    {"check", cli_check, "FILE", "match sends and receives across ranks (cDAG Algorithm 1, MPI rules), find deadlocks", NULL, NULL},
    {"record", cli_record, "PREFIX", "assemble a recording's parts (PREFIX.<rank>.part, GOAL_MPI_RECORD) into PREFIX.goal and check it", NULL, NULL},
    {"sim", cli_sim, "FILE [-L ns] [-o ns] [-g ns] [-G ns/B] [-O ns/B] [-C ns/B] [-K ns/B] [-S B] [-R ns] [-T B[,B..] -H ns/B[,ns/B..]] [--shared-memory] [--node-size N [--intra-L ns] [--intra-o ns] [--intra-g ns] [--intra-G ns/B] [--intra-O ns/B]] [--params FILE] [--loggopsim-compat] [--verbose] [--critical] [--coll COLL=ALGO]...",
     "LogGOPS simulation, as LogGOPSim: rank R T per rank, then max T", cli_sim_options, cli_model_options},
    {"dot", cli_dot, "FILE [--rank R] [--fold] [-o OUT]",
     "Graphviz DOT: one rank's DAG, or all ranks (in rank order, with a legend) and messages", cli_dot_options, NULL},
    {"trace", cli_trace, "FILE [model options] [--overhead ns] [-o OUT]",
     "the simulated timeline as Chrome trace-event JSON (Perfetto, chrome://tracing)", cli_trace_options, cli_model_options},
    {"svg", cli_svg, "FILE [model options] [--overhead ns] [-o OUT]", "the simulated timeline as an SVG picture, no Graphviz needed",
     cli_trace_options, cli_model_options},
    {"html", cli_html, "FILE [model options] [--overhead ns] [--from T0] [--to T1] [-o OUT.html]",
     "the simulated run as one interactive page (timeline, critical path, DAGs; opens from disk)", cli_html_options, cli_model_options},
    {"gen", cli_gen, "ALGO -p N [--root R] [--size BYTES] [--type T] [--op OP] [--nway K] [--segment BYTES] [--radix K] "
                     "[--participants LIST --receivers LIST] [--counts LIST | --counts-seed S] [--dialect loggopsim|paper] [-o OUT]",
     "print the schedules of all N ranks of an algorithm as textual GOAL", cli_gen_options, cli_algo_options},
    {"gen", cli_gen, "--list", "the algorithms, one per line with a description", NULL, NULL},
    {"analyze", cli_analyze, "FILE --waits|--dataflow|--collectives|--replace [-o OUT] [--bcast|--barrier|--gather|--scatter|--allgather|--alltoall ALGO]",
     "cDAG analysis: wait sets, dataflow, the collectives found, or replaced", cli_analyze_options, NULL},
    {"tune", cli_tune, "-p N [model options | --params FILE] [--sizes LIST] [--coll LIST] [--all] [--format table|env] [--svg OUT]",
     "every algorithm of each collective simulated at p and each size: COLL SIZE ALGO TIME for the fastest", cli_tune_options, cli_model_options},
    {"tune", cli_tune, "FILE [model options | --params FILE] [--coll LIST] [--all] [--format table|env]",
     "a recording: per collective it calls, the whole program simulated with each algorithm: COLL CALLS ALGO TIME for the fastest", cli_tune_rec_options, cli_model_options},
    {"help", cli_help, "[VERB|--markdown|--man]", "the verbs, or one verb's usage with every option and its default", cli_help_options, NULL},
};
const size_t cli_nverbs = sizeof cli_verbs / sizeof cli_verbs[0];
static const char *cli_verb_running;   /* for the hint after a usage error */

int cli_usage(const char *fmt, ...) {
    va_list ap;
    fputs("goal: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cli_verb_running) fprintf(stderr, " (goal %s --help lists its options)\n", cli_verb_running);
    else fputs(" (goal --help lists the verbs)\n", stderr);
    return CLI_USAGE;
}
int cli_fail(const char *fmt, ...) {
    va_list ap;
    fputs("goal: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_BAD_INPUT;
}

/* The memory a verb may plan to use (--max-memory, before the verb or after it). The
   default is half the physical memory, and at most the address-space limit (ulimit -v). */
static uint64_t cli_max_mem;
static uint64_t cli_default_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    uint64_t m = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2u : (uint64_t)1 << 32;
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && (uint64_t)as.rlim_cur < m) m = (uint64_t)as.rlim_cur;
    return m;
}
const char *cli_s(unsigned long long n) { return n == 1 ? "" : "s"; }
uint64_t cli_memory_limit(void) { return cli_max_mem ? cli_max_mem : (cli_max_mem = cli_default_memory()); }
/* "12 MB", or "5000 bytes" below a megabyte, into buf (32 bytes). */
static const char *cli_size(uint64_t n, char *buf) {
    if (n < (1u << 20)) sprintf(buf, "%llu bytes", (unsigned long long)n);
    else sprintf(buf, "%llu MB", (unsigned long long)(n >> 20));
    return buf;
}
int cli_fits(const char *what, uint64_t bytes) {
    uint64_t lim = cli_memory_limit();
    char a[32], b[32];
    if (bytes <= lim) return CLI_OK;
    return cli_fail("%s: needs about %s, more than the memory limit of %s (--max-memory BYTES)", what, cli_size(bytes, a), cli_size(lim, b));
}
/* Takes --max-memory BYTES out of argv (anywhere); 0, or 2 after a usage message. */
static int cli_memory_opt(int *argc, char **argv) {
    int i, j;
    const char *v;
    long long x;
    for (i = 1; i < *argc; i++) {
        int at = i;
        if (!cli_opt(*argc, argv, &i, "--max-memory", &v)) continue;
        if (!cli_int(v, 1, INT64_MAX, &x)) return cli_usage("--max-memory takes bytes >= 1");
        cli_max_mem = (uint64_t)x;
        for (j = i + 1; j <= *argc; j++) argv[at + j - i - 1] = argv[j];
        *argc -= i - at + 1;
        i = at - 1;
    }
    return CLI_OK;
}

/* Reads path ("-": standard input) into a new buffer: *len bytes, at most max; *more is set
   when the file holds more (not read). 0, or 1 after a message. */
static int cli_read_upto(const char *path, uint64_t max, char **data, size_t *len, int *more) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = max < (1u << 16) ? (size_t)max + 1 : 1u << 16, n = 0, k;
    char *buf;
    int err;
    if (!f) return cli_fail("%s: cannot open: %s", path, strerror(errno));
    *more = 0;
    buf = (char *)malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        char *nb;
        size_t grown = cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;   /* room for one byte past max */
        if ((n += k) < cap) continue;
        if (n > max) { *more = 1; n = (size_t)max; break; }
        if (!(nb = (char *)realloc(buf, grown))) { free(buf); buf = NULL; break; }
        buf = nb;
        cap = grown;
    }
    err = errno;
    if (!buf || ferror(f)) {
        if (f != stdin) fclose(f);
        free(buf);
        return !buf ? cli_fail("%s: out of memory after reading %llu bytes", path, (unsigned long long)n)
                    : cli_fail("%s: cannot read: %s", path, strerror(err));
    }
    if (f != stdin) fclose(f);
    *data = buf;
    *len = n;
    return CLI_OK;
}
int cli_read(const char *path, char **data, size_t *len) {
    uint64_t lim = cli_memory_limit();
    char sz[32];
    int more;
    if (cli_read_upto(path, lim, data, len, &more)) return CLI_BAD_INPUT;
    if (!more) return CLI_OK;
    free(*data);
    return cli_fail("%s: larger than the memory limit of %s (--max-memory BYTES)", path, cli_size(lim, sz));
}
int cli_read_params(const char *path, char **text, size_t *len) {
    int more;
    return cli_read_upto(path, GOAL_SIM_PARAMS_MAX, text, len, &more);
}

int cli_load_world(const char *path, goal_world **w) {
    char *data;
    size_t len;
    goal_error err;
    goal_status st;
    if (cli_read(path, &data, &len)) return CLI_BAD_INPUT;
    if (len >= 8 && memcmp(data, "GOALWRLD", 8) == 0) {
        st = goal_world_load(w, data, len, NULL, &err);
        if (st != GOAL_OK) fprintf(stderr, "goal: %s: %s\n", path, err.msg);
    } else {
        goal_parse_desc d;
        memset(&d, 0, sizeof d);
        d.filename = strcmp(path, "-") == 0 ? "<stdin>" : path;
        st = goal_parse(data, len, &d, w, &err);
        if (st != GOAL_OK) fprintf(stderr, "goal: %s\n", err.msg);
    }
    free(data);
    return st == GOAL_OK ? CLI_OK : CLI_BAD_INPUT;
}

int cli_world_fits(const char *path, const goal_world *w) {
    uint64_t p = (uint64_t)goal_world_nranks(w), n = 0, lim = cli_memory_limit();
    char what[300];
    int32_t r;
    for (r = 0; p * CLI_WORLD_BYTES <= lim && r < (int32_t)p; r++) {
        goal_schedule s;
        if (goal_world_schedule(w, r, &s) == GOAL_OK) n += s.nactions;
    }
    snprintf(what, sizeof what, "%s: %llu rank%s%s", path, (unsigned long long)p, cli_s(p), r < (int32_t)p ? "" : " and their actions");
    return cli_fits(what, (p + n) * CLI_WORLD_BYTES);
}

/* Is one of the verb's arguments --help or -h? */
static int wants_help(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    size_t k;
    const char *names[sizeof cli_verbs / sizeof cli_verbs[0]], *near;
    cli_model_init();
    cli_tune_init();
    if (cli_memory_opt(&argc, argv)) return CLI_USAGE;
    if (argc < 2) return cli_help_all(stderr);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return cli_help_all(stdout);
    if (strcmp(argv[1], "--version") == 0) { printf("goal %s\n", goal_version()); return CLI_OK; }
    for (k = 0; k < cli_nverbs; k++) {
        names[k] = cli_verbs[k].name;
        if (strcmp(argv[1], cli_verbs[k].name) != 0) continue;
        if (wants_help(argc - 1, argv + 1)) return cli_help_verb(argv[1]);
        cli_verb_running = argv[1];
        return cli_progress_run(cli_verbs[k].fn, argc - 1, argv + 1);
    }
    if ((near = cli_suggest(argv[1], names, (int)cli_nverbs)) != NULL)
        return cli_usage("unknown verb '%s' (did you mean '%s'?)", argv[1], near);
    return cli_usage("unknown verb '%s'", argv[1]);
}
