#!/bin/bash
# report.sh - judge guest test runs on the host.
#
# usage: cgtests/report.sh OUTDIR QEMU_RC [OUTDIR QEMU_RC]...
#        cgtests/report.sh --scan-only KMSG   (the kernel-log scan alone)
# Prints the TAP stream each guest wrote (OUTDIR/results.txt), scans the
# guest's kernel log (OUTDIR/kmsg.txt, and console.txt for a panic) for
# BUG/WARNING/Oops/KASAN/lockdep reports, hung tasks, RCU stalls, soft
# lockups, bad pages, list corruption and memcg OOMs, pins each on the test
# that was running, and ends with one line "N passed, N failed, N skipped".
# Fails by default: a missing plan, a short stream, duplicate test numbers,
# a timeout, a panic, a run in which nothing passed, or any kernel report
# is a failure.  A test that expects a report says so first in the kernel
# log: "wsr-test: expect TEXT" makes lines containing TEXT expected until
# the test ends.
set -uo pipefail
usage() { sed -n -e 's/^# usage: /usage: /p' -e 's/^#        cgtests/       cgtests/p' "$0" >&2; exit 2; }
pattern='BUG:|WARNING:|Oops|KASAN|UBSAN|DEBUG_LOCKS_WARN_ON|possible (circular|recursive) locking|general protection fault|kernel BUG at|list_(add|del) corruption|page dumped because|blocked for more than|rcu: INFO|self-detected stall|soft lockup|Bad page|Memory cgroup out of memory'
tpass=0 tfail=0 tskip=0

problem() { echo "# HARNESS: $*"; extra=$((extra + 1)); }

# Kernel reports in log $1, one per line: the test that was running (or
# "boot", or "the gap after NAME"), a tab, the line (at most 20).
scan() {
	awk -v pat="$pattern" '
		BEGIN { t = "boot" }
		/wsr-test: begin / { t = $NF; n = 0; next }
		/wsr-test: end / { t = "the gap after " $NF; n = 0; next }
		/wsr-test: expect / { e[n++] = substr($0, index($0, "wsr-test: expect ") + 17); next }
		$0 ~ pat {
			for (i = 0; i < n; i++)
				if (index($0, e[i]))
					next
			sub(/^\[[ 0-9.]*\] /, ""); print t "\t" $0
		}' "$1" | head -20
}

judge() {
	local out=$1 qrc=$2 res kmsg con pass skip fail plan
	res=$out/results.txt kmsg=$out/kmsg.txt con=$out/console.txt
	extra=0
	cat "$res"
	pass=$(grep -c -E '^ok [0-9]+ ' "$res")
	skip=$(grep -c -E '^ok [0-9]+ .*# SKIP' "$res")
	fail=$(grep -c -E '^not ok [0-9]+ ' "$res")
	pass=$((pass - skip))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$res" | head -n 1)
	if [ -z "$plan" ]; then
		problem "no TAP plan from the guest (see $con)"
	elif [ $((pass + fail + skip)) -lt "$plan" ]; then
		problem "only $((pass + fail + skip)) of $plan results: the guest stopped early (see $con)"
	fi
	dups=$(sed -n -E 's/^(not )?ok ([0-9]+) .*/\2/p' "$res" | sort | uniq -d | paste -sd, -)
	[ -z "$dups" ] || problem "duplicate test numbers in the TAP stream: $dups"
	case "$qrc" in
	0) ;;
	124) problem "the guest timed out" ;;
	*) problem "qemu exited $qrc" ;;
	esac
	if grep -q -e 'Kernel panic' "$con" 2>/dev/null; then
		problem "kernel panic: $(grep -m1 'Kernel panic' "$con")"
	fi
	# kernel reports, pinned on the test that was running
	if [ -s "$kmsg" ]; then
		while IFS=$'\t' read -r test line; do
			problem "kernel log during $test: $line"
		done < <(scan "$kmsg")
	elif [ -n "$plan" ]; then
		problem "no kernel log came back from the guest"
	fi
	tpass=$((tpass + pass)) tfail=$((tfail + fail + extra)) tskip=$((tskip + skip))
}

if [ "${1:-}" = --scan-only ]; then
	[ $# = 2 ] && [ -r "$2" ] || usage
	[ -s "$2" ] || { echo "# HARNESS: $2: no kernel log came back from the guest"; exit 1; }
	reports=$(scan "$2")
	[ -z "$reports" ] || { echo "$reports" | sed -e 's/^\([^\t]*\)\t/# HARNESS: kernel log during \1: /'; exit 1; }
	exit 0
fi
[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] || usage
while [ $# -gt 0 ]; do
	judge "$1" "$2"
	shift 2
done
if [ "$tpass" = 0 ] && [ "$tfail" = 0 ]; then
	echo "# HARNESS: no test passed (all skipped, or none ran)"
	tfail=1
fi
echo "$tpass passed, $tfail failed, $tskip skipped"
[ "$tfail" = 0 ] && [ "$tpass" -gt 0 ]
