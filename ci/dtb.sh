#!/bin/sh
# Build a board device tree with dtc, through the kernel's own dts include
# path (so it can #include the upstream vexpress-v2p-ca9.dts).
#
#   ci/dtb.sh BUILD_DIR SOURCE.dts OUTPUT.dtb
set -eu

build=$1
dts=$2
dtb=$3
k=$build/linux

if [ -f "$dtb" ] && [ "$dtb" -nt "$dts" ] && [ "$dtb" -nt "$build/series.applied" ]; then
	exit 0
fi
cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
	-I "$k/include" -I "$k/arch/arm/boot/dts" \
	-I "$k/scripts/dtc/include-prefixes" \
	-o "$dtb.pre" "$dts"
dtc -q -I dts -O dtb -o "$dtb" "$dtb.pre"
rm -f "$dtb.pre"
