"""The type stubs (python/knightsat.pyi) say what the module's own
docstrings (the `///` comments of python/src/) say, word for word:
editors show the stubs', `help()` the module's. A docstring changed on
one side only fails here, with the difference."""

import ast
import difflib
import inspect
import pathlib

import pytest

import knightsat as ks

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB = ROOT / "python" / "knightsat.pyi"


def stub_definitions():
    """The stub's public classes and functions, and their members, by
    dotted name (`Problem`, `Problem.rows`), with their docstrings (None
    where they have none); the module's own docstring is under ''.
    Names with a leading underscore that are not dunders (the stub's own
    helpers) are left out."""
    tree = ast.parse(STUB.read_text(), str(STUB))
    found = {"": ast.get_docstring(tree)}

    def public(name):
        return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))

    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and public(node.name):
            found[node.name] = ast.get_docstring(node)
            if isinstance(node, ast.ClassDef):
                for member in node.body:
                    if isinstance(member, ast.FunctionDef) and public(member.name):
                        found[f"{node.name}.{member.name}"] = ast.get_docstring(member)
    return found


DEFINED = stub_definitions()
DOCUMENTED = {name: doc for name, doc in DEFINED.items() if doc is not None}


def runtime(name):
    """The module's object for a dotted name ('' is the module)."""
    value = ks
    for part in filter(None, name.split(".")):
        value = getattr(value, part)
    return value


def module_public_names():
    """The module's public names and those of its classes (methods,
    properties, static methods), dotted as above."""
    names = []
    for name, value in vars(ks).items():
        # `knightsat.knightsat` is the extension module maturin's package
        # wraps, not part of the API.
        if name.startswith("_") or inspect.ismodule(value):
            continue
        names.append(name)
        if inspect.isclass(value):
            names.extend(f"{name}.{member}" for member in vars(value) if not member.startswith("_"))
    return names


@pytest.mark.parametrize("name", sorted(DOCUMENTED), ids=lambda name: name or "<module>")
def test_a_stub_docstring_is_the_modules_own(name):
    try:
        value = runtime(name)
    except AttributeError:
        pytest.fail(f"the stub documents {name}, which the module does not have")
    ours = inspect.cleandoc(value.__doc__ or "")
    stub = DOCUMENTED[name]
    if ours != stub:
        diff = "\n".join(
            difflib.unified_diff(
                stub.splitlines(),
                ours.splitlines(),
                "knightsat.pyi",
                "python/src/ (__doc__)",
                lineterm="",
            )
        )
        pytest.fail(f"{name or 'the module'}: the stub's docstring and the module's differ:\n{diff}")


def test_everything_the_stub_defines_is_in_the_module():
    missing = []
    for name in DEFINED:
        try:
            runtime(name)
        except AttributeError:
            missing.append(name)
    assert not missing, f"in the stub, not in the module: {missing}"


def test_every_public_name_of_the_module_has_a_stub_docstring():
    undocumented = [name for name in module_public_names() if name not in DOCUMENTED]
    assert not undocumented, f"in the module without a docstring in the stub: {undocumented}"


def test_the_comparison_covers_the_whole_api():
    # A parser that found nothing would compare nothing and pass.
    assert len(DOCUMENTED) >= 40
    for name in ["", "Problem", "Problem.rows", "Formula.lit", "Formula.nvars", "encode", "Tours.close"]:
        assert name in DOCUMENTED


def test_the_installed_package_ships_this_stub():
    # What editors and mypy read is the stub in the installed package
    # (maturin's knightsat/__init__.pyi beside py.typed).
    package = pathlib.Path(ks.__file__).parent
    assert (package / "py.typed").is_file(), f"no py.typed in {package}"
    installed = package / "__init__.pyi"
    assert installed.is_file(), f"no stub in {package}"
    assert installed.read_text() == STUB.read_text(), (
        "the installed stub is not python/knightsat.pyi: reinstall the package "
        "(scripts/test-python.sh)"
    )
