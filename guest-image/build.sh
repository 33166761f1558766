#!/bin/bash
# Build the guest: Debian bookworm with systemd as init, cgroup-tools and
# libcgroup (and PostgreSQL 15 for wsr-app, never started at boot), made
# with mmdebstrap into a directory and turned into a raw ext4
# image with mke2fs -d (no loop mounts).  The image is keyed by a hash of
# its inputs (this script, the units, mmdebstrap's version) and never
# rebuilt while they are unchanged.
#
#   guest-image/build.sh          build if needed, print the image path
#   guest-image/build.sh --path   print the cached image path or fail
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${WSR_CACHE:-/var/cache/wsrefault}
IMAGE_SIZE=${IMAGE_SIZE:-2G}
SUITE=bookworm
PACKAGES=systemd,systemd-sysv,udev,dbus,cgroup-tools,libcgroup2,numactl,procps,e2fsprogs,util-linux,less,kmod
# wsr-app's real application: PostgreSQL 15 (pgbench ships in the server
# package in bookworm), fincore (util-linux-extra) for its residency
PACKAGES+=,postgresql-15,postgresql-client-15,util-linux-extra
MACHINE_ID=5c9e4a1d0f3b4e27a8d6c1b2e3f40517

# shellcheck source=../lib/deps.sh
. "$HERE/../lib/deps.sh"

say() { printf 'image: %s\n' "$*" >&2; }
die() { printf 'image: error: %s\n' "$*" >&2; exit 1; }

ensure_deps() {
	ensure_pkgs image mmdebstrap e2fsprogs debian-archive-keyring
}

input_hash() {
	{
		cat "$0"
		find "$HERE/units" -type f | sort | xargs cat
		dpkg-query -W -f='${Version}\n' mmdebstrap 2>/dev/null || true
	} | sha256sum | cut -c1-16
}

# The host's own apt sources, so the guest comes from the same mirror.
host_sources() {
	local f
	for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
		if [ -s "$f" ] && grep -q -e '^deb ' -e '^Types:' "$f"; then
			echo "$f"; return
		fi
	done
}

customize() {
	local root=$1
	echo wsr-guest > "$root/etc/hostname"
	echo "$MACHINE_ID" > "$root/etc/machine-id"
	chroot "$root" passwd -d root >/dev/null
	cat > "$root/etc/fstab" <<-'FSTAB'
	/dev/vda	/		ext4	rw,noatime,errors=remount-ro	0 1
	LABEL=wsrscratch /scratch	ext4	rw,noatime,nofail,x-systemd.device-timeout=90s	0 0
	wsrshare	/mnt/wsr	9p	ro,trans=virtio,version=9p2000.L,msize=262144,nofail	0 0
	FSTAB
	mkdir -p "$root/scratch" "$root/mnt/wsr"
	# root on the serial console without a password
	mkdir -p "$root/etc/systemd/system/serial-getty@ttyS0.service.d"
	cat > "$root/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf" <<-'GETTY'
	[Service]
	ExecStart=
	ExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %I $TERM
	GETTY
	# nothing periodic may disturb a measurement
	local u
	for u in apt-daily.timer apt-daily-upgrade.timer fstrim.timer \
		 e2scrub_all.timer e2scrub_reap.service man-db.timer \
		 systemd-tmpfiles-clean.timer dpkg-db-backup.timer \
		 systemd-timesyncd.service getty@tty1.service \
		 postgresql.service postgresql@.service; do
		ln -sf /dev/null "$root/etc/systemd/system/$u"
	done
	# PostgreSQL never starts by itself (masked above): wsr-app starts
	# its own cluster on /scratch; the one the package made goes
	rm -rf "$root/etc/postgresql/"*/main "$root/var/lib/postgresql/"*/main \
		"$root/var/log/postgresql/"*
	install -m 0644 "$HERE"/units/*.service "$root/etc/systemd/system/"
	for u in "$HERE"/units/*.service; do
		u=$(basename "$u")
		mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
		ln -sf "/etc/systemd/system/$u" "$root/etc/systemd/system/multi-user.target.wants/$u"
	done
	# no share, no job: power off at once rather than wait for the
	# host's timeout (wsr-run.service only Requires= the mount, and a
	# failed dependency does not trigger its FailureAction=)
	mkdir -p "$root/etc/systemd/system/mnt-wsr.mount.d"
	printf '[Unit]\nOnFailure=poweroff.target\nOnFailureJobMode=replace-irreversibly\n' \
		> "$root/etc/systemd/system/mnt-wsr.mount.d/poweroff.conf"
	# journald keeps its log in memory: the root image is a throw-away snapshot
	mkdir -p "$root/etc/systemd/journald.conf.d"
	printf '[Journal]\nStorage=volatile\n' > "$root/etc/systemd/journald.conf.d/volatile.conf"
	printf 'export PATH=/mnt/wsr/bin:$PATH\n' > "$root/etc/profile.d/wsr.sh"
	rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
}

main() {
	local hash out tmp src
	case "${1:-}" in
	"") ;;
	--path) ;;
	*) sed -n '/^#   guest-image/s/^#   //p' "$0" >&2; exit 2 ;;
	esac
	# mmdebstrap's version is an input: install it first
	[ "${1:-}" = --path ] || ensure_deps
	hash=$(input_hash)
	out=$CACHE/image/$hash
	if [ -f "$out/.complete" ]; then
		[ "${1:-}" = --path ] || say "cached: $out"
		echo "$out/root.img"; return
	fi
	[ "${1:-}" != --path ] || die "no image built for the current inputs ($hash); run 'make image'"
	mkdir -p "$CACHE/image"
	tmp=$(mktemp -d "$CACHE/image/tmp.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	src=$(host_sources)
	say "mmdebstrap $SUITE (minbase + ${PACKAGES//,/ }) ${src:+from $src}"
	mmdebstrap --variant=minbase --mode=root --format=directory \
		--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
		--include="$PACKAGES" \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		$SUITE "$tmp/root" ${src:+"$src"} >"$tmp/mmdebstrap.log" 2>&1 || {
		tail -30 "$tmp/mmdebstrap.log" >&2
		die "mmdebstrap failed"
	}
	say "customizing (machine-id, autologin, units, masked timers)"
	customize "$tmp/root"
	say "mke2fs -d -> root.img ($IMAGE_SIZE)"
	truncate -s "$IMAGE_SIZE" "$tmp/root.img"
	mke2fs -q -F -t ext4 -L wsrroot -d "$tmp/root" "$tmp/root.img"
	rm -rf "$tmp/root"
	mkdir -p "$out"
	mv "$tmp/root.img" "$out/root.img"
	touch "$out/.complete"
	say "built: $out"
	echo "$out/root.img"
}

main "$@"
