"""``mcp_context.server``'s handler side: the exceptions handlers raise, ``Context``, and the
conversions from handler signatures and return values to MCP schemas and results."""

from __future__ import annotations

import asyncio
import base64
import enum
import inspect
import json
import logging
import types as _pytypes
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from . import _core
from ._core import UriTemplate

if TYPE_CHECKING:
    from ._runtime import Runtime

log = logging.getLogger("mcp_context.server")

# The extension's dynamic resource lists (``ServerMachine(dynamic_resources=True)``, the
# ``ListResources`` event, ``respond_list``): a template's ``list()`` is then asked on every
# ``resources/list``; without them its items are registered once at start.
_DYNAMIC_LISTS = hasattr(_core, "ListResources")
_PLAIN = (str, bytes, dict, list, tuple, type(None))  # results that are never awaitable


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
        principals = getattr(getattr(host, "app", None), "_principals", None) or {}
        self.principal: dict[str, Any] | None = principals.get(auth) if auth else None
        """The verified caller of a protected endpoint (``subject``, ``client_id``,
        ``scopes``, ``audience``, ``expires_at_ms``), ``None`` otherwise; never the token."""
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


    async def log(self, level: str, data: Any, logger: str | None = None) -> bool:
        """Sends ``notifications/message`` about this request (before its answer, on its
        stream) when the client asked for ``level`` or lower: a 2025-11-25 client with
        ``logging/setLevel``, a 2026-07-28 one with the request's ``_meta`` log level.
        ``level``: ``"debug"``, ``"info"``, ``"notice"``, ``"warning"``, ``"error"``,
        ``"critical"``, ``"alert"``, ``"emergency"``; ``data``: any JSON value.

        Returns ``False`` when nothing was sent (the level filtered out, or the request
        already answered)."""
        if self.is_cancelled:
            return False
        try:
            sent = self._host.machine.log_for(self._handle, level, data, logger)
        except _core.RespondError:
            return False
        self._host.host.drain()
        return bool(sent)

    async def debug(self, data: Any, logger: str | None = None) -> bool:
        """``log("debug", data)``."""
        return await self.log("debug", data, logger)

    async def info(self, data: Any, logger: str | None = None) -> bool:
        """``log("info", data)``."""
        return await self.log("info", data, logger)

    async def warning(self, data: Any, logger: str | None = None) -> bool:
        """``log("warning", data)``."""
        return await self.log("warning", data, logger)

    async def error(self, data: Any, logger: str | None = None) -> bool:
        """``log("error", data)``."""
        return await self.log("error", data, logger)

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

