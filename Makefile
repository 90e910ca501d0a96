# vramfit: a GPU memory estimation engine. Plain make; see README.md.
#   make            ./vramfit, build/libvramfit.a, build/libvramfit.so
#   make test       unit tests (ASan+UBSan), Lua-side tests, golden CLI tests
#   make demo       the built-in example scenario
#   make calibrate  every case of ../shared/calibration, predicted vs measured, after DeepSpeed's
#                   own estimators against their published printout (tests/calibration/crosscheck)
#   make install PREFIX=/usr/local

# B is the build directory and BIN the command: several worktrees or people can build
# side by side with `make B=build-x BIN=build-x/vramfit`.
B ?= build
BIN ?= vramfit
PREFIX ?= /usr/local
DATADIR = $(PREFIX)/share/vramfit
CC ?= cc
PKGS = lua5.4 libpcre2-8 jansson
CALIBRATION ?= ../shared/calibration

# pkg-config runs when a recipe runs (=, not :=), after $(B)/.deps installed the packages
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS)) -lm
WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(WARN) $(CFLAGS) -fPIC -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc -Itools -I$(B) \
             -DVF_DATADIR='"$(DATADIR)"' $(PKG_CFLAGS)
SAN = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# the command's own files (CLI_SRC) are not part of the library
CLI_SRC = src/cli.c src/cli_batch.c src/report_svg.c
LIB_SRC = $(filter-out $(CLI_SRC),$(wildcard src/*.c))
LIB_OBJ = $(LIB_SRC:src/%.c=$(B)/obj/%.o) $(B)/obj/embedded.o
SAN_OBJ = $(LIB_SRC:src/%.c=$(B)/asan/%.o) $(B)/asan/embedded.o
SCRIPTS = $(sort $(wildcard scripts/*.lua scripts/*/*.lua architectures/*.lua))
TESTS = $(patsubst tests/%.c,$(B)/asan/%,$(wildcard tests/test_*.c))
TOOLS_LIB = $(B)/asan/mkmodel_lib.o

.PHONY: all test demo calibrate install clean unit deps

all: $(BIN) $(B)/libvramfit.a $(B)/libvramfit.so $(B)/mkmodel $(B)/calibrate

$(B)/.deps: scripts/install-deps.sh
	sh scripts/install-deps.sh
	mkdir -p $(B)/obj $(B)/asan
	touch $@

deps: $(B)/.deps

$(B)/embed: tools/embed.c | $(B)/.deps
	$(CC) -O2 -o $@ tools/embed.c

$(B)/embedded.c: $(B)/embed $(SCRIPTS)
	$(B)/embed $@ $(SCRIPTS)

$(B)/obj/%.o: src/%.c src/*.h include/vramfit.h | $(B)/.deps
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/obj/embedded.o: $(B)/embedded.c src/embedded.h
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/asan/%.o: src/%.c src/*.h include/vramfit.h | $(B)/.deps
	$(CC) $(ALL_CFLAGS) $(SAN) -c $< -o $@

$(B)/asan/embedded.o: $(B)/embedded.c src/embedded.h
	$(CC) $(ALL_CFLAGS) $(SAN) -c $< -o $@

$(B)/asan/mkmodel_lib.o: tools/mkmodel_lib.c tools/mkmodel_lib.h | $(B)/.deps
	$(CC) $(ALL_CFLAGS) $(SAN) -c $< -o $@

$(B)/libvramfit.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $(LIB_OBJ)

$(B)/libvramfit.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libvramfit.so.0 -o $@ $(LIB_OBJ) $(PKG_LIBS)

$(BIN): $(CLI_SRC) src/*.h $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_SRC) $(B)/libvramfit.a $(PKG_LIBS)

$(B)/asan/vramfit: $(CLI_SRC) src/*.h $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $(CLI_SRC) $(SAN_OBJ) $(PKG_LIBS)

$(B)/mkmodel: tools/mkmodel.c tools/mkmodel_lib.c tools/mkmodel_lib.h $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ tools/mkmodel.c tools/mkmodel_lib.c $(B)/libvramfit.a $(PKG_LIBS)

$(B)/asan/test_%: tests/test_%.c tests/testutil.h tests/apiutil.h tests/holdout_models.h tests/tmpdir.h $(SAN_OBJ) $(TOOLS_LIB)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $< $(SAN_OBJ) $(TOOLS_LIB) $(PKG_LIBS) $(shell pkg-config --libs cmocka)

unit: $(TESTS)
	@for t in $(TESTS); do echo "== $$t"; ASAN_OPTIONS=detect_leaks=1 $$t || exit 1; done

test: all $(TESTS) $(B)/asan/vramfit
	B=$(B) BIN=$(BIN) sh tests/run_all.sh

demo: $(BIN)
	./$(BIN) estimate examples/demo.lua
	./$(BIN) fit examples/demo.lua --gpu RTX-4090-24GB --gpu L40S --gpu H100 --gpu H200

$(B)/calibrate: tools/calibrate.c $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ tools/calibrate.c $(B)/libvramfit.a $(PKG_LIBS)

calibrate: $(B)/calibrate
	@echo "== DeepSpeed's own model-state estimators against their published printout (tests/calibration/crosscheck)"
	$(B)/calibrate tests/calibration/crosscheck
	@echo "== $(CALIBRATION)"
	$(B)/calibrate $(CALIBRATION) --corrections tests/calibration/corrections.jsonl

# the shared library as libvramfit.so.X.Y.Z with the soname link .so.0 and the dev link .so
install: all $(B)/vramfit.so vramfit.pc.in docs/vramfit.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/lib/lua/5.4 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/vramfit
	install -m 644 $(B)/libvramfit.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libvramfit.so $(DESTDIR)$(PREFIX)/lib/libvramfit.so.$(VF_VERSION)
	ln -sf libvramfit.so.$(VF_VERSION) $(DESTDIR)$(PREFIX)/lib/libvramfit.so.0
	ln -sf libvramfit.so.0 $(DESTDIR)$(PREFIX)/lib/libvramfit.so
	install -m 755 $(B)/vramfit.so $(DESTDIR)$(PREFIX)/lib/lua/5.4/vramfit.so
	install -m 644 include/vramfit.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VF_VERSION)|g' vramfit.pc.in \
	  >$(DESTDIR)$(PREFIX)/lib/pkgconfig/vramfit.pc
	install -m 644 docs/vramfit.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	for f in $(SCRIPTS); do install -D -m 644 $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done

clean:
	rm -rf $(B) $(BIN)

# --- hard: libFuzzer targets (clang from Debian), their replay drivers, the bad-input corpus
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="gguf units"]   each target for FUZZ_SECONDS;
#   new inputs go to $(B)/fuzz/corpus/T, crashes to $(B)/fuzz/crashes/T (copy each one to
#   tests/fuzz/regress/T/: make test replays it).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= gguf safetensors config scenario units
FUZZ_SAN = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined
FUZZ_OBJ = $(LIB_SRC:src/%.c=$(B)/fuzz/%.o) $(B)/fuzz/embedded.o
REPLAYS = $(patsubst tests/fuzz/fuzz_%.c,$(B)/asan/replay_%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: fuzz fuzz-build
.PRECIOUS: $(B)/fuzz/%.o

$(B)/fuzz/%.o: src/%.c src/*.h include/vramfit.h | $(B)/.deps
	@mkdir -p $(B)/fuzz
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_SAN) -c $< -o $@

$(B)/fuzz/embedded.o: $(B)/embedded.c src/embedded.h
	@mkdir -p $(B)/fuzz
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_SAN) -c $< -o $@

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_engine.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(PKG_LIBS)

$(B)/asan/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_engine.h $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ tests/fuzz/replay.c $< $(SAN_OBJ) $(PKG_LIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(B)/fuzz/corpus/$$t $(B)/fuzz/crashes/$$t; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 $$dict -artifact_prefix=$(B)/fuzz/crashes/$$t/ \
	    $(B)/fuzz/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done

test: $(REPLAYS) $(B)/mkmodel

# --- embed: the Lua module, the ThreadSanitizer run of tests/test_threads.c
#   make lua-module   $(B)/vramfit.so, loadable by a stock lua5.4 (require "vramfit")
#   make tsan         the library built with -fsanitize=thread in $(B)/tsan, and the thread test
VF_VERSION = $(shell sed -n 's/^\#define VF_VERSION_STRING "\(.*\)"/\1/p' include/vramfit.h)
TSAN = -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_OBJ = $(LIB_SRC:src/%.c=$(B)/tsan/%.o) $(B)/tsan/embedded.o

.PHONY: lua-module tsan

lua-module: $(B)/vramfit.so

$(B)/vramfit.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $(LIB_OBJ) $(PKG_LIBS)

$(B)/tsan/%.o: src/%.c src/*.h include/vramfit.h | $(B)/.deps
	@mkdir -p $(B)/tsan
	$(CC) $(ALL_CFLAGS) $(TSAN) -c $< -o $@

$(B)/tsan/embedded.o: $(B)/embedded.c src/embedded.h
	@mkdir -p $(B)/tsan
	$(CC) $(ALL_CFLAGS) $(TSAN) -c $< -o $@

$(B)/tsan/test_threads: tests/test_threads.c $(TSAN_OBJ)
	$(CC) $(ALL_CFLAGS) $(TSAN) -pthread -o $@ $< $(TSAN_OBJ) $(PKG_LIBS) $(shell pkg-config --libs cmocka)

tsan: $(B)/tsan/test_threads
	TSAN_OPTIONS=halt_on_error=1 $(B)/tsan/test_threads

# make test runs the thread test under TSan and the examples against an installed tree
test: $(B)/tsan/test_threads $(B)/vramfit.so

# --- llamacpp
# make conformance (not part of make test; needs node >= 20 and npm): synthetic GGUF files
# from mkmodel loaded in the real llama.cpp (node-llama-cpp, installed into the ignored
# tests/conformance/node_modules), every CPU-backend buffer compared with vramfit's.
conformance: $(BIN) $(B)/mkmodel
	cd tests/conformance && { [ -d node_modules/node-llama-cpp ] || npm ci --ignore-scripts --no-audit --no-fund; }
	node tests/conformance/conformance.mjs --vramfit $(BIN) --mkmodel $(B)/mkmodel --work $(B)/conformance
.PHONY: conformance

# --- batch: make bench (figures printed, not asserted); make browser-test (headless
# Chromium loads the HTML report; installs Debian's chromium when it is missing)
.PHONY: bench browser-test
$(B)/bench: tools/bench.c $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ tools/bench.c $(B)/libvramfit.a $(PKG_LIBS)

bench: $(B)/bench $(BIN)
	$(B)/bench $(BIN)

browser-test: $(BIN)
	sh tests/browser/run.sh $(BIN)
