/* goal fmt: parse, check and print a world canonically. Here too: what the other language
   verbs (asm, dis, stats) share. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_lang_args(int argc, char **argv, const char **file, const char **out, const char **dialect) {
    int i;
    const char *v;
    *file = NULL;
    for (i = 1; i < argc; i++) {
        if (out && cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) return cli_usage("%s: -o needs a file name", argv[0]);
            *out = v;
        } else if (dialect && cli_opt(argc, argv, &i, "--dialect", &v)) {
            if (!v || (strcmp(v, "paper") && strcmp(v, "loggopsim"))) return cli_usage("%s: --dialect is paper or loggopsim", argv[0]);
            *dialect = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option(argv[0], argv[i]);
        } else if (*file) {
            return cli_usage("%s: one FILE only", argv[0]);
        } else {
            *file = argv[i];
        }
    }
    if (!*file) return cli_usage("%s: FILE is missing", argv[0]);
    return CLI_OK;
}

int cli_write_world(const goal_world *w, goal_dialect d, const char *out) {
    void *f = cli_open_out(out);
    goal_status st;
    if (!f) return CLI_BAD_INPUT;
    st = goal_world_write(w, d, cli_write_file, f);
    if (cli_finish_out(f, st == GOAL_OK) || st != GOAL_OK) return st != GOAL_OK ? cli_fail("%s", goal_strerror(st)) : CLI_BAD_INPUT;
    return CLI_OK;
}

int cli_fmt(int argc, char **argv) {
    const char *file, *dialect = NULL;
    goal_world *w;
    goal_dialect d;
    int rc = cli_lang_args(argc, argv, &file, NULL, &dialect);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    d = !dialect ? goal_world_dialect(w) : strcmp(dialect, "paper") == 0 ? GOAL_DIALECT_PAPER : GOAL_DIALECT_LOGGOPSIM;
    rc = cli_write_world(w, d, NULL);
    goal_world_destroy(w);
    return rc;
}
