"""``Client``: an awaitable MCP client on the core's ``ClientMachine``.

    async with Client.stdio(["python", "server.py"]) as c:        # or Client.http(url)
        listed = await c.list_resources()
        result = await c.read_resource("kb://acme/charte-reponse")
        async with c.listen(resource_subscriptions=["kb://acme/horloge"]) as events:
            async for event in events:                                 # Notified
                ...

The machine holds every protocol rule (version negotiation and the legacy-era fallback,
pagination, the result cache, ``input_required`` rounds, subscriptions); this module moves
bytes and time. Failed calls raise ``mcp_context.McpError`` (``.code``, ``.data``).
``on_input(requests)`` answers ``input_required`` rounds: ``{key: {"method", "params"}}`` in,
``{key: result}`` out (``def`` or ``async def``); without it such a call fails.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from ._core import (
    Acknowledged,
    ClientMachine,
    ClientReply,
    ClientTransmit,
    CloseStream,
    Failed,
    InputRequired,
    Listed,
    McpError,
    Notified,
    SseDecoder,
    SubscriptionEnded,
)
from ._host import now_ms
from ._oauth import AuthFlow, AuthorizationError, MemoryTokenStore, OAuth, TokenStore, UserAgent

__all__ = ["AuthorizationError", "Client", "MemoryTokenStore", "NoStore", "OAuth", "Subscription", "TokenStore", "UserAgent"]

InputHandler = Callable[[dict[str, Any]], Mapping[str, Any] | Awaitable[Mapping[str, Any]]]


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if dump is not None and not isinstance(value, type):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return value


class NoStore:
    """A host-side no-store policy (``Client(no_store=NoStore(r"notes://private/.*"))``): URIs
    that fully match a pattern are always fetched from the server and their results are dropped
    from the client cache as they arrive (``ClientMachine.forget_read``), whatever the server's
    hints allowed. The hints protect every client of a correct server; this protects this host
    from an incorrect one."""

    def __init__(self, *patterns: str) -> None:
        self.patterns = [re.compile(p) for p in patterns]

    def __call__(self, uri: str) -> bool:
        return any(p.fullmatch(uri) for p in self.patterns)


class Subscription:
    """An open ``subscriptions/listen``: ``honoured``/``refused`` filters, and an async
    iterator of ``Notified`` events that ends when the subscription does."""

    def __init__(self, client: Client, call: int) -> None:
        self._client = client
        self.call = call
        self.honoured: dict[str, Any] = {}
        self.refused: dict[str, Any] = {}
        self.ended: str | None = None
        """Why the subscription ended (``"graceful"``, ...), or ``None`` while open."""
        self._queue: asyncio.Queue[Any] = asyncio.Queue()

    def __aiter__(self) -> AsyncIterator[Notified]:
        return self

    async def __anext__(self) -> Notified:
        item = await self._queue.get()
        if isinstance(item, BaseException):
            raise item
        if item is None:
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        return item


class _Listen:
    def __init__(self, client: Client, filt: dict[str, Any]) -> None:
        self._client = client
        self._filter = filt
        self._sub: Subscription | None = None

    async def __aenter__(self) -> Subscription:
        c = self._client
        ack: asyncio.Future[Any] = c._loop.create_future()
        call = c._call(lambda m, t: m.listen(self._filter, t), ack)
        sub = Subscription(c, call)
        c._subs[call] = sub
        self._sub = sub
        result = await ack
        sub.honoured, sub.refused = result.honoured, result.refused
        return sub

    async def __aexit__(self, *exc: Any) -> None:
        sub = self._sub
        if sub is not None and sub.ended is None:
            c = self._client
            c._subs.pop(sub.call, None)
            try:
                c.machine.cancel(sub.call, now_ms())
            except Exception:  # noqa: BLE001 - already ended on the machine's side
                pass
            c._drain()


class Client:
    """An MCP client over a stdio subprocess (``Client.stdio``) or Streamable HTTP
    (``Client.http``). Use ``async with``, or ``await client`` then ``await client.close()``."""

    def __init__(
        self,
        transport: _Transport,
        *,
        name: str = "mcp-context-aio",
        version: str = "0.1.0",
        on_input: InputHandler | None = None,
        no_store: Callable[[str], bool] | None = None,
        **machine_config: Any,
    ) -> None:
        self._transport = transport
        machine_config.setdefault("transport", transport.kind)
        self.machine = ClientMachine(name, version, **machine_config)
        """The underlying ``ClientMachine`` (the cache: ``read_cached``, ``forget_read``)."""
        self.on_input = on_input
        self.no_store = no_store
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._subs: dict[int, Subscription] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop = None  # type: ignore[assignment]
        self._draining = False
        self._closed = False
        self._auth_failure: AuthorizationError | None = None

    @classmethod
    def stdio(cls, command: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: str | None = None, **kw: Any) -> Client:
        """A client of the server ``command`` runs (newline-delimited JSON-RPC on its stdio).

        The era probe's timeout (``probe_timeout_ms``) defaults to 15 s here: it runs while
        the server process starts, which can take seconds (a legacy server answers the probe
        with an error at once, so only a silent one waits that long)."""
        kw.setdefault("probe_timeout_ms", 15_000)
        return cls(_Stdio(list(command), env, cwd), **kw)

    @classmethod
    def http(cls, url: str, *, headers: Mapping[str, str] | None = None, auth: OAuth | None = None, **kw: Any) -> Client:
        """A client of the Streamable HTTP endpoint ``url`` (``headers``: e.g. a fixed
        ``Authorization``). With ``auth``, a 401 (or 403 ``insufficient_scope``) runs the OAuth
        flow and the request is sent again with the new token; tokens are refreshed before
        they expire and kept in ``auth.store``. A failed flow fails the call with an
        ``McpError`` whose ``__cause__`` is the ``AuthorizationError``."""
        return cls(_Http(url, dict(headers or {}), auth), **kw)

    # --- lifecycle ----------------------------------------------------------------------

    async def start(self) -> Client:
        """Starts the transport (calls connect on their own)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            await self._transport.start(self)
        return self

    def __await__(self) -> Any:
        return self.start().__await__()

    async def __aenter__(self) -> Client:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the transport; pending calls fail with ``McpError(kind="closed")``."""
        if self._closed:
            return
        self._closed = True
        ending = self.machine.end_session() if self._loop is not None else None
        if ending is not None and isinstance(self._transport, _Http):
            await self._transport.end_session(ending)
        await self._transport.close()
        if self._loop is not None:
            self.machine.handle_close(now_ms())
            self._drain()
        if self._timer is not None:
            self._timer.cancel()

    # --- calls ----------------------------------------------------------------------------

    def _call(self, start: Callable[[ClientMachine, int], int], fut: asyncio.Future[Any] | None = None) -> int:
        if self._closed:
            raise McpError("the client is closed")
        fut = fut if fut is not None else self._loop.create_future()
        call = start(self.machine, now_ms())
        self._calls[call] = fut
        self._drain()
        return call

    async def _await(self, start: Callable[[ClientMachine, int], int]) -> Any:
        fut: asyncio.Future[Any] = self._loop.create_future()
        call = self._call(start, fut)
        try:
            return await fut
        except asyncio.CancelledError:
            if self._calls.pop(call, None) is not None:
                try:
                    self.machine.cancel(call, now_ms())
                except Exception:  # noqa: BLE001 - the call ended meanwhile
                    pass
                self._drain()
            raise

    async def discover(self, *, refresh: bool = False) -> dict[str, Any]:
        """``server/discover`` (the legacy ``InitializeResult`` on a legacy server)."""
        return (await self._await(lambda m, t: m.discover(t, refresh=refresh))).result

    async def list_resources(self, *, cursor: str | None = None, all_pages: bool = True, refresh: bool = False) -> list[dict[str, Any]]:
        """Every resource (``all_pages``), or one page from ``cursor``."""
        listed = await self._await(lambda m, t: m.list_resources(t, cursor=cursor, all_pages=all_pages, refresh=refresh))
        return [r for p in listed.pages for r in p.get("resources", [])]

    async def list_resource_templates(self, *, all_pages: bool = True, refresh: bool = False) -> list[dict[str, Any]]:
        """Every resource template."""
        listed = await self._await(lambda m, t: m.list_resource_templates(t, all_pages=all_pages, refresh=refresh))
        return [r for p in listed.pages for r in p.get("resourceTemplates", [])]

    async def list_prompts(self, *, all_pages: bool = True, refresh: bool = False) -> list[dict[str, Any]]:
        """Every prompt."""
        listed = await self._await(lambda m, t: m.list_prompts(t, all_pages=all_pages, refresh=refresh))
        return [r for p in listed.pages for r in p.get("prompts", [])]

    async def read_resource(self, uri: str, *, refresh: bool = False) -> dict[str, Any]:
        """The ``ReadResourceResult``; a fresh cached result answers unless ``refresh`` (or the
        ``no_store`` policy names ``uri``)."""
        return (await self.read_resource_reply(uri, refresh=refresh)).result

    async def read_resource_reply(self, uri: str, *, refresh: bool = False) -> ClientReply:
        """``read_resource`` as the machine's ``ClientReply`` (``.result``, ``.from_cache``)."""
        uri = str(uri)
        skip = self.no_store is not None and self.no_store(uri)
        reply = await self._await(lambda m, t: m.read_resource(uri, t, refresh=refresh or skip))
        if skip:
            self.machine.forget_read(uri)
        return reply

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The ``GetPromptResult``."""
        return (await self._await(lambda m, t: m.get_prompt(name, t, dict(arguments or {})))).result

    async def complete(self, ref: Any, argument: Any, context: Any = None) -> dict[str, Any]:
        """``completion/complete``: the ``completion`` object (``values``, ...)."""
        ref, argument, context = _dump(ref), _dump(argument), _dump(context)
        reply = await self._await(lambda m, t: m.complete(ref, argument, t, context))
        return reply.result.get("completion", {})

    async def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Any method the machine does not own (``tools/list``, vendor methods): the result
        object. The machine adds ``_meta``, ids, deadlines and the ``input_required`` loop."""
        body = _dump(params) if params is not None else {}
        return (await self._await(lambda m, t: m.request(method, body, t))).result

    async def list_tools(self, *, cursor: str | None = None, all_pages: bool = True, refresh: bool = False) -> list[dict[str, Any]]:
        """Every tool (``all_pages``, paged by the machine), or one page from ``cursor``;
        tools with invalid ``x-mcp-header`` annotations are left out."""
        listed = await self._await(lambda m, t: m.list_tools(t, cursor=cursor, all_pages=all_pages, refresh=refresh))
        return [r for p in listed.pages for r in p.get("tools", [])]

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``tools/call``: the ``CallToolResult`` (a tool's own failure is ``isError: true``)."""
        return await self.request("tools/call", {"name": name, "arguments": dict(arguments or {})})

    def listen(self, filter: Mapping[str, Any] | None = None, **fields: Any) -> _Listen:  # noqa: A002
        """``async with client.listen(resource_subscriptions=[...]) as events``: the filter as a
        ``SubscriptionFilter`` dict or snake_case keywords; ``events`` iterates ``Notified``."""
        filt = dict(_dump(filter) or {})
        for k, v in fields.items():
            head, *rest = k.split("_")
            filt[head + "".join(w.title() for w in rest)] = v
        return _Listen(self, filt)

    # --- the machine's outputs --------------------------------------------------------------

    def _feed(self, data: bytes) -> None:
        self.machine.handle_message(data, now_ms())
        self._drain()

    def _drain(self) -> None:
        if self._draining:
            return
        self._draining = True
        try:
            m = self.machine
            while (o := m.poll_output()) is not None:
                self._route(o)
        finally:
            self._draining = False
        self._arm()

    def _route(self, o: Any) -> None:
        t = type(o)
        if t is ClientTransmit:
            self._transport.send(self, o)
        elif t is ClientReply or t is Listed:
            self._settle(o.call, o)
        elif t is Failed:
            if self._auth_failure is not None and o.error.__cause__ is None:
                o.error.__cause__ = self._auth_failure
            sub = self._subs.pop(o.call, None)
            if sub is not None:
                sub.ended = "failed"
                sub._queue.put_nowait(o.error)
            fut = self._calls.pop(o.call, None)
            if fut is not None and not fut.done():
                fut.set_exception(o.error)
        elif t is Acknowledged:
            self._settle(o.call, o)
        elif t is Notified:
            sub = self._subs.get(o.subscription) if o.subscription is not None else None
            if sub is not None:
                sub._queue.put_nowait(o)
        elif t is SubscriptionEnded:
            sub = self._subs.pop(o.call, None)
            if sub is not None:
                sub.ended = o.reason
                sub._queue.put_nowait(None)
        elif t is InputRequired:
            self._loop.create_task(self._input(o))
        elif t is CloseStream:
            self._transport.close_stream(o.id)

    def _settle(self, call: int, value: Any) -> None:
        fut = self._calls.pop(call, None)
        if fut is not None and not fut.done():
            fut.set_result(value)

    async def _input(self, o: InputRequired) -> None:
        try:
            if self.on_input is None:
                raise McpError("the server asked for input and this client has no on_input handler")
            answers = self.on_input(o.requests)
            if inspect.isawaitable(answers):
                answers = await answers
            self.machine.respond_input(o.call, {k: _dump(v) for k, v in dict(answers).items()}, now_ms())
        except Exception as e:  # noqa: BLE001 - the call fails with the handler's error
            fut = self._calls.pop(o.call, None)
            try:
                self.machine.cancel(o.call, now_ms())
            except Exception:  # noqa: BLE001
                pass
            if fut is not None and not fut.done():
                fut.set_exception(e)
        self._drain()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        at = self.machine.poll_timeout()
        if at is not None and self._loop is not None and not self._closed:
            self._timer = self._loop.call_later(max(0, at - now_ms()) / 1000, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.machine.handle_timeout(now_ms())
        self._drain()


class _Transport:
    kind = "stdio"

    async def start(self, client: Client) -> None:
        raise NotImplementedError

    def send(self, client: Client, t: ClientTransmit) -> None:
        raise NotImplementedError

    def close_stream(self, id: int) -> None:  # noqa: A002
        pass

    async def close(self) -> None:
        raise NotImplementedError


class _Stdio(_Transport):
    kind = "stdio"

    def __init__(self, command: list[str], env: Mapping[str, str] | None, cwd: str | None) -> None:
        self.command, self.env, self.cwd = command, env, cwd
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self, client: Client) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=dict(self.env) if self.env is not None else None,
            cwd=self.cwd,
            limit=16 << 20,
        )
        self.reader = asyncio.get_running_loop().create_task(self._read(client))

    async def _read(self, client: Client) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        while True:
            try:
                line = await out.readline()
            except ValueError:  # a line beyond the limit: the peer is broken
                break
            if not line:
                break
            if line.strip():
                client._feed(line.rstrip(b"\r\n"))
        if not client._closed:
            client.machine.handle_close(now_ms())
            client._drain()

    def send(self, client: Client, t: ClientTransmit) -> None:
        if self.proc is not None and self.proc.stdin is not None and not self.proc.stdin.is_closing():
            self.proc.stdin.write(t.bytes + b"\n")

    async def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 2)
        except TimeoutError:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 2)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        if self.reader is not None:
            self.reader.cancel()


class _Http(_Transport):
    """One POST per message; the answer is a JSON body or an event stream (parsed by the
    core's ``SseDecoder``). A 2025-11-25 session is the machine's: each response head goes
    to ``handle_http_response`` and the session header comes with ``http_headers``; closing
    sends the ``DELETE`` that ends it (``end_session``)."""

    kind = "http"

    def __init__(self, url: str, headers: dict[str, str], auth: OAuth | None = None) -> None:
        self.url = url
        self.headers = headers
        self.auth: AuthFlow | None = auth.flow(url) if auth is not None else None
        self.http: Any = None
        self.posts: dict[int | None, asyncio.Task[None]] = {}
        self.others: set[asyncio.Task[None]] = set()

    async def start(self, client: Client) -> None:
        import httpx

        self.http = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=10), limits=httpx.Limits(max_connections=None, max_keepalive_connections=64))

    def send(self, client: Client, t: ClientTransmit) -> None:
        # The machine's headers, values encoded for the wire (Mcp-Name, Mcp-Param-*,
        # Mcp-Session-Id).
        headers = {**self.headers, **dict(t.http_headers)}
        task = asyncio.get_running_loop().create_task(self._post(client, t.bytes, headers, t.id))
        if t.id is not None:
            self.posts[t.id] = task
        else:
            self.others.add(task)
            task.add_done_callback(self.others.discard)

    async def _post(self, client: Client, body: bytes, headers: dict[str, str], id: int | None) -> None:  # noqa: A002
        answered = broken = False
        failure: AuthorizationError | None = None
        try:
            # With OAuth: a challenge runs the flow, then the same message goes again (at most
            # a few times; the flow counts its own attempts).
            for _attempt in range(4):
                sent, grant = await self.auth.credentials(self.url) if self.auth is not None else (None, None)
                sending = {**headers, "Authorization": sent} if sent is not None else headers
                async with self.http.stream("POST", self.url, content=body, headers=sending) as r:
                    if self.auth is not None and r.status_code in (401, 403):
                        challenge = (r.status_code, r.headers.get("www-authenticate"))
                        await r.aread()
                    else:
                        if self.auth is not None:
                            if 200 <= r.status_code < 300:
                                self.auth.success()
                            # The cache follows the grant whose token got this answer
                            # (docs/rules.md §21.7): this result and the lookups after it.
                            self._grant(client, id, grant if sent is not None else None)
                        answered, broken = await self._answer(client, r, id)
                        break
                try:
                    await self.auth.challenge(self.url, sent, *challenge)
                except AuthorizationError as e:
                    failure, broken = e, True
                    break
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the request failed on the wire (or an SSE event over the bound)
            broken = True  # e.g. a listen stream cut by a dying server: the listen fails
        finally:
            if id is not None:
                self.posts.pop(id, None)
        if id is not None and (broken or not answered) and not client._closed:
            client._auth_failure = failure
            try:
                client.machine.handle_request_failed(id, now_ms())
                client._drain()
            finally:
                client._auth_failure = None

    @staticmethod
    def _grant(client: Client, id: int | None, grant: int | None) -> None:  # noqa: A002
        if not client._closed:
            client.machine.set_auth_context(grant)
            if id is not None:
                client.machine.set_request_auth_context(id, grant)

    async def _answer(self, client: Client, r: Any, id: int | None) -> tuple[bool, bool]:  # noqa: A002
        """Feeds one response to the machine: ``(answered, broken)``."""
        answered = broken = False
        try:
            if not client._closed:
                client.machine.handle_http_response(id, r.status_code, r.headers.get("mcp-session-id"), now_ms())
                client._drain()
            ok = 200 <= r.status_code < 300
            ctype = r.headers.get("content-type", "").split(";")[0].strip()
            if ctype == "text/event-stream":
                broken = True  # ended without the final answer: failed (else a no-op)
                sse = SseDecoder()
                async for chunk in r.aiter_bytes():
                    for _event, data, _id in sse.feed(chunk):
                        client._feed(data)
                        answered = True
            elif ctype == "application/json":
                payload = await r.aread()
                if payload.strip():
                    client._feed(payload)
                    # An error status whose body did not answer the request (an error
                    # without id): failed below (a no-op when the body answered it).
                    answered = ok
            else:
                await r.aread()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - see _post
            broken = True
        return answered, broken

    def close_stream(self, id: int) -> None:  # noqa: A002
        task = self.posts.pop(id, None)
        if task is not None:
            task.cancel()

    async def end_session(self, headers: list[tuple[str, str]]) -> None:
        """``DELETE`` with the machine's headers (a 405 only means the server keeps sessions
        until they expire)."""
        if self.http is not None:
            try:
                sent = await self.auth.header(self.url) if self.auth is not None else None
                auth = {"Authorization": sent} if sent is not None else {}
                await self.http.request("DELETE", self.url, headers={**self.headers, **dict(headers), **auth})
            except Exception:  # noqa: BLE001, S110 - best effort at close
                pass

    async def close(self) -> None:
        for task in [*self.posts.values(), *self.others]:
            task.cancel()
        if self.http is not None:
            await self.http.aclose()
        if self.auth is not None:
            await self.auth.close()
