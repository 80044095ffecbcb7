/* test_text.c - goal.h: textual GOAL in both dialects. The paper's Example 2 and the
   slides' broadcast, every reference LogGOPSim case (fixed points, conversions, the same
   binary), a table of malformed inputs with their exact positions and messages, op x type
   by name, and allocation failure in the reader and the writers. */
#define GOAL_IMPLEMENTATION
#include "goal.h"
#include "harness.h"
#include <dirent.h>

/* ---- helpers --------------------------------------------------------------------------- */
static goal_world *parse_as(const char *text, size_t len, goal_dialect d, goal_error *err) {
    goal_world *w = NULL;
    goal_parse_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.filename = "t.goal"; pd.dialect = d;
    if (goal_parse(text, len, &pd, &w, err) != GOAL_OK) return NULL;
    return w;
}
static goal_world *parse(const char *text) {
    goal_error err;
    goal_world *w = parse_as(text, strlen(text), GOAL_DIALECT_AUTO, &err);
    if (!w) printf("  parse: %s\n", err.msg);
    CHECK(w != NULL);
    return w;
}
/* The text of w in dialect d (NUL-terminated, caller frees). */
static char *write_text(const goal_world *w, goal_dialect d) {
    th_sink s = {0};
    CHECK_EQ(goal_world_write(w, d, th_sink_put, &s), GOAL_OK);
    if (!s.p) s.p = (char *)calloc(1, 1);
    return s.p;
}
static th_sink save(const goal_world *w) {
    th_sink s = {0};
    CHECK_EQ(goal_world_save(w, th_sink_put, &s), GOAL_OK);
    return s;
}
static int same_binary(const goal_world *a, const goal_world *b) {
    th_sink x = save(a), y = save(b);
    int same = x.n == y.n && memcmp(x.p, y.p, x.n) == 0;
    free(x.p); free(y.p);
    return same;
}

/* ---- the paper's examples ------------------------------------------------------------------ */
static const char example2[] =
    "rank #0 {\n"
    "  r1: recv 503,1 from 1;\n"
    "  r2: recv 504,1 from 2;\n"
    "  e1: exec sumInt8 with 501,1 503,1;\n"
    "  e2: exec sumInt8 with 502,1 504,1;\n"
    "  requ e1 -> r1;\n"
    "  requ e2 -> r2;\n"
    "}\n"
    "rank #1, #2 {\n"
    "  send 501,1 to 0;\n"
    "}\n";

static void check_buf(const goal_buf *b, uint32_t slot, uint64_t off, uint64_t size) {
    CHECK_EQ(b->slot, slot); CHECK_EQ(b->offset, off); CHECK_EQ(b->size, size);
}

static void test_example2(void) {
    goal_world *w = parse(example2), *v;
    goal_schedule s;
    goal_action a;
    const uint32_t *d;
    char nb[GOAL_LABEL_MAX], *text, *comma;
    size_t k;
    int r;
    if (!w) return;
    CHECK_EQ(goal_world_nranks(w), 3);
    CHECK_EQ(goal_world_dialect(w), GOAL_DIALECT_PAPER);
    CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 4); CHECK_EQ(s.nedges, 2); CHECK_EQ(s.nindep, 2);
    goal_schedule_action(&s, 0, &a);
    CHECK(a.kind == GOAL_RECV && a.peer == 1 && a.tag == 0); check_buf(&a.buf, 0, 503, 1);
    goal_schedule_action(&s, 1, &a);
    CHECK(a.kind == GOAL_RECV && a.peer == 2); check_buf(&a.buf, 0, 504, 1);
    goal_schedule_action(&s, 2, &a);
    CHECK(a.kind == GOAL_EXEC && a.op == GOAL_OP_SUM && a.dtype == GOAL_INT8);
    check_buf(&a.buf, 0, 501, 1); check_buf(&a.buf2, 0, 503, 1);
    goal_schedule_action(&s, 3, &a);
    check_buf(&a.buf, 0, 502, 1); check_buf(&a.buf2, 0, 504, 1);
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 1); CHECK_EQ(d[0], 2);   /* r1 releases e1 */
    CHECK_EQ(goal_schedule_deps(&s, 1, &d), 1); CHECK_EQ(d[0], 3);   /* r2 releases e2 */
    CHECK_STR(goal_schedule_label(&s, 0, nb), "r1"); CHECK_STR(goal_schedule_label(&s, 1, nb), "r2");
    CHECK_STR(goal_schedule_label(&s, 2, nb), "e1"); CHECK_STR(goal_schedule_label(&s, 3, nb), "e2");
    for (r = 1; r <= 2; r++) {
        CHECK_EQ(goal_world_schedule(w, r, &s), GOAL_OK);
        CHECK_EQ(s.rank, r); CHECK_EQ(s.nactions, 1); CHECK_EQ(s.nedges, 0); CHECK_EQ(s.label_mode, 0);
        goal_schedule_action(&s, 0, &a);
        CHECK(a.kind == GOAL_SEND && a.peer == 0 && a.tag == 0); check_buf(&a.buf, 0, 501, 1);
    }
    text = write_text(w, GOAL_DIALECT_AUTO);
    CHECK_STR(text, example2);                                    /* written as Example 2 writes it */
    free(text);
    /* with a comma between the buffers: the same world, written without it */
    comma = (char *)malloc(sizeof example2 + 8);
    k = (size_t)(strstr(example2, "501,1 503") - example2) + 5;   /* after "with 501,1" */
    snprintf(comma, sizeof example2 + 8, "%.*s,%s", (int)k, example2, example2 + k);
    CHECK(strstr(comma, "with 501,1, 503,1;") != NULL);
    v = parse(comma);
    if (v) {
        CHECK(same_binary(w, v));
        text = write_text(v, GOAL_DIALECT_PAPER);
        CHECK_STR(text, example2);
        free(text);
    }
    goal_world_destroy(v);
    free(comma);
    goal_world_destroy(w);
}

/* The slides' broadcast (ICPP'09 talk, slide 9), with <msg>,<len> = 0,8. */
static void test_slides_bcast(void) {
    static const char text[] =
        "rank #1 { r: recv 0,8 from 0; s1: send 0,8 to 3; s2: send 0,8 to 5; requ s1 -> r; requ s2 -> r; }\n"
        "rank #0 { send 0,8 to 1; send 0,8 to 2; send 0,8 to 4; }\n"
        "rank #5 { recv 0,8 from 1; }\n";
    static const char written[] =
        "rank #0 {\n  send 0,8 to 1;\n  send 0,8 to 2;\n  send 0,8 to 4;\n}\n"
        "rank #1 {\n  r: recv 0,8 from 0;\n  s1: send 0,8 to 3;\n  s2: send 0,8 to 5;\n  requ s1 -> r;\n  requ s2 -> r;\n}\n"
        "rank #5 {\n  recv 0,8 from 1;\n}\n";
    goal_world *w = parse(text), *v;
    goal_schedule s;
    const uint32_t *d;
    goal_action a;
    char *out;
    if (!w) return;
    CHECK_EQ(goal_world_nranks(w), 6);                            /* 1 + the largest rank named */
    CHECK_EQ(goal_world_schedule(w, 2, &s), GOAL_ERR_RANK);
    CHECK_EQ(goal_world_schedule(w, 1, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 3);
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 2); CHECK_EQ(d[0], 1); CHECK_EQ(d[1], 2);
    goal_schedule_action(&s, 2, &a);
    CHECK(a.kind == GOAL_SEND && a.peer == 5);
    CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 3); CHECK_EQ(s.nindep, 3);
    out = write_text(w, GOAL_DIALECT_PAPER);
    CHECK_STR(out, written);
    v = parse(out);
    if (v) CHECK(same_binary(w, v));
    goal_world_destroy(v);
    free(out);
    goal_world_destroy(w);
}

/* ---- the extensions, and conversion to LogGOPSim ----------------------------------------- */
static const char extended[] =
    "num_ranks 5;\n"
    "rank #0 {\n"
    "  a: send 2:16,8 to 3 tag 5 cpu 1 nic 2;\n"
    "  b: recv scratch:0,8 from -1 tag -1;\n"
    "  exec user 7 with 0,8 scratch:0,8;\n"
    "  c: calc 5000000000 cpu 3;\n"
    "  nop;\n"
    "  exec maxFloat64 with 1:0,16 1:16,16;\n"
    "  irequ c -> a;\n"
    "  requ b -> a;\n"
    "}\n"
    "rank #3 {\n"
    "  recv 0,8 from 0 tag 5;\n"
    "}\n";

static void test_extensions(void) {
    static const char as_lgs[] =
        "num_ranks 5\n\nrank 0 {\n"
        "a: send 8b to 3 tag 5 cpu 1 nic 2\n"
        "b: recv 8b from -1 tag -1\n"
        "calc 8\n"
        "c: calc 5000000000 cpu 3\n"
        "calc 0\n"
        "calc 16\n"
        "c irequires a\n"
        "b requires a\n"
        "}\n\nrank 1 {\n}\n\nrank 2 {\n}\n\nrank 3 {\nrecv 8b from 0 tag 5\n}\n\nrank 4 {\n}\n";
    goal_world *w = parse(extended), *v;
    goal_schedule s;
    goal_action a;
    const uint32_t *d;
    char *out;
    if (!w) return;
    CHECK_EQ(goal_world_nranks(w), 5);
    CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 6);
    goal_schedule_action(&s, 0, &a);
    CHECK(a.kind == GOAL_SEND && a.peer == 3 && a.tag == 5 && a.cpu == 1 && a.nic == 2); check_buf(&a.buf, 2, 16, 8);
    goal_schedule_action(&s, 1, &a);
    CHECK(a.kind == GOAL_RECV && a.peer == -1 && a.tag == -1); check_buf(&a.buf, GOAL_SLOT_SCRATCH, 0, 8);
    goal_schedule_action(&s, 2, &a);
    CHECK(a.kind == GOAL_EXEC && a.op == GOAL_OP_USER && a.fn == 7); check_buf(&a.buf2, GOAL_SLOT_SCRATCH, 0, 8);
    goal_schedule_action(&s, 3, &a);
    CHECK(a.kind == GOAL_CALC && a.cost == 5000000000ull && a.cpu == 3);
    goal_schedule_action(&s, 4, &a);
    CHECK(a.kind == GOAL_NOP);
    goal_schedule_action(&s, 5, &a);
    CHECK(a.op == GOAL_OP_MAX && a.dtype == GOAL_FLOAT64); check_buf(&a.buf, 1, 0, 16); check_buf(&a.buf2, 1, 16, 16);
    CHECK_EQ(goal_schedule_deps(&s, 0, &d), 2);
    CHECK_EQ(d[0], 3u | 0x80000000u); CHECK_EQ(d[1], 1);
    CHECK_EQ(goal_schedule_slot_size(&s, 2), 24); CHECK_EQ(goal_schedule_slot_size(&s, 1), 32);
    CHECK_EQ(goal_schedule_slot_size(&s, GOAL_SLOT_SCRATCH), 8);
    out = write_text(w, GOAL_DIALECT_PAPER);
    CHECK_STR(out, extended);
    free(out);
    out = write_text(w, GOAL_DIALECT_LOGGOPSIM);
    CHECK_STR(out, as_lgs);
    v = parse(out);                                               /* the LogGOPSim text reads back */
    if (v) {
        char *again = write_text(v, GOAL_DIALECT_LOGGOPSIM);
        CHECK_STR(again, as_lgs);
        CHECK_EQ(goal_world_dialect(v), GOAL_DIALECT_LOGGOPSIM);
        free(again);
    }
    goal_world_destroy(v);
    free(out);
    goal_world_destroy(w);
}

/* Statements outside any rank block are rank 0; comments; num_ranks; no spaces needed. */
static void test_paper_forms(void) {
    goal_world *w = parse("# a comment\ns: send 0,4 to 1; # another\nx: nop; requ x -> s;"), *v;
    goal_schedule s;
    char *out;
    if (w) {
        CHECK_EQ(goal_world_nranks(w), 2);
        CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_OK);
        CHECK_EQ(s.nactions, 2); CHECK_EQ(s.nedges, 1);
        out = write_text(w, GOAL_DIALECT_PAPER);
        CHECK_STR(out, "rank #0 {\n  s: send 0,4 to 1;\n  x: nop;\n  requ x -> s;\n}\n");
        free(out);
    }
    goal_world_destroy(w);
    w = parse("num_ranks 3;");
    if (w) {
        CHECK_EQ(goal_world_nranks(w), 3);
        out = write_text(w, GOAL_DIALECT_PAPER);
        CHECK_STR(out, "num_ranks 3;\n");
        free(out);
    }
    goal_world_destroy(w);
    w = parse("rank#0{a:send 0,1 to 1;b:recv 0,1 from 1;requ b->a;}rank#1{recv 0,1 from 0;send 0,1 to 0;}");
    v = parse("rank #0 {\n  a: send 0,1 to 1;\n  b: recv 0,1 from 1;\n  requ b -> a;\n}\nrank #1 {\n  recv 0,1 from 0;\n  send 0,1 to 0;\n}\n");
    if (w && v) CHECK(same_binary(w, v));
    goal_world_destroy(w); goal_world_destroy(v);
    /* blocks in any order: the same world */
    w = parse("rank #2 { send 0,1 to 0; }\nrank #0 { nop; }\nrank #3, #1 { calc 1; }");
    v = parse("rank #0 { nop; }\nrank #1 { calc 1; }\nrank #2 { send 0,1 to 0; }\nrank #3 { calc 1; }");
    if (w && v) CHECK(same_binary(w, v));
    goal_world_destroy(w); goal_world_destroy(v);
}

/* ---- every reference LogGOPSim case ------------------------------------------------------ */
static int case_ranks(const char *summary, const char *name) {   /* commsize column, or -1 */
    const char *p = summary;
    size_t n = strlen(name);
    while (p && *p) {
        if (strncmp(p, name, n) == 0 && p[n] == '\t') {
            const char *q = strchr(p + n + 1, '\t');
            return q ? atoi(q + 1) : -1;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return -1;
}
static int no_indentation(const char *t) {
    const char *p;
    for (p = t; *p; p++)
        if ((p == t || p[-1] == '\n') && (*p == ' ' || *p == '\t')) return 0;
    return 1;
}
static void check_case(const char *path, const char *name, const char *summary) {
    size_t len;
    char *text = th_read_file(path, &len), *lgs, *lgs2, *pap, *pap2, *lgs3;
    goal_world *w, *wl, *wp;
    goal_error err;
    int want;
    if (!text) { CHECK(text != NULL); return; }
    w = parse_as(text, len, GOAL_DIALECT_AUTO, &err);
    if (!w) { printf("  %s: %s\n", name, err.msg); CHECK(w != NULL); free(text); return; }
    CHECK_EQ(goal_world_dialect(w), GOAL_DIALECT_LOGGOPSIM);
    want = case_ranks(summary, name);
    if (want > 0) CHECK_EQ(goal_world_nranks(w), want);
    lgs = write_text(w, GOAL_DIALECT_AUTO);
    CHECK(no_indentation(lgs));
    wl = parse(lgs);
    pap = write_text(w, GOAL_DIALECT_PAPER);
    wp = parse(pap);
    if (wl && wp) {
        lgs2 = write_text(wl, GOAL_DIALECT_LOGGOPSIM);
        pap2 = write_text(wp, GOAL_DIALECT_PAPER);
        lgs3 = write_text(wp, GOAL_DIALECT_LOGGOPSIM);
        if (strcmp(lgs, lgs2)) printf("  %s: LogGOPSim text is not a fixed point\n", name);
        CHECK(strcmp(lgs, lgs2) == 0);
        CHECK(strcmp(pap, pap2) == 0);
        CHECK(strcmp(lgs, lgs3) == 0);                            /* LogGOPSim -> paper -> LogGOPSim */
        CHECK(same_binary(w, wl));
        CHECK(same_binary(w, wp));
        free(lgs2); free(pap2); free(lgs3);
    }
    goal_world_destroy(wl); goal_world_destroy(wp);
    free(lgs); free(pap); free(text);
    goal_world_destroy(w);
}
static int check_dir(const char *dir, const char *summary) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".goal")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_case(path, e->d_name, summary);
        n++;
    }
    closedir(d);
    return n;
}
static void test_reference_cases(void) {
    size_t len;
    char *summary = th_read_file("tests/data/loggopsim/summary.tsv", &len);
    int n;
    CHECK(summary != NULL);
    n = check_dir("tests/data/loggopsim/cases", summary);
    CHECK_EQ(n, 154);
    n = check_dir("tests/data/loggopsim/cases/handwritten", summary);
    CHECK_EQ(n, 19);
    free(summary);
}

static void test_lgs_details(void) {
    static const char crlf[] = "// c\r\n/* b\r\n */ num_ranks 2\r\nrank 0 {\r\n  l1: send 1b to 1 tag 3 cpu 1 nic 2 // x\r\n"
                               "\tl2:calc 7 cpu 2\r\nl2 irequires l1\r\n}\r\nrank 1 {\r\nl1:recv1bfrom-1tag-1\r\n}\r\n";
    static const char written[] = "num_ranks 2\n\nrank 0 {\nl1: send 1b to 1 tag 3 cpu 1 nic 2\nl2: calc 7 cpu 2\nl2 irequires l1\n}\n\n"
                                  "rank 1 {\nl1: recv 1b from -1 tag -1\n}\n";
    goal_world *w = parse(crlf);
    goal_schedule s;
    goal_action a;
    goal_error err;
    char *out;
    if (w) {
        out = write_text(w, GOAL_DIALECT_AUTO);
        CHECK_STR(out, written);
        free(out);
        CHECK_EQ(goal_world_schedule(w, 1, &s), GOAL_OK);
        goal_schedule_action(&s, 0, &a);
        CHECK(a.kind == GOAL_RECV && a.peer == -1 && a.tag == -1 && a.buf.size == 1);
    }
    goal_world_destroy(w);
    w = parse("num_ranks 1\nrank 0 {\nsend 9223372036854775807b to 0\n}\n");
    CHECK(w != NULL);
    goal_world_destroy(w);
    w = parse_as("num_ranks 1\nrank 0 {\nsend 9223372036854775808b to 0\n}\n", 52, GOAL_DIALECT_AUTO, &err);
    CHECK(w == NULL);
    CHECK_STR(err.msg, "t.goal: line 3, col 6: a size is out of range (at most 9223372036854775807)");
    /* the dialect can be forced */
    w = parse_as(example2, strlen(example2), GOAL_DIALECT_LOGGOPSIM, &err);
    CHECK(w == NULL);
    CHECK_STR(err.msg, "t.goal: line 1, col 1: expected 'num_ranks' (the LogGOPSim dialect starts with it), found 'rank'");
    w = parse_as("num_ranks 1\nrank 0 {\n}\n", 22, GOAL_DIALECT_PAPER, &err);
    CHECK(w == NULL);
    CHECK_STR(err.msg, "t.goal: line 2, col 1: expected ';', found 'rank'");
}

/* ---- malformed input: status, line, column and message ------------------------------------ */
typedef struct { const char *text; goal_status st; int line, col; const char *msg; } bad_case;
static const bad_case bad[] = {
    /* the paper's dialect */
    {"", GOAL_ERR_SYNTAX, 1, 1, "empty input: expected num_ranks, a rank block or a statement"},
    {"rank #0 { sned 0,1 to 1; }", GOAL_ERR_SYNTAX, 1, 11, "expected send, recv, exec, calc or nop, found 'sned'"},
    {"rank #0 { send 0,1 to 1 }", GOAL_ERR_SYNTAX, 1, 25, "expected ';', found '}'"},
    {"rank #0 { send 0,1 to 1;", GOAL_ERR_SYNTAX, 1, 1, "rank block is never closed: expected '}'"},
    {"rank #0 { send 0,x to 1; }", GOAL_ERR_SYNTAX, 1, 18, "expected a buffer size, found 'x'"},
    {"rank #0 { send 0,1 to 99999999999; }", GOAL_ERR_SYNTAX, 1, 23, "a rank is out of range (at most 2147483647)"},
    {"rank #0 { send 0 to 1; }", GOAL_ERR_SYNTAX, 1, 18, "expected ',' and the buffer size, found 'to'"},
    {"rank #0 { send 0,1 from 1; }", GOAL_ERR_SYNTAX, 1, 20, "expected 'to', found 'from'"},
    {"rank #0 { recv 0,1 to 1; }", GOAL_ERR_SYNTAX, 1, 20, "expected 'from', found 'to'"},
    {"rank #0 {\n  a: nop;\n  requ a -> b;\n}", GOAL_ERR_LABEL, 3, 13, "unknown label 'b' in this rank block"},
    {"rank #0 {\n  a: nop;\n  a: nop;\n}", GOAL_ERR_DUPLABEL, 3, 3, "label 'a' is defined twice in this rank block"},
    {"rank #0 {\n  a: nop;\n  requ a -> a;\n}", GOAL_ERR_SELFDEP, 3, 8, "'a' cannot depend on itself"},
    {"num_ranks 2;\nrank #2 { nop; }", GOAL_ERR_RANK, 2, 7, "rank 2 is out of range (num_ranks is 2)"},
    {"num_ranks 2;\nrank #0 { send 0,1 to 2; }", GOAL_ERR_PEER, 2, 11, "send: peer 2 is out of range (2 ranks)"},
    {"num_ranks 0;", GOAL_ERR_RANK, 1, 11, "num_ranks must be at least 1"},
    {"rank #0 { exec sumFloat16 with 0,2 2,2; }", GOAL_ERR_TYPE, 1, 11, "Float16 is not supported: Float is 32 or 64 bits"},
    {"rank #0 { exec bandFloat32 with 0,4 4,4; }", GOAL_ERR_OP, 1, 11,
     "band is not defined on Float32 (bitwise and logical ops take Int or UInt)"},
    {"rank #0 { exec fooInt8 with 0,1 1,1; }", GOAL_ERR_OP, 1, 16,
     "unknown function 'fooInt8': expected an op (max min sum prod land lor lxor band bor bxor copy) and a type "
     "(Int UInt Float with 8 16 32 64), or user N"},
    {"rank #0 { exec sumInt32 with 0,4 4,8; }", GOAL_ERR_SIZE, 1, 11, "exec sumInt32: both buffers must hold the same number of elements"},
    {"rank #0 { exec sumInt8 0,1 1,1; }", GOAL_ERR_SYNTAX, 1, 24, "expected 'with', found '0'"},
    {"rank #0 {\n  a: nop;\n  b: nop;\n  requ a -> b;\n  requ b -> a;\n}", GOAL_ERR_CYCLE, 2, 3,
     "rank 0: dependency cycle: a requires b requires a"},
    {"rank #0 { a: nop; b: nop; irequ a -> b; irequ b -> a; }", GOAL_ERR_CYCLE, 1, 11, "rank 0: dependency cycle: a requires b requires a"},
    {"rank #0 { nop; }\nrank #0 { nop; }", GOAL_ERR_SYNTAX, 2, 1, "rank 0 has two blocks"},
    {"rank #3 { nop; }\nrank #1 { nop; }\nrank #2 { nop; }\nrank #1 { nop; }", GOAL_ERR_SYNTAX, 4, 1, "rank 1 has two blocks"},
    {"rank #0 { send 0,1 to 1 tag -2; }", GOAL_ERR_SYNTAX, 1, 29, "expected tag, found '-2'"},
    {"rank #0 { send 0,1 to 1 cpu 256; }", GOAL_ERR_SYNTAX, 1, 29, "cpu is out of range (at most 255)"},
    {"rank #0 { calc 5 nic 1; }", GOAL_ERR_SYNTAX, 1, 18, "expected ';', found 'nic'"},
    {"rank #0 { 70000:0,1 }", GOAL_ERR_SYNTAX, 1, 11,
     "expected a statement (send, recv, exec, calc, nop, requ, irequ or a label), found '70000'"},
    {"rank #0 { send 70000:0,1 to 0; }", GOAL_ERR_ARG, 1, 21, "slot 70000 does not exist (0..65534 or scratch)"},
    {"rank #0 { send 9223372036854775807,1 to 0; }", GOAL_ERR_SIZE, 1, 11, "send: offset + size overflows (limit 2^63-1 bytes)"},
    {"rank #0 { send: nop; }", GOAL_ERR_ARG, 1, 11, "label 'send': a keyword cannot be a label"},
    {"rank #0 { requ a b; }", GOAL_ERR_SYNTAX, 1, 18, "expected '->', found 'b'"},
    {"nop;\nrank #1 { nop; }", GOAL_ERR_SYNTAX, 2, 1, "rank blocks cannot follow statements outside a rank block"},
    {"rank #0 { nop; } }", GOAL_ERR_SYNTAX, 1, 18, "expected 'rank' or the end of the file, found '}'"},
    {"rank #0 { send -1,1 to 0; }", GOAL_ERR_SYNTAX, 1, 16, "expected a buffer address, found '-1'"},
    {"rank #0 { recv 0,1 from -1 tag -1; send 0,1 to -1; }", GOAL_ERR_PEER, 1, 36, "send: a send needs a peer (any source is for recv)"},
    {"rank #0 { x: calc; }", GOAL_ERR_SYNTAX, 1, 18, "expected a cost, found ';'"},
    {"rank #0 { calc 99999999999999999999; }", GOAL_ERR_SYNTAX, 1, 16, "cost is out of range"},
    {"rank #0, #1, { nop; }", GOAL_ERR_SYNTAX, 1, 14, "expected '#' and a rank number, found '{'"},
    {"rank #0 { exec user with 0,1 1,1; }", GOAL_ERR_SYNTAX, 1, 21, "expected a user function number, found 'with'"},
    {"rank #0 { exec sumInt8 with scratch 0,1 1,1; }", GOAL_ERR_SYNTAX, 1, 37, "expected ':' after scratch, found '0'"},
    {"rank #0 { l1: nop; }\n\n  rank #1 { x: nop; y: nop; requ x -> l1; }", GOAL_ERR_LABEL, 3, 39, "unknown label 'l1' in this rank block"},
    /* LogGOPSim's dialect */
    {"num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\n}\n", GOAL_ERR_SYNTAX, 5, 1, "the file ends before rank block 1 (num_ranks is 2)"},
    {"num_ranks 2\nrank 0 {\n}\nrank 2 {\n}\n", GOAL_ERR_SYNTAX, 4, 6, "rank block 1 expected here (blocks come in order 0..1)"},
    {"num_ranks 2\nrank 1 {\n}\nrank 0 {\n}\n", GOAL_ERR_SYNTAX, 2, 6, "rank block 0 expected here (blocks come in order 0..1)"},
    {"num_ranks 1\nrank 0 {\nl1: send 1 to 0\n}\n", GOAL_ERR_SYNTAX, 3, 11, "expected 'b' after the size, found ' '"},
    {"num_ranks 1\nrank 0 {\nl1: send 1b too 0\n}\n", GOAL_ERR_SYNTAX, 3, 15, "expected a rank, found 'o'"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1\nl1: calc 2\n}\n", GOAL_ERR_DUPLABEL, 4, 1, "label 'l1' is defined twice in this rank block"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1\nl1 requires l2\n}\n", GOAL_ERR_LABEL, 4, 13, "unknown label 'l2' in this rank block"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1\nl1 requires l1\n}\n", GOAL_ERR_SELFDEP, 4, 1, "'l1' cannot depend on itself"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 1\nl1 requires l2\nl2 requires l1\n}\n", GOAL_ERR_CYCLE, 3, 1,
     "rank 0: dependency cycle: l1 requires l2 requires l1"},
    {"num_ranks 1\nrank 0 {\n/* never closed\n}\n", GOAL_ERR_SYNTAX, 3, 1, "comment '/*' is never closed"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1 // trailing\nl1 needs l2\n}\n", GOAL_ERR_SYNTAX, 4, 4, "expected ':', 'requires' or 'irequires', found 'needs'"},
    {"num_ranks 1\nrank 0 {\nl1: send 1b to 1\n}\n", GOAL_ERR_PEER, 3, 1, "send: peer 1 is out of range (1 ranks)"},
    {"num_ranks 0\n", GOAL_ERR_RANK, 1, 11, "num_ranks must be at least 1"},
    {"num_ranks 1\nrank 0 {\nl1: calc 1 nic 2\n}\n", GOAL_ERR_SYNTAX, 3, 12, "expected the end of the line, found 'nic'"},
    {"num_ranks 1\nrank 0 {\nl1: recv 1b from 0 tag 0 nic 0 cpu 1\n}\n", GOAL_ERR_SYNTAX, 3, 32, "expected the end of the line, found 'cpu'"},
    {"num_ranks 1\nrank 0 {\n}\nrank 1 {\n}\n", GOAL_ERR_SYNTAX, 4, 1, "text after the last rank block (num_ranks is 1)"},
    {"num_ranks 1\nrank 0 {\nl1: send 1b to 0\n", GOAL_ERR_SYNTAX, 2, 6, "rank block 0 is never closed: expected '}'"},
    {"num_ranks 1 rank 0 {\n}\n", GOAL_ERR_SYNTAX, 1, 13, "expected the end of the line, found 'rank'"},
    {"num_ranks 1\nrank 0 {\nl1: recv 1b from -2\n}\n", GOAL_ERR_SYNTAX, 3, 18, "expected a rank, found '-2'"},
    {"num_ranks 1\nrank 0 {\nsend: calc 1\n}\n", GOAL_ERR_ARG, 3, 1, "label 'send': a keyword cannot be a label"},
    {"num_ranks 1\nrank 0 {\r\nl1: calc x\r\n}\r\n", GOAL_ERR_SYNTAX, 3, 10, "expected a cost, found 'x'"},
    {"num_ranks 1\nrank 0\n}\n", GOAL_ERR_SYNTAX, 2, 7, "expected '{', found the end of the line"},
    {"num_ranks 5\nrank 0 {\n}\n", GOAL_ERR_SYNTAX, 1, 11, "num_ranks 5, but the rest of the file cannot hold that many rank blocks"},
    {"num_ranks 1\nrank 0 {\nl1: send 1b to 0 tag 2147483648\n}\n", GOAL_ERR_SYNTAX, 3, 22, "a tag is out of range (at most 2147483647)"},
    /* a byte that is no text is shown escaped, the message one line of text */
    {"rank #0 { \xff }", GOAL_ERR_SYNTAX, 1, 11, "expected a statement (send, recv, exec, calc, nop, requ, irequ or a label), found '\\xff'"},
    {"rank #0 { send 0,1 to 0 \x1b; }", GOAL_ERR_SYNTAX, 1, 25, "expected ';', found '\\x1b'"},
};
/* A NUL byte (which the table's C strings cannot hold): found '\0'. */
static void test_error_nul(void) {
    goal_error err;
    goal_world *w = parse_as("rank #0 { \0 }", 13, GOAL_DIALECT_AUTO, &err);
    CHECK(w == NULL);
    CHECK_STR(err.msg, "t.goal: line 1, col 11: expected a statement (send, recv, exec, calc, nop, requ, irequ or a label), found '\\0'");
}

static void test_error_table(void) {
    size_t k;
    CHECK(sizeof bad / sizeof bad[0] >= 66);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        goal_error err;
        goal_world *w = parse_as(bad[k].text, strlen(bad[k].text), GOAL_DIALECT_AUTO, &err);
        char want[GOAL_MSG_MAX + 64];
        snprintf(want, sizeof want, "t.goal: line %d, col %d: %s", bad[k].line, bad[k].col, bad[k].msg);
        CHECK(w == NULL);
        goal_world_destroy(w);
        if (err.status != bad[k].st || err.line != bad[k].line || err.col != bad[k].col || strcmp(err.msg, want))
            printf("  case %lu: %s\n", (unsigned long)k, err.msg);
        CHECK_EQ(err.status, bad[k].st);
        CHECK_EQ(err.line, bad[k].line);
        CHECK_EQ(err.col, bad[k].col);
        CHECK_STR(err.msg, want);
    }
}

/* Arbitrary prefixes of valid text fail cleanly or parse; none crashes or leaks. */
static void test_prefixes(void) {
    const char *texts[3];
    size_t len;
    char *big = th_read_file("tests/data/loggopsim/cases/dissemination_p8_d1.goal", &len);
    int t;
    texts[0] = extended; texts[1] = example2; texts[2] = big;
    CHECK(big != NULL);
    for (t = 0; t < (th_full() && big ? 3 : 2); t++) {
        size_t n, len = strlen(texts[t]);
        for (n = 0; n <= len; n++) {
            th_counter c;
            goal_parse_desc pd;
            goal_world *w = NULL;
            goal_error err;
            goal_status st;
            memset(&pd, 0, sizeof pd);
            pd.alloc = th_counting(&c, -1);
            st = goal_parse(texts[t], n, &pd, &w, &err);
            CHECK(st == GOAL_OK ? w != NULL : (w == NULL && err.line >= 1 && strstr(err.msg, "line") != NULL));
            goal_world_destroy(w);
            CHECK_EQ(c.allocs, c.frees);
        }
    }
    free(big);
}

/* ---- op x type by name --------------------------------------------------------------------- */
static void test_op_type_text(void) {
    static const char *const ops[] = {"max", "min", "sum", "prod", "land", "lor", "lxor", "band", "bor", "bxor", "copy"};
    static const char *const types[] = {"Int", "UInt", "Float"};
    static const int bits[] = {8, 16, 32, 64};
    int o, t, b, accepted = 0;
    for (o = 0; o < 11; o++)
        for (t = 0; t < 3; t++)
            for (b = 0; b < 4; b++) {
                char text[128], stmt[96];
                goal_error err;
                goal_world *w;
                int bytes = bits[b] / 8, want_type = t == 2 && bits[b] < 32, want_op = t == 2 && o >= 4 && o <= 9;
                snprintf(stmt, sizeof stmt, "  exec %s%s%d with 0,%d %d,%d;\n", ops[o], types[t], bits[b], 2 * bytes, 2 * bytes, 2 * bytes);
                snprintf(text, sizeof text, "rank #0 {\n%s}\n", stmt);
                w = parse_as(text, strlen(text), GOAL_DIALECT_AUTO, &err);
                if (want_type) {
                    CHECK(w == NULL); CHECK_EQ(err.status, GOAL_ERR_TYPE); CHECK(strstr(err.msg, "is not supported: Float is 32 or 64 bits") != NULL);
                } else if (want_op) {
                    CHECK(w == NULL); CHECK_EQ(err.status, GOAL_ERR_OP); CHECK(strstr(err.msg, "is not defined on Float") != NULL);
                } else {
                    goal_schedule s;
                    goal_action a;
                    char *out;
                    CHECK(w != NULL);
                    if (!w) continue;
                    accepted++;
                    goal_world_schedule(w, 0, &s);
                    goal_schedule_action(&s, 0, &a);
                    CHECK_STR(goal_op_name(a.op), ops[o]);
                    CHECK_EQ((int)a.dtype >> 4, t); CHECK_EQ(goal_dtype_size(a.dtype), (size_t)bytes);
                    out = write_text(w, GOAL_DIALECT_PAPER);
                    CHECK_STR(out, text);
                    free(out);
                }
                goal_world_destroy(w);
            }
    CHECK_EQ(accepted, 5 * 10 + 6 * 8);
}

/* ---- sparse worlds, many ranks per body -------------------------------------------------- */
static void test_sparse_text(void) {
    th_counter bc;
    goal_parse_desc pd;
    goal_world *w = NULL;
    goal_schedule s;
    goal_error err;
    th_sink out = {0};
    char *text;
    memset(&pd, 0, sizeof pd);
    pd.alloc = th_counting(&bc, -1);
    CHECK_EQ(goal_parse("rank#999999991{}", 16, &pd, &w, &err), GOAL_OK);
    CHECK_EQ(goal_world_nranks(w), 999999992);
    CHECK_EQ(goal_world_schedule(w, 999999991, &s), GOAL_OK);
    CHECK_EQ(s.nactions, 0);
    CHECK(bc.bytes < 65536);                                      /* memory follows the content */
    text = write_text(w, GOAL_DIALECT_PAPER);
    CHECK_STR(text, "num_ranks 999999992;\n");
    free(text);
    out.fail_at = 4;                                              /* the text would be 14 GB */
    CHECK_EQ(goal_world_write(w, GOAL_DIALECT_LOGGOPSIM, th_sink_put, &out), GOAL_ERR_IO);
    CHECK(out.n >= 3 * 65536 && out.n < 4 * 65536 + 64);         /* written in 64 KB pieces */
    free(out.p);
    goal_world_destroy(w);
    w = parse("rank #2000000000 { send 0,1 to 3; }\nrank #5 { nop; }\n");
    if (w) {
        CHECK_EQ(goal_world_nranks(w), 2000000001);
        text = write_text(w, GOAL_DIALECT_PAPER);
        CHECK_STR(text, "rank #5 {\n  nop;\n}\nrank #2000000000 {\n  send 0,1 to 3;\n}\n");
        free(text);
    }
    goal_world_destroy(w);
}

static void test_rank_groups(void) {
    char *text = (char *)malloc(200 * 40), *out, *p = text;
    goal_world *w, *v;
    int r;
    for (r = 0; r < 130; r++) p += sprintf(p, "rank #%d { send 0,1 to 0; }\n", r);
    w = parse(text);
    if (w) {
        out = write_text(w, GOAL_DIALECT_PAPER);
        CHECK(strncmp(out, "rank #0, #1, #2,", 16) == 0);
        CHECK(strstr(out, ", #63 {\n") != NULL);
        CHECK(strstr(out, "}\nrank #64, #65,") != NULL);
        CHECK(strstr(out, "}\nrank #128, #129 {\n") != NULL);
        v = parse(out);                                           /* at most 64 ranks per block */
        if (v) CHECK(same_binary(w, v));
        goal_world_destroy(v);
        free(out);
    }
    goal_world_destroy(w);
    free(text);
}

/* ---- allocation failure and write errors -------------------------------------------------- */
static void test_nomem_text(void) {
    const char *texts[3];
    int t;
    texts[0] = example2; texts[1] = extended;
    texts[2] = "num_ranks 2\nrank 0 {\nl1: send 1b to 1\nl2: calc 5\nl2 requires l1\n}\nrank 1 {\nrecv 1b from 0\n}\n";
    for (t = 0; t < 3; t++) {
        th_counter c;
        goal_parse_desc pd;
        goal_world *w = NULL;
        goal_error err;
        goal_status st;
        long k;
        memset(&pd, 0, sizeof pd);
        pd.alloc = th_counting(&c, -1);
        for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
            c.allocs = c.frees = 0;
            c.fail_after = k;
            st = goal_parse(texts[t], strlen(texts[t]), &pd, &w, &err);
            if (st == GOAL_ERR_NOMEM) { CHECK(w == NULL); CHECK_EQ(c.allocs, c.frees); CHECK(strstr(err.msg, "out of memory") != NULL); }
        }
        CHECK_EQ(st, GOAL_OK);
        CHECK(k > 5);
        c.fail_after = -1;
        for (k = 0, st = GOAL_ERR_NOMEM; st == GOAL_ERR_NOMEM; k++) {
            goal_dialect d = k % 2 ? GOAL_DIALECT_LOGGOPSIM : GOAL_DIALECT_PAPER;
            th_sink out = {0};
            long before = c.allocs - c.frees;
            c.fail_after = c.allocs + k / 2;
            st = goal_world_write(w, d, th_sink_put, &out);
            if (st == GOAL_OK && d == GOAL_DIALECT_PAPER) st = GOAL_ERR_NOMEM;   /* go on until both succeed */
            c.fail_after = -1;
            CHECK_EQ(c.allocs - c.frees, before);
            free(out.p);
        }
        goal_world_destroy(w);
        CHECK_EQ(c.allocs, c.frees);
    }
}

static void test_write_errors(void) {
    goal_world *w = parse(example2);
    goal_schedule s;
    th_sink out = {0};
    goal_error err;
    if (!w) return;
    out.fail_at = 1;
    CHECK_EQ(goal_world_write(w, GOAL_DIALECT_PAPER, th_sink_put, &out), GOAL_ERR_IO);
    out.calls = 0;
    CHECK_EQ(goal_world_write(w, GOAL_DIALECT_LOGGOPSIM, th_sink_put, &out), GOAL_ERR_IO);
    CHECK_EQ(goal_world_write(NULL, GOAL_DIALECT_PAPER, th_sink_put, &out), GOAL_ERR_ARG);
    CHECK_EQ(goal_world_write(w, GOAL_DIALECT_PAPER, NULL, &out), GOAL_ERR_ARG);
    out.fail_at = 0;
    CHECK_EQ(goal_world_schedule(w, 0, &s), GOAL_OK);
    CHECK_EQ(goal_schedule_write(&s, GOAL_DIALECT_LOGGOPSIM, th_sink_put, &out), GOAL_OK);
    CHECK_STR(out.p, "rank 0 {\nr1: recv 1b from 1 tag 0\nr2: recv 1b from 2 tag 0\ne1: calc 1\ne2: calc 1\n"
                     "e1 requires r1\ne2 requires r2\n}\n");
    out.n = 0;
    CHECK_EQ(goal_world_schedule(w, 2, &s), GOAL_OK);
    CHECK_EQ(goal_schedule_write(&s, GOAL_DIALECT_PAPER, th_sink_put, &out), GOAL_OK);
    CHECK_STR(out.p, "rank #2 {\n  send 501,1 to 0;\n}\n");
    CHECK_EQ(goal_schedule_write(NULL, GOAL_DIALECT_PAPER, th_sink_put, &out), GOAL_ERR_ARG);
    goal_world_destroy(w);
    w = NULL;
    CHECK_EQ(goal_parse("x", 1, NULL, NULL, &err), GOAL_ERR_ARG);
    CHECK_EQ(goal_parse(NULL, 3, NULL, &w, &err), GOAL_ERR_ARG);
    CHECK(w == NULL);
    free(out.p);
}

int main(void) {
    RUN(test_example2);
    RUN(test_slides_bcast);
    RUN(test_extensions);
    RUN(test_paper_forms);
    RUN(test_reference_cases);
    RUN(test_lgs_details);
    RUN(test_error_table);
    RUN(test_error_nul);
    RUN(test_prefixes);
    RUN(test_op_type_text);
    RUN(test_sparse_text);
    RUN(test_rank_groups);
    RUN(test_nomem_text);
    RUN(test_write_errors);
    return th_done();
}
