#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# An OCI image archive for `ctr images import`, made at test time so that
# the CRI selftests need no registry: one gzip layer holding busybox-static
# and its applets as links, a config whose command sleeps forever (the
# image serves as the pod sandbox image too), and an index naming the
# manifest with io.containerd.image.name for each NAME given.
#
# Usage: cri_image.py OUT.tar NAME...

import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile

BUSYBOX = "/bin/busybox"
DIRS = ["bin", "dev", "etc", "proc", "sys", "tmp"]


def layer():
    """The root filesystem as an uncompressed tar."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for d in DIRS:
            info = tarfile.TarInfo(d)
            info.type = tarfile.DIRTYPE
            info.mode = 0o1777 if d == "tmp" else 0o755
            t.addfile(info)
        t.add(BUSYBOX, "bin/busybox")
        applets = subprocess.run([BUSYBOX, "--list"], capture_output=True,
                                 text=True, check=True).stdout.split()
        for a in applets:
            if a == "busybox":
                continue
            info = tarfile.TarInfo("bin/" + a)
            info.type = tarfile.SYMTYPE
            info.linkname = "busybox"
            t.addfile(info)
    return buf.getvalue()


def blob(tar, data, media_type):
    """Add a blob; its descriptor."""
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    info = tarfile.TarInfo("blobs/sha256/" + digest[7:])
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))
    return {"mediaType": media_type, "digest": digest, "size": len(data)}


def add_json(tar, name, obj):
    data = json.dumps(obj).encode()
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cri_image.py OUT.tar NAME...")
    raw = layer()
    gz = gzip.compress(raw, mtime=0)
    config = {
        "architecture": "amd64", "os": "linux",
        "config": {"Env": ["PATH=/bin"],
                   "Cmd": ["/bin/busybox", "sleep", "2147483647"]},
        "rootfs": {"type": "layers",
                   "diff_ids": ["sha256:" + hashlib.sha256(raw).hexdigest()]},
    }
    with tarfile.open(sys.argv[1], "w") as tar:
        for d in ("blobs", "blobs/sha256"):
            info = tarfile.TarInfo(d)
            info.type = tarfile.DIRTYPE
            info.mode = 0o755
            tar.addfile(info)
        manifest = {
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": blob(tar, json.dumps(config).encode(),
                           "application/vnd.oci.image.config.v1+json"),
            "layers": [blob(tar, gz,
                            "application/vnd.oci.image.layer.v1.tar+gzip")],
        }
        desc = blob(tar, json.dumps(manifest).encode(),
                    "application/vnd.oci.image.manifest.v1+json")
        manifests = []
        for name in sys.argv[2:]:
            manifests.append(dict(desc, annotations={
                "io.containerd.image.name": name,
                "org.opencontainers.image.ref.name": name.rpartition(":")[2]}))
        add_json(tar, "oci-layout", {"imageLayoutVersion": "1.0.0"})
        add_json(tar, "index.json",
                 {"schemaVersion": 2, "manifests": manifests})


if __name__ == "__main__":
    main()
