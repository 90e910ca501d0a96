# vramfit: a GPU memory estimation engine. Plain make; see README.md.
#   make            ./vramfit, build/libvramfit.a, build/libvramfit.so
#   make test       unit tests (ASan+UBSan), Lua-side tests, golden CLI tests
#   make demo       the built-in example scenario
#   make calibrate  every case of ../shared/calibration, predicted vs measured
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

LIB_SRC = $(filter-out src/cli.c,$(wildcard src/*.c))
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

$(BIN): src/cli.c $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ src/cli.c $(B)/libvramfit.a $(PKG_LIBS)

$(B)/asan/vramfit: src/cli.c $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ src/cli.c $(SAN_OBJ) $(PKG_LIBS)

$(B)/mkmodel: tools/mkmodel.c tools/mkmodel_lib.c tools/mkmodel_lib.h $(B)/libvramfit.a
	$(CC) $(ALL_CFLAGS) -o $@ tools/mkmodel.c tools/mkmodel_lib.c $(B)/libvramfit.a $(PKG_LIBS)

$(B)/asan/test_%: tests/test_%.c tests/testutil.h tests/apiutil.h $(SAN_OBJ) $(TOOLS_LIB)
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
	$(B)/calibrate $(CALIBRATION)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(DATADIR)/scripts/optimizers $(DESTDIR)$(DATADIR)/scripts/runtimes $(DESTDIR)$(DATADIR)/architectures
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/vramfit
	install -m 644 $(B)/libvramfit.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libvramfit.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/vramfit.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 scripts/*.lua $(DESTDIR)$(DATADIR)/scripts/
	install -m 644 scripts/optimizers/*.lua $(DESTDIR)$(DATADIR)/scripts/optimizers/
	install -m 644 scripts/runtimes/*.lua $(DESTDIR)$(DATADIR)/scripts/runtimes/
	install -m 644 architectures/*.lua $(DESTDIR)$(DATADIR)/architectures/

clean:
	rm -rf $(B) $(BIN)
