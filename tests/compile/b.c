#include "goal.h"
int tu_b(void) { return goal_op_check(GOAL_OP_SUM, GOAL_FLOAT64) == GOAL_OK; }
