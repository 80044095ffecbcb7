# libgoal - build, test, benchmark. GNU make. Quick start: `make run`, `make test`.
SHELL    := /bin/bash
CC       ?= cc
CXX      ?= c++
CLANG    ?= clang
PREFIX   ?= /usr/local
OPT      ?= -O2 -g
WARN     := -std=c99 -Wall -Wextra -Wpedantic -Werror
CFLAGS_ALL = $(WARN) $(OPT) -I. $(EXTRA_CFLAGS)
LDLIBS   := -lpthread -lm
FUZZ_SECONDS ?= 60
B        := build

HEADERS  := $(wildcard goal*.h)
TOOL_SRC := $(wildcard tools/*.c)
TOOL_OBJ := $(patsubst tools/%.c,$(B)/tools/%.o,$(TOOL_SRC))
TEST_SRC := $(wildcard tests/test_*.c)
TESTS    := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRC))
SCRIPTS  := $(wildcard tests/test_*.sh)
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(filter-out examples/mpi_%,$(wildcard examples/*.c)))
BENCHES  := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
FUZZERS  := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all run test test-full bench install uninstall clean deps fuzz fuzz-merge check-asan check-tsan check-valgrind compile-tests build-tests
all: $(B)/goal $(B)/goal.1 $(EXAMPLES)

$(B)/goal: $(TOOL_OBJ)
	$(CC) $(OPT) $^ -o $@ $(LDLIBS)
# The man page is printed from the same tables as goal --help (tools/goal.c and each verb's options).
$(B)/goal.1: $(B)/goal
	./$(B)/goal help --man >$@
$(B)/tools/%.o: tools/%.c $(wildcard tools/*.h) $(HEADERS) | $(B)/tools
	$(CC) $(CFLAGS_ALL) -I$(B)/tools -c $< -o $@
# goal html's page (style and script, readable in tools/html_page.html) as C string lines.
$(B)/tools/html_page.inc: tools/html_page.html | $(B)/tools
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n",/' $< > $@
$(B)/tools/cli_html.o: $(B)/tools/html_page.inc
$(B)/tests/%: tests/%.c tests/harness.h tools/algo_check.h $(HEADERS) | $(B)/tests
	$(CC) $(CFLAGS_ALL) $< -o $@ $(LDLIBS)
$(B)/examples/%: examples/%.c $(HEADERS) | $(B)/examples
	$(CC) $(CFLAGS_ALL) $< -o $@ $(LDLIBS)
$(B)/bench/%: bench/%.c bench/bench.h $(HEADERS) | $(B)/bench
	$(CC) $(WARN) -O3 -g -DNDEBUG -I. $< -o $@ $(LDLIBS)
$(B)/bench/bench_bw $(B)/bench/bench_lang $(B)/bench/bench_load: tests/harness.h
$(B)/tools $(B)/tests $(B)/examples $(B)/bench $(B)/fuzz $(B)/mpi:
	mkdir -p $@

# The headers compile as C++, and with the implementation in a third translation unit.
$(B)/tests/cpp_compile: tests/compile/all.cpp $(HEADERS) | $(B)/tests
	$(CXX) -std=c++11 -Wall -Wextra -Wpedantic -Werror -O1 -I. $< -o $@ $(LDLIBS)
$(B)/tests/multi_tu: tests/compile/a.c tests/compile/b.c tests/compile/impl.c $(HEADERS) | $(B)/tests
	$(CC) $(CFLAGS_ALL) tests/compile/a.c tests/compile/b.c tests/compile/impl.c -o $@ $(LDLIBS)
compile-tests: $(B)/tests/cpp_compile $(B)/tests/multi_tu

# Fuzz targets also build as plain programs that replay their corpus (no libFuzzer needed).
$(B)/tests/replay_%: tests/fuzz/%.c tests/fuzz/replay.c tests/harness.h $(HEADERS) | $(B)/tests
	$(CC) $(CFLAGS_ALL) -DFUZZ_REPLAY $< tests/fuzz/replay.c -o $@ $(LDLIBS)
REPLAYS := $(patsubst %,$(B)/tests/replay_%,$(FUZZERS))

# The demo needs only a C compiler; what only the tests need is installed by make test.
run: all
	./$(B)/goal demo

# Everything make test runs, built (CI builds it once before running checks side by side).
build-tests: all $(TESTS) compile-tests $(REPLAYS) mpi-tests

test: deps build-tests
	@GOAL=./$(B)/goal tests/run.sh $(TESTS) $(B)/tests/cpp_compile $(B)/tests/multi_tu \
	    $(foreach r,$(REPLAYS),"$(r) tests/fuzz/$(patsubst $(B)/tests/replay_%,%,$(r))") $(SCRIPTS)

test-full: all $(TESTS)
	@GOAL_TEST_FULL=1 GOAL=./$(B)/goal tests/run.sh $(TESTS) $(SCRIPTS)

bench: $(BENCHES) $(B)/goal
	@for b in $(BENCHES); do echo "== $$b"; ./$$b || exit 1; done
	@bench/instructions.sh $(B)
	@bench/check.sh $(B)
	@bench/tune.sh $(B)
	@bench/html.sh $(B)

deps:
	@tools/deps.sh

# The shape figures: lines and long functions per header, repeated blocks, layering.
.PHONY: shape
shape:
	@tools/shape.sh

# make fuzz works on a copy of the tracked corpus (tests/fuzz/TARGET/) in $(B)/fuzz/TARGET-corpus,
# crashes go to $(B)/fuzz/TARGET-crash-*: a run leaves the checkout clean. make fuzz-merge adds
# to the tracked corpus the inputs of the working one that reach new coverage (a deliberate step).
fuzz: | $(B)/fuzz
	@for f in $(FUZZERS); do \
	  $(CLANG) -g -O1 -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined tests/fuzz/$$f.c -o $(B)/fuzz/$$f $(LDLIBS) || exit 1; \
	  mkdir -p $(B)/fuzz/$$f-corpus && cp -rn tests/fuzz/$$f/. $(B)/fuzz/$$f-corpus/ || exit 1; \
	  echo "== $$f for $(FUZZ_SECONDS) s"; \
	  ./$(B)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
	      -artifact_prefix=$(B)/fuzz/$$f- $(B)/fuzz/$$f-corpus >$(B)/fuzz/$$f.log 2>&1; rc=$$?; \
	  grep -E '^(stat::|==|SUMMARY|INFO: -max)' $(B)/fuzz/$$f.log; \
	  test $$rc -eq 0 || { echo "== $$f failed: $(B)/fuzz/$$f.log; replay the crash, fix it, then copy it into tests/fuzz/$$f/"; exit 1; }; \
	done

fuzz-merge:
	@for f in $(FUZZERS); do \
	  test -x $(B)/fuzz/$$f || { echo "fuzz-merge: no $(B)/fuzz/$$f: run make fuzz first"; exit 1; }; \
	  n=$$(ls tests/fuzz/$$f | wc -l); \
	  ./$(B)/fuzz/$$f -merge=1 tests/fuzz/$$f $(B)/fuzz/$$f-corpus >$(B)/fuzz/$$f-merge.log 2>&1 || { cat $(B)/fuzz/$$f-merge.log; exit 1; }; \
	  echo "== $$f: $$n -> $$(ls tests/fuzz/$$f | wc -l) inputs in tests/fuzz/$$f/"; \
	done

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The MPI scripts (test_qe.sh and test_record.sh among them, and test_readme.sh, which runs the README's mpirun
# lines) build or run their own programs, unsanitised, and test_compile.sh only compiles:
# make test runs them once.
check-asan:
	@$(MAKE) --no-print-directory B=build-asan OPT="-O1 -g $(SAN_FLAGS)" LDLIBS="$(LDLIBS) $(SAN_FLAGS)" \
	    build-asan/goal $(patsubst $(B)/%,build-asan/%,$(TESTS) $(REPLAYS) $(EXAMPLES))
	@GOAL=./build-asan/goal tests/run.sh $(patsubst $(B)/%,build-asan/%,$(TESTS)) \
	    $(foreach r,$(FUZZERS),"build-asan/tests/replay_$(r) tests/fuzz/$(r)") $(filter-out %_mpi.sh %_record.sh %_readme.sh %_qe.sh %_compile.sh,$(SCRIPTS))

check-tsan:
	@$(MAKE) --no-print-directory B=build-tsan OPT="-O1 -g -fsanitize=thread" LDLIBS="$(LDLIBS) -fsanitize=thread" \
	    $(patsubst $(B)/%,build-tsan/%,$(filter %_threads %/test_sched,$(TESTS)))
	@tests/run.sh $(patsubst $(B)/%,build-tsan/%,$(filter %_threads %/test_sched,$(TESTS)))

check-valgrind: $(TESTS)
	@GOAL_VALGRIND=1 tests/run.sh $(foreach t,$(filter-out %_threads,$(TESTS)),"valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=all $(t)")

# make install [PREFIX=/usr/local] [DESTDIR=]: the headers, the goal tool, its man page and
# goal.pc (pkg-config --cflags goal); make uninstall removes exactly those files.
VERSION := $(shell sed -n 's/^\#define GOAL_VERSION_STRING "\(.*\)"$$/\1/p' goal.h)
INSTALLED := $(addprefix include/,$(HEADERS)) bin/goal share/man/man1/goal.1 lib/pkgconfig/goal.pc
install: all
	mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp $(HEADERS) $(DESTDIR)$(PREFIX)/include/
	cp $(B)/goal $(DESTDIR)$(PREFIX)/bin/
	cp $(B)/goal.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	printf 'prefix=%s\nincludedir=$${prefix}/include\n\nName: goal\nDescription: %s\nVersion: %s\nCflags: -I$${includedir}\nLibs: -lpthread -lm\n' \
	    '$(PREFIX)' 'GOAL schedules for collective operations (header-only C99)' '$(VERSION)' >$(DESTDIR)$(PREFIX)/lib/pkgconfig/goal.pc
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))

clean:
	rm -rf build build-asan build-tsan

# ---- MPI: goal_mpi.h under Open MPI and MPICH (Debian's mpicc.<lib> / mpirun.<lib>) --------
# tests/test_mpi.sh runs tests/mpi/test_mpi.c and examples/mpi_*.c (make test runs
# it too, as one of the test scripts). bench-mpi: every collective's best libgoal algorithm against
# the library (bench/mpi/bench_mpi.c; CSV in $(B)/mpi/, summed up by bench/mpi/summary.awk).
BENCH_MPI_NP ?= 2 4
.PHONY: test-mpi bench-mpi mpi-lib mpi-tests
# The drop-in (mpi/goalmpi.c), one per MPI ABI: LD_PRELOAD it under an unmodified program;
# and goal-probe (mpi/goal_probe.c), which measures the LogGOPS parameters.
mpi-lib: $(B)/openmpi/libgoalmpi.so $(B)/mpich/libgoalmpi.so $(B)/openmpi/goal-probe $(B)/mpich/goal-probe
$(B)/%/libgoalmpi.so: mpi/goalmpi.c mpi/goalmpi_fortran.c mpi/goalmpi_record.c tools/record.h $(HEADERS)
	@mkdir -p $(@D)
	mpicc.$* $(WARN) -O3 -g -fPIC -shared -I. mpi/goalmpi.c -o $@ -lm -lpthread
# The drop-in under ASan and UBSan (tests/test_mpi.sh preloads gcc's runtimes with it).
$(B)/%/libgoalmpi-asan.so: mpi/goalmpi.c mpi/goalmpi_fortran.c mpi/goalmpi_record.c tools/record.h $(HEADERS)
	@mkdir -p $(@D)
	mpicc.$* $(WARN) -O1 -g $(SAN_FLAGS) -fPIC -shared -I. mpi/goalmpi.c -o $@ -lm -lpthread
# The programs the MPI test scripts run, one per library: $(B)/mpi/NAME.LIB from tests/mpi/NAME.c,
# examples/NAME.c or the Fortran tests. build-tests builds them all (side by side under make -j);
# a script run alone builds what it runs through these rules.
MPI_LIBS  := openmpi mpich
MPI_PROGS := test_mpi test_mpi_cxx test_dropin auto_pick test_record test_record_p2p test_record_p2p_mpi test_record_p2p_mpi_f08 \
             test_fortran test_fortran08 \
             $(patsubst examples/%.c,%,$(wildcard examples/mpi_*.c))
mpi-tests: mpi-lib $(foreach l,$(MPI_LIBS),$(patsubst %,$(B)/mpi/%.$(l),$(MPI_PROGS)))
vpath %.c tests/mpi examples
MPICC_PROG = mpicc$(suffix $@) $(WARN) -O2 -g -I. $< -o $@ -lm -lpthread
$(B)/mpi/%.openmpi: %.c $(HEADERS) | $(B)/mpi
	$(MPICC_PROG)
$(B)/mpi/%.mpich: %.c $(HEADERS) | $(B)/mpi
	$(MPICC_PROG)
# goal_mpi.h compiles as C++ too (without the deprecated MPI C++ bindings, which warn).
$(B)/mpi/test_mpi_cxx.%: tests/mpi/test_mpi.c $(HEADERS) | $(B)/mpi
	mpicxx.$* -x c++ -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -I. $< -o $@ -lm -lpthread
# test_fortran.f90 (use mpi) has persistent collectives where the library is MPI 4; its module
# file goes to $(B)/LIB/, one directory per library as make -j builds both at once.
$(B)/mpi/test_fortran.%: tests/mpi/test_fortran.f90 | $(B)/mpi
	@mkdir -p $(B)/$*
	mpif90.$* -cpp $$([ "$$(printf '#include <mpi.h>\nMPI_VERSION\n' | mpicc.$* -E -P - 2>/dev/null | tail -n 1)" -ge 4 ] 2>/dev/null && echo -DGOAL_MPI4) \
	    -O0 -g -w -J $(B)/$* $< -o $@
$(B)/mpi/test_fortran08.%: tests/mpi/test_fortran08.f90 | $(B)/mpi
	mpif90.$* -O0 -g $< -o $@
# test_record_p2p.f90 through `use mpi` and through mpi_f08 (-DGOAL_F08), module files apart.
$(B)/mpi/test_record_p2p_mpi.%: tests/mpi/test_record_p2p.f90 | $(B)/mpi
	@mkdir -p $(B)/$*/p2p_mpi
	mpif90.$* -cpp -O0 -g -w -J $(B)/$*/p2p_mpi $< -o $@
$(B)/mpi/test_record_p2p_mpi_f08.%: tests/mpi/test_record_p2p.f90 | $(B)/mpi
	@mkdir -p $(B)/$*/p2p_mpi_f08
	mpif90.$* -cpp -DGOAL_F08 -O0 -g -w -J $(B)/$*/p2p_mpi_f08 $< -o $@
test-mpi: deps $(B)/goal
	@B=$(B) tests/test_mpi.sh
bench-mpi: deps
	@mkdir -p $(B)/mpi
	@for lib in openmpi mpich; do \
	  mpicc.$$lib $(WARN) -O3 -g -DNDEBUG -I. bench/mpi/bench_mpi.c -o $(B)/mpi/bench_mpi.$$lib -lm -lpthread || exit 1; \
	  extra=; [ $$lib = openmpi ] && extra=--oversubscribe; \
	  for n in $(BENCH_MPI_NP); do \
	    echo "== $$lib, np $$n"; \
	    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun.$$lib $$extra -np $$n \
	        $(B)/mpi/bench_mpi.$$lib $$lib $(B)/mpi/bench-$$lib-np$$n.csv 2>/dev/null || \
	      echo "== $$lib, np $$n: stopped after 300 s (a loaded machine); the CSV has the cells measured until then"; \
	  done; \
	done
	@echo "== libgoal's best algorithm / the library, every run (the tables above name the algorithms)"
	@awk -f bench/mpi/summary.awk $(foreach lib,openmpi mpich,$(foreach n,$(BENCH_MPI_NP),$(B)/mpi/bench-$(lib)-np$(n).csv))
	@$(MAKE) --no-print-directory mpi-lib >/dev/null
	@echo "== the drop-in's per-call cost (libgoalmpi.so preloaded: MPI_* through libgoal, PMPI_* the library's own)"
	@for lib in openmpi mpich; do \
	  mpicc.$$lib $(WARN) -O2 bench/mpi/bench_dropin.c -o $(B)/mpi/bench_dropin.$$lib || exit 1; \
	  for n in $(BENCH_MPI_NP); do \
	    if [ $$lib = openmpi ]; then run="mpirun.openmpi --oversubscribe -x LD_PRELOAD=$(CURDIR)/$(B)/openmpi/libgoalmpi.so"; \
	    else run="mpirun.mpich -env LD_PRELOAD $(CURDIR)/$(B)/mpich/libgoalmpi.so"; fi; \
	    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 $$run -np $$n \
	        $(B)/mpi/bench_dropin.$$lib $$lib 2>/dev/null | { [ $$lib$$n = openmpi2 ] && cat || tail -n +2; } || exit 1; \
	  done; \
	done
	@$(MAKE) --no-print-directory bench-model
# bench-calls: libgoal's own instructions per small collective call (8 B, np 2, Open MPI;
# callgrind over bench/mpi/bench_calls.c, MPI's instructions excluded), then the drop-in's per
# MPI_Bcast, MPI_Allreduce and MPI_Barrier (libgoalmpi.so preloaded).
.PHONY: bench-calls
bench-calls: $(B)/openmpi/libgoalmpi.so
	@mkdir -p $(B)/mpi
	@mpicc.openmpi $(WARN) -O3 -g -DNDEBUG -I. bench/mpi/bench_calls.c -o $(B)/mpi/bench_calls.openmpi -lm -lpthread
	@bench/mpi/calls.sh $(B)
# bench-steps: Rabenseifner's allreduce at np 2, its steps alone and one after the other, in bare MPI
# calls, and libgoal's call (bench/mpi/bench_steps.c; both libraries).
.PHONY: bench-steps
bench-steps:
	@mkdir -p $(B)/mpi
	@for lib in openmpi mpich; do \
	  mpicc.$$lib $(WARN) -O3 -g -DNDEBUG -I. bench/mpi/bench_steps.c -o $(B)/mpi/bench_steps.$$lib -lm -lpthread || exit 1; \
	  extra=; [ $$lib = openmpi ] && extra=--oversubscribe; echo "== $$lib"; \
	  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun.$$lib $$extra -np 2 $(B)/mpi/bench_steps.$$lib || exit 1; \
	done
# bench-model (part of bench-mpi): per library, BENCH_MODEL_PROBES probes back to back, then
# bench_model at np 2 under each probe's line (bench/mpi/bench_model.c); the machine's load
# (uptime) before each, as shared machines make the timings noisy; a probe after the runs, set
# against those before (bench/mpi/drift.awk: did the machine keep its speed?); then how far one
# algorithm's time moves between the runs (bench/mpi/spread.awk). BENCH_MODEL_PROBE_ARGS: the
# goal-probe options; by default the table of costs per byte up to 16 MiB (empty: one G).
BENCH_MODEL_PROBES ?= 3
BENCH_MODEL_PROBE_ARGS ?= --two-regimes --max-size 16777216
.PHONY: bench-model
bench-model: $(B)/openmpi/goal-probe $(B)/mpich/goal-probe
	@mkdir -p $(B)/mpi
	@echo "== np 2: the model (goal-probe's parameters) against the machine; auto against every fixed algorithm"
	@for lib in openmpi mpich; do \
	  mpicc.$$lib $(WARN) -O3 -g -DNDEBUG -I. bench/mpi/bench_model.c -o $(B)/mpi/bench_model.$$lib -lm -lpthread || exit 1; \
	  extra=; [ $$lib = openmpi ] && extra=--oversubscribe; rm -f $(B)/mpi/model-$$lib-*.csv; \
	  for k in $$(seq $(BENCH_MODEL_PROBES)); do \
	    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun.$$lib $$extra -np 2 \
	        $(B)/$$lib/goal-probe $(BENCH_MODEL_PROBE_ARGS) -o $(B)/mpi/probe-$$lib-$$k.params > $(B)/mpi/probe-$$lib-$$k.out 2>&1 || exit 1; \
	  done; \
	  for k in $$(seq $(BENCH_MODEL_PROBES)); do \
	    echo "-- $$lib, probe $$k of $(BENCH_MODEL_PROBES) ($$(grep -E '^# (S|R) runs' $(B)/mpi/probe-$$lib-$$k.out | tr '\n' ' '));$$(uptime | sed 's/.*load/ load/')"; \
	    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 900 mpirun.$$lib $$extra -np 2 \
	        $(B)/mpi/bench_model.$$lib $(B)/mpi/probe-$$lib-$$k.params --csv $(B)/mpi/model-$$lib-$$k.csv 2>/dev/null || exit 1; \
	  done; \
	  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun.$$lib $$extra -np 2 \
	      $(B)/$$lib/goal-probe $(BENCH_MODEL_PROBE_ARGS) -o $(B)/mpi/probe-$$lib-after.params > $(B)/mpi/probe-$$lib-after.out 2>&1 || exit 1; \
	  echo "-- $$lib: $$(awk -f bench/mpi/median.awk -f bench/mpi/drift.awk $$(seq -f '$(B)/mpi/probe-'$$lib'-%g.params' $(BENCH_MODEL_PROBES)) $(B)/mpi/probe-$$lib-after.params)"; \
	done
	@echo "== np 2: one algorithm's measured time in the runs above (one per probe): its slowest over its fastest (bench/mpi/spread.awk)"
	@awk -f bench/mpi/median.awk -f bench/mpi/spread.awk $(B)/mpi/model-openmpi-*.csv $(B)/mpi/model-mpich-*.csv

# ---- goal-probe: LogGOPS parameters measured between two MPI ranks ----------------
# mpirun -np 2 $(B)/openmpi/goal-probe [-o FILE]; the measurement and fit are tools/probe.h
# (tested without MPI by tests/test_probe.c).
$(B)/%/goal-probe: mpi/goal_probe.c tools/probe.h $(HEADERS)
	@mkdir -p $(@D)
	mpicc.$* $(WARN) -O2 -g -I. $< -o $@ -lm
$(B)/tests/test_probe: tools/probe.h
