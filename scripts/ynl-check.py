#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a YNL spec of include/uapi/linux/ against the kernel's genetlink
schema and against the C uAPI header beside it: every command, attribute
and enum value the spec computes must be the header's.

Usage: scripts/ynl-check.py include/uapi/linux/cpumgr.yaml
"""

import os
import subprocess
import sys
import tempfile

cache = os.environ.get('CPUMGR_CACHE',
                       os.path.expanduser('~/.cache/cpumgr'))
ynl_dir = os.path.join(cache, 'src/6.12/tools/net/ynl')
sys.path.insert(0, ynl_dir)
from lib import SpecFamily  # noqa: E402


def c_name(name):
    return name.upper().replace('-', '_')


def expected_values(spec):
    """(C identifier, value) pairs the spec implies."""
    out = []
    for op in spec.msgs.values():
        prefix = spec.yaml['operations'].get('name-prefix', '')
        out.append((c_name(prefix + op.name), op.req_value))
    for aset in spec.attr_sets.values():
        if aset.subset_of:
            continue
        prefix = aset.yaml.get('name-prefix', '')
        for attr in aset.attrs.values():
            out.append((c_name(prefix + attr.name), attr.value))
    for enum in spec.consts.values():
        if isinstance(enum, dict):
            if enum['type'] == 'const':
                out.append((c_name(f"{spec.name}-{enum['name']}"),
                            enum['value']))
            continue
        prefix = enum.yaml.get('name-prefix',
                               f'{spec.name}-{enum.name}-')
        for entry in enum.entries.values():
            value = entry.user_value(as_flags=enum.type == 'flags')
            out.append((c_name(prefix + entry.name), value))
    return out


def header_values(header, names):
    prog = '#include <stdio.h>\n#include "%s"\nint main(void)\n{\n' % header
    for name in names:
        prog += f'\tprintf("%lld\\n", (long long){name});\n'
    prog += '\treturn 0;\n}\n'
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'check.c')
        exe = os.path.join(tmp, 'check')
        with open(src, 'w') as f:
            f.write(prog)
        cc = subprocess.run(['cc', '-o', exe, src], capture_output=True,
                            text=True)
        if cc.returncode:
            sys.exit(f'{header} does not define what the spec names:\n'
                     + cc.stderr)
        res = subprocess.run([exe], check=True, capture_output=True,
                             text=True)
    return [int(v) for v in res.stdout.split()]


def main():
    spec_path = os.path.abspath(sys.argv[1])
    schema = os.path.join(cache, 'src/6.12/Documentation/netlink/genetlink-c.yaml')
    spec = SpecFamily(spec_path, schema)
    header = os.path.splitext(spec_path)[0] + '.h'
    pairs = expected_values(spec)
    got = header_values(header, [n for n, _ in pairs])
    bad = 0
    for (name, want), have in zip(pairs, got):
        if want != have:
            print(f'{spec_path}: {name} is {have} in the header, '
                  f'{want} in the spec')
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
