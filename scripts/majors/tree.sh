#!/bin/sh
# tree.sh MAJOR DIR [TREE] [SUITE] -- `make majors`' first step: points DIR/tree at major MAJOR's
# libpg_query tree (the layout PG_QUERY_DIR takes: pg_query.h, libpg_query.a, protobuf/,
# src/postgres/include), laying it out when it is missing:
#   TREE given (PGnn_DIR=...)        that tree, as it is;
#   MAJOR is the installed one       Debian 12's libpg-query-dev (15), laid out under DIR/installed/
#                                    as symlinks to the installed files;
#   SUITE given (17:trixie, 18:sid)  tests/versions/debian_tree.sh SUITE MAJOR DIR/debian (downloads
#                                    Debian's packages into DIR/debian, installs nothing), once: a
#                                    complete download is kept and reused.
# Anything else is an error that says which variable to set. Then it checks that the tree's
# pg_query.h is for MAJOR, and rewrites DIR/tree.txt (the tree's path and its libpg_query.a's
# checksum: what scripts/majors/link-major.sh's output depends on) only when that changed, so make
# relinks only then; likewise DIR/release.txt, the libpg_query release `pgbind --version` names:
# "release " and Debian's package version (the installed one, or the one debian_tree.sh downloaded
# beside the tree), else "tree at PATH". Called by mk/majors.mk on every make; quick when nothing changed.
set -eu
[ $# -ge 2 ] && [ $# -le 4 ] || { echo "usage: $0 MAJOR DIR [TREE] [SUITE]" >&2; exit 2; }
major=$1 dir=$2 given=${3:-} suite=${4:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $major in '' | *[!0-9]*) echo "tree.sh: '$major' is not a PostgreSQL major (a number: 15, 16, ...)" >&2; exit 2 ;; esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
header_major() { sed -n 's/^#define PG_MAJORVERSION "\([0-9]*\)".*/\1/p' "$1" 2>/dev/null; }

if [ -n "$given" ]; then
	if [ ! -f "$given/pg_query.h" ] || [ ! -f "$given/libpg_query.a" ]; then
		echo "tree.sh: PG${major}_DIR=$given is not a libpg_query tree (it needs pg_query.h and libpg_query.a;" \
			"tests/versions/debian_tree.sh lays one out)" >&2
		exit 1
	fi
	tree=$(cd "$given" && pwd)
elif [ "$(header_major /usr/include/pg_query.h)" = "$major" ]; then
	multiarch=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
	lib=$(ls /usr/lib/"$multiarch"/libpg_query.a /usr/lib/libpg_query.a 2>/dev/null | head -1)
	server=$(pg_config --includedir-server 2>/dev/null || true)
	if [ -z "$lib" ] || [ ! -f /usr/include/pg_query/pg_query.proto ] || [ ! -d "$server" ]; then
		echo "tree.sh: the installed libpg_query $major lacks libpg_query.a, pg_query.proto or the server headers" \
			"(scripts/install-deps.sh installs them)" >&2
		exit 1
	fi
	tree=$dir/installed/tree
	# laid out again only when the installed files moved (a tree in use is left alone)
	if [ "$(readlink "$tree/libpg_query.a")" != "$lib" ] || [ "$(readlink "$tree/src/postgres/include")" != "$server" ]; then
		rm -rf "$dir/installed"
		mkdir -p "$tree/protobuf" "$tree/src/postgres"
		ln -s /usr/include/pg_query.h "$tree/pg_query.h"
		ln -s "$lib" "$tree/libpg_query.a"
		for f in pg_query.proto pg_query.pb-c.h; do
			ln -s "/usr/include/pg_query/$f" "$tree/protobuf/$f"
		done
		ln -s /usr/include/pg_query/pg_query_internal.h "$tree/src/pg_query_internal.h"
		ln -s "$server" "$tree/src/postgres/include"
	fi
elif [ -n "$suite" ]; then
	tree=$dir/debian/tree
	if [ ! -f "$dir/debian/complete" ]; then
		echo "tree.sh: libpg_query $major from Debian $suite (tests/versions/debian_tree.sh, into $dir/debian)"
		start=$(date +%s)
		"$root/tests/versions/debian_tree.sh" "$suite" "$major" "$dir/debian" >"$dir/debian.log" 2>&1 || {
			cat "$dir/debian.log" >&2
			echo "tree.sh: could not lay out libpg_query $major from Debian $suite (above); or give a tree: PG${major}_DIR=..." >&2
			exit 1
		}
		sed 's/^/  /' "$dir/debian.log"
		echo "tree.sh: fetched libpg_query $major in $(($(date +%s) - start)) s"
		touch "$dir/debian/complete"
	fi
else
	echo "tree.sh: no libpg_query tree for PostgreSQL $major: give one with PG${major}_DIR=<tree> (the layout" \
		"tests/versions/debian_tree.sh writes), or a Debian suite that has it in MAJORS_DEBIAN (mk/majors.mk)" >&2
	exit 1
fi

got=$(header_major "$tree/pg_query.h")
if [ "$got" != "$major" ]; then
	echo "tree.sh: $tree/pg_query.h is for PostgreSQL ${got:-?}, not $major" >&2
	exit 1
fi
ln -sfn "$tree" "$dir/tree"
release="tree at $tree"
if [ "$tree" = "$dir/installed/tree" ]; then
	version=$(dpkg-query -W -f='${Version}' libpg-query-dev 2>/dev/null) && release="release $version"
else
	deb=$(ls "$tree"/../apt/debs/libpg-query-dev_*.deb 2>/dev/null | head -1)
	[ -z "$deb" ] || release="release $(dpkg-deb -f "$deb" Version)"
fi
echo "$release" >"$dir/release.txt.new"
if cmp -s "$dir/release.txt.new" "$dir/release.txt"; then
	rm -f "$dir/release.txt.new"
else
	mv "$dir/release.txt.new" "$dir/release.txt"
fi
{
	echo "$tree"
	sha256sum <"$tree/libpg_query.a" | cut -d' ' -f1
} >"$dir/tree.txt.new"
if cmp -s "$dir/tree.txt.new" "$dir/tree.txt"; then
	rm -f "$dir/tree.txt.new"
else
	mv "$dir/tree.txt.new" "$dir/tree.txt"
fi
