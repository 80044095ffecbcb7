/* goal.h - v0.1.0 - GOAL, the Group Operation Assembly Language: builder, textual GOAL in
   and out, compiler to the binary schedule, loader with validation, worlds of schedules.

   In exactly ONE .c or .cpp file:   #define GOAL_IMPLEMENTATION   then   #include "goal.h"
   (GOAL_ALL_IMPLEMENTATION, or any add-on's macro, works as well.)

   Sections: OVERVIEW · STEP BY STEP · TEXT · BINARY SCHEDULE · CONFIGURATION · MEMORY ·
             ERRORS · LIMITS · LICENSE

   OVERVIEW
   --------
   GOAL (Hoefler, Siebert, Lumsdaine, ICPP 2009) separates the definition of a collective
   from its execution. One rank's part of a collective is a DAG of actions:
     send  (buffer, peer, tag)      recv (buffer, peer, tag)
     exec  buf1 = op(buf1, buf2)    predefined op x type, or a user function id
     calc  (cost)                   local computation: a hook for simulators and benchmarks
     nop                            a join point (the paper's dummy action)
   and of dependencies:  requires A B  (A starts after B completed)  and
                         irequires A B (A starts after B started; LogGOPSim's irequires).
   Buffers are address-independent: (slot, offset, size). The caller binds slots to memory
   when a run starts (goal_sched.h), so one schedule is reusable and printable. Slot
   GOAL_SLOT_SCRATCH is memory the executor allocates, sized by the schedule.

     goal_graph (mutable, one rank) --goal_compile--> goal_schedule (flat, const, bytes)
     text --goal_parse--> goal_world (all ranks' schedules) --goal_world_write--> text
     goal_world --goal_world_save--> bytes --goal_world_load--> goal_world

   STEP BY STEP
   ------------
     goal_graph *g; goal_graph_desc gd = {0};
     gd.rank = 1; gd.nranks = 4;
     goal_graph_create(&g, &gd);
     int32_t r = goal_graph_recv(g, goal_buffer(0, 0, 8), 0, 0);   // 8 bytes from rank 0
     int32_t s = goal_graph_send(g, goal_buffer(0, 0, 8), 3, 0);   // then forward to rank 3
     goal_graph_requires(g, s, r);                                 // s after r completed
     goal_schedule sched; goal_error err;
     if (goal_compile(g, &sched, &err) != GOAL_OK) puts(err.msg);
     ... run it with goal_sched.h, save sched.bytes / sched.size, reload with
     goal_schedule_load ...
     goal_schedule_free(&sched); goal_graph_destroy(g);

   Every builder call validates its arguments and returns an action id (>= 0) or a negative
   goal_status; a failed call changes nothing. The graph remembers its first error, and
   goal_compile refuses a graph that had one, so code may check once at the end. A negative
   id passed to goal_graph_requires comes back as that status.

   TEXT
   ----
   goal_parse reads both dialects and detects which one it is given:
   * The paper's (Fig. 1 and Example 2). Statements end with ';', '#' starts a comment:
       rank #0 { r1: recv 503,1 from 1; e1: exec sumInt8 with 501,1 503,1; requ e1 -> r1; }
       rank #1, #2 { send 501,1 to 0; }
     A buffer "A,S" is offset A, size S of slot 0. Extensions, so that every graph has a
     text form (all optional, and written only when needed):
       num_ranks N;                   first statement; otherwise 1 + the largest rank named
       SLOT:A,S   scratch:A,S         a buffer in another slot, or in the scratch slot
       send B to P tag T cpu C nic N  tag / cpu / nic, in this order; -1 = any (tag, source)
       exec user N with B B           user function N
       calc COST [cpu C];  nop;       local computation and the dummy action
       irequ A -> B;                  A starts after B started
     Statements outside any rank block form the body of rank 0.
   * LogGOPSim's (see tests/data/GRAMMAR.md): num_ranks N, rank R { ... },
     [label:] send|recv <n>b to|from <peer> [tag T] [cpu C] [nic N], [label:] calc <n> [cpu C],
     a requires b, a irequires b, // and / * * / comments, CRLF. Indentation is accepted.
     Actions get slot 0, offset 0 and the given size.
   Writing: goal_world_write in either dialect. Dependencies are written at the end of each
   rank block, grouped by the action they wait for, which keeps the compiled order: reading
   what was written gives the identical schedule (and the identical text). The LogGOPSim
   dialect has no buffers and no exec: an exec is written as "calc <size of buf1>" (what
   Schedgen writes for a reduction), a nop as "calc 0"; buffers keep only their size.
   Errors name the place: "FILE: line L, col C: message" in goal_error.msg.

   BINARY SCHEDULE (format version 1, all little-endian, read in place)
   ---------------
     header   48 bytes: "GOAL" u16 version u16 flags u32 rank u32 nranks u32 nactions
              u32 nedges u32 nindep u32 nbody u32 nslots u32 labelbytes u64 scratch
     slots    u64 x nslots      bytes of each user slot the schedule touches
     indep    u32 x nindep      the independent actions, in order (the paper's list)
     records  u32 x 2 x nactions   head, body offset (in words)
              head = kind:3 | flags:5 | nsrc:12 | ndeps:12 (0xfff: the count is a body word)
     body     u32 words per action: [nsrc] [ndeps] dependents... parameters...
              a dependent is an action index; bit 31 set = released when this action
              starts (irequires), those come first. Parameters by kind and flags:
              send/recv: peer size [offset] [tag] [slot:16|cpu:8|nic:8]
              exec:      op:8|type:8 [fn] slots(16|16) off1 size1 off2 size2
              calc:      cost [slot:16|cpu:8|nic:8]
              sizes, offsets and costs take 2 words when the WIDE flag is set.
     labels   optional: u32 x nactions string offsets (0xffffffff = none), then the strings
   A simple send with one dependent takes 8 + 8 + 4 bytes. The loader (goal_schedule_load)
   trusts nothing: header, every offset, count, id, flag, buffer extent, label, the in-degree
   of every action, and acyclicity are checked, and there is exactly one encoding of each
   schedule, so saving what was loaded gives back the same bytes.
   A world file: "GOALWRLD" u16 version u16 0 u32 nranks u64 size, u64 x (nranks+1)
   schedule offsets, then the schedules (8-byte aligned, in rank order).

   CONFIGURATION
   -------------
     GOAL_MALLOC(size) / GOAL_FREE(ptr)   default allocator (both or neither), libc
     GOAL_ASSERT(cond)                    programmer errors only; default assert()
     GOAL_API                             linkage of the public functions (default extern)

   MEMORY
   ------
   Every object takes a goal_allocator {alloc_fn, free_fn, user}; zeroed = GOAL_MALLOC and
   GOAL_FREE. It is stored at creation and used for every free. A goal_schedule from
   goal_compile owns its bytes; one from goal_schedule_load or goal_world_schedule borrows
   them (the caller keeps them alive). goal_schedule_free is safe on both.

   ERRORS
   ------
   goal_status: 0 ok, 1 pending (not finished yet), negative errors; goal_strerror() gives
   fixed strings. Details (line, column, rank, action, text) go to a goal_error the caller
   passes (may be NULL), never to a global.

   LIMITS
   ------
   ranks < 2^31; actions per rank < 2^31 (and the body of one schedule < 2^32 words);
   tags 0 .. 2^31-1 (or -1 = any); cpu and nic 0..255; user slots 0..65534; offset + size
   of a buffer <= 2^63-1; labels <= GOAL_LABEL_MAX-1 characters.

   LICENSE: MIT (see the end of this file).
*/
#ifndef GOAL_H_INCLUDED
#define GOAL_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define GOAL_VERSION_MAJOR 0
#define GOAL_VERSION_MINOR 1
#define GOAL_VERSION_PATCH 0
#define GOAL_VERSION_STRING "0.1.0"
#define GOAL_FORMAT_VERSION 1

#ifndef GOAL_API
#define GOAL_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ------------------------------------------------------------------------ */
#define GOAL_STATUS_LIST(X)                                                     \
    X(GOAL_OK, 0, "ok")                                                         \
    X(GOAL_PENDING, 1, "not finished yet")                                      \
    X(GOAL_ERR_NOMEM, -1, "out of memory")                                      \
    X(GOAL_ERR_ARG, -2, "invalid argument")                                     \
    X(GOAL_ERR_ACTION, -3, "unknown action id")                                 \
    X(GOAL_ERR_SELFDEP, -4, "an action cannot depend on itself")                \
    X(GOAL_ERR_PEER, -5, "peer rank out of range")                              \
    X(GOAL_ERR_SIZE, -6, "size or offset out of range")                         \
    X(GOAL_ERR_OP, -7, "operation not supported for this datatype")             \
    X(GOAL_ERR_TYPE, -8, "unknown or unsupported datatype")                     \
    X(GOAL_ERR_SYNTAX, -9, "syntax error")                                      \
    X(GOAL_ERR_LABEL, -10, "unknown label")                                     \
    X(GOAL_ERR_DUPLABEL, -11, "duplicate label")                                \
    X(GOAL_ERR_CYCLE, -12, "dependency cycle")                                  \
    X(GOAL_ERR_FORMAT, -13, "corrupt or truncated schedule")                    \
    X(GOAL_ERR_VERSION, -14, "unsupported schedule format version")             \
    X(GOAL_ERR_LIMIT, -15, "a limit of the format is exceeded")                 \
    X(GOAL_ERR_IO, -16, "input/output error")                                   \
    X(GOAL_ERR_BOUNDS, -17, "buffer too small for the schedule")                \
    X(GOAL_ERR_TRANSPORT, -18, "transport error")                               \
    X(GOAL_ERR_USERFN, -19, "user function failed")                             \
    X(GOAL_ERR_NOUSERFN, -20, "user function is not registered")                \
    X(GOAL_ERR_TRUNCATE, -21, "message larger than the receive buffer")         \
    X(GOAL_ERR_DEADLOCK, -22, "deadlock: actions can never start")              \
    X(GOAL_ERR_STATE, -23, "call not valid in this state")                      \
    X(GOAL_ERR_RANK, -24, "rank out of range")                                  \
    X(GOAL_ERR_MATCH, -25, "unmatched or mismatched message")

#define GOAL__STATUS_ENUM(name, value, text) name = value,
typedef enum goal_status { GOAL_STATUS_LIST(GOAL__STATUS_ENUM) } goal_status;
#undef GOAL__STATUS_ENUM

GOAL_API const char *goal_strerror(int status);   /* fixed text for any status value */
GOAL_API const char *goal_version(void);          /* GOAL_VERSION_STRING of the compiled code */

/* ---- memory ------------------------------------------------------------------------ */
typedef struct goal_allocator {   /* zeroed: GOAL_MALLOC / GOAL_FREE */
    void *(*alloc_fn)(size_t size, void *user);
    void (*free_fn)(void *ptr, void *user);
    void *user;
} goal_allocator;

/* ---- error details ----------------------------------------------------------------- */
#define GOAL_MSG_MAX 320
typedef struct goal_error {
    int status;          /* the goal_status returned */
    int line, col;       /* 1-based place in the text; 0 when not from text */
    int rank;            /* rank concerned, -1 when none */
    int32_t action;      /* action index concerned, -1 when none */
    char msg[GOAL_MSG_MAX]; /* the whole message, ready to print */
} goal_error;

/* ---- actions ----------------------------------------------------------------------- */
typedef enum goal_kind { GOAL_NOP = 0, GOAL_SEND = 1, GOAL_RECV = 2, GOAL_EXEC = 3, GOAL_CALC = 4 } goal_kind;

#define GOAL_OP_LIST(X) X(MAX, "max") X(MIN, "min") X(SUM, "sum") X(PROD, "prod")          \
    X(LAND, "land") X(LOR, "lor") X(LXOR, "lxor") X(BAND, "band") X(BOR, "bor")             \
    X(BXOR, "bxor") X(COPY, "copy")
#define GOAL__OP_ENUM(name, text) GOAL_OP_##name,
typedef enum goal_op { GOAL_OP_LIST(GOAL__OP_ENUM) GOAL_OP_USER, GOAL_OP_COUNT } goal_op;
#undef GOAL__OP_ENUM

/* A datatype is a class (high nibble) and log2 of its width in bytes (low nibble). Float8
   and Float16 have names so that they can be rejected clearly. */
typedef enum goal_dtype {
    GOAL_INT8 = 0x00, GOAL_INT16 = 0x01, GOAL_INT32 = 0x02, GOAL_INT64 = 0x03,
    GOAL_UINT8 = 0x10, GOAL_UINT16 = 0x11, GOAL_UINT32 = 0x12, GOAL_UINT64 = 0x13,
    GOAL_FLOAT8 = 0x20, GOAL_FLOAT16 = 0x21, GOAL_FLOAT32 = 0x22, GOAL_FLOAT64 = 0x23
} goal_dtype;

#define GOAL_ANY (-1)                 /* any source (recv peer), any tag */
#define GOAL_SLOT_SCRATCH 0xFFFFu     /* the executor-allocated slot */
#define GOAL_SLOT_MAX 0xFFFEu         /* largest user slot */
#define GOAL_LABEL_MAX 64             /* label length limit, including the NUL */
#define GOAL_SIZE_MAX ((uint64_t)INT64_MAX) /* offset + size of any buffer */

typedef struct goal_buf {             /* bytes [offset, offset + size) of a slot */
    uint32_t slot;
    uint64_t offset, size;
} goal_buf;

typedef struct goal_action {          /* one action, as goal_graph_add takes it */
    goal_kind kind;
    int32_t peer;      /* send/recv: the other rank; recv may use GOAL_ANY */
    int32_t tag;       /* send/recv: >= 0 or GOAL_ANY; default 0 */
    uint8_t cpu, nic;  /* LogGOPSim resource indices; default 0 */
    goal_buf buf;      /* send/recv: the data; exec: buf1, which receives the result */
    goal_buf buf2;     /* exec: the second operand */
    goal_op op;        /* exec: predefined op, or GOAL_OP_USER */
    goal_dtype dtype;  /* exec with a predefined op */
    uint32_t fn;       /* exec with GOAL_OP_USER: the user function id */
    uint64_t cost;     /* calc */
} goal_action;

/* A buffer in one call: goal_buffer(slot, offset, size). */
static inline goal_buf goal_buffer(uint32_t slot, uint64_t offset, uint64_t size) {
    goal_buf b;
    b.slot = slot; b.offset = offset; b.size = size;
    return b;
}

GOAL_API size_t goal_dtype_size(goal_dtype t);          /* bytes of one element, 0 if unknown */
GOAL_API goal_status goal_op_check(goal_op op, goal_dtype t); /* is op x t predefined? */
GOAL_API const char *goal_op_name(goal_op op);           /* "sum", "user", NULL if unknown */
GOAL_API const char *goal_dtype_name(goal_dtype t);      /* "Int32", NULL if unknown */

/* ---- the graph: one rank's DAG, mutable ----------------------------------------------- */
typedef struct goal_graph goal_graph;
typedef struct goal_graph_desc {
    int rank;               /* this rank, default 0 */
    int nranks;             /* ranks in the world, default 1 */
    goal_allocator alloc;
} goal_graph_desc;

GOAL_API goal_status goal_graph_create(goal_graph **out, const goal_graph_desc *desc);
GOAL_API void goal_graph_destroy(goal_graph *g);
/* Empties the graph for reuse (memory is kept), for rank of nranks. */
GOAL_API goal_status goal_graph_reset(goal_graph *g, int rank, int nranks);
GOAL_API int32_t goal_graph_add(goal_graph *g, const goal_action *a); /* id or negative status */
GOAL_API int32_t goal_graph_send(goal_graph *g, goal_buf b, int peer, int tag);
GOAL_API int32_t goal_graph_recv(goal_graph *g, goal_buf b, int peer, int tag);
/* buf1 = op(buf1, buf2) elementwise; both buffers hold the same number of elements. */
GOAL_API int32_t goal_graph_exec(goal_graph *g, goal_op op, goal_dtype t, goal_buf buf1, goal_buf buf2);
/* buf1 = fn(buf1, buf2) with the user function registered as fn at run time. */
GOAL_API int32_t goal_graph_user(goal_graph *g, uint32_t fn, goal_buf buf1, goal_buf buf2);
GOAL_API int32_t goal_graph_calc(goal_graph *g, uint64_t cost);
GOAL_API int32_t goal_graph_nop(goal_graph *g);
GOAL_API goal_status goal_graph_requires(goal_graph *g, int32_t a, int32_t b);  /* a after b completed */
GOAL_API goal_status goal_graph_irequires(goal_graph *g, int32_t a, int32_t b); /* a after b started */
GOAL_API goal_status goal_graph_label(goal_graph *g, int32_t a, const char *label); /* an identifier */
GOAL_API goal_status goal_graph_status(const goal_graph *g);   /* first error so far, or GOAL_OK */
GOAL_API const char *goal_graph_message(const goal_graph *g);  /* that error in words, or "" */
GOAL_API int32_t goal_graph_count(const goal_graph *g);        /* actions so far */
GOAL_API int goal_graph_rank(const goal_graph *g);
GOAL_API int goal_graph_nranks(const goal_graph *g);
GOAL_API goal_status goal_graph_get(const goal_graph *g, int32_t id, goal_action *out);

/* ---- the schedule: compiled, flat, read-only ------------------------------------------ */
typedef struct goal_schedule {        /* a validated view of a binary schedule */
    const uint8_t *bytes;             /* the binary, size bytes; 4-byte aligned */
    size_t size;
    int32_t rank, nranks;
    uint32_t nactions, nedges, nindep, nslots, nbody;
    uint64_t scratch;                 /* bytes of the scratch slot */
    const uint32_t *indep;            /* nindep independent action indices */
    const uint32_t *recs;             /* 2 words per action: head, body offset */
    const uint32_t *body;
    const uint32_t *labels;           /* NULL unless the labels are stored */
    uint32_t label_mode, labelbytes;
    void *owned_;                     /* memory to free, if this view owns it */
    goal_allocator alloc_;
} goal_schedule;

/* Compiles g (linear in actions + edges); a cycle is GOAL_ERR_CYCLE naming a label on it. */
GOAL_API goal_status goal_compile(const goal_graph *g, goal_schedule *out, goal_error *err);
/* Validates bytes and makes a view of them; copies them only when not 4-byte aligned. */
GOAL_API goal_status goal_schedule_load(goal_schedule *out, const void *bytes, size_t size,
                                        const goal_allocator *alloc, goal_error *err);
GOAL_API void goal_schedule_free(goal_schedule *s);
GOAL_API void goal_schedule_action(const goal_schedule *s, uint32_t i, goal_action *out);
/* The dependents of action i (bit 31 set: released when i starts); returns their count. */
GOAL_API uint32_t goal_schedule_deps(const goal_schedule *s, uint32_t i, const uint32_t **deps);
GOAL_API uint32_t goal_schedule_nsrc(const goal_schedule *s, uint32_t i);
/* Bytes of user slot `slot` (or the scratch slot) that the schedule touches. */
GOAL_API uint64_t goal_schedule_slot_size(const goal_schedule *s, uint32_t slot);
/* The name of action i: its label, or "l<i+1>" when it has none. buf: GOAL_LABEL_MAX bytes. */
GOAL_API const char *goal_schedule_label(const goal_schedule *s, uint32_t i, char *buf);
/* Appends the schedule's actions and dependencies to g (emptied first, same rank). */
GOAL_API goal_status goal_schedule_to_graph(const goal_schedule *s, goal_graph *g);

/* ---- the world: the schedules of all ranks -------------------------------------------- */
typedef struct goal_world goal_world;
typedef enum goal_dialect { GOAL_DIALECT_AUTO = 0, GOAL_DIALECT_PAPER = 1, GOAL_DIALECT_LOGGOPSIM = 2 } goal_dialect;

GOAL_API goal_status goal_world_create(goal_world **out, int nranks, const goal_allocator *alloc);
GOAL_API void goal_world_destroy(goal_world *w);
GOAL_API int goal_world_nranks(const goal_world *w);
/* Compiles g and stores it as rank goal_graph_rank(g); a rank may be set once. */
GOAL_API goal_status goal_world_add_graph(goal_world *w, const goal_graph *g, goal_error *err);
GOAL_API goal_status goal_world_add_schedule(goal_world *w, const goal_schedule *s, goal_error *err);
/* A view of rank r's schedule; GOAL_ERR_RANK for a rank never set. Valid until w changes. */
GOAL_API goal_status goal_world_schedule(const goal_world *w, int rank, goal_schedule *out);
/* The world file; *bytes stays owned by w and valid until w changes or is destroyed. */
GOAL_API goal_status goal_world_save(goal_world *w, const void **bytes, size_t *size);
GOAL_API goal_status goal_world_load(goal_world **out, const void *bytes, size_t size,
                                     const goal_allocator *alloc, goal_error *err);
GOAL_API goal_dialect goal_world_dialect(const goal_world *w); /* dialect it was parsed from */

/* ---- text ----------------------------------------------------------------------------- */
typedef struct goal_parse_desc {
    const char *filename;    /* for messages; default "<input>" */
    goal_dialect dialect;    /* default: detect */
    goal_allocator alloc;
} goal_parse_desc;

/* Parses a whole world; every rank is compiled (so cycles are found). */
GOAL_API goal_status goal_parse(const char *text, size_t len, const goal_parse_desc *desc,
                                goal_world **out, goal_error *err);
/* Output goes to write_fn(user, data, len), which returns 0 to go on. */
typedef int (*goal_write_fn)(void *user, const char *data, size_t len);
GOAL_API goal_status goal_world_write(const goal_world *w, goal_dialect d, goal_write_fn fn, void *user);
/* One rank block. */
GOAL_API goal_status goal_schedule_write(const goal_schedule *s, goal_dialect d, goal_write_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_H_INCLUDED */
