/* goal_sim.h - v0.1.0 - whole-world tools for GOAL: cross-rank matching and deadlock
   detection, LogGOPS simulation (as LogGOPSim computes it), and pictures (Graphviz DOT,
   Chrome trace-event JSON, a self-made SVG timeline).

   In exactly ONE .c or .cpp file:   #define GOAL_SIM_IMPLEMENTATION   then   #include "goal_sim.h"
   (GOAL_ALL_IMPLEMENTATION works as well.) goal.h's implementation must be in the program too. The cDAG analysis (wait sets, dataflow, collective detection,
   replacement) is in goal_analyze.h, which builds on this header.

   Sections: OVERVIEW · CHECK · SIMULATE · COSTS · DRAW · MEMORY · ERRORS · LIMITS · LICENSE

   OVERVIEW
   --------
   A schedule is written one rank at a time but is right or wrong as a whole. These calls take
   a goal_world (goal.h: every rank's compiled schedule, from goal_parse, goal_world_load or
   goal_world_add_graph) and answer: does every send meet its receive, can everything start,
   how long does it take under LogGOPS, and what does it look like.
     goal_sim_check      matched pairs + findings (unmatched, deadlocked, size mismatches)
     goal_sim_run        finish time of every rank under LogGOPS; optional event callback
     goal_sim_write_dot  Graphviz DOT of one rank or of the whole world
     goal_sim_write_trace / goal_sim_write_svg   the simulated timeline as JSON / SVG
     goal_sim_timeline_run   every simulated event, the critical path, message rounds
   A rank that was never given a schedule counts as an empty one.

   CHECK (the cDAG paper's Algorithm 1, with MPI matching)
   -----
   A fix-point over the world: the independent actions of all ranks enter a FIFO queue; a
   send that is taken out looks for the first posted, unmatched receive on its peer that
   accepts it (source = sender or -1, tag = tag or -1 on either side); a receive looks for the
   first unmatched send to its rank that it accepts; each side that finds nothing waits in
   its rank's queue, in posting order (MPI's non-overtaking rule). A match completes both
   actions; calc, exec and nop complete when they start; a completion (or a start, for
   irequires) releases dependents, which join the FIFO. By default a send completes only
   when it is matched (like MPI_Ssend: a schedule that needs buffering to progress is
   reported); goal_sim_check_desc.eager_limit makes small sends complete when posted.
   Wildcards make matching order-dependent; the check follows one order (FIFO), as the paper.
   Findings, one per problem, each naming rank and action (its label, or l<index+1> when it
   has none, which is the name `goal fmt` writes):
     GOAL_SIM_UNMATCHED_SEND / _RECV   posted, but nothing ever matches it
     GOAL_SIM_BLOCKED                  never completes: waits for `other`, which never does
     GOAL_SIM_CYCLE                    on a cycle of such waits across ranks (other = next)
     GOAL_SIM_SIZE_ERROR               send larger than its matched receive
     GOAL_SIM_SIZE_WARNING             send smaller than its matched receive
   goal_sim_finding_text formats one as "rank R LABEL (what it is): error|warning: ..." for people.

   COMMAND LINE (tools/: goal check | sim | dot | trace | svg | html; the options and their
   defaults: goal help VERB, printed from tools/goal.c's tables). What they print:
     goal check                 one finding per line, then "ok: N ranks, M messages matched"
                                when clean; exit 0 clean, 1 findings or bad input
     goal sim                   "rank R T" per rank, then "max T" (T in ns: an integer when
                                whole, else up to 3 decimals); exit 3 on deadlock (the stuck
                                actions on stderr), 1 when a message is never received or
                                simulated time overflows
     goal sim --critical        then "critical rank R LABEL: what START..END" or
                                "critical message S -> D round K START..END" per step (whole ns)
     goal dot, trace, svg, html Graphviz DOT, Chrome trace JSON, SVG, an interactive page

   SIMULATE (LogGOPS exactly as LogGOPSim 76451de computes it, with libgoal's parameters off:
   R, T, H, E, F 0, A unset, no shared memory, no two-level model; tests/data/loggopsim/MODEL.md)
   --------
   Parameters (zero = LogGOPSim's default; GOAL_SIM_ZERO asks for a real 0):
     L 2500 latency · o 1500 CPU overhead per message · g 1000 gap per message · G 6 gap per
     byte · O 0 CPU overhead per byte · S 65535 eager limit (size <= S eager, else rendezvous)
     · C 1 CPU time per byte of a local exec (a reduction, and a copy unless K is set;
     libgoal's, not LogGOPSim's) · K (= C) CPU time per byte of a local copy (an exec whose op
     is copy; libgoal's): goal probe measures it apart, as a copy costs less than a reduction
     · R 0 rendezvous handshake (libgoal's): a message over S bytes arrives R later, at
     t + o + L + R for a send started at t (LogGOPSim: o + L, "rendezvous has no handshake
     latency"), so its receive, and the send, which completes when matched, finish R later;
     goal probe measures it (a real rendezvous waits a round trip for the receiver's answer)
     · T 0, H: a table of costs per byte (libgoal's; off unless both are set): up to
     GOAL_SIM_TABLE_MAX (8) sizes T_0 < T_1 < ... and as many costs H_0, H_1, ...; the bytes
     of a message beyond T_i, up to T_(i+1), cost H_i each instead of G, on both NICs and in
     the receive's max(O, G) (there max(O, H_i)). A NIC's gap for s > T_0 bytes is
     g + (T_0-1) G + sum over T_i < s of (min(s, T_(i+1)) - T_i) H_i; with one entry,
     g + (T-1) G + (s-T) H (shared memory's cost per byte rises as a message and its copies
     leave each cache). A rendezvous message (over S bytes) in a world pays the rate of
     all the bytes its two ranks' schedules touch, f (the larger rank's slots and scratch),
     where that is dearer: its bytes cost (s-1)/(f-1) of f bytes' (each 4 MiB half of an
     8 MiB broadcast pays the 8 MiB rate, as the caches do).
     `-T 131072,524288,2097152 -H 0.06,0.1,0.12`; goal_sim_desc holds the first entry in T,
     H and the others in T_more[], H_more[] (0 ends them); goal probe measures them
     · E 0: what libgoal's executor adds per message (libgoal's): a send costs o + E + (s-1) O
     on the CPU and its message arrives at t + o + E + L, a receive costs o + E + (s-1)
     max(O, G) · F 0: a call's fixed cost (libgoal's: schedule lookup, executor start,
     completion): every CPU of every rank starts at F, so an empty schedule takes F. goal
     probe measures o on bare MPI calls and E, F through libgoal's executor, so that the
     model predicts what goal_mpi runs while L o g G O S stay LogGOPSim's; E = F = 0 (the
     default) is LogGOPSim's model, exactly
     · A, D: acknowledged sends (libgoal's; off unless A is set): an eager send of more than
     A bytes sends its bytes at once, as any eager one, but completes (what requires it may
     start) D after its receive took the message, when the sender's CPU learns of it. Open
     MPI's shared memory sends a message past its inline size as a fragment that the sender
     has back only from the receiver: measured at np 2, a send of 512 B to 2 KiB completes
     about 1 us after it starts where one of 256 B takes 0.07 us, so a chain of sends that
     each wait for the last (bcast_chain's segments) is several times slower than sends
     posted together, and one call's sends of that size cost its time. goal probe measures
     them
   TIME RESOLUTION: L, o, g, G, O, C, R, H, E, F, D are doubles in ns (G, O per byte) and may be fractional
   down to 0.001 ns (G 0.08 = 12.5 GB/s); finer values, negative ones, NaN and values over
   2^53 ps are GOAL_ERR_ARG. Inside, time is an unsigned 64-bit count of picoseconds, so the
   simulation stays exact integer arithmetic and deterministic: with integer parameters
   every time is 1000 times LogGOPSim's, and the results in ns (finish, max, event start and
   end) are exactly LogGOPSim's. finish_ps, max_ps, start_ps and end_ps keep the fraction;
   the ns fields round it down. calc x costs x ns; exec C ns per byte (1 by default, as
   before: an exec of x bytes costs x ns).
   Every rank has CPU clocks (one per cpu index used), send and receive NIC gap clocks (one
   per nic index). Events run in (time, sequence number) order (one bucket per time); numbers
   come from one counter in the order LogGOPSim queues things (ranks ascending, then send /
   recv / calc, then readiness order), so ties break exactly as LogGOPSim's do — except that
   libgoal's sort is stable where LogGOPSim's is not (which only changes which rank gets which
   time in large scatters, and lets allreduce_ring finish at p >= 9, where LogGOPSim hangs).
   THE ORDER OF ACTIONS READY AT THE SAME TIME, in full (it decides, e.g., which rank of a
   linear scatter gets which time, and some n-way dissemination runs):
     1. At the start every rank's independent actions are numbered: ranks ascending; within
        a rank its sends, then its receives, then its local actions (calc, exec, nop), each
        kind in action-index order.
     2. After each event, the actions it made ready (on at most two ranks) are numbered:
        ranks ascending; within a rank sends, receives, local; within a kind in the order
        they became ready (a completed action releases its irequires dependents when it
        starts and its requires dependents when it completes, each in the order the
        schedule lists them). A message's arrival is numbered when its send starts.
     3. Events of equal time run by number. An event whose CPU or NIC is busy waits and
        keeps its number, so among waiting events of one rank the lowest number goes first
        when the resource is free (a stable order: LogGOPSim re-sorts unstably there).
   Receives match arrivals in posting order (MPI's non-overtaking rule, wildcards included).
   calc of cost x takes the CPU for x ns; exec takes it for C ns per byte of its buffer, a
   copy K (with the default C = 1, and K = C, that is calc of its buffer size, what the
   LogGOPSim dialect writer writes for it: -C or -K other than 1 is libgoal's own) and nop as
   calc 0. A rank's time is the largest
   of its CPU clocks. 0-byte messages: LogGOPSim computes (s-1)*G in unsigned arithmetic and
   charges -G; libgoal charges 0 unless loggopsim_compat is set. A world that cannot finish
   is GOAL_ERR_DEADLOCK, with the actions that never completed in the result.
   COST MODELS: the event handlers own the clocks, queues and the order above; what each step
   costs they ask a cost model, a small table of functions inside the implementation (send
   CPU, receive CPU, NIC gap, wire time; the eager limit S and a local exec's C and K are the
   same in every model; see "simulate: cost models" there, which says how to add one). Two are
   built in, chosen by the desc:
     LogGOPS     (node_size 0, the default) as above: every pair of ranks alike.
     two-level   node_size N > 0 (`--node-size N`): ranks in nodes of N consecutive ranks
                 (rank r on node r / K). A message between two ranks of one node costs
                 intra_L, intra_o, intra_g, intra_G, intra_O (`--intra-L` .. `--intra-O`;
                 each 0 = the inter-node value), one between nodes L, o, g, G, O, in the
                 formulas above. S, C, K, R, T, H, E and F are one for both, and a rank has one sending and
                 one receiving NIC clock for both kinds of message (one injection point).
                 K = 1 gives LogGOPS exactly; K >= p is LogGOPS with the intra parameters.
   SHARED MEMORY (libgoal's, off by default; `--shared-memory`, goal_sim_desc.shared_memory):
   the ranks of one node (LogGOPS: all ranks; two-level: each node of K) share one memory,
   which copies one message at a time, where LogGOPS gives every rank its own NIC. A message
   between two ranks of one node copies its bytes, B = its NIC gap less g ((s-1) G, or with
   the table (T_0-1) G + its H_i parts; never g, o or L), through the node's memory clock M
   when its receive takes it at t, with the receive NIC's gap: the copy runs from t + w to
   t + w + B, w = max(0, M - t), so the receive's CPU ends at t + w + o + (s-1) max(O, G)
   and its NIC at t + w + g + B, w later than without it, and M becomes t + w + B. One
   message alone costs what it costs without it; two ranks that exchange s bytes at once
   finish one copy, (s-1) G, apart (the second copy waits for the first); messages between
   nodes and messages of 0 or 1 bytes never wait. goal_sim_costs prices without the wait
   (a lower bound still). Without it, every result is LogGOPS's.
   Params files: goal_sim_params reads one line of model options, as `goal sim` takes them
   and goal probe writes them ("-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536");
   goal_sim_param sets one option; goal_sim_param_arity says whether a word is one;
   goal_sim_param_info(i) is row i of the one table of model options (name, value kind,
   unit, default, help, field of goal_sim_desc), which the command line lists in its help
   and parses with; goal_sim_defaults fills in the defaults (the
   ones `goal sim --verbose` prints). `goal sim --params`, `goal tune` and the MPI drop-in's
   GOAL_MPI_PARAMS all parse with these.

   COSTS: goal_sim_costs_create(&c, &desc, &err) gives the prices a simulation under desc
   charges, step by step (goal_sim_cost: a send's CPU time, a receive's, a NIC gap, a
   message's flight, a local exec or calc), without a world: goal_tune.h bounds a schedule's
   time with them before simulating it. The tuning search (goal_tune_best and the others of
   that name) is in goal_tune.h, which builds on this header and goal_algos.h.

   DRAW
   ----
   goal_sim_write_dot: one rank's DAG top to bottom (rank >= 0), or all ranks (rank = -1)
   with matched messages as red edges: positions pinned (layout=neato, which `dot -Tsvg`
   honours), a band per rank in rank order, a column per step of the longest chain of
   dependencies and messages, so every edge points right; a legend. Colours by kind;
   requires solid, irequires dashed. goal_sim_dot_desc.fold leaves out nops and local
   copies (exec copy), joining their edges (dashed when a joined edge was).
   goal_sim_write_trace: Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev): one
   process per rank, one thread per cpu, complete events for CPU work, flow arrows for
   messages. goal_sim_write_svg: a timeline, one lane per rank (named every k-th rank,
   k = 1, 2, 5, 10, ..., at any p), boxes coloured by kind and labelled when they fit,
   messages coloured by segment with their round halfway, the critical path outlined, a
   time axis of at most 21 ticks; hover for details. All take the simulation desc.
   goal_sim_timeline_run: the events of one simulation (what event_fn would see), plus
     round     a rank's level is the highest round it has sent or received so far; a send
               (and its message and receive) is one round above its rank's level: a
               binomial tree's k-th step is round k, a dissemination's k-th exchange too;
     segment   the k-th send from one rank to the same peer is segment k: a pipeline's
               pieces keep their number from hop to hop;
     critical  the critical path, walked back from the event that ends last on the rank
               that finishes last: a CPU event waited for whatever ended last, no later
               than its start, of: the previous event on its CPU (preferred on ties), its
               requires-sources' events, and for a receive its message; a message for its
               send. Irequires are not followed (they wait for a start, not an end).
   goal html (tools/cli_html.c, page in tools/html_page.html) draws the same timeline.
   GOAL_SIM_NO_PICTURES, defined where the implementation is built, leaves the code of this
   section out (goal_sim_write_dot, _trace, _svg, goal_sim_action_text and the timeline are
   then not defined): for a program that only simulates, such as libgoalmpi.so.

   MEMORY
   ------
   Every call takes a goal_allocator in its desc (zeroed = GOAL_MALLOC / GOAL_FREE); results
   are freed with goal_sim_check_free / goal_sim_run_free. No global state: any number of
   checks and simulations may run at once on the same (unchanged) world.
   The simulator keeps about 48 bytes per rank, 4 per action, 12 to 24 per queued event, 24
   per waiting receive or unexpected message (plus 16 to 32 per distinct (rank, peer) pair
   waiting: the matching index) and 32 per message in flight; the check about 20 per rank,
   12 per action and 24 per waiting send or receive (plus the index, and 16 per kept pair).
   Both are linear in actions + messages (bench/bench_scale.c): matching looks only at the
   entries from the message's peer and the wildcards; a receive from any source walks its
   rank's queue, and entries of one peer that differ only in tag are walked in order.
   goal_sim_timeline_run keeps about 64 bytes per event (48 for the event, its round,
   segment and a critical-path entry) and needs 24 per action and 8 per event more while
   it works.

   ERRORS
   ------
   goal_status from goal.h: GOAL_ERR_MATCH (check found problems; the result holds them),
   GOAL_ERR_DEADLOCK (simulation stuck), GOAL_ERR_NOMEM, GOAL_ERR_ARG (a bad model
   parameter), GOAL_ERR_LIMIT (2^31 actions or more in one world, or simulated time past
   2^64-1 ps: then goal_sim_run_result.overflow names the action, for a message its send),
   GOAL_ERR_IO (a write_fn failed).

   LIMITS
   ------
   fewer than 2^31 actions in the whole world; simulated time is an unsigned 64-bit count of
   ps, so at most 2^64-1 ps (about 1.8e16 ns, 213 days): every sum and product on the way is
   checked, and a time past it stops the run with GOAL_ERR_LIMIT (LogGOPSim wraps silently).
   The one wrap kept is LogGOPSim's 0-byte (s-1) with loggopsim_compat. Each model
   parameter is at most 2^53 ps (9007199254740.992 ns).

   LICENSE: MIT, as goal.h.
*/
#include "goal.h"          /* before the guard, as the ones below: an inclusion after the macro builds theirs too */
#ifndef GOAL_SIM_H_INCLUDED
#define GOAL_SIM_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

#define GOAL_SIM_ZERO (-1) /* a model parameter that is really 0 (0 means the default) */
#define GOAL_SIM_TABLE_MAX 8 /* entries of the table of costs per byte: T, H and T_more, H_more */

typedef struct goal_sim_ref {  /* one action of the world */
    int32_t rank;
    int32_t action;            /* index in the rank's schedule; -1 = none */
} goal_sim_ref;

/* ---- check ----------------------------------------------------------------------------- */
typedef enum goal_sim_finding_kind {
    GOAL_SIM_UNMATCHED_SEND, GOAL_SIM_UNMATCHED_RECV, GOAL_SIM_BLOCKED, GOAL_SIM_CYCLE,
    GOAL_SIM_SIZE_ERROR, GOAL_SIM_SIZE_WARNING
} goal_sim_finding_kind;

typedef struct goal_sim_finding {
    goal_sim_finding_kind kind;
    goal_sim_ref at;           /* the action the finding is about */
    goal_sim_ref other;        /* BLOCKED/CYCLE: what it waits for; SIZE: the matched send */
} goal_sim_finding;

typedef struct goal_sim_pair { goal_sim_ref send, recv; } goal_sim_pair;

typedef struct goal_sim_check_desc {
    uint64_t eager_limit;      /* sends of at most this many bytes complete when posted;
                                  default 0 = none: a send completes when matched */
    int no_pairs;              /* 1: do not keep the matched pairs (saves 16 bytes a match) */
    goal_allocator alloc;
} goal_sim_check_desc;

typedef struct goal_sim_check_result {
    goal_sim_pair *pairs; size_t npairs;          /* in the order they were matched */
    goal_sim_finding *findings; size_t nfindings; /* size findings in match order, then the
                                                     rest by rank and action */
    size_t errors, warnings;
    goal_allocator alloc_;
} goal_sim_check_result;

/* Matches the world. GOAL_OK: clean; GOAL_ERR_MATCH: findings (in out); else an error. */
GOAL_API goal_status goal_sim_check(const goal_world *w, const goal_sim_check_desc *desc, goal_sim_check_result *out);
GOAL_API void goal_sim_check_free(goal_sim_check_result *r);
/* "rank R LABEL: what" for finding f, into buf (len bytes); returns buf. */
GOAL_API const char *goal_sim_finding_text(const goal_world *w, const goal_sim_finding *f, char *buf, size_t len);

/* ---- simulate -------------------------------------------------------------------------- */
typedef enum goal_sim_event_kind {
    GOAL_SIM_EV_CALC,          /* calc, exec or nop on rank's cpu: [start, end) */
    GOAL_SIM_EV_SEND,          /* send overhead on rank's cpu; peer = destination */
    GOAL_SIM_EV_RECV,          /* receive overhead on rank's cpu when a message arrives; peer =
                                  source; action = the receive it matched, -1 = none yet */
    GOAL_SIM_EV_MSG            /* a message from rank (action = the send) to peer: start = sent,
                                  end = taken by the receiver; peer_action = its receive or -1 */
} goal_sim_event_kind;

typedef struct goal_sim_event {
    goal_sim_event_kind kind;
    int32_t rank, action, peer, peer_action;
    int cpu;
    uint64_t start, end, size;  /* start, end in whole ns (rounded down); size in bytes */
    uint64_t start_ps, end_ps;  /* the same times exactly, in ps (1/1000 ns) */
} goal_sim_event;

typedef struct goal_sim_desc {
    double L, o, g, G, O;      /* ns (G, O: ns per byte), fractions down to 0.001 ns; 0 =
                                  LogGOPSim's default (see SIMULATE); GOAL_SIM_ZERO = a real 0 */
    int64_t S;                 /* bytes; 0 = default, GOAL_SIM_ZERO = 0 */
    double C;                  /* ns per byte of a local exec (a reduction; a copy too unless
                                  K), fractions down to 0.001 ns; 0 = 1 (exec of x bytes costs
                                  x ns, as LogGOPSim's calc x); GOAL_SIM_ZERO = free. calc is
                                  not scaled */
    double R;                  /* ns a rendezvous message (over S bytes) arrives later than an
                                  eager one: its handshake; fractions down to 0.001 ns; 0 (the
                                  default) and GOAL_SIM_ZERO = none, as in LogGOPSim */
    int64_t T;                 /* bytes: with H, a message's bytes beyond its first T cost H
                                  per byte instead of G; 0 (the default) = one G, LogGOPSim's */
    double H;                  /* ns per byte beyond T, fractions down to 0.001 ns; 0 = off
                                  (one G), GOAL_SIM_ZERO = free */
    int64_t T_more[GOAL_SIM_TABLE_MAX - 1];   /* the table's further sizes, strictly increasing
                                  after T; its length ends at the first 0 (all 0: T, H alone) */
    double H_more[GOAL_SIM_TABLE_MAX - 1];    /* ns per byte beyond T_more[i] (up to the next
                                  size); one per size, as many as T_more; GOAL_SIM_ZERO = free */
    double E;                  /* ns the executor adds per message on the CPU (libgoal's, not
                                  LogGOPSim's): a send or receive costs o + E, its message
                                  leaves E later; 0 (the default) and GOAL_SIM_ZERO = none */
    double F;                  /* ns a call costs before its first action (libgoal's): every
                                  CPU of every rank starts at F; 0 and GOAL_SIM_ZERO = none */
    int64_t A;                 /* bytes: an eager send of more than A bytes completes D ns
                                  after its receive took the message, not when it starts (an
                                  acknowledged send: its bytes still leave at once); 0 (the
                                  default) = none, GOAL_SIM_ZERO = every eager send */
    double D;                  /* ns from the take to an acknowledged send's completion (with
                                  A), fractions down to 0.001 ns; 0 and GOAL_SIM_ZERO = at once */
    double K;                  /* ns per byte of a local copy (an exec whose op is
                                  GOAL_OP_COPY; libgoal's), fractions down to 0.001 ns; 0 (the
                                  default) = C, GOAL_SIM_ZERO = free */
    int32_t node_size;         /* > 0: the two-level model, nodes of node_size consecutive ranks
                                  (rank r on node r / node_size); 0 = LogGOPS, one level */
    double intra_L, intra_o, intra_g, intra_G, intra_O;   /* two-level: L, o, g, G, O between
                                  ranks of one node; 0 = the inter-node value (L, o, g, G, O,
                                  then the inter-node ones); GOAL_SIM_ZERO = a real 0 */
    int loggopsim_compat;      /* 1: charge 0-byte messages -G (LogGOPSim's wrap-around) */
    int shared_memory;         /* 1: the ranks of a node (LogGOPS: all ranks) share one memory,
                                  which copies one message's bytes at a time (SHARED MEMORY) */
    double stop_ns;            /* > 0: goal_sim_run returns GOAL_PENDING exactly when the
                                  world takes longer than stop_ns ns, stopping as soon as a
                                  rank's clock passes it or (every action on CPU 0, not
                                  loggopsim_compat) its clock plus the CPU time it still has
                                  to spend: its sends, the arrivals of messages sent to it,
                                  calcs and execs; before the first event when that work
                                  alone is longer (tune: a loser). 0 = no limit */
    void (*event_fn)(void *user, const goal_sim_event *e); /* optional: every event, in order */
    void *user;
    goal_allocator alloc;
} goal_sim_desc;

typedef struct goal_sim_run_result {
    int32_t nranks;
    uint64_t *finish;          /* nranks: each rank's time, in whole ns (rounded down) */
    uint64_t max;              /* the largest finish time, in whole ns */
    uint64_t *finish_ps;       /* nranks: each rank's time exactly, in ps */
    uint64_t max_ps;
    int32_t max_rank;          /* the first rank that has it */
    uint64_t events;           /* operations + messages (LogGOPSim's "Events") */
    goal_sim_ref *stuck;       /* after GOAL_ERR_DEADLOCK: actions that never completed */
    uint8_t *stuck_started;    /* per stuck action: 1 if it started (posted, waiting to match) */
    size_t nstuck;
    goal_sim_ref overflow;     /* after GOAL_ERR_LIMIT from a time past 2^64-1 ps: the action
                                  (for a message, its send) whose time overflowed; else -1 */
    char msg[GOAL_MSG_MAX];    /* after GOAL_ERR_ARG from a bad model parameter: which, and why
                                  ("goal_sim_desc.G = -1.5: ..."); else empty */
    goal_allocator alloc_;
} goal_sim_run_result;

/* Simulates w. GOAL_OK with every rank's time; GOAL_PENDING, and no times, when a rank's
   time passed desc->stop_ns (so the world's time is larger); GOAL_ERR_DEADLOCK with out->stuck;
   GOAL_ERR_LIMIT with out->overflow when simulated time overflows; GOAL_ERR_ARG for a bad
   model parameter (negative, not a number, over 2^53 ps, finer than 1 ps), named in
   out->msg; else an error. */
GOAL_API goal_status goal_sim_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_run_result *out);
GOAL_API void goal_sim_run_free(goal_sim_run_result *r);
/* The old names, kept for one release (CHANGELOG.md). */
typedef goal_sim_run_result goal_sim_result;
#define goal_sim_result_free goal_sim_run_free
#define goal_sim_write_dot_with goal_sim_write_dot

/* ---- model options (a params file) ---------------------------------------------------- */
typedef enum goal_sim_param_kind {
    GOAL_SIM_PARAM_NS,         /* a double in ns (or ns per byte), up to 3 decimals */
    GOAL_SIM_PARAM_BYTES,      /* an int64_t count of bytes */
    GOAL_SIM_PARAM_RANKS,      /* an int32_t count of ranks */
    GOAL_SIM_PARAM_FLAG        /* an int set to 1; takes no value */
} goal_sim_param_kind;
/* One model option: the one table every verb, params files, the drop-in and the command
   line's help read (goal_sim_param_info). */
typedef struct goal_sim_param_row {
    const char *name;          /* as goal sim and params files take it: "-L", "--intra-L" */
    goal_sim_param_kind kind;
    int arity;                 /* 1: takes a value; 0: a flag */
    const char *unit;          /* "ns", "ns/B", "B", "K" (ranks); NULL for a flag */
    const char *dflt;          /* the default as text ("2500", "-L"); NULL: none */
    const char *help;          /* one line, for help texts */
    size_t offset;             /* the field of goal_sim_desc it sets */
    size_t more;               /* a list option (-T, -H: comma-separated, up to GOAL_SIM_TABLE_MAX
                                  values): the field of goal_sim_desc that takes the values after
                                  the first (an array of the first's type); 0: one value */
} goal_sim_param_row;
/* Row i of the model options (LogGOPSim's letters first, then libgoal's, then the
   two-level ones), NULL past the end. */
GOAL_API const goal_sim_param_row *goal_sim_param_info(size_t i);
/* 1 when name is a model option that takes a value (goal_sim_param_info), 0 for a flag
   ("--loggopsim-compat"), -1 when it is no model option. */
GOAL_API int goal_sim_param_arity(const char *name);
/* Sets one model option as `goal sim` takes it (see goal_sim_param_arity; a flag's value is
   unused). GOAL_OK, or GOAL_ERR_ARG with why not in err->msg (e.g. "takes a number (ns, up
   to 3 decimals)"). */
GOAL_API goal_status goal_sim_param(goal_sim_desc *d, const char *name, const char *value, goal_error *err);
#define GOAL_SIM_PARAMS_MAX 4096   /* bytes: a params file is shorter; a reader need not read more */
/* A params file's text (len bytes, fewer than GOAL_SIM_PARAMS_MAX): one line of model options, what goal probe prints
   ("-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536"); later options override earlier ones.
   GOAL_ERR_SYNTAX with err->msg ("-G 0.09x: takes a number ...", "'--frob' is not a model
   option ...", "no model options in the file", ...). err may be NULL. */
GOAL_API goal_status goal_sim_params(goal_sim_desc *d, const char *text, size_t len, goal_error *err);
/* The parameters a simulation under desc (NULL: zeroed) uses, the simulator's own defaults
   filled in: every model field of *out explicit (a real 0 as GOAL_SIM_ZERO, the intra-node
   ones too), the rest as in desc; simulating with *out is simulating with desc. GOAL_OK, or
   GOAL_ERR_ARG for a bad parameter or no out. */
GOAL_API goal_status goal_sim_defaults(const goal_sim_desc *desc, goal_sim_desc *out);


/* ---- draw ------------------------------------------------------------------------------ */
/* The simulated timeline as Chrome trace-event JSON; desc->event_fn is not used. */
GOAL_API goal_status goal_sim_write_trace(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user);
/* The simulated timeline as an SVG picture; desc->event_fn is not used. */
GOAL_API goal_status goal_sim_write_svg(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user);
typedef struct goal_sim_dot_desc {   /* zeroed (or NULL): every action, GOAL_MALLOC / GOAL_FREE */
    int fold;                  /* 1: leave out nops and local copies (exec copy), their edges
                                  joined (dashed when either joined edge was); default 0 */
    goal_allocator alloc;
} goal_sim_dot_desc;
/* DOT of one rank (rank >= 0) or of the whole world (rank = -1, messages from a check). */
GOAL_API goal_status goal_sim_write_dot(const goal_world *w, int rank, const goal_sim_dot_desc *desc,
                                        goal_write_fn fn, void *user);

/* "l3: send 8 B to 2 tag 5": how pictures name action `action` of rank `rank`; returns buf. */
GOAL_API const char *goal_sim_action_text(const goal_world *w, int32_t rank, int32_t action, char *buf, size_t len);

/* ---- timeline: every simulated event, the critical path and the message rounds --------- */
typedef struct goal_sim_timeline {
    goal_sim_run_result result;  /* what goal_sim_run gives */
    goal_sim_event *events; size_t nevents;   /* every event, in the order simulated */
    uint32_t *round;           /* nevents: a message's round (1, 2, ...) on its SEND, MSG and
                                  RECV events; 0 on calc events (see DRAW) */
    uint32_t *segment;         /* nevents: on SEND and MSG events, how many sends to the same
                                  peer come before this one in the sender's schedule (0, 1,
                                  ...): the segment of a pipelined message; 0 elsewhere */
    size_t *critical; size_t ncritical;       /* the critical path: event indices, earliest first */
    goal_allocator alloc_;
} goal_sim_timeline;
/* Simulates w (desc->event_fn is not used) and keeps the events. GOAL_OK, else an error
   (GOAL_ERR_DEADLOCK: out->result lists the stuck actions, the rest is empty). */
GOAL_API goal_status goal_sim_timeline_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_timeline *out);
GOAL_API void goal_sim_timeline_free(goal_sim_timeline *t);

/* ---- costs: what the simulator charges, for bounds without a simulation (COSTS; shared
   memory's waits are not in them: they depend on what else copies at the time) ---------- */
typedef struct goal_sim_costs goal_sim_costs;   /* a model's prices (opaque) */
typedef enum goal_sim_cost_kind {
    GOAL_SIM_COST_SEND_CPU,    /* src's CPU: a send of `bytes` to dst started at t ends */
    GOAL_SIM_COST_RECV_CPU,    /* dst's CPU: taking a message from src that arrived at t ends */
    GOAL_SIM_COST_NIC_GAP,     /* a NIC: the gap of a message from src to dst started at t ends */
    GOAL_SIM_COST_WIRE,        /* a message whose send started at t arrives at dst */
    GOAL_SIM_COST_EXEC,        /* a local exec other than a copy (see COPY) of `bytes` started
                                  at t ends (src, dst unused) */
    GOAL_SIM_COST_CALC,        /* a calc of `bytes` ns started at t ends (src, dst unused) */
    GOAL_SIM_COST_COPY         /* a local copy (exec copy) of `bytes` started at t ends (src,
                                  dst unused) */
} goal_sim_cost_kind;
/* The prices of a simulation under desc (its model options; the world is not needed).
   GOAL_ERR_ARG with why in err for a bad parameter; GOAL_ERR_NOMEM. */
GOAL_API goal_status goal_sim_costs_create(goal_sim_costs **out, const goal_sim_desc *desc, goal_error *err);
GOAL_API void goal_sim_costs_destroy(goal_sim_costs *c);
/* When a step of kind k started at t ps ends, in ps, as the simulator computes it. */
GOAL_API uint64_t goal_sim_cost(goal_sim_costs *c, goal_sim_cost_kind k, int32_t src, int32_t dst, uint64_t t, uint64_t bytes);
/* 1 when a time computed since the last call passed 2^64-1 ps (then meaningless); clears it. */
GOAL_API int goal_sim_costs_overflow(goal_sim_costs *c);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_SIM_H_INCLUDED */

/* ---- the world as one numbered set of actions: shared by the implementations of goal_sim.h
   and goal_analyze.h (static inline: a file may build only one of them) ---------------------- */
#if (defined(GOAL_SIM_IMPLEMENTATION) || defined(GOAL_ANALYZE_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && \
    !defined(GOAL__SIM_SHARED_DONE)
#define GOAL__SIM_SHARED_DONE
#include <string.h>

/* ---- >>> the world as one numbered set of actions --------------------------------------- */
typedef struct goal__simw {
    const goal_world *w;
    goal_allocator a;
    int32_t p;
    uint32_t n;                 /* actions in the world */
    uint32_t *base;             /* p + 1: global id of rank r's action i is base[r] + i */
    const uint32_t **recs;      /* p: where each rank's action records start */
} goal__simw;

/* The full view of rank r; a rank never set is an empty schedule. */
static inline void goal__simw_full(const goal__simw *x, int32_t r, goal_schedule *s) {
    if (goal_world_schedule(x->w, r, s) != GOAL_OK) memset(s, 0, sizeof *s);
}
/* A partial view of rank r (goal.h's goal__records_view) for the hot paths, where parsing a
   header per event would cost more than the event. */
static inline void goal__simw_view(const goal__simw *x, int32_t r, goal_schedule *s) {
    goal__records_view(s, r, x->base[r + 1] - x->base[r], x->recs[r]);
}
static inline goal_status goal__simw_init(goal__simw *x, const goal_world *w, const goal_allocator *a) {
    int32_t r;
    uint64_t n = 0;
    memset(x, 0, sizeof *x);
    if (!w) return GOAL_ERR_ARG;
    x->w = w; x->a = goal__allocator(a); x->p = (int32_t)goal_world_nranks(w);
    x->base = (uint32_t *)goal__new(&x->a, (size_t)x->p + 1u, sizeof(uint32_t));
    x->recs = (const uint32_t **)goal__new(&x->a, (size_t)x->p + 1u, sizeof(const uint32_t *));
    if (!x->base || !x->recs) return GOAL_ERR_NOMEM;
    for (r = 0; r < x->p; r++) {
        goal_schedule s;
        goal__simw_full(x, r, &s);
        x->base[r] = (uint32_t)n;
        x->recs[r] = s.recs;
        n += s.nactions;
        if (n >= 0x7FFFFFFFu) return GOAL_ERR_LIMIT;
    }
    x->base[x->p] = (uint32_t)n;
    x->n = (uint32_t)n;
    return GOAL_OK;
}
static inline void goal__simw_free(goal__simw *x) {
    goal__free(&x->a, x->base); goal__free(&x->a, (void *)x->recs);
    x->base = NULL; x->recs = NULL;
}
/* The rank owning global id g (binary search; only used off the hot paths). */
static inline int32_t goal__simw_rank(const goal__simw *x, uint32_t g) {
    int32_t lo = 0, hi = x->p - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (x->base[mid] <= g) lo = mid; else hi = mid - 1;
    }
    return lo;
}
static inline goal_sim_ref goal__sim_ref(int32_t rank, int32_t action) {
    goal_sim_ref f;
    f.rank = rank; f.action = action;
    return f;
}
#endif /* GOAL__SIM_SHARED_DONE */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_SIM_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__SIM_IMPL_DONE)
#define GOAL__SIM_IMPL_DONE

#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>   /* qsort */
/* A hint that memory will be read soon: the simulator and the check know which ranks their
   next events touch, and a million ranks do not fit in any cache. */
#if defined(__GNUC__) || defined(__clang__)
#define GOAL__SIM_PREFETCH(ptr) __builtin_prefetch(ptr)
#else
#define GOAL__SIM_PREFETCH(ptr) ((void)(ptr))
#endif
#define GOAL__SIM_AHEAD 10u           /* how many events ahead a prefetch step looks */

/* ---- >>> matching queues ----------------------------------------------------------------- */
/* A rank's queues (posted receives, messages waiting for one) are goal.h's goal__fifo. An
   entry keeps what it refers to (ref) and its peer; its tag comes from the caller's key
   function, out of the action record or message that the caller reads anyway. */
/* The peer and tag of entry ref of a queue of rank owner. */
typedef void (*goal__simq_key_fn)(void *ctx, int32_t owner, uint32_t ref, int32_t *peer, int32_t *tag);
typedef struct goal__simq_want { goal__simq_key_fn key; void *ctx; int32_t owner, tag; } goal__simq_want;

static int goal__sim_accepts(int32_t x, int32_t y) { return x == y || x == GOAL_ANY || y == GOAL_ANY; }
/* goal__fifo_fn: whether the entry's tag accepts the wanted one (either may be GOAL_ANY). */
static int goal__simq_accepts(void *want, uint32_t ref) {
    const goal__simq_want *w = (const goal__simq_want *)want;
    int32_t peer, tag;
    w->key(w->ctx, w->owner, ref, &peer, &tag);
    return goal__sim_accepts(tag, w->tag);
}
/* Removes the first entry of owner's queue *head that accepts (peer, tag) and returns its
   ref (GOAL__NONE when none). */
GOAL__HOT uint32_t goal__simq_take(goal__fifo *q, const goal_allocator *a, uint32_t *head, int32_t peer, int32_t tag,
                                   goal__simq_key_fn key, void *ctx, int32_t owner) {
    goal__simq_want w;
    w.key = key; w.ctx = ctx; w.owner = owner; w.tag = tag;
    return goal__fifo_take(q, a, head, peer, goal__simq_accepts, &w);
}

/* The dependents among the n words d of an action of rank r that are released on start
   (start = 1) or on completion (start = 0), handed to fn: the one release rule of the check
   and the simulator (hot: fn, a constant, is inlined there). irequires come first in a
   schedule, requires after. */
typedef void (*goal__sim_dep_fn)(void *ctx, int32_t rank, uint32_t action);
GOAL__HOT void goal__sim_release_words(const uint32_t *d, uint32_t n, int32_t r, int start, goal__sim_dep_fn fn, void *ctx) {
    uint32_t k, dep;
    for (k = 0; k < n; k++) {
        dep = GOAL__LE32(d[k]);
        if (((dep & GOAL__DEP_START) != 0) == (start != 0)) fn(ctx, r, dep & ~GOAL__DEP_START);
    }
}
/* Dependents of action i of s released on start or on completion, from its record. */
static void goal__sim_release(const goal_schedule *s, uint32_t i, int start, goal__sim_dep_fn fn, void *ctx) {
    const uint32_t *d;
    uint32_t nd;
    goal__record(s, i, &d, &nd, NULL);
    goal__sim_release_words(d, nd, s->rank, start, fn, ctx);
}

/* ---- >>> check: the matching fix-point ------------------------------------------------------ */
/* An action's state is in its need word, so that a start or completion touches the memory
   its dependents' counts share: the count of sources still missing (not started yet), then
   one of these. */
#define GOAL__CHK_STARTED 0xFFFFFFFEu    /* started, waiting for its match */
#define GOAL__CHK_FINISHED 0xFFFFFFFFu
/* The same states as bytes, for explaining what never finished. */
#define GOAL__CHK_WAIT 0u
#define GOAL__CHK_POSTED 1u
#define GOAL__CHK_DONE 2u

typedef struct goal__chk {
    goal__simw x;
    uint64_t eager;
    int keep_pairs;
    uint32_t *need;            /* n: sources not yet satisfied, or GOAL__CHK_STARTED/FINISHED */
    uint8_t *st;               /* n, only to explain: GOAL__CHK_WAIT/POSTED/DONE */
    goal_sim_ref *fifo;        /* n: the matching queue MQ; every action enters it once */
    size_t head, tail;
    uint32_t *posted, *unexp;  /* p: queue tails; posted recvs of r, unmatched sends to r */
    goal__fifo q;
    goal_sim_check_result *res;
    size_t capp, capf;
    uint32_t seen;             /* the MQ position goal__chk_key read last, and its size */
    uint64_t seen_size;
} goal__chk;

static void goal__chk_dep(void *ctx, int32_t rank, uint32_t a) {
    goal__chk *c = (goal__chk *)ctx;
    uint32_t g = c->x.base[rank] + a;
    if (--c->need[g] == 0) c->fifo[c->tail++] = goal__sim_ref(rank, (int32_t)a);
}
static void goal__chk_start(goal__chk *c, const goal_schedule *s, uint32_t i) {
    c->need[c->x.base[s->rank] + i] = GOAL__CHK_STARTED;
    goal__sim_release(s, i, 1, goal__chk_dep, c);
}
static void goal__chk_complete(goal__chk *c, int32_t r, uint32_t i) {
    goal_schedule s;
    uint32_t *st = &c->need[c->x.base[r] + i];
    if (*st == GOAL__CHK_FINISHED) return;
    *st = GOAL__CHK_FINISHED;
    goal__simw_view(&c->x, r, &s);
    goal__sim_release(&s, i, 0, goal__chk_dep, c);
}
static goal_status goal__chk_finding(goal__chk *c, goal_sim_finding_kind k, goal_sim_ref at, goal_sim_ref other) {
    goal_sim_check_result *res = c->res;
    if (GOAL__RESERVE(&c->x.a, res->findings, c->capf, res->nfindings + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    res->findings[res->nfindings].kind = k;
    res->findings[res->nfindings].at = at;
    res->findings[res->nfindings++].other = other;
    if (k == GOAL_SIM_SIZE_WARNING) res->warnings++; else res->errors++;
    return GOAL_OK;
}
/* Records a match of sizes ss and rs: the pair, a size finding if any, both completions. */
static goal_status goal__chk_match(goal__chk *c, goal_sim_ref send, goal_sim_ref recv, uint64_t ss, uint64_t rs) {
    goal_sim_check_result *res = c->res;
    goal_status st = GOAL_OK;
    if (c->keep_pairs) {
        if (GOAL__RESERVE(&c->x.a, res->pairs, c->capp, res->npairs + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
        res->pairs[res->npairs].send = send;
        res->pairs[res->npairs++].recv = recv;
    }
    if (ss != rs) st = goal__chk_finding(c, ss > rs ? GOAL_SIM_SIZE_ERROR : GOAL_SIM_SIZE_WARNING, recv, send);
    goal__chk_complete(c, send.rank, (uint32_t)send.action);
    goal__chk_complete(c, recv.rank, (uint32_t)recv.action);
    return st;
}
/* The kind of the send or recv at MQ position pos, with its peer, tag and bytes (read from
   its record: a queue entry is only ever one of those two). */
static goal_kind goal__chk_msg(const goal__chk *c, uint32_t pos, int32_t *peer, int32_t *tag, uint64_t *size) {
    goal_schedule s;
    const uint32_t *w;
    uint32_t nd, loc, head;
    uint64_t off;
    goal__simw_view(&c->x, c->fifo[pos].rank, &s);
    head = goal__record(&s, (uint32_t)c->fifo[pos].action, &w, &nd, NULL);
    goal__msg_params(head, w + nd, peer, size, &off, tag, &loc);
    return (goal_kind)GOAL__KIND(head);
}
/* Queue entries of the check are MQ positions: every action has one, and it names both
   the action and its rank. A send's peer is its own rank; a receive's is its source. */
static void goal__chk_key(void *ctx, int32_t owner, uint32_t ref, int32_t *peer, int32_t *tag) {
    goal__chk *c = (goal__chk *)ctx;
    (void)owner;
    if (goal__chk_msg(c, ref, peer, tag, &c->seen_size) == GOAL_SEND) *peer = c->fifo[ref].rank;
    c->seen = ref;
}
/* The bytes of the send or recv at MQ position pos, a matched entry, read after its take:
   mostly the entry goal__chk_key read last (then not read again). */
static uint64_t goal__chk_size(const goal__chk *c, uint32_t pos) {
    int32_t peer, tag;
    uint64_t size;
    if (pos == c->seen) return c->seen_size;
    goal__chk_msg(c, pos, &peer, &tag, &size);
    return size;
}
/* The action at MQ position pos: start it, then match it or let it wait. */
static goal_status goal__chk_step(goal__chk *c, uint32_t pos) {
    goal_schedule s;
    goal_action a;
    goal_sim_ref f = c->fifo[pos];
    uint32_t i = (uint32_t)f.action, e;
    goal__simw_view(&c->x, f.rank, &s);
    goal_schedule_action(&s, i, &a);
    goal__chk_start(c, &s, i);
    if (a.kind == GOAL_SEND) {
        if (c->eager && a.buf.size <= c->eager) goal__chk_complete(c, f.rank, i);
        if ((e = goal__simq_take(&c->q, &c->x.a, &c->posted[a.peer], f.rank, a.tag, goal__chk_key, c, a.peer)) != GOAL__NONE)
            return goal__chk_match(c, f, c->fifo[e], a.buf.size, goal__chk_size(c, e));
        return goal__fifo_push(&c->q, &c->x.a, &c->unexp[a.peer], f.rank, pos, NULL);
    }
    if (a.kind == GOAL_RECV) {
        if ((e = goal__simq_take(&c->q, &c->x.a, &c->unexp[f.rank], a.peer, a.tag, goal__chk_key, c, f.rank)) != GOAL__NONE)
            return goal__chk_match(c, c->fifo[e], f, goal__chk_size(c, e), a.buf.size);
        return goal__fifo_push(&c->q, &c->x.a, &c->posted[f.rank], a.peer, pos, NULL);
    }
    goal__chk_complete(c, f.rank, i);
    return GOAL_OK;
}

/* MQ is known ahead: asks for the rank entries of the actions a little further on, and for
   the records and states of the nearer ones, whose rank entries are in by then. */
static void goal__chk_ahead(const goal__chk *c) {
    size_t k = c->head + GOAL__SIM_AHEAD;
    if (k + GOAL__SIM_AHEAD < c->tail) {
        int32_t r = c->fifo[k + GOAL__SIM_AHEAD].rank;
        GOAL__SIM_PREFETCH(&c->x.base[r]);
        GOAL__SIM_PREFETCH(&c->x.recs[r]);
    }
    if (k < c->tail) {
        goal_sim_ref f = c->fifo[k];
        GOAL__SIM_PREFETCH(c->x.recs[f.rank] + 2u * (uint32_t)f.action);
        GOAL__SIM_PREFETCH(&c->need[c->x.base[f.rank] + (uint32_t)f.action]);
    }
}

/* Sets up need counts and MQ with the independent actions, ranks in order. Those are the
   actions without sources, in index order (what the schedule's indep list holds: the loader
   checks it), so no full view of a rank is needed. */
static goal_status goal__chk_init(goal__chk *c) {
    const goal_allocator *a = &c->x.a;
    int32_t r;
    size_t p = (size_t)c->x.p;
    c->need = (uint32_t *)goal__new(a, c->x.n, sizeof(uint32_t));
    c->fifo = (goal_sim_ref *)goal__new(a, c->x.n, sizeof(goal_sim_ref));
    c->posted = (uint32_t *)goal__new(a, 2 * p, sizeof(uint32_t));
    if (!c->need || !c->fifo || !c->posted) return GOAL_ERR_NOMEM;
    c->unexp = c->posted + p;
    memset(c->posted, 0xFF, 2 * p * sizeof(uint32_t));
    c->q.freel = c->seen = GOAL__NONE;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_view(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++)
            if ((c->need[c->x.base[r] + i] = goal_schedule_nsrc(&s, i)) == 0) c->fifo[c->tail++] = goal__sim_ref(r, (int32_t)i);
    }
    return GOAL_OK;
}

/* ---- >>> check: why the rest never completes ----------------------------------------------- */
/* After the fix-point, every action that is not done waits for something: an action that
   never started waits for a predecessor (the first one not finished); a posted send or
   receive waits for a counterpart that never started (if one would accept it). These waits
   form a graph of out-degree <= 1 over global ids (next[]), whose cycles are the deadlock
   cycles; an action with no wait at all is simply unmatched. */
static void goal__chk_blockers(goal__chk *c, uint32_t *next) {
    int32_t r;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i, k, b = c->x.base[r];
        goal__simw_view(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            const uint32_t *d;
            uint32_t nd = goal_schedule_deps(&s, i, &d);
            for (k = 0; k < nd; k++) {
                uint32_t t = b + (d[k] & ~GOAL__DEP_START);
                int unfinished = (d[k] & GOAL__DEP_START) ? c->st[b + i] == GOAL__CHK_WAIT : c->st[b + i] != GOAL__CHK_DONE;
                if (c->st[t] == GOAL__CHK_WAIT && next[t] == GOAL__NONE && unfinished) next[t] = b + i;
            }
        }
    }
}
/* Gives the first entry of queue head that accepts (peer, tag) and has no counterpart yet
   the never-started action g as its counterpart. */
static void goal__chk_counterpart(goal__chk *c, uint32_t *next, uint32_t head, int32_t peer, int32_t tag, uint32_t g) {
    uint32_t k = head;
    if (head == GOAL__NONE) return;
    do {
        goal_sim_ref f;
        uint32_t id;
        int32_t ep, et;
        f = c->fifo[c->q.e[k].ref];
        id = c->x.base[f.rank] + (uint32_t)f.action;
        goal__chk_key(c, -1, c->q.e[k].ref, &ep, &et);
        if (next[id] == GOAL__NONE && goal__sim_accepts(ep, peer) && goal__sim_accepts(et, tag)) {
            next[id] = g;
            return;
        }
        k = c->q.e[k].next;
    } while (k != head);
}
static void goal__chk_counterparts(goal__chk *c, uint32_t *next) {
    int32_t r;
    for (r = 0; r < c->x.p; r++) {
        goal_schedule s;
        uint32_t i, b = c->x.base[r];
        goal__simw_view(&c->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            if (c->st[b + i] != GOAL__CHK_WAIT) continue;
            goal_schedule_action(&s, i, &a);
            if (a.kind == GOAL_SEND) goal__chk_counterpart(c, next, c->posted[a.peer], r, a.tag, b + i);
            if (a.kind == GOAL_RECV) goal__chk_counterpart(c, next, c->unexp[r], a.peer, a.tag, b + i);
        }
    }
}
/* Marks every node on a cycle of next[] with 3 (1 = on the walk now, 2 = seen). */
static void goal__chk_cycles(const goal__chk *c, const uint32_t *next, uint8_t *color) {
    uint32_t v, u;
    for (v = 0; v < c->x.n; v++) {
        if (color[v] || c->st[v] == GOAL__CHK_DONE) continue;
        for (u = v; u != GOAL__NONE && !color[u]; u = next[u]) color[u] = 1;
        if (u != GOAL__NONE && color[u] == 1)
            do { color[u] = 3; u = next[u]; } while (color[u] != 3);
        for (u = v; u != GOAL__NONE && color[u] == 1; u = next[u]) color[u] = 2;
    }
}
static goal_sim_ref goal__chk_ref(const goal__chk *c, uint32_t g) {
    int32_t r;
    if (g == GOAL__NONE) return goal__sim_ref(-1, -1);
    r = goal__simw_rank(&c->x, g);
    return goal__sim_ref(r, (int32_t)(g - c->x.base[r]));
}
static goal_status goal__chk_report(goal__chk *c, const uint32_t *next, const uint8_t *color) {
    uint32_t v;
    for (v = 0; v < c->x.n; v++) {
        goal_sim_finding_kind k = GOAL_SIM_BLOCKED;
        goal_sim_ref at;
        if (c->st[v] == GOAL__CHK_DONE) continue;
        at = goal__chk_ref(c, v);
        if (color[v] == 3) k = GOAL_SIM_CYCLE;
        else if (next[v] == GOAL__NONE && c->st[v] == GOAL__CHK_POSTED) {
            goal_schedule s;
            goal_action a;
            goal__simw_view(&c->x, at.rank, &s);
            goal_schedule_action(&s, (uint32_t)at.action, &a);
            k = a.kind == GOAL_SEND ? GOAL_SIM_UNMATCHED_SEND : GOAL_SIM_UNMATCHED_RECV;
        }
        if (goal__chk_finding(c, k, at, goal__chk_ref(c, next[v])) != GOAL_OK) return GOAL_ERR_NOMEM;
    }
    return GOAL_OK;
}
static goal_status goal__chk_explain(goal__chk *c) {
    uint32_t *next = c->need;   /* the states move to st; need's memory holds the waits */
    uint8_t *color = (uint8_t *)goal__new(&c->x.a, c->x.n, 1);
    goal_status st;
    uint32_t v;
    if (!color || !(c->st = (uint8_t *)goal__new(&c->x.a, c->x.n, 1))) { goal__free(&c->x.a, color); return GOAL_ERR_NOMEM; }
    for (v = 0; v < c->x.n; v++)
        c->st[v] = next[v] == GOAL__CHK_FINISHED ? GOAL__CHK_DONE : next[v] == GOAL__CHK_STARTED ? GOAL__CHK_POSTED : GOAL__CHK_WAIT;
    memset(next, 0xFF, (size_t)c->x.n * sizeof(uint32_t));
    memset(color, 0, c->x.n);
    goal__chk_blockers(c, next);
    goal__chk_counterparts(c, next);
    goal__chk_cycles(c, next, color);
    st = goal__chk_report(c, next, color);
    goal__free(&c->x.a, color);
    return st;
}

static void goal__chk_free(goal__chk *c) {
    const goal_allocator *a = &c->x.a;
    goal__free(a, c->need); goal__free(a, c->st); goal__free(a, c->fifo); goal__free(a, c->posted);
    goal__fifo_free(&c->q, a);
    goal__simw_free(&c->x);
}

goal_status goal_sim_check(const goal_world *w, const goal_sim_check_desc *desc, goal_sim_check_result *out) {
    goal__chk c;
    goal_sim_check_desc d;
    goal_status st;
    size_t done = 0;
    if (!out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    st = goal__simw_init(&c.x, w, &d.alloc);
    out->alloc_ = c.x.a;
    c.eager = d.eager_limit; c.keep_pairs = !d.no_pairs; c.res = out;
    if (st == GOAL_OK) st = goal__chk_init(&c);
    while (st == GOAL_OK && c.head < c.tail) {
        goal__chk_ahead(&c);
        st = goal__chk_step(&c, (uint32_t)c.head++);
    }
    for (; st == GOAL_OK && done < c.x.n && c.need[done] == GOAL__CHK_FINISHED; done++) {}
    if (st == GOAL_OK && done < c.x.n) st = goal__chk_explain(&c);
    goal__chk_free(&c);
    if (st != GOAL_OK) { goal_sim_check_free(out); return st; }
    return out->nfindings ? GOAL_ERR_MATCH : GOAL_OK;
}
void goal_sim_check_free(goal_sim_check_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__allocator(&r->alloc_);
    goal__free(&a, r->pairs); goal__free(&a, r->findings);
    memset(r, 0, sizeof *r);
}

/* "send 8 bytes to 3 tag 0": what action f is, for messages. */
static void goal__sim_describe(const goal_world *w, goal_sim_ref f, char *buf, size_t len) {
    goal_schedule s;
    goal_action a;
    char lb[GOAL_LABEL_MAX];
    if (goal_world_schedule(w, f.rank, &s) != GOAL_OK || f.action < 0 || (uint32_t)f.action >= s.nactions) {
        snprintf(buf, len, "rank %ld action %ld", (long)f.rank, (long)f.action);
        return;
    }
    goal_schedule_action(&s, (uint32_t)f.action, &a);
    if (a.kind == GOAL_SEND || a.kind == GOAL_RECV)
        snprintf(buf, len, "rank %ld %s (%s %llu bytes %s %ld tag %ld)", (long)f.rank, goal_schedule_label(&s, (uint32_t)f.action, lb),
                 a.kind == GOAL_SEND ? "send" : "recv", (unsigned long long)a.buf.size, a.kind == GOAL_SEND ? "to" : "from",
                 (long)a.peer, (long)a.tag);
    else
        snprintf(buf, len, "rank %ld %s (%s)", (long)f.rank, goal_schedule_label(&s, (uint32_t)f.action, lb),
                 a.kind == GOAL_CALC ? "calc" : a.kind == GOAL_EXEC ? "exec" : "nop");
}

const char *goal_sim_finding_text(const goal_world *w, const goal_sim_finding *f, char *buf, size_t len) {
    char at[160], other[160];
    if (!buf || !len) return buf;
    if (!w || !f) { snprintf(buf, len, "(no finding)"); return buf; }
    goal__sim_describe(w, f->at, at, sizeof at);
    goal__sim_describe(w, f->other, other, sizeof other);
    switch (f->kind) {
    case GOAL_SIM_UNMATCHED_SEND: snprintf(buf, len, "%s: error: unmatched send: no receive accepts it", at); break;
    case GOAL_SIM_UNMATCHED_RECV: snprintf(buf, len, "%s: error: unmatched recv: no send matches it", at); break;
    case GOAL_SIM_BLOCKED: snprintf(buf, len, "%s: error: deadlock: never completes, waits for %s", at, other); break;
    case GOAL_SIM_CYCLE: snprintf(buf, len, "%s: error: deadlock cycle: waits for %s", at, other); break;
    case GOAL_SIM_SIZE_ERROR: snprintf(buf, len, "%s: error: matched send is larger: %s", at, other); break;
    case GOAL_SIM_SIZE_WARNING: snprintf(buf, len, "%s: warning: matched send is smaller: %s", at, other); break;
    default: snprintf(buf, len, "%s: unknown finding", at); break;
    }
    return buf;
}

/* ---- >>> simulate: state ------------------------------------------------------------------- */
typedef struct goal__sim_ev {   /* a queued event; the heap orders by (time, seq) */
    uint64_t time;
    uint32_t seq;
    int32_t rank;               /* where it happens */
    uint32_t ref;               /* action index on rank, or message id | GOAL__DEP_START */
} goal__sim_ev;

/* A message's protocol: rendezvous (its send completes when taken), eager (when it starts),
   acknowledged (eager bytes, completion D after the take: an event of its own, ACKING, at
   the sender, for which the message is kept until then). */
enum { GOAL__SIM_RENDEZVOUS, GOAL__SIM_EAGER, GOAL__SIM_ACKED, GOAL__SIM_ACKING };
typedef struct goal__sim_msg {  /* a message in flight or waiting in an unexpected queue */
    uint64_t size, sent;        /* bytes; when its send started */
    int32_t src, tag;
    uint32_t send;              /* the send's index on src; the free list's link while unused */
    uint8_t cpu, nic;           /* the sender's indices: LogGOPSim charges the receiver on them */
    uint8_t eager;              /* the model's choice when it was sent: GOAL__SIM_EAGER... */
} goal__sim_msg;

/* What an event needs of its rank, in 32 bytes (half a cache line): the clocks of cpu 0 and
   nic 0 and the matching queues. Other cpu and nic indices, rare, have their clocks in
   goal__sim.more. */
typedef struct goal__sim_rank {
    uint64_t cpu, nics, nicr;   /* cpu, send nic and receive nic clocks */
    uint32_t posted, unexp;     /* queue tails: posted receives; unexpected messages */
} goal__sim_rank;

typedef struct goal__sim_item { uint32_t seq; int32_t rank; uint32_t ref; } goal__sim_item;
typedef struct goal__sim_run {
    goal__sim_item *it; size_t n, head, cap;
    int unsorted;               /* an item was added below the last one since the last sort */
} goal__sim_run;
typedef struct goal__sim_bucket {
    uint64_t time;
    goal__sim_run run[2];       /* 0: queued, 1: put back */
    uint32_t next;              /* free list */
} goal__sim_bucket;

typedef struct goal__sim_ready { int32_t rank; uint32_t action; uint64_t time; int cls; } goal__sim_ready;

/* Events that wait for the same busy resources of one rank: see goal__sim_later. */
enum { GOAL__SIM_W_CALC, GOAL__SIM_W_SEND, GOAL__SIM_W_ARRIVE };
typedef struct goal__sim_wait {
    int32_t rank;
    uint8_t kind, cpu, nic, queued;   /* queued: its token is in the event queue */
    uint32_t seq, gen;                /* the token's number (its least member's) and generation */
    uint32_t next;                    /* the rank's next class, or the free list */
    goal__sim_item *heap; size_t n, cap;   /* its members, a heap by seq (rank unused) */
} goal__sim_wait;

#define GOAL__SIM_DONE 0xFFFFFFFFu    /* need[] of a completed action */

/* LogGOPS parameters of one kind of link, in ps (G, O: ps per byte). */
typedef struct goal__sim_link { uint64_t L, o, g, G, O; } goal__sim_link;
struct goal__sim_model;

/* What the simulator reads of an action, decoded once (goal__sim_scan) and kept by global
   id next to its count of sources: the events, readiness and matching read this line
   instead of decoding the schedule's record again (a cache miss each in large worlds).
   32 bytes, in an array aligned to 64 (goal__sim_lines): a line never spans two cache
   lines (at 40 bytes half of them did, two misses where one would do). */
typedef struct goal__sim_act {
    uint64_t size;                   /* bytes (send, recv, exec), ns (calc) */
    int32_t peer, tag;               /* an exec's tag: 1 for a copy (goal__sim_copy) */
    uint32_t need;                   /* sources not yet satisfied; GOAL__SIM_DONE */
    uint32_t deps[2];                /* its dependents: up to GOAL__SIM_INLINE_DEPS words (as stored); */
    uint8_t kind, cpu, nic;          /* with more, where they are (x.recs[rank] + deps[0]) and how many */
    uint8_t ndeps;                   /* words in deps; GOAL__SIM_INLINE_DEPS + 1: more, deps[1] of them */
} goal__sim_act;
/* Most actions release one or two others: kept in the line, their words cost no cache miss
   (reading them from the schedule's body was a third of the simulator's time). */
#define GOAL__SIM_INLINE_DEPS 2u
static const uint32_t *goal__sim_deps_of(const goal__simw *x, int32_t r, const goal__sim_act *a) {
    return a->ndeps <= GOAL__SIM_INLINE_DEPS ? a->deps : x->recs[r] + a->deps[0];
}
static uint32_t goal__sim_ndeps(const goal__sim_act *a) { return a->ndeps <= GOAL__SIM_INLINE_DEPS ? a->ndeps : a->deps[1]; }
static int goal__sim_copy(const goal__sim_act *a) { return a->kind == GOAL_EXEC && a->tag; }

typedef struct goal__sim {
    goal__simw x;
    const struct goal__sim_model *model;   /* the cost model (see simulate: cost models) */
    goal__sim_link link[2];          /* LogGOPS: link[0]; two-level: 0 between nodes, 1 inside */
    uint64_t *mem;                   /* shared memory: per node, when its memory is free again; NULL: off */
    uint64_t S, C, Ccopy, R;         /* eager limit in bytes; ps per byte of a local exec, of a
                                        local copy (the desc's K); ps a
                                        rendezvous message (over S bytes) arrives later */
    uint64_t T[GOAL_SIM_TABLE_MAX];  /* the table of costs per byte: a message's bytes beyond T[i] */
    uint64_t H[GOAL_SIM_TABLE_MAX];  /* (up to T[i+1]) cost H[i] ps each, not G; off: T[0] 2^64-1 */
    uint32_t nT;                     /* entries in the table (0: off) */
    uint64_t *span;                  /* p, with the table: the bytes each rank's schedule
                                        touches (goal__sim_span); else NULL */
    uint64_t E, F;                   /* ps the executor adds per message (CPU, and before it leaves); ps
                                        every CPU starts at (a call's fixed cost) */
    uint64_t A, D;                   /* eager sends over A bytes complete D ps after their take
                                        (off: A 2^64-1) */
    uint32_t node_size;              /* two-level: ranks per node */
    int compat;
    uint64_t stop_ps;                /* the desc's stop_ns: stop once a rank's time must reach it; 0 = never */
    uint64_t *left;                  /* p, when stopping on one CPU: the CPU time each rank has
                                        still to spend (goal__sim_scan_left); else NULL */
    int over;                        /* a time computed since the last check passed 2^64-1 */
    goal_sim_ref overflow;           /* where it did */
    void (*event_fn)(void *user, const goal_sim_event *e);
    void *user;
    uint32_t ncpu, nnic, nmore;      /* nmore = (ncpu - 1) + 2 (nnic - 1) clocks per rank */
    goal__sim_rank *rk;              /* p */
    uint64_t *more;                  /* p x nmore: cpu 1.., send nic 1.., receive nic 1.. */
    goal__sim_act *act;              /* nlines, by goal__sim_gid */
    size_t nlines;
    uint32_t K;                      /* action i < K of rank r is line i * p + r, */
    uint32_t *obase;                 /* p: action i >= K is line obase[r] + i */
    void *act_mem, *rk_mem;          /* where act and rk are (goal__sim_lines) */
    goal__fifo q;
    goal__sim_msg *msg; size_t capm; uint32_t nmsg, freem;
    goal__sim_bucket *bk; size_t capbk; uint32_t nbk, freebk;   /* the event queue: buckets, */
    uint32_t *bh; size_t nbh, capbh;                             /* live ones by time, */
    uint32_t *tab; size_t captab;                                /* live ones by hash of time */
    goal__sim_ready *ready; size_t nready, capr;
    goal__sim_ready *ind; size_t nind, capi;   /* the sweep: one rank's independent actions */
    goal__sim_wait *wt; size_t capwt; uint32_t nwt, freewt;    /* waiting classes */
    uint32_t *waits;                 /* p: each rank's first waiting class */
    uint32_t lastbk;                 /* the bucket queued to last (the next is often the same) */
    uint32_t seq;                    /* the one counter LogGOPSim numbers events with */
    uint64_t ndone, events;
    goal_status err;                 /* first failure inside a callback */
} goal__sim;

/* Where action i of rank r has its line (see goal__sim_layout). */
static inline uint32_t goal__sim_gid(const goal__sim *m, int32_t r, uint32_t i) {
    return i < m->K ? i * (uint32_t)m->x.p + (uint32_t)r : m->obase[r] + i;
}
/* Simulated time counts picoseconds (GOAL__SIM_PS per ns) in 64 bits: parameters with up to
   three decimals are exact, and integer ones give LogGOPSim's times times 1000. */
#define GOAL__SIM_PS 1000u
#define GOAL__SIM_PARAM_MAX 9007199254740992.0   /* 2^53 ps: every such count is exact in a double */
/* A parameter in ns (0: dflt_ps; GOAL_SIM_ZERO: a real 0) as ps in *ps; GOAL_ERR_ARG when it
   is negative, not a number, over 2^53 ps or finer than 1 ps. */
static goal_status goal__sim_param(double v, uint64_t dflt_ps, uint64_t *ps) {
    double x = v * GOAL__SIM_PS, r, diff;
    if (v == 0) { *ps = dflt_ps; return GOAL_OK; }
    if (v == GOAL_SIM_ZERO) { *ps = 0; return GOAL_OK; }
    if (!(x >= 0 && x <= GOAL__SIM_PARAM_MAX)) return GOAL_ERR_ARG;   /* NaN fails too */
    r = (double)(uint64_t)(x + 0.5);
    diff = x > r ? x - r : r - x;
    if (diff > 1e-3 + x * 1e-15) return GOAL_ERR_ARG;   /* more than 3 decimals */
    *ps = (uint64_t)r;
    return GOAL_OK;
}
/* Checked time arithmetic: a result past 2^64-1 ps sets m->over (the event then fails). */
static uint64_t goal__sim_add(goal__sim *m, uint64_t a, uint64_t b) {
    if (a > ~(uint64_t)0 - b) m->over = 1;
    return a + b;
}
static uint64_t goal__sim_mul(goal__sim *m, uint64_t a, uint64_t b) {
    if (a && b > ~(uint64_t)0 / a) m->over = 1;
    return a * b;
}
/* t + fixed + (s - 1) per: the end of a message's overhead or gap. 0 bytes cost nothing per
   byte, except that LogGOPSim (compat) computes s - 1 unsigned: (2^64 - 1) per, so -per. */
static uint64_t goal__sim_after(goal__sim *m, uint64_t t, uint64_t fixed, uint64_t s, uint64_t per) {
    uint64_t base = goal__sim_add(m, t, fixed);
    if (s) return goal__sim_add(m, base, goal__sim_mul(m, s - 1u, per));
    return m->compat ? base + ~(uint64_t)0 * per : base;
}
/* goal__sim_after for a message of s bytes under the table of costs per byte (-T -H) when
   f > T[0], f >= s being the bytes whose rate it pays (goal__sim_span). The bytes of a
   message of n bytes beyond T[i], up to T[i+1], cost max(least, H[i]) each (least: the
   receive's O, else 0): part(n) = (T[0] - 1) per + sum (min(n, T[i+1]) - T[i]) H[i] (n > T[0];
   else (n - 1) per). The message costs part(f) (s - 1) / (f - 1) past t + fixed, and never
   less than part(s), so that pricing by f only adds (goal_tune's bounds price by s). Off,
   T[0] is 2^64-1, so goal__sim_big, which the callers test first, is one compare. */
static int goal__sim_big(const goal__sim *m, uint64_t f) { return f > m->T[0]; }
/* part(n), checked (goal__sim_add, _mul), and in *approx the same in double, which does not
   overflow: part(f) of a large f may pass 2^64 ps where the share a message pays does not. */
static uint64_t goal__sim_part(goal__sim *m, uint64_t n, uint64_t per, uint64_t least, double *approx) {
    uint64_t part;
    uint32_t i;
    if (!goal__sim_big(m, n)) {
        *approx = n > 1u ? (double)(n - 1u) * (double)per : 0;
        return n > 1u ? goal__sim_mul(m, n - 1u, per) : 0;
    }
    part = goal__sim_mul(m, m->T[0] - 1u, per);
    *approx = (double)(m->T[0] - 1u) * (double)per;
    for (i = 0; i < m->nT && n > m->T[i]; i++) {
        uint64_t upto = i + 1u < m->nT && n > m->T[i + 1u] ? m->T[i + 1u] : n, h = m->H[i] > least ? m->H[i] : least;
        part = goal__sim_add(m, part, goal__sim_mul(m, upto - m->T[i], h));
        *approx += (double)(upto - m->T[i]) * (double)h;
    }
    return part;
}
static uint64_t goal__sim_after_big(goal__sim *m, uint64_t t, uint64_t fixed, uint64_t s, uint64_t f, uint64_t per, uint64_t least) {
    double whole, scaled;
    uint64_t part = goal__sim_part(m, s, per, least, &whole);
    if (f > s && s > 1u) {
        int over = m->over;
        (void)goal__sim_part(m, f, per, least, &whole);
        m->over = over;   /* only the share this message pays must fit */
        scaled = whole / (double)(f - 1u) * (double)(s - 1u) + 0.5;
        if (scaled >= 18446744073709551616.0) m->over = 1;   /* 2^64 ps or more */
        else if (scaled > (double)part) part = (uint64_t)scaled;
    }
    return goal__sim_add(m, goal__sim_add(m, t, fixed), part);
}
/* The bytes at whose rate a message of s bytes from src to dst pays under the table: a
   rendezvous message (over S bytes), which moves the bytes from where the sender's buffer
   lies, pays the rate of everything its ranks touch (the larger rank's slots and scratch,
   goal__sim_span_of), at least its own s. The machine's cost per byte follows how much data
   a call moves through the caches, not how the call cuts it into messages: each 4 MiB half
   of an 8 MiB broadcast pays the 8 MiB rate. An eager message (through the library's
   buffers), and every message with no world (goal_sim_cost) or no table, pays its own s. */
static uint64_t goal__sim_span(const goal__sim *m, int32_t src, int32_t dst, uint64_t s) {
    uint64_t f;
    if (!m->span || s <= m->S) return s;
    f = m->span[src] > m->span[dst] ? m->span[src] : m->span[dst];
    return f > s ? f : s;
}
/* Records the first overflow at (rank, action) and fails the run. */
static goal_status goal__sim_overflowed(goal__sim *m, int32_t rank, uint32_t action) {
    m->overflow = goal__sim_ref(rank, (int32_t)action);
    return GOAL_ERR_LIMIT;
}
static uint64_t *goal__sim_cpu(goal__sim *m, int32_t r, uint8_t c) {
    return c ? &m->more[(size_t)r * m->nmore + c - 1u] : &m->rk[r].cpu;
}
static uint64_t *goal__sim_nic(goal__sim *m, int32_t r, uint8_t n, int recv) {
    if (!n) return recv ? &m->rk[r].nicr : &m->rk[r].nics;
    return &m->more[(size_t)r * m->nmore + (m->ncpu - 1u) + (recv ? m->nnic - 1u : 0u) + n - 1u];
}

/* ---- >>> simulate: cost models ------------------------------------------------------------- */
/* The event handlers ask a model what things cost; a model is this table. Each time function
   gets the time t a resource is taken and returns when it is free again (or, for wire, when
   the message arrives), with goal__sim_add / _mul / _after so that an overflow fails the run.
   The handlers own the clocks, the queues and the order of events; a model only prices. A
   new model: its functions, its table, its options (goal__sim_opts) and a line in
   goal__sim_model_init. What no model varies is no slot: the eager limit S (a message of
   s <= S bytes is eager: its send completes when it starts) and a local exec (t + s C)
   are goal__sim_eager and goal__sim_exec, one for every model. */
typedef struct goal__sim_model {
    /* src's CPU, a send of s bytes to dst starting at t (LogGOPS: t + o + (s-1) O) */
    uint64_t (*send_cpu)(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s);
    /* dst's CPU, taking a message of s bytes from src that arrived at t (t + o + (s-1) max(O, G)) */
    uint64_t (*recv_cpu)(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s);
    /* a NIC (src's sending one, dst's receiving one) for a message of s bytes (t + g + (s-1) G) */
    uint64_t (*nic_gap)(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s);
    /* when a message of s bytes whose send started at t arrives at dst (t + o + L) */
    uint64_t (*wire)(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s);
    /* the bytes' part of a message's NIC gap ((s-1) G, or with the table of costs per byte):
       what it copies through a shared memory */
    uint64_t (*copy)(goal__sim *m, int32_t src, int32_t dst, uint64_t s);
} goal__sim_model;

/* LogGOPS on one link, the formulas LogGOPSim uses. */
GOAL__HOT uint64_t goal__sim_link_send(goal__sim *m, const goal__sim_link *k, uint64_t t, uint64_t s) {
    return goal__sim_after(m, t, k->o + m->E, s, k->O);   /* each at most 2^53: no overflow */
}
/* f: the bytes whose rate the message pays under the table (goal__sim_span), else s. */
GOAL__HOT uint64_t goal__sim_link_recv(goal__sim *m, const goal__sim_link *k, uint64_t t, uint64_t s, uint64_t f) {
    /* LogGOPSim charges max((s-1) O, (s-1) G); for 0 bytes in compat, of the wrapped values */
    uint64_t o = k->o + m->E;
    if (!s && m->compat) return t + o + (~(uint64_t)0 * k->O > ~(uint64_t)0 * k->G ? ~(uint64_t)0 * k->O : ~(uint64_t)0 * k->G);
    if (goal__sim_big(m, f)) return goal__sim_after_big(m, t, o, s, f, k->O > k->G ? k->O : k->G, k->O);
    return goal__sim_after(m, t, o, s, k->O > k->G ? k->O : k->G);
}
GOAL__HOT uint64_t goal__sim_link_nic(goal__sim *m, const goal__sim_link *k, uint64_t t, uint64_t s, uint64_t f) {
    return goal__sim_big(m, f) ? goal__sim_after_big(m, t, k->g, s, f, k->G, 0) : goal__sim_after(m, t, k->g, s, k->G);
}
/* A rendezvous message arrives R later: its handshake (a request to send and the answer
   before the data) is the round trip LogGOPSim leaves out. The executor's E comes before
   the library's send call, so the message leaves E later too. */
GOAL__HOT uint64_t goal__sim_link_wire(goal__sim *m, const goal__sim_link *k, uint64_t t, uint64_t s) {
    t = goal__sim_add(m, goal__sim_add(m, t, k->o + m->E), k->L);
    return s > m->S ? goal__sim_add(m, t, m->R) : t;
}
/* The NIC's gap less its g. 0 and 1 bytes copy nothing that takes time (LogGOPSim's 0-byte
   wrap is a NIC's, not a copy). */
static uint64_t goal__sim_link_copy(goal__sim *m, const goal__sim_link *k, uint64_t s, uint64_t f) {
    return s > 1u ? goal__sim_link_nic(m, k, 0, s, f) - k->g : 0;
}
static int goal__sim_eager(const goal__sim *m, uint64_t s) { return s <= m->S; }
static uint64_t goal__sim_exec(goal__sim *m, uint64_t t, uint64_t s, int copy) {
    return goal__sim_add(m, t, goal__sim_mul(m, s, copy ? m->Ccopy : m->C));
}
/* When a local action started at t ends: an exec of s bytes (a copy at K per byte), a calc
   of s ns, anything else at once. */
static uint64_t goal__sim_local(goal__sim *m, uint64_t t, int kind, uint64_t s, int copy) {
    if (kind == GOAL_EXEC) return goal__sim_exec(m, t, s, copy);
    return kind == GOAL_CALC ? goal__sim_add(m, t, goal__sim_mul(m, s, GOAL__SIM_PS)) : t;
}

/* LogGOPS: every pair of ranks is link[0]. */
GOAL__HOT uint64_t goal__sim_loggops_send_cpu(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    (void)src; (void)dst;
    return goal__sim_link_send(m, &m->link[0], t, s);
}
GOAL__HOT uint64_t goal__sim_loggops_recv_cpu(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_recv(m, &m->link[0], t, s, goal__sim_span(m, src, dst, s));
}
GOAL__HOT uint64_t goal__sim_loggops_nic_gap(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_nic(m, &m->link[0], t, s, goal__sim_span(m, src, dst, s));
}
GOAL__HOT uint64_t goal__sim_loggops_wire(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    (void)src; (void)dst;
    return goal__sim_link_wire(m, &m->link[0], t, s);
}
static uint64_t goal__sim_loggops_copy(goal__sim *m, int32_t src, int32_t dst, uint64_t s) {
    return goal__sim_link_copy(m, &m->link[0], s, goal__sim_span(m, src, dst, s));
}
static const goal__sim_model goal__sim_loggops = {
    goal__sim_loggops_send_cpu, goal__sim_loggops_recv_cpu, goal__sim_loggops_nic_gap, goal__sim_loggops_wire, goal__sim_loggops_copy};

/* What a send costs (src's CPU and NIC free again, the arrival, eager or not) and what an
   arrival costs (dst's CPU and NIC free again), asked of model md. The handlers call these
   with the LogGOPS table as a constant when that is the model, so that its costs are
   direct calls, inlined: through m->model, an indirect call per cost made a message about
   70 instructions dearer (+2.4% per event in bench_sim, callgrind). */
typedef struct goal__sim_price { uint64_t arrive; int eager; } goal__sim_price;
GOAL__HOT void goal__sim_price_send(goal__sim *m, const goal__sim_model *md, int32_t src, int32_t dst, uint64_t t,
                                           uint64_t s, uint64_t *cpu, uint64_t *nic, goal__sim_price *p) {
    *cpu = md->send_cpu(m, src, dst, t, s);
    *nic = md->nic_gap(m, src, dst, t, s);
    p->arrive = md->wire(m, src, dst, t, s);
    p->eager = goal__sim_eager(m, s);
}
GOAL__HOT void goal__sim_price_arrive(goal__sim *m, const goal__sim_model *md, int32_t src, int32_t dst, uint64_t t,
                                             uint64_t s, uint64_t *cpu, uint64_t *nic) {
    *cpu = md->recv_cpu(m, src, dst, t, s);
    *nic = md->nic_gap(m, src, dst, t, s);
}

/* Two-level: ranks in nodes of node_size consecutive ranks; link[1] inside a node, link[0]
   between nodes. A rank has one sending and one receiving NIC clock for both. */
static const goal__sim_link *goal__sim_link_of(const goal__sim *m, int32_t src, int32_t dst) {
    return &m->link[(uint32_t)src / m->node_size == (uint32_t)dst / m->node_size];
}
static uint64_t goal__sim_nodes_send(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_send(m, goal__sim_link_of(m, src, dst), t, s);
}
static uint64_t goal__sim_nodes_recv(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_recv(m, goal__sim_link_of(m, src, dst), t, s, goal__sim_span(m, src, dst, s));
}
static uint64_t goal__sim_nodes_nic(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_nic(m, goal__sim_link_of(m, src, dst), t, s, goal__sim_span(m, src, dst, s));
}
static uint64_t goal__sim_nodes_wire(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s) {
    return goal__sim_link_wire(m, goal__sim_link_of(m, src, dst), t, s);
}
static uint64_t goal__sim_nodes_copy(goal__sim *m, int32_t src, int32_t dst, uint64_t s) {
    return goal__sim_link_copy(m, goal__sim_link_of(m, src, dst), s, goal__sim_span(m, src, dst, s));
}
static const goal__sim_model goal__sim_two_level = {
    goal__sim_nodes_send, goal__sim_nodes_recv, goal__sim_nodes_nic, goal__sim_nodes_wire, goal__sim_nodes_copy};

/* The model d asks for and its parameters in ps; GOAL_ERR_ARG for a bad one. Zero fields
   take LogGOPSim's defaults, the intra-node ones the inter-node values. */
static goal_status goal__sim_link_init(goal__sim_link *k, const double v[5], const goal__sim_link *dflt) {
    if (goal__sim_param(v[0], dflt->L, &k->L) || goal__sim_param(v[1], dflt->o, &k->o) || goal__sim_param(v[2], dflt->g, &k->g) ||
        goal__sim_param(v[3], dflt->G, &k->G) || goal__sim_param(v[4], dflt->O, &k->O))
        return GOAL_ERR_ARG;
    return GOAL_OK;
}
/* Entries of the table of costs per byte: its sizes (T and T_more up to the first 0) and
   its costs (H and H_more up to the first 0). */
static uint32_t goal__sim_nsizes(const goal_sim_desc *d) {
    uint32_t n = 1;
    while (n < GOAL_SIM_TABLE_MAX && d->T_more[n - 1u] != 0) n++;
    return n;
}
static uint32_t goal__sim_ncosts(const goal_sim_desc *d) {
    uint32_t n = 1;
    while (n < GOAL_SIM_TABLE_MAX && d->H_more[n - 1u] != 0) n++;
    return n;
}
/* Why entry i of d's table is bad, into why (GOAL_MSG_MAX bytes), or GOAL_OK: a size not
   above the one before, or below 0, or after the sizes' end; a bad cost, or one after the
   costs' end. */
static goal_status goal__sim_entry(const goal_sim_desc *d, uint32_t i, uint64_t *ps, char *why) {
    int64_t t = i ? d->T_more[i - 1u] : d->T, prev = i > 1u ? d->T_more[i - 2u] : d->T;
    double h = i ? d->H_more[i - 1u] : d->H;
    char name[24];
    int bad_size = i ? t < 0 || (i >= goal__sim_nsizes(d) && t != 0) || (t != 0 && (prev <= 0 || t <= prev)) : t < GOAL_SIM_ZERO;
    snprintf(name, sizeof name, i ? "T_more[%u]" : "T", (unsigned)i - 1u);
    if (bad_size) {
        snprintf(why, GOAL_MSG_MAX, "goal_sim_desc.%s = %lld: the table's sizes are > 0 and increase strictly from T on, "
                 "the first 0 ends them", name, (long long)t);
        return GOAL_ERR_ARG;
    }
    if (goal__sim_param(h, 0, ps) != GOAL_OK || (i >= goal__sim_ncosts(d) && h != 0)) {
        snprintf(name, sizeof name, i ? "H_more[%u]" : "H", (unsigned)i - 1u);
        snprintf(why, GOAL_MSG_MAX, "goal_sim_desc.%s = %.15g: a cost in ns per byte is >= 0 (GOAL_SIM_ZERO: free), has at most "
                 "3 decimals, and the first 0 ends the costs", name, h);
        return GOAL_ERR_ARG;
    }
    return GOAL_OK;
}
/* The table of costs per byte (T, H, T_more, H_more) into m->T, m->H, m->nT: on when T > 0
   and H is set, as with one entry (off: T[0] 2^64-1, no size is over it). GOAL_ERR_ARG and
   why (GOAL_MSG_MAX bytes) for a bad entry or as many sizes as costs. */
static goal_status goal__sim_table_init(goal__sim *m, const goal_sim_desc *d, char *why) {
    uint32_t i, nt = goal__sim_nsizes(d), nh = goal__sim_ncosts(d);
    int on = d->T > 0 && d->H != 0;
    for (i = 0; i < GOAL_SIM_TABLE_MAX; i++) {
        if (goal__sim_entry(d, i, &m->H[i], why) != GOAL_OK) return GOAL_ERR_ARG;
        m->T[i] = i ? (uint64_t)d->T_more[i - 1u] : on ? (uint64_t)d->T : ~(uint64_t)0;
    }
    if (on && nt != nh) {
        snprintf(why, GOAL_MSG_MAX, "%lu sizes (-T; goal_sim_desc.T, T_more) and %lu costs per byte (-H; H, H_more): one cost per size",
                 (unsigned long)nt, (unsigned long)nh);
        return GOAL_ERR_ARG;
    }
    m->nT = on ? nt : 0;
    return GOAL_OK;
}
static goal_status goal__sim_model_init(goal__sim *m, const goal_sim_desc *d) {
    char why[GOAL_MSG_MAX];
    static const goal__sim_link loggopsim = {2500 * GOAL__SIM_PS, 1500 * GOAL__SIM_PS, 1000 * GOAL__SIM_PS, 6 * GOAL__SIM_PS, 0};
    const double inter[5] = {d->L, d->o, d->g, d->G, d->O};
    const double intra[5] = {d->intra_L, d->intra_o, d->intra_g, d->intra_G, d->intra_O};
    if (goal__sim_link_init(&m->link[0], inter, &loggopsim) || goal__sim_link_init(&m->link[1], intra, &m->link[0]) ||
        goal__sim_param(d->C, GOAL__SIM_PS, &m->C) || goal__sim_param(d->K, m->C, &m->Ccopy) || goal__sim_param(d->R, 0, &m->R) ||
        goal__sim_param(d->E, 0, &m->E) || goal__sim_param(d->F, 0, &m->F) || goal__sim_param(d->D, 0, &m->D) ||
        d->S < GOAL_SIM_ZERO || d->A < GOAL_SIM_ZERO || d->node_size < 0 || goal__sim_table_init(m, d, why))
        return GOAL_ERR_ARG;
    m->S = d->S == 0 ? 65535u : d->S < 0 ? 0u : (uint64_t)d->S;
    m->A = d->A == 0 ? ~(uint64_t)0 : d->A < 0 ? 0u : (uint64_t)d->A;
    m->node_size = (uint32_t)d->node_size;
    m->model = d->node_size ? &goal__sim_two_level : &goal__sim_loggops;
    return GOAL_OK;
}

/* ---- >>> simulate: the event queue --------------------------------------------------------- */
/* Events come out in (time, seq) order. They wait in buckets, one per distinct time (a
   broadcast to a million ranks has fewer than 200), found by a hash of the time; the live
   buckets are in a heap by time. A bucket has two runs: events queued now, whose numbers only
   grow, so the run is in order as it is written, and events put back to wait for a busy CPU
   or NIC, which keep their older numbers and are sorted when needed. Its next event is the
   lesser head. So queueing costs no sifting through a third of a million events, and the
   events ahead in a run are known: their memory is asked for early (goal__sim_ahead). */
static size_t goal__sim_slot(const goal__sim *m, uint64_t t) {
    return (size_t)((t * 0x9E3779B97F4A7C15ull) >> 32) & (m->captab - 1u);
}
/* The live bucket of time t, GOAL__NONE when none (open addressing, linear probing). */
static uint32_t goal__sim_find(const goal__sim *m, uint64_t t) {
    size_t k;
    if (!m->captab) return GOAL__NONE;
    for (k = goal__sim_slot(m, t); m->tab[k] != GOAL__NONE; k = (k + 1u) & (m->captab - 1u))
        if (m->bk[m->tab[k]].time == t) return m->tab[k];
    return GOAL__NONE;
}
static void goal__sim_tab_put(goal__sim *m, uint32_t id) {
    size_t k = goal__sim_slot(m, m->bk[id].time);
    while (m->tab[k] != GOAL__NONE) k = (k + 1u) & (m->captab - 1u);
    m->tab[k] = id;
}
/* Removes bucket id, moving later entries of its probe chain back into the hole. */
static void goal__sim_tab_del(goal__sim *m, uint32_t id) {
    size_t mask = m->captab - 1u, k = goal__sim_slot(m, m->bk[id].time), j;
    while (m->tab[k] != id) k = (k + 1u) & mask;
    for (j = (k + 1u) & mask; m->tab[j] != GOAL__NONE; j = (j + 1u) & mask) {
        size_t home = goal__sim_slot(m, m->bk[m->tab[j]].time);
        if (((j - home) & mask) >= ((j - k) & mask)) { m->tab[k] = m->tab[j]; k = j; }
    }
    m->tab[k] = GOAL__NONE;
}
/* Keeps the table at most half full: doubles it and puts the live buckets back. */
static goal_status goal__sim_tab_room(goal__sim *m) {
    size_t k, cap = m->captab ? 2u * m->captab : 64u;
    uint32_t *t;
    if (2u * (m->nbh + 1u) <= m->captab) return GOAL_OK;
    if (!(t = (uint32_t *)goal__new(&m->x.a, cap, sizeof(uint32_t)))) return GOAL_ERR_NOMEM;
    memset(t, 0xFF, cap * sizeof(uint32_t));
    goal__free(&m->x.a, m->tab);
    m->tab = t; m->captab = cap;
    for (k = 0; k < m->nbh; k++) goal__sim_tab_put(m, m->bh[k]);
    return GOAL_OK;
}

/* The heap of live buckets, by time (distinct). */
static int goal__sim_earlier(const goal__sim *m, uint32_t a, uint32_t b) { return m->bk[a].time < m->bk[b].time; }
static void goal__sim_bh_push(goal__sim *m, uint32_t id) {
    size_t i;
    for (i = m->nbh++; i > 0 && goal__sim_earlier(m, id, m->bh[(i - 1) / 2]); i = (i - 1) / 2) m->bh[i] = m->bh[(i - 1) / 2];
    m->bh[i] = id;
}
static void goal__sim_bh_pop(goal__sim *m) {
    uint32_t last = m->bh[--m->nbh];
    size_t i = 0, c;
    while ((c = 2 * i + 1) < m->nbh) {
        if (c + 1 < m->nbh && goal__sim_earlier(m, m->bh[c + 1], m->bh[c])) c++;
        if (!goal__sim_earlier(m, m->bh[c], last)) break;
        m->bh[i] = m->bh[c];
        i = c;
    }
    if (m->nbh) m->bh[i] = last;
}

/* The bucket of time t, a new one if there is none. */
static goal_status goal__sim_bucket_of(goal__sim *m, uint64_t t, uint32_t *id) {
    goal__sim_bucket *b;
    if ((*id = m->lastbk) != GOAL__NONE && m->bk[*id].time == t) return GOAL_OK;
    if ((*id = goal__sim_find(m, t)) != GOAL__NONE) { m->lastbk = *id; return GOAL_OK; }
    if (goal__sim_tab_room(m) != GOAL_OK || GOAL__RESERVE(&m->x.a, m->bh, m->capbh, m->nbh + 1u) != GOAL_OK)
        return GOAL_ERR_NOMEM;
    if ((*id = m->freebk) != GOAL__NONE) m->freebk = m->bk[*id].next;
    else {
        if (GOAL__RESERVE(&m->x.a, m->bk, m->capbk, (size_t)m->nbk + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
        *id = m->nbk++;
        memset(&m->bk[*id], 0, sizeof *b);
    }
    b = &m->bk[*id];
    b->time = t;
    goal__sim_tab_put(m, *id);
    goal__sim_bh_push(m, *id);
    m->lastbk = *id;
    return GOAL_OK;
}
static goal_status goal__sim_put(goal__sim *m, uint64_t time, uint32_t seq, int32_t rank, uint32_t ref, int back) {
    goal__sim_run *r;
    uint32_t id;
    if (goal__sim_bucket_of(m, time, &id) != GOAL_OK) return GOAL_ERR_NOMEM;
    r = &m->bk[id].run[back];
    if (GOAL__RESERVE(&m->x.a, r->it, r->cap, r->n + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (r->n > r->head && r->it[r->n - 1].seq > seq) r->unsorted = 1;
    r->it[r->n].seq = seq; r->it[r->n].rank = rank; r->it[r->n++].ref = ref;
    return GOAL_OK;
}
/* Queues a new event: the next number, after everything queued so far. */
static goal_status goal__sim_queue(goal__sim *m, uint64_t time, int32_t rank, uint32_t ref) {
    return goal__sim_put(m, time, m->seq++, rank, ref, 0);
}
/* Puts event ev back for later: its resources are busy until ev.time; it keeps its number.
   LogGOPSim puts every waiting event back, each time the resource turns out busy again, so
   n calcs ready at once on one rank cost n^2/2 puts (10^4 independent calcs took seconds,
   and alltoall_linear's p-1 sends per rank made the simulation O(p^3)). Here the events
   that wait for the same resources of a rank (a class: calc on cpu c; send on cpu c and
   nic n; arrival on cpu c and receive nic n) wait in a heap by number, and only a token
   for the least of them is in the event queue, at the time the class's resources are
   next free. Clocks only grow, so every waiting member of a class wakes at that same time
   and the least number goes first, as in LogGOPSim; the others would only be put back
   again, which changes nothing. A member with a lower number than the token's replaces the
   token (the old one is then stale: its generation no longer matches). */
static uint32_t goal__sim_wait_class(goal__sim *m, int32_t rank, int kind, uint8_t cpu, uint8_t nic) {
    uint32_t k;
    goal__sim_wait *w;
    for (k = m->waits[rank]; k != GOAL__NONE; k = m->wt[k].next)
        if (m->wt[k].kind == kind && m->wt[k].cpu == cpu && m->wt[k].nic == nic) return k;
    if ((k = m->freewt) != GOAL__NONE) m->freewt = m->wt[k].next;
    else {
        if (GOAL__RESERVE(&m->x.a, m->wt, m->capwt, (size_t)m->nwt + 1u) != GOAL_OK) return GOAL__NONE;
        k = m->nwt++;
        memset(&m->wt[k], 0, sizeof m->wt[k]);
    }
    w = &m->wt[k];
    w->rank = rank; w->kind = (uint8_t)kind; w->cpu = cpu; w->nic = nic; w->queued = 0; w->n = 0;
    w->next = m->waits[rank];
    m->waits[rank] = k;
    return k;
}
static goal_status goal__sim_wait_push(goal__sim *m, goal__sim_wait *w, uint32_t seq, uint32_t ref) {
    size_t i;
    if (GOAL__RESERVE(&m->x.a, w->heap, w->cap, w->n + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    for (i = w->n++; i > 0 && w->heap[(i - 1) / 2].seq > seq; i = (i - 1) / 2) w->heap[i] = w->heap[(i - 1) / 2];
    w->heap[i].seq = seq; w->heap[i].rank = 0; w->heap[i].ref = ref;
    return GOAL_OK;
}
static goal__sim_item goal__sim_wait_pop(goal__sim_wait *w) {
    goal__sim_item top = w->heap[0], last = w->heap[--w->n];
    size_t i = 0, c;
    while ((c = 2 * i + 1) < w->n) {
        if (c + 1 < w->n && w->heap[c + 1].seq < w->heap[c].seq) c++;
        if (w->heap[c].seq >= last.seq) break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->n) w->heap[i] = last;
    return top;
}
/* Queues class k's token at time t for its least member. */
static goal_status goal__sim_wait_token(goal__sim *m, uint32_t k, uint64_t t) {
    goal__sim_wait *w = &m->wt[k];
    w->queued = 1; w->seq = w->heap[0].seq; w->gen++;
    return goal__sim_put(m, t, w->seq, -(int32_t)k - 1, w->gen, 1);
}
static goal_status goal__sim_later(goal__sim *m, goal__sim_ev ev, int kind, uint8_t cpu, uint8_t nic) {
    uint32_t k = goal__sim_wait_class(m, ev.rank, kind, cpu, nic);
    goal__sim_wait *w;
    if (k == GOAL__NONE || goal__sim_wait_push(m, &m->wt[k], ev.seq, ev.ref) != GOAL_OK) return GOAL_ERR_NOMEM;
    w = &m->wt[k];
    if (w->queued && ev.seq > w->seq) return GOAL_OK;
    return goal__sim_wait_token(m, k, ev.time);
}
/* When class k's resources are free again: max of its clocks. */
static uint64_t goal__sim_wait_clock(goal__sim *m, const goal__sim_wait *w);
/* A class that has no members left leaves its rank's list (its heap is kept for reuse). */
static void goal__sim_wait_drop(goal__sim *m, uint32_t k) {
    uint32_t *at = &m->waits[m->wt[k].rank];
    while (*at != k) at = &m->wt[*at].next;
    *at = m->wt[k].next;
    m->wt[k].next = m->freewt;
    m->freewt = k;
}

static int goal__sim_by_seq(const void *a, const void *b) {
    uint32_t x = ((const goal__sim_item *)a)->seq, y = ((const goal__sim_item *)b)->seq;
    return x < y ? -1 : x > y;
}
static void goal__sim_run_order(goal__sim_run *r) {
    if (!r->unsorted) return;
    qsort(r->it + r->head, r->n - r->head, sizeof *r->it, goal__sim_by_seq);
    r->unsorted = 0;
}
/* An emptied run keeps a small array, so that worlds with a new time for nearly every
   event do not allocate per event, and gives a large one back: kept, large ones would hold
   every bucket's largest size at once. */
#define GOAL__SIM_RUN_KEEP 64u
static void goal__sim_run_reset(goal__sim *m, goal__sim_run *r) {
    if (r->cap > GOAL__SIM_RUN_KEEP) { goal__free(&m->x.a, r->it); r->it = NULL; r->cap = 0; }
    r->n = r->head = 0;
    r->unsorted = 0;
}
/* The earliest bucket is done: it waits on the free list for another time. */
static void goal__sim_retire(goal__sim *m, uint32_t id) {
    goal__sim_bucket *b = &m->bk[id];
    goal__sim_bh_pop(m);
    goal__sim_tab_del(m, id);
    if (m->lastbk == id) m->lastbk = GOAL__NONE;
    goal__sim_run_reset(m, &b->run[0]);
    goal__sim_run_reset(m, &b->run[1]);
    b->next = m->freebk;
    m->freebk = id;
}
/* Asks for what an event will read of its rank (and message), then, once that is in, for
   its action, then its dependents, then the lines of the actions it releases: in steps, as
   each address is only known from what the step before brought. */
static void goal__sim_prefetch(const void *p, size_t size) {
    GOAL__SIM_PREFETCH(p);
    GOAL__SIM_PREFETCH((const char *)p + size - 1u);
}
static void goal__sim_touch_rank(const goal__sim *m, const goal__sim_item *e) {
    if (e->rank < 0) return;   /* a token (goal__sim_later) */
    goal__sim_prefetch(&m->rk[e->rank], sizeof *m->rk);
    GOAL__SIM_PREFETCH(&m->obase[e->rank]);
    GOAL__SIM_PREFETCH(&m->x.recs[e->rank]);
    if (e->ref & GOAL__DEP_START) goal__sim_prefetch(&m->msg[e->ref & ~GOAL__DEP_START], sizeof *m->msg);
}
static void goal__sim_touch_action(const goal__sim *m, int32_t r, uint32_t i) {
    if (r >= 0) GOAL__SIM_PREFETCH(&m->act[goal__sim_gid(m, r, i)]);
}
/* Only an action with more dependents than its line holds has them elsewhere: its line
   itself was asked for a step before (goal__sim_touch_action). */
static void goal__sim_touch_deps(const goal__sim *m, int32_t r, uint32_t i) {
    const goal__sim_act *a;
    if (r < 0) return;
    a = &m->act[goal__sim_gid(m, r, i)];
    if (a->ndeps > GOAL__SIM_INLINE_DEPS) GOAL__SIM_PREFETCH(m->x.recs[r] + a->deps[0]);
}
/* The lines of the actions that action i of rank r releases (its line and deps are in). */
static void goal__sim_touch_released(const goal__sim *m, int32_t r, uint32_t i) {
    const goal__sim_act *a = &m->act[goal__sim_gid(m, r, i)];
    const uint32_t *d = goal__sim_deps_of(&m->x, r, a);
    uint32_t k, n = goal__sim_ndeps(a);
    for (k = 0; k < n && k < 4u; k++) goal__sim_touch_action(m, r, GOAL__LE32(d[k]) & ~GOAL__DEP_START);
}
/* An arrival's receive is the first posted one, most of the time; a rendezvous message
   completes its send too. deep: 0 the queue entry, 1 the lines, 2 what they release. */
static void goal__sim_touch_posted(const goal__sim *m, const goal__sim_item *e, int deep) {
    const goal__sim_msg *msg;
    uint32_t h;
    if (e->rank < 0 || !(e->ref & GOAL__DEP_START)) return;
    msg = &m->msg[e->ref & ~GOAL__DEP_START];
    if (msg->eager == GOAL__SIM_RENDEZVOUS) {
        if (deep == 1) goal__sim_touch_action(m, msg->src, msg->send);
        if (deep == 2) goal__sim_touch_released(m, msg->src, msg->send);
    }
    if ((h = m->rk[e->rank].posted) == GOAL__NONE) return;
    if (!deep) GOAL__SIM_PREFETCH(&m->q.e[h]);
    else if (deep == 1) goal__sim_touch_action(m, e->rank, m->q.e[h].ref);
    else goal__sim_touch_released(m, e->rank, m->q.e[h].ref);
}
/* The run that comes after r ends is the next bucket's (a heap child of the root): when r
   has few events left, the first of those are asked for too (small buckets: pipelines). */
static void goal__sim_ahead_next(const goal__sim *m, const goal__sim_run *r) {
    const goal__sim_run *n;
    size_t k;
    uint32_t c;
    if (r->n - r->head > GOAL__SIM_AHEAD || m->nbh < 2) return;
    c = m->nbh > 2 && goal__sim_earlier(m, m->bh[2], m->bh[1]) ? m->bh[2] : m->bh[1];
    n = &m->bk[c].run[0];
    for (k = n->head; k < n->n && k < n->head + GOAL__SIM_AHEAD; k++)
        if (!(n->it[k].ref & GOAL__DEP_START)) goal__sim_touch_action(m, n->it[k].rank, n->it[k].ref);
}
static void goal__sim_ahead(const goal__sim *m, const goal__sim_run *r) {
    size_t k = r->head + GOAL__SIM_AHEAD;
    const goal__sim_item *it = r->it;
    goal__sim_ahead_next(m, r);
    if (k + 2u * GOAL__SIM_AHEAD < r->n) goal__sim_touch_rank(m, &it[k + 2u * GOAL__SIM_AHEAD]);
    if (k + GOAL__SIM_AHEAD < r->n) {
        if (it[k + GOAL__SIM_AHEAD].ref & GOAL__DEP_START) goal__sim_touch_posted(m, &it[k + GOAL__SIM_AHEAD], 0);
        else goal__sim_touch_action(m, it[k + GOAL__SIM_AHEAD].rank, it[k + GOAL__SIM_AHEAD].ref);
    }
    if (k < r->n) {
        if (it[k].ref & GOAL__DEP_START) goal__sim_touch_posted(m, &it[k], 1);
        else goal__sim_touch_deps(m, it[k].rank, it[k].ref);
    }
    k -= GOAL__SIM_AHEAD / 2u;
    if (k < r->n && it[k].rank >= 0) {
        if (it[k].ref & GOAL__DEP_START) goal__sim_touch_posted(m, &it[k], 2);
        else goal__sim_touch_released(m, it[k].rank, it[k].ref);
    }
}
/* Takes the next event (the queue is not empty). */
static goal__sim_ev goal__sim_next(goal__sim *m) {
    uint32_t id = m->bh[0];
    goal__sim_bucket *b = &m->bk[id];
    goal__sim_run *r = &b->run[0], *back = &b->run[1];
    goal__sim_ev ev;
    goal__sim_run_order(r);
    goal__sim_run_order(back);
    if (r->head == r->n || (back->head < back->n && back->it[back->head].seq < r->it[r->head].seq)) r = back;
    goal__sim_ahead(m, r);
    ev.time = b->time; ev.seq = r->it[r->head].seq; ev.rank = r->it[r->head].rank; ev.ref = r->it[r->head].ref;
    r->head++;
    if (b->run[0].head == b->run[0].n && back->head == back->n) goal__sim_retire(m, id);
    return ev;
}

/* ---- >>> simulate: readiness ---------------------------------------------------------------- */
/* LogGOPSim queues what became ready after an event rank by rank (ascending), each rank's
   operations ordered send, recv, then local work, keeping readiness order within a kind. */
static void goal__sim_dep(void *ctx, int32_t rank, uint32_t a) {
    goal__sim *m = (goal__sim *)ctx;
    if (--m->act[goal__sim_gid(m, rank, a)].need) return;
    if (GOAL__RESERVE(&m->x.a, m->ready, m->capr, m->nready + 1u) != GOAL_OK) { m->err = GOAL_ERR_NOMEM; return; }
    m->ready[m->nready].rank = rank;
    m->ready[m->nready++].action = a;
}
static const goal__sim_act *goal__sim_act_of(const goal__sim *m, int32_t rank, uint32_t i) { return &m->act[goal__sim_gid(m, rank, i)]; }
/* Action i of rank r started (start = 1) or completed (0): the dependents it releases then,
   found from its decoded line, not from its record. */
static void goal__sim_release_of(goal__sim *m, int32_t r, uint32_t i, int start) {
    const goal__sim_act *a = goal__sim_act_of(m, r, i);
    goal__sim_release_words(goal__sim_deps_of(&m->x, r, a), goal__sim_ndeps(a), r, start, goal__sim_dep, m);
}
static void goal__sim_complete(goal__sim *m, int32_t r, uint32_t i) {
    m->act[goal__sim_gid(m, r, i)].need = GOAL__SIM_DONE;
    m->ndone++;
    goal__sim_release_of(m, r, i, 0);
}
static uint64_t goal__sim_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static int goal__sim_kind_class(goal_kind k) { return k == GOAL_SEND ? 0 : k == GOAL_RECV ? 1 : 2; }
/* The event time and kind order of a newly ready action, from the clocks now. */
static void goal__sim_classify(goal__sim *m, goal__sim_ready *rd) {
    const goal__sim_act *a = goal__sim_act_of(m, rd->rank, rd->action);
    rd->cls = goal__sim_kind_class((goal_kind)a->kind);
    rd->time = *goal__sim_cpu(m, rd->rank, a->cpu);
    if (a->kind == GOAL_SEND) rd->time = goal__sim_max(rd->time, *goal__sim_nic(m, rd->rank, a->nic, 0));
}
/* Queues the actions made ready by one event: by rank (at most two ranks take part in one
   event), then class (send, receive, local), in readiness order within one. */
static goal_status goal__sim_flush(goal__sim *m) {
    size_t k;
    unsigned key, keys = 0;
    int32_t first = 0x7FFFFFFF;
    if (m->err != GOAL_OK) return m->err;
    for (k = 0; k < m->nready; k++) {
        goal__sim_classify(m, &m->ready[k]);
        if (m->ready[k].rank < first) first = m->ready[k].rank;
    }
    for (k = 0; k < m->nready; k++) {   /* key: the class, + 3 on the higher rank */
        if (m->ready[k].rank != first) m->ready[k].cls += 3;
        keys |= 1u << m->ready[k].cls;
    }
    for (key = 0; keys >> key; key++)
        for (k = 0; (keys >> key & 1u) && k < m->nready; k++)
            if ((unsigned)m->ready[k].cls == key && goal__sim_queue(m, m->ready[k].time, m->ready[k].rank, m->ready[k].action) != GOAL_OK)
                return GOAL_ERR_NOMEM;
    m->nready = 0;
    return GOAL_OK;
}

/* ---- >>> simulate: events ------------------------------------------------------------------ */
static void goal__sim_emit(const goal__sim *m, goal_sim_event_kind k, int32_t rank, int32_t action, int32_t peer,
                           int32_t peer_action, int cpu, uint64_t start, uint64_t end, uint64_t size) {
    goal_sim_event e;
    if (!m->event_fn) return;
    e.kind = k; e.rank = rank; e.action = action; e.peer = peer; e.peer_action = peer_action;
    e.cpu = cpu; e.start_ps = start; e.end_ps = end; e.size = size;
    e.start = start / GOAL__SIM_PS; e.end = end / GOAL__SIM_PS;
    m->event_fn(m->user, &e);
}

/* Rank r's CPU went from `from` to `to`: that much less left (goal__sim_scan_left). */
static void goal__sim_spent(goal__sim *m, int32_t r, uint64_t from, uint64_t to) {
    if (m->left) m->left[r] -= to - from < m->left[r] ? to - from : m->left[r];
}
/* calc (costs its cost in ns), exec (C per byte of its buffer, a copy K) and nop (costs 0):
   start and complete at once. */
static goal_status goal__sim_calc(goal__sim *m, const goal__sim_act *a, goal__sim_ev ev) {
    uint64_t cost = a->kind == GOAL_CALC || a->kind == GOAL_EXEC ? a->size : 0u;
    uint64_t *c = goal__sim_cpu(m, ev.rank, a->cpu);
    if (*c > ev.time) { ev.time = *c; return goal__sim_later(m, ev, GOAL__SIM_W_CALC, a->cpu, 0); }
    *c = goal__sim_local(m, ev.time, a->kind, cost, goal__sim_copy(a));
    if (m->over) return goal__sim_overflowed(m, ev.rank, ev.ref);
    goal__sim_spent(m, ev.rank, ev.time, *c);
    goal__sim_emit(m, GOAL_SIM_EV_CALC, ev.rank, (int32_t)ev.ref, -1, -1, a->cpu, ev.time, *c, cost);
    goal__sim_release_of(m, ev.rank, ev.ref, 1);
    goal__sim_complete(m, ev.rank, ev.ref);
    return GOAL_OK;
}

/* A message slot: from the free list, else a new one. */
static goal_status goal__sim_msg_new(goal__sim *m, uint32_t *id) {
    if ((*id = m->freem) != GOAL__NONE) { m->freem = m->msg[*id].send; return GOAL_OK; }
    if (GOAL__RESERVE(&m->x.a, m->msg, m->capm, (size_t)m->nmsg + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    *id = m->nmsg++;
    return GOAL_OK;
}
static void goal__sim_msg_free(goal__sim *m, uint32_t id) { m->msg[id].send = m->freem; m->freem = id; }

static goal_status goal__sim_send(goal__sim *m, const goal__sim_act *a, goal__sim_ev ev) {
    uint64_t *c = goal__sim_cpu(m, ev.rank, a->cpu), *ns = goal__sim_nic(m, ev.rank, a->nic, 0);
    uint64_t t = ev.time;
    goal__sim_price p;
    goal__sim_msg *msg;
    uint32_t id;
    if (goal__sim_max(*c, *ns) > t) { ev.time = goal__sim_max(*c, *ns); return goal__sim_later(m, ev, GOAL__SIM_W_SEND, a->cpu, a->nic); }
    if (m->model == &goal__sim_loggops) goal__sim_price_send(m, &goal__sim_loggops, ev.rank, a->peer, t, a->size, c, ns, &p);
    else goal__sim_price_send(m, m->model, ev.rank, a->peer, t, a->size, c, ns, &p);
    if (m->over) return goal__sim_overflowed(m, ev.rank, ev.ref);
    goal__sim_spent(m, ev.rank, t, *c);
    goal__sim_emit(m, GOAL_SIM_EV_SEND, ev.rank, (int32_t)ev.ref, a->peer, -1, a->cpu, t, *c, a->size);
    if (goal__sim_msg_new(m, &id) != GOAL_OK) return GOAL_ERR_NOMEM;
    msg = &m->msg[id];
    msg->size = a->size; msg->sent = t; msg->src = ev.rank; msg->tag = a->tag; msg->send = ev.ref;
    msg->cpu = a->cpu; msg->nic = a->nic;
    msg->eager = (uint8_t)(!p.eager ? GOAL__SIM_RENDEZVOUS : a->size > m->A ? GOAL__SIM_ACKED : GOAL__SIM_EAGER);
    if (goal__sim_queue(m, p.arrive, a->peer, id | GOAL__DEP_START) != GOAL_OK) return GOAL_ERR_NOMEM;
    goal__sim_release_of(m, ev.rank, ev.ref, 1);
    if (msg->eager == GOAL__SIM_EAGER) goal__sim_complete(m, ev.rank, ev.ref);
    return GOAL_OK;
}

/* A rendezvous send completes when it is matched: at t, and its rank's clocks (cpu c and
   nic n, whichever side's indices LogGOPSim happens to use) move up to t. */
static void goal__sim_rendezvous(goal__sim *m, const goal__sim_msg *msg, uint8_t c, uint8_t n, uint64_t t) {
    uint64_t *cp = goal__sim_cpu(m, msg->src, c), *ns = goal__sim_nic(m, msg->src, n, 0);
    goal__sim_complete(m, msg->src, msg->send);
    *cp = goal__sim_max(*cp, t);
    *ns = goal__sim_max(*ns, t);
}

/* Message id was taken by a receive at t (a rendezvous send has completed): done with, or,
   acknowledged, kept until its send completes D later (its ACKING event, on the sender). */
static goal_status goal__sim_taken(goal__sim *m, uint32_t id, uint64_t t) {
    goal__sim_msg *msg = &m->msg[id];
    if (msg->eager != GOAL__SIM_ACKED) { goal__sim_msg_free(m, id); return GOAL_OK; }
    msg->eager = GOAL__SIM_ACKING;
    return goal__sim_queue(m, goal__sim_add(m, t, m->D), msg->src, id | GOAL__DEP_START);
}
/* An acknowledgement reaches its sender: the send completes, its CPU learns of it now. */
static goal_status goal__sim_acked(goal__sim *m, goal__sim_ev ev) {
    uint32_t id = ev.ref & ~GOAL__DEP_START;
    const goal__sim_msg *msg = &m->msg[id];
    uint64_t *c = goal__sim_cpu(m, msg->src, msg->cpu);
    *c = goal__sim_max(*c, ev.time);
    goal__sim_complete(m, msg->src, msg->send);
    goal__sim_msg_free(m, id);
    return GOAL_OK;
}

/* Posted receives are entered by action index, unexpected messages by message id. */
static void goal__sim_posted_key(void *ctx, int32_t owner, uint32_t ref, int32_t *peer, int32_t *tag) {
    const goal__sim_act *a = goal__sim_act_of((const goal__sim *)ctx, owner, ref);
    *peer = a->peer; *tag = a->tag;
}
static void goal__sim_unexp_key(void *ctx, int32_t owner, uint32_t ref, int32_t *peer, int32_t *tag) {
    const goal__sim_msg *msg = &((const goal__sim *)ctx)->msg[ref];
    (void)owner;
    *peer = msg->src; *tag = msg->tag;
}

/* A receive is posted at its time (no CPU needed) and matches a waiting message if any. */
static goal_status goal__sim_recv(goal__sim *m, const goal__sim_act *a, goal__sim_ev ev) {
    goal__sim_rank *rk = &m->rk[ev.rank];
    uint32_t id;
    goal__sim_release_of(m, ev.rank, ev.ref, 1);
    if ((id = goal__simq_take(&m->q, &m->x.a, &rk->unexp, a->peer, a->tag, goal__sim_unexp_key, m, ev.rank)) == GOAL__NONE)
        return goal__fifo_push(&m->q, &m->x.a, &rk->posted, a->peer, ev.ref, NULL);
    if (!goal__sim_eager(m, a->size)) goal__sim_rendezvous(m, &m->msg[id], a->cpu, a->nic, ev.time);
    goal__sim_complete(m, ev.rank, ev.ref);
    return goal__sim_taken(m, id, ev.time);
}

/* Shared memory: the node a rank is on (one node under LogGOPS). A message inside a node
   copies its bytes through the node's memory when its receive takes it, with the receive
   NIC's gap: the memory takes one copy at a time, so a copy that finds it busy until
   M > t starts M - t later, and the receiver's CPU and NIC (already priced from t) are free
   that much later. 0 and 1 bytes copy nothing and never wait. */
static uint32_t goal__sim_node(const goal__sim *m, int32_t r) { return m->node_size ? (uint32_t)r / m->node_size : 0u; }
static void goal__sim_share(goal__sim *m, int32_t src, int32_t dst, uint64_t t, uint64_t s, uint64_t *cpu, uint64_t *nic) {
    uint64_t *mem = &m->mem[goal__sim_node(m, dst)], wait = *mem > t ? *mem - t : 0, bytes;
    if (goal__sim_node(m, src) != goal__sim_node(m, dst) || !(bytes = m->model->copy(m, src, dst, s))) return;
    *cpu = goal__sim_add(m, *cpu, wait);
    *nic = goal__sim_add(m, *nic, wait);
    *mem = goal__sim_add(m, t + wait, bytes);
}
/* A message arrives: it takes the receiver's CPU and NIC, then a posted receive if one
   accepts it, else it waits in the unexpected queue. */
static goal_status goal__sim_arrive(goal__sim *m, goal__sim_ev ev) {
    uint32_t id = ev.ref & ~GOAL__DEP_START;
    goal__sim_msg msg = m->msg[id];
    uint64_t *c = goal__sim_cpu(m, ev.rank, msg.cpu), *nr = goal__sim_nic(m, ev.rank, msg.nic, 1);
    uint64_t t = ev.time;
    uint32_t e;
    int32_t recv;
    if (msg.eager == GOAL__SIM_ACKING) return goal__sim_acked(m, ev);
    if (goal__sim_max(*c, *nr) > t) { ev.time = goal__sim_max(*c, *nr); return goal__sim_later(m, ev, GOAL__SIM_W_ARRIVE, msg.cpu, msg.nic); }
    if (m->model == &goal__sim_loggops) goal__sim_price_arrive(m, &goal__sim_loggops, msg.src, ev.rank, t, msg.size, c, nr);
    else goal__sim_price_arrive(m, m->model, msg.src, ev.rank, t, msg.size, c, nr);
    if (m->mem) goal__sim_share(m, msg.src, ev.rank, t, msg.size, c, nr);
    if (m->over) return goal__sim_overflowed(m, msg.src, msg.send);
    goal__sim_spent(m, ev.rank, t, *c);
    e = goal__simq_take(&m->q, &m->x.a, &m->rk[ev.rank].posted, msg.src, msg.tag, goal__sim_posted_key, m, ev.rank);
    recv = e != GOAL__NONE ? (int32_t)e : -1;
    goal__sim_emit(m, GOAL_SIM_EV_MSG, msg.src, (int32_t)msg.send, ev.rank, recv, msg.cpu, msg.sent, t, msg.size);
    goal__sim_emit(m, GOAL_SIM_EV_RECV, ev.rank, recv, msg.src, (int32_t)msg.send, msg.cpu, t, *c, msg.size);
    if (e == GOAL__NONE) return goal__fifo_push(&m->q, &m->x.a, &m->rk[ev.rank].unexp, msg.src, id, NULL);
    if (msg.eager == GOAL__SIM_RENDEZVOUS) goal__sim_rendezvous(m, &msg, msg.cpu, msg.nic, t);
    goal__sim_complete(m, ev.rank, (uint32_t)recv);
    return goal__sim_taken(m, id, t);
}

static goal_status goal__sim_event(goal__sim *m, goal__sim_ev ev) {
    const goal__sim_act *a;
    if (ev.ref & GOAL__DEP_START) return goal__sim_arrive(m, ev);
    a = goal__sim_act_of(m, ev.rank, ev.ref);
    if (a->kind == GOAL_SEND) return goal__sim_send(m, a, ev);
    if (a->kind == GOAL_RECV) return goal__sim_recv(m, a, ev);
    return goal__sim_calc(m, a, ev);
}

static uint64_t goal__sim_wait_clock(goal__sim *m, const goal__sim_wait *w) {
    uint64_t c = *goal__sim_cpu(m, w->rank, w->cpu);
    if (w->kind == GOAL__SIM_W_CALC) return c;
    return goal__sim_max(c, *goal__sim_nic(m, w->rank, w->nic, w->kind == GOAL__SIM_W_ARRIVE));
}
/* A class's token came up at ev.time: its least member runs (or waits again), and the
   token moves on to the next member, when the class's resources are free. */
static goal_status goal__sim_token(goal__sim *m, goal__sim_ev ev) {
    uint32_t k = (uint32_t)(-(ev.rank + 1));
    goal__sim_item it;
    goal__sim_ev mine;
    goal_status st;
    if (!m->wt[k].queued || m->wt[k].gen != ev.ref) return GOAL_OK;   /* stale */
    m->wt[k].queued = 0;
    it = goal__sim_wait_pop(&m->wt[k]);
    mine.time = ev.time; mine.seq = it.seq; mine.rank = m->wt[k].rank; mine.ref = it.ref;
    if ((st = goal__sim_event(m, mine)) != GOAL_OK) return st;
    if (m->wt[k].queued) return GOAL_OK;
    if (!m->wt[k].n) { goal__sim_wait_drop(m, k); return GOAL_OK; }
    return goal__sim_wait_token(m, k, goal__sim_max(ev.time, goal__sim_wait_clock(m, &m->wt[k])));
}

/* ---- >>> simulate: set-up, run, result --------------------------------------------------- */
/* stop_ns as the least time in ps that is longer ((double)ps / 1000 > stop_ns, the test
   goal_tune_algo_time's ns would pass; monotone in ps), so that a check per event compares
   integers; 0 (never) for no stop, or when no time in ps is longer. */
static uint64_t goal__sim_stop_ps(double stop_ns) {
    double x = stop_ns * GOAL__SIM_PS;
    uint64_t ps;
    if (!(stop_ns > 0) || !(x < 18446744073709549568.0)) return 0;   /* the largest double below 2^64 */
    ps = (uint64_t)x;
    while (ps && (double)(ps - 1u) / 1000.0 > stop_ns) ps--;
    while (ps != ~(uint64_t)0 && !((double)ps / 1000.0 > stop_ns)) ps++;
    return ps;
}
/* What rank r still has to spend on its CPU for action a: a send's CPU time, and on the
   receiver's CPU the message's arrival; a calc's or exec's cost. */
static void goal__sim_left_add(goal__sim *m, int32_t r, const goal__sim_act *a) {
    if (a->kind == GOAL_SEND && a->peer >= 0 && a->peer < m->x.p) {
        m->left[r] = goal__sim_add(m, m->left[r], m->model->send_cpu(m, r, a->peer, 0, a->size));
        m->left[a->peer] = goal__sim_add(m, m->left[a->peer], m->model->recv_cpu(m, r, a->peer, 0, a->size));
    } else {
        m->left[r] = goal__sim_add(m, m->left[r], goal__sim_local(m, 0, a->kind, a->size, goal__sim_copy(a)));
    }
}
/* Rank r's bytes touched (goal__sim_span): every slot's extent and the scratch (the
   header's, which the hot paths' partial view leaves out). */
static void goal__sim_span_of(goal__sim *m, int32_t r) {
    goal_schedule s;
    uint64_t b;
    uint32_t i;
    goal__simw_full(&m->x, r, &s);
    for (b = s.scratch, i = 0; i < s.nslots; i++) {
        uint64_t x = goal_schedule_slot_size(&s, i);
        b = b > ~(uint64_t)0 - x ? ~(uint64_t)0 : b + x;   /* saturates: it only picks a rate */
    }
    m->span[r] = b;
}
/* Decodes every action into its line, counting sources, the independent actions (the first
   event numbers are theirs) and the cpu and nic indices in use (LogGOPSim keeps 1 + the
   largest), and, when m->left is there, every rank's CPU time to spend (goal__sim_scan_left).
   With the table of costs per byte, every rank's span first. */
static void goal__sim_scan(goal__sim *m) {
    int32_t r;
    m->ncpu = m->nnic = 1;
    for (r = 0; m->span && r < m->x.p; r++) goal__sim_span_of(m, r);   /* a send's price reads its peer's */
    for (r = 0; r < m->x.p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_view(&m->x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal__sim_act *c = &m->act[goal__sim_gid(m, r, i)];
            const uint32_t *w;
            uint32_t ndeps, head = goal__record(&s, i, &w, &ndeps, &c->need);
            goal__decode(head, w + ndeps, &a);
            c->ndeps = (uint8_t)(ndeps > GOAL__SIM_INLINE_DEPS ? GOAL__SIM_INLINE_DEPS + 1u : ndeps);
            if (ndeps > GOAL__SIM_INLINE_DEPS) { c->deps[0] = (uint32_t)(w - s.recs); c->deps[1] = ndeps; }
            else goal__copy32(c->deps, w, ndeps);
            c->size = a.kind == GOAL_CALC ? a.cost : a.buf.size;
            c->peer = a.peer; c->kind = (uint8_t)a.kind; c->cpu = a.cpu; c->nic = a.nic;
            c->tag = a.kind == GOAL_EXEC ? a.op == GOAL_OP_COPY : a.tag;   /* an exec's: a copy (goal__sim_copy) */
            m->seq += c->need == 0;
            if (m->left) goal__sim_left_add(m, r, c);
            if (a.cpu >= m->ncpu) m->ncpu = a.cpu + 1u;
            if (a.nic >= m->nnic) m->nnic = a.nic + 1u;
        }
    }
    m->nmore = (m->ncpu - 1u) + 2u * (m->nnic - 1u);
}
/* A run that may stop, on worlds whose actions all use CPU 0 (outside LogGOPSim's 0-byte
   arithmetic, where a cost can be negative), keeps every rank's CPU time still to spend
   (goal__sim_scan adds it up). A CPU clock only ever moves to a start no earlier than itself
   plus a cost, so clock + left is a lower bound of the rank's time, exact at the end: a
   world whose work alone takes longer than stop_ns stops before its first event (tune's
   losers that are CPU-bound). Without it, a run stops on clocks alone. */
static goal_status goal__sim_scan_left(goal__sim *m) {
    if (m->stop_ps && !m->compat) {
        if (!(m->left = (uint64_t *)goal__new(&m->x.a, (size_t)m->x.p, sizeof(uint64_t)))) return GOAL_ERR_NOMEM;
        memset(m->left, 0, (size_t)m->x.p * sizeof(uint64_t));
    }
    goal__sim_scan(m);
    if (m->left && (m->ncpu > 1 || m->over)) {   /* over: a cost past 2^64 - 1 ps, where the run fails anyway */
        m->over = 0;
        goal__free(&m->x.a, m->left);
        m->left = NULL;
    }
    return GOAL_OK;
}
/* n elements of 32 bytes (an action's line, a rank's clocks) at a multiple of 64 bytes, so
   that none spans two cache lines (malloc gives 16); *mem gets what to free. */
static void *goal__sim_lines(goal__sim *m, size_t n, size_t size, void **mem) {
    *mem = goal__new(&m->x.a, n + 2u, size);
    return *mem ? (char *)*mem + (64u - (size_t)(uintptr_t)*mem % 64u) % 64u : NULL;
}
/* The padding lines that K interleaved lines per rank cost: K minus each shorter rank's count. */
static uint64_t goal__sim_waste(const goal__sim *m, uint32_t K) {
    uint64_t w = 0;
    int32_t r;
    for (r = 0; r < m->x.p; r++) {
        uint32_t n = m->x.base[r + 1] - m->x.base[r];
        if (n < K) w += K - n;
    }
    return w;
}
/* The lines are interleaved: action i < K of every rank is line i * p + r, the actions from
   K on of a rank follow, rank by rank. Many collectives run in rounds, each rank doing its
   i-th action at about the time every other rank does, and events come out of the queue in
   rank order: interleaved, their lines are neighbours, where rank by rank each was a cache
   and TLB miss (a p = 2^16 allreduce runs 1.5-2.8x faster). K is the largest count that
   pads the ranks with fewer actions by at most a quarter of the world's actions (plus one
   line per rank); 0 when none does, which is rank by rank. */
static goal_status goal__sim_layout(goal__sim *m) {
    uint32_t lo = 0, hi = 0, K;
    int32_t r;
    uint64_t at;
    for (r = 0; r < m->x.p; r++)
        if (m->x.base[r + 1] - m->x.base[r] > hi) hi = m->x.base[r + 1] - m->x.base[r];
    while (lo < hi) {   /* the waste grows with K */
        K = lo + (hi - lo + 1) / 2;
        if (goal__sim_waste(m, K) <= (uint64_t)m->x.n / 4u + (uint64_t)m->x.p) lo = K;
        else hi = K - 1;
    }
    m->K = lo;
    if (!(m->obase = (uint32_t *)goal__new(&m->x.a, (size_t)m->x.p, sizeof(uint32_t)))) return GOAL_ERR_NOMEM;
    at = (uint64_t)m->K * (uint64_t)m->x.p;
    for (r = 0; r < m->x.p; r++) {
        uint32_t n = m->x.base[r + 1] - m->x.base[r];
        m->obase[r] = (uint32_t)(at - m->K);
        if (n > m->K) at += n - m->K;
    }
    if (at >= 0x7FFFFFFFu) return GOAL_ERR_LIMIT;   /* as goal__simw_init: ids stay below 2^31 */
    m->nlines = (size_t)at;
    return GOAL_OK;
}
static void goal__sim_desc_why(const goal_sim_desc *d, char *msg);
static goal_status goal__sim_init(goal__sim *m, const goal_world *w, const goal_sim_desc *d) {
    size_t p, r;
    goal_status st = goal__simw_init(&m->x, w, &d->alloc);
    if (st != GOAL_OK) return st;
    p = (size_t)m->x.p;
    if (goal__sim_model_init(m, d) != GOAL_OK) return GOAL_ERR_ARG;
    if (!(d->stop_ns >= 0)) return GOAL_ERR_ARG;
    m->compat = d->loggopsim_compat; m->stop_ps = goal__sim_stop_ps(d->stop_ns); m->event_fn = d->event_fn; m->user = d->user;
    m->q.freel = m->freem = m->freebk = m->lastbk = m->freewt = GOAL__NONE;
    if ((st = goal__sim_layout(m)) != GOAL_OK) return st;
    m->act = (goal__sim_act *)goal__sim_lines(m, m->nlines, sizeof(goal__sim_act), &m->act_mem);
    m->rk = (goal__sim_rank *)goal__sim_lines(m, p, sizeof(goal__sim_rank), &m->rk_mem);
    m->waits = (uint32_t *)goal__new(&m->x.a, p, sizeof(uint32_t));
    if (m->nT && !(m->span = (uint64_t *)goal__new(&m->x.a, p, sizeof(uint64_t)))) return GOAL_ERR_NOMEM;
    if (!m->act || !m->rk || !m->waits || goal__sim_scan_left(m) != GOAL_OK) return GOAL_ERR_NOMEM;
    memset(m->waits, 0xFF, p * sizeof(uint32_t));
    m->more = (uint64_t *)goal__new(&m->x.a, p * m->nmore, sizeof(uint64_t));
    if (!m->more) return GOAL_ERR_NOMEM;
    memset(m->more, 0, p * m->nmore * sizeof(uint64_t));
    if (d->shared_memory) {   /* a memory clock per node (one spare) */
        size_t nodes = m->node_size ? p / m->node_size + 1u : 1u;
        if (!(m->mem = (uint64_t *)goal__new(&m->x.a, nodes, sizeof(uint64_t)))) return GOAL_ERR_NOMEM;
        memset(m->mem, 0, nodes * sizeof(uint64_t));
    }
    for (r = 0; r < p; r++) {
        uint32_t c;
        m->rk[r].cpu = m->F;   /* a call's fixed cost: every CPU is busy until F */
        for (c = 1; c < m->ncpu; c++) *goal__sim_cpu(m, r, (uint8_t)c) = m->F;
        m->rk[r].nics = m->rk[r].nicr = 0;
        m->rk[r].posted = m->rk[r].unexp = GOAL__NONE;
    }
    return GOAL_OK;
}
/* LogGOPSim first queues every rank's independent actions at time 0 (ranks in order, send /
   recv / local within a rank), then runs events. Those come out of the queue first and in
   that very order (time 0 is the least, and their numbers are the lowest), so they run
   straight from the schedules here: the heap never holds them (a million ranks would fill
   it with a million receives). Events they queue are numbered after all of them (the
   scan counted them). Independent actions are those without sources, in index order: the
   schedule's list of them (a rank's events touch only its own actions, so none of its
   sources has been satisfied before its turn). */
static goal_status goal__sim_sweep(goal__sim *m) {
    int32_t r;
    uint32_t iseq = 0;
    goal_status st = GOAL_OK;
    for (r = 0; r < m->x.p && st == GOAL_OK; r++) {
        goal_schedule s;
        uint32_t i;
        size_t k;
        int cls;
        goal__simw_full(&m->x, r, &s);
        if (GOAL__RESERVE(&m->x.a, m->ind, m->capi, s.nindep) != GOAL_OK) return GOAL_ERR_NOMEM;
        for (m->nind = 0; m->nind < s.nindep; m->nind++) {
            i = GOAL__LE32(s.indep[m->nind]);
            m->ind[m->nind].action = i;
            m->ind[m->nind].cls = goal__sim_kind_class((goal_kind)goal__sim_act_of(m, r, i)->kind);
        }
        for (cls = 0; cls < 3; cls++)
            for (k = 0; k < m->nind && st == GOAL_OK; k++) {
                goal__sim_ev ev;
                if (m->ind[k].cls != cls) continue;
                ev.time = 0; ev.seq = iseq++; ev.rank = r; ev.ref = m->ind[k].action;
                st = goal__sim_event(m, ev);
                if (st == GOAL_OK) st = goal__sim_flush(m);
            }
    }
    return st;
}
/* GOAL_PENDING once rank r's time must reach stop_ps: one of its CPU clocks has, or (one
   CPU) its clock plus what it has left to spend. CPU clocks only grow and a rank's time is
   its largest, so the world's time is then longer than stop_ns. */
static goal_status goal__sim_stopped(goal__sim *m, int32_t r) {
    uint32_t c;
    if (m->left) return m->rk[r].cpu >= m->stop_ps || m->left[r] >= m->stop_ps - m->rk[r].cpu ? GOAL_PENDING : GOAL_OK;
    for (c = 0; c < m->ncpu; c++)
        if (*goal__sim_cpu(m, r, (uint8_t)c) >= m->stop_ps) return GOAL_PENDING;
    return GOAL_OK;
}
static goal_status goal__sim_stopped_any(goal__sim *m) {
    int32_t r;
    goal_status st = GOAL_OK;
    for (r = 0; st == GOAL_OK && m->stop_ps && r < m->x.p; r++) st = goal__sim_stopped(m, r);
    return st;
}
static goal_status goal__sim_loop(goal__sim *m) {
    goal_status st = goal__sim_stopped_any(m);
    int32_t r;
    if (st == GOAL_OK) st = goal__sim_sweep(m);
    while (st == GOAL_OK && m->nbh) {
        goal__sim_ev ev = goal__sim_next(m);
        r = ev.rank < 0 ? -1 : ev.rank;   /* a token's rank is read before the token is used up */
        if (r < 0 && m->stop_ps) r = m->wt[-(ev.rank + 1)].rank;
        st = ev.rank < 0 ? goal__sim_token(m, ev) : goal__sim_event(m, ev);
        if (st == GOAL_OK) st = goal__sim_flush(m);
        if (st == GOAL_OK && m->stop_ps) st = goal__sim_stopped(m, r);
    }
    if (st == GOAL_OK) st = goal__sim_stopped_any(m);   /* the sweep, rendezvous senders */
    m->events = m->seq;
    return st;
}
static void goal__sim_free(goal__sim *m) {
    const goal_allocator *a = &m->x.a;
    uint32_t k;
    goal__free(a, m->act_mem); goal__free(a, m->obase); goal__free(a, m->rk_mem); goal__free(a, m->more); goal__free(a, m->msg); goal__free(a, m->left); goal__free(a, m->span);
    goal__free(a, m->mem); goal__free(a, m->ready); goal__free(a, m->ind); goal__free(a, m->bh); goal__free(a, m->tab);
    for (k = 0; k < m->nbk; k++) { goal__free(a, m->bk[k].run[0].it); goal__free(a, m->bk[k].run[1].it); }
    goal__free(a, m->bk);
    for (k = 0; k < m->nwt; k++) goal__free(a, m->wt[k].heap);
    goal__free(a, m->wt); goal__free(a, m->waits);
    goal__fifo_free(&m->q, a);
    goal__simw_free(&m->x);
}

/* Every rank's time: its largest CPU clock. */
static goal_status goal__sim_times(goal__sim *m, goal_sim_run_result *out) {
    int32_t r;
    uint32_t c;
    out->finish = (uint64_t *)goal__new(&m->x.a, (size_t)m->x.p, sizeof(uint64_t));
    out->finish_ps = (uint64_t *)goal__new(&m->x.a, (size_t)m->x.p, sizeof(uint64_t));
    if (!out->finish || !out->finish_ps) return GOAL_ERR_NOMEM;
    for (r = 0; r < m->x.p; r++) {
        uint64_t t = 0;
        for (c = 0; c < m->ncpu; c++) t = goal__sim_max(t, *goal__sim_cpu(m, r, (uint8_t)c));
        out->finish_ps[r] = t;
        out->finish[r] = t / GOAL__SIM_PS;
        if (t > out->max_ps || r == 0) { out->max_ps = t; out->max = t / GOAL__SIM_PS; out->max_rank = r; }
    }
    return GOAL_OK;
}
/* Adds (rank, action, started) to the stuck list when out is not NULL; counts either way. */
static size_t goal__sim_stuck_add(goal_sim_run_result *out, size_t k, int32_t r, uint32_t i, int started) {
    if (out) { out->stuck[k] = goal__sim_ref(r, (int32_t)i); out->stuck_started[k] = (uint8_t)started; }
    return k + 1;
}
/* Lists the actions that never completed (none to look for when all did) and the eager
   sends (completed) whose message nobody took; a rendezvous send in that queue is listed
   once, as an action. */
static size_t goal__sim_stuck_walk(const goal__sim *m, goal_sim_run_result *out) {
    size_t k = 0;
    int32_t r;
    for (r = 0; r < m->x.p; r++) {
        uint32_t i, n = m->ndone < m->x.n ? m->x.base[r + 1] - m->x.base[r] : 0u, t = m->rk[r].unexp;
        for (i = 0; i < n; i++)
            if (goal__sim_act_of(m, r, i)->need != GOAL__SIM_DONE) k = goal__sim_stuck_add(out, k, r, i, goal__sim_act_of(m, r, i)->need == 0);
        if (t == GOAL__NONE) continue;
        do {
            const goal__sim_msg *msg = &m->msg[m->q.e[t].ref];
            t = m->q.e[t].next;
            if (goal__sim_act_of(m, msg->src, msg->send)->need == GOAL__SIM_DONE) k = goal__sim_stuck_add(out, k, msg->src, msg->send, 1);
        } while (t != m->rk[r].unexp);
    }
    return k;
}
static goal_status goal__sim_stuck(const goal__sim *m, goal_sim_run_result *out) {
    size_t n = goal__sim_stuck_walk(m, NULL);
    if (!n) return GOAL_OK;
    out->stuck = (goal_sim_ref *)goal__new(&m->x.a, n, sizeof(goal_sim_ref));
    out->stuck_started = (uint8_t *)goal__new(&m->x.a, n, 1);
    if (!out->stuck || !out->stuck_started) return GOAL_ERR_NOMEM;
    out->nstuck = goal__sim_stuck_walk(m, out);
    return m->ndone < m->x.n ? GOAL_ERR_DEADLOCK : GOAL_ERR_MATCH;
}

goal_status goal_sim_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_run_result *out) {
    goal__sim m;
    goal_sim_desc d;
    goal_status st;
    if (!out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    memset(&m, 0, sizeof m);
    m.overflow = goal__sim_ref(-1, -1);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    st = goal__sim_init(&m, w, &d);
    out->alloc_ = m.x.a;
    out->nranks = m.x.p;
    if (st == GOAL_OK) st = goal__sim_loop(&m);
    out->events = m.events;
    out->overflow = m.overflow;
    if (st == GOAL_OK) st = goal__sim_stuck(&m, out);
    if (st == GOAL_OK) st = goal__sim_times(&m, out);
    goal__sim_free(&m);
    if (st != GOAL_OK && st != GOAL_ERR_DEADLOCK && st != GOAL_ERR_MATCH) {
        goal_sim_run_free(out);
        out->overflow = m.overflow;
    }
    if (st == GOAL_ERR_ARG) goal__sim_desc_why(&d, out->msg);
    return st;
}
void goal_sim_run_free(goal_sim_run_result *r) {
    goal_allocator a;
    if (!r) return;
    a = goal__allocator(&r->alloc_);
    goal__free(&a, r->finish); goal__free(&a, r->finish_ps); goal__free(&a, r->stuck); goal__free(&a, r->stuck_started);
    memset(r, 0, sizeof *r);
}

#ifndef GOAL_SIM_NO_PICTURES   /* DRAW: a program that draws nothing may leave the pictures out */
/* ---- >>> draw: buffered output --------------------------------------------------------------- */
typedef struct goal__sim_out {
    goal_write_fn fn;
    void *user;
    goal_status st;             /* GOAL_ERR_IO once fn failed; later writes are dropped */
    size_t n;
    char buf[8192];
} goal__sim_out;

static void goal__sim_out_flush(goal__sim_out *o) {
    if (o->st == GOAL_OK && o->n && o->fn(o->user, o->buf, o->n)) o->st = GOAL_ERR_IO;
    o->n = 0;
}
static void goal__sim_out_printf(goal__sim_out *o, const char *fmt, ...) {
    va_list ap;
    int k;
    if (o->n > sizeof o->buf - 512) goal__sim_out_flush(o);
    va_start(ap, fmt);
    k = vsnprintf(o->buf + o->n, sizeof o->buf - o->n, fmt, ap);
    va_end(ap);
    if (k > 0) o->n += (size_t)k < sizeof o->buf - o->n ? (size_t)k : sizeof o->buf - o->n - 1;
}
static void goal__sim_out_init(goal__sim_out *o, goal_write_fn fn, void *user) { o->fn = fn; o->user = user; o->st = GOAL_OK; o->n = 0; }

static const char *goal__sim_kind_name(goal_kind k) {
    static const char *const names[] = {"nop", "send", "recv", "exec", "calc"};
    return (unsigned)k < 5u ? names[k] : "?";
}
/* "l3: send 8 B to 2" (tag when not 0): how pictures name an action. */
static void goal__sim_caption(const goal_schedule *s, uint32_t i, const char *sep, char *buf, size_t len) {
    goal_action a;
    char lb[GOAL_LABEL_MAX];
    size_t k;
    goal_schedule_action(s, i, &a);
    k = (size_t)snprintf(buf, len, "%s:%s%s", goal_schedule_label(s, i, lb), sep, goal__sim_kind_name(a.kind));
    if (k >= len) return;
    if (a.kind == GOAL_SEND || a.kind == GOAL_RECV) {
        k += (size_t)snprintf(buf + k, len - k, " %llu B %s ", (unsigned long long)a.buf.size, a.kind == GOAL_SEND ? "to" : "from");
        if (k < len) k += (size_t)(a.peer == GOAL_ANY ? snprintf(buf + k, len - k, "any") : snprintf(buf + k, len - k, "%ld", (long)a.peer));
        if (k < len && a.tag) snprintf(buf + k, len - k, " tag %ld", (long)a.tag);
    } else if (a.kind == GOAL_CALC) snprintf(buf + k, len - k, " %llu", (unsigned long long)a.cost);
    else if (a.kind == GOAL_EXEC) snprintf(buf + k, len - k, " %s %llu B", goal_op_name(a.op) ? goal_op_name(a.op) : "?", (unsigned long long)a.buf.size);
}
const char *goal_sim_action_text(const goal_world *w, int32_t rank, int32_t action, char *buf, size_t len) {
    goal_schedule s;
    if (!buf || !len) return buf;
    if (!w || action < 0 || goal_world_schedule(w, rank, &s) != GOAL_OK || (uint32_t)action >= s.nactions) snprintf(buf, len, "?");
    else goal__sim_caption(&s, (uint32_t)action, " ", buf, len);
    return buf;
}
/* Fill colours by kind (nop send recv exec calc), shared by DOT and SVG. */
static const char *goal__sim_colour(goal_kind k) {
    static const char *const c[] = {"#d9d9d9", "#9ecae1", "#a1d99b", "#fdae6b", "#fdd0a2"};
    return (unsigned)k < 5u ? c[k] : "#ffffff";
}

/* ---- >>> draw: DOT ----------------------------------------------------------------------------- */
/* One rank: its DAG top to bottom. All ranks: a grid with positions pinned (layout=neato),
   so ranks stay in order, one band each, top to bottom. An action's column is its longest
   chain of dependencies and messages from the start, so every edge points right; actions
   of one rank in one column stack inside its band. */
typedef struct goal__dot {
    goal__sim_out o;
    goal_allocator a;
    int fold;
    uint32_t *stamp, *stack;    /* per action, the walk that saw it last; the walk's stack */
    size_t cap, capstack;
    goal__simw x;               /* all ranks: */
    uint32_t *col, *row;        /* per global action: column, row in the grid */
    uint32_t *band;             /* p + 1: first row of each rank */
} goal__dot;

static int goal__dot_folded(const goal__dot *g, const goal_schedule *s, uint32_t i) {
    goal_action a;
    if (!g->fold) return 0;
    goal_schedule_action(s, i, &a);
    return a.kind == GOAL_NOP || (a.kind == GOAL_EXEC && a.op == GOAL_OP_COPY);
}
static void goal__dot_edge(goal__dot *g, int32_t r, uint32_t from, uint32_t to, int dashed) {
    goal__sim_out_printf(&g->o, "  r%ld_a%lu -> r%ld_a%lu%s;\n", (long)r, (unsigned long)from, (long)r, (unsigned long)to,
                         dashed ? " [style=dashed]" : "");
}
/* The edges out of action u, walking through folded actions (an edge is dashed when a part of
   its walk was). Stack entries carry the dashed bit in GOAL__DEP_START. */
static void goal__dot_edges_from(goal__dot *g, const goal_schedule *s, uint32_t u) {
    size_t top = 0;
    g->stack[top++] = u;
    g->stamp[u] = u + 1u;
    while (top) {
        uint32_t v = g->stack[--top], dashed = v & GOAL__DEP_START, k, nd;
        const uint32_t *d;
        nd = goal_schedule_deps(s, v & ~GOAL__DEP_START, &d);
        for (k = 0; k < nd; k++) {
            uint32_t t = d[k] & ~GOAL__DEP_START, dd = dashed | (d[k] & GOAL__DEP_START);
            if (g->stamp[t] == u + 1u) continue;
            g->stamp[t] = u + 1u;
            if (goal__dot_folded(g, s, t)) g->stack[top++] = t | dd;
            else goal__dot_edge(g, s->rank, u, t, dd != 0);
        }
    }
}
#define GOAL__DOT_DX 1.9            /* inches between columns */
#define GOAL__DOT_DY 0.62           /* inches between rows */
/* Inches down to row `row` of rank r's band: rows, plus a gap above each band. */
static double goal__dot_y(const goal__dot *g, int32_t r, double row) { (void)g; return GOAL__DOT_DY * row + 0.3 * r; }
static void goal__dot_node(goal__dot *g, const goal_schedule *s, uint32_t i) {
    goal_action a;
    char cap[200];
    goal_schedule_action(s, i, &a);
    goal__sim_caption(s, i, "\\n", cap, sizeof cap);
    goal__sim_out_printf(&g->o, "  r%ld_a%lu [label=\"%s\", fillcolor=\"%s\"", (long)s->rank, (unsigned long)i, cap, goal__sim_colour(a.kind));
    if (g->col) {
        uint32_t id = g->x.base[s->rank] + i;
        goal__sim_out_printf(&g->o, ", pos=\"%.2f,%.2f!\"", GOAL__DOT_DX * g->col[id], -goal__dot_y(g, s->rank, g->row[id]));
    }
    goal__sim_out_printf(&g->o, "];\n");
}
static goal_status goal__dot_rank(goal__dot *g, const goal_schedule *s) {
    uint32_t i;
    if (GOAL__RESERVE(&g->a, g->stamp, g->cap, (size_t)s->nactions + 1u) != GOAL_OK ||
        GOAL__RESERVE(&g->a, g->stack, g->capstack, (size_t)s->nactions + 1u) != GOAL_OK) return GOAL_ERR_NOMEM;
    if (g->col)   /* the rank's name, left of its band */
        goal__sim_out_printf(&g->o, "  r%ld_h [label=\"rank %ld\", shape=plaintext, style=\"\", fontsize=13, pos=\"%.2f,%.2f!\"];\n",
                             (long)s->rank, (long)s->rank, -GOAL__DOT_DX * 0.8,
                             -goal__dot_y(g, s->rank, g->band[s->rank] + (g->band[s->rank + 1] - g->band[s->rank] - 1) * 0.5));
    for (i = 0; i < s->nactions; i++) {
        g->stamp[i] = 0;
        if (!goal__dot_folded(g, s, i)) goal__dot_node(g, s, i);
    }
    for (i = 0; i < s->nactions; i++) if (!goal__dot_folded(g, s, i)) goal__dot_edges_from(g, s, i);
    return GOAL_OK;
}
/* Columns: longest paths over dependencies and matched messages (Kahn's order; actions on a
   cycle keep column 0). peer: per send, its receive's global id or GOAL__NONE. */
static goal_status goal__dot_columns(goal__dot *g, const uint32_t *peer, uint32_t *queue) {
    uint32_t *indeg = g->row, head = 0, tail = 0, u, n = g->x.n;   /* row is free until goal__dot_rows */
    int32_t r;
    for (u = 0; u < n; u++) { g->col[u] = 0; indeg[u] = 0; }
    for (r = 0; r < g->x.p; r++) {
        goal_schedule s;
        uint32_t i;
        goal__simw_view(&g->x, r, &s);
        for (i = 0; i < s.nactions; i++) indeg[g->x.base[r] + i] += goal_schedule_nsrc(&s, i);
    }
    for (u = 0; u < n; u++) if (peer[u] != GOAL__NONE) indeg[peer[u]]++;
    for (u = 0; u < n; u++) if (!indeg[u]) queue[tail++] = u;
    while (head < tail) {
        goal_schedule s;
        const uint32_t *d;
        uint32_t k, nd, step;
        int32_t rr;
        u = queue[head++];
        rr = goal__simw_rank(&g->x, u);
        goal__simw_view(&g->x, rr, &s);
        nd = goal_schedule_deps(&s, u - g->x.base[rr], &d);
        step = goal__dot_folded(g, &s, u - g->x.base[rr]) ? 0u : 1u;   /* a folded action takes no column */
        for (k = 0; k <= nd; k++) {
            uint32_t t = k < nd ? g->x.base[rr] + (d[k] & ~GOAL__DEP_START) : peer[u];
            if (t == GOAL__NONE) continue;
            if (g->col[t] < g->col[u] + step) g->col[t] = g->col[u] + step;
            if (!--indeg[t]) queue[tail++] = t;
        }
    }
    return GOAL_OK;
}
/* Rows: each rank's band is as high as its fullest column. count: per column, reset through
   the rank's own actions. */
static void goal__dot_rows(goal__dot *g, uint32_t *count) {
    int32_t r;
    uint32_t i, top = 0;
    for (i = 0; i < g->x.n; i++) count[i] = 0;
    for (r = 0; r < g->x.p; r++) {
        uint32_t b = g->x.base[r], e = g->x.base[r + 1], h = 1;
        g->band[r] = top;
        for (i = b; i < e; i++) { g->row[i] = top + count[g->col[i]]++; if (count[g->col[i]] > h) h = count[g->col[i]]; }
        for (i = b; i < e; i++) count[g->col[i]] = 0;
        top += h;
    }
    g->band[g->x.p] = top;
}
/* Matched pairs (goal_sim_check): the grid's message edges, and into peer (send -> recv). */
static goal_status goal__dot_pairs(goal__dot *g, const goal_world *w, goal_sim_check_result *r) {
    goal_sim_check_desc d;
    goal_status st;
    memset(&d, 0, sizeof d);
    d.alloc = g->a;
    st = goal_sim_check(w, &d, r);
    return st == GOAL_ERR_MATCH ? GOAL_OK : st;
}
static void goal__dot_messages(goal__dot *g, const goal_sim_check_result *r) {
    size_t k;
    for (k = 0; k < r->npairs; k++)
        goal__sim_out_printf(&g->o, "  r%ld_a%ld -> r%ld_a%ld [color=\"#d62728\", penwidth=1.5];\n", (long)r->pairs[k].send.rank,
                             (long)r->pairs[k].send.action, (long)r->pairs[k].recv.rank, (long)r->pairs[k].recv.action);
}
/* The grid of all ranks from the matched pairs. */
static goal_status goal__dot_grid(goal__dot *g, const goal_world *w, const goal_sim_check_result *r) {
    uint32_t *peer, *tmp, n;
    size_t k;
    goal_status st = goal__simw_init(&g->x, w, &g->a);
    if (st != GOAL_OK) return st;
    n = g->x.n;
    g->col = (uint32_t *)goal__new(&g->a, (size_t)n + 1u, sizeof(uint32_t));
    g->row = (uint32_t *)goal__new(&g->a, (size_t)n + 1u, sizeof(uint32_t));
    g->band = (uint32_t *)goal__new(&g->a, (size_t)g->x.p + 1u, sizeof(uint32_t));
    peer = (uint32_t *)goal__new(&g->a, (size_t)n + 1u, sizeof(uint32_t));
    tmp = (uint32_t *)goal__new(&g->a, (size_t)n + 1u, sizeof(uint32_t));
    if (!g->col || !g->row || !g->band || !peer || !tmp) st = GOAL_ERR_NOMEM;
    for (k = 0; st == GOAL_OK && k < n; k++) peer[k] = GOAL__NONE;
    for (k = 0; st == GOAL_OK && k < r->npairs; k++)
        peer[g->x.base[r->pairs[k].send.rank] + (uint32_t)r->pairs[k].send.action] = g->x.base[r->pairs[k].recv.rank] + (uint32_t)r->pairs[k].recv.action;
    if (st == GOAL_OK) st = goal__dot_columns(g, peer, tmp);
    if (st == GOAL_OK) goal__dot_rows(g, tmp);
    goal__free(&g->a, peer); goal__free(&g->a, tmp);
    return st;
}
static void goal__dot_head(goal__sim_out *o, int all, int fold) {
    goal__sim_out_printf(o, "digraph goal {\n  %s\n"
                         "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
                         "  edge [arrowsize=0.7];\n"
                         "  labelloc=b; fontname=\"Helvetica\"; fontsize=12;\n"
                         "  label=\"solid edge: requires (after it completes)   dashed: irequires (after it starts)%s\\n"
                         "blue: send   green: recv   orange: exec / calc   grey: nop%s\";\n",
                         all ? "layout=neato; splines=true; overlap=true;   /* positions are pinned: ranks in order */" : "rankdir=TB;",
                         all ? "   red: message (a send to the recv it matches)" : "", fold ? "   (nops and local copies folded)" : "");
}
static void goal__dot_free(goal__dot *g) {
    goal__free(&g->a, g->stamp); goal__free(&g->a, g->stack);
    goal__free(&g->a, g->col); goal__free(&g->a, g->row); goal__free(&g->a, g->band);
    goal__simw_free(&g->x);
}
goal_status goal_sim_write_dot(const goal_world *w, int rank, const goal_sim_dot_desc *desc, goal_write_fn fn, void *user) {
    goal__dot g;
    goal_schedule s;
    goal_sim_check_result pairs;
    goal_status st = GOAL_OK;
    int r, p;
    if (!w || !fn || rank < -1 || rank >= goal_world_nranks(w)) return GOAL_ERR_ARG;
    memset(&g, 0, sizeof g);
    memset(&pairs, 0, sizeof pairs);
    g.a = goal__allocator(desc ? &desc->alloc : NULL);
    g.fold = desc && desc->fold;
    p = goal_world_nranks(w);
    if (rank < 0 && (st = goal__dot_pairs(&g, w, &pairs)) == GOAL_OK) st = goal__dot_grid(&g, w, &pairs);
    goal__sim_out_init(&g.o, fn, user);
    if (st == GOAL_OK) goal__dot_head(&g.o, rank < 0, g.fold);
    for (r = rank < 0 ? 0 : rank; st == GOAL_OK && r < (rank < 0 ? p : rank + 1); r++) {
        if (goal_world_schedule(w, r, &s) != GOAL_OK) { memset(&s, 0, sizeof s); s.rank = r; }
        st = goal__dot_rank(&g, &s);
    }
    if (st == GOAL_OK && rank < 0) goal__dot_messages(&g, &pairs);
    if (st == GOAL_OK) goal__sim_out_printf(&g.o, "}\n");
    goal__sim_out_flush(&g.o);
    goal_sim_check_free(&pairs);
    goal__dot_free(&g);
    return st != GOAL_OK ? st : g.o.st;
}

/* ---- >>> timeline: events, critical path, rounds ------------------------------------------- */
/* The events, collected while simulating (an event_fn). */
typedef struct goal__tl {
    goal_sim_timeline *t;
    size_t cap;
    goal_status st;
} goal__tl;
static void goal__tl_add(void *user, const goal_sim_event *e) {
    goal__tl *c = (goal__tl *)user;
    goal_sim_timeline *t = c->t;
    if (c->st != GOAL_OK) return;
    if (GOAL__RESERVE(&t->alloc_, t->events, c->cap, t->nevents + 1u) != GOAL_OK) { c->st = GOAL_ERR_NOMEM; return; }
    t->events[t->nevents++] = *e;
}

/* What the critical path walk needs: per action (global id) the event that completed it,
   per event the previous one on its rank's cpu, per action the latest-ending event among its
   requires-sources. */
typedef struct goal__cp {
    goal__simw x;
    const goal_sim_event *ev;
    size_t n;
    size_t *done;              /* x.n: the action's CALC / SEND / RECV event, or n */
    size_t *src;               /* x.n: latest-ending requires-source event, or n */
    size_t *prev;              /* n: previous event on the same rank and cpu, or n */
} goal__cp;

static int goal__cp_owns(const goal_sim_event *e) { return e->kind != GOAL_SIM_EV_MSG && e->action >= 0; }
/* Event k completes its action: its requires-dependents learn of it. */
static void goal__cp_sources(goal__cp *c, size_t k) {
    const goal_sim_event *e = &c->ev[k];
    goal_schedule s;
    const uint32_t *d;
    uint32_t j, nd;
    goal__simw_view(&c->x, e->rank, &s);
    c->done[c->x.base[e->rank] + (uint32_t)e->action] = k;
    nd = goal_schedule_deps(&s, (uint32_t)e->action, &d);
    for (j = 0; j < nd; j++) {
        size_t *b = &c->src[c->x.base[e->rank] + (d[j] & ~GOAL__DEP_START)];
        if (d[j] & GOAL__DEP_START) continue;     /* irequires waits for a start, not an end */
        if (*b == c->n || c->ev[*b].end <= e->end) *b = k;
    }
}
static goal_status goal__cp_init(goal__cp *c, const goal_world *w, const goal_sim_timeline *t) {
    size_t k, *last;
    uint32_t i, ncpu = 1;
    goal_status st = goal__simw_init(&c->x, w, &t->alloc_);
    c->ev = t->events; c->n = t->nevents;
    if (st != GOAL_OK) return st;
    for (k = 0; k < c->n; k++) if ((uint32_t)c->ev[k].cpu >= ncpu) ncpu = (uint32_t)c->ev[k].cpu + 1u;
    c->done = (size_t *)goal__new(&c->x.a, (size_t)c->x.n + 1u, sizeof(size_t));
    c->src = (size_t *)goal__new(&c->x.a, (size_t)c->x.n + 1u, sizeof(size_t));
    c->prev = (size_t *)goal__new(&c->x.a, c->n + 1u, sizeof(size_t));
    last = (size_t *)goal__new(&c->x.a, (size_t)c->x.p * ncpu + 1u, sizeof(size_t));
    if (!c->done || !c->src || !c->prev || !last) { goal__free(&c->x.a, last); return GOAL_ERR_NOMEM; }
    for (i = 0; i < c->x.n; i++) c->done[i] = c->src[i] = c->n;
    for (k = 0; k < (size_t)c->x.p * ncpu; k++) last[k] = c->n;
    for (k = 0; k < c->n; k++) {
        const goal_sim_event *e = &c->ev[k];
        if (e->kind == GOAL_SIM_EV_MSG) { c->prev[k] = c->n; continue; }
        c->prev[k] = last[(size_t)e->rank * ncpu + (uint32_t)e->cpu];
        last[(size_t)e->rank * ncpu + (uint32_t)e->cpu] = k;
        if (goal__cp_owns(e)) goal__cp_sources(c, k);
    }
    goal__free(&c->x.a, last);
    return GOAL_OK;
}
static void goal__cp_free(goal__cp *c) {
    goal__free(&c->x.a, c->done); goal__free(&c->x.a, c->src); goal__free(&c->x.a, c->prev);
    goal__simw_free(&c->x);
}
/* The candidate that ended last, no later than t; a later candidate wins only by ending
   later, so the order of the calls is the order of preference on ties. */
static void goal__cp_pick(const goal__cp *c, size_t cand, uint64_t t, size_t *best) {
    if (cand >= c->n || c->ev[cand].end > t) return;
    if (*best == c->n || c->ev[cand].end > c->ev[*best].end) *best = cand;
}
/* What event k waited for: a message, the SEND that started it; a receive overhead, the
   cpu's previous work or else its message (emitted just before it); other work, the cpu's
   previous work or else the requires-source that ended last. n when nothing. */
static size_t goal__cp_before(const goal__cp *c, size_t k) {
    const goal_sim_event *e = &c->ev[k];
    size_t best = c->n;
    if (e->kind == GOAL_SIM_EV_MSG) return c->done[c->x.base[e->rank] + (uint32_t)e->action];
    goal__cp_pick(c, c->prev[k], e->start, &best);
    if (e->kind == GOAL_SIM_EV_RECV) {
        if (k > 0) goal__cp_pick(c, k - 1u, e->start, &best);
    } else if (e->action >= 0) goal__cp_pick(c, c->src[c->x.base[e->rank] + (uint32_t)e->action], e->start, &best);
    return best < k ? best : c->n;   /* strictly earlier: the walk ends */
}
/* The event that ends the run: the one ending last on the rank that finishes last (the
   latest of equals; a rendezvous can move a clock past every event of its rank). */
static size_t goal__cp_last(const goal_sim_timeline *t) {
    size_t k, best = t->nevents;
    for (k = 0; k < t->nevents; k++) {
        const goal_sim_event *e = &t->events[k];
        if (e->kind == GOAL_SIM_EV_MSG || e->rank != t->result.max_rank) continue;
        if (best == t->nevents || e->end >= t->events[best].end) best = k;
    }
    return best;
}
/* The critical path: from the event that ends the run back along what each waited for (a
   chain of strictly earlier events, so the walk ends), then reversed. */
static goal_status goal__tl_critical(goal_sim_timeline *t, const goal_world *w) {
    goal__cp c;
    size_t k, m = 0, i;
    goal_status st;
    memset(&c, 0, sizeof c);
    if ((st = goal__cp_init(&c, w, t)) != GOAL_OK) { goal__cp_free(&c); return st; }
    for (k = goal__cp_last(t); k < t->nevents; k = goal__cp_before(&c, k)) m++;
    t->critical = (size_t *)goal__new(&t->alloc_, m + 1u, sizeof(size_t));
    if (!t->critical) { goal__cp_free(&c); return GOAL_ERR_NOMEM; }
    for (k = goal__cp_last(t), i = m; k < t->nevents; k = goal__cp_before(&c, k)) t->critical[--i] = k;
    t->ncritical = m;
    goal__cp_free(&c);
    return GOAL_OK;
}
/* Rounds: a rank's level is the highest round it has sent or received so far; a send is
   one round above its rank's level. So a binomial tree's k-th step is round k, and a
   dissemination's k-th exchange round k. */
static goal_status goal__tl_rounds(goal_sim_timeline *t, const goal_world *w) {
    goal__simw x;
    uint32_t *level, *sent;
    size_t k;
    goal_status st = goal__simw_init(&x, w, &t->alloc_);
    t->round = (uint32_t *)goal__new(&t->alloc_, t->nevents + 1u, sizeof(uint32_t));
    level = (uint32_t *)goal__new(&t->alloc_, (size_t)x.p + 1u, sizeof(uint32_t));
    sent = (uint32_t *)goal__new(&t->alloc_, (size_t)x.n + 1u, sizeof(uint32_t));
    if (st == GOAL_OK && (!t->round || !level || !sent)) st = GOAL_ERR_NOMEM;
    if (st == GOAL_OK) memset(level, 0, (size_t)x.p * sizeof(uint32_t));
    for (k = 0; st == GOAL_OK && k < t->nevents; k++) {
        const goal_sim_event *e = &t->events[k];
        uint32_t *r = &t->round[k];
        if (e->kind == GOAL_SIM_EV_SEND) *r = sent[x.base[e->rank] + (uint32_t)e->action] = level[e->rank] += 1u;
        else if (e->kind == GOAL_SIM_EV_MSG) *r = sent[x.base[e->rank] + (uint32_t)e->action];
        else if (e->kind == GOAL_SIM_EV_RECV) {
            *r = k > 0 ? t->round[k - 1u] : 0u;    /* its MSG event comes just before it */
            if (*r > level[e->rank]) level[e->rank] = *r;
        } else *r = 0;
    }
    goal__free(&t->alloc_, level); goal__free(&t->alloc_, sent);
    goal__simw_free(&x);
    return st;
}
/* Segments: per send action, its ordinal among the rank's sends to the same peer (counters
   per peer, reset through the list of peers touched, so a rank costs its actions, not p). */
static goal_status goal__tl_segments(goal_sim_timeline *t, const goal_world *w) {
    goal__simw x;
    uint32_t *count, *ord;
    int32_t *touched, r;
    size_t k;
    goal_status st = goal__simw_init(&x, w, &t->alloc_);
    t->segment = (uint32_t *)goal__new(&t->alloc_, t->nevents + 1u, sizeof(uint32_t));
    count = (uint32_t *)goal__new(&t->alloc_, (size_t)x.p + 1u, sizeof(uint32_t));
    touched = (int32_t *)goal__new(&t->alloc_, (size_t)x.n + 1u, sizeof(int32_t));
    ord = (uint32_t *)goal__new(&t->alloc_, (size_t)x.n + 1u, sizeof(uint32_t));
    if (st == GOAL_OK && (!t->segment || !count || !touched || !ord)) st = GOAL_ERR_NOMEM;
    if (st == GOAL_OK) memset(count, 0, (size_t)x.p * sizeof(uint32_t));
    for (r = 0; st == GOAL_OK && r < x.p; r++) {
        goal_schedule s;
        uint32_t i, nt = 0;
        goal__simw_view(&x, r, &s);
        for (i = 0; i < s.nactions; i++) {
            goal_action a;
            goal_schedule_action(&s, i, &a);
            if (a.kind != GOAL_SEND || a.peer < 0 || a.peer >= x.p) continue;
            if (!count[a.peer]) touched[nt++] = a.peer;
            ord[x.base[r] + i] = count[a.peer]++;
        }
        while (nt) count[touched[--nt]] = 0;
    }
    for (k = 0; st == GOAL_OK && k < t->nevents; k++) {
        const goal_sim_event *e = &t->events[k];
        int sends = e->kind == GOAL_SIM_EV_SEND || e->kind == GOAL_SIM_EV_MSG;
        t->segment[k] = sends && e->action >= 0 ? ord[x.base[e->rank] + (uint32_t)e->action] : 0u;
    }
    goal__free(&t->alloc_, count); goal__free(&t->alloc_, touched); goal__free(&t->alloc_, ord);
    goal__simw_free(&x);
    return st;
}
goal_status goal_sim_timeline_run(const goal_world *w, const goal_sim_desc *desc, goal_sim_timeline *out) {
    goal_sim_desc d;
    goal__tl c;
    goal_status st;
    if (!out) return GOAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    out->alloc_ = goal__allocator(&d.alloc);
    c.t = out; c.cap = 0; c.st = GOAL_OK;
    d.event_fn = goal__tl_add; d.user = &c;
    st = goal_sim_run(w, &d, &out->result);
    if (st == GOAL_OK) st = c.st;
    if (st == GOAL_OK) st = goal__tl_rounds(out, w);
    if (st == GOAL_OK) st = goal__tl_segments(out, w);
    if (st == GOAL_OK) st = goal__tl_critical(out, w);
    if (st != GOAL_OK) {   /* keep only what a deadlock report needs */
        goal_sim_run_result keep = out->result;
        memset(&out->result, 0, sizeof out->result);
        goal_sim_timeline_free(out);
        out->result = keep;
    }
    return st;
}
void goal_sim_timeline_free(goal_sim_timeline *t) {
    goal_allocator a;
    if (!t) return;
    a = goal__allocator(&t->alloc_);
    goal__free(&a, t->events); goal__free(&a, t->round); goal__free(&a, t->segment); goal__free(&a, t->critical);
    goal_sim_run_free(&t->result);
    memset(t, 0, sizeof *t);
}

/* ---- >>> draw: timelines --------------------------------------------------------------------- */
/* The caption of the action an event is about ("recv (unexpected)" when none yet). */
static void goal__tl_caption(const goal_world *w, const goal_sim_event *e, char *buf, size_t len) {
    goal_schedule s;
    if (e->action < 0 || goal_world_schedule(w, e->rank, &s) != GOAL_OK) {
        snprintf(buf, len, "message from %ld arrives (no recv posted yet)", (long)e->peer);
        return;
    }
    goal__sim_caption(&s, (uint32_t)e->action, " ", buf, len);
}
static const char *goal__tl_cat(goal_sim_event_kind k) {
    return k == GOAL_SIM_EV_SEND ? "send" : k == GOAL_SIM_EV_RECV ? "recv" : k == GOAL_SIM_EV_CALC ? "calc" : "message";
}

/* A time in ps as microseconds for Chrome: three decimals (ns) as always, six when the
   time has a fraction of a ns, without its trailing zeros. */
static const char *goal__trace_us(uint64_t ps, char *buf) {
    unsigned long long us = ps / 1000000u, frac = ps % 1000000u;
    size_t n;
    if (frac % 1000u == 0) { snprintf(buf, 32, "%llu.%03llu", us, frac / 1000u); return buf; }
    n = (size_t)snprintf(buf, 32, "%llu.%06llu", us, frac);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = 0;
    return buf;
}
static void goal__trace_event(goal__sim_out *o, const goal_world *w, const goal_sim_event *e, size_t id) {
    char cap[200], ts[32], te[32];
    if (e->kind == GOAL_SIM_EV_MSG) {
        goal__sim_out_printf(o, ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":%lu,\"pid\":%ld,\"tid\":%d,\"ts\":%s}",
                         (unsigned long)id, (long)e->rank, e->cpu, goal__trace_us(e->start_ps, ts));
        goal__sim_out_printf(o, ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%lu,\"pid\":%ld,\"tid\":%d,\"ts\":%s}",
                         (unsigned long)id, (long)e->peer, e->cpu, goal__trace_us(e->end_ps, te));
        return;
    }
    goal__tl_caption(w, e, cap, sizeof cap);
    goal__sim_out_printf(o, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%ld,\"tid\":%d,\"ts\":%s,\"dur\":%s,"
                        "\"args\":{\"bytes\":%llu,\"peer\":%ld}}",
                     cap, goal__tl_cat(e->kind), (long)e->rank, e->cpu, goal__trace_us(e->start_ps, ts),
                     goal__trace_us(e->end_ps - e->start_ps, te), (unsigned long long)e->size, (long)e->peer);
}
goal_status goal_sim_write_trace(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user) {
    goal_sim_timeline t;
    goal__sim_out o;
    goal_status st;
    size_t k;
    int32_t rank;
    if (!w || !fn) return GOAL_ERR_ARG;
    if ((st = goal_sim_timeline_run(w, desc, &t)) == GOAL_OK) {
        goal__sim_out_init(&o, fn, user);
        goal__sim_out_printf(&o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                             "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"rank 0\"}}");
        for (rank = 1; rank < t.result.nranks; rank++)
            goal__sim_out_printf(&o, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%ld,\"args\":{\"name\":\"rank %ld\"}}", (long)rank, (long)rank);
        for (k = 0; k < t.nevents; k++) goal__trace_event(&o, w, &t.events[k], k);
        goal__sim_out_printf(&o, "\n]}\n");
        goal__sim_out_flush(&o);
        st = o.st;
    }
    goal_sim_timeline_free(&t);
    return st;
}

/* SVG: one lane per rank, time to the right. */
#define GOAL__SVG_LEFT 70.0
#define GOAL__SVG_WIDTH 1100.0
#define GOAL__SVG_TOP 40.0
#define GOAL__SVG_CRIT "#111111"
typedef struct goal__svg {
    goal__sim_out o;
    const goal_world *w;
    const goal_sim_timeline *t;
    uint8_t *crit;              /* per event: on the critical path */
    double scale, lane;
} goal__svg;

/* A step of 1, 2 or 5 x 10^k that cuts span into at most 20 pieces (never 0, never wraps). */
static uint64_t goal__svg_step(uint64_t span) {
    uint64_t step = 1;
    while (step <= UINT64_MAX / 10u && step * 10u <= span / 4u + 1u) step *= 10u;
    if (span / step > 20u && step <= UINT64_MAX / 5u) return step * 5u;
    if (span / step > 8u && step <= UINT64_MAX / 2u) return step * 2u;
    return step;
}
/* At most 21 ticks: counted, not stepped in time (x += step could wrap past 2^64). */
static void goal__svg_axis(goal__svg *g, double bottom) {
    uint64_t end = g->t->result.max, step = goal__svg_step(end), k;
    for (k = 0; k <= end / step && k <= 40u; k++) {
        double px = GOAL__SVG_LEFT + (double)(k * step) * g->scale;
        goal__sim_out_printf(&g->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", px, GOAL__SVG_TOP - 5, px, bottom);
        goal__sim_out_printf(&g->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>\n", px, GOAL__SVG_TOP - 10,
                             (unsigned long long)(k * step));
    }
    goal__sim_out_printf(&g->o, "<text x=\"%.1f\" y=\"14\" text-anchor=\"end\">time (ns)</text>\n", GOAL__SVG_LEFT + GOAL__SVG_WIDTH);
}
/* Message colours by segment (goal_sim_timeline.segment), so the pieces of a pipeline keep
   their colour from hop to hop; a single message between two ranks is red. */
static const char *goal__svg_msg_colour(uint32_t segment) {
    static const char *const c[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b"};
    return c[segment % 8u];
}
static void goal__svg_message(goal__svg *g, size_t k) {
    const goal_sim_event *e = &g->t->events[k];
    double x0 = GOAL__SVG_LEFT + (double)e->start * g->scale, x1 = GOAL__SVG_LEFT + (double)e->end * g->scale;
    double y0 = GOAL__SVG_TOP + ((double)e->rank + 0.5) * g->lane, y1 = GOAL__SVG_TOP + ((double)e->peer + 0.5) * g->lane;
    int crit = g->crit[k];
    goal__sim_out_printf(&g->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\" stroke-opacity=\"%s\" "
                         "marker-end=\"url(#arrow)\"><title>round %lu: rank %ld to %ld, %llu B, %llu..%llu ns</title></line>\n",
                         x0, y0, x1, y1, crit ? GOAL__SVG_CRIT : goal__svg_msg_colour(g->t->segment[k]), crit ? "2.2" : "1", crit ? "1" : "0.7",
                         (unsigned long)g->t->round[k], (long)e->rank, (long)e->peer, (unsigned long long)e->size,
                         (unsigned long long)e->start, (unsigned long long)e->end);
    if (g->lane >= 14 && x1 - x0 >= 14)   /* the round, halfway along */
        goal__sim_out_printf(&g->o, "<text x=\"%.1f\" y=\"%.1f\" class=\"round\">%lu</text>\n", (x0 + x1) / 2, (y0 + y1) / 2 + 3,
                             (unsigned long)g->t->round[k]);
}
/* The box's text: its caption, else "l3 send" (label and kind), else the label, else none. */
static void goal__svg_box_text(goal__svg *g, const goal_sim_event *e, const char *cap, double x0, double width, double y) {
    char buf[GOAL_LABEL_MAX + 8];
    const char *colon = strchr(cap, ':');
    size_t n = colon ? (size_t)(colon - cap) : strlen(cap);
    if (g->lane < 14 || e->action < 0) return;
    if (width < 6.2 * (double)strlen(cap) + 4) {
        snprintf(buf, sizeof buf, "%.*s %s", (int)(n < GOAL_LABEL_MAX ? n : GOAL_LABEL_MAX - 1), cap, goal__tl_cat(e->kind));
        if (width < 6.2 * (double)strlen(buf) + 4) buf[n < GOAL_LABEL_MAX ? n : GOAL_LABEL_MAX - 1] = 0;
        if (width < 6.2 * (double)strlen(buf) + 4) return;
        cap = buf;
    }
    goal__sim_out_printf(&g->o, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x0 + 2, y + g->lane * 0.62, cap);
}
static void goal__svg_box(goal__svg *g, size_t k) {
    const goal_sim_event *e = &g->t->events[k];
    char cap[200];
    double x0 = GOAL__SVG_LEFT + (double)e->start * g->scale, x1 = GOAL__SVG_LEFT + (double)e->end * g->scale;
    double y = GOAL__SVG_TOP + (double)e->rank * g->lane, width = x1 - x0 > 1 ? x1 - x0 : 1;
    goal_kind kind = e->kind == GOAL_SIM_EV_SEND ? GOAL_SEND : e->kind == GOAL_SIM_EV_RECV ? GOAL_RECV : GOAL_CALC;
    goal__tl_caption(g->w, e, cap, sizeof cap);
    goal__sim_out_printf(&g->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\">"
                         "<title>rank %ld cpu %d: %s, %llu..%llu ns%s</title></rect>\n",
                         x0, y + g->lane * 0.15, width, g->lane * 0.7, goal__sim_colour(kind), g->crit[k] ? GOAL__SVG_CRIT : "#555555",
                         g->crit[k] ? "2" : "0.5", (long)e->rank, e->cpu, cap, (unsigned long long)e->start, (unsigned long long)e->end,
                         g->crit[k] ? " (critical path)" : "");
    goal__svg_box_text(g, e, cap, x0, width, y);
}
static void goal__svg_legend(goal__svg *g, double y) {
    static const char *const names[] = {"send overhead", "receive overhead", "calc / exec"};
    static const goal_kind kinds[] = {GOAL_SEND, GOAL_RECV, GOAL_CALC};
    double x = GOAL__SVG_LEFT;
    int k;
    for (k = 0; k < 3; k++, x += 130)
        goal__sim_out_printf(&g->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" stroke=\"#555555\" stroke-width=\"0.5\"/>"
                             "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y, goal__sim_colour(kinds[k]), x + 18, y + 9, names[k]);
    goal__sim_out_printf(&g->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#1f77b4\"/><text x=\"%.1f\" y=\"%.1f\">message (colour: its segment; number: its round)</text>\n",
                         x, y + 3, x + 14, y + 3, x, y + 7, x + 14, y + 7, x + 18, y + 9);
    x += 300;
    goal__sim_out_printf(&g->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"white\" stroke=\"%s\" stroke-width=\"2\"/>"
                         "<text x=\"%.1f\" y=\"%.1f\">critical path (ends at %llu ns)</text>\n", x, y, GOAL__SVG_CRIT, x + 18, y + 9,
                         (unsigned long long)g->t->result.max);
}
/* Rank names every k-th lane (k = 1, 2, 5 x 10^j) so that they stay at least 11 px apart. */
static void goal__svg_lanes(goal__svg *g) {
    static const int32_t mant[] = {1, 2, 5};
    int32_t r, every = 1, p = g->t->result.nranks, mag = 1;
    int k = 0;
    while (every * g->lane < 11.0 && every < p) {
        if (++k == 3) { k = 0; mag *= 10; }
        every = mant[k] * mag;
    }
    for (r = 0; r < p; r++) {
        double y = GOAL__SVG_TOP + (double)r * g->lane;
        if (r % 2) goal__sim_out_printf(&g->o, "<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\"/>\n", y,
                                        GOAL__SVG_LEFT + GOAL__SVG_WIDTH + 20, g->lane);
        if (r % every == 0)
            goal__sim_out_printf(&g->o, "<text x=\"6\" y=\"%.1f\">rank %ld</text><line x1=\"60\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999999\"/>\n",
                                 y + (g->lane < 11 ? g->lane * 0.5 + 4 : g->lane * 0.65), GOAL__SVG_LEFT, y + g->lane * 0.5, y + g->lane * 0.5, (long)r);
    }
}
static void goal__svg_body(goal__svg *g) {
    const goal_sim_timeline *t = g->t;
    double height = GOAL__SVG_TOP + g->lane * t->result.nranks + 40;
    size_t k;
    goal__sim_out_printf(&g->o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
                         "<style>.round{font-size:9px;font-weight:bold;text-anchor:middle;paint-order:stroke;stroke:white;stroke-width:3px}</style>\n"
                         "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
                         "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555555\"/></marker></defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                         GOAL__SVG_LEFT + GOAL__SVG_WIDTH + 20, height);
    goal__svg_lanes(g);
    goal__svg_axis(g, GOAL__SVG_TOP + g->lane * t->result.nranks);
    for (k = 0; k < t->nevents; k++) if (t->events[k].kind != GOAL_SIM_EV_MSG) goal__svg_box(g, k);
    for (k = 0; k < t->nevents; k++) if (t->events[k].kind == GOAL_SIM_EV_MSG) goal__svg_message(g, k);
    goal__svg_legend(g, height - 25);
    goal__sim_out_printf(&g->o, "</svg>\n");
}
goal_status goal_sim_write_svg(const goal_world *w, const goal_sim_desc *desc, goal_write_fn fn, void *user) {
    goal_sim_timeline t;
    goal__svg g;
    goal_status st;
    size_t k;
    int32_t p;
    if (!w || !fn) return GOAL_ERR_ARG;
    if ((st = goal_sim_timeline_run(w, desc, &t)) != GOAL_OK) { goal_sim_timeline_free(&t); return st; }
    memset(&g, 0, sizeof g);
    g.w = w; g.t = &t;
    if (!(g.crit = (uint8_t *)goal__new(&t.alloc_, t.nevents + 1u, 1))) { goal_sim_timeline_free(&t); return GOAL_ERR_NOMEM; }
    memset(g.crit, 0, t.nevents);
    for (k = 0; k < t.ncritical; k++) g.crit[t.critical[k]] = 1;
    p = t.result.nranks;
    g.lane = p <= 40 ? 22.0 : p >= 900 ? 1.0 : 900.0 / p;
    g.scale = GOAL__SVG_WIDTH / (double)(t.result.max ? t.result.max : 1u);
    goal__sim_out_init(&g.o, fn, user);
    goal__svg_body(&g);
    goal__sim_out_flush(&g.o);
    goal__free(&t.alloc_, g.crit);
    goal_sim_timeline_free(&t);
    return g.o.st;
}
#endif /* GOAL_SIM_NO_PICTURES */

/* ---- >>> model options -------------------------------------------------------------------- */
/* A LogGOPS time in ns with up to three decimals ("480", "0.08"; "1.5e3" is refused) as a
   count of ps, at most 2^53 (what goal_sim_desc takes exactly). Returns NULL or why not. */
static const char *goal__sim_ps(const char *s, uint64_t *ps) {
    uint64_t v = 0, scale = 1000;
    const char *c = s;
    if (*c == '-') return "takes a number >= 0";
    if (!(*c >= '0' && *c <= '9') && !(*c == '.' && c[1] >= '0' && c[1] <= '9')) return "takes a number (ns, up to 3 decimals)";
    for (; *c >= '0' && *c <= '9'; c++) {
        if (v > ((1ull << 53) / 1000 - (uint64_t)(*c - '0')) / 10) return "is too large (at most 9007199254740.992 ns)";
        v = v * 10 + (uint64_t)(*c - '0');
    }
    v *= 1000;
    if (*c == '.')
        for (c++; *c >= '0' && *c <= '9'; c++) {
            if (scale == 1) return "has more than 3 decimals (the simulator counts in ps, 0.001 ns)";
            scale /= 10;
            v += scale * (uint64_t)(*c - '0');
        }
    if (*c) return "takes a number (ns, up to 3 decimals)";
    if (v > (1ull << 53)) return "is too large (at most 9007199254740.992 ns)";
    *ps = v;
    return NULL;
}
/* -S: bytes, a decimal integer up to INT64_MAX. */
static const char *goal__sim_bytes(const char *s, int64_t *out) {
    uint64_t v = 0;
    const char *c = s;
    if (!*c) return "takes a number of bytes >= 0";
    for (; *c >= '0' && *c <= '9'; c++) {
        if (v > ((uint64_t)INT64_MAX - (uint64_t)(*c - '0')) / 10) return "takes a number of bytes >= 0";
        v = v * 10 + (uint64_t)(*c - '0');
    }
    if (*c) return "takes a number of bytes >= 0";
    *out = v ? (int64_t)v : GOAL_SIM_ZERO;
    return NULL;
}
/* --node-size: ranks, a decimal integer from 1 to 2^31-1. */
static const char *goal__sim_count(const char *s, int32_t *out) {
    int64_t v = 0;
    if (goal__sim_bytes(s, &v) || v < 1 || v > 0x7FFFFFFF) return "takes a number of ranks from 1 to 2147483647";
    *out = (int32_t)v;
    return NULL;
}
/* Every model option, once: its name, value, default, help and field in goal_sim_desc. */
#define GOAL__SIM_AT(f) offsetof(goal_sim_desc, f), 0
#define GOAL__SIM_LIST(f, more) offsetof(goal_sim_desc, f), offsetof(goal_sim_desc, more)
static const goal_sim_param_row goal__sim_opts[] = {
    {"-L", GOAL_SIM_PARAM_NS, 1, "ns", "2500", "latency", GOAL__SIM_AT(L)},
    {"-o", GOAL_SIM_PARAM_NS, 1, "ns", "1500", "CPU overhead per message (same as --overhead)", GOAL__SIM_AT(o)},
    {"--overhead", GOAL_SIM_PARAM_NS, 1, "ns", "1500", "CPU overhead per message (LogGOPSim's -o)", GOAL__SIM_AT(o)},
    {"-g", GOAL_SIM_PARAM_NS, 1, "ns", "1000", "gap between messages (NIC)", GOAL__SIM_AT(g)},
    {"-G", GOAL_SIM_PARAM_NS, 1, "ns/B", "6", "gap per byte", GOAL__SIM_AT(G)},
    {"-O", GOAL_SIM_PARAM_NS, 1, "ns/B", "0", "CPU overhead per byte", GOAL__SIM_AT(O)},
    {"-C", GOAL_SIM_PARAM_NS, 1, "ns/B", "1", "CPU time per byte of a local exec (a reduction; a copy too unless -K; calc is not scaled)",
     GOAL__SIM_AT(C)},
    {"-K", GOAL_SIM_PARAM_NS, 1, "ns/B", "-C", "CPU time per byte of a local copy (exec copy; libgoal's)", GOAL__SIM_AT(K)},
    {"-S", GOAL_SIM_PARAM_BYTES, 1, "B", "65535", "eager limit: larger messages use rendezvous", GOAL__SIM_AT(S)},
    {"-R", GOAL_SIM_PARAM_NS, 1, "ns", "0", "rendezvous handshake: a message over -S bytes arrives this much later (LogGOPSim: none)",
     GOAL__SIM_AT(R)},
    {"-T", GOAL_SIM_PARAM_BYTES, 1, "B[,B..]", "0",
     "with -H: a message's bytes beyond T (up to the next T) cost -H per byte instead of -G; up to 8, increasing (0: one -G, LogGOPSim's)",
     GOAL__SIM_LIST(T, T_more)},
    {"-H", GOAL_SIM_PARAM_NS, 1, "ns/B[,ns/B..]", "0",
     "with -T, one per T: gap per byte beyond that T, on both NICs and in the receive (0: free; unset: off)", GOAL__SIM_LIST(H, H_more)},
    {"-E", GOAL_SIM_PARAM_NS, 1, "ns", "0", "the executor's CPU cost per message (libgoal's): a send or receive costs -o plus this",
     GOAL__SIM_AT(E)},
    {"-F", GOAL_SIM_PARAM_NS, 1, "ns", "0", "a call's fixed cost (libgoal's): every rank starts this much later", GOAL__SIM_AT(F)},
    {"-A", GOAL_SIM_PARAM_BYTES, 1, "B", NULL,
     "acknowledged sends: an eager send of more than this many bytes completes -D after its receive took it (unset: none)",
     GOAL__SIM_AT(A)},
    {"-D", GOAL_SIM_PARAM_NS, 1, "ns", "0", "with -A: from the receive's take to the send's completion", GOAL__SIM_AT(D)},
    {"--loggopsim-compat", GOAL_SIM_PARAM_FLAG, 0, NULL, NULL, "charge 0-byte messages -G, as LogGOPSim's wrap-around does",
     GOAL__SIM_AT(loggopsim_compat)},
    {"--shared-memory", GOAL_SIM_PARAM_FLAG, 0, NULL, NULL,
     "the ranks of a node (all without --node-size) share one memory: its messages' bytes are copied one message at a time",
     GOAL__SIM_AT(shared_memory)},
    {"--node-size", GOAL_SIM_PARAM_RANKS, 1, "N", NULL, "two-level model: nodes of N consecutive ranks; -L -o -g -G -O are then between nodes",
     GOAL__SIM_AT(node_size)},
    {"--intra-L", GOAL_SIM_PARAM_NS, 1, "ns", "-L", "two-level: latency inside a node", GOAL__SIM_AT(intra_L)},
    {"--intra-o", GOAL_SIM_PARAM_NS, 1, "ns", "--overhead", "two-level: CPU overhead per message inside a node", GOAL__SIM_AT(intra_o)},
    {"--intra-g", GOAL_SIM_PARAM_NS, 1, "ns", "-g", "two-level: gap between messages inside a node", GOAL__SIM_AT(intra_g)},
    {"--intra-G", GOAL_SIM_PARAM_NS, 1, "ns/B", "-G", "two-level: gap per byte inside a node", GOAL__SIM_AT(intra_G)},
    {"--intra-O", GOAL_SIM_PARAM_NS, 1, "ns/B", "-O", "two-level: CPU overhead per byte inside a node", GOAL__SIM_AT(intra_O)},
};
#undef GOAL__SIM_AT
#undef GOAL__SIM_LIST
#define GOAL__SIM_NOPTS (sizeof goal__sim_opts / sizeof goal__sim_opts[0])
const goal_sim_param_row *goal_sim_param_info(size_t i) { return i < GOAL__SIM_NOPTS ? &goal__sim_opts[i] : NULL; }
/* Which field of d goal__sim_model_init (or stop_ns) refuses, and why, into msg (GOAL_MSG_MAX
   bytes; empty when none does): the field named as in goal_sim_desc. */
static void goal__sim_desc_why(const goal_sim_desc *d, char *msg) {
    const char *field = (const char *)d;
    char name[32];
    size_t k, j;
    uint64_t ps;
    msg[0] = 0;
    for (k = 0; k < GOAL__SIM_NOPTS && !msg[0]; k++) {
        const goal_sim_param_row *o = &goal__sim_opts[k];
        double v = o->kind == GOAL_SIM_PARAM_NS ? *(const double *)(const void *)(field + o->offset) : 0;
        int64_t n = o->kind == GOAL_SIM_PARAM_BYTES ? *(const int64_t *)(const void *)(field + o->offset) : 0;
        const char *s = o->name + strspn(o->name, "-");
        for (j = 0; s[j] && j + 1 < sizeof name; j++) name[j] = s[j] == '-' ? '_' : s[j];   /* "--intra-L": intra_L */
        name[j] = 0;
        if (o->kind == GOAL_SIM_PARAM_NS && goal__sim_param(v, 0, &ps) != GOAL_OK)
            snprintf(msg, GOAL_MSG_MAX, "goal_sim_desc.%s = %.15g: a time in ns is >= 0 (GOAL_SIM_ZERO: a real 0), has at most 3 decimals "
                                        "and is at most 2^53 ps", name, v);
        else if (o->kind == GOAL_SIM_PARAM_BYTES && n < GOAL_SIM_ZERO)
            snprintf(msg, GOAL_MSG_MAX, "goal_sim_desc.%s = %lld: bytes are >= 0 (GOAL_SIM_ZERO: a real 0)", name, (long long)n);
    }
    if (!msg[0]) {
        goal__sim m;
        (void)goal__sim_table_init(&m, d, msg);   /* says why when it fails */
    }
    if (!msg[0] && d->node_size < 0) snprintf(msg, GOAL_MSG_MAX, "goal_sim_desc.node_size = %ld: ranks are >= 0", (long)d->node_size);
    if (!msg[0] && !(d->stop_ns >= 0)) snprintf(msg, GOAL_MSG_MAX, "goal_sim_desc.stop_ns = %.15g: ns are >= 0", d->stop_ns);
}
static const goal_sim_param_row *goal__sim_opt_of(const char *name) {
    size_t k;
    for (k = 0; name && k < GOAL__SIM_NOPTS; k++)
        if (strcmp(name, goal__sim_opts[k].name) == 0) return &goal__sim_opts[k];
    return NULL;
}
int goal_sim_param_arity(const char *name) {
    const goal_sim_param_row *o = goal__sim_opt_of(name);
    return !o ? -1 : o->arity;
}
/* A list option's value (-T, -H): up to GOAL_SIM_TABLE_MAX comma-separated values of o's
   kind, the first into its field, the others into o->more (the rest of it cleared); sizes
   increase strictly. d is left as it was when the list is bad. */
static const char *goal__sim_list(char *d, const goal_sim_param_row *o, const char *value) {
    int64_t t[GOAL_SIM_TABLE_MAX];
    double h[GOAL_SIM_TABLE_MAX];
    char one[64];
    const char *why, *bad = o->kind == GOAL_SIM_PARAM_BYTES ? "takes a number of bytes >= 0" : "takes a number (ns, up to 3 decimals)";
    size_t n = 0, len;
    uint64_t ps;
    memset(t, 0, sizeof t);
    memset(h, 0, sizeof h);
    for (;; value += len) {
        if (n == GOAL_SIM_TABLE_MAX) return "takes at most 8 comma-separated values";
        if ((len = strcspn(value, ",")) >= sizeof one) return bad;
        memcpy(one, value, len);
        one[len] = 0;
        if (o->kind == GOAL_SIM_PARAM_BYTES) {
            if ((why = goal__sim_bytes(one, &t[n])) != NULL) return why;
            if (n && (t[n - 1u] <= 0 || t[n] <= t[n - 1u])) return "takes sizes > 0 that increase strictly (131072,524288,2097152)";
        } else {
            if ((why = goal__sim_ps(one, &ps)) != NULL) return why;
            h[n] = ps ? (double)ps / 1000.0 : GOAL_SIM_ZERO;
        }
        if (!value[len++]) break;
        n++;
    }
    if (o->kind == GOAL_SIM_PARAM_BYTES) {
        memcpy(d + o->offset, t, sizeof t[0]);
        memcpy(d + o->more, t + 1, sizeof t - sizeof t[0]);
    } else {
        memcpy(d + o->offset, h, sizeof h[0]);
        memcpy(d + o->more, h + 1, sizeof h - sizeof h[0]);
    }
    return NULL;
}
static const char *goal__sim_param_why(goal_sim_desc *d, const char *name, const char *value) {
    const goal_sim_param_row *o = goal__sim_opt_of(name);
    char *field = (char *)d;
    const char *why;
    uint64_t ps = 0;
    if (!d || !o) return "is not a model option";
    if (o->more) return goal__sim_list(field, o, value ? value : "");
    field += o->offset;
    if (o->kind == GOAL_SIM_PARAM_FLAG) { *(int *)(void *)field = 1; return NULL; }
    if (o->kind == GOAL_SIM_PARAM_BYTES) return value ? goal__sim_bytes(value, (int64_t *)(void *)field) : "takes a number of bytes >= 0";
    if (o->kind == GOAL_SIM_PARAM_RANKS) return goal__sim_count(value ? value : "", (int32_t *)(void *)field);
    if (!value) return "takes a number";
    if ((why = goal__sim_ps(value, &ps)) != NULL) return why;
    *(double *)(void *)field = ps ? (double)ps / 1000.0 : GOAL_SIM_ZERO;
    return NULL;
}
goal_status goal_sim_param(goal_sim_desc *d, const char *name, const char *value, goal_error *err) {
    const char *why = goal__sim_param_why(d, name, value);
    return why ? goal__fail(err, GOAL_ERR_ARG, -1, "%s", why) : goal__fail(err, GOAL_OK, -1, "");
}
/* The next word of text[*at, len) into w (at most n-1 bytes kept); 0 at the end. */
static int goal__sim_word(const char *text, size_t len, size_t *at, char *w, size_t n) {
    size_t k = 0;
    while (*at < len && strchr(" \t\r\n", text[*at])) (*at)++;
    if (*at == len) return 0;
    for (; *at < len && !strchr(" \t\r\n", text[*at]); (*at)++)
        if (k + 1 < n) w[k++] = text[*at];
    w[k] = 0;
    return 1;
}
/* The model options' names, one space between, into buf (n bytes, cut short if need be). */
static const char *goal__sim_opt_names(char *buf, size_t n) {
    size_t k, at = 0;
    buf[0] = 0;
    for (k = 0; k < GOAL__SIM_NOPTS && at + 1 < n; k++) {
        int w = snprintf(buf + at, n - at, "%s%s", k ? " " : "", goal__sim_opts[k].name);
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}
goal_status goal_sim_params(goal_sim_desc *d, const char *text, size_t len, goal_error *err) {
    char w[128], v[256];
    const char *why;
    size_t at = 0;
    int n = 0, arity;
    if (!d || (!text && len)) return goal__fail(err, GOAL_ERR_ARG, -1, "no model or no text");
    if (len >= GOAL_SIM_PARAMS_MAX || memchr(text, 0, len))
        return goal__fail(err, GOAL_ERR_SYNTAX, -1, "not one line of model options (text, under 4 KiB)");
    for (; goal__sim_word(text, len, &at, w, sizeof w); n++) {
        if (strcmp(w, "--params") == 0) return goal__fail(err, GOAL_ERR_SYNTAX, -1, "--params inside a params file");
        if ((arity = goal_sim_param_arity(w)) < 0)
            return goal__fail(err, GOAL_ERR_SYNTAX, -1, "'%s' is not a model option (%s)", w, goal__sim_opt_names(v, sizeof v));
        if (!arity || !goal__sim_word(text, len, &at, v, sizeof v)) v[0] = 0;
        if ((why = goal__sim_param_why(d, w, v)) != NULL) return goal__fail(err, GOAL_ERR_SYNTAX, -1, "%s %s: %s", w, v, why);
    }
    if (n == 0) return goal__fail(err, GOAL_ERR_SYNTAX, -1, "no model options in the file");
    if (d->T > 0 && d->H != 0 && goal__sim_nsizes(d) != goal__sim_ncosts(d))
        return goal__fail(err, GOAL_ERR_SYNTAX, -1, "-T has %lu sizes and -H %lu costs per byte: one cost per size",
                          (unsigned long)goal__sim_nsizes(d), (unsigned long)goal__sim_ncosts(d));
    return GOAL_OK;
}
/* A time of the model back in a desc's ns (a real 0 as GOAL_SIM_ZERO). */
static double goal__sim_ns_of(uint64_t ps) { return ps ? (double)ps / (double)GOAL__SIM_PS : GOAL_SIM_ZERO; }
static void goal__sim_link_out(const goal__sim_link *k, double *L, double *o, double *g, double *G, double *O) {
    *L = goal__sim_ns_of(k->L); *o = goal__sim_ns_of(k->o); *g = goal__sim_ns_of(k->g);
    *G = goal__sim_ns_of(k->G); *O = goal__sim_ns_of(k->O);
}
/* The defaults live in goal__sim_model_init only: this reads what it made of desc. */
goal_status goal_sim_defaults(const goal_sim_desc *desc, goal_sim_desc *out) {
    goal__sim m;
    goal_sim_desc zero;
    uint32_t k;
    if (!out) return GOAL_ERR_ARG;
    if (!desc) { memset(&zero, 0, sizeof zero); desc = &zero; }
    memset(&m, 0, sizeof m);
    if (goal__sim_model_init(&m, desc) != GOAL_OK) return GOAL_ERR_ARG;
    *out = *desc;
    goal__sim_link_out(&m.link[0], &out->L, &out->o, &out->g, &out->G, &out->O);
    goal__sim_link_out(&m.link[1], &out->intra_L, &out->intra_o, &out->intra_g, &out->intra_G, &out->intra_O);
    out->C = goal__sim_ns_of(m.C);
    out->K = goal__sim_ns_of(m.Ccopy);
    out->R = goal__sim_ns_of(m.R);
    out->E = goal__sim_ns_of(m.E);
    out->F = goal__sim_ns_of(m.F);
    out->D = goal__sim_ns_of(m.D);
    out->A = m.A == ~(uint64_t)0 ? 0 : m.A ? (int64_t)m.A : GOAL_SIM_ZERO;
    for (k = 0; k < GOAL_SIM_TABLE_MAX; k++) {   /* off: none of it */
        int64_t *t = k ? &out->T_more[k - 1u] : &out->T;
        double *h = k ? &out->H_more[k - 1u] : &out->H;
        *t = k < m.nT ? (int64_t)m.T[k] : 0;
        *h = k < m.nT ? goal__sim_ns_of(m.H[k]) : 0;
    }
    out->S = m.S ? (int64_t)m.S : GOAL_SIM_ZERO;
    return GOAL_OK;
}

/* ---- >>> costs ------------------------------------------------------------------------------ */
struct goal_sim_costs {
    goal__sim m;                /* its model only: no world */
    goal_allocator alloc;
};
goal_status goal_sim_costs_create(goal_sim_costs **out, const goal_sim_desc *desc, goal_error *err) {
    goal_allocator a;
    goal_sim_costs *c;
    if (!out || !desc) return goal__fail(err, GOAL_ERR_ARG, -1, "no out or no desc");
    *out = NULL;
    a = goal__allocator(&desc->alloc);
    if (!(c = (goal_sim_costs *)goal__new(&a, 1, sizeof *c))) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    memset(c, 0, sizeof *c);
    c->alloc = a;
    c->m.compat = desc->loggopsim_compat;
    if (goal__sim_model_init(&c->m, desc) != GOAL_OK) {
        char why[GOAL_MSG_MAX];
        goal__sim_desc_why(desc, why);
        goal__free(&a, c);
        return goal__fail(err, GOAL_ERR_ARG, -1, "%s", why);
    }
    *out = c;
    return GOAL_OK;
}
void goal_sim_costs_destroy(goal_sim_costs *c) {
    goal_allocator a;
    if (!c) return;
    a = c->alloc;
    goal__free(&a, c);
}
uint64_t goal_sim_cost(goal_sim_costs *c, goal_sim_cost_kind k, int32_t src, int32_t dst, uint64_t t, uint64_t bytes) {
    goal__sim *m = &c->m;
    switch (k) {
    case GOAL_SIM_COST_SEND_CPU: return m->model->send_cpu(m, src, dst, t, bytes);
    case GOAL_SIM_COST_RECV_CPU: return m->model->recv_cpu(m, src, dst, t, bytes);
    case GOAL_SIM_COST_NIC_GAP: return m->model->nic_gap(m, src, dst, t, bytes);
    case GOAL_SIM_COST_WIRE: return m->model->wire(m, src, dst, t, bytes);
    case GOAL_SIM_COST_EXEC: return goal__sim_local(m, t, GOAL_EXEC, bytes, 0);
    case GOAL_SIM_COST_COPY: return goal__sim_local(m, t, GOAL_EXEC, bytes, 1);
    default: return goal__sim_local(m, t, GOAL_CALC, bytes, 0);
    }
}
int goal_sim_costs_overflow(goal_sim_costs *c) {
    int over = c->m.over;
    c->m.over = 0;
    return over;
}
#endif /* GOAL_SIM_IMPLEMENTATION */
