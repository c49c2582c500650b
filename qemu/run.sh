#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh OUTDIR MACHINE [CMD]
#
# Without CMD: boot MACHINE with an interactive shell on this terminal.
# With CMD: run it in the guest, print its output, exit with its status.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

outdir=$1
machine=$2
cmd=${3:-}

if [ -z "$cmd" ]; then
	exec "$here/boot.sh" "$machine" shell "$outdir"
fi

mkdir -p "$outdir"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
printf '%s\n' "$cmd" >"$root/run-cmd"
(cd "$root" && printf 'run-cmd\n' | cpio -o -H newc --quiet) >"$outdir/run-cmd.cpio"

"$here/boot.sh" "$machine" run "$outdir" "$outdir/run-cmd.cpio"
results="$outdir/$machine-results.log"
grep -v '^# pci-mwi-' "$results" | tr -d '\r' || true
if grep -q '^# pci-mwi-timeout' "$results"; then
	die "guest did not finish within $(sed -n 's/^# pci-mwi-timeout //p' "$results") s"
fi
status=$(sed -n 's/^# pci-mwi-exit \([0-9]*\).*/\1/p' "$results")
[ -n "$status" ] || die "guest stopped before the command finished (see $outdir/$machine-console.log)"
[ "$status" = 0 ] || say "guest command exited with status $status"
exit "$status"
