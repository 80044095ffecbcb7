/* cli.h - shared pieces of the goal command. Each verb lives in its own file. */
#ifndef GOAL_CLI_H
#define GOAL_CLI_H
#include <stddef.h>
#include "../goal.h"
#include "../goal_algos.h"
#include "../goal_sim.h"

/* Exit statuses every verb keeps. */
enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2, CLI_DEADLOCK = 3 };

/* A verb: argv[0] is the verb itself. Returns the exit status. */
typedef int (*cli_verb_fn)(int argc, char **argv);

int cli_usage(const char *fmt, ...);                 /* "goal: ..." on stderr; returns 2 */
int cli_fail(const char *fmt, ...);                  /* "goal: ..." on stderr; returns 1 */
/* Reads a whole file ("-" = standard input); prints the error and returns 1 on failure. */
int cli_read(const char *path, char **data, size_t *len);
/* Reads a world: a world file (by its magic) or text in either dialect. Returns 0 or 1. */
int cli_load_world(const char *path, goal_world **w);
/* Opens OUT for writing ("-" or NULL = standard output); returns NULL after a message. */
void *cli_open_out(const char *path);
int cli_close_out(void *f);                          /* 0, or 1 after a message */
int cli_write_file(void *user, const char *data, size_t len);   /* a goal_write_fn on a FILE* */
/* Option helpers: is argv[*i] the option name (taking a value)? Sets *val and advances. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);
int cli_int(const char *s, long long lo, long long hi, long long *out);   /* 1 when s is an integer in range */

int cli_fmt(int argc, char **argv);
int cli_asm(int argc, char **argv);
int cli_dis(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_gen(int argc, char **argv);
/* goal run ALGO ...: cli_run hands over when its argument is an algorithm name. */
int cli_is_algo(const char *name);
int cli_run_algo(int argc, char **argv);
/* Runs algorithm d on p ranks on random data against a reference: 0 when right, else 1;
   msg says which (the demo's check). */
struct goal_algo_desc;
int cli_algo_verify(const struct goal_algo_desc *d, int p, char *msg, size_t len);
int cli_demo(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_analyze(int argc, char **argv);   /* wait sets, dataflow, collectives (cli_analyze.c) */
int cli_check(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_dot(int argc, char **argv);
int cli_trace(int argc, char **argv);
int cli_svg(int argc, char **argv);
int cli_tune(int argc, char **argv);   /* every algorithm simulated, the fastest per size (cli_tune.c) */
/* Shared by sim, trace and svg: a model option into d (1 if it was one; *rc = 2 if bad), and
   FILE with the model options (when d) and -o OUT (when out: then the overhead is --overhead);
   returns 0 or 2. */
int cli_model_opt(int argc, char **argv, int *i, goal_sim_desc *d, int *rc);
int cli_sim_args(int argc, char **argv, const char **file, goal_sim_desc *d, const char **out);
const char *cli_time(uint64_t ps, char *buf);   /* ps as ns: "1500", "1500.08"; buf of 32 */
#endif
