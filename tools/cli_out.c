/* The output of every verb: files named with -o written through a temporary file, and a
   world as text. */
#define _XOPEN_SOURCE 700   /* mkstemp, fchmod, lstat, realpath */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

/* Files named with -o are written to OUT.tmp.XXXXXX in the same directory and renamed to
   OUT when complete, so a failed write or an interrupt never leaves a truncated OUT. What OUT
   names is kept: a symbolic link's target is written that way (the link stays), an existing
   file keeps its mode, and a device, a FIFO or a file with other hard links is written
   directly (a rename would replace it). The few files open at once are listed here, for
   cli_finish_out and for the signal handler; tmp is NULL when written directly. */
enum { CLI_MAX_OUT = 8 };
static struct { FILE *f; char *tmp, *target; const char *final; } cli_outs[CLI_MAX_OUT];
static void cli_on_signal(int sig) {
    int k;
    for (k = 0; k < CLI_MAX_OUT; k++)
        if (cli_outs[k].f && cli_outs[k].tmp) unlink(cli_outs[k].tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}
static void cli_catch(int sig) {   /* a signal ignored when we started stays ignored */
    if (signal(sig, cli_on_signal) == SIG_IGN) signal(sig, SIG_IGN);
}
/* The temporary file next to target, with the mode an existing target has (else what a
   plain fopen would give); its FILE, or NULL with errno set. */
static FILE *cli_open_tmp(char *tmp, const char *target, const struct stat *old) {
    mode_t mask = umask(0);
    int fd;
    FILE *f;
    umask(mask);
    sprintf(tmp, "%s.tmp.XXXXXX", target);
    if ((fd = mkstemp(tmp)) < 0) return NULL;
    if (fchmod(fd, old ? old->st_mode & 0777 : 0666 & ~mask) != 0 || !(f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
        return NULL;
    }
    return f;
}
/* Opens slot k for path: directly, or through a temporary file next to what path names. */
static FILE *cli_open_slot(int k, const char *path) {
    struct stat st;
    int exists = stat(path, &st) == 0;
    char *target = NULL;
    if (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1)) return fopen(path, "wb");   /* written where it is */
    if (exists && !(target = realpath(path, NULL))) return NULL;   /* through symbolic links: the file itself */
    if (!exists && errno != ENOENT) return NULL;   /* a loop of links, a path through a file: said as fopen would */
    if (!exists && errno == ENOENT && lstat(path, &st) == 0) return fopen(path, "wb");   /* a dangling link: creates its target */
    if (!(cli_outs[k].tmp = (char *)malloc(strlen(target ? target : path) + 12))) { free(target); errno = ENOMEM; return NULL; }
    cli_outs[k].target = target;
    if ((cli_outs[k].f = cli_open_tmp(cli_outs[k].tmp, target ? target : path, exists ? &st : NULL)) != NULL) return cli_outs[k].f;
    free(cli_outs[k].tmp);
    free(target);
    cli_outs[k].tmp = cli_outs[k].target = NULL;
    return NULL;
}
void *cli_open_out(const char *path) {
    int k;
    if (!path || strcmp(path, "-") == 0) return stdout;
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f; k++) {}
    if (k == CLI_MAX_OUT) { cli_fail("%s: too many files open for writing", path); return NULL; }
    cli_catch(SIGINT);
    cli_catch(SIGTERM);
    signal(SIGXFSZ, SIG_IGN);   /* a file size limit is a write error (EFBIG), not death */
    if (!(cli_outs[k].f = cli_open_slot(k, path))) { cli_fail("%s: cannot open for writing: %s", path, strerror(errno)); return NULL; }
    cli_outs[k].final = path;
    return cli_outs[k].f;
}
int cli_finish_out(void *f, int keep) {
    int bad = ferror((FILE *)f), k;
    if (f == stdout) {
        cli_progress_end();   /* the progress line goes before the output reaches the terminal */
        return (bad | (fflush(stdout) != 0)) ? cli_fail("write error") : CLI_OK;
    }
    for (k = 0; k < CLI_MAX_OUT && cli_outs[k].f != f; k++) {}
    if (k == CLI_MAX_OUT) return cli_fail("write error");
    bad |= fclose((FILE *)f) != 0;
    if (cli_outs[k].tmp && (bad || !keep)) unlink(cli_outs[k].tmp);
    else if (cli_outs[k].tmp && rename(cli_outs[k].tmp, cli_outs[k].target ? cli_outs[k].target : cli_outs[k].final) != 0) {
        bad = 1;
        cli_fail("%s: cannot rename %s to it: %s", cli_outs[k].final, cli_outs[k].tmp, strerror(errno));
        unlink(cli_outs[k].tmp);
    }
    free(cli_outs[k].tmp);
    free(cli_outs[k].target);
    cli_outs[k].tmp = cli_outs[k].target = NULL;
    cli_outs[k].f = NULL;
    return bad ? cli_fail("%s: write error", cli_outs[k].final) : CLI_OK;
}
int cli_close_out(void *f) { return cli_finish_out(f, 1); }
int cli_write_file(void *user, const char *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : -1;
}

int cli_write_world(const goal_world *w, goal_dialect d, const char *out) {
    void *f = cli_open_out(out);
    goal_status st;
    if (!f) return CLI_BAD_INPUT;
    st = goal_world_write(w, d, cli_write_file, f);
    if (cli_finish_out(f, st == GOAL_OK) || st != GOAL_OK) return st != GOAL_OK ? cli_fail("%s", goal_strerror(st)) : CLI_BAD_INPUT;
    return CLI_OK;
}
