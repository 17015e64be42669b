"""The notes server (on ``App``) over real transports, driven by ``mcp_context.aio.Client``: a
full stdio session, and Streamable HTTP (JSON, SSE, 405, Host and header checks, bearer-token
subjects, the host-side no-store policy of exercise (c))."""

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest

from mcp_context import ErrorCode, McpError
from mcp_context.aio import Client, NoStore
from servers import http_server, stdio_command


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


async def session(c: Client) -> None:
    discover = await c.discover()
    assert discover["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
    assert c.machine.protocol_version == "2026-07-28"
    resources = await c.list_resources()  # page size 3, seven notes: three pages, walked
    assert [r["uri"] for r in resources] == [f"notes://note-{i}" for i in range(1, 8)]
    note = await c.read_resource("notes://note-1")
    assert note["contents"][0]["text"].startswith("# Welcome")
    with pytest.raises(McpError) as info:
        await c.read_resource("notes://missing")
    assert (info.value.code, info.value.data) == (ErrorCode.INVALID_PARAMS, {"uri": "notes://missing"})
    with pytest.raises(McpError) as info:
        await c.read_resource("notes://projects/apollo/notes/0x1")
    assert info.value.code == ErrorCode.INVALID_PARAMS
    prompt = await c.get_prompt("review_note", {"uri": "notes://note-2"})
    assert prompt["messages"][1]["content"]["resource"]["uri"] == "notes://note-2"
    # (d) and (e): two listens at once; the one without promptsListChanged never sees prompts.
    async with c.listen(resource_subscriptions=["notes://note-3"]) as a, c.listen(
        prompts_list_changed=True, resource_subscriptions=["notes://note-3"]
    ) as b:
        assert a.call != b.call
        got_a = [await a.__anext__() for _ in range(2)]
        got_b = [await b.__anext__() for _ in range(4)]
    assert {(e.subscription, e.method) for e in got_a} == {(a.call, "notifications/resources/updated")}
    assert {e.subscription for e in got_b} == {b.call}
    assert {e.method for e in got_b} == {"notifications/resources/updated", "notifications/prompts/list_changed"}
    updated = await c.read_resource("notes://note-3")  # first read in this session: from the server
    assert "\nUpdate 1." in updated["contents"][0]["text"]


def test_full_stdio_session():
    async def main():
        async with Client.stdio(stdio_command("--tick-ms", "50")) as c:
            await session(c)

    run(main())


def test_full_http_session():
    with http_server("--tick-ms", "50") as url:

        async def main():
            async with Client.http(url) as c:
                await session(c)

        run(main())


def post(url, body: bytes, headers: dict[str, str]):
    req = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def test_http_status_rules():
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    read = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"_meta": meta, "uri": "notes://note-1"}}).encode()
    good = {"Content-Type": "application/json", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": "notes://note-1"}
    with http_server() as url:
        status, headers, body = post(url, read, good)
        assert status == 200 and headers.get_content_type() == "application/json"
        assert json.loads(body)["result"]["contents"][0]["uri"] == "notes://note-1"
        status, _, body = post(url, read, {**good, "Mcp-Name": "notes://note-2"})
        assert status == 400 and json.loads(body)["error"]["code"] == ErrorCode.HEADER_MISMATCH
        status, _, _ = post(url, read, {**good, "Host": "evil.example"})
        assert status == 403
        status, _, _ = post(url, read, {**good, "Origin": "http://evil.example"})
        assert status == 403
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}).encode()
        status, _, body = post(url, note, {**good, "Mcp-Method": "notifications/cancelled"})
        assert (status, body) == (202, b"")
        tools = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}).encode()
        status, _, body = post(url, tools, {**good, "Mcp-Method": "tools/list"})
        assert status == 404 and json.loads(body)["error"]["code"] == ErrorCode.METHOD_NOT_FOUND
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(url, timeout=10)
        assert info.value.code == 405


def test_c_host_no_store_policy_and_f_subjects_over_http():
    with http_server() as url:

        async def main():
            alice = await Client.http(url, headers={"Authorization": "Bearer alice-token"}, no_store=NoStore(r"notes://note-[12]"))
            first = await alice.read_resource_reply("notes://note-1")  # public, ttl 60 s
            again = await alice.read_resource_reply("notes://note-1")
            assert first.result["cacheScope"] == "public" and first.result["ttlMs"] == 60000
            assert again.from_cache is False  # the host policy overrides the server's hints
            assert alice.machine.read_cached("notes://note-1", now_ms()) is None  # and keeps nothing
            await alice.read_resource_reply("notes://note-4")  # not in the policy: served from cache
            cached = await alice.read_resource_reply("notes://note-4")
            assert cached.from_cache is True
            assert alice.machine.read_cached("notes://note-4", now_ms()) is not None  # others stay
            diary = await alice.read_resource("notes://note-6")
            assert diary["contents"][0]["text"] == "Dear diary..." and diary["cacheScope"] == "private"
            bob = await Client.http(url, headers={"Authorization": "Bearer bob-token"})
            with pytest.raises(McpError) as info:
                await bob.read_resource("notes://note-6")
            assert info.value.code == ErrorCode.INVALID_PARAMS
            payroll = await bob.read_resource("notes://note-7")
            assert (payroll["ttlMs"], payroll["cacheScope"]) == (0, "private")
            await alice.close()
            await bob.close()

        run(main())
