/* A progress line for long runs: when a verb has run for ~2 s and standard error is a
   terminal, "goal VERB: running, N s" is shown and refreshed every second, then erased.
   GOAL_PROGRESS_AFTER=MS changes the 2 s (the tests use 0). Meanwhile the verb's standard
   output and error are buffered, so that nothing it prints lands on the progress line. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

typedef struct progress {
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    int done, shown;
    const char *verb;
    unsigned long count, total;   /* cli_progress_count: how far, when the verb says */
    const char *what;
    long after_ms;
} progress;

/* Waits until ms after start or until the verb is done; returns done. Holds p->lock. */
static int wait_until(progress *p, const struct timespec *start, long ms) {
    struct timespec t = *start;
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
    while (!p->done && pthread_cond_timedwait(&p->done_cv, &p->lock, &t) == 0) {}
    return p->done;
}

/* "goal VERB: running, S s[, COUNT of TOTAL WHAT]" over the line. Holds p->lock. */
static void progress_draw(progress *p, long s) {
    char line[160], count[96] = "";
    int n;
    if (p->total) snprintf(count, sizeof count, ", %lu of %lu %s", p->count, p->total, p->what);
    n = snprintf(line, sizeof line, "\rgoal %s: running, %ld s%s ", p->verb, s, count);
    p->shown = write(2, line, (size_t)n) == n;
}
static void *progress_main(void *arg) {
    progress *p = (progress *)arg;
    struct timespec start;
    long ms;
    clock_gettime(CLOCK_REALTIME, &start);
    pthread_mutex_lock(&p->lock);
    for (ms = p->after_ms; ms == 0 || !wait_until(p, &start, ms); ms += 1000) progress_draw(p, ms / 1000);   /* 0: at once */
    if (p->shown && p->total) progress_draw(p, ms / 1000);   /* the count reached, however short the run */
    if (p->shown && write(2, "\r\033[K", 4) != 4) p->shown = 0;   /* erased: the output follows */
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Reads the verb a terminal (FILE "-")? Then it waits for a person, not a computation. */
static int reads_terminal(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] == 0) return isatty(0);
    return 0;
}

/* The progress line of this process's verb, while one runs (the tool runs one verb). */
static struct { progress p; pthread_t th; int running; } cli_prog;

void cli_progress_end(void) {
    progress *p = &cli_prog.p;
    if (!cli_prog.running) return;
    cli_prog.running = 0;
    pthread_mutex_lock(&p->lock);
    p->done = 1;
    pthread_cond_signal(&p->done_cv);
    pthread_mutex_unlock(&p->lock);
    pthread_join(cli_prog.th, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->done_cv);
}

void cli_progress_count(unsigned long count, unsigned long total, const char *what) {
    progress *p = &cli_prog.p;
    if (!cli_prog.running) return;
    pthread_mutex_lock(&p->lock);
    p->count = count;
    p->total = total;
    p->what = what;
    pthread_mutex_unlock(&p->lock);
}

int cli_progress_run(cli_verb_fn fn, int argc, char **argv) {
    progress *p = &cli_prog.p;
    const char *env = getenv("GOAL_PROGRESS_AFTER");
    int rc;
    static char outbuf[1 << 16], errbuf[1 << 12];
    if (!isatty(2) || reads_terminal(argc, argv)) return fn(argc, argv);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
    p->done = p->shown = 0;
    p->total = 0;
    p->verb = argv[0];
    p->after_ms = env && *env ? atol(env) : 2000;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    if (pthread_create(&cli_prog.th, NULL, progress_main, p) != 0) return fn(argc, argv);
    cli_prog.running = 1;
    rc = fn(argc, argv);
    cli_progress_end();
    fflush(stderr);
    fflush(stdout);
    return rc;
}
