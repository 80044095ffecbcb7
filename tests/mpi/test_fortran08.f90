! test_fortran08.f90 - the drop-in under `use mpi_f08` (Open MPI's module calls the ompi_*_f
! entry points, MPICH's calls PMPI_ for its barriers, completion calls and MPI_Finalize, which
! mpi/goalmpi_fortran.c also defines): blocking and nonblocking reductions and barriers, each
! request completed by the next of the eight completion calls (ierror omitted, statuses given
! or ignored), results checked; and the point-to-point calls on a ring, as test_fortran.f90's
! pointtopoint (the same messages: tests/test_record.sh looks for them in a recording). Rank 0
! prints "N passed, N failed" (failures over all ranks).
program test_fortran08
  use mpi_f08
  implicit none
  integer :: me, np, npass = 0, nfail = 0, turn = 0, round, i, sums(2)
  integer, asynchronous :: a(4)
  type(MPI_Request) :: req
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call pointtopoint()
  do round = 1, 10
    a = [(me * round + i, i = 1, 4)]
    call MPI_Iallreduce(MPI_IN_PLACE, a, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req)
    call complete(req)
    call check(all(a == [(round * np * (np - 1) / 2 + np * i, i = 1, 4)]), 'iallreduce')
    a = -1
    if (me == 0) a = [(round + i, i = 1, 4)]
    call MPI_Ibcast(a, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, req)
    call complete(req)
    call check(all(a == [(round + i, i = 1, 4)]), 'ibcast')
    call MPI_Ibarrier(MPI_COMM_WORLD, req)
    call complete(req)
    call MPI_Barrier(MPI_COMM_WORLD)
    a = [(me + i, i = 1, 4)]
    call MPI_Allreduce(MPI_IN_PLACE, a, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    call check(all(a == [(np - 1 + i, i = 1, 4)]), 'allreduce')
  end do
  call MPI_Allreduce([npass, nfail], sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (me == 0) print '(i0,a,i0,a)', npass, ' passed, ', sums(2), ' failed'
  call MPI_Finalize()
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
  ! test_fortran.f90's pointtopoint, through mpi_f08 (ierror omitted in some calls).
  subroutine pointtopoint()
    use, intrinsic :: iso_c_binding, only: c_ptr
    integer, parameter :: m = 1000, steps = 12
    integer, asynchronous :: s(m + steps), r(m + steps), bb(2 * (m + steps + MPI_BSEND_OVERHEAD))
    integer :: ierr, right, left, k, n, i, got, bsize, cls
    type(MPI_Comm) :: c
    type(MPI_Status) :: st
    type(MPI_Request) :: req, sreq
    type(c_ptr) :: baddr
    logical :: flag
    right = mod(me + 1, np)
    left = mod(me + np - 1, np)
    call MPI_Buffer_attach(bb, 4 * size(bb))
    do k = 1, steps
      n = m + k
      s = [(1000 * me + i + k, i = 1, m + steps)]
      r = -1
      st%MPI_SOURCE = -1
      req = MPI_REQUEST_NULL
      sreq = MPI_REQUEST_NULL
      ierr = MPI_SUCCESS
      if (k <= 4 .or. k == 8) then
        call MPI_Irecv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, req)
        call MPI_Barrier(MPI_COMM_WORLD)   ! the ready sends need it posted
      end if
      select case (k)
      case (1); call MPI_Send(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD)
      case (2); call MPI_Ssend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (3); call MPI_Bsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD)
      case (4); call MPI_Rsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, ierr)
      case (5, 11); call MPI_Isend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq)
      case (12); call MPI_Isend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (6); call MPI_Issend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (7); call MPI_Ibsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq)
      case (8); call MPI_Irsend(s, n, MPI_INTEGER, right, k, MPI_COMM_WORLD, sreq, ierr)
      case (9); call MPI_Sendrecv(s, n, MPI_INTEGER, right, k, r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, st)
      case (10)
        r(1:n) = s(1:n)
        call MPI_Sendrecv_replace(r, n, MPI_INTEGER, right, k, left, k, MPI_COMM_WORLD, st, ierr)
      end select
      call check(ierr == MPI_SUCCESS, 'point-to-point send ierror')
      select case (k)
      case (5); call MPI_Recv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, st, ierr)
      case (6); call MPI_Recv(r, n, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st)
      case (7); call MPI_Recv(r, n, MPI_INTEGER, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      case (11); call MPI_Probe(MPI_ANY_SOURCE, k, MPI_COMM_WORLD, st, ierr)
      case (12)
        flag = .false.
        do while (.not. flag); call MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, flag, st, ierr); end do
      end select
      call check(ierr == MPI_SUCCESS, 'point-to-point receive ierror')
      if (k >= 11) then   ! the probed message: its count, then received
        call MPI_Get_count(st, MPI_INTEGER, got)
        call check(got == n, 'probe count')
        call MPI_Recv(r, got, MPI_INTEGER, st%MPI_SOURCE, st%MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      end if
      if (req /= MPI_REQUEST_NULL) call complete(req)
      if (sreq /= MPI_REQUEST_NULL) call complete(sreq)
      if (k >= 5 .and. k /= 7 .and. k /= 8) then
        call MPI_Get_count(st, MPI_INTEGER, got)
        call check(st%MPI_SOURCE == left .and. st%MPI_TAG == k .and. got == n, 'point-to-point status')
      end if
      call check(all(r(1:n) == [(1000 * left + i + k, i = 1, n)]) .and. all(r(n + 1:) == -1), 'point-to-point data')
    end do
    call MPI_Buffer_detach(baddr, bsize, ierr)
    call check(ierr == MPI_SUCCESS .and. bsize == 4 * size(bb), 'buffer detach')
    call MPI_Comm_dup(MPI_COMM_WORLD, c)
    call MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN)
    call MPI_Send(s, 1, MPI_INTEGER, np, 0, c, ierr)
    call MPI_Error_class(ierr, cls)
    call check(cls == MPI_ERR_RANK, 'send to no rank: MPI_ERR_RANK')
    call MPI_Comm_free(c)
  end subroutine
  subroutine complete(req)
    type(MPI_Request), intent(inout) :: req
    type(MPI_Request) :: reqs(2)
    type(MPI_Status) :: st, sts(2)
    integer :: idx, n, idxs(2), ierr
    logical :: flag
    reqs = [MPI_REQUEST_NULL, req]
    idx = -1; n = -1; ierr = MPI_SUCCESS; flag = .false.
    select case (mod(turn, 8))
    case (0); call MPI_Wait(req, st, ierr)
    case (1)
      do while (.not. flag); call MPI_Test(req, flag, MPI_STATUS_IGNORE); end do
    case (2); call MPI_Waitall(2, reqs, sts); req = reqs(2)
    case (3)
      do while (.not. flag); call MPI_Testall(2, reqs, flag, MPI_STATUSES_IGNORE, ierr); end do
      req = reqs(2)
    case (4); call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE); req = reqs(2)
      call check(idx == 2, 'waitany index')
    case (5)
      do while (.not. flag); call MPI_Testany(2, reqs, idx, flag, st); end do
      req = reqs(2)
      call check(idx == 2, 'testany index')
    case (6); call MPI_Waitsome(2, reqs, n, idxs, sts, ierr); req = reqs(2)
      call check(n == 1 .and. idxs(1) == 2, 'waitsome indices')
    case default
      n = 0
      do while (n == 0); call MPI_Testsome(2, reqs, n, idxs, MPI_STATUSES_IGNORE); end do
      req = reqs(2)
      call check(n == 1 .and. idxs(1) == 2, 'testsome indices')
    end select
    turn = turn + 1
    call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'completion')
  end subroutine
end program
