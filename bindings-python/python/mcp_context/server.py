"""``App``: an MCP server from decorated functions, on the core's ``ServerMachine``.

The decorators mirror the official SDK's ``MCPServer``::

    app = App("acme-kb", version="1.0.0")

    @app.resource("kb://acme/charte", mime_type="text/markdown", cache=(3_600_000, "public"))
    def charte() -> str:
        return CHARTER

    @app.resource("kb://acme/fiches/{slug}", list=list_sheets, complete={"slug": SHEETS})
    async def fiche(slug: str) -> str: ...

    @app.prompt()
    def repondre_ticket(ticketId: str, ton: Literal["formel", "chaleureux"] = "formel") -> list: ...

    app.run_stdio()            # or app.run_http(port=8000), or mount app.asgi() in any ASGI server

Handlers are ``def`` or ``async def``; a parameter annotated ``Context`` (or named ``ctx``)
receives the request's context (caller, progress, cancellation). Raising ``NotFound``,
``InvalidParams`` or ``McpError`` answers the matching JSON-RPC error; any other exception is
-32603 (logged, message not sent). Every protocol rule stays in the machine: this layer turns
handlers into ``respond_*`` calls and drains the machine at once.
"""

from __future__ import annotations

# Every name this module had before it was split into _handlers and _runtime stays importable.
import asyncio
import base64
import enum
import inspect
import json
import logging
import types as _pytypes
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from . import _core
from ._core import (
    Cancelled,
    Complete,
    GetPrompt,
    ReadResource,
    Request,
    ServerMachine,
    UriTemplate,
)
from ._host import MachineHost, now_ms
from ._handlers import (
    AskInput,
    CacheHint,
    Context,
    InvalidParams,
    McpError,
    NotFound,
    _DYNAMIC_LISTS,
    _Prompt,
    _Resource,
    _Sig,
    _Tool,
    _cache,
    _choices,
    _description,
    _dump,
    _schema,
    log,
)
from ._runtime import Runtime
from ._auth import IntrospectionVerifier, InvalidToken, JwtVerifier

__all__ = [
    "App",
    "AskInput",
    "Context",
    "NotFound",
    "InvalidParams",
    "McpError",
    "Runtime",
    "InvalidToken",
    "JwtVerifier",
    "IntrospectionVerifier",
]

# The public classes keep the module they were always documented in.
for _cls in (AskInput, Context, InvalidParams, McpError, NotFound, Runtime):
    _cls.__module__ = __name__
del _cls


class App:
    """An MCP server: decorate handlers, then run it (``run_stdio``, ``asgi``, ``run_http``)."""

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        *,
        title: str | None = None,
        instructions: str | None = None,
        tools_cache: CacheHint = None,
        **machine_config: Any,
    ) -> None:
        """``name``/``version``/``title`` are the ``serverInfo``; ``tools_cache`` is the hint
        of ``tools/list`` results (default: the core's ``tools_list_cache``);
        ``machine_config`` goes to ``ServerMachine`` as is (``page_size``,
        ``request_timeout_ms``, ``read_cache``, ``state_keys``...)."""
        info = {"name": name, "version": version, **({"title": title} if title else {})}
        self._config = {"server_info": info, "instructions": instructions, **machine_config}
        if tools_cache is not None:
            self._config["tools_list_cache"] = _cache(tools_cache)
        self._statics: dict[str, _Resource] = {}
        self._templates: dict[str, _Resource] = {}
        self._prompts: dict[str, _Prompt] = {}
        self._registrations: list[Callable[[ServerMachine], None]] = []
        self._protected = False  # App.protect: the ASGI runner asks the core's door first
        self._principals: dict[int, dict[str, Any]] = {}  # verified callers by auth id (Context.principal)
        self._completion: Callable[..., Any] | None = None
        self._startup: list[Callable[[], Any]] = []
        self._tools: dict[str, _Tool] = {}
        self._listers: list[tuple[_Resource, Callable[[], Iterable[Any]]]] = []
        self._methods: dict[str, Callable[..., Any]] = {}
        self._runtime: Runtime | None = None
        self._broker: Any = None
        self._middleware: list[Any] = []  # App.middleware (mcp_context.telemetry)
        self._sinks: list[Any] = []  # App.sink
        self._response_cap: int | None = None  # App.limit_responses
        self._sessions: Any = None  # use_session_store
        self._middleware: list[Any] = []  # App.middleware (mcp_context.telemetry)
        self._sinks: list[Any] = []  # App.sink
        self._response_cap: int | None = None  # App.limit_responses

    # --- decorators -------------------------------------------------------------------

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        annotations: Any = None,
        size: int | None = None,
        icons: Any = None,
        meta: dict[str, Any] | None = None,
        cache: CacheHint = None,
        list: Callable[[], Iterable[Any]] | None = None,  # noqa: A002 - the SDK-style keyword
        complete: dict[str, Any] | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a read handler for ``uri``: a static resource, or a template when ``uri``
        has RFC 6570 variables (the handler's parameters are the variables).

        The handler returns ``str`` (text), ``bytes`` (blob), content dicts or pydantic
        contents, or anything JSON (sent as ``application/json`` text); raises ``NotFound``
        for a URI it does not serve. ``cache``: ``{"ttlMs", "cacheScope"}`` or
        ``(ttl_ms, scope)``. Templates only: ``list()`` returns the ``Resource`` dicts (or
        URIs) ``resources/list`` shows; ``complete={var: values or fn(value) -> values}``.
        """
        if callable(uri):
            raise TypeError("use @app.resource('uri'), not @app.resource")
        template = UriTemplate(uri)

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            sig = _Sig.of(fn)
            entry: dict[str, Any] = {"name": name or fn.__name__}
            for k, v in (
                ("title", title),
                ("description", description or inspect.getdoc(fn)),
                ("mimeType", mime_type),
                ("annotations", _dump(annotations)),
                ("size", size),
                ("icons", _dump(icons)),
                ("_meta", meta),
            ):
                if v is not None:
                    entry[k] = v
            hint = _cache(cache)
            if not template.variables:
                if sig.params:
                    raise ValueError(f"resource {uri!r} has no variables but the handler takes {sorted(sig.params)}")
                self._statics[uri] = _Resource(uri, sig, mime_type)
                self._registrations.append(lambda m: m.add_resource({"uri": uri, **entry}, None, hint))
                return fn
            if set(sig.params) != set(template.variables):
                raise ValueError(f"template variables {template.variables} differ from the parameters {sorted(sig.params)}")
            res = _Resource(uri, sig, mime_type, template)
            static_values: dict[str, list[str]] = {}
            for var, values in (complete or {}).items():
                if callable(values):
                    res.completers[var] = values
                else:
                    static_values[var] = [str(v) for v in values]
            self._templates[uri] = res

            if list is not None:
                self._listers.append((res, list))

            def register(m: ServerMachine) -> None:
                m.add_template({"uriTemplate": uri, **entry}, hint, static_values or None)
                if list is not None and not _DYNAMIC_LISTS:
                    # An extension without dynamic lists: the items, listed once, as resources.
                    for item in list():
                        item = _dump(item)
                        if isinstance(item, str):
                            item = {"uri": item, "name": item}
                        if mime_type and "mimeType" not in item:
                            item = {**item, "mimeType": mime_type}
                        self._statics[item["uri"]] = res
                        m.add_resource(item, None, hint)

            self._registrations.append(register)
            return fn

        return decorator

    def prompt(
        self,
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        icons: Any = None,
        meta: dict[str, Any] | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a prompt; its arguments are the handler's parameters (required when
        they have no default; ``Literal``/``Enum`` values are completed and validated;
        ``Annotated[str, "description"]`` describes one). The handler returns a ``str``, a
        list of messages (``str``, message or content dicts, pydantic models) or a
        ``GetPromptResult``."""
        if callable(name):
            raise TypeError("use @app.prompt(), not @app.prompt")

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            sig = _Sig.of(fn)
            pname = name or fn.__name__
            args, choices = [], {}
            for pn, p in sig.params.items():
                ann = sig.hints.get(pn, p.annotation)
                arg: dict[str, Any] = {"name": pn, "required": p.default is inspect.Parameter.empty}
                if (d := _description(ann)) is not None:
                    arg["description"] = d
                if (c := _choices(ann)) is not None:
                    choices[pn] = c
                args.append(arg)
            desc = description or inspect.getdoc(fn)
            entry: dict[str, Any] = {"name": pname, "arguments": args}
            for k, v in (("title", title), ("description", desc), ("icons", _dump(icons)), ("_meta", meta)):
                if v is not None:
                    entry[k] = v
            self._prompts[pname] = _Prompt(sig, desc, choices)
            self._registrations.append(lambda m: m.add_prompt(entry, choices or None))
            return fn

        return decorator

    def tool(
        self,
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        annotations: Any = None,
        icons: Any = None,
        meta: dict[str, Any] | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a tool in the core's registry (``tools/list``, ``tools/call``, the
        ``tools`` capability, unknown tools and missing required arguments are the core's).
        ``inputSchema`` comes from the type hints (required = no default). The handler
        returns a ``str``, content blocks, a ``CallToolResult`` or anything JSON (also sent as
        ``structuredContent`` when a dict). An exception other than
        ``InvalidParams``/``McpError`` is a tool error (``isError: true``, its message as
        text), as the spec asks."""
        if callable(name):
            raise TypeError("use @app.tool(), not @app.tool")

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            sig = _Sig.of(fn)
            props, required = {}, []
            for pn, p in sig.params.items():
                props[pn] = _schema(sig.hints.get(pn, p.annotation) if p.annotation is not inspect.Parameter.empty else Any)
                if p.default is inspect.Parameter.empty:
                    required.append(pn)
            schema: dict[str, Any] = {"type": "object", "properties": props}
            if required:
                schema["required"] = required
            tname = name or fn.__name__
            entry: dict[str, Any] = {"name": tname, "inputSchema": schema}
            for k, v in (
                ("title", title),
                ("description", description or inspect.getdoc(fn)),
                ("annotations", _dump(annotations)),
                ("icons", _dump(icons)),
                ("_meta", meta),
            ):
                if v is not None:
                    entry[k] = v
            self._tools[tname] = _Tool(sig, entry)
            self._registrations.append(lambda m: m.add_tool(entry))
            return fn

        return decorator

    def protect(
        self,
        resource: str,
        authorization_servers: list[str],
        *,
        scopes_supported: list[str] | None = None,
        required_scopes: list[str] | None = None,
        token_required: bool = True,
        resource_name: str | None = None,
        resource_documentation: str | None = None,
    ) -> None:
        """Makes the HTTP endpoint an OAuth 2.1 protected resource (docs/authorization.md):
        ``resource`` is its canonical URL (tokens must name it in ``aud``); the core serves
        the metadata and answers every 401/403; ``asgi(verifier=...)`` verifies tokens."""

        def register(m: ServerMachine) -> None:
            m.set_protection(
                resource,
                authorization_servers,
                scopes_supported=scopes_supported,
                required_scopes=required_scopes,
                token_required=token_required,
                resource_name=resource_name,
                resource_documentation=resource_documentation,
            )

        self._registrations.insert(0, register)  # before any require_scopes
        self._protected = True

    def require_scopes(self, kind: Literal["resource", "template", "prompt", "tool"], key: str, *scopes: str) -> None:
        """Only callers whose token carries ``scopes`` see the item (``key``: its URI, URI
        template or name); naming it without them is HTTP 403 ``insufficient_scope``."""
        self._registrations.append(lambda m: m.require_scopes(kind, key, list(scopes)))

    def method(self, method: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a handler ``fn(params)`` (or ``fn(params, ctx)``) for a method the core
        does not own (a vendor method, ``logging/setLevel``...); it returns the result object."""

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._methods[method] = fn
            return fn

        return decorator

    def completion(self) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers the completion handler ``fn(ref, argument, context)`` (dicts in the
        spec's shape, as the SDK's) for what the registrations do not complete; it returns a
        list of values, a ``Completion`` dict or ``None``."""

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._completion = fn
            return fn

        return decorator

    def middleware(self, m: Any) -> None:
        """Runs ``m`` (a ``telemetry.Middleware``) around every handler, after those added
        before it."""
        self._middleware.append(m)

    def sink(self, s: Any) -> None:
        """Sends the core's observations to ``s`` (``telemetry.Otel``, ``telemetry.JsonLog``
        or any ``telemetry.Sink``); turns them on. An ``Otel`` sink also gets the broker's
        metrics (``use_broker``)."""
        self._sinks.append(s)
        if self._broker is not None and callable(getattr(s, "report_broker", None)):
            s.report_broker(self._broker)

    def limit_responses(self, max_bytes: int) -> None:
        """Answers over ``max_bytes`` become the error ``telemetry.RESPONSE_TOO_LARGE``."""
        self._response_cap = max_bytes

    def on_startup(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        """Decorator: ``fn()`` runs when a runner starts (an ``async def`` runs as a task for
        the server's lifetime, e.g. a loop that calls ``resource_updated``)."""
        self._startup.append(fn)
        return fn

    # --- pushes -------------------------------------------------------------------------

    def resource_updated(self, uri: str) -> None:
        """Tells the listens that opted in that ``uri`` changed (from the loop's thread);
        with a broker (``use_broker``), the fleet's other instances too."""
        if self._broker is not None:
            self._broker.local("resource_updated", uri)  # applied here, then published
        else:
            self._push(lambda m: m.resource_updated(uri))

    def resources_list_changed(self) -> None:
        """``notifications/resources/list_changed`` to the listens that opted in."""
        if self._broker is not None:
            self._broker.local("resources_list_changed")  # applied here, then published
        else:
            self._push(lambda m: m.resources_list_changed())

    def prompts_list_changed(self) -> None:
        """``notifications/prompts/list_changed`` to the listens that opted in."""
        if self._broker is not None:
            self._broker.local("prompts_list_changed")  # applied here, then published
        else:
            self._push(lambda m: m.prompts_list_changed())

    def tools_list_changed(self) -> None:
        """``notifications/tools/list_changed`` to the listens that opted in."""
        if self._broker is not None:
            self._broker.local("tools_list_changed")
        else:
            self._push(lambda m: m.tools_list_changed())

    def log(self, level: str, data: Any, logger: str | None = None) -> int:
        """``notifications/message`` (``level``: ``"debug"`` … ``"emergency"``; ``data``: any
        JSON value) to every 2025-11-25 connection and session whose ``logging/setLevel``
        admits ``level``; how many it was sent on (0 before the server runs). A log line
        about one request goes with the request: ``ctx.log``."""
        rt = self._runtime
        if rt is None:
            return 0
        n = rt.machine.log(level, data, logger)
        rt.host.drain()
        return n

    def use_broker(self, broker: Any) -> None:
        """Scale-out (docs/scale-out.md): the three pushes above are applied here and
        published through ``broker`` (e.g. ``mcp_context.broker.RedisBroker``), whose
        ``run(app)`` task, started with the server, applies the other instances' events
        through ``_push``. Its metrics go to an ``Otel`` sink's meter provider (``sink``).
        Call before the server starts."""
        self._broker = broker
        broker._app = self
        for s in self._sinks:
            if callable(getattr(s, "report_broker", None)):
                s.report_broker(broker)
        self._startup.append(lambda: broker.run(self))

    def use_session_store(self, store: Any) -> None:
        """Scale-out of 2025-11-25 sessions (docs/scale-out.md): the machine's sessions and
        their GET streams' events are kept in ``store`` (e.g.
        ``mcp_context._session_store.RedisSessionStore``), so any instance serves any session
        and a stream resumes on any instance with ``Last-Event-ID``. Call before the server
        starts."""
        self._sessions = store
        store.attach(self)

    def _push(self, fn: Callable[[ServerMachine], None]) -> None:
        rt = self._runtime
        if rt is not None:
            fn(rt.machine)
            rt.host.drain()

    # --- runners ------------------------------------------------------------------------

    def run_stdio(self, *, auth: int = 0) -> None:
        """Serves one client on stdin/stdout (pipes, files and terminals) until stdin ends."""
        from ._stdio import serve_stdio

        asyncio.run(serve_stdio(self, auth=auth))

    async def serve_stdio(self, *, auth: int = 0, stdin: Any = None, stdout: Any = None) -> None:
        """``run_stdio`` inside a running loop (``stdin``/``stdout``: binary files)."""
        from ._stdio import serve_stdio

        await serve_stdio(self, auth=auth, stdin=stdin, stdout=stdout)

    def asgi(self, **options: Any) -> Any:
        """An ASGI 3 application serving Streamable HTTP (see ``mcp_context._asgi.AsgiApp``):
        ``path="/mcp"``, ``authenticate=fn(headers) -> int``, ``verifier`` (a protected
        endpoint's token verifier, see ``protect``), ``allowed_hosts``, ``max_body``,
        ``keepalive_s``."""
        from ._asgi import AsgiApp

        return AsgiApp(self, **options)

    def run_http(self, host: str = "127.0.0.1", port: int = 8000, *, ready: Callable[[int], None] | None = None, **options: Any) -> None:
        """Serves ``asgi(**options)`` on uvicorn at ``http://host:port/mcp`` until interrupted;
        ``ready(port)`` is called once listening (``port=0``: the OS picks one)."""
        from ._asgi import run_uvicorn

        run_uvicorn(self.asgi(**options), host, port, ready)

    # --- the runtime (one per running loop) -----------------------------------------------

    def runtime(self) -> Runtime:
        """The running server: ``.machine`` (the ``ServerMachine``), ``.dispatch(event)`` and
        ``.host.drain()``. Created on first use in the running loop; outside a loop it serves
        synchronous in-process use (tests wiring a ``ClientMachine`` to the machine), where a
        handler that awaits is answered -32603."""
        return self._start()

    def _start(self) -> Runtime:
        rt = self._runtime
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if rt is None or rt.host.loop is not loop:
            rt = Runtime(self)
        return rt


