#!/usr/bin/env python3
"""Fails when the library's modules depend on each other in a cycle.

Reads every file of the library, crates/knightsat/src/ (the binary, src/,
is another package: nothing in the library can use it), finds the `crate::…` and `super::…` paths it names, and
builds the graph of dependencies between modules that are siblings: the
top-level modules (`board`, `encoding`, …), and the children of one module
(`cnf::dimacs`, `cnf::split`). A child using its parent, or a parent its
child, is how Rust modules are built and is not counted. Prints the cycles
and exits 1 if there are any, else prints the order and exits 0.

It also keeps the layers honest: the top-level modules are grouped in
LAYERS, from the bottom up (docs/architecture.md draws them), and a module
may use only modules of the groups below its own. A use that climbs, or
one between two modules of one group, fails the check, naming it; a new
top-level module must be given a layer here.
"""
import pathlib
import re
import sys
from collections import defaultdict

SRC = pathlib.Path(__file__).resolve().parent.parent / "crates" / "knightsat" / "src"


LAYERS = [
    ["model"],
    ["runtime"],
    ["tour", "graph", "cnf"],
    ["gate", "search", "render"],
    ["encoding"],
    ["sat"],
    ["error"],
    ["cubes"],
    ["solve", "cnf_file"],
    ["certify", "count", "puzzle"],
]
LAYER_OF = {name: level for level, names in enumerate(LAYERS) for name in names}


def layer_violations(modules, edges):
    """The uses between top-level modules that do not go down a layer."""
    problems = []
    for module in sorted({m[0] for m in modules if m}):
        if module not in LAYER_OF:
            problems.append(f"{module} has no layer in LAYERS (scripts/module-cycles.py)")
    for source in sorted(edges):
        if len(source) != 1 or source[0] not in LAYER_OF:
            continue
        for target in sorted(edges[source]):
            if len(target) == 1 and target[0] in LAYER_OF and LAYER_OF[target[0]] >= LAYER_OF[source[0]]:
                problems.append(f"{source[0]} (layer {LAYER_OF[source[0]]}) uses {target[0]} (layer {LAYER_OF[target[0]]})")
    return problems


def module_of(path: pathlib.Path) -> tuple:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("lib", "mod"):
        parts.pop()
    return tuple(parts)


def referenced(module: tuple, text: str, is_mod_file: bool):
    # Strip comments so doc links and prose do not count.
    text = re.sub(r"//[^\n]*", "", text)
    for match in re.finditer(r"\b(crate|super)((?:::\w+)+)", text):
        names = match.group(2).split("::")[1:]
        if match.group(1) == "crate":
            yield tuple(names)
        else:
            # `super` of a mod.rs file is its parent; of a plain file, the
            # module that declares it (its parent too).
            base = module[:-1]
            yield base + tuple(names)
    # `use` groups: crate::{a, b::c}
    for match in re.finditer(r"\bcrate::\{([^}]*)\}", text):
        for item in match.group(1).split(","):
            item = item.strip()
            if item:
                yield tuple(item.split("::"))


def main() -> int:
    files = [p for p in SRC.rglob("*.rs") if "bin" not in p.relative_to(SRC).parts]
    modules = {module_of(p) for p in files}
    edges = defaultdict(set)
    for path in files:
        module = module_of(path)
        for target in referenced(module, path.read_text(), path.name == "mod.rs"):
            # The longest known module that is a prefix of the path named.
            while target and target not in modules:
                target = target[:-1]
            if not target or target == module:
                continue
            # Compare at the level where the two first differ: siblings.
            common = 0
            while common < min(len(module), len(target)) and module[common] == target[common]:
                common += 1
            if common == len(module) or common == len(target):
                continue  # parent and child
            edges[module[: common + 1]].add(target[: common + 1])
    # Tarjan's strongly connected components.
    index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(component)

    sys.setrecursionlimit(10000)
    for node in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if node not in index:
            visit(node)
    name = "::".join
    if cycles:
        for cycle in cycles:
            members = sorted(cycle)
            print("module cycle: " + ", ".join(name(m) for m in members))
            for m in members:
                inside = sorted(name(t) for t in edges[m] if t in cycle)
                print(f"  {name(m)} uses {', '.join(inside)}")
        return 1
    problems = layer_violations(modules, edges)
    for problem in problems:
        print("layer broken: " + problem)
    if problems:
        return 1
    print(f"no module cycles among {len(modules)} modules, and {len(LAYERS)} layers kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
