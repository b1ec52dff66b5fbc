"""Every public name has a docstring: the API reference (`just docs`: pdoc into target/docs/python/)
is built from them, so a bare name is a hole in it. pdoc's own model is walked, so "documented"
means what the reference shows. The public API is each public module's `__all__`."""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import re
import sys
import types
import warnings

import pdoc.doc
import pytest

PUBLIC_MODULES = ("qrglue", "qrglue.raw", "qrglue.auto", "qrglue.native", "qrglue.extism", "qrglue.wasm3")


def _defined_docstrings() -> dict[str, str]:
    """Module-level variables' docstrings where they are defined (qrglue's own modules, private ones
    too): pdoc reads a variable's docstring from the source of the module that assigns it, so a
    re-exported constant (`qrglue.DEFAULT_MIN_SIZE` from `qrglue._options`) is documented there."""
    # Read from the source as pdoc reads it (a string right after the assignment), not through
    # pdoc's module members: those follow the module's `__all__` (qrglue._options lists only the
    # defaults it re-exports), and a re-exported name is documented wherever it is assigned.
    found: dict[str, str] = {}
    for name in ("qrglue._options", "qrglue._common"):
        body = ast.parse(inspect.getsource(importlib.import_module(name))).body
        for node, after in itertools.pairwise(body):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, ast.AnnAssign) else [])
            doc = after.value.value if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) else None
            if isinstance(doc, str) and doc.strip():
                found.update({t.id: doc for t in targets if isinstance(t, ast.Name)})
    return found


def _inherited_keys(cls: pdoc.doc.Class) -> set[str]:
    """A TypedDict's keys that its base declares (and documents): TypedDict flattens them into each
    class and keeps no base at run time (3.11 has no __orig_bases__ on it), so the source names it."""
    try:
        match = re.match(r"class \w+\((\w+)", inspect.getsource(cls.obj))
    except (OSError, TypeError):  # no source (a class made at run time): nothing flattened to skip
        return set()
    base = getattr(sys.modules.get(cls.obj.__module__), match.group(1), None) if match else None
    if not (isinstance(base, type) and issubclass(base, dict)):
        return set()
    return set(getattr(base, "__annotations__", {}))


def _walk(doc: pdoc.doc.Module, module: types.ModuleType, defined: dict[str, str], missing: list[str]) -> None:
    def walk(members: list[pdoc.doc.Doc], skip: set[str]) -> None:  # type: ignore[type-arg]
        for member in members:
            if member.name.startswith("_") or member.name in skip:
                continue
            documented = bool(member.docstring.strip())
            if isinstance(member, pdoc.doc.Variable) and not documented:
                # Re-exported (pdoc finds no docstring outside the assigning module), or a lazy class.
                target = getattr(module, member.name, None) if member.qualname == member.name else None
                own = inspect.isclass(target) or inspect.isfunction(target)
                documented = member.name in defined or (own and bool((target.__doc__ or "").strip()))
            if not documented:
                missing.append(member.fullname)
            if isinstance(member, pdoc.doc.Class):
                walk(member.own_members, _inherited_keys(member))

    walk(list(doc.members.values()), set())


def undocumented(module: types.ModuleType) -> list[str]:
    """The public names of `module` (its `__all__`, and their public members) without a docstring."""
    defined = _defined_docstrings()
    missing: list[str] = []
    # pdoc warns on names it cannot place (a lazy PEP 562 attribute, checked at the end; a TypedDict's
    # flattened keys, skipped): the reference build's warnings are `just docs`'s concern, not this test's.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = pdoc.doc.Module(module)
        _walk(doc, module, defined, missing)
    if not doc.docstring.strip():
        missing.append(module.__name__)

    for name in getattr(module, "__all__", ()):
        if name not in doc.members:
            # A lazy attribute (qrglue.Generator, PEP 562) pdoc cannot resolve: its object's own doc.
            if not (getattr(getattr(module, name), "__doc__", None) or "").strip():
                missing.append(f"{module.__name__}.{name}")
    return missing


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_name_has_a_docstring(name: str) -> None:
    missing = undocumented(importlib.import_module(name))
    assert not missing, f"no docstring (pdoc shows these bare; add one after each): {', '.join(missing)}"


def test_a_bare_name_is_caught() -> None:
    # The check must be able to fail: a module with a bare function, class, method and constant.
    bare = types.ModuleType("bare", "A module.")
    exec(  # the module under test is this literal
        "def f(): pass\nclass C:\n    def m(self): pass\nX = 1\n__all__ = ['f', 'C', 'X']\n",
        bare.__dict__,
    )
    # pdoc reads source for variable docstrings; without a file, it finds none, which is the point.
    assert sorted(undocumented(bare)) == ["bare.C", "bare.C.m", "bare.X", "bare.f"]
