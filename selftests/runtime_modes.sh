#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The OCI hook's other mode and the kernel's other mode, with runc and
# crun:
# - guard (the kubelet runs the static policy and decided): a container
#   the kubelet's checkpoint lists gets exactly the CPUs of its spec,
#   assigned and bound in the kernel; one it does not list gets the
#   shared pool, whatever its spec said; a pod's pool in the kubelet's
#   v4 checkpoint (KEP-5526) is held by the kernel beside its
#   containers' CPUs, past a slice's end, until the pod's last one;
# - audit mode: under pod cgroups nobody narrowed (plain mkdir, as the
#   kubelet leaves them) and with a spec naming another container's
#   CPUs, every container starts, the kernel counts the violations, and
#   the hook leaves `cpumgrctl audit` clean; containers join an
#   admitted pod one at a time (a shared sidecar, a second exclusive
#   container) and leave it one at a time;
# - the hook called by hand: a dead pid, createRuntime twice, poststop
#   twice, a container without pod annotations.

# pod cgroups narrowed by hand: the audit case needs ones nobody narrowed
RT_DAEMON=0
. "$CPUMGR_TOP/selftests/runtime_lib.sh"

trap rt_cleanup EXIT

rt_need runc crun

ktap_plan 6

rt_rootfs && rt_init enforce && rt_template guard || {
	echo "# set-up failed"
	exit 1
}

# the kubelet's checkpoint: gd/app holds 4-5 (checksum 0: unverified)
cat >"$RT/kubelet_state" <<EOF
{"policyName":"static","defaultCpuSet":"0-3,6-7","entries":{"gd":{"app":"4-5"}},"checksum":0}
EOF

t_guard_exclusive()
{
	local line

	rt_pod podgd || return 1
	rt_bundle "$RT/b-gd" gd app /kubepods/podgd/gd 2048 200000 4-5
	rt_run runc gd "$RT/b-gd" || { diag <"$RT/gd.err"; return 1; }
	line=$(rt_first_line runc gd)
	echo "# guard: first line '$line', kernel '$(rt_cpus gd app)'"
	[ "$line" = 4-5 ] && [ "$(rt_cpus gd app)" = 4-5 ] &&
		[ "$(cat $SYSFS/pods/gd/app/cgroup)" = "$CG/podgd/gd" ] &&
		[ "$(cat $SYSFS/pods/gd/pod_cgroup)" = "$CG/podgd" ]
}

t_guard_shared()
{
	local line shared

	rt_pod burstable/podgs || return 1
	# the kubelet's shared pool of a moment ago, 4-5 still in it
	rt_bundle "$RT/b-gs" gs web /kubepods/burstable/podgs/gs 512 0 0-3,6-7
	rt_run crun gs "$RT/b-gs" || { diag <"$RT/gs.err"; return 1; }
	line=$(rt_first_line crun gs)
	shared=$(cat $SYSFS/shared_cpus)
	echo "# guard shared: first line '$line', shared '$shared'"
	[ "$line" = "$shared" ] && [ ! -e "$SYSFS/pods/gs/web" ] &&
		rt_stop crun gs && rt_stop runc gd &&
		[ -z "$(cat $SYSFS/exclusive_cpus)" ] && rt_agree
}

# A pod with pod-level resources (KEP-5526): the 1.37 kubelet's v4
# checkpoint gives pod gp a pool 2-3,6-7, app its slice 2,6, log the
# pool's rest 3,7 (the file a 1.37 node of cpumgr wrote for the pod).
t_guard_pod_pool()
{
	local line

	cat >"$RT/kubelet_state" <<-'EOF'
	{"policyName":"static","defaultCpuSet":"0-1,4-5","entries":{"gp":{"app":"2,6","log":"3,7"}},"checksum":74079712,"data":"{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1,4-5\",\"entries\":{\"gp\":{\"app\":\"2,6\",\"log\":\"3,7\"}},\"podEntries\":{\"gp\":{\"cpuSet\":\"2-3,6-7\"}}}","dataChecksum":3082452921}
	EOF
	rt_template guard && rt_pod podgp || return 1
	rt_bundle "$RT/b-gpa" gp app /kubepods/podgp/app 2048 200000 2,6
	rt_bundle "$RT/b-gpl" gp log /kubepods/podgp/log 2 0 3,7
	rt_run runc gpa "$RT/b-gpa" || { diag <"$RT/gpa.err"; return 1; }
	rt_run crun gpl "$RT/b-gpl" || { diag <"$RT/gpl.err"; return 1; }
	line=$(rt_first_line crun gpl)
	echo "# pod pool: log's first line '$line', pool '$(cat $SYSFS/pods/gp/pod_cpus)'"
	[ "$line" = 3,7 ] && [ "$(rt_cpus gp app)" = 2,6 ] &&
		[ "$(rt_cpus gp log)" = 3,7 ] &&
		[ "$(cat $SYSFS/pods/gp/pod_cpus)" = 2-3,6-7 ] &&
		[ "$(cat $SYSFS/exclusive_cpus)" = 2-3,6-7 ] &&
		rt_stop runc gpa && [ "$(cat $SYSFS/pods/gp/pod_cpus)" = 2-3,6-7 ] &&
		rt_stop crun gpl && [ ! -e "$SYSFS/pods/gp" ] &&
		[ -z "$(cat $SYSFS/exclusive_cpus)" ]
}

# The hook by hand, as a runtime would call it: a dead pid (the cgroup
# then comes from linux.cgroupsPath), createRuntime twice, poststop
# twice, a container without pod annotations.
t_by_hand()
{
	local state cpus pid

	rt_template decide && rt_pod podhd &&
		echo "+cpuset +cpu" >"$CG/podhd/cgroup.subtree_control" &&
		mkdir "$CG/podhd/hd" ||
		{ echo "# set-up"; return 1; }
	rt_bundle "$RT/b-hd" hd app /kubepods/podhd/hd 1024 100000
	sleep 0 & pid=$!
	wait $pid
	state="{\"ociVersion\":\"1.0.2\",\"id\":\"hd\",\"status\":\"creating\",\"pid\":$pid,\"bundle\":\"$RT/b-hd\",\"annotations\":{\"io.cpumgr.pod-uid\":\"hd\",\"io.cpumgr.container-name\":\"app\"}}"
	echo "$state" | "$CTL" oci-hook --state-dir "$S" createRuntime ||
		{ echo "# createRuntime failed"; return 1; }
	cpus=$(rt_cpus hd app)
	echo "# by hand: cpus '$cpus', cgroup '$(cat "$CG/podhd/hd/cpuset.cpus")', bound '$(cat $SYSFS/pods/hd/app/cgroup)'"
	[ -n "$cpus" ] && [ "$(cat "$CG/podhd/hd/cpuset.cpus")" = "$cpus" ] &&
		[ "$(cat $SYSFS/pods/hd/app/cgroup)" = "$CG/podhd/hd" ] || return 1
	# again, stage from the state's status: nothing changes
	echo "$state" | "$CTL" oci-hook --state-dir "$S" || return 1
	[ "$(rt_cpus hd app)" = "$cpus" ] || return 1
	state=${state/creating/stopped}
	for _ in 1 2; do
		echo "$state" | "$CTL" oci-hook --state-dir "$S" poststop ||
			return 1
	done
	[ ! -e "$SYSFS/pods/hd" ] && [ ! -e "$S/pods/hd.json" ] ||
		{ echo "# poststop left it"; return 1; }
	# no pod annotations: left alone, exit 0, one line
	echo '{"ociVersion":"1.0.2","id":"plain","status":"creating","pid":1}' |
		"$CTL" oci-hook --state-dir "$S" createRuntime 2>"$RT/plain.err" &&
		grep -q "container plain has no pod annotations: left alone" \
			"$RT/plain.err" && [ "$(wc -l <"$RT/plain.err")" = 1 ] ||
		{ diag <"$RT/plain.err"; return 1; }
	rmdir "$CG/podhd/hd" "$CG/podhd"
	rt_agree
}

t_audit()
{
	local v0 v1 line ok=0

	ctl reset --force >/dev/null 2>&1 && rt_init audit && rt_template decide ||
		return 1
	rt_pod podax && rt_bundle "$RT/b-ax" ax app /kubepods/podax/ax 2048 200000 &&
		rt_run runc ax "$RT/b-ax" && rt_first_line runc ax >/dev/null ||
		{ diag <"$RT/ax.err"; return 1; }
	v0=$(cat $SYSFS/violations)
	# nobody narrows these pod cgroups: their containers inherit 0-7
	RT_NARROW=0 rt_pod burstable/podan || return 1
	rt_bundle "$RT/b-an" an web /kubepods/burstable/podan/an 512 0
	rt_run crun an "$RT/b-an" || { diag <"$RT/an.err"; ok=1; }
	RT_NARROW=0 rt_pod podav || return 1
	rt_bundle "$RT/b-av" av app /kubepods/podav/av 1024 100000 \
		"$(rt_cpus ax app)"
	rt_run runc av "$RT/b-av" || { diag <"$RT/av.err"; ok=1; }
	for id in an av; do
		line=$(rt_first_line x $id)
		echo "# audit: $id on '$line'"
		[ -n "$line" ] && rt_disjoint "$line" "$(rt_cpus ax app)" || ok=1
	done
	v1=$(cat $SYSFS/violations)
	echo "# violations $v0 -> $v1"
	[ "$v1" -gt "$v0" ] || ok=1
	# more containers join pod ax, already admitted: a shared sidecar
	# and a second exclusive one (in enforce mode their new cgroups
	# would inherit the pod's CPUs: the kernel's same-pod rule)
	rt_bundle "$RT/b-as" ax side /kubepods/podax/as 256 0
	rt_run crun as "$RT/b-as" || { diag <"$RT/as.err"; ok=1; }
	rt_bundle "$RT/b-a2" ax two /kubepods/podax/a2 1024 100000
	rt_run runc a2 "$RT/b-a2" || { diag <"$RT/a2.err"; ok=1; }
	line=$(rt_first_line x as)
	echo "# pod ax: app '$(rt_cpus ax app)', two '$(rt_cpus ax two)' on '$(rt_first_line x a2)', side started on '$line', now on '$(cat "$CG/podax/as/cpuset.cpus.effective")'"
	[ "$(rt_first_line x a2)" = "$(rt_cpus ax two)" ] &&
		[ -n "$(rt_cpus ax two)" ] &&
		rt_disjoint "$(rt_cpus ax app)" "$(rt_cpus ax two)" &&
		rt_disjoint "$line" "$(rt_cpus ax app)" &&
		[ "$(cat "$CG/podax/as/cpuset.cpus.effective")" = \
		  "$(cat $SYSFS/shared_cpus)" ] || ok=1
	# one container stops: the pod stays with the others
	rt_stop runc a2
	[ -z "$(rt_cpus ax two)" ] && [ -n "$(rt_cpus ax app)" ] &&
		[ -e "$S/pods/ax.json" ] || ok=1
	rt_stop crun as
	rt_stop crun an
	rt_stop runc av
	rt_stop runc ax
	[ ! -e "$S/pods/ax.json" ] || ok=1
	[ $ok = 0 ]
}

check "guard: the kubelet's CPUs are assigned and bound" t_guard_exclusive
check "guard: a container the kubelet did not pin gets the shared pool" \
	t_guard_shared
check "guard: a pod's pool from the kubelet's checkpoint, held past a slice's end" \
	t_guard_pod_pool
check "the hook by hand: dead pid, run twice, poststop twice, no annotations" \
	t_by_hand
check "audit: every container starts, violations are counted" t_audit
check "audit: table, checkpoint, cgroups agree; audit clean" rt_agree

ktap_exit
