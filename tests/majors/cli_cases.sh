#!/bin/sh
# cli_cases.sh PGBIND MAJOR REFERENCE FILE... -- the pgbind command with --pg=MAJOR against that
# major's own libpg_query (REFERENCE: tests/majors/cli_reference.c linked with the major's
# unrenamed libpg_query.a), on each FILE whole: `pgbind fingerprint --pg=MAJOR FILE` and `pgbind
# parse --pg=MAJOR --format=protobuf FILE` must write the same bytes as `REFERENCE fingerprint|parse
# FILE` and exit with the same status; where the library reports an error, the command's first
# line on standard error must be the reference's (file:line:column, the message). Never a signal.
# Prints each difference and "N passed, M failed" (one check per file and command); exit 1 on any.
# Run by tests/run.sh's part majors, once per major built.
set -u
[ $# -ge 3 ] || { echo "usage: $0 PGBIND MAJOR REFERENCE FILE..." >&2; exit 2; }
pgbind=$1 major=$2 reference=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_cases.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0
for f in "$@"; do
	for cmd in fingerprint parse; do
		"$reference" "$cmd" "$f" >"$tmp/want" 2>"$tmp/want.err"
		want=$?
		if [ "$cmd" = parse ]; then
			"$pgbind" parse --pg="$major" --format=protobuf "$f" >"$tmp/got" 2>"$tmp/got.err"
		else
			"$pgbind" fingerprint --pg="$major" "$f" >"$tmp/got" 2>"$tmp/got.err"
		fi
		got=$?
		why=
		if [ "$want" -ge 2 ]; then
			why="the reference failed (exit $want): $(head -1 "$tmp/want.err")"
		elif [ "$got" -ge 128 ]; then
			why="pgbind ended by signal $((got - 128))"
		elif [ "$got" -ne "$want" ]; then
			why="pgbind exit $got, libpg_query's $want ($(head -1 "$tmp/got.err") / $(head -1 "$tmp/want.err"))"
		elif ! cmp -s "$tmp/got" "$tmp/want"; then
			why="output differs: $(cmp "$tmp/got" "$tmp/want" 2>&1 | head -1)"
		elif [ "$want" -ne 0 ] && [ "$(head -1 "$tmp/got.err")" != "$(cat "$tmp/want.err")" ]; then
			why="error differs: pgbind '$(head -1 "$tmp/got.err")', libpg_query '$(cat "$tmp/want.err")'"
		fi
		if [ -z "$why" ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "MISMATCH pg$major $cmd $f: $why"
		fi
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
