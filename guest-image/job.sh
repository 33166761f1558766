#!/bin/bash
# job.sh - everything between a checkout and a result: build what is
# missing (kernel, image, test programs, scratch disk), boot the guest, and
# judge or show what came back.  The Makefile's test/run/shell targets.
#
# usage: guest-image/job.sh test|run|shell [ARG...]
#   environment: MEM SMP NUMA TIMEOUT SCRATCH_SIZE KERNEL WSR_CACHE OUT
#   CGROUP (2: run and shell boot cgroup v2)
#   WSR_TESTED_POLICY (run that policy where the tests ask for "distance"
#   or "adaptive")
#   CGT_SCALE (percent: the memcg tests' limits and fixed-size sets)
#   CGT_TIMEOUT (seconds: one test's watchdog in the guest, default 900)
#   (KERNEL=debug: the debug kernel, KERNEL=pristine: stock 6.1 with the
#   same config; either is built if missing)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WSR_CACHE:-/var/cache/wsrefault}
MEM=${MEM:-2G}
SMP=${SMP:-2}
NUMA=${NUMA:-0}
TIMEOUT=${TIMEOUT:-4200}
SCRATCH_SIZE=${SCRATCH_SIZE:-40G}
OUT=${OUT:-$ROOT/build/out}
SHARE=$ROOT/build/share

say() { printf '%s: %s\n' "$JOB" "$*" >&2; }
usage() { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }

[ $# -ge 1 ] || usage
JOB=$1; shift
case "$JOB" in test|run|shell) ;; *) usage ;; esac

# shellcheck source=../lib/deps.sh
. "$ROOT/lib/deps.sh"

ensure_deps() {
	ensure_pkgs "$JOB" qemu-system-x86 e2fsprogs libcgroup-dev cgroup-tools \
		build-essential
	# make run's plots
	[ "$JOB" != run ] || ensure_pkgs "$JOB" gnuplot-nox python3
}

# A sparse ext4 disk for data sets, kept across runs so they are made once.
ensure_scratch() {
	local img=$CACHE/scratch.img want have
	want=$(numfmt --from=iec "$SCRATCH_SIZE")
	if [ ! -f "$img" ]; then
		say "scratch disk: new sparse $SCRATCH_SIZE ext4 at $img"
		truncate -s "$SCRATCH_SIZE" "$img"
		mke2fs -q -F -t ext4 -L wsrscratch -m 0 "$img"
	fi
	e2fsck -p "$img" >/dev/null 2>&1 || e2fsck -fy "$img" >/dev/null 2>&1 || true
	have=$(stat -c %s "$img")
	if [ "$have" -lt "$want" ]; then
		say "scratch disk: growing to $SCRATCH_SIZE"
		truncate -s "$SCRATCH_SIZE" "$img"
		e2fsck -fy "$img" >/dev/null 2>&1 || true
		resize2fs "$img" >/dev/null 2>&1
	fi
	echo "$img"
}

programs() {
	make -s -C "$ROOT/cgtests" O="$SHARE" KSRC="$CACHE/linux" >/dev/null || return 1
	make -s -C "$ROOT/memcg" O="$SHARE" >/dev/null || return 1
	install -m 0755 "$ROOT/guest-image/guest-run" "$SHARE/guest-run"
}

# Test names and make-run scenarios are checked on the host, before the
# guest boots; the cgtests need the kernel tree's kselftest.h, so on a
# fresh machine this waits for the tree.
check_names() {
	case "$JOB" in
	test) "$SHARE/cgtests/run-tests" -l "$@" >/dev/null || exit 2 ;;
	run) "$ROOT/memcg/wsr-run" -n "$@" || exit 2 ;;
	esac
}

# The run's exit status, from the guest's "wsr-job: exit N" line.
job_status() {
	sed -n 's/^wsr-job: exit \([0-9]*\)$/\1/p' "$1" | tail -n 1
}

ensure_deps
checked=0
if [ "$JOB" = run ]; then
	check_names "$@"
	checked=1
fi
if [ -f "$CACHE/linux/tools/testing/selftests/kselftest.h" ]; then
	say "test programs -> $SHARE"
	programs || { say "the test programs do not build"; exit 1; }
	[ $checked = 1 ] || check_names "$@"
	checked=1
fi
append=""
case "${WSR_TESTED_POLICY:-}" in
"") ;;
distance|adaptive|activate|classic) append="wsr.tested=$WSR_TESTED_POLICY"
	say "WSR_TESTED_POLICY=$WSR_TESTED_POLICY: it runs where the tests ask for distance or adaptive" ;;
*) say "WSR_TESTED_POLICY is distance, adaptive, activate or classic"; exit 2 ;;
esac
case "${CGT_SCALE:-}" in
"") ;;
[1-9]|[1-9][0-9]|100) append+="${append:+ }wsr.scale=$CGT_SCALE" ;;
*) say "CGT_SCALE is a percentage, 1-100"; exit 2 ;;
esac
case "${CGT_TIMEOUT:-}" in
"") ;;
[1-9]|[1-9][0-9]|[1-9][0-9][0-9]|[1-9][0-9][0-9][0-9]) append+="${append:+ }wsr.timeout=$CGT_TIMEOUT" ;;
*) say "CGT_TIMEOUT is a test's watchdog in seconds, 1-9999"; exit 2 ;;
esac
# KERNEL: a bzImage, "debug", "pristine", or empty for the test kernel
case "${KERNEL:-}" in
"") kernel=$("$ROOT/kernel/build.sh") ;;
debug|pristine) kernel=$(FLAVOR=$KERNEL "$ROOT/kernel/build.sh") ;;
*) kernel=$KERNEL ;;
esac
image=$("$ROOT/guest-image/build.sh")
# again: the kernel tree's cgroup kselftests exist once the tree does
say "test programs -> $SHARE"
programs || { say "the test programs do not build"; exit 1; }
[ $checked = 1 ] || check_names "$@"
scratch=$(ensure_scratch)

boot=("$ROOT/guest-image/boot.sh" --kernel "$kernel" --image "$image"
      --share "$SHARE" --scratch "$scratch" --mem "$MEM" --smp "$SMP"
      --timeout "$TIMEOUT")
[ "$NUMA" = 0 ] || boot+=(--numa)
# make run/shell CGROUP=2: a cgroup-v2 boot (the memcg scope is then v2's memory.max)
case "${CGROUP:-1}" in
1) ;;
2) [ "$JOB" = test ] || boot+=(--cgroup2) ;;
*) say "CGROUP=${CGROUP}: want 1 or 2"; exit 2 ;;
esac
[ -z "$append" ] || boot+=(--append "$append")
args=$(IFS=,; echo "$*")

case "$JOB" in
shell)
	exec "${boot[@]}" --out "$OUT/shell" --interactive ;;
test)
	# tests that need a NUMA guest or cgroup v2 (test_v2, the kernel's
	# cgroup kselftests selftest/*) get a boot of their own
	sel=$("$SHARE/cgtests/run-tests" -l "$@") || exit 2
	numa=$(echo "$sel" | { grep '^test_numa/' || true; } | paste -sd, -)
	v2=$(echo "$sel" | { grep -E '^(test_v2|selftest)/' || true; } | paste -sd, -)
	main=$(echo "$sel" | { grep -v -E '^(test_numa|test_v2|selftest)/' || true; } | paste -sd, -)
	if [ $# = 0 ]; then
		main=""
		numa=$("$SHARE/cgtests/run-tests" -l test_numa | paste -sd, -)
		v2=$("$SHARE/cgtests/run-tests" -l test_v2 selftest | paste -sd, -)
	fi
	results=()
	if [ $# = 0 ] || [ -n "$main" ]; then
		rc=0
		"${boot[@]}" --out "$OUT/test" --job test ${main:+--args "$main"} || rc=$?
		results+=("$OUT/test" "$rc")
	fi
	if [ -n "$numa" ]; then
		rc=0
		"${boot[@]}" --out "$OUT/test-numa" --numa --job test --args "$numa" || rc=$?
		results+=("$OUT/test-numa" "$rc")
	fi
	if [ -n "$v2" ]; then
		rc=0
		"${boot[@]}" --out "$OUT/test-v2" --cgroup2 --job test --args "$v2" || rc=$?
		results+=("$OUT/test-v2" "$rc")
	fi
	exec "$ROOT/cgtests/report.sh" "${results[@]}" ;;
run)
	rc=0
	"${boot[@]}" --out "$OUT/run" --job run ${args:+--args "$args"} || rc=$?
	grep -v -e '^wsr-job: exit' -e '^wsr-row,' "$OUT/run/results.txt" || true
	[ "$rc" = 0 ] || { say "guest failed (qemu exit $rc); console: $OUT/run/console.txt"; exit 1; }
	[ -s "$OUT/run/results.txt" ] || { say "no results came back"; exit 1; }
	say "results also in $OUT/run/results.txt"
	st=$(job_status "$OUT/run/results.txt")
	[ -n "$st" ] || { say "the guest's job did not finish (no exit status came back)"; exit 1; }
	# the kernel log too: a run with a report in it failed, whatever it printed
	scan=$("$ROOT/cgtests/report.sh" --scan-only "$OUT/run/kmsg.txt") ||
		{ echo "$scan"; say "the kernel log has reports (above): failed"; exit 1; }
	# the run directory: results.csv/json, plots, report.md, the kernel's config
	if grep -q '^wsr-row,' "$OUT/run/results.txt"; then
		rundir=$OUT/run/$(date +%Y%m%d-%H%M%S)-$(basename "$(dirname "$kernel")")
		"$ROOT/memcg/wsr-report" "$OUT/run/results.txt" "$rundir" --kernel "$(dirname "$kernel")" ||
			{ say "wsr-report failed"; exit 1; }
	fi
	[ "$st" = 0 ] || { say "wsr-run exited $st in the guest: a cell failed"; exit 1; } ;;
esac
