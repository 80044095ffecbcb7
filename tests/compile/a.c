/* The headers included from two translation units, the implementation in a third. */
#include "goal.h"
#include "goal_sched.h"
int tu_a(void) { return goal_dtype_size(GOAL_INT32) == 4; }
