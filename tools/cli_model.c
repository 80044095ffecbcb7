/* The model options: the shared option group of every verb that simulates (sim, trace, svg,
   html, tune), read into a goal_sim_desc by the library (goal_sim_param, goal_sim_params). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* The names, values and defaults are the library's: goal_sim_param reads every row (by its
   name) and goal_sim_defaults has the defaults (tests/test_help.sh compares them with
   goal sim --verbose). The library has no list of its options with their help lines yet, so
   this table is the one copy of that list in tools/, to be built from the library's list
   when goal_sim.h has one. -o is not here: it is the overhead on sim and tune (their own
   row) and the output file on the verbs that write one; --params is the command's own. */
#define CLI_MODEL(name, arg, def, help) {name, arg, def, help, cli_set_model, 0, 0, 0, NULL}
const cli_option cli_model_options[] = {   /* LogGOPSim's letters and defaults */
    CLI_MODEL("-L", "ns", "2500", "latency"),
    CLI_MODEL("-g", "ns", "1000", "gap between messages (NIC)"),
    CLI_MODEL("-G", "ns/B", "6", "gap per byte"),
    CLI_MODEL("-O", "ns/B", "0", "CPU overhead per byte"),
    CLI_MODEL("-C", "ns/B", "1", "CPU time per byte of a local exec (copy or reduction; calc is not scaled)"),
    CLI_MODEL("-S", "B", "65535", "eager limit: larger messages use rendezvous"),
    CLI_MODEL("-R", "ns", "0", "rendezvous handshake: a message over -S bytes arrives this much later (LogGOPSim: none)"),
    CLI_MODEL("-T", "B", "0", "with -H: a message's bytes beyond the first T cost -H per byte instead of -G (0: one -G, LogGOPSim's)"),
    CLI_MODEL("-H", "ns/B", "0", "with -T: gap per byte beyond T bytes, on both NICs and in the receive (0: free; unset: off)"),
    CLI_MODEL("--overhead", "ns", "1500", "CPU overhead per message (LogGOPSim's -o)"),
    CLI_MODEL("--node-size", "K", NULL, "two-level model: nodes of K consecutive ranks; -L -o -g -G -O are then between nodes"),
    CLI_MODEL("--intra-L", "ns", "-L", "two-level: latency inside a node"),
    CLI_MODEL("--intra-o", "ns", "--overhead", "two-level: CPU overhead per message inside a node"),
    CLI_MODEL("--intra-g", "ns", "-g", "two-level: gap between messages inside a node"),
    CLI_MODEL("--intra-G", "ns/B", "-G", "two-level: gap per byte inside a node"),
    CLI_MODEL("--intra-O", "ns/B", "-O", "two-level: CPU overhead per byte inside a node"),
    {"--params", "FILE", NULL, "one line of these options (what goal probe prints); later options override it", cli_set_params, 0, 0, 0,
     "needs a file name"},
    CLI_MODEL("--loggopsim-compat", NULL, NULL, "charge 0-byte messages -G, as LogGOPSim's wrap-around does"),
    CLI_END};

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
   Said on standard error; the run goes on. */
void cli_model_warn(const char *verb, const goal_sim_desc *d) {
    static const char *const intra[] = {"--intra-L", "--intra-o", "--intra-g", "--intra-G", "--intra-O"};
    const double v[] = {d->intra_L, d->intra_o, d->intra_g, d->intra_G, d->intra_O};
    int k;
    if ((d->T > 0) != (d->H != 0))
        fprintf(stderr, "goal: %s: warning: %s without %s changes nothing (-T B -H ns/B go together)\n", verb, d->T > 0 ? "-T" : "-H",
                d->T > 0 ? "-H" : "-T");
    for (k = 0; k < 5 && !d->node_size; k++)
        if (v[k] != 0) fprintf(stderr, "goal: %s: warning: %s without --node-size changes nothing\n", verb, intra[k]);
}
