#!/usr/bin/env python3
"""Fails when the modules of a crate depend on each other in a cycle.

Reads every file of the library, crates/knightsat/src/, and of the Python
package's crate, python/src/ (the binary, src/, is another package:
nothing in the library can use it), finds the `crate::…` and `super::…`
paths each names, and builds the graph of dependencies between modules
that are siblings: the top-level modules (`model`, `encoding`, …), and
the children of one module (`cnf::dimacs`, `cnf::split`). A child using
its parent, or a parent its child, is how Rust modules are built and is
not counted. Prints the cycles and exits 1 if there are any, else prints
the order and exits 0.

It also keeps the library's layers honest: the top-level modules are
grouped in layers, from the bottom up, in the one table docs/architecture.md
draws (read from there, so it is written once), and a module may use only
modules of the layers below its own. A use that climbs, or one between two
modules of one layer, fails the check, naming it; a new top-level module
must be given a layer in that table.
"""
import pathlib
import re
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "crates" / "knightsat" / "src"
PYTHON_SRC = ROOT / "python" / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def read_layers():
    """The layer table of docs/architecture.md, from the bottom up: each
    row a number, the layer's modules, then what they hold (the modules
    are the words that name a module of the library)."""
    known = {p.stem for p in SRC.iterdir() if p.suffix == ".rs" or p.is_dir()} - {"lib"}
    rows = []
    for line in ARCHITECTURE.read_text().splitlines():
        match = re.match(r"\s+(\d+)\s{2,}(.*)$", line)
        if not match:
            continue
        names = []
        for word in match.group(2).split():
            if word not in known:
                break
            names.append(word)
        if names:
            rows.append((int(match.group(1)), names))
    rows.sort()
    if [number for number, _ in rows] != list(range(1, len(rows) + 1)):
        sys.exit(f"the layer table of {ARCHITECTURE} is not numbered 1 to {len(rows)}")
    return [names for _, names in rows]


LAYERS = read_layers()
LAYER_OF = {name: level for level, names in enumerate(LAYERS) for name in names}


def layer_violations(modules, edges):
    """The uses between top-level modules that do not go down a layer."""
    problems = []
    for module in sorted({m[0] for m in modules if m}):
        if module not in LAYER_OF:
            problems.append(f"{module} has no layer in the layer table of docs/architecture.md")
    for source in sorted(edges):
        if len(source) != 1 or source[0] not in LAYER_OF:
            continue
        for target in sorted(edges[source]):
            if len(target) == 1 and target[0] in LAYER_OF and LAYER_OF[target[0]] >= LAYER_OF[source[0]]:
                problems.append(f"{source[0]} (layer {LAYER_OF[source[0]]}) uses {target[0]} (layer {LAYER_OF[target[0]]})")
    return problems


def module_of(path: pathlib.Path, src: pathlib.Path) -> tuple:
    parts = list(path.relative_to(src).with_suffix("").parts)
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


def dependencies(src: pathlib.Path):
    """The crate's modules under `src`, and the uses between siblings."""
    files = [p for p in src.rglob("*.rs") if "bin" not in p.relative_to(src).parts]
    modules = {module_of(p, src) for p in files}
    edges = defaultdict(set)
    for path in files:
        module = module_of(path, src)
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
    return modules, edges


def cycles_of(edges):
    """The strongly connected components of more than one module."""
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
    return cycles


def main() -> int:
    name = "::".join
    failed = False
    for crate, src in [("knightsat", SRC), ("knightsat-python", PYTHON_SRC)]:
        modules, edges = dependencies(src)
        for cycle in cycles_of(edges):
            failed = True
            members = sorted(cycle)
            print(f"module cycle in {crate}: " + ", ".join(name(m) for m in members))
            for m in members:
                inside = sorted(name(t) for t in edges[m] if t in cycle)
                print(f"  {name(m)} uses {', '.join(inside)}")
        if src == SRC and not failed:
            for problem in layer_violations(modules, edges):
                failed = True
                print("layer broken: " + problem)
        if not failed:
            print(f"{crate}: no module cycles among {len(modules)} modules" + (f", and {len(LAYERS)} layers kept" if src == SRC else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
