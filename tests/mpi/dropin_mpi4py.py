# mpi4py on numpy arrays under libgoalmpi: comm.allreduce, bcast, alltoall (pickled objects)
# and Allreduce, Bcast, Alltoall, Iallreduce (buffers), each checked against the values every
# rank can compute for itself. Prints "mpi4py: N checks ok" or "FAIL ..." lines (rank 0).
import sys
import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
me, p = comm.Get_rank(), comm.Get_size()
bad = []

def check(name, ok):
    if not ok:
        bad.append(name)

for n in (1, 7, 1000, 100000):
    x = np.arange(n, dtype=np.float64) * (me + 1)
    y = np.empty_like(x)
    comm.Allreduce(x, y, op=MPI.SUM)
    check("Allreduce %d" % n, np.array_equal(y, np.arange(n, dtype=np.float64) * (p * (p + 1) // 2)))
    z = np.empty_like(x)
    req = comm.Iallreduce(x, z, op=MPI.MAX)
    req.Wait()
    check("Iallreduce %d" % n, np.array_equal(z, np.arange(n, dtype=np.float64) * p))
    b = np.arange(n, dtype=np.int32) if me == 0 else np.zeros(n, dtype=np.int32)
    comm.Bcast(b, root=0)
    check("Bcast %d" % n, np.array_equal(b, np.arange(n, dtype=np.int32)))
    s = np.array([me * 1000 + j for j in range(p) for _ in range(3)], dtype=np.int64)
    r = np.empty_like(s)
    comm.Alltoall(s, r)
    check("Alltoall %d" % n, np.array_equal(r, np.array([j * 1000 + me for j in range(p) for _ in range(3)], dtype=np.int64)))
check("allreduce", comm.allreduce(me + 1) == p * (p + 1) // 2)
check("allreduce array", np.array_equal(comm.allreduce(np.ones(5) * me), np.ones(5) * (p * (p - 1) // 2)))
check("bcast", comm.bcast({"k": [1, 2, 3]} if me == 0 else None, root=0) == {"k": [1, 2, 3]})
check("alltoall", comm.alltoall([me * 10 + j for j in range(p)]) == [j * 10 + me for j in range(p)])
reqs = [comm.Iallreduce(np.full(10, float(me + k)), np.empty(10), op=MPI.SUM) for k in range(8)]
MPI.Request.Waitall(reqs)
allbad = comm.allgather(bad)
if me == 0:
    fails = [f for rank_bad in allbad for f in rank_bad]
    for f in fails:
        print("FAIL mpi4py:", f)
    print("mpi4py: %d failures" % len(fails) if fails else "mpi4py: all checks ok")
sys.exit(1 if bad else 0)
