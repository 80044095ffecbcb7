/* probe.h - the measurement and fitting logic of goal-probe (mpi/goal_probe.c), apart
   from MPI so that it runs in tests over a transport with known parameters (tests/test_probe.c).

   Methods (Netgauge; Hoefler, Schneider, Lumsdaine, "LogGP in theory and practice", 2009),
   in the LogGOPS terms of goal_sim.h (tests/data/loggopsim/MODEL.md), per size s = 1, 2, 4 ..
   max_size bytes:
     ping-pong      RTT(s)/2 = L + 2o + (s-1)·max(O,G)          -> L (intercept minus 2o)
     send overhead  the send call alone, the peer receiving D ns later: o + (s-1)·O while
                    eager; about D when the send waits for its receiver (rendezvous)
     recv overhead  the receive call alone, D ns after the message was sent: o + (s-1)·max(O,G)
     burst          n sends back to back, then a reply: the time per extra message is the
                    gap g + (s-1)·G (when g >= o, as on real networks)
     S              the largest size that travels without a handshake. Where one shows
                    (the first size whose send waits for its late receiver and whose round
                    trip is over PROBE_HANDSHAKE (3) times the size's before), the size
                    before it, bisected to the byte up to it: a size is below when its send
                    returns before its receiver arrives or, as an acknowledged send's (A,
                    below) waits too, its round trip stays under 3 times that size's. Where
                    none shows (a rendezvous without a handshake, LogGOPSim's), the largest
                    size of the sweep whose send returns before its receiver arrives, every
                    larger one waiting, walked down from the largest size (so that a smaller
                    size whose send waits now and then is not taken for the limit), then
                    bisected. Open MPI's shared memory: the handshake at 4 KiB, its eager
                    limit, where sends wait from 512 B (acknowledged).
     R              the rendezvous handshake (goal_sim.h's -R): the jump of the ping-pong's
                    half round trip at a size s_k above S (up to PROBE_LARGE), less what the
                    size difference explains: its rise from s_(k-1) less (s_k - s_(k-1))
                    times its rise per byte just after (s_k to s_(k+1)); the largest such
                    jump over a tenth of the half round trip at s_k (smaller ones are noise;
                    0: none). A protocol switch at S shows at the first size above it. Open
                    MPI's shared memory has two: at S (4 KiB, its eager limit, 0.7-3.5 us)
                    and 32-64 KiB (0.8-1.3 us, single copy or the caches); one R stands for
                    both, the largest.
     A, D           acknowledged sends (goal_sim.h's -A -D): the first eager size whose
                    burst gap steps up from the size's before by over PROBE_ACK_RISE (0.65)
                    times that gap, by over PROBE_ACK (1.5) times the step to the next
                    eager size and over PROBE_ACK_LATER (1.25) times every later eager step
                    (a level that the bytes do not explain: where an eager copy's cost per
                    byte shows, each step is half the next), every eager size from there
                    staying over half that step, is the first one
                    acknowledged: A is the size before (0: none; the next two sizes must
                    be eager too). A blocking send of such a size
                    waits for its receiver's answer, so a burst's gap there is the way to
                    the take, o + L, plus D: D is the median over those sizes of the gap
                    less o + L. Their times are left out of the fits of o, L and g (Open
                    MPI's shared memory: about 1 us a message from 512 B to 2 KiB on a
                    loaded machine, 0.3 us on a quiet one, where 256 B take 0.1 us; a late
                    receiver holds such a send most times, but not always, and S comes from
                    the fastest time; MPICH has none).
     one way        s bytes there and 0 back, less the way back, L + 2o (the ping-pong
                    fit's intercept, steadier than any one size's round trip under load):
                    t1(s) = L + 2o + (s-1)·G (+ R beyond S), a single message's cost
     exchange       both ranks send s bytes to each other at once (Isend, Irecv, Waitall)
     T, H           costs per byte by size (goal_sim.h's -T -H, a table): the slope of t1
                    between consecutive sizes of the sweep from PROBE_LARGE (less R above
                    S), a segment joining the group before it while its slope is within
                    PROBE_APART of the group's (a group's slope: its least-squares line's,
                    relative errors), the eighth group taking the rest; each group an
                    entry, T its first size and H its slope. Measured with 33 repetitions
                    or more, as the table comes from differences of times. G is then fitted from the gaps up to the end
                    of the first group only, and the first group, when within PROBE_APART of
                    G, is G's (no entry): a transport whose single messages cost what its
                    bursts do has no table. Shared memory: bursts pipeline the sender's copy
                    with the receiver's (0.03-0.05 ns/B a message), a single message pays
                    both, more as it leaves the caches (0.03-0.06 ns/B at 64-256 KiB,
                    0.06-0.13 beyond 512 KiB; an exchange at np 2 then costs about one
                    message, not twice the bursts' G).
     shared memory  --shared-memory (goal_sim.h: the per-byte part of messages between ranks
                    of a node copied one message at a time) when the exchange over the one
                    way, the median over the three largest sizes of PROBE_LARGE and more, is
                    PROBE_SHARED (1.6) or more: 2 where the two copies take turns, 1 where
                    they run side by side.
     local exec     a reduction of s bytes into a buffer on the probing rank (goal-probe: a
                    sum of doubles, out[i] += in[i], as libgoal's executor reduces): s·C
                    -> C, the slope of the fit over sizes from 1 KiB (the smaller ones are
                    the call's fixed cost, which the model does not charge).
     local copy     with copy_fn, a copy of s bytes (goal-probe: an exec copy through
                    libgoal's executor): its slope from 1 KiB the same way -> K (-K), which
                    prices the copies of an algorithm (its own block, in to out) apart from
                    its reductions: a copy costs 0.4-0.6 of a reduction per byte here.
   Each curve is fitted by least squares on relative errors (sizes span decades): o from
   the eager send overheads, o again from the eager receive overheads (o is their mean), g
   from the gaps of every size, L from the eager round trips. The per-byte costs come from
   the sizes where the bytes outweigh the call's fixed cost, since the model charges them
   to large messages: G from the gaps of PROBE_LARGE (64 KiB) and more given g (all sizes
   when max_size is smaller); O from the eager send overheads of 1 KiB and more, and only
   when the eager limit reaches PROBE_LARGE, else 0: larger messages go by rendezvous,
   whose per-byte cost eager sends do not show, and the model charges the receiver
   max(O, G) per byte (shared memory: Open MPI's eager limit of a few hundred bytes leaves
   a slope of noise, 0.13 ns/B; MPICH's 1-8 KiB eager sends cost 0.05 ns/B while a whole
   512 KiB message costs 0.033 ns/B). The residual of a fit is the root mean square of its
   relative errors, of the fit over every size.

   What libgoal adds (goal_sim.h's -E -F), when the transport has the four calls of
   libgoal's path (call_fn, lsend_fn, lrecv_fn, lpingpong_fn; else both are 0 and left out of the line):
     F              an empty call through libgoal (a schedule of one nop): its time, the
                    median of PROBE_RUNS measurements.
     E              measured two ways at the eager sizes up to PROBE_SMALL, each the median
                    over those sizes: the send and receive overheads through libgoal's
                    executor less the bare ones, (lsend - send + lrecv - recv)/2 - F (the
                    bare curves hold o and O, the libgoal ones o + E + F and the same O); and
                    the ping-pong through libgoal less the bare one, (lrtt - rtt - F)/4 (a
                    round trip is two sends and two receives: F + 4(o + E) + 2L). E is the
                    smaller: noise only adds time, and a loaded machine can inflate one
                    set of curves for seconds (an E of 2.2 us from the overheads where the
                    ping-pong said 25 ns).
   S and R are measured PROBE_RUNS times (S: the walk up the sizes and the bisection afresh
   each time; R: the ping-pong above S afresh, the first run the sweep's), the median kept,
   every run printed (probe_print_fit). A value whose middle runs (the second and the
   second last, sorted) are apart by more than PROBE_WIDE (S: the larger over twice the
   smaller; R: by over half the larger) is too noisy to stand for the machine: it is left
   out of the params line and a # line says so (S out takes R with it). L is the fit's
   intercept; a negative one (the round trip under two overheads: noise, or o measured on
   another path than the round trip) is 0 in the line and said in a # line, not hidden.

   A transport is these calls on the probing rank; each returns a time in ns (a typical one,
   e.g. the median over `reps`), or a negative number when it failed. */
#ifndef GOAL_PROBE_TOOL_H
#define GOAL_PROBE_TOOL_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct probe_ops {
    double (*pingpong_fn)(void *user, uint64_t size, int reps);            /* round trip of size bytes each way */
    double (*send_fn)(void *user, uint64_t size, double delay, int reps);  /* the send call; the peer receives delay ns later */
    double (*recv_fn)(void *user, uint64_t size, double delay, int reps);  /* the receive call, delay ns after the peer's send */
    double (*burst_fn)(void *user, uint64_t size, int n, int reps);        /* n sends back to back, then a 0-byte reply */
    double (*exec_fn)(void *user, uint64_t size, int reps);                /* a local reduction of size bytes */
    double (*copy_fn)(void *user, uint64_t size, int reps);                /* a local copy of size bytes; NULL: no -K */
    double (*call_fn)(void *user, int reps);                               /* libgoal: an empty call (one nop); NULL: no E, F */
    double (*lsend_fn)(void *user, uint64_t size, double delay, int reps); /* libgoal: send_fn through the executor */
    double (*lrecv_fn)(void *user, uint64_t size, double delay, int reps); /* libgoal: recv_fn through the executor */
    double (*lpingpong_fn)(void *user, uint64_t size, int reps);           /* libgoal: pingpong_fn through the executor */
    double (*oneway_fn)(void *user, uint64_t size, int reps);   /* size bytes there, 0 back; NULL: no -T -H, no --shared-memory */
    double (*exchange_fn)(void *user, uint64_t size, int reps); /* both ranks send size bytes to each other at once */
    void *user;
} probe_ops;

#define PROBE_MAX_SIZES 40
#define PROBE_BURST 16          /* messages in a burst */
#define PROBE_LARGE 65536       /* G is fitted from sizes of at least this many bytes */
#define PROBE_MIN_SIZE 2048     /* the least max_size: C is fitted from two sizes of 1 KiB and more */
#define PROBE_SMALL 1024        /* E is measured at the eager sizes up to this many bytes */
#define PROBE_RUNS 5            /* S and R are measured this many times */
#define PROBE_WIDE 2.0          /* S: the middle runs' ratio beyond which it is too noisy */
#define PROBE_MAX_TABLE 8       /* entries of -T -H at most (goal_sim.h's GOAL_SIM_TABLE_MAX) */
#define PROBE_APART 0.25        /* costs per byte within this fraction of each other are one */
#define PROBE_SHARED 1.6        /* the exchange over the one-way time from which memory is shared */
#define PROBE_ACK 1.5           /* acknowledged sends: a burst gap's step over the step after it, */
#define PROBE_ACK_LATER 1.25    /* over every later eager step, */
#define PROBE_ACK_RISE 0.65     /* and over the gap before it */
#define PROBE_HANDSHAKE 3.0     /* a round trip's step from one size to the next that is a rendezvous handshake */
typedef struct probe_result {
    double L, o, g, G, O, C;    /* ns, ns per byte */
    uint64_t S;                 /* largest eager size (bytes); max_size when none waits */
    double R;                   /* ns a rendezvous message arrives later (its handshake); 0: none seen */
    int nT;                     /* entries of the table of costs per byte (-T -H); 0: one G */
    uint64_t T[PROBE_MAX_TABLE];/* a message's bytes beyond T[i] (up to T[i+1]) cost H[i] each, not G */
    double H[PROBE_MAX_TABLE];
    int shared;                 /* 1: an exchange costs about twice a one-way message (--shared-memory) */
    double xratio;              /* the exchange's time over the one-way time at the largest sizes; 0: not measured */
    double G_one;               /* G from every size of PROBE_LARGE and more: the line's without the table */
    double E, F;                /* ns libgoal's executor adds per message, per call; 0: not measured */
    uint64_t A;                 /* eager sends over A bytes are acknowledged (-A), D ns after their take (-D); */
    double D;                   /* nacked 0: none seen */
    int nacked;                 /* sizes of the sweep that are acknowledged (A's next up to S) */
    double L_fit;               /* the fit's L before a negative one is made 0 */
    uint64_t S_run[PROBE_RUNS]; /* S of every run, and R */
    double R_run[PROBE_RUNS];
    int S_wide, R_wide;         /* 1: the runs are too far apart; the value is left out of the line */
    int nsmall;                 /* sizes with lsend, lrecv (the first nsmall of the sweep) */
    double lsend[PROBE_MAX_SIZES], lrecv[PROBE_MAX_SIZES], lrtt[PROBE_MAX_SIZES];
    double E_overheads, E_pingpong;   /* E's two measurements (see the top) */
    double K;                   /* ns per byte of a local copy (-K); 0: not measured */
    int copied;                 /* copy_fn was given: copy[] holds a copy's times */
    double res_rtt, res_send, res_recv, res_gap, res_exec, res_copy;   /* relative RMS residuals of the fits */
    int n;                      /* sizes measured */
    uint64_t size[PROBE_MAX_SIZES];
    double rtt[PROBE_MAX_SIZES], os[PROBE_MAX_SIZES], orecv[PROBE_MAX_SIZES], gap[PROBE_MAX_SIZES], exec[PROBE_MAX_SIZES];
    double copy[PROBE_MAX_SIZES];   /* a local copy's time (0: not measured) */
    double way[PROBE_MAX_SIZES], xch[PROBE_MAX_SIZES];  /* s bytes there and 0 back, exchanges (0: not measured) */
    double t1[PROBE_MAX_SIZES];                          /* one way: way less the fitted L + 2o (the way back) */
} probe_result;

/* Repetitions per size: many for small messages, few for large ones. */
static int probe_reps(uint64_t size) { return size <= 4096 ? 50 : size <= 262144 ? 20 : 11; }
/* One-way and exchange repetitions: at least 33, as the table comes from their differences. */
#define PROBE_REPS_WAY(reps) ((reps) > 33 ? (reps) : 33)
/* How long the peer waits: long enough that an eager send or a message in flight is done. */
static double probe_delay(double rtt) { return 4 * rtt + 20000; }

/* y = a + b·x by least squares with weights 1/y^2 over points with use[k]; residual: the
   RMS of (fit - y) / y. Returns 0 when fewer than 2 points. */
static int probe_fit(const double *x, const double *y, const int *use, int n, double *a, double *b, double *res) {
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, det, e = 0;
    int k, m = 0;
    for (k = 0; k < n; k++) {
        double w;
        if (!use[k] || y[k] <= 0) continue;
        w = 1 / (y[k] * y[k]);
        sw += w; sx += w * x[k]; sy += w * y[k]; sxx += w * x[k] * x[k]; sxy += w * x[k] * y[k];
        m++;
    }
    det = sw * sxx - sx * sx;
    if (m < 2 || det == 0) return 0;
    *b = (sw * sxy - sx * sy) / det;
    *a = (sy - *b * sx) / sw;
    for (k = 0; k < n; k++)
        if (use[k] && y[k] > 0) e += ((*a + *b * x[k]) - y[k]) * ((*a + *b * x[k]) - y[k]) / (y[k] * y[k]);
    *res = sqrt(e / m);
    return 1;
}

/* Eager: the send returned well before its receiver arrived. */
static int probe_eager(const probe_ops *ops, uint64_t size, double delay, double *t) {
    *t = ops->send_fn(ops->user, size, delay, probe_reps(size));
    return *t >= 0 && *t < delay / 2;
}

/* The sweep: every measurement at every size. Returns 0, or -1 when a call failed. */
static int probe_sweep(const probe_ops *ops, uint64_t max_size, probe_result *r) {
    uint64_t s;
    for (s = 1, r->n = 0; s <= max_size && r->n < PROBE_MAX_SIZES; s *= 2, r->n++) {
        int k = r->n, reps = probe_reps(s);
        double d, b1, bn;
        r->size[k] = s;
        if ((r->rtt[k] = ops->pingpong_fn(ops->user, s, reps)) < 0) return -1;
        d = probe_delay(r->rtt[k]);
        if ((r->os[k] = ops->send_fn(ops->user, s, d, reps)) < 0 || (r->orecv[k] = ops->recv_fn(ops->user, s, d, reps)) < 0) return -1;
        if ((b1 = ops->burst_fn(ops->user, s, 1, reps)) < 0 || (bn = ops->burst_fn(ops->user, s, PROBE_BURST, reps)) < 0) return -1;
        r->gap[k] = (bn - b1) / (PROBE_BURST - 1);
        if ((r->exec[k] = ops->exec_fn(ops->user, s, reps)) < 0) return -1;
        if (ops->copy_fn && (r->copy[k] = ops->copy_fn(ops->user, s, reps)) < 0) return -1;
        r->copied = ops->copy_fn != NULL;
        if (ops->oneway_fn && ((b1 = ops->oneway_fn(ops->user, s, PROBE_REPS_WAY(reps))) < 0 ||
                               (r->xch[k] = ops->exchange_fn(ops->user, s, PROBE_REPS_WAY(reps))) < 0))
            return -1;
        if (ops->oneway_fn) r->way[k] = b1;
        if (!ops->call_fn || s > PROBE_SMALL) continue;
        if ((r->lsend[k] = ops->lsend_fn(ops->user, s, d, reps)) < 0 || (r->lrecv[k] = ops->lrecv_fn(ops->user, s, d, reps)) < 0 ||
            (r->lrtt[k] = ops->lpingpong_fn(ops->user, s, reps)) < 0)
            return -1;
        r->nsmall = k + 1;
    }
    return 0;
}

/* The size of the sweep where a handshake starts (see the top): the first whose send waits
   and whose round trip is over PROBE_HANDSHAKE times the size's before; 0 when none. */
static int probe_handshake_at(const probe_result *r) {
    int k;
    for (k = 1; k < r->n; k++)
        if (r->os[k] >= probe_delay(r->rtt[k]) / 2 && r->rtt[k] > PROBE_HANDSHAKE * r->rtt[k - 1]) return k;
    return 0;
}
/* Whether size travels without a handshake: eager, or acknowledged (its send waits, but
   its round trip is under PROBE_HANDSHAKE times rtt0, the size's below the handshake). */
static int probe_no_handshake(const probe_ops *ops, uint64_t size, double delay, double rtt0) {
    double t, rtt;
    if (probe_eager(ops, size, delay, &t)) return 1;
    return (rtt = ops->pingpong_fn(ops->user, size, probe_reps(size))) >= 0 && rtt < PROBE_HANDSHAKE * rtt0;
}
/* One run of S (see the top): below the handshake's size, bisected with probe_no_handshake;
   without one, the largest size of the sweep whose send is eager, walking down, then
   bisected with probe_eager. fresh: on sends and round trips measured again (up to twice
   PROBE_LARGE, as R's runs), else the sweep's. Returns S, or 0 when a call failed. */
static uint64_t probe_eager_once(const probe_ops *ops, const probe_result *sweep, int fresh) {
    probe_result c = *sweep, *r = &c;
    uint64_t lo, hi;
    double t;
    int k, hs;
    for (k = 0; fresh && k < r->n && r->size[k] <= 2 * PROBE_LARGE; k++)
        if ((r->rtt[k] = ops->pingpong_fn(ops->user, r->size[k], probe_reps(r->size[k]))) < 0 ||
            (r->os[k] = ops->send_fn(ops->user, r->size[k], probe_delay(r->rtt[k]), probe_reps(r->size[k]))) < 0)
            return 0;
    k = probe_handshake_at(r) - 1;
    hs = k >= 0;
    for (k = hs ? k : r->n - 1; !hs && k >= 0; k--)
        if (r->os[k] < probe_delay(r->rtt[k]) / 2) break;
    if (k == r->n - 1) return r->size[r->n - 1];
    if (k < 0) return 0;
    lo = r->size[k];
    hi = r->size[k + 1];
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (hs ? probe_no_handshake(ops, mid, probe_delay(r->rtt[k + 1]), r->rtt[k]) : probe_eager(ops, mid, probe_delay(r->rtt[k + 1]), &t))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
static int probe_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
/* The median of v[0..n) (sorted in place). */
static double probe_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], probe_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
/* S: PROBE_RUNS runs, the median; too wide when the middle ones differ over PROBE_WIDE times. */
static void probe_eager_limit(const probe_ops *ops, probe_result *r) {
    double v[PROBE_RUNS];
    int j;
    for (j = 0; j < PROBE_RUNS; j++) v[j] = (double)(r->S_run[j] = probe_eager_once(ops, r, j > 0));
    r->S = (uint64_t)probe_median(v, PROBE_RUNS);
    r->S_wide = v[PROBE_RUNS - 2] > PROBE_WIDE * v[1];
}

/* The slope b of y = a + b·x for a given a, least squares on relative errors over use[k];
   0 when no point has x > 0. */
static double probe_slope(double a, const double *x, const double *y, const int *use, int n) {
    double num = 0, den = 0;
    int k;
    for (k = 0; k < n; k++)
        if (use[k] && y[k] > 0) { num += x[k] * (y[k] - a) / (y[k] * y[k]); den += x[k] * x[k] / (y[k] * y[k]); }
    return den > 0 ? num / den : 0;
}
/* R: the largest jump of the half round trip above S (see the top). */
static double probe_handshake(const probe_result *r) {
    double best = 0, rise, per_byte, jump;
    int k;
    for (k = 1; k + 1 < r->n && r->size[k] <= PROBE_LARGE; k++) {
        if (r->size[k] <= r->S) continue;
        rise = (r->rtt[k] - r->rtt[k - 1]) / 2;
        per_byte = (r->rtt[k + 1] - r->rtt[k]) / 2 / (double)(r->size[k + 1] - r->size[k]);
        jump = rise - per_byte * (double)(r->size[k] - r->size[k - 1]);
        if (jump > r->rtt[k] / 20 && jump > best) best = jump;   /* over a tenth of the half round trip */
    }
    return best;
}
/* use[k]: whether the sweep's size k is in [lo, hi]. */
static int *probe_sizes(const probe_result *r, uint64_t lo, uint64_t hi, int *use) {
    int k;
    for (k = 0; k < r->n; k++) use[k] = r->size[k] >= lo && r->size[k] <= hi;
    return use;
}
/* Acknowledged sends' sizes (see the top): the first eager size k, with sizes k+1 and k+2
   eager too, whose gap steps up from size k-1's by over PROBE_ACK_RISE times that gap,
   PROBE_ACK times the step to size k+1 and PROBE_ACK_LATER times every later eager step,
   all eager sizes from k staying over half the step; 0 none. Open MPI's step at 512 B is
   0.75-3 times the gap before and 1.4 or more times every later one. MPICH has none: its
   gap rises at 128 B by 0.53 of itself (a level, smaller than a round trip), and its eager
   copies double it from 2 KiB on, each step about half the next; its largest eager size's
   gap is now and then half its usual, which makes the step before it look like a level
   when only one step follows. */
static int probe_ack_step(const probe_result *r, int k) {
    double step = r->gap[k] - r->gap[k - 1];
    int j;
    if (!(r->gap[k - 1] > 0 && step > PROBE_ACK_RISE * r->gap[k - 1] && step > PROBE_ACK * (r->gap[k + 1] - r->gap[k])))
        return 0;
    for (j = k + 1; j < r->n && r->size[j] <= r->S; j++)
        if (step <= PROBE_ACK_LATER * (r->gap[j] - r->gap[j - 1])) return 0;
    return 1;
}
static int probe_acked_from(const probe_result *r) {
    int k, j;
    for (k = 1; k + 2 < r->n && r->size[k + 2] <= r->S; k++) {
        double floor = (r->gap[k - 1] + r->gap[k]) / 2;
        if (!probe_ack_step(r, k)) continue;
        for (j = k; j < r->n && r->size[j] <= r->S && r->gap[j] > floor; j++) {}
        if (j == r->n || r->size[j] > r->S) return k;
    }
    return 0;
}
/* D: the median over the acknowledged sizes of the gap less the way to the take, o + L
   (see the top); none below 0. */
static void probe_ack_delay(probe_result *r, int from) {
    double v[PROBE_MAX_SIZES];
    int k;
    for (k = from; k < from + r->nacked; k++) v[k - from] = r->gap[k] - (r->o + r->L);
    r->A = r->size[from - 1];
    r->D = probe_median(v, r->nacked);
    if (r->D < 0) r->D = 0;
}
/* The fits of the sweep (see the top). Returns 0, or -1 when too few eager sizes. */
static int probe_fits(probe_result *r) {
    double x[PROBE_MAX_SIZES], bytes[PROBE_MAX_SIZES], half[PROBE_MAX_SIZES], os_o, os_O, or_o, or_g, rtt0, rtt_g, exec0, u;
    int eager[PROBE_MAX_SIZES], all[PROBE_MAX_SIZES], use[PROBE_MAX_SIZES], k, acked = probe_acked_from(r);
    for (k = 0; k < r->n; k++) {
        x[k] = (double)(r->size[k] - 1);
        bytes[k] = (double)r->size[k];
        half[k] = r->rtt[k] / 2;
    }
    probe_sizes(r, 0, r->S, eager);
    probe_sizes(r, 0, UINT64_MAX, all);
    for (k = acked; acked && k < r->n && r->size[k] <= r->S; k++) all[k] = eager[k] = 0, r->nacked++;   /* their waits: not g's, o's, L's */
    if (!probe_fit(bytes, r->exec, probe_sizes(r, 1024, UINT64_MAX, use), r->n, &exec0, &r->C, &r->res_exec)) return -1;
    if (r->copied && !probe_fit(bytes, r->copy, probe_sizes(r, 1024, UINT64_MAX, use), r->n, &exec0, &r->K, &r->res_copy)) r->copied = 0;
    /* o from every eager send (the slope there is no O: see the top) */
    if (!probe_fit(x, r->os, eager, r->n, &os_o, &os_O, &r->res_send) || !probe_fit(x, r->orecv, eager, r->n, &or_o, &or_g, &r->res_recv) ||
        !probe_fit(x, r->gap, all, r->n, &r->g, &r->G, &r->res_gap) || !probe_fit(x, half, eager, r->n, &rtt0, &rtt_g, &r->res_rtt))
        return -1;
    /* per-byte costs where the bytes stand out of the call's fixed cost (see the top) */
    if (r->S < PROBE_LARGE || !probe_fit(x, r->os, probe_sizes(r, 1024, r->S, use), r->n, &u, &r->O, &u)) r->O = 0;
    if (r->size[r->n - 1] >= PROBE_LARGE) r->G = probe_slope(r->g, x, r->gap, probe_sizes(r, PROBE_LARGE, UINT64_MAX, use), r->n);
    for (k = 0; k < r->n; k++) r->t1[k] = r->way[k] > 0 ? r->way[k] - rtt0 : 0;
    r->o = (os_o + or_o) / 2;
    r->L_fit = rtt0 - 2 * r->o;
    r->L = r->L_fit > 0 ? r->L_fit : 0;   /* a negative fit is said (probe_print_fit) */
    if (r->O < 0) r->O = 0;
    if (r->G < 0) r->G = 0;
    if (r->g < 0) r->g = 0;
    if (r->C < 0.001) r->C = 0.001;   /* the finest -C goal sim takes (0 would mean its default, 1) */
    if (!r->copied) r->K = 0;   /* no -K: copies at C */
    else if (r->K < 0.001) r->K = 0.001;   /* the finest -K goal sim takes (0 would mean -C) */
    if (r->nacked) probe_ack_delay(r, acked);
    return 0;
}
/* R: PROBE_RUNS runs of probe_handshake, the first on the sweep's round trips, the others
   on round trips measured again from half of S to twice PROBE_LARGE; the median; too wide
   when the middle runs differ by over half the larger. Returns 0, or -1 when a call failed. */
static int probe_handshakes(const probe_ops *ops, probe_result *r) {
    probe_result c = *r;
    double v[PROBE_RUNS];
    int j, k;
    for (j = 0; j < PROBE_RUNS; j++) {
        for (k = 0; j > 0 && k < r->n && r->size[k] <= 2 * PROBE_LARGE; k++)
            if (2 * r->size[k] > r->S && (c.rtt[k] = ops->pingpong_fn(ops->user, r->size[k], probe_reps(r->size[k]))) < 0) return -1;
        v[j] = r->R_run[j] = probe_handshake(&c);
    }
    r->R = probe_median(v, PROBE_RUNS);
    r->R_wide = v[PROBE_RUNS - 2] - v[1] > v[PROBE_RUNS - 2] / 2;
    return 0;
}
/* Size k's one-way time less the handshake R above S: what its bytes cost, and L + 2o. */
static double probe_oneway_bytes(const probe_result *r, int k) { return r->t1[k] - (r->size[k] > r->S ? r->R : 0); }
/* The one-way time's cost per byte over sizes a to b of the sweep: the slope of its
   least-squares line there (probe_oneway_bytes). */
static double probe_per_byte(const probe_result *r, int a, int b) {
    double x[PROBE_MAX_SIZES], u[PROBE_MAX_SIZES], c, h, e;
    int use[PROBE_MAX_SIZES], k;
    for (k = 0; k < r->n; k++) {
        x[k] = (double)r->size[k];
        u[k] = probe_oneway_bytes(r, k);
        use[k] = k >= a && k <= b;
    }
    return probe_fit(x, u, use, r->n, &c, &h, &e) ? h : 0;
}
/* Whether sizes a to b have two one-way times to fit a cost per byte from (probe_fit leaves
   out the others: a spike in the way back makes one 0 or less). */
static int probe_per_byte_fits(const probe_result *r, int a, int b) {
    int k, m = 0;
    for (k = a; k <= b && k < r->n; k++) m += probe_oneway_bytes(r, k) > 0;
    return m >= 2;
}
/* Whether two costs per byte are one (within PROBE_APART of the first). */
static int probe_alike(double h, double ref) { return fabs(h - ref) <= PROBE_APART * ref; }
/* The table (see the top): the one-way time's segments from PROBE_LARGE in groups, each
   segment joining the group before it while its slope is alike the group's (the last
   entry takes the rest); G again from the gaps up to the first group's end; that group
   dropped when alike G. */
static void probe_table(probe_result *r) {
    double x[PROBE_MAX_SIZES], h;
    int use[PROBE_MAX_SIZES], a, b, k, end0 = -1;
    for (a = 0; a < r->n && r->size[a] < PROBE_LARGE; a++) {}
    for (r->nT = 0; a + 1 < r->n; a = b) {
        for (b = a + 1; b + 1 < r->n && (r->nT + 1 == PROBE_MAX_TABLE || probe_alike(probe_per_byte(r, b, b + 1), probe_per_byte(r, a, b))); b++) {}
        if (!probe_per_byte_fits(r, a, b)) break;   /* no cost measured there: the entry before goes on */
        h = probe_per_byte(r, a, b);
        r->T[r->nT] = r->size[a];
        r->H[r->nT] = h > 0.001 ? h : 0.001;   /* the finest -H goal sim takes */
        if (r->nT++ == 0) end0 = b;
    }
    r->G_one = r->G;
    if (!r->nT) return;
    for (k = 0; k < r->n; k++) x[k] = (double)(r->size[k] - 1);
    r->G = probe_slope(r->g, x, r->gap, probe_sizes(r, PROBE_LARGE, r->size[end0], use), r->n);
    if (r->G < 0) r->G = 0;
    if (!probe_alike(r->H[0], r->G)) return;
    r->nT--;
    memmove(r->T, r->T + 1, (size_t)r->nT * sizeof r->T[0]);
    memmove(r->H, r->H + 1, (size_t)r->nT * sizeof r->H[0]);
}
/* --shared-memory (see the top): the exchange over the one-way time, the median over the
   three largest sizes of PROBE_LARGE and more. */
static void probe_shared(probe_result *r) {
    double v[3];
    int k, m = 0;
    for (k = r->n - 1; k >= 0 && m < 3 && r->size[k] >= PROBE_LARGE; k--)
        if (r->t1[k] > 0) v[m++] = r->xch[k] / r->t1[k];
    r->xratio = m ? probe_median(v, m) : 0;
    r->shared = r->xratio >= PROBE_SHARED;
}
/* F and E (see the top); 0, or -1 when a call failed. Without libgoal's path both stay 0. */
static int probe_libgoal(const probe_ops *ops, probe_result *r) {
    double v[PROBE_MAX_SIZES], w[PROBE_MAX_SIZES];
    int k, m = 0;
    if (!ops->call_fn) return 0;
    for (k = 0; k < PROBE_RUNS; k++)
        if ((v[k] = ops->call_fn(ops->user, probe_reps(0))) < 0) return -1;
    r->F = probe_median(v, PROBE_RUNS);
    for (k = 0; k < r->nsmall; k++)
        if (r->size[k] <= r->S) {
            w[m] = (r->lrtt[k] - r->rtt[k] - r->F) / 4;
            v[m++] = (r->lsend[k] - r->os[k] + r->lrecv[k] - r->orecv[k]) / 2 - r->F;
        }
    r->E_overheads = m ? probe_median(v, m) : 0;
    r->E_pingpong = m ? probe_median(w, m) : 0;
    r->E = r->E_overheads < r->E_pingpong ? r->E_overheads : r->E_pingpong;
    if (r->E < 0) r->E = 0;   /* within the noise of the bare curves */
    return 0;
}

/* Measures and fits. Returns 0, or -1 (max_size under PROBE_MIN_SIZE, a transport call
   failed, or too few eager sizes). */
static int probe_run(const probe_ops *ops, uint64_t max_size, probe_result *r) {
    memset(r, 0, sizeof *r);
    if (max_size < PROBE_MIN_SIZE || probe_sweep(ops, max_size, r) != 0) return -1;
    probe_eager_limit(ops, r);
    if (probe_fits(r) != 0 || probe_handshakes(ops, r) != 0) return -1;
    if (ops->oneway_fn) probe_table(r), probe_shared(r);
    return probe_libgoal(ops, r);
}

/* A number as goal sim takes it: whole ns from 100 on, else at most 3 decimals. */
static const char *probe_fmt(char *buf, size_t len, double v) {
    size_t n;
    snprintf(buf, len, v >= 100 ? "%.0f" : "%.3f", v);
    n = strlen(buf);
    while (v < 100 && n > 1 && buf[n - 1] == '0') buf[--n] = 0;
    if (buf[n - 1] == '.') buf[--n] = 0;
    return buf;
}
static void probe_num(FILE *f, const char *opt, double v) {
    char buf[64];
    fprintf(f, "%s %s", opt, probe_fmt(buf, sizeof buf, v));
}
/* The params line: what `goal sim --params FILE` reads (a params file holds only this line). */
static void probe_print_params(FILE *f, const probe_result *r) {
    char buf[64];
    int k;
    probe_num(f, "-L", r->L);
    probe_num(f, " -o", r->o);
    probe_num(f, " -g", r->g);
    probe_num(f, " -G", r->G);
    probe_num(f, " -O", r->O);
    probe_num(f, " -C", r->C);
    if (r->K > 0) probe_num(f, " -K", r->K);   /* only when measured */
    if (!r->S_wide) fprintf(f, " -S %llu", (unsigned long long)r->S);   /* too noisy: out (a # line says so) */
    if (r->R >= 0.001 && !r->S_wide && !r->R_wide) probe_num(f, " -R", r->R);   /* only when a handshake was seen */
    for (k = 0; k < r->nT; k++) fprintf(f, k ? ",%llu" : " -T %llu", (unsigned long long)r->T[k]);   /* only when a table was seen */
    for (k = 0; k < r->nT; k++) fprintf(f, "%s%s", k ? "," : " -H ", probe_fmt(buf, sizeof buf, r->H[k]));
    if (r->shared) fprintf(f, " --shared-memory");
    if (r->nacked && !r->S_wide) fprintf(f, " -A %llu", (unsigned long long)r->A);   /* only when seen (below S) */
    if (r->nacked && !r->S_wide) probe_num(f, " -D", r->D);
    if (r->F > 0) probe_num(f, " -E", r->E);   /* only when measured through libgoal */
    if (r->F > 0) probe_num(f, " -F", r->F);
    fputc('\n', f);
}
/* The runs of S and R, and what was left out of the line and why, as comment lines. */
static void probe_print_runs(FILE *f, const probe_result *r) {
    int j;
    fprintf(f, "# S runs:");
    for (j = 0; j < PROBE_RUNS; j++) fprintf(f, " %llu", (unsigned long long)r->S_run[j]);
    fprintf(f, " (median %llu)\n# R runs:", (unsigned long long)r->S);
    for (j = 0; j < PROBE_RUNS; j++) fprintf(f, " %.0f", r->R_run[j]);
    fprintf(f, " ns (median %.0f)\n", r->R);
    if (r->S_wide) fprintf(f, "# -S and -R left out: S's runs differ over %.0fx (a loaded machine? probe again)\n", PROBE_WIDE);
    else if (r->R_wide && r->R >= 0.001) fprintf(f, "# -R left out: R's runs differ by over half (a loaded machine? probe again)\n");
    if (r->nacked)
        fprintf(f, "# acknowledged sends: over %llu B up to S (%d sizes of the sweep), %.0f ns from the take to completion\n",
                (unsigned long long)r->A, r->nacked, r->D);
    if (r->L_fit < 0) fprintf(f, "# L: the fit gives %.0f ns (the round trip is under two overheads: noise), 0 in the line\n", r->L_fit);
}
/* The fit's residuals and the measured curves, as comment lines. */
static void probe_print_fit(FILE *f, const probe_result *r) {
    int k;
    probe_print_runs(f, r);
    if (r->F > 0)
        fprintf(f, "# libgoal adds: -F %.0f ns a call, -E %.1f ns a message (overheads %.1f, ping-pong %.1f; bare MPI: -o %.1f)\n", r->F, r->E,
                r->E_overheads, r->E_pingpong, r->o);
    fprintf(f, "# residuals (relative RMS): ping-pong %.3f, send overhead %.3f, receive overhead %.3f, gap %.3f, exec %.3f",
            r->res_rtt, r->res_send, r->res_recv, r->res_gap, r->res_exec);
    if (r->copied) fprintf(f, ", copy %.3f", r->res_copy);
    fprintf(f, "\n");
    if (r->xratio > 0)
        fprintf(f, "# exchange / one-way at the largest sizes: %.2f (--shared-memory from %.1f)\n", r->xratio, PROBE_SHARED);
    fprintf(f, "# size rtt send_overhead recv_overhead gap exec oneway exchange%s (ns)\n", r->copied ? " copy" : "");
    for (k = 0; k < r->n; k++) {
        fprintf(f, "# %llu %.1f %.1f %.1f %.1f %.1f %.1f %.1f", (unsigned long long)r->size[k], r->rtt[k], r->os[k], r->orecv[k], r->gap[k],
                r->exec[k], r->t1[k], r->xch[k]);
        if (r->copied) fprintf(f, " %.1f", r->copy[k]);
        fprintf(f, "\n");
    }
}
#endif
