#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Other tools' probes beside ours.  The module sends the writers of
# cpuset.cpus, cpuset.cpus.partition and cgroup.subtree_control to its
# checks and calls them from there; its probe must let that call
# through.  A kretprobe on the same function (a tracefs event, as perf
# probe and bpftrace place them) runs before our handler and puts its
# trampoline where the return address was; the function graph tracer
# does the same.  With a kretprobe event on each writer, and then with
# function_graph on them: a cpuset.cpus write within the shared pool
# goes through, one naming a pod's exclusive CPUs is still refused, a
# partition and a subtree_control write go through, and the tracer saw
# the writers called.  (The module once knew its own call by the return
# address: such a write came back to the checks and waited for its own
# in-flight slot, for ever.)  Each write gets 60 s.  The module sends
# set_cpus_allowed_ptr() the same way, for the threads the kernel makes
# (cpumgr_check_affinity.c): with the tracer on it too, an io_uring
# SQPOLL thread of a process in other (io_sq_thread() asks for every
# online CPU) may run on other's CPUs only, not on pa's, and the tracer
# saw the call.  Where this kernel gives nobody no SQPOLL thread, that
# part is left out and says why.  Then the same under a BPF trampoline:
# bpftrace's fentry and fexit programs (kfunc, kretfunc) on each of
# them (not on a kernel without BTF, such as the debug kernel).  Leaves
# the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
S=$OUT/state
CG=/sys/fs/cgroup/neighbours
TR=/sys/kernel/tracing
GROUP=cpumgr_neighbours
WRITERS="cpuset_write_resmask cpuset_partition_write sched_partition_write
cgroup_subtree_control_write"
HELPER=$CPUMGR_OUT/selftests/kthread_owner
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --"
OWNER=
STATUS=
BPF=

tracing_off()
{
	kprobe_group_off "$GROUP"
	echo nop >"$TR/current_tracer"
	: >"$TR/set_ftrace_filter"
	: >"$TR/trace"
}

cleanup()
{
	sqpoll_stop
	bpf_off
	tracing_off 2>/dev/null
	"$CTL" reset --force --state-dir "$S" >/dev/null 2>&1
	"$CTL" reset >/dev/null 2>&1
	rmdir "$CG/other" "$CG/pa" "$CG" 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null ||
	skip_all "no tracefs"

setup()
{
	pa_on_2_3 "$CG" "$S" || return 1
	FUNCS=$(tracefs_functions $WRITERS)
	echo "# the writers:" $FUNCS
	[ -n "$FUNCS" ] || return 1
	# a task may enter other once it has no CPU of pa's
	echo 4-5 >"$CG/other/cpuset.cpus" || return 1
	if sqpoll_start; then
		sqpoll_stop
		FUNCS="$FUNCS $(tracefs_functions set_cpus_allowed_ptr)"
	elif [ "$STATUS" = 4 ]; then
		echo "# no SQPOLL thread for nobody here ($(<"$OUT/owner.err")): set_cpus_allowed_ptr left out"
	else
		diag <"$OUT/owner.err"
		return 1
	fi
}

# Until file $1 has a line "ready" (0), or process $2 ended or 60 s
# passed (1).
until_ready()
{
	local i

	for ((i = 0; i < 600; i++)); do
		grep -q '^ready' "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# A process of nobody in other with an io_uring SQPOLL thread (OWNER);
# if none, the helper's exit status in STATUS (4: not on this kernel).
sqpoll_start()
{
	STATUS=
	: >"$OUT/owner.out"
	(
		echo "$BASHPID" >"$CG/other/cgroup.procs" || exit 3
		exec $NOBODY "$HELPER" sqpoll
	) >"$OUT/owner.out" 2>"$OUT/owner.err" &
	OWNER=$!
	until_ready "$OUT/owner.out" "$OWNER" && return 0
	kill "$OWNER" 2>/dev/null
	wait "$OWNER"
	STATUS=$?
	OWNER=
	return 1
}

sqpoll_stop()
{
	[ -n "$OWNER" ] || return 0
	kill "$OWNER" 2>/dev/null
	wait "$OWNER" 2>/dev/null
	OWNER=
}

# The SQPOLL thread may run on other's effective CPUs only, none of pa's.
sqpoll_stays()
{
	local eff t comm allowed= ok=1

	sqpoll_start || { diag <"$OUT/owner.err"; return 1; }
	eff=$(<"$CG/other/cpuset.cpus.effective")
	for t in /proc/"$OWNER"/task/* /proc/[0-9]*; do
		read -r comm <"$t/comm" 2>/dev/null || continue
		[ "$comm" = "iou-sqp-$OWNER" ] || continue
		allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' "$t/status")
		break
	done
	if [ -z "$allowed" ]; then
		echo "# no thread iou-sqp-$OWNER"
	else
		echo "# $1: the SQPOLL thread may run on $allowed; other has $eff, pa 2-3"
		cpus_rel subset "$allowed" "$eff" &&
			cpus_rel disjoint "$allowed" 2-3 && ok=0
	fi
	sqpoll_stop
	return $ok
}

# WRITE VALUE FILE: write VALUE to FILE, given 60 s; its status, or 124
# (a write the module keeps waiting cannot be killed: it is left).
write()
{
	(echo "$1" >"$2") 2>"$OUT/err" &
	local pid=$! i

	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# '$1' > $2: not done after 60 s"
		return 124
	fi
	wait "$pid"
}

kretprobes_on()
{
	local f

	for f in $FUNCS; do
		echo "r:$GROUP/$f $f" >>"$TR/kprobe_events" || return 1
	done
	echo 1 >"$TR/events/$GROUP/enable"
}

graph_on()
{
	printf '%s\n' $FUNCS >"$TR/set_ftrace_filter" &&
	echo function_graph >"$TR/current_tracer"
}

# bpftrace's fentry and fexit programs on FUNCS, their calls into
# OUT/bpf (unbuffered): "seen kretfunc:NAME".
bpf_on()
{
	local f progs=

	for f in $FUNCS; do
		progs="$progs kfunc:$f { @[probe] = count(); }"
		progs="$progs kretfunc:$f { printf(\"seen %s\\n\", probe); }"
	done
	bpftrace -B none -e "BEGIN { printf(\"ready\\n\"); } $progs" \
		>"$OUT/bpf" 2>&1 &
	BPF=$!
	until_ready "$OUT/bpf" "$BPF" && return 0
	diag <"$OUT/bpf"
	bpf_off
	return 1
}

bpf_off()
{
	[ -n "$BPF" ] || return 0
	kill -INT "$BPF" 2>/dev/null
	wait "$BPF" 2>/dev/null
	BPF=
}

# The writes, with the tracer TRACER seen calling each writer (in file
# SEEN, TR/trace by default).
writes_with()
{
	local ok=0 f seen=${2:-$TR/trace}

	[ -n "$2" ] || : >"$TR/trace"
	write 4-5 "$CG/other/cpuset.cpus" &&
		[ "$(cat "$CG/other/cpuset.cpus")" = 4-5 ] ||
		{ echo "# a write within the pool did not go through"; ok=1; }
	case " $FUNCS " in
	*" set_cpus_allowed_ptr "*) sqpoll_stays "$1" || ok=1 ;;
	esac
	if write 2 "$CG/other/cpuset.cpus"; then
		echo "# a write of pa's CPU 2 went through"
		ok=1
	elif [ $? = 124 ] || ! grep -q "Device or resource busy" "$OUT/err"; then
		diag <"$OUT/err"
		ok=1
	fi
	write member "$CG/other/cpuset.cpus.partition" ||
		{ diag <"$OUT/err"; ok=1; }
	write +cpuset "$CG/cgroup.subtree_control" ||
		{ diag <"$OUT/err"; ok=1; }
	for f in $FUNCS; do
		grep -q "$f" "$seen" || {
			echo "# $1 saw no call of $f"
			ok=1
		}
	done
	return $ok
}

t_kretprobes()
{
	kretprobes_on || return 1
	writes_with kretprobes
	local ok=$?
	tracing_off
	return $ok
}

t_graph()
{
	graph_on || return 1
	writes_with function_graph
	local ok=$?
	tracing_off
	return $ok
}

t_bpf()
{
	if ! command -v bpftrace >/dev/null; then
		[ -z "${CPUMGR_CHECK:-}" ] || { echo "# $(missing_reason bpftrace)"; return 1; }
		skip_case "$(missing_reason bpftrace)"
		return
	fi
	if [ ! -e /sys/kernel/btf/vmlinux ]; then
		skip_case "no kernel BTF (/sys/kernel/btf/vmlinux), which fentry and fexit need"
		return
	fi
	bpf_on || return 1
	writes_with "BPF fexit" "$OUT/bpf"
	local ok=$?
	bpf_off
	return $ok
}

ktap_plan 4
check "set-up: pa's c1 on 2-3, the writers this kernel has" setup
check "a kretprobe on each writer (and set_cpus_allowed_ptr): writes go through, pa's CPUs refused" t_kretprobes
if [ -e "$TR/available_tracers" ] &&
   grep -qw function_graph "$TR/available_tracers"; then
	check "function_graph on the writers (and set_cpus_allowed_ptr): writes go through, pa's CPUs refused" t_graph
else
	ktap_result ok "function_graph on the writers # SKIP no function_graph tracer in this kernel"
fi
check "bpftrace's fentry and fexit on the writers (and set_cpus_allowed_ptr): writes go through, pa's CPUs refused" t_bpf
ktap_exit
