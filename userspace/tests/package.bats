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
	# nocheck: the host tests are this run's, not a second run inside it
	run env GIT_DIR=/nonexistent GIT_CEILING_DIRECTORIES="$src" DEB_BUILD_OPTIONS=nocheck \
		"$src/mwictl-$version/mkdeb.sh" "$out" "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz"
	assert_success
	assert_equal "$(cat "$out/keep/file")" mine
	assert_equal "$(dpkg-deb -c "$out/mwictl_${version}_"*.deb | awk '{ print $6 }' | grep -c '^\./usr/bin/mwictl$')" 1
	assert_equal "$(find "$out" -maxdepth 1 -name 'mkdeb.*' | wc -l)" 0
	# the admin guide and the README ship with it, and it says where it lives
	assert_equal "$(dpkg-deb -c "$out/mwictl_${version}_"*.deb | awk '{ print $6 }' | grep '^\./usr/share/doc/mwictl/[Ra]' | sort)" \
		"./usr/share/doc/mwictl/README.md.gz
./usr/share/doc/mwictl/admin-guide.md.gz"
	assert_equal "$(dpkg-deb -f "$out/mwictl_${version}_"*.deb Homepage)" "https://example.org/pci-mwi/"
	# and the source package declares its autopkgtest
	assert_equal "$(grep '^Testsuite:' "$out/mwictl_$version.dsc")" "Testsuite: autopkgtest"
}

@test "the tarball carries the README and the admin guide in doc/, as they are in the repository" {
	make -s -C "$here" dist DISTDIR="$BATS_TEST_TMPDIR" >/dev/null
	tar -xzf "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" -C "$BATS_TEST_TMPDIR"
	cmp "$BATS_TEST_TMPDIR/mwictl-$version/doc/README.md" "$here/../README.md"
	cmp "$BATS_TEST_TMPDIR/mwictl-$version/doc/admin-guide.md" "$here/../Documentation/admin-guide.md"
	# an unpacked tarball makes the same tarball again
	make -s -C "$BATS_TEST_TMPDIR/mwictl-$version" dist DISTDIR="$BATS_TEST_TMPDIR/again" >/dev/null
	cmp "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" "$BATS_TEST_TMPDIR/again/mwictl-$version.tar.gz"
}

@test "the package build runs the host tests on the mwictl it built, and not with nocheck" {
	cd "$here"
	run make -s -n -f debian/rules override_dh_auto_test
	assert_line --index 0 "make check-build"
	assert_line --regexp "^MWICTL=$(pwd)/mwictl bats --tap tests/access-method.bats .*tests/commands.bats .*tests/dump.bats .*tests/writes.bats$"
	refute_output --partial "package.bats"
	run env DEB_BUILD_OPTIONS=nocheck make -s -n -f debian/rules override_dh_auto_test
	assert_output 'echo "DEB_BUILD_OPTIONS has nocheck: the host tests are not run"'
}

@test "the autopkgtest runs the installed mwictl: its version, a listing, a usage error" {
	run grep -c '^Test-Command: ' "$here/debian/tests/control"
	assert_output 3
	run grep '^Test-Command: ' "$here/debian/tests/control"
	assert_line --index 0 --partial 'mwictl --version'
	assert_line --index 1 --partial 'mwictl list -q'
	assert_line --index 2 --partial 'mwictl frob'
}

@test "make deb lints the source and binary packages with --pedantic: a pedantic tag alone fails it" {
	local src=$BATS_TEST_TMPDIR/src
	make -s -C "$here" dist DISTDIR="$BATS_TEST_TMPDIR" >/dev/null
	mkdir -p "$src"
	tar -xzf "$BATS_TEST_TMPDIR/mwictl-$version.tar.gz" -C "$src"
	# a source package silent on Rules-Requires-Root: lintian's pedantic tag
	sed -i '/^Rules-Requires-Root:/d' "$src/mwictl-$version/debian/control"
	tar -czf "$BATS_TEST_TMPDIR/pedantic.tar.gz" -C "$src" "mwictl-$version"
	run env DEB_BUILD_OPTIONS=nocheck "$here/mkdeb.sh" "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/pedantic.tar.gz"
	assert_failure
	assert_output --partial "P: mwictl source: silent-on-rules-requiring-root"
	refute_output --regexp '^(E|W): '
}
