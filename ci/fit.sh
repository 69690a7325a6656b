#!/bin/sh
# Build the U-Boot FIT image of one kernel variant and the U-Boot boot
# script for a real (or emulated) V2P-CA9 board.
#
#   ci/fit.sh BUILD_DIR VARIANT
#
# Reads  BUILD_DIR/obj-VARIANT/arch/arm/boot/zImage,
#        BUILD_DIR/vexpress-v2p-ca9-cpufreq.dtb,
#        BUILD_DIR/initramfs-VARIANT.cpio.gz
# Writes BUILD_DIR/fit/vexpress-ca9-VARIANT.itb  (boot/vexpress-ca9.its)
#        BUILD_DIR/fit/boot.scr                  (boot/boot.cmd)
#        BUILD_DIR/fit/sd-VARIANT.img  an SD card: one ext2 partition with
#                  boot.scr and the FIT as vexpress-ca9.itb, for U-Boot's
#                  distro boot (ci/fit-boot.sh boots it in QEMU)
set -eu

if [ $# -ne 2 ]; then
	echo "usage: ci/fit.sh BUILD_DIR VARIANT" >&2
	exit 2
fi
build=$1
variant=$2
top=$(cd "$(dirname "$0")/.." && pwd)

for tool in mkimage sfdisk mke2fs; do
	command -v $tool >/dev/null || {
		echo "fit: $tool not found (make deps installs u-boot-tools," \
			"fdisk, e2fsprogs)" >&2
		exit 1
	}
done

zimage=$build/obj-$variant/arch/arm/boot/zImage
dtb=$build/vexpress-v2p-ca9-cpufreq.dtb
initrd=$build/initramfs-$variant.cpio.gz
for f in "$zimage" "$dtb" "$initrd"; do
	[ -s "$f" ] || { echo "fit: $f is missing (make VARIANT=$variant all)" >&2; exit 1; }
done

out=$build/fit
stage=$out/$variant
itb=$out/vexpress-ca9-$variant.itb
rm -rf "$stage"
mkdir -p "$stage"

# The .its names its parts by file name; stage them beside a copy of it so
# dtc's /incbin/ finds them whatever the build folder is called.
cp "$zimage" "$stage/zImage"
cp "$dtb" "$stage/vexpress-v2p-ca9-cpufreq.dtb"
cp "$initrd" "$stage/initramfs.cpio.gz"
cp "$top/boot/vexpress-ca9.its" "$stage/vexpress-ca9.its"

# The image's timestamp: the newest part's, so equal inputs give an equal
# image (mkimage honours SOURCE_DATE_EPOCH).
SOURCE_DATE_EPOCH=$(stat -c %Y "$zimage" "$dtb" "$initrd" | sort -n | tail -n 1)
export SOURCE_DATE_EPOCH

(cd "$stage" && mkimage -f vexpress-ca9.its vexpress-ca9.itb >/dev/null)
mv "$stage/vexpress-ca9.itb" "$itb"
mkimage -A arm -O linux -T script -C none -n "V2P-CA9 FIT boot" \
	-d "$top/boot/boot.cmd" "$out/boot.scr" >/dev/null
echo "fit: $itb ($(stat -c %s "$itb") bytes), $out/boot.scr"

# An SD card image for the board's MMC slot: an MBR with one Linux
# partition from 1 MiB, ext2 (U-Boot reads it; mke2fs -d fills it without
# root or loop devices).  QEMU wants a card size that is a power of two.
card=$out/sd-$variant.img
files=$stage/card
mkdir -p "$files"
cp "$out/boot.scr" "$files/boot.scr"
cp "$itb" "$files/vexpress-ca9.itb"
need=$(( $(du -sk "$files" | cut -f1) + 2048 ))
size=16384
while [ $size -lt $(( need * 5 / 4 + 1024 )) ]; do size=$((size * 2)); done
rm -f "$card"
truncate -s ${size}K "$card"
echo 'start=2048, type=83, bootable' | sfdisk -q "$card"
mke2fs -q -F -t ext2 -L boot -d "$files" -E offset=1048576 "$card" \
	$(( size - 1024 ))k
rm -rf "$files"
echo "fit: $card (${size} KiB, partition 1: boot.scr, vexpress-ca9.itb)"
