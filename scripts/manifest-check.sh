#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/kubernetes/ checked offline (make check-host):
#   - Debian's kubectl (kubernetes-client 1.20, unpacked by
#     scripts/fetch-debs.sh) takes it: `kubectl create --dry-run=client`.
#     kubectl maps kinds through the API server's discovery even for a
#     client dry run; offline, it reads them from a discovery cache
#     written here (--cache-dir) for the kinds the manifests may use, with
#     the server an address nobody answers.  Field names are not checked:
#     that needs the server's OpenAPI document (--validate=false).
#   - what cpumgr needs of it: the image `make image` builds (this
#     version), privileged containers, the node's network namespace (the
#     netlink family), its sysfs and cgroup tree, the state directory, and
#     an init container that loads the module.

set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$CPUMGR_TOP/contrib/kubernetes
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
kubectl=$("$CPUMGR_TOP/scripts/fetch-debs.sh" kubectl kubernetes-client)/usr/bin/kubectl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The discovery documents of an API server serving apps/v1 DaemonSets and
# core v1 Namespaces and ServiceAccounts, as kubectl caches them.
discovery_cache()
{
	local d=$tmp/cache/discovery/127.0.0.1_1

	mkdir -p "$d/v1" "$d/apps/v1"
	cat >"$d/servergroups.json" <<-'J'
	{"kind":"APIGroupList","apiVersion":"v1","groups":[
	 {"name":"","versions":[{"groupVersion":"v1","version":"v1"}],
	  "preferredVersion":{"groupVersion":"v1","version":"v1"}},
	 {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],
	  "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}
	J
	cat >"$d/v1/serverresources.json" <<-'J'
	{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
	 {"name":"namespaces","singularName":"","namespaced":false,"kind":"Namespace",
	  "verbs":["create","delete","get","list"]},
	 {"name":"serviceaccounts","singularName":"","namespaced":true,"kind":"ServiceAccount",
	  "verbs":["create","delete","get","list"]}]}
	J
	cat >"$d/apps/v1/serverresources.json" <<-'J'
	{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[
	 {"name":"daemonsets","singularName":"","namespaced":true,"kind":"DaemonSet",
	  "verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ds"]}]}
	J
}

offline_kubectl()
{
	"$kubectl" --server=http://127.0.0.1:1 --cache-dir "$tmp/cache" \
		--request-timeout=5s "$@"
}

main()
{
	local f objs

	discovery_cache
	# the cache is what answers: a kind it does not know is refused
	printf 'apiVersion: apps/v1\nkind: DaemonSett\nmetadata: {name: x}\n' >"$tmp/bad.yaml"
	if offline_kubectl create --dry-run=client --validate=false \
		-f "$tmp/bad.yaml" -o name >/dev/null 2>&1; then
		die "kubectl took an unknown kind: the offline check checks nothing"
	fi
	for f in "$dir"/*.yaml; do
		objs=$(offline_kubectl create --dry-run=client --validate=false \
			-f "$f" -o name) || die "$f: kubectl create --dry-run=client failed"
		echo "$f: $objs"
	done
	python3 - "$version" "$dir"/*.yaml <<-'P'
	import sys, yaml
	version, files = sys.argv[1], sys.argv[2:]
	image = "localhost/cpumgr:" + version
	bad = []
	for f in files:
	    for doc in yaml.safe_load_all(open(f)):
	        if not doc or doc.get("kind") != "DaemonSet":
	            continue
	        spec = doc["spec"]["template"]["spec"]
	        vols = {v["name"]: v.get("hostPath", {}).get("path") for v in spec.get("volumes", [])}
	        if not spec.get("hostNetwork"):
	            bad.append("not hostNetwork: the netlink family is the node's")
	        for c in spec.get("initContainers", []) + spec["containers"]:
	            if c["image"] != image:
	                bad.append(f"{c['name']}: image {c['image']}, make image builds {image}")
	            if not c.get("securityContext", {}).get("privileged"):
	                bad.append(f"{c['name']}: not privileged")
	        def mounts(c):
	            return {m["mountPath"]: vols.get(m["name"]) for m in c.get("volumeMounts", [])}
	        daemon = [c for c in spec["containers"] if "daemon" in c.get("command", [])]
	        if len(daemon) != 1:
	            bad.append("no container runs cpumgrctl daemon")
	        else:
	            m = mounts(daemon[0])
	            for p in ("/sys", "/sys/fs/cgroup", "/var/lib/cpumgr"):
	                if m.get(p) != p:
	                    bad.append(f"daemon: {p} is not the node's {p}")
	        if not any(c.get("command") == ["/sbin/modprobe", "cpumgr"]
	                   and mounts(c).get("/lib/modules") == "/lib/modules"
	                   for c in spec.get("initContainers", [])):
	            bad.append("no init container loads the module from the node's /lib/modules")
	for b in bad:
	    print(b)
	sys.exit(1 if bad else 0)
	P
}

main
