/* goal dis: print a world file as text (the paper's dialect). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_dis(int argc, char **argv) {
    const char *file;
    goal_world *w;
    int rc = cli_lang_args(argc, argv, &file, NULL, NULL);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    rc = cli_write_world(w, GOAL_DIALECT_PAPER, NULL);
    goal_world_destroy(w);
    return rc;
}
