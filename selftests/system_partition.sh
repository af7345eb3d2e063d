#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The node's system partition (KEP-5894; CONFIGURE with
# CPUMGR_A_SYSTEM_CGROUP, `cpumgrctl configure --system-cgroup`): system
# pods run under kubepods/system, on the kubelet's reserved CPUs, and
# never get exclusive CPUs.  With strict-cpu-reservation and reserved
# CPUs 0-1, a cgroup with tasks at or below the system cgroup may name
# them, another pod's cgroup still may not, and neither may name a
# container's exclusive CPUs; no container or pod may be bound at, below
# or above the system cgroup (BIND, RESTORE), nor a system cgroup be set
# over a binding, outside the managed root or without one, and a refused
# CONFIGURE changes nothing; sysfs system_cgroup shows it, RESET clears
# it; the system cgroup is matched by id, so a directory made again under
# its path is an ordinary cgroup, and none is shown, until CONFIGURE
# names it (the root may move meanwhile: the removed one goes with it).
# Written for the smt8 preset.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/sppods
SYS=$ROOT/system
SPOD=$SYS/podsys
PA=$ROOT/poda
APP=$PA/app
PB=$ROOT/podb
OUTSIDE=$CG/spx
PIDS=()
OUT=$(mktemp -d)

cleanup()
{
	local p d

	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	"$CTL" reset >/dev/null 2>&1
	for d in "$APP" "$SPOD" "$SYS" "$PA" "$PB" "$ROOT" "$OUTSIDE"; do
		[ -d "$d" ] && rmdir "$d"
	done
	rm -rf "$OUT"
}
trap cleanup EXIT

# ARGS...: cpumgrctl ARGS refused, the error in $OUT/e
ctl_refused()
{
	if "$CTL" "$@" >"$OUT/o" 2>"$OUT/e"; then
		echo "# cpumgrctl $* was taken"
		return 1
	fi
}

# TEXT: the last refusal said TEXT
said()
{
	grep -qF -- "$1" "$OUT/e" && return 0
	echo "# the refusal did not say '$1':"
	diag <"$OUT/e"
	return 1
}

# The table as a refused request must leave it: the generation, the
# root and the system cgroup, app's binding.
unchanged()
{
	sysfs_is generation "$GEN" && sysfs_is cgroup_root "$ROOT" &&
	sysfs_is system_cgroup "$SYS" && sysfs_is pods/poda/app/cgroup "$APP"
}

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$SPOD" "$APP" "$PB" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$SYS/cgroup.subtree_control" &&
	echo +cpuset >"$PA/cgroup.subtree_control" &&
	"$CTL" configure --policy static --options strict-cpu-reservation \
		--reserved 0-1 --cgroup-root "$ROOT" --system-cgroup "$SYS" \
		>"$OUT/o" 2>"$OUT/e" || { diag <"$OUT/e"; return 1; }
	"$CTL" assign poda app 2-3 >/dev/null &&
	"$CTL" bind poda app --cgroup "$APP" --pod-cgroup "$PA" >/dev/null &&
	echo 2-3 >"$APP/cpuset.cpus" && task_in "$APP" &&
	echo 4-5 >"$PB/cpuset.cpus" && task_in "$PB" &&
	echo 4-5 >"$SPOD/cpuset.cpus" && task_in "$SPOD" &&
	GEN=$(cat "$SYSFS/generation")
}

# (a) the system partition's cgroups name the reserved CPUs: the system
# cgroup's write moves podsys's task onto them (it names none of them
# yet), podsys names them, a task enters it; none is a violation
system_takes_reserved()
{
	local before

	read -r before <"$SYSFS/violations"
	echo 0-1 >"$SYS/cpuset.cpus" && echo 0-1,4 >"$SPOD/cpuset.cpus" &&
	echo 0 >"$SPOD/cpuset.cpus" && echo 0-1 >"$SPOD/cpuset.cpus" &&
	task_in "$SPOD" && sysfs_is violations "$before"
}

reserved_refused_elsewhere()
{
	refused 0,4-5 "$PB/cpuset.cpus" && refused 1 "$PB/cpuset.cpus"
}

exclusive_refused_in_the_system_partition()
{
	refused 0-3 "$SYS/cpuset.cpus" && refused 0-2 "$SPOD/cpuset.cpus" &&
	refused 3 "$SPOD/cpuset.cpus"
}

# (b) no exclusive CPUs there: BIND and RESTORE refuse its cgroups
bind_refused()
{
	ctl_refused bind poda app --cgroup "$SPOD" &&
	said "system pods never get exclusive CPUs" &&
	ctl_refused bind poda app --cgroup "$SYS" &&
	said "system pods never get exclusive CPUs" &&
	ctl_refused bind poda --pod-cgroup "$SPOD" &&
	said "at or below the system cgroup" &&
	ctl_refused bind poda --pod-cgroup "$ROOT" &&
	said "above the system cgroup" && unchanged &&
	sysfs_is pods/poda/pod_cgroup "$PA"
}

restore_refused()
{
	local req

	[ -e "$YNL_DIR/cli.py" ] || {
		skip_case "no $YNL_DIR/cli.py"
		return
	}
	req="{\"assignment\": [{\"pod-uid\": \"poda\", \"container\": \"app\","
	req+=" \"cpus\": \"2-3\", \"cgroup-path\": \"$SPOD/x\"}]}"
	mkdir "$SPOD/x" || return 1
	if ynl --do restore --json "$req" >"$OUT/o" 2>"$OUT/e"; then
		rmdir "$SPOD/x"
		echo "# RESTORE into the system partition was taken"
		return 1
	fi
	rmdir "$SPOD/x"
	cat "$OUT/o" >>"$OUT/e"
	said "system pods never get exclusive CPUs" && unchanged
}

# (c) a CONFIGURE that would break the rule changes nothing
configure_over_a_binding_refused()
{
	ctl_refused configure --system-cgroup "$PA" &&
	said "system pods never get exclusive CPUs" && unchanged &&
	ctl_refused configure --system-cgroup "$APP" &&
	said "system pods never get exclusive CPUs" && unchanged
}

configure_outside_the_root_refused()
{
	ctl_refused configure --system-cgroup "$OUTSIDE" &&
	said "not below the managed cgroup root" && unchanged &&
	ctl_refused configure --system-cgroup "$ROOT" &&
	said "not below the managed cgroup root" && unchanged &&
	ctl_refused configure --cgroup-root "$OUTSIDE" &&
	said "not below the managed cgroup root" && unchanged &&
	ctl_refused configure --cgroup-root "" &&
	said "a system cgroup needs a managed cgroup root" && unchanged &&
	ctl_refused configure --cgroup-root "" --system-cgroup "$SYS" &&
	said "a system cgroup needs a managed cgroup root" && unchanged
}

# (d) what it is shows in sysfs (root's) and GET_STATE, "" when none
shown()
{
	local mode

	mode=$(stat -c %a "$SYSFS/system_cgroup") &&
	[ "$mode" = 400 ] || { echo "# system_cgroup has mode $mode"; return 1; }
	sysfs_is system_cgroup "$SYS" &&
	"$CTL" table --json >"$OUT/j" &&
	json_true "j['systemCgroup'] == '$SYS'" "$OUT/j" &&
	"$CTL" table >"$OUT/o" && grep -q "^system cgroup   $SYS\$" "$OUT/o" ||
		{ diag <"$OUT/o"; return 1; }
}

cleared_by_empty_and_set_again()
{
	"$CTL" configure --system-cgroup "" >/dev/null &&
	sysfs_is system_cgroup "" && refused 0-1 "$SPOD/cpuset.cpus" &&
	"$CTL" configure --system-cgroup "$SYS" >/dev/null &&
	sysfs_is system_cgroup "$SYS" && echo 0-1 >"$SPOD/cpuset.cpus"
}

# (e) matched by id: removed and made again, it is an ordinary cgroup
made_again_is_not_it()
{
	local p pids

	# all of them first: the file changes as they go
	mapfile -t pids <"$SPOD/cgroup.procs"
	for p in "${pids[@]}"; do
		kill "$p" && wait "$p" 2>/dev/null
	done
	rmdir "$SPOD" && rmdir "$SYS" && mkdir -p "$SPOD" &&
	echo +cpuset >"$SYS/cgroup.subtree_control" &&
	sysfs_is system_cgroup "" &&
	refused 0-1 "$SYS/cpuset.cpus" && refused 0 "$SPOD/cpuset.cpus" &&
	# the removed one holds no root change back, and goes with it
	"$CTL" configure --cgroup-root "" >/dev/null &&
	"$CTL" configure --cgroup-root "$ROOT" >/dev/null &&
	sysfs_is system_cgroup "" &&
	"$CTL" configure --system-cgroup "$SYS" >/dev/null &&
	sysfs_is system_cgroup "$SYS" &&
	echo 0-1 >"$SYS/cpuset.cpus" && echo 0-1 >"$SPOD/cpuset.cpus" &&
	task_in "$SPOD"
}

reset_clears_it()
{
	"$CTL" reset >/dev/null && sysfs_is system_cgroup "" &&
	sysfs_is cgroup_root "" && "$CTL" table --json >"$OUT/j" &&
	json_true "j['systemCgroup'] == ''" "$OUT/j"
}

ktap_plan 12
check "set-up: strict-cpu-reservation, reserved 0-1, system cgroup $SYS, app on 2-3" setup
check "the system partition's cgroups may hold the reserved CPUs" system_takes_reserved
check "another pod's cgroups may not" reserved_refused_elsewhere
check "nor may the system partition hold a container's CPUs" exclusive_refused_in_the_system_partition
check "BIND at, below or above the system cgroup is refused" bind_refused
check "and RESTORE" restore_refused
check "no system cgroup over a bound cgroup: nothing changes" configure_over_a_binding_refused
check "nor outside the managed root, or without one" configure_outside_the_root_refused
check "sysfs system_cgroup (0400) and GET_STATE show it" shown
check "\"\" clears it, and the reserved CPUs are refused there again" cleared_by_empty_and_set_again
check "made again under its path, it is not the system cgroup" made_again_is_not_it
check "RESET clears it" reset_clears_it
ktap_exit
