/* The model options: the shared option group of every verb that simulates (sim, trace, svg,
   html, tune), read into a goal_sim_desc by the library (goal_sim_param, goal_sim_params). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* The library's table of model options (goal_sim_param_info: names, values, defaults, help)
   is the one list; this is its copy in cli_option rows, filled by cli_model_init. -o is left
   out: it is the overhead on sim and tune (their own row) and the output file on the verbs
   that write one. --params is the command's own. The size: the library's rows and --params,
   with room to spare; cli_model_init stops at it. */
cli_option cli_model_options[48];

void cli_model_init(void) {
    const goal_sim_param_row *r;
    size_t i, n = 0, cap = sizeof cli_model_options / sizeof cli_model_options[0] - 2;
    for (i = 0; (r = goal_sim_param_info(i)) != NULL && n < cap; i++) {
        cli_option o = {NULL, NULL, NULL, NULL, cli_set_model, 0, 0, 0, NULL};
        if (strcmp(r->name, "-o") == 0) continue;
        o.name = r->name; o.arg = r->arity ? r->unit : NULL; o.def = r->dflt; o.help = r->help;
        cli_model_options[n++] = o;
    }
    {
        cli_option params = {"--params", "FILE", NULL, "one line of these options (what goal probe prints); later options override it",
                             cli_set_params, 0, 0, 0, "needs a file name"};
        cli_model_options[n] = params;
    }
}

/* One model option into the goal_sim_desc at field, as goal_sim_param takes it. A bad value
   is said with the library's reason. */
int cli_set_model(const char *verb, const cli_option *o, const char *v, void *field) {
    goal_error err;
    if (goal_sim_param((goal_sim_desc *)field, o->name, v, &err) == GOAL_OK) return CLI_OK;
    if (strcmp(o->name, "-S") == 0) return cli_usage("%s: -S %s", verb, err.msg);
    return cli_usage("%s: %s %s%s%s%s", verb, o->name, v ? v : "", v ? ": " : "", err.msg,
                     strcmp(o->name, "-o") == 0 ? "; -o is the CPU overhead here, not an output file" : "");
}

/* --params FILE: one line of model options as `goal sim` takes them (what `goal probe`
   prints), e.g. "-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536"; -o is the overhead here on
   every verb. The library parses it (goal_sim_params); a bad file exits 1. */
int cli_set_params(const char *verb, const cli_option *o, const char *path, void *field) {
    char *text;
    size_t len;
    goal_error err;
    goal_status st;
    (void)o;
    if (!path) return -1;
    if (cli_read_params(path, &text, &len)) return CLI_BAD_INPUT;
    st = goal_sim_params((goal_sim_desc *)field, text, len, &err);
    free(text);
    return st == GOAL_OK ? CLI_OK : cli_fail("%s: --params %s: %s", verb, path, err.msg);
}

/* Options that change nothing alone: -T and -H go together, --intra-* need --node-size.
   Said on standard error; the run goes on. Options that each parse but not together: what
   the library says of the desc (goal_sim_costs_create checks it as a simulation would). */
int cli_model_check(const char *verb, const goal_sim_desc *d) {
    static const char *const intra[] = {"--intra-L", "--intra-o", "--intra-g", "--intra-G", "--intra-O"};
    const double v[] = {d->intra_L, d->intra_o, d->intra_g, d->intra_G, d->intra_O};
    goal_sim_costs *c;
    goal_error err;
    int k;
    if (goal_sim_costs_create(&c, d, &err) != GOAL_OK) return cli_usage("%s: %s", verb, err.msg);
    goal_sim_costs_destroy(c);
    if ((d->T > 0) != (d->H != 0))
        fprintf(stderr, "goal: %s: warning: %s without %s changes nothing (-T B -H ns/B go together)\n", verb, d->T > 0 ? "-T" : "-H",
                d->T > 0 ? "-H" : "-T");
    for (k = 0; k < 5 && !d->node_size; k++)
        if (v[k] != 0) fprintf(stderr, "goal: %s: warning: %s without --node-size changes nothing\n", verb, intra[k]);
    return CLI_OK;
}
