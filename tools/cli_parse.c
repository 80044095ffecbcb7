/* The one option parser of the goal command: every verb reads its arguments with cli_parse
   from the same tables goal help prints (cli.h tells how to add an option). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
    if (argv[*i][n] != 0) return 0;
    if (*i + 1 >= argc) { *val = NULL; return 1; }
    *val = argv[++*i];
    return 1;
}
int cli_int(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    long long v;
    if (!s || !*s) return 0;
    v = strtoll(s, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

int cli_set_flag(const char *verb, const cli_option *o, const char *value, void *field) {
    (void)verb; (void)o; (void)value;
    *(int *)field = 1;
    return CLI_OK;
}
int cli_set_text(const char *verb, const cli_option *o, const char *value, void *field) {
    (void)verb; (void)o;
    if (!value) return -1;
    *(const char **)field = value;
    return CLI_OK;
}
int cli_set_int(const char *verb, const cli_option *o, const char *value, void *field) {
    (void)verb;
    return cli_int(value, o->lo, o->hi, (long long *)field) ? CLI_OK : -1;
}
int cli_set_dialect(const char *verb, const cli_option *o, const char *value, void *field) {
    (void)verb; (void)o;
    if (value && strcmp(value, "paper") == 0) *(goal_dialect *)field = GOAL_DIALECT_PAPER;
    else if (value && strcmp(value, "loggopsim") == 0) *(goal_dialect *)field = GOAL_DIALECT_LOGGOPSIM;
    else return -1;
    return CLI_OK;
}

/* The row of table that argv[*i] names, its value in *val (a flag matches its name only; an
   option with a value also "NAME=VALUE", else takes the next argument); NULL if none. */
static const cli_option *cli_match(const cli_option *table, int argc, char **argv, int *i, const char **val) {
    const cli_option *o;
    for (o = table; o && o->name; o++) {
        if (!o->arg && strcmp(argv[*i], o->name) == 0) { *val = NULL; return o; }
        if (o->arg && cli_opt(argc, argv, i, o->name, val)) return o;
    }
    return NULL;
}
/* The option at argv[*i] into f's structs: 0, or the exit status after a message. */
static int cli_parse_option(int argc, char **argv, int *i, cli_form *f) {
    const char *val = NULL, *verb = argv[0];
    const cli_option *o = cli_match(f->opts, argc, argv, i, &val);
    char *base = (char *)f->own;
    int rc;
    if (!o && (o = cli_match(f->shared, argc, argv, i, &val)) != NULL) base = (char *)f->group;
    if (!o) return cli_unknown_option(verb, argv[*i]);
    rc = o->set(verb, o, val, base + o->at);
    return rc < 0 ? cli_usage("%s: %s %s", verb, o->name, o->bad) : rc;
}
int cli_parse(int argc, char **argv, cli_form *f) {
    const char *verb = argv[0];
    int i, rc;
    f->value = NULL;
    for (i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            if ((rc = cli_parse_option(argc, argv, &i, f)) != CLI_OK) return rc;
        } else if (!f->operand) {
            return cli_usage("%s: unknown argument '%s'", verb, argv[i]);
        } else if (f->value) {
            return cli_usage("%s: one %s only ('%s' and '%s')", verb, f->operand, f->value, argv[i]);
        } else {
            f->value = argv[i];
        }
    }
    if (f->need && !f->value) return cli_usage("%s: %s is missing", verb, f->operand);
    return CLI_OK;
}

const char *cli_file_only(int argc, char **argv, int *rc) {
    cli_form f;
    memset(&f, 0, sizeof f);
    f.operand = "FILE";
    f.need = 1;
    *rc = cli_parse(argc, argv, &f);
    return *rc == CLI_OK ? f.value : NULL;
}
