#!/bin/sh
# run.sh -- `make check-fresh`: the README's two commands as the very first commands on a Debian 12
# machine that has never seen pgbind's packages.
#
# For each order (FRESH_ORDERS, default "regen-first check-first"):
#   1. a minimal Debian 12 root (debootstrap --variant=minbase, plus make and git: what a user
#      who cloned the project and typed `make` has) is unpacked into build/fresh/root, from a
#      base tarball cached under build/fresh (made once; pgbind's own packages are never in it);
#   2. a clone of this checkout's HEAD (committed files only, with its .git) goes to /root/pgbind;
#   3. inside a chroot, as root: regen-first runs `make regen`, then `git status --porcelain`
#      must print nothing, then `make check`, then the tree must still be clean; check-first
#      runs `make check` first, then `make regen`, each followed by the same clean-tree test.
# The packages come from the Debian mirror this machine's apt uses (/etc/apt/sources.list*).
# Needs root and the network; make check does not run it. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
src=$(pwd)
work=${FRESH_DIR:-$src/build/fresh}
orders=${FRESH_ORDERS:-regen-first check-first}
suite=bookworm

if [ "$(id -u)" -ne 0 ]; then
	echo "check-fresh: needs root (debootstrap, chroot and mounts)" >&2
	exit 1
fi

# The mirror: the first URI this machine's apt configuration uses for $suite (deb822 .sources or
# one-line .list files), and its security archive if it has one.
sources_uri() { # SUITE: URIs of the entries serving SUITE
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && awk -v s="$1" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++;
			if ($(i + 1) == s) print $i }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && awk -v s="$1" 'BEGIN { RS = ""; FS = "\n" }
			{ uri = ""; ok = 0; deb = 0
			  for (i = 1; i <= NF; i++) {
				if ($i ~ /^URIs:/) { uri = $i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
				if ($i ~ /^Types:.*deb( |$)/) deb = 1
				if ($i ~ /^Suites:/) { n = split($i, w, /[ \t]+/); for (j = 2; j <= n; j++) if (w[j] == s) ok = 1 }
				if ($i ~ /^Enabled:[ \t]*no/) ok = 0 }
			  if (ok && deb && uri != "") print uri }' "$f"
	done
}
mirror=${FRESH_MIRROR:-$(sources_uri $suite | head -n 1)}
security=$(sources_uri $suite-security | head -n 1)
if [ -z "$mirror" ]; then
	echo "check-fresh: no Debian $suite mirror in /etc/apt/sources.list*; set FRESH_MIRROR=URL" >&2
	exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	echo "check-fresh: installing debootstrap" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2 || {
		echo "check-fresh: cannot install debootstrap" >&2
		exit 1
	}
fi

mkdir -p "$work"
root=$work/root
base=$work/base-$suite.tar
log=$work/step.log
passed=0
failed=0

# Unmounts whatever is mounted below the root, deepest first; also run on exit and interrupt.
unmount_all() {
	awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do
			umount "$m" 2>/dev/null || umount -l "$m"
		done
}
trap 'unmount_all' EXIT
trap 'unmount_all; exit 130' INT TERM

# step NAME CMD...: runs CMD with its output in the log, prints its time, counts it.
step() {
	name=$1
	shift
	t0=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	if [ "$rc" -eq 0 ]; then
		printf 'ok   %-60s %dm%02ds\n' "$name" $((secs / 60)) $((secs % 60))
		passed=$((passed + 1))
	else
		printf 'FAIL %-60s %dm%02ds (exit %d)\n' "$name" $((secs / 60)) $((secs % 60)) "$rc"
		grep -E '^(FAIL|.*[Ee]rror)' "$log" | head -n 40 | sed 's/^/     | /'
		tail -n 15 "$log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
	return "$rc"
}

make_base() {
	rm -rf "$work/base" "$base.tmp"
	debootstrap --variant=minbase --include=make,git $suite "$work/base" "$mirror" &&
		tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base" && rm -rf "$work/base"
}

# A clean root from the base, with this machine's resolver and the mirror's suites.
lay_out_root() {
	unmount_all
	rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$base" || return 1
	{
		printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' "$mirror" $suite $suite
		printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
		if [ -n "$security" ]; then
			printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" $suite
			printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
		fi
	} >"$root/etc/apt/sources.list.d/debian.sources"
	rm -f "$root/etc/apt/sources.list"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf"
	mount -t proc proc "$root/proc" &&
		mount -t sysfs sysfs "$root/sys" &&
		mount --bind /dev "$root/dev" &&
		mount --bind /dev/pts "$root/dev/pts" || return 1
	# the checkout as a user has it: a clone of HEAD (committed files only), build/ never copied
	git clone -q --no-hardlinks "$src" "$root/root/pgbind" &&
		git -C "$root/root/pgbind" checkout -q --detach "$(git rev-parse HEAD)"
}

# in_chroot CMD: CMD run by sh in the checkout inside the chroot, as root, with a clean environment.
in_chroot() {
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 TERM=dumb /bin/sh -c "cd /root/pgbind && $1"
}
clean_tree() {
	out=$(in_chroot 'git status --porcelain --untracked-files=all') || return 1
	[ -z "$out" ] || { printf 'git status --porcelain:\n%s\n' "$out"; return 1; }
}
make_in_chroot() { # TARGET: make TARGET, its last line shown
	in_chroot "make $1"
	rc=$?
	[ "$1" != check ] || last_check=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	return $rc
}

echo "== Debian $suite from $mirror${security:+ (security: $security)}"
if [ -f "$base" ]; then
	echo "     (base $base cached from an earlier run: pgbind's packages are not in it)"
else
	step "debootstrap --variant=minbase --include=make,git $suite (cached for later runs)" make_base || exit 1
fi
HEAD=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "     (uncommitted changes are not checked: the chroot gets a clone of HEAD $HEAD)"
fi
for order in $orders; do
	case $order in
	regen-first) first=regen second=check ;;
	check-first) first=check second=regen ;;
	*)
		echo "check-fresh: unknown order $order (regen-first or check-first)" >&2
		exit 2
		;;
	esac
	echo "== $order: a fresh root, a clone of HEAD $HEAD; make $first, then make $second"
	last_check=""
	step "fresh root from the base, clone of HEAD, /proc /sys /dev mounted" lay_out_root || {
		unmount_all
		continue
	}
	in_chroot 'dpkg-query -W libpg-query-dev >/dev/null 2>&1' && echo "     (libpg-query-dev already in the root?)"
	if step "make $first, the first command (installs the packages)" make_in_chroot $first; then
		[ -n "$last_check" ] && echo "     $last_check"
		step "... git status --porcelain is empty" clean_tree
		last_check=""
		step "make $second" make_in_chroot $second && [ -n "$last_check" ] && echo "     $last_check"
		step "... git status --porcelain is empty" clean_tree
	fi
	unmount_all
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
