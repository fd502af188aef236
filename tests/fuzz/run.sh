#!/bin/sh
# run.sh -- runs each libFuzzer target (seed FUZZ_SEED) on a corpus made from tests/sql, after
# replaying every saved regression input (tests/fuzz/regressions/<target>/). A crash leaves its
# input in $BUILD/fuzz/artifacts/; copy it into regressions/ when it is fixed.
#
# How long: by default (make check) a fixed number of inputs per target (runs_of below), so that
# with the fixed seed the same inputs run on a fast machine as on a slow one and the result does
# not depend on the machine's speed (a time limit once let a quiet machine find what a loaded one
# missed); the counts take about 45 s a target on two idle cores. FUZZ_SECONDS=N (make fuzz)
# fuzzes each target for N seconds instead.
set -u
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PG_MAJOR=${PG_MAJOR:?the major the fuzz targets are built for (make fuzz and make check pass it)}
FUZZ_SECONDS=${FUZZ_SECONDS:-}
FUZZ_SEED=${FUZZ_SEED:-1} # fixed in make check, so a failure there reproduces; make fuzz FUZZ_SEED=0 picks one
out=$BUILD/fuzz
mkdir -p "$out/artifacts" "$out/seeds/parse" "$out/seeds/decode" "$out/seeds/json" "$out/corpus/parse" \
	"$out/corpus/decode" "$out/corpus/json" "$out/corpus/deparse_pb" "$out/corpus/deparse_json" "$out/corpus/deparse_tree"

# Seeds: each statement of tests/sql (split at ';' ending a line), its protobuf and its JSON.
if [ -z "$(ls "$out/seeds/parse")" ]; then
	awk -v dir="$out/seeds/parse" '
		/^--/ { next }
		{ stmt = stmt $0 "\n" }
		/;[ \t]*$/ { n++; f = sprintf("%s/%05d.sql", dir, n); printf "%s", stmt > f; close(f); stmt = "" }
	' tests/sql/*.sql
	for f in "$out"/seeds/parse/*.sql; do
		"$BUILD/pgbind" --pg="$PG_MAJOR" parse "$f" >"$out/seeds/decode/$(basename "$f" .sql).pb" 2>/dev/null ||
			rm -f "$out/seeds/decode/$(basename "$f" .sql).pb"
		"$BUILD/pgbind" --pg="$PG_MAJOR" parse --format=json "$f" >"$out/seeds/json/$(basename "$f" .sql).json" 2>/dev/null ||
			rm -f "$out/seeds/json/$(basename "$f" .sql).json"
	done
fi

# The deparse targets fork for every tree that reaches the deparser (the isolated deparse), and
# libFuzzer runs the whole seed corpus before it looks at the clock: they start from every 8th
# seed (some 200), so that their first pass fits in the time given.
for kind in decode json; do
	sample=$out/seeds/deparse_$([ $kind = decode ] && echo pb || echo json)
	if [ ! -d "$sample" ]; then
		mkdir -p "$sample"
		ls "$out/seeds/$kind" | awk 'NR % 8 == 1' | while read -r f; do cp "$out/seeds/$kind/$f" "$sample/"; done
	fi
done

# Leaks are checked by the valgrind and ASan suites of make check; here LeakSanitizer's exit-time
# report (which starts a symbolizer) once hung a run after its last input, so it is off, and every
# run is bounded by timeout so that nothing here can stall CI.
export ASAN_OPTIONS="detect_leaks=0:symbolize=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Inputs per target in make check. Measured (2026-12-07, the two shared cores at load 6-9, two
# targets at a time): 150,000 parse inputs in 92 s, 300,000 deparse_pb in 124 s, 1,000,000 decode
# in 126 s, 800,000 deparse_json in 138 s, 1,200,000 json in 119 s, 15,000 deparse_tree in 187 s
# (its trees crash the deparser most: each crash a restart of the deparse server); the counts
# below are about 45-60 s a target on two idle cores.
runs_of() {
	case $1 in
	parse) echo 120000 ;;
	deparse_pb) echo 200000 ;;
	decode) echo 800000 ;;
	deparse_json) echo 600000 ;;
	json) echo 1000000 ;;
	deparse_tree) echo 8000 ;;
	esac
}
# A bound on each run, only against a hang: the fixed counts take what the machine needs.
limit=$(( ${FUZZ_SECONDS:-900} + 120 ))

# One target: its saved regressions replayed, then its inputs (or FUZZ_SECONDS of fuzzing); its
# report in $out/$target.result, its status in $out/$target.status.
run_target() {
	target=$1
	case $target in
	deparse_pb | deparse_tree) seeds=$out/seeds/deparse_pb ;;
	deparse_json) seeds=$out/seeds/deparse_json ;;
	*) seeds=$out/seeds/$target ;;
	esac
	bin=$out/fuzz_$target
	reg=tests/fuzz/regressions/$target
	result=$out/$target.result
	echo 1 >"$out/$target.status"
	rm -f "$out/$target.replay.log"
	if [ -d "$reg" ] && [ -n "$(ls "$reg")" ]; then
		if ! timeout -k 10 "$limit" "$bin" -artifact_prefix="$out/artifacts/$target-replay-" "$reg"/* >"$out/$target.replay.log" 2>&1; then
			{
				echo "FAIL fuzz_$target: a saved regression input fails again ($out/$target.replay.log)"
				tail -n 20 "$out/$target.replay.log"
			} >"$result"
			return
		fi
	fi
	if [ -n "$FUZZ_SECONDS" ]; then
		how=-max_total_time=$FUZZ_SECONDS
	else
		how=-runs=$(runs_of "$target")
	fi
	started=$(date +%s)
	if timeout -k 10 "$limit" "$bin" -seed="$FUZZ_SEED" "$how" -max_len=4096 -timeout=20 -rss_limit_mb=4096 \
		-artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 \
		"$out/corpus/$target" "$seeds" >"$out/$target.log" 2>&1; then
		runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | awk '{print $2}')
		echo "fuzz_$target: ${runs:-?} inputs in $(($(date +%s) - started)) s (${how#-}), no failure" >"$result"
		# the deparse targets hand trees from outside to the isolated deparse: a crash of
		# libpg_query's deparser in its child is a reported error, not a failure; counted here
		crashed=$(grep -c 'the isolated deparser crashed' "$out/$target.log" "$out/$target.replay.log" 2>/dev/null |
			awk -F: '{n += $NF} END {print n + 0}')
		[ "$crashed" -eq 0 ] || echo "fuzz_$target: $crashed trees crashed libpg_query's deparser in its child process (reported as PGBIND_ERROR_DEPARSER_CRASHED; the fuzzer's process unharmed)" >>"$result"
		echo 0 >"$out/$target.status"
	else
		{
			echo "FAIL fuzz_$target: see $out/$target.log; the input is in $out/artifacts/"
			grep -E 'ERROR|MISMATCH|SUMMARY|abort' "$out/$target.log" | head -n 20
		} >"$result"
	fi
}

# Two targets at a time (make check's machines have two cores). The deparse targets (protobuf ->
# decode -> deparse, JSON -> read -> deparse, random trees from the descriptor tables -> deparse)
# start from the protobuf and JSON seeds (deparse_tree reads its bytes as choices: any seed will
# do); they deparse trees from outside, so through the isolated deparse (a fork per tree that
# reaches the deparser): any crash of the fuzzer's own process fails them.
status=0
set -- parse deparse_pb decode deparse_json json deparse_tree
while [ $# -gt 0 ]; do
	first=$1
	shift
	second=${1:-}
	[ $# -eq 0 ] || shift
	run_target "$first" &
	[ -z "$second" ] || run_target "$second" &
	wait
	for target in $first $second; do
		cat "$out/$target.result"
		[ "$(cat "$out/$target.status")" = 0 ] || status=1
	done
done
exit $status
