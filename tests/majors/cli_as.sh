#!/bin/sh
# cli_as.sh -- `pgbind parse --as` and `pgbind deparse` of another major's tree (cli/as.c), on each
# corpus FILE whole; run by tests/run.sh's part majors. Two checks:
#
#   cli_as.sh bytes PGBIND ROUTE REFERENCE CONVERT FILE...
#     ROUTE A:B or A:VIA:B. `pgbind parse --pg=A --as=B --format=protobuf FILE` must be major A's own
#     pg_query_parse_protobuf bytes (REFERENCE: tests/majors/cli_reference.c of A) converted by the
#     library's converter alone (CONVERT: tests/majors/convert_bytes.c, A [VIA] B): the same bytes
#     and exit 0; where the converter finds a value with no form in B, exit 1 and the command's first
#     error line FILE:LINE:COL: error: statement K+1: MESSAGE, MESSAGE the converter's (naming
#     stmts[K]); where A's library cannot parse the file, the reference's error line.
#
#   cli_as.sh roundtrip PGBIND A B FORMAT LOSSES FILE...
#     `pgbind parse --pg=A --as=B --format=FORMAT FILE | pgbind deparse --pg=A --from=FORMAT` must
#     write what `pgbind parse --pg=A --format=protobuf FILE | pgbind deparse --pg=A --from=protobuf`
#     writes (standard output and error, byte for byte, and the exit status), but for the files
#     LOSSES lists for major A (lines "A<tab>PATH<tab>SED<tab>WHY": PATH a suffix of FILE; the
#     declared losses of schema/majors.txt): for those the output must differ, and be exactly the
#     plain one edited by `sed -E SED`. A listed file given and not differing fails too.
#
#   cli_as.sh grammar PGBIND A B WIRE_KEYS DOC FILE...
#     `pgbind parse --pg=A --as=B FILE` against `pgbind parse --pg=B FILE`, field by field
#     (WIRE_KEYS: tests/majors/wire_keys.c): every difference must be one DOC
#     (docs/generated/majors-pgX-pgY.md, tests/convert's measurement of the converters) lists for
#     that direction (the grammar changes between the majors, the fields only B records); a value
#     with no form in B must be one DOC lists as such. Files only one of the majors parses are
#     counted, not compared (the grammar of the other, or psql's meta-commands).
#
# Never a signal. Prints each failure and "N passed, M failed: ..." (one check per file); exit 1 on
# any.
set -u
[ $# -ge 2 ] || { echo "usage: $0 bytes|roundtrip PGBIND ..." >&2; exit 2; }
mode=$1 pgbind=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_as.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0 no_form=0 syntax=0 lost=0 compared=0
fail() {
	failed=$((failed + 1))
	echo "MISMATCH $*"
}

bytes() { # FILE
	f=$1
	"$reference" parse "$f" >"$tmp/want" 2>"$tmp/want.err"
	want=$?
	"$pgbind" parse --pg="$from" --as="$to" --format=protobuf "$f" >"$tmp/got" 2>"$tmp/got.err"
	got=$?
	if [ "$want" -ge 2 ]; then
		fail "$route $f: the reference failed (exit $want): $(head -1 "$tmp/want.err")"
		return
	elif [ "$got" -ge 128 ]; then
		fail "$route $f: pgbind ended by signal $((got - 128))"
		return
	elif [ "$want" -eq 1 ]; then
		syntax=$((syntax + 1))
		if [ "$got" -ne 1 ] || [ "$(head -1 "$tmp/got.err")" != "$(cat "$tmp/want.err")" ]; then
			fail "$route $f: A's library refuses the file ($(cat "$tmp/want.err")), pgbind exit $got: $(head -1 "$tmp/got.err")"
		else
			passed=$((passed + 1))
		fi
		return
	fi
	# shellcheck disable=SC2046
	"$convert" $(echo "$route" | tr : ' ') <"$tmp/want" >"$tmp/conv" 2>"$tmp/conv.err"
	conv=$?
	if [ "$conv" -ge 2 ]; then
		fail "$route $f: convert_bytes failed (exit $conv): $(head -1 "$tmp/conv.err")"
	elif [ "$conv" -eq 0 ]; then
		if [ "$got" -ne 0 ]; then
			fail "$route $f: pgbind exit $got, the converter converts: $(head -1 "$tmp/got.err")"
		elif ! cmp -s "$tmp/got" "$tmp/conv"; then
			fail "$route $f: bytes differ: $(cmp "$tmp/got" "$tmp/conv" 2>&1 | head -1)"
		else
			passed=$((passed + 1))
			compared=$((compared + 1))
		fi
	else
		no_form=$((no_form + 1))
		message=$(cat "$tmp/conv.err")
		k=$(echo "$message" | sed -n 's/^stmts\[\([0-9]*\)\].*/\1/p')
		line=$(head -1 "$tmp/got.err")
		if [ "$got" -ne 1 ] || [ -z "$k" ]; then
			fail "$route $f: the converter: '$message', pgbind exit $got: $line"
		elif [ "${line#"$f":*:*: error: statement $((k + 1)): }" != "$message" ] ||
			! echo "$line" | grep -Eq "^.*:[0-9]+:[0-9]+: error: statement $((k + 1)): "; then
			fail "$route $f: pgbind's error '$line' is not at statement $((k + 1)) with the converter's '$message'"
		else
			passed=$((passed + 1))
		fi
	fi
}

# the LOSSES line of major $from for FILE: "SED<tab>WHY", or nothing
loss_of() {
	awk -F '\t' -v m="$from" -v f="$1" '$1 == m && (f == $2 || substr(f, length(f) - length($2)) == "/" $2) { print $3 "\t" $4; exit }' "$losses"
}

# The first differing statements of two deparse outputs (statements joined by "; " on one line).
statements_diff() {
	sed 's/; /;\n/g' "$1" >"$tmp/a.lines"
	sed 's/; /;\n/g' "$2" >"$tmp/b.lines"
	diff "$tmp/a.lines" "$tmp/b.lines" | head -6 | tr '\n' ' '
}

roundtrip() { # FILE
	f=$1
	"$pgbind" parse --pg="$from" --format=protobuf "$f" >"$tmp/plain.pb" 2>"$tmp/plain.perr"
	p=$?
	"$pgbind" parse --pg="$from" --as="$to" --format="$format" "$f" >"$tmp/as.tree" 2>"$tmp/as.perr"
	a=$?
	if [ "$p" -ge 128 ] || [ "$a" -ge 128 ]; then
		fail "$from->$to->$from $f: parse ended by a signal (exit $p, $a)"
		return
	elif [ "$p" -ne 0 ]; then # refused by A's parser: the same refusal, nothing to deparse
		if [ "$a" -ne "$p" ] || ! cmp -s "$tmp/plain.perr" "$tmp/as.perr"; then
			fail "$from->$to->$from $f: parse exit $p, with --as $a: $(head -1 "$tmp/as.perr")"
		else
			syntax=$((syntax + 1))
			passed=$((passed + 1))
		fi
		return
	elif [ "$a" -ne 0 ]; then
		fail "$from->$to->$from $f: parse --as=$to exit $a: $(head -1 "$tmp/as.perr")"
		return
	fi
	"$pgbind" deparse --pg="$from" --from=protobuf <"$tmp/plain.pb" >"$tmp/plain.out" 2>"$tmp/plain.err"
	p=$?
	"$pgbind" deparse --pg="$from" --from="$format" <"$tmp/as.tree" >"$tmp/as.out" 2>"$tmp/as.err"
	a=$?
	loss=$(loss_of "$f")
	if [ "$p" -ge 128 ] || [ "$a" -ge 128 ]; then
		fail "$from->$to->$from $f: deparse ended by a signal (exit $p, $a)"
	elif [ "$p" -ne "$a" ] || ! cmp -s "$tmp/plain.err" "$tmp/as.err"; then
		fail "$from->$to->$from $f: deparse exit $p, after --as=$to $a; errors: $(diff "$tmp/plain.err" "$tmp/as.err" | head -3 | tr '\n' ' ')"
	elif [ -z "$loss" ]; then
		if cmp -s "$tmp/plain.out" "$tmp/as.out"; then
			passed=$((passed + 1))
			compared=$((compared + 1))
		else
			fail "$from->$to->$from $f: the SQL differs (no loss declared): $(statements_diff "$tmp/plain.out" "$tmp/as.out")"
		fi
	else
		sed -E "${loss%%	*}" "$tmp/plain.out" >"$tmp/plain.lost"
		if cmp -s "$tmp/plain.out" "$tmp/as.out"; then
			fail "$from->$to->$from $f: declared to lose (${loss#*	}), but the SQL is the same"
		elif ! cmp -s "$tmp/plain.lost" "$tmp/as.out"; then
			fail "$from->$to->$from $f: the SQL differs otherwise than declared (${loss#*	}): $(statements_diff "$tmp/plain.lost" "$tmp/as.out")"
		else
			lost=$((lost + 1))
			passed=$((passed + 1))
			echo "as declared, $from->$to->$from $f: ${loss#*	}"
		fi
	fi
}

# The keys (`...` in the first column) of DOC's table under the heading that begins with $1.
doc_keys() {
	awk -v h="$1" 'index($0, "## ") == 1 { on = index($0, h) == 1; next } on && /^\| `/ { sub(/^\| `/, ""); sub(/` \|.*/, ""); print }' "$doc"
}

grammar() { # FILE
	f=$1
	"$pgbind" parse --pg="$from" --as="$to" --format=protobuf "$f" >"$tmp/a.pb" 2>"$tmp/a.err"
	a=$?
	"$pgbind" parse --pg="$to" --format=protobuf "$f" >"$tmp/b.pb" 2>"$tmp/b.err"
	b=$?
	line=$(head -1 "$tmp/a.err")
	if [ "$a" -ge 128 ] || [ "$b" -ge 128 ]; then
		fail "$from->$to $f: parse ended by a signal (exit $a, $b)"
	elif [ "$a" -eq 1 ] && echo "$line" | grep -q " has no form in $to\$"; then
		message=${line#*: error: statement *: }
		if grep -Fqx -e "$message" "$tmp/no_form" || awk -v m="$message" '{ k = "." $0; if (substr(m, length(m) - length(k) + 1) == k) found = 1 } END { exit !found }' "$tmp/no_form"; then
			no_form=$((no_form + 1))
			passed=$((passed + 1))
		else
			fail "$from->$to $f: '$message' is not among the values with no form in $to that $doc lists"
		fi
	elif [ "$a" -ne 0 ]; then # only a file A's parser refuses may fail here
		if "$pgbind" parse --pg="$from" --format=protobuf "$f" >/dev/null 2>&1; then
			fail "$from->$to $f: parse --as=$to exit $a where parse --pg=$from parses it: $line"
		else
			syntax=$((syntax + 1))
		fi
	elif [ "$b" -ne 0 ]; then
		only_from=$((only_from + 1))
	elif ! "$keys" "$to" "$from" "$tmp/a.pb" "$tmp/b.pb" >"$tmp/keys" 2>"$tmp/keys.err"; then
		fail "$from->$to $f: wire_keys failed: $(head -1 "$tmp/keys.err")"
	else
		unlisted=$(grep -Fvx -f "$tmp/differs" "$tmp/keys" | tr '\n' ' ')
		if [ -n "$unlisted" ]; then
			fail "$from->$to $f: differs from $to's own parse in $unlisted, which $doc does not list"
		else
			passed=$((passed + 1))
			compared=$((compared + 1))
			[ -s "$tmp/keys" ] && differs=$((differs + 1))
			cat "$tmp/keys" >>"$tmp/seen"
		fi
	fi
}

case $mode in
grammar)
	[ $# -ge 4 ] || { echo "usage: $0 grammar PGBIND A B WIRE_KEYS DOC FILE..." >&2; exit 2; }
	from=$1 to=$2 keys=$3 doc=$4
	shift 4
	direction=Up
	[ "$from" -gt "$to" ] && direction=Down
	doc_keys "## $direction ($from to $to): where the converted tree differs" >"$tmp/differs"
	doc_keys "## $direction ($from to $to): statements with no form" >"$tmp/no_form"
	[ -s "$tmp/differs" ] || { echo "$0: $doc lists no differences $direction ($from to $to)" >&2; exit 2; }
	differs=0 only_from=0
	: >"$tmp/seen"
	for f in "$@"; do grammar "$f"; done
	echo "$passed passed, $failed failed: $from->$to against $to's own parse ($differs differing only as $doc lists: $(sort "$tmp/seen" | uniq -c | sort -rn | sed 's/^ *\([0-9]*\) \(.*\)/\2 \1/' | paste -sd, - | sed 's/,/, /g'); $no_form with a value $doc lists with no form in $to; $syntax refused by $from's parser, $only_from by $to's only)"
	;;
bytes)
	[ $# -ge 3 ] || { echo "usage: $0 bytes PGBIND ROUTE REFERENCE CONVERT FILE..." >&2; exit 2; }
	route=$1 reference=$2 convert=$3
	shift 3
	from=${route%%:*} to=${route##*:}
	for f in "$@"; do bytes "$f"; done
	echo "$passed passed, $failed failed: $route ($no_form with no form in $to, $syntax refused by $from's parser)"
	;;
roundtrip)
	[ $# -ge 4 ] || { echo "usage: $0 roundtrip PGBIND A B FORMAT LOSSES FILE..." >&2; exit 2; }
	from=$1 to=$2 format=$3 losses=$4
	shift 4
	for f in "$@"; do roundtrip "$f"; done
	echo "$passed passed, $failed failed: $from->$to->$from ($format) ($lost losing what $losses declares, $syntax refused by $from's parser)"
	;;
*)
	echo "$0: bytes or roundtrip, not '$mode'" >&2
	exit 2
	;;
esac
# a run that compared nothing (every file refused, or every conversion failing alike) proves nothing
if [ "$compared" -eq 0 ]; then
	echo "FAIL: no file was compared (every one refused or failing)"
	exit 1
fi
[ "$failed" -eq 0 ]
