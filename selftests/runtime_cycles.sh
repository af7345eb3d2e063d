#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Create/start/stop cycles with runc and crun interleaved
# (CPUMGR_RUNTIME_CYCLES, default 50), Guaranteed 1-CPU and Burstable
# pods in turn, with the OCI hook in decide mode, enforce mode:
# - every 5th container's process is killed with SIGKILL before the
#   runtime deletes it (poststop then runs for a dead process);
# - every 7th runtime is killed with SIGKILL while it creates the
#   container: its poststop never runs, the test removes what it left
#   (tasks, cgroup) as a kubelet would, and the next hook forgets the
#   container whose cgroup is gone;
# - every 9th poststop runs twice.
# Each started container runs on its exclusive CPUs, or within the
# shared pool and off every exclusive CPU; afterwards the table, the checkpoint, the pod files and the
# cgroups agree, nothing is left assigned, `cpumgrctl audit` is clean.

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

trap rt_cleanup EXIT

rt_need runc crun

CYCLES=${CPUMGR_RUNTIME_CYCLES:-50}
ktap_plan 4

rt_rootfs && rt_init enforce && rt_template decide || {
	echo "# set-up failed"
	exit 1
}

# Remove a container's cgroup and whatever runs in it (a kubelet's
# cleanup after a runtime that died).
reap()
{
	local d=$1 pid

	[ -d "$d" ] || return 0
	while read -r pid; do
		kill -9 "$pid" 2>/dev/null
	done <"$d/cgroup.procs"
	for _ in $(seq 50); do
		rmdir "$d" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

bad_starts=0
bad_cpus=0
runtime_kills=0

cycle()
{
	local i=$1 rt=runc uid="c$1" id="c$1" pod line want

	[ $((i % 2)) = 0 ] && rt=crun
	if [ $((i % 2)) = 1 ]; then
		pod=podc$i
		rt_pod "$pod" || return 1
		rt_bundle "$RT/b-$id" "$uid" app "/kubepods/$pod/$id" 1024 100000
	else
		pod=burstable/podc$i
		rt_pod "$pod" || return 1
		rt_bundle "$RT/b-$id" "$uid" app "/kubepods/$pod/$id" 512 0
	fi
	if [ $((i % 7)) = 0 ]; then
		# the runtime dies while it creates the container
		"$rt" --root "$RT/$rt" run -d --bundle "$RT/b-$id" "$id" \
			>"$RT/$id.out" 2>"$RT/$id.err" </dev/null &
		sleep 0.$((i % 5 + 2))
		kill -9 $! 2>/dev/null
		wait $! 2>/dev/null
		runtime_kills=$((runtime_kills + 1))
		echo "# cycle $i: $rt killed; the hook had recorded it: $([ -e "$S/pods/$uid.json" ] && echo yes || echo no)"
		rt_stop "$rt" "$id"
		reap "$CG/$pod/$id" || echo "# cycle $i: $CG/$pod/$id stays"
		rm -rf "${RT:?}/$rt/$id"
	else
		if ! rt_run "$rt" "$id" "$RT/b-$id"; then
			echo "# cycle $i: $rt failed:"
			diag <"$RT/$id.err"
			bad_starts=$((bad_starts + 1))
		fi
		line=$(rt_first_line "$rt" "$id")
		want=$(rt_cpus "$uid" app)
		if [ -n "$want" ] && [ "$line" != "$want" ]; then
			echo "# cycle $i: $rt container on '$line', its CPUs '$want'"
			bad_cpus=$((bad_cpus + 1))
		fi
		# the Guaranteed one (odd cycles) must have been given some
		if [ $((i % 2)) = 1 ] && [ -z "$want" ]; then
			echo "# cycle $i: $rt Guaranteed container on '$line', no exclusive CPUs"
			bad_cpus=$((bad_cpus + 1))
		fi
		# a shared one: within the shared pool, off every exclusive
		# CPU (within: the QoS cgroup rt_pod narrowed may lag
		# behind CPUs the hook's sweep just gave back)
		if [ -z "$want" ] &&
		   ! { [ -n "$line" ] &&
		       rt_subset "$line" "$(cat $SYSFS/shared_cpus)" &&
		       rt_disjoint "$line" "$(cat $SYSFS/exclusive_cpus)"; }; then
			echo "# cycle $i: $rt container on '$line', shared pool '$(cat $SYSFS/shared_cpus)'"
			bad_cpus=$((bad_cpus + 1))
		fi
		rt_stop "$rt" "$id" $([ $((i % 5)) = 0 ] && echo kill)
		if [ $((i % 9)) = 0 ]; then
			echo "{\"ociVersion\":\"1.0.2\",\"id\":\"$id\",\"status\":\"stopped\",\"bundle\":\"$RT/b-$id\"}" |
				"$CTL" oci-hook --state-dir "$S" poststop ||
				bad_starts=$((bad_starts + 1))
		fi
	fi
	rmdir "$CG/$pod" 2>/dev/null
	return 0
}

all_started()
{
	[ "$bad_starts" = 0 ] && [ "$done_cycles" = "$CYCLES" ]
}

done_cycles=0
for i in $(seq "$CYCLES"); do
	cycle "$i" || { echo "# cycle $i: its pod's cgroups could not be made"; break; }
	done_cycles=$i
done
echo "# $done_cycles of $CYCLES cycles, $runtime_kills runtimes killed, $bad_starts failed starts, $bad_cpus containers on other CPUs"
check "every container started by the runtime started" all_started
check "every container ran on its exclusive CPUs or the shared pool" \
	[ "$bad_cpus" = 0 ]

# one more hook run forgets what killed runtimes left
t_after()
{
	rt_pod podlast && rt_bundle "$RT/b-last" last app /kubepods/podlast/last \
		1024 100000 && rt_run runc last "$RT/b-last" &&
		rt_first_line runc last >/dev/null || return 1
	rt_stop runc last
	ls "$S/pods" | diag
	[ -z "$(cat $SYSFS/exclusive_cpus)" ] && [ -z "$(ls "$S/pods")" ] &&
		[ -z "$(runc --root "$RT/runc" list -q)" ] &&
		[ -z "$(crun --root "$RT/crun" list -q 2>/dev/null)" ]
}
check "nothing is left assigned, recorded or known to the runtimes" t_after
check "table, checkpoint, cgroups agree; audit clean" rt_agree

ktap_exit
