#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real runtimes on a cpumgr node in enforce mode, `cpumgrctl oci-hook
# --mode decide` as their createRuntime and poststop hook (config.json
# for runc and crun, --hooks-dir with contrib/oci-hooks.d/cpumgr.json.in for podman):
#
# - a Guaranteed 2-CPU container started by runc, by crun and by podman
#   prints its exclusive CPUs as the first line of its own program, and
#   its poststop gives them back;
# - Burstable and BestEffort containers in fresh pod cgroups
#   (kubepods/burstable/pod<UID>, kubepods/besteffort/pod<UID>), and a
#   shared sidecar in a Guaranteed pod, start on the shared pool beside
#   an exclusive container;
# - a container whose spec names another container's exclusive CPUs
#   (the kubelet's static policy would never; a bug or a hand-made
#   spec) fails: the runtime's error and dmesg say why, and no cgroup,
#   runtime state or table entry is left;
# - a hook that refuses (more CPUs than there are) fails the start with
#   its one line, leaving nothing;
# - a pod's second Guaranteed container whose spec names the shared pool
#   (runc writes it before the hook, its task already in the cgroup)
#   gets its exclusive CPUs: the others let go of them first, and the
#   ASSIGN goes without CPUMGR_A_NARROWED, since the kernel cannot exempt
#   a cgroup bound only after it (issue 32, item 5);
# - table, checkpoint, pod files and cgroups agree, audit is clean;
# - with the node's system partition (KEP-5894) on CPU 0, a kube-system
#   pod's Guaranteed container below kubepods/system runs on CPU 0
#   alone and gets no exclusive CPUs.
# smt8 preset: 8 CPUs, CPU 0 reserved.

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

trap rt_cleanup EXIT

rt_need runc crun

ktap_plan 11

rt_rootfs && rt_init enforce && rt_template decide || {
	echo "# set-up failed"
	exit 1
}

# t_guaranteed RUNTIME: a Guaranteed pod with one 2-CPU container.
t_guaranteed()
{
	local rt=$1 uid=g-$1 id=g-$1-app line cpus

	rt_pod "pod$uid" || return 1
	if [ "$rt" = podman ]; then
		rt_podman_bundle "$RT/b-$id" "$uid" app "/kubepods/pod$uid" \
			2048 200000
	else
		rt_bundle "$RT/b-$id" "$uid" app "/kubepods/pod$uid/$id" 2048 200000
	fi
	rt_run "$rt" "$id" "$RT/b-$id" || { diag <"$RT/$id.err"; return 1; }
	line=$(rt_first_line "$rt" "$id")
	cpus=$(rt_cpus "$uid" app)
	echo "# $rt: first line '$line', exclusive '$cpus'"
	[ -n "$cpus" ] && [ "$line" = "$cpus" ] || { diag <"$RT/$id.err"; return 1; }
	rt_stop "$rt" "$id"
	# poststop released it and dropped the pod
	[ ! -e "$SYSFS/pods/$uid" ] && rt_gone "$rt" "$id" &&
		[ ! -e "$S/pods/$uid.json" ] && rt_agree || {
		ls "$SYSFS/pods" "$S/pods" 2>&1 | diag
		return 1
	}
}

t_shared()
{
	local ok=0 excl shared line ids id

	# an exclusive container beside them (started first: until the
	# controller narrows new pod cgroups itself, rt_pod narrows them
	# to the shared pool of the moment)
	rt_pod podg-side || return 1
	rt_bundle "$RT/b-x" g-side app /kubepods/podg-side/x 2048 200000
	rt_run runc x "$RT/b-x" || { diag <"$RT/x.err"; ok=1; }
	rt_pod burstable/podb1 && rt_pod besteffort/podb2 || return 1
	rt_bundle "$RT/b-bu" b1 web /kubepods/burstable/podb1/bu 256 0
	rt_bundle "$RT/b-be" b2 job /kubepods/besteffort/podb2/be 2 0
	rt_run crun bu "$RT/b-bu" || { diag <"$RT/bu.err"; ok=1; }
	rt_run runc be "$RT/b-be" || { diag <"$RT/be.err"; ok=1; }
	[ "$(rt_first_line runc x)" = "$(rt_cpus g-side app)" ] || ok=1
	# a shared sidecar in the Guaranteed pod (500m, not an integer):
	# its new cgroup inherits the pod cgroup's CPUs, the pod's own
	# exclusive ones included, until the runtime writes its cpuset; the
	# kernel lets it with its same-pod rule (RT_SAME_POD=0 leaves it out)
	ids="bu be"
	if [ "${RT_SAME_POD:-1}" = 1 ]; then
		rt_bundle "$RT/b-sc" g-side sidecar /kubepods/podg-side/sc 512 50000
		rt_run crun sc "$RT/b-sc" || { diag <"$RT/sc.err"; ok=1; }
		ids="bu be sc"
	fi
	excl=$(cat $SYSFS/exclusive_cpus)
	shared=$(cat $SYSFS/shared_cpus)
	for id in $ids; do
		line=$(rt_first_line x "$id")
		echo "# $id: first line '$line', shared '$shared', exclusive '$excl'"
		[ "$line" = "$shared" ] && rt_disjoint "$line" "$excl" || ok=1
	done
	# the hook recorded the QoS class from the cgroup parent
	grep -q '"qosClass":[[:space:]]*"Burstable"' "$S/pods/b1.json" &&
		grep -q '"qosClass":[[:space:]]*"BestEffort"' "$S/pods/b2.json" || ok=1
	[ $ok = 0 ] && rt_agree
}

t_stop_shared()
{
	rt_stop crun bu
	rt_stop runc be
	[ "${RT_SAME_POD:-1}" = 1 ] && rt_stop crun sc
	rt_stop runc x
	[ ! -e "$SYSFS/pods/g-side" ] && [ ! -e "$S/pods/b1.json" ] &&
		[ ! -e "$S/pods/g-side.json" ] && rt_agree
}

# t_violation RUNTIME: a spec naming another pod's exclusive CPUs.
t_violation()
{
	local rt=$1 id=v-$1 theirs

	theirs=$(rt_cpus g-hold app)
	[ -n "$theirs" ] || return 1
	rt_pod podv-$rt || return 1
	rt_bundle "$RT/b-$id" "v-$rt" app "/kubepods/podv-$rt/$id" 2048 200000 \
		"$theirs"
	dmesg -C
	if rt_run "$rt" "$id" "$RT/b-$id"; then
		echo "# $rt started a container on $theirs"
		return 1
	fi
	diag <"$RT/$id.err"
	dmesg | grep cpumgr | diag
	grep -qi "busy" "$RT/$id.err" || return 1
	# the kernel's line: who holds those CPUs (from the kernel that logs it)
	if grep -aq "by pid %d" "$CPUMGR_MODULE" 2>/dev/null; then
		dmesg | grep -q "cpumgr: refused .*$id.*g-hold" || return 1
	else
		echo "# this module does not log refusals yet: dmesg not checked"
	fi
	rt_stop "$rt" "$id"
	# crun leaves its leaf cgroup behind on a failed start (empty: no
	# task, no CPUs of its own); runc removes what it made
	if [ -e "$CG/podv-$rt/$id" ]; then
		echo "# $rt left $CG/podv-$rt/$id: procs '$(cat "$CG/podv-$rt/$id/cgroup.procs")' cpus '$(cat "$CG/podv-$rt/$id/cpuset.cpus")'"
		[ -z "$(cat "$CG/podv-$rt/$id/cgroup.procs")" ] &&
			[ -z "$(cat "$CG/podv-$rt/$id/cpuset.cpus")" ] &&
			[ "$rt" = crun ] || return 1
	fi
	rt_gone "$rt" "$id" && [ ! -e "$SYSFS/pods/v-$rt" ] &&
		[ ! -e "$S/pods/v-$rt.json" ]
}

t_hook_refuses()
{
	rt_pod podbig || return 1
	rt_bundle "$RT/b-big" big app /kubepods/podbig/big 16384 1600000
	if rt_run runc big "$RT/b-big"; then
		echo "# runc started a 16-CPU container on 8 CPUs"
		return 1
	fi
	diag <"$RT/big.err"
	grep -q "cpumgrctl: oci-hook createRuntime: container big (pod big, container app): not enough cpus available" \
		"$RT/big.err" || return 1
	rt_stop runc big
	rt_gone runc big && [ ! -e "$CG/podbig/big" ] &&
		[ ! -e "$SYSFS/pods/big" ] && [ ! -e "$S/pods/big.json" ] &&
		rt_agree
}

# t_spec_pool: a second container of a pod whose cgroup the kernel has
# (its first one runs), its cgroup running and naming the pool at the hook
t_spec_pool()
{
	local uid=g-pool line cpus

	rt_pod "pod$uid" || return 1
	rt_bundle "$RT/b-pool1" "$uid" app "/kubepods/pod$uid/pool1" 2048 200000
	rt_run runc pool1 "$RT/b-pool1" || { diag <"$RT/pool1.err"; return 1; }
	rt_first_line runc pool1 >/dev/null
	rt_bundle "$RT/b-pool2" "$uid" app2 "/kubepods/pod$uid/pool2" 2048 \
		200000 "$(cat $SYSFS/shared_cpus)"
	rt_run runc pool2 "$RT/b-pool2" || { diag <"$RT/pool2.err"; return 1; }
	line=$(rt_first_line runc pool2)
	cpus=$(rt_cpus "$uid" app2)
	echo "# first line '$line', exclusive '$cpus'"
	[ -n "$cpus" ] && [ "$line" = "$cpus" ] || { diag <"$RT/pool2.err"; return 1; }
	rt_stop runc pool2
	rt_stop runc pool1
	rt_gone runc pool2 && rt_gone runc pool1 && rt_agree
}

# KEP-5894 through the hook: the node set up again with its system
# partition on CPU 0 (no container runs), a kube-system pod's 2-CPU
# container below kubepods/system, named as CRI-O's hooks see it (its
# annotations): no exclusive CPUs, it runs on CPU 0 alone, and its
# poststop leaves nothing.
t_system_pod()
{
	local uid=ks-pod id=ks-app line d

	rt_configure enforce --system-partition 0 || return 1
	[ "$(cat $SYSFS/system_cgroup)" = "$CG/system" ] || return 1
	for d in "$CG/system" "$CG/system/pod$uid"; do
		[ -d "$d" ] || mkdir "$d" || return 1
	done
	echo "+cpuset +cpu" >"$CG/system/cgroup.subtree_control"
	echo "+cpuset +cpu" >"$CG/system/pod$uid/cgroup.subtree_control"
	rt_bundle "$RT/b-$id" "$uid" app "/kubepods/system/pod$uid/$id" 2048 200000
	sed -i -e 's|"io.cpumgr.pod-uid": "\(.*\)",|"io.kubernetes.pod.uid": "\1", "io.kubernetes.pod.namespace": "kube-system",|' \
		-e 's|"io.cpumgr.container-name"|"io.kubernetes.container.name"|' \
		"$RT/b-$id/config.json"
	grep -q '"io.kubernetes.pod.namespace": "kube-system"' \
		"$RT/b-$id/config.json" || return 1
	rt_run runc "$id" "$RT/b-$id" || { diag <"$RT/$id.err"; return 1; }
	line=$(rt_first_line runc "$id")
	echo "# kube-system pod: first line '$line', its cgroup's CPUs '$(cat "$CG/system/pod$uid/$id/cpuset.cpus.effective")'"
	[ "$line" = 0 ] && [ ! -e "$SYSFS/pods/$uid" ] &&
		grep -Eq '"namespace":[[:space:]]*"kube-system"' "$S/pods/$uid.json" ||
		{ diag <"$RT/$id.err"; return 1; }
	rt_stop runc "$id"
	rt_gone runc "$id" && [ ! -e "$S/pods/$uid.json" ] && rt_agree
}

for rt in runc crun; do
	check "Guaranteed 2-CPU container by $rt runs on its exclusive CPUs" \
		t_guaranteed $rt
done
check "a second one whose spec names the shared pool gets its exclusive CPUs too" \
	t_spec_pool
if ! rt_have podman; then
	ktap_missing "Guaranteed 2-CPU container by podman runs on its exclusive CPUs" podman
elif ! rt_podman_setup decide; then
	ktap_result not-ok "Guaranteed 2-CPU container by podman runs on its exclusive CPUs # podman's set-up failed"
else
	check "Guaranteed 2-CPU container by podman runs on its exclusive CPUs" \
		t_guaranteed podman
fi
check "Burstable, BestEffort and a shared sidecar start on the shared pool" \
	t_shared
check "their poststop hooks release them" t_stop_shared
# the holder of the CPUs the violating specs name
rt_pod podg-hold && rt_bundle "$RT/b-hold" g-hold app \
	/kubepods/podg-hold/hold 2048 200000 && rt_run crun hold "$RT/b-hold"
rt_first_line crun hold >/dev/null
for rt in runc crun; do
	check "a $rt spec naming another container's CPUs is refused, nothing left" \
		t_violation $rt
done
check "a hook refusal fails the start with one line, nothing left" \
	t_hook_refuses
rt_stop crun hold
check "afterwards: table, checkpoint, cgroups agree; audit clean" rt_agree
check "a kube-system pod below the system cgroup: CPU 0 alone, none exclusive" \
	t_system_pod

ktap_exit
