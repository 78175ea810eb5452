#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
"""Fails when a header of the library includes a layer above its own.

The layers are the list in docs/notes/architecture.md (its first ```text block,
top to bottom: one entry a line that starts at the left margin, `name/` for a
folder and `name.hpp` for a header, both meaning the header and the folder of
that name). A header may include its own layer and those below it; an include
of a layer above, or of another component's detail/, is reported with its file
and line. The list of known exceptions below it in the page ("Known exceptions,
to be removed") is read as `file -> included` pairs in a ```text block after that
heading; an exception that no longer happens is reported too, so the list
only shrinks.

    check_layers.py INCLUDE_DIR ARCHITECTURE_MD
"""
import pathlib
import re
import sys


def layers_of(page):
    block = re.search(r"## Layers.*?```text\n(.*?)```", page, re.S)
    if not block:
        sys.exit("no ```text block under '## Layers'")
    order = []
    for line in block.group(1).splitlines():
        if not line or line[0].isspace() or line.startswith(("reference_server", "Boost")):
            continue
        head = re.match(r"[\w./]+(?:,\s*[\w./]+)*", line).group(0)
        names = [n.strip() for n in head.split(",") if n.strip()]
        order.append([n[:-1] if n.endswith("/") else n[:-4] if n.endswith(".hpp") else n for n in names])
    return order


def exceptions_of(page):
    block = re.search(r"known exceptions.*?```text\n(.*?)```", page, re.S | re.I)
    pairs = set()
    if block:
        for line in block.group(1).splitlines():
            if "->" in line:
                a, b = (x.strip() for x in line.split("->"))
                pairs.add((a, b))
    return pairs


def main():
    include = pathlib.Path(sys.argv[1])
    page = pathlib.Path(sys.argv[2]).read_text(encoding="utf-8")
    order = layers_of(page)
    rank = {}
    for i, names in enumerate(order):
        for n in names:
            rank[n] = i
    allowed = exceptions_of(page)

    def component(rel):
        # agentio/x/y.hpp -> x ; agentio/x.hpp -> x
        parts = rel.split("/")
        return parts[1] if len(parts) > 2 else parts[1][:-4]

    problems, seen = [], set()
    root = include / "agentio"
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".hpp", ".ipp"):
            continue
        rel = path.relative_to(include).as_posix()
        if rel == "agentio/src.hpp":
            continue  # the core component's compile unit: every layer of core, by design
        mine = component(rel)
        if mine not in rank:
            problems.append(f"{rel}: its component '{mine}' is not in the list of layers")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(r"\s*#\s*include\s*<(agentio/[^>]+)>", line)
            if not m:
                continue
            target = m.group(1)
            theirs = component(target)
            if theirs not in rank:
                problems.append(f"{rel}:{number}: includes {target}, whose component '{theirs}' is not in the list")
                continue
            pair = (rel, target)
            wrong = None
            if rank[theirs] < rank[mine]:
                wrong = f"includes {target}, of the layer '{theirs}' above its own '{mine}'"
            elif "/detail/" in target and theirs != mine and theirs != "detail":
                wrong = f"includes {target}, a private helper of '{theirs}'"
            if wrong:
                if pair in allowed:
                    seen.add(pair)
                else:
                    problems.append(f"{rel}:{number}: {wrong}")
    for pair in sorted(allowed - seen):
        problems.append(f"known exception '{pair[0]} -> {pair[1]}' no longer happens: remove it from the page")
    for p in problems:
        print(p)
    print(f"{len(order)} layers, {len(seen)} known exceptions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
