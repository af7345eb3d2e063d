#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs under systemd in the guest that guest/packages.sh set up
# (cpumgr-guest-check.service), after the boot: the module was loaded by
# systemd-modules-load from modules-load.d, DKMS's build for this kernel,
# and cpumgr.service runs (Type=notify: active means READY=1 came); no
# runtime integration until `cpumgrctl init --integration` chooses one,
# which then runs, and turns off the one before.  With
# CPUMGR_LIFECYCLE=1 (packages.sh ... lifecycle), then the package's
# upgrade, rollback, removal and purge (guest/packages-lifecycle.sh).
# Continues packages.sh's KTAP on ttyS1 and ends the run.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

krel=$(uname -r)
ktap_n=${CPUMGR_KTAP_START:-0}

# UNIT PROPERTY VALUE
unit_is()
{
	local value

	value=$(systemctl show -P "$2" "$1")
	[ "$value" = "$3" ] || {
		echo "$1 $2=$value, expected $3" | diag
		return 1
	}
}

from_dkms()
{
	local path

	path=$(modinfo -n cpumgr) || return 1
	echo "cpumgr: $path, srcversion $(cat /sys/module/cpumgr/srcversion)" | diag
	case $path in
	"/lib/modules/$krel/updates/dkms/cpumgr.ko"*) ;;
	*) return 1 ;;
	esac
	[ "$(modinfo -F srcversion cpumgr)" = "$(cat /sys/module/cpumgr/srcversion)" ]
}

# cpumgrctl init as packages.sh's, with --integration WAY
init_with()
{
	cpumgrctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root /sys/fs/cgroup/kubepods --integration "$1" 2>&1 | diag
	[ "${PIPESTATUS[0]}" = 0 ]
}

hook=/etc/containers/oci/hooks.d/cpumgr.json

# none after the package: no NRI plugin enabled or running, no hooks.d file
no_integration()
{
	local u

	for u in cpumgr-nri@decide.service cpumgr-nri@guard.service; do
		unit_is "$u" UnitFileState disabled && unit_is "$u" ActiveState inactive ||
			return 1
	done
	[ ! -e "$hook" ] && [ ! -e /usr/share/containers/oci/hooks.d/cpumgr.json ]
}

nri_decide()
{
	init_with nri-decide && unit_is cpumgr-nri@decide.service UnitFileState enabled &&
		unit_is cpumgr-nri@decide.service SubState running
}

# the plugin stopped and disabled, the package's hook file in place
oci_hook()
{
	init_with oci-hook && unit_is cpumgr-nri@decide.service UnitFileState disabled &&
		unit_is cpumgr-nri@decide.service ActiveState inactive &&
		cmp "$hook" /usr/share/cpumgr/oci-hooks.d/cpumgr.json &&
		grep -q '"path": "/usr/sbin/cpumgrctl"' "$hook"
}

main()
{
	echo "# booted $krel under $(cat /proc/1/comm), $(systemctl is-system-running 2>&1)"
	check "systemd-modules-load.service ran" \
		unit_is systemd-modules-load.service Result success
	check "cpumgr loaded at boot" grep -q '^cpumgr ' /proc/modules
	check "the loaded module is DKMS's build for $krel" from_dkms
	check "cpumgr.service is active (READY=1)" \
		unit_is cpumgr.service ActiveState active
	check "cpumgr.service runs the daemon" unit_is cpumgr.service SubState running
	check "cpumgrctl status on the booted node" eval 'cpumgrctl status >/dev/null'
	check "no runtime integration by default" no_integration
	check "init --integration nri-decide: cpumgr-nri@decide runs" nri_decide
	check "init --integration oci-hook: the NRI plugin off, the hook in place" oci_hook
	check "init --integration none: none again" eval 'init_with none && no_integration'
	# last: it removes the package
	if [ "${CPUMGR_LIFECYCLE:-}" = 1 ]; then
		. "$CPUMGR_TOP/scripts/guest/packages-lifecycle.sh"
		lifecycle
	fi
	if [ $ktap_failed != 0 ]; then
		systemctl status --no-pager cpumgr.service systemd-modules-load.service 2>&1 | diag
		journalctl -b --no-pager -u cpumgr.service 2>&1 | tail -n 20 | diag
	fi
	echo "# cpumgr-guest: run script exited with $ktap_failed"
	ktap_exit
}

main
