#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a guest whose root is an overlay in RAM (guest-run.sh -O
# -i /lib/systemd/systemd, see scripts/guest-packages.sh): installs the
# packages of `make deb` as an operator does and checks what DKMS made of
# them, then sets up the boot into systemd, where guest/packages-boot.sh
# checks that the module came from modules-load.d and that cpumgr.service
# is running.  KTAP on stdout.
#
# Usage: packages.sh install [UPGRADE_SERIES OUT]
#        packages.sh prebuilt [lifecycle]
#        packages.sh restored
#   install   dpkg -i both packages (DKMS builds for the running kernel),
#             cpumgrctl init; with UPGRADE_SERIES (6.12), that kernel is
#             then installed (its modules and headers appear, linux-image's
#             postinst hooks run) and the root's upper layer is saved to
#             OUT/upper.tar (OUT writable: guest-run.sh -w)
#   prebuilt  install, with the module DKMS built on the host (make
#             check-host's binaries-only tarball, which the package's
#             postinst loads with dkms ldtarball): DKMS installs it instead
#             of compiling for 9 minutes under TCG; make check's short form;
#             lifecycle: after the boot's checks, the package's upgrade,
#             rollback, removal and purge with a container running
#             (guest/packages-lifecycle.sh)
#   restored  a guest booted on UPGRADE_SERIES with that upper layer
#             (guest-run.sh -U): the packages are there, and the module for
#             this kernel, before systemd starts

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

krel=$(uname -r)
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
logs=/var/log/cpumgr-guest
prebuilt=

# SERIES: that cached kernel appears installed as linux-image and
# linux-headers leave one: /lib/modules/RELEASE (written through the
# overlay, e.g. by depmod) and /usr/src/linux-headers-RELEASE, which
# /lib/modules/RELEASE/build names.  Where fetch-kernel.sh's modules and
# build links lead: /lib/modules in Debian 12's packages, /usr/lib/modules
# in Debian 13's.
kernel_appears()
{
	local dir rel

	dir=$(readlink -f "$CPUMGR_CACHE/kernels/$1") || return 1
	rel=$(cat "$dir/release") || return 1
	mkdir -p /lib/modules /usr/src
	ln -sfn "$(readlink -f "$dir/modules")" "/lib/modules/$rel" &&
		ln -sfn "$(readlink -f "$dir/build")" "/usr/src/linux-headers-$rel" &&
		[ -e "/lib/modules/$rel/modules.dep" ] && [ -e "/usr/src/linux-headers-$rel/Makefile" ]
}

# RELEASE: DKMS built and installed cpumgr for it, in updates/dkms,
# and depmod knows it there.
dkms_installed()
{
	local rel=$1 path

	dkms status -m cpumgr -v "$version" -k "$rel" 2>/dev/null | grep -q ': installed' || {
		dkms status | diag
		return 1
	}
	path=$(modinfo -k "$rel" -n cpumgr) || return 1
	echo "module for $rel: $path" | diag
	case $path in
	"/lib/modules/$rel/updates/dkms/cpumgr.ko"*) ;;
	*) return 1 ;;
	esac
	[ "$(modinfo -k "$rel" -F vermagic cpumgr | cut -d' ' -f1)" = "$rel" ]
}

# LOG COMMAND...: run it with its output in $logs/LOG, the tail shown
# when it fails, and its time.
logged()
{
	local log=$logs/$1 t0=$SECONDS status=0
	shift

	"$@" >"$log" 2>&1 || status=$?
	echo "# time: $* $((SECONDS - t0))s"
	[ $status = 0 ] || tail -n 30 "$log" | diag
	return $status
}

# The node is set up as the README says (module loaded by hand once),
# then the module goes and the managed cgroup with it: the boot starts
# from what a reboot leaves, the state directory alone.
init_node()
{
	modprobe cpumgr || return 1
	cpumgrctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root /sys/fs/cgroup/kubepods || return 1
	rmmod cpumgr && rmdir /sys/fs/cgroup/kubepods &&
		[ -e /var/lib/cpumgr/config.json ]
}

# What the boot runs: cpumgr-guest.target is the default target, with
# cpumgr.service and the check, which powers the guest off.  It wants
# no more of the host root's units than cpumgr.service needs (sysinit).
boot_setup()
{
	local units=/etc/systemd/system

	cat >"$units/cpumgr-guest.target" <<-EOF
	[Unit]
	Description=cpumgr guest: the packages after a boot
	Wants=cpumgr.service cpumgr-guest-check.service
	EOF
	cat >"$units/cpumgr-guest-check.service" <<-EOF
	[Unit]
	Description=cpumgr guest: check the module and the daemon after a boot
	After=cpumgr.service systemd-modules-load.service
	SuccessAction=poweroff-force
	FailureAction=poweroff-force

	[Service]
	Type=oneshot
	EnvironmentFile=/etc/cpumgr-guest.env
	Environment=CPUMGR_TOP=$CPUMGR_TOP CPUMGR_OUT=$CPUMGR_OUT CPUMGR_CACHE=$CPUMGR_CACHE
	ExecStart=/bin/bash $CPUMGR_TOP/scripts/guest/packages-boot.sh
	StandardOutput=file:/dev/ttyS1
	StandardError=inherit
	EOF
	ln -sfn "$units/cpumgr-guest.target" "$units/default.target"
}

install_packages()
{
	local series=${1:-} out=${2:-} rel

	check "kernel $krel and its headers in place" kernel_appears "$CPUMGR_KERNEL"
	# where cpumgr-dkms's postinst (DKMS's common.postinst) takes a
	# binaries-only tarball from, with dkms ldtarball
	if [ -n "$prebuilt" ]; then
		check "the host's DKMS build for $krel where the postinst loads prebuilt modules" \
			install -D -m 0644 "$prebuilt" \
			"/usr/share/cpumgr-dkms/cpumgr-$version.dkms.tar.gz"
	fi
	check "dpkg -i cpumgr-dkms cpumgr" logged dpkg-i.log \
		dpkg -i "$CPUMGR_OUT"/deb/cpumgr-dkms_"$version"_all.deb \
		"$CPUMGR_OUT"/deb/cpumgr_"$version"_*.deb
	check "DKMS built and installed the module for $krel" dkms_installed "$krel"
	if [ -n "$prebuilt" ]; then
		check "DKMS took the host's build (its make.log), compiled nothing" \
			cmp "/var/lib/dkms/cpumgr/$version/$krel/x86_64/log/make.log" \
			<(tar -xzOf "$prebuilt" "./dkms_main_tree/$krel/x86_64/log/make.log")
	fi
	check "cpumgr.service enabled by the package" \
		[ "$(systemctl is-enabled cpumgr.service 2>&1)" = enabled ]
	check "man cpumgrctl" eval 'MANWIDTH=80 man cpumgrctl 2>&1 | grep -q "^NAME"'
	check "cpumgrctl init, the module by modprobe" logged init.log init_node
	if [ -n "$series" ]; then
		rel=$(readlink -f "$CPUMGR_CACHE/kernels/$series")
		rel=$(cat "$rel/release")
		check "no module for $rel before it is installed" \
			eval "! modinfo -k $rel cpumgr >/dev/null 2>&1"
		check "kernel $rel installed" kernel_appears "$series"
		# what linux-image-RELEASE's postinst runs (Debian's
		# kernel-img.conf hook directory): DKMS's hook among them
		check "linux-image's postinst hooks for $rel" logged upgrade.log \
			run-parts --report --exit-on-error --arg="$rel" \
			--arg="/boot/vmlinuz-$rel" /etc/kernel/postinst.d
		check "DKMS built and installed the module for $rel" dkms_installed "$rel"
	fi
	boot_setup
	if [ -n "$series" ]; then
		check "upper layer saved" tar -C /run/cpumgr-guest/upper \
			-cf "$out/upper.tar" .
		ls -l "$out/upper.tar" | diag
	fi
}

installed()
{
	[ "$(dpkg-query -W -f='${Status}\n' cpumgr cpumgr-dkms | sort -u)" = \
		"install ok installed" ]
}

restored()
{
	check "packages installed in the restored root" installed
	check "the module for $krel is in the restored root" dkms_installed "$krel"
}

main()
{
	local t0=$SECONDS

	mkdir -p "$logs"
	echo "TAP version 13"
	case ${1:-} in
	install) shift; install_packages "$@" ;;
	prebuilt)
		prebuilt=$CPUMGR_OUT/check-host/dkms-binaries-$CPUMGR_KERNEL.tar.gz
		install_packages
		[ "${2:-}" != lifecycle ] || lifecycle=1
		;;
	restored) restored ;;
	*) ktap_result not-ok "packages.sh: unknown mode '${1:-}'" ;;
	esac
	echo "# time: packages.sh $((SECONDS - t0))s"
	# packages-boot.sh numbers on
	echo "CPUMGR_KTAP_START=$ktap_n" >/etc/cpumgr-guest.env
	echo "CPUMGR_LIFECYCLE=${lifecycle:-0}" >>/etc/cpumgr-guest.env
	ktap_exit
}

main "$@"
