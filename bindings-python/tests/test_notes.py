"""The stateless notes server (issue 9.3) and its six exercises, in process: a ClientMachine
wired to the machine of the notes App (tests/machines.py), so storage access and the raw wire
are observable. test_notes_transports.py runs the same server over stdio and HTTP."""

import json

import pytest

from machines import Pair
from mcp_context import (
    Acknowledged,
    ClientMachine,
    ErrorCode,
    Failed,
    Listed,
    Notified,
    SubscriptionEnded,
)
from notes_server import ALICE, BOB, TEMPLATE, build


def machine(page_size=3):
    """The notes App's machine and its dispatcher, for the in-memory Pair (no loop, no I/O)."""
    app, store = build(page_size)
    rt = app.runtime()
    return rt.machine, store, lambda server, ev: rt.dispatch(ev)


def notes(auth=0, page_size=3, client=None):
    server, store, app = machine(page_size)
    return Pair(server, client, app=app, auth=auth), store


def uris(listed: Listed):
    return [r["uri"] for page in listed.pages for r in page["resources"]]


def test_list_is_deterministic_with_names_and_descriptions():
    p, _ = notes()
    _, (ev,) = p.call(lambda c, now: c.list_resources(now, all_pages=True))
    assert uris(ev) == [f"notes://note-{i}" for i in range(1, 8)]
    first = ev.pages[0]["resources"][0]
    assert (first["name"], first["description"]) == ("Welcome", "How these notes work")


def test_missing_note_is_invalid_params_with_the_uri():
    p, _ = notes()
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://missing", now))
    assert isinstance(ev, Failed)
    assert (ev.error.code, ev.error.data) == (ErrorCode.INVALID_PARAMS, {"uri": "notes://missing"})


def test_discover_advertises_resources_and_prompts():
    p, _ = notes()
    _, (ev,) = p.call(lambda c, now: c.discover(now))
    caps = ev.result["capabilities"]
    assert caps["resources"] == {"subscribe": True, "listChanged": True}
    assert caps["prompts"] == {"listChanged": True}
    assert "tools" not in caps


def test_review_note_prompt_uses_the_same_authorization_as_a_read():
    p, _ = notes(auth=BOB)
    _, (ev,) = p.call(lambda c, now: c.get_prompt("review_note", now, {"uri": "notes://note-2"}))
    embedded = ev.result["messages"][1]["content"]
    assert embedded["type"] == "resource" and embedded["resource"]["uri"] == "notes://note-2"
    # Bob cannot read alice's diary directly ...
    _, (read,) = p.call(lambda c, now: c.read_resource("notes://note-6", now))
    assert isinstance(read, Failed) and read.error.code == ErrorCode.INVALID_PARAMS
    # ... nor through the prompt (no side channel).
    _, (ev,) = p.call(lambda c, now: c.get_prompt("review_note", now, {"uri": "notes://note-6"}))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS
    assert "Dear diary" not in json.dumps(ev.error.data) + ev.error.message
    # The required argument is enforced by the machine.
    _, (ev,) = p.call(lambda c, now: c.get_prompt("review_note", now))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS
    alice, _ = notes(auth=ALICE)
    _, (ev,) = alice.call(lambda c, now: c.get_prompt("review_note", now, {"uri": "notes://note-6"}))
    assert ev.result["messages"][1]["content"]["resource"]["text"] == "Dear diary..."


def test_listen_ack_first_events_stamped_graceful_close():
    p, store = notes()
    p.call(lambda c, now: c.discover(now))  # connected: only the subscription's messages follow
    call = p.client.listen({"resourcesListChanged": True, "resourceSubscriptions": ["notes://note-3"]}, p.now)
    # Watch the raw wire: the acknowledgement is the first message of the subscription.
    start = len(p.wire)
    events = p.pump()
    p.server.resource_updated("notes://note-3")
    p.server.resources_list_changed()
    events += p.pump()
    p.server.shutdown()
    events += p.pump()
    wire = p.wire[start:]
    methods = [m.get("method") for m in wire]
    assert methods == [
        "notifications/subscriptions/acknowledged",
        "notifications/resources/updated",
        "notifications/resources/list_changed",
        None,  # the listen result: the graceful close
        "notifications/cancelled",  # stdio: result first, then the cancellation (docs/rules.md §19.2)
    ]
    listen_id = wire[3]["id"]
    for m in wire[:3]:
        assert m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id
    assert wire[3]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id
    assert wire[4]["params"]["requestId"] == listen_id
    kinds = [type(e) for e in events]
    assert kinds == [Acknowledged, Notified, Notified, SubscriptionEnded]
    assert events[-1].reason == "graceful" and events[-1].call == call


# (a) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("notes://projects/" + "a" * 33 + "/notes/1", "project"),  # too long
        ("notes://projects/Apollo/notes/1", "project"),  # uppercase
        ("notes://projects/apo%2Fllo/notes/1", "project"),  # encoded slash
        ("notes://projects/apollo/notes/0123", "id"),  # leading zero
        ("notes://projects/apollo/notes/1234567", "id"),  # too long
        ("notes://projects/apollo/notes/x1", "id"),  # not digits
    ],
)
def test_a_template_variables_are_validated_before_storage(uri, message):
    p, store = notes()
    _, (ev,) = p.call(lambda c, now: c.read_resource(uri, now))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS
    assert ev.error.message.startswith(message)
    assert store.storage_reads == 0  # never reached storage


def test_a_valid_template_read():
    p, store = notes()
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://projects/apollo/notes/2", now))
    assert ev.result["contents"][0]["text"].startswith("# Apollo 2")
    assert store.storage_reads == 1
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://projects/apollo/notes/3", now))
    assert isinstance(ev, Failed) and ev.error.data == {"uri": "notes://projects/apollo/notes/3"}
    _, (ev,) = p.call(lambda c, now: c.list_resource_templates(now))
    assert ev.pages[0]["resourceTemplates"][0]["uriTemplate"] == TEMPLATE


# (b) -------------------------------------------------------------------------------------


def test_b_pages_keep_a_deterministic_order():
    p, _ = notes(page_size=3)
    seen, cursor, pages = [], None, 0
    while True:
        _, (ev,) = p.call(lambda c, now: c.list_resources(now, cursor=cursor, refresh=True))
        seen += uris(ev)
        pages += 1
        cursor = ev.next_cursor
        if cursor is None:
            break
        if pages == 1:  # a note appears between pages: the cursor stays valid, no repeats
            p.server.add_resource({"uri": "notes://note-0", "name": "Inserted"})
    assert pages == 3
    assert seen == [f"notes://note-{i}" for i in range(1, 8)]
    assert len(seen) == len(set(seen))
    again, _ = notes(page_size=3)
    _, (ev,) = again.call(lambda c, now: c.list_resources(now, all_pages=True))
    assert uris(ev) == seen  # same order on every walk


# (c) -------------------------------------------------------------------------------------


def test_c_payroll_is_private_with_ttl_zero_and_never_cached():
    p, store = notes()
    _, (ev,) = p.call(lambda c, now: c.read_resource("notes://note-7", now))
    assert (ev.result["ttlMs"], ev.result["cacheScope"]) == (0, "private")
    assert p.client.read_cached("notes://note-7", p.now) is None
    _, (again,) = p.call(lambda c, now: c.read_resource("notes://note-7", now))
    assert again.from_cache is False and store.storage_reads == 2


# (d) -------------------------------------------------------------------------------------


def test_d_listen_without_prompts_list_changed_never_gets_prompts_events():
    p, _ = notes()
    call, (ack,) = p.call(lambda c, now: c.listen({"resourcesListChanged": True}, now))
    assert ack.honoured == {"resourcesListChanged": True}
    start = len(p.wire)
    p.server.prompts_list_changed()
    p.server.resources_list_changed()  # a marker: it arrives, the prompts event never does
    p.server.prompts_list_changed()
    events = p.pump()
    assert [m["method"] for m in p.wire[start:]] == ["notifications/resources/list_changed"]
    assert [(e.subscription, e.method) for e in events] == [(call, "notifications/resources/list_changed")]


# (e) -------------------------------------------------------------------------------------


def test_e_two_concurrent_listens_each_event_carries_its_own_id():
    p, _ = notes()
    a, (ack_a,) = p.call(lambda c, now: c.listen({"resourceSubscriptions": ["notes://note-3"]}, now))
    b, (ack_b,) = p.call(lambda c, now: c.listen({"resourceSubscriptions": ["notes://note-3"], "resourcesListChanged": True}, now))
    assert a != b and isinstance(ack_a, Acknowledged) and isinstance(ack_b, Acknowledged)
    start = len(p.wire)
    p.server.resource_updated("notes://note-3")
    p.server.resources_list_changed()
    events = p.pump()
    raw = p.wire[start:]
    by_id = {}
    for m in raw:
        by_id.setdefault(m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], []).append(m["method"])
    assert sorted(by_id.values()) == [
        ["notifications/resources/updated"],
        ["notifications/resources/updated", "notifications/resources/list_changed"],
    ]
    assert sorted((e.subscription, e.method) for e in events) == sorted(
        [
            (a, "notifications/resources/updated"),
            (b, "notifications/resources/updated"),
            (b, "notifications/resources/list_changed"),
        ]
    )


# (f) -------------------------------------------------------------------------------------


def test_f_permission_checked_reads_and_no_cross_subject_cache():
    server, store, app = machine()
    client = ClientMachine("shared-host", "1.0")  # one client cache used by two subjects
    alice = Pair(server, client, app=app, auth=ALICE)
    client.set_auth_context(ALICE)
    _, (ev,) = alice.call(lambda c, now: c.read_resource("notes://note-6", now))
    assert ev.result["contents"][0]["text"] == "Dear diary..."
    assert (ev.result["cacheScope"], ev.result["ttlMs"]) == ("private", 60000)
    _, (cached,) = alice.call(lambda c, now: c.read_resource("notes://note-6", now))
    assert cached.from_cache and store.storage_reads == 1
    # Bob on the same client: the private entry is not his, so the server is asked, and says no.
    bob = Pair(server, client, app=app, auth=BOB)
    client.set_auth_context(BOB)
    assert client.read_cached("notes://note-6", bob.now) is None
    _, (ev,) = bob.call(lambda c, now: c.read_resource("notes://note-6", now))
    assert isinstance(ev, Failed) and ev.error.code == ErrorCode.INVALID_PARAMS
    assert store.storage_reads == 2
    # Public notes are shared across subjects.
    _, (pub,) = bob.call(lambda c, now: c.read_resource("notes://note-1", now))
    client.set_auth_context(ALICE)
    _, (shared,) = alice.call(lambda c, now: c.read_resource("notes://note-1", now))
    assert pub.result["cacheScope"] == "public" and shared.from_cache
