! test_fortran.f90 - the drop-in's Fortran entry points (mpi/goalmpi_fortran.c), through `use mpi`:
! every intercepted collective, blocking and nonblocking, MPI_IN_PLACE where MPI allows it,
! each result checked against the values computed here; the nonblocking ones completed by each
! of MPI_Wait/Test/Waitall/Testall/Waitany/Testany/Waitsome/Testsome in turn (request handles,
! 1-based indices, statuses and MPI_STATUS(ES)_IGNORE converted back). Also MPI_Alltoallw,
! the neighbourhood collectives on a periodic ring, and (built with -DGOAL_MPI4, MPI 4
! libraries) persistent collectives with MPI_Start/Startall/Request_free. And point-to-point on
! a ring (pointtopoint below), whose messages tests/test_record.sh finds in a recording. Rank 0
! prints "N passed, N failed" (failures summed over the ranks); tests/test_mpi.sh runs it preloaded.
module checks
  use mpi
  implicit none
  integer :: me, np, npass = 0, nfail = 0, turn = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) then
      npass = npass + 1
    else
      nfail = nfail + 1
      print '(a,a,a,i0)', 'FAIL ', what, ' on rank ', me
    end if
  end subroutine
  ! Rank r's element i (1-based), distinct everywhere.
  integer function v(r, i)
    integer, intent(in) :: r, i
    v = 1000 * r + i
  end function
  ! Completes req, each time with the next completion call; checks the handle comes back null.
  subroutine complete(req, what)
    integer, intent(inout) :: req
    character(*), intent(in) :: what
    integer :: reqs(2), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), idx, n, idxs(2), ierr
    logical :: flag
    reqs = [MPI_REQUEST_NULL, req]
    idx = -1; n = -1; ierr = -1
    select case (mod(turn, 10))
    case (0); call MPI_Wait(req, st, ierr)
    case (1); call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    case (2)
      flag = .false.
      do while (.not. flag); call MPI_Test(req, flag, st, ierr); end do
    case (3); call MPI_Waitall(2, reqs, sts, ierr); req = reqs(2)
    case (4); call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr); req = reqs(2)
    case (5)
      flag = .false.
      do while (.not. flag); call MPI_Testall(2, reqs, flag, sts, ierr); end do
      req = reqs(2)
    case (6); call MPI_Waitany(2, reqs, idx, st, ierr); req = reqs(2)
      call check(idx == 2, what // ' waitany index')
    case (7)
      flag = .false.
      do while (.not. flag); call MPI_Testany(2, reqs, idx, flag, MPI_STATUS_IGNORE, ierr); end do
      req = reqs(2)
      call check(idx == 2, what // ' testany index')
    case (8); call MPI_Waitsome(2, reqs, n, idxs, sts, ierr); req = reqs(2)
      call check(n == 1 .and. idxs(1) == 2, what // ' waitsome indices')
    case default
      n = 0
      do while (n == 0); call MPI_Testsome(2, reqs, n, idxs, MPI_STATUSES_IGNORE, ierr); end do
      req = reqs(2)
      call check(n == 1 .and. idxs(1) == 2, what // ' testsome indices')
    end select
    turn = turn + 1
    call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, what // ' completion')
  end subroutine
end module checks

program test_fortran
  use checks
  implicit none
  integer :: ierr, nb, ring, sums(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  ! periodic from 3 ranks on (at 1 and 2 a rank would be both neighbours of another)
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [np], [np >= 3], .false., ring, ierr)
  call pointtopoint()
  do nb = 0, 1   ! blocking, then nonblocking
    call reductions(nb == 1)
    call movement(nb == 1)
    call vectors(nb == 1)
    call neighbours(nb == 1)
  end do
#ifdef GOAL_MPI4
  call persistent()
#endif
  call MPI_Allreduce([npass, nfail], sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me == 0) print '(i0,a,i0,a)', npass, ' passed, ', sums(2), ' failed'
  call MPI_Comm_free(ring, ierr)
  call MPI_Finalize(ierr)
contains
  subroutine done(nb, req, ierr, what)
    logical, intent(in) :: nb
    integer, intent(inout) :: req
    integer, intent(in) :: ierr
    character(*), intent(in) :: what
    call check(ierr == MPI_SUCCESS, what // ' ierror')
    if (nb) call complete(req, what)
  end subroutine

  ! Point-to-point on a ring, one call a step: at step k (tag k) each rank sends 1000 + k
  ! integers to the right and receives them from the left (4000 + 4k bytes each way, larger
  ! than any collective's message here: tests/test_record.sh looks for them). The calls:
  ! 1-4 Send, Ssend, Bsend, Rsend into an MPI_Irecv; 5-8 Isend, Issend, Ibsend, Irsend, received
  ! by MPI_Recv (a status, the wildcards, MPI_STATUS_IGNORE; an Irecv for the Irsend);
  ! 9 Sendrecv, 10 Sendrecv_replace, 11 Probe and 12 Iprobe each before an MPI_Recv. Data,
  ! sources, tags and counts checked; every request completed by `complete`. Then errors
  ! (MPI_ERRORS_RETURN, a rank outside the communicator) come back through ierror.
  subroutine pointtopoint()
    integer, parameter :: m = 1000, steps = 12
    integer :: s(m + steps), r(m + steps), st(MPI_STATUS_SIZE), bb(2 * (m + steps + MPI_BSEND_OVERHEAD))
    integer :: req, sreq, ierr, right, left, k, n, i, got, bsize, c, cls
    logical :: flag
    right = mod(me + 1, np)
    left = mod(me + np - 1, np)
    call MPI_Buffer_attach(bb, 4 * size(bb), ierr)
    do k = 1, steps
      n = m + k
      s = [(v(me, i) + k, i = 1, m + steps)]
      r = -1
      st = -1
      req = MPI_REQUEST_NULL
      sreq = MPI_REQUEST_NULL
      if (k <= 4 .or. k == 8) then
        call MPI_Irecv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, req, ierr)
        call MPI_Barrier(MPI_COMM_WORLD, ierr)   ! the ready sends need it posted
      end if
      select case (k)
      case (1); call MPI_Send(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (2); call MPI_Ssend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (3); call MPI_Bsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (4); call MPI_Rsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (5, 11, 12); call MPI_Isend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (6); call MPI_Issend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (7); call MPI_Ibsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (8); call MPI_Irsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (9); call MPI_Sendrecv(s, n, MPI_INTEGER, right, k, r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, st, ierr)
      case (10)
        r(1:n) = s(1:n)
        call MPI_Sendrecv_replace(r, n, MPI_INTEGER, right, k, left, k, MPI_COMM_WORLD, st, ierr)
      end select
      call check(ierr == MPI_SUCCESS, 'point-to-point send ierror')
      select case (k)
      case (5); call MPI_Recv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, st, ierr)
      case (6); call MPI_Recv(r, n, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
      case (7); call MPI_Recv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      case (11); call MPI_Probe(MPI_ANY_SOURCE, k, MPI_COMM_WORLD, st, ierr)
      case (12)
        flag = .false.
        do while (.not. flag); call MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, flag, st, ierr); end do
      end select
      call check(ierr == MPI_SUCCESS, 'point-to-point receive ierror')
      if (k >= 11) then   ! the probed message: its count, then received
        call MPI_Get_count(st, MPI_INTEGER, got, ierr)
        call check(got == n, 'probe count')
        call MPI_Recv(r, got, MPI_INTEGER, st(MPI_SOURCE), st(MPI_TAG), MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      end if
      if (req /= MPI_REQUEST_NULL) call complete(req, 'point-to-point receive')
      if (sreq /= MPI_REQUEST_NULL) call complete(sreq, 'point-to-point send')
      if (k >= 5 .and. k /= 7 .and. k /= 8) then
        call MPI_Get_count(st, MPI_INTEGER, got, ierr)
        call check(st(MPI_SOURCE) == left .and. st(MPI_TAG) == k .and. got == n, 'point-to-point status')
      end if
      call check(all(r(1:n) == [(v(left, i) + k, i = 1, n)]) .and. all(r(n + 1:) == -1), 'point-to-point data')
    end do
    call MPI_Buffer_detach(bb, bsize, ierr)
    call check(ierr == MPI_SUCCESS .and. bsize == 4 * size(bb), 'buffer detach')
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN, ierr)
    call MPI_Send(s, 1, MPI_INTEGER, np, 0, c, ierr)
    call MPI_Error_class(ierr, cls, i)
    call check(cls == MPI_ERR_RANK, 'send to no rank: MPI_ERR_RANK')
    req = MPI_REQUEST_NULL
    call MPI_Isend(s, 1, MPI_INTEGER, np, 0, c, req, ierr)
    call MPI_Error_class(ierr, cls, i)
    call check(cls == MPI_ERR_RANK .and. req == MPI_REQUEST_NULL, 'isend to no rank: MPI_ERR_RANK')
    call MPI_Recv(r, 1, MPI_INTEGER, np, 0, c, st, ierr)
    call MPI_Error_class(ierr, cls, i)
    call check(cls == MPI_ERR_RANK, 'receive from no rank: MPI_ERR_RANK')
    call MPI_Comm_free(c, ierr)
  end subroutine

  ! bcast, reduce, allreduce, scan, exscan, reduce_scatter(_block), barrier; in place too.
  subroutine reductions(nb)
    logical, intent(in) :: nb
    integer, parameter :: n = 5
    integer :: b(n), s(n), r(n), want(n), i, i2, k, req, ierr, root, rs(2 * np), rcounts(np), big(np * (np + 1) / 2)
    real(8) :: d(n)
    root = np - 1
    b = 0
    if (me == root) b = [(7 * i + root, i = 1, n)]
    if (nb) then; call MPI_Ibcast(b, n, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
    else; call MPI_Bcast(b, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
    call done(nb, req, ierr, 'bcast')
    call check(all(b == [(7 * i + root, i = 1, n)]), 'bcast')
    s = [(v(me, i), i = 1, n)]
    want = [(sum([(v(i2, i), i2 = 0, np - 1)]), i = 1, n)]
    do k = 0, 1   ! k = 1: MPI_IN_PLACE
      r = -1
      if (k == 1) r = s
      if (nb .and. k == 0) call MPI_Iallreduce(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      if (nb .and. k == 1) call MPI_Iallreduce(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      if (.not. nb .and. k == 0) call MPI_Allreduce(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
      if (.not. nb .and. k == 1) call MPI_Allreduce(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
      call done(nb, req, ierr, 'allreduce')
      call check(all(r == want), 'allreduce')
      r = -1
      if (k == 1 .and. me == 0) r = s
      if (k == 1 .and. me == 0) then
        if (nb) then; call MPI_Ireduce(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Ireduce(s, r, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce(s, r, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'reduce')
      if (me == 0) call check(all(r == want), 'reduce')
      r = -1
      if (k == 1) r = s
      if (k == 1) then
        if (nb) then; call MPI_Iscan(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scan(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Iscan(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scan(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'scan')
      call check(all(r == [(sum([(v(i2, i), i2 = 0, me)]), i = 1, n)]), 'scan')
      r = -1
      if (k == 1) r = s
      if (k == 1) then
        if (nb) then; call MPI_Iexscan(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Exscan(MPI_IN_PLACE, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Iexscan(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Exscan(s, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'exscan')
      if (me > 0) call check(all(r == [(sum([(v(i2, i), i2 = 0, me - 1)]), i = 1, n)]), 'exscan')
      ! reduce_scatter_block: 2 per rank
      rs = [(v(me, i), i = 1, 2 * np)]
      r = -1
      if (k == 1) then
        if (nb) then; call MPI_Ireduce_scatter_block(MPI_IN_PLACE, rs, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce_scatter_block(MPI_IN_PLACE, rs, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Ireduce_scatter_block(rs, r, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce_scatter_block(rs, r, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'reduce_scatter_block')
      if (k == 1) r(1:2) = rs(1:2)
      call check(all(r(1:2) == [(sum([(v(i2, 2 * me + i), i2 = 0, np - 1)]), i = 1, 2)]), 'reduce_scatter_block')
      ! reduce_scatter: rank j gets j + 1 elements
      rcounts = [(i, i = 1, np)]
      big = [(v(me, i), i = 1, size(big))]
      rs = -1
      if (k == 1) then
        if (nb) then; call MPI_Ireduce_scatter(MPI_IN_PLACE, big, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce_scatter(MPI_IN_PLACE, big, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Ireduce_scatter(big, rs, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Reduce_scatter(big, rs, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'reduce_scatter')
      if (k == 1) rs(1:me + 1) = big(1:me + 1)
      call check(all(rs(1:me + 1) == [(np * (me * (me + 1) / 2 + i) + 1000 * np * (np - 1) / 2, i = 1, me + 1)]), &
                 'reduce_scatter')
    end do
    d = [(me + 0.5d0 * i, i = 1, n)]   ! a max on doubles
    if (nb) then; call MPI_Iallreduce(MPI_IN_PLACE, d, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, req, ierr)
    else; call MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr); end if
    call done(nb, req, ierr, 'allreduce max')
    call check(all(d == [(np - 1 + 0.5d0 * i, i = 1, n)]), 'allreduce max')
    if (nb) then; call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr)
    else; call MPI_Barrier(MPI_COMM_WORLD, ierr); end if
    call done(nb, req, ierr, 'barrier')
  end subroutine

  ! gather, scatter, allgather, alltoall (3 per block); in place too.
  subroutine movement(nb)
    logical, intent(in) :: nb
    integer, parameter :: m = 3
    integer :: s(m * np), r(m * np), want(m * np), i, k, j, req, ierr, root
    root = mod(1, np)
    want = [((v(j, i), i = 1, m), j = 0, np - 1)]   ! rank j's block at j
    s(1:m) = [(v(me, i), i = 1, m)]
    do k = 0, 1
      r = -1
      if (k == 1 .and. me == root) then
        r(m * me + 1:m * me + m) = s(1:m)
        if (nb) then; call MPI_Igather(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Gather(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Igather(s, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Gather(s, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'gather')
      if (me == root) call check(all(r == want), 'gather')
      r = -1
      if (k == 1 .and. me == root) then
        r = want
        if (nb) then; call MPI_Iscatter(r, m, MPI_INTEGER, MPI_IN_PLACE, m, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scatter(r, m, MPI_INTEGER, MPI_IN_PLACE, m, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
        call done(nb, req, ierr, 'scatter')
        call check(all(r == want), 'scatter in place')
      else
        if (nb) then; call MPI_Iscatter(want, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scatter(want, m, MPI_INTEGER, r, m, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
        call done(nb, req, ierr, 'scatter')
        call check(all(r(1:m) == s(1:m)), 'scatter')
      end if
      r = -1
      if (k == 1) then
        r(m * me + 1:m * me + m) = s(1:m)
        if (nb) then; call MPI_Iallgather(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Allgather(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Iallgather(s, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Allgather(s, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'allgather')
      call check(all(r == want), 'allgather')
      ! alltoall: block j of rank me holds 100 * me + j; received block j is 100 * j + me
      s = [((100 * me + j + i * 10000, i = 1, m), j = 0, np - 1)]
      r = -1
      if (k == 1) then
        r = s
        if (nb) then; call MPI_Ialltoall(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Alltoall(MPI_IN_PLACE, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Ialltoall(s, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Alltoall(s, m, MPI_INTEGER, r, m, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'alltoall')
      call check(all(r == [((100 * j + me + i * 10000, i = 1, m), j = 0, np - 1)]), 'alltoall')
      s(1:m) = [(v(me, i), i = 1, m)]
    end do
  end subroutine

  ! gatherv, scatterv, allgatherv (rank j: j + 1 elements, one gap after each block),
  ! alltoallv and alltoallw (rank j sends j + 1 elements to everyone); in place where MPI allows.
  subroutine vectors(nb)
    logical, intent(in) :: nb
    integer :: cnt(np), dsp(np), s(np + 1), r(2 * np * (np + 2)), want(2 * np * (np + 2)), i, j, k, req, ierr, root
    integer :: sc(np), sd(np), rc(np), rd(np), types(np), tot
    root = np - 1
    cnt = [(j + 1, j = 0, np - 1)]
    dsp = [(j * (j + 1) / 2 + j, j = 0, np - 1)]   ! gaps of one
    want = -1
    do j = 0, np - 1
      want(dsp(j + 1) + 1:dsp(j + 1) + cnt(j + 1)) = [(v(j, i), i = 1, j + 1)]
    end do
    s = 0
    s(1:me + 1) = [(v(me, i), i = 1, me + 1)]
    do k = 0, 1
      r = -1
      if (k == 1 .and. me == root) r = want
      if (k == 1 .and. me == root) then
        if (nb) then; call MPI_Igatherv(MPI_IN_PLACE, 0, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Igatherv(s, me + 1, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Gatherv(s, me + 1, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'gatherv')
      if (me == root) call check(all(r == want), 'gatherv')
      r = -1
      if (k == 1 .and. me == root) then
        r = want
        if (nb) then; call MPI_Iscatterv(r, cnt, dsp, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scatterv(r, cnt, dsp, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
        call done(nb, req, ierr, 'scatterv')
        call check(all(r == want), 'scatterv in place')
      else
        if (nb) then; call MPI_Iscatterv(want, cnt, dsp, MPI_INTEGER, r, me + 1, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Scatterv(want, cnt, dsp, MPI_INTEGER, r, me + 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr); end if
        call done(nb, req, ierr, 'scatterv')
        call check(all(r(1:me + 1) == s(1:me + 1)) .and. r(me + 2) == -1, 'scatterv')
      end if
      r = -1
      if (k == 1) then
        r(dsp(me + 1) + 1:dsp(me + 1) + me + 1) = s(1:me + 1)
        if (nb) then; call MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      else
        if (nb) then; call MPI_Iallgatherv(s, me + 1, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        else; call MPI_Allgatherv(s, me + 1, MPI_INTEGER, r, cnt, dsp, MPI_INTEGER, MPI_COMM_WORLD, ierr); end if
      end if
      call done(nb, req, ierr, 'allgatherv')
      call check(all(r == want), 'allgatherv')
    end do
    ! alltoallv / alltoallw: rank me sends me + 1 copies of 100 * me + j to rank j, receives
    ! j + 1 copies of 100 * j + me from rank j at dsp(j + 1) (gaps stay -1)
    tot = (me + 1) * np
    sc = me + 1
    sd = [(j * (me + 1), j = 0, np - 1)]
    s = 0
    want = -1
    do j = 0, np - 1
      want(dsp(j + 1) + 1:dsp(j + 1) + j + 1) = 100 * j + me
    end do
    types = MPI_INTEGER
    rc = cnt
    rd = dsp
    do k = 0, 1
      block
        integer :: sb(tot)
        sb = [((100 * me + j, i = 1, me + 1), j = 0, np - 1)]
        r = -1
        if (k == 0 .and. nb) call MPI_Ialltoallv(sb, sc, sd, MPI_INTEGER, r, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
        if (k == 0 .and. .not. nb) call MPI_Alltoallv(sb, sc, sd, MPI_INTEGER, r, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
        if (k == 1) then   ! alltoallw: displacements in bytes
          if (nb) then; call MPI_Ialltoallw(sb, sc, 4 * sd, types, r, rc, 4 * rd, types, MPI_COMM_WORLD, req, ierr)
          else; call MPI_Alltoallw(sb, sc, 4 * sd, types, r, rc, 4 * rd, types, MPI_COMM_WORLD, ierr); end if
        end if
        call done(nb, req, ierr, merge('alltoallw', 'alltoallv', k == 1))
        call check(all(r == want), merge('alltoallw', 'alltoallv', k == 1))
      end block
    end do
  end subroutine

  ! The neighbourhood collectives on the ring: neighbours left, right (MPI_Cart_shift's order;
  ! MPI_PROC_NULL at the ends of a non-periodic one, whose blocks stay -1).
  subroutine neighbours(nb)
    logical, intent(in) :: nb
    integer :: left, right, s(4), r(4), want(4), req, ierr, types(2)
    integer(kind=MPI_ADDRESS_KIND) :: adsp(2)
    call MPI_Cart_shift(ring, 0, 1, left, right, ierr)
    s = [v(me, 1), v(me, 2), -5, -5]
    r = -1
    if (nb) then; call MPI_Ineighbor_allgather(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, ring, req, ierr)
    else; call MPI_Neighbor_allgather(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, ring, ierr); end if
    call done(nb, req, ierr, 'neighbor_allgather')
    call check(all(r == [at(left, v(left, 1)), at(right, v(right, 1)), -1, -1]), 'neighbor_allgather')
    r = -1
    if (nb) then; call MPI_Ineighbor_allgatherv(s, 2, MPI_INTEGER, r, [2, 2], [2, 0], MPI_INTEGER, ring, req, ierr)
    else; call MPI_Neighbor_allgatherv(s, 2, MPI_INTEGER, r, [2, 2], [2, 0], MPI_INTEGER, ring, ierr); end if
    call done(nb, req, ierr, 'neighbor_allgatherv')
    call check(all(r == [at(right, v(right, 1)), at(right, v(right, 2)), at(left, v(left, 1)), at(left, v(left, 2))]), &
               'neighbor_allgatherv')
    ! alltoall: block 1 goes left, block 2 right; so the block from the left is its block 2
    s = [10 * me + 1, 10 * me + 2, -5, -5]
    r = -1
    if (nb) then; call MPI_Ineighbor_alltoall(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, ring, req, ierr)
    else; call MPI_Neighbor_alltoall(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, ring, ierr); end if
    call done(nb, req, ierr, 'neighbor_alltoall')
    call check(all(r == [at(left, 10 * left + 2), at(right, 10 * right + 1), -1, -1]), 'neighbor_alltoall')
    ! alltoallv: 1 element left (s(1)), 2 right (s(2:3)); from the left 2 (its s(2:3)) at 0,
    ! from the right 1 at 3
    s = [10 * me + 1, 10 * me + 2, 10 * me + 3, -5]
    want = [at(left, 10 * left + 2), at(left, 10 * left + 3), -1, at(right, 10 * right + 1)]
    r = -1
    if (nb) then
      call MPI_Ineighbor_alltoallv(s, [1, 2], [0, 1], MPI_INTEGER, r, [2, 1], [0, 3], MPI_INTEGER, ring, req, ierr)
    else
      call MPI_Neighbor_alltoallv(s, [1, 2], [0, 1], MPI_INTEGER, r, [2, 1], [0, 3], MPI_INTEGER, ring, ierr)
    end if
    call done(nb, req, ierr, 'neighbor_alltoallv')
    call check(all(r == want), 'neighbor_alltoallv')
    types = MPI_INTEGER   ! the same as alltoallv, displacements in bytes
    adsp = [0_MPI_ADDRESS_KIND, 12_MPI_ADDRESS_KIND]
    r = -1
    if (nb) then
      call MPI_Ineighbor_alltoallw(s, [1, 2], [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND], types, r, [2, 1], adsp, types, &
                                   ring, req, ierr)
    else
      call MPI_Neighbor_alltoallw(s, [1, 2], [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND], types, r, [2, 1], adsp, types, &
                                  ring, ierr)
    end if
    call done(nb, req, ierr, 'neighbor_alltoallw')
    call check(all(r == want), 'neighbor_alltoallw')
  end subroutine
  ! x, or -1 (untouched) when peer is MPI_PROC_NULL.
  integer function at(peer, x)
    integer, intent(in) :: peer, x
    at = merge(-1, x, peer == MPI_PROC_NULL)
  end function

#ifdef GOAL_MPI4
  ! Persistent collectives (MPI 4): each started twice, then freed.
  subroutine persistent()
    integer :: b(3), s(3), r(3), reqs(2), ierr, i, i2, round
    call MPI_Bcast_init(b, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(1), ierr)
    call MPI_Allreduce_init(s, r, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(2), ierr)
    call check(ierr == MPI_SUCCESS, 'persistent init')
    do round = 1, 2
      b = -1
      if (me == 0) b = [(round * 10 + i, i = 1, 3)]
      s = [(v(me, i) * round, i = 1, 3)]
      r = -1
      if (round == 1) then
        call MPI_Start(reqs(1), ierr)
        call MPI_Start(reqs(2), ierr)
      else
        call MPI_Startall(2, reqs, ierr)
      end if
      call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
      call check(all(b == [(round * 10 + i, i = 1, 3)]), 'bcast_init')
      call check(all(r == [(round * sum([(v(i2, i), i2 = 0, np - 1)]), i = 1, 3)]), 'allreduce_init')
      call check(reqs(1) /= MPI_REQUEST_NULL .and. reqs(2) /= MPI_REQUEST_NULL, 'persistent requests stay')
    end do
    call MPI_Request_free(reqs(1), ierr)
    call MPI_Request_free(reqs(2), ierr)
    call check(ierr == MPI_SUCCESS .and. all(reqs == MPI_REQUEST_NULL), 'request_free')
  end subroutine
#endif
end program
