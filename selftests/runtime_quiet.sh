#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quiet CPUs through the Kubernetes node path (issue 30): containerd 1.7
# with NRI, driven through the CRI as the kubelet drives it
# (selftests/cri_driver.py), `cpumgrctl nri` deciding, cpumgr in
# enforce mode (selftests/cri_lib.sh).  A pod written for OpenShift,
# examples/pods/guaranteed-isolated.json (CRI-O's cpu-load-balancing,
# irq-load-balancing and cpu-quota "disable"; a 2-CPU app and a 500m
# sidecar), with a busy device interrupt (the 9p root's virtio queue)
# an earlier tuning pinned to every CPU but the reserved one:
#
# - its app runs on its exclusive CPUs, an isolated partition on exactly
#   them (cpuset.cpus.isolated), remote (Linux 6.7 on: its ancestors'
#   cpuset.cpus.exclusive hold them); on a kernel without
#   cpuset.cpus.exclusive (6.1) the pod is refused with the reason and
#   leaves nothing;
# - interrupts kept off those CPUs: the pinned one and the default
#   affinity; unbound workqueues too (the kernel's doing);
# - no CFS quota for the app and its pod (cpu.max "max");
# - the app's environment names its CPUs (CPUMGR_EXCLUSIVE_CPUS,
#   OPENSHIFT_ISOLATED_CPUS), the sidecar's the shared pool it runs on
#   (OPENSHIFT_SHARED_CPUS), and the plugin warns that the pod's
#   isolation does not reach the sidecar;
# - the plugin restarted and an admin's reset of the interrupt undone
#   by the next reconcile (the daemon's round): still isolated;
# - a pod whose annotation names its 500m sidecar is refused at
#   CreateContainer with the reason, and leaves nothing;
# - the pod deleted: no partition, no exclusive CPUs on the ancestors,
#   the interrupt back where it was pinned, audit clean.
# smt8 preset: 8 CPUs, CPU 0 reserved.

. "$CPUMGR_TOP/selftests/cri_lib.sh"

POD=$CPUMGR_TOP/examples/pods/guaranteed-isolated.json
UID_ISO=0b1e5a44-5f3c-4c55-9a0e-000000000030
ISOLATED=/sys/fs/cgroup/cpuset.cpus.isolated
WQMASK=/sys/devices/virtual/workqueue/cpumask
IRQ=
IRQ_WAS=

quiet_cleanup()
{
	[ -n "$IRQ" ] && echo "$IRQ_WAS" >"/proc/irq/$IRQ/smp_affinity_list" 2>/dev/null
	cri_cleanup
}
trap quiet_cleanup EXIT

cri_need
cri_have_plugin || ktap_missing_all "the NRI plugin in this cpumgrctl (cpumgrctl nri, built with protobuf-c)"
IRQ=$(awk '/virtio[0-9]*-requests/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
[ -n "$IRQ" ] || skip_all "no virtio request interrupt to pin"
IRQ_WAS=$(cat "/proc/irq/$IRQ/smp_affinity_list")

ktap_plan 8

# cpulist_meets A B: the lists share a CPU.
cpulist_meets()
{
	! rt_disjoint "$1" "$2"
}

# A hex mask ("ff", "00000000,000000bb") as a cpulist.
mask_list()
{
	local hex=${1//,/} bit=0 out= i d

	for ((i = ${#hex} - 1; i >= 0; i--)); do
		d=$((16#${hex:i:1}))
		for ((b = 0; b < 4; b++, bit++)); do
			(( (d >> b) & 1 )) && out+="${out:+,}$bit"
		done
	done
	echo "$out"
}

# The environment of container NAME of the last cri_up ("K=V" lines).
env_of()
{
	local id pid

	id=$(awk -v n="$1" '$1 == n { print $2 }' "$CRI/up.out")
	pid=$(head -n 1 "$CG/pod$UID_ISO/$id/cgroup.procs" 2>/dev/null)
	[ -n "$pid" ] && tr '\0' '\n' <"/proc/$pid/environ"
}

t_setup()
{
	rt_init "${CPUMGR_QUIET_ENFORCE:-enforce}" && cri_config &&
		cri_start_containerd && cri_image &&
		cri_plugin_start decide &&
		echo 1-7 >"/proc/irq/$IRQ/smp_affinity_list"
}
check "set-up: containerd 1.7, the plugin deciding, irq $IRQ (virtio's) pinned to CPUs 1-7" t_setup

REMOTE=0
[ -e "$CG/cpuset.cpus.exclusive" ] && REMOTE=1
APP=

t_isolated()
{
	local cg id part iso

	if [ $REMOTE = 0 ]; then
		# 6.1: local partitions only, below a partition root
		cri_up "$POD" && { echo "# admitted on a kernel without remote partitions"; return 1; }
		diag <"$CRI/up.err"
		grep -q "this kernel has no cpuset.cpus.exclusive" "$CRI/up.err" &&
			[ ! -e "$CG/pod$UID_ISO" ] && [ -z "$(cat $SYSFS/exclusive_cpus)" ]
		return
	fi
	cri_up "$POD" || { diag <"$CRI/up.err"; return 1; }
	APP=$(rt_cpus $UID_ISO app)
	id=$(awk '$1 == "app" { print $2 }' "$CRI/up.out")
	cg=$CG/pod$UID_ISO/$id
	part=$(cat "$cg/cpuset.cpus.partition")
	iso=$(cat "$ISOLATED" 2>/dev/null)
	echo "# app: first line '$(cri_line app)', exclusive '$APP', $cg: partition $part, exclusive '$(cat "$cg/cpuset.cpus.exclusive")', cpuset.cpus.isolated '$iso', $CG exclusive '$(cat "$CG/cpuset.cpus.exclusive")'"
	[ -n "$APP" ] && [ "$(cri_line app)" = "$APP" ] && [ "$part" = isolated ] &&
		[ "$iso" = "$APP" ] &&
		[ "$(cat "$CG/cpuset.cpus.exclusive")" = "$APP" ]
}
check "the app an isolated partition on exactly its exclusive CPUs (refused with the reason where the kernel makes none)" t_isolated

# The rest needs the pod: skipped where the kernel refused it.
needs_pod()
{
	[ $REMOTE = 1 ] && [ -n "$APP" ] && return 0
	[ $REMOTE = 1 ] && return 1
	skip_case "this kernel makes no remote partition: the pod was refused"
}

t_interrupts()
{
	local aff def

	needs_pod || return
	aff=$(cat "/proc/irq/$IRQ/smp_affinity_list")
	def=$(cat /proc/irq/default_smp_affinity)
	echo "# irq $IRQ on '$aff', default affinity $def, unbound workqueues $(cat $WQMASK)"
	! cpulist_meets "$APP" "$aff" &&
		! cpulist_meets "$APP" "$(mask_list "$def")" &&
		! cpulist_meets "$APP" "$(mask_list "$(cat $WQMASK)")"
}
check "interrupts (the pinned one, the default affinity) and unbound workqueues kept off its CPUs" t_interrupts

t_quota_env()
{
	local id e side

	needs_pod || return
	id=$(awk '$1 == "app" { print $2 }' "$CRI/up.out")
	e=$(env_of app)
	side=$(env_of side)
	echo "# app's cpu.max '$(cat "$CG/pod$UID_ISO/$id/cpu.max")', pod's '$(cat "$CG/pod$UID_ISO/cpu.max")'"
	echo "$e" | grep -E '^(CPUMGR|OPENSHIFT)_' | diag
	echo "$side" | grep -E '^(CPUMGR|OPENSHIFT)_' | diag
	[ "$(cut -d' ' -f1 "$CG/pod$UID_ISO/$id/cpu.max")" = max ] &&
		[ "$(cut -d' ' -f1 "$CG/pod$UID_ISO/cpu.max")" = max ] &&
		echo "$e" | grep -qx "CPUMGR_EXCLUSIVE_CPUS=$APP" &&
		echo "$e" | grep -qx "OPENSHIFT_ISOLATED_CPUS=$APP" &&
		echo "$side" | grep -qx "OPENSHIFT_SHARED_CPUS=$(cri_line side)" &&
		grep -q "warning: pod $UID_ISO container side: the pod's cpu-load-balancing=disable,irq-load-balancing=disable,cpu-quota=disable not applied" "$CRI/nri.log"
}
check "no CFS quota for the app and its pod; each container's environment names its CPUs; the sidecar warned" t_quota_env

t_restarts()
{
	local id

	needs_pod || return
	cri_plugin_stop
	cri_plugin_start decide || return 1
	# an admin puts the interrupt back; the next round keeps it off
	echo 1-7 >"/proc/irq/$IRQ/smp_affinity_list"
	ctl reconcile >/dev/null || return 1
	id=$(awk '$1 == "app" { print $2 }' "$CRI/up.out")
	echo "# after the restart and a reconcile: partition $(cat "$CG/pod$UID_ISO/$id/cpuset.cpus.partition"), irq $IRQ on '$(cat /proc/irq/$IRQ/smp_affinity_list)'"
	[ "$(cat "$CG/pod$UID_ISO/$id/cpuset.cpus.partition")" = isolated ] &&
		! cpulist_meets "$APP" "$(cat /proc/irq/$IRQ/smp_affinity_list)"
}
check "the plugin restarted and the interrupt reset: a reconcile keeps it all" t_restarts

t_named_sidecar()
{
	local f uid=0b1e5a44-5f3c-4c55-9a0e-000000000031

	f=$(cri_pod_file "$POD" $uid)
	/usr/bin/python3 - "$f" <<-'EOF'
	import json, sys
	p = json.load(open(sys.argv[1]))
	p["metadata"]["annotations"] = {"cpu-load-balancing.crio.io/side": "disable"}
	json.dump(p, open(sys.argv[1], "w"))
	EOF
	cri_up "$f" && { echo "# admitted"; return 1; }
	diag <"$CRI/up.err"
	grep -q "only a container with exclusive CPUs" "$CRI/up.err" &&
		[ ! -e "$CG/pod$uid" ] && [ -z "$(rt_cpus $uid app)" ]
}
check "a pod naming its 500m sidecar for isolation is refused, nothing left" t_named_sidecar

t_down()
{
	needs_pod || return
	kubelet down $UID_ISO || return 1
	echo "# after the deletion: cpuset.cpus.isolated '$(cat $ISOLATED 2>/dev/null)', $CG exclusive '$(cat "$CG/cpuset.cpus.exclusive")', irq $IRQ on '$(cat /proc/irq/$IRQ/smp_affinity_list)'"
	# containerd removes the pod's cgroups: none left to hold CPUs
	[ -z "$(cat $ISOLATED 2>/dev/null)" ] &&
		[ -z "$(cat "$CG/cpuset.cpus.exclusive")" ] &&
		[ ! -e "$CG/pod$UID_ISO" ] &&
		[ "$(cat /proc/irq/$IRQ/smp_affinity_list)" = 1-7 ] &&
		[ ! -e "$S/quiet.json" ] && ctl audit >/dev/null
}
check "the pod deleted: no partition, the interrupt back, audit clean" t_down

t_after()
{
	[ -z "$(cat $SYSFS/exclusive_cpus)" ] && ctl audit >/dev/null
}
check "afterwards: nothing assigned, audit clean" t_after

ktap_exit
