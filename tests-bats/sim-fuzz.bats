#!/usr/bin/env bats
# Hostile input: seeded random writes to mwi from several processes at
# once, 0 to PAGE_SIZE + 1 bytes each, most of them near misses of a
# documented input (mwi-fuzz.awk). The store accepts exactly "0" and "1",
# each with or without one newline; everything else fails with EINVAL and
# leaves COMMAND and the cache line size as they were, and a zero-byte
# write never reaches the store. The seed is printed, and replayed with
# make run CMD='MWI_FUZZ_SEED=N bats --tap /tests/sim-fuzz.bats'.

WRITERS=4
COUNT=100

setup() {
	bats_load_library pci-mwi
	sim_load "devices=accepts*$WRITERS"
	seed=${MWI_FUZZ_SEED:-$(date +%s)}
	echo "# fuzz seed $seed" >&3
}

teardown() {
	sim_unload
}

# Writer $1 throws its inputs (mwi-fuzz.awk with seed + $1, invalid=$3)
# at slot $2, and checks each outcome and the registers after it; every
# wrong outcome is a line in $BATS_TEST_TMPDIR/wrong.$1.
fuzz_writer() {
	local w=$1 slot=$2 invalid=$3 class bytes want size out rc i=0 mwi in
	mwi=$(mwi_file "$slot")
	in="$BATS_TEST_TMPDIR/in.$w"
	want=$(sim_registers "$slot")
	busybox awk -v seed=$((seed + w)) -v count="$COUNT" -v invalid="$invalid" \
		-f /usr/lib/bats/pci-mwi/mwi-fuzz.awk >"$BATS_TEST_TMPDIR/inputs.$w"
	while read -r class bytes; do
		i=$((i + 1))
		rc=0
		if [ "$class" = z ]; then
			out=$(dd if=/dev/null of="$mwi" conv=notrunc status=none 2>&1) || rc=$?
		else
			printf '%b' "$bytes" >"$in"
			size=$(stat -c %s "$in")
			out=$(dd if="$in" of="$mwi" bs="$size" count=1 conv=notrunc status=none 2>&1) || rc=$?
		fi
		case "$class:$rc:$out" in
		[01]:0:) want="0x00${class}0 64" ;;
		z:0:) ;;
		x:[!0]*:*"Invalid argument"*) ;;
		*) echo "write $i ($class, ${bytes:0:60}): rc $rc: $out" ;;
		esac
		[ "$(sim_registers "$slot")" = "$want" ] ||
			echo "write $i ($class, ${bytes:0:60}): registers $(sim_registers "$slot"), not $want"
	done <"$BATS_TEST_TMPDIR/inputs.$w" >"$BATS_TEST_TMPDIR/wrong.$w" 2>&1
}

@test "$WRITERS processes, $COUNT seeded random writes each to a function of its own: only 0 and 1 (with or without a newline) are taken, and only they change COMMAND or the cache line size" {
	local w slot pids=
	w=0
	for slot in $(sim_slots); do
		w=$((w + 1))
		write_mwi "$slot" '1\n'
		write_mwi "$slot" '0\n'
		fuzz_writer "$w" "$slot" 0 &
		pids="$pids $!"
	done
	assert_equal "$w" "$WRITERS"
	wait $pids
	cat "$BATS_TEST_TMPDIR"/wrong.* >"$BATS_TEST_TMPDIR/wrong"
	[ ! -s "$BATS_TEST_TMPDIR/wrong" ] || fail "seed $seed: $(head -20 "$BATS_TEST_TMPDIR/wrong")"
	# The inputs held documented words, near misses and long writes.
	cat "$BATS_TEST_TMPDIR"/inputs.* | cut -d' ' -f1 | sort -u | tr -d '\n' | grep -qx 01xz ||
		fail "seed $seed: the inputs lack a class: $(cat "$BATS_TEST_TMPDIR"/inputs.* | cut -d' ' -f1 | sort | uniq -c)"
}

@test "$WRITERS processes, $COUNT seeded invalid writes each, all at one function with MWI on: every write fails with EINVAL and MWI stays on" {
	local w slot pids=
	slot=$(sim_slots | head -1)
	write_mwi "$slot" '1\n'
	for w in $(seq "$WRITERS"); do
		fuzz_writer "$w" "$slot" 1 &
		pids="$pids $!"
	done
	wait $pids
	cat "$BATS_TEST_TMPDIR"/wrong.* >"$BATS_TEST_TMPDIR/wrong"
	[ ! -s "$BATS_TEST_TMPDIR/wrong" ] || fail "seed $seed: $(head -20 "$BATS_TEST_TMPDIR/wrong")"
	assert_equal "$(sim_registers "$slot") $(read_mwi "$slot")" "0x0010 64 1"
}
