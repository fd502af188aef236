#!/bin/sh
# regen-hint.sh REPORT MAJOR -- what `make regen` says when its last step (regen-verify: pgbind
# verify on the corpus the deparse contract was derived from) finds a difference: the statements
# (REPORT's MISMATCH lines, at most 60 lines), then, for each check that failed, what differs
# between libpg_query MAJOR and the regenerated pgbind and the file where that is declared. The
# checks are told apart by their names' first words (cli/verify.c names them). Always exits 0.
set -u
report=$1 major=$2
grep -v -e ' 0 failed$' -e '^  ' "$report" | head -60
echo "make regen: libpg_query $major and the regenerated pgbind differ (all of it: $report):"
grep -E '^  .* [1-9][0-9]* failed$' "$report" | sed 's/^  //; s/ *[0-9]* passed, [0-9]* failed$//' | while read -r check; do
	case $check in
	fingerprint* | "whole file: fingerprint"*)
		what="fingerprint: what this libpg_query hashes differs"
		where="declare it in schema/libpg_query.txt (a fingerprint line with since:$major, or until: on the rule it ends; docs/versions.md)" ;;
	normalize* | "whole file: normalize"*)
		what="normalize: what this libpg_query replaces differs"
		where="declare it in schema/libpg_query.txt (a normalize line with since:$major, or until: on the rule it ends; docs/versions.md)" ;;
	summary*)
		what="summary: what this libpg_query's summary walks or records differs"
		where="declare it in schema/summary.txt (since:$major/until:; docs/summary.md)" ;;
	deparse* | contract* | "libpg_query deparser"* | "libpg_query crashed"*)
		what="deparse: pgbind's SQL differs from this libpg_query's deparser"
		where="nothing to declare: the deparse contract, schema/pg$major/deparse.txt, is derived by make regen's probe from this same corpus (docs/deparse-contract.md), so a difference left is pgbind's bug or libpg_query's SQL changing with memory (verify -v lists the statements): report it with them" ;;
	*)
		what="the tree ($check)"
		where="a field or node this libpg_query encodes otherwise than the model says: declare it in schema/overrides.txt (since:$major; docs/bumping.md)" ;;
	esac
	printf '  %s\n    -> %s\n' "$what" "$where"
done
