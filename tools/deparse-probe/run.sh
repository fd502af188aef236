#!/bin/sh
# run.sh -- runs deparse-probe on the corpus of make check for the major under test and writes
# schema/pg$PG_MAJOR/deparse.txt: tests/sql/*.sql, tests/sql/pgNN/*.sql for NN up to the major,
# the saved fuzz regressions (tests/fuzz/regressions/parse/) and the Debian corpus
# (DEBIAN_SQL_DIR + DEBIAN_SQL_LIST, as tests/run.sh reads them). `make deparse-probe` runs it;
# then `make regen` (or `make generate`) turns the file into targets/c/generated/deparse.inc.c.
set -eu
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PG_MAJOR=${PG_MAJOR:?run through make deparse-probe}
OUT=${OUT:-schema/pg$PG_MAJOR/deparse.txt}
CACHE=${CACHE:-$BUILD/deparse-probe.cache} # outcomes by tree: a rerun deparses only new trees
SQL=$(echo tests/sql/*.sql tests/fuzz/regressions/parse/*.sql)
for d in tests/sql/pg*; do
	if [ -d "$d" ] && [ "${d#tests/sql/pg}" -le "$PG_MAJOR" ]; then
		SQL="$SQL $(echo "$d"/*.sql)"
	fi
done
if [ -z "${DEBIAN_SQL_DIR:-}" ]; then
	DEBIAN_SQL_DIR=/usr/share/postgresql/15
	DEBIAN_SQL_LIST=${DEBIAN_SQL_LIST:-tests/corpus/debian-pg15.txt}
fi
DEBIAN_SQL_LIST=${DEBIAN_SQL_LIST:?DEBIAN_SQL_DIR given: name its files with DEBIAN_SQL_LIST}
for f in $(grep -v -e '^#' -e '^[[:space:]]*$' "$DEBIAN_SQL_LIST"); do
	SQL="$SQL $DEBIAN_SQL_DIR/$f"
done
exec "$BUILD/deparse-probe" --major "$PG_MAJOR" --out "$OUT" --cache "$CACHE" $SQL
