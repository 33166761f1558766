#!/bin/bash
# Keep the build incremental across a history rewrite of the tree (git
# rebase -i, --autosquash): a rebase checks out the series' base and
# replays every commit, giving each file the series touches a new mtime,
# so make rebuilds everything that includes a header the series changes
# (page-flags.h, memcontrol.h, mmzone.h: nearly the whole kernel).
#
#   kernel/keep-mtimes.sh save      before the rebase: note the content
#                                   hash and mtime of every file the series
#                                   touches
#   kernel/keep-mtimes.sh restore   after it: give back the old mtime to
#                                   every such file whose content is the same
#
# Works on $CACHE/linux (TREE= to override).  The note lives in the tree's
# .git directory.
set -euo pipefail

CACHE=${WSR_CACHE:-/var/cache/wsrefault}
TREE=${TREE:-$CACHE/linux}
NOTE=$TREE/.git/wsr-mtimes

usage() { sed -n '/^#   kernel/,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

[ $# = 1 ] || usage
[ -d "$TREE/.git" ] || { echo "keep-mtimes: no git tree at $TREE" >&2; exit 1; }
cd "$TREE"
case "$1" in
save)
	git diff --name-only pristine..HEAD | while read -r f; do
		[ -f "$f" ] || continue
		printf '%s %s %s\n' "$(git hash-object "$f")" "$(stat -c %.9Y "$f")" "$f"
	done > "$NOTE"
	echo "keep-mtimes: noted $(wc -l < "$NOTE") files" ;;
restore)
	[ -f "$NOTE" ] || { echo "keep-mtimes: nothing saved (run save before the rebase)" >&2; exit 1; }
	kept=0 changed=0
	while read -r hash mtime f; do
		if [ -f "$f" ] && [ "$(git hash-object "$f")" = "$hash" ]; then
			touch -m -d "@$mtime" "$f"
			kept=$((kept + 1))
		else
			changed=$((changed + 1))
		fi
	done < "$NOTE"
	echo "keep-mtimes: $kept files keep their mtime, $changed changed" ;;
*) usage ;;
esac
