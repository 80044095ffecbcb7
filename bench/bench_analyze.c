/* bench_analyze: time of goal_analyze (matching, dataflow, detection) on a binomial
   broadcast, against the cDAG paper's model a * p * log2 p (a = 0.15-0.85 us per phase). */
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_algos.h"
#include "goal_analyze.h"
#include <stdio.h>
#include <string.h>
#include <time.h>


/* CPU time of this process: the machine is shared, wall time would count other work. */
static double now(void) { return (double)clock() / CLOCKS_PER_SEC; }
int main(void) {
    static const int exps[] = {10, 14, 17};
    int k;
    printf("p\tseconds\tus per p*log2(p)\tfindings\n");
    for (k = 0; k < 3; k++) {
        int p = 1 << exps[k];
        goal_algo_desc d;
        goal_world *w;
        goal_analyze_result r;
        goal_error err;
        double t0, t;
        memset(&d, 0, sizeof d);
        d.algo = "bcast_binomial"; d.count = 100; d.dtype = GOAL_INT8;
        if (goal_algo_world(&w, &d, p, &err) != GOAL_OK) { puts(err.msg); return 1; }
        t0 = now();
        if (goal_analyze(w, NULL, &r, &err) != GOAL_OK) { puts(err.msg); return 1; }
        t = now() - t0;
        printf("%d\t%.3f\t%.3f\t%lu x %s\n", p, t, 1e6 * t / ((double)p * exps[k]), (unsigned long)r.nfindings,
               goal_analyze_kind_name(r.findings[0].kind));
        goal_analyze_free(&r);
        goal_world_destroy(w);
    }
    return 0;
}
