#!/bin/sh
# link-major.sh MAJOR TREE OUT [OBJ...] -- the link layer of `make majors` (mk/majors.mk,
# docs/majors.md): turns major MAJOR's libpg_query.a (TREE/libpg_query.a), with any objects OBJ
# compiled for that major (pgbind's command: scripts/majors/link-command.sh), into one relocatable object,
# OUT/libpg_query.o, in which every defined global symbol is renamed pgbind_pgMAJOR_NAME, so that
# several majors, and a libpg_query the user's own program links, live in one process.
#   1. ld -r --whole-archive: the objects and every member of the archive in one object, so that
#      the objects' references to libpg_query are resolved inside it and renamed with it (-d
#      allocates common symbols, which the final link would otherwise merge across majors);
#   2. it must link on this machine as it is (an empty program): a library built against a newer
#      glibc gets tests/versions/glibc_compat.c linked in (and renamed with the rest, so its
#      strlcpy interposes nothing), only when the first try fails on a symbol that shim defines;
#   3. objcopy --redefine-syms with a map of every defined global symbol (functions, data,
#      thread-local, weak, common: whatever nm -g --defined-only lists): a symbol is renamed once
#      in the symbol table, so the object's own references, which name it by index, follow;
#      references to libc, libm, libpthread and libgcc are undefined symbols and are left alone;
#   4. checks, failing loudly: no unprefixed defined global symbol left, no prefixed undefined one
#      (a reference that lost its definition), the same set of undefined symbols as before the
#      renaming, and the result links into an empty program.
# LINK_FLAGS are given to those test links (objects compiled with a sanitizer need its runtime).
# Writes OUT/libpg_query.o, OUT/rename.map (the map), OUT/pg_query_names.h (#define pg_query_X
# pgbind_pgMAJOR_pg_query_X, and pgbind_X likewise where OBJ define them: for a file compiled
# against TREE's pg_query.h, or pgbind.h, to call the renamed symbols),
# OUT/link-libs.txt (what an unprefixed link of TREE's library needs besides it: the shim's object
# or nothing) and OUT/link.txt (what was done, with sizes and seconds).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 MAJOR TREE OUT [OBJ...]" >&2; exit 2; }
major=$1 tree=$2 out=$3
shift 3
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
shim_src=$here/../../tests/versions/glibc_compat.c
prefix=pgbind_pg${major}_
lib=$tree/libpg_query.a
fail() {
	echo "link-major.sh: major $major ($lib): $*" >&2
	exit 1
}
[ -f "$lib" ] || fail "no libpg_query.a there"
mkdir -p "$out"
work=$out/work
rm -rf "$work"
mkdir -p "$work"
start=$(date +%s.%N)
printf 'int main(void) { return 0; }\n' >"$work/empty.c"
links() { # links OBJ...: does an empty program link with these objects? (LINK_FLAGS: a sanitizer's)
	# shellcheck disable=SC2086
	"$cc" ${LINK_FLAGS:-} -o "$work/empty" "$work/empty.c" "$@" -lm -pthread >"$work/link.log" 2>&1
}

# 1-2. one object, linkable here
ld -r -d -o "$work/whole.o" "$@" --whole-archive "$lib" || fail "ld -r --whole-archive failed (above)"
shim=
if ! links "$work/whole.o"; then
	"$cc" -O2 -c -o "$out/glibc_compat.o" "$shim_src"
	nm -u "$work/whole.o" | awk '{ print $2 }' | LC_ALL=C sort >"$work/needed"
	nm -g --defined-only "$out/glibc_compat.o" | awk '{ print $3 }' | LC_ALL=C sort >"$work/offered"
	if [ -z "$(LC_ALL=C comm -12 "$work/needed" "$work/offered")" ]; then
		cat "$work/link.log" >&2
		fail "does not link on this machine (above), and tests/versions/glibc_compat.c defines none of what it lacks"
	fi
	ld -r -d -o "$work/whole.o" "$@" --whole-archive "$lib" --no-whole-archive "$out/glibc_compat.o" ||
		fail "ld -r with tests/versions/glibc_compat.c failed (above)"
	links "$work/whole.o" || {
		cat "$work/link.log" >&2
		fail "does not link on this machine even with tests/versions/glibc_compat.c (above)"
	}
	shim=$out/glibc_compat.o
fi
echo "$shim" >"$out/link-libs.txt"

# 3. the map and the renaming
nm -g --defined-only "$work/whole.o" | awk '{ print $NF }' | LC_ALL=C sort -u >"$work/defined"
[ -s "$work/defined" ] || fail "defines no global symbol"
if grep "^$prefix" "$work/defined" >"$work/clash"; then
	fail "already defines symbols with the prefix $prefix: $(head -3 "$work/clash" | tr '\n' ' ')"
fi
awk -v p="$prefix" '{ print $1, p $1 }' "$work/defined" >"$out/rename.map"
objcopy --redefine-syms="$out/rename.map" "$work/whole.o" "$work/renamed.o" || fail "objcopy --redefine-syms failed (above)"

# 4. the checks
nm -g --defined-only "$work/renamed.o" | awk '{ print $NF }' | LC_ALL=C sort -u >"$work/defined-after"
if grep -v "^$prefix" "$work/defined-after" >"$work/unprefixed"; then
	fail "$(wc -l <"$work/unprefixed") defined global symbols left without the prefix $prefix, e.g. $(head -5 "$work/unprefixed" | tr '\n' ' ')"
fi
[ "$(wc -l <"$work/defined-after")" -eq "$(wc -l <"$work/defined")" ] ||
	fail "$(wc -l <"$work/defined") defined global symbols before the renaming, $(wc -l <"$work/defined-after") after"
nm -u "$work/whole.o" | awk '{ print $2 }' | LC_ALL=C sort -u >"$work/undefined"
nm -u "$work/renamed.o" | awk '{ print $2 }' | LC_ALL=C sort -u >"$work/undefined-after"
if grep "^$prefix" "$work/undefined-after" >"$work/lost"; then
	fail "references to prefixed symbols left undefined: $(head -5 "$work/lost" | tr '\n' ' ')"
fi
cmp -s "$work/undefined" "$work/undefined-after" || fail "the undefined symbols changed with the renaming: $(diff "$work/undefined" "$work/undefined-after" | head -5 | tr '\n' ' ')"
links "$work/renamed.o" || {
	cat "$work/link.log" >&2
	fail "the renamed object does not link into an empty program (above)"
}

# the API's names, for a file compiled against this major's pg_query.h
{
	echo "/* Generated by scripts/majors/link-major.sh for libpg_query $major ($lib): do not edit."
	echo " * Included (cc -include) before that tree's pg_query.h, it makes the calls name the"
	echo " * renamed symbols of libpg_query.o beside this file. */"
	sed -n 's/^\(\(pg_query\|pgbind\)_[A-Za-z0-9_]*\) \(.*\)$/#define \1 \3/p' "$out/rename.map"
} >"$work/pg_query_names.h"
mv "$work/pg_query_names.h" "$out/pg_query_names.h"
mv "$work/renamed.o" "$out/libpg_query.o"
end=$(date +%s.%N)
{
	echo "major $major: $lib$(for o in "$@"; do printf ' %s' "$o"; done)"
	echo "defined global symbols renamed $(wc -l <"$out/rename.map") (prefix $prefix), undefined (libc, libm, pthread, libgcc) $(wc -l <"$work/undefined")"
	echo "glibc_compat.c linked in: $(if [ -n "$shim" ]; then echo yes; else echo no; fi)"
	echo "libpg_query.a $(stat -L -c %s "$lib") bytes, libpg_query.o $(stat -c %s "$out/libpg_query.o") bytes; size(1): $(size "$out/libpg_query.o" | awk 'NR == 2 { print "text " $1 ", data " $2 ", bss " $3 }')"
	echo "linked in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
} >"$out/link.txt"
rm -rf "$work"
sed 's/^/  /' "$out/link.txt"
