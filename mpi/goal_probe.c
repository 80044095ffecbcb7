/* goal-probe: measures the LogGOPS parameters between two MPI ranks and prints them as one
   line of `goal sim` options, then the fit's residuals and the measured curves (# lines).
     mpirun -np 2 build/openmpi/goal-probe [-o FILE] [--max-size BYTES]
   -o FILE writes the params line alone to FILE (what --params FILE reads). Rank 0 runs the
   measurements of tools/probe.h; rank 1 serves them: for each one rank 0 first sends a
   command (what, size, count, delay), then both sides do their part. Times: the fastest of
   the repetitions (MPI_Wtime), as preemption on a shared machine only ever adds time.
   The local exec cost C (-C) is rank 0's own: a sum of doubles into a buffer, the loop
   libgoal's executor runs for a reduction; a # line gives a copy's cost per byte too. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../tools/probe.h"

enum { CMD_QUIT, CMD_PINGPONG, CMD_SEND, CMD_RECV, CMD_BURST };
typedef struct probe_mpi {
    char *buf;
    double *acc;               /* the local reduction's result */
    double *t;                 /* one time per repetition */
} probe_mpi;

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

/* Both ranks: one repetition of a measurement; rank 0 returns its time in s. */
static double once(probe_mpi *m, int rank, int what, int size, int n, double delay) {
    double t0 = 0, t1 = 0;
    int k;
    if (rank == 0) {
        if (what == CMD_RECV) spin(delay);
        t0 = MPI_Wtime();
        if (what == CMD_PINGPONG) {
            MPI_Send(m->buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(m->buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (what == CMD_SEND) {
            MPI_Send(m->buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        } else if (what == CMD_RECV) {
            MPI_Recv(m->buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (k = 0; k < n; k++) MPI_Send(m->buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(m->buf, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        t1 = MPI_Wtime();
        if (what == CMD_SEND || what == CMD_RECV) MPI_Send(m->buf, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        return t1 - t0;
    }
    if (what == CMD_PINGPONG) {
        MPI_Recv(m->buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(m->buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    } else if (what == CMD_SEND) {
        spin(delay);
        MPI_Recv(m->buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (what == CMD_RECV) {
        MPI_Send(m->buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    } else {
        for (k = 0; k < n; k++) MPI_Recv(m->buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(m->buf, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    if (what == CMD_SEND || what == CMD_RECV) MPI_Recv(m->buf, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return 0;
}

/* Rank 0: tells rank 1 what comes, then measures reps times (after one warm-up). */
static double measure(probe_mpi *m, int what, uint64_t size, int n, double delay, int reps) {
    double cmd[4];
    int k;
    cmd[0] = what; cmd[1] = (double)size; cmd[2] = n; cmd[3] = delay;
    MPI_Send(cmd, 4, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    MPI_Send(&reps, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    once(m, 0, what, (int)size, n, delay);
    for (k = 0; k < reps; k++) m->t[k] = once(m, 0, what, (int)size, n, delay);
    return min_ns(m->t, reps);
}
static double op_pingpong(void *u, uint64_t s, int reps) { return measure((probe_mpi *)u, CMD_PINGPONG, s, 1, 0, reps); }
static double op_send(void *u, uint64_t s, double d, int reps) { return measure((probe_mpi *)u, CMD_SEND, s, 1, d, reps); }
static double op_recv(void *u, uint64_t s, double d, int reps) { return measure((probe_mpi *)u, CMD_RECV, s, 1, d, reps); }
static double op_burst(void *u, uint64_t s, int n, int reps) { return measure((probe_mpi *)u, CMD_BURST, s, n, 0, reps); }
/* acc[i] += in[i] over s bytes of doubles (at least one). */
static void reduce_once(probe_mpi *m, uint64_t s) {
    const double *in = (const double *)(void *)m->buf;
    size_t i, n = s >= sizeof(double) ? (size_t)s / sizeof(double) : 1;
    for (i = 0; i < n; i++) m->acc[i] += in[i];
}
static double op_exec(void *u, uint64_t s, int reps) {
    probe_mpi *m = (probe_mpi *)u;
    double t0;
    int k;
    reduce_once(m, s);
    for (k = 0; k < reps; k++) {
        t0 = MPI_Wtime();
        reduce_once(m, s);
        m->t[k] = MPI_Wtime() - t0;
    }
    return min_ns(m->t, reps);
}
/* A copy of s bytes: ns per byte (the fastest of reps). */
static double copy_per_byte(probe_mpi *m, uint64_t s, int reps) {
    double t0;
    int k;
    memcpy(m->acc, m->buf, (size_t)s);
    for (k = 0; k < reps; k++) {
        t0 = MPI_Wtime();
        memcpy(m->acc, m->buf, (size_t)s);
        m->t[k] = MPI_Wtime() - t0;
    }
    return min_ns(m->t, reps) / (double)s;
}

/* Rank 1: serves commands until CMD_QUIT. */
static void serve(probe_mpi *m) {
    double cmd[4];
    int reps, k;
    for (;;) {
        MPI_Recv(cmd, 4, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if ((int)cmd[0] == CMD_QUIT) return;
        MPI_Recv(&reps, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = 0; k <= reps; k++) once(m, 1, (int)cmd[0], (int)cmd[1], (int)cmd[2], cmd[3]);
    }
}

/* Rank 0: the probe, the output. Returns the exit status. */
static int lead(probe_mpi *m, uint64_t max_size, const char *out) {
    probe_ops ops;
    probe_result r;
    double quit[4] = {CMD_QUIT, 0, 0, 0};
    int rc;
    FILE *f;
    ops.pingpong_fn = op_pingpong; ops.send_fn = op_send; ops.recv_fn = op_recv; ops.burst_fn = op_burst; ops.exec_fn = op_exec;
    ops.user = m;
    rc = probe_run(&ops, max_size, &r);
    MPI_Send(quit, 4, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    if (rc != 0) { fprintf(stderr, "goal-probe: too few eager sizes to fit (every send waited for its receiver)\n"); return 1; }
    probe_print_params(stdout, &r);
    probe_print_fit(stdout, &r);
    printf("# copy of %llu bytes: %.4f ns per byte (-C is the reduction's)\n", (unsigned long long)max_size,
           copy_per_byte(m, max_size, 5));
    if (!out) return 0;
    if (!(f = fopen(out, "w"))) { fprintf(stderr, "goal-probe: %s: cannot open for writing\n", out); return 1; }
    probe_print_params(f, &r);
    if (fclose(f) != 0) { fprintf(stderr, "goal-probe: %s: write error\n", out); return 1; }
    return 0;
}

int main(int argc, char **argv) {
    probe_mpi m;
    const char *out = NULL;
    unsigned long long max_size = 4u << 20;
    int rank, size, i, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--max-size") == 0 && i + 1 < argc) max_size = strtoull(argv[++i], NULL, 10);
        else rc = 2;
    }
    if (rc || size != 2 || max_size < 4 || max_size > (1u << 30)) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 goal-probe [-o FILE] [--max-size BYTES (4 .. 2^30, default 4 MiB)]\n");
        MPI_Finalize();
        return 2;
    }
    m.buf = (char *)calloc(max_size + sizeof(double), 1);
    m.acc = (double *)calloc(max_size / sizeof(double) + 1, sizeof(double));
    m.t = (double *)malloc(64 * sizeof *m.t);
    if (!m.buf || !m.acc || !m.t) { fprintf(stderr, "goal-probe: out of memory\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
    if (rank == 0) rc = lead(&m, max_size, out);
    else serve(&m);
    free(m.buf);
    free(m.acc);
    free(m.t);
    MPI_Finalize();
    return rc;
}
