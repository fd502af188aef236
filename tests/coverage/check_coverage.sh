#!/bin/sh
# check_coverage.sh COVERAGE_FILE PG_MAJOR -- compares `pgbind verify --coverage` output with the
# list of node kinds that major's raw grammar cannot build (not_from_raw_grammar.pgNN.txt beside
# this script). Fails on a kind neither exercised nor listed, and on a listed kind that was
# exercised.
set -u
cov=$1
list=$(dirname "$0")/not_from_raw_grammar.pg$2.txt
if [ ! -f "$list" ]; then
	echo "not ok - no $list: list the node kinds PostgreSQL $2's raw grammar never builds (start from another version's)"
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
		echo "not ok - $kind is not exercised: add a corpus statement that produces it, or list it with a reason"
		failed=$((failed + 1))
	fi
done
for kind in $(awk '!/^#/ && NF { print $1 }' "$list"); do
	if ! awk -v k="$kind" '$1 == "kind" && $2 == k { f = 1 } END { exit !f }' "$cov"; then
		echo "not ok - $kind is listed but is not a node kind of the proto"
		failed=$((failed + 1))
	fi
done
exercised=$(awk '$1 == "kind" && $3 == "exercised"' "$cov" | wc -l)
echo "coverage: $exercised node kinds exercised; $(grep -vc '^#' "$list") listed as built after the raw grammar"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
