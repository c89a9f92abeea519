#!/usr/bin/env bash
# Install the Debian 12 packages pdtrace's build, tests and VM harness need, and only
# those that are missing (nothing is installed when all are present).
# Usage: install-deps.sh [GROUP...]: build, tests, package, vm, arm64 (default: all of them);
# make demo asks for build and vm only. apt's own output goes to a log, shown on failure.
#   build:   clang libelf-dev zlib1g-dev libzstd-dev make gcc libc6-dev, dpkg-dev (dpkg-source
#            unpacks sid's libbpf source package, scripts/fetch-libbpf.sh); libbpf and bpftool
#            themselves are built from Debian sid's sources (scripts/build-bpftool.sh)
#   tests:   libcmocka-dev (unit test runner), clang-format, valgrind, python3 and
#            python3-prometheus-client (the exposition-format parser that reads watch's metrics),
#            libxml2-utils (xmllint: JUnit reports against tests/host/junit.xsd),
#            python3-jsonschema (KCIDB reports against tests/host/kcidb.schema.json),
#            mandoc (mandoc -T lint on the man pages), man-db (man --warnings: groff's view
#            of them, and man -w), bash-completion (drives the completion)
#   package: lintian (checks make deb's package)
#   VM:      qemu-system-x86 busybox-static cpio xz-utils zstd kmod debian-archive-keyring
#            mmdebstrap (the sid chroot that builds the test module, tests/kmod/build.sh),
#            tmux (drives watch on a terminal), e2fsprogs (mkfs.ext4 -d: the disk of the
#            service test's systemd root, tests/vm/service.sh)
#   arm64:   gcc-aarch64-linux-gnu libc6-dev-arm64-cross, and libelf-dev
#            zlib1g-dev libzstd-dev for arm64 through multiarch (dpkg --add-architecture
#            arm64 when it is not there yet): make ARCH=arm64; qemu-system-arm (the arm64
#            VM), qemu-user-static (runs the arm64 binary on the host in the tests)
set -euo pipefail

build=(clang libelf-dev zlib1g-dev libzstd-dev make gcc libc6-dev dpkg-dev)
tests=(libcmocka-dev clang-format valgrind python3 python3-prometheus-client
	libxml2-utils python3-jsonschema mandoc man-db bash-completion)
package=(lintian)
vm=(qemu-system-x86 busybox-static cpio xz-utils zstd kmod debian-archive-keyring mmdebstrap tmux e2fsprogs)
arm64=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libelf-dev:arm64 zlib1g-dev:arm64
	libzstd-dev:arm64 qemu-system-arm qemu-user-static)

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build tests package vm arm64)
pkgs=()
for g in "${groups[@]}"; do
	case $g in
	build) pkgs+=("${build[@]}") ;;
	tests) pkgs+=("${tests[@]}") ;;
	package) pkgs+=("${package[@]}") ;;
	vm) pkgs+=("${vm[@]}") ;;
	arm64) pkgs+=("${arm64[@]}") ;;
	*) echo "install-deps: unknown group '$g' (build, tests, package, vm, arm64)" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing Debian packages: ${missing[*]}; run as root or install them" >&2
	exit 2
fi
echo "install-deps: installing ${#missing[@]} Debian packages (${groups[*]}): ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/install-deps.XXXXXX)
if [[ " ${missing[*]}" == *:arm64* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "install-deps: dpkg --add-architecture arm64 (the arm64 -dev libraries of make ARCH=arm64)" >&2
	dpkg --add-architecture arm64
fi
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "install-deps: apt-get failed (its whole output: $log)" >&2
	exit 2
fi
rm -f "$log"
