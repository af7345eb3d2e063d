#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sequence every container runtime follows (create the container's
# cgroup, move its first task in, then write its cpuset.cpus), on a node
# in enforce mode with a Guaranteed pod holding exclusive CPUs (issue
# 10), at the cgroup level: the kubelet's cgroupfs layout under
# /sys/fs/cgroup/kubepods, tasks moved by hand.
#
#   - the controller narrows the QoS cgroups to the shared pool and a
#     bound pod cgroup to the shared pool plus its pod's CPUs;
#   - a new container cgroup in a Burstable pod, and one in the
#     Guaranteed pod (the kernel's same-pod rule), take their first task
#     before any cpuset write, and never hold another pod's CPUs;
#   - a new Guaranteed pod's cgroup inherits every CPU until narrowed: a
#     task is refused there, and the daemon narrows such a cgroup as soon
#     as it is created, so that the same sequence then works.
# With CPUMGR_POOL_MOVES=partitions (init --pool-moves partitions) the
# exclusive container's cgroup is a partition, which the kernel takes
# from every other cgroup: the QoS and pod cgroups name no CPU, a new
# pod's cgroup takes its first task at once, the daemon still gives a
# pod cgroup created while it runs the shared pool, and a pod cgroup
# written by hand moves no partition and gets the pool (and its pod's
# CPUs) at a reconcile.
# Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup/kubepods
OUT=$(mktemp -d)
S=$OUT/state
PODS=$CPUMGR_TOP/user/tests/data/pods
G=0b1e5a44-5f3c-4c55-9a0e-000000000004	# guaranteed-2cpu: nginx, 2 CPUs
PARTS=
[ "$CPUMGR_POOL_MOVES" != partitions ] || PARTS=1
SLEEPER=
DAEMON=

cleanup()
{
	[ -z "$DAEMON" ] || { kill "$DAEMON"; wait "$DAEMON"; } 2>/dev/null
	[ -z "$SLEEPER" ] || kill "$SLEEPER" 2>/dev/null
	"$CTL" reset --force --state-dir "$S" >/dev/null 2>&1
	find "$CG" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

cpus_of()
{
	local v

	read -r v <"$1" || return 1
	echo "$v"
}

# DIR: a sleeping task moved into DIR, as a runtime moves its first one.
enter()
{
	echo "$SLEEPER" >"$1/cgroup.procs"
}

# POD CTR: the pod's and the container's cgroups, controllers on, as the
# kubelet and a runtime make them.
mkctr()
{
	mkdir -p "$1" &&
	echo "+cpuset +cpu" >"$1/cgroup.subtree_control" &&
	mkdir "$1/$2"
}

setup()
{
	echo "+cpuset +cpu" >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$CG/burstable" "$CG/besteffort" &&
	echo "+cpuset +cpu" >"$CG/cgroup.subtree_control" &&
	echo "+cpuset +cpu" >"$CG/burstable/cgroup.subtree_control" &&
	echo "+cpuset +cpu" >"$CG/besteffort/cgroup.subtree_control" &&
	"$CTL" init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root "$CG" --enforce enforce --state-dir "$S" \
		${CPUMGR_POOL_MOVES:+--pool-moves "$CPUMGR_POOL_MOVES"} \
		>"$OUT/init" 2>&1 &&
	"$CTL" admit "$PODS/guaranteed-2cpu.json" --state-dir "$S" \
		>"$OUT/admit" 2>&1 &&
	"$CTL" attach --pod $G --container nginx --cgroup "pod$G/nginx" \
		--pod-cgroup "pod$G" --create --state-dir "$S" \
		>"$OUT/attach" 2>&1 || {
		cat "$OUT/init" "$OUT/admit" "$OUT/attach" 2>/dev/null | diag
		return 1
	}
	sleep 1000 &
	SLEEPER=$!
	read -r SHARED <"$SYSFS/shared_cpus" &&
	GCPUS=$(cpus_of "$SYSFS/pods/$G/nginx/cpus") &&
	echo "# shared $SHARED, pod $G $GCPUS"
}

# DIR WANT: DIR names WANT (with partitions: no CPU) and runs on WANT.
holds()
{
	local named eff want=$2

	[ -z "$PARTS" ] || want=
	named=$(cpus_of "$1/cpuset.cpus")
	eff=$(cpus_of "$1/cpuset.cpus.effective")
	cpus_rel same "$named" "$want" ||
		{ echo "# $1 names '$named', not '$want'"; return 1; }
	cpus_rel same "$eff" "$2" ||
		{ echo "# $1 runs on '$eff', not '$2'"; return 1; }
}

qos_narrowed()
{
	holds "$CG/burstable" "$SHARED" && holds "$CG/besteffort" "$SHARED"
}

# with partitions its pod's CPUs are the partition's, below it
pod_narrowed()
{
	if [ -n "$PARTS" ]; then
		holds "$CG/pod$G" "$SHARED"
	else
		holds "$CG/pod$G" "$SHARED,$GCPUS"
	fi
}

burstable_start()
{
	local d=$CG/burstable/podb1/ctr eff

	mkctr "$CG/burstable/podb1" ctr && enter "$d" || return 1
	eff=$(cpus_of "$d/cpuset.cpus.effective")
	[ "$eff" = "$SHARED" ] || { echo "# effective $eff"; return 1; }
	echo "$SHARED" >"$d/cpuset.cpus"
}

same_pod_start()
{
	local d=$CG/pod$G/sidecar eff

	mkdir "$d" && enter "$d" || return 1
	eff=$(cpus_of "$d/cpuset.cpus.effective")
	# its pod's CPUs at most, until the runtime writes its cpuset
	cpus_rel subset "$eff" "$SHARED,$GCPUS" &&
	echo "$SHARED" >"$d/cpuset.cpus" &&
	[ "$(cpus_of "$d/cpuset.cpus.effective")" = "$SHARED" ] &&
	! echo "$GCPUS" >"$d/cpuset.cpus" 2>/dev/null
}

new_pod_refused()
{
	local d=$CG/podnew/ctr

	mkdir -p "$d" || return 1
	if [ -n "$PARTS" ]; then
		# no cpuset below podnew yet: its task runs on podnew's
		enter "$d" && holds "$CG/podnew" "$SHARED" &&
			echo "$SLEEPER" >/sys/fs/cgroup/cgroup.procs
		return
	fi
	enter "$d" 2>/dev/null && return 1
	# by id on PREEMPT_RT before 7.x (refusal_log.sh says why)
	dmesg | grep -q -e "cpumgr: refused task move through cgroup.procs in cgroup /kubepods/podnew/ctr by pid .*are pod $G container nginx" \
		-e "cpumgr: refused task move through cgroup.procs in cgroup id $(stat -c %i "$d") by pid .*are pod $G container nginx"
}

# DIR: wait up to 30 s for the daemon to narrow DIR; prints how long.
wait_narrowed()
{
	local i

	for ((i = 0; i < 600; i++)); do
		[ -n "$(cpus_of "$1/cpuset.cpus")" ] && {
			echo "# $1 narrowed after about $((i * 50)) ms"
			return 0
		}
		sleep 0.05
	done
	return 1
}

# With partitions the daemon's first round narrows nothing (podnew
# keeps naming no CPU), and a pod cgroup created while it runs gets the
# shared pool as with writes; the sequence works there.
daemon_partitions()
{
	wait_narrowed "$CG/podlater" && mkctr "$CG/podlater" ctr &&
		enter "$CG/podlater/ctr" &&
		holds "$CG/podlater/ctr" "$SHARED" || {
		diag <"$OUT/daemon"
		return 1
	}
	[ -z "$(cpus_of "$CG/podnew/cpuset.cpus")" ] ||
		{ echo "# podnew names CPUs"; return 1; }
	# and one below a QoS cgroup, which it watches too
	mkdir -p "$CG/besteffort/podbe" &&
		wait_narrowed "$CG/besteffort/podbe" || {
		diag <"$OUT/daemon"
		return 1
	}
}

daemon_narrows()
{
	local i

	"$CTL" daemon --reconcile-period 60s --state-dir "$S" \
		>"$OUT/daemon" 2>&1 &
	DAEMON=$!
	if [ -n "$PARTS" ]; then
		# its watch is set up before it says it started
		for ((i = 0; i < 600; i++)); do
			grep -q "daemon: started" "$OUT/daemon" && break
			sleep 0.05
		done
		[ $i -lt 600 ] || { diag <"$OUT/daemon"; return 1; }
		mkdir "$CG/podlater" && daemon_partitions
		return
	fi
	# the first round narrows what was there before it started
	wait_narrowed "$CG/podnew" && enter "$CG/podnew/ctr" || {
		diag <"$OUT/daemon"
		return 1
	}
	mkdir "$CG/podlater" && wait_narrowed "$CG/podlater" &&
		mkctr "$CG/podlater" ctr && enter "$CG/podlater/ctr" &&
		[ "$(cpus_of "$CG/podlater/ctr/cpuset.cpus.effective")" = \
		  "$(cpus_of "$SYSFS/shared_cpus")" ] || {
		diag <"$OUT/daemon"
		return 1
	}
	mkdir -p "$CG/besteffort/podbe" &&
		wait_narrowed "$CG/besteffort/podbe" || {
		diag <"$OUT/daemon"
		return 1
	}
}

# audit mode: the pod cgroup narrowed to shared CPUs moves the exclusive
# container there on cgroup2; audit compares effective CPUs and sees it,
# reconcile puts it back.
moved_off()
{
	local eff ret=0

	# without the daemon, which would repair it at once
	kill "$DAEMON" && wait "$DAEMON"
	DAEMON=
	"$CTL" configure --enforce audit >/dev/null &&
	echo "$SHARED" >"$CG/pod$G/cpuset.cpus" || return 1
	eff=$(cpus_of "$CG/pod$G/nginx/cpuset.cpus.effective")
	echo "# nginx now runs on $eff"
	[ -z "$PARTS" ] || { partition_stays "$eff"; return; }
	"$CTL" audit --state-dir "$S" >"$OUT/audit" 2>&1 && ret=1
	grep -q "^offender kubepods/pod$G/nginx cpus $GCPUS of $G/nginx, which does not run on them" \
		"$OUT/audit" || ret=1
	"$CTL" reconcile --state-dir "$S" >"$OUT/reconcile" 2>&1 || ret=1
	eff=$(cpus_of "$CG/pod$G/nginx/cpuset.cpus.effective")
	[ "$eff" = "$GCPUS" ] || ret=1
	"$CTL" configure --enforce enforce >/dev/null || ret=1
	[ $ret = 0 ] || cat "$OUT/audit" "$OUT/reconcile" | diag
	return $ret
}

# With partitions nginx's cgroup stays the partition on its CPUs, audit
# is clean, and a reconcile gives the pod cgroup what a narrowed one
# holds: the pool of now and its pod's CPUs.
partition_stays()
{
	local ret=0 named

	[ "$1" = "$GCPUS" ] || ret=1
	"$CTL" audit --state-dir "$S" >"$OUT/audit" 2>&1 || ret=1
	"$CTL" reconcile --state-dir "$S" >"$OUT/reconcile" 2>&1 || ret=1
	named=$(cpus_of "$CG/pod$G/cpuset.cpus")
	cpus_rel same "$named" "$SHARED,$GCPUS" || { echo "# pod names '$named'"; ret=1; }
	"$CTL" configure --enforce enforce >/dev/null || ret=1
	[ $ret = 0 ] || cat "$OUT/audit" "$OUT/reconcile" | diag
	return $ret
}

audit_clean()
{
	echo "$SLEEPER" >/sys/fs/cgroup/cgroup.procs
	"$CTL" audit --state-dir "$S" >"$OUT/audit" 2>&1 || {
		diag <"$OUT/audit"
		return 1
	}
}

ktap_plan 9
check "init, admit and attach a Guaranteed pod" setup
check "QoS cgroups hold the shared pool" qos_narrowed
check "the pod cgroup holds the shared pool and its pod's CPUs" pod_narrowed
check "a Burstable container: task first, then its cpuset" burstable_start
check "a container beside the exclusive one in its pod" same_pod_start
if [ -z "$PARTS" ]; then
	check "a new pod's cgroup before it is narrowed: refused, and logged" new_pod_refused
	check "the daemon narrows new pod cgroups; the sequence then works" daemon_narrows
	check "audit is clean" audit_clean
	check "audit sees a container moved off its CPUs, reconcile fixes it" moved_off
else
	check "a new pod's cgroup takes its first task at once, on the pool" new_pod_refused
	check "the daemon gives a new pod cgroup the pool; the sequence works" daemon_narrows
	check "audit is clean" audit_clean
	check "a pod cgroup written by hand moves no partition; reconcile gives it the pool" moved_off
fi
ktap_exit
