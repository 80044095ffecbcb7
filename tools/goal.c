/* goal - the command-line tool of libgoal. See README.md for every verb. */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fchmod, unlink: output goes through a temporary file */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
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
    {"gen", cli_gen, "gen ALGO -p N [--root R] [--size BYTES] [--type T] [--op OP] [--nway K] [--segment BYTES]\n"
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

int cli_read(const char *path, char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0, k;
    uint64_t lim = cli_memory_limit();
    char *buf, sz[32];
    int nomem = 0, err;
    if (!f) return cli_fail("%s: cannot open: %s", path, strerror(errno));
    buf = (char *)malloc(cap);
    nomem = !buf;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = cap * 2 > lim ? NULL : (char *)realloc(buf, cap * 2);
            if (!nb) { nomem = 1; break; }
            buf = nb;
            cap *= 2;
        }
    }
    err = errno;
    if (nomem || ferror(f)) {
        if (f != stdin) fclose(f);
        free(buf);
        if (nomem && cap * 2 > lim)
            return cli_fail("%s: larger than the memory limit of %s (--max-memory BYTES)", path, cli_size(lim, sz));
        return nomem ? cli_fail("%s: out of memory after reading %llu bytes", path, (unsigned long long)n)
                     : cli_fail("%s: cannot read: %s", path, strerror(err));
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

/* Files named with -o are written to OUT.tmp.XXXXXX in the same directory and renamed to
   OUT when complete, so a failed write or an interrupt never leaves a truncated OUT. The few
   files open at once are listed here, for cli_finish_out and for the signal handler. */
enum { CLI_MAX_OUT = 8 };
static struct { FILE *f; char *tmp; const char *final; } cli_outs[CLI_MAX_OUT];
static void cli_on_signal(int sig) {
    int k;
    for (k = 0; k < CLI_MAX_OUT; k++)
        if (cli_outs[k].f) unlink(cli_outs[k].tmp);
    signal(sig, SIG_DFL);
    raise(sig);
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

static void cli_catch(int sig) {   /* a signal ignored when we started stays ignored */
    if (signal(sig, cli_on_signal) == SIG_IGN) signal(sig, SIG_IGN);
}
void *cli_open_out(const char *path) {
    int k, fd;
    mode_t mask;
    if (!path || strcmp(path, "-") == 0) return stdout;
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f; k++) {}
    if (k == CLI_MAX_OUT || !(cli_outs[k].tmp = (char *)malloc(strlen(path) + 12))) { cli_fail("%s: out of memory", path); return NULL; }
    sprintf(cli_outs[k].tmp, "%s.tmp.XXXXXX", path);
    cli_catch(SIGINT);
    cli_catch(SIGTERM);
    signal(SIGXFSZ, SIG_IGN);   /* a file size limit is a write error (EFBIG), not death */
    if ((fd = mkstemp(cli_outs[k].tmp)) < 0 || !(cli_outs[k].f = fdopen(fd, "wb"))) {
        cli_fail("%s: cannot open for writing: %s", path, strerror(errno));
        if (fd >= 0) { close(fd); unlink(cli_outs[k].tmp); }
        free(cli_outs[k].tmp);
        return NULL;
    }
    mask = umask(0);   /* the permissions a plain fopen would give */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    cli_outs[k].final = path;
    return cli_outs[k].f;
}
int cli_finish_out(void *f, int keep) {
    int bad = ferror((FILE *)f), k;
    if (f == stdout) return bad | (fflush(stdout) != 0) ? cli_fail("write error") : CLI_OK;
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f != f; k++) {}
    if (k == CLI_MAX_OUT) return cli_fail("write error");
    bad |= fclose((FILE *)f) != 0;
    if (bad || !keep) unlink(cli_outs[k].tmp);
    else if (rename(cli_outs[k].tmp, cli_outs[k].final) != 0) {
        bad = 1;
        cli_fail("%s: cannot rename %s to it: %s", cli_outs[k].final, cli_outs[k].tmp, strerror(errno));
        unlink(cli_outs[k].tmp);
    }
    free(cli_outs[k].tmp);
    cli_outs[k].f = NULL;
    return bad ? cli_fail("%s: write error", cli_outs[k].final) : CLI_OK;
}
int cli_close_out(void *f) { return cli_finish_out(f, 1); }
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
    if (cli_memory_opt(&argc, argv)) return CLI_USAGE;
    if (argc < 2) return usage(stderr);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) return usage(stdout);
    if (strcmp(argv[1], "--version") == 0) { printf("goal %s\n", goal_version()); return CLI_OK; }
    for (k = 0; k < NVERBS; k++)
        if (strcmp(argv[1], verbs[k].name) == 0) return verbs[k].fn(argc - 1, argv + 1);
    return cli_usage("unknown verb '%s'", argv[1]);
}
