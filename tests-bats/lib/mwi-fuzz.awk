# Seeded inputs for sim-fuzz.bats, one write per line: CLASS BYTES, CLASS
# "0" or "1" for a documented input ("0", "0\n", "1", "1\n"), "x" for
# anything else, "z" for a zero-byte write (BYTES "-"); BYTES as printf
# %b octal escapes (\0ooo), so that NUL and newline survive a line.
# Variables: seed, count, invalid (1: no documented input).
# 15% are documented inputs, 40% near misses (a documented word with one
# to three bytes inserted, replaced, dropped or appended), 35% random
# bytes (1 to 16), 10% long (PAGE_SIZE - 8 to PAGE_SIZE + 1 bytes).

function byte() {
	# Half of the time a byte a parser is most likely to get wrong.
	if (rand() < 0.5)
		return tricky[1 + int(rand() * ntricky)]
	return int(rand() * 256)
}

function word(v) {
	n = 0
	b[++n] = 48 + v
	if (rand() < 0.5)
		b[++n] = 10
}

function mutate(i, k, what) {
	what = int(rand() * 4)
	if (n == 0)
		what = 3	# nothing left to insert before, replace or drop
	k = 1 + int(rand() * n)
	if (what == 0) {		# insert before byte k
		for (i = n; i >= k; i--)
			b[i + 1] = b[i]
		b[k] = byte()
		n++
	} else if (what == 1) {	# replace byte k
		b[k] = byte()
	} else if (what == 2) {	# drop byte k
		for (i = k; i < n; i++)
			b[i] = b[i + 1]
		n--
	} else {		# append
		b[++n] = byte()
	}
}

function class() {
	if (n == 0)
		return "z"
	if ((b[1] == 48 || b[1] == 49) && (n == 1 || (n == 2 && b[2] == 10)))
		return b[1] - 48
	return "x"
}

function emit(i, s) {
	s = ""
	for (i = 1; i <= n; i++)
		s = s sprintf("\\0%03o", b[i])
	print class(), (n ? s : "-")
}

BEGIN {
	# "0", "1", newline, NUL, space, tab, CR, "+", "-", "y"
	ntricky = split("48 49 10 0 32 9 13 43 45 121", tricky, " ")
	srand(seed)
	for (w = 0; w < count; w++) {
		r = rand()
		if (r < 0.55) {
			word(int(rand() * 2))
			if (invalid || r >= 0.15)
				for (m = 1 + int(rand() * 3); m > 0; m--)
					mutate()
		} else if (r < 0.9) {
			n = 1 + int(rand() * 16)
			for (i = 1; i <= n; i++)
				b[i] = byte()
		} else {
			n = 4088 + int(rand() * 10)
			for (i = 1; i <= n; i++)
				b[i] = byte()
		}
		if (invalid && class() != "x")
			b[++n] = 0	# a trailing NUL: never a documented input
		emit()
	}
}
