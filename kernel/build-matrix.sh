#!/bin/bash
# Build-test the series in the configurations that change its code paths:
# the test config, and that config with SYSCTL, MEMCG, NUMA, SWAP, LRU_GEN
# DEBUG_VM or WORKINGSET_ADAPTIVE off, plus 32-bit (ARCH=i386 defconfig with MEMCG on), and W=1
# on the files the series touches.  Object files are enough for what the
# series changes (mm/ and the headers it includes); the test config's full
# vmlinux is built by 'make kernel'.
#
#   kernel/build-matrix.sh [CONFIG...]   default: all; prints a table
#
# REV=<commit> builds that commit of the tree instead of its head, e.g.
# REV=HEAD~2 for the series up to its fifth patch: each patch must build.
#
# Works in a clean worktree of the kernel tree at the series (never the
# tree 'make kernel' builds in, which holds an in-tree build) with one
# O= directory per configuration under $WSR_CACHE/matrix.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WSR_CACHE:-/var/cache/wsrefault}
TREE=$CACHE/linux
SRC=$CACHE/linux-matrix
OUT=$CACHE/matrix
JOBS=${JOBS:-$(nproc)}
OBJS="mm/workingset.o mm/vmscan.o mm/filemap.o mm/readahead.o mm/page_alloc.o
      mm/vmstat.o mm/swap.o mm/memcontrol.o mm/migrate.o mm/debug.o"
ALL="test nosysctl nomemcg nonuma noswap nolrugen nodebugvm noadaptive i386 w1"

say() { printf 'matrix: %s\n' "$*" >&2; }
die() { printf 'matrix: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n 's/^#   kernel/usage: kernel/p' "$0" >&2
	echo "configs: $ALL" >&2
	exit 2
}

# the worktree at the series head, as kernel/build.sh applied it
sync_src() {
	local head
	[ -d "$TREE/.git" ] || die "no kernel tree at $TREE; run 'make kernel' first"
	head=$(git -C "$TREE" rev-parse --verify -q "${REV:-HEAD}^{commit}") ||
		die "REV=$REV: not a commit of $TREE"
	[ -d "$SRC" ] || git -C "$TREE" worktree add -q --detach "$SRC" "$head"
	git -C "$SRC" checkout -q -f --detach "$head"
	say "source: $(git -C "$SRC" log --oneline -1 | cut -c1-70)"
}

# config NAME -> ARCH, base defconfig and fragment lines
recipe() {
	case "$1" in
	test|w1)   echo "x86 x86_64_defconfig" ;;
	nosysctl)  echo "x86 tinyconfig CONFIG_64BIT=y CONFIG_MMU=y CONFIG_BLOCK=y CONFIG_SYSCTL=n CONFIG_PROC_SYSCTL=n" ;;
	nomemcg)   echo "x86 x86_64_defconfig CONFIG_MEMCG=n" ;;
	nonuma)    echo "x86 x86_64_defconfig CONFIG_NUMA=n" ;;
	noswap)    echo "x86 x86_64_defconfig CONFIG_SWAP=n" ;;
	nolrugen)  echo "x86 x86_64_defconfig CONFIG_LRU_GEN=n" ;;
	nodebugvm) echo "x86 x86_64_defconfig CONFIG_DEBUG_VM=n" ;;
	noadaptive) echo "x86 x86_64_defconfig CONFIG_WORKINGSET_ADAPTIVE=n" ;;
	i386)      echo "i386 i386_defconfig CONFIG_CGROUPS=y CONFIG_MEMCG=y CONFIG_SWAP=y CONFIG_HIGHMEM4G=y" ;;
	*) return 1 ;;
	esac
}

build_one() {
	local name=$1 arch base frag dir log sym want have objs w
	read -r arch base frag < <(recipe "$name") || return 1
	dir=$OUT/$name log=$OUT/$name.log
	mkdir -p "$dir"
	: > "$log"
	make -s -C "$SRC" O="$dir" ARCH="$arch" "$base" >>"$log" 2>&1 || return 1
	{
		# the test kernel's fragments on top of the defconfigs (not tinyconfig)
		if [ "$base" = x86_64_defconfig ]; then
			cat "$SRC/kernel/configs/kvm_guest.config" "$ROOT"/kernel/*.config
		fi
		tr ' ' '\n' <<<"$frag" | sed 's/^\(CONFIG_[A-Z0-9_]*\)=n$/# \1 is not set/'
	} > "$dir/wsr-matrix.config"
	(cd "$SRC" && ARCH="$arch" scripts/kconfig/merge_config.sh -m -O "$dir" \
		"$dir/.config" "$dir/wsr-matrix.config") >>"$log" 2>&1 || return 1
	make -s -C "$SRC" O="$dir" ARCH="$arch" olddefconfig >>"$log" 2>&1 || return 1
	# what the configuration is for must have survived olddefconfig
	for want in $frag; do
		sym=${want%%=*}
		have=$(grep -E "^$sym=|^# $sym is not set" "$dir/.config" || true)
		case "$want" in
		*=n) [[ -z "$have" || "$have" == "# $sym is not set" ]] ;;
		*)   [ "$have" = "$want" ] ;;
		esac || { echo "config: $want did not hold ($have)" >>"$log"; return 1; }
	done
	make -s -C "$SRC" O="$dir" ARCH="$arch" -j"$JOBS" prepare >>"$log" 2>&1 || return 1
	objs=$OBJS
	grep -q '^CONFIG_MEMCG=y' "$dir/.config" || objs=${objs/mm\/memcontrol.o/}
	grep -q '^CONFIG_MIGRATION=y' "$dir/.config" || objs=${objs/mm\/migrate.o/}
	w=""
	[ "$name" = w1 ] && w="W=1"
	# shellcheck disable=SC2086
	make -C "$SRC" O="$dir" ARCH="$arch" -j"$JOBS" $w $objs >>"$log" 2>&1 || return 1
	# no warnings in what the series touches
	! grep -E '^[^ ]*(mm/(workingset|vmscan|filemap|readahead|page_alloc|vmstat|swap|memcontrol|migrate)\.c|mm/internal\.h).*warning:' "$log"
}

main() {
	local sel=("$@") name rc=0 start res=()
	[ ${#sel[@]} -gt 0 ] || read -r -a sel <<<"$ALL"
	for name in "${sel[@]}"; do
		recipe "$name" >/dev/null || usage
	done
	sync_src
	mkdir -p "$OUT"
	for name in "${sel[@]}"; do
		start=$(date +%s)
		say "$name ..."
		if build_one "$name"; then
			res+=("$(printf '%-10s pass %4ss' "$name" $(( $(date +%s) - start )))")
		else
			res+=("$(printf '%-10s FAIL %4ss  (log: %s)' "$name" $(( $(date +%s) - start )) "$OUT/$name.log")")
			rc=1
		fi
		say "${res[-1]}"
	done
	echo "config     result time"
	printf '%s\n' "${res[@]}"
	return $rc
}

main "$@"
