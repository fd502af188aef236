#!/bin/sh
# link-command.sh MAJOR TREE OUT OBJ... -- one PostgreSQL major's pgbind as one object that exports one
# symbol (mk/majors.mk, mk/lib-majors.mk, docs/majors.md): the objects OBJ (the runtime and what
# reaches it, compiled by mk/majors.mk against that major's generated code and tree) and TREE's
# whole libpg_query.a are linked and renamed pgbind_pgMAJOR_* by scripts/majors/link-major.sh (its
# files land in OUT/), then every symbol but the entry pgbind_pgMAJOR_$ENTRY is made local (objcopy
# --keep-global-symbol): two majors' copies of the runtime, of its static state (the deparse
# server, pthread_atfork's handler) and of libpg_query never meet, and nothing else is exported.
# ENTRY is the entry's name in the objects: cli_major (the default: the command's, cli/major.h,
# with the statement reader and the command's files among OBJ) or lib_major (the library's,
# targets/c/runtime/major_entry.c). Writes OUT/pgbind.o and OUT/size.txt; fails loudly (exit 1)
# when the object defines any other global symbol, lacks the entry, or gained or lost an undefined
# one.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 MAJOR TREE OUT OBJ..." >&2; exit 2; }
major=$1 tree=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
entry=pgbind_pg${major}_${ENTRY:-cli_major}
fail() {
	echo "link-command.sh: major $major: $*" >&2
	exit 1
}
"$here/link-major.sh" "$major" "$tree" "$out" "$@" >"$out.log" 2>&1 || { cat "$out.log" >&2; exit 1; }
whole=$out/libpg_query.o
objcopy --keep-global-symbol="$entry" "$whole" "$out/pgbind.o.new" || fail "objcopy --keep-global-symbol failed (above)"
globals=$(nm -g --defined-only "$out/pgbind.o.new" | awk '{ print $NF }')
[ "$globals" = "$entry" ] || fail "$out/pgbind.o should define the one global symbol $entry, not: $(echo "$globals" | head -5 | tr '\n' ' ')"
nm -u "$whole" | awk '{ print $2 }' | LC_ALL=C sort -u >"$out/undefined-before"
nm -u "$out/pgbind.o.new" | awk '{ print $2 }' | LC_ALL=C sort -u >"$out/undefined-after"
cmp -s "$out/undefined-before" "$out/undefined-after" ||
	fail "the undefined symbols changed when the rest was made local: $(diff "$out/undefined-before" "$out/undefined-after" | head -5 | tr '\n' ' ')"
rm -f "$out/undefined-before" "$out/undefined-after" "$whole"
mv "$out/pgbind.o.new" "$out/pgbind.o"
{
	sed -n 2p "$out/link.txt"
	echo "pgbind.o $(stat -c %s "$out/pgbind.o") bytes; size(1): $(size "$out/pgbind.o" | awk 'NR == 2 { print "text " $1 ", data " $2 ", bss " $3 }'); exports $entry alone"
} >"$out/size.txt"
