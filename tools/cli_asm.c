/* goal asm: compile every rank of a world into a world file (goal_world_save). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_asm(int argc, char **argv) {
    const char *file, *out = NULL;
    goal_world *w;
    void *f;
    int rc = cli_lang_args(argc, argv, &file, &out, NULL);
    if (!rc && !out) rc = cli_usage("asm: -o OUT is missing");
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
