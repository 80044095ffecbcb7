/* custom_transport.c - a complete libgoal transport, small enough to copy.

   An "eager mailbox" runtime: a send copies its data into the receiver's mailbox and is
   done at once; a recv takes the oldest matching letter, or waits for one. Replace the
   mailbox with your network (post = start an operation, test = poll for completions,
   cancel = abandon one) and every libgoal algorithm runs on it.

   Build: make  (or: cc -I.. custom_transport.c -lpthread -lm)   Run: ./custom_transport */
#define GOAL_ALL_IMPLEMENTATION
#include "goal_sched.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct letter {              /* one message waiting in a mailbox */
    struct letter *next;
    int from, tag;
    uint32_t context;
    uint64_t size;
    unsigned char data[];
} letter;
typedef struct mailbox { letter *first; } mailbox;
typedef struct endpoint { mailbox *boxes; int rank, nranks; } endpoint;

static int matches(const goal_msg *recv, const letter *l) {
    return l->context == recv->context && (recv->peer == GOAL_ANY || recv->peer == l->from) &&
           (recv->tag == GOAL_ANY || recv->tag == l->tag);
}
/* Takes the oldest letter for recv out of its mailbox (MPI's order rule), into recv's buffer. */
static int deliver(endpoint *ep, const goal_msg *recv) {
    letter **p;
    for (p = &ep->boxes[ep->rank].first; *p; p = &(*p)->next)
        if (matches(recv, *p)) {
            letter *l = *p;
            int st = l->size > recv->size ? GOAL_ERR_TRUNCATE : GOAL_OK;
            memcpy(recv->data, l->data, st == GOAL_OK ? l->size : recv->size);
            *p = l->next;
            free(l);
            return st;
        }
    return GOAL_PENDING;
}
static int my_post(void *user, const goal_msg *m, goal_req *req) {
    endpoint *ep = (endpoint *)user;
    letter *l, **end;
    if (m->kind == GOAL_RECV) {
        int st = deliver(ep, m);
        if (st == GOAL_PENDING) {           /* remember the recv: the executor moves req */
            goal_msg *copy = (goal_msg *)malloc(sizeof *copy);
            if (!copy) return GOAL_ERR_NOMEM;
            *copy = *m;
            req->handle = copy;
        }
        return st;
    }
    if (m->peer < 0 || m->peer >= ep->nranks) return GOAL_ERR_PEER;
    l = (letter *)malloc(sizeof *l + (size_t)m->size);
    if (!l) return GOAL_ERR_NOMEM;
    l->next = NULL; l->from = ep->rank; l->tag = m->tag; l->context = m->context; l->size = m->size;
    memcpy(l->data, m->data, (size_t)m->size);
    for (end = &ep->boxes[m->peer].first; *end; end = &(*end)->next) {}
    *end = l;                                /* eager: the send is done */
    return GOAL_OK;
}
static int my_test(void *user, goal_req *reqs, int n, int block) {
    endpoint *ep = (endpoint *)user;
    int k, done = 0;
    (void)block;                             /* one thread steps all ranks: never block */
    for (k = 0; k < n; k++) {
        goal_msg *m = (goal_msg *)reqs[k].handle;
        int st = deliver(ep, m);
        if (st == GOAL_PENDING) continue;
        reqs[k].status = st;
        free(m);
        reqs[k].handle = NULL;
        done++;
    }
    return done;
}
static void my_cancel(void *user, goal_req *req) { (void)user; free(req->handle); req->handle = NULL; }

int main(void) {
    enum { P = 4 };
    mailbox boxes[P] = {{NULL}};
    endpoint ep[P];
    goal_exec *e[P];
    goal_schedule s[P];
    int32_t value[P];
    int r, busy = 1;
    /* The program: every rank sends its value to rank 0, which sums them (a linear reduce). */
    for (r = 0; r < P; r++) {
        goal_graph *g;
        goal_graph_desc gd = {0, 0, {0, 0, 0}};
        goal_exec_desc ed;
        goal_slot slot;
        int k;
        gd.rank = r; gd.nranks = P;
        goal_graph_create(&g, &gd, NULL);
        if (r != 0) goal_graph_send(g, goal_buffer(0, 0, 4), 0, 1);
        for (k = 1; r == 0 && k < P; k++) {  /* recv into scratch, then add */
            int32_t rv = goal_graph_recv(g, goal_buffer(GOAL_SLOT_SCRATCH, 4u * (unsigned)k, 4), k, 1);
            int32_t ex = goal_graph_exec(g, GOAL_OP_SUM, GOAL_INT32, goal_buffer(0, 0, 4),
                                         goal_buffer(GOAL_SLOT_SCRATCH, 4u * (unsigned)k, 4));
            goal_graph_requires(g, ex, rv);
            if (k > 1) goal_graph_requires(g, ex, ex - 2);   /* one sum at a time */
        }
        if (goal_compile(g, &s[r], NULL) != GOAL_OK) return 1;
        goal_graph_destroy(g);
        value[r] = 10 * (r + 1);
        ep[r].boxes = boxes; ep[r].rank = r; ep[r].nranks = P;
        memset(&ed, 0, sizeof ed);
        ed.schedule = &s[r];
        ed.transport.user = &ep[r];
        ed.transport.post = my_post; ed.transport.test = my_test; ed.transport.cancel = my_cancel;
        slot.data = &value[r]; slot.size = sizeof value[r];
        ed.slots = &slot; ed.nslots = 1;
        if (goal_exec_create(&e[r], &ed, NULL) != GOAL_OK) return 1;
        goal_exec_start(e[r]);
    }
    while (busy) {                           /* step every rank until all are done */
        busy = 0;
        for (r = 0; r < P; r++) busy |= goal_exec_test(e[r]) == GOAL_PENDING;
    }
    printf("rank 0 holds %d (expected %d)\n", (int)value[0], 10 + 20 + 30 + 40);
    for (r = 0; r < P; r++) { goal_exec_destroy(e[r]); goal_schedule_free(&s[r]); }
    return value[0] == 100 ? 0 : 1;
}
