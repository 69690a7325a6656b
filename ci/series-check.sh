#!/bin/sh
# Prove the series is a submission: on a pristine tree unpacked from
# Debian's linux-source-6.1 tarball, every patch of kernel-patches/ (the
# cover letter aside) is checkpatch --strict clean, applies with git am,
# and the kernel builds after it (bisectable), with no compiler warning in
# the files it touches.  Prints KTAP, then "N passed, N failed".
#
#   ci/series-check.sh BUILD_DIR
#
# The tree and objects live in BUILD_DIR/series-check/ (linux/, obj/), laid
# out like BUILD_DIR/linux and BUILD_DIR/obj-*, so ccache (with
# CCACHE_BASEDIR) reuses the objects of the normal builds.
set -eu

build=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
sc=$build/series-check
src=$sc/linux
obj=$sc/obj
log=$sc/log
jobs=${JOBS:-$(( $(nproc) + 1 ))}

mkdir -p "$build"
exec 9>"$build/.kbuild.lock"
flock 9

export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
export CCACHE_BASEDIR=$build
cc="arm-linux-gnueabihf-gcc"
command -v ccache >/dev/null && cc="ccache $cc"
git_k() { git -C "$src" -c user.name=series-check -c user.email=series-check@localhost "$@"; }

patches=""
for p in "$top"/kernel-patches/[0-9]*.patch; do
	case "$(basename "$p")" in 0000-*) ;; *) patches="$patches $p" ;; esac
done
n=0
for p in $patches; do n=$((n + 1)); done
[ $n -gt 0 ] || { echo "series-check: no patches in kernel-patches/" >&2; exit 1; }

echo "series-check: unpacking a pristine tree into $src" >&2
rm -rf "$src" "$sc/linux-source-6.1" "$log"
mkdir -p "$sc" "$obj" "$log"
tar -C "$sc" -xf "$tarball"
mv "$sc/linux-source-6.1" "$src"
git_k init -q
git_k add -A -f
git_k commit -q -m base

frags="$top/arm/board.config $top/arm/trim.config $top/arm/builtin.config"
pass=0
fail=0
i=0
echo "KTAP version 1"
echo "1..$((n * 3))"
case_result() { # OK? NAME [NOTE]
	i=$((i + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $i - $2"
	else
		fail=$((fail + 1))
		echo "not ok $i - $2${3:+ # $3}"
	fi
}

k=0
for p in $patches; do
	k=$((k + 1))
	name=$(basename "$p" .patch)
	(cd "$src" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$p") > "$log/$name.checkpatch" 2>&1
	# checkpatch exits 0 with CHECKs left: count every report.
	reports=$(grep -Ec '^(ERROR|WARNING|CHECK):' "$log/$name.checkpatch" || true)
	case_result "$reports" "$name: checkpatch --strict clean" \
		"$reports reports, see $log/$name.checkpatch"

	if git_k am -q "$p" > "$log/$name.am" 2>&1; then
		case_result 0 "$name: applies with git am"
	else
		case_result 1 "$name: applies with git am" "see $log/$name.am"
		git_k am --abort >/dev/null 2>&1 || true
		i=$((i + 1)); fail=$((fail + 1))
		echo "not ok $i - $name: builds # not applied"
		continue
	fi

	echo "series-check: building after $name" >&2
	blog=$log/$name.build
	if (cd "$src" && KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
			-m -O "$obj" arch/arm/configs/vexpress_defconfig $frags) > "$blog" 2>&1 &&
	   make -s -C "$src" O="$obj" CC="$cc" olddefconfig >> "$blog" 2>&1 &&
	   make -s -C "$src" O="$obj" CC="$cc" -j"$jobs" zImage modules >> "$blog" 2>&1; then
		# Compiler warnings in a file this patch touches.
		files=$(git_k diff --name-only HEAD~1 HEAD | sed 's/[.][ch]$//' | sort -u)
		warn=$(grep -F ': warning:' "$blog" | while IFS= read -r w; do
			for f in $files; do
				case "$w" in *"$f".[ch]:*) echo "$w" ;; esac
			done
		done | sort -u)
		if [ -z "$warn" ]; then
			case_result 0 "$name: builds"
		else
			echo "$warn" | sed 's/^/# /'
			case_result 1 "$name: builds" "compiler warnings in its files"
		fi
	else
		tail -20 "$blog" | sed 's/^/# /'
		case_result 1 "$name: builds" "see $blog"
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
