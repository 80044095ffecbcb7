/* goal.h - v0.1.0 - GOAL, the Group Operation Assembly Language: builder, textual GOAL in
   and out, compiler to the binary schedule, loader with validation, worlds of schedules.

   In exactly ONE .c or .cpp file:   #define GOAL_IMPLEMENTATION   then   #include "goal.h"
   (GOAL_ALL_IMPLEMENTATION works as well.) Every goal header follows one rule: its macro,
   GOAL_<HEADER>_IMPLEMENTATION, builds its own implementation and no other; the umbrella
   GOAL_ALL_IMPLEMENTATION builds every one that the file includes. A header may be included
   any number of times, before the macro (from the program's own header, say) and after it:
   each includes the goal headers it builds on before its include guard, so an inclusion
   after the macro reaches theirs too, and each implementation is built once.

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
     goal_graph_create(&g, &gd, NULL);                             // or &err: why it failed
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
   goal_parse reads both dialects and detects which one it is given (a UTF-8 byte order
   mark at the start is skipped):
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
              exec:      op:8|type:8 [fn] slots(16|16) off1 size1 off2 size2 (op: max 0,
                         min 1, sum 2, prod 3, land..bxor 4..9, copy 10, user 11; type:
                         class << 4 | log2 width; the enums differ, see GOAL__OP_CODE)
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
     GOAL_REALLOC(ptr, size)              with them, optional: lets buffers of the default
                                          allocator grow without a copy
     GOAL_ASSERT(cond)                    programmer errors only; default assert()
     GOAL_API                             linkage of the public functions (default extern)

   API SHAPES (every header)
   ----------
   An object with options: goal_X_create(&out, &desc, &err) from a goal_X_desc in which zero
   (or a NULL desc) means the documented default, ended by goal_X_destroy. A result struct
   goal_X_result (or goal_X) is released by goal_X_free: goal_sim_check_result by
   goal_sim_check_free, goal_sim_run_result by goal_sim_run_free, goal_schedule by
   goal_schedule_free. A call that can fail with more
   to say than its status takes a goal_error * last (NULL allowed); an object that fails
   later keeps its error (goal_exec_error, goal_mpi_error, goal_graph_message).

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
   of a buffer <= 2^63-1; labels <= GOAL_LABEL_MAX-1 characters; at most 64 ranks share
   one paper-dialect block ("rank #1, #2, ... {").
   A world's memory follows its content: the ranks set, not nranks ("rank #2000000000 {}"
   is a few hundred bytes). What it writes is linear in nranks where the format needs every
   rank: the world file (56 bytes per unset rank) and LogGOPSim text (a block per rank).

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

/* Sum first: a zeroed op is sum (the binary schedule keeps its own numbers: max = 0 there). */
#define GOAL_OP_LIST(X) X(SUM, "sum") X(PROD, "prod") X(LAND, "land") X(LOR, "lor")          \
    X(LXOR, "lxor") X(BAND, "band") X(BOR, "bor") X(BXOR, "bxor") X(COPY, "copy")           \
    X(MAX, "max") X(MIN, "min")
#define GOAL__OP_ENUM(name, text) GOAL_OP_##name,
typedef enum goal_op { GOAL_OP_LIST(GOAL__OP_ENUM) GOAL_OP_USER, GOAL_OP_COUNT } goal_op;
#undef GOAL__OP_ENUM

/* A datatype is a class (high nibble) and log2 of its width in bytes with bit 1 flipped
   (low nibble), so that a zeroed dtype is Int32 (the binary schedule stores the width
   unflipped). Float8 and Float16 have names so that they can be rejected clearly. */
typedef enum goal_dtype {
    GOAL_INT32 = 0x00, GOAL_INT64 = 0x01, GOAL_INT8 = 0x02, GOAL_INT16 = 0x03,
    GOAL_UINT32 = 0x10, GOAL_UINT64 = 0x11, GOAL_UINT8 = 0x12, GOAL_UINT16 = 0x13,
    GOAL_FLOAT32 = 0x20, GOAL_FLOAT64 = 0x21, GOAL_FLOAT8 = 0x22, GOAL_FLOAT16 = 0x23
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
    goal_kind kind;    /* zeroed: GOAL_NOP */
    int32_t peer;      /* send/recv: the other rank; recv may use GOAL_ANY */
    int32_t tag;       /* send/recv: >= 0 or GOAL_ANY; default 0 */
    uint8_t cpu, nic;  /* LogGOPSim resource indices; default 0 */
    goal_buf buf;      /* send/recv: the data; exec: buf1, which receives the result */
    goal_buf buf2;     /* exec: the second operand */
    goal_op op;        /* exec: predefined op, or GOAL_OP_USER; default (zero) sum */
    goal_dtype dtype;  /* exec with a predefined op; default (zero) Int32 */
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

/* desc NULL: rank 0 of 1. A bad rank is GOAL_ERR_RANK (err says which). */
GOAL_API goal_status goal_graph_create(goal_graph **out, const goal_graph_desc *desc, goal_error *err);
GOAL_API void goal_graph_destroy(goal_graph *g);
/* Empties the graph for reuse (memory is kept), for rank of nranks. */
GOAL_API goal_status goal_graph_reset(goal_graph *g, int rank, int nranks);
/* At most n actions (0: no limit, the default; kept by reset): the next fails with
   GOAL_ERR_LIMIT, so a caller sizing up a generator stops it early. */
GOAL_API void goal_graph_max_actions(goal_graph *g, uint32_t n);
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

typedef struct goal_world_desc {   /* zeroed (or NULL): one rank, GOAL_MALLOC / GOAL_FREE */
    int nranks;                    /* ranks 0 .. nranks-1; 0: 1 */
    goal_allocator alloc;
} goal_world_desc;
/* An empty world: every rank unset until added. A negative nranks is GOAL_ERR_RANK. */
GOAL_API goal_status goal_world_create(goal_world **out, const goal_world_desc *desc, goal_error *err);
GOAL_API void goal_world_destroy(goal_world *w);
GOAL_API int goal_world_nranks(const goal_world *w);
/* Compiles g and stores it as rank goal_graph_rank(g); a rank may be set once. */
GOAL_API goal_status goal_world_add_graph(goal_world *w, const goal_graph *g, goal_error *err);
GOAL_API goal_status goal_world_add_schedule(goal_world *w, const goal_schedule *s, goal_error *err);
/* A view of rank r's schedule; GOAL_ERR_RANK for a rank never set. Valid until w changes. */
GOAL_API goal_status goal_world_schedule(const goal_world *w, int rank, goal_schedule *out);
/* Writes the world file to write_fn (see goal_write_fn below); ranks never set are empty. */
typedef int (*goal_write_fn)(void *user, const char *data, size_t len);
GOAL_API goal_status goal_world_save(const goal_world *w, goal_write_fn fn, void *user);
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
GOAL_API goal_status goal_world_write(const goal_world *w, goal_dialect d, goal_write_fn fn, void *user);
/* One rank block. */
GOAL_API goal_status goal_schedule_write(const goal_schedule *s, goal_dialect d, goal_write_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_H_INCLUDED */

/* ======================================================================================= */
/*   SHARED INTERNAL BLOCK: what the implementations of every goal header use: memory, the  */
/*   one error helper, the binary format's one reader, the per-peer index (static inline,   */
/*   so a file that builds only some implementations compiles it without warnings)         */
/* ======================================================================================= */
#if (defined(GOAL_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION) || defined(GOAL_SCHED_IMPLEMENTATION) || \
     defined(GOAL_SIM_IMPLEMENTATION) || defined(GOAL_ANALYZE_IMPLEMENTATION) || defined(GOAL_ALGOS_IMPLEMENTATION) || \
     defined(GOAL_TUNE_IMPLEMENTATION) || \
     defined(GOAL_MPI_IMPLEMENTATION)) && \
    !defined(GOAL__SHARED_DONE)
#define GOAL__SHARED_DONE
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>   /* malloc and free unless GOAL_MALLOC says otherwise */
#if defined(__GNUC__) || defined(__clang__)
#define GOAL__HOT static inline __attribute__((always_inline))   /* hot paths: the executor's, the simulator's (where a table argument is a constant) */
#else
#define GOAL__HOT static inline
#endif

/* ---- memory ------------------------------------------------------------------------------- */
#if defined(GOAL_MALLOC) != defined(GOAL_FREE)
#error "define both GOAL_MALLOC and GOAL_FREE, or neither"
#endif
#ifndef GOAL_MALLOC
#define GOAL_MALLOC(size) malloc(size)
#define GOAL_FREE(ptr) free(ptr)
#define GOAL_REALLOC(ptr, size) realloc(ptr, size)
#endif
static inline void *goal__default_alloc(size_t size, void *user) { (void)user; return GOAL_MALLOC(size); }
static inline void goal__default_free(void *ptr, void *user) { (void)user; GOAL_FREE(ptr); }

/* Copies n words: an action's payload or dependents, a few words each, where a call to
   memcpy per action cost more than the copy (2% of goal tune's time; a plain loop is turned
   back into that call). */
static inline void goal__copy32(uint32_t *to, const uint32_t *from, uint32_t n) {
    switch (n) {
    case 4: to[3] = from[3]; /* fall through */
    case 3: to[2] = from[2]; /* fall through */
    case 2: to[1] = from[1]; /* fall through */
    case 1: to[0] = from[0]; /* fall through */
    case 0: break;
    default: memcpy(to, from, (size_t)n * sizeof(uint32_t));
    }
}
static inline goal_allocator goal__allocator(const goal_allocator *a) {
    goal_allocator r;
    if (a && a->alloc_fn && a->free_fn) return *a;
    r.alloc_fn = goal__default_alloc; r.free_fn = goal__default_free; r.user = NULL;
    return r;
}
static inline void *goal__alloc(const goal_allocator *a, size_t size) {
    return a->alloc_fn(size ? size : 1, a->user);
}
static inline void goal__free(const goal_allocator *a, void *p) { if (p) a->free_fn(p, a->user); }

/* FNV-1a, 64 bits, chained: h = goal__hash(GOAL__HASH_SEED, p, n), then goal__hash(h, q, m)
   for more bytes. The one hash of the headers (label tables, goal_mpi.h's cache and digests). */
#define GOAL__HASH_SEED 1469598103934665603ull
static inline uint64_t goal__hash(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Whether slot names a slot of s (a user slot, or the scratch one). */
static inline int goal__schedule_has_slot(const goal_schedule *s, uint32_t slot) {
    return slot == GOAL_SLOT_SCRATCH || slot < s->nslots;
}
/* Whether bytes [offset, offset + size) of slot lie within what s touches of it: the range
   check of a local step's buffers (goal_sched.h's executor, goal_mpi.h's plans). */
static inline int goal__schedule_within(const goal_schedule *s, uint32_t slot, uint64_t offset, uint64_t size) {
    uint64_t have = goal_schedule_slot_size(s, slot);
    return goal__schedule_has_slot(s, slot) && size <= have && offset <= have - size;
}

/* n elements of `elem` bytes; NULL on failure or when n * elem overflows. */
static inline void *goal__new(const goal_allocator *a, size_t n, size_t elem) {
    return elem && n > ((size_t)-1) / elem ? NULL : goal__alloc(a, n * elem);
}
/* goal__new, zeroed. */
static inline void *goal__calloc(const goal_allocator *a, size_t n, size_t elem) {
    void *p = goal__new(a, n, elem);
    if (p) memset(p, 0, n * elem);
    return p;
}
/* Grows *ptr (holding *cap elements of `elem` bytes) to hold at least `need` elements. */
static inline goal_status goal__reserve(const goal_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem) {
    size_t ncap;
    void *np;
    if (need <= *cap) return GOAL_OK;
    ncap = *cap ? *cap : 4;
    while (ncap < need) {
        if (ncap > ((size_t)-1) / 2 / elem) { ncap = need; break; }
        ncap *= 2;
    }
    if (ncap > ((size_t)-1) / elem) return GOAL_ERR_NOMEM;
#ifdef GOAL_REALLOC
    /* The default allocator grows in place where it can (mremap for large blocks): a
       100 MB world then costs no copies. A caller's allocator has no realloc: it copies. */
    if (*ptr && a->alloc_fn == goal__default_alloc) {
        if (!(np = GOAL_REALLOC(*ptr, ncap * elem))) return GOAL_ERR_NOMEM;
        *ptr = np; *cap = ncap;
        return GOAL_OK;
    }
#endif
    np = goal__alloc(a, ncap * elem);
    if (!np) return GOAL_ERR_NOMEM;
    if (*ptr) { memcpy(np, *ptr, *cap * elem); goal__free(a, *ptr); }
    *ptr = np; *cap = ncap;
    return GOAL_OK;
}
/* The test of room inline: builders and readers reserve per action and mostly have room. */
#define GOAL__RESERVE(a, arr, cap, need) \
    ((need) <= (cap) ? GOAL_OK : goal__reserve((a), (void **)&(arr), &(cap), (need), sizeof(*(arr))))

/* ---- errors ------------------------------------------------------------------------------- */
/* Fills err (if any): status st, a printf-style message, rank `rank` (-1: none), the rest
   cleared (action -1, line and col 0); returns st. The one way every header fills a
   goal_error: a caller that knows more (the action, a line) sets it afterwards.
   goal__fail(err, GOAL_OK, -1, "") clears err. */
static inline goal_status goal__fail(goal_error *err, goal_status st, int rank, const char *fmt, ...) {
    va_list ap;
    if (!err) return st;
    err->status = st; err->line = err->col = 0; err->rank = rank; err->action = -1; err->msg[0] = 0;
    if (!fmt[0]) return st;   /* clearing, as readers do per rank: no formatting */
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* The ranks a create's desc asks for (0: 1); -1 after GOAL_ERR_RANK in err when negative. */
static inline int goal__desc_ranks(int nranks, const char *what, goal_error *err) {
    if (nranks >= 0) return nranks ? nranks : 1;
    goal__fail(err, GOAL_ERR_RANK, -1, "%d %s (nranks >= 1, or 0 for 1)", nranks, what);
    return -1;
}
/* A create's status, explained in err (cleared on success). */
static inline goal_status goal__created(goal_status st, const char *what, goal_error *err) {
    int arg = st == GOAL_ERR_ARG;
    return goal__fail(err, st, -1, "%s%s%s", st == GOAL_OK ? "" : arg ? "no place for the " : "out of memory", arg ? what : "",
                      arg ? " (out is NULL)" : "");
}

/* ---- the binary schedule (BINARY SCHEDULE above): the one reader of the format ---------- */
/* ---- little-endian words ---------------------------------------------------------------- */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GOAL__LE32(x) __builtin_bswap32(x)
#else
#define GOAL__LE32(x) (x)
#endif
static inline uint64_t goal__rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);   /* one load (a byte loop is not always seen as one) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline uint32_t goal__rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t goal__rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline void goal__wr64(uint8_t *p, uint64_t v) { int i; for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static inline void goal__wr32(uint8_t *p, uint32_t v) { int i; for (i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static inline void goal__wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
/* The binary schedule numbers ops max 0, min 1, sum 2, prod 3, land .. bxor 4..9, copy 10,
   user 11, and datatypes class << 4 | log2 width; the enums rotate the ops and flip bit 1
   of the width so that zero is sum and Int32 (each mapping is its own small inverse). */
#define GOAL__OP_CODE(op) ((unsigned)(op) < 11u ? ((unsigned)(op) + 2u) % 11u : (unsigned)(op))
#define GOAL__OP_OF_CODE(c) ((goal_op)((c) < 11u ? ((c) + 9u) % 11u : (c)))
#define GOAL__DTYPE_CODE(t) ((unsigned)(t) ^ 2u)
/* head = kind:3 | flags:5 | nsrc:12 | ndeps:12; see BINARY SCHEDULE above. */
#define GOAL__F_WIDE 0x08u   /* sizes, offsets and costs take two words */
#define GOAL__F_OFF 0x10u    /* send/recv: offset word(s) present */
#define GOAL__F_TAG 0x20u    /* send/recv: tag word present */
#define GOAL__F_LOC 0x40u    /* send/recv/calc: slot|cpu|nic word present */
#define GOAL__F_IRQ 0x80u    /* the first dependents are released on start */
#define GOAL__KIND(head) ((head) & 7u)
#define GOAL__ESC 0xFFFu     /* nsrc or ndeps of 0xfff and more: the count is a body word */
#define GOAL__DEP_START 0x80000000u
#define GOAL__NONE 0xFFFFFFFFu
#define GOAL__PARAM_MAX 12   /* most parameter words of one action */

static inline uint32_t *goal__put(uint32_t *w, uint64_t v, int wide) {
    *w++ = GOAL__LE32((uint32_t)v);
    if (wide) *w++ = GOAL__LE32((uint32_t)(v >> 32));
    return w;
}
static inline const uint32_t *goal__get(const uint32_t *w, uint64_t *v, int wide) {
    *v = GOAL__LE32(w[0]);
    if (wide) *v |= (uint64_t)GOAL__LE32(w[1]) << 32;
    return w + 1 + (wide != 0);
}

/* Action i's record: returns its head word; *deps = its dependents (*ndeps of them, bit 31
   = released on start, little-endian), which the parameters follow; *nsrc (may be NULL)
   = how many actions it waits for. The escaped counts (0xfff) are body words. */
GOAL__HOT uint32_t goal__record(const goal_schedule *s, uint32_t i, const uint32_t **deps, uint32_t *ndeps, uint32_t *nsrc) {
    uint32_t head = GOAL__LE32(s->recs[2 * i]);
    const uint32_t *w = s->body + GOAL__LE32(s->recs[2 * i + 1]);
    uint32_t ns = (head >> 8) & GOAL__ESC, nd = head >> 20;
    if (ns == GOAL__ESC) ns = GOAL__LE32(*w++);
    if (nd == GOAL__ESC) nd = GOAL__LE32(*w++);
    *deps = w; *ndeps = nd;
    if (nsrc) *nsrc = ns;
    return head;
}
/* The parameters of a send or recv at w (head `head`): peer, size, offset, tag and the
   slot:16|cpu:8|nic:8 word (0 when absent); returns the word after them. */
GOAL__HOT const uint32_t *goal__msg_params(uint32_t head, const uint32_t *w, int32_t *peer, uint64_t *size, uint64_t *offset,
                                           int32_t *tag, uint32_t *loc) {
    int wide = (head & GOAL__F_WIDE) != 0;
    *peer = (int32_t)GOAL__LE32(*w); w++;
    w = goal__get(w, size, wide);
    *offset = 0; *tag = 0; *loc = 0;
    if (head & GOAL__F_OFF) w = goal__get(w, offset, wide);
    if (head & GOAL__F_TAG) { *tag = (int32_t)GOAL__LE32(*w); w++; }
    if (head & GOAL__F_LOC) { *loc = GOAL__LE32(*w); w++; }
    return w;
}
/* Decodes the parameters at w of an action whose head is `head`; returns the word after. */
static inline const uint32_t *goal__decode(uint32_t head, const uint32_t *w, goal_action *a) {
    int wide = (head & GOAL__F_WIDE) != 0;
    uint32_t loc = 0, x;
    memset(a, 0, sizeof *a);
    a->kind = (goal_kind)GOAL__KIND(head);
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        w = goal__msg_params(head, w, &a->peer, &a->buf.size, &a->buf.offset, &a->tag, &loc);
        a->buf.slot = loc & 0xFFFFu; a->cpu = (uint8_t)(loc >> 16); a->nic = (uint8_t)(loc >> 24);
        break;
    case GOAL_EXEC:
        x = GOAL__LE32(*w); w++;
        a->op = GOAL__OP_OF_CODE(x & 0xFFu);
        a->dtype = a->op == GOAL_OP_USER ? (goal_dtype)0 : (goal_dtype)GOAL__DTYPE_CODE((x >> 8) & 0xFFu);
        if (a->op == GOAL_OP_USER) { a->fn = GOAL__LE32(*w); w++; }
        x = GOAL__LE32(*w); w++;
        a->buf.slot = x & 0xFFFFu; a->buf2.slot = x >> 16;
        w = goal__get(w, &a->buf.offset, wide); w = goal__get(w, &a->buf.size, wide);
        w = goal__get(w, &a->buf2.offset, wide); w = goal__get(w, &a->buf2.size, wide);
        break;
    case GOAL_CALC:
        w = goal__get(w, &a->cost, wide);
        if (head & GOAL__F_LOC) { loc = GOAL__LE32(*w); w++; }
        a->cpu = (uint8_t)(loc >> 16);
        break;
    default: break;
    }
    return w;
}
/* A view of a schedule whose action records start at recs, for hot paths where parsing a
   header per action would cost more than the action: only rank, nactions, recs and body
   are set, all that goal__record, goal_schedule_action, _deps and _nsrc read (the body
   follows the records). */
static inline void goal__records_view(goal_schedule *s, int32_t rank, uint32_t nactions, const uint32_t *recs) {
    s->rank = rank;
    s->nactions = nactions;
    s->recs = recs;
    s->body = recs + 2u * nactions;
}

/* ---- per-peer index of matching queues (goal__fifo below) ------------------------------------ */
/* (queue, peer) -> the head of that queue's list of entries from that peer, so a message from
   a known peer looks only at those and at the wildcard ones, not at the whole queue (alltoall
   posts p-1 receives per rank up front, and walking them made matching O(p^3)). Open
   addressing, at most half full. A zeroed goal__peers is empty. */
typedef struct goal__peer_key {
    const void *q;                  /* the queue; NULL marks a free entry */
    int32_t peer;
    uint32_t word;                  /* the head of the list (it fills the padding) */
} goal__peer_key;
typedef struct goal__peers { goal__peer_key *tab; size_t cap, n; } goal__peers;

static inline size_t goal__peers_slot(const goal__peers *t, const void *q, int32_t peer) {
    uint64_t h = ((uint64_t)(size_t)q * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(uint32_t)peer * 0xC2B2AE3D27D4EB4Full);
    return (size_t)(h >> 29) & (t->cap - 1u);
}
/* The entry of (q, peer): a free one when absent (claim it with goal__peers_add), NULL when
   the index is still empty. */
static inline goal__peer_key *goal__peers_find(const goal__peers *t, const void *q, int32_t peer) {
    goal__peer_key *e;
    size_t k;
    if (!t->cap) return NULL;
    for (k = goal__peers_slot(t, q, peer); (e = &t->tab[k])->q; k = (k + 1u) & (t->cap - 1u))
        if (e->q == q && e->peer == peer) break;
    return e;
}
/* Room for `more` more entries. */
static inline goal_status goal__peers_room(goal__peers *t, const goal_allocator *a, size_t more) {
    goal__peer_key *old = t->tab;
    size_t k, n = t->cap, cap = n ? n : 64u;
    if (2u * (t->n + more) <= t->cap) return GOAL_OK;
    while (2u * (t->n + more) > cap) cap *= 2u;
    if (!(t->tab = (goal__peer_key *)goal__calloc(a, cap, sizeof *old))) { t->tab = old; return GOAL_ERR_NOMEM; }
    t->cap = cap;
    for (k = 0; k < n; k++)
        if (old[k].q) *goal__peers_find(t, old[k].q, old[k].peer) = old[k];
    goal__free(a, old);
    return GOAL_OK;
}
/* Claims the free entry e that goal__peers_find gave for (q, peer); the caller sets its word. */
static inline void goal__peers_add(goal__peers *t, goal__peer_key *e, const void *q, int32_t peer) {
    e->q = q; e->peer = peer;
    t->n++;
}
/* Removes entry e, moving later entries of its probe chain back into the hole. */
static inline void goal__peers_del(goal__peers *t, goal__peer_key *e) {
    size_t mask = t->cap - 1u, k = (size_t)(e - t->tab), j;
    for (j = (k + 1u) & mask; t->tab[j].q; j = (j + 1u) & mask) {
        size_t home = goal__peers_slot(t, t->tab[j].q, t->tab[j].peer);
        if (((j - home) & mask) >= ((j - k) & mask)) { t->tab[k] = t->tab[j]; k = j; }
    }
    t->tab[k].q = NULL;
    t->n--;
}
static inline void goal__peers_free(goal__peers *t, const goal_allocator *a) {
    goal__free(a, t->tab);
    t->tab = NULL; t->cap = t->n = 0;
}

/* ---- per-peer matching FIFO (goal_sched.h's in-process transport, goal_sim.h) ------------- */
/* Queues of the caller's numbers (refs: requests, actions, messages), all entries in one
   pool, each queue known by one word (its head, GOAL__NONE when empty) in the caller's
   memory that must not move. A queue is a circular doubly linked list in posting order, and
   each entry keeps its peer. A take walks from the head: the first entry from the peer (or
   a wildcard one) that the caller's function accepts. Matches are mostly at the head (a
   pipeline posts its receives in the order their messages come), and a hash lookup there
   was a cache miss per match. When a walk passes GOAL__FIFO_LINEAR entries without a match,
   the queue is indexed: every entry is also on the list of its (queue, peer), found in the
   per-peer index, so a message from a known peer looks only at entries from that peer and
   at the wildcard (GOAL_ANY) ones, whichever came first (seq), not at the whole queue
   (alltoall posts p-1 receives per rank up front: walking them made matching O(p^3)); it
   stays indexed until it is empty. A take for any source walks the queue (MPI's order).
   Empty: zeroed, then freel = GOAL__NONE. */
#define GOAL__FIFO_LINEAR 8u
#define GOAL__FIFO_INDEXED 0x80000000u   /* in len: the queue is indexed by peer */
typedef struct goal__fifo_ent {
    uint32_t ref, seq, prev, next, kprev, knext;
    int32_t peer;
    uint32_t len;          /* of the head entry: the queue's length (below 2^31: the pool's
                              entries are 32 bytes) | GOAL__FIFO_INDEXED */
} goal__fifo_ent;
typedef struct goal__fifo {
    goal__fifo_ent *e; size_t cap; uint32_t n, freel, seq;
    uint32_t nany;         /* wildcard entries of indexed queues: while 0, a take has one list to look at */
    goal__peers peers;     /* (queue head, peer) -> the head of its list, in goal__peer_key.word */
} goal__fifo;
/* Whether the entry of ref matches what the caller looks for (its peer is already known to fit). */
typedef int (*goal__fifo_fn)(void *ctx, uint32_t ref);

/* Links entry k at the end of the circular list *head (by the prev/next or kprev/knext pair). */
static inline void goal__fifo_link(goal__fifo *q, uint32_t *head, uint32_t k, int by_peer) {
    goal__fifo_ent *e = &q->e[k], *h;
    uint32_t last;
    if (*head == GOAL__NONE) { if (by_peer) e->kprev = e->knext = k; else e->prev = e->next = k; *head = k; return; }
    h = &q->e[*head];
    last = by_peer ? h->kprev : h->prev;
    if (by_peer) { e->kprev = last; e->knext = *head; q->e[last].knext = k; h->kprev = k; }
    else { e->prev = last; e->next = *head; q->e[last].next = k; h->prev = k; }
}
static inline void goal__fifo_unlink(goal__fifo *q, uint32_t *head, uint32_t k, int by_peer) {
    goal__fifo_ent *e = &q->e[k];
    uint32_t pv = by_peer ? e->kprev : e->prev, nx = by_peer ? e->knext : e->next;
    if (nx == k) { *head = GOAL__NONE; return; }
    if (by_peer) { q->e[pv].knext = nx; q->e[nx].kprev = pv; } else { q->e[pv].next = nx; q->e[nx].prev = pv; }
    if (*head == k) *head = nx;
}
/* The list of (head, peer): a free entry when absent, NULL when the index is empty. */
static inline goal__peer_key *goal__fifo_list(const goal__fifo *q, const uint32_t *head, int32_t peer) {
    return goal__peers_find(&q->peers, head, peer);
}
/* Puts entry k of the indexed queue *head on its peer's list (the index has room). */
static inline void goal__fifo_index(goal__fifo *q, uint32_t *head, uint32_t k) {
    goal__peer_key *t = goal__fifo_list(q, head, q->e[k].peer);
    if (!t->q) { goal__peers_add(&q->peers, t, head, q->e[k].peer); t->word = GOAL__NONE; }
    goal__fifo_link(q, &t->word, k, 1);
    if (q->e[k].peer == GOAL_ANY) q->nany++;
}
/* Indexes the whole queue *head by peer; 0 when out of memory (it stays walked). */
static inline int goal__fifo_index_all(goal__fifo *q, const goal_allocator *a, uint32_t *head) {
    uint32_t k;
    if (goal__peers_room(&q->peers, a, q->e[*head].len) != GOAL_OK) return 0;
    k = *head;
    do { goal__fifo_index(q, head, k); k = q->e[k].next; } while (k != *head);
    q->e[*head].len |= GOAL__FIFO_INDEXED;
    return 1;
}
/* Appends ref, whose peer is peer (GOAL_ANY: a receive from any source), to queue *head;
   *at (if not NULL) gets its entry, for goal__fifo_cancel. */
static inline goal_status goal__fifo_push(goal__fifo *q, const goal_allocator *a, uint32_t *head, int32_t peer,
                                          uint32_t ref, uint32_t *at) {
    uint32_t k = q->freel, len = *head == GOAL__NONE ? 0u : q->e[*head].len;
    if ((len & GOAL__FIFO_INDEXED) && goal__peers_room(&q->peers, a, 1) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (k != GOAL__NONE) q->freel = q->e[k].next;
    else {
        if (GOAL__RESERVE(a, q->e, q->cap, (size_t)q->n + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
        k = q->n++;
    }
    q->e[k].ref = ref;
    q->e[k].seq = q->seq++;
    q->e[k].peer = peer;
    goal__fifo_link(q, head, k, 0);
    q->e[*head].len = len + 1u;
    if (len & GOAL__FIFO_INDEXED) goal__fifo_index(q, head, k);
    if (at) *at = k;
    return GOAL_OK;
}
/* The first entry of list t (of goal__fifo_list) that fn accepts, or GOAL__NONE. */
GOAL__HOT uint32_t goal__fifo_first(const goal__fifo *q, const goal__peer_key *t, goal__fifo_fn fn, void *ctx) {
    uint32_t k;
    if (!t || !t->q) return GOAL__NONE;
    k = t->word;
    do {
        if (fn(ctx, q->e[k].ref)) return k;
        k = q->e[k].knext;
    } while (k != t->word);
    return GOAL__NONE;
}
/* Removes entry k from queue *head, and from its list t when the queue is indexed (NULL:
   looked up), and returns its ref. */
static inline uint32_t goal__fifo_remove(goal__fifo *q, uint32_t *head, goal__peer_key *t, uint32_t k) {
    uint32_t len = q->e[*head].len;
    if (len & GOAL__FIFO_INDEXED) {
        if (!t) t = goal__fifo_list(q, head, q->e[k].peer);
        goal__fifo_unlink(q, &t->word, k, 1);
        if (q->e[k].peer == GOAL_ANY) q->nany--;
        if (t->word == GOAL__NONE) goal__peers_del(&q->peers, t);
    }
    goal__fifo_unlink(q, head, k, 0);
    if (*head != GOAL__NONE) q->e[*head].len = len - 1u;
    q->e[k].next = q->freel; q->freel = k;
    return q->e[k].ref;
}
/* Removes entry k (of goal__fifo_push's *at) from queue *head. */
static inline void goal__fifo_cancel(goal__fifo *q, uint32_t *head, uint32_t k) { goal__fifo_remove(q, head, NULL, k); }
/* The first entry of queue *head from peer (or any, with GOAL_ANY) that fn accepts, walking
   at most limit entries from the head (0: all), or GOAL__NONE. */
GOAL__HOT uint32_t goal__fifo_walk(const goal__fifo *q, const uint32_t *head, int32_t peer, goal__fifo_fn fn, void *ctx,
                                   uint32_t limit) {
    uint32_t k = *head;
    do {
        const goal__fifo_ent *e = &q->e[k];
        if ((peer == GOAL_ANY || e->peer == peer || e->peer == GOAL_ANY) && fn(ctx, e->ref)) return k;
        k = e->next;
    } while (k != *head && --limit);
    return GOAL__NONE;
}
/* The first entry of the indexed queue *head from peer that fn accepts, on peer's list or
   the wildcard one, whichever came first (seq, modulo 2^32); *t gets its list. */
GOAL__HOT uint32_t goal__fifo_indexed(const goal__fifo *q, const uint32_t *head, int32_t peer, goal__fifo_fn fn, void *ctx,
                                      goal__peer_key **t) {
    goal__peer_key *tw;
    uint32_t k = goal__fifo_first(q, *t = goal__fifo_list(q, head, peer), fn, ctx), w;
    if (q->nany) {
        w = goal__fifo_first(q, tw = goal__fifo_list(q, head, GOAL_ANY), fn, ctx);
        if (w != GOAL__NONE && (k == GOAL__NONE || (int32_t)(q->e[w].seq - q->e[k].seq) < 0)) { k = w; *t = tw; }
    }
    return k;
}
/* Removes the first entry of queue *head from peer (or any, with GOAL_ANY) that fn accepts
   and returns its ref, GOAL__NONE when none. A walked queue whose match is not among its
   first GOAL__FIFO_LINEAR entries is indexed (a: the allocator for the index; without
   memory for it, the walk goes on). */
GOAL__HOT uint32_t goal__fifo_take(goal__fifo *q, const goal_allocator *a, uint32_t *head, int32_t peer, goal__fifo_fn fn,
                                   void *ctx) {
    goal__peer_key *t = NULL;
    uint32_t k, len;
    if (*head == GOAL__NONE) return GOAL__NONE;
    len = q->e[*head].len;
    if (peer == GOAL_ANY || (!(len & GOAL__FIFO_INDEXED) && len <= GOAL__FIFO_LINEAR))
        k = goal__fifo_walk(q, head, peer, fn, ctx, 0);
    else if (len & GOAL__FIFO_INDEXED)
        k = goal__fifo_indexed(q, head, peer, fn, ctx, &t);
    else if ((k = goal__fifo_walk(q, head, peer, fn, ctx, GOAL__FIFO_LINEAR)) == GOAL__NONE)
        k = goal__fifo_index_all(q, a, head) ? goal__fifo_indexed(q, head, peer, fn, ctx, &t) : goal__fifo_walk(q, head, peer, fn, ctx, 0);
    return k == GOAL__NONE ? k : goal__fifo_remove(q, head, t, k);
}
static inline void goal__fifo_free(goal__fifo *q, const goal_allocator *a) {
    goal__free(a, q->e);
    q->e = NULL; q->cap = q->n = 0;
    goal__peers_free(&q->peers, a);
}

#endif /* GOAL__SHARED_DONE */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__IMPL_DONE)
#define GOAL__IMPL_DONE

#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>   /* qsort; malloc and free unless GOAL_MALLOC says otherwise */

#ifndef GOAL_ASSERT
#include <assert.h>
#define GOAL_ASSERT(cond) assert(cond)
#endif


/* ---- >>> status and errors -------------------------------------------------------------- */
const char *goal_strerror(int status) {
#define GOAL__STATUS_CASE(name, value, text) case value: return text;
    switch (status) { GOAL_STATUS_LIST(GOAL__STATUS_CASE) default: return "unknown status"; }
#undef GOAL__STATUS_CASE
}
const char *goal_version(void) { return GOAL_VERSION_STRING; }
static int goal__is_status(int v) {
#define GOAL__STATUS_IS(name, value, text) case value:
    switch (v) { GOAL_STATUS_LIST(GOAL__STATUS_IS) return 1; default: return 0; }
#undef GOAL__STATUS_IS
}

/* Writes a printf-style message into msg (GOAL_MSG_MAX bytes); returns status. */
static goal_status goal__problem(char *msg, goal_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, GOAL_MSG_MAX, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- >>> operations and datatypes ---------------------------------------------------- */
static const char *const goal__op_names[] = {
#define GOAL__OP_NAME(name, text) text,
    GOAL_OP_LIST(GOAL__OP_NAME)
#undef GOAL__OP_NAME
    "user"
};

size_t goal_dtype_size(goal_dtype t) {
    unsigned cls = (unsigned)t >> 4, lg = ((unsigned)t & 15u) ^ 2u;   /* see goal_dtype */
    if (cls > 2 || lg > 3) return 0;
    return (size_t)1 << lg;
}
const char *goal_dtype_name(goal_dtype t) {
    static const char *const names[3][4] = {
        {"Int8", "Int16", "Int32", "Int64"}, {"UInt8", "UInt16", "UInt32", "UInt64"},
        {"Float8", "Float16", "Float32", "Float64"}};
    if (!goal_dtype_size(t)) return NULL;
    return names[(unsigned)t >> 4][((unsigned)t & 15u) ^ 2u];
}
const char *goal_op_name(goal_op op) {
    return (unsigned)op < (unsigned)GOAL_OP_COUNT ? goal__op_names[op] : NULL;
}
goal_status goal_op_check(goal_op op, goal_dtype t) {
    int is_float = ((unsigned)t >> 4) == 2;
    if ((unsigned)op >= (unsigned)GOAL_OP_USER) return GOAL_ERR_OP;
    if (!goal_dtype_size(t)) return GOAL_ERR_TYPE;
    if (is_float && goal_dtype_size(t) < 4) return GOAL_ERR_TYPE;
    if (is_float && op >= GOAL_OP_LAND && op <= GOAL_OP_BXOR) return GOAL_ERR_OP;
    return GOAL_OK;
}

/* ---- >>> action encoding --------------------------------------------------------------- */

/* Encodes the parameters of a (valid) action into w0; returns kind|flags, sets *nwords.
   There is one encoding per action: the loader re-encodes to check canonical form. */
static uint32_t goal__encode(const goal_action *a, uint32_t *w0, uint32_t *nwords) {
    uint32_t f = 0, *w = w0, loc = 0;
    int wide;
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        wide = (a->buf.size | a->buf.offset) >> 32 != 0;
        loc = a->buf.slot | (uint32_t)a->cpu << 16 | (uint32_t)a->nic << 24;
        f = (wide ? GOAL__F_WIDE : 0) | (a->buf.offset ? GOAL__F_OFF : 0) | (a->tag ? GOAL__F_TAG : 0) |
            (loc ? GOAL__F_LOC : 0);
        *w++ = GOAL__LE32((uint32_t)a->peer);
        w = goal__put(w, a->buf.size, wide);
        if (a->buf.offset) w = goal__put(w, a->buf.offset, wide);
        if (a->tag) *w++ = GOAL__LE32((uint32_t)a->tag);
        if (loc) *w++ = GOAL__LE32(loc);
        break;
    case GOAL_EXEC:
        wide = (a->buf.size | a->buf.offset | a->buf2.size | a->buf2.offset) >> 32 != 0;
        f = wide ? GOAL__F_WIDE : 0;
        *w++ = GOAL__LE32(GOAL__OP_CODE(a->op) | (a->op == GOAL_OP_USER ? 0u : GOAL__DTYPE_CODE(a->dtype) << 8));
        if (a->op == GOAL_OP_USER) *w++ = GOAL__LE32(a->fn);
        *w++ = GOAL__LE32(a->buf.slot | a->buf2.slot << 16);
        w = goal__put(w, a->buf.offset, wide); w = goal__put(w, a->buf.size, wide);
        w = goal__put(w, a->buf2.offset, wide); w = goal__put(w, a->buf2.size, wide);
        break;
    case GOAL_CALC:
        wide = a->cost >> 32 != 0;
        loc = (uint32_t)a->cpu << 16;
        f = (wide ? GOAL__F_WIDE : 0) | (loc ? GOAL__F_LOC : 0);
        w = goal__put(w, a->cost, wide);
        if (loc) *w++ = GOAL__LE32(loc);
        break;
    default: break;
    }
    *nwords = (uint32_t)(w - w0);
    return (uint32_t)a->kind | f;
}


/* ---- >>> validation of one action -------------------------------------------------------- */
/* Why action a cannot be in a schedule of nranks ranks (a status, words in msg), or GOAL_OK.
   The builder and the loader both ask it. */
static goal_status goal__check_buf(const goal_buf *b, const char *what, char *msg) {
    if (b->slot > GOAL_SLOT_MAX && b->slot != GOAL_SLOT_SCRATCH)
        return goal__problem(msg, GOAL_ERR_ARG, "%s: slot %lu does not exist (0..%u or scratch)", what,
                             (unsigned long)b->slot, GOAL_SLOT_MAX);
    if (b->size > GOAL_SIZE_MAX || b->offset > GOAL_SIZE_MAX - b->size)
        return goal__problem(msg, GOAL_ERR_SIZE, "%s: offset + size overflows (limit 2^63-1 bytes)", what);
    return GOAL_OK;
}
static goal_status goal__check_exec(const goal_action *a, char *msg) {
    const char *on = goal_op_name(a->op), *tn = goal_dtype_name(a->dtype);
    goal_status st;
    size_t es;
    if ((st = goal__check_buf(&a->buf, "exec buffer 1", msg)) != GOAL_OK) return st;
    if ((st = goal__check_buf(&a->buf2, "exec buffer 2", msg)) != GOAL_OK) return st;
    if (a->cpu || a->nic) return goal__problem(msg, GOAL_ERR_ARG, "exec takes no cpu or nic");
    if (a->op == GOAL_OP_USER) return GOAL_OK;
    st = goal_op_check(a->op, a->dtype);
    if (st == GOAL_ERR_OP && on && tn)
        return goal__problem(msg, st, "%s is not defined on %s (bitwise and logical ops take Int or UInt)", on, tn);
    if (st == GOAL_ERR_OP) return goal__problem(msg, st, "unknown operation %d", (int)a->op);
    if (st == GOAL_ERR_TYPE && tn) return goal__problem(msg, st, "%s is not supported: Float is 32 or 64 bits", tn);
    if (st != GOAL_OK) return goal__problem(msg, st, "unknown datatype 0x%x", (unsigned)a->dtype);
    es = goal_dtype_size(a->dtype);
    if (a->buf.size != a->buf2.size)
        return goal__problem(msg, GOAL_ERR_SIZE, "exec %s%s: both buffers must hold the same number of elements", on, tn);
    if (a->buf.size % es)
        return goal__problem(msg, GOAL_ERR_SIZE, "exec %s%s: %lu bytes is not a whole number of %u-byte elements", on,
                             tn, (unsigned long)a->buf.size, (unsigned)es);
    return GOAL_OK;
}
static goal_status goal__check_action(const goal_action *a, int32_t nranks, char *msg) {
    const char *what = a->kind == GOAL_SEND ? "send" : "recv";
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        if (a->peer == GOAL_ANY && a->kind == GOAL_SEND)
            return goal__problem(msg, GOAL_ERR_PEER, "send: a send needs a peer (any source is for recv)");
        if (a->peer != GOAL_ANY && (a->peer < 0 || a->peer >= nranks))
            return goal__problem(msg, GOAL_ERR_PEER, "%s: peer %ld is out of range (%ld ranks)", what, (long)a->peer,
                                 (long)nranks);
        if (a->tag < GOAL_ANY)
            return goal__problem(msg, GOAL_ERR_ARG, "%s: tag %ld is negative (-1 means any)", what, (long)a->tag);
        return goal__check_buf(&a->buf, what, msg);
    case GOAL_EXEC: return goal__check_exec(a, msg);
    case GOAL_CALC:
        if (a->nic) return goal__problem(msg, GOAL_ERR_ARG, "calc takes a cpu, not a nic");
        return GOAL_OK;
    case GOAL_NOP:
        if (a->cpu || a->nic) return goal__problem(msg, GOAL_ERR_ARG, "nop takes no cpu or nic");
        return GOAL_OK;
    default: return goal__problem(msg, GOAL_ERR_ARG, "unknown action kind %d", (int)a->kind);
    }
}

/* ---- >>> identifiers and labels -------------------------------------------------------- */
static const char *const goal__reserved[] = {   /* sorted: a search stops at the first one past the name */
    "calc", "cpu", "exec", "from", "irequ", "irequires", "nic", "nop", "num_ranks", "rank", "recv", "requ",
    "requires", "scratch", "send", "tag", "to", "user", "with", NULL};

static int goal__is_alpha(int c) { return (unsigned)((c | 0x20) - 'a') < 26u; }   /* one test: the readers ask per character */
static int goal__is_digit(int c) { return (unsigned)(c - '0') < 10u; }
static int goal__is_idchar(int c) { return goal__is_alpha(c) || goal__is_digit(c) || c == '_'; }

/* Why a name cannot be a label, or NULL when it can. */
static const char *goal__label_problem(const char *s, size_t n) {
    size_t i;
    if (n == 0) return "a label cannot be empty";
    if (n >= GOAL_LABEL_MAX) return "a label is at most 63 characters";
    if (!goal__is_alpha((unsigned char)s[0])) return "a label starts with a letter";
    for (i = 1; i < n; i++)
        if (!goal__is_idchar((unsigned char)s[i])) return "a label holds only letters, digits and '_'";
    for (i = 0; goal__reserved[i] && goal__reserved[i][0] <= s[0]; i++)   /* strncmp: no strlen per label */
        if (goal__reserved[i][0] == s[0] && strncmp(goal__reserved[i], s, n) == 0 && !goal__reserved[i][n])
            return "a keyword cannot be a label";
    return NULL;
}

/* Is s[0..n) the default name "l<i+1>" of action i? */
static int goal__is_default_name(const char *s, size_t n, uint32_t i) {
    uint64_t v = 0;
    size_t k;
    if (n < 2 || n > 11 || s[0] != 'l' || s[1] == '0') return 0;   /* the compiler asks per label: no snprintf */
    for (k = 1; k < n; k++) {
        if (!goal__is_digit((unsigned char)s[k])) return 0;
        v = v * 10 + (uint64_t)(s[k] - '0');
    }
    return v == (uint64_t)i + 1u;
}

/* An open-addressing set of names -> action ids; the names live elsewhere (get). */
typedef struct goal__names {
    uint32_t *slots; size_t cap, count;   /* slot: id + 1, 0 = empty */
} goal__names;
typedef const char *(*goal__name_fn)(const void *ctx, uint32_t id, size_t *len);

/* Are a[0..n) and b[0..n) equal? Labels are short: a loop beats a call to memcmp. */
static int goal__same(const char *a, const char *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}
static uint32_t goal__names_find(const goal__names *t, const char *s, size_t n, goal__name_fn get, const void *ctx) {
    size_t mask, i;
    if (!t->cap) return GOAL__NONE;
    mask = t->cap - 1;
    for (i = (size_t)goal__hash(GOAL__HASH_SEED, s, n) & mask;; i = (i + 1) & mask) {
        size_t len;
        const char *name;
        uint32_t v = t->slots[i];
        if (!v) return GOAL__NONE;
        name = get(ctx, v - 1, &len);
        if (len == n && goal__same(name, s, n)) return v - 1;
    }
}
static void goal__names_put(goal__names *t, uint32_t id, goal__name_fn get, const void *ctx) {
    size_t len, mask = t->cap - 1, i;
    const char *s = get(ctx, id, &len);
    for (i = (size_t)goal__hash(GOAL__HASH_SEED, s, len) & mask; t->slots[i]; i = (i + 1) & mask) {}
    t->slots[i] = id + 1;
    t->count++;
}
static goal_status goal__names_add(goal__names *t, const goal_allocator *a, uint32_t id, goal__name_fn get, const void *ctx) {
    if ((t->count + 1) * 2 > t->cap) {
        goal__names old = *t;
        size_t k, ncap = t->cap ? t->cap * 2 : 64;
        uint32_t *slots = (uint32_t *)goal__alloc(a, ncap * sizeof(uint32_t));
        if (!slots) return GOAL_ERR_NOMEM;
        memset(slots, 0, ncap * sizeof(uint32_t));
        t->slots = slots; t->cap = ncap; t->count = 0;
        for (k = 0; k < old.cap; k++)
            if (old.slots[k]) goal__names_put(t, old.slots[k] - 1, get, ctx);
        goal__free(a, old.slots);
    }
    goal__names_put(t, id, get, ctx);
    return GOAL_OK;
}
static void goal__names_clear(goal__names *t) {
    if (t->count) memset(t->slots, 0, t->cap * sizeof(uint32_t));
    t->count = 0;
}

/* ---- >>> the graph --------------------------------------------------------------------- */
struct goal_graph {
    goal_allocator alloc;
    int32_t rank, nranks;
    uint32_t *head;              /* kind | flags of each action */
    uint32_t *poff;              /* first parameter word of each action; poff[n] = nwords */
    size_t n, hcap, pcap;
    uint32_t *words; size_t nwords, wcap;
    uint32_t *esrc, *edst;       /* edge b -> a is (esrc b, edst a); GOAL__DEP_START in edst = irequires */
    size_t ne, ecap, ecap2;
    uint32_t *lab; size_t labcap; /* 1 + offset into lstr, 0 = no label; NULL until a label is set */
    char *lstr; size_t lsize, lcap; /* each label: its length in one byte (at most 63), then the NUL-terminated name */
    goal__names names;
    uint64_t *extent; size_t nslots, extcap; /* bytes of each user slot touched so far */
    uint64_t scratch;                        /* bytes of the scratch slot touched so far */
    uint32_t max;                            /* goal_graph_max_actions */
    goal_status first;
    char firstmsg[GOAL_MSG_MAX];
};

/* The length of a label of a graph: the byte before it. */
static size_t goal__label_len(const char *label) { return (unsigned char)label[-1]; }
static const char *goal__graph_name(const void *ctx, uint32_t id, size_t *len) {
    const goal_graph *g = (const goal_graph *)ctx;
    const char *s = g->lstr + g->lab[id] - 1;
    *len = goal__label_len(s);
    return s;
}

/* Records the first error of the graph; returns st. */
static goal_status goal__graph_fail(goal_graph *g, goal_status st, const char *fmt, ...) {
    va_list ap;
    int k;
    if (g->first != GOAL_OK) return st;
    k = snprintf(g->firstmsg, sizeof g->firstmsg, "rank %ld: ", (long)g->rank);
    va_start(ap, fmt);
    vsnprintf(g->firstmsg + k, sizeof g->firstmsg - (size_t)k, fmt, ap);
    va_end(ap);
    g->first = st;
    return st;
}

goal_status goal_graph_create(goal_graph **out, const goal_graph_desc *desc, goal_error *err) {
    goal_graph_desc d;
    goal_allocator a;
    goal_graph *g;
    if (!out) return goal__fail(err, GOAL_ERR_ARG, -1, "no place for the graph (out is NULL)");
    *out = NULL;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    if (!d.nranks) d.nranks = 1;
    if (d.nranks < 1 || d.rank < 0 || d.rank >= d.nranks)
        return goal__fail(err, GOAL_ERR_RANK, d.rank, "rank %d of %d ranks (0 <= rank < nranks)", d.rank, d.nranks);
    a = goal__allocator(&d.alloc);
    if (!(g = (goal_graph *)goal__alloc(&a, sizeof *g))) return goal__fail(err, GOAL_ERR_NOMEM, d.rank, "out of memory");
    memset(g, 0, sizeof *g);
    g->alloc = a;
    if (GOAL__RESERVE(&g->alloc, g->poff, g->pcap, 1) != GOAL_OK) {
        goal_graph_destroy(g);
        return goal__fail(err, GOAL_ERR_NOMEM, d.rank, "out of memory");
    }
    goal_graph_reset(g, d.rank, d.nranks);   /* checked above */
    *out = g;
    return goal__fail(err, GOAL_OK, -1, "");
}

void goal_graph_destroy(goal_graph *g) {
    if (!g) return;
    goal__free(&g->alloc, g->head); goal__free(&g->alloc, g->poff); goal__free(&g->alloc, g->words);
    goal__free(&g->alloc, g->esrc); goal__free(&g->alloc, g->edst); goal__free(&g->alloc, g->lab);
    goal__free(&g->alloc, g->lstr); goal__free(&g->alloc, g->names.slots); goal__free(&g->alloc, g->extent);
    goal__free(&g->alloc, g);
}

void goal_graph_max_actions(goal_graph *g, uint32_t n) {
    if (g) g->max = n;
}
goal_status goal_graph_reset(goal_graph *g, int rank, int nranks) {
    if (!g) return GOAL_ERR_ARG;
    if (nranks < 1 || rank < 0 || rank >= nranks) return GOAL_ERR_RANK;
    g->rank = rank; g->nranks = nranks;
    if (g->lab) memset(g->lab, 0, (g->n < g->labcap ? g->n : g->labcap) * sizeof(uint32_t));   /* lab[i] is 0 for i >= n */
    g->n = 0; g->nwords = 0; g->ne = 0; g->lsize = 0; g->nslots = 0; g->scratch = 0;
    g->poff[0] = 0;
    goal__names_clear(&g->names);
    g->first = GOAL_OK; g->firstmsg[0] = 0;
    return GOAL_OK;
}

/* Makes room to record the extent of `slot`; changes nothing visible. */
static goal_status goal__graph_slot_room(goal_graph *g, uint32_t slot) {
    if (slot == GOAL_SLOT_SCRATCH || slot < g->nslots) return GOAL_OK;
    return GOAL__RESERVE(&g->alloc, g->extent, g->extcap, (size_t)slot + 1);
}
/* Records that b is touched, so the schedule knows how large each slot must be. */
static void goal__graph_touch(goal_graph *g, const goal_buf *b) {
    uint64_t end = b->offset + b->size;
    if (b->slot == GOAL_SLOT_SCRATCH) {
        if (end > g->scratch) g->scratch = end;
        return;
    }
    if (b->slot >= g->nslots) {
        memset(g->extent + g->nslots, 0, (b->slot + 1 - g->nslots) * sizeof(uint64_t));
        g->nslots = b->slot + 1;
    }
    if (end > g->extent[b->slot]) g->extent[b->slot] = end;
}

/* Appends a checked action. */
static int32_t goal__graph_append(goal_graph *g, const goal_action *a) {
    uint32_t w[GOAL__PARAM_MAX], nw, head;
    int bufs;
    if (g->n >= 0x7FFFFFFEu) return goal__graph_fail(g, GOAL_ERR_LIMIT, "more than 2^31-2 actions");
    if (g->max && g->n >= g->max) return goal__graph_fail(g, GOAL_ERR_LIMIT, "more than %lu actions (goal_graph_max_actions)", (unsigned long)g->max);
    head = goal__encode(a, w, &nw);
    bufs = a->kind == GOAL_EXEC ? 2 : (a->kind == GOAL_SEND || a->kind == GOAL_RECV);
    if (g->nwords + nw + g->ne + 2u * g->n > 0xFFFFFFF0u)
        return goal__graph_fail(g, GOAL_ERR_LIMIT, "schedule body over 2^32 words");
    if (GOAL__RESERVE(&g->alloc, g->head, g->hcap, g->n + 1) != GOAL_OK ||
        GOAL__RESERVE(&g->alloc, g->poff, g->pcap, g->n + 2) != GOAL_OK ||
        GOAL__RESERVE(&g->alloc, g->words, g->wcap, g->nwords + nw) != GOAL_OK ||
        (bufs > 0 && goal__graph_slot_room(g, a->buf.slot) != GOAL_OK) ||
        (bufs > 1 && goal__graph_slot_room(g, a->buf2.slot) != GOAL_OK))
        return goal__graph_fail(g, GOAL_ERR_NOMEM, "out of memory");
    if (bufs > 0) goal__graph_touch(g, &a->buf);
    if (bufs > 1) goal__graph_touch(g, &a->buf2);
    if (nw) goal__copy32(g->words + g->nwords, w, nw);   /* words may be NULL: no NULL + 0 */
    g->nwords += nw;
    g->head[g->n] = head;
    g->poff[g->n + 1] = (uint32_t)g->nwords;
    return (int32_t)g->n++;
}

int32_t goal_graph_add(goal_graph *g, const goal_action *a) {
    goal_status st;
    char msg[GOAL_MSG_MAX];
    if (!g || !a) return GOAL_ERR_ARG;
    if ((st = goal__check_action(a, g->nranks, msg)) != GOAL_OK) return goal__graph_fail(g, st, "%s", msg);
    return goal__graph_append(g, a);
}

static goal_action goal__action0(goal_kind kind) {
    goal_action a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    return a;
}
int32_t goal_graph_send(goal_graph *g, goal_buf b, int peer, int tag) {
    goal_action a = goal__action0(GOAL_SEND);
    a.buf = b; a.peer = peer; a.tag = tag;
    return goal_graph_add(g, &a);
}
int32_t goal_graph_recv(goal_graph *g, goal_buf b, int peer, int tag) {
    goal_action a = goal__action0(GOAL_RECV);
    a.buf = b; a.peer = peer; a.tag = tag;
    return goal_graph_add(g, &a);
}
int32_t goal_graph_exec(goal_graph *g, goal_op op, goal_dtype t, goal_buf buf1, goal_buf buf2) {
    goal_action a = goal__action0(GOAL_EXEC);
    if (!g) return GOAL_ERR_ARG;
    if (op == GOAL_OP_USER) return goal__graph_fail(g, GOAL_ERR_OP, "user functions are added with goal_graph_user");
    a.op = op; a.dtype = t; a.buf = buf1; a.buf2 = buf2;
    return goal_graph_add(g, &a);
}
int32_t goal_graph_user(goal_graph *g, uint32_t fn, goal_buf buf1, goal_buf buf2) {
    goal_action a = goal__action0(GOAL_EXEC);
    a.op = GOAL_OP_USER; a.fn = fn; a.buf = buf1; a.buf2 = buf2;
    return goal_graph_add(g, &a);
}
int32_t goal_graph_calc(goal_graph *g, uint64_t cost) {
    goal_action a = goal__action0(GOAL_CALC);
    a.cost = cost;
    return goal_graph_add(g, &a);
}
int32_t goal_graph_nop(goal_graph *g) {
    goal_action a = goal__action0(GOAL_NOP);
    return goal_graph_add(g, &a);
}

/* A negative id is the status of the call that failed to make it: passed on as it is. */
static goal_status goal__check_id(goal_graph *g, int32_t id, const char *what) {
    if (id < 0 && goal__is_status(id)) return (goal_status)id;
    if (id < 0 || (size_t)id >= g->n)
        return goal__graph_fail(g, GOAL_ERR_ACTION, "%s: action %ld does not exist (%lu actions)", what, (long)id,
                                (unsigned long)g->n);
    return GOAL_OK;
}

static goal_status goal__graph_edge(goal_graph *g, int32_t a, int32_t b, uint32_t start) {
    const char *what = start ? "irequires" : "requires";
    goal_status st;
    if (!g) return GOAL_ERR_ARG;
    if ((st = goal__check_id(g, a, what)) != GOAL_OK || (st = goal__check_id(g, b, what)) != GOAL_OK) return st;
    if (a == b) return goal__graph_fail(g, GOAL_ERR_SELFDEP, "%s: action %ld cannot depend on itself", what, (long)a);
    if (g->nwords + g->ne + 2u * g->n >= 0xFFFFFFF0u) return goal__graph_fail(g, GOAL_ERR_LIMIT, "schedule body over 2^32 words");
    if (GOAL__RESERVE(&g->alloc, g->esrc, g->ecap, g->ne + 1) != GOAL_OK ||
        GOAL__RESERVE(&g->alloc, g->edst, g->ecap2, g->ne + 1) != GOAL_OK)
        return goal__graph_fail(g, GOAL_ERR_NOMEM, "out of memory");
    g->esrc[g->ne] = (uint32_t)b;
    g->edst[g->ne] = (uint32_t)a | start;
    g->ne++;
    return GOAL_OK;
}
goal_status goal_graph_requires(goal_graph *g, int32_t a, int32_t b) { return goal__graph_edge(g, a, b, 0); }
goal_status goal_graph_irequires(goal_graph *g, int32_t a, int32_t b) { return goal__graph_edge(g, a, b, GOAL__DEP_START); }

/* The label of action id, or NULL. */
static const char *goal__graph_label(const goal_graph *g, uint32_t id) {
    return g->lab && id < g->labcap && g->lab[id] ? g->lstr + g->lab[id] - 1 : NULL;
}
static uint32_t goal__graph_find(const goal_graph *g, const char *s, size_t n) {
    return goal__names_find(&g->names, s, n, goal__graph_name, g);
}

/* Gives action id, which has no label, the valid and unused label s[0..n) (not
   NUL-terminated); GOAL_ERR_NOMEM is the only failure. The reader checks in its own words. */
static goal_status goal__graph_name_action(goal_graph *g, uint32_t id, const char *s, size_t n) {
    if (g->labcap < g->n) {
        size_t old = g->labcap;
        if (GOAL__RESERVE(&g->alloc, g->lab, g->labcap, g->hcap) != GOAL_OK) return GOAL_ERR_NOMEM;
        memset(g->lab + old, 0, (g->labcap - old) * sizeof(uint32_t));
    }
    if (GOAL__RESERVE(&g->alloc, g->lstr, g->lcap, g->lsize + n + 2) != GOAL_OK) return GOAL_ERR_NOMEM;
    g->lstr[g->lsize] = (char)n;
    memcpy(g->lstr + g->lsize + 1, s, n);
    g->lstr[g->lsize + 1 + n] = 0;
    g->lab[id] = (uint32_t)g->lsize + 2;
    if (goal__names_add(&g->names, &g->alloc, id, goal__graph_name, g) != GOAL_OK) {
        g->lab[id] = 0;
        return GOAL_ERR_NOMEM;
    }
    g->lsize += n + 2;
    return GOAL_OK;
}
/* Sets the label of action id to s[0..n) (not NUL-terminated). */
static goal_status goal__graph_set_label(goal_graph *g, int32_t id, const char *s, size_t n) {
    const char *why = goal__label_problem(s, n);
    goal_status st;
    if ((st = goal__check_id(g, id, "label")) != GOAL_OK) return st;
    if (why) return goal__graph_fail(g, GOAL_ERR_ARG, "label '%.*s': %s", (int)(n < 80 ? n : 80), s, why);
    if (goal__graph_label(g, (uint32_t)id))
        return goal__graph_fail(g, GOAL_ERR_DUPLABEL, "action %ld already has the label '%s'", (long)id,
                                goal__graph_label(g, (uint32_t)id));
    if (goal__graph_find(g, s, n) != GOAL__NONE)
        return goal__graph_fail(g, GOAL_ERR_DUPLABEL, "label '%.*s' is already defined", (int)n, s);
    if (goal__graph_name_action(g, (uint32_t)id, s, n) != GOAL_OK) return goal__graph_fail(g, GOAL_ERR_NOMEM, "out of memory");
    return GOAL_OK;
}
goal_status goal_graph_label(goal_graph *g, int32_t a, const char *label) {
    if (!g || !label) return GOAL_ERR_ARG;
    return goal__graph_set_label(g, a, label, strlen(label));
}

goal_status goal_graph_status(const goal_graph *g) { return g ? g->first : GOAL_ERR_ARG; }
const char *goal_graph_message(const goal_graph *g) { return g ? g->firstmsg : ""; }
int32_t goal_graph_count(const goal_graph *g) { return g ? (int32_t)g->n : 0; }
int goal_graph_rank(const goal_graph *g) { return g ? (int)g->rank : -1; }
int goal_graph_nranks(const goal_graph *g) { return g ? (int)g->nranks : 0; }
goal_status goal_graph_get(const goal_graph *g, int32_t id, goal_action *out) {
    if (!g || !out) return GOAL_ERR_ARG;
    if (id < 0 || (size_t)id >= g->n) return GOAL_ERR_ACTION;
    goal__decode(g->head[id], g->words + g->poff[id], out);
    return GOAL_OK;
}

/* ---- >>> the schedule view --------------------------------------------------------------- */
#define GOAL__HDR 48u
#define GOAL__MAGIC 0x4C414F47u          /* "GOAL" */
#define GOAL__LABELS_NONE 0u             /* names are l<i+1>, written where a dependency needs one */
#define GOAL__LABELS_AUTO 1u             /* names are l<i+1>, written on every action */
#define GOAL__LABELS_TABLE 2u            /* names are stored */

typedef struct goal__hdr {
    uint32_t flags, rank, nranks, nactions, nedges, nindep, nbody, nslots, labelbytes;
    uint64_t scratch;
} goal__hdr;

static void goal__hdr_read(const uint8_t *p, goal__hdr *h) {
    h->flags = goal__rd16(p + 6); h->rank = goal__rd32(p + 8); h->nranks = goal__rd32(p + 12);
    h->nactions = goal__rd32(p + 16); h->nedges = goal__rd32(p + 20); h->nindep = goal__rd32(p + 24);
    h->nbody = goal__rd32(p + 28); h->nslots = goal__rd32(p + 32); h->labelbytes = goal__rd32(p + 36);
    h->scratch = goal__rd64(p + 40);
}
static void goal__hdr_write(uint8_t *p, const goal__hdr *h) {
    goal__wr32(p, GOAL__MAGIC); goal__wr16(p + 4, GOAL_FORMAT_VERSION); goal__wr16(p + 6, (uint16_t)h->flags);
    goal__wr32(p + 8, h->rank); goal__wr32(p + 12, h->nranks); goal__wr32(p + 16, h->nactions);
    goal__wr32(p + 20, h->nedges); goal__wr32(p + 24, h->nindep); goal__wr32(p + 28, h->nbody);
    goal__wr32(p + 32, h->nslots); goal__wr32(p + 36, h->labelbytes); goal__wr64(p + 40, h->scratch);
}
/* Total bytes of a schedule with header h (64-bit, so corrupt counts cannot wrap). */
static uint64_t goal__schedule_bytes(const goal__hdr *h) {
    uint64_t b = GOAL__HDR + 8ull * h->nslots + 4ull * h->nindep + 8ull * h->nactions + 4ull * h->nbody;
    if (h->flags == GOAL__LABELS_TABLE) b += 4ull * h->nactions + h->labelbytes;
    return b;
}
/* Points the view's fields at the sections of bytes (whose header is h). */
static void goal__view(goal_schedule *s, const uint8_t *bytes, const goal__hdr *h) {
    const uint8_t *p = bytes + GOAL__HDR + 8u * h->nslots;
    memset(s, 0, sizeof *s);
    s->bytes = bytes; s->size = (size_t)goal__schedule_bytes(h);
    s->rank = (int32_t)h->rank; s->nranks = (int32_t)h->nranks;
    s->nactions = h->nactions; s->nedges = h->nedges; s->nindep = h->nindep; s->nslots = h->nslots;
    s->nbody = h->nbody; s->scratch = h->scratch; s->label_mode = h->flags; s->labelbytes = h->labelbytes;
    s->indep = (const uint32_t *)(const void *)p; p += 4u * h->nindep;
    s->recs = (const uint32_t *)(const void *)p; p += 8u * h->nactions;
    s->body = (const uint32_t *)(const void *)p; p += 4u * h->nbody;
    s->labels = s->label_mode == GOAL__LABELS_TABLE ? (const uint32_t *)(const void *)p : NULL;
}

void goal_schedule_action(const goal_schedule *s, uint32_t i, goal_action *out) {
    uint32_t nd;
    const uint32_t *w;
    uint32_t head = goal__record(s, i, &w, &nd, NULL);
    goal__decode(head, w + nd, out);
}
uint32_t goal_schedule_deps(const goal_schedule *s, uint32_t i, const uint32_t **deps) {
    uint32_t nd;
    const uint32_t *w;
    goal__record(s, i, &w, &nd, NULL);
    if (deps) *deps = w;
    return nd;
}
uint32_t goal_schedule_nsrc(const goal_schedule *s, uint32_t i) {
    uint32_t nd, ns;
    const uint32_t *w;
    goal__record(s, i, &w, &nd, &ns);
    return ns;
}
uint64_t goal_schedule_slot_size(const goal_schedule *s, uint32_t slot) {
    if (slot == GOAL_SLOT_SCRATCH) return s->scratch;
    return slot < s->nslots ? goal__rd64(s->bytes + GOAL__HDR + 8u * slot) : 0;
}
static const char *goal__stored_label(const goal_schedule *s, uint32_t i) {
    uint32_t off;
    if (!s->labels) return NULL;
    off = GOAL__LE32(s->labels[i]);
    return off == GOAL__NONE ? NULL : (const char *)(s->labels + s->nactions) + off;
}
const char *goal_schedule_label(const goal_schedule *s, uint32_t i, char *buf) {
    const char *l = goal__stored_label(s, i);
    if (l) return l;
    snprintf(buf, GOAL_LABEL_MAX, "l%lu", (unsigned long)i + 1ul);
    return buf;
}
void goal_schedule_free(goal_schedule *s) {
    if (!s) return;
    if (s->owned_) goal__free(&s->alloc_, s->owned_);
    memset(s, 0, sizeof *s);
}

/* ---- >>> the compiler ---------------------------------------------------------------------- */
typedef struct goal__cc {       /* scratch state of one compilation */
    const goal_graph *g;
    uint32_t *start;            /* n+1: dependents of b are dep[start[b] .. start[b+1]) */
    uint32_t *dep;              /* ne: dependents, grouped by source, repeats dropped */
    uint32_t *indeg;            /* n */
    uint32_t *tmp;              /* n: cursor, repeat mark, remaining counts */
    uint32_t *order;            /* n: Kahn order; the first nindep are independent */
    uint32_t nkept, nindep;
    uint32_t mode;              /* label mode */
    uint32_t *gen;              /* TABLE: 1 + offset of a generated name in genstr, per action */
    char *genstr; size_t gensize, gencap;
} goal__cc;
typedef struct goal__ccmem { uint32_t *p; size_t cap; } goal__ccmem;   /* the arrays of goal__cc */

/* Groups the edges by source (irequires first, each kind in insertion order) and drops
   repeated edges. LogGOPSim releases dependents in the order their lines appear, so the
   order within a source is kept. */
static void goal__cc_group(goal__cc *c) {
    const goal_graph *g = c->g;
    uint32_t n = (uint32_t)g->n, b, k, w = 0, kind;
    size_t e;
    memset(c->start, 0, (n + 1u) * sizeof(uint32_t));
    for (e = 0; e < g->ne; e++) c->start[g->esrc[e] + 1]++;
    for (b = 0; b < n; b++) c->start[b + 1] += c->start[b];
    memcpy(c->tmp, c->start, n * sizeof(uint32_t));
    for (kind = 0; kind < 2; kind++)
        for (e = 0; e < g->ne; e++)
            if (((g->edst[e] & GOAL__DEP_START) == 0) == (kind == 1)) c->dep[c->tmp[g->esrc[e]]++] = g->edst[e];
    memset(c->tmp, 0xFF, n * sizeof(uint32_t));
    memset(c->indeg, 0, n * sizeof(uint32_t));
    for (b = 0; b < n; b++) {
        uint32_t from = c->start[b], to = c->start[b + 1];
        c->start[b] = w;
        for (k = from; k < to; k++) {
            uint32_t d = c->dep[k], a = d & ~GOAL__DEP_START, mark = 2 * b + (d >> 31);
            if (c->tmp[a] == mark) continue;
            c->tmp[a] = mark;
            c->dep[w++] = d;
            c->indeg[a]++;
        }
    }
    c->start[n] = w;
    c->nkept = w;
}

/* Kahn's algorithm; returns how many actions it ordered (n when there is no cycle). */
static uint32_t goal__cc_order(goal__cc *c, uint32_t n) {
    uint32_t head = 0, tail = 0, i, k;
    memcpy(c->tmp, c->indeg, n * sizeof(uint32_t));
    for (i = 0; i < n; i++)
        if (!c->indeg[i]) c->order[tail++] = i;
    c->nindep = tail;
    while (head < tail) {
        uint32_t b = c->order[head++];
        for (k = c->start[b]; k < c->start[b + 1]; k++) {
            uint32_t a = c->dep[k] & ~GOAL__DEP_START;
            if (--c->tmp[a] == 0) c->order[tail++] = a;
        }
    }
    return tail;
}

static const char *goal__graph_name_of(const goal_graph *g, uint32_t i, char *buf) {
    const char *l = goal__graph_label(g, i);
    if (l) return l;
    snprintf(buf, GOAL_LABEL_MAX, "l%lu", (unsigned long)i + 1ul);
    return buf;
}

/* Reports a cycle. Every action Kahn left unordered has an unordered source, so walking
   back n steps from one of them ends inside a cycle. */
static goal_status goal__cc_cycle(goal__cc *c, goal_error *err) {
    const goal_graph *g = c->g;
    uint32_t n = (uint32_t)g->n, v, b, k, steps = 0, *pred = c->order;
    char msg[GOAL_MSG_MAX], nb[GOAL_LABEL_MAX];
    size_t len;
    for (b = 0; b < n; b++)
        for (k = c->start[b]; k < c->start[b + 1]; k++) {
            uint32_t a = c->dep[k] & ~GOAL__DEP_START;
            if (c->tmp[a] && c->tmp[b]) pred[a] = b;
        }
    for (v = 0; !c->tmp[v]; v++) {}
    for (k = 0; k < n; k++) v = pred[v];
    len = (size_t)snprintf(msg, sizeof msg, "dependency cycle: %s", goal__graph_name_of(g, v, nb));
    for (b = pred[v]; steps++ < 8 && len < sizeof msg; b = pred[b]) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, " requires %s", goal__graph_name_of(g, b, nb));
        if (b == v) break;
    }
    if (b != v && len < sizeof msg) snprintf(msg + len, sizeof msg - len, " ...");
    goal__fail(err, GOAL_ERR_CYCLE, g->rank, "rank %ld: %s", (long)g->rank, msg);
    if (err) err->action = (int32_t)v;
    return GOAL_ERR_CYCLE;
}

static int goal__cc_incident(const goal__cc *c, uint32_t i) {
    return c->indeg[i] > 0 || c->start[i + 1] > c->start[i];
}
static const char *goal__cc_name(const goal__cc *c, uint32_t i) {
    const char *l = goal__graph_label(c->g, i);
    if (l || !c->gen || !c->gen[i]) return l;
    return c->genstr + c->gen[i] - 1;
}

/* Names every action a dependency mentions that has no label, avoiding the labels in use. */
static goal_status goal__cc_generate(goal__cc *c) {
    const goal_graph *g = c->g;
    const goal_allocator *a = &g->alloc;
    uint32_t i, n = (uint32_t)g->n;
    if (!(c->gen = (uint32_t *)goal__alloc(a, (n + 1u) * sizeof(uint32_t)))) return GOAL_ERR_NOMEM;
    memset(c->gen, 0, (n + 1u) * sizeof(uint32_t));
    for (i = 0; i < n; i++) {
        char name[GOAL_LABEL_MAX];
        size_t len = (size_t)snprintf(name, sizeof name, "l%lu", (unsigned long)i + 1ul);
        if (goal__graph_label(g, i) || !goal__cc_incident(c, i)) continue;
        while (goal__graph_find(g, name, len) != GOAL__NONE && len + 1 < sizeof name) name[len++] = '_';
        if (GOAL__RESERVE(a, c->genstr, c->gencap, c->gensize + len + 1) != GOAL_OK) return GOAL_ERR_NOMEM;
        memcpy(c->genstr + c->gensize, name, len);
        c->genstr[c->gensize + len] = 0;
        c->gen[i] = (uint32_t)c->gensize + 1;
        c->gensize += len + 1;
    }
    return GOAL_OK;
}

/* Decides how names are stored (GOAL__LABELS_*). The named set is the labelled actions
   plus every action a dependency mentions; NONE and AUTO store nothing, and each name
   set has one form, so text -> schedule -> text -> schedule is byte-identical. */
static goal_status goal__cc_labels(goal__cc *c) {
    const goal_graph *g = c->g;
    uint32_t i, n = (uint32_t)g->n;
    int all_default = 1, labelled_incident = 1, all_named = 1;
    c->mode = GOAL__LABELS_NONE;
    if (!g->names.count) return GOAL_OK;
    for (i = 0; i < n; i++) {
        const char *l = goal__graph_label(g, i);
        int inc = goal__cc_incident(c, i);
        if (l && !goal__is_default_name(l, goal__label_len(l), i)) all_default = 0;
        if (l && !inc) labelled_incident = 0;
        if (!l && !inc) all_named = 0;
    }
    if (all_default && labelled_incident) return GOAL_OK;
    if (all_default && all_named) { c->mode = GOAL__LABELS_AUTO; return GOAL_OK; }
    c->mode = GOAL__LABELS_TABLE;
    return goal__cc_generate(c);
}

static uint64_t goal__cc_label_bytes(const goal__cc *c) {
    uint64_t b = 0;
    uint32_t i;
    if (c->mode != GOAL__LABELS_TABLE) return 0;
    for (i = 0; i < (uint32_t)c->g->n; i++) {
        const char *l = goal__cc_name(c, i);
        if (l) b += strlen(l) + 1;
    }
    return (b + 3u) & ~(uint64_t)3u;
}

/* Fills in the header of the compiled schedule; fails on format limits. */
static goal_status goal__cc_header(const goal__cc *c, goal__hdr *h, goal_error *err) {
    const goal_graph *g = c->g;
    uint64_t nbody = g->nwords + (uint64_t)c->nkept, lb = goal__cc_label_bytes(c);
    uint32_t i;
    for (i = 0; i < (uint32_t)g->n; i++)
        nbody += (c->indeg[i] >= GOAL__ESC) + (c->start[i + 1] - c->start[i] >= GOAL__ESC);
    if (nbody > 0xFFFFFFFFu || lb > 0xFFFFFFFFu)
        return goal__fail(err, GOAL_ERR_LIMIT, g->rank, "rank %ld: schedule body over 2^32 words", (long)g->rank);
    memset(h, 0, sizeof *h);
    h->flags = c->mode; h->rank = (uint32_t)g->rank; h->nranks = (uint32_t)g->nranks;
    h->nactions = (uint32_t)g->n; h->nedges = c->nkept; h->nindep = c->nindep; h->nbody = (uint32_t)nbody;
    h->nslots = (uint32_t)g->nslots; h->labelbytes = (uint32_t)lb; h->scratch = g->scratch;
    return GOAL_OK;
}

/* Writes action i's record and body at body + *off. */
static void goal__cc_action(const goal__cc *c, uint32_t i, uint32_t *recs, uint32_t *body, uint32_t *off) {
    const goal_graph *g = c->g;
    uint32_t ns = c->indeg[i], nd = c->start[i + 1] - c->start[i], np = g->poff[i + 1] - g->poff[i], k;
    uint32_t head = g->head[i] | (ns < GOAL__ESC ? ns : GOAL__ESC) << 8 | (nd < GOAL__ESC ? nd : GOAL__ESC) << 20;
    uint32_t *b = body + *off;
    if (nd && (c->dep[c->start[i]] & GOAL__DEP_START)) head |= GOAL__F_IRQ;
    recs[2 * i] = GOAL__LE32(head);
    recs[2 * i + 1] = GOAL__LE32(*off);
    if (ns >= GOAL__ESC) *b++ = GOAL__LE32(ns);
    if (nd >= GOAL__ESC) *b++ = GOAL__LE32(nd);
    for (k = 0; k < nd; k++) *b++ = GOAL__LE32(c->dep[c->start[i] + k]);
    if (np) goal__copy32(b, g->words + g->poff[i], np);  /* nops only: words may be NULL */
    *off = (uint32_t)(b + np - body);
}

/* Writes the whole schedule: header, slot sizes, independent list, records, bodies, names. */
static void goal__cc_emit(const goal__cc *c, uint8_t *out, const goal__hdr *h) {
    const goal_graph *g = c->g;
    uint32_t n = (uint32_t)g->n, i, off = 0, lo = 0, *w, *recs;
    uint8_t *p = out + GOAL__HDR;
    char *str;
    goal__hdr_write(out, h);
    for (i = 0; i < h->nslots; i++, p += 8) goal__wr64(p, g->extent[i]);
    w = (uint32_t *)(void *)p;
    for (i = 0; i < c->nindep; i++) *w++ = GOAL__LE32(c->order[i]);
    recs = w;
    for (i = 0; i < n; i++) goal__cc_action(c, i, recs, recs + 2u * n, &off);
    if (c->mode != GOAL__LABELS_TABLE) return;
    w = recs + 2u * n + off;
    str = (char *)(w + n);
    for (i = 0; i < n; i++) {
        const char *l = goal__cc_name(c, i);
        size_t len = l ? strlen(l) + 1 : 0;
        w[i] = GOAL__LE32(l ? lo : GOAL__NONE);
        if (l) memcpy(str + lo, l, len);
        lo += (uint32_t)len;
    }
    memset(str + lo, 0, h->labelbytes - lo);
}

static void goal__cc_free(goal__cc *c) {
    if (!c->g) return;
    goal__free(&c->g->alloc, c->gen); goal__free(&c->g->alloc, c->genstr);
}

/* Groups edges, orders (finding cycles), names, sizes; the caller emits, then frees c.
   The arrays live in *mem, which a reader keeps from one rank to the next. */
static goal_status goal__cc_run(goal__cc *c, const goal_graph *g, goal__ccmem *mem, goal__hdr *h, goal_error *err) {
    uint32_t n = (uint32_t)g->n;
    goal_status st;
    memset(c, 0, sizeof *c);
    if (g->first != GOAL_OK) return goal__fail(err, g->first, g->rank, "%s", g->firstmsg);
    c->g = g;
    if (GOAL__RESERVE(&g->alloc, mem->p, mem->cap, (size_t)n * 4 + 1 + g->ne) != GOAL_OK)
        return goal__fail(err, GOAL_ERR_NOMEM, g->rank, "rank %ld: out of memory", (long)g->rank);
    c->start = mem->p;
    c->indeg = c->start + n + 1; c->tmp = c->indeg + n; c->order = c->tmp + n; c->dep = c->order + n;
    goal__cc_group(c);
    if (goal__cc_order(c, n) != n) return goal__cc_cycle(c, err);
    if (goal__cc_labels(c) != GOAL_OK) return goal__fail(err, GOAL_ERR_NOMEM, g->rank, "rank %ld: out of memory", (long)g->rank);
    if ((st = goal__cc_header(c, h, err)) != GOAL_OK) return st;
    if (goal__schedule_bytes(h) > (size_t)-1) return goal__fail(err, GOAL_ERR_NOMEM, g->rank, "rank %ld: out of memory", (long)g->rank);
    return GOAL_OK;
}

goal_status goal_compile(const goal_graph *g, goal_schedule *out, goal_error *err) {
    goal__cc c;
    goal__ccmem mem = {NULL, 0};
    goal__hdr h;
    uint8_t *bytes = NULL;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!g || !out) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_compile: no graph or no output");
    memset(out, 0, sizeof *out);
    st = goal__cc_run(&c, g, &mem, &h, err);
    if (st == GOAL_OK && !(bytes = (uint8_t *)goal__alloc(&g->alloc, (size_t)goal__schedule_bytes(&h))))
        st = goal__fail(err, GOAL_ERR_NOMEM, g->rank, "rank %ld: out of memory", (long)g->rank);
    if (st == GOAL_OK) goal__cc_emit(&c, bytes, &h);
    goal__cc_free(&c);
    goal__free(&g->alloc, mem.p);
    if (st != GOAL_OK) return st;
    goal__view(out, bytes, &h);
    out->owned_ = bytes;
    out->alloc_ = g->alloc;
    return GOAL_OK;
}

/* ---- >>> the loader ------------------------------------------------------------------------ */
typedef struct goal__ld {        /* scratch state of one validation */
    const goal_schedule *s;
    goal_error *err;
    uint32_t *indeg, *mark, *queue;  /* n each */
    uint64_t *ext;                   /* nslots + 1: recomputed slot sizes, scratch last */
    uint32_t nused;                  /* 1 + the largest user slot used */
} goal__ld;

static goal_status goal__bad(goal__ld *l, uint32_t action, const char *fmt, ...) {
    va_list ap;
    char m[GOAL_MSG_MAX];
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (action == GOAL__NONE)
        return goal__fail(l->err, GOAL_ERR_FORMAT, l->s->rank, "corrupt schedule (rank %ld): %s", (long)l->s->rank, m);
    goal__fail(l->err, GOAL_ERR_FORMAT, l->s->rank, "corrupt schedule (rank %ld), action %lu: %s", (long)l->s->rank,
               (unsigned long)action, m);
    if (l->err) l->err->action = (int32_t)action;
    return GOAL_ERR_FORMAT;
}

/* Words the parameters take, or GOAL__NONE when more than `avail` words would be read. */
static uint32_t goal__param_len(uint32_t head, const uint32_t *w, uint32_t avail) {
    uint32_t v = head & GOAL__F_WIDE ? 2u : 1u, n = 0;
    switch (GOAL__KIND(head)) {
    case GOAL_SEND: case GOAL_RECV:
        n = 1 + v + (head & GOAL__F_OFF ? v : 0) + !!(head & GOAL__F_TAG) + !!(head & GOAL__F_LOC);
        break;
    case GOAL_EXEC:
        if (avail < 1) return GOAL__NONE;
        n = 2 + 4 * v + ((GOAL__LE32(w[0]) & 0xFFu) == GOAL__OP_CODE(GOAL_OP_USER));
        break;
    case GOAL_CALC: n = v + !!(head & GOAL__F_LOC); break;
    default: n = 0;
    }
    return n <= avail ? n : GOAL__NONE;
}

static goal_status goal__ld_buf(goal__ld *l, uint32_t i, const goal_buf *b) {
    uint64_t *e;
    if (b->slot != GOAL_SLOT_SCRATCH && b->slot >= l->s->nslots)
        return goal__bad(l, i, "slot %lu beyond the slot table", (unsigned long)b->slot);
    if (b->slot != GOAL_SLOT_SCRATCH && b->slot >= l->nused) l->nused = b->slot + 1;
    e = &l->ext[b->slot == GOAL_SLOT_SCRATCH ? l->s->nslots : b->slot];
    if (b->offset + b->size > *e) *e = b->offset + b->size;
    return GOAL_OK;
}

/* Checks the parameters of action i: meaning, slots, and canonical encoding. */
static goal_status goal__ld_params(goal__ld *l, uint32_t i, uint32_t head, const uint32_t *w, uint32_t np) {
    goal_action a;
    uint32_t again[GOAL__PARAM_MAX], nw, f;
    char msg[GOAL_MSG_MAX];
    goal_status st = GOAL_OK;
    goal__decode(head, w, &a);
    if (goal__check_action(&a, l->s->nranks, msg) != GOAL_OK) return goal__bad(l, i, "%s", msg);
    f = goal__encode(&a, again, &nw);
    if (f != (head & 0x7Fu) || nw != np || memcmp(again, w, nw * sizeof(uint32_t)) != 0)
        return goal__bad(l, i, "parameters are not in canonical form");
    if (a.kind == GOAL_SEND || a.kind == GOAL_RECV || a.kind == GOAL_EXEC) st = goal__ld_buf(l, i, &a.buf);
    if (st == GOAL_OK && a.kind == GOAL_EXEC) st = goal__ld_buf(l, i, &a.buf2);
    return st;
}

/* Checks the dependents of action i: in range, not itself, start-released first, no repeats. */
static goal_status goal__ld_deps(goal__ld *l, uint32_t i, uint32_t head, const uint32_t *w, uint32_t nd) {
    uint32_t k, prev_start = 1, n = l->s->nactions;
    if ((nd && (GOAL__LE32(w[0]) >> 31) != ((head & GOAL__F_IRQ) != 0)) || (!nd && (head & GOAL__F_IRQ)))
        return goal__bad(l, i, "irequires flag does not match the dependents");
    for (k = 0; k < nd; k++) {
        uint32_t d = GOAL__LE32(w[k]), a = d & ~GOAL__DEP_START, st = d >> 31, mark = 2 * i + st;
        if (a >= n) return goal__bad(l, i, "dependent %lu out of range", (unsigned long)a);
        if (a == i) return goal__bad(l, i, "depends on itself");
        if (st && !prev_start) return goal__bad(l, i, "irequires dependents must come first");
        if (l->mark[a] == mark) return goal__bad(l, i, "dependent %lu listed twice", (unsigned long)a);
        l->mark[a] = mark;
        prev_start = st;
        l->indeg[a]++;
    }
    return GOAL_OK;
}

/* Walks the records in order; each body starts where the previous one ended. */
static goal_status goal__ld_records(goal__ld *l) {
    const goal_schedule *s = l->s;
    uint32_t i, off = 0, nbody = s->nbody;
    uint64_t edges = 0;
    goal_status st;
    for (i = 0; i < s->nactions; i++) {
        uint32_t head = GOAL__LE32(s->recs[2 * i]), ns = (head >> 8) & 0xFFFu, nd = head >> 20, np, esc;
        const uint32_t *w = s->body + off;
        if (GOAL__KIND(head) > GOAL_CALC) return goal__bad(l, i, "unknown kind %u", (unsigned)GOAL__KIND(head));
        if (GOAL__LE32(s->recs[2 * i + 1]) != off) return goal__bad(l, i, "body offset out of sequence");
        esc = (ns == GOAL__ESC) + (nd == GOAL__ESC);
        if (nbody - off < esc) return goal__bad(l, i, "body truncated");
        if (ns == GOAL__ESC && (ns = GOAL__LE32(*w++)) < GOAL__ESC) return goal__bad(l, i, "needless escape");
        if (nd == GOAL__ESC && (nd = GOAL__LE32(*w++)) < GOAL__ESC) return goal__bad(l, i, "needless escape");
        if (nd > nbody - off - esc) return goal__bad(l, i, "dependents beyond the body");
        if ((st = goal__ld_deps(l, i, head, w, nd)) != GOAL_OK) return st;
        np = goal__param_len(head, w + nd, nbody - off - esc - nd);
        if (np == GOAL__NONE) return goal__bad(l, i, "parameters beyond the body");
        if ((st = goal__ld_params(l, i, head, w + nd, np)) != GOAL_OK) return st;
        off += esc + nd + np;
        edges += nd;
    }
    if (off != nbody) return goal__bad(l, GOAL__NONE, "%lu unused body words", (unsigned long)(nbody - off));
    if (edges != s->nedges) return goal__bad(l, GOAL__NONE, "%lu edges, the header says %lu", (unsigned long)edges, (unsigned long)s->nedges);
    return GOAL_OK;
}

/* In-degrees, the independent list, slot sizes, and acyclicity. */
static goal_status goal__ld_graph(goal__ld *l) {
    const goal_schedule *s = l->s;
    uint32_t i, k = 0, head = 0, tail = 0;
    for (i = 0; i < s->nactions; i++) {
        if (goal_schedule_nsrc(s, i) != l->indeg[i]) return goal__bad(l, i, "source count does not match the edges");
        if (l->indeg[i]) continue;
        if (k >= s->nindep || GOAL__LE32(s->indep[k]) != i) return goal__bad(l, i, "independent list is wrong");
        l->queue[tail++] = i;
        k++;
    }
    if (k != s->nindep) return goal__bad(l, GOAL__NONE, "independent list is too long");
    if (l->nused != s->nslots) return goal__bad(l, GOAL__NONE, "slot table longer than the slots used");
    for (i = 0; i < s->nslots; i++)
        if (goal_schedule_slot_size(s, i) != l->ext[i]) return goal__bad(l, GOAL__NONE, "slot %lu size does not match the actions", (unsigned long)i);
    if (s->scratch != l->ext[s->nslots]) return goal__bad(l, GOAL__NONE, "scratch size does not match the actions");
    while (head < tail) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, l->queue[head++], &d), j;
        for (j = 0; j < nd; j++) {
            uint32_t a = GOAL__LE32(d[j]) & ~GOAL__DEP_START;
            if (--l->indeg[a] == 0) l->queue[tail++] = a;
        }
    }
    if (tail != s->nactions) return goal__fail(l->err, GOAL_ERR_CYCLE, -1, "schedule of rank %ld has a dependency cycle", (long)s->rank);
    return GOAL_OK;
}

static const char *goal__schedule_name(const void *ctx, uint32_t id, size_t *len) {
    const char *l = goal__stored_label((const goal_schedule *)ctx, id);
    *len = strlen(l);
    return l;
}
static int goal__incident(const goal_schedule *s, uint32_t i) {
    uint32_t nd, ns;
    const uint32_t *w;
    goal__record(s, i, &w, &nd, &ns);
    return nd || ns;
}

/* A stored name table: packed strings, valid unique labels, every action a dependency
   mentions named, and no table where NONE or AUTO would say the same. */
static goal_status goal__ld_labels(goal__ld *l, const goal_allocator *a) {
    const goal_schedule *s = l->s;
    const char *str = (const char *)(s->labels + s->nactions);
    uint32_t i, lo = 0;
    int all_default = 1, labelled_incident = 1, all_named = 1;
    goal__names names = {NULL, 0, 0};
    goal_status st = GOAL_OK;
    if (s->labelbytes % 4u) return goal__bad(l, GOAL__NONE, "label table not padded to 4 bytes");
    for (i = 0; i < s->nactions && st == GOAL_OK; i++) {
        uint32_t off = GOAL__LE32(s->labels[i]);
        const char *end;
        size_t len;
        int inc = goal__incident(s, i);
        if (off == GOAL__NONE) {
            if (inc) st = goal__bad(l, i, "has dependencies but no label");
            all_named = 0;
            continue;
        }
        end = off == lo && off < s->labelbytes ? (const char *)memchr(str + off, 0, s->labelbytes - off) : NULL;
        if (!end) { st = goal__bad(l, i, "label offset out of sequence or unterminated"); break; }
        len = (size_t)(end - str - off);
        if (goal__label_problem(str + off, len)) st = goal__bad(l, i, "invalid label");
        else if (goal__names_find(&names, str + off, len, goal__schedule_name, s) != GOAL__NONE) st = goal__bad(l, i, "label used twice");
        else if (goal__names_add(&names, a, i, goal__schedule_name, s) != GOAL_OK) st = goal__fail(l->err, GOAL_ERR_NOMEM, -1, "out of memory");
        all_default &= goal__is_default_name(str + off, len, i);
        labelled_incident &= inc;
        lo = off + (uint32_t)len + 1;
    }
    goal__free(a, names.slots);
    if (st != GOAL_OK) return st;
    if (s->labelbytes - lo > 3) return goal__bad(l, GOAL__NONE, "label table padded beyond the next multiple of 4");
    for (; lo < s->labelbytes; lo++)
        if (str[lo]) return goal__bad(l, GOAL__NONE, "label table has stray bytes");
    if (all_default && (labelled_incident || all_named)) return goal__bad(l, GOAL__NONE, "label table where none is needed");
    return GOAL_OK;
}

/* The header on its own: every field in range, and the size it implies equals `size`. */
static goal_status goal__ld_header(const uint8_t *p, size_t size, goal__hdr *h, goal_error *err) {
    uint64_t total;
    if (size < GOAL__HDR)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt schedule: %lu bytes, the header alone is %u", (unsigned long)size, GOAL__HDR);
    if (goal__rd32(p) != GOAL__MAGIC) return goal__fail(err, GOAL_ERR_FORMAT, -1, "not a GOAL schedule (bad magic number)");
    if (goal__rd16(p + 4) != GOAL_FORMAT_VERSION)
        return goal__fail(err, GOAL_ERR_VERSION, -1, "schedule format version %u, this library reads %u",
                          (unsigned)goal__rd16(p + 4), GOAL_FORMAT_VERSION);
    goal__hdr_read(p, h);
    if (h->flags > GOAL__LABELS_TABLE) return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt schedule: unknown flags 0x%x", (unsigned)h->flags);
    if (h->nranks < 1 || h->nranks > 0x7FFFFFFFu || h->rank >= h->nranks)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt schedule: rank %lu of %lu", (unsigned long)h->rank, (unsigned long)h->nranks);
    if (h->nactions > 0x7FFFFFFEu || h->nindep > h->nactions || h->nslots > GOAL_SLOT_MAX + 1u || h->scratch > GOAL_SIZE_MAX ||
        (h->flags != GOAL__LABELS_TABLE && h->labelbytes))
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt schedule: header field out of range");
    total = goal__schedule_bytes(h);
    if (total != size)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt schedule: %lu bytes, its header describes %llu", (unsigned long)size,
                          (unsigned long long)total);
    return GOAL_OK;
}

/* AUTO writes every name; when every action has a dependency, NONE writes them all too,
   and the compiler chooses NONE (one encoding per schedule). */
static goal_status goal__ld_auto(goal__ld *l) {
    uint32_t i;
    for (i = 0; i < l->s->nactions; i++)
        if (!goal__incident(l->s, i)) return GOAL_OK;
    return goal__bad(l, GOAL__NONE, "label mode AUTO where none is needed");
}

static goal_status goal__ld_all(goal__ld *l, const goal_allocator *a) {
    const goal_schedule *s = l->s;
    goal_status st;
    uint32_t i;
    for (i = 0; i < s->nslots; i++)
        if (goal_schedule_slot_size(s, i) > GOAL_SIZE_MAX) return goal__bad(l, GOAL__NONE, "slot %lu size out of range", (unsigned long)i);
    if ((st = goal__ld_records(l)) != GOAL_OK || (st = goal__ld_graph(l)) != GOAL_OK) return st;
    if (s->label_mode == GOAL__LABELS_AUTO) return goal__ld_auto(l);
    return s->label_mode == GOAL__LABELS_TABLE ? goal__ld_labels(l, a) : GOAL_OK;
}

goal_status goal_schedule_load(goal_schedule *out, const void *bytes, size_t size, const goal_allocator *alloc, goal_error *err) {
    goal_allocator a = goal__allocator(alloc);
    const uint8_t *base = (const uint8_t *)bytes;
    uint8_t *copy = NULL;
    goal__hdr h;
    goal__ld l;
    size_t n, tmp;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!out || (!bytes && size)) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_schedule_load: no output or no bytes");
    memset(out, 0, sizeof *out);
    if ((st = goal__ld_header(base, size, &h, err)) != GOAL_OK) return st;
    if ((uintptr_t)base & 3u) {
        if (!(copy = (uint8_t *)goal__alloc(&a, size))) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
        memcpy(copy, base, size);
        base = copy;
    }
    goal__view(out, base, &h);
    memset(&l, 0, sizeof l);
    l.s = out; l.err = err;
    n = h.nactions;
    tmp = (h.nslots + 1u) * sizeof(uint64_t) + 3u * n * sizeof(uint32_t);
    if (!(l.ext = (uint64_t *)goal__alloc(&a, tmp))) st = goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    else {
        memset(l.ext, 0, tmp);
        l.indeg = (uint32_t *)(void *)(l.ext + h.nslots + 1u); l.mark = l.indeg + n; l.queue = l.mark + n;
        memset(l.mark, 0xFF, n * sizeof(uint32_t));
        st = goal__ld_all(&l, &a);
        goal__free(&a, l.ext);
    }
    if (st != GOAL_OK) {
        goal__free(&a, copy);
        memset(out, 0, sizeof *out);
        return st;
    }
    out->owned_ = copy; out->alloc_ = a;
    return GOAL_OK;
}

/* Rebuilds the graph of a schedule, names included where they are written. */
goal_status goal_schedule_to_graph(const goal_schedule *s, goal_graph *g) {
    uint32_t i, k;
    goal_status st;
    char nb[GOAL_LABEL_MAX];
    if (!s || !g) return GOAL_ERR_ARG;
    if ((st = goal_graph_reset(g, s->rank, s->nranks)) != GOAL_OK) return st;
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        const char *l = s->label_mode == GOAL__LABELS_AUTO ? goal_schedule_label(s, i, nb) : goal__stored_label(s, i);
        goal_schedule_action(s, i, &a);
        if (goal_graph_add(g, &a) < 0 || (l && goal_graph_label(g, (int32_t)i, l) != GOAL_OK)) return g->first;
    }
    for (i = 0; i < s->nactions; i++) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, i, &d);
        for (k = 0; k < nd; k++) {
            uint32_t dep = GOAL__LE32(d[k]);
            if ((st = goal__graph_edge(g, (int32_t)(dep & ~GOAL__DEP_START), (int32_t)i, dep & GOAL__DEP_START)) != GOAL_OK) return st;
        }
    }
    return GOAL_OK;
}

/* ---- >>> the world ---------------------------------------------------------------------------- */
#define GOAL__WHDR 24u
static const char goal__wmagic[8] = {'G', 'O', 'A', 'L', 'W', 'R', 'L', 'D'};

/* The schedules sit in buf in the order they were added; `set` lists the ranks set, by
   rank, with where each schedule is. Memory follows the content, not nranks: a world of
   2^31-1 ranks with one rank set is small. Adding ranks in increasing order appends.
   While the ranks set are 0..nset-1 (a parsed world) `rank` is NULL: 8 bytes less per
   rank, 8 MB less to fault in for 2^20 ranks. */
struct goal_world {
    goal_allocator alloc;
    int32_t nranks;
    goal_dialect dialect;
    uint8_t *buf; size_t size, cap;    /* schedules, each at an 8-aligned offset */
    uint64_t *off; size_t nset, offcap; /* where the k-th rank set starts in buf */
    int32_t *rank; size_t rankcap;      /* the k-th rank set; NULL: it is k */
};
#define GOAL__PAD8(x) (((x) + 7u) & ~(uint64_t)7u)

/* The k-th rank set. */
static int32_t goal__wrank(const goal_world *w, size_t k) { return w->rank ? w->rank[k] : (int32_t)k; }
/* The index of the first rank set that is >= r. */
static size_t goal__wfind(const goal_world *w, int32_t r) {
    size_t lo = 0, hi = w->nset;
    if (!w->nset || goal__wrank(w, w->nset - 1) < r) return w->nset;
    /* Sorted distinct ranks below set[r]'s: when it holds r, everything before it is set. */
    if ((size_t)r < w->nset && goal__wrank(w, (size_t)r) == r) return (size_t)r;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (goal__wrank(w, mid) < r) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
/* The index of rank r in set, or nset when r is not set. */
static size_t goal__windex(const goal_world *w, int32_t r) {
    size_t k = goal__wfind(w, r);
    return k < w->nset && goal__wrank(w, k) == r ? k : w->nset;
}
/* Bytes of the k-th schedule set. */
static uint64_t goal__wlen(const goal_world *w, size_t k) {
    goal__hdr h;
    goal__hdr_read(w->buf + w->off[k], &h);
    return goal__schedule_bytes(&h);
}

static goal_status goal__world_new(goal_world **out, int nranks, const goal_allocator *alloc) {
    goal_allocator a = goal__allocator(alloc);
    goal_world *w;
    if (!out) return GOAL_ERR_ARG;
    *out = NULL;
    if (nranks < 1) return GOAL_ERR_RANK;
    if (!(w = (goal_world *)goal__alloc(&a, sizeof *w))) return GOAL_ERR_NOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = a; w->nranks = nranks;
    *out = w;
    return GOAL_OK;
}
goal_status goal_world_create(goal_world **out, const goal_world_desc *desc, goal_error *err) {
    int n = goal__desc_ranks(desc ? desc->nranks : 0, "ranks in a world", err);
    if (out) *out = NULL;
    return n < 0 ? GOAL_ERR_RANK : goal__created(goal__world_new(out, n, desc ? &desc->alloc : NULL), "world", err);
}
void goal_world_destroy(goal_world *w) {
    if (!w) return;
    goal__free(&w->alloc, w->buf);
    goal__free(&w->alloc, w->off);
    goal__free(&w->alloc, w->rank);
    goal__free(&w->alloc, w);
}
int goal_world_nranks(const goal_world *w) { return w ? (int)w->nranks : 0; }
goal_dialect goal_world_dialect(const goal_world *w) { return w ? w->dialect : GOAL_DIALECT_AUTO; }

/* Makes room in the rank table for one more; the first time, it starts as 0..nset-1. */
static goal_status goal__world_rank_table(goal_world *w) {
    size_t i;
    int had = w->rank != NULL;
    if (GOAL__RESERVE(&w->alloc, w->rank, w->rankcap, w->nset + 1) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (!had)
        for (i = 0; i < w->nset; i++) w->rank[i] = (int32_t)i;
    return GOAL_OK;
}
/* Makes room for `size` bytes at an 8-aligned offset as rank r's schedule (r not set
   yet); returns where they go, or NULL when out of memory. */
static uint8_t *goal__world_room(goal_world *w, int32_t r, size_t size) {
    size_t at = (w->size + 7u) & ~(size_t)7u, k = goal__wfind(w, r);
    int dense = !w->rank && (size_t)r == w->nset;   /* ranks 0..nset-1 then r = nset: still no table */
    if (GOAL__RESERVE(&w->alloc, w->off, w->offcap, w->nset + 1) != GOAL_OK ||
        (!dense && goal__world_rank_table(w) != GOAL_OK) ||
        GOAL__RESERVE(&w->alloc, w->buf, w->cap, at + size) != GOAL_OK)
        return NULL;
    if (at > w->size) memset(w->buf + w->size, 0, at - w->size);   /* the tests skip two calls per rank */
    if (k < w->nset) memmove(w->off + k + 1, w->off + k, (w->nset - k) * sizeof *w->off);
    w->off[k] = at;
    if (!dense) {
        if (k < w->nset) memmove(w->rank + k + 1, w->rank + k, (w->nset - k) * sizeof *w->rank);
        w->rank[k] = r;
    }
    w->nset++;
    w->size = at + size;
    return w->buf + at;
}
/* Why rank `rank` of `nranks` cannot be added to w, or GOAL_OK; clears err first. */
static goal_status goal__world_check(goal_world *w, int32_t rank, int32_t nranks, goal_error *err) {
    goal__fail(err, GOAL_OK, -1, "");
    if (!w) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_world_add_schedule: no world or schedule");
    if (nranks != w->nranks || rank < 0 || rank >= w->nranks)
        return goal__fail(err, GOAL_ERR_RANK, -1, "rank %ld of %ld does not fit a world of %ld ranks", (long)rank,
                          (long)nranks, (long)w->nranks);
    if (goal__windex(w, rank) != w->nset) return goal__fail(err, GOAL_ERR_STATE, -1, "rank %ld is set twice", (long)rank);
    return GOAL_OK;
}

goal_status goal_world_add_schedule(goal_world *w, const goal_schedule *s, goal_error *err) {
    uint8_t *to;
    goal_status st;
    if (!s || !s->bytes) {
        goal__fail(err, GOAL_OK, -1, "");
        return goal__fail(err, GOAL_ERR_ARG, -1, "goal_world_add_schedule: no world or schedule");
    }
    if ((st = goal__world_check(w, s->rank, s->nranks, err)) != GOAL_OK) return st;
    if (!(to = goal__world_room(w, s->rank, s->size))) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    memcpy(to, s->bytes, s->size);
    return GOAL_OK;
}
/* The second half of adding a graph: c and h compiled it; the schedule is written
   straight into the world's buffer, with no copy of its own. */
static goal_status goal__world_emit(goal_world *w, const goal__cc *c, const goal__hdr *h, goal_error *err) {
    uint8_t *to;
    goal_status st;
    if ((st = goal__world_check(w, c->g->rank, c->g->nranks, err)) != GOAL_OK) return st;
    if (!(to = goal__world_room(w, c->g->rank, (size_t)goal__schedule_bytes(h)))) return goal__fail(err, GOAL_ERR_NOMEM, c->g->rank, "out of memory");
    goal__cc_emit(c, to, h);
    return GOAL_OK;
}
goal_status goal_world_add_graph(goal_world *w, const goal_graph *g, goal_error *err) {
    goal__cc c;
    goal__ccmem mem = {NULL, 0};
    goal__hdr h;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!g) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_compile: no graph or no output");
    if ((st = goal__cc_run(&c, g, &mem, &h, err)) == GOAL_OK) st = goal__world_emit(w, &c, &h, err);
    goal__cc_free(&c);
    goal__free(&g->alloc, mem.p);
    return st;
}
/* A view of the k-th schedule set. */
static void goal__wview(const goal_world *w, size_t k, goal_schedule *out) {
    goal__hdr h;
    goal__hdr_read(w->buf + w->off[k], &h);
    goal__view(out, w->buf + w->off[k], &h);
}
goal_status goal_world_schedule(const goal_world *w, int rank, goal_schedule *out) {
    size_t k;
    if (!w || !out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    if (rank < 0 || rank >= w->nranks || (k = goal__windex(w, rank)) == w->nset) return GOAL_ERR_RANK;
    goal__wview(w, k, out);
    return GOAL_OK;
}

/* The file holds every rank, each unset one as an empty schedule (48 bytes, a multiple of
   8), so its size is linear in nranks; the walk takes the ranks set in step. */
goal_status goal_world_save(const goal_world *w, goal_write_fn fn, void *user) {
    static const uint8_t zeros[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t head[GOAL__WHDR], chunk[512], empty[GOAL__HDR];
    uint64_t at, total;
    int64_t r;
    size_t k, n;
    goal__hdr h;
    if (!w || !fn) return GOAL_ERR_ARG;
    at = GOAL__WHDR + 8u * ((uint64_t)w->nranks + 1u);
    total = at + GOAL__HDR * ((uint64_t)w->nranks - w->nset);
    for (k = 0; k < w->nset; k++) total += GOAL__PAD8(goal__wlen(w, k));
    memcpy(head, goal__wmagic, 8);
    goal__wr16(head + 8, GOAL_FORMAT_VERSION); goal__wr16(head + 10, 0);
    goal__wr32(head + 12, (uint32_t)w->nranks); goal__wr64(head + 16, total);
    if (fn(user, (const char *)head, GOAL__WHDR)) return GOAL_ERR_IO;
    for (r = 0, k = 0, n = 0; r <= w->nranks; r++) {   /* the table, 64 entries at a time */
        goal__wr64(chunk + 8 * n++, at);
        if (r < w->nranks) at += k < w->nset && goal__wrank(w, k) == r ? GOAL__PAD8(goal__wlen(w, k++)) : GOAL__HDR;
        if ((n == 64 || r == w->nranks) && fn(user, (const char *)chunk, 8 * n)) return GOAL_ERR_IO;
        if (n == 64) n = 0;
    }
    memset(&h, 0, sizeof h);
    h.nranks = (uint32_t)w->nranks;
    for (r = 0, k = 0; r < w->nranks; r++) {
        const uint8_t *p = empty;
        uint64_t len = GOAL__HDR;
        if (k < w->nset && goal__wrank(w, k) == r) {
            p = w->buf + w->off[k];
            len = goal__wlen(w, k++);
        } else {
            h.rank = (uint32_t)r;
            goal__hdr_write(empty, &h);
        }
        if (fn(user, (const char *)p, (size_t)len)) return GOAL_ERR_IO;
        if (len % 8u && fn(user, (const char *)zeros, 8u - (size_t)(len % 8u))) return GOAL_ERR_IO;
    }
    return GOAL_OK;
}

/* Checks that rank r's schedule sits where the table says and ends, padded to 8 with
   zeros, where the next one starts; validates it and adds it. */
static goal_status goal__world_load_rank(goal_world *w, const uint8_t *p, size_t size, int32_t r, goal_error *err) {
    uint64_t off = goal__rd64(p + GOAL__WHDR + 8u * (size_t)r), next = goal__rd64(p + GOAL__WHDR + 8u * ((size_t)r + 1u)), len, k;
    goal__hdr h;
    goal_schedule s;
    goal_status st;
    if ((r == 0 && off != GOAL__WHDR + 8u * ((uint64_t)w->nranks + 1u)) || off % 8u || off > size || size - off < GOAL__HDR ||
        next > size || next < off)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt world file: schedule of rank %ld out of place", (long)r);
    goal__hdr_read(p + off, &h);
    if (h.rank != (uint32_t)r || h.nranks != (uint32_t)w->nranks)   /* else ranks could be permuted */
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt world file: the schedule in the place of rank %ld is rank %lu of %lu",
                          (long)r, (unsigned long)h.rank, (unsigned long)h.nranks);
    len = goal__schedule_bytes(&h);
    if (len > next - off || ((off + len + 7u) & ~(uint64_t)7u) != next)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt world file: schedule of rank %ld has the wrong length", (long)r);
    for (k = off + len; k < next; k++)
        if (p[k]) return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt world file: stray bytes after rank %ld", (long)r);
    if ((st = goal_schedule_load(&s, p + off, (size_t)len, &w->alloc, err)) != GOAL_OK) return st;
    st = goal_world_add_schedule(w, &s, err);
    goal_schedule_free(&s);
    return st;
}

goal_status goal_world_load(goal_world **out, const void *bytes, size_t size, const goal_allocator *alloc, goal_error *err) {
    const uint8_t *p = (const uint8_t *)bytes;
    goal_world *w = NULL;
    uint64_t nranks;
    int32_t r;
    goal_status st = GOAL_OK;
    goal__fail(err, GOAL_OK, -1, "");
    if (!out || (!bytes && size)) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_world_load: no output or no bytes");
    *out = NULL;
    if (size < GOAL__WHDR || memcmp(p, goal__wmagic, 8) != 0) return goal__fail(err, GOAL_ERR_FORMAT, -1, "not a GOAL world file (bad magic number)");
    if (goal__rd16(p + 8) != GOAL_FORMAT_VERSION)
        return goal__fail(err, GOAL_ERR_VERSION, -1, "world format version %u, this library reads %u", (unsigned)goal__rd16(p + 8), GOAL_FORMAT_VERSION);
    nranks = goal__rd32(p + 12);
    if (goal__rd16(p + 10) || nranks < 1 || nranks > 0x7FFFFFFFu || (size - GOAL__WHDR) / 8u < nranks + 1u ||
        goal__rd64(p + 16) != size || goal__rd64(p + GOAL__WHDR + 8u * nranks) != size)
        return goal__fail(err, GOAL_ERR_FORMAT, -1, "corrupt world file: bad header, or truncated");
    if ((st = goal__world_new(&w, (int)nranks, alloc)) != GOAL_OK) return goal__fail(err, st, -1, "%s", goal_strerror(st));
    for (r = 0; r < w->nranks && st == GOAL_OK; r++) st = goal__world_load_rank(w, p, size, r, err);
    if (st != GOAL_OK) { goal_world_destroy(w); return st; }
    *out = w;
    return GOAL_OK;
}

/* ---- >>> text: reading ----------------------------------------------------------------------- */
typedef struct goal__dep {       /* a dependency line, resolved when its block ends */
    const char *a, *b;           /* the labels, in the text */
    uint32_t an, bn, start;      /* lengths; start: irequires */
} goal__dep;

typedef struct goal__rd {
    const char *text, *p, *end, *file;
    goal_error *err;
    goal_allocator alloc;
    goal_graph *g;
    goal__dep *deps; size_t ndeps, depcap;
    goal__ccmem ccmem;           /* the compiler's arrays, kept from block to block */
    int32_t max_peer;            /* paper dialect: the ranks a file names */
} goal__rd;

/* Fails with "FILE: line L, col C: message" for the place `at`. */
static goal_status goal__rd_fail(goal__rd *r, const char *at, goal_status st, const char *fmt, ...) {
    va_list ap;
    char m[GOAL_MSG_MAX];
    const char *q, *bol = r->text;
    int line = 1;
    if (at > r->end) at = r->end;
    for (q = r->text; q < at; q++)
        if (*q == '\n') { line++; bol = q + 1; }
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    goal__fail(r->err, st, -1, "%s: line %d, col %d: %s", r->file, line, (int)(at - bol) + 1, m);
    if (r->err) { r->err->line = line; r->err->col = (int)(at - bol) + 1; }
    return st;
}
/* What stands at the cursor, for "expected X, found Y" messages; a control or non-ASCII
   byte escaped ('\0', '\xff'), so that the message stays one line of text. */
static const char *goal__rd_found(const goal__rd *r, char *buf) {
    const char *q = r->p;
    size_t n = 0;
    if (q >= r->end) return "the end of the file";
    if (*q == '\n' || *q == '\r') return "the end of the line";
    if (!*q) return "'\\0'";
    if ((unsigned char)*q < ' ' || (unsigned char)*q >= 0x7f) {
        snprintf(buf, 32, "'\\x%02x'", (unsigned)(unsigned char)*q);
        return buf;
    }
    while (q + n < r->end && n < 16 && (goal__is_idchar((unsigned char)q[n]) || (n == 0 && (unsigned char)q[n] > ' ')))
        n++;
    snprintf(buf, 32, "'%.*s'", (int)(n ? n : 1), q);
    return buf;
}
static goal_status goal__rd_expected(goal__rd *r, const char *what) {
    char buf[32];
    return goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "expected %s, found %s", what, goal__rd_found(r, buf));
}

static int goal__rd_at(const goal__rd *r, char c) { return r->p < r->end && *r->p == c; }
/* The scanners come in two forms: on a pointer p, returning where they stop, so that the
   hot LogGOPSim path keeps its cursor in a register (a cursor in r->p costs a store and a
   dependent load per token); and on r, for everything else. */
/* The text after keyword kw at p, or NULL. */
static const char *goal__word_at(const char *p, const char *end, const char *kw, size_t n) {
    return (size_t)(end - p) >= n && memcmp(p, kw, n) == 0 ? p + n : NULL;
}
/* Consumes keyword kw if the text continues with it. */
static int goal__rd_word(goal__rd *r, const char *kw, size_t n) {
    const char *q = goal__word_at(r->p, r->end, kw, n);
    if (q) r->p = q;
    return q != NULL;
}
#define GOAL__WORD(r, kw) goal__rd_word((r), kw, sizeof(kw) - 1)
/* Consumes keyword kw only as a whole word. */
static int goal__rd_keyword(goal__rd *r, const char *kw, size_t n) {
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, kw, n) != 0) return 0;
    if (r->p + n < r->end && goal__is_idchar((unsigned char)r->p[n])) return 0;
    r->p += n;
    return 1;
}
#define GOAL__KEYWORD(r, kw) goal__rd_keyword((r), kw, sizeof(kw) - 1)

/* Block comments and spaces on one line from p (LogGOPSim); stops at a comment that is
   never closed, which stays unread. */
static const char *goal__hspace_at(const char *p, const char *end) {
    for (;;) {
        const char *q;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (end - p < 2 || p[0] != '/' || p[1] != '*') return p;
        for (q = p + 2; q + 1 < end && !(q[0] == '*' && q[1] == '/'); q++) {}
        if (q + 1 >= end) return p;
        p = q + 2;
    }
}
/* The same on r; 0 on an unterminated comment. */
static int goal__rd_hspace(goal__rd *r) {
    r->p = goal__hspace_at(r->p, r->end);
    return !(r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '*');
}
/* A '//' comment, up to the newline. */
static void goal__rd_line_comment(goal__rd *r) {
    if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '/') {
        const char *nl = (const char *)memchr(r->p, '\n', (size_t)(r->end - r->p));
        r->p = nl ? nl : r->end;
    }
}
/* Spaces, newlines and comments between LogGOPSim statements. */
static goal_status goal__rd_lspace(goal__rd *r) {
    if (r->p < r->end && (unsigned char)*r->p > ' ' && *r->p != '/') return GOAL_OK;   /* at a statement already */
    for (;;) {
        const char *at = r->p;
        if (!goal__rd_hspace(r)) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "comment '/*' is never closed");
        goal__rd_line_comment(r);
        if (!goal__rd_at(r, '\n')) return GOAL_OK;
        r->p++;
    }
}
/* Whitespace and '#' comments of the paper dialect; '#' before a digit is a rank when
   `ranks` is set. */
static void goal__rd_pspace(goal__rd *r, int ranks) {
    for (;;) {
        while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n')) r->p++;
        if (!goal__rd_at(r, '#') || (ranks && r->p + 1 < r->end && goal__is_digit((unsigned char)r->p[1]))) return;
        while (r->p < r->end && *r->p != '\n') r->p++;
    }
}

/* A decimal number at p; 0 when there is none, -1 when it exceeds `max`, else 1 with *q
   after it. */
static int goal__uint_at(const char *p, const char *end, uint64_t max, uint64_t *v, const char **q) {
    uint64_t x = 0;
    if (p >= end || !goal__is_digit((unsigned char)*p)) return 0;
    for (; p < end && goal__is_digit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x >= UINT64_MAX / 10 && x > (UINT64_MAX - d) / 10) return -1;   /* only 20-digit numbers divide */
        x = x * 10 + d;
    }
    if (x > max) return -1;
    *q = p;
    *v = x;
    return 1;
}
static int goal__rd_uint(goal__rd *r, uint64_t max, uint64_t *v) {
    return goal__uint_at(r->p, r->end, max, v, &r->p);
}
/* A number in 0..max at p, or -1 when any_ok: the text after it, or NULL. */
static const char *goal__num_at(const char *p, const char *end, uint64_t max, int any_ok, int64_t *v) {
    uint64_t x = 0;
    const char *q = p;   /* both set when uint_at succeeds; compilers cannot always tell */
    if (any_ok && end - p >= 2 && p[0] == '-' && p[1] == '1' && (p + 2 == end || !goal__is_digit((unsigned char)p[2]))) {
        *v = -1;
        return p + 2;
    }
    if (goal__uint_at(p, end, max, &x, &q) <= 0) return NULL;
    *v = (int64_t)x;
    return q;
}
/* Why there is no number in 0..max at the cursor: "expected <what>", or out of range. */
static goal_status goal__rd_num_fail(goal__rd *r, uint64_t max, const char *what) {
    uint64_t x;
    if (goal__rd_uint(r, max, &x) < 0)
        return goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "%s is out of range (at most %llu)", what, (unsigned long long)max);
    return goal__rd_expected(r, what);
}
/* A number in 0..max, or -1 when any_ok; fails with "expected <what>". */
static goal_status goal__rd_num(goal__rd *r, uint64_t max, int any_ok, const char *what, int64_t *v) {
    const char *q = goal__num_at(r->p, r->end, max, any_ok, v);
    if (!q) return goal__rd_num_fail(r, max, what);
    r->p = q;
    return GOAL_OK;
}
/* An identifier; returns its length (0: none). */
static size_t goal__rd_ident(goal__rd *r, const char **s) {
    const char *q = r->p;
    if (q >= r->end || !goal__is_alpha((unsigned char)*q)) return 0;
    while (q < r->end && goal__is_idchar((unsigned char)*q)) q++;
    *s = r->p;
    r->p = q;
    return (size_t)(q - *s);
}

/* Adds the action, and its label if any; errors point at `at`. */
static goal_status goal__rd_action(goal__rd *r, const char *at, const goal_action *a, const char *label, size_t ln) {
    char msg[GOAL_MSG_MAX];
    const char *why;
    goal_status st = goal__check_action(a, r->g->nranks, msg);
    int32_t id;
    if (st != GOAL_OK) return goal__rd_fail(r, at, st, "%s", msg);
    if ((id = goal__graph_append(r->g, a)) < 0) return goal__rd_fail(r, at, (goal_status)id, "%s", goal_strerror(id));
    if ((a->kind == GOAL_SEND || a->kind == GOAL_RECV) && a->peer > r->max_peer) r->max_peer = a->peer;
    if (!label) return GOAL_OK;
    if (goal__graph_find(r->g, label, ln) != GOAL__NONE)
        return goal__rd_fail(r, label, GOAL_ERR_DUPLABEL, "label '%.*s' is defined twice in this rank block", (int)ln, label);
    if ((why = goal__label_problem(label, ln)) != NULL) return goal__rd_fail(r, label, GOAL_ERR_ARG, "label '%.*s': %s", (int)ln, label, why);
    if (goal__graph_name_action(r->g, (uint32_t)id, label, ln) != GOAL_OK)   /* id is new: it has no label */
        return goal__rd_fail(r, label, GOAL_ERR_NOMEM, "label '%.*s': %s", (int)ln, label, goal_strerror(GOAL_ERR_NOMEM));
    return GOAL_OK;
}
static goal_status goal__rd_dep(goal__rd *r, const char *a, size_t an, const char *b, size_t bn, uint32_t start) {
    goal__dep *d;
    if (GOAL__RESERVE(&r->alloc, r->deps, r->depcap, r->ndeps + 1) != GOAL_OK) return goal__fail(r->err, GOAL_ERR_NOMEM, -1, "out of memory");
    d = &r->deps[r->ndeps++];
    d->a = a; d->b = b; d->an = (uint32_t)an; d->bn = (uint32_t)bn; d->start = start;
    return GOAL_OK;
}
/* At the end of a block: every dependency names labels of the block. */
static goal_status goal__rd_resolve(goal__rd *r) {
    size_t k;
    for (k = 0; k < r->ndeps; k++) {
        const goal__dep *d = &r->deps[k];
        uint32_t a = goal__graph_find(r->g, d->a, d->an), b = goal__graph_find(r->g, d->b, d->bn);
        goal_status st;
        if (a == GOAL__NONE) return goal__rd_fail(r, d->a, GOAL_ERR_LABEL, "unknown label '%.*s' in this rank block", (int)d->an, d->a);
        if (b == GOAL__NONE) return goal__rd_fail(r, d->b, GOAL_ERR_LABEL, "unknown label '%.*s' in this rank block", (int)d->bn, d->b);
        if (a == b) return goal__rd_fail(r, d->a, GOAL_ERR_SELFDEP, "'%.*s' cannot depend on itself", (int)d->an, d->a);
        if ((st = goal__graph_edge(r->g, (int32_t)a, (int32_t)b, d->start)) != GOAL_OK) return goal__rd_fail(r, d->a, st, "%s", r->g->firstmsg);
    }
    r->ndeps = 0;
    return GOAL_OK;
}
/* Places a failure to compile the block: a cycle at the definition of a label on it. */
static goal_status goal__rd_compile_fail(goal__rd *r, const char *block, goal_status st) {
    if (st == GOAL_ERR_CYCLE && r->err && r->err->action >= 0) {
        char m[GOAL_MSG_MAX];
        const char *l = goal__graph_label(r->g, (uint32_t)r->err->action);
        const char *at = block;
        size_t ln = l ? strlen(l) : 0;
        if (l) { /* find where the label is defined: "<label>:" after the block start */
            const char *q;
            for (q = block; q + ln < r->end; q++)
                if (memcmp(q, l, ln) == 0 && (q == r->text || !goal__is_idchar((unsigned char)q[-1])) && q[ln] == ':') { at = q; break; }
        }
        snprintf(m, sizeof m, "%s", r->err->msg);
        return goal__rd_fail(r, at, st, "%s", m);
    }
    if (st != GOAL_OK && r->err) {
        char m[GOAL_MSG_MAX];
        snprintf(m, sizeof m, "%s", r->err->msg);
        return goal__rd_fail(r, block, st, "%s", m);
    }
    return st;
}
/* Compiles the block's graph into a schedule of its own (the paper dialect keeps it). */
static goal_status goal__rd_compile(goal__rd *r, const char *block, goal_schedule *s) {
    goal_status st = goal_compile(r->g, s, r->err);
    return st == GOAL_OK ? st : goal__rd_compile_fail(r, block, st);
}
/* Compiles the block's graph straight into the world, with the scratch arrays of the
   last block: what goal_compile then goal_world_add_schedule do, without a copy. */
static goal_status goal__rd_compile_into(goal__rd *r, const char *block, goal_world *w) {
    goal__cc c;
    goal__hdr h;
    goal_status st;
    goal__fail(r->err, GOAL_OK, -1, "");
    if ((st = goal__cc_run(&c, r->g, &r->ccmem, &h, r->err)) == GOAL_OK) st = goal__world_emit(w, &c, &h, r->err);
    else st = goal__rd_compile_fail(r, block, st);
    goal__cc_free(&c);
    return st;
}

/* ---- the LogGOPSim dialect ---- */
/* An optional "<kw> <number>" at *p; GOAL_PENDING when kw is not there. On an error the
   cursor goes back to r->p, for the message. */
static goal_status goal__lgs_opt(goal__rd *r, const char **p, const char *kw, size_t n, uint64_t max, int any_ok,
                                 const char *what, int64_t *v) {
    const char *q = goal__word_at(*p, r->end, kw, n), *at;
    if (!q) return GOAL_PENDING;
    at = goal__hspace_at(q, r->end);
    if (!(q = goal__num_at(at, r->end, max, any_ok, v))) { r->p = at; return goal__rd_num_fail(r, max, what); }
    *p = q;
    return GOAL_OK;
}
/* [tag T] [cpu C] [nic N], in this order, spaces between; calc takes only cpu. */
static goal_status goal__lgs_options(goal__rd *r, goal_action *a) {
    const char *p = goal__hspace_at(r->p, r->end);
    int64_t v;
    goal_status st;
    if (a->kind != GOAL_CALC) {
        if ((st = goal__lgs_opt(r, &p, "tag", 3, 0x7FFFFFFF, 1, "a tag", &v)) < 0) return st;
        if (st == GOAL_OK) { a->tag = (int32_t)v; p = goal__hspace_at(p, r->end); }
    }
    if ((st = goal__lgs_opt(r, &p, "cpu", 3, 255, 0, "a cpu index", &v)) < 0) return st;
    if (st == GOAL_OK) { a->cpu = (uint8_t)v; p = goal__hspace_at(p, r->end); }
    if (a->kind != GOAL_CALC) {
        if ((st = goal__lgs_opt(r, &p, "nic", 3, 255, 0, "a nic index", &v)) < 0) return st;
        if (st == GOAL_OK) a->nic = (uint8_t)v;
    }
    r->p = p;
    return GOAL_OK;
}
/* calc <n> [cpu C], after the spaces after the keyword. */
static goal_status goal__lgs_calc(goal__rd *r, goal_action *a) {
    uint64_t cost;
    int k = goal__rd_uint(r, UINT64_MAX, &cost);
    if (k <= 0) return k < 0 ? goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "cost is out of range") : goal__rd_expected(r, "a cost");
    a->cost = cost;
    return goal__lgs_options(r, a);
}
/* send|recv <n>b to|from <peer> [options]  or  calc <n> [cpu C], after the keyword. On an
   error the cursor goes back to r->p, for the message. */
static goal_status goal__lgs_action(goal__rd *r, goal_action *a) {
    const char *end = r->end, *p = goal__hspace_at(r->p, end), *q;
    int64_t v;
    r->p = p;
    if (a->kind == GOAL_CALC) return goal__lgs_calc(r, a);
    if (!(q = goal__num_at(p, end, GOAL_SIZE_MAX, 0, &v))) return goal__rd_num_fail(r, GOAL_SIZE_MAX, "a size");
    a->buf.size = (uint64_t)v;
    if (!(p = goal__word_at(q, end, "b", 1))) { r->p = q; return goal__rd_expected(r, "'b' after the size"); }
    p = goal__hspace_at(p, end);
    q = a->kind == GOAL_SEND ? goal__word_at(p, end, "to", 2) : goal__word_at(p, end, "from", 4);
    if (!q) { r->p = p; return goal__rd_expected(r, a->kind == GOAL_SEND ? "'to'" : "'from'"); }
    p = goal__hspace_at(q, end);
    if (!(q = goal__num_at(p, end, 0x7FFFFFFF, 1, &v))) { r->p = p; return goal__rd_num_fail(r, 0x7FFFFFFF, "a rank"); }
    a->peer = (int32_t)v;
    r->p = q;
    return goal__lgs_options(r, a);
}
static goal_kind goal__lgs_kind(goal__rd *r) {
    if (GOAL__WORD(r, "send")) return GOAL_SEND;
    if (GOAL__WORD(r, "recv")) return GOAL_RECV;
    if (GOAL__WORD(r, "calc")) return GOAL_CALC;
    return GOAL_NOP;
}
/* The end of a statement: spaces, an optional comment, then a newline or the end. */
static goal_status goal__lgs_eol(goal__rd *r) {
    const char *at = r->p;
    if (r->p < r->end && *r->p == '\n') { r->p++; return GOAL_OK; }   /* the common case, without calls */
    if (!goal__rd_hspace(r)) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "comment '/*' is never closed");
    goal__rd_line_comment(r);
    if (r->p == r->end) return GOAL_OK;
    if (*r->p == '\n') { r->p++; return GOAL_OK; }
    return goal__rd_expected(r, "the end of the line");
}
/* One statement: an action (labelled or not) or a dependency. */
static goal_status goal__lgs_statement(goal__rd *r) {
    const char *at = r->p, *id = NULL, *b = NULL;
    size_t n = goal__rd_ident(r, &id), bn;
    goal_action a;
    goal_kind kind;
    goal_status st;
    uint32_t start;
    if (!n) return goal__rd_expected(r, "a statement (send, recv, calc, a label or '}')");
    goal__rd_hspace(r);
    if (goal__rd_at(r, ':')) {
        r->p++;
        goal__rd_hspace(r);
        if ((kind = goal__lgs_kind(r)) == GOAL_NOP) return goal__rd_expected(r, "send, recv or calc after the label");
    } else {
        r->p = id;
        kind = goal__lgs_kind(r);
        if (kind != GOAL_NOP && r->p < r->end && goal__is_idchar((unsigned char)*r->p) && !goal__is_digit((unsigned char)*r->p))
            kind = GOAL_NOP;                   /* an identifier such as "sender" */
        if (kind == GOAL_NOP) {
            r->p = id + n;
            goal__rd_hspace(r);
            start = GOAL__WORD(r, "irequires") ? GOAL__DEP_START : 0;
            if (!start && !GOAL__WORD(r, "requires")) return goal__rd_expected(r, "':', 'requires' or 'irequires'");
            goal__rd_hspace(r);
            if (!(bn = goal__rd_ident(r, &b))) return goal__rd_expected(r, "a label");
            if ((st = goal__rd_dep(r, id, n, b, bn, start)) != GOAL_OK) return st;
            return goal__lgs_eol(r);
        }
        id = NULL;
    }
    memset(&a, 0, sizeof a);   /* only actions: a dependency line needs none */
    a.kind = kind;
    if ((st = goal__lgs_action(r, &a)) != GOAL_OK) return st;
    if ((st = goal__rd_action(r, at, &a, id, n)) != GOAL_OK) return st;
    return goal__lgs_eol(r);
}
/* rank R { statements } */
static goal_status goal__lgs_block(goal__rd *r, int32_t rank, int32_t nranks, goal_world *w) {
    const char *at = r->p;
    int64_t v;
    goal_status st;
    if (r->p == r->end) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "the file ends before rank block %ld (num_ranks is %ld)", (long)rank, (long)nranks);
    if (!GOAL__WORD(r, "rank")) return goal__rd_expected(r, "'rank'");
    goal__rd_hspace(r);
    at = r->p;
    if ((st = goal__rd_num(r, 0x7FFFFFFF, 0, "a rank", &v)) != GOAL_OK) return st;
    if (v != rank) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "rank block %ld expected here (blocks come in order 0..%ld)", (long)rank, (long)nranks - 1);
    goal__rd_hspace(r);
    if (!goal__rd_at(r, '{')) return goal__rd_expected(r, "'{'");
    r->p++;
    if ((st = goal__lgs_eol(r)) != GOAL_OK) return st;
    goal_graph_reset(r->g, rank, nranks);
    for (;;) {
        if ((st = goal__rd_lspace(r)) != GOAL_OK) return st;
        if (r->p == r->end) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "rank block %ld is never closed: expected '}'", (long)rank);
        if (goal__rd_at(r, '}')) break;
        if ((st = goal__lgs_statement(r)) != GOAL_OK) return st;
    }
    r->p++;
    if ((st = goal__lgs_eol(r)) != GOAL_OK || (st = goal__rd_resolve(r)) != GOAL_OK) return st;
    return goal__rd_compile_into(r, at, w);
}
static goal_status goal__lgs_file(goal__rd *r, goal_world **out) {
    int64_t v;
    int32_t rank;
    goal_status st;
    if ((st = goal__rd_lspace(r)) != GOAL_OK) return st;
    if (!GOAL__WORD(r, "num_ranks")) return goal__rd_expected(r, "'num_ranks' (the LogGOPSim dialect starts with it)");
    goal__rd_hspace(r);
    if ((st = goal__rd_num(r, 0x7FFFFFFF, 0, "the number of ranks", &v)) != GOAL_OK) return st;
    if (v < 1) return goal__rd_fail(r, r->p - 1, GOAL_ERR_RANK, "num_ranks must be at least 1");
    if ((uint64_t)v > (uint64_t)(r->end - r->p) / 10u + 1u)   /* "rank 0 {\n}" is 10 bytes */
        return goal__rd_fail(r, r->p - 1, GOAL_ERR_SYNTAX, "num_ranks %lld, but the rest of the file cannot hold that many rank blocks", (long long)v);
    if ((st = goal__lgs_eol(r)) != GOAL_OK) return st;
    if ((st = goal__world_new(out, (int)v, &r->alloc)) != GOAL_OK) return goal__fail(r->err, st, -1, "out of memory");
    (*out)->dialect = GOAL_DIALECT_LOGGOPSIM;
    for (rank = 0; rank < (int32_t)v; rank++) {
        if ((st = goal__rd_lspace(r)) != GOAL_OK || (st = goal__lgs_block(r, rank, (int32_t)v, *out)) != GOAL_OK) return st;
    }
    if ((st = goal__rd_lspace(r)) != GOAL_OK) return st;
    if (r->p != r->end) return goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "text after the last rank block (num_ranks is %ld)", (long)v);
    return GOAL_OK;
}

/* ---- the paper's dialect ---- */
/* [SLOT:|scratch:]ADDR,SIZE */
static goal_status goal__pap_buf(goal__rd *r, goal_buf *b) {
    int64_t v, size;
    goal_status st;
    b->slot = 0;
    goal__rd_pspace(r, 0);
    if (GOAL__KEYWORD(r, "scratch")) {
        b->slot = GOAL_SLOT_SCRATCH;
        goal__rd_pspace(r, 0);
        if (!goal__rd_at(r, ':')) return goal__rd_expected(r, "':' after scratch");
        r->p++;
        goal__rd_pspace(r, 0);
    }
    if ((st = goal__rd_num(r, GOAL_SIZE_MAX, 0, "a buffer address", &v)) != GOAL_OK) return st;
    goal__rd_pspace(r, 0);
    if (b->slot == 0 && goal__rd_at(r, ':')) {
        if (v > GOAL_SLOT_MAX) return goal__rd_fail(r, r->p, GOAL_ERR_ARG, "slot %lld does not exist (0..%u or scratch)", (long long)v, GOAL_SLOT_MAX);
        b->slot = (uint32_t)v;
        r->p++;
        goal__rd_pspace(r, 0);
        if ((st = goal__rd_num(r, GOAL_SIZE_MAX, 0, "a buffer address", &v)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
    }
    if (!goal__rd_at(r, ',')) return goal__rd_expected(r, "',' and the buffer size");
    r->p++;
    goal__rd_pspace(r, 0);
    if ((st = goal__rd_num(r, GOAL_SIZE_MAX, 0, "a buffer size", &size)) != GOAL_OK) return st;
    b->offset = (uint64_t)v;
    b->size = (uint64_t)size;
    return GOAL_OK;
}
/* An optional "<kw> <number>" of the paper dialect. */
static goal_status goal__pap_opt(goal__rd *r, const char *kw, size_t n, uint64_t max, int any_ok, int64_t *v) {
    goal__rd_pspace(r, 0);
    if (!goal__rd_keyword(r, kw, n)) return GOAL_PENDING;
    goal__rd_pspace(r, 0);
    return goal__rd_num(r, max, any_ok, kw, v);
}
static goal_status goal__pap_options(goal__rd *r, goal_action *a) {
    int64_t v;
    goal_status st;
    if (a->kind != GOAL_CALC) {
        if ((st = goal__pap_opt(r, "tag", 3, 0x7FFFFFFF, 1, &v)) < 0) return st;
        if (st == GOAL_OK) a->tag = (int32_t)v;
    }
    if ((st = goal__pap_opt(r, "cpu", 3, 255, 0, &v)) < 0) return st;
    if (st == GOAL_OK) a->cpu = (uint8_t)v;
    if (a->kind != GOAL_CALC) {
        if ((st = goal__pap_opt(r, "nic", 3, 255, 0, &v)) < 0) return st;
        if (st == GOAL_OK) a->nic = (uint8_t)v;
    }
    return GOAL_OK;
}
/* <op><Type><bits> or "user N". */
static goal_status goal__pap_function(goal__rd *r, goal_action *a) {
    static const char *const types[3] = {"Int", "UInt", "Float"};
    static const char *const bits[4] = {"8", "16", "32", "64"};
    const char *at = r->p, *id;
    size_t n, k, i, j, len;
    int64_t v;
    goal_status st;
    goal__rd_pspace(r, 0);
    at = r->p;
    if (GOAL__KEYWORD(r, "user")) {
        goal__rd_pspace(r, 0);
        if ((st = goal__rd_num(r, 0xFFFFFFFFu, 0, "a user function number", &v)) != GOAL_OK) return st;
        a->op = GOAL_OP_USER; a->fn = (uint32_t)v;
        return GOAL_OK;
    }
    if (!(n = goal__rd_ident(r, &id))) return goal__rd_expected(r, "a function (for example sumInt32, or user 1)");
    for (k = 0; k < GOAL_OP_USER; k++) {
        len = strlen(goal__op_names[k]);
        if (n <= len || memcmp(id, goal__op_names[k], len) != 0) continue;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 4; j++) {
                size_t tl = strlen(types[i]), bl = strlen(bits[j]);
                if (len + tl + bl == n && memcmp(id + len, types[i], tl) == 0 && memcmp(id + len + tl, bits[j], bl) == 0) {
                    a->op = (goal_op)k;
                    a->dtype = (goal_dtype)GOAL__DTYPE_CODE(i << 4 | j);
                    return GOAL_OK;
                }
            }
    }
    return goal__rd_fail(r, at, GOAL_ERR_OP, "unknown function '%.*s': expected an op (max min sum prod land lor lxor band bor bxor copy) "
                         "and a type (Int UInt Float with 8 16 32 64), or user N", (int)(n < 40 ? n : 40), id);
}
/* The action after its keyword. */
static goal_status goal__pap_action(goal__rd *r, goal_action *a) {
    int64_t v;
    goal_status st;
    uint64_t cost;
    int k;
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        if ((st = goal__pap_buf(r, &a->buf)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
        if (!(a->kind == GOAL_SEND ? GOAL__KEYWORD(r, "to") : GOAL__KEYWORD(r, "from")))
            return goal__rd_expected(r, a->kind == GOAL_SEND ? "'to'" : "'from'");
        goal__rd_pspace(r, 0);
        if ((st = goal__rd_num(r, 0x7FFFFFFF, 1, "a rank", &v)) != GOAL_OK) return st;
        a->peer = (int32_t)v;
        return goal__pap_options(r, a);
    case GOAL_EXEC:
        if ((st = goal__pap_function(r, a)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
        if (!GOAL__KEYWORD(r, "with")) return goal__rd_expected(r, "'with'");
        if ((st = goal__pap_buf(r, &a->buf)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
        if (goal__rd_at(r, ',')) r->p++;
        return goal__pap_buf(r, &a->buf2);
    case GOAL_CALC:
        goal__rd_pspace(r, 0);
        k = goal__rd_uint(r, UINT64_MAX, &cost);
        if (k <= 0) return k < 0 ? goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "cost is out of range") : goal__rd_expected(r, "a cost");
        a->cost = cost;
        return goal__pap_options(r, a);
    default: return GOAL_OK;
    }
}
static goal_kind goal__pap_kind(const char *id, size_t n) {
    static const char *const names[5] = {"nop", "send", "recv", "exec", "calc"};
    int k;
    for (k = 0; k < 5; k++)
        if (strlen(names[k]) == n && memcmp(id, names[k], n) == 0) return (goal_kind)k;
    return (goal_kind)-1;
}
/* One statement, without its ';'. */
static goal_status goal__pap_statement(goal__rd *r) {
    const char *at = r->p, *id, *label = NULL, *b;
    size_t n = goal__rd_ident(r, &id), ln = 0, bn;
    goal_action a;
    goal_status st;
    memset(&a, 0, sizeof a);
    if (!n) return goal__rd_expected(r, "a statement (send, recv, exec, calc, nop, requ, irequ or a label)");
    if ((n == 4 && memcmp(id, "requ", 4) == 0) || (n == 5 && memcmp(id, "irequ", 5) == 0)) {
        goal__rd_pspace(r, 0);
        if (!(n = goal__rd_ident(r, &label))) return goal__rd_expected(r, "a label");
        goal__rd_pspace(r, 0);
        if (!GOAL__WORD(r, "->")) return goal__rd_expected(r, "'->'");
        goal__rd_pspace(r, 0);
        if (!(bn = goal__rd_ident(r, &b))) return goal__rd_expected(r, "a label");
        return goal__rd_dep(r, label, n, b, bn, id[0] == 'i' ? GOAL__DEP_START : 0);
    }
    goal__rd_pspace(r, 0);
    if (goal__rd_at(r, ':')) {
        label = id; ln = n;
        r->p++;
        goal__rd_pspace(r, 0);
        if (!(n = goal__rd_ident(r, &id))) return goal__rd_expected(r, "an action after the label");
    }
    if ((int)(a.kind = goal__pap_kind(id, n)) < 0) {
        r->p = id;
        return goal__rd_expected(r, "send, recv, exec, calc or nop");
    }
    if ((st = goal__pap_action(r, &a)) != GOAL_OK) return st;
    return goal__rd_action(r, at, &a, label, ln);
}
/* Statements up to '}' (in a block) or the end of the file. */
static goal_status goal__pap_body(goal__rd *r, int in_block) {
    goal_status st;
    for (;;) {
        goal__rd_pspace(r, 0);
        if (r->p == r->end || goal__rd_at(r, '}')) break;
        if (!in_block && GOAL__KEYWORD(r, "rank"))
            return goal__rd_fail(r, r->p - 4, GOAL_ERR_SYNTAX, "rank blocks cannot follow statements outside a rank block");
        if ((st = goal__pap_statement(r)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
        if (!goal__rd_at(r, ';')) return goal__rd_expected(r, "';'");
        r->p++;
    }
    return goal__rd_resolve(r);
}

/* The paper dialect does not say how many ranks there are until the end (unless
   num_ranks does), so its schedules wait here. */
typedef struct goal__pap {
    goal_schedule *s; size_t n, cap;
    int32_t nranks;        /* from num_ranks, or 0 */
    int32_t min_rank, max_rank;
} goal__pap;

/* Keeps s (compiled for rank `from`) as the schedule of `rank`. */
static goal_status goal__pap_keep(goal__rd *r, goal__pap *pp, const goal_schedule *s, int32_t rank, const char *at) {
    uint8_t *copy;
    size_t k;
    goal_schedule *t;
    for (k = 0; rank >= pp->min_rank && rank <= pp->max_rank && k < pp->n; k++)   /* a new extreme needs no search */
        if (pp->s[k].rank == rank) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "rank %ld has two blocks", (long)rank);
    if (GOAL__RESERVE(&r->alloc, pp->s, pp->cap, pp->n + 1) != GOAL_OK || !(copy = (uint8_t *)goal__alloc(&r->alloc, s->size)))
        return goal__fail(r->err, GOAL_ERR_NOMEM, -1, "out of memory");
    memcpy(copy, s->bytes, s->size);
    goal__wr32(copy + 8, (uint32_t)rank);
    t = &pp->s[pp->n++];
    *t = *s;
    t->bytes = copy; t->owned_ = copy; t->alloc_ = r->alloc; t->rank = rank;
    if (rank > pp->max_rank) pp->max_rank = rank;
    if (rank < pp->min_rank) pp->min_rank = rank;
    return GOAL_OK;
}

/* rank #A, #B { body }; the writer puts no more ranks in one block than the reader takes. */
#define GOAL__RANKS_PER_BLOCK 64
static goal_status goal__pap_block(goal__rd *r, goal__pap *pp) {
    const char *at = r->p - 4, *first;
    int32_t ranks[GOAL__RANKS_PER_BLOCK], nr = 0, k, limit = pp->nranks ? pp->nranks : 0x7FFFFFFF;
    int64_t v;
    goal_schedule s;
    goal_status st = GOAL_OK;
    for (;;) {
        goal__rd_pspace(r, 1);
        if (!goal__rd_at(r, '#')) return goal__rd_expected(r, "'#' and a rank number");
        r->p++;
        first = r->p;
        if ((st = goal__rd_num(r, 0x7FFFFFFE, 0, "a rank number", &v)) != GOAL_OK) return st;
        if (v >= limit) return goal__rd_fail(r, first, GOAL_ERR_RANK, "rank %lld is out of range (num_ranks is %ld)", (long long)v, (long)limit);
        if (nr == GOAL__RANKS_PER_BLOCK) return goal__rd_fail(r, first, GOAL_ERR_LIMIT, "at most 64 ranks share one block");
        ranks[nr++] = (int32_t)v;
        goal__rd_pspace(r, 0);
        if (!goal__rd_at(r, ',')) break;
        r->p++;
    }
    if (!goal__rd_at(r, '{')) return goal__rd_expected(r, "'{'");
    r->p++;
    goal_graph_reset(r->g, ranks[0], limit);
    if ((st = goal__pap_body(r, 1)) != GOAL_OK) return st;
    if (!goal__rd_at(r, '}')) return goal__rd_fail(r, at, GOAL_ERR_SYNTAX, "rank block is never closed: expected '}'");
    r->p++;
    if ((st = goal__rd_compile(r, at, &s)) != GOAL_OK) return st;
    for (k = 0; k < nr && st == GOAL_OK; k++) st = goal__pap_keep(r, pp, &s, ranks[k], at);
    goal_schedule_free(&s);
    return st;
}

static int goal__by_rank(const void *a, const void *b) {
    int32_t x = ((const goal_schedule *)a)->rank, y = ((const goal_schedule *)b)->rank;
    return (x > y) - (x < y);
}
/* Builds the world once the number of ranks is known. */
static goal_status goal__pap_world(goal__rd *r, goal__pap *pp, goal_world **out) {
    int32_t nranks = pp->nranks;
    size_t k;
    goal_status st;
    if (!nranks) {
        int64_t m = pp->max_rank > r->max_peer ? pp->max_rank : r->max_peer;
        nranks = (int32_t)(m + 1 > 0 ? m + 1 : 1);
    }
    if ((st = goal__world_new(out, nranks, &r->alloc)) != GOAL_OK) return goal__fail(r->err, st, -1, "out of memory");
    (*out)->dialect = GOAL_DIALECT_PAPER;
    if (pp->n > 1) qsort(pp->s, pp->n, sizeof *pp->s, goal__by_rank);   /* so the world appends; s may be NULL */
    for (k = 0; k < pp->n; k++) {
        goal__wr32((uint8_t *)pp->s[k].owned_ + 12, (uint32_t)nranks);
        pp->s[k].nranks = nranks;
        if ((st = goal_world_add_schedule(*out, &pp->s[k], r->err)) != GOAL_OK) return st;
    }
    return GOAL_OK;
}

/* The optional "num_ranks N;" at the start (into pp->nranks); empty input is an error. */
static goal_status goal__pap_num_ranks(goal__rd *r, goal__pap *pp) {
    int64_t v;
    goal_status st;
    if (!GOAL__KEYWORD(r, "num_ranks"))
        return r->p == r->end ? goal__rd_fail(r, r->p, GOAL_ERR_SYNTAX, "empty input: expected num_ranks, a rank block or a statement")
                              : GOAL_OK;
    goal__rd_pspace(r, 0);
    if ((st = goal__rd_num(r, 0x7FFFFFFF, 0, "the number of ranks", &v)) != GOAL_OK) return st;
    if (v < 1) return goal__rd_fail(r, r->p - 1, GOAL_ERR_RANK, "num_ranks must be at least 1");
    goal__rd_pspace(r, 0);
    if (!goal__rd_at(r, ';')) return goal__rd_expected(r, "';'");
    r->p++;
    pp->nranks = (int32_t)v;
    goal__rd_pspace(r, 0);
    return GOAL_OK;
}
/* Rank blocks to the end of the file (the first "rank" is read). */
static goal_status goal__pap_blocks(goal__rd *r, goal__pap *pp) {
    goal_status st;
    for (;;) {
        if ((st = goal__pap_block(r, pp)) != GOAL_OK) return st;
        goal__rd_pspace(r, 0);
        if (r->p == r->end) return GOAL_OK;
        if (!GOAL__KEYWORD(r, "rank")) return goal__rd_expected(r, "'rank' or the end of the file");
    }
}
/* Statements outside any rank block: the body of rank 0. */
static goal_status goal__pap_bare(goal__rd *r, goal__pap *pp) {
    const char *at = r->p;
    goal_schedule s;
    goal_status st;
    goal_graph_reset(r->g, 0, pp->nranks ? pp->nranks : 0x7FFFFFFF);
    if ((st = goal__pap_body(r, 0)) == GOAL_OK && goal__rd_at(r, '}')) st = goal__rd_expected(r, "a statement");
    if (st == GOAL_OK && (st = goal__rd_compile(r, at, &s)) == GOAL_OK) {
        st = goal__pap_keep(r, pp, &s, 0, at);
        goal_schedule_free(&s);
    }
    return st;
}
static goal_status goal__pap_file(goal__rd *r, goal_world **out) {
    goal__pap pp;
    goal_status st;
    size_t k;
    memset(&pp, 0, sizeof pp);
    pp.max_rank = -1;
    pp.min_rank = 0x7FFFFFFF;
    r->max_peer = -1;
    goal__rd_pspace(r, 0);
    if ((st = goal__pap_num_ranks(r, &pp)) != GOAL_OK) return st;
    if (GOAL__KEYWORD(r, "rank")) st = goal__pap_blocks(r, &pp);
    else if (r->p != r->end) st = goal__pap_bare(r, &pp);
    if (st == GOAL_OK) st = goal__pap_world(r, &pp, out);
    for (k = 0; k < pp.n; k++) goal_schedule_free(&pp.s[k]);
    goal__free(&r->alloc, pp.s);
    return st;
}

/* The LogGOPSim dialect starts with "num_ranks N" (no ';') or "rank N {"; the paper's
   with '#', "num_ranks N;", "rank #", or a statement. */
static goal_dialect goal__detect(goal__rd *r) {
    goal__rd probe = *r;
    goal_dialect d = GOAL_DIALECT_PAPER;
    uint64_t v;
    for (;;) {
        while (probe.p < probe.end && (*probe.p == ' ' || *probe.p == '\t' || *probe.p == '\r' || *probe.p == '\n')) probe.p++;
        if (probe.end - probe.p >= 2 && probe.p[0] == '/' && (probe.p[1] == '/' || probe.p[1] == '*')) return GOAL_DIALECT_LOGGOPSIM;
        break;
    }
    if (GOAL__KEYWORD(&probe, "num_ranks")) {
        while (probe.p < probe.end && (*probe.p == ' ' || *probe.p == '\t')) probe.p++;
        goal__rd_uint(&probe, UINT64_MAX, &v);
        while (probe.p < probe.end && (*probe.p == ' ' || *probe.p == '\t' || *probe.p == '\r')) probe.p++;
        d = goal__rd_at(&probe, ';') ? GOAL_DIALECT_PAPER : GOAL_DIALECT_LOGGOPSIM;
    } else if (GOAL__KEYWORD(&probe, "rank")) {
        while (probe.p < probe.end && (*probe.p == ' ' || *probe.p == '\t')) probe.p++;
        d = goal__rd_at(&probe, '#') ? GOAL_DIALECT_PAPER : GOAL_DIALECT_LOGGOPSIM;
    }
    return d;
}

goal_status goal_parse(const char *text, size_t len, const goal_parse_desc *desc, goal_world **out, goal_error *err) {
    goal__rd r;
    goal_graph_desc gd;
    goal_dialect d;
    goal_status st;
    goal__fail(err, GOAL_OK, -1, "");
    if (!out || (!text && len)) return goal__fail(err, GOAL_ERR_ARG, -1, "goal_parse: no output or no text");
    *out = NULL;
    memset(&r, 0, sizeof r);
    r.text = r.p = text ? text : "";
    r.end = r.text + len;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) r.text = r.p = text + 3;   /* a UTF-8 byte order mark */
    r.file = desc && desc->filename ? desc->filename : "<input>";
    r.err = err;
    r.alloc = goal__allocator(desc ? &desc->alloc : NULL);
    memset(&gd, 0, sizeof gd);
    gd.alloc = r.alloc;
    if ((st = goal_graph_create(&r.g, &gd, NULL)) != GOAL_OK) return goal__fail(err, st, -1, "out of memory");
    d = desc && desc->dialect ? desc->dialect : goal__detect(&r);
    st = d == GOAL_DIALECT_LOGGOPSIM ? goal__lgs_file(&r, out) : goal__pap_file(&r, out);
    goal_graph_destroy(r.g);
    goal__free(&r.alloc, r.deps);
    goal__free(&r.alloc, r.ccmem.p);
    if (st != GOAL_OK) {
        goal_world_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* ---- >>> text: writing ------------------------------------------------------------------------ */
typedef struct goal__out {       /* buffered output; with no fn it only collects */
    goal_write_fn fn;
    void *user;
    goal_allocator alloc;
    char *mem; size_t n, cap;
    goal_status st;
} goal__out;

static void goal__out_flush(goal__out *o) {
    if (o->fn && o->n && o->st == GOAL_OK && o->fn(o->user, o->mem, o->n) != 0) o->st = GOAL_ERR_IO;
    if (o->fn) o->n = 0;
}
static void goal__out_mem(goal__out *o, const char *s, size_t n) {
    if (o->st != GOAL_OK) return;
    if (o->n + n > o->cap && GOAL__RESERVE(&o->alloc, o->mem, o->cap, o->n + n) != GOAL_OK) { o->st = GOAL_ERR_NOMEM; return; }
    memcpy(o->mem + o->n, s, n);
    o->n += n;
    if (o->fn && o->n >= 65536) goal__out_flush(o);
}
static void goal__out_s(goal__out *o, const char *s) { goal__out_mem(o, s, strlen(s)); }
static void goal__out_u(goal__out *o, uint64_t v) {
    char b[24];
    int k = 24;
    do { b[--k] = (char)('0' + v % 10); v /= 10; } while (v);
    goal__out_mem(o, b + k, (size_t)(24 - k));
}
static void goal__out_i(goal__out *o, int64_t v) {
    if (v < 0) { goal__out_mem(o, "-", 1); goal__out_u(o, (uint64_t)-v); }
    else goal__out_u(o, (uint64_t)v);
}

/* Is the name of action i written (at its definition)? */
static int goal__named(const goal_schedule *s, uint32_t i) {
    if (s->label_mode == GOAL__LABELS_AUTO) return 1;
    if (s->label_mode == GOAL__LABELS_TABLE) return goal__stored_label(s, i) != NULL;
    return goal__incident(s, i);
}
static void goal__out_name(goal__out *o, const goal_schedule *s, uint32_t i) {
    char nb[GOAL_LABEL_MAX];
    goal__out_s(o, goal_schedule_label(s, i, nb));
}

static void goal__out_pbuf(goal__out *o, const goal_buf *b) {
    if (b->slot == GOAL_SLOT_SCRATCH) goal__out_s(o, "scratch:");
    else if (b->slot) { goal__out_u(o, b->slot); goal__out_s(o, ":"); }
    goal__out_u(o, b->offset);
    goal__out_s(o, ",");
    goal__out_u(o, b->size);
}
/* " tag T cpu C nic N" for what is not the default; tag always in the LogGOPSim dialect. */
static void goal__out_opts(goal__out *o, const goal_action *a, int lgs) {
    if (a->kind != GOAL_CALC && (a->tag || lgs)) { goal__out_s(o, " tag "); goal__out_i(o, a->tag); }
    if (a->cpu) { goal__out_s(o, " cpu "); goal__out_u(o, a->cpu); }
    if (a->nic) { goal__out_s(o, " nic "); goal__out_u(o, a->nic); }
}
static void goal__out_action_paper(goal__out *o, const goal_action *a) {
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        goal__out_s(o, a->kind == GOAL_SEND ? "send " : "recv ");
        goal__out_pbuf(o, &a->buf);
        goal__out_s(o, a->kind == GOAL_SEND ? " to " : " from ");
        goal__out_i(o, a->peer);
        goal__out_opts(o, a, 0);
        break;
    case GOAL_EXEC:
        goal__out_s(o, "exec ");
        if (a->op == GOAL_OP_USER) { goal__out_s(o, "user "); goal__out_u(o, a->fn); }
        else { goal__out_s(o, goal_op_name(a->op)); goal__out_s(o, goal_dtype_name(a->dtype)); }
        goal__out_s(o, " with ");
        goal__out_pbuf(o, &a->buf);
        goal__out_s(o, " ");
        goal__out_pbuf(o, &a->buf2);
        break;
    case GOAL_CALC: goal__out_s(o, "calc "); goal__out_u(o, a->cost); goal__out_opts(o, a, 0); break;
    default: goal__out_s(o, "nop"); break;
    }
}
/* The LogGOPSim dialect has no buffers and no exec: an exec costs the bytes of buf1 (as
   Schedgen writes a reduction), a nop costs 0. */
static void goal__out_action_lgs(goal__out *o, const goal_action *a) {
    switch (a->kind) {
    case GOAL_SEND: case GOAL_RECV:
        goal__out_s(o, a->kind == GOAL_SEND ? "send " : "recv ");
        goal__out_u(o, a->buf.size);
        goal__out_s(o, a->kind == GOAL_SEND ? "b to " : "b from ");
        goal__out_i(o, a->peer);
        goal__out_opts(o, a, 1);
        break;
    case GOAL_CALC: goal__out_s(o, "calc "); goal__out_u(o, a->cost); goal__out_opts(o, a, 1); break;
    case GOAL_EXEC: goal__out_s(o, "calc "); goal__out_u(o, a->buf.size); break;
    default: goal__out_s(o, "calc 0"); break;
    }
}

/* The statements of one rank: actions, then dependencies grouped by the action waited for
   (which keeps their compiled order). */
static void goal__out_body(goal__out *o, const goal_schedule *s, int paper) {
    const char *ind = paper ? "  " : "", *eos = paper ? ";\n" : "\n";
    uint32_t i, k;
    for (i = 0; i < s->nactions; i++) {
        goal_action a;
        goal_schedule_action(s, i, &a);
        goal__out_s(o, ind);
        if (goal__named(s, i)) { goal__out_name(o, s, i); goal__out_s(o, ": "); }
        if (paper) goal__out_action_paper(o, &a);
        else goal__out_action_lgs(o, &a);
        goal__out_s(o, eos);
    }
    for (i = 0; i < s->nactions; i++) {
        const uint32_t *d;
        uint32_t nd = goal_schedule_deps(s, i, &d);
        for (k = 0; k < nd; k++) {
            uint32_t dep = GOAL__LE32(d[k]), a = dep & ~GOAL__DEP_START;
            goal__out_s(o, ind);
            if (paper) {
                goal__out_s(o, dep & GOAL__DEP_START ? "irequ " : "requ ");
                goal__out_name(o, s, a); goal__out_s(o, " -> "); goal__out_name(o, s, i);
            } else {
                goal__out_name(o, s, a);
                goal__out_s(o, dep & GOAL__DEP_START ? " irequires " : " requires ");
                goal__out_name(o, s, i);
            }
            goal__out_s(o, eos);
        }
    }
}

goal_status goal_schedule_write(const goal_schedule *s, goal_dialect d, goal_write_fn fn, void *user) {
    goal__out o;
    if (!s || !fn) return GOAL_ERR_ARG;
    memset(&o, 0, sizeof o);
    o.fn = fn; o.user = user; o.alloc = goal__allocator(NULL);
    if (d == GOAL_DIALECT_LOGGOPSIM) { goal__out_s(&o, "rank "); goal__out_u(&o, (uint64_t)s->rank); goal__out_s(&o, " {\n"); }
    else { goal__out_s(&o, "rank #"); goal__out_u(&o, (uint64_t)s->rank); goal__out_s(&o, " {\n"); }
    goal__out_body(&o, s, d != GOAL_DIALECT_LOGGOPSIM);
    goal__out_s(&o, "}\n");
    goal__out_flush(&o);
    goal__free(&o.alloc, o.mem);
    return o.st;
}

static goal_status goal__write_lgs(const goal_world *w, goal__out *o) {
    int32_t r;
    goal__out_s(o, "num_ranks ");
    goal__out_u(o, (uint64_t)w->nranks);
    goal__out_s(o, "\n");
    for (r = 0; r < w->nranks && o->st == GOAL_OK; r++) {
        goal_schedule s;
        goal__out_s(o, "\nrank ");
        goal__out_u(o, (uint64_t)r);
        goal__out_s(o, " {\n");
        if (goal_world_schedule(w, r, &s) == GOAL_OK) goal__out_body(o, &s, 0);
        goal__out_s(o, "}\n");
    }
    return o->st;
}

/* The number of ranks a paper-dialect reader infers: 1 + the largest rank with a block or
   named as a peer. */
static int32_t goal__inferred_ranks(const goal_world *w) {
    int32_t m = -1;
    uint32_t i;
    size_t k;
    for (k = 0; k < w->nset; k++) {
        goal_schedule s;
        goal__wview(w, k, &s);
        if (!s.nactions) continue;
        if (s.rank > m) m = s.rank;
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal_schedule_action(&s, i, &a);
            if ((a.kind == GOAL_SEND || a.kind == GOAL_RECV) && a.peer > m) m = a.peer;
        }
    }
    return m + 1;
}

/* Ranks with identical bodies in a row share one block: "rank #1, #2 { ... }". */
static void goal__write_group(goal__out *o, const int32_t *ranks, size_t nr, const goal__out *body) {
    size_t k;
    if (!nr) return;
    goal__out_s(o, "rank ");
    for (k = 0; k < nr; k++) {
        goal__out_s(o, k ? ", #" : "#");
        goal__out_u(o, (uint64_t)ranks[k]);
    }
    goal__out_s(o, " {\n");
    goal__out_mem(o, body->mem, body->n);
    goal__out_s(o, "}\n");
}
static goal_status goal__write_paper(const goal_world *w, goal__out *o) {
    goal__out cur, prev, tmp;
    int32_t *ranks = NULL;
    size_t nr = 0, rcap = 0, k;
    memset(&cur, 0, sizeof cur); cur.alloc = o->alloc;
    prev = cur;
    if (goal__inferred_ranks(w) != w->nranks) {
        goal__out_s(o, "num_ranks ");
        goal__out_u(o, (uint64_t)w->nranks);
        goal__out_s(o, ";\n");
    }
    for (k = 0; k < w->nset && o->st == GOAL_OK; k++) {
        goal_schedule s;
        cur.n = 0;
        goal__wview(w, k, &s);
        if (s.nactions) goal__out_body(&cur, &s, 1);
        if (cur.st != GOAL_OK) { o->st = cur.st; break; }
        if (!cur.n || nr == GOAL__RANKS_PER_BLOCK || !nr || s.rank != ranks[nr - 1] + 1 || cur.n != prev.n ||
            memcmp(cur.mem, prev.mem, cur.n) != 0) {
            goal__write_group(o, ranks, nr, &prev);
            nr = 0;
            tmp = prev; prev = cur; cur = tmp;
        }
        if (!prev.n) continue;
        if (GOAL__RESERVE(&o->alloc, ranks, rcap, nr + 1) != GOAL_OK) { o->st = GOAL_ERR_NOMEM; break; }
        ranks[nr++] = s.rank;
    }
    goal__write_group(o, ranks, nr, &prev);
    goal__free(&o->alloc, cur.mem); goal__free(&o->alloc, prev.mem); goal__free(&o->alloc, ranks);
    return o->st;
}

goal_status goal_world_write(const goal_world *w, goal_dialect d, goal_write_fn fn, void *user) {
    goal__out o;
    if (!w || !fn) return GOAL_ERR_ARG;
    memset(&o, 0, sizeof o);
    o.fn = fn; o.user = user; o.alloc = w->alloc;
    if (d == GOAL_DIALECT_AUTO) d = w->dialect ? w->dialect : GOAL_DIALECT_PAPER;
    if (d == GOAL_DIALECT_LOGGOPSIM) goal__write_lgs(w, &o);
    else goal__write_paper(w, &o);
    goal__out_flush(&o);
    goal__free(&o.alloc, o.mem);
    return o.st;
}

#endif /* GOAL_IMPLEMENTATION */
