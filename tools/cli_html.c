/* goal html: the simulated run as one self-contained, interactive page. The page itself
   (style and script) is tools/html_page.html, turned into html_page.inc by the Makefile;
   this file writes the simulation (goal_sim_timeline_run) into it as one JSON object of
   compact columns (json_data), which the page decodes into typed arrays. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
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
/* ---- the data: integer columns, each in its shortest form (a page of 10^6 actions is read
   by the browser in one JSON.parse, never as per-action markup) ---------------------------- */
typedef struct html_col { int64_t *v; size_t n, cap; } html_col;
#define HTML_EXACT ((int64_t)1 << 52)   /* differences of these stay exact in a JavaScript number */

static int col_push(html_col *c, int64_t x) {
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 4096;
        int64_t *v = (int64_t *)realloc(c->v, cap * sizeof *v);
        if (!v) return 0;
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = x;
    return 1;
}
/* x as a base-64 VLQ, as source maps write numbers: the sign in the lowest bit, then 5 bits a
   character, lowest first, 32 added while more follow. One JSON string of these is read by
   the browser in a fraction of the time a million JSON numbers take. Returns its length. */
static size_t vlq(int64_t x, char *out) {
    static const char digit[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint64_t z = x < 0 ? ((0 - (uint64_t)x) << 1) | 1u : (uint64_t)x << 1;   /* |x| < 2^63 */
    size_t n = 0;
    do {
        unsigned d = (unsigned)(z & 31u);
        z >>= 5;
        out[n++] = digit[d | (z ? 32u : 0u)];
    } while (z);
    return n;
}
static void put_int(FILE *f, int64_t x) {
    char b[24], *p = b + sizeof b - 1;
    uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    *p = 0;
    do *--p = (char)('0' + u % 10); while ((u /= 10));
    if (x < 0) *--p = '-';
    fputs(p, f);
}
/* A column in one of its forms: the values, or each minus the one before (COL_DIFF), either
   as they are or as runs of value, count (COL_RUNS). */
enum { COL_DIFF = 1, COL_RUNS = 2, COL_FORMS = 4 };
static int64_t col_at(const html_col *c, size_t k, int form) { return (form & COL_DIFF) && k ? c->v[k] - c->v[k - 1] : c->v[k]; }
/* Its length in characters; written to f unless f is NULL. */
static size_t col_form(FILE *f, const html_col *c, int form) {
    size_t k, n, len = 0, m;
    char b[32];
    for (k = 0; k < c->n; k = n) {
        int64_t x = col_at(c, k, form);
        for (n = k + 1; (form & COL_RUNS) && n < c->n && col_at(c, n, form) == x; n++) continue;
        m = vlq(x, b);
        if (form & COL_RUNS) m += vlq((int64_t)(n - k), b + m);
        if (f) fwrite(b, 1, m, f);
        len += m;
    }
    return len;
}
/* ,"name":column, in the shortest form: one number (every value is it), or {"v"} values,
   {"d"} differences, {"r"} runs or {"dr"} runs of differences, each a string of VLQs. A
   chain's times and indices are a few runs; differences are used only where JavaScript adds
   them up exactly. */
static void col_write(FILE *f, const char *name, const html_col *c) {
    static const char *const open[COL_FORMS] = {"{\"v\":\"", "{\"d\":\"", "{\"r\":\"", "{\"dr\":\""};
    size_t k, len, shortest = 0;
    int form, best = 0, same = 1, exact = 1;
    for (k = 0; k < c->n; k++) {
        same &= c->v[k] == c->v[0];
        exact &= c->v[k] <= HTML_EXACT && c->v[k] >= -HTML_EXACT;
    }
    fprintf(f, ",\"%s\":", name);
    if (c->n && same) { put_int(f, c->v[0]); return; }
    for (form = 0; form < COL_FORMS; form++) {
        if ((form & COL_DIFF) && !exact) continue;
        len = col_form(NULL, c, form);
        if (!form || len < shortest) { best = form; shortest = len; }
    }
    fputs(open[best], f);
    col_form(f, c, best);
    fputs("\"}", f);
}

/* The events as columns: kind rank action peer peer_action cpu start duration size round segment. */
static const char *const ev_names[] = {"k", "r", "a", "q", "qa", "cpu", "s", "du", "z", "rd", "sg"};
static int64_t ev_value(const goal_sim_timeline *t, size_t k, int field) {
    const goal_sim_event *e = &t->events[k];
    switch (field) {
    case 0: return (int64_t)e->kind;
    case 1: return e->rank;
    case 2: return e->action;
    case 3: return e->peer;
    case 4: return e->peer_action;
    case 5: return e->cpu;
    case 6: return (int64_t)e->start;   /* times are under 2^64 ps, so under 2^63 ns */
    case 7: return (int64_t)(e->end - e->start);
    case 8: return (int64_t)e->size;    /* buffers are at most 2^63-1 bytes */
    case 9: return t->round[k];
    default: return t->segment[k];
    }
}

/* Caption templates (the page puts the label and the number back), each distinct one once: a
   direct-mapped cache of recent ones (a miss only costs a repeated entry). */
#define HTML_CACHE 4096
typedef struct html_templates {
    char *text; size_t len, cap, count;        /* the table: NUL-separated, count entries */
    size_t off[HTML_CACHE], idx[HTML_CACHE];   /* cached: offset + 1 (0 = empty), entry */
} html_templates;

static int template_index(html_templates *t, const char *s, size_t *out) {
    size_t h = 5381, n = strlen(s) + 1, k;
    const char *p;
    for (p = s; *p; p++) h = h * 33u + (unsigned char)*p;
    k = h % HTML_CACHE;
    if (t->off[k] && strcmp(t->text + t->off[k] - 1, s) == 0) { *out = t->idx[k]; return 1; }
    if (t->len + n > t->cap) {
        size_t cap = 2 * (t->len + n) + 4096;
        char *b = (char *)realloc(t->text, cap);
        if (!b) return 0;
        t->text = b;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->off[k] = t->len + 1;
    t->idx[k] = *out = t->count++;
    t->len += n;
    return 1;
}
/* Action i's caption without its "label: " and with its last number (up to 15 digits: exact in
   JavaScript) as '#' in buf, the number in *num: "send 64 B to #" and 12, so that the captions
   of a world are a few distinct templates. Captions are words and numbers: no '#' of their own. */
static void caption_template(const goal_world *w, int32_t r, const goal_schedule *s, uint32_t i, char *buf, size_t len,
                             int64_t *num) {
    char text[200], lb[GOAL_LABEL_MAX];
    const char *cap = goal_sim_action_text(w, r, (int32_t)i, text, sizeof text), *l = goal_schedule_label(s, i, lb);
    size_t n = strlen(l), e, b;
    if (strncmp(cap, l, n) == 0 && cap[n] == ':' && cap[n + 1] == ' ') cap += n + 2;
    for (e = strlen(cap); e > 0 && !isdigit((unsigned char)cap[e - 1]); e--) continue;
    for (b = e; b > 0 && isdigit((unsigned char)cap[b - 1]); b--) continue;
    *num = 0;
    if (e == b || e - b > 15) snprintf(buf, len, "%s", cap);
    else {
        *num = strtoll(cap + b, NULL, 10);
        snprintf(buf, len, "%.*s#%s", (int)b, cap, cap + e);
    }
}
enum { ACT_N, ACT_KIND, ACT_CAPTION, ACT_NUMBER, ACT_NDEPS, ACT_DEPS };
static const char *const act_names[] = {"n", "ak", "c", "cv", "dn", "dv"};
/* Action i's values of one column: its kind, caption template, the number in it, count of
   dependents or the dependents themselves (j as 2 (j - i), irequires as 2 (j - i) + 1: small
   for neighbours). */
static int act_values(html_col *c, const goal_world *w, int32_t r, const goal_schedule *s, uint32_t i,
                      int field, html_templates *templates) {
    goal_action a;
    const uint32_t *d;
    uint32_t k, nd;
    char buf[200];
    int64_t num;
    size_t t;
    goal_schedule_action(s, i, &a);
    if (field == ACT_KIND) return col_push(c, (int64_t)a.kind);
    if (field == ACT_CAPTION || field == ACT_NUMBER) {
        caption_template(w, r, s, i, buf, sizeof buf, &num);
        if (field == ACT_NUMBER) return col_push(c, num);
        return template_index(templates, buf, &t) && col_push(c, (int64_t)t);
    }
    nd = goal_schedule_deps(s, i, &d);
    if (field == ACT_NDEPS) return col_push(c, nd);
    for (k = 0; k < nd; k++)   /* the top bit marks irequires (released on start) */
        if (!col_push(c, 2 * ((int64_t)(d[k] & 0x7FFFFFFFu) - i) + !!(d[k] & 0x80000000u))) return 0;
    return 1;
}
static int act_col(html_col *c, const goal_world *w, int32_t nranks, int field, html_templates *templates) {
    int32_t r;
    uint32_t i;
    goal_schedule s;
    for (r = 0; r < nranks; r++) {
        int ok = goal_world_schedule(w, r, &s) == GOAL_OK;
        if (field == ACT_N) { if (!col_push(c, ok ? s.nactions : 0)) return 0; continue; }
        for (i = 0; ok && i < s.nactions; i++)
            if (!act_values(c, w, r, &s, i, field, templates)) return 0;
    }
    return 1;
}
static int label_is_own(const char *l, uint32_t i) {
    char own[32];
    snprintf(own, sizeof own, "l%lu", (unsigned long)i + 1ul);
    return strcmp(l, own) == 0;
}
/* ,"l":labels: 0 when every action has its own "l<i+1>", else one per action, 0 for those. */
static void json_labels(FILE *f, const goal_world *w, int32_t nranks) {
    int32_t r;
    uint32_t i;
    int pass, any = 0;
    size_t n = 0;
    goal_schedule s;
    char lb[GOAL_LABEL_MAX];
    fputs(",\"l\":", f);
    for (pass = 0; pass < 2 && (!pass || any); pass++)
        for (r = 0; r < nranks; r++) {
            if (goal_world_schedule(w, r, &s) != GOAL_OK) continue;
            for (i = 0; i < s.nactions; i++) {
                const char *l = goal_schedule_label(&s, i, lb);
                if (!pass) { any |= !label_is_own(l, i); continue; }
                fputs(n++ ? "," : "[", f);
                if (label_is_own(l, i)) fputc('0', f); else json_str(f, l);
            }
        }
    fputs(any ? "]" : "0", f);
}
/* {"name", "p", "max", "ne" events, "na" actions, "nc" critical events, then columns}: tools/html_page.html reads it. */
static int json_data(FILE *f, const goal_world *w, const goal_sim_timeline *t, const char *name) {
    html_col c = {NULL, 0, 0};
    html_templates *templates = (html_templates *)calloc(1, sizeof *templates);
    size_t k, na = 0;
    int32_t r, nr = t->result.nranks;
    int field, ok = templates != NULL;
    for (r = 0; r < nr; r++) { goal_schedule s; if (goal_world_schedule(w, r, &s) == GOAL_OK) na += s.nactions; }
    fputs("{\"name\":", f);
    json_str(f, name);
    fprintf(f, ",\"p\":%ld,\"max\":%llu,\"ne\":%lu,\"na\":%lu,\"nc\":%lu", (long)nr, (unsigned long long)t->result.max,
            (unsigned long)t->nevents, (unsigned long)na, (unsigned long)t->ncritical);
    for (r = 0; ok && r < nr; r++) ok = col_push(&c, (int64_t)t->result.finish[r]);
    if (ok) col_write(f, "finish", &c);
    for (k = 0, c.n = 0; ok && k < t->ncritical; k++) ok = col_push(&c, (int64_t)t->critical[k]);
    if (ok) col_write(f, "critical", &c);
    for (field = 0; ok && field < (int)(sizeof ev_names / sizeof ev_names[0]); field++) {
        for (k = 0, c.n = 0; ok && k < t->nevents; k++) ok = col_push(&c, ev_value(t, k, field));
        if (ok) col_write(f, ev_names[field], &c);
    }
    for (field = ACT_N; ok && field <= ACT_DEPS; field++) {
        c.n = 0;
        if ((ok = act_col(&c, w, nr, field, templates))) col_write(f, act_names[field], &c);
    }
    if (ok) {
        json_labels(f, w, nr);
        fputs(",\"ct\":[", f);
        for (k = 0; k < templates->len; k += strlen(templates->text + k) + 1) { fputs(k ? "," : "", f); json_str(f, templates->text + k); }
        fputs("]}", f);
    }
    if (templates) free(templates->text);
    free(templates);
    free(c.v);
    return ok;
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
/* The page, with the title and the data put in at their markers; 0 when out of memory. */
static int page_write(FILE *f, const goal_world *w, const goal_sim_timeline *t, const char *name) {
    size_t k;
    for (k = 0; k < sizeof page_lines / sizeof page_lines[0]; k++) {
        const char *l = page_lines[k], *m;
        if ((m = strstr(l, "@TITLE@"))) {
            fprintf(f, "%.*sgoal: ", (int)(m - l), l);
            html_text(f, name);
            fprintf(f, ", %ld ranks, %llu ns%s", (long)t->result.nranks, (unsigned long long)t->result.max, m + 7);
        } else if ((m = strstr(l, "@DATA@"))) {
            fprintf(f, "%.*s", (int)(m - l), l);
            if (!json_data(f, w, t, name)) return 0;
            fputs(m + 6, f);
        } else fputs(l, f);
    }
    return 1;
}
/* --from/--to: only the events that overlap [from, to] ns stay (the critical path's too,
   renumbered); the actions, the finish times and the end of the run stay whole. */
static size_t timeline_window(goal_sim_timeline *t, uint64_t from, uint64_t to) {
    size_t k, n = 0, c = 0, *at = (size_t *)malloc((t->nevents + 1) * sizeof *at);
    if (!at) return (size_t)-1;
    for (k = 0; k < t->nevents; k++) {
        at[k] = (size_t)-1;
        if (t->events[k].end < from || t->events[k].start > to) continue;
        at[k] = n;
        t->events[n] = t->events[k]; t->round[n] = t->round[k]; t->segment[n] = t->segment[k];
        n++;
    }
    for (k = 0; k < t->ncritical; k++)
        if (at[t->critical[k]] != (size_t)-1) t->critical[c++] = at[t->critical[k]];
    t->nevents = n; t->ncritical = c;
    free(at);
    return n;
}
/* Writes the page of w simulated with d, the events of [from, to] ns, to out. */
static int html_write(const goal_world *w, const goal_sim_desc *d, const char *name, const char *out, uint64_t from, uint64_t to) {
    goal_sim_timeline t;
    goal_status st = goal_sim_timeline_run(w, d, &t);
    FILE *f;
    size_t kept;
    int rc;
    if (st != GOAL_OK) {
        rc = cli_sim_failed("html", w, &t.result, st);
        goal_sim_timeline_free(&t);
        return rc;
    }
    kept = from == 0 && to == UINT64_MAX ? t.nevents : timeline_window(&t, from, to);
    if (kept == 0 || kept == (size_t)-1) {
        char tb[32], tb2[32];
        rc = kept ? cli_fail("html: %s", goal_strerror(GOAL_ERR_NOMEM))
                  : cli_fail("html: no event from %llu ns to %s%s (the run ends at %s ns)", (unsigned long long)from,
                             to == UINT64_MAX ? "the end" : cli_time(to * 1000u, tb), to == UINT64_MAX ? "" : " ns", cli_time(t.result.max_ps, tb2));
        goal_sim_timeline_free(&t);
        return rc;
    }
    if (!(f = (FILE *)cli_open_out(out))) { goal_sim_timeline_free(&t); return CLI_BAD_INPUT; }
    if (!page_write(f, w, &t, name)) {
        goal_sim_timeline_free(&t);
        cli_finish_out(f, 0);
        return cli_fail("html: %s", goal_strerror(GOAL_ERR_NOMEM));
    }
    goal_sim_timeline_free(&t);
    rc = cli_close_out(f);
    return rc;
}
/* Writes the page of w simulated with d to out (NULL or "-": standard output). */
int cli_html_write(const goal_world *w, const goal_sim_desc *d, const char *name, const char *out) {
    return html_write(w, d, name, out, 0, UINT64_MAX);
}
typedef struct html_args {
    goal_sim_desc model;
    const char *out;
    long long from, to;        /* --from T0, --to T1 in ns; to -1: the end */
} html_args;
const cli_option cli_html_options[] = {
    CLI_OUT_ROW("output file", html_args, out),
    {"--from", "T0", "0", "only the events that end at or after T0 ns (a window of a long run)", cli_set_int, offsetof(html_args, from), 0,
     INT64_MAX, "takes a time in ns"},
    {"--to", "T1", "the end", "only the events that start at or before T1 ns", cli_set_int, offsetof(html_args, to), 0, INT64_MAX,
     "takes a time in ns"},
    CLI_END};
int cli_html(int argc, char **argv) {
    html_args a;
    cli_form f = {cli_html_options, &a, cli_model_options, &a.model, "FILE", 1, NULL};
    char name[256];
    goal_world *w;
    uint64_t to;
    int rc;
    memset(&a, 0, sizeof a);
    a.to = -1;
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    to = a.to < 0 ? UINT64_MAX : (uint64_t)a.to;
    if ((uint64_t)a.from > to) return cli_usage("html: --from %lld is after --to %lld", a.from, a.to);
    if ((rc = cli_model_check("html", &a.model))) return rc;
    if ((rc = cli_load_world(f.value, &w))) return rc;
    page_name(f.value, name, sizeof name);
    rc = cli_world_fits(f.value, w) ? CLI_BAD_INPUT : html_write(w, &a.model, name, a.out, (uint64_t)a.from, to);
    goal_world_destroy(w);
    return rc;
}
