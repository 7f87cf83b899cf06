"""The README's Python example runs as shown (tests/readme.rs runs its
console sessions; this runs its python blocks)."""

import contextlib
import io
import pathlib
import re

import knightsat as ks

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    """The README's fenced blocks marked python."""
    return re.findall(r"^```python\n(.*?)^```", README.read_text(), re.M | re.S)


def test_the_readme_has_a_python_example_that_runs():
    blocks = python_blocks()
    assert blocks, "no python block in the README"
    for block in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, str(README), "exec"), {})
        lines = printed.getvalue().splitlines()
        tour = lines[0].split()
        assert len(tour) == 25 and tour[0] == "c3"
        ks.verify(tour, ks.Problem(5, start="c3"))
        assert lines[1] == "1728"


DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_every_python_example_in_the_python_docs_runs():
    # The signatures are `text` blocks; every `python` block runs alone,
    # in a namespace of its own, as a reader would paste just that one
    # (each imports what it uses).
    blocks = re.findall(r"^```python\n(.*?)^```", DOCS.read_text(), re.M | re.S)
    assert len(blocks) >= 2, "the docs' python examples went missing"
    for block in blocks:
        namespace = {}
        exec(compile(block, str(DOCS), "exec"), namespace)
    # The last lists every tour of 5x5 from a1 through PySAT.
    assert len(namespace["tours"]) == 304
    assert len(set(map(tuple, namespace["tours"]))) == 304
