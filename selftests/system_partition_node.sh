#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The node's system partition (KEP-5894) the node's way, against the
# module: init --system-partition 0 with CPU 0 reserved under
# strict-cpu-reservation makes the managed root's system cgroup on CPU 0
# and tells the module (sysfs system_cgroup); a kube-system pod asking
# for 2 CPUs gets none exclusive, and its task attached below the
# system cgroup runs on CPU 0, the reserved CPU no other pod's task may
# have; a default pod's exclusive container cannot be attached there;
# a system pod's cgroup written off the partition is audit's offender
# and reconcile gives it CPU 0 back; a partition on CPUs the policy
# hands out is refused and changes nothing.  Written for the smt8
# preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
S=$OUT/state
CG=/sys/fs/cgroup/cpumgr-system
SYS=$CG/system
KS=0b1e5a44-5f3c-4c55-9a0e-000000000051
DF=0b1e5a44-5f3c-4c55-9a0e-000000000052
PIDS=()

cleanup()
{
	local p

	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	node_cleanup
	rm -rf "$OUT"
}
trap cleanup EXIT

# A and B are the same CPUs, however written.
same_cpus()
{
	cpus_rel same "$1" "$2" ||
		{ echo "# CPUs '$1', not '$2'" | diag; return 1; }
}

allowed()
{
	awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"
}

# a task waiting to be attached
waiting()
{
	sleep 100000 &
	PIDS+=($!)
}

# a Guaranteed pod of namespace $2, uid $1, whose app asks for 2 CPUs
pod()
{
	cat >"$OUT/$1.json" <<-EOF
	{"apiVersion": "v1", "kind": "Pod",
	 "metadata": {"name": "p-$2", "namespace": "$2", "uid": "$1"},
	 "spec": {"containers": [{"name": "app", "resources":
	  {"limits": {"cpu": "2", "memory": "64Mi"}}}]}}
	EOF
}

t_init()
{
	run ctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cpu-manager-policy-options strict-cpu-reservation=true \
		--cgroup-root "$CG" --system-partition 0
	rc 0 && grep -q "^system partition 0 namespaces kube-system" "$OUT/o" ||
		{ shows; return 1; }
	[ "$(cat $SYSFS/system_cgroup)" = "$SYS" ] &&
		[ "$(cat $SYS/cpuset.cpus)" = 0 ] || { shows; return 1; }
}

t_system_pod()
{
	pod $KS kube-system
	run ctl admit "$OUT/$KS.json"
	rc 0 && grep -q "^$KS app shared 0$" "$OUT/o" &&
		[ ! -e "$SYSFS/pods/$KS" ] || { shows; return 1; }
	waiting
	run ctl attach --pod $KS --container app --cgroup "$SYS/pod$KS/app" \
		--pod-cgroup "$SYS/pod$KS" --create --pid "${PIDS[-1]}"
	rc 0 && [ "$(allowed "${PIDS[-1]}")" = 0 ] &&
		[ "$(cat "$SYS/pod$KS/app/cpuset.cpus")" = 0 ] ||
		{ shows; allowed "${PIDS[-1]}" | diag; return 1; }
}

# strict-cpu-reservation still holds outside the system cgroup
t_reserved_elsewhere()
{
	local pool

	read -r pool <$SYSFS/shared_cpus
	mkdir -p "$CG/podx" && echo "$pool" >"$CG/podx/cpuset.cpus" || return 1
	waiting
	echo "${PIDS[-1]}" >"$CG/podx/cgroup.procs" || return 1
	if echo 0 2>"$OUT/e" >"$CG/podx/cpuset.cpus"; then
		echo "# a default pod's cgroup took reserved CPU 0" | diag
		return 1
	fi
	same_cpus "$(allowed "${PIDS[-1]}")" "$pool"
}

t_exclusive_not_in_system()
{
	local cpus

	pod $DF default
	run ctl admit "$OUT/$DF.json"
	rc 0 && grep -q "^$DF app exclusive " "$OUT/o" || { shows; return 1; }
	cpus=$(cat "$SYSFS/pods/$DF/app/cpus")
	run ctl attach --pod $DF --container app --cgroup "$SYS/pod$DF/app" \
		--pod-cgroup "$SYS/pod$DF" --create
	rc 2 && grep -q "in the system partition (KEP-5894)" "$OUT/e" &&
		[ ! -e "$SYS/pod$DF" ] &&
		[ -z "$(cat "$SYSFS/pods/$DF/app/cgroup" 2>/dev/null)" ] ||
		{ shows; return 1; }
	waiting
	run ctl attach --pod $DF --container app --cgroup "$CG/pod$DF/app" \
		--pod-cgroup "$CG/pod$DF" --create --pid "${PIDS[-1]}"
	rc 0 && [ "$(allowed "${PIDS[-1]}")" = "$cpus" ] || { shows; return 1; }
}

t_audit_reconcile()
{
	local pool

	read -r pool <$SYSFS/shared_cpus
	# the shared pool is anyone's to name: a hand's writes, no violation
	echo "0,$pool" >"$SYS/cpuset.cpus" &&
		echo "0,$pool" >"$SYS/pod$KS/cpuset.cpus" &&
		echo "0,$pool" >"$SYS/pod$KS/app/cpuset.cpus" || return 1
	run ctl audit
	rc 3 && grep -q "^offender .*pod$KS/app cpus $pool of the user pods, not the system partition" \
		"$OUT/o" || { shows; return 1; }
	run ctl reconcile
	rc 0 && [ "$(cat "$SYS/pod$KS/app/cpuset.cpus")" = 0 ] &&
		[ "$(cat "$SYS/pod$KS/cpuset.cpus")" = 0 ] &&
		[ "$(cat "$SYS/cpuset.cpus")" = 0 ] &&
		[ "$(allowed "${PIDS[0]}")" = 0 ] || { shows; return 1; }
	run ctl audit
	rc 0 || { shows; return 1; }
}

# The system cgroup gone and made again while the daemon runs (the
# kubelet's restart): seeing it appear, the daemon tells the module the
# new one and gives it the partition's CPUs, so its pods may run on CPU
# 0 again.
t_daemon_made_again()
{
	local pid i

	run ctl remove $KS
	rc 0 || return 1
	kill "${PIDS[0]}" 2>/dev/null
	wait "${PIDS[0]}" 2>/dev/null
	rmdir "$SYS/pod$KS/app" "$SYS/pod$KS" || return 1
	# no subshell between: the signal must reach the daemon itself
	"$CTL" daemon --reconcile-period 1h --state-dir "$S" >"$OUT/daemon" 2>&1 &
	pid=$!
	nl_subscribed $pid || { kill $pid; diag <"$OUT/daemon"; return 1; }
	rmdir "$SYS" && mkdir "$SYS" || { kill $pid; return 1; }
	for i in $(seq 30); do
		[ "$(cat "$SYS/cpuset.cpus")" = 0 ] &&
			[ "$(cat $SYSFS/system_cgroup)" = "$SYS" ] && break
		sleep 0.5
	done
	kill -TERM $pid
	wait $pid
	diag <"$OUT/daemon"
	[ "$(cat "$SYS/cpuset.cpus")" = 0 ] &&
		[ "$(cat $SYSFS/system_cgroup)" = "$SYS" ] &&
		grep -q "$SYS: new, the system partition's" "$OUT/daemon" &&
		grep -q "sync: configured the module .* (its system cgroup)" \
			"$OUT/daemon" || return 1
	waiting
	echo "${PIDS[-1]}" >"$SYS/cgroup.procs" &&
		[ "$(allowed "${PIDS[-1]}")" = 0 ] || return 1
	echo "${PIDS[-1]}" >/sys/fs/cgroup/cgroup.procs
}

t_refused()
{
	local gen

	gen=$(cat $SYSFS/generation)
	run ctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cpu-manager-policy-options strict-cpu-reservation=true \
		--cgroup-root "$CG" --system-partition 0-1
	rc 1 && grep -q "CPUs 1 are not reserved" "$OUT/e" &&
		[ "$(cat $SYSFS/generation)" = "$gen" ] &&
		[ "$(cat $SYSFS/system_cgroup)" = "$SYS" ] || { shows; return 1; }
}

if [ "$CPUMGR_PRESET" != smt8 ]; then
	ktap_plan 1
	echo "ok 1 # SKIP written for the smt8 preset"
	exit 4
fi

ktap_plan 7
check "init: the system cgroup made on CPU 0 and told to the module" t_init
check "a kube-system pod: no exclusive CPUs, runs on the partition" t_system_pod
check "strict reservation holds outside the system cgroup" t_reserved_elsewhere
check "an exclusive container cannot be attached below it" t_exclusive_not_in_system
check "audit names a system pod off the partition, reconcile fixes it" t_audit_reconcile
check "the daemon: the system cgroup made again gets its CPUs" t_daemon_made_again
check "a partition on CPUs the policy hands out is refused" t_refused
ktap_exit
