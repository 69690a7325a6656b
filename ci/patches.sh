#!/bin/sh
# Export the kernel tree's commits on top of "base" back into
# kernel-patches/ with git format-patch, refresh the shortlog and diffstat
# of the hand-written cover letter (0000-cover-letter.patch, see
# ci/cover.py), and record the tree as in sync.
#
#   ci/patches.sh BUILD_DIR
set -eu

build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
src=$build/linux

[ -d "$src/.git" ] || { echo "patches: no kernel tree in $src" >&2; exit 1; }
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	echo "patches: $src has uncommitted changes; commit them first" >&2
	exit 1
fi

out=$(mktemp -d)
git -C "$src" format-patch -q --zero-commit --no-signature -o "$out" base..HEAD
for p in "$top"/kernel-patches/[0-9]*.patch; do
	[ -e "$p" ] || continue
	case "$(basename "$p")" in 0000-*) ;; *) rm -f "$p" ;; esac
done
mkdir -p "$top/kernel-patches"
cp "$out"/*.patch "$top/kernel-patches/" 2>/dev/null || true
rm -rf "$out"
python3 "$top/ci/cover.py" "$src" "$top/kernel-patches"
# The tree and the series are in sync: record it as ci/tree.sh does.
h=$(git -C "$src" format-patch --zero-commit --no-signature --stdout base..HEAD |
	sha256sum | cut -d' ' -f1)
echo "$h" > "$build/series.applied.tree"
for p in "$top"/kernel-patches/[0-9]*.patch; do
	case "$(basename "$p")" in 0000-*) ;; *) cat "$p" ;; esac
done | sha256sum | cut -d' ' -f1 > "$build/series.applied"
ls "$top/kernel-patches"
