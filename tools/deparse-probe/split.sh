#!/bin/sh
# split.sh -- measures the deparse contract's derivation on SQL it did not learn from. The corpus
# files of run.sh (sorted by path) are split in two halves, deterministically (every other file);
# the rules are derived from one half and checked on the other, then the other way round:
# deparse-probe --check counts the statements of the held-out half that break a rule although
# libpg_query deparses them right (each deparsed in a child; they are printed, "refused: FILE:LINE
# ..."). The goal is 0. With --verify, each half's rules are also built into a pgbind (a copy of
# the checkout under $BUILD/split/) and `pgbind verify` runs on the held-out files: its MISMATCHes
# are counted (slower: two builds).
#     BUILD=build PG_MAJOR=15 tools/deparse-probe/split.sh [--verify]
set -eu
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PG_MAJOR=${PG_MAJOR:?give PG_MAJOR (make print-build-env shows it)}
DIR=$BUILD/split
mkdir -p "$DIR"
BUILD=$BUILD PG_MAJOR=$PG_MAJOR tools/deparse-probe/run.sh --list | LC_ALL=C sort > "$DIR/files"
awk 'NR % 2 == 1' "$DIR/files" > "$DIR/half-a"
awk 'NR % 2 == 0' "$DIR/files" > "$DIR/half-b"
status=0
for learn in a b; do
	check=$([ $learn = a ] && echo b || echo a)
	echo "== rules from half $learn ($(wc -l < "$DIR/half-$learn") files), checked on half $check ($(wc -l < "$DIR/half-$check") files)"
	start=$(date +%s)
	# shellcheck disable=SC2046 # the file lists are paths without spaces
	"$BUILD/deparse-probe" --major "$PG_MAJOR" --out "$DIR/deparse-$learn.txt" $(cat "$DIR/half-$learn") \
		--check $(cat "$DIR/half-$check") > "$DIR/refused-$check.txt" || status=1
	echo "   $(grep -c '^refused:' "$DIR/refused-$check.txt" || true) refused although libpg_query deparses them right ($(($(date +%s) - start)) s; listed in $DIR/refused-$check.txt)"
	if [ "${1:-}" = --verify ]; then
		copy=$DIR/copy-$learn
		rm -rf "$copy" && mkdir -p "$copy"
		git ls-files -z | xargs -0 cp --parents -t "$copy"
		cp "$DIR/deparse-$learn.txt" "$copy/schema/pg$PG_MAJOR/deparse.txt"
		make -C "$copy" -s generate > "$DIR/build-$learn.log" 2>&1 && make -C "$copy" -s build/pgbind >> "$DIR/build-$learn.log" 2>&1 ||
			{ echo "   the copy did not build: $DIR/build-$learn.log"; status=1; continue; }
		n=0
		for f in $(cat "$DIR/half-$check"); do
			case $f in /*) ;; *) f=$PWD/$f ;; esac
			m=$("$copy/build/pgbind" --pg="$PG_MAJOR" verify "$f" 2>&1 | grep -c '^MISMATCH' || true)
			n=$((n + m))
		done
		echo "   pgbind verify: $n mismatches on the held-out files (a rule-breaking tree is deparsed in a child)"
		[ "$n" -eq 0 ] || status=1
	fi
done
exit $status
