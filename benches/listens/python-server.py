"""The Python runner under load: ``mcp_context.App`` as ASGI on uvicorn, one resource
``bench://hot``, and ``POST /touch`` (outside MCP) that reports it changed. The listen cap is
the config's ``max_listens`` (``--max-listens N``). Prints ``listening <host:port>`` once
bound."""

import sys

import uvicorn
from mcp_context.server import App


def opt(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


app = App("listens-bench", "1.0.0", max_listens=int(opt("--max-listens", "200000")))


@app.resource("bench://hot")
def hot() -> str:
    return "hot"


mcp = app.asgi()


async def router(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == "/touch":
        app.resource_updated("bench://hot")
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    await mcp(scope, receive, send)


class Ready(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets)
        for s in self.servers:
            for sock in s.sockets:
                host, port = sock.getsockname()[:2]
                print(f"listening {host}:{port}", flush=True)


config = uvicorn.Config(router, host="127.0.0.1", port=int(opt("--port", "0")), log_level="warning", lifespan="on", backlog=4096)
Ready(config).run()
