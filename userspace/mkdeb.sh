#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdeb.sh OUTDIR
#
# "make deb": build the Debian package of mwictl from a copy of the files
# git tracks in this directory (never from build products lying around),
# then run lintian on it; any warning or error fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
outdir=$(realpath -m "$1")
version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
src=$outdir/mwictl-$version

rm -rf "$outdir"
mkdir -p "$src"
git -C "$here" ls-files -z -- . ':!tests' ':!fuzz' | (cd "$here" && xargs -0 cp --parents -t "$src")
(cd "$src" && dpkg-buildpackage -us -uc -b >"$outdir/build.log" 2>&1) || {
	tail -20 "$outdir/build.log" >&2
	echo "mkdeb: dpkg-buildpackage failed (log: $outdir/build.log)" >&2
	exit 1
}
deb=$(ls "$outdir"/mwictl_"$version"_*.deb)
echo "mkdeb: built $deb"
lintian --fail-on error,warning --display-info "$deb"
echo "mkdeb: lintian: no errors or warnings"
