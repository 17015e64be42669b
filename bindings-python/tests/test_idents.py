"""The binding's spellings of core enums are the core's identifiers (``mcp_context::ident``):
every ``Literal`` the stubs give for an enum-valued attribute equals the core's table, in
order, and the values the extension produces at run time are in it."""

import ast
import json

import pytest

from conftest import STUB
from mcp_context import _core
from mcp_context import ServerMachine

TABLES = _core._IDENT_TABLES

# (stub class, attribute or alias) -> the core enum it spells
SPELLINGS = {
    ("Cancelled", "reason"): "server::CancelReason",
    ("ReadResource", "target"): "server::ReadTarget",
    ("Transmit", "kind"): "server::BodyKind",
    ("ServerMachine.handle_message", "return"): "server::Received",
    ("SubscriptionEnded", "reason"): "client::EndReason",
    ("Connected", "era"): "client::Era",
    ("CacheRefusal", "alias"): "cache::Refused",
}


def stub_literal(cls: str, attr: str) -> list[str]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))

    def literal(node: ast.AST) -> list[str]:
        for n in ast.walk(node):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "Literal":
                elts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
                return [e.value for e in elts]
        raise AssertionError(f"no Literal in {ast.dump(node)[:80]}")

    if attr == "alias":
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == cls:
                return literal(node.value)
        raise AssertionError(cls)
    owner, _, method = cls.partition(".")
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            for item in node.body:
                if method and isinstance(item, ast.FunctionDef) and item.name == method:
                    return literal(item.returns)
                if not method and isinstance(item, ast.AnnAssign) and item.target.id == attr:
                    return literal(item.annotation)
    raise AssertionError((cls, attr))


@pytest.mark.parametrize(("where", "table"), SPELLINGS.items(), ids=lambda v: str(v))
def test_stub_spellings_are_the_core_identifiers(where, table):
    assert stub_literal(*where) == list(TABLES[table])


def test_core_tables_are_exposed():
    assert "server::CancelReason" in TABLES and len(TABLES) >= 40
    assert all(isinstance(v, list) and v for v in TABLES.values())


def test_runtime_values_are_core_identifiers():
    m = ServerMachine(forward_unlisted_reads=True, declare_resources=True)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    req = {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "x://a", "_meta": meta}}
    assert m.handle_message(json.dumps(req).encode(), 0) in TABLES["server::Received"]
    ev = m.poll_output()
    assert ev.target in TABLES["server::ReadTarget"]
    m.handle_message(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}).encode(), 1)
    cancelled = m.poll_output()
    assert cancelled.reason in TABLES["server::CancelReason"]
    assert m.handle_message(b"nope", 2) in TABLES["server::Received"]
    assert m.poll_output().kind in TABLES["server::BodyKind"]
