# Sourced by the scripts that download Debian packages or make Debian roots
# (fetch-kernel.sh, sid-chroot.sh, tests/bench/mkroot.sh, tests/host/debroot.sh).
# debian_mirror: PDTRACE_MIRROR, else the mirror this machine's apt is configured with, so
# that no host is hard-coded. Fails through the caller's die().
debian_mirror() {
	local m=${PDTRACE_MIRROR:-}
	[ -z "$m" ] || { echo "$m"; return; }
	m=$(grep -rhoE '^(URIs:|deb) +[a-z]+://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
		awk '{print $2}' | grep -E "/debian/?$" | head -n1)
	[ -n "$m" ] || die "no Debian mirror found in /etc/apt; set PDTRACE_MIRROR"
	echo "$m"
}
