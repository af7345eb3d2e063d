#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make image`: the container image of contrib/kubernetes/ as an OCI
# archive, build/image/cpumgr-VERSION.oci.tar (image localhost/cpumgr:VERSION),
# with buildah FROM scratch.  Its root is made of Debian packages, unpacked:
# the cpumgr package of `make deb`, the libraries it depends on and kmod
# (the init container's modprobe), found by apt-cache and fetched by
# scripts/fetch-debs.sh.  buildah keeps its storage under build/image
# (vfs driver), not the host's.  No registry is needed or reached.
# Checks that the image's root runs cpumgrctl and modprobe.

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$CPUMGR_OUT/image
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
deb=$CPUMGR_OUT/deb/cpumgr_${version}_amd64.deb
archive=$out/cpumgr-$version.oci.tar
[ -e "$deb" ] || die "$deb is missing: make deb"

# What cpumgr's package and kmod need, down to libc: Depends and
# Pre-Depends, recursively, real packages only.
closure()
{
	local direct

	direct=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//')
	# shellcheck disable=SC2086
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $direct kmod |
		grep -v '^[ <]' | sort -u
}

bah()
{
	buildah --root "$out/storage" --runroot "$out/run" --storage-driver vfs "$@"
}

main()
{
	local pkgs debs_root root=$out/root

	pkgs=$(closure)
	[ -n "$pkgs" ] || die "apt-cache knows no dependencies of cpumgr (apt-get update?)"
	# shellcheck disable=SC2086
	debs_root=$(scripts/fetch-debs.sh image $pkgs)
	rm -rf "$root" "$archive"
	mkdir -p "$root"
	cp -a "$debs_root/." "$root/"
	dpkg -x "$deb" "$root"
	# what the image is for, run in its own root
	chroot "$root" /usr/sbin/cpumgrctl --version >/dev/null ||
		die "cpumgrctl does not run in the image's root"
	chroot "$root" /sbin/modprobe --version >/dev/null ||
		die "modprobe does not run in the image's root"

	# buildah's storage lives for this build only
	rm -rf "$out/storage" "$out/run"
	trap 'rm -rf "$out/storage" "$out/run"' EXIT
	ctr=$(bah from --name "cpumgr-image-$$" scratch)
	bah copy "$ctr" "$root" / >/dev/null
	bah config --entrypoint '["/usr/sbin/cpumgrctl"]' --cmd daemon \
		--label org.opencontainers.image.title=cpumgr \
		--label org.opencontainers.image.version="$version" \
		--label org.opencontainers.image.licenses=GPL-2.0 "$ctr"
	bah commit --quiet "$ctr" "oci-archive:$archive:localhost/cpumgr:$version" >/dev/null
	echo "$archive"
}

cd "$CPUMGR_TOP"
mkdir -p "$out"
main
