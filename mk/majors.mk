# mk/majors.mk -- every PostgreSQL major's libpg_query in one build: the link layer of issue 52
# (docs/majors.md says what is built and what is planned). Included by the Makefile, whose
# BUILD, CC, CFLAGS_ALL and deps it uses.
#
#   make majors        each major's libpg_query as one relocatable object whose symbols are all
#                      renamed pgbind_pgNN_... : build/majors/pgNN/libpg_query.o
#   build/pgbind       the command, every major in it (--pg=N): each major's runtime, statement
#                      reader and command compiled against its generated code and tree, linked
#                      with its libpg_query into build/majors/pgNN/cmd/pgbind.o (one exported
#                      symbol), and cli/main.c choosing among them
#   make majors-test   the test programs make check runs (section majors of tests/run.sh)
#
# Where each major's libpg_query comes from (scripts/majors/tree.sh):
#   MAJORS="15 17 18"        the majors built (the default)
#   PGnn_DIR=<tree>          major nn from a libpg_query tree (the layout PG_QUERY_DIR takes and
#                            tests/versions/debian_tree.sh writes: pg_query.h, libpg_query.a, ...),
#                            e.g. make majors PG17_DIR=/work/versions/pg17/tree; a further major
#                            joins with both: make majors MAJORS="15 16 17 18" PG16_DIR=...
#   otherwise                the installed libpg-query-dev for its own major (15 on Debian 12),
#                            and Debian's package for a major MAJORS_DEBIAN names (17 from trixie,
#                            18 from sid), downloaded once into build/majors/pgNN/debian/
#                            (tests/versions/debian_tree.sh; nothing outside build/).

# MAJORS (15 17 18) is set in the Makefile, which the generation rules need it in.
MAJORS_DEBIAN ?= 17:trixie 18:sid
MAJORS_DIR    := $(BUILD)/majors
# the major of the installed pg_query.h: the one a user's program links with -lpg_query
MAJORS_USER   := $(shell sed -n 's/^\#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' /usr/include/pg_query.h 2>/dev/null)

.PHONY: majors majors-test majors-force

majors: deps $(foreach m,$(MAJORS),$(MAJORS_DIR)/pg$(m)/libpg_query.o)

# Runs every time (quick); rewrites tree.txt only when the tree or its library changed.
$(MAJORS_DIR)/pg%/tree.txt: majors-force | $(BUILD)/.dir
	@CC="$(CC)" scripts/majors/tree.sh $* $(MAJORS_DIR)/pg$* "$(PG$*_DIR)" \
		"$(patsubst $*:%,%,$(filter $*:%,$(MAJORS_DEBIAN)))"

$(MAJORS_DIR)/pg%/libpg_query.o: $(MAJORS_DIR)/pg%/tree.txt scripts/majors/link-major.sh tests/versions/glibc_compat.c
	@echo "link-major.sh $*"
	@CC="$(CC)" scripts/majors/link-major.sh $* $(MAJORS_DIR)/pg$*/tree $(MAJORS_DIR)/pg$*

$(MAJORS_DIR)/pg%/pg_query_names.h $(MAJORS_DIR)/pg%/link-libs.txt: $(MAJORS_DIR)/pg%/libpg_query.o ;

.SECONDARY: $(foreach m,$(MAJORS),$(addprefix $(MAJORS_DIR)/pg$(m)/,tree.txt pg_query_names.h link-libs.txt))

# ---- the pgbind command, every major in it (cli/main.c, cli/major.h) ------------------------------

# The majors the command holds: MAJORS and the build's own (PG_MAJOR: the suite calls the command
# with --pg=PG_MAJOR); a PG_QUERY_DIR build takes its own major from that tree. The sanitizer
# build (make check's san-build: SAN set) holds the build's own alone: its code is every major's,
# and compiling it under the sanitizers is what costs there. PGBIND_MAJORS=... chooses others.
ifdef PG_QUERY_DIR
$(eval PG$(PG_MAJOR)_DIR ?= $(PG_QUERY_DIR))
endif
PGBIND_MAJORS ?= $(if $(SAN),$(PG_MAJOR),$(sort $(MAJORS) $(PG_MAJOR)))
# Each major's generated C (make generate writes targets/c/generated/pgNN/; another folder of
# pgNN/ folders may be named).
MAJORS_GEN    ?= $(C_GEN_ROOT)
# What is compiled once per major: the runtime, the statement reader and the command's files but
# cli/main.c (the Makefile's RT_SRCS and CLI_SRCS).
CLI_MAJOR_SRCS := $(RT_SRCS) reader/reader.c $(CLI_SRCS)
CLI_MAJOR_HDRS := $(wildcard $(RT_DIR)/*.h cli/*.h) reader/reader.h
cli_major_objs = $(patsubst %.c,$(MAJORS_DIR)/pg$(1)/obj/%.o,$(CLI_MAJOR_SRCS))
# A tree's headers, as the Makefile takes PG_QUERY_DIR's (the installed major's tree is the
# installed files, linked by tree.sh: the headers the Makefile uses without PG_QUERY_DIR); its
# features (scripts/majors/features.sh) and its versions (version.h, below). $$(cat ...): read
# when the recipe runs, after features.sh wrote it.
cli_tree_flags = -I$(1) -I$(1)/src -I$(1)/protobuf -I$(1)/vendor -I$(1)/src/postgres/include
cli_major_cflags = -I$(RT_DIR) -I$(MAJORS_GEN)/pg$(1) $(call cli_tree_flags,$(MAJORS_DIR)/pg$(1)/tree) -Icli \
	$$(cat $(MAJORS_DIR)/pg$(1)/features.txt) -include $(MAJORS_DIR)/pg$(1)/version.h

# Runs every time (quick); rewrites features.txt only when the flags changed.
$(MAJORS_DIR)/pg%/features.txt: $(MAJORS_DIR)/pg%/link-libs.txt scripts/majors/features.sh majors-force
	@CC="$(CC)" scripts/majors/features.sh $* $(MAJORS_DIR)/pg$*

$(MAJORS_DIR)/pg%/release.txt: $(MAJORS_DIR)/pg%/tree.txt ;

# pgbind's version, 0.MAJOR.N as the packages' (scripts/dist.sh), and the libpg_query release
# tree.sh found, for cli/pgbind.c.
$(MAJORS_DIR)/pg%/version.h: $(MAJORS_DIR)/pg%/release.txt
	@{ echo '/* Generated by mk/majors.mk from $<: do not edit. */'; \
	   echo '#define PGBIND_VERSION "0.$*.0"'; \
	   echo "#define PGBIND_PG_QUERY_RELEASE \"$$(sed 's/[\\"]/\\&/g' $<)\""; } >$@

define cli_major_rules
$(MAJORS_DIR)/pg$(1)/obj/%.o: %.c $$(CLI_MAJOR_HDRS) $(wildcard $(MAJORS_GEN)/pg$(1)/*) $(MAJORS_DIR)/pg$(1)/features.txt \
		$(MAJORS_DIR)/pg$(1)/version.h $(MAJORS_DIR)/pg$(1)/tree.txt
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_ALL) $$(call cli_major_cflags,$(1)) -c -o $$@ $$<

$(MAJORS_DIR)/pg$(1)/cmd/pgbind.o: $(call cli_major_objs,$(1)) scripts/majors/link-command.sh scripts/majors/link-major.sh \
		tests/versions/glibc_compat.c
	@echo "link-command.sh $(1)"
	@mkdir -p $$(@D)
	@CC="$$(CC)" LINK_FLAGS="$$(LDFLAGS_ALL)" scripts/majors/link-command.sh $(1) $(MAJORS_DIR)/pg$(1)/tree $$(@D) \
		$$(filter %.o,$$^)
endef
$(foreach m,$(PGBIND_MAJORS),$(eval $(call cli_major_rules,$(m))))

.SECONDARY: $(foreach m,$(PGBIND_MAJORS),$(call cli_major_objs,$(m)) $(addprefix $(MAJORS_DIR)/pg$(m)/,features.txt release.txt version.h))

# The table of the command's majors (cli/major.h): written when PGBIND_MAJORS changes.
$(MAJORS_DIR)/cli_table.c: majors-force | $(BUILD)/.dir
	@mkdir -p $(MAJORS_DIR)
	@{ echo '/* Generated by mk/majors.mk from the majors "$(PGBIND_MAJORS)": do not edit. */'; \
	   echo '#include "major.h"'; \
	   $(foreach m,$(PGBIND_MAJORS),echo 'extern const cli_Major pgbind_pg$(m)_cli_major;';) \
	   echo 'const cli_Major *const cli_majors[] = {'; \
	   $(foreach m,$(PGBIND_MAJORS),echo '	&pgbind_pg$(m)_cli_major$(,)';) \
	   echo '	0$(,)'; \
	   echo '};'; } >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# cli/host.c gives every major's command the table and the converters between majors (the
# Makefile's CONV_OBJS, linked once here: a major's object stays self-contained).
$(BUILD)/pgbind: cli/main.c cli/host.c cli/major.h $(RT_DIR)/pgbind_convert.h $(MAJORS_DIR)/cli_table.c $(CONV_OBJS) \
		$(foreach m,$(PGBIND_MAJORS),$(MAJORS_DIR)/pg$(m)/cmd/pgbind.o)
	$(CC) $(CFLAGS_ALL) -Icli -I$(RT_DIR) -o $@ cli/main.c cli/host.c $(MAJORS_DIR)/cli_table.c $(filter %.o,$^) \
		$(LDFLAGS_ALL) -lm -pthread

# ---- the test (tests/majors/) ---------------------------------------------------------------------

MAJORS_TEST_H := tests/majors/answers.h tests/majors/read_file.h
MAJORS_TSAN   := -O1 -g -fsanitize=thread -fno-omit-frame-pointer

majors-test: deps $(MAJORS_DIR)/one_process $(MAJORS_DIR)/one_process_tsan $(BUILD)/pgbind $(MAJORS_DIR)/cli_sequence \
	$(MAJORS_DIR)/convert_bytes $(MAJORS_DIR)/wire_keys \
	$(foreach m,$(PGBIND_MAJORS),$(MAJORS_DIR)/pg$(m)/cli_reference)

# tests/majors/answers.c once per major for its renamed copy (plain and ThreadSanitizer'd), once
# against its own unrenamed library (the reference program), and once for the user's -lpg_query.
$(MAJORS_DIR)/pg%/answers.o: tests/majors/answers.c $(MAJORS_TEST_H) $(MAJORS_DIR)/pg%/pg_query_names.h
	$(CC) $(CFLAGS_ALL) -DANSWERS_NAME=answers_pg$* -DANSWERS_LABEL='"pg$* (renamed)"' \
		-include $(MAJORS_DIR)/pg$*/pg_query_names.h -I$(MAJORS_DIR)/pg$*/tree -c -o $@ $<

$(MAJORS_DIR)/pg%/answers_tsan.o: tests/majors/answers.c $(MAJORS_TEST_H) $(MAJORS_DIR)/pg%/pg_query_names.h
	$(CC) $(CSTD) $(MAJORS_TSAN) $(WARN) -DANSWERS_NAME=answers_pg$* -DANSWERS_LABEL='"pg$* (renamed)"' \
		-include $(MAJORS_DIR)/pg$*/pg_query_names.h -I$(MAJORS_DIR)/pg$*/tree -c -o $@ $<

$(MAJORS_DIR)/pg%/reference: tests/majors/reference.c tests/majors/answers.c $(MAJORS_TEST_H) $(MAJORS_DIR)/pg%/tree.txt \
		$(MAJORS_DIR)/pg%/link-libs.txt
	$(CC) $(CFLAGS_ALL) -DANSWERS_NAME=answers_reference -DANSWERS_LABEL='"reference"' -I$(MAJORS_DIR)/pg$*/tree \
		-o $@ tests/majors/reference.c tests/majors/answers.c $(MAJORS_DIR)/pg$*/tree/libpg_query.a \
		$$(cat $(MAJORS_DIR)/pg$*/link-libs.txt) $(LDFLAGS_ALL) -lm -pthread

$(MAJORS_DIR)/user/answers.o $(MAJORS_DIR)/user/answers_tsan.o: tests/majors/answers.c $(MAJORS_TEST_H) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(if $(findstring tsan,$@),$(CSTD) $(MAJORS_TSAN) $(WARN),$(CFLAGS_ALL)) -DANSWERS_NAME=answers_user \
		-DANSWERS_LABEL='"user (-lpg_query)"' -c -o $@ $<

# The table of majors one_process reads (tests/majors/answers.h): written when MAJORS changes.
$(MAJORS_DIR)/table.c: majors-force | $(BUILD)/.dir
	@mkdir -p $(MAJORS_DIR)
	@{ echo '/* Generated by mk/majors.mk from MAJORS="$(MAJORS)": do not edit. */'; \
	   echo '#include "answers.h"'; \
	   $(foreach m,$(MAJORS),echo 'extern const MajorApi answers_pg$(m);';) \
	   echo 'extern const MajorApi answers_user;'; \
	   echo 'const MajorEntry majors_table[] = {'; \
	   $(foreach m,$(MAJORS),echo '	{$(m), &answers_pg$(m), "$(abspath $(MAJORS_DIR))/pg$(m)/reference"}$(,)';) \
	   echo '	{0, 0, 0}$(,)'; \
	   echo '};'; \
	   echo 'const MajorEntry majors_user = {$(MAJORS_USER), &answers_user, 0};'; } >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

MAJORS_OBJS   = $(foreach m,$(MAJORS),$(MAJORS_DIR)/pg$(m)/libpg_query.o)
MAJORS_REFS   = $(foreach m,$(MAJORS),$(MAJORS_DIR)/pg$(m)/reference)

# Every renamed major and the user's own libpg_query (-lpg_query: Debian's shared library, as a
# program would link it) in one program.
$(MAJORS_DIR)/one_process: tests/majors/one_process.c $(MAJORS_DIR)/table.c $(MAJORS_OBJS) $(MAJORS_REFS) \
		$(foreach m,$(MAJORS),$(MAJORS_DIR)/pg$(m)/answers.o) $(MAJORS_DIR)/user/answers.o
	$(CC) $(CFLAGS_ALL) -Itests/majors -o $@ tests/majors/one_process.c $(MAJORS_DIR)/table.c \
		$(filter %.o,$^) $(LDFLAGS_ALL) -lpg_query -lm -pthread

# The same under ThreadSanitizer: the test's own code instrumented; the libraries are not (as
# make check's test_hardening_tsan), so TSan sees their memory through the calls and the
# allocator, not their inner accesses.
$(MAJORS_DIR)/one_process_tsan: tests/majors/one_process.c $(MAJORS_DIR)/table.c $(MAJORS_OBJS) $(MAJORS_REFS) \
		$(foreach m,$(MAJORS),$(MAJORS_DIR)/pg$(m)/answers_tsan.o) $(MAJORS_DIR)/user/answers_tsan.o
	$(CC) $(CSTD) $(MAJORS_TSAN) $(WARN) -Itests/majors -o $@ tests/majors/one_process.c $(MAJORS_DIR)/table.c \
		$(filter %.o,$^) -lpg_query -lm -pthread

# The command's tests (tests/majors/cli_cases.sh, cli_sequence.c): each major's pg_query_fingerprint
# and pg_query_parse_protobuf alone in a program of its own, and every major's command in one.
$(MAJORS_DIR)/pg%/cli_reference: tests/majors/cli_reference.c tests/majors/read_file.h $(MAJORS_DIR)/pg%/tree.txt \
		$(MAJORS_DIR)/pg%/link-libs.txt
	$(CC) $(CFLAGS_ALL) -I$(MAJORS_DIR)/pg$*/tree -o $@ tests/majors/cli_reference.c $(MAJORS_DIR)/pg$*/tree/libpg_query.a \
		$$(cat $(MAJORS_DIR)/pg$*/link-libs.txt) $(LDFLAGS_ALL) -lm -pthread

# tests/majors/cli_as.sh's second route to `parse --as`: the library's converter alone, as a user's
# program links it (libpgbind.a: only the converter's members are pulled).
$(MAJORS_DIR)/convert_bytes: tests/majors/convert_bytes.c tests/majors/read_file.h $(RT_DIR)/pgbind_convert.h $(BUILD)/libpgbind.a
	$(CC) $(CFLAGS_ALL) -I$(RT_DIR) -o $@ tests/majors/convert_bytes.c $(BUILD)/libpgbind.a

# ... and its comparison of the command's --as with a major's own parse, field by field
# (tests/convert/wire_diff.c, the converter tables as the protos' description).
$(MAJORS_DIR)/wire_keys: tests/majors/wire_keys.c tests/majors/read_file.h tests/convert/wire_diff.c tests/convert/wire_diff.h \
		$(RT_DIR)/convert_table.h $(BUILD)/libpgbind.a
	$(CC) $(CFLAGS_ALL) -I$(RT_DIR) -Itests/convert -o $@ tests/majors/wire_keys.c tests/convert/wire_diff.c \
		$(BUILD)/libpgbind.a

$(MAJORS_DIR)/cli_sequence: tests/majors/cli_sequence.c cli/host.c cli/major.h $(MAJORS_DIR)/cli_table.c $(CONV_OBJS) \
		$(foreach m,$(PGBIND_MAJORS),$(MAJORS_DIR)/pg$(m)/cmd/pgbind.o)
	$(CC) $(CFLAGS_ALL) -Icli -I$(RT_DIR) -o $@ tests/majors/cli_sequence.c cli/host.c $(MAJORS_DIR)/cli_table.c \
		$(filter %.o,$^) $(LDFLAGS_ALL) -lm -pthread

