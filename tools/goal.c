/* goal - the command-line tool of libgoal. See README.md for every verb. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct { const char *name; cli_verb_fn fn; const char *help; } verbs[] = {
    {"demo", cli_demo, "demo [-o DIR]                          the story in one run: generate, verify, simulate, run, draw"},
    {"fmt", cli_fmt, "fmt FILE [--dialect paper|loggopsim]   parse, check and print a world"},
    {"asm", cli_asm, "asm FILE -o OUT                        compile every rank into a world file"},
    {"dis", cli_dis, "dis FILE                               print a world file as text"},
    {"stats", cli_stats, "stats FILE                             actions, edges and bytes per rank"},
    {"run", cli_run, "run FILE [--threads] [--trace]          execute every rank in this process\n"
                     "      run ALGO -p N [gen options] [--threads] --check   run an algorithm on random data, checked"},
    {"analyze", cli_analyze, "analyze FILE --waits|--dataflow|--collectives|--replace -o OUT [--bcast|--barrier|--gather|--scatter|--allgather|--alltoall A]"},
    {"check", cli_check, "check FILE                             match sends and receives, find deadlocks"},
    {"sim", cli_sim, "sim FILE [-L -o -g -G -O -S N] [--loggopsim-compat]   LogGOPS finish time per rank"},
    {"dot", cli_dot, "dot FILE [--rank R] [-o OUT]           Graphviz DOT: one rank's DAG, or all ranks and messages"},
    {"trace", cli_trace, "trace FILE [sim options, --overhead N for -o] [-o OUT]  simulated timeline as Chrome trace-event JSON"},
    {"svg", cli_svg, "svg FILE [sim options, --overhead N for -o] [-o OUT]    simulated timeline as an SVG picture"},
    {"gen", cli_gen, "gen ALGO -p N [--root R] [--size BYTES] [--type T] [--op OP] [--nway K] [--segment BYTES] [--radix K]\n"
                     "      [--participants LIST --receivers LIST] [--dialect loggopsim|paper] [-o OUT]\n"
                     "                                         print an algorithm's schedules (gen --list: the algorithms)"},
};
#define NVERBS (sizeof verbs / sizeof verbs[0])

static int usage(FILE *f) {
    size_t k;
    fprintf(f, "usage: goal VERB [ARGS]   (FILE may be '-' for standard input)\n");
    for (k = 0; k < NVERBS; k++) fprintf(f, "  goal %s\n", verbs[k].help);
    fprintf(f, "exit status: 0 success, 1 bad input, 2 bad usage, 3 deadlock\n");
    return f == stdout ? CLI_OK : CLI_USAGE;
}

int cli_usage(const char *fmt, ...) {
    va_list ap;
    fputs("goal: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (goal --help lists the verbs)\n", stderr);
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

int cli_read(const char *path, char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0, k;
    char *buf;
    if (!f) return cli_fail("%s: cannot open", path);
    buf = (char *)malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = (char *)realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf || ferror(f)) {
        if (f != stdin) fclose(f);
        free(buf);
        return cli_fail("%s: cannot read", path);
    }
    if (f != stdin) fclose(f);
    *data = buf;
    *len = n;
    return CLI_OK;
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
        if (st != GOAL_OK) fprintf(stderr, "%s\n", err.msg);
    }
    free(data);
    return st == GOAL_OK ? CLI_OK : CLI_BAD_INPUT;
}

void *cli_open_out(const char *path) {
    FILE *f;
    if (!path || strcmp(path, "-") == 0) return stdout;
    if (!(f = fopen(path, "wb"))) cli_fail("%s: cannot open for writing", path);
    return f;
}
int cli_close_out(void *f) {
    int bad = ferror((FILE *)f);
    if (f == stdout) bad |= fflush(stdout) != 0;
    else bad |= fclose((FILE *)f) != 0;
    return bad ? cli_fail("write error") : CLI_OK;
}
int cli_write_file(void *user, const char *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : -1;
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
    if (argv[*i][n] != 0) return 0;
    if (*i + 1 >= argc) { *val = NULL; return 1; }
    *val = argv[++*i];
    return 1;
}
int cli_int(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    long long v;
    if (!s || !*s) return 0;
    v = strtoll(s, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

int main(int argc, char **argv) {
    size_t k;
    if (argc < 2) return usage(stderr);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) return usage(stdout);
    if (strcmp(argv[1], "--version") == 0) { printf("goal %s\n", goal_version()); return CLI_OK; }
    for (k = 0; k < NVERBS; k++)
        if (strcmp(argv[1], verbs[k].name) == 0) return verbs[k].fn(argc - 1, argv + 1);
    return cli_usage("unknown verb '%s'", argv[1]);
}
