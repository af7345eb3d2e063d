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
# plugin's CPU time.  The kernel's own cost during each run, from kprobe
# and kretprobe events on entry to and return from the cpuset writes and
# partition changes, the scheduling-domain rebuilds, the RCU grace
# periods waited for, the housekeeping updates of 7.x and the workqueue
# masks (the functions this kernel has of those): each one's calls,
# total and average time, on any task; and the system, irq and softirq
# time of all CPUs (/proc/stat), the kernel's work inside the calls and
# beside them.  Kprobe events, not ftrace's function profiler: Debian's
# kernels build none (CONFIG_FUNCTION_PROFILER).  Figures only: nothing
# is checked but that the runs complete, the kernel refused nothing
# during them (a refused change is a call that did not move the pool)
# and the trace lost no event (a lost return is a call not counted).
# State directory on tmpfs (/dev/shm).  Times are a TCG guest's:
# compare the two ways, not with hardware.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

TR=/sys/kernel/tracing
BENCH=$CPUMGR_OUT/user/bench/bench_nri
FUNCS="cpuset_write_resmask cpuset_partition_write sched_partition_write
update_cpumasks_hier rebuild_sched_domains_locked partition_sched_domains
partition_and_rebuild_sched_domains synchronize_rcu synchronize_rcu_expedited
housekeeping_update workqueue_unbound_exclude_cpumask"
GROUP=cpumgr_bench
OUT=$(mktemp -d)

# The probes' events off and gone, the trace buffer as it was.
probes_off()
{
	kprobe_group_off "$GROUP"
	[ -n "$BUFFER_KB" ] || return 0
	: >"$TR/trace"
	echo "$BUFFER_KB" >"$TR/buffer_size_kb"
	echo "$CLOCK" >"$TR/trace_clock"
}

cleanup()
{
	probes_off
	rm -rf "$OUT"
}
trap cleanup EXIT

[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null ||
	skip_all "no tracefs"
# what the run changes, to put back
BUFFER_KB=$(cut -d' ' -f1 "$TR/buffer_size_kb")
CLOCK=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$TR/trace_clock")

# An entry and a return event on each function this kernel has and lets
# kprobes reach; prints those probed, says which could not be.
probes_on()
{
	local f kb

	: >"$TR/trace"
	echo global >"$TR/trace_clock"
	# About 70 bytes an event, up to some 400,000 of them a run with 1000
	# containers, all on the CPU the plugin runs on at worst: a quarter
	# of the memory left spread over the CPUs, at most 64 MiB each.
	kb=$(awk -v n="$(nproc)" '/^MemAvailable:/ {
		kb = int($2 / 4 / n); print (kb > 65536 ? 65536 : kb) }' \
		/proc/meminfo)
	echo "$kb" >"$TR/buffer_size_kb" || return 1
	for f in $(tracefs_functions $FUNCS); do
		if echo "p:$GROUP/${f}_in $f" >>"$TR/kprobe_events" 2>/dev/null &&
		   echo "r64:$GROUP/${f}_out $f" >>"$TR/kprobe_events" 2>/dev/null; then
			printf '%s ' "$f"
		else
			echo "# $f: kprobes cannot reach it, not counted" >&2
			echo "-:$GROUP/${f}_in" >>"$TR/kprobe_events" 2>/dev/null
		fi
	done
	[ -d "$TR/events/$GROUP" ] || return 0
	echo 1 >"$TR/events/$GROUP/enable"
}

# Ticks (USER_HZ) of system, irq and softirq time of all CPUs.
kernel_ticks()
{
	awk '$1 == "cpu" { print $4 + $7 + $8 }' /proc/stat
}

# Each function's calls, total ms and average us from the trace: an
# entry and the next return of the same function on the same task make
# a call (a stack per task and function); a call within a call of the
# same function is not counted apart (the module's checked writer calls
# the writer again: the outer call's time is the write's, checks
# included); a return without its entry (the call began before the
# probes) is not counted.
profile()
{
	awk '{
		for (i = 2; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				break
		if (i == NF || $(i - 2) !~ /^\[[0-9]+\]$/)
			next
		pid = $(i - 3); sub(/.*-/, "", pid)
		ts = $i + 0; ev = $(i + 1); sub(/:$/, "", ev)
		f = ev; sub(/_(in|out)$/, "", f)
		k = pid SUBSEP f
		if (ev ~ /_in$/) {
			start[k, ++depth[k]] = ts
		} else if (depth[k] > 0 && --depth[k] == 0) {
			hit[f]++; t[f] += ts - start[k, 1]
		}
	} END {
		for (f in hit)
			printf "%-40s %8d %10.1f ms %10.1f us\n", f, hit[f],
			       t[f] * 1000, t[f] * 1e6 / hit[f]
	}' "$TR/trace" | sort
}

# Events the trace or the probes lost during the run (FUNCS: those
# probed; kprobe_profile names an event without its group).
lost()
{
	local overrun missed

	overrun=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' \
		"$TR"/per_cpu/cpu*/stats)
	missed=$(awk -v funcs="$1" 'BEGIN {
			n = split(funcs, f)
			for (i = 1; i <= n; i++)
				ours[f[i] "_in"] = ours[f[i] "_out"] = 1
		} $1 in ours { m += $3 } END { print m + 0 }' \
		"$TR/kprobe_profile")
	echo $((overrun + missed))
}

# run WAY: bench_nri with the pool moved that way, the kernel's cost
# counted where its functions can be probed.
run()
{
	local funcs status mark since refused ticks n

	funcs=$(probes_on) || return 1
	ticks=$(kernel_ticks)
	# a mark in the kernel log: what comes after it is this run's
	mark="bench_pool: the pool moved by $1, $$ $RANDOM"
	echo "$mark" >/dev/kmsg
	CPUMGR_BENCH_KERNEL=real CPUMGR_BENCH_POOL=$1 "$BENCH" >"$OUT/$1" 2>&1
	status=$?
	ticks=$(( $(kernel_ticks) - ticks ))
	[ -d "$TR/events/$GROUP" ] && echo 0 >"$TR/events/$GROUP/enable"
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
	echo "# the kernel during the run ($1): system+irq+softirq of all CPUs $((ticks * 1000 / $(getconf CLK_TCK))) ms"
	if [ -n "$funcs" ]; then
		echo "# the kernel's functions during the run ($1), any task: calls, total, average (probed: $funcs)"
		profile | diag
		n=$(lost "$funcs")
		if [ "$n" != 0 ]; then
			echo "# the trace lost $n events: the calls above are not all"
			status=1
		fi
	else
		echo "# none of the kernel's functions could be probed"
	fi
	probes_off
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
