#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_sim.h"
#include "goal_algos.h"
#include "goal_tune.h"
#include "goal_analyze.h"
#include <stdio.h>
int tu_a(void);
int tu_b(void);
int main(void) {
    int ok = tu_a() && tu_b();
    printf("%s multi_tu\n%d passed, %d failed\n", ok ? "ok" : "FAIL", ok, !ok);
    return !ok;
}
