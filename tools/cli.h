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

/* The usage text and the options: one row per verb form in goal.c (a verb may have several
   rows, one per form), each pointing at its option tables. goal --help, goal help VERB,
   goal VERB --help, the man page (goal help --man), the README's verb table (goal help
   --markdown, checked by tests/test_help.sh), the parsing (cli_parse) and the "did you mean"
   of an unknown option are all made from them.

   An option is one row of its verb's table (in tools/cli_VERB.c, next to the struct its
   values go into): its name, its value's name (NULL for a flag), its default and its help
   line, then how its value is read and where it goes:
       {"--seed", "S", "1", "seed of the random input", cli_set_int, offsetof(cli_gen_opts, seed),
        0, 1LL << 62, "takes a number"},
   The setter is cli_set_flag (a flag: the int becomes 1), cli_set_text (the value as it is),
   cli_set_int (a number from lo to hi into a long long), cli_set_model (a model option into a
   goal_sim_desc) or the verb's own; at is the field's offset in the struct the verb hands
   cli_parse for that table. A value that is missing or bad is said as "goal: VERB: NAME BAD"
   from the row's last field. Adding an option is adding its row and its field: help, man
   page, parsing and suggestions follow (goal html --from T: a `long long from;` in
   html_args and {"--from", "T", NULL, "...", cli_set_int, offsetof(html_args, from), 0,
   LLONG_MAX, "takes ..."}). Only the one-line synopsis (cli_verbs' usage, and the README's
   verb table that goal help --markdown prints from it) is text to extend by hand, when the
   option belongs there. An option several verbs take in the same way goes in a shared table
   (cli_model_options, cli_algo_options), the second table of a cli_verb row. */
typedef struct cli_option cli_option;
/* Reads value (NULL for a flag or when the value is missing) into field: 0, -1 when it is
   missing or bad (cli_parse then says so from the row), or an exit status after a message. */
typedef int (*cli_set_fn)(const char *verb, const cli_option *o, const char *value, void *field);
struct cli_option {
    const char *name;        /* "--root" */
    const char *arg;         /* "R", or NULL for a flag */
    const char *def;         /* the default, or NULL when there is none */
    const char *help;        /* one line */
    cli_set_fn set;          /* how the value is read */
    size_t at;               /* where it goes: the field's offset in the verb's struct (0: the struct) */
    long long lo, hi;        /* cli_set_int: the range; other setters may use lo as a value */
    const char *bad;         /* what follows "VERB: NAME " when the value is missing or bad */
};
#define CLI_END {NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL}
/* "-o OUT" into the const char * at offsetof(type, field). */
#define CLI_OUT_ROW(help, type, field) {"-o", "OUT", "standard output", help, cli_set_text, offsetof(type, field), 0, 0, "needs a file name"}
typedef struct cli_verb {
    const char *name;
    cli_verb_fn fn;
    const char *usage;       /* what follows "goal NAME " in the synopsis */
    const char *summary;     /* one line: what it does */
    const cli_option *opts;  /* this form's own options, ending in CLI_END (or NULL) */
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
/* Output (cli_out.c). Opens OUT for writing ("-" or NULL = standard output); returns NULL after a message. */
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
/* ---- the option parser (cli_parse.c) ---- */
/* What one verb form reads from its arguments: its own options into own, a shared group
   into group, and at most one operand (a word not starting with '-'; "-" alone is one). */
typedef struct cli_form {
    const cli_option *opts;  /* the form's own options (as in its cli_verbs row), or NULL */
    void *own;               /* the struct their fields are in */
    const cli_option *shared;/* the shared group (cli_model_options, cli_algo_options), or NULL */
    void *group;             /* the struct its fields are in */
    const char *operand;     /* "FILE", "ALGO", "VERB", or NULL when the form takes none */
    int need;                /* 1: without the operand, "VERB: FILE is missing" */
    const char *value;       /* out: the operand, or NULL */
} cli_form;
/* Parses argv[1..] (argv[0] is the verb) into f: "--name value", "--name=value", flags; an
   unknown option with the closest one ("did you mean"), a missing or bad value, a second
   operand and a missing needed one are usage errors. 0, or the exit status after a message. */
int cli_parse(int argc, char **argv, cli_form *f);
int cli_set_flag(const char *verb, const cli_option *o, const char *value, void *field);   /* int = 1 */
int cli_set_text(const char *verb, const cli_option *o, const char *value, void *field);   /* const char * */
int cli_set_int(const char *verb, const cli_option *o, const char *value, void *field);    /* long long in [lo, hi] */
/* --dialect paper|loggopsim into a goal_dialect. */
int cli_set_dialect(const char *verb, const cli_option *o, const char *value, void *field);
/* Is argv[*i] the option name (taking a value)? Sets *val (NULL when missing) and advances. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);
int cli_int(const char *s, long long lo, long long hi, long long *out);   /* 1 when s is an integer in range */
/* The option tables, each in its verb's file (the shared ones: cli_model.c, cli_gen.c). */
extern const cli_option cli_fmt_options[], cli_asm_options[], cli_demo_options[], cli_run_options[], cli_run_algo_options[],
    cli_sim_options[], cli_dot_options[], cli_trace_options[], cli_html_options[], cli_gen_options[], cli_algo_options[],
    cli_analyze_options[], cli_tune_options[], cli_help_options[];
/* tune FILE's rows: cli_tune_options without its first three (-p, --sizes, --svg). */
#define cli_tune_rec_options (cli_tune_options + 3)

int cli_fmt(int argc, char **argv);
/* FILE and no option (dis, stats, check): the file, or NULL after a usage message in *rc. */
const char *cli_file_only(int argc, char **argv, int *rc);
int cli_write_world(const goal_world *w, goal_dialect d, const char *out);   /* as text to OUT (cli_out.c); 0 or 1 */
int cli_asm(int argc, char **argv);
int cli_dis(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_gen(int argc, char **argv);
/* The gen options (cli_gen.c), which goal run ALGO takes too: cli_algo_options reads them
   and cli_gen_parse puts them into d. */
typedef struct cli_ranks { int *v; int n; } cli_ranks;   /* a rank LIST: "0-7,9" */
typedef struct cli_gen_opts {
    goal_algo_desc d;
    long long p, root, size, nway, segment, radix;   /* size in bytes; 0: the generator's default */
    cli_ranks participants, receivers;
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
/* --coll COLL=ALGO on a recording (sim, tune; cli_analyze.c): *w replaced by w with the n
   (at most GOAL_ANALYZE_NCOLLS) specs' calls re-generated (goal_analyze_replan), a warning
   for a collective it never calls. 0, or the exit status after a message (2: a bad spec,
   1: the world refused). */
int cli_replan(const char *verb, goal_world **w, const char *const *specs, int n);
int cli_check(int argc, char **argv);
int cli_record(int argc, char **argv);   /* a recording's parts into PREFIX.goal, checked (cli_record.c) */
int cli_sim(int argc, char **argv);
int cli_dot(int argc, char **argv);
int cli_trace(int argc, char **argv);
/* trace and svg (cli_trace.c): FILE and the model options, drawn with draw to -o OUT. */
int cli_timeline(int argc, char **argv, goal_status (*draw)(const goal_world *, const goal_sim_desc *, goal_write_fn, void *));
int cli_svg(int argc, char **argv);
int cli_tune(int argc, char **argv);      /* every algorithm simulated, the fastest per size (cli_tune.c) */
void cli_tune_init(void);                 /* tune's --coll help from the collective table, before any verb runs */
/* The plot of goal tune (cli_plot.c): time against size, log-log, a panel per collective and a
   curve per configuration, thick when it wins at some size, a dot where; as SVG on f (a FILE *). */
typedef struct cli_plot_point { uint64_t size; double time; int win; } cli_plot_point;
typedef struct cli_plot_curve { const char *label; const cli_plot_point *pts; size_t n; int wins; } cli_plot_curve;
typedef struct cli_plot_panel { const char *title; const cli_plot_curve *curves; size_t n; } cli_plot_panel;
void cli_plot_svg(void *f, const cli_plot_panel *panels, size_t n, long long p);   /* titled "TITLE, p = P" */
int cli_html(int argc, char **argv);      /* the interactive page (cli_html.c) */
/* Writes w's page, simulated with d and titled NAME, to out (NULL or "-": standard output);
   returns the exit status. */
int cli_html_write(const goal_world *w, const goal_sim_desc *d, const char *name, const char *out);
/* The model options (cli_model.c): cli_model_options is their table, the shared group of sim,
   trace, svg, html and tune (into a goal_sim_desc), filled from the library's table by
   cli_model_init before any verb runs; cli_set_model reads one (the row's name, as
   goal_sim_param takes it), cli_set_params a --params FILE. */
extern cli_option cli_model_options[];
void cli_model_init(void);
int cli_set_model(const char *verb, const cli_option *o, const char *value, void *field);
int cli_set_params(const char *verb, const cli_option *o, const char *value, void *field);
/* Warns (on stderr) of model options that change nothing alone: -T or -H without the other,
   --intra-* without --node-size. CLI_OK, or a usage error for options that cannot go
   together (-T and -H lists of different lengths), with the library's reason. */
int cli_model_check(const char *verb, const goal_sim_desc *d);
/* Why a simulation of w stopped with st, as every verb that simulates says it: the action
   whose time overflowed, or each stuck action on a line and their count. Returns the exit
   status (3 for a deadlock, else 1). */
int cli_sim_failed(const char *verb, const goal_world *w, const goal_sim_run_result *res, goal_status st);
const char *cli_time(uint64_t ps, char *buf);   /* ps as ns: "1500", "1500.08"; buf of 32 */
#endif
