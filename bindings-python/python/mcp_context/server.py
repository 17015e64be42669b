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

__all__ = ["App", "AskInput", "Context", "NotFound", "InvalidParams", "McpError", "Runtime"]

log = logging.getLogger("mcp_context.server")

# The extension's dynamic resource lists (``ServerMachine(dynamic_resources=True)``, the
# ``ListResources`` event, ``respond_list``): a template's ``list()`` is then asked on every
# ``resources/list``; without them its items are registered once at start.
_DYNAMIC_LISTS = hasattr(_core, "ListResources")
_PLAIN = (str, bytes, dict, list, tuple, type(None))  # results that are never awaitable
_LIST_PAGE = 50


class NotFound(Exception):
    """Raise in a read handler: the resource does not exist (-32602 with ``data.uri``)."""


class InvalidParams(Exception):
    """Raise in any handler: the request's arguments are invalid (-32602)."""


class AskInput(Exception):  # noqa: N818 - an answer, not an error
    """Raise in a handler to answer ``input_required``: ``requests`` maps keys to
    ``{"method": "elicitation/create", "params": {...}}``; ``state`` (bytes) comes back sealed
    and verified on the retry as ``ctx.retry.state``, with ``ctx.retry.input_responses``."""

    def __init__(self, requests: dict[str, Any], state: bytes | None = None) -> None:
        super().__init__("input required")
        self.requests = requests
        self.state = state


class McpError(_core.McpError):
    """Raise in any handler to answer a JSON-RPC error with ``code`` (default -32603).

    Also a ``mcp_context.McpError``: an error an ``aio.Client`` call raised can be re-raised as is.
    """

    def __init__(self, message: str, code: int = -32603, data: Any = None) -> None:
        super().__init__(message)
        self.kind = "server"
        self.code = code
        self.message = message
        self.data = data


class Context:
    """What a handler knows about its request."""

    def __init__(self, host: Runtime, handle: Any, auth: int, capabilities: frozenset, retry: Any) -> None:
        self._host = host
        self._handle = handle
        self.auth = auth
        """The caller context (``authenticate``'s value on HTTP; 0 = anonymous)."""
        self.capabilities = capabilities
        """Client capabilities declared on this request (``"elicitation.form"``, ...)."""
        self.retry = retry
        """The verified inputs of an input-required retry, or ``None``."""
        self._cancelled: asyncio.Event | None = None
        self._was_cancelled = False

    @property
    def cancelled(self) -> asyncio.Event:
        """Set when the request is cancelled (client cancel, closed stream, timeout)."""
        if self._cancelled is None:
            self._cancelled = asyncio.Event()
            if self._was_cancelled:
                self._cancelled.set()
        return self._cancelled

    def _cancel(self) -> None:
        self._was_cancelled = True
        if self._cancelled is not None:
            self._cancelled.set()

    @property
    def is_cancelled(self) -> bool:
        """Whether the request was cancelled."""
        return self._was_cancelled

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> bool:
        """Sends ``notifications/progress`` when the request carried a ``progressToken``.

        Returns ``False`` when nothing was sent (no token, or the request already answered).
        """
        send = getattr(self._host.machine, "progress", None)
        if send is None or self.is_cancelled:
            return False
        try:
            sent = send(self._handle, progress, total, message)
        except _core.RespondError:
            return False
        self._host.host.drain()
        return bool(sent)


CacheHint = dict[str, Any] | tuple[int, str] | None


def _cache(hint: CacheHint) -> dict[str, Any] | None:
    if hint is None or isinstance(hint, dict):
        return hint
    ttl, scope = hint
    return {"ttlMs": ttl, "cacheScope": scope}


def _dump(value: Any) -> Any:
    """A pydantic model (``mcp.types``) as its wire dict; anything else unchanged."""
    dump = getattr(value, "model_dump", None)
    if dump is not None and not isinstance(value, type):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return value


def _choices(annotation: Any) -> list[str] | None:
    """The allowed values of a ``Literal[...]`` or ``Enum`` annotation (``Optional`` unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _choices(typing.get_args(annotation)[0])
    if origin is Literal:
        return [str(v) for v in typing.get_args(annotation)]
    if origin in (typing.Union, _pytypes.UnionType):
        for arg in typing.get_args(annotation):
            if arg is not type(None) and (c := _choices(arg)) is not None:
                return c
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(m.value) for m in annotation]
    return None


def _description(annotation: Any) -> str | None:
    """``Annotated[T, "text"]`` or ``Annotated[T, Field(description=...)]``."""
    if typing.get_origin(annotation) is typing.Annotated:
        for meta in typing.get_args(annotation)[1:]:
            if isinstance(meta, str):
                return meta
            if isinstance(getattr(meta, "description", None), str):
                return meta.description
    return None


def _base(annotation: Any) -> Any:
    if typing.get_origin(annotation) is typing.Annotated:
        return typing.get_args(annotation)[0]
    return annotation


def _convert(value: str, annotation: Any) -> Any:
    """A string argument as the parameter's type (``int``, ``float``, ``bool``, an ``Enum``)."""
    t = _base(annotation)
    if t in (int, float):
        try:
            return t(value)
        except ValueError:
            raise InvalidParams(f"{value!r} is not a {t.__name__}") from None
    if t is bool:
        return value.lower() in ("1", "true", "yes")
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return t(value) if not issubclass(t, int) else t(int(value))
    return value


def _schema(annotation: Any) -> dict[str, Any]:
    """A JSON Schema for a parameter's type hint (``str``, ``int``, ``float``, ``bool``, lists,
    dicts, ``Literal``/``Enum``, ``Optional``, ``Annotated`` descriptions, pydantic models)."""
    schema: dict[str, Any]
    if typing.get_origin(annotation) is typing.Annotated:
        schema = dict(_schema(typing.get_args(annotation)[0]))
        if (d := _description(annotation)) is not None:
            schema["description"] = d
        return schema
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if (choices := _choices(annotation)) is not None and origin not in (typing.Union, _pytypes.UnionType):
        values = list(args) if origin is Literal else [m.value for m in annotation]
        return {"enum": values}
    if origin in (typing.Union, _pytypes.UnionType):
        options = [_schema(a) for a in args if a is not type(None)]
        schema = options[0] if len(options) == 1 else {"anyOf": options}
        return {"anyOf": [schema, {"type": "null"}]} if type(None) in args else schema
    if origin in (list, tuple, set, frozenset) or annotation in (list, tuple, set, frozenset):
        return {"type": "array", **({"items": _schema(args[0])} if args else {})}
    if origin is dict or annotation is dict:
        return {"type": "object"}
    simple = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    if annotation in simple:
        return {"type": simple[annotation]}
    model_schema = getattr(annotation, "model_json_schema", None)
    if model_schema is not None:
        return model_schema()
    return {}


def _tool_result(value: Any) -> dict[str, Any]:
    """A tool's return value as a ``CallToolResult``."""
    value = _dump(value)
    if isinstance(value, dict) and "content" in value and isinstance(value["content"], list):
        return value
    if isinstance(value, str):
        return {"content": [{"type": "text", "text": value}]}
    if isinstance(value, (list, tuple)) and all(isinstance(_dump(v), dict) and "type" in _dump(v) for v in value):
        return {"content": [_dump(v) for v in value]}
    text = json.dumps(value, ensure_ascii=False)
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    if isinstance(value, dict):
        result["structuredContent"] = value
    return result


@dataclass
class _Tool:
    sig: _Sig
    entry: dict[str, Any]


@dataclass
class _Sig:
    """A handler's parameters: which receives the context, and each other's annotation."""

    fn: Callable[..., Any]
    ctx: str | None
    params: dict[str, inspect.Parameter] = field(default_factory=dict)
    hints: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, fn: Callable[..., Any]) -> _Sig:
        try:
            hints = typing.get_type_hints(fn, include_extras=True)
        except Exception:  # noqa: BLE001 - unresolvable annotations: keep the raw ones
            hints = {}
        ctx, params = None, {}
        for name, p in inspect.signature(fn).parameters.items():
            ann = hints.get(name, p.annotation)
            if ann is Context or (name == "ctx" and ann is inspect.Parameter.empty):
                ctx = name
            else:
                params[name] = p
        return cls(fn, ctx, params, hints)

    def call(self, ctx: Context, args: dict[str, Any]) -> Any:
        kwargs = {k: _convert(v, self.hints.get(k)) if isinstance(v, str) else v for k, v in args.items() if k in self.params}
        if self.ctx is not None:
            kwargs[self.ctx] = ctx
        return self.fn(**kwargs)


def _contents(uri: str, mime: str | None, value: Any) -> list[dict[str, Any]]:
    """A read handler's return value as ``ResourceContents`` dicts."""
    value = _dump(value)
    if isinstance(value, str):
        item: dict[str, Any] = {"uri": uri, "text": value}
    elif isinstance(value, (bytes, bytearray, memoryview)):
        item = {"uri": uri, "blob": base64.b64encode(bytes(value)).decode()}
    elif isinstance(value, dict) and ("text" in value or "blob" in value):
        return [{"uri": uri, **({"mimeType": mime} if mime else {}), **value}]
    elif isinstance(value, (list, tuple)) and value and all(
        isinstance(_dump(v), dict) and ("text" in _dump(v) or "blob" in _dump(v)) for v in value
    ):
        return [c for v in value for c in _contents(uri, mime, v)]
    else:
        item = {"uri": uri, "text": json.dumps(value, ensure_ascii=False), "mimeType": "application/json"}
        return [item]
    if mime:
        item["mimeType"] = mime
    return [item]


def _message(value: Any) -> dict[str, Any]:
    value = _dump(value)
    if isinstance(value, str):
        return {"role": "user", "content": {"type": "text", "text": value}}
    if isinstance(value, dict) and "role" in value:
        return {**value, "content": _dump(value["content"])}
    if isinstance(value, dict) and "type" in value:
        return {"role": "user", "content": value}
    raise TypeError(f"a prompt message must be a str, a message or a content dict, not {type(value).__name__}")


def _prompt_result(value: Any, description: str | None) -> dict[str, Any]:
    value = _dump(value)
    if isinstance(value, dict) and "messages" in value:
        return {**value, "messages": [_message(m) for m in value["messages"]]}
    messages = [value] if isinstance(value, (str, dict)) else list(value)
    result: dict[str, Any] = {"messages": [_message(m) for m in messages]}
    if description:
        result["description"] = description
    return result


@dataclass
class _Resource:
    uri: str
    sig: _Sig
    mime: str | None
    template: UriTemplate | None = None
    completers: dict[str, Callable[..., Any]] = field(default_factory=dict)


@dataclass
class _Prompt:
    sig: _Sig
    description: str | None
    choices: dict[str, list[str]]


class App:
    """An MCP server: decorate handlers, then run it (``run_stdio``, ``asgi``, ``run_http``)."""

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        *,
        title: str | None = None,
        instructions: str | None = None,
        tools_cache: CacheHint = (0, "public"),
        **machine_config: Any,
    ) -> None:
        """``name``/``version``/``title`` are the ``serverInfo``; ``tools_cache`` is the hint
        of ``tools/list`` results; ``machine_config`` goes to ``ServerMachine`` as is
        (``page_size``, ``request_timeout_ms``, ``read_cache``, ``state_keys``...)."""
        self._tools_cache = _cache(tools_cache)
        info = {"name": name, "version": version, **({"title": title} if title else {})}
        self._config = {"server_info": info, "instructions": instructions, **machine_config}
        self._statics: dict[str, _Resource] = {}
        self._templates: dict[str, _Resource] = {}
        self._prompts: dict[str, _Prompt] = {}
        self._registrations: list[Callable[[ServerMachine], None]] = []
        self._completion: Callable[..., Any] | None = None
        self._startup: list[Callable[[], Any]] = []
        self._tools: dict[str, _Tool] = {}
        self._listers: list[tuple[_Resource, Callable[[], Iterable[Any]]]] = []
        self._methods: dict[str, Callable[..., Any]] = {}
        self._runtime: Runtime | None = None
        self._broker: Any = None

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
        """Registers a tool (``tools/list``, ``tools/call`` through the machine's extension
        methods; ``tools`` announced in ``server/discover``). ``inputSchema`` comes from the
        type hints (required = no default). The handler returns a ``str``, content blocks, a
        ``CallToolResult`` or anything JSON (also sent as ``structuredContent`` when a dict).
        An exception other than ``InvalidParams``/``McpError`` is a tool error
        (``isError: true``, its message as text), as the spec asks."""
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
            return fn

        return decorator

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

    def on_startup(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        """Decorator: ``fn()`` runs when a runner starts (an ``async def`` runs as a task for
        the server's lifetime, e.g. a loop that calls ``resource_updated``)."""
        self._startup.append(fn)
        return fn

    # --- pushes -------------------------------------------------------------------------

    def resource_updated(self, uri: str) -> None:
        """Tells the listens that opted in that ``uri`` changed (from the loop's thread);
        with a broker (``use_broker``), the fleet's other instances too."""
        self._push(lambda m: m.resource_updated(uri))
        if self._broker is not None:
            self._broker.publish("resource_updated", uri)

    def resources_list_changed(self) -> None:
        """``notifications/resources/list_changed`` to the listens that opted in."""
        self._push(lambda m: m.resources_list_changed())
        if self._broker is not None:
            self._broker.publish("resources_list_changed")

    def prompts_list_changed(self) -> None:
        """``notifications/prompts/list_changed`` to the listens that opted in."""
        self._push(lambda m: m.prompts_list_changed())
        if self._broker is not None:
            self._broker.publish("prompts_list_changed")

    def use_broker(self, broker: Any) -> None:
        """Scale-out (docs/scale-out.md): the three pushes above are applied here and
        published through ``broker`` (e.g. ``mcp_context.broker.RedisBroker``), whose
        ``run(app)`` task, started with the server, applies the other instances' events
        through ``_push``. Call before the server starts."""
        self._broker = broker
        self._startup.append(lambda: broker.run(self))

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
        ``path="/mcp"``, ``authenticate=fn(headers) -> int``, ``allowed_hosts``,
        ``max_body``, ``keepalive_s``."""
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


class _ToolError:
    """A tool's exception, answered as a result with ``isError: true``."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _tool_errors(answer: Callable[[Any, Any], None], rt: Runtime) -> Callable[[Any, Any], None]:
    def wrapped(handle: Any, value: Any) -> None:
        if isinstance(value, _ToolError):
            log.info("tool error", exc_info=value.error)
            rt.machine.respond_result(handle, {"content": [{"type": "text", "text": str(value.error) or type(value.error).__name__}], "isError": True})
        else:
            answer(handle, value)

    wrapped.tool_errors = True  # type: ignore[attr-defined]
    return wrapped


class Runtime:
    """The machine, its host and the handler tasks of one running server."""

    def __init__(self, app: App) -> None:
        self.app = app
        config = dict(app._config)
        if any(r.completers for r in app._templates.values()) or app._completion is not None:
            config.setdefault("completion_events", True)
        if app._listers and _DYNAMIC_LISTS:
            config.setdefault("dynamic_resources", True)
        self.machine = ServerMachine(**config)
        for register in app._registrations:
            register(self.machine)
        if app._tools:
            self.machine.add_method("tools/list")
            self.machine.add_method("tools/call")
            self.machine.set_capability("tools", {})
        for method in app._methods:
            self.machine.add_method(method)
        self.host = MachineHost(self.machine, self.dispatch)
        self.tasks: dict[int, tuple[asyncio.Task[Any], Context]] = {}
        self.background: list[asyncio.Task[Any]] = []
        app._runtime = self
        for fn in app._startup if self.host.loop is not None else ():
            r = fn()
            if inspect.isawaitable(r):
                self.background.append(self.host.loop.create_task(r))

    # events -> handlers
    def dispatch(self, ev: Any) -> None:
        t = type(ev)
        if t is ReadResource:
            self._read(ev)
        elif t is GetPrompt:
            self._prompt(ev)
        elif t is Complete:
            self._complete(ev)
        elif t is Request:
            self._request(ev)
        elif _DYNAMIC_LISTS and t is _core.ListResources:
            self._list(ev)
        elif t is Cancelled:
            running = self.tasks.pop(int(ev.handle), None)
            if running is not None:
                running[1]._cancel()
                running[0].cancel()

    def _ctx(self, ev: Any) -> Context:
        return Context(self, ev.handle, ev.auth, getattr(ev, "capabilities", frozenset()), getattr(ev, "retry", None))

    def _read(self, ev: ReadResource) -> None:
        res = self.app._templates.get(ev.template) if ev.template is not None else self.app._statics.get(ev.uri)
        if res is None:
            self.machine.fail(ev.handle, "not_found")
            return
        args = ev.variables
        if res.template is not None and ev.target != "template":
            args = res.template.match(ev.uri) or {}
        uri, mime = ev.uri, res.mime
        sig = res.sig
        self._run(ev, lambda ctx: sig.call(ctx, args), lambda h, v: self.machine.respond_read(h, _contents(uri, mime, v)))

    def _prompt(self, ev: GetPrompt) -> None:
        p = self.app._prompts.get(ev.name)
        if p is None:
            self.machine.fail(ev.handle, "invalid_params", f"unknown prompt {ev.name!r}")
            return
        for arg, allowed in p.choices.items():
            v = ev.arguments.get(arg)
            if v is not None and v not in allowed:
                self.machine.fail(ev.handle, "invalid_params", f"{arg} must be one of {', '.join(allowed)}, not {v!r}")
                return
        desc = p.description
        sig, arguments = p.sig, ev.arguments
        self._run(ev, lambda ctx: sig.call(ctx, arguments), lambda h, v: self.machine.respond_prompt(h, _prompt_result(v, desc)))

    def _list(self, ev: Any) -> None:
        """One page of the templates' ``list()`` items (``resources/list`` after the
        registered resources): the cursor is an offset into their concatenation."""
        items: list[dict[str, Any]] = []
        for res, lister in self.app._listers:
            for item in lister():
                item = _dump(item)
                if isinstance(item, str):
                    item = {"uri": item, "name": item}
                if res.mime and "mimeType" not in item:
                    item = {**item, "mimeType": res.mime}
                items.append(item)
        try:
            start = int(ev.cursor) if ev.cursor is not None else 0
        except ValueError:
            self.machine.fail(ev.handle, "invalid_params", "invalid cursor")
            return
        page = items[start : start + _LIST_PAGE]
        more = start + _LIST_PAGE < len(items)
        self.machine.respond_list(ev.handle, page, str(start + _LIST_PAGE) if more else None)

    def _request(self, ev: Request) -> None:
        m, app = self.machine, self.app
        if ev.method == "tools/list":
            m.respond_result(ev.handle, {"tools": [t.entry for t in app._tools.values()]}, app._tools_cache)
            return
        if ev.method == "tools/call":
            params = ev.params if isinstance(ev.params, dict) else {}
            tool = app._tools.get(params.get("name")) if isinstance(params.get("name"), str) else None
            if tool is None:
                m.fail(ev.handle, "invalid_params", f"unknown tool {params.get('name')!r}")
                return
            args = params.get("arguments") or {}
            if not isinstance(args, dict):
                m.fail(ev.handle, "invalid_params", "arguments must be an object")
                return
            missing = [n for n in tool.entry["inputSchema"].get("required", []) if n not in args]
            if missing:
                m.fail(ev.handle, "invalid_params", f"missing arguments: {', '.join(missing)}")
                return
            sig = tool.sig
            self._run(ev, lambda ctx: sig.call(ctx, args), lambda h, v: m.respond_result(h, _tool_result(v)), tool_errors=True)
            return
        fn = app._methods.get(ev.method)
        if fn is None:
            m.fail(ev.handle, "internal")
            return
        params = ev.params
        two = len(inspect.signature(fn).parameters) >= 2
        self._run(ev, (lambda ctx: fn(params, ctx)) if two else (lambda ctx: fn(params)), lambda h, v: m.respond_result(h, _dump(v)))

    def _complete(self, ev: Complete) -> None:
        res = self.app._templates.get(ev.template) if ev.template is not None else None
        fn = res.completers.get(ev.argument) if res is not None else None
        if fn is not None:
            two = len(inspect.signature(fn).parameters) >= 2
            value, context = ev.value, dict(ev.context)
            call: Callable[[Context], Any] = (lambda ctx: fn(value, context)) if two else (lambda ctx: fn(value))
        elif self.app._completion is not None:
            ref = {"type": "ref/prompt", "name": ev.prompt} if ev.prompt is not None else {"type": "ref/resource", "uri": ev.template}
            argument = {"name": ev.argument, "value": ev.value}
            context = {"arguments": dict(ev.context)} if ev.context else None
            comp = self.app._completion
            call = lambda ctx: comp(ref, argument, context)  # noqa: E731
        else:
            self.machine.respond_completion(ev.handle, [])
            return

        def answer(h: Any, v: Any) -> None:
            v = _dump(v)
            if isinstance(v, dict):
                v = v.get("values", [])
            self.machine.respond_completion(h, [str(x) for x in (v or [])])

        self._run(ev, call, answer)

    # running a handler: inline when it is a plain function, as a task when it awaits
    def _run(self, ev: Any, call: Callable[[Context], Any], answer: Callable[[Any, Any], None], tool_errors: bool = False) -> None:
        ctx = self._ctx(ev)
        handle = ev.handle
        if tool_errors:
            answer = _tool_errors(answer, self)
        try:
            value = call(ctx)
        except BaseException as e:  # noqa: BLE001 - every failure is an answer
            if tool_errors and not isinstance(e, (InvalidParams, _core.McpError, AskInput)):
                answer(handle, _ToolError(e))
                return
            self._fail(handle, e)
            return
        if type(value) not in _PLAIN and inspect.isawaitable(value):
            if self.host.loop is None:
                getattr(value, "close", lambda: None)()
                self._fail(handle, RuntimeError("an async handler needs a running loop"))
                return
            task = self.host.loop.create_task(self._finish(handle, value, answer))
            self.tasks[int(handle)] = (task, ctx)
            return
        self._answer(handle, value, answer)

    async def _finish(self, handle: Any, awaitable: Any, answer: Callable[[Any, Any], None]) -> None:
        try:
            value = await awaitable
        except asyncio.CancelledError:
            return  # the machine already answered (cancelled / timed out / stream closed)
        except BaseException as e:  # noqa: BLE001
            if self.tasks.pop(int(handle), None) is not None:
                if getattr(answer, "tool_errors", False) and not isinstance(e, (InvalidParams, _core.McpError, AskInput)):
                    self._answer(handle, _ToolError(e), answer)
                else:
                    self._fail(handle, e)
                self.host.drain()
            return
        if self.tasks.pop(int(handle), None) is not None:
            self._answer(handle, value, answer)
            self.host.drain()

    def _answer(self, handle: Any, value: Any, answer: Callable[[Any, Any], None]) -> None:
        try:
            answer(handle, value)
        except _core.RespondError:
            pass  # the request is gone (cancelled meanwhile): nothing to send
        except Exception as e:  # noqa: BLE001 - a result the spec refuses
            log.exception("handler result refused")
            self._fail(handle, e)

    def _fail(self, handle: Any, e: BaseException) -> None:
        m = self.machine
        try:
            if isinstance(e, AskInput):
                m.respond_input_required(handle, e.requests, e.state)
            elif isinstance(e, NotFound):
                m.fail(handle, "not_found", str(e) or None)
            elif isinstance(e, InvalidParams):
                m.fail(handle, "invalid_params", str(e) or None)
            elif isinstance(e, _core.McpError) and isinstance(getattr(e, "code", None), int):
                m.fail(handle, "application", getattr(e, "message", None) or str(e), code=e.code)
            else:
                if not isinstance(e, asyncio.CancelledError):
                    log.error("handler failed", exc_info=e)
                m.fail(handle, "internal")
        except _core.RespondError as r:
            # An answer the machine refused (e.g. input_required without state keys) is a
            # bug of the handler: the request still gets -32603. A consumed or dead handle
            # has nothing left to answer.
            if r.kind not in ("unknown_handle", "client_lacks_capability"):
                log.error("answer refused: %s", r)
                try:
                    m.fail(handle, "internal")
                except _core.RespondError:
                    pass

    async def drain_tasks(self) -> None:
        """Waits for every running handler (end of input on stdio)."""
        while self.tasks:
            await asyncio.gather(*(t for t, _ in list(self.tasks.values())), return_exceptions=True)
