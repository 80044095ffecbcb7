/* goal-probe: measures the LogGOPS parameters between two MPI ranks and prints them as one
   line of `goal sim` options (-R, the rendezvous handshake, only when the ping-pong shows
   one; -E -F, what libgoal adds, unless --bare), then the runs of S and R, the fit's
   residuals and the measured curves (# lines).
     mpirun -np 2 build/openmpi/goal-probe [-o FILE] [--max-size BYTES] [--bare] [--two-regimes]
   -o FILE writes the params line alone to FILE (what --params FILE reads; it is opened
   first, so that a path that cannot be written fails before the measurement). Rank 0 runs the
   measurements of tools/probe.h; rank 1 serves them: for each one rank 0 first sends a
   command (what, size, count, delay, path), then both sides do their part. Times: the
   fastest of the repetitions (MPI_Wtime), as preemption on a shared machine only ever adds
   time. The LogGOPS parameters (L o g G O S R) are the library's own, measured on bare MPI
   calls (MPI_Send / MPI_Recv, a C loop); what libgoal adds to them is measured apart on
   libgoal's own path, the one the collectives and COLL_auto take (a schedule of the
   measurement's sends and receives, run with goal_mpi_run): -F, an empty call (cache
   lookup, executor start, completion), and -E, its send and receive overheads and its
   ping-pong less the bare ones (tools/probe.h). So the model predicts what goal_mpi runs, and without -E -F it
   is the library's LogGOPS. --bare leaves libgoal's path out (no -E -F; C then from a C loop).
   The local exec cost C (-C) is rank 0's own: a sum of doubles into a buffer (an exec
   action, GOAL_OP_SUM on Float64), what libgoal's executor runs for a reduction; K (-K) a
   copy's (GOAL_OP_COPY), and a # line a copy's cost per byte at the largest size. One-way messages and exchanges (both
   ranks at once) are bare MPI calls: --shared-memory is in the line when an exchange costs
   about twice a one-way message.
   --two-regimes puts the costs per byte by size (-T -H, a table, tools/probe.h) in the line
   when a single message's time shows them; without it a # line names them. The simulator
   prices a rendezvous message at the rate of all the data its ranks touch (goal_sim.h), so
   the pieces of a split message cost what the whole does. The default line has one G
   (docs/model.md, "-T -H and split messages"). */
#define _POSIX_C_SOURCE 200809L   /* open, fdopen, ftruncate: -o FILE is opened before measuring */
#define GOAL_ALL_IMPLEMENTATION
#include "../goal_mpi.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../tools/probe.h"

enum { CMD_QUIT, CMD_PINGPONG, CMD_SEND, CMD_RECV, CMD_BURST, CMD_EXEC, CMD_COPY, CMD_NOP, CMD_ONEWAY, CMD_EXCHANGE };
typedef struct probe_mpi {
    char *buf;                 /* slot 0: what is sent, received, reduced from */
    double *acc;               /* slot 1: the local exec's result */
    uint64_t max_size;
    double *t;                 /* one time per repetition */
    goal_mpi *gm;              /* libgoal's path; NULL: bare MPI alone (--bare) */
    int via;                   /* the next command goes through gm */
} probe_mpi;
typedef struct probe_cmd { int what, rank, size, n; } probe_cmd;   /* a schedule's key */

static void spin(double ns) {
    double end = MPI_Wtime() + ns * 1e-9;
    while (MPI_Wtime() < end) {}
}
/* The fastest repetition: on a shared machine the others mostly measure the scheduler. */
static double min_ns(const double *t, int n) {
    double m = t[0];
    int k;
    for (k = 1; k < n; k++) m = t[k] < m ? t[k] : m;
    return m * 1e9;
}

/* This rank's part of a command as a schedule, in the order of the bare MPI calls below:
   rank 0 sends (burst: n sends) and/or receives, rank 1 mirrors it; a burst ends with a
   0-byte reply once rank 1 received all n; exec and copy are local, at least one double. */
static int32_t probe_build(goal_graph *g, const void *args, goal_error *err) {
    const probe_cmd *c = (const probe_cmd *)args;
    goal_buf b = goal_buffer(0, 0, (uint64_t)c->size), e = goal_buffer(0, 0, 0);
    goal_buf ex = goal_buffer(0, 0, c->size >= 8 ? (uint64_t)c->size / 8 * 8 : 8), acc = goal_buffer(1, 0, ex.size);
    int32_t a = -1, last = -1;
    int k, peer = 1 - c->rank;
    (void)err;
    if (c->what == CMD_NOP) return goal_graph_nop(g);
    if (c->what == CMD_EXEC) return goal_graph_exec(g, GOAL_OP_SUM, GOAL_FLOAT64, acc, ex);
    if (c->what == CMD_COPY) return goal_graph_exec(g, GOAL_OP_COPY, GOAL_UINT8, goal_buffer(1, 0, (uint64_t)c->size), b);
    if (c->what == CMD_PINGPONG) {
        a = c->rank == 0 ? goal_graph_send(g, b, peer, 0) : goal_graph_recv(g, b, peer, 0);
        last = c->rank == 0 ? goal_graph_recv(g, b, peer, 0) : goal_graph_send(g, b, peer, 0);
        return goal_graph_requires(g, last, a) == GOAL_OK ? last : goal_graph_status(g);
    }
    if (c->what != CMD_BURST)
        return (c->what == CMD_SEND) == (c->rank == 0) ? goal_graph_send(g, b, peer, 0) : goal_graph_recv(g, b, peer, 0);
    last = c->rank == 0 ? goal_graph_recv(g, e, peer, 1) : goal_graph_send(g, e, peer, 1);
    for (k = 0; k < c->n; k++) {
        a = c->rank == 0 ? goal_graph_send(g, b, peer, 0) : goal_graph_recv(g, b, peer, 0);
        if (c->rank == 1 && goal_graph_requires(g, last, a) != GOAL_OK) break;
    }
    return goal_graph_status(g) == GOAL_OK ? last : goal_graph_status(g);
}
/* The command through libgoal: goal_mpi_run of its schedule (cached after the first). */
static void via_goal(probe_mpi *m, int rank, int what, int size, int n) {
    probe_cmd c;
    goal_slot slots[2];
    goal_mpi_coll coll;
    memset(&c, 0, sizeof c);
    c.what = what; c.rank = rank; c.size = size; c.n = n;
    slots[0].data = m->buf; slots[0].size = m->max_size + sizeof(double);
    slots[1].data = m->acc; slots[1].size = (m->max_size / sizeof(double) + 1) * sizeof(double);
    memset(&coll, 0, sizeof coll);
    coll.build_fn = probe_build; coll.args = &c; coll.key = &c; coll.keylen = sizeof c;
    coll.slots = slots; coll.nslots = 2;
    if (goal_mpi_run(m->gm, &coll) != GOAL_OK) {
        fprintf(stderr, "goal-probe: rank %d: %s\n", rank, goal_mpi_error(m->gm)->msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}
/* acc[i] += in[i] over s bytes of doubles (at least one). */
static void reduce_once(probe_mpi *m, uint64_t s) {
    const double *in = (const double *)(void *)m->buf;
    size_t i, n = s >= sizeof(double) ? (size_t)s / sizeof(double) : 1;
    for (i = 0; i < n; i++) m->acc[i] += in[i];
}
/* Both ranks send size bytes to each other at once (from slot 0 into slot 1). */
static void exchange(probe_mpi *m, int size, int peer) {
    MPI_Request req[2];
    MPI_Status st[2];   /* not MPI_STATUSES_IGNORE: MPICH's header makes gcc see a 0-byte array */
    MPI_Irecv(m->acc, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
}
/* The command with bare MPI calls (--bare; one-way and exchange always). */
static void bare(probe_mpi *m, int rank, int what, int size, int n) {
    int k, peer = 1 - rank;
    if (what == CMD_NOP) return;
    if (what == CMD_EXCHANGE) exchange(m, size, peer);
    else if (what == CMD_ONEWAY && rank == 0) {
        MPI_Send(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(m->buf, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (what == CMD_ONEWAY) {
        MPI_Recv(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(m->buf, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    } else if (what == CMD_EXEC) reduce_once(m, (uint64_t)size);
    else if (what == CMD_COPY) memcpy(m->acc, m->buf, (size_t)size);
    else if (what == CMD_PINGPONG && rank == 0) {
        MPI_Send(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (what == CMD_PINGPONG) {
        MPI_Recv(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    } else if (what != CMD_BURST) {
        if ((what == CMD_SEND) == (rank == 0)) MPI_Send(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        else MPI_Recv(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        for (k = 0; k < n; k++) MPI_Send(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(m->buf, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (k = 0; k < n; k++) MPI_Recv(m->buf, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(m->buf, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    }
}

/* Both ranks: one repetition of a command; rank 0 returns its time in s. The side that
   acts second waits `delay` ns first (send: the receiver; recv: rank 0), and a last
   0-byte message keeps the next repetition from starting early. */
static double once(probe_mpi *m, int rank, int what, int size, int n, double delay, int via) {
    double t0;
    int sync = what == CMD_SEND || what == CMD_RECV;
    if ((what == CMD_RECV && rank == 0) || (what == CMD_SEND && rank == 1)) spin(delay);
    t0 = MPI_Wtime();
    if (via) via_goal(m, rank, what, size, n);
    else bare(m, rank, what, size, n);
    t0 = MPI_Wtime() - t0;
    if (sync && rank == 0) MPI_Send(m->buf, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    if (sync && rank == 1) MPI_Recv(m->buf, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return t0;
}

/* Rank 0: tells rank 1 what comes, then measures reps times (after one warm-up); through
   libgoal when m->via, which it clears (bare MPI is the default path). */
static double measure(probe_mpi *m, int what, uint64_t size, int n, double delay, int reps) {
    double cmd[5];
    int k, via = m->via && m->gm;
    m->via = 0;
    cmd[0] = what; cmd[1] = (double)size; cmd[2] = n; cmd[3] = delay; cmd[4] = via;
    MPI_Send(cmd, 5, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    MPI_Send(&reps, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    once(m, 0, what, (int)size, n, delay, via);
    for (k = 0; k < reps; k++) m->t[k] = once(m, 0, what, (int)size, n, delay, via);
    return min_ns(m->t, reps);
}
/* The same through libgoal (goal_mpi_run), when goal-probe has it (not --bare). */
static double measure_goal(probe_mpi *m, int what, uint64_t size, int n, double delay, int reps) {
    m->via = 1;
    return measure(m, what, size, n, delay, reps);
}
static double op_pingpong(void *u, uint64_t s, int reps) { return measure((probe_mpi *)u, CMD_PINGPONG, s, 1, 0, reps); }
static double op_send(void *u, uint64_t s, double d, int reps) { return measure((probe_mpi *)u, CMD_SEND, s, 1, d, reps); }
static double op_recv(void *u, uint64_t s, double d, int reps) { return measure((probe_mpi *)u, CMD_RECV, s, 1, d, reps); }
static double op_burst(void *u, uint64_t s, int n, int reps) { return measure((probe_mpi *)u, CMD_BURST, s, n, 0, reps); }
static double op_oneway(void *u, uint64_t s, int reps) { return measure((probe_mpi *)u, CMD_ONEWAY, s, 1, 0, reps); }
static double op_exchange(void *u, uint64_t s, int reps) { return measure((probe_mpi *)u, CMD_EXCHANGE, s, 1, 0, reps); }
static double op_exec(void *u, uint64_t s, int reps) { return measure_goal((probe_mpi *)u, CMD_EXEC, s, 1, 0, reps); }
static double op_copy(void *u, uint64_t s, int reps) { return measure_goal((probe_mpi *)u, CMD_COPY, s, 1, 0, reps); }
static double op_call(void *u, int reps) { return measure_goal((probe_mpi *)u, CMD_NOP, 0, 1, 0, reps); }
static double op_lsend(void *u, uint64_t s, double d, int reps) { return measure_goal((probe_mpi *)u, CMD_SEND, s, 1, d, reps); }
static double op_lrecv(void *u, uint64_t s, double d, int reps) { return measure_goal((probe_mpi *)u, CMD_RECV, s, 1, d, reps); }
static double op_lpingpong(void *u, uint64_t s, int reps) { return measure_goal((probe_mpi *)u, CMD_PINGPONG, s, 1, 0, reps); }

/* Rank 1: serves commands until CMD_QUIT. */
static void serve(probe_mpi *m) {
    double cmd[5];
    int reps, k;
    for (;;) {
        MPI_Recv(cmd, 5, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if ((int)cmd[0] == CMD_QUIT) return;
        MPI_Recv(&reps, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = 0; k <= reps; k++) once(m, 1, (int)cmd[0], (int)cmd[1], (int)cmd[2], cmd[3], cmd[4] != 0);
    }
}

/* -o FILE, opened before the measurement (so that a bad path fails at once) and written
   after it: emptied then, or removed when the probe failed and the file is ours. */
typedef struct probe_out { const char *path; FILE *f; int created; } probe_out;
static int out_open(probe_out *o) {
    int fd = open(o->path, O_WRONLY);
    o->created = fd < 0 && errno == ENOENT;
    if (o->created) fd = open(o->path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "goal-probe: %s: cannot open for writing: %s\n", o->path, strerror(errno));
        if (fd >= 0) close(fd);
        return 1;
    }
    return 0;
}
static int out_write(probe_out *o, const probe_result *r) {
    struct stat st;
    int bad = fstat(fileno(o->f), &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fileno(o->f), 0) != 0;
    if (!bad) probe_print_params(o->f, r);
    bad |= ferror(o->f) != 0;
    if ((fclose(o->f) != 0) | bad) { fprintf(stderr, "goal-probe: %s: write error\n", o->path); return 1; }
    return 0;
}
static void out_drop(probe_out *o) {
    fclose(o->f);
    if (o->created) unlink(o->path);
}

/* Rank 0: the probe, the output. Returns the exit status. */
static int lead(probe_mpi *m, probe_out *out, int two_regimes) {
    probe_ops ops;
    probe_result r;
    double quit[5] = {CMD_QUIT, 0, 0, 0, 0}, copy;
    int rc, nT, k;
    memset(&ops, 0, sizeof ops);
    ops.pingpong_fn = op_pingpong; ops.send_fn = op_send; ops.recv_fn = op_recv; ops.burst_fn = op_burst; ops.exec_fn = op_exec;
    ops.copy_fn = op_copy; ops.oneway_fn = op_oneway; ops.exchange_fn = op_exchange;
    if (m->gm) { ops.call_fn = op_call; ops.lsend_fn = op_lsend; ops.lrecv_fn = op_lrecv; ops.lpingpong_fn = op_lpingpong; }
    ops.user = m;
    rc = probe_run(&ops, m->max_size, &r);
    copy = measure_goal(m, CMD_COPY, m->max_size, 1, 0, 5) / (double)m->max_size;
    MPI_Send(quit, 5, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    if (rc != 0) {
        fprintf(stderr, "goal-probe: too few eager sizes to fit (every send waited for its receiver)\n");
        if (out->f) out_drop(out);
        return 1;
    }
    nT = r.nT;
    if (!two_regimes && r.nT) r.nT = 0, r.G = r.G_one;   /* measured, but in the line only when asked for (see the top): G then of every large size */
    probe_print_params(stdout, &r);
    probe_print_fit(stdout, &r);
    if (nT && !two_regimes) {
        printf("# costs per byte by size:");
        for (k = 0; k < nT; k++) printf("%s %.3f from %llu B", k ? "," : "", r.H[k], (unsigned long long)r.T[k]);
        printf(" (-T -H in the line with --two-regimes)\n");
    }
    printf("# copy of %llu bytes: %.4f ns per byte (-K: the slope from 1 KiB); C, K and -E -F measured %s\n", (unsigned long long)m->max_size, copy,
           m->gm ? "through libgoal (goal_mpi_run)" : "on bare MPI calls (--bare): no -E -F");
    if (r.S_wide || (r.R_wide && r.R >= 0.001))
        fprintf(stderr, "goal-probe: warning: %s left out of the line: its runs disagree (# lines); probe again on a quieter machine\n",
                r.S_wide ? "-S and -R" : "-R");
    return out->f ? out_write(out, &r) : 0;
}

/* Buffers and libgoal's path (unless bare); 0, or 1 when out of memory or goal_mpi failed. */
static int setup(probe_mpi *m, int bare_mpi) {
    goal_mpi_desc md;
    goal_error err;
    m->buf = (char *)calloc(m->max_size + sizeof(double), 1);
    m->acc = (double *)calloc(m->max_size / sizeof(double) + 1, sizeof(double));
    m->t = (double *)malloc(64 * sizeof *m->t);
    m->gm = NULL;
    m->via = 0;
    if (!m->buf || !m->acc || !m->t) { fprintf(stderr, "goal-probe: out of memory\n"); return 1; }
    memset(&md, 0, sizeof md);
    md.comm = MPI_COMM_WORLD;
    if (!bare_mpi && goal_mpi_create(&m->gm, &md, &err) != GOAL_OK) { fprintf(stderr, "goal-probe: %s\n", err.msg); return 1; }
    return 0;
}

/* The options; NULL, or what is wrong with them (in why). */
static const char *probe_args(int argc, char **argv, probe_out *out, unsigned long long *max_size, int *bare_mpi, int *two_regimes,
                              char *why, size_t n) {
    int i;
    for (i = 1; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 == argc) return "-o needs a file name";
            out->path = argv[++i];
        } else if (strcmp(argv[i], "--max-size") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (*v >= '0' && *v <= '9') *max_size = strtoull(v, &end, 10);
            if (!end || *end || *max_size < PROBE_MIN_SIZE || *max_size > (1u << 30)) {
                snprintf(why, n, "--max-size takes bytes from %d to 2^30, not '%s'", PROBE_MIN_SIZE, v);
                return why;
            }
        } else if (strcmp(argv[i], "--bare") == 0) *bare_mpi = 1;
        else if (strcmp(argv[i], "--two-regimes") == 0) *two_regimes = 1;
        else {
            snprintf(why, n, "unknown option '%s'", argv[i]);
            return why;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    probe_mpi m;
    probe_out out = {NULL, NULL, 0};
    unsigned long long max_size = 4u << 20;
    int rank, size, rc = 0, bare_mpi = 0, two_regimes = 0;
    char buf[200];
    const char *why;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    why = probe_args(argc, argv, &out, &max_size, &bare_mpi, &two_regimes, buf, sizeof buf);
    if (!why && size != 2) snprintf(buf, sizeof buf, "needs 2 ranks (mpirun -np 2), not %d", size), why = buf;
    if (why) {
        if (rank == 0)
            fprintf(stderr, "goal-probe: %s\nusage: mpirun -np 2 goal-probe [-o FILE] [--max-size BYTES (%d .. 2^30, default 4 MiB)] [--bare] [--two-regimes]\n",
                    why, PROBE_MIN_SIZE);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0 && out.path) rc = out_open(&out);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc) { MPI_Finalize(); return 1; }
    m.max_size = max_size;
    if (setup(&m, bare_mpi) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0) rc = lead(&m, &out, two_regimes);
    else serve(&m);
    if (m.gm) goal_mpi_destroy(m.gm);
    free(m.buf);
    free(m.acc);
    free(m.t);
    MPI_Finalize();
    return rc;
}
