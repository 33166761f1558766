#!/bin/sh
# cgexec-switch.sh - the switch case as a user starts it: a memcg made with
# cgcreate, limited with cgset, the workload started with cgexec.  Under
# the "distance" policy, set B is served >= 95% from cache no later than
# its 5th pass and the memcg's workingset_stale moves.  Exit codes are
# kselftest's: 0 pass, 1 fail, 4 skip.
set -u
CG=cgt_cgexec
LIMIT_M=1280
SET_M=$((LIMIT_M * 7 / 10))
STAT=/sys/fs/cgroup/memory/$CG/memory.stat
DIR=$(dirname "$0")
PATH="$DIR/../bin:$PATH"

command -v cgexec >/dev/null || { echo "# cgexec not installed"; exit 4; }
cleanup() { cgdelete -g memory:$CG 2>/dev/null; }
trap cleanup EXIT

echo distance > /proc/sys/vm/workingset_policy || exit 1
sync; echo 3 > /proc/sys/vm/drop_caches
cgcreate -g memory:$CG || exit 1
cgset -r memory.limit_in_bytes=${LIMIT_M}M $CG || exit 1
out=$(cgexec -g memory:$CG wsr-sizing -k -d /scratch/wsr "A=${SET_M}M*3" "B=${SET_M}M*6") || {
	echo "# wsr-sizing failed"; echo "$out" | sed 's/^/# /'; exit 1; }
echo "$out" | sed 's/^/# /'
# first pass of B with hit >= 95%
adapted=$(echo "$out" | awk '$2 == "B" && $4 >= 95 { print $3; exit }')
stale=$(awk '$1 == "workingset_stale" { print $2 }' "$STAT")
echo "# B served >= 95% from cache at pass ${adapted:-never}; workingset_stale $stale"
[ -n "$adapted" ] && [ "$adapted" -le 5 ] && [ "${stale:-0}" -gt 0 ]
