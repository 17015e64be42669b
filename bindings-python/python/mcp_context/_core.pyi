"""MCP 2026-07-28 context primitives on a sans-IO Rust core.

RFC 6570 URI templates (``UriTemplate``, ``Router``), the sans-IO server and
client machines (``ServerMachine``, ``ClientMachine``), the scope-aware result
``Cache``, context selection (``select_context``), the ``file://`` root mapper
(``FileRoot``), the Streamable HTTP checks (``check_origin``, ``check_headers``)
and the JSON-RPC error codes (``ErrorCode``).

Conventions:

* Time is ``now_ms``: an ``int`` of milliseconds from a monotonic clock the host
  chooses (e.g. ``time.monotonic_ns() // 1_000_000``). Nothing here reads a clock.
* Bytes in, bytes out: the machines take and give ``bytes`` (one JSON-RPC message).
* Structured inputs and results are ``dict``s in the spec's JSON shape (camelCase
  keys, as on the wire); the core validates them against the spec.
* Bad input raises a subclass of ``McpContextError``; wrong Python types raise
  ``TypeError``. The extension never panics on input.
"""

import builtins
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Any, Final, Literal, TypeAlias

from .types import (
    CacheHint,
    CompletionArgument,
    CompletionContext,
    GetPromptResult,
    Prompt,
    PromptReference,
    Resource,
    ResourceContents,
    ResourceTemplate,
    ResourceTemplateReference,
    SubscriptionFilter,
)

__all__ = [
    "PROTOCOL_VERSION",
    "ErrorCode",
    "McpContextError",
    "TemplateError",
    "InvalidMessage",
    "PathError",
    "HttpError",
    "RegisterError",
    "ConfigError",
    "RespondError",
    "ClientError",
    "McpError",
    "UriTemplate",
    "Router",
    "Cache",
    "FileRoot",
    "select_context",
    "check_origin",
    "check_headers",
    "http_status",
    "HttpResponse",
    "sse_event",
    "SSE_KEEPALIVE",
    "SSE_KEEPALIVE_INTERVAL_MS",
    "SseDecoder",
    "StdioLines",
    "LineTooLong",
    "ClientMachine",
    "ClientTransmit",
    "CloseStream",
    "Connected",
    "ClientReply",
    "Listed",
    "InputRequired",
    "Failed",
    "Acknowledged",
    "Notified",
    "SubscriptionEnded",
    "ClientNotice",
    "ServerMachine",
    "Fleet",
    "decode_fleet_event",
    "Handle",
    "Transmit",
    "Retry",
    "ReadResource",
    "GetPrompt",
    "Complete",
    "Request",
    "CallTool",
    "ListResources",
    "Cancelled",
    "StreamOverflow",
    "app_cursor",
    "parse_app_cursor",
    "Authorizer",
    "AuthFetch",
    "AuthAuthorize",
    "AuthStore",
    "AuthRetry",
    "AuthFailed",
    "AUTH_ENTROPY_LEN",
]

Json: TypeAlias = dict[str, Any]
"""A JSON object in the spec's shape (camelCase keys), as ``json.loads`` gives it; the
``TypedDict``s of ``mcp_context.types`` name the shapes, and a pydantic model from
``mcp.types`` is accepted wherever one is taken."""

PROTOCOL_VERSION: Final[str]
"""The MCP revision this module implements: ``"2026-07-28"``."""

Scalar: TypeAlias = str | int | float
"""A template value item; ``int`` and ``float`` are converted with ``str()``."""

VarValue: TypeAlias = Scalar | Sequence[Scalar] | Mapping[str, Scalar] | None
"""A template variable: a string, a list (``list``/``tuple``), an associative
array (any ``Mapping``, in iteration order) or ``None`` (undefined)."""

TemplateErrorKind: TypeAlias = Literal[
    "unclosed_expression",
    "unexpected_brace",
    "empty_expression",
    "reserved_operator",
    "invalid_var_name",
    "empty_var_name",
    "invalid_prefix",
    "invalid_modifier",
    "invalid_literal",
    "invalid_percent_encoding",
    "capacity_exceeded",
    "too_long",
    "prefix_on_composite",
]
"""The stable identifiers of ``TemplateError.kind`` (more may be added)."""

class ErrorCode(IntEnum):
    """JSON-RPC error codes used by MCP 2026-07-28 (an IntEnum: members are ints).

    The vocabulary is open: a peer may send any integer code, so error ``.code``
    attributes are plain ``int`` values that compare equal to these members.
    """

    PARSE_ERROR = -32700
    """The bytes are not JSON."""
    INVALID_REQUEST = -32600
    """JSON, but not a valid JSON-RPC request."""
    METHOD_NOT_FOUND = -32601
    """Unknown method, removed method, or undeclared server capability (HTTP 404)."""
    INVALID_PARAMS = -32602
    """Invalid params: missing ``_meta`` keys, resource not found (with ``data.uri``),
    unknown prompt, invalid cursor."""
    INTERNAL_ERROR = -32603
    """Internal error."""
    HEADER_MISMATCH = -32020
    """Streamable HTTP headers missing, malformed or not matching the body (HTTP 400)."""
    MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
    """The request needs a client capability the client did not declare (HTTP 400)."""
    UNSUPPORTED_PROTOCOL_VERSION = -32022
    """The requested protocol version is not supported (HTTP 400)."""
    LEGACY_RESOURCE_NOT_FOUND = -32002
    """Legacy (2025-11-25) "resource not found": accept it, never send it."""

class McpContextError(Exception):
    """Base class of every error mcp_context raises on bad input."""

class TemplateError(McpContextError, ValueError):
    """An RFC 6570 URI template that cannot be parsed, expanded or matched."""

    kind: TemplateErrorKind
    """Stable snake_case identifier of what went wrong, e.g. ``"unclosed_expression"``."""
    position: int
    """Index into the template source (a ``str`` index, in code points) where it went wrong."""
    byte_offset: int
    """The same place as a UTF-8 byte offset (the core's unit); equals ``position`` for ASCII."""

class UriTemplate:
    """An RFC 6570 URI template (levels 1–4), parsed once and expanded many times.

    >>> t = UriTemplate("repo://{owner}/{repo}/issues{?state,labels}")
    >>> t.variables
    ['owner', 'repo', 'state', 'labels']
    >>> t.expand(owner="acme", repo="web app", labels=["bug", "ui"])
    'repo://acme/web%20app/issues?labels=bug,ui'
    """

    def __init__(self, source: str) -> None:
        """Parses ``source``.

        Raises:
            TemplateError: ``source`` is not a valid template; ``.kind`` says why
                and ``.position`` where.
        """

    @property
    def source(self) -> str:
        """The template text, exactly as given."""

    @property
    def variables(self) -> list[str]:
        """The variable names in template order, each once."""

    def expand(self, mapping: Mapping[str, VarValue] | None = None, /, **kwargs: VarValue) -> str:
        """Expands the template (RFC 6570 §3).

        Variables come from ``mapping`` and/or keyword arguments (keywords win).
        Values: ``str``; ``int``/``float`` (through ``str()``); ``list``/``tuple`` of
        those; a ``Mapping`` of those (an associative array, in iteration order);
        ``None`` or a missing name is undefined and expands to nothing.

        Raises:
            TypeError: a value of another type (``bool`` included: pass ``"true"``).
            TemplateError: a prefix modifier (``{var:3}``) applied to a list or
                mapping (``kind == "prefix_on_composite"``).
        """

    def match(self, uri: str) -> dict[str, str | list[str]] | None:
        """Matches ``uri`` and returns its variables, or ``None``.

        Values are percent-decoded; an exploded variable (``{/path*}``) is a
        ``list``. Variables the URI leaves out are absent.

        >>> UriTemplate("repo://{owner}/{repo}").match("repo://acme/web%20app")
        {'owner': 'acme', 'repo': 'web app'}

        Raises:
            TemplateError: the template cannot be matched (ambiguous, e.g.
                ``{a}{b}``; ``kind`` says why).
        """

    def __repr__(self) -> str:
        """``UriTemplate('...')``."""

    def __str__(self) -> str:
        """The template source."""

    def __eq__(self, other: object) -> bool:
        """Templates are equal when their sources are."""

    def __hash__(self) -> int:
        """The hash of the source."""

class InvalidMessage(McpContextError, ValueError):
    """A structured input (a dict in the spec's JSON shape) that the core refuses."""

    code: int
    """The JSON-RPC code the spec gives such input (-32602)."""

class PathError(McpContextError, ValueError):
    """A ``file://`` URI that does not map to a path under the root (docs/rules.md §7)."""

    kind: str
    """Stable snake_case identifier, e.g. ``"dot_segment"``, ``"outside_root"``."""
    code: int
    """The JSON-RPC code to answer with (-32602)."""

class HttpError(McpContextError):
    """A Streamable HTTP request refused before it reaches the server machine."""

    status: int
    """The HTTP status to answer with (400 or 403)."""
    kind: str
    """Stable snake_case identifier, e.g. ``"origin_not_allowed"``, ``"mismatch"``."""
    code: int | None
    """-32020 for a header mismatch, else ``None``."""

class RegisterError(McpContextError, ValueError):
    """A resource, template or prompt that could not be registered."""

    kind: str
    """``"duplicate"``, ``"invalid_uri"``, ``"invalid_template"``, ``"router"``,
    ``"unknown_argument"``, ``"indistinguishable"`` or ``"shadowed"``."""

class ConfigError(McpContextError, ValueError):
    """A machine configuration the core refuses."""

class RespondError(McpContextError):
    """An answer the server machine refused. Unless ``late``, the machine has already failed
    the request with -32603 (the answer is the handler's bug, to log)."""

    kind: str
    """``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_input_requests"``,
    ``"no_state_key"``, ``"client_lacks_capability"``, ``"invalid_result"`` or
    ``"invalid_progress"``."""
    late: bool
    """The request was no longer waiting (answered, cancelled, timed out, or answered -32021
    by the machine): nothing to do."""

class ClientError(McpContextError):
    """A client machine call refused (host mistake); nothing was sent."""

    kind: str
    """E.g. ``"unknown_call"``, ``"not_awaiting_input"``, ``"missing_input_response"``."""

class McpError(McpContextError):
    """A call failed: the server answered a JSON-RPC error, or the call ended without one."""

    kind: str
    """``"server"`` for a JSON-RPC error, else why the call ended (``"timeout"``,
    ``"closed"``, ``"invalid_result"``, ``"too_many_input_rounds"``, ...)."""
    code: int | None
    """The JSON-RPC code (compare with ``ErrorCode``), or ``None``."""
    message: str
    """The error message."""
    data: Any
    """The error's ``data`` (e.g. ``{"uri": ...}`` for resource not found), or ``None``."""

class Router:
    """Routes a URI to the most specific of many RFC 6570 templates.

    Precedence: URIs are compared segment by segment; at the first segment where
    templates differ, literal text beats text mixed with variables, which beats a
    bare ``{var}``, which beats anything spanning segments; equal kinds keep
    registration order. Routing cost does not grow with unrelated templates.

    >>> r = Router()
    >>> r.add("repo://{owner}/{repo}/issues/{number}", "issue")
    0
    >>> r.match("repo://acme/web/issues/7")
    ('issue', {'owner': 'acme', 'repo': 'web', 'number': '7'})
    """

    def __init__(self) -> None:
        """An empty router."""

    def add(self, template: str, name: object = None) -> int:
        """Registers ``template``; returns its id (0, 1, ... in order).

        ``name`` (default: the id) is what ``match`` returns for it.

        Raises:
            TemplateError: the template does not parse or cannot be matched.
            RegisterError: no URI could reach it (``kind`` ``"indistinguishable"``
                or ``"shadowed"``). The router is unchanged.
        """

    def match(self, uri: str) -> tuple[Any, dict[str, str | list[str]]] | None:
        """``(name, variables)`` of the most specific matching template, or ``None``.

        Variables are percent-decoded; an exploded one is a ``list``.
        """

    def __len__(self) -> int:
        """The number of templates."""

CacheRefusal: TypeAlias = Literal["retry", "immediately_stale", "too_large"]
"""Why ``Cache.insert`` stored nothing."""

class Cache:
    """A bounded, scope-aware cache of results (docs/rules.md §4).

    Keys: ``server/discover``; ``resources/list``, ``resources/templates/list``,
    ``prompts/list``, ``tools/list`` with their cursor (or ``None``);
    ``resources/read`` with its URI. ``auth`` is the caller's authorization
    context (an ``int``, ``None`` = anonymous): ``"private"`` results are served
    only to the same ``auth``. Results of MRTR retries are never stored.
    """

    def __init__(self, max_entries: int = 256, max_bytes: int = 4194304) -> None:
        """At most ``max_entries`` entries and ``max_bytes`` key + value bytes."""

    def insert(
        self,
        method: str,
        key: str | None,
        value: bytes,
        *,
        ttl_ms: int | None,
        cache_scope: Literal["public", "private"] | None,
        now_ms: int,
        auth: int | None = None,
        retry: bool = False,
    ) -> CacheRefusal | None:
        """Stores ``value`` received at ``now_ms``; ``None`` when stored, else why not.

        ``ttl_ms``/``cache_scope`` ``None`` mean absent (read as 0 and private).

        Raises:
            ValueError: ``method`` is not cacheable (or a read without a URI).
        """

    def get(self, method: str, key: str | None, *, now_ms: int, auth: int | None = None) -> bytes | None:
        """The fresh result ``auth`` may see, or ``None``."""

    def lookup(
        self, method: str, key: str | None, *, now_ms: int, auth: int | None = None
    ) -> tuple[Literal["fresh", "stale"], bytes] | None:
        """The best result ``auth`` may see, fresh or stale (re-fetch; MAY be served if that fails)."""

    def invalidate(self, notification: str, uri: str | None = None) -> int:
        """Drops what a ``notifications/...`` method makes stale; returns how many entries."""

    def cursor_rejected(self, method: str) -> int:
        """Drops every page of the list ``method`` after a rejected cursor; returns how many."""

    def forget_context(self, auth: int | None = None) -> int:
        """Drops every private entry of ``auth``; returns how many."""

    def purge_stale(self, now_ms: int) -> int:
        """Drops every entry not fresh at ``now_ms``; returns how many."""

    def clear(self) -> None:
        """Drops everything."""

    @property
    def total_bytes(self) -> int:
        """Key + value bytes held."""

    def __len__(self) -> int:
        """The number of entries."""

class FileRoot:
    """Maps ``file://`` URIs under a root to relative paths, refusing traversal (docs/rules.md §7).

    >>> FileRoot("file:///srv/project").resolve("file:///srv/project/src/a%20b.rs")
    'src/a b.rs'
    """

    def __init__(self, root_uri: str) -> None:
        """``root_uri``: ``file:///dir`` (or ``file://localhost/dir``).

        Raises:
            PathError: not a valid local ``file://`` URI.
        """

    @property
    def uri(self) -> str:
        """The root URI, as given."""

    def resolve(self, uri: str) -> str:
        """The decoded path of ``uri`` relative to the root (``""`` for the root).

        Never decode the result again. Raises ``PathError`` (``code`` -32602) for
        dot segments, encoded separators, drive letters, other hosts, queries,
        fragments and anything outside the root.
        """

def select_context(
    candidates: Iterable[Json],
    *,
    max_bytes: int | None = None,
    max_tokens: int | None = None,
    role: Literal["user", "assistant"] | None = None,
) -> list[int]:
    """Chooses which resources to put in a model's context within a budget (docs/rules.md §14.3).

    ``candidates`` are ``Resource`` dicts (``uri``, ``size``, ``annotations``:
    ``audience``, ``priority``, ``lastModified``), optionally with ``tokens``. Give
    exactly one budget. Returns indices into ``candidates`` in selection order:
    priority, then recency, then ``uri``; greedy, skipping what does not fit.
    """

def check_origin(host: str | None, origin: str | None = None, allowed: Sequence[str] | None = None) -> None:
    """Checks ``Host`` and ``Origin`` against ``allowed`` (default: the localhost names).

    Raises:
        HttpError: ``status`` 400 (missing/malformed ``Host``) or 403.
    """

def check_headers(
    *,
    header_protocol_version: str | None,
    header_method: str | None,
    header_name: str | None,
    protocol_version: str,
    method: str,
    name: str | None = None,
) -> None:
    """Checks the ``MCP-Protocol-Version``/``Mcp-Method``/``Mcp-Name`` headers against the body.

    Raises:
        HttpError: ``status`` 400, ``code`` -32020, on a missing or mismatched header.
    """

def http_status(code: int) -> int:
    """The HTTP status of a JSON-RPC error code (404 for -32601, 400 for -32020..-32022)."""

class HttpResponse:
    """A complete HTTP answer the core decided: write ``status``, ``headers`` and ``body``."""

    status: int
    """The status code."""
    headers: list[tuple[str, str]]
    """``(name, value)`` pairs (``Content-Type`` whenever there is a body, ``Allow`` on 405)."""
    body: builtins.bytes
    """The body (empty for 202)."""
    event_stream: bool
    """A 2025-11-25 session's GET stream: write status and headers now, keep the connection
    open, write the stream's transmits as SSE events; ``stream_closed`` when it closes."""

Headers: TypeAlias = Mapping[str, str] | Iterable[tuple[str | builtins.bytes, str | builtins.bytes]]
"""Request header lines: a mapping, or ``(name, value)`` pairs as ASGI gives them (bytes read
as Latin-1). The core maps them to the request head: names case-insensitive, values
trimmed, a repeated header joined with ``,`` (refused where one value is expected)."""

def sse_event(data: builtins.bytes) -> builtins.bytes:
    """One server-sent event carrying ``data`` (one JSON-RPC message): ``b"data: ...\n\n"``."""

SSE_KEEPALIVE: Final[builtins.bytes]
"""The comment an idle event stream gets (``b": keepalive\n\n"``)."""
SSE_KEEPALIVE_INTERVAL_MS: Final[int]
"""How often an idle event stream gets ``SSE_KEEPALIVE``: 15 000 ms, for every runner."""

class SseDecoder:
    """The incremental ``text/event-stream`` parser (WHATWG rules: chunks split anywhere,
    ``\r\n``/``\r``/``\n``, BOM, comments, multi-line ``data``, ``event``, ``id``, ``retry``),
    with a bound on one event (default 16 MiB)."""

    def __init__(self, max_event: int = ...) -> None:
        """A decoder refusing events over ``max_event`` bytes (default 16 MiB)."""

    def feed(self, chunk: builtins.bytes) -> list[tuple[str, builtins.bytes, str]]:
        """The events ``chunk`` completes, as ``(event, data, id)``; ``ValueError`` when an
        event grows past the bound (the stream is then broken)."""

    @property
    def retry_ms(self) -> int | None:
        """The reconnection time the stream set with ``retry:``."""

class LineTooLong:
    """A stdio line over the bound: answer it with ``ServerMachine.handle_line_too_long``."""

    head: builtins.bytes
    """The line's first bytes (at most 1024)."""

class StdioLines:
    """Splits bytes read from stdin into bounded lines (blank lines skipped, ``\r\n`` taken):
    ``bytes`` for each message, ``LineTooLong`` once for a line over ``max_line`` (the rest of
    it skipped, never buffered)."""

    def __init__(self, max_line: int) -> None:
        """A splitter refusing lines over ``max_line`` bytes (``ServerMachine.max_line``)."""

    def feed(self, data: builtins.bytes) -> list[builtins.bytes | LineTooLong]:
        """The lines ``data`` completes."""

    def finish(self) -> list[builtins.bytes | LineTooLong]:
        """End of input: a last line without newline."""

class ClientTransmit:
    """One message to send: on stdio ``bytes + b"\\n"``; on HTTP a POST with the headers."""

    bytes: builtins.bytes
    """One compact JSON-RPC message."""
    id: int | None
    """The JSON-RPC id of a request."""
    method: str | None
    """``Mcp-Method``; ``None`` for a response."""
    name: str | None
    """``Mcp-Name``: the ``uri`` of a read, the ``name`` of a prompt."""
    protocol_version: str | None
    """``MCP-Protocol-Version`` of a modern request."""
    http_headers: list[tuple[str, str]]
    """Every header of the HTTP POST for this message, values ready for the wire
    (``Mcp-Name`` encoded when not a safe plain value, ``Mcp-Param-*`` included)."""

class CloseStream:
    """HTTP only: close the response stream of request ``id`` (cancellation)."""

    id: int
    """The JSON-RPC id."""

class Connected:
    """The era and version are settled."""

    era: Literal["modern", "legacy"]
    """The protocol era."""
    version: str
    """The negotiated protocol version."""
    features: dict[str, bool]
    """``resources``, ``resources_subscribe``, ``resources_list_changed``, ``prompts``,
    ``prompts_list_changed``, ``tools_list_changed``, ``completions``."""
    handshake: Json
    """The ``DiscoverResult`` (or legacy ``InitializeResult``)."""

class ClientReply:
    """A call's result."""

    kind: Literal["discover", "read", "prompt", "completion", "request"]
    """Which method answered."""
    call: int
    """The call id."""
    result: Json
    """The ``result`` object, validated by the core."""
    from_cache: bool
    """Whether the cache answered."""

class Listed:
    """The pages of a list call."""

    kind: Literal["resources", "templates", "prompts", "tools"]
    """Which list."""
    call: int
    """The call id."""
    pages: list[Json]
    """The result objects of the pages, in order."""
    from_cache: bool
    """Whether every page came from the cache."""
    next_cursor: str | None
    """Where to continue (``""`` is a cursor), else ``None``."""
    truncated: bool
    """Whether an ``all_pages`` walk stopped at the page limit."""

class InputRequired:
    """The server needs input (docs/rules.md §13): ``respond_input`` or ``cancel``."""

    call: int
    """The call id."""
    round: int
    """1 for the first round."""
    requests: dict[str, Json]
    """Key → ``{"method": ..., "params": ...}``."""

class Failed:
    """A call ended without a result."""

    call: int
    """The call id."""
    error: McpError
    """Why (raise it, or read ``.code``/``.data``)."""

class Acknowledged:
    """A subscription is acknowledged (docs/rules.md §11.2)."""

    call: int
    """The listen call id."""
    honoured: Json
    """The honoured ``SubscriptionFilter``."""
    refused: Json
    """Requested and not honoured (``{}``: nothing)."""

class Notified:
    """A change notification."""

    subscription: int | None
    """The listen call id, or ``None`` when no open subscription claims it."""
    method: str
    """E.g. ``"notifications/resources/updated"``."""
    uri: str | None
    """The updated resource's URI, else ``None``."""

class SubscriptionEnded:
    """A subscription ended."""

    call: int
    """The listen call id."""
    reason: Literal["graceful", "cancelled_by_server", "unexpected_close"]
    """How."""
    filter: Json | None
    """On ``"unexpected_close"``: the filter to re-send after reconnecting."""

class ClientNotice:
    """Not a call's result: ``"connect_failed"``, ``"unknown_response"``, ``"peer_error"``."""

    kind: str
    """What happened."""
    message: str
    """A description."""
    id: int | str | None
    """The response id of ``"unknown_response"``."""

ClientOutput: TypeAlias = (
    ClientTransmit | CloseStream | Connected | ClientReply | Listed | InputRequired | Failed
    | Acknowledged | Notified | SubscriptionEnded | ClientNotice
)
"""What ``ClientMachine.poll_output`` returns."""

class ClientMachine:
    """The sans-IO MCP client machine (negotiation, pagination, MRTR, subscriptions, cache).

    Drain rule: after every input call ``poll_output()`` until ``None``, then arm
    a timer for ``poll_timeout()``. Every call method returns a call id (``int``).
    """

    def __init__(
        self,
        name: str,
        version: str,
        *,
        capabilities: Json | None = None,
        transport: Literal["stdio", "http"] = "stdio",
        request_timeout_ms: int = 30000,
        probe_timeout_ms: int = 5000,
        max_pages: int = 64,
        max_input_rounds: int = 8,
        cache: tuple[int, int] | None = (256, 4194304),
        legacy_fallback: bool = True,
    ) -> None:
        """A client named ``name``/``version`` (``clientInfo``).

        Raises:
            ConfigError: e.g. ``capabilities`` is not a ``ClientCapabilities``.
        """

    def connect(self, now_ms: int) -> None:
        """Starts the negotiation (a call connects by itself)."""

    def discover(self, now_ms: int, *, refresh: bool = False) -> int:
        """``server/discover``."""

    def list_resources(self, now_ms: int, *, cursor: str | None = None, all_pages: bool = False, refresh: bool = False) -> int:
        """``resources/list``: one page from ``cursor``, or every page."""

    def list_resource_templates(
        self, now_ms: int, *, cursor: str | None = None, all_pages: bool = False, refresh: bool = False
    ) -> int:
        """``resources/templates/list``."""

    def list_prompts(self, now_ms: int, *, cursor: str | None = None, all_pages: bool = False, refresh: bool = False) -> int:
        """``prompts/list``."""

    def list_tools(self, now_ms: int, *, cursor: str | None = None, all_pages: bool = False, refresh: bool = False) -> int:
        """``tools/list``: pages without the tools whose ``x-mcp-header`` annotations are
        invalid (the machine refuses to call them)."""

    def request(self, method: str, params: Json | None = None, now_ms: int = 0) -> int:
        """A method the machine does not own (``tools/list``, ``tools/call``, vendor
        methods); the answer is a ``ClientReply`` of kind ``"request"`` or ``Failed``.

        Raises:
            ClientError: ``"owned_method"``, ``"params_not_object"``, ``"rejected_tool"``.
        """

    def read_resource(self, uri: str, now_ms: int, *, refresh: bool = False) -> int:
        """``resources/read``; a fresh cached result answers unless ``refresh``."""

    def read_cached(self, uri: str, now_ms: int) -> Json | None:
        """The fresh cached read result for the current auth context, or ``None``."""

    def forget_read(self, uri: str) -> int:
        """Drops cached read results of ``uri`` (and related URIs) in every auth context.

        The host's own no-store policy: hints bound what the cache keeps; the host may keep less.
        Returns how many entries were dropped.
        """

    def get_prompt(self, name: str, now_ms: int, arguments: Mapping[str, str] | None = None) -> int:
        """``prompts/get``."""

    def complete(
        self,
        ref: PromptReference | ResourceTemplateReference | Json,
        argument: CompletionArgument | Json,
        now_ms: int,
        context: CompletionContext | Json | None = None,
    ) -> int:
        """``completion/complete`` (``ref``, ``argument``, ``context`` in the spec's shape)."""

    def listen(self, filter: SubscriptionFilter | Json, now_ms: int) -> int:
        """``subscriptions/listen`` with a ``SubscriptionFilter`` dict."""

    def cancel(self, call: int, now_ms: int, reason: str | None = None) -> None:
        """Gives up on ``call``. Raises ``ClientError`` for an unknown call."""

    def respond_input(self, call: int, responses: Mapping[str, Json], now_ms: int) -> None:
        """Answers ``InputRequired`` (one result dict per key) and retries.

        Raises:
            ClientError: wrong keys, or the call is not waiting for input.
            InvalidMessage: a response JSON cannot carry.
        """

    def handle_message(self, data: bytes, now_ms: int) -> None:
        """One message from the server."""

    def handle_timeout(self, now_ms: int) -> None:
        """Fails requests past their deadline."""

    def handle_request_failed(self, id: int, now_ms: int) -> None:
        """HTTP: request ``id`` got no JSON-RPC answer."""

    def handle_http_response(self, id: int | None, status: int, session_id: str | None, now_ms: int) -> None:
        """HTTP: the response head of request ``id`` (``None``: a notification's POST), with
        its ``Mcp-Session-Id``; before its body. A 2025-11-25 ``initialize`` answer starts the
        session (later ``http_headers`` carry it); a 404 on it starts a new session and sends
        the calls in flight again."""

    def end_session(self) -> list[tuple[str, str]] | None:
        """Ends the 2025-11-25 HTTP session: the headers of the ``DELETE`` to send, or
        ``None``. Call at close, before ``handle_close``."""

    @property
    def http_session_id(self) -> str | None:
        """The 2025-11-25 HTTP session id in force."""

    def handle_close(self, now_ms: int) -> None:
        """The transport closed."""

    def set_waker(self, callback: Callable[[], object]) -> None:
        """Installs the output-ready signal: ``callback()`` runs each time an output is queued
        while the queue was empty (any call: ``respond_*``, ``fail``, pushes, timeouts), and at
        once when output is already waiting. It runs inside that machine call, so it must not
        call the machine: it schedules a drain (``loop.call_soon(drain)``)."""

    def has_output(self) -> bool:
        """Whether ``poll_output`` has something to give."""

    def poll_output(self) -> ClientOutput | None:
        """The next output, or ``None``."""

    def poll_timeout(self) -> int | None:
        """When (``now_ms``) to call ``handle_timeout``."""

    def set_auth_context(self, auth: int | None) -> None:
        """The authorization context for the cache (private entries are per context)."""

    def set_request_auth_context(self, id: int, auth: int | None) -> None:  # noqa: A002
        """Re-keys request ``id`` to the authorization context it was answered under (before
        its answer is fed)."""

    @property
    def protocol_version(self) -> str | None:
        """The negotiated version, or ``None`` before ``Connected``."""

    @property
    def outstanding(self) -> int:
        """Requests sent and not yet answered."""

class Handle:
    """The machine's name for one request the application must answer.

    Pass it back to ``respond_*``/``fail``; hashable; ``int(handle)`` is unique for
    the machine's lifetime.
    """

    def __int__(self) -> int:
        """The handle as a number."""

class Transmit:
    """Bytes to write: stdio ``bytes + b"\\n"``; HTTP per ``stream`` (status, JSON or SSE)."""

    stream: int
    """The ``stream`` given to ``handle_message``."""
    bytes: builtins.bytes
    """One compact JSON-RPC message, without a newline."""
    http_status: int
    """HTTP: the POST's response status (the first transmit of a stream decides it)."""
    kind: Literal["json", "sse"]
    """HTTP: the whole JSON body, or one ``data: ...\\n\\n`` event of a listen stream."""
    end_of_stream: bool
    """HTTP: the response is complete."""
    http_headers: list[tuple[str, str]]
    """HTTP: the headers of a stream whose first transmit this is (``Content-Type``;
    ``Cache-Control: no-cache`` for SSE)."""

class Retry:
    """The verified inputs of an MRTR retry (docs/rules.md §13)."""

    state: builtins.bytes | None
    """The state given to ``respond_input_required``, verified; ``None`` if none."""
    input_responses: dict[str, Json]
    """``inputResponses`` as sent (validate before use)."""

class ReadResource:
    """``resources/read`` needs contents: ``respond_read``, ``respond_input_required`` or ``fail``."""

    handle: Handle
    """Pass back to ``respond_*``/``fail``."""
    uri: str
    """The URI, validated, exactly as requested."""
    target: Literal["resource", "template", "unlisted"]
    """What the URI resolved to."""
    template: str | None
    """The matched ``uriTemplate`` when ``target == "template"``."""
    variables: dict[str, str]
    """The template variables, percent-decoded."""
    auth: int
    """The caller context given to ``handle_message``."""
    progress: bool
    """The request carried ``_meta.progressToken`` (``ServerMachine.progress`` sends)."""
    capabilities: frozenset[str]
    """Declared on this request: ``"elicitation.form"``, ``"elicitation.url"``, ``"sampling"``, ``"roots"``."""
    retry: Retry | None
    """The verified retry inputs on an MRTR retry."""

class GetPrompt:
    """``prompts/get`` needs messages: ``respond_prompt``, ``respond_input_required`` or ``fail``."""

    handle: Handle
    """Pass back to ``respond_*``/``fail``."""
    name: str
    """The prompt name."""
    arguments: dict[str, str]
    """The arguments; every required one is present."""
    auth: int
    """The caller context."""
    progress: bool
    """The request carried ``_meta.progressToken`` (``ServerMachine.progress`` sends)."""
    capabilities: frozenset[str]
    """Declared client capabilities."""
    retry: Retry | None
    """The verified retry inputs on an MRTR retry."""

class Complete:
    """``completion/complete`` without a value set: ``respond_completion`` or ``fail``."""

    handle: Handle
    """Pass back to ``respond_completion``/``fail``."""
    prompt: str | None
    """The prompt name of a ``ref/prompt``."""
    template: str | None
    """The ``uriTemplate`` of a ``ref/resource``."""
    argument: str
    """The argument or variable being completed."""
    value: str
    """What the user typed so far."""
    context: dict[str, str]
    """``context.arguments``."""
    auth: int
    """The caller context."""
    progress: bool
    """The request carried ``_meta.progressToken`` (``ServerMachine.progress`` sends)."""

class Request:
    """A request for a method registered with ``add_method`` (``tools/list``, ``tools/call``,
    vendor methods): ``respond_result``, ``respond_input_required`` or ``fail``. The machine
    checked the envelope and ``_meta`` only: validate ``params`` yourself."""

    handle: Handle
    """Pass back to ``respond_result``/``respond_input_required``/``fail``."""
    method: str
    """The method, as registered."""
    params: Json
    """The params object as received (``_meta`` included)."""
    progress: bool
    """The request carried ``_meta.progressToken``."""
    auth: int
    """The caller context."""
    capabilities: frozenset[str]
    """Declared client capabilities."""
    retry: Retry | None
    """The verified retry inputs on an MRTR retry."""

class CallTool:
    """``tools/call`` of a registered tool (``add_tool``), its name, ``arguments`` (an object
    with every required property) and any ``requestState`` checked by the machine:
    ``respond_tool``, ``respond_tool_error`` (the tool failed: ``isError``),
    ``respond_input_required`` or ``fail`` (a protocol error)."""

    handle: Handle
    """Pass back to ``respond_tool``/``respond_tool_error``/``respond_input_required``/``fail``."""
    name: str
    """The tool's name."""
    arguments: dict[str, Json]
    """``arguments`` (``{}`` when the request sent none)."""
    progress: bool
    """The request carried ``_meta.progressToken``."""
    auth: int
    """The caller context."""
    capabilities: frozenset[str]
    """Declared client capabilities."""
    retry: Retry | None
    """The verified retry inputs on an MRTR retry."""

class ListResources:
    """``resources/list`` reached the host's own pages (``dynamic_resources=True``; the
    registered resources came first): ``respond_list`` or ``fail``."""

    handle: Handle
    """Pass back to ``respond_list``/``fail``."""
    cursor: str | None
    """The host's own cursor from its previous page's ``next_cursor``; ``None`` first."""
    auth: int
    """The caller context."""
    progress: bool
    """The request carried ``_meta.progressToken``."""

class Cancelled:
    """A handle is dead: stop working on it; later answers are refused."""

    handle: Handle
    """The request."""
    reason: Literal["client", "stream_closed", "timed_out"]
    """Why."""

class StreamOverflow:
    """A listen subscription's queue overflowed and it was torn down."""

    stream: int
    """The stream."""
    subscription: int | str
    """The listen request's id."""

ServerOutput: TypeAlias = Transmit | ReadResource | GetPrompt | Complete | Request | CallTool | ListResources | Cancelled | StreamOverflow
"""What ``ServerMachine.poll_output`` returns."""

Drained: TypeAlias = tuple[list[ServerOutput], int | None]
"""``ServerMachine.drain()``: every queued output and the next deadline (``poll_timeout``)."""

def app_cursor(source: str, offset: int) -> str:
    """The core's cursor text for a position in a list the application assembles from several
    sources (``source``: e.g. a template's ``uriTemplate``; ``offset``: items of it before
    the page)."""

def parse_app_cursor(text: str) -> tuple[str, int] | None:
    """``(source, offset)`` of an ``app_cursor`` text; ``None`` for any other text."""

class ServerMachine:
    """The sans-IO MCP server machine (docs/server-machine.md).

    Drain rule: after any input call ``poll_output()`` until ``None``, then
    ``poll_timeout()``, or ``drain()`` for both; or pass ``drain=True`` to the input
    (``handle_message``, ``handle_http``, ``respond_*``, ``fail``), which then returns
    ``(value, outputs, deadline)``: one call per crossing. Not thread-safe: serialise calls; a concurrent or
    re-entrant call raises ``RuntimeError``.
    """

    def __init__(
        self,
        *,
        server_info: Json | Literal[False] | None = None,
        instructions: str | None = None,
        supported_versions: Sequence[str] | None = None,
        page_size: int | None = None,
        discover_cache: Json | None = None,
        resources_list_cache: Json | None = None,
        templates_list_cache: Json | None = None,
        prompts_list_cache: Json | None = None,
        read_cache: Json | None = None,
        request_timeout_ms: int | None = None,
        stream_queue: int | None = None,
        state_keys: Sequence[tuple[int, builtins.bytes]] | None = None,
        state_ttl_ms: int | None = None,
        forward_unlisted_reads: bool | None = None,
        declare_resources: bool | None = None,
        declare_prompts: bool | None = None,
        completion_events: bool | None = None,
        http_path: str | None = None,
        http_any_path: bool = False,
        max_body: int | None = None,
        allowed_hosts: Sequence[str] | None = None,
        allowed_origins: Sequence[str] | None = None,
        dynamic_resources: bool | None = None,
        max_listens_per_stream: int | None = None,
        max_listens: int | None = None,
        max_pending_per_stream: int | None = None,
        max_pending: int | None = None,
        tools_list_cache: Json | None = None,
        legacy_sessions: bool | None = None,
        max_sessions: int | None = None,
        max_sessions_per_peer: int | None = None,
        session_handshake_ms: int | None = None,
        session_idle_ms: int | None = None,
        max_line: int | None = None,
    ) -> None:
        """Configures the machine; cache hints are ``{"ttlMs", "cacheScope"}`` dicts. A value
        left out (``None``) is the core's default (``page_size`` 50, ``request_timeout_ms``
        30 s, ``stream_queue`` 256, ``state_ttl_ms`` 10 min, the flags off). HTTP entry
        point: ``http_path`` (``"/mcp"``; ``http_any_path``: any path), ``max_body`` (4 MiB),
        ``allowed_hosts``/``allowed_origins`` (the localhost names). ``dynamic_resources``:
        ``resources/list`` asks the host (``ListResources``) after the registered resources.
        Limits (one more gets a JSON-RPC error): ``max_listens_per_stream``,
        ``max_listens``, ``max_pending_per_stream``, ``max_pending``; 2025-11-25 sessions
        (``legacy_sessions``, on by default): ``max_sessions`` (1 024),
        ``max_sessions_per_peer`` (256), ``session_handshake_ms`` (10 s),
        ``session_idle_ms`` (30 min); ``max_line``: the longest stdio line (4 MiB; a longer
        one is answered -32600 with its id). Every numeric one is a core limit by name
        (``limit(name)`` reads it back).

        Raises:
            ConfigError: e.g. ``page_size`` 0 or a short state key.
            InvalidMessage: a dict the spec refuses.
            TypeError: an unknown keyword.
        """

    def add_resource(self, resource: Resource | Json, contents: list[ResourceContents] | list[Json] | None = None, cache: CacheHint | None = None) -> None:
        """Registers a static resource (contents ``None``: ask the app with ``ReadResource``).

        Raises:
            InvalidMessage: a dict the spec refuses (``code`` -32602).
            RegisterError: e.g. ``kind == "duplicate"``.
        """

    def remove_resource(self, uri: str) -> bool:
        """Unregisters a static resource."""

    def set_resource_contents(self, uri: str, contents: list[Json] | None) -> bool:
        """Replaces stored contents (``None``: ask the app); ``False`` if not registered."""

    def add_template(self, template: ResourceTemplate | Json, cache: CacheHint | None = None, completions: Mapping[str, Sequence[str]] | None = None) -> None:
        """Registers a ``ResourceTemplate`` dict; ``completions``: variable → values."""

    def remove_template(self, uri_template: str) -> bool:
        """Unregisters a template by its ``uriTemplate``."""

    def add_prompt(self, prompt: Prompt | Json, completions: Mapping[str, Sequence[str]] | None = None) -> None:
        """Registers a ``Prompt`` dict; ``completions``: argument → values."""

    def remove_prompt(self, name: str) -> bool:
        """Unregisters a prompt."""

    def add_tool(self, tool: Json) -> None:
        """Registers a ``Tool`` dict (checked by the core); ``tools`` is then declared and
        ``tools/list``/``tools/call`` are the machine's (``CallTool`` events).

        Raises:
            InvalidMessage: a dict the spec refuses.
            RegisterError: ``"duplicate"``, ``"tools_by_method"``.
        """

    def remove_tool(self, name: str) -> bool:
        """Unregisters a tool."""

    def tools_list_changed(self) -> None:
        """Queues ``notifications/tools/list_changed``."""

    def drain(self) -> Drained:
        """Every queued output at once, and the next deadline."""

    def set_visibility(self, visible: Callable[[int, Literal["resource", "template", "prompt", "tool"], str], bool]) -> None:
        """Installs ``visible(auth, kind, key)``: per-caller lists and reads (hidden = not found).

        Makes every list and read private. An exception hides the item. The
        callback must not call the machine.
        """

    def handle_message(
        self,
        data: builtins.bytes,
        now_ms: int,
        *,
        stream: int = 0,
        auth: int = 0,
        transport: Literal["stdio", "http"] = "stdio",
        drain: bool = False,
    ) -> Literal["request", "notification", "response", "invalid"] | tuple[str, list[ServerOutput], int | None]:
        """One JSON-RPC message from a client (``"notification"`` on HTTP: answer 202)."""

    def handle_line_too_long(self, head: builtins.bytes, now_ms: int, *, stream: int = 0, auth: int = 0) -> None:
        """A stdio line over ``max_line`` (``StdioLines`` gave ``LineTooLong``): queues -32600
        with the request's id when ``head`` shows it (else ``null``)."""

    @property
    def max_line(self) -> int:
        """The longest stdio line a runner accepts, in bytes (4 MiB)."""

    def limit(self, name: str) -> int | None:
        """The value of the core limit ``name`` (a numeric constructor keyword:
        ``"max_line"``, ``"session_handshake_ms"``, ...); ``None`` for another name."""

    def http_head(self, method: str, path: str, headers: Headers) -> int | HttpResponse:
        """The HTTP entry point's head-only checks, before any body byte is read (path,
        ``Host``/``Origin``, method, ``Content-Type``, ``Accept``, ``Content-Length``): an
        ``int`` (read at most that many bytes, then ``handle_http``) or the ``HttpResponse``
        to write without reading the body."""

    def handle_http(
        self,
        method: str,
        path: str,
        headers: Headers,
        body: builtins.bytes,
        now_ms: int,
        *,
        stream: int,
        auth: int = 0,
        peer: str | None = None,
        drain: bool = False,
        scopes: int | None = None,
    ) -> HttpResponse | None | tuple[HttpResponse | None, list[ServerOutput], int | None]:
        """One HTTP request with its body: the complete ``HttpResponse`` (refusals, errors,
        202, results produced at once), or ``None``: the answer comes as transmits on
        ``stream`` (the first gives ``http_status`` and ``http_headers``). Call
        ``stream_closed(stream)`` if the client goes away first. For a 2025-11-25 session's
        ``GET``, the head of its event stream (``text/event-stream``, no body): keep the
        connection open and write the transmits on ``stream`` as SSE events. ``peer``: the
        client's IP address, for the per-peer bound on 2025-11-25 sessions (``None``, or
        text that is not an IP address: no bound). ``scopes``: the bits ``http_admit`` gave
        a verified caller (``None``: no verified token)."""

    def set_protection(
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
        """Makes the HTTP endpoint an OAuth 2.1 protected resource (``resource``: its
        canonical URL): its metadata is served, tokens are required and checked, items may
        require scopes. Raises ``ConfigError``."""

    def require_scopes(self, kind: Literal["resource", "template", "prompt", "tool"], key: str, scopes: list[str]) -> None:
        """Requires ``scopes`` (from ``scopes_supported``) of every caller of an item: hidden
        from lists without them, and named: HTTP 403 ``insufficient_scope``. Raises
        ``RegisterError``."""

    def http_authenticate(self, method: str, path: str, headers: Headers) -> str | HttpResponse | None:
        """The protected endpoint's door, before ``http_head``: ``None`` (go on, anonymous),
        the bearer token to verify (``str``, then ``http_admit``), or the ``HttpResponse``
        to write (the metadata document, a 401)."""

    def http_admit(self, caller: dict[str, Any], now_ms: int) -> int | HttpResponse:
        """The core's checks on a verified caller (``subject``, ``client_id``, ``scopes``,
        ``audience``, ``expires_at_ms``) at ``now_ms`` (Unix epoch): the scope bits for
        ``handle_http(scopes=)``, or the 401/403 ``HttpResponse`` (expired, another
        audience, a required scope missing)."""

    def http_reject(self, why: str) -> HttpResponse:
        """The 401 ``invalid_token`` answer to a token the verifier refused."""

    def share_sessions(self, instance: builtins.bytes | None) -> None:
        """Shares the 2025-11-25 sessions with a fleet (``instance``: bytes unique to this
        instance, mixed into the ids); ``None`` stops sharing (docs/scale-out.md)."""

    def take_session_changes(self) -> list[tuple[str, builtins.bytes | None]]:
        """Sessions created, used (state bytes) or ended (``None``) since the last call."""

    def import_session(self, id: str, state: builtins.bytes, now_ms: int) -> None:
        """Takes session ``id``'s state from the fleet's store.

        Raises:
            ValueError: a state this core does not encode.
        """

    def has_session(self, id: str) -> bool:
        """Whether this machine holds 2025-11-25 session ``id``."""

    def forget_session(self, id: str) -> int | None:
        """Forgets session ``id`` here (ended elsewhere); its GET stream, if open here."""

    def session_change_settled(self, id: str) -> None:
        """One change of session ``id`` taken by ``take_session_changes`` is settled (stored,
        or given up): a table load may replace this machine's state of it again."""

    def session_load_begin(self) -> None:
        """A load of the fleet's table starts: sessions whose change is in flight, or taken
        until ``session_load_end``, keep this machine's (newer) state."""

    def session_load_abort(self) -> None:
        """The load failed: nothing is imported nor forgotten."""

    def session_load_end(self, table: Mapping[str, builtins.bytes], now_ms: int) -> tuple[int, list[str], int, list[int]]:
        """The fleet's table read at ``now_ms``: imports what is not newer here, forgets what
        the table lacks: ``(imported, malformed ids, forgotten, GET streams to close)``."""

    def session_head(self, headers: Mapping[str, str] | Sequence[tuple[str | builtins.bytes, str | builtins.bytes]]) -> tuple[str | None, int | None]:
        """The session a request names, and the event number a resumed GET replays after."""

    def session_event(self, stream: int, data: builtins.bytes) -> tuple[str, int, builtins.bytes] | None:
        """``(session, seq, sse_bytes)`` for a transmit on a session's GET stream."""

    def session_stream_floor(self, stream: int, stored_max: int) -> None:
        """Numbers the GET stream's next events after the ``stored_max`` already stored."""

    def gate(self, on: bool) -> None:
        """Turns the gate on or off (docs/rules.md §26.7): every request stops for the
        middleware first (``gate_request``), the ones the core answers itself included."""

    def gate_request(
        self, data: builtins.bytes, now_ms: int, *, stream: int = 0, auth: int = 0, transport: str = "stdio"
    ) -> Any:
        """The request as the gate shows it (a ``GateRequest``: ``method``, ``request_id``,
        ``target``, ``caller``, ``stream``, ``transport``, ``era``, ``protocol_version``,
        ``session_id``, ``traceparent``, ``tracestate``, ``span_name``, ``start_ms``,
        ``annotate(key, value)``), or ``None`` (gate off, or no request)."""

    def http_gate_request(
        self, method: str, path: str, headers: Any, body: builtins.bytes, now_ms: int, *, stream: int, auth: int = 0
    ) -> Any:
        """``gate_request`` for an HTTP ``POST`` (the session its headers name is the
        request's)."""

    def gate_admit(self, gate: Any) -> None:
        """The middleware allowed ``gate``: its annotations go to the request's observation;
        then hand the same bytes to ``handle_message``/``handle_http``."""

    def gate_refuse(self, gate: Any, code: int, message: str, *, drain: bool = False) -> Any:
        """The middleware refused ``gate``: the error a handler's ``McpError(code, message)``
        gets (reserved codes -32603) is queued on the request's stream."""

    def http_gate_refuse(self, gate: Any, code: int, message: str, *, drain: bool = False) -> Any:
        """``gate_refuse`` for a request of ``http_gate_request``: the ``HttpResponse``."""

    def set_waker(self, callback: Callable[[], object]) -> None:
        """Installs the output-ready signal: ``callback()`` runs each time an output is queued
        while the queue was empty (any call: ``respond_*``, ``fail``, pushes, timeouts), and at
        once when output is already waiting. It runs inside that machine call, so it must not
        call the machine: it schedules a drain (``loop.call_soon(drain)``)."""

    def has_output(self) -> bool:
        """Whether ``poll_output`` has something to give."""

    def poll_output(self) -> ServerOutput | None:
        """The next output, or ``None``."""

    def poll_timeout(self) -> int | None:
        """When (``now_ms``) to call ``handle_timeout``."""

    def handle_timeout(self, now_ms: int) -> None:
        """Fails requests past their deadline with -32603."""

    def stream_closed(self, stream: int) -> None:
        """The transport closed ``stream``: its subscriptions and events end."""

    def respond_read(self, handle: Handle, contents: list[ResourceContents] | list[Json], cache: CacheHint | None = None, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``ReadResource`` with ``ResourceContents`` dicts (``cache`` overrides hints).

        Raises:
            RespondError: unknown handle or wrong kind.
            InvalidMessage: contents the spec refuses.
        """

    def respond_prompt(self, handle: Handle, result: GetPromptResult | Json, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``GetPrompt`` with a ``GetPromptResult`` dict."""

    def respond_tool(self, handle: Handle, result: Json, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``CallTool`` with a ``CallToolResult`` dict (checked; the machine adds
        ``resultType`` and ``_meta.serverInfo``).

        Raises:
            RespondError: ``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``.
        """

    def respond_tool_error(self, handle: Handle, message: str, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``CallTool`` whose tool failed: ``isError: true``, ``message`` as text."""

    def respond_result(self, handle: Handle, result: Json, cache: CacheHint | None = None, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``Request`` with a result object (the machine adds ``resultType``,
        ``_meta.serverInfo`` and, with ``cache``, ``ttlMs``/``cacheScope``).

        Raises:
            RespondError: ``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``.
        """

    def respond_list(self, handle: Handle, resources: list[Resource] | list[Json], next_cursor: str | None = None, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``ListResources`` with a page and the host's next cursor (``None``: last).

        Raises:
            RespondError: ``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``.
        """

    def progress(self, handle: Handle, progress: float, total: float | None = None, message: str | None = None) -> bool:
        """Sends ``notifications/progress`` when the request carried a ``progressToken``
        (``False``: it did not, nothing sent).

        Raises:
            RespondError: ``"unknown_handle"`` after the final response; ``"invalid_progress"``.
        """

    def log_for(self, handle: Handle, level: str, data: Json, logger: str | None = None) -> bool:
        """``notifications/message`` for the request behind ``handle`` (on its stream, before
        its answer) when the request admits ``level``; ``False``: filtered out, nothing sent.

        Raises:
            RespondError: ``"unknown_handle"`` after the final response.
            ValueError: an unknown level.
        """

    def log(self, level: str, data: Json, logger: str | None = None) -> int:
        """``notifications/message`` to every 2025-11-25 connection and session whose level
        admits ``level``; how many streams it was queued on."""

    def add_method(self, method: str) -> None:
        """Registers a method the core does not own; its requests become ``Request`` events.

        Raises:
            RegisterError: ``kind == "core_method"``.
        """

    def remove_method(self, method: str) -> bool:
        """Unregisters a method (-32601 again); whether it was registered."""

    def set_capability(self, key: str, value: Json) -> None:
        """Announces ``capabilities[key] = value`` in ``server/discover`` (e.g. ``"tools"``).

        Raises:
            RegisterError: a key the core derives (``resources``, ``prompts``, ``completions``).
        """

    def remove_capability(self, key: str) -> bool:
        """Withdraws a capability; whether it was set."""

    def respond_completion(self, handle: Handle, values: Sequence[str], *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers a ``Complete`` with candidate values (first 100 sent)."""

    def respond_input_required(self, handle: Handle, requests: Json, state: builtins.bytes | None = None, *, drain: bool = False) -> None | tuple[None, list[ServerOutput], int | None]:
        """Answers with ``input_required``: ``requests`` key → ``{"method", "params"}``.

        Raises:
            RespondError: ``kind == "client_lacks_capability"`` means the client got
                -32021 and the handle is consumed.
        """

    def fail(
        self,
        handle: Handle,
        reason: Literal["not_found", "invalid_params", "internal", "application", "handler"],
        message: str | None = None,
        *,
        code: int | None = None,
        drain: bool = False,
    ) -> None | tuple[None, list[ServerOutput], int | None]:
        """Fails the request (-32602 with ``data.uri``, -32602, -32603, or ``code``: the
        core maps -32602 to invalid params, -32002 to not found, other reserved codes to
        -32603); ``"handler"``: the handler's own failure, a ``CallTool`` result with
        ``isError: true`` and ``message``, -32603 (message not sent) for any other event."""

    def resource_updated(self, uri: str) -> None:
        """Queues ``notifications/resources/updated`` on the listens that opted in."""

    def resources_list_changed(self) -> None:
        """Queues ``notifications/resources/list_changed``."""

    def prompts_list_changed(self) -> None:
        """Queues ``notifications/prompts/list_changed``."""

    def shutdown(self) -> None:
        """Graceful close of every subscription."""

    @property
    def page_size(self) -> int:
        """Items per list page (the configuration's ``page_size``)."""

    @property
    def pending_requests(self) -> int:
        """Requests waiting for the application."""

    @property
    def subscriptions(self) -> int:
        """Open listen subscriptions."""

    @property
    def open_sessions(self) -> int:
        """Open 2025-11-25 HTTP sessions (the ``open_sessions`` gauge)."""

# --- authorization, client side (the core's OAuth 2.1 flow) ----------------------------------

AUTH_ENTROPY_LEN: int
"""The random bytes ``Authorizer.handle_challenge`` takes (48)."""

class AuthFetch:
    """Send this request (redirects not followed); answer with ``Authorizer.handle_fetched``."""

    id: int
    """Echo it back with the response."""
    method: str
    """``"GET"`` or ``"POST"``."""
    url: str
    """The absolute URL."""
    headers: list[tuple[str, str]]
    """The headers to send."""
    body: builtins.bytes
    """The body (empty for ``GET``)."""

class AuthAuthorize:
    """Send the user agent to ``url``; pass where it is redirected to ``handle_redirect``."""

    url: str
    """The authorization request URL."""

class AuthStore:
    """Keep these tokens (they replace earlier ones for the same resource)."""

    tokens: dict[str, Any]
    """``issuer``, ``resource``, ``access_token``, ``refresh_token``, ``expires_at_ms``, ``scope``."""

class AuthRetry:
    """Send the challenged request again with this ``Authorization`` value."""

    authorization: str
    """``Bearer <access token>``."""

class AuthFailed:
    """The flow stopped; the challenged request fails."""

    error: str
    """Why, in words."""

class Authorizer:
    """The client side of MCP authorization (OAuth 2.1 authorization code with PKCE) for one
    server, as a state machine; the host does the I/O, the clock and the randomness."""

    def __init__(
        self,
        server_url: str,
        redirect_uri: str,
        client_name: str,
        *,
        client_id_metadata_document: str | None = None,
        pre_registered: list[tuple[str, str, str | None]] = ...,
        offline_access: bool = True,
        max_authorizations: int = 3,
        refresh_skew_ms: int = 60_000,
    ) -> None:
        """A flow for ``server_url``; ``pre_registered``: ``(issuer, client_id, secret)``."""

    def restore(self, tokens: dict[str, Any]) -> bool:
        """Loads stored tokens; ``False`` when they are for another resource."""

    def tokens(self) -> dict[str, Any] | None:
        """The tokens held."""

    def auth_context(self) -> int | None:
        """One ``int`` per grant of the tokens held (kept across refreshes), or ``None``."""

    def poll_action(self) -> AuthFetch | AuthAuthorize | AuthStore | AuthRetry | AuthFailed | None:
        """The next action; drain after every input."""

    def is_busy(self) -> bool:
        """Whether a flow is running."""

    def authorization_header(self, request_url: str, now_ms: int) -> str | None:
        """The ``Authorization`` value for a request to ``request_url``, if any."""

    def refresh_due(self, now_ms: int) -> bool:
        """Whether the access token is about to expire and can be refreshed now."""

    def start_refresh(self, now_ms: int) -> None:
        """Starts a refresh when one is due."""

    def handle_success(self) -> None:
        """A request went through."""

    def handle_challenge(self, status: int, www_authenticate: str | None, entropy: builtins.bytes, now_ms: int) -> None:
        """A 401 (or 403 ``insufficient_scope``) and its ``WWW-Authenticate``: starts the flow."""

    def handle_fetched(self, id: int, status: int, body: builtins.bytes, now_ms: int) -> None:  # noqa: A002
        """The response to fetch ``id``."""

    def handle_fetch_failed(self, id: int, now_ms: int) -> None:  # noqa: A002
        """Fetch ``id`` could not be carried."""

    def handle_redirect(self, redirect_url: str, now_ms: int) -> None:
        """The URL the user agent came back to."""

# --- observations (mcp_context.telemetry; docs/rules.md §26) ---------------------------

RATE_LIMITED: int
RESPONSE_TOO_LARGE: int

def observe(machine: ServerMachine, on: bool) -> None:
    """Turns the machine's observations on or off (off by default, then free)."""

def limit_responses(machine: ServerMachine, max: int | None) -> None:  # noqa: A002
    """Answers over ``max`` bytes become the error ``RESPONSE_TOO_LARGE``."""

def annotate(machine: ServerMachine, handle: Handle, key: str, value: str) -> None:
    """Adds ``key = value`` to the observation of the pending request ``handle``."""

def poll_observations(machine: ServerMachine, now_ms: int) -> list[dict[str, Any]]:
    """Every waiting observation (``kind`` ``"request"`` or ``"refused"``)."""

def trace_parent(meta: str | None, header: str | None = None) -> tuple[str, str, int] | None:
    """``(trace_id, span_id, flags)`` of the ``_meta`` traceparent, else the header's."""
class Fleet:
    """The core's fleet protocol (docs/rules.md §23); used by ``mcp_context.broker``."""

    def __init__(self, fleet: str, instance_id: str) -> None:
        """``fleet``: the fleet's name; ``instance_id``: this instance (unique in the fleet)."""
    @property
    def channel(self) -> str:
        """``mcp-context:<fleet>:events``."""
    @property
    def instance_id(self) -> str:
        """This instance's id."""
    @property
    def connected(self) -> bool:
        """Whether the link is up."""
    def local(self, machine: ServerMachine, kind: str, uri: str | None = None) -> bytes | None:
        """A change made here: applied to ``machine``, then the event to publish (``None``
        while the link is down)."""
    def receive(self, machine: ServerMachine, event: bytes) -> str:
        """One event from the channel: ``"applied"``, ``"echo"``, ``"malformed"``,
        ``"version"`` or ``"kind"``."""
    def link_up(self, machine: ServerMachine) -> bool:
        """The subscriber is subscribed; ``True`` when every listen was ended."""
    def link_down(self, machine: ServerMachine) -> bool:
        """The link is lost or an attempt failed; ``True`` when every listen was ended."""
    def published(self, n: int) -> None:
        """``n`` events were handed to the broker."""
    def dropped(self, n: int) -> None:
        """``n`` events from ``local`` were dropped by the runner."""
    def stats(self) -> dict[str, Any]:
        """The counters (``connected``, ``published``, ``applied``, ``echoes``, ``dropped``,
        ``rejected``, ``signals``)."""
    def metrics(self) -> list[tuple[str, str | None, int]]:
        """The counters as broker metrics: ``(name, reason | None, value)``."""

def decode_fleet_event(event: bytes) -> tuple[int, str, str, str | None] | None:
    """A fleet event decoded: ``(version, instance_id, kind, uri)``, or ``None``."""

def encode_session_message(origin: bytes, id: str, state: bytes | None) -> bytes:
    """A session channel message: the instance's 16 ``origin`` bytes, the session ``id``, its
    ``state`` or ``None`` when it ended."""

def decode_session_message(data: bytes) -> tuple[bytes, str, bytes | None] | None:
    """``(origin, id, state | None)`` of a session channel message, or ``None``."""

BROKER_COUNTERS: list[tuple[str, str]]
"""The broker metrics' counters, ``(name, description)`` (the core's ``fleet::metrics``)."""
BROKER_CONNECTED: tuple[str, str]
"""The broker's ``connected`` gauge, ``(name, description)``."""
BROKER_REASON: str
"""The attribute of ``mcp_context.broker.skipped`` (``echo`` or ``rejected``)."""
REDIS_TOKEN_BUCKET: str
"""The core's Redis token bucket (Lua; ``KEYS[1]`` the caller's key, ``ARGV`` rate and burst;
returns 0 or the ms to wait), shared by every runner's Redis rate limit."""
RATE_KEY_PREFIX: str
"""The default prefix of a caller's bucket key (``mcp:rate:``)."""
RATE_FAIL_CLOSED: bool
"""Whether a Redis rate limit refuses a request when Redis cannot answer, by default
(``False``: it fails open; the core's ``fleet::rate::OnFailure``)."""
RATE_UNAVAILABLE_MESSAGE: str
"""The refusal's message when Redis cannot answer and the limit fails closed."""
RATE_FAILURE_ANNOTATION: str
"""The annotation on a request whose limit could not reach Redis (value ``open`` or
``closed``: the policy applied)."""
