#!/usr/bin/env python3
"""`mypy --strict` on the Python examples of README.md and docs/python.md,
against the installed package's stubs (knightsat/__init__.pyi and
py.typed, which maturin puts in the wheel), as a user's type checker sees
them. scripts/test-python.sh runs it with the virtual environment's
Python after pytest:

    target/python-venv/bin/python scripts/typecheck-python-examples.py

Each ```python block of the README is a program of its own; the blocks of
docs/python.md are one program, in order, as python/tests/test_readme.py
runs them. Every other line of the Markdown file becomes an empty line,
so that mypy's line numbers are the file's own, and its messages name the
Markdown file. PySAT has no type stubs: its imports alone are let through
as untyped (`Any`); everything else is strict. Exits with mypy's status.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Each file with its examples, and whether its blocks are one program.
SOURCES = [("README.md", False), ("docs/python.md", True)]
CONFIG = """\
[mypy]
strict = True
warn_unreachable = True

[mypy-pysat.*]
ignore_missing_imports = True
"""
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def programs(text: str, one_program: bool) -> list[str]:
    """The file's python blocks as programs, each line at the line number
    it has in the file (the rest blank)."""
    # Each block with the number of lines before it in the file.
    blocks = [(text.count("\n", 0, match.start(1)), match.group(1)) for match in FENCE.finditer(text)]
    if one_program and blocks:
        lines: list[str] = []
        for before, code in blocks:
            lines.extend([""] * (before - len(lines)))
            lines.extend(code.splitlines())
        return ["\n".join(lines) + "\n"]
    return ["\n" * before + code for before, code in blocks]


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        directory = pathlib.Path(work)
        (directory / "mypy.ini").write_text(CONFIG)
        checked = {}
        for name, one_program in SOURCES:
            found = programs((ROOT / name).read_text(), one_program)
            if not found:
                print(f"typecheck-python-examples: no python block in {name}", file=sys.stderr)
                return 1
            stem = re.sub(r"\W", "_", name)
            for number, program in enumerate(found, start=1):
                path = directory / f"{stem}_{number}.py"
                path.write_text(program)
                checked[str(path)] = name
        mypy = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(directory / "mypy.ini"),
                "--no-incremental",
                "--cache-dir",
                str(directory / "cache"),
                *checked,
            ],
            capture_output=True,
            text=True,
            cwd=directory,
        )
        output = mypy.stdout + mypy.stderr
        for path, name in checked.items():
            output = output.replace(path, name).replace(pathlib.Path(path).name, name)
        print(output, end="")
        print(
            f"typecheck-python-examples: {len(checked)} example programs of "
            f"{', '.join(name for name, _ in SOURCES)}: mypy --strict "
            f"{'passed' if mypy.returncode == 0 else 'failed'}"
        )
        return mypy.returncode


if __name__ == "__main__":
    sys.exit(main())
