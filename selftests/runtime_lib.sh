# SPDX-License-Identifier: GPL-2.0
# Sourced by the runtime_* selftests: real runc, crun and podman starting
# containers on a cpumgr node, with `cpumgrctl oci-hook` as their OCI
# hook.  The root filesystem is busybox-static, put together at test
# time; every container runs one program that prints the CPUs it may
# run on (Cpus_allowed_list) as its first line, then sleeps.
#
# Pod cgroups are made with a plain mkdir, as the kubelet makes them;
# `cpumgrctl daemon` narrows them (RT_DAEMON=1, the default), or rt_pod
# narrows them by hand to the shared pool (RT_DAEMON=0) before the
# runtime runs.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

RT=$(mktemp -d /tmp/rt.XXXXXX)
S=$RT/state
CG=/sys/fs/cgroup/kubepods
ROOTFS=$RT/rootfs
RT_IDS=()
RT_DAEMON_PID=

# What the runtimes need on a guest whose root is read-only.
export XDG_RUNTIME_DIR=$RT/xdg
export TMPDIR=$RT/tmp
mkdir -p "$XDG_RUNTIME_DIR" "$TMPDIR"

rt_have()
{
	command -v "$1" >/dev/null 2>&1
}

# What runc and crun need of the kernel beyond cpusets: BPF device
# filters on cgroup v2 (CONFIG_CGROUP_BPF) and user namespaces
# (CONFIG_USER_NS, crun).  The debug kernel's defconfig has neither.
rt_kernel_ok()
{
	[ -e /proc/self/setgroups ] &&
		grep -q ' cgroup_bpf_prog_query$' /proc/kallsyms
}

# Before the plan: the runtimes (missing: a failure under make check,
# a skip by hand) and the kernel they need (a skip).
rt_need()
{
	local t

	for t in "$@"; do
		rt_have "$t" || ktap_missing_all "$t"
	done
	rt_kernel_ok ||
		skip_all "this kernel lacks CONFIG_CGROUP_BPF or CONFIG_USER_NS, which runc and crun need"
}

ctl()
{
	"$CTL" "$@" --state-dir "$S"
}

# The root filesystem: busybox-static and the mount points runc needs.
rt_rootfs()
{
	mkdir -p "$ROOTFS/bin" "$ROOTFS/proc" "$ROOTFS/sys" "$ROOTFS/dev" \
		"$ROOTFS/tmp" "$ROOTFS/etc"
	cp /bin/busybox "$ROOTFS/bin/busybox" &&
		"$ROOTFS/bin/busybox" --install -s "$ROOTFS/bin" 2>/dev/null
	# --install -s links to the path it ran from: make them relative
	ln -sf busybox "$ROOTFS/bin/sh"
}

# The node: static policy, CPU 0 reserved, enforce, the managed root,
# the pool moved as CPUMGR_POOL_MOVES says (init's default without it).
# rt_configure MODE [INIT-FLAG...]: the node's init, as rt_init made it,
# with those flags on top (a node set up again keeps its pods).
rt_configure()
{
	local mode=$1 rc

	shift
	ctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root "$CG" --enforce "$mode" \
		${CPUMGR_POOL_MOVES:+--pool-moves "$CPUMGR_POOL_MOVES"} "$@" \
		>/dev/null 2>"$RT/init.err"
	rc=$?
	# its notes and errors as the KTAP's diagnostics
	diag <"$RT/init.err"
	return $rc
}

# rt_init [MODE [INIT-ARGS...]]
rt_init()
{
	local mode=${1:-enforce}

	[ $# = 0 ] || shift
	echo "+cpuset +cpu" >/sys/fs/cgroup/cgroup.subtree_control
	rt_configure "$mode" "$@" || return 1
	echo "+cpuset +cpu" >"$CG/cgroup.subtree_control"
	# RT_DAEMON=1: the controller's daemon narrows new pod cgroups
	if [ "${RT_DAEMON:-1}" = 1 ] && [ -z "$RT_DAEMON_PID" ]; then
		"$CTL" daemon --reconcile-period 60s --state-dir "$S" \
			>"$RT/daemon.log" 2>&1 &
		RT_DAEMON_PID=$!
	fi
}

# Wait up to 30 s for the daemon to give DIR a cpuset of its own.
rt_wait_narrowed()
{
	local i

	for ((i = 0; i < 600; i++)); do
		[ -n "$(cat "$1/cpuset.cpus" 2>/dev/null)" ] && return 0
		sleep 0.05
	done
	echo "# $1: not narrowed"
	return 1
}

# The spec template: runc's default spec, then our process, hooks,
# annotations and resources with @NAME@ placeholders (rt_bundle fills
# them in with sed: no python per container).
rt_template()
{
	local mode=${1:-decide}

	rm -rf "$RT/tmpl"
	mkdir -p "$RT/tmpl" && (cd "$RT/tmpl" && runc spec) || return 1
	/usr/bin/python3 - "$RT/tmpl/config.json" "$CTL" "$S" "$mode" \
		>"$RT/config.tmpl" <<-'EOF'
	import json, sys
	spec = json.load(open(sys.argv[1]))
	ctl, state, mode = sys.argv[2:5]
	spec["process"]["terminal"] = False
	spec["process"]["args"] = ["/bin/busybox", "sh", "-c",
	    "busybox awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status;"
	    " exec busybox sleep 100000"]
	spec["root"] = {"path": "@ROOTFS@", "readonly": True}
	spec["hostname"] = "c"
	spec["annotations"] = {"io.cpumgr.pod-uid": "@UID@",
	                       "io.cpumgr.container-name": "@NAME@"}
	hook = {"path": ctl, "args": ["cpumgrctl", "oci-hook", "--mode", mode,
	                              "--kubelet-state", "@KSTATE@",
	                              "--state-dir", state]}
	spec["hooks"] = {
	    "createRuntime": [dict(hook, args=hook["args"] + ["createRuntime"])],
	    "poststop": [dict(hook, args=hook["args"] + ["poststop"])]}
	spec["linux"]["cgroupsPath"] = "@CGPATH@"
	spec["linux"]["resources"] = {"cpu": {"@CPU@": 0}}
	print(json.dumps(spec, indent=1))
	EOF
}

# rt_bundle DIR UID NAME CGPATH SHARES QUOTA [CPUS]: a bundle.
rt_bundle()
{
	local dir=$1 uid=$2 name=$3 cgpath=$4 shares=$5 quota=$6 cpus=$7
	local cpu="\"shares\": $shares, \"period\": 100000"

	[ "$quota" -gt 0 ] && cpu="$cpu, \"quota\": $quota"
	[ -n "$cpus" ] && cpu="$cpu, \"cpus\": \"$cpus\""
	mkdir -p "$dir"
	sed -e "s|@ROOTFS@|$ROOTFS|; s|@UID@|$uid|; s|@NAME@|$name|" \
	    -e "s|@CGPATH@|$cgpath|; s|@KSTATE@|$RT/kubelet_state|g" \
	    -e "s|\"@CPU@\": 0|$cpu|" "${RT_TMPL:-$RT/config.tmpl}" >"$dir/config.json"
}

# rt_pod PATH [OWN]: a pod cgroup below the managed root, made with a
# plain mkdir as the kubelet makes it, then narrowed to the shared pool
# (plus OWN, the pod's own exclusive CPUs) as the controller's daemon
# does; with RT_DAEMON=1, waiting for the daemon to do it.  Its QoS
# parents (burstable/, besteffort/) the same way.
rt_pod()
{
	local path=$1 own=$2 d=$CG want

	want=$(cat $SYSFS/shared_cpus 2>/dev/null)
	[ -n "$own" ] && want="$want,$own"
	for part in ${path//\// }; do
		d=$d/$part
		[ -d "$d" ] || mkdir "$d" || return 1
		[ "$d" = "$CG/$path" ] || echo "+cpuset +cpu" \
			>"$d/cgroup.subtree_control" 2>/dev/null
		if [ "${RT_DAEMON:-1}" = 1 ]; then
			rt_wait_narrowed "$d" || return 1
		elif [ "${RT_NARROW:-1}" = 1 ]; then
			echo "$want" >"$d/cpuset.cpus"
		fi
	done
	return 0
}

# rt_run RUNTIME ID BUNDLE: start a container; its output goes to
# $RT/ID.out.  The runtime's status is returned, its stderr in $RT/ID.err.
rt_run()
{
	local rt=$1 id=$2 bundle=$3 status

	RT_IDS+=("$rt:$id")
	case $rt in
	runc|crun)
		"$rt" --root "$RT/$rt" run -d --bundle "$bundle" "$id" \
			>"$RT/$id.out" 2>"$RT/$id.err" </dev/null
		;;
	podman)
		# shellcheck disable=SC2086
		rt_podman run -d $RT_PODMAN_RUN --name "$id" \
			--cgroup-parent "$(rt_pod_parent "$bundle")" \
			$(rt_podman_args "$bundle") \
			--rootfs "$ROOTFS" /bin/busybox sh -c "$(rt_podman_cmd)" \
			>"$RT/$id.cid" 2>"$RT/$id.err" </dev/null
		;;
	esac
	status=$?
	return $status
}

# The first line the container's program printed, waiting up to 60 s.
rt_first_line()
{
	local rt=${1%%:*} id=$2 i line

	for i in $(seq 600); do
		if [ "$rt" = podman ]; then
			line=$(rt_podman logs "$id" 2>/dev/null | head -n 1)
		else
			read -r line <"$RT/$id.out" 2>/dev/null
		fi
		[ -n "$line" ] && { echo "$line"; return 0; }
		sleep 0.1
	done
	return 1
}

# rt_stop RUNTIME ID [KILL]: stop and delete; KILL: the container's
# process gets SIGKILL first.
rt_stop()
{
	local rt=$1 id=$2 pid

	case $rt in
	runc|crun)
		if [ -n "$3" ]; then
			pid=$("$rt" --root "$RT/$rt" state "$id" 2>/dev/null |
				sed -n 's/^ *"pid": \([0-9]*\),*/\1/p')
			[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
		fi
		"$rt" --root "$RT/$rt" kill "$id" KILL 2>/dev/null
		"$rt" --root "$RT/$rt" delete -f "$id" 2>/dev/null
		;;
	podman)
		rt_podman rm -f -t 0 "$id" >/dev/null 2>&1
		;;
	esac
}

# rt_gone RUNTIME ID: the runtime has no state for it.
rt_gone()
{
	case $1 in
	runc|crun)
		! "$1" --root "$RT/$1" list -q 2>/dev/null | grep -qx "$2"
		;;
	podman)
		! rt_podman ps -a --format '{{.Names}}' 2>/dev/null |
			grep -qx "$2"
		;;
	esac
}

# ---- podman: everything writable under $RT ----

rt_podman()
{
	podman --root "$RT/podman/root" --runroot "$RT/podman/run" \
		--tmpdir "$RT/podman/tmp" --cgroup-manager cgroupfs \
		--events-backend none --storage-driver vfs \
		--network-config-dir "$RT/podman/net" \
		--hooks-dir "$RT/hooks.d" --runtime runc "$@"
}

# podman run's options for a guest with no network and a read-only /etc
RT_PODMAN_RUN="--network none --log-driver k8s-file"


# The hooks.d file of contrib/ (its template: the path is replaced),
# pointed at this build and state.
rt_podman_setup()
{
	local mode=${1:-decide}

	mkdir -p "$RT/podman/root" "$RT/podman/run" "$RT/podman/tmp" \
		"$RT/podman/net" "$RT/hooks.d"
	/usr/bin/python3 - "$CPUMGR_TOP/contrib/oci-hooks.d/cpumgr.json.in" \
		"$CTL" "$S" "$mode" >"$RT/hooks.d/cpumgr.json" <<-'EOF'
	import json, sys
	hook = json.load(open(sys.argv[1]))
	ctl, state, mode = sys.argv[2:5]
	args = hook["hook"]["args"]
	hook["hook"]["path"] = ctl
	hook["hook"]["args"] = args + ["--mode", mode, "--state-dir", state]
	print(json.dumps(hook))
	EOF
}

# podman's bundle is its own; ours carries the arguments in a file
rt_pod_parent()
{
	sed -n 's/^cgroup_parent=//p' "$1/podman.args"
}

rt_podman_args()
{
	sed -n 's/^arg=//p' "$1/podman.args"
}

rt_podman_cmd()
{
	echo "busybox awk '/^Cpus_allowed_list/ { print \$2 }' /proc/self/status; exec busybox sleep 100000"
}

# rt_podman_bundle DIR UID NAME POD_CGROUP CPUS_REQUEST QUOTA
rt_podman_bundle()
{
	local dir=$1 uid=$2 name=$3 parent=$4 shares=$5 quota=$6

	mkdir -p "$dir"
	{
		echo "cgroup_parent=$parent"
		echo "arg=--annotation=io.cpumgr.pod-uid=$uid"
		echo "arg=--annotation=io.cpumgr.container-name=$name"
		echo "arg=--cpu-shares=$shares"
		[ "$quota" -gt 0 ] && echo "arg=--cpu-quota=$quota" &&
			echo "arg=--cpu-period=100000"
	} >"$dir/podman.args"
}

# ---- checks ----

# The exclusive CPUs of a container, from sysfs.
rt_cpus()
{
	cat "$SYSFS/pods/$1/$2/cpus" 2>/dev/null
}

# rt_cpus_rel OP A B: sftest_lib's cpus_rel.
rt_cpus_rel()
{
	cpus_rel "$@"
}

rt_disjoint()
{
	rt_cpus_rel disjoint "$1" "$2"
}

rt_subset()
{
	rt_cpus_rel subset "$1" "$2"
}

rt_cpus_minus()
{
	rt_cpus_rel minus "$1" "$2"
}

# Table, checkpoint, pod files and cgroups agree; audit is clean.
rt_agree()
{
	"$CTL" dump --json >"$RT/dump.json" &&
		"$CTL" table --json >"$RT/state.json" &&
		/usr/bin/python3 "$CPUMGR_TOP/selftests/node_agree.py" \
			"$RT/dump.json" "$RT/state.json" "$S" | diag &&
		[ "${PIPESTATUS[0]}" = 0 ] || return 1
	ctl audit >"$RT/audit" 2>&1 || { diag <"$RT/audit"; return 1; }
}

rt_cleanup()
{
	local e

	[ -n "$RT_DAEMON_PID" ] && kill "$RT_DAEMON_PID" 2>/dev/null &&
		wait "$RT_DAEMON_PID" 2>/dev/null

	for e in "${RT_IDS[@]}"; do
		rt_stop "${e%%:*}" "${e#*:}" >/dev/null 2>&1
	done
	ctl reset --force >/dev/null 2>&1 ||
		CPUMGR_STATE_DIR=/nonexistent "$CTL" reset >/dev/null 2>&1
	find "$CG" -depth -type d 2>/dev/null | while read -r d; do
		rmdir "$d" 2>/dev/null
	done
	rm -rf "$RT"
}
