#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The operator's guide against the command tables, as cpumgrctl(8) is
# held to them (scripts/doc-check.sh): every block between
#   <!-- cpumgrctl help --md [COMMAND...] -->
#   <!-- end of cpumgrctl help --md -->
# is exactly what that command prints (each command's synopsis, or with
# no command the whole reference of synopses and options), the whole
# reference is there once, and every option on a line that names
# cpumgrctl is one of a command's table.  Prints what differs; exit 1.
#
# Usage: guide_check.py CPUMGRCTL GUIDE [--fix]
#   --fix: rewrite the generated blocks instead of failing on them

import difflib
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- cpumgrctl help --md(?P<args>(?: [a-z][a-z-]*)*) -->\n)"
                   r"(?P<body>.*?)"
                   r"(<!-- end of cpumgrctl help --md -->)", re.S)
# the options of help itself and the global ones
NOT_IN_TABLES = {"--help", "--version", "--json", "--state-dir", "--scd",
                 "--md", "--complete"}


def ctl(exe, *args):
    return subprocess.run([exe, *args], check=True, capture_output=True,
                          text=True).stdout


def main():
    exe, path = sys.argv[1], sys.argv[2]
    fix = sys.argv[3:] == ["--fix"]
    text = open(path).read()
    bad = []
    whole = 0

    def regenerate(m):
        nonlocal whole
        args = m.group("args").split()
        whole += not args
        want = ctl(exe, "help", "--md", *args)
        if m.group("body") != want:
            if not fix:
                bad.append(f"{path}: the block of 'cpumgrctl help --md{m.group('args')}' differs"
                           " (scripts/doc-check.sh --fix):\n" +
                           "".join(difflib.unified_diff(
                               m.group("body").splitlines(True), want.splitlines(True))))
        return m.group(1) + want + m.group(4)

    new = BLOCK.sub(regenerate, text)
    if whole != 1:
        bad.append(f"{path}: {whole} blocks of 'cpumgrctl help --md' (every command's options), not 1")
    cmds = [l.split()[1] for l in ctl(exe, "help", "--complete").splitlines()]
    opts = set(NOT_IN_TABLES)
    for c in cmds:
        opts |= {l.split()[1] for l in ctl(exe, "help", "--complete", c).splitlines()
                 if l.startswith("opt ")}
    for n, line in enumerate(text.splitlines(), 1):
        if "cpumgrctl" not in line:
            continue
        for o in re.findall(r"(?<![\w-])--[a-z][a-z-]*", line):
            if o not in opts:
                bad.append(f"{path}:{n}: option '{o}' is in no command's table")
    if fix and new != text:
        open(path, "w").write(new)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
