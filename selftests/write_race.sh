#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check, then commit (issue 12): a cpuset.cpus write is checked against
# the table before cpuset_write_resmask() does its work, so a change of
# the table (an ASSIGN making one of its CPUs exclusive) could come in
# between and return before the write lands, after which the controller
# would act on a tree the write then changes.  cpumgr's changes wait for
# the writes checked against an older table.  selftests/kmod's
# cpumgr_slow_write.ko holds one checked write, asleep, until it is
# released (at most 10 minutes, so that a busy host cannot make the hold
# run out before the ASSIGN has started); an ASSIGN made meanwhile must
# be waiting inside its sendmsg() (where genetlink runs it) a second
# after it got there, and must return only once the released write has
# landed.  (The hold used to spin in the probe: on 6.12-rt under CI's
# load the polling shell then stalled for the whole hold.)  A write
# waiting behind a held one on its branch gives up when its cgroup is
# removed.  Then with
# every in-flight slot held and one write more waiting for a slot, an
# rmmod must wait until that write has left the module.
# Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

SLOW=${CPUMGR_MODULE%/kmod/cpumgr.ko}/testmod/cpumgr_slow_write.ko
CG=/sys/fs/cgroup/wrace
OUT=$(mktemp -d)
PARAMS=/sys/module/cpumgr_slow_write/parameters

cleanup()
{
	echo -1 >"$PARAMS/release" 2>/dev/null
	wait
	rmmod cpumgr_slow_write 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	rmdir "$CG"/q*/slow "$CG"/q* "$CG/slow/gone" "$CG/slow" "$CG" 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

setup()
{
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$CG/slow" &&
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	"$CTL" configure --policy static >/dev/null &&
	"$CTL" assign p0 c0 7 >/dev/null &&
	insmod "$SLOW" cgroup=slow delay_ms=600000
}

# Process $1 is blocked in sendmsg() or sendto() (x86-64 numbers).
in_sendmsg()
{
	local nr rest

	read -r nr rest <"/proc/$1/syscall" 2>/dev/null || return 1
	[ "$nr" = 46 ] || [ "$nr" = 44 ]
}

assign_waits()
{
	local i cpus held=0 assign writer t0

	(echo 2-3 >"$CG/slow/cpuset.cpus") &
	writer=$!
	# until the write, checked, is held: it stays held until released
	for ((i = 0; i < 600; i++)); do
		held=$(<"$PARAMS/waiting")
		[ "$held" = 1 ] && break
		sleep 0.1
	done
	t0=$SECONDS
	cpus=$(<"$CG/slow/cpuset.cpus")
	if [ "$held" != 1 ] || [ -n "$cpus" ]; then
		echo "# the write was not held (waiting '$held', cpuset.cpus '$cpus')"
		return 1
	fi
	"$CTL" assign p1 c1 2-3 >"$OUT/assign" 2>&1 &
	assign=$!
	# until the ASSIGN is in the kernel: genetlink runs it inside the
	# sendmsg() that sends it (a program takes most of a second to start
	# under TCG, so a second alive alone would prove nothing)
	for ((i = 0; i < 1200; i++)); do
		in_sendmsg "$assign" && break
		kill -0 "$assign" 2>/dev/null || break
		sleep 0.1
	done
	sleep 1
	if ! in_sendmsg "$assign"; then
		if kill -0 "$assign" 2>/dev/null; then
			echo "# the ASSIGN runs, not waiting in sendmsg(): syscall $(cat /proc/$assign/syscall 2>&1)"
		else
			echo "# the ASSIGN returned while the checked write was held"
		fi
		# a hold that ran out (delay_ms) lets both go: a slow host
		echo "# $((SECONDS - t0)) s after the hold began: write held $(<"$PARAMS/waiting"), cpuset.cpus '$(<"$CG/slow/cpuset.cpus")'"
		# where the write is held, and the probes at the function
		sed 's/^/# writer: /' "/proc/$writer/stack" 2>/dev/null
		grep -s cpuset_write_resmask /sys/kernel/debug/kprobes/list | sed 's/^/# kprobe: /' 
		echo 1 >"$PARAMS/release"
		wait "$assign"
		echo "# its exit status: $?"
		diag <"$OUT/assign"
		wait
		return 1
	fi
	echo 1 >"$PARAMS/release"
	wait "$assign" || {
		diag <"$OUT/assign"
		return 1
	}
	# builtins only: what the ASSIGN left, before anything else runs
	held=$(<"$PARAMS/waiting")
	cpus=$(<"$CG/slow/cpuset.cpus")
	wait
	echo "# after the ASSIGN: write held $held, cpuset.cpus '$cpus'"
	[ "$held" = 0 ] && [ "$cpus" = 2-3 ]
}

landed()
{
	[ "$(<"$CG/slow/cpuset.cpus")" = 2-3 ] &&
	[ "$(<"$SYSFS/pods/p1/c1/cpus")" = 2-3 ]
}

# One write more than cpumgr has in-flight slots (CPUMGR_INFLIGHT_WRITES)
# waits for one inside the module: an rmmod meanwhile must wait for that
# write too, not only for those that hold a slot, or the write returns
# into freed text.  All write to cgroups named slow, so all are held:
# the first SLOTS until the rmmod waits, then released, after which the
# last one takes a slot and is held in turn, its rmmod still waiting.
SLOTS=16

# Until process $1's kernel stack shows $2, at most $3 tenths of a second
# of sleep (more under TCG): whether it does.
comes_to()
{
	local n

	for ((n = 0; n < $3; n++)); do
		grep -qs "$2" "/proc/$1/stack" && return 0
		sleep 0.1
	done
	grep -qs "$2" "/proc/$1/stack"
}

# Until $PARAMS/waiting reads $1 (a minute and more under TCG).
held_becomes()
{
	local n

	for ((n = 0; n < 1200; n++)); do
		[ "$(<"$PARAMS/waiting")" = "$1" ] && return 0
		sleep 0.1
	done
	echo "# $(<"$PARAMS/waiting") writes held, not $1"
	return 1
}

unload_waits_for_a_queued_write()
{
	local i pids=() rm last

	[ "${CPUMGR_MODULE_BOOTED:-0}" = 1 ] && {
		skip_case "the module was loaded at boot: not unloaded here"
		return
	}
	"$CTL" reset >/dev/null || return 1
	echo 0 >"$PARAMS/release"
	for ((i = 0; i <= SLOTS; i++)); do
		mkdir -p "$CG/q$i/slow" &&
		echo +cpuset >"$CG/q$i/cgroup.subtree_control" || return 1
	done
	for ((i = 0; i < SLOTS; i++)); do
		(echo 4-5 >"$CG/q$i/slow/cpuset.cpus") &
		pids+=($!)
	done
	held_becomes "$SLOTS" || { echo -1 >"$PARAMS/release"; return 1; }
	(echo 4-5 >"$CG/q$SLOTS/slow/cpuset.cpus") &
	last=$!
	pids+=($last)
	# asleep in cpumgr, waiting for an in-flight slot
	if ! comes_to "$last" cpumgr_inflight_write_get 1200; then
		echo "# the write beyond the slots is not waiting for one:"
		sed 's/^/# /' "/proc/$last/stack" 2>/dev/null
		echo -1 >"$PARAMS/release"
		wait "${pids[@]}"
		return 1
	fi
	rmmod cpumgr &
	rm=$!
	# until the unload waits for the writes under way: the last one's
	# (its slot to come) must be counted from before, not from now
	if ! comes_to "$rm" synchronize_srcu 1200; then
		echo "# rmmod does not wait for the writes under way:"
		sed 's/^/# /' "/proc/$rm/stack" 2>/dev/null
		echo -1 >"$PARAMS/release"
		wait "${pids[@]}" "$rm"
		grep -q '^cpumgr ' /proc/modules || insmod "$CPUMGR_MODULE"
		return 1
	fi
	# the holds so far go, the last write's to come does not
	echo "$(<"$PARAMS/holds")" >"$PARAMS/release"
	# the last write took a slot and is held: rmmod waits for it
	if ! comes_to "$last" slow_write_hold 300; then
		echo "# the last write is not held; held $(<"$PARAMS/waiting"), release $(<"$PARAMS/release")"
		for i in "${pids[@]}" "$rm"; do
			sed "s/^/# $i: /" "/proc/$i/stack" 2>/dev/null
		done
	fi
	held_becomes 1 && sleep 5
	if ! kill -0 "$rm" 2>/dev/null; then
		echo "# rmmod returned while a write was under way in cpumgr"
		echo -1 >"$PARAMS/release"
		wait "${pids[@]}"
		insmod "$CPUMGR_MODULE"
		return 1
	fi
	echo -1 >"$PARAMS/release"
	wait "$rm" || { echo "# rmmod failed"; return 1; }
	insmod "$CPUMGR_MODULE" || return 1
	wait "${pids[@]}" || { echo "# a write failed"; return 1; }
	for ((i = 0; i <= SLOTS; i++)); do
		[ "$(<"$CG/q$i/slow/cpuset.cpus")" = 4-5 ] || {
			echo "# q$i: cpuset.cpus '$(<"$CG/q$i/slow/cpuset.cpus")'"
			return 1
		}
	done
}

# A write waiting for the write under way on its branch holds its file.
# Removing its cgroup waits for that file with cgroup_mutex held, and
# may not wait for the write ahead as well (nor every cgroup change of
# the node with it): the waiting write gives up (ENODEV, as the kernel
# answers a write of a cpuset gone), and the rmdir returns while the
# write ahead is still held.
rmdir_while_waiting()
{
	local i waiter ok=0

	mkdir -p "$CG/slow/gone" &&
	echo +cpuset >"$CG/slow/cgroup.subtree_control" || return 1
	(echo 4-5 >"$CG/slow/cpuset.cpus") &
	held_becomes 1 || { echo -1 >"$PARAMS/release"; return 1; }
	(echo 4 2>"$OUT/gone.err" >"$CG/slow/gone/cpuset.cpus") &
	waiter=$!
	if ! comes_to "$waiter" cpumgr_inflight_write_get 1200; then
		echo "# the write of gone does not wait for the write of slow:"
		sed 's/^/# /' "/proc/$waiter/stack" 2>/dev/null
		ok=1
	fi
	(rmdir "$CG/slow/gone"; echo $? >"$OUT/rmdir") &
	for ((i = 0; i < 300; i++)); do
		[ -s "$OUT/rmdir" ] && break
		sleep 0.1
	done
	if [ "$(cat "$OUT/rmdir" 2>/dev/null)" != 0 ]; then
		echo "# rmdir of gone: '$(cat "$OUT/rmdir" 2>/dev/null)' after $i tenths of a second"
		ok=1
	fi
	[ "$(<"$PARAMS/waiting")" = 1 ] ||
		{ echo "# the write of slow was let go before"; ok=1; }
	echo "$(<"$PARAMS/holds")" >"$PARAMS/release"
	wait
	grep -q "No such device" "$OUT/gone.err" ||
		{ echo "# the write of gone:"; diag <"$OUT/gone.err"; ok=1; }
	[ "$(<"$CG/slow/cpuset.cpus")" = 4-5 ] ||
		{ echo "# slow: cpuset.cpus '$(<"$CG/slow/cpuset.cpus")'"; ok=1; }
	echo -cpuset >"$CG/slow/cgroup.subtree_control" || ok=1
	return $ok
}

ktap_plan 5
check "set-up: a slowed cgroup, an assignment" setup
check "an ASSIGN returns after the write checked before it landed" assign_waits
check "both took effect" landed
check "rmdir of a cgroup whose write waits for its branch: not held up" \
	rmdir_while_waiting
check "rmmod waits for a write queued for an in-flight slot" \
	unload_waits_for_a_queued_write
ktap_exit
