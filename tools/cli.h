/* cli.h - shared pieces of the goal command. Each verb lives in its own file. */
#ifndef GOAL_CLI_H
#define GOAL_CLI_H
#include <stddef.h>
#include "../goal.h"
#include "../goal_algos.h"
#include "../goal_sim.h"
#include "../goal_tune.h"

/* Exit statuses every verb keeps. */
enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2, CLI_DEADLOCK = 3 };

/* A verb: argv[0] is the verb itself. Returns the exit status. */
typedef int (*cli_verb_fn)(int argc, char **argv);

/* The usage text, in one place (goal.c): one row per verb (a verb may have several rows,
   one per form), each with its options. goal --help, goal help VERB, goal VERB --help,
   the man page (goal help --man) and the README's verb table (goal help --markdown, checked
   by tests/test_help.sh) are all printed from it. */
typedef struct cli_option {
    const char *name;        /* "--root" */
    const char *arg;         /* "R", or NULL for a flag */
    const char *def;         /* the default, or NULL when there is none */
    const char *help;        /* one line */
} cli_option;
typedef struct cli_verb {
    const char *name;
    cli_verb_fn fn;
    const char *usage;       /* what follows "goal NAME " in the synopsis */
    const char *summary;     /* one line: what it does */
    const cli_option *opts;  /* this form's own options, ending in {NULL} (or NULL) */
    const cli_option *shared;/* a group of options several verbs take (or NULL) */
} cli_verb;
extern const cli_verb cli_verbs[];
extern const size_t cli_nverbs;
/* cli_help.c: the printers and the suggestions. */
int cli_help(int argc, char **argv);                  /* goal help [VERB|--markdown|--man] */
int cli_help_all(void *f);                            /* every synopsis on f (a FILE *); 0 on stdout (1 if it fails), else 2 */
/* Runs a verb; after ~2 s, with standard error a terminal, shows a progress line. */
int cli_progress_run(cli_verb_fn fn, int argc, char **argv);
void cli_progress_end(void);   /* stops and erases the progress line, if one runs */
/* How far the verb is, shown on the progress line: ", COUNT of TOTAL WHAT" (any thread). */
void cli_progress_count(unsigned long count, unsigned long total, const char *what);
int cli_help_verb(const char *verb);                  /* VERB's usage on stdout; 0, or 2 if unknown */
/* The closest of n words (or a NULL-terminated list when n < 0) to word, NULL if none is close. */
const char *cli_suggest(const char *word, const char *const *words, int n);
/* "VERB: unknown option 'OPT' (did you mean '--x'?)" from VERB's table; returns 2. */
int cli_unknown_option(const char *verb, const char *opt);
/* An algorithm's canonical name, also for LogGOPSim Schedgen's pattern names; NULL if unknown. */
const char *cli_algo_name(const char *name);
/* The algorithm name (or Schedgen name) closest to name, NULL if none is close. */
const char *cli_algo_suggest(const char *name);
/* "unknown algorithm 'X' (did you mean 'Y'?)" plus the hint, as a usage error; returns 2. */
int cli_unknown_algo(const char *verb, const char *name);

int cli_usage(const char *fmt, ...);                 /* "goal: ..." on stderr; returns 2 */
int cli_fail(const char *fmt, ...);                  /* "goal: ..." on stderr; returns 1 */
/* Reads a whole file ("-" = standard input); prints the error and returns 1 on failure. */
int cli_read(const char *path, char **data, size_t *len);
/* Reads a params file: its first GOAL_SIM_PARAMS_MAX bytes at most (goal_sim_params refuses
   that many), so a long one (/dev/zero) is refused after a few KiB. 0, or 1 after a message. */
int cli_read_params(const char *path, char **text, size_t *len);
/* Reads a world: a world file (by its magic) or text in either dialect. Returns 0 or 1. */
int cli_load_world(const char *path, goal_world **w);
/* For the verbs that keep state or write output per rank and per action of the whole world
   (check, sim, dot, trace, svg, html, run, analyze, asm, stats): 0 when about CLI_WORLD_BYTES per rank and per action fit
   the memory limit, else 1 after a message naming the counts. */
#define CLI_WORLD_BYTES 64u
int cli_world_fits(const char *path, const goal_world *w);
/* Opens OUT for writing ("-" or NULL = standard output); returns NULL after a message. */
void *cli_open_out(const char *path);
int cli_close_out(void *f);                          /* 0, or 1 after a message */
/* Closes OUT from cli_open_out: a file is renamed into place when keep and all went well,
   else removed (the old OUT stays). 0, or 1 after a message. */
int cli_finish_out(void *f, int keep);
/* The memory limit (--max-memory, default half the physical memory); cli_fits is 0 when
   bytes fit, else 1 after "WHAT: needs about N MB, more than the memory limit ...". */
uint64_t cli_memory_limit(void);
int cli_fits(const char *what, uint64_t bytes);
const char *cli_s(unsigned long long n);             /* "s" unless n is 1: "1 error", "2 errors" */
int cli_write_file(void *user, const char *data, size_t len);   /* a goal_write_fn on a FILE* */
/* Option helpers: is argv[*i] the option name (taking a value)? Sets *val and advances. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);
int cli_int(const char *s, long long lo, long long hi, long long *out);   /* 1 when s is an integer in range */

int cli_fmt(int argc, char **argv);
/* The language verbs' arguments (cli_fmt.c): FILE, and -o OUT (when out) and --dialect D
   (when dialect); 0, or 2 after a usage message. */
int cli_lang_args(int argc, char **argv, const char **file, const char **out, const char **dialect);
int cli_write_world(const goal_world *w, goal_dialect d, const char *out);   /* as text to OUT; 0 or 1 */
int cli_asm(int argc, char **argv);
int cli_dis(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_gen(int argc, char **argv);
/* The gen options (cli_gen.c), which goal run ALGO takes too. */
typedef struct cli_gen_opts {
    goal_algo_desc d;
    long long p;
    goal_dialect dialect;
    const char *out;
    int check, threads;
    long long seed;
    const char *counts;      /* --counts LIST (vector collectives), or */
    long long counts_seed;   /* --counts-seed S (-1: not given) */
} cli_gen_opts;
/* Parses ALGO and the options; run (goal run ALGO) also takes --check, --threads, --seed
   and no -o. 0, or the exit status after a message; cli_gen_free in both cases. */
int cli_gen_parse(int argc, char **argv, cli_gen_opts *o, int run);
/* 0 when building (and with run, running) o fits the memory limit, else 1 after a message. */
int cli_gen_fits(const cli_gen_opts *o, int run);
void cli_gen_free(cli_gen_opts *o);                  /* the lists the options allocated */
/* Runs algorithm d on p ranks on random data against a reference: 0 when right, else 1;
   msg says which (the demo's check; cli_run.c, next to goal run ALGO). */
int cli_algo_verify(const goal_algo_desc *d, int p, char *msg, size_t len);
int cli_demo(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_analyze(int argc, char **argv);   /* wait sets, dataflow, collectives (cli_analyze.c) */
int cli_check(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_dot(int argc, char **argv);
int cli_trace(int argc, char **argv);
/* trace and svg (cli_trace.c): FILE and the model options, drawn with draw to -o OUT. */
int cli_timeline(int argc, char **argv, goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *));
int cli_svg(int argc, char **argv);
int cli_tune(int argc, char **argv);      /* every algorithm simulated, the fastest per size (cli_tune.c) */
int cli_html(int argc, char **argv);      /* the interactive page (cli_html.c) */
/* Writes w's page, simulated with d and titled NAME, to out (NULL or "-": standard output);
   returns the exit status. */
int cli_html_write(const goal_world *w, const goal_sim_desc *d, const char *name, const char *out);
/* Shared by sim, trace and svg: a model option into d (1 if it was one; *rc = 2 if bad), and
   FILE with the model options (when d) and -o OUT (when out: then the overhead is --overhead);
   returns 0 or 2. */
int cli_model_opt(int argc, char **argv, int *i, goal_sim_desc *d, int *rc);
int cli_sim_args(int argc, char **argv, const char **file, goal_sim_desc *d, const char **out);
/* Warns (on stderr) of model options that change nothing alone: -T or -H without the other,
   --intra-* without --node-size. */
void cli_model_warn(const char *verb, const goal_sim_desc *d);
/* Why a simulation of w stopped with st, as every verb that simulates says it: the action
   whose time overflowed, or each stuck action on a line and their count. Returns the exit
   status (3 for a deadlock, else 1). */
int cli_sim_failed(const char *verb, const goal_world *w, const goal_sim_run_result *res, goal_status st);
const char *cli_time(uint64_t ps, char *buf);   /* ps as ns: "1500", "1500.08"; buf of 32 */
#endif
