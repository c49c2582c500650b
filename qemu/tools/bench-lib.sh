# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Timing helpers of "make bench", shared by bench-host.sh (sourced) and
# bench-guest.sh (sent to the guest after this file).

RUNS=${RUNS:-5}

# Median, in milliseconds, of RUNS timings of "$@" run N times each; the
# command gets the iteration number as its last argument.
median_ms() { # N COMMAND...
	local n=$1 i k t0 t1 times=()
	shift
	for ((k = 0; k < RUNS; k++)); do
		t0=$EPOCHREALTIME
		for ((i = 0; i < n; i++)); do
			"$@" "$i" >/dev/null 2>&1
		done
		t1=$EPOCHREALTIME
		times+=("$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) * 1000 / n }')")
	done
	printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((RUNS + 1) / 2))p"
}

# One table row: name, milliseconds, and the ratio to a base.
row() { # NAME MS BASE_MS
	printf '| %s | %s | %s |\n' "$1" "$2" "$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", a / b }')"
}
