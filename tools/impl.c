/* The one translation unit holding the libraries' implementations. */
#define GOAL_IMPLEMENTATION
#include "../goal.h"
