#!/bin/sh
# cgexec-switch.sh - the switch case as a user starts it: a memcg made with
# cgcreate, limited with cgset, the workload started with cgexec, the
# counters read with cgget.  Under the "distance" policy, set B is served
# >= 95% from cache no later than its 5th pass and on every pass after,
# and the memcg's workingset_stale moves (stock 6.1 never moves it).
# Exit codes are kselftest's: 0 pass, 1 fail.  The memcg sits under a
# root of its own, cgt-<pid>, removed on exit.
set -u
ROOT=cgt-$$
CG=$ROOT/cgexec
# the limit of every memcg scenario (CGT_MEMCG_LIMIT in cgtest.h, scaled),
# passed in by test_memcg_cgexec
LIMIT_M=${CGT_LIMIT_M:?set by test_memcg_cgexec: the limit of the memcg scenarios in MiB}
SET_M=$((LIMIT_M * 7 / 10))
DIR=$(dirname "$0")
PATH="$DIR/../bin:$PATH"

for t in cgcreate cgset cgexec cgget cgdelete; do
	command -v $t >/dev/null || { echo "# $t not installed (package cgroup-tools)"; exit 1; }
done
cleanup() { cgdelete -r -g memory:$ROOT 2>/dev/null; }
trap cleanup EXIT
trap 'exit 1' INT TERM

echo "${WSR_TESTED_POLICY:-distance}" > /proc/sys/vm/workingset_policy || exit 1
sync; echo 3 > /proc/sys/vm/drop_caches
cgcreate -g memory:$CG || exit 1
cgset -r memory.limit_in_bytes=${LIMIT_M}M $CG || exit 1
out=$(cgexec -g memory:$CG wsr-sizing -k -d /scratch/wsr "A=${SET_M}M*3" "B=${SET_M}M*6") || {
	echo "# wsr-sizing failed"; echo "$out" | sed 's/^/# /'; exit 1; }
echo "$out" | sed 's/^/# /'
# first pass of B with hit >= 95%, and the worst pass of B from then on
adapted=$(echo "$out" | awk '$2 == "B" && $4 >= 95 { print $3; exit }')
worst=$(echo "$out" | awk -v from="${adapted:-999}" '$2 == "B" && $3 >= from && (w == "" || $4 < w) { w = $4 } END { print w }')
stale=$(cgget -n -v -r memory.stat $CG | awk '$1 == "workingset_stale" { print $2 }')
echo "# B served >= 95% from cache at pass ${adapted:-never} (<= 5), worst pass after ${worst:-none}% (>= 95%); workingset_stale ${stale:-unreadable} (> 0)"
[ -n "$adapted" ] && [ "$adapted" -le 5 ] &&
	awk -v w="$worst" 'BEGIN { exit !(w >= 95) }' &&
	[ "${stale:-0}" -gt 0 ]
