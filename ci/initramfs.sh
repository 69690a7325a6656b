#!/bin/sh
# Assemble the guest's initramfs: busybox, /init, the demo, the in-guest
# tests and their C helpers (static ARM binaries), the kernel's modules
# and the out-of-tree test modules of initramfs/modules/.
#
#   ci/initramfs.sh BUILD_DIR VARIANT [EXTRA_TESTS_DIR]
#
# Writes BUILD_DIR/initramfs-VARIANT.cpio.gz.
set -eu

build=$(cd "$1" && pwd)
# One kernel build at a time per build folder (the machine has 2 cores;
# parallel "make" runs in one object folder corrupt it).
mkdir -p "$build"
exec 9>"$build/.kbuild.lock"
flock 9
variant=$2
extra=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$build/linux
obj=$build/obj-$variant
stage=$build/initramfs-$variant
out=$build/initramfs-$variant.cpio.gz
export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
cc="arm-linux-gnueabihf-gcc"
command -v ccache >/dev/null && cc="ccache $cc"

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/usr/bin" "$stage/lib" "$stage/tests" \
	"$stage/extra-tests" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp"
cp "$build/busybox/bin/busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
# bash and the kernel's own cpufreq selftests, unchanged, for
# tests/50-kselftest-cpufreq.sh.
cp "$build/bash-static/bin/bash-static" "$stage/bin/bash"
mkdir -p "$stage/kselftest"
cp -r "$src/tools/testing/selftests/cpufreq" "$stage/kselftest/cpufreq"
for f in init demo.sh run-tests.sh bench.sh soak.sh; do
	[ -f "$top/initramfs/$f" ] && install -m 755 "$top/initramfs/$f" "$stage/$f"
done
cp "$top"/initramfs/lib/*.sh "$top"/initramfs/lib/tunables.tab "$stage/lib/"
# What makes a kernel log unclean, from the host's list, for the guest's
# own scans (lib/health.sh).
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import check; print("|".join(check.SPLATS))' \
	"$top/ci" > "$stage/lib/splat.re"
for t in "$top"/initramfs/tests/*; do
	[ -f "$t" ] && install -m 755 "$t" "$stage/tests/"
done
# rt-app (Debian's armhf build) with the loader and libraries it links,
# its example workloads and ours, for the benchmark's rtapp part.
rt=$build/rt-app
install -m 755 "$rt/usr/bin/rt-app" "$stage/usr/bin/rt-app"
mkdir -p "$stage/lib/arm-linux-gnueabihf" "$stage/usr/share/rt-app"
cp -L "$rt/lib/ld-linux-armhf.so.3" "$stage/lib/"
for l in libc.so.6 libm.so.6 libpthread.so.0 libgcc_s.so.1; do
	cp -L "$rt/lib/arm-linux-gnueabihf/$l" "$stage/lib/arm-linux-gnueabihf/"
done
cp -L "$rt/usr/lib/arm-linux-gnueabihf/libjson-c.so.5" "$stage/lib/arm-linux-gnueabihf/"
for w in browser-short mp3-short video-short; do
	cp "$rt/usr/share/doc/rt-app/examples/$w.json" "$stage/usr/share/rt-app/"
done
cp "$top"/initramfs/rtapp/*.json "$stage/usr/share/rt-app/"
# The benchmark's parts, run by /bench.sh (make bench).
mkdir -p "$stage/bench"
for b in "$top"/initramfs/bench/*; do
	[ -f "$b" ] && install -m 755 "$b" "$stage/bench/"
done

# Guest helpers: every initramfs/src/NAME.c becomes /usr/bin/NAME.
mkdir -p "$build/guest-bin"
for c in "$top"/initramfs/src/*.c; do
	[ -f "$c" ] || continue
	b=$build/guest-bin/$(basename "$c" .c)
	if [ ! -f "$b" ] || [ "$c" -nt "$b" ]; then
		$cc -static -O2 -Wall -Wextra -Werror -o "$b" "$c"
	fi
	install -m 755 "$b" "$stage/usr/bin/"
done

# Kernel modules, and the test modules built against this kernel.
make -s -C "$src" O="$obj" INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 \
	modules_install
kver=$(cat "$obj/include/config/kernel.release")
for m in "$top"/initramfs/modules/*/; do
	[ -f "$m/Makefile" ] || continue
	name=$(basename "$m")
	mb=$build/modules-$variant/$name
	mkdir -p "$mb"
	cp "$m"/* "$mb/"
	make -s -C "$src" O="$obj" CC="$cc" M="$mb" modules
	mkdir -p "$stage/lib/modules/$kver/extra"
	for ko in "$mb"/*.ko; do
		"${CROSS_COMPILE}strip" --strip-debug -o "$stage/lib/modules/$kver/extra/$(basename "$ko")" "$ko"
	done
done
depmod -b "$stage" "$kver"

if [ -n "$extra" ]; then
	[ -d "$extra" ] || { echo "initramfs: EXTRA_TESTS=$extra is not a folder" >&2; exit 1; }
	found=0
	for t in "$extra"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		install -m 755 "$t" "$stage/extra-tests/"
		found=1
	done
	[ $found = 1 ] || { echo "initramfs: EXTRA_TESTS=$extra has no executable file" >&2; exit 1; }
fi

# Reproducible: the same files make the same bytes (one time for every
# file, no inode or device numbers, no name or time in the gzip header),
# so a rebuild of an unchanged tree keeps the image's sha256, by which
# ci/lava.py matches a LAVA run to make check's results.
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n -1 > "$out.tmp"
if cmp -s "$out.tmp" "$out"; then
	rm "$out.tmp"
else
	mv "$out.tmp" "$out"
fi
