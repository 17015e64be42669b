"""``App`` in process (``App.runtime()`` wired to a ``ClientMachine``): decorators, argument
conversion and validation, completion callables and the completion handler, vendor methods,
error mapping, schemas from type hints."""

import enum
import json
from typing import Annotated, Literal

import pytest

from machines import Pair
from mcp_context import ClientReply, Failed
from mcp_context.server import App, InvalidParams, McpError, NotFound

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def build() -> App:
    app = App("t", "1.0")

    @app.resource("t://n/{n}", complete={"n": lambda value: [v for v in ("10", "11", "20") if v.startswith(value)]})
    def number(n: int) -> dict:
        if n < 0:
            raise NotFound()
        return {"double": n * 2}

    @app.resource("t://c/{name}", complete={"name": ["alpha", "beta"]})
    def named(name: str) -> bytes:
        return name.encode()

    @app.prompt()
    def paint(shade: Color, note: Annotated[str, "a note"] = "", mode: Literal["a", "b"] | None = None) -> str:
        return f"{shade.value} {note} {mode}"

    @app.completion()
    def fallback(ref, argument, context):
        return {"values": [f"{ref['type']}:{argument['name']}:{argument['value']}"]}

    @app.method("acme/echo")
    def echo(params):
        return {"echo": params.get("x")}

    @app.tool()
    def add(a: int, b: int = 1, tags: list[str] | None = None, shade: Color = Color.RED) -> dict:
        return {"sum": a + b}

    @app.resource("t://fail/{how}")
    def fail(how: str) -> str:
        raise {"params": InvalidParams("no"), "app": McpError("teapot", 1001)}[how]

    return app


def pair(app: App) -> Pair:
    rt = app.runtime()
    return Pair(rt.machine, app=lambda server, ev: rt.dispatch(ev))


def test_template_args_converted_and_json_result():
    p = pair(build())
    _, (ev,) = p.call(lambda c, now: c.read_resource("t://n/21", now))
    assert json.loads(ev.result["contents"][0]["text"]) == {"double": 42}
    assert ev.result["contents"][0]["mimeType"] == "application/json"
    _, (ev,) = p.call(lambda c, now: c.read_resource("t://n/x", now))
    assert isinstance(ev, Failed) and ev.error.code == -32602
    _, (ev,) = p.call(lambda c, now: c.read_resource("t://n/-1", now))
    assert isinstance(ev, Failed) and ev.error.data == {"uri": "t://n/-1"}
    _, (ev,) = p.call(lambda c, now: c.read_resource("t://c/beta", now))
    assert ev.result["contents"][0]["blob"] == "YmV0YQ=="


def test_prompt_arguments_from_the_signature_and_enum_validation():
    p = pair(build())
    _, (ev,) = p.call(lambda c, now: c.list_prompts(now))
    (prompt,) = ev.pages[0]["prompts"]
    assert prompt["arguments"] == [
        {"name": "shade", "required": True},
        {"name": "note", "required": False, "description": "a note"},
        {"name": "mode", "required": False},
    ]
    _, (ev,) = p.call(lambda c, now: c.get_prompt("paint", now, {"shade": "blue", "mode": "b"}))
    assert ev.result["messages"][0]["content"]["text"] == "blue  b"
    _, (ev,) = p.call(lambda c, now: c.get_prompt("paint", now, {"shade": "green"}))
    assert isinstance(ev, Failed) and ev.error.code == -32602 and "red, blue" in ev.error.message


def test_completions_values_callables_and_handler():
    p = pair(build())

    def complete(ref, name, value):
        _, (ev,) = p.call(lambda c, now: c.complete(ref, {"name": name, "value": value}, now))
        assert isinstance(ev, ClientReply), ev
        return ev.result["completion"]["values"]

    assert complete({"type": "ref/resource", "uri": "t://n/{n}"}, "n", "1") == ["10", "11"]
    assert complete({"type": "ref/resource", "uri": "t://c/{name}"}, "name", "a") == ["alpha"]
    assert complete({"type": "ref/prompt", "name": "paint"}, "shade", "b") == ["blue"]
    assert complete({"type": "ref/prompt", "name": "paint"}, "note", "x") == ["ref/prompt:note:x"]


def test_vendor_method_tools_and_errors():
    app = build()
    p = pair(app)
    rt = app.runtime()
    wire = []
    rt.host.sinks[0] = lambda t: wire.append(json.loads(t.bytes))

    def call(method, params):
        rt.machine.handle_message(json.dumps({"jsonrpc": "2.0", "id": len(wire) + 1, "method": method, "params": {**params, "_meta": META}}).encode(), 0)
        rt.host.drain()
        return wire[-1]

    assert call("acme/echo", {"x": 5})["result"]["echo"] == 5
    tools = call("tools/list", {})["result"]["tools"]
    assert tools[0]["inputSchema"] == {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "integer"},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "shade": {"enum": ["red", "blue"]},
        },
        "required": ["a"],
    }
    assert call("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})["result"]["structuredContent"] == {"sum": 5}
    # The core's tool rules: a missing required argument is a tool error the model sees
    # (isError), an unknown tool a protocol error.
    missing = call("tools/call", {"name": "add", "arguments": {}})["result"]
    assert missing["isError"] is True and missing["content"][0]["text"] == "Missing required argument: a"
    assert call("tools/call", {"name": "nope", "arguments": {}})["error"]["code"] == -32602
    assert call("server/discover", {})["result"]["capabilities"]["tools"] == {"listChanged": True}
    assert call("resources/read", {"uri": "t://fail/params"})["error"]["code"] == -32602
    assert call("resources/read", {"uri": "t://fail/app"})["error"]["code"] == 1001
    del p


def test_a_missing_handler_is_the_cores_not_found():
    """Registered on the machine, no handler in the App (docs/rules.md §20.4 rule 4): each
    kind gets the core's not-found answer, never one Python words itself."""
    app = build()
    rt = app.runtime()
    wire = []
    rt.host.sinks[0] = lambda t: wire.append(json.loads(t.bytes))

    def call(method, params):
        rt.machine.handle_message(json.dumps({"jsonrpc": "2.0", "id": len(wire) + 1, "method": method, "params": {**params, "_meta": META}}).encode(), 0)
        rt.host.drain()
        return wire[-1]["error"]

    rt.machine.add_prompt({"name": "orphan"})
    rt.machine.add_tool({"name": "orphan", "inputSchema": {"type": "object"}})
    rt.machine.add_resource({"uri": "t://orphan", "name": "orphan"})
    rt.machine.add_method("acme/orphan")
    assert call("prompts/get", {"name": "orphan"}) == {"code": -32602, "message": "Unknown prompt"}
    assert call("tools/call", {"name": "orphan", "arguments": {}}) == {"code": -32602, "message": "Unknown tool"}
    assert call("resources/read", {"uri": "t://orphan"})["data"] == {"uri": "t://orphan"}
    assert call("acme/orphan", {}) == {"code": -32602, "message": "Not found"}


def test_decorator_misuse_is_caught_at_registration():
    app = App("t")
    with pytest.raises(TypeError):
        app.resource(lambda: "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        app.resource("t://{a}")(lambda b: b)
    with pytest.raises(ValueError):
        app.resource("t://static")(lambda x: x)
