#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prepare-tree.sh KSRC PATCHDIR
#
# Extract Debian's linux-source-$KVER into KSRC once, commit it as the pristine
# base (tag "pristine"), and keep KSRC at "pristine + every patch of the
# series PATCHDIR" (lib.sh's series_patches(): one posting, or one
# subdirectory per posting in merge order) applied with git am. When the series changes, the tree is reset to the
# pristine commit and the series re-applied; files whose content came out the
# same get their old mtime back so that kbuild rebuilds only what changed.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

ksrc=$(realpath -m "$1")
patchdir=$(realpath -m "$2")
git_id=(-c user.name=pci-mwi -c user.email=pci-mwi@localhost)

extract_pristine() {
	local tarball tmp
	tarball=$(kernel_tarball)
	tmp="$ksrc.tmp"
	say "extracting $tarball into $ksrc"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q
	git -C "$tmp" add -A -f .
	git -C "$tmp" "${git_id[@]}" commit -q -m "linux-source-$(kver) $(kernel_version "$tmp") (pristine)"
	git -C "$tmp" tag pristine
	mv "$tmp" "$ksrc"
}

series_id() {
	series_patches "$patchdir" | while IFS= read -r p; do cat "$p"; done |
		sha256sum | cut -d' ' -f1
}

# Remember "blob mtime path" of every file the current series touches.
save_patched_files() {
	git -C "$ksrc" diff --name-only pristine HEAD | while IFS= read -r f; do
		[ -f "$ksrc/$f" ] || continue
		printf '%s %s %s\n' "$(git -C "$ksrc" hash-object "$f")" \
			"$(stat -c %Y "$ksrc/$f")" "$f"
	done
}

restore_unchanged_mtimes() {
	local blob mtime f
	while read -r blob mtime f; do
		[ -f "$ksrc/$f" ] || continue
		if [ "$(git -C "$ksrc" hash-object "$f")" = "$blob" ]; then
			touch -d "@$mtime" "$ksrc/$f"
		fi
	done
}

apply_series() {
	local base p saved patches
	base=$(kernel_version "$ksrc")
	mapfile -t patches < <(series_patches "$patchdir")
	saved=$(save_patched_files)
	git -C "$ksrc" am --abort >/dev/null 2>&1 || true
	git -C "$ksrc" reset -q --hard pristine
	for p in "${patches[@]}"; do
		if ! git -C "$ksrc" "${git_id[@]}" am -q "$p" >/dev/null 2>&1; then
			git -C "$ksrc" am --abort >/dev/null 2>&1 || true
			git -C "$ksrc" reset -q --hard pristine
			rm -f "$ksrc/.git/pci-mwi-series"
			die "$(series_name "$p") does not apply to linux-source-$(kver) $base"
		fi
	done
	printf '%s\n' "$saved" | restore_unchanged_mtimes
}

[ -d "$ksrc/.git" ] || extract_pristine

id=$(series_id)
if [ "$(cat "$ksrc/.git/pci-mwi-series" 2>/dev/null)" != "$id" ] ||
   [ -n "$(git -C "$ksrc" status --porcelain --untracked-files=no)" ]; then
	say "applying kernel-patches/$(kver)/ to linux-source-$(kver) $(kernel_version "$ksrc")"
	apply_series
	printf '%s\n' "$id" >"$ksrc/.git/pci-mwi-series"
fi
say "kernel base: linux-source-$(kver) $(kernel_version "$ksrc"), $(git -C "$ksrc" rev-list --count pristine..HEAD) patches applied"
