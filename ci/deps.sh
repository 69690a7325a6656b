#!/bin/sh
# Install what the build, the board and the tests need, from Debian's
# archive only, and unpack the board's busybox into the build folder.
#
#   ci/deps.sh [--check] BUILD_DIR
#
# With --check, only report what is missing (exit 1) and the exact apt-get
# line to run.  Without it, install what is missing (needs root).
set -eu

check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
build=${1:-build}

# libc6-dev-armhf-cross: the guest tools' libc headers (only a Recommends of the
# cross compiler, which --no-install-recommends leaves out).
# u-boot-tools, fdisk, e2fsprogs: the FIT image and its SD card (ci/fit.sh);
# dpkg-dev: unpacking U-Boot's Debian source (ci/uboot.sh).
# sparse, codespell: make series-check's sparse and checkpatch --codespell.
# lava-common: LAVA's job schema, for make lava-job and its host test.
pkgs="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross linux-source-6.1 qemu-system-arm
device-tree-compiler u-boot-tools fdisk e2fsprogs dpkg-dev bc bison flex
libssl-dev cpio ccache sparse codespell
make gcc libc6-dev python3 git xz-utils kmod gnuplot-nox
python3-ply python3-git lava-common"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

bbdir="$build/busybox"
need_bb=0
[ -x "$bbdir/bin/busybox" ] || need_bb=1
# bash for the kernel's own cpufreq selftests (tools/testing/selftests/cpufreq).
bashdir="$build/bash-static"
need_bash=0
[ -x "$bashdir/bin/bash-static" ] || need_bash=1

# rt-app, the scheduler community's workload player, for the benchmark's
# rtapp part: Debian's armhf build with the libraries it links (glibc,
# json-c, and libgcc_s, which glibc loads for pthread_exit) and its example
# workloads.
rtdir="$build/rt-app"
need_rt=0
[ -x "$rtdir/usr/bin/rt-app" ] || need_rt=1
# glibc's pthread_exit loads libgcc_s to unwind the thread.
[ -f "$rtdir/lib/arm-linux-gnueabihf/libgcc_s.so.1" ] || need_rt=1

if [ -z "$missing" ] && [ $need_bb = 0 ] && [ $need_bash = 0 ] &&
	[ $need_rt = 0 ]; then
	exit 0
fi

if [ $check = 1 ]; then
	[ -n "$missing" ] && echo "missing packages:$missing" >&2 &&
		echo "install them with: apt-get install -y$missing" >&2
	[ $need_bb = 1 ] && echo "missing: board busybox in $bbdir" >&2
	[ $need_bash = 1 ] && echo "missing: board bash in $bashdir" >&2
	[ $need_rt = 1 ] && echo "missing: board rt-app in $rtdir" >&2
	exit 1
fi

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else
		echo "error: need root to run: $*" >&2
		exit 1
	fi
}

# apt_update: refresh the package lists.  A mirror caught mid-sync fails one
# index ("File has unexpected size"); retry a few times, then go on with the
# lists apt has: the install or download after it is what must succeed.
apt_update() {
	for try in 1 2 3; do
		as_root apt-get update -q && return 0
		echo "deps: apt-get update failed (try $try of 3)" >&2
		[ $try = 3 ] || sleep 10
	done
	echo "deps: going on with the package lists apt has" >&2
}

arch_ok=0
dpkg --print-foreign-architectures | grep -qx armhf && arch_ok=1
if [ $arch_ok = 0 ]; then
	echo "deps: adding the armhf architecture (for busybox-static:armhf)"
	as_root dpkg --add-architecture armhf
fi

if [ -n "$missing" ] || [ $arch_ok = 0 ]; then
	echo "deps: apt-get install$missing"
	apt_update
	# shellcheck disable=SC2086
	[ -z "$missing" ] || as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $missing
fi

# fetch_armhf "PACKAGE..." DIR FILE: unpack Debian's PACKAGE:armhf (each
# of them) into DIR, which must then hold the executable DIR/FILE.
fetch_armhf() {
	echo "deps: fetching $1 (armhf) from the Debian archive"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	arch_pkgs=$(for p in $1; do printf '%s:armhf ' "$p"; done)
	# shellcheck disable=SC2086
	if ! (cd "$tmp" && apt-get download -q $arch_pkgs >/dev/null); then
		apt_update
		(cd "$tmp" && apt-get download -q $arch_pkgs >/dev/null)
	fi
	rm -rf "$2"
	mkdir -p "$2"
	for p in $1; do
		dpkg -x "$tmp/$p"_*_armhf.deb "$2"
	done
	rm -rf "$tmp"
	[ -x "$2/$3" ] || { echo "deps: $3 missing after unpacking $1" >&2; exit 1; }
}

[ $need_bb = 0 ] || fetch_armhf busybox-static "$bbdir" bin/busybox
[ $need_bash = 0 ] || fetch_armhf bash-static "$bashdir" bin/bash-static
[ $need_rt = 0 ] || fetch_armhf "rt-app libjson-c5 libc6 libgcc-s1" "$rtdir" usr/bin/rt-app
