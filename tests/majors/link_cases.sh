#!/bin/sh
# link_cases.sh -- scripts/majors/link-major.sh on small made-up archives (make check, section
# majors of tests/run.sh): that it renames every kind of defined global symbol (function, data,
# thread-local, weak, common) and the archive's own references with them, and those of an object
# linked in with it (the OBJ arguments), leaves libc's alone,
# brings in tests/versions/glibc_compat.c exactly when this machine's libc lacks what the archive
# calls, and fails loudly (exit 1, a message naming the archive) on an archive it cannot link or
# that already uses the prefix. Needs cc, ar, nm. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
link=scripts/majors/link-major.sh
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/link-cases.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0
ok() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}
archive() { # archive NAME C-SOURCE: a tree NAME whose libpg_query.a holds that one file
	mkdir -p "$tmp/$1"
	printf '%s\n' "$2" >"$tmp/$1/a.c"
	"$cc" -O1 -fcommon -c -o "$tmp/$1/a.o" "$tmp/$1/a.c" && ar rcs "$tmp/$1/libpg_query.a" "$tmp/$1/a.o"
}

# every kind of symbol: a function calling another and libc, data, thread-local, weak, common
archive kinds '#include <string.h>
int counter = 1;
__thread int per_thread;
int common_one;
__attribute__((weak)) int weak_fn(void) { return 2; }
static int helper(const char *s) { return (int)strlen(s); }
int entry(const char *s) { per_thread++; common_one++; return helper(s) + weak_fn() + counter; }'
"$link" 99 "$tmp/kinds" "$tmp/kinds/out" >"$tmp/log" 2>&1
ok $? "an archive with a function, data, thread-local, weak and common symbols links (exit 0)"
syms=$(nm -g --defined-only "$tmp/kinds/out/libpg_query.o" 2>/dev/null | awk '{ print $2, $3 }' | LC_ALL=C sort | tr '\n' ' ')
want="B pgbind_pg99_common_one B pgbind_pg99_per_thread D pgbind_pg99_counter T pgbind_pg99_entry W pgbind_pg99_weak_fn "
[ "$syms" = "$want" ]
ok $? "every defined global symbol is renamed, its kind kept (got: $syms)"
readelf -sW "$tmp/kinds/out/libpg_query.o" | grep -q ' TLS .* pgbind_pg99_per_thread$'
ok $? "the thread-local variable stays thread-local"
undefined=$(nm -u "$tmp/kinds/out/libpg_query.o" | awk '{ print $2 }' | grep -v '^_GLOBAL_OFFSET_TABLE_$' | tr '\n' ' ')
[ "$undefined" = "strlen " ] || [ "$undefined" = "__tls_get_addr strlen " ]
ok $? "libc's strlen is referenced unrenamed, nothing of the archive's is left undefined (got: $undefined)"
printf 'int pgbind_pg99_entry(const char *);\nint main(void) { return pgbind_pg99_entry("abc") == 6 ? 0 : 1; }\n' >"$tmp/main.c"
"$cc" -o "$tmp/main" "$tmp/main.c" "$tmp/kinds/out/libpg_query.o" && "$tmp/main"
ok $? "a program calling the renamed entry gets the archive's own answer (3 + weak 2 + data 1)"
grep -qx '#define pg_query_parse pgbind_pg99_pg_query_parse' "$tmp/kinds/out/pg_query_names.h"
[ $? = 1 ] && [ -s "$tmp/kinds/out/pg_query_names.h" ]
ok $? "pg_query_names.h defines only the pg_query_ and pgbind_ names the archive has (none here)"

# an object compiled for the major (pgbind's runtime, one day) linked in with the archive: its
# calls of the archive's functions are renamed with them
mkdir -p "$tmp/extra"
printf 'int entry(const char *);\nint pgbind_api(void) { return entry("ab"); }\n' >"$tmp/extra/api.c"
"$cc" -O1 -c -o "$tmp/extra/api.o" "$tmp/extra/api.c" &&
	"$link" 99 "$tmp/kinds" "$tmp/extra/out" "$tmp/extra/api.o" >"$tmp/log" 2>&1 &&
	printf 'int pgbind_pg99_pgbind_api(void);\nint main(void) { return pgbind_pg99_pgbind_api() == 5 ? 0 : 1; }\n' \
		>"$tmp/main2.c" && "$cc" -o "$tmp/main2" "$tmp/main2.c" "$tmp/extra/out/libpg_query.o" && "$tmp/main2" &&
	! nm -u "$tmp/extra/out/libpg_query.o" | grep -q ' entry$'
ok $? "an extra object's call of the archive's function is renamed with it (pgbind_pg99_pgbind_api() = 2 + 2 + 1)"
grep -qx '#define pgbind_api pgbind_pg99_pgbind_api' "$tmp/extra/out/pg_query_names.h"
ok $? "pg_query_names.h maps the extra object's pgbind_ names"

# strlcpy: in glibc from 2.38; Debian 12's 2.36 lacks it, and the shim comes in only then
archive newer '#include <stddef.h>
size_t strlcpy(char *, const char *, size_t);
int copy(char *d, const char *s) { return (int)strlcpy(d, s, 4); }'
printf 'char strlcpy(void); int main(void) { return (int)strlcpy(); }\n' >"$tmp/probe.c"
if "$cc" -o "$tmp/probe" "$tmp/probe.c" >/dev/null 2>&1; then want=no; else want=yes; fi
"$link" 98 "$tmp/newer" "$tmp/newer/out" >"$tmp/log" 2>&1 &&
	grep -qx "  glibc_compat.c linked in: $want" "$tmp/log"
ok $? "an archive calling strlcpy links, with tests/versions/glibc_compat.c linked in: $want (this libc)"
if [ $want = yes ]; then
	nm -g --defined-only "$tmp/newer/out/libpg_query.o" | grep -q ' T pgbind_pg98_strlcpy$' &&
		! nm -u "$tmp/newer/out/libpg_query.o" | grep -q ' strlcpy$'
	ok $? "... and the shim's strlcpy is renamed with the rest (it interposes nothing)"
fi

# loud failures
expect_fail() { # expect_fail NAME PATTERN MAJOR TREE
	out=$("$link" "$3" "$4" "$tmp/fail-out" 2>&1)
	rc=$?
	[ $rc = 1 ] && printf '%s\n' "$out" | grep -q -- "$2"
	ok $? "$1 (exit $rc)"
	[ $rc = 1 ] || printf '%s\n' "$out" | sed 's/^/    | /'
}
archive missing 'int absent_everywhere(void);
int entry(void) { return absent_everywhere(); }'
expect_fail "an archive that does not link here fails, naming it" \
	"major 97 ($tmp/missing/libpg_query.a): does not link on this machine" 97 "$tmp/missing"
archive prefixed 'int pgbind_pg96_x(void) { return 1; }'
expect_fail "an archive already using the prefix fails" "already defines symbols with the prefix pgbind_pg96_" 96 "$tmp/prefixed"
mkdir -p "$tmp/empty"
expect_fail "a tree without libpg_query.a fails" "no libpg_query.a there" 95 "$tmp/empty"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
