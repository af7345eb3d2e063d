# SPDX-License-Identifier: GPL-2.0
# Sourced by the CRI selftests: a Kubernetes node's container runtime in
# the guest, driven the way the kubelet drives it.
#
# containerd 1.7 from Debian 13 (scripts/fetch-trixie.sh puts it in the
# cache; the guest sees it read-only) with everything it writes under
# /tmp and /run, bookworm's runc as its runtime, the native snapshotter
# (the initramfs loads no overlay module), NRI enabled; an image of
# busybox-static built and imported at test time (no registry); the
# cpumgr node as runtime_lib.sh sets it up (enforce mode, CPU 0
# reserved, the daemon); `cpumgrctl nri` as the NRI plugin; and
# selftests/cri_driver.py as the kubelet.
#
# On a node of today (CPUMGR_NODE=1: guest-run.sh -N, the node root booted
# by systemd) the node is the one systemd runs instead: the node root's
# containerd 2.x as containerd.service, configured in
# /etc/containerd/config.toml with the systemd cgroup driver
# (SystemdCgroup) and NRI as containerd has it by default (enabled, its
# socket /var/run/nri/nri.sock), the overlayfs snapshotter; the kubelet's
# systemd cgroup driver (kubepods.slice, slices started through systemd);
# cpumgr from its packages: /usr/sbin/cpumgrctl, its state in
# /var/lib/cpumgr, its daemon cpumgr.service, and the NRI plugin either
# pre-registered, cpumgr-nri@MODE.service as `cpumgrctl init
# --integration nri-MODE` enables it (CPUMGR_CRI_PLUGIN=unit, the
# default), or launched by containerd from its plugin_path
# (CPUMGR_CRI_PLUGIN=launched: /opt/nri/plugins/10-cpumgr).
# CPUMGR_CRI_DRIVER=cgroupfs: the kubelet's and containerd's cgroupfs
# driver there instead (kubepods/, SystemdCgroup = false).

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

TRIXIE=$CPUMGR_CACHE/debs/trixie/root
CRI=$RT/cri
CRI_RUN=/run/cpumgr-cri
CRI_SOCK=$CRI_RUN/containerd.sock
NRI_SOCK=$CRI_RUN/nri.sock
NRI_LOG=$CRI/nri.log
KSTATE=$RT/kubelet/cpu_manager_state
CRI_IMAGE=cpumgr.test/busybox:1
CRI_MODE=decide
CRI_PID=
NRI_PID=
PODS=$CPUMGR_TOP/examples/pods
CRI_NODE=${CPUMGR_NODE:-0}
CRI_PLUGIN=${CPUMGR_CRI_PLUGIN:-unit}
CRI_BIN=$TRIXIE/usr/bin
CRI_DRIVER=cgroupfs
CRI_SNAPSHOTTER=native
# what cri_node_up adds to init; the namespaces the kubelet puts below
# the system cgroup (KEP-5894), none
CRI_INIT_ARGS=()
CRI_SYSTEM_NS=
if [ "$CRI_NODE" = 1 ]; then
	CTL=/usr/sbin/cpumgrctl
	S=/var/lib/cpumgr
	CG=/sys/fs/cgroup/kubepods.slice
	CRI_SOCK=/run/containerd/containerd.sock
	NRI_SOCK=/var/run/nri/nri.sock
	NRI_LOG=/var/log/cpumgr-nri.log
	KSTATE=/var/lib/kubelet/cpu_manager_state
	CRI_BIN=/usr/bin
	CRI_DRIVER=${CPUMGR_CRI_DRIVER:-systemd}
	CRI_SNAPSHOTTER=overlayfs
	RT_DAEMON=0
	[ "$CRI_DRIVER" = systemd ] || CG=/sys/fs/cgroup/kubepods
fi

# Before the plan: what the node needs (rt_need).
cri_need()
{
	rt_need runc
	[ -x "$CRI_BIN/containerd" ] ||
		ktap_missing_all "containerd in $CRI_BIN (scripts/fetch-trixie.sh; the node root: scripts/build-root.sh make node)"
	/usr/bin/python3 -c "import grpc, grpc_tools" 2>/dev/null ||
		ktap_missing_all "python3-grpcio and python3-grpc-tools"
}

# Does this cpumgrctl have the NRI plugin?
cri_have_plugin()
{
	"$CTL" help 2>&1 | grep -q "cpumgrctl nri "
}

# containerd 2.x's configuration on the node, as an operator writes it:
# the systemd cgroup driver the kubelet's needs, the test image as the
# sandbox image; NRI left as containerd has it (enabled, its own socket
# and plugin directories) but for its timeouts, which a TCG guest needs
# longer (CRI_NRI_TIMEOUT).  Its root in a tmpfs: overlayfs snapshots
# cannot be made on the guest's overlay root.
cri_node_config()
{
	local etc=/etc/containerd/config.toml

	mkdir -p /etc/containerd /var/lib/containerd "$(dirname "$KSTATE")"
	mountpoint -q /var/lib/containerd ||
		mount -t tmpfs tmpfs /var/lib/containerd || return 1
	cat >"$etc" <<-EOF
	version = 3

	[plugins.'io.containerd.cri.v1.images'.pinned_images]
	  sandbox = "$CRI_IMAGE"

	[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
	  SystemdCgroup = $([ "$CRI_DRIVER" = systemd ] && echo true || echo false)

	[plugins.'io.containerd.nri.v1.nri']
	  plugin_registration_timeout = "${CRI_NRI_TIMEOUT:-30s}"
	  plugin_request_timeout = "${CRI_NRI_TIMEOUT:-30s}"
	EOF
	cp "$etc" "$CRI/config.toml"
}

# containerd's configuration: no file under /etc, nothing written to
# the read-only root.
cri_config()
{
	[ "$CRI_NODE" = 0 ] || { mkdir -p "$CRI"; cri_node_config; return; }
	mkdir -p "$CRI/cni/bin" "$CRI/cni/conf" "$CRI/nri/plugins" \
		"$CRI/nri/conf.d" "$CRI/opt" "$CRI_RUN" "$(dirname "$KSTATE")"
	cat >"$CRI/config.toml" <<-EOF
	version = 2
	root = "$CRI/root"
	state = "$CRI_RUN/state"

	[grpc]
	  address = "$CRI_SOCK"
	[ttrpc]
	  address = "$CRI_RUN/containerd.sock.ttrpc"

	[plugins."io.containerd.internal.v1.opt"]
	  path = "$CRI/opt"

	[plugins."io.containerd.grpc.v1.cri"]
	  sandbox_image = "$CRI_IMAGE"
	  [plugins."io.containerd.grpc.v1.cri".containerd]
	    snapshotter = "native"
	    default_runtime_name = "runc"
	    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
	      runtime_type = "io.containerd.runc.v2"
	      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
	        BinaryName = "$(command -v runc)"
	        SystemdCgroup = false
	  [plugins."io.containerd.grpc.v1.cri".cni]
	    bin_dir = "$CRI/cni/bin"
	    conf_dir = "$CRI/cni/conf"

	# NRI: off by default in 1.7; a TCG guest needs longer timeouts
	[plugins."io.containerd.nri.v1.nri"]
	  disable = false
	  socket_path = "$NRI_SOCK"
	  plugin_path = "$CRI/nri/plugins"
	  plugin_config_path = "$CRI/nri/conf.d"
	  plugin_registration_timeout = "${CRI_NRI_TIMEOUT:-30s}"
	  plugin_request_timeout = "${CRI_NRI_TIMEOUT:-30s}"
	EOF
}

# The kubelet: one cri_driver.py serving the whole selftest (Python and
# grpc take seconds to start under TCG), on this node's socket and
# checkpoint; each command in the mode CRI_MODE says.
KUBELET_PID=
kubelet_start()
{
	rm -f "$CRI/kubelet.in" "$CRI/kubelet.out"
	mkfifo "$CRI/kubelet.in" "$CRI/kubelet.out" || return 1
	/usr/bin/python3 "$CPUMGR_TOP/selftests/cri_driver.py" \
		--socket "$CRI_SOCK" --work "$CRI/kubelet" \
		--kubelet-state "$KSTATE" --ctl "$CTL" --reserved-cpus 0 \
		--cgroup-driver "$CRI_DRIVER" --proto-root "$TRIXIE" \
		${CRI_SYSTEM_NS:+--system-namespaces "$CRI_SYSTEM_NS"} \
		serve <"$CRI/kubelet.in" \
		>"$CRI/kubelet.out" 2>>"$CRI/kubelet.log" &
	KUBELET_PID=$!
	exec {KUBELET_IN}>"$CRI/kubelet.in" {KUBELET_OUT}<"$CRI/kubelet.out"
}

kubelet_stop()
{
	[ -n "$KUBELET_PID" ] || return 0
	# children started since hold the pipe too: no EOF to wait for
	exec {KUBELET_IN}>&- {KUBELET_OUT}<&-
	kill "$KUBELET_PID" 2>/dev/null
	wait "$KUBELET_PID" 2>/dev/null
	KUBELET_PID=
}

# kubelet COMMAND ARGS...: cri_driver.py's command; its output, its
# errors on stderr, its status.
kubelet()
{
	local line

	[ -n "$KUBELET_PID" ] || kubelet_start || return 1
	printf '%q ' "$@" --mode "$CRI_MODE" >&"$KUBELET_IN"
	echo >&"$KUBELET_IN"
	while IFS= read -r line <&"$KUBELET_OUT"; do
		case $line in
		"@@end "*) return "${line#@@end }" ;;
		"@@err "*) echo "${line#@@err }" >&2 ;;
		*) echo "$line" ;;
		esac
	done
	echo "# the kubelet (cri_driver.py) died:"
	tail -n 20 "$CRI/kubelet.log" | diag
	KUBELET_PID=
	return 1
}

ctr_k8s()
{
	"$CRI_BIN/ctr" --address "$CRI_SOCK" -n k8s.io "$@"
}

# containerd's log: its own file, or its unit's journal on the node
cri_containerd_log()
{
	if [ "$CRI_NODE" = 1 ]; then
		journalctl -b --no-pager -o cat -u containerd.service
	else
		cat "$CRI/containerd.log"
	fi
}

cri_start_containerd()
{
	local t0=$SECONDS

	if [ "$CRI_NODE" = 1 ]; then
		systemctl restart containerd.service || return 1
	else
		PATH=$TRIXIE/usr/bin:$PATH "$TRIXIE/usr/bin/containerd" \
			--config "$CRI/config.toml" >>"$CRI/containerd.log" 2>&1 &
		CRI_PID=$!
	fi
	kubelet wait >/dev/null 2>"$CRI/wait.err" || {
		diag <"$CRI/wait.err"
		tail -n 20 "$CRI/kubelet.log" | diag
		cri_containerd_log | tail -n 20 | diag
		return 1
	}
	echo "# containerd answered the CRI after $((SECONDS - t0)) s"
}

# stop_bg PID: end a process this library started in the background.
stop_bg()
{
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

cri_stop_containerd()
{
	[ "$CRI_NODE" = 0 ] || { systemctl stop containerd.service; return; }
	stop_bg "$CRI_PID"
	CRI_PID=
}

# The image (containers and the pod sandbox) into containerd's k8s.io
# namespace, unpacked for the native snapshotter.
cri_image()
{
	/usr/bin/python3 "$CPUMGR_TOP/selftests/cri_image.py" \
		"$CRI/image.tar" "$CRI_IMAGE" &&
		ctr_k8s images import --snapshotter "$CRI_SNAPSHOTTER" "$CRI/image.tar" \
			>"$CRI/import.log" 2>&1 || { diag <"$CRI/import.log"; return 1; }
}

# cri_wait_registered FROM: the plugin's log shows it registered (and
# synchronized) after its line FROM, within 120 s.
cri_wait_registered()
{
	local end=$((SECONDS + 120))

	while [ $SECONDS -lt $end ]; do
		tail -n +"$(($1 + 1))" "$NRI_LOG" 2>/dev/null |
			grep -qiE "registered|synchroni[sz]ed" && return 0
		[ "$CRI_NODE" = 1 ] || kill -0 "$NRI_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "# the plugin did not register"
	tail -n 20 "$NRI_LOG" | diag
	return 1
}

cri_log_lines()
{
	cat "$NRI_LOG" 2>/dev/null | wc -l
}

# The plugin on the node: its unit logs every call (--verbose) to
# NRI_LOG, as `systemctl edit cpumgr-nri@` would make it.
cri_node_plugin_units()
{
	local d=/etc/systemd/system/cpumgr-nri@.service.d

	mkdir -p "$d"
	cat >"$d/verbose.conf" <<-EOF
	[Service]
	ExecStart=
	ExecStart=$CTL nri --mode %i --verbose
	StandardError=append:$NRI_LOG
	EOF
	systemctl daemon-reload
}

# The plugin containerd launches: an executable in its plugin_path (an
# index and a name), which ends with containerd.
cri_node_plugin_launched()
{
	local mode=$1 exe=/opt/nri/plugins/10-cpumgr

	mkdir -p "${exe%/*}"
	if [ -z "$mode" ]; then
		rm -f "$exe"
		return
	fi
	cat >"$exe" <<-EOF
	#!/bin/sh
	exec $CTL nri --mode $mode --kubelet-state $KSTATE --verbose 2>>$NRI_LOG
	EOF
	chmod 755 "$exe"
}

# cri_node_plugin MODE|"": the node's plugin in MODE, or none
cri_node_plugin()
{
	local from

	from=$(cri_log_lines)
	if [ "$CRI_PLUGIN" = launched ]; then
		cri_node_plugin_launched "$1"
		# containerd launches its plugins when it starts
		cri_start_containerd || return 1
	else
		[ -e /etc/systemd/system/cpumgr-nri@.service.d/verbose.conf ] ||
			cri_node_plugin_units
		# init says every setting: CRI_INIT_ARGS again
		rt_configure enforce "${CRI_INIT_ARGS[@]}" \
			--integration "${1:+nri-}${1:-none}" || return 1
	fi
	[ -n "$1" ] || return 0
	cri_wait_registered "$from" || return 1
	tail -n +"$((from + 1))" "$NRI_LOG" | grep ' connected ' | diag
	[ "$CRI_PLUGIN" = launched ] || return 0
	# containerd's own child, on the socket it handed over
	local pid parent
	pid=$(pgrep -n -f "cpumgrctl nri --mode $1")
	parent=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	parent=$(cat "/proc/$parent/comm" 2>/dev/null)
	echo "# plugin $pid, started by $parent"
	[ "$parent" = containerd ]
}

# cri_plugin_start MODE: the NRI plugin, connected to containerd's socket.
cri_plugin_start()
{
	local from

	[ "$CRI_NODE" = 0 ] || { cri_node_plugin "$1"; return; }
	from=$(cri_log_lines)
	"$CTL" nri --socket "$NRI_SOCK" --mode "$1" --kubelet-state "$KSTATE" \
		--state-dir "$S" --verbose >>"$CRI/nri.log" 2>&1 &
	NRI_PID=$!
	cri_wait_registered "$from"
}

cri_plugin_stop()
{
	[ "$CRI_NODE" = 0 ] || { cri_node_plugin ""; return; }
	stop_bg "$NRI_PID"
	NRI_PID=
}

# What systemd writes to cgroup files on its own (cpuset.cpus of slices
# and scopes, cgroup.subtree_control, cgroup.procs): a trace kprobe on
# cgroup_file_write, which calls the functions the module probes (a
# probe of ours beside the module's, which refuses writes, is kept off
# them), with the file, its cgroup and that cgroup's parent by name
# (struct kernfs_node: __parent at 8, name at 16 on 6.12 and 7.3) and
# the text.  The module's own log names what it refused.
CRI_TRACE=/sys/kernel/tracing
cri_trace_systemd()
{
	local e=$CRI_TRACE/events/kprobes/cpumgr_cgwrite

	[ -e "$CRI_TRACE/kprobe_events" ] ||
		mount -t tracefs tracefs "$CRI_TRACE" 2>/dev/null || return 0
	echo 'p:cpumgr_cgwrite cgroup_file_write file=+0(+16(+0(%di))):string cg=+0(+16(+8(+0(%di)))):string up=+0(+16(+8(+8(+0(%di))))):string buf=+0(%si):string' \
		>>"$CRI_TRACE/kprobe_events" 2>/dev/null || return 0
	echo 'comm == "systemd"' >"$e/filter"
	echo 4096 >"$CRI_TRACE/buffer_size_kb"
	echo 1 >"$e/enable"
}

# The cpuset writes systemd made below kubepods.slice, as traced:
# cpuset.cpus, and the cpuset controller in cgroup.subtree_control
# (uptime, file, cgroup, its parent, the text).
cri_systemd_writes()
{
	grep -E 'cg="kubepods|up="kubepods' "$CRI_TRACE/trace" 2>/dev/null |
		grep -E 'file="cpuset.cpus"|buf="[-+]cpuset' |
		sed 's/^.* \([0-9.]*\): cpumgr_cgwrite: ([^)]*) /\1 /'
}

# The node without the plugin: cpumgr in enforce mode with its daemon,
# containerd.  On the node of today, as a node comes up: containerd
# configured and restarted, the kubelet (its QoS slices), then cpumgr
# set up and its daemon (cpumgr.service) started.
cri_node_up()
{
	if [ "$CRI_NODE" = 0 ]; then
		rt_init enforce "${CRI_INIT_ARGS[@]}" && cri_config &&
			cri_start_containerd
		return
	fi
	cri_trace_systemd
	cri_config && cri_start_containerd &&
		echo "+cpuset +cpu" >/sys/fs/cgroup/cgroup.subtree_control &&
		rt_configure enforce "${CRI_INIT_ARGS[@]}" &&
		systemctl restart cpumgr.service
}

# The node: cri_node_up, the image; the plugin in CRI_MODE when there is
# one.
cri_setup()
{
	cri_node_up && cri_image ||
		return 1
	if cri_have_plugin; then
		cri_plugin_start "$CRI_MODE" || return 1
	fi
}

# A pod file as a fresh one: FILE UID [CPU [NAMESPACE]]; CPU, unless
# empty, replaces every container's request and limit.
cri_pod_file()
{
	/usr/bin/python3 - "$@" >"$CRI/pod-$2.json" <<-'EOF'
	import json, sys
	pod = json.load(open(sys.argv[1]))
	pod["metadata"]["uid"] = sys.argv[2]
	pod["metadata"]["name"] = sys.argv[2]
	if len(sys.argv) > 4:
	    pod["metadata"]["namespace"] = sys.argv[4]
	for c in pod["spec"]["containers"] if sys.argv[3:4] not in ([], [""]) else []:
	    for k in ("requests", "limits"):
	        c["resources"][k]["cpu"] = sys.argv[3]
	print(json.dumps(pod))
	EOF
	echo "$CRI/pod-$2.json"
}

# cri_up FILE: run a pod; its "NAME ID FIRST-LINE" lines in
# $CRI/up.out, the refusal in $CRI/up.err.
cri_up()
{
	kubelet up "$1" >"$CRI/up.out" 2>"$CRI/up.err"
}

# The first line of container NAME from the last cri_up.
cri_line()
{
	awk -v n="$1" '$1 == n { print $3 }' "$CRI/up.out"
}

cri_cleanup()
{
	local f

	for f in "$CRI"/kubelet/pods/*.json; do
		[ -e "$f" ] || continue
		f=${f##*/}
		kubelet down "${f%.json}" >/dev/null 2>&1
	done
	kubelet_stop
	cri_plugin_stop
	if [ "$CRI_NODE" = 1 ]; then
		systemctl stop cpumgr.service kubepods.slice
		# the node as the package left it: no plugin, no cgroup root
		rm -f /var/lib/cpumgr/config.json
	fi
	cri_stop_containerd
	# what the shims left: their tasks and mounts
	umount -R "$CRI_RUN/state" 2>/dev/null
	rm -rf "$CRI_RUN"
	rt_cleanup
}

# cri_pod_cgroup UID [QOS]: the pod cgroup the kubelet's driver makes
# (QOS: burstable or besteffort; none for Guaranteed)
cri_pod_cgroup()
{
	if [ "$CRI_DRIVER" = systemd ]; then
		echo "$CG/${2:+kubepods-$2.slice/}kubepods-${2:+$2-}pod${1//-/_}.slice"
	else
		echo "$CG/${2:+$2/}pod$1"
	fi
}

# cri_container_cgroup ID: the cgroup of container ID, wherever it is
cri_container_cgroup()
{
	find "$CG" -type d \( -name "$1" -o -name "cri-containerd-$1.scope" \) |
		head -n 1
}
