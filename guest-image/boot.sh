#!/bin/bash
# Boot the test kernel and guest image under QEMU.
#
# usage: guest-image/boot.sh [options]
#   --kernel FILE     bzImage (required)
#   --image FILE      root image, used as a throw-away snapshot (required)
#   --share DIR       host directory shown read-only at /mnt/wsr (required)
#   --scratch FILE    raw ext4 scratch disk, mounted at /scratch
#   --mem SIZE        guest memory, e.g. 2G (default 2G)
#   --smp N           vCPUs (default 2)
#   --numa            two NUMA nodes, memory split evenly, one vCPU each
#   --cgroup2         cgroup v2 (systemd.unified_cgroup_hierarchy=1); default v1
#   --job NAME        what the guest runs: test, run (none: interactive)
#   --args LIST       comma-separated arguments for the job
#   --append STR      extra kernel command line
#   --out DIR         where results.txt, kmsg.txt and console.txt go
#   --timeout SEC     kill the guest after SEC seconds (default 3600)
#   --interactive     serial console on this terminal (make shell)
set -euo pipefail

usage() { sed -n '/^# usage/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
say() { printf 'boot: %s\n' "$*" >&2; }
die() { printf 'boot: error: %s\n' "$*" >&2; exit 1; }

CACHE=${WSR_CACHE:-/var/cache/wsrefault}
KERNEL= IMAGE= SHARE= SCRATCH= MEM=2G SMP=2 NUMA=0 CGROUP2=0 JOB= ARGS= APPEND=
OUT=. TIMEOUT=2700 INTERACTIVE=0

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) KERNEL=${2:?}; shift ;;
	--image) IMAGE=${2:?}; shift ;;
	--share) SHARE=${2:?}; shift ;;
	--scratch) SCRATCH=${2:?}; shift ;;
	--mem) MEM=${2:?}; shift ;;
	--smp) SMP=${2:?}; shift ;;
	--numa) NUMA=1 ;;
	--cgroup2) CGROUP2=1 ;;
	--job) JOB=${2:?}; shift ;;
	--args) ARGS=${2:?}; shift ;;
	--append) APPEND=${2:?}; shift ;;
	--out) OUT=${2:?}; shift ;;
	--timeout) TIMEOUT=${2:?}; shift ;;
	--interactive) INTERACTIVE=1 ;;
	-h|--help) usage ;;
	*) printf 'boot: unknown option %s\n' "$1" >&2; usage ;;
	esac
	shift
done
[ -n "$KERNEL" ] && [ -n "$IMAGE" ] && [ -n "$SHARE" ] || usage
[[ "$MEM" =~ ^[0-9]+[MG]$ ]] || { echo "boot: --mem wants e.g. 2048M or 2G" >&2; usage; }
[[ "$SMP" =~ ^[1-9][0-9]*$ ]] || usage
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || usage
case "$JOB" in ""|test|run) ;; *) echo "boot: --job is test or run" >&2; usage ;; esac
[[ "$ARGS" =~ ^[A-Za-z0-9_.,=:/-]*$ ]] || { echo "boot: --args: letters, digits and _.,=:/- only" >&2; usage; }
for f in "$KERNEL" "$IMAGE"; do [ -f "$f" ] || die "$f: not found"; done
[ -d "$SHARE" ] || die "$SHARE: not a directory"

# KVM only where it really works: a /dev/kvm node is no proof (nested
# virtualization may be missing or broken), so boot the kernel once with
# KVM up to its "no root" panic.  The verdict is kept per host boot.
probe_kvm() {
	local log rc=0
	log=$(mktemp)
	timeout 30 qemu-system-x86_64 -accel kvm -cpu host -m 256M -nodefaults \
		-display none -no-reboot -serial "file:$log" -kernel "$KERNEL" \
		-append "console=ttyS0 panic=-1 root=/dev/wsr-none" \
		>/dev/null 2>&1 || rc=$?
	grep -q -e 'Kernel panic' -e 'VFS: Unable to mount root' "$log" && [ $rc = 0 ]
	rc=$?
	rm -f "$log"
	return $rc
}

pick_accel() {
	local stamp=$CACHE/accel.$(cat /proc/sys/kernel/random/boot_id)
	if [ -n "${WSR_ACCEL:-}" ]; then echo "$WSR_ACCEL"; return; fi
	if ! [ -w /dev/kvm ] || ! grep -q -w -e vmx -e svm /proc/cpuinfo; then
		echo tcg; return
	fi
	if [ ! -f "$stamp" ]; then
		if probe_kvm; then echo kvm > "$stamp"; else echo tcg > "$stamp"; fi
	fi
	cat "$stamp"
}

ACCEL=$(pick_accel)
case "$ACCEL" in
kvm) ACCEL_ARGS=(-accel kvm -cpu host); say "accelerator: KVM" ;;
tcg) ACCEL_ARGS=(-accel tcg,thread=multi,tb-size=512 -cpu "${WSR_TCG_CPU:-max,-erms,-fsrm}")
     say "accelerator: TCG (software emulation; KVM not usable here)" ;;
*) die "WSR_ACCEL must be kvm or tcg" ;;
esac
# WSR_ICOUNT=1 (make bench ICOUNT=1): the guest's clock counts executed
# instructions, one per virtual nanosecond (-icount shift=0), and idle
# time jumps to the next timer (sleep=off).  A time measured in the guest
# is then an instruction count: the same in every run but for when
# interrupts and I/O completions land, which is what a 1% bound on a
# code path needs and what the host's noise under TCG cannot give.
# Single-threaded TCG, one vCPU (with two, the boot hangs bringing up the
# second: measured with QEMU 7.2), no NUMA; not with KVM.
case "${WSR_ICOUNT:-0}" in
0) ;;
1) [ "$ACCEL" = tcg ] || die "WSR_ICOUNT=1 needs TCG (WSR_ACCEL=tcg)"
   [ "$NUMA" = 0 ] || die "WSR_ICOUNT=1 boots one vCPU: no --numa"
   SMP=1
   ACCEL_ARGS=(-accel tcg,tb-size=512 -icount shift=0,sleep=off
	       -cpu "${WSR_TCG_CPU:-max,-erms,-fsrm}")
   APPEND+="${APPEND:+ }wsr.icount=1"
   say "clock: instruction count (-icount shift=0,sleep=off)" ;;
*) die "WSR_ICOUNT must be 0 or 1" ;;
esac

mem_mb() { local m=$1; case "$m" in *G) echo $(( ${m%G} * 1024 ));; *M) echo "${m%M}";; esac; }
MB=$(mem_mb "$MEM")

MACHINE=(-machine q35 -m "${MB}M" -smp "$SMP")
if [ "$NUMA" = 1 ]; then
	[ "$SMP" -ge 2 ] || die "--numa needs --smp 2 or more"
	half=$(( MB / 2 ))
	# one socket per node, or the kernel rightly warns that cache
	# siblings sit on different nodes
	MACHINE[5]="$SMP,sockets=2,cores=$(( SMP / 2 )),threads=1"
	MACHINE+=(-object "memory-backend-ram,id=m0,size=${half}M"
		  -object "memory-backend-ram,id=m1,size=$(( MB - half ))M"
		  -numa "node,nodeid=0,cpus=0-$(( SMP / 2 - 1 )),memdev=m0"
		  -numa "node,nodeid=1,cpus=$(( SMP / 2 ))-$(( SMP - 1 )),memdev=m1")
fi

CMDLINE="console=ttyS0 root=/dev/vda rw rootfstype=ext4 panic=-1"
# cgroup v1 (the memory hierarchy at /sys/fs/cgroup/memory), or v2
CMDLINE+=" systemd.unified_cgroup_hierarchy=$CGROUP2 systemd.show_status=error"
CMDLINE+=" loglevel=4 random.trust_cpu=on tsc=reliable"
# guest-run streams the kernel log out as it comes; a buffer larger than
# the config's 256 KiB keeps a burst of memcg OOM dumps (the kselftests)
# from overwriting lines before that reader has them
CMDLINE+=" log_buf_len=8M"
[ -z "$JOB" ] || CMDLINE+=" wsr.job=$JOB"
[ "$NUMA" = 0 ] || CMDLINE+=" wsr.nodes=2"
[ -z "$ARGS" ] || CMDLINE+=" wsr.args=$ARGS"
[ -z "$APPEND" ] || CMDLINE+=" $APPEND"

mkdir -p "$OUT"
: > "$OUT/results.txt"; : > "$OUT/kmsg.txt"; : > "$OUT/console.txt"
DEVICES=(
	-nodefaults -no-reboot
	-drive "file=$IMAGE,if=virtio,format=raw,snapshot=on"
	-virtfs "local,path=$SHARE,mount_tag=wsrshare,security_model=none,readonly=on"
	-device virtio-serial-pci
	-chardev "file,id=results,path=$OUT/results.txt"
	-device "virtserialport,chardev=results,name=wsr.results"
	-chardev "file,id=kmsg,path=$OUT/kmsg.txt"
	-device "virtserialport,chardev=kmsg,name=wsr.kmsg"
	-device virtio-rng-pci
)
[ -z "$SCRATCH" ] || DEVICES+=(-drive "file=$SCRATCH,if=virtio,format=raw,cache=none,aio=threads")

say "mem $MEM, $SMP vCPUs$([ $NUMA = 1 ] && echo ', 2 NUMA nodes'), cgroup v$((CGROUP2 + 1)), job ${JOB:-shell}${ARGS:+ ($ARGS)}"
if [ "$INTERACTIVE" = 1 ]; then
	say "root logs in without a password; poweroff (or Ctrl-a x) leaves"
	exec qemu-system-x86_64 "${ACCEL_ARGS[@]}" "${MACHINE[@]}" "${DEVICES[@]}" \
		-display none -serial mon:stdio -kernel "$KERNEL" -append "$CMDLINE"
fi

start=$(date +%s)
# what the guest is doing, live on the host's console: verdicts and the
# "# progress:" lines of long steps (the full stream is in results.txt)
( tail -F -n +1 "$OUT/results.txt" 2>/dev/null |
	grep --line-buffered -E '^(ok|not ok) |progress:|^# \[[0-9]+/[0-9]+\]' |
	sed -u 's/^\(# \)*/  /; s/^/guest: /' >&2 ) &
tailer=$!
rc=0
timeout --foreground -k 10 "$TIMEOUT" qemu-system-x86_64 "${ACCEL_ARGS[@]}" \
	"${MACHINE[@]}" "${DEVICES[@]}" -display none -monitor none \
	-serial "file:$OUT/console.txt" -kernel "$KERNEL" -append "$CMDLINE" \
	</dev/null || rc=$?
sleep 1
pkill -P "$tailer" 2>/dev/null || true
kill "$tailer" 2>/dev/null || true
say "guest ran $(( $(date +%s) - start ))s, qemu exit $rc"
[ $rc != 124 ] && [ $rc != 137 ] || { say "TIMEOUT after ${TIMEOUT}s"; exit 124; }
exit $rc
