#!/bin/sh
# run.sh -- pgbind's test suite, run by `make check` (which builds everything first).
#
# Each step runs a program; a step that prints its own "N passed, M failed" line adds those
# counts, any other step counts as one check, passed when it exits 0. A step's output is shown
# when it fails (and its summary lines always). The last line is the total: "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
if [ "${1:-}" = --list ]; then # the parts PARTS can name
	sed -n 's/^section \([a-z]*\) "\(.*\)"$/\1\t\2/p' "$0"
	exit 0
fi

BUILD=${BUILD:-build}
GEN_ARGS=${GEN_ARGS:?run through make check}
PG_INCLUDE_SERVER=${PG_INCLUDE_SERVER:?run through make check}
MODEL=${MODEL:?run through make check}
PG_QUERY_INCLUDES=${PG_QUERY_INCLUDES:?run through make check}
PG_QUERY_LIBS=${PG_QUERY_LIBS:?run through make check}
PG_MAJOR=${PG_MAJOR:?run through make check}
# The project corpus: tests/sql/*.sql, and tests/sql/pgNN/*.sql (syntax PostgreSQL NN added) for
# every NN up to the major under test.
SQL=$(echo tests/sql/*.sql)
for d in tests/sql/pg*; do
	if [ -d "$d" ] && [ "${d#tests/sql/pg}" -le "$PG_MAJOR" ]; then
		SQL="$SQL $(echo "$d"/*.sql)"
	fi
done
# The Debian corpus: the files DEBIAN_SQL_LIST names (one a line, relative to DEBIAN_SQL_DIR), by
# default postgresql-15's own scripts (tests/corpus/debian-pg15.txt); what other packages install
# there is not read. A listed file that is missing fails the suite (below).
if [ -z "${DEBIAN_SQL_DIR:-}" ]; then
	DEBIAN_SQL_DIR=/usr/share/postgresql/15
	DEBIAN_SQL_LIST=${DEBIAN_SQL_LIST:-tests/corpus/debian-pg15.txt}
fi
DEBIAN_SQL_LIST=${DEBIAN_SQL_LIST:?DEBIAN_SQL_DIR given: name its files with DEBIAN_SQL_LIST}
DEBIAN_SQL=""
DEBIAN_SQL_MISSING=""
DEBIAN_SQL_N=0
if [ -r "$DEBIAN_SQL_LIST" ]; then
	for f in $(grep -v -e '^#' -e '^[[:space:]]*$' "$DEBIAN_SQL_LIST"); do
		if [ -f "$DEBIAN_SQL_DIR/$f" ]; then
			DEBIAN_SQL="$DEBIAN_SQL $DEBIAN_SQL_DIR/$f"
			DEBIAN_SQL_N=$((DEBIAN_SQL_N + 1))
		else
			DEBIAN_SQL_MISSING="$DEBIAN_SQL_MISSING $f"
		fi
	done
else
	DEBIAN_SQL_MISSING="(the list $DEBIAN_SQL_LIST itself)"
fi

if [ "${QUICK:-}" = 1 ]; then
	DEBIAN_SQL=""
	echo "     (QUICK=1: the Debian corpus is left out; make check runs it)"
fi

# Sanitized programs need about three times the stack (pgbind.h): give them room when the whole
# suite runs sanitized (make check SAN=...).
if [ -n "${SAN:-}" ]; then
	ulimit -s 65536 2>/dev/null || ulimit -s unlimited 2>/dev/null || true
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgbind-check.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# The command as the suite calls it: $BUILD/pgbind holds every major built and answers as the newest
# without --pg (docs/majors.md); the suite expects the build's own major's answers (PG_MAJOR), so it
# calls it through this one path, which adds --pg=PG_MAJOR (a path, as fuzz_cli's --seed-pgbind
# and script -c take one).
PGBIND=$TMP/pgbind
printf '#!/bin/sh\nexec "%s/pgbind" --pg=%s "$@"\n' "$(cd "$BUILD" && pwd)" "$PG_MAJOR" >"$PGBIND" && chmod +x "$PGBIND"

passed=0
failed=0

# The parts of the suite (`make check PARTS="unit parse"`, tests/run.sh --list): each `section ID
# TITLE` starts one; with PARTS set, the steps of the others are not run. QUICK=1 (make
# check-quick) leaves the Debian corpus out: the project corpus alone goes through every path.
PARTS=${PARTS:-}
RUN=yes
section_start=
section_end() { # the time the part that ran took (to see where make check's minutes go)
	[ -z "$section_start" ] || echo "   (this part took $(($(date +%s) - section_start)) s)"
	section_start=
}
section() {
	section_end
	if [ -z "$PARTS" ] || printf ' %s ' "$PARTS" | grep -q " $1 "; then
		section_start=$(date +%s)
		RUN=yes
		echo "== $2"
	else
		RUN=no
	fi
}

# step NAME CMD...: runs CMD, counts it (in a selected part).
step() {
	[ "$RUN" = yes ] || return 0
	name=$1
	shift
	log=$TMP/step.log
	"$@" >"$log" 2>&1
	rc=$?
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$summary" ]; then
		p=$(echo "$summary" | awk '{print $1}')
		f=$(echo "$summary" | awk '{print $3}')
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1 # a runner that failed without counting a failure still failed
		fi
	elif [ "$rc" -eq 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -eq 0 ]; then
		printf 'ok   %-58s %s\n' "$name" "${summary:-}"
	else
		printf 'FAIL %-58s %s\n' "$name" "${summary:-exit $rc}"
		sed 's/^/     | /' "$log" | grep -v '^     | ok - ' | tail -n 60
	fi
}

# expect_fail NAME CODE PATTERN CMD...: CMD must exit with exactly CODE (1 refused input, 2 usage:
# the programs' contract), never by a signal (a shell reports one as 128+N), and print PATTERN
# (grep -E).
expect_fail() {
	[ "$RUN" = yes ] || return 0
	name=$1
	code=$2
	pattern=$3
	shift 3
	step "$name" sh -c '
		code=$1; pattern=$2; shift 2
		out=$("$@" 2>&1); rc=$?
		printf "%s\n" "$out" | sed "s/^/> /"
		[ "$rc" -lt 128 ] || { echo "ended by signal $((rc - 128)) (exit $rc), expected exit $code"; exit 1; }
		[ "$rc" -eq "$code" ] || { echo "exit $rc, expected exit $code"; exit 1; }
		printf "%s\n" "$out" | grep -Eq -- "$pattern" || { echo "expected output matching: $pattern"; exit 1; }
	' sh "$code" "$pattern" "$@"
}

section generated "generated code"
# shellcheck disable=SC2086
step "hand-written C follows .clang-format (make check-format)" make -s check-format BUILD="$BUILD"
step "every target's generated files are in sync with their inputs (check-generated)" "$BUILD/pgbind-gen" $GEN_ARGS --check
step "schema model is what libclang reads from the headers today" sh -c "
	'$BUILD/pgbind-extract' --include-dir '$PG_INCLUDE_SERVER' --out '$TMP/nodes.json' >/dev/null &&
	diff -u '$MODEL' '$TMP/nodes.json'"
# Every other major of MAJORS (GEN_MAJORS): its generated C alone, from its own schema/pgNN/ and its
# libpg_query tree's pg_query.proto (the Makefile's check-generated-pgNN; the tree is mk/majors.mk's,
# fetched from Debian once unless PGnn_DIR names one), and its model as libclang reads it from the
# tree's headers. A folder edited by hand, or missing, fails with what to run.
for m in ${GEN_MAJORS:-}; do
	step "PostgreSQL $m's generated C (targets/c/generated/pg$m) is in sync with its inputs" \
		make -s check-generated-pg"$m" BUILD="$BUILD"
	step "schema/pg$m/nodes.json is what libclang reads from PostgreSQL $m's headers (its tree)" sh -c "
		'$BUILD/pgbind-extract' --include-dir '$BUILD/majors/pg$m/tree/src/postgres/include' --out '$TMP/nodes$m.json' >/dev/null &&
		diff -u schema/pg$m/nodes.json '$TMP/nodes$m.json'"
	rm -rf "$TMP/stale-c" && mkdir -p "$TMP/stale-c" && cp -r "targets/c/generated/pg$m" "$TMP/stale-c/"
	echo "// edited by hand" >>"$TMP/stale-c/pg$m/equal.inc.c"
	expect_fail "... an edited file of it (equal.inc.c) fails make check-generated, saying what to run" 2 \
		"error: $TMP/stale-c/pg$m, PostgreSQL $m's generated C, is stale or missing \(above\): run \`make generate\`" \
		make -s check-generated-pg"$m" BUILD="$BUILD" C_GEN_ROOT="$TMP/stale-c"
	rm -rf "$TMP/stale-c/pg$m"
	expect_fail "... and so does its folder missing" 2 "error: $TMP/stale-c/pg$m, PostgreSQL $m's generated C, is stale or missing" \
		make -s check-generated-pg"$m" BUILD="$BUILD" C_GEN_ROOT="$TMP/stale-c"
done
# GEN_ARGS without its targets: the inputs alone.
gen_inputs() {
	echo "$GEN_ARGS" | sed 's/--target [^ ]*//g; s/--templates [^ ]*//g; s/--[a-z-]*out [^ ]*//g'
}
# The folders GEN_ARGS writes into (--out and --tests-out, one a line).
gen_out_dirs() {
	echo "$GEN_ARGS" | grep -o -- '--[a-z-]*out [^ ]*' | sed 's/^[^ ]* //'
}
# GEN_ARGS with every output folder moved under $1.
gen_args_into() {
	echo "$GEN_ARGS" | sed "s|\(--[a-z-]*out\) \([^ ]*\)|\1 $1/\2|g"
}
# A copy of every output folder under $TMP/stale (the Go target's holds its module's
# hand-written files too). Its loop variable is its own: the caller's loop over the same folders
# uses d (sharing it once made every edited-file check edit the last folder's file).
stale_copy() {
	rm -rf "$TMP/stale" && for sd in $(gen_out_dirs); do
		mkdir -p "$TMP/stale/$sd" && cp -r "$sd/." "$TMP/stale/$sd/" || return 1
	done
}
# (every file of the folders, those of a templates subfolder's too: targets/go/parser)
step "two generator runs give identical output, and it is what is committed" sh -c "
	'$BUILD/pgbind-gen' $(gen_args_into "$TMP/gen1") >/dev/null &&
	'$BUILD/pgbind-gen' $(gen_args_into "$TMP/gen2") >/dev/null &&
	diff -r '$TMP/gen1' '$TMP/gen2' &&
	for d in $(gen_out_dirs | tr '\n' ' '); do
		for f in \$(cd '$TMP/gen1/'\$d && find . -type f); do cmp '$TMP/gen1/'\$d/\$f \$d/\$f || exit 1; done
	done"
for d in $(gen_out_dirs); do
	stale_copy
	# one line added to one generated file of the folder
	f=$(grep -l -d skip 'by pgbind-gen' "$TMP/stale/$d"/* | head -n 1)
	echo "// edited by hand" >>"$f"
	expect_fail "an edited generated file of $d/ ($(basename "$f")) fails the staleness check" 1 \
		"differs from what the inputs generate" "$BUILD/pgbind-gen" $(gen_args_into "$TMP/stale") --check
done
# targets/go: its hand-written files are left out of the comparison, a generated one no template
# makes any more is not
stale_copy
cp "$TMP/stale/targets/go/own_gen.go" "$TMP/stale/targets/go/old_gen.go"
expect_fail "a generated file of targets/go/ no template makes fails the staleness check" 1 \
	"differs from what the inputs generate" "$BUILD/pgbind-gen" $(gen_args_into "$TMP/stale") --check
# a templates subfolder renders into the same subfolder of the output, checked as the target's
# folder, its hand-written files (parser.go) left out
stale_copy
echo "// edited by hand" >>"$TMP/stale/targets/go/parser/cgo_gen.go"
expect_fail "an edited generated file of targets/go/parser/ (cgo_gen.go) fails the staleness check" 1 \
	"targets/go/parser differs from what the inputs generate" "$BUILD/pgbind-gen" $(gen_args_into "$TMP/stale") --check
echo "// edited by hand" >>"$TMP/stale/targets/go/pg_query.pb.go"
expect_fail "an edited targets/go/pg_query.pb.go fails the staleness check" 2 "differs from protoc-gen-go's output" \
	make -s check-generated-go BUILD="$BUILD" GO_PB_DIR="$TMP/stale/targets/go"
mkdir -p "$TMP/notests/templates/tests"
cp targets/go/templates/own_gen.go.tmpl "$TMP/notests/templates/"
cp targets/go/templates/own_gen.go.tmpl "$TMP/notests/templates/tests/"
expect_fail "test-only templates of a target that declares no place for them are refused" 2 \
	"test-only templates, but target go declares no place for them" \
	"$BUILD/pgbind-gen" $(gen_inputs) --target go --templates "$TMP/notests/templates" --out "$TMP/notests/out"

# shellcheck disable=SC2086
step "pgbind-gen --dump-view writes the view model" "$BUILD/pgbind-gen" $(gen_inputs) \
	--dump-view "$TMP/view.json"
step "every key of the view model is documented in docs/view-model.md, and no other" \
	tests/generator/view_keys.sh "$TMP/view.json" docs/view-model.md
grep -v '^| `messages\[\]\.fields\[\]\.wire`' docs/view-model.md >"$TMP/view-model.md"
expect_fail "... a key the document leaves out fails that check" 1 'does not list:' \
	tests/generator/view_keys.sh "$TMP/view.json" "$TMP/view-model.md"
echo '| `messages[].no_such_key` | neutral | x | x |' >>"$TMP/view-model.md"
expect_fail "... and so does a key the view does not have" 1 'the view does not have:' \
	tests/generator/view_keys.sh "$TMP/view.json" "$TMP/view-model.md"

section generator "generator errors"
mkdir -p "$TMP/badtmpl"
printf '{{#messages}}\n{{name}}\n' >"$TMP/badtmpl/x.c.tmpl"
expect_fail "a broken template stops the generator with file:line:col" 1 "x.c.tmpl:1:1: error: section 'messages' is never closed" \
	"$BUILD/pgbind-gen" $(gen_inputs) --target c --templates "$TMP/badtmpl" --out "$TMP/badout"
step "... and leaves no output behind" test ! -e "$TMP/badout"
expect_fail "a template folder that names no target, without --target, is refused" 2 "no target is named by that folder" \
	"$BUILD/pgbind-gen" $(gen_inputs) --templates "$TMP/badtmpl" --out "$TMP/badout"
expect_fail "an unknown --target is refused, the targets listed" 2 "unknown target 'cobol'; the targets: c rust" \
	"$BUILD/pgbind-gen" $(gen_inputs) --target cobol
PROTO=$(echo "$GEN_ARGS" | sed 's/.*--proto \([^ ]*\).*/\1/')
sed 's/^  string relname = 3 \[json_name="relname"\];/  string relname = 3 [json_name="relnam"];/' "$PROTO" >"$TMP/renamed.proto"
expect_fail "a proto field without a C field names message, field and both locations" 1 \
	'renamed.proto:[0-9]+:3: error: proto field RangeVar.relname \(json_name "relnam"\) has no C field relnam in struct RangeVar \(nodes/primnodes.h:[0-9]+:[0-9]+\)' \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o2" | sed 's/--proto [^ ]*//') --proto "$TMP/renamed.proto"
sed 's/^  bool inh = 4 \[json_name="inh"\];/  int64 inh = 4 [json_name="inh"];/' "$PROTO" >"$TMP/retyped.proto"
expect_fail "an unclassifiable pair stops the generator" 1 \
	'retyped.proto:[0-9]+:3: error: cannot classify RangeVar.inh: proto int64, C field inh of type ._Bool.' \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o3" | sed 's/--proto [^ ]*//') --proto "$TMP/retyped.proto"
awk '{ print } /A_Const a_const = [0-9]+/ { print "    Bogus bogus = 9999 [json_name=\"Bogus\"];" }
	END { print "message Bogus\n{\n  int32 x = 1 [json_name=\"x\"];\n}" }' "$PROTO" >"$TMP/orphan.proto"
expect_fail "a node message without a C struct stops the generator" 1 \
	'orphan.proto:[0-9]+:1: error: node message Bogus has no C struct Bogus in the node model' \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o4" | sed 's/--proto [^ ]*//') --proto "$TMP/orphan.proto"
printf 'message X { int32 a = 1 }\n' >"$TMP/syntax.proto"
expect_fail "a malformed proto stops the generator with file:line:col" 1 'syntax.proto:1:' \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o5" | sed 's/--proto [^ ]*//') --proto "$TMP/syntax.proto"
printf 'RangeVarr.relname fingerprint:skip\n' >"$TMP/lpq-stale.txt"
expect_fail "a libpg_query rule on a kind the model lacks stops the generator with file:line" 1 \
	"lpq-stale.txt:1:[0-9]+: error: override 'RangeVarr.relname fingerprint:skip' matches nothing" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o6") --overrides "$TMP/lpq-stale.txt"
printf '\nRangeVar.inh fingerprint:skipp\n' >"$TMP/lpq-value.txt"
expect_fail "... and one with a value it does not know, naming the values" 1 \
	"lpq-value.txt:2:[0-9]+: error: RangeVar.inh fingerprint:skipp: not a value of fingerprint \\(skip, sorted" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o7") --overrides "$TMP/lpq-value.txt"
printf 'RangeVar.inh normalize:walk\n' >"$TMP/lpq-kind.txt"
expect_fail "... and a walk into a field that holds no nodes" 1 "lpq-kind.txt:1:[0-9]+: error: RangeVar.inh \\(BOOL\\) cannot be" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o8") --overrides "$TMP/lpq-kind.txt"
printf '\nRangeVar.relname deparse_9:nonnull,in=UpdateStmt.relation\n' >"$TMP/deparse-context.txt"
expect_fail "a deparse rule with a context clause (removed) stops the generator with file:line, saying what to write" 1 \
	"deparse-context.txt:2:[0-9]+: error: RangeVar.relname deparse_9: 'in=UpdateStmt.relation': context clauses were removed.*write the rule without it" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o9") --overrides "$TMP/deparse-context.txt"
# schema/summary.txt (generator/node_rules.c): each line checked against the model, and every
# field holding a table covered.
{ cat schema/summary.txt; printf 'RangeVarr walk:alias\n'; } >"$TMP/rules-kind.txt"
expect_fail "a summary rule on a kind the model lacks stops the generator with file:line" 1 \
	"rules-kind.txt:[0-9]+:[0-9]+: error: override 'RangeVarr walk:alias' matches nothing" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o10") --node-rules "$TMP/rules-kind.txt"
sed 's/^RangeVar            walk:alias$/RangeVar            walk:aliass/' schema/summary.txt >"$TMP/rules-field.txt"
expect_fail "... and one naming a field the kind lacks" 1 \
	"rules-field.txt:[0-9]+:[0-9]+: error: RangeVar walk: RangeVar has no field 'aliass'" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o11") --node-rules "$TMP/rules-field.txt"
sed 's/^CreateStmt        summary:relation=tables_ddl$/CreateStmt        summary:relation=tables_dll/' \
	schema/summary.txt >"$TMP/rules-action.txt"
expect_fail "... and an action it does not know" 1 \
	"rules-action.txt:[0-9]+:[0-9]+: error: CreateStmt summary: 'relation=tables_dll': expected FIELD=ACTION" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o12") --node-rules "$TMP/rules-action.txt"
sed 's/unless:objtype=OBJECT_INDEX/unless:objtype=OBJECT_INDEXX/' schema/summary.txt >"$TMP/rules-enum.txt"
expect_fail "... and an enum value the model lacks" 1 \
	"rules-enum.txt:[0-9]+:[0-9]+: error: AlterTableStmt unless: OBJECT_INDEXX is no value of ObjectType" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o13") --node-rules "$TMP/rules-enum.txt"
grep -v '^ClusterStmt.relation ' schema/summary.txt >"$TMP/rules-table.txt"
expect_fail "a field holding a table that no summary rule covers stops the generator, saying what to declare" 1 \
	"rules-table.txt: error: ClusterStmt.relation holds a table \\(RangeVar\\) that no line covers: declare .*ClusterStmt.relation summary:none" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o14") --node-rules "$TMP/rules-table.txt"
# ... and its build_NAME: lines, the small statements the truncation measures with (node_rules.c)
sed 's/^RangeVar          build_x:relname=x,/RangeVar          build_x:relnamee=x,/' schema/summary.txt >"$TMP/rules-build-field.txt"
expect_fail "a build_ line setting a field the kind lacks stops the generator with file:line" 1 \
	"rules-build-field.txt:[0-9]+:[0-9]+: error: RangeVar build_x: 'relnamee=x': expected FIELD=VALUE, FIELD a field of RangeVar" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o15") --node-rules "$TMP/rules-build-field.txt"
sed 's/^RangeVar          build_x:relname=x,inh=true,/RangeVar          build_x:relname=x,inh=maybe,/' schema/summary.txt \
	>"$TMP/rules-build-value.txt"
expect_fail "... and one giving a field a value of another type" 1 \
	"rules-build-value.txt:[0-9]+:[0-9]+: error: RangeVar build_x: RangeVar.inh \\(BOOL\\) cannot be set to 'maybe'" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o16") --node-rules "$TMP/rules-build-value.txt"
sed 's/  less_measure_where:13$//' schema/summary.txt >"$TMP/rules-build-less.txt"
expect_fail "... and a measure_ build without the length it takes off (less_NAME:)" 1 \
	"rules-build-less.txt:[0-9]+:[0-9]+: error: SelectStmt: a measure_ build, and it only, says less_NAME:N" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o17") --node-rules "$TMP/rules-build-less.txt"
grep -v '^ColumnRef         build_mark_where:' schema/summary.txt >"$TMP/rules-build-mark.txt"
expect_fail "... and a truncated part with nothing declared to write in its place" 1 \
	"rules-build-mark.txt:[0-9]+:[0-9]+: error: [A-Za-z]+ truncate: where: declare build_mark_where" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/o18") --node-rules "$TMP/rules-build-mark.txt"
# make regen's stop message (scripts/regen-hint.sh): a verify report with a normalize and a summary
# check failing names each with its file to declare it in, and nothing for the checks that passed.
printf '%s\n' 'MISMATCH a.sql:1 (statement at offset 0): normalize' '    SELECT 1' '3 statements in 1 files' \
	'  fingerprint equals pg_query_fingerprint                 3 passed, 0 failed' \
	'  normalize (from the tree) equals pg_query_normalize     2 passed, 1 failed' \
	'  summary equals pg_query_summary (18 on)                 1 passed, 2 failed' '6 passed, 3 failed' >"$TMP/regen-report.txt"
scripts/regen-hint.sh "$TMP/regen-report.txt" 16 >"$TMP/regen-hint.txt"
step "make regen's stop message names the statement and, per failed check, the file to declare it in" sh -c "
	grep -q '^MISMATCH a.sql:1' '$TMP/regen-hint.txt' &&
	grep -A1 '^  normalize:' '$TMP/regen-hint.txt' | grep -q 'schema/libpg_query.txt (a normalize line with since:16' &&
	grep -A1 '^  summary:' '$TMP/regen-hint.txt' | grep -q 'schema/summary.txt' &&
	! grep -q '^  fingerprint:' '$TMP/regen-hint.txt' && test \$(grep -c '^  [a-z]' '$TMP/regen-hint.txt') -eq 2"
touch "$TMP/a-file"
expect_fail "an unwritable output directory stops the generator" 1 "cannot create output directory" \
	"$BUILD/pgbind-gen" $(gen_args_into "$TMP/a-file")
expect_fail "a missing header stops the extractor" 1 "header not found" \
	"$BUILD/pgbind-extract" --include-dir "$TMP/nowhere" --out "$TMP/never.json"
step "... and writes no model" test ! -e "$TMP/never.json"

section bumps "version bumps"
# The fixtures edit Debian's PostgreSQL 15 inputs (installed whatever PG_QUERY_DIR names).
step "bump fixtures: 15's inputs edited as 16-18 change them, regenerated, compiled" \
	env BUILD="$BUILD" PG_INCLUDE_SERVER="$(pg_config --includedir-server)" \
	PG_QUERY_PROTO=/usr/include/pg_query/pg_query.proto \
	OVERRIDES=schema/overrides.txt tests/generator/bump/run.sh
# PG_QUERY_DIR: a libpg_query tree in its source layout, made here from Debian's files. A run
# that takes its inputs from a PG_QUERY_DIR already goes through the knob in every step.
if [ -z "${PG_QUERY_DIR:-}" ]; then
	pqd=$TMP/pg_query_dir
	mkdir -p "$pqd/src/postgres" "$pqd/protobuf"
	ln -s /usr/include/pg_query.h "$pqd/pg_query.h"
	ln -s "${PG_QUERY_STATIC:?}" "$pqd/libpg_query.a"
	ln -s /usr/include/pg_query/pg_query.proto /usr/include/pg_query/pg_query.pb-c.h "$pqd/protobuf/"
	ln -s /usr/include/pg_query/pg_query_internal.h "$pqd/src/"
	ln -s "$PG_INCLUDE_SERVER" "$pqd/src/postgres/include"
	step "PG_QUERY_DIR=<tree>: check-generated, build and verify take the tree's inputs" sh -c "
		make -s PG_QUERY_DIR='$pqd' PGBIND_MAJORS=$PG_MAJOR BUILD='$TMP/pqd-build' check-generated '$TMP/pqd-build/pgbind' &&
		'$TMP/pqd-build/pgbind' verify tests/sql/classic_mistakes.sql"
else
	echo "     (every step of this run takes its inputs from PG_QUERY_DIR=$PG_QUERY_DIR)"
fi

section unit "unit tests"
step "proto reader" "$BUILD/tests/test_proto_read"
step "template engine" "$BUILD/tests/test_template"
step "classifier" "$BUILD/tests/test_classify"
step "pg_query_go's Make* helpers declared in targets/go/makefuncs.txt: the view, each refused line" "$BUILD/tests/test_makes_go"
step "the command's input: line positions in one pass, statements and their lines" "$BUILD/tests/test_input"

section parse "parse direction"
step "classic mistakes, A_Const kinds, errors, depth, arena" "$BUILD/tests/test_parse"
step "decoder: malformed input, wire-format latitude, depth" "$BUILD/tests/test_decode"
step "deparse: empty strings protobuf cannot carry, the round-trip check, the contract" "$BUILD/tests/test_deparse"
# 15's deparser dereferences the NULL that decoding makes of the '' (refused: exit 1, the field
# named); another major may deparse it (exit 0); a crash (139) fails either way
step "deparse --from=protobuf of a tree outside the contract: an error, not a crash" sh -c "
	printf \"ALTER TYPE t ADD VALUE ''\" | '$PGBIND' parse >'$TMP/enum.pb' || exit 1
	'$PGBIND' deparse --from=protobuf '$TMP/enum.pb' >/dev/null 2>'$TMP/enum.err'; rc=\$?; cat '$TMP/enum.err'
	if [ $PG_MAJOR -eq 15 ]; then [ \$rc -eq 1 ] && grep -q 'AlterEnumStmt.newVal is NULL' '$TMP/enum.err'
	else [ \$rc -eq 0 ] || [ \$rc -eq 1 ]; fi"
step "stack: deep nesting through every path on threads of 128 KiB, 256 KiB, 2 MiB" "$BUILD/tests/test_stack"
step "convert: the library's converters between majors, as a program linking libpgbind.a gets them" "$BUILD/tests/test_convert_lib"
step "mutation experiment: 3 scripts' protobuf and JSON changed; the isolated deparse never kills its caller (asserted), the plain deparse's crash rate printed" \
	"$BUILD/tests/mutate_deparse" --cases 2000 --json-cases 1000 tests/sql/ddl_tables.sql \
	"$DEBIAN_SQL_DIR/information_schema.sql" "$DEBIAN_SQL_DIR/system_functions.sql"
step "normalize: each of libpg_query's rules, the scanner's corners, bad input" "$BUILD/tests/test_normalize"
step "summary: libpg_query 18's pg_query_summary bytes for major-independent statements; the C view; arguments" \
	"$BUILD/tests/test_summary" tests/runtime/summary_cases.txt

section json "JSON, walker, examples"
step "Debian corpus: every file $DEBIAN_SQL_LIST names is in $DEBIAN_SQL_DIR ($DEBIAN_SQL_N)" sh -c "
	[ -z '$DEBIAN_SQL_MISSING' ] || { echo 'missing:$DEBIAN_SQL_MISSING'; exit 1; }"
# shellcheck disable=SC2086
step "JSON: libpg_query's text, its bugs, malformed input, every corpus statement" "$BUILD/tests/test_json" \
	$SQL $DEBIAN_SQL
# shellcheck disable=SC2086
step "walker and mutator over every node kind; the examples" "$BUILD/tests/test_walk" --examples "$BUILD/examples" \
	$SQL $DEBIAN_SQL

section nodes "every node kind"
step "property test: random trees of all 238 kinds, every field, both directions" "$BUILD/tests/test_property"
step "pgbind verify: project corpus (tests/sql)" "$PGBIND" verify $SQL
if [ -n "$DEBIAN_SQL" ]; then
	# shellcheck disable=SC2086
	step "pgbind verify: Debian corpus ($DEBIAN_SQL_N files of $DEBIAN_SQL_DIR)" "$PGBIND" verify $DEBIAN_SQL
fi
step "pgbind verify: statements the deparse probe never read (none refused; one breaking the contract deparses in a child as libpg_query)" \
	"$PGBIND" verify tests/corpus/unseen_by_probe.sql
step "pgbind verify: the combinatorial corpus (every expression form in every clause; none refused)" sh -c "
	tests/corpus/combinatorial.sh > '$TMP/combinatorial.sql' && '$PGBIND' verify '$TMP/combinatorial.sql'"
if [ "${QUICK:-}" != 1 ]; then # the kinds are counted over both corpora
	step "coverage: every node kind the raw grammar builds is exercised" sh -c "
		'$PGBIND' verify --coverage='$TMP/coverage.txt' $SQL $DEBIAN_SQL >/dev/null;
		tests/corpus/check_coverage.sh '$TMP/coverage.txt' $PG_MAJOR"
	cp "$TMP/coverage.txt" "$BUILD/coverage.txt" 2>/dev/null
fi

section cli "command line"
step "parse --format=text shows the NULL cell of SELECT DISTINCT" sh -c "
	echo 'SELECT DISTINCT a FROM t' | '$PGBIND' parse --format=text | grep -q 'distinctClause\[0\]: NULL'"
printf 'SELECT 1;\nSELECT a FROM WHERE;\n' >"$TMP/bad.sql"
expect_fail "a syntax error prints file:line:col, the line and a caret" 1 \
	"bad.sql:2:15: error: syntax error at or near \"WHERE\"" "$PGBIND" parse "$TMP/bad.sql"
step "... the caret stands under the position" sh -c "
	'$PGBIND' parse '$TMP/bad.sql' 2>&1 | sed -n 3p | grep -qx '                ^'"
expect_fail "verify counts an unreadable file as a failure and exits 1" 1 "^[0-9]+ passed, 1 failed" \
	sh -c "printf 'SELECT 1;\nSELECT 2' > '$TMP/two.sql'; '$PGBIND' verify '$TMP/two.sql' '$TMP/missing.sql'"
expect_fail "unknown format is refused" 2 "unknown format" "$PGBIND" parse --format=xml
printf "SELECT 1;\nSELECT 'abc" >"$TMP/unterminated.sql"
step "verify: a file not even the scanner splits is one statement, its syntax error compared" sh -c "
	'$PGBIND' verify '$TMP/unterminated.sql' | grep -q \"^  syntax errors equal libpg_query's  *1 passed, 0 failed\""
printf 'select a,b from t where x=1;\nupdate t set a=2\n' >"$TMP/two.sql"
step "deparse from SQL matches libpg_query's deparse of the same statements" sh -c "
	'$PGBIND' deparse '$TMP/two.sql' | grep -qx 'SELECT a, b FROM t WHERE x = 1; UPDATE t SET a = 2'"
step "deparse from protobuf reads what parse writes" sh -c "
	'$PGBIND' parse '$TMP/two.sql' | '$PGBIND' deparse --from=protobuf |
		grep -qx 'SELECT a, b FROM t WHERE x = 1; UPDATE t SET a = 2'"
step "deparse of empty strings protobuf carries as NULL: libpg_query's SQL" sh -c "
	echo \"CREATE TABLESPACE regress_tblspace LOCATION ''\" | '$PGBIND' deparse |
		grep -qx \"CREATE TABLESPACE regress_tblspace LOCATION ''\" &&
	echo \"CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE)\" |
		'$PGBIND' deparse | grep -qx \"CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE)\""
if [ "$PG_MAJOR" = 15 ]; then # libpg_query 15-4.0.0's deparser bug
	expect_fail "deparse --check refuses libpg_query's wrong SQL, naming the field" 1 \
		"DeclareCursorStmt.options" sh -c "echo 'DECLARE c ASENSITIVE CURSOR FOR SELECT 1' | '$PGBIND' deparse --check"
fi
# One policy (docs/guarantees.md): libpg_query's SQL, right or wrong, whether or not a rule of the
# deparse contract sends the tree to the deparse server; --check alone makes wrong SQL an error, at
# the statement's position. 15-4.0.0 writes an exclusion constraint's cast without its parentheses
# (no parse) and COPY's (freeze) as FREEZE (another tree); the first breaks a rule (IndexElem.expr
# holds a TypeCast), so it goes through the server.
if [ "$PG_MAJOR" = 15 ]; then
	printf 'SELECT 1;\nCREATE TABLE circles (c1 circle, c2 text, EXCLUDE USING gist (c1 WITH &&, (c2::circle) WITH &&));\n' >"$TMP/gist.sql"
	expect_fail "deparse of an EXCLUDE USING gist with a cast (a rule fires): 15's SQL as it writes it (exit 0)" 0 \
		'^SELECT 1; CREATE TABLE circles \(c1 circle, c2 text, EXCLUDE USING gist \(c1 WITH &&, c2::circle WITH &&\)\)$' \
		"$PGBIND" deparse "$TMP/gist.sql"
	expect_fail "... with --check: exit 1 at the statement's position, where 15's SQL stops parsing" 1 \
		'gist.sql:2:1: error: statement 2: libpg_query.s deparser wrote SQL that does not parse: syntax error at or near "::", at character 77 of it' \
		"$PGBIND" deparse --check "$TMP/gist.sql"
	printf "COPY parted_copytest FROM 'filename' (freeze)\n" >"$TMP/freeze.sql"
	expect_fail "deparse of COPY ... (freeze): 15's SQL as it writes it (exit 0)" 0 \
		"^COPY parted_copytest FROM 'filename' FREEZE\$" "$PGBIND" deparse "$TMP/freeze.sql"
	expect_fail "... with --check: exit 1 at the statement's position, naming the field that differs" 1 \
		'freeze.sql:1:1: error: statement 1: .*CopyStmt.options\[0\].DefElem.arg' "$PGBIND" deparse --check "$TMP/freeze.sql"
fi
# Where the deparser reads past a node (declared: schema/libpg_query.txt, XMLROOT's version before
# 18), the answer is the same on every run: SQL only where it parses back, else an error naming
# libpg_query's bug; twice the same here.
echo 'SELECT XMLROOT(x, VERSION a % 2 + -a * 3 / 4 ^ 2) FROM t' >"$TMP/xmlroot.sql"
if [ "$PG_MAJOR" -lt 18 ]; then
	expect_fail "deparse of XMLROOT with an expression for its version: an error naming libpg_query's bug (exit 1)" 1 \
		"xmlroot.sql:1:1: error: statement 1: libpg_query's bug: its deparser reads past a node, XmlExpr.args .*schema/libpg_query.txt:" \
		"$PGBIND" deparse "$TMP/xmlroot.sql"
	step "... the same answer on every run (5 runs)" sh -c "
		a=\$('$PGBIND' deparse '$TMP/xmlroot.sql' 2>&1; echo \"exit \$?\")
		for i in 2 3 4 5; do
			b=\$('$PGBIND' deparse '$TMP/xmlroot.sql' 2>&1; echo \"exit \$?\"); [ \"\$a\" = \"\$b\" ] || exit 1
		done"
else
	expect_fail "deparse of XMLROOT with an expression for its version: 18's SQL (exit 0)" 0 \
		'^SELECT xmlroot\(x, version a % 2 \+ -a \* 3 / 4 \^ 2\) FROM t$' "$PGBIND" deparse "$TMP/xmlroot.sql"
fi
step "deparse --check writes SQL that round-trips" sh -c "
	'$PGBIND' deparse --check '$TMP/two.sql' | grep -qx 'SELECT a, b FROM t WHERE x = 1; UPDATE t SET a = 2'"
printf '\012\005ab' >"$TMP/bad.pb"
expect_fail "deparse of malformed protobuf names the byte offset" 1 "runs past the end of its message at byte 1" \
	"$PGBIND" deparse --from=protobuf "$TMP/bad.pb"
# The command never runs libpg_query's deparser in its own process: a parsed statement no rule of
# the deparse contract covers may crash it (SET TIME ZONE INTERVAL without a field: 17's
# deparseIntervalTypmods dies of SIGSEGV; 15's writes SET timezone TO; 18's returns an error).
# Each major's exact exit; a signal is never one.
echo "SET TIME ZONE INTERVAL '1 hour'" >"$TMP/tz.sql"
case "$PG_MAJOR" in
15) expect_fail "deparse of SET TIME ZONE INTERVAL '1 hour': libpg_query's SQL (exit 0)" 0 "^SET timezone TO \$" \
	"$PGBIND" deparse "$TMP/tz.sql" ;;
17) expect_fail "deparse of SET TIME ZONE INTERVAL '1 hour': its deparser's crash is an error (exit 1)" 1 \
	"tz.sql:1:1: error: statement 1: libpg_query's deparser died of signal 11 \\(Segmentation fault\\) on stmts\\[0\\] \\(VariableSetStmt\\)" \
	"$PGBIND" deparse "$TMP/tz.sql" ;;
18) expect_fail "deparse of SET TIME ZONE INTERVAL '1 hour': its deparser's error (exit 1)" 1 \
	"tz.sql:1:1: error: statement 1: deparse: list index 0 out of range" "$PGBIND" deparse "$TMP/tz.sql" ;;
*) expect_fail "deparse of SET TIME ZONE INTERVAL '1 hour': an error (exit 1), never a signal" 1 "tz.sql:1:1: error: " \
	"$PGBIND" deparse "$TMP/tz.sql" ;;
esac
step "fingerprint: constants do not change it, structure does" sh -c "
	a=\$(echo 'SELECT * FROM t WHERE id = 1' | '$PGBIND' fingerprint) &&
	b=\$(echo 'SELECT * FROM t WHERE id = 42' | '$PGBIND' fingerprint) &&
	c=\$(echo 'SELECT * FROM u WHERE id = 1' | '$PGBIND' fingerprint) &&
	[ \"\$a\" = \"\$b\" ] && [ \"\$a\" != \"\$c\" ] && echo \"\$a\" | grep -Eqx '[0-9a-f]{16}'"
step "scan lists comments as tokens" sh -c "
	echo 'SELECT 1 -- note' | '$PGBIND' scan | grep -q 'SQL_COMMENT.*-- note'"

step "bench --quick prints its table" sh -c "'$PGBIND' bench --quick $SQL | grep -q '^parse to typed tree'"
step "bench --growth --quick prints its tables, the command's input paths too" sh -c "
	'$PGBIND' bench --growth --quick >'$TMP/growth.txt' && grep -q 'x2n' '$TMP/growth.txt' &&
	grep -q '^  pgbind verify FILE ' '$TMP/growth.txt' && grep -q '^  pgbind parse FILE ' '$TMP/growth.txt'"

# a terminal on standard output: util-linux's script runs the command on a pseudo-terminal
expect_fail "parse without --format refuses to write protobuf bytes to a terminal, with a hint" 2 \
	"^pgbind parse: not writing protobuf bytes to a terminal: use --format=text \(or json\), or redirect" \
	sh -c "script -qec \"'$PGBIND' parse '$TMP/two.sql'\" /dev/null </dev/null"
step "... --format=text on a terminal writes the tree" sh -c "
	script -qec \"'$PGBIND' parse --format=text '$TMP/two.sql'\" /dev/null </dev/null | grep -q '^ParseResult'"
step "... a file and a pipe get the same protobuf bytes, as before" sh -c "
	'$PGBIND' parse '$TMP/two.sql' >'$TMP/two.pb' && test -s '$TMP/two.pb' &&
	'$PGBIND' parse '$TMP/two.sql' | cmp - '$TMP/two.pb'"

printf 'SELECT DISTINCT a, -5 FROM t\n' >"$TMP/distinct.sql"
step "parse --format=json pipes into jq (NULL cell, negative integer kept)" sh -c "
	'$PGBIND' parse --format=json '$TMP/distinct.sql' |
		jq -e '.stmts[0].stmt.SelectStmt | (.distinctClause == [{}]) and
			(.targetList[1].ResTarget.val.A_Const.ival.ival == -5)' >/dev/null"
step "deparse --from=json reads what parse --format=json writes" sh -c "
	'$PGBIND' parse --format=json '$TMP/two.sql' | '$PGBIND' deparse --from=json |
		grep -qx 'SELECT a, b FROM t WHERE x = 1; UPDATE t SET a = 2'"
printf '{"version":1,\n "stmts":[{"stmt":{"SelectStmt":{' >"$TMP/bad.json"
expect_fail "malformed JSON names line and column" 1 "line 2, column 34: unexpected end of input" \
	"$PGBIND" deparse --from=json "$TMP/bad.json"
expect_fail "SQL with a NUL byte is refused" 1 "a NUL byte at offset 8" sh -c "printf 'SELECT 1\\000' | '$PGBIND' parse"
step "empty input parses to no statements" sh -c "
	printf '' | '$PGBIND' parse --format=json | grep -qx '{\"version\":${PG_MAJOR}0[0-9][0-9][0-9],\"stmts\":\[\]}'"

# The exit codes (pgbind --help): 0 done, 1 the input refused or wrong, 2 the command line wrong.
# A NUL byte once ended every command by SIGABRT (a double free) after its message.
printf 'SELECT 1\000; DROP TABLE x' >"$TMP/nul.sql"
for cmd in "parse --format=protobuf" "parse --format=json" "parse --format=text" deparse "deparse --check" \
	fingerprint "fingerprint --each" normalize "normalize --each" scan summary; do
	# shellcheck disable=SC2086
	expect_fail "a NUL byte: pgbind $cmd FILE exits 1 with its message" 1 "nul.sql: a NUL byte at offset 8" \
		"$PGBIND" $cmd "$TMP/nul.sql"
	expect_fail "... and from standard input" 1 "^pgbind: <stdin>: a NUL byte at offset 8" \
		sh -c "'$PGBIND' $cmd <'$TMP/nul.sql'"
done
expect_fail "verify counts a file with a NUL byte as a failure" 1 "nul.sql: a NUL byte at offset 8" \
	"$PGBIND" verify "$TMP/nul.sql"
expect_fail "no command is a usage error" 2 "^usage: pgbind COMMAND" "$PGBIND"
expect_fail "an unknown command is a usage error" 2 "unknown command 'pars'" "$PGBIND" pars
expect_fail "an unknown option is a usage error" 2 "unknown option --fromat" "$PGBIND" deparse --fromat=json
expect_fail "an option without its value is a usage error" 2 "option --format needs a value" "$PGBIND" parse --format
expect_fail "two inputs are a usage error" 2 "one input at a time" "$PGBIND" fingerprint "$TMP/two.sql" "$TMP/two.sql"
expect_fail "a missing file is refused input" 1 "^pgbind: $TMP/missing.sql: No such file" "$PGBIND" normalize "$TMP/missing.sql"
step "--help lists the exit codes" sh -c "'$PGBIND' --help | grep -q '^Exit status: 0 done; 1 the input is refused'"
step "--version names pgbind's version and the PostgreSQL of its libpg_query" sh -c "
	'$PGBIND' --version >'$TMP/version' && grep -Eqx 'pgbind [0-9]+\.[0-9]+\.[0-9]+' '$TMP/version' &&
	grep -Eq '^libpg_query for PostgreSQL $PG_MAJOR\.[0-9]+ ' '$TMP/version'"
step "help is --help, help COMMAND is COMMAND --help" sh -c "
	'$PGBIND' help >'$TMP/h1' && '$PGBIND' --help | cmp - '$TMP/h1' &&
	'$PGBIND' help deparse >'$TMP/h2' && '$PGBIND' deparse --help | cmp - '$TMP/h2' &&
	grep -q '^usage: pgbind deparse' '$TMP/h2' && '$PGBIND' help verify | grep -q '^usage: pgbind verify'"
expect_fail "help of an unknown command is a usage error" 2 "unknown command 'nope'" "$PGBIND" help nope
step "summary: one line of JSON (the expected values: libpg_query 18's pg_query_summary of the statement)" sh -c "
	echo 'SELECT f(a) FROM s.t x WHERE x.b = 1' | '$PGBIND' summary --truncate 20 >'$TMP/sum.json' &&
	grep -qF '{\"tables\":[{\"name\":\"s.t\",\"schema_name\":\"s\",\"table_name\":\"t\",\"context\":\"Select\"}],\"aliases\":{\"x\":\"s.t\"},' '$TMP/sum.json' &&
	grep -qF '\"filter_columns\":[{\"schema_name\":null,\"table_name\":\"x\",\"column\":\"b\"}],\"statement_types\":[\"SelectStmt\"],\"truncated_query\":\"SELECT ... FROM s...\"}' '$TMP/sum.json' &&
	'$PGBIND' help summary | grep -q '^usage: pgbind summary \[--truncate N\]'"
expect_fail "summary: --truncate takes a byte count" 2 "--truncate takes a number of bytes \\(0 or more\\), not '-3'" \
	"$PGBIND" summary --truncate -3 "$TMP/two.sql"
expect_fail "summary: a syntax error at FILE:LINE:COL" 1 "two_bad.sql:2:13: error: syntax error at or near \"FROM\"" \
	sh -c "printf 'SELECT 1;\nSELECT FROM FROM;\n' >'$TMP/two_bad.sql'; '$PGBIND' summary '$TMP/two_bad.sql'"
expect_fail "summary: a statement it cannot summarize, at FILE:LINE:COL" 1 "drop.sql:2:1: error: statement 2: improper relation name" \
	sh -c "printf 'SELECT 1;\nDROP TABLE a.b.c.d;\n' >'$TMP/drop.sql'; '$PGBIND' summary '$TMP/drop.sql'"
# the cut text of both ends in an incomplete character (libpg_query 18's encoding error); alone, the
# second fits and is not cut: the error is the last statement's
expect_fail "summary: a cut text's incomplete last character, at the last statement" 1 \
	"cut.sql:2:1: error: statement 2: invalid byte sequence for encoding \"UTF8\": 0xf4 0x22" \
	sh -c "printf 'SELECT 1;\nTRUNCATE \\364' >'$TMP/cut.sql'; '$PGBIND' summary --truncate 12 '$TMP/cut.sql'"
step "--opt value is --opt=value" sh -c "
	'$PGBIND' parse --format json '$TMP/two.sql' >'$TMP/o1' && '$PGBIND' parse --format=json '$TMP/two.sql' | cmp - '$TMP/o1' &&
	'$PGBIND' deparse --from json '$TMP/o1' | grep -qx 'SELECT a, b FROM t WHERE x = 1; UPDATE t SET a = 2'"

# Messages point at the input: file:line:column of the statement.
printf 'select 1;\n\n  select $1 + 2,\n\t3 from t; -- x\n/* c */ select x from y where z = $$a$$\n' >"$TMP/each.sql"
step "fingerprint --each: LINE<tab>FINGERPRINT, each that of the statement alone" sh -c "
	'$PGBIND' fingerprint --each '$TMP/each.sql' >'$TMP/each.fp' && cut -f1 '$TMP/each.fp' | tr '\n' ' ' | grep -qx '1 3 5 ' &&
	[ \"\$(sed -n 2p '$TMP/each.fp' | cut -f2)\" = \"\$(printf 'select \$1 + 2,\n\t3 from t' | '$PGBIND' fingerprint)\" ] &&
	[ \"\$(sed -n 3p '$TMP/each.fp' | cut -f2)\" = \"\$(echo 'select x from y where z = 1' | '$PGBIND' fingerprint)\" ]"
step "normalize --each: LINE<tab>TEXT, one line a statement (\\n, \\t written so), each numbered alone" sh -c "
	'$PGBIND' normalize --each <'$TMP/each.sql' >'$TMP/each.norm' &&
	printf '1\tselect \$1\n3\tselect \$1 + \$2,\\\\n\\\\t\$3 from t\n5\tselect x from y where z = \$1\n' | diff - '$TMP/each.norm'"
printf 'select 1;\nselect 2 from;\n  select 3;\n' >"$TMP/each-bad.sql"
expect_fail "--each: a statement with a syntax error is reported at file:line:col, the others written" 1 \
	"each-bad.sql:2:14: error: syntax error at end of input" "$PGBIND" normalize --each "$TMP/each-bad.sql"
step "... (the others written)" sh -c "'$PGBIND' normalize --each '$TMP/each-bad.sql' 2>/dev/null | cut -f1 | tr '\n' ' ' | grep -qx '1 3 '"
if [ "$PG_MAJOR" = 15 ]; then # libpg_query 15-4.0.0's deparser bugs
	printf 'SELECT 1;\n\n  DECLARE c ASENSITIVE CURSOR FOR SELECT 1;\nSELECT 3\n' >"$TMP/declare.sql"
	expect_fail "deparse: a statement that fails is reported at file:line:col of the statement" 1 \
		"declare.sql:3:3: error: statement 2: .*DeclareCursorStmt.options" "$PGBIND" deparse --check "$TMP/declare.sql"
	step "... the others are written" sh -c "'$PGBIND' deparse --check '$TMP/declare.sql' 2>/dev/null | grep -qx 'SELECT 1; SELECT 3'"
	expect_fail "deparse --check: SQL of the deparser's that does not parse is shown there, the input statement named" 1 \
		'^<stdin>:2:1: error: statement 2: libpg_query.s deparser wrote SQL that does not parse: syntax error at or near "\[", at character 22 of it: "SELECT ARRAY\[1, 2, 3\]" here: "\[2\]"' \
		sh -c "printf 'SELECT 1;\nSELECT (ARRAY[1, 2, 3])[2]' | '$PGBIND' deparse --check"
	expect_fail "... from protobuf, the statement is named by its number" 1 "^<stdin>: statement 2: .*stmts\[1\]\.stmt\.DeclareCursorStmt" \
		sh -c "'$PGBIND' parse '$TMP/declare.sql' | '$PGBIND' deparse --check --from=protobuf"
fi
expect_fail "deparse --from=json of what is no JSON says what was expected" 1 \
	'^pgbind deparse: <stdin>: line 1, column 1: not JSON: "not json" where an object \(a ParseResult' \
	sh -c "echo 'not json' | '$PGBIND' deparse --from=json"
printf '{"version":1,\n "stmts":[], "version":2}' >"$TMP/twice.json"
expect_fail "a JSON key given twice is refused, both places named" 1 \
	'twice.json: line 2, column 14: key "version" twice in one ParseResult \(first at line 1, column 2\)' \
	"$PGBIND" deparse --from=json "$TMP/twice.json"
printf '{"stmts":[{"stmt":{"A_Const":{"ival":{"ival":1},"sval":{"sval":"x"}}}}]}' >"$TMP/oneof.json"
expect_fail "... and so are two members of one oneof" 1 'key "sval" of A_Const: its oneof val is set already, by "ival"' \
	"$PGBIND" deparse --from=json "$TMP/oneof.json"

section hardening "hardening: allocation failure, threads, bad input"
step "hardening: arena failures, 6 threads, bad input, deep nesting" "$BUILD/tests/test_hardening" $SQL
if [ -x "$BUILD/tests/test_hardening_wrap" ]; then
	step "hardening: pgbind's own malloc calls failed one by one" "$BUILD/tests/test_hardening_wrap" --only=alloc
fi
step "ThreadSanitizer: 8 threads over the corpus" env TSAN_OPTIONS=exitcode=66 \
	"$BUILD/tests/test_hardening_tsan" --only=threads --nthreads=8 $SQL
if [ -z "${SAN:-}" ]; then
step "valgrind: allocation failure sweep" valgrind -q --error-exitcode=9 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect,possible --child-silent-after-fork=yes \
	"$BUILD/tests/test_hardening" --only=alloc
fi

section sanitizers "sanitizers (AddressSanitizer + UndefinedBehaviorSanitizer) and valgrind"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
step "ASan+UBSan: classic mistakes, errors, depth" "$SAN_BUILD/tests/test_parse"
step "ASan+UBSan: decoder on malformed input" "$SAN_BUILD/tests/test_decode"
step "ASan+UBSan: property test (8 rounds)" "$SAN_BUILD/tests/test_property" --rounds 8
step "ASan+UBSan: JSON on the project corpus" "$SAN_BUILD/tests/test_json" $SQL
step "ASan+UBSan: walker on the project corpus" "$SAN_BUILD/tests/test_walk" $SQL
step "ASan+UBSan: summary cases, its allocation failures" "$SAN_BUILD/tests/test_summary" tests/runtime/summary_cases.txt
step "ASan+UBSan: pgbind verify on the project corpus" "$SAN_BUILD/pgbind" verify $SQL
if [ -n "${SAN:-}" ]; then
	echo "     (SAN=$SAN: the main build is sanitized already; valgrind cannot run sanitized programs)"
else
step "valgrind: classic mistakes, errors, depth" valgrind -q --error-exitcode=9 --leak-check=full \
	--errors-for-leak-kinds=definite "$BUILD/tests/test_parse"
step "valgrind: decoder on malformed input" valgrind -q --error-exitcode=9 --leak-check=full \
	--errors-for-leak-kinds=definite "$BUILD/tests/test_decode"
fi

section clifuzz "command-line fuzz (the AddressSanitizer pgbind, ${CLI_FUZZ_CASES:-400} cases, fixed seed)"
# Every subcommand over random and mutated SQL, protobuf and JSON (NUL bytes, invalid UTF-8,
# truncated, huge, deeply nested), from files and standard input, and mangled command lines: no
# process may end by a signal or a sanitizer's report; each failure is exit 1 (2 for a mangled
# command line) with a message. LeakSanitizer's exit-time scan is off here (it costs half of each
# run; the sanitizers part checks leaks). The deparse of trees read from protobuf or JSON is run
# too, isolated as the CLI runs it (PGBIND_FUZZ_DEPARSE_TREES=fail: a signal there fails too).
step "command-line fuzz: every subcommand and input format, no signal, every failure exit 1 or 2 with a message" \
	sh -c "${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O1 -o '$TMP/fuzz_cli' tests/cli/fuzz_cli.c &&
	PGBIND_FUZZ_DEPARSE_TREES=fail ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	'$TMP/fuzz_cli' --pgbind '$SAN_BUILD/pgbind' --seed-pgbind '$PGBIND' --cases ${CLI_FUZZ_CASES:-400} \
		--seed ${CLI_FUZZ_SEED:-1} --save '$BUILD/fuzz-cli' $SQL"

section fuzz "fuzzing (libFuzzer, ${FUZZ_SECONDS:+$FUZZ_SECONDS s a target}${FUZZ_SECONDS:-a fixed number of inputs a target}, fixed seed)"
if [ -n "${HAVE_FUZZ:-}" ]; then
	step "fuzz: saved regressions, then parse, decode, JSON and the three deparse targets (isolated deparse)" env BUILD="$BUILD" \
		FUZZ_SECONDS="${FUZZ_SECONDS:-}" tests/fuzz/run.sh
else
	echo "     (clang not found: fuzzing not run; scripts/install-deps.sh installs it)"
	step "clang present for fuzzing" false
fi

section rust "the Rust crate (targets/rust)"
# cargo's harness prints "test result: ok. N passed; M failed; ..." per test binary: added up here
# into the suite's plain line.
cargo_counts() {
	"$@" >"$TMP/cargo.log" 2>&1
	rc=$?
	cat "$TMP/cargo.log"
	awk '/^test result:/ { p += $4; f += $6 } END { printf "%d passed, %d failed\n", p, f }' "$TMP/cargo.log"
	return $rc
}
# the same environment as the Makefile's build of the crate, or cargo reruns its build script
[ -n "${PG_QUERY_DIR:-}" ] || unset PG_QUERY_DIR
CARGO_RUN="env CARGO_TARGET_DIR=$PWD/$BUILD/rust RUSTC=${RUSTC:-/usr/bin/rustc} ${CARGO:-/usr/bin/cargo}"
step "Rust: API, views, errors, depth; every struct laid out as the C compiler does" \
	cargo_counts sh -c "cd targets/rust && $CARGO_RUN test --release --test api --test layout --test isolate"
step "Rust property test: random trees of all 241 messages, every field, both directions and the views" \
	sh -c "cd targets/rust && $CARGO_RUN test --release --test property"
step "Rust verify: project corpus (protobuf bytes, prost decode, views, deparse, fingerprint)" \
	sh -c "cd targets/rust && $CARGO_RUN test --release --test verify -- $(for f in $SQL; do printf '%s ' "$PWD/$f"; done)"
if [ -n "$DEBIAN_SQL" ]; then
	step "Rust verify: Debian corpus ($DEBIAN_SQL_N files of $DEBIAN_SQL_LIST)" \
		sh -c "cd targets/rust && $CARGO_RUN test --release --test verify -- $DEBIAN_SQL"
fi
step "Rust walk: project corpus (owned, views and C walks visit the same kinds, the JSON's wrappers; walk_mut)" \
	sh -c "cd targets/rust && $CARGO_RUN test --release --test walk -- $(for f in $SQL; do printf '%s ' "$PWD/$f"; done)"
if [ -n "$DEBIAN_SQL" ]; then
	step "Rust walk: Debian corpus ($DEBIAN_SQL_N files of $DEBIAN_SQL_LIST)" \
		sh -c "cd targets/rust && $CARGO_RUN test --release --test walk -- $DEBIAN_SQL"
fi
step "Rust pg_query module: pg_query.rs's API, known answers from its documented behaviour" \
	cargo_counts sh -c "cd targets/rust && $CARGO_RUN test --release --test pg_query"
step "Rust porting proof: every public item of pg_query.rs 6.1's API by name and signature, and what was added for it" \
	cargo_counts sh -c "cd targets/rust && $CARGO_RUN test --release --test porting_api"
step "Rust example ported from pg_query.rs (examples/porting.rs: its use line changed) runs" \
	sh -c "cd targets/rust && $CARGO_RUN run --release --example porting | grep -q '^rewritten: .*archive.customers'"

section go "the Go module (targets/go)"
# test programs built by make check (go test -c, and with -race); each prints "N passed, M failed"
GO_TEST=${GO_TEST:-$BUILD/go/pg_query.test}
GO_RACE_TEST=${GO_RACE_TEST:-$BUILD/go/pg_query.race.test}
step "Go: targets/go/pg_query.pb.go is protoc-gen-go's output for the proto" make -s check-generated-go BUILD="$BUILD"
step "Go: the module's files, generated ones included, are gofmt-clean" sh -c 'test -z "$(gofmt -l targets/go)"'
step "Go: pg_query_go v4's API and signatures, errors, depth, no panic" "$GO_TEST" -test.run '^(TestTour|TestErrors)$'
step "Go: DeparseIsolated and DeparseChecked: the plain Deparse's SQL and refusals, the deparser in a child; the check the one place wrong SQL is an error" "$GO_TEST" -test.run '^TestDeparse(Isolated|Checked)'
step "Go: pg_query_go v6's API by name and signature (parser package, Make* helpers); the new items' behaviour" \
	"$GO_TEST" -test.run '^TestV6'
step "Go: a program written against pg_query_go (v4, and v6's parser package and helpers) builds with only its imports changed (examples/go)" sh -c "
	'$BUILD/go/port' >'$TMP/port.out' && diff -u examples/go/port.expected '$TMP/port.out'"
step "Go property test: random trees of every message, every field, both directions and the views" \
	"$GO_TEST" -test.run '^TestProperty$'
# shellcheck disable=SC2086
step "Go verify: project corpus (proto.Equal, marshal, encoder, JSON, deparse, ...)" \
	"$GO_TEST" -test.run '^TestVerify$' $SQL
if [ -n "$DEBIAN_SQL" ]; then
	# shellcheck disable=SC2086
	step "Go verify: Debian corpus ($DEBIAN_SQL_N files of $DEBIAN_SQL_LIST)" "$GO_TEST" -test.run '^TestVerify$' $DEBIAN_SQL
fi
# shellcheck disable=SC2086
step "Go: every function from four goroutines at once, under the race detector" \
	"$GO_RACE_TEST" -test.run '^TestConcurrent$' $SQL

section install "library, install, vendoring"
step "the shared library exports only pgbind_ symbols" sh -c "
	syms=\$(nm -D --defined-only '$BUILD/libpgbind.so' | awk '{print \$3}' | grep -v '^__odr_asan');
	test -n \"\$syms\" && ! printf '%s\\n' \"\$syms\" | grep -v '^pgbind_'"
step "make install into a staged DESTDIR" make -s install DESTDIR="$TMP/stage" PREFIX=/usr/local BUILD="$BUILD"
# pkg-config reads the staged pgbind.pc with its prefix moved to where the files were staged
PCENV="PKG_CONFIG_PATH=$TMP/stage/usr/local/lib/pkgconfig"
PCDEF="--define-variable=prefix=$TMP/stage/usr/local"
step "a program builds against the staged install with pkg-config (shared)" sh -c "
	${CC:-cc} ${SANFLAGS:-} -o '$TMP/smoke-shared' tests/cli/smoke.c \$(env $PCENV pkg-config $PCDEF --cflags --libs pgbind) &&
	LD_LIBRARY_PATH='$TMP/stage/usr/local/lib' '$TMP/smoke-shared' 'select a from t' | grep -qx 'SelectStmt: SELECT a FROM t'"
step "... and statically (pkg-config --static)" sh -c "
	${CC:-cc} ${SANFLAGS:-} -static-libgcc -o '$TMP/smoke-static' tests/cli/smoke.c \
		\$(env $PCENV pkg-config $PCDEF --cflags pgbind) '$TMP/stage/usr/local/lib/libpgbind.a' \
		\$(env $PCENV pkg-config $PCDEF --static --libs pgbind | sed 's/-lpgbind//') &&
	'$TMP/smoke-static' 'delete from t' | grep -qx 'DeleteStmt: DELETE FROM t'"
# the runtime and the generated C of one major, as generated/ (as make dist's C sources)
mkdir -p "$TMP/vendor/third_party/pgbind" && cp -r targets/c/runtime "$TMP/vendor/third_party/pgbind/" &&
	cp -r "targets/c/generated/pg$PG_MAJOR" "$TMP/vendor/third_party/pgbind/generated"
step "targets/c/runtime/ and targets/c/generated/pg$PG_MAJOR/ build as a vendored drop-in" sh -c "
	cd '$TMP/vendor' && ${CC:-cc} ${SANFLAGS:-} -std=c11 -D_DEFAULT_SOURCE -O1 -o smoke '$PWD/tests/cli/smoke.c' third_party/pgbind/runtime/*.c \
		-Ithird_party/pgbind/runtime -Ithird_party/pgbind/generated $PG_QUERY_INCLUDES -I'$PG_INCLUDE_SERVER' \
		$PG_QUERY_LIBS -pthread && ./smoke 'insert into t values (1)' | grep -qx 'InsertStmt: INSERT INTO t VALUES (1)'"
# make dist's packages (make check builds $BUILD/dist), each built offline in an empty directory
# under /tmp exactly as the README's "Add it to a Rust/Go/C project" blocks say (the script runs
# those blocks), its example run; each refuses a libpg_query of another major. The builds start
# from copies of $BUILD's Rust target directory and Go cache: the dependencies are not compiled again.
step "make dist's crate, Go module and C sources build outside the checkout and run their examples (tests/dist/run.sh)" \
	tests/dist/run.sh "$BUILD/dist" "$BUILD"

# Every major in one process (issue 52's link layer; mk/majors.mk, docs/majors.md): each major's
# libpg_query renamed pgbind_pgNN_ by scripts/majors/link-major.sh (make majors-test builds it).
section majors "every major in one process (build/majors: the link layer)"
step "link-major.sh on made-up archives: every symbol kind renamed, the glibc shim, loud failures" \
	tests/majors/link_cases.sh
for o in "$BUILD"/majors/pg*/libpg_query.o; do
	m=${o%/libpg_query.o}
	m=${m##*/pg}
	step "$o defines only pgbind_pg${m}_ global symbols" sh -c "
		n=\$(nm -g --defined-only '$o' | wc -l); test \"\$n\" -gt 500 &&
		! nm -g --defined-only '$o' | awk '{ print \$NF }' | grep -v '^pgbind_pg${m}_'"
done
MAJORS_SQL="$(echo tests/sql/*.sql tests/sql/pg*/*.sql)"
# shellcheck disable=SC2086
step "each renamed major and the user's -lpg_query in one process = each major's own library; 4 threads" \
	"$BUILD/majors/one_process" --threads=4 --rounds=2 $MAJORS_SQL $DEBIAN_SQL
# shellcheck disable=SC2086
step "... the same with ThreadSanitizer (the project corpus, one round)" \
	"$BUILD/majors/one_process_tsan" --threads=4 --rounds=1 $MAJORS_SQL

# The command with every major (cli/main.c, mk/majors.mk): --pg=N runs major N's copy of the
# command. The majors it holds are those its --version lists; each is compared with its own
# libpg_query (tests/majors/cli_reference.c) on the project corpus and its Debian corpus: the one
# run.sh reads for the installed major (DEBIAN_SQL), the scripts debian_tree.sh laid out beside a
# fetched tree (tree/sql-files.txt) for the others.
CLI_MAJORS=$("$BUILD/pgbind" --version | sed -n 's/^libpg_query for PostgreSQL .*: --pg=\([0-9]*\).*/\1/p')
# The files of major $1's corpus: the project's and its Debian scripts.
cli_corpus() {
	if [ -f "$BUILD/majors/pg$1/tree/sql-files.txt" ] && [ -z "${QUICK:-}" ]; then
		echo "$MAJORS_SQL $(sed "s|^|$BUILD/majors/pg$1/tree/sql/|" "$BUILD/majors/pg$1/tree/sql-files.txt")"
	elif [ "$DEBIAN_SQL_DIR" = "/usr/share/postgresql/$1" ]; then
		echo "$MAJORS_SQL $DEBIAN_SQL"
	else
		echo "$MAJORS_SQL"
	fi
}
for m in $CLI_MAJORS; do
	corpus=$(cli_corpus "$m")
	# shellcheck disable=SC2086
	step "pgbind fingerprint and parse --format=protobuf --pg=$m = libpg_query $m's own, each corpus file" \
		tests/majors/cli_cases.sh "$BUILD/pgbind" "$m" "$BUILD/majors/pg$m/cli_reference" $corpus
	corpus=$(echo tests/sql/*.sql)
	for d in tests/sql/pg*; do
		[ "${d#tests/sql/pg}" -gt "$m" ] || corpus="$corpus $(echo "$d"/*.sql)"
	done
	# shellcheck disable=SC2086
	step "pgbind verify --pg=$m: the project corpus (tests/sql, its pgNN up to $m)" "$BUILD/pgbind" verify --pg="$m" $corpus
done
# Known facts, not outputs: the majors of the default build (MAJORS="15 17 18").
step "pgbind --version names 15, 17 and 18, each with its release; the newest is the default" sh -c "
	'$BUILD/pgbind' --version >'$TMP/versions' && cat '$TMP/versions' &&
	grep -Eq '^libpg_query for PostgreSQL 15\.[0-9]+ \(PG_VERSION_NUM 1500[0-9]{2}\), (release|tree at) .*: --pg=15\$' '$TMP/versions' &&
	grep -Eq '^libpg_query for PostgreSQL 17\.[0-9]+ \(PG_VERSION_NUM 1700[0-9]{2}\), (release|tree at) .*: --pg=17\$' '$TMP/versions' &&
	grep -Eq '^libpg_query for PostgreSQL 18\.[0-9]+ \(PG_VERSION_NUM 1800[0-9]{2}\), (release|tree at) .*: --pg=18 \(the default\)\$' '$TMP/versions'"
echo "SELECT JSON_OBJECT('a': 1)" >"$TMP/json_object.sql"
expect_fail "SELECT JSON_OBJECT('a': 1) with --pg=15: a syntax error (SQL/JSON constructors came in 16)" 1 \
	"json_object.sql:1:23: error: syntax error at or near \":\"" "$BUILD/pgbind" parse --pg=15 --format=json "$TMP/json_object.sql"
for m in 17 18; do
	step "SELECT JSON_OBJECT('a': 1) with --pg=$m: a JsonObjectConstructor, version $m" sh -c "
		'$BUILD/pgbind' --pg=$m parse --format=json '$TMP/json_object.sql' >'$TMP/json_object.json' &&
		grep -q '^{\"version\":${m}0[0-9][0-9][0-9],' '$TMP/json_object.json' && grep -q JsonObjectConstructor '$TMP/json_object.json'"
done
step "without --pg, the newest major: SELECT 1's version is 18's" sh -c "
	echo 'SELECT 1' | '$BUILD/pgbind' parse --format=json | grep -q '^{\"version\":180[0-9][0-9][0-9],'"
expect_fail "--pg=16, a major not built: a usage error naming those built" 2 \
	"^pgbind: --pg=16: PostgreSQL 16 is not built into this pgbind \(built: 15, 17, 18;" "$BUILD/pgbind" --pg=16 parse "$TMP/json_object.sql"
expect_fail "--pg=x: a usage error" 2 "^pgbind: --pg takes a PostgreSQL major \(built: 15, 17, 18\), not 'x'" \
	"$BUILD/pgbind" fingerprint --pg=x "$TMP/json_object.sql"
expect_fail "--pg without its value: a usage error" 2 "^pgbind: option --pg needs a value" "$BUILD/pgbind" parse --pg
echo "SET TIME ZONE INTERVAL '1 hour'" >"$TMP/tz.sql"
expect_fail "deparse --pg=15 of SET TIME ZONE INTERVAL '1 hour': 15's SQL (exit 0)" 0 "^SET timezone TO \$" \
	"$BUILD/pgbind" deparse --pg=15 "$TMP/tz.sql"
expect_fail "deparse --pg=17 of it: its deparser's crash is an error (exit 1), never a signal" 1 \
	"tz.sql:1:1: error: statement 1: libpg_query's deparser died of signal 11" "$BUILD/pgbind" --pg 17 deparse "$TMP/tz.sql"
step "every major's command in one process, one after another: deparse with 15, 17, 18, 15, ... (each its own deparse server)" \
	"$BUILD/majors/cli_sequence" "$TMP/tz.sql"

# Converting between majors in the command (cli/as.c): `parse --pg=A --as=B` and `deparse --pg=A` of
# another major's tree, on each major's corpus (tests/majors/cli_as.sh). Every pair of majors: the
# command's bytes = A's own libpg_query's converted by the library's converter alone
# (tests/majors/convert_bytes.c; through the newest where no pair was generated, 15 -> 18 -> 17: on
# the project corpus, the composition of two routes checked on every corpus); up then down deparses
# to the SQL of A's own tree but for the losses tests/majors/cli_as_losses.txt declares (protobuf on
# every corpus, JSON, M's writer and reader, on the project's); and what differs from B's own parse
# is what docs/generated/majors-pgA-pgB.md lists (tests/convert's measurement of the converters,
# statement by statement on every corpus; here the command's, on the project corpus's files).
CLI_NEWEST=$(echo "$CLI_MAJORS" | tail -n 1)
for m in $CLI_MAJORS; do
	corpus=$(cli_corpus "$m")
	for t in $CLI_MAJORS; do
		[ "$t" != "$m" ] || continue
		if [ "$m" = "$CLI_NEWEST" ] || [ "$t" = "$CLI_NEWEST" ]; then
			route=$m:$t files=$corpus
		else
			route=$m:$CLI_NEWEST:$t files=$MAJORS_SQL
		fi
		# shellcheck disable=SC2086
		step "pgbind parse --pg=$m --as=$t = libpg_query $m's bytes converted by the library ($route)" \
			tests/majors/cli_as.sh bytes "$BUILD/pgbind" "$route" "$BUILD/majors/pg$m/cli_reference" \
			"$BUILD/majors/convert_bytes" $files
	done
	[ "$m" != "$CLI_NEWEST" ] || continue
	# shellcheck disable=SC2086
	step "pgbind parse --pg=$m --as=$CLI_NEWEST | deparse --pg=$m: the SQL of $m's own tree, but for declared losses" \
		tests/majors/cli_as.sh roundtrip "$BUILD/pgbind" "$m" "$CLI_NEWEST" protobuf tests/majors/cli_as_losses.txt $corpus
	# shellcheck disable=SC2086
	step "... the same through $CLI_NEWEST's JSON (--format=json | deparse --from=json), the project corpus" \
		tests/majors/cli_as.sh roundtrip "$BUILD/pgbind" "$m" "$CLI_NEWEST" json tests/majors/cli_as_losses.txt $MAJORS_SQL
	doc=docs/generated/majors-pg$m-pg$CLI_NEWEST.md
	# shellcheck disable=SC2086
	step "pgbind parse --pg=$m --as=$CLI_NEWEST differs from --pg=$CLI_NEWEST only as $doc lists (project corpus)" \
		tests/majors/cli_as.sh grammar "$BUILD/pgbind" "$m" "$CLI_NEWEST" "$BUILD/majors/wire_keys" "$doc" $MAJORS_SQL
	# shellcheck disable=SC2086
	step "pgbind parse --pg=$CLI_NEWEST --as=$m differs from --pg=$m only as $doc lists (project corpus)" \
		tests/majors/cli_as.sh grammar "$BUILD/pgbind" "$CLI_NEWEST" "$m" "$BUILD/majors/wire_keys" "$doc" $MAJORS_SQL
done
# Known facts, not outputs (the default build's majors).
echo "INSERT INTO t VALUES (1) RETURNING *" >"$TMP/insert_returning.sql"
step "INSERT ... RETURNING * on 15 --as=18: its returning list inside 18's ReturningClause, version 18's" sh -c "
	'$BUILD/pgbind' parse --pg=15 --as=18 --format=json '$TMP/insert_returning.sql' >'$TMP/ir.json' && cat '$TMP/ir.json' &&
	grep -q '^{\"version\":180[0-9][0-9][0-9],' '$TMP/ir.json' &&
	grep -q '\"returningClause\":{\"exprs\":\[{\"ResTarget\":{\"val\":{\"ColumnRef\":{\"fields\":\[{\"A_Star\":{}}\]' '$TMP/ir.json' &&
	! grep -q returningList '$TMP/ir.json' &&
	'$BUILD/pgbind' parse --pg=15 --format=json '$TMP/insert_returning.sql' | grep -q '\"returningList\":\[{\"ResTarget\"'"
echo "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE RETURNING *" >"$TMP/merge_returning.sql"
expect_fail "MERGE ... RETURNING * on 18 --as=15: no form in 15, at the statement (exit 1)" 1 \
	"^.*merge_returning.sql:1:1: error: statement 1: stmts\[0\]\.stmt\.MergeStmt\.returning_clause \(18\) has no form in 15\$" \
	"$BUILD/pgbind" parse --pg=18 --as=15 --format=json "$TMP/merge_returning.sql"
expect_fail "SELECT JSON_OBJECT('a': 1) parsed on 18, deparse --pg=15 of its JSON: no form in 15, the path named (exit 1)" 1 \
	"^<stdin>: statement 1: stmts\[0\]\.stmt\.SelectStmt\.target_list\[0\]\.ResTarget\.val\.JsonObjectConstructor \(18\) has no form in 15 \(the tree is PostgreSQL 18's, as its version 180[0-9]{3} says\) \(stmts\[0\]\)\$" \
	sh -c "'$BUILD/pgbind' parse --pg=18 --format=json '$TMP/json_object.sql' | '$BUILD/pgbind' deparse --pg=15 --from=json"
printf "SELECT 1; SELECT JSON_OBJECT('a': 1); MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE RETURNING *; SELECT 2\n" \
	>"$TMP/multi.sql"
step "deparse --pg=15 of 18's tree of 4 statements, 2 with no form in 15: the other 2 written, each of those 2 at its place (exit 1)" sh -c "
	'$BUILD/pgbind' parse --pg=18 --format=protobuf '$TMP/multi.sql' >'$TMP/multi.pb' &&
	'$BUILD/pgbind' deparse --pg=15 --from=protobuf <'$TMP/multi.pb' >'$TMP/multi.out' 2>'$TMP/multi.err'
	rc=\$?; cat '$TMP/multi.out' '$TMP/multi.err'; test \$rc -eq 1 &&
	test \"\$(cat '$TMP/multi.out')\" = 'SELECT 1; SELECT 2' && test \$(wc -l <'$TMP/multi.err') -eq 2 &&
	grep -qx '<stdin>: statement 2: stmts\[1\]\.stmt\.SelectStmt\.target_list\[0\]\.ResTarget\.val\.JsonObjectConstructor (18) has no form in 15 (the tree is PostgreSQL 18.s, as its version 180[0-9]* says) (stmts\[1\])' '$TMP/multi.err' &&
	grep -qx '<stdin>: statement 3: stmts\[2\]\.stmt\.MergeStmt\.returning_clause (18) has no form in 15 (the tree is PostgreSQL 18.s, as its version 180[0-9]* says) (stmts\[2\])' '$TMP/multi.err'"
step "SELECT JSON_OBJECT('a': 1) parsed on 18, deparse --pg=17 of its protobuf: 17's deparser writes it" sh -c "
	'$BUILD/pgbind' parse --pg=18 --format=protobuf '$TMP/json_object.sql' | '$BUILD/pgbind' deparse --pg=17 --from=protobuf >'$TMP/jo.out' &&
	cat '$TMP/jo.out' && grep -qx \"SELECT JSON_OBJECT('a': 1)\" '$TMP/jo.out'"
expect_fail "parse --as=16, a major not built: a usage error naming those built (exit 2)" 2 \
	"^pgbind parse: --as=16: PostgreSQL 16 is not built into this pgbind \(built: 15, 17, 18;" \
	"$BUILD/pgbind" parse --pg=15 --as=16 "$TMP/insert_returning.sql"
expect_fail "parse --as=x: a usage error (exit 2)" 2 "^pgbind parse: --as takes a PostgreSQL major \(built: 15, 17, 18\), not 'x'" \
	"$BUILD/pgbind" parse --as=x "$TMP/insert_returning.sql"
expect_fail "deparse --pg=15 of a tree whose version is 16's, not built: exit 1 naming it and those built" 1 \
	"^pgbind deparse: <stdin>: the tree's version 160004 is PostgreSQL 16's, which is not built into this pgbind \(built: 15, 17, 18;" \
	sh -c "echo '{\"version\":160004,\"stmts\":[]}' | '$BUILD/pgbind' deparse --pg=15 --from=json"
step "deparse --pg=15 of a tree without a version: taken as 15's, as before --as" sh -c "
	echo '{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetList\":[{\"ResTarget\":{\"val\":{\"A_Const\":{\"ival\":{\"ival\":1}}}}}],\"limitOption\":\"LIMIT_OPTION_DEFAULT\",\"op\":\"SETOP_NONE\"}}}]}' |
	'$BUILD/pgbind' deparse --pg=15 --from=json | grep -qx 'SELECT 1'"
step "parse --pg=15 --as=15 writes what parse --pg=15 writes" sh -c "
	'$BUILD/pgbind' parse --pg=15 --as=15 --format=protobuf tests/sql/expressions.sql >'$TMP/as15.pb' &&
	'$BUILD/pgbind' parse --pg=15 --format=protobuf tests/sql/expressions.sql | cmp - '$TMP/as15.pb'"
# The C library with every major (pgbind_Options.pg_major; mk/lib-majors.mk, docs/majors.md section
# 2): tests/majors/lib_majors.c against each major's own libpg_query (tests/majors/lib_reference.c)
# and its own pgbind (the command), on the corpus cli_cases.sh uses; the known facts; 4 threads
# parsing with 15, 17 and 18 at once, plain and under ThreadSanitizer.
for m in $CLI_MAJORS; do
	corpus=$MAJORS_SQL
	if [ -f "$BUILD/majors/pg$m/tree/sql-files.txt" ] && [ -z "${QUICK:-}" ]; then
		corpus="$corpus $(sed "s|^|$BUILD/majors/pg$m/tree/sql/|" "$BUILD/majors/pg$m/tree/sql-files.txt")"
	elif [ "$DEBIAN_SQL_DIR" = "/usr/share/postgresql/$m" ]; then
		corpus="$corpus $DEBIAN_SQL"
	fi
	# shellcheck disable=SC2086
	step "libpgbind with pg_major=$m = libpg_query $m's parse (converted), fingerprint, normalize, scan; its pgbind's deparse, summary" \
		"$BUILD/majors/lib_majors" compare "$m" "$BUILD/majors/pg$m/lib_reference" \
		"$BUILD/majors/pg$m/tree/protobuf/pg_query.proto" "$BUILD/pgbind" $corpus
done
step "libpgbind: pgbind_majors() lists 15, 17, 18; JSON_OBJECT with 15, 17, 18; pg_major=16 not built" \
	"$BUILD/majors/lib_majors" facts
# shellcheck disable=SC2086
step "libpgbind: 4 threads parsing with 15, 17 and 18 at once = one thread's answers" \
	"$BUILD/majors/lib_majors" threads 4 $MAJORS_SQL
# shellcheck disable=SC2086
step "... the same with ThreadSanitizer (the test's code instrumented)" \
	"$BUILD/majors/lib_majors_tsan" threads 4 $MAJORS_SQL

# The generated converters between majors' parse trees (issue 52, part 3; mk/convert.mk,
# docs/convert.md): the measurement per pair (build/convert/run-pgA-pgB.sh, written by make
# convert-test) and the generator's refusals.
section convert "converters between majors (tests/convert, docs/generated/majors-*.md)"
step "make convert-test wrote a run script per pair" sh -c "ls '$BUILD'/convert/run-pg*-pg*.sh >/dev/null"
for run in "$BUILD"/convert/run-pg*-pg*.sh; do
	[ -e "$run" ] || continue
	pair=${run##*/run-}
	step "${pair%.sh}: up = the newer's parse but where docs/generated lists; up then down = identity; fuzz" "$run"
	step "... the same under AddressSanitizer and UndefinedBehaviorSanitizer" \
		env CONVERT_TEST="$BUILD/convert/convert_test_asan" "$run"
done
if [ -n "${HAVE_FUZZ:-}" ]; then
	mkdir -p "$TMP/convert-fuzz"
	step "libFuzzer on the converters (every table, both ways; seeded with real parses), 20 s, fixed seed" \
		"$BUILD/convert/fuzz_convert" -seed=1 -max_total_time=20 -max_len=65536 "$TMP/convert-fuzz" "$BUILD/convert/seeds"
fi
# what a value with no older form says: its path, exactly (convert_test --show)
cv_show() { "$BUILD/convert/convert_test" "$1" "$2" --show "$3" | grep -qxF "$4"; }
step "down: MERGE's RETURNING (17) names its path in 15" cv_show 15 18 \
	'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE RETURNING t.id' \
	'18 to 15: error 2: stmts[0].stmt.MergeStmt.returning_clause (18) has no form in 15 (at byte 116)'
step "down: RETURNING WITH (OLD AS o) (18) is the moved clause's other field" cv_show 17 18 \
	'UPDATE t SET v = 1 RETURNING WITH (OLD AS o) o.v' \
	'18 to 17: error 2: stmts[0].stmt.UpdateStmt.returning_clause.options (18) has no form in 17 (at byte 46)'
step "down: SET STATISTICS DEFAULT (17) leaves 15's integer nothing to read" cv_show 15 18 \
	'ALTER STATISTICS s SET STATISTICS DEFAULT' \
	'18 to 15: error 2: stmts[0].stmt.AlterStatsStmt.stxstattarget = absent (18) has no form in 15 (at byte 11)'
step "up: SET STATISTICS 5 (15's integer) is 18's own parse (an Integer node)" cv_show 15 18 \
	'ALTER STATISTICS s SET STATISTICS 5' "15 to 18: 26 bytes, equal to 18's own parse"
step "... and down again 15's own" cv_show 15 18 \
	'ALTER STATISTICS s SET STATISTICS 5' "18 to 15: 21 bytes, equal to 15's own parse"
step "up: a CHECK constraint gets 18's is_enforced (default:true if:contype=...): 18's own parse" cv_show 15 18 \
	'CREATE TABLE t (a int CHECK (a > 0))' "15 to 18: 139 bytes, equal to 18's own parse"
step "down: NOT ENFORCED (18) is the default not holding: no form in 15" cv_show 15 18 \
	'ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0) NOT ENFORCED' \
	'18 to 15: error 2: stmts[0].stmt.AlterTableStmt.cmds[0].AlterTableCmd.def.Constraint.is_enforced = 0 (18) has no form in 15 (at byte 35)'
step "down: a VIRTUAL generated column (18) has no form in 17" cv_show 17 18 \
	'CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a) VIRTUAL)' \
	"18 to 17: error 2: stmts[0].stmt.CreateStmt.table_elts[1].ColumnDef.constraints[0].Constraint.generated_kind = 'v' (18) has no form in 17 (at byte 161)"
CV_GEN="$BUILD/pgbind-convert-gen"
cv_arg() { echo "$1:$BUILD/majors/pg$1/tree/protobuf/pg_query.proto:$BUILD/majors/pg$1/tree/pg_query.h"; }
step "the committed tables are what the generator makes of the trees (15-18, 17-18)" sh -c "
	'$CV_GEN' $(cv_arg 15) $(cv_arg 18) schema/majors.txt '$TMP/cv1518.c' && cmp targets/c/generated/convert/pg15_pg18.c '$TMP/cv1518.c' &&
	'$CV_GEN' $(cv_arg 17) $(cv_arg 18) schema/majors.txt '$TMP/cv1718.c' && cmp targets/c/generated/convert/pg17_pg18.c '$TMP/cv1718.c'"
grep -v '^InsertStmt.returning_list' schema/majors.txt >"$TMP/majors-noret.txt"
expect_fail "an undeclared field of the older major stops the generator with both protos' lines and the line to add" 1 \
	'pg15/tree/protobuf/pg_query.proto:[0-9]+: error: InsertStmt.returning_list \(15\) has no field of that name in 18 \(message InsertStmt at .*pg18/tree/protobuf/pg_query.proto:[0-9]+\)' \
	"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-noret.txt" "$TMP/cv.c"
expect_fail "... and the lines that would declare it" 1 '^ +InsertStmt.returning_list moved:FIELD.FIELD until:15 ' \
	"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-noret.txt" "$TMP/cv.c"
grep -v '^AlterTableType.AT_CheckNotNull' schema/majors.txt >"$TMP/majors-noenum.txt"
expect_fail "... so does an enum value the newer major lacks" 1 \
	'error: enum value AlterTableType.AT_CheckNotNull \(17\) is not in 18.s enum AlterTableType \(.*pg18/tree/protobuf/pg_query.proto:[0-9]+\)' \
	"$CV_GEN" "$(cv_arg 17)" "$(cv_arg 18)" "$TMP/majors-noenum.txt" "$TMP/cv.c"
{ cat schema/majors.txt; echo 'SelectStmt.target_list dropped:true'; } >"$TMP/majors-stale.txt"
expect_fail "a declaration that matches no difference is stale: refused with its line" 1 \
	"majors-stale.txt:[0-9]+:[0-9]+: error: override 'SelectStmt.target_list dropped:true' matches nothing" \
	"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-stale.txt" "$TMP/cv.c"
{ cat schema/majors.txt; echo 'InsertStmt.returning_list dropped:true until:15'; } >"$TMP/majors-two.txt"
expect_fail "two declarations of one difference are refused" 1 \
	'majors-two.txt:[0-9]+:[0-9]+: error: InsertStmt.returning_list: declare one of moved:, map:, dropped:, unset:' \
	"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-two.txt" "$TMP/cv.c"
sed 's/^UpdateStmt.returning_list   moved:returning_clause.exprs/UpdateStmt.returning_list   moved:returning_clause.expr/' \
	schema/majors.txt >"$TMP/majors-path.txt"
expect_fail "a moved: path to no field of the newer major is refused" 1 \
	'error: moved:returning_clause.expr: ReturningClause has no field expr' \
	"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-path.txt" "$TMP/cv.c"

# option: (GRANT's admin option, 15 against 18): a malformed declaration, or a proto without what
# the DefElem needs, stops the generator at the declaration's file:line
for cv_bad in 'option:opt   arg:is_grant|option:opt: expected option:LIST=NAME arg:VALUE' \
	'option:opt=admin|option:opt=admin: expected option:LIST=NAME arg:VALUE' \
	"option:behavior=admin   arg:is_grant|option:behavior=admin: behavior is not a repeated Node field of 18's GrantRoleStmt" \
	"option:opt=admin   arg:yes|arg:yes: not true, false or a bool field both majors' GrantRoleStmt have"; do
	sed "s/^GrantRoleStmt.admin_opt   option:opt=admin   arg:is_grant/GrantRoleStmt.admin_opt   ${cv_bad%%|*}/" \
		schema/majors.txt >"$TMP/majors-option.txt"
	expect_fail "a malformed option: declaration is refused at its line: ${cv_bad%%|*}" 1 \
		"majors-option.txt:[0-9]+:[0-9]+: error: ${cv_bad#*|}" \
		"$CV_GEN" "$(cv_arg 15)" "$(cv_arg 18)" "$TMP/majors-option.txt" "$TMP/cv.c"
done
for m in 15 18; do
	sed 's/  DEFELEM_UNSPEC = 1;/  DEFELEM_UNSPEC_RENAMED = 1;/' "$BUILD/majors/pg$m/tree/protobuf/pg_query.proto" >"$TMP/cv-pg$m.proto"
done
expect_fail "... and so is one whose DefElem the newer proto cannot make (no DEFELEM_UNSPEC), at its line" 1 \
	'^schema/majors.txt:[0-9]+:[0-9]+: error: option:opt=admin: .*cv-pg18.proto \(18\) has no enum value DefElemAction.DEFELEM_UNSPEC' \
	"$CV_GEN" "15:$TMP/cv-pg15.proto:$BUILD/majors/pg15/tree/pg_query.h" \
	"18:$TMP/cv-pg18.proto:$BUILD/majors/pg18/tree/pg_query.h" schema/majors.txt "$TMP/cv.c"

section_end
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
