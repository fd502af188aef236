# pgbind -- generated C bindings for PostgreSQL parse trees.
#
#   make                  build the library and the pgbind command (build/)
#   make regen            extract the node models (libclang) and regenerate every target's generated files
#                         (and the C of every other major of MAJORS: targets/c/generated/pgNN)
#   make check-generated  fail when a generated file differs from what the inputs generate
#   make check            everything above, the unit tests and the verification suite
#   make install          PREFIX=/usr/local DESTDIR=
#   make dist             the packages a user adds: Rust crate, Go module, C sources (build/dist/)
#
# Inputs default to the Debian packages; scripts/install-deps.sh installs what is missing.

PREFIX      ?= /usr/local
DESTDIR     ?=
CC          ?= cc
BUILD       := build

# The Debian packages are installed while the Makefile is read, before anything below reads an
# installed file (PG_MAJOR comes from pg_query.h): on a fresh machine the first `make regen` must
# see the same inputs as the second. Only for goals that build or test: not for a dry run
# (make -n) or `make clean`. The top-level make does it once (sub-makes inherit it).
NO_DEPS_GOALS := clean
DRY_RUN     := $(findstring n,$(filter-out --%,$(firstword $(MAKEFLAGS))))
DEPS_GOALS  := $(if $(DRY_RUN),,$(if $(MAKECMDGOALS),$(filter-out $(NO_DEPS_GOALS),$(MAKECMDGOALS)),all))
ifeq ($(MAKELEVEL),0)
ifneq ($(DEPS_GOALS),)
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
# The majors of the build (issue 52, docs/majors.md; mk/majors.mk reads it too): PG_MAJOR above is
# the home major, the one every target is generated for and the library is built with; every
# major of MAJORS has its generated C committed too (targets/c/generated/pgNN, below).
MAJORS      ?= 15 17 18
# The model and the exceptions are per PostgreSQL major: schema/pg15/, schema/pg16/, ...
SCHEMA      := schema/pg$(PG_MAJOR)
MODEL       := $(SCHEMA)/nodes.json
# The exceptions, each line for the majors it holds for (since:/until:).
OVERRIDES   := schema/overrides.txt
# libpg_query's behaviours (fingerprint, normalize), by the majors they hold for (since:/until:);
# then the deparse contract of the version's libpg_query (tools/deparse-probe writes it).
OVERRIDES   += schema/libpg_query.txt
OVERRIDES   += $(wildcard $(SCHEMA)/deparse.txt)
# What libpg_query's summary knows of each node kind (its walker, what it records, what it shortens).
NODE_RULES  := schema/summary.txt

# libclang: the newest LLVM that installs its C API (Debian 12's libclang-dev brings llvm-14).
LLVM_DIR    ?= $(patsubst %/include/clang-c/Index.h,%,$(lastword $(sort $(wildcard /usr/lib/llvm-*/include/clang-c/Index.h))))
# Debian's multiarch library directory (x86_64-linux-gnu, aarch64-linux-gnu, ...).
ifeq ($(origin MULTIARCH),undefined)
MULTIARCH   := $(shell $(CC) -print-multiarch 2>/dev/null)
endif
CLANG_RESOURCE_DIR ?= $(firstword $(wildcard $(LLVM_DIR)/lib/clang/*))

WARN        := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD        := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT         ?= -O2 -g
SAN         ?=
SANFLAGS    := $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer,)
CFLAGS_ALL  := $(CSTD) $(OPT) $(WARN) $(SANFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)

# pgbind-gen: the generator's core and each target's decorator (targets/NAME/decorator/, named by
# its row in generator/targets.c, which includes them from the checkout's root: -I.).
GEN_DECORATORS := $(wildcard targets/*/decorator/*.c)
GEN_SRCS    := generator/common.c generator/proto_read.c generator/template.c generator/overrides.c generator/targets.c \
               generator/classify.c generator/behaviours.c generator/deparse_rules.c generator/node_rules.c generator/main.c \
               targets/c/runtime/proc.c $(GEN_DECORATORS)
GEN_HDRS    := $(wildcard generator/*.h targets/*/decorator/*.h)
EXTRACT_SRCS := generator/common.c generator/extract.c
# The C target (targets/c): its generated files (everything the runtime and the tests include),
# one folder per major (targets/c/generated/pgNN), the home major's here, and its hand-written
# runtime.
C_GEN_ROOT  ?= targets/c/generated
C_GEN       := $(C_GEN_ROOT)/pg$(PG_MAJOR)
RT_DIR      := targets/c/runtime
GENERATED   := $(wildcard $(C_GEN)/*)
RT_SRCS     := $(addprefix $(RT_DIR)/,arena.c from_pg.c to_pg.c pg_route.c encode.c decode.c equal.c reflect.c text.c \
               json_keys.c json_write.c json_read.c walk.c normalize.c fingerprint.c script.c contract.c stack.c \
               proc.c raw_walk.c summary.c truncate.c major.c)
RT_OBJS     := $(RT_SRCS:$(RT_DIR)/%.c=$(BUILD)/rt/%.o)
RT_PIC_OBJS := $(RT_SRCS:$(RT_DIR)/%.c=$(BUILD)/rt-pic/%.o)
# The converters between majors' trees (pgbind_convert.h: libc only, the same for every major):
# their interpreter and each pair's generated tables (targets/c/generated/convert/, mk/convert.mk),
# in the library once, beside the home major's runtime. The interpreter and the tables' index are
# one object (convert-lib.o): its reference to the index is weak (so that a build without the
# tables links), and a weak reference would not take the index out of the archive.
CONV_PAIRS_SRCS := $(filter-out %/index.c,$(sort $(wildcard targets/c/generated/convert/*.c)))
CONV_OBJS   := $(BUILD)/rt/convert-lib.o $(patsubst targets/c/generated/convert/%.c,$(BUILD)/rt/convert-%.o,$(CONV_PAIRS_SRCS))
CONV_PIC_OBJS := $(subst $(BUILD)/rt/,$(BUILD)/rt-pic/,$(CONV_OBJS))
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
RT_CFLAGS   := -I$(RT_DIR) -I$(C_GEN) $(PG_QUERY_INCLUDES) -I$(PG_INCLUDE_SERVER) $(PG_QUERY_FEATURES)
# verify (its engine, which the fuzz targets link too), then the command's other files.
VERIFY_SRCS := cli/verify.c cli/verify_deparse.c cli/verify_oracle.c cli/verify_coverage.c cli/verify_pg.c \
               cli/json_verify.c cli/verify_summary.c
CLI_SRCS    := cli/pgbind.c cli/as.c cli/summary.c $(VERIFY_SRCS)
# The statement reader (reader/): a library of its own that the command, the tools and the tests link.
READER_LIB  := $(BUILD)/libpgbind-reader.a

# Two cores here, as on CI: build in parallel unless the caller chose (make -jN).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

.PHONY: lib rust go dist check-generated-go deparse-probe deparse-split regen-verify
.PHONY: all deps regen extract generate check-generated check-format format check check-quick check-versions check-fresh unit-tests clean install fuzz \
        fuzz-build bench \
        san-build

all: deps $(BUILD)/pgbind $(BUILD)/pgbind-bench $(BUILD)/libpgbind.a $(BUILD)/libpgbind.so

# The packages are checked (fast) and installed when the Makefile is read (above); `make deps`
# does only that.
deps:

# Every build rule waits for this (order-only), and it waits for deps, so that a parallel make
# on a fresh machine installs the packages before compiling anything.
$(BUILD)/.dir: | deps
	@mkdir -p $(BUILD)/rt $(BUILD)/rt-pic $(BUILD)/reader $(BUILD)/tests && touch $@

# ---- generator ----------------------------------------------------------------------------------

$(BUILD)/pgbind-gen: $(GEN_SRCS) $(GEN_HDRS) targets/c/runtime/proc.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -I. -Igenerator -I$(RT_DIR) -o $@ $(GEN_SRCS) $(LDFLAGS_ALL) -ljansson

$(BUILD)/pgbind-extract: $(EXTRACT_SRCS) generator/common.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -Igenerator -I$(LLVM_DIR)/include -DPGBIND_CLANG_RESOURCE_DIR='"$(CLANG_RESOURCE_DIR)"' \
		-o $@ $(EXTRACT_SRCS) $(LDFLAGS_ALL) -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -ljansson

# One classification, every target (generator/targets.c): each --target renders its templates into
# the --out DIR after it, and its test-only templates (templates/tests/) into --tests-out DIR, out of
# the folders users vendor; the report target writes what was matched and left out.
GEN_TARGETS = --target c --out $(C_GEN) --tests-out tests/runtime/generated \
              --target rust --out targets/rust/generated --tests-out targets/rust/tests/generated \
              --target go --out targets/go --target report --out docs/generated
GEN_ARGS = --model $(MODEL) --proto $(PG_QUERY_PROTO) $(addprefix --overrides ,$(OVERRIDES)) --node-rules $(NODE_RULES) $(GEN_TARGETS)

# The model is checked in: generating code needs jansson only. Extraction needs libclang.
EXTRACT_CMD = mkdir -p $(SCHEMA) && $(BUILD)/pgbind-extract --include-dir $(PG_INCLUDE_SERVER) --out $(MODEL)
GENERATE_CMD = $(BUILD)/pgbind-gen $(GEN_ARGS)

# Every other major of MAJORS: its generated C alone (targets/c/generated/pgNN; Rust, Go, the
# report and the test-only files are the home major's), from its own model and deparse contract
# (schema/pgNN/), the shared exceptions and its own libpg_query's pg_query.proto: the tree
# mk/majors.mk lays out (build/majors/pgNN/tree: PGnn_DIR=<tree>, else fetched from Debian once,
# scripts/majors/tree.sh). make generate-pgNN, check-generated-pgNN and extract-pgNN do one major.
GEN_MAJORS   = $(filter-out $(PG_MAJOR),$(MAJORS))
MAJOR_TREE   = $(BUILD)/majors/pg$(1)/tree
MAJOR_GEN_ARGS = --model schema/pg$(1)/nodes.json --proto $(call MAJOR_TREE,$(1))/protobuf/pg_query.proto \
	$(addprefix --overrides ,schema/overrides.txt schema/libpg_query.txt $(wildcard schema/pg$(1)/deparse.txt)) \
	--node-rules $(NODE_RULES) --target c --out $(C_GEN_ROOT)/pg$(1)
MAJOR_NO_MODEL = test -f schema/pg$(1)/nodes.json || { echo "error: no schema/pg$(1)/nodes.json, PostgreSQL $(1)'s" \
	"model: run \`make regen\` (it extracts every major's from its tree) and commit it" >&2; exit 1; }

extract: deps $(BUILD)/pgbind-extract
	$(EXTRACT_CMD)

generate: deps $(BUILD)/pgbind-gen $(addprefix generate-pg,$(GEN_MAJORS))
	$(GENERATE_CMD)
	$(call GO_PROTOC_CMD,targets/go)
	$(call GO_SUMMARY_CMD,targets/go)

generate-pg%: deps $(BUILD)/pgbind-gen $(BUILD)/majors/pg%/tree.txt
	@$(call MAJOR_NO_MODEL,$*)
	$(BUILD)/pgbind-gen $(call MAJOR_GEN_ARGS,$*)

check-generated-pg%: deps $(BUILD)/pgbind-gen $(BUILD)/majors/pg%/tree.txt
	@$(call MAJOR_NO_MODEL,$*)
	@$(BUILD)/pgbind-gen $(call MAJOR_GEN_ARGS,$*) --check || { echo "error: $(C_GEN_ROOT)/pg$*, PostgreSQL $*'s" \
		"generated C, is stale or missing (above): run \`make generate\` (\`make regen\` to re-extract the models too)" \
		"and commit $(C_GEN_ROOT)/pg$*" >&2; exit 1; }

# A major's model from its tree's PostgreSQL headers (libclang; a few seconds).
extract-pg%: deps $(BUILD)/pgbind-extract $(BUILD)/majors/pg%/tree.txt
	mkdir -p schema/pg$* && $(BUILD)/pgbind-extract --include-dir $(call MAJOR_TREE,$*)/src/postgres/include \
		--out schema/pg$*/nodes.json

# One recipe, so that make -j cannot generate before the model is written. Then, with the code
# generated from it built (sub-makes: they read the new files), the deparse contract is derived
# from the corpus and the linked library (tools/deparse-probe), rendered, and the result verified
# against the library on that corpus (regen-verify). Every other major's model is extracted from
# its tree first (extract-pgNN) and its C rendered by the sub-make's generate; its deparse contract
# (schema/pgNN/deparse.txt) is not derived here (minutes a major): tests/versions/run.sh derives
# it as a bump does, with that major as the home one (make check-versions; docs/versions.md), and
# checks that it equals the committed file.
regen: deps $(BUILD)/pgbind-extract $(BUILD)/pgbind-gen $(addprefix extract-pg,$(GEN_MAJORS))
	$(EXTRACT_CMD)
	$(GENERATE_CMD)
	$(call GO_PROTOC_CMD,targets/go)
	$(call GO_SUMMARY_CMD,targets/go)
	+$(MAKE) --no-print-directory deparse-probe
	+$(MAKE) --no-print-directory generate
	+$(MAKE) --no-print-directory regen-verify

# make regen's last step: every statement of the corpus the contract was derived from (run.sh
# --list) through pgbind against the linked libpg_query (pgbind verify: parse, JSON, deparse,
# fingerprint, normalize). A difference stops make regen, naming each statement, what differs and
# the file where it is declared (scripts/regen-hint.sh).
regen-verify: all
	@$(BUILD)/pgbind --pg=$(PG_MAJOR) verify $$(BUILD=$(BUILD) PG_MAJOR=$(PG_MAJOR) tools/deparse-probe/run.sh --list) \
		>$(BUILD)/regen-verify.txt 2>&1 || { scripts/regen-hint.sh $(BUILD)/regen-verify.txt $(PG_MAJOR) >&2; exit 1; }
	@tail -1 $(BUILD)/regen-verify.txt | sed 's/^/make regen: pgbind verify on the corpus: /'

check-generated: deps $(BUILD)/pgbind-gen check-generated-go $(addprefix check-generated-pg,$(GEN_MAJORS)) convert-check-generated
	$(BUILD)/pgbind-gen $(GEN_ARGS) --check

# The Go module's message types: protoc-gen-go's output for the same pg_query.proto, committed
# beside the generated converters (a Go package is one folder) and checked like them.
GO_MODULE   = $(shell sed -n 's/^module //p' targets/go/go.mod)
GO_PROTOC_CMD = protoc -I$(dir $(PG_QUERY_PROTO)) --go_out=$(1) --go_opt=paths=source_relative \
	'--go_opt=M$(notdir $(PG_QUERY_PROTO))=$(GO_MODULE);pg_query' $(PG_QUERY_PROTO)
GO_PB_DIR  ?= targets/go
# Summary's types (pg_query.SummaryResult): the runtime's summary.proto (libpg_query 18's message)
# where the major's pg_query.proto does not declare it (before 18), else pg_query.pb.go has them
# and summary.pb.go must not exist (one declaration of the message).
GO_SUMMARY_PROTO = targets/c/runtime/summary.proto
GO_SUMMARY_CMD = if grep -q '^message SummaryResult' $(PG_QUERY_PROTO); then rm -f $(1)/summary.pb.go; else \
	protoc -I$(dir $(GO_SUMMARY_PROTO)) --go_out=$(1) --go_opt=paths=source_relative \
	'--go_opt=M$(notdir $(GO_SUMMARY_PROTO))=$(GO_MODULE);pg_query' $(GO_SUMMARY_PROTO); fi

check-generated-go: deps
	@rm -rf $(BUILD)/go/pb && mkdir -p $(BUILD)/go/pb
	@$(call GO_PROTOC_CMD,$(BUILD)/go/pb)
	@cmp $(GO_PB_DIR)/pg_query.pb.go $(BUILD)/go/pb/pg_query.pb.go || { echo "error: $(GO_PB_DIR)/pg_query.pb.go" \
		"differs from protoc-gen-go's output for $(PG_QUERY_PROTO); run \`make regen\` and commit the result" >&2; exit 1; }
	@$(call GO_SUMMARY_CMD,$(BUILD)/go/pb)
	@if [ -e $(BUILD)/go/pb/summary.pb.go ]; then cmp $(GO_PB_DIR)/summary.pb.go $(BUILD)/go/pb/summary.pb.go; \
		else test ! -e $(GO_PB_DIR)/summary.pb.go; fi || { echo "error: $(GO_PB_DIR)/summary.pb.go differs from" \
		"protoc-gen-go's output for $(GO_SUMMARY_PROTO) (none where $(PG_QUERY_PROTO) declares SummaryResult);" \
		"run \`make generate\` and commit the result" >&2; exit 1; }
	@echo "$(GO_PB_DIR)/pg_query.pb.go is up to date"

# The hand-written C follows .clang-format (generated files follow their templates): `make format`
# applies it, `make check-format` (part of make check) fails on a file that differs.
CLANG_FORMAT ?= clang-format
# The tracked files; in a copy that is no git checkout (make check-versions' copies), the files.
FORMAT_FILES = $(shell { if test -e .git; then git ls-files '*.c' '*.h'; else find . -path ./build -prune -o \
	\( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort; fi; } | grep -v '/generated/')

format: deps
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

check-format: deps
	@test -n "$(FORMAT_FILES)" || { echo "check-format: no C files found" >&2; exit 1; }
	$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)

# ---- runtime, library, CLI ----------------------------------------------------------------------

$(BUILD)/rt/%.o: $(RT_DIR)/%.c $(wildcard $(RT_DIR)/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -c -o $@ $<

$(BUILD)/rt-pic/%.o: $(RT_DIR)/%.c $(wildcard $(RT_DIR)/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -fPIC -fvisibility=hidden -DPGBIND_BUILDING_SHARED -c -o $@ $<

$(BUILD)/rt/convert-%.o: targets/c/generated/convert/%.c $(RT_DIR)/convert_table.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -I$(RT_DIR) -c -o $@ $<

$(BUILD)/rt-pic/convert-%.o: targets/c/generated/convert/%.c $(RT_DIR)/convert_table.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -I$(RT_DIR) -fPIC -fvisibility=hidden -c -o $@ $<

$(BUILD)/rt/convert-lib.o: $(BUILD)/rt/convert.o $(BUILD)/rt/convert-index.o
	ld -r -o $@ $^

$(BUILD)/rt-pic/convert-lib.o: $(BUILD)/rt-pic/convert.o $(BUILD)/rt-pic/convert-index.o
	ld -r -o $@ $^

# libpgbind.a and libpgbind.so: mk/lib-majors.mk (the static library holds every major of the
# command, pgbind_Options.pg_major; it needs mk/majors.mk's per-major objects).

# The statement reader, linked before libpgbind.a (it calls the runtime's splitter).
$(BUILD)/reader/%.o: reader/%.c reader/reader.h $(wildcard $(RT_DIR)/*.h) $(GENERATED) | $(BUILD)/.dir
	@mkdir -p $(dir $@) # a build/ made before reader/ existed has the stamp without the folder
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -c -o $@ $<

$(READER_LIB): $(BUILD)/reader/reader.o
	rm -f $@ && ar rcs $@ $^

SONAME := libpgbind.so.0


# The installed static libpg_query, where there is one (the benchmark links it).
PG_QUERY_STATIC ?= $(firstword $(wildcard /usr/lib/$(MULTIARCH)/libpg_query.a /usr/lib/libpg_query.a))

# pgbind's version, 0.MAJOR.N as its packages' (scripts/dist.sh; the pkg-config file's).
PGBIND_VERSION   := 0.$(PG_MAJOR).0
# $(BUILD)/pgbind, the command with every major in it (--pg=N): mk/majors.mk.

# The benchmark, a developer's program of its own (tools/bench/; `pgbind bench` runs it, `make
# install` does not install it), with the allocator wrapped so that it counts every allocation,
# libpg_query's and protobuf-c's included (libpg_query linked statically where it can).
, := ,
BENCH_WRAP := -Wl$(,)--wrap=malloc$(,)--wrap=calloc$(,)--wrap=realloc$(,)--wrap=free$(,)--wrap=strdup
# A libpg_query built with upb (18) installs no protobuf-c message types: the benchmark's
# protobuf-c baseline is then protoc-c's code for that version's pg_query.proto.
BENCH_PBC   := $(if $(PG_QUERY_PBC_H),,$(BUILD)/pbc/pg_query.pb-c.c)
BENCH_PBC_FLAGS := $(if $(BENCH_PBC),-I$(BUILD)/pbc -DPGBIND_BENCH_PROTOBUF_C)
BENCH_PBC_LIBS  := $(if $(BENCH_PBC),$(firstword $(wildcard /usr/lib/$(MULTIARCH)/libprotobuf-c.a) -lprotobuf-c))

$(BUILD)/pbc/pg_query.pb-c.c: $(PG_QUERY_PROTO) | $(BUILD)/.dir
	@mkdir -p $(BUILD)/pbc
	protoc-c --proto_path=$(dir $(PG_QUERY_PROTO)) --c_out=$(BUILD)/pbc $(PG_QUERY_PROTO)

BENCH_SRCS := $(addprefix tools/bench/,bench.c routes.c alloc.c measure.c corpus.c report.c growth.c growth_cli.c)
$(BUILD)/pgbind-bench: $(BENCH_SRCS) tools/bench/bench.h reader/reader.h $(READER_LIB) $(BUILD)/libpgbind.a $(BENCH_PBC)
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) $(BENCH_PBC_FLAGS) -Ireader -o $@ $(BENCH_SRCS) $(BENCH_PBC) \
		$(READER_LIB) $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(if $(PG_QUERY_STATIC),$(PG_QUERY_STATIC) $(BENCH_WRAP),$(PG_QUERY_LIBS)) \
		$(BENCH_PBC_LIBS) -pthread

# The static library alone.
lib: deps $(BUILD)/libpgbind.a

# ---- the Rust crate (targets/rust) -------------------------------------------------------------

# Debian's toolchain, never a newer one earlier on PATH (its Cargo.lock would be unreadable to
# Debian's cargo); offline, from the crates Debian installs (targets/rust/.cargo/config.toml).
CARGO       ?= /usr/bin/cargo
RUSTC       ?= /usr/bin/rustc
CARGO_RUN   := cd targets/rust && CARGO_TARGET_DIR=$(abspath $(BUILD))/rust RUSTC=$(RUSTC) $(CARGO)

# What make check runs (tests/run.sh: cargo test --release --test NAME, cargo run --example
# porting): the integration tests and the example. Not --tests: that adds the library's own test
# harness, a second optimized compile of the whole crate for the unit tests it has none of.
rust: deps
	$(CARGO_RUN) build --release --test '*' --example porting

# ---- the Go module (targets/go) ----------------------------------------------------------------

# Debian's Go 1.19, offline: protobuf-go from golang-google-protobuf-dev (go.mod's replace), the
# module cache and build cache under build/ (nothing in the user's home). With PG_QUERY_DIR, cgo
# takes that tree's headers and its libpg_query.a (-L: the module's own -lpg_query finds it).
GO         ?= /usr/bin/go
GO_ENV     := GOPATH=$(abspath $(BUILD))/go/path GOCACHE=$(abspath $(BUILD))/go/cache GOFLAGS=-mod=mod GOPROXY=off \
              $(if $(PG_QUERY_DIR),CGO_CFLAGS="$(PG_QUERY_INCLUDES)" CGO_LDFLAGS="-L$(PG_QUERY_DIR)")
GO_RUN     := cd targets/go && env $(GO_ENV) $(GO)
GO_SRCS     = $(wildcard targets/go/*.go targets/go/parser/*.go targets/go/internal/*/*.go) targets/go/go.mod

# The test program (go test -c), and the same with the race detector.
$(BUILD)/go/pg_query.test: $(GO_SRCS) $(BUILD)/libpgbind.a
	$(GO_RUN) vet . ./parser ./internal/...
	$(GO_RUN) test -c -o $(abspath $@) .

$(BUILD)/go/pg_query.race.test: $(GO_SRCS) $(BUILD)/libpgbind.a
	$(GO_RUN) test -race -c -o $(abspath $@) .

# A program written against pg_query_go v4's API, with pgbind's module as its import (require +
# replace, examples/go/go.mod): make check runs it.
$(BUILD)/go/port: examples/go/main.go examples/go/go.mod $(GO_SRCS) $(BUILD)/libpgbind.a
	cd examples/go && env $(GO_ENV) $(GO) build -o $(abspath $@) .

go: deps $(BUILD)/go/pg_query.test $(BUILD)/go/pg_query.race.test $(BUILD)/go/port

# ---- examples (the API tour; built and run by make check) --------------------------------------

EXAMPLES := $(BUILD)/examples/tables $(BUILD)/examples/rewrite $(BUILD)/examples/tour

$(BUILD)/examples/%: examples/%.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# ---- packages (make dist) ----------------------------------------------------------------------

# What a user adds, for the libpg_query major the generated code is for (scripts/dist.sh): the
# Rust crate (a .crate), the Go module (a folder, and a module proxy's files) and the C sources to
# vendor, versioned 0.MAJOR.N. Each builds outside the checkout with Debian's packages alone
# (tests/dist/run.sh does it as the README tells a user).
DIST       := $(BUILD)/dist

dist: deps
	CARGO=$(CARGO) RUSTC=$(RUSTC) scripts/dist.sh $(DIST) $(PG_MAJOR) $(PG_QUERY_PROTO)

# ---- benchmark -----------------------------------------------------------------------------------

bench: all rust go
	$(BUILD)/pgbind --pg=$(PG_MAJOR) bench
	$(BUILD)/pgbind --pg=$(PG_MAJOR) bench --growth
	$(CARGO_RUN) bench
	$(BUILD)/go/pg_query.test -test.run '^TestBench$$' -short-sql tools/bench/short.sql \
		$$(grep -v -e '^#' -e '^[[:space:]]*$$' tests/corpus/debian-pg15.txt | sed 's|^|/usr/share/postgresql/15/|')

# ---- tests --------------------------------------------------------------------------------------

# The generator's unit tests (tests/generator/test_NAME.c), each linked with the generator files it tests.
$(BUILD)/tests/test_proto_read: generator/proto_read.c
$(BUILD)/tests/test_template: generator/template.c
$(BUILD)/tests/test_classify: generator/classify.c generator/behaviours.c generator/deparse_rules.c generator/overrides.c generator/proto_read.c \
		targets/c/decorator/names_c.c
$(BUILD)/tests/test_makes_go: targets/go/decorator/makes_go.c targets/go/decorator/names_go.c generator/overrides.c

$(BUILD)/tests/test_%: tests/generator/test_%.c generator/common.c $(GEN_HDRS) tests/check.h tests/generator/unit.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) -I. -Igenerator -o $@ $(filter %.c,$^) $(LDFLAGS_ALL) -ljansson

$(BUILD)/tests/test_input: tests/cli/test_input.c reader/reader.h tests/check.h $(READER_LIB) $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Ireader -o $@ tests/cli/test_input.c $(READER_LIB) $(BUILD)/libpgbind.a $(LDFLAGS_ALL) \
		$(PG_QUERY_LIBS) -pthread

# The runtime's C tests: one program each (tests/runtime/test_NAME.c), linked with the library, and
# with the files of the command some of them share (TEST_EXTRA) and the statement reader. They
# share tests/check.h.
$(BUILD)/tests/test_json: TEST_EXTRA := cli/json_verify.c
$(BUILD)/tests/test_summary: TEST_EXTRA := cli/verify_summary.c

$(BUILD)/tests/test_%: tests/runtime/test_%.c $(READER_LIB) $(BUILD)/libpgbind.a tests/check.h tests/runtime/check_tree.h \
		tests/runtime/rev_writer.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Icli -Ireader -o $@ $< $(TEST_EXTRA) $(READER_LIB) $(BUILD)/libpgbind.a $(LDFLAGS_ALL) \
		$(PG_QUERY_LIBS) -pthread

$(BUILD)/tests/test_json $(BUILD)/tests/test_walk: reader/reader.h
$(BUILD)/tests/test_json: cli/json_verify.c cli/cli.h
$(BUILD)/tests/test_summary: cli/verify_summary.c cli/cli.h
$(BUILD)/tests/test_property: tests/runtime/generated/c_fields.inc.c

# The same test with pgbind's own malloc calls failable one by one (libpg_query, a shared library
# here, is not affected by the wrap).
$(BUILD)/tests/test_hardening_wrap: tests/runtime/test_hardening.c $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) -lpg_query -pthread \
		-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# ThreadSanitizer: the runtime compiled into the test so that it is instrumented.
$(BUILD)/tests/test_hardening_tsan: tests/runtime/test_hardening.c $(RT_SRCS) $(wildcard $(RT_DIR)/*.h) $(GENERATED) | $(BUILD)/.dir
	$(CC) $(CSTD) -O1 -g -fsanitize=thread -fno-omit-frame-pointer $(RT_CFLAGS) -o $@ tests/runtime/test_hardening.c \
		$(RT_SRCS) $(PG_QUERY_LIBS) -pthread

UNIT_TESTS := $(BUILD)/tests/test_proto_read $(BUILD)/tests/test_template $(BUILD)/tests/test_classify $(BUILD)/tests/test_makes_go \
              $(BUILD)/tests/test_input \
              $(BUILD)/tests/test_parse $(BUILD)/tests/test_decode $(BUILD)/tests/test_property \
              $(BUILD)/tests/test_json $(BUILD)/tests/test_walk $(BUILD)/tests/test_hardening \
              $(BUILD)/tests/test_hardening_tsan $(if $(PG_QUERY_DIR),,$(BUILD)/tests/test_hardening_wrap) \
              $(BUILD)/tests/test_deparse $(BUILD)/tests/test_normalize $(BUILD)/tests/test_summary $(BUILD)/tests/mutate_deparse $(BUILD)/tests/test_stack \
              $(BUILD)/tests/test_convert_lib

unit-tests: $(UNIT_TESTS)

# The same tests built with AddressSanitizer and UndefinedBehaviorSanitizer (make check runs them).
SAN_BUILD := $(BUILD)/san
SAN_TESTS := $(SAN_BUILD)/pgbind $(SAN_BUILD)/tests/test_parse $(SAN_BUILD)/tests/test_decode \
             $(SAN_BUILD)/tests/test_json $(SAN_BUILD)/tests/test_property $(SAN_BUILD)/tests/test_walk \
             $(SAN_BUILD)/tests/test_summary

san-build: $(GENERATED)
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) SAN=address,undefined OPT="-O1 -g" \
		CFLAGS="-fno-sanitize-recover=undefined" $(SAN_TESTS)

# Fuzzing needs clang; without it make check says so and runs the rest. make check gives each
# target a fixed number of inputs with a fixed seed (tests/fuzz/run.sh: the same on a fast machine
# as on a slow one), or FUZZ_SECONDS each if given; make fuzz runs FUZZ_SECONDS (600) each.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?=
HAVE_FUZZ_CC := $(shell command -v $(FUZZ_CC) >/dev/null 2>&1 && echo yes)

# The whole suite; tests/run.sh prints each step and ends with "N passed, M failed".
# PARTS="unit parse ..." runs only those parts (tests/run.sh --list names them); everything is
# still built. check-quick builds less (no sanitizer build, no fuzzers, no Rust crate) and runs
# the parts that need nothing else, on the project corpus alone: a couple of minutes.
SUITE_ENV = BUILD=$(BUILD) SAN_BUILD=$(SAN_BUILD) GEN_ARGS="$(GEN_ARGS)" GEN_MAJORS="$(GEN_MAJORS)" \
	PG_INCLUDE_SERVER=$(PG_INCLUDE_SERVER) \
	PG_QUERY_INCLUDES="$(PG_QUERY_INCLUDES)" PG_QUERY_LIBS="$(PG_QUERY_LIBS)" PG_MAJOR=$(PG_MAJOR) \
	PG_QUERY_DIR="$(PG_QUERY_DIR)" PG_QUERY_STATIC="$(PG_QUERY_STATIC)" \
	CARGO="$(CARGO)" RUSTC="$(RUSTC)" \
	GO_TEST=$(BUILD)/go/pg_query.test GO_RACE_TEST=$(BUILD)/go/pg_query.race.test \
	MODEL=$(MODEL) FUZZ_SECONDS=$(FUZZ_SECONDS) HAVE_FUZZ=$(HAVE_FUZZ_CC) SAN=$(SAN) SANFLAGS="$(SANFLAGS)"
QUICK_PARTS := generated generator unit parse json nodes cli

check: all $(BUILD)/pgbind-gen $(BUILD)/pgbind-extract $(UNIT_TESTS) $(EXAMPLES) san-build rust go dist \
		$(if $(HAVE_FUZZ_CC),fuzz-build) majors-test
	@$(SUITE_ENV) PARTS="$(PARTS)" tests/run.sh

check-quick: all $(BUILD)/pgbind-gen $(BUILD)/pgbind-extract $(UNIT_TESTS) $(EXAMPLES)
	@$(SUITE_ENV) PARTS="$(QUICK_PARTS)" QUICK=1 tests/run.sh

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

# The runtime, the statement reader and the verify engine are compiled once with the fuzzer's
# instrumentation; each target links them with its own entry point.
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(RT_SRCS) $(VERIFY_SRCS) reader/reader.c)

$(BUILD)/fuzz/obj/%.o: %.c $(wildcard $(RT_DIR)/*.h cli/*.h) reader/reader.h $(GENERATED) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(subst -fsanitize=fuzzer$(,),-fsanitize=fuzzer-no-link$(,),$(FUZZ_FLAGS)) -c -o $@ $<

# kept between runs (make would delete them as intermediates of the pattern rule below)
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/deparse_target.h tests/contract_same.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_OBJS) $(PG_QUERY_LIBS) -pthread

fuzz-build: $(FUZZ_TARGETS)

# A longer run than make check's: 600 s a target, or make fuzz FUZZ_SECONDS=N
fuzz: all fuzz-build
	@BUILD=$(BUILD) PG_MAJOR=$(PG_MAJOR) FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600) tests/fuzz/run.sh

# ---- install ------------------------------------------------------------------------------------

PUBLIC_HEADERS := $(RT_DIR)/pgbind.h $(RT_DIR)/pgbind_reflect.h $(C_GEN)/pgbind_ast.h \
                  $(RT_DIR)/pgbind_json.h $(RT_DIR)/pgbind_walk.h $(RT_DIR)/pgbind_convert.h

install: all
	install -d $(DESTDIR)$(PREFIX)/include/pgbind $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(PREFIX)/include/pgbind/
	install -m 644 $(BUILD)/libpgbind.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libpgbind.so $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libpgbind.so
	install -m 755 $(BUILD)/pgbind $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PG_QUERY_LIBS@|$(PG_QUERY_LIBS)|g' -e 's|@VERSION@|$(PGBIND_VERSION)|g' pgbind.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/pgbind.pc

clean:
	rm -rf $(BUILD)

# ---- the deparse contract's probe (tools/deparse-probe: a tool, not part of the installed pgbind) -

$(BUILD)/deparse-probe: tools/deparse-probe/probe.c reader/reader.h $(READER_LIB) $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Ireader -o $@ tools/deparse-probe/probe.c $(READER_LIB) $(BUILD)/libpgbind.a \
		$(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# Derives schema/pgNN/deparse.txt from the corpus and the linked libpg_query's deparser
# (context-free rules; no cache: a few minutes on two cores); make regen renders it.
deparse-probe: deps $(BUILD)/deparse-probe
	BUILD=$(BUILD) PG_MAJOR=$(PG_MAJOR) tools/deparse-probe/run.sh

# The derivation measured on SQL it did not learn from: rules from half the corpus files, checked
# on the other half, both ways (tools/deparse-probe/split.sh; 0 refusals expected).
deparse-split: deps $(BUILD)/deparse-probe
	BUILD=$(BUILD) PG_MAJOR=$(PG_MAJOR) tools/deparse-probe/split.sh

# The mutation experiment (tests/runtime/mutate_deparse.c): real scripts' protobuf and JSON with random
# bytes changed, decoded and deparsed in children; make check runs it.
$(BUILD)/tests/mutate_deparse: tests/runtime/mutate_deparse.c reader/reader.h tests/check.h $(READER_LIB) $(BUILD)/libpgbind.a \
		| $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -Ireader -o $@ tests/runtime/mutate_deparse.c $(READER_LIB) $(BUILD)/libpgbind.a \
		$(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# Deep nesting on threads of 128 KiB, 256 KiB and 2 MiB stacks (targets/c/runtime/stack.c).
$(BUILD)/tests/test_stack: tests/runtime/test_stack.c tests/check.h $(BUILD)/libpgbind.a | $(BUILD)/.dir
	$(CC) $(CFLAGS_ALL) $(RT_CFLAGS) -o $@ $< $(BUILD)/libpgbind.a $(LDFLAGS_ALL) $(PG_QUERY_LIBS) -pthread

# Every PostgreSQL major in one build (issue 52): make majors, make majors-test.
include mk/majors.mk
include mk/convert.mk
# The C library with every major (pgbind_Options.pg_major): libpgbind.a, libpgbind.so, its test.
include mk/lib-majors.mk
