"""Every method through the machines: a ClientMachine talking to a ServerMachine in memory."""

import json

import pytest

from machines import Pair
from mcp_context import (
    Acknowledged,
    Cancelled,
    ClientReply,
    Complete,
    ConfigError,
    ErrorCode,
    Failed,
    GetPrompt,
    Handle,
    InputRequired,
    InvalidMessage,
    Listed,
    Notified,
    ReadResource,
    RegisterError,
    RespondError,
    ServerMachine,
    SubscriptionEnded,
    Transmit,
)

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def notes_server(**config):
    s = ServerMachine(server_info={"name": "notes", "version": "0.1"}, instructions="Notes.", **config)
    s.add_resource({"uri": "notes://static", "name": "static"}, [{"uri": "notes://static", "text": "stored"}],
                   cache={"ttlMs": 60000, "cacheScope": "public"})
    s.add_resource({"uri": "notes://dynamic", "name": "dynamic", "mimeType": "text/markdown"})
    s.add_template({"uriTemplate": "notes://projects/{project}/notes/{id}", "name": "note"},
                   completions={"project": ["alpha", "apollo", "beta"]})
    s.add_prompt({"name": "review", "arguments": [{"name": "uri", "required": True}, {"name": "tone"}]})
    return s


def app(server, ev):
    if isinstance(ev, ReadResource):
        if ev.target == "template":
            v = ev.variables
            server.respond_read(ev.handle, [{"uri": ev.uri, "text": f"note {v['id']} of {v['project']}"}])
        elif ev.uri == "notes://dynamic":
            server.respond_read(ev.handle, [{"uri": ev.uri, "mimeType": "text/markdown", "text": "# dyn"}])
        else:
            server.fail(ev.handle, "not_found")
    elif isinstance(ev, GetPrompt):
        server.respond_prompt(ev.handle, {"description": "Review", "messages": [
            {"role": "user", "content": {"type": "text", "text": f"Review {ev.arguments['uri']}"}}]})
    elif isinstance(ev, Complete):
        server.respond_completion(ev.handle, [v for v in ["x1", "x2", "y"] if v.startswith(ev.value)])


@pytest.fixture
def pair():
    return Pair(notes_server(), app=app)


def test_discover(pair):
    call, (ev,) = pair.call(lambda c, now: c.discover(now))
    assert isinstance(ev, ClientReply) and ev.kind == "discover"
    r = ev.result
    assert r["supportedVersions"] == ["2026-07-28"]
    assert r["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
    assert r["capabilities"]["prompts"] == {"listChanged": True}
    assert r["capabilities"]["completions"] == {}
    assert "tools" not in r["capabilities"]
    assert r["instructions"] == "Notes."
    assert r["_meta"]["io.modelcontextprotocol/serverInfo"] == {"name": "notes", "version": "0.1"}


def test_lists(pair):
    _, (ev,) = pair.call(lambda c, now: c.list_resources(now))
    assert isinstance(ev, Listed) and ev.kind == "resources"
    assert [r["uri"] for r in ev.pages[0]["resources"]] == ["notes://dynamic", "notes://static"]
    _, (ev,) = pair.call(lambda c, now: c.list_resource_templates(now))
    assert ev.pages[0]["resourceTemplates"][0]["uriTemplate"] == "notes://projects/{project}/notes/{id}"
    _, (ev,) = pair.call(lambda c, now: c.list_prompts(now))
    assert ev.pages[0]["prompts"][0]["name"] == "review"
    assert ev.pages[0]["ttlMs"] == 60000 and ev.pages[0]["cacheScope"] == "public"


def test_pagination_is_deterministic():
    s = ServerMachine(page_size=2)
    for i in (5, 3, 1, 4, 2):
        s.add_resource({"uri": f"notes://note-{i}", "name": f"note {i}"})
    p = Pair(s)
    _, (ev,) = p.call(lambda c, now: c.list_resources(now, all_pages=True))
    assert len(ev.pages) == 3
    assert [r["uri"] for page in ev.pages for r in page["resources"]] == [f"notes://note-{i}" for i in range(1, 6)]
    _, (first,) = p.call(lambda c, now: c.list_resources(now, refresh=True))
    assert first.next_cursor
    _, (second,) = p.call(lambda c, now: c.list_resources(now, cursor=first.next_cursor))
    assert [r["uri"] for r in second.pages[0]["resources"]] == ["notes://note-3", "notes://note-4"]
    _, (bad,) = p.call(lambda c, now: c.list_resources(now, cursor="bogus"))
    assert isinstance(bad, Failed) and bad.error.code == ErrorCode.INVALID_PARAMS


def test_reads(pair):
    _, (ev,) = pair.call(lambda c, now: c.read_resource("notes://static", now))
    assert ev.result["contents"] == [{"uri": "notes://static", "text": "stored"}]
    assert (ev.result["ttlMs"], ev.result["cacheScope"]) == (60000, "public")
    assert not pair.server_events  # stored contents: the machine answered itself
    _, (ev,) = pair.call(lambda c, now: c.read_resource("notes://dynamic", now))
    assert ev.result["contents"][0]["text"] == "# dyn"
    assert (ev.result["ttlMs"], ev.result["cacheScope"]) == (0, "private")  # the default
    (read,) = pair.server_events
    assert (read.target, read.template, read.auth) == ("resource", None, 0)
    assert isinstance(read.handle, Handle) and int(read.handle) >= 0
    _, (ev,) = pair.call(lambda c, now: c.read_resource("notes://projects/alpha/notes/7", now))
    assert ev.result["contents"][0]["text"] == "note 7 of alpha"
    tpl = pair.server_events[-1]
    assert tpl.target == "template" and tpl.template == "notes://projects/{project}/notes/{id}"
    assert tpl.variables == {"project": "alpha", "id": "7"}


def test_not_found_carries_the_uri(pair):
    _, (ev,) = pair.call(lambda c, now: c.read_resource("notes://missing", now))
    assert isinstance(ev, Failed)
    assert (ev.error.code, ev.error.data) == (ErrorCode.INVALID_PARAMS, {"uri": "notes://missing"})


def test_prompt_and_completion(pair):
    _, (ev,) = pair.call(lambda c, now: c.get_prompt("review", now, {"uri": "notes://static"}))
    assert ev.kind == "prompt" and ev.result["messages"][0]["content"]["text"] == "Review notes://static"
    (gp,) = pair.server_events
    assert gp.arguments == {"uri": "notes://static"} and gp.name == "review"
    _, (ev,) = pair.call(lambda c, now: c.get_prompt("review", now))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS  # required uri
    _, (ev,) = pair.call(lambda c, now: c.get_prompt("nope", now, {"uri": "x"}))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS
    ref = {"type": "ref/resource", "uri": "notes://projects/{project}/notes/{id}"}
    _, (ev,) = pair.call(lambda c, now: c.complete(ref, {"name": "project", "value": "a"}, now))
    assert ev.kind == "completion" and ev.result["completion"]["values"] == ["alpha", "apollo"]


def test_completion_events():
    p = Pair(notes_server(completion_events=True), app=app)
    ref = {"type": "ref/prompt", "name": "review"}
    _, (ev,) = p.call(lambda c, now: c.complete(ref, {"name": "tone", "value": "x"}, now, {"arguments": {"uri": "u"}}))
    assert ev.result["completion"]["values"] == ["x1", "x2"]
    (cp,) = p.server_events
    assert (cp.prompt, cp.template, cp.argument, cp.value, cp.context) == ("review", None, "tone", "x", {"uri": "u"})


def test_listen_ack_events_and_shutdown(pair):
    f = {"resourcesListChanged": True, "promptsListChanged": True, "resourceSubscriptions": ["notes://dynamic"]}
    call, evs = pair.call(lambda c, now: c.listen(f, now))
    (ack,) = evs
    assert isinstance(ack, Acknowledged) and ack.honoured == f and ack.refused == {}
    pair.server.resource_updated("notes://dynamic")
    pair.server.prompts_list_changed()
    evs = pair.pump()
    assert [(e.subscription, e.method, e.uri) for e in evs if isinstance(e, Notified)] == [
        (call, "notifications/resources/updated", "notes://dynamic"),
        (call, "notifications/prompts/list_changed", None),
    ]
    assert pair.server.subscriptions == 1
    pair.server.shutdown()
    evs = pair.pump()
    ended = [e for e in evs if isinstance(e, SubscriptionEnded)]
    assert [(e.call, e.reason) for e in ended] == [(call, "graceful")]


def test_input_required_with_sealed_state():
    s = notes_server(state_keys=[(1, b"k" * 32)])
    rounds = []

    def mrtr(server, ev):
        if isinstance(ev, ReadResource) and ev.retry is None:
            assert "elicitation.form" in ev.capabilities
            server.respond_input_required(ev.handle, {"ok": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Confirm?", "requestedSchema": {"type": "object", "properties": {}}}}},
                state=b"step-1")
        elif isinstance(ev, ReadResource):
            rounds.append((ev.retry.state, ev.retry.input_responses))
            server.respond_read(ev.handle, [{"uri": ev.uri, "text": "confirmed"}])

    from mcp_context import ClientMachine
    p = Pair(s, ClientMachine("h", "1", capabilities={"elicitation": {"form": {}}}), app=mrtr)
    call, (ev,) = p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    assert isinstance(ev, InputRequired) and ev.requests["ok"]["method"] == "elicitation/create"
    p.client.respond_input(call, {"ok": {"action": "accept", "content": {}}}, p.now)
    (done,) = [e for e in p.pump() if getattr(e, "call", None) == call]
    assert done.result["contents"][0]["text"] == "confirmed"
    assert rounds == [(b"step-1", {"ok": {"action": "accept", "content": {}}})]


def test_input_required_needs_the_capability():
    def mrtr(server, ev):
        with pytest.raises(RespondError) as info:
            server.respond_input_required(ev.handle, {"r": {"method": "roots/list"}})
        assert info.value.kind == "client_lacks_capability"

    p = Pair(notes_server(), app=mrtr)
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY


@pytest.mark.parametrize(
    ("reason", "message", "code", "expected"),
    [
        ("invalid_params", "bad id", None, (-32602, "bad id")),
        ("internal", None, None, (-32603, None)),
        ("application", "quota", 42, (42, "quota")),
        ("application", "reserved", -32001, (-32603, None)),
    ],
)
def test_fail_variants(reason, message, code, expected):
    def failing(server, ev):
        server.fail(ev.handle, reason, message, code=code)

    p = Pair(notes_server(), app=failing)
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    assert ev.error.code == expected[0]
    if expected[1]:
        assert ev.error.message == expected[1]


def test_respond_errors_and_timeouts():
    s = notes_server(request_timeout_ms=50)
    p = Pair(s)
    p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    (ev,) = p.server_events
    with pytest.raises(InvalidMessage) as info:
        s.respond_read(ev.handle, [{"uri": "notes://dynamic"}])  # neither text nor blob
    assert info.value.code == ErrorCode.INVALID_PARAMS
    with pytest.raises(ValueError):
        s.fail(ev.handle, "teapot")
    assert s.pending_requests == 1
    assert s.poll_timeout() == p.now + 50
    s.handle_timeout(p.now + 50)
    out = []
    while (o := s.poll_output()) is not None:
        out.append(o)
    assert any(isinstance(o, Cancelled) and o.reason == "timed_out" for o in out)
    err = next(json.loads(o.bytes) for o in out if isinstance(o, Transmit))
    assert err["error"]["code"] == ErrorCode.INTERNAL_ERROR
    with pytest.raises(RespondError) as info:
        s.respond_read(ev.handle, [])
    assert (info.value.kind, info.value.late) == ("unknown_handle", True)
    # The wrong kind of answer is refused and the core fails the request with -32603 itself.
    p.server_events.clear()
    p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    (ev,) = p.server_events
    with pytest.raises(RespondError) as info:
        s.respond_prompt(ev.handle, {"messages": []})
    assert (info.value.kind, info.value.late) == ("wrong_kind", False)
    assert s.pending_requests == 0
    out = []
    while (o := s.poll_output()) is not None:
        out.append(o)
    (err,) = [json.loads(o.bytes) for o in out if isinstance(o, Transmit)]
    assert err["error"]["code"] == ErrorCode.INTERNAL_ERROR


def test_client_cancel_reaches_the_server():
    p = Pair(notes_server())
    call, _ = p.call(lambda c, now: c.read_resource("notes://dynamic", now))
    p.client.cancel(call, p.now, "user")
    p.pump()
    assert any(isinstance(e, Cancelled) and e.reason == "client" for e in p.server_events)


def test_registration_errors():
    s = notes_server()
    with pytest.raises(RegisterError) as info:
        s.add_resource({"uri": "notes://static", "name": "again"})
    assert info.value.kind == "duplicate"
    with pytest.raises(InvalidMessage) as info:
        s.add_resource({"uri": "notes://x"})  # name is required
    assert info.value.code == ErrorCode.INVALID_PARAMS and "name" in str(info.value)
    with pytest.raises(RegisterError) as info:
        s.add_template({"uriTemplate": "notes://{a", "name": "t"})
    assert info.value.kind == "invalid_template"
    with pytest.raises(RegisterError) as info:
        s.add_prompt({"name": "p2"}, completions={"nope": ["x"]})
    assert info.value.kind == "unknown_argument"
    with pytest.raises(InvalidMessage):
        s.add_resource({"uri": "notes://y", "name": "y"}, cache={"ttlMs": 1})
    with pytest.raises(InvalidMessage):
        s.add_resource({"uri": "notes://z", "name": "z"}, contents=[{"uri": "notes://z", "text": float("nan")}])
    assert s.remove_resource("notes://static") and not s.remove_resource("notes://static")
    assert s.remove_template("notes://projects/{project}/notes/{id}")
    assert s.remove_prompt("review")
    assert s.set_resource_contents("notes://dynamic", [{"uri": "notes://dynamic", "text": "now stored"}])
    assert not s.set_resource_contents("notes://nope", None)
    with pytest.raises(ConfigError):
        ServerMachine(page_size=0)
    with pytest.raises(ConfigError):
        ServerMachine(state_keys=[(1, b"short")])
    with pytest.raises(InvalidMessage):
        ServerMachine(server_info={"name": "x"})  # version is required


def test_visibility_per_auth():
    s = notes_server()
    s.set_visibility(lambda auth, kind, key: auth == 1 or key != "notes://static")
    alice = Pair(s, app=app, auth=1)
    _, (ev,) = alice.call(lambda c, now: c.list_resources(now))
    assert [r["uri"] for r in ev.pages[0]["resources"]] == ["notes://dynamic", "notes://static"]
    assert ev.pages[0]["cacheScope"] == "private"
    bob = Pair(s, app=app, auth=2)
    _, (ev,) = bob.call(lambda c, now: c.list_resources(now))
    assert [r["uri"] for r in ev.pages[0]["resources"]] == ["notes://dynamic"]
    _, (ev,) = bob.call(lambda c, now: c.read_resource("notes://static", now))
    assert isinstance(ev, Failed) and ev.error.data == {"uri": "notes://static"}


def test_raw_wire_errors():
    s = ServerMachine(declare_resources=True)
    assert s.handle_message(b"{", 0) == "invalid"
    assert json.loads(s.poll_output().bytes)["error"]["code"] == ErrorCode.PARSE_ERROR
    req = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}
    assert s.handle_message(json.dumps(req).encode(), 0, stream=7, transport="http") == "request"
    t = s.poll_output()
    assert (t.stream, t.http_status, t.kind, t.end_of_stream) == (7, 404, "json", True)
    note = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}
    assert s.handle_message(json.dumps(note).encode(), 0) == "notification"
    with pytest.raises(ValueError):
        s.handle_message(b"{}", 0, transport="pigeon")


def test_outputs_have_readable_reprs(pair):
    _, (ev,) = pair.call(lambda c, now: c.read_resource("notes://dynamic", now))
    assert repr(ev).startswith("ClientReply(kind='read', call=") and "'# dyn'" in repr(ev)
    (read,) = pair.server_events
    assert repr(read).startswith("ReadResource(handle=Handle(") and "uri='notes://dynamic'" in repr(read)
