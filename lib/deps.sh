# shellcheck shell=bash
# deps.sh - sourced by the build scripts: install missing Debian packages.
#
# ensure_pkgs TAG PKG...   apt-get install the PKGs that are not installed,
#                          saying so with TAG as the prefix.
ensure_pkgs() {
	local tag=$1 missing=() p
	shift
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	printf '%s: installing %s\n' "$tag" "${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q "${missing[@]}" >/dev/null
}
