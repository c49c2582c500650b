#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu/checks/shellcheck.sh [--list]
#
# Every shell script git knows in this repository (by name: *.sh, *.bash,
# *.bats; or by a #! line naming a shell), checked by shellcheck at warning
# level. --list prints the files only (for a reader; host-checks.sh keys its cache with git_key).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

files=()
while IFS= read -r f; do
	[ -f "$f" ] || continue
	case "$f" in
	*.sh | *.bash | *.bats) files+=("$f") ;;
	*) head -n1 "$f" | grep -qE '^#!(/usr)?/bin/(env )?(ba)?sh' && files+=("$f") ;;
	esac
done < <(git ls-files)

if [ "${1:-}" = --list ]; then
	printf '%s\n' "${files[@]}"
	git ls-files '*.shellcheckrc'
	exit 0
fi
shellcheck -S warning "${files[@]}"
