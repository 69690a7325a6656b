#!/bin/sh
# Build U-Boot for the V2P-CA9 (vexpress_ca9x4_defconfig) from Debian's own
# u-boot source package, the one u-boot-tools is built from, so that QEMU's
# vexpress-a9 can boot the FIT image through U-Boot (ci/fit-boot.sh).
# Debian ships no vexpress_ca9x4 build (u-boot-qemu has qemu_arm, the
# "virt" board, only).
#
#   ci/uboot.sh BUILD_DIR          (JOBS=N for make -jN, default 1)
#
# Writes BUILD_DIR/u-boot/u-boot.uimg.  Takes a minute or two on one core.
set -eu

build=${1:?usage: ci/uboot.sh BUILD_DIR}
dir=$(mkdir -p "$build/u-boot" && cd "$build/u-boot" && pwd)
out=$dir/u-boot.uimg
ver=$(dpkg-query -W -f='${Version}' u-boot-tools 2>/dev/null) || {
	echo "uboot: u-boot-tools is not installed (make deps)" >&2
	exit 1
}
src=$dir/src-$ver
# Built already, from this source and this script: nothing to do.
if [ -s "$out" ] && [ "$out" -nt "$0" ] && [ -d "$src" ]; then
	exit 0
fi
for tool in dpkg-source arm-linux-gnueabihf-gcc mkimage bison flex; do
	command -v $tool >/dev/null || {
		echo "uboot: $tool not found (make deps installs it)" >&2
		exit 1
	}
done

# The source package of the installed u-boot-tools.  apt-get source needs
# deb-src entries: derive them from the machine's deb entries into a
# private apt state, so the machine's own apt setup is left as it is.
if [ ! -d "$src" ]; then
	apt=$dir/apt
	rm -rf "$apt"
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache" "$apt/get"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ ! -f "$f" ] || sed 's/^Types:.*\bdeb\b.*$/Types: deb-src/' "$f" \
			> "$apt/parts/$(basename "$f")"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ ! -f "$f" ] || sed -n 's/^deb /deb-src /p' "$f" \
			>> "$apt/parts/from-lists.list"
	done
	set -- -q -o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root
	echo "uboot: fetching Debian's u-boot $ver source package"
	# a source without deb-src (a third-party repository) only warns
	apt-get "$@" update >/dev/null 2>&1 ||
		echo "uboot: apt-get update reported errors; trying anyway" >&2
	(cd "$apt/get" && apt-get "$@" source --download-only "u-boot=$ver" >/dev/null)
	# apt checked the files against the archive's signed index already;
	# dpkg-source's own signature check needs a keyring and is left out.
	rm -rf "$src.tmp"
	dpkg-source --no-check -x "$apt/get"/u-boot_*.dsc "$src.tmp" >/dev/null
	mv "$src.tmp" "$src"
	rm -rf "$apt" "$dir"/u-boot_*.orig.tar.*
fi

# vexpress_ca9x4_defconfig, plus:
#  - FIT images with sha256 (the defconfig has only legacy uImages);
#  - a default for scriptaddr, which the board's environment lacks, so
#    distro_bootcmd can load boot.scr ("load" fails without an address).
#    On a real board "setenv scriptaddr 0x67000000; saveenv" does the same.
obj=$dir/obj
mkdir -p "$obj"
export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
log=$dir/build.log
make -s -C "$src" O="$obj" vexpress_ca9x4_defconfig >"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; exit 1; }
cat >> "$obj/.config" <<'EOF'
CONFIG_FIT=y
CONFIG_SHA256=y
CONFIG_USE_PREBOOT=y
CONFIG_PREBOOT="env exists scriptaddr || setenv scriptaddr 0x67000000"
EOF
make -s -C "$src" O="$obj" olddefconfig >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; exit 1; }
for opt in CONFIG_FIT=y CONFIG_SHA256=y CONFIG_USE_PREBOOT=y; do
	grep -qx "$opt" "$obj/.config" || { echo "uboot: $opt did not stick" >&2; exit 1; }
done
echo "uboot: building vexpress_ca9x4 (make -j${JOBS:-1})"
make -s -C "$src" O="$obj" -j"${JOBS:-1}" u-boot.bin >>"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	exit 1
}

# QEMU's -kernel starts an ELF or raw "bare" image on every CPU at once.  A
# uImage marked as a Linux kernel is started the way QEMU starts Linux:
# CPU0 at its entry, CPUs 1-3 parked in QEMU's secondary pen (polling the
# SYS_FLAGS register), where the board's boot monitor would hold them; the
# kernel releases them from there as on real hardware.  Load and entry are
# the defconfig's CONFIG_TEXT_BASE.
base=$(sed -n 's/^CONFIG_TEXT_BASE=//p' "$obj/.config")
mkimage -A arm -O linux -T kernel -C none -a "$base" -e "$base" \
	-n "U-Boot vexpress_ca9x4" -d "$obj/u-boot.bin" "$out" >/dev/null
echo "uboot: $out (U-Boot $ver, text base $base)"
