/* goal_algos.h - v0.1.0 - schedule generators for collective algorithms, for every process
   count and every root: each appends one rank's part of an algorithm to a goal_graph.

   In exactly ONE .c or .cpp file:   #define GOAL_ALGOS_IMPLEMENTATION   then
   #include "goal_algos.h"   (GOAL_ALL_IMPLEMENTATION works as well). Needs only goal.h's
   public API; goal.h's implementation must be compiled somewhere (GOAL_IMPLEMENTATION).

   Sections: OVERVIEW · STEP BY STEP · COLLECTIVES · ALGORITHMS · LOCAL COPIES · BUFFERS ·
             VECTOR COLLECTIVES · ORDER OF REDUCTIONS · NEIGHBOURHOODS · COMPOSING · ERRORS · LICENSE

   OVERVIEW
   --------
   An algorithm is named "<collective>_<algorithm>" (goal_algo_list prints them all). A
   goal_algo_desc says which one and with what parameters; zero means "default" everywhere.
   goal_algo_build appends rank r's part to a graph: its first actions wait for the given
   actions (`after`), and it returns ONE action that completes when rank r's part is done,
   so algorithms compose (a reduce, then a broadcast; stages of a pipeline).
   goal_algo_world builds the whole world (all p ranks) at once; there nothing composes, so
   it leaves out the final join (a nop, written "calc 0" in the LogGOPSim dialect).

   STEP BY STEP
   ------------
     goal_algo_desc d = {0};
     d.algo = "allreduce_recdoub"; d.count = 1024;   // zero dtype and op: Int32, sum
     goal_world *w; goal_error err;
     if (goal_algo_world(&w, &d, 12, &err) != GOAL_OK) puts(err.msg);
     ... run it with goal_sched.h's goal_world_run: slot 0 = input, slot 1 = output ...
   Or one rank at a time, after other actions of that rank:
     int32_t done = goal_algo_build(g, &d, &prev, 1, NULL, &err);   // id, or < 0: error

   COLLECTIVES
   -----------
   One table, GOAL_COLL_TABLE (an X-macro), holds each collective once: its name (the prefix
   of its algorithms' names), the MPI call it is, whether it is rooted, reduces, takes
   per-rank counts (vector) or is tuned (goal tune and goal_mpi.h's COLL_auto search it), its
   blocks in IN and OUT (BUFFERS) and where MPI_IN_PLACE puts the input. goal_coll_get(c)
   gives a row, goal_coll_find("bcast") a collective by name; each registry row names its
   collective (goal_algo_info.coll, goal_algo_coll(name)), so nothing works it out from a
   name. Adding a collective is one table row plus its generators; adding an algorithm one
   registry row plus its generator.
     int c = goal_algo_coll("reduce_scatter_ring");             // GOAL_COLL_REDUCE_SCATTER
     printf("%s\n", goal_coll_get(c)->mpi);                      // MPI_Reduce_scatter_block

   ALGORITHMS   (p ranks, v = (rank - root) mod p, "rounds" = longest chain of messages)
   ----------
   bcast_binomial         GOAL paper, Listing 2, rooted anywhere; depth ceil(log2 p)
   bcast_binary           binary tree: v's children 2v+1, 2v+2 (Schedgen's binarytreebcast)
   bcast_chain            pipelined chain v -> v+1 in segments of `segment` bytes (paper IV.C)
   bcast_doublering       Schedgen's double ring: the root's data travels the ring both ways
                          and returns to the root (each rank forwards what it receives)
   reduce_binomial        receive-reduce-send on a binomial tree (subtrees are contiguous
                          ranges of v, so the op is applied in v order); depth ceil(log2 p)
   reduce_chain           pipelined chain v -> v-1 towards the root, in segments
   reduce_aspen           Aspen (ICS'08) section 3.2: participants P, receivers R (R may hold
                          non-participants and be larger than P). Fold to a power of two,
                          halve while |P| >= 2 max(|Rp|,|Rnp|), butterfly with the last step
                          pruned, deliver to Rnp: directly when |Rnp| <= |P|, else by
                          concurrent binomial trees from every holder. Rounds at most
                          2+floor(log2|P|) (|Rnp| <= |P|), else 2+ceil(log2|Rnp|).
   allreduce_recdoub      butterfly; for p not a power of two, ranks >= rho = 2^floor(log2 p)
                          first send to rank - rho and get the result back at the end
                          (Aspen 2.1): 2+floor(log2 p) rounds, log2 p for powers of two
   allreduce_dissemination  n-way dissemination (paper Listing 3), ceil(log_{n+1} p) rounds.
                          Correct for every p: the last round sends partial windows kept
                          from earlier rounds (base-(n+1) digits of what is missing), so no
                          contribution counts twice. With floating point or a user op the
                          same rounds and peers carry the raw blocks instead of partial
                          results (p-1 blocks received per rank, as allgather_bruck), and
                          every rank folds them by one fixed tree (see ORDER OF REDUCTIONS)
   allreduce_ring         ring reduce-scatter then ring allgather on p near-equal blocks
   barrier_dissemination  n-way dissemination with empty messages, ceil(log_{n+1} p) rounds
   barrier_linear         everyone sends to the root, which answers all (Schedgen linbarrier)
   gather_linear          everyone sends its block to the root
   gather_binomial        binomial tree; subtrees forward their blocks as one message
   scatter_linear         the root sends block i to rank i
   scatter_binomial       binomial tree, the reverse of gather_binomial
   allgather_ring         p-1 steps around the ring
   allgather_recdoub      recursive doubling; non-powers of two fold in and out as above
   allgather_bruck        Bruck: ceil(log2 p) rounds, then a local rotation
   alltoall_linear        all sends and receives at once (Schedgen linear_alltoall)
   alltoall_pairwise      p-1 steps: send to rank+k, receive from rank-k
   alltoall_bruck         Bruck: ceil(log2 p) rounds of packed blocks, local rotations
   reduce_scatter_ring    ring reduce-scatter of p blocks of `count` elements
   scan_linear            inclusive prefix along the ranks
   exscan_linear          exclusive prefix along the ranks
   gatherv_linear         gather_linear with per-rank counts and displacements (MPI_Gatherv)
   gatherv_binomial       binomial tree gather of per-rank counts; subtrees are packed in
                          scratch; the root receives a subtree straight into OUT when its
                          blocks are contiguous there in order, else stages and unpacks it
   scatterv_linear        scatter_linear with per-rank counts and displacements
   allgatherv_ring        allgather_ring with per-rank counts and displacements
   alltoallv_pairwise     alltoall_pairwise with per-rank send and receive counts
   reduce_scatterv_ring   ring reduce-scatter of blocks of per-rank sizes (MPI_Reduce_scatter):
                          each step reduces the arriving partial block into itself with this
                          rank's input block, so nothing is copied
   -- rank order for any op (ORDER OF REDUCTIONS): a binomial reduce of everything to rank 0,
      which combines lower ranks with higher ones, then the result goes out from rank 0 --
   allreduce_reduce_bcast         then bcast_binomial: 2 ceil(log2 p) rounds
   reduce_scatter_reduce_scatter  the p blocks, then scatter_binomial
   reduce_scatterv_reduce_scatterv  all blocks, then scatterv_linear
   -- bandwidth-optimal families (n bytes of data; "units": n cut in near-equal blocks, the
      first n mod k one element larger, so any n and p work) --
   bcast_scatter_allgather  van de Geijn (MPICH's long-message bcast; Barnett et al. 1994):
                          binomial scatter of p units straight into OUT, then a ring allgather.
                          At most 2n bytes sent per rank; ceil(log2 p) + p - 1 rounds
   reduce_scatter_halving recursive halving (Thakur, Rabenseifner, Gropp 2005, section 4.2),
                          any p: the first 2(p-q) ranks (q = 2^floor(log2 p)) pair up, the
                          even one hands its p blocks to the odd one and gets its block back
                          at the end; q ranks halve, each keeping the blocks of its ranks; the
                          last exchange goes block by block so each rank's block is added
                          straight in OUT. (p-1) n bytes per rank for powers of two
   allreduce_rabenseifner Rabenseifner (Thakur et al. 2005): the fold as above, recursive-
                          halving reduce-scatter of q units in OUT, recursive-doubling allgather,
                          unfold. 2(q-1)/q n bytes per rank (+n on the ranks of a folded pair).
                          Every unit is reduced once, at its owner, then only copied: the
                          result is bit-identical on all ranks
   reduce_rabenseifner    the same reduce-scatter (the root keeps its place in its pair and
                          works in OUT), then a binomial gather of the units to the root
   bcast_knomial          k-nomial tree (MPICH's and Open MPI's knomial bcast), `radix` K:
                          in round t every v < K^t sends to v + j K^t (j < K); ceil(log_K p)
                          rounds. K = 2 is bcast_binomial (which calls it)
   reduce_knomial         k-nomial receive-reduce-send with contiguous subtrees (rank order
                          kept, as reduce_binomial, which is K = 2); ceil(log_K p) rounds
   bcast_pipelined_tree   the binary tree of bcast_binary, pipelined in `segment` bytes (Open
                          MPI tuned's pipelined binary tree): a segment is forwarded to both
                          children as soon as it arrived
   reduce_pipelined_tree  the same tree upwards, segment by segment; the first child's segment
                          is received straight into the accumulator (commutative ops only)
   bcast_dbtree           two-tree broadcast (Sanders, Speck, Traff, "Two-tree algorithms for
                          full bandwidth broadcast, reduction and scan", Parallel Computing
                          2009; NCCL's double binary tree): the root sends even segments down
                          tree 0 and odd ones down tree 1. The trees span the other p-1 ranks:
                          tree 0 is NCCL's in-order tree on the first e = 2 floor((p-1)/2) of
                          them (interior: even positions), tree 1 the same shifted by one
                          (interior: odd), so each rank is interior in at most one tree and
                          sends about n bytes; for odd p-1 the last rank is a leaf of both
   reduce_dbtree          the same trees upwards, half the segments each (commutative ops)
   allreduce_dbtree       reduce up both trees to rank 0, which turns every segment straight
                          back down its tree: each element is combined once, at rank 0, then
                          copied down, so the result is bit-identical on all ranks. About 2n
                          bytes sent per rank; partial results go up from scratch so a
                          segment can come down into OUT at any time
   allgather_neighbor     neighbour exchange (Chen et al., "Performance evaluation of allgather
                          algorithms on terascale Linux cluster with fast Ethernet", 2005; MPICH):
                          step 0 swaps blocks with the pair neighbour, then p/2 - 1 steps swap
                          the two blocks received last, alternately right and left: p/2 steps.
                          Odd p (the paper and MPICH take even p only): rank p-1 hands its block
                          to rank p-2, the other p-1 ranks exchange (rank p-2's unit being two
                          blocks), and rank p-2 sends all p blocks back: p/2 + 1 rounds
   `nway` (default 1) is used by the dissemination algorithms; `segment` (bytes, default 1024,
   rounded down to whole elements, at least one) by the chains and the pipelined trees;
   `radix` (default 4) by the k-nomial trees. Every algorithm sends its
   messages also for count 0 (empty messages), so the structure does not depend on the size.

   LOCAL COPIES   (bytes per rank moved by exec copy actions, `goal stats` column `copy`)
   ------------
   Data is sent straight from IN and received straight into OUT wherever MPI's block layout
   allows; a copy is left only where the algorithm needs one. n = count * element size.
     bcast_*, barrier_*        0
     gather_linear, scatter_linear      n at the root (its own block, IN <-> OUT), else 0
     gather_binomial, scatter_binomial  n at the root and at inner ranks (their own block
                               into / out of the subtree sent as one message), 0 at leaves;
                               a root's subtree that wraps past rank p-1 goes as two
                               messages instead of being staged
     allgather_ring            n (own block into OUT)
     allgather_recdoub         n at ranks < 2^floor(log2 p), else 0
     allgather_bruck           n at rank 0, (p+1)n elsewhere (the final rotation)
     alltoall_linear, alltoall_pairwise   n (own block)
     alltoall_bruck            2pn + 2n * sum over rounds k of |{j < p: bit k of j set}|
                               (rotations in and out, packing and unpacking every round)
     gatherv_linear, scatterv_linear    counts[root] elements at the root, else 0
     gatherv_binomial          counts[rank] at the root and inner ranks, plus at the root
                               every subtree whose blocks are not contiguous in order in OUT
                               (with packed displacements: none when the root is 0, else
                               the one subtree that wraps past rank p-1)
     allgatherv_ring           counts[rank] elements; alltoallv_pairwise: its own block
     reduce_scatterv_ring      0 (counts[0] when p = 1)
   The reductions (not yet reworked): reduce_binomial n at inner ranks and the reducing
   rank; reduce_chain n except at the chain's end (n when p = 1); reduce_aspen n at the
   participants not folded away; allreduce_recdoub n at ranks < 2^floor(log2 p);
   allreduce_dissemination ceil(log_{nway+1} p) n (n when p = 1); allreduce_ring n;
   reduce_scatter_ring (p+1)n; scan_linear n at rank 0; exscan_linear n at ranks 1..p-2.

   BUFFERS
   -------
   Slot IN (default 0) holds the input and slot OUT (default 1) the output, in MPI's layout
   (sendbuf / recvbuf), starting at in_offset / out_offset. n = count elements of dtype.
   The input is never written. Temporaries live in GOAL_SLOT_SCRATCH from scratch_offset on
   (the executor allocates the scratch slot, sized by the schedule).
     bcast_*               OUT n: the root's is the data, every other rank's receives it
     reduce_*              IN n on every rank (participant); OUT n at the root (receivers)
     allreduce_*           IN n, OUT n on every rank (allreduce_ring: n split in p blocks)
     scan_*, exscan_*      IN n, OUT n (exscan: rank 0's OUT is not written)
     gather_*              IN n; OUT p*n at the root, block i from rank i
     scatter_*             IN p*n at the root, block i for rank i; OUT n
     allgather_*           IN n; OUT p*n, block i from rank i
     alltoall_*            IN p*n, block j for rank j; OUT p*n, block i from rank i
     reduce_scatter_ring, reduce_scatter_halving
                           IN p*n; OUT n: block `rank` of the elementwise reduction
     barrier_*             no data: empty messages
   reduce_aspen: ranks in P read IN, ranks in R write OUT; others take no part.
   in_place = 1 (MPI_IN_PLACE; only algorithms flagged GOAL_ALGO_INPLACE, the others fail
   with GOAL_ERR_ARG): IN is not used where MPI allows MPI_IN_PLACE, the input lies in OUT:
     reduce_*, allreduce_*  the input is OUT (reduce: at the root; other ranks use IN)
     gather_*, allgather_*  this rank's block of OUT is its input (gather: at the root)
     scatter_*              the root's block stays in IN, where it is its result; OUT unused
   Vector collectives likewise (the block at displs[rank]). The own-block copies then have
   the same source and destination and are left out: no copy at all where LOCAL COPIES
   lists only the own block. Flagged (each checked against the reference with aliased
   buffers in tests/test_algos.c): reduce_binomial, reduce_chain, reduce_knomial,
   reduce_rabenseifner, allreduce_recdoub, allreduce_ring, allreduce_rabenseifner (its
   fold then receives the mate's data in scratch), gather_linear, gather_binomial, gatherv_linear,
   gatherv_binomial, scatter_linear, scatter_binomial, scatterv_linear, allgather_ring,
   allgather_recdoub, allgather_bruck, allgather_neighbor, allgatherv_ring,
   allreduce_reduce_bcast. The others
   write OUT before they have read all of the input there (scan_linear and exscan_linear
   receive the prefix into OUT; the two-tree, pipelined-tree and dissemination
   reductions stage partial results in OUT), and alltoall and reduce-scatter
   in place overlap input and output block by block: copy the input first (mpi/goalmpi.c
   does, for those).

   VECTOR COLLECTIVES
   ------------------
   gatherv_*, scatterv_*, allgatherv_*, alltoallv_* and reduce_scatterv_* take MPI's arrays
   as they are: int, in elements of dtype, displacements counted from in_offset (IN) or
   out_offset (OUT); blocks may lie in any order and leave gaps (gaps are not written), but
   the blocks of an output must not overlap (not checked). displs NULL = packed in rank
   order (block i starts after blocks 0..i-1); counts NULL = every block `count` elements.
     gatherv_*          counts, displs = MPI_Gatherv's recvcounts, displs: OUT at the root;
                        IN holds counts[rank] elements
     scatterv_*         counts, displs = MPI_Scatterv's sendcounts, displs: IN at the root;
                        OUT receives counts[rank] elements
     allgatherv_*       counts, displs = MPI_Allgatherv's recvcounts, displs: OUT; IN holds
                        counts[rank] elements
     reduce_scatterv_*  counts = MPI_Reduce_scatter's recvcounts (displs NULL: IN packed, as
                        MPI has it); OUT receives counts[rank] reduced elements
     alltoallv_*        counts, displs = MPI_Alltoallv's sendcounts, sdispls (IN);
                        recv_counts, recv_displs = its recvcounts, rdispls (OUT)
   What each rank reads (so what an MPI binding must pass, where MPI leaves arrays unset):
   gatherv_linear and scatterv_linear read only counts[rank] at a non-root: pass MPI's
   sendcount (recvcount) as `count` with counts = NULL there. gatherv_binomial reads the
   counts of its subtree on every rank (MPI gives recvcounts to the root only, so a binding
   must make them known first) and displs at the root. allgatherv_ring and
   reduce_scatterv_ring read all counts on every rank (MPI gives them all), displs are
   local. alltoallv_pairwise reads this rank's four arrays; sendcounts[rank] must equal
   recvcounts[rank]. Since displacements are local, ranks may lay out their buffers
   differently.
   For example MPI_Gatherv(sendbuf, sc, MPI_INT, recvbuf, rcounts, displs, MPI_INT, root, comm):
     d.algo = "gatherv_linear"; d.dtype = GOAL_INT32; d.root = root;
     if (rank == root) { d.counts = rcounts; d.displs = displs; } else d.count = sc;
     goal_mpi_algo_run(m, &d, sendbuf, recvbuf);        (goal_mpi.h)
   One desc for every rank (goal_algo_world, `goal gen`): set counts_matrix = 1 for
   alltoallv; then counts is the p x p matrix, row i = rank i's sendcounts (so column j =
   rank j's recvcounts), recv_counts stays NULL, and displs / recv_displs, when given, are
   p x p as well (row i = rank i's sdispls / rdispls).

   ORDER OF REDUCTIONS
   -------------------
   The predefined ops (except copy) are commutative, and every reduction is correct with
   them. For a non-commutative op (a user function, GOAL_OP_USER with `fn`) set
   `noncommutative`: the result is then op(x0, op(x1, ... x_{p-1})) in rank order, with the
   op applied as buf1 = op(buf1, buf2) where buf1 always holds lower ranks than buf2.
   Algorithms that do this: reduce_binomial, reduce_knomial, reduce_chain (all reduce to rank 0 and forward
   to the root when the root is not 0), scan_linear, exscan_linear, allreduce_reduce_bcast,
   reduce_scatter_reduce_scatter, reduce_scatterv_reduce_scatterv. The others return
   GOAL_ERR_OP for `noncommutative`. Floating-point results differ from a serial loop by
   rounding only (the order of combination differs).
   Every rank that gets a result gets the same bits (the values of an allreduce, of every
   receiver of reduce_aspen): each value is combined once and then sent on, or combined by
   every rank in one agreed order. allreduce_ring and reduce_aspen reduce each element on one
   rank and distribute it; allreduce_recdoub's butterfly combines op(a, b) on one side and
   op(b, a) on the other, the same bits for every predefined op: IEEE sum and product are
   commutative, and max and min pick between -0 and +0, and between NaNs, by the total
   order on their bits (goal_sched.h), not by argument order. (Not covered: the sum or
   product of two NaNs of different payloads, whose payload IEEE leaves to the hardware,
   and a user op whose result depends on the order of its two arguments.) allreduce_dissemination's partial windows start at a different rank
   on every rank, so with floating point or a user op it gathers the raw blocks in its
   rounds and folds them on every rank in rank-order layout by the same tree: blocks
   [0, L/2) op= [L - L/2, L) for L = p, then L - L/2, ... down to 1. With integer ops
   (associative, so any order gives the same bits) it sends partial results.

   NEIGHBOURHOODS
   --------------
   goal_algo_neighbor_build appends a rank's part of a neighbourhood collective (MPI's
   MPI_Neighbor_allgather(v) / _alltoall(v,w)) given its neighbour lists: it sends block i of
   IN to dests[i] and receives block i of OUT from sources[i]; with `allgather` IN is one
   block (d->count elements), sent to every destination. Blocks as in VECTOR COLLECTIVES:
   d->counts / d->displs give IN's blocks (one per destination), d->recv_counts /
   d->recv_displs OUT's (one per source), NULL = `count` each / packed. A negative rank
   (MPI_PROC_NULL) sends or receives nothing, its block keeps its place. A rank may appear
   several times (a multigraph, a periodic dimension of size 1 or 2): the k-th send from a
   to b matches b's k-th receive from a, since sends are posted in list order and so are
   receives. With `cartesian` (lists as MPI_Cart_shift gives them, both the same) messages
   keep their direction instead, as MPI has it: block 2k+1 (to the +1 neighbour in dimension
   k) arrives in the receiver's block 2k (from its -1 neighbour), block 2k in block 2k+1;
   tags d->tag and d->tag + 1 tell the directions apart when both neighbours are one rank. Read from d: count, dtype, tag, slots, offsets, alloc and the arrays (d->algo
   is not). goal_algo_neighbor_world builds every rank's part (d[r] and nb[r] for rank r):
   the lists must agree (rank a lists b as a destination as often as b lists a as a source).
     int src[2] = {left, right}, dst[2] = {left, right};            // a ring, as MPI_Cart
     goal_algo_neighbors nb = {2, src, 2, dst, 1};                   // allgather
     goal_algo_desc d = {0}; d.count = n; d.dtype = GOAL_FLOAT64;
     int32_t done = goal_algo_neighbor_build(g, &d, &nb, NULL, 0, NULL, &err);

   COMPOSING
   ---------
   The returned action completes when this rank's part is done: every buffer it wrote
   holds its result and every buffer it reads may be changed. Two algorithms in flight at
   once on the same ranks (Aspen's concurrent reductions) need different `tag`s (or
   different execution contexts), different buffers, and different scratch ranges:
   goal_algo_part.scratch_end of the first is the scratch_offset of the second.
   Messages between the same two ranks within one algorithm are ordered by dependencies
   (irequires where only the posting order matters), so FIFO matching is never ambiguous.

   ERRORS
   ------
   Bad parameters give a negative goal_status and a message in the goal_error (may be
   NULL), never a crash: p <= 0, root or receivers or participants out of range, duplicate
   participants or receivers, empty P or R, nway < 0 (0 = default 1), an unknown algorithm,
   a negative count or displacement, counts_matrix or recv_counts where they do not apply,
   an alltoallv rank whose own send and receive counts differ, radix 1 or < 0, in_place
   on an algorithm without GOAL_ALGO_INPLACE,
   an op undefined on the dtype, a noncommutative op where the algorithm cannot keep the
   order, sizes that overflow. A graph error (out of memory) comes back as its status.

   LICENSE: MIT, as goal.h.
*/
#include "goal.h"   /* before the guard: an inclusion after the macro builds its implementation too */
#ifndef GOAL_ALGOS_H_INCLUDED
#define GOAL_ALGOS_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

#define GOAL_ALGO_SLOT_IN 0u     /* default slot of the input */
#define GOAL_ALGO_SLOT_OUT 1u    /* default slot of the output */

/* What an algorithm uses, for goal_algo_info.flags. */
#define GOAL_ALGO_ROOTED 0x01u   /* takes a root */
#define GOAL_ALGO_REDUCES 0x02u  /* applies op (dtype matters) */
#define GOAL_ALGO_ORDERED 0x04u  /* keeps rank order for a noncommutative op */
#define GOAL_ALGO_SEGMENTED 0x08u /* takes a segment size */
#define GOAL_ALGO_NWAY 0x10u     /* takes nway */
#define GOAL_ALGO_SETS 0x20u     /* takes participants and receivers */
#define GOAL_ALGO_RADIX 0x40u    /* takes radix */
#define GOAL_ALGO_VECTOR 0x100u  /* takes per-rank counts and displacements */
#define GOAL_ALGO_INPLACE 0x200u /* takes in_place: MPI_IN_PLACE without a copy (BUFFERS) */
#define GOAL_ALGO_WHOLE 0x400u   /* reduces whole blocks only: with count a multiple of k, never
                                    splits a buffer within a group of k elements (an MPI element
                                    libgoal moves as k bytes: goal_mpi.h DATATYPES AND OPS) */

/* ---- the collectives (COLLECTIVES): one row each --------------------------------------------
   X(ID, name, MPI call, GOAL_COLL_* flags, IN blocks, OUT blocks, in-place rule). The tuned
   rows come first, in the order goal tune prints them (goal_sim_coll_name's indices). */
#define GOAL_COLL_TABLE(X) \
    X(BCAST, "bcast", "MPI_Bcast", GOAL_COLL_ROOTED | GOAL_COLL_TUNED, 0, 1, NONE) \
    X(REDUCE, "reduce", "MPI_Reduce", GOAL_COLL_ROOTED | GOAL_COLL_REDUCES | GOAL_COLL_TUNED, 1, 1, ROOT_OUT) \
    X(ALLREDUCE, "allreduce", "MPI_Allreduce", GOAL_COLL_REDUCES | GOAL_COLL_TUNED, 1, 1, OUT) \
    X(ALLGATHER, "allgather", "MPI_Allgather", GOAL_COLL_TUNED, 1, GOAL_COLL_P, OWN_BLOCK) \
    X(ALLTOALL, "alltoall", "MPI_Alltoall", GOAL_COLL_TUNED, GOAL_COLL_P, GOAL_COLL_P, NONE) \
    X(GATHER, "gather", "MPI_Gather", GOAL_COLL_ROOTED | GOAL_COLL_TUNED, 1, GOAL_COLL_P, ROOT_OWN_BLOCK) \
    X(SCATTER, "scatter", "MPI_Scatter", GOAL_COLL_ROOTED | GOAL_COLL_TUNED, GOAL_COLL_P, 1, ROOT_IN_BLOCK) \
    X(REDUCE_SCATTER, "reduce_scatter", "MPI_Reduce_scatter_block", GOAL_COLL_REDUCES | GOAL_COLL_TUNED, GOAL_COLL_P, 1, NONE) \
    X(BARRIER, "barrier", "MPI_Barrier", GOAL_COLL_TUNED, 0, 0, NONE) \
    X(SCAN, "scan", "MPI_Scan", GOAL_COLL_REDUCES | GOAL_COLL_TUNED, 1, 1, OUT) \
    X(EXSCAN, "exscan", "MPI_Exscan", GOAL_COLL_REDUCES, 1, 1, OUT) \
    X(GATHERV, "gatherv", "MPI_Gatherv", GOAL_COLL_ROOTED | GOAL_COLL_VECTOR, 1, GOAL_COLL_P, ROOT_OWN_BLOCK) \
    X(SCATTERV, "scatterv", "MPI_Scatterv", GOAL_COLL_ROOTED | GOAL_COLL_VECTOR, GOAL_COLL_P, 1, ROOT_IN_BLOCK) \
    X(ALLGATHERV, "allgatherv", "MPI_Allgatherv", GOAL_COLL_VECTOR, 1, GOAL_COLL_P, OWN_BLOCK) \
    X(ALLTOALLV, "alltoallv", "MPI_Alltoallv", GOAL_COLL_VECTOR, GOAL_COLL_P, GOAL_COLL_P, NONE) \
    X(REDUCE_SCATTERV, "reduce_scatterv", "MPI_Reduce_scatter", GOAL_COLL_REDUCES | GOAL_COLL_VECTOR, GOAL_COLL_P, 1, NONE)

#define GOAL_COLL_ROOTED 0x01u   /* one rank is the root */
#define GOAL_COLL_REDUCES 0x02u  /* applies an op */
#define GOAL_COLL_VECTOR 0x04u   /* per-rank counts and displacements (VECTOR COLLECTIVES) */
#define GOAL_COLL_TUNED 0x08u    /* goal tune and COLL_auto search its algorithms */
#define GOAL_COLL_P (-1)         /* blocks: p of them (one per rank) */

typedef enum goal_coll {         /* GOAL_COLL_BCAST, ...: the rows of GOAL_COLL_TABLE */
#define GOAL__COLL_ENUM(id, name, mpi, flags, in, out, inplace) GOAL_COLL_##id,
    GOAL_COLL_TABLE(GOAL__COLL_ENUM)
#undef GOAL__COLL_ENUM
    GOAL_COLL_COUNT
} goal_coll;
enum {                           /* how many rows are GOAL_COLL_TUNED (the first ones) */
#define GOAL__COLL_TUNED(id, name, mpi, flags, in, out, inplace) + ((flags) & GOAL_COLL_TUNED ? 1 : 0)
    GOAL_COLL_NTUNED = 0 GOAL_COLL_TABLE(GOAL__COLL_TUNED)
#undef GOAL__COLL_TUNED
};

typedef enum goal_coll_inplace { /* where MPI_IN_PLACE puts a rank's input (BUFFERS) */
    GOAL_COLL_INPLACE_NONE,      /* no algorithm takes in_place (alltoall and reduce_scatter: copy the input first) */
    GOAL_COLL_INPLACE_OUT,       /* in OUT */
    GOAL_COLL_INPLACE_ROOT_OUT,  /* in OUT at the root; the other ranks use IN */
    GOAL_COLL_INPLACE_OWN_BLOCK, /* in this rank's block of OUT */
    GOAL_COLL_INPLACE_ROOT_OWN_BLOCK, /* in the root's block of OUT, at the root */
    GOAL_COLL_INPLACE_ROOT_IN_BLOCK   /* the root's result stays in its block of IN; its OUT is unused */
} goal_coll_inplace;

typedef struct goal_coll_info {
    goal_coll coll;
    const char *name;            /* "bcast": its algorithms are named bcast_* */
    const char *mpi;             /* the MPI call it is: "MPI_Bcast" */
    unsigned flags;              /* GOAL_COLL_* */
    int in_blocks, out_blocks;   /* blocks of `count` elements in IN and OUT: 0, 1 or GOAL_COLL_P
                                    (a vector collective's with counts and displs NULL) */
    goal_coll_inplace in_place;
} goal_coll_info;

/* Collective c's row, NULL outside 0 .. GOAL_COLL_COUNT-1. */
GOAL_API const goal_coll_info *goal_coll_get(int c);
/* The collective named name ("bcast"), or -1. */
GOAL_API int goal_coll_find(const char *name);
/* The collective whose MPI call is call without "MPI_", in lower case (the drop-in's and a
   recording's names: "reduce_scatter_block" is GOAL_COLL_REDUCE_SCATTER), or -1. */
GOAL_API int goal_coll_find_call(const char *call);
/* Every MPI collective call by that name, in one fixed order: the calls of the table's rows,
   then those no generator serves (alltoallw, the neighbourhood calls). The drop-in counts
   its calls in this order and a recording's anchors use these names. goal_coll_call(k) is
   call k (NULL outside 0 .. GOAL_COLL_NCALLS-1); goal_coll_call_find(call) its index or -1. */
#define GOAL_COLL_NCALLS 22
GOAL_API const char *goal_coll_call(int k);
GOAL_API int goal_coll_call_find(const char *call);
/* The collective of the algorithm named algo (its registry row), or -1 for no algorithm. */
GOAL_API int goal_algo_coll(const char *algo);
/* The blocks of collective c at p ranks in IN and OUT (*in, *out: 0, 1 or p). */
GOAL_API void goal_coll_blocks(int c, int p, uint64_t *in, uint64_t *out);

typedef struct goal_algo_info {
    const char *name;            /* canonical: "bcast_binomial" */
    const char *description;     /* one line */
    unsigned flags;              /* GOAL_ALGO_* */
    goal_coll coll;              /* the collective it implements */
} goal_algo_info;

typedef struct goal_algo_desc {  /* zero-initialise, then set what differs */
    const char *algo;            /* canonical name (required) */
    int root;                    /* default 0 */
    uint64_t count;              /* elements per block; default 0 (empty messages) */
    goal_dtype dtype;            /* default GOAL_INT32 (the enum's zero) */
    goal_op op;                  /* default GOAL_OP_SUM (the enum's zero) */
    uint32_t fn;                 /* user function id when op == GOAL_OP_USER */
    int noncommutative;          /* 1: apply op in rank order (see ORDER OF REDUCTIONS) */
    int nway;                    /* dissemination fan-out; default 1 */
    uint64_t segment;            /* chain segment in bytes; default 1024 */
    int radix;                   /* k-nomial trees: K >= 2; default 4 */
    int tag;                     /* tag of every message; default 0 */
    const int *participants;     /* reduce_aspen: P; NULL = all ranks */
    int nparticipants;
    const int *receivers;        /* reduce_aspen: R; NULL = { root } */
    int nreceivers;
    int custom_slots;            /* 0: IN = slot 0, OUT = slot 1; 1: use the next two */
    uint32_t in_slot, out_slot;
    uint64_t in_offset, out_offset, scratch_offset;
    goal_allocator alloc;        /* for temporary memory while building */
    /* Vector collectives (*v_*): MPI's arrays, passed straight through (VECTOR COLLECTIVES) */
    const int *counts;           /* p elements per block; NULL = `count` each */
    const int *displs;           /* p displacements in elements; NULL = packed in rank order */
    const int *recv_counts;      /* alltoallv: recvcounts (counts = sendcounts); NULL = `count` each */
    const int *recv_displs;      /* alltoallv: rdispls (displs = sdispls); NULL = packed */
    int counts_matrix;           /* alltoallv, one desc for all ranks: counts is p x p, row i = rank i's */
    int in_place;                /* 1: MPI_IN_PLACE, the input lies in OUT (BUFFERS); GOAL_ALGO_INPLACE only */
} goal_algo_desc;

typedef struct goal_algo_part {  /* what goal_algo_build reports */
    int32_t done;                /* completes when this rank's part is done */
    uint64_t scratch_end;        /* scratch_offset + the scratch bytes this part uses */
} goal_algo_part;

/* The i-th algorithm (0, 1, ...), NULL past the end. */
GOAL_API const goal_algo_info *goal_algo_list(int i);
/* The algorithm with this canonical name, or NULL. */
GOAL_API const goal_algo_info *goal_algo_find(const char *name);
/* Checks d for p ranks without building anything. */
GOAL_API goal_status goal_algo_check(const goal_algo_desc *d, int nranks, goal_error *err);
/* Appends rank goal_graph_rank(g)'s part to g, after the nafter actions in after.
   Returns the action that completes it (>= 0), or a negative goal_status. */
GOAL_API int32_t goal_algo_build(goal_graph *g, const goal_algo_desc *d, const int32_t *after, int nafter,
                                 goal_algo_part *part, goal_error *err);
/* Builds and compiles every rank's part into a new world of nranks ranks. */
GOAL_API goal_status goal_algo_world(goal_world **out, const goal_algo_desc *d, int nranks, goal_error *err);

typedef struct goal_algo_neighbors {   /* one rank's neighbourhood (NEIGHBOURHOODS) */
    int nsources;                /* receives block i of OUT from sources[i] */
    const int *sources;          /*   a negative rank: none (MPI_PROC_NULL) */
    int ndests;                  /* sends block i of IN to dests[i] */
    const int *dests;
    int allgather;               /* 1: IN is one block of d->count, sent to every destination */
    int cartesian;               /* 1: MPI_Cart's lists (-1, +1 per dimension): what goes to the
                                    +1 neighbour arrives in its -1 block, and the reverse */
} goal_algo_neighbors;
/* Appends rank goal_graph_rank(g)'s part of the neighbourhood collective nb to g, after
   the nafter actions in after. Returns the action that completes it, or a negative status. */
GOAL_API int32_t goal_algo_neighbor_build(goal_graph *g, const goal_algo_desc *d, const goal_algo_neighbors *nb,
                                          const int32_t *after, int nafter, goal_algo_part *part, goal_error *err);
/* Builds every rank's part (d[r], nb[r]: rank r's desc and lists) into a new world. */
GOAL_API goal_status goal_algo_neighbor_world(goal_world **out, const goal_algo_desc *d, const goal_algo_neighbors *nb,
                                              int nranks, goal_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GOAL_ALGOS_H_INCLUDED */

/* ======================================================================================= */
/*                                   IMPLEMENTATION                                         */
/* ======================================================================================= */
#if (defined(GOAL_ALGOS_IMPLEMENTATION) || defined(GOAL_ALL_IMPLEMENTATION)) && !defined(GOAL__ALGOS_IMPL_DONE)
#define GOAL__ALGOS_IMPL_DONE

#include <stdio.h>
#include <string.h>
#include <stdlib.h>   /* qsort */

/* ---- >>> context ------------------------------------------------------------------------ */
/* One build: the graph, the parameters resolved, and which actions already have a
   dependent (the others are the sinks the final join waits for). */
typedef struct goal__algo {
    goal_graph *g;
    const goal_algo_desc *d;
    int rank, p, root, v, tag;
    goal_dtype dtype;
    uint64_t es, count, n;         /* element size, elements, n = count * es bytes */
    goal_buf in, out;              /* the blocks at in_offset / out_offset, n bytes */
    uint64_t scratch;              /* next free scratch byte */
    int32_t start, first;          /* action everything waits for (-1: none); first id */
    uint8_t *used;                 /* used[id - first]: some action requires id */
    size_t ucap;
    goal_allocator alloc;
    goal_status st;                /* first failure of a helper */
    const uint64_t *ic, *io, *oc, *oo; /* vector collectives: bytes and offsets of IN's and
                                      OUT's p blocks (NULL otherwise); see goal__algo_vec_init */
    uint64_t *vmem;
} goal__algo;

/* Marks id as having a dependent; grows the table as actions are added. */
static void goal__algo_mark(goal__algo *c, int32_t id, int used) {
    size_t k;
    if (id < c->first) return;
    k = (size_t)(id - c->first);
    if (k >= c->ucap) {
        size_t old = c->ucap;
        if (goal__reserve(&c->alloc, (void **)&c->used, &c->ucap, k + 1u, 1) != GOAL_OK) { c->st = GOAL_ERR_NOMEM; return; }
        memset(c->used + old, 0, c->ucap - old);
    }
    if (used) c->used[k] = 1;
}

/* a starts after b completed; b < 0 means "after the start". */
static void goal__algo_dep(goal__algo *c, int32_t a, int32_t b) {
    goal_status st;
    if (b < 0) b = c->start;
    if (a < 0 || b < 0) return;
    if ((st = goal_graph_requires(c->g, a, b)) != GOAL_OK && c->st == GOAL_OK) c->st = st;
    goal__algo_mark(c, b, 1);
}
/* a is posted after b was posted: keeps FIFO order without waiting for completion. */
static void goal__algo_order(goal__algo *c, int32_t a, int32_t b) {
    goal_status st;
    if (a < 0 || b < 0) return;
    if ((st = goal_graph_irequires(c->g, a, b)) != GOAL_OK && c->st == GOAL_OK) c->st = st;
}
/* Registers a new action: it waits for dep (or the start). */
static int32_t goal__algo_new(goal__algo *c, int32_t id, int32_t dep) {
    if (id < 0) { if (c->st == GOAL_OK) c->st = (goal_status)id; return id; }
    goal__algo_mark(c, id, 0);
    goal__algo_dep(c, id, dep);
    return id;
}

static int32_t goal__algo_send(goal__algo *c, goal_buf b, int peer, int32_t dep) {
    return goal__algo_new(c, goal_graph_send(c->g, b, peer, c->tag), dep);
}
static int32_t goal__algo_recv(goal__algo *c, goal_buf b, int peer, int32_t dep) {
    return goal__algo_new(c, goal_graph_recv(c->g, b, peer, c->tag), dep);
}
/* dst = op(dst, src) with the reduction of the desc. */
static int32_t goal__algo_reduce(goal__algo *c, goal_buf dst, goal_buf src, int32_t dep) {
    int32_t id = c->d->op == GOAL_OP_USER ? goal_graph_user(c->g, c->d->fn, dst, src)
                                          : goal_graph_exec(c->g, c->d->op, c->dtype, dst, src);
    return goal__algo_new(c, id, dep);
}
static int goal__algo_same(goal_buf a, goal_buf b) { return a.slot == b.slot && a.offset == b.offset; }
/* dst = src, bytewise; nothing when they are the same buffer. */
static int32_t goal__algo_copy(goal__algo *c, goal_buf dst, goal_buf src, int32_t dep) {
    if (goal__algo_same(dst, src)) return dep;
    return goal__algo_new(c, goal_graph_exec(c->g, GOAL_OP_COPY, GOAL_UINT8, dst, src), dep);
}
/* A nop after a and b (either may be -1); a itself when b is -1. */
static int32_t goal__algo_join(goal__algo *c, int32_t a, int32_t b) {
    int32_t j;
    if (b < 0) return a;
    if (a < 0) return b;
    j = goal__algo_new(c, goal_graph_nop(c->g), a);
    goal__algo_dep(c, j, b);
    return j;
}
/* Collects actions one by one into one action after all of them: the first itself, a
   nop from the second on (so one nop, whatever the number). */
typedef struct goal__algo_joiner { int32_t id; int nop; } goal__algo_joiner;
static void goal__algo_join_add(goal__algo *c, goal__algo_joiner *j, int32_t a) {
    if (a < 0) return;
    if (j->id < 0) { j->id = a; return; }
    if (!j->nop) { j->id = goal__algo_join(c, j->id, a); j->nop = 1; return; }
    goal__algo_dep(c, j->id, a);
}

/* ---- >>> buffers ------------------------------------------------------------------------ */
static goal_buf goal__algo_at(goal_buf base, uint64_t off, uint64_t size) {
    return goal_buffer(base.slot, base.offset + off, size);
}
static goal_buf goal__algo_blk(const goal__algo *c, goal_buf base, uint64_t i) { return goal__algo_at(base, i * c->n, c->n); }
/* Block i of IN / OUT where they hold one block per rank: n bytes each, or the vector
   collective's layout. own_in / own_out: this rank's single block (gather's IN, scatter's
   OUT), which a vector collective sizes as counts[rank]. */
static goal_buf goal__algo_iblk(const goal__algo *c, int i) {
    return c->ic ? goal__algo_at(c->in, c->io[i], c->ic[i]) : goal__algo_blk(c, c->in, (uint64_t)i);
}
static goal_buf goal__algo_oblk(const goal__algo *c, int i) {
    return c->oc ? goal__algo_at(c->out, c->oo[i], c->oc[i]) : goal__algo_blk(c, c->out, (uint64_t)i);
}
static goal_buf goal__algo_own_in(const goal__algo *c) { return c->ic ? goal__algo_iblk(c, c->rank) : c->in; }
static goal_buf goal__algo_own_out(const goal__algo *c) { return c->oc ? goal__algo_oblk(c, c->rank) : c->out; }
static goal_buf goal__algo_scratch(goal__algo *c, uint64_t size) {
    goal_buf b = goal_buffer(GOAL_SLOT_SCRATCH, c->scratch, size);
    c->scratch += size;
    return b;
}
static int goal__algo_mod(long long a, int p) { return (int)(((a % p) + p) % p); }
/* The rank at position v of an order that starts at rank base. */
static int goal__algo_abs(const goal__algo *c, int base, long long v) { return goal__algo_mod(v + base, c->p); }
static int goal__algo_rank_of(const goal__algo *c, long long v) { return goal__algo_abs(c, c->root, v); }
static int goal__algo_ceil_log2(int p) { int k = 0; while ((1LL << k) < p) k++; return k; }
static int goal__algo_floor_pow2(int p) { int r = 1; while (2LL * r <= p) r *= 2; return r; }

/* ---- >>> trees ------------------------------------------------------------------------------ */
/* Binomial tree with contiguous subtrees (v's subtree is [v, v + lowbit(v))): v's parent is
   v - lowbit(v); its children are v + 2^k for 2^k < lowbit(v), smallest first. Returns the
   number of children; *parent = -1 at the root. */
static int goal__algo_binomial(int v, int p, int *parent, int *child) {
    int k, nc = 0;
    *parent = -1;
    for (k = 0; (1LL << k) < p; k++) {
        if (v & (1 << k)) { *parent = v - (1 << k); break; }
        if (v + (1LL << k) < p) child[nc++] = v + (1 << k);
    }
    return nc;
}
/* Size of v's subtree in that tree. */
static int goal__algo_subtree(int v, int p) {
    long long low = v ? (v & -v) : (1LL << goal__algo_ceil_log2(p));
    return (int)(v + low < p ? low : p - v);
}

/* ---- >>> broadcast ------------------------------------------------------------------------ */
static int goal__algo_radix(const goal__algo *c) { return c->d->radix ? c->d->radix : 4; }

/* k-nomial broadcast: in round t (w = K^t) every v < w sends to v + j w, j = 1..K-1, and v in
   [w, K w) receives from v mod w: ceil(log_K p) rounds. K = 2 is Listing 2's binomial tree. */
static void goal__algo_bcast_knomial_k(goal__algo *c, long long K) {
    int32_t rcv = -1;
    long long w, j;
    for (w = 1; w < c->p; w *= K) {
        for (j = 1; c->v < w && j < K && c->v + j * w < c->p; j++) goal__algo_send(c, c->out, goal__algo_rank_of(c, c->v + j * w), rcv);
        if (c->v >= w && c->v < K * w) rcv = goal__algo_recv(c, c->out, goal__algo_rank_of(c, c->v % w), -1);
    }
}
static void goal__algo_bcast_binomial(goal__algo *c) { goal__algo_bcast_knomial_k(c, 2); }
static void goal__algo_bcast_knomial(goal__algo *c) { goal__algo_bcast_knomial_k(c, goal__algo_radix(c)); }

static void goal__algo_bcast_binary(goal__algo *c) {
    int32_t rcv = -1;
    long long k;
    if (c->v > 0) rcv = goal__algo_recv(c, c->out, goal__algo_rank_of(c, (c->v - 1) / 2), -1);
    for (k = 2LL * c->v + 1; k <= 2LL * c->v + 2 && k < c->p; k++) goal__algo_send(c, c->out, goal__algo_rank_of(c, (int)k), rcv);
}

/* Segments of the chains: whole elements, at least one segment even for 0 bytes. */
static uint64_t goal__algo_seg_bytes(const goal__algo *c) {
    uint64_t seg = c->d->segment ? c->d->segment : 1024, el = seg / c->es;
    return (el ? el : 1) * c->es;
}
static uint64_t goal__algo_nsegs(const goal__algo *c) {
    uint64_t s = goal__algo_seg_bytes(c);
    return c->n ? (c->n + s - 1) / s : 1;
}
static goal_buf goal__algo_seg(const goal__algo *c, goal_buf base, uint64_t k) {
    uint64_t s = goal__algo_seg_bytes(c), off = k * s;
    return goal__algo_at(base, off, c->n - off < s ? c->n - off : s);
}

/* Pipelined chain v-1 -> v -> v+1: segment k is forwarded as soon as it arrived; sends (and
   receives) of one rank keep segment order. */
static void goal__algo_bcast_chain(goal__algo *c) {
    uint64_t k, ns = goal__algo_nsegs(c);
    int32_t prevs = -1, prevr = -1, r = -1;
    int left = goal__algo_rank_of(c, c->v - 1), right = goal__algo_rank_of(c, c->v + 1);
    for (k = 0; k < ns && c->p > 1; k++) {
        goal_buf b = goal__algo_seg(c, c->out, k);
        if (c->v > 0) {
            r = goal__algo_recv(c, b, left, -1);
            goal__algo_order(c, r, prevr);
            prevr = r;
        }
        if (c->v < c->p - 1) {
            int32_t s = goal__algo_send(c, b, right, r);
            goal__algo_dep(c, s, prevs);
            prevs = s;
        }
    }
}

/* Schedgen's double ring: the data goes around the ring in both directions back to the
   root; a rank keeps the copy from its left in OUT and forwards the other from scratch. */
static void goal__algo_bcast_doublering(goal__algo *c) {
    int left = goal__algo_rank_of(c, c->v - 1), right = goal__algo_rank_of(c, c->v + 1);
    goal_buf second;
    int32_t r1, r2, s1;
    if (c->p == 1) return;
    second = goal__algo_scratch(c, c->n);
    r1 = goal__algo_recv(c, c->v ? c->out : goal__algo_scratch(c, c->n), left, -1);
    s1 = goal__algo_send(c, c->out, right, c->v ? r1 : -1);
    r2 = goal__algo_recv(c, second, right, -1);
    goal__algo_order(c, r2, r1);
    goal__algo_order(c, goal__algo_send(c, c->v ? second : c->out, left, c->v ? r2 : -1), s1);
}

/* ---- >>> reduction --------------------------------------------------------------------------- */
/* The rank a rooted reduction reduces to: rank 0 when rank order must hold (the tree of
   v = rank keeps it), else the root itself. */
static int goal__algo_reduce_root(const goal__algo *c) { return c->d->noncommutative ? 0 : c->root; }

/* Moves the result from rank `from` (acc, complete after last) to the root's OUT. */
static void goal__algo_forward(goal__algo *c, goal_buf acc, int32_t last, int from) {
    if (from == c->root) return;
    if (c->rank == from) goal__algo_send(c, acc, c->root, last);
    if (c->rank == c->root) goal__algo_recv(c, c->out, from, -1);
}
/* Where a rank accumulates: OUT when it is the root and reduces itself, else scratch. */
static goal_buf goal__algo_acc(goal__algo *c, int v, int rr) {
    return v == 0 && rr == c->root ? c->out : goal__algo_scratch(c, c->n);
}

/* acc = op(acc, what `peer` sends), after last; returns the exec. */
static int32_t goal__algo_combine(goal__algo *c, goal_buf acc, int peer, int32_t last) {
    goal_buf tmp = goal__algo_scratch(c, c->n);
    int32_t r = goal__algo_recv(c, tmp, peer, -1), e = goal__algo_reduce(c, acc, tmp, last);
    goal__algo_dep(c, e, r);
    return e;
}

/* Receive-reduce-send on the k-nomial tree with contiguous subtrees: v's parent clears v's
   lowest nonzero base-K digit (weight low); its children are v + j w for w = K^t < low,
   j = 1..K-1, each the root of [v + j w, v + (j+1) w). Combined in that order (smallest
   first), acc always holds a range [v, ...) of positions. K = 2: goal__algo_binomial's tree. */
static void goal__algo_reduce_knomial_k(goal__algo *c, long long K) {
    int rr = goal__algo_reduce_root(c), v = goal__algo_mod((long long)c->rank - rr, c->p);
    long long low = 1, w, j;
    goal_buf acc = c->in;
    int32_t last = -1;
    while (v && (v / low) % K == 0) low *= K;
    if (v == 0 || (low > 1 && v + 1 < c->p)) { acc = goal__algo_acc(c, v, rr); last = goal__algo_copy(c, acc, c->in, -1); }
    for (w = 1; w < c->p && (v == 0 || w < low); w *= K)
        for (j = 1; j < K && v + j * w < c->p; j++) last = goal__algo_combine(c, acc, goal__algo_abs(c, rr, v + j * w), last);
    if (v) goal__algo_send(c, acc, goal__algo_abs(c, rr, v - (v / low) % K * low), last);
    goal__algo_forward(c, acc, last, rr);
}
static void goal__algo_reduce_binomial(goal__algo *c) { goal__algo_reduce_knomial_k(c, 2); }
static void goal__algo_reduce_knomial(goal__algo *c) { goal__algo_reduce_knomial_k(c, goal__algo_radix(c)); }

/* Pipelined chain v+1 -> v -> v-1, segment by segment; each rank combines its own segment
   with what comes from further up (positions above it) and passes it on. */
static void goal__algo_reduce_chain(goal__algo *c) {
    int rr = goal__algo_reduce_root(c), v = goal__algo_mod((long long)c->rank - rr, c->p);
    uint64_t k, ns = goal__algo_nsegs(c);
    goal_buf acc = c->in, tmp = c->in;
    int32_t prevs = -1, prevr = -1, last = -1;
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    if (v < c->p - 1) { acc = goal__algo_acc(c, v, rr); tmp = goal__algo_scratch(c, c->n); }
    for (k = 0; k < ns; k++) {
        goal_buf a = goal__algo_seg(c, acc, k);
        int32_t ready = -1;
        if (v < c->p - 1) {
            int32_t cp = goal__algo_copy(c, a, goal__algo_seg(c, c->in, k), -1);
            int32_t r = goal__algo_recv(c, goal__algo_seg(c, tmp, k), goal__algo_abs(c, rr, v + 1), -1);
            goal__algo_order(c, r, prevr);
            prevr = r;
            ready = goal__algo_reduce(c, a, goal__algo_seg(c, tmp, k), cp);
            goal__algo_dep(c, ready, r);
            goal__algo_dep(c, ready, last);   /* in order, so the last one means all */
            last = ready;
        }
        if (v > 0) {
            int32_t s = goal__algo_send(c, a, goal__algo_abs(c, rr, v - 1), ready);
            goal__algo_dep(c, s, prevs);
            prevs = s;
        }
    }
    goal__algo_forward(c, acc, last, rr);
}

/* Butterfly among positions [0, q) (a power of two) on acc, which is complete after last.
   In the last exchange only links to positions < keep are kept (Aspen's pruning). X maps
   positions to ranks (NULL: the identity). Returns the action after which acc is final. */
static int32_t goal__algo_butterfly(goal__algo *c, goal_buf acc, int x, int q, int keep, const int *X, int32_t last) {
    goal_buf tmp;
    int mask;
    if (q < 2) return last;
    tmp = goal__algo_scratch(c, c->n);
    for (mask = 1; mask < q; mask <<= 1) {
        int y = x ^ mask, peer = X ? X[y] : y, final = 2 * mask >= q;
        int32_t s = -1, r, e;
        if (!final || y < keep) s = goal__algo_send(c, acc, peer, last);
        if (final && x >= keep) continue;
        r = goal__algo_recv(c, tmp, peer, last);     /* tmp is free once last is done */
        e = goal__algo_reduce(c, acc, tmp, r);
        goal__algo_dep(c, e, s);                      /* acc is being sent until then */
        goal__algo_dep(c, e, last);
        last = e;
    }
    return last;
}

/* Aspen 2.1: ranks >= rho fold into rank - rho, butterfly among [0, rho), and back. */
static void goal__algo_allreduce_recdoub(goal__algo *c) {
    int rho = goal__algo_floor_pow2(c->p), x = c->rank;
    int32_t last;
    if (x >= rho) {
        goal__algo_send(c, c->in, x - rho, -1);
        goal__algo_recv(c, c->out, x - rho, -1);
        return;
    }
    last = goal__algo_copy(c, c->out, c->in, -1);
    if (x + rho < c->p) last = goal__algo_combine(c, c->out, x + rho, last);
    last = goal__algo_butterfly(c, c->out, x, rho, rho, NULL, last);
    if (x + rho < c->p) goal__algo_send(c, c->out, x + rho, last);
}

/* ---- >>> Aspen's reduction (ICS'08, section 3.2) ---------------------------------------------- */
/* The sets of one reduce_aspen, numbered as the paper says: X lists the participants, those
   that receive first; D lists who gets the result by delivery (receivers outside P, and
   receivers folded out of P). */
typedef struct goal__aspen {
    int *X, *D, *role;       /* role[rank]: bit 1 in P, bit 2 in R */
    int np, nrp, nrnp, nd;   /* |P|, |Rp|, |Rnp| (original), |D| */
    int rho, q, h;           /* fold target, butterfly size, holders of the result */
} goal__aspen;

static int goal__algo_cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
/* Fills role[] from a list (NULL: the default) with the given bit. */
static void goal__aspen_mark(goal__aspen *s, int p, const int *list, int n, int dflt, int bit) {
    int i;
    if (!list) {
        for (i = 0; i < p; i++) if (dflt < 0 || i == dflt) s->role[i] |= bit;
        return;
    }
    for (i = 0; i < n; i++) s->role[list[i]] |= bit;
}
static goal_status goal__aspen_plan(goal__algo *c, goal__aspen *s) {
    const goal_algo_desc *d = c->d;
    int p = c->p, i, m, moved;
    memset(s, 0, sizeof *s);
    if (!(s->role = (int *)goal__calloc(&c->alloc, (size_t)p * 3, sizeof(int)))) return GOAL_ERR_NOMEM;
    s->X = s->role + p;
    s->D = s->X + p;
    goal__aspen_mark(s, p, d->participants, d->nparticipants, -1, 1);
    goal__aspen_mark(s, p, d->receivers, d->nreceivers, c->root, 2);
    for (i = 0; i < p; i++) if (s->role[i] == 3) s->X[s->np++] = i;
    s->nrp = s->np;
    for (i = 0; i < p; i++) if (s->role[i] == 1) s->X[s->np++] = i;
    for (i = 0; i < p; i++) if (s->role[i] == 2) s->D[s->nd++] = i;
    s->nrnp = s->nd;
    s->rho = goal__algo_floor_pow2(s->np);
    /* receivers folded out of P get the result like non-participants */
    for (moved = 0, i = s->rho; i < s->nrp; i++, moved++) s->D[s->nd++] = s->X[i];
    qsort(s->D, (size_t)s->nd, sizeof(int), goal__algo_cmp_int);
    m = s->nrp - moved > s->nd ? s->nrp - moved : s->nd;
    for (s->q = s->rho; s->q >= 2 * m; s->q /= 2) {}
    s->h = m < s->q ? m : s->q;
    return GOAL_OK;
}
static int goal__aspen_pos(const int *list, int n, int rank) {
    int i;
    for (i = 0; i < n; i++) if (list[i] == rank) return i;
    return -1;
}

/* Participant x: fold, halve, butterfly. Returns the action after which acc is final (or
   -1 when x only sends). */
static int32_t goal__aspen_reduce(goal__algo *c, const goal__aspen *s, int x, goal_buf acc) {
    int32_t last;
    int qq;
    if (x >= s->rho) { goal__algo_send(c, c->in, s->X[x - s->rho], -1); return -1; }
    last = goal__algo_copy(c, acc, c->in, -1);
    if (x + s->rho < s->np) last = goal__algo_combine(c, acc, s->X[x + s->rho], last);
    for (qq = s->rho; qq > s->q; qq /= 2) {
        int half = qq / 2;
        if (x >= half) { goal__algo_send(c, acc, s->X[x - half], last); return -1; }
        last = goal__algo_combine(c, acc, s->X[x + half], last);
    }
    return goal__algo_butterfly(c, acc, x, s->q, s->h, s->X, last);
}

/* Position i of the delivery order: the h holders, then D. */
static int goal__aspen_at(const goal__aspen *s, long long i) { return i < s->h ? s->X[i] : s->D[i - s->h]; }

/* Delivery to D: directly from the h holders when |Rnp| <= |P| (one round); else position
   i >= h of (holders, D) gets the result from i - h 2^t in round t (h 2^t <= i < h 2^(t+1))
   and passes it on to i + h 2^t' in the later rounds t': binomial trees from every holder. */
static void goal__aspen_deliver(goal__algo *c, const goal__aspen *s, int x, goal_buf acc, int32_t last) {
    int dpos = goal__aspen_pos(s->D, s->nd, c->rank), h = s->h, j;
    long long i, step = h, n = (long long)h + s->nd;
    if (s->nrnp <= s->np) {
        if (x >= 0 && x < h) for (j = x; j < s->nd; j += h) goal__algo_send(c, acc, s->D[j], last);
        if (dpos >= 0) goal__algo_recv(c, c->out, s->X[dpos % h], -1);
        return;
    }
    i = x >= 0 && x < h ? x : dpos >= 0 ? h + dpos : -1;
    if (i < 0) return;
    if (i >= h) {
        while (i >= 2 * step) step *= 2;
        last = goal__algo_recv(c, c->out, goal__aspen_at(s, i - step), -1);
        acc = c->out;
        step *= 2;
    }
    for (; i + step < n; step *= 2) goal__algo_send(c, acc, goal__aspen_at(s, i + step), last);
}

static void goal__algo_reduce_aspen(goal__algo *c) {
    goal__aspen s;
    goal_status st = goal__aspen_plan(c, &s);
    int x;
    goal_buf acc = c->out;
    int32_t last = -1;
    if (st != GOAL_OK) { c->st = st; return; }
    x = goal__aspen_pos(s.X, s.np, c->rank);
    if (x >= 0) {
        if (x >= s.rho) acc = c->in;
        else if (x >= s.nrp) acc = goal__algo_scratch(c, c->n);
        last = goal__aspen_reduce(c, &s, x, acc);
    }
    goal__aspen_deliver(c, &s, x, acc, last);
    goal__free(&c->alloc, s.role);
}

/* ---- >>> dissemination (GOAL paper, Listing 3) ----------------------------------------------- */
static int goal__algo_nway(const goal__algo *c) { return c->d->nway ? c->d->nway : 1; }

/* Barrier: in round t rank i sends to i + w (n+1)^t and hears from i - w (n+1)^t (w = 1..n,
   distances < p); a round starts when every message of the last one arrived. */
static void goal__algo_barrier_dissemination(goal__algo *c) {
    long long n = goal__algo_nway(c), pw, w;
    goal_buf none = goal__algo_at(c->out, 0, 0);
    int32_t last = -1;
    for (pw = 1; pw < c->p; pw *= n + 1) {
        goal__algo_joiner j = {-1, 0};
        for (w = 1; w <= n && w * pw < c->p; w++) {
            goal__algo_send(c, none, goal__algo_mod(c->rank + w * pw, c->p), last);
            goal__algo_join_add(c, &j, goal__algo_recv(c, none, goal__algo_mod(c->rank - w * pw, c->p), last));
        }
        last = j.id;
    }
}

/* Whether every order of combination gives the same bits: the predefined ops on integers
   (wrapping arithmetic, min/max, bitwise and logical ops are associative). Floating point
   and user functions are not, so there ranks must combine in one agreed order. */
static int goal__algo_exact(const goal__algo *c) { return c->d->op != GOAL_OP_USER && ((unsigned)c->dtype >> 4) != 2; }

/* The rounds of a dissemination over p: pw[t] = (n+1)^t for t <= T, T full rounds, then a
   last one for the m = p - pw[T] contributions still missing. */
#define GOAL__ALGO_MAXROUNDS 64   /* (n+1)^t < p < 2^31 */
typedef struct goal__algo_dissem { long long n, m, pw[GOAL__ALGO_MAXROUNDS]; int T; } goal__algo_dissem;
static void goal__algo_dissem_plan(const goal__algo *c, goal__algo_dissem *s) {
    s->n = goal__algo_nway(c);
    s->T = 0;
    for (s->pw[0] = 1; s->pw[s->T] * (s->n + 1) < c->p; s->T++) s->pw[s->T + 1] = s->pw[s->T] * (s->n + 1);
    s->m = c->p - s->pw[s->T];
}

/* Allreduce with exact ops: after round t, H[t+1] holds the (n+1)^(t+1) contributions i,
   i-1, ... The last round needs m more: for each base-(n+1) digit d_t of m, d_t windows H[t]
   from successive distances. So every contribution counts exactly once, for every p. */
static void goal__algo_dissem_partial(goal__algo *c, const goal__algo_dissem *s) {
    long long n = s->n, m = s->m, dist, w, k;
    goal_buf H[GOAL__ALGO_MAXROUNDS], tmp;
    int T = s->T, t, msgs = 0;
    int32_t last = -1, e;
    for (t = T; t >= 0; t--) msgs += (int)((m / s->pw[t]) % (n + 1));
    tmp = goal__algo_scratch(c, (uint64_t)(msgs > n ? msgs : n) * c->n);
    H[0] = c->in;
    for (t = 0; t < T; t++) {
        H[t + 1] = goal__algo_scratch(c, c->n);
        e = goal__algo_copy(c, H[t + 1], H[t], last);
        for (w = 1; w <= n; w++) {
            goal_buf b = goal__algo_blk(c, tmp, (uint64_t)(w - 1));
            int32_t r = goal__algo_recv(c, b, goal__algo_mod(c->rank - w * s->pw[t], c->p), last);
            goal__algo_send(c, H[t], goal__algo_mod(c->rank + w * s->pw[t], c->p), last);
            e = goal__algo_reduce(c, H[t + 1], b, e);
            goal__algo_dep(c, e, r);
        }
        last = e;
    }
    e = goal__algo_copy(c, c->out, H[T], last);
    for (dist = s->pw[T], k = 0, t = T; t >= 0; t--) {
        for (w = (m / s->pw[t]) % (n + 1); w > 0; w--, dist += s->pw[t], k++) {
            goal_buf b = goal__algo_blk(c, tmp, (uint64_t)k);
            int32_t r = goal__algo_recv(c, b, goal__algo_mod(c->rank - dist, c->p), last);
            goal__algo_send(c, H[t], goal__algo_mod(c->rank + dist, c->p), last);
            e = goal__algo_reduce(c, c->out, b, e);
            goal__algo_dep(c, e, r);
        }
    }
}

static int32_t goal__algo_rotate(goal__algo *c, goal_buf ranks, goal_buf pos, int shift, int to_ranks, int32_t dep);

/* One message of the raw variant: the window of the newest `len` contributions (the end of
   G) to rank + dist, and the sender's window from rank - dist into G, `dist` blocks before
   the end. Returns the receive. */
static int32_t goal__algo_dissem_window(goal__algo *c, goal_buf G, long long dist, long long len, int32_t last) {
    uint64_t p = (uint64_t)c->p, n = c->n;
    int32_t r = goal__algo_recv(c, goal__algo_at(G, (p - (uint64_t)(dist + len)) * n, (uint64_t)len * n),
                                goal__algo_mod(c->rank - dist, c->p), last);
    goal__algo_send(c, goal__algo_at(G, (p - (uint64_t)len) * n, (uint64_t)len * n), goal__algo_mod(c->rank + dist, c->p), last);
    return r;
}

/* Allreduce with inexact ops: the same rounds and peers, but the windows carry the raw
   contributions (as allgather_bruck does), G[k] = rank + 1 + k (own block last). Then every
   rank puts them in rank order and folds them by one tree: level by level, blocks
   [0, L/2) op= [L - L/2, L), one action per level. Same tree on every rank, same bits. */
static void goal__algo_dissem_raw(goal__algo *c, const goal__algo_dissem *s) {
    uint64_t p = (uint64_t)c->p, n = c->n, L, half;
    goal_buf G = goal__algo_scratch(c, p * n), A = goal__algo_scratch(c, p * n);
    long long dist, w;
    int t;
    goal__algo_joiner fin = {-1, 0};
    int32_t last = goal__algo_copy(c, goal__algo_blk(c, G, p - 1), c->in, -1);
    for (t = 0; t < s->T; t++) {
        goal__algo_joiner j = {-1, 0};
        for (w = 1; w <= s->n; w++) goal__algo_join_add(c, &j, goal__algo_dissem_window(c, G, w * s->pw[t], s->pw[t], last));
        last = j.id;   /* every receive waited for last */
    }
    for (dist = s->pw[s->T], t = s->T; t >= 0; t--)
        for (w = (s->m / s->pw[t]) % (s->n + 1); w > 0; w--, dist += s->pw[t])
            goal__algo_join_add(c, &fin, goal__algo_dissem_window(c, G, dist, s->pw[t], last));
    last = goal__algo_rotate(c, A, G, (int)((uint64_t)(c->rank + 1) % p), 1, fin.id);
    for (L = p; L > 1; L -= half) {
        half = L / 2;
        last = goal__algo_reduce(c, goal__algo_at(A, 0, half * n), goal__algo_at(A, (L - half) * n, half * n), last);
    }
    goal__algo_copy(c, c->out, goal__algo_blk(c, A, 0), last);
}

static void goal__algo_allreduce_dissemination(goal__algo *c) {
    goal__algo_dissem s;
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    goal__algo_dissem_plan(c, &s);
    if (goal__algo_exact(c)) goal__algo_dissem_partial(c, &s);
    else goal__algo_dissem_raw(c, &s);
}

/* Schedgen's linbarrier: everyone tells the root, the root answers everyone. */
static void goal__algo_barrier_linear(goal__algo *c) {
    goal_buf none = goal__algo_at(c->out, 0, 0);
    goal__algo_joiner j = {-1, 0};
    int i;
    if (c->rank != c->root) {
        goal__algo_send(c, none, c->root, -1);
        goal__algo_recv(c, none, c->root, -1);
        return;
    }
    for (i = 1; i < c->p; i++) goal__algo_join_add(c, &j, goal__algo_recv(c, none, goal__algo_rank_of(c, i), -1));
    for (i = 1; i < c->p; i++) goal__algo_send(c, none, goal__algo_rank_of(c, i), j.id);
}

/* ---- >>> gather and scatter ------------------------------------------------------------------- */
/* Also gatherv_linear and scatterv_linear: the blocks come from the layout. */
static void goal__algo_gather_linear(goal__algo *c) {
    int i;
    if (c->rank != c->root) { goal__algo_send(c, goal__algo_own_in(c), c->root, -1); return; }
    for (i = 1; i < c->p; i++) {
        int r = goal__algo_rank_of(c, i);
        goal__algo_recv(c, goal__algo_oblk(c, r), r, -1);
    }
    goal__algo_copy(c, goal__algo_oblk(c, c->rank), goal__algo_own_in(c), -1);   /* after: overlaps the transfers */
}
static void goal__algo_scatter_linear(goal__algo *c) {
    int i;
    if (c->rank != c->root) { goal__algo_recv(c, goal__algo_own_out(c), c->root, -1); return; }
    for (i = 1; i < c->p; i++) {
        int r = goal__algo_rank_of(c, i);
        goal__algo_send(c, goal__algo_iblk(c, r), r, -1);
    }
    goal__algo_copy(c, goal__algo_own_out(c), goal__algo_iblk(c, c->rank), -1);   /* after: overlaps the transfers */
}

/* Blocks in position order (position j = rank j + shift) <-> rank order: two copies, since
   positions [0, p - shift) are ranks [shift, p) and the rest are ranks [0, shift). */
static int32_t goal__algo_rotate(goal__algo *c, goal_buf ranks, goal_buf pos, int shift, int to_ranks, int32_t dep) {
    uint64_t hi = (uint64_t)(c->p - shift), lo = (uint64_t)shift, n = c->n;
    goal_buf r1 = goal__algo_at(ranks, lo * n, hi * n), p1 = goal__algo_at(pos, 0, hi * n);
    goal_buf r2 = goal__algo_at(ranks, 0, lo * n), p2 = goal__algo_at(pos, hi * n, lo * n);
    int32_t a = to_ranks ? goal__algo_copy(c, r1, p1, dep) : goal__algo_copy(c, p1, r1, dep);
    int32_t b = shift == 0 ? -1 : to_ranks ? goal__algo_copy(c, r2, p2, dep) : goal__algo_copy(c, p2, r2, dep);
    return goal__algo_join(c, a, b);
}

/* Sends (or receives) the subtree of position v, cnt blocks, between v and its parent pv.
   Below the root the blocks are in position order in buf from v on: one message. The root
   holds them in rank order in IN / OUT, so a subtree that wraps past rank p-1 travels as two
   messages, cut where the rank order wraps (position p - root): the root sends from IN and
   receives into OUT directly, nothing is staged. Returns the action after which both are
   done (at the root, which waits for neither, just the last). */
static int32_t goal__algo_subtree_msg(goal__algo *c, int is_send, goal_buf buf, int v, int cnt, int pv, int32_t dep) {
    long long split = (long long)c->p - c->root, end = (long long)v + cnt;
    long long cut = pv == 0 && v < split && end > split ? split : end, lo = v, hi = cut;
    int at_root = c->v == 0, peer = goal__algo_rank_of(c, c->v == pv ? v : pv);
    int32_t first = -1, id = -1;
    while (lo < end) {
        uint64_t off = (uint64_t)(at_root ? goal__algo_rank_of(c, lo) : lo - v) * c->n;
        goal_buf b = goal__algo_at(buf, off, (uint64_t)(hi - lo) * c->n);
        id = is_send ? goal__algo_send(c, b, peer, dep) : goal__algo_recv(c, b, peer, dep);
        if (first < 0) first = id;
        else goal__algo_order(c, id, first);   /* the two pieces match in order */
        lo = hi;
        hi = end;
    }
    return first == id || at_root ? id : goal__algo_join(c, first, id);
}

/* Binomial gather: v collects its subtree [v, v + size) in position order (inner ranks in
   scratch, after copying their own block there) and sends it up; the root receives every
   subtree straight into OUT. */
static void goal__algo_gather_binomial(goal__algo *c) {
    int parent, child[32], nc = goal__algo_binomial(c->v, c->p, &parent, child), k, root = c->v == 0;
    goal_buf buf = root ? c->out : c->in;
    goal__algo_joiner j = {-1, 0};
    if (root) goal__algo_copy(c, goal__algo_blk(c, c->out, (uint64_t)c->rank), c->in, -1);
    else if (nc > 0) {
        buf = goal__algo_scratch(c, (uint64_t)goal__algo_subtree(c->v, c->p) * c->n);
        goal__algo_join_add(c, &j, goal__algo_copy(c, goal__algo_blk(c, buf, 0), c->in, -1));
    }
    for (k = 0; k < nc; k++) {   /* the root waits for nothing: its receives are sinks */
        goal_buf b = root ? buf : goal__algo_at(buf, (uint64_t)(child[k] - c->v) * c->n, 0);
        int32_t r = goal__algo_subtree_msg(c, 0, b, child[k], goal__algo_subtree(child[k], c->p), c->v, -1);
        if (!root) goal__algo_join_add(c, &j, r);
    }
    if (!root) goal__algo_subtree_msg(c, 1, buf, c->v, goal__algo_subtree(c->v, c->p), parent, j.id);
}

/* Binomial scatter, the reverse: the root sends every subtree straight from IN, the largest
   first; a leaf receives straight into OUT, an inner rank into scratch. */
static void goal__algo_scatter_binomial(goal__algo *c) {
    int parent, child[32], nc = goal__algo_binomial(c->v, c->p, &parent, child), k, root = c->v == 0;
    goal_buf buf = root ? c->in : nc > 0 ? goal__algo_scratch(c, (uint64_t)goal__algo_subtree(c->v, c->p) * c->n) : c->out;
    int32_t ready = root ? -1 : goal__algo_subtree_msg(c, 0, buf, c->v, goal__algo_subtree(c->v, c->p), parent, -1);
    for (k = nc - 1; k >= 0; k--) {
        goal_buf b = root ? buf : goal__algo_at(buf, (uint64_t)(child[k] - c->v) * c->n, 0);
        goal__algo_subtree_msg(c, 1, b, child[k], goal__algo_subtree(child[k], c->p), c->v, ready);
    }
    if (root) goal__algo_copy(c, c->out, goal__algo_blk(c, c->in, (uint64_t)c->rank), -1);
    else if (nc > 0) goal__algo_copy(c, c->out, goal__algo_blk(c, buf, 0), ready);
}

/* ---- >>> rings --------------------------------------------------------------------------------- */
/* p blocks of a buffer: block i holds base + (i < rem) elements. */
typedef struct goal__algo_blocks { uint64_t base, rem; } goal__algo_blocks;
static uint64_t goal__algo_bfirst(const goal__algo_blocks *L, int i) {
    uint64_t k = (uint64_t)i;
    return k * L->base + (k < L->rem ? k : L->rem);
}
/* Blocks [i, j) of b as one buffer. */
static goal_buf goal__algo_range(const goal__algo *c, goal_buf b, const goal__algo_blocks *L, int i, int j) {
    uint64_t first = goal__algo_bfirst(L, i);
    return goal__algo_at(b, first * c->es, (goal__algo_bfirst(L, j) - first) * c->es);
}
/* L NULL: the vector collective's OUT blocks (allgatherv). */
static goal_buf goal__algo_block(const goal__algo *c, goal_buf b, const goal__algo_blocks *L, int i) {
    if (!L) return goal__algo_at(b, c->oo[i], c->oc[i]);
    return goal__algo_range(c, b, L, i, i + 1);
}

/* Ring reduce-scatter in place on W: in step s rank r sends block r-s-1 to the right and
   adds block r-s-2 from the left into W; after p-1 steps block r is complete. Two receive
   buffers alternate. Returns the action after which every step is done. */
static int32_t goal__algo_ring_rs(goal__algo *c, goal_buf W, const goal__algo_blocks *L, int32_t last) {
    int right = goal__algo_mod(c->rank + 1, c->p), left = goal__algo_mod(c->rank - 1, c->p), s;
    uint64_t big = (L->base + (L->rem > 0)) * c->es;
    goal_buf tmp[2];
    int32_t e = last, prevs = -1, prevr = -1, used[2] = {-1, -1};
    if (c->p == 1) return last;
    tmp[0] = goal__algo_scratch(c, big);
    tmp[1] = goal__algo_scratch(c, big);
    for (s = 0; s < c->p - 1; s++) {
        int sb = goal__algo_mod(c->rank - s - 1, c->p), rb = goal__algo_mod(c->rank - s - 2, c->p);
        goal_buf dst = goal__algo_block(c, W, L, rb), t = goal__algo_at(tmp[s % 2], 0, dst.size);
        int32_t snd = goal__algo_send(c, goal__algo_block(c, W, L, sb), right, e);
        int32_t r = goal__algo_recv(c, t, left, used[s % 2] >= 0 ? used[s % 2] : last);
        goal__algo_dep(c, snd, prevs);     /* one send at a time: the last done means all */
        goal__algo_order(c, r, prevr);
        used[s % 2] = goal__algo_reduce(c, dst, t, r);
        goal__algo_dep(c, used[s % 2], e);
        e = used[s % 2];
        prevs = snd;
        prevr = r;
    }
    return goal__algo_join(c, e, prevs);
}

/* Ring allgather in place on W, this rank holding block me (its rank, or its position v
   when the blocks are in position order): in step s it sends block me-s to the right and
   receives block me-s-1 from the left. */
/* first: where the first send reads block me (NULL: from W, after `last`). */
static int32_t goal__algo_ring_ag(goal__algo *c, goal_buf W, const goal__algo_blocks *L, int me, int32_t last,
                                  const goal_buf *first) {
    int right = goal__algo_mod(c->rank + 1, c->p), left = goal__algo_mod(c->rank - 1, c->p), s;
    int32_t prevs = -1, r = last;
    for (s = 0; s < c->p - 1; s++) {
        goal_buf from = s == 0 && first ? *first : goal__algo_block(c, W, L, goal__algo_mod(me - s, c->p));
        int32_t snd = goal__algo_send(c, from, right, r);
        goal__algo_dep(c, snd, prevs);
        r = goal__algo_recv(c, goal__algo_block(c, W, L, goal__algo_mod(me - s - 1, c->p)), left, r);
        prevs = snd;
    }
    return goal__algo_join(c, r, prevs);
}

/* Also allgatherv_ring, on the vector layout. The first send reads IN and the own block's
   copy into OUT comes after the messages: the copy overlaps the transfers. */
static void goal__algo_allgather_ring(goal__algo *c) {
    goal__algo_blocks L;
    goal_buf own = goal__algo_own_in(c);
    L.base = c->count; L.rem = 0;
    goal__algo_ring_ag(c, c->out, c->oc ? NULL : &L, c->rank, -1, &own);
    goal__algo_copy(c, goal__algo_oblk(c, c->rank), own, -1);
}
static void goal__algo_reduce_scatter_ring(goal__algo *c) {
    goal__algo_blocks L;
    goal_buf W = goal__algo_scratch(c, (uint64_t)c->p * c->n);
    int32_t e;
    L.base = c->count; L.rem = 0;
    e = goal__algo_ring_rs(c, W, &L, goal__algo_copy(c, W, goal__algo_at(c->in, 0, W.size), -1));
    goal__algo_copy(c, c->out, goal__algo_blk(c, W, (uint64_t)c->rank), e);
}
static void goal__algo_allreduce_ring(goal__algo *c) {
    goal__algo_blocks L;
    int32_t e;
    L.base = c->count / (uint64_t)c->p; L.rem = c->count % (uint64_t)c->p;
    e = goal__algo_ring_rs(c, c->out, &L, goal__algo_copy(c, c->out, c->in, -1));
    goal__algo_ring_ag(c, c->out, &L, c->rank, e, NULL);
}

/* ---- >>> allgather ------------------------------------------------------------------------------ */
/* Recursive doubling among [0, rho); ranks x >= rho hand their block to x - rho first and
   get everything back at the end. Before the exchange at distance mask, x holds the blocks
   of [b, b + mask) (b = x without its low bits) and of the same range + rho: two
   contiguous pieces of OUT, so two messages. */
static void goal__algo_allgather_recdoub(goal__algo *c) {
    int rho = goal__algo_floor_pow2(c->p), x = c->rank, mask, part;
    uint64_t n = c->n;
    goal__algo_joiner have = {-1, 0};
    if (x >= rho) {
        goal__algo_send(c, c->in, x - rho, -1);
        goal__algo_recv(c, goal__algo_at(c->out, 0, (uint64_t)c->p * n), x - rho, -1);
        return;
    }
    goal__algo_join_add(c, &have, goal__algo_copy(c, goal__algo_blk(c, c->out, (uint64_t)x), c->in, -1));
    if (x + rho < c->p) goal__algo_join_add(c, &have, goal__algo_recv(c, goal__algo_blk(c, c->out, (uint64_t)(x + rho)), x + rho, -1));
    for (mask = 1; mask < rho; mask <<= 1) {
        int y = x ^ mask, mine = x & ~(mask - 1), theirs = y & ~(mask - 1);
        int32_t ready = have.id, prev = -1;
        have.id = -1; have.nop = 0;
        goal__algo_join_add(c, &have, ready);
        for (part = 0; part < 2; part++) {
            int off = part * rho;
            long long hm = c->p - (mine + off), ht = c->p - (theirs + off);
            if (hm > mask) hm = mask;
            if (ht > mask) ht = mask;
            if (hm > 0) {
                int32_t s = goal__algo_send(c, goal__algo_at(c->out, (uint64_t)(mine + off) * n, (uint64_t)hm * n), y, ready);
                goal__algo_order(c, s, prev);
                prev = s;
            }
            if (ht > 0)
                goal__algo_join_add(c, &have, goal__algo_recv(c, goal__algo_at(c->out, (uint64_t)(theirs + off) * n, (uint64_t)ht * n), y, -1));
        }
    }
    if (x + rho < c->p) goal__algo_send(c, goal__algo_at(c->out, 0, (uint64_t)c->p * n), x + rho, have.id);
}

/* Bruck: tmp[j] = block of rank + j; in round k rank r sends tmp[0, min(2^k, p - 2^k)) to
   r - 2^k and receives the same count into tmp[2^k, ...) from r + 2^k. Rank 0 works in OUT. */
static void goal__algo_allgather_bruck(goal__algo *c) {
    goal_buf tmp = c->rank == 0 ? c->out : goal__algo_scratch(c, (uint64_t)c->p * c->n);
    int32_t ready = goal__algo_copy(c, goal__algo_blk(c, tmp, 0), c->in, -1);
    long long d;
    for (d = 1; d < c->p; d *= 2) {
        uint64_t cnt = (uint64_t)(d < c->p - d ? d : c->p - d);
        goal__algo_send(c, goal__algo_at(tmp, 0, cnt * c->n), goal__algo_mod(c->rank - d, c->p), ready);
        ready = goal__algo_join(c, ready, goal__algo_recv(c, goal__algo_at(tmp, (uint64_t)d * c->n, cnt * c->n),
                                                          goal__algo_mod(c->rank + d, c->p), -1));
    }
    if (c->rank != 0) goal__algo_rotate(c, c->out, tmp, c->rank, 1, ready);   /* tmp[j]: rank r + j */
}

/* ---- >>> alltoall --------------------------------------------------------------------------------- */
/* The own block's copy comes after the messages (it touches none of their blocks): the
   executor then posts them first and the copy overlaps the transfers. */
static void goal__algo_alltoall_linear(goal__algo *c) {
    int k;
    for (k = 1; k < c->p; k++) {
        int to = goal__algo_mod(c->rank + k, c->p), from = goal__algo_mod(c->rank - k, c->p);
        goal__algo_send(c, goal__algo_blk(c, c->in, (uint64_t)to), to, -1);
        goal__algo_recv(c, goal__algo_blk(c, c->out, (uint64_t)from), from, -1);
    }
    goal__algo_copy(c, goal__algo_blk(c, c->out, (uint64_t)c->rank), goal__algo_blk(c, c->in, (uint64_t)c->rank), -1);
}
/* Also alltoallv_pairwise, on the vector layout; the own block as in alltoall_linear. */
static void goal__algo_alltoall_pairwise(goal__algo *c) {
    int k;
    int32_t step = -1;
    for (k = 1; k < c->p; k++) {
        int to = goal__algo_mod(c->rank + k, c->p), from = goal__algo_mod(c->rank - k, c->p);
        int32_t s = goal__algo_send(c, goal__algo_iblk(c, to), to, step);
        step = goal__algo_join(c, s, goal__algo_recv(c, goal__algo_oblk(c, from), from, step));
    }
    goal__algo_copy(c, goal__algo_oblk(c, c->rank), goal__algo_iblk(c, c->rank), -1);
}

/* Bruck: tmp[j] = in[r + j]; in round k the blocks j with bit k set go (packed) to r + 2^k,
   and the same positions come from r - 2^k; at the end tmp[j] came from rank r - j. */
static void goal__algo_alltoall_bruck(goal__algo *c) {
    uint64_t n = c->n, half = (uint64_t)c->p / 2 + 1;
    goal_buf tmp = goal__algo_scratch(c, (uint64_t)c->p * n), pk = goal__algo_scratch(c, half * n), up = goal__algo_scratch(c, half * n);
    int j;
    int32_t ready = goal__algo_rotate(c, c->in, tmp, c->rank, 0, -1);
    long long bit;
    for (bit = 1; bit < c->p; bit *= 2) {
        goal__algo_joiner packed = {-1, 0}, done = {-1, 0};
        uint64_t cnt = 0;
        int32_t s, r;
        for (j = 0; j < c->p; j++)
            if (j & bit) goal__algo_join_add(c, &packed, goal__algo_copy(c, goal__algo_blk(c, pk, cnt++), goal__algo_blk(c, tmp, (uint64_t)j), ready));
        s = goal__algo_send(c, goal__algo_at(pk, 0, cnt * n), goal__algo_mod(c->rank + bit, c->p), packed.id);
        r = goal__algo_recv(c, goal__algo_at(up, 0, cnt * n), goal__algo_mod(c->rank - bit, c->p), ready);
        r = goal__algo_join(c, r, packed.id);       /* unpacking overwrites what was packed */
        for (cnt = 0, j = 0; j < c->p; j++)
            if (j & bit) goal__algo_join_add(c, &done, goal__algo_copy(c, goal__algo_blk(c, tmp, (uint64_t)j), goal__algo_blk(c, up, cnt++), r));
        ready = goal__algo_join(c, done.id, s);     /* pk is free again once sent */
    }
    for (j = 0; j < c->p; j++)
        goal__algo_copy(c, goal__algo_blk(c, c->out, (uint64_t)goal__algo_mod(c->rank - j, c->p)), goal__algo_blk(c, tmp, (uint64_t)j), ready);
}

/* ---- >>> scan ------------------------------------------------------------------------------------- */
/* Rank r receives the prefix of ranks 0..r-1 and appends its own: op(prefix, x_r). */
static void goal__algo_scan_linear(goal__algo *c) {
    int32_t last;
    if (c->rank == 0) last = goal__algo_copy(c, c->out, c->in, -1);
    else last = goal__algo_reduce(c, c->out, c->in, goal__algo_recv(c, c->out, c->rank - 1, -1));
    if (c->rank + 1 < c->p) goal__algo_send(c, c->out, c->rank + 1, last);
}
static void goal__algo_exscan_linear(goal__algo *c) {
    goal_buf next = c->in;
    int32_t last = -1;
    if (c->rank > 0) {
        last = goal__algo_recv(c, c->out, c->rank - 1, -1);
        if (c->rank + 1 < c->p) {
            next = goal__algo_scratch(c, c->n);
            last = goal__algo_reduce(c, next, c->in, goal__algo_copy(c, next, c->out, last));
        }
    }
    if (c->rank + 1 < c->p) goal__algo_send(c, next, c->rank + 1, last);
}

/* ---- >>> vector collectives ------------------------------------------------------------------------ */
/* Bytes of positions [v, v + cnt) in the vector layout of OUT. */
static uint64_t goal__algo_vspan(const goal__algo *c, int v, int cnt) {
    uint64_t b = 0;
    int u;
    for (u = v; u < v + cnt; u++) b += c->oc[goal__algo_rank_of(c, u)];
    return b;
}
/* 1 when the blocks of positions [v, v + cnt) follow each other in OUT in position order
   (empty blocks may be anywhere); *start: where the first byte goes. */
static int goal__algo_vrun(const goal__algo *c, int v, int cnt, uint64_t *start) {
    uint64_t next = 0;
    int u, have = 0;
    *start = 0;
    for (u = v; u < v + cnt; u++) {
        int r = goal__algo_rank_of(c, u);
        if (!c->oc[r]) continue;
        if (have && c->oo[r] != next) return 0;
        if (!have) *start = c->oo[r];
        have = 1;
        next = c->oo[r] + c->oc[r];
    }
    return 1;
}

/* The root receives each child's packed subtree straight into OUT when its blocks are
   contiguous there in order, else into scratch, and unpacks it block by block. */
static void goal__algo_gatherv_root(goal__algo *c, const int *child, int nc) {
    int k, u;
    goal__algo_copy(c, goal__algo_oblk(c, c->rank), goal__algo_own_in(c), -1);
    for (k = 0; k < nc; k++) {
        int cnt = goal__algo_subtree(child[k], c->p), from = goal__algo_rank_of(c, child[k]);
        uint64_t size = goal__algo_vspan(c, child[k], cnt), start, off = 0;
        goal_buf tmp;
        int32_t r;
        if (goal__algo_vrun(c, child[k], cnt, &start)) { goal__algo_recv(c, goal__algo_at(c->out, start, size), from, -1); continue; }
        tmp = goal__algo_scratch(c, size);
        r = goal__algo_recv(c, tmp, from, -1);
        for (u = child[k]; u < child[k] + cnt; u++) {
            goal_buf b = goal__algo_oblk(c, goal__algo_rank_of(c, u));
            goal__algo_copy(c, b, goal__algo_at(tmp, off, b.size), r);
            off += b.size;
        }
    }
}
/* Binomial gatherv: as gather_binomial, with subtrees packed by their counts. */
static void goal__algo_gatherv_binomial(goal__algo *c) {
    int parent, child[32], nc = goal__algo_binomial(c->v, c->p, &parent, child), k;
    goal_buf mine = goal__algo_own_in(c), buf = mine;
    goal__algo_joiner j = {-1, 0};
    if (c->v == 0) { goal__algo_gatherv_root(c, child, nc); return; }
    if (nc > 0) {
        buf = goal__algo_scratch(c, goal__algo_vspan(c, c->v, goal__algo_subtree(c->v, c->p)));
        goal__algo_join_add(c, &j, goal__algo_copy(c, goal__algo_at(buf, 0, mine.size), mine, -1));
    }
    for (k = 0; k < nc; k++) {
        goal_buf b = goal__algo_at(buf, goal__algo_vspan(c, c->v, child[k] - c->v),
                                   goal__algo_vspan(c, child[k], goal__algo_subtree(child[k], c->p)));
        goal__algo_join_add(c, &j, goal__algo_recv(c, b, goal__algo_rank_of(c, child[k]), -1));
    }
    goal__algo_send(c, buf, goal__algo_rank_of(c, parent), j.id);
}

/* Ring reduce-scatter of blocks of any size: in step s rank r sends its partial block
   r-s-1 (step 0: straight from IN) to the right and receives partial block r-s-2 from the
   left, into which it reduces its own input block; the last one arrives in OUT. Three
   receive buffers rotate: a buffer is reused once the send of what it held is done. */
static void goal__algo_reduce_scatterv_ring(goal__algo *c) {
    int right = goal__algo_mod(c->rank + 1, c->p), left = goal__algo_mod(c->rank - 1, c->p), s, i;
    uint64_t big = 0;
    goal_buf tmp[3];
    int32_t acc = -1, prevs = -1, prevr = -1, sent[3] = {-1, -1, -1};
    if (c->p == 1) { goal__algo_copy(c, goal__algo_own_out(c), goal__algo_iblk(c, 0), -1); return; }
    for (i = 0; i < c->p; i++) if (c->ic[i] > big) big = c->ic[i];
    for (i = 0; i < 3; i++) tmp[i] = goal__algo_scratch(c, big);
    for (s = 0; s < c->p - 1; s++) {
        int sb = goal__algo_mod(c->rank - s - 1, c->p), rb = goal__algo_mod(c->rank - s - 2, c->p);
        goal_buf src = s == 0 ? goal__algo_iblk(c, sb) : goal__algo_at(tmp[(s - 1) % 3], 0, c->ic[sb]);
        goal_buf dst = s == c->p - 2 ? goal__algo_own_out(c) : goal__algo_at(tmp[s % 3], 0, c->ic[rb]);
        int32_t snd = goal__algo_send(c, src, right, acc), r;
        goal__algo_dep(c, snd, prevs);       /* one send at a time */
        if (s > 0) sent[(s - 1) % 3] = snd;
        r = goal__algo_recv(c, dst, left, sent[s % 3]);
        goal__algo_order(c, r, prevr);
        acc = goal__algo_reduce(c, dst, goal__algo_iblk(c, rb), r);
        prevs = snd;
        prevr = r;
    }
}

/* ---- >>> bandwidth-optimal families: Rabenseifner, van de Geijn ------------------------------------ */
/* The fold of Thakur, Rabenseifner and Gropp (2005) to q = 2^floor(log2 p) ranks: of the
   first 2(p - q) ranks, pair (2i, 2i+1) keeps one rank as virtual rank i (the odd one, or
   the root when it is in the pair and keep_root is set); the other hands its input over
   first and gets its result at the end. Rank r >= 2(p - q) is virtual rank r - (p - q).
   Virtual rank x owns units [first(x), first(x+1)): unit x when the data is cut in q units;
   with per_rank (reduce_scatter: p units, unit i for rank i) the units of its ranks. */
typedef struct goal__rab {
    int q, extra, x, mate;   /* x: my virtual rank, -1 when folded away; mate: pair partner or -1 */
    int keep_root, per_rank;
    goal__algo_blocks L;     /* the units */
    goal_buf tmp;            /* receive buffer, laid out like the data */
    goal__algo_joiner sends; /* the halving's sends: their units are received again later */
} goal__rab;

static void goal__rab_init(goal__algo *c, goal__rab *R, int keep_root, int per_rank) {
    int i = c->rank / 2;
    uint64_t units;
    memset(R, 0, sizeof *R);
    R->q = goal__algo_floor_pow2(c->p);
    R->extra = c->p - R->q;
    R->keep_root = keep_root;
    R->per_rank = per_rank;
    R->sends.id = -1;
    R->x = c->rank - R->extra;
    R->mate = -1;
    if (c->rank < 2 * R->extra) {
        int keeper = keep_root && c->root == 2 * i ? 2 * i : 2 * i + 1;
        R->mate = c->rank ^ 1;
        R->x = c->rank == keeper ? i : -1;
    }
    units = per_rank ? (uint64_t)c->p : (uint64_t)R->q;
    R->L.base = per_rank ? c->count : c->count / units;
    R->L.rem = per_rank ? 0 : c->count % units;
}
static int goal__rab_real(const goal__algo *c, const goal__rab *R, int x) {
    if (x >= R->extra) return x + R->extra;
    return R->keep_root && c->root == 2 * x ? 2 * x : 2 * x + 1;
}
static int goal__rab_first(const goal__rab *R, int x) {
    if (!R->per_rank) return x;
    return x < R->extra ? 2 * x : x + R->extra;
}
/* Units of the aligned group of d virtual ranks that holds x. */
static goal_buf goal__rab_group(const goal__algo *c, const goal__rab *R, goal_buf b, int x, int d) {
    int lo = x & ~(d - 1);
    return goal__algo_range(c, b, &R->L, goal__rab_first(R, lo), goal__rab_first(R, lo + d));
}


/* The fold: the rank folded away sends all of src; its keeper adds it into W. Returns the
   action after which W (or src, when nothing was folded in) holds this rank's data. In
   place (src is W) the mate's data arrives in tmp, not over this rank's. */
static int32_t goal__rab_fold(goal__algo *c, goal__rab *R, goal_buf src, goal_buf W) {
    int32_t r;
    if (R->mate < 0) return -1;
    if (R->x < 0) return goal__algo_send(c, src, R->mate, -1);
    if (goal__algo_same(src, W)) return goal__algo_reduce(c, W, R->tmp, goal__algo_recv(c, R->tmp, R->mate, -1));
    r = goal__algo_recv(c, W, R->mate, -1);
    return goal__algo_reduce(c, W, src, r);
}


/* Recursive halving among the q virtual ranks, distances q/2 down to dmin: x keeps the half
   of its group that holds x and sends the other half to x ^ d, whose copy of x's half it
   adds into W. *src is the data before the first step (IN, or W after a fold) and W after
   it. Returns the action after which W holds x's group of size dmin, reduced over all. */
static int32_t goal__rab_halve(goal__algo *c, goal__rab *R, goal_buf *src, goal_buf W, int dmin, int32_t last) {
    int d;
    for (d = R->q / 2; d >= dmin; d /= 2) {
        int peer = goal__rab_real(c, R, R->x ^ d), fresh = !goal__algo_same(*src, W);
        goal_buf keep = goal__rab_group(c, R, W, R->x, d), got = fresh ? keep : goal__rab_group(c, R, R->tmp, R->x, d);
        int32_t r, e;
        goal__algo_join_add(c, &R->sends, goal__algo_send(c, goal__rab_group(c, R, *src, R->x ^ d, d), peer, last));
        r = goal__algo_recv(c, got, peer, fresh ? -1 : last);   /* tmp is free once last is done */
        e = goal__algo_reduce(c, keep, fresh ? goal__rab_group(c, R, *src, R->x, d) : got, r);
        goal__algo_dep(c, e, last);
        last = e;
        *src = W;
    }
    return last;
}

/* The virtual rank of a rank that is not folded away. */
static int goal__rab_virtual(const goal__rab *R, int rank) { return rank < 2 * R->extra ? rank / 2 : rank - R->extra; }

/* Recursive halving, then the last exchange block by block: this rank's block is added in
   OUT, its mate's in tmp and handed over. IN p*n, OUT n. */
static void goal__algo_reduce_scatter_halving(goal__algo *c) {
    goal__rab R;
    goal_buf all = goal__algo_at(c->in, 0, (uint64_t)c->p * c->n), src = all, W;
    int32_t last, prev = -1;
    int u, y, peer;
    goal__rab_init(c, &R, 0, 1);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    if (R.x < 0) { goal__rab_fold(c, &R, all, all); goal__algo_recv(c, c->out, R.mate, -1); return; }
    W = goal__algo_scratch(c, all.size);
    R.tmp = goal__algo_scratch(c, all.size);
    last = goal__rab_fold(c, &R, all, W);
    if (R.mate >= 0) src = W;
    last = goal__rab_halve(c, &R, &src, W, 2, last);
    y = R.x ^ 1;
    peer = goal__rab_real(c, &R, y);
    for (u = goal__rab_first(&R, y); u < goal__rab_first(&R, y + 1); u++) {
        int32_t s = goal__algo_send(c, goal__algo_block(c, src, &R.L, u), peer, last);
        goal__algo_order(c, s, prev);
        prev = s;
    }
    for (prev = -1, u = goal__rab_first(&R, R.x); u < goal__rab_first(&R, R.x + 1); u++) {
        goal_buf got = u == c->rank ? c->out : goal__algo_block(c, R.tmp, &R.L, u);
        int32_t r = goal__algo_recv(c, got, peer, last), e;
        goal__algo_order(c, r, prev);
        prev = r;
        e = goal__algo_reduce(c, got, goal__algo_block(c, src, &R.L, u), r);
        goal__algo_dep(c, e, last);
        if (u != c->rank) goal__algo_send(c, got, R.mate, e);
    }
}

/* Reduce-scatter by halving into OUT, then recursive doubling back (Rabenseifner): every
   unit is reduced once, at its owner, and copied everywhere else. */
static void goal__algo_allreduce_rabenseifner(goal__algo *c) {
    goal__rab R;
    goal_buf src = c->in;
    int32_t last;
    int d;
    goal__rab_init(c, &R, 0, 0);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    if (R.x < 0) { goal__rab_fold(c, &R, c->in, c->in); goal__algo_recv(c, c->out, R.mate, -1); return; }
    R.tmp = goal__algo_scratch(c, c->n);
    last = goal__rab_fold(c, &R, c->in, c->out);
    if (R.mate >= 0) src = c->out;
    last = goal__rab_halve(c, &R, &src, c->out, 1, last);
    last = goal__algo_join(c, last, R.sends.id);   /* the units sent away come back */
    for (d = 1; d < R.q; d *= 2) {
        int peer = goal__rab_real(c, &R, R.x ^ d);
        goal__algo_send(c, goal__rab_group(c, &R, c->out, R.x, d), peer, last);
        last = goal__algo_recv(c, goal__rab_group(c, &R, c->out, R.x ^ d, d), peer, last);
    }
    if (R.mate >= 0) goal__algo_send(c, c->out, R.mate, last);
}

/* Reduce-scatter by halving, then a binomial gather of the units to the root (which keeps
   its place in the fold and works in OUT). */
static void goal__algo_reduce_rabenseifner(goal__algo *c) {
    goal__rab R;
    goal_buf src = c->in, W;
    int32_t last;
    int d, vr;
    goal__rab_init(c, &R, 1, 0);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    if (R.x < 0) { goal__rab_fold(c, &R, c->in, c->in); return; }
    W = c->rank == c->root ? c->out : goal__algo_scratch(c, c->n);
    R.tmp = goal__algo_scratch(c, c->n);
    last = goal__rab_fold(c, &R, c->in, W);
    if (R.mate >= 0) src = W;
    last = goal__rab_halve(c, &R, &src, W, 1, last);
    last = goal__algo_join(c, last, R.sends.id);
    vr = goal__rab_virtual(&R, c->root);
    for (d = 1; d < R.q; d *= 2) {
        int peer = goal__rab_real(c, &R, R.x ^ d);
        if ((R.x ^ vr) & d) { goal__algo_send(c, goal__rab_group(c, &R, W, R.x, d), peer, last); break; }
        last = goal__algo_recv(c, goal__rab_group(c, &R, W, R.x ^ d, d), peer, last);
    }
}

/* van de Geijn: binomial scatter of p blocks in position order straight into OUT, then a
   ring allgather of the blocks. */
static void goal__algo_bcast_scatter_allgather(goal__algo *c) {
    int parent, child[32], nc = goal__algo_binomial(c->v, c->p, &parent, child), k;
    goal__algo_blocks L;
    goal__algo_joiner j = {-1, 0};
    int32_t rcv = -1;
    L.base = c->count / (uint64_t)c->p;
    L.rem = c->count % (uint64_t)c->p;
    if (parent >= 0) {
        rcv = goal__algo_recv(c, goal__algo_range(c, c->out, &L, c->v, c->v + goal__algo_subtree(c->v, c->p)), goal__algo_rank_of(c, parent), -1);
        goal__algo_join_add(c, &j, rcv);
    }
    for (k = nc - 1; k >= 0; k--)   /* largest subtree first */
        goal__algo_join_add(c, &j, goal__algo_send(c, goal__algo_range(c, c->out, &L, child[k], child[k] + goal__algo_subtree(child[k], c->p)),
                                                   goal__algo_rank_of(c, child[k]), rcv));
    goal__algo_ring_ag(c, c->out, &L, c->v, j.id, NULL);   /* after the scatter's sends: blocks are received again */
}

/* ---- >>> pipelined trees: binary, and the two trees of Sanders, Speck and Traff ---------------- */
/* One rank's place in a tree: ranks, parent -1 at the top. */
typedef struct goal__algo_node { int parent, child[3], nc; } goal__algo_node;

/* Posting order per peer: messages between two ranks match in posting order, so both sides
   post them in segment order; ranks that talk to each other in two trees stay in step. */
typedef struct goal__algo_fifo { int peer[8]; int32_t last[8]; int n; } goal__algo_fifo;
static void goal__algo_fifo_add(goal__algo *c, goal__algo_fifo *f, int peer, int32_t id) {
    int i;
    for (i = 0; i < f->n && f->peer[i] != peer; i++) {}
    if (i == f->n) {
        if (f->n == 8) return;   /* never: a rank has at most 2 parents and 5 children */
        f->peer[f->n++] = peer;
        f->last[i] = -1;
    }
    goal__algo_order(c, id, f->last[i]);
    f->last[i] = id;
}

/* Pipelined broadcast in OUT: segment k travels down tree T[k % nt]; a segment is sent on
   as soon as it arrived. */
static void goal__algo_pipe_bcast(goal__algo *c, const goal__algo_node *T, int nt, goal__algo_fifo *fs, goal__algo_fifo *fr) {
    uint64_t k, ns = goal__algo_nsegs(c);
    int j;
    for (k = 0; k < ns && c->p > 1; k++) {
        const goal__algo_node *t = &T[k % (uint64_t)nt];
        goal_buf b = goal__algo_seg(c, c->out, k);
        int32_t r = -1;
        if (t->parent >= 0) goal__algo_fifo_add(c, fr, t->parent, r = goal__algo_recv(c, b, t->parent, -1));
        for (j = 0; j < t->nc; j++) goal__algo_fifo_add(c, fs, t->child[j], goal__algo_send(c, b, t->child[j], r));
    }
}

/* Pipelined reduction up trees: segment k of the accumulator (OUT at the top, else scratch)
   = IN op the segments of this rank's children in tree T[k % nt] (the first received
   straight into it, the others into tmp), sent on to the parent. A leaf sends IN. With
   down, the top sends each result straight back down (the turn of an allreduce). */
static void goal__algo_pipe_reduce(goal__algo *c, const goal__algo_node *T, int nt, int down, goal__algo_fifo *fs, goal__algo_fifo *fr) {
    uint64_t k, ns = goal__algo_nsegs(c);
    int j, most = T[0].nc > T[nt - 1].nc ? T[0].nc : T[nt - 1].nc;
    goal_buf acc = T[0].parent < 0 ? c->out : most > 0 ? goal__algo_scratch(c, c->n) : c->in;
    goal_buf tmp = most > 1 ? goal__algo_scratch(c, c->n) : c->in;
    for (k = 0; k < ns; k++) {
        const goal__algo_node *t = &T[k % (uint64_t)nt];
        goal_buf a = t->nc ? goal__algo_seg(c, acc, k) : goal__algo_seg(c, c->in, k);
        int32_t e = -1;
        for (j = 0; j < t->nc; j++) {
            goal_buf got = j ? goal__algo_seg(c, tmp, k) : a;
            int32_t r = goal__algo_recv(c, got, t->child[j], -1), x;
            goal__algo_fifo_add(c, fr, t->child[j], r);
            x = goal__algo_reduce(c, a, j ? got : goal__algo_seg(c, c->in, k), r);
            goal__algo_dep(c, x, e);
            e = x;
        }
        if (t->parent >= 0) goal__algo_fifo_add(c, fs, t->parent, goal__algo_send(c, a, t->parent, e));
        else if (down) for (j = 0; j < t->nc; j++) goal__algo_fifo_add(c, fs, t->child[j], goal__algo_send(c, a, t->child[j], e));
    }
}

/* The binary tree of bcast_binary (v's children 2v+1, 2v+2), on ranks. */
static void goal__algo_binary_node(const goal__algo *c, goal__algo_node *t) {
    long long k;
    t->parent = c->v > 0 ? goal__algo_rank_of(c, (c->v - 1) / 2) : -1;
    t->nc = 0;
    for (k = 2LL * c->v + 1; k <= 2LL * c->v + 2 && k < c->p; k++) t->child[t->nc++] = goal__algo_rank_of(c, k);
}
static void goal__algo_bcast_pipelined_tree(goal__algo *c) {
    goal__algo_node t;
    goal__algo_fifo fs, fr;
    memset(&fs, 0, sizeof fs); memset(&fr, 0, sizeof fr);
    goal__algo_binary_node(c, &t);
    goal__algo_pipe_bcast(c, &t, 1, &fs, &fr);
}
/* The tree's subtrees are not rank ranges, so the op must commute. */
static void goal__algo_reduce_pipelined_tree(goal__algo *c) {
    goal__algo_node t;
    goal__algo_fifo fs, fr;
    memset(&fs, 0, sizeof fs); memset(&fr, 0, sizeof fr);
    goal__algo_binary_node(c, &t);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    goal__algo_pipe_reduce(c, &t, 1, 0, &fs, &fr);
}

/* NCCL's binary tree on e nodes: node i with lowest set bit b has parent (i ^ b) | 2b, or
   i ^ b when that is >= e, and children i - b/2 and i + l for the largest l <= b/2 that
   fits; node 0 is the top, with the largest power of two below e as its only child.
   Interior nodes are the even ones, leaves the odd ones. */
static void goal__algo_btree(int i, int e, int *parent, int *child, int *nc) {
    long long b = 1, up, l;
    *nc = 0;
    if (i == 0) {
        *parent = -1;
        while (b < e) b <<= 1;
        if (e > 1) child[(*nc)++] = (int)(b >> 1);
        return;
    }
    while (!(i & b)) b <<= 1;
    up = (i ^ b) | (b << 1);
    *parent = (int)(up >= e ? (i ^ b) : up);
    if (b == 1) return;
    child[(*nc)++] = (int)(i - b / 2);
    for (l = b / 2; l > 0 && i + l >= e; l >>= 1) {}
    if (l > 0) child[(*nc)++] = (int)(i + l);
}

/* The two trees (Sanders, Speck, Traff 2009; NCCL's double binary tree). The top (position 0:
   the root, or rank 0) is outside both; positions 1..p-1 are nodes i = v - 1. Tree 0 is
   NCCL's tree on the first e (even) nodes, tree 1 the same shifted by one (node i plays
   node i - 1 mod e): tree 0's interior nodes are even, tree 1's odd, so every interior node
   of one tree is a leaf of the other. For odd p - 1 the last node is a leaf of both, under
   each tree's top node. The top sends to (or receives from) each tree's top node. */
static void goal__algo_dbtree_node(const goal__algo *c, int tree, goal__algo_node *t) {
    int m = c->p - 1, e = m & ~1, i = c->v - 1, shift = tree ? 1 : 0, top = e ? shift % e : 0, par, ch[2], nc = 0, k;
    t->nc = 0;
    t->parent = -1;
    if (c->v == 0) { if (m > 0) t->child[t->nc++] = goal__algo_rank_of(c, top + 1); return; }
    if (i == e) { t->parent = goal__algo_rank_of(c, e ? top + 1 : 0); return; }   /* the odd one out */
    goal__algo_btree((i - shift + e) % e, e, &par, ch, &nc);
    t->parent = goal__algo_rank_of(c, par < 0 ? 0 : (par + shift) % e + 1);
    for (k = 0; k < nc; k++) t->child[t->nc++] = goal__algo_rank_of(c, (ch[k] + shift) % e + 1);
    if (i == top && m > e) t->child[t->nc++] = goal__algo_rank_of(c, e + 1);
}
static void goal__algo_dbtree_nodes(const goal__algo *c, goal__algo_node T[2]) {
    goal__algo_dbtree_node(c, 0, &T[0]);
    goal__algo_dbtree_node(c, 1, &T[1]);
}
static void goal__algo_bcast_dbtree(goal__algo *c) {
    goal__algo_node T[2];
    goal__algo_fifo fs, fr;
    memset(&fs, 0, sizeof fs); memset(&fr, 0, sizeof fr);
    goal__algo_dbtree_nodes(c, T);
    goal__algo_pipe_bcast(c, T, 2, &fs, &fr);
}
static void goal__algo_reduce_dbtree(goal__algo *c) {
    goal__algo_node T[2];
    goal__algo_fifo fs, fr;
    memset(&fs, 0, sizeof fs); memset(&fr, 0, sizeof fr);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    goal__algo_dbtree_nodes(c, T);
    goal__algo_pipe_reduce(c, T, 2, 0, &fs, &fr);
}
/* Reduce up both trees to rank 0, which turns each segment around; every segment is
   combined once, at rank 0, and copied down: the result is bit-identical everywhere. The
   partial sums go up from scratch, so a segment can come down into OUT at any time. */
static void goal__algo_allreduce_dbtree(goal__algo *c) {
    goal__algo_node T[2];
    goal__algo_fifo fs, fr;
    memset(&fs, 0, sizeof fs); memset(&fr, 0, sizeof fr);
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    c->root = 0;
    c->v = c->rank;
    goal__algo_dbtree_nodes(c, T);
    goal__algo_pipe_reduce(c, T, 2, 1, &fs, &fr);
    if (c->v) goal__algo_pipe_bcast(c, T, 2, &fs, &fr);
}

/* ---- >>> neighbour exchange (Chen et al. 2005) ------------------------------------------------ */
/* Units of the exchange: unit u is block u, except that for odd p the last unit q-1 also
   holds block q = p-1 (the rank outside the exchange). */
static goal_buf goal__algo_units(const goal__algo *c, int q, int u, int k) {
    goal__algo_blocks L;
    int a = u, b = u + k == q ? c->p : u + k;
    L.base = c->count;
    L.rem = 0;
    return goal__algo_range(c, c->out, &L, a, b);
}
/* q = p rounded down to even ranks exchange: in step 0 rank r swaps its unit with its pair
   neighbour (r ^ 1), then in q/2 - 1 steps it alternately swaps with its right and left
   neighbour the two units it received last (so the pair start moves by 2 either way).
   For odd p, rank p-1 first hands its block to rank p-2 and gets all p blocks back from it
   at the end (one more step and message each way). */
static void goal__algo_allgather_neighbor(goal__algo *c) {
    int q = c->p & ~1, me = c->rank, even = !(me & 1), nb[2], off[2], from[2], send_from, i;
    int32_t have, r, prevs, prevr;
    goal__algo_joiner all = {-1, 0};
    if (c->p == 1) { goal__algo_copy(c, c->out, c->in, -1); return; }
    if (me == q) {   /* the odd one out */
        goal__algo_send(c, c->in, q - 1, -1);
        goal__algo_recv(c, goal__algo_at(c->out, 0, (uint64_t)c->p * c->n), q - 1, -1);
        return;
    }
    nb[0] = goal__algo_mod(even ? me + 1 : me - 1, q);
    nb[1] = goal__algo_mod(even ? me - 1 : me + 1, q);
    off[0] = even ? 2 : -2;
    off[1] = -off[0];
    have = goal__algo_copy(c, goal__algo_blk(c, c->out, (uint64_t)me), c->in, -1);
    if (q < c->p && me == q - 1) have = goal__algo_join(c, have, goal__algo_recv(c, goal__algo_blk(c, c->out, (uint64_t)q), q, -1));
    goal__algo_join_add(c, &all, have);
    prevs = goal__algo_send(c, q < c->p && me == q - 1 ? goal__algo_units(c, q, me, 1) : c->in, nb[0], q < c->p && me == q - 1 ? have : -1);
    r = prevr = goal__algo_recv(c, goal__algo_units(c, q, nb[0], 1), nb[0], -1);
    goal__algo_join_add(c, &all, r);
    from[0] = from[1] = send_from = me & ~1;
    r = goal__algo_join(c, r, have);
    for (i = 1; i < q / 2; i++) {
        int par = i % 2;
        int32_t s;
        from[par] = goal__algo_mod(from[par] + off[par], q);
        s = goal__algo_send(c, goal__algo_units(c, q, send_from, 2), nb[par], r);
        goal__algo_order(c, s, prevs);
        r = goal__algo_recv(c, goal__algo_units(c, q, from[par], 2), nb[par], -1);
        goal__algo_order(c, r, prevr);
        goal__algo_join_add(c, &all, r);
        prevs = s;
        prevr = r;
        send_from = from[par];
    }
    if (q < c->p && me == q - 1) goal__algo_send(c, goal__algo_at(c->out, 0, (uint64_t)c->p * c->n), q, all.id);
}

/* ---- >>> rank order for any op: reduce to rank 0, then distribute --------------------------------- */
/* Ends one phase of a composed algorithm: what follows waits for every action of it. */
static int32_t goal__algo_finish(goal__algo *c, int join);
static void goal__algo_phase(goal__algo *c) { c->start = goal__algo_finish(c, 1); }
/* Binomial reduce of `bytes` from IN (at in_offset) to rank 0 in rank order (into scratch
   there); returns where rank 0 holds the result. */
static goal_buf goal__algo_reduce_to_0(goal__algo *c, uint64_t bytes) {
    goal_buf out = c->out, res;
    uint64_t n = c->n;
    c->root = 0; c->v = c->rank;
    c->n = bytes;
    c->in = goal__algo_at(c->in, 0, bytes);
    res = c->out = c->rank == 0 ? goal__algo_scratch(c, bytes) : out;
    goal__algo_reduce_knomial_k(c, 2);
    goal__algo_phase(c);
    c->in = res; c->out = out; c->n = n;
    return res;
}
static void goal__algo_allreduce_reduce_bcast(goal__algo *c) {
    c->root = 0; c->v = c->rank;
    goal__algo_reduce_knomial_k(c, 2);   /* rank 0 reduces into OUT */
    goal__algo_phase(c);
    goal__algo_bcast_knomial_k(c, 2);
}
static void goal__algo_reduce_scatter_reduce_scatter(goal__algo *c) {
    goal__algo_reduce_to_0(c, c->n * (uint64_t)c->p);
    goal__algo_scatter_binomial(c);
}
/* With displs the blocks may lie in any order with gaps: the span of IN is reduced. */
static void goal__algo_reduce_scatterv_reduce_scatterv(goal__algo *c) {
    uint64_t span = 0;
    int i;
    for (i = 0; i < c->p; i++) if (c->io[i] + c->ic[i] > span) span = c->io[i] + c->ic[i];
    goal__algo_reduce_to_0(c, span);
    goal__algo_scatter_linear(c);
}

/* ---- >>> the table ------------------------------------------------------------------------------ */
typedef void (*goal__algo_fn)(goal__algo *c);
typedef struct goal__algo_entry { goal_algo_info info; goal__algo_fn fn; } goal__algo_entry;

#define GOAL__R GOAL_ALGO_ROOTED
#define GOAL__X GOAL_ALGO_REDUCES
#define GOAL__O GOAL_ALGO_ORDERED
#define GOAL__V GOAL_ALGO_VECTOR
#define GOAL__S GOAL_ALGO_SEGMENTED
#define GOAL__I GOAL_ALGO_INPLACE
#define GOAL__W GOAL_ALGO_WHOLE
static const goal__algo_entry goal__algo_table[] = {
    {{"bcast_binomial", "binomial tree broadcast (GOAL paper, Listing 2)", GOAL__R, GOAL_COLL_BCAST}, goal__algo_bcast_binomial},
    {{"reduce_binomial", "binomial tree reduce: receive, reduce, send", GOAL__R | GOAL__X | GOAL__O | GOAL__I | GOAL__W, GOAL_COLL_REDUCE}, goal__algo_reduce_binomial},
    {{"barrier_dissemination", "n-way dissemination barrier (Listing 3)", GOAL_ALGO_NWAY, GOAL_COLL_BARRIER}, goal__algo_barrier_dissemination},
    {{"allreduce_dissemination", "n-way dissemination allreduce, exact for every p", GOAL__X | GOAL_ALGO_NWAY | GOAL__W, GOAL_COLL_ALLREDUCE}, goal__algo_allreduce_dissemination},
    {{"bcast_chain", "pipelined chain broadcast in segments (paper IV.C)", GOAL__R | GOAL_ALGO_SEGMENTED, GOAL_COLL_BCAST}, goal__algo_bcast_chain},
    {{"reduce_chain", "pipelined chain reduce in segments", GOAL__R | GOAL__X | GOAL__O | GOAL_ALGO_SEGMENTED | GOAL__I, GOAL_COLL_REDUCE}, goal__algo_reduce_chain},
    {{"reduce_aspen", "Aspen reduce: any participants P to any receivers R", GOAL__R | GOAL__X | GOAL_ALGO_SETS, GOAL_COLL_REDUCE}, goal__algo_reduce_aspen},
    {{"allreduce_recdoub", "recursive doubling (butterfly) with non-power-of-two fold", GOAL__X | GOAL__I | GOAL__W, GOAL_COLL_ALLREDUCE}, goal__algo_allreduce_recdoub},
    {{"bcast_binary", "binary tree broadcast", GOAL__R, GOAL_COLL_BCAST}, goal__algo_bcast_binary},
    {{"gather_linear", "every rank sends its block to the root", GOAL__R | GOAL__I, GOAL_COLL_GATHER}, goal__algo_gather_linear},
    {{"gather_binomial", "binomial tree gather", GOAL__R | GOAL__I, GOAL_COLL_GATHER}, goal__algo_gather_binomial},
    {{"scatter_linear", "the root sends each rank its block", GOAL__R | GOAL__I, GOAL_COLL_SCATTER}, goal__algo_scatter_linear},
    {{"scatter_binomial", "binomial tree scatter", GOAL__R | GOAL__I, GOAL_COLL_SCATTER}, goal__algo_scatter_binomial},
    {{"allgather_ring", "ring allgather, p-1 steps", GOAL__I, GOAL_COLL_ALLGATHER}, goal__algo_allgather_ring},
    {{"allgather_recdoub", "recursive doubling allgather with non-power-of-two fold", GOAL__I, GOAL_COLL_ALLGATHER}, goal__algo_allgather_recdoub},
    {{"allgather_bruck", "Bruck allgather, ceil(log2 p) rounds", GOAL__I, GOAL_COLL_ALLGATHER}, goal__algo_allgather_bruck},
    {{"alltoall_linear", "all sends and receives at once", 0, GOAL_COLL_ALLTOALL}, goal__algo_alltoall_linear},
    {{"alltoall_pairwise", "pairwise exchange, p-1 steps", 0, GOAL_COLL_ALLTOALL}, goal__algo_alltoall_pairwise},
    {{"alltoall_bruck", "Bruck alltoall, ceil(log2 p) rounds of packed blocks", 0, GOAL_COLL_ALLTOALL}, goal__algo_alltoall_bruck},
    {{"reduce_scatter_ring", "ring reduce-scatter of p blocks", GOAL__X | GOAL__W, GOAL_COLL_REDUCE_SCATTER}, goal__algo_reduce_scatter_ring},
    {{"allreduce_ring", "ring reduce-scatter then ring allgather", GOAL__X | GOAL__I, GOAL_COLL_ALLREDUCE}, goal__algo_allreduce_ring},
    {{"scan_linear", "inclusive prefix reduction along the ranks", GOAL__X | GOAL__O | GOAL__W, GOAL_COLL_SCAN}, goal__algo_scan_linear},
    {{"exscan_linear", "exclusive prefix reduction along the ranks", GOAL__X | GOAL__O | GOAL__W, GOAL_COLL_EXSCAN}, goal__algo_exscan_linear},
    {{"barrier_linear", "everyone to the root, the root to everyone", GOAL__R, GOAL_COLL_BARRIER}, goal__algo_barrier_linear},
    {{"bcast_doublering", "the data travels the ring both ways (Schedgen)", GOAL__R, GOAL_COLL_BCAST}, goal__algo_bcast_doublering},
    /* bandwidth-optimal families */
    {{"bcast_scatter_allgather", "van de Geijn: binomial scatter, ring allgather", GOAL__R, GOAL_COLL_BCAST}, goal__algo_bcast_scatter_allgather},
    {{"reduce_rabenseifner", "recursive-halving reduce-scatter, binomial gather", GOAL__R | GOAL__X | GOAL__I, GOAL_COLL_REDUCE}, goal__algo_reduce_rabenseifner},
    {{"allreduce_rabenseifner", "recursive-halving reduce-scatter, recursive-doubling allgather", GOAL__X | GOAL__I, GOAL_COLL_ALLREDUCE}, goal__algo_allreduce_rabenseifner},
    {{"reduce_scatter_halving", "recursive-halving reduce-scatter of p blocks, any p", GOAL__X, GOAL_COLL_REDUCE_SCATTER}, goal__algo_reduce_scatter_halving},
    {{"bcast_knomial", "k-nomial tree broadcast (radix K, default 4)", GOAL__R | GOAL_ALGO_RADIX, GOAL_COLL_BCAST}, goal__algo_bcast_knomial},
    {{"reduce_knomial", "k-nomial tree reduce (radix K, default 4)", GOAL__R | GOAL__X | GOAL__O | GOAL_ALGO_RADIX | GOAL__I, GOAL_COLL_REDUCE}, goal__algo_reduce_knomial},
    {{"bcast_pipelined_tree", "binary tree broadcast pipelined in segments", GOAL__R | GOAL__S, GOAL_COLL_BCAST}, goal__algo_bcast_pipelined_tree},
    {{"reduce_pipelined_tree", "binary tree reduce pipelined in segments", GOAL__R | GOAL__X | GOAL__S, GOAL_COLL_REDUCE}, goal__algo_reduce_pipelined_tree},
    {{"bcast_dbtree", "two-tree broadcast (Sanders, Speck, Traff; NCCL)", GOAL__R | GOAL__S, GOAL_COLL_BCAST}, goal__algo_bcast_dbtree},
    {{"reduce_dbtree", "two-tree reduce (Sanders, Speck, Traff; NCCL)", GOAL__R | GOAL__X | GOAL__S, GOAL_COLL_REDUCE}, goal__algo_reduce_dbtree},
    {{"allreduce_dbtree", "two-tree allreduce: reduce up, turn at rank 0, down (NCCL)", GOAL__X | GOAL__S, GOAL_COLL_ALLREDUCE}, goal__algo_allreduce_dbtree},
    {{"allgather_neighbor", "neighbour exchange, p/2 steps (Chen et al. 2005)", GOAL__I, GOAL_COLL_ALLGATHER}, goal__algo_allgather_neighbor},
    /* vector collectives (per-rank counts and displacements) */
    {{"gatherv_linear", "every rank sends its block of counts[rank] to the root", GOAL__R | GOAL__V | GOAL__I, GOAL_COLL_GATHERV}, goal__algo_gather_linear},
    {{"gatherv_binomial", "binomial tree gatherv, subtrees packed", GOAL__R | GOAL__V | GOAL__I, GOAL_COLL_GATHERV}, goal__algo_gatherv_binomial},
    {{"scatterv_linear", "the root sends each rank its block of counts[rank]", GOAL__R | GOAL__V | GOAL__I, GOAL_COLL_SCATTERV}, goal__algo_scatter_linear},
    {{"allgatherv_ring", "ring allgatherv, p-1 steps", GOAL__V | GOAL__I, GOAL_COLL_ALLGATHERV}, goal__algo_allgather_ring},
    {{"alltoallv_pairwise", "pairwise exchange of per-pair counts, p-1 steps", GOAL__V, GOAL_COLL_ALLTOALLV}, goal__algo_alltoall_pairwise},
    {{"reduce_scatterv_ring", "ring reduce-scatter of per-rank counts, no copies", GOAL__X | GOAL__V | GOAL__W, GOAL_COLL_REDUCE_SCATTERV}, goal__algo_reduce_scatterv_ring},
    /* rank order for non-commutative ops where the fast ones cannot keep it */
    {{"allreduce_reduce_bcast", "binomial reduce to rank 0 in rank order, binomial bcast", GOAL__X | GOAL__O | GOAL__I | GOAL__W, GOAL_COLL_ALLREDUCE},
     goal__algo_allreduce_reduce_bcast},
    {{"reduce_scatter_reduce_scatter", "binomial reduce to rank 0 in rank order, binomial scatter", GOAL__X | GOAL__O | GOAL__W, GOAL_COLL_REDUCE_SCATTER},
     goal__algo_reduce_scatter_reduce_scatter},
    {{"reduce_scatterv_reduce_scatterv", "binomial reduce to rank 0 in rank order, linear scatterv", GOAL__X | GOAL__O | GOAL__V | GOAL__W, GOAL_COLL_REDUCE_SCATTERV},
     goal__algo_reduce_scatterv_reduce_scatterv},
};
#undef GOAL__R
#undef GOAL__X
#undef GOAL__O
#undef GOAL__V
#undef GOAL__S
#undef GOAL__I
#undef GOAL__W
#define GOAL__ALGO_COUNT ((int)(sizeof goal__algo_table / sizeof goal__algo_table[0]))

/* Every start of goal_mpi.h looks its algorithm up: the first byte, compared inline, skips
   most of the table without a call (a walk of strcmp cost up to 145 ns at its end). */
static const goal__algo_entry *goal__algo_entry_of(const char *name) {
    int i;
    for (i = 0; name && i < GOAL__ALGO_COUNT; i++)
        if (goal__algo_table[i].info.name[0] == name[0] && strcmp(goal__algo_table[i].info.name, name) == 0)
            return &goal__algo_table[i];
    return NULL;
}
static const goal_coll_info goal__colls[GOAL_COLL_COUNT] = {
#define GOAL__COLL_ROW(id, name, mpi, flags, in, out, inplace) {GOAL_COLL_##id, name, mpi, flags, in, out, GOAL_COLL_INPLACE_##inplace},
    GOAL_COLL_TABLE(GOAL__COLL_ROW)
#undef GOAL__COLL_ROW
};
const goal_coll_info *goal_coll_get(int c) { return c >= 0 && c < GOAL_COLL_COUNT ? &goal__colls[c] : NULL; }
int goal_coll_find(const char *name) {
    int c;
    for (c = 0; name && c < GOAL_COLL_COUNT; c++)
        if (strcmp(goal__colls[c].name, name) == 0) return c;
    return -1;
}
int goal_coll_find_call(const char *call) {
    int c;
    for (c = 0; call && c < GOAL_COLL_COUNT; c++) {
        const char *m = goal__colls[c].mpi + 4, *n = call;
        for (; *m && (*m >= 'A' && *m <= 'Z' ? *m - 'A' + 'a' : *m) == *n; m++, n++) {}
        if (!*m && !*n) return c;
    }
    return -1;
}
static const char *const goal__coll_calls[GOAL_COLL_NCALLS] = {
    "bcast", "reduce", "allreduce", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
    "alltoall", "alltoallv", "reduce_scatter", "reduce_scatter_block", "scan", "exscan", "barrier",
    "alltoallw", "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv",
    "neighbor_alltoallw"};
const char *goal_coll_call(int k) { return k >= 0 && k < GOAL_COLL_NCALLS ? goal__coll_calls[k] : NULL; }
int goal_coll_call_find(const char *call) {
    int k;
    for (k = 0; call && k < GOAL_COLL_NCALLS; k++)
        if (strcmp(goal__coll_calls[k], call) == 0) return k;
    return -1;
}
int goal_algo_coll(const char *algo) {
    const goal__algo_entry *e = goal__algo_entry_of(algo);
    return e ? (int)e->info.coll : -1;
}
void goal_coll_blocks(int c, int p, uint64_t *in, uint64_t *out) {
    const goal_coll_info *k = goal_coll_get(c);
    *in = !k ? 0 : k->in_blocks == GOAL_COLL_P ? (uint64_t)p : (uint64_t)k->in_blocks;
    *out = !k ? 0 : k->out_blocks == GOAL_COLL_P ? (uint64_t)p : (uint64_t)k->out_blocks;
}
const goal_algo_info *goal_algo_list(int i) { return i >= 0 && i < GOAL__ALGO_COUNT ? &goal__algo_table[i].info : NULL; }
const goal_algo_info *goal_algo_find(const char *name) {
    const goal__algo_entry *e = goal__algo_entry_of(name);
    return e ? &e->info : NULL;
}

/* ---- >>> checks ----------------------------------------------------------------------------------- */
/* A rank list: in range, no duplicates, not empty. */
static goal_status goal__algo_check_list(const goal_algo_desc *d, const int *list, int n, int p, const char *what, goal_error *err) {
    goal_allocator a = goal__allocator(&d->alloc);
    uint8_t *seen;
    int i;
    goal_status st = GOAL_OK;
    if (!list) return n ? goal__fail(err, GOAL_ERR_ARG, -1, "%d %ss given but no list", n, what) : GOAL_OK;
    if (n <= 0) return goal__fail(err, GOAL_ERR_ARG, -1, "the %s list is empty", what);
    if (!(seen = (uint8_t *)goal__calloc(&a, (size_t)p, 1))) return goal__fail(err, GOAL_ERR_NOMEM, -1, "out of memory");
    for (i = 0; i < n && st == GOAL_OK; i++) {
        if (list[i] < 0 || list[i] >= p)
            st = goal__fail(err, GOAL_ERR_RANK, -1, "%s %d is out of range (%d ranks)", what, list[i], p);
        else if (seen[list[i]]++)
            st = goal__fail(err, GOAL_ERR_ARG, -1, "%s %d is listed twice", what, list[i]);
    }
    goal__free(&a, seen);
    return st;
}

static goal_status goal__algo_check_op(const goal_algo_desc *d, const goal__algo_entry *e, goal_error *err) {
    goal_status st;
    if (!(e->info.flags & GOAL_ALGO_REDUCES)) return GOAL_OK;
    if (d->noncommutative && !(e->info.flags & GOAL_ALGO_ORDERED))
        return goal__fail(err, GOAL_ERR_OP, -1, "%s needs a commutative op (rank order: reduce_binomial, reduce_knomial, reduce_chain, "
                               "scan_linear, exscan_linear, allreduce_reduce_bcast, reduce_scatter_reduce_scatter, "
                               "reduce_scatterv_reduce_scatterv)", e->info.name);
    if (d->op == GOAL_OP_USER) return GOAL_OK;
    st = goal_op_check(d->op, d->dtype);
    if (st != GOAL_OK)
        return goal__fail(err, st, -1, "op %s is not defined on %s", goal_op_name(d->op) ? goal_op_name(d->op) : "(unknown)",
                               goal_dtype_name(d->dtype) ? goal_dtype_name(d->dtype) : "this datatype");
    return GOAL_OK;
}

/* An array of the desc: no negative entry; counts (sum = 1) must add up to a size. */
static goal_status goal__algo_check_ints(const goal_algo_desc *d, const int *a, size_t n, const char *what, int sum,
                                         goal_error *err) {
    uint64_t total = 0, limit = GOAL_SIZE_MAX / 8 / goal_dtype_size(d->dtype);
    size_t i;
    for (i = 0; a && i < n; i++) {
        if (a[i] < 0) return goal__fail(err, GOAL_ERR_ARG, -1, "%s: %s[%lu] = %d is negative", d->algo, what, (unsigned long)i, a[i]);
        total += (uint64_t)a[i];
    }
    if (sum && total > limit) return goal__fail(err, GOAL_ERR_SIZE, -1, "%s: %s add up to too many bytes", d->algo, what);
    return GOAL_OK;
}
/* The arrays of a vector collective (VECTOR COLLECTIVES). */
static goal_status goal__algo_check_vector(const goal_algo_desc *d, goal_coll coll, int p, goal_error *err) {
    int a2a = coll == GOAL_COLL_ALLTOALLV;
    size_t n = (size_t)p * (d->counts_matrix ? (size_t)p : 1);
    goal_status st;
    if (!a2a && (d->counts_matrix || d->recv_counts || d->recv_displs))
        return goal__fail(err, GOAL_ERR_ARG, -1, "%s: counts_matrix, recv_counts and recv_displs are for alltoallv only", d->algo);
    if (d->counts_matrix && (!d->counts || d->recv_counts))
        return goal__fail(err, GOAL_ERR_ARG, -1, "%s: counts_matrix takes the p x p matrix in counts and no recv_counts", d->algo);
    if ((st = goal__algo_check_ints(d, d->counts, n, "counts", 1, err)) != GOAL_OK) return st;
    if ((st = goal__algo_check_ints(d, d->displs, n, "displs", 0, err)) != GOAL_OK) return st;
    if ((st = goal__algo_check_ints(d, d->recv_counts, (size_t)p, "recv_counts", 1, err)) != GOAL_OK) return st;
    return goal__algo_check_ints(d, d->recv_displs, n, "recv_displs", 0, err);
}

goal_status goal_algo_check(const goal_algo_desc *d, int p, goal_error *err) {
    const goal__algo_entry *e = d ? goal__algo_entry_of(d->algo) : NULL;
    uint64_t es;
    goal_status st;
    if (!d) return goal__fail(err, GOAL_ERR_ARG, -1, "no desc given");
    if (!e) return goal__fail(err, GOAL_ERR_ARG, -1, "unknown algorithm '%s'", d->algo ? d->algo : "(null)");
    if (p <= 0) return goal__fail(err, GOAL_ERR_RANK, -1, "%s: the number of ranks must be at least 1, not %d", e->info.name, p);
    if (d->root < 0 || d->root >= p) return goal__fail(err, GOAL_ERR_RANK, -1, "%s: root %d is out of range (%d ranks)", e->info.name, d->root, p);
    if (d->nway < 0) return goal__fail(err, GOAL_ERR_ARG, -1, "%s: nway must be at least 1, not %d", e->info.name, d->nway);
    if (d->radix < 0 || d->radix == 1) return goal__fail(err, GOAL_ERR_ARG, -1, "%s: radix must be at least 2, not %d", e->info.name, d->radix);
    if (d->tag < 0) return goal__fail(err, GOAL_ERR_ARG, -1, "%s: tag %d is negative", e->info.name, d->tag);
    if (!goal_dtype_name(d->dtype) || goal_op_check(GOAL_OP_COPY, d->dtype) == GOAL_ERR_TYPE)
        return goal__fail(err, GOAL_ERR_TYPE, -1, "%s: unsupported datatype 0x%x", e->info.name, (unsigned)d->dtype);
    es = goal_dtype_size(d->dtype);
    /* room for p blocks, a few times over, behind any offset */
    if (d->count > GOAL_SIZE_MAX / 8 / es / (uint64_t)p || d->in_offset > GOAL_SIZE_MAX / 2 ||
        d->out_offset > GOAL_SIZE_MAX / 2 || d->scratch_offset > GOAL_SIZE_MAX / 2)
        return goal__fail(err, GOAL_ERR_SIZE, -1, "%s: count or offsets too large", e->info.name);
    if (d->custom_slots && ((d->in_slot > GOAL_SLOT_MAX && d->in_slot != GOAL_SLOT_SCRATCH) ||
                            (d->out_slot > GOAL_SLOT_MAX && d->out_slot != GOAL_SLOT_SCRATCH)))
        return goal__fail(err, GOAL_ERR_ARG, -1, "%s: slot out of range", e->info.name);
    if (d->in_place && !(e->info.flags & GOAL_ALGO_INPLACE))
        return goal__fail(err, GOAL_ERR_ARG, -1, "%s cannot work in place (in_place): copy the input first", e->info.name);
    if ((st = goal__algo_check_op(d, e, err)) != GOAL_OK) return st;
    if ((e->info.flags & GOAL_ALGO_VECTOR) && (st = goal__algo_check_vector(d, e->info.coll, p, err)) != GOAL_OK) return st;
    if (!(e->info.flags & GOAL_ALGO_SETS)) return GOAL_OK;
    if ((st = goal__algo_check_list(d, d->participants, d->nparticipants, p, "participant", err)) != GOAL_OK) return st;
    return goal__algo_check_list(d, d->receivers, d->nreceivers, p, "receiver", err);
}

/* ---- >>> building ---------------------------------------------------------------------------------- */
static void goal__algo_init(goal__algo *c, goal_graph *g, const goal_algo_desc *d) {
    memset(c, 0, sizeof *c);
    c->g = g;
    c->d = d;
    c->rank = goal_graph_rank(g);
    c->p = goal_graph_nranks(g);
    c->root = d->root;
    c->v = goal__algo_mod((long long)c->rank - c->root, c->p);
    c->tag = d->tag;
    c->dtype = d->dtype;
    c->es = goal_dtype_size(d->dtype);
    c->count = d->count;
    c->n = d->count * c->es;
    c->in = goal_buffer(d->custom_slots ? d->in_slot : GOAL_ALGO_SLOT_IN, d->in_offset, c->n);
    c->out = goal_buffer(d->custom_slots ? d->out_slot : GOAL_ALGO_SLOT_OUT, d->out_offset, c->n);
    c->scratch = d->scratch_offset;
    c->start = -1;
    c->first = goal_graph_count(g);
    c->alloc = goal__allocator(&d->alloc);
}

/* One side of a vector layout in bytes: block i has counts[cbase + i cstep] elements (NULL:
   count) and starts at displs[i] (NULL: packed). */
static void goal__algo_vfill(goal__algo *c, uint64_t *cnt, uint64_t *off, const int *counts, size_t cbase, size_t cstep,
                             const int *displs) {
    uint64_t packed = 0;
    int i;
    for (i = 0; i < c->p; i++) {
        cnt[i] = (counts ? (uint64_t)counts[cbase + (size_t)i * cstep] : c->count) * c->es;
        off[i] = displs ? (uint64_t)displs[i] * c->es : packed;
        packed += cnt[i];
    }
}
/* Resolves the arrays of a vector collective for this rank: IN's and OUT's blocks. The side
   with one block (gatherv's IN, scatterv's OUT) has block `rank` of counts[rank] at 0. */
static goal_status goal__algo_vec_init(goal__algo *c, goal_coll coll, goal_error *err) {
    const goal_algo_desc *d = c->d;
    size_t p = (size_t)c->p, row = d->counts_matrix ? (size_t)c->rank * p : 0;
    uint64_t *m = (uint64_t *)goal__calloc(&c->alloc, 4 * p, sizeof(uint64_t));
    if (!m) return goal__fail(err, GOAL_ERR_NOMEM, -1, "%s: out of memory", d->algo);
    c->vmem = m;
    goal__algo_vfill(c, m, m + p, d->counts, row, 1, d->displs ? d->displs + row : NULL);
    c->ic = c->oc = m;
    c->io = c->oo = m + 2 * p;                         /* zeros: the single block at 0 */
    if (coll == GOAL_COLL_ALLTOALLV) {
        goal__algo_vfill(c, m + 2 * p, m + 3 * p, d->counts_matrix ? d->counts : d->recv_counts, d->counts_matrix ? (size_t)c->rank : 0,
                         d->counts_matrix ? p : 1, d->recv_displs ? d->recv_displs + row : NULL);
        c->io = m + p; c->oc = m + 2 * p; c->oo = m + 3 * p;
        if (c->ic[c->rank] != c->oc[c->rank])
            return goal__fail(err, GOAL_ERR_SIZE, -1, "%s, rank %d: sends itself %llu elements but receives %llu", d->algo, c->rank,
                                   (unsigned long long)(c->ic[c->rank] / c->es), (unsigned long long)(c->oc[c->rank] / c->es));
    } else if (goal__colls[coll].in_blocks == GOAL_COLL_P) c->io = m + p;
    else c->oo = m + p;
    return GOAL_OK;
}

/* Everything waits for the `after` actions: one of them directly, several through a nop. */
static goal_status goal__algo_start(goal__algo *c, const int32_t *after, int nafter, goal_error *err) {
    int i;
    for (i = 0; i < nafter; i++)
        if (after[i] < 0 || after[i] >= c->first)
            return goal__fail(err, GOAL_ERR_ACTION, -1, "after[%d] = %ld is not an action of the graph", i, (long)after[i]);
    if (nafter == 1) c->start = after[0];
    if (nafter > 1) {
        c->start = goal__algo_new(c, goal_graph_nop(c->g), -1);
        for (i = 0; i < nafter; i++) goal__algo_dep(c, c->start, after[i]);
    }
    return GOAL_OK;
}

/* The action after all sinks of this part (actions nothing here waits for). */
static int32_t goal__algo_finish(goal__algo *c, int join) {
    int32_t end = goal_graph_count(c->g), id, done = -1;
    goal__algo_joiner j = {-1, 0};
    if (!join) return 0;   /* a whole world: nothing composes after it, so no join */
    for (id = c->first; id < end && c->st == GOAL_OK; id++)
        if (!c->used[id - c->first]) goal__algo_join_add(c, &j, id);
    done = j.id;
    if (done < 0 && c->start >= 0) done = c->start;
    if (done < 0) done = goal__algo_new(c, goal_graph_nop(c->g), -1);
    return done;
}

/* in_place: where MPI_IN_PLACE puts this rank's input (or, at a scatter's root, leaves its
   block): the own-block copies then have the same source and destination and vanish. */
static void goal__algo_in_place(goal__algo *c, goal_coll coll) {
    int root = c->rank == c->root;
    if (!c->d->in_place) return;
    switch (goal__colls[coll].in_place) {
    case GOAL_COLL_INPLACE_OUT: c->in = c->out; break;
    case GOAL_COLL_INPLACE_ROOT_OUT: if (root) c->in = c->out; break;
    case GOAL_COLL_INPLACE_OWN_BLOCK: c->in = goal__algo_oblk(c, c->rank); break;
    case GOAL_COLL_INPLACE_ROOT_OWN_BLOCK: if (root) c->in = goal__algo_oblk(c, c->rank); break;
    case GOAL_COLL_INPLACE_ROOT_IN_BLOCK: if (root) c->out = goal__algo_iblk(c, c->rank); break;
    default: break;   /* goal_algo_check refused in_place */
    }
}

/* A part's end: its last action (joined when join), temporaries freed, a failure named with
   what (the algorithm) and the rank; else part filled and the last action returned. */
static int32_t goal__algo_end(goal__algo *c, int join, const char *what, goal_algo_part *part, goal_error *err) {
    int32_t done = goal__algo_finish(c, join);
    goal__free(&c->alloc, c->used);
    goal__free(&c->alloc, c->vmem);
    if (c->st == GOAL_OK) c->st = goal_graph_status(c->g);
    if (c->st != GOAL_OK) {
        const char *m = goal_graph_status(c->g) != GOAL_OK ? goal_graph_message(c->g) : goal_strerror(c->st);
        return goal__fail(err, c->st, -1, "%s, rank %d: %s", what, c->rank, m);
    }
    if (part) { part->done = done; part->scratch_end = c->scratch; }
    return done;
}
/* e: d's algorithm when d was checked for g's number of ranks (goal_algo_world, once for
   every rank: the name lookups were a few percent of building a big world); else NULL. */
static int32_t goal__algo_build(goal_graph *g, const goal_algo_desc *d, const goal__algo_entry *e, const int32_t *after,
                                int nafter, goal_algo_part *part, int join, goal_error *err) {
    goal__algo c;
    goal_status st;
    if (!g) return goal__fail(err, GOAL_ERR_ARG, -1, "no graph given");
    if (!e) {
        if ((st = goal_algo_check(d, goal_graph_nranks(g), err)) != GOAL_OK) return st;
        e = goal__algo_entry_of(d->algo);
    }
    if (nafter < 0 || (nafter > 0 && !after)) return goal__fail(err, GOAL_ERR_ARG, -1, "after: %d actions but no list", nafter);
    goal__algo_init(&c, g, d);
    if ((e->info.flags & GOAL_ALGO_VECTOR) && (st = goal__algo_vec_init(&c, e->info.coll, err)) != GOAL_OK) {
        goal__free(&c.alloc, c.vmem);
        return st;
    }
    if ((st = goal__algo_start(&c, after, nafter, err)) != GOAL_OK) return st;
    goal__algo_in_place(&c, e->info.coll);
    e->fn(&c);
    return goal__algo_end(&c, join, d->algo, part, err);
}
int32_t goal_algo_build(goal_graph *g, const goal_algo_desc *d, const int32_t *after, int nafter, goal_algo_part *part,
                        goal_error *err) {
    return goal__algo_build(g, d, NULL, after, nafter, part, 1, err);
}

/* Rank r's part into g (reset for r), as world_of builds every rank: ctx is the caller's. */
typedef int32_t (*goal__rank_fn)(goal_graph *g, int r, const void *ctx, goal_error *err);
/* The world of nranks ranks, each built by fn into one graph reset per rank. */
static goal_status goal__world_of(goal_world **out, int nranks, goal_allocator alloc, goal__rank_fn fn, const void *ctx,
                                  goal_error *err) {
    goal_graph *g = NULL;
    goal_graph_desc gd;
    goal_world_desc wd;
    goal_world *w = NULL;
    goal_status st;
    int r;
    memset(&gd, 0, sizeof gd);
    gd.nranks = nranks; gd.alloc = alloc;
    memset(&wd, 0, sizeof wd);
    wd.nranks = nranks; wd.alloc = alloc;
    if ((st = goal_world_create(&w, &wd, err)) != GOAL_OK || (st = goal_graph_create(&g, &gd, err)) != GOAL_OK) {
        goal_world_destroy(w);
        return st;
    }
    for (r = 0; r < nranks && st == GOAL_OK; r++) {
        int32_t done;
        if ((st = goal_graph_reset(g, r, nranks)) != GOAL_OK) { goal__fail(err, st, -1, "%s", goal_strerror(st)); break; }
        done = fn(g, r, ctx, err);
        st = done < 0 ? (goal_status)done : goal_world_add_graph(w, g, err);
    }
    goal_graph_destroy(g);
    if (st != GOAL_OK) { goal_world_destroy(w); return st; }
    *out = w;
    return GOAL_OK;
}
typedef struct goal__algo_ctx { const goal_algo_desc *d; const goal__algo_entry *e; } goal__algo_ctx;
static int32_t goal__algo_rank(goal_graph *g, int r, const void *ctx, goal_error *err) {
    const goal__algo_ctx *c = (const goal__algo_ctx *)ctx;
    (void)r;
    return goal__algo_build(g, c->d, c->e, NULL, 0, NULL, 0, err);
}
goal_status goal_algo_world(goal_world **out, const goal_algo_desc *d, int nranks, goal_error *err) {
    goal__algo_ctx c;
    goal_status st;
    if (!out) return goal__fail(err, GOAL_ERR_ARG, -1, "no output given");
    *out = NULL;
    if ((st = goal_algo_check(d, nranks, err)) != GOAL_OK) return st;
    c.d = d; c.e = goal__algo_entry_of(d->algo);
    return goal__world_of(out, nranks, d->alloc, goal__algo_rank, &c, err);
}

/* ---- >>> neighbourhoods ------------------------------------------------------------------------ */
/* Block i of a side: counts[i] elements (NULL: count) at displs[i] (NULL: after the previous). */
static goal_buf goal__nbr_block(const goal__algo *c, goal_buf base, const int *counts, const int *displs, int i, uint64_t *packed) {
    uint64_t n = (counts ? (uint64_t)counts[i] : c->count) * c->es, off = displs ? (uint64_t)displs[i] * c->es : *packed;
    *packed += n;
    return goal__algo_at(base, off, n);
}
static goal_status goal__nbr_check_list(const int *list, int n, int p, const char *what, goal_error *err) {
    int i;
    if (n < 0 || (n > 0 && !list)) return goal__fail(err, GOAL_ERR_ARG, -1, "neighbourhood: %d %s but no list", n, what);
    for (i = 0; i < n; i++)
        if (list[i] >= p) return goal__fail(err, GOAL_ERR_RANK, -1, "neighbourhood: %s[%d] = %d is out of range (%d ranks)", what, i, list[i], p);
    return GOAL_OK;
}
static goal_status goal__nbr_check(const goal_algo_desc *desc, const goal_algo_neighbors *nb, int p, goal_error *err) {
    goal_algo_desc named, *d = &named;   /* d->algo names the arrays' errors */
    goal_status st;
    if (!desc || !nb) return goal__fail(err, GOAL_ERR_ARG, -1, "neighbourhood: no desc or no lists given");
    named = *desc;
    named.algo = "neighbourhood";
    if (!goal_dtype_name(d->dtype) || goal_op_check(GOAL_OP_COPY, d->dtype) == GOAL_ERR_TYPE)
        return goal__fail(err, GOAL_ERR_TYPE, -1, "neighbourhood: unsupported datatype 0x%x", (unsigned)d->dtype);
    if (d->tag < 0) return goal__fail(err, GOAL_ERR_ARG, -1, "neighbourhood: tag %d is negative", d->tag);
    if (d->count > GOAL_SIZE_MAX / 8 / goal_dtype_size(d->dtype)) return goal__fail(err, GOAL_ERR_SIZE, -1, "neighbourhood: count too large");
    if ((st = goal__nbr_check_list(nb->sources, nb->nsources, p, "sources", err)) != GOAL_OK) return st;
    if ((st = goal__nbr_check_list(nb->dests, nb->ndests, p, "dests", err)) != GOAL_OK) return st;
    if ((st = goal__algo_check_ints(d, d->counts, nb->allgather ? 0 : (size_t)nb->ndests, "counts", 1, err)) != GOAL_OK) return st;
    if ((st = goal__algo_check_ints(d, d->displs, nb->allgather ? 0 : (size_t)nb->ndests, "displs", 0, err)) != GOAL_OK) return st;
    if ((st = goal__algo_check_ints(d, d->recv_counts, (size_t)nb->nsources, "recv_counts", 1, err)) != GOAL_OK) return st;
    return goal__algo_check_ints(d, d->recv_displs, (size_t)nb->nsources, "recv_displs", 0, err);
}
/* Sends in list order, receives in list order: FIFO per pair of ranks, duplicates included. */
static void goal__nbr_messages(goal__algo *c, const goal_algo_neighbors *nb) {
    const goal_algo_desc *d = c->d;
    uint64_t packed = 0;
    int32_t prev = -1, id;
    int i;
    for (i = 0; i < nb->ndests; i++) {
        goal_buf b = nb->allgather ? c->in : goal__nbr_block(c, c->in, d->counts, d->displs, i, &packed);
        if (nb->dests[i] < 0) continue;
        c->tag = d->tag + (nb->cartesian ? (i & 1) ^ 1 : 0);   /* the direction it arrives from */
        id = goal__algo_send(c, b, nb->dests[i], -1);
        goal__algo_order(c, id, prev);
        prev = id;
    }
    for (i = 0, prev = -1, packed = 0; i < nb->nsources; i++) {
        goal_buf b = goal__nbr_block(c, c->out, d->recv_counts, d->recv_displs, i, &packed);
        if (nb->sources[i] < 0) continue;
        c->tag = d->tag + (nb->cartesian ? i & 1 : 0);
        id = goal__algo_recv(c, b, nb->sources[i], -1);
        goal__algo_order(c, id, prev);
        prev = id;
    }
}
static int32_t goal__nbr_build(goal_graph *g, const goal_algo_desc *d, const goal_algo_neighbors *nb, const int32_t *after,
                               int nafter, goal_algo_part *part, int join, goal_error *err) {
    goal__algo c;
    goal_status st;
    if (!g) return goal__fail(err, GOAL_ERR_ARG, -1, "no graph given");
    if ((st = goal__nbr_check(d, nb, goal_graph_nranks(g), err)) != GOAL_OK) return st;
    if (nafter < 0 || (nafter > 0 && !after)) return goal__fail(err, GOAL_ERR_ARG, -1, "after: %d actions but no list", nafter);
    goal__algo_init(&c, g, d);
    if ((st = goal__algo_start(&c, after, nafter, err)) != GOAL_OK) return st;
    goal__nbr_messages(&c, nb);
    return goal__algo_end(&c, join, "neighbourhood", part, err);
}
int32_t goal_algo_neighbor_build(goal_graph *g, const goal_algo_desc *d, const goal_algo_neighbors *nb, const int32_t *after,
                                 int nafter, goal_algo_part *part, goal_error *err) {
    return goal__nbr_build(g, d, nb, after, nafter, part, 1, err);
}
typedef struct goal__nbr_ctx { const goal_algo_desc *d; const goal_algo_neighbors *nb; } goal__nbr_ctx;
static int32_t goal__nbr_rank(goal_graph *g, int r, const void *ctx, goal_error *err) {
    const goal__nbr_ctx *c = (const goal__nbr_ctx *)ctx;
    return goal__nbr_build(g, &c->d[r], &c->nb[r], NULL, 0, NULL, 0, err);
}
goal_status goal_algo_neighbor_world(goal_world **out, const goal_algo_desc *d, const goal_algo_neighbors *nb, int nranks,
                                     goal_error *err) {
    goal__nbr_ctx c;
    if (!out || !d || !nb || nranks <= 0) return goal__fail(err, GOAL_ERR_ARG, -1, "neighbourhood world: no output, desc, lists or ranks");
    *out = NULL;
    c.d = d; c.nb = nb;
    return goal__world_of(out, nranks, d->alloc, goal__nbr_rank, &c, err);
}

#endif /* GOAL_ALGOS_IMPLEMENTATION */

/* MIT License - see goal.h. */
