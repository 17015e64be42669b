"""Drives the Swift binding's C ABI through uniffi's Python backend (same scaffolding symbols,
same lowering/lifting of records, enums, errors and objects), without a Swift toolchain.

Run by scripts/swift-test.sh; the generated module and the cdylib are in UNIFFI_PY_DIR
(default: target/uniffi/python, written by scripts/uniffi-gen.sh).
"""

import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, os.environ.get("UNIFFI_PY_DIR", str(ROOT / "target" / "uniffi" / "python")))

import mcp_context_ffi as m  # noqa: E402

VECTORS = ROOT / "tests" / "vectors" / "rfc6570"
SUITE = ["spec-examples.json", "spec-examples-by-section.json", "extended-tests.json", "negative-tests.json"]


def scalar(v):
    return v if isinstance(v, str) else json.dumps(v)


def to_value(v):
    if isinstance(v, list):
        return m.TemplateValue.LIST([scalar(x) for x in v])
    if isinstance(v, dict):  # json keeps the file's order, which expansion must keep too
        return m.TemplateValue.DICT([m.TemplatePair(key=k, value=scalar(x)) for k, x in v.items()])
    return m.TemplateValue.STRING(scalar(v))


def suite_cases():
    for name in SUITE:
        doc = json.loads((VECTORS / name).read_text(encoding="utf-8"))
        for group, body in doc.items():
            variables = {k: to_value(v) for k, v in body["variables"].items() if v is not None}
            for template, expected in body["testcases"]:
                yield name, group, template, expected, variables


def test_rfc6570_suite_through_the_ffi():
    passed, failures = 0, []
    for name, group, template, expected, variables in suite_cases():
        try:
            got = m.UriTemplate(template).expand(variables)
        except m.TemplateError:
            got = None
        ok = (
            (expected is False and got is None)
            or (isinstance(expected, str) and got == expected)
            or (isinstance(expected, list) and got in expected)
        )
        if ok:
            passed += 1
        else:
            failures.append(f"[{name} / {group}] {template!r}: expected {expected!r}, got {got!r}")
    assert failures == []
    assert passed == 270


@pytest.mark.parametrize(
    "source, kind, offset",
    [
        ("a{b", m.TemplateParseErrorKind.UNCLOSED_EXPRESSION, 1),
        ("x}", m.TemplateParseErrorKind.UNEXPECTED_BRACE, 1),
        ("ab{}", m.TemplateParseErrorKind.EMPTY_EXPRESSION, 3),
        ("{=a}", m.TemplateParseErrorKind.RESERVED_OPERATOR, 1),
        ("{var:0}", m.TemplateParseErrorKind.INVALID_PREFIX, 5),
        ("a b", m.TemplateParseErrorKind.INVALID_LITERAL, 1),
        ("%zz", m.TemplateParseErrorKind.INVALID_PERCENT_ENCODING, 0),
    ],
)
def test_parse_errors_carry_kind_and_byte_offset(source, kind, offset):
    with pytest.raises(m.TemplateError.Parse) as info:
        m.UriTemplate(source)
    assert (info.value.kind, info.value.byte_offset) == (kind, offset)


def test_expand_keeps_dict_order_and_reports_prefix_on_composite():
    t = m.UriTemplate("/s{?q,tags,keys*}")
    keys = m.TemplateValue.DICT([m.TemplatePair(key="semi", value=";"), m.TemplatePair(key="dot", value=".")])
    got = t.expand({"q": m.TemplateValue.STRING("café"), "tags": m.TemplateValue.LIST(["a", "b"]), "keys": keys})
    assert got == "/s?q=caf%C3%A9&tags=a,b&semi=%3B&dot=."
    with pytest.raises(m.TemplateError.PrefixOnComposite) as info:
        m.UriTemplate("ab{x:2}").expand({"x": m.TemplateValue.LIST(["y"])})
    assert info.value.byte_offset == 3


def test_variables_and_source():
    t = m.UriTemplate("notes://{project}/{id:4}{?tags*}")
    assert t.source() == "notes://{project}/{id:4}{?tags*}"
    got = [(v.name, v.modifier, v.byte_offset) for v in t.variables()]
    assert got == [
        ("project", None, 9),
        ("id", m.TemplateModifier.PREFIX(max_length=4), 19),
        ("tags", m.TemplateModifier.EXPLODE(), 26),
    ]


def test_error_codes():
    codes = {c.code: c for c in m.known_error_codes()}
    assert len(codes) == 9
    assert codes[-32601].http_status() == 404
    assert codes[-32022].name() == "Unsupported protocol version"
    assert codes[-32002].may_mean_not_found()
    assert m.ErrorCode(code=-32000).name() is None
    assert m.protocol_version() == "2026-07-28"


# --- the machines, router, cache and context selection through the same C ABI -------------


def make_server():
    config = m.server_config()
    config.read_cache = m.CacheHint(ttl_ms=60_000, scope=m.CacheScope.PUBLIC)
    server = m.ServerMachine(config)
    server.add_resource(
        m.Resource(uri="notes://acme/readme", name="readme", title=None, description=None, mime_type=None, size=None),
        [m.ResourceContents.TEXT(uri="notes://acme/readme", mime_type="text/plain", text="hello")],
        None,
    )
    assert server.add_template(
        m.ResourceTemplate(uri_template="notes://{project}/{id}", name="note", title=None, description=None, mime_type=None),
        None,
        {},
    ) == 0
    return server


def pump(client, server, now, on_event, auth=0):
    """Moves bytes both ways until both machines are drained; returns the client's events."""
    ctx = m.MessageContext(stream=1, auth=auth, transport=m.ServerTransport.STDIO)
    events, progressed = [], True
    while progressed:
        progressed = False
        while (out := client.poll_output()) is not None:
            progressed = True
            if isinstance(out, m.ClientOutput.TRANSMIT):
                server.handle_message(out.bytes, now, ctx)
            elif isinstance(out, m.ClientOutput.EVENT):
                events.append(out.event)
        while (out := server.poll_output()) is not None:
            progressed = True
            if isinstance(out, m.ServerOutput.TRANSMIT):
                assert b"\n" not in out.bytes
                client.handle_message(out.bytes, now)
            else:
                on_event(server, out.event)
    return events


def test_client_and_server_machines_talk():
    server = make_server()
    client = m.ClientMachine(m.client_config("py", "1.0"))

    def answer(server, event):
        assert isinstance(event, m.ServerEvent.READ_RESOURCE)
        assert isinstance(event.target, m.ReadTarget.TEMPLATE)
        assert event.target.variables == {"project": "acme", "id": "7"}
        server.respond_read(event.handle, [m.ResourceContents.BLOB(uri=event.uri, mime_type=None, data=b"\x00\xff")])

    static = client.read_resource("notes://acme/readme", m.CachePolicy.PREFER_CACHE, 10)
    templated = client.read_resource("notes://acme/7", m.CachePolicy.REFRESH, 10)
    events = pump(client, server, 10, answer)
    assert isinstance(events[0], m.ClientEvent.CONNECTED)
    assert events[0].session.era == m.Era.MODERN
    reads = {e.call: e.reply for e in events if isinstance(e, m.ClientEvent.RESOURCE_READ)}
    assert json.loads(reads[static].json)["contents"][0]["text"] == "hello"
    assert json.loads(reads[templated].json)["contents"][0]["blob"] == "AP8="
    assert client.read_cached("notes://acme/readme", 20).from_cache is True


def test_machine_errors_are_typed():
    server = make_server()
    with pytest.raises(m.RespondError.UnknownHandle):
        server.respond_read(77, [])
    with pytest.raises(m.RegisterError.Duplicate):
        server.add_resource(
            m.Resource(uri="notes://acme/readme", name="x", title=None, description=None, mime_type=None, size=None),
            None,
            None,
        )
    config = m.server_config()
    config.page_size = 0
    with pytest.raises(m.ServerConfigError.ZeroCapacity):
        m.ServerMachine(config)
    client = m.ClientMachine(m.client_config("py", "1.0"))
    with pytest.raises(m.ClientError.UnknownCall):
        client.cancel(5, None, 0)

    def not_found(server, event):
        server.fail(event.handle, m.Failure.NOT_FOUND())

    call = client.read_resource("notes://acme/404", m.CachePolicy.REFRESH, 0)
    failed = [e for e in pump(client, server, 0, not_found) if isinstance(e, m.ClientEvent.FAILED)]
    assert failed[0].call == call
    assert isinstance(failed[0].error, m.CallError.SERVER)
    assert isinstance(failed[0].error.error, m.ServerError.RESOURCE_NOT_FOUND)
    assert failed[0].error.error.uri == "notes://acme/404"


def test_router_cache_and_context_selection():
    router = m.Router()
    assert router.insert("repo://{owner}/{repo}") == 0
    assert router.insert("repo://acme/{repo}") == 1
    hit = router.route("repo://acme/web%20site")
    assert (hit.id, [(c.name, c.values) for c in hit.captures]) == (1, [("repo", ["web site"])])
    assert router.route("other://x") is None
    with pytest.raises(m.RouterError.Indistinguishable):
        router.insert("repo://{a}/{b}")

    cache = m.Cache(8, 1024)
    key = m.cache_key("resources/read", "file:///a")
    cache.insert(key, 1, 100, m.CacheScope.PRIVATE, False, b"A", 0)
    assert cache.get(key, 1, 5) == b"A"
    assert cache.get(key, 2, 5) is None
    with pytest.raises(m.CacheError.ImmediatelyStale):
        cache.insert(key, 1, 0, m.CacheScope.PRIVATE, False, b"A", 0)

    c = lambda uri, size, p: m.ContextCandidate(uri=uri, size=size, tokens=None, audience=None, priority=p, last_modified=None)
    picked = m.select_context([c("a:1", 600, 0.9), c("a:2", 500, 0.8), c("a:3", 300, 0.1)], m.ContextBudget.BYTES(limit=1000), None)
    assert picked == [0, 2]


def test_json_inputs_and_a_foreign_visibility_filter():
    server = make_server()
    server.add_prompt_json('{"name":"review","arguments":[{"name":"id","required":true}]}', {})
    with pytest.raises(m.RegisterError.InvalidJson):
        server.add_resource_json('{"uri":"notes://x/1"}', None, None)  # no name

    class HideSecrets(m.VisibilityFilter):
        def is_visible(self, auth, item):
            return not (isinstance(item, m.ListedItem.PROMPT) and auth == 0)

    server.set_visibility(HideSecrets())
    client = m.ClientMachine(m.client_config("py", "1.0"))

    def answer(server, event):
        assert isinstance(event, m.ServerEvent.GET_PROMPT)
        with pytest.raises(m.RespondError.InvalidJson):
            server.respond_prompt(event.handle, '{"messages":[{"role":"robot"}]}')
        server.respond_prompt(event.handle, json.dumps({"messages": [{"role": "user", "content": {"type": "text", "text": "id " + event.arguments["id"]}}]}))

    hidden = client.get_prompt("review", {"id": "3"}, 0)
    events = pump(client, server, 0, answer)
    failed = [e for e in events if isinstance(e, m.ClientEvent.FAILED)]
    assert [f.call for f in failed] == [hidden]
    shown = client.get_prompt("review", {"id": "3"}, 0)
    fetched = [
        (e.call, json.loads(e.reply.json)["messages"][0]["content"]["text"])
        for e in pump(client, server, 0, answer, auth=7)
        if isinstance(e, m.ClientEvent.PROMPT_FETCHED)
    ]
    assert fetched == [(shown, "id 3")]


def test_tools_drain_and_app_cursors():
    """The core's tool registry through the C ABI: `addTool`, `callTool` events answered with
    `respondTool` / `respondToolError` (`isError`), unknown tools, `drain()` (every output
    and the deadline at once), the refusal to mix with `tools/*` methods, `appCursor`."""
    server = make_server()
    server.add_tool('{"name":"add","inputSchema":{"type":"object","required":["a"]}}')
    with pytest.raises(m.RegisterError.Duplicate):
        server.add_tool('{"name":"add","inputSchema":{"type":"object"}}')
    with pytest.raises(m.RegisterError.InvalidJson):
        server.add_tool('{"name":"has space","inputSchema":{"type":"object"}}')
    with pytest.raises(m.RegisterError.ToolsByMethod):
        server.add_method("tools/call")
    ctx = m.MessageContext(stream=1, auth=0, transport=m.ServerTransport.STDIO)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

    def ask(i, method, params):
        msg = {"jsonrpc": "2.0", "id": i, "method": method, "params": {**params, "_meta": meta}}
        server.handle_message(json.dumps(msg).encode(), 5, ctx)
        return server.drain()

    listed = ask(1, "tools/list", {})
    assert [t["name"] for t in json.loads(listed.outputs[0].bytes)["result"]["tools"]] == ["add"]
    assert listed.deadline is None
    called = ask(2, "tools/call", {"name": "add", "arguments": {"a": 1}})
    (event,) = [o.event for o in called.outputs]
    assert isinstance(event, m.ServerEvent.CALL_TOOL) and event.name == "add"
    assert json.loads(event.arguments_json) == {"a": 1}
    assert called.deadline is not None  # the call waits for the application
    server.respond_tool(event.handle, '{"content":[{"type":"text","text":"2"}],"structuredContent":{"sum":2}}')
    answer = json.loads(server.drain().outputs[0].bytes)["result"]
    assert answer["structuredContent"] == {"sum": 2} and answer["resultType"] == "complete"
    (event,) = [o.event for o in ask(3, "tools/call", {"name": "add", "arguments": {"a": 1}}).outputs]
    server.respond_tool_error(event.handle, "overflow")
    failed = json.loads(server.drain().outputs[0].bytes)["result"]
    assert failed["isError"] is True and failed["content"][0]["text"] == "overflow"
    missing = json.loads(ask(4, "tools/call", {"name": "add"}).outputs[0].bytes)["result"]
    assert missing["isError"] is True
    unknown = json.loads(ask(5, "tools/call", {"name": "nope"}).outputs[0].bytes)
    assert unknown["error"]["code"] == -32602
    (event,) = [o.event for o in ask(6, "tools/call", {"name": "add", "arguments": {"a": 1}}).outputs]
    server.fail(event.handle, m.Failure.APPLICATION(code=-32602, message="bad a"))
    assert json.loads(server.drain().outputs[0].bytes)["error"] == {"code": -32602, "message": "bad a"}

    pos = m.AppListPosition(source="notes://{project}/{id}", offset=50)
    assert m.parse_app_cursor(m.app_cursor(pos)) == pos
    assert m.parse_app_cursor("50") is None
