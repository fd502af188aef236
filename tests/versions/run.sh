#!/bin/sh
# run.sh [SUITE:MAJOR ...] -- `make check-versions`: the whole suite against libpg_query builds of
# other PostgreSQL majors, from Debian's later releases (default: trixie:17 sid:18). For each:
#   1. tests/versions/debian_tree.sh assembles a PG_QUERY_DIR tree from Debian's packages;
#   2. a copy of this checkout (its tracked files, build/ left out) with schema/pgMAJOR/ emptied
#      runs `make regen` with that tree and the version's own SQL scripts (those postgresql-MAJOR
#      ships, listed by debian_tree.sh) as the Debian corpus, exactly as a user bumping to a major
#      pgbind has never seen does; what it writes there must equal the committed files byte for
#      byte (the model; the deparse contract, derived from that corpus);
#   3. that copy runs `make check` with the tree and the same corpus;
#   4. it prints a quick benchmark table (pgbind bench --quick) against that version's routes.
# Needs the network (deb.debian.org) and about 7 minutes a version on two cores; make check does
# not run it. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
work=${VERSIONS_DIR:-$root/build/versions}
[ $# -gt 0 ] || set -- trixie:17 sid:18
passed=0
failed=0
step() {
	name=$1
	shift
	log=$work/step.log
	if "$@" >"$log" 2>&1; then
		printf 'ok   %s\n' "$name"
		passed=$((passed + 1))
	else
		printf 'FAIL %s\n' "$name"
		tail -15 "$log" | sed 's/^/     | /'
		failed=$((failed + 1))
		return 1
	fi
}
mkdir -p "$work"
for sv in "$@"; do
	suite=${sv%%:*}
	major=${sv#*:}
	v=$work/pg$major
	echo "== PostgreSQL $major: libpg_query from Debian $suite"
	step "tree from Debian $suite's packages" tests/versions/debian_tree.sh "$suite" "$major" "$v" || continue
	sed -n 's/^  \(.*\)/     \1/p' "$work/step.log"
	rm -rf "$v/src"
	mkdir -p "$v/src"
	git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$v/src"
	rm -rf "$v/src/schema/pg$major"
	export DEBIAN_SQL_DIR="$v/tree/sql" DEBIAN_SQL_LIST="$v/tree/sql-files.txt"
	step "make regen PG_QUERY_DIR=<tree> (schema/pg$major/ emptied)" \
		make -C "$v/src" -s PG_QUERY_DIR="$v/tree" regen || continue
	for f in nodes.json deparse.txt; do
		step "make regen wrote schema/pg$major/$f equal to the committed one" \
			diff -u "$root/schema/pg$major/$f" "$v/src/schema/pg$major/$f"
	done
	if make -C "$v/src" -s PG_QUERY_DIR="$v/tree" check >"$v/check.log" 2>&1; then
		printf 'ok   make check PG_QUERY_DIR=<tree>: %s\n' "$(tail -1 "$v/check.log")"
		passed=$((passed + 1))
	else
		printf 'FAIL make check PG_QUERY_DIR=<tree>: %s (log: %s)\n' \
			"$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$v/check.log" | tail -1)" "$v/check.log"
		grep -E '^FAIL' "$v/check.log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
	# A quick benchmark against this version's own routes: numbers to read, not a pass or a fail.
	echo "   quick bench on PostgreSQL $major (pgbind bench --quick, the version's SQL scripts):"
	"$v/src/build/pgbind" --pg="$major" bench --quick --dir="$v/tree/sql" 2>&1 | sed -n '/^path /,/^$/p' | sed 's/^/     /'
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
