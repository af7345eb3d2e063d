#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What moving the shared pool costs on a full node (issue 30, item 4),
# both ways cpumgr can (init --pool-moves): cpumgr writing the cpuset of
# every container on the pool (writes), or each exclusive container's
# cgroup a cpuset partition that the kernel takes its CPUs for
# (partitions; Linux 6.7 on).  bench_nri with CPUMGR_BENCH_KERNEL=real:
# the NRI plugin (the real cpumgrctl), the module in enforce mode and
# this kernel's cgroups, CPUMGR_BENCH_CONTAINERS (default 1000)
# containers on the shared pool with a sleeping task each, and at each
# quarter of them CPUMGR_BENCH_CYCLES (default 20) pods of a 2-CPU app
# created and removed: each call's wall time (p50, p99, max) and the
# plugin's CPU time.  The kernel's own cost during each run, from
# ftrace's function profiler: the cpuset writes and partition changes,
# the scheduling-domain rebuilds, the RCU grace periods waited for,
# the housekeeping updates of 7.x and the workqueue masks (the functions
# this kernel has of those).  Figures only: nothing is checked but that
# the runs complete and the kernel refused nothing during them (a refused
# change is a call that did not move the pool).  State directory on
# tmpfs (/dev/shm).  Times are a TCG guest's: compare the two ways, not
# with hardware.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

TR=/sys/kernel/tracing
BENCH=$CPUMGR_OUT/user/bench/bench_nri
FUNCS="cpuset_write_resmask cpuset_partition_write sched_partition_write
update_cpumasks_hier rebuild_sched_domains_locked partition_sched_domains
partition_and_rebuild_sched_domains synchronize_rcu synchronize_rcu_expedited
housekeeping_update workqueue_unbound_exclude_cpumask"
OUT=$(mktemp -d)

cleanup()
{
	[ -e "$TR/function_profile_enabled" ] &&
		echo 0 >"$TR/function_profile_enabled" && : >"$TR/set_ftrace_filter"
	rm -rf "$OUT"
}
trap cleanup EXIT

[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null ||
	skip_all "no tracefs"

# The profiled functions this kernel has.
profiled()
{
	local f

	for f in $FUNCS; do
		grep -qx "$f" <(cut -d' ' -f1 "$TR/available_filter_functions") &&
			printf '%s ' "$f"
	done
}

# The function profile summed over the CPUs: "name hits ms avg-us".
profile()
{
	awk '$1 != "Function" && $1 !~ /^-/ && NF >= 4 {
		hit[$1] += $2; t[$1] += $3
	} END {
		for (f in hit)
			printf "%-40s %8d %10.1f ms %10.1f us\n", f, hit[f],
			       t[f] / 1000, hit[f] ? t[f] / hit[f] : 0
	}' "$TR"/trace_stat/function* | sort
}

# run WAY: bench_nri with the pool moved that way, profiled where the
# kernel can (an empty filter would profile every function: not done).
run()
{
	local funcs= status mark since refused

	[ -e "$TR/function_profile_enabled" ] && funcs=$(profiled)
	if [ -n "$funcs" ]; then
		echo 0 >"$TR/function_profile_enabled"
		echo "$funcs" >"$TR/set_ftrace_filter" || return 1
		echo 1 >"$TR/function_profile_enabled" || return 1
	fi
	# a mark in the kernel log: what comes after it is this run's
	mark="bench_pool: the pool moved by $1, $$ $RANDOM"
	echo "$mark" >/dev/kmsg
	CPUMGR_BENCH_KERNEL=real CPUMGR_BENCH_POOL=$1 "$BENCH" >"$OUT/$1" 2>&1
	status=$?
	diag <"$OUT/$1"
	# A call the kernel refused a change in did not do what is timed.
	# Not the runtime's removal of an ended container's cgroup, which is
	# a partition while the container keeps its CPUs: refused by design,
	# the cgroup goes with the release.
	since=$(dmesg | sed -n "/$mark/,\$p")
	refused=$(grep 'cpumgr: refused' <<<"$since" |
		grep -v 'through rmdir in cgroup .* (bench_nri)')
	if [ -z "$since" ]; then
		echo "# the kernel log no longer holds the run's start: its refusals not checked"
		status=1
	elif [ -n "$refused" ]; then
		echo "# the kernel refused changes during the run: its figures are not the pool moved ($(wc -l <<<"$refused") lines, rate-limited):"
		diag <<<"$refused"
		status=1
	fi
	if [ -n "$funcs" ]; then
		echo 0 >"$TR/function_profile_enabled"
		echo "# the kernel during the run ($1): hits, total, average"
		profile | diag
	else
		echo "# the kernel's own cost not profiled: no function profiler (CONFIG_FUNCTION_PROFILER) or none of its functions"
	fi
	return $status
}

# remote partitions: Linux 6.7 on
IFS=. read -r major minor _ < <(uname -r)
remote=$(( major > 6 || (major == 6 && minor >= 7) ))

ktap_plan 2
echo "# $(uname -r), $(nproc) CPUs; times of a TCG guest"
check "the pool moved by writes" run writes
if [ "$remote" = 1 ]; then
	check "the pool moved by partitions" run partitions
else
	ktap_result ok "the pool moved by partitions # SKIP this kernel has no cpuset.cpus.exclusive (remote partitions: Linux 6.7 on)"
fi
ktap_exit
