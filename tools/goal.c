/* goal - the command-line tool of libgoal. See README.md for every verb. */
#define _XOPEN_SOURCE 700   /* mkstemp, fchmod, lstat, realpath: output goes through a temporary file */
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

/* ---- the usage text: every verb and option, printed by cli_help.c -------------------------
   To add a verb: a row in cli_verbs, its options in a cli_option table ending in {NULL}; then
   paste the row `goal help --markdown` prints into the README's verb table (a test compares). */
#define CLI_END {NULL, NULL, NULL, NULL}
static const cli_option model_opts[] = {   /* sim, trace, svg: LogGOPSim's letters and defaults */
    {"-L", "ns", "2500", "latency"},
    {"-g", "ns", "1000", "gap between messages (NIC)"},
    {"-G", "ns/B", "6", "gap per byte"},
    {"-O", "ns/B", "0", "CPU overhead per byte"},
    {"-C", "ns/B", "1", "CPU time per byte of a local exec (copy or reduction; calc is not scaled)"},
    {"-S", "B", "65535", "eager limit: larger messages use rendezvous"},
    {"-R", "ns", "0", "rendezvous handshake: a message over -S bytes arrives this much later (LogGOPSim: none)"},
    {"-T", "B", "0", "with -H: a message's bytes beyond the first T cost -H per byte instead of -G (0: one -G, LogGOPSim's)"},
    {"-H", "ns/B", "0", "with -T: gap per byte beyond T bytes, on both NICs and in the receive (0: free; unset: off)"},
    {"--overhead", "ns", "1500", "CPU overhead per message (LogGOPSim's -o)"},
    {"--node-size", "K", NULL, "two-level model: nodes of K consecutive ranks; -L -o -g -G -O are then between nodes"},
    {"--intra-L", "ns", "-L", "two-level: latency inside a node"},
    {"--intra-o", "ns", "--overhead", "two-level: CPU overhead per message inside a node"},
    {"--intra-g", "ns", "-g", "two-level: gap between messages inside a node"},
    {"--intra-G", "ns/B", "-G", "two-level: gap per byte inside a node"},
    {"--intra-O", "ns/B", "-O", "two-level: CPU overhead per byte inside a node"},
    {"--params", "FILE", NULL, "one line of these options (what goal probe prints); later options override it"},
    {"--loggopsim-compat", NULL, NULL, "charge 0-byte messages -G, as LogGOPSim's wrap-around does"},
    CLI_END};
static const cli_option algo_opts[] = {    /* gen and run ALGO */
    {"-p", "N", NULL, "number of ranks (required)"},
    {"--root", "R", "0", "root rank"},
    {"--size", "BYTES", "8", "bytes per block (a whole number of elements)"},
    {"--type", "T", "int32", "int8..int64, uint8..uint64, float32, float64"},
    {"--op", "OP", "sum", "max min sum prod land lor lxor band bor bxor copy"},
    {"--nway", "K", "1", "dissemination fan-out"},
    {"--segment", "BYTES", "1024", "pipeline segment of the chains and pipelined trees"},
    {"--radix", "K", "4", "k-nomial trees: the radix (2 is the binomial tree)"},
    {"--participants", "LIST", "all ranks", "reduce_aspen: the ranks contributing, e.g. 0-7,9"},
    {"--receivers", "LIST", "the root", "reduce_aspen: the ranks receiving the result"},
    {"--counts", "LIST", "--size bytes each", "vector collectives: p element counts (alltoallv: p x p, row by row)"},
    {"--counts-seed", "S", NULL, "vector collectives: counts 0..7 drawn from seed S"},
    CLI_END};
static const cli_option out_opt[] = {{"-o", "OUT", "standard output", "output file"}, CLI_END};
static const cli_option fmt_opts[] = {{"--dialect", "D", "the input's", "paper or loggopsim: the dialect to print"}, CLI_END};
static const cli_option asm_opts[] = {{"-o", "OUT", NULL, "the world file to write (required)"}, CLI_END};
static const cli_option demo_opts[] = {{"-o", "DIR", "build/demo", "where the pictures go"}, CLI_END};
static const cli_option run_opts[] = {
    {"--threads", NULL, NULL, "one thread per rank (default: the ranks in turn, in one thread)"},
    {"--trace", NULL, NULL, "print every step: step N rank R start|done LABEL description"},
    CLI_END};
static const cli_option run_algo_opts[] = {
    {"--check", NULL, NULL, "compare every rank's result with a reference (required)"},
    {"--threads", NULL, NULL, "one thread per rank"},
    {"--seed", "S", "1", "seed of the random input"},
    CLI_END};
static const cli_option sim_opts[] = {
    {"-o", "ns", "1500", "CPU overhead per message (same as --overhead)"},
    {"--verbose", NULL, NULL, "print the parameters used on standard error"},
    {"--critical", NULL, NULL, "then the critical path, one event a line (critical rank R ... / critical message S -> R round K ...)"},
    {"--coll", "COLL=ALGO", NULL, "a recording: its calls of COLL re-generated with ALGO (allreduce=ring, allreduce=dissemination@nway=3); repeatable"},
    CLI_END};
static const cli_option dot_opts[] = {
    {"--rank", "R", "all ranks", "draw one rank's DAG"},
    {"--fold", NULL, NULL, "leave out nops and local copies, joining their edges"},
    {"-o", "OUT", "standard output", "output file"},
    CLI_END};
static const cli_option gen_opts[] = {
    {"--dialect", "D", "loggopsim", "loggopsim, or paper (keeps buffers and exec actions)"},
    {"-o", "OUT", "standard output", "output file"},
    CLI_END};
static const cli_option analyze_opts[] = {
    {"--waits", NULL, NULL, "the ranks each rank synchronises with"},
    {"--dataflow", NULL, NULL, "where every range of user memory comes from (the SST)"},
    {"--collectives", NULL, NULL, "the collectives found, one per line"},
    {"--replace", NULL, NULL, "the world with every collective replaced by a libgoal algorithm"},
    {"-o", "OUT", "standard output", "output file of --replace"},
    {"--bcast", "ALGO", "bcast_binomial", "--replace: algorithm for broadcasts"},
    {"--barrier", "ALGO", "barrier_dissemination", "--replace: algorithm for barriers"},
    {"--gather", "ALGO", "gather_binomial", "--replace: algorithm for gathers"},
    {"--scatter", "ALGO", "scatter_binomial", "--replace: algorithm for scatters"},
    {"--allgather", "ALGO", "allgather_bruck", "--replace: algorithm for allgathers"},
    {"--alltoall", "ALGO", "alltoall_bruck", "--replace: algorithm for alltoalls"},
    CLI_END};
static const cli_option tune_opts[] = {
    {"-p", "N", NULL, "number of ranks (required)"},
    {"-o", "ns", "1500", "CPU overhead per message (same as --overhead)"},
    {"--sizes", "LIST", "8,32,...,8388608,16777216", "message sizes in bytes (powers of 4 from 8, and 16 MiB)"},
    {"--coll", "LIST", "all ten", "bcast reduce allreduce allgather alltoall gather scatter reduce_scatter barrier scan"},
    {"--all", NULL, NULL, "every configuration, not only the fastest"},
    {"--format", "F", "table", "table (COLL SIZE ALGO TIME) or env (the GOAL_MPI_ALGOS string)"},
    {"--svg", "OUT", NULL, "time against size, log-log, one panel per collective"},
    CLI_END};
static const cli_option html_opts[] = {
    {"-o", "OUT", "standard output", "output file"},
    {"--from", "T0", "0", "only the events that end at or after T0 ns (a window of a long run)"},
    {"--to", "T1", "the end", "only the events that start at or before T1 ns"},
    CLI_END};
static const cli_option tune_rec_opts[] = {
    {"--coll", "LIST", "every one it calls", "the recording's collectives to tune, e.g. allreduce,reduce_scatter_block"},
    {"--all", NULL, NULL, "every algorithm, not only the fastest"},
    {"--format", "F", "table", "table (COLL CALLS ALGO TIME) or env (the GOAL_MPI_ALGOS string)"},
    CLI_END};
static const cli_option help_opts[] = {
    {"--markdown", NULL, NULL, "the README's verb table (tests/test_help.sh compares them)"},
    {"--man", NULL, NULL, "the man page goal.1 (troff), as make installs it"},
    CLI_END};

/* One row per form of a verb; dispatch takes the first row of a name. */
const cli_verb cli_verbs[] = {
    {"fmt", cli_fmt, "FILE [--dialect paper|loggopsim]", "parse, check, print canonically (or convert)", fmt_opts, NULL},
    {"asm", cli_asm, "FILE -o OUT", "compile every rank into a world file", asm_opts, NULL},
    {"dis", cli_dis, "FILE", "print a world file as text", NULL, NULL},
    {"stats", cli_stats, "FILE", "rank R actions A edges E bytes B copy C per rank (B: schedule size; C: bytes moved by local exec copy actions), then total ...", NULL, NULL},
    {"demo", cli_demo, "[-o DIR]", "what make run shows: generate, verify, simulate, run and draw two algorithms", demo_opts, NULL},
    {"run", cli_run, "FILE [--threads] [--trace]", "execute every rank in this process", run_opts, NULL},
    {"run", cli_run, "ALGO -p N [gen options] [--threads] [--seed S] --check",
     "run an algorithm on random data, compare every rank with a reference", run_algo_opts, algo_opts},
    {"check", cli_check, "FILE", "match sends and receives across ranks (cDAG Algorithm 1, MPI rules), find deadlocks", NULL, NULL},
    {"record", cli_record, "PREFIX", "assemble a recording's parts (PREFIX.<rank>.part, GOAL_MPI_RECORD) into PREFIX.goal and check it", NULL, NULL},
    {"sim", cli_sim, "FILE [-L ns] [-o ns] [-g ns] [-G ns/B] [-O ns/B] [-C ns/B] [-S B] [-R ns] [-T B -H ns/B] [--node-size K [--intra-L ns] [--intra-o ns] [--intra-g ns] [--intra-G ns/B] [--intra-O ns/B]] [--params FILE] [--loggopsim-compat] [--verbose] [--critical] [--coll COLL=ALGO]...",
     "LogGOPS simulation, as LogGOPSim: rank R T per rank, then max T", sim_opts, model_opts},
    {"dot", cli_dot, "FILE [--rank R] [--fold] [-o OUT]",
     "Graphviz DOT: one rank's DAG, or all ranks (in rank order, with a legend) and messages", dot_opts, NULL},
    {"trace", cli_trace, "FILE [model options] [--overhead ns] [-o OUT]",
     "the simulated timeline as Chrome trace-event JSON (Perfetto, chrome://tracing)", out_opt, model_opts},
    {"svg", cli_svg, "FILE [model options] [--overhead ns] [-o OUT]", "the simulated timeline as an SVG picture, no Graphviz needed",
     out_opt, model_opts},
    {"html", cli_html, "FILE [model options] [--overhead ns] [--from T0] [--to T1] [-o OUT.html]",
     "the simulated run as one interactive page (timeline, critical path, DAGs; opens from disk)", html_opts, model_opts},
    {"gen", cli_gen, "ALGO -p N [--root R] [--size BYTES] [--type T] [--op OP] [--nway K] [--segment BYTES] [--radix K] "
                     "[--participants LIST --receivers LIST] [--counts LIST | --counts-seed S] [--dialect loggopsim|paper] [-o OUT]",
     "print the schedules of all N ranks of an algorithm as textual GOAL", gen_opts, algo_opts},
    {"gen", cli_gen, "--list", "the algorithms, one per line with a description", NULL, NULL},
    {"analyze", cli_analyze, "FILE --waits|--dataflow|--collectives|--replace [-o OUT] [--bcast|--barrier|--gather|--scatter|--allgather|--alltoall ALGO]",
     "cDAG analysis: wait sets, dataflow, the collectives found, or replaced", analyze_opts, NULL},
    {"tune", cli_tune, "-p N [model options | --params FILE] [--sizes LIST] [--coll LIST] [--all] [--format table|env] [--svg OUT]",
     "every algorithm of each collective simulated at p and each size: COLL SIZE ALGO TIME for the fastest", tune_opts, model_opts},
    {"tune", cli_tune, "FILE [model options | --params FILE] [--coll LIST] [--all] [--format table|env]",
     "a recording: per collective it calls, the whole program simulated with each algorithm: COLL CALLS ALGO TIME for the fastest", tune_rec_opts, model_opts},
    {"help", cli_help, "[VERB|--markdown|--man]", "the verbs, or one verb's usage with every option and its default", help_opts, NULL},
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

/* Files named with -o are written to OUT.tmp.XXXXXX in the same directory and renamed to
   OUT when complete, so a failed write or an interrupt never leaves a truncated OUT. What OUT
   names is kept: a symbolic link's target is written that way (the link stays), an existing
   file keeps its mode, and a device, a FIFO or a file with other hard links is written
   directly (a rename would replace it). The few files open at once are listed here, for
   cli_finish_out and for the signal handler; tmp is NULL when written directly. */
enum { CLI_MAX_OUT = 8 };
static struct { FILE *f; char *tmp, *target; const char *final; } cli_outs[CLI_MAX_OUT];
static void cli_on_signal(int sig) {
    int k;
    for (k = 0; k < CLI_MAX_OUT; k++)
        if (cli_outs[k].f && cli_outs[k].tmp) unlink(cli_outs[k].tmp);
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
/* The temporary file next to target, with the mode an existing target has (else what a
   plain fopen would give); its FILE, or NULL with errno set. */
static FILE *cli_open_tmp(char *tmp, const char *target, const struct stat *old) {
    mode_t mask = umask(0);
    int fd;
    FILE *f;
    umask(mask);
    sprintf(tmp, "%s.tmp.XXXXXX", target);
    if ((fd = mkstemp(tmp)) < 0) return NULL;
    if (fchmod(fd, old ? old->st_mode & 0777 : 0666 & ~mask) != 0 || !(f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
        return NULL;
    }
    return f;
}
/* Opens slot k for path: directly, or through a temporary file next to what path names. */
static FILE *cli_open_slot(int k, const char *path) {
    struct stat st;
    int exists = stat(path, &st) == 0;
    char *target = NULL;
    if (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1)) return fopen(path, "wb");   /* written where it is */
    if (exists && !(target = realpath(path, NULL))) return NULL;   /* through symbolic links: the file itself */
    if (!exists && errno != ENOENT) return NULL;   /* a loop of links, a path through a file: said as fopen would */
    if (!exists && errno == ENOENT && lstat(path, &st) == 0) return fopen(path, "wb");   /* a dangling link: creates its target */
    if (!(cli_outs[k].tmp = (char *)malloc(strlen(target ? target : path) + 12))) { free(target); errno = ENOMEM; return NULL; }
    cli_outs[k].target = target;
    if ((cli_outs[k].f = cli_open_tmp(cli_outs[k].tmp, target ? target : path, exists ? &st : NULL)) != NULL) return cli_outs[k].f;
    free(cli_outs[k].tmp);
    free(target);
    cli_outs[k].tmp = cli_outs[k].target = NULL;
    return NULL;
}
void *cli_open_out(const char *path) {
    int k;
    if (!path || strcmp(path, "-") == 0) return stdout;
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f; k++) {}
    if (k == CLI_MAX_OUT) { cli_fail("%s: too many files open for writing", path); return NULL; }
    cli_catch(SIGINT);
    cli_catch(SIGTERM);
    signal(SIGXFSZ, SIG_IGN);   /* a file size limit is a write error (EFBIG), not death */
    if (!(cli_outs[k].f = cli_open_slot(k, path))) { cli_fail("%s: cannot open for writing: %s", path, strerror(errno)); return NULL; }
    cli_outs[k].final = path;
    return cli_outs[k].f;
}
int cli_finish_out(void *f, int keep) {
    int bad = ferror((FILE *)f), k;
    if (f == stdout) {
        cli_progress_end();   /* the progress line goes before the output reaches the terminal */
        return (bad | (fflush(stdout) != 0)) ? cli_fail("write error") : CLI_OK;
    }
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f != f; k++) {}
    if (k == CLI_MAX_OUT) return cli_fail("write error");
    bad |= fclose((FILE *)f) != 0;
    if (cli_outs[k].tmp && (bad || !keep)) unlink(cli_outs[k].tmp);
    else if (cli_outs[k].tmp && rename(cli_outs[k].tmp, cli_outs[k].target ? cli_outs[k].target : cli_outs[k].final) != 0) {
        bad = 1;
        cli_fail("%s: cannot rename %s to it: %s", cli_outs[k].final, cli_outs[k].tmp, strerror(errno));
        unlink(cli_outs[k].tmp);
    }
    free(cli_outs[k].tmp);
    free(cli_outs[k].target);
    cli_outs[k].tmp = cli_outs[k].target = NULL;
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
