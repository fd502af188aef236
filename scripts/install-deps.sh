#!/bin/sh
# install-deps.sh -- makes sure the Debian 12 packages pgbind builds and tests with are installed.
#
# Checks with dpkg (fast, no network) and installs only what is missing, with apt-get, when it
# can (root, or sudo without a password). Otherwise it names the packages and the command, and
# fails. `make` runs this before every goal that builds or tests. With --check it installs
# nothing: it names what is missing and fails (the Rust crate's build script asks for that).
set -eu
check_only=false
[ "${1:-}" = --check ] && check_only=true

# the compiler (a minimal Debian has none; gcc recommends libc6-dev only, so it is named) and git
# (check-format lists the C files with it); build and generate: the next six; tests: pkg-config
# (install test), jq (JSON output), valgrind, clang with its runtime (libFuzzer and sanitizers),
# clang-format (make check-format); the Rust crate (targets/rust): Debian's rustc and cargo, the
# crates prost, prost-build, bindgen, cc and serde, serde_derive, serde_json (pg_query.rs's API) as
# Debian packages them (an offline directory registry),
# protoc for prost-build; protoc-c for the benchmark's protobuf-c baseline on a libpg_query built
# with upb (18), which installs no C message types; the Go module (targets/go): Debian's Go 1.19,
# protobuf-go and protoc-gen-go; zip for make dist (the Go module proxy's zip).
PACKAGES="gcc libc6-dev git libpg-query-dev postgresql-server-dev-15 postgresql-15 libclang-dev libjansson-dev libprotobuf-c-dev
	pkg-config jq valgrind clang libclang-rt-14-dev clang-format
	rustc cargo librust-prost-dev librust-prost-build-dev librust-bindgen-dev librust-cc-dev protobuf-compiler
	librust-serde-dev librust-serde-derive-dev librust-serde-json-dev
	protobuf-c-compiler golang-go golang-google-protobuf-dev protoc-gen-go zip"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "pgbind: missing Debian packages:$missing" >&2
if $check_only; then
	echo "pgbind: error: install them (as root): apt-get install -y$missing" >&2
	echo "pgbind: (or run \`make\` in the pgbind checkout, which installs them)" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "pgbind: error: apt-get not found; pgbind builds on Debian 12 (bookworm). Install:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO="sudo -n"
else
	echo "pgbind: error: not root and no password-less sudo; run as root:" >&2
	echo "    apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "pgbind: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
if ! $SUDO apt-get install -y -qq --no-install-recommends $missing >&2; then
	echo "pgbind: error: apt-get could not install:$missing" >&2
	exit 1
fi
