#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# user/lib's files call one way, as its layers include one way
# (scripts/layers-check.sh): the call graph of the built objects, one
# node per .c file, an edge where a file's object uses a symbol another
# file's object defines (nm: undefined there, defined here).  Fails on
#   - a circle of files within one folder (a.c calls b.c calls a.c,
#     however long): the files of a circle are one job in several files,
#     or a job whose parts belong below the others;
#   - a call into a layer above (user/Makefile's LAYERS, bottom first),
#     which an include check misses when the callee is declared by hand.
# Prints each, exit 1 if any; a source whose object is not built is an
# error too (build the userspace first: make user).
#
# With --kmod, the same for the kernel module, one folder without
# layers: no circle of files in its calls (the objects of a module
# build, make module), nor in its includes, a file and its header being
# one (cpumgr_x.c and cpumgr_x.h are cpumgr_x; a .c that another
# includes, as cpumgr_netlink.c includes what ynl-gen-c.py generated, is
# part of it).  An include circle is a circle of types or declarations
# even where no call closes it.
#
# Usage: scripts/calls-check.py [--lib DIR] [--obj DIR] [--makefile FILE]
#        (default: user/lib, build/user/obj/lib, user/Makefile)
#        scripts/calls-check.py --kmod [--src DIR] [--obj DIR]
#        (default: kmod, build/kmod/6.1/kmod)

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def layers_of(makefile):
    with open(makefile) as f:
        for line in f:
            m = re.match(r'LAYERS := (.*)', line)
            if m:
                return m.group(1).split()
    sys.exit(f'{makefile}: no LAYERS')


def symbols(obj):
    """(defined, used) global symbols of one object."""
    out = subprocess.run(['nm', '-P', obj], check=True, capture_output=True,
                         text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == 'U':
            used.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return defined, used


def circles(files, edges):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(files):
        if v not in index:
            visit(v)
    return found


def one_circle(comp, edges):
    """A shortest path around the component, from its first file back."""
    start, inside = comp[0], set(comp)
    prev, queue = {start: None}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in inside and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + [start]


def call_edges(defs, uses):
    """Who calls whom: each symbol's file, file -> files whose symbols
    it uses, and a symbol for each edge."""
    owner = {}
    for name in sorted(defs):
        for s in defs[name]:
            owner.setdefault(s, name)
    edges, why = {}, {}
    for name in sorted(uses):
        for s in sorted(uses[name]):
            callee = owner.get(s)
            if callee is None or callee == name:
                continue
            edges.setdefault(name, set()).add(callee)
            why.setdefault((name, callee), s)
    return owner, edges, why


def circle_text(comp, edges, why):
    """One circle as a path, each step with what ties it."""
    path = one_circle(comp, edges)
    return ' -> '.join(f'{path[k]} ({why[(path[k], path[k + 1])]})'
                       for k in range(len(path) - 1)) + f' -> {path[-1]}'


def unit(name):
    """A file's unit: its name without .c or .h."""
    return re.sub(r'\.[ch]$', '', os.path.basename(name))


def includes(path):
    """The quoted includes of one file."""
    with open(path) as f:
        return re.findall(r'^#include "([^"]+)"', f.read(), re.M)


def check_kmod(src, obj, label):
    """No circle of files in one folder: in its calls and its includes."""
    status = 0
    files = sorted(f for f in os.listdir(src) if re.search(r'\.[ch]$', f))
    included = {i for f in files for i in includes(os.path.join(src, f))
                if i.endswith('.c')}

    # includes: a file's unit includes the units of the headers it names
    inc, inc_why = {}, {}
    for f in files:
        for i in includes(os.path.join(src, f)):
            if not os.path.exists(os.path.join(src, i)) or unit(i) == unit(f):
                continue
            inc.setdefault(unit(f), set()).add(unit(i))
            inc_why.setdefault((unit(f), unit(i)), f'{f} includes {i}')
    units = sorted({unit(f) for f in files})
    for comp in circles(units, inc):
        print(f'{label}: files include each other in a circle '
              f'({", ".join(comp)}): {circle_text(comp, inc, inc_why)}')
        status = 1

    # calls: the objects of the sources no other file includes
    defs, uses = {}, {}
    for f in files:
        if not f.endswith('.c') or f in included:
            continue
        o = os.path.join(obj, f[:-2] + '.o')
        if not os.path.exists(o):
            print(f'{label}/{f}: no object {o} (make module)')
            status = 1
            continue
        defs[f], uses[f] = symbols(o)
    _, edges, why = call_edges(defs, uses)
    for comp in circles(list(defs), edges):
        print(f'{label}: files call each other in a circle '
              f'({", ".join(comp)}): {circle_text(comp, edges, why)}')
        status = 1
    return status


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--lib', default=os.path.join(TOP, 'user/lib'))
    p.add_argument('--obj')
    p.add_argument('--makefile', default=os.path.join(TOP, 'user/Makefile'))
    p.add_argument('--kmod', action='store_true')
    p.add_argument('--src', default=os.path.join(TOP, 'kmod'))
    a = p.parse_args()

    out = os.environ.get('CPUMGR_OUT', os.path.join(TOP, 'build'))
    if a.kmod:
        return check_kmod(a.src, a.obj or os.path.join(out, 'kmod/6.1/kmod'),
                          'kmod')
    a.obj = a.obj or os.path.join(out, 'user/obj/lib')

    layers = layers_of(a.makefile)
    status = 0
    rank, defs, uses = {}, {}, {}
    for i, layer in enumerate(layers):
        d = os.path.join(a.lib, layer)
        for src in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not src.endswith('.c'):
                continue
            name = f'{layer}/{src}'
            obj = os.path.join(a.obj, layer, src[:-2] + '.o')
            if not os.path.exists(obj):
                print(f'user/lib/{name}: no object {obj} (make user)')
                status = 1
                continue
            rank[name] = i
            defs[name], uses[name] = symbols(obj)

    owner, edges, why = call_edges(defs, uses)
    for name in sorted(uses):
        for s in sorted(uses[name]):
            callee = owner.get(s)
            if callee is not None and rank[callee] > rank[name]:
                print(f'user/lib/{name}: uses {s} of {callee}, '
                      f'a layer above {layers[rank[name]]}')
                status = 1

    for layer in layers:
        files = [f for f in rank if f.startswith(layer + '/')]
        inner = {f: {g for g in edges.get(f, ()) if g.startswith(layer + '/')}
                 for f in files}
        for comp in circles(files, inner):
            print(f'user/lib/{layer}: files call each other in a circle '
                  f'({", ".join(f[len(layer) + 1:] for f in comp)}): '
                  f'{circle_text(comp, inner, why)}')
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
