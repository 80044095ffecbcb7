/* goal check / goal sim: verify and simulate a whole world (goal_sim.h). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* One LogGOPSim model option at argv[*i] into d (same letters as LogGOPSim; --overhead is
   -o for the verbs where -o names the output). Returns 1 when it was one (and *rc = 2 after
   a usage message if its value is bad). */
int cli_model_opt(int argc, char **argv, int *i, goal_sim_desc *d, int *rc) {
    static const char *const names[] = {"-L", "-o", "-g", "-G", "-O", "-S", "--overhead"};
    int64_t *fields[7];
    const char *v;
    long long x;
    int k;
    fields[0] = &d->L; fields[1] = &d->o; fields[2] = &d->g; fields[3] = &d->G; fields[4] = &d->O; fields[5] = &d->S; fields[6] = &d->o;
    if (strcmp(argv[*i], "--loggopsim-compat") == 0) { d->loggopsim_compat = 1; return 1; }
    for (k = 0; k < 7; k++) {
        if (strcmp(argv[*i], names[k]) != 0 || !cli_opt(argc, argv, i, names[k], &v)) continue;
        if (!cli_int(v, 0, INT64_MAX, &x)) *rc = cli_usage("%s: %s takes a number >= 0", argv[0], names[k]);
        else *fields[k] = x ? (int64_t)x : GOAL_SIM_ZERO;
        return 1;
    }
    return 0;
}

/* FILE, the model options (when d) and -o OUT (when out). Returns 0 or 2. */
int cli_sim_args(int argc, char **argv, const char **file, goal_sim_desc *d, const char **out) {
    int i, rc = CLI_OK;
    const char *v;
    *file = NULL;
    for (i = 1; i < argc && rc == CLI_OK; i++) {
        if (out && cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) return cli_usage("%s: -o needs a file name", argv[0]);
            *out = v;
        } else if (d && cli_model_opt(argc, argv, &i, d, &rc)) {
            continue;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage("%s: unknown option '%s'", argv[0], argv[i]);
        } else if (*file) {
            return cli_usage("%s: one FILE only", argv[0]);
        } else {
            *file = argv[i];
        }
    }
    if (rc == CLI_OK && !*file) return cli_usage("%s: FILE is missing", argv[0]);
    return rc;
}

int cli_check(int argc, char **argv) {
    const char *file;
    goal_world *w;
    goal_sim_check_result res;
    goal_sim_check_desc d;
    goal_status st;
    size_t k;
    char line[400];
    int rc = cli_sim_args(argc, argv, &file, NULL, NULL);
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

/* The reason a simulation stopped, one stuck action per line on stderr. */
static int sim_failed(const goal_world *w, const goal_sim_result *res, goal_status st) {
    size_t k;
    char what[200];
    goal_sim_finding f;
    if (st != GOAL_ERR_DEADLOCK && st != GOAL_ERR_MATCH) return cli_fail("sim: %s", goal_strerror(st));
    for (k = 0; k < res->nstuck; k++) {
        memset(&f, 0, sizeof f);
        f.kind = GOAL_SIM_BLOCKED; f.at = res->stuck[k]; f.other.rank = -1; f.other.action = -1;
        goal_sim_finding_text(w, &f, what, sizeof what);
        *strchr(what, ':') = 0;
        fprintf(stderr, "goal: %s: %s\n", what,
                st == GOAL_ERR_MATCH ? "its message is never received" : res->stuck_started[k] ? "started, never matched" : "never starts");
    }
    if (st == GOAL_ERR_MATCH)
        return cli_fail("sim: %lu message%s never received", (unsigned long)res->nstuck, res->nstuck == 1 ? " was" : "s were");
    cli_fail("sim: deadlock: %lu action%s never complete%s", (unsigned long)res->nstuck, cli_s(res->nstuck), res->nstuck == 1 ? "s" : "");
    return CLI_DEADLOCK;
}

int cli_sim(int argc, char **argv) {
    const char *file;
    goal_world *w;
    goal_sim_desc d;
    goal_sim_result res;
    goal_status st;
    int32_t r;
    int rc;
    memset(&d, 0, sizeof d);
    rc = cli_sim_args(argc, argv, &file, &d, NULL);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    if (cli_world_fits(file, w)) { goal_world_destroy(w); return CLI_BAD_INPUT; }
    st = goal_sim_run(w, &d, &res);
    if (st != GOAL_OK) rc = sim_failed(w, &res, st);
    for (r = 0; st == GOAL_OK && r < res.nranks; r++) printf("rank %ld %llu\n", (long)r, (unsigned long long)res.finish[r]);
    if (st == GOAL_OK) printf("max %llu\n", (unsigned long long)res.max);
    goal_sim_result_free(&res);
    goal_world_destroy(w);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : rc;
}
