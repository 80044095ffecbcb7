/* Every call GOAL_MPI_RECORD records, at any np: blocking, nonblocking and wildcard
   point-to-point, probes, sendrecv, a sub-communicator, collectives (served, and passed on
   when GOAL_MPI_ALGOS says mpi), nonblocking collectives. Each rank writes the messages it
   sent itself to LOG.<rank> ("DEST BYTES" per line, world ranks), which tests/test_record.sh
   compares with the recording. Point-to-point sizes are 3001 bytes and more, collectives'
   at most 64 per block, so the two are told apart in the world.
   usage: test_record LOG [nofinalize]   (nofinalize: the program ends without MPI_Finalize) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *logf;
static char buf[8][8192], rbuf[8][8192];
static int me, p;

static void logged(int dest, int bytes, MPI_Comm comm) {
    MPI_Group g, w;
    int world = 0;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, 1, &dest, w, &world);
    MPI_Group_free(&g); MPI_Group_free(&w);
    fprintf(logf, "%d %d\n", world, bytes);
}
/* Some computation between calls (recorded as calc). */
static double work(int n) {
    volatile double x = 0;
    int i;
    for (i = 0; i < n; i++) x += i * 0.5;
    return x;
}
static void blocking(void) {
    int next = (me + 1) % p, prev = (me + p - 1) % p;
    if (me % 2 == 0) {
        MPI_Send(buf[0], 3001, MPI_CHAR, next, 1, MPI_COMM_WORLD); logged(next, 3001, MPI_COMM_WORLD);
        MPI_Recv(rbuf[0], 8192, MPI_CHAR, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(rbuf[0], 8192, MPI_CHAR, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(buf[0], 3002, MPI_CHAR, next, 1, MPI_COMM_WORLD); logged(next, 3002, MPI_COMM_WORLD);
    }
    work(100000);
    MPI_Sendrecv(buf[1], 3003, MPI_CHAR, next, 2, rbuf[1], 8192, MPI_CHAR, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    logged(next, 3003, MPI_COMM_WORLD);
    memset(rbuf[2], 0, 3004);
    MPI_Sendrecv_replace(rbuf[2], 3004, MPI_CHAR, prev, 3, next, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    logged(prev, 3004, MPI_COMM_WORLD);
}
static void nonblocking(void) {
    MPI_Request q[16];
    MPI_Status st[16];
    int k = 0, i, done = 0, idx, n, out[16], flag = 0;
    int next = (me + 1) % p, prev = (me + p - 1) % p;
    /* Isend / Irecv, Waitall */
    q[k++] = MPI_REQUEST_NULL;
    MPI_Irecv(rbuf[0], 8192, MPI_CHAR, prev, 4, MPI_COMM_WORLD, &q[k++]);
    MPI_Isend(buf[0], 3005, MPI_CHAR, next, 4, MPI_COMM_WORLD, &q[k++]); logged(next, 3005, MPI_COMM_WORLD);
    work(50000);
    MPI_Waitall(k, q, st);
    /* Issend with Test polling, Irecv with Wait */
    MPI_Irecv(rbuf[1], 8192, MPI_CHAR, prev, 5, MPI_COMM_WORLD, &q[0]);
    MPI_Issend(buf[1], 3006, MPI_CHAR, next, 5, MPI_COMM_WORLD, &q[1]); logged(next, 3006, MPI_COMM_WORLD);
    while (!flag) MPI_Test(&q[1], &flag, MPI_STATUS_IGNORE);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    /* Irsend after the receive is posted (a barrier between), Waitany and Waitsome */
    MPI_Irecv(rbuf[2], 8192, MPI_CHAR, prev, 6, MPI_COMM_WORLD, &q[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irsend(buf[2], 3007, MPI_CHAR, next, 6, MPI_COMM_WORLD, &q[1]); logged(next, 3007, MPI_COMM_WORLD);
    MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
    for (done = 1; done < 2; done += n) MPI_Waitsome(2, q, &n, out, st);
    /* Ibsend from an attached buffer, Testall polling, Testany */
    {
        int size = 8192 + MPI_BSEND_OVERHEAD;
        void *bb = malloc((size_t)size);
        MPI_Buffer_attach(bb, size);
        MPI_Irecv(rbuf[3], 8192, MPI_CHAR, prev, 7, MPI_COMM_WORLD, &q[0]);
        MPI_Ibsend(buf[3], 3008, MPI_CHAR, next, 7, MPI_COMM_WORLD, &q[1]); logged(next, 3008, MPI_COMM_WORLD);
        for (flag = 0; !flag;) MPI_Testall(2, q, &flag, st);
        MPI_Irecv(rbuf[4], 8192, MPI_CHAR, prev, 8, MPI_COMM_WORLD, &q[0]);
        MPI_Bsend(buf[4], 3009, MPI_CHAR, next, 8, MPI_COMM_WORLD); logged(next, 3009, MPI_COMM_WORLD);
        for (flag = 0; !flag;) MPI_Testany(1, q, &idx, &flag, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&bb, &size);
        free(bb);
    }
    /* Rsend: the receiver posted first */
    MPI_Irecv(rbuf[5], 8192, MPI_CHAR, prev, 9, MPI_COMM_WORLD, &q[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rsend(buf[5], 3010, MPI_CHAR, next, 9, MPI_COMM_WORLD); logged(next, 3010, MPI_COMM_WORLD);
    for (i = 0, n = 0; !n; i++) MPI_Testsome(1, q, &n, out, st);
}
/* Wildcards: rank 0 takes every other rank's two messages by MPI_ANY_SOURCE / MPI_ANY_TAG,
   in the order they come; probes first for the first p - 1. */
static void wildcards(void) {
    MPI_Status st;
    MPI_Request q;
    int i, flag = 0;
    if (me != 0) {
        MPI_Send(buf[0], 3100 + me, MPI_CHAR, 0, 20 + me, MPI_COMM_WORLD); logged(0, 3100 + me, MPI_COMM_WORLD);
        MPI_Send(buf[1], 3200 + me, MPI_CHAR, 0, 40, MPI_COMM_WORLD); logged(0, 3200 + me, MPI_COMM_WORLD);
        return;
    }
    for (i = 1; i < p; i++) {   /* any of the 2 (p - 1) messages, in the order they come */
        if (i % 2) MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        else while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        flag = 0;
        MPI_Recv(rbuf[0], 8192, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    }
    for (i = 1; i < p; i++) {
        MPI_Irecv(rbuf[1], 8192, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, &st);
    }
}
/* A sub-communicator (odd and even ranks): a ring in it, and its collectives. */
static void subcomm(void) {
    MPI_Comm sub;
    int sme, sp, next, prev;
    double x = me, y[8];
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, p - me, &sub);   /* reversed: its ranks differ from the world's */
    MPI_Comm_rank(sub, &sme); MPI_Comm_size(sub, &sp);
    next = (sme + 1) % sp; prev = (sme + sp - 1) % sp;
    if (sp > 1) {
        MPI_Request q;
        MPI_Irecv(rbuf[6], 8192, MPI_CHAR, prev, 1, sub, &q);
        MPI_Send(buf[6], 3300 + sme, MPI_CHAR, next, 1, sub); logged(next, 3300 + sme, sub);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&x, y, 1, MPI_DOUBLE, MPI_SUM, sub);
    MPI_Bcast(y, 2, MPI_DOUBLE, sp - 1, sub);
    MPI_Comm_free(&sub);
}
static void collectives(void) {
    double x[64], y[64 * 8];
    int i, counts[8], displs[8];
    MPI_Request q;
    for (i = 0; i < 64; i++) x[i] = me + i;
    for (i = 0; i < p; i++) { counts[i] = i % 3 + 1; displs[i] = 3 * i; }
    MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    work(20000);
    MPI_Bcast(x, 8, MPI_DOUBLE, p - 1, MPI_COMM_WORLD);
    MPI_Reduce(x, y, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allgather(x, 2, MPI_DOUBLE, y, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Alltoall(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gather(x, 3, MPI_DOUBLE, y, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatter(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, p / 2, MPI_COMM_WORLD);
    MPI_Allgatherv(x, counts[me], MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Iallreduce(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    work(20000);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Ibcast(x, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}
int main(int argc, char **argv) {
    char name[4096];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc < 2) { fprintf(stderr, "usage: test_record LOG [nofinalize]\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
    snprintf(name, sizeof name, "%s.%d", argv[1], me);
    if (!(logf = fopen(name, "w"))) { perror(name); MPI_Abort(MPI_COMM_WORLD, 2); }
    collectives();
    if (p > 1) blocking();
    if (p > 1) nonblocking();
    wildcards();
    subcomm();
    collectives();
    fclose(logf);
    if (argc > 2 && !strcmp(argv[2], "nofinalize")) { MPI_Barrier(MPI_COMM_WORLD); return 0; }
    MPI_Finalize();
    return 0;
}
