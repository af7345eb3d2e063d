#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the 2-socket SMT guest (scripts/demo.sh boots it): the
# whole story of a node with cpumgr.  Load the module, set up the static
# policy with reserved CPUs, admit the sample pods, start each container
# as a busy loop in its cgroup, look at the node, watch the kernel refuse
# a write and an offline that would break exclusivity, remove a pod,
# reset.

ctl=$CPUMGR_OUT/user/cpumgrctl
pods=$CPUMGR_TOP/examples/pods
state=/tmp/cpumgr
root=/sys/fs/cgroup/kubepods
loops=()

title()
{
	printf '\n\033[1;34m== %s\033[0m\n' "$*"
}

# Show a command, run it, and go on whatever it returns.
step()
{
	printf '\033[1m$ %s\033[0m\n' "$*"
	"$@"
}

# Likewise, its output (and a detached container's) into FILE.
step_to()
{
	local out=$1

	shift
	printf '\033[1m$ %s >%s\033[0m\n' "$*" "${out##*/}"
	"$@" >"$out" 2>&1 </dev/null
}

# A container: a busy loop in its own cgroup, attached by cpumgrctl.
start()
{
	local uid=$1 name=$2 pid

	sh -c 'while :; do :; done' &
	pid=$!
	loops+=("$pid")
	step "$ctl" attach --state-dir $state --pod "$uid" --container "$name" \
		--cgroup "pod$uid/$name" --pod-cgroup "pod$uid" --create \
		--pid "$pid" || return
	printf '  %-28s pid %-5s %s\n' "$name" "$pid" \
		"$(grep Cpus_allowed_list /proc/$pid/status)"
}

uid_of()
{
	sed -n 's/.*"uid": *"\([^"]*\)".*/\1/p; s/^ *uid: *//p' "$1" | head -n 1
}

cleanup()
{
	local pid

	for pid in "${loops[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
}
trap cleanup EXIT

title "cpumgr demo: Linux $(uname -r), $(nproc) CPUs ($CPUMGR_PRESET preset)"
step insmod "$CPUMGR_MODULE" || exit 1
step "$ctl" topology

title "The node's CPU manager: static policy, CPUs 0-1 (one core) reserved"
# --init-cpus release: cpumgr's own, off by default (the kubelet keeps an
# init container's CPUs until its pod goes: kubernetes#112228)
mkdir -p $root
echo +cpuset +cpu >/sys/fs/cgroup/cgroup.subtree_control
step "$ctl" init --state-dir $state --cpu-manager-policy static \
	--reserved-cpus 0-1 --cgroup-root $root --init-cpus release || exit 1

title "Admitting the sample pods (examples/pods): 6 CPUs to hand out"
for pod in guaranteed-2cpu.json guaranteed-init-reuse.json \
	   guaranteed-3cpu.yaml guaranteed-limits-only.json \
	   guaranteed-fractional.json burstable-cpu.json \
	   burstable-memory.json besteffort.json; do
	step "$ctl" admit --state-dir $state "$pods/$pod"
done

init=$(uid_of "$pods/guaranteed-init-reuse.json")
title "The init container setup runs to its end: what app does not reuse goes back"
printf '  setup holds %s (app will reuse %s), the shared pool is %s\n' \
	"$(cat /sys/kernel/cpumgr/pods/$init/setup/cpus)" \
	"$(cat /sys/kernel/cpumgr/pods/$init/app/cpus)" \
	"$(cat /sys/kernel/cpumgr/shared_cpus)"
sleep 1 &
step "$ctl" attach --state-dir $state --pod "$init" --container setup \
	--cgroup "pod$init/setup" --pod-cgroup "pod$init" --create --pid $!
wait
# the runtime removes the cgroup of a container that ended
step rmdir "$root/pod$init/setup"
step "$ctl" reconcile --state-dir $state
printf '  setup holds %s, the shared pool is %s (the kubelet would keep them: kubernetes#112228)\n' \
	"$(cat /sys/kernel/cpumgr/pods/$init/setup/cpus 2>/dev/null || echo nothing)" \
	"$(cat /sys/kernel/cpumgr/shared_cpus)"

title "Starting the containers as busy loops in their cgroups"
# The init container "setup" has run to its end: only app containers.
for c in guaranteed-2cpu.json:nginx guaranteed-init-reuse.json:app \
	 guaranteed-init-reuse.json:sidecar guaranteed-fractional.json:nginx \
	 burstable-cpu.json:nginx besteffort.json:nginx; do
	start "$(uid_of "$pods/${c%%:*}")" "${c#*:}"
done

title "The node"
step "$ctl" status --state-dir $state

g2=$(uid_of "$pods/guaranteed-2cpu.json")
bur=$(uid_of "$pods/burstable-cpu.json")
excl=$(cat /sys/kernel/cpumgr/pods/$g2/nginx/cpus)
cpu=${excl%%[,-]*}

title "Another container asks for nginx's exclusive CPUs $excl: refused"
"$ctl" events --count 1 >/tmp/demo-events &
events=$!
sleep 0.5
step bash -c "echo $excl > $root/pod$bur/nginx/cpuset.cpus"
wait $events
sed 's/^/  event: /' /tmp/demo-events
printf '  violations: %s\n' "$(cat /sys/kernel/cpumgr/violations)"

title "Taking CPU $cpu (nginx's) offline: refused, its task stays"
step bash -c "echo 0 > /sys/devices/system/cpu/cpu$cpu/online"
printf '  offlines_refused: %s, cpu%s online: %s\n' \
	"$(cat /sys/kernel/cpumgr/offlines_refused)" "$cpu" \
	"$(cat /sys/devices/system/cpu/cpu$cpu/online)"

title "Nothing on the node can run on another container's CPUs"
step "$ctl" audit --state-dir $state

title "The pod goes away; its CPUs return to the shared pool"
step "$ctl" remove --state-dir $state "$g2"
step cat /sys/kernel/cpumgr/shared_cpus

title "Reset"
cleanup
loops=()
step "$ctl" reset --force --state-dir $state

# Real containers: runc and cpumgrctl oci-hook, as the runtime_*
# selftests run them (selftests/runtime_lib.sh: a busybox root
# filesystem, pod cgroups made with mkdir and narrowed by the daemon).
if command -v runc >/dev/null && [ -e /proc/self/setgroups ]; then
	. "$CPUMGR_TOP/selftests/runtime_lib.sh"
	title "Real containers: runc starts them, cpumgrctl oci-hook pins them"
	rt_rootfs && rt_template decide && rt_init || exit 1
	rt_pod podg && rt_bundle "$RT/bg" g app /kubepods/podg/app 2048 200000
	step_to "$RT/app.out" runc --root "$RT/runc" run -d --bundle "$RT/bg" app
	printf '  its program'"'"'s first line, its Cpus_allowed_list: %s; its exclusive CPUs: %s\n' \
		"$(rt_first_line runc app)" "$(cat $SYSFS/pods/g/app/cpus)"
	theirs=$(cat $SYSFS/pods/g/app/cpus)
	title "A container whose spec names app's CPUs $theirs: refused"
	rt_pod podv && rt_bundle "$RT/bv" v app /kubepods/podv/evil 2048 200000 "$theirs"
	dmesg -C
	step_to "$RT/evil.out" runc --root "$RT/runc" run -d --bundle "$RT/bv" evil
	sed 's/^/  /' "$RT/evil.out"
	dmesg | grep 'cpumgr: refused' | sed 's/^/  dmesg: /'
	step "$ctl" status --state-dir "$S"
	runc --root "$RT/runc" delete -f evil 2>/dev/null
	runc --root "$RT/runc" delete -f app
	rt_cleanup
fi

title "The module unloads"
step rmmod cpumgr
