"""Hostile servers cannot silence the client: whatever a server sends, ``ClientMachine.
poll_output()`` raises nothing outside ``McpContextError`` and every call ends (a result, or
``Failed`` with a typed ``McpError``); ``aio.Client`` raises ``McpError`` and keeps working."""

import asyncio
import json
import sys
from pathlib import Path

import pytest

from mcp_context import ClientMachine, ClientReply, Failed, McpError
from mcp_context.aio import Client

HOSTILE = Path(__file__).resolve().parent / "hostile_server.py"
BIG = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000


def drain(c):
    out = []
    while (o := c.poll_output()) is not None:
        out.append(o)
    return out


def connected() -> ClientMachine:
    c = ClientMachine("t", "1", request_timeout_ms=1000)
    c.connect(0)
    (probe,) = drain(c)
    result = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"resources": {}}, "ttlMs": 0, "cacheScope": "public"}
    c.handle_message(json.dumps({"jsonrpc": "2.0", "id": probe.id, "result": result}).encode(), 1)
    drain(c)
    return c


def read_with(body_for_id) -> list:
    c = connected()
    call = c.read_resource("x://1", 10)
    (t,) = drain(c)
    c.handle_message(body_for_id(t.id).encode(), 11)
    events = drain(c)  # must not raise
    if [type(e).__name__ for e in events] == ["ClientNotice"]:
        # The core refused the message itself (e.g. nesting past its bound): the call still
        # ends, at its deadline.
        assert events[0].kind == "peer_error"
        c.handle_timeout(5_000)
        events = [e for e in drain(c) if isinstance(e, Failed)]
        assert events[0].error.kind == "timeout"
    assert [e.call for e in events] == [call]
    return events


RESULT = '{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","contents":[{{"uri":"x://1","text":"t","_meta":{{"v":{v}}}}}]}}}}'


@pytest.mark.parametrize("value", [BIG, DEEP, "-" + BIG, "1e999999", BIG + ".5"])
def test_machine_unrepresentable_result_fails_the_call_typed(value):
    (ev,) = read_with(lambda i: RESULT.format(id=i, v=value))
    if isinstance(ev, ClientReply):  # representable after all (a float: inf)
        assert "contents" in ev.result
        return
    assert isinstance(ev, Failed) and isinstance(ev.error, McpError)
    assert ev.error.kind in ("invalid_result", "timeout") and ev.error.code is None


def test_machine_unrepresentable_error_data_fails_the_call_typed():
    body = '{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"m","data":{{"n":' + BIG + "}}}}}}"
    (ev,) = read_with(lambda i: body.format(id=i))
    assert isinstance(ev, Failed) and isinstance(ev.error, McpError)


def test_machine_big_integers_where_ids_are_expected():
    c = connected()
    c.read_resource("x://1", 10)
    drain(c)
    for raw in ('{"jsonrpc":"2.0","id":' + BIG + ',"result":{}}', '{"jsonrpc":"2.0","method":"notifications/x","params":{"n":' + BIG + "}}"):
        c.handle_message(raw.encode(), 11)
        drain(c)  # no exception, whatever the machine makes of it
    c.handle_timeout(5_000)
    (ev,) = [e for e in drain(c) if isinstance(e, Failed)]
    assert ev.error.kind == "timeout"


def test_aio_client_survives_a_hostile_server():
    async def main():
        async with Client.stdio([sys.executable, str(HOSTILE)], request_timeout_ms=1500) as c:
            for uri in ("x://bigint", "x://deep", "x://bigerror"):
                with pytest.raises(McpError):
                    await c.read_resource(uri)
            assert (await c.read_resource("x://garbage"))["contents"][0]["text"] == "ok"
            with pytest.raises(McpError) as err:
                await c.read_resource("x://silent")
            assert err.value.kind == "timeout"
            assert (await c.read_resource("x://ok"))["contents"][0]["text"] == "ok"

    asyncio.run(asyncio.wait_for(main(), 30))
