#!/bin/sh
# Host test of the FIT image and boot script that ci/fit.sh built: what
# "mkimage -l" lists, and every part extracted again with dumpimage and
# compared byte for byte with the build's own files.  Prints KTAP and
# "fit: N passed, N failed"; exits non-zero on any failure.
#
#   ci/fit-test.sh BUILD_DIR VARIANT
set -eu

if [ $# -ne 2 ]; then
	echo "usage: ci/fit-test.sh BUILD_DIR VARIANT" >&2
	exit 2
fi
build=$1
variant=$2
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/initramfs/lib/ktap.sh"

itb=$build/fit/vexpress-ca9-$variant.itb
scr=$build/fit/boot.scr
cmd=$top/boot/boot.cmd
for f in "$itb" "$scr"; do
	[ -s "$f" ] || { echo "fit-test: $f is missing (make fit VARIANT=$variant)" >&2; exit 1; }
done
command -v dumpimage >/dev/null || { echo "fit-test: dumpimage not found (u-boot-tools)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkimage -l "$itb" >"$tmp/list"

# field NAME KEY [NTH]: the value of "KEY:" in the listing of image NAME
# ("Image N (NAME)"), the NTH one if the key repeats (hashes).
field() {
	awk -v name="($1)" -v key="$2:" -v nth="${3:-1}" '
		/^ Image [0-9]+ \(/ { cur = $3; n = 0; next }
		/^ (Default )?Configuration/ { cur = "" }
		cur == name && index($0, key) {
			if (++n == nth) { sub(/^[^:]*:[ \t]*/, ""); print; exit }
		}' "$tmp/list"
}

# sha256 NAME: the sha256 hash mkimage lists for image NAME.
sha256() {
	n=1
	while algo=$(field "$1" "Hash algo" $n) && [ -n "$algo" ]; do
		[ "$algo" = sha256 ] && { field "$1" "Hash value" $n; return; }
		n=$((n + 1))
	done
}

ktap_plan 15

# Each part: listed with its type, uncompressed, with a sha256 equal to the
# input's; extracted by index, equal to the input byte for byte.
check_part() {
	name=$1 type=$2 file=$3
	idx=$(sed -n "s/^ Image \([0-9]*\) ($name)\$/\1/p" "$tmp/list")
	if [ -n "$idx" ] && [ "$(field "$name" Type)" = "$type" ] &&
		[ "$(field "$name" Compression)" = uncompressed ]; then
		ktap_ok "$name: listed as image $idx, $type, uncompressed"
	else
		ktap_diag "$name: index '$idx', type '$(field "$name" Type)'," \
			"compression '$(field "$name" Compression)'"
		ktap_fail "$name: listed as image N, $type, uncompressed"
	fi
	ktap_eq "$name: listed sha256 is the sha256 of $file" \
		"$(sha256 "$name")" "$(sha256sum <"$file" | cut -d' ' -f1)"
	rm -f "$tmp/part"
	if [ -n "$idx" ] &&
		dumpimage -T flat_dt -p "$idx" -o "$tmp/part" "$itb" >/dev/null &&
		cmp "$tmp/part" "$file"; then
		ktap_ok "$name: dumpimage -p $idx equals $file"
	else
		ktap_fail "$name: dumpimage -p ${idx:-?} equals $file"
	fi
}
check_part kernel "Kernel Image" "$build/obj-$variant/arch/arm/boot/zImage"
check_part fdt "Flat Device Tree" "$build/vexpress-v2p-ca9-cpufreq.dtb"
check_part ramdisk "RAMDisk Image" "$build/initramfs-$variant.cpio.gz"

extract3() { dumpimage -T flat_dt -p 3 -o "$tmp/part" "$itb" >/dev/null 2>&1; }
ktap_fails "the image has no fourth part" extract3

# The configuration boot.scr boots is the default and holds all three.
conf=$(sed -n 's/^[ \t]*bootm .*#\(conf-[^ ]*\).*/\1/p' "$cmd")
ktap_eq "default configuration is boot.cmd's" \
	"$(sed -n 's/^ Default Configuration: .\(.*\).$/\1/p' "$tmp/list")" "$conf"
parts=$(awk -v c="($conf)" '
	/^ Configuration [0-9]+ / { on = ($3 == c); next }
	on && /^  (Kernel|Init Ramdisk|FDT):/ { sub(/^ +/, ""); printf "%s;", $0 }' \
	"$tmp/list" | tr -s ' ')
ktap_eq "$conf has kernel, ramdisk and fdt" "$parts" \
	"Kernel: kernel;Init Ramdisk: ramdisk;FDT: fdt;"

# Memory layout (see boot/vexpress-ca9.its): the zImage is loaded and
# entered at one address, above the end of the kernel it decompresses to
# 0x60008000 (PHYS_OFFSET 0x60000000 + _end - PAGE_OFFSET 0x80000000), and
# ends below where boot.scr loads the .itb.
load=$(field kernel "Load Address")
entry=$(field kernel "Entry Point")
kend=$(awk '$3 == "_end" { print "0x" $1 }' "$build/obj-$variant/System.map")
fit_addr=$(sed -n 's/^setenv fit_addr \(0x[0-9a-fA-F]*\)$/\1/p' "$cmd")
zsize=$(stat -c %s "$build/obj-$variant/arch/arm/boot/zImage")
if [ -n "$load" ] && [ "$load" = "$entry" ] && [ -n "$kend" ] && [ -n "$fit_addr" ] &&
	[ $((load)) -ge $((kend - 0x80000000 + 0x60000000)) ] &&
	[ $((load + zsize)) -le $((fit_addr)) ]; then
	ktap_ok "zImage at $load: above the kernel's end, below the .itb at $fit_addr"
else
	ktap_diag "load '$load' entry '$entry' _end '$kend' size $zsize fit_addr '$fit_addr'"
	ktap_fail "zImage load address clear of the kernel and the .itb"
fi

# boot.scr: a legacy script image whose one part is boot/boot.cmd;
# dumpimage keeps the image's table of part lengths (one 32-bit big-endian
# length, then a zero word) in front of it.
mkimage -l "$scr" >"$tmp/list.scr"
ktap_check "boot.scr: mkimage -l lists an ARM script" \
	grep -q "^Image Type: *ARM Linux Script (uncompressed)" "$tmp/list.scr"
rm -f "$tmp/part"
dumpimage -T script -p 0 -o "$tmp/part" "$scr" >/dev/null || true
len=$(od -A n -t u1 -N 4 "$tmp/part" 2>/dev/null |
	awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
if [ "$len" = "$(stat -c %s "$cmd")" ] && tail -c +9 "$tmp/part" | cmp - "$cmd"; then
	ktap_ok "boot.scr: dumpimage -T script -p 0 holds boot/boot.cmd"
else
	ktap_diag "boot.scr: part length '$len', boot.cmd $(stat -c %s "$cmd") bytes"
	ktap_fail "boot.scr: dumpimage -T script -p 0 holds boot/boot.cmd"
fi

echo "fit: $((KTAP_N - KTAP_FAILED)) passed, $KTAP_FAILED failed"
ktap_done
