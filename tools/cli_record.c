/* goal record PREFIX: a recording's parts (PREFIX.<rank>.part, what libgoalmpi's
   GOAL_MPI_RECORD writes, and leaves when the program did not reach MPI_Finalize) assembled
   into PREFIX.goal, what is missing named, then checked as goal check does. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "record.h"

int cli_record(int argc, char **argv) {
    record_world rw;
    cli_form f;
    const char *prefix;
    char why[400], path[4096], *check[2];
    int rc, missing;
    memset(&f, 0, sizeof f);
    f.operand = "PREFIX";
    f.need = 1;
    if ((rc = cli_parse(argc, argv, &f)) != CLI_OK) return rc;
    prefix = f.value;
    if (!*prefix) return cli_usage("record: PREFIX is empty");
    if (!record_assemble(prefix, &rw, stderr, why, sizeof why)) {
        record_world_free(&rw);
        return cli_fail("record: %s", why);
    }
    missing = rw.nparts < rw.nranks;
    printf("record: %s.goal: %d ranks, %llu actions, measured %llu ns%s\n", prefix, rw.nranks, (unsigned long long)rw.actions,
           (unsigned long long)rw.ns, missing ? " (ranks missing: see above)" : "");
    record_world_free(&rw);
    fflush(stdout);
    snprintf(path, sizeof path, "%s.goal", prefix);
    check[0] = (char *)"check"; check[1] = path;
    rc = cli_check(2, check);
    return rc ? rc : missing ? CLI_BAD_INPUT : CLI_OK;
}
