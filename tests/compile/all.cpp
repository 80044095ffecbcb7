// Every header, and every implementation, in one C++ translation unit; one call into each.
#define GOAL_ALL_IMPLEMENTATION
#include "goal.h"
#include "goal_sched.h"
#include "goal_sim.h"
#include "goal_algos.h"
#include "goal_tune.h"
#include "goal_analyze.h"
#include <cstdio>

int main() {
    goal_graph *g = nullptr;
    goal_graph_desc d = {};
    int ok = goal_graph_create(&g, &d, nullptr) == GOAL_OK;
    goal_graph_destroy(g);
    ok = ok && goal_apply(GOAL_OP_SUM, GOAL_INT8, nullptr, nullptr, 0) == GOAL_OK;
    goal_sim_run_result sr;
    ok = ok && goal_sim_run(nullptr, nullptr, &sr) == GOAL_ERR_ARG;
    goal_sim_result old_name;   /* the names CHANGES keeps for one release still compile */
    ok = ok && goal_sim_run(nullptr, nullptr, &old_name) == GOAL_ERR_ARG;
    goal_sim_result_free(&old_name);
    ok = ok && goal_algo_find("bcast_binomial") != nullptr;
    const goal_algo_info *best;
    double ns;
    ok = ok && goal_sim_coll_of("bcast_binomial") == GOAL_COLL_BCAST && goal_tune_best(-1, 1, 0, nullptr, 0, &best, &ns, nullptr) == GOAL_ERR_ARG;
    std::printf("%s cpp_compile\n", ok ? "ok" : "FAIL");
    std::printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
