#!/bin/sh
# run.sh [DIST [BUILD]] -- the packages of `make dist` (DIST, default build/dist), each unpacked into an
# empty directory outside the checkout and built offline with Debian's toolchains exactly as the
# README's "Add it to a Rust/Go/C project" sections tell a user, then a small program run on it:
#   Rust  the crate's examples/porting.rs (pg_query.rs's API: parse, walk, rewrite, deparse,
#         fingerprint, normalize) as the project's main.rs;
#   Go    examples/go (a pg_query_go program: v4's calls, v6's parser package and helpers), against
#         port.expected;
#   C     examples/tour.c (the README's tour, which this also compares with the README's copy),
#         its output against libpg_query's own answers (tests/dist/ref.c).
# Then each package refuses, at build time and with its message, a libpg_query of another major.
# With PG_QUERY_DIR (a libpg_query tree, as for make) the builds take it instead of Debian's
# packages: the variables the README names for that. Prints one line per step and the time of
# each build; ends with "N passed, M failed".
# With BUILD (make check's build directory, after `make rust go`), cargo and go start from copies of
# its Rust target directory and Go build cache: the dependencies compiled there (Debian's crates,
# protobuf-go) are not compiled again; the packages themselves always are (below).
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
dist=$(cd "${1:-build/dist}" && pwd) || exit 2
build=
if [ $# -ge 2 ]; then build=$(cd "$2" && pwd) || exit 2; fi
# the major the packages are for: their version, 0.MAJOR.N (scripts/dist.sh)
version=$(ls "$dist" | sed -n 's/^pgbind-c-\(0\.[0-9]*\.[0-9]*\)\.tar\.gz$/\1/p')
major=$(echo "$version" | cut -d. -f2)
[ -n "$major" ] || { echo "tests/dist/run.sh: no pgbind-c-0.MAJOR.N.tar.gz in $dist: run make dist" >&2; exit 2; }
export PATH="/usr/bin:$PATH"
work=$(mktemp -d /tmp/pgbind-dist.XXXXXX)
# nothing from the caller's home: cargo's and Go's homes (CARGO_HOME, GOPATH) start empty (but
# for cargo's configuration below)
export HOME="$work/home"
mkdir -p "$HOME/.cargo"
# The packaged crate (and the C its build script compiles through cc, which takes cargo's
# OPT_LEVEL) is compiled at opt-level 0 here, in cargo's user configuration (the README's recipe
# unchanged): what this checks is that the package builds and its example runs; the optimized
# compile of the same sources is make check's (make rust, whose tests run on it), and at opt-level
# 3 with debug info this one compile was most of this script's time. Its dependencies keep the
# profile below, so that those make check compiled are reused.
printf '[profile.release.package.pgbind]\nopt-level = 0\ndebug = 0\n' >"$HOME/.cargo/config.toml"
# With BUILD, copies of what `make rust go` compiled there (nothing here writes into BUILD): cargo
# and go reuse an artifact only when all it was compiled from is the same (cargo: the package's
# name, version and source, here Debian's /usr/share/cargo/registry, its features, the profile,
# rustc; go: the action ID, a hash of sources, flags and compiler) and compile the rest. That rest
# is the packages: the crate (pgbind 0.MAJOR.0 from vendor/, never BUILD's checkout 0.1.0) and its
# build script, prost (the checkout's tests turn on its no-recursion-limit), the Go package from
# the module folder and from the proxy's zip; the refusals rerun the build script and cgo. The
# profile is the checkout's (its debug level), or no dependency would match.
if [ -n "$build" ]; then
	start=$(date +%s)
	if ! [ -d "$build/rust/release" ] || ! [ -d "$build/go/cache" ]; then
		echo "run.sh: $build has no rust/release or go/cache: run \`make rust go\` first" >&2
		rm -rf "$work"
		exit 2
	fi
	if ! { mkdir -p "$work/target" && cp -a "$build/rust/release" "$work/target/" && cp -a "$build/go/cache" "$work/gocache"; }; then
		rm -rf "$work"
		exit 2
	fi
	export CARGO_TARGET_DIR="$work/target" GOCACHE="$work/gocache"
	debug=$(sed -n '/^\[profile\.release\]$/,/^\[/s/^debug = //p' targets/rust/Cargo.toml)
	if [ -n "$debug" ]; then export CARGO_PROFILE_RELEASE_DEBUG="$debug"; fi
	printf '(%s/rust/release and %s/go/cache copied: %ss)\n' "$build" "$build" $(($(date +%s) - start))
fi
passed=0
failed=0
step() {
	name=$1
	shift
	start=$(date +%s)
	if ("$@") >"$work/step.log" 2>&1; then
		printf 'ok   %s (%ss)\n' "$name" $(($(date +%s) - start))
		passed=$((passed + 1))
	else
		printf 'FAIL %s\n' "$name"
		tail -20 "$work/step.log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
}
# an expected failure: its exact exit status (cargo 101, go build 2 on a cgo error, cc 1) and message
refuses() {
	name=$1 status=$2 message=$3
	shift 3
	"$@" >"$work/refuse.log" 2>&1
	rc=$?
	if [ "$rc" -eq "$status" ] && grep -qF -- "$message" "$work/refuse.log"; then
		printf 'ok   %s\n' "$name"
		passed=$((passed + 1))
	else
		printf 'FAIL %s (exit %s, expected %s with "%s")\n' "$name" "$rc" "$status" "$message"
		tail -10 "$work/refuse.log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
}

# libpg_query: Debian's packages (the README's flags), or PG_QUERY_DIR's tree
if [ -n "${PG_QUERY_DIR:-}" ]; then
	export PG_QUERY_DIR
	PGQ_CFLAGS="-I$PG_QUERY_DIR -I$PG_QUERY_DIR/src -I$PG_QUERY_DIR/protobuf -I$PG_QUERY_DIR/vendor -I$PG_QUERY_DIR/src/postgres/include"
	PGQ_LIBS="$PG_QUERY_DIR/libpg_query.a"
	export CGO_CFLAGS="$PGQ_CFLAGS" CGO_LDFLAGS="-L$PG_QUERY_DIR"
else
	unset PG_QUERY_DIR
	PGQ_CFLAGS="-I/usr/include/pg_query -I/usr/include/postgresql/$major/server"
	PGQ_LIBS="-lpg_query"
	# cgo compiles the C runtime in each Go build here (the module folder, the proxy's zip) at go's
	# default -g -O2 unless told: -O0 as with PG_QUERY_DIR's flags above (what the Go steps check
	# is that the module builds and its example's output; the optimized C is make check's)
	export CGO_CFLAGS="-g -O0"
fi
# a pg_query.h of another major, found first
mkdir -p "$work/other"
sed 's/^#define PG_VERSION_NUM .*/#define PG_VERSION_NUM 990000/' "${PG_QUERY_DIR:-/usr/include}/pg_query.h" >"$work/other/pg_query.h"

# The README's recipe for LANG ("### Add it to a LANG project": its sh block), for this dist and
# checkout, this major, and PG_QUERY_DIR's flags where the README says to put them.
recipe() {
	awk -v h="### Add it to a $1 project" '$0 == h { f = 1 } f && /^```sh$/ { p = 1; next } p && /^```$/ { exit } p' "$root/README.md" |
		sed -e "s|/path/to/dist|$dist|g" -e "s|/path/to/pgbind|$root|g" -e "s/0\.15\.0/$version/g" \
			-e "s|-I/usr/include/pg_query -I/usr/include/postgresql/15/server|$PGQ_CFLAGS|" -e "s|-lpg_query|$PGQ_LIBS|"
}
# runs it in an empty directory, the program's output in out.txt
run_recipe() {
	mkdir -p "$work/$1" && recipe "$1" >"$work/$1/recipe.sh" && test -s "$work/$1/recipe.sh" &&
		cd "$work/$1" && sh -e recipe.sh >out.txt && cat out.txt
}

echo "== the Rust crate: pgbind-$version.crate (README: Add it to a Rust project)"
rust() {
	run_recipe Rust && grep -q '^rewritten: .*archive.customers' out.txt
}
step "built with cargo from the .crate alone, examples/porting.rs runs" rust
fake_tree() { # PG_QUERY_DIR's layout around the other major's pg_query.h
	if [ -n "${PG_QUERY_DIR:-}" ]; then
		lib=$PG_QUERY_DIR/libpg_query.a inc=$PG_QUERY_DIR/src/postgres/include
	else
		lib=$(cc -print-file-name=libpg_query.a) inc=/usr/include/postgresql/$major/server
	fi
	mkdir -p "$work/other/src/postgres" && ln -sf "$lib" "$work/other/libpg_query.a" &&
		ln -sfn "$inc" "$work/other/src/postgres/include"
}
fake_tree
refuses "the crate refuses a libpg_query of another major" 101 "is libpg_query for PostgreSQL 99 (PG_VERSION_NUM 990000), but this crate's generated code is for PostgreSQL $major" \
	sh -c "cd '$work/Rust/myapp' && PG_QUERY_DIR='$work/other' cargo build --release"

echo "== the Go module: go/pgbind-go-v$version (README: Add it to a Go project)"
gomod() {
	run_recipe Go && diff -u "$root/examples/go/port.expected" out.txt
}
step "built with go from the module folder alone (require + replace), examples/go's output" gomod
goproxy() {
	mkdir -p "$work/myapp-goproxy" && cd "$work/myapp-goproxy" &&
		sed '/targets\/go =>/d' "$work/Go/myapp/go.mod" >go.mod && cp "$root/examples/go/main.go" . &&
		GOFLAGS=-mod=mod GOPROXY="file://$dist/go/proxy" GONOSUMDB=github.com/pgbind GOSUMDB=off go build -o myapp . &&
		./myapp >out.txt && diff -u "$root/examples/go/port.expected" out.txt
}
step "... and from the module proxy's zip (GOPROXY=file://.../go/proxy)" goproxy
refuses "the Go package refuses a libpg_query of another major" 2 "pgbind: pg_query.h is libpg_query for another PostgreSQL major" \
	sh -c "cd '$work/Go/myapp' && CGO_CFLAGS='-I$work/other ${CGO_CFLAGS:-}' GOFLAGS=-mod=mod GOPROXY=off go build -o /dev/null ."
# ... first, where that header also lacks a function the parser package calls (parser/parser.go
# calls pg_query_normalize_utility where the header declares the parse modes): the refusal is the
# parser package's own (its generated cgo_gen.go, compiled before parser.go), not a C error on the
# missing declaration
mkdir -p "$work/other-nofunc"
{
	sed '/pg_query_normalize_utility(/d' "$work/other/pg_query.h"
	printf '#ifndef PG_QUERY_PARSE_MODE_BITS\n#define PG_QUERY_PARSE_MODE_BITS 4\n#endif\n'
} >"$work/other-nofunc/pg_query.h"
refuses "... first, where that header lacks a function the parser package calls" 2 "pgbind: pg_query.h is libpg_query for another PostgreSQL major" \
	sh -c "cd '$work/Go/myapp' && CGO_CFLAGS='-I$work/other-nofunc ${CGO_CFLAGS:-}' GOFLAGS=-mod=mod GOPROXY=off go build -o /dev/null ."

echo "== the C sources: pgbind-c-$version.tar.gz (README: Add it to a C project)"
tour_in_readme() {
	sed -n '/^<!-- examples\/tour.c -->$/,/^```$/p' README.md | sed '1,2d;$d' | diff -u examples/tour.c -
}
step "examples/tour.c is the README's tour, line for line" tour_in_readme
# shellcheck disable=SC2086
cvendor() {
	run_recipe C &&
		cc -o ref "$root/tests/dist/ref.c" $PGQ_CFLAGS $PGQ_LIBS -pthread && ./ref >ref.txt && diff -u ref.txt out.txt
}
step "vendored and built with cc, examples/tour.c's output is libpg_query's" cvendor
step "the vendored sources carry the converters between majors (runtime/convert*.c)" sh -c "cd '$work/C/myapp' &&
	printf '#include \"pgbind_convert.h\"\nint main(void) { return !(pgbind_convert_has_pair(15, 18) && pgbind_convert_has_pair(18, 17)); }\n' >conv.c &&
	cc -std=c11 -o conv conv.c third_party/pgbind-c-$version/runtime/convert*.c -Ithird_party/pgbind-c-$version/runtime && ./conv"
# shellcheck disable=SC2086
refuses "the C sources refuse a libpg_query of another major" 1 "pgbind: pg_query.h is libpg_query for another PostgreSQL major" \
	sh -c "cd '$work/C/myapp' && P=third_party/pgbind-c-$version && cc -std=c11 -D_DEFAULT_SOURCE -c -o /dev/null \$P/runtime/major_check.c \
		-I'$work/other' -I\$P/runtime -I\$P/generated $PGQ_CFLAGS"

rm -rf "$work"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
