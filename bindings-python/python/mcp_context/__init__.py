"""MCP 2026-07-28 context primitives on a sans-IO Rust core.

The extension module (``mcp_context._core``, re-exported here) holds the machines and every
protocol rule; the pure-Python submodules run them:

* ``mcp_context.server``: ``App``, decorators for resources, templates, prompts, tools and
  completions; runners ``run_stdio()``, ``asgi()`` and ``run_http()``.
* ``mcp_context.aio``: ``Client``, an awaitable client over a stdio subprocess or Streamable HTTP.
* ``mcp_context.types``: ``TypedDict``s of the wire shapes the API takes and returns.
"""

from ._core import *  # noqa: F403
from ._core import __all__ as __all__  # noqa: PLC0414
