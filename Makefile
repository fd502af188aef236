# pgbind -- generated C bindings for PostgreSQL parse trees.
#
#   make                  build the library and the pgbind command (build/)
#   make regen            extract the node model (libclang) and regenerate generated/
#   make check-generated  fail when generated/ differs from what the inputs generate
#   make check            everything above, the unit tests and the verification suite
#   make install          PREFIX=/usr/local DESTDIR=
#
# Inputs default to the Debian packages; scripts/install-deps.sh installs what is missing.

PREFIX      ?= /usr/local
DESTDIR     ?=
CC          ?= cc
BUILD       := build

# The Debian packages are installed while the Makefile is read, before anything below reads an
# installed file (PG_MAJOR comes from pg_query.h): on a fresh machine the first `make regen` must
# see the same inputs as the second. The top-level make does it once (sub-makes inherit it);
# `make clean` needs nothing installed.
ifeq ($(MAKELEVEL),0)
ifneq ($(MAKECMDGOALS),clean)
ifneq ($(shell scripts/install-deps.sh >&2 && echo ok),ok)
$(error scripts/install-deps.sh failed (above): the Debian packages pgbind needs are not installed)
endif
endif
endif

# The inputs. By default Debian's packages; PG_QUERY_DIR=<a libpg_query source/build tree> takes
# everything from that tree instead: its pg_query.h, libpg_query.a, protobuf/pg_query.proto and
# src/postgres/include (the PostgreSQL headers the library was built with).
ifdef PG_QUERY_DIR
PG_QUERY_INCLUDES := -I$(PG_QUERY_DIR) -I$(PG_QUERY_DIR)/src -I$(PG_QUERY_DIR)/protobuf -I$(PG_QUERY_DIR)/vendor
PG_QUERY_PROTO    := $(PG_QUERY_DIR)/protobuf/pg_query.proto
PG_INCLUDE_SERVER := $(PG_QUERY_DIR)/src/postgres/include
PG_QUERY_LIBS     := $(PG_QUERY_DIR)/libpg_query.a
PG_QUERY_STATIC   := $(PG_QUERY_DIR)/libpg_query.a
PG_MAJOR          := $(shell sed -n 's/^\#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' $(PG_QUERY_DIR)/pg_query.h)
else
PG_CONFIG         ?= pg_config
PG_INCLUDE_SERVER ?= $(shell $(PG_CONFIG) --includedir-server 2>/dev/null)
PG_QUERY_INCLUDES ?= -I/usr/include/pg_query
PG_QUERY_PROTO    ?= /usr/include/pg_query/pg_query.proto
PG_QUERY_LIBS     ?= -lpg_query
PG_MAJOR          ?= $(shell sed -n 's/^\#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' /usr/include/pg_query.h 2>/dev/null)
endif
ifeq ($(PG_MAJOR),)
ifneq ($(MAKECMDGOALS),clean)
$(error cannot read PG_MAJORVERSION from $(if $(PG_QUERY_DIR),$(PG_QUERY_DIR)/pg_query.h,/usr/include/pg_query.h): is libpg_query there?)
endif
endif
# The model and the exceptions are per PostgreSQL major: schema/pg15/, schema/pg16/, ...
SCHEMA      := schema/pg$(PG_MAJOR)
MODEL       := $(SCHEMA)/nodes.json
# The exceptions: those of every version, then the version's own (if it needs any).
OVERRIDES   := schema/overrides.txt $(wildcard $(SCHEMA)/overrides.txt)
# The deparse contract of the version's libpg_query (tools/deparse-probe writes it).
OVERRIDES   += $(wildcard $(SCHEMA)/deparse.txt)

LLVM_DIR    ?= /usr/lib/llvm-14
CLANG_RESOURCE_DIR ?= $(firstword $(wildcard $(LLVM_DIR)/lib/clang/*))

WARN        := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD        := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT         ?= -O2 -g
SAN         ?=
SANFLAGS    := $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer,)
CFLAGS_ALL  := $(CSTD) $(OPT) $(WARN) $(SANFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)

GEN_SRCS    := generator/common.c generator/proto_read.c generator/template.c generator/overrides.c generator/names.c \
               generator/classify.c generator/deparse_rules.c generator/main.c
EXTRACT_SRCS := generator/common.c generator/extract.c
TEMPLATES   := $(wildcard templates/*/*.tmpl)
GENERATED   := generated/c/pgbind_ast.h generated/c/from_pg.inc.c generated/c/encode.inc.c generated/c/decode.inc.c generated/c/equal.inc.c generated/c/to_pg.inc.c generated/c/walk.inc.c \
               generated/c/reflect.inc.c generated/c/deparse.inc.c

RT_SRCS     := runtime/arena.c runtime/from_pg.c runtime/to_pg.c runtime/pg_route.c runtime/encode.c runtime/decode.c runtime/equal.c runtime/reflect.c runtime/text.c \
               runtime/json.c runtime/walk.c runtime/normalize.c runtime/fingerprint.c runtime/contract.c runtime/stack.c
RT_OBJS     := $(RT_SRCS:runtime/%.c=$(BUILD)/rt/%.o)
RT_PIC_OBJS := $(RT_SRCS:runtime/%.c=$(BUILD)/rt-pic/%.o)
# Optional entry points of the linked libpg_query, found by linking a probe: forks export a
# node-level deparser, 18.1 a token scanner without protobuf.
HAVE_SYMBOL = $(shell printf 'char %s(void); int main(void) { return (int)%s(); }' $(1) $(1) | \
	$(CC) -x c - -x none -o /dev/null $(LDFLAGS) $(PG_QUERY_LIBS) >/dev/null 2>&1 && echo yes)
# The protobuf library it is built with: protobuf-c up to 17 (its pg_query.pb-c.h is installed,
# and the verifier and the benchmark compare with it), upb from 18 (no C message types installed).
PG_QUERY_PBC_H := $(firstword $(wildcard $(patsubst -I%,%/pg_query.pb-c.h,$(filter -I%,$(PG_QUERY_INCLUDES)))))
# libpg_query's node-level deparser, deparseRawStmt (exported by 17 and 18), is called from pgbind only
# with the library's own PostgreSQL headers: there its error handler stack is thread-local, as in
# the library, so that pgbind can catch what the deparser raises.
PG_HEADERS_ARE_LIBPG_QUERYS := $(shell grep -qs '__thread sigjmp_buf \*PG_exception_stack' \
	$(PG_INCLUDE_SERVER)/utils/elog.h && echo yes)
PG_QUERY_FEATURES := $(if $(call HAVE_SYMBOL,pg_query_deparse_nodes),-DPGBIND_HAVE_DEPARSE_NODES) \
                     $(if $(PG_HEADERS_ARE_LIBPG_QUERYS),$(if $(call HAVE_SYMBOL,deparseRawStmt),-DPGBIND_HAVE_DEPARSE_RAW_STMT)) \
                     $(if $(call HAVE_SYMBOL,pg_query_scan_tokens),-DPGBIND_HAVE_SCAN_TOKENS) \
                     $(if $(PG_QUERY_PBC_H),-DPGBIND_HAVE_PROTOBUF_C)
RT_CFLAGS   := -Iruntime -Igenerated/c $(PG_QUERY_INCLUDES) -I$(PG_INCLUDE_SERVER) $(PG_QUERY_FEATURES)
CLI_SRCS    := cli/pgbind.c cli/verify.c cli/verify_pg.c cli/json_verify.c cli/input.c cli/bench.c

# Two cores here, as on CI: build in parallel unless the caller chose (make -jN).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

.PHONY: lib print-build-env rust deparse-probe
.PHONY: all deps regen extract generate check-generated check-format format check check-versions check-fresh unit-tests clean install fuzz \
        fuzz-build bench \
        san-build

all: deps $(BUILD)/pgbind $(BUILD)/libpgbind.a $(BUILD)/libpgbind.so

# The packages are checked (fast) and installed when the Makefile is read (above); `make deps`
# does only that.
deps:

# Every build rule waits for this (order-only), and it waits for deps, so that a parallel make
# on a fresh machine installs the packages before compiling anything.
$(BUILD)/.dir: | deps
	@mkdir -p $(BUILD)/rt $(BUILD)/rt-pic $(BUILD)/tests && touch $@

# ---- generator ----------------------------------------------------------------------------------

$(BUILD)/pgbind-gen: $(GEN_SRCS) $(wildcard generator/*.h) | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -o $@ $(GEN_SRCS) $(LDFLAGS_ALL) -ljansson

$(BUILD)/pgbind-extract: $(EXTRACT_SRCS) generator/common.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -I$(LLVM_DIR)/include -DPGBIND_CLANG_RESOURCE_DIR='"$(CLANG_RESOURCE_DIR)"' \
		-o $@ $(EXTRACT_SRCS) $(LDFLAGS_ALL) -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -ljansson

# One classification, every target: each --templates DIR is rendered into the --out DIR after it.
GEN_TARGETS = --templates templates/c --out generated/c --templates templates/rust --out generated/rust
GEN_ARGS = --model $(MODEL) --proto $(PG_QUERY_PROTO) $(addprefix --overrides ,$(OVERRIDES)) $(GEN_TARGETS)

# The model is checked in: generating code needs jansson only. Extraction needs libclang.
EXTRACT_CMD = mkdir -p $(SCHEMA) && $(BUILD)/pgbind-extract --include-dir $(PG_INCLUDE_SERVER) --out $(MODEL)
GENERATE_CMD = $(BUILD)/pgbind-gen $(GEN_ARGS)

extract: deps $(BUILD)/pgbind-extract
	$(EXTRACT_CMD)

generate: deps $(BUILD)/pgbind-gen
	$(GENERATE_CMD)

# One recipe, so that make -j cannot generate before the model is written.
regen: deps $(BUILD)/pgbind-extract $(BUILD)/pgbind-gen
	$(EXTRACT_CMD)
	$(GENERATE_CMD)

check-generated: deps $(BUILD)/pgbind-gen
	$(BUILD)/pgbind-gen $(GEN_ARGS) --check

# The hand-written C follows .clang-format (generated/ follows its templates): `make format`
# applies it, `make check-format` (part of make check) fails on a file that differs.
CLANG_FORMAT ?= clang-format
# The tracked files; in a copy that is no git checkout (make check-versions' copies), the files.
FORMAT_FILES = $(shell { if test -e .git; then git ls-files '*.c' '*.h'; else find . -path ./build -prune -o \
	\( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort; fi; } | grep -v '^generated/')

format: deps
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

check-format: deps
	@test -n "$(FORMAT_FILES)" || { echo "check-format: no C files found" >&2; exit 1; }
	$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)

# ---- runtime, library, CLI ----------------------------------------------------------------------

$(BUILD)/rt/%.o: runtime/%.c $(wildcard runtime/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -c -o $@ $<

$(BUILD)/rt-pic/%.o: runtime/%.c $(wildcard runtime/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -fPIC -fvisibility=hidden -DPGBIND_BUILDING_SHARED -c -o $@ $<

$(BUILD)/libpgbind.a: $(RT_OBJS)
	rm -f $@ && ar rcs $@ $^

SONAME := libpgbind.so.0

# A libpg_query.a linked in (PG_QUERY_DIR) stays inside: only pgbind_ symbols are exported.
$(BUILD)/libpgbind.so: $(RT_PIC_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--exclude-libs,ALL -o $@ $^ $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# The command links libpg_query statically where it can, with malloc wrapped, so that
# `pgbind bench` counts every allocation, libpg_query's and protobuf-c's included.
, := ,
PG_QUERY_STATIC ?= $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libpg_query.a /usr/lib/libpg_query.a))
CLI_LIBS := $(if $(PG_QUERY_STATIC),$(PG_QUERY_STATIC) -Wl$(,)--wrap=malloc$(,)--wrap=calloc$(,)--wrap=realloc$(,)--wrap=free$(,)--wrap=strdup,$(PG_QUERY_LIBS))

$(BUILD)/pgbind: $(CLI_SRCS) cli/cli.h cli/bench.h $(BUILD)/libpgbind.a
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -o $@ $(CLI_SRCS) $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(CLI_LIBS) -pthread

# The static library alone, and what a build script that links it needs to know (the Rust
# crate's bindings/rust/build.rs runs both): one NAME=value a line.
lib: deps $(BUILD)/libpgbind.a

print-build-env:
	@echo "BUILD=$(abspath $(BUILD))"
	@echo "PG_QUERY_LIBS=$(PG_QUERY_LIBS)"
	@echo "PG_QUERY_PROTO=$(PG_QUERY_PROTO)"
	@echo "PG_QUERY_INCLUDES=$(PG_QUERY_INCLUDES)"
	@echo "PG_INCLUDE_SERVER=$(PG_INCLUDE_SERVER)"
	@echo "PG_MAJOR=$(PG_MAJOR)"

# ---- the Rust crate (bindings/rust) -------------------------------------------------------------

# Debian's toolchain, never a newer one earlier on PATH (its Cargo.lock would be unreadable to
# Debian's cargo); offline, from the crates Debian installs (bindings/rust/.cargo/config.toml).
CARGO       ?= /usr/bin/cargo
RUSTC       ?= /usr/bin/rustc
CARGO_RUN   := cd bindings/rust && CARGO_TARGET_DIR=$(abspath $(BUILD))/rust RUSTC=$(RUSTC) $(CARGO)

rust: deps $(BUILD)/libpgbind.a
	$(CARGO_RUN) build --release --tests

# ---- examples (the API tour; built and run by make check) --------------------------------------

EXAMPLES := $(BUILD)/examples/tables $(BUILD)/examples/rewrite

$(BUILD)/examples/%: examples/%.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# ---- benchmark -----------------------------------------------------------------------------------

bench: all rust
	$(BUILD)/pgbind bench
	$(BUILD)/pgbind bench --growth
	$(CARGO_RUN) bench

# ---- tests --------------------------------------------------------------------------------------

$(BUILD)/tests/test_proto_read: tests/unit/test_proto_read.c generator/proto_read.c generator/common.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -o $@ $^ $(LDFLAGS_ALL) -ljansson

$(BUILD)/tests/test_template: tests/unit/test_template.c generator/template.c generator/common.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -o $@ $^ $(LDFLAGS_ALL) -ljansson

$(BUILD)/tests/test_classify: tests/unit/test_classify.c generator/classify.c generator/deparse_rules.c generator/overrides.c \
		generator/proto_read.c generator/common.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -o $@ $^ $(LDFLAGS_ALL) -ljansson

$(BUILD)/tests/test_input: tests/unit/test_input.c cli/input.c cli/cli.h tests/check.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Icli $(PG_QUERY_INCLUDES) -o $@ tests/unit/test_input.c cli/input.c $(LDFLAGS_ALL) $(PG_QUERY_LIBS) \
		-pthread

# The C test programs share their CHECK counter.
$(addprefix $(BUILD)/tests/,test_parse test_decode test_property test_json test_walk test_hardening \
	test_hardening_wrap test_hardening_tsan test_deparse test_normalize): tests/check.h tests/rev_writer.h

$(BUILD)/tests/test_deparse: tests/test_deparse.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS)

$(BUILD)/tests/test_normalize: tests/test_normalize.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

$(BUILD)/tests/test_parse: tests/test_parse.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS)

$(BUILD)/tests/test_decode: tests/test_decode.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS)

$(BUILD)/tests/test_property: tests/test_property.c $(BUILD)/libpgbind.a generated/c/c_fields.inc.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS)

# These two read SQL files as `pgbind verify` does: with cli/input.c.
$(BUILD)/tests/test_json: tests/test_json.c cli/input.c cli/cli.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -o $@ $< cli/input.c $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) \
		-pthread

$(BUILD)/tests/test_walk: tests/test_walk.c cli/input.c cli/cli.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -o $@ $< cli/input.c $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) \
		-pthread

$(BUILD)/tests/test_hardening: tests/test_hardening.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# The same test with pgbind's own malloc calls failable one by one (libpg_query, a shared library
# here, is not affected by the wrap).
$(BUILD)/tests/test_hardening_wrap: tests/test_hardening.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) -lpg_query -pthread \
		-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# ThreadSanitizer: the runtime compiled into the test so that it is instrumented.
$(BUILD)/tests/test_hardening_tsan: tests/test_hardening.c $(RT_SRCS) $(wildcard runtime/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CSTD) -O1 -g -fsanitize=thread -fno-omit-frame-pointer $(RT_CFLAGS) -o $@ tests/test_hardening.c \
		$(RT_SRCS) $(PG_QUERY_LIBS) -pthread

UNIT_TESTS := $(BUILD)/tests/test_proto_read $(BUILD)/tests/test_template $(BUILD)/tests/test_classify \
              $(BUILD)/tests/test_input \
              $(BUILD)/tests/test_parse $(BUILD)/tests/test_decode $(BUILD)/tests/test_property \
              $(BUILD)/tests/test_json $(BUILD)/tests/test_walk $(BUILD)/tests/test_hardening \
              $(BUILD)/tests/test_hardening_tsan $(if $(PG_QUERY_DIR),,$(BUILD)/tests/test_hardening_wrap) \
              $(BUILD)/tests/test_deparse $(BUILD)/tests/test_normalize $(BUILD)/tests/mutate_deparse $(BUILD)/tests/test_stack

# The same tests built with AddressSanitizer and UndefinedBehaviorSanitizer (make check runs them).
SAN_BUILD := $(BUILD)/san
SAN_TESTS := $(SAN_BUILD)/pgbind $(SAN_BUILD)/tests/test_parse $(SAN_BUILD)/tests/test_decode \
             $(SAN_BUILD)/tests/test_json $(SAN_BUILD)/tests/test_property $(SAN_BUILD)/tests/test_walk

san-build: $(GENERATED)
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) SAN=address,undefined OPT="-O1 -g" \
		CFLAGS="-fno-sanitize-recover=undefined" $(SAN_TESTS)

# Fuzzing needs clang; without it make check says so and runs the rest. make check gives each
# target FUZZ_SECONDS with a fixed seed; make fuzz runs longer.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 45
HAVE_FUZZ_CC := $(shell command -v $(FUZZ_CC) >/dev/null 2>&1 && echo yes)

# The whole suite; tests/run.sh prints each step and ends with "N passed, M failed".
check: all $(BUILD)/pgbind-gen $(BUILD)/pgbind-extract $(UNIT_TESTS) $(EXAMPLES) san-build rust \
		$(if $(HAVE_FUZZ_CC),fuzz-build)
	@BUILD=$(BUILD) SAN_BUILD=$(SAN_BUILD) GEN_ARGS="$(GEN_ARGS)" PG_INCLUDE_SERVER=$(PG_INCLUDE_SERVER) \
		PG_QUERY_INCLUDES="$(PG_QUERY_INCLUDES)" PG_QUERY_LIBS="$(PG_QUERY_LIBS)" PG_MAJOR=$(PG_MAJOR) \
		PG_QUERY_DIR="$(PG_QUERY_DIR)" \
		CARGO="$(CARGO)" RUSTC="$(RUSTC)" \
		MODEL=$(MODEL) FUZZ_SECONDS=$(FUZZ_SECONDS) HAVE_FUZZ=$(HAVE_FUZZ_CC) SAN=$(SAN) SANFLAGS="$(SANFLAGS)" tests/run.sh

# The suite against other PostgreSQL majors' libpg_query, from Debian's later releases
# (tests/versions/run.sh: needs the network; not part of make check).
check-versions: deps
	+@tests/versions/run.sh $(VERSIONS)

# The README's two commands as the first commands on a fresh Debian 12, in a debootstrap chroot
# (tests/fresh/run.sh: needs root and the network; not part of make check).
check-fresh:
	+@tests/fresh/run.sh

# ---- fuzzing (clang's libFuzzer) ---------------------------------------------------------------


FUZZ_FLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -Wno-ignored-attributes $(RT_CFLAGS) -Icli
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_parse $(BUILD)/fuzz/fuzz_decode $(BUILD)/fuzz/fuzz_json \
                $(BUILD)/fuzz/fuzz_deparse_pb $(BUILD)/fuzz/fuzz_deparse_json $(BUILD)/fuzz/fuzz_deparse_tree

# The runtime and the verify engine are compiled once with the fuzzer's instrumentation; each
# target links them with its own entry point.
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(RT_SRCS) cli/verify.c cli/verify_pg.c cli/json_verify.c cli/input.c)

$(BUILD)/fuzz/obj/%.o: %.c $(wildcard runtime/*.h cli/*.h) $(GENERATED) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(subst -fsanitize=fuzzer$(,),-fsanitize=fuzzer-no-link$(,),$(FUZZ_FLAGS)) -c -o $@ $<

# kept between runs (make would delete them as intermediates of the pattern rule below)
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_OBJS) $(PG_QUERY_LIBS) -pthread

fuzz-build: $(FUZZ_TARGETS)

# A longer run than make check's: make fuzz FUZZ_SECONDS=600
fuzz: all fuzz-build
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

# ---- install ------------------------------------------------------------------------------------

PUBLIC_HEADERS := runtime/pgbind.h runtime/pgbind_reflect.h generated/c/pgbind_ast.h \
                  $(wildcard runtime/pgbind_json.h runtime/pgbind_walk.h)

install: all
	install -d $(DESTDIR)$(PREFIX)/include/pgbind $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(PREFIX)/include/pgbind/
	install -m 644 $(BUILD)/libpgbind.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libpgbind.so $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libpgbind.so
	install -m 755 $(BUILD)/pgbind $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PG_QUERY_LIBS@|$(PG_QUERY_LIBS)|g' pgbind.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/pgbind.pc

clean:
	rm -rf $(BUILD)

# ---- the deparse contract's probe (tools/deparse-probe: a tool, not part of the installed pgbind) -

$(BUILD)/deparse-probe: tools/deparse-probe/probe.c cli/input.c cli/cli.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -o $@ tools/deparse-probe/probe.c cli/input.c $(BUILD)/libpgbind.a \
		$(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# Probes the linked libpg_query's deparser on the corpus and writes schema/pgNN/deparse.txt
# (minutes; not part of make check); make regen then renders it.
deparse-probe: deps $(BUILD)/deparse-probe
	BUILD=$(BUILD) PG_MAJOR=$(PG_MAJOR) tools/deparse-probe/run.sh

# The mutation experiment (tests/mutate_deparse.c): real scripts' protobuf and JSON with random
# bytes changed, decoded and deparsed in children; make check runs it.
$(BUILD)/tests/mutate_deparse: tests/mutate_deparse.c cli/input.c cli/cli.h tests/check.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -o $@ tests/mutate_deparse.c cli/input.c $(BUILD)/libpgbind.a \
		$(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# Deep nesting on threads of 128 KiB, 256 KiB and 2 MiB stacks (runtime/stack.c).
$(BUILD)/tests/test_stack: tests/test_stack.c tests/check.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread
