"""``TypedDict``s of the MCP 2026-07-28 wire shapes the API takes and returns (camelCase keys,
as on the wire). Plain dicts at run time; pydantic models from ``mcp.types`` are accepted
wherever one of these is (they are dumped with ``by_alias=True``)."""

from __future__ import annotations

import sys
from typing import Any, Literal, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # CPython 3.10: the one dependency the package has there (pyproject.toml)
    from typing_extensions import NotRequired



__all__ = [
    "Annotations",
    "BlobResourceContents",
    "CacheHint",
    "Completion",
    "CompletionArgument",
    "CompletionContext",
    "ContentBlock",
    "EmbeddedResource",
    "GetPromptResult",
    "Icon",
    "ImageContent",
    "InputRequest",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "PromptReference",
    "ReadResourceResult",
    "Resource",
    "ResourceContents",
    "ResourceTemplate",
    "ResourceTemplateReference",
    "SubscriptionFilter",
    "TextContent",
    "TextResourceContents",
]

Role = Literal["user", "assistant"]
CacheScope = Literal["public", "private"]


class CacheHint(TypedDict):
    """How long and by whom a result may be reused (``ttlMs`` 0: not at all)."""

    ttlMs: int
    cacheScope: CacheScope


class Annotations(TypedDict, total=False):
    """Hints for clients: who the item is for, how important, when it last changed."""

    audience: list[Role]
    priority: float
    lastModified: str


class Icon(TypedDict):
    """An icon of a resource, template or prompt."""

    src: str
    mimeType: NotRequired[str]
    sizes: NotRequired[list[str]]


class Resource(TypedDict):
    """An entry of ``resources/list``."""

    uri: str
    name: str
    title: NotRequired[str]
    description: NotRequired[str]
    mimeType: NotRequired[str]
    annotations: NotRequired[Annotations]
    size: NotRequired[int]
    icons: NotRequired[list[Icon]]
    _meta: NotRequired[dict[str, Any]]


class ResourceTemplate(TypedDict):
    """An entry of ``resources/templates/list`` (an RFC 6570 ``uriTemplate``)."""

    uriTemplate: str
    name: str
    title: NotRequired[str]
    description: NotRequired[str]
    mimeType: NotRequired[str]
    annotations: NotRequired[Annotations]
    icons: NotRequired[list[Icon]]
    _meta: NotRequired[dict[str, Any]]


class TextResourceContents(TypedDict):
    """Text contents of a resource."""

    uri: str
    text: str
    mimeType: NotRequired[str]
    _meta: NotRequired[dict[str, Any]]


class BlobResourceContents(TypedDict):
    """Binary contents of a resource (``blob``: base64)."""

    uri: str
    blob: str
    mimeType: NotRequired[str]
    _meta: NotRequired[dict[str, Any]]


ResourceContents = TextResourceContents | BlobResourceContents


class ReadResourceResult(TypedDict):
    """The result of ``resources/read``."""

    resultType: Literal["complete"]
    contents: list[ResourceContents]
    ttlMs: NotRequired[int]
    cacheScope: NotRequired[CacheScope]
    _meta: NotRequired[dict[str, Any]]


class PromptArgument(TypedDict):
    """An argument of a prompt."""

    name: str
    title: NotRequired[str]
    description: NotRequired[str]
    required: NotRequired[bool]


class Prompt(TypedDict):
    """An entry of ``prompts/list``."""

    name: str
    title: NotRequired[str]
    description: NotRequired[str]
    arguments: NotRequired[list[PromptArgument]]
    icons: NotRequired[list[Icon]]
    _meta: NotRequired[dict[str, Any]]


class TextContent(TypedDict):
    """A text content block."""

    type: Literal["text"]
    text: str
    annotations: NotRequired[Annotations]


class ImageContent(TypedDict):
    """An image content block (``data``: base64)."""

    type: Literal["image"]
    data: str
    mimeType: str
    annotations: NotRequired[Annotations]


class EmbeddedResource(TypedDict):
    """A resource's contents embedded in a message."""

    type: Literal["resource"]
    resource: ResourceContents
    annotations: NotRequired[Annotations]


ContentBlock = TextContent | ImageContent | EmbeddedResource


class PromptMessage(TypedDict):
    """One message of a prompt."""

    role: Role
    content: ContentBlock


class GetPromptResult(TypedDict):
    """The result of ``prompts/get``."""

    messages: list[PromptMessage]
    description: NotRequired[str]
    resultType: NotRequired[Literal["complete"]]
    _meta: NotRequired[dict[str, Any]]


class PromptReference(TypedDict):
    """``completion/complete``'s ``ref`` for a prompt argument."""

    type: Literal["ref/prompt"]
    name: str


class ResourceTemplateReference(TypedDict):
    """``completion/complete``'s ``ref`` for a template variable."""

    type: Literal["ref/resource"]
    uri: str


class CompletionArgument(TypedDict):
    """What is being completed: the argument's ``name`` and the ``value`` typed so far."""

    name: str
    value: str


class CompletionContext(TypedDict):
    """Arguments already resolved."""

    arguments: dict[str, str]


class Completion(TypedDict):
    """``completion/complete``'s ``completion``."""

    values: list[str]
    total: NotRequired[int]
    hasMore: NotRequired[bool]


class SubscriptionFilter(TypedDict, total=False):
    """What a ``subscriptions/listen`` asks for."""

    resourcesListChanged: bool
    promptsListChanged: bool
    toolsListChanged: bool
    resourceSubscriptions: list[str]


class InputRequest(TypedDict):
    """One request of an ``input_required`` round."""

    method: str
    params: dict[str, Any] | None
