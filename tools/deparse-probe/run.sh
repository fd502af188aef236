#!/bin/sh
# run.sh -- runs deparse-probe on the corpus for the major under test and writes
# schema/pg$PG_MAJOR/deparse.txt: tests/sql/*.sql, tests/sql/pgNN/*.sql for NN up to the major,
# the saved fuzz regressions (tests/fuzz/regressions/parse/), the Debian corpus (DEBIAN_SQL_DIR +
# DEBIAN_SQL_LIST, as tests/run.sh reads them) and the combinatorial corpus
# (tests/corpus/combinatorial.sh, written to $BUILD/combinatorial.sql). `make deparse-probe` runs
# it, and `make regen` before rendering. No cache: a few minutes on two cores.
#     run.sh --list   prints the corpus files, one a line (split.sh reads them)
set -eu
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PG_MAJOR=${PG_MAJOR:?run through make deparse-probe}
OUT=${OUT:-schema/pg$PG_MAJOR/deparse.txt}
mkdir -p "$BUILD"
# written aside and renamed, so that a run reading it meanwhile reads it whole
tests/corpus/combinatorial.sh > "$BUILD/combinatorial.sql.$$"
mv "$BUILD/combinatorial.sql.$$" "$BUILD/combinatorial.sql"
SQL=$(echo tests/sql/*.sql tests/fuzz/regressions/parse/*.sql "$BUILD/combinatorial.sql")
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
if [ "${1:-}" = --list ]; then
	printf '%s\n' $SQL
	exit 0
fi
exec "$BUILD/deparse-probe" --major "$PG_MAJOR" --out "$OUT" $SQL
