! test_record_p2p.f90 - tests/mpi/test_record_p2p.c's rings from Fortran (`use mpi`), for
! GOAL_MPI_RECORD through the drop-in's Fortran entry points: a persistent ring (MPI_Send_init /
! MPI_Recv_init, 800 integers, started 4 times by MPI_Startall + MPI_Waitall), a ring by
! MPI_Mprobe + MPI_Mrecv (3300 + rank bytes) and one by MPI_Improbe + MPI_Imrecv (3400 + rank
! bytes), both from MPI_ANY_SOURCE. Rank 0 prints "N passed, N failed" (the received sizes and
! sources, summed over the ranks); tests/test_record.sh checks the recording. Built with -cpp;
! -DGOAL_F08: through `use mpi_f08` (under MPICH its matched probes call PMPI_* and reach the
! drop-in's mpi_f08 entry points).
#ifdef GOAL_F08
#define SOURCE(s) s%MPI_SOURCE
#define STATUS(s, i) s(i)
#define SOURCES(s, i) s(i)%MPI_SOURCE
#else
#define SOURCE(s) s(MPI_SOURCE)
#define STATUS(s, i) s(:, i)
#define SOURCES(s, i) s(MPI_SOURCE, i)
#endif
program test_record_p2p
#ifdef GOAL_F08
  use mpi_f08
  implicit none
  type(MPI_Request) :: q(2), r, sq
  type(MPI_Message) :: msg
  type(MPI_Status) :: st, sts(2)
#else
  use mpi
  implicit none
  integer :: q(2), r, sq, msg, st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
#endif
  integer :: me, np, next, prev, ierr, k, bytes, npass = 0, nfail = 0, counts(2), total(2)
  integer :: sbuf(2048), rbuf(2048)
  logical :: flag
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  next = mod(me + 1, np); prev = mod(me + np - 1, np)
  sbuf = me
  call MPI_Recv_init(rbuf, 2048, MPI_INTEGER, prev, 10, MPI_COMM_WORLD, q(1), ierr)
  call MPI_Send_init(sbuf, 800, MPI_INTEGER, next, 10, MPI_COMM_WORLD, q(2), ierr)
  do k = 1, 4
    call MPI_Startall(2, q, ierr)
    call MPI_Waitall(2, q, sts, ierr)
    call MPI_Get_count(STATUS(sts, 1), MPI_BYTE, bytes, ierr)
    call tally(bytes == 3200 .and. SOURCES(sts, 1) == prev)
  end do
  call MPI_Request_free(q(1), ierr)
  call MPI_Request_free(q(2), ierr)
  call MPI_Isend(sbuf, 3300 + me, MPI_BYTE, next, 20, MPI_COMM_WORLD, sq, ierr)
  call MPI_Mprobe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Get_count(st, MPI_BYTE, bytes, ierr)
  call MPI_Mrecv(rbuf, bytes, MPI_BYTE, msg, st, ierr)
  call tally(bytes == 3300 + prev .and. SOURCE(st) == prev .and. msg == MPI_MESSAGE_NULL)
  call MPI_Wait(sq, MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(sbuf, 3400 + me, MPI_BYTE, next, 21, MPI_COMM_WORLD, sq, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Improbe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, flag, msg, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Imrecv(rbuf, 2048 * 4, MPI_BYTE, msg, r, ierr)
  call MPI_Wait(r, st, ierr)
  call MPI_Get_count(st, MPI_BYTE, bytes, ierr)
  call tally(bytes == 3400 + prev .and. SOURCE(st) == prev)
  call MPI_Wait(sq, MPI_STATUS_IGNORE, ierr)
  counts = [npass, nfail]
  call MPI_Reduce(counts, total, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) print '(i0,a,i0,a)', total(1), ' passed, ', total(2), ' failed'
  call MPI_Finalize(ierr)
contains
  subroutine tally(ok)
    logical, intent(in) :: ok
    if (ok) then
      npass = npass + 1
    else
      nfail = nfail + 1
    end if
  end subroutine
end program
