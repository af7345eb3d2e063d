#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Do the kernel's table, the checkpoint, the pod files and the cgroups of
# a cpumgrctl node agree, and is no CPU booked twice?  Used by the
# cpumgrctl_crash selftest after kills and restarts.
#
# Usage: node_agree.py DUMP.json STATE.json STATE_DIR [MODEL]
#   DUMP.json   `cpumgrctl dump --json`
#   STATE.json  `cpumgrctl table --json`
#   MODEL       what the caller admitted and attached, one line each:
#                 UID CONTAINER excl NCPUS CGROUP|-
#                 UID CONTAINER shared 0 CGROUP|-
#                 UID - pod 0 POD_CGROUP|-
#               With it, the pod files, the kernel's assignments and
#               bindings and every attached cgroup's cpuset.cpus.effective
#               must be exactly what it says.
# Prints one line per disagreement and exits 1 when there is any.

import json
import os
import sys

bad = []


def cpus(text):
    """A cpulist ("0-3,8") as a set of CPU numbers."""
    s = set()
    for part in (text or "").strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        s.update(range(int(lo), int(hi or lo) + 1))
    return s


def fmt(s):
    return ",".join(str(c) for c in sorted(s)) or "(none)"


def load(path):
    with open(path) as f:
        return json.load(f)


def check_table(dump, state):
    """The kernel's own sets: nothing booked twice, pools that add up."""
    online = cpus(state["onlineCpus"])
    reserved = cpus(state["reservedCpus"])
    shared = cpus(state["sharedCpus"])
    exclusive = cpus(state["exclusiveCpus"])
    owner = {}
    union = set()
    for a in dump:
        s = cpus(a["cpus"])
        union |= s
        if not s:
            bad.append("%s/%s has no CPUs" % (a["podUID"], a["container"]))
        if s & reserved:
            bad.append("%s/%s holds reserved CPUs %s" %
                       (a["podUID"], a["container"], fmt(s & reserved)))
        for c in s:
            other = owner.setdefault(c, a["podUID"])
            if other != a["podUID"]:
                bad.append("CPU %d is booked by pods %s and %s" %
                           (c, other, a["podUID"]))
    if union != exclusive:
        bad.append("assignments hold %s, exclusiveCpus says %s" %
                   (fmt(union), fmt(exclusive)))
    if exclusive & shared:
        bad.append("exclusive and shared overlap: %s" % fmt(exclusive & shared))
    if exclusive | shared != online:
        bad.append("exclusive %s + shared %s is not the online CPUs %s" %
                   (fmt(exclusive), fmt(shared), fmt(online)))
    return shared


def check_checkpoint(dump, shared, state_dir):
    """cpu_manager_state holds the kernel's entries and default set."""
    cp = load(os.path.join(state_dir, "cpu_manager_state"))
    entries = {}
    for a in dump:
        entries.setdefault(a["podUID"], {})[a["container"]] = cpus(a["cpus"])
    have = {p: {c: cpus(v) for c, v in cs.items()}
            for p, cs in (cp.get("entries") or {}).items()}
    if have != entries:
        bad.append("checkpoint entries %s, kernel %s" % (have, entries))
    if cpus(cp.get("defaultCpuSet")) != shared:
        bad.append("checkpoint defaultCpuSet %s, kernel shared %s" %
                   (cp.get("defaultCpuSet"), fmt(shared)))


def pod_files(state_dir):
    d = os.path.join(state_dir, "pods")
    files = {}
    for name in os.listdir(d) if os.path.isdir(d) else []:
        if name.endswith(".json") and not name.startswith("."):
            files[name[:-5]] = load(os.path.join(d, name))
    return files


def effective(cgroup):
    with open(os.path.join(cgroup, "cpuset.cpus.effective")) as f:
        return cpus(f.read())


def check_model(dump, shared, files, model):
    kernel = {(a["podUID"], a["container"]): a for a in dump}
    want = set()
    for line in model:
        uid, name, kind, n, cg = line.split()
        rec = files.get(uid)
        if rec is None:
            bad.append("pod %s: no pod file" % uid)
            continue
        if kind == "pod":
            if cg != "-" and rec.get("podCgroup") != cg:
                bad.append("pod %s: pod file has pod cgroup %r, not %s" %
                           (uid, rec.get("podCgroup"), cg))
            continue
        c = rec.get("containers", {}).get(name, {})
        if c.get("removed"):
            bad.append("%s/%s: marked removed" % (uid, name))
        if cg != "-" and c.get("cgroup") != cg:
            bad.append("%s/%s: pod file has cgroup %r, not %s" %
                       (uid, name, c.get("cgroup"), cg))
        a = kernel.get((uid, name))
        if kind == "shared":
            if a:
                bad.append("%s/%s: shared, but the kernel assigns %s" %
                           (uid, name, a["cpus"]))
            if cg != "-" and effective(cg) != shared:
                bad.append("%s/%s: %s runs on %s, the shared pool is %s" %
                           (uid, name, cg, fmt(effective(cg)), fmt(shared)))
            continue
        want.add((uid, name))
        if not a:
            bad.append("%s/%s: exclusive, but not in the kernel" % (uid, name))
            continue
        mine = cpus(a["cpus"])
        if len(mine) != int(n):
            bad.append("%s/%s: %d CPUs (%s), wants %s" %
                       (uid, name, len(mine), fmt(mine), n))
        if cg == "-":
            continue
        if a.get("cgroupPath") != cg:
            bad.append("%s/%s: the kernel binds %r, not %s" %
                       (uid, name, a.get("cgroupPath"), cg))
        pod_cg = rec.get("podCgroup") or None
        if a.get("podCgroupPath") != pod_cg:
            bad.append("%s/%s: the kernel binds pod cgroup %r, not %r" %
                       (uid, name, a.get("podCgroupPath"), pod_cg))
        if effective(cg) != mine:
            bad.append("%s/%s: %s runs on %s, owns %s" %
                       (uid, name, cg, fmt(effective(cg)), fmt(mine)))
    for key in sorted(set(kernel) - want):
        bad.append("%s/%s: in the kernel, not admitted" % key)
    admitted = {line.split()[0] for line in model}
    for uid in sorted(set(files) - admitted):
        bad.append("pod file %s.json: not admitted" % uid)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: node_agree.py DUMP STATE STATE_DIR [MODEL]")
    dump = load(sys.argv[1])
    state = load(sys.argv[2])
    state_dir = sys.argv[3]
    shared = check_table(dump, state)
    check_checkpoint(dump, shared, state_dir)
    files = pod_files(state_dir)
    if len(sys.argv) == 5:
        with open(sys.argv[4]) as f:
            model = [line for line in f if line.strip()]
        check_model(dump, shared, files, model)
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
