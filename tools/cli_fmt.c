/* goal fmt: parse, check and print a world canonically. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

typedef struct fmt_args { goal_dialect dialect; } fmt_args;   /* GOAL_DIALECT_AUTO: the input's */
const cli_option cli_fmt_options[] = {
    {"--dialect", "D", "the input's", "paper or loggopsim: the dialect to print", cli_set_dialect, offsetof(fmt_args, dialect), 0, 0,
     "is paper or loggopsim"},
    CLI_END};

int cli_fmt(int argc, char **argv) {
    fmt_args a = {GOAL_DIALECT_AUTO};
    cli_form f = {cli_fmt_options, &a, NULL, NULL, "FILE", 1, NULL};
    goal_world *w;
    int rc = cli_parse(argc, argv, &f);
    if (rc || (rc = cli_load_world(f.value, &w))) return rc;
    rc = cli_write_world(w, a.dialect ? a.dialect : goal_world_dialect(w), NULL);
    goal_world_destroy(w);
    return rc;
}
