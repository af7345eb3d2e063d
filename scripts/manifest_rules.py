#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What cpumgr needs of contrib/kubernetes/ (scripts/manifest-check.sh
# runs it after kubectl's dry run).  Each rule is then tried on a copy of
# the manifests broken for it, which it must refuse: a rule that cannot
# fail checks nothing.
#
# Usage: manifest_rules.py VERSION CPUMGRCTL FILE.yaml...
#   CPUMGRCTL: the build's, for `init --dry-run` of the ConfigMap's settings

import copy
import os
import re
import subprocess
import sys
import tempfile

import yaml

CTL = "/usr/sbin/cpumgrctl"
NODE_PATHS = ("/sys", "/sys/fs/cgroup", "/var/lib/cpumgr")


def by_kind(docs, kind):
    return [d for d in docs if d and d.get("kind") == kind]


def mounts(spec, c):
    vols = {v["name"]: v for v in spec.get("volumes", [])}
    return {m["mountPath"]: vols.get(m["name"], {}) for m in c.get("volumeMounts", [])}


def host_path(vol):
    return vol.get("hostPath", {}).get("path")


def env_values(c, cms, bad):
    """The container's env as the kubelet resolves it from the ConfigMaps."""
    env = {}
    for e in c.get("env", []):
        ref = e.get("valueFrom", {}).get("configMapKeyRef")
        if "value" in e:
            env[e["name"]] = e["value"]
        elif ref:
            data = cms.get(ref["name"], {}).get("data", {})
            if ref["key"] not in data:
                bad.append(f"{c['name']}: ConfigMap {ref['name']} has no key {ref['key']}")
            env[e["name"]] = data.get(ref["key"], "")
    return env


def expand(c, env, bad):
    """command + args with $(VAR) replaced, as the kubelet does."""
    out = []
    for a in c.get("command", []) + c.get("args", []):
        for var in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", a):
            if var not in env:
                bad.append(f"{c['name']}: $({var}) is not in its env")
        out.append(re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                          lambda m: env.get(m.group(1), m.group(0)), a))
    return out


def check_init(spec, c, argv, cms, ctl, bad):
    """The init container's settings, valid by `cpumgrctl init --dry-run`
    (with its own flags: a typo is refused only under its --strict)."""
    m = mounts(spec, c)
    for p in NODE_PATHS:
        if host_path(m.get(p, {})) != p:
            bad.append(f"init: {p} is not the node's {p}")
    with tempfile.TemporaryDirectory() as tmp:
        args = list(argv[2:])
        # files of ConfigMap volumes, written where the container sees them
        for i, a in enumerate(args):
            for path, vol in m.items():
                name = vol.get("configMap", {}).get("name")
                if name and a.startswith(path + "/"):
                    data = cms.get(name, {}).get("data", {})
                    key = a[len(path) + 1:]
                    if key not in data:
                        bad.append(f"init: {a}: ConfigMap {name} has no key {key}")
                        continue
                    f = os.path.join(tmp, key)
                    with open(f, "w") as fh:
                        fh.write(data[key])
                    args[i] = f
        r = subprocess.run([ctl, "init", "--dry-run"] + args,
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad.append(f"init: cpumgrctl init --dry-run refuses the settings: {r.stderr.strip()}")


def check_probes(c, ready, bad):
    """Liveness runs cpumgrctl; readiness is status --ready READY: the
    node doing its job (nri: the plugin registered), not its files."""
    cmd = c.get("livenessProbe", {}).get("exec", {}).get("command", [])
    if cmd[:1] != [CTL] or len(cmd) < 2:
        bad.append(f"{c['name']}: no livenessProbe running cpumgrctl")
    cmd = c.get("readinessProbe", {}).get("exec", {}).get("command", [])
    if cmd != [CTL, "status", "--ready", ready]:
        bad.append(f"{c['name']}: readinessProbe is not cpumgrctl status --ready {ready}: {cmd}")


def check_ds(ds, cms, version, ctl):
    bad = []
    image = "localhost/cpumgr:" + version
    spec = ds["spec"]["template"]["spec"]
    inits, ctrs = spec.get("initContainers", []), spec.get("containers", [])
    if not spec.get("hostNetwork"):
        bad.append("not hostNetwork: the netlink family is the node's")
    if spec.get("automountServiceAccountToken") is not False:
        bad.append("the service-account token is mounted (automountServiceAccountToken)")
    sel = set(spec.get("nodeSelector", {})) - {"kubernetes.io/os"}
    if not sel and not spec.get("affinity", {}).get("nodeAffinity"):
        bad.append("no node selector for the nodes with the module")
    for v in spec.get("volumes", []):
        name = v.get("configMap", {}).get("name")
        if name and name not in cms:
            bad.append(f"volume {v['name']}: no ConfigMap {name} in the file")
    argvs = {}
    for c in inits + ctrs:
        if c["image"] != image:
            bad.append(f"{c['name']}: image {c['image']}, make image builds {image}")
        if not c.get("securityContext", {}).get("privileged"):
            bad.append(f"{c['name']}: not privileged")
        argvs[c["name"]] = expand(c, env_values(c, cms, bad), bad)
    named = lambda cs, cmd: [c for c in cs if argvs[c["name"]][:2] == [CTL, cmd]]

    modprobe = [i for i, c in enumerate(inits)
                if c.get("command") == ["/sbin/modprobe", "cpumgr"]
                and host_path(mounts(spec, c).get("/lib/modules", {})) == "/lib/modules"]
    init = [i for i, c in enumerate(inits) if argvs[c["name"]][:2] == [CTL, "init"]]
    if not modprobe:
        bad.append("no init container loads the module from the node's /lib/modules")
    if len(init) != 1:
        bad.append("no init container runs cpumgrctl init")
    else:
        if modprobe and init[0] < modprobe[0]:
            bad.append("cpumgrctl init runs before the module is loaded")
        c = inits[init[0]]
        check_init(spec, c, argvs[c["name"]], cms, ctl, bad)
        argv = argvs[c["name"]]
        i = argv.index("--on-busy") if "--on-busy" in argv else -1
        if i < 0 or argv[i + 1:i + 2] != ["keep"]:
            bad.append("init: no --on-busy keep: a refused change would leave the node without its plugin")

    daemon, nri = named(ctrs, "daemon"), named(ctrs, "nri")
    if len(daemon) != 1:
        bad.append("no container runs cpumgrctl daemon")
    if len(nri) != 1:
        bad.append("no container runs cpumgrctl nri")
    for c in daemon + nri:
        m = mounts(spec, c)
        for p in NODE_PATHS:
            if host_path(m.get(p, {})) != p:
                bad.append(f"{c['name']}: {p} is not the node's {p}")
        check_probes(c, "nri" if c in nri else "node", bad)
    for c in nri:
        argv = argvs[c["name"]]
        if "--mode" not in argv or argv[argv.index("--mode") + 1:][:1] not in (
                ["decide"], ["guard"], ["follow"]):
            bad.append(f"nri: --mode is not decide, guard or follow: {argv}")
        m = mounts(spec, c)
        for p in ("/var/run/nri", "/var/lib/kubelet"):
            if host_path(m.get(p, {})) != p:
                bad.append(f"nri: {p} is not the node's {p}")
    return bad


def check(docs, version, ctl):
    cms = {d["metadata"]["name"]: d for d in by_kind(docs, "ConfigMap")}
    dss = by_kind(docs, "DaemonSet")
    if not dss:
        return ["no DaemonSet"]
    return [b for ds in dss for b in check_ds(ds, cms, version, ctl)]


def _spec(docs):
    return by_kind(docs, "DaemonSet")[0]["spec"]["template"]["spec"]


def _ctr(docs, name):
    s = _spec(docs)
    return [c for c in s.get("initContainers", []) + s["containers"] if c["name"] == name][0]


def _data(docs):
    return by_kind(docs, "ConfigMap")[0]["data"]


# (what is broken, how): each must make check() complain
BREAKAGES = [
    ("token mounted", lambda d: _spec(d).pop("automountServiceAccountToken")),
    ("no node label", lambda d: _spec(d).update(nodeSelector={"kubernetes.io/os": "linux"})),
    ("no NRI container", lambda d: _spec(d).update(
        containers=[c for c in _spec(d)["containers"] if c["name"] != "nri"])),
    ("no init container", lambda d: _spec(d).update(
        initContainers=[c for c in _spec(d)["initContainers"] if c["name"] != "init"])),
    ("a ConfigMap key gone", lambda d: _data(d).pop("enforce")),
    ("a bad enforce mode", lambda d: _data(d).update(enforce="never")),
    ("a bad KubeletConfiguration", lambda d: _data(d).update(
        {"kubelet-config.yaml": _data(d)["kubelet-config.yaml"].replace(
            'reservedSystemCPUs: "0"', 'reservedSystemCPUs: "x"')})),
    ("a typo in the KubeletConfiguration", lambda d: _data(d).update(
        {"kubelet-config.yaml": _data(d)["kubelet-config.yaml"] + "cpuManagerPolicyy: none\n"})),
    ("a bad NRI mode", lambda d: _data(d).update({"nri-mode": "both"})),
    ("an undefined $(VAR)", lambda d: _ctr(d, "init")["env"].pop(0)),
    ("no liveness probe", lambda d: _ctr(d, "daemon").pop("livenessProbe")),
    ("no readiness probe", lambda d: _ctr(d, "nri").pop("readinessProbe")),
    ("a readiness probe that only reads files", lambda d: _ctr(d, "nri").update(
        readinessProbe={"exec": {"command": [CTL, "status"]}})),
    ("no --on-busy keep", lambda d: _ctr(d, "init").update(
        command=_ctr(d, "init")["command"][:-2])),
    ("no NRI socket", lambda d: _ctr(d, "nri").update(
        volumeMounts=[m for m in _ctr(d, "nri")["volumeMounts"] if m["name"] != "nri"])),
]


def main():
    version, ctl, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    status = 0
    for f in files:
        with open(f) as fh:
            docs = list(yaml.safe_load_all(fh))
        bad = check(docs, version, ctl)
        for b in bad:
            print(f"{f}: {b}")
        status |= bool(bad)
        if bad or not by_kind(docs, "DaemonSet"):
            continue
        for what, breakit in BREAKAGES:
            broken = copy.deepcopy(docs)
            breakit(broken)
            if not check(broken, version, ctl):
                print(f"{f}: {what}: not refused, the rule checks nothing")
                status = 1
        print(f"{f}: {len(BREAKAGES)} broken copies refused")
    return status


if __name__ == "__main__":
    sys.exit(main())
