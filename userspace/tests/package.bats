#!/usr/bin/env bats
# The release tarball and the Debian package built from it.

setup() {
	load helpers
	here=$BATS_TEST_DIRNAME/..
	version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
}

@test "make dist writes mwictl-VERSION.tar.gz with the version of the changelog and of --version" {
	make -s -C "$here" dist DISTDIR="$BATS_TEST_TMPDIR" >/dev/null
	assert_equal "$(tar -tzf "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" | grep -c "^mwictl-$version/mwictl\.c$")" 1
	assert_equal "$(grep -c "#define MWICTL_VERSION \"$version\"" "$here/mwictl.h")" 1
}

@test "the tarball alone, without git, builds the package, into a directory whose other files stay" {
	local src=$BATS_TEST_TMPDIR/src out=$BATS_TEST_TMPDIR/out
	make -s -C "$here" dist DISTDIR="$BATS_TEST_TMPDIR" >/dev/null
	mkdir -p "$src" "$out/keep"
	echo mine >"$out/keep/file"
	tar -xzf "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" -C "$src"
	run env GIT_DIR=/nonexistent GIT_CEILING_DIRECTORIES="$src" \
		"$src/mwictl-$version/mkdeb.sh" "$out" "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz"
	assert_success
	assert_equal "$(cat "$out/keep/file")" mine
	assert_equal "$(dpkg-deb -c "$out/mwictl_${version}_"*.deb | awk '{ print $6 }' | grep -c '^\./usr/bin/mwictl$')" 1
	assert_equal "$(find "$out" -maxdepth 1 -name 'mkdeb.*' | wc -l)" 0
}

@test "make deb lints the source and binary packages with --pedantic: a pedantic tag alone fails it" {
	local src=$BATS_TEST_TMPDIR/src
	make -s -C "$here" dist DISTDIR="$BATS_TEST_TMPDIR" >/dev/null
	mkdir -p "$src"
	tar -xzf "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" -C "$src"
	# a source package silent on Rules-Requires-Root: lintian's pedantic tag
	sed -i '/^Rules-Requires-Root:/d' "$src/mwictl-$version/debian/control"
	tar -czf "$BATS_TEST_TMPDIR/pedantic.tar.gz" -C "$src" "mwictl-$version"
	run "$here/mkdeb.sh" "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/pedantic.tar.gz"
	assert_failure
	assert_output --partial "P: mwictl source: silent-on-rules-requiring-root"
	refute_output --regexp '^(E|W): '
}
