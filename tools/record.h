/* record.h - a recording's per-rank parts (what libgoalmpi's GOAL_MPI_RECORD writes, one
   file PREFIX.<rank>.part per rank) and their assembly into one GOAL world, shared by the
   drop-in (rank 0 assembles at MPI_Finalize: mpi/goalmpi_record.c) and `goal record PREFIX`
   (tools/cli_record.c). docs/record.md is the user's manual and states the conventions.

   A part is binary, in the recording machine's byte order (every rank of one run shares
   it): a record_head, the collective names (RECORD_NAMES x RECORD_NAME_LEN bytes), each
   communicator's size (ncomm x uint32) and members as world ranks (nmembers x int32), the
   channels (nchan x record_chan), the actions (nact x record_action, 16 bytes each) and
   their dependencies (ndep x uint32: an action's ndeps entries follow the previous
   action's; bit 31 marks "required to start", irequires; a count of RECORD_MANY means the
   real count comes first).

   What the recorder leaves to the assembly, which sees every rank:
   - communicator numbers: a recorder's communicators are local (numbered in first use);
     the assembly numbers them by their members (world ranks in communicator order) and,
     among a rank's communicators with the same members, by their order of first use
     (for collectives: that order is the same on every member, as collectives on a
     communicator are called in the same order everywhere);
   - tags: a message is named by its channel (communicator, MPI tag; a collective
     schedule's message by its schedule tag t as -1 - t) and its position on that channel
     between sender and receiver, the same on both sides by MPI's non-overtaking rule
     (posted receives match in posting order, sent messages in sending order). The world
     gives the j-th message from rank s to rank d the tag j, so each send matches exactly
     the receive it matched in the run, whatever order the check or simulator picks.
   - collective call numbers N: counted per communicator in call order. */
#ifndef GOAL_TOOLS_RECORD_H
#define GOAL_TOOLS_RECORD_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../goal.h"

#define RECORD_MAGIC "GOALREC1"
#define RECORD_NAMES 32
#define RECORD_NAME_LEN 24
#define RECORD_MANY 15u          /* ndeps escape: the count is the first dependency word */
#define RECORD_IDEP 0x80000000u  /* a dependency on the start of the action (irequires) */
enum { RECORD_SEND = 1, RECORD_RECV, RECORD_CALC, RECORD_EXEC, RECORD_NOP, RECORD_START, RECORD_END };

/* One action: 16 bytes. word = kind (4 bits) | ndeps (4 bits) | ref (24 bits).
   send/recv: arg bytes, peer world rank (-1: a wildcard receive never completed), ref the channel;
   calc: arg ns; exec: arg bytes, peer op << 8 | dtype; start/end anchor: arg this rank's
   bytes B, peer the root R (-1 unrooted), ref the collective (5 bits) << 19 | communicator. */
typedef struct record_action { uint64_t arg; int32_t peer; uint32_t word; } record_action;
#define RECORD_WORD(kind, ndeps, ref) ((uint32_t)(kind) << 28 | (uint32_t)(ndeps) << 24 | (uint32_t)(ref))
#define RECORD_KIND(w) ((w) >> 28)
#define RECORD_NDEPS(w) (((w) >> 24) & 15u)
#define RECORD_REF(w) ((w) & 0xFFFFFFu)
#define RECORD_ANCHOR_REF(coll, comm) ((uint32_t)(coll) << 19 | (uint32_t)(comm))
#define RECORD_MAX_COMMS (1u << 19)
#define RECORD_MAX_CHANS (1u << 24)

typedef struct record_chan { int32_t comm, tag; } record_chan;   /* local communicator, MPI tag (-1 - t) */
typedef struct record_head {
    char magic[8];
    int32_t rank, nranks;
    uint32_t finalized;          /* 1: written at MPI_Finalize; 0: at exit or MPI_Abort */
    uint32_t stopped;            /* 1: GOAL_MPI_RECORD_MAX was reached, the rest is missing */
    uint64_t ns;                 /* MPI_Init to MPI_Finalize (or to the exit) */
    uint64_t nact, ndep, nmembers;
    uint32_t ncomm, nchan;
} record_head;

typedef struct record_part {
    record_head h;
    char names[RECORD_NAMES][RECORD_NAME_LEN];
    uint32_t *comm_size;
    int32_t *members;
    record_chan *chan;
    record_action *act;
    uint32_t *dep;
} record_part;

static void record_part_free(record_part *p) {
    free(p->comm_size); free(p->members); free(p->chan); free(p->act); free(p->dep);
    memset(p, 0, sizeof *p);
}
/* n items of size bytes from f into a new array *out; 0 when short or out of memory. */
static int record_read_array(FILE *f, void **out, uint64_t n, size_t size) {
    *out = NULL;
    if (n > (uint64_t)SIZE_MAX / size / 2) return 0;
    if (!(*out = malloc(n ? (size_t)n * size : 1))) return 0;
    return n == 0 || fread(*out, size, (size_t)n, f) == (size_t)n;
}
/* Reads one part; 0 with why. */
static int record_part_read(const char *path, record_part *p, char *why, size_t len) {
    FILE *f = fopen(path, "rb");
    int ok;
    uint64_t members = 0, i;
    memset(p, 0, sizeof *p);
    if (!f) return snprintf(why, len, "cannot open"), 0;
    ok = fread(&p->h, sizeof p->h, 1, f) == 1 && memcmp(p->h.magic, RECORD_MAGIC, 8) == 0 &&
         fread(p->names, sizeof p->names, 1, f) == 1 && p->h.nranks > 0 && p->h.rank >= 0 && p->h.rank < p->h.nranks &&
         p->h.ncomm <= RECORD_MAX_COMMS && p->h.nchan <= RECORD_MAX_CHANS;
    ok = ok && record_read_array(f, (void **)&p->comm_size, p->h.ncomm, sizeof(uint32_t));
    for (i = 0; ok && i < p->h.ncomm; i++) members += p->comm_size[i];
    ok = ok && members == p->h.nmembers && record_read_array(f, (void **)&p->members, p->h.nmembers, sizeof(int32_t)) &&
         record_read_array(f, (void **)&p->chan, p->h.nchan, sizeof(record_chan)) &&
         record_read_array(f, (void **)&p->act, p->h.nact, sizeof(record_action)) &&
         record_read_array(f, (void **)&p->dep, p->h.ndep, sizeof(uint32_t));
    fclose(f);
    if (!ok) { record_part_free(p); return snprintf(why, len, "not a complete recording part"), 0; }
    return 1;
}

/* ---- a small hash map: 5 words -> a value (message positions and counters) ------------- */
typedef struct record_key { int32_t k[5]; } record_key;
typedef struct record_slot { record_key key; uint32_t value, used; } record_slot;
typedef struct record_map { record_slot *s; size_t cap, n; } record_map;
static size_t record_hash(const record_key *k, size_t cap) {
    uint64_t h = 1469598103934665603ull;
    int i;
    for (i = 0; i < 5; i++) h = (h ^ (uint32_t)k->k[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}
static record_slot *record_find(record_map *m, const record_key *k) {
    size_t i = record_hash(k, m->cap);
    while (m->s[i].used && memcmp(&m->s[i].key, k, sizeof *k) != 0) i = (i + 1) & (m->cap - 1);
    return &m->s[i];
}
/* The slot of k, made (value 0) when new; NULL when out of memory. */
static record_slot *record_get(record_map *m, const record_key *k) {
    record_slot *s;
    if (2 * (m->n + 1) > m->cap) {
        record_map g;
        size_t i;
        g.cap = m->cap ? 2 * m->cap : 1024; g.n = m->n;
        if (!(g.s = (record_slot *)calloc(g.cap, sizeof *g.s))) return NULL;
        for (i = 0; i < m->cap; i++) if (m->s[i].used) *record_find(&g, &m->s[i].key) = m->s[i];
        free(m->s);
        *m = g;
    }
    if (!(s = record_find(m, k))->used) { s->key = *k; s->used = 1; s->value = 0; m->n++; }
    return s;
}

/* ---- the assembly ------------------------------------------------------------------------ */
typedef struct record_world {
    int nranks, nparts;          /* ranks of the run, parts read */
    record_part *parts;          /* nranks entries; h.nranks 0 where missing */
    uint32_t **gcomm;            /* per rank: local communicator -> its number in the world */
    uint64_t actions, ns, unmatched;
} record_world;

/* Numbers every rank's local communicators (rw->gcomm): by their members (a 64-bit hash of
   the world ranks in order, and their count), then by the order of first use among the
   rank's communicators with the same members. MPI_COMM_WORLD is every rank's first: 0. */
static int record_number_comms(record_world *rw) {
    record_map seen;
    uint32_t next = 0, i;
    int r, ok = 1;
    memset(&seen, 0, sizeof seen);
    for (r = 0; ok && r < rw->nranks; r++) {
        const record_part *p = &rw->parts[r];
        uint64_t at = 0;
        if (!p->h.nranks) continue;
        ok = (rw->gcomm[r] = (uint32_t *)calloc(p->h.ncomm + 1, sizeof(uint32_t))) != NULL;
        for (i = 0; ok && i < p->h.ncomm; i++) {
            uint64_t h = 1469598103934665603ull, n = p->comm_size[i], k;
            record_slot *occ, *num;
            for (k = 0; k < n; k++) h = (h ^ (uint32_t)p->members[at + k]) * 1099511628211ull;
            at += n;
            ok = (occ = record_get(&seen, &(record_key){{(int32_t)(uint32_t)h, (int32_t)(uint32_t)(h >> 32), (int32_t)n, r, -2}})) != NULL;
            ok = ok && (num = record_get(&seen, &(record_key){{(int32_t)(uint32_t)h, (int32_t)(uint32_t)(h >> 32), (int32_t)n,
                                                               (int32_t)occ->value, -1}})) != NULL;
            if (!ok) break;
            occ = record_get(&seen, &(record_key){{(int32_t)(uint32_t)h, (int32_t)(uint32_t)(h >> 32), (int32_t)n, r, -2}});
            occ->value++;
            if (num->value == 0) num->value = ++next;   /* 1-based in the map: 0 is "new" */
            rw->gcomm[r][i] = num->value - 1;
        }
    }
    free(seen.s);
    return ok;
}

/* Rank s's sends, each given its tag: its position among s's messages to its destination
   (value j + 1 under the key (s, dst, comm, tag, k), k its position on that channel). */
static int record_number_sends(record_world *rw, record_map *m, int s) {
    const record_part *p = &rw->parts[s];
    uint64_t i;
    for (i = 0; i < p->h.nact; i++) {
        const record_action *a = &p->act[i];
        record_chan c;
        record_slot *k, *pair, *msg;
        int32_t C;
        if (RECORD_KIND(a->word) != RECORD_SEND) continue;
        c = p->chan[RECORD_REF(a->word)];
        C = (int32_t)rw->gcomm[s][c.comm];
        uint32_t kv, pv;
        if (!(k = record_get(m, &(record_key){{s, a->peer, C, c.tag, -1}}))) return 0;
        kv = k->value++;
        if (!(pair = record_get(m, &(record_key){{s, a->peer, -1, 0, -1}}))) return 0;
        pv = ++pair->value;
        if (!(msg = record_get(m, &(record_key){{s, a->peer, C, c.tag, (int32_t)kv}}))) return 0;
        msg->value = pv;
    }
    return 1;
}
/* The tag of receive a on rank d: the sender's position of the message it matched, or
   one no send has (counted in rw->unmatched). */
static int32_t record_recv_tag(record_world *rw, record_map *m, int d, const record_action *a) {
    record_chan c = rw->parts[d].chan[RECORD_REF(a->word)];
    int32_t C = (int32_t)rw->gcomm[d][c.comm];
    record_slot *k, *msg;
    if (a->peer < 0 || !(k = record_get(m, &(record_key){{a->peer, d, C, c.tag, -2}}))) return rw->unmatched++, 0x40000000;
    k->value++;
    msg = record_find(m, &(record_key){{a->peer, d, C, c.tag, (int32_t)k->value - 1}});
    if (!msg->used) return (int32_t)(0x40000000 + rw->unmatched++ % 0x3FFFFFFF);
    return (int32_t)msg->value - 1;
}
/* Anchor labels (RECORD-FORMAT): "<coll>_c<C>_n<N>_b<B>_r<R>_i<I>" and "<coll>_c<C>_n<N>_end". */
static void record_label(const record_world *rw, int r, const record_action *a, uint32_t n, const uint64_t *first, char *buf) {
    const record_part *p = &rw->parts[r];
    uint32_t coll = RECORD_REF(a->word) >> 19, comm = RECORD_REF(a->word) & (RECORD_MAX_COMMS - 1), k, me = 0;
    char name[RECORD_NAME_LEN + 1];
    memcpy(name, p->names[coll < RECORD_NAMES ? coll : 0], RECORD_NAME_LEN);
    name[RECORD_NAME_LEN] = 0;
    for (k = 0; k < p->comm_size[comm]; k++) if (p->members[first[comm] + k] == r) me = k;
    if (RECORD_KIND(a->word) == RECORD_END) snprintf(buf, GOAL_LABEL_MAX, "%s_c%u_n%u_end", name, rw->gcomm[r][comm], n);
    else snprintf(buf, GOAL_LABEL_MAX, "%s_c%u_n%u_b%llu_r%s%d_i%u", name, rw->gcomm[r][comm], n, (unsigned long long)a->arg,
                  a->peer < 0 ? "m" : "", a->peer < 0 ? -a->peer : a->peer, me);   /* labels are identifiers: -1 is "m1" */
}
/* One action of rank r into g. */
static int32_t record_add(record_world *rw, record_map *m, int r, goal_graph *g, const record_action *a) {
    goal_buf b = goal_buffer(0, 0, a->arg);
    switch (RECORD_KIND(a->word)) {
    case RECORD_SEND: {   /* in the order record_number_sends numbered them */
        record_slot *j = record_get(m, &(record_key){{r, a->peer, -2, 0, -1}});
        return j ? goal_graph_send(g, b, a->peer, (int)j->value++) : GOAL_ERR_NOMEM;
    }
    case RECORD_RECV: return goal_graph_recv(g, b, a->peer < 0 ? GOAL_ANY : a->peer, record_recv_tag(rw, m, r, a));
    case RECORD_CALC: return goal_graph_calc(g, a->arg);
    case RECORD_EXEC: return goal_graph_exec(g, (goal_op)(a->peer >> 8), (goal_dtype)(a->peer & 255), b, b);
    default: return goal_graph_nop(g);
    }
}
/* Rank r's actions, dependencies and anchor labels into a graph added to w; 0 with why. */
static int record_rank(record_world *rw, record_map *m, int r, goal_world *w, char *why, size_t len) {
    const record_part *p = &rw->parts[r];
    goal_graph_desc gd;
    goal_graph *g = NULL;
    goal_error err;
    uint64_t i, d = 0, *first = (uint64_t *)calloc(p->h.ncomm + 1, sizeof(uint64_t));
    uint32_t *calls = (uint32_t *)calloc(p->h.ncomm + 1, sizeof(uint32_t)), c;
    char label[GOAL_LABEL_MAX];
    int ok;
    memset(&gd, 0, sizeof gd);
    gd.rank = r; gd.nranks = rw->nranks;
    ok = first && calls && goal_graph_create(&g, &gd, &err) == GOAL_OK;
    for (c = 1; ok && c < p->h.ncomm; c++) first[c] = first[c - 1] + p->comm_size[c - 1];
    for (i = 0; ok && i < p->h.nact; i++) {
        const record_action *a = &p->act[i];
        uint32_t kind = RECORD_KIND(a->word), ref = RECORD_REF(a->word), nd = RECORD_NDEPS(a->word), k;
        int anchor = kind == RECORD_START || kind == RECORD_END;
        int32_t id;
        if (nd == RECORD_MANY) nd = d < p->h.ndep ? p->dep[d++] : ~0u;
        if ((kind == RECORD_SEND || kind == RECORD_RECV) && (ref >= p->h.nchan || a->peer >= rw->nranks || (kind == RECORD_SEND && a->peer < 0)))
            return snprintf(why, len, "rank %d action %llu: a message without a valid peer or channel", r, (unsigned long long)i), 0;
        if ((anchor && (ref & (RECORD_MAX_COMMS - 1)) >= p->h.ncomm) || kind < RECORD_SEND || kind > RECORD_END || nd > p->h.ndep - d)
            return snprintf(why, len, "rank %d action %llu: damaged", r, (unsigned long long)i), 0;
        if ((id = record_add(rw, m, r, g, a)) < 0) break;
        for (k = 0; k < nd; k++, d++) {
            uint32_t on = p->dep[d] & ~RECORD_IDEP;
            if (on >= i) return snprintf(why, len, "rank %d action %llu: depends on a later action", r, (unsigned long long)i), 0;
            if (p->dep[d] & RECORD_IDEP) goal_graph_irequires(g, id, (int32_t)on);
            else goal_graph_requires(g, id, (int32_t)on);
        }
        if (kind == RECORD_START) calls[ref & (RECORD_MAX_COMMS - 1)]++;
        if (anchor) record_label(rw, r, a, calls[ref & (RECORD_MAX_COMMS - 1)] - 1, first, label);
        if (anchor) goal_graph_label(g, id, label);
    }
    ok = ok && goal_graph_status(g) == GOAL_OK && goal_world_add_graph(w, g, &err) == GOAL_OK;
    if (!ok) snprintf(why, len, "rank %d: %s", r, g && goal_graph_status(g) != GOAL_OK ? goal_graph_message(g) : g ? err.msg : "out of memory");
    goal_graph_destroy(g);
    free(first); free(calls);
    return ok;
}
static int record_write_fn(void *user, const char *data, size_t len) { return fwrite(data, 1, len, (FILE *)user) != len; }
/* Reads every rank's part (say names what is missing), numbers communicators and messages,
   and builds *out; 0 with why. */
static int record_build(const char *prefix, record_world *rw, goal_world **out, FILE *say, char *why, size_t len) {
    char path[4096], err[256];
    record_map m;
    goal_world_desc wd;
    goal_error ge;
    int r, ok = 1, probe;
    record_part first;
    memset(rw, 0, sizeof *rw);
    memset(&m, 0, sizeof m);
    *out = NULL;
    /* the run's size from the first part there is (rank 0's unless it was lost) */
    for (probe = 0; probe < 65536; probe++) {
        snprintf(path, sizeof path, "%s.%d.part", prefix, probe);
        if (record_part_read(path, &first, err, sizeof err)) break;
    }
    if (probe == 65536) return snprintf(why, len, "no part %.200s.<rank>.part to read", prefix), 0;
    rw->nranks = first.h.nranks;
    rw->parts = (record_part *)calloc((size_t)rw->nranks, sizeof *rw->parts);
    rw->gcomm = (uint32_t **)calloc((size_t)rw->nranks, sizeof *rw->gcomm);
    if (!rw->parts || !rw->gcomm) { record_part_free(&first); return snprintf(why, len, "out of memory"), 0; }
    rw->parts[probe] = first;
    for (r = 0; r < rw->nranks; r++) {
        record_part *p = &rw->parts[r];
        snprintf(path, sizeof path, "%s.%d.part", prefix, r);
        if (r != probe && !record_part_read(path, p, err, sizeof err)) { fprintf(say, "record: %s: %s: rank %d is missing\n", path, err, r); continue; }
        if (p->h.nranks != rw->nranks || p->h.rank != r) {
            fprintf(say, "record: %s: from another run (rank %d of %d): rank %d is missing\n", path, p->h.rank, p->h.nranks, r);
            record_part_free(p);
            continue;
        }
        rw->nparts++;
        rw->actions += p->h.nact;
        if (p->h.ns > rw->ns) rw->ns = p->h.ns;
        if (!p->h.finalized) fprintf(say, "record: rank %d did not call MPI_Finalize: recorded until it ended\n", r);
        if (p->h.stopped) fprintf(say, "record: rank %d reached GOAL_MPI_RECORD_MAX: what it did after is not recorded\n", r);
    }
    memset(&wd, 0, sizeof wd);
    wd.nranks = rw->nranks;
    if (!record_number_comms(rw) || goal_world_create(out, &wd, &ge) != GOAL_OK) ok = 0, snprintf(why, len, "out of memory");
    for (r = 0; ok && r < rw->nranks; r++) if (rw->parts[r].h.nranks && !record_number_sends(rw, &m, r)) ok = 0, snprintf(why, len, "out of memory");
    for (r = 0; ok && r < rw->nranks; r++) if (rw->parts[r].h.nranks) ok = record_rank(rw, &m, r, *out, why, len);
    if (ok && rw->unmatched) fprintf(say, "record: %llu receive%s matched no recorded send\n", (unsigned long long)rw->unmatched, rw->unmatched == 1 ? "" : "s");
    free(m.s);
    if (!ok) { goal_world_destroy(*out); *out = NULL; }
    return ok;
}
static void record_world_free(record_world *rw) {
    int r;
    for (r = 0; rw->parts && r < rw->nranks; r++) { record_part_free(&rw->parts[r]); if (rw->gcomm) free(rw->gcomm[r]); }
    free(rw->parts); free(rw->gcomm);
    memset(rw, 0, sizeof *rw);
}
/* Assembles PREFIX.<rank>.part into PREFIX.goal (written whole, then renamed into place);
   0 with why. */
static int record_assemble(const char *prefix, record_world *rw, FILE *say, char *why, size_t len) {
    char path[4096], tmp[4200];
    goal_world *w = NULL;
    FILE *f;
    int ok = record_build(prefix, rw, &w, say, why, len);
    snprintf(path, sizeof path, "%s.goal", prefix);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (ok && !(f = fopen(tmp, "wb"))) ok = 0, snprintf(why, len, "%.300s: cannot write", tmp);
    else if (ok) {
        ok = goal_world_write(w, GOAL_DIALECT_PAPER, record_write_fn, f) == GOAL_OK;
        ok = (fclose(f) == 0) && ok && rename(tmp, path) == 0;
        if (!ok) { remove(tmp); snprintf(why, len, "%.300s: cannot write", path); }
    }
    goal_world_destroy(w);
    return ok;
}
#endif
