#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A kubelet for the CRI selftests: makes the kubelet's CRI calls for a Pod
# (a Kubernetes Pod object, JSON, as in examples/pods) against a runtime's
# socket, with the kubelet's configs (selftests/cri_kubelet.py computes
# them).  Stubs are generated at run time from the CRI's api.proto and
# gogo.proto of Debian's packages (scripts/fetch-trixie.sh) into WORK.
#
#   up POD.json [--uid UID]  mkdir the pod cgroup (cgroupfs driver:
#       kubepods/[burstable/|besteffort/]pod<UID>; systemd driver: the
#       transient slice kubepods-[burstable-|besteffort-]pod<UID>.slice
#       started through systemd's D-Bus API, as the kubelet's
#       libcontainer does, with its CPU weight, quota and memory limit),
#       RunPodSandbox (host
#       network, no hostname), then each init container (run to its
#       end) and container: CreateContainer, StartContainer.  In guard
#       mode the static CPU manager admits the pod first and every
#       container gets its cpuset_cpus; in decide mode none.  Each
#       container prints its Cpus_allowed_list first; `up` prints
#       "NAME ID FIRST-LINE" for each.  Refused: "refused: TEXT" on
#       stderr, nothing left, exit 3.
#   down UID   StopContainer, StopPodSandbox, RemoveContainer,
#       RemovePodSandbox, the CPU manager's removal, rmdir the pod cgroup
#       (systemd driver: the slice stopped).
#   cycles N POD.json...  N up/down cycles over the pods in turn with
#       fresh UIDs; each container's first line must be its exclusive
#       CPUs (sysfs) or within the shared pool and off every exclusive
#       CPU.  Prints one line per cycle that is not; exit 1 then.
#   up ... --exits NAME  container NAME prints its first line and exits
#       (status 1): under restartPolicy Always the kubelet restarts it.
#   restart POD.json NAME  the kubelet's restart of container NAME in its
#       pod: once its instance has exited, CreateContainer with the next
#       attempt (a new container ID), StartContainer; the new instance
#       runs on; prints "NAME ID FIRST-LINE".
#   earlier UID NAME stop|remove  StopContainer (a stop arriving late)
#       or RemoveContainer (the kubelet's container garbage collection)
#       of the earlier, exited instances of container NAME; removed ones
#       leave the record.  Refused: "refused: TEXT" on stderr, exit 3.
#   resize POD.json NAME CPU  UpdateContainerResources for container
#       NAME of the pod (its record gives the container's ID) with its
#       CPU request and limit set to CPU, as the kubelet resizes a pod in
#       place.  Refused: "refused: TEXT" on stderr, exit 3.
#   wait       until the runtime answers (60 s).
#   serve      the commands above from stdin, one a line (see serve()).
# A command may carry --mode to switch modes.
#
# With --cgroup-driver systemd, the kubelet's QoS slices (kubepods.slice,
# kubepods-burstable.slice, kubepods-besteffort.slice) are started when the
# driver starts, as the kubelet starts them.
#
# Usage: cri_driver.py --socket SOCK --work DIR [--mode decide|guard]
#        [--cgroup-driver cgroupfs|systemd]
#        [--kubelet-state FILE (default WORK/cpu_manager_state)]
#        [--ctl CPUMGRCTL] [--reserved-cpus LIST] [--proto-root DIR]
#        COMMAND ...

import argparse
import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import traceback
import zlib

import cri_kubelet as kl

CGROOT = "/sys/fs/cgroup"
SYSFS = "/sys/kernel/cpumgr"
IMAGE = "cpumgr.test/busybox:1"
FIRST_LINE = "busybox awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status"
KEEP_RUNNING = "; trap 'exit 0' TERM; busybox sleep 100000 & wait"
STOP_TIMEOUT = 10


class Refused(Exception):
    pass


class BadInput(Exception):
    """A command or pod file that does not read: one line, exit 2."""


def stubs(work, proto_root):
    """Generate and import the CRI's Python stubs."""
    out = os.path.join(work, "stubs")
    if not os.path.exists(os.path.join(out, "api_pb2_grpc.py")):
        src = os.path.join(proto_root, "usr/share/gocode/src")
        os.makedirs(out, exist_ok=True)
        from grpc_tools import protoc
        ret = protoc.main([
            "protoc", "-I" + src + "/k8s.io/cri-api/pkg/apis/runtime/v1",
            "-I" + src, "-I" + src + "/github.com/gogo/protobuf/protobuf",
            "--python_out=" + out, "--grpc_python_out=" + out, "api.proto",
            "github.com/gogo/protobuf/gogoproto/gogo.proto"])
        if ret:
            sys.exit("cri_driver: protoc failed on the CRI definitions in " + src)
    sys.path.insert(0, out)
    import api_pb2
    import api_pb2_grpc
    return api_pb2, api_pb2_grpc


def cpus(text):
    s = set()
    for part in (text or "").strip().split(","):
        if part:
            lo, _, hi = part.partition("-")
            s.update(range(int(lo), int(hi or lo) + 1))
    return s


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


class Kubelet:
    def __init__(self, a):
        import grpc
        self.a = a
        self.grpc = grpc
        self.pb, pbg = stubs(a.work, a.proto_root)
        chan = grpc.insecure_channel("unix://" + a.socket)
        self.rt = pbg.RuntimeServiceStub(chan)
        self.allocated = kl.AllocatedPods(a.kubelet_state)
        self.pods_dir = os.path.join(a.work, "pods")
        os.makedirs(self.pods_dir, exist_ok=True)
        self.set_mode(a.mode)
        self.systemd = a.cgroup_driver == "systemd"
        if self.systemd:
            for name in ("kubepods.slice", "kubepods-burstable.slice",
                         "kubepods-besteffort.slice"):
                self.start_slice(name, {})

    def set_mode(self, mode):
        """decide: the kubelet runs cpuManagerPolicy none; guard: static."""
        self.policy = None
        if mode == "guard":
            self.policy = kl.StaticPolicy(self.a.ctl, self.a.kubelet_state,
                                          self.a.reserved_cpus)

    # ---- the pod cgroup, as the kubelet's cgroup driver makes it ----

    def cgroup_parent(self, pod):
        system = [n for n in self.a.system_namespaces.split(",") if n]
        return kl.cgroup_parent(pod, self.a.cgroup_driver, system)

    def start_slice(self, name, res):
        """StartTransientUnit of a slice with the properties libcontainer's
        systemd driver gives it (the parent slice wanted, accounting on,
        the resources), unless it runs; then its cgroup is there."""
        path = CGROOT + kl.slice_path(name)
        if subprocess.run(["systemctl", "is-active", "--quiet", name]).returncode == 0:
            return
        props = [("Description", "s", "libcontainer container " + name),
                 ("DefaultDependencies", "b", "false"),
                 ("CPUAccounting", "b", "true"), ("MemoryAccounting", "b", "true"),
                 ("IOAccounting", "b", "true"), ("TasksAccounting", "b", "true")]
        parent = name.rsplit("-", 1)[0] + ".slice" if "-" in name else "-.slice"
        props.append(("Wants", "as", ["1", parent]))
        if res.get("cpu_shares"):
            props.append(("CPUWeight", "t", str(kl.cpu_weight(res["cpu_shares"]))))
        if res.get("cpu_quota"):
            props.append(("CPUQuotaPerSecUSec", "t",
                          str(res["cpu_quota"] * 1000000 // res["cpu_period"])))
        if res.get("memory_limit_in_bytes"):
            props.append(("MemoryMax", "t", str(res["memory_limit_in_bytes"])))
        argv = ["busctl", "call", "--", "org.freedesktop.systemd1",
                "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
                "StartTransientUnit", "ssa(sv)a(sa(sv))", name, "replace",
                str(len(props))]
        for key, sig, val in props:
            argv += [key, sig] + (val if isinstance(val, list) else [val])
        out = subprocess.run(argv + ["0"], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError("StartTransientUnit %s: %s" % (name, out.stderr.strip()))
        for _ in range(100):
            if os.path.isdir(path):
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("%s: started, but no cgroup %s" % (name, path))
        # libcontainer then makes the path as its cgroupfs code does
        # (fs2.CreateCgroupPath): every controller its parent has enabled
        # for it there
        self.enable_controllers(os.path.dirname(path))

    def enable_controllers(self, d):
        have = read(os.path.join(d, "cgroup.controllers")).split()
        with open(os.path.join(d, "cgroup.subtree_control"), "w") as f:
            f.write(" ".join("+" + c for c in ("cpuset", "cpu", "memory")
                             if c in have))

    def mkdir_pod_cgroup(self, parent, res=None):
        if self.systemd:
            self.start_slice(parent, res or {})
            return
        d = CGROOT
        for part in parent.strip("/").split("/"):
            sub = os.path.join(d, part)
            if not os.path.isdir(sub):
                # the parent hands down the controllers it has
                self.enable_controllers(d)
                os.mkdir(sub)
            d = sub

    def rmdir_pod_cgroup(self, parent):
        if self.systemd:
            # the kubelet's Destroy: StopUnit, and the cgroup goes
            subprocess.run(["systemctl", "stop", parent], capture_output=True)
            parent = kl.slice_path(parent)
        path = CGROOT + parent
        for _ in range(100):
            try:
                os.rmdir(path)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)
        print("cri_driver: %s stays" % path, file=sys.stderr)

    # ---- configs ----

    def sandbox_config(self, pod, log_dir):
        pb, md = self.pb, pod["metadata"]
        ns = pb.NamespaceOption(network=pb.NODE, pid=pb.CONTAINER, ipc=pb.POD)
        return pb.PodSandboxConfig(
            metadata=pb.PodSandboxMetadata(name=md["name"], uid=md["uid"],
                                           namespace=md["namespace"],
                                           attempt=0),
            hostname="", log_directory=log_dir,
            labels=dict(md.get("labels") or {}, **{
                "io.kubernetes.pod.name": md["name"],
                "io.kubernetes.pod.namespace": md["namespace"],
                "io.kubernetes.pod.uid": md["uid"]}),
            annotations=dict(md.get("annotations") or {}, **{
                "kubernetes.io/config.source": "api",
                "kubernetes.io/config.seen": time.strftime(
                    "%Y-%m-%dT%H:%M:%SZ", time.gmtime())}),
            linux=pb.LinuxPodSandboxConfig(
                cgroup_parent=self.cgroup_parent(pod),
                security_context=pb.LinuxSandboxSecurityContext(
                    namespace_options=ns),
                resources=pb.LinuxContainerResources(
                    **kl.sandbox_resources(pod))))

    def container_config(self, pod, c, init, attempt=0, exits=False):
        pb, md = self.pb, pod["metadata"]
        res = kl.container_resources(c)
        res["oom_score_adj"] = kl.oom_score_adj(pod, c)
        if self.policy:
            res["cpuset_cpus"] = self.policy.cpuset(md["uid"], c["name"])
        cmd = FIRST_LINE + ("" if init else "; exit 1" if exits else KEEP_RUNNING)
        ns = pb.NamespaceOption(network=pb.NODE, pid=pb.CONTAINER, ipc=pb.POD)
        return pb.ContainerConfig(
            metadata=pb.ContainerMetadata(name=c["name"], attempt=attempt),
            image=pb.ImageSpec(image=IMAGE),
            command=["/bin/busybox", "sh", "-c", cmd],
            envs=[pb.KeyValue(key="PATH", value="/bin")],
            labels={"io.kubernetes.container.name": c["name"],
                    "io.kubernetes.pod.name": md["name"],
                    "io.kubernetes.pod.namespace": md["namespace"],
                    "io.kubernetes.pod.uid": md["uid"]},
            annotations={
                "io.kubernetes.container.hash": "%08x" % zlib.crc32(c["name"].encode()),
                "io.kubernetes.container.restartCount": str(attempt),
                "io.kubernetes.container.terminationMessagePath": "/dev/termination-log",
                "io.kubernetes.container.terminationMessagePolicy": "File",
                "io.kubernetes.pod.terminationGracePeriod": str(STOP_TIMEOUT)},
            log_path="%s/%d.log" % (c["name"], attempt),
            linux=pb.LinuxContainerConfig(
                resources=pb.LinuxContainerResources(**res),
                security_context=pb.LinuxContainerSecurityContext(
                    namespace_options=ns)))

    # ---- the calls ----

    def first_line(self, log, timeout=120):
        """The first line the container printed (CRI log format:
        TIME STREAM TAG TEXT)."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                with open(log) as f:
                    line = f.readline()
                if line.endswith("\n"):
                    return line.rstrip("\n").split(" ", 3)[3]
            except (OSError, IndexError):
                pass
            time.sleep(0.1)
        return ""

    def wait_exited(self, cid, timeout=60):
        """Until container CID exited; what follows (the next init
        container, the next attempt) must not run beside it."""
        end = time.time() + timeout
        while time.time() < end:
            st = self.rt.ContainerStatus(
                self.pb.ContainerStatusRequest(container_id=cid)).status
            if st.state == self.pb.CONTAINER_EXITED:
                return
            time.sleep(0.2)
        raise Refused("container %s did not exit in %d s" % (cid[:12], timeout))

    def up(self, pod, exits=()):
        md = pod["metadata"]
        uid = md["uid"]
        rec = {"uid": uid, "cgroup": self.cgroup_parent(pod),
               "containers": {}}
        if self.policy:
            err = self.policy.admit(pod)
            if err:
                raise Refused("Allocate failed due to %s, which is unexpected" % err)
        self.allocated.add(pod)
        log_dir = os.path.join(self.a.work, "logs",
                               "%s_%s_%s" % (md["namespace"], md["name"], uid))
        os.makedirs(log_dir, exist_ok=True)
        rec["logs"] = log_dir
        self.mkdir_pod_cgroup(rec["cgroup"], kl.sandbox_resources(pod))
        self.save(rec)
        sb_config = self.sandbox_config(pod, log_dir)
        try:
            rec["sandbox"] = self.rt.RunPodSandbox(
                self.pb.RunPodSandboxRequest(config=sb_config)).pod_sandbox_id
            self.save(rec)
            out = []
            for init, c in [(True, c) for c in pod["spec"].get("initContainers", [])] + \
                           [(False, c) for c in pod["spec"]["containers"]]:
                cid = self.rt.CreateContainer(self.pb.CreateContainerRequest(
                    pod_sandbox_id=rec["sandbox"],
                    config=self.container_config(pod, c, init,
                                                 exits=c["name"] in exits),
                    sandbox_config=sb_config)).container_id
                rec["containers"][c["name"]] = cid
                self.save(rec)
                self.rt.StartContainer(
                    self.pb.StartContainerRequest(container_id=cid))
                line = self.first_line(os.path.join(log_dir, c["name"], "0.log"))
                if init:
                    self.wait_exited(cid)
                out.append("%s %s %s" % (c["name"], cid, line))
        except (self.grpc.RpcError, Refused) as e:
            # nothing of a pod that did not come up stays behind
            self.down(uid)
            raise Refused(e.details() if isinstance(e, self.grpc.RpcError)
                          else str(e))
        return out

    def down(self, uid):
        rec = self.load(uid)
        if rec is None:
            return
        pb = self.pb
        for cid in rec["containers"].values():
            self.quietly(self.rt.StopContainer, pb.StopContainerRequest(
                container_id=cid, timeout=STOP_TIMEOUT))
        if self.policy:
            self.policy.remove(uid)
        self.allocated.remove(uid)
        if rec.get("sandbox"):
            self.quietly(self.rt.StopPodSandbox, pb.StopPodSandboxRequest(
                pod_sandbox_id=rec["sandbox"]))
        for cid in list(rec["containers"].values()) + \
                [e for ids in rec.get("earlier", {}).values() for e in ids]:
            self.quietly(self.rt.RemoveContainer, pb.RemoveContainerRequest(
                container_id=cid))
        if rec.get("sandbox"):
            self.quietly(self.rt.RemovePodSandbox, pb.RemovePodSandboxRequest(
                pod_sandbox_id=rec["sandbox"]))
        self.rmdir_pod_cgroup(rec["cgroup"])
        # the kubelet's garbage collection of the pod's logs
        shutil.rmtree(rec["logs"], ignore_errors=True)
        os.unlink(os.path.join(self.pods_dir, uid + ".json"))

    def container_of(self, what, pod, name):
        """The driver's record of the pod and container NAME of the pod
        file, for command WHAT on a container that is up."""
        rec = self.load(pod["metadata"]["uid"])
        if rec is None or name not in rec["containers"]:
            raise BadInput("%s: no container %s in pod %s" %
                           (what, name, pod["metadata"]["uid"]))
        c = [c for c in pod["spec"]["containers"] if c["name"] == name]
        if not c:
            raise BadInput("%s: the pod file has no container %s" % (what, name))
        return rec, c[0]

    def restart(self, pod, name):
        """The kubelet's restart of an exited container in its pod
        (restartPolicy Always): the next attempt, a new container; the
        earlier instance stays until the container GC removes it."""
        rec, c = self.container_of("restart", pod, name)
        old = rec["containers"][name]
        self.wait_exited(old)
        attempt = rec.setdefault("attempts", {}).get(name, 0) + 1
        try:
            cid = self.rt.CreateContainer(self.pb.CreateContainerRequest(
                pod_sandbox_id=rec["sandbox"],
                config=self.container_config(pod, c, False, attempt),
                sandbox_config=self.sandbox_config(pod, rec["logs"]))).container_id
        except self.grpc.RpcError as e:
            raise Refused(e.details())
        rec.setdefault("earlier", {}).setdefault(name, []).append(old)
        rec["containers"][name] = cid
        rec["attempts"][name] = attempt
        self.save(rec)
        try:
            self.rt.StartContainer(self.pb.StartContainerRequest(container_id=cid))
        except self.grpc.RpcError as e:
            raise Refused(e.details())
        line = self.first_line(os.path.join(rec["logs"], name,
                                            "%d.log" % attempt))
        return "%s %s %s" % (name, cid, line)

    def earlier(self, uid, name, what):
        """StopContainer or RemoveContainer of the earlier instances."""
        rec = self.load(uid)
        ids = (rec or {}).get("earlier", {}).get(name)
        if not ids:
            raise BadInput("earlier: no earlier instance of %s in pod %s" %
                           (name, uid))
        for cid in list(ids):
            try:
                if what == "stop":
                    self.rt.StopContainer(self.pb.StopContainerRequest(
                        container_id=cid, timeout=STOP_TIMEOUT))
                    continue
                self.rt.RemoveContainer(self.pb.RemoveContainerRequest(
                    container_id=cid))
            except self.grpc.RpcError as e:
                raise Refused(e.details())
            ids.remove(cid)
            self.save(rec)

    def resize(self, pod, name, cpu):
        rec, c = self.container_of("resize", pod, name)
        c = json.loads(json.dumps(c))
        for k in ("requests", "limits"):
            c.setdefault("resources", {}).setdefault(k, {})["cpu"] = cpu
        res = kl.container_resources(c)
        try:
            self.rt.UpdateContainerResources(
                self.pb.UpdateContainerResourcesRequest(
                    container_id=rec["containers"][name],
                    linux=self.pb.LinuxContainerResources(**res)))
        except self.grpc.RpcError as e:
            raise Refused(e.details())

    def quietly(self, call, req):
        try:
            call(req)
        except self.grpc.RpcError as e:
            print("cri_driver: %s: %s" % (type(req).__name__, e.details()),
                  file=sys.stderr)

    def wait(self, timeout=60):
        end = time.time() + timeout
        while True:
            try:
                return self.rt.Version(self.pb.VersionRequest(), timeout=5)
            except self.grpc.RpcError:
                if time.time() > end:
                    raise
                time.sleep(0.5)

    # ---- the driver's own record of what it made ----

    def save(self, rec):
        path = os.path.join(self.pods_dir, rec["uid"] + ".json")
        with open(path + ".tmp", "w") as f:
            json.dump(rec, f)
        os.rename(path + ".tmp", path)

    def load(self, uid):
        try:
            with open(os.path.join(self.pods_dir, uid + ".json")) as f:
                return json.load(f)
        except FileNotFoundError:
            return None


def load_pod(path, uid=None):
    try:
        with open(path) as f:
            pod = json.load(f)
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))
    except ValueError as e:
        raise BadInput("%s: not JSON: %s" % (path, e))
    if not isinstance(pod, dict) or "name" not in pod.get("metadata", {}):
        raise BadInput("%s: not a Pod (no metadata.name)" % path)
    if uid:
        pod["metadata"]["uid"] = uid
        pod["metadata"]["name"] = "%s-%s" % (pod["metadata"]["name"], uid[-6:])
    return pod


def exclusive_expected(pod, name):
    """The static policy's rule: an app container of a Guaranteed pod
    asking for whole CPUs gets exclusive ones."""
    if kl.qos_class(pod) != "Guaranteed":
        return False
    for c in pod["spec"]["containers"]:
        if c["name"] == name:
            m = kl.milli_cpu(kl.requests_limits(c)[0].get("cpu"))
            return bool(m) and m % 1000 == 0
    return False


def placed_right(uid, name, line, exclusive):
    """The first line is the container's exclusive CPUs (which it must
    have when exclusive), or within the shared pool and off every
    exclusive CPU; a reason when not."""
    mine = read("%s/pods/%s/%s/cpus" % (SYSFS, uid, name))
    if mine:
        return None if cpus(line) == cpus(mine) else "exclusive %s" % mine
    if exclusive:
        return "no exclusive CPUs for a Guaranteed container of whole CPUs"
    shared, excl = read(SYSFS + "/shared_cpus"), read(SYSFS + "/exclusive_cpus")
    if line and cpus(line) <= cpus(shared) and not cpus(line) & cpus(excl):
        return None
    return "shared pool %s, exclusive %s" % (shared, excl)


def cycles(k, n, pods):
    bad = 0
    t0 = time.time()
    for i in range(n):
        path = pods[i % len(pods)]
        uid = "cycle-%04d-%s" % (i, os.path.basename(path).split(".")[0])
        pod = load_pod(path, uid)
        try:
            lines = k.up(pod)
        except Refused as e:
            print("cycle %d: %s refused: %s" % (i, uid, e))
            bad += 1
            continue
        for entry in lines:
            name, _, line = (entry.split(" ", 2) + [""])[:3]
            why = placed_right(uid, name, line, exclusive_expected(pod, name))
            init = name in [c["name"] for c in pod["spec"].get("initContainers", [])]
            if why and not init:
                print("cycle %d: %s/%s on '%s', %s" % (i, uid, name, line, why))
                bad += 1
        k.down(uid)
    print("%d cycles in %.0f s, %d containers misplaced or refused" %
          (n, time.time() - t0, bad))
    return 1 if bad else 0


def command(k, argv):
    """One command: its exit status."""
    p = argparse.ArgumentParser(prog="cri_driver.py COMMAND")
    p.add_argument("command", choices=("up", "down", "cycles", "wait",
                                       "resize", "restart", "earlier"))
    p.add_argument("args", nargs="*")
    p.add_argument("--uid")
    p.add_argument("--exits", action="append", default=[])
    p.add_argument("--mode", choices=("decide", "guard"))
    a = p.parse_args(argv)
    if a.mode:
        k.set_mode(a.mode)
    try:
        return run_command(k, a)
    except BadInput as e:
        print("cri_driver: %s" % e, file=sys.stderr)
        return 2


def run_command(k, a):
    if a.command in ("up", "cycles") and len(a.args) < 1 + (a.command == "cycles"):
        raise BadInput("%s: too few arguments" % a.command)
    if a.command == "cycles":
        if not a.args[0].isdigit():
            raise BadInput("cycles: not a count: %s" % a.args[0])
        for path in a.args[1:]:
            load_pod(path)
    if a.command == "resize" and len(a.args) != 3:
        raise BadInput("resize: POD.json NAME CPU")
    if a.command == "restart" and len(a.args) != 2:
        raise BadInput("restart: POD.json NAME")
    if a.command == "earlier" and (len(a.args) != 3 or
                                   a.args[2] not in ("stop", "remove")):
        raise BadInput("earlier: UID NAME stop|remove")
    if a.command == "wait":
        print(k.wait().runtime_version)
    elif a.command == "resize":
        try:
            k.resize(load_pod(a.args[0]), a.args[1], a.args[2])
        except Refused as e:
            print("refused: %s" % e, file=sys.stderr)
            return 3
    elif a.command in ("up", "restart", "earlier"):
        try:
            if a.command == "up":
                for line in k.up(load_pod(a.args[0], a.uid), a.exits):
                    print(line)
            elif a.command == "restart":
                print(k.restart(load_pod(a.args[0]), a.args[1]))
            else:
                k.earlier(a.args[0], a.args[1], a.args[2])
        except Refused as e:
            print("refused: %s" % e, file=sys.stderr)
            return 3
    elif a.command == "down":
        for uid in a.args:
            k.down(uid)
    elif a.command == "cycles":
        return cycles(k, int(a.args[0]), a.args[1:])
    return 0


def serve(k):
    """Commands from stdin, one a line (shell words); each command's
    output, its stderr lines as "@@err LINE", then "@@end STATUS".
    Python and grpc take seconds to start under TCG: one process serves
    a whole selftest."""
    for req in sys.stdin:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = command(k, shlex.split(req))
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else 2
            except Exception:
                traceback.print_exc()
                status = 1
        sys.stdout.write(out.getvalue())
        for line in err.getvalue().splitlines():
            print("@@err " + line)
        print("@@end %d" % status, flush=True)
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--socket", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--mode", choices=("decide", "guard"), default="decide")
    p.add_argument("--cgroup-driver", choices=("cgroupfs", "systemd"),
                   default="cgroupfs")
    p.add_argument("--kubelet-state")
    p.add_argument("--ctl", default="cpumgrctl")
    p.add_argument("--reserved-cpus", default="0")
    # KEP-5894: the namespaces whose pods go below kubepods/system
    p.add_argument("--system-namespaces", default="")
    p.add_argument("--proto-root", default=os.path.expanduser(
        "~/.cache/cpumgr/debs/trixie/root"))
    a, rest = p.parse_known_args()
    if not a.kubelet_state:
        a.kubelet_state = os.path.join(a.work, "cpu_manager_state")
    k = Kubelet(a)
    if rest == ["serve"]:
        return serve(k)
    return command(k, rest)


if __name__ == "__main__":
    sys.exit(main())
