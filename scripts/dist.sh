#!/bin/sh
# dist.sh OUT MAJOR PROTO -- `make dist`: the packages a user adds, for the libpg_query major the
# generated code is for (MAJOR; PROTO is the pg_query.proto it was generated from), under OUT:
#
#   pgbind-VERSION.crate             the Rust crate (cargo package): src/, generated/, build.rs and
#                                    csrc/ (the C runtime, the generated C, pg_query.proto);
#   go/pgbind-go-vVERSION/           the Go module (github.com/pgbind/pgbind/targets/go): its package
#                                    compiles the C through cgo and links only -lpg_query;
#   go/proxy/                        the same as a module proxy's files (GOPROXY=file://...): the
#                                    zip `go mod download` takes, its .mod and .info;
#   pgbind-c-VERSION.tar.gz          the C sources to vendor (runtime/, generated/, README.md).
#
# VERSION is 0.MAJOR.N: pg_query.rs and pg_query_go version per PostgreSQL major too. Run from the
# checkout's top; CARGO (Debian's /usr/bin/cargo) packages the crate, offline.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 OUT MAJOR PROTO" >&2; exit 2; }
out=$1 major=$2 proto=$3
version=0.$major.0
# the generated C of MAJOR (targets/c/generated/pgMAJOR), each package's generated/: one folder to vendor
gen=targets/c/generated/pg$major
ast_major=$(sed -n 's/^#define PGBIND_PG_MAJOR \([0-9]*\)$/\1/p' "$gen/pgbind_ast.h" 2>/dev/null)
if [ "$ast_major" != "$major" ]; then
	echo "dist: error: $gen/pgbind_ast.h is not PostgreSQL $major's generated C (PGBIND_PG_MAJOR ${ast_major:-missing}): run \`make regen\`" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# ---- the Rust crate -------------------------------------------------------------------------------
crate=$out/stage/pgbind
mkdir -p "$crate/csrc"
cp -r targets/rust/src targets/rust/generated targets/rust/examples targets/rust/build.rs "$crate/"
cp -r targets/c/runtime "$crate/csrc/"
cp -r "$gen" "$crate/csrc/generated"
cp "$proto" "$crate/csrc/pg_query.proto"
sed "s/@MAJOR@/$major/g; s/@VERSION@/$version/g" scripts/dist/rust-README.md >"$crate/README.md"
# the manifest's package sections (tests, benchmark and profile are the checkout's), this version
sed -e '/^# ---- `make dist` packages the crate without what follows/,$d' \
	-e "s/^version = .*/version = \"$version\"/" \
	-e 's/^\(description = .*\)"$/\1 (libpg_query for PostgreSQL '"$major"')"/' \
	-e 's/^license = .*/&\nreadme = "README.md"/' \
	targets/rust/Cargo.toml >"$crate/Cargo.toml"
# offline, from the crates Debian installs (the checkout's own source replacement)
mkdir -p "$out/stage/.cargo"
cp targets/rust/.cargo/config.toml "$out/stage/.cargo/"
(cd "$crate" && CARGO_TARGET_DIR="$out/stage/target" RUSTC="${RUSTC:-/usr/bin/rustc}" "${CARGO:-/usr/bin/cargo}" \
	package --quiet --no-verify --allow-dirty)
cp "$out/stage/target/package/pgbind-$version.crate" "$out/"

# ---- the Go module --------------------------------------------------------------------------------
module=$(sed -n 's/^module //p' targets/go/go.mod)
gomod=$out/go/pgbind-go-v$version
mkdir -p "$gomod/generated"
# (not cgo_gen.go: it points cgo at the checkout's targets/c/generated/pgNN; the module's
# pg_query.go names its own generated/ below)
for f in targets/go/*.go; do
	case $f in *_test.go | */cgo_gen.go) continue ;; esac
	cp "$f" "$gomod/"
done
cp targets/go/go.mod targets/go/pgbind_go.h "$gomod/"
# the parser package (pg_query_go v6's): libpg_query's own functions, its preamble links only
# -lpg_query and needs no edit
mkdir -p "$gomod/parser"
for f in targets/go/parser/*.go; do
	case $f in *_test.go) continue ;; esac
	cp "$f" "$gomod/parser/"
done
# cgo compiles the .c files of the package's folder: the runtime there, the generated C (whose
# .inc.c files are included, not compiled alone) in generated/
cp targets/c/runtime/*.c targets/c/runtime/*.h "$gomod/"
cp "$gen"/* "$gomod/generated/"
sed "s/@MAJOR@/$major/g; s/@VERSION@/$version/g" scripts/dist/go-README.md >"$gomod/README.md"
# the preamble's two #cgo lines: Debian's headers (CGO_CFLAGS/CGO_LDFLAGS name others), and a
# clear error when a package is missing
awk -v major="$major" '
/^#cgo CFLAGS:/ {
	print "#cgo CFLAGS: -I${SRCDIR}/generated -I/usr/include/pg_query -I/usr/include/postgresql/" major "/server -D_DEFAULT_SOURCE"
	print "#if !__has_include(<pg_query.h>)"
	print "#error \"pgbind: pg_query.h not found: install Debian'"'"'s libpg-query-dev (or name its folder in CGO_CFLAGS=-I...)\""
	print "#endif"
	print "#if !__has_include(<postgres.h>)"
	print "#error \"pgbind: PostgreSQL " major "'"'"'s headers not found: install Debian'"'"'s postgresql-server-dev-" major " (or name them in CGO_CFLAGS=-I...)\""
	print "#endif"
	next
}
/^#cgo LDFLAGS:/ { print "#cgo LDFLAGS: -lpg_query -lpthread"; next }
/^\/\/ In the checkout the package links build\/libpgbind.a/ { getline; next }
{ print }' targets/go/pg_query.go >"$gomod/pg_query.go"
grep -q '^#cgo LDFLAGS: -lpg_query -lpthread$' "$gomod/pg_query.go" || { echo "dist: error: no #cgo lines in targets/go/pg_query.go" >&2; exit 1; }
# a module proxy's files: the zip holds module@version/FILE, no directory entries
proxy=$out/go/proxy/$module/@v
zipdir=$out/stage/gozip
mkdir -p "$proxy" "$zipdir/$module@v$version"
cp -r "$gomod/." "$zipdir/$module@v$version/"
(cd "$zipdir" && zip -qrXD "$proxy/v$version.zip" "$module@v$version")
cp "$gomod/go.mod" "$proxy/v$version.mod"
printf '{"Version":"v%s"}\n' "$version" >"$proxy/v$version.info"
printf 'v%s\n' "$version" >"$proxy/list"

# ---- the C sources ---------------------------------------------------------------------------------
cdir=$out/stage/pgbind-c-$version
mkdir -p "$cdir"
cp -r targets/c/runtime "$cdir/"
cp -r "$gen" "$cdir/generated"
# the converters between majors' trees (pgbind_convert.h): each pair's tables and their index, in
# runtime/ beside their interpreter, so that compiling runtime/*.c builds them in
for f in targets/c/generated/convert/*.c; do cp "$f" "$cdir/runtime/convert_$(basename "$f")"; done
sed "s/@MAJOR@/$major/g; s/@VERSION@/$version/g" scripts/dist/c-README.md >"$cdir/README.md"
cp scripts/dist/major_check.c "$cdir/runtime/"
tar -czf "$out/pgbind-c-$version.tar.gz" -C "$out/stage" "pgbind-c-$version"

rm -rf "$out/stage"
echo "dist: $out/pgbind-$version.crate, $gomod (and $out/go/proxy), $out/pgbind-c-$version.tar.gz"
