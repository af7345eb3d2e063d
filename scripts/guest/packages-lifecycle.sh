# SPDX-License-Identifier: GPL-2.0
#
# Sourced by guest/packages-boot.sh, last (it removes the package): the
# package's life on a node with a container running, as an operator
# lives it.  An earlier containerd base spec with cpumgr's hooks (made as
# the operator's guide says: ctr oci spec and jq) and a plugin link in
# /opt/nri/plugins are there; init --integration oci-hook owns them; a
# podman container started through the hooks.d file holds exclusive
# CPUs; init --integration nri-decide turns the hooks off; the upgrade
# to a second build (make check-host's build/deb-upgrade, VERSION+upgrade1)
# restarts the daemon and the NRI plugin, the rollback to the first
# again; dpkg -r leaves no unit enabled, no hook, no plugin, and warns
# that the module still enforces the container's CPUs; dpkg -P says it
# keeps /var/lib/cpumgr; the container runs on its CPUs throughout (the
# module, cpumgr-dkms's, still enforces); a new container starts with
# no hook in the way.

LC=/var/tmp/cpumgr-lifecycle
LC_POD1=lc000001-aaaa-4bbb-8ccc-000000000001
LC_POD2=lc000001-aaaa-4bbb-8ccc-000000000002
base_spec=/etc/containerd/cpumgr-base-spec.json
plugin_link=/opt/nri/plugins/10-cpumgr
lc_up=
lc_cpus=

# podman reading the hooks directories of oci-hooks(5), the package's
# and the administrator's (podman 4.3 reads only the first unless
# containers.conf's hooks_dir names both, as the guide says)
lc_podman()
{
	podman --root "$LC/podman/root" --runroot /run/cpumgr-lifecycle \
		--tmpdir "$LC/podman/tmp" --cgroup-manager cgroupfs \
		--events-backend none --storage-driver vfs \
		--network-config-dir "$LC/podman/net" --runtime runc \
		--hooks-dir /usr/share/containers/oci/hooks.d \
		--hooks-dir /etc/containers/oci/hooks.d "$@"
}

# What the operator had before: the base spec the guide makes and the
# plugin link the guide used to suggest; a busybox root for podman.  The
# host's root is a container image's, whose policy-rc.d forbids every
# service start and stop to maintainer scripts: a node has none.
lc_setup()
{
	rm -f /usr/sbin/policy-rc.d
	mkdir -p "$LC/rootfs/bin" "$LC/rootfs/proc" "$LC/rootfs/sys" \
		"$LC/rootfs/dev" "$LC/rootfs/tmp" "$LC/rootfs/etc" \
		"$LC/podman/root" "$LC/podman/tmp" "$LC/podman/net" \
		/etc/containerd "$(dirname "$plugin_link")" || return 1
	cp /bin/busybox "$LC/rootfs/bin/busybox" || return 1
	"$CPUMGR_CACHE/debs/trixie/root/usr/bin/ctr" oci spec >"$LC/default.json" &&
		jq -s '.[0] * .[1]' "$LC/default.json" \
			/usr/share/cpumgr/containerd/cpumgr-hooks.json >"$base_spec" &&
		grep -q '"/usr/sbin/cpumgrctl"' "$base_spec" || return 1
	ln -sfn /usr/sbin/cpumgrctl "$plugin_link"
	echo "+cpuset +cpu" >/sys/fs/cgroup/cgroup.subtree_control
}

# NAME POD [PARENT]: a Guaranteed 1-CPU container of pod POD through
# podman's hooks directories, its pod cgroup (PARENT/podPOD, kubepods by
# default) made as the kubelet makes it and narrowed by the daemon
# first; its first line in $LC/NAME.first.
lc_run()
{
	local name=$1 pod=$2 parent=${3:-kubepods} d i

	d=/sys/fs/cgroup/$parent/pod$pod
	mkdir -p "$d" && echo "+cpuset +cpu" >"/sys/fs/cgroup/$parent/cgroup.subtree_control"
	for i in $(seq 100); do
		[ "$parent" != kubepods ] || [ -n "$(cat "$d/cpuset.cpus" 2>/dev/null)" ] && break
		sleep 0.1
	done
	lc_podman run -d --network none --log-driver k8s-file --name "$name" \
		--cgroup-parent "/$parent/pod$pod" \
		--annotation "io.cpumgr.pod-uid=$pod" \
		--annotation io.cpumgr.container-name=app \
		--cpu-shares 1024 --cpu-quota 100000 --cpu-period 100000 \
		--rootfs "$LC/rootfs" /bin/busybox sh -c \
		"busybox awk '/^Cpus_allowed_list/ { print \$2 }' /proc/self/status; exec busybox sleep 100000" \
		>"$LC/$name.id" 2>"$LC/$name.err" || { diag <"$LC/$name.err"; return 1; }
	for i in $(seq 200); do
		lc_podman logs "$name" 2>/dev/null | head -n 1 >"$LC/$name.first"
		[ -s "$LC/$name.first" ] && return 0
		sleep 0.1
	done
	return 1
}

# The container still runs on the exclusive CPUs the table gives it.
lc_holds()
{
	local now

	now=$(cat "/sys/kernel/cpumgr/pods/$LC_POD1/app/cpus" 2>/dev/null)
	echo "# container: table '$now', first line '$(cat "$LC/c1.first")', state $(lc_podman inspect -f '{{.State.Status}}' c1 2>&1)"
	[ -n "$now" ] && [ "$now" = "$lc_cpus" ] &&
		[ "$(lc_podman inspect -f '{{.State.Status}}' c1 2>/dev/null)" = running ]
}

lc_oci_hook()
{
	init_with oci-hook && [ -e "$hook" ] && [ ! -e "$plugin_link" ] &&
		[ ! -L "$plugin_link" ] &&
		[ "$(jq '[.hooks[][] | select(.args | index("oci-hook"))] | length' "$base_spec")" = 2 ] ||
		return 1
	lc_run c1 "$LC_POD1" || return 1
	lc_cpus=$(cat "/sys/kernel/cpumgr/pods/$LC_POD1/app/cpus")
	[ -n "$lc_cpus" ] && [ "$(cat "$LC/c1.first")" = "$lc_cpus" ]
}

lc_nri()
{
	init_with nri-decide && [ ! -e "$hook" ] &&
		! grep -q cpumgrctl "$base_spec" && grep -q '"ociVersion"' "$base_spec" &&
		unit_is cpumgr-nri@decide.service UnitFileState enabled &&
		unit_is cpumgr-nri@decide.service SubState running
}

# FILE VERSION: dpkg -i restarts the daemon and the NRI plugin that runs.
lc_install()
{
	local deb=$1 want=$2 d n

	d=$(systemctl show -P MainPID cpumgr.service)
	n=$(systemctl show -P MainPID cpumgr-nri@decide.service)
	dpkg -i "$deb" >"$LC/$want.log" 2>&1 || { diag <"$LC/$want.log"; return 1; }
	echo "# cpumgr.service $d -> $(systemctl show -P MainPID cpumgr.service)," \
		"cpumgr-nri@decide $n -> $(systemctl show -P MainPID cpumgr-nri@decide.service)"
	[ "$(dpkg-query -W -f='${Version}' cpumgr)" = "$want" ] &&
		unit_is cpumgr.service SubState running &&
		unit_is cpumgr-nri@decide.service SubState running &&
		unit_is cpumgr-nri@decide.service UnitFileState enabled &&
		[ "$(systemctl show -P MainPID cpumgr.service)" != "$d" ] &&
		[ "$(systemctl show -P MainPID cpumgr-nri@decide.service)" != "$n" ]
}

# cpumgr's files where runtimes and systemd look (the guest's own units
# aside); none may be left, enabled or dangling.
lc_left()
{
	find /etc/systemd/system /etc/containers/oci/hooks.d /opt/nri/plugins \
		-name '*cpumgr*' ! -name 'cpumgr-guest*' 2>/dev/null
	grep -l cpumgrctl "$base_spec" 2>/dev/null
}

lc_removed()
{
	dpkg -r cpumgr >"$LC/remove.log" 2>&1 || { diag <"$LC/remove.log"; return 1; }
	diag <"$LC/remove.log"
	# the container's CPU is named: it still holds it
	grep -q "cpumgr: pods hold exclusive CPUs $lc_cpus, which the module goes on enforcing" \
		"$LC/remove.log" &&
		unit_is cpumgr-nri@decide.service ActiveState inactive &&
		unit_is cpumgr.service ActiveState inactive &&
		[ ! -e "$hook" ] && ! grep -q cpumgrctl "$base_spec" &&
		[ ! -e "$plugin_link" ] &&
		[ -z "$(find /etc/systemd/system -name 'cpumgr-nri@*')" ]
}

lc_purged()
{
	local left

	dpkg -P cpumgr >"$LC/purge.log" 2>&1 || { diag <"$LC/purge.log"; return 1; }
	diag <"$LC/purge.log"
	left=$(lc_left)
	[ -z "$left" ] || { echo "$left" | diag; return 1; }
	grep -q 'cpumgr: kept /var/lib/cpumgr' "$LC/purge.log" &&
		[ -e /var/lib/cpumgr/cpu_manager_state ] && [ ! -e /usr/sbin/cpumgrctl ]
}

lifecycle()
{
	lc_up=$(ls "$CPUMGR_OUT"/deb-upgrade/cpumgr_*+upgrade1_*.deb 2>/dev/null | head -n 1)
	if [ -z "$lc_up" ]; then
		ktap_result ok "the package's lifecycle # SKIP no upgrade build in $CPUMGR_OUT/deb-upgrade (make check-host makes it)"
		return
	fi
	local v0 t0=$SECONDS

	v0=$(dpkg-query -W -f='${Version}' cpumgr)
	check "lifecycle: an earlier base spec with cpumgr's hooks (ctr oci spec, jq) and a plugin link" lc_setup
	check "lifecycle: --integration oci-hook owns them; a podman container on exclusive CPUs" lc_oci_hook
	check "lifecycle: --integration nri-decide: the hooks out of both, the plugin runs" lc_nri
	check "lifecycle: the upgrade to $(basename "$lc_up") restarts the daemon and the plugin" \
		lc_install "$lc_up" "$v0+upgrade1"
	check "lifecycle: the container runs on its CPUs after the upgrade" lc_holds
	check "lifecycle: the rollback to $v0 restarts them again" \
		lc_install "$(ls "$CPUMGR_OUT"/deb/cpumgr_"$v0"_*.deb)" "$v0"
	check "lifecycle: dpkg -r: no NRI unit, hook or plugin left, the daemon stopped" lc_removed
	check "lifecycle: the container still runs on its CPUs (the module enforces)" lc_holds
	check "lifecycle: dpkg -P: nothing of cpumgr's left enabled or dangling; /var/lib/cpumgr kept, and said" \
		lc_purged
	# outside the managed root: with a hook left there, its missing
	# program would fail the start; the table's pod in kubepods stays, and
	# a pod cgroup made there now is no one's to narrow (the prerm said)
	check "lifecycle: a new container starts, no hook in its way" lc_run c2 "$LC_POD2" lifecycle
	# c1's poststop hook names the cpumgrctl that went: runc says so
	lc_podman rm -f -t 0 c1 c2 >"$LC/rm.log" 2>&1 || diag <"$LC/rm.log"
	echo "# time: lifecycle $((SECONDS - t0))s"
}
