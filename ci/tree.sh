#!/bin/sh
# Prepare the kernel tree: Debian's linux-source-6.1 unpacked into the
# build folder as a git repository (tag "base"), with every patch of
# kernel-patches/ applied in order by git am.
#
#   ci/tree.sh BUILD_DIR
#
# The tree is only touched when the series changed since it was applied
# (a hash of the patches is kept in BUILD_DIR/series.applied), so an
# unchanged series never re-unpacks or rebuilds.  A changed series is
# re-applied on the base with git reset --hard, which only rewrites the
# files that differ, so the next kernel build stays incremental.  Work in
# progress in the tree is never thrown away: if the tree has uncommitted
# changes or commits that are not in kernel-patches/, the script stops and
# says to run "make patches" (or to discard them) first.
set -eu

build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
src=$build/linux
tarball=/usr/src/linux-source-6.1.tar.xz
stamp=$build/series.applied

series_files() {
	for p in "$top"/kernel-patches/[0-9]*.patch; do
		[ -e "$p" ] || continue
		case "$(basename "$p")" in 0000-*) ;; *) echo "$p" ;; esac
	done
}

series_hash() {
	series_files | while read -r p; do cat "$p"; done | sha256sum | cut -d' ' -f1
}

# What the tree's commits on base look like as patches, as a hash.
tree_hash() {
	git_k format-patch --zero-commit --no-signature --stdout base..HEAD |
		sha256sum | cut -d' ' -f1
}

git_k() { git -C "$src" -c user.name="kernel-tree" -c user.email="kernel-tree@localhost" "$@"; }

# Debian's top-level .gitignore ignores everything ("/*"), so git add
# refuses every path of the tree.  Drop those lines from the working copy
# only, marked skip-worktree so the change never shows in a commit.
unhide() {
	git_k update-index --skip-worktree .gitignore
	sed -i '/^# Debian packaging/,$d' "$src/.gitignore"
}

if [ ! -d "$src/.git" ]; then
	[ -f "$tarball" ] || { echo "tree: $tarball missing: run make deps" >&2; exit 1; }
	echo "tree: unpacking $tarball"
	rm -rf "$src" "$build/linux-source-6.1"
	mkdir -p "$build"
	tar -C "$build" -xf "$tarball"
	mv "$build/linux-source-6.1" "$src"
	echo "tree: recording the base commit"
	git_k init -q
	# Debian's top-level .gitignore ignores everything: force-add.
	git_k add -A -f
	git_k commit -q -m "Linux $(make -s -C "$src" kernelversion) (Debian linux-source-6.1)"
	git_k tag base
	rm -f "$stamp" "$stamp.tree"
	unhide
fi

want=$(series_hash)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

# Refuse to discard work: uncommitted changes, or commits made since the
# series was last applied or exported.
if [ -n "$(git_k status --porcelain --untracked-files=no)" ]; then
	echo "tree: $src has uncommitted changes; commit them and run 'make patches'," >&2
	echo "tree: or discard them (git -C $src reset --hard), then retry" >&2
	exit 1
fi
have=$(tree_hash)
if [ "$have" = "$want" ]; then
	echo "$want" > "$stamp"
	echo "$have" > "$stamp.tree"
	exit 0
fi
if [ -f "$stamp.tree" ] && [ "$(cat "$stamp.tree")" != "$have" ]; then
	echo "tree: $src has commits not exported to kernel-patches/;" >&2
	echo "tree: run 'make patches' to keep them, or 'git -C $src reset --hard base' to drop them" >&2
	exit 1
fi

echo "tree: applying kernel-patches/ on base"
git_k reset -q --hard base
for p in $(series_files); do
	if ! git_k am -q --keep-cr "$p"; then
		git_k am --abort || true
		echo "tree: $(basename "$p") does not apply" >&2
		exit 1
	fi
done
unhide
echo "$want" > "$stamp"
tree_hash > "$stamp.tree"
echo "tree: $(git_k rev-list --count base..HEAD) patches applied"
