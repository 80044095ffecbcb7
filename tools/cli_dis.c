/* goal dis: print a world file as text (the paper's dialect). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_dis(int argc, char **argv) {
    goal_world *w;
    int rc;
    const char *file = cli_file_only(argc, argv, &rc);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    rc = cli_write_world(w, GOAL_DIALECT_PAPER, NULL);
    goal_world_destroy(w);
    return rc;
}
