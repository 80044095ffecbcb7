/* goal html: the simulated run as one self-contained, interactive page. The page itself
   (style and script) is tools/html_page.html, turned into html_page.inc by the Makefile;
   this file writes the simulation (goal_sim_timeline_run) into it as JSON. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const char *const page_lines[] = {
#include "html_page.inc"
};

/* A JSON string that is also safe inside <script> and HTML (<, >, & as \u escapes). */
static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&') fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}
/* Per rank: labels, kinds, captions and dependents (requires as j, irequires as -j-1). */
static void json_rank(FILE *f, const goal_world *w, int32_t r) {
    goal_schedule s;
    uint32_t i, k;
    char buf[200];
    if (goal_world_schedule(w, r, &s) != GOAL_OK) { fputs("{\"l\":[],\"k\":[],\"c\":[],\"d\":[]}", f); return; }
    fputs("{\"l\":[", f);
    for (i = 0; i < s.nactions; i++) { fputs(i ? "," : "", f); json_str(f, goal_schedule_label(&s, i, buf)); }
    fputs("],\"k\":[", f);
    for (i = 0; i < s.nactions; i++) {
        goal_action a;
        goal_schedule_action(&s, i, &a);
        fprintf(f, "%s%d", i ? "," : "", (int)a.kind);
    }
    fputs("],\"c\":[", f);
    for (i = 0; i < s.nactions; i++) { fputs(i ? "," : "", f); json_str(f, goal_sim_action_text(w, r, (int32_t)i, buf, sizeof buf)); }
    fputs("],\"d\":[", f);
    for (i = 0; i < s.nactions; i++) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(&s, i, &d);
        fputs(i ? ",[" : "[", f);
        for (k = 0; k < nd; k++)   /* the top bit marks irequires (released on start) */
            fprintf(f, "%s%ld", k ? "," : "", (d[k] & 0x80000000u) ? -(long)(d[k] & 0x7FFFFFFFu) - 1 : (long)d[k]);
        fputc(']', f);
    }
    fputs("]}", f);
}
static void json_data(FILE *f, const goal_world *w, const goal_sim_timeline *t, const char *name) {
    size_t k;
    int32_t r;
    fputs("{\"name\":", f);
    json_str(f, name);
    fprintf(f, ",\"p\":%ld,\"max\":%llu,\"finish\":[", (long)t->result.nranks, (unsigned long long)t->result.max);
    for (r = 0; r < t->result.nranks; r++) fprintf(f, "%s%llu", r ? "," : "", (unsigned long long)t->result.finish[r]);
    fputs("],\"critical\":[", f);
    for (k = 0; k < t->ncritical; k++) fprintf(f, "%s%lu", k ? "," : "", (unsigned long)t->critical[k]);
    fputs("],\n\"events\":[", f);   /* kind rank action peer peer_action cpu start end size round segment */
    for (k = 0; k < t->nevents; k++) {
        const goal_sim_event *e = &t->events[k];
        fprintf(f, "%s[%d,%ld,%ld,%ld,%ld,%d,%llu,%llu,%llu,%lu,%lu]", k ? ",\n" : "", (int)e->kind, (long)e->rank, (long)e->action,
                (long)e->peer, (long)e->peer_action, e->cpu, (unsigned long long)e->start, (unsigned long long)e->end,
                (unsigned long long)e->size, (unsigned long)t->round[k], (unsigned long)t->segment[k]);
    }
    fputs("],\n\"ranks\":[", f);
    for (r = 0; r < t->result.nranks; r++) { fputs(r ? ",\n" : "", f); json_rank(f, w, r); }
    fputs("]}", f);
}
/* NAME: the file's base name without its extension ("stdin" for -). */
static void page_name(const char *file, char *buf, size_t len) {
    const char *b = strrchr(file, '/'), *dot;
    b = b ? b + 1 : file;
    if (strcmp(file, "-") == 0) b = "stdin";
    dot = strrchr(b, '.');
    snprintf(buf, len, "%.*s", (int)(dot && dot != b ? (size_t)(dot - b) : strlen(b)), b);
}
static void html_text(FILE *f, const char *s) {
    for (; *s; s++)
        if (*s == '<') fputs("&lt;", f); else if (*s == '&') fputs("&amp;", f); else fputc(*s, f);
}
/* The page, with the title and the data put in at their markers. */
static void page_write(FILE *f, const goal_world *w, const goal_sim_timeline *t, const char *name) {
    size_t k;
    for (k = 0; k < sizeof page_lines / sizeof page_lines[0]; k++) {
        const char *l = page_lines[k], *m;
        if ((m = strstr(l, "@TITLE@"))) {
            fprintf(f, "%.*sgoal: ", (int)(m - l), l);
            html_text(f, name);
            fprintf(f, ", %ld ranks, %llu ns%s", (long)t->result.nranks, (unsigned long long)t->result.max, m + 7);
        } else if ((m = strstr(l, "@DATA@"))) {
            fprintf(f, "%.*s", (int)(m - l), l);
            json_data(f, w, t, name);
            fputs(m + 6, f);
        } else fputs(l, f);
    }
}
/* Writes the page of w simulated with d to out (NULL or "-": standard output). */
int cli_html_write(const goal_world *w, const goal_sim_desc *d, const char *name, const char *out) {
    goal_sim_timeline t;
    goal_status st = goal_sim_timeline_run(w, d, &t);
    FILE *f;
    int rc;
    if (st != GOAL_OK) {
        rc = cli_sim_failed("html", w, &t.result, st);
        goal_sim_timeline_free(&t);
        return rc;
    }
    if (!(f = (FILE *)cli_open_out(out))) { goal_sim_timeline_free(&t); return CLI_BAD_INPUT; }
    page_write(f, w, &t, name);
    goal_sim_timeline_free(&t);
    rc = cli_close_out(f);
    return rc;
}
int cli_html(int argc, char **argv) {
    const char *file, *out = NULL;
    char name[256];
    goal_world *w;
    goal_sim_desc d;
    int rc;
    memset(&d, 0, sizeof d);
    if ((rc = cli_sim_args(argc, argv, &file, &d, &out)) || (rc = cli_load_world(file, &w))) return rc;
    page_name(file, name, sizeof name);
    rc = cli_world_fits(file, w) ? CLI_BAD_INPUT : cli_html_write(w, &d, name, out);
    goal_world_destroy(w);
    return rc;
}
