/* The one translation unit holding the libraries' implementations. goal_algos.h comes
   before goal_sim.h, which then also provides goal_analyze_replace. */
#define GOAL_ALL_IMPLEMENTATION
#include "../goal.h"
#include "../goal_sched.h"
#include "../goal_algos.h"
#include "../goal_sim.h"
