/* goal check: match sends and receives across ranks, find deadlocks (goal_sim_check). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_check(int argc, char **argv) {
    goal_world *w;
    goal_sim_check_result res;
    goal_sim_check_desc d;
    goal_status st;
    size_t k;
    char line[400];
    int rc;
    const char *file = cli_file_only(argc, argv, &rc);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    if (cli_world_fits(file, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }
    memset(&d, 0, sizeof d);
    st = goal_sim_check(w, &d, &res);
    if (st != GOAL_OK && st != GOAL_ERR_MATCH) rc = cli_fail("check: %s", goal_strerror(st));
    for (k = 0; st == GOAL_ERR_MATCH && k < res.nfindings; k++)
        printf("%s\n", goal_sim_finding_text(w, &res.findings[k], line, sizeof line));
    if (st == GOAL_OK) printf("ok: %d rank%s, %lu message%s matched\n", goal_world_nranks(w), cli_s((unsigned long long)goal_world_nranks(w)),
                             (unsigned long)res.npairs, cli_s(res.npairs));
    if (st == GOAL_ERR_MATCH) rc = cli_fail("check: %lu error%s, %lu warning%s", (unsigned long)res.errors, cli_s(res.errors),
                                          (unsigned long)res.warnings, cli_s(res.warnings));
    goal_sim_check_free(&res);
    goal_world_destroy(w);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
