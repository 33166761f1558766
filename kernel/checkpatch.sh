#!/bin/bash
# Run the tree's checkpatch.pl --strict over every patch in patches/series.
# Fails when any patch has an error; warnings and checks are printed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TREE=${WSR_CACHE:-/var/cache/wsrefault}/linux
[ -x "$TREE/scripts/checkpatch.pl" ] || { echo "checkpatch: no tree at $TREE; run 'make kernel'" >&2; exit 1; }
bad=0 n=0
while read -r p; do
	n=$((n + 1))
	out=$(cd "$TREE" && scripts/checkpatch.pl --strict --no-tree --terse --show-types "$ROOT/patches/$p" 2>&1) || true
	e=$(printf '%s\n' "$out" | grep -c -E ': ERROR:' || true)
	w=$(printf '%s\n' "$out" | grep -c -E ': WARNING:' || true)
	c=$(printf '%s\n' "$out" | grep -c -E ': CHECK:' || true)
	printf '%-64s %s errors, %s warnings, %s checks\n' "$p" "$e" "$w" "$c"
	printf '%s\n' "$out" | grep -E ':[0-9]+: (ERROR|WARNING|CHECK):' | sed 's/^/    /' || true
	printf '%s\n' "$out" | grep -q -E ':[0-9]+: ERROR:' && bad=1
done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$ROOT/patches/series")
echo "checkpatch: $n patches, $([ $bad = 0 ] && echo 'no errors' || echo 'ERRORS')"
exit $bad
