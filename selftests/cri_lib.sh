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

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

TRIXIE=$CPUMGR_CACHE/debs/trixie/root
CRI=$RT/cri
CRI_RUN=/run/cpumgr-cri
CRI_SOCK=$CRI_RUN/containerd.sock
NRI_SOCK=$CRI_RUN/nri.sock
KSTATE=$RT/kubelet/cpu_manager_state
CRI_IMAGE=cpumgr.test/busybox:1
CRI_MODE=decide
CRI_PID=
NRI_PID=
PODS=$CPUMGR_TOP/examples/pods

# Before the plan: what the node needs (rt_need).
cri_need()
{
	rt_need runc
	[ -x "$TRIXIE/usr/bin/containerd" ] ||
		ktap_missing_all "containerd 1.7 in $TRIXIE (scripts/fetch-trixie.sh)"
	/usr/bin/python3 -c "import grpc, grpc_tools" 2>/dev/null ||
		ktap_missing_all "python3-grpcio and python3-grpc-tools"
}

# Does this cpumgrctl have the NRI plugin?
cri_have_plugin()
{
	"$CTL" help 2>&1 | grep -q "cpumgrctl nri "
}

# containerd's configuration: no file under /etc, nothing written to
# the read-only root.
cri_config()
{
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
		--proto-root "$TRIXIE" serve <"$CRI/kubelet.in" \
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
	"$TRIXIE/usr/bin/ctr" --address "$CRI_SOCK" -n k8s.io "$@"
}

cri_start_containerd()
{
	PATH=$TRIXIE/usr/bin:$PATH "$TRIXIE/usr/bin/containerd" \
		--config "$CRI/config.toml" >>"$CRI/containerd.log" 2>&1 &
	CRI_PID=$!
	local t0=$SECONDS
	kubelet wait >/dev/null 2>"$CRI/wait.err" ||
		{ diag <"$CRI/wait.err"; tail -n 20 "$CRI/containerd.log" | diag; return 1; }
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
	stop_bg "$CRI_PID"
	CRI_PID=
}

# The image (containers and the pod sandbox) into containerd's k8s.io
# namespace, unpacked for the native snapshotter.
cri_image()
{
	/usr/bin/python3 "$CPUMGR_TOP/selftests/cri_image.py" \
		"$CRI/image.tar" "$CRI_IMAGE" &&
		ctr_k8s images import --snapshotter native "$CRI/image.tar" \
			>"$CRI/import.log" 2>&1 || { diag <"$CRI/import.log"; return 1; }
}

# cri_wait_registered FROM: the plugin's log shows it registered (and
# synchronized) after its line FROM, within 120 s.
cri_wait_registered()
{
	local end=$((SECONDS + 120))

	while [ $SECONDS -lt $end ]; do
		tail -n +"$(($1 + 1))" "$CRI/nri.log" 2>/dev/null |
			grep -qiE "registered|synchroni[sz]ed" && return 0
		kill -0 "$NRI_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "# the plugin did not register"
	tail -n 20 "$CRI/nri.log" | diag
	return 1
}

cri_log_lines()
{
	cat "$CRI/nri.log" 2>/dev/null | wc -l
}

# cri_plugin_start MODE: the NRI plugin, connected to containerd's socket.
cri_plugin_start()
{
	local from

	from=$(cri_log_lines)
	"$CTL" nri --socket "$NRI_SOCK" --mode "$1" --kubelet-state "$KSTATE" \
		--state-dir "$S" --verbose >>"$CRI/nri.log" 2>&1 &
	NRI_PID=$!
	cri_wait_registered "$from"
}

cri_plugin_stop()
{
	stop_bg "$NRI_PID"
	NRI_PID=
}

# The node: cpumgr in enforce mode with its daemon, containerd, the
# image; the plugin in CRI_MODE when there is one.
cri_setup()
{
	rt_init enforce && cri_config && cri_start_containerd && cri_image ||
		return 1
	if cri_have_plugin; then
		cri_plugin_start "$CRI_MODE" || return 1
	fi
}

# A pod file as a fresh one: FILE UID [CPU]; CPU replaces every
# container's request and limit.
cri_pod_file()
{
	/usr/bin/python3 - "$@" >"$CRI/pod-$2.json" <<-'EOF'
	import json, sys
	pod = json.load(open(sys.argv[1]))
	pod["metadata"]["uid"] = sys.argv[2]
	pod["metadata"]["name"] = sys.argv[2]
	for c in pod["spec"]["containers"] if len(sys.argv) > 3 else []:
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
	cri_stop_containerd
	# what the shims left: their tasks and mounts
	umount -R "$CRI_RUN/state" 2>/dev/null
	rm -rf "$CRI_RUN"
	rt_cleanup
}
