/* goal asm: compile every rank of a world into a world file (goal_world_save). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

typedef struct asm_args { const char *out; } asm_args;
const cli_option cli_asm_options[] = {
    {"-o", "OUT", NULL, "the world file to write (required)", cli_set_text, offsetof(asm_args, out), 0, 0, "needs a file name"},
    CLI_END};

int cli_asm(int argc, char **argv) {
    asm_args a = {NULL};
    cli_form form = {cli_asm_options, &a, NULL, NULL, "FILE", 1, NULL};
    const char *file, *out;
    goal_world *w;
    void *f;
    int rc = cli_parse(argc, argv, &form);
    if (!rc && !a.out) rc = cli_usage("asm: -o OUT is missing");
    file = form.value;
    out = a.out;
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    if (cli_world_fits(file, w)) rc = CLI_BAD_INPUT;   /* the file is linear in the ranks, unset ones too */
    else if (!(f = cli_open_out(out))) rc = CLI_BAD_INPUT;
    else {
        goal_status st = goal_world_save(w, cli_write_file, f);
        rc = cli_finish_out(f, st == GOAL_OK);
        if (st != GOAL_OK) rc = cli_fail("%s: %s", out, goal_strerror(st));
    }
    goal_world_destroy(w);
    return rc;
}
