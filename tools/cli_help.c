/* goal help: the usage text of goal.c's tables printed for a terminal (goal --help, goal help
   VERB, goal VERB --help), as the README's verb table (goal help --markdown) and as the man
   page (goal help --man); "did you mean" suggestions; LogGOPSim Schedgen's pattern names. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* LogGOPSim's Schedgen names its patterns differently; `goal gen` takes its names too.
   Schedgen's plain "dissemination" exchanges data without reducing it: the same messages as
   allreduce_dissemination, which adds the reductions (barrier_dissemination sends 0 bytes). */
static const char *const schedgen_names[][2] = {
    {"binomialtreebcast", "bcast_binomial"}, {"binarytreebcast", "bcast_binary"},
    {"binomialtreereduce", "reduce_binomial"}, {"pipelinedring", "bcast_chain"},
    {"doublering", "bcast_doublering"}, {"nwaydissemination", "allreduce_dissemination"},
    {"dissemination", "allreduce_dissemination"}, {"linbarrier", "barrier_linear"},
    {"gather", "gather_linear"}, {"scatter", "scatter_linear"}, {"linear_alltoall", "alltoall_linear"},
};
#define NSCHEDGEN (int)(sizeof schedgen_names / sizeof schedgen_names[0])

const char *cli_algo_name(const char *name) {
    const goal_algo_info *a = goal_algo_find(name);
    int k;
    if (a) return a->name;
    for (k = 0; k < NSCHEDGEN; k++)
        if (strcmp(name, schedgen_names[k][0]) == 0) return schedgen_names[k][1];
    return NULL;
}

/* ---- suggestions ----------------------------------------------------------------------- */
/* Edit distance (insert, delete, substitute, and swap two neighbouring letters: the
   commonest typo, "smi" for "sim", counts as one edit), for words up to 63 characters. */
static int distance(const char *a, const char *b) {
    int rows[3][64], n = (int)strlen(b), i, j;
    int *before = rows[0], *prev = rows[1], *row = rows[2], *t;
    if (n > 63 || strlen(a) > 63) return 99;
    for (j = 0; j <= n; j++) row[j] = j;
    for (i = 1; a[i - 1]; i++) {
        t = before; before = prev; prev = row; row = t;
        row[0] = i;
        for (j = 1; j <= n; j++) {
            row[j] = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < row[j]) row[j] = prev[j] + 1;
            if (row[j - 1] + 1 < row[j]) row[j] = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && before[j - 2] + 1 < row[j]) row[j] = before[j - 2] + 1;
        }
    }
    return row[n];
}

const char *cli_suggest(const char *word, const char *const *words, int n) {
    int k, d, best = 99, len = (int)strlen(word), limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
    const char *near = NULL;
    for (k = 0; n < 0 ? words[k] != NULL : k < n; k++)
        if ((d = distance(word, words[k])) < best) { best = d; near = words[k]; }
    return best <= limit ? near : NULL;
}

const char *cli_algo_suggest(const char *name) {
    const char *words[128 + NSCHEDGEN];
    const goal_algo_info *a;
    int n = 0, k;
    for (k = 0; n < 128 && (a = goal_algo_list(k)) != NULL; k++) words[n++] = a->name;
    for (k = 0; k < NSCHEDGEN; k++) words[n++] = schedgen_names[k][0];
    return cli_suggest(name, words, n);
}

int cli_unknown_algo(const char *verb, const char *name) {
    const char *near = cli_algo_suggest(name);
    if (near)
        return cli_usage("%s: unknown algorithm '%s' (did you mean '%s'? goal gen --list)", verb, name, near);
    return cli_usage("%s: unknown algorithm '%s' (goal gen --list)", verb, name);
}

int cli_unknown_option(const char *verb, const char *opt) {
    const char *words[64], *near;
    char name[64];
    size_t k;
    int n = 0;
    const cli_option *o;
    for (k = 0; k < cli_nverbs; k++) {
        if (strcmp(cli_verbs[k].name, verb) != 0) continue;
        for (o = cli_verbs[k].opts; o && o->name && n < 63; o++) words[n++] = o->name;
        for (o = cli_verbs[k].shared; o && o->name && n < 63; o++) words[n++] = o->name;
    }
    words[n++] = "--help";
    snprintf(name, sizeof name, "%s", opt);
    name[strcspn(name, "=")] = 0;               /* --sead=3 is close to --seed */
    if ((near = cli_suggest(name, words, n)) != NULL)
        return cli_usage("%s: unknown option '%s' (did you mean '%s'?)", verb, opt, near);
    return cli_usage("%s: unknown option '%s'", verb, opt);
}

/* ---- for a terminal ---------------------------------------------------------------------- */
static void print_options(FILE *f, const cli_option *o) {
    char lhs[64];
    for (; o && o->name; o++) {
        snprintf(lhs, sizeof lhs, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "    %-22s %s", lhs, o->help);
        if (o->def) fprintf(f, " (default: %s)", o->def);
        fputc('\n', f);
    }
}

int cli_help_all(void *out) {
    FILE *f = (FILE *)out;
    size_t k;
    fprintf(f, "usage: goal VERB [ARGS]   (FILE may be '-' for standard input)\n");
    for (k = 0; k < cli_nverbs; k++) fprintf(f, "  goal %s %s\n      %s\n", cli_verbs[k].name, cli_verbs[k].usage, cli_verbs[k].summary);
    fprintf(f, "  goal VERB --help | goal help VERB   one verb's options and their defaults\n"
               "  goal --version                     the version of libgoal\n"
               "  goal --max-memory BYTES VERB ...   refuse inputs needing more (default: half the memory)\n"
               "exit status: 0 success, 1 bad input, 2 bad usage, 3 deadlock\n");
    if (f != stdout) return CLI_USAGE;
    return cli_close_out(stdout) ? CLI_BAD_INPUT : CLI_OK;
}

int cli_help_verb(const char *verb) {
    size_t k;
    int found = 0, i;
    const char *names[128], *near;
    for (k = 0; k < cli_nverbs; k++) {
        if (k < 127) names[k] = cli_verbs[k].name;
        if (strcmp(cli_verbs[k].name, verb) != 0) continue;
        printf("%susage: goal %s %s\n  %s\n", found++ ? "\n" : "", verb, cli_verbs[k].usage, cli_verbs[k].summary);
        if (cli_verbs[k].opts || cli_verbs[k].shared) printf("  options:\n");
        print_options(stdout, cli_verbs[k].opts);
        print_options(stdout, cli_verbs[k].shared);
    }
    if (found && strcmp(verb, "gen") == 0) {
        printf("\nLogGOPSim Schedgen's pattern names are accepted too:\n");
        for (i = 0; i < NSCHEDGEN; i++) printf("    %-22s %s\n", schedgen_names[i][0], schedgen_names[i][1]);
    }
    if (found) return cli_close_out(stdout) ? CLI_BAD_INPUT : CLI_OK;
    names[cli_nverbs < 127 ? cli_nverbs : 127] = NULL;
    if ((near = cli_suggest(verb, names, -1)) != NULL) return cli_usage("help: unknown verb '%s' (did you mean '%s'?)", verb, near);
    return cli_usage("help: unknown verb '%s'", verb);
}

/* ---- the README's verb table --------------------------------------------------------------- */
static void markdown(void) {
    size_t k;
    const char *c;
    printf("| verb | what it does |\n|---|---|\n");
    for (k = 0; k < cli_nverbs; k++) {
        printf("| `goal %s ", cli_verbs[k].name);
        for (c = cli_verbs[k].usage; *c; c++) printf(*c == '|' ? "\\|" : "%c", *c);
        printf("` | %s |\n", cli_verbs[k].summary);
    }
}

/* ---- the man page ------------------------------------------------------------------------- */
static void roff(const char *s) {   /* text for troff: '-' and '\' escaped */
    for (; *s; s++) {
        if (*s == '-' || *s == '\\') putchar('\\');
        putchar(*s == '\\' ? 'e' : *s);
    }
}
static void man_options(const cli_option *o) {
    for (; o && o->name; o++) {
        printf(".TP\n.B ");
        roff(o->name);
        if (o->arg) { printf(" \\fI"); roff(o->arg); printf("\\fR"); }
        putchar('\n');
        roff(o->help);
        if (o->def) { printf(" (default: "); roff(o->def); putchar(')'); }
        putchar('\n');
    }
}
static void man(void) {
    size_t k;
    printf(".TH GOAL 1 \"\" \"libgoal %s\" \"User Commands\"\n.SH NAME\ngoal \\- GOAL schedules: "
           "build, check, simulate, run and draw collective algorithms\n.SH SYNOPSIS\n.B goal\n\\fIVERB\\fR [\\fIARGS\\fR]\n"
           ".SH DESCRIPTION\nFILE is a textual GOAL world (the paper's dialect or LogGOPSim's) or a world file\n"
           "written by \\fBgoal asm\\fR; \\- is standard input.\n"
           "\\fBgoal VERB \\-\\-help\\fR and \\fBgoal help VERB\\fR print one verb's options; "
           "\\fBgoal \\-\\-version\\fR the version.\n.SH VERBS\n", goal_version());
    for (k = 0; k < cli_nverbs; k++) {
        printf(".SS \"goal %s ", cli_verbs[k].name);
        roff(cli_verbs[k].usage);
        printf("\"\n");
        roff(cli_verbs[k].summary);
        printf("%s\n", cli_verbs[k].summary[strlen(cli_verbs[k].summary) - 1] == '.' ? "" : ".");
        man_options(cli_verbs[k].opts);
        man_options(cli_verbs[k].shared);
    }
    printf(".SH EXIT STATUS\n0 success, 1 bad input (or findings), 2 bad usage, 3 deadlock.\n"
           ".SH SEE ALSO\nThe README.md of libgoal and the doc block at the top of each header.\n");
}

typedef struct help_args { int markdown, man; } help_args;
const cli_option cli_help_options[] = {
    {"--markdown", NULL, NULL, "the README's verb table (tests/test_help.sh compares them)", cli_set_flag, offsetof(help_args, markdown), 0,
     0, NULL},
    {"--man", NULL, NULL, "the man page goal.1 (troff), as make installs it", cli_set_flag, offsetof(help_args, man), 0, 0, NULL},
    CLI_END};
int cli_help(int argc, char **argv) {
    help_args a = {0, 0};
    cli_form f = {cli_help_options, &a, NULL, NULL, "VERB", 0, NULL};
    int rc = cli_parse(argc, argv, &f);
    if (rc != CLI_OK) return rc;
    if (a.markdown + a.man + (f.value != NULL) > 1) return cli_usage("help: one of VERB, --markdown, --man");
    if (f.value) return cli_help_verb(f.value);
    if (a.markdown) markdown();
    else if (a.man) man();
    else return cli_help_all(stdout);
    return cli_close_out(stdout) ? CLI_BAD_INPUT : CLI_OK;
}
