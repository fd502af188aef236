#!/bin/sh
# view_keys.sh VIEW.json DOC.md -- every key path of the view model (pgbind-gen --dump-view) is
# listed in the document, and every path the document lists is in the view (but for the keys of
# elements of an array that is empty wherever it occurs in this view). A path is written
# as in docs/view-model.md: `messages[].fields[].name`. Prints each difference; exits 1 on any.
set -eu
view=$1
doc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jq -r '[paths | select(.[-1] | type == "string") | map(if type == "number" then "[]" else . end) | join(".")]
	| unique | .[]' "$view" | sed 's/\.\[\]/[]/g' | LC_ALL=C sort -u >"$tmp/view"
sed -n 's/^| `\([^`]*\)` |.*/\1/p' "$doc" | LC_ALL=C sort >"$tmp/doc.all"
LC_ALL=C sort -u "$tmp/doc.all" >"$tmp/doc"
status=0
if ! cmp -s "$tmp/doc.all" "$tmp/doc"; then
	echo "listed twice in $doc:"
	LC_ALL=C uniq -d "$tmp/doc.all" | sed 's/^/  /'
	status=1
fi
# Arrays empty in every place of this view (unmapped_enum_values on a major that maps every
# value): the keys of their elements cannot be seen, so the document's are not stale for it.
jq -r '[paths(type == "array") as $p | {k: ($p | map(if type == "number" then "[]" else . end) | join(".")),
	n: (getpath($p) | length)}] | group_by(.k) | map(select(all(.[]; .n == 0)) | .[0].k) | .[]' "$view" |
	sed 's/\.\[\]/[]/g' >"$tmp/empty"
missing=$(LC_ALL=C comm -23 "$tmp/view" "$tmp/doc")
stale=$(LC_ALL=C comm -13 "$tmp/view" "$tmp/doc" | while read -r key; do
	unseen=false
	while read -r arr; do
		case $key in "$arr[]."*) unseen=true ;; esac
	done <"$tmp/empty"
	$unseen || echo "$key"
done)
if [ -n "$missing" ]; then
	echo "keys of the view that $doc does not list:"
	printf '%s\n' "$missing" | sed 's/^/  /'
	status=1
fi
if [ -n "$stale" ]; then
	echo "keys $doc lists that the view does not have:"
	printf '%s\n' "$stale" | sed 's/^/  /'
	status=1
fi
[ "$status" -ne 0 ] || echo "$(wc -l <"$tmp/view") keys of the view, each listed in $doc"
exit "$status"
