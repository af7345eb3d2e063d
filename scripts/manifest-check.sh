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
#     netlink family), its sysfs and cgroup tree, the state directory, an
#     init container that loads the module and one that runs `cpumgrctl
#     init` with the ConfigMap's settings (every $(VAR) and key defined,
#     and the settings valid: `cpumgrctl init --dry-run` of the build
#     takes them), the NRI plugin with the runtime's socket and a mode,
#     a node selector beyond the OS, no service-account token, liveness
#     and readiness probes running cpumgrctl.  Each rule is tried on a
#     manifest broken for it, which it must refuse.

set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$CPUMGR_TOP/contrib/kubernetes
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
kubectl=$("$CPUMGR_TOP/scripts/fetch-debs.sh" kubectl kubernetes-client)/usr/bin/kubectl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The discovery documents of an API server serving apps/v1 DaemonSets and
# core v1 Namespaces, ServiceAccounts and ConfigMaps, as kubectl caches them.
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
	  "verbs":["create","delete","get","list"]},
	 {"name":"configmaps","singularName":"","namespaced":true,"kind":"ConfigMap",
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
	python3 "$CPUMGR_TOP/scripts/manifest_rules.py" "$version" \
		"$CPUMGR_OUT/user/cpumgrctl" "$dir"/*.yaml
}

main
