"""Awaitable middleware (docs/operations.md "Middleware"): ``before``/``after`` may be
``async def``; the ASGI runner (under uvicorn, over real TCP with httpx) and the stdio runner
await them without holding other requests; synchronous hooks still run inline (no task).
Order, refusals, annotations and the request span hold across an awaiting hook; on stdio a
notification never passes a request still at the gate. And ``RedisRateLimit`` on a
``redis.asyncio`` client against a real ``redis-server`` (the Debian package, started here):
over the rate refused, another caller admitted; Redis stopped or frozen (SIGSTOP), the
core's failure policy (docs/rules.md §23.6): admitted by default, refused with
``fail_closed=True``."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from mcp_context import _core
from mcp_context._stdio import serve_stdio
from mcp_context.server import App
from mcp_context.telemetry import RATE_LIMITED, Call, JsonLog, Middleware, Otel, RedisRateLimit, Refuse

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}


def call(id: int, tool: str) -> bytes:  # noqa: A002
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"_meta": META, "name": tool, "arguments": {}}}).encode()


def cancel(id: int) -> bytes:  # noqa: A002
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}).encode()


def hdrs(tool: str, caller: int = 0) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": V,
        "mcp-method": "tools/call",
        "mcp-name": tool,
        "x-caller": str(caller),
    }


def tools_app(*middleware: Middleware, sinks=()) -> App:
    app = App("async-mw")

    @app.tool()
    def echo() -> str:
        return "hi"

    @app.tool()
    def slow() -> str:
        return "slow"

    @app.tool()
    async def late() -> str:
        await asyncio.sleep(0.3)
        return "late"

    for m in middleware:
        app.middleware(m)
    for s in sinks:
        app.sink(s)
    return app


@contextlib.asynccontextmanager
async def uvicorn_on(app: App) -> AsyncIterator[httpx.AsyncClient]:
    """``app.asgi()`` under uvicorn on this loop (a real TCP port), the caller from the
    ``x-caller`` header; an httpx client on it."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    asgi = app.asgi(authenticate=lambda h: int(h.get("x-caller", "0")))
    server = uvicorn.Server(uvicorn.Config(asgi, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{sock.getsockname()[1]}", timeout=10) as http:
            yield http
    finally:
        server.should_exit = True
        await task


async def post(http: httpx.AsyncClient, id: int, tool: str, caller: int = 0) -> dict:  # noqa: A002
    r = await http.post("/mcp", content=call(id, tool), headers=hdrs(tool, caller))
    return r.json()


class Hold(Middleware):
    """Holds ``tools/call slow`` in an awaiting ``before`` until ``release`` is set."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.waiting = asyncio.Event()

    async def before(self, c: Call) -> None:
        if c.target == "slow":
            self.waiting.set()
            await asyncio.wait_for(self.release.wait(), 10)


def test_an_awaiting_before_holds_only_its_own_request_over_asgi():
    async def main():
        hold = Hold()
        async with uvicorn_on(tools_app(hold)) as http:
            slow = asyncio.create_task(post(http, 1, "slow"))
            await asyncio.wait_for(hold.waiting.wait(), 5)
            fast = await asyncio.wait_for(post(http, 2, "echo"), 5)  # answered meanwhile
            assert not slow.done()
            hold.release.set()
            return fast, await slow

    fast, slow = asyncio.run(main())
    assert fast["result"]["content"][0]["text"] == "hi", fast
    assert slow["result"]["content"][0]["text"] == "slow", slow


def run_stdio(app: App, lines: list[bytes], auth: int = 0) -> dict:
    out = io.BytesIO()
    asyncio.run(serve_stdio(app, auth=auth, stdin=io.BytesIO(b"".join(x + b"\n" for x in lines)), stdout=out))
    return {a["id"]: a for a in (json.loads(x) for x in out.getvalue().splitlines())}


class UntilAnswered(Middleware):
    """``slow``'s ``before`` awaits until ``echo``'s answer is on stdout."""

    def __init__(self) -> None:
        self.out: io.BytesIO | None = None
        self.saw_echo = False

    async def before(self, c: Call) -> None:
        if c.target == "slow":
            for _ in range(500):
                if b'"hi"' in self.out.getvalue():
                    self.saw_echo = True
                    return
                await asyncio.sleep(0.01)


def test_an_awaiting_before_holds_only_its_own_request_over_stdio():
    mw = UntilAnswered()
    app = tools_app(mw)
    out = mw.out = io.BytesIO()
    asyncio.run(serve_stdio(app, stdin=io.BytesIO(call(1, "slow") + b"\n" + call(2, "echo") + b"\n"), stdout=out))
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert mw.saw_echo, "the second request was answered while the first one's before awaited"
    assert [a["id"] for a in answers] == [2, 1], answers
    assert all("result" in a for a in answers), answers


def test_a_cancellation_waits_for_its_request_at_the_gate_over_stdio():
    """``late`` (an async handler) waits at the gate; its cancellation, read next, reaches
    the machine only once ``late`` is admitted, so it cancels it (no answer), while ``echo``,
    read after both, passes the waiting request and is answered."""

    class Late(Middleware):
        async def before(self, c: Call) -> None:
            if c.target == "late":
                await asyncio.sleep(0.2)

    answers = run_stdio(tools_app(Late()), [call(1, "late"), cancel(1), call(2, "echo")])
    assert 1 not in answers, f"the cancellation reached the machine before its request: {answers}"
    assert answers[2]["result"]["content"][0]["text"] == "hi", answers


class Trace(Middleware):
    def __init__(self, name: str, log: list[str], awaits: bool = False) -> None:
        self.name, self.log, self.awaits = name, log, awaits

    def _before(self, c: Call) -> None:
        self.log.append(f"before {self.name} {c.target} caller={c.caller}")
        c.annotate(f"app.{self.name}", "yes")
        if c.target == "slow" and self.name == "b":
            raise Refuse(-31000, "no slow")

    def before(self, c: Call):  # type: ignore[override]
        if not self.awaits:
            return self._before(c)

        async def hook() -> None:
            await asyncio.sleep(0.01)
            self._before(c)

        return hook()

    def after(self, c: Call, error: BaseException | None):  # type: ignore[override]
        entry = f"after {self.name} {c.target} {type(error).__name__ if error else 'ok'}"
        if not self.awaits:
            self.log.append(entry)
            return None

        async def hook() -> None:
            await asyncio.sleep(0)
            self.log.append(entry)

        return hook()


@pytest.mark.parametrize("runner", ["asgi", "stdio"])
def test_order_refusals_annotations_and_the_span_hold_with_awaiting_hooks(runner):
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    spans = InMemorySpanExporter()
    tracer = TracerProvider()
    tracer.add_span_processor(SimpleSpanProcessor(spans))
    inner = tracer.get_tracer("hook")

    class Spanning(Middleware):
        async def before(self, c: Call) -> None:
            await asyncio.sleep(0)
            with inner.start_as_current_span(f"hook {c.target}"):
                pass

    log: list[str] = []
    lines = io.StringIO()
    app = tools_app(Trace("a", log), Trace("b", log, awaits=True), Spanning(), Trace("c", log),
                    sinks=[Otel(tracer, MeterProvider(metric_readers=[InMemoryMetricReader()])), JsonLog(lines)])
    if runner == "asgi":
        async def main():
            async with uvicorn_on(app) as http:
                return {1: await post(http, 1, "echo", caller=5), 2: await post(http, 2, "slow", caller=5)}

        answers = asyncio.run(main())
    else:
        answers = run_stdio(app, [call(1, "echo"), call(2, "slow")], auth=5)
    caller = 5
    assert answers[1]["result"]["content"][0]["text"] == "hi", answers
    assert answers[2]["error"] == {"code": -31000, "message": "no slow"}, answers
    def of(target: str) -> list[str]:
        return [e for e in log if e.split()[2] == target]

    # Each request's hooks in order (on stdio the two requests' hooks interleave): every
    # before, then every after in reverse, awaiting or not; a refusal skips the later befores.
    assert of("echo") == [
        f"before a echo caller={caller}", f"before b echo caller={caller}", f"before c echo caller={caller}",
        "after c echo ok", "after b echo ok", "after a echo ok",
    ], log
    assert of("slow") == [
        f"before a slow caller={caller}", f"before b slow caller={caller}",
        "after c slow Refuse", "after b slow Refuse", "after a slow Refuse",
    ], log
    records = [json.loads(x) for x in lines.getvalue().splitlines() if '"method"' in x]
    by_id = {r["request_id"]: r for r in records}
    assert by_id["1"]["annotations"] == {"app.a": "yes", "app.b": "yes", "app.c": "yes"}, by_id
    assert by_id["2"]["annotations"] == {"app.a": "yes", "app.b": "yes"}, by_id
    got = {s.name: s for s in spans.get_finished_spans()}
    request, hook = got["tools/call echo"], got["hook echo"]
    assert hook.parent is not None and hook.parent.span_id == request.context.span_id, "the request span is current in an awaiting hook"


def test_synchronous_hooks_run_inline_without_a_task_over_stdio():
    """Every hook synchronous: the handler runs in the runner's own task (no task per
    request); one awaiting hook: in a task of its own."""

    def app_seeing(mw: Middleware) -> tuple[App, list]:
        app = App("inline")
        seen: list = []

        @app.tool()
        def where() -> str:
            seen.append(asyncio.current_task())
            return "here"

        app.middleware(mw)
        return app, seen

    class Sync(Middleware):
        def before(self, c: Call) -> None:
            c.annotate("k", "v")

    class Async(Middleware):
        async def before(self, c: Call) -> None:
            c.annotate("k", "v")

    async def serve(app: App) -> asyncio.Task:
        out = io.BytesIO()
        await serve_stdio(app, stdin=io.BytesIO(call(1, "where") + b"\n" + call(2, "where") + b"\n"), stdout=out)
        assert out.getvalue().count(b'"here"') == 2, out.getvalue()
        return asyncio.current_task()

    app, seen = app_seeing(Sync())
    runner = asyncio.run(serve(app))
    assert seen == [runner, runner]
    app, seen = app_seeing(Async())
    runner = asyncio.run(serve(app))
    assert len(seen) == 2 and runner not in seen and seen[0] is not seen[1]


# --- RedisRateLimit on redis.asyncio -------------------------------------------------------


@pytest.fixture
def redis_server():
    pytest.importorskip("redis")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "scale-out"))
    from fleet import Redis

    server = Redis().start()
    try:
        yield server
    finally:
        server.stop()


def test_an_async_redis_rate_limit_refuses_over_the_rate_on_asgi_and_stdio(redis_server):
    import redis.asyncio as aioredis

    limits: list[RedisRateLimit] = []

    def limited() -> App:
        # a client per loop: asyncio.run gives each runner its own
        limit = RedisRateLimit(aioredis.Redis.from_url(redis_server.url), rate=0.001, burst=2, prefix="test:async:")
        limits.append(limit)
        return tools_app(limit, Hold())

    async def over_asgi():
        app = limited()
        hold = app._middleware[1]
        async with uvicorn_on(app) as http:
            # while caller 5's slow request awaits at the gate, the limit answers others
            slow = asyncio.create_task(post(http, 1, "slow", caller=5))
            await asyncio.wait_for(hold.waiting.wait(), 5)
            seven = [await post(http, i, "echo", caller=7) for i in (2, 3, 4)]
            eight = await post(http, 5, "echo", caller=8)
            hold.release.set()
            return seven, eight, await slow

    seven, eight, slow = asyncio.run(over_asgi())
    assert ["result" in a for a in seven] == [True, True, False], seven
    assert seven[2]["error"]["code"] == RATE_LIMITED and seven[2]["error"]["message"].startswith("Rate limit exceeded: retry after "), seven
    assert "result" in eight and "result" in slow, (eight, slow)
    # stdio: caller 7's bucket (shared through Redis) is empty; caller 9's is full
    seven = run_stdio(limited(), [call(1, "echo")], auth=7)
    assert seven[1]["error"]["code"] == RATE_LIMITED, seven
    nine = run_stdio(limited(), [call(1, "echo"), call(2, "echo"), call(3, "echo")], auth=9)
    # the three take from the bucket concurrently (requests may pass one another at the gate)
    assert sorted("result" in nine[i] for i in (1, 2, 3)) == [False, True, True], nine
    assert all(limit.failures == 0 for limit in limits)


def failing(client_url: str, fail_closed: bool | None, runner: str, timeout: float = 0.3):
    """Three requests of caller 7 through a limit whose Redis does not answer: the answers,
    the limit, the JSON log lines."""
    import redis.asyncio as aioredis

    kw = {} if fail_closed is None else {"fail_closed": fail_closed}
    lines = io.StringIO()

    def app() -> tuple[App, RedisRateLimit]:
        limit = RedisRateLimit(aioredis.Redis.from_url(client_url, socket_connect_timeout=0.2), rate=0.001, burst=1, timeout=timeout, **kw)
        return tools_app(limit, sinks=[JsonLog(lines)]), limit

    if runner == "asgi":
        a, limit = app()

        async def main():
            async with uvicorn_on(a) as http:
                return {i: await post(http, i, "echo", caller=7) for i in (1, 2, 3)}

        answers = asyncio.run(main())
    else:
        a, limit = app()
        answers = run_stdio(a, [call(i, "echo") for i in (1, 2, 3)], auth=7)
    logged = [json.loads(x) for x in lines.getvalue().splitlines() if '"method"' in x]
    return answers, limit, logged


@pytest.mark.parametrize("runner", ["asgi", "stdio"])
def test_redis_stopped_fails_open_by_default_and_closed_when_told(redis_server, runner, caplog):
    url = redis_server.url
    redis_server.stop()
    assert _core.RATE_FAIL_CLOSED is False
    answers, limit, logged = failing(url, None, runner)
    assert all("result" in answers[i] for i in (1, 2, 3)), answers  # burst 1: Redis would refuse two
    assert limit.failures == 3 and not limit.fail_closed
    assert all(r["annotations"] == {_core.RATE_FAILURE_ANNOTATION: "open"} for r in logged), logged
    assert sum("Redis did not answer" in r.getMessage() and "admitted" in r.getMessage() for r in caplog.records) == 3
    answers, limit, logged = failing(url, True, runner)
    for i in (1, 2, 3):
        assert answers[i]["error"] == {"code": RATE_LIMITED, "message": _core.RATE_UNAVAILABLE_MESSAGE}, answers
    assert limit.failures == 3
    assert all(r["annotations"] == {_core.RATE_FAILURE_ANNOTATION: "closed"} for r in logged), logged


def test_redis_frozen_fails_open_after_the_timeout(redis_server):
    """SIGSTOP: connected, no answer; each request waits ``timeout`` then is admitted."""
    import time

    redis_server.proc.send_signal(signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        answers, limit, _ = failing(redis_server.url, None, "stdio", timeout=0.2)
        took = time.monotonic() - t0
    finally:
        redis_server.proc.send_signal(signal.SIGCONT)
    assert all("result" in answers[i] for i in (1, 2, 3)), answers
    assert limit.failures == 3
    assert took < 5, took
