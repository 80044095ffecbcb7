/* Persistent point-to-point requests and matched probes under GOAL_MPI_RECORD: a ring of
   MPI_Send_init / MPI_Recv_init started ROUNDS times (MPI_Startall + MPI_Waitall, then once
   by MPI_Start + MPI_Wait each), its send's derived type freed before the first start; then a
   ring by MPI_Mprobe + MPI_Mrecv and one by MPI_Improbe + MPI_Imrecv, both from
   MPI_ANY_SOURCE. Each rank writes the messages it sent to LOG.<rank> and those it received
   to LOG.<rank>.recv ("PEER BYTES" per line, world ranks), which tests/test_record.sh
   compares with the recording.
   usage: test_record_p2p LOG */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 4
static FILE *sent, *got;
static int me, p, next, prev;
static int sbuf[2048], rbuf[2048];

/* The persistent ring: 800 ints (3200 bytes) to the right, as 200 of a type of 4 ints. */
static void persistent(void) {
    MPI_Request q[2];
    MPI_Status st[2];
    MPI_Datatype four;
    int k, bytes = 0;
    MPI_Type_contiguous(4, MPI_INT, &four);
    MPI_Type_commit(&four);
    MPI_Recv_init(rbuf, 2048, MPI_INT, prev, 10, MPI_COMM_WORLD, &q[0]);
    MPI_Send_init(sbuf, 200, four, next, 10, MPI_COMM_WORLD, &q[1]);
    MPI_Type_free(&four);   /* MPI keeps it for the request */
    for (k = 0; k < ROUNDS; k++) {
        if (k < ROUNDS - 1) {
            MPI_Startall(2, q);
            MPI_Waitall(2, q, st);
        } else {
            MPI_Start(&q[0]);
            MPI_Start(&q[1]);
            MPI_Wait(&q[1], &st[1]);
            MPI_Wait(&q[0], &st[0]);
        }
        MPI_Get_count(&st[0], MPI_BYTE, &bytes);
        fprintf(sent, "%d 3200\n", next);
        fprintf(got, "%d %d\n", st[0].MPI_SOURCE, bytes);
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);
}
/* The matched-probe rings: 3300 + me bytes (Mrecv) and 3400 + me bytes (Imrecv). */
static void matched(int nonblocking) {
    MPI_Request q;
    MPI_Message m;
    MPI_Status st;
    int n = (nonblocking ? 3400 : 3300) + me, tag = nonblocking ? 21 : 20, flag = 0, bytes = 0;
    MPI_Isend(sbuf, n, MPI_BYTE, next, tag, MPI_COMM_WORLD, &q);
    fprintf(sent, "%d %d\n", next, n);
    if (!nonblocking) {
        MPI_Mprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &m, &st);
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        MPI_Mrecv(rbuf, bytes, MPI_BYTE, &m, &st);
    } else {
        MPI_Request r;
        while (!flag) MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
        MPI_Imrecv(rbuf, (int)sizeof rbuf, MPI_BYTE, &m, &r);
        MPI_Wait(&r, &st);
    }
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    fprintf(got, "%d %d\n", st.MPI_SOURCE, bytes);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}
int main(int argc, char **argv) {
    char name[4096];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    next = (me + 1) % p; prev = (me + p - 1) % p;
    if (argc < 2) { fprintf(stderr, "usage: test_record_p2p LOG\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
    snprintf(name, sizeof name, "%s.%d", argv[1], me);
    if (!(sent = fopen(name, "w"))) { perror(name); MPI_Abort(MPI_COMM_WORLD, 2); }
    snprintf(name, sizeof name, "%s.%d.recv", argv[1], me);
    if (!(got = fopen(name, "w"))) { perror(name); MPI_Abort(MPI_COMM_WORLD, 2); }
    persistent();
    matched(0);
    matched(1);
    fclose(sent); fclose(got);
    MPI_Finalize();
    return 0;
}
