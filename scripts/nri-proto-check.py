#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# cpumgr describes the NRI and ttrpc messages it uses in the tree
# (user/lib/nri/nri.proto, ttrpc.proto), written from the protocol; the
# runtimes speak the .proto files of their NRI.  This compares the two:
# for every message, field and enum value cpumgr describes, the same
# number and the same type (scalar, message or enum by name, repeated or
# not, map) wherever the other file has it too.  A message or field the
# other file lacks is newer than it (NRI 0.12 against Debian's 0.8): it
# is listed, not a failure, as the runtime that speaks that file never
# sends it and skips it when cpumgr does.  A file that is not there is
# a failure: scripts/setup.sh (fetch-trixie.sh) puts them in the cache.
#
# Both sides go through protoc-c --descriptor_set_out (the compiler the
# build uses) and are compared as descriptors, names relative to each
# file's package.
#
# Usage: nri-proto-check.py OURS LABEL=THEIRS [LABEL=THEIRS...]
#   e.g. nri-proto-check.py user/lib/nri/nri.proto 0.8.0=.../api.proto
# Exit 0 when everything described agrees, 1 otherwise (each mismatch
# and each missing file one line).

import os
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2

F = descriptor_pb2.FieldDescriptorProto
TYPE_NAMES = {v: k[len("TYPE_"):].lower()
              for k, v in F.Type.items()}


def load(path):
    """The file's descriptor (its imports resolved beside it)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "set.pb")
        top = os.path.dirname(os.path.abspath(path))
        subprocess.run(["protoc-c", "-I" + top, "--include_imports",
                        "--descriptor_set_out=" + out, os.path.abspath(path)],
                       check=True)
        fds = descriptor_pb2.FileDescriptorSet()
        with open(out, "rb") as f:
            fds.ParseFromString(f.read())
    return fds


def index(fds):
    """Messages and enums by name relative to their file's package."""
    msgs, enums = {}, {}

    def walk(prefix, pkg, m):
        name = prefix + m.name
        msgs[name] = (pkg, m)
        for e in m.enum_type:
            enums[name + "." + e.name] = e
        for n in m.nested_type:
            walk(name + ".", pkg, n)

    for f in fds.file:
        for m in f.message_type:
            walk("", f.package, m)
        for e in f.enum_type:
            enums[e.name] = e
    return msgs, enums


def relative(type_name, pkg):
    """".nri.pkg.api.v1alpha1.Container" -> "Container"."""
    name = type_name.lstrip(".")
    if pkg and name.startswith(pkg + "."):
        return name[len(pkg) + 1:]
    return name


def shape(field, pkg, msgs):
    """A field's type as text, comparable across two files."""
    if field.type in (F.TYPE_MESSAGE, F.TYPE_ENUM):
        t = relative(field.type_name, pkg)
        entry = msgs.get(t)
        if entry and entry[1].options.map_entry:
            k, v = entry[1].field
            return "map<%s, %s>" % (shape(k, pkg, msgs),
                                    shape(v, pkg, msgs))
    else:
        t = TYPE_NAMES[field.type]
    return ("repeated " if field.label == F.LABEL_REPEATED else "") + t


def compare(ours, theirs, label):
    """(mismatches, what theirs lacks) of ours against theirs."""
    bad, lacks = [], []
    om, oe = index(ours)
    tm, te = index(theirs)
    for name, (opkg, m) in sorted(om.items()):
        if m.options.map_entry:
            continue
        if name not in tm:
            lacks.append("message %s" % name)
            continue
        tpkg, t = tm[name]
        tf = {f.name: f for f in t.field}
        for f in m.field:
            if f.name not in tf:
                lacks.append("field %s.%s = %d" % (name, f.name, f.number))
                continue
            g = tf[f.name]
            mine, other = shape(f, opkg, om), shape(g, tpkg, tm)
            if f.number != g.number or mine != other:
                bad.append("%s: %s.%s: cpumgr has %s = %d, %s has %s = %d"
                           % (label, name, f.name, mine, f.number, label,
                              other, g.number))
    for name, e in sorted(oe.items()):
        if name not in te:
            lacks.append("enum %s" % name)
            continue
        tv = {v.name: v.number for v in te[name].value}
        for v in e.value:
            if v.name not in tv:
                lacks.append("enum value %s.%s = %d" % (name, v.name,
                                                        v.number))
            elif tv[v.name] != v.number:
                bad.append("%s: enum %s.%s: cpumgr has %d, %s has %d"
                           % (label, name, v.name, v.number, label,
                              tv[v.name]))
    return bad, lacks


def main(argv):
    if len(argv) < 3 or any("=" not in a for a in argv[2:]):
        sys.stderr.write("usage: nri-proto-check.py OURS LABEL=THEIRS...\n")
        return 2
    ours = load(argv[1])
    status = 0
    for arg in argv[2:]:
        label, path = arg.split("=", 1)
        if not os.path.isfile(path):
            print("not ok: %s: %s is not there (scripts/setup.sh fetches it)"
                  % (label, path))
            status = 1
            continue
        bad, lacks = compare(ours, load(path), label)
        for line in bad:
            print("not ok: " + line)
        if bad:
            status = 1
        print("%s: %s agrees on everything both describe%s"
              % (label, os.path.basename(argv[1]),
                 "" if not bad else " but the above"))
        for line in lacks:
            print("%s lacks %s" % (label, line))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
