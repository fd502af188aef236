#!/bin/sh
# shellcheck disable=SC2016,SC2012,SC2010,SC1003,SC2020
# tests/generator/bump/run.sh -- version-bump fixtures for pgbind's generator.
#
# Copies the PostgreSQL server headers the extractor and the runtime read (pg_config
# --includedir-server) and libpg_query's pg_query.proto into a temporary directory. Each fixture
# then edits the COPIES the way a PostgreSQL/libpg_query bump (15 -> 16, 17, 18) changes them,
# re-extracts the node model with $BUILD/pgbind-extract, regenerates with $BUILD/pgbind-gen into
# a temporary directory, compiles targets/c/runtime/*.c against that output and the edited headers (no
# link: the installed library stays libpg_query 15-4.0.0), and checks that the change shows up
# where it should. The unmappable fixtures check that pgbind-gen stops with exit status 1, a
# message naming what it could not map (with file:line and, where one exists, the override to
# write) and no output left behind.
#
#   BUILD=build tests/generator/bump/run.sh         (make check runs it from tests/run.sh)
#
# Environment: BUILD (default build), CC (cc), PG_CONFIG (pg_config), PG_INCLUDE_SERVER
# (pg_config --includedir-server), PG_QUERY_PROTO (/usr/include/pg_query/pg_query.proto),
# PG_QUERY_INCLUDE (the proto's directory), OVERRIDES (schema/overrides.txt, whose since:/until:
# lines hold for the headers' major; the fixtures get the files as one), COMPILE_ALL=1 (every runtime file with -c, see
# compile_runtime), KEEP=1 (keep the temporary directory and print its name).
# The last line is "N passed, M failed"; the exit status is 1 when a check failed.
set -u
cd "$(dirname "$0")/../../.." || exit 2

BUILD=${BUILD:-build}
CC=${CC:-cc}
PG_CONFIG=${PG_CONFIG:-pg_config}
SRV=${PG_INCLUDE_SERVER:-$($PG_CONFIG --includedir-server 2>/dev/null)}
PROTO=${PG_QUERY_PROTO:-/usr/include/pg_query/pg_query.proto}
PGQ_INC=${PG_QUERY_INCLUDE:-$(dirname "$PROTO")}
OVERRIDES=${OVERRIDES:-schema/overrides.txt}
GEN=$BUILD/pgbind-gen
EXTRACT=$BUILD/pgbind-extract
# The project's warning flags (Makefile WARN), as errors: generated code that warns is a finding.
CFLAGS_T="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O0 -Wall -Wextra -Wshadow -Wstrict-prototypes \
-Wmissing-prototypes -Werror"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgbind-bump.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then
	trap 'echo "kept $TMP"' EXIT
else
	trap 'rm -rf "$TMP"' EXIT
fi
trap 'exit 130' INT TERM

passed=0
failed=0
FIX=""           # label of the current fixture, e.g. [3]
fix_failed=0
RESULTS=$TMP/results.txt
: >"$RESULTS"

# ---- reporting -----------------------------------------------------------------------------------

ok() {
	passed=$((passed + 1))
	printf 'ok   %s %s\n' "$FIX" "$1"
}
# bad NAME [DETAIL-FILE]: one failed check; the detail file's first lines are shown.
bad() {
	failed=$((failed + 1))
	fix_failed=1
	printf 'FAIL %s %s\n' "$FIX" "$1"
	if [ $# -ge 2 ] && [ -s "$2" ]; then
		head -n 25 "$2" | sed 's/^/     | /'
	fi
}
# check NAME CMD...: CMD's exit status decides; its output is shown when it fails.
check() {
	c_name=$1
	shift
	if "$@" >"$TMP/check.out" 2>&1; then ok "$c_name"; else bad "$c_name" "$TMP/check.out"; fi
}

# ---- helpers ---------------------------------------------------------------------------------------

# edit_c FILE START_ERE END_ERE OP ANCHOR_ERE [TEXT]: in the first block of FILE from a line
# matching START_ERE to one matching END_ERE, the first line matching ANCHOR_ERE gets TEXT
# inserted after (OP after) or before it (before), is replaced by TEXT (replace), has the part
# matching ANCHOR_ERE replaced by TEXT (subst: comments on the line stay) or is deleted (delete).
# TEXT goes through awk -v, so \t and \n are a tab and a newline. Fails (3) when the anchor is
# not found, leaving FILE alone.
edit_c() {
	awk -v s="$2" -v e="$3" -v op="$4" -v a="$5" -v t="${6:-}" '
		!started && $0 ~ s { inb = 1; started = 1 }
		inb && !done && $0 ~ a {
			done = 1
			if (op == "after") { print; print t; next }
			if (op == "before") { print t; print; next }
			if (op == "replace") { print t; next }
			if (op == "subst") { sub(a, t); print; next }
			if (op == "delete") next
		}
		{ print }
		inb && $0 ~ e { inb = 0 }
		END { if (!done) exit 3 }' "$1" >"$1.new" && mv "$1.new" "$1"
}

# edit_proto FILE BLOCK_ERE OP ANCHOR_ERE [TEXT]: inside the proto message/enum whose opening line
# matches BLOCK_ERE, insert TEXT after the member matching ANCHOR_ERE (OP after; @N@ in TEXT is
# that member's number + 1) or delete it (OP delete); every later member of the block is
# renumbered (+1 / -1), as libpg_query numbers fields, oneof members and enum values 1..n in
# declaration order. Fails (3) when the anchor is not found.
edit_proto() {
	awk -v blk="$2" -v op="$3" -v a="$4" -v t="${5:-}" '
		function num(s) { return match(s, /= [0-9]+/) ? substr(s, RSTART + 2, RLENGTH - 2) + 0 : -1 }
		function renum(s, d,   n) {
			if (!match(s, /= [0-9]+/)) return s
			n = substr(s, RSTART + 2, RLENGTH - 2) + d
			return substr(s, 1, RSTART + 1) n substr(s, RSTART + RLENGTH)
		}
		$0 ~ blk { inb = 1 }
		inb && /^}/ { inb = 0; shift = 0 }
		inb && shift { $0 = renum($0, shift) }
		inb && !done && $0 ~ a {
			done = 1
			if (op == "after") { print; n = num($0) + 1; gsub(/@N@/, n, t); print t; shift = 1; next }
			if (op == "delete") { shift = -1; next }
		}
		{ print }
		END { if (!done) exit 3 }' "$1" >"$1.new" && mv "$1.new" "$1"
}

# setup NAME CMD...: an edit of the copied inputs; a failed edit fails the fixture (the inputs
# are not what the fixture describes, so nothing after it means anything).
setup() {
	s_name=$1
	shift
	if ! "$@" >"$TMP/setup.out" 2>&1; then
		bad "setup: $s_name did not apply (the installed inputs changed?)" "$TMP/setup.out"
		return 1
	fi
	return 0
}

# new_fixture ID TITLE: a fresh copy of the pristine inputs in $F.
new_fixture() {
	if [ -n "$FIX" ]; then end_fixture; fi
	FIX="[$1]"
	FIX_TITLE=$2
	fix_failed=0
	F=$TMP/f$1
	cp -R "$TMP/pristine" "$F"
	echo "== $FIX $FIX_TITLE"
}
end_fixture() {
	if [ "$fix_failed" -eq 0 ]; then r=passed; else r=FAILED; fi
	printf '%-6s %-6s %s\n' "$FIX" "$r" "$FIX_TITLE" >>"$RESULTS"
}

# extract_model DIR: the edited headers -> DIR/nodes.json
extract_model() {
	"$EXTRACT" --include-dir "$1/server" --out "$1/nodes.json" >"$1/extract.log" 2>&1
}
# generate DIR [OUT]: DIR's model + proto + overrides -> OUT (default DIR/gen): the C target, its
# test-only files and the report; output in DIR/gen.log
generate() {
	"$GEN" --model "$1/nodes.json" --proto "$1/pg_query.proto" --overrides "$1/overrides.txt" --node-rules schema/summary.txt \
		--templates targets/c/templates --out "${2:-$1/gen}" --tests-out "${2:-$1/gen}" \
		--target report --out "${2:-$1/gen}" >"$1/gen.log" 2>&1
}
# regen DIR: extract + generate, each one check.
regen() {
	if extract_model "$1"; then ok "pgbind-extract reads the edited headers"; else
		bad "pgbind-extract reads the edited headers" "$1/extract.log"
		return 1
	fi
	if generate "$1"; then ok "pgbind-gen regenerates"; else
		bad "pgbind-gen regenerates (exit $?)" "$1/gen.log"
		return 1
	fi
	return 0
}

# compile_runtime DIR: targets/c/runtime/*.c against DIR/gen and DIR/server, in parallel; no link. The
# files that include PostgreSQL's headers (targets/c/runtime/pg_headers.h: from_pg.c, to_pg.c, pg_route.c)
# are compiled to objects (-c); the others, which see only the generated AST and tables, go
# through the same front end with -fsyntax-only (every declaration, type, _Static_assert and
# warning; no code generation), which keeps the script within its time budget. COMPILE_ALL=1
# compiles every file with -c.
compile_runtime() {
	mkdir -p "$1/obj"
	pids=""
	for src in targets/c/runtime/*.c; do
		b=$(basename "$src" .c)
		if [ "${COMPILE_ALL:-0}" = 1 ] || grep -q '#include "pg_headers.h"' "$src"; then
			mode="-c -o $1/obj/$b.o"
		else
			mode=-fsyntax-only
		fi
		# shellcheck disable=SC2086
		$CC $CFLAGS_T $mode "$src" -Itargets/c/runtime -I"$1/gen" -I"$PGQ_INC" -I"$1/server" >"$1/obj/$b.log" 2>&1 &
		pids="$pids $!:$b"
	done
	broken=""
	for pb in $pids; do
		wait "${pb%%:*}" || broken="$broken ${pb#*:}"
	done
	if [ -z "$broken" ]; then
		ok "targets/c/runtime/*.c compile (-Werror) against the regenerated code and the edited headers"
	else
		for b in $broken; do cat "$1/obj/$b.log"; done >"$TMP/cc.out"
		bad "runtime compile fails for:$broken" "$TMP/cc.out"
	fi
}

# block FILE FIRST LAST: the lines from one exactly FIRST to the next exactly LAST.
block() {
	awk -v s="$2" -v e="$3" '$0 == s { p = 1 } p { print } p && $0 == e { exit }' "$1"
}
# expect_block NAME FILE FIRST LAST <<EOF: that block, leading/trailing blanks ignored, is stdin.
expect_block() {
	eb_name=$1
	sed 's/^[[:space:]]*//; s/[[:space:]]*$//' >"$TMP/want"
	# an encoder block is compared on its field lines only: what the encoder does around them
	# (room reservations, prefetches) is the runtime's business, not the bump's
	case $3 in
	ENC_BEGIN*) keep='^(ENC_BEGIN|ENC_END|ENC_[A-Z0-9_]+\([0-9]+,)' ;;
	*) keep='' ;;
	esac
	block "$2" "$3" "$4" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -E -- "${keep:-.}" >"$TMP/got"
	if [ ! -s "$TMP/got" ]; then
		printf 'no block starting with the line: %s\n' "$3" >"$TMP/diff"
		bad "$eb_name" "$TMP/diff"
	elif diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then
		ok "$eb_name"
	else
		bad "$eb_name" "$TMP/diff"
	fi
}
has() { grep -qF -- "$2" "$1"; }    # has FILE STRING
has_re() { grep -qE -- "$2" "$1"; } # has_re FILE ERE
# same_as_base DIR: every generated file equals the baseline's but for the banner's input hashes.
same_as_base() {
	for g in "$TMP/base/gen"/*; do
		n=$(basename "$g")
		grep -v 'fnv1a64' "$g" | sed "s|$TMP/base/|DIR/|g" >"$TMP/a"
		grep -v 'fnv1a64' "$1/gen/$n" | sed "s|$1/|DIR/|g" >"$TMP/b" || return 1
		diff -u "$TMP/a" "$TMP/b" | sed "s|^+++ .*|+++ $n|; s|^--- .*|--- base/$n|" | head -n 40
		cmp -s "$TMP/a" "$TMP/b" || return 1
	done
	[ "$(ls "$1/gen" | wc -l)" -eq "$(ls "$TMP/base/gen" | wc -l)" ]
}
# pairs FILE SED-SCRIPT: "name value" lines the script prints.
pairs() { sed -n "$2" "$1"; }
# line_of FILE ERE: the first line number matching ERE.
line_of() { grep -nE -- "$2" "$1" | head -n 1 | cut -d: -f1; }

# expect_gen_error NAME ERE: pgbind-gen must exit 1 with a message matching ERE and write
# nothing: no output directory, no stray file beside it.
expect_gen_error() {
	ls -A "$F" >"$TMP/before"
	generate "$F"
	rc=$?
	if [ "$rc" -eq 1 ]; then
		ok "pgbind-gen stops (exit 1)"
	elif [ "$rc" -eq 0 ]; then
		bad "pgbind-gen stops: it exited 0 (the change went through unmapped)" "$F/gen.log"
	elif [ "$rc" -gt 128 ]; then
		bad "pgbind-gen stops: it CRASHED (signal $((rc - 128)))" "$F/gen.log"
	else
		bad "pgbind-gen stops with exit 1 (got $rc)" "$F/gen.log"
	fi
	if grep -qE -- "$2" "$F/gen.log"; then ok "$1"; else
		{
			echo "expected a line matching: $2"
			echo "got:"
			cat "$F/gen.log"
		} >"$TMP/msg"
		bad "$1" "$TMP/msg"
	fi
	if [ -e "$F/gen" ]; then
		ls -lA "$F/gen" >"$TMP/left"
		bad "no output directory left behind" "$TMP/left"
	else
		ok "no output directory left behind"
	fi
	ls -A "$F" | grep -v '^gen.log$' >"$TMP/after"
	if diff "$TMP/before" "$TMP/after" >"$TMP/left"; then ok "no stray files written"; else
		bad "no stray files written" "$TMP/left"
	fi
}

# ---- the pristine inputs ---------------------------------------------------------------------------

echo "== inputs"
FIX="[inputs]"
for f in "$GEN" "$EXTRACT"; do
	[ -x "$f" ] || {
		echo "$f is missing: run make first"
		echo "0 passed, 1 failed"
		exit 1
	}
done
missing_overrides=
for f in $OVERRIDES; do [ -f "$f" ] || missing_overrides=$f; done
if [ -z "$SRV" ] || [ ! -f "$SRV/postgres.h" ] || [ ! -f "$PROTO" ] || [ -n "$missing_overrides" ]; then
	echo "server headers ($SRV), proto ($PROTO) or overrides ($OVERRIDES) not found"
	echo "0 passed, 1 failed"
	exit 1
fi

# The headers read: the extractor's translation unit (postgres.h and its nodes/*.h, see
# default_headers in generator/extract.c) and the runtime's (targets/c/runtime/pg_headers.h, with
# pg_query_internal.h, and the server headers a runtime file includes itself) -- about two dozen
# files. cc -M lists them.
mkdir -p "$TMP/pristine/server"
{
	for h in postgres.h nodes/nodes.h nodes/pg_list.h nodes/value.h nodes/bitmapset.h nodes/lockoptions.h \
		nodes/primnodes.h nodes/parsenodes.h; do
		printf '#include "%s"\n' "$h"
	done
	printf '#include "pg_headers.h"\n'
	# and the server headers other runtime files include themselves (summary.c's keyword list)
	sed -n 's/^#include "\(.*\)"$/\1/p' targets/c/runtime/*.c | sort -u | while read -r h; do
		[ ! -f "$SRV/$h" ] || printf '#include "%s"\n' "$h"
	done
} >"$TMP/tu.c"
# the generated C of the headers' major
MAJOR=$(sed -n 's/^#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' "$SRV/pg_config.h")
if $CC -std=gnu11 -M "$TMP/tu.c" -Itargets/c/runtime -Itargets/c/generated/pg"$MAJOR" -I"$PGQ_INC" -I"$SRV" >"$TMP/deps" 2>"$TMP/deps.err"; then
	tr ' \\' '\n\n' <"$TMP/deps" | grep "^$SRV/" | sort -u | sed "s|^$SRV/||" >"$TMP/headers"
	while read -r h; do
		mkdir -p "$TMP/pristine/server/$(dirname "$h")" && cp "$SRV/$h" "$TMP/pristine/server/$h"
	done <"$TMP/headers"
	ok "copied the $(wc -l <"$TMP/headers") server headers the extractor and runtime read"
else
	bad "cc -M lists the headers to copy" "$TMP/deps.err"
fi
cp "$PROTO" "$TMP/pristine/pg_query.proto"
cat $OVERRIDES >"$TMP/pristine/overrides.txt"

FIX="[base]"
FIX_TITLE="unchanged PostgreSQL 15 inputs (the reference every fixture is compared with)"
mkdir -p "$TMP/base"
cp -R "$TMP/pristine/." "$TMP/base/"
regen "$TMP/base"
"$EXTRACT" --include-dir "$SRV" --out "$TMP/installed.json" >/dev/null 2>&1
check "the copied headers give the model the installed ones give" diff -u "$TMP/installed.json" "$TMP/base/nodes.json"
check "the compile reads the temporary generated files, not targets/c/generated/pg$MAJOR/" sh -c "
	$CC -std=gnu11 -M targets/c/runtime/from_pg.c -Itargets/c/runtime -I'$TMP/base/gen' -I'$PGQ_INC' -I'$TMP/base/server' |
		grep -q '$TMP/base/gen/from_pg.inc.c'"
compile_runtime "$TMP/base"
base_skipped=$(sed -n 's/.* \([0-9][0-9]*\) C fields without a proto field.*/\1/p' "$TMP/base/gen.log")
BG=$TMP/base/gen
pairs "$BG/pgbind_ast.h" 's/^[[:space:]]*PGBIND_T_\([A-Za-z0-9_]*\) = \([0-9]*\),$/\1 \2/p' >"$TMP/base.ptags"
pairs "$BG/from_pg.inc.c" 's/^_Static_assert(T_\([A-Za-z0-9_]*\) == \([0-9]*\),.*/\1 \2/p' >"$TMP/base.ctags"

# ---- (1) a node kind inserted mid-NodeTag and mid-oneof ----------------------------------------------

new_fixture 1 "new node kind NewThing: T_NewThing after T_RangeVar, oneof member after range_var (later ones renumbered)"
if setup "T_NewThing after T_RangeVar in nodes.h" \
	edit_c "$F/server/nodes/nodes.h" '^typedef enum NodeTag' '^} NodeTag;' after '^[ \t]*T_RangeVar,' '\tT_NewThing,' &&
	setup "struct NewThing in parsenodes.h" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef struct IndexStmt$' '^} IndexStmt;' after '^} IndexStmt;' \
		'\n/* NewThing -- a node kind new in this release */\ntypedef struct NewThing\n{\n\tNodeTag\t\ttype;\n\tint\t\t\ta;\n\tchar\t   *b;\n\tint\t\t\tlocation;\n} NewThing;' &&
	setup "oneof member NewThing after range_var" \
		edit_proto "$F/pg_query.proto" '^message Node( [{])?$' after ' range_var = [0-9]+ ' \
		'    NewThing new_thing = @N@ [json_name="NewThing"];' &&
	setup "message NewThing after message RangeVar" \
		edit_c "$F/pg_query.proto" '^message RangeVar$' '^}$' after '^}$' \
		'\nmessage NewThing\n{\n  int32 a = 1 [json_name="a"];\n  string b = 2 [json_name="b"];\n  int32 location = 3 [json_name="location"];\n}' &&
	regen "$F"; then
	G=$F/gen
	p_ins=$(($(awk '$1 == "RangeVar" { print $2 }' "$TMP/base.ptags") + 1))
	c_ins=$(($(awk '$1 == "RangeVar" { print $2 }' "$TMP/base.ctags") + 1))
	check "model: struct NewThing with its tag" has "$F/nodes.json" '"tag": "T_NewThing"'
	check "AST: PGBIND_T_NewThing = $p_ins (the oneof number)" has_re "$G/pgbind_ast.h" "^[[:space:]]*PGBIND_T_NewThing = $p_ins,\$"
	pairs "$G/pgbind_ast.h" 's/^[[:space:]]*PGBIND_T_\([A-Za-z0-9_]*\) = \([0-9]*\),$/\1 \2/p' >"$F/ptags"
	check "AST: every later PGBIND_T_ shifted by one, earlier ones kept" awk -v ins="$p_ins" '
		NR == FNR { base[$1] = $2; nb++; next }
		{ seen[$1] = $2; ns++ }
		END {
			for (k in base) {
				want = base[k] + (base[k] >= ins ? 1 : 0)
				if (seen[k] != want) { printf "PGBIND_T_%s = %s, want %d\n", k, seen[k], want; bad++ }
			}
			if (ns != nb + 1) { printf "%d tags, want %d\n", ns, nb + 1; bad++ }
			exit bad > 0
		}' "$TMP/base.ptags" "$F/ptags"
	pairs "$G/from_pg.inc.c" 's/^_Static_assert(T_\([A-Za-z0-9_]*\) == \([0-9]*\),.*/\1 \2/p' >"$F/ctags"
	check "from_pg: _Static_assert(T_NewThing == $c_ins), every later C tag value shifted by one" awk -v ins="$c_ins" '
		NR == FNR { base[$1] = $2; nb++; next }
		{ seen[$1] = $2; ns++ }
		END {
			if (seen["NewThing"] != ins) { printf "T_NewThing == %s, want %d\n", seen["NewThing"], ins; bad++ }
			for (k in base) {
				want = base[k] + (base[k] >= ins ? 1 : 0)
				if (seen[k] != want) { printf "T_%s == %s, want %d\n", k, seen[k], want; bad++ }
			}
			exit bad > 0
		}' "$TMP/base.ctags" "$F/ctags"
	expect_block "from_pg: FROM_PG_BEGIN(NewThing, NewThing) with its three fields" "$G/from_pg.inc.c" \
		'FROM_PG_BEGIN(NewThing, NewThing)' 'FROM_PG_END' <<'EOF'
FROM_PG_BEGIN(NewThing, NewThing)
	FROM_PG_SCALAR(a, a, _)
	FROM_PG_CSTRING(b, b, _)
	FROM_PG_SCALAR(location, location, _)
FROM_PG_END
EOF
	check "from_pg: the dispatcher converts T_NewThing" \
		has_re "$G/from_pg.inc.c" 'case T_NewThing: return \(pgbind_Node \*\) from_pg_NewThing\(cx, \(const NewThing \*\) n'
	expect_block "encode: ENC_BEGIN(NewThing), fields last to first" "$G/encode.inc.c" 'ENC_BEGIN(NewThing)' 'ENC_END' <<'EOF'
ENC_BEGIN(NewThing)
	ENC_INT32(3, location, _)
	ENC_STRING(2, b, _)
	ENC_INT32(1, a, _)
ENC_END
EOF
	check "encode: the dispatcher writes PGBIND_T_NewThing" \
		has_re "$G/encode.inc.c" 'case PGBIND_T_NewThing: return enc_NewThing\(e, .*\(const pgbind_NewThing \*\) n'
	expect_block "AST: struct pgbind_NewThing" "$G/pgbind_ast.h" 'struct pgbind_NewThing {' '};' <<'EOF'
struct pgbind_NewThing {
	pgbind_NodeTag tag; /* PGBIND_T_NewThing */
	int32_t a;
	const char *b;
	int32_t location;
};
EOF
	for g in decode.inc.c to_pg.inc.c equal.inc.c reflect.inc.c; do
		check "$g: handles PGBIND_T_NewThing" has "$G/$g" 'PGBIND_T_NewThing'
	done
	# the walker finds a tag's message in reflect.inc.c's table (above); it has the kind's stepper
	check "walk.inc.c: a stepper for NewThing, its tag 3" sh -c "
		grep -q '^STEP_BEGIN(NewThing)' '$G/walk.inc.c' && grep -q '^#define WALK_TAG_NewThing 3$' '$G/walk.inc.c'"
	n_nodes=$(($(sed -n 's/.* and \([0-9][0-9]*\) node kinds.*/\1/p' "$BG/model-summary.md") + 1))
	check "model-summary.md: $n_nodes node kinds (one more)" has_re "$G/model-summary.md" " and $n_nodes node kinds"
	compile_runtime "$F"
fi

# ---- (1b) NodeTag generated into nodes/nodetags.h (PostgreSQL 16 on) ----------------------------------

new_fixture 1b "NodeTag's members moved to a generated nodes/nodetags.h with explicit values (16)"
if setup "nodes/nodetags.h from NodeTag's body" sh -c '
		h=$1/server/nodes
		awk "
			/^typedef enum NodeTag/ { inb = 1 }
			inb && /^} NodeTag;/ { inb = 0 }
			inb && /^[ \t]*T_[A-Za-z0-9_]+/ && !/T_Invalid/ {
				match(\$0, /T_[A-Za-z0-9_]+/); print \"\t\" substr(\$0, RSTART, RLENGTH) \" = \" (++n) \",\" > \"/dev/stderr\"; next
			}
			inb && /^[ \t]*T_Invalid = 0,/ { print; print \"\"; print \"#include \\\"nodes/nodetags.h\\\"\"; next }
			inb && !/^[{]/ && !/^typedef/ { next }
			{ print }" "$h/nodes.h" >"$h/nodes.h.new" 2>"$h/nodetags.h" &&
		mv "$h/nodes.h.new" "$h/nodes.h" && [ "$(grep -c " = " "$h/nodetags.h")" -gt 400 ]' sh "$F" &&
	regen "$F"; then
	check "model: the same NodeTag values as from PostgreSQL 15's nodes.h" sh -c "
		grep -A2 '\"T_' '$TMP/base/nodes.json' >'$F/a'; grep -A2 '\"T_' '$F/nodes.json' >'$F/b'; diff '$F/a' '$F/b'"
	check "generated code identical to the baseline's (banner hashes aside)" same_as_base "$F"
	compile_runtime "$F"
fi

# ---- (2) a field added to an existing node ----------------------------------------------------------

new_fixture 2 "field added: ColumnDef.storage_name (char *) after storage, proto fields after it renumbered (16)"
if setup "ColumnDef.storage_name in parsenodes.h" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef struct ColumnDef$' '^} ColumnDef;' after '[ \t]storage;' \
	'\tchar\t   *storage_name;\t/* attstorage setting name or NULL for default */' &&
	setup "ColumnDef.storage_name in the proto" \
		edit_proto "$F/pg_query.proto" '^message ColumnDef$' after '^  string storage = ' \
		'  string storage_name = @N@ [json_name="storage_name"];' &&
	regen "$F"; then
	G=$F/gen
	block "$BG/pgbind_ast.h" 'struct pgbind_ColumnDef {' '};' |
		awk '{ print } /const char \*storage;/ { print "\tconst char *storage_name;" }' >"$F/want_struct"
	expect_block "AST: storage_name right after storage, the rest unchanged" "$G/pgbind_ast.h" \
		'struct pgbind_ColumnDef {' '};' <"$F/want_struct"
	check "from_pg: FROM_PG_CSTRING(storage_name, storage_name, _) after FROM_PG_CHAR(storage...)" sh -c "
		grep -A1 'FROM_PG_CHAR(storage, storage, _)' '$G/from_pg.inc.c' | grep -q 'FROM_PG_CSTRING(storage_name, storage_name, _)'"
	expect_block "encode: ENC_STRING(9, storage_name, _), later numbers shifted" "$G/encode.inc.c" \
		'ENC_BEGIN(ColumnDef)' 'ENC_END' <<'EOF'
ENC_BEGIN(ColumnDef)
	ENC_INT32(19, location, _)
	ENC_REPEATED_NODE(18, fdwoptions, Node)
	ENC_REPEATED_NODE(17, constraints, Node)
	ENC_UINT32(16, collOid, _)
	ENC_MESSAGE(15, collClause, CollateClause)
	ENC_STRING(14, generated, _)
	ENC_MESSAGE(13, identitySequence, RangeVar)
	ENC_STRING(12, identity, _)
	ENC_NODE(11, cooked_default, Node)
	ENC_NODE(10, raw_default, Node)
	ENC_STRING(9, storage_name, _)
	ENC_STRING(8, storage, _)
	ENC_BOOL(7, is_from_type, _)
	ENC_BOOL(6, is_not_null, _)
	ENC_BOOL(5, is_local, _)
	ENC_INT32(4, inhcount, _)
	ENC_STRING(3, compression, _)
	ENC_MESSAGE(2, typeName, TypeName)
	ENC_STRING(1, colname, _)
ENC_END
EOF
	check "to_pg: TO_PG_CSTRING(storage_name, ...)" has "$G/to_pg.inc.c" 'TO_PG_CSTRING(storage_name, storage_name, _)'
	compile_runtime "$F"
fi

# ---- (3) a field renamed --------------------------------------------------------------------------------

new_fixture 3 "field renamed: IndexStmt.oldNode -> oldNumber (C name, proto old_node -> old_number, json_name) (16)"
if setup "IndexStmt.oldNumber in parsenodes.h" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef struct IndexStmt$' '^} IndexStmt;' subst 'oldNode;' 'oldNumber;' &&
	setup "old_number in the proto" \
		sh -c 'sed "s/^  uint32 old_node = 12 \[json_name=\"oldNode\"\];/  uint32 old_number = 12 [json_name=\"oldNumber\"];/" \
			"$1" >"$1.new" && ! cmp -s "$1" "$1.new" && mv "$1.new" "$1"' sh "$F/pg_query.proto" &&
	regen "$F"; then
	G=$F/gen
	block "$BG/pgbind_ast.h" 'struct pgbind_IndexStmt {' '};' | sed 's/uint32_t oldNode;/uint32_t oldNumber;/' >"$F/want_struct"
	expect_block "AST: member oldNumber (the json_name) in oldNode's place" "$G/pgbind_ast.h" \
		'struct pgbind_IndexStmt {' '};' <"$F/want_struct"
	check "from_pg: FROM_PG_SCALAR(oldNumber, oldNumber, _)" has "$G/from_pg.inc.c" 'FROM_PG_SCALAR(oldNumber, oldNumber, _)'
	check "encode: ENC_UINT32(12, oldNumber, _)" has "$G/encode.inc.c" 'ENC_UINT32(12, oldNumber, _)'
	check "reflect: AST name oldNumber, proto name old_number" \
		has "$G/reflect.inc.c" '{"oldNumber", "old_number", 12, PGBIND_WIRE_UINT32, offsetof(pgbind_IndexStmt, oldNumber)'
	check "the old name is gone from every generated file" sh -c "! grep -rn 'oldNode\|old_node' '$G'"
	compile_runtime "$F"
fi

# ---- (4) a field removed ---------------------------------------------------------------------------------

new_fixture 4 "field removed: IndexStmt.idxcomment from the struct and the proto (later fields renumbered)"
if setup "IndexStmt.idxcomment out of parsenodes.h" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef struct IndexStmt$' '^} IndexStmt;' delete '[*]idxcomment;' &&
	setup "idxcomment out of the proto" \
		edit_proto "$F/pg_query.proto" '^message IndexStmt$' delete '^  string idxcomment = ' &&
	regen "$F"; then
	G=$F/gen
	check "idxcomment is gone from every generated file" sh -c "! grep -rn 'idxcomment' '$G'"
	block "$BG/pgbind_ast.h" 'struct pgbind_IndexStmt {' '};' | grep -v 'idxcomment' >"$F/want_struct"
	expect_block "AST: struct pgbind_IndexStmt without it, the rest unchanged" "$G/pgbind_ast.h" \
		'struct pgbind_IndexStmt {' '};' <"$F/want_struct"
	block "$BG/from_pg.inc.c" 'FROM_PG_BEGIN(IndexStmt, IndexStmt)' 'FROM_PG_END' | grep -v 'idxcomment' >"$F/want_from"
	expect_block "from_pg: the IndexStmt converter without it" "$G/from_pg.inc.c" \
		'FROM_PG_BEGIN(IndexStmt, IndexStmt)' 'FROM_PG_END' <"$F/want_from"
	expect_block "encode: later fields renumbered down by one (23..10)" "$G/encode.inc.c" 'ENC_BEGIN(IndexStmt)' 'ENC_END' <<'EOF'
ENC_BEGIN(IndexStmt)
	ENC_BOOL(23, reset_default_tblspc, _)
	ENC_BOOL(22, if_not_exists, _)
	ENC_BOOL(21, concurrent, _)
	ENC_BOOL(20, transformed, _)
	ENC_BOOL(19, initdeferred, _)
	ENC_BOOL(18, deferrable, _)
	ENC_BOOL(17, isconstraint, _)
	ENC_BOOL(16, primary, _)
	ENC_BOOL(15, nulls_not_distinct, _)
	ENC_BOOL(14, unique, _)
	ENC_UINT32(13, oldFirstRelfilenodeSubid, _)
	ENC_UINT32(12, oldCreateSubid, _)
	ENC_UINT32(11, oldNode, _)
	ENC_UINT32(10, indexOid, _)
	ENC_REPEATED_NODE(9, excludeOpNames, Node)
	ENC_NODE(8, whereClause, Node)
	ENC_REPEATED_NODE(7, options, Node)
	ENC_REPEATED_NODE(6, indexIncludingParams, Node)
	ENC_REPEATED_NODE(5, indexParams, Node)
	ENC_STRING(4, tableSpace, _)
	ENC_STRING(3, accessMethod, _)
	ENC_MESSAGE(2, relation, RangeVar)
	ENC_STRING(1, idxname, _)
ENC_END
EOF
	compile_runtime "$F"
fi

# ---- (5) an enum value added mid-list ------------------------------------------------------------------

new_fixture 5 "enum value added: SETOP_NEW after SETOP_UNION in C and proto (proto renumbered 1..n)"
if setup "SETOP_NEW in parsenodes.h" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef enum SetOperation$' '^} SetOperation;' after '^[ \t]*SETOP_UNION,' \
	'\tSETOP_NEW,' &&
	setup "SETOP_NEW in the proto" \
		edit_proto "$F/pg_query.proto" '^enum SetOperation$' after '^  SETOP_UNION = ' '  SETOP_NEW = @N@;' &&
	regen "$F"; then
	G=$F/gen
	expect_block "AST enum: PGBIND_SETOP_NEW = 3, later values renumbered" "$G/pgbind_ast.h" \
		'typedef enum pgbind_SetOperation {' '} pgbind_SetOperation;' <<'EOF'
typedef enum pgbind_SetOperation {
	PGBIND_SET_OPERATION_UNDEFINED = 0,
	PGBIND_SETOP_NONE = 1,
	PGBIND_SETOP_UNION = 2,
	PGBIND_SETOP_NEW = 3,
	PGBIND_SETOP_INTERSECT = 4,
	PGBIND_SETOP_EXCEPT = 5,
} pgbind_SetOperation;
EOF
	expect_block "from_pg switch: C 2 -> proto 3 (SETOP_NEW), the later ones moved" "$G/from_pg.inc.c" \
		'static int32_t from_pg_enum_SetOperation(FromPg *cx, int v)' '}' <<'EOF'
static int32_t from_pg_enum_SetOperation(FromPg *cx, int v)
{
	switch (v) {
	case 0: return 1; /* SETOP_NONE */
	case 1: return 2; /* SETOP_UNION */
	case 2: return 3; /* SETOP_NEW */
	case 3: return 4; /* SETOP_INTERSECT */
	case 4: return 5; /* SETOP_EXCEPT */
	}
	return from_pg_bad_enum(cx, "SetOperation", v);
}
EOF
	check "to_pg switch: proto 3 -> C 2 (SETOP_NEW)" has "$G/to_pg.inc.c" 'case 3: return 2; /* SETOP_NEW */'
	check "from_pg: _Static_assert(SETOP_NEW == 2, ...) and SETOP_EXCEPT == 4" sh -c "
		grep -q '^_Static_assert(SETOP_NEW == 2,' '$G/from_pg.inc.c' && grep -q '^_Static_assert(SETOP_EXCEPT == 4,' '$G/from_pg.inc.c'"
	check "reflect: {\"SETOP_NEW\", 3}" has "$G/reflect.inc.c" '{"SETOP_NEW", 3},'
	compile_runtime "$F"
fi

# ---- (6) location fields typed ParseLoc (18) ---------------------------------------------------------

new_fixture 6 "every 'int ...location' field typed ParseLoc, 'typedef int ParseLoc;' in nodes.h (18)"
if setup "typedef int ParseLoc in nodes.h" \
	edit_c "$F/server/nodes/nodes.h" '^#define NODES_H' '^#define NODES_H' after '^#define NODES_H' \
	'\n/* PostgreSQL 18: the type of parse locations */\ntypedef int ParseLoc;' &&
	setup "int location -> ParseLoc location in primnodes.h and parsenodes.h" sh -c '
		for h in "$1/primnodes.h" "$1/parsenodes.h"; do
			awk "\$1 == \"int\" && \$2 ~ /^[a-z_]*location;/ { sub(/int/, \"ParseLoc\"); n++ } { print }
				END { print n > \"/dev/stderr\" }" "$h" >"$h.new" 2>>"$1/../../n_loc" && mv "$h.new" "$h" || exit 1
		done
		[ "$(awk "{ s += \$1 } END { print s }" "$1/../../n_loc")" -gt 50 ]' sh "$F/server/nodes" &&
	regen "$F"; then
	G=$F/gen
	n_loc=$(awk '{ s += $1 } END { print s }' "$F/n_loc")
	check "model: $n_loc fields of type ParseLoc, each canonical int" sh -c "
		n=\$(grep -c '\"type\": \"ParseLoc\"' '$F/nodes.json'); [ \"\$n\" -eq $n_loc ] || { echo \"\$n fields\"; exit 1; }
		[ \$(grep -A1 '\"type\": \"ParseLoc\"' '$F/nodes.json' | grep -c '\"canonical\": \"int\"') -eq $n_loc ]"
	check "from_pg: as many location fields FROM_PG_SCALAR as before (and RangeVar's)" sh -c "
		b=\$(grep -c 'FROM_PG_SCALAR([a-z_]*location,' '$BG/from_pg.inc.c'); n=\$(grep -c 'FROM_PG_SCALAR([a-z_]*location,' '$G/from_pg.inc.c')
		echo \"\$n, before \$b\"; [ \"\$b\" -gt 50 ] && [ \"\$n\" -eq \"\$b\" ] &&
		grep -A8 '^FROM_PG_BEGIN(RangeVar, RangeVar)' '$G/from_pg.inc.c' | grep -q 'FROM_PG_SCALAR(location, location, _)'"
	check "generated code identical to the baseline's (banner hashes aside)" same_as_base "$F"
	compile_runtime "$F"
fi

# ---- (7) pg_node_attr annotations (16) ------------------------------------------------------------------

new_fixture 7 "pg_node_attr(...) annotations (16): on a struct, an existing field, and a new C-only field A_Expr.rexpr_list_start"
if {
	grep -q 'define pg_node_attr' "$F/server/nodes/nodes.h" ||
		setup "#define pg_node_attr(...) in nodes.h" \
			edit_c "$F/server/nodes/nodes.h" '^#define NODES_H' '^#define NODES_H' after '^#define NODES_H' \
			'\n/* PostgreSQL 16: node attributes for gen_node_support.pl */\n#define pg_node_attr(...)'
} &&
	setup "pg_node_attr(custom_read_write) on struct A_Expr" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef struct A_Expr$' '^} A_Expr;' after '^[{]' \
		'\tpg_node_attr(custom_read_write)\n' &&
	setup "A_Expr.rexpr_list_start pg_node_attr(query_jumble_ignore), a C-only field" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef struct A_Expr$' '^} A_Expr;' before '^} A_Expr;' \
		'\tint\t\t\trexpr_list_start pg_node_attr(query_jumble_ignore);\t/* not in the proto */' &&
	setup "RangeVar.location pg_node_attr(query_jumble_location)" \
		edit_c "$F/server/nodes/primnodes.h" '^typedef struct RangeVar$' '^} RangeVar;' subst 'location;' \
		'location pg_node_attr(query_jumble_location);' &&
	regen "$F"; then
	G=$F/gen
	l=$(line_of "$F/server/nodes/parsenodes.h" 'rexpr_list_start')
	check "model-summary.md lists A_Expr.rexpr_list_start (int, nodes/parsenodes.h:$l)" has_re "$G/model-summary.md" \
		"^\\| A_Expr \\| A_Expr \\| rexpr_list_start \\| \`int\` \\| nodes/parsenodes.h:$l:[0-9]+ \\|\$"
	check "pgbind-gen reports $((base_skipped + 1)) C fields without a proto field (was $base_skipped)" \
		has "$F/gen.log" "$((base_skipped + 1)) C fields without a proto field"
	block "$BG/pgbind_ast.h" 'struct pgbind_A_Expr {' '};' >"$F/want_struct"
	expect_block "AST: struct pgbind_A_Expr unchanged (no rexpr_list_start)" "$G/pgbind_ast.h" \
		'struct pgbind_A_Expr {' '};' <"$F/want_struct"
	check "from_pg: the annotated RangeVar.location still FROM_PG_SCALAR" sh -c "
		grep -A8 '^FROM_PG_BEGIN(RangeVar, RangeVar)' '$G/from_pg.inc.c' | grep -q 'FROM_PG_SCALAR(location, location, _)'"
	compile_runtime "$F"
fi

# ---- (8) a char * field that becomes an enum with char values (16) --------------------------------------

new_fixture 8 "PartitionSpec.strategy: char * -> enum PartitionStrategy {'l','r','h'}, proto string -> enum (16)"
if setup "enum PartitionStrategy replaces the PARTITION_STRATEGY_ #defines" sh -c '
		h=$1
		awk "/^#define[ \t]+PARTITION_STRATEGY_(HASH|LIST|RANGE)[ \t]/ { n++; next } { print } END { exit n != 3 }" \
			"$h" >"$h.new" && mv "$h.new" "$h"' sh "$F/server/nodes/parsenodes.h" &&
	setup "typedef enum PartitionStrategy before PartitionSpec" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef struct PartitionSpec$' '^} PartitionSpec;' before \
		'^typedef struct PartitionSpec$' \
		"typedef enum PartitionStrategy\n{\n\tPARTITION_STRATEGY_LIST = 'l',\n\tPARTITION_STRATEGY_RANGE = 'r',\n\tPARTITION_STRATEGY_HASH = 'h'\n} PartitionStrategy;\n" &&
	setup "PartitionStrategy strategy in struct PartitionSpec" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef struct PartitionSpec$' '^} PartitionSpec;' subst \
		'char[ \t]+[*]strategy;' 'PartitionStrategy strategy;' &&
	setup "proto: PartitionSpec's PartitionStrategy strategy = 1" \
		edit_c "$F/pg_query.proto" '^message PartitionSpec$' '^}$' subst '^  string strategy = 1 ' '  PartitionStrategy strategy = 1 ' &&
	setup "proto: enum PartitionStrategy" sh -c 'printf "\nenum PartitionStrategy\n{\n  PARTITION_STRATEGY_UNDEFINED = 0;\n  PARTITION_STRATEGY_LIST = 1;\n  PARTITION_STRATEGY_RANGE = 2;\n  PARTITION_STRATEGY_HASH = 3;\n}\n" >>"$1"' sh "$F/pg_query.proto" &&
	regen "$F"; then
	G=$F/gen
	check "from_pg: PartitionSpec.strategy is FROM_PG_ENUM(strategy, strategy, PartitionStrategy)" sh -c "
		grep -A3 '^FROM_PG_BEGIN(PartitionSpec, PartitionSpec)' '$G/from_pg.inc.c' | grep -q 'FROM_PG_ENUM(strategy, strategy, PartitionStrategy)'"
	check "c_fields: classified ENUM over C type PartitionStrategy" sh -c "
		grep -A1 'c_fields_PartitionSpec\[\] = {' '$G/c_fields.inc.c' | grep -q '{\"ENUM\", \"PartitionStrategy\", offsetof(PartitionSpec, strategy)}'"
	expect_block "from_pg switch: the char values 'l' 'r' 'h' (108 114 104) -> 1 2 3" "$G/from_pg.inc.c" \
		'static int32_t from_pg_enum_PartitionStrategy(FromPg *cx, int v)' '}' <<'EOF'
static int32_t from_pg_enum_PartitionStrategy(FromPg *cx, int v)
{
	switch (v) {
	case 108: return 1; /* PARTITION_STRATEGY_LIST */
	case 114: return 2; /* PARTITION_STRATEGY_RANGE */
	case 104: return 3; /* PARTITION_STRATEGY_HASH */
	}
	return from_pg_bad_enum(cx, "PartitionStrategy", v);
}
EOF
	check "to_pg switch: 1 2 3 -> 108 114 104" sh -c "
		grep -q 'case 1: return 108; /\* PARTITION_STRATEGY_LIST \*/' '$G/to_pg.inc.c' &&
		grep -q 'case 2: return 114; /\* PARTITION_STRATEGY_RANGE \*/' '$G/to_pg.inc.c' &&
		grep -q 'case 3: return 104; /\* PARTITION_STRATEGY_HASH \*/' '$G/to_pg.inc.c'"
	check "from_pg: _Static_assert(PARTITION_STRATEGY_LIST == 108, ...)" has_re "$G/from_pg.inc.c" '^_Static_assert\(PARTITION_STRATEGY_LIST == 108,'
	check "AST: pgbind_PartitionStrategy strategy; and the enum's values" sh -c "
		grep -A2 '^struct pgbind_PartitionSpec {' '$G/pgbind_ast.h' | grep -q 'pgbind_PartitionStrategy strategy;' &&
		grep -q 'PGBIND_PARTITION_STRATEGY_HASH = 3,' '$G/pgbind_ast.h'"
	check "encode: ENC_ENUM(1, strategy, PartitionStrategy)" has "$G/encode.inc.c" 'ENC_ENUM(1, strategy, PartitionStrategy)'
	check "PartitionBoundSpec.strategy (still char, proto string) stays FROM_PG_CHAR" sh -c "
		grep -A3 '^FROM_PG_BEGIN(PartitionBoundSpec, PartitionBoundSpec)' '$G/from_pg.inc.c' | grep -q 'FROM_PG_CHAR(strategy, strategy, _)'"
	compile_runtime "$F"
fi

# ---- unmappable changes ------------------------------------------------------------------------------------

new_fixture 9 "unmappable: proto field ColumnDef.storage_name (16's proto) with 15's headers"
if setup "storage_name in the proto only" \
	edit_proto "$F/pg_query.proto" '^message ColumnDef$' after '^  string storage = ' \
	'  string storage_name = @N@ [json_name="storage_name"];' &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" 'string storage_name = ')
	cl=$(line_of "$F/server/nodes/parsenodes.h" '^typedef struct ColumnDef$')
	expect_gen_error "names message, field, json_name, struct and both file:line" \
		"pg_query.proto:$pl:3: error: proto field ColumnDef.storage_name \\(json_name \"storage_name\"\\) has no C field storage_name in struct ColumnDef \\(nodes/parsenodes.h:$cl:[0-9]+\\)"
	# a failed regen into an existing output directory leaves it as it was
	cp -R "$TMP/base/gen" "$F/existing"
	generate "$F" "$F/existing"
	check "an existing output directory is left untouched" diff -r "$TMP/base/gen" "$F/existing"
else
	bad "setup: extract" "$F/extract.log"
fi

new_fixture 10 "unmappable: a C type the classifier does not know (RangeVar.weights: double *, proto double)"
if setup "double *weights in RangeVar" \
	edit_c "$F/server/nodes/primnodes.h" '^typedef struct RangeVar$' '^} RangeVar;' after '[ \t][*]alias;' \
	'\tdouble\t   *weights;' &&
	setup "double weights = 7 in the proto" \
		edit_proto "$F/pg_query.proto" '^message RangeVar$' after '^  Alias alias = ' \
		'  double weights = @N@ [json_name="weights"];' &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" 'double weights = ')
	cl=$(line_of "$F/server/nodes/primnodes.h" 'double[[:space:]]+[*]weights;')
	expect_gen_error "names message, field, proto type, C type and both file:line" \
		"pg_query.proto:$pl:3: error: cannot classify RangeVar.weights: proto double, C field weights of type 'double \\*' \\(canonical 'double \\*', nodes/primnodes.h:$cl:[0-9]+\\)"
else
	bad "setup: extract" "$F/extract.log"
fi

new_fixture 11 "unmappable: node message NewThing (mid-oneof) without a C struct"
if setup "oneof member NewThing after range_var" \
	edit_proto "$F/pg_query.proto" '^message Node( [{])?$' after ' range_var = [0-9]+ ' \
	'    NewThing new_thing = @N@ [json_name="NewThing"];' &&
	setup "message NewThing" \
		edit_c "$F/pg_query.proto" '^message RangeVar$' '^}$' after '^}$' \
		'\nmessage NewThing\n{\n  int32 a = 1 [json_name="a"];\n}' &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" '^message NewThing$')
	expect_gen_error "names the message, its file:line and the override (NewThing c_struct:NAME)" \
		"pg_query.proto:$pl:1: error: node message NewThing has no C struct NewThing in the node model \\([^)]*nodes.json\\): add 'NewThing c_struct:NAME' to the overrides"
else
	bad "setup: extract" "$F/extract.log"
fi

new_fixture 11b "unmappable: struct NewThing in the headers and the proto, but no T_NewThing in NodeTag"
if setup "struct NewThing in parsenodes.h (no tag)" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef struct IndexStmt$' '^} IndexStmt;' after '^} IndexStmt;' \
	'\ntypedef struct NewThing\n{\n\tNodeTag\t\ttype;\n\tint\t\t\ta;\n} NewThing;' &&
	setup "oneof member NewThing after range_var" \
		edit_proto "$F/pg_query.proto" '^message Node( [{])?$' after ' range_var = [0-9]+ ' \
		'    NewThing new_thing = @N@ [json_name="NewThing"];' &&
	setup "message NewThing" \
		edit_c "$F/pg_query.proto" '^message RangeVar$' '^}$' after '^}$' \
		'\nmessage NewThing\n{\n  int32 a = 1 [json_name="a"];\n}' &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" '^message NewThing$')
	expect_gen_error "says what is missing: the NodeTag T_NewThing (the struct exists)" \
		"pg_query.proto:$pl:1: error: .*node message NewThing.*T_NewThing"
else
	bad "setup: extract" "$F/extract.log"
fi

new_fixture 12 "unmappable: C constant SETOP_NEW (mid-list) that the proto lacks"
if setup "SETOP_NEW in parsenodes.h only" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef enum SetOperation$' '^} SetOperation;' after '^[ \t]*SETOP_UNION,' \
	'\tSETOP_NEW,' &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" '^enum SetOperation$')
	cl=$(line_of "$F/server/nodes/parsenodes.h" '^typedef enum SetOperation$')
	expect_gen_error "names enum, constant, both file:line and the override (SetOperation.SETOP_NEW no_proto_value:true)" \
		"pg_query.proto:$pl:1: error: C constant SETOP_NEW of enum SetOperation \\(nodes/parsenodes.h:$cl:[0-9]+\\) has no value in proto enum SetOperation: if the protocol really lacks it, add 'SetOperation.SETOP_NEW no_proto_value:true' to the overrides"
	printf '\nSetOperation.SETOP_NEW   no_proto_value:true\n' >>"$F/overrides.txt"
	if generate "$F"; then
		ok "with the override it names, pgbind-gen goes on"
		check "model-summary.md lists SETOP_NEW (C value 2) as a value the protocol lacks" has_re "$F/gen/model-summary.md" \
			"^\\| SetOperation \\| SETOP_NEW \\| 2 \\| nodes/parsenodes.h:$cl:[0-9]+ \\|\$"
		check "from_pg: SETOP_NEW is not in the switch (converting it is an error)" sh -c "
			! grep -A8 '^static int32_t from_pg_enum_SetOperation' '$F/gen/from_pg.inc.c' | grep SETOP_NEW"
		compile_runtime "$F"
	else
		bad "with the override it names, pgbind-gen goes on" "$F/gen.log"
	fi
else
	bad "setup: extract" "$F/extract.log"
fi

new_fixture 13 "unmappable: enum SetOperation reordered in C only (INTERSECT and EXCEPT swapped)"
if setup "SETOP_EXCEPT before SETOP_INTERSECT in parsenodes.h" \
	edit_c "$F/server/nodes/parsenodes.h" '^typedef enum SetOperation$' '^} SetOperation;' before '^[ \t]*SETOP_INTERSECT,' \
	'\tSETOP_EXCEPT,' &&
	setup "... and the old SETOP_EXCEPT line removed" \
		edit_c "$F/server/nodes/parsenodes.h" '^typedef enum SetOperation$' '^} SetOperation;' replace '^[ \t]*SETOP_EXCEPT$' '' &&
	setup "... the enum is NONE, UNION, EXCEPT, INTERSECT" sh -c "
		awk '/^typedef enum SetOperation\$/,/^} SetOperation;/' '$F/server/nodes/parsenodes.h' | grep -q 'SETOP_EXCEPT,' &&
		awk '/^typedef enum SetOperation\$/,/^} SetOperation;/' '$F/server/nodes/parsenodes.h' | tr -d '\t\n ' |
			grep -q 'SETOP_NONE=0,SETOP_UNION,SETOP_EXCEPT,SETOP_INTERSECT,}'" &&
	extract_model "$F"; then
	pl=$(line_of "$F/pg_query.proto" '^enum SetOperation$')
	expect_gen_error "names the enum, its file:line and the override (SetOperation c_values:proto_order)" \
		"pg_query.proto:$pl:1: error: enum SetOperation: .*another order.*add 'SetOperation c_values:proto_order' to the overrides"
	printf '\nSetOperation   c_values:proto_order\n' >>"$F/overrides.txt"
	if generate "$F"; then
		ok "with the override it names, pgbind-gen goes on"
		expect_block "from_pg switch: the library's values are the proto's order" "$F/gen/from_pg.inc.c" \
			'static int32_t from_pg_enum_SetOperation(FromPg *cx, int v)' '}' <<'EOF'
static int32_t from_pg_enum_SetOperation(FromPg *cx, int v)
{
	switch (v) {
	case 0: return 1; /* SETOP_NONE */
	case 1: return 2; /* SETOP_UNION */
	case 3: return 4; /* SETOP_EXCEPT */
	case 2: return 3; /* SETOP_INTERSECT */
	}
	return from_pg_bad_enum(cx, "SetOperation", v);
}
EOF
		check "from_pg: no _Static_assert on the headers' SetOperation values" sh -c "
			! grep -n '_Static_assert(SETOP_\(NONE\|UNION\|INTERSECT\|EXCEPT\) ' '$F/gen/from_pg.inc.c'"
		compile_runtime "$F"
	else
		bad "with the override it names, pgbind-gen goes on" "$F/gen.log"
	fi
else
	bad "setup: extract" "$F/extract.log"
fi

end_fixture
echo "== fixtures"
cat "$RESULTS"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
