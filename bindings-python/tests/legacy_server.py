"""A 2025-11-25-only server on App (the machine serves legacy sessions): for aio.Client's
legacy-era fallback (tests/test_aio.py)."""

import sys
from mcp_context.server import App
app = App("legacy", "1", supported_versions=["2025-11-25"])
@app.resource("x://a")
def a() -> str:
    return "legacy hello"
if sys.argv[1:2] == ["--http"]:
    app.run_http(port=0, ready=lambda p: print(f"listening on http://127.0.0.1:{p}/mcp", flush=True))
else:
    app.run_stdio()
