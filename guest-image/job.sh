#!/bin/bash
# job.sh - everything between a checkout and a result: build what is
# missing (kernel, image, test programs, scratch disk), boot the guest, and
# judge or show what came back.  The Makefile's test/run/shell targets.
#
# usage: guest-image/job.sh test|run|shell [ARG...]
# usage: guest-image/job.sh run [-j N] [ARG...]   (N guests at once; or J=N)
#   environment: MEM SMP NUMA TIMEOUT SCRATCH_SIZE KERNEL WSR_CACHE OUT
#   CGROUP (2: run and shell boot cgroup v2)
#   WSR_TESTED_POLICY (run that policy where the tests ask for "distance"
#   or "adaptive")
#   CGT_SCALE (percent: the memcg tests' limits and fixed-size sets)
#   CGT_TIMEOUT (seconds: one test's watchdog in the guest, default 900)
#   (KERNEL=debug: the debug kernel, KERNEL=pristine: stock 6.1 with the
#   same config; either is built if missing)
#   make run: J (guests at once, default 1; SMP then defaults to 1),
#   FRESH=1 (do not resume an unfinished run); TIMEOUT is per cell;
#   WSR_BOOT (a stand-in for boot.sh, for check/run: nothing is installed
#   or built, KERNEL must name a file); WSR_HOST_CPUS, WSR_HOST_MEM_MB
#   (the host's CPUs and MemAvailable in MiB, as J's bound sees them)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WSR_CACHE:-/var/cache/wsrefault}
MEM=${MEM:-2G}
SMP_GIVEN=${SMP:+1}
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
# make run: how many guests at once (-j N, or J=N)
JOBS=${J:-1}
if [ "$JOB" = run ]; then
	while [ $# -gt 0 ]; do
		case "$1" in
		-j) [ $# -ge 2 ] || { say "-j wants a number of guests"; usage; }
		    JOBS=$2; shift 2 ;;
		-j*) JOBS=${1#-j}; shift ;;
		--) shift; break ;;
		-*) say "unknown option '$1'"; usage ;;
		*) break ;;
		esac
	done
	[[ "$JOBS" =~ ^[1-9][0-9]?$ ]] ||
		{ say "J (-j) is a number of guests at once, 1-99 (got '$JOBS')"; usage; }
fi
BOOT=${WSR_BOOT:-}
[ -z "$BOOT" ] || [ "$JOB" = run ] || { say "WSR_BOOT stands in for make run's boots only"; exit 2; }

# shellcheck source=../lib/deps.sh
. "$ROOT/lib/deps.sh"

ensure_deps() {
	ensure_pkgs "$JOB" qemu-system-x86 e2fsprogs libcgroup-dev cgroup-tools \
		build-essential
	# make run's plots
	[ "$JOB" != run ] || ensure_pkgs "$JOB" gnuplot-nox python3
}

# A sparse ext4 disk for data sets, kept across runs so they are made once
# (IMG, default $CACHE/scratch.img; make run's second guest at once has
# scratch-2.img, and so on).
ensure_scratch() {
	local img=${1:-$CACHE/scratch.img} want have
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

[ -n "$BOOT" ] || ensure_deps
checked=0
if [ "$JOB" = run ]; then
	check_names "$@"
	checked=1
fi
if [ -z "$BOOT" ] && [ -f "$CACHE/linux/tools/testing/selftests/kselftest.h" ]; then
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
# wsr-run's profile section reads /proc/profile: the kernel's profiler on
if [ "$JOB" = run ] && printf '%s\n' "$@" | tr ', ' '\n\n' | grep -qx profile; then
	append+="${append:+ }profile=2"
fi
case "${CGROUP:-1}" in
1|2) ;;
*) say "CGROUP=${CGROUP}: want 1 or 2"; exit 2 ;;
esac
case "${FRESH:-}" in
""|0|1) ;;
*) say "FRESH=1 starts make run afresh (got '$FRESH')"; exit 2 ;;
esac
[[ "$MEM" =~ ^[1-9][0-9]*[MG]$ ]] || { say "MEM wants e.g. 2048M or 2G (got '$MEM')"; exit 2; }
case "${WSR_ICOUNT:-0}" in
0|1) ;;
*) say "ICOUNT=1 boots with the instruction clock, 0 without (got '$WSR_ICOUNT')"; exit 2 ;;
esac
if [ -n "$BOOT" ]; then
	# check/run: nothing is built; the kernel file only keys the run state
	kernel=${KERNEL:-}
	[ -f "$kernel" ] || { say "WSR_BOOT wants KERNEL=FILE"; exit 2; }
	image=/dev/null
else
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
fi

mem_mb() { case "$1" in *G) echo $(( ${1%G} * 1024 )) ;; *M) echo "${1%M}" ;; esac; }

# make run J>1: at most one guest per host CPU, and MEM each with 1 GiB
# of MemAvailable to spare; one vCPU each unless SMP is given.
if [ "$JOB" = run ] && [ "$JOBS" -gt 1 ]; then
	cpus=${WSR_HOST_CPUS:-$(nproc)}
	avail=${WSR_HOST_MEM_MB:-$(( $(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo) / 1024 ))}
	if [ "$JOBS" -gt "$cpus" ]; then
		say "J=$JOBS lowered to $cpus: the host has $cpus CPUs"
		JOBS=$cpus
	fi
	fit=$(( (avail - 1024) / $(mem_mb "$MEM") ))
	[ "$fit" -ge 1 ] || fit=1
	if [ "$JOBS" -gt "$fit" ]; then
		say "J=$JOBS lowered to $fit: MemAvailable ${avail} MiB holds $fit guest(s) of $MEM with 1 GiB to spare"
		JOBS=$fit
	fi
	if [ "$JOBS" -gt 1 ] && [ -z "$SMP_GIVEN" ]; then
		SMP=1
		[ "$NUMA" = 0 ] || SMP=2
	fi
fi

boot=("${BOOT:-$ROOT/guest-image/boot.sh}" --kernel "$kernel" --image "$image"
      --share "$SHARE" --mem "$MEM" --smp "$SMP" --timeout "$TIMEOUT")
[ "$NUMA" = 0 ] || boot+=(--numa)
# make run/shell CGROUP=2: a cgroup-v2 boot (the memcg scope is then v2's memory.max)
[ "${CGROUP:-1}" = 1 ] || [ "$JOB" = test ] || boot+=(--cgroup2)
[ -z "$append" ] || boot+=(--append "$append")

# -- make run: one guest per cell -------------------------------------------
# The matrix is split into cells (memcg/wsr-run -c): setup, each scope's
# scenarios one repetition at a time, every other section whole.  Each
# cell boots a guest of its own; its output stays in the run state,
# $OUT/run/.state-<matrix hash>-<kernel hash>/cells/<cell>/ (results.txt,
# kmsg.txt, console.txt, boot.txt, rc), so that an interrupted or failed
# run resumes: a cell whose results end with "wsr-job: exit 0" and whose
# kernel log is clean is kept.  At the end results.txt is the cells' in
# matrix order, and a run with every cell done moves them into its run
# directory: the next make run measures afresh.

# cell_verdict DIR: nothing and 0 for a good cell, else why (one line), 1
cell_verdict() {
	local d=$1 rc st scan
	rc=$(cat "$d/rc" 2>/dev/null) || rc=
	case "$rc" in
	0) ;;
	"") echo "it did not finish"; return 1 ;;
	124) echo "the guest timed out after ${TIMEOUT}s"; return 1 ;;
	*) echo "qemu exited $rc"; return 1 ;;
	esac
	[ -s "$d/results.txt" ] || { echo "no results came back"; return 1; }
	st=$(job_status "$d/results.txt")
	[ -n "$st" ] || { echo "the guest's job did not finish (no exit status came back)"; return 1; }
	[ "$st" = 0 ] || { echo "wsr-run exited $st in the guest"; return 1; }
	[ "$(tail -n 1 "$d/results.txt")" = "wsr-job: exit 0" ] ||
		{ echo "output after the job's exit status"; return 1; }
	# a run with a kernel report in it failed, whatever it printed
	if ! scan=$("$ROOT/cgtests/report.sh" --scan-only "$d/kmsg.txt"); then
		echo "$scan" > "$d/scan.txt"
		echo "the kernel log has reports: $(echo "$scan" | head -n 1 | sed 's/^# HARNESS: //')"
		return 1
	fi
	return 0
}

# prior NAME ARGS: a rough guess of a cell's seconds under TCG (the ETA's
# start): a boot, and per policy what a scenario's passes take
prior() {
	local np=5 per p
	case "$2" in *pol=*) p=${2#*pol=}; p=${p%%,*}; p=${p//[!:]/}; np=$(( ${#p} + 1 )) ;; esac
	case "$1" in
	setup) echo 20 ;;
	sizing) echo 150 ;;
	overhead) echo 900 ;;
	profile) echo 400 ;;
	global-*|memcg-*)
		case "$1" in
		*-zipf-*) per=60 ;;
		*-mswitch-*) per=160 ;;
		*-pgbench-*) per=90 ;;
		*) per=40 ;;
		esac
		echo $(( 20 + np * per )) ;;
	*) echo 300 ;;
	esac
}

# run_cell I SLOT: boot cell I on scratch disk SLOT (in the background),
# and show the guest's "progress:" lines live, with the cell's name, until
# the boot ends.  The guest runs in a session of its own (setsid), which
# SIGTERM here ends.
run_cell() {
	local i=$1 d=$state/cells/${names[$1]} rc=0 bpid=
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/results.txt"
	# Ctrl-C reaches job.sh, which ends the cells with SIGTERM (a subshell
	# of a shell that traps SIGINT would die of it at once)
	trap '' INT
	# SIGTERM comes twice (timeout(1)'s to its group, then interrupted()'s),
	# and the second cuts a wait short: wait until the guest is reaped, or
	# it stays a zombie where init does not reap orphans.
	trap '[ -z "$bpid" ] || { kill -TERM -- "-$bpid"
		while kill -0 "$bpid"; do wait "$bpid" || :; done; } 2>/dev/null
		exit 143' TERM
	setsid "${boot[@]}" --scratch "${scratch[$2]}" --out "$d" --job run \
		--args "${cargs[$i]}" > "$d/boot.txt" 2>&1 < /dev/null &
	bpid=$!
	tail -F -s 0.2 --pid="$bpid" -n +1 "$d/results.txt" 2>/dev/null |
		grep --line-buffered 'progress:' |
		sed -u "s/^\(# \)*/  ${names[$i]}: /" >&2 &
	wait "$bpid" || rc=$?
	wait "$!" || true
	echo "$rc" > "$d/rc"
	return "$rc"
}

# the ETA in minutes: the cells not finished, each at its prior scaled by
# how the cells done (setup and failed ones aside) compared with theirs,
# over the slots
eta() {
	local i est rem=0 left=0 k
	for i in "${todo[@]}"; do
		[ -z "${took[$i]:-}" ] || continue
		est=${prior_of[$i]}
		[ "$done_prior" = 0 ] || est=$(( est * done_took / done_prior ))
		[ -z "${started[$i]:-}" ] || est=$(( est - (SECONDS - started[i]) ))
		[ "$est" -ge 0 ] || est=0
		rem=$(( rem + est ))
		left=$(( left + 1 ))
	done
	k=$slots
	[ "$left" -ge "$k" ] || k=$left
	[ "$k" -ge 1 ] || k=1
	echo $(( (rem / k + 59) / 60 ))
}

# alone NAME: a cell no other guest runs beside: setup (printed first),
# overhead and profile (they measure time)
alone() {
	case "$1" in setup|overhead|profile) return 0 ;; esac
	return 1
}

launch() {
	local i=$1 slot=${free[0]}
	free=("${free[@]:1}")
	printf '[%d/%d] cell %s ...\n' $((i + 1)) "$N" "${names[$i]}" >&2
	started[i]=$SECONDS
	slot_of[i]=$slot
	run_cell "$i" "$slot" &
	cell_of[$!]=$i
}

# reap: wait for any cell, say how it went
reap() {
	local pid i why left=0 j
	wait -n -p pid || true
	i=${cell_of[$pid]}
	unset "cell_of[$pid]"
	free+=("${slot_of[$i]}")
	took[i]=$(( SECONDS - started[i] ))
	why_of[i]=$(cell_verdict "$state/cells/${names[$i]}") || true
	# the ETA learns from the cells that ran through (setup is all boot)
	if [ "${names[$i]}" != setup ] && [ -z "${why_of[$i]}" ]; then
		done_took=$(( done_took + took[i] ))
		done_prior=$(( done_prior + prior_of[i] ))
	fi
	for j in "${todo[@]}"; do [ -n "${took[$j]:-}" ] || left=$((left + 1)); done
	# boot.sh's word on the accelerator, once (the rest is in boot.txt)
	if [ -z "$accel_said" ] &&
	   accel_said=$(grep -m 1 '^boot: accelerator: ' "$state/cells/${names[$i]}/boot.txt"); then
		echo "$accel_said" >&2
	fi
	if [ -z "${why_of[$i]}" ]; then
		why="done in ${took[$i]}s"
	else
		why="FAILED in ${took[$i]}s: ${why_of[$i]}"
	fi
	if [ "$left" -gt 0 ]; then
		printf '[%d/%d] cell %s %s; ETA ~%dm\n' $((i + 1)) "$N" "${names[$i]}" "$why" "$(eta)" >&2
	else
		printf '[%d/%d] cell %s %s\n' $((i + 1)) "$N" "${names[$i]}" "$why" >&2
	fi
}

interrupted() {
	local pid
	# a second signal (Ctrl-C again, timeout(1)'s to its process group)
	# must not cut the cleanup short
	trap '' INT TERM HUP
	for pid in "${!cell_of[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	say "interrupted: the finished cells stay in $state; make run with the same matrix resumes (FRESH=1 starts over)"
	exit 130
}

run_cells() {
	local plan mhash khash i n rundir failed=() rc=0 first
	plan=$("$ROOT/memcg/wsr-run" -c "$@") || exit 2
	names=() cargs=()
	while read -r n a; do names+=("$n"); cargs+=("$a"); done <<< "$plan"
	N=${#names[@]}
	[ "$N" -gt 0 ] || { say "the matrix has no cells"; exit 2; }
	# the state is the matrix's and the kernel's: J and SMP may differ on
	# resume; the instruction clock (make bench ICOUNT=1) is another run
	mhash=$(printf '%s\n' "$plan" "MEM=$MEM NUMA=$NUMA CGROUP=${CGROUP:-1}" "$append" \
		$([ "${WSR_ICOUNT:-0}" = 0 ] || echo ICOUNT=1) | sha256sum | cut -c1-10)
	khash=$(sha256sum < "$kernel" | cut -c1-10)
	state=$OUT/run/.state-$mhash-$khash
	mkdir -p "$OUT/run"
	exec 9> "$state.lock"
	flock -n 9 || { say "another make run is running this matrix ($state)"; exit 1; }
	if [ "${FRESH:-0}" = 1 ] && [ -d "$state" ]; then
		say "FRESH=1: starting over (removing $state)"
		rm -rf "$state"
	fi
	mkdir -p "$state/cells"
	printf '%s\n' "$plan" > "$state/plan"

	todo=() took=() started=() slot_of=() prior_of=() why_of=()
	declare -gA cell_of=()
	done_took=0 done_prior=0 accel_said=
	kept=()
	for i in "${!names[@]}"; do
		prior_of[i]=$(prior "${names[$i]}" "${cargs[$i]}")
		if why_of[i]=$(cell_verdict "$state/cells/${names[$i]}"); then
			kept+=("$i")
		else
			todo+=("$i")
		fi
	done
	# the slots: one guest each, with its own scratch disk
	slots=$JOBS
	[ "${#todo[@]}" -ge "$slots" ] || slots=${#todo[@]}
	scratch=() free=()
	for ((n = 1; n <= slots; n++)); do
		img=$CACHE/scratch.img
		[ "$n" = 1 ] || img=$CACHE/scratch-$n.img
		if [ -z "$BOOT" ]; then
			scratch[n]=$(ensure_scratch "$img")
		else
			scratch[n]=$img
		fi
		free+=("$n")
	done
	if [ "${#todo[@]}" -gt 0 ]; then
		first=0
		for i in "${todo[@]}"; do first=$(( first + prior_of[i] )); done
		say "$N cells, ${#todo[@]} to run, $slots guest(s) at once ($MEM, $SMP vCPU(s) each); ETA ~$(( (first / slots + 59) / 60 ))m (a rough guess until cells finish); state: $state"
	else
		say "$N cells, all of them done already: assembling"
	fi
	for i in "${kept[@]}"; do
		printf '[%d/%d] cell %s: kept from %s\n' $((i + 1)) "$N" "${names[$i]}" "$state" >&2
	done
	trap interrupted INT TERM HUP
	i=0
	while [ "$i" -lt "${#todo[@]}" ] || [ "${#cell_of[@]}" -gt 0 ]; do
		# a cell that runs alone waits for the others to finish
		if [ "$i" -lt "${#todo[@]}" ] && alone "${names[${todo[$i]}]}"; then
			if [ "${#cell_of[@]}" = 0 ]; then
				launch "${todo[$i]}"
				i=$((i + 1))
			fi
			reap
			continue
		fi
		while [ "$i" -lt "${#todo[@]}" ] && [ "${#free[@]}" -gt 0 ] &&
		      ! alone "${names[${todo[$i]}]}"; do
			launch "${todo[$i]}"
			i=$((i + 1))
		done
		reap
	done
	trap - INT TERM HUP

	# results.txt (and the kernel logs, consoles) in matrix order
	: > "$OUT/run/results.txt"
	: > "$OUT/run/kmsg.txt"
	: > "$OUT/run/console.txt"
	for i in "${!names[@]}"; do
		d=$state/cells/${names[$i]}
		[ ! -f "$d/results.txt" ] || cat "$d/results.txt" >> "$OUT/run/results.txt"
		for f in kmsg console; do
			{ echo "==== cell ${names[$i]} (wsr-run ${cargs[$i]})"
			  cat "$d/$f.txt" 2>/dev/null || true; } >> "$OUT/run/$f.txt"
		done
		[ -z "${why_of[$i]}" ] || failed+=("$i")
	done
	# the tables; the progress lines were shown live
	grep -v -e '^wsr-job: exit' -e '^wsr-row,' -e '^wsr-ovh,' -e '^wsr-app,' -e '^# progress: ' \
		"$OUT/run/results.txt" || true
	say "results also in $OUT/run/results.txt"
	# the run directory: results.csv/json, plots, report.md, the kernel's config
	rundir=
	if grep -q -e '^wsr-row,' -e '^wsr-ovh,' "$OUT/run/results.txt"; then
		rundir=$OUT/run/$(date +%Y%m%d-%H%M%S)-$(basename "$(dirname "$kernel")")
		# two runs in one second (all cells kept): another directory
		n=1 f=$rundir
		while [ -e "$rundir" ]; do n=$((n + 1)); rundir=$f-$n; done
		"$ROOT/memcg/wsr-report" "$OUT/run/results.txt" "$rundir" --kernel "$(dirname "$kernel")" ||
			{ say "wsr-report failed"; rc=1; }
	fi
	if [ "${#failed[@]}" -gt 0 ]; then
		n=
		for i in "${failed[@]}"; do
			d=$state/cells/${names[$i]}
			say "cell ${names[$i]} failed: ${why_of[$i]} (see $d/)"
			[ ! -s "$d/scan.txt" ] || sed 's/^/  /' "$d/scan.txt" >&2
			n+="${n:+ }${names[$i]}"
		done
		say "failed cells: $n; make run again re-runs them and keeps the rest"
		exit 1
	fi
	[ "$rc" = 0 ] || exit 1
	# done: the cells go with the run directory, and the next make run
	# starts afresh
	if [ -n "$rundir" ]; then
		mv "$state/cells" "$rundir/cells"
		cp "$state/plan" "$rundir/cells/plan"
	fi
	rm -rf "$state" "$state.lock"
}

case "$JOB" in
shell)
	disk=$(ensure_scratch)
	exec "${boot[@]}" --scratch "$disk" --out "$OUT/shell" --interactive ;;
test)
	disk=$(ensure_scratch)
	boot+=(--scratch "$disk")
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
	run_cells "$@" ;;
esac
