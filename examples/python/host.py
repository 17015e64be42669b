"""A host on ``mcp_context.aio.Client``: connects to a server over stdio or Streamable HTTP and
shows what it serves.

    python examples/python/host.py stdio -- python examples/python/notes_server.py
    python examples/python/host.py http http://127.0.0.1:8000/mcp
"""

import asyncio
import json
import sys

from mcp_context import McpError
from mcp_context.aio import Client, NoStore


async def demo(client: Client) -> None:
    async with client as c:
        print("discover:", json.dumps((await c.discover())["capabilities"]))
        print("resources:", [r["uri"] for r in await c.list_resources()])
        print("read note-1:", (await c.read_resource("notes://note-1"))["contents"][0]["text"].splitlines()[0])
        try:
            await c.read_resource("notes://missing")
        except McpError as e:
            print("read missing:", e.code, e.data)


def main(argv: list[str]) -> None:
    # Exercise (c): the payroll note is never kept in this host's cache, whatever the hints say.
    policy = NoStore(r"notes://note-7")
    if len(argv) >= 2 and argv[0] == "stdio":
        command = argv[2:] if argv[1] == "--" else argv[1:]
        asyncio.run(demo(Client.stdio(command, no_store=policy)))
    elif len(argv) == 2 and argv[0] == "http":
        asyncio.run(demo(Client.http(argv[1], no_store=policy)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
