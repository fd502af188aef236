#!/bin/sh
# check_coverage.sh COVERAGE_FILE PG_MAJOR -- compares `pgbind verify --coverage` output (every
# Node kind of the version's proto, exercised or not) with not_from_raw_grammar.txt beside this
# script, the node kinds no major's raw grammar builds, one list for all majors: its entries for
# kinds this version has apply. Fails on a kind neither exercised nor listed, and on a listed kind
# that was exercised.
set -u
cov=$1
major=$2
list=$(dirname "$0")/not_from_raw_grammar.txt
if [ ! -f "$list" ]; then
	echo "not ok - no $list"
	echo "0 passed, 1 failed"
	exit 1
fi
passed=0
failed=0
for kind in $(awk '$1 == "kind" { print $2 }' "$cov"); do
	state=$(awk -v k="$kind" '$1 == "kind" && $2 == k { print $3 }' "$cov")
	listed=$(awk -v k="$kind" '!/^#/ && $1 == k { print "yes" }' "$list")
	if [ "$state" = exercised ] && [ -z "$listed" ]; then
		passed=$((passed + 1))
	elif [ "$state" = not-exercised ] && [ -n "$listed" ]; then
		passed=$((passed + 1))
	elif [ "$state" = exercised ]; then
		echo "not ok - $kind is exercised by the corpora but listed as not from the raw grammar"
		failed=$((failed + 1))
	else
		echo "not ok - $kind is not exercised: add a corpus statement that produces it (tests/sql, or tests/sql/pg$major" \
			"for syntax $major added), or, if PostgreSQL's raw grammar never builds it, add it to $list with the reason"
		failed=$((failed + 1))
	fi
done
# entries for kinds this version does not have (added or removed by another major) do not apply
applied=0
for kind in $(awk '!/^#/ && NF { print $1 }' "$list"); do
	if awk -v k="$kind" '$1 == "kind" && $2 == k { f = 1 } END { exit !f }' "$cov"; then
		applied=$((applied + 1))
	elif ! grep -qs "\"T_$kind\"" schema/pg*/nodes.json; then
		echo "not ok - $kind is listed but is a node kind of no major's model (schema/pg*/nodes.json)"
		failed=$((failed + 1))
	fi
done
exercised=$(awk '$1 == "kind" && $3 == "exercised"' "$cov" | wc -l)
echo "coverage: $exercised node kinds exercised; $applied of PostgreSQL $major's kinds listed as built after the raw grammar" \
	"($(grep -vc '^#' "$list") entries for all majors)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
