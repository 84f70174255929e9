#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when the folders of judge/ include each other in a cycle, or a folder includes one of a higher layer.

A cycle between folders means neither can be understood, tested or moved without the other; the
layering in ARCHITECTURE.md is only true while this passes. Tests (*_test.cc) may include anything.
usage: check-layers.py [REPO_ROOT]   (exit 0: no cycle; 1: each cycle printed with the includes that make it)
"""
import os
import re
import sys

# The layering ARCHITECTURE.md draws: a folder may include folders of lower layers only (and its
# own). A new folder must be placed here; an include that points up fails like a cycle does.
LAYERS = {
    "util": 0,
    "problem": 1, "device": 1, "sandbox": 1, "build": 1,
    "testcase": 2, "measure": 2,
    "check": 3, "protocol": 3, "profile": 3,
    "core": 4, "supervise": 4, "worker": 4,
    "rules": 5, "grade": 5,
    "report": 6,
    "run": 7,
    "batch": 8,
    "serve": 9,
    "cli": 10,
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"judge/([^/"]+)/[^"]+"', re.M)


def folder_graph(judge_dir):
    """{folder: {included folder: [file:line, ...]}} for the non-test sources under judge_dir."""
    graph = {}
    for dirpath, _, files in os.walk(judge_dir):
        rel = os.path.relpath(dirpath, judge_dir)
        if rel == ".":
            continue
        folder = rel.split(os.sep)[0]
        graph.setdefault(folder, {})
        for name in sorted(files):
            if name.endswith("_test.cc") or not name.endswith((".h", ".cc", ".cu", ".cuh")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                if target != folder:
                    line = text.count("\n", 0, m.start()) + 1
                    graph[folder].setdefault(target, []).append(f"{os.path.relpath(path, os.path.dirname(judge_dir))}:{line}")
    return graph


def cycles(graph):
    """The strongly connected components of more than one folder (Tarjan), each sorted."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    judge_dir = os.path.join(os.path.abspath(root), "judge")
    if not os.path.isdir(judge_dir):
        print(f"check-layers: no judge/ folder under {root}", file=sys.stderr)
        return 2
    graph = folder_graph(judge_dir)
    problems = []
    for component in cycles(graph):
        lines = [f"include cycle between judge/ folders: {{{', '.join(component)}}}"]
        for a in component:
            for b in component:
                for where in graph[a].get(b, [])[:3]:
                    lines.append(f"  {a} -> {b}: {where}")
        problems.append("\n".join(lines))
    for folder in sorted(graph):
        if folder not in LAYERS:
            problems.append(f"judge/{folder}/ has no layer: add it to LAYERS in scripts/check-layers.py and ARCHITECTURE.md")
            continue
        for target, where in sorted(graph[folder].items()):
            if LAYERS.get(target, -1) > LAYERS[folder]:
                problems.append(f"judge/{folder}/ (layer {LAYERS[folder]}) includes {target}/ (layer {LAYERS[target]}), "
                                f"a layer above it, at {', '.join(where[:3])}")
    for p in problems:
        print(p)
    if problems:
        print("check-layers: move the shared type down a layer (see ARCHITECTURE.md, 'Layers') to break it")
        return 1
    print(f"check-layers: {len(graph)} folders, no include cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
