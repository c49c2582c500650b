#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh: prove that the harness's own tests have teeth. Each
# qemu/tests/mutants/*.patch is a fault in the harness (paths from the
# project's top, -p1); its header names the promise it breaks and the test
# files of qemu/tests/ that must notice:
#   # promise: ...
#   # tests: cache-keys.bats
# Each runs on a copy of the project's files as they are now (those git
# tracks or would: not build output); the
# unmutated copy must pass the named files first. The first "not ok" kills
# a mutant. Prints "mutant | killed by" and fails if one survives.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A fresh copy of the project in $work/p, committed, with the patch $1
# (none: as it is) applied to its working tree.
copy() {
	rm -rf "$work/p"
	project_copy "$work/p"
	[ -z "$1" ] || patch -s -p1 -d "$work/p" <"$1"
}

# The name of the first failing test of the copy's files $@, or "".
first_failure() {
	(cd "$work/p/qemu/tests" && bats --tap "$@" 2>&1) |
		sed -n 's/^not ok [0-9]* //p' | head -1
}

status=0
mapfile -t files < <(sed -n 's/^# tests: //p' "$here"/mutants/*.patch | tr ' ' '\n' | sort -u)
copy ""
if ! (cd "$work/p/qemu/tests" && bats --tap "${files[@]}") >"$work/baseline" 2>&1 ||
	! grep -q '^ok ' "$work/baseline"; then
	printf 'baseline: the unmutated harness does not pass %s:\n' "${files[*]}"
	cat "$work/baseline"
	exit 1
fi
printf '%-45s | %s\n' mutant "killed by"
for m in "$here"/mutants/*.patch; do
	name=$(basename "$m" .patch)
	if ! copy "$m"; then
		printf '%-45s | does not apply\n' "$name"
		status=1
		continue
	fi
	# shellcheck disable=SC2046 # the header's file names, one word each
	failure=$(first_failure $(sed -n 's/^# tests: //p' "$m"))
	if [ -z "$failure" ]; then
		printf '%-45s | SURVIVED: %s\n' "$name" "$(sed -n 's/^# promise: //p' "$m")"
		status=1
	else
		printf '%-45s | %s\n' "$name" "$failure"
	fi
done
exit "$status"
