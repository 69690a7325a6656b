#!/bin/sh
# Prove the series is a submission: on a pristine tree unpacked from
# Debian's linux-source-6.1 tarball, every patch of kernel-patches/ (the
# cover letter aside) is checkpatch --strict --codespell clean, applies with
# git am, and the kernel builds after it (bisectable), with no compiler
# warning in the files it touches; and the C files it touches that this
# configuration compiles get no new sparse warning and no new W=1 warning,
# and the files it touches no new kernel-doc warning, than the tree before
# it had.  A patch the build reads nothing of (documentation, selftests)
# is not built again.  Prints KTAP, then "N passed, N failed"; each
# patch's time on standard error.
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

# checkpatch --codespell looks for /usr/share/codespell/dictionary.txt;
# Debian 12's codespell keeps it inside its Python package.
dict=/usr/share/codespell/dictionary.txt
[ -f "$dict" ] || dict=$(/usr/bin/python3 -c 'import os, codespell_lib
print(os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt"))' 2>/dev/null) || true
[ -f "$dict" ] || { echo "series-check: no codespell dictionary (make deps)" >&2; exit 1; }
command -v sparse >/dev/null || { echo "series-check: no sparse (make deps)" >&2; exit 1; }

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

# The module configuration (arm/module.config): the governor and its KUnit
# suite as modules, so that every patch is also built for the exports its
# modules need, and a patch to the governor alone rebuilds a module, not
# vmlinux (make check builds both configurations of the whole series).
frags="$top/arm/board.config $top/arm/trim.config $top/arm/module.config"

# kbuild LOG: configure and build the kernel as linux/ stands, into obj/.
kbuild() {
	echo "series-check: building, log in $1" >&2
	(cd "$src" && KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
		-m -O "$obj" arch/arm/configs/vexpress_defconfig $frags) > "$1" 2>&1 &&
	make -s -C "$src" O="$obj" CC="$cc" olddefconfig >> "$1" 2>&1 &&
	make -s -C "$src" O="$obj" CC="$cc" -j"$jobs" zImage modules >> "$1" 2>&1
}

# touched PATCH: the files PATCH changes, named as after it (diff headers).
touched() { sed -n 's|^diff --git a/[^ ]* b/||p' "$1" | sort -u; }

# unbuilt FILE...: true when the kernel build reads none of FILE (the
# documentation, MAINTAINERS, the selftests): the tree after such a patch
# builds as the tree before it, so it is not built again.
unbuilt() {
	for ub_f in "$@"; do
		case "$ub_f" in
		Documentation/*|MAINTAINERS|tools/testing/*) ;;
		*) return 1 ;;
		esac
	done
}

# objects FILE...: the objects that compile the C files among FILE that
# the tree has, in this configuration: a file's own object if obj/ has one,
# else the objects of its folder whose dependencies (.cmd) name it (in 6.1,
# kernel/sched/build_policy.c #includes idle.c).  Host programs under
# scripts/ aside: make builds no single objects of those.
objects() {
	for ob_f in "$@"; do
		case "$ob_f" in
		scripts/*) ;;
		*.c)
			[ -f "$src/$ob_f" ] || continue
			if [ -f "$obj/${ob_f%.c}.o" ]; then
				echo "${ob_f%.c}.o"
			else
				grep -lF -e "$src/$ob_f " -e "../linux/$ob_f " \
					"$obj/$(dirname "$ob_f")"/.*.o.cmd 2>/dev/null |
					sed "s|^$obj/||; s|/[.]\([^/]*\)[.]cmd\$|/\1|"
			fi ;;
		esac
	done | sort -u
}

# located RAW: the lines of RAW (a compiler's, sparse's or kernel-doc's
# output) that point into a file, without line and column, which a patch
# moves: sorted, they are what is compared before and after the patch.
# The files are first named from the tree's top in RAW itself: make names
# them by absolute path, the compiler under ccache (CCACHE_BASEDIR)
# relative to obj/, as ../linux/FILE (so do the objects' .cmd files).
located() {
	sed -i "s|$src/||g; s|[.][.]/linux/||g" "$1"
	sed -n -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: /\1: /p' "$1" | sort
}

# checked KIND OUT OBJ...: OBJ rebuilt once more with sparse (KIND sparse:
# make C=2, which checks an up-to-date object without compiling it again)
# or with the W=1 warnings (KIND w1: the objects are removed first, so make
# compiles them, and rebuilt after as the kernel build has them, so that
# the next make C=2 only checks them; W=1 also runs kernel-doc on the C
# files).  Output in OUT.raw, its located lines in OUT; exit status of the
# make.
checked() {
	ck_kind=$1 ck_out=$2
	shift 2
	: > "$ck_out.raw"
	ck_rc=0
	if [ $# -gt 0 ]; then
		case $ck_kind in
		sparse) make -s -C "$src" O="$obj" CC="$cc" C=2 "$@" > "$ck_out.raw" 2>&1 ||
			ck_rc=$? ;;
		w1)
			(cd "$obj" && rm -f "$@")
			make -s -C "$src" O="$obj" CC="$cc" W=1 "$@" > "$ck_out.raw" 2>&1 ||
				ck_rc=$?
			make -s -C "$src" O="$obj" CC="$cc" "$@" > "$ck_out.rebuild" 2>&1 || true
			;;
		esac
	fi
	located "$ck_out.raw" > "$ck_out"
	return $ck_rc
}

# kdoc OUT FILE...: scripts/kernel-doc -none on the C files and headers
# among FILE that the tree has; as checked.
kdoc() {
	kd_out=$1
	shift
	: > "$kd_out.raw"
	for kd_f in "$@"; do
		case "$kd_f" in *.[ch]) ;; *) continue ;; esac
		[ -f "$src/$kd_f" ] || continue
		(cd "$src" && scripts/kernel-doc -none "$kd_f") >> "$kd_out.raw" 2>&1 || true
	done
	located "$kd_out.raw" > "$kd_out"
}

# The KTAP helpers of the guest's tests (initramfs/lib/ktap.sh).
. "$top/initramfs/lib/ktap.sh"
case_result() { # OK? NAME [NOTE]: the note, a diagnostic, before a failure
	if [ "$1" = 0 ]; then
		ktap_ok "$2"
	else
		[ -z "${3:-}" ] || ktap_diag "$3"
		ktap_fail "$2"
	fi
}

# no_new NAME BEFORE AFTER: a case that passes when AFTER (located lines)
# has none that BEFORE has not; the new ones are shown as they were printed.
no_new() {
	comm -13 "$2" "$3" > "$3.new"
	if [ -s "$3.new" ]; then
		awk 'NR == FNR { new[$0]; next }
			{ k = $0; sub(/:[0-9]+(:[0-9]+)?: /, ": ", k); if (k in new) print "# " $0 }' \
			"$3.new" "$3.raw"
		case_result 1 "$1" "$(wc -l < "$3.new") new warning lines, see $3.raw"
	else
		case_result 0 "$1"
	fi
}

# The tree before the first patch is built too, so that every patch's
# sparse and W=1 cases have the objects of the tree before it to compare
# with.  (That build is the cold one; the first patch's is incremental.)
if ! kbuild "$log/base.build"; then
	tail -20 "$log/base.build" >&2
	echo "series-check: the pristine tree does not build, see $log/base.build" >&2
	exit 1
fi

ktap_plan $((n * 6))
k=0
prev_objs=- prev_name=
for p in $patches; do
	k=$((k + 1))
	name=$(basename "$p" .patch)
	t0=$(date +%s)
	(cd "$src" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q \
		--codespell --codespellfile "$dict" "$p") > "$log/$name.checkpatch" 2>&1 || true
	# checkpatch exits 0 with CHECKs left (and 1 with the others): count
	# every report.
	reports=$(grep -Ec '^(ERROR|WARNING|CHECK):' "$log/$name.checkpatch" || true)
	case_result "$reports" "$name: checkpatch --strict --codespell clean" \
		"$reports reports, see $log/$name.checkpatch"

	# Before the patch: sparse, W=1 and kernel-doc on the files it touches,
	# in the tree before it (built: the previous patch's build, or the
	# pristine tree's).
	files=$(touched "$p")
	# shellcheck disable=SC2086
	objs=$(objects $files)
	# The previous patch checked the same objects after it, in this very
	# tree: its results are these (each check costs a make run).
	if [ -n "$objs" ] && [ "$objs" = "$prev_objs" ]; then
		for kind in sparse w1; do
			cp "$log/$prev_name.$kind-after" "$log/$name.$kind-before"
			cp "$log/$prev_name.$kind-after.raw" "$log/$name.$kind-before.raw"
		done
	else
		# shellcheck disable=SC2086
		checked sparse "$log/$name.sparse-before" $objs || true
		# shellcheck disable=SC2086
		checked w1 "$log/$name.w1-before" $objs || true
	fi
	# shellcheck disable=SC2086
	kdoc "$log/$name.kdoc-before" $files

	if git_k am -q "$p" > "$log/$name.am" 2>&1; then
		case_result 0 "$name: applies with git am"
	else
		case_result 1 "$name: applies with git am" "see $log/$name.am"
		git_k am --abort >/dev/null 2>&1 || true
		for c in builds "no new sparse warning" "no new W=1 warning" \
				"no new kernel-doc warning"; do
			case_result 1 "$name: $c" "not applied"
		done
		continue
	fi

	blog=$log/$name.build
	# shellcheck disable=SC2086
	if unbuilt $files; then
		built=1
		ktap_skip "$name: builds" "the build reads none of its files"
	elif kbuild "$blog"; then
		built=1
		# Compiler warnings in a file this patch touches.
		stems=$(git_k diff --name-only HEAD~1 HEAD | sed 's/[.][ch]$//' | sort -u)
		warn=$(grep -F ': warning:' "$blog" | while IFS= read -r w; do
			for f in $stems; do
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
		built=0
		tail -20 "$blog" | sed 's/^/# /'
		case_result 1 "$name: builds" "see $blog"
	fi

	# After the patch: the same on the files it touches, now; only what was
	# not there before fails (a new file, or one this configuration did not
	# compile before, had nothing before).
	# shellcheck disable=SC2086
	objs=$(objects $files)
	for kind in sparse w1; do
		case $kind in sparse) what=sparse ;; w1) what=W=1 ;; esac
		after=$log/$name.$kind-after
		rc=0
		# shellcheck disable=SC2086
		[ $built = 0 ] || checked $kind "$after" $objs || rc=$?
		if [ $built = 0 ]; then
			case_result 1 "$name: no new $what warning" "not built"
		elif [ $rc != 0 ]; then
			sed 's/^/# /' "$after.raw" | tail -20
			case_result 1 "$name: no new $what warning" "make failed, see $after.raw"
		else
			no_new "$name: no new $what warning" "$log/$name.$kind-before" "$after"
		fi
	done
	# shellcheck disable=SC2086
	kdoc "$log/$name.kdoc-after" $files
	no_new "$name: no new kernel-doc warning" \
		"$log/$name.kdoc-before" "$log/$name.kdoc-after"
	prev_objs=$objs prev_name=$name
	[ $built = 1 ] || prev_objs=-
	echo "series-check: $name took $(($(date +%s) - t0)) s" >&2
done
echo "$((KTAP_N - KTAP_FAILED)) passed, $KTAP_FAILED failed"
[ "$KTAP_FAILED" = 0 ] && [ "$KTAP_N" = "$KTAP_PLANNED" ]
