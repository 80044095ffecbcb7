/* The one translation unit holding the libraries' implementations. */
#define GOAL_ALL_IMPLEMENTATION
#include "../goal.h"
#include "../goal_sched.h"
#include "../goal_algos.h"
#include "../goal_sim.h"
#include "../goal_tune.h"
#include "../goal_analyze.h"
