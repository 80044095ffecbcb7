/* The one translation unit holding the libraries' implementations. */
#define GOAL_IMPLEMENTATION
#include "../goal.h"
#define GOAL_SIM_IMPLEMENTATION
#include "../goal_sim.h"
