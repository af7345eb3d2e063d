#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make install`: what the packages cpumgr, cpumgr-dev and cpumgr-dkms
# install, under $DESTDIR, from the build (make user man), in parts:
#   user    PREFIX/sbin/cpumgrctl; UNITDIR/cpumgr.service and
#           cpumgr-nri@.service; the man pages, the bash completion; the
#           OCI hook files in PREFIX/share/cpumgr (inert: `cpumgrctl init
#           --integration oci-hook` puts the hooks.d one in place);
#           LIBDIR/libcpumgr.a, LIBDIR/pkgconfig/cpumgr.pc and
#           PREFIX/include/cpumgr/ (cpumgr_nl.h, linux/cpumgr.h) of -dev.
#           The units and hook files name PREFIX/sbin/cpumgrctl
#           (scripts/subst.sh renders contrib/*.in).
#   dkms    the module's source for DKMS in /usr/src/cpumgr-VERSION
#           (where DKMS looks, whatever PREFIX), MODULESLOADDIR/cpumgr.conf,
#           SYSCONFDIR/modprobe.d/cpumgr.conf.
#   module  the module built for KVER (or KDIR) goes to
#           /lib/modules/RELEASE/updates only when that kernel is installed
#           there (its modules.order), and then depmod runs for that kernel
#           alone: a module built for a cached kernel never lands in another
#           kernel's tree.  Otherwise DKMS builds it from the installed
#           source (`dkms install cpumgr/VERSION`).
# Usage: scripts/install.sh [user] [dkms] [module]   (default: all three)
#
# Environment (from make): DESTDIR, PREFIX (/usr/local), LIBDIR, UNITDIR,
# MODULESLOADDIR, SYSCONFDIR (/etc), MODULE_BUILD (build/kmod/KVER).
# `make install DESTDIR=... PREFIX=/usr UNITDIR=/lib/systemd/system`
# installs the packages' file list (make check-host compares them).

set -euo pipefail
. "$(dirname "$0")/common.sh"

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
LIBDIR=${LIBDIR:-$PREFIX/lib/$(gcc -print-multiarch)}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
MODULESLOADDIR=${MODULESLOADDIR:-$PREFIX/lib/modules-load.d}
SYSCONFDIR=${SYSCONFDIR:-/etc}
DATADIR=$PREFIX/share/cpumgr
MODULE_BUILD=${MODULE_BUILD:-}

top=$CPUMGR_TOP
out=$CPUMGR_OUT
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$top/kmod/cpumgr.h")
d=$DESTDIR

# MODE SOURCE DEST: one file, its directories made
put()
{
	install -D -m "$1" "$2" "$d$3"
}

userspace()
{
	local inc=$PREFIX/include/cpumgr libdir_pc tmpl

	tmpl=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmpl'" EXIT
	"$top/scripts/subst.sh" "$tmpl" "$PREFIX"
	put 0755 "$out/user/cpumgrctl" "$PREFIX/sbin/cpumgrctl"
	put 0644 "$out/user/libcpumgr.a" "$LIBDIR/libcpumgr.a"
	# libdir relative to ${prefix}, as the package has it, where it can be
	case $LIBDIR in
	"$PREFIX"/*) libdir_pc="\${prefix}/${LIBDIR#"$PREFIX"/}" ;;
	*) libdir_pc=$LIBDIR ;;
	esac
	mkdir -p "$d$LIBDIR/pkgconfig"
	sed -e "s|@PREFIX@|$PREFIX|" -e "s|@VERSION@|$version|" \
	    -e "s|^libdir=.*|libdir=$libdir_pc|" \
		"$top/user/cpumgr.pc.in" >"$d$LIBDIR/pkgconfig/cpumgr.pc"
	# the kernel client library's public header (user/lib/libcpumgr)
	put 0644 "$top/user/lib/libcpumgr/cpumgr_nl.h" "$inc/cpumgr_nl.h"
	put 0644 "$top/include/uapi/linux/cpumgr.h" "$inc/linux/cpumgr.h"
	put 0644 "$tmpl/systemd/cpumgr.service" "$UNITDIR/cpumgr.service"
	put 0644 "$tmpl/systemd/cpumgr-nri@.service" "$UNITDIR/cpumgr-nri@.service"
	put 0644 "$top/contrib/bash-completion/cpumgrctl" \
		"$PREFIX/share/bash-completion/completions/cpumgrctl"
	put 0644 "$tmpl/oci-hooks.d/cpumgr.json" "$DATADIR/oci-hooks.d/cpumgr.json"
	put 0644 "$tmpl/containerd/cpumgr-hooks.json" "$DATADIR/containerd/cpumgr-hooks.json"
	put 0644 "$top/contrib/containerd/config.toml" "$DATADIR/containerd/config.toml"
	mkdir -p "$d$PREFIX/share/man/man8" "$d$PREFIX/share/man/man4"
	gzip -9n <"$out/doc/cpumgrctl.8" >"$d$PREFIX/share/man/man8/cpumgrctl.8.gz"
	gzip -9n <"$out/doc/cpumgr.4" >"$d$PREFIX/share/man/man4/cpumgr.4.gz"
}

# what cpumgr-dkms holds (debian/cpumgr-dkms.install)
dkms_source()
{
	local src=/usr/src/cpumgr-$version f

	sed "s/#MODULE_VERSION#/$version/" "$top/debian/cpumgr-dkms.dkms" |
		install -D -m 0644 /dev/stdin "$d$src/dkms.conf"
	for f in "$top"/kmod/Kbuild "$top"/kmod/Makefile "$top"/kmod/*.c "$top"/kmod/*.h; do
		put 0644 "$f" "$src/kmod/${f##*/}"
	done
	put 0644 "$top/include/uapi/linux/cpumgr.h" "$src/include/uapi/linux/cpumgr.h"
	put 0644 "$top/debian/extra/modules-load.d/cpumgr.conf" "$MODULESLOADDIR/cpumgr.conf"
	put 0644 "$top/debian/extra/modprobe.d/cpumgr.conf" "$SYSCONFDIR/modprobe.d/cpumgr.conf"
}

module()
{
	local release kdir

	[ -n "$MODULE_BUILD" ] && [ -e "$MODULE_BUILD/kmod/cpumgr.ko" ] || return 0
	release=$(cat "$MODULE_BUILD/release")
	kdir=$d/lib/modules/$release
	if [ ! -e "$kdir/modules.order" ]; then
		msg "cpumgr: kernel $release is not installed in $d/lib/modules: cpumgr.ko not installed; DKMS builds it (dkms install cpumgr/$version)"
		return 0
	fi
	install -D -m 0644 "$MODULE_BUILD/kmod/cpumgr.ko" "$kdir/updates/cpumgr.ko"
	depmod -b "${d:-/}" "$release"
	msg "cpumgr: installed $kdir/updates/cpumgr.ko, depmod $release"
}

[ $# -gt 0 ] || set -- user dkms module
for part; do
	case $part in
	user) userspace ;;
	dkms) dkms_source ;;
	module) module ;;
	*) die "install.sh: unknown part '$part' (user, dkms, module)" ;;
	esac
done
