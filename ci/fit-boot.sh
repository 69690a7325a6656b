#!/bin/sh
# Boot the FIT image through U-Boot on QEMU's vexpress-a9, the way a real
# V2P-CA9 boots it: U-Boot (ci/uboot.sh) runs its distro boot, which finds
# boot.scr on the SD card (sd) or fetches it by DHCP/TFTP (tftp; QEMU's
# built-in user network with restrict=on: DHCP and TFTP are answered inside
# QEMU, nothing leaves it), and the script loads the .itb and runs bootm.
# The guest runs /init with mode=demo and powers off.  Checks the console
# and prints KTAP and "fit-boot: N passed, N failed".
#
#   ci/fit-boot.sh BUILD_DIR VARIANT sd|tftp    (SMP, MEM, TIMEOUT from env)
set -eu

if [ $# -ne 3 ] || { [ "$3" != sd ] && [ "$3" != tftp ]; }; then
	echo "usage: ci/fit-boot.sh BUILD_DIR VARIANT sd|tftp" >&2
	exit 2
fi
build=$1
variant=$2
medium=$3
smp=${SMP:-4}
mem=${MEM:-512}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/initramfs/lib/ktap.sh"

uboot=$build/u-boot/u-boot.uimg
card=$build/fit/sd-$variant.img
itb=$build/fit/vexpress-ca9-$variant.itb
for f in "$uboot" "$card" "$itb" "$build/fit/boot.scr"; do
	[ -s "$f" ] || { echo "fit-boot: $f is missing (make fit-boot)" >&2; exit 1; }
done
log=$build/fit/boot-$variant-$medium.log

if [ "$medium" = sd ]; then
	# snapshot=on: the guest's writes, if any, never reach the card image
	media="--qemu-arg=-drive --qemu-arg=if=sd,format=raw,snapshot=on,file=$card
		--qemu-arg=-nic --qemu-arg=none"
	tftp=""
else
	# the server's files: boot.scr under distro boot's name for it
	tftp=$(mktemp -d)
	trap 'rm -rf "$tftp"' EXIT
	cp "$build/fit/boot.scr" "$tftp/boot.scr.uimg"
	cp "$itb" "$tftp/vexpress-ca9.itb"
	media="--qemu-arg=-nic --qemu-arg=user,restrict=on,tftp=$tftp"
fi

echo "fit-boot: U-Boot on vexpress-a9 (-smp $smp -m $mem), FIT from $medium;" \
	"console in $log"
rc=0
# The launcher (boot/qemu.py): its time-out, panic detection and exit
# statuses, as every other boot.  U-Boot is the "kernel"; it loads the
# FIT's own DTB, initramfs and command line.
# shellcheck disable=SC2086
python3 "$top/boot/qemu.py" --kernel "$uboot" --smp "$smp" --mem "$mem" \
	--timeout "${TIMEOUT:-600}" --log "$log" --quiet $media \
	</dev/null || rc=$?

# has TEXT: the console shows this fixed string
has() { grep -qF -- "$1" "$log"; }

ktap_plan 9
ktap_check "U-Boot started" has "U-Boot 20"
if [ "$medium" = sd ]; then
	ktap_check "distro boot ran boot.scr from the SD card, FIT read from it" \
		has "boot.scr: load mmc 0:1 0x68000000 /vexpress-ca9.itb"
else
	ktap_check "distro boot fetched boot.scr by TFTP, FIT fetched by TFTP" \
		has "boot.scr: tftpboot 0x68000000 vexpress-ca9.itb"
fi
ktap_check "bootm used conf-vexpress-v2p-ca9" \
	has "Using 'conf-vexpress-v2p-ca9' configuration"
ktap_eq "sha256 and crc32 of kernel, ramdisk, fdt verified by U-Boot" \
	"$(grep -c 'Verifying Hash Integrity \.\.\. sha256+ crc32+ OK' "$log")" 3
ktap_check "U-Boot started the kernel" has "Starting kernel ..."
ktap_check "kernel command line from boot.scr" \
	has "Kernel command line: console=ttyAMA0,38400n8 mode=demo"
ktap_check "all $smp CPUs up" has "smp: Brought up 1 node, $smp CPU"
ktap_check "/init ran the demo (cpufreq policy shown)" \
	has "=== cpufreq policy0: driver cpufreq-dt"
if [ $rc = 0 ] && has "init: powering off"; then
	ktap_ok "the guest powered off by itself"
else
	ktap_diag "launcher exit status $rc (3: the guest panicked; 124: killed after ${TIMEOUT:-600} s)"
	ktap_fail "the guest powered off by itself"
fi
echo "fit-boot: $((KTAP_N - KTAP_FAILED)) passed, $KTAP_FAILED failed"
ktap_done
