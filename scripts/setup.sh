#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what a fresh Debian bookworm machine lacks to build and test
# cpumgr, idempotently and quietly:
#   - host packages through apt-get (build tools, libraries, QEMU, the
#     container runtimes the runtime_* selftests drive: runc, crun, and
#     podman with conmon, which needs neither fuse-overlayfs nor
#     slirp4netns with --storage-driver vfs --network none);
#   - the tools taken from Debian's linux-source packages into the cache
#     (checkpatch, the kselftest headers, the ynl CLI);
#   - Debian's kernels (6.1, 6.12, 6.12-rt, 7.3, 7.3-rt) through
#     scripts/fetch-kernel.sh, and the Debian 13 build root their 7.3
#     modules are built in (scripts/build-root.sh, mmdebstrap), and the
#     Debian 13 node root the node guests boot (containerd 2.x from sid);
#   - Debian 13's containerd 1.7 and the CRI and NRI definitions, and
#     sid's newest NRI definitions, through scripts/fetch-trixie.sh (the
#     runtime_cri selftest; python3-grpcio and python3-grpc-tools are its
#     CRI client; python3-protobuf reads the NRI definitions for
#     scripts/nri-proto-check.py);
#   - rt-tests (cyclictest, oslat) for the quiet_cpu selftest;
#   - bpftrace, whose fentry and fexit programs probe_neighbours places
#     beside the module's probes.
# The debug kernel is built separately (scripts/build-debug-kernel.sh).
#
# Usage: scripts/setup.sh [--no-kernels]

set -euo pipefail
. "$(dirname "$0")/common.sh"

HOST_PACKAGES="
	build-essential bc bison flex libelf-dev libssl-dev dwarves kmod
	pkg-config xz-utils cpio busybox-static qemu-system-x86
	libnl-3-dev libnl-genl-3-dev libcjson-dev libyaml-dev
	linux-source-6.1 linux-source-6.12
	python3 python3-yaml python3-jsonschema cppcheck
	python3-grpcio python3-grpc-tools python3-protobuf
	runc crun podman conmon
	clang-14 libfuzzer-14-dev
	debhelper dh-dkms dkms lintian libsystemd-dev scdoc bash-completion systemd
	buildah
	protobuf-c-compiler libprotobuf-c-dev
	mmdebstrap
	rt-tests
	bpftrace
"

missing_packages()
{
	local p

	for p in $HOST_PACKAGES; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || printf '%s ' "$p"
	done
}

install_packages()
{
	local missing

	missing=$(missing_packages)
	[ -n "$missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "missing packages ($missing); run this script as root"
	msg "cpumgr: installing $missing"
	export DEBIAN_FRONTEND=noninteractive
	quietly "$CPUMGR_CACHE/log/apt-update.log" apt-get update
	# shellcheck disable=SC2086
	quietly "$CPUMGR_CACHE/log/apt-install.log" \
		apt-get install -y --no-install-recommends $missing
}

# Unpack a few paths of /usr/src/linux-source-<series>.tar.xz into
# $CPUMGR_CACHE/src/<series>, once per source package version.
unpack_source()
{
	local series=$1
	shift
	local tarball=/usr/src/linux-source-$series.tar.xz
	local dest=$CPUMGR_CACHE/src/$series
	local version stamp p paths=()

	version=$(dpkg-query -W -f='${Version}' "linux-source-$series")
	stamp=$dest/.unpacked-$version-$(printf '%s ' "$@" | md5sum | cut -c1-8)
	[ -e "$stamp" ] && return 0
	rm -rf "$dest"
	mkdir -p "$dest"
	for p in "$@"; do
		paths+=("linux-source-$series/$p")
	done
	tar -C "$dest" --strip-components=1 -xJf "$tarball" "${paths[@]}"
	touch "$stamp"
}

main()
{
	local series

	mkdir -p "$CPUMGR_CACHE"
	install_packages
	unpack_source 6.1 \
		scripts/checkpatch.pl scripts/spelling.txt \
		scripts/const_structs.checkpatch \
		tools/testing/selftests/kselftest.h \
		tools/testing/selftests/kselftest_harness.h
	unpack_source 6.12 tools/net/ynl Documentation/netlink
	"$CPUMGR_TOP/scripts/fetch-trixie.sh" -q >/dev/null
	if [ "${1:-}" != --no-kernels ]; then
		for series in $CPUMGR_DEBIAN_KERNELS; do
			"$CPUMGR_TOP/scripts/fetch-kernel.sh" "$series"
		done
		"$CPUMGR_TOP/scripts/build-root.sh" make trixie
		"$CPUMGR_TOP/scripts/build-root.sh" make node
	fi
}

main "$@"
