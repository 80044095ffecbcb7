/* goalmpi_fortran.c - the Fortran entry points of libgoalmpi, included at the end of goalmpi.c.
   Open MPI's Fortran bindings (mpif.h, `use mpi`, and `use mpi_f08` through its ompi_*_f
   functions) call PMPI_* directly, so without these a Fortran program's collectives bypass
   the drop-in, and its point-to-point calls the recorder (GOAL_MPI_RECORD); MPICH's call
   MPI_*, reaching the interceptors but counted as C calls.
   Each entry point converts what Fortran passes (handles through MPI_*_f2c / _c2f; the
   sentinels MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE, which are addresses of the
   library's Fortran variables; 1-based indices; LOGICAL flags) and calls the C MPI_* entry:
   goalmpi.c's interceptor where it has one, the library's otherwise, so every call listed
   here is right either way. Defined under every spelling the library's Fortran library
   exports for it (nm -D libmpi_mpifh.so / libmpichfort.so): mpi_x, mpi_x_, mpi_x__, MPI_X,
   and Open MPI's MPI_X_f, MPI_X_f08 and ompi_x_f (what its mpi_f08 module calls). The
   pmpi_* spellings stay the library's. MPICH's mpi_f08 module (mpi_x_f08ts_) calls the C
   MPI_* itself: those calls reach the interceptors, counted as C. */

#if defined(OPEN_MPI)
/* The common blocks mpif.h and the modules declare (Open MPI compares against their
   addresses, OMPI_IS_FORTRAN_IN_PLACE); weak, so that a C program loads without them. */
extern MPI_Fint mpi_fortran_in_place_ __attribute__((weak)), mpi_fortran_bottom_ __attribute__((weak)),
    mpi_fortran_status_ignore_ __attribute__((weak)), mpi_fortran_statuses_ignore_ __attribute__((weak));
#define GF_IN_PLACE ((void *)&mpi_fortran_in_place_)
#define GF_BOTTOM ((void *)&mpi_fortran_bottom_)
#define GF_STATUS_IGNORE ((MPI_Fint *)&mpi_fortran_status_ignore_)
#define GF_STATUSES_IGNORE ((MPI_Fint *)&mpi_fortran_statuses_ignore_)
static void gf_sentinels(void) {}
#elif defined(MPICH)
/* MPICH's Fortran library records the addresses of its common blocks (mpirinitf_, run by
   mpi_init_ or by the first call that finds MPIR_F_NeedInit set) in these. */
extern void *MPIR_F_MPI_IN_PLACE __attribute__((weak)), *MPIR_F_MPI_BOTTOM __attribute__((weak));
extern int MPIR_F_NeedInit __attribute__((weak));
extern void mpirinitf_(void) __attribute__((weak));
#define GF_IN_PLACE (&MPIR_F_MPI_IN_PLACE ? MPIR_F_MPI_IN_PLACE : NULL)
#define GF_BOTTOM (&MPIR_F_MPI_BOTTOM ? MPIR_F_MPI_BOTTOM : NULL)
#define GF_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define GF_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
static void gf_sentinels(void) {
    if (&MPIR_F_NeedInit && MPIR_F_NeedInit && mpirinitf_) { mpirinitf_(); MPIR_F_NeedInit = 0; }
}
#else
#error "goalmpi_fortran.c knows the Fortran sentinels of Open MPI and MPICH only"
#endif
/* A Fortran status is MPI_Fint[sizeof(MPI_Status) / sizeof(MPI_Fint)] (MPI_STATUS_SIZE: 6 in
   Open MPI, 5 in MPICH), and INTEGER count arrays are passed on as int arrays: */
typedef char gf_fint_is_int[sizeof(MPI_Fint) == sizeof(int) ? 1 : -1];
#define GF_STATUS_INTS (sizeof(MPI_Status) / sizeof(MPI_Fint))


/* A buffer argument as C's. */
static void *gf_buf(void *b) {
    gf_sentinels();
    if (b && b == GF_IN_PLACE) return MPI_IN_PLACE;
    if (b && b == GF_BOTTOM) return MPI_BOTTOM;
    return b;
}

/* ---- arrays held while an operation runs --------------------------------------------------- */
/* The C type arrays of a nonblocking or persistent w-call must outlive the call (MPI lets the
   implementation read them until the operation completes or the request is freed): kept here
   under the Fortran request handle, freed when a completion call or MPI_Request_free
   changes that handle (to MPI_REQUEST_NULL), and at MPI_Finalize. */
typedef struct gf_held { MPI_Fint req; MPI_Datatype *types; struct gf_held *next; } gf_held;
static gf_held *gf_held_list;
static int gf_hold(MPI_Fint req, MPI_Datatype *types) {
    gf_held *h = (gf_held *)malloc(sizeof *h);
    if (!h) return 0;
    h->req = req; h->types = types; h->next = gf_held_list; gf_held_list = h;
    return 1;
}
static void gf_release(MPI_Fint req) {
    gf_held **p = &gf_held_list, *h;
    while ((h = *p) != NULL) {
        if (h->req != req) { p = &h->next; continue; }
        *p = h->next;
        free(h->types); free(h);
    }
}
/* C requests back into Fortran's array; a handle that changed was completed or freed. */
static void gf_requests_back(int n, const MPI_Request *c, MPI_Fint *f) {
    int i;
    for (i = 0; i < n; i++) {
        MPI_Fint was = f[i];
        f[i] = MPI_Request_c2f(c[i]);
        if (gf_held_list && f[i] != was) gf_release(was);
    }
}

/* ---- one entry point per call, every spelling --------------------------------------------- */
#define GF_ALIAS(fn) __attribute__((alias(#fn)))
#if defined(OPEN_MPI)
#define GF_LIB_SPELLINGS(low, Mixed) \
    , MPI_##Mixed##_f GF_ALIAS(gf_##low), MPI_##Mixed##_f08 GF_ALIAS(gf_##low), ompi_##low##_f GF_ALIAS(gf_##low)
#else
#define GF_LIB_SPELLINGS(low, Mixed)
#endif
#define GF_SPELLINGS(low, UP, Mixed)                                                                              \
    __typeof__(gf_##low) mpi_##low GF_ALIAS(gf_##low), mpi_##low##_ GF_ALIAS(gf_##low),                          \
        mpi_##low##__ GF_ALIAS(gf_##low), MPI_##UP GF_ALIAS(gf_##low) GF_LIB_SPELLINGS(low, Mixed);

/* A collective (or, below, a point-to-point call without a status): Fortran's arguments
   PARAMS, then by KIND B (blocking) ierr, N (nonblocking) request, ierr, P (persistent)
   info, request, ierr; calls CALL with ARGS and KIND's tail. */
#define GF_LIST(...) __VA_ARGS__
#define GF_PARAMS_B , MPI_Fint *ierr
#define GF_PARAMS_N , MPI_Fint *req, MPI_Fint *ierr
#define GF_PARAMS_P , MPI_Fint *info, MPI_Fint *req, MPI_Fint *ierr
#define GF_TAIL_B
#define GF_TAIL_N , &q
#define GF_TAIL_P , MPI_Info_f2c(*info), &q
#define GF_REQ_B NULL
#define GF_REQ_N req
#define GF_REQ_P req
#define GF_COLL(low, UP, Mixed, KIND, PARAMS, CALL, ARGS)                  \
    static void gf_##low(GF_LIST PARAMS GF_PARAMS_##KIND) {                  \
        MPI_Request q = MPI_REQUEST_NULL;                                    \
        int rc;                                                              \
        goal__mpi_from_fortran(1);                                           \
        rc = CALL(GF_LIST ARGS GF_TAIL_##KIND);                              \
        gf_end(rc, ierr, GF_REQ_##KIND, q);                                  \
    }                                                                        \
    GF_SPELLINGS(low, UP, Mixed)
static void gf_rc(MPI_Fint *ierr, int rc) { if (ierr) *ierr = rc; }   /* ierror is optional in mpi_f08 */
static void gf_end(int rc, MPI_Fint *ierr, MPI_Fint *req, MPI_Request q) {
    goal__mpi_from_fortran(0);
    gf_rc(ierr, rc);
    if (req && rc == MPI_SUCCESS) *req = MPI_Request_c2f(q);
}

/* The argument lists, by shape: Fortran's (_F) and the C call's (_C). */
#define GF_TYPE(t) MPI_Type_f2c(*(t))
#define GF_COMM MPI_Comm_f2c(*comm)
#define GF_RED_F (void *s, void *r, MPI_Fint *n, MPI_Fint *t, MPI_Fint *op, MPI_Fint *comm)
#define GF_RED_C (gf_buf(s), gf_buf(r), *n, GF_TYPE(t), MPI_Op_f2c(*op), GF_COMM)
#define GF_REDUCE_F (void *s, void *r, MPI_Fint *n, MPI_Fint *t, MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm)
#define GF_REDUCE_C (gf_buf(s), gf_buf(r), *n, GF_TYPE(t), MPI_Op_f2c(*op), *root, GF_COMM)
#define GF_RS_C (gf_buf(s), gf_buf(r), n, GF_TYPE(t), MPI_Op_f2c(*op), GF_COMM)   /* n: recvcounts */
#define GF_BCAST_F (void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *root, MPI_Fint *comm)
#define GF_BCAST_C (gf_buf(b), *n, GF_TYPE(t), *root, GF_COMM)
#define GF_MOVE_F (void *s, MPI_Fint *sn, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *comm)
#define GF_MOVE_C (gf_buf(s), *sn, GF_TYPE(st), gf_buf(r), *rn, GF_TYPE(rt), GF_COMM)
#define GF_ROOTMOVE_F (void *s, MPI_Fint *sn, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *root, MPI_Fint *comm)
#define GF_ROOTMOVE_C (gf_buf(s), *sn, GF_TYPE(st), gf_buf(r), *rn, GF_TYPE(rt), *root, GF_COMM)
#define GF_GATHERV_F (void *s, MPI_Fint *sn, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd, MPI_Fint *rt, MPI_Fint *root, MPI_Fint *comm)
#define GF_GATHERV_C (gf_buf(s), *sn, GF_TYPE(st), gf_buf(r), rn, rd, GF_TYPE(rt), *root, GF_COMM)
#define GF_SCATTERV_F (void *s, MPI_Fint *sn, MPI_Fint *sd, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *root, MPI_Fint *comm)
#define GF_SCATTERV_C (gf_buf(s), sn, sd, GF_TYPE(st), gf_buf(r), *rn, GF_TYPE(rt), *root, GF_COMM)
#define GF_ALLGATHERV_F (void *s, MPI_Fint *sn, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd, MPI_Fint *rt, MPI_Fint *comm)
#define GF_ALLGATHERV_C (gf_buf(s), *sn, GF_TYPE(st), gf_buf(r), rn, rd, GF_TYPE(rt), GF_COMM)
#define GF_ALLTOALLV_F (void *s, MPI_Fint *sn, MPI_Fint *sd, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd, MPI_Fint *rt, MPI_Fint *comm)
#define GF_ALLTOALLV_C (gf_buf(s), sn, sd, GF_TYPE(st), gf_buf(r), rn, rd, GF_TYPE(rt), GF_COMM)
#define GF_BARRIER_F (MPI_Fint *comm)
#define GF_BARRIER_C (GF_COMM)

GF_COLL(bcast, BCAST, Bcast, B, GF_BCAST_F, MPI_Bcast, GF_BCAST_C)
GF_COLL(ibcast, IBCAST, Ibcast, N, GF_BCAST_F, MPI_Ibcast, GF_BCAST_C)
GF_COLL(reduce, REDUCE, Reduce, B, GF_REDUCE_F, MPI_Reduce, GF_REDUCE_C)
GF_COLL(ireduce, IREDUCE, Ireduce, N, GF_REDUCE_F, MPI_Ireduce, GF_REDUCE_C)
GF_COLL(allreduce, ALLREDUCE, Allreduce, B, GF_RED_F, MPI_Allreduce, GF_RED_C)
GF_COLL(iallreduce, IALLREDUCE, Iallreduce, N, GF_RED_F, MPI_Iallreduce, GF_RED_C)
GF_COLL(scan, SCAN, Scan, B, GF_RED_F, MPI_Scan, GF_RED_C)
GF_COLL(iscan, ISCAN, Iscan, N, GF_RED_F, MPI_Iscan, GF_RED_C)
GF_COLL(exscan, EXSCAN, Exscan, B, GF_RED_F, MPI_Exscan, GF_RED_C)
GF_COLL(iexscan, IEXSCAN, Iexscan, N, GF_RED_F, MPI_Iexscan, GF_RED_C)
GF_COLL(reduce_scatter_block, REDUCE_SCATTER_BLOCK, Reduce_scatter_block, B, GF_RED_F, MPI_Reduce_scatter_block, GF_RED_C)
GF_COLL(ireduce_scatter_block, IREDUCE_SCATTER_BLOCK, Ireduce_scatter_block, N, GF_RED_F, MPI_Ireduce_scatter_block, GF_RED_C)
GF_COLL(reduce_scatter, REDUCE_SCATTER, Reduce_scatter, B, GF_RED_F, MPI_Reduce_scatter, GF_RS_C)
GF_COLL(ireduce_scatter, IREDUCE_SCATTER, Ireduce_scatter, N, GF_RED_F, MPI_Ireduce_scatter, GF_RS_C)
GF_COLL(gather, GATHER, Gather, B, GF_ROOTMOVE_F, MPI_Gather, GF_ROOTMOVE_C)
GF_COLL(igather, IGATHER, Igather, N, GF_ROOTMOVE_F, MPI_Igather, GF_ROOTMOVE_C)
GF_COLL(scatter, SCATTER, Scatter, B, GF_ROOTMOVE_F, MPI_Scatter, GF_ROOTMOVE_C)
GF_COLL(iscatter, ISCATTER, Iscatter, N, GF_ROOTMOVE_F, MPI_Iscatter, GF_ROOTMOVE_C)
GF_COLL(gatherv, GATHERV, Gatherv, B, GF_GATHERV_F, MPI_Gatherv, GF_GATHERV_C)
GF_COLL(igatherv, IGATHERV, Igatherv, N, GF_GATHERV_F, MPI_Igatherv, GF_GATHERV_C)
GF_COLL(scatterv, SCATTERV, Scatterv, B, GF_SCATTERV_F, MPI_Scatterv, GF_SCATTERV_C)
GF_COLL(iscatterv, ISCATTERV, Iscatterv, N, GF_SCATTERV_F, MPI_Iscatterv, GF_SCATTERV_C)
GF_COLL(allgather, ALLGATHER, Allgather, B, GF_MOVE_F, MPI_Allgather, GF_MOVE_C)
GF_COLL(iallgather, IALLGATHER, Iallgather, N, GF_MOVE_F, MPI_Iallgather, GF_MOVE_C)
GF_COLL(allgatherv, ALLGATHERV, Allgatherv, B, GF_ALLGATHERV_F, MPI_Allgatherv, GF_ALLGATHERV_C)
GF_COLL(iallgatherv, IALLGATHERV, Iallgatherv, N, GF_ALLGATHERV_F, MPI_Iallgatherv, GF_ALLGATHERV_C)
GF_COLL(alltoall, ALLTOALL, Alltoall, B, GF_MOVE_F, MPI_Alltoall, GF_MOVE_C)
GF_COLL(ialltoall, IALLTOALL, Ialltoall, N, GF_MOVE_F, MPI_Ialltoall, GF_MOVE_C)
GF_COLL(alltoallv, ALLTOALLV, Alltoallv, B, GF_ALLTOALLV_F, MPI_Alltoallv, GF_ALLTOALLV_C)
GF_COLL(ialltoallv, IALLTOALLV, Ialltoallv, N, GF_ALLTOALLV_F, MPI_Ialltoallv, GF_ALLTOALLV_C)
GF_COLL(barrier, BARRIER, Barrier, B, GF_BARRIER_F, MPI_Barrier, GF_BARRIER_C)
GF_COLL(ibarrier, IBARRIER, Ibarrier, N, GF_BARRIER_F, MPI_Ibarrier, GF_BARRIER_C)
GF_COLL(neighbor_allgather, NEIGHBOR_ALLGATHER, Neighbor_allgather, B, GF_MOVE_F, MPI_Neighbor_allgather, GF_MOVE_C)
GF_COLL(ineighbor_allgather, INEIGHBOR_ALLGATHER, Ineighbor_allgather, N, GF_MOVE_F, MPI_Ineighbor_allgather, GF_MOVE_C)
GF_COLL(neighbor_allgatherv, NEIGHBOR_ALLGATHERV, Neighbor_allgatherv, B, GF_ALLGATHERV_F, MPI_Neighbor_allgatherv, GF_ALLGATHERV_C)
GF_COLL(ineighbor_allgatherv, INEIGHBOR_ALLGATHERV, Ineighbor_allgatherv, N, GF_ALLGATHERV_F, MPI_Ineighbor_allgatherv, GF_ALLGATHERV_C)
GF_COLL(neighbor_alltoall, NEIGHBOR_ALLTOALL, Neighbor_alltoall, B, GF_MOVE_F, MPI_Neighbor_alltoall, GF_MOVE_C)
GF_COLL(ineighbor_alltoall, INEIGHBOR_ALLTOALL, Ineighbor_alltoall, N, GF_MOVE_F, MPI_Ineighbor_alltoall, GF_MOVE_C)
GF_COLL(neighbor_alltoallv, NEIGHBOR_ALLTOALLV, Neighbor_alltoallv, B, GF_ALLTOALLV_F, MPI_Neighbor_alltoallv, GF_ALLTOALLV_C)
GF_COLL(ineighbor_alltoallv, INEIGHBOR_ALLTOALLV, Ineighbor_alltoallv, N, GF_ALLTOALLV_F, MPI_Ineighbor_alltoallv, GF_ALLTOALLV_C)
#if MPI_VERSION >= 4   /* the persistent collectives (MPICH 4; Open MPI 4.1 has only MPIX_*_init, passed on) */
GF_COLL(bcast_init, BCAST_INIT, Bcast_init, P, GF_BCAST_F, MPI_Bcast_init, GF_BCAST_C)
GF_COLL(reduce_init, REDUCE_INIT, Reduce_init, P, GF_REDUCE_F, MPI_Reduce_init, GF_REDUCE_C)
GF_COLL(allreduce_init, ALLREDUCE_INIT, Allreduce_init, P, GF_RED_F, MPI_Allreduce_init, GF_RED_C)
GF_COLL(scan_init, SCAN_INIT, Scan_init, P, GF_RED_F, MPI_Scan_init, GF_RED_C)
GF_COLL(exscan_init, EXSCAN_INIT, Exscan_init, P, GF_RED_F, MPI_Exscan_init, GF_RED_C)
GF_COLL(reduce_scatter_block_init, REDUCE_SCATTER_BLOCK_INIT, Reduce_scatter_block_init, P, GF_RED_F,
        MPI_Reduce_scatter_block_init, GF_RED_C)
GF_COLL(reduce_scatter_init, REDUCE_SCATTER_INIT, Reduce_scatter_init, P, GF_RED_F, MPI_Reduce_scatter_init, GF_RS_C)
GF_COLL(gather_init, GATHER_INIT, Gather_init, P, GF_ROOTMOVE_F, MPI_Gather_init, GF_ROOTMOVE_C)
GF_COLL(scatter_init, SCATTER_INIT, Scatter_init, P, GF_ROOTMOVE_F, MPI_Scatter_init, GF_ROOTMOVE_C)
GF_COLL(gatherv_init, GATHERV_INIT, Gatherv_init, P, GF_GATHERV_F, MPI_Gatherv_init, GF_GATHERV_C)
GF_COLL(scatterv_init, SCATTERV_INIT, Scatterv_init, P, GF_SCATTERV_F, MPI_Scatterv_init, GF_SCATTERV_C)
GF_COLL(allgather_init, ALLGATHER_INIT, Allgather_init, P, GF_MOVE_F, MPI_Allgather_init, GF_MOVE_C)
GF_COLL(allgatherv_init, ALLGATHERV_INIT, Allgatherv_init, P, GF_ALLGATHERV_F, MPI_Allgatherv_init, GF_ALLGATHERV_C)
GF_COLL(alltoall_init, ALLTOALL_INIT, Alltoall_init, P, GF_MOVE_F, MPI_Alltoall_init, GF_MOVE_C)
GF_COLL(alltoallv_init, ALLTOALLV_INIT, Alltoallv_init, P, GF_ALLTOALLV_F, MPI_Alltoallv_init, GF_ALLTOALLV_C)
GF_COLL(barrier_init, BARRIER_INIT, Barrier_init, P, GF_BARRIER_F, MPI_Barrier_init, GF_BARRIER_C)
GF_COLL(neighbor_allgather_init, NEIGHBOR_ALLGATHER_INIT, Neighbor_allgather_init, P, GF_MOVE_F,
        MPI_Neighbor_allgather_init, GF_MOVE_C)
GF_COLL(neighbor_allgatherv_init, NEIGHBOR_ALLGATHERV_INIT, Neighbor_allgatherv_init, P, GF_ALLGATHERV_F,
        MPI_Neighbor_allgatherv_init, GF_ALLGATHERV_C)
GF_COLL(neighbor_alltoall_init, NEIGHBOR_ALLTOALL_INIT, Neighbor_alltoall_init, P, GF_MOVE_F,
        MPI_Neighbor_alltoall_init, GF_MOVE_C)
GF_COLL(neighbor_alltoallv_init, NEIGHBOR_ALLTOALLV_INIT, Neighbor_alltoallv_init, P, GF_ALLTOALLV_F,
        MPI_Neighbor_alltoallv_init, GF_ALLTOALLV_C)
#endif

/* ---- the w-calls: a type per peer ---------------------------------------------------------- */
/* How many peers the send and receive arrays of a w-call have: the communicator's size (the
   remote group's for an intercommunicator), or its topology's out- and in-degree. */
static int gf_peers(MPI_Comm comm, int neighbor, int *out, int *in) {
    int topo = MPI_UNDEFINED, inter = 0, me = 0, weighted = 0, ok;
    if (!neighbor) {
        PMPI_Comm_test_inter(comm, &inter);
        ok = (inter ? PMPI_Comm_remote_size(comm, out) : PMPI_Comm_size(comm, out)) == MPI_SUCCESS;
        *in = *out;
        return ok;
    }
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_DIST_GRAPH) return PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted) == MPI_SUCCESS;
    if (topo == MPI_CART) ok = PMPI_Cartdim_get(comm, out) == MPI_SUCCESS && (*out *= 2, 1);
    else ok = topo == MPI_GRAPH && PMPI_Comm_rank(comm, &me) == MPI_SUCCESS &&
              PMPI_Graph_neighbors_count(comm, me, out) == MPI_SUCCESS;
    *in = *out;
    return ok;
}
enum { GF_ALLTOALLW, GF_IALLTOALLW, GF_ALLTOALLW_INIT, GF_NEIGHBOR_ALLTOALLW, GF_INEIGHBOR_ALLTOALLW,
       GF_NEIGHBOR_ALLTOALLW_INIT };
/* One w-call (sd and rd: int displacements, MPI_Aint for the neighbourhood calls). */
static void gf_w(int call, void *s, MPI_Fint *sn, void *sd, MPI_Fint *st, void *r, MPI_Fint *rn, void *rd,
                 MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *info, MPI_Fint *req, MPI_Fint *ierr) {
    MPI_Comm c = MPI_Comm_f2c(*comm);
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Datatype *ts = NULL;
    int out = 0, in = 0, i, rc, neighbor = call >= GF_NEIGHBOR_ALLTOALLW;
    const int *isd = (const int *)sd, *ird = (const int *)rd;
    const MPI_Aint *asd = (const MPI_Aint *)sd, *ard = (const MPI_Aint *)rd;
    s = gf_buf(s); r = gf_buf(r);
    if (!gf_peers(c, neighbor, &out, &in)) { gf_end(MPI_ERR_TOPOLOGY, ierr, NULL, q); return; }
    if (s == MPI_IN_PLACE) out = 0;   /* the send arrays are ignored */
    if (!(ts = (MPI_Datatype *)malloc(((size_t)out + (size_t)in + 1) * sizeof *ts))) { gf_end(MPI_ERR_NO_MEM, ierr, NULL, q); return; }
    for (i = 0; i < out; i++) ts[i] = MPI_Type_f2c(st[i]);
    for (i = 0; i < in; i++) ts[out + i] = MPI_Type_f2c(rt[i]);
    goal__mpi_from_fortran(1);
    switch (call) {
    case GF_ALLTOALLW: rc = MPI_Alltoallw(s, sn, isd, ts, r, rn, ird, ts + out, c); break;
    case GF_IALLTOALLW: rc = MPI_Ialltoallw(s, sn, isd, ts, r, rn, ird, ts + out, c, &q); break;
    case GF_NEIGHBOR_ALLTOALLW: rc = MPI_Neighbor_alltoallw(s, sn, asd, ts, r, rn, ard, ts + out, c); break;
    case GF_INEIGHBOR_ALLTOALLW: rc = MPI_Ineighbor_alltoallw(s, sn, asd, ts, r, rn, ard, ts + out, c, &q); break;
#if MPI_VERSION >= 4
    case GF_ALLTOALLW_INIT: rc = MPI_Alltoallw_init(s, sn, isd, ts, r, rn, ird, ts + out, c, MPI_Info_f2c(*info), &q); break;
    default: rc = MPI_Neighbor_alltoallw_init(s, sn, asd, ts, r, rn, ard, ts + out, c, MPI_Info_f2c(*info), &q); break;
#else
    default: (void)info; rc = MPI_ERR_OTHER; break;
#endif
    }
    gf_end(rc, ierr, req, q);
    if (!req || rc != MPI_SUCCESS || !gf_hold(*req, ts)) free(ts);
}
static void gf_alltoallw(void *s, MPI_Fint *sn, MPI_Fint *sd, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd,
                         MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *ierr) {
    gf_w(GF_ALLTOALLW, s, sn, sd, st, r, rn, rd, rt, comm, NULL, NULL, ierr);
}
static void gf_ialltoallw(void *s, MPI_Fint *sn, MPI_Fint *sd, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd,
                          MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr) {
    gf_w(GF_IALLTOALLW, s, sn, sd, st, r, rn, rd, rt, comm, NULL, req, ierr);
}
static void gf_neighbor_alltoallw(void *s, MPI_Fint *sn, MPI_Aint *sd, MPI_Fint *st, void *r, MPI_Fint *rn,
                                  MPI_Aint *rd, MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *ierr) {
    gf_w(GF_NEIGHBOR_ALLTOALLW, s, sn, sd, st, r, rn, rd, rt, comm, NULL, NULL, ierr);
}
static void gf_ineighbor_alltoallw(void *s, MPI_Fint *sn, MPI_Aint *sd, MPI_Fint *st, void *r, MPI_Fint *rn,
                                   MPI_Aint *rd, MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr) {
    gf_w(GF_INEIGHBOR_ALLTOALLW, s, sn, sd, st, r, rn, rd, rt, comm, NULL, req, ierr);
}
GF_SPELLINGS(alltoallw, ALLTOALLW, Alltoallw)
GF_SPELLINGS(ialltoallw, IALLTOALLW, Ialltoallw)
GF_SPELLINGS(neighbor_alltoallw, NEIGHBOR_ALLTOALLW, Neighbor_alltoallw)
GF_SPELLINGS(ineighbor_alltoallw, INEIGHBOR_ALLTOALLW, Ineighbor_alltoallw)
#if MPI_VERSION >= 4
static void gf_alltoallw_init(void *s, MPI_Fint *sn, MPI_Fint *sd, MPI_Fint *st, void *r, MPI_Fint *rn, MPI_Fint *rd,
                              MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *info, MPI_Fint *req, MPI_Fint *ierr) {
    gf_w(GF_ALLTOALLW_INIT, s, sn, sd, st, r, rn, rd, rt, comm, info, req, ierr);
}
static void gf_neighbor_alltoallw_init(void *s, MPI_Fint *sn, MPI_Aint *sd, MPI_Fint *st, void *r, MPI_Fint *rn,
                                       MPI_Aint *rd, MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *info, MPI_Fint *req,
                                       MPI_Fint *ierr) {
    gf_w(GF_NEIGHBOR_ALLTOALLW_INIT, s, sn, sd, st, r, rn, rd, rt, comm, info, req, ierr);
}
GF_SPELLINGS(alltoallw_init, ALLTOALLW_INIT, Alltoallw_init)
GF_SPELLINGS(neighbor_alltoallw_init, NEIGHBOR_ALLTOALLW_INIT, Neighbor_alltoallw_init)
#endif

/* ---- requests: completion (which progresses libgoal), start, free ------------------------- */
/* How a binding passes statuses: its MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, the MPI_Fint
   of one status, and the conversion from C's. */
typedef struct gf_statuses {
    const MPI_Fint *ignore, *ignore_all;
    size_t ints;
    int (*c2f)(const MPI_Status *, MPI_Fint *);
} gf_statuses;
static gf_statuses gf_f77(void) {
    gf_statuses k;
    gf_sentinels();
    k.ignore = GF_STATUS_IGNORE; k.ignore_all = GF_STATUSES_IGNORE; k.ints = GF_STATUS_INTS; k.c2f = MPI_Status_c2f;
    return k;
}
/* A Fortran status argument as C's: MPI_STATUS_IGNORE for the sentinel, else c. */
static MPI_Status *gf_status(const gf_statuses *k, const MPI_Fint *f, MPI_Status *c) {
    memset(c, 0, sizeof *c);
    return f == k->ignore ? MPI_STATUS_IGNORE : c;
}
static void gf_status_back(const gf_statuses *k, const MPI_Status *c, MPI_Fint *f) { if (c != MPI_STATUS_IGNORE) k->c2f(c, f); }
/* n requests as C's, and room for their statuses unless fs is NULL or MPI_STATUSES_IGNORE, in
   one block; NULL when out of memory. */
static MPI_Request *gf_requests(const gf_statuses *k, int n, const MPI_Fint *f, const MPI_Fint *fs, MPI_Status **cs) {
    size_t m = (size_t)(n > 0 ? n : 1);
    MPI_Request *c = (MPI_Request *)calloc(m, sizeof *c + sizeof **cs);
    int i;
    if (!c) return NULL;
    for (i = 0; i < n; i++) c[i] = MPI_Request_f2c(f[i]);
    *cs = !fs || fs == k->ignore_all ? MPI_STATUSES_IGNORE : (MPI_Status *)(void *)(c + m);
    return c;
}
/* Requests back, and the first ns statuses (C's order: by request for Waitall, by completion
   for Waitsome) into fs. */
static void gf_requests_end(const gf_statuses *k, int n, MPI_Request *c, MPI_Fint *f, MPI_Status *cs, MPI_Fint *fs, int ns) {
    int i;
    gf_requests_back(n, c, f);
    for (i = 0; cs != MPI_STATUSES_IGNORE && i < ns; i++) k->c2f(&cs[i], fs + (size_t)i * k->ints);
    free(c);
}
static MPI_Fint gf_index(int i) { return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1; }

static void gf_wait_k(const gf_statuses *k, MPI_Fint *req, MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Request c = MPI_Request_f2c(*req);
    MPI_Status st, *s = gf_status(k, fs, &st);
    gf_rc(ierr, MPI_Wait(&c, s));
    gf_requests_back(1, &c, req);
    gf_status_back(k, s, fs);
}
static void gf_test_k(const gf_statuses *k, MPI_Fint *req, MPI_Fint *flag, MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Request c = MPI_Request_f2c(*req);
    MPI_Status st, *s = gf_status(k, fs, &st);
    int done = 0;
    gf_rc(ierr, MPI_Test(&c, &done, s));
    *flag = done != 0;   /* gfortran's .true. */
    gf_requests_back(1, &c, req);
    if (done) gf_status_back(k, s, fs);
}
static void gf_waitall_k(const gf_statuses *k, MPI_Fint *n, MPI_Fint *req, MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Status *cs;
    MPI_Request *c = gf_requests(k, *n, req, fs, &cs);
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    gf_rc(ierr, MPI_Waitall(*n, c, cs));
    gf_requests_end(k, *n, c, req, cs, fs, *n);
}
static void gf_testall_k(const gf_statuses *k, MPI_Fint *n, MPI_Fint *req, MPI_Fint *flag, MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Status *cs;
    MPI_Request *c = gf_requests(k, *n, req, fs, &cs);
    int done = 0;
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    gf_rc(ierr, MPI_Testall(*n, c, &done, cs));
    *flag = done != 0;
    gf_requests_end(k, *n, c, req, cs, fs, done ? *n : 0);
}
static void gf_waitany_k(const gf_statuses *k, MPI_Fint *n, MPI_Fint *req, MPI_Fint *idx, MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Status st, *s = gf_status(k, fs, &st), *none;
    MPI_Request *c = gf_requests(k, *n, req, NULL, &none);
    int i = MPI_UNDEFINED;
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    gf_rc(ierr, MPI_Waitany(*n, c, &i, s));
    *idx = gf_index(i);
    gf_requests_end(k, *n, c, req, none, NULL, 0);
    gf_status_back(k, s, fs);
}
static void gf_testany_k(const gf_statuses *k, MPI_Fint *n, MPI_Fint *req, MPI_Fint *idx, MPI_Fint *flag, MPI_Fint *fs,
                         MPI_Fint *ierr) {
    MPI_Status st, *s = gf_status(k, fs, &st), *none;
    MPI_Request *c = gf_requests(k, *n, req, NULL, &none);
    int i = MPI_UNDEFINED, done = 0;
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    gf_rc(ierr, MPI_Testany(*n, c, &i, &done, s));
    *idx = gf_index(i);
    *flag = done != 0;
    gf_requests_end(k, *n, c, req, none, NULL, 0);
    if (done) gf_status_back(k, s, fs);
}
/* Waitsome and Testsome: the indices of those that completed, 1-based. */
static void gf_some_k(const gf_statuses *k, int wait, MPI_Fint *n, MPI_Fint *req, MPI_Fint *out, MPI_Fint *idx,
                      MPI_Fint *fs, MPI_Fint *ierr) {
    MPI_Status *cs;
    MPI_Request *c = gf_requests(k, *n, req, fs, &cs);
    int m = 0, i;
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    gf_rc(ierr, wait ? MPI_Waitsome(*n, c, &m, idx, cs) : MPI_Testsome(*n, c, &m, idx, cs));
    *out = m;
    gf_requests_end(k, *n, c, req, cs, fs, m == MPI_UNDEFINED ? 0 : m);
    for (i = 0; m != MPI_UNDEFINED && i < m; i++) idx[i]++;
}
/* The completion calls of one binding: K is its gf_statuses, SUFFIX ends the names. */
#define GF_COMPLETION(SUFFIX, K)                                                                                      \
    static void gf_wait##SUFFIX(MPI_Fint *req, MPI_Fint *fs, MPI_Fint *ierr) {                                        \
        gf_statuses k = K; gf_wait_k(&k, req, fs, ierr);                                                              \
    }                                                                                                                 \
    static void gf_test##SUFFIX(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *fs, MPI_Fint *ierr) {                        \
        gf_statuses k = K; gf_test_k(&k, req, flag, fs, ierr);                                                        \
    }                                                                                                                 \
    static void gf_waitall##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *fs, MPI_Fint *ierr) {                        \
        gf_statuses k = K; gf_waitall_k(&k, n, req, fs, ierr);                                                        \
    }                                                                                                                 \
    static void gf_testall##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *flag, MPI_Fint *fs, MPI_Fint *ierr) {        \
        gf_statuses k = K; gf_testall_k(&k, n, req, flag, fs, ierr);                                                  \
    }                                                                                                                 \
    static void gf_waitany##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *idx, MPI_Fint *fs, MPI_Fint *ierr) {         \
        gf_statuses k = K; gf_waitany_k(&k, n, req, idx, fs, ierr);                                                   \
    }                                                                                                                 \
    static void gf_testany##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *idx, MPI_Fint *flag, MPI_Fint *fs,           \
                                   MPI_Fint *ierr) {                                                                  \
        gf_statuses k = K; gf_testany_k(&k, n, req, idx, flag, fs, ierr);                                             \
    }                                                                                                                 \
    static void gf_waitsome##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *fs,           \
                                    MPI_Fint *ierr) {                                                                 \
        gf_statuses k = K; gf_some_k(&k, 1, n, req, out, idx, fs, ierr);                                              \
    }                                                                                                                 \
    static void gf_testsome##SUFFIX(MPI_Fint *n, MPI_Fint *req, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *fs,           \
                                    MPI_Fint *ierr) {                                                                 \
        gf_statuses k = K; gf_some_k(&k, 0, n, req, out, idx, fs, ierr);                                              \
    }
GF_COMPLETION(, gf_f77())

static void gf_start(MPI_Fint *req, MPI_Fint *ierr) {   /* a persistent collective's start: from Fortran */
    MPI_Request c = MPI_Request_f2c(*req);
    int rc;
    goal__mpi_from_fortran(1);
    rc = MPI_Start(&c);
    goal__mpi_from_fortran(0);
    gf_rc(ierr, rc);
}
static void gf_startall(MPI_Fint *n, MPI_Fint *req, MPI_Fint *ierr) {
    gf_statuses k = gf_f77();
    MPI_Status *none;
    MPI_Request *c = gf_requests(&k, *n, req, NULL, &none);
    int rc;
    if (!c) { gf_rc(ierr, MPI_ERR_NO_MEM); return; }
    goal__mpi_from_fortran(1);
    rc = MPI_Startall(*n, c);
    goal__mpi_from_fortran(0);
    gf_rc(ierr, rc);
    free(c);
}
static void gf_request_free(MPI_Fint *req, MPI_Fint *ierr) {
    MPI_Request c = MPI_Request_f2c(*req);
    gf_rc(ierr, MPI_Request_free(&c));
    gf_requests_back(1, &c, req);
}
static void gf_finalize(MPI_Fint *ierr) {
    gf_rc(ierr, MPI_Finalize());   /* completes what is in flight, so the held arrays go after */
    while (gf_held_list) gf_release(gf_held_list->req);
}
GF_SPELLINGS(wait, WAIT, Wait)
GF_SPELLINGS(test, TEST, Test)
GF_SPELLINGS(waitall, WAITALL, Waitall)
GF_SPELLINGS(testall, TESTALL, Testall)
GF_SPELLINGS(waitany, WAITANY, Waitany)
GF_SPELLINGS(testany, TESTANY, Testany)
GF_SPELLINGS(waitsome, WAITSOME, Waitsome)
GF_SPELLINGS(testsome, TESTSOME, Testsome)
GF_SPELLINGS(start, START, Start)
GF_SPELLINGS(startall, STARTALL, Startall)
GF_SPELLINGS(request_free, REQUEST_FREE, Request_free)
GF_SPELLINGS(finalize, FINALIZE, Finalize)

/* Matched probes of one binding (K its gf_statuses, SUFFIX ends the names): the message
   handle out as Fortran's. */
#define GF_MPROBES(SUFFIX, K)                                                                                         \
    static void gf_mprobe##SUFFIX(MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *msg, MPI_Fint *fs,          \
                                  MPI_Fint *ierr) {                                                                   \
        gf_statuses k = K;                                                                                            \
        MPI_Status st, *s = gf_status(&k, fs, &st);                                                                   \
        MPI_Message m = MPI_MESSAGE_NULL;                                                                             \
        gf_rc(ierr, MPI_Mprobe(*src, *tag, GF_COMM, &m, s));                                                          \
        *msg = MPI_Message_c2f(m);                                                                                    \
        gf_status_back(&k, s, fs);                                                                                    \
    }                                                                                                                 \
    static void gf_improbe##SUFFIX(MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *msg,       \
                                   MPI_Fint *fs, MPI_Fint *ierr) {                                                    \
        gf_statuses k = K;                                                                                            \
        MPI_Status st, *s = gf_status(&k, fs, &st);                                                                   \
        MPI_Message m = MPI_MESSAGE_NULL;                                                                             \
        int found = 0;                                                                                                \
        gf_rc(ierr, MPI_Improbe(*src, *tag, GF_COMM, &found, &m, s));                                                 \
        *flag = found != 0; /* gfortran's .true. */                                                                   \
        if (found) { *msg = MPI_Message_c2f(m); gf_status_back(&k, s, fs); }                                          \
    }

/* ---- point-to-point, from Open MPI's Fortran layer ----------------------------------------- */
/* It calls PMPI_Send and the like, past the recorder (GOAL_MPI_RECORD): these pass them to
   the C entry points instead. MPICH's calls the C MPI_* already, recorded there. (GF_COLL's
   goal__mpi_from_fortran counts collectives only: around these it counts nothing.) */
#if defined(OPEN_MPI)
#define GF_P2P_F (void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *peer, MPI_Fint *tag, MPI_Fint *comm)
#define GF_P2P_C (gf_buf(b), *n, GF_TYPE(t), *peer, *tag, GF_COMM)
GF_COLL(send, SEND, Send, B, GF_P2P_F, MPI_Send, GF_P2P_C)
GF_COLL(ssend, SSEND, Ssend, B, GF_P2P_F, MPI_Ssend, GF_P2P_C)
GF_COLL(bsend, BSEND, Bsend, B, GF_P2P_F, MPI_Bsend, GF_P2P_C)
GF_COLL(rsend, RSEND, Rsend, B, GF_P2P_F, MPI_Rsend, GF_P2P_C)
GF_COLL(isend, ISEND, Isend, N, GF_P2P_F, MPI_Isend, GF_P2P_C)
GF_COLL(issend, ISSEND, Issend, N, GF_P2P_F, MPI_Issend, GF_P2P_C)
GF_COLL(ibsend, IBSEND, Ibsend, N, GF_P2P_F, MPI_Ibsend, GF_P2P_C)
GF_COLL(irsend, IRSEND, Irsend, N, GF_P2P_F, MPI_Irsend, GF_P2P_C)
GF_COLL(irecv, IRECV, Irecv, N, GF_P2P_F, MPI_Irecv, GF_P2P_C)
GF_COLL(send_init, SEND_INIT, Send_init, N, GF_P2P_F, MPI_Send_init, GF_P2P_C)
GF_COLL(ssend_init, SSEND_INIT, Ssend_init, N, GF_P2P_F, MPI_Ssend_init, GF_P2P_C)
GF_COLL(bsend_init, BSEND_INIT, Bsend_init, N, GF_P2P_F, MPI_Bsend_init, GF_P2P_C)
GF_COLL(rsend_init, RSEND_INIT, Rsend_init, N, GF_P2P_F, MPI_Rsend_init, GF_P2P_C)
GF_COLL(recv_init, RECV_INIT, Recv_init, N, GF_P2P_F, MPI_Recv_init, GF_P2P_C)
/* A call that fills a status: Fortran's PARAMS, then status, ierr; ARGS end with the C status. */
#define GF_STATUS_CALL(low, UP, Mixed, PARAMS, CALL, ARGS)                   \
    static void gf_##low(GF_LIST PARAMS, MPI_Fint *fs, MPI_Fint *ierr) {     \
        gf_statuses k = gf_f77();                                            \
        MPI_Status st, *s = gf_status(&k, fs, &st);                          \
        gf_rc(ierr, CALL(GF_LIST ARGS));                                     \
        gf_status_back(&k, s, fs);                                           \
    }                                                                        \
    GF_SPELLINGS(low, UP, Mixed)
GF_STATUS_CALL(recv, RECV, Recv, GF_P2P_F, MPI_Recv, (gf_buf(b), *n, GF_TYPE(t), *peer, *tag, GF_COMM, s))
GF_STATUS_CALL(sendrecv, SENDRECV, Sendrecv,
               (void *sb, MPI_Fint *sn, MPI_Fint *sty, MPI_Fint *dest, MPI_Fint *stag, void *rb, MPI_Fint *rn,
                MPI_Fint *rt, MPI_Fint *src, MPI_Fint *rtag, MPI_Fint *comm),
               MPI_Sendrecv, (gf_buf(sb), *sn, GF_TYPE(sty), *dest, *stag, gf_buf(rb), *rn, GF_TYPE(rt), *src, *rtag, GF_COMM, s))
GF_STATUS_CALL(sendrecv_replace, SENDRECV_REPLACE, Sendrecv_replace,
               (void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *dest, MPI_Fint *stag, MPI_Fint *src, MPI_Fint *rtag, MPI_Fint *comm),
               MPI_Sendrecv_replace, (gf_buf(b), *n, GF_TYPE(t), *dest, *stag, *src, *rtag, GF_COMM, s))
GF_STATUS_CALL(probe, PROBE, Probe, (MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm), MPI_Probe, (*src, *tag, GF_COMM, s))
static void gf_iprobe(MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *fs, MPI_Fint *ierr) {
    gf_statuses k = gf_f77();
    MPI_Status st, *s = gf_status(&k, fs, &st);
    int found = 0;
    gf_rc(ierr, MPI_Iprobe(*src, *tag, GF_COMM, &found, s));
    *flag = found != 0;   /* gfortran's .true. */
    if (found) gf_status_back(&k, s, fs);
}
GF_SPELLINGS(iprobe, IPROBE, Iprobe)
GF_MPROBES(, gf_f77())
GF_SPELLINGS(mprobe, MPROBE, Mprobe)
GF_SPELLINGS(improbe, IMPROBE, Improbe)
static void gf_mrecv(void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *msg, MPI_Fint *fs, MPI_Fint *ierr) {
    gf_statuses k = gf_f77();
    MPI_Status st, *s = gf_status(&k, fs, &st);
    MPI_Message m = MPI_Message_f2c(*msg);
    gf_rc(ierr, MPI_Mrecv(gf_buf(b), *n, GF_TYPE(t), &m, s));
    *msg = MPI_Message_c2f(m);
    gf_status_back(&k, s, fs);
}
GF_SPELLINGS(mrecv, MRECV, Mrecv)
static void gf_imrecv(void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *msg, MPI_Fint *req, MPI_Fint *ierr) {
    MPI_Message m = MPI_Message_f2c(*msg);
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = MPI_Imrecv(gf_buf(b), *n, GF_TYPE(t), &m, &q);
    gf_rc(ierr, rc);
    *msg = MPI_Message_c2f(m);
    if (rc == MPI_SUCCESS) *req = MPI_Request_c2f(q);
}
GF_SPELLINGS(imrecv, IMRECV, Imrecv)
#endif

/* The mpi_f08 bindings' own entry points, where they do not come through the ones above. */
#define GF_F08(name, fn) __typeof__(fn) mpi_##name##_f08_ GF_ALIAS(fn);
#if defined(OPEN_MPI)
/* Open MPI's mpi_f08 module calls ompi_x_f, except for the calls with a LOGICAL argument,
   whose wrappers call pmpi_test_ and the like (nm -D libmpi_usempif08.so); its
   type(MPI_Status) is laid out like the integer status, its MPI_STATUS_IGNORE the same. */
GF_F08(test, gf_test) GF_F08(testall, gf_testall) GF_F08(testany, gf_testany) GF_F08(testsome, gf_testsome)
GF_F08(iprobe, gf_iprobe) GF_F08(improbe, gf_improbe)
#elif MPI_VERSION >= 4
/* MPICH's mpi_f08 module calls PMPI_* itself for these (nm -D libmpichfort.so: U PMPI_Wait,
   PMPI_Barrier...): without them a nonblocking collective started from mpi_f08 would never
   complete, its barriers and MPI_Finalize would bypass the drop-in. Its handles are the C
   integers, its statuses MPI_F08_status; ierror may be absent (NULL). */
static int gf_c2f08(const MPI_Status *c, MPI_Fint *f) { return MPI_Status_c2f08(c, (MPI_F08_status *)(void *)f); }
static gf_statuses gf_f08(void) {
    gf_statuses k;
    k.ignore = (const MPI_Fint *)(void *)MPI_F08_STATUS_IGNORE; k.ignore_all = (const MPI_Fint *)(void *)MPI_F08_STATUSES_IGNORE;
    k.ints = sizeof(MPI_F08_status) / sizeof(MPI_Fint); k.c2f = gf_c2f08;
    return k;
}
GF_COMPLETION(_f08, gf_f08())
GF_F08(wait, gf_wait_f08) GF_F08(test, gf_test_f08) GF_F08(waitall, gf_waitall_f08) GF_F08(testall, gf_testall_f08)
GF_F08(waitany, gf_waitany_f08) GF_F08(testany, gf_testany_f08) GF_F08(waitsome, gf_waitsome_f08)
GF_F08(testsome, gf_testsome_f08) GF_F08(start, gf_start) GF_F08(startall, gf_startall)
GF_F08(request_free, gf_request_free) GF_F08(finalize, gf_finalize) GF_F08(barrier, gf_barrier)
GF_F08(ibarrier, gf_ibarrier) GF_F08(barrier_init, gf_barrier_init)
GF_MPROBES(_f08, gf_f08())   /* its matched probes too (PMPI_Mprobe, PMPI_Improbe): MPI_Mrecv needs their message */
GF_F08(mprobe, gf_mprobe_f08) GF_F08(improbe, gf_improbe_f08)
#endif
