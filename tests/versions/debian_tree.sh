#!/bin/sh
# debian_tree.sh SUITE MAJOR DIR -- assembles a libpg_query tree in its source layout, the shape
# PG_QUERY_DIR takes, from Debian's packages of another release: libpg-query-dev (pg_query.h,
# libpg_query.a, pg_query.proto), the PostgreSQL headers the library was built with, and the
# SQL scripts of postgresql-MAJOR (a corpus for that version).
#
#   tests/versions/debian_tree.sh trixie 17 build/versions/pg17
#
# apt-get downloads them with its own state under DIR (the machine's sources and packages are
# left alone), so the archive's signatures are checked as for any install. Nothing is installed.
# Headers: the ones libpg-query-dev ships (/usr/include/pg_query/postgres: the library's own,
# patched by libpg_query; Debian 13 and later install them), else
# postgresql-server-dev-MAJOR's, which may be a later minor release than the library's (the
# overrides of schema/pgMAJOR say where that shows).
# A library built against a newer glibc than this machine's gets glibc_compat.c linked in (see
# there). Prints the package versions used; exit 1 with a message when anything is missing.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 SUITE MAJOR DIR" >&2; exit 2; }
suite=$1 major=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
apt_dir=$dir/apt
rm -rf "$apt_dir" "$dir/root" "$dir/tree"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$dir/root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
	>"$apt_dir/sources.list"
apt() {
	apt-get -q -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root "$@"
}
if ! apt update >"$apt_dir/update.log" 2>&1; then
	echo "debian_tree.sh: cannot read Debian's $suite index (network?):" >&2
	tail -3 "$apt_dir/update.log" >&2
	exit 1
fi
packages="libpg-query-dev postgresql-server-dev-$major postgresql-$major"
if ! (cd "$apt_dir/debs" && apt download $packages >"$apt_dir/download.log" 2>&1); then
	echo "debian_tree.sh: Debian $suite lacks one of: $packages" >&2
	tail -3 "$apt_dir/download.log" >&2
	exit 1
fi
for deb in "$apt_dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
	echo "  $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"
done

r=$dir/root
t=$dir/tree
lib_major=$(sed -n 's/^#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' "$r/usr/include/pg_query.h")
if [ "$lib_major" != "$major" ]; then
	echo "debian_tree.sh: Debian $suite's libpg-query-dev is for PostgreSQL $lib_major, not $major" >&2
	exit 1
fi
mkdir -p "$t/src/postgres" "$t/protobuf"
for h in pg_query.h postgres_deparse.h pg_query_scan_tokens.h; do
	[ -f "$r/usr/include/$h" ] && ln -s "$r/usr/include/$h" "$t/$h"
done
for f in pg_query.proto pg_query.pb-c.h; do
	[ -f "$r/usr/include/pg_query/$f" ] && ln -s "$r/usr/include/pg_query/$f" "$t/protobuf/$f"
done
ln -s "$r/usr/include/pg_query/pg_query_internal.h" "$t/src/pg_query_internal.h"
if [ -d "$r/usr/include/pg_query/postgres" ]; then
	ln -s "$r/usr/include/pg_query/postgres" "$t/src/postgres/include"
else
	ln -s "$r/usr/include/postgresql/$major/server" "$t/src/postgres/include"
fi
ln -s "$r/usr/share/postgresql/$major" "$t/sql"
# the corpus: the scripts postgresql-MAJOR itself ships (its *.sql and extension/*.sql)
for deb in "$apt_dir"/debs/postgresql-"$major"_*.deb; do
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed -n "s|^\./usr/share/postgresql/$major/||p" |
		grep -E '^(extension/)?[^/]*\.sql$' | LC_ALL=C sort
done >"$t/sql-files.txt"
cp "$r/usr/lib/x86_64-linux-gnu/libpg_query.a" "$t/libpg_query.a"

# Does the library link on this machine as it is?
probe=$dir/probe
printf '#include "pg_query.h"\nint main(void) { PgQueryParseResult r = pg_query_parse("SELECT 1"); return r.error != 0; }\n' \
	>"$probe.c"
if ! cc -o "$probe" "$probe.c" -I"$t" "$t/libpg_query.a" -pthread 2>"$probe.log"; then
	cc -O2 -c -o "$dir/glibc_compat.o" "$here/glibc_compat.c"
	ar rs "$t/libpg_query.a" "$dir/glibc_compat.o" 2>/dev/null
	echo "  (libpg_query.a needs a newer glibc: glibc_compat.c linked in)"
	cc -o "$probe" "$probe.c" -I"$t" "$t/libpg_query.a" -pthread
fi
"$probe"
echo "$t"
