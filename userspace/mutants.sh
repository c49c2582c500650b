#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh: prove that mwictl's own tests have teeth ("make check-mutants").
# Each mutants/*.patch is a one-line fault in the sources (paths relative to
# this directory, -p1); its header names the promise it breaks and the test
# files of tests/ that must notice:
#   # promise: ...
#   # tests: rule.bats
# First the unmutated sources must pass those files (the baseline). Then each
# mutant is applied to a copy, built, and the named files run; the first
# "not ok" kills it. Prints "mutant | killed by" and fails if one survives.
# MUTANTS (a glob on the file names, default "*") picks some.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

header() { # FILE KEY
	sed -n "s/^# $2: //p" "$1" | head -1
}

# Copy the sources to $work/src, apply the patch $1 (none: the baseline), build.
prepare() {
	rm -rf "$work/src"
	mkdir "$work/src"
	cp "$here"/*.c "$here"/*.h "$here"/Makefile "$work/src/"
	cp -r "$here/tests" "$work/src/"
	if [ -n "$1" ] && ! patch -s -p1 -d "$work/src" <"$1"; then
		echo "$(basename "$1"): does not apply" >&2
		return 1
	fi
	if ! make -s -C "$work/src" mwictl-check >"$work/build.log" 2>&1; then
		echo "${1:+$(basename "$1"): }does not build:" >&2
		cat "$work/build.log" >&2
		return 1
	fi
}

# The name of the first failing test of the files $@ (of tests/), or "".
first_failure() {
	local files=()
	for f in "$@"; do
		files+=("$work/src/tests/$f")
	done
	MWICTL=$work/src/mwictl-check bats --tap "${files[@]}" 2>/dev/null |
		sed -n 's/^not ok [0-9]* //p' | head -1
}

# shellcheck disable=SC2206
mutants=("$here"/mutants/${MUTANTS:-*}.patch)
[ -e "${mutants[0]}" ] || { echo "no mutant in mutants/ matches '${MUTANTS:-*}'" >&2; exit 1; }

all_tests=$(for m in "${mutants[@]}"; do header "$m" tests; done | tr ' ' '\n' | sort -u)
prepare ""
# shellcheck disable=SC2086
base=$(first_failure $all_tests)
if [ -n "$base" ]; then
	echo "baseline: the unmutated sources fail \"$base\"" >&2
	exit 1
fi

survivors=0
printf '%-32s | %s\n' mutant "killed by"
for m in "${mutants[@]}"; do
	name=$(basename "$m" .patch)
	prepare "$m"
	# shellcheck disable=SC2046
	killer=$(first_failure $(header "$m" tests))
	if [ -z "$killer" ]; then
		killer="SURVIVED ($(header "$m" promise))"
		survivors=$((survivors + 1))
	fi
	printf '%-32s | %s\n' "$name" "$killer"
done
[ "$survivors" = 0 ]
