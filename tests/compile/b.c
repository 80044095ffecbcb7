#include "goal.h"
#include "goal_sim.h"
#include "goal_algos.h"
#include "goal_analyze.h"
#include "goal_tune.h"
int tu_b(void) {
    goal_sim_check_result r;
    return goal_op_check(GOAL_OP_SUM, GOAL_FLOAT64) == GOAL_OK && goal_sim_check(NULL, NULL, &r) == GOAL_ERR_ARG &&
           goal_algo_list(0) != NULL && goal_analyze_waits(NULL, NULL, NULL, NULL) == GOAL_ERR_ARG &&
           goal_tune_grid(goal_algo_list(0), 0, &(goal_algo_desc){0}) == 1;
}
