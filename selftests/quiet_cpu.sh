#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Is an isolated container's CPU quiet (issue 30)?  A Guaranteed 1-CPU
# container admitted and attached by cpumgrctl runs a busy loop on its
# exclusive CPU, while a neighbour on the shared pool makes device
# interrupts (reads of the 9p root: virtio's), timers and forks
# (sleep 0.01 in a loop) and kernel work (cgroups made and removed,
# sync), and a busy device interrupt (the 9p root's virtio queue) was
# pinned to that CPU beforehand, as an earlier tuning would.  Twice:
# without isolation, then with the pod's CRI-O annotations
# (cpu-load-balancing, irq-load-balancing, cpu-quota "disable").  For
# CPUMGR_QUIET_SECONDS (default 8) each, what else ran on the CPU:
#
#   switches   the busy loop switched out (the scheduler's sched_switch
#              events on the CPU, tracefs), and to whom: the CPU's own
#              kernel threads (rcuc/N, ktimers/N, ksoftirqd/N: without
#              nohz_full and rcu_nocbs, boot-time options, the tick
#              wakes them) or other tasks (interrupt threads, unbound
#              workers, processes)
#   device     device interrupts on the CPU (/proc/interrupts), and the
#              irq_handler_entry events there
#   local      its local timer interrupts (the tick stays: no nohz_full)
#   wq         workqueue items run there (workqueue_execute_start) and
#              whether unbound workqueues may use it (their cpumask)
#   kthreads   kernel threads not bound to one CPU that may run there
#
# With CPUMGR_QUIET_LATENCY_SECONDS (make bench's, selftests/bench-plan)
# then oslat (a pinned busy poll that records its interruptions) and
# cyclictest (timer wake-up latency) on the CPU that long, both ways,
# printed only: latencies measured under TCG are the emulator's, not a
# machine's.
#
# Checked: the isolated container's cgroup is an isolated partition on
# exactly its CPU; no device interrupt fired on it (the pinned one
# moved) where one did without isolation; it was switched out to other
# tasks fewer times; unbound workqueues are kept off it; on 7.x no unbound kernel
# thread may run there (housekeeping_update(); 6.12 leaves some, said
# as a skip); and once the pod is removed it is all undone (the pinned
# interrupt back).  For the RT kernels (6.12-rt, 7.3-rt), smt8 preset
# (CPU 0 reserved).

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

TR=/sys/kernel/tracing
RUN_S=${CPUMGR_QUIET_SECONDS:-8}
LAT_S=${CPUMGR_QUIET_LATENCY_SECONDS:-0}
WQMASK=/sys/devices/virtual/workqueue/cpumask
ISOLATED=/sys/fs/cgroup/cpuset.cpus.isolated
ANNOTATIONS='"cpu-load-balancing.crio.io":"disable","irq-load-balancing.crio.io":"disable","cpu-quota.crio.io":"disable"'
pids=()
IRQ=
IRQ_WAS=

cleanup()
{
	stop_all
	[ -d "$TR/events" ] && echo 0 >"$TR/tracing_on" &&
		echo 0 >"$TR/events/enable" && : >"$TR/trace"
	[ -n "$IRQ" ] && echo "$IRQ_WAS" >"/proc/irq/$IRQ/smp_affinity_list" 2>/dev/null
	rt_cleanup
}
trap cleanup EXIT

stop_all()
{
	[ ${#pids[@]} = 0 ] && return 0
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	pids=()
}

# cpulist_has LIST CPU
cpulist_has()
{
	local r a b IFS=,

	for r in $1; do
		a=${r%-*}
		b=${r#*-}
		[ -n "$r" ] && [ "$2" -ge "$a" ] && [ "$2" -le "$b" ] && return 0
	done
	return 1
}

# The busy device interrupt: the 9p root's virtio queue.
find_irq()
{
	awk '/virtio[0-9]*-requests/ { sub(":", "", $1); print $1; exit }' /proc/interrupts
}

# /proc/interrupts, CPU's column: "DEVICE LOCAL" (device: numbered rows).
interrupts_on()
{
	awk -v c="$1" 'NR == 1 { next }
		$1 ~ /^[0-9]+:$/ { d += $(c + 2) }
		$1 == "LOC:" { l = $(c + 2) }
		END { print d + 0, l + 0 }' /proc/interrupts
}

# Kernel threads allowed on CPU that are not bound to one CPU (builtins
# alone: a process started costs 60 to 150 ms under TCG).
kthreads_on()
{
	local p ppid key list n=0

	for p in /proc/[0-9]*; do
		{ read -r _ _ _ ppid _ <"$p/stat"; } 2>/dev/null || continue
		[ "$ppid" = 2 ] || continue
		list=
		while read -r key list; do
			[ "$key" = Cpus_allowed_list: ] && break
		done 2>/dev/null <"$p/status"
		case $list in
		*[,-]*) cpulist_has "$list" "$1" && n=$((n + 1)) ;;
		esac
	done
	echo $n
}

# The workqueues' unbound cpumask (a hex mask) holds CPU.
wq_has()
{
	local m

	m=$(tr -d ',\n' <"$WQMASK")
	[ ${#m} -gt 8 ] && m=${m: -8}
	(( (16#$m >> $1) & 1 ))
}

pod_json()
{
	cat >"$RT/$1.json" <<-EOF
	{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$1","namespace":"default","uid":"$1",
	 "annotations":{$2}},"spec":{"containers":[{"name":"busy",
	 "resources":{"limits":{"cpu":"1","memory":"100Mi"}}}]}}
	EOF
}

# The neighbour on the shared pool: interrupts, timers, forks, kernel work.
neighbour()
{
	taskset -c "$1" bash -c 'while :; do cat "$0"/README.md /usr/bin/bash >/dev/null; done' \
		"$CPUMGR_TOP" &
	pids+=($!)
	taskset -c "$1" bash -c 'while :; do sleep 0.01; done' &
	pids+=($!)
	taskset -c "$1" bash -c 'while :; do mkdir /sys/fs/cgroup/quietwork.$$ &&
		rmdir /sys/fs/cgroup/quietwork.$$; sync; done' &
	pids+=($!)
}

# run_in CGROUP CPU COMMAND...: COMMAND in the container's cgroup, on
# CPU (started in the background by the caller: $! is its process).
RUN_IN='echo $$ >"$0/cgroup.procs" && exec taskset -c "$1" "${@:2}"'

# phase NAME: admit pod NAME (with ANNOTATIONS when isolated), attach,
# the busy loop and the neighbour for RUN_S, the counts into P_* .
phase()
{
	local name=$1 ann=$2 cg cpu pool busy ir0 ir1 top

	pod_json "$name" "$ann"
	ctl admit "$RT/$name.json" >/dev/null || return 1
	cpu=$(cat "$SYSFS/pods/$name/busy/cpus") || return 1
	# the earlier tuning: the busy interrupt on the container's CPU
	echo "$cpu" >"/proc/irq/$IRQ/smp_affinity_list" || return 1
	cg=$CG/pod$name/busy
	ctl attach --pod "$name" --container busy --cgroup "$cg" \
		--pod-cgroup "$CG/pod$name" --create >"$RT/$name.attach" 2>&1 ||
		{ diag <"$RT/$name.attach"; return 1; }
	pool=$(cat "$SYSFS/shared_cpus")
	bash -c "$RUN_IN" "$cg" "$cpu" bash -c 'while :; do :; done' &
	busy=$!
	pids+=($busy)
	neighbour "$pool"
	sleep 1
	echo 0 >"$TR/tracing_on"
	: >"$TR/trace"
	printf '%x\n' $((1 << cpu)) >"$TR/tracing_cpumask"
	for e in sched/sched_switch irq/irq_handler_entry workqueue/workqueue_execute_start; do
		echo 1 >"$TR/events/$e/enable" || return 1
	done
	read -r ir0 _ < <(interrupts_on "$cpu")
	read -r _ P_LOCAL < <(interrupts_on "$cpu")
	echo 1 >"$TR/tracing_on"
	sleep "$RUN_S"
	echo 0 >"$TR/tracing_on"
	read -r ir1 l1 < <(interrupts_on "$cpu")
	P_CPU=$cpu
	P_DEVICE=$((ir1 - ir0))
	P_LOCAL=$((l1 - P_LOCAL))
	P_WQMASK=0
	wq_has "$cpu" && P_WQMASK=1
	P_KTHREADS=$(kthreads_on "$cpu")
	P_PART=$(cat "$cg/cpuset.cpus.partition")
	P_ISOLATED=$(cat "$ISOLATED" 2>/dev/null)
	P_IRQ_AFF=$(cat "/proc/irq/$IRQ/smp_affinity_list")
	cat "$TR/per_cpu/cpu$cpu/trace" >"$RT/$name.trace"
	P_SWITCHES=$(grep -c "sched_switch: prev_comm=.* prev_pid=$busy " "$RT/$name.trace")
	# to a kernel thread of this CPU's own (rcuc/N, ktimers/N, kworker/N:M)
	P_OWN=$(grep "sched_switch: prev_comm=.* prev_pid=$busy " "$RT/$name.trace" |
		grep -cE "next_comm=[^ ]+/$cpu(:[^ ]*)? next_pid=")
	P_OTHER=$((P_SWITCHES - P_OWN))
	P_IRQ_EVENTS=$(grep -c "irq_handler_entry:" "$RT/$name.trace")
	P_WQ_EVENTS=$(grep -c "workqueue_execute_start:" "$RT/$name.trace")
	top=$(grep "sched_switch: prev_comm=.* prev_pid=$busy " "$RT/$name.trace" |
		sed 's/.*next_comm=\(.*\) next_pid=.*/\1/' | sort | uniq -c |
		sort -rn | head -6 | awk '{ printf "%s%s %d", s, $2, $1; s = ", " }')
	echo "# $name: CPU $cpu: switched out $P_SWITCHES times, $P_OTHER of them to a task not of this CPU's own (to $top)"
	echo "# $name: device interrupts $P_DEVICE (irq_handler_entry $P_IRQ_EVENTS), local timer $P_LOCAL, workqueue items $P_WQ_EVENTS, unbound workqueues there: $([ $P_WQMASK = 1 ] && echo yes || echo no), unbound kthreads allowed there: $P_KTHREADS"
	echo "# $name: partition $P_PART, cpuset.cpus.isolated \"$P_ISOLATED\", irq $IRQ on $P_IRQ_AFF"
	stop_all
	[ "$LAT_S" -gt 0 ] && latency "$name" "$cg" "$cpu"
	return 0
}

# oslat and cyclictest on the container's CPU, printed.
latency()
{
	local name=$1 cg=$2 cpu=$3 pool out

	command -v oslat >/dev/null && command -v cyclictest >/dev/null || {
		echo "# $name: no rt-tests (oslat, cyclictest)"
		return 0
	}
	pool=$(cat "$SYSFS/shared_cpus")
	neighbour "$pool"
	bash -c "$RUN_IN" "$cg" "$cpu" oslat --cpu-list "$cpu" --cpu-main-thread "$cpu" \
		--duration "$LAT_S" >"$RT/$name.oslat" 2>&1
	out=$(awk '/Maximum:/ { $1 = ""; print }' "$RT/$name.oslat")
	[ -n "$out" ] || diag <"$RT/$name.oslat"
	echo "# $name: oslat on CPU $cpu, ${LAT_S} s: maximum$out"
	bash -c "$RUN_IN" "$cg" "$cpu" cyclictest --affinity "$cpu" --threads 1 \
		--priority 80 --interval 1000 --duration "$LAT_S" --quiet \
		>"$RT/$name.cyclictest" 2>&1
	out=$(sed -n 's/.*Max: *\([0-9]*\).*/\1/p' "$RT/$name.cyclictest" | head -1)
	[ -n "$out" ] || diag <"$RT/$name.cyclictest"
	echo "# $name: cyclictest on CPU $cpu, ${LAT_S} s, 1 ms interval, priority 80: max $out us"
	stop_all
}

[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null ||
	skip_all "no tracefs"
[ -e "$WQMASK" ] || skip_all "no workqueue cpumask ($WQMASK)"
IRQ=$(find_irq)
[ -n "$IRQ" ] || skip_all "no virtio request interrupt to pin"
IRQ_WAS=$(cat "/proc/irq/$IRQ/smp_affinity_list")

ktap_plan $((7 + (LAT_S > 0)))

echo "# latencies measured under TCG (an emulator running every vCPU on one host thread) are the emulator's, not a machine's: compare the two runs, not with hardware"
RT_DAEMON=0
check "set-up: the node (static, CPU 0 reserved), tracefs, irq $IRQ (virtio's)" \
	rt_init "${CPUMGR_QUIET_ENFORCE:-enforce}"

t0=$SECONDS
phase plain "" || echo "# the plain run failed"
echo "# time: the plain run $((SECONDS - t0)) s"
PLAIN=("$P_CPU" "$P_OTHER" "$P_DEVICE" "$P_WQMASK" "$P_KTHREADS")
ctl remove plain >/dev/null 2>&1
rmdir "$CG/podplain/busy" "$CG/podplain" 2>/dev/null

t0=$SECONDS
phase quiet "$ANNOTATIONS" || echo "# the isolated run failed"
echo "# time: the isolated run $((SECONDS - t0)) s"
QUIET=("$P_CPU" "$P_OTHER" "$P_DEVICE" "$P_WQMASK" "$P_KTHREADS")

t_partition()
{
	[ "$P_PART" = isolated ] && [ "$P_ISOLATED" = "${QUIET[0]}" ]
}
check "isolated: its cgroup an isolated partition on exactly its CPU" t_partition

t_irqs()
{
	echo "# device interrupts on the CPU: ${PLAIN[2]} without isolation, ${QUIET[2]} with"
	[ "${PLAIN[2]}" -gt 0 ] && [ "${QUIET[2]}" = 0 ] &&
		! cpulist_has "$P_IRQ_AFF" "${QUIET[0]}"
}
check "isolated: no device interrupt on its CPU, the pinned one moved (one fired there without)" t_irqs

t_switches()
{
	echo "# switched out to a task not the CPU's own: ${PLAIN[1]} times without isolation, ${QUIET[1]} with"
	[ "${QUIET[1]}" -lt "${PLAIN[1]}" ]
}
check "isolated: its busy loop switched out to other tasks fewer times" t_switches

t_wq()
{
	[ "${PLAIN[3]}" = 1 ] && [ "${QUIET[3]}" = 0 ]
}
check "isolated: unbound workqueues kept off its CPU" t_wq

t_kthreads()
{
	echo "# unbound kernel threads allowed on the CPU: ${PLAIN[4]} without isolation, ${QUIET[4]} with"
	case $(uname -r) in
	6.*) [ "${QUIET[4]}" -le "${PLAIN[4]}" ] || return 1
	     skip_case "$(uname -r | cut -d. -f1-2) leaves ${QUIET[4]} of the ${PLAIN[4]} allowed there (housekeeping_update(), which moves them off an isolated partition, is 7.x's)"
	     return ;;
	esac
	[ "${PLAIN[4]}" -gt 0 ] && [ "${QUIET[4]}" = 0 ]
}
check "isolated: no unbound kernel thread may run on its CPU" t_kthreads

t_undone()
{
	local part cg=$CG/podquiet/busy

	ctl remove quiet >/dev/null 2>&1 || return 1
	part=$(cat "$ISOLATED" 2>/dev/null)
	echo "# after the removal: cpuset.cpus.isolated \"$part\", irq $IRQ on $(cat /proc/irq/$IRQ/smp_affinity_list)"
	# the container's cgroup outlives the removal here: undone too
	echo "# $cg: partition '$(cat "$cg/cpuset.cpus.partition" 2>/dev/null)', exclusive '$(cat "$cg/cpuset.cpus.exclusive" 2>/dev/null)', its pod's '$(cat "$CG/podquiet/cpuset.cpus.exclusive" 2>/dev/null)'"
	[ -z "$part" ] && wq_has "${QUIET[0]}" &&
		[ "$(cat /proc/irq/$IRQ/smp_affinity_list)" = "${QUIET[0]}" ] &&
		[ -z "$(cat "$CG/cpuset.cpus.exclusive")" ] &&
		{ [ ! -d "$cg" ] ||
		  { [ "$(cat "$cg/cpuset.cpus.partition")" = member ] &&
		    [ -z "$(cat "$cg/cpuset.cpus.exclusive")" ] &&
		    [ -z "$(cat "$CG/podquiet/cpuset.cpus.exclusive")" ]; }; }
}
check "removed: all of it undone, the pinned interrupt back" t_undone

# make bench's (bench-plan sets CPUMGR_QUIET_LATENCY_SECONDS)
t_latency()
{
	command -v oslat >/dev/null && command -v cyclictest >/dev/null &&
		return 0
	[ -z "${CPUMGR_CHECK:-}" ] || { echo "# $(missing_reason rt-tests)"; return 1; }
	skip_case "$(missing_reason rt-tests)"
}
[ "$LAT_S" -gt 0 ] &&
	check "oslat and cyclictest ran (figures above, the emulator's)" t_latency

ktap_exit
