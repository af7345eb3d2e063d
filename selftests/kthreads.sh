#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Threads the kernel makes for a task in scope stay on the task's CPUs
# (issue 32, item 7).  A container restricted to two shared CPUs (6-7)
# beside pod pb, whose container b1 holds 4-5 exclusively:
#   - an unprivileged process's io_uring SQPOLL thread (io_sq_thread()
#     asks for every online CPU) may run on 6-7 only, and runs there;
#   - IORING_SETUP_SQ_AFF on b1's CPU 4, and IORING_REGISTER_IOWQ_AFF on
#     it, are refused (the kernel checks them against the cpuset);
#     SQ_AFF on its own CPU 7 puts the thread on 7;
#   - an io-wq worker started after the container's cpuset was narrowed
#     from 4-7 to 6-7 and 4-5 given to b1 (io-wq keeps the CPUs its ring
#     was made with, and gives them to every new worker) stays on 6-7;
#   - a vhost-net worker (VHOST_SET_OWNER; no VM, no tap is needed for
#     it), a thread of the owner or (6.1, or VHOST_SET_FORK_FROM_OWNER
#     0 from 6.12) a kernel thread moved into the owner's cgroup, stays
#     on 6-7, also after an isolated partition elsewhere (CPU 3, outside
#     the managed root) makes 7.x re-affine every unbound kernel thread
#     to the housekeeping CPUs.
# Written for the smt8 preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
TOP=$CG/kt
ROOT=$TOP/pods
C=$ROOT/pa/c
B1=$ROOT/pb/b1
ISO=$CG/ktiso
HELPER=$CPUMGR_OUT/selftests/kthread_owner
MODS=$CPUMGR_CACHE/kernels/${CPUMGR_KERNEL:-none}/modules
OUT=$(mktemp -d)
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --"
PIDS=
SLEEPER=

cleanup()
{
	local p

	for p in $PIDS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	# an io-wq worker waiting for a writer of the FIFO
	[ -p "$OUT/fifo" ] && timeout 2 sh -c ": >'$OUT/fifo'" 2>/dev/null
	[ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null && wait "$SLEEPER" 2>/dev/null
	[ -e "$ISO/cpuset.cpus.partition" ] &&
		echo member >"$ISO/cpuset.cpus.partition" 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	for p in "$ISO" "$C" "$B1" "$ROOT/pa" "$ROOT/pb" "$ROOT" "$TOP"; do
		[ -d "$p" ] && rmdir "$p" 2>/dev/null
	done
	rm -rf "$OUT"
}
trap cleanup EXIT

# The CPUs of a cpulist, as words.
cpus_of()
{
	local part a b IFS=,

	for part in $1; do
		a=${part%-*}
		b=${part#*-}
		for ((; a <= b; a++)); do
			echo -n "$a "
		done
	done
}

# LIST ALLOWED: every CPU of LIST is in ALLOWED (cpulists).
within()
{
	local c

	for c in $(cpus_of "$1"); do
		case " $(cpus_of "$2")" in
		*" $c "*) ;;
		*) return 1 ;;
		esac
	done
	[ -n "$1" ]
}

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$C" "$B1" &&
	echo +cpuset >"$TOP/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pa/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pb/cgroup.subtree_control" &&
	# CPU 3 stays out of the tree, for the partition beside it
	echo 0-2,4-7 >"$TOP/cpuset.cpus" &&
	echo 1-2,4-7 >"$ROOT/cpuset.cpus" &&
	echo 1-2,4-7 >"$ROOT/pa/cpuset.cpus" &&
	echo 4-7 >"$C/cpuset.cpus" &&
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$ROOT" \
		>/dev/null
}

# pb's container b1 gets 4-5, and a task there; the container c keeps
# the shared CPUs 6-7.
assign_b1()
{
	echo 6-7 >"$C/cpuset.cpus" &&
	echo 1-2,6-7 >"$ROOT/pa/cpuset.cpus" &&
	"$CTL" assign pb b1 4-5 >/dev/null &&
	"$CTL" bind pb b1 --cgroup "$B1" --pod-cgroup "$ROOT/pb" >/dev/null &&
	echo 4-5 >"$ROOT/pb/cpuset.cpus" &&
	echo 4-5 >"$B1/cpuset.cpus" || return 1
	sleep 1000 &
	SLEEPER=$!
	echo "$SLEEPER" >"$B1/cgroup.procs"
}

# NAME USER ARGS...: the helper started in c as USER (nobody or root);
# PID= its pid.  Waits for its "ready" (or "ring"); fails with its error.
start_in_c()
{
	local name=$1 user=$2 i
	shift 2

	: >"$OUT/$name.out"
	(
		echo "$BASHPID" >"$C/cgroup.procs" || exit 3
		if [ "$user" = nobody ]; then
			exec $NOBODY "$HELPER" "$@"
		fi
		exec "$HELPER" "$@"
	) >"$OUT/$name.out" 2>"$OUT/$name.err" &
	PID=$!
	PIDS="$PIDS $PID"
	for ((i = 0; i < 600; i++)); do
		grep -q "^ready\|^ring" "$OUT/$name.out" && return 0
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	wait "$PID"
	STATUS=$?
	PIDS=${PIDS% "$PID"}
	return 1
}

# PID NAME: TID= the thread NAME of process PID, or a kernel thread of
# that name (a vhost worker before 6.4, or moved in from kthreadd).
find_thread()
{
	local t comm i

	for ((i = 0; i < 50; i++)); do
		for t in /proc/"$1"/task/* /proc/[0-9]*; do
			read -r comm <"$t/comm" 2>/dev/null || continue
			if [ "$comm" = "$2" ]; then
				TID=${t##*/}
				TDIR=$t
				return 0
			fi
		done
		sleep 0.1
	done
	echo "# no thread '$2'"
	return 1
}

# ALLOWED: the thread TDIR may run on ALLOWED only, and the CPUs it was
# seen on (its last CPU, read 10 times over a second) are among them.
thread_on()
{
	local allowed line rest cpu seen= i ok=0
	local -a f

	allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' "$TDIR/status")
	for ((i = 0; i < 10; i++)); do
		read -r line <"$TDIR/stat" || break
		rest=${line##*) }
		read -ra f <<<"$rest"
		cpu=${f[36]}
		case " $seen " in
		*" $cpu "*) ;;
		*) seen="$seen $cpu" ;;
		esac
		sleep 0.1
	done
	echo "# $(<"$TDIR/comm") (tid $TID) allowed on $allowed, seen on${seen}; its cgroup's CPUs $1"
	within "$allowed" "$1" || ok=1
	for cpu in $seen; do
		within "$cpu" "$1" || ok=1
	done
	return $ok
}

stop()
{
	kill "$PID" 2>/dev/null
	wait "$PID" 2>/dev/null
	PIDS=${PIDS% "$PID"}
}

uring_skip=

uring_available()
{
	local d=/proc/sys/kernel/io_uring_disabled

	if start_in_c probe nobody sqpoll; then
		stop
		[ -e "$d" ] && echo "# kernel.io_uring_disabled is $(<"$d")"
		return 0
	fi
	uring_skip="io_uring_setup as nobody: $(<"$OUT/probe.err")"
	[ -e "$d" ] && uring_skip="$uring_skip, kernel.io_uring_disabled is $(<"$d")"
	return 1
}

# With b1 not assigned yet, c holds 4-7: an io-wq ring made now keeps 4-7.
iowq_ring_before()
{
	mkfifo -m 0666 "$OUT/fifo" && chmod 0755 "$OUT" &&
	start_in_c iowq nobody iowq "$OUT/fifo" && IOWQ=$PID
}

sqpoll_on_shared()
{
	local ok=0

	start_in_c sqpoll nobody sqpoll || { diag <"$OUT/sqpoll.err"; return 1; }
	find_thread "$PID" "iou-sqp-$PID" && thread_on 6-7 || ok=1
	stop
	return $ok
}

sq_aff_other()
{
	if start_in_c sqaff nobody sqpoll 4; then
		echo "# SQ_AFF on b1's CPU 4 was taken"
		find_thread "$PID" "iou-sqp-$PID" && thread_on 6-7
		stop
		return 1
	fi
	diag <"$OUT/sqaff.err"
	[ "$STATUS" = 1 ]
}

sq_aff_own()
{
	local ok=0

	start_in_c sqaff7 nobody sqpoll 7 || { diag <"$OUT/sqaff7.err"; return 1; }
	find_thread "$PID" "iou-sqp-$PID" && thread_on 7 || ok=1
	stop
	return $ok
}

iowq_aff_other()
{
	if start_in_c iowqaff nobody iowq "$OUT/fifo" 4-5; then
		echo "# IORING_REGISTER_IOWQ_AFF on 4-5 was taken"
		stop
		return 1
	fi
	diag <"$OUT/iowqaff.err"
	[ "$STATUS" = 1 ]
}

iowq_worker_narrowed()
{
	local i

	PID=$IOWQ
	kill -USR1 "$PID" || return 1
	for ((i = 0; i < 600; i++)); do
		grep -q "^ready" "$OUT/iowq.out" && break
		sleep 0.1
	done
	diag <"$OUT/iowq.err"
	find_thread "$PID" "iou-wrk-$PID" && thread_on 6-7
}

vhost_skip=

# The vhost-net module and what it needs, from this kernel's modules.
vhost_available()
{
	local m f

	[ -e /dev/vhost-net ] && return 0
	for m in net/tun net/tap vhost/vhost_iotlb vhost/vhost vhost/vhost_net; do
		f=$(ls "$MODS/kernel/drivers/$m.ko"* 2>/dev/null | head -n 1)
		if [ -z "$f" ]; then
			vhost_skip="no $m module in $MODS"
			return 1
		fi
		grep -q "^${m##*/} " /proc/modules || insmod "$f" || {
			vhost_skip="insmod $f failed"
			return 1
		}
	done
	[ -e /dev/vhost-net ] || { vhost_skip="no /dev/vhost-net"; return 1; }
}

# MODE: a vhost-net worker, owned by a root process in c ("kthread":
# a kernel thread, where the owner may choose), on 6-7 only, before
# and after an isolated partition on CPU 3 elsewhere.
vhost_worker()
{
	local ok=0

	start_in_c "vhost$1" root vhost $1 || {
		diag <"$OUT/vhost$1.err"
		return 1
	}
	if find_thread "$PID" "vhost-$PID"; then
		thread_on 6-7 || ok=1
		if isolated_beside; then
			thread_on 6-7 || ok=1
		else
			ok=1
		fi
		isolated_undo
	else
		ok=1
	fi
	stop
	return $ok
}

isolated_beside()
{
	mkdir -p "$ISO" &&
	echo 3 >"$ISO/cpuset.cpus" &&
	echo isolated >"$ISO/cpuset.cpus.partition" || return 1
	echo "# $ISO: $(<"$ISO/cpuset.cpus.partition"), CPU 3"
}

isolated_undo()
{
	[ -d "$ISO" ] || return 0
	echo member >"$ISO/cpuset.cpus.partition"
	rmdir "$ISO"
}

ktap_plan 10
check "set-up: a container c on 4-7 below the managed root" setup
if uring_available; then
	check "an io-wq ring made while c holds 4-7" iowq_ring_before
else
	ktap_result ok "an io-wq ring made while c holds 4-7 # SKIP $uring_skip"
fi
check "pb's container b1 assigned 4-5, c narrowed to 6-7" assign_b1
if [ -z "$uring_skip" ]; then
	check "SQPOLL thread of a process on 6-7 runs on 6-7 only" sqpoll_on_shared
	check "SQ_AFF on b1's CPU 4 is refused" sq_aff_other
	check "SQ_AFF on c's CPU 7: the SQ thread on 7" sq_aff_own
	check "IORING_REGISTER_IOWQ_AFF on b1's 4-5 is refused" iowq_aff_other
	check "an io-wq worker started now runs on 6-7 only" iowq_worker_narrowed
else
	for t in "SQPOLL thread" "SQ_AFF on 4" "SQ_AFF on 7" "IOWQ_AFF" "io-wq worker"; do
		ktap_result ok "$t # SKIP $uring_skip"
	done
fi
if vhost_available; then
	check "a vhost-net worker of a process on 6-7 stays there" vhost_worker
	if [ "$(uname -r | cut -d. -f1)" -ge 7 ] ||
	   [ "$(uname -r | cut -d. -f2)" -ge 12 ]; then
		check "a vhost-net kernel-thread worker stays there" vhost_worker kthread
	else
		ktap_result ok "a vhost-net kernel-thread worker # SKIP 6.1's is one (above)"
	fi
else
	ktap_result ok "a vhost-net worker # SKIP $vhost_skip"
	ktap_result ok "a vhost-net kernel-thread worker # SKIP $vhost_skip"
fi
ktap_exit
