/* goal svg: the simulated timeline as an SVG picture (goal_sim.h; shared with goal trace). */
#include "cli.h"

int cli_svg(int argc, char **argv) { return cli_timeline(argc, argv, goal_sim_write_svg); }
