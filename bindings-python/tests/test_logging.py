"""Server logging (``notifications/message``) from ``App``: ``ctx.log`` for a request and
``app.log`` for every 2025-11-25 connection, received by the official SDK client (mcp==2.3.0)
at the level it asked for: ``logging/setLevel`` on a 2025-11-25 session, the request's
``_meta`` log level on 2026-07-28 (docs/rules.md §16.9 rule 54, §17.3 item 13)."""

import contextlib
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "app_fixture.py"


@contextlib.contextmanager
def http_fixture():
    proc = subprocess.Popen([sys.executable, str(FIXTURE), "--http", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(10)


def stdio() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(FIXTURE)])


def collect(target, mode: str, **opts):
    """Calls ``journaliser`` and returns (its text, the log lines received in order)."""
    got: list[tuple[str, str | None, object]] = []

    async def on_log(params):
        got.append((params.level, params.logger, params.data))

    async def main():
        with anyio.fail_after(30):
            async with Client(target, read_timeout_seconds=10, cache=None, mode=mode, logging_callback=on_log, **opts) as c:
                if mode == "legacy":
                    await c.set_logging_level("warning")
                result = await c.call_tool("journaliser", {})
                return result.content[0].text

    return anyio.run(main), got


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_legacy_set_level_filters_request_and_connection_logs(transport):
    with contextlib.ExitStack() as stack:
        target = stdio() if transport == "stdio" else stack.enter_context(http_fixture())
        text, got = collect(target, "legacy")
    # warning and error pass the session's level; notice (app.log) does not.
    assert text == "warning,error (0 flux)", text
    assert got == [("warning", "journal", {"niveau": "warning"}), ("error", "journal", {"niveau": "error"})], got


def test_legacy_session_gets_app_log_at_its_level():
    async def main():
        got = []

        async def on_log(params):
            got.append((params.level, params.logger, params.data))

        with anyio.fail_after(30):
            async with Client(stdio(), read_timeout_seconds=10, cache=None, mode="legacy", logging_callback=on_log) as c:
                await c.set_logging_level("notice")
                text = (await c.call_tool("journaliser", {})).content[0].text
                await c.send_ping()  # the connection's log line is written before the ping's answer
        return text, got

    text, got = anyio.run(main)
    assert text == "warning,error (1 flux)", text
    assert ("notice", "app", "hors requête") in got, got


def test_modern_request_log_level_filters():
    text, got = collect(stdio(), "auto", log_level="info")
    assert text == "info,warning,error (0 flux)", text
    assert [g[0] for g in got] == ["info", "warning", "error"], got


def test_modern_request_without_a_log_level_gets_none():
    text, got = collect(stdio(), "auto")
    assert text == " (0 flux)", text
    assert got == []
