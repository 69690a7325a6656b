#!/bin/sh
# Configure and build the board kernel, out of tree, with ccache.
#
#   ci/kernel.sh BUILD_DIR VARIANT
#
# VARIANT names fragments arm/NAME.config merged, after arm/board.config
# and arm/trim.config, onto vexpress_defconfig: "module" is
# arm/module.config, "module-debug" is arm/module.config then
# arm/debug.config.  Objects go to
# BUILD_DIR/obj-VARIANT; the result is BUILD_DIR/obj-VARIANT/arch/arm/boot/
# zImage and the modules in that tree.  Kbuild rebuilds only what changed.
set -eu

build=$1
# One kernel build at a time per build folder (the machine has 2 cores;
# parallel "make" runs in one object folder corrupt it).
mkdir -p "$build"
exec 9>"$build/.kbuild.lock"
flock 9
variant=$2
top=$(cd "$(dirname "$0")/.." && pwd)
src=$build/linux
obj=$(cd "$build" && pwd)/obj-$variant
jobs=${JOBS:-$(( $(nproc) + 1 ))}

frags="$top/arm/board.config $top/arm/trim.config"
for part in $(echo "$variant" | tr '-' ' '); do
	frags="$frags $top/arm/$part.config"
done
for f in $frags; do
	[ -f "$f" ] || { echo "kernel: no config fragment $f" >&2; exit 1; }
done

export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
# Hash paths relative to the build folder, so ccache shares objects between
# build folders laid out alike (ci/series-check.sh, fresh clones).
export CCACHE_BASEDIR="$(cd "$build" && pwd)"
cc="arm-linux-gnueabihf-gcc"
command -v ccache >/dev/null && cc="ccache $cc"
mkdir -p "$obj"

# Re-merge the configuration when a fragment changed.
cfgstamp="$obj/.config.fragments"
want=$(cat "$src/arch/arm/configs/vexpress_defconfig" $frags | sha256sum)
if [ ! -f "$obj/.config" ] || [ "$(cat "$cfgstamp" 2>/dev/null)" != "$want" ]; then
	echo "kernel: configuring $variant"
	(cd "$src" && KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
		-m -O "$obj" arch/arm/configs/vexpress_defconfig $frags >"$obj/merge.log" 2>&1)
	make -s -C "$src" O="$obj" CC="$cc" olddefconfig
	# Every option a fragment sets must survive olddefconfig.
	bad=0
	for f in $frags; do
		grep -E '^CONFIG_[A-Z0-9_]+=' "$f" | while IFS= read -r line; do
			grep -qx "$line" "$obj/.config" || echo "$line"
		done > "$obj/lost.txt"
		if [ -s "$obj/lost.txt" ]; then
			echo "kernel: $(basename "$f"): not set in the final .config:" >&2
			sed 's/^/  /' "$obj/lost.txt" >&2
			bad=1
		fi
	done
	[ $bad = 0 ] || exit 1
	echo "$want" > "$cfgstamp"
fi

echo "kernel: building $variant (make -j$jobs)"
make -s -C "$src" O="$obj" CC="$cc" -j"$jobs" zImage modules
