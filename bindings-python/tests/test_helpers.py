"""Cache, FileRoot, select_context and the HTTP checks: the core's rules through the binding."""

import pytest

from mcp_context import (
    Cache,
    ErrorCode,
    FileRoot,
    HttpError,
    McpContextError,
    PathError,
    check_headers,
    check_origin,
    http_status,
    select_context,
)

READ = "resources/read"


def test_cache_freshness_and_scope():
    c = Cache()
    assert c.insert(READ, "notes://1", b"{}", ttl_ms=1000, cache_scope="private", now_ms=0, auth=7) is None
    assert c.get(READ, "notes://1", now_ms=999, auth=7) == b"{}"
    assert c.get(READ, "notes://1", now_ms=1000, auth=7) is None  # fresh while now < t + ttl
    assert c.lookup(READ, "notes://1", now_ms=1000, auth=7) == ("stale", b"{}")
    assert c.get(READ, "notes://1", now_ms=5, auth=8) is None  # private: other subject
    assert c.get(READ, "notes://1", now_ms=5) is None  # private: anonymous
    assert c.insert(READ, "notes://2", b"[]", ttl_ms=1000, cache_scope="public", now_ms=0, auth=7) is None
    assert c.get(READ, "notes://2", now_ms=5, auth=8) == b"[]"
    assert len(c) == 2 and c.total_bytes > 0


def test_cache_refusals():
    c = Cache(max_entries=4, max_bytes=64)
    kw = {"cache_scope": "public", "now_ms": 0}
    assert c.insert(READ, "a://1", b"x", ttl_ms=0, **kw) == "immediately_stale"
    assert c.insert(READ, "a://1", b"x", ttl_ms=None, **kw) == "immediately_stale"
    assert c.insert(READ, "a://1", b"x", ttl_ms=10, retry=True, **kw) == "retry"
    assert c.insert(READ, "a://1", b"x" * 100, ttl_ms=10, **kw) == "too_large"
    with pytest.raises(ValueError):
        c.insert("prompts/get", None, b"x", ttl_ms=10, **kw)
    with pytest.raises(ValueError):
        c.insert(READ, None, b"x", ttl_ms=10, **kw)
    with pytest.raises(ValueError):
        c.insert(READ, "a://1", b"x", ttl_ms=10, cache_scope="shared", now_ms=0)


def test_cache_invalidation():
    c = Cache()
    kw = {"ttl_ms": 60_000, "cache_scope": "public", "now_ms": 0}
    c.insert(READ, "notes://a/1", b"1", **kw)
    c.insert(READ, "notes://b", b"2", **kw)
    c.insert("resources/list", None, b"p1", **kw)
    c.insert("resources/list", "c2", b"p2", **kw)
    c.insert("prompts/list", None, b"pp", **kw)
    assert c.invalidate("notifications/resources/updated", "notes://a") == 1  # sub-resource
    assert c.invalidate("notifications/prompts/list_changed") == 1
    assert c.cursor_rejected("resources/list") == 2
    assert c.invalidate("notifications/message") == 0
    assert len(c) == 1
    assert c.purge_stale(60_000) == 1 and len(c) == 0


def test_cache_forget_context():
    c = Cache()
    c.insert(READ, "u://1", b"1", ttl_ms=10, cache_scope="private", now_ms=0, auth=1)
    c.insert(READ, "u://1", b"2", ttl_ms=10, cache_scope="private", now_ms=0, auth=2)
    assert c.forget_context(1) == 1
    assert c.get(READ, "u://1", now_ms=1, auth=2) == b"2"
    c.clear()
    assert len(c) == 0


def test_file_root_resolves_and_refuses():
    root = FileRoot("file:///srv/project")
    assert root.uri == "file:///srv/project"
    assert root.resolve("file:///srv/project/src/main%20file.rs") == "src/main file.rs"
    assert root.resolve("file:///srv/project") == ""
    for uri, kind in [
        ("file:///srv/project/%2e%2e/secrets", "dot_segment"),
        ("file:///srv/project/../x", "dot_segment"),
        ("file:///srv/other/x", "outside_root"),
        ("file:///srv/project/a%2fb", "encoded_slash"),
        ("file://evil/srv/project/x", "host_not_local"),
        ("http://x/srv/project", "not_file_scheme"),
        ("file:///srv/project/x?q", "query"),
    ]:
        with pytest.raises(PathError) as info:
            root.resolve(uri)
        assert info.value.kind == kind, uri
        assert info.value.code == ErrorCode.INVALID_PARAMS
        assert isinstance(info.value, ValueError)
    with pytest.raises(PathError):
        FileRoot("https://example/x")


def test_select_context():
    candidates = [
        {"uri": "file:///a", "size": 600, "annotations": {"priority": 0.9}},
        {"uri": "file:///b", "size": 500, "annotations": {"priority": 0.8}},
        {"uri": "file:///c", "size": 300, "annotations": {"priority": 0.1}},
        {"uri": "file:///d", "size": 10, "annotations": {"audience": ["user"]}},
        {"uri": "file:///e"},  # no cost: never chosen
    ]
    assert select_context(candidates, max_bytes=1000, role="assistant") == [0, 2]
    assert select_context(candidates, max_bytes=1000) == [0, 3, 2]
    assert select_context(candidates, max_tokens=100) == [3, 2]  # 3 + 75 tokens; a, b too big
    recent = [
        {"uri": "x://old", "size": 1, "annotations": {"lastModified": "2025-01-01T00:00:00Z"}},
        {"uri": "x://new", "size": 1, "annotations": {"lastModified": "2025-01-01T01:00:00+00:30"}},
    ]
    assert select_context(recent, max_bytes=10) == [1, 0]
    with pytest.raises(ValueError):
        select_context(candidates, max_bytes=1, max_tokens=1)
    with pytest.raises(ValueError):
        select_context(candidates, max_bytes=1, role="system")
    with pytest.raises(TypeError):
        select_context([1], max_bytes=1)


def test_check_origin():
    check_origin("127.0.0.1:8000")
    check_origin("localhost:8000", "http://localhost:3000")
    for host, origin, status, kind in [
        (None, None, 400, "missing_host"),
        ("evil.example", None, 403, "host_not_allowed"),
        ("127.0.0.1:8000", "http://evil.example", 403, "origin_not_allowed"),
        ("127.0.0.1:8000", "null", 403, "null_origin"),
    ]:
        with pytest.raises(HttpError) as info:
            check_origin(host, origin)
        assert (info.value.status, info.value.kind, info.value.code) == (status, kind, None)
    check_origin("app.example", None, ["app.example"])


def test_check_headers():
    ok = {"header_protocol_version": "2026-07-28", "header_method": "resources/read", "header_name": "notes://1"}
    body = {"protocol_version": "2026-07-28", "method": "resources/read", "name": "notes://1"}
    check_headers(**ok, **body)
    with pytest.raises(HttpError) as info:
        check_headers(**{**ok, "header_name": "notes://2"}, **body)
    assert (info.value.status, info.value.code, info.value.kind) == (400, ErrorCode.HEADER_MISMATCH, "mismatch")
    with pytest.raises(McpContextError):
        check_headers(**{**ok, "header_method": None}, **body)


def test_http_status():
    assert http_status(ErrorCode.METHOD_NOT_FOUND) == 404
    assert http_status(ErrorCode.HEADER_MISMATCH) == 400
    assert http_status(ErrorCode.INVALID_PARAMS) == 200
