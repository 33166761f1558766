#!/bin/bash
# Build the test kernel: pristine linux-source-6.1 + patches/series +
# kernel/*.config, in a git tree under the cache directory (never in the
# repository).  The output is keyed by a hash of its inputs, so an unchanged
# kernel is never rebuilt; a changed series rebuilds incrementally in the
# same tree, because only files whose content changed get a new mtime.
#
#   kernel/build.sh            sync tree to patches/, build, print bzImage path
#   kernel/build.sh --tree     build the tree as it is (developer loop)
#   kernel/build.sh --path     print the cached bzImage path or fail
#   kernel/build.sh --export   write the tree's commits back into patches/
#
# FLAVOR=debug builds the debug kernel instead: the same series with
# kernel/debug/*.config on top, in a worktree of its own ($CACHE/linux-debug)
# so that neither build invalidates the other.
#
# FLAVOR=pristine builds stock 6.1 with the same config and no series
# ($CACHE/linux-pristine): the baseline the tests must tell apart from the
# series, and the kernel the cgroup kselftests' verdicts are compared with.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WSR_CACHE:-/var/cache/wsrefault}
FLAVOR=${FLAVOR:-}
MAIN=$CACHE/linux
TREE=$MAIN
APPLY=$CACHE/linux-apply
FRAGMENTS=("$ROOT"/kernel/*.config)
case "$FLAVOR" in
"") ;;
debug)
	TREE=$CACHE/linux-debug
	FRAGMENTS+=("$ROOT"/kernel/debug/*.config) ;;
pristine)
	TREE=$CACHE/linux-pristine ;;
*) echo "kernel: FLAVOR is empty, debug or pristine" >&2; exit 2 ;;
esac
TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=${JOBS:-$(nproc)}
LOG=$CACHE/kernel-build${FLAVOR:+-$FLAVOR}.log

# shellcheck source=../lib/deps.sh
. "$ROOT/lib/deps.sh"

say() { printf 'kernel: %s\n' "$*" >&2; }
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n '/^#   kernel/s/^#   //p' "$0" >&2
	exit 2
}

ensure_deps() {
	ensure_pkgs kernel linux-source-6.1 build-essential bc bison flex \
		libelf-dev libssl-dev cpio kmod xz-utils python3 git
}

src_version() { dpkg-query -W -f='${Version}' linux-source-6.1; }

series() {
	[ "$FLAVOR" != pristine ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$ROOT/patches/series" || true
}

input_hash() {
	{
		echo "linux-source-6.1 $(src_version)"
		series | while read -r p; do
			echo "$p"; cat "$ROOT/patches/$p"
		done
		cat "${FRAGMENTS[@]}"
		# the config recipe below is an input too
		sed -n '/^make_config()/,/^}/p' "$0"
	} | sha256sum | cut -c1-16
}

git_t() { git -C "$TREE" "$@"; }

unpack() {
	local ver stamp=$MAIN/.wsr-source
	ver=$(src_version)
	if [ -d "$MAIN/.git" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$ver" ]; then
		unpack_flavor
		return
	fi
	say "unpacking $TARBALL ($ver) into $MAIN"
	rm -rf "$MAIN" "$APPLY" "$CACHE/linux-debug" "$CACHE/linux-pristine"
	mkdir -p "$MAIN"
	tar -xf "$TARBALL" -C "$MAIN" --strip-components=1
	say "making it a git tree (pristine base commit)"
	git_t init -q
	git_t config user.name "wsrefault build"
	git_t config user.email "build@localhost"
	git_t config gc.auto 0
	git_t add -A -f .
	git_t commit -q -m "linux-source-6.1 $ver (pristine)"
	git_t tag -f pristine >/dev/null
	echo "$ver" > "$stamp"
	echo ".wsr-source" >> "$MAIN/.git/info/exclude"
	unpack_flavor
}

# the debug kernel's tree: a worktree of the main tree's repository
unpack_flavor() {
	[ "$TREE" != "$MAIN" ] || return 0
	git -C "$MAIN" worktree prune
	[ -e "$TREE/.git" ] || git -C "$MAIN" worktree add -q --detach "$TREE" pristine
}

# Apply the series in a separate worktree, then move the build tree to the
# result with a checkout: git only rewrites the files that differ, so a
# header the series touches keeps its mtime when its content is unchanged.
sync_tree() {
	local p head
	if [ -n "$(git_t status --porcelain --untracked-files=no)" ]; then
		die "$TREE has uncommitted changes; commit them and run 'make patches', or build it as it is with 'make kernel-tree'"
	fi
	[ -d "$APPLY" ] || git_t worktree add -q --detach "$APPLY" pristine
	git -C "$APPLY" am --abort >/dev/null 2>&1 || true
	git -C "$APPLY" checkout -q -f --detach pristine
	while read -r p; do
		git -C "$APPLY" am -q --committer-date-is-author-date \
			"$ROOT/patches/$p" >/dev/null 2>&1 || {
			git -C "$APPLY" am --abort >/dev/null 2>&1 || true
			die "patches/$p does not apply"
		}
	done < <(series)
	head=$(git -C "$APPLY" rev-parse HEAD)
	if [ "$(git_t rev-parse HEAD)" != "$head" ]; then
		say "tree -> $(series | wc -l) patches applied ($(git -C "$APPLY" log --oneline -1 | cut -c1-60))"
		git_t checkout -q --detach "$head"
	fi
}

make_config() {
	local tmp
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	# in the tree, but on a side file: the tree may hold a build
	make -s -C "$TREE" KCONFIG_CONFIG="$tmp/.config" x86_64_defconfig >/dev/null
	(cd "$TREE" && scripts/kconfig/merge_config.sh -m -O "$tmp" "$tmp/.config" \
		kernel/configs/kvm_guest.config "${FRAGMENTS[@]}") \
		>"$tmp/merge.log" 2>&1
	make -s -C "$TREE" KCONFIG_CONFIG="$tmp/.config" olddefconfig >/dev/null
	check_config "$tmp/.config"
	if ! cmp -s "$tmp/.config" "$TREE/.config"; then
		cp "$tmp/.config" "$TREE/.config"
	fi
}

# Does the tree's Kconfig define SYM?
known_sym() {
	grep -rqx --include='Kconfig*' "config ${1#CONFIG_}" "$TREE"
}

# Every option the fragments ask for must survive olddefconfig.
check_config() {
	local cfg=$1 line sym bad=0
	while read -r line; do
		case "$line" in
		CONFIG_*=n) sym=${line%%=*}
			grep -qx "$sym=[ym]" "$cfg" && { say "config: $sym not disabled"; bad=1; } ;;
		CONFIG_*=*)
			grep -qxF "$line" "$cfg" && continue
			# stock 6.1 lacks the options the series adds
			if [ "$FLAVOR" = pristine ] && ! known_sym "${line%%=*}"; then
				say "config: ${line%%=*} is the series' own: not in stock 6.1"
				continue
			fi
			say "config: $line not honoured"; bad=1 ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}
			grep -qx "$sym=[ym]" "$cfg" && { say "config: $sym not disabled"; bad=1; } ;;
		esac
	done < <(cat "${FRAGMENTS[@]}")
	[ $bad = 0 ] || die "the config fragments do not hold; see above"
}

build() {
	local start pid n rc
	start=$(date +%s)
	say "building bzImage with $JOBS jobs (log: $LOG)"
	make -C "$TREE" -j"$JOBS" bzImage >"$LOG" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		sleep 30
		kill -0 $pid 2>/dev/null || break
		n=$(grep -c '^  CC' "$LOG" || true)
		say "  ... $n objects compiled, $(( $(date +%s) - start ))s"
	done
	rc=0; wait $pid || rc=$?
	if [ $rc != 0 ]; then
		grep -E -B2 -A6 'error:|Error [0-9]' "$LOG" | head -60 >&2 || tail -40 "$LOG" >&2
		die "build failed (full log: $LOG)"
	fi
	say "built in $(( $(date +%s) - start ))s"
}

store() {
	local out=$1
	mkdir -p "$out"
	cp "$TREE/arch/x86/boot/bzImage" "$TREE/.config" "$TREE/System.map" "$out/"
	git_t log --oneline pristine..HEAD > "$out/series.log"
	touch "$out/.complete"
}

export_patches() {
	local n
	[ -d "$TREE/.git" ] || die "no tree at $TREE; run 'make kernel' first"
	[ -z "$(git_t status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes; commit them first"
	rm -f "$ROOT"/patches/*.patch
	git_t format-patch -q --no-signature --zero-commit --no-numbered \
		-o "$ROOT/patches" pristine..HEAD
	(cd "$ROOT/patches" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') > "$ROOT/patches/series"
	n=$(wc -l < "$ROOT/patches/series")
	say "exported $n patches into patches/"
}

main() {
	local mode=${1:-sync} hash out
	case "$mode" in
	sync|--sync) mode=sync ;;
	--tree|--path|--export) ;;
	*) usage ;;
	esac
	[ $# -le 1 ] || usage
	mkdir -p "$CACHE"
	if [ "$mode" = --export ]; then export_patches; return; fi
	# the source package's version is an input: install it first
	[ "$mode" = --path ] || ensure_deps
	hash=$(input_hash)
	out=$CACHE/kernel/${FLAVOR:+$FLAVOR-}$hash
	case "$mode" in
	--path)
		[ -f "$out/.complete" ] || die "no kernel built for the current inputs ($hash); run 'make kernel'"
		echo "$out/bzImage"; return ;;
	sync)
		if [ -f "$out/.complete" ]; then
			say "cached: $out"
			echo "$out/bzImage"; return
		fi
		unpack; sync_tree; make_config; build; store "$out"
		echo "$out/bzImage" ;;
	--tree)
		unpack; make_config; build
		out=$CACHE/kernel/${FLAVOR:+$FLAVOR-}tree; rm -rf "$out"; store "$out"
		echo "$out/bzImage" ;;
	esac
}

main "$@"
