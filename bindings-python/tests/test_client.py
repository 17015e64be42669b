"""ClientMachine against scripted server answers: negotiation, results as dicts, cache,
errors as McpError, input_required, subscriptions. (tests/test_machines.py drives it against
the ServerMachine.)"""

import json

import pytest

from mcp_context import (
    Acknowledged,
    ClientError,
    ClientMachine,
    ClientNotice,
    ClientReply,
    ClientTransmit,
    CloseStream,
    ConfigError,
    Connected,
    ErrorCode,
    Failed,
    InputRequired,
    Listed,
    McpError,
    Notified,
    SubscriptionEnded,
)

DISCOVER = {
    "resultType": "complete",
    "supportedVersions": ["2026-07-28"],
    "capabilities": {"resources": {"subscribe": True, "listChanged": True}, "prompts": {}},
    "ttlMs": 0,
    "cacheScope": "public",
}


def drain(c):
    out = []
    while (o := c.poll_output()) is not None:
        out.append(o)
    return out


def answer(c, id, result, now=1):
    c.handle_message(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}).encode(), now)
    return drain(c)


def connected(**kw):
    c = ClientMachine("test", "1.0", **kw)
    c.connect(0)
    (probe,) = drain(c)
    assert isinstance(probe, ClientTransmit) and probe.method == "server/discover"
    msg = json.loads(probe.bytes)
    assert msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    (ev,) = answer(c, probe.id, DISCOVER)
    assert isinstance(ev, Connected)
    assert (ev.era, ev.version) == ("modern", "2026-07-28")
    assert ev.features["resources_subscribe"] and ev.features["prompts"] and not ev.features["completions"]
    assert ev.handshake["supportedVersions"] == ["2026-07-28"]
    assert c.protocol_version == "2026-07-28"
    return c


def test_read_result_is_a_dict_and_cached():
    c = connected()
    call = c.read_resource("notes://1", 10)
    (t,) = drain(c)
    assert (t.method, t.name, t.protocol_version) == ("resources/read", "notes://1", "2026-07-28")
    assert b"\n" not in t.bytes
    result = {"resultType": "complete", "contents": [{"uri": "notes://1", "text": "hi"}], "ttlMs": 60000, "cacheScope": "private"}
    (ev,) = answer(c, t.id, result, now=11)
    assert isinstance(ev, ClientReply)
    assert (ev.kind, ev.call, ev.from_cache) == ("read", call, False)
    assert ev.result["contents"] == [{"uri": "notes://1", "text": "hi"}]
    assert c.read_cached("notes://1", 12)["contents"][0]["text"] == "hi"
    again = c.read_resource("notes://1", 13)
    (ev,) = drain(c)
    assert (ev.call, ev.from_cache) == (again, True)
    c.set_auth_context(42)  # private entries belong to the context that fetched them
    assert c.read_cached("notes://1", 14) is None


def test_not_found_is_an_mcp_error_with_data():
    c = connected()
    call = c.read_resource("notes://missing", 10)
    (t,) = drain(c)
    err = {"code": -32602, "message": "Resource not found", "data": {"uri": "notes://missing"}}
    c.handle_message(json.dumps({"jsonrpc": "2.0", "id": t.id, "error": err}).encode(), 11)
    (ev,) = drain(c)
    assert isinstance(ev, Failed) and ev.call == call
    assert isinstance(ev.error, McpError)
    assert (ev.error.kind, ev.error.code, ev.error.data) == ("server", ErrorCode.INVALID_PARAMS, {"uri": "notes://missing"})
    with pytest.raises(McpError):
        raise ev.error


def test_invalid_result_fails_the_call():
    c = connected()
    c.read_resource("notes://1", 10)
    (t,) = drain(c)
    (ev,) = answer(c, t.id, {"resultType": "complete", "contents": "nope"})
    assert isinstance(ev, Failed) and ev.error.kind == "invalid_result" and ev.error.code is None


def test_pages_and_timeout():
    c = connected(request_timeout_ms=100)
    call = c.list_resources(10, all_pages=True)
    (t,) = drain(c)
    page = {"resultType": "complete", "resources": [{"uri": "a://1", "name": "one"}], "nextCursor": "c2", "ttlMs": 0, "cacheScope": "public"}
    (t2,) = answer(c, t.id, page)
    assert json.loads(t2.bytes)["params"]["cursor"] == "c2"
    last = {**page, "resources": [{"uri": "a://2", "name": "two"}]}
    del last["nextCursor"]
    (ev,) = answer(c, t2.id, last)
    assert isinstance(ev, Listed) and (ev.kind, ev.call, ev.truncated, ev.next_cursor) == ("resources", call, False, None)
    assert [p["resources"][0]["uri"] for p in ev.pages] == ["a://1", "a://2"]
    c.get_prompt("p", 20, {"a": "1"})
    drain(c)
    deadline = c.poll_timeout()
    assert deadline == 120
    c.handle_timeout(deadline)
    evs = drain(c)
    assert isinstance(evs[-1], Failed) and evs[-1].error.kind == "timeout"


def test_input_required_round_trip():
    c = connected(capabilities={"elicitation": {}})
    call = c.read_resource("notes://secret", 10)
    (t,) = drain(c)
    ir = {
        "resultType": "input_required",
        "inputRequests": {"pw": {"method": "elicitation/create", "params": {"mode": "form", "message": "Password?", "requestedSchema": {"type": "object", "properties": {}}}}},
        "requestState": "opaque-1",
    }
    (ev,) = answer(c, t.id, ir)
    assert isinstance(ev, InputRequired) and (ev.call, ev.round) == (call, 1)
    assert ev.requests["pw"]["method"] == "elicitation/create"
    with pytest.raises(ClientError) as info:
        c.respond_input(call, {"other": {}}, 11)
    assert info.value.kind == "unexpected_input_response"
    c.respond_input(call, {"pw": {"action": "accept", "content": {}}}, 11)
    (retry,) = drain(c)
    params = json.loads(retry.bytes)["params"]
    assert params["requestState"] == "opaque-1" and params["inputResponses"]["pw"]["action"] == "accept"
    assert retry.id != t.id


def test_listen_ack_notification_and_graceful_end():
    c = connected()
    call = c.listen({"resourcesListChanged": True, "promptsListChanged": True, "resourceSubscriptions": ["notes://1"]}, 10)
    (t,) = drain(c)
    assert json.loads(t.bytes)["params"]["notifications"]["resourceSubscriptions"] == ["notes://1"]
    meta = {"io.modelcontextprotocol/subscriptionId": t.id}
    ack = {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": meta, "notifications": {"resourcesListChanged": True, "resourceSubscriptions": ["notes://1"]}}}
    c.handle_message(json.dumps(ack).encode(), 11)
    (ev,) = drain(c)
    assert isinstance(ev, Acknowledged) and ev.call == call
    assert ev.refused == {"promptsListChanged": True}
    upd = {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": meta, "uri": "notes://1"}}
    c.handle_message(json.dumps(upd).encode(), 12)
    (ev,) = drain(c)
    assert isinstance(ev, Notified) and (ev.subscription, ev.method, ev.uri) == (call, "notifications/resources/updated", "notes://1")
    (ev,) = answer(c, t.id, {"resultType": "complete", "_meta": meta})
    assert isinstance(ev, SubscriptionEnded) and (ev.call, ev.reason, ev.filter) == (call, "graceful", None)


def test_close_ends_subscriptions_with_the_filter():
    c = connected()
    call = c.listen({"resourcesListChanged": True}, 10)
    drain(c)
    c.handle_close(11)
    evs = drain(c)
    ended = [e for e in evs if isinstance(e, SubscriptionEnded)]
    assert ended and ended[0].call == call and ended[0].reason == "unexpected_close"
    assert ended[0].filter == {"resourcesListChanged": True}


def test_http_cancel_closes_the_stream():
    c = connected(transport="http")
    call = c.read_resource("notes://1", 10)
    (t,) = drain(c)
    c.cancel(call, 11)
    (ev,) = drain(c)
    assert isinstance(ev, CloseStream) and ev.id == t.id
    with pytest.raises(ClientError) as info:
        c.cancel(call, 12)
    assert info.value.kind == "unknown_call"


def test_garbage_and_unknown_ids_are_notices():
    c = connected()
    c.handle_message(b"not json", 5)
    (ev,) = drain(c)
    assert isinstance(ev, ClientNotice) and ev.kind == "peer_error"
    c.handle_message(b'{"jsonrpc":"2.0","id":999,"result":{}}', 5)
    (ev,) = drain(c)
    assert isinstance(ev, ClientNotice) and (ev.kind, ev.id) == ("unknown_response", 999)


def test_config_and_input_errors():
    with pytest.raises(ConfigError):
        ClientMachine("x", "1", capabilities=[1, 2])
    with pytest.raises(ValueError):
        ClientMachine("x", "1", transport="carrier pigeon")
    c = ClientMachine("x", "1")
    with pytest.raises(ValueError):
        c.listen({"resourcesListChanged": "yes"}, 0)
    with pytest.raises(ValueError):
        c.complete({"type": "ref/tool", "name": "x"}, {"name": "a", "value": ""}, 0)


def test_forget_read_drops_cached_results():
    c = connected()
    c.read_resource("notes://1", 10)
    (t,) = drain(c)
    answer(c, t.id, {"resultType": "complete", "contents": [{"uri": "notes://1", "text": "hi"}], "ttlMs": 60000, "cacheScope": "public"})
    assert c.read_cached("notes://1", 12) is not None
    assert c.forget_read("notes://1") == 1
    assert c.read_cached("notes://1", 12) is None
    assert c.forget_read("notes://1") == 0
