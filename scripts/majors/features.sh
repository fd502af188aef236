#!/bin/sh
# features.sh MAJOR DIR -- the optional features of major MAJOR's libpg_query tree (DIR/tree, which
# scripts/majors/tree.sh points), as the -D flags pgbind's runtime and command are compiled with
# for it (mk/majors.mk): the Makefile's PGBIND_HAVE_* probes, asked of this tree instead of the
# build's one libpg_query. A symbol counts when an empty program calling it links with the tree's
# libpg_query.a (and link-libs.txt's shim, where link-major.sh needed one):
#   PGBIND_HAVE_DEPARSE_NODES      pg_query_deparse_nodes (a fork's node-level deparser)
#   PGBIND_HAVE_DEPARSE_RAW_STMT   deparseRawStmt, and the tree's own PostgreSQL headers, whose error
#                                  handler stack is thread-local as in the library (17, 18)
#   PGBIND_HAVE_SCAN_TOKENS        pg_query_scan_tokens (18.1's scanner without protobuf)
#   PGBIND_HAVE_PROTOBUF_C         the tree installs pg_query.pb-c.h (protobuf-c: up to 17)
# Rewrites DIR/features.txt only when the flags changed, so that make recompiles only then.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 MAJOR DIR" >&2; exit 2; }
major=$1 dir=$2
tree=$dir/tree
cc=${CC:-cc}
[ -f "$tree/libpg_query.a" ] || { echo "features.sh: major $major: no libpg_query tree at $tree (scripts/majors/tree.sh)" >&2; exit 1; }
libs="$tree/libpg_query.a $(cat "$dir/link-libs.txt" 2>/dev/null || true)"
has_symbol() {
	# shellcheck disable=SC2086
	printf 'char %s(void); int main(void) { return (int)%s(); }\n' "$1" "$1" |
		"$cc" -x c - -x none -o /dev/null $libs -lm -pthread >/dev/null 2>&1
}
flags=
if has_symbol pg_query_deparse_nodes; then flags="$flags -DPGBIND_HAVE_DEPARSE_NODES"; fi
if grep -qs '__thread sigjmp_buf \*PG_exception_stack' "$tree/src/postgres/include/utils/elog.h" &&
	has_symbol deparseRawStmt; then
	flags="$flags -DPGBIND_HAVE_DEPARSE_RAW_STMT"
fi
if has_symbol pg_query_scan_tokens; then flags="$flags -DPGBIND_HAVE_SCAN_TOKENS"; fi
if [ -f "$tree/protobuf/pg_query.pb-c.h" ]; then flags="$flags -DPGBIND_HAVE_PROTOBUF_C"; fi
echo "${flags# }" >"$dir/features.txt.new"
if cmp -s "$dir/features.txt.new" "$dir/features.txt"; then
	rm -f "$dir/features.txt.new"
else
	mv "$dir/features.txt.new" "$dir/features.txt"
fi
