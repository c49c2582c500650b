#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdeb.sh OUTDIR [TARBALL]
#
# "make deb": build the Debian package of mwictl from a release tarball
# (TARBALL, or one that "make dist" writes first: no git needed, and never
# from build products lying around), source and binary, then run lintian
# --pedantic on all it built (the .changes: the source package, the binary
# one, its debug symbols and the .buildinfo); any error, warning or pedantic
# tag fails. The work happens in a directory of its own under OUTDIR,
# removed at the end; OUTDIR receives the .deb, .dsc, source tarball,
# .buildinfo, .changes and build.log, and nothing in it that mkdeb.sh did
# not write is touched.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
outdir=$(realpath -m "$1")
tarball=${2:-}
version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)

mkdir -p "$outdir"
work=$(mktemp -d "$outdir/mkdeb.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$tarball" ]; then
	make -s -C "$here" dist DISTDIR="$work" >/dev/null
	tarball=$work/mwictl-$version.tar.gz
fi
[ -f "$tarball" ] || { echo "mkdeb: $tarball: no such file" >&2; exit 1; }
tar -xzf "$tarball" -C "$work"
src=$work/mwictl-$version
[ -d "$src" ] || { echo "mkdeb: $tarball has no mwictl-$version/ (changelog says $version)" >&2; exit 1; }
(cd "$src" && dpkg-buildpackage -us -uc >"$outdir/build.log" 2>&1) || {
	tail -20 "$outdir/build.log" >&2
	echo "mkdeb: dpkg-buildpackage failed (log: $outdir/build.log)" >&2
	exit 1
}
for f in "$work"/mwictl*_"$version"_*.deb "$work"/mwictl_"$version"_*.buildinfo \
	"$work"/mwictl_"$version"_*.changes "$work"/mwictl_"$version".dsc \
	"$work"/mwictl_"$version".tar.*; do
	mv -f "$f" "$outdir/"
done
deb=$(ls "$outdir"/mwictl_"$version"_*.deb)
echo "mkdeb: built $deb"
lintian --pedantic --display-info --fail-on error,warning,pedantic \
	"$(ls "$outdir"/mwictl_"$version"_*.changes)"
echo "mkdeb: lintian --pedantic: no errors, warnings or pedantic tags"
