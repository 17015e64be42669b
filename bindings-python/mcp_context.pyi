"""MCP 2026-07-28 context primitives on a sans-IO Rust core.

Today: RFC 6570 URI templates (``UriTemplate``) and the JSON-RPC error codes
(``ErrorCode``). Bad input raises a subclass of ``McpContextError``; wrong
Python types raise ``TypeError``. The extension never panics on input.
"""

from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Final, Literal, TypeAlias

__all__ = [
    "PROTOCOL_VERSION",
    "ErrorCode",
    "McpContextError",
    "TemplateError",
    "UriTemplate",
]

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
    """An RFC 6570 URI template that cannot be parsed or expanded."""

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

    def __repr__(self) -> str:
        """``UriTemplate('...')``."""

    def __str__(self) -> str:
        """The template source."""

    def __eq__(self, other: object) -> bool:
        """Templates are equal when their sources are."""

    def __hash__(self) -> int:
        """The hash of the source."""
