! test_fortran08.f90 - the drop-in under `use mpi_f08` (Open MPI's module calls the ompi_*_f
! entry points, MPICH's calls PMPI_ for its barriers, completion calls and MPI_Finalize, which
! mpi/goalmpi_fortran.c also defines): blocking and nonblocking reductions and barriers, each
! request completed by the next of the eight completion calls (ierror omitted, statuses given
! or ignored), results checked. Rank 0 prints "N passed, N failed" (failures over all ranks).
program test_fortran08
  use mpi_f08
  implicit none
  integer :: me, np, npass = 0, nfail = 0, turn = 0, round, i, sums(2)
  integer, asynchronous :: a(4)
  type(MPI_Request) :: req
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
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
