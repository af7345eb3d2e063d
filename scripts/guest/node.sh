#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A node of today (guest-run.sh -N): the guest's root is an overlay in RAM
# over the node root (Debian 13, scripts/build-root.sh make node).  Runs
# twice:
#
#   node.sh TEST...          before systemd, in the guest's chroot: the
#       guest's kernel in place, cpumgr's packages of `make deb` as apt
#       installed them into the root (scripts/node-layer.sh: the DKMS
#       build of `make check-host` where cpumgr-dkms's postinst takes
#       prebuilt modules, so it compiles nothing), and the boot made to
#       run `node.sh booted TEST...`; then guest/init hands the guest to
#       systemd
#   node.sh booted TEST...   under systemd (cpumgr-guest-run.service):
#       the module came from modules-load.d (DKMS's build), systemd and
#       containerd run; then scripts/guest/run-tests.sh runs the selftests
#       against that module, which stays loaded (CPUMGR_MODULE_BOOTED=1),
#       and the guest powers off
#
# KTAP on stdout (ttyS1), numbered on across the two.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"
. "$CPUMGR_TOP/scripts/guest/packages_lib.sh"

units=/etc/systemd/system
layer=$CPUMGR_OUT/guest/node-layer-$CPUMGR_KERNEL
ktap_n=${CPUMGR_KTAP_START:-0}

# The boot: cpumgr-guest.target is the default target; it wants what a
# node boots to (multi-user.target: containerd, cpumgr.service) and the
# run, which powers the guest off.
boot_setup()
{
	cat >"$units/cpumgr-guest.target" <<-EOF
	[Unit]
	Description=cpumgr guest: a node of today, then the selftests
	Wants=multi-user.target cpumgr-guest-run.service
	EOF
	cat >"$units/cpumgr-guest-run.service" <<-EOF
	[Unit]
	Description=cpumgr guest: the selftests on the booted node
	After=multi-user.target
	SuccessAction=poweroff-force
	FailureAction=poweroff-force

	[Service]
	Type=oneshot
	TimeoutStartSec=infinity
	EnvironmentFile=/etc/cpumgr-guest.env
	ExecStart=/bin/bash $CPUMGR_TOP/scripts/guest/node.sh booted $*
	StandardOutput=file:/dev/ttyS1
	StandardError=inherit
	EOF
	ln -sfn "$units/cpumgr-guest.target" "$units/default.target"
	# not a first boot (mmdebstrap leaves the machine ID empty)
	echo c0ffee00c0ffee00c0ffee00c0ffee00 >/etc/machine-id
}

# The kernel as its packages leave it (as kernel_appears has it), its
# modules' directory the cache's with what the packages added
# (scripts/node-layer.sh's modules.tar), writable in RAM.
kernel_in_node()
{
	local dir w=/run/cpumgr-guest/modules

	dir=$(readlink -f "$CPUMGR_CACHE/kernels/$1") || return 1
	mkdir -p "$w/upper" "$w/work" "/lib/modules/$krel" /usr/src &&
		tar -xf "$layer/modules.tar" -C "$w/upper" &&
		mount -t overlay overlay \
			-o "lowerdir=$(readlink -f "$dir/modules"),upperdir=$w/upper,workdir=$w/work" \
			"/lib/modules/$krel" &&
		ln -sfn "$(readlink -f "$dir/build")" "/usr/src/linux-headers-$krel" &&
		[ -e "/lib/modules/$krel/modules.dep" ] &&
		[ -e "/usr/src/linux-headers-$krel/Makefile" ]
}

installed()
{
	[ "$(dpkg-query -W -f='${Status}\n' cpumgr cpumgr-dkms | sort -u)" = \
		"install ok installed" ]
}

# What scripts/node-layer.sh did on the host (apt-get install in the
# root, DKMS loading make check-host's build), as this node has it.
install_packages()
{
	grep -E '^(Setting up|Loading|Installing|Running depmod|Created symlink)' \
		"$layer/apt.log" | diag
	check "kernel $krel and its headers in place" kernel_in_node "$CPUMGR_KERNEL"
	check "apt installed cpumgr-dkms and cpumgr (Debian $(cat /etc/debian_version))" installed
	check "DKMS installed the module for $krel, compiled nothing" eval \
		'dkms_installed "$krel" && cmp "/var/lib/dkms/cpumgr/$version/$krel/x86_64/log/make.log" <(tar -xzOf "$CPUMGR_OUT/check-host/dkms-binaries-$CPUMGR_KERNEL.tar.gz" "./dkms_main_tree/$krel/x86_64/log/make.log")'
	check "cpumgr.service enabled by the package" \
		[ "$(systemctl is-enabled cpumgr.service 2>&1)" = enabled ]
	check "containerd.service enabled by its package" \
		[ "$(systemctl is-enabled containerd.service 2>&1)" = enabled ]
}

booted()
{
	local status=0

	echo "# booted $krel under $(cat /proc/1/comm) $(systemctl --version | head -n 1 | cut -d' ' -f2), $(systemctl is-system-running 2>&1); $(containerd --version 2>&1 | cut -d' ' -f2-3), $(runc --version | head -n 1)"
	check "the module was loaded at boot by systemd-modules-load, DKMS's build" eval \
		'unit_is systemd-modules-load.service Result success && grep -q "^cpumgr " /proc/modules && from_dkms'
	check "containerd.service runs" unit_is containerd.service SubState running
	check "no failed unit" eval '[ -z "$(systemctl list-units --failed --plain --no-legend)" ] ||
		{ systemctl list-units --failed --plain --no-legend | diag; false; }'
	[ $ktap_failed = 0 ] || {
		journalctl -b --no-pager -p warning 2>&1 | tail -n 30 | diag
		echo "# cpumgr-guest: run script exited with 1"
		exit 1
	}
	export CPUMGR_NODE=1 CPUMGR_MODULE_BOOTED=1 CPUMGR_KTAP_START=$ktap_n
	CPUMGR_MODULE=$(modinfo -n cpumgr)
	export CPUMGR_MODULE
	bash "$CPUMGR_TOP/scripts/guest/run-tests.sh" "$@" || status=$?
	echo "# cpumgr-guest: run script exited with $status"
	exit $status
}

main()
{
	local t0=$SECONDS

	if [ "${1:-}" = booted ]; then
		shift
		booted "$@"
	fi
	mkdir -p "$logs"
	install_packages
	boot_setup "$@"
	echo "# time: node.sh $((SECONDS - t0))s"
	# the selftests' environment (guest-run.sh's env.sh) for the run
	env | grep -E '^(CPUMGR_[A-Z_]*|PATH|HOME|LANG)=' >/etc/cpumgr-guest.env
	echo "CPUMGR_KTAP_START=$ktap_n" >>/etc/cpumgr-guest.env
	ktap_exit
}

main "$@"
