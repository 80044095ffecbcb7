/* goal fmt / asm / dis / stats: the language verbs. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* FILE plus the options each verb takes; returns 0, or 2 after a usage message. */
static int args(int argc, char **argv, const char **file, const char **out, const char **dialect) {
    int i;
    const char *v;
    *file = NULL;
    for (i = 1; i < argc; i++) {
        if (out && cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) return cli_usage("%s: -o needs a file name", argv[0]);
            *out = v;
        } else if (dialect && cli_opt(argc, argv, &i, "--dialect", &v)) {
            if (!v || (strcmp(v, "paper") && strcmp(v, "loggopsim"))) return cli_usage("%s: --dialect is paper or loggopsim", argv[0]);
            *dialect = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option(argv[0], argv[i]);
        } else if (*file) {
            return cli_usage("%s: one FILE only", argv[0]);
        } else {
            *file = argv[i];
        }
    }
    if (!*file) return cli_usage("%s: FILE is missing", argv[0]);
    return CLI_OK;
}

static int write_world(const goal_world *w, goal_dialect d, const char *out) {
    void *f = cli_open_out(out);
    goal_status st;
    if (!f) return CLI_BAD_INPUT;
    st = goal_world_write(w, d, cli_write_file, f);
    if (cli_close_out(f) || st != GOAL_OK) return st != GOAL_OK ? cli_fail("%s", goal_strerror(st)) : CLI_BAD_INPUT;
    return CLI_OK;
}

int cli_fmt(int argc, char **argv) {
    const char *file, *dialect = NULL;
    goal_world *w;
    goal_dialect d;
    int rc = args(argc, argv, &file, NULL, &dialect);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    d = !dialect ? goal_world_dialect(w) : strcmp(dialect, "paper") == 0 ? GOAL_DIALECT_PAPER : GOAL_DIALECT_LOGGOPSIM;
    rc = write_world(w, d, NULL);
    goal_world_destroy(w);
    return rc;
}

int cli_asm(int argc, char **argv) {
    const char *file, *out = NULL;
    goal_world *w;
    void *f;
    int rc = args(argc, argv, &file, &out, NULL);
    if (!rc && !out) rc = cli_usage("asm: -o OUT is missing");
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    if (!(f = cli_open_out(out))) rc = CLI_BAD_INPUT;
    else {
        goal_status st = goal_world_save(w, cli_write_file, f);
        rc = cli_close_out(f);
        if (st != GOAL_OK) rc = cli_fail("%s: %s", out, goal_strerror(st));
    }
    goal_world_destroy(w);
    return rc;
}

int cli_dis(int argc, char **argv) {
    const char *file;
    goal_world *w;
    int rc = args(argc, argv, &file, NULL, NULL);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    rc = write_world(w, GOAL_DIALECT_PAPER, NULL);
    goal_world_destroy(w);
    return rc;
}

/* Bytes moved by the local copies (exec copy actions) of one rank's schedule. */
static unsigned long long copy_bytes(const goal_schedule *s) {
    unsigned long long b = 0;
    uint32_t i;
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        goal_schedule_action(s, i, &a);
        if (a.kind == GOAL_EXEC && a.op == GOAL_OP_COPY) b += a.buf.size;
    }
    return b;
}

int cli_stats(int argc, char **argv) {
    const char *file;
    goal_world *w;
    unsigned long long ta = 0, te = 0, tb = 0, tc = 0;
    int r, rc = args(argc, argv, &file, NULL, NULL);
    if (rc || (rc = cli_load_world(file, &w))) return rc;
    for (r = 0; r < goal_world_nranks(w); r++) {
        goal_schedule s;
        unsigned long long cb;
        goal_world_schedule(w, r, &s);
        cb = copy_bytes(&s);
        printf("rank %d actions %lu edges %lu bytes %lu copy %llu\n", r, (unsigned long)s.nactions, (unsigned long)s.nedges,
               (unsigned long)s.size, cb);
        ta += s.nactions; te += s.nedges; tb += s.size; tc += cb;
    }
    printf("total actions %llu edges %llu bytes %llu copy %llu\n", ta, te, tb, tc);
    goal_world_destroy(w);
    return cli_close_out(stdout);
}
