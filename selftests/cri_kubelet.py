# SPDX-License-Identifier: GPL-2.0
#
# What the kubelet computes for a pod before it calls the CRI, for
# selftests/cri_driver.py: quantities, the QoS class, the linux resources
# of a container and of a sandbox (pkg/kubelet/kuberuntime, helpers_linux:
# shares = milliCPU * 1024 / 1000, at least 2; quota = milliCPU * period /
# 1000, at least 1000, 0 without a limit; period 100000), the OOM score
# adjustment, and the static CPU manager's decisions (through `cpumgrctl
# plan`, the kubelet's allocator) kept in a cpu_manager_state checkpoint
# written byte for byte and checksummed as the kubelet writes it; and
# the resources it admitted each pod with (allocated_pods_state).

import json
import os
import subprocess

QUOTA_PERIOD = 100000
MIN_SHARES = 2
MAX_SHARES = 262144
MIN_QUOTA = 1000

_SUFFIX = {"Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40,
           "k": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9, "T": 10 ** 12}


def milli_cpu(q):
    """A CPU quantity ("2", "1.5", "500m") in milliCPU; None when absent."""
    if q is None:
        return None
    q = str(q)
    if q.endswith("m"):
        return int(q[:-1])
    return int(round(float(q) * 1000))


def mem_bytes(q):
    """A memory quantity ("200Mi", "1Gi", "1000") in bytes."""
    if q is None:
        return None
    q = str(q)
    for s, mult in _SUFFIX.items():
        if q.endswith(s):
            return int(float(q[:-len(s)]) * mult)
    return int(q)


def requests_limits(c):
    """A container's (requests, limits); requests default to limits."""
    res = c.get("resources") or {}
    lim = dict(res.get("limits") or {})
    req = dict(res.get("requests") or {})
    for k, v in lim.items():
        req.setdefault(k, v)
    return req, lim


def qos_class(pod):
    """Kubernetes' QoS class of a pod (GetPodQOS, cpu and memory): from
    its pod-level resources when it has them (KEP-2837)."""
    spec = pod["spec"]
    every = spec.get("initContainers", []) + spec["containers"]
    if spec.get("resources"):
        every = [{"resources": spec["resources"]}]
    guaranteed = True
    any_set = False
    for c in every:
        req, lim = requests_limits(c)
        for r in ("cpu", "memory"):
            if r in req or r in lim:
                any_set = True
            if r not in lim or r not in req or \
               (r == "cpu" and milli_cpu(req[r]) != milli_cpu(lim[r])) or \
               (r == "memory" and mem_bytes(req[r]) != mem_bytes(lim[r])):
                guaranteed = False
    if not any_set:
        return "BestEffort"
    return "Guaranteed" if guaranteed else "Burstable"


def cgroup_parent(pod, driver="cgroupfs", system_namespaces=()):
    """The pod cgroup as the kubelet names it to the runtime: a path
    (cgroupfs driver) or a slice (systemd driver, a "-" in a unit's name
    being a level: the UID's dashes become underscores).  A pod of one
    of system_namespaces (KEP-5894's node system partition, on) goes
    below the system cgroup, with QoS cgroups of its own there."""
    qos = qos_class(pod)
    uid = pod["metadata"]["uid"]
    system = pod["metadata"].get("namespace") in system_namespaces
    if driver == "systemd":
        mid = ("system-" if system else "") + \
            ("" if qos == "Guaranteed" else qos.lower() + "-")
        return "kubepods-%spod%s.slice" % (mid, uid.replace("-", "_"))
    mid = ("system/" if system else "") + \
        ("" if qos == "Guaranteed" else qos.lower() + "/")
    return "/kubepods/%spod%s" % (mid, uid)


def slice_path(name):
    """The cgroup of a slice, below the hierarchy's root:
    "a-b-c.slice" -> "/a.slice/a-b.slice/a-b-c.slice"."""
    parts = name[:-len(".slice")].split("-")
    return "".join("/%s.slice" % "-".join(parts[:i + 1])
                   for i in range(len(parts)))


def cpu_weight(shares):
    """cgroup v2's cpu.weight for CPU shares, as runc and the kubelet
    convert them (ConvertCPUSharesToCgroupV2Value)."""
    return 1 + ((shares - 2) * 9999) // 262142 if shares else 0


def linux_resources(cpu_req, cpu_lim, mem_lim):
    """calculateLinuxResources: the fields of LinuxContainerResources."""
    milli = cpu_req if cpu_req else (cpu_lim or 0)
    shares = milli * 1024 // 1000 if milli else MIN_SHARES
    shares = min(max(shares, MIN_SHARES), MAX_SHARES)
    quota = 0
    if cpu_lim:
        quota = max(cpu_lim * QUOTA_PERIOD // 1000, MIN_QUOTA)
    out = {"cpu_shares": shares, "cpu_period": QUOTA_PERIOD,
           "cpu_quota": quota}
    if mem_lim:
        out["memory_limit_in_bytes"] = mem_lim
    return out


def container_resources(c):
    req, lim = requests_limits(c)
    return linux_resources(milli_cpu(req.get("cpu")), milli_cpu(lim.get("cpu")),
                           mem_bytes(lim.get("memory")))


def sandbox_resources(pod):
    """calculateSandboxResources: the pod's requests and limits, its
    pod-level ones when it has them, else the larger of the app
    containers' sum and any init container's."""
    spec = pod["spec"]
    tot = {"req": {}, "lim": {}}
    if spec.get("resources"):
        req, lim = requests_limits(spec)
        return linux_resources(milli_cpu(req.get("cpu")),
                               milli_cpu(lim.get("cpu")),
                               mem_bytes(lim.get("memory")))

    def add(c, into, maxed):
        req, lim = requests_limits(c)
        for kind, vals in (("req", req), ("lim", lim)):
            for r, conv in (("cpu", milli_cpu), ("memory", mem_bytes)):
                if r in vals:
                    v = conv(vals[r])
                    cur = into[kind].get(r, 0)
                    into[kind][r] = max(cur, v) if maxed else cur + v

    for c in spec["containers"]:
        add(c, tot, False)
    for c in spec.get("initContainers", []):
        add(c, tot, True)
    return linux_resources(tot["req"].get("cpu"), tot["lim"].get("cpu"),
                           tot["lim"].get("memory"))


def oom_score_adj(pod, c):
    """GetContainerOOMScoreAdjust for the pod's QoS class."""
    qos = qos_class(pod)
    if qos == "Guaranteed":
        return -997
    if qos == "BestEffort":
        return 1000
    req, _ = requests_limits(c)
    with open("/proc/meminfo") as f:
        total = int(f.readline().split()[1]) * 1024
    adj = 1000 - 1000 * (mem_bytes(req.get("memory")) or 0) // total
    return min(max(adj, 2), 999)


# ---- the static CPU manager's checkpoint ----

def _fnv1a32(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def _string_checksum(text):
    """checksum.New() of a string: FNV-32a over "(string)" and it."""
    return _fnv1a32(("(string)" + text).encode())


def checkpoint_text(default, entries):
    """cpu_manager_state as the kubelet writes it: JSON without spaces,
    the checksum FNV-32a over the spew rendering of the struct."""
    pods = sorted(entries.items())
    spew = "map[" + " ".join(
        "%s:map[%s]" % (uid, " ".join("%s:%s" % kv for kv in sorted(cs.items())))
        for uid, cs in pods) + "]"
    h = ("(*state.CPUManagerCheckpoint){PolicyName:(string)static "
         "DefaultCPUSet:(string)%s Entries:(map[string]map[string]string)%s "
         "Checksum:(checksum.Checksum)0}" % (default, spew))
    body = {"policyName": "static", "defaultCpuSet": default}
    if entries:
        body["entries"] = {u: dict(sorted(cs.items())) for u, cs in pods}
    text = json.dumps(body, separators=(",", ":"))
    return text[:-1] + ',"checksum":%d}' % _fnv1a32(h.encode())


def checkpoint_v4_text(default, entries, pools):
    """The 1.37 kubelet's v4: the v2 members inline, then "data", the
    state as a JSON string (podEntries: the pods' pools, KEP-5526), and
    "dataChecksum", FNV-32a over "(string)" and that string."""
    data = {"policyName": "static", "defaultCpuSet": default}
    if entries:
        data["entries"] = {u: dict(sorted(cs.items()))
                           for u, cs in sorted(entries.items())}
    if pools:
        data["podEntries"] = {u: {"cpuSet": c} for u, c in sorted(pools.items())}
    text = json.dumps(data, separators=(",", ":"))
    return (checkpoint_text(default, entries)[:-1] + ',"data":' +
            json.dumps(text) + ',"dataChecksum":%d}' % _string_checksum(text))


# ---- the allocation manager's checkpoint ----

def _requirements(r):
    """v1.ResourceRequirements as the API server defaulted it (a request
    not given is its limit) and encoding/json writes it: limits, then
    requests, each left out when empty, names in order."""
    r = {"limits": dict(r.get("limits") or {}),
         "requests": dict(r.get("requests") or {})}
    for name, q in r["limits"].items():
        r["requests"].setdefault(name, q)
    return {k: dict(sorted(r[k].items())) for k in ("limits", "requests")
            if r[k]}


def allocated_pods_text(entries):
    """allocated_pods_state as the 1.36 and 1.37 kubelets write it:
    {"data", "checksum"}, data the JSON of their PodResourceCheckpointInfo
    (structs without json tags: "ContainerResources"), the checksum
    FNV-32a over "(string)" and data, as the kubelet's own test table
    has it ("checksum":1178570812 for its pod1)."""
    data = json.dumps({"entries": dict(sorted(entries.items()))}
                      if entries else {}, separators=(",", ":"))
    return '{"data":%s,"checksum":%d}' % (json.dumps(data),
                                           _string_checksum(data))


def allocated_entry(pod):
    """A pod's entry: its app containers and sidecars (standard init
    containers only under InPlacePodVerticalScalingInitContainers, off
    by default), its pod-level resources or null (1.36 on, with
    InPlacePodLevelResourcesVerticalScaling)."""
    spec = pod["spec"]
    cs = [c for c in spec.get("initContainers", [])
          if c.get("restartPolicy") == "Always"] + spec["containers"]
    return {"ContainerResources": {c["name"]: _requirements(c.get("resources", {}))
                                   for c in sorted(cs, key=lambda c: c["name"])},
            "PodLevelResources": _requirements(spec["resources"])
            if "resources" in spec else None,
            "EmptyDirVolumeLimits": None}


class AllocatedPods:
    """The kubelet's allocated_pods_state beside its cpu_manager_state:
    a pod's entry added at admission, before its sandbox, and dropped
    when it is gone."""

    def __init__(self, kubelet_state):
        self.path = os.path.join(os.path.dirname(kubelet_state),
                                 "allocated_pods_state")

    def _entries(self):
        try:
            with open(self.path) as f:
                return json.loads(json.load(f)["data"]).get("entries", {})
        except FileNotFoundError:
            return {}

    def _write(self, entries):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(allocated_pods_text(entries))
        os.rename(tmp, self.path)

    def add(self, pod):
        entries = self._entries()
        entries[pod["metadata"]["uid"]] = allocated_entry(pod)
        self._write(entries)

    def remove(self, uid):
        entries = self._entries()
        if entries.pop(uid, None) is not None:
            self._write(entries)


class StaticPolicy:
    """The kubelet's static CPU manager: decisions by `cpumgrctl plan`,
    state in its checkpoint file."""

    def __init__(self, ctl, path, reserved):
        self.ctl, self.path, self.reserved = ctl, path, reserved

    def _state(self):
        try:
            with open(self.path) as f:
                cp = json.load(f)
        except FileNotFoundError:
            return None
        if "data" in cp:
            cp = json.loads(cp["data"])
        return {"defaultCpuSet": cp["defaultCpuSet"],
                "entries": cp.get("entries", {}),
                "podEntries": cp.get("podEntries", {})}

    def _step(self, step):
        req = {"topology": {"sysfs": "/sys"}, "policy": "static",
               "reservedCpus": self.reserved, "steps": [step]}
        state = self._state()
        if state:
            req["state"] = state
        out = subprocess.run([self.ctl, "plan"], input=json.dumps(req),
                             capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError("cpumgrctl plan: " + out.stderr.strip())
        res = json.loads(out.stdout)["steps"][0]
        if "error" in res:
            return res["error"]
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            # v4 once a pod has a pool, as the 1.37 kubelet writes it
            if res.get("podCpus"):
                f.write(checkpoint_v4_text(res["defaultCpuSet"],
                                           res.get("assignments") or {},
                                           res["podCpus"]))
            else:
                f.write(checkpoint_text(res["defaultCpuSet"],
                                        res.get("assignments") or {}))
        os.rename(tmp, self.path)
        return None

    def admit(self, pod):
        """Allocate every container (the admission); the error text."""
        return self._step({"op": "add", "pod": pod})

    def remove(self, uid):
        return self._step({"op": "remove", "podUID": uid})

    def cpuset(self, uid, name):
        """What the kubelet puts in cpuset_cpus: the container's CPUs, or
        the shared pool."""
        state = self._state() or {}
        mine = state.get("entries", {}).get(uid, {}).get(name)
        return mine or state.get("defaultCpuSet", "")
