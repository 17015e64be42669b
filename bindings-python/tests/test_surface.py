"""The public surface: what the module exports matches the stubs, and all of it is documented."""

import ast
import inspect
from pathlib import Path

import mcp_context
from conftest import STUB


def stub_tree():
    return ast.parse(STUB.read_text(encoding="utf-8"))


def stub_all():
    for node in stub_tree().body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [elt.value for elt in node.value.elts]
    raise AssertionError("the stub has no __all__")


def test_all_matches_stub():
    assert sorted(mcp_context.__all__) == sorted(stub_all())
    for name in mcp_context.__all__:
        assert hasattr(mcp_context, name), name
    # Everything public except the pure-Python submodules (the package re-exports `_core`).
    public = {n for n in dir(mcp_context) if not n.startswith("_")} - {"server", "aio", "types", "telemetry", "broker"}
    assert public == set(mcp_context.__all__)


def test_stub_classes_match_runtime_members():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef):
            continue
        runtime = getattr(mcp_context, node.name)
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                assert hasattr(runtime, item.name), f"{node.name}.{item.name}"
            if isinstance(item, ast.Assign) and node.name == "ErrorCode":
                member = item.targets[0].id
                assert getattr(runtime, member) == ast.literal_eval(item.value), member
        if node.name == "ErrorCode":
            stub_members = [i.targets[0].id for i in node.body if isinstance(i, ast.Assign)]
            assert stub_members == [m.name for m in runtime]


def test_every_public_name_has_a_docstring():
    assert mcp_context.__doc__
    for name in mcp_context.__all__:
        obj = getattr(mcp_context, name)
        if inspect.isclass(obj):
            assert obj.__doc__, name
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if callable(member) or isinstance(member, property) or inspect.isgetsetdescriptor(member):
                    assert member.__doc__, f"{name}.{attr}"


def test_stub_documents_every_definition():
    for node in ast.walk(stub_tree()):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            assert ast.get_docstring(node), node.name


def test_package_is_typed():
    package = Path(mcp_context.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_core.pyi").read_text(encoding="utf-8") == STUB.read_text(encoding="utf-8")
