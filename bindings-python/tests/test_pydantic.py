"""Pydantic models from ``mcp.types`` (mcp==2.3.0's ``mcp_types``) are accepted wherever the
API takes a dict in the spec's shape: registration, answers, client calls, handler results."""

import asyncio
import json

import pytest

mcp_types = pytest.importorskip("mcp_types")

from machines import Pair  # noqa: E402
from mcp_context import ClientReply, ServerMachine  # noqa: E402
from mcp_context.server import App  # noqa: E402


def test_machine_takes_pydantic_models():
    m = ServerMachine()
    m.add_resource(
        mcp_types.Resource(uri="x://a", name="a", mime_type="text/plain"),
        [mcp_types.TextResourceContents(uri="x://a", text="hello", mime_type="text/plain")],
    )
    m.add_prompt(mcp_types.Prompt(name="p", arguments=[mcp_types.PromptArgument(name="q", required=True)]), {"q": ["why", "what", "how"]})

    def app(server, ev):
        server.respond_prompt(
            ev.handle,
            mcp_types.GetPromptResult(messages=[mcp_types.PromptMessage(role="user", content=mcp_types.TextContent(type="text", text=ev.arguments["q"]))]),
        )

    p = Pair(m, app=app)
    _, (read,) = p.call(lambda c, now: c.read_resource("x://a", now))
    assert isinstance(read, ClientReply) and read.result["contents"][0] == {"uri": "x://a", "mimeType": "text/plain", "text": "hello"}
    _, (got,) = p.call(lambda c, now: c.get_prompt("p", now, {"q": "why"}))
    assert got.result["messages"][0]["content"]["text"] == "why"
    ref = mcp_types.PromptReference(type="ref/prompt", name="p")
    arg = mcp_types.CompletionArgument(name="q", value="wh")
    _, (done,) = p.call(lambda c, now: c.complete(ref, arg, now))
    assert done.result["completion"]["values"] == ["why", "what"]


def test_handlers_may_return_pydantic_models():
    app = App("t")

    @app.resource("x://doc")
    def doc():
        return mcp_types.TextResourceContents(uri="x://doc", text="from a model", mime_type="text/plain")

    @app.prompt()
    def ask(topic: str):
        return [mcp_types.PromptMessage(role="user", content=mcp_types.TextContent(type="text", text=topic))]

    async def main():
        rt = app.runtime()
        wire = []
        rt.host.sinks[0] = lambda t: wire.append(json.loads(t.bytes))
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        for i, (method, params) in enumerate([("resources/read", {"uri": "x://doc"}), ("prompts/get", {"name": "ask", "arguments": {"topic": "t"}})]):
            rt.machine.handle_message(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": {**params, "_meta": meta}}).encode(), 0)
            rt.host.drain()
        return wire

    read, prompt = asyncio.run(main())
    assert read["result"]["contents"] == [{"uri": "x://doc", "mimeType": "text/plain", "text": "from a model"}]
    assert prompt["result"]["messages"] == [{"role": "user", "content": {"type": "text", "text": "t"}}]
