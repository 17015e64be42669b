from mcp_context.server import App, NotFound

app = App("hello", "1.0.0")
USERS = ["ada", "alan", "grace"]


@app.resource("hello://users/{name}", mime_type="text/plain", complete={"name": USERS})
def user(name: str) -> str:
    """A greeting for one user."""
    if name not in USERS:
        raise NotFound(name)
    return f"Hello, {name}"


app.run_stdio()
